//! `damiera match`: plays an engine-vs-engine match between two Hub engines.

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{ArgAction, Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use super::VariantArg;
use super::output::{TempFile, prepare};
use crate::board::{Position, Variant};
use crate::clock::{Limits, TimeControl};
use crate::game::openings::{BALLOTS_NAME, load_openings_in};
use crate::matchrun::game::{Adjudication, GameRecord, GameSettings, HANDSHAKE_TIMEOUT};
use crate::matchrun::results::{self, GameResult, ResultsFile, RunKey, outcome_name};
use crate::matchrun::runner::{MatchConfig, MatchReport, run_match, shuffle, today};
use crate::matchrun::stats::{Sprt, SprtStatus};
use crate::protocol::client::{EngineProc, EngineSpec, split_command};
use crate::shard::Shard;

const AFTER_HELP: &str = "\
Results are from the first engine's point of view. PDN results are written as 1-0,
0-1 and 1/2-1/2 (not the Italian 2-0, 1-1, 0-2) for compatibility with other tools;
GameType is the variant's (PDN 3.0 game type table): 22 Italian, 21 English, 23 Pool,
24 Spanish, 25 Russian, 26 Brazilian, 29 Czech, 31 Thai, 42 Damka. Both engines are told the
variant (set-param variant).

Draw rules: each variant's federation rules (see the README): threefold repetition
(--draw-repetition 3) and the move limit, --draw-moves N moves per side without a
capture or a man move (default: 40 Italian and English, 15 Russian, 25 Brazilian;
0 disables it), and for Russian and Brazilian their rules for small endings.

An engine that sends an illegal move, crashes, answers late or prints a malformed
line loses the game (PDN Termination tag says why) and is restarted.";

/// Arguments of `match`.
// The field docs are clap's help text, not Markdown: `<command>` is a placeholder.
#[allow(rustdoc::invalid_html_tags)]
#[derive(Args, Debug)]
#[command(after_help = AFTER_HELP, args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    /// `merge`: add up the results files of a run's slices.
    #[command(subcommand)]
    pub action: Option<MatchAction>,
    /// The game both engines play.
    #[command(flatten)]
    pub variant: VariantArg,
    /// Damka's house rules, sent to both engines (`house-rules`); with count-pieces a
    /// game stopped at --max-moves is counted.
    #[command(flatten)]
    pub house: super::HouseArg,
    /// An engine: cmd=<command> [name=<name>] [nodes=<n>] [option.<param>=<value>]..., as separate
    /// words (--engine cmd=./damiera name=A option.threads=2) or as one quoted argument
    /// split on blanks with '...' or "..." grouping (--engine "cmd='python3 e.py' name=B").
    /// Each engine's words start with cmd=. Give exactly two.
    #[arg(long, action = ArgAction::Append, num_args = 1.., value_name = "SPEC")]
    pub engine: Vec<String>,
    /// Start positions: one FEN (or Hub string) a line, or a .pdn file whose games
    /// (FEN tag plus moves) give them; `builtin:3ply` for every distinct position after
    /// 3 plies. Default (`builtin:ballots`): the 2,400 11-man ballots shipped with Damiera
    /// (Italian only; the other variants start from their start position by default).
    #[arg(long)]
    pub openings: Option<String>,
    /// Total number of games (each opening is played twice, colours reversed).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// Passes over the opening set (default 1 when --games is not given).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub rounds: Option<u64>,
    /// Games played at the same time, each with its own pair of engine processes.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: u64,
    /// Game clock: base+increment in seconds, e.g. 10+0.1 (default when no other limit).
    #[arg(long, value_parser = parse_tc)]
    pub tc: Option<(f64, f64)>,
    /// Fixed seconds per move.
    #[arg(long, value_parser = parse_seconds)]
    pub movetime: Option<f64>,
    /// Depth limit (plies) sent to the engines.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Node limit sent to the engines.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Extra milliseconds an engine may use beyond its clock before it forfeits (at most
    /// an hour).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=MAX_MARGIN_MS))]
    pub margin_ms: u64,
    /// Write the games to this PDN file (as they finish).
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Print the final summary as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Sequential test on game pairs: elo0=<e> elo1=<e> [alpha=0.05] [beta=0.05]; stops
    /// when decided (never before 10 complete pairs).
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Draw when the same position, same side to move, occurs N times (0 = off).
    #[arg(long, default_value_t = 3)]
    pub draw_repetition: u32,
    /// Draw after N moves per side without a capture or a man move (0 = off) [default:
    /// the variant's rule: 40 Italian and English, 15 Russian, 25 Brazilian].
    #[arg(long)]
    pub draw_moves: Option<u32>,
    /// Draw after N moves per side in all (0 = off).
    #[arg(long, default_value_t = 300)]
    pub max_moves: u32,
    /// Score (men) at or beyond which both engines' reports decide the game.
    #[arg(long, requires = "adjudicate_count", value_parser = parse_score)]
    pub adjudicate_score: Option<f64>,
    /// Consecutive moves of each engine needed for score adjudication.
    #[arg(long, requires = "adjudicate_score")]
    pub adjudicate_count: Option<u32>,
    /// Shuffle the openings with this seed (default: file order).
    #[arg(long)]
    pub seed: Option<u64>,
    /// No progress line.
    #[arg(long)]
    pub quiet: bool,
    /// PDN Event tag.
    #[arg(long, default_value = "Damiera match")]
    pub event: String,
    /// Play only slice K of N of the match (whole game pairs, e.g. 3/16); write its
    /// games with --results and add the slices up with `match merge`. A slice plays all
    /// its games (the SPRT is decided by the merge).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Write the games and the run's description to this JSON file (for `match merge`).
    #[arg(long, value_name = "R.json")]
    pub results: Option<PathBuf>,
}

