#!/usr/bin/env bash
# The daemon's CPU a move above its floor, measured the way this machine can show it: ROUNDS
# rounds, each a run of the record's floor (`FLOOR=sqlite benches/relay-cost.sh 1`: the wire
# and a move's three SQLite statements in a group commit) and then a run of the daemon
# (`benches/relay-cost.sh 1`), so that both meet the same minute's neighbours on the shared
# cores. Prints each round (µs a move: the daemon, user and system, the floor, and the daemon
# less the floor), then the median and range of each column.
#
# Usage: benches/relay-margin.sh [ROUNDS] [GAMES] [PLIES]   (defaults 5 1000 40)
# CCRELAY_BIN and CCRELAY_LOG as for benches/relay-cost.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=benches/summary.sh
source benches/summary.sh
rounds=${1:-5}
games=${2:-1000}
plies=${3:-40}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The one run's line of relay-cost.sh: run, moves/s, us/move, user, system, ...
one_run() { awk '$1 == "1" {print $3, $4, $5; exit}'; }

printf '%-5s %9s %9s %9s %9s %9s\n' round daemon user_us sys_us floor margin
for round in $(seq "$rounds"); do
  read -r floor _ _ <<< "$(FLOOR=sqlite benches/relay-cost.sh 1 "$games" "$plies" | one_run)"
  read -r daemon user sys <<< "$(benches/relay-cost.sh 1 "$games" "$plies" | one_run)"
  [ -n "$floor" ] && [ -n "$daemon" ] || { echo "round $round: a run failed" >&2; exit 1; }
  awk -v r="$round" -v d="$daemon" -v u="$user" -v s="$sys" -v f="$floor" \
    'BEGIN { printf "%-5s %9.1f %9.1f %9.1f %9.1f %9.1f\n", r, d, u, s, f, d - f }' |
    tee -a "$work/rounds"
done
summarise "$work/rounds" 5 2 3 4 5 6
