//! `damiera analyse`: batch analysis for scripts. Reads FEN lines or PDN games (a file or
//! stdin), searches each position, and writes one JSON object per line on stdout; progress
//! goes to stderr.

use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::engine_args::EngineArgs;
use crate::board::{HouseRules, Move, Position, Variant};
use crate::clock::Limits;
use crate::engine::{EngineOptions, Thinker, load_databases};
use crate::game::pdn::{Fix, PdnGame, write_pdn};
use crate::game::pdn_file::{decode, read_recovering_in};
use crate::game::{DrawRules, Game};
use crate::movegen::{legal_moves, path_text};
use crate::search::SearchResult;
use crate::search::eval::EvalFile;
use crate::search::score::{database_plies, in_men, plies_to_end};

use super::output::TempFile;
use super::plot::{Target, svg};
use super::{CliError, Reading, VariantArg, pdn_report, variant_rules};
use crate::review::annotate::{annotate, annotator};
use crate::review::{Marks, PlyVerdict, played_score_from_lines};

/// Arguments of `analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// Input file: FEN (or Hub) positions one a line, or PDN games; stdin when omitted or `-`.
    pub input: Option<PathBuf>,
    /// The variant of FEN lines and of PDN games without a GameType tag (a game's
    /// GameType picks its own).
    #[command(flatten)]
    pub variant: VariantArg,
    /// Damka's house rules of the FEN lines (a PDN game's come from its HouseRules tag).
    #[command(flatten)]
    pub house: super::HouseArg,
    /// Search depth per position (the default when no limit is given: 10).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Seconds per position.
    #[arg(long, value_parser = super::matchcmd::parse_seconds)]
    pub movetime: Option<f64>,
    /// Nodes per position.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Endgame database directory [default: $XDG_DATA_HOME/damiera/egdb, used when present].
    #[arg(long)]
    pub egdb_path: Option<PathBuf>,
    /// The engine's settings (`--multipv K` reports K best moves per position, each in
    /// `lines` with its score and line).
    #[command(flatten)]
    pub engine: EngineArgs,
    /// The opening book.
    #[command(flatten)]
    pub book: super::book::BookArg,
    /// A played move losing at least this many men (against the best move) is a mistake
    /// (`?` in --annotate).
    #[arg(long, default_value_t = 0.3, value_parser = parse_men)]
    pub mistake: f64,
    /// A played move losing at least this many men (against the best move) is a blunder
    /// (`??` in --annotate).
    #[arg(long, default_value_t = 1.0, value_parser = parse_men)]
    pub blunder: f64,
    /// PDN input only: write the games to this PDN file with the score (White's view)
    /// after each move, `?`/`??` on mistakes/blunders and the engine's line after them.
    #[arg(long, value_name = "OUT.pdn")]
    pub annotate: Option<PathBuf>,
    /// PDN input only: draw the evaluation over each game as SVG: into FILE.svg (one
    /// game), or into a directory (one game-N.svg per game).
    #[arg(long, value_name = "FILE.svg|DIR")]
    pub plot: Option<PathBuf>,
    /// Weights file for the pattern evaluation (default: the built-in one).
    #[arg(long)]
    pub eval_file: Option<String>,
    /// Moves per side without a capture or a man move that draw (0: no limit); the
    /// search scores lines reaching the limit as draws, counting a game's moves too
    /// [default: the variant's rule: 40 Italian and English, 15 Russian, 25 Brazilian].
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub draw_moves: Option<u32>,
}

/// Parses a loss threshold in men (a number ≥ 0) for clap.
fn parse_men(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!(
            "bad number of men {text:?}: expected a number >= 0"
        )),
    }
}

