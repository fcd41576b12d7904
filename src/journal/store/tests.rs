//! The file as it is opened, written, read back and upgraded: durable commits, a scan through
//! the memory map, statements planned once, outbox ids never given twice, deleted secrets gone
//! from the disk, and journals of every earlier layout.

use super::*;

use rusqlite::params;

use super::outbox::pending_sql;
use super::schema::{LAYOUT_VERSION, MOVE_IN_RECORD, SCHEMA};
use crate::journal::{EntryKind, NewEntry, NewOutbox, Notice, Told};
use crate::notation::LangSet;

/// A row of any body, as a build of any layout since 1 wrote it.
fn insert_row(
    conn: &Connection,
    player: &str,
    game: &str,
    seq: i64,
    body: &str,
    sensitive: bool,
) -> Result<i64, JournalError> {
    conn.execute(
        "INSERT INTO outbox (player, game, seq, body, sensitive) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![player, game, seq, body, sensitive],
    )?;
    Ok(conn.last_insert_rowid())
}

#[test]
fn commits_are_durable_wal_with_full_sync() {
    let dir = tempfile::tempdir().unwrap();
    let conn = open(dir.path()).unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    let sync: i64 = conn
        .query_row("PRAGMA synchronous", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    assert_eq!(sync, 2, "synchronous=FULL");
}

fn move_entry(langs: Option<LangSet>) -> NewEntry {
    let mut entry = NewEntry::new("g1", "francois", "tcp", EntryKind::Move, "MOVE g1 Cf3");
    entry.iccf = Some("7163".to_owned());
    entry.langs = langs;
    entry
}

#[test]
fn a_moves_languages_are_kept_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let conn = open(dir.path()).unwrap();
    let french = LangSet::from_codes("fr,es,it,pt,ro").unwrap();
    let first = insert_entry(&conn, 1, &[0; 32], move_entry(Some(french))).unwrap();
    insert_entry(&conn, 2, &first.hash, move_entry(None)).unwrap();
    let kept = move_langs(&conn, 0).unwrap();
    assert_eq!(kept.get(&1), Some(&french));
    assert_eq!(kept.get(&2), None);
    // Unreadable languages are a corrupt journal, said so.
    conn.execute("UPDATE move_langs SET langs = 'xx' WHERE seq = 1", [])
        .unwrap();
    let err = move_langs(&conn, 0).unwrap_err().to_string();
    assert!(err.contains("entry 1"), "{err}");
}

#[test]
fn a_journal_older_than_move_langs_reads_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let conn = open(dir.path()).unwrap();
    insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
    conn.execute_batch("DROP TABLE move_langs").unwrap();
    drop(conn);
    let conn = open_read_only(dir.path()).unwrap();
    assert!(move_langs(&conn, 0).unwrap().is_empty());
}

/// The build's SQLite maps files at all (`SQLITE_MAX_MMAP_SIZE` above 0): otherwise the
/// pragma is accepted and does nothing.
#[test]
fn a_scan_reads_through_the_memory_map() {
    let dir = tempfile::tempdir().unwrap();
    let conn = open(dir.path()).unwrap();
    insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
    let scan = open_for_scan(dir.path()).unwrap();
    let mapped: i64 = scan
        .query_row("PRAGMA mmap_size", [], |r| r.get(0))
        .unwrap();
    assert!(mapped >= 1 << 30, "mmap_size {mapped}");
}

/// Regression: a login's outbox query was parsed and planned again on every use, because
/// putting a cached statement back clears its bindings and SQLite had tied the plan to the
/// player bound (a column compared with `=` might be a flag of 0 or 1).
#[test]
fn regression_a_cached_query_is_not_planned_again_for_each_player() {
    let dir = tempfile::tempdir().unwrap();
    let conn = open(dir.path()).unwrap();
    insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
    insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap();
    for player in ["boris", "francois", "boris"] {
        pending(&conn, player, 0, 10).unwrap();
    }
    let stmt = conn.prepare_cached(&pending_sql(10)).unwrap();
    assert_eq!(stmt.get_status(rusqlite::StatementStatus::RePrepare), 0);
    assert_eq!(stmt.get_status(rusqlite::StatementStatus::Run), 3);
    drop(stmt);
    drop(conn);
    let reader = open_read_only(dir.path()).unwrap();
    for player in ["boris", "francois"] {
        assert_eq!(
            pending(&reader, player, 0, 10).unwrap().len(),
            usize::from(player == "boris")
        );
    }
    let stmt = reader.prepare_cached(&pending_sql(10)).unwrap();
    assert_eq!(stmt.get_status(rusqlite::StatementStatus::RePrepare), 0);
}

/// With delivered rows removed, SQLite's default rowid (the largest plus one) would give a
/// removed row's id again: a session that had sent it would skip the new row, and `ACK n`
/// would acknowledge it unseen.
#[test]
fn an_outbox_id_is_never_given_twice_once_delivered_rows_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let conn = open(dir.path()).unwrap();
    insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
    let first = insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap();
    let second = insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap();
    assert_eq!(mark_delivered(&conn, "boris", second).unwrap(), 2);
    assert!(pending(&conn, "boris", 0, 10).unwrap().is_empty());
    drop(conn);
    let conn = open(dir.path()).unwrap();
    let third = insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap();
    assert!(third > second && second > first, "{first} {second} {third}");
}

