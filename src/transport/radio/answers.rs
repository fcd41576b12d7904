//! What a radio player reads: `GAMES` and `SHOW` answered from the games in few characters,
//! the relay's outbox items (the opponent's moves, a draw offered, a game over) and its
//! replies made into APRS texts with the short game numbers the player types (`g1`), and the
//! resend schedule of a message until its acknowledgement comes.

use std::time::{Duration, Instant};

use shakmaty::Color;

use crate::game::{Kind, Ply, board};
use crate::notation::Notation;
use crate::relay::{GameView, Standing};

use super::aprs::split;
use super::words::Numbered;

/// The most messages one answer takes (a longer one is cut, ending with `...`).
pub const MESSAGES_MAX: usize = 6;

/// The player's games under way, oldest first, numbered `g1`, `g2`, ... by their place.
pub fn numbered(player: &str, views: &[GameView]) -> (Vec<Numbered>, Vec<GameView>) {
    let mut under_way: Vec<GameView> = views
        .iter()
        .filter(|v| v.standing == Standing::Ongoing)
        .cloned()
        .collect();
    under_way.sort_by(|a, b| a.started.cmp(&b.started).then_with(|| a.id.cmp(&b.id)));
    let numbered = under_way
        .iter()
        .map(|v| Numbered {
            id: v.id.clone(),
            my_turn: v.my_turn(),
            white: v.white_id == player,
            offered_to_me: v.draw_offer.is_some_and(|side| side != v.color),
        })
        .collect();
    (numbered, under_way)
}

/// The opponent's name in `view`.
fn opponent(view: &GameView) -> &str {
    if view.color == Color::White {
        &view.black
    } else {
        &view.white
    }
}

fn turn(view: &GameView) -> &'static str {
    if view.my_turn() {
        "your move"
    } else {
        "their move"
    }
}

