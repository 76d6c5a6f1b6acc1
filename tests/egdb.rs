//! Endgame databases: built from scratch, checked against a separate brute-force solver,
//! robust against damaged files, probed by the search, and won endings played to the win.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use damiera::board::{Color, Piece, Position, Square, Variant};
use damiera::clock::Limits;
use damiera::egdb::{self, Egdb, Outcome};
use damiera::engine::{EngineOptions, Thinker};
use damiera::game::{DrawRules, Game, Verdict};
use damiera::movegen::legal_moves;

/// All Italian classes of up to 4 pieces, built once per test run.
fn built_db() -> &'static Path {
    built_db_of(Variant::Italian)
}

/// All classes of up to 4 pieces of `variant`, built once per test run (the build time
/// goes to stderr: `cargo test -- --nocapture` shows it).
fn built_db_of(variant: Variant) -> &'static Path {
    static DIRS: [OnceLock<PathBuf>; Variant::COUNT] = [const { OnceLock::new() }; Variant::COUNT];
    DIRS[variant.index()].get_or_init(|| {
        let name = match variant {
            Variant::Italian => "egdb-4".to_string(),
            v => format!("egdb-4-{}", v.name()),
        };
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = std::fs::remove_dir_all(&dir);
        let summary = egdb::build_all(4, variant, &dir, 2, &|_| {}).expect("build");
        assert_eq!(summary.built, 41);
        eprintln!(
            "{} databases up to 4 pieces: {:.1} s, {} bytes",
            variant.name(),
            summary.seconds,
            summary.disk_bytes
        );
        dir
    })
}

/// A copy of the built databases that a test may damage.
fn scratch_copy(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(built_db()).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
    }
    dir
}

/// Every position with 2 or 3 pieces, both sides present, either side to move, under the
/// rules of `variant`.
fn small_positions(variant: Variant) -> Vec<Position> {
    let kinds = [
        Piece {
            color: Color::White,
            king: false,
        },
        Piece {
            color: Color::White,
            king: true,
        },
        Piece {
            color: Color::Black,
            king: false,
        },
        Piece {
            color: Color::Black,
            king: true,
        },
    ];
    let fits = |sq: u8, p: Piece| match (p.color, p.king) {
        (Color::White, false) => sq > 4,
        (Color::Black, false) => sq < 29,
        _ => true,
    };
    let mut out = Vec::new();
    let mut place = |squares: &[u8]| {
        let n = squares.len() as u32;
        for code in 0..4u32.pow(n) {
            let pieces: Vec<(Square, Piece)> = squares
                .iter()
                .enumerate()
                .map(|(i, &s)| {
                    (
                        Square::new(s).unwrap(),
                        kinds[(code / 4u32.pow(i as u32) % 4) as usize],
                    )
                })
                .collect();
            let white = pieces.iter().any(|(_, p)| p.color == Color::White);
            let black = pieces.iter().any(|(_, p)| p.color == Color::Black);
            if white && black && pieces.iter().all(|&(s, p)| fits(s.number(), p)) {
                for side in [Color::White, Color::Black] {
                    out.push(Position::from_pieces(&pieces, side).with_variant(variant));
                }
            }
        }
    };
    for a in 1..=32u8 {
        for b in a + 1..=32 {
            place(&[a, b]);
            for c in b + 1..=32 {
                place(&[a, b, c]);
            }
        }
    }
    out
}

