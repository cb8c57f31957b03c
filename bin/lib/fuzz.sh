#!/usr/bin/env bash
# Fuzzes strand-core's parser targets (the @FuzzTest methods of dev.strand.fuzz) with Jazzer, coverage-guided,
# each for a fixed time, and prints a line per target: executions, executions per second, coverage (libFuzzer's
# cov: edges and ft: features), corpus size and what was found.
#   bin/strand fuzz [--seconds N | --minutes N] [TARGET...]   (or bin/lib/fuzz.sh, which it runs)
# A TARGET is a class (Http1ResponseFuzzTest), a class and method (Http1ResponseFuzzTest.chunkedBody) or any
# part of one (Cookie); none means every target. Each target runs in its own JVM under Jazzer's standalone
# driver, not under Surefire: @FuzzTest fixes its time budget at compile time, the driver takes it per run.
# The corpus a run grows stays under strand-core/target/fuzz/corpus (delete it to start from the seeds); the
# seeds in src/test/resources/.../<Class>Inputs/<method> are only read. A crash's input is written to
# strand-core/target/fuzz/findings/<target>/ and the run exits 1: copy it into the seeds once it is fixed,
# so bin/test replays it. STRAND_NO_BUILD=1 uses the compiled test classes as they are.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
. "$root/bin/lib/java-home.sh"
seconds=10
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --minutes) seconds=$(($2 * 60)); shift 2 ;;
    -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done

core="$root/strand-core"
out="$core/target/fuzz"
mkdir -p "$out"
if [ "${STRAND_NO_BUILD:-}" != 1 ] || [ ! -d "$core/target/test-classes/dev/strand/fuzz" ]; then
  echo "strand fuzz: compiling strand-core's tests ..." >&2
  (cd "$root" && mvn -B -ntp -q -pl strand-core -am test-compile -Dmaven.javadoc.skip=true >&2)
fi
if [ ! -f "$out/classpath.txt" ] || [ "$core/pom.xml" -nt "$out/classpath.txt" ] || [ "$root/pom.xml" -nt "$out/classpath.txt" ]; then
  (cd "$root" && mvn -B -ntp -q -pl strand-core dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$out/classpath.txt" >&2)
fi
cp="$core/target/test-classes:$core/target/classes:$(cat "$out/classpath.txt")"

# Every @FuzzTest method, as Class.method, from the sources.
all=()
for src in "$core"/src/test/java/dev/strand/fuzz/*FuzzTest.java; do
  cls=$(basename "$src" .java)
  for m in $(awk '/@FuzzTest/ {f=1; next} f && /void [A-Za-z0-9_]+\(/ {sub(/.*void /, ""); sub(/\(.*/, ""); print; f=0}' "$src"); do
    all+=("$cls.$m")
  done
done
chosen=()
for t in "${all[@]}"; do
  if [ ${#targets[@]} -eq 0 ]; then chosen+=("$t"); continue; fi
  for want in "${targets[@]}"; do
    if [[ $t == *"$want"* ]]; then chosen+=("$t"); break; fi
  done
done
[ ${#chosen[@]} -gt 0 ] || { echo "strand fuzz: no target matches ${targets[*]} (targets: ${all[*]})" >&2; exit 2; }

echo "strand fuzz: ${#chosen[@]} target(s), ${seconds}s each" >&2
printf '%-52s %10s %8s %6s %7s %7s  %s\n' target execs exec/s cov ft corpus result
sanitizers=$(printf 'com.code_intelligence.jazzer.sanitizers.%s:' ClojureLangHooks Deserialization \
  ExpressionLanguageInjection LdapInjection NamingContextLookup OsCommandInjection ReflectiveCall RegexInjection \
  RegexRoadblocks ScriptEngineInjection ServerSideRequestForgery SqlInjection XPathInjection)
found=0
for t in "${chosen[@]}"; do
  cls=${t%.*} m=${t#*.}
  corpus="$out/corpus/$cls/$m" findings="$out/findings/$t" log="$out/logs/$t.log"
  seeds="$core/src/test/resources/dev/strand/fuzz/${cls}Inputs/$m"
  mkdir -p "$corpus" "$findings" "$(dirname "$log")"
  dirs=("$corpus")
  [ -d "$seeds" ] && dirs+=("$seeds")
  # Coverage of our code and of what parses for it (Netty's codecs, the brotli and zstd bindings); the JDK's
  # classes are not instrumented. Jazzer's sanitizers (SQL, LDAP, deserialization ...) watch for nothing a
  # client does and cost seconds of start-up, so they are off; its comparison hooks stay. -timeout: one input
  # running past 30 s is a hang and a finding (the first input also pays for loading and instrumenting classes).
  set +e
  "$JAVA_HOME/bin/java" -Xmx1g -XX:+EnableDynamicAgentLoading --enable-native-access=ALL-UNNAMED \
    -Dio.netty.leakDetection.level=disabled -cp "$cp" com.code_intelligence.jazzer.Jazzer \
    --target_class="dev.strand.fuzz.$cls" --target_method="$m" \
    --instrumentation_includes='dev.strand.**:io.netty.handler.codec.**:com.aayushatharva.**:com.github.luben.**' \
    --custom_hook_includes='dev.strand.**' --disabled_hooks="$sanitizers" \
    -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$findings/" "${dirs[@]}" >"$log" 2>&1
  rc=$?
  set -e
  stats=$(grep -a -E '^#[0-9]+' "$log" | tail -1 || true)
  execs=$(sed -n -e 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n -e 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$stats")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$stats")
  size=$(find "$corpus" -type f | wc -l)
  if [ $rc -eq 0 ]; then
    result=ok
  else
    found=1
    what=$(grep -a -m1 -E '^== Java Exception:|^==[0-9]+== ERROR' "$log" | cut -c1-120 || true)
    result="FINDING (exit $rc): ${what:-see $log}; input in $findings"
  fi
  printf '%-52s %10s %8s %6s %7s %7s  %s\n' "$t" "${execs:--}" "${rate:--}" "${cov:--}" "${ft:--}" "$size" "$result"
done
echo "strand fuzz: logs in $out/logs" >&2
exit $found
