//! `damiera selfplay`: self-play games written as training positions (see
//! [`crate::train::data`] for the format and [`crate::train::selfplay`] for the rules).

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::engine_args::EngineArgs;
use super::{CliError, VariantArg};
use crate::board::{Position, Variant};
use crate::engine::{EngineOptions, load_databases};
use crate::game::openings::{ballots, default_openings, default_openings_in, load_openings_read};
use crate::search::eval::EvalFile;
use crate::shard::Shard;
use crate::train::data::{encode, header};
use crate::train::selfplay::{SelfplayConfig, run as run_games};
use std::sync::Arc;

/// Transposition table size of each self-play game, MiB (unless --tt-size says).
const SELFPLAY_TT_MIB: usize = 8;

/// Arguments of `selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Output file for the training positions (written under a temporary name, renamed
    /// when complete: a file there is a finished run or slice).
    #[arg(long, short)]
    pub output: PathBuf,
    /// Games in the whole run (with --shard, the slices share them out).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub nodes: u64,
    /// Games played at once (threads).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub concurrency: u64,
    /// Seed of the opening choice and the random plies.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies after the opening: 0 up to this many.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: u32,
    /// Start positions besides the built-in 3-ply openings: files of FEN lines or PDN,
    /// or `builtin:ballots`. Default: the 2,400 11-man ballots shipped with Damiera.
    /// In the other variants the built-in openings are every position 4 plies after the
    /// start, and files given here must hold positions of the variant.
    #[arg(long)]
    pub openings: Vec<String>,
    /// The game the engines play.
    #[command(flatten)]
    pub variant: VariantArg,
    /// Damka's house rules; with count-pieces a game stopped at --max-plies is counted.
    #[command(flatten)]
    pub house: super::HouseArg,
    /// Play only slice K of N of the run's games (e.g. 3/16): the slices of a run, put
    /// one after the other, are byte for byte the file of the whole run (only slice 1
    /// has the header), and a slice re-run alone gives the same bytes again.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Plies after which a game is a draw.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub max_plies: u64,
    /// The engine's settings, both sides' (the table is 8 MiB unless --tt-size says
    /// otherwise: each game has its own).
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Weights file for the pattern evaluation (default: the built-in one).
    #[arg(long)]
    pub eval_file: Option<String>,
    /// Endgame database directory: the searches use its tables, and a game ends as soon
    /// as it reaches a position they hold, with their value as its result. Default: none
    /// (a run's data does not depend on what a machine has installed).
    #[arg(long, value_name = "DIR")]
    pub egdb_path: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Moves per side without a capture or a man move that draw a game (0: no limit);
    /// default: the variant's federation rules (Italian and English 40, Russian 15 moves
    /// of kings only and its endings, Brazilian 25 and the FMJD's endings).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub draw_moves: Option<u32>,
}

/// Plays the games, writes the file, prints the totals.
pub fn run(args: &SelfplayArgs, eval: &EvalFile, out: &mut impl Write) -> Result<(), CliError> {
    // The output's folders first: a slice into `gen3/part-00001.bin` makes `gen3/`, and
    // a path that cannot be written fails before any game.
    super::output::prepare(&args.output)?;
    let cfg = config(args, eval, openings(args)?)?;
    let shard = cfg.shard;
    let partial = partial_path(&args.output);
    let file = File::create(&partial)
        .map_err(|e| CliError(format!("cannot create {}: {e}", partial.display())))?;
    let mut writer = BufWriter::new(file);
    let io_err = |e: std::io::Error| CliError(format!("{}: {e}", partial.display()));
    if shard.is_first() {
        writer.write_all(&header()).map_err(io_err)?;
    }
    let games = shard.range(args.games);
    let bar = progress_bar(args, games.end - games.start);
    let start = Instant::now();
    let (mut positions, mut plies, mut failure) = (0u64, 0u64, None);
    let mut buf = Vec::new();
    run_games(&cfg, |game| {
        buf.clear();
        for s in &game.samples {
            encode(s, &mut buf);
        }
        if failure.is_none()
            && let Err(e) = writer.write_all(&buf)
        {
            failure = Some(e);
        }
        positions += game.samples.len() as u64;
        plies += game.plies as u64;
        bar.inc(1);
        bar.set_message(format!("{positions} positions"));
    });
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(io_err(e));
    }
    writer.flush().map_err(io_err)?;
    drop(writer);
    std::fs::rename(&partial, &args.output).map_err(|e| {
        CliError(format!(
            "cannot rename {} to {}: {e}",
            partial.display(),
            args.output.display()
        ))
    })?;
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let slice = match args.shard {
        Some(s) => format!(" (slice {s}: games {}..{})", games.start, games.end),
        None => String::new(),
    };
    writeln!(
        out,
        "selfplay: {} games{slice}, {plies} plies, {positions} positions in {secs:.1} s ({:.0} positions/hour) -> {}",
        games.end - games.start,
        positions as f64 * 3600.0 / secs,
        args.output.display()
    )
    .map_err(|e| CliError(e.to_string()))
}

