//! A whole match: openings, game scheduling over worker threads, statistics.
//!
//! Game `i` uses opening `i / 2` (cycling through the list) and gives White to engine
//! A when `i` is even, so each opening is played twice with colours reversed. Each
//! worker thread owns its own pair of engine processes.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use serde::Serialize;

use crate::board::Position;

use super::game::{GameRecord, GameSettings, ScheduledGame, Slot, play_game};
use super::stats::{GameOutcome, Pentanomial, Score, Sprt, SprtStatus, format_summary};
use super::time_use::TimeUse;
use crate::protocol::client::EngineSpec;
use crate::shard::Shard;

/// The SPRT decides nothing before this many complete game pairs: with very few
/// samples the regularized variance is tiny and the LLR jumps past a bound.
pub const MIN_SPRT_PAIRS: u64 = 10;

/// A match to run.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engine A and engine B.
    pub engines: [EngineSpec; 2],
    /// Start positions, in playing order.
    pub openings: Vec<Position>,
    /// Number of games to play (fewer if the SPRT stops the match).
    pub games: usize,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Per-game settings.
    pub settings: GameSettings,
    /// Optional sequential test; an unsliced match stops when it accepts a hypothesis.
    pub sprt: Option<Sprt>,
    /// The slice of the games played here (whole pairs; see
    /// [`super::results::slice_games`]); a sliced match plays all its games and leaves
    /// the test to the merge.
    pub shard: Shard,
}

impl MatchConfig {
    /// The games (0-based numbers) this run plays: its slice of the match.
    pub fn slice_games(&self) -> std::ops::Range<usize> {
        super::results::slice_games(self.games, self.shard)
    }

    /// The job for game `index` (0-based).
    pub fn job(&self, index: usize) -> ScheduledGame {
        let pair = index / 2;
        let n = self.openings.len().max(1);
        ScheduledGame {
            index,
            round: pair / n + 1,
            opening: self
                .openings
                .get(pair % n)
                .copied()
                .unwrap_or_else(Position::start),
            a_is_white: index.is_multiple_of(2),
        }
    }
}

/// Running totals, from engine A's point of view.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    /// Win/draw/loss counts.
    pub score: Score,
    /// Game-pair counts (complete pairs only).
    pub penta: Pentanomial,
    /// Current log-likelihood ratio, with an SPRT.
    pub llr: Option<f64>,
    /// SPRT decision, with an SPRT.
    pub status: Option<SprtStatus>,
    /// How many games ended for each reason.
    pub terminations: BTreeMap<String, u64>,
    /// The time engine A (`[0]`) and engine B (`[1]`) used for their moves.
    pub time_use: [TimeUse; 2],
    first_of_pair: HashMap<usize, GameOutcome>,
}

impl MatchReport {
    /// Adds a finished game.
    pub fn add(&mut self, rec: &GameRecord, sprt: Option<&Sprt>) {
        self.add_game(rec.job.index, rec.outcome, &rec.termination, sprt);
        self.add_time(&rec.time_use);
    }

    /// Adds the time engines A and B used in one game.
    pub fn add_time(&mut self, time_use: &[TimeUse; 2]) {
        for (total, game) in self.time_use.iter_mut().zip(time_use) {
            total.absorb(game);
        }
    }

    /// Adds game number `index` (0-based; games `2p` and `2p + 1` are a pair), its
    /// outcome for engine A and how it ended.
    pub fn add_game(
        &mut self,
        index: usize,
        outcome: GameOutcome,
        termination: &str,
        sprt: Option<&Sprt>,
    ) {
        self.score.record(outcome);
        *self
            .terminations
            .entry(termination.to_string())
            .or_insert(0) += 1;
        let pair = index / 2;
        match self.first_of_pair.remove(&pair) {
            Some(first) => self.penta.record_pair(first, outcome),
            None => {
                self.first_of_pair.insert(pair, outcome);
            }
        }
        if let Some(test) = sprt {
            let llr = test.llr_pentanomial(&self.penta);
            self.llr = Some(llr);
            // A sequential test decides once: the games still being played when it
            // stops the run count in the totals but do not undo the decision.
            if !self.is_decided() {
                self.status = Some(if self.penta.pairs() < MIN_SPRT_PAIRS {
                    SprtStatus::Continue
                } else {
                    test.status(llr)
                });
            }
        }
    }

    /// Whether the SPRT has accepted one of its hypotheses.
    pub fn is_decided(&self) -> bool {
        matches!(
            self.status,
            Some(SprtStatus::AcceptH0 | SprtStatus::AcceptH1)
        )
    }

