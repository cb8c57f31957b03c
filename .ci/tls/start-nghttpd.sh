#!/usr/bin/env bash
# Starts two nghttpd (nghttp2's HTTP/2-only server) on loopback for Strand's HTTP/2 tests:
#   TLS_PORT  HTTP/2 over TLS (ALPN h2), certificate from PKI_DIR (written by TestPki)
#   H2C_PORT  cleartext HTTP/2 with prior knowledge (h2c, --no-tls), at most 4 concurrent streams,
#             so tests can see a client queue streams beyond the server's SETTINGS limit
# Both serve DOCROOT and echo uploaded bodies back (--echo-upload).
#
#   .ci/tls/start-nghttpd.sh PKI_DIR DOCROOT TLS_PORT H2C_PORT RUN_DIR   # start, wait until both listen
#   .ci/tls/start-nghttpd.sh stop RUN_DIR                                # stop both
#
# Process ids go to RUN_DIR/nghttpd-{tls,h2c}.pid, output to RUN_DIR/nghttpd-{tls,h2c}.log.
set -euo pipefail

stop() {
  local run="$1" f
  for f in "$run"/nghttpd-tls.pid "$run"/nghttpd-h2c.pid; do
    [ -f "$f" ] || continue
    kill "$(cat "$f")" 2>/dev/null || true
    rm -f "$f"
  done
}

wait_listening() { # port, pid: up to 10 s
  local port="$1" pid="$2" i
  for i in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    kill -0 "$pid" 2>/dev/null || { echo "nghttpd on port $port exited" >&2; return 1; }
    sleep 0.1
  done
  echo "nghttpd on port $port did not start listening" >&2
  return 1
}

if [ "${1:-}" = stop ]; then
  stop "${2:?usage: $0 stop RUN_DIR}"
  exit 0
fi
[ $# -eq 5 ] || { echo "usage: $0 PKI_DIR DOCROOT TLS_PORT H2C_PORT RUN_DIR | $0 stop RUN_DIR" >&2; exit 2; }
pki="$1" docroot="$2" tls_port="$3" h2c_port="$4" run="$5"
command -v nghttpd >/dev/null || { echo "nghttpd not found (apt-get install nghttp2-server)" >&2; exit 1; }
mkdir -p "$run"
stop "$run"

nghttpd --address=127.0.0.1 --htdocs="$docroot" --echo-upload \
  "$tls_port" "$pki/server.key" "$pki/server.pem" >"$run/nghttpd-tls.log" 2>&1 &
echo $! >"$run/nghttpd-tls.pid"
nghttpd --address=127.0.0.1 --htdocs="$docroot" --echo-upload --no-tls --max-concurrent-streams=4 \
  "$h2c_port" >"$run/nghttpd-h2c.log" 2>&1 &
echo $! >"$run/nghttpd-h2c.pid"

wait_listening "$tls_port" "$(cat "$run/nghttpd-tls.pid")" || { stop "$run"; exit 1; }
wait_listening "$h2c_port" "$(cat "$run/nghttpd-h2c.pid")" || { stop "$run"; exit 1; }
echo "nghttpd: h2 (TLS) on 127.0.0.1:$tls_port, h2c on 127.0.0.1:$h2c_port (max 4 streams)"
