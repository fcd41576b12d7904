#!/usr/bin/env bash
# Side by side: `ccrelay convert --to iccf` and `pgn-extract -Wlalg` on the same large PGN file
# (the real games in tests/fixtures/games/, repeated), wall time and peak memory, at two file
# sizes to show that memory stays flat. Usage: benches/compare.sh [REPEATS_SMALL REPEATS_LARGE]
set -euo pipefail
cd "$(dirname "$0")/.."
small=${1:-10}
large=${2:-50}
command -v pgn-extract >/dev/null || [ -x /usr/games/pgn-extract ] || apt-get install -y pgn-extract
[ -x /usr/bin/time ] || apt-get install -y time
PATH=$PATH:/usr/games
cargo build --release --quiet
bin=target/release/ccrelay
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%-12s %8s %8s %9s %12s %12s %10s\n' tool MB games seconds games/s moves/s peak_MiB
for repeats in "$small" "$large"; do
  file=$work/games-$repeats.pgn
  for _ in $(seq "$repeats"); do cat tests/fixtures/games/*.pgn; done > "$file"
  mb=$(( $(stat -c %s "$file") / 1000000 ))
  games=$("$bin" convert --to uci "$file" | wc -l)
  moves=$("$bin" convert --to uci "$file" | wc -w)
  for tool in ccrelay pgn-extract; do
    if [ "$tool" = ccrelay ]; then cmd=("$bin" convert --to iccf "$file"); else cmd=(pgn-extract -s -Wlalg "$file"); fi
    best=""
    for _ in 1 2 3; do
      /usr/bin/time -f '%e %M' -o "$work/time" "${cmd[@]}" > /dev/null 2>&1
      read -r secs kib < "$work/time"
      if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; peak=$kib; fi
    done
    awk -v t="$tool" -v mb="$mb" -v g="$games" -v m="$moves" -v s="$best" -v k="$peak" \
      'BEGIN{printf "%-12s %8d %8d %9.2f %12.0f %12.0f %10.1f\n", t, mb, g, s, g/s, m/s, k/1024}'
  done
done