    /// For a run the SPRT stopped whose games, added in another order than they
    /// finished in, never crossed a bound: the decision is the bound the ratio ended
    /// nearer (the games played after the crossing move it by a pair or two, never
    /// across the whole interval).
    pub fn settle_stopped(&mut self, test: &Sprt) {
        if let (false, Some(llr)) = (self.is_decided(), self.llr) {
            let middle = (test.lower_bound() + test.upper_bound()) / 2.0;
            self.status = Some(if llr < middle {
                SprtStatus::AcceptH0
            } else {
                SprtStatus::AcceptH1
            });
        }
    }

    /// One line: `W-D-L 3-2-1, 66.7 %, Elo: ... +/- ..., LOS: ... %[, LLR ...]`.
    pub fn line(&self, sprt: Option<&Sprt>) -> String {
        let s = &self.score;
        let pct = if s.games() > 0 {
            s.score() * 100.0
        } else {
            0.0
        };
        let test = sprt.zip(self.llr);
        format!(
            "W-D-L {}-{}-{}, {:.1} %, {}",
            s.wins,
            s.draws,
            s.losses,
            pct,
            format_summary(s.estimate(), s.los(), test)
        )
    }

    /// The JSON summary.
    pub fn summary(&self, cfg: &MatchConfig) -> Summary {
        let names = [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()];
        self.summary_of(names, cfg.sprt.as_ref())
    }

    /// The JSON summary of a match between `engines` under `sprt`.
    pub fn summary_of(&self, engines: [String; 2], sprt: Option<&Sprt>) -> Summary {
        let est = self.score.estimate();
        let finite = |x: f64| x.is_finite().then_some(x);
        Summary {
            engines,
            games: self.score.games(),
            wins: self.score.wins,
            draws: self.score.draws,
            losses: self.score.losses,
            score: (self.score.games() > 0).then(|| self.score.score()),
            elo: finite(est.elo),
            elo_error: finite(est.error),
            los: finite(self.score.los()),
            pentanomial: self.penta.counts,
            sprt: sprt.zip(self.llr).map(|(t, llr)| SprtSummary {
                elo0: t.elo0,
                elo1: t.elo1,
                llr,
                lower: t.lower_bound(),
                upper: t.upper_bound(),
                result: match self.status.unwrap_or(SprtStatus::Continue) {
                    SprtStatus::Continue => "continue",
                    SprtStatus::AcceptH0 => "H0",
                    SprtStatus::AcceptH1 => "H1",
                },
            }),
            terminations: self.terminations.clone(),
            time_use: self.time_use,
        }
    }
}

/// The final summary, as printed by `--json`. `null` Elo values are infinite or
/// undefined (e.g. a 100 % score).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Engine A and engine B names.
    pub engines: [String; 2],
    /// Games played.
    pub games: u64,
    /// Engine A wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Engine A losses.
    pub losses: u64,
    /// Engine A's score fraction.
    pub score: Option<f64>,
    /// Elo difference A − B.
    pub elo: Option<f64>,
    /// 95 % error bar of `elo`.
    pub elo_error: Option<f64>,
    /// Likelihood of superiority of A, in [0, 1].
    pub los: Option<f64>,
    /// Pair counts for pair scores 0, 0.5, 1, 1.5, 2.
    pub pentanomial: [u64; 5],
    /// SPRT state, when a test was given.
    pub sprt: Option<SprtSummary>,
    /// Games per termination reason.
    pub terminations: BTreeMap<String, u64>,
    /// Time per move of engine A and engine B (all zero for results files without it).
    pub time_use: [TimeUse; 2],
}

/// SPRT part of [`Summary`].
#[derive(Clone, Debug, Serialize)]
pub struct SprtSummary {
    /// H0 Elo.
    pub elo0: f64,
    /// H1 Elo.
    pub elo1: f64,
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower bound (accept H0).
    pub lower: f64,
    /// Upper bound (accept H1).
    pub upper: f64,
    /// `continue`, `H0` or `H1`.
    pub result: &'static str,
}

