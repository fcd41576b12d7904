//! What a transport needs of the durable outbox and the record, and nothing more: subscribe a
//! live session to a player's items, read what is waiting, render it for its reader,
//! acknowledge what was received, ask whether a message was handled before; and, for a link,
//! the few facts of the record it numbers its frames by. Transports use this instead of the
//! journal: no transport opens it (only the link's simulation, a test bench, does); the link's read-only view of the journal lives
//! here, not in the link.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use jiff::Timestamp;
use tokio::sync::mpsc;

use crate::config::Config;
use crate::game::replay;
use crate::journal::export::{EventInfo, Names, PlayerInfo};
use crate::journal::peer::PeerView;
use crate::journal::{
    EntryKind, Hub, Journal, JournalError, NewEntry, OutboxItem, Record, Short, Told,
};

use super::render::{self, Audience};
use super::reply::Channel;
use super::roster::Roster;
use super::undelivered::{DeadError, DeadLetter, DeadLetters, Shelf};
use crate::journal::entry::Meaning;
use crate::journal::notice::{MoveNotice, Notice, Side};

/// The record could not be read or written.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct MailboxError(#[from] JournalError);

/// An item for a player: its outbox id (what the player acknowledges), game, and what
/// happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub id: i64,
    pub player: String,
    pub game: String,
    pub notice: Notice,
    /// The short receipt of the journal entry it reports.
    pub receipt: Short,
}

impl Message {
    /// An item with its notice: the one it carries, or (for a row that refers to its entry)
    /// `made` from the record, or, if the entry no longer makes one, its entry's number.
    fn of(item: OutboxItem, made: Option<&MoveNotice>) -> Message {
        let notice = match item.told {
            Told::Notice(notice) => notice,
            Told::MoveOfEntry => match made {
                Some(notice) => Notice::Move(Box::new(notice.clone())),
                None => Notice::Legacy {
                    text: format!("MOVE {}: record entry {}", item.game, item.receipt.seq),
                },
            },
        };
        Message {
            notice,
            receipt: item.receipt,
            id: item.id,
            player: item.player,
            game: item.game,
        }
    }
}

#[derive(Clone)]
pub struct Mailbox {
    journal: Journal,
    hub: Arc<Hub>,
    /// The players, for how each reads.
    roster: Roster,
    data_dir: PathBuf,
    /// The names the exports for the web pages use: without the players' addresses.
    pub(super) names: Arc<Names>,
    /// The link's read-only view of the journal, opened when first needed.
    view: Arc<Mutex<Option<PeerView>>>,
    /// Mail refused for good, parked for the admin.
    dead: DeadLetters,
}

/// A live session's feed of newly committed items.
pub struct Subscription {
    pub id: u64,
    feed: mpsc::Receiver<OutboxItem>,
}

impl Subscription {
    /// The next item; `None` once the feed is closed (the session fell behind, or stops).
    pub async fn recv(&mut self) -> Option<Message> {
        std::future::poll_fn(|cx| self.poll_recv(cx)).await
    }

    /// [`Self::recv`] for a hand-written poll: ready with the next item, else `cx` is woken
    /// when one comes.
    pub fn poll_recv(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Message>> {
        // A live item carries its notice as it was made.
        self.feed
            .poll_recv(cx)
            .map(|item| item.map(|item| Message::of(item, None)))
    }

    /// Takes the items waiting, without waiting for any: how many there were, or `None` once
    /// the feed is closed. For a reader that only needs to know that something came.
    pub fn take_waiting(&mut self) -> Option<usize> {
        let mut n = 0;
        loop {
            match self.feed.try_recv() {
                Ok(_) => n += 1,
                Err(tokio::sync::mpsc::error::TryRecvError::Empty) => return Some(n),
                Err(tokio::sync::mpsc::error::TryRecvError::Disconnected) => return None,
            }
        }
    }
}

/// What a message handled before (by its idempotency key) did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Done {
    /// A move, as written, and its ICCF form.
    Move { text: String, iccf: String },
    /// Refused, and why.
    Refused { reason: String },
    /// Anything else: a draw offer, a resignation..., in words.
    Other { what: String },
}

/// The record of a message handled before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handled {
    /// The journal entry's number.
    pub seq: i64,
    pub game: String,
    pub done: Done,
}

/// An outbox item for a player across a link, with the journal entry it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkItem {
    pub id: i64,
    /// The player across the link it is for.
    pub to: String,
    pub game: String,
    /// Who acted.
    pub actor: String,
    /// The journal entry the row belongs to: its kind, move, detail and time.
    pub kind: EntryKind,
    pub iccf: Option<String>,
    pub detail: String,
    pub time: Timestamp,
    /// The time of the game's record entry before this entry, if any.
    pub before: Option<Timestamp>,
    pub notice: Notice,
}

