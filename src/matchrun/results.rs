//! Results files of match slices (`match --shard K/N --results R.json`) and their merge
//! (`match merge R*.json`): the games of every slice, added up in game order, give the
//! totals, pentanomial, Elo, LOS and SPRT of the whole run as one run would.
//!
//! A results file names its run (engines, openings, games, limits, rules, SPRT): only
//! slices of the same run merge, each slice once, each complete.

use serde::{Deserialize, Serialize};

use super::runner::{MatchConfig, MatchReport};
use super::stats::{GameOutcome, Sprt};
use super::time_use::TimeUse;
use crate::shard::Shard;

/// The `format` value of a results file.
pub const FORMAT: &str = "damiera match results";
/// The format version written and read.
pub const VERSION: u32 = 1;

/// What makes two slices parts of the same run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunKey {
    /// Engine A and engine B.
    pub engines: [EngineKey; 2],
    /// Number of openings, in playing order.
    pub openings: usize,
    /// A digest of the openings in playing order (hex).
    pub openings_digest: String,
    /// Games in the whole run.
    pub games: usize,
    /// Search limits (`10+0.1`, `nodes 3000`, ...).
    pub limits: String,
    /// Clock margin before a time forfeit, milliseconds.
    pub margin_ms: u64,
    /// Draw rules and adjudication.
    pub rules: String,
    /// The sequential test, if any: elo0, elo1, alpha, beta.
    pub sprt: Option<[f64; 4]>,
}

/// An engine as the run knows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineKey {
    /// Its name in the results.
    pub name: String,
    /// Program and arguments.
    pub command: Vec<String>,
    /// Parameters set on it.
    pub options: Vec<(String, String)>,
}

/// One finished game of a slice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// 0-based game number in the run.
    pub game: usize,
    /// Start position (PDN FEN).
    pub opening: String,
    /// Whether engine A had White.
    pub a_white: bool,
    /// Engine A's result: `win`, `draw` or `loss`.
    pub result: String,
    /// Why the game ended.
    pub termination: String,
    /// The time engines A and B used for their moves (absent in older files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_use: Option<[TimeUse; 2]>,
}

/// A results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The run this slice belongs to.
    pub run: RunKey,
    /// Which slice.
    pub shard: Shard,
    /// Whether the SPRT stopped this (unsliced) run before its last game.
    pub stopped_by_sprt: bool,
    /// Its games, in game order.
    pub games: Vec<GameResult>,
}

/// The name of an outcome in a results file.
pub fn outcome_name(outcome: GameOutcome) -> &'static str {
    match outcome {
        GameOutcome::Win => "win",
        GameOutcome::Draw => "draw",
        GameOutcome::Loss => "loss",
    }
}

fn outcome_of(name: &str) -> Option<GameOutcome> {
    match name {
        "win" => Some(GameOutcome::Win),
        "draw" => Some(GameOutcome::Draw),
        "loss" => Some(GameOutcome::Loss),
        _ => None,
    }
}

impl RunKey {
    /// The key of the run `cfg` is a slice of.
    pub fn of(cfg: &MatchConfig) -> RunKey {
        let engine = |i: usize| EngineKey {
            name: cfg.engines[i].name.clone(),
            command: cfg.engines[i].command.clone(),
            options: cfg.engines[i].options.clone(),
        };
        let digest = cfg.openings.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, p| {
            (h ^ p.key()).wrapping_mul(0x0000_0100_0000_01B3)
        });
        let s = &cfg.settings;
        RunKey {
            engines: [engine(0), engine(1)],
            openings: cfg.openings.len(),
            openings_digest: format!("{digest:016x}"),
            games: cfg.games,
            limits: s.describe_limits(),
            margin_ms: s.margin.as_millis() as u64,
            rules: format!(
                "repetitions {:?}, quiet moves {:?}, max moves {}, score adjudication {:?}",
                s.adjudication.rules.repetitions,
                s.adjudication.rules.quiet_moves,
                s.adjudication.max_moves,
                s.adjudication.score
            ),
            sprt: cfg.sprt.map(|t| [t.elo0, t.elo1, t.alpha, t.beta]),
        }
    }

    /// The test it runs, if any.
    pub fn sprt(&self) -> Option<Sprt> {
        self.sprt
            .and_then(|[e0, e1, a, b]| Sprt::new(e0, e1, a, b).ok())
    }

    /// The first field where `other` differs, by name.
    fn difference(&self, other: &RunKey) -> Option<&'static str> {
        if self.engines != other.engines {
            Some("engines")
        } else if (self.openings, &self.openings_digest) != (other.openings, &other.openings_digest)
        {
            Some("openings")
        } else if self.games != other.games {
            Some("number of games")
        } else if (&self.limits, self.margin_ms) != (&other.limits, other.margin_ms) {
            Some("limits")
        } else if self.rules != other.rules {
            Some("rules")
        } else if self.sprt != other.sprt {
            Some("SPRT")
        } else {
            None
        }
    }
}

