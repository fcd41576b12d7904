//! Start snapshots: every game, the registry and the relay's time as replayed up to one entry,
//! kept in `snapshot.json` beside the journal, so that a start replays only the entries after
//! it (docs/journal.md, "Snapshots").
//!
//! A snapshot is outside the record and made from it: the same replay a start makes, written
//! down. It is signed with the relay's key over the entry it was taken after, that entry's
//! chain hash and the SHA-256 of its body. A start uses it only when the signature is the key's
//! the chain names at that entry and the journal's entry there still has that hash; otherwise
//! it says why in the log and replays from the first entry, as without one. Deleting the file
//! is always safe.
//!
//! The writer takes one in the background every [`EVERY`] entries and one when the daemon
//! stops; `ccrelay journal verify` replays from the first entry and checks that the snapshot
//! agrees with the record.

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use shakmaty::Color;

use super::chain::{self, Links};
use super::clocks::ClockCheck;
use super::registry::Registry;
use super::replay::{self, JournaledGame, Keys, Ledger, Replayed, Spoken};
use super::signing::{Key, KeyHistory, hex32, hex64, snapshot_message};
use super::{JournalError, keyring, store};
use crate::game::{Game, SavedGame};

/// The snapshot's file in the data directory.
pub const FILE_NAME: &str = "snapshot.json";

/// Entries after the last snapshot that make the writer take a new one (in the background):
/// a start after a crash replays at most about this many.
pub const EVERY: i64 = 100_000;

/// The file's layout; a snapshot of another layout is not read (the start replays instead).
const FORMAT: u32 = 1;

/// The snapshot's path under `data_dir`.
pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(FILE_NAME)
}

/// The file's first line: what the body covers and who signed it.
#[derive(Serialize, Deserialize)]
struct Header {
    format: u32,
    /// The last entry the snapshot holds.
    seq: i64,
    /// That entry's chain hash, hex.
    hash: String,
    /// SHA-256 of the body (the rest of the file), hex.
    digest: String,
    /// The Ed25519 signature over [`snapshot_message`], hex.
    signature: String,
}

/// The body: what a replay up to `Header::seq` holds.
#[derive(Serialize, Deserialize)]
struct Body {
    entries: u64,
    last_time: Option<Timestamp>,
    registry: Registry,
    games: Vec<SavedRecord>,
}

#[derive(Serialize, Deserialize)]
struct SavedRecord {
    game: SavedGame,
    event: Option<String>,
    round: Option<String>,
    messages: [Option<String>; 2],
    conversation: Vec<SavedSpoken>,
    started: String,
    ledger: Ledger,
}

#[derive(Serialize, Deserialize)]
struct SavedSpoken {
    white: bool,
    at: Timestamp,
    text: String,
}

/// A snapshot read back: the journal replayed up to entry `seq`, whose chain hash is `hash`.
#[derive(Debug)]
pub struct Snapshot {
    pub seq: i64,
    pub hash: [u8; 32],
    pub replayed: Replayed,
}

fn body_of(replayed: &Replayed) -> Body {
    Body {
        entries: replayed.entries,
        last_time: replayed.last_time,
        registry: replayed.registry.clone(),
        games: replayed
            .games
            .values()
            .map(|g| SavedRecord {
                game: g.game.to_saved(),
                event: g.event.clone(),
                round: g.round.clone(),
                messages: g.messages.clone(),
                conversation: g
                    .conversation
                    .iter()
                    .map(|s| SavedSpoken {
                        white: s.side == Color::White,
                        at: s.at,
                        text: s.text.clone(),
                    })
                    .collect(),
                started: g.started.clone(),
                ledger: g.ledger,
            })
            .collect(),
    }
}

