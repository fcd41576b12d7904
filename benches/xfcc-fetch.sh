#!/usr/bin/env bash
# What one XFCC GetMyGames call costs the daemon: starts `ccrelay run` (BINARY, default
# target/release/ccrelay) on a fresh configuration with one game between two players whose
# secrets are hashed at Argon2id's default cost (as `ccrelay init` and `hash-secret` make
# them), makes CALLS GetMyGames calls one after another with curl, and prints the daemon's
# own CPU time (user + system, from /proc/PID/stat) and the wall time per call.
#
#   benches/xfcc-fetch.sh [BINARY] [CALLS]
#
# One client polling without pause is what the per-player budget is there to stop, so the
# budget is raised here to measure the call itself (LIMITS replaces that line; a build
# before failed logins alone were counted needs LIMITS='login_attempts_per_minute = 10000').
set -euo pipefail
bin=${1:-target/release/ccrelay}
calls=${2:-500}
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
hash() { printf '%s' "$1" | "$bin" hash-secret; }
cat >"$dir/ccrelay.toml" <<TOML
data_dir = "$dir/data"
[tcp]
listen = "127.0.0.1:0"
[http]
listen = "127.0.0.1:0"
[limits]
${LIMITS:-xfcc_fetches_per_minute = 1000000}
[admin]
secret_hash = "$(hash admin-secret)"
[[players]]
id = "alice"
secret_hash = "$(hash alice-secret)"
notation = "san"
reach = "xfcc"
[[players]]
id = "boris"
secret_hash = "$(hash boris-secret)"
notation = "san"
[[games]]
id = "g1"
white = "alice"
black = "boris"
TOML
CCRELAY_LOG=error "$bin" run --config "$dir/ccrelay.toml" >"$dir/out" &
pid=$!
for _ in $(seq 100); do
  grep -q ' http ' "$dir/out" 2>/dev/null && break
  sleep 0.1
done
http=$(sed -n 's/.* http \([^ ]*\).*/\1/p' "$dir/out" | head -1)
cat >"$dir/call.xml" <<XML
<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetMyGames xmlns="http://www.bennedik.com/webservices/XfccBasic"><username>alice</username><password>alice-secret</password></GetMyGames></soap:Body></soap:Envelope>
XML
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
tick=$(getconf CLK_TCK)
# One call first: the start-up's work and the first (full) check are not what is measured.
curl -sS -o /dev/null --data-binary @"$dir/call.xml" -H 'Content-Type: text/xml' "http://$http/xfccbasic.asmx"
before=$(cpu)
start=$(date +%s.%N)
failed=0
for _ in $(seq "$calls"); do
  code=$(curl -sS -o /dev/null -w '%{http_code}' --data-binary @"$dir/call.xml" \
    -H 'Content-Type: text/xml' "http://$http/xfccbasic.asmx")
  [ "$code" = 200 ] || failed=$((failed + 1))
done
end=$(date +%s.%N)
after=$(cpu)
awk -v c="$calls" -v t="$tick" -v b="$before" -v a="$after" -v s="$start" -v e="$end" -v f="$failed" 'BEGIN {
  printf "%d GetMyGames calls (%d not 200): daemon CPU %.3f ms a call, wall %.2f ms a call\n",
    c, f, (a - b) * 1000 / t / c, (e - s) * 1000 / c }'
