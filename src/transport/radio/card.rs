//! A radio player's printed card of one-time codes: a callsign is not a login (anyone can
//! transmit any callsign), so every APRS message a player sends ends with a code from their
//! card (`5254 K7Q2M`), which the relay accepts once.
//!
//! Why a card and not HOTP/TOTP: RFC 4226 and 6238 need HMAC-SHA1, which no crate of the
//! build has, and a TOTP code needs a clock in the player's hand that agrees with the relay's;
//! a card needs nothing but paper, works on any radio that can type a message, and its codes
//! are HMAC-SHA256 of a key the relay keeps (`radio-card.key` in the data directory, drawn at
//! first use), the player's id and the code's number: the relay stores no list, and a new key
//! voids every card at once.
//!
//! Five characters from 32 (no `0 O 1 I`): 25 bits. A code is accepted once, and only while it
//! is one of the [`WINDOW`] lowest unused codes of the card, so a player may skip a code (one
//! crossed out, a message given up) but a guesser has [`WINDOW`] chances in 2^25 a try, and
//! each wrong try counts as a failed login at the one login door (10 a minute per player by
//! default: 14,400 tries a day, each on air under the guesser's callsign, find a code about
//! once in 230 days; docs/radio.md has the arithmetic).
//!
//! A lost card is replaced by the player's next one (`ccrelay radio card p --next`): card `c`
//! holds codes number `(c - 1) * 100 + 1` to `c * 100` of the same sequence, so the first
//! card's are what they always were, each card's differ from every other's, and once the next
//! card is made only its codes are accepted. Which card a player is on is a line appended to
//! `radio-cards` in the data directory (by the command line, while the daemon runs), read
//! again whenever a code is checked.

use std::io::Write;
use std::path::{Path, PathBuf};

use hmac::{KeyInit, Mac};
use sha2::Sha256;

type HmacSha256 = hmac::Hmac<Sha256>;

/// Codes on one card.
pub const CARD_CODES: u32 = 100;
/// How many of the lowest unused codes are accepted.
pub const WINDOW: usize = 10;
/// A code's length.
pub const CODE_CHARS: usize = 5;
/// The key's file in the data directory.
pub const KEY_FILE: &str = "radio-card.key";
/// The file of each player's card in use (`player<TAB>card`, the last line a player's wins).
pub const CARDS_FILE: &str = "radio-cards";
/// The symbols of a code: digits and capitals without the look-alikes `0 O 1 I`.
const ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// The relay's card key.
#[derive(Clone)]
pub struct CardKey([u8; 32]);

/// The key file could not be read or made.
#[derive(Debug, thiserror::Error)]
#[error("card key {path}: {why}")]
pub struct KeyError {
    pub path: PathBuf,
    pub why: String,
}

