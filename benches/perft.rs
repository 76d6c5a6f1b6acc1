//! Move generator speed: perft from the start position and a king-heavy position.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use criterion::{Criterion, criterion_group, criterion_main};
use damiera::board::Position;
use damiera::movegen::{legal_moves, perft};
use std::hint::black_box;

fn bench_perft(c: &mut Criterion) {
    let start = Position::start();
    c.bench_function("perft start depth 9", |b| {
        b.iter(|| perft(black_box(&start), 9, false))
    });
    let kings =
        Position::parse("W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4").unwrap_or(start);
    c.bench_function("perft kings depth 5", |b| {
        b.iter(|| perft(black_box(&kings), 5, false))
    });
    c.bench_function("legal_moves kings", |b| {
        b.iter(|| legal_moves(black_box(&kings)).len())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_perft
}
criterion_main!(benches);
