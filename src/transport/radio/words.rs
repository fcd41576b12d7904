//! What a player types on a handheld's keypad, read: `5254`, `e4`, `Nf3`, `12 Nf3`,
//! `g1 Nf3`, `DRAW`, `RESIGN`, `GAMES`, `SHOW g1`, each ending with a code from their card
//! (`e4 K7Q2M`). Games are named by short numbers (`g1`, `g2`: the player's games under way,
//! oldest first), since 67 characters is all a message has; a player with one game names none.
//!
//! Pure: the words become a [`Asked`], and an [`Asked`] with the player's games becomes the
//! grammar's [`Command`]; the station (`station.rs`) hands that to the relay as a session does.

use crate::command::{Command, MoveLine};

use super::card::looks_like_code;

/// What a message asks, before its game is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    Games,
    Show(Option<usize>),
    Draw(Option<usize>),
    Resign(Option<usize>),
    /// A move, with the move number written before it if any (`12 Nf3`).
    Move {
        game: Option<usize>,
        number: Option<u32>,
        text: String,
    },
}

/// A game as the station numbers it for the player: its id, whether it is the player's move,
/// whether they play White, and whether the opponent's draw offer stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Numbered {
    pub id: String,
    pub my_turn: bool,
    pub white: bool,
    pub offered_to_me: bool,
}

/// The words and the card code at their end (`None` when the last word is not one, or the
/// only word).
pub fn split_code(text: &str) -> (String, Option<String>) {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() && looks_like_code(last) => {
            (rest.join(" "), Some(last.to_ascii_uppercase()))
        }
        _ => (words.join(" "), None),
    }
}

/// `g3` → 3.
fn short_number(word: &str) -> Option<usize> {
    let digits = word.strip_prefix(['g', 'G'])?;
    let n: usize = digits.parse().ok()?;
    (digits.len() <= 3 && n >= 1).then_some(n)
}

/// Reads the words (without the code).
pub fn read(words: &str) -> Result<Asked, String> {
    let mut words: Vec<&str> = words.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Err("empty: send a move, GAMES, SHOW, DRAW or RESIGN".into());
    };
    let game_after = |words: &[&str]| -> Result<Option<usize>, String> {
        match words {
            [] => Ok(None),
            [g] => short_number(g)
                .map(Some)
                .ok_or_else(|| format!("{g}: name a game as g1, g2")),
            _ => Err("too many words".into()),
        }
    };
    match first.to_ascii_uppercase().as_str() {
        "GAMES" if words.len() == 1 => return Ok(Asked::Games),
        "SHOW" => return game_after(&words[1..]).map(Asked::Show),
        "DRAW" => return game_after(&words[1..]).map(Asked::Draw),
        "RESIGN" => return game_after(&words[1..]).map(Asked::Resign),
        _ => {}
    }
    let game = short_number(first);
    if game.is_some() {
        words.remove(0);
    }
    let number = match words.as_slice() {
        [n, _] if n.len() <= 3 => Some(
            n.trim_end_matches('.')
                .parse::<u32>()
                .map_err(|_| format!("{n}: a move number is digits"))?,
        ),
        [_] => None,
        [] => return Err("no move after the game".into()),
        _ => return Err("too many words: one move at a time".into()),
    };
    let text = words.last().map_or(String::new(), |w| (*w).to_owned());
    Ok(Asked::Move { game, number, text })
}

/// The game a message is about: the one named, else the player's only game, else (for a
/// move) the only one where it is their move.
fn which(named: Option<usize>, games: &[Numbered], for_a_move: bool) -> Result<&Numbered, String> {
    if let Some(n) = named {
        return games
            .get(n - 1)
            .ok_or_else(|| format!("no game g{n}: you have {}", games.len()));
    }
    match games {
        [] => Err("you have no game under way".into()),
        [only] => Ok(only),
        _ => {
            let mut mine = games.iter().filter(|g| g.my_turn);
            match (for_a_move, mine.next(), mine.next()) {
                (true, Some(game), None) => Ok(game),
                _ => Err(format!(
                    "which game? g1 to g{}: say g1 first (GAMES lists them)",
                    games.len()
                )),
            }
        }
    }
}