/// Plain value iteration over the legal-move generator: pass `k` decides exactly the
/// positions `k` plies from the end (a different code path from the retrograde builder).
fn brute_force(positions: &[Position]) -> Vec<Option<Outcome>> {
    let id: HashMap<Position, usize> = positions.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    // Successors: Some(index), or None for a position whose side to move has no piece.
    let succ: Vec<Vec<Option<usize>>> = positions
        .iter()
        .map(|p| {
            legal_moves(p)
                .iter()
                .map(|&m| {
                    let next = p.play(m);
                    let found = id.get(&next).copied();
                    if found.is_none() {
                        assert_eq!(next.count(next.side_to_move()), 0, "{}", next.to_fen());
                    }
                    found
                })
                .collect()
        })
        .collect();
    let mut value: Vec<Option<Outcome>> = vec![None; positions.len()];
    for k in 0u16.. {
        let mut decided = Vec::new();
        for i in 0..positions.len() {
            if value[i].is_some() {
                continue;
            }
            let outcomes: Vec<Option<Outcome>> = succ[i]
                .iter()
                .map(|s| match s {
                    None => Some(Outcome::Loss(0)),
                    Some(j) => value[*j],
                })
                .collect();
            let win = outcomes
                .iter()
                .any(|o| *o == Some(Outcome::Loss(k.wrapping_sub(1))));
            let all_lose = outcomes.iter().all(|o| matches!(o, Some(Outcome::Win(_))));
            if k == 0 && outcomes.is_empty() {
                decided.push((i, Outcome::Loss(0)));
            } else if k > 0 && win {
                decided.push((i, Outcome::Win(k)));
            } else if k > 0 && all_lose && !outcomes.is_empty() {
                decided.push((i, Outcome::Loss(k)));
            }
        }
        if decided.is_empty() && k > 0 {
            break;
        }
        for (i, o) in decided {
            value[i] = Some(o);
        }
    }
    value
}

#[test]
fn databases_match_a_brute_force_solver_up_to_three_pieces() {
    let db = Egdb::open(built_db(), 64).unwrap();
    let positions = small_positions(Variant::Italian);
    assert_eq!(positions.len(), 399_040);
    let truth = brute_force(&positions);
    let (mut wins, mut losses, mut draws, mut longest) = (0, 0, 0, 0);
    for (pos, expected) in positions.iter().zip(&truth) {
        let expected = expected.unwrap_or(Outcome::Draw);
        assert_eq!(db.probe(pos), Some(expected), "{}", pos.to_fen());
        match expected {
            Outcome::Win(d) => {
                wins += 1;
                longest = longest.max(d);
            }
            Outcome::Loss(d) => {
                losses += 1;
                longest = longest.max(d);
            }
            Outcome::Draw => draws += 1,
        }
    }
    assert_eq!((wins, losses, draws), (193_964, 166_494, 38_582));
    // Plies to the end, a position without a legal move lost in 0: the longest is a loss
    // in 66 (`B:W29,32:B20`; `W:W29,32:B23` is a win in 65). The independent
    // solver reports 67, one more: the same longest line counted with the final,
    // move-less position as a ply. Every value and every count above agree.
    assert_eq!(longest, 66);
}

#[test]
fn verify_passes_on_everything_built() {
    for v in Variant::ALL {
        let report = egdb::verify_dir(built_db_of(v), v, 2, &|_, _| {}, &|_| {}).unwrap();
        assert_eq!(report.sound, 41, "{v:?}");
        assert!(report.problems.is_empty(), "{v:?}: {:?}", report.problems);
    }
}

fn damiera() -> Command {
    Command::new(env!("CARGO_BIN_EXE_damiera"))
}

