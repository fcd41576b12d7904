#!/usr/bin/env bash
# The daemon's CPU a move above its floor, measured the way this machine can show it: ROUNDS
# rounds, each a run of the record's floor (`FLOOR=sqlite benches/relay-cost.sh 1`: the wire
# and a move's three SQLite statements in a group commit) and then a run of the daemon
# (`benches/relay-cost.sh 1`), so that both meet the same minute's neighbours on the shared
# cores. Prints each round (µs a move: the daemon, user and system, the floor, and the daemon
# less the floor), then the median and range of each column.
#
# Each run's figure includes its logins (two a game, before the first move; the daemon checks
# each secret with Argon2id, the floor checks nothing). With LOGINS=1 each round also runs both
# with no moves (`relay-cost.sh 1 GAMES 0`, CPU a login) and adds two columns: the logins' share
# of the daemon's figure a move, and the margin a move's own cost leaves over the floor's once
# each side's logins are taken out.
#
# Usage: [LOGINS=1] benches/relay-margin.sh [ROUNDS] [GAMES] [PLIES]   (defaults 5 1000 40)
# CCRELAY_BIN and CCRELAY_LOG as for benches/relay-cost.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=benches/summary.sh
source benches/summary.sh
rounds=${1:-5}
games=${2:-1000}
plies=${3:-40}
logins=${LOGINS:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The one run's line of relay-cost.sh: run, moves/s, us/move, user, system, ...
one_run() { awk '$1 == "1" {print $3, $4, $5; exit}'; }

if [ -n "$logins" ]; then
  printf '%-5s %9s %9s %9s %9s %9s %9s %9s\n' round daemon user_us sys_us floor margin logins own_margin
else
  printf '%-5s %9s %9s %9s %9s %9s\n' round daemon user_us sys_us floor margin
fi
for round in $(seq "$rounds"); do
  read -r floor _ _ <<< "$(FLOOR=sqlite benches/relay-cost.sh 1 "$games" "$plies" | one_run)"
  read -r daemon user sys <<< "$(benches/relay-cost.sh 1 "$games" "$plies" | one_run)"
  [ -n "$floor" ] && [ -n "$daemon" ] || { echo "round $round: a run failed" >&2; exit 1; }
  if [ -n "$logins" ]; then
    # µs a login, as a share of a move: two logins a game, PLIES moves a game.
    read -r floor_login _ _ <<< "$(FLOOR=sqlite benches/relay-cost.sh 1 "$games" 0 | one_run)"
    read -r daemon_login _ _ <<< "$(benches/relay-cost.sh 1 "$games" 0 | one_run)"
    [ -n "$floor_login" ] && [ -n "$daemon_login" ] || { echo "round $round: a run failed" >&2; exit 1; }
    awk -v r="$round" -v d="$daemon" -v u="$user" -v s="$sys" -v f="$floor" \
      -v dl="$daemon_login" -v fl="$floor_login" -v p="$plies" '
      BEGIN {
        dshare = dl * 2 / p; fshare = fl * 2 / p
        printf "%-5s %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f\n", r, d, u, s, f, d - f, dshare,
          (d - dshare) - (f - fshare)
      }' | tee -a "$work/rounds"
  else
    awk -v r="$round" -v d="$daemon" -v u="$user" -v s="$sys" -v f="$floor" \
      'BEGIN { printf "%-5s %9.1f %9.1f %9.1f %9.1f %9.1f\n", r, d, u, s, f, d - f }' |
      tee -a "$work/rounds"
  fi
done
if [ -n "$logins" ]; then
  summarise "$work/rounds" 5 2 3 4 5 6 7 8
else
  summarise "$work/rounds" 5 2 3 4 5 6
fi
