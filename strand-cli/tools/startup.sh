#!/usr/bin/env bash
# Start-up of `bin/strand -s URL` beside `curl -s URL`: N loopback GETs each, alternating, against the testkit
# server; prints each tool's median and min-max in ms, and the ratio. Run it on an idle machine (see uptime).
# Usage: strand-cli/tools/startup.sh [N]   (default 20)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
n=${1:-20}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$root/bin/strand" serve --port "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/small" && break; sleep 0.1; done
url="http://127.0.0.1:$port/small"
"$root/bin/strand" -s -o /dev/null "$url" # builds and prepares the start-up cache if needed
ms() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N); echo $(((t1 - t0) / 1000000)); }
strand=() curl_=()
for _ in $(seq "$n"); do
  strand+=("$(ms "$root/bin/strand" -s -o /dev/null "$url")")
  curl_+=("$(ms curl -s -o /dev/null "$url")")
done
stats() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%s %s %s", m, a[1], a[NR]}'; }
read -r sm smin smax <<<"$(stats "${strand[@]}")"
read -r cm cmin cmax <<<"$(stats "${curl_[@]}")"
echo "$(date -u +%FT%TZ) $(git -C "$root" rev-parse --short HEAD), $(uptime | sed 's/.*load/load/')"
echo "bin/strand -s: median $sm ms ($smin-$smax), $n runs"
echo "curl -s:       median $cm ms ($cmin-$cmax), $n runs"
awk -v s="$sm" -v c="$cm" 'BEGIN {printf "ratio: %.1fx\n", s / c}'