/// Subcommands of `match`.
#[derive(Subcommand, Debug)]
pub enum MatchAction {
    /// Add up the results files of a run's slices (`match --shard K/N --results R.json`):
    /// W/D/L, pentanomial, Elo, LOS and SPRT as one run of all the games gives them.
    Merge(MergeArgs),
}

/// Arguments of `match merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Results files, one per slice, in any order.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Merge even when slices are missing (the totals are then those of the slices given).
    #[arg(long)]
    pub partial: bool,
    /// Print the summary as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Parses `base+inc` (seconds) or `base`.
pub fn parse_tc(text: &str) -> Result<(f64, f64), String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let base = parse_seconds(base)?;
    let inc = parse_seconds(inc)?;
    if base <= 0.0 {
        return Err(format!("bad time control {text:?}: base time must be > 0"));
    }
    Ok((base, inc))
}

/// The longest time a user may give on the command line, in seconds (about 11.6 days):
/// a larger one is a typo, and would not fit the runner's clocks.
pub const MAX_SECONDS: f64 = 1_000_000.0;

/// The largest `--margin-ms`: an hour.
pub const MAX_MARGIN_MS: u64 = 3_600_000;

/// Parses seconds: a finite number from 0 to [`MAX_SECONDS`].
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if (0.0..=MAX_SECONDS).contains(&v) => Ok(v),
        _ => Err(format!(
            "bad seconds {text:?}: expected a number from 0 to {MAX_SECONDS}"
        )),
    }
}

/// Parses a score in men for adjudication: a finite number from 0 to 100.
fn parse_score(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if (0.0..=100.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "bad score {text:?}: expected a number of men from 0 to 100"
        )),
    }
}

/// Groups the words given after `--engine` into one word list per engine: a value that
/// splits into `KEY=VALUE` words is a whole spec; any other value is one word; a new
/// engine starts at each `cmd=` word once the current one has its command.
pub fn group_engine_words(values: &[String]) -> Result<Vec<Vec<String>>, String> {
    let mut engines: Vec<Vec<String>> = Vec::new();
    for value in values {
        let split = split_command(value).map_err(|e| format!("--engine: {e}"))?;
        let words = if split.len() > 1 && split.iter().all(|w| is_spec_word(w)) {
            split
        } else {
            vec![value.clone()]
        };
        for word in words {
            let starts_engine = word.starts_with("cmd=");
            match engines.last_mut() {
                Some(current)
                    if !(starts_engine && current.iter().any(|w| w.starts_with("cmd="))) =>
                {
                    current.push(word)
                }
                _ => engines.push(vec![word]),
            }
        }
    }
    Ok(engines)
}

