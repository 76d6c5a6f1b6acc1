//! `damiera book build|merge|import|probe`: opening books from the command line
//! (`docs/book.md`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};

use crate::board::{Color, Position, Variant};
use crate::book::key::book_key;
use crate::book::{Book, BookMove};
use crate::bookbuild::{self, BuildOptions, Sides, Tree};
use crate::engine::{EngineOptions, load_databases};
use crate::game::openings::load_openings_in;
use crate::game::pdn_file::read_file_in;
use crate::movegen::hub_text_in;
use crate::shard::Shard;

use super::{CliError, VariantArg, report_pdn};

/// Arguments of `book`.
#[derive(Args, Debug)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: BookAction,
}

/// The positions a book grows from.
#[derive(Args, Debug, Clone)]
pub struct RootArgs {
    /// The game.
    #[command(flatten)]
    pub variant: VariantArg,
    /// A root position (PDN FEN or Hub string, in the game's notation); repeatable
    /// [default: the game's start position].
    #[arg(long)]
    pub fen: Vec<String>,
    /// Roots from openings: a file of FEN lines or PDN games, `builtin:ballots`
    /// (Italian 11-man ballots) or `builtin:3ply`.
    #[arg(long)]
    pub openings: Option<String>,
}

impl RootArgs {
    fn roots(&self) -> Result<Vec<Position>, CliError> {
        let mut roots = Vec::new();
        for fen in &self.fen {
            roots.push(self.variant.position(Some(fen))?);
        }
        if let Some(name) = &self.openings {
            let (openings, _) = load_openings_in(name, self.variant.variant).map_err(CliError)?;
            roots.extend(openings);
        }
        if roots.is_empty() {
            roots.push(Position::start_of(self.variant.variant));
        }
        Ok(roots)
    }
}

/// The book side of a build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BookSide {
    /// Both sides' good moves.
    Both,
    /// White's good moves, every Black move.
    White,
    /// Black's good moves, every White move.
    Black,
}

