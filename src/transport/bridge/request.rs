//! What the bridge asks a remote XFCC server, as SOAP envelopes: `GetMyGames` for the
//! account's games, `MakeAMove` for a player's action. XFCC's `MakeAMove` carries one action
//! at a time with its flags: a move (with a draw offer riding on it, or a draw claim), an
//! acceptance, a resignation, or a message alone.

use crate::transport::http::xfcc::soap;

/// The account's name and password on the remote server.
pub struct Credentials<'a> {
    pub username: &'a str,
    pub password: &'a str,
}

/// One `MakeAMove`: a player's action in a remote game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveCall {
    pub game: String,
    /// The number of the move the action is for: the server refuses it
    /// (`InvalidMoveNumber`) when the game is past it, which makes sending it twice harmless.
    pub movecount: Option<u32>,
    /// The move, in the notation the server reads (SAN for every XFCC server known).
    pub my_move: Option<String>,
    pub offer_draw: bool,
    pub accept_draw: bool,
    pub claim_draw: bool,
    pub resign: bool,
    pub message: Option<String>,
}

impl MoveCall {
    /// A message with nothing else: no move, no flag. It has no move number to guard a
    /// second send ([`super::in_flight`]).
    pub fn is_message_alone(&self) -> bool {
        self.message.is_some()
            && self.my_move.is_none()
            && self.movecount.is_none()
            && !(self.offer_draw || self.accept_draw || self.claim_draw || self.resign)
    }
}

/// `GetMyGames` for the account.
pub fn get_my_games(account: &Credentials<'_>) -> String {
    soap::request(
        "GetMyGames",
        &[
            ("username", account.username),
            ("password", account.password),
        ],
    )
}

/// `MakeAMove` for the account, every field the WSDL lists in its order.
pub fn make_a_move(account: &Credentials<'_>, call: &MoveCall) -> String {
    let flag = |b: bool| if b { "true" } else { "false" };
    let movecount = call.movecount.map(|n| n.to_string()).unwrap_or_default();
    soap::request(
        "MakeAMove",
        &[
            ("username", account.username),
            ("password", account.password),
            ("gameId", &call.game),
            ("resign", flag(call.resign)),
            ("acceptDraw", flag(call.accept_draw)),
            ("movecount", &movecount),
            ("myMove", call.my_move.as_deref().unwrap_or("")),
            ("offerDraw", flag(call.offer_draw)),
            ("claimDraw", flag(call.claim_draw)),
            ("myMessage", call.message.as_deref().unwrap_or("")),
        ],
    )
}
