//! Self-play games for training data: each game starts from an opening chosen at random
//! (seeded), plays a few random plies, then both sides search a fixed number of nodes
//! per move. Every position without a pending capture is kept with the search score
//! and, once the game is over, its result.
//!
//! Game end: the game room's verdict under the configured [`DrawRules`] (a side without a
//! legal move loses; threefold repetition and 40 moves per side without a capture or a
//! man move draw, by default), a proven win or loss found by the search ends the game at
//! once, a position the engine's endgame databases hold ends it with their value (when
//! the engine has databases: [`EngineOptions::egdb`]), and a game still going at
//! `max_plies` is a draw.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

use crossbeam_channel::unbounded;

use super::Rng;
use super::data::Sample;
use crate::board::{Color, Position};
use crate::clock::Limits;
use crate::egdb::Outcome;
use crate::engine::{EngineOptions, Thinker};
use crate::game::{DrawRules, Game, Verdict};
use crate::movegen::{has_capture, legal_moves};
use crate::search::score::{WIN, is_decisive};
use crate::shard::Shard;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// Games in the whole run (numbered from 0).
    pub games: u64,
    /// The slice of the run's games played here (all of them with [`Shard::WHOLE`]).
    pub shard: Shard,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Games played at once, each in its own thread.
    pub concurrency: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// Random plies after the opening: 0 to this many.
    pub random_plies: u32,
    /// Start positions.
    pub openings: Vec<Position>,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// The engine of both sides, one per game thread (one search thread each; its
    /// contempt is not used: self-play scores draws 0).
    pub engine: EngineOptions,
    /// The draw rules the games are played (and searched) under.
    pub rules: DrawRules,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameData {
    /// Its number, 0-based.
    pub game: u64,
    /// Its training positions, in game order.
    pub samples: Vec<Sample>,
    /// Plies played.
    pub plies: usize,
    /// White's result: 0 a loss, 1 a draw, 2 a win.
    pub result: u8,
}

