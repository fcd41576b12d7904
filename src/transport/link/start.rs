//! A game's start on the wire in a few bytes (docs/link.md, "Messages"): its id, its players,
//! what is played, whose node keeps it, its time rules as a preset, its event, round and board. The
//! record's entry holds the start as JSON; the compact form is used only when the other node,
//! writing the JSON back from it, gets the very same text, so both records stay equal byte for
//! byte. A start with its own position, leave carried in, or rules that are no preset goes as
//! text, whole.

use super::message::Start;
use crate::game::Authority;
use crate::game::Kind;
use crate::game::clock::Rules;
use crate::relay::GameStartDetail;

/// The presets a start's rules travel as: none written, ICCF's (the default), no clock.
fn rules_code(rules: Option<&Rules>) -> Option<u8> {
    match rules {
        None => Some(0),
        Some(r) if *r == Rules::default() => Some(1),
        Some(r) if *r == Rules::unlimited() => Some(2),
        Some(_) => None,
    }
}

fn rules_of(code: u8) -> Option<Option<Rules>> {
    match code {
        0 => Some(None),
        1 => Some(Some(Rules::default())),
        2 => Some(Some(Rules::unlimited())),
        _ => None,
    }
}

fn game_code(kind: Kind) -> u8 {
    match kind {
        Kind::Chess => 0,
        Kind::DraughtsRu => 1,
    }
}

/// The compact form of game `id`'s start whose entry's detail is `detail`; `None` when it has
/// none (the start then goes as text).
pub(super) fn compact(id: &str, detail: &str) -> Option<Start> {
    let d: GameStartDetail = serde_json::from_str(detail).ok()?;
    if d.fen.is_some() || d.leave.iter().any(|l| !l.is_empty()) {
        return None;
    }
    let start = Start {
        id: id.to_owned(),
        white: d.white,
        black: d.black,
        game: game_code(d.kind),
        authority_black: d.authority == Authority::Black,
        rules: rules_code(d.rules.as_ref())?,
        event: d.event,
        round: d.round,
        board: d.board,
    };
    // Only if the other node writes back exactly this detail.
    (start.fits() && detail_of(&start).as_deref() == Some(detail)).then_some(start)
}

/// The entry's detail a compact start stands for, as the node that keeps the game wrote it.
pub(super) fn detail_of(start: &Start) -> Option<String> {
    let kind = match start.game {
        0 => Kind::Chess,
        1 => Kind::DraughtsRu,
        _ => return None,
    };
    let detail = GameStartDetail {
        kind,
        white: start.white.clone(),
        black: start.black.clone(),
        event: start.event.clone(),
        fen: None,
        rules: rules_of(start.rules)?,
        round: start.round.clone(),
        board: start.board,
        leave: Default::default(),
        authority: if start.authority_black {
            Authority::Black
        } else {
            Authority::White
        },
    };
    // As the journal writes a detail (serde_json's compact text), so byte for byte the same.
    serde_json::to_string(&detail).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detail(rules: Option<Rules>, event: Option<&str>) -> String {
        detail_on(rules, event, None)
    }

    fn detail_on(rules: Option<Rules>, event: Option<&str>, board: Option<u32>) -> String {
        crate::journal::detail(&GameStartDetail {
            kind: Kind::Chess,
            white: "anna".to_owned(),
            black: "boris".to_owned(),
            event: event.map(str::to_owned),
            fen: None,
            rules,
            round: event.map(|_| "2".to_owned()),
            board,
            leave: Default::default(),
            authority: Authority::Black,
        })
        .unwrap()
    }

    #[test]
    fn a_usual_start_travels_compact_and_comes_back_the_same() {
        for (rules, event) in [
            (Some(Rules::default()), None),
            (Some(Rules::unlimited()), Some("club-cup")),
            (None, None),
        ] {
            let text = detail(rules, event);
            let start = compact("m1", &text).expect("compact");
            assert_eq!(detail_of(&start).as_deref(), Some(text.as_str()));
            assert!(start.authority_black);
        }
        // An event's game the relay paired, with its board: compact too, in one frame.
        let text = detail_on(Some(Rules::default()), Some("club-cup"), Some(7));
        let start = compact("m1", &text).expect("compact");
        assert_eq!(start.board, Some(7));
        assert_eq!(detail_of(&start).as_deref(), Some(text.as_str()));
    }

    #[test]
    fn an_unusual_start_goes_as_text() {
        let rules = Rules {
            leave_days_per_year: 30,
            ..Rules::default()
        };
        assert_eq!(compact("m1", &detail(Some(rules), None)), None);
        let mut d: GameStartDetail = serde_json::from_str(&detail(None, None)).unwrap();
        d.fen = Some("8/8/8/8/8/8/8/K6k w - - 0 1".to_owned());
        assert_eq!(compact("m1", &crate::journal::detail(&d).unwrap()), None);
        // A detail written otherwise than this release writes it: not rewritten.
        let spaced = detail(None, None).replace(',', ", ");
        assert_eq!(compact("m1", &spaced), None);
        assert_eq!(compact("m1", "not json"), None);
        // Names too long for one frame.
        let long = "x".repeat(40);
        let text = detail(None, Some(&long));
        assert_eq!(compact(&long, &text), None);
        // Names that fit alone, and not with the board's bytes: the frame would pass the body
        // limit with the longest tag.
        let (id, event) = ("i".repeat(20), "e".repeat(28));
        let names = 5 + id.len() + "anna".len() + "boris".len() + event.len() + 1;
        assert_eq!(names, 63);
        let text = detail_on(None, Some(&event), None);
        assert!(compact(&id, &text).is_some());
        let text = detail_on(None, Some(&event), Some(300));
        assert_eq!(compact(&id, &text), None);
    }
}
