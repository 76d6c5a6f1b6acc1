//! `damiera analyse`: batch analysis for scripts. Reads FEN lines or PDN games (a file or
//! stdin), searches each position, and writes one JSON object per line on stdout; progress
//! goes to stderr.

use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::board::{Move, Position};
use crate::matchrun::pdn::parse_pdn;
use crate::matchrun::replay::replay_game;
use crate::movegen::path_text;
use crate::search::score::{in_men, plies_to_end};
use crate::search::{
    Limits, SearchContext, SearchControl, SearchResult, Style, TranspositionTable, search,
};

use super::CliError;

/// Arguments of `analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// Input file: FEN (or Hub) positions one a line, or PDN games; stdin when omitted or `-`.
    pub input: Option<PathBuf>,
    /// Search depth per position (the default when no limit is given: 10).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Seconds per position.
    #[arg(long, value_parser = super::matchcmd::parse_seconds)]
    pub movetime: Option<f64>,
    /// Nodes per position.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub threads: u64,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub tt_size: u64,
    /// A played move losing at least this many men (against the best move) is a blunder.
    #[arg(long, default_value_t = 1.0, value_parser = super::matchcmd::parse_seconds)]
    pub blunder: f64,
    /// Weights file for the pattern evaluation (default: the built-in one).
    #[arg(long)]
    pub eval_file: Option<String>,
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
    /// Completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation, path form.
    pub pv: Vec<String>,
    /// For games: 1-based game number.
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

/// A position to analyse, with the game context when it comes from PDN.
struct Job {
    position: Position,
    history: Vec<u64>,
    game: Option<(usize, usize, Move)>,
}

/// Runs the analysis; errors (unreadable input, bad FEN, illegal PDN move) are one line.
pub fn run(args: &AnalyseArgs, out: &mut impl Write) -> Result<(), CliError> {
    let text = read_input(args.input.as_ref())?;
    let jobs = if looks_like_pdn(&text) {
        pdn_jobs(&text)?
    } else {
        fen_jobs(&text)?
    };
    let limits = limits(args);
    let tt = TranspositionTable::new(args.tt_size as usize);
    let control = SearchControl::new();
    let ctx = SearchContext {
        tt: &tt,
        control: &control,
        style: Style::FULL,
        threads: args.threads as usize,
    };
    let bar = progress(jobs.len());
    for job in &jobs {
        let analysis = analyse(job, &limits, &ctx, args.blunder);
        let line = serde_json::to_string(&analysis).map_err(|e| CliError(e.to_string()))?;
        writeln!(out, "{line}").map_err(|e| CliError(format!("cannot write output: {e}")))?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(())
}

fn read_input(path: Option<&PathBuf>) -> Result<String, CliError> {
    match path {
        Some(p) if p.as_os_str() != "-" => std::fs::read_to_string(p)
            .map_err(|e| CliError(format!("cannot read {}: {e}", p.display()))),
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .lock()
                .read_to_string(&mut text)
                .map_err(|e| CliError(format!("cannot read stdin: {e}")))?;
            Ok(text)
        }
    }
}

/// PDN has tag pairs or numbered moves; FEN lines have neither.
fn looks_like_pdn(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .any(|l| l.starts_with('[') || l.starts_with("1."))
}

fn fen_jobs(text: &str) -> Result<Vec<Job>, CliError> {
    text.as_bytes()
        .lines()
        .map_while(Result::ok)
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            Position::parse(&l)
                .map(|position| Job {
                    position,
                    history: Vec::new(),
                    game: None,
                })
                .map_err(|e| CliError(format!("line {}: {e}", i + 1)))
        })
        .collect()
}

fn pdn_jobs(text: &str) -> Result<Vec<Job>, CliError> {
    let games = parse_pdn(text).map_err(|e| CliError(e.to_string()))?;
    let mut jobs = Vec::new();
    for (g, game) in games.iter().enumerate() {
        let replay = replay_game(game, g + 1).map_err(|e| CliError(e.to_string()))?;
        let mut history: Vec<u64> = Vec::new();
        for (ply, (&position, &mv)) in replay.positions.iter().zip(&replay.moves).enumerate() {
            jobs.push(Job {
                position,
                history: history.clone(),
                game: Some((g + 1, ply + 1, mv)),
            });
            let king_move =
                position.piece_at(mv.from()).is_some_and(|p| p.king) && !mv.is_capture();
            if king_move {
                history.push(position.key())
            } else {
                history.clear()
            }
        }
    }
    Ok(jobs)
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
    limits
}

fn analyse(job: &Job, limits: &Limits, ctx: &SearchContext, blunder: f64) -> Analysis {
    let pos = &job.position;
    let result = search(pos, &job.history, limits, ctx, |_| {});
    let mut analysis = describe(pos, &result);
    if let Some((game, ply, played)) = job.game {
        let played_score = if Some(played) == result.best {
            result.score
        } else {
            let mut history = job.history.clone();
            history.push(pos.key());
            -search(&pos.play(played), &history, limits, ctx, |_| {}).score
        };
        let loss = (in_men(result.score) - in_men(played_score)).max(0.0);
        analysis.game = Some(game);
        analysis.ply = Some(ply);
        analysis.played = Some(path_text(pos, played));
        analysis.played_score = Some(round2(in_men(played_score)));
        analysis.loss = Some(round2(loss));
        analysis.blunder = Some(loss >= blunder);
    }
    analysis
}

fn describe(pos: &Position, r: &SearchResult) -> Analysis {
    let mut line_pos = *pos;
    let pv =
        r.pv.iter()
            .map(|&m| {
                let text = path_text(&line_pos, m);
                line_pos = line_pos.play(m);
                text
            })
            .collect();
    Analysis {
        fen: pos.to_fen(),
        best: r.best.map(|m| path_text(pos, m)),
        score: round2(in_men(r.score)),
        win_in: plies_to_end(r.score),
        depth: r.depth,
        nodes: r.nodes,
        pv,
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
