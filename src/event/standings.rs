//! An event's standings: points, then ICCF's tie-breaks in their order (Sonneborn-Berger;
//! Baumbach, the most wins; the result between the players still tied), and places shared
//! only when all of them are equal. A game decided without being played out (a withdrawal)
//! counts like any other but is marked `+` and `-` instead of `1` and `0`.
//!
//! ```
//! use ccrelay::event::standings::{Played, standings};
//! use shakmaty::Color;
//! let game = |w: &str, b: &str, result| Played {
//!     white: w.into(), black: b.into(), result, forfeit: false,
//! };
//! let rows = standings(&[
//!     game("a", "b", Some(Some(Color::White))),
//!     game("b", "c", Some(None)),
//!     game("c", "a", None),
//! ]);
//! assert_eq!(rows[0].id, "a");
//! assert_eq!(rows[0].points2, 2); // one win: two half points
//! assert_eq!(rows[0].against["c"], ["*"]);
//! ```

use std::collections::BTreeMap;

use shakmaty::Color;

/// Points counted in halves, written `1½`.
pub fn halves(points2: u32) -> String {
    match (points2 / 2, points2 % 2) {
        (0, 1) => "½".to_owned(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

/// Points counted in quarters, written `1¾`.
pub fn quarters(points4: u32) -> String {
    let frac = ["", "¼", "½", "¾"][(points4 % 4) as usize];
    match points4 / 4 {
        0 if !frac.is_empty() => frac.to_owned(),
        whole => format!("{whole}{frac}"),
    }
}

/// A game as standings count it.
#[derive(Clone, Debug)]
pub struct Played {
    pub white: String,
    pub black: String,
    /// `None` in progress; `Some(None)` a draw; `Some(Some(colour))` won by that colour.
    pub result: Option<Option<Color>>,
    /// Decided without being played out (a player withdrew): marked `+`/`-`.
    pub forfeit: bool,
}

/// One player's line, in the order of places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub id: String,
    /// Points counted in halves (see [`halves`]).
    pub points2: u32,
    /// Games finished.
    pub games: u32,
    /// Games won (Baumbach's tie-break), forfeits included.
    pub wins: u32,
    /// Sonneborn-Berger, in quarter points (see [`quarters`]).
    pub sb4: u32,
    /// Half points scored against the players tied with this one on points,
    /// Sonneborn-Berger and wins (the direct encounter); 0 when no one is.
    pub direct2: u32,
    /// `1`, or `2-3` when shared.
    pub place: String,
    /// Against each opponent: their results, `1`, `½`, `0`, `+`, `-` or `*` (in progress).
    pub against: BTreeMap<String, Vec<&'static str>>,
}

/// Half points a mark is worth.
fn worth(mark: &str) -> u32 {
    match mark {
        "1" | "+" => 2,
        "½" => 1,
        _ => 0,
    }
}

/// Every player of `games` against every other, with points, the tie-breaks and places,
/// best first.
pub fn standings(games: &[Played]) -> Vec<Row> {
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    for game in games {
        for color in [Color::White, Color::Black] {
            let (me, opponent) = match color {
                Color::White => (&game.white, &game.black),
                Color::Black => (&game.black, &game.white),
            };
            let mark = match (game.result, game.forfeit) {
                (None, _) => "*",
                (Some(None), _) => "½",
                (Some(Some(w)), false) if w == color => "1",
                (Some(Some(_)), false) => "0",
                (Some(Some(w)), true) if w == color => "+",
                (Some(Some(_)), true) => "-",
            };
            let row = rows.entry(me.clone()).or_insert_with(|| Row {
                id: me.clone(),
                points2: 0,
                games: 0,
                wins: 0,
                sb4: 0,
                direct2: 0,
                place: String::new(),
                against: BTreeMap::new(),
            });
            row.points2 += worth(mark);
            if mark != "*" {
                row.games += 1;
            }
            if worth(mark) == 2 {
                row.wins += 1;
            }
            row.against.entry(opponent.clone()).or_default().push(mark);
        }
    }
    // Sonneborn-Berger, in quarter points: each finished game's score times the opponent's
    // total.
    let points: BTreeMap<String, u32> =
        rows.iter().map(|(id, r)| (id.clone(), r.points2)).collect();
    for row in rows.values_mut() {
        row.sb4 = row
            .against
            .iter()
            .map(|(opponent, marks)| {
                let theirs = points.get(opponent).copied().unwrap_or(0);
                marks.iter().map(|m| worth(m) * theirs).sum::<u32>()
            })
            .sum();
    }
    // The direct encounter, within each group tied on everything before it.
    let before = |r: &Row| (r.points2, r.sb4, r.wins);
    let mut groups: BTreeMap<(u32, u32, u32), Vec<String>> = BTreeMap::new();
    for row in rows.values() {
        groups.entry(before(row)).or_default().push(row.id.clone());
    }
    for tied in groups.values().filter(|g| g.len() > 1) {
        for id in tied {
            let direct = tied
                .iter()
                .filter(|other| *other != id)
                .filter_map(|other| rows[id].against.get(other))
                .flatten()
                .map(|m| worth(m))
                .sum();
            if let Some(row) = rows.get_mut(id) {
                row.direct2 = direct;
            }
        }
    }
    let key = |r: &Row| (r.points2, r.sb4, r.wins, r.direct2);
    let mut order: Vec<Row> = rows.into_values().collect();
    order.sort_by(|a, b| key(b).cmp(&key(a)).then(a.id.cmp(&b.id)));
    let places: Vec<String> = (0..order.len())
        .map(|i| {
            let same = |j: &usize| key(&order[*j]) == key(&order[i]);
            let first = (0..=i).rev().take_while(same).last().unwrap_or(i);
            let last = (i..order.len()).take_while(same).last().unwrap_or(i);
            if first == last {
                (i + 1).to_string()
            } else {
                format!("{}-{}", first + 1, last + 1)
            }
        })
        .collect();
    for (row, place) in order.iter_mut().zip(places) {
        row.place = place;
    }
    order
}

/// A match between two teams: each board's points (in halves) for the first team and the
/// second, and the totals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchScore {
    /// Board by board: (first team's half points, second team's, games finished).
    pub boards: Vec<(u32, u32, u32)>,
    pub total: (u32, u32),
}

/// The score of a match whose first team's players are `first` and second's `second`, in
/// board order.
pub fn match_score(first: &[String], second: &[String], games: &[Played]) -> MatchScore {
    let mut score = MatchScore {
        boards: vec![(0, 0, 0); first.len().min(second.len())],
        total: (0, 0),
    };
    for game in games {
        let board = first
            .iter()
            .position(|p| *p == game.white || *p == game.black);
        let (Some(board), Some(result)) = (board, game.result) else {
            continue;
        };
        let Some(cell) = score.boards.get_mut(board) else {
            continue;
        };
        let first_color = if first[board] == game.white {
            Color::White
        } else {
            Color::Black
        };
        let (a, b) = match result {
            None => (1, 1),
            Some(w) if w == first_color => (2, 0),
            Some(_) => (0, 2),
        };
        cell.0 += a;
        cell.1 += b;
        cell.2 += 1;
        score.total.0 += a;
        score.total.1 += b;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(white: &str, black: &str, result: Option<Option<Color>>) -> Played {
        Played {
            white: white.into(),
            black: black.into(),
            result,
            forfeit: false,
        }
    }
    const W: Option<Option<Color>> = Some(Some(Color::White));
    const B: Option<Option<Color>> = Some(Some(Color::Black));
    const D: Option<Option<Color>> = Some(None);

    fn pos(rows: &[Row], id: &str) -> usize {
        rows.iter().position(|r| r.id == id).unwrap()
    }

    #[test]
    fn a_perfect_cycle_shares_the_place() {
        // a beats b, b beats c, c beats a: everything equal.
        let rows = standings(&[game("a", "b", W), game("b", "c", W), game("c", "a", W)]);
        assert!(rows.iter().all(|r| r.place == "1-3"), "{rows:?}");
    }

    #[test]
    fn sonneborn_berger_breaks_a_tie_on_points() {
        // a: beat c, lost to d. b: drew c and d. c-d drawn. Points (halves): a 2, b 2, c 2,
        // d 4. SB (quarters): a = 2·2 = 4; b = 1·2 + 1·4 = 6.
        let rows = standings(&[
            game("a", "c", W),
            game("a", "d", B),
            game("b", "c", D),
            game("b", "d", D),
            game("c", "d", D),
        ]);
        let (a, b) = (&rows[pos(&rows, "a")], &rows[pos(&rows, "b")]);
        assert_eq!((a.points2, b.points2), (2, 2));
        assert_eq!((a.sb4, b.sb4), (4, 6));
        assert!(pos(&rows, "b") < pos(&rows, "a"));
    }

    #[test]
    fn baumbach_the_most_wins_breaks_a_tie_on_points_and_sonneborn_berger() {
        // a: beat c, lost to d. b: drew c and d. c beat d. Points: a 2, b 2, c 3, d 3;
        // SB: a = 2·3 = 6, b = 1·3 + 1·3 = 6; wins: a 1, b 0.
        let rows = standings(&[
            game("a", "c", W),
            game("a", "d", B),
            game("b", "c", D),
            game("b", "d", D),
            game("c", "d", W),
        ]);
        let (a, b) = (&rows[pos(&rows, "a")], &rows[pos(&rows, "b")]);
        assert_eq!((a.points2, a.sb4, a.wins), (2, 6, 1));
        assert_eq!((b.points2, b.sb4, b.wins), (2, 6, 0));
        assert!(pos(&rows, "a") < pos(&rows, "b"));
        assert_ne!(a.place, b.place);
    }

    #[test]
    fn the_direct_encounter_decides_when_all_else_is_equal() {
        // a beat b; a drew x, lost to y; b beat x, drew y; x-y drawn. a and b: 3 half
        // points, SB 8 quarters, one win each; a won their game.
        let rows = standings(&[
            game("a", "b", W),
            game("a", "x", D),
            game("a", "y", B),
            game("b", "x", W),
            game("b", "y", D),
            game("x", "y", D),
        ]);
        let (a, b) = (&rows[pos(&rows, "a")], &rows[pos(&rows, "b")]);
        assert_eq!((a.points2, a.sb4, a.wins), (3, 8, 1));
        assert_eq!((b.points2, b.sb4, b.wins), (3, 8, 1));
        assert_eq!((a.direct2, b.direct2), (2, 0));
        assert_eq!((a.place.as_str(), b.place.as_str()), ("2", "3"));
    }

    #[test]
    fn forfeits_are_marked_and_count() {
        let mut g = game("a", "b", B);
        g.forfeit = true;
        let rows = standings(&[g]);
        assert_eq!(rows[0].id, "b");
        assert_eq!(rows[0].against["a"], ["+"]);
        assert_eq!(rows[1].against["b"], ["-"]);
        assert_eq!((rows[0].points2, rows[0].wins), (2, 1));
    }

    #[test]
    fn a_match_scores_board_by_board() {
        let first = ["a1".to_owned(), "a2".to_owned()];
        let second = ["b1".to_owned(), "b2".to_owned()];
        let score = match_score(
            &first,
            &second,
            &[
                game("a1", "b1", W),
                game("b1", "a1", D),
                game("b2", "a2", W),
                game("a2", "b2", None),
            ],
        );
        assert_eq!(score.boards, [(3, 1, 2), (0, 2, 1)]);
        assert_eq!(score.total, (3, 3));
    }

    #[test]
    fn halves_and_quarters_are_written_with_fractions() {
        assert_eq!(halves(0), "0");
        assert_eq!(halves(1), "½");
        assert_eq!(halves(5), "2½");
        assert_eq!(quarters(3), "¾");
        assert_eq!(quarters(9), "2¼");
    }
}