/// The `book` subcommands.
#[derive(Subcommand, Debug)]
pub enum BookAction {
    /// Grow a book by drop-out expansion (resumes from FILE when it exists; writes it
    /// after every round).
    Build {
        /// The book file, read first when it exists and rewritten as the book grows.
        #[arg(short, long)]
        output: PathBuf,
        /// The roots.
        #[command(flatten)]
        roots: RootArgs,
        /// Depth of every leaf search.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=40))]
        depth: u32,
        /// Stop when the book holds this many positions (at the end of the round that
        /// reaches it: a multiple of --batch).
        #[arg(long, default_value_t = 1000)]
        positions: usize,
        /// Leaf searches at once.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Leaves expanded a round (the book depends on it, not on --threads).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=4096))]
        batch: u64,
        /// Priority cost of a ply, hundredths of a man.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(i32).range(1..=10000))]
        ply_cost: i32,
        /// Priority cost of a hundredth of a man below the best move, at the book side.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(i32).range(0..=100))]
        gap_weight: i32,
        /// At the book side, only moves this close to the best (hundredths of a man).
        #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(i32).range(0..=10000))]
        margin: i32,
        /// Whose good moves the book narrows to.
        #[arg(long, value_enum, default_value = "both")]
        side: BookSide,
        /// Deepest position expanded, plies from a root.
        #[arg(long, default_value_t = 40)]
        max_plies: usize,
        /// This run's slice, K/N: the trunk (--split-plies) in every slice, the
        /// positions below dealt out; `book merge` joins the slices' files.
        #[arg(long)]
        shard: Option<Shard>,
        /// Depth of the trunk every slice holds.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(0..=8))]
        split_plies: u64,
        /// Endgame database directory [default: $XDG_DATA_HOME/damiera/egdb, used when present].
        #[arg(long)]
        egdb_path: Option<PathBuf>,
        /// Weights file for the pattern evaluation (default: the built-in one).
        #[arg(long)]
        eval_file: Option<String>,
        /// Transposition table of each search thread, MiB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65536))]
        tt_size: u64,
        /// No progress lines on stderr.
        #[arg(long)]
        quiet: bool,
    },
    /// Join books (the slices of a build, or imports): the deepest search of each
    /// move, game counts added, values minimaxed again from the roots.
    Merge {
        /// The joined book.
        #[arg(short, long)]
        output: PathBuf,
        /// The books.
        #[arg(required = true)]
        books: Vec<PathBuf>,
        /// The roots the slices were built from.
        #[command(flatten)]
        roots: RootArgs,
    },
    /// A book of the games of PDN files: every move of their first plies, with the
    /// games it won, drew and lost.
    Import {
        /// The book.
        #[arg(short, long)]
        output: PathBuf,
        /// PDN files.
        #[arg(required = true)]
        pdn: Vec<PathBuf>,
        /// The game (a PDN game's GameType decides; games of other games are left out).
        #[command(flatten)]
        variant: VariantArg,
        /// Plies of each game counted.
        #[arg(long, default_value_t = 24)]
        plies: usize,
    },
    /// Check a book against fresh searches: every move within --margin of its
    /// position's best book move, searched again to --depth, must be within --margin of
    /// the best of all its position's moves searched the same way; prints the
    /// exceptions, then a summary.
    Verify {
        /// The book file.
        #[arg(long)]
        book: PathBuf,
        /// The roots the book was built from.
        #[command(flatten)]
        roots: RootArgs,
        /// Depth of the searches (of the positions after each move).
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=40))]
        depth: u32,
        /// Hundredths of a man: the moves checked, and the gap that makes an exception.
        #[arg(long, default_value_t = crate::engine::BOOK_MARGIN, value_parser = clap::value_parser!(i32).range(0..=1000))]
        margin: i32,
        /// Searches at once.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Only positions at most this many plies from a root [default: all].
        #[arg(long)]
        plies: Option<usize>,
        /// Also write the book with the fresh searches as its moves' searches, values
        /// minimaxed again (the checked positions deepened) to this file.
        #[arg(long)]
        refresh: Option<PathBuf>,
        /// Endgame database directory [default: $XDG_DATA_HOME/damiera/egdb, used when present].
        #[arg(long)]
        egdb_path: Option<PathBuf>,
    },
    /// The book moves of a position, best first.
    Probe {
        /// The book file.
        #[arg(long)]
        book: PathBuf,
        /// The position (in the book's game notation) [default: the game's start].
        #[arg(long)]
        fen: Option<String>,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Runs `damiera book ...`.
pub fn run(args: &BookArgs, out: &mut impl Write) -> Result<(), CliError> {
    let io = |e: std::io::Error| CliError(format!("error: {e}"));
    match &args.action {
        BookAction::Probe { book, fen, json } => probe(book, fen.as_deref(), *json, out),
        BookAction::Import {
            output,
            pdn,
            variant,
            plies,
        } => {
            let game = variant.variant;
            let mut reads = Vec::new();
            for path in pdn {
                let read = read_file_in(path, game).map_err(CliError)?;
                report_pdn(&path.display().to_string(), &read);
                reads.push(read);
            }
            let (book, report) = bookbuild::import::import(game, &reads, *plies);
            save(&book, output)?;
            writeln!(
                out,
                "{}: {} positions, {} moves from {} games ({} left out: another game or no result)",
                output.display(),
                book.positions(),
                book.entries().len(),
                report.games,
                report.left_out
            )
            .map_err(io)
        }
        BookAction::Merge {
            output,
            books,
            roots,
        } => {
            let mut read = Vec::new();
            for path in books {
                read.push(Book::open(path).map_err(|e| CliError(e.to_string()))?);
            }
            let book = bookbuild::merge(&read, &roots.roots()?).map_err(CliError)?;
            save(&book, output)?;
            writeln!(
                out,
                "{}: {} positions, {} moves",
                output.display(),
                book.positions(),
                book.entries().len()
            )
            .map_err(io)
        }
        BookAction::Build { .. } => build(&args.action, out),
        BookAction::Verify {
            book,
            roots,
            depth,
            margin,
            threads,
            plies,
            refresh,
            egdb_path,
        } => {
            let game = roots.variant.variant;
            let opened = Book::open_for(book, game).map_err(|e| CliError(e.to_string()))?;
            let mut tree = Tree::load(&opened, &roots.roots()?);
            let engine = EngineOptions {
                tt_mib: 16,
                egdb: load_databases(egdb_path.as_deref(), game).map_err(CliError)?,
                ..EngineOptions::default()
            };
            let started = Instant::now();
            let v = bookbuild::verify::verify(
                &tree,
                *depth,
                *margin,
                *threads as usize,
                &engine,
                plies.unwrap_or(usize::MAX),
            )
            .map_err(CliError)?;
            let text = |m| hub_text_in(game, m);
            for e in &v.exceptions {
                writeln!(
                    out,
                    "{} {}: book {}, fresh {}; best {} {} (gap {:.2})",
                    e.position.to_fen(),
                    text(e.mv),
                    men16(e.book),
                    men16(e.fresh),
                    e.best.0.map(text).unwrap_or_default(),
                    men16(e.best.1),
                    f64::from(e.best.1 - e.fresh) / 100.0
                )
                .map_err(io)?;
            }
            if let Some(path) = refresh {
                bookbuild::verify::refresh(&mut tree, &v);
                save(&tree.to_book(), path)?;
            }
            writeln!(
                out,
                "{}: {} positions, {} book moves within {:.2} checked at depth {}: {} exceptions; {} searches, {} nodes, {:.1} s",
                book.display(),
                v.positions,
                v.moves,
                f64::from(*margin) / 100.0,
                depth,
                v.exceptions.len(),
                v.searches,
                v.nodes,
                started.elapsed().as_secs_f64()
            )
            .map_err(io)
        }
    }
}

fn save(book: &Book, path: &Path) -> Result<(), CliError> {
    book.save(path)
        .map_err(|e| CliError(format!("{}: {e}", path.display())))
}

fn build(action: &BookAction, out: &mut impl Write) -> Result<(), CliError> {
    let BookAction::Build {
        output,
        roots,
        depth,
        positions,
        threads,
        batch,
        ply_cost,
        gap_weight,
        margin,
        side,
        max_plies,
        shard,
        split_plies,
        egdb_path,
        eval_file,
        tt_size,
        quiet,
    } = action
    else {
        return Ok(());
    };
    let game = roots.variant.variant;
    let root_positions = roots.roots()?;
    let eval = super::load_eval_file(eval_file.as_deref(), game)?;
    let engine = EngineOptions {
        tt_mib: *tt_size as usize,
        weights: std::sync::Arc::clone(eval.weights()),
        egdb: load_databases(egdb_path.as_deref(), game).map_err(CliError)?,
        ..EngineOptions::default()
    };
    let mut tree = if output.exists() {
        let book = Book::open_for(output, game).map_err(|e| CliError(e.to_string()))?;
        Tree::load(&book, &root_positions)
    } else {
        Tree::new(game, &root_positions)
    };
    let options = BuildOptions {
        depth: *depth,
        positions: *positions,
        threads: *threads as usize,
        batch: *batch as usize,
        ply_cost: *ply_cost,
        gap_weight: *gap_weight,
        margin: *margin,
        sides: match side {
            BookSide::Both => Sides::Both,
            BookSide::White => Sides::One(Color::White),
            BookSide::Black => Sides::One(Color::Black),
        },
        max_plies: *max_plies,
        shard: shard.unwrap_or(Shard::WHOLE),
        split_plies: *split_plies as usize,
        engine,
    };
    let started = Instant::now();
    let at_start = tree.nodes.len();
    let report = bookbuild::build(
        &mut tree,
        &options,
        |tree| {
            tree.to_book()
                .save(output)
                .map_err(|e| format!("{}: {e}", output.display()))
        },
        |r| {
            if !quiet {
                eprintln!(
                    "book: {} positions ({} new), {} searches, {} nodes, {:.0} s",
                    at_start + r.expanded,
                    r.expanded,
                    r.searches,
                    r.nodes,
                    started.elapsed().as_secs_f64()
                );
            }
        },
    )
    .map_err(CliError)?;
    let book = tree.to_book();
    save(&book, output)?;
    writeln!(
        out,
        "{}: {} positions, {} moves; this run: {} positions expanded, {} searches, {} nodes, {:.1} s",
        output.display(),
        book.positions(),
        book.entries().len(),
        report.expanded,
        report.searches,
        report.nodes,
        started.elapsed().as_secs_f64()
    )
    .map_err(|e| CliError(format!("error: {e}")))
}

/// A value in men, as the Hub writes scores.
fn men(value: i16) -> String {
    men16(i32::from(value))
}

/// [`men`] of a wider value.
fn men16(value: i32) -> String {
    format!("{:+.2}", f64::from(value) / 100.0)
}

/// The book moves of `position`, best first (by value, then games).
pub fn ranked(book: &Book, position: &Position) -> Vec<BookMove> {
    let mut moves = book.probe(position);
    moves.sort_by_key(|m| {
        (
            std::cmp::Reverse(m.entry.has_value().then_some(m.entry.value)),
            std::cmp::Reverse(m.entry.count),
        )
    });
    moves
}

fn probe(path: &Path, fen: Option<&str>, json: bool, out: &mut impl Write) -> Result<(), CliError> {
    let book = Book::open(path).map_err(|e| CliError(e.to_string()))?;
    let game: Variant = book.game();
    let position = VariantArg { variant: game }.position(fen)?;
    let moves = ranked(&book, &position);
    let io = |e: std::io::Error| CliError(format!("error: {e}"));
    if json {
        let list: Vec<serde_json::Value> = moves
            .iter()
            .map(|m| {
                let e = m.entry;
                let mut o = serde_json::json!({
                    "move": hub_text_in(game, m.mv),
                    "count": e.count,
                    "wins": e.wins,
                    "draws": e.draws(),
                    "losses": e.losses,
                });
                if e.has_value() {
                    o["value"] = serde_json::json!(f64::from(e.value) / 100.0);
                    o["search"] = serde_json::json!(f64::from(e.search) / 100.0);
                    o["depth"] = serde_json::json!(e.depth);
                }
                o
            })
            .collect();
        let doc = serde_json::json!({
            "game": game.name(),
            "fen": position.to_fen(),
            "key": format!("{:016x}", book_key(&position)),
            "moves": list,
        });
        return writeln!(out, "{doc}").map_err(io);
    }
    writeln!(
        out,
        "{} {} (key {:016x}): {} book moves",
        game.name(),
        position.to_fen(),
        book_key(&position),
        moves.len()
    )
    .map_err(io)?;
    for m in &moves {
        let e = m.entry;
        let mut line = format!("{:<12}", hub_text_in(game, m.mv));
        if e.has_value() {
            line += &format!(
                " value {}  search {} (depth {})",
                men(e.value),
                men(e.search),
                e.depth
            );
        }
        if e.count > 0 {
            line += &format!(
                "  games {} (+{} ={} -{})",
                e.count,
                e.wins,
                e.draws(),
                e.losses
            );
        }
        writeln!(out, "{}", line.trim_end()).map_err(io)?;
    }
    Ok(())
}

/// `--book`: the opening book of a command that plays (how its moves are chosen is the
/// engine's `--book-mode` and `--book-margin` settings).
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct BookArg {
    /// Opening book file (docs/book.md) the engine plays from before searching, or
    /// `embedded` for the book shipped for the game [default: none].
    #[arg(long)]
    pub book: Option<String>,
}

impl BookArg {
    /// `options` with this book (loaded here: a missing, damaged or foreign file, or a
    /// book of another game than `game`, is a one-line error).
    pub fn apply(&self, options: EngineOptions, game: Variant) -> Result<EngineOptions, CliError> {
        let book = match self.book.as_deref() {
            None | Some("off") => None,
            Some("embedded") => crate::book::embedded(game).map(std::sync::Arc::new),
            Some(path) => Some(std::sync::Arc::new(
                Book::open_for(Path::new(path), game).map_err(|e| CliError(e.to_string()))?,
            )),
        };
        Ok(EngineOptions { book, ..options })
    }
}
