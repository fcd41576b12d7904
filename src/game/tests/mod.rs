//! One game through its rules: turn and legality, the end by mate, draw offers and claims,
//! conditional lines, the draw rule of an event, and a draughts game through the same seam; the
//! clock's part (time running out, doubling, leave, Triple Block's refills, a long reflection)
//! in `time.rs`.

use super::*;
use crate::game::clock::Leave;
use crate::notation::number::MoveNumber;

use clock::TimeControl;

mod time;

const T0: Timestamp = Timestamp::UNIX_EPOCH;

fn play(game: &mut Game, moves: &[&str]) {
    for text in moves {
        let m = game
            .check_move(game.turn(), text, None, None)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .ply;
        game.apply(
            &Action::Move {
                m,
                draw_offer: false,
            },
            T0,
        );
    }
}

fn white(number: u32) -> MoveNumber {
    MoveNumber {
        number,
        black: false,
    }
}

#[test]
fn turn_number_and_legality_are_checked() {
    let mut game = Game::new("g", "w", "b", None).unwrap();
    assert_eq!(
        game.check_move(Color::Black, "e5", None, None),
        Err(Refusal::NotYourTurn(ColorName(Color::White)))
    );
    assert_eq!(
        game.check_move(Color::White, "e4", Some(white(2)), None),
        Err(Refusal::WrongNumber {
            written: 2,
            expected: 1
        })
    );
    assert!(matches!(
        game.check_move(Color::White, "e5", None, None),
        Err(Refusal::Move(_))
    ));
    play(&mut game, &["e4"]);
    assert!(
        game.check_move(Color::Black, "e5", Some(white(1)), None)
            .is_ok()
    );
    let black = MoveNumber {
        number: 1,
        black: true,
    };
    assert!(
        game.check_move(Color::Black, "e5", Some(black), None)
            .is_ok()
    );
    play(&mut game, &["e5"]);
    let two_black = MoveNumber {
        number: 2,
        black: true,
    };
    assert_eq!(
        game.check_move(Color::White, "Nf3", Some(two_black), None),
        Err(Refusal::BlackNumberForWhite {
            written: two_black,
            expected: 2
        })
    );
}

