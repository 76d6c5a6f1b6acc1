//! The command-line tools: argument parsing and one module per subcommand.

pub mod analyse;
pub mod bench;
pub mod board_view;
pub mod book;
pub mod egdb;
pub mod engine_args;
pub mod gui;
pub mod matchcmd;
pub mod moves;
pub mod output;
pub mod perft;
pub mod play;
pub mod plot;
pub mod selfplay;
pub mod train;
pub mod tune;

use clap::{Args, Parser, Subcommand};

use crate::board::{HouseRule, HouseRules, Position, Variant};
use crate::game::pdn_file::PdnRead;
use crate::search::eval::EvalFile;

/// Damiera, a draughts engine for the 8x8 games: Italian (FID rules), English, Russian and
/// Brazilian. Without a subcommand it speaks the Hub protocol on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "damiera", version, about, long_about = None)]
pub struct Cli {
    /// What to do; the Hub protocol when omitted.
    #[command(subcommand)]
    pub command: Option<Tool>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Tool {
    /// Speak the Hub protocol on stdin/stdout (the default; see `protocol.md`).
    Hub,
    /// Count the leaves of the legal move tree (move generator check and speed test).
    Perft(perft::PerftArgs),
    /// List the legal moves of a position, one per line, sorted by their squares.
    Moves(moves::MovesArgs),
    /// Search fixed positions to a fixed depth; prints the node signature and speed.
    Bench(bench::BenchArgs),
    /// Play a game against the engine in the terminal.
    Play(play::PlayArgs),
    /// Analyse FEN lines or PDN games; one JSON object per position on stdout.
    ///
    /// A PDN game with a fault is repaired where its meaning is certain, else skipped;
    /// each is named on stderr, then a summary (games read, repaired, skipped). Exit
    /// status: 0 done, 2 error, 3 done but some PDN games were skipped.
    Analyse(analyse::AnalyseArgs),
    /// Fit the evaluation weights to the results of PDN games (Texel's method).
    ///
    /// A PDN game with a fault is repaired where its meaning is certain, else skipped;
    /// each is named on stderr, then a summary per file. Exit status: 0 done, 2 error,
    /// 3 done but some PDN games were skipped.
    Tune(tune::TuneArgs),
    /// Play self-play games and write their quiet positions as training data.
    Selfplay(selfplay::SelfplayArgs),
    /// Fit the pattern evaluation to training data; writes a weights file.
    Train(train::TrainArgs),
    /// Play an engine-vs-engine match between two Hub engines.
    Match(Box<matchcmd::MatchArgs>),
    /// Endgame databases: build, verify, info, probe.
    Egdb(egdb::EgdbArgs),
    /// Opening books: build (drop-out expansion), merge, import (PDN), probe.
    Book(book::BookArgs),
    /// Serve the web board (play and analyse in the browser) on a local port.
    Gui(gui::GuiArgs),
}

impl Tool {
    /// The `--eval-file` given to a subcommand that searches.
    pub fn eval_file(&self) -> Option<&str> {
        match self {
            Tool::Bench(a) => a.eval_file.as_deref(),
            Tool::Play(a) => a.eval_file.as_deref(),
            Tool::Analyse(a) => a.eval_file.as_deref(),
            Tool::Selfplay(a) => a.eval_file.as_deref(),
            _ => None,
        }
    }

    /// The game a subcommand that searches plays, which its `--eval-file` must be for.
    pub fn variant(&self) -> Variant {
        match self {
            Tool::Selfplay(a) => a.variant.variant,
            Tool::Play(a) => a.variant.variant,
            Tool::Analyse(a) => a.variant.variant,
            Tool::Bench(a) => a.variant.variant,
            _ => Variant::Italian,
        }
    }
}

/// Parses `--fen` text (PDN FEN or Hub position string) for clap, as Italian.
pub fn parse_position(text: &str) -> Result<Position, String> {
    Position::parse(text).map_err(|e| e.to_string())
}

/// Parses a `--variant` name for clap: the names of [`Variant::ALL`] (with their
/// aliases), which clap's help lists.
pub fn parse_variant() -> impl clap::builder::TypedValueParser<Value = Variant> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = Variant::ALL.map(|v| PossibleValue::new(v.name()).aliases(v.rules().aliases));
    PossibleValuesParser::new(values).try_map(|name| name.parse::<Variant>())
}

