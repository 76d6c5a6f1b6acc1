//! Endgame databases: every position with few pieces solved exactly by retrograde
//! analysis, stored compressed, and probed by the search.
//!
//! - [`index`]: material classes and the dense index of a class's positions (White to
//!   move; Black to move is looked up by the colour flip).
//! - [`value`]: win / loss / draw with the distance to the end, a byte or two a position.
//! - [`build`]: the retrograde solver of one class.
//! - [`store`]: the compressed file of a class (blocks, index, version, checksums).
//! - [`probe`]: the databases of a directory, opened lazily, with a shared block cache.
//!
//! # Distances
//! The tables keep the distance to the end of the game (plies to the win under best play:
//! the winner takes the fastest win, the loser the slowest loss), across captures and
//! promotions. A search that follows falling distances cannot repeat a position and reaches
//! the win. The 40-move convention (80 plies without a capture or a man move) is not in the
//! tables; kings-only classes, where it bites first, last at most 74 plies with up to 6
//! pieces (`0303`), and 400 won 6-piece endings played out by the match runner under that
//! rule were all won in exactly their stored distance. One byte a position when
//! the class fits (up to 253 plies: every class up to 6 pieces, longest 244), else two.
//!
//! # Building on many machines (on paper)
//! The classes form a dependency graph: a class needs the classes its captures lead into
//! (one piece fewer) and those its promotions lead into (one man fewer, one king more), and
//! is solved together with its colour flip. With `n` pieces, all classes of the same piece
//! count and the same number of men are independent of each other. For 7–8 pieces
//! (about 3.4e10 and 4.0e11 positions, classes up to 1.4e9 and 1.5e10) on a batch system:
//!
//! - **Slurm**: one job array per (pieces, men) level, `--dependency=afterok` on the arrays
//!   of the levels it reads; array task `k` solves the `k`-th class pair of the level with
//!   `damiera egdb build --pieces N --class NAME --dir SHARED` (the pair solver is
//!   [`build::solve`]).
//!   Each task reads the table files of its exits from a shared file system (only the
//!   classes its captures and promotions reach: a few GiB), holds three bytes a position
//!   of its pair in memory (a 1.5e10-position class needs splitting by the position of the
//!   most advanced man, a sub-class whose men cannot move backwards), writes its two table
//!   files to a temporary name, runs the successor check ([`verify_table`]) and renames them
//!   into place; a failed task is simply rerun.
//! - **Ray**: one task per class pair, its inputs the object refs of the pairs it depends
//!   on; the driver submits the whole graph at once and Ray runs each task when its inputs
//!   exist, writing files to shared storage and returning only their checksums.
//!
//! Either way a job reads only finished, checksummed files and writes only its own.

pub mod build;
pub mod index;
pub mod probe;
pub mod store;
pub mod value;

use std::path::{Path, PathBuf};
use std::time::Instant;

pub use build::{Solved, SolvedTable, TableStats};
pub use index::{ClassIndex, Material};
pub use probe::Egdb;
pub use value::Outcome;

use crate::board::Variant;
use crate::movegen::{MoveList, generate_into};
use store::TableFile;

/// The default directory of a variant's databases: for Italian `$XDG_DATA_HOME/damiera/egdb`,
/// else `~/.local/share/damiera/egdb` (on Windows `%LOCALAPPDATA%\damiera\egdb`), as
/// before there were other variants; for the others the subdirectory of that named by the
/// variant (`.../damiera/egdb/russian`).
pub fn default_dir(variant: Variant) -> PathBuf {
    let italian = default_italian_dir();
    match variant {
        Variant::Italian => italian,
        other => italian.join(other.name()),
    }
}

fn default_italian_dir() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let base = if cfg!(windows) {
        var("LOCALAPPDATA").map(PathBuf::from)
    } else {
        var("XDG_DATA_HOME")
            .map(PathBuf::from)
            .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".local/share")))
    };
    base.unwrap_or_else(|| PathBuf::from("."))
        .join("damiera")
        .join("egdb")
}

