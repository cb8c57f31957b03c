#!/usr/bin/env bash
# The release checks fail when they should: each is run on a broken input and must say no.
#   .ci/release/selftest.sh [REPO_DIR VERSION]   with a deployed repository, its tampered copy is tried too
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
. "$root/.ci/release/lib.sh"
work=$(mktemp -d /tmp/strand-release-selftest.XXXXXX)
trap 'rm -rf "$work"' EXIT
expect_failure() { # expect_failure WHAT COMMAND...
  if "${@:2}" >/dev/null 2>&1; then echo "selftest: $1 was not caught" >&2; exit 1; fi
}

# A BOM that misses a published module, or lists one that is not published.
mkdir -p "$work/poms"
(cd "$root" && find . -maxdepth 2 -name pom.xml -not -path './samples/*' | tar -cf - -T -) | tar -x -C "$work/poms"
python3 "$root/.ci/release/check-bom.py" "$work/poms" >/dev/null
sed -i '/<artifactId>strand-micrometer<\/artifactId>/d' "$work/poms/strand-bom/pom.xml"
expect_failure "a BOM without strand-micrometer" python3 "$root/.ci/release/check-bom.py" "$work/poms"
sed -i 's#<artifactId>strand-core</artifactId>#<artifactId>strand-cli</artifactId>#' "$work/poms/strand-bom/pom.xml"
expect_failure "a BOM with strand-cli" python3 "$root/.ci/release/check-bom.py" "$work/poms"

# Two builds whose jars differ by a byte.
mkdir -p "$work/one/m/target" "$work/two/m/target"
echo one >"$work/one/m/target/m.jar" && echo two >"$work/two/m/target/m.jar"
expect_failure "jars that differ" compare_jars "$work/one" "$work/two"

# A deployed file changed after signing.
if [ $# -eq 2 ]; then
  cp -r "$1" "$work/repo"
  jar=$(find "$work/repo/dev/strand" -name '*.jar' | head -1)
  printf x >>"$jar"
  expect_failure "a jar changed after signing" python3 "$root/.ci/release/verify-repo.py" "$work/repo" "$2"
fi
echo "selftest: the checks reject a BOM missing a module or listing an unpublished one, differing jars$([ $# -eq 2 ] && echo ', a tampered jar')" >&2