/// `GAMES`: `g1 m1 boris your move; g2 m7 vera their move`.
pub fn games(under_way: &[GameView]) -> String {
    if under_way.is_empty() {
        return "no game under way".into();
    }
    under_way
        .iter()
        .enumerate()
        .map(|(i, v)| format!("g{} {} {} {}", i + 1, v.id, opponent(v), turn(v)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// `SHOW g1`: the game's last moves in the player's notation (`notation`, from
/// [`Player::written_notation`](crate::config::Player::written_notation): ASCII for a radio)
/// and whose move it is (`g1 m1 vs boris: ... 4.Ng5 d5 5.exd5; your move`, `... 4.6375 4754
/// 5.5445`); the whole game is on the web page and in `SHOW` over TCP.
pub fn show(n: usize, view: &GameView, notation: Notation) -> String {
    const LAST_WORDS: usize = 9;
    let words = numbered_moves(view.kind, view.start_fen.as_deref(), &view.moves, notation)
        .unwrap_or_else(|| {
            view.movetext
                .split_whitespace()
                .map(str::to_owned)
                .collect()
        });
    let tail = words[words.len().saturating_sub(LAST_WORDS)..].join(" ");
    let dots = if words.len() > LAST_WORDS { "... " } else { "" };
    let moves = if words.is_empty() {
        "no move yet".to_owned()
    } else {
        format!("{dots}{tail}")
    };
    format!(
        "g{n} {} vs {}: {moves}; {}",
        view.id,
        opponent(view),
        turn(view)
    )
}

/// `moves` from the start (`start_fen`, or the usual one) in `notation`, White's numbered
/// (`4.Ng5`, and `12...Nf6` for a first move by Black); `None` if the start does not read.
fn numbered_moves(
    kind: Kind,
    start_fen: Option<&str>,
    moves: &[Ply],
    notation: Notation,
) -> Option<Vec<String>> {
    let mut pos = board(kind, start_fen).ok()?;
    let mut words = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let written = pos.write(m, notation);
        let number = pos.move_number();
        words.push(if pos.turn() == Color::White {
            format!("{number}.{written}")
        } else if i == 0 {
            format!("{number}...{written}")
        } else {
            written
        });
        pos.play(m);
    }
    Some(words)
}

/// A protocol line (an outbox item's, `MOVE m1 5. Nf3 (...) by anna; clock: ...`) as a radio
/// player reads it: up to its first `;` (the clocks are on `SHOW` over TCP and the web), the
/// game named by its short number when it is under way.
pub fn item_text(line: &str, games: &[Numbered]) -> String {
    let head = line.split("; ").next().unwrap_or(line);
    let mut words: Vec<String> = head.split(' ').map(str::to_owned).collect();
    if let Some(word) = words.get_mut(1)
        && let Some(n) = games.iter().position(|g| g.id == *word)
    {
        *word = format!("g{}", n + 1);
    }
    words.join(" ")
}

/// `text` cut into at most [`MESSAGES_MAX`] texts of `width`.
pub fn texts(text: &str, width: usize) -> Vec<String> {
    let mut out = split(text, width);
    if out.len() > MESSAGES_MAX {
        out.truncate(MESSAGES_MAX);
        if let Some(last) = out.last_mut() {
            let keep = width.saturating_sub(4).min(last.len());
            last.truncate(keep);
            last.push_str(" ...");
        }
    }
    if out.is_empty() {
        out.push("ok".into());
    }
    out
}

/// A message on its way: how often it was sent, and when it goes again. After `retries`
/// sends without an acknowledgement it waits, held, until its callsign is heard again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flight {
    pub number: u64,
    pub sends: u32,
    pub next_at: Instant,
    pub held: bool,
}

impl Flight {
    pub fn new(number: u64, now: Instant) -> Flight {
        Flight {
            number,
            sends: 0,
            next_at: now,
            held: false,
        }
    }

    /// Whether to send now; if so, counted, and the next send set twice as far off as the
    /// last (`first` after the first send).
    pub fn due(&mut self, now: Instant, retries: u32, first: Duration) -> bool {
        if self.held || now < self.next_at {
            return false;
        }
        if self.sends >= retries {
            self.held = true;
            return false;
        }
        self.sends += 1;
        self.next_at = now + first * 2u32.saturating_pow(self.sends - 1).min(64);
        true
    }

    /// The callsign was heard: a held message goes again, as if new.
    pub fn heard(&mut self, now: Instant) {
        if self.held {
            *self = Flight::new(self.number, now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Lang;

    #[test]
    fn a_message_is_resent_with_backoff_then_held_until_its_station_is_heard() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        let mut f = Flight::new(7, t0);
        assert!(f.due(t0, 3, s(30)));
        assert!(!f.due(t0 + s(29), 3, s(30)));
        assert!(f.due(t0 + s(30), 3, s(30)));
        assert!(!f.due(t0 + s(89), 3, s(30)), "twice as long: 60 s");
        assert!(f.due(t0 + s(90), 3, s(30)));
        assert!(!f.due(t0 + s(10_000), 3, s(30)), "three sends: held");
        assert!(f.held);
        f.heard(t0 + s(10_001));
        assert!(f.due(t0 + s(10_001), 3, s(30)), "heard again: sent again");
    }

    #[test]
    fn an_outbox_line_is_cut_at_its_clocks_and_names_the_short_game() {
        let games = vec![
            Numbered {
                id: "club-7".into(),
                my_turn: true,
                white: true,
                offered_to_me: false,
            },
            Numbered {
                id: "m1".into(),
                my_turn: true,
                white: true,
                offered_to_me: false,
            },
        ];
        assert_eq!(
            item_text("MOVE m1 5... Nxd5 (4854) by boris; clock: 3d 2h", &games),
            "MOVE g2 5... Nxd5 (4854) by boris"
        );
        assert_eq!(
            item_text("RESIGN m9 Black (boris) resigned", &games),
            "RESIGN m9 Black (boris) resigned"
        );
    }

    /// The plies of `uci` from the usual start.
    fn plies(uci: &str) -> Vec<Ply> {
        let mut pos = board(Kind::Chess, None).expect("the start");
        uci.split_whitespace()
            .map(|u| {
                let ply = pos.read(u, None).expect("legal").ply;
                pos.play(&ply);
                ply
            })
            .collect()
    }

    #[test]
    fn show_writes_the_moves_in_the_players_notation() {
        let moves = plies("e2e4 e7e5 g1f3 b8c6 f1c4");
        let written = |notation| {
            numbered_moves(Kind::Chess, None, &moves, notation)
                .expect("the start reads")
                .join(" ")
        };
        assert_eq!(written(Notation::Iccf), "1.5254 5755 2.7163 2836 3.6134");
        assert_eq!(
            written(Notation::San(Lang::English)),
            "1.e4 e5 2.Nf3 Nc6 3.Bc4"
        );
        assert_eq!(
            written(Notation::Lan(Lang::English)),
            "1.e2-e4 e7-e5 2.Ng1-f3 Nb8-c6 3.Bf1-c4"
        );
        assert_eq!(
            written(Notation::San(Lang::German)),
            "1.e4 e5 2.Sf3 Sc6 3.Lc4"
        );
        // A game from a position with Black to move: its first move numbered with dots.
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let mut pos = board(Kind::Chess, Some(fen)).expect("the FEN");
        let e5 = pos.read("e7e5", None).expect("legal").ply;
        pos.play(&e5);
        let nf3 = pos.read("g1f3", None).expect("legal").ply;
        let from_fen = numbered_moves(Kind::Chess, Some(fen), &[e5, nf3], Notation::Iccf);
        assert_eq!(from_fen, Some(vec!["1...5755".into(), "2.7163".into()]));
        assert_eq!(
            numbered_moves(Kind::Chess, Some("not a fen"), &[], Notation::Iccf),
            None
        );
    }

    #[test]
    fn long_answers_are_cut_to_a_few_messages_of_the_radios_width() {
        let long = "word ".repeat(200);
        let out = texts(&long, 45);
        assert_eq!(out.len(), MESSAGES_MAX);
        assert!(out.iter().all(|t| t.len() <= 45));
        assert!(out[MESSAGES_MAX - 1].ends_with("..."));
        assert_eq!(texts("", 67), ["ok"]);
        assert_eq!(
            texts("g1 m1 boris your move", 67),
            ["g1 m1 boris your move"]
        );
    }
}