/// The databases an engine plays `variant` with: those in `dir` when given (an error if
/// it cannot be read or holds another variant's tables), else those in [`default_dir`]
/// when it exists (none otherwise).
pub fn load(dir: Option<&Path>, variant: Variant) -> Result<Option<Egdb>, String> {
    match dir {
        Some(d) => Egdb::open_for(d, variant, probe::DEFAULT_CACHE_MIB).map(Some),
        None => {
            let d = default_dir(variant);
            if d.is_dir() {
                Egdb::open_for(&d, variant, probe::DEFAULT_CACHE_MIB).map(Some)
            } else {
                Ok(None)
            }
        }
    }
}

/// What a build reports as it goes.
#[derive(Debug)]
pub enum BuildEvent {
    /// The plan: classes and positions (White to move) in all.
    Plan {
        /// Classes to have at the end.
        classes: usize,
        /// Their positions.
        positions: u64,
    },
    /// A class pair starts.
    Start(Material),
    /// More positions done (seeding and checking each count once).
    Progress(u64),
    /// A class found on disk and kept.
    Kept(Material),
    /// A class solved, checked and written.
    Built {
        /// The class.
        material: Material,
        /// Its counts.
        stats: TableStats,
        /// Bytes on disk.
        bytes: u64,
    },
}

/// Totals of a build.
#[derive(Debug, Default)]
pub struct BuildSummary {
    /// Classes solved in this run.
    pub built: usize,
    /// Classes kept from earlier runs.
    pub kept: usize,
    /// Positions in all classes (White to move; each stands for both sides to move).
    pub positions: u64,
    /// Bytes on disk of all classes.
    pub disk_bytes: u64,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Peak resident memory of the process, MiB (Linux).
    pub peak_mib: Option<u64>,
}

/// Builds every class of up to `pieces` pieces of `variant` into `dir`, keeping sound
/// files already there. Each class is checked against its successors before it is
/// written. A directory holding another variant's tables is an error.
pub fn build_all(
    pieces: u32,
    variant: Variant,
    dir: &Path,
    threads: usize,
    on_event: &(dyn Fn(BuildEvent) + Sync),
) -> Result<BuildSummary, String> {
    build_classes(pieces, variant, None, dir, threads, on_event)
}

/// Like [`build_all`]; with `only`, solves just that class and its colour flip, reading
/// the classes it depends on from `dir` (one job of a distributed build).
pub fn build_classes(
    pieces: u32,
    variant: Variant,
    only: Option<Material>,
    dir: &Path,
    threads: usize,
    on_event: &(dyn Fn(BuildEvent) + Sync),
) -> Result<BuildSummary, String> {
    let start = Instant::now();
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Egdb::open_for(dir, variant, 1)?;
    let classes = Material::all_up_to(pieces);
    let positions = classes.iter().map(|&m| ClassIndex::new(m).size).sum();
    on_event(BuildEvent::Plan {
        classes: classes.len(),
        positions,
    });
    let mut summary = BuildSummary {
        positions,
        ..BuildSummary::default()
    };
    let mut solved = Solved::new();
    for &m in classes.iter().filter(|&&m| m <= m.flipped()) {
        let pair = pair_of(m);
        let kept: Option<Vec<TableFile>> = pair
            .iter()
            .map(|&c| {
                TableFile::open(&store::table_path(dir, c))
                    .ok()
                    .filter(|f| f.header.variant == variant)
            })
            .collect();
        let wanted = only.is_none_or(|o| pair.contains(&o));
        // A job of a distributed build reads only the classes its own may lead to, not
        // the whole directory (the other classes of its wave, say).
        let needed = only.is_none_or(|o| wanted || o.may_reach(m));
        if (kept.is_none() && !wanted) || !needed {
            continue;
        }
        if let Some(files) = kept {
            for f in files {
                summary.kept += 1;
                summary.disk_bytes += f.file_size();
                on_event(BuildEvent::Kept(f.header.material));
                on_event(BuildEvent::Progress(f.header.positions));
                solved.insert(f.read_all()?);
            }
            continue;
        }
        on_event(BuildEvent::Start(m));
        let progress = |n| on_event(BuildEvent::Progress(n / 2));
        let tables = build::solve(m, variant, &solved, threads, &progress)?;
        for t in tables {
            solved.insert(t);
        }
        for &c in &pair {
            let table = solved.get(c).ok_or("solved class missing")?;
            verify_table(table, &solved, threads, &progress)?;
            let stats = table.stats();
            let bytes = store::write_table(dir, table, &stats)?;
            summary.built += 1;
            summary.disk_bytes += bytes;
            on_event(BuildEvent::Built {
                material: c,
                stats,
                bytes,
            });
        }
    }
    summary.seconds = start.elapsed().as_secs_f64();
    summary.peak_mib = peak_memory_mib();
    Ok(summary)
}