impl CardKey {
    /// The key in `data_dir`, drawn and written (mode 0600, synced) when there is none yet.
    pub fn load_or_create(data_dir: &Path) -> Result<CardKey, KeyError> {
        let path = data_dir.join(KEY_FILE);
        let error = |why: String| KeyError {
            path: path.clone(),
            why,
        };
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                return CardKey::from_hex(text.trim())
                    .ok_or_else(|| error("damaged: not 64 hex digits".into()));
            }
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(error(e.to_string())),
            Err(_) => {}
        }
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(|e| error(e.to_string()))?;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(&path) {
            Ok(mut file) => {
                file.write_all(hex::encode(key).as_bytes())
                    .and_then(|()| file.sync_all())
                    .and_then(|()| crate::durable::sync_parent(&path))
                    .map_err(|e| error(e.to_string()))?;
                Ok(CardKey(key))
            }
            // Made meanwhile by the other of the daemon and the command line.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                CardKey::load_or_create(data_dir)
            }
            Err(e) => Err(error(e.to_string())),
        }
    }

    fn from_hex(text: &str) -> Option<CardKey> {
        let bytes = hex::decode(text).ok()?;
        Some(CardKey(bytes.try_into().ok()?))
    }

    /// A key from its bytes (tests).
    pub fn from_bytes(bytes: [u8; 32]) -> CardKey {
        CardKey(bytes)
    }

    /// Code number `index` (from 1) of `player`'s card.
    pub fn code(&self, player: &str, index: u32) -> String {
        let mut mac = <HmacSha256 as KeyInit>::new_from_slice(&self.0).expect("HMAC takes any key");
        mac.update(b"ccrelay radio card\0");
        mac.update(player.as_bytes());
        mac.update(b"\0");
        mac.update(&index.to_be_bytes());
        let digest = mac.finalize().into_bytes();
        let mut bits = u64::from_be_bytes(digest[..8].try_into().unwrap_or([0; 8]));
        let mut out = String::with_capacity(CODE_CHARS);
        for _ in 0..CODE_CHARS {
            out.push(char::from(ALPHABET[(bits >> 59) as usize]));
            bits <<= 5;
        }
        out
    }

    /// The number of `code` (any case) on `player`'s card `card`, if it is one of the
    /// [`WINDOW`] lowest codes of that card not in `used` (numbers count on from the cards
    /// before: card 2's first code is number 101).
    pub fn accepts(
        &self,
        player: &str,
        card: u32,
        code: &str,
        used: impl Fn(u32) -> bool,
    ) -> Option<u32> {
        let code = code.to_ascii_uppercase();
        numbers_of(card)
            .filter(|i| !used(*i))
            .take(WINDOW)
            .find(|i| self.code(player, *i) == code)
    }

    /// `player`'s card `card` as printed: ten rows of ten codes, numbered 1 to 100 on every
    /// card.
    pub fn card(&self, player: &str, card: u32, name: &str, callsign: &str) -> String {
        let which = if card > 1 {
            format!(", card {card} (card {} and before refused)", card - 1)
        } else {
            String::new()
        };
        let mut out = format!(
            "ccrelay radio card: {name} ({player}), {callsign}{which}\n\
             End every message with a code, each used once, in order\n\
             (any of the ten lowest not yet used is taken): 5254 CODE\n\n"
        );
        let first = first_number(card);
        for row in 0..CARD_CODES / 10 {
            out.push_str(&format!("{:>3}-{:<3}", row * 10 + 1, row * 10 + 10));
            for i in 0..10 {
                out.push(' ');
                out.push_str(&self.code(player, first + row * 10 + i));
            }
            out.push('\n');
        }
        out
    }
}

/// The number of card `card`'s first code (card 1's is 1).
fn first_number(card: u32) -> u32 {
    card.max(1)
        .saturating_sub(1)
        .saturating_mul(CARD_CODES)
        .saturating_add(1)
}

/// The numbers of card `card`'s codes.
fn numbers_of(card: u32) -> std::ops::RangeInclusive<u32> {
    let first = first_number(card);
    first..=first.saturating_add(CARD_CODES - 1)
}

/// The place on card `card` (1 to 100) of the lowest code number of that card not in `used`:
/// the one a player's page says comes next; `None` once the card is used up.
pub fn next_code(card: u32, used: impl Fn(u32) -> bool) -> Option<u32> {
    let first = first_number(card);
    numbers_of(card).find(|n| !used(*n)).map(|n| n - first + 1)
}

/// The card `player` is on, as `radio-cards` in `data_dir` says (1 when it names them not,
/// or is not there).
pub fn card_of(data_dir: &Path, player: &str) -> u32 {
    let Ok(bytes) = std::fs::read(data_dir.join(CARDS_FILE)) else {
        return 1;
    };
    String::from_utf8_lossy(&bytes)
        .lines()
        .rev()
        .find_map(|line| match line.split_once('\t') {
            Some((p, card)) if p == player => card.trim().parse::<u32>().ok(),
            _ => None,
        })
        .unwrap_or(1)
        .max(1)
}

/// Moves `player` on to their next card, durably; its number. From then on only the new
/// card's codes are accepted.
pub fn next_card(data_dir: &Path, player: &str) -> std::io::Result<u32> {
    if player.contains(['\t', '\n']) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "a player's id holds no tab or line break",
        ));
    }
    let card = card_of(data_dir, player)
        .checked_add(1)
        .filter(|c| c.checked_mul(CARD_CODES).is_some())
        .ok_or_else(|| std::io::Error::other("no card after this one"))?;
    let path = data_dir.join(CARDS_FILE);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)?;
    file.write_all(format!("{player}\t{card}\n").as_bytes())?;
    file.sync_all()?;
    crate::durable::sync_parent(&path)?;
    Ok(card)
}

