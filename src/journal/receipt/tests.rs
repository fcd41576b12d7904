//! Receipts against journals: whole, changed in place, rewritten whole, with an entry
//! removed, cut off at the end, signed by another key, after a key rotation; and a journal
//! older than signing.

use std::sync::Arc;

use rusqlite::params;
use tokio_util::sync::CancellationToken;

use super::*;
use crate::journal::signing::head_message;
use crate::journal::signing::{KEY_FILE, Key};
use crate::journal::{EntryKind, Hub, Journal, NewEntry, Record, keyring, replay};

/// A journal in `dir` with `n` entries more (after its key entry, when new), committed one
/// at a time (each its own signed head); returns every entry's full receipt, in order.
async fn journal_with(dir: &std::path::Path, n: usize) -> Vec<Receipt> {
    let (journal, _) = Journal::open(dir, Arc::new(Hub::default()), 16, CancellationToken::new())
        .expect("journal");
    for i in 0..n {
        let entry = NewEntry::new("g", "p", "tcp", EntryKind::Rejected, &format!("try {i}"));
        journal
            .append(vec![Record {
                entry,
                outbox: vec![],
            }])
            .await
            .expect("append");
    }
    let mut receipts = Vec::new();
    let (last, _) = store::tail(&conn(dir)).expect("tail");
    for seq in 1..=last {
        receipts.push(journal.receipt(seq).await.expect("receipt").expect("some"));
    }
    receipts
}

fn conn(dir: &std::path::Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join(store::FILE_NAME)).expect("open")
}

fn full(receipts: &[Receipt]) -> Vec<Saved> {
    receipts.iter().cloned().map(Saved::Full).collect()
}

fn short(receipts: &[Receipt]) -> Vec<Saved> {
    receipts.iter().map(|r| Saved::Short(r.short())).collect()
}

/// Recomputes every hash from entry `from` on, as someone with write access but without the
/// key would, to hide a change.
fn rechain(conn: &rusqlite::Connection, from: i64) {
    let mut prev = store::entry_hash(conn, from - 1)
        .unwrap()
        .unwrap_or([0; 32]);
    let mut entries = Vec::new();
    store::for_each_entry(conn, None, |e| {
        if e.seq >= from {
            entries.push(e);
        }
        Ok(())
    })
    .unwrap();
    for e in entries {
        let hash = store::chain_hash(&prev, &e);
        conn.execute(
            "UPDATE entries SET hash = ?1 WHERE seq = ?2",
            params![&hash[..], e.seq],
        )
        .unwrap();
        prev = hash;
    }
}

fn failure(conn: &rusqlite::Connection, saved: &[Saved]) -> String {
    check(conn, saved).expect_err("must fail").to_string()
}

#[test]
fn both_forms_read_back() {
    let s = Short::of(17, &[0xab; 32]);
    assert_eq!(s.to_string(), "r17:abababababab");
    let counted: [u8; 32] = std::array::from_fn(|i| (i * 37 % 256) as u8);
    assert_eq!(
        Short::of(3, &counted).prefix(),
        &hex::encode(counted)[..SHORT_HEX],
        "the first digits of the whole hash"
    );
    for seq in [1, 17, 9_876_543_210, i64::MAX] {
        let short = Short::of(seq, &counted);
        let written = format!("r{seq}:{}", short.prefix());
        assert_eq!(short.encode(&mut [0; Short::MAX_LEN]), written);
        assert_eq!(short.to_string(), written);
    }
    assert_eq!(Short::parse("r17:abababababab,"), Some(s));
    assert_eq!(Short::parse("r17:ababab"), None);
    assert_eq!(Short::parse("r0:abababababab"), None);
    assert_eq!(Short::parse("e4"), None);
    let key = Key::generate().unwrap();
    let head = SignedHead {
        seq: 20,
        hash: [2; 32],
        key: key.public(),
        signature: key.sign(&head_message(20, &[2; 32])),
    };
    let receipt = Receipt {
        seq: 17,
        hash: [1; 32],
        head,
    };
    let line = format!("250 {receipt}");
    assert_eq!(Receipt::parse(&line), Ok(receipt.clone()));
    assert!(receipt.head.is_signed());
    let text = format!(
        "250 accepted g1 1. 5254 {s}\n* 3 MOVE g1 1... 5755 by b r18:cdcdcdcdcdcd\n{line}\n"
    );
    let found = find_all(&text).unwrap();
    assert_eq!(found.len(), 3);
    assert_eq!(found[2], Saved::Full(receipt));
    assert!(find_all("ccrelay-receipt v1 entry=x").is_err());
}