fn is_spec_word(word: &str) -> bool {
    word.split_once('=')
        .is_some_and(|(k, _)| ["cmd", "name", "nodes"].contains(&k) || k.starts_with("option."))
}

/// Parses one engine's words into a spec; `index` names it by default.
pub fn parse_engine(words: &[String], index: usize) -> Result<EngineSpec, String> {
    let mut spec = EngineSpec {
        name: format!("Engine{}", ["A", "B"].get(index).unwrap_or(&"X")),
        command: Vec::new(),
        options: Vec::new(),
        if_declared: Vec::new(),
        variant: crate::board::Variant::Italian,
        nodes: None,
    };
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return Err(format!("--engine: expected KEY=VALUE, got {word:?}"));
        };
        match key {
            "cmd" => spec.command = split_command(value).map_err(|e| format!("--engine: {e}"))?,
            "name" if !value.is_empty() => spec.name = value.to_string(),
            "nodes" => {
                let nodes = value.parse().ok().filter(|&n: &u64| n > 0);
                spec.nodes = Some(nodes.ok_or_else(|| {
                    format!("--engine: nodes={value:?} is not a positive whole number")
                })?);
            }
            _ => match key.strip_prefix("option.") {
                Some(param) if !param.is_empty() => {
                    spec.options.push((param.to_string(), value.to_string()))
                }
                _ => return Err(format!("--engine: unknown key {key:?}")),
            },
        }
    }
    if spec.command.is_empty() {
        return Err("--engine: missing cmd=<command line>".into());
    }
    Ok(spec)
}

/// Parses `--sprt` words into a test.
pub fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("--sprt: expected KEY=VALUE, got {word:?}"))?;
        let v: f64 = value
            .parse()
            .map_err(|_| format!("--sprt: bad number {value:?} for {key}"))?;
        match key {
            "elo0" => elo0 = Some(v),
            "elo1" => elo1 = Some(v),
            "alpha" => alpha = v,
            "beta" => beta = v,
            _ => return Err(format!("--sprt: unknown key {key:?}")),
        }
    }
    let (Some(e0), Some(e1)) = (elo0, elo1) else {
        return Err("--sprt: elo0 and elo1 are required".into());
    };
    Sprt::new(e0, e1, alpha, beta).map_err(|e| format!("--sprt: {e}"))
}

/// Builds the match configuration; `Err` is a usage error (exit status 2).
pub fn build_config(args: &MatchArgs) -> Result<MatchConfig, String> {
    let specs = group_engine_words(&args.engine)?
        .iter()
        .enumerate()
        .map(|(i, words)| parse_engine(words, i))
        .collect::<Result<Vec<_>, _>>()?;
    let settings = settings(args)?;
    let [mut a, mut b]: [EngineSpec; 2] = specs.try_into().map_err(|specs: Vec<EngineSpec>| {
        format!(
            "match needs exactly two engines (--engine cmd=...), got {}",
            specs.len()
        )
    })?;
    if a.name == b.name {
        b.name.push_str("-2");
    }
    // Engines that know the move limit search under the runner's (`draw-moves`).
    let moves = settings
        .adjudication
        .rules
        .quiet_moves
        .unwrap_or(0)
        .to_string();
    let house = args.house.rules(args.variant.variant).map_err(|e| e.0)?;
    for spec in [&mut a, &mut b] {
        spec.variant = args.variant.variant;
        spec.if_declared.push(("draw-moves".into(), moves.clone()));
        if !house.is_empty() {
            spec.options.push(("house-rules".into(), house.to_string()));
        }
    }
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let mut openings: Vec<Position> = openings(args)?
        .into_iter()
        .map(|pos| pos.with_house_rules(house))
        .collect();
    if let Some(seed) = args.seed {
        shuffle(&mut openings, seed);
    }
    let per_round = 2 * openings.len() as u64;
    let games = match (args.games, args.rounds) {
        (Some(g), Some(r)) => g.min(r.saturating_mul(per_round)),
        (Some(g), None) => g,
        (None, r) => r.unwrap_or(1).saturating_mul(per_round),
    };
    Ok(MatchConfig {
        engines: [a, b],
        openings,
        games: usize::try_from(games).unwrap_or(usize::MAX),
        concurrency: args.concurrency as usize,
        settings,
        sprt,
        shard: args.shard.unwrap_or_default(),
    })
}

