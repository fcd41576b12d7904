#!/usr/bin/env bash
# What the daemon spends per relayed move, measured on its own process: CPU (user and system
# from /proc/PID/stat), what it writes (bytes and write calls, to sockets and files alike, from
# /proc/PID/io), bytes on disk, and moves carried. Each run fills a fresh journal with
# GAMES games (`ccrelay bench --fill DIR --plies 0`), starts the daemon on it, plays PLIES
# half-moves in every game as fast as it answers (`ccrelay bench --connect ADDR --rate 0`),
# stops it, checkpoints the database and weighs it; then prints each run and the median and
# range of RUNS runs.
#
# Usage: benches/relay-cost.sh [RUNS] [GAMES] [PLIES]   (defaults 5 1000 40)
# With PLIES 0 nothing is played: every player logs in, reads what waits for it and leaves, and
# the figures are per login (two a game): the part of a run's cost that is not its moves.
# CCRELAY_BIN names the binary (default: target/release/ccrelay, built first). The daemon logs
# as a new user's does, at its default level (`info`: a line a move, here to a file), unless
# CCRELAY_LOG is set (`CCRELAY_LOG=warn` for the figures measured before 2026-12-03).
# FLOOR=1 measures the same way, in place of the daemon, the example `wire_floor`: a server
# that only speaks the wire and syncs a flat file (no rules, no SQLite, no signatures), which
# is what the wire, the runtime and a grouped sync cost on this machine (bytes on disk: 0; its
# sends are not write calls, so the last two columns count only its file's writes).
# FLOOR=sqlite runs it with `--sqlite`: the daemon's journal file in place of the flat file,
# and in each group commit only the three statements a move needs (its entry, the opponent's
# outbox row, the ACK's delete): the floor the daemon's cost is judged against (bytes on disk
# weighed as the daemon's are).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=benches/summary.sh
source benches/summary.sh
runs=${1:-5}
games=${2:-1000}
plies=${3:-40}
if [ -z "${CCRELAY_BIN:-}" ]; then
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-target}/release/ccrelay
else
  bin=$CCRELAY_BIN
fi
floor=""
floor_args=()
weigh_db=1  # the daemon and the SQLite floor have a journal to weigh; the flat file has none
case "${FLOOR:-}" in
  "") ;;
  sqlite) floor_args=(--sqlite) ;;
  *) weigh_db="" ;;
esac
if [ -n "${FLOOR:-}" ]; then
  cargo build --release --quiet --example wire_floor
  floor=${CARGO_TARGET_DIR:-target}/release/examples/wire_floor
fi
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 command (apt-get install sqlite3)" >&2; exit 1; }
work=$(mktemp -d)
daemon=""
cleanup() {
  if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
tck=$(getconf CLK_TCK)
moves=$((games * plies))
# What the figures are divided by: the moves, or with none the logins.
per=$moves
unit=move
abbr=mv
if [ "$plies" -eq 0 ]; then
  per=$((games * 2))
  unit=login
  abbr=lg
fi

# user and system ticks of a process
ticks() { awk '{print $14, $15}' "/proc/$1/stat"; }
# bytes written and write calls of a process
writes() { awk '/^wchar:/ {w = $2} /^syscw:/ {c = $2} END {print w, c}' "/proc/$1/io"; }

printf '%-4s %9s %9s %9s %9s %10s %10s %9s %9s\n' run moves/s "us/$unit" user_us sys_us "bytes/$unit" db_bytes \
  "written/$abbr" "writes/$abbr"
results=$work/results
for run in $(seq "$runs"); do
  dir=$work/run$run
  db=$dir/data/journal.sqlite3
  if [ -n "$floor" ]; then
    mkdir -p "$dir"
    before_bytes=0
    "$floor" "$dir/data" "${floor_args[@]}" > "$dir/out" 2> "$dir/err" &
  else
    "$bin" bench --fill "$dir" --games "$games" --plies 0 > /dev/null
    # Older builds' configurations let only 10 logins at once from one address.
    grep -q failed_logins_per_minute "$dir/ccrelay.toml" ||
      sed -i 's/^\[limits\]$/[limits]\nfailed_logins_per_minute = 10000/' "$dir/ccrelay.toml"
    sqlite3 "$db" 'PRAGMA wal_checkpoint(TRUNCATE);' > /dev/null
    before_bytes=$(( $(stat -c %s "$db") + $(stat -c %s "$db-wal" 2>/dev/null || echo 0) ))
    "$bin" run --config "$dir/ccrelay.toml" > "$dir/out" 2> "$dir/err" &
  fi
  daemon=$!
  addr=""
  for _ in $(seq 600); do
    addr=$(sed -n 's/^ccrelay listening on //p' "$dir/out" | head -1)
    [ -n "$addr" ] && break
    sleep 0.05
  done
  [ -n "$addr" ] || { echo "daemon did not start:" >&2; cat "$dir/err" >&2; exit 1; }
  read -r u0 s0 < <(ticks "$daemon")
  read -r w0 c0 < <(writes "$daemon")
  timeout 900 "$bin" bench --connect "$addr" --games "$games" --plies "$plies" --rate 0 > "$dir/bench"
  read -r u1 s1 < <(ticks "$daemon")
  read -r w1 c1 < <(writes "$daemon")
  kill -TERM "$daemon"
  wait "$daemon" || true
  daemon=""
  after_bytes=0
  if [ -n "$weigh_db" ]; then
    sqlite3 "$db" 'PRAGMA wal_checkpoint(TRUNCATE);' > /dev/null
    after_bytes=$(( $(stat -c %s "$db") + $(stat -c %s "$db-wal" 2>/dev/null || echo 0) ))
  fi
  rate=$(awk '/^moves\/s:/ {print $2; exit}' "$dir/bench")
  awk -v r="$run" -v rate="$rate" -v u=$((u1 - u0)) -v s=$((s1 - s0)) -v t="$tck" -v m="$per" \
    -v b=$((after_bytes - before_bytes)) -v db="$after_bytes" -v w=$((w1 - w0)) -v c=$((c1 - c0)) '
    BEGIN {
      us = 1e6 / t / m
      printf "%-4s %9s %9.1f %9.1f %9.1f %10.1f %10d %9.0f %9.2f\n", r, rate, (u + s) * us, u * us, s * us,
        b / m, db, w / m, c / m
    }' | tee -a "$results"
  rm -rf "$dir"
done
# median and range of each column (all but db_bytes)
printf '%-4s %9s %9s %9s %9s %10s %9s %9s\n' "" moves/s "us/$unit" user_us sys_us "bytes/$unit" "written/$abbr" \
  "writes/$abbr"
summarise "$results" 4 2 3 4 5 6 8 9:2
