//! `damiera egdb build|verify|info|probe`: the endgame databases from the command line.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Mutex;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::board::{Position, Variant};
use crate::egdb::{self, BuildEvent, Egdb, Material, Outcome};

use super::{CliError, VariantArg};

/// Arguments of `egdb`.
#[derive(Args, Debug)]
pub struct EgdbArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: EgdbAction,
}

/// Which game's databases, and where they live (default: `$XDG_DATA_HOME/damiera/egdb`
/// for Italian, its subdirectory named by the variant for the others).
#[derive(Args, Debug, Clone)]
pub struct DirArg {
    /// Database directory [default: $XDG_DATA_HOME/damiera/egdb, i.e. ~/.local/share/damiera/egdb, for Italian; egdb/english, egdb/russian, egdb/brazilian below it for the others].
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// The variant whose databases these are.
    #[command(flatten)]
    pub variant: VariantArg,
}

impl DirArg {
    fn path(&self) -> PathBuf {
        self.dir
            .clone()
            .unwrap_or_else(|| egdb::default_dir(self.variant()))
    }

    fn variant(&self) -> Variant {
        self.variant.variant
    }
}

/// The `egdb` subcommands.
#[derive(Subcommand, Debug)]
pub enum EgdbAction {
    /// Solve every class of up to N pieces by retrograde analysis (resumable: sound files
    /// already there are kept; each class is checked before it is written).
    Build {
        /// Most pieces on the board (2..=6 on one machine).
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=7))]
        pieces: u32,
        /// The database directory.
        #[command(flatten)]
        dir: DirArg,
        /// Threads [default: all cores].
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: Option<u64>,
        /// Solve only this class (four digits: white men, white kings, black men, black
        /// kings, White to move) and its colour flip; the classes it leads into must be in
        /// the directory already. One job of a distributed build.
        #[arg(long, value_parser = parse_class)]
        class: Option<Material>,
    },
    /// Re-check every stored value against its successors.
    Verify {
        /// The database directory.
        #[command(flatten)]
        dir: DirArg,
        /// Threads [default: all cores].
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: Option<u64>,
    },
    /// Classes, counts of wins, losses and draws, and sizes.
    Info {
        /// The database directory.
        #[command(flatten)]
        dir: DirArg,
    },
    /// Print random positions the databases call won for the side to move (no capture
    /// pending), one FEN a line: starts for conversion tests.
    Sample {
        /// The database directory.
        #[command(flatten)]
        dir: DirArg,
        /// Pieces on the board.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=24))]
        pieces: u32,
        /// How many positions.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        count: u64,
        /// Shortest win to accept, plies.
        #[arg(long, default_value_t = 1)]
        min_plies: u16,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The classes of one wave of a distributed build, one a line: those of exactly N
    /// pieces with M men in all (one of each colour pair, as `build --class` takes them).
    /// A wave needs the classes of fewer pieces and the earlier waves (fewer men) built;
    /// its classes can then be built at the same time (scripts/slurm/egdb-waves.sh).
    Classes {
        /// Pieces on the board.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=24))]
        pieces: u32,
        /// Men of both sides together [default: every wave, in build order].
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=24))]
        men: Option<u32>,
    },
    /// Look positions up: `win N`, `loss N`, `draw` (side to move's view) or `unknown`.
    Probe {
        /// The database directory.
        #[command(flatten)]
        dir: DirArg,
        /// Positions (FEN or Hub string); read one a line from stdin when none is given.
        positions: Vec<String>,
    },
}

fn threads_or_all(t: Option<u64>) -> usize {
    t.map(|t| t as usize).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

/// Runs an `egdb` subcommand.
pub fn run(args: &EgdbArgs, out: &mut impl Write) -> Result<(), CliError> {
    let io = |e: std::io::Error| CliError(format!("writing output: {e}"));
    match &args.action {
        EgdbAction::Build {
            pieces,
            dir,
            threads,
            class,
        } => build(*pieces, *class, dir, threads_or_all(*threads), out),
        EgdbAction::Verify { dir, threads } => verify(dir, threads_or_all(*threads), out),
        EgdbAction::Info { dir } => info(dir, out).map_err(io),
        EgdbAction::Classes { pieces, men } => classes(*pieces, *men, out).map_err(io),
        EgdbAction::Probe { dir, positions } => probe(dir, positions, out),
        EgdbAction::Sample {
            dir,
            pieces,
            count,
            min_plies,
            seed,
        } => sample(dir, *pieces, *count, *min_plies, *seed, out),
    }
}

/// Prints the classes of the wave of `pieces` pieces and `men` men, or of every wave of
/// `pieces` pieces in build order.
fn classes(pieces: u32, men: Option<u32>, out: &mut impl Write) -> std::io::Result<()> {
    let waves = match men {
        Some(m) => m..=m,
        None => 0..=pieces,
    };
    for m in waves {
        for class in Material::wave(pieces, m) {
            writeln!(out, "{}", class.name())?;
        }
    }
    Ok(())
}

fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {percent:>3}% {human_pos}/{human_len} positions, eta {eta} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar
}

