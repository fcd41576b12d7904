//! The journal's handle over its writer: checkpoints between commits, and an emptied log that
//! leaves every entry in the database.

use super::writer::CHECKPOINT_WHEN_IDLE;
use super::*;

/// A journal in a folder of its own, with a queue of 64.
fn new_journal() -> (tempfile::TempDir, Journal) {
    let dir = tempfile::tempdir().expect("tempdir");
    let (journal, _) = Journal::open(
        dir.path(),
        Arc::new(Hub::default()),
        64,
        CancellationToken::new(),
    )
    .expect("journal");
    (dir, journal)
}

/// SQLite's own checkpoint is off on the writer, which runs one between commits: after a
/// run of commits and a pause, the database file itself holds them, not only the log.
#[tokio::test]
async fn the_writer_checkpoints_between_commits() {
    let (dir, journal) = new_journal();
    let db = dir.path().join(store::FILE_NAME);
    let size = || std::fs::metadata(&db).expect("database file").len();
    let before = size();
    let text = "x".repeat(2000);
    for _ in 0..CHECKPOINT_WHEN_IDLE {
        let entry = NewEntry::new("g", "p", "tcp", EntryKind::Message, &text);
        let record = Record {
            entry,
            outbox: vec![],
        };
        journal.append(vec![record]).await.expect("append");
    }
    // Nothing more is queued, so the writer checkpoints now, after its last answer.
    let wanted = before + u64::from(CHECKPOINT_WHEN_IDLE) * 2000;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while size() < wanted && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(size() >= wanted, "{} bytes in the database file", size());
}

/// What a stop leaves: no log for the next start to read back, every entry in the
/// database file, and a writer that goes on committing after it.
#[tokio::test]
async fn emptying_the_log_leaves_every_entry_in_the_database_and_no_log() {
    let (dir, journal) = new_journal();
    let message = |text: &str| Record {
        entry: NewEntry::new("g", "p", "tcp", EntryKind::Message, text),
        outbox: vec![],
    };
    for n in 0..10 {
        journal
            .append(vec![message(&format!("before {n}"))])
            .await
            .expect("append");
    }
    let log = dir.path().join(format!("{}-wal", store::FILE_NAME));
    assert!(std::fs::metadata(&log).expect("log").len() > 0);
    journal.empty_log().await.expect("empty the log");
    assert_eq!(std::fs::metadata(&log).expect("log").len(), 0);
    journal
        .append(vec![message("after")])
        .await
        .expect("append after");
    journal.flush().await.expect("flush");
    drop(journal);

    let read = store::open_read_only(dir.path()).expect("open");
    let texts: Vec<String> = read
        .prepare("SELECT text FROM entries WHERE kind = 'message' ORDER BY seq")
        .expect("prepare")
        .query_map([], |row| row.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(texts.len(), 11, "{texts:?}");
    assert_eq!(texts.last().map(String::as_str), Some("after"));
}
