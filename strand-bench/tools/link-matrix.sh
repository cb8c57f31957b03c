#!/usr/bin/env bash
# The shaped-link cells at several round-trip times, every peer side by side in each run:
#   downloads  a 64 MiB body over HTTP/1.1, h2 and h2c, one in flight (p50 = one download's time);
#   small      /small at 100 in flight (the ideal is 100 / RTT requests per second);
#   handshake  strand alone, a new TLS connection per request, resumed and full, JDK and OpenSSL engines,
#              under TLS 1.3 and under TLS 1.2 (where resumption saves a round trip).
# Usage: strand-bench/tools/link-matrix.sh [OUT_DIR] [RTT_MS...]   (default RTTs: 1 20 100; rate 400mbit)
# Run it on an idle machine: about 15 minutes per round-trip time.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
out=${1:-$root/bench-results/link-$(date -u +%Y%m%d-%H%M%S)}
shift || true
rtts=("$@")
[ ${#rtts[@]} -gt 0 ] || rtts=(1 20 100)
rate=${STRAND_LINK_RATE:-400mbit}
peers=strand,jdk,okhttp,apache,jetty,reactor,vertx,helidon,wrk,h2load,aiohttp
big=67108864
mkdir -p "$out"
echo "link matrix: RTTs ${rtts[*]} ms, rate $rate, into $out (load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
for rtt in "${rtts[@]}"; do
  link="rtt=${rtt}ms,rate=$rate"
  # A 64 MiB body per request: pre-touch each client's heap, or the cell measures the kernel zeroing the pages
  # of a fresh JVM's growing heap (see --client-heap).
  "$root/bin/strand" bench --link "$link" --clients "$peers" --concurrency 1 --client-heap 1g \
    --scenario "/bytes/$big,h2:/bytes/$big,h2c:/bytes/$big" \
    --warmup 10 --duration 4 --batches 2 --timeout 60 --no-defaults --out "$out/rtt$rtt-downloads"
  "$root/bin/strand" bench --link "$link" --clients "strand,strand-sync,jdk,jdk-sync,okhttp,apache,jetty,reactor,vertx,helidon,wrk,aiohttp" \
    --concurrency 100 --scenario /small --warmup 10 --no-defaults --out "$out/rtt$rtt-small"
  "$root/bin/strand" bench --link "$link" --clients strand --concurrency 1 --scenario handshake \
    --warmup 10 --duration 2 --batches 2 --no-defaults --out "$out/rtt$rtt-handshake-tls13"
  STRAND_JAVA_OPTS=-Dstrand.bench.tlsProtocols=TLSv1.2 "$root/bin/strand" bench --link "$link" --clients strand --concurrency 1 \
    --scenario handshake --warmup 10 --duration 2 --batches 2 --no-defaults --out "$out/rtt$rtt-handshake-tls12"
done
echo "link matrix: done (load: $(cut -d' ' -f1-3 /proc/loadavg)); reports in $out/*/report.md" >&2