/// The merged result of a run's slices.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The run.
    pub run: RunKey,
    /// Its totals, as one run would give them.
    pub report: MatchReport,
    /// Slices merged and slices in the run.
    pub slices: (u64, u64),
    /// Slices not given (only with `allow_missing`).
    pub missing: Vec<u64>,
}

/// Merges the results files `files` (name, contents) of one run. Every slice must be
/// there once and complete, unless `allow_missing` (then a missing slice is listed in
/// [`Merged::missing`], and the totals are those of the slices given).
pub fn merge(files: &[(String, ResultsFile)], allow_missing: bool) -> Result<Merged, String> {
    let Some((first_name, first)) = files.first() else {
        return Err("no results files".into());
    };
    let count = first.shard.count;
    let mut seen: Vec<Option<&str>> = vec![None; count as usize];
    for (name, file) in files {
        if file.format != FORMAT || file.version != VERSION {
            return Err(format!(
                "{name}: not a results file of this version ({:?} version {}; expected {FORMAT:?} version {VERSION})",
                file.format, file.version
            ));
        }
        if let Some(field) = first.run.difference(&file.run) {
            return Err(format!(
                "{name}: not the same run as {first_name} (the {field} differ)"
            ));
        }
        if file.shard.count != count {
            return Err(format!(
                "{name}: slice {} of a run cut into {} slices, {first_name} into {count}",
                file.shard, file.shard.count
            ));
        }
        let slot = &mut seen[(file.shard.index - 1) as usize];
        if let Some(other) = slot {
            return Err(format!(
                "{name}: slice {} is also in {other}; give each slice once",
                file.shard
            ));
        }
        *slot = Some(name);
        check_complete(name, file)?;
    }
    let missing: Vec<u64> = (1..=count)
        .filter(|k| seen[*k as usize - 1].is_none())
        .collect();
    if !missing.is_empty() && !allow_missing {
        let list: Vec<String> = missing.iter().map(|k| format!("{k}/{count}")).collect();
        return Err(format!(
            "missing slices: {} (re-run them with --shard, or merge with --partial)",
            list.join(", ")
        ));
    }
    let mut games: Vec<&GameResult> = files.iter().flat_map(|(_, f)| &f.games).collect();
    games.sort_by_key(|g| g.game);
    let sprt = first.run.sprt();
    let mut report = MatchReport::default();
    for g in games {
        let outcome = outcome_of(&g.result)
            .ok_or_else(|| format!("game {}: unknown result {:?}", g.game + 1, g.result))?;
        report.add_game(g.game, outcome, &g.termination, sprt.as_ref());
        if let Some(time_use) = &g.time_use {
            report.add_time(time_use);
        }
    }
    if let (Some(test), [(_, file)]) = (&sprt, files)
        && file.stopped_by_sprt
    {
        report.settle_stopped(test);
    }
    Ok(Merged {
        run: first.run.clone(),
        report,
        slices: (files.len() as u64, count),
        missing,
    })
}

/// Checks that a slice holds exactly its games (all of them, or the first ones of an
/// unsliced run the SPRT stopped).
fn check_complete(name: &str, file: &ResultsFile) -> Result<(), String> {
    let expected = slice_games(file.run.games, file.shard);
    let got: Vec<usize> = file.games.iter().map(|g| g.game).collect();
    let stopped = file.stopped_by_sprt && file.shard.count == 1;
    let complete = if stopped {
        got.iter().enumerate().all(|(i, &g)| i == g)
    } else {
        got.iter().copied().eq(expected.clone())
    };
    if complete {
        Ok(())
    } else {
        Err(format!(
            "{name}: slice {} should hold games {}..{} and holds {} games; re-run the slice",
            file.shard,
            expected.start + 1,
            expected.end,
            got.len()
        ))
    }
}

