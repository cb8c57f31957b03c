#!/usr/bin/env bash
# Writes OUT_DIR/ARTIFACT.jar for every published jar module: its jar as built from the commit named in
# .ci/release/api-baseline (the API that must stay binary compatible). A module that commit lacks gets an empty
# jar, so all of its API counts as added. Built once per commit, then taken from the cache.
#   .ci/release/api-baseline.sh OUT_DIR
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
out=$1
commit=$(grep -v '^#' "$root/.ci/release/api-baseline" | head -1)
cache="${STRAND_RELEASE_CACHE:-$HOME/.cache/strand-release-check}/api-baseline-$commit"
modules=$(python3 "$root/.ci/release/check-bom.py" --list "$root")

if [ ! -f "$cache/complete" ]; then
  if ! git -C "$root" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "api-baseline: commit $commit is not in this clone (a shallow clone? fetch its history)" >&2
    exit 1
  fi
  src=$(mktemp -d /tmp/strand-api-baseline.XXXXXX)
  trap 'rm -rf "$src"' EXIT
  git -C "$root" archive "$commit" | tar -x -C "$src"
  present=()
  for m in ${modules//,/ }; do [ -f "$src/$m/pom.xml" ] && present+=("$m"); done
  echo "api-baseline: building ${present[*]} at ${commit:0:12}" >&2
  (IFS=,; mvn -B -ntp -q -f "$src/pom.xml" package -Dmaven.test.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
    -pl "${present[*]}" -am) >"$src/build.log" 2>&1 || { cat "$src/build.log" >&2; exit 1; }
  rm -rf "$cache.tmp" && mkdir -p "$cache.tmp"
  for m in "${present[@]}"; do
    cp "$(ls "$src/$m"/target/"$m"-*.jar | grep -v -e '-sources\.jar$' -e '-javadoc\.jar$')" "$cache.tmp/$m.jar"
  done
  touch "$cache.tmp/complete"
  rm -rf "$cache" && mv "$cache.tmp" "$cache"
fi

mkdir -p "$out"
for m in ${modules//,/ }; do
  if [ -f "$cache/$m.jar" ]; then
    cp "$cache/$m.jar" "$out/$m.jar"
  else
    echo "api-baseline: $m is new since ${commit:0:12}: all of its API counts as added" >&2
    empty=$(mktemp -d) && jar --create --file "$out/$m.jar" -C "$empty" . && rmdir "$empty"
  fi
done
