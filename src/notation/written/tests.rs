//! The syntax of a written move: every accepted form, marks kept apart, and the forms
//! refused.

use super::*;
use shakmaty::Square::*;

fn alg(token: &str) -> WrittenMove {
    Written::parse(token)
        .unwrap_or_else(|e| panic!("{token}: {e}"))
        .what
}

fn letters(s: &str) -> Option<PieceMark> {
    Some(PieceMark::Letters(s.to_owned()))
}

#[test]
fn accepted_forms() {
    let cases: Vec<(&str, WrittenMove)> = vec![
        (
            "e4",
            WrittenMove::Algebraic {
                piece: None,
                from_file: None,
                from_rank: None,
                capture: false,
                to: E4,
                promotion: None,
            },
        ),
        (
            "ed4",
            WrittenMove::Algebraic {
                piece: None,
                from_file: Some(File::E),
                from_rank: None,
                capture: false,
                to: D4,
                promotion: None,
            },
        ),
        (
            "е2—е4",
            WrittenMove::Algebraic {
                piece: None,
                from_file: Some(File::E),
                from_rank: Some(Rank::Second),
                capture: false,
                to: E4,
                promotion: None,
            },
        ),
        (
            "Кg1f3",
            WrittenMove::Algebraic {
                piece: letters("K"),
                from_file: Some(File::G),
                from_rank: Some(Rank::First),
                capture: false,
                to: F3,
                promotion: None,
            },
        ),
        (
            "Kf6:е4",
            WrittenMove::Algebraic {
                piece: letters("K"),
                from_file: Some(File::F),
                from_rank: Some(Rank::Sixth),
                capture: true,
                to: E4,
                promotion: None,
            },
        ),
        (
            "Крb1",
            WrittenMove::Algebraic {
                piece: letters("Kp"),
                from_file: None,
                from_rank: None,
                capture: false,
                to: B1,
                promotion: None,
            },
        ),
        (
            "N5xf3",
            WrittenMove::Algebraic {
                piece: letters("N"),
                from_file: None,
                from_rank: Some(Rank::Fifth),
                capture: true,
                to: F3,
                promotion: None,
            },
        ),
        (
            "d8Ф",
            WrittenMove::Algebraic {
                piece: None,
                from_file: None,
                from_rank: None,
                capture: false,
                to: D8,
                promotion: letters("Ф"),
            },
        ),
        (
            "exf8К",
            WrittenMove::Algebraic {
                piece: None,
                from_file: Some(File::E),
                from_rank: None,
                capture: true,
                to: F8,
                promotion: letters("K"),
            },
        ),
        (
            "a8=Q",
            WrittenMove::Algebraic {
                piece: None,
                from_file: None,
                from_rank: None,
                capture: false,
                to: A8,
                promotion: letters("Q"),
            },
        ),
        (
            "e7e8q",
            WrittenMove::Algebraic {
                piece: None,
                from_file: Some(File::E),
                from_rank: Some(Rank::Seventh),
                capture: false,
                to: E8,
                promotion: Some(PieceMark::Uci(Role::Queen)),
            },
        ),
        (
            "b7b8b",
            WrittenMove::Algebraic {
                piece: None,
                from_file: Some(File::B),
                from_rank: Some(Rank::Seventh),
                capture: false,
                to: B8,
                promotion: Some(PieceMark::Uci(Role::Bishop)),
            },
        ),
        (
            "♘f3",
            WrittenMove::Algebraic {
                piece: Some(PieceMark::Figurine(Role::Knight)),
                from_file: None,
                from_rank: None,
                capture: false,
                to: F3,
                promotion: None,
            },
        ),
        (
            "5254",
            WrittenMove::Numeric {
                from: E2,
                to: E4,
                promotion: None,
            },
        ),
        (
            "57581",
            WrittenMove::Numeric {
                from: E7,
                to: E8,
                promotion: Some(Role::Queen),
            },
        ),
        ("О-О", WrittenMove::Castle(CastlingSide::KingSide)),
        ("0—0—0", WrittenMove::Castle(CastlingSide::QueenSide)),
    ];
    for (token, expected) in cases {
        assert_eq!(alg(token), expected, "{token}");
    }
}

#[test]
fn marks_are_kept_apart() {
    let w = Written::parse("exd6e.p.+").unwrap();
    assert!(w.marks.en_passant);
    assert_eq!(w.marks.check, Some(CheckMark::Check));
    let w = Written::parse("Qh5++").unwrap();
    assert_eq!(w.marks.check, Some(CheckMark::Mate));
    let w = Written::parse("Nf3!?").unwrap();
    assert_eq!(w.marks.annotation, Some("!?"));
    let w = Written::parse("Крb1(=)").unwrap();
    assert!(w.marks.draw_offer);
    assert!(Marks::parse("е.р.").unwrap().en_passant);
    assert!(Marks::parse("(=)").unwrap().draw_offer);
    assert_eq!(Marks::parse("e4"), None);
}

/// `exd6 e.p.+`: the check sign glued to an en passant mark written apart was refused.
#[test]
fn regression_check_sign_glued_to_en_passant_mark() {
    for token in ["e.p.+", "e.p+", "ep+", "е.р.+", "e.p.#", "e.p.!"] {
        let marks = Marks::parse(token).unwrap_or_else(|| panic!("{token:?} refused"));
        assert!(marks.en_passant, "{token:?}");
        assert!(
            marks.check.is_some() || marks.annotation.is_some(),
            "{token:?}"
        );
    }
    assert_eq!(Marks::parse("e.p.x"), None);
    assert_eq!(Marks::parse("e.p.e.p."), None);
}

#[test]
fn refused_forms() {
    for (token, expected) in [
        ("", SyntaxError::Empty),
        ("0000", SyntaxError::NullMove),
        (
            "5294",
            SyntaxError::Numeric("squares are numbered 11 to 88"),
        ),
        (
            "525",
            SyntaxError::Numeric("a numeric move has four digits, or five with a promotion"),
        ),
        (
            "52545",
            SyntaxError::Numeric("a promotion digit is 1 (queen) to 4 (knight)"),
        ),
        ("a8=", SyntaxError::PromotionPieceMissing),
        ("Qxyz", SyntaxError::NoDestination),
    ] {
        assert_eq!(Written::parse(token), Err(expected), "{token}");
    }
    for token in [
        "hello", "e9", "Nf3f3f3", "e-4", "ABCe4", "xe4", "e4e5e6", "\u{0}",
    ] {
        assert!(Written::parse(token).is_err(), "{token} should be refused");
    }
    assert_eq!(Written::parse(&"e".repeat(100)), Err(SyntaxError::TooLong));
}
