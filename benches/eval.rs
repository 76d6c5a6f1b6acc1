//! Evaluation speed: the learned pattern evaluation against the hand-made one, over the
//! bench positions (ten evaluations per iteration).
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
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench_eval
}
criterion_main!(benches);
