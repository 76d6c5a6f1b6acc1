//! The repository's Slurm job-array scripts (scripts/slurm/) submitted to a real Slurm:
//! a self-play run and a match, each in 4 slices, as a user submits them, and an
//! endgame-database build in waves. The slices put
//! one after the other are byte for byte one `selfplay` run, `train` on them writes the
//! same weights as on that run's file, and `match merge` of the slices prints what one
//! run of the match prints.
//!
//! Needs a Slurm that takes jobs on this machine (`sinfo` answering, a node idle):
//! `bash scripts/ci-slurm.sh` sets up one node (`.ci/run` runs it). Without one the test
//! says so loudly and is skipped, or fails under CI=true (or DAMIERA_SLURM=1).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_damiera");
const SLICES: usize = 4;

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn text(p: &Path) -> String {
    p.display().to_string()
}

fn damiera(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run damiera");
    assert!(
        out.status.success(),
        "damiera {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Why Slurm cannot take the test's jobs here, if it cannot.
fn slurm_missing() -> Option<String> {
    match Command::new("sinfo")
        .args(["-h", "-N", "-o", "%T"])
        .output()
    {
        Err(e) => Some(format!("no sinfo ({e}): Slurm is not installed")),
        Ok(out) if !out.status.success() => Some(format!(
            "sinfo fails: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Ok(out) => {
            let states = String::from_utf8_lossy(&out.stdout).to_string();
            let up = states.lines().any(|s| {
                ["idle", "mixed", "allocated", "completing"]
                    .iter()
                    .any(|u| s.starts_with(u))
            });
            (!up).then(|| format!("no Slurm node takes jobs (sinfo: {:?})", states.trim()))
        }
    }
}

/// Submits `script` as a job array of [`SLICES`] tasks from `dir`, with `env` added to
/// the environment that sbatch passes on to the job; returns the job id.
fn submit(dir: &Path, script: &str, env: &[(&str, String)]) -> String {
    // One CPU a task (the match's header asks for two, for its two games at a time):
    // the test's match plays one game at a time, and its slices then run side by side.
    let out = Command::new("sbatch")
        .args([
            "--parsable",
            "--cpus-per-task=1",
            &format!("--array=1-{SLICES}"),
            &text(&repo(script)),
        ])
        .envs(env.iter().map(|(k, v)| (k, v)))
        .env("DAMIERA", BIN)
        .current_dir(dir)
        .output()
        .expect("run sbatch");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "sbatch {script}: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout.trim().split(';').next().unwrap().to_string()
}

/// Waits until the job array `id` of [`SLICES`] tasks has left the queue, then checks
/// that every task completed with exit status 0.
fn wait(dir: &Path, id: &str, limit: Duration) {
    wait_tasks(dir, id, SLICES, limit)
}

/// Waits until the job array `id` has left the queue, then checks that its `tasks`
/// tasks completed with exit status 0 (the slurm-ID_K.out files of a failed one are
/// shown). `sbatch --wait` does the same, but polls after 2, 10 and then 42 s: too slow
/// here.
fn wait_tasks(dir: &Path, id: &str, tasks_wanted: usize, limit: Duration) {
    let start = Instant::now();
    loop {
        let out = Command::new("squeue")
            .args(["-h", "-j", id, "-o", "%i %T"])
            .output()
            .expect("run squeue");
        let queued = String::from_utf8_lossy(&out.stdout).to_string();
        if out.status.success() && queued.trim().is_empty() {
            break;
        }
        assert!(
            start.elapsed() < limit,
            "job {id} still queued after {limit:?}: {queued}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    let out = Command::new("scontrol")
        .args(["-o", "show", "job", id])
        .output()
        .expect("run scontrol");
    let tasks = String::from_utf8_lossy(&out.stdout).to_string();
    let done = tasks
        .lines()
        .filter(|t| t.contains(" JobState=COMPLETED ") && t.contains(" ExitCode=0:0 "))
        .count();
    if done != tasks_wanted {
        let logs: String = (1..=tasks_wanted)
            .map(|k| {
                let log = dir.join(format!("slurm-{id}_{k}.out"));
                format!(
                    "--- {}:\n{}",
                    log.display(),
                    std::fs::read_to_string(&log).unwrap_or_default()
                )
            })
            .collect();
        panic!("job {id}: {done} of {tasks_wanted} tasks completed:\n{tasks}\n{logs}");
    }
}

/// Whether Slurm takes jobs here; if not, says so (the test is then skipped) or fails
/// under DAMIERA_SLURM=1.
fn slurm_ready(test: &str) -> bool {
    let Some(reason) = slurm_missing() else {
        return true;
    };
    let insist = std::env::var("DAMIERA_SLURM").is_ok_and(|v| v == "1");
    assert!(!insist, "DAMIERA_SLURM=1 but {reason}");
    support::skip(
        test,
        &format!("{reason} (bash scripts/ci-slurm.sh starts a one-node Slurm)"),
    );
    false
}

#[test]
fn job_arrays_give_one_runs_files() {
    if !slurm_ready("job_arrays_give_one_runs_files") {
        return;
    }
    let start = Instant::now();
    // Slurm runs the jobs as root from this folder; the scripts make gen/ and results/.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("slurm");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let no_egdb = dir.join("no-egdb");
    std::fs::create_dir_all(&no_egdb).unwrap();

    // Self-play: 40 English games at 300 nodes in 4 slices.
    let selfplay_env = [
        ("SLICES", SLICES.to_string()),
        ("GAMES", "40".into()),
        ("NODES", "300".into()),
        ("SEED", "4".into()),
        ("VARIANT", "english".into()),
        ("OUT", "gen".into()),
    ];
    // A match at fixed nodes, the learned evaluation against the hand-made one, without
    // endgame databases: 16 games (8 pairs, fewer than the SPRT's first look at 10).
    let engine = |name: &str, style: &str| {
        format!(
            "cmd={BIN} name={name} option.egdb-path={} option.style={style}",
            text(&no_egdb)
        )
    };
    let match_env = [
        ("SLICES", SLICES.to_string()),
        ("GAMES", "16".into()),
        ("NODES", "400".into()),
        ("SEED", "4".into()),
        ("SPRT", "elo0=0 elo1=20".into()),
        ("CONCURRENCY", "1".into()),
        ("NEW", engine("learned", "full")),
        ("OLD", engine("hand-made", "hce")),
    ];
    let selfplay_job = submit(&dir, "scripts/slurm/selfplay-array.sh", &selfplay_env);
    let match_job = submit(&dir, "scripts/slurm/match-array.sh", &match_env);
    let limit = Duration::from_secs(300);
    wait(&dir, &selfplay_job, limit);
    wait(&dir, &match_job, limit);
    let slurm_secs = start.elapsed().as_secs_f64();

    // The slices in order are one run's file.
    let parts: Vec<PathBuf> = (1..=SLICES)
        .map(|k| dir.join(format!("gen/part-{k:05}.bin")))
        .collect();
    let joined: Vec<u8> = parts
        .iter()
        .flat_map(|p| std::fs::read(p).unwrap())
        .collect();
    damiera(
        &dir,
        &[
            "selfplay",
            "--variant",
            "english",
            "--games",
            "40",
            "--nodes",
            "300",
            "--seed",
            "4",
            "--quiet",
            "-o",
            "whole.bin",
        ],
    );
    let whole = std::fs::read(dir.join("whole.bin")).unwrap();
    assert!(whole.len() > 16 + 20 * 1000, "{} bytes", whole.len());
    assert!(joined == whole, "the slices are not byte for byte one run");

    // `train` on the slices writes the weights it writes on the one-run file.
    let train = |inputs: &[String], out: &str| {
        let mut args = vec!["train"];
        args.extend(inputs.iter().map(String::as_str));
        args.extend(["-o", out, "--epochs", "1", "--validation", "0.2"]);
        damiera(&dir, &args);
        std::fs::read(dir.join(out)).unwrap()
    };
    let part_names: Vec<String> = parts.iter().map(|p| text(p)).collect();
    assert!(
        train(&part_names, "parts.dmw") == train(&["whole.bin".into()], "whole.dmw"),
        "train on the slices and on the one-run file differ"
    );

    // `match merge` of the slices prints what one run prints (after its own line).
    let mut one_run = vec!["match".to_string()];
    for (_, spec) in &match_env[6..] {
        one_run.extend(["--engine".into(), spec.clone()]);
    }
    one_run.extend(
        [
            "--games",
            "16",
            "--nodes",
            "400",
            "--seed",
            "4",
            "--sprt",
            "elo0=0",
            "elo1=20",
            "--concurrency",
            "2",
            "--quiet",
            "--json",
        ]
        .map(String::from),
    );
    let one_run: Vec<&str> = one_run.iter().map(String::as_str).collect();
    let whole = damiera(&dir, &one_run);
    let mut merge = vec!["match".to_string(), "merge".into(), "--json".into()];
    merge.extend((1..=SLICES).map(|k| format!("results/r-{k:05}.json")));
    let merge: Vec<&str> = merge.iter().map(String::as_str).collect();
    let merged = damiera(&dir, &merge);
    let merged_err = String::from_utf8_lossy(&merged.stderr);
    let (first, rest) = merged_err.split_once('\n').unwrap();
    assert_eq!(first, "merged 4 of 4 slices: 16 games of 16");
    assert_eq!(rest, String::from_utf8_lossy(&whole.stderr));
    let json = |out: &Output| -> serde_json::Value { serde_json::from_slice(&out.stdout).unwrap() };
    let (merged, whole) = (json(&merged), json(&whole));
    assert_eq!(whole["games"], 16, "{whole}");
    assert_eq!(merged, whole);

    let _ = writeln_stderr(&format!(
        "slurm: both job arrays ran in {slurm_secs:.1} s; whole test {:.1} s",
        start.elapsed().as_secs_f64()
    ));
}

/// The 4-piece English databases built as a batch system builds 7 pieces: the classes
/// of fewer pieces first, then scripts/slurm/egdb-waves.sh, one job array a wave, each
/// class a task; every file equals the one-machine build's, byte for byte.
#[test]
fn egdb_waves_build_what_one_machine_builds() {
    if !slurm_ready("egdb_waves_build_what_one_machine_builds") {
        return;
    }
    let start = Instant::now();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("slurm-egdb");
    let _ = std::fs::remove_dir_all(&dir);
    let (waves, whole) = (dir.join("waves"), dir.join("whole"));
    std::fs::create_dir_all(&dir).unwrap();
    let build = |out: &Path, pieces: &str| {
        let out = text(out);
        damiera(
            &dir,
            &[
                "egdb",
                "build",
                "--variant",
                "english",
                "--pieces",
                pieces,
                "--dir",
                &out,
            ],
        );
    };
    build(&whole, "4");
    build(&waves, "3");
    let out = Command::new("bash")
        .arg(repo("scripts/slurm/egdb-waves.sh"))
        .envs([
            ("FROM", "4".to_string()),
            ("VARIANT", "english".into()),
            ("DIR", text(&waves)),
            ("SBATCH_OPTIONS", "--cpus-per-task=1".into()),
            ("DAMIERA", BIN.into()),
        ])
        .current_dir(&dir)
        .output()
        .expect("run egdb-waves.sh");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "egdb-waves.sh: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // One line a wave: job id, pieces, men, classes; 4 pieces have 5 waves (0..=4 men).
    let jobs: Vec<(String, usize)> = stdout
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f[3].parse().unwrap())
        })
        .collect();
    assert_eq!(jobs.len(), 5, "{stdout}");
    for (id, tasks) in &jobs {
        wait_tasks(&dir, id, *tasks, Duration::from_secs(300));
    }
    let names = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&waves), names(&whole));
    for name in names(&whole) {
        assert!(
            std::fs::read(waves.join(&name)).unwrap() == std::fs::read(whole.join(&name)).unwrap(),
            "{name} differs from the one-machine build"
        );
    }
    let _ = writeln_stderr(&format!(
        "slurm: {} egdb waves ({} classes) built and checked in {:.1} s",
        jobs.len(),
        jobs.iter().map(|j| j.1).sum::<usize>(),
        start.elapsed().as_secs_f64()
    ));
}

/// Past the harness's capture, so that `cargo test` shows the timing.
fn writeln_stderr(line: &str) -> std::io::Result<()> {
    use std::io::Write;
    writeln!(std::io::stderr(), "{line}")
}