/// The games to play as `args` say: each under its own federation's draw rules
/// ([`super::variant_rules`]: `--draw-moves` overrides the move limit only).
fn config(
    args: &SelfplayArgs,
    eval: &EvalFile,
    openings: Vec<Position>,
) -> Result<SelfplayConfig, CliError> {
    Ok(SelfplayConfig {
        games: args.games,
        shard: args.shard.unwrap_or_default(),
        nodes: args.nodes,
        concurrency: args.concurrency as usize,
        seed: args.seed,
        random_plies: args.random_plies,
        openings,
        max_plies: args.max_plies as usize,
        engine: args
            .engine
            .apply(EngineOptions {
                tt_mib: SELFPLAY_TT_MIB,
                weights: Arc::clone(eval.weights()),
                egdb: databases(args)?,
                ..EngineOptions::default()
            })
            .map_err(CliError)?,
        rules: super::variant_rules(args.variant.variant, args.draw_moves),
    })
}

/// The databases of `--egdb-path`, refused when the directory holds none of the game's.
fn databases(args: &SelfplayArgs) -> Result<Option<Arc<crate::egdb::Egdb>>, CliError> {
    let Some(dir) = args.egdb_path.as_deref() else {
        return Ok(None);
    };
    let variant = args.variant.variant;
    let db =
        load_databases(Some(dir), variant).map_err(|e| CliError(format!("--egdb-path: {e}")))?;
    match db {
        Some(db) if db.class_count() > 0 => Ok(Some(db)),
        _ => Err(CliError(format!(
            "--egdb-path {}: no {variant} endgame databases there",
            dir.display()
        ))),
    }
}

/// The start positions: the built-in ones of the variant and those of `--openings`.
fn openings(args: &SelfplayArgs) -> Result<Vec<Position>, CliError> {
    let variant = args.variant.variant;
    let mut openings = if variant == Variant::Italian {
        default_openings(3)
    } else {
        default_openings_in(variant, 4)
    };
    if args.openings.is_empty() && variant == Variant::Italian {
        openings.extend(ballots());
    }
    for name in &args.openings {
        let (more, read) =
            load_openings_read(name).map_err(|e| CliError(format!("--openings {e}")))?;
        if let Some(read) = read {
            super::report_pdn(name, &read);
        }
        if let Some(i) = more.iter().position(|p| p.variant() != variant) {
            return Err(CliError(format!(
                "--openings {name}: position {} is {}, not {variant}",
                i + 1,
                more[i].variant()
            )));
        }
        openings.extend(more);
    }
    let house = args.house.rules(variant)?;
    Ok(openings
        .into_iter()
        .map(|pos| pos.with_house_rules(house))
        .collect())
}

/// Where a run writes until it is complete: the output's name with `.partial` added.
fn partial_path(output: &std::path::Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

fn progress_bar(args: &SelfplayArgs, games: u64) -> ProgressBar {
    if args.quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games);
    if let Ok(style) = ProgressStyle::with_template(
        "selfplay {pos}/{len} games [{elapsed_precise}<{eta}] {wide_bar} {msg}",
    ) {
        bar.set_style(style);
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::DrawRules;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: SelfplayArgs,
    }

    fn config_of(words: &[&str]) -> SelfplayConfig {
        let cli = Cli::try_parse_from([&["selfplay", "-o", "x.bin"], words].concat())
            .unwrap_or_else(|e| panic!("{words:?}: {e}"));
        config(&cli.args, &EvalFile::embedded(), Vec::new()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Each game's self-play ends by its own federation's draw rules (Russian games once
    /// ended by the Italian ones), and `--draw-moves` changes only the move limit.
    #[test]
    fn each_game_plays_under_its_own_draw_rules() {
        for v in Variant::ALL {
            let rules = config_of(&["--variant", v.name()]).rules;
            assert_eq!(rules, DrawRules::for_variant(v), "{v}");
        }
        let russian = config_of(&["--variant", "russian", "--draw-moves", "20"]).rules;
        let want = DrawRules::for_variant(Variant::Russian).with_quiet_moves(20);
        assert_eq!(russian, want);
    }
}