fn parse_class(text: &str) -> Result<Material, String> {
    Material::from_name(text).ok_or_else(|| {
        format!("class '{text}' is not four digits (white men, white kings, black men, black kings) with a piece on each side")
    })
}

fn build(
    pieces: u32,
    class: Option<Material>,
    dirs: &DirArg,
    threads: usize,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let dir = &dirs.path();
    if let Some(c) = class
        && c.pieces() > pieces
    {
        return Err(CliError(format!(
            "egdb build: class {} has {} pieces, more than --pieces {pieces}",
            c.name(),
            c.pieces()
        )));
    }
    let io = |e: std::io::Error| CliError(format!("writing output: {e}"));
    let bar = progress_bar(0);
    let lines = Mutex::new(Vec::<String>::new());
    let on_event = |e: BuildEvent| match e {
        BuildEvent::Plan { positions, .. } => bar.set_length(positions),
        BuildEvent::Start(m) => bar.set_message(format!("class {m}")),
        BuildEvent::Progress(n) => bar.inc(n),
        BuildEvent::Kept(m) => {
            if let Ok(mut l) = lines.lock() {
                l.push(format!("kept {m}"));
            }
        }
        BuildEvent::Built {
            material,
            stats,
            bytes,
        } => {
            let line = format!(
                "built {} ({}): {} wins, {} losses, {} draws, longest win {} loss {} plies, {} bytes, {:.1} s",
                material.name(),
                material,
                stats.wins,
                stats.losses,
                stats.draws,
                stats.longest_win,
                stats.longest_loss,
                bytes,
                bar.elapsed().as_secs_f64()
            );
            // As each class is done: above the bar on a terminal, else a log line.
            if std::io::stderr().is_terminal() {
                bar.println(&line);
            } else {
                eprintln!("{line}");
            }
            if let Ok(mut l) = lines.lock() {
                l.push(line);
            }
        }
    };
    let result = egdb::build_classes(pieces, dirs.variant(), class, dir, threads, &on_event);
    bar.finish_and_clear();
    let summary = match result {
        Ok(s) => s,
        Err(e) => return Err(CliError(format!("egdb build: {e}"))),
    };
    if let Ok(l) = lines.lock() {
        for line in l.iter() {
            writeln!(out, "{line}").map_err(io)?;
        }
    }
    writeln!(
        out,
        "egdb build: {} {} pieces, {} classes built, {} kept, {} positions, {} bytes on disk, {:.1} s, peak memory {} MiB, {}",
        dirs.variant().name(),
        pieces,
        summary.built,
        summary.kept,
        summary.positions,
        summary.disk_bytes,
        summary.seconds,
        summary
            .peak_mib
            .map_or("unknown".to_string(), |m| m.to_string()),
        dir.display()
    )
    .map_err(io)
}

fn verify(dirs: &DirArg, threads: usize, out: &mut impl Write) -> Result<(), CliError> {
    let dir = &dirs.path();
    let io = |e: std::io::Error| CliError(format!("writing output: {e}"));
    let bar = progress_bar(0);
    let on_class = |m: Material, n: u64| {
        bar.set_message(format!("class {m}"));
        bar.set_length(bar.length().unwrap_or(0) + n);
    };
    let progress = |n| bar.inc(n);
    let report =
        egdb::verify_dir(dir, dirs.variant(), threads, &on_class, &progress).map_err(CliError)?;
    bar.finish_and_clear();
    for p in &report.problems {
        writeln!(out, "bad: {p}").map_err(io)?;
    }
    writeln!(
        out,
        "egdb verify: {} classes of {} sound, {} problems",
        report.sound,
        dirs.variant().name(),
        report.problems.len()
    )
    .map_err(io)?;
    if report.problems.is_empty() && report.sound > 0 {
        Ok(())
    } else if report.sound == 0 && report.problems.is_empty() {
        Err(CliError(format!(
            "egdb verify: no databases in {}",
            dir.display()
        )))
    } else {
        Err(CliError(format!(
            "egdb verify: {} problems",
            report.problems.len()
        )))
    }
}

