//! `cargo bench`: converting real games (lichess and TWIC samples) from SAN to ICCF numeric
//! through the library, in memory; and the same games written in French, read without a
//! language. `benches/compare.sh` runs the binary beside pgn-extract.

use std::hint::black_box;
use std::io;

use ccrelay::convert::{Format, Options, convert};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn games() -> Vec<u8> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/games/");
    let mut all = Vec::new();
    for name in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
        all.extend(std::fs::read(format!("{dir}{name}")).expect("fixture games"));
        all.push(b'\n');
    }
    all
}

fn bench(c: &mut Criterion) {
    let input = games();
    let options = |to| Options {
        to,
        lang: None,
        start: None,
    };
    let totals =
        convert(&input[..], io::sink(), io::sink(), &options(Format::Iccf)).expect("convert");
    assert_eq!(totals.failed, 0);

    let mut group = c.benchmark_group("convert");
    group.throughput(Throughput::Elements(totals.moves));
    group.sample_size(20);
    for (name, to) in [
        ("san_to_iccf", Format::Iccf),
        ("san_to_uci", Format::Uci),
        ("san_to_san_ru", Format::San),
    ] {
        let options = Options {
            lang: (to == Format::San).then_some(ccrelay::notation::Lang::Russian),
            ..options(to)
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                convert(black_box(&input[..]), io::sink(), io::sink(), &options).expect("convert")
            })
        });
    }
    group.finish();

    // The same games written in French, read without a language: the tolerant reader on every
    // piece move, its languages settling as each game goes (docs/notation.md).
    let mut numeric = Vec::new();
    convert(&input[..], &mut numeric, io::sink(), &options(Format::Iccf)).expect("convert");
    let mut french = Vec::new();
    let written = Options {
        lang: Some(ccrelay::notation::Lang::French),
        ..options(Format::San)
    };
    convert(&numeric[..], &mut french, io::sink(), &written).expect("convert");
    let read =
        convert(&french[..], io::sink(), io::sink(), &options(Format::Iccf)).expect("convert");
    assert_eq!((read.failed, read.moves), (0, totals.moves));
    let mut group = c.benchmark_group("convert");
    group.throughput(Throughput::Elements(read.moves));
    group.sample_size(20);
    group.bench_function("french_san_without_lang_to_iccf", |b| {
        b.iter(|| {
            convert(
                black_box(&french[..]),
                io::sink(),
                io::sink(),
                &options(Format::Iccf),
            )
            .expect("convert")
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
