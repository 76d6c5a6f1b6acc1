//! Every command in README.md is real. Each line of its ```sh blocks is one command (a
//! trailing `\` continues it; `#` starts a comment):
//!
//! - a `damiera ...` (or `cargo run --release -- ...`) command is parsed by the binary's
//!   own clap parser (`damiera::cli::Cli`; a `match` also through `build_config`, which
//!   checks the engine specs, the SPRT and the openings), so a mistyped flag or value
//!   fails here. Then it is run for real with the built binary, in README order, in a
//!   scratch directory holding the files the README names (`positions.fen`, `games.pdn`),
//!   with the binary's directory first on `PATH` (so `cmd=damiera` finds it) and an empty
//!   data directory (no endgame databases of the user's), and must succeed.
//! - A command too long or too interactive to run here must be listed in [`NOT_RUN`] with
//!   where it is run: a line of a CI script that contains its words (checked), or the
//!   test that exercises the same code. A listed `damiera` command is still parsed.
//!
//! `damiera ...` commands in the README's inline code are parsed by clap too. The README also
//! keeps its promises to its readers: the two commands first, at most 350 lines, and no
//! issue numbers in it or in `docs/`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use damiera::cli::{Cli, Tool as Sub};

/// Where a command the test does not run is run instead.
enum RunBy {
    /// A line of this script (path from the repository root) contains the command's
    /// words, in order.
    Script(&'static str),
    /// Why it is not run, and which test exercises the same code.
    Note(&'static str),
}

/// The README's commands that are not run here (their text as in the README, words
/// separated by one blank, continuation lines joined).
const NOT_RUN: &[(&str, RunBy)] = &[
    ("bash .ci/run", RunBy::Note("the CI entry point itself")),
    ("cargo test --release", RunBy::Script(".ci/run")),
    (
        "cargo test --release --test readme",
        RunBy::Note("this test; part of `cargo test --release`"),
    ),
    ("python3 -m venv .venv", RunBy::Script(".ci/run")),
    (
        ".venv/bin/pip install -r tests/python/requirements.txt",
        RunBy::Script(".ci/run"),
    ),
    ("npm ci --prefix tests/browser", RunBy::Script(".ci/run")),
    ("bash scripts/windows-release.sh", RunBy::Script(".ci/run")),
    ("bash scripts/web-release.sh", RunBy::Script(".ci/run")),
    (
        "python3 -m http.server -d dist/web 8000",
        RunBy::Note("serves until stopped; tests/web.rs serves the site the same way"),
    ),
    (
        "damiera play --color black --time 5",
        RunBy::Note("the engine thinks 5 s before reading a move; tests/play.rs plays whole games"),
    ),
    (
        "damiera gui",
        RunBy::Note("serves until stopped and opens a browser; tests/gui.rs drives the server"),
    ),
    (
        "damiera gui --host 0.0.0.0 --port 8080",
        RunBy::Note("listens on the LAN; tests/gui.rs runs its LAN test in a network namespace"),
    ),
    (
        "damiera gui --engine \"python3 my_engine.py\"",
        RunBy::Note(
            "serves until stopped; tests/gui.rs runs the board with a minimal Python engine",
        ),
    ),
    (
        "damiera egdb build --pieces 6",
        RunBy::Note("33 minutes; tests/egdb.rs builds and checks small sets with the same code"),
    ),
    (
        "damiera egdb build --pieces 5",
        RunBy::Note(
            "under 2 minutes; tests/egdb.rs builds and checks small sets with the same code",
        ),
    ),
    (
        "damiera egdb build --variant russian --pieces 5",
        RunBy::Note(
            "minutes; tests/egdb.rs builds and checks 4-piece sets of every variant with the same code",
        ),
    ),
    (
        "damiera match --engine \"cmd=target/release/damiera name=new\" --engine \"cmd=/tmp/old/damiera name=old\" --games 1000 --tc 1+0.01 --margin-ms 1000 --seed 47 --concurrency 2 --pdn games.pdn",
        RunBy::Note("1,000 timed games; tests/matches.rs plays timed matches with the same runner"),
    ),
    (
        "damiera match --engine \"cmd=target/release/damiera name=new\" --engine \"cmd=/tmp/old/damiera name=old\" --games 20000 --tc 1+0.01 --margin-ms 1000 --seed 61 --concurrency 2 --sprt elo0=0 elo1=15",
        RunBy::Note(
            "an SPRT of up to 20,000 games; tests/shards.rs decides SPRTs on small matches",
        ),
    ),
    (
        "damiera selfplay -o gen.bin --games 130000 --nodes 3000 --seed 4 --concurrency 2",
        RunBy::Note(
            "130,000 games; the README's 20-game run and tests/shards.rs run the same code",
        ),
    ),
    (
        "scripts/variant-evals.sh english",
        RunBy::Note(
            "a quarter of an hour of self-play and three 400-game matches; tests/learned.rs \
             runs variant self-play and training, tests/variant_front_ends.rs variant matches",
        ),
    ),
];

/// Files the README's commands read, written into the scratch directory first.
const FIXTURES: &[(&str, &str)] = &[
    (
        "positions.fen",
        "W:W21-32:B1-12\nB:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n",
    ),
    (
        "games.pdn",
        "[Event \"readme\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n[GameType \"22\"]\n\n\
         1. 23-19 10-14 2. 19x10 5x14 3. 24-20 *\n",
    ),
];

/// The longest a command run here may take before it counts as hung (they take well
/// under a second each; this only turns a hang into a failure).
const HANG: Duration = Duration::from_secs(300);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).unwrap()
}

