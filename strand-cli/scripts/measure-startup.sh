#!/usr/bin/env bash
# Wall time of `strand --version` and of one loopback GET, before and after the start-up work,
# beside curl on the same request. Needs hyperfine and curl (apt-get install -y hyperfine curl).
#   strand-cli/scripts/measure-startup.sh [RUNS]
# "plain java" is the CLI as `java -cp ... Main` with JVM defaults; "launcher, no cache" adds the
# launcher's JVM flags; "launcher" adds the AOT cache (JDK 25) or CDS archive (JDK 21-24).
set -eu
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
runs=${1:-30}
. "$root/bin/lib/java-home.sh"
export STRAND_NO_BUILD=1
"$root/bin/strand" --version >/dev/null # builds the jar and the start-up cache if needed

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$root/bin/strand" serve --port "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/small" && break; sleep 0.1; done

jar="$root/strand-cli/target/strand-cli-0.1.0-SNAPSHOT.jar"
cp="$jar$(printf ':%s' "$root"/strand-cli/target/lib/*.jar)"
url="http://127.0.0.1:$port/small"
plain="$JAVA_HOME/bin/java -cp $cp dev.strand.cli.Main"
out=$(mktemp)
hyperfine -N -w 3 -r "$runs" --export-json "$out" \
  -n "curl GET" "curl -s $url" \
  -n "plain java GET" "$plain $url" \
  -n "launcher, no cache GET" "env STRAND_NO_CACHE=1 $root/bin/strand $url" \
  -n "launcher GET" "$root/bin/strand $url" \
  -n "plain java --version" "$plain --version" \
  -n "launcher, no cache --version" "env STRAND_NO_CACHE=1 $root/bin/strand --version" \
  -n "launcher --version" "$root/bin/strand --version" >/dev/null
python3 - "$out" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
curl = results[0]["median"]
print(f"{'command':32} {'median wall':>12} {'mean CPU':>10} {'x curl':>7}")
for r in results:
    print(f"{r['command']:32} {r['median'] * 1000:9.1f} ms {(r['user'] + r['system']) * 1000:7.1f} ms {r['median'] / curl:7.2f}")
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
rm -f "$out"
