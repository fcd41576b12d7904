//! Rebuilding every game from the journal, checking the hash chain on the way. The daemon does
//! this at start; `ccrelay journal verify` does it and reports.

use std::collections::BTreeMap;

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use jiff::Timestamp;
use shakmaty::Color;

use super::clocks::ClockCheck;
use super::entry::Meaning;
use super::registry::Registry;
use super::signing::KeyHistory;
use super::{Entry, EntryKind, JournalError, store};
use crate::game::{Action, Authority, Board, EndReason, Game, GameResult, Ply};

// The details' types live with the one encoder and decoder of entries; named here too, where
// the relay and the exports have always found them.
pub use super::entry::{AdjudicationDetail, DRAW_OFFER, GameStartDetail, TimeUpDetail};

/// An entry's time.
pub fn time_of(e: &Entry) -> Result<Timestamp, JournalError> {
    e.time
        .parse()
        .map_err(|err| JournalError::Corrupt(format!("entry {}: time {:?}: {err}", e.seq, e.time)))
}

/// A game as the journal holds it.
#[derive(Clone, Debug)]
pub struct JournaledGame {
    pub game: Game,
    pub event: Option<String>,
    pub round: Option<String>,
    /// The last message each side (White, Black) sent in the game.
    pub messages: [Option<String>; 2],
    /// The game's conversation: its last [`CONVERSATION`] messages, oldest first.
    pub conversation: Vec<Spoken>,
    /// When the game started (RFC 3339).
    pub started: String,
    /// Its record so far, as a link between nodes numbers it.
    pub ledger: Ledger,
}

/// How many of a game's messages the relay keeps for its players' pages.
pub const CONVERSATION: usize = 40;

/// One message of a game's conversation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spoken {
    pub side: Color,
    pub at: Timestamp,
    pub text: String,
}

impl Spoken {
    /// Adds a message to a conversation, the oldest going past [`CONVERSATION`].
    pub fn add(conversation: &mut Vec<Spoken>, spoken: Spoken) {
        if conversation.len() >= CONVERSATION {
            conversation.remove(0);
        }
        conversation.push(spoken);
    }
}

/// How far a game's official record ([`EntryKind::is_record`]) and each side's proposals
/// have gone: what numbers the next record entry and the next proposal of each side get on a
/// link between nodes (docs/link.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    /// Record entries so far.
    pub records: u32,
    /// The last record entry's time.
    pub last: Option<Timestamp>,
    /// Proposals so far by White, by Black and by the arbiter.
    pub proposals: [u32; 3],
    /// Whose node keeps the record, if the game is played between two nodes.
    pub authority: Authority,
}

/// Where a proposer's count is in [`Ledger::proposals`]: a side's, or (`None`) the arbiter's.
pub fn proposer(color: Option<Color>) -> usize {
    match color {
        Some(Color::White) => 0,
        Some(Color::Black) => 1,
        None => 2,
    }
}

impl Ledger {
    /// Counts an entry of `game` (`color`: the side of its player, if a player).
    pub fn count(&mut self, kind: EntryKind, at: Timestamp, color: Option<Color>) {
        if kind.is_record() {
            self.records += 1;
            self.last = Some(at);
        } else if kind == EntryKind::Proposal {
            self.proposals[proposer(color)] += 1;
        }
    }
}

/// Everything the journal holds, replayed.
#[derive(Clone, Debug, Default)]
pub struct Replayed {
    pub games: BTreeMap<String, JournaledGame>,
    pub entries: u64,
    /// The latest time of an entry written at the relay's clock (see [`keeps_relay_time`]):
    /// the relay's time never starts before it, and a manual clock starts from it.
    pub last_time: Option<Timestamp>,
    /// The signing keys the chain names.
    pub keys: KeyHistory,
    /// Signed heads checked (by [`verify`] only; replay at start does not check them).
    pub signatures: u64,
    /// Players and events registered while the relay ran.
    pub registry: Registry,
    /// Secret hashes set while the relay ran, by player (read by the daemon at start only;
    /// never printed).
    pub credentials: Credentials,
    /// The entry the start's snapshot was taken after (0: none; every entry was played).
    pub snapshot_at: i64,
    /// The clocks' check, when the replay verifies (`None` at the daemon's start).
    pub clocks: Option<ClockCheck>,
}

