//! Every refusal of the grammar, with its kind and the words that say what is wrong.

use super::*;

#[test]
fn every_error_says_what_is_wrong() {
    use CommandErrorKind::*;
    let cases: &[(&str, CommandErrorKind, &str)] = &[
        ("", Missing, "missing command"),
        ("FROB g", UnknownVerb, "unknown command \"FROB\""),
        ("SHOW", Missing, "missing game id"),
        ("SHOW g extra", Unexpected, "unexpected \"extra\""),
        ("MOVE g", Missing, "missing move"),
        ("MOVE g 12.", Missing, "missing move"),
        ("MOVE g e4 zz", NotAMark, "not a move mark: \"zz\""),
        (
            "MOVE g e4 REPEAT",
            Unexpected,
            "REPEAT takes one move: the opponent's last",
        ),
        (
            "MOVE g e4 REPEAT d5 c5",
            Unexpected,
            "REPEAT takes one move: the opponent's last",
        ),
        ("DRAW g", Missing, "missing OFFER, ACCEPT or DECLINE"),
        (
            "DRAW g maybe",
            BadValue,
            "\"maybe\": say OFFER, ACCEPT or DECLINE",
        ),
        ("CLAIM g", Missing, "missing THREEFOLD or FIFTY"),
        (
            "CLAIM g sometime",
            BadValue,
            "\"sometime\": claim THREEFOLD or FIFTY",
        ),
        (
            "CLAIM g fifty e4 e5",
            Unexpected,
            "CLAIM takes at most one move",
        ),
        (
            "IF g",
            Missing,
            "missing moves (or CANCEL): their move, your answer, ...",
        ),
        (
            "IF g 12.",
            Missing,
            "missing moves (or CANCEL): their move, your answer, ...",
        ),
        ("LEAVE 2027-01-01", Missing, "missing number of days"),
        (
            "LEAVE soon 3",
            BadValue,
            "\"soon\" is not a date (YYYY-MM-DD)",
        ),
        (
            "LEAVE 2027-01-01 400",
            BadValue,
            "\"400\" is not a number of days (1 to 366)",
        ),
        ("BANK g", Missing, "missing number of days"),
        (
            "BANK g 0",
            BadValue,
            "\"0\" is not a number of days (1 to 10000)",
        ),
        ("BANK g 5 more", Unexpected, "unexpected \"more\""),
        ("SILENCE g", Missing, "missing LONG"),
        (
            "SILENCE g 40",
            BadValue,
            "\"40\": say SILENCE <game> LONG (a reflection longer than the silence limit)",
        ),
        ("ADJUDICATE g 1-0", Missing, "missing reason"),
        (
            "ADJUDICATE g 2-0 why",
            BadValue,
            "\"2-0\": say 1-0, 0-1 or 1/2-1/2",
        ),
        (
            "ADJUDICATE g * why",
            BadValue,
            "\"*\": say 1-0, 0-1 or 1/2-1/2",
        ),
        (
            "CLOCK soon",
            BadValue,
            "\"soon\": say +<n>d, +<n>h, +<n>m or an RFC 3339 time",
        ),
        (
            "CLOCK +5w",
            BadValue,
            "\"+5w\": say +<n>d, +<n>h, +<n>m or an RFC 3339 time",
        ),
        ("CREATE g alice", Missing, "missing black player"),
        (
            "CREATE g alice boris SIDE white",
            Unexpected,
            "unexpected \"SIDE\" (GAME kind, EVENT id, ROUND r, FEN ...)",
        ),
        (
            "CREATE g alice boris GAME go",
            BadValue,
            "unknown game \"go\" (known: chess, draughts-ru)",
        ),
        ("CREATE g alice boris FEN", Missing, "missing FEN"),
        ("MSG g", Missing, "missing text of the message"),
        (
            "MSG g bell\u{7}",
            BadValue,
            "a message may not hold control characters",
        ),
    ];
    for (line, kind, message) in cases {
        let error = Command::parse(line).expect_err(line);
        assert_eq!(
            (error.kind(), error.to_string().as_str()),
            (*kind, *message),
            "{line:?}"
        );
    }
    let long = format!("MSG g {}", "x".repeat(MAX_MESSAGE_CHARS + 1));
    assert_eq!(
        Command::parse(&long).map_err(|e| e.kind()),
        Err(CommandErrorKind::BadValue)
    );
}
