//! What an APRS port keeps through a restart, in one file of the data directory
//! (`aprs-<port>.log`): the card codes used (each with the message that used it, so that a
//! copy of that message heard again, digipeated or resent after a restart, is known and not
//! applied twice) and the messages to players not yet acknowledged, with their ids.
//!
//! One line a fact, appended and synced before the relay acts on it (a code is written as
//! used before its message is applied; a message before it is first sent):
//!
//! ```text
//! N <the next message number>   (first, after a compaction)
//! U <player> <code number> <message key>
//! S <number> <callsign> <text>
//! A <number>
//! ```
//!
//! (fields separated by tabs; texts are APRS's ASCII, which holds no tab or line break). At
//! open, the file is read and written again with only what still counts: every used code and
//! the messages not acknowledged.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::Write;
use std::path::Path;

/// A message waiting for its acknowledgement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub number: u64,
    pub callsign: String,
    pub text: String,
}

impl Waiting {
    /// Its APRS message id: the number in base 36 (1 to 5 characters; numbers past 36^5 wrap,
    /// long after any radio remembers an id).
    pub fn id(&self) -> String {
        message_id(self.number)
    }
}

/// `n` as a message id.
pub fn message_id(n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut n = n % 36u64.pow(5);
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// The port's durable state.
pub struct Store {
    file: File,
    /// Per player, each used code's number and the key of the message that used it.
    used: HashMap<String, BTreeMap<u32, String>>,
    waiting: BTreeMap<u64, Waiting>,
    next: u64,
}

impl Store {
    /// Opens (or makes) `aprs-<port>.log` in `data_dir`, compacted.
    pub fn open(data_dir: &Path, port: &str) -> std::io::Result<Store> {
        let path = data_dir.join(format!("aprs-{port}.log"));
        let text = match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e),
        };
        let mut used: HashMap<String, BTreeMap<u32, String>> = HashMap::new();
        let mut waiting = BTreeMap::new();
        let mut next = 1;
        for line in text.lines() {
            let fields: Vec<&str> = line.splitn(4, '\t').collect();
            match fields.as_slice() {
                ["U", player, n, key] => {
                    if let Ok(n) = n.parse() {
                        used.entry((*player).to_owned())
                            .or_default()
                            .insert(n, (*key).to_owned());
                    }
                }
                ["S", n, callsign, text] => {
                    if let Ok(number) = n.parse::<u64>() {
                        next = next.max(number + 1);
                        waiting.insert(
                            number,
                            Waiting {
                                number,
                                callsign: (*callsign).to_owned(),
                                text: (*text).to_owned(),
                            },
                        );
                    }
                }
                ["N", n] => {
                    if let Ok(n) = n.parse::<u64>() {
                        next = next.max(n);
                    }
                }
                ["A", n] => {
                    if let Ok(n) = n.parse::<u64>() {
                        waiting.remove(&n);
                    }
                }
                // A line cut by a crash: what it said was never acted on.
                _ => {}
            }
        }
        let mut compact = format!("N\t{next}\n");
        for (player, codes) in &used {
            for (n, key) in codes {
                compact.push_str(&format!("U\t{player}\t{n}\t{key}\n"));
            }
        }
        for w in waiting.values() {
            compact.push_str(&format!("S\t{}\t{}\t{}\n", w.number, w.callsign, w.text));
        }
        crate::durable::replace(&path, compact.as_bytes())?;
        let file = std::fs::OpenOptions::new().append(true).open(&path)?;
        Ok(Store {
            file,
            used,
            waiting,
            next,
        })
    }

    fn append(&mut self, line: &str) -> std::io::Result<()> {
        self.file.write_all(line.as_bytes())?;
        self.file.sync_data()
    }

    /// Whether `player`'s code number `n` was used.
    pub fn is_used(&self, player: &str, n: u32) -> bool {
        self.used.get(player).is_some_and(|u| u.contains_key(&n))
    }

    /// The code `player` used for the message with `key`, if one was.
    pub fn used_by(&self, player: &str, key: &str) -> Option<u32> {
        self.used
            .get(player)?
            .iter()
            .find(|(_, k)| k.as_str() == key)
            .map(|(n, _)| *n)
    }

    /// How many of `player`'s codes are used.
    pub fn codes_of(&self, player: &str) -> usize {
        self.used.get(player).map_or(0, BTreeMap::len)
    }

    /// Marks `player`'s code `n` used by the message with `key`, durably.
    pub fn use_code(&mut self, player: &str, n: u32, key: &str) -> std::io::Result<()> {
        self.append(&format!("U\t{player}\t{n}\t{key}\n"))?;
        self.used
            .entry(player.to_owned())
            .or_default()
            .insert(n, key.to_owned());
        Ok(())
    }

    /// Queues `texts` to `callsign`, durably, in order.
    pub fn push(&mut self, callsign: &str, texts: &[String]) -> std::io::Result<()> {
        let mut lines = String::new();
        let mut made = Vec::new();
        for text in texts {
            let w = Waiting {
                number: self.next + made.len() as u64,
                callsign: callsign.to_owned(),
                text: text.replace(['\t', '\n', '\r'], " "),
            };
            lines.push_str(&format!("S\t{}\t{}\t{}\n", w.number, w.callsign, w.text));
            made.push(w);
        }
        self.append(&lines)?;
        self.next += made.len() as u64;
        for w in made {
            self.waiting.insert(w.number, w);
        }
        Ok(())
    }

    /// `callsign` acknowledged message `id`: forgotten, durably. Whether it was waiting.
    pub fn acknowledged(&mut self, callsign: &str, id: &str) -> std::io::Result<bool> {
        let found = self
            .waiting
            .values()
            .find(|w| w.callsign == callsign && w.id().eq_ignore_ascii_case(id))
            .map(|w| w.number);
        let Some(n) = found else {
            return Ok(false);
        };
        self.append(&format!("A\t{n}\n"))?;
        self.waiting.remove(&n);
        Ok(true)
    }

    /// The oldest message waiting for each callsign.
    pub fn first_for_each(&self) -> Vec<&Waiting> {
        let mut seen = std::collections::HashSet::new();
        self.waiting
            .values()
            .filter(|w| seen.insert(w.callsign.as_str()))
            .collect()
    }

    /// Messages waiting in all.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }
}