/// Whether `word` has the form of a code (not whether it is right).
pub fn looks_like_code(word: &str) -> bool {
    word.len() == CODE_CHARS
        && word
            .bytes()
            .all(|b| ALPHABET.contains(&b.to_ascii_uppercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_five_symbols_and_differ_by_player_and_number() {
        let key = CardKey::from_bytes([7; 32]);
        let a = key.code("anna", 1);
        assert!(looks_like_code(&a), "{a}");
        assert_ne!(a, key.code("anna", 2));
        assert_ne!(a, key.code("boris", 1));
        assert_eq!(a, CardKey::from_bytes([7; 32]).code("anna", 1));
        assert_ne!(a, CardKey::from_bytes([8; 32]).code("anna", 1));
        let all: std::collections::BTreeSet<String> =
            (1..=CARD_CODES).map(|i| key.code("anna", i)).collect();
        assert_eq!(all.len(), CARD_CODES as usize, "no code twice on a card");
    }

    #[test]
    fn only_the_ten_lowest_unused_codes_are_taken_once_each() {
        let key = CardKey::from_bytes([1; 32]);
        let used = |u: &[u32]| {
            let u = u.to_vec();
            move |i: u32| u.contains(&i)
        };
        assert_eq!(
            key.accepts("anna", 1, &key.code("anna", 3), used(&[])),
            Some(3)
        );
        assert_eq!(
            key.accepts("anna", 1, &key.code("anna", 3).to_lowercase(), used(&[])),
            Some(3)
        );
        assert_eq!(
            key.accepts("anna", 1, &key.code("anna", 3), used(&[3])),
            None
        );
        assert_eq!(
            key.accepts("anna", 1, &key.code("anna", 11), used(&[])),
            None
        );
        assert_eq!(
            key.accepts("anna", 1, &key.code("anna", 11), used(&[2])),
            Some(11)
        );
        assert_eq!(
            key.accepts("boris", 1, &key.code("anna", 1), used(&[])),
            None
        );
        assert_eq!(next_code(1, used(&[1, 2, 4])), Some(3));
        assert_eq!(next_code(1, |_| true), None);
    }

    #[test]
    fn the_key_is_made_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let a = CardKey::load_or_create(dir.path()).unwrap();
        let b = CardKey::load_or_create(dir.path()).unwrap();
        assert_eq!(a.code("anna", 1), b.code("anna", 1));
        std::fs::write(dir.path().join(KEY_FILE), "nonsense").unwrap();
        assert!(CardKey::load_or_create(dir.path()).is_err());
    }

    #[test]
    fn a_card_lists_every_code() {
        let key = CardKey::from_bytes([2; 32]);
        let card = key.card("anna", 1, "Anna", "N0CALL-7");
        for i in 1..=CARD_CODES {
            assert!(card.contains(&key.code("anna", i)));
        }
        let second = key.card("anna", 2, "Anna", "N0CALL-7");
        assert!(second.contains("card 2"), "{second}");
        for i in 1..=CARD_CODES {
            assert!(!second.contains(&key.code("anna", i)), "no code of card 1");
            assert!(second.contains(&key.code("anna", CARD_CODES + i)));
        }
    }

    #[test]
    fn a_next_card_refuses_the_lost_ones_codes() {
        let dir = tempfile::tempdir().unwrap();
        let key = CardKey::from_bytes([3; 32]);
        let nothing_used = |_: u32| false;
        assert_eq!(card_of(dir.path(), "anna"), 1, "no file: the first card");
        let old = key.code("anna", 1);
        assert_eq!(key.accepts("anna", 1, &old, nothing_used), Some(1));
        assert_eq!(next_card(dir.path(), "anna").unwrap(), 2);
        assert_eq!(card_of(dir.path(), "anna"), 2);
        assert_eq!(card_of(dir.path(), "boris"), 1, "only hers");
        let card = card_of(dir.path(), "anna");
        assert_eq!(key.accepts("anna", card, &old, nothing_used), None);
        let new = key.code("anna", CARD_CODES + 1);
        assert_eq!(
            key.accepts("anna", card, &new, nothing_used),
            Some(CARD_CODES + 1)
        );
        assert_eq!(
            next_code(card, |n| n == CARD_CODES + 1),
            Some(2),
            "the second code of the new card comes next"
        );
        assert_eq!(next_card(dir.path(), "anna").unwrap(), 3);
        assert_eq!(card_of(dir.path(), "anna"), 3);
        assert!(next_card(dir.path(), "an\tna").is_err());
    }
}
