#!/usr/bin/env bash
# Reproducible builds: builds the published modules twice, each from a clean copy of the work tree in its own
# directory, with tests skipped, and fails unless every jar (classes, sources, javadoc) is byte for byte equal.
#   .ci/release/reproducible.sh [BUILT_COPY]
# BUILT_COPY: a copy already built from clean (as .ci/release-check.sh's deploy build is) stands for the first.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
. "$root/bin/lib/java-home.sh"
. "$root/.ci/release/lib.sh"
work=$(mktemp -d /tmp/strand-reproducible.XXXXXX)
trap 'rm -rf "$work"' EXIT
build() { # build DIR
  mvn -B -ntp -q -f "$1/pom.xml" package -Dmaven.test.skip=true -pl '!strand-bench,!strand-cli,!strand-guide' >"$1.log" 2>&1 \
    || { cat "$1.log" >&2; return 1; }
}
first=${1:-}
if [ -z "$first" ]; then
  first="$work/first"
  release_copy "$first"
  build "$first"
fi
release_copy "$work/second" "$(project_version "$first")"
build "$work/second"
compare_jars "$first" "$work/second"