/// One analysed position, as a JSON line.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The position (PDN FEN).
    pub fen: String,
    /// The best move (path form); null when the side to move has no move (lost).
    pub best: Option<String>,
    /// Score in men for the side to move.
    pub score: f64,
    /// Plies to the end when the score is a proven result (negative: losing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_in: Option<i32>,
    /// The result comes from the endgame databases (`win_in` is then their distance).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub egdb: bool,
    /// The move is the opening book's (`--book`; depth 0, no nodes, its book value).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub book: bool,
    /// Completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation, path form.
    pub pv: Vec<String>,
    /// With `--multipv N`: the best moves, best first, each with its score and line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<LineJson>>,
    /// For games: the game's 1-based number in the file (a skipped game leaves its
    /// number unused).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<usize>,
    /// For games: 1-based ply number within the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    /// For games: the move played (path form).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played: Option<String>,
    /// For games: the score of the played move, in men, for the side that played it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played_score: Option<f64>,
    /// For games: how much worse the played move is than the best, in men (≥ 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss: Option<f64>,
    /// For games: whether `loss` reaches the blunder threshold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blunder: Option<bool>,
}

/// One of the best moves of a position, as JSON.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct LineJson {
    /// The move (path form).
    #[serde(rename = "move")]
    pub mv: String,
    /// Score in men for the side to move.
    pub score: f64,
    /// Plies to the end when the score is a proven result (negative: losing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_in: Option<i32>,
    /// The line, path form, starting with the move.
    pub pv: Vec<String>,
}

/// A position to analyse, with the game context when it comes from PDN.
struct Task {
    /// The game up to the position (a lone position for FEN input).
    game: Game,
    /// For a game's move: the game's index in the read, its number in the file, the
    /// ply and the move played.
    played: Option<(usize, usize, usize, Move)>,
}

/// Runs the analysis; errors (unreadable input, bad FEN, unwritable output) are one
/// line. A PDN game that cannot be read is skipped, named on stderr, and the answer
/// says so. Files are written whole or not at all.
pub fn run(args: &AnalyseArgs, eval: &EvalFile, out: &mut impl Write) -> Result<Reading, CliError> {
    let bytes = read_input(args.input.as_ref())?;
    let text = decode(&bytes);
    let is_pdn = looks_like_pdn(&text);
    check_args(args, is_pdn)?;
    let (games, reading, report) = if is_pdn {
        read_games(args.input.as_ref(), &bytes, args)?
    } else {
        (Vec::new(), Reading::Complete, Vec::new())
    };
    let house = args.house.rules(args.variant.variant)?;
    let jobs = if is_pdn {
        pdn_jobs(&games)
    } else {
        fen_jobs(&text, args.variant.variant, house, rules(args))?
    };
    // Open the output files before the long part, so that a bad path fails at once.
    let annotated = args.annotate.as_deref().map(TempFile::create).transpose()?;
    let plot_target = args
        .plot
        .as_ref()
        .map(|p| Target::prepare(p, games.len()))
        .transpose()?;
    let limits = limits(args);
    let options = args.engine.apply(EngineOptions {
        weights: std::sync::Arc::clone(eval.weights()),
        egdb: load_databases(args.egdb_path.as_deref(), args.variant.variant).map_err(CliError)?,
        ..EngineOptions::default()
    });
    let options = args
        .book
        .apply(options.map_err(CliError)?, args.variant.variant)?;
    let engine = Thinker::new(options).map_err(CliError)?;
    // What the PDN reader found, once the arguments are known to work.
    for line in report {
        eprintln!("{line}");
    }
    let verdicts = analyse_all(&jobs, games.len(), &limits, args, &engine, out)?;
    let marks = Marks {
        mistake: args.mistake,
        blunder: args.blunder,
    };
    if let Some(mut file) = annotated {
        let pdn_games: Vec<PdnGame> = games
            .iter()
            .zip(&verdicts)
            .map(|(g, v)| {
                let mut pdn = annotate(&g.pdn, v, marks, &annotator(&budget(&limits)));
                let game_type = g.replay.start().variant().game_type().to_string();
                pdn.set_tag("GameType", &game_type);
                pdn
            })
            .collect();
        file.write_all(write_pdn(&pdn_games).as_bytes())?;
        file.commit()?;
    }
    if let Some(target) = plot_target {
        let charts: Vec<(usize, String)> = games
            .iter()
            .zip(&verdicts)
            .map(|(g, v)| svg(&g.pdn, v, marks).map(|chart| (g.number, chart)))
            .collect::<Result<_, _>>()?;
        target.write(&charts)?;
    }
    Ok(reading)
}

