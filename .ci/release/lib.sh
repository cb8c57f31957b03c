# Sourced by .ci/release-check.sh and .ci/release/reproducible.sh.

# release_copy DEST [VERSION]: the work tree as committed plus uncommitted changes (what git would add; no
# target/ or other ignored files) copied to DEST, every pom at VERSION when one is given.
release_copy() {
  local dest=$1 version=${2:-} snapshot
  mkdir -p "$dest"
  git -C "$root" ls-files -z --cached --others --exclude-standard \
    | (cd "$root" && tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -x -C "$dest"
  if [ -n "$version" ]; then
    snapshot=$(project_version "$dest")
    find "$dest" -name pom.xml -not -path "$dest/samples/*" -print0 \
      | xargs -0 sed -i "s#<version>$snapshot</version>#<version>$version</version>#"
  fi
}

# project_version DIR: the root pom's own version (its first <version>: the root pom has no parent).
project_version() {
  sed -n 's#^  <version>\(.*\)</version>.*#\1#p' "$1/pom.xml" | head -1
}

# compare_jars A B: every jar a build left in A's module target dirs is byte for byte the one in B's.
compare_jars() {
  local a=$1 b=$2 jar n=0 differ=0
  while IFS= read -r jar; do
    n=$((n + 1))
    if [ ! -f "$b/$jar" ]; then
      echo "reproducible: $jar is missing from the second build" >&2; differ=1
    elif ! cmp -s "$a/$jar" "$b/$jar"; then
      echo "reproducible: $jar differs between the two builds" >&2; differ=1
    fi
  done < <(cd "$a" && find . -mindepth 3 -maxdepth 3 -path './*/target/*.jar' | sort)
  if [ "$(cd "$b" && find . -mindepth 3 -maxdepth 3 -path './*/target/*.jar' | wc -l)" -ne "$n" ]; then
    echo "reproducible: the second build made other jars than the first" >&2; differ=1
  fi
  [ "$n" -gt 0 ] || { echo "reproducible: no jars to compare" >&2; return 1; }
  [ "$differ" = 0 ] && echo "reproducible: $n jars byte for byte equal in two builds from clean copies" >&2
  return "$differ"
}