/// Runs the match; `on_game` sees every finished game (in finishing order) with the
/// totals so far. Returns the final totals.
pub fn run_match(
    cfg: &MatchConfig,
    on_game: &mut dyn FnMut(&GameRecord, &MatchReport),
) -> MatchReport {
    let games = cfg.slice_games();
    let next = AtomicUsize::new(games.start);
    let stop = AtomicBool::new(false);
    let (tx, rx) = crossbeam_channel::unbounded();
    let mut report = MatchReport::default();
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.clamp(1, games.len().max(1)) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || worker(cfg, next, stop, &tx));
        }
        drop(tx);
        for rec in rx {
            report.add(&rec, cfg.sprt.as_ref());
            on_game(&rec, &report);
            if cfg.shard.count == 1
                && matches!(
                    report.status,
                    Some(SprtStatus::AcceptH0 | SprtStatus::AcceptH1)
                )
            {
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
    report
}

fn worker(
    cfg: &MatchConfig,
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: &crossbeam_channel::Sender<GameRecord>,
) {
    let mut slots = [
        Slot::new(cfg.engines[0].clone()),
        Slot::new(cfg.engines[1].clone()),
    ];
    while !stop.load(Ordering::SeqCst) {
        let index = next.fetch_add(1, Ordering::SeqCst);
        if index >= cfg.slice_games().end {
            break;
        }
        let rec = play_game(&cfg.settings, &mut slots, cfg.job(index));
        if tx.send(rec).is_err() {
            break;
        }
    }
    for slot in &mut slots {
        slot.shutdown();
    }
}

/// Shuffles `items` with a seeded xorshift generator (Fisher–Yates).
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for i in (1..items.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

/// Today's date (UTC) as `YYYY.MM.DD`, for the PDN `Date` tag.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_pair_openings_with_reversed_colours() {
        use crate::clock::Limits;
        use crate::matchrun::game::Adjudication;
        let spec = EngineSpec {
            if_declared: Vec::new(),
            variant: crate::board::Variant::Italian,
            nodes: None,
            name: "x".into(),
            command: vec!["x".into()],
            options: vec![],
        };
        let cfg = MatchConfig {
            engines: [spec.clone(), spec],
            openings: crate::game::openings::default_openings(1),
            games: 20,
            concurrency: 1,
            settings: GameSettings {
                time_control: None,
                limits: Limits::default(),
                margin: std::time::Duration::ZERO,
                adjudication: Adjudication::default(),
                event: String::new(),
                date: String::new(),
            },
            sprt: None,
            shard: Shard::WHOLE,
        };
        let (j0, j1, j14) = (cfg.job(0), cfg.job(1), cfg.job(14));
        assert!(j0.a_is_white && !j1.a_is_white && j14.a_is_white);
        assert_eq!(j0.opening, j1.opening);
        assert_eq!(j0.opening, j14.opening);
        assert_ne!(j0.opening, cfg.job(2).opening);
        assert_eq!((j0.round, j14.round), (1, 2));
    }

    /// Game `index` of round 1 from the start position with `outcome`.
    fn game_record(index: usize, outcome: crate::matchrun::stats::GameOutcome) -> GameRecord {
        GameRecord {
            job: ScheduledGame {
                index,
                round: 1,
                opening: Position::start(),
                a_is_white: index.is_multiple_of(2),
            },
            outcome,
            termination: "t".into(),
            pdn: Default::default(),
            time_use: Default::default(),
        }
    }

    #[test]
    fn sprt_waits_for_enough_pairs() {
        use crate::matchrun::stats::GameOutcome;
        // Bounds far apart, so that won pairs decide within a few: 9 already pass the
        // upper bound (LLR 9 ln(s1 / s0) = 3.77 at 200 Elo), the 10th decides.
        let test = Sprt::new(0.0, 200.0, 0.05, 0.05).ok();
        let mut report = MatchReport::default();
        for index in 0..(2 * MIN_SPRT_PAIRS as usize) {
            let rec = game_record(index, GameOutcome::Win);
            assert_eq!(
                report.status.or(Some(SprtStatus::Continue)),
                Some(SprtStatus::Continue)
            );
            report.add(&rec, test.as_ref());
        }
        assert_eq!(report.penta.counts, [0, 0, 0, 0, MIN_SPRT_PAIRS]);
        assert_eq!(report.status, Some(SprtStatus::AcceptH1));
        assert_eq!(report.terminations.get("t"), Some(&(2 * MIN_SPRT_PAIRS)));
    }

    #[test]
    fn sprt_decision_stands_after_games_in_progress() {
        use crate::matchrun::stats::GameOutcome;
        let test = Sprt::new(0.0, 10.0, 0.05, 0.05).ok();
        let mut report = MatchReport::default();
        let mut index = 0;
        let mut add = |report: &mut MatchReport, outcome| {
            report.add(&game_record(index, outcome), test.as_ref());
            index += 1;
        };
        while !report.is_decided() {
            add(&mut report, GameOutcome::Loss);
            add(&mut report, GameOutcome::Draw);
        }
        assert_eq!(report.status, Some(SprtStatus::AcceptH0));
        let at_decision = report.llr;
        // The games still being played when the test stopped the run: two won pairs
        // bring the ratio back inside the bounds, the decision stays.
        for _ in 0..2 {
            add(&mut report, GameOutcome::Win);
            add(&mut report, GameOutcome::Win);
        }
        let (llr, lower) = (
            report.llr.unwrap_or(0.0),
            test.map_or(0.0, |t| t.lower_bound()),
        );
        assert!(
            llr > lower,
            "{at_decision:?} -> {llr} should be back inside"
        );
        assert_eq!(report.status, Some(SprtStatus::AcceptH0));
    }

    #[test]
    fn shuffle_is_deterministic_permutation() {
        let mut a: Vec<u32> = (0..20).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
        assert_ne!(a, (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
    }
}