fn replayed_of(body: Body, keys: KeyHistory) -> Result<Replayed, String> {
    let mut games = std::collections::BTreeMap::new();
    for r in body.games {
        let game = Game::from_signed_saved(r.game)?;
        let conversation = r
            .conversation
            .into_iter()
            .map(|s| Spoken {
                side: if s.white { Color::White } else { Color::Black },
                at: s.at,
                text: s.text,
            })
            .collect();
        let id = game.id.clone();
        let record = JournaledGame {
            game,
            event: r.event,
            round: r.round,
            messages: r.messages,
            conversation,
            started: r.started,
            ledger: r.ledger,
        };
        if games.insert(id.clone(), record).is_some() {
            return Err(format!("game {id} twice"));
        }
    }
    Ok(Replayed {
        games,
        entries: body.entries,
        last_time: body.last_time,
        keys,
        signatures: 0,
        registry: body.registry,
        credentials: replay::Credentials::default(),
        snapshot_at: 0,
        clocks: None,
    })
}

/// The snapshot's file for `replayed`, which holds the journal up to entry `seq` (chain hash
/// `hash`), signed with `key`.
pub fn encode(replayed: &Replayed, seq: i64, hash: &[u8; 32], key: &Key) -> Vec<u8> {
    // Serialising plain values into memory does not fail.
    let body = serde_json::to_vec(&body_of(replayed)).unwrap_or_default();
    let digest: [u8; 32] = Sha256::digest(&body).into();
    let header = Header {
        format: FORMAT,
        seq,
        hash: hex::encode(hash),
        digest: hex::encode(digest),
        signature: hex::encode(key.sign(&snapshot_message(seq, hash, &digest))),
    };
    let mut file = serde_json::to_vec(&header).unwrap_or_default();
    file.push(b'\n');
    file.extend_from_slice(&body);
    file
}

/// A snapshot's file read back whole, its signature not yet checked (the keys the chain names
/// are learnt while it is read: see [`replay_for_start`]).
pub struct Unchecked {
    seq: i64,
    hash: [u8; 32],
    digest: [u8; 32],
    signature: [u8; 64],
    replayed: Replayed,
}

/// Reads a snapshot's file: its header, its body against the digest the header names, and
/// every game in it played out.
pub fn parse(file: &[u8]) -> Result<Unchecked, String> {
    let split = file
        .iter()
        .position(|&b| b == b'\n')
        .ok_or("no header line")?;
    let (head, body) = (&file[..split], &file[split + 1..]);
    let header: Header = serde_json::from_slice(head).map_err(|e| format!("header: {e}"))?;
    if header.format != FORMAT {
        return Err(format!(
            "layout {} (this build reads {FORMAT})",
            header.format
        ));
    }
    let hash = hex32(&header.hash).ok_or("header: hash")?;
    let digest = hex32(&header.digest).ok_or("header: digest")?;
    let signature = hex64(&header.signature).ok_or("header: signature")?;
    if <[u8; 32]>::from(Sha256::digest(body)) != digest {
        return Err("its body is not the one signed".to_owned());
    }
    let body: Body = serde_json::from_slice(body).map_err(|e| format!("body: {e}"))?;
    if i64::try_from(body.entries) != Ok(header.seq) {
        return Err(format!(
            "holds {} entries, taken after entry {}",
            body.entries, header.seq
        ));
    }
    Ok(Unchecked {
        seq: header.seq,
        hash,
        digest,
        signature,
        replayed: replayed_of(body, KeyHistory::default())?,
    })
}

impl Unchecked {
    /// The snapshot, if signed by the key `keys` names at its entry.
    pub fn check(self, keys: &KeyHistory) -> Result<Snapshot, String> {
        let key = keys
            .at(self.seq)
            .ok_or_else(|| format!("the chain names no key at entry {}", self.seq))?;
        let message = snapshot_message(self.seq, &self.hash, &self.digest);
        if !key.verifies(&message, &self.signature) {
            return Err(format!("not signed by the chain's key {key}"));
        }
        let mut replayed = self.replayed;
        replayed.keys = keys.clone();
        Ok(Snapshot {
            seq: self.seq,
            hash: self.hash,
            replayed,
        })
    }
}

