//! Players' web sessions, kept in a small SQLite file of their own (`web-sessions.sqlite` in
//! the data directory) so that they survive a restart of the daemon. They are not part of the
//! official record: nothing here is journaled, and losing the file only logs players out.
//!
//! A session is named by a random 256-bit token in an `HttpOnly`, `SameSite=Strict` cookie
//! (`Secure` under TLS). The file holds only the token's SHA-256, so a copy of it opens no
//! session. Each session has its own random form token (every form a player sends carries
//! it, against cross-site requests) and the digest of the player's secret hash when it was
//! opened: a new secret (`SECRET`, `PLAYER SECRET`) ends every session opened with the old.
//! Such a session is never found again (its digest no longer matches), and its row is
//! deleted as the roster announces the new secret ([`PlayerSessions::end_old_secrets`]) and
//! at every start, so the end holds across restarts. A logout deletes its row and ends the
//! live streams the session opened ([`PlayerSessions::follow`]).
//! Sessions last [`LIFETIME`]; a player has at most [`PER_PLAYER`] (the oldest goes first),
//! the file at most [`MAX_SESSIONS`]. The file is kept with `secure_delete`: a deleted
//! session's form token is overwritten, not left in the file's free pages.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;

/// How long a session lasts from the login.
pub const LIFETIME: jiff::SignedDuration = jiff::SignedDuration::from_hours(30 * 24);
/// Sessions of one player at once, at most.
pub const PER_PLAYER: usize = 8;
/// Sessions in the file, at most.
pub const MAX_SESSIONS: usize = 10_000;
/// The file's name in the data directory.
pub const FILE: &str = "web-sessions.sqlite";

/// A live session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebSession {
    pub player: String,
    /// The token every form of this session carries.
    pub form_token: String,
    /// The token's digest: the session's name in the file and in memory.
    pub id: String,
    /// The digest of the secret hash it was opened with ([`secret_digest`]).
    pub secret: String,
}

/// What is wrong with the session store.
#[derive(Debug, thiserror::Error)]
#[error("web sessions ({path}): {source}")]
pub struct SessionsError {
    path: String,
    source: rusqlite::Error,
}

/// The players' sessions.
pub struct PlayerSessions {
    db: Mutex<Connection>,
    /// The sessions that have live streams open, each with the token that ends them.
    followed: Arc<Mutex<HashMap<String, Followed>>>,
}

/// A session's live streams: the token ending them, how many are open, and whose session
/// it is (its player and secret digest).
struct Followed {
    ended: CancellationToken,
    streams: usize,
    player: String,
    secret: String,
}

/// A live stream's hold on its session: [`Following::ended`] is cancelled when the session
/// ends (logout, a new secret). Dropped with the stream; the last one lets the session go.
pub struct Following {
    session: String,
    ended: CancellationToken,
    followed: Arc<Mutex<HashMap<String, Followed>>>,
}

impl Following {
    /// Cancelled when the session ends.
    pub fn ended(&self) -> CancellationToken {
        self.ended.clone()
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        let mut followed = self.followed.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(f) = followed.get_mut(&self.session) {
            f.streams = f.streams.saturating_sub(1);
            if f.streams == 0 {
                followed.remove(&self.session);
            }
        }
    }
}

fn digest(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The digest a session keeps of the player's secret hash.
pub fn secret_digest(secret_hash: &str) -> String {
    digest(secret_hash.as_bytes())
}

/// 256 random bits, in hex.
pub fn random_token() -> Option<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).ok()?;
    Some(hex::encode(bytes))
}

fn now() -> i64 {
    jiff::Timestamp::now().as_second()
}

