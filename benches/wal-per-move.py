#!/usr/bin/env python3
"""Bytes of SQLite's write-ahead log a move, with and without the index on entries(game, seq).

A journal-shaped table (the entries' columns, sizes like the relay's) gets GAMES game starts,
then MOVES moves in commits of PER, each commit's moves in different games (as a group commit
under load holds them), with SQLite's own checkpoint off; the log's size after, divided by
the moves, is what the log takes a move. It isolates what one index costs the writer: run it
before adding an index on a column whose values do not follow the entry's number.

Usage: benches/wal-per-move.py [GAMES] [MOVES] [PER]   (defaults 1000 40000 30)
"""
import os
import random
import sqlite3
import sys
import tempfile


def run(index, games, moves, per):
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "journal.sqlite3")
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA wal_autocheckpoint=0")
        conn.execute(
            "CREATE TABLE entries (seq INTEGER PRIMARY KEY, time TEXT, game TEXT, player TEXT,"
            " channel TEXT, kind TEXT, text TEXT, iccf TEXT, san TEXT, detail TEXT, hash BLOB)"
        )
        if index:
            conn.execute("CREATE INDEX entries_game ON entries(game, seq)")
        insert = "INSERT INTO entries VALUES (?,?,?,?,?,?,?,?,?,?,?)"
        time = "2026-12-02T11:00:00Z"
        seq = 0
        conn.execute("BEGIN")
        for g in range(games):
            seq += 1
            row = (seq, time, f"g{g}", "admin", "config", "game_start", "x" * 60, None, None, "{}")
            conn.execute(insert, row + (os.urandom(32),))
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        order = [g for _ in range(moves // games) for g in random.sample(range(games), games)]
        for i in range(0, len(order), per):
            conn.execute("BEGIN")
            for g in order[i : i + per]:
                seq += 1
                row = (seq, time, f"g{g}", f"p{g}", "tcp", "move", "e2e4", "5254", "e4", "")
                conn.execute(insert, row + (os.urandom(32),))
            conn.execute("COMMIT")
        size = os.path.getsize(path + "-wal")
        conn.close()
        return size / len(order)


def main():
    given = [int(a) for a in sys.argv[1:4]]
    games, moves, per = given + [1000, 40000, 30][len(given) :]
    for index in (True, False):
        name = "with the index on entries(game, seq)" if index else "without it"
        print(f"{name}: {run(index, games, moves, per):.0f} bytes of log a move")


if __name__ == "__main__":
    main()
