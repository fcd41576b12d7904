//! Dead letters: mail the SMTP server refused for good (a 5xx answer: no such mailbox, a
//! domain it will not relay to). Such a mail is never retried by itself, so it must not hold
//! back the player's later mail either: it is parked here, durably, and the queue goes on.
//! The administrator sees the parked mail (`DEAD`), sends one again once the address is fixed
//! (`DEAD RETRY id`), or drops it (`DEAD DROP id`).
//!
//! One file per letter under `DATA_DIR/dead-letters/`: `parked/ID` or, once the admin request
//! for a retry, `retry/ID`; each written to `tmp/`, synced, and renamed in (the reply spool's
//! way), so a letter survives a crash or restart whole or not at all. A file is a few
//! `name: value` lines, an empty line, then the mail's bytes as they were to be sent.
//! Parking the same letter again (a crash between parking and acknowledging the outbox)
//! replaces it: ids come from what was sent (`o<outbox id>`, `r<reply id hash>`).
//!
//! A mail that held a secret (a new player's welcome) is parked without its bytes: the letter
//! keeps that the welcome failed, to whom and why, never the secret. It cannot be sent again
//! (`DEAD RETRY` says so); `PLAYER SECRET` draws a new secret for the arbiter to pass on.

use std::path::{Path, PathBuf};

use super::reply::{Reply, Status};
use super::request::Sender;
use crate::command::DeadAction;
use crate::durable::{create_dir_all, sync_dir};

/// Letters listed by `DEAD` at most (the oldest first); the count says how many there are.
pub const LISTED: usize = 50;

/// The largest dead letter read back: what the relay itself made, so far smaller.
const MAX_FILE: u64 = 16 << 20;

#[derive(Debug, thiserror::Error)]
pub enum DeadError {
    #[error("dead letters: {0}")]
    Io(#[from] std::io::Error),
    #[error("no dead letter {0:?}")]
    NotFound(String),
    #[error(
        "dead letter {0} holds no mail to send again: it held a secret, which was not kept (PLAYER SECRET gives the player a new one; DEAD DROP {0} then)"
    )]
    NothingToSend(String),
}

/// Where a letter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shelf {
    /// Refused for good; waits for the admin.
    Parked,
    /// The admin request for it to be sent again.
    Retry,
}

impl Shelf {
    fn dir(self) -> &'static str {
        match self {
            Shelf::Parked => "parked",
            Shelf::Retry => "retry",
        }
    }
}

/// One letter: who it was for, what it said, why it was refused, and the mail itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadLetter {
    /// `o<outbox id>` for a message about a game, `r<hex>` for an answer to a mail.
    pub id: String,
    pub shelf: Shelf,
    /// The player it was for.
    pub player: String,
    /// The address the server refused.
    pub to: String,
    /// The game it is about; empty if none.
    pub game: String,
    /// One line saying what the mail was (its subject).
    pub what: String,
    /// The server's answer.
    pub error: String,
    /// When it was parked (RFC 3339).
    pub parked_at: String,
    /// The mail, as it was to be sent; empty for a mail that held a secret.
    pub bytes: Vec<u8>,
}

/// Whether `id` can name a letter (and a file): letters, digits, `-`, `_`.
pub fn valid_letter_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ").chars().take(300).collect()
}

impl DeadLetter {
    fn encode(&self) -> Vec<u8> {
        let mut out = format!(
            "player: {}\nto: {}\ngame: {}\nwhat: {}\nerror: {}\nparked_at: {}\n\n",
            one_line(&self.player),
            one_line(&self.to),
            one_line(&self.game),
            one_line(&self.what),
            one_line(&self.error),
            one_line(&self.parked_at),
        )
        .into_bytes();
        out.extend_from_slice(&self.bytes);
        out
    }

    fn decode(id: &str, shelf: Shelf, content: &[u8]) -> Option<DeadLetter> {
        let split = content.windows(2).position(|w| w == b"\n\n")?;
        let head = std::str::from_utf8(&content[..split]).ok()?;
        let mut letter = DeadLetter {
            id: id.to_owned(),
            shelf,
            player: String::new(),
            to: String::new(),
            game: String::new(),
            what: String::new(),
            error: String::new(),
            parked_at: String::new(),
            bytes: content[split + 2..].to_vec(),
        };
        for line in head.lines() {
            let (name, value) = line.split_once(": ").unwrap_or((line, ""));
            let value = value.to_owned();
            match name {
                "player" => letter.player = value,
                "to" => letter.to = value,
                "game" => letter.game = value,
                "what" => letter.what = value,
                "error" => letter.error = value,
                "parked_at" => letter.parked_at = value,
                _ => {}
            }
        }
        Some(letter)
    }

    /// The letter on one line, as `DEAD` lists it.
    pub fn line(&self) -> String {
        let state = match self.shelf {
            Shelf::Parked => "parked",
            Shelf::Retry => "retrying",
        };
        let game = if self.game.is_empty() {
            "-"
        } else {
            &self.game
        };
        format!(
            "{} {state} {} player={} to={} game={game} refused: {} | {}",
            self.id, self.parked_at, self.player, self.to, self.error, self.what
        )
    }
}

