//! A remote game's moves, between the server's words and the record's: the server's PGN
//! movetext replayed into ICCF numeric codes (what the relay checks against the local game),
//! and a player's proposal made into the `MakeAMove` the server reads (SAN, with the move's
//! number as the guard that makes a second send harmless, and the message riding with it), or
//! found applied already, or overtaken by the game there.

use shakmaty::Color;

use crate::command::Command;
use crate::game::{Board, Game};
use crate::notation::{Lang, Notation};

use super::request::MoveCall;

/// The server's moves replayed from the game's start.
pub struct Replayed {
    /// Each move in ICCF numeric form.
    pub codes: Vec<String>,
    /// The position after them.
    pub board: Box<dyn Board>,
}

/// Replays the movetext `moves` (XFCC's `moves`: `1. e4 e5 2. Nf3`) from the start (`fen`
/// for a game set up from a position). A token that is no legal move there is an error: the
/// server's record is not read on a guess.
pub fn replay(moves: &str, fen: Option<&str>) -> Result<Replayed, String> {
    let game = Game::new("remote", "white", "black", fen)?;
    let mut board = game.board().boxed();
    let mut codes = Vec::new();
    for token in moves.split_whitespace() {
        if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*" | "e.p.") {
            continue;
        }
        // A move number (`12.`, `12...`), alone or glued to its move (`12.e4`).
        let text = match token.find('.') {
            Some(i) if i > 0 && token[..i].bytes().all(|b| b.is_ascii_digit()) => {
                token[i..].trim_start_matches('.')
            }
            _ => token,
        };
        if text.is_empty() {
            continue;
        }
        let read = board
            .read(text, Some(Lang::English))
            .map_err(|e| format!("move {} ({text:?}): {e}", codes.len() + 1))?;
        codes.push(board.code(&read.ply));
        board.play(&read.ply);
    }
    Ok(Replayed { codes, board })
}

/// What the last poll showed of a game: what a proposal in it is weighed against.
pub struct Shown {
    /// The game's id on the server.
    pub remote_game: String,
    pub replayed: Replayed,
    /// The account's player's side.
    pub color: Color,
    pub my_turn: bool,
    /// The opponent offers a draw.
    pub draw_offered: bool,
}

impl Shown {
    /// Whether the player's move `code` is in the server's record, played by their side.
    fn has_players_move(&self, code: &str) -> bool {
        let codes = &self.replayed.codes;
        let to_move = self.replayed.board.turn();
        codes.iter().enumerate().any(|(i, c)| {
            // The last move was made by the side not to move, the one before by the other.
            let mover = if (codes.len() - i) % 2 == 1 {
                !to_move
            } else {
                to_move
            };
            mover == self.color && c == code
        })
    }
}