/// A class and its colour flip (once when they are the same).
fn pair_of(m: Material) -> Vec<Material> {
    if m.flipped() == m {
        vec![m]
    } else {
        vec![m, m.flipped()]
    }
}

/// Checks every value of a table against its successors: a position without moves is
/// lost now, any other has the best value over its moves. Together with exact distances
/// this proves the table (a win needs a strictly shorter loss after it, and so on down).
pub fn verify_table(
    table: &SolvedTable,
    solved: &Solved,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(), String> {
    let n = table.index.size;
    let threads = threads.max(1) as u64;
    let chunk = n.div_ceil(threads).max(1);
    let results: Vec<Result<(), String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                scope.spawn(move || {
                    let range = (k * chunk).min(n)..((k + 1) * chunk).min(n);
                    let len = range.end - range.start;
                    let mut moves = MoveList::new();
                    table.index.walk(range, |i, c| {
                        check_position(table, solved, i, c, &mut moves)?;
                        if i % 65_536 == 65_535 {
                            progress(65_536);
                        }
                        Ok::<(), String>(())
                    })?;
                    progress(len % 65_536);
                    Ok(())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a check thread failed".into()))
            })
            .collect()
    });
    results.into_iter().collect()
}

fn check_position(
    table: &SolvedTable,
    solved: &Solved,
    i: u64,
    c: &index::Canonical,
    moves: &mut MoveList,
) -> Result<(), String> {
    let pos = c.position(table.variant);
    generate_into(&pos, moves);
    let mut best: Option<Outcome> = None;
    for &mv in moves.iter() {
        let o = solved.outcome(&pos.play(mv))?.before_move();
        if best.is_none_or(|b| o.preference() > b.preference()) {
            best = Some(o);
        }
    }
    let expected = best.unwrap_or(Outcome::Loss(0));
    let stored = Outcome::decode(table.values[i as usize]);
    if stored != Some(expected) {
        return Err(format!(
            "class {}: {} is stored as {:?}, its moves give {:?}",
            table.index.material,
            pos.to_fen(),
            stored,
            expected
        ));
    }
    Ok(())
}

/// What `verify_dir` found.
#[derive(Debug, Default)]
pub struct VerifyReport {
    /// Classes checked and sound.
    pub sound: usize,
    /// Problems, one line each.
    pub problems: Vec<String>,
}

/// Re-checks every stored value of every class in `dir` against its successors under the
/// rules of `variant` (its move generator); a directory of another variant is an error.
pub fn verify_dir(
    dir: &Path,
    variant: Variant,
    threads: usize,
    on_class: &(dyn Fn(Material, u64) + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<VerifyReport, String> {
    let db = Egdb::open_for(dir, variant, 1)?;
    let mut report = VerifyReport::default();
    let mut solved = Solved::new();
    let materials = db.materials();
    for &m in &materials {
        for c in pair_of(m) {
            if solved.contains(c) {
                continue;
            }
            let path = store::table_path(dir, c);
            match TableFile::open(&path).and_then(|f| f.read_all()) {
                Ok(t) if t.variant == variant => solved.insert(t),
                Ok(t) => report.problems.push(format!(
                    "{}: a {} table",
                    path.display(),
                    t.variant.title()
                )),
                Err(e) => report.problems.push(e),
            }
        }
        let Some(table) = solved.get(m) else {
            continue;
        };
        on_class(m, table.index.size);
        match verify_table(table, &solved, threads, progress) {
            Ok(()) => report.sound += 1,
            Err(e) => report.problems.push(e),
        }
    }
    Ok(report)
}

/// Peak resident memory of this process, MiB, where the system tells it.
pub fn peak_memory_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}