#[tokio::test]
async fn a_whole_journal_holds_every_receipt() {
    let dir = tempfile::tempdir().unwrap();
    let receipts = journal_with(dir.path(), 6).await;
    let conn = conn(dir.path());
    let checked = check(&conn, &full(&receipts)).unwrap();
    assert_eq!((checked.receipts, checked.signed, checked.last), (7, 7, 7));
    check(&conn, &short(&receipts)).unwrap();
    let replayed = replay::verify(&conn).unwrap();
    assert_eq!(replayed.signatures, 7);
    assert!(dir.path().join(KEY_FILE).exists());
}

#[tokio::test]
async fn an_entry_changed_in_place_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let receipts = journal_with(dir.path(), 6).await;
    let conn = conn(dir.path());
    conn.execute("UPDATE entries SET text = 'forged' WHERE seq = 4", [])
        .unwrap();
    let why = failure(&conn, &short(&receipts[5..]));
    assert!(why.contains("entry 4 was changed"), "{why}");
    assert!(
        replay::verify(&conn)
            .unwrap_err()
            .to_string()
            .contains("entry 4")
    );
}

#[tokio::test]
async fn a_chain_rewritten_whole_fails_at_the_first_receipt_after_the_change() {
    let dir = tempfile::tempdir().unwrap();
    let receipts = journal_with(dir.path(), 6).await;
    let conn = conn(dir.path());
    conn.execute("UPDATE entries SET text = 'forged' WHERE seq = 4", [])
        .unwrap();
    rechain(&conn, 4);
    let why = failure(&conn, &short(&receipts));
    assert!(
        why.contains("receipt for entry 4") && why.contains("after entry 3"),
        "{why}"
    );
    let why = failure(&conn, &full(&receipts[4..]));
    assert!(why.contains("receipt for entry 5"), "{why}");
    // The relay's own signatures no longer match either.
    let why = replay::verify(&conn).unwrap_err().to_string();
    assert!(why.contains("signed head at entry 4"), "{why}");
}

#[tokio::test]
async fn a_removed_entry_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let receipts = journal_with(dir.path(), 6).await;
    let conn = conn(dir.path());
    conn.execute("DELETE FROM signatures WHERE seq = 3", [])
        .unwrap();
    conn.execute("DELETE FROM entries WHERE seq = 3", [])
        .unwrap();
    let why = failure(&conn, &short(&receipts[6..]));
    assert!(why.contains("entry 3 is missing"), "{why}");
}

#[tokio::test]
async fn a_tail_cut_off_shows_against_a_receipt_beyond_it() {
    let dir = tempfile::tempdir().unwrap();
    let receipts = journal_with(dir.path(), 6).await;
    let conn = conn(dir.path());
    conn.execute("DELETE FROM signatures WHERE seq > 5", [])
        .unwrap();
    conn.execute("DELETE FROM entries WHERE seq > 5", [])
        .unwrap();
    // Cut cleanly, entries and signatures both: the journal alone cannot tell...
    replay::verify(&conn).unwrap();
    // ...a player's receipt can.
    let why = failure(&conn, &short(&receipts[6..]));
    assert!(
        why.contains("entry 7 is missing") && why.contains("ends at entry 5"),
        "{why}"
    );
}

