//! Evaluation speed: the learned pattern evaluation against the hand-made one, over the
//! bench positions (ten evaluations per iteration); and the network's parts (the tiny
//! English net of `tests/data/nnue/`): accumulators from scratch, the output from them,
//! and an update by one quiet move.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use criterion::{Criterion, criterion_group, criterion_main};
use damiera::board::Position;
use damiera::cli::bench::POSITIONS;
use damiera::search::{EvalStyle, evaluate};
use std::hint::black_box;

fn bench_eval(c: &mut Criterion) {
    let positions: Vec<Position> = POSITIONS
        .iter()
        .filter_map(|t| Position::parse(t).ok())
        .collect();
    let weights = damiera::search::eval::embedded_weights();
    for (name, style) in [
        ("eval pattern x10", EvalStyle::Pattern),
        ("eval hce x10", EvalStyle::Hce),
    ] {
        c.bench_function(name, |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| evaluate(black_box(p), style, &weights))
                    .sum::<i32>()
            })
        });
    }
    bench_network(c, &positions);
}

fn bench_network(c: &mut Criterion, positions: &[Position]) {
    use damiera::search::eval::nnue::piece_sets;
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/nnue/english-tiny.dmn"
    ))
    .unwrap();
    let net = damiera::search::eval::nnue_file::parse(&bytes).unwrap();
    let sets: Vec<_> = positions.iter().map(piece_sets).collect();
    let accumulators: Vec<_> = sets.iter().map(|s| net.refresh(s)).collect();
    c.bench_function("network refresh x10", |b| {
        b.iter(|| {
            sets.iter()
                .map(|s| net.refresh(black_box(s)).0[0][0])
                .sum::<i16>()
        })
    });
    c.bench_function("network output x10", |b| {
        b.iter(|| {
            accumulators
                .iter()
                .zip(positions)
                .map(|(a, p)| net.output(black_box(a), p.side_to_move(), p.occupied().count_ones()))
                .sum::<i32>()
        })
    });
    let start = Position::start();
    let child = start.play(damiera::movegen::legal_moves(&start)[0]);
    let (from, to) = (piece_sets(&start), piece_sets(&child));
    let acc = net.refresh(&from);
    c.bench_function("network update x1", |b| {
        b.iter(|| {
            let mut a = acc;
            net.update(&mut a, black_box(&from), black_box(&to));
            a.0[1][5]
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench_eval
}
criterion_main!(benches);