/// Players' secret hashes set while the relay ran (`PLAYER ADD`, `PLAYER SECRET`, `SECRET`),
/// kept outside the record. Its `Debug` says how many, never what.
#[derive(Clone, Default)]
pub struct Credentials(pub BTreeMap<String, String>);

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Credentials({} hashes)", self.0.len())
    }
}

/// Whether entries of `kind` carry the relay's time, which a manual clock sets. Not the
/// signing key's entries (written when the key is made, at the system's time) and not refused
/// attempts (a refused mail is journaled at the system's time, before any game is known): a
/// restart under a manual clock must not jump to the real date because of them, forfeiting
/// every running game (the relay's own refusals carry its time, but change no game).
pub fn keeps_relay_time(kind: EntryKind) -> bool {
    !matches!(
        kind,
        EntryKind::SigningKey | EntryKind::KeyRotation | EntryKind::Rejected
    )
}

/// Whether entries of `kind` belong to no game, whatever game they name: a rejected message may
/// name one that does not exist (an email transport journals mail it refuses under whatever
/// game its subject named), and the signing key's and the manual clock's entries name none.
/// They change no game (a clock's entry moves only the relay's time).
pub fn names_no_game(kind: EntryKind) -> bool {
    matches!(
        kind,
        EntryKind::Rejected | EntryKind::SigningKey | EntryKind::KeyRotation | EntryKind::ClockSet
    )
}

/// What an entry does to its game, and by whom: `None` for entries that change no game (a
/// rejected attempt; a result, which follows from the entries before it). Errors if the entry
/// could not have been written by the relay (a stranger's action, an unreadable or
/// out-of-turn move).
pub fn action_of(e: &Entry, game: &Game) -> Result<Option<(Color, Action)>, JournalError> {
    let corrupt = |why: String| JournalError::Corrupt(format!("entry {}: {why}", e.seq));
    let read_move = |code: &str, pos: &dyn Board| -> Result<Ply, JournalError> {
        pos.read_code(code)
            .ok_or_else(|| corrupt(format!("move {code:?}: not a legal move there")))
    };
    let action = match Meaning::of(e)? {
        Meaning::GameStart(_)
        | Meaning::Rejected { .. }
        | Meaning::Result { .. }
        | Meaning::Message { .. }
        | Meaning::SigningKey
        | Meaning::KeyRotation(_)
        | Meaning::Proposal { .. }
        | Meaning::PlayerAdd(_)
        | Meaning::PlayerSet(_)
        | Meaning::PlayerSecret(_)
        | Meaning::EventNew(_)
        | Meaning::EventEnter(_)
        | Meaning::EventDraw(_)
        | Meaning::EventStart(_)
        | Meaning::EventWithdraw(_)
        | Meaning::Notify(_)
        | Meaning::NotifyDigest(_)
        | Meaning::RatingSet(_)
        | Meaning::EventLot(_)
        | Meaning::RemoteStatus(_)
        | Meaning::ClockSet { .. } => {
            return Ok(None);
        }
        Meaning::DrawOffer => Action::OfferDraw,
        Meaning::DrawAccept => Action::AcceptDraw,
        Meaning::DrawDecline => Action::DeclineDraw,
        Meaning::Resign => Action::Resign,
        Meaning::Move { iccf, draw_offer } => Action::Move {
            m: read_move(&iccf, game.board())?,
            draw_offer,
        },
        Meaning::Claim { claim, iccf } => Action::Claim {
            claim,
            m: match iccf {
                Some(iccf) => Some(read_move(&iccf, game.board())?),
                None => None,
            },
        },
        Meaning::Leave(leave) => Action::Leave(leave),
        Meaning::Refill { days } => Action::Refill { days },
        Meaning::LongReflection => Action::LongReflection,
        Meaning::Conditional { line: codes } => {
            let mut pos = game.board().boxed();
            let mut line = Vec::new();
            for code in &codes {
                let m = read_move(code, pos.as_ref())?;
                pos.play(&m);
                line.push(m);
            }
            Action::Conditional(line)
        }
        Meaning::TimeUp(TimeUpDetail { overdue, forfeit }) => Action::TimeUp { overdue, forfeit },
        Meaning::Reminder { days } => Action::Remind { days },
        Meaning::Stopped { reason } => {
            // The relay stops the game, no side: the colour is only a placeholder.
            return Ok(Some((game.turn(), Action::Stop(reason))));
        }
        Meaning::SpecialLeave(detail) => {
            let Some(color) = game.side_of(&detail.player) else {
                return Err(corrupt(format!(
                    "special leave for {}, who does not play in game {}",
                    detail.player, e.game
                )));
            };
            return Ok(Some((color, Action::Leave(detail.leave()))));
        }
        Meaning::Adjudication(detail) => {
            let winner = GameResult::winner_from_pgn(&detail.result)
                .ok_or_else(|| corrupt(format!("adjudication result {:?}", detail.result)))?;
            let reason = if detail.withdrawal {
                EndReason::Withdrawal
            } else {
                EndReason::Adjudication
            };
            let mut result = GameResult::new(winner, reason);
            result.note = Some(detail.reason);
            // The arbiter is no side: the colour is only a placeholder.
            return Ok(Some((game.turn(), Action::Adjudicate(result))));
        }
    };
    let Some(color) = game.side_of(&e.player) else {
        return Err(corrupt(format!(
            "{} does not play in game {}",
            e.player, e.game
        )));
    };
    let must_be_to_move = matches!(
        action,
        Action::Move { .. }
            | Action::Claim { .. }
            | Action::TimeUp { .. }
            | Action::Remind { .. }
            | Action::Refill { .. }
    );
    if must_be_to_move && game.turn() != color {
        return Err(corrupt(format!("{} acted out of turn", e.player)));
    }
    Ok(Some((color, action)))
}