/// A game's players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePlayers {
    pub id: String,
    pub white: String,
    pub black: String,
}

impl Mailbox {
    /// The transports' door to the record; `roster` is the relay's ([`super::Relay::roster`]).
    pub fn new(journal: Journal, hub: Arc<Hub>, config: &Config, roster: Roster) -> Mailbox {
        Mailbox {
            journal,
            hub,
            roster,
            data_dir: config.data_dir.clone(),
            names: Arc::new(names(config, false)),
            view: Arc::new(Mutex::new(None)),
            dead: DeadLetters::new(&config.data_dir),
        }
    }

    /// How many items wait in the outbox, by the transport their player is reached by
    /// (`tcp`, `email`, `xfcc`, `link`): the outbox depth an operator watches.
    pub async fn outbox_depth(&self) -> Result<Vec<(&'static str, i64)>, MailboxError> {
        let rows = self.read(|v| v.waiting_by_player()).await?;
        let mut depth: std::collections::BTreeMap<&'static str, i64> =
            ["tcp", "email", "xfcc", "link"]
                .into_iter()
                .map(|t| (t, 0))
                .collect();
        for (player, n) in rows {
            // A player's mail when it is their move goes by mail, whoever they are.
            let notices = super::notify::player_of_reader(&player).is_some();
            let transport = match self.roster.with(&player, |p| p.reach.clone()) {
                _ if notices => "email",
                Some(crate::config::Reach::Tcp) => "tcp",
                Some(crate::config::Reach::Email) => "email",
                Some(crate::config::Reach::Xfcc) => "xfcc",
                Some(crate::config::Reach::Radio) => "radio",
                Some(crate::config::Reach::Link(_)) | None => "link",
            };
            *depth.entry(transport).or_default() += n;
        }
        Ok(depth.into_iter().collect())
    }

    /// The number and hash of `game`'s last journal entry (the chain's head for its record).
    pub async fn game_head(&self, game: &str) -> Result<Option<(i64, String)>, MailboxError> {
        let game = game.to_owned();
        self.read(move |v| v.game_head(&game)).await
    }

    /// The official PGN export of `games`, each cut after its first `plies` moves when given
    /// (what a delayed view shows), one after another; the players' addresses are left out
    /// (`WhiteNA`/`BlackNA` are `-`), for a public page.
    pub async fn public_pgn(
        &self,
        games: Vec<(String, Option<usize>)>,
    ) -> Result<String, MailboxError> {
        let names = self.names.clone();
        self.read(move |v| v.pgn_shown(&games, &names)).await
    }

    /// How `player` reads: notation and language (ICCF numeric for the administrator).
    pub fn audience(&self, player: &str) -> Audience {
        self.roster
            .with(player, |p| Audience {
                notation: p.written_notation(),
                lang: p.lang,
            })
            .unwrap_or_default()
    }

    /// Whether the journal still commits: an empty write answered within `within`. The one
    /// test of the daemon's health (the systemd watchdog, `/healthz`): a daemon that cannot
    /// record moves is not well, whatever else it still does.
    pub async fn journal_commits(&self, within: std::time::Duration) -> bool {
        matches!(
            tokio::time::timeout(within, self.journal.flush()).await,
            Ok(Ok(()))
        )
    }

    /// An item as its player reads it, on one line: `MOVE g1 12... Nf6 (7866) by boris`.
    pub fn render(&self, message: &Message) -> String {
        render::notice(&message.notice, &self.audience(&message.player))
    }

    /// A short summary of an item for its player, without the game: `move 12... Nf6 by boris`.
    pub fn summary(&self, message: &Message) -> String {
        super::summary::summary(&message.notice, &self.audience(&message.player))
    }

    /// For a move, the game as it stood right after it, as its player reads it: the position
    /// and clocks from the item, the moves up to it from the record.
    pub async fn as_of(&self, message: &Message) -> Option<String> {
        let Notice::Move(m) = &message.notice else {
            return None;
        };
        let (mover, reader) = (m.mover.as_str(), message.player.as_str());
        let players = match m.mv.side {
            Side::White => (mover, reader),
            Side::Black => (reader, mover),
        };
        // A move made again from the record holds the game's moves up to it, from the replay
        // that made it; only a notice pushed live, or stored as data by an older build, has
        // them read and played again here.
        if let Some(history) = m.history.get() {
            return render::as_of(m, &self.audience(reader), players, Some(history));
        }
        let (game, id) = (message.game.clone(), message.id);
        let history = match self.read(move |v| v.moves_until(&game, id)).await {
            Ok((start, moves)) => replay(m.mv.kind, start.as_deref(), &moves),
            Err(e) => {
                tracing::warn!(error = %e, "cannot read a game's moves; the mail shows the position only");
                None
            }
        };
        let history = history
            .as_ref()
            .map(|(start, moves)| (start.as_ref(), moves.as_slice()));
        render::as_of(m, &self.audience(reader), players, history)
    }