/// The openings (by default the ballots in Italian, the start position in the other
/// variants); a PDN file's warnings and summary go to stderr.
fn openings(args: &MatchArgs) -> Result<Vec<Position>, String> {
    let variant = args.variant.variant;
    let name = match args.openings.as_deref() {
        Some(name) => name,
        None if variant == Variant::Italian => BALLOTS_NAME,
        None => return Ok(vec![Position::start_of(variant)]),
    };
    let (openings, read) =
        load_openings_in(name, variant).map_err(|e| format!("--openings {e}"))?;
    if let Some(read) = read {
        super::report_pdn(name, &read);
    }
    Ok(openings)
}

fn settings(args: &MatchArgs) -> Result<GameSettings, String> {
    let limits = Limits {
        move_time: args.movetime,
        depth: args.depth,
        nodes: args.nodes,
        ..Limits::default()
    };
    let time_control = match args.tc {
        None if limits == Limits::default() => Some(TimeControl::new(10.0, 0.1)),
        tc => tc.map(|(base, inc)| TimeControl::new(base, inc)),
    };
    let rules = super::variant_rules(args.variant.variant, args.draw_moves)
        .with_repetitions(args.draw_repetition)
        .map_err(|e| format!("--draw-repetition: {e}"))?;
    Ok(GameSettings {
        time_control,
        limits,
        margin: Duration::from_millis(args.margin_ms),
        adjudication: Adjudication {
            rules,
            max_moves: args.max_moves,
            score: args.adjudicate_score.zip(args.adjudicate_count),
        },
        event: args.event.clone(),
        date: today(),
    })
}

/// Starts and quits each engine once, so a wrong command fails fast.
fn check_engines(cfg: &MatchConfig) -> Result<(), String> {
    for spec in &cfg.engines {
        match EngineProc::start(spec, HANDSHAKE_TIMEOUT) {
            Ok(p) => p.quit(),
            Err(e) => return Err(format!("engine {}: {e}", spec.name)),
        }
    }
    Ok(())
}

fn progress_bar(args: &MatchArgs, total: usize) -> ProgressBar {
    if args.quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total as u64);
    if let Ok(style) = ProgressStyle::with_template("{pos}/{len} {msg}") {
        bar.set_style(style);
    }
    bar
}