/// Plays the games of `cfg.shard` (of a run of `cfg.games`) on `cfg.concurrency` threads
/// and hands each to `sink` in game order, so the output does not depend on the number
/// of threads, and the slices of a run, one after the other, give the whole run's games.
pub fn run(cfg: &SelfplayConfig, mut sink: impl FnMut(GameData)) {
    let games = cfg.shard.range(cfg.games);
    let next = AtomicU64::new(games.start);
    let (tx, rx) = unbounded::<GameData>();
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1) {
            let (tx, next) = (tx.clone(), &next);
            scope.spawn(move || {
                let options = EngineOptions {
                    threads: 1,
                    multipv: 1,
                    contempt: 0,
                    ..cfg.engine.clone()
                };
                let Ok(thinker) = Thinker::new(options) else {
                    return; // no table for this thread: the others play its games
                };
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= games.end || tx.send(play_game(cfg, game, &thinker)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut wanted = games.start;
        for data in rx {
            pending.insert(data.game, data);
            while let Some(data) = pending.remove(&wanted) {
                sink(data);
                wanted += 1;
            }
        }
    });
}

/// Plays game number `game` (reproducible from the seed and the number alone).
pub fn play_game(cfg: &SelfplayConfig, game: u64, thinker: &Thinker) -> GameData {
    let mut rng = Rng::new(cfg.seed ^ game.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    let mut pos = cfg.openings[rng.below(cfg.openings.len() as u64) as usize];
    let random = rng.below(cfg.random_plies as u64 + 1);
    for _ in 0..random {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        pos = pos.play(moves[rng.below(moves.len() as u64) as usize]);
    }
    thinker.new_game();
    let mut record = Game::with_rules(pos, cfg.rules);
    let mut samples = Vec::new();
    let white_result = loop {
        if let Some(result) = referee(&record, cfg.max_plies) {
            break result;
        }
        let pos = record.position();
        if let Some(result) = database_result(cfg, &pos) {
            break result;
        }
        let r = thinker.think(&record, &Limits::nodes(cfg.nodes), |_| {});
        let white = |score: i32| {
            if pos.side_to_move() == Color::White {
                score
            } else {
                -score
            }
        };
        let Some(mv) = r.best else {
            break white_result_of(pos.side_to_move().opponent());
        };
        if !has_capture(&pos) {
            samples.push(Sample {
                position: pos,
                game: game as u32,
                score: white(r.score).clamp(-WIN, WIN) as i16,
                result: 1,
            });
        }
        if is_decisive(r.score) {
            break if white(r.score) > 0 { 2 } else { 0 };
        }
        record.play(mv);
    };
    for s in &mut samples {
        s.result = white_result;
    }
    GameData {
        game,
        samples,
        plies: record.plies(),
        result: white_result,
    }
}

/// White's result of `pos` by the engine's endgame databases, when they hold it.
fn database_result(cfg: &SelfplayConfig, pos: &Position) -> Option<u8> {
    let mover = pos.side_to_move();
    Some(match cfg.engine.egdb.as_ref()?.probe(pos)? {
        Outcome::Win(_) => white_result_of(mover),
        Outcome::Loss(_) => white_result_of(mover.opponent()),
        Outcome::Draw => 1,
    })
}

/// White's result in training data when `winner` wins: 2, else 0 (1 is a draw).
fn white_result_of(winner: Color) -> u8 {
    if winner == Color::White { 2 } else { 0 }
}

/// The self-play referee: White's result (0 loss, 1 draw, 2 win) once the game is over
/// by the rules, or once it reached `max_plies` a draw (under Damka's `count-pieces`
/// house rule, the count: [`Game::adjudicated`]); `None` while it goes on.
pub fn referee(game: &Game, max_plies: usize) -> Option<u8> {
    let verdict = match game.verdict() {
        Verdict::Ongoing if game.plies() >= max_plies => game.adjudicated(),
        verdict => verdict,
    };
    match verdict {
        Verdict::Win(winner, _) => Some(white_result_of(winner)),
        Verdict::Draw(_) => Some(1),
        Verdict::Ongoing => (game.plies() >= max_plies).then_some(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(concurrency: usize) -> SelfplayConfig {
        SelfplayConfig {
            games: 4,
            shard: Shard::WHOLE,
            nodes: 300,
            concurrency,
            seed: 5,
            random_plies: 2,
            openings: crate::game::openings::default_openings(2),
            max_plies: 60,
            engine: EngineOptions {
                tt_mib: 1,
                ..EngineOptions::default()
            },
            rules: DrawRules::default(),
        }
    }

    fn collect(cfg: &SelfplayConfig) -> Vec<GameData> {
        let mut games = Vec::new();
        run(cfg, |g| games.push(g));
        games
    }

    #[test]
    fn games_are_reproducible_and_in_order() {
        let one = collect(&config(1));
        assert_eq!(one.iter().map(|g| g.game).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!(one, collect(&config(2)));
        for g in &one {
            assert!(!g.samples.is_empty());
            assert!(g.samples.iter().all(|s| !has_capture(&s.position)));
            assert!(g.samples.iter().all(|s| s.result == g.samples[0].result));
        }
    }

    #[test]
    fn slices_play_the_games_of_the_whole_run() {
        let whole = collect(&config(1));
        let mut sliced = Vec::new();
        for k in 1..=3 {
            let cfg = SelfplayConfig {
                shard: Shard::new(k, 3).unwrap(),
                ..config(2)
            };
            sliced.extend(collect(&cfg));
        }
        assert_eq!(sliced, whole);
    }

    #[test]
    fn referee_ends_at_the_cap_and_by_the_rules() {
        let mut game = Game::new(Position::start());
        assert_eq!(referee(&game, 1), None);
        game.play_text("22-19").ok();
        assert_eq!(referee(&game, 1), Some(1));
        let lost = Game::new(Position::parse("W:W:B1").unwrap_or_else(|_| Position::start()));
        assert_eq!(referee(&lost, 100), Some(0));
    }
}