/// One command of a ```sh block: its line number and its text (continuations joined).
struct Line {
    number: usize,
    text: String,
}

/// The commands of the ```sh blocks, one list per block.
fn sh_blocks(markdown: &str) -> Vec<Vec<Line>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Line>> = None;
    let mut pending: Option<Line> = None;
    for (i, raw) in markdown.lines().enumerate() {
        let fence = raw.trim_start().starts_with("```");
        match current.as_mut() {
            None => {
                if fence && raw.trim() == "```sh" {
                    current = Some(Vec::new());
                }
            }
            Some(block) => {
                if fence {
                    assert!(
                        pending.is_none(),
                        "README.md line {}: a `\\` continues past the block's end",
                        i + 1
                    );
                    blocks.extend(current.take());
                    continue;
                }
                let (text, continued) = match raw.trim_end().strip_suffix('\\') {
                    Some(head) => (head, true),
                    None => (raw.trim_end(), false),
                };
                let line = match pending.take() {
                    Some(mut p) => {
                        p.text.push(' ');
                        p.text.push_str(text.trim());
                        p
                    }
                    None => Line {
                        number: i + 1,
                        text: text.trim().to_string(),
                    },
                };
                if continued {
                    pending = Some(line);
                } else if !line.text.is_empty() {
                    block.push(line);
                }
            }
        }
    }
    assert!(current.is_none(), "README.md: a ```sh block is not closed");
    blocks
}

/// Shell words of a simple command: blanks separate, '...' and "..." group (with `\"`,
/// `\\`, `\$` inside double quotes), a `#` at the start of a word begins a comment.
/// Pipes, lists, substitutions and variables are refused: the README's commands stay
/// simple enough for a reader to copy and for this test to check.
fn words(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '#' if !in_word => break,
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("unterminated '".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("unterminated \"".into()),
                        },
                        Some('$' | '`') => return Err("substitution in a quoted word".into()),
                        Some(c) => word.push(c),
                        None => return Err("unterminated \"".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            '|' | ';' | '&' | '<' | '$' | '`' | '(' | ')' => {
                return Err(format!("shell syntax {c:?}: keep README commands simple"));
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        out.push(word);
    }
    Ok(out)
}

/// The arguments of a `damiera` command, or `None` for another program.
fn damiera_args(words: &[String]) -> Option<Vec<String>> {
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    let rest = match w.as_slice() {
        [
            "damiera" | "damiera.exe" | "target/release/damiera",
            rest @ ..,
        ] => rest,
        ["cargo", "run", "--release", "--", rest @ ..] => rest,
        _ => return None,
    };
    Some(rest.iter().map(|s| s.to_string()).collect())
}

/// Parses `args` as the binary does; a `match` also goes through `build_config`.
fn parse(args: &[String]) -> Result<(), String> {
    let cli =
        Cli::try_parse_from(std::iter::once("damiera".to_string()).chain(args.iter().cloned()))
            .map_err(|e| e.to_string().lines().next().unwrap_or("").to_string())?;
    if let Some(Sub::Match(m)) = &cli.command
        && m.action.is_none()
    {
        damiera::cli::matchcmd::build_config(m).map(drop)?;
    }
    Ok(())
}

/// The words as the README shows them: a word with blanks or quotes in double quotes.
fn shown(words: &[String]) -> String {
    let quote = |w: &String| {
        if w.contains([' ', '"']) {
            format!("\"{}\"", w.replace('\\', "\\\\").replace('"', "\\\""))
        } else {
            w.clone()
        }
    };
    words.iter().map(quote).collect::<Vec<_>>().join(" ")
}

fn not_run(text: &str) -> Option<&'static RunBy> {
    NOT_RUN.iter().find(|(t, _)| *t == text).map(|(_, r)| r)
}