/// What a proposal becomes on the server, given the game as the server shows it now.
#[derive(Debug, PartialEq, Eq)]
pub enum Sending {
    /// Sent with this call.
    Call(MoveCall),
    /// The server's game shows it applied (a move: the player's side played it there): not
    /// sent again.
    Applied,
    /// The server's game went on without it (a move no longer playable there, not in its
    /// record: the game ended there, or the opponent's move came first): refused with this
    /// reason, so the player hears it was not played rather than nothing.
    Overtaken(&'static str),
    /// XFCC has no word for it (a conditional line, leave, a bank refill): refused with this
    /// reason.
    Unsupported(&'static str),
}

/// Proposal `command` (the text the record keeps; `iccf`, a move's code) by the account's
/// player, for a game as the server last showed it.
pub fn sending(command: &str, iccf: Option<&str>, shown: &Shown) -> Sending {
    let board = shown.replayed.board.as_ref();
    let (my_turn, draw_offered) = (shown.my_turn, shown.draw_offered);
    let Ok(command) = Command::parse(command) else {
        return Sending::Unsupported("the proposal does not read");
    };
    let mut call = MoveCall {
        game: shown.remote_game.clone(),
        ..MoveCall::default()
    };
    let san = |code: &str| {
        board
            .read_code(code)
            .map(|ply| board.write(&ply, Notation::San(Lang::English)))
    };
    match command {
        Command::Move { line, .. } => {
            let code = iccf.unwrap_or(&line.text);
            let Some(san) = san(code).filter(|_| my_turn) else {
                return if shown.has_players_move(code) {
                    Sending::Applied
                } else {
                    Sending::Overtaken("the game there went on without this move")
                };
            };
            call.my_move = Some(san);
            call.movecount = Some(board.move_number());
            call.offer_draw = line.marks.draw_offer;
        }
        Command::Claim { with, .. } => {
            if !my_turn {
                return Sending::Applied;
            }
            if let Some(with) = with {
                let Some(ply) = board.read(&with.text, None).ok() else {
                    return Sending::Applied;
                };
                call.my_move = Some(board.write(&ply.ply, Notation::San(Lang::English)));
                call.movecount = Some(board.move_number());
            }
            call.claim_draw = true;
        }
        Command::OfferDraw { .. } => {
            // XFCC offers a draw with a move only: alone, it waits for none.
            return Sending::Unsupported("a remote server takes a draw offer only with a move");
        }
        Command::AcceptDraw { .. } => {
            if !draw_offered {
                return Sending::Applied;
            }
            call.accept_draw = true;
        }
        // Declining is making a move without accepting: nothing to send.
        Command::DeclineDraw { .. } => return Sending::Applied,
        Command::Resign { .. } => call.resign = true,
        Command::Message { text, .. } => call.message = Some(text),
        _ => return Sending::Unsupported("a remote server has no word for it"),
    }
    Sending::Call(call)
}

/// The words of proposal `command` when it is a message alone in `game`: what rides with the
/// move proposed just before it (a mail's words around its move become such a pair), sent in
/// the same `MakeAMove` as XFCC's `myMessage` rather than after it, when the move may have
/// ended the game.
pub fn riding_message(command: &str, game: &str) -> Option<String> {
    match Command::parse(command) {
        Ok(Command::Message { game: g, text }) if g == game => Some(text),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_servers_movetext_is_replayed_into_codes() {
        let r = replay("1. e4 e5 2.Nf3 Nc6 3. Bb5 a6 4. O-O", None).unwrap();
        assert_eq!(
            r.codes,
            ["5254", "5755", "7163", "2836", "6125", "1716", "5171"]
        );
        assert_eq!(r.board.move_number(), 4);
        assert!(replay("", None).unwrap().codes.is_empty());
        assert_eq!(replay("1. e4 e5 1-0", None).unwrap().codes.len(), 2);
        assert!(replay("1. e4 e4", None).is_err());
        assert!(replay("1. <b>", None).is_err());
    }

    /// The server's game after `moves`, the player on `color`.
    fn shown(moves: &str, color: Color, my_turn: bool) -> Shown {
        Shown {
            remote_game: "7".to_owned(),
            replayed: replay(moves, None).unwrap(),
            color,
            my_turn,
            draw_offered: false,
        }
    }

    #[test]
    fn proposals_become_calls_or_are_found_applied_or_overtaken() {
        let Sending::Call(call) = sending(
            "MOVE g-7 5755 (=)",
            Some("5755"),
            &shown("1. e4", Color::Black, true),
        ) else {
            panic!("not sent")
        };
        assert_eq!(
            (call.my_move.as_deref(), call.movecount, call.offer_draw),
            (Some("e5"), Some(1), true)
        );
        // The server has the move, by the player's side: not sent again.
        let proposal = ("MOVE g-7 5755", Some("5755"));
        assert_eq!(
            sending(
                proposal.0,
                proposal.1,
                &shown("1. e4 e5", Color::Black, false)
            ),
            Sending::Applied
        );
        assert_eq!(
            sending(
                "MOVE g-7 7163",
                Some("7163"),
                &shown("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3", Color::White, false)
            ),
            Sending::Applied
        );
        // The game there went on without it: another move in its place, or the game over
        // with the player still to move; a move played there by the other side only.
        for (moves, color) in [
            ("1. e4 e6", Color::Black),
            ("1. e4", Color::Black),
            ("1. d4 e5", Color::White),
        ] {
            assert!(
                matches!(
                    sending(proposal.0, proposal.1, &shown(moves, color, false)),
                    Sending::Overtaken(_)
                ),
                "{moves}"
            );
        }
        let Sending::Call(call) = sending(
            "MSG g-7 hello there",
            None,
            &shown("1. e4", Color::Black, false),
        ) else {
            panic!("not sent")
        };
        assert_eq!(call.message.as_deref(), Some("hello there"));
        assert!(matches!(
            sending("DRAW g-7 OFFER", None, &shown("1. e4", Color::Black, true)),
            Sending::Unsupported(_)
        ));
    }

    #[test]
    fn a_message_rides_with_the_move_before_it_in_the_same_game_only() {
        assert_eq!(
            riding_message("MSG g-7 No draw, thank you!", "g-7").as_deref(),
            Some("No draw, thank you!")
        );
        assert_eq!(riding_message("MSG g-8 hello", "g-7"), None);
        assert_eq!(riding_message("MOVE g-7 5755", "g-7"), None);
        assert_eq!(riding_message("not a command", "g-7"), None);
    }
}
