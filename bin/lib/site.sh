#!/usr/bin/env bash
# bin/strand site: the user guide as a static site in target/site/ (docs/guide/*.md and the reference pages,
# rendered by bin/lib/site.py with python3-markdown), with each published module's javadoc in
# target/site/api/<module>/. Fails on a missing code sample or a broken link. The samples themselves are
# compiled and run by the strand-guide module's tests (mvn verify, bin/test).
# STRAND_NO_BUILD=1 takes the javadoc that the last build left in each module's target/reports/apidocs (bin/test's
# mvn verify makes it) instead of running Maven.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
cd "$root"
. bin/lib/java-home.sh
py=/usr/bin/python3 # Debian's, with its python3-markdown (a python3 earlier on PATH may lack it)
if ! "$py" -c 'import markdown' 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "strand: installing python3-markdown" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-markdown; } >/dev/null
  else
    echo "strand: the site needs Debian's python3-markdown (apt-get install python3-markdown)" >&2
    exit 1
  fi
fi

modules=$("$py" .ci/release/check-bom.py --list) # the published modules: the ones with javadoc
if [ "${STRAND_NO_BUILD:-}" != 1 ]; then
  echo "strand: building the javadoc (mvn package -pl $modules -am, no tests) ..." >&2
  mvn -B -ntp -q -Dmaven.test.skip=true -Dmaven.source.skip=true package -pl "$modules" -am >&2 \
    || { echo "strand: building the javadoc failed (see the Maven output above)" >&2; exit 1; }
fi
rm -rf target/site
mkdir -p target/site/api
for m in ${modules//,/ }; do
  [ -f "$m/pom.xml" ] && grep -q '<packaging>pom</packaging>' "$m/pom.xml" && continue # the BOM
  if [ ! -f "$m/target/reports/apidocs/index.html" ]; then
    echo "strand: $m/target/reports/apidocs is missing (run without STRAND_NO_BUILD=1)" >&2
    exit 1
  fi
  cp -r "$m/target/reports/apidocs" "target/site/api/$m"
done
exec "$py" bin/lib/site.py "$root"
