//! A game on a remote XFCC server, as the bridge saw it in the account's `GetMyGames`
//! ([`RemoteSeen`]): the remote keeps the game's record, as the node that keeps a linked game
//! does (docs/link.md, "One record"), and the relay applies what it reports to the local game
//! of the same moves (`relay/handle/remote.rs`). The names are made here, in one place: a
//! remote game's local id (`<remote>-<its id there>`) and its outside player's
//! (`<remote>.<their name there>`), by which the relay knows that player plays elsewhere.

use shakmaty::Color;

/// How a game ended on the remote server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemoteEnd {
    /// Scored: the winner, `None` for a draw.
    Scored(Option<Color>),
    /// An end that gives no score here (cancelled, both defaulted, a word not known): the
    /// server's word, for the arbiter.
    Unscored(String),
}

/// One remote game as the server lists it, its moves already in the record's form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteSeen {
    /// The `[[remotes]]` id of the account.
    pub remote: String,
    /// The local player whose account it is.
    pub player: String,
    /// The game's local id ([`game_id`]).
    pub game: String,
    /// The opponent's local id ([`outside_player`]).
    pub opponent: String,
    /// The local player's side.
    pub color: Color,
    pub event: Option<String>,
    /// The starting position, for a game set up from one.
    pub fen: Option<String>,
    /// Every move the server lists, in ICCF numeric form, from the start.
    pub moves: Vec<String>,
    /// The opponent offers a draw.
    pub opponent_offers_draw: bool,
    /// The opponent's last message, as the server shows it.
    pub opponent_message: Option<String>,
    /// The player's message the server took since the last poll (`MakeAMove` answered
    /// `Success`): in its record, though `GetMyGames` shows only the opponent's.
    pub own_message: Option<String>,
    /// The game's end there, if it ended.
    pub end: Option<RemoteEnd>,
    /// The server's clocks, as this poll gave them (none when it keeps no clock).
    pub server_clocks: Option<ServerClocks>,
}

/// Each side's time left as the remote server counts it (XFCC's `daysPlayer`, `hoursPlayer`,
/// `minutesPlayer` and the opponent's), and when it was asked: what `SHOW` of a remote game
/// shows beside the clock kept here, since the server's is the one that counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerClocks {
    /// Seconds left: White's, then Black's.
    pub left: [i64; 2],
    /// The poll that gave them.
    pub polled: jiff::Timestamp,
}

/// The local id of game `remote_game` of remote `remote`; `None` when it would not be a game
/// id here (too long, characters a game id does not take): such a game is not played here.
pub fn game_id(remote: &str, remote_game: &str) -> Option<String> {
    let id = format!("{remote}-{remote_game}");
    crate::config::valid_game_id(&id).then_some(id)
}

/// The local id of `name`, a player on remote `remote`: their name with every character an id
/// does not take made `_`, cut to an id's length.
pub fn outside_player(remote: &str, name: &str) -> String {
    let mut id = format!("{remote}.");
    for c in name.trim().chars() {
        if id.len() >= 64 {
            break;
        }
        id.push(if c.is_ascii_alphanumeric() || matches!(c, '-' | '_') {
            c
        } else {
            '_'
        });
    }
    if id.ends_with('.') {
        id.push('_');
    }
    id
}

/// The remote among `remotes` whose outside player `player` is, if any.
pub fn remote_of<'a>(remotes: &'a [String], player: &str) -> Option<&'a str> {
    remotes
        .iter()
        .find(|r| {
            player
                .strip_prefix(r.as_str())
                .is_some_and(|rest| rest.starts_with('.'))
        })
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_names_are_made_in_one_place() {
        assert_eq!(game_id("iccf", "1234").as_deref(), Some("iccf-1234"));
        assert_eq!(game_id("iccf", "12/34"), None);
        assert_eq!(game_id("iccf", &"9".repeat(70)), None);
        assert_eq!(outside_player("iccf", "Ann Smith"), "iccf.Ann_Smith");
        assert_eq!(outside_player("iccf", ""), "iccf._");
        assert!(crate::config::valid_id(&outside_player(
            "iccf",
            &"ж".repeat(100)
        )));
        let remotes = vec!["iccf".to_owned(), "club".to_owned()];
        assert_eq!(remote_of(&remotes, "iccf.Ann_Smith"), Some("iccf"));
        assert_eq!(remote_of(&remotes, "iccfx.Ann"), None);
        assert_eq!(remote_of(&remotes, "alice"), None);
    }
}