/// Option combinations that cannot work.
fn check_args(args: &AnalyseArgs, is_pdn: bool) -> Result<(), CliError> {
    if !is_pdn && (args.annotate.is_some() || args.plot.is_some()) {
        return Err(CliError(
            "--annotate and --plot need PDN games as input".to_string(),
        ));
    }
    if args.mistake > args.blunder {
        return Err(CliError(format!(
            "--mistake {} is above --blunder {}",
            args.mistake, args.blunder
        )));
    }
    Ok(())
}

/// Searches every task, writing its JSON line; returns the verdicts on the played moves,
/// one list per game.
fn analyse_all(
    jobs: &[Task],
    games: usize,
    limits: &Limits,
    args: &AnalyseArgs,
    engine: &Thinker,
    out: &mut impl Write,
) -> Result<Vec<Vec<PlyVerdict>>, CliError> {
    let bar = progress(jobs.len());
    let mut verdicts: Vec<Vec<PlyVerdict>> = vec![Vec::new(); games];
    for job in jobs {
        let (analysis, verdict) = analyse(job, limits, engine, args);
        let line = serde_json::to_string(&analysis).map_err(|e| CliError(e.to_string()))?;
        writeln!(out, "{line}").map_err(|e| CliError(format!("cannot write output: {e}")))?;
        if let (Some(v), Some((index, _, _, _))) = (verdict, job.played) {
            verdicts[index].push(v);
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(verdicts)
}

/// A PDN game with its legal replay.
struct ReadGame {
    /// Its number in the file.
    number: usize,
    pdn: PdnGame,
    replay: Game,
}

/// The games of a PDN file's bytes (any encoding other programs write; a game without
/// GameType is of `--variant`) that can be read, each replayed under its variant's
/// rules and `--draw-moves`, and the lines for stderr (the warnings and the summary). A file of which no game can be read is a one-line error
/// naming the first fault.
fn read_games(
    path: Option<&PathBuf>,
    bytes: &[u8],
    args: &AnalyseArgs,
) -> Result<(Vec<ReadGame>, Reading, Vec<String>), CliError> {
    let read = read_recovering_in(bytes, args.variant.variant);
    let name = match path {
        Some(p) if p.as_os_str() != "-" => p.display().to_string(),
        _ => "stdin".to_string(),
    };
    if read.games.is_empty()
        && let Some(first) = read.warnings.iter().find(|w| w.fix == Fix::Skipped)
    {
        return Err(CliError(format!(
            "{name}: no game could be read ({}): {first}",
            read.summary()
        )));
    }
    let report = pdn_report(&name, &read);
    let reading = Reading::of([&read]);
    let games = read
        .games
        .into_iter()
        .map(|g| {
            let mut replay = g.replay;
            replay.set_rules(variant_rules(replay.start().variant(), args.draw_moves));
            ReadGame {
                number: g.number,
                pdn: g.pdn,
                replay,
            }
        })
        .collect();
    Ok((games, reading, report))
}

fn read_input(path: Option<&PathBuf>) -> Result<Vec<u8>, CliError> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            std::fs::read(p).map_err(|e| CliError(format!("cannot read {}: {e}", p.display())))
        }
        _ => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(|e| CliError(format!("cannot read stdin: {e}")))?;
            Ok(bytes)
        }
    }
}

/// PDN has tag pairs or numbered moves; FEN lines have neither.
fn looks_like_pdn(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .any(|l| l.starts_with('[') || l.starts_with("1."))
}

fn fen_jobs(
    text: &str,
    variant: Variant,
    house: HouseRules,
    rules: DrawRules,
) -> Result<Vec<Task>, CliError> {
    text.as_bytes()
        .lines()
        .map_while(Result::ok)
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            Position::parse_in(variant, &l)
                .map(|position| Task {
                    game: Game::with_rules(position.with_house_rules(house), rules),
                    played: None,
                })
                .map_err(|e| CliError(format!("line {}: {e}", i + 1)))
        })
        .collect()
}

/// One job per move of every game: the position before it, with the game's history.
fn pdn_jobs(games: &[ReadGame]) -> Vec<Task> {
    let mut jobs = Vec::new();
    for (index, game) in games.iter().enumerate() {
        let mut so_far = Game::with_rules(game.replay.start(), game.replay.rules());
        for (ply, &mv) in game.replay.moves().iter().enumerate() {
            jobs.push(Task {
                game: so_far.clone(),
                played: Some((index, game.number, ply + 1, mv)),
            });
            so_far.play(mv);
        }
    }
    jobs
}

