//! `cargo bench --bench journal`: what this disk and SQLite allow for the relay's writes,
//! with no relay and no network: the ceiling `ccrelay bench` is measured against. Each
//! iteration commits one group of moves as the writer does (one transaction, fsync on), each
//! move an entry as the relay journals it and the outbox row that tells the opponent, and
//! then marks those rows delivered as the opponents' acknowledgements do.

use std::sync::Arc;

use ccrelay::journal::{EntryKind, Hub, Journal, NewEntry, NewOutbox, Notice, Record};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tokio_util::sync::CancellationToken;

/// An outbox body of the usual size: a move notice with both positions and the clocks.
const NOTICE: &str = r#"{"kind":"move","game":"g1","mover":"p0","mv":{"ply":21,"number":11,"side":"white","iccf":"7163","before":"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4","after":"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK1R1 b Qkq - 5 4"},"draw_offer":false,"clocks":{"kind":"moves_in_days","white":{"used":3600,"left":4316400,"by_move":20,"running":false,"on_leave":false},"black":{"used":7200,"left":4312800,"by_move":20,"running":true,"on_leave":false}},"from_line":false,"cancels_line":false}"#;

fn moves(n: usize) -> Vec<Record> {
    (0..n)
        .map(|i| {
            let game = format!("g{i}");
            let mut entry = NewEntry::new(&game, "p0", "tcp", EntryKind::Move, "MOVE g 11. Nf3");
            entry.iccf = Some("7163".to_owned());
            entry.san = Some("Nf3".to_owned());
            Record {
                entry,
                // A body of a stored move's size, written as it is.
                outbox: vec![NewOutbox::notice(
                    "p1",
                    Notice::Legacy {
                        text: NOTICE.to_owned(),
                    },
                )],
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let (journal, _) = Journal::open(
        dir.path(),
        Arc::new(Hub::default()),
        1024,
        CancellationToken::new(),
    )
    .expect("journal");
    let mut group = c.benchmark_group("journal");
    group.sample_size(20);
    for per_commit in [1, 16, 128] {
        group.throughput(Throughput::Elements(per_commit as u64));
        group.bench_function(
            format!("{per_commit} moves per commit, then acknowledged"),
            |b| {
                b.iter(|| {
                    runtime.block_on(async {
                        let entries = journal.append(moves(per_commit)).await.expect("append");
                        // One outbox row per entry from the first: their ids go with the entries'.
                        let last = entries.last().expect("entries").seq;
                        journal.deliver("p1", last).await.expect("deliver");
                    })
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
