//! The one-click unsubscribe of the mails sent when it is a player's move (RFC 8058): every such
//! mail carries a link `/notify/unsubscribe?p=<player>&t=<token>`, whose POST stops the mails
//! without a login. The token is an HMAC-SHA256 over the player and the address the mail went
//! to, keyed by a secret only this server holds (`notify.key` in the data directory, 32 random
//! bytes in hex, mode 0600, made at the first start that needs it and kept across restarts):
//! it cannot be made for another player or another address, and a new address makes the links
//! of the mails sent to the old one stop working. The email transport makes the links, the web
//! pages check them; neither journals anything here (the POST sends the player's `NOTIFY OFF`
//! to the relay, which does).

use std::io::{self, Read, Write};
use std::path::Path;

use hmac::{KeyInit, Mac};
use sha2::Sha256;

type HmacSha256 = hmac::Hmac<Sha256>;

/// The key's file in the data directory.
pub const KEY_FILE: &str = "notify.key";

/// The key's length in bytes.
const KEY_BYTES: usize = 32;

/// What the tokens are keyed by.
pub struct UnsubscribeKey([u8; KEY_BYTES]);

impl std::fmt::Debug for UnsubscribeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UnsubscribeKey(..)")
    }
}

impl UnsubscribeKey {
    /// The key in `data_dir` ([`KEY_FILE`]), made there (0600, synced) if there is none yet.
    /// A file that does not hold a key is an error, never replaced: the links in the mails
    /// sent would stop working without anyone being told.
    pub fn open(data_dir: &Path) -> io::Result<UnsubscribeKey> {
        let path = data_dir.join(KEY_FILE);
        match std::fs::File::open(&path) {
            Ok(file) => {
                let mut text = String::new();
                file.take(256).read_to_string(&mut text)?;
                Self::from_hex(text.trim()).ok_or_else(|| {
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!(
                            "{}: not a key (64 hex digits); remove it to make a new one (the unsubscribe links in mails already sent then stop working)",
                            path.display()
                        ),
                    )
                })
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Self::make(&path),
            Err(e) => Err(io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
        }
    }

    fn from_hex(text: &str) -> Option<UnsubscribeKey> {
        let bytes = hex::decode(text).ok()?;
        Some(UnsubscribeKey(bytes.try_into().ok()?))
    }

    /// A new key, written to `path` as the signing key is: through a temporary file (0600),
    /// synced, then linked into place and the folder synced, so that a crash or a power cut
    /// leaves no key or a whole one, never a part. A key another start put there meanwhile
    /// is read instead, never replaced.
    fn make(path: &Path) -> io::Result<UnsubscribeKey> {
        use std::os::unix::fs::OpenOptionsExt;
        let named =
            |e: io::Error, at: &Path| io::Error::new(e.kind(), format!("{}: {e}", at.display()));
        let mut bytes = [0u8; KEY_BYTES];
        getrandom::fill(&mut bytes)
            .map_err(|e| io::Error::other(format!("no random source: {e}")))?;
        let tmp = path.with_file_name(format!("{KEY_FILE}.tmp"));
        let _ = std::fs::remove_file(&tmp);
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)
            .map_err(|e| named(e, &tmp))?;
        file.write_all(format!("{}\n", hex::encode(bytes)).as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| named(e, &tmp))?;
        drop(file);
        let linked = std::fs::hard_link(&tmp, path);
        let _ = std::fs::remove_file(&tmp);
        match linked {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                return Self::open(path.parent().unwrap_or(Path::new(".")));
            }
            Err(e) => return Err(named(e, path)),
        }
        crate::durable::sync_parent(path)?;
        Ok(UnsubscribeKey(bytes))
    }

    fn mac(&self, player: &str, address: &str) -> HmacSha256 {
        let mut mac = <HmacSha256 as KeyInit>::new_from_slice(&self.0).expect("HMAC takes any key");
        // Each part's length first: no two (player, address) pairs write the same bytes.
        for part in [player, address] {
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part.as_bytes());
        }
        mac
    }

    /// The token of `player`'s mails to `address`, in hex.
    pub fn token(&self, player: &str, address: &str) -> String {
        hex::encode(self.mac(player, address).finalize().into_bytes())
    }

    /// Whether `token` is the token of `player`'s mails to `address` (compared in constant
    /// time).
    pub fn holds(&self, player: &str, address: &str, token: &str) -> bool {
        match hex::decode(token) {
            Ok(bytes) => self.mac(player, address).verify_slice(&bytes).is_ok(),
            Err(_) => false,
        }
    }
}

/// The link that stops `player`'s mails, on the relay's public address `public_url`.
pub fn link(public_url: &str, player: &str, token: &str) -> String {
    format!("{public_url}/notify/unsubscribe?p={player}&t={token}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_holds_for_its_player_and_address_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let key = UnsubscribeKey::open(dir.path()).expect("made");
        let token = key.token("alice", "alice@example.org");
        assert_eq!(token.len(), 64);
        assert!(key.holds("alice", "alice@example.org", &token));
        assert!(!key.holds("boris", "alice@example.org", &token));
        assert!(!key.holds("alice", "other@example.org", &token));
        // The parts cannot be moved across their border.
        assert_ne!(key.token("ab", "c@x"), key.token("a", "bc@x"));
        assert!(!key.holds("alice", "alice@example.org", &token[..63]));
        assert!(!key.holds("alice", "alice@example.org", "zz"));
        assert!(!key.holds("alice", "alice@example.org", ""));
        let mut changed = token.clone().into_bytes();
        changed[0] = if changed[0] == b'0' { b'1' } else { b'0' };
        assert!(!key.holds(
            "alice",
            "alice@example.org",
            std::str::from_utf8(&changed).expect("hex")
        ));
    }

    #[test]
    fn the_key_is_kept_private_and_across_restarts() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let token = UnsubscribeKey::open(dir.path())
            .expect("made")
            .token("alice", "a@x.org");
        let path = dir.path().join(KEY_FILE);
        let mode = std::fs::metadata(&path).expect("file").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert!(!dir.path().join(format!("{KEY_FILE}.tmp")).exists());
        let again = UnsubscribeKey::open(dir.path()).expect("read");
        assert!(again.holds("alice", "a@x.org", &token));
        // Another server's key holds none of this one's tokens.
        let other = tempfile::tempdir().expect("tempdir");
        assert!(
            !UnsubscribeKey::open(other.path())
                .expect("made")
                .holds("alice", "a@x.org", &token)
        );
        // A file that holds no key stops the start rather than being replaced.
        std::fs::write(&path, "not a key\n").expect("write");
        assert!(UnsubscribeKey::open(dir.path()).is_err());
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "not a key\n");
    }

    #[test]
    fn the_link_names_the_player_and_the_token() {
        assert_eq!(
            link("https://chess.example.org", "alice", "ab12"),
            "https://chess.example.org/notify/unsubscribe?p=alice&t=ab12"
        );
    }
}