/// The numbers of `player`'s codes used, as `aprs-<port>.log` in `data_dir` holds them now,
/// read without opening the store (the player's page: which code comes next). A store not
/// there yet holds none.
pub fn used_codes(data_dir: &Path, port: &str, player: &str) -> Vec<u32> {
    let Ok(bytes) = std::fs::read(data_dir.join(format!("aprs-{port}.log"))) else {
        return Vec::new();
    };
    String::from_utf8_lossy(&bytes)
        .lines()
        .filter_map(
            |line| match line.splitn(4, '\t').collect::<Vec<_>>().as_slice() {
                ["U", p, n, _] if *p == player => n.parse().ok(),
                _ => None,
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_short_base_36() {
        assert_eq!(message_id(0), "0");
        assert_eq!(message_id(35), "Z");
        assert_eq!(message_id(36), "10");
        assert_eq!(message_id(36u64.pow(5) - 1), "ZZZZZ");
        assert_eq!(message_id(36u64.pow(5)), "0");
    }

    #[test]
    fn codes_and_unacknowledged_messages_survive_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "vhf").unwrap();
        store.use_code("anna", 3, "k1").unwrap();
        store
            .push("N0CALL-7", &["one".into(), "two".into()])
            .unwrap();
        store.push("N0CALL-9", &["three".into()]).unwrap();
        let first: Vec<String> = store
            .first_for_each()
            .iter()
            .map(|w| w.text.clone())
            .collect();
        assert_eq!(first, ["one", "three"]);
        assert!(store.acknowledged("N0CALL-7", "1").unwrap());
        assert!(!store.acknowledged("N0CALL-9", "2").unwrap(), "not theirs");
        drop(store);
        // A line cut by a crash is ignored.
        let path = dir.path().join("aprs-vhf.log");
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("U\tanna");
        std::fs::write(&path, text).unwrap();
        let mut store = Store::open(dir.path(), "vhf").unwrap();
        assert!(store.is_used("anna", 3));
        assert!(!store.is_used("anna", 4));
        assert_eq!(store.used_by("anna", "k1"), Some(3));
        let texts: Vec<&str> = store
            .first_for_each()
            .iter()
            .map(|w| w.text.as_str())
            .collect();
        assert_eq!(texts, ["two", "three"]);
        store.push("N0CALL-7", &["four".into()]).unwrap();
        assert_eq!(store.waiting(), 3);
        let ids: Vec<String> = store.first_for_each().iter().map(|w| w.id()).collect();
        assert_eq!(ids, ["2", "3"], "numbers go on after a restart");
        assert_eq!(used_codes(dir.path(), "vhf", "anna"), [3]);
        assert!(used_codes(dir.path(), "uhf", "anna").is_empty());
    }
}
