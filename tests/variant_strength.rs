//! The learned evaluation of a variant against its hand-made start: a fixed-nodes match of
//! two in-process engines ([`damiera::engine::Thinker`]), for the variants that `damiera
//! match` (engines over the Hub) did not play yet when it was measured. Ignored in the
//! normal run (it takes minutes); run it by hand:
//!
//! ```sh
//! VARIANT=russian GAMES=400 NODES=3000 OUT=russian.txt \
//!   cargo test --release --test variant_strength -- --ignored --nocapture
//! ```
//!
//! Engine A is `style=full` with `EVAL_FILE` (default: the variant's embedded weights),
//! engine B is `style=hce`. Openings: every position 4 plies after the variant's start,
//! shuffled with `SEED`; each is played twice, colours reversed. A game ends by the rules
//! (threefold repetition, 40 moves without a capture or a man move), at 300 plies (a draw),
//! or when a search proves a win. Each game's result is appended to `OUT` as it ends, and
//! a run with the same `OUT` skips the games already there: an interrupted run resumes.
//! The summary (W/D/L of A, Elo with its 95 % error, pentanomial) is printed at the end.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;

use damiera::board::{Color, Position, Variant};
use damiera::clock::Limits;
use damiera::engine::{EngineOptions, Thinker};
use damiera::game::openings::default_openings_in;
use damiera::game::{DrawRules, Game};
use damiera::matchrun::stats::{GameOutcome, Pentanomial, Score};
use damiera::search::Style;
use damiera::search::eval::EvalFile;
use damiera::search::score::is_decisive;
use damiera::train::Rng;
use damiera::train::selfplay::referee;

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

/// White's result (0, 1 or 2 half-points) of the game from `start` between `white` and
/// `black`, at `nodes` a move.
fn play(start: Position, white: &Thinker, black: &Thinker, nodes: u64) -> u8 {
    white.new_game();
    black.new_game();
    let mut game = Game::with_rules(start, DrawRules::default());
    loop {
        if let Some(result) = referee(&game, 300) {
            return result;
        }
        let mover = game.position().side_to_move();
        let thinker = if mover == Color::White { white } else { black };
        let r = thinker.think(&game, &Limits::nodes(nodes), |_| {});
        let Some(mv) = r.best else {
            return if mover == Color::White { 0 } else { 2 };
        };
        if is_decisive(r.score) {
            return if (r.score > 0) == (mover == Color::White) {
                2
            } else {
                0
            };
        }
        game.play(mv);
    }
}

/// Engine A's outcome from White's result, A playing `a_white`.
fn outcome(white_result: u8, a_white: bool) -> GameOutcome {
    match (white_result, a_white) {
        (1, _) => GameOutcome::Draw,
        (2, true) | (0, false) => GameOutcome::Win,
        _ => GameOutcome::Loss,
    }
}

/// The results already in `out`: game number -> A's outcome.
fn done(out: &str) -> BTreeMap<u64, GameOutcome> {
    let text = std::fs::read_to_string(out).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let game = words.next()?.parse().ok()?;
            let result = match words.next()? {
                "win" => GameOutcome::Win,
                "draw" => GameOutcome::Draw,
                "loss" => GameOutcome::Loss,
                _ => return None,
            };
            Some((game, result))
        })
        .collect()
}

#[test]
#[ignore = "a match of minutes: run by hand (see the file's doc)"]
fn learned_against_hand_made() {
    let variant: Variant = env_or("VARIANT", "english").parse().unwrap();
    let games: u64 = env_or("GAMES", "400").parse().unwrap();
    let nodes: u64 = env_or("NODES", "3000").parse().unwrap();
    let seed: u64 = env_or("SEED", "1").parse().unwrap();
    let out = env_or("OUT", &format!("variant-strength-{variant}.txt"));
    let eval = EvalFile::load(&env_or("EVAL_FILE", "embedded")).unwrap();
    eval.check_variant(variant).unwrap();
    let options = |style: Style| EngineOptions {
        style,
        tt_mib: 16,
        weights: Arc::clone(eval.weights()),
        ..EngineOptions::default()
    };
    let a = Thinker::new(options(Style::FULL)).unwrap();
    let b = Thinker::new(options(Style::HCE)).unwrap();
    let mut openings = default_openings_in(variant, 4);
    let mut rng = Rng::new(seed);
    for i in (1..openings.len()).rev() {
        openings.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut results = done(&out);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)
        .unwrap();
    for game in 0..games {
        if results.contains_key(&game) {
            continue;
        }
        let start = openings[(game / 2) as usize % openings.len()];
        let a_white = game % 2 == 0;
        let (white, black) = if a_white { (&a, &b) } else { (&b, &a) };
        let result = outcome(play(start, white, black, nodes), a_white);
        let word = match result {
            GameOutcome::Win => "win",
            GameOutcome::Draw => "draw",
            GameOutcome::Loss => "loss",
        };
        writeln!(file, "{game} {word} {}", start.to_fen()).unwrap();
        results.insert(game, result);
    }
    let (mut score, mut penta) = (Score::default(), Pentanomial::default());
    for (&game, &result) in results.range(..games) {
        score.record(result);
        if game % 2 == 1
            && let Some(&first) = results.get(&(game - 1))
        {
            penta.record_pair(first, result);
        }
    }
    let (e, p) = (score.estimate(), penta.estimate());
    println!(
        "{variant}: learned ({}) vs hand-made, {} games at {nodes} nodes: +{} ={} -{}, \
         {:+.1} ± {:.1} Elo (trinomial), {:+.1} ± {:.1} (pentanomial {:?}), LOS {:.1} %",
        eval.name(),
        score.games(),
        score.wins,
        score.draws,
        score.losses,
        e.elo,
        e.error,
        p.elo,
        p.error,
        penta.counts,
        100.0 * score.los()
    );
}