/// Whether some line of `script` (continuations joined) has `words` in order.
fn script_runs(script: &str, words: &[String]) -> bool {
    let text = std::fs::read_to_string(root().join(script)).unwrap();
    let joined = text.replace("\\\n", " ");
    joined.lines().any(|line| {
        let mut have = line.split_whitespace();
        words.iter().all(|w| have.any(|h| h == w))
    })
}

/// `*` patterns matched against the names in `dir` (or in its folder `folder/` for
/// `folder/pattern`, a folder without `*`), sorted; a pattern without a match stays as it
/// is (as in bash).
fn expand(word: &str, dir: &Path) -> Vec<String> {
    let (folder, pattern) = match word.rsplit_once('/') {
        Some((folder, pattern)) => (Some(folder), pattern),
        None => (None, word),
    };
    if !pattern.contains('*') || folder.is_some_and(|f| f.contains('*')) {
        return vec![word.to_string()];
    }
    fn matches(p: &[u8], s: &[u8]) -> bool {
        match p.split_first() {
            None => s.is_empty(),
            Some((b'*', rest)) => (0..=s.len()).any(|i| matches(rest, &s[i..])),
            Some((c, rest)) => s.first() == Some(c) && matches(rest, &s[1..]),
        }
    }
    let mut names: Vec<String> = std::fs::read_dir(dir.join(folder.unwrap_or("")))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| matches(pattern.as_bytes(), n.as_bytes()))
        .map(|n| folder.map_or_else(|| n.clone(), |f| format!("{f}/{n}")))
        .collect();
    names.sort();
    if names.is_empty() {
        vec![word.to_string()]
    } else {
        names
    }
}

/// Runs `damiera args` in `dir`; `Err` says what went wrong.
fn run(args: &[String], dir: &Path) -> Result<(), String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_damiera"));
    let mut path = vec![bin.parent().unwrap().to_path_buf()];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let mut args: Vec<String> = args.iter().flat_map(|a| expand(a, dir)).collect();
    let mut stdout = Stdio::null();
    if let Some(at) = args.iter().position(|a| a == ">") {
        let [_, file] = &args[at..] else {
            return Err("`>` must be followed by exactly one file".into());
        };
        stdout = Stdio::from(std::fs::File::create(dir.join(file)).unwrap());
        args.truncate(at);
    }
    let stderr_path = dir.join(".stderr");
    let mut child = Command::new(bin)
        .args(&args)
        .current_dir(dir)
        .env("PATH", std::env::join_paths(path).unwrap())
        .env("XDG_DATA_HOME", dir.join(".data"))
        .env_remove("LOCALAPPDATA")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "still running after {} s: a long command belongs in NOT_RUN, with where it runs",
                HANG.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    if status.success() {
        Ok(())
    } else {
        let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
        Err(format!("{status}: {}", stderr.trim()))
    }
}

/// What is wrong with one command of a ```sh block, if anything; `dir` runs it.
fn check(text: &str, dir: &Path) -> Result<(), String> {
    let words = words(text)?;
    let listed = not_run(&shown(&words));
    match (damiera_args(&words), listed) {
        (Some(args), None) => {
            parse(&args)?;
            run(&args, dir)
        }
        (Some(args), Some(_)) => parse(&args),
        (None, Some(RunBy::Script(script))) => {
            if script_runs(script, &words) {
                Ok(())
            } else {
                Err(format!(
                    "listed as run by {script}, but no line of it runs it"
                ))
            }
        }
        (None, Some(RunBy::Note(_))) => Ok(()),
        (None, None) => {
            Err("neither a damiera command nor listed in NOT_RUN with where it runs".into())
        }
    }
}

/// A fresh scratch directory holding the fixtures.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in FIXTURES {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