/// The store; cheap to clone.
#[derive(Clone, Debug)]
pub struct DeadLetters {
    dir: PathBuf,
}

impl DeadLetters {
    /// The store under `data_dir`; its folders are made when first written.
    pub fn new(data_dir: &Path) -> DeadLetters {
        DeadLetters {
            dir: data_dir.join("dead-letters"),
        }
    }

    fn path(&self, shelf: Shelf, id: &str) -> PathBuf {
        self.dir.join(shelf.dir()).join(id)
    }

    /// Parks a letter durably (replacing one with the same id, wherever it is).
    pub fn park(&self, letter: &DeadLetter) -> Result<(), DeadError> {
        if !valid_letter_id(&letter.id) {
            return Err(DeadError::NotFound(letter.id.clone()));
        }
        let (tmp, parked) = (self.dir.join("tmp"), self.dir.join("parked"));
        // Made durable too: a letter synced into a folder a power cut takes away is lost.
        create_dir_all(&tmp)?;
        create_dir_all(&parked)?;
        let staged = tmp.join(&letter.id);
        std::fs::write(&staged, letter.encode())?;
        std::fs::File::open(&staged)?.sync_all()?;
        crate::durable::rename(&staged, &parked.join(&letter.id))?;
        let retry = self.path(Shelf::Retry, &letter.id);
        if retry.exists() {
            std::fs::remove_file(&retry)?;
            sync_dir(&self.dir.join("retry"))?;
        }
        Ok(())
    }