/// Reads a snapshot's file, checking its signature against the key `keys` names at its entry.
pub fn decode(file: &[u8], keys: &KeyHistory) -> Result<Snapshot, String> {
    parse(file)?.check(keys)
}

/// The snapshot's file under `data_dir` read ([`parse`]); `Ok(None)` when there is none.
fn load(data_dir: &Path) -> Result<Option<Unchecked>, String> {
    parsed(std::fs::read(path(data_dir)))
}

/// A snapshot's file, as reading it went, parsed; `Ok(None)` when there is none.
fn parsed(file: std::io::Result<Vec<u8>>) -> Result<Option<Unchecked>, String> {
    match file {
        Ok(file) => parse(&file).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

/// A snapshot a start can build on: signed by the chain's key, and taken after an entry the
/// journal still holds with the same hash.
fn anchor(read: Unchecked, conn: &Connection, keys: &KeyHistory) -> Result<Snapshot, String> {
    let snapshot = read.check(keys)?;
    match store::entry_hash(conn, snapshot.seq).map_err(|e| e.to_string())? {
        Some(hash) if hash == snapshot.hash => Ok(snapshot),
        Some(_) => Err(format!(
            "the journal's entry {} is not the one it was taken after",
            snapshot.seq
        )),
        None => Err(format!(
            "taken after entry {}, which the journal does not hold",
            snapshot.seq
        )),
    }
}

/// Every entry after `from` (an entry and its hash) played onto `replayed`, whose keys are
/// already known; returns the last entry's hash.
fn play_rest(
    conn: &Connection,
    replayed: &mut Replayed,
    from: (i64, [u8; 32]),
) -> Result<[u8; 32], JournalError> {
    replay::replay_after(conn, replayed, from, i64::MAX, Keys::Known, &mut |_| {})
}

/// Where a replay starts: the snapshot read, if a start can build on it ([`anchor`]), with
/// `keys` (the chain's) as its keys, its entry and that entry's hash; or nothing, entry 0, when
/// there is no snapshot or it cannot be used (`instead` is logged with why).
fn built_on(
    read: Result<Option<Unchecked>, String>,
    conn: &Connection,
    keys: KeyHistory,
    instead: &str,
) -> (Replayed, i64, [u8; 32]) {
    let usable = read.and_then(|read| read.map(|r| anchor(r, conn, &keys)).transpose());
    let (mut replayed, after, prev) = match usable {
        Ok(Some(s)) => (s.replayed, s.seq, s.hash),
        Ok(None) => (Replayed::default(), 0, [0; 32]),
        Err(why) => {
            tracing::warn!(%why, "{instead}");
            (Replayed::default(), 0, [0; 32])
        }
    };
    replayed.keys = keys;
    (replayed, after, prev)
}

/// Brings the snapshot under `data_dir` up to the journal's last entry: reads it (or starts
/// from nothing), replays the entries after it, and writes it anew (through a temporary file,
/// synced, renamed). Returns the entry it now ends at.
pub fn catch_up(conn: &Connection, data_dir: &Path, key: &Key) -> Result<i64, JournalError> {
    let (tail, _) = store::tail(conn)?;
    let file = std::fs::read(path(data_dir));
    if let Ok(file) = &file
        && header_seq(file) == Some(tail)
    {
        return Ok(tail);
    }
    let keys = keyring::history(conn)?;
    let (mut replayed, after, prev) = built_on(
        parsed(file),
        conn,
        keys,
        "the journal's snapshot is not used; a new one is made from the first entry",
    );
    // One read transaction: the entries replayed and the end taken are the same journal
    // while the writer goes on committing.
    let tx = conn.unchecked_transaction()?;
    let hash = play_rest(&tx, &mut replayed, (after, prev))?;
    drop(tx);
    let seq = i64::try_from(replayed.entries).unwrap_or(i64::MAX);
    if seq == after {
        return Ok(seq);
    }
    let file = encode(&replayed, seq, &hash, key);
    crate::durable::replace(&path(data_dir), &file)
        .map_err(|e| JournalError::Io(format!("{}: {e}", path(data_dir).display())))?;
    tracing::info!(entry = seq, bytes = file.len(), "journal snapshot written");
    Ok(seq)
}

/// Every link of the chain checked, and the signing keys it names.
fn check_learning_keys(
    conn: &Connection,
    data_dir: &Path,
) -> Result<(Links, KeyHistory), JournalError> {
    let mut keys = KeyHistory::default();
    let links = chain::check_in_two(conn, data_dir, |e, prev| keys.observe(e, prev))?;
    Ok((links, keys))
}

/// What a start replays: every link of the chain checked from the first entry
/// ([`chain::check`], which also learns the signing keys), the snapshot read if a start can
/// build on it, and the entries after it played. Without a usable snapshot, every entry is
/// played, as `journal verify` does.
pub fn replay_for_start(conn: &Connection, data_dir: &Path) -> Result<Replayed, JournalError> {
    if !path(data_dir).exists() {
        // Every entry is played, each link checked on the way: no separate check first.
        let mut replayed = replay::replay(conn)?;
        replayed.snapshot_at = 0;
        tracing::info!(snapshot = 0, replayed = replayed.entries, "journal read");
        return Ok(replayed);
    }
    // The chain is checked on threads of their own while the snapshot is read here. What the
    // snapshot builds lives as long as the daemon, and the C library's allocator keeps what a
    // short-lived thread allocated in that thread's arena: read on a thread of its own, an
    // idle daemon of 10,000 games stayed 17 MB larger.
    let dir = data_dir.to_owned();
    let checking = std::thread::Builder::new()
        .name("chain-check".to_owned())
        .spawn(move || -> Result<(Links, KeyHistory), JournalError> {
            let conn = store::open_for_scan(&dir)?;
            check_learning_keys(&conn, &dir)
        });
    let loaded = load(data_dir);
    let (links, keys) = match checking {
        Ok(thread) => thread
            .join()
            .map_err(|_| JournalError::Io("the chain's check stopped".to_owned()))??,
        Err(_) => check_learning_keys(conn, data_dir)?,
    };
    let (mut replayed, after, prev) = built_on(
        loaded,
        conn,
        keys,
        "the journal's snapshot is not used; replaying from the first entry",
    );
    replayed.snapshot_at = after;
    let last = play_rest(conn, &mut replayed, (after, prev))?;
    if last != links.last || replayed.entries != links.entries {
        // The chain was read twice; a writer between the two reads is not possible (the lock
        // is held), so a difference is a fault of this code.
        return Err(JournalError::Corrupt(format!(
            "the chain's check ended at entry {} and the replay at entry {}",
            links.entries, replayed.entries
        )));
    }
    tracing::info!(
        snapshot = after,
        replayed = links
            .entries
            .saturating_sub(u64::try_from(after).unwrap_or(0)),
        "journal read"
    );
    Ok(replayed)
}

/// Where snapshots are written and with which key, shared by the journal's handle (a snapshot
/// when the daemon stops) and its writer (one in the background every [`EVERY`] entries).
/// One is made at a time.
pub struct Snapshots {
    data_dir: PathBuf,
    key: std::sync::Arc<Key>,
    busy: std::sync::Mutex<()>,
}

impl Snapshots {
    pub fn new(data_dir: &Path, key: std::sync::Arc<Key>) -> Snapshots {
        Snapshots {
            data_dir: data_dir.to_owned(),
            key,
            busy: std::sync::Mutex::new(()),
        }
    }

    /// [`catch_up`] on a connection of its own, after any other one being made.
    pub fn catch_up(&self) -> Result<i64, JournalError> {
        let _one = self
            .busy
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let conn = store::open_read_only(&self.data_dir)?;
        catch_up(&conn, &self.data_dir, &self.key)
    }

    /// [`Snapshots::catch_up`] on a thread of its own, unless one is being made; a failure
    /// is logged (the next one, or the start's replay, covers what it missed).
    pub fn catch_up_in_background(self: &std::sync::Arc<Snapshots>) {
        let snapshots = self.clone();
        let spawned = std::thread::Builder::new()
            .name("journal-snapshot".to_owned())
            .spawn(move || {
                let Ok(_one) = snapshots.busy.try_lock() else {
                    return;
                };
                let made = store::open_read_only(&snapshots.data_dir)
                    .and_then(|conn| catch_up(&conn, &snapshots.data_dir, &snapshots.key));
                if let Err(e) = made {
                    tracing::warn!(error = %e, "journal snapshot not written");
                }
            });
        if let Err(e) = spawned {
            tracing::warn!(error = %e, "journal snapshot not started");
        }
    }
}

/// What `journal verify` found of the snapshot beside the journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    None,
    /// Taken after this entry, and the same as replaying the record up to it.
    Agrees(i64),
    /// Not one a start builds on, and why (a start replays from the first entry instead).
    Unused(String),
}

/// [`replay::verify_reporting`], and the snapshot under `data_dir` checked against the
/// replay: a snapshot a start would build on that does not hold what the record holds up to
/// its entry is an error.
pub fn verify_reporting(
    conn: &Connection,
    data_dir: &Path,
    progress: &mut dyn FnMut(u64),
) -> Result<(Replayed, Found), JournalError> {
    let file = match std::fs::read(path(data_dir)) {
        Ok(file) => Some(file),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(JournalError::Io(format!(
                "{}: {e}",
                path(data_dir).display()
            )));
        }
    };
    let at = file.as_deref().and_then(header_seq).unwrap_or(0);
    let mut replayed = Replayed {
        clocks: Some(ClockCheck::default()),
        ..Replayed::default()
    };
    let mut reached = (0, [0; 32]);
    if at > 0 {
        let hash = replay::replay_after(conn, &mut replayed, reached, at, Keys::Observe, progress)?;
        reached = (i64::try_from(replayed.entries).unwrap_or(i64::MAX), hash);
    }
    let found = match &file {
        None => Found::None,
        Some(_) if reached.0 != at => Found::Unused(format!(
            "taken after entry {at}, which the journal does not hold"
        )),
        Some(file) => match decode(file, &replayed.keys) {
            Err(why) => Found::Unused(why),
            Ok(s) if s.hash != reached.1 => Found::Unused(format!(
                "the journal's entry {at} is not the one it was taken after"
            )),
            Ok(_) => {
                let ours = serde_json::to_vec(&body_of(&replayed)).unwrap_or_default();
                if body(file) != ours.as_slice() {
                    return Err(JournalError::Corrupt(format!(
                        "the snapshot taken after entry {at} ({}) does not hold what the record holds there; a start would build on it: remove it",
                        path(data_dir).display()
                    )));
                }
                Found::Agrees(at)
            }
        },
    };
    replay::replay_after(
        conn,
        &mut replayed,
        reached,
        i64::MAX,
        Keys::Observe,
        progress,
    )?;
    replayed.signatures = replay::verify_signatures(conn, &replayed)?;
    Ok((replayed, found))
}

/// The entry a snapshot's file says it was taken after, if its header reads.
fn header_seq(file: &[u8]) -> Option<i64> {
    let split = file.iter().position(|&b| b == b'\n')?;
    let header: Header = serde_json::from_slice(&file[..split]).ok()?;
    (header.seq > 0).then_some(header.seq)
}

/// A snapshot file's body (after its header line).
fn body(file: &[u8]) -> &[u8] {
    match file.iter().position(|&b| b == b'\n') {
        Some(split) => &file[split + 1..],
        None => &[],
    }
}