/// `asked` as the grammar's command, with the player's games. `Ok(None)`: `GAMES` or `SHOW`,
/// which the station answers from the games itself, in few characters.
pub fn command(asked: &Asked, games: &[Numbered]) -> Result<Option<Command>, String> {
    Ok(Some(match asked {
        Asked::Games | Asked::Show(_) => return Ok(None),
        Asked::Draw(n) => {
            let game = which(*n, games, false)?;
            let id = game.id.clone();
            if game.offered_to_me {
                Command::AcceptDraw { game: id }
            } else {
                Command::OfferDraw { game: id }
            }
        }
        Asked::Resign(n) => Command::Resign {
            game: which(*n, games, false)?.id.clone(),
        },
        Asked::Move { game, number, text } => {
            let game = which(*game, games, true)?;
            let written = match number {
                Some(n) if game.white => format!("{n}. {text}"),
                Some(n) => format!("{n}... {text}"),
                None => text.clone(),
            };
            let line = MoveLine::parse(&written).map_err(|e| e.to_string())?;
            Command::Move {
                game: game.id.clone(),
                line,
            }
        }
    }))
}

/// Which game `asked` shows (`SHOW` alone: the only game, or the one where it is their move).
pub fn shown<'a>(asked: &Asked, games: &'a [Numbered]) -> Result<(usize, &'a Numbered), String> {
    let named = match asked {
        Asked::Show(n) => *n,
        _ => None,
    };
    let game = which(named, games, true)?;
    let n = games.iter().position(|g| g.id == game.id).unwrap_or(0) + 1;
    Ok((n, game))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games() -> Vec<Numbered> {
        vec![
            Numbered {
                id: "m1".into(),
                my_turn: true,
                white: true,
                offered_to_me: false,
            },
            Numbered {
                id: "m7".into(),
                my_turn: false,
                white: false,
                offered_to_me: true,
            },
        ]
    }

    fn mv(game: Option<usize>, number: Option<u32>, text: &str) -> Asked {
        Asked::Move {
            game,
            number,
            text: text.into(),
        }
    }

    #[test]
    fn the_code_is_the_last_word_and_never_the_only_one() {
        assert_eq!(
            split_code("5254 k7q2m"),
            ("5254".into(), Some("K7Q2M".into()))
        );
        assert_eq!(
            split_code("g1  Nf3 K7Q2M"),
            ("g1 Nf3".into(), Some("K7Q2M".into()))
        );
        assert_eq!(split_code("GAMES"), ("GAMES".into(), None));
        assert_eq!(
            split_code("e4 K7Q2"),
            ("e4 K7Q2".into(), None),
            "four symbols: no code"
        );
        assert_eq!(split_code("K7Q2M"), ("K7Q2M".into(), None));
    }

    #[test]
    fn every_form_a_handheld_sends_reads() {
        assert_eq!(read("5254"), Ok(mv(None, None, "5254")));
        assert_eq!(read("e4"), Ok(mv(None, None, "e4")));
        assert_eq!(read("12 Nf3"), Ok(mv(None, Some(12), "Nf3")));
        assert_eq!(read("12. Nf3"), Ok(mv(None, Some(12), "Nf3")));
        assert_eq!(read("g1 Nf3"), Ok(mv(Some(1), None, "Nf3")));
        assert_eq!(read("G2 3 5254"), Ok(mv(Some(2), Some(3), "5254")));
        assert_eq!(read("games"), Ok(Asked::Games));
        assert_eq!(read("SHOW g1"), Ok(Asked::Show(Some(1))));
        assert_eq!(read("draw"), Ok(Asked::Draw(None)));
        assert_eq!(read("RESIGN g2"), Ok(Asked::Resign(Some(2))));
        for bad in ["", "SHOW x1", "g1", "1 2 3", "RESIGN g1 g2", "ab Nf3"] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_game_is_named_or_the_only_one_to_move_in() {
        let g = games();
        let command = |text: &str| command(&read(text).unwrap(), &g);
        let Ok(Some(Command::Move { game, line })) = command("12 Nf3") else {
            panic!("a move");
        };
        assert_eq!((game.as_str(), line.text.as_str()), ("m1", "Nf3"));
        assert_eq!(line.number.map(|n| (n.number, n.black)), Some((12, false)));
        let Ok(Some(Command::Move { game, line })) = command("g2 7 e5") else {
            panic!("a move");
        };
        assert_eq!(game, "m7");
        assert_eq!(line.number.map(|n| (n.number, n.black)), Some((7, true)));
        assert_eq!(
            command("DRAW g2"),
            Ok(Some(Command::AcceptDraw { game: "m7".into() }))
        );
        assert_eq!(
            command("DRAW g1"),
            Ok(Some(Command::OfferDraw { game: "m1".into() }))
        );
        assert!(command("RESIGN").unwrap_err().contains("which game"));
        assert!(command("g3 e4").unwrap_err().contains("no game g3"));
        assert_eq!(command("GAMES"), Ok(None));
        assert_eq!(shown(&Asked::Show(Some(2)), &g).map(|(n, _)| n), Ok(2));
        assert_eq!(shown(&Asked::Show(None), &g).map(|(n, _)| n), Ok(1));
    }
}