    /// The letters on `shelf`, oldest first (by id order within a second), at most `limit`,
    /// and how many there are in all.
    pub fn list(&self, shelf: Shelf, limit: usize) -> Result<(Vec<DeadLetter>, usize), DeadError> {
        let dir = self.dir.join(shelf.dir());
        let mut names: Vec<(std::time::SystemTime, String)> = match std::fs::read_dir(&dir) {
            Ok(entries) => entries
                .filter_map(Result::ok)
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let modified = e.metadata().and_then(|m| m.modified()).ok()?;
                    valid_letter_id(&name).then_some((modified, name))
                })
                .collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(e.into()),
        };
        names.sort();
        let total = names.len();
        let mut out = Vec::new();
        for (_, name) in names.into_iter().take(limit) {
            if let Some(letter) = self.read(shelf, &name)? {
                out.push(letter);
            }
        }
        Ok((out, total))
    }

    /// The letters about `game`, parked or waiting to be sent again, oldest first: what a
    /// game's report lists under its mail refused for good.
    pub fn about_game(&self, game: &str) -> Result<Vec<DeadLetter>, DeadError> {
        let mut letters = Vec::new();
        for shelf in [Shelf::Parked, Shelf::Retry] {
            let (all, _) = self.list(shelf, usize::MAX)?;
            letters.extend(all.into_iter().filter(|l| l.game == game));
        }
        Ok(letters)
    }

    fn read(&self, shelf: Shelf, id: &str) -> Result<Option<DeadLetter>, DeadError> {
        use std::io::Read;
        let file = match std::fs::File::open(self.path(shelf, id)) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let mut content = Vec::new();
        file.take(MAX_FILE).read_to_end(&mut content)?;
        Ok(DeadLetter::decode(id, shelf, &content))
    }

    /// The admin asks for a parked letter to be sent again.
    pub fn retry(&self, id: &str) -> Result<DeadLetter, DeadError> {
        let letter = self.find(Shelf::Parked, id)?;
        if letter.bytes.is_empty() {
            return Err(DeadError::NothingToSend(letter.id));
        }
        let retry = self.dir.join("retry");
        create_dir_all(&retry)?;
        // Both folders synced: a cut must not leave the letter parked and waiting at once.
        crate::durable::rename(&self.path(Shelf::Parked, id), &retry.join(id))?;
        Ok(letter)
    }

    /// The admin gives a letter up (parked or waiting for a retry).
    pub fn drop_letter(&self, id: &str) -> Result<DeadLetter, DeadError> {
        for shelf in [Shelf::Parked, Shelf::Retry] {
            if valid_letter_id(id)
                && let Some(letter) = self.read(shelf, id)?
            {
                std::fs::remove_file(self.path(shelf, id))?;
                sync_dir(&self.dir.join(shelf.dir()))?;
                return Ok(letter);
            }
        }
        Err(DeadError::NotFound(id.to_owned()))
    }

    /// A letter sent again was accepted: forget it.
    pub fn sent(&self, id: &str) -> Result<(), DeadError> {
        match std::fs::remove_file(self.path(Shelf::Retry, id)) {
            Ok(()) => Ok(sync_dir(&self.dir.join("retry"))?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    fn find(&self, shelf: Shelf, id: &str) -> Result<DeadLetter, DeadError> {
        if !valid_letter_id(id) {
            return Err(DeadError::NotFound(id.to_owned()));
        }
        self.read(shelf, id)?
            .ok_or_else(|| DeadError::NotFound(id.to_owned()))
    }
}

/// The admin's `DEAD` command, answered from the store (off the async threads).
pub(super) async fn answer(store: DeadLetters, sender: &Sender, action: DeadAction) -> Reply {
    if !sender.admin {
        return Reply::new(Status::Forbidden, "only the admin sees the dead letters");
    }
    let done = tokio::task::spawn_blocking(move || match action {
        DeadAction::List => {
            let (parked, total) = store.list(Shelf::Parked, LISTED)?;
            let (retrying, waiting) = store.list(Shelf::Retry, LISTED)?;
            let mut text = format!(
                "{total} dead letter(s) parked, {waiting} waiting to be sent again{}",
                if total > LISTED {
                    format!(" (the oldest {LISTED} shown)")
                } else {
                    String::new()
                }
            );
            for letter in parked.iter().chain(&retrying) {
                text.push('\n');
                text.push_str(&letter.line());
            }
            Ok(text)
        }
        DeadAction::Retry(id) => {
            let letter = store.retry(&id)?;
            tracing::info!(id = %letter.id, to = %letter.to, "dead letter to be sent again");
            Ok(format!("dead letter {} to {} will be sent again", letter.id, letter.to))
        }
        DeadAction::Drop(id) => {
            let letter = store.drop_letter(&id)?;
            tracing::warn!(id = %letter.id, to = %letter.to, what = %letter.what, "dead letter dropped by the admin");
            Ok(format!("dead letter {} to {} dropped", letter.id, letter.to))
        }
    })
    .await;
    match done {
        Ok(Ok(text)) => Reply::new(Status::Done, text),
        Ok(Err(DeadError::NotFound(id))) => {
            Reply::new(Status::NotFound, format!("no dead letter {id:?}"))
        }
        Ok(Err(e @ DeadError::NothingToSend(_))) => Reply::new(Status::Refused, e.to_string()),
        Ok(Err(e)) => Reply::new(Status::NotRecorded, e.to_string()),
        Err(e) => Reply::new(Status::NotRecorded, format!("dead letters: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter(id: &str) -> DeadLetter {
        DeadLetter {
            id: id.to_owned(),
            shelf: Shelf::Parked,
            player: "alice".into(),
            to: "alice@nowhere.test".into(),
            game: "g1".into(),
            what: "[ccrelay] g1: move 1... e5\nby boris".into(),
            error: "permanent error (550): no such user".into(),
            parked_at: "2026-12-01T02:00:00Z".into(),
            bytes: b"Subject: x\r\n\r\nbody\r\n\r\nmore\r\n".to_vec(),
        }
    }

    #[test]
    fn park_list_retry_sent_and_drop_survive_a_new_handle() {
        let dir = tempfile::tempdir().unwrap();
        let store = DeadLetters::new(dir.path());
        assert_eq!(store.list(Shelf::Parked, 10).unwrap().1, 0, "none yet");
        store.park(&letter("o7")).unwrap();
        store.park(&letter("r1a2b")).unwrap();
        // A fresh handle (a restarted daemon) reads the same letters, bytes intact.
        let store = DeadLetters::new(dir.path());
        let (parked, total) = store.list(Shelf::Parked, 10).unwrap();
        assert_eq!(total, 2);
        let o7 = parked.iter().find(|l| l.id == "o7").unwrap();
        assert_eq!(o7.bytes, letter("o7").bytes);
        assert_eq!(o7.what, "[ccrelay] g1: move 1... e5 by boris", "one line");
        assert!(
            o7.line()
                .starts_with("o7 parked 2026-12-01T02:00:00Z player=alice")
        );

        let retried = store.retry("o7").unwrap();
        assert_eq!(retried.id, "o7");
        assert!(matches!(store.retry("o7"), Err(DeadError::NotFound(_))));
        let (waiting, _) = store.list(Shelf::Retry, 10).unwrap();
        assert_eq!(waiting.len(), 1);
        assert_eq!(waiting[0].shelf, Shelf::Retry);
        // Refused again: parked again, no longer waiting.
        store.park(&letter("o7")).unwrap();
        assert_eq!(store.list(Shelf::Retry, 10).unwrap().1, 0);
        store.retry("o7").unwrap();
        store.sent("o7").unwrap();
        assert_eq!(store.list(Shelf::Retry, 10).unwrap().1, 0);

        store.drop_letter("r1a2b").unwrap();
        assert!(matches!(
            store.drop_letter("r1a2b"),
            Err(DeadError::NotFound(_))
        ));
        assert!(matches!(
            store.drop_letter("../etc"),
            Err(DeadError::NotFound(_))
        ));
        assert_eq!(store.list(Shelf::Parked, 10).unwrap().1, 0);
    }
}
