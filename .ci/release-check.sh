#!/usr/bin/env bash
# The release check: what a Java team consuming Strand relies on, end to end, on a throwaway release. bin/test
# runs it after the tests; it runs alone too (no peers needed). docs/releasing.md explains each step.
# STRAND_RELEASE_KEEP=1 keeps its work directory (the copies, the file repository, the logs).
#  1. strand-bom lists every published module (.ci/release/check-bom.py);
#  2. the work tree is copied clean, at the release version (0.1.0-SNAPSHOT → 0.1.0), and deployed to a file
#     repository with sources, javadoc (doclint) and a signature for every file, made with a GPG key generated
#     here, into a temporary GNUPGHOME, without a passphrase; the public API is compared with the baseline
#     (japicmp, .ci/release/api-baseline) in the same build;
#  3. the repository is checked as Central would (.ci/release/verify-repo.py: gpg --verify of each .asc,
#     checksums, pom metadata, BOM = deployed modules), and each check shown to reject a broken input
#     (.ci/release/selftest.sh);
#  4. samples/consumer-plain and samples/consumer-spring-boot import the BOM from that repository and call the
#     testkit's server; their local repository never holds Strand before they build;
#  5. a second clean copy is built (beside 3 and 4) and every jar compared byte for byte with the first's
#     (reproducible builds, .ci/release/reproducible.sh).
# Tests of the modules themselves are skipped here: bin/test ran them.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$root"
. bin/lib/java-home.sh
. .ci/release/lib.sh
if ! command -v gpg >/dev/null; then # Debian's gnupg; bin/test installs the other tools the same way
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnupg >/dev/null
fi
cache="${STRAND_RELEASE_CACHE:-$HOME/.cache/strand-release-check}"
work=$(mktemp -d /tmp/strand-release.XXXXXX)
export GNUPGHOME="$work/gnupg"
reproducible_pid=
cleanup() {
  if [ -n "$reproducible_pid" ]; then kill -- "-$reproducible_pid" 2>/dev/null || true; wait "$reproducible_pid" 2>/dev/null || true; fi
  gpgconf --kill gpg-agent 2>/dev/null || true
  if [ -n "${STRAND_RELEASE_KEEP:-}" ]; then echo "release-check: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
started=$SECONDS
step_start=$SECONDS
step() { # step NAME: closes the previous step's timing
  echo "release-check: $1 ($((SECONDS - step_start)) s)" >&2
  step_start=$SECONDS
}
run_logged() { # run_logged LOG COMMAND...: quiet unless it fails
  "${@:2}" >"$1" 2>&1 || { cat "$1" >&2; echo "release-check: failed: ${*:2}" >&2; return 1; }
}
snapshot=$(project_version "$root")
version=${snapshot%-SNAPSHOT}

python3 .ci/release/check-bom.py >&2
bash .ci/release/api-baseline.sh "$work/api-baseline"
step "BOM checked, API baseline ready"

release_copy "$work/a" "$version"
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --pinentry-mode loopback --passphrase '' \
  --quick-gen-key 'Strand release check (throwaway) <release-check@strand.invalid>' ed25519 sign 1d 2>/dev/null
key=$(gpg --batch --with-colons --list-secret-keys 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
step "a clean copy at $version, throwaway signing key ${key:(-16)}"

# Not installed: the throwaway release stays out of ~/.m2.
run_logged "$work/deploy.log" mvn -B -ntp -q -f "$work/a/pom.xml" deploy -Dmaven.test.skip=true -Dmaven.install.skip=true -Prelease \
  -Dgpg.keyname="$key" -Dstrand.api.baseline="$work/api-baseline" \
  -DaltDeploymentRepository="local::file://$work/repo" -pl '!strand-bench,!strand-cli,!strand-guide'
step "deployed $version to a file repository: signed, javadoc and sources, public API compatible with the baseline"

# The second build for the reproducibility check runs beside the next two steps, which mostly wait on I/O.
# Its own process group (setsid), so that a failure elsewhere stops its Maven too.
setsid bash .ci/release/reproducible.sh "$work/a" >"$work/reproducible.log" 2>&1 &
reproducible_pid=$!

python3 .ci/release/verify-repo.py "$work/repo" "$version" >&2
bash .ci/release/selftest.sh "$work/repo" "$version"
step "repository verified"

# The samples' local repository is kept between runs (Spring Boot and the plugins are downloaded once), but
# loses every Strand artifact first: Strand can only come from the file repository.
consumer_m2="$cache/consumer-m2"
rm -rf "$consumer_m2/dev/strand"
mkdir -p "$consumer_m2"
cat >"$work/settings.xml" <<XML
<settings>
  <localRepository>$consumer_m2</localRepository>
  <profiles>
    <profile>
      <id>strand-release-check</id>
      <repositories>
        <repository>
          <id>strand-release-check</id>
          <url>file://$work/repo</url>
          <releases><enabled>true</enabled></releases>
          <snapshots><enabled>false</enabled></snapshots>
        </repository>
      </repositories>
    </profile>
  </profiles>
  <activeProfiles><activeProfile>strand-release-check</activeProfile></activeProfiles>
</settings>
XML
for sample in consumer-plain consumer-spring-boot; do
  cp -r "samples/$sample" "$work/$sample"
  run_logged "$work/$sample.log" mvn -B -ntp -s "$work/settings.xml" -f "$work/$sample/pom.xml" verify \
    -Dstrand.version="$version"
  ls "$work/$sample"/target/surefire-reports/TEST-*.xml >/dev/null 2>&1 \
    || { echo "release-check: $sample ran no test" >&2; exit 1; }
  grep -h "^$sample:" "$work/$sample.log" | sed "s/^/release-check: /" >&2 || true
done
# Every Strand artifact the samples used is the deployed one.
used=0
while IFS= read -r jar; do
  rel=${jar#"$consumer_m2/"}
  cmp -s "$jar" "$work/repo/$rel" || { echo "release-check: $rel did not come from the file repository" >&2; exit 1; }
  used=$((used + 1))
done < <(find "$consumer_m2/dev/strand" -name '*.jar')
[ "$used" -gt 0 ] || { echo "release-check: the samples used no Strand jar" >&2; exit 1; }
step "samples built against the BOM from the file repository ($used Strand jars, all the deployed ones)"

wait "$reproducible_pid" || { reproducible_pid=; cat "$work/reproducible.log" >&2; exit 1; }
reproducible_pid=
cat "$work/reproducible.log" >&2
step "reproducible (a second clean copy built beside the samples)"
echo "release-check: passed in $((SECONDS - started)) s" >&2
