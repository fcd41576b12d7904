//! Which entries belong to which game, indexed in batches a little behind the record.
//!
//! An index on `entries(game, seq)` puts each move of a commit in a different place of its
//! B-tree: a commit of 30 moves in 30 games wrote 26 index pages to the write-ahead log, about
//! 3.6 KB a move for an entry of 110 bytes, and most of the writer's system calls. So the games'
//! entries are indexed in `game_entries` in batches: once [`EVERY`] entries have come since
//! the last batch, the writer indexes them in the transaction of the batch that crosses it,
//! where each index page takes many entries at once (and is written once, not once a commit).
//! A reader finds a game's entries in the index and, for the few not indexed yet, by reading
//! the entries after `game_entries_upto` ([`of_game`]); both are read in one transaction, so a
//! reader never misses an entry or sees one twice.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use ccrelay::journal::game_index;
//! let conn = rusqlite::Connection::open_in_memory()?;
//! conn.execute_batch("CREATE TABLE entries (seq INTEGER PRIMARY KEY, game TEXT NOT NULL);")?;
//! conn.execute_batch(game_index::SCHEMA)?;
//! conn.execute_batch("INSERT INTO entries VALUES (1, 'g1'), (2, 'g2'), (3, 'g1');")?;
//! game_index::catch_up(&conn)?;
//! conn.execute_batch("INSERT INTO entries VALUES (4, 'g1');")?; // not indexed yet
//! let sql = format!(
//!     "SELECT seq FROM entries WHERE {} ORDER BY seq",
//!     game_index::of_game(&conn, "entries", "?1")?
//! );
//! let seqs: Vec<i64> = conn
//!     .prepare(&sql)?
//!     .query_map(["g1"], |r| r.get(0))?
//!     .collect::<Result<_, _>>()?;
//! assert_eq!(seqs, [1, 3, 4]);
//! # Ok(())
//! # }
//! ```

use rusqlite::{Connection, OptionalExtension};

use super::JournalError;

/// The index and how far it goes. `upto` is the last entry indexed: entries are only ever
/// appended, so every entry after it is one the next batch indexes.
pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS game_entries (
    game TEXT NOT NULL,
    seq  INTEGER NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS game_entries_upto (
    one  INTEGER PRIMARY KEY CHECK (one = 1),
    upto INTEGER NOT NULL
);
INSERT OR IGNORE INTO game_entries_upto (one, upto) VALUES (1, 0);
";

/// Entries the writer lets come before it indexes them: a reader of a game reads at most
/// this many entries past the index.
pub const EVERY: i64 = 1024;

/// Indexes every entry after the last one indexed; returns the last entry indexed now.
pub fn catch_up(conn: &Connection) -> Result<i64, JournalError> {
    conn.prepare_cached(
        "INSERT OR IGNORE INTO game_entries (game, seq)
         SELECT game, seq FROM entries WHERE seq > (SELECT upto FROM game_entries_upto)",
    )?
    .execute([])?;
    conn.prepare_cached(
        "UPDATE game_entries_upto
         SET upto = max(upto, (SELECT coalesce(max(seq), 0) FROM entries))",
    )?
    .execute([])?;
    upto(conn)
}

/// The last entry indexed.
pub fn upto(conn: &Connection) -> Result<i64, JournalError> {
    let upto: Option<i64> = conn
        .prepare_cached("SELECT upto FROM game_entries_upto")?
        .query_row([], |r| r.get(0))
        .optional()?;
    Ok(upto.unwrap_or(0))
}

/// The SQL condition on the entries table `table` (its name or alias in the query) that holds
/// for the entries of the game `game` names: a parameter (`?1`) or a column of an outer query
/// (`e.game`). A journal written before the index (opened read-only, so not brought up to
/// date) has an index on `entries(game, seq)` instead, and is read by its `game` column.
pub fn of_game(conn: &Connection, table: &str, game: &str) -> Result<String, JournalError> {
    let indexed = conn
        .prepare_cached(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'game_entries'",
        )?
        .exists([])?;
    Ok(if indexed {
        format!(
            "{table}.seq IN (SELECT seq FROM game_entries WHERE game = {game}
              UNION ALL
              SELECT seq FROM entries WHERE seq > (SELECT upto FROM game_entries_upto)
                AND game = {game})"
        )
    } else {
        format!("{table}.game = {game}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn journal() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE entries (seq INTEGER PRIMARY KEY, game TEXT NOT NULL);")
            .unwrap();
        conn.execute_batch(SCHEMA).unwrap();
        conn
    }

    fn add(conn: &Connection, seq: i64, game: &str) {
        conn.execute(
            "INSERT INTO entries VALUES (?1, ?2)",
            rusqlite::params![seq, game],
        )
        .unwrap();
    }

    fn of(conn: &Connection, game: &str) -> Vec<i64> {
        let sql = format!(
            "SELECT seq FROM entries WHERE {} ORDER BY seq",
            of_game(conn, "entries", "?1").unwrap()
        );
        conn.prepare(&sql)
            .unwrap()
            .query_map([game], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn a_game_holds_its_entries_indexed_and_not_yet_indexed_each_once() {
        let conn = journal();
        for (seq, game) in [(1, "g1"), (2, "g2"), (3, "g1"), (4, "g2")] {
            add(&conn, seq, game);
        }
        assert_eq!(of(&conn, "g1"), [1, 3], "nothing indexed");
        assert_eq!(catch_up(&conn).unwrap(), 4);
        assert_eq!(of(&conn, "g1"), [1, 3], "all indexed");
        add(&conn, 5, "g1");
        add(&conn, 6, "g3");
        assert_eq!(of(&conn, "g1"), [1, 3, 5], "partly indexed");
        assert_eq!(of(&conn, "g3"), [6]);
        assert_eq!(catch_up(&conn).unwrap(), 6);
        assert_eq!(of(&conn, "g1"), [1, 3, 5]);
        assert_eq!(of(&conn, "g2"), [2, 4]);
        assert!(of(&conn, "g4").is_empty());
    }

    #[test]
    fn an_index_left_behind_by_an_older_release_is_caught_up_from_where_it_stopped() {
        // An older release wrote entries 3 and 4 without indexing them.
        let conn = journal();
        add(&conn, 1, "g1");
        add(&conn, 2, "g1");
        catch_up(&conn).unwrap();
        add(&conn, 3, "g1");
        add(&conn, 4, "g2");
        assert_eq!(catch_up(&conn).unwrap(), 4);
        let indexed: i64 = conn
            .query_row("SELECT count(*) FROM game_entries", [], |r| r.get(0))
            .unwrap();
        assert_eq!(indexed, 4, "each entry indexed once");
        assert_eq!(of(&conn, "g1"), [1, 2, 3]);
    }

    #[test]
    fn a_journal_from_before_the_index_is_read_by_its_game_column() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE entries (seq INTEGER PRIMARY KEY, game TEXT NOT NULL);
             INSERT INTO entries VALUES (1, 'g1'), (2, 'g2'), (3, 'g1');",
        )
        .unwrap();
        assert_eq!(of(&conn, "g1"), [1, 3]);
    }
}
