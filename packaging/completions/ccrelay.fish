# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ccrelay_global_optspecs
    string join \n h/help V/version
end

function __fish_ccrelay_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ccrelay_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ccrelay_using_subcommand
    set -l cmd (__fish_ccrelay_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ccrelay -n "__fish_ccrelay_needs_command" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_needs_command" -s V -l version -d 'Print version'
complete -c ccrelay -n "__fish_ccrelay_needs_command" -f -a "run" -d 'Run the relay daemon'
complete -c ccrelay -n "__fish_ccrelay_needs_command" -f -a "check-config" -d 'Check a configuration file and say what is wrong with it, without starting'
complete -c ccrelay -n "__fish_ccrelay_needs_command" -f -a "hash-secret" -d 'Hash a secret for the configuration (reads it from standard input, one line)'
complete -c ccrelay -n "__fish_ccrelay_needs_command" -f -a "bench" -d 'Load benchmark: a relay in-process, many concurrent games over loopback, fsync on'
complete -c ccrelay -n "__fish_ccrelay_needs_command" -f -a "admin" -d 'Run the administrator\'s words against the running daemon, on its machine'
complete -c ccrelay -n "__fish_ccrelay_needs_command" -f -a "journal" -d 'The official record'
complete -c ccrelay -n "__fish_ccrelay_needs_command" -f -a "radio" -d 'Packet radio: a radio player\'s card of one-time codes'
complete -c ccrelay -n "__fish_ccrelay_needs_command" -f -a "convert" -d 'Convert games between notations: ICCF numeric, SAN and long algebraic in any language, UCI, PGN, JSON. Reads PGN or plain movetext. With `--game draughts-ru`, Russian draughts: algebraic (c3-d4, g1:e3:c5:a7), numeric (22-18, 22x15x24), PDN, JSON'
complete -c ccrelay -n "__fish_ccrelay_needs_command" -f -a "init" -d 'Write a working configuration for a new club into DIR: an administrator and two players with fresh secrets (printed once; only their hashes are stored), a game between them, and the journal\'s folder. Then: `ccrelay run --config DIR/ccrelay.toml`'
complete -c ccrelay -n "__fish_ccrelay_needs_command" -f -a "generate" -d 'Write the manual pages or the shell completions (for packaging)'
complete -c ccrelay -n "__fish_ccrelay_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand run" -l config -d 'The configuration file' -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand run" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand check-config" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand hash-secret" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand bench" -l games -d 'Concurrent games' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand bench" -l games-per-player -d 'Games each player plays at once, all against one opponent over one connection each (1: two connections a game)' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand bench" -l plies -d 'Half-moves played in every game' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand bench" -l rate -d 'Moves per second offered across all games; 0 for as fast as the relay answers' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand bench" -l data-dir -d 'Journal folder (default: a fresh folder under the temporary folder, removed after)' -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand bench" -l fill -d 'Instead of a load, write a large journal to restart on: `DIR/ccrelay.toml` and the journal in `DIR/data`, `--games` games of `--plies` random legal moves each' -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand bench" -l connect -d 'Play against a daemon running as its own process (started on the configuration `--fill DIR --plies 0` wrote, with as many games), so its CPU is measured apart' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand bench" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand admin" -l config -d 'The daemon\'s configuration file: its data_dir holds the admin socket' -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand admin" -l keep-going -d 'With commands on standard input: run every line even after one fails (the exit status is then the last failure\'s)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand admin" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and not __fish_seen_subcommand_from verify export verify-export key rotate-key receipt crosstable ratings help" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and not __fish_seen_subcommand_from verify export verify-export key rotate-key receipt crosstable ratings help" -f -a "verify" -d 'Check the hash chain, replay every game, and check every signed head; with `--receipt`, hold a player\'s saved receipts against the journal too'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and not __fish_seen_subcommand_from verify export verify-export key rotate-key receipt crosstable ratings help" -f -a "export" -d 'Write a game\'s official record, or every game of an event as PGN, signed (its last line names the chain head it was made from and signs it with the text)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and not __fish_seen_subcommand_from verify export verify-export key rotate-key receipt crosstable ratings help" -f -a "verify-export" -d 'Check a signed export with the relay\'s public key alone (no journal needed)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and not __fish_seen_subcommand_from verify export verify-export key rotate-key receipt crosstable ratings help" -f -a "key" -d 'Print the journal\'s signing key (public half), and the keys before it'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and not __fish_seen_subcommand_from verify export verify-export key rotate-key receipt crosstable ratings help" -f -a "rotate-key" -d 'Replace the signing key: a new key, named in the chain by an entry signed by the old one. The daemon must be stopped'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and not __fish_seen_subcommand_from verify export verify-export key rotate-key receipt crosstable ratings help" -f -a "receipt" -d 'Print the full signed receipt for an entry'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and not __fish_seen_subcommand_from verify export verify-export key rotate-key receipt crosstable ratings help" -f -a "crosstable" -d 'An event\'s crosstable: every player against every other, points and places'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and not __fish_seen_subcommand_from verify export verify-export key rotate-key receipt crosstable ratings help" -f -a "ratings" -d 'The rating list in effect on a day, from the journal alone (docs/ratings.md), signed as the exports are'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and not __fish_seen_subcommand_from verify export verify-export key rotate-key receipt crosstable ratings help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from verify" -l config -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from verify" -l receipt -d 'A file of saved receipts: replies and pushes as they came (`r17:3fa9c2d1e0b4`), full receipts (`ccrelay-receipt v1 ...`, from `RECEIPT 17`), or a signed export' -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from verify" -l ratings -d 'A published rating list (`ccrelay journal ratings`): made again from the journal and compared byte for byte, its signature checked against the journal\'s keys' -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from export" -l config -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from export" -l game -d 'The game' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from export" -l event -d 'An event: every game as PGN, by round and board, or (`--format text`) its record: who registered, entered, started and withdrew whom, when' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from export" -l format -d 'pgn, iccf (the numeric scoresheet), report (readable) or text (every entry)' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from export" -l unsigned -d 'Write it unsigned when the signing key cannot be read (otherwise an error)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from verify-export" -l key -d 'The relay\'s public key (64 hex digits, as `ccrelay journal key` prints it), or a file holding it' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from verify-export" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from key" -l config -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from key" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from rotate-key" -l config -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from rotate-key" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from receipt" -l config -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from receipt" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from crosstable" -l config -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from crosstable" -l event -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from crosstable" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from ratings" -l config -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from ratings" -l as-of -d 'The day (YYYY-MM-DD): the list of the rating period that holds it (today\'s when not given)' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from ratings" -l format -d 'csv or text' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from ratings" -l unsigned -d 'Write it unsigned when the signing key cannot be read (otherwise an error)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from ratings" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Check the hash chain, replay every game, and check every signed head; with `--receipt`, hold a player\'s saved receipts against the journal too'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "export" -d 'Write a game\'s official record, or every game of an event as PGN, signed (its last line names the chain head it was made from and signs it with the text)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "verify-export" -d 'Check a signed export with the relay\'s public key alone (no journal needed)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "key" -d 'Print the journal\'s signing key (public half), and the keys before it'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "rotate-key" -d 'Replace the signing key: a new key, named in the chain by an entry signed by the old one. The daemon must be stopped'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "receipt" -d 'Print the full signed receipt for an entry'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "crosstable" -d 'An event\'s crosstable: every player against every other, points and places'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "ratings" -d 'The rating list in effect on a day, from the journal alone (docs/ratings.md), signed as the exports are'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand radio; and not __fish_seen_subcommand_from card help" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand radio; and not __fish_seen_subcommand_from card help" -f -a "card" -d 'Print a player\'s card of one-time codes (their APRS messages end with one)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand radio; and not __fish_seen_subcommand_from card help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand radio; and __fish_seen_subcommand_from card" -l config -d 'The configuration file (its data directory holds the card key)' -r -F
complete -c ccrelay -n "__fish_ccrelay_using_subcommand radio; and __fish_seen_subcommand_from card" -l next -d 'Make and print the player\'s next card, for one lost: from then on only its codes are accepted (the daemon need not be restarted)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand radio; and __fish_seen_subcommand_from card" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand radio; and __fish_seen_subcommand_from help" -f -a "card" -d 'Print a player\'s card of one-time codes (their APRS messages end with one)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand radio; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand convert" -l game -d 'The game: chess, or draughts-ru (Russian draughts)' -r -f -a "chess\t''
draughts-ru\t''"
complete -c ccrelay -n "__fish_ccrelay_using_subcommand convert" -l to -d 'Output format. Chess: iccf (default), san, lan, uci, pgn, json. Draughts: alg (default), num, pdn, json' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand convert" -l lang -d 'The players\' language (en, ru, uk, de, fr, ...; figurine): moves are read in it and SAN/LAN written in it. Without it, any language is read, English first. Chess only' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand convert" -l fen -d 'Start position of games that have no FEN tag: a chess FEN; for draughts PDN\'s FEN (W:W21,...:B1,...) or a listing ("White: king e1, f2. Black: b6, c3")' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand convert" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand init" -l listen -d 'The address the daemon will listen on' -r
complete -c ccrelay -n "__fish_ccrelay_using_subcommand init" -s h -l help -d 'Print help'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand generate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and not __fish_seen_subcommand_from run check-config hash-secret bench admin journal radio convert init generate help" -f -a "run" -d 'Run the relay daemon'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and not __fish_seen_subcommand_from run check-config hash-secret bench admin journal radio convert init generate help" -f -a "check-config" -d 'Check a configuration file and say what is wrong with it, without starting'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and not __fish_seen_subcommand_from run check-config hash-secret bench admin journal radio convert init generate help" -f -a "hash-secret" -d 'Hash a secret for the configuration (reads it from standard input, one line)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and not __fish_seen_subcommand_from run check-config hash-secret bench admin journal radio convert init generate help" -f -a "bench" -d 'Load benchmark: a relay in-process, many concurrent games over loopback, fsync on'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and not __fish_seen_subcommand_from run check-config hash-secret bench admin journal radio convert init generate help" -f -a "admin" -d 'Run the administrator\'s words against the running daemon, on its machine'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and not __fish_seen_subcommand_from run check-config hash-secret bench admin journal radio convert init generate help" -f -a "journal" -d 'The official record'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and not __fish_seen_subcommand_from run check-config hash-secret bench admin journal radio convert init generate help" -f -a "radio" -d 'Packet radio: a radio player\'s card of one-time codes'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and not __fish_seen_subcommand_from run check-config hash-secret bench admin journal radio convert init generate help" -f -a "convert" -d 'Convert games between notations: ICCF numeric, SAN and long algebraic in any language, UCI, PGN, JSON. Reads PGN or plain movetext. With `--game draughts-ru`, Russian draughts: algebraic (c3-d4, g1:e3:c5:a7), numeric (22-18, 22x15x24), PDN, JSON'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and not __fish_seen_subcommand_from run check-config hash-secret bench admin journal radio convert init generate help" -f -a "init" -d 'Write a working configuration for a new club into DIR: an administrator and two players with fresh secrets (printed once; only their hashes are stored), a game between them, and the journal\'s folder. Then: `ccrelay run --config DIR/ccrelay.toml`'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and not __fish_seen_subcommand_from run check-config hash-secret bench admin journal radio convert init generate help" -f -a "generate" -d 'Write the manual pages or the shell completions (for packaging)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and not __fish_seen_subcommand_from run check-config hash-secret bench admin journal radio convert init generate help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "verify" -d 'Check the hash chain, replay every game, and check every signed head; with `--receipt`, hold a player\'s saved receipts against the journal too'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "export" -d 'Write a game\'s official record, or every game of an event as PGN, signed (its last line names the chain head it was made from and signs it with the text)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "verify-export" -d 'Check a signed export with the relay\'s public key alone (no journal needed)'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "key" -d 'Print the journal\'s signing key (public half), and the keys before it'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "rotate-key" -d 'Replace the signing key: a new key, named in the chain by an entry signed by the old one. The daemon must be stopped'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "receipt" -d 'Print the full signed receipt for an entry'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "crosstable" -d 'An event\'s crosstable: every player against every other, points and places'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "ratings" -d 'The rating list in effect on a day, from the journal alone (docs/ratings.md), signed as the exports are'
complete -c ccrelay -n "__fish_ccrelay_using_subcommand help; and __fish_seen_subcommand_from radio" -f -a "card" -d 'Print a player\'s card of one-time codes (their APRS messages end with one)'