/// `--variant`, shared by every command that takes a position.
#[derive(Args, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VariantArg {
    /// The game. Positions and moves are read and written in its notation.
    #[arg(long, default_value = "italian", value_parser = parse_variant())]
    pub variant: Variant,
}

impl VariantArg {
    /// The position of a `--fen` text in this variant, or the variant's start.
    pub fn position(&self, fen: Option<&str>) -> Result<Position, CliError> {
        match fen {
            None => Ok(Position::start_of(self.variant)),
            Some(text) => Position::parse_in(self.variant, text)
                .map_err(|e| CliError(format!("--fen {text:?}: {e}"))),
        }
    }
}

/// `--house-rule NAME` (repeatable): Damka's house rules, for the commands that play or
/// count moves.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct HouseArg {
    /// A house rule of Damka (repeatable): no-compulsory-capture, huffing, stop-chain,
    /// last-man-backward, men-forward-only, count-pieces.
    #[arg(long = "house-rule", value_name = "NAME")]
    pub house_rule: Vec<String>,
}

impl HouseArg {
    /// The house rules given, checked against `variant`: an unknown name or a rule for
    /// another game than Damka is a one-line error.
    pub fn rules(&self, variant: Variant) -> Result<HouseRules, CliError> {
        let mut set = HouseRules::NONE;
        for name in &self.house_rule {
            let rule: HouseRule = name
                .parse()
                .map_err(|e| CliError(format!("--house-rule: {e}")))?;
            set = set.with(rule);
        }
        set.check_variant(variant)
            .map_err(|e| CliError(format!("--house-rule: {e}")))?;
        Ok(set)
    }

    /// The position of `--variant` and `--fen` under these house rules.
    pub fn position(&self, variant: &VariantArg, fen: Option<&str>) -> Result<Position, CliError> {
        let house = self.rules(variant.variant)?;
        Ok(variant.position(fen)?.with_house_rules(house))
    }
}

/// The draw rules of `variant` ([`crate::game::DrawRules::for_variant`]) with a
/// `--draw-moves` count if one was given.
pub fn variant_rules(variant: Variant, draw_moves: Option<u32>) -> crate::game::DrawRules {
    let rules = crate::game::DrawRules::for_variant(variant);
    draw_moves.map_or(rules, |moves| rules.with_quiet_moves(moves))
}

/// The exit status of `analyse` and `tune` when they did their work but left out PDN
/// games they could not read (each named on stderr; `match --openings` names them too).
pub const GAMES_SKIPPED: u8 = 3;

/// How a tool that reads PDN files ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every game of its files was read (some maybe repaired).
    Complete,
    /// Some games were skipped: exit status [`GAMES_SKIPPED`].
    GamesSkipped,
}

impl Reading {
    /// `GamesSkipped` when any of the reads skipped a game.
    pub fn of<'a>(reads: impl IntoIterator<Item = &'a PdnRead>) -> Reading {
        if reads.into_iter().all(PdnRead::complete) {
            Reading::Complete
        } else {
            Reading::GamesSkipped
        }
    }
}

/// Prints the warnings of a PDN file read and then its summary on stderr, each line
/// naming the file: `games.pdn: game 3, line 41: skipped: ...`, `games.pdn: 12 games
/// read (1 repaired), 1 skipped`.
pub fn report_pdn(name: &str, read: &PdnRead) {
    for line in pdn_report(name, read) {
        eprintln!("{line}");
    }
}

/// The lines [`report_pdn`] prints.
pub fn pdn_report(name: &str, read: &PdnRead) -> Vec<String> {
    let mut lines = read.warning_lines(name);
    lines.push(format!("{name}: {}", read.summary()));
    lines
}

/// An error to report on one line, with exit status 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Loads `--eval-file` when given (else the embedded weights); a bad file, or one made
/// for another game than `variant`, is a one-line error.
pub fn load_eval_file(path: Option<&str>, variant: Variant) -> Result<EvalFile, CliError> {
    let file = match path {
        Some(p) => EvalFile::load(p).map_err(|e| CliError(e.to_string()))?,
        None => return Ok(EvalFile::embedded()),
    };
    file.check_variant(variant)
        .map_err(|e| CliError(format!("--eval-file {}: {e}", file.name())))?;
    Ok(file)
}