/// Replays the whole journal.
pub fn replay(conn: &Connection) -> Result<Replayed, JournalError> {
    replay_reporting(conn, &mut |_| {})
}

/// [`replay`], calling `progress` with the number of entries read so far every few thousand
/// entries (for a progress line on a large journal).
pub fn replay_reporting(
    conn: &Connection,
    progress: &mut dyn FnMut(u64),
) -> Result<Replayed, JournalError> {
    let mut out = Replayed::default();
    replay_after(
        conn,
        &mut out,
        (0, [0; 32]),
        i64::MAX,
        Keys::Observe,
        progress,
    )?;
    Ok(out)
}

/// Whether a replay learns the signing keys from the entries it plays, or was handed them
/// (by [`super::chain::check`], which reads every key entry from the first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keys {
    Observe,
    Known,
}

/// Plays the entries after `after` (whose chain hash is `prev`) up to `last` onto `out`,
/// which holds the journal up to `after` (nothing for 0, or a snapshot's state), checking
/// each link. Returns the last entry's chain hash (`prev` when none was played).
pub fn replay_after(
    conn: &Connection,
    out: &mut Replayed,
    (after, prev): (i64, [u8; 32]),
    last: i64,
    keys: Keys,
    progress: &mut dyn FnMut(u64),
) -> Result<[u8; 32], JournalError> {
    // The languages moves narrowed their players' reading to, kept beside the record.
    let langs = store::move_langs(conn, after)?;
    let mut prev = prev;
    let mut expected_seq = after + 1;
    store::for_each_entry_between(conn, after + 1, last, |e| {
        let corrupt = |why: String| JournalError::Corrupt(format!("entry {}: {why}", e.seq));
        if e.seq != expected_seq {
            return Err(corrupt(format!(
                "sequence number {} where {expected_seq} was expected",
                e.seq
            )));
        }
        if store::chain_hash(&prev, &e) != e.hash {
            return Err(corrupt(
                "its hash does not match its content and the entry before it".to_owned(),
            ));
        }
        if keys == Keys::Observe {
            out.keys.observe(&e, &prev)?;
        }
        prev = e.hash;
        expected_seq += 1;
        out.entries += 1;
        if out.entries.is_multiple_of(PROGRESS_EVERY) {
            progress(out.entries);
        }
        let at = time_of(&e)?;
        if keeps_relay_time(e.kind) {
            out.last_time = out.last_time.max(Some(at));
        }
        if e.kind.is_registry() {
            return out.registry.apply(&e).map_err(corrupt);
        }
        if e.kind == EntryKind::GameStart {
            let detail = GameStartDetail::of(&e)?;
            if out.games.contains_key(&e.game) {
                return Err(corrupt(format!("game {} started twice", e.game)));
            }
            let game = detail.game(&e.game, at).map_err(corrupt)?;
            let started = e.time.clone();
            let mut ledger = Ledger {
                authority: detail.authority,
                ..Ledger::default()
            };
            ledger.count(e.kind, at, None);
            out.games.insert(
                e.game.clone(),
                JournaledGame {
                    game,
                    event: detail.event,
                    round: detail.round,
                    messages: Default::default(),
                    conversation: Vec::new(),
                    started,
                    ledger,
                },
            );
            if let Some(check) = out.clocks.as_mut() {
                check.started(&e, &out.games[&e.game].game);
            }
            return Ok(());
        }
        if names_no_game(e.kind) {
            return Ok(());
        }
        let Some(record) = out.games.get_mut(&e.game) else {
            return Err(corrupt(format!("no game {}", e.game)));
        };
        let side = record.game.side_of(&e.player);
        record.ledger.count(e.kind, at, side);
        if e.kind == EntryKind::Message
            && let Some(color) = side
        {
            record.messages[usize::from(color == Color::Black)] = Some(e.detail.clone());
            let spoken = Spoken {
                side: color,
                at,
                text: e.detail.clone(),
            };
            Spoken::add(&mut record.conversation, spoken);
        }
        let Some((color, action)) = action_of(&e, &record.game)? else {
            return Ok(());
        };
        if let Some(check) = &out.clocks {
            check
                .before(&e, &record.game, color, &action, at)
                .map_err(corrupt)?;
        }
        let game = &mut record.game;
        game.check(color, &action, at)
            .map_err(|err| corrupt(err.to_string()))?;
        game.apply_by(color, &action, at);
        if let Some(&langs) = langs.get(&e.seq) {
            game.set_langs(color, langs);
        }
        Ok(())
    })?;
    Ok(prev)
}