/// Finding "not left on disk": a welcome's row holds the new player's secret; once it is
/// delivered (deleted) and the log checkpointed, its bytes are in neither the database
/// file nor its log, though rows beside it on the same page stay.
#[test]
fn a_welcomes_secret_is_not_left_on_disk_once_its_row_is_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let conn = open(dir.path()).unwrap();
    insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
    let secret = "welcome-secret-5d1f0c93a7e24b68";
    let body = format!(r#"{{"welcome":{{"player":"carol","secret":"{secret}"}}}}"#);
    insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap();
    let welcome = insert_row(&conn, "carol", "", 1, &body, true).unwrap();
    insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap();
    let files = || {
        let mut bytes = std::fs::read(dir.path().join(FILE_NAME)).unwrap();
        let log = dir.path().join(format!("{FILE_NAME}-wal"));
        bytes.extend(std::fs::read(log).unwrap_or_default());
        bytes
    };
    let holds = |bytes: &[u8]| bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .unwrap();
    assert!(
        holds(&files()),
        "the row is in the file before it is deleted"
    );
    assert_eq!(mark_delivered(&conn, "carol", welcome).unwrap(), 1);
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .unwrap();
    assert!(!holds(&files()), "the deleted secret is still on disk");
    assert_eq!(pending(&conn, "boris", 0, 10).unwrap().len(), 2);
}

/// A journal of layout 0 (the release before rows were removed on delivery): its
/// delivered rows go, the others stay with their ids, and new ids start after the largest
/// one it ever gave, delivered or not.
#[test]
fn a_layout_0_outbox_keeps_its_pending_rows_and_its_ids() {
    let dir = tempfile::tempdir().unwrap();
    {
        let conn = Connection::open(dir.path().join(FILE_NAME)).unwrap();
        conn.execute_batch(&SCHEMA.replace(" AUTOINCREMENT", ""))
            .unwrap();
        insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
        for (id, delivered) in [(1, None), (2, Some("2026-12-01T00:00:00Z")), (3, Some("x"))] {
            conn.execute(
                "INSERT INTO outbox (id, player, game, seq, body, delivered_at)
                 VALUES (?1, 'boris', 'g1', 1, '{}', ?2)",
                params![id, delivered],
            )
            .unwrap();
        }
    }
    let conn = open(dir.path()).unwrap();
    let waiting: Vec<i64> = pending(&conn, "boris", 0, 10)
        .unwrap()
        .iter()
        .map(|item| item.id)
        .collect();
    assert_eq!(waiting, [1]);
    let rows: i64 = conn
        .query_row("SELECT count(*) FROM outbox", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 1, "the delivered rows are gone");
    assert_eq!(insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap(), 4);
    // Opening again migrates nothing twice.
    drop(conn);
    let conn = open(dir.path()).unwrap();
    assert_eq!(insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap(), 5);
}

/// A journal of layout 1: the rows of relayed moves held a placeholder body. After the
/// upgrade they refer to their entries, the other rows are as they were, and new rows of
/// both sorts read back as written.
#[test]
fn a_layout_1_outbox_keeps_its_relayed_moves_as_references_to_their_entries() {
    let dir = tempfile::tempdir().unwrap();
    {
        let conn = Connection::open(dir.path().join(FILE_NAME)).unwrap();
        conn.execute_batch(SCHEMA).unwrap();
        conn.execute_batch("PRAGMA user_version = 1").unwrap();
        insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
        insert_row(&conn, "boris", "g1", 1, MOVE_IN_RECORD, false).unwrap();
        insert_row(
            &conn,
            "boris",
            "g1",
            1,
            r#"{"recorded":{"game":"g1","what":"x"}}"#,
            false,
        )
        .unwrap();
        insert_row(&conn, "boris", "g1", 1, "finished text", false).unwrap();
    }
    let conn = open(dir.path()).unwrap();
    let told: Vec<(i64, Told)> = pending(&conn, "boris", 0, 10)
        .unwrap()
        .into_iter()
        .map(|item| (item.id, item.told))
        .collect();
    let recorded = Notice::Recorded {
        game: "g1".to_owned(),
        what: "x".to_owned(),
        mv: None,
    };
    let legacy = Notice::Legacy {
        text: "finished text".to_owned(),
    };
    assert_eq!(
        told,
        [
            (1, Told::MoveOfEntry),
            (2, Told::Notice(recorded.clone())),
            (3, Told::Notice(legacy))
        ]
    );
    let body: String = conn
        .query_row("SELECT body FROM outbox WHERE id = 1", [], |r| r.get(0))
        .unwrap();
    assert_eq!(body, "", "the placeholder is gone");
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, LAYOUT_VERSION);
    // New rows, and opening again, which migrates nothing twice.
    let game =
        crate::game::Game::of_kind(crate::game::Kind::Chess, "g1", "alice", "boris", None).unwrap();
    let m = game.board().read_code("5254").unwrap();
    let mut after = game.clone();
    after.apply_by(
        shakmaty::Color::White,
        &crate::game::Action::Move {
            m: m.clone(),
            draw_offer: false,
        },
        jiff::Timestamp::UNIX_EPOCH,
    );
    let notice = super::super::notice::MoveNotice::new(
        &game,
        &after,
        (shakmaty::Color::White, &m),
        false,
        false,
        jiff::Timestamp::UNIX_EPOCH,
    );
    insert_outbox(&conn, &NewOutbox::move_of_entry("boris", notice), "g1", 1).unwrap();
    insert_outbox(
        &conn,
        &NewOutbox::notice("boris", recorded.clone()),
        "g1",
        1,
    )
    .unwrap();
    drop(conn);
    let conn = open(dir.path()).unwrap();
    let told: Vec<Told> = pending(&conn, "boris", 3, 10)
        .unwrap()
        .into_iter()
        .map(|item| item.told)
        .collect();
    assert_eq!(told, [Told::MoveOfEntry, Told::Notice(recorded)]);
}
