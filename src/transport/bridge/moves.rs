//! A remote game's moves, between the server's words and the record's: the server's PGN
//! movetext replayed into ICCF numeric codes (what the relay checks against the local game),
//! and a player's proposal made into the `MakeAMove` the server reads (SAN, with the move's
//! number as the guard that makes a second send harmless), or found applied already.

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

/// What a proposal becomes on the server, given the game as the server shows it now.
#[derive(Debug, PartialEq, Eq)]
pub enum Sending {
    /// Sent with this call.
    Call(MoveCall),
    /// The server's game shows it applied, or past it (the move is no longer legal there, or
    /// it is not the player's turn): not sent again.
    Applied,
    /// XFCC has no word for it (a conditional line, leave, a bank refill): refused with this
    /// reason.
    Unsupported(&'static str),
}

/// Proposal `command` (the text the record keeps; `iccf`, a move's code) by the account's
/// player, for remote game `remote_game` as the server shows it: `board` its position now,
/// `my_turn` whether the player is to move, `draw_offered` whether the opponent offers one.
pub fn sending(
    command: &str,
    iccf: Option<&str>,
    remote_game: &str,
    board: &dyn Board,
    my_turn: bool,
    draw_offered: bool,
) -> Sending {
    let Ok(command) = Command::parse(command) else {
        return Sending::Unsupported("the proposal does not read");
    };
    let mut call = MoveCall {
        game: remote_game.to_owned(),
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
                return Sending::Applied;
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

    #[test]
    fn proposals_become_calls_or_are_found_applied() {
        let r = replay("1. e4", None).unwrap();
        let board = r.board.as_ref();
        let Sending::Call(call) =
            sending("MOVE g-7 5755 (=)", Some("5755"), "7", board, true, false)
        else {
            panic!("not sent")
        };
        assert_eq!(
            (call.my_move.as_deref(), call.movecount, call.offer_draw),
            (Some("e5"), Some(1), true)
        );
        // Not the player's turn, or the move no longer legal: the server has it already.
        assert_eq!(
            sending("MOVE g-7 5755", Some("5755"), "7", board, false, false),
            Sending::Applied
        );
        assert_eq!(
            sending("MOVE g-7 5254", Some("5254"), "7", board, true, false),
            Sending::Applied
        );
        let Sending::Call(call) = sending("MSG g-7 hello there", None, "7", board, false, false)
        else {
            panic!("not sent")
        };
        assert_eq!(call.message.as_deref(), Some("hello there"));
        assert!(matches!(
            sending("DRAW g-7 OFFER", None, "7", board, true, false),
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