#[test]
fn every_readme_command_parses_and_runs_or_is_run_by_ci() {
    let dir = scratch("readme");
    let mut failures = Vec::new();
    let mut ran = 0;
    for line in sh_blocks(&readme()).iter().flatten() {
        let listed = words(&line.text).is_ok_and(|w| not_run(&shown(&w)).is_some());
        let start = Instant::now();
        let result = check(&line.text, &dir);
        let how = if listed { "listed" } else { "ran" };
        eprintln!(
            "{how} in {:>5} ms: {}",
            start.elapsed().as_millis(),
            line.text
        );
        match result {
            Ok(()) => ran += usize::from(!listed),
            Err(e) => failures.push(format!(
                "README.md line {}: {}\n  {e}",
                line.number, line.text
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran >= 10, "only {ran} README commands ran");
}

#[test]
fn readme_inline_damiera_commands_parse() {
    let text = readme();
    let mut failures = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for (i, span) in line.split('`').enumerate() {
            let is_code = i % 2 == 1;
            let metasyntax = ["<", "...", "|", "[", "K/N"]
                .iter()
                .any(|m| span.contains(m));
            if !is_code
                || metasyntax
                || !(span == "damiera"
                    || span.starts_with("damiera ")
                    || span.starts_with("damiera.exe "))
            {
                continue;
            }
            // Only the parser: a span may name a subcommand without the arguments it needs.
            let result = words(span).and_then(|w| {
                let args = damiera_args(&w).unwrap_or_default();
                Cli::try_parse_from(std::iter::once("damiera".to_string()).chain(args))
                    .map(drop)
                    .map_err(|e| e.to_string().lines().next().unwrap_or("").to_string())
            });
            if let Err(e) = result {
                failures.push(format!("README.md line {}: `{span}`: {e}", n + 1));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_not_run_entry_is_in_the_readme() {
    let commands: Vec<String> = sh_blocks(&readme())
        .iter()
        .flatten()
        .map(|l| shown(&words(&l.text).unwrap()))
        .collect();
    for (text, by) in NOT_RUN {
        assert!(
            commands.iter().any(|c| c == text),
            "NOT_RUN lists {text:?}, which the README no longer has"
        );
        match by {
            RunBy::Script(script) => assert!(root().join(script).is_file(), "{text}: no {script}"),
            RunBy::Note(note) => assert!(!note.is_empty(), "{text}: say where it runs"),
        }
    }
}

#[test]
fn readme_starts_with_the_two_commands_and_stays_short() {
    let text = readme();
    let first: Vec<String> = sh_blocks(&text)[0]
        .iter()
        .map(|l| shown(&words(&l.text).unwrap()))
        .collect();
    assert_eq!(first, ["cargo run --release -- play", "bash .ci/run"]);
    assert!(
        text.lines().count() <= 350,
        "README.md has {} lines",
        text.lines().count()
    );
}

#[test]
fn no_issue_numbers_in_the_readme_or_docs() {
    let mut files = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        files.push(entry.unwrap().path());
    }
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap().to_lowercase();
        for (at, _) in text.match_indices("issue") {
            let after = text[at + "issue".len()..].trim_start_matches([' ', '#']);
            assert!(
                !after.starts_with(|c: char| c.is_ascii_digit()),
                "{}: an issue number: {:?}",
                file.display(),
                &text[at..(at + 12).min(text.len())]
            );
        }
    }
}

/// The checker itself: a typo'd flag, a bad value, a bad engine spec and an unlisted
/// program are caught; a listed long command is parsed, not run.
#[test]
fn the_checker_catches_mistakes() {
    let dir = scratch("readme-checker");
    for bad in [
        "damiera perft 5 --dvide",
        "damiera perft five",
        "cargo run --release -- analyse positions.fen --dpth 12",
        "damiera match --engine \"cmd=damiera nmae=A\" --engine \"cmd=damiera name=B\" --games 2",
        "damiera match --engine \"cmd=damiera\" --engine \"cmd=damiera\" --tc 10+x",
        "damiera egdb build --pices 6",
        "damiera egdb probe --dir missing-dir not-a-position",
        "make install",
        "damiera perft 5 | head",
    ] {
        assert!(check(bad, &dir).is_err(), "{bad:?} passed");
    }
    assert_eq!(check("damiera perft 3 --divide", &dir), Ok(()));
    assert_eq!(check("damiera egdb build --pieces 6", &dir), Ok(()));
    assert!(!dir.join(".data").exists(), "the listed egdb build ran");
    assert_eq!(
        words("a \"b \\\"c\\\"\" 'd e' f # g"),
        Ok(vec!["a".into(), "b \"c\"".into(), "d e".into(), "f".into()])
    );
}