#[tokio::test]
async fn a_history_signed_again_with_another_key_fails_the_old_receipts() {
    let dir = tempfile::tempdir().unwrap();
    let receipts = journal_with(dir.path(), 3).await;
    let conn = conn(dir.path());
    // A forger with write access makes a key of their own and signs the chain again with
    // it, first entry included.
    let forger = Key::generate().unwrap();
    conn.execute(
        "UPDATE entries SET text = ?1 WHERE seq = 1",
        params![forger.public().hex()],
    )
    .unwrap();
    rechain(&conn, 1);
    conn.execute("DELETE FROM signatures", []).unwrap();
    store::for_each_entry(&conn, None, |e| {
        let sig = forger.sign(&head_message(e.seq, &e.hash));
        store::insert_signature(&conn, e.seq, &e.hash, &forger.public(), &sig)
    })
    .unwrap();
    replay::verify(&conn).expect("consistent in itself");
    let why = failure(&conn, &full(&receipts[2..]));
    assert!(why.contains("but the journal names key"), "{why}");
    // A receipt whose signature was tampered with is refused as such.
    let mut bad = receipts[3].clone();
    bad.head.signature[0] ^= 1;
    let why = failure(&conn, &[Saved::Full(bad)]);
    assert!(why.contains("the receipt itself was altered"), "{why}");
}

#[tokio::test]
async fn receipts_hold_across_a_key_rotation() {
    let dir = tempfile::tempdir().unwrap();
    let before = journal_with(dir.path(), 2).await;
    let path = dir.path().join(KEY_FILE);
    let old = Key::read(&path).unwrap();
    {
        let conn = store::open(dir.path()).unwrap();
        let (new, seq) = keyring::rotate(&conn, &path, &old).unwrap();
        assert_eq!(seq, 4);
        assert_eq!(Key::read(&path).unwrap().public(), new.public());
    }
    // The daemon starts again on the new key and goes on.
    let after = journal_with(dir.path(), 2).await;
    let conn = conn(dir.path());
    let replayed = replay::verify(&conn).unwrap();
    assert_eq!(replayed.keys.all().len(), 2);
    assert_eq!(replayed.keys.at(3), Some(old.public()));
    check(&conn, &full(&before)).unwrap();
    check(&conn, &full(&after)).unwrap();
    assert_eq!(after.len(), 6);
    assert_ne!(after[5].head.key, old.public());

    // A rotation whose signature is not the old key's breaks the chain's keys.
    let mut detail: crate::journal::signing::RotationDetail = serde_json::from_str(
        &conn
            .query_row("SELECT detail FROM entries WHERE seq = 4", [], |r| {
                r.get::<_, String>(0)
            })
            .unwrap(),
    )
    .unwrap();
    detail.signature = hex::encode([0u8; 64]);
    conn.execute(
        "UPDATE entries SET detail = ?1 WHERE seq = 4",
        params![serde_json::to_string(&detail).unwrap()],
    )
    .unwrap();
    rechain(&conn, 4);
    let why = replay::verify(&conn).unwrap_err().to_string();
    assert!(
        why.contains("entry 4") && why.contains("not signed by the old key"),
        "{why}"
    );
}

#[tokio::test]
async fn a_key_file_that_is_not_the_journals_stops_the_start() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), 1).await;
    let path = dir.path().join(KEY_FILE);
    std::fs::remove_file(&path).unwrap();
    Key::generate().unwrap().write_new(&path).unwrap();
    let opened = Journal::open(
        dir.path(),
        Arc::new(Hub::default()),
        4,
        CancellationToken::new(),
    );
    let why = opened.err().expect("refused").to_string();
    assert!(why.contains("but the journal is signed by key"), "{why}");
}

#[test]
fn a_journal_older_than_signing_still_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let conn = store::open(dir.path()).unwrap();
    conn.execute("DROP TABLE signatures", []).unwrap();
    let mut prev = [0; 32];
    for seq in 1..=3 {
        let entry = NewEntry::new("g", "p", "tcp", EntryKind::Rejected, "x");
        prev = store::insert_entry(&conn, seq, &prev, entry).unwrap().hash;
    }
    drop(conn);
    let conn = store::open_read_only(dir.path()).unwrap();
    let replayed = replay::verify(&conn).unwrap();
    assert_eq!((replayed.entries, replayed.signatures), (3, 0));
    check(&conn, &[Saved::Short(Short::of(3, &prev))]).unwrap();
    assert_eq!(receipt_for(&conn, 3).unwrap(), None);
}