    /// Starts feeding `player`'s new items to a session, at most `capacity` queued; a
    /// session that falls further behind finds its feed closed and reads [`Mailbox::waiting`].
    pub fn subscribe(&self, player: &str, capacity: usize) -> Subscription {
        let (id, feed) = self.hub.register(player, capacity);
        Subscription { id, feed }
    }

    pub fn unsubscribe(&self, player: &str, id: u64) {
        self.hub.unregister(player, id);
    }

    /// `player`'s unacknowledged items after id `after`, oldest first, at most `limit`.
    pub async fn waiting(
        &self,
        player: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<Message>, MailboxError> {
        let items = self.journal.pending(player, after, limit).await?;
        let made = self.moves_from_record(&items).await?;
        Ok(items
            .into_iter()
            .map(|item| {
                let seq = item.receipt.seq;
                Message::of(item, made.get(&seq))
            })
            .collect())
    }

    /// The notices of the rows that refer to their entries ([`Told::MoveOfEntry`]), by entry,
    /// made again from the record, replaying each game concerned once. A move whose entry no
    /// longer replays (a record changed by hand) is left out, to be told by its entry number,
    /// so that the reader's queue still moves on; the error is logged. A record that could not
    /// be read is an error: the messages are not handed out, to be read again later.
    async fn moves_from_record(
        &self,
        items: &[OutboxItem],
    ) -> Result<HashMap<i64, MoveNotice>, MailboxError> {
        let mut wanted: BTreeMap<String, Vec<i64>> = BTreeMap::new();
        for item in items {
            if item.told == Told::MoveOfEntry {
                wanted
                    .entry(item.game.clone())
                    .or_default()
                    .push(item.receipt.seq);
            }
        }
        if wanted.is_empty() {
            return Ok(HashMap::new());
        }
        self.read(move |v| {
            let mut out = HashMap::new();
            for (game, mut seqs) in wanted {
                seqs.sort_unstable();
                seqs.dedup();
                let found = match v.game_as_of(&game, &seqs) {
                    Ok(found) => found,
                    // A record that no longer replays will not replay later either; a
                    // failed read might, and is the caller's error (nothing is sent).
                    Err(JournalError::Corrupt(e)) => {
                        tracing::error!(%game, error = %e, "a game's record does not replay; its moves are told by entry number");
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                for as_of in found {
                    if let Some(notice) = MoveNotice::from_record(&as_of) {
                        out.insert(as_of.entry.seq, notice);
                    }
                }
            }
            Ok(out)
        })
        .await
    }

    /// `player` received every item up to `upto`; returns how many were newly acknowledged.
    pub async fn acknowledge(&self, player: &str, upto: i64) -> Result<usize, MailboxError> {
        Ok(self.journal.deliver(player, upto).await?)
    }

    /// What the message a transport's idempotency key was recorded with did, if it was
    /// handled already (see [`Request::key`](crate::relay::Request::key)).
    pub async fn seen(&self, key: &str) -> Result<Option<Handled>, MailboxError> {
        let Some(seen) = self.journal.seen(key).await? else {
            return Ok(None);
        };
        let done = match (seen.iccf, seen.kind) {
            (Some(iccf), _) => Done::Move {
                text: seen.text,
                iccf,
            },
            (None, EntryKind::Rejected) => Done::Refused {
                reason: seen.detail,
            },
            (None, kind) => Done::Other {
                what: kind.as_str().replace('_', " "),
            },
        };
        Ok(Some(Handled {
            seq: seen.seq,
            game: seen.game,
            done,
        }))
    }

    /// Journals a message a transport refused before it reached the relay (a mail failing
    /// authentication): a `rejected` entry that changes no game, with `key` so it is refused
    /// once. Returns once committed.
    pub async fn reject(
        &self,
        rejected: Rejected<'_>,
        key: Option<String>,
    ) -> Result<(), MailboxError> {
        let refused = Meaning::Rejected {
            reason: rejected.reason.to_owned(),
        };
        let mut entry = NewEntry::new(
            rejected.game,
            rejected.player,
            rejected.channel.as_str(),
            refused.kind(),
            rejected.text,
        );
        entry.set_meaning(&refused)?;
        entry.key = key;
        self.journal
            .append(vec![Record {
                entry,
                outbox: vec![],
            }])
            .await?;
        Ok(())
    }

    /// Parks a mail the SMTP server refused for good (durably, before the caller acknowledges
    /// it and goes on with the player's later mail).
    pub async fn park(&self, letter: DeadLetter) -> Result<(), DeadError> {
        let dead = self.dead.clone();
        tokio::task::spawn_blocking(move || dead.park(&letter))
            .await
            .map_err(|e| DeadError::Io(std::io::Error::other(e)))?
    }

    /// Dead letters the admin request to send again, oldest first, at most `limit`.
    pub async fn dead_to_retry(&self, limit: usize) -> Result<Vec<DeadLetter>, DeadError> {
        let dead = self.dead.clone();
        tokio::task::spawn_blocking(move || dead.list(Shelf::Retry, limit).map(|(l, _)| l))
            .await
            .map_err(|e| DeadError::Io(std::io::Error::other(e)))?
    }

    /// A dead letter sent again was accepted.
    pub async fn dead_sent(&self, id: &str) -> Result<(), DeadError> {
        let (dead, id) = (self.dead.clone(), id.to_owned());
        tokio::task::spawn_blocking(move || dead.sent(&id))
            .await
            .map_err(|e| DeadError::Io(std::io::Error::other(e)))?
    }

    /// Runs a read on the link's view of the journal, off the async threads.
    pub(super) async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&PeerView) -> Result<T, JournalError> + Send + 'static,
    ) -> Result<T, MailboxError> {
        let (view, dir) = (self.view.clone(), self.data_dir.clone());
        let out = tokio::task::spawn_blocking(move || {
            let mut view = view.lock().unwrap_or_else(|p| p.into_inner());
            if view.is_none() {
                *view = Some(PeerView::open(&dir)?);
            }
            match view.as_ref() {
                Some(view) => f(view),
                None => Err(JournalError::Stopped),
            }
        })
        .await
        .map_err(|e| JournalError::Io(e.to_string()))??;
        Ok(out)
    }

    /// Items not yet acknowledged for `players` (across a link), after id `after`, oldest
    /// first, at most `limit`, each with the number of the action it reports.
    pub async fn link_waiting(
        &self,
        players: Vec<String>,
        after: i64,
        limit: usize,
    ) -> Result<Vec<LinkItem>, MailboxError> {
        let rows = self
            .read(move |v| v.waiting(&players, after, limit))
            .await?;
        Ok(rows
            .into_iter()
            .map(|row| LinkItem {
                id: row.id,
                to: row.to,
                game: row.game,
                actor: row.player,
                kind: row.kind,
                iccf: row.iccf,
                detail: row.detail,
                time: row.time.parse().unwrap_or(Timestamp::UNIX_EPOCH),
                before: row.before.and_then(|t| t.parse().ok()),
                notice: Notice::from_body(&row.body),
            })
            .collect())
    }

    /// Every game the journal has started, with its players.
    pub async fn games(&self) -> Result<Vec<GamePlayers>, MailboxError> {
        let games = self.read(|v| v.games()).await?;
        Ok(games
            .into_iter()
            .map(|g| GamePlayers {
                id: g.id,
                white: g.white,
                black: g.black,
            })
            .collect())
    }
}

/// The names of events and players from the configuration, for the records: with the players'
/// mail addresses (the official exports' `WhiteNA`/`BlackNA`) or without them (everything a
/// player or spectator is shown); and the rules the ratings in a PGN export are counted by.
pub fn names(config: &Config, addresses: bool) -> Names {
    Names {
        events: config
            .events
            .values()
            .map(|e| {
                let info = EventInfo {
                    name: e.name.clone(),
                    site: e.site.clone(),
                };
                (e.id.clone(), info)
            })
            .collect(),
        players: config
            .players
            .values()
            .map(|p| {
                let name = if p.name.is_empty() {
                    p.id.clone()
                } else {
                    p.name.clone()
                };
                let address = addresses
                    .then(|| p.email.as_ref().map(|e| e.address.clone()))
                    .flatten();
                (p.id.clone(), PlayerInfo { name, address })
            })
            .collect(),
        rating_rules: config.ratings,
        rated_events: config
            .events
            .values()
            .map(|e| (e.id.clone(), e.rated))
            .collect(),
    }
}

/// A refused message, as journaled: under which game and player (as claimed), and why.
pub struct Rejected<'a> {
    pub game: &'a str,
    pub player: &'a str,
    pub channel: Channel,
    pub text: &'a str,
    pub reason: &'a str,
}