/// Runs `command` with `input` on its stdin; returns what it wrote and its status.
fn run_with_input(command: &mut Command, input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Runs `damiera egdb probe --dir D` on `input`; returns stdout, stderr and the status.
fn probe_cli(dir: &Path, input: &str) -> (String, String, i32) {
    let out = run_with_input(damiera().args(["egdb", "probe", "--dir"]).arg(dir), input);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn probe_answers_in_input_order() {
    let (out, err, code) = probe_cli(
        built_db(),
        "W:WK22,K23:BK10\nB:WK18:B12\nWeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeB\nW:W21-32:B1-12\nW:WK4:BK29\nW:WK1:BK32\n",
    );
    assert_eq!(code, 0, "{err}");
    // The Hub string has no White piece and White to move: lost now.
    assert_eq!(out, "win 7\nloss 8\nloss 0\nunknown\ndraw\nwin 11\n");
    let out = damiera()
        .args(["egdb", "probe", "--dir"])
        .arg(built_db())
        .args(["W:W21,22:B9", "B:W21,22:B9"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "win 3\nloss 4\n");
}

#[test]
fn probe_rejects_bad_positions_with_one_line_and_status_2() {
    for bad in ["W:W33:B1", "not a position", "W:W5,5:B1"] {
        let (_, err, code) = probe_cli(built_db(), &format!("{bad}\n"));
        assert_eq!(code, 2, "{bad}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(bad), "{err}");
    }
    let out = damiera()
        .args(["egdb", "probe", "--dir", "/nonexistent/egdb", "W:WK1:BK32"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/egdb"));
}

/// Positions of one class, for damaging its file.
const KING_VS_KING: &str = "W:WK22:BK10";

fn damage(dir: &Path, class: &str, f: impl FnOnce(&mut Vec<u8>)) {
    let path = dir.join(format!("{class}.egdb"));
    let mut bytes = std::fs::read(&path).unwrap();
    f(&mut bytes);
    std::fs::write(&path, bytes).unwrap();
}

/// A damaged class is reported once on stderr and answers `unknown`, never a wrong value;
/// other classes still answer.
fn assert_damage_reported(dir: &Path, what: &str) {
    let (out, err, code) = probe_cli(
        dir,
        &format!("{KING_VS_KING}\n{KING_VS_KING}\nW:WK22,K23:BK10\n"),
    );
    assert_eq!(code, 0);
    assert_eq!(out, "unknown\nunknown\nwin 7\n", "{what}");
    assert_eq!(
        err.lines().filter(|l| l.contains("0101.egdb")).count(),
        1,
        "{what}: {err}"
    );
}

#[test]
fn truncated_file_is_reported_and_not_used() {
    let dir = scratch_copy("egdb-truncated");
    damage(&dir, "0101", |b| b.truncate(b.len() - 10));
    assert_damage_reported(&dir, "truncated");
}

#[test]
fn flipped_byte_is_reported_and_not_used() {
    let dir = scratch_copy("egdb-flipped");
    damage(&dir, "0101", |b| {
        let last = b.len() - 5;
        b[last] ^= 0x40;
    });
    assert_damage_reported(&dir, "flipped data byte");
    let dir = scratch_copy("egdb-flipped-header");
    damage(&dir, "0101", |b| b[40] ^= 1);
    assert_damage_reported(&dir, "flipped header byte");
}

#[test]
fn wrong_version_is_reported_and_not_used() {
    let dir = scratch_copy("egdb-version");
    damage(&dir, "0101", |b| b[8] = 99);
    assert_damage_reported(&dir, "version");
}

#[test]
fn missing_directory_is_an_error_for_the_engine_not_a_crash() {
    assert!(Egdb::open(Path::new("/nonexistent/egdb"), 1).is_err());
    let out = run_with_input(
        damiera().arg("hub"),
        "set-param name=egdb-path value=/nonexistent/egdb\ninit\n\
         pos pos=WeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeB\nlevel depth=3\ngo think\nping\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("error message=\"endgame databases: /nonexistent/egdb"),
        "{text}"
    );
    assert!(text.contains("ready") && text.contains("pong"), "{text}");
}

/// One single-threaded search of `nodes` nodes by `engine` (its table and databases).
fn search_with(
    pos: &Position,
    history: &[u64],
    engine: &Thinker,
    nodes: u64,
) -> damiera::search::SearchResult {
    engine.think_position(
        pos,
        history,
        DrawRules::default(),
        &Limits::nodes(nodes),
        |_| {},
    )
}

/// An engine with a 16 MiB table and `db` as its databases.
fn with_databases(db: Option<std::sync::Arc<Egdb>>) -> Thinker {
    Thinker::new(EngineOptions {
        tt_mib: 16,
        egdb: db,
        ..EngineOptions::default()
    })
    .unwrap()
}

/// A fixed-depth search under `rules` with a fresh table.
fn search_under(
    pos: &Position,
    history: &[u64],
    engine: &Thinker,
    depth: u32,
    rules: DrawRules,
) -> damiera::search::SearchResult {
    engine.new_game();
    engine.think_position(pos, history, rules, &Limits::depth(depth), |_| {})
}

#[test]
fn a_database_win_beyond_the_move_limit_is_a_draw() {
    let db = std::sync::Arc::new(Egdb::open(built_db(), 16).unwrap());
    let engine = with_databases(Some(db.clone()));
    // Two kings against one: a database win, but the last capture is 23 plies away.
    let pos = Position::parse("W:WK18,K22:BK3").unwrap();
    let Some(Outcome::Win(d)) = db.probe(&pos) else {
        panic!("expected a database win");
    };
    assert!(d > 6, "{d}");
    // 75 reversible plies behind it: the limit comes after 5 more.
    let history: Vec<u64> = (1..=75).collect();
    let off = DrawRules::default().with_quiet_moves(0);
    let won = search_under(&pos, &history, &engine, 8, off);
    assert_eq!(
        damiera::search::score::database_plies(won.score),
        Some(d as i32)
    );
    let limited = search_under(&pos, &history, &engine, 8, DrawRules::default());
    assert_eq!(limited.score, 0, "draw-moves 40: the win is out of reach");
    // With the run short enough, the database value stands.
    let history: Vec<u64> = (1..=(80 - d as u64)).collect();
    let in_time = search_under(&pos, &history, &engine, 8, DrawRules::default());
    assert_eq!(in_time.score, won.score);
}

fn best_with_db(pos: &Position, engine: &Thinker, nodes: u64) -> damiera::search::SearchResult {
    engine.new_game();
    search_with(pos, &[], engine, nodes)
}

#[test]
fn search_reports_database_scores_in_their_band() {
    let db = std::sync::Arc::new(Egdb::open(built_db(), 16).unwrap());
    let engine = with_databases(Some(db.clone()));
    // Two kings against a king and a man: the databases know the distance.
    let pos = Position::parse("W:WK22,K23:BK10,5").unwrap();
    let Some(Outcome::Win(d)) = db.probe(&pos) else {
        panic!("expected a database win");
    };
    let r = best_with_db(&pos, &engine, 20_000);
    assert_eq!(
        damiera::search::score::database_plies(r.score),
        Some(d as i32)
    );
    assert_eq!(r.score, damiera::search::score::DB_WIN - d as i32);
    // The chosen move keeps the shortest win.
    let next = pos.play(r.best.unwrap());
    assert_eq!(db.probe(&next), Some(Outcome::Loss(d - 1)));
}

/// Plays `pos` out with the engine on both sides (fixed nodes, databases on), under the
/// default draw rules of a game: threefold repetition and 40 moves each without a capture
/// or man move. Returns the winner, if any.
fn play_out(start: Position, engine: &Thinker, nodes: u64) -> Option<Color> {
    let mut game = Game::new(start);
    engine.new_game();
    for _ in 0..400 {
        match game.verdict() {
            Verdict::Win(winner, _) => return Some(winner),
            Verdict::Draw(_) => return None,
            Verdict::Ongoing => {}
        }
        let r = search_with(&game.position(), &game.history_keys(), engine, nodes);
        game.play(r.best.unwrap());
    }
    None
}

#[test]
fn won_four_piece_endings_are_won() {
    let db = std::sync::Arc::new(Egdb::open(built_db(), 16).unwrap());
    let engine = with_databases(Some(db.clone()));
    // Deterministic pseudo-random won positions with 4 pieces, no capture pending.
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut tried = 0;
    let mut won = 0;
    while tried < 12 {
        let squares: Vec<u8> = (0..4).map(|_| (next() % 32) as u8 + 1).collect();
        let mut uniq = squares.clone();
        uniq.sort();
        uniq.dedup();
        if uniq.len() < 4 {
            continue;
        }
        let kinds = [
            (Color::White, true),
            (Color::White, false),
            (Color::Black, true),
            (Color::Black, false),
        ];
        let pieces: Vec<(Square, Piece)> = squares
            .iter()
            .map(|&s| {
                let (color, king) = kinds[(next() % 4) as usize];
                (Square::new(s).unwrap(), Piece { color, king })
            })
            .collect();
        let pos = Position::from_pieces(&pieces, Color::White);
        if pos.check_invariants().is_err()
            || pos.count(Color::White) == 0
            || pos.count(Color::Black) == 0
            || damiera::movegen::has_capture(&pos)
            || !matches!(db.probe(&pos), Some(Outcome::Win(d)) if d > 5)
        {
            continue;
        }
        tried += 1;
        if play_out(pos, &engine, 3_000) == Some(Color::White) {
            won += 1;
        } else {
            panic!("not converted: {}", pos.to_fen());
        }
    }
    assert_eq!(won, 12);
}

#[test]
fn analyse_says_when_a_result_comes_from_the_databases() {
    let out = run_with_input(
        damiera()
            .args(["analyse", "--depth", "6", "--egdb-path"])
            .arg(built_db()),
        "W:WK22,K23:BK10\nW:WK4:BK29\nW:W21-32:B1-12\n",
    );
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["egdb"], true);
    assert_eq!(lines[0]["win_in"], 7);
    assert_eq!(lines[0]["score"], 94.93);
    assert_eq!(lines[1]["egdb"], true);
    assert_eq!(lines[1]["score"], 0.0);
    assert!(lines[2].get("egdb").is_none());
}

#[test]
fn one_class_builds_from_its_dependencies_and_matches_the_full_build() {
    let dir = scratch_copy("egdb-one-class");
    std::fs::remove_file(dir.join("2020.egdb")).unwrap();
    let status = damiera()
        .args([
            "egdb",
            "build",
            "--pieces",
            "4",
            "--class",
            "2020",
            "--threads",
            "1",
            "--dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    assert_eq!(
        std::fs::read(dir.join("2020.egdb")).unwrap(),
        std::fs::read(built_db().join("2020.egdb")).unwrap()
    );
    // Without what it leads into, a class cannot be solved: one line, status 2.
    std::fs::remove_file(dir.join("2010.egdb")).unwrap();
    std::fs::remove_file(dir.join("2020.egdb")).unwrap();
    let out = damiera()
        .args(["egdb", "build", "--pieces", "4", "--class", "2020", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("needed but not solved"), "{err}");
}

#[test]
fn every_variant_matches_the_brute_force_solver_up_to_three_pieces() {
    // The brute-force solver asks each variant's move generator directly, so this holds
    // the retrograde builder (its un-moves of flying kings included) to the rules.
    for v in [Variant::English, Variant::Russian, Variant::Brazilian] {
        let db = Egdb::open_for(built_db_of(v), v, 64).unwrap();
        let positions = small_positions(v);
        let truth = brute_force(&positions);
        for (pos, expected) in positions.iter().zip(&truth) {
            let expected = expected.unwrap_or(Outcome::Draw);
            assert_eq!(db.probe(pos), Some(expected), "{v:?} {}", pos.to_fen());
        }
    }
}

/// The long diagonal a1–h8 of the boards with a1 dark (English, Russian, Brazilian: the
/// same squares of the internal board in all three).
fn long_diagonal() -> Vec<Square> {
    ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"]
        .iter()
        .map(|t| Variant::Russian.parse_square(t).unwrap())
        .collect()
}

/// Every position of `strong` White kings against one Black king, White to move, where
/// neither side could capture (no immediate tactics), under `variant`.
fn quiet_kings_against_one(variant: Variant, strong: usize) -> Vec<(Position, Square)> {
    use damiera::movegen::{has_capture, opponent_threatens};
    let king = |color| Piece { color, king: true };
    let all: Vec<Square> = Square::all().collect();
    let mut sets: Vec<Vec<Square>> = vec![vec![]];
    for _ in 0..strong {
        sets = sets
            .into_iter()
            .flat_map(|s| {
                let last = s.last().map_or(0, |l| l.number());
                all.iter()
                    .filter(|r| r.number() > last)
                    .map(|&r| [s.clone(), vec![r]].concat())
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    let mut out = Vec::new();
    for set in &sets {
        for &lone in all.iter().filter(|s| !set.contains(s)) {
            let mut pieces: Vec<(Square, Piece)> =
                set.iter().map(|&s| (s, king(Color::White))).collect();
            pieces.push((lone, king(Color::Black)));
            let pos = Position::from_pieces(&pieces, Color::White).with_variant(variant);
            if !has_capture(&pos) && !opponent_threatens(&pos) {
                out.push((pos, lone));
            }
        }
    }
    out
}

/// Russian draughts, three kings against one. Theory (A. D. Petrov, «Руководство к
/// основательному познанию шашечной игры», 1827: "Petrov's triangle"; the Russian
/// Wikipedia article «Треугольник Петрова»): three kings that hold the long diagonal
/// (the "большак", a1–h8) catch a lone king off it in at most 13 moves; a lone king on
/// it cannot be caught, short of a combination. The Russian rules' 15-move limit for
/// this ending (Правила вида спорта «шашки», draw after the 15th move) builds on it.
#[test]
fn russian_three_kings_against_one_on_the_long_diagonal_draw_off_it_win() {
    let (v, diag) = (Variant::Russian, long_diagonal());
    let db = Egdb::open_for(built_db_of(v), v, 64).unwrap();
    let (mut draws, mut longest_off) = (0, 0);
    for (pos, lone) in quiet_kings_against_one(v, 3) {
        match (diag.contains(&lone), db.probe(&pos).unwrap()) {
            (false, Outcome::Win(d)) => longest_off = longest_off.max(d),
            (false, o) => panic!("off the long diagonal, not a win: {} {o:?}", pos.to_fen()),
            (true, Outcome::Draw) => draws += 1,
            // On it, only a short combination (a king given up) wins.
            (true, Outcome::Win(d)) => assert!(d <= 9, "{} win in {d}", pos.to_fen()),
            (true, o) => panic!("{} {o:?}", pos.to_fen()),
        }
    }
    // Petrov's method: caught by the 13th move at the latest (25 plies).
    assert_eq!(longest_off, 25);
    assert_eq!(draws, 10_696);
    // Petrov's own position (White a1, c1, e1 against f8) and a lone king on the diagonal.
    let probe = |fen: &str| db.probe(&Position::parse_in(v, fen).unwrap());
    assert!(matches!(
        probe("W:WKa1,Kc1,Ke1:BKf8"),
        Some(Outcome::Win(_))
    ));
    assert_eq!(probe("W:WKa3,Kc1,Ke1:BKd4"), Some(Outcome::Draw));
}

/// English checkers, two kings against one: a win (every checkers primer's first
/// ending, e.g. the Wikipedia article "English draughts" and R. Pask, "Starting Out in
/// Checkers", 2001: the lone king is driven out of the double corner). The only
/// exceptions, 10 positions, have the two kings boxed in a single corner (squares 3, 4,
/// 8, 12 or 21, 25, 29, 30) by the lone king, which wins one of them.
#[test]
fn english_two_kings_against_one_win() {
    let v = Variant::English;
    let db = Egdb::open_for(built_db_of(v), v, 64).unwrap();
    let (mut wins, mut draws) = (0, 0);
    let corners = [[3, 4, 8, 12], [21, 25, 29, 30]];
    for (pos, _) in quiet_kings_against_one(v, 2) {
        match db.probe(&pos).unwrap() {
            Outcome::Win(_) => wins += 1,
            Outcome::Draw => {
                draws += 1;
                let kings: Vec<u8> = pos
                    .piece_list()
                    .iter()
                    .filter(|(_, p)| p.color == Color::White)
                    .map(|&(s, _)| v.number_of(s))
                    .collect();
                let boxed = corners.iter().any(|c| kings.iter().all(|k| c.contains(k)));
                assert!(boxed, "{}", pos.to_fen());
            }
            o => panic!("{} {o:?}", pos.to_fen()),
        }
    }
    assert_eq!((wins, draws), (12_190, 10));
    let probe = |fen: &str| db.probe(&Position::parse_in(v, fen).unwrap());
    assert!(matches!(probe("W:WK14,K19:BK1"), Some(Outcome::Win(_))));
    assert_eq!(probe("W:WK4,K8:BK7"), Some(Outcome::Draw));
}

/// Brazilian draughts (international rules on 8x8, flying kings): one king against one
/// is a draw, two against one a draw short of a combination, and three against one on
/// the long diagonal a draw and off it a win, as in Russian (the Russian Wikipedia's
/// «Треугольник Петрова»: the method wins in Russian and Brazilian draughts).
#[test]
fn brazilian_kings_endings() {
    let (v, diag) = (Variant::Brazilian, long_diagonal());
    let db = Egdb::open_for(built_db_of(v), v, 64).unwrap();
    for (pos, _) in quiet_kings_against_one(v, 1) {
        // A draw, unless every move must give the king up (a king in a corner facing
        // the other along the long diagonal, with nothing between: `W:WKh8:BKa1`).
        let o = db.probe(&pos).unwrap();
        assert!(
            matches!(o, Outcome::Draw | Outcome::Loss(2)),
            "{} {o:?}",
            pos.to_fen()
        );
    }
    let two = quiet_kings_against_one(v, 2);
    let draws = two
        .iter()
        .filter(|(p, _)| db.probe(p) == Some(Outcome::Draw))
        .count();
    // Wins only by a combination: most positions are draws.
    assert!(draws * 10 > two.len() * 8, "{draws} of {}", two.len());
    for (pos, lone) in quiet_kings_against_one(v, 3) {
        let o = db.probe(&pos).unwrap();
        if !diag.contains(&lone) {
            assert!(
                matches!(o, Outcome::Win(d) if d <= 25),
                "{} {o:?}",
                pos.to_fen()
            );
        } else if let Outcome::Win(d) = o {
            assert!(d <= 9, "{} win in {d}", pos.to_fen());
        }
    }
    let probe = |fen: &str| db.probe(&Position::parse_in(v, fen).unwrap());
    assert_eq!(probe("W:WKa3,Kc1,Ke1:BKd4"), Some(Outcome::Draw));
    assert_eq!(probe("W:WKh8:BKa1"), Some(Outcome::Loss(2)));
    assert_eq!(probe("W:WKc1,Ke1:BKf8"), Some(Outcome::Draw));
}

/// A database of one variant is never probed for another: a directory is opened for
/// its own variant only, and a position of another variant is never looked up.
#[test]
fn databases_answer_only_for_their_own_variant() {
    let russian = built_db_of(Variant::Russian);
    let err = Egdb::open_for(russian, Variant::Italian, 1).unwrap_err();
    assert!(
        err.contains("Russian draughts") && err.contains("not Italian"),
        "{err}"
    );
    let err = egdb::load(Some(russian), Variant::Brazilian).unwrap_err();
    assert!(err.contains("not Brazilian draughts"), "{err}");
    let db = Egdb::open(russian, 1).unwrap();
    assert_eq!(db.variant(), Some(Variant::Russian));
    let pos = Position::parse("W:WK22:BK10").unwrap();
    assert_eq!(db.probe(&pos), None);
    assert_eq!(
        db.probe(&pos.with_variant(Variant::Russian)),
        Some(Outcome::Draw)
    );
    // On the command line: the wrong variant is one line and status 2.
    let out = damiera()
        .args(["egdb", "probe", "--variant", "english", "--dir"])
        .arg(russian)
        .arg("W:WK22:BK10")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not English checkers"), "{err}");
    let out = damiera()
        .args(["egdb", "probe", "--variant", "russian", "--dir"])
        .arg(russian)
        .args(["W:WKa1,Kc1,Ke1:BKf8", "W:WKa3,Kc1,Ke1:BKd4"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("win ") && text.ends_with("\ndraw\n"),
        "{text}"
    );
    // A directory that mixes variants is refused as a whole.
    let mixed = scratch_copy("egdb-mixed");
    std::fs::copy(russian.join("0201.egdb"), mixed.join("0201.egdb")).unwrap();
    let err = Egdb::open(&mixed, 1).unwrap_err();
    assert!(err.contains("mixes variants"), "{err}");
    // Building into another variant's directory is refused too.
    let err = egdb::build_all(2, Variant::English, russian, 1, &|_| {}).unwrap_err();
    assert!(err.contains("not English checkers"), "{err}");
}

/// The search plays a Russian ending from the Russian databases, and an engine given
/// them scores an Italian position without them.
#[test]
fn search_probes_the_databases_of_the_position_variant() {
    let v = Variant::Russian;
    let db = std::sync::Arc::new(Egdb::open_for(built_db_of(v), v, 16).unwrap());
    let engine = with_databases(Some(db.clone()));
    let pos = Position::parse_in(v, "W:WKa1,Kc1,Ke1:BKf8").unwrap();
    let Some(Outcome::Win(d)) = db.probe(&pos) else {
        panic!("expected a database win");
    };
    let r = best_with_db(&pos, &engine, 20_000);
    assert_eq!(
        damiera::search::score::database_plies(r.score),
        Some(d as i32)
    );
    let next = pos.play(r.best.unwrap());
    assert_eq!(db.probe(&next), Some(Outcome::Loss(d - 1)));
    let italian = Position::parse("W:WK22,K23:BK10,5").unwrap();
    let r = best_with_db(&italian, &engine, 2_000);
    assert_eq!(damiera::search::score::database_plies(r.score), None);
}

/// The databases hold each game's rulebook moves: under a Damka house rule that changes
/// the moves a position is never looked up, by a probe or by the search (counting pieces
/// at the end changes no move, so it is).
#[test]
fn databases_answer_only_under_the_rulebook_moves() {
    use damiera::board::{HouseRule, HouseRules};
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("egdb-3-damka-house");
    let _ = std::fs::remove_dir_all(&dir);
    egdb::build_all(3, Variant::Damka, &dir, 2, &|_| {}).unwrap();
    let db = std::sync::Arc::new(Egdb::open_for(&dir, Variant::Damka, 4).unwrap());
    let won = small_positions(Variant::Damka)
        .into_iter()
        .find(|p| {
            p.occupied().count_ones() == 3 && matches!(db.probe(p), Some(Outcome::Win(d)) if d > 2)
        })
        .expect("a won 3-piece Damka position");
    let engine = with_databases(Some(db.clone()));
    let plain = best_with_db(&won, &engine, 5_000);
    assert!(damiera::search::score::database_plies(plain.score).is_some());
    for rule in HouseRule::ALL {
        let pos = won.with_house_rules(HouseRules::NONE.with(rule));
        let probed = db.probe(&pos);
        let searched = best_with_db(&pos, &engine, 5_000);
        let scored = damiera::search::score::database_plies(searched.score);
        if rule == HouseRule::CountPieces {
            assert_eq!(probed, db.probe(&won), "{}", rule.name());
            assert!(scored.is_some(), "{}", rule.name());
        } else {
            assert_eq!(probed, None, "{}", rule.name());
            assert_eq!(scored, None, "{}", rule.name());
        }
    }
}

/// Self-play with databases (`selfplay --egdb-path`) ends a game at the first position
/// they hold, with their value as White's result and nothing recorded from there on;
/// without them the same game is searched and recorded.
#[test]
fn selfplay_ends_games_where_the_databases_know_the_result() {
    use damiera::train::selfplay::{SelfplayConfig, play_game};
    let db = std::sync::Arc::new(Egdb::open_for(built_db(), Variant::Italian, 4).unwrap());
    let quiet = |p: &Position| {
        !legal_moves(p).is_empty()
            && !damiera::movegen::has_capture(p)
            && p.occupied().count_ones() == 3
    };
    let positions = small_positions(Variant::Italian);
    let find = |want: fn(Outcome) -> bool| {
        *positions
            .iter()
            .find(|p| quiet(p) && db.probe(p).is_some_and(want))
            .unwrap()
    };
    let win = find(|o| matches!(o, Outcome::Win(d) if d > 6));
    let loss = find(|o| matches!(o, Outcome::Loss(d) if d > 6));
    let draw = find(|o| o == Outcome::Draw);
    let config = |opening: Position, egdb: Option<std::sync::Arc<Egdb>>| SelfplayConfig {
        games: 1,
        shard: damiera::shard::Shard::WHOLE,
        nodes: 500,
        concurrency: 1,
        seed: 3,
        random_plies: 0,
        openings: vec![opening],
        max_plies: 300,
        engine: EngineOptions {
            tt_mib: 1,
            egdb,
            ..EngineOptions::default()
        },
        rules: DrawRules::default(),
    };
    let white = |winner: Color| if winner == Color::White { 2 } else { 0 };
    for (pos, want) in [
        (win, white(win.side_to_move())),
        (loss, white(loss.side_to_move().opponent())),
        (draw, 1),
    ] {
        let cfg = config(pos, Some(std::sync::Arc::clone(&db)));
        let game = play_game(&cfg, 0, &Thinker::new(cfg.engine.clone()).unwrap());
        assert_eq!(
            (game.plies, game.samples.len(), game.result),
            (0, 0, want),
            "{pos:?}"
        );
        let cfg = config(pos, None);
        let played = play_game(&cfg, 0, &Thinker::new(cfg.engine.clone()).unwrap());
        assert!(!played.samples.is_empty(), "{pos:?}");
    }
}