/// Checks the chain, replays every game, and checks every signed head; returns the counts
/// for a report.
pub fn verify(conn: &Connection) -> Result<Replayed, JournalError> {
    verify_reporting(conn, &mut |_| {})
}

/// [`verify`] with a progress callback; see [`replay_reporting`].
pub fn verify_reporting(
    conn: &Connection,
    progress: &mut dyn FnMut(u64),
) -> Result<Replayed, JournalError> {
    let mut replayed = Replayed {
        clocks: Some(ClockCheck::default()),
        ..Replayed::default()
    };
    replay_after(
        conn,
        &mut replayed,
        (0, [0; 32]),
        i64::MAX,
        Keys::Observe,
        progress,
    )?;
    replayed.signatures = verify_signatures(conn, &replayed)?;
    Ok(replayed)
}

/// Every signed head against the chain: at an entry that exists, with its hash, by the key
/// the chain names there; and, once the chain names a key, the last entry signed (entries
/// after the last signature were written without the key). A journal older than signing
/// has neither keys nor signatures, and passes.
pub fn verify_signatures(conn: &Connection, replayed: &Replayed) -> Result<u64, JournalError> {
    let last = i64::try_from(replayed.entries).unwrap_or(i64::MAX);
    let mut count = 0;
    let mut latest = 0;
    store::for_each_signature(conn, |head| {
        let at = |why: String| {
            JournalError::Corrupt(format!("signed head at entry {}: {why}", head.seq))
        };
        if head.seq > last {
            return Err(at(format!(
                "the journal ends at entry {last}: entries {} to {} were cut off",
                last + 1,
                head.seq
            )));
        }
        if store::entry_hash(conn, head.seq)? != Some(head.hash) {
            return Err(at(format!(
                "entry {} is not the entry that was signed (it or one before it was changed)",
                head.seq
            )));
        }
        match replayed.keys.at(head.seq) {
            Some(key) if key == head.key => {}
            Some(key) => {
                return Err(at(format!(
                    "signed by key {}, but the chain names key {key} there",
                    head.key
                )));
            }
            None => return Err(at("signed before the chain names any key".to_owned())),
        }
        if !head.is_signed() {
            return Err(at("the signature is not the key's".to_owned()));
        }
        latest = head.seq;
        count += 1;
        Ok(())
    })?;
    if replayed.keys.current().is_some() && latest < last {
        return Err(JournalError::Corrupt(format!(
            "entries {} to {last} are covered by no signed head: written without the relay's key",
            latest + 1
        )));
    }
    Ok(count)
}

/// Entries between two progress calls.
const PROGRESS_EVERY: u64 = 4096;