/// Runs `damiera match`; prints errors as one line. Exit status: 0 done, 1 runtime
/// error (an engine that cannot start, an unwritable PDN file), 2 usage error.
pub fn main(args: &MatchArgs) -> ExitCode {
    if let Some(MatchAction::Merge(merge_args)) = &args.action {
        return match merge(merge_args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("match merge: {e}");
                ExitCode::from(2)
            }
        };
    }
    let cfg = match build_config(args) {
        Ok(cfg) => cfg,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match run(args, &cfg) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &MatchArgs, cfg: &MatchConfig) -> Result<(), String> {
    // The output files before any game: their missing folders are made, and a path that
    // cannot be written fails now rather than when the slice has played its games. The
    // results go to R.json.partial until complete (a results file there is a finished
    // slice); the PDN file is written as the games finish.
    let results_out = args
        .results
        .as_deref()
        .map(TempFile::partial)
        .transpose()
        .map_err(|e| e.0)?;
    if let Some(p) = &args.pdn {
        prepare(p).map_err(|e| e.0)?;
    }
    check_engines(cfg)?;
    let mut pdn = match &args.pdn {
        Some(p) => Some(File::create(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?),
        None => None,
    };
    let bar = progress_bar(args, cfg.slice_games().len());
    let mut write_error = None;
    let mut games = Vec::new();
    let timed = cfg.settings.time_control.is_some() || cfg.settings.limits.move_time.is_some();
    let mut report = run_match(cfg, &mut |rec: &GameRecord, rep: &MatchReport| {
        if let Some(file) = pdn.as_mut()
            && let Err(e) = writeln!(file, "{}", rec.pdn)
        {
            write_error.get_or_insert_with(|| e.to_string());
        }
        games.push(GameResult {
            game: rec.job.index,
            opening: rec.job.opening.to_fen(),
            a_white: rec.job.a_is_white,
            result: outcome_name(rec.outcome).into(),
            termination: rec.termination.clone(),
            // Wall-clock figures only where time limits the moves: a slice at fixed
            // nodes or depth run again gives the same bytes.
            time_use: timed.then_some(rec.time_use),
        });
        bar.inc(1);
        bar.set_message(rep.line(cfg.sprt.as_ref()));
    });
    bar.finish_and_clear();
    if !timed {
        // Thinking times at fixed nodes or depth are the machine's, not the match's: left
        // out, so the summary is what `match merge` of its slices prints.
        report.time_use = Default::default();
    }
    let names = [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()];
    print_summary(&names, cfg.sprt.as_ref(), &report);
    if let Some(out) = results_out {
        games.sort_by_key(|g| g.game);
        let stopped_by_sprt = games.len() < cfg.slice_games().len();
        let file = ResultsFile {
            format: results::FORMAT.into(),
            version: results::VERSION,
            run: RunKey::of(cfg),
            shard: cfg.shard,
            stopped_by_sprt,
            games,
        };
        write_results(out, &file)?;
    }
    if args.json {
        let json = serde_json::to_string(&report.summary(cfg)).map_err(|e| e.to_string())?;
        println!("{json}");
    }
    match write_error {
        Some(e) => Err(format!("writing PDN: {e}")),
        None => Ok(()),
    }
}

/// Writes a results file under its temporary name, then renames it: a results file
/// there is a finished slice.
fn write_results(mut out: TempFile, file: &ResultsFile) -> Result<(), String> {
    let json = serde_json::to_string_pretty(file).map_err(|e| e.to_string())?;
    out.write_all((json + "\n").as_bytes()).map_err(|e| e.0)?;
    out.commit().map_err(|e| e.0)
}

/// `match merge`: reads the slices' results files and prints the whole run's summary.
fn merge(args: &MergeArgs) -> Result<(), String> {
    let mut files = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        let file: ResultsFile = serde_json::from_str(&text)
            .map_err(|e| format!("{name}: not a match results file: {e}"))?;
        files.push((name, file));
    }
    let merged = results::merge(&files, args.partial)?;
    let names = [
        merged.run.engines[0].name.clone(),
        merged.run.engines[1].name.clone(),
    ];
    let sprt = merged.run.sprt();
    let (given, count) = merged.slices;
    eprintln!(
        "merged {given} of {count} slices: {} games of {}",
        merged.report.score.games(),
        merged.run.games
    );
    if !merged.missing.is_empty() {
        let list: Vec<String> = merged
            .missing
            .iter()
            .map(|k| format!("{k}/{count}"))
            .collect();
        eprintln!("missing slices: {}", list.join(", "));
    }
    print_summary(&names, sprt.as_ref(), &merged.report);
    if args.json {
        let summary = merged.report.summary_of(names, sprt.as_ref());
        let json = serde_json::to_string(&summary).map_err(|e| e.to_string())?;
        println!("{json}");
    }
    Ok(())
}

