#!/usr/bin/env bash
# Smoke test of the TLS/HTTP/2 servers with curl and nghttp, no Java client involved:
# generates a PKI with TestPki, starts nginx (TLS + h2) and both nghttpd, checks them, stops them.
# Needs: nginx, nghttp2-server, nghttp2-client, curl; a packaged testkit (mvn -pl strand-testkit package).
#   .ci/tls/smoke.sh [WORK_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
. bin/lib/java-home.sh
work="${1:-$(mktemp -d)}"
jar=$(ls strand-testkit/target/strand-testkit-*.jar | grep -v -E 'sources|javadoc' | head -1)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
nginx_port=$(free_port) tls_port=$(free_port) h2c_port=$(free_port)

mkdir -p "$work/run/tmp" "$work/root"
java -cp "$jar" dev.strand.testkit.tls.TestPki "$work/pki" >/dev/null
printf '{"hello":"strand"}\n' >"$work/root/small.json"
sed -e "s#@TLS_PORT@#$nginx_port#g; s#@PKI_DIR@#$work/pki#g; s#@ROOT@#$work/root#g; s#@RUN_DIR@#$work/run#g" \
  .ci/tls/nginx-tls.conf.template >"$work/nginx-tls.conf"
sed -i "s#@MTLS_PORT@#$(free_port)#g" "$work/nginx-tls.conf"

cleanup() {
  [ -f "$work/run/nginx-tls.pid" ] && kill "$(cat "$work/run/nginx-tls.pid")" 2>/dev/null || true
  .ci/tls/start-nghttpd.sh stop "$work/run"
}
trap cleanup EXIT
nginx -t -q -c "$work/nginx-tls.conf"
nginx -c "$work/nginx-tls.conf"
.ci/tls/start-nghttpd.sh "$work/pki" "$work/root" "$tls_port" "$h2c_port" "$work/run" >/dev/null

passed=0 failed=0
check() { # name, expected, actual
  if [ "$2" = "$3" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1: expected '$2', got '$3'"; fi
}
ca="$work/pki/ca.pem"
head -c 3000000 /dev/urandom >"$work/upload.bin"
for i in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$nginx_port") 2>/dev/null && break; sleep 0.1; done

check "nginx h2 GET" "2 200" "$(curl -sS --http2 --cacert "$ca" -o /dev/null -w '%{http_version} %{http_code}' "https://localhost:$nginx_port/small.json")"
check "nginx http/1.1 GET by IP" "1.1 200" "$(curl -sS --http1.1 --cacert "$ca" -o /dev/null -w '%{http_version} %{http_code}' "https://127.0.0.1:$nginx_port/small.json")"
check "nginx gzip" "gzip" "$(curl -sS --http2 --cacert "$ca" -H 'Accept-Encoding: gzip' -o /dev/null -w '%header{content-encoding}' "https://localhost:$nginx_port/small.json")"
check "nginx h2 upload" "received 2 200" "$(curl -sS --http2 --cacert "$ca" --data-binary @"$work/upload.bin" -w ' %{http_version} %{http_code}' "https://localhost:$nginx_port/upload" | tr -d '\n')"
check "nginx untrusted" "60" "$(curl -sS -o /dev/null "https://localhost:$nginx_port/small.json" 2>/dev/null; echo $?)"
check "nghttp -> nginx" "h2" "$(SSL_CERT_FILE="$ca" nghttp -nv "https://localhost:$nginx_port/small.json" 2>&1 | sed -n 's/^The negotiated protocol: //p')"
check "nghttpd TLS h2" "2 200" "$(curl -sS --http2 --cacert "$ca" -o /dev/null -w '%{http_version} %{http_code}' "https://localhost:$tls_port/small.json")"
check "nghttpd h2c" "2 200" "$(curl -sS --http2-prior-knowledge -o /dev/null -w '%{http_version} %{http_code}' "http://127.0.0.1:$h2c_port/small.json")"
check "nghttpd h2c max streams" "4" "$(nghttp -nv "http://127.0.0.1:$h2c_port/small.json" 2>&1 | sed -n 's/.*SETTINGS_MAX_CONCURRENT_STREAMS(0x03):\([0-9]*\)\].*/\1/p' | head -1)"
check "nghttpd echo upload" "$(wc -c <"$work/upload.bin")" "$(curl -sS --http2 --cacert "$ca" --data-binary @"$work/upload.bin" "https://localhost:$tls_port/echo" | wc -c)"
echo "tls smoke: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