fn info(dirs: &DirArg, out: &mut impl Write) -> std::io::Result<()> {
    let dir = &dirs.path();
    let db = match Egdb::open_for(dir, dirs.variant(), 1) {
        Ok(db) => db,
        Err(e) => return writeln!(out, "{e}"),
    };
    writeln!(
        out,
        "{:<6} {:<10} {:>12} {:>12} {:>12} {:>12} {:>6} {:>6} {:>12}",
        "class", "material", "positions", "wins", "losses", "draws", "win", "loss", "bytes"
    )?;
    let mut totals: Vec<[u64; 6]> = vec![[0; 6]; 25];
    for m in db.materials() {
        let Some(t) = db.table(m) else {
            writeln!(out, "{:<6} {:<10} unreadable", m.name(), m.to_string())?;
            continue;
        };
        let s = t.header.stats;
        writeln!(
            out,
            "{:<6} {:<10} {:>12} {:>12} {:>12} {:>12} {:>6} {:>6} {:>12}",
            m.name(),
            m.to_string(),
            t.header.positions,
            s.wins,
            s.losses,
            s.draws,
            s.longest_win,
            s.longest_loss,
            t.file_size()
        )?;
        let row = &mut totals[m.pieces() as usize];
        for (slot, v) in row.iter_mut().zip([
            1,
            t.header.positions,
            s.wins,
            s.losses,
            s.draws,
            t.file_size(),
        ]) {
            *slot += v;
        }
    }
    for (n, [classes, positions, wins, losses, draws, bytes]) in totals.iter().enumerate() {
        if *classes > 0 {
            writeln!(
                out,
                "{n} pieces: {classes} classes, {positions} positions, {wins} wins, {losses} losses, {draws} draws, {bytes} bytes"
            )?;
        }
    }
    writeln!(
        out,
        "{} classes of {} in {}",
        db.class_count(),
        dirs.variant().name(),
        dir.display()
    )
}

fn probe(dirs: &DirArg, positions: &[String], out: &mut impl Write) -> Result<(), CliError> {
    let variant = dirs.variant();
    let db =
        Egdb::open_for(&dirs.path(), variant, egdb::probe::DEFAULT_CACHE_MIB).map_err(CliError)?;
    let mut answer = |text: &str| -> Result<(), CliError> {
        let pos = Position::parse_in(variant, text.trim())
            .map_err(|e| CliError(format!("bad position '{}': {e}", text.trim())))?;
        let line = match db.probe(&pos) {
            Some(o) => outcome_text(o),
            None => "unknown".to_string(),
        };
        writeln!(out, "{line}").map_err(|e| CliError(format!("writing output: {e}")))
    };
    if positions.is_empty() {
        for line in std::io::stdin().lock().lines() {
            let line = line.map_err(|e| CliError(format!("reading stdin: {e}")))?;
            if !line.trim().is_empty() {
                answer(&line)?;
            }
        }
    } else {
        for p in positions {
            answer(p)?;
        }
    }
    Ok(())
}

fn sample(
    dirs: &DirArg,
    pieces: u32,
    count: u64,
    min_plies: u16,
    seed: u64,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let (dir, variant) = (&dirs.path(), dirs.variant());
    let db = Egdb::open_for(dir, variant, egdb::probe::DEFAULT_CACHE_MIB).map_err(CliError)?;
    let classes: Vec<Material> = db
        .materials()
        .into_iter()
        .filter(|m| m.pieces() == pieces && db.table(*m).is_some())
        .collect();
    if classes.is_empty() {
        return Err(CliError(format!(
            "egdb sample: no {pieces}-piece classes in {}",
            dir.display()
        )));
    }
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut found, mut tries) = (0, 0u64);
    while found < count {
        tries += 1;
        if tries > count * 100_000 {
            return Err(CliError(format!(
                "egdb sample: found only {found} won positions"
            )));
        }
        let m = classes[(next() % classes.len() as u64) as usize];
        let index = egdb::ClassIndex::new(m);
        let c = index.unindex(next() % index.size);
        let mut pos = c.position(variant);
        if next() % 2 == 1 {
            pos = flip(&pos);
        }
        if crate::movegen::has_capture(&pos) {
            continue;
        }
        if let Some(Outcome::Win(d)) = db.probe(&pos)
            && d >= min_plies
        {
            writeln!(out, "{}", pos.to_fen())
                .map_err(|e| CliError(format!("writing output: {e}")))?;
            found += 1;
        }
    }
    Ok(())
}

/// The same game with colours swapped and the board turned: Black to move.
fn flip(pos: &Position) -> Position {
    use crate::board::{Color, Piece, Square};
    let pieces: Vec<(Square, Piece)> = pos
        .piece_list()
        .into_iter()
        .filter_map(|(sq, p)| {
            let turned = Square::new(33 - sq.number())?;
            let color = p.color.opponent();
            Some((
                turned,
                Piece {
                    color,
                    king: p.king,
                },
            ))
        })
        .collect();
    Position::from_pieces(&pieces, Color::Black).with_variant(pos.variant())
}

/// `win N`, `loss N` or `draw`.
pub fn outcome_text(o: Outcome) -> String {
    o.text()
}