fn print_summary(names: &[String; 2], sprt: Option<&Sprt>, report: &MatchReport) {
    let [a, b] = names;
    eprintln!("{a} vs {b}: {} games", report.score.games());
    eprintln!("{}", report.line(sprt));
    eprintln!("Pentanomial (0, 0.5, 1, 1.5, 2): {:?}", report.penta.counts);
    match report.status {
        Some(SprtStatus::AcceptH0) => eprintln!("SPRT: H0 accepted"),
        Some(SprtStatus::AcceptH1) => eprintln!("SPRT: H1 accepted"),
        Some(SprtStatus::Continue) => eprintln!("SPRT: undecided"),
        None => {}
    }
    for (reason, n) in &report.terminations {
        eprintln!("  {n:>5}  {reason}");
    }
    for (name, time) in names.iter().zip(&report.time_use) {
        if time.moves > 0 {
            eprintln!("Time per move, {name}: {}", time.describe());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split('|').map(str::to_string).collect()
    }

    #[test]
    fn time_controls() {
        assert_eq!(parse_tc("10+0.1"), Ok((10.0, 0.1)));
        assert_eq!(parse_tc("5"), Ok((5.0, 0.0)));
        assert!(parse_tc("abc").is_err());
        assert!(parse_tc("0+1").is_err());
        assert!(parse_tc("-1+0").is_err());
        assert!(parse_tc("10+x").is_err());
        for huge in ["1e300", "1e300+0", "10+1e300", "inf", "1000001", "nan+0"] {
            assert!(parse_tc(huge).is_err(), "{huge}");
        }
        assert_eq!(parse_tc("1000000+1000000"), Ok((1e6, 1e6)));
        assert!(parse_seconds("1e300").is_err());
    }

    fn engine_words(values: &[&str]) -> Vec<Vec<String>> {
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        group_engine_words(&values).unwrap()
    }

    #[test]
    fn engine_specs() {
        let quoted = engine_words(&["cmd='python3 \"a b.py\" -x' name=Foo option.threads=2"]);
        let spec = parse_engine(&quoted[0], 0);
        let expected = EngineSpec {
            name: "Foo".into(),
            command: vec!["python3".into(), "a b.py".into(), "-x".into()],
            options: vec![("threads".into(), "2".into())],
            if_declared: Vec::new(),
            variant: crate::board::Variant::Italian,
            nodes: None,
        };
        assert_eq!(spec, Ok(expected.clone()));
        // The same as separate shell words, after `--engine cmd=... name=... option...`.
        let separate = engine_words(&["cmd=python3 'a b.py' -x", "name=Foo", "option.threads=2"]);
        assert_eq!(parse_engine(&separate[0], 0), Ok(expected));
        assert_eq!(
            parse_engine(&engine_words(&["cmd=x"])[0], 1).map(|s| s.name),
            Ok("EngineB".into())
        );
        assert!(parse_engine(&engine_words(&["name=Foo"])[0], 0).is_err());
        assert!(parse_engine(&engine_words(&["cmd=x", "bogus=1"])[0], 0).is_err());
        assert!(parse_engine(&engine_words(&["cmd=x", "option.=1"])[0], 0).is_err());
        assert!(parse_engine(&engine_words(&["cmd=x", "plain"])[0], 0).is_err());
        // Node odds: a positive whole number, or a clear error.
        let odds = engine_words(&["cmd=x", "nodes=2500"]);
        assert_eq!(parse_engine(&odds[0], 0).map(|s| s.nodes), Ok(Some(2500)));
        for bad in ["nodes=0", "nodes=-3", "nodes=1e3", "nodes="] {
            let err = parse_engine(&engine_words(&["cmd=x", bad])[0], 0).unwrap_err();
            assert!(err.contains("not a positive whole number"), "{bad}: {err}");
        }
    }

    #[test]
    fn engines_are_grouped_at_each_cmd() {
        let groups = engine_words(&["cmd=./a", "name=A", "cmd=./b", "option.threads=2"]);
        assert_eq!(
            groups,
            vec![
                vec!["cmd=./a".to_string(), "name=A".into()],
                vec!["cmd=./b".into(), "option.threads=2".into()]
            ]
        );
        let quoted = engine_words(&["cmd=./a name=A", "cmd='./b --x' name=B"]);
        assert_eq!(quoted.len(), 2);
    }

    #[test]
    fn sprt_words() {
        let t = parse_sprt(&words("elo0=0|elo1=5"));
        assert_eq!(t.map(|t| (t.elo1, t.alpha)), Ok((5.0, 0.05)));
        assert!(parse_sprt(&words("elo0=5|elo1=0")).is_err());
        assert!(parse_sprt(&words("elo0=0")).is_err());
        assert!(parse_sprt(&words("elo0=0|elo1=5|gamma=1")).is_err());
        assert!(parse_sprt(&words("elo0=0|elo1=x")).is_err());
    }
}
