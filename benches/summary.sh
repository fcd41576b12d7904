# Sourced by the bench scripts: the median, minimum and maximum of columns of a file of runs,
# one line each (`med`, `min`, `max`).
#
# summarise FILE LABEL_WIDTH COLUMN[:DECIMALS]...   (one decimal unless said)
summarise() {
  local file=$1 width=$2
  shift 2
  local stat spec col decimals
  for stat in med min max; do
    printf "%-${width}s" "$stat"
    for spec in "$@"; do
      col=${spec%%:*}
      decimals=1
      [[ $spec == *:* ]] && decimals=${spec#*:}
      sort -g -k"$col","$col" "$file" | awk -v c="$col" -v st="$stat" -v d="$decimals" '
        { v[NR] = $c }
        END {
          if (st == "min") x = v[1]
          else if (st == "max") x = v[NR]
          else x = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf " %9." d "f", x
        }'
    done
    printf '\n'
  done
}