/// The draw rules of `--variant` and `--draw-moves`.
fn rules(args: &AnalyseArgs) -> DrawRules {
    variant_rules(args.variant.variant, args.draw_moves)
}

fn limits(args: &AnalyseArgs) -> Limits {
    let mut limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        move_time: args.movetime,
        ..Limits::default()
    };
    if limits == Limits::default() {
        limits.depth = Some(10);
    }
    // Scores are the point: a forced move gets a full search, not the instant reply.
    limits.analysis = true;
    limits
}

/// The search budget for the `Annotator` tag: `depth 10`, `5000 nodes` or `1 s`.
fn budget(limits: &Limits) -> String {
    match (limits.depth, limits.nodes, limits.move_time) {
        (Some(d), _, _) => format!("depth {d}"),
        (_, Some(n), _) => format!("{n} nodes"),
        (_, _, Some(t)) => format!("{t} s"),
        _ => String::new(),
    }
}

fn analyse(
    job: &Task,
    limits: &Limits,
    engine: &Thinker,
    args: &AnalyseArgs,
) -> (Analysis, Option<PlyVerdict>) {
    let pos = &job.game.position();
    let mut from_book = false;
    let result = engine.think(&job.game, limits, |info| from_book |= info.book);
    let mut analysis = describe(pos, &result, engine.options().multipv > 1);
    analysis.book = from_book;
    // A database draw scores 0 like any other draw: say where it came from.
    analysis.egdb |= engine
        .options()
        .egdb
        .as_ref()
        .is_some_and(|db| db.probe(pos).is_some());
    let Some((_, game, ply, played)) = job.played else {
        return (analysis, None);
    };
    let lines = result
        .lines
        .iter()
        .map(|l| (l.pv.first().copied(), l.score));
    let played_score = match played_score_from_lines(played, lines) {
        Some(score) => score,
        None => {
            let mut after = job.game.clone();
            after.play(played);
            -engine.think(&after, limits, |_| {}).score
        }
    };
    let verdict = PlyVerdict::new(*pos, result.score, result.pv.clone(), played_score);
    let loss = verdict.loss;
    analysis.game = Some(game);
    analysis.ply = Some(ply);
    analysis.played = Some(path_text(pos, played));
    analysis.played_score = Some(round2(in_men(played_score)));
    analysis.loss = Some(round2(loss));
    analysis.blunder = Some(loss >= args.blunder);
    (analysis, Some(verdict))
}

/// A line in path form; stops at a move that is not legal (never expected).
fn path_line(pos: &Position, pv: &[Move]) -> Vec<String> {
    let mut line_pos = *pos;
    let mut words = Vec::new();
    for &m in pv {
        if !legal_moves(&line_pos).contains(&m) {
            break;
        }
        words.push(path_text(&line_pos, m));
        line_pos = line_pos.play(m);
    }
    words
}

fn describe(pos: &Position, r: &SearchResult, with_lines: bool) -> Analysis {
    let lines = with_lines.then(|| {
        r.lines
            .iter()
            .map(|l| LineJson {
                mv: l.pv.first().map(|&m| path_text(pos, m)).unwrap_or_default(),
                score: round2(in_men(l.score)),
                win_in: plies_to_end(l.score).or(database_plies(l.score)),
                pv: path_line(pos, &l.pv),
            })
            .collect()
    });
    Analysis {
        fen: pos.to_fen(),
        best: r.best.map(|m| path_text(pos, m)),
        score: round2(in_men(r.score)),
        win_in: plies_to_end(r.score).or(database_plies(r.score)),
        egdb: database_plies(r.score).is_some(),
        book: false,
        depth: r.depth,
        nodes: r.nodes,
        pv: path_line(pos, &r.pv),
        lines,
        game: None,
        ply: None,
        played: None,
        played_score: None,
        loss: None,
        blunder: None,
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn progress(total: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total as u64);
    if let Ok(style) =
        ProgressStyle::with_template("analysing {pos}/{len} [{elapsed_precise}] {wide_bar}")
    {
        bar.set_style(style);
    }
    bar
}