impl PlayerSessions {
    /// Opens (or makes) the store in `data_dir`.
    pub fn open(data_dir: &Path) -> Result<PlayerSessions, SessionsError> {
        let path = data_dir.join(FILE);
        let fail = |source| SessionsError {
            path: path.display().to_string(),
            source,
        };
        let db = Connection::open(&path).map_err(fail)?;
        db.execute_batch(
            "PRAGMA secure_delete=ON;
             PRAGMA journal_mode=WAL;
             PRAGMA synchronous=NORMAL;
             PRAGMA busy_timeout=2000;
             CREATE TABLE IF NOT EXISTS sessions (
                 id TEXT PRIMARY KEY,
                 player TEXT NOT NULL,
                 form_token TEXT NOT NULL,
                 secret TEXT NOT NULL,
                 opened INTEGER NOT NULL,
                 expires INTEGER NOT NULL
             );
             CREATE INDEX IF NOT EXISTS sessions_player ON sessions(player, opened);",
        )
        .map_err(fail)?;
        Ok(PlayerSessions {
            db: Mutex::new(db),
            followed: Default::default(),
        })
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.db.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Opens a session for `player` whose secret hash is `secret_hash`: the cookie's token,
    /// or `None` if the store fails (the login is then refused, and the log says why).
    pub fn open_session(&self, player: &str, secret_hash: &str) -> Option<String> {
        let token = random_token()?;
        let form_token = random_token()?;
        let (opened, expires) = (now(), now() + LIFETIME.as_secs());
        let db = self.db();
        let result = (|| -> rusqlite::Result<()> {
            db.execute("DELETE FROM sessions WHERE expires <= ?1", params![opened])?;
            db.execute(
                "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE player = ?1
                 ORDER BY rowid DESC LIMIT -1 OFFSET ?2)",
                params![player, PER_PLAYER as i64 - 1],
            )?;
            db.execute(
                "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions
                 ORDER BY rowid DESC LIMIT -1 OFFSET ?1)",
                params![MAX_SESSIONS as i64 - 1],
            )?;
            db.execute(
                "INSERT INTO sessions (id, player, form_token, secret, opened, expires)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    digest(token.as_bytes()),
                    player,
                    form_token,
                    secret_digest(secret_hash),
                    opened,
                    expires
                ],
            )?;
            Ok(())
        })();
        match result {
            Ok(()) => Some(token),
            Err(e) => {
                tracing::error!(error = %e, "cannot store a web session");
                None
            }
        }
    }

    /// The live session named by the cookie `token`, if its player's secret hash is still
    /// the one it was opened with (`secret_hash_of` gives the hash now, `None` for a player
    /// who no longer exists).
    pub fn find(
        &self,
        token: &str,
        secret_hash_of: impl FnOnce(&str) -> Option<String>,
    ) -> Option<WebSession> {
        if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let id = digest(token.as_bytes());
        let row: Option<(String, String, String)> = self
            .db()
            .query_row(
                "SELECT player, form_token, secret FROM sessions WHERE id = ?1 AND expires > ?2",
                params![id, now()],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .unwrap_or_else(|e| {
                tracing::error!(error = %e, "cannot read the web sessions");
                None
            });
        let (player, form_token, secret) = row?;
        let hash = secret_hash_of(&player)?;
        (secret_digest(&hash) == secret).then_some(WebSession {
            player,
            form_token,
            id,
            secret,
        })
    }

    /// Ends a session (logout), and the live streams it opened.
    pub fn close(&self, session: &WebSession) {
        if let Err(e) = self
            .db()
            .execute("DELETE FROM sessions WHERE id = ?1", params![session.id])
        {
            tracing::error!(error = %e, "cannot end a web session");
        }
        self.end_streams(|id, _| id == session.id);
    }

    /// Ends every session of `player` not opened with `secret_hash`, their secret hash now
    /// (`None`: no such player, every session of theirs ends); how many ended.
    pub fn end_old_secrets(&self, player: &str, secret_hash: Option<&str>) -> usize {
        let kept = secret_hash.map(secret_digest).unwrap_or_default();
        let ended = self.db().execute(
            "DELETE FROM sessions WHERE player = ?1 AND secret <> ?2",
            params![player, kept],
        );
        self.end_streams(|_, f| f.player == player && f.secret != kept);
        ended.unwrap_or_else(|e| {
            tracing::error!(error = %e, "cannot end a player's old web sessions");
            0
        })
    }

    /// [`Self::end_old_secrets`] for every player with a session (`secret_hash_of` gives a
    /// player's secret hash now): at start, and when the roster's announcements were missed.
    pub fn end_every_old_secret(&self, secret_hash_of: impl Fn(&str) -> Option<String>) -> usize {
        let players: Vec<String> = {
            let db = self.db();
            let listed = db
                .prepare("SELECT DISTINCT player FROM sessions")
                .and_then(|mut stmt| {
                    stmt.query_map([], |r| r.get(0))?
                        .collect::<rusqlite::Result<Vec<String>>>()
                });
            listed.unwrap_or_else(|e| {
                tracing::error!(error = %e, "cannot read the web sessions");
                Vec::new()
            })
        };
        players
            .iter()
            .map(|p| self.end_old_secrets(p, secret_hash_of(p).as_deref()))
            .sum()
    }

    /// A live stream's hold on `session`: ended with the session.
    pub fn follow(&self, session: &WebSession) -> Following {
        let mut followed = self.followed.lock().unwrap_or_else(|p| p.into_inner());
        let f = followed
            .entry(session.id.clone())
            .or_insert_with(|| Followed {
                ended: CancellationToken::new(),
                streams: 0,
                player: session.player.clone(),
                secret: session.secret.clone(),
            });
        f.streams += 1;
        Following {
            session: session.id.clone(),
            ended: f.ended.clone(),
            followed: self.followed.clone(),
        }
    }

    /// Ends the live streams of the sessions `which` names.
    fn end_streams(&self, which: impl Fn(&str, &Followed) -> bool) {
        let mut followed = self.followed.lock().unwrap_or_else(|p| p.into_inner());
        followed.retain(|id, f| {
            let end = which(id, f);
            if end {
                f.ended.cancel();
            }
            !end
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_survives_reopening_the_store_and_ends_with_a_new_secret() {
        let dir = tempfile::tempdir().unwrap();
        let token = {
            let store = PlayerSessions::open(dir.path()).unwrap();
            store.open_session("alice", "$argon2id$old").unwrap()
        };
        let store = PlayerSessions::open(dir.path()).unwrap();
        let found = store
            .find(&token, |_| Some("$argon2id$old".to_owned()))
            .unwrap();
        assert_eq!(found.player, "alice");
        assert_eq!(found.form_token.len(), 64);
        assert!(
            store
                .find(&token, |_| Some("$argon2id$new".to_owned()))
                .is_none()
        );
        assert!(store.find(&token, |_| None).is_none());
        store.close(&found);
        assert!(
            store
                .find(&token, |_| Some("$argon2id$old".to_owned()))
                .is_none()
        );
    }

    #[test]
    fn the_file_holds_no_token() {
        let dir = tempfile::tempdir().unwrap();
        let store = PlayerSessions::open(dir.path()).unwrap();
        let token = store.open_session("alice", "h").unwrap();
        drop(store);
        let bytes = std::fs::read(dir.path().join(FILE)).unwrap_or_default();
        let wal = std::fs::read(dir.path().join(format!("{FILE}-wal"))).unwrap_or_default();
        for file in [bytes, wal] {
            assert!(!file.windows(64).any(|w| w == token.as_bytes()));
        }
    }

    /// Finding "not left on disk": a session's form token is in the file while the session
    /// lives, and nowhere in it once the session ended and the log is checkpointed.
    #[test]
    fn an_ended_sessions_form_token_is_not_left_in_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let store = PlayerSessions::open(dir.path()).unwrap();
        let kept = store.open_session("boris", "h").unwrap();
        let token = store.open_session("alice", "h").unwrap();
        let session = store.find(&token, |_| Some("h".to_owned())).unwrap();
        let on_disk = |store: &PlayerSessions| {
            store
                .db()
                .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
                .unwrap();
            let mut bytes = std::fs::read(dir.path().join(FILE)).unwrap();
            bytes.extend(std::fs::read(dir.path().join(format!("{FILE}-wal"))).unwrap_or_default());
            bytes
                .windows(64)
                .any(|w| w == session.form_token.as_bytes())
        };
        assert!(
            on_disk(&store),
            "the live session's form token is in the file"
        );
        store.close(&session);
        assert!(
            !on_disk(&store),
            "the ended session's form token is still on disk"
        );
        assert!(store.find(&kept, |_| Some("h".to_owned())).is_some());
    }

    /// Finding "a new secret ends what the old one opened": the sessions of an old secret are
    /// deleted, those of the new one and other players' kept, and a live stream of an ended
    /// session is told; a logout ends its own streams only.
    #[test]
    fn the_sessions_of_an_old_secret_are_deleted_and_their_streams_ended() {
        let dir = tempfile::tempdir().unwrap();
        let store = PlayerSessions::open(dir.path()).unwrap();
        let old = store.open_session("alice", "old").unwrap();
        let new = store.open_session("alice", "new").unwrap();
        let boris = store.open_session("boris", "old").unwrap();
        let found = |token: &str, hash: &str| store.find(token, |_| Some(hash.to_owned()));
        let old_session = found(&old, "old").unwrap();
        let new_session = found(&new, "new").unwrap();
        let (old_stream, new_stream) = (store.follow(&old_session), store.follow(&new_session));
        assert_eq!(store.end_old_secrets("alice", Some("new")), 1);
        assert!(old_stream.ended().is_cancelled());
        assert!(!new_stream.ended().is_cancelled());
        let rows: i64 = store
            .db()
            .query_row("SELECT count(*) FROM sessions", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 2, "alice's new session and boris's");
        assert!(found(&new, "new").is_some() && found(&boris, "old").is_some());
        store.close(&new_session);
        assert!(new_stream.ended().is_cancelled());
        // At a start, every session whose player's secret changed (or who is gone) ends.
        assert_eq!(store.end_every_old_secret(|_| None), 1);
        assert!(found(&boris, "old").is_none());
    }

    #[test]
    fn a_player_keeps_at_most_per_player_sessions_the_oldest_going_first() {
        let dir = tempfile::tempdir().unwrap();
        let store = PlayerSessions::open(dir.path()).unwrap();
        let tokens: Vec<String> = (0..PER_PLAYER + 2)
            .map(|_| store.open_session("alice", "h").unwrap())
            .collect();
        let live = tokens
            .iter()
            .filter(|t| store.find(t, |_| Some("h".to_owned())).is_some())
            .count();
        assert_eq!(live, PER_PLAYER);
        assert!(
            store
                .find(tokens.last().unwrap(), |_| Some("h".to_owned()))
                .is_some()
        );
        assert!(store.find("zz", |_| Some("h".to_owned())).is_none());
    }
}