#[test]
fn checkmate_ends_the_game() {
    let mut game = Game::new("g", "w", "b", None).unwrap();
    play(&mut game, &["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(
        game.result(),
        Some(&GameResult::new(Some(Color::Black), EndReason::Checkmate))
    );
    assert!(matches!(
        game.check_move(Color::White, "a3", None, None),
        Err(Refusal::GameOver(_))
    ));
}

#[test]
fn draw_offers_are_answered_by_the_opponent_only() {
    let mut game = Game::new("g", "w", "b", None).unwrap();
    assert_eq!(
        game.check(Color::Black, &Action::AcceptDraw, T0),
        Err(Refusal::NoDrawOffer)
    );
    game.apply_by(Color::White, &Action::OfferDraw, T0);
    assert_eq!(
        game.check(Color::White, &Action::AcceptDraw, T0),
        Err(Refusal::OwnDrawOffer)
    );
    assert_eq!(game.check(Color::Black, &Action::AcceptDraw, T0), Ok(()));
    game.apply_by(Color::Black, &Action::AcceptDraw, T0);
    assert_eq!(game.result().map(GameResult::pgn), Some("1/2-1/2"));
}

#[test]
fn resignation_loses() {
    let mut game = Game::new("g", "w", "b", None).unwrap();
    game.apply_by(Color::White, &Action::Resign, T0);
    assert_eq!(game.result().map(GameResult::pgn), Some("0-1"));
}

#[test]
fn the_repeated_move_must_match() {
    let mut game = Game::new("g", "w", "b", None).unwrap();
    play(&mut game, &["e4"]);
    assert_eq!(game.check_repeat("5254", None), Ok(()));
    assert_eq!(game.check_repeat("e2-e4", None), Ok(()));
    assert!(game.check_repeat("d4", None).is_err());
}

fn unnumbered(texts: &[&str]) -> Vec<(Option<MoveNumber>, String)> {
    texts.iter().map(|t| (None, (*t).to_owned())).collect()
}

fn day(n: i64) -> Timestamp {
    Timestamp::from_second(1_800_000_000 + n * clock::DAY).unwrap()
}

fn timed(rules: Rules) -> Game {
    Game::new("g", "w", "b", None)
        .unwrap()
        .with_rules(rules, day(0))
}

fn play_at(game: &mut Game, text: &str, at: Timestamp) {
    let m = game.check_move(game.turn(), text, None, None).unwrap().ply;
    game.apply(
        &Action::Move {
            m,
            draw_offer: false,
        },
        at,
    );
}

#[test]
fn threefold_repetition_is_drawn_only_on_a_correct_claim() {
    let mut game = Game::new("g", "w", "b", None).unwrap();
    play(
        &mut game,
        &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"],
    );
    // Black to move; the position has occurred twice (start, after 2...Ng8 it is White's
    // move: the initial position with White to move counts at the start and after 2...Ng8).
    let claim = |m: Option<Ply>| Action::Claim {
        claim: Claim::Repetition,
        m,
    };
    let refused = game.check(Color::Black, &claim(None), T0);
    assert!(
        matches!(&refused, Err(Refusal::WrongClaim(why)) if why.to_string().contains("2 time(s)")),
        "{refused:?}"
    );
    // With the move that makes it the third time, the claim holds.
    let ng8 = game
        .check_move(Color::Black, "Ng8", None, None)
        .unwrap()
        .ply;
    assert_eq!(
        game.check(Color::Black, &claim(Some(ng8.clone())), T0),
        Ok(())
    );
    // Only the side to move claims.
    assert!(matches!(
        game.check(Color::White, &claim(None), T0),
        Err(Refusal::NotYourTurn(_))
    ));
    game.apply_by(Color::Black, &claim(Some(ng8)), T0);
    assert_eq!(
        game.result(),
        Some(&GameResult::new(None, EndReason::Repetition))
    );
    assert_eq!(game.moves().len(), 8, "the claiming move is played");
}

#[test]
fn a_repetition_needs_the_same_castling_rights() {
    let mut game = Game::new("g", "w", "b", None).unwrap();
    // The rooks go out and back: the board is the initial one again, but no side may
    // castle short any more, so it is not the same position.
    play(
        &mut game,
        &["Nf3", "Nf6", "Rg1", "Rg8", "Rh1", "Rh8", "Ng1"],
    );
    let ng8 = game
        .check_move(Color::Black, "Ng8", None, None)
        .unwrap()
        .ply;
    let refused = game.check(
        Color::Black,
        &Action::Claim {
            claim: Claim::Repetition,
            m: Some(ng8),
        },
        T0,
    );
    assert!(
        matches!(&refused, Err(Refusal::WrongClaim(why)) if why.to_string().contains("1 time(s)")),
        "{refused:?}"
    );
}

#[test]
fn the_fifty_move_rule_counts_halfmoves_since_a_capture_or_pawn_move() {
    // 99 half-moves already played without a capture or pawn move.
    let fen = "8/8/4k3/8/8/4K3/8/R7 w - - 99 80";
    let mut game = Game::new("g", "w", "b", Some(fen)).unwrap();
    let fifty = |m| Action::Claim {
        claim: Claim::FiftyMoves,
        m,
    };
    let refused = game.check(Color::White, &fifty(None), T0);
    assert!(
        matches!(&refused, Err(Refusal::WrongClaim(why)) if why.to_string().contains("49 move(s)")),
        "{refused:?}"
    );
    let ra2 = game
        .check_move(Color::White, "Ra2", None, None)
        .unwrap()
        .ply;
    assert_eq!(game.check(Color::White, &fifty(Some(ra2)), T0), Ok(()));
    play(&mut game, &["Ra2"]);
    assert_eq!(game.check(Color::Black, &fifty(None), T0), Ok(()));
}

#[test]
fn a_conditional_line_answers_at_once_and_a_move_off_it_cancels_it() {
    let mut game = Game::new("g", "w", "b", None).unwrap();
    play(&mut game, &["e4"]);
    // White, waiting for Black: if 1...e5 then 2.Nf3; if 2...Nc6 then 3.Bb5.
    let texts = unnumbered(&["e5", "Nf3", "Nc6", "Bb5"]);
    assert!(matches!(
        game.read_conditional(Color::Black, &texts, None),
        Err(Refusal::Move(_) | Refusal::Conditional(_))
    ));
    let line = game.read_conditional(Color::White, &texts, None).unwrap();
    game.apply_by(Color::White, &Action::Conditional(line), T0);
    play(&mut game, &["e5"]);
    let answer = game.conditional_reply().expect("Nf3 is due");
    game.apply(
        &Action::Move {
            m: answer,
            draw_offer: false,
        },
        T0,
    );
    assert_eq!(game.conditional(Color::White).len(), 2);
    play(&mut game, &["d6"]);
    assert_eq!(game.conditional_reply(), None);
    assert!(game.conditional(Color::White).is_empty(), "cancelled");
}

#[test]
fn conditional_lines_are_refused_when_malformed() {
    let mut game = Game::new("g", "w", "b", None).unwrap();
    play(&mut game, &["e4"]);
    let read = |texts: &[&str]| game.read_conditional(Color::White, &unnumbered(texts), None);
    assert!(matches!(read(&["e5"]), Err(Refusal::Conditional(_))), "odd");
    let illegal = read(&["e5", "Ke3"]);
    assert!(
        matches!(&illegal, Err(Refusal::Conditional(why)) if why.to_string().contains("move 2")),
        "{illegal:?}"
    );
    assert_eq!(read(&[]), Ok(vec![]), "cancelling");
    let numbered = [
        (Some(white(7)), "e5".to_owned()),
        (Some(white(8)), "Nf3".to_owned()),
    ];
    let wrong = game.read_conditional(Color::White, &numbered, None);
    assert!(
        matches!(&wrong, Err(Refusal::Conditional(why)) if why.to_string().contains("7 is written, but this is move 1")),
        "{wrong:?}"
    );
    let black_for_white = [
        (Some(white(1)), "e5".to_owned()),
        (
            Some(MoveNumber {
                number: 2,
                black: true,
            }),
            "Nf3".to_owned(),
        ),
    ];
    let wrong = game.read_conditional(Color::White, &black_for_white, None);
    assert!(
        matches!(&wrong, Err(Refusal::Conditional(why)) if why.to_string().contains("for Black")),
        "{wrong:?}"
    );
    let numbered = [
        (Some(white(1)), "e5".to_owned()),
        (Some(white(2)), "Nf3".to_owned()),
    ];
    assert!(game.read_conditional(Color::White, &numbered, None).is_ok());
}

#[test]
fn a_draw_offer_with_the_expected_move_suspends_the_answer() {
    let mut game = Game::new("g", "w", "b", None).unwrap();
    play(&mut game, &["e4"]);
    let texts = unnumbered(&["e5", "Nf3"]);
    let line = game.read_conditional(Color::White, &texts, None).unwrap();
    game.apply_by(Color::White, &Action::Conditional(line), T0);
    let e5 = game.check_move(Color::Black, "e5", None, None).unwrap().ply;
    game.apply(
        &Action::Move {
            m: e5,
            draw_offer: true,
        },
        T0,
    );
    assert_eq!(game.conditional_reply(), None);
}

/// "No draw offer before move 20": an offer, an offer with a move and an agreement are
/// refused before it, by the number of the move being made; from it they are allowed.
#[test]
fn no_draw_is_offered_or_agreed_before_the_events_move() {
    let rules = Rules {
        draw_offers_from_move: Some(3),
        ..Rules::unlimited()
    };
    let mut game = timed(rules);
    play(&mut game, &["e4", "e5", "Nf3"]);
    // Black's 2nd move: too early, whatever the form.
    let nc6 = game
        .check_move(Color::Black, "Nc6", None, None)
        .unwrap()
        .ply;
    for (color, action) in [
        (Color::Black, Action::OfferDraw),
        (Color::White, Action::OfferDraw),
        (Color::Black, Action::AcceptDraw),
        (
            Color::Black,
            Action::Move {
                m: nc6.clone(),
                draw_offer: true,
            },
        ),
    ] {
        assert_eq!(
            game.check(color, &action, T0),
            Err(Refusal::DrawTooEarly { from: 3, now: 2 }),
            "{action:?}"
        );
    }
    assert_eq!(
        Refusal::DrawTooEarly { from: 3, now: 2 }.to_string(),
        "too early for a draw: in this event no draw is offered or agreed before move 3; this is move 2"
    );
    assert_eq!(
        game.check(
            Color::Black,
            &Action::Move {
                m: nc6,
                draw_offer: false
            },
            T0
        ),
        Ok(())
    );
    play(&mut game, &["Nc6"]);
    assert_eq!(game.check(Color::White, &Action::OfferDraw, T0), Ok(()));
    game.apply_by(Color::White, &Action::OfferDraw, T0);
    assert_eq!(game.check(Color::Black, &Action::AcceptDraw, T0), Ok(()));
}

/// The seam carries a second game: Russian draughts through the same `Game`, its board
/// deciding legality and the result, the match rules deciding the rest.
#[test]
fn a_draughts_game_is_played_through_the_same_game() {
    let mut game = Game::of_kind(Kind::DraughtsRu, "d", "w", "b", Some("W:W22:B18")).unwrap();
    assert_eq!(game.kind(), Kind::DraughtsRu);
    // A capture is compulsory; the refusal names it.
    let quiet = game.check_move(Color::White, "c3-b4", None, None);
    assert!(
        matches!(&quiet, Err(Refusal::Move(e)) if e.to_string().contains("c3:e5")),
        "{quiet:?}"
    );
    assert!(matches!(
        game.check(
            Color::White,
            &Action::Claim {
                claim: Claim::FiftyMoves,
                m: None
            },
            T0
        ),
        Err(Refusal::WrongClaim(why)) if why.to_string().contains("not this game's")
    ));
    let m = game
        .check_move(Color::White, "22x15", Some(white(1)), None)
        .unwrap()
        .ply;
    assert_eq!(game.board().code(&m), "22x15");
    game.apply(
        &Action::Move {
            m,
            draw_offer: false,
        },
        T0,
    );
    // Black has no piece left, so no legal move: White wins.
    assert_eq!(
        game.result(),
        Some(&GameResult::new(Some(Color::White), EndReason::NoMoves))
    );
    assert_eq!(game.board().fen(), "B:W15:B:F1");
}