/// The games (0-based numbers) of slice `shard` in a run of `games`: whole pairs of
/// games (one opening, colours reversed), so each pair is in one slice.
pub fn slice_games(games: usize, shard: Shard) -> std::ops::Range<usize> {
    let pairs = shard.range(games.div_ceil(2) as u64);
    (2 * pairs.start as usize).min(games)..(2 * pairs.end as usize).min(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchrun::stats::SprtStatus;

    fn key() -> RunKey {
        let engine = |n: &str| EngineKey {
            name: n.into(),
            command: vec!["damiera".into()],
            options: vec![],
        };
        RunKey {
            engines: [engine("A"), engine("B")],
            openings: 2,
            openings_digest: "00ff".into(),
            games: 6,
            limits: "nodes 1000".into(),
            margin_ms: 100,
            rules: "r".into(),
            sprt: Some([0.0, 5.0, 0.05, 0.05]),
        }
    }

    fn slice(index: u64, count: u64, results: &[&str]) -> ResultsFile {
        let shard = Shard::new(index, count).unwrap();
        let games = slice_games(6, shard)
            .zip(results)
            .map(|(game, r)| GameResult {
                game,
                opening: String::new(),
                a_white: game % 2 == 0,
                result: r.to_string(),
                termination: "no legal move".into(),
                time_use: None,
            })
            .collect();
        ResultsFile {
            format: FORMAT.into(),
            version: VERSION,
            run: key(),
            shard,
            stopped_by_sprt: false,
            games,
        }
    }

    fn named(files: Vec<ResultsFile>) -> Vec<(String, ResultsFile)> {
        files
            .into_iter()
            .enumerate()
            .map(|(i, f)| (format!("r{i}.json"), f))
            .collect()
    }

    #[test]
    fn slices_are_whole_pairs() {
        let cut = |k, n| slice_games(7, Shard::new(k, n).unwrap());
        assert_eq!([cut(1, 2), cut(2, 2)], [0..4, 4..7]);
        assert_eq!([cut(1, 3), cut(2, 3), cut(3, 3)], [0..2, 2..4, 4..7]);
        assert_eq!(cut(5, 5), 6..7);
        assert_eq!(cut(1, 5), 0..0);
    }

    #[test]
    fn merged_slices_give_the_whole_runs_totals() {
        let whole = merge(
            &named(vec![slice(
                1,
                1,
                &["win", "draw", "loss", "win", "draw", "draw"],
            )]),
            false,
        )
        .unwrap();
        let parts = named(vec![
            slice(3, 3, &["draw", "draw"]),
            slice(1, 3, &["win", "draw"]),
            slice(2, 3, &["loss", "win"]),
        ]);
        let merged = merge(&parts, false).unwrap();
        assert_eq!(merged.report.score, whole.report.score);
        assert_eq!(merged.report.penta, whole.report.penta);
        assert_eq!(merged.report.llr, whole.report.llr);
        assert_eq!(merged.report.terminations, whole.report.terminations);
        assert_eq!(merged.report.penta.counts, [0, 0, 2, 1, 0]);
        assert_eq!(merged.slices, (3, 3));
    }

    #[test]
    fn a_run_the_sprt_stopped_keeps_its_decision_in_the_merge() {
        // Game order: two won pairs, then lost-drawn pairs up to just before the lower
        // bound. Finishing order had crossed it (the run stopped); game order never does.
        let test = key().sprt().unwrap();
        let mut results = vec!["win"; 4];
        let mut report = MatchReport::default();
        for (i, r) in results.iter().enumerate() {
            report.add_game(i, outcome_of(r).unwrap(), "t", Some(&test));
        }
        loop {
            let mut next = report.clone();
            let n = results.len();
            next.add_game(n, GameOutcome::Loss, "t", Some(&test));
            next.add_game(n + 1, GameOutcome::Draw, "t", Some(&test));
            if next.is_decided() {
                break;
            }
            (report, results) = (next, [results, vec!["loss", "draw"]].concat());
        }
        let mut file = slice(1, 1, &[]);
        file.games = (0..results.len())
            .map(|game| GameResult {
                game,
                opening: String::new(),
                a_white: game % 2 == 0,
                result: results[game].to_string(),
                termination: "t".into(),
                time_use: None,
            })
            .collect();
        let status = |stopped| {
            let mut f = file.clone();
            // Stopped: before its last game; not stopped: all of it.
            f.run.games = results.len() + if stopped { 100 } else { 0 };
            f.stopped_by_sprt = stopped;
            merge(&named(vec![f]), false).map(|m| m.report.status)
        };
        assert_eq!(status(true), Ok(Some(SprtStatus::AcceptH0)));
        assert_eq!(status(false), Ok(Some(SprtStatus::Continue)));
    }

    #[test]
    fn bad_merges_say_what_is_wrong() {
        let err = |files: Vec<ResultsFile>| merge(&named(files), false).unwrap_err();
        let a = slice(1, 2, &["win", "draw"]);
        let b = slice(2, 2, &["win", "draw", "loss", "loss"]);
        assert!(err(vec![a.clone()]).contains("missing slices: 2/2"));
        assert!(err(vec![a.clone(), a.clone(), b.clone()]).contains("also in r0.json"));
        let mut other = b.clone();
        other.run.games = 8;
        assert!(err(vec![a.clone(), other]).contains("number of games differ"));
        let mut short = b.clone();
        short.games.pop();
        assert!(err(vec![a.clone(), short]).contains("re-run the slice"));
        let mut odd = b.clone();
        odd.games[0].result = "won".into();
        assert!(err(vec![a.clone(), odd]).contains("unknown result"));
        assert!(err(vec![]).contains("no results"));
        let partial = merge(&named(vec![b]), true).unwrap();
        assert_eq!(
            (partial.missing.clone(), partial.report.score.games()),
            (vec![1], 4)
        );
    }
}
