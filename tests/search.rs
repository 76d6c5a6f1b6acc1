//! Search behaviour: determinism of fixed-depth and fixed-node searches, the bench
//! signature, and forced wins that the engine finds and plays out against itself.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use std::process::Command;

use damiera::board::{Color, Position};
use damiera::clock::Limits;
use damiera::engine::{EngineOptions, Thinker};
use damiera::game::{DrawRules, Game};
use damiera::movegen::{hub_text, legal_moves};
use damiera::search::SearchResult;
use damiera::search::score::WIN_BOUND;

/// An engine with a 16 MiB table, kept between the searches of a test.
type Table = std::cell::RefCell<Thinker>;

fn table() -> Table {
    table_with(1)
}

fn table_with(threads: usize) -> Table {
    std::cell::RefCell::new(
        Thinker::new(EngineOptions {
            tt_mib: 16,
            threads,
            ..EngineOptions::default()
        })
        .unwrap(),
    )
}

fn run(pos: &Position, history: &[u64], limits: Limits, tt: &Table) -> SearchResult {
    run_multipv(pos, history, limits, tt, 1)
}

fn run_multipv(
    pos: &Position,
    history: &[u64],
    limits: Limits,
    tt: &Table,
    multipv: usize,
) -> SearchResult {
    run_under(pos, history, limits, tt, multipv, DrawRules::default())
}

fn run_under(
    pos: &Position,
    history: &[u64],
    limits: Limits,
    tt: &Table,
    multipv: usize,
    rules: DrawRules,
) -> SearchResult {
    run_with_contempt(pos, history, limits, tt, multipv, rules, 0)
}

fn run_with_contempt(
    pos: &Position,
    history: &[u64],
    limits: Limits,
    tt: &Table,
    multipv: usize,
    rules: DrawRules,
    contempt: i32,
) -> SearchResult {
    let mut engine = tt.borrow_mut();
    let options = EngineOptions {
        multipv,
        contempt,
        ..engine.options().clone()
    };
    engine.configure(options).unwrap();
    engine.think_position(pos, history, rules, &limits, |_| {})
}

fn fresh(pos: &Position, limits: Limits) -> SearchResult {
    run(pos, &[], limits, &table())
}

#[test]
fn fixed_depth_search_is_deterministic() {
    for text in [
        "W:W21-32:B1-12",
        "W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4",
    ] {
        let pos = Position::parse(text).unwrap();
        let a = fresh(&pos, Limits::depth(9));
        let b = fresh(&pos, Limits::depth(9));
        assert_eq!(
            (a.best, a.score, a.nodes, &a.pv),
            (b.best, b.score, b.nodes, &b.pv),
            "{text}"
        );
        assert_eq!(a.depth, 9);
    }
}

#[test]
fn fixed_node_search_is_deterministic() {
    let pos = Position::start();
    let a = fresh(&pos, Limits::nodes(50_000));
    let b = fresh(&pos, Limits::nodes(50_000));
    assert_eq!(
        (a.best, a.score, a.nodes, a.depth),
        (b.best, b.score, b.nodes, b.depth)
    );
    assert!(a.nodes >= 50_000 && a.nodes < 60_000, "{}", a.nodes);
}

#[test]
fn bench_signature_repeats() {
    assert_eq!(
        bench_nodes(&["--depth", "7"]),
        bench_nodes(&["--depth", "7"])
    );
}

/// The node total of `damiera bench` with `args`.
fn bench_nodes(args: &[&str]) -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .arg("bench")
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "bench {args:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let last = text.lines().last().unwrap().to_string();
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(
        (words.len(), words[0], words[2], words[4]),
        (5, "bench", "nodes", "nps"),
        "{last}"
    );
    words[1].parse::<u64>().unwrap()
}

#[test]
fn every_games_bench_signature_is_the_recorded_one() {
    let recorded =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bench.txt"))
            .unwrap();
    let mut games = Vec::new();
    for line in recorded.lines().filter(|l| !l.starts_with('#')) {
        let (game, nodes) = line.split_once(' ').unwrap();
        let nodes: u64 = nodes.parse().unwrap();
        assert_eq!(
            bench_nodes(&["--variant", game]),
            nodes,
            "{game}: the bench signature changed; a change to the search or evaluation \
             updates tests/data/bench.txt and says `Bench:` in its commit, with its match"
        );
        games.push(game.to_string());
    }
    let every_game = damiera::board::Variant::ALL.map(|v| v.name().to_string());
    assert_eq!(games, every_game, "one line per game, in the games' order");
}

#[test]
fn no_legal_move_gives_no_best_move() {
    let pos = Position::parse("W:W32:BK28").unwrap();
    let r = fresh(&pos, Limits::depth(3));
    assert_eq!(r.best, None);
    assert!(r.score < -WIN_BOUND);
}

#[test]
fn single_legal_move_is_played_at_once_on_a_clock() {
    let pos = Position::parse("W:W30:B27,1").unwrap();
    let on_clock = Limits {
        clock: Some(damiera::clock::TimeLeft::from_secs(300.0, 0.0, None)),
        ..Limits::default()
    };
    let r = fresh(&pos, on_clock);
    assert_eq!(r.best.map(hub_text).as_deref(), Some("30x23x27"));
    assert_eq!(r.depth, 1);
}

#[test]
fn repetition_in_game_history_is_a_draw() {
    // Black is lost (one king against two), but one of its moves returns to a position of
    // the game history: that move is a draw, and the search must find and prefer it.
    let root = Position::parse("B:WK22,K23:BK10").unwrap();
    let without = fresh(&root, Limits::depth(8));
    assert!(without.score < -50, "{}", without.score);
    for &escape in legal_moves(&root).iter() {
        let seen = root.play(escape);
        let with = run(&root, &[seen.key()], Limits::depth(8), &table());
        assert_eq!(
            (with.best, with.score),
            (Some(escape), 0),
            "{}",
            hub_text(escape)
        );
    }
}

/// Plays the game out, the engine on both sides, until a side has no legal move.
/// Returns the loser and the number of plies.
fn play_out(start: &Position, depth: u32, max_plies: usize) -> Option<(Color, usize)> {
    let tt = table();
    let mut game = damiera::game::Game::new(*start);
    for ply in 0..max_plies {
        let pos = game.position();
        let r = run(&pos, &game.history_keys(), Limits::depth(depth), &tt);
        let Some(mv) = r.best else {
            return Some((pos.side_to_move(), ply));
        };
        assert!(legal_moves(&pos).contains(&mv));
        game.play(mv);
    }
    None
}

#[test]
fn forced_wins_are_found_and_converted() {
    for (text, depth) in [
        // Two kings against one.
        ("W:WK22,K23:BK10", 14),
        // Two men against one: crown first, then hunt.
        ("W:W21,22:B9", 14),
        // A king against a man.
        ("B:WK18:B12", 14),
    ] {
        let pos = Position::parse(text).unwrap();
        let first = fresh(&pos, Limits::depth(depth));
        let winner = if text.starts_with('W') { 1 } else { -1 };
        assert!(
            first.score * winner > WIN_BOUND,
            "{text}: no proven win: {}",
            first.score
        );
        let (loser, plies) =
            play_out(&pos, depth, 200).unwrap_or_else(|| panic!("{text}: not converted"));
        assert_eq!(loser, Color::Black, "{text}");
        assert!(plies < 200, "{text}");
    }
}

/// A search with `threads` threads from an empty table.
fn fresh_with_threads(pos: &Position, limits: Limits, threads: usize) -> SearchResult {
    let engine = table_with(threads).into_inner();
    engine.think_position(pos, &[], DrawRules::default(), &limits, |_| {})
}

/// Helper threads put off the moves another thread is searching, to take them last:
/// each move is still searched, so the wins the one-thread search proves are proven
/// (a helper one ply ahead may find a quicker one), and every best move is legal.
#[test]
fn two_threads_prove_the_same_wins() {
    for (text, depth) in [
        ("W:WK22,K23:BK10", 14),
        ("W:W21,22:B9", 14),
        ("B:WK18:B12", 14),
        ("W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4", 12),
    ] {
        let pos = Position::parse(text).unwrap();
        let one = fresh(&pos, Limits::depth(depth));
        for threads in [2, 3] {
            let many = fresh_with_threads(&pos, Limits::depth(depth), threads);
            assert_eq!(many.depth, depth, "{text}, {threads} threads");
            let best = many.best.expect("a best move");
            assert!(
                legal_moves(&pos).contains(&best),
                "{text}, {threads} threads"
            );
            if one.score.abs() > WIN_BOUND {
                assert!(
                    many.score.abs() > WIN_BOUND && many.score.signum() == one.score.signum(),
                    "{text}, {threads} threads: {} against {}",
                    many.score,
                    one.score
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------
// MultiPV
// ---------------------------------------------------------------------------

/// Positions with many, few and one legal move: the start, a ballot, a middlegame,
/// kings, a capture choice.
const MULTIPV_POSITIONS: [&str; 5] = [
    "W:W21-32:B1-12",
    "W:W24,23,22,21,28,26,25,32,31,30,29:B4,3,2,1,7,6,5,11,10,9,13",
    "B:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3",
    "W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4",
    "W:W19,30:B10,3",
];

fn multipv_fresh(pos: &Position, depth: u32, k: usize) -> SearchResult {
    run_multipv(pos, &[], Limits::depth(depth), &table(), k)
}

#[test]
fn multipv_lines_are_distinct_legal_and_ordered() {
    for text in MULTIPV_POSITIONS {
        let pos = Position::parse(text).unwrap();
        let legal = legal_moves(&pos);
        let k = 3;
        let r = multipv_fresh(&pos, 7, k);
        assert_eq!(r.lines.len(), k.min(legal.len()), "{text}");
        let firsts: Vec<_> = r.lines.iter().map(|l| l.pv[0]).collect();
        for (i, m) in firsts.iter().enumerate() {
            assert!(legal.contains(m), "{text}: {m:?} not legal");
            assert!(!firsts[..i].contains(m), "{text}: {m:?} twice");
        }
        for pair in r.lines.windows(2) {
            assert!(pair[0].score >= pair[1].score, "{text}: {:?}", r.lines);
        }
        // The result's fields are the best line's.
        assert_eq!(
            (r.best, r.score, &r.pv),
            (Some(firsts[0]), r.lines[0].score, &r.lines[0].pv)
        );
    }
}

#[test]
fn multipv_first_line_is_the_single_pv_search() {
    for text in MULTIPV_POSITIONS {
        let pos = Position::parse(text).unwrap();
        for depth in [1, 4, 8] {
            let single = fresh(&pos, Limits::depth(depth));
            for k in [2, 4] {
                let multi = multipv_fresh(&pos, depth, k);
                assert_eq!(
                    (multi.best, multi.score, &multi.pv, multi.depth),
                    (single.best, single.score, &single.pv, single.depth),
                    "{text} depth {depth} multipv {k}"
                );
            }
        }
    }
}

#[test]
fn multipv_beyond_the_legal_moves_lists_each_once() {
    for text in MULTIPV_POSITIONS {
        let pos = Position::parse(text).unwrap();
        let legal = legal_moves(&pos);
        let r = multipv_fresh(&pos, 5, 32);
        let mut firsts: Vec<_> = r.lines.iter().map(|l| hub_text(l.pv[0])).collect();
        let mut expected: Vec<_> = legal.iter().map(|&m| hub_text(m)).collect();
        firsts.sort();
        expected.sort();
        assert_eq!(firsts, expected, "{text}");
    }
}

#[test]
fn multipv_with_one_legal_move_gives_one_line() {
    // White's man on 19 must take 14 (Black men on 1 and 14).
    let pos = Position::parse("Wbeeeeeeeeeeeebeeeeweeeeeeeeeeeee").unwrap();
    assert_eq!(legal_moves(&pos).len(), 1);
    let r = multipv_fresh(&pos, 6, 3);
    assert_eq!(r.lines.len(), 1);
    assert_eq!(Some(r.lines[0].pv[0]), r.best);
}

#[test]
fn multipv_reports_every_line_of_every_iteration() {
    let pos = Position::start();
    let engine = Thinker::new(EngineOptions {
        tt_mib: 16,
        multipv: 3,
        ..EngineOptions::default()
    })
    .unwrap();
    let mut seen = Vec::new();
    let r = engine.think(&Game::new(pos), &Limits::depth(5), |info| {
        seen.push((info.depth, info.multipv, info.pv[0]))
    });
    let expected: Vec<(u32, usize)> = (1..=5).flat_map(|d| (1..=3).map(move |k| (d, k))).collect();
    let got: Vec<(u32, usize)> = seen.iter().map(|&(d, k, _)| (d, k)).collect();
    assert_eq!(got, expected);
    let last: Vec<_> = seen[12..].iter().map(|s| s.2).collect();
    let lines: Vec<_> = r.lines.iter().map(|l| l.pv[0]).collect();
    assert_eq!(last, lines);
}

#[test]
fn multipv_fixed_depth_is_deterministic() {
    let pos = Position::parse(MULTIPV_POSITIONS[1]).unwrap();
    let a = multipv_fresh(&pos, 8, 4);
    let b = multipv_fresh(&pos, 8, 4);
    assert_eq!((a.nodes, &a.lines), (b.nodes, &b.lines));
}

/// Keys standing for `n` earlier reversible plies (kings' quiet moves) of the game: they
/// match no real position, so only their number, the run toward the move limit, counts.
fn reversible_run(n: u64) -> Vec<u64> {
    (1..=n).collect()
}

#[test]
fn the_move_limit_draws_a_won_king_ending() {
    // Three kings against one: a heuristic win by two men and more, but 78 reversible
    // plies are behind it and Black's king cannot be caught within the 2 left.
    let pos = Position::parse("W:WK18,K22,K23:BK3").unwrap();
    let history = reversible_run(78);
    let tt = table();
    let limited = run_under(
        &pos,
        &history,
        Limits::depth(8),
        &tt,
        1,
        DrawRules::default(),
    );
    assert_eq!(limited.score, 0, "draw-moves 40: a draw");
    let tt = table();
    let off = DrawRules::default().with_quiet_moves(0);
    let unlimited = run_under(&pos, &history, Limits::depth(8), &tt, 1, off);
    assert!(
        unlimited.score >= 200,
        "draw-moves 0: a win, got {}",
        unlimited.score
    );
    // Far from the limit the rule changes nothing.
    let tt = table();
    let early = run_under(&pos, &[], Limits::depth(8), &tt, 1, DrawRules::default());
    let tt = table();
    assert_eq!(early, run_under(&pos, &[], Limits::depth(8), &tt, 1, off));
}

#[test]
fn contempt_prices_every_draw_for_the_root_side_in_play_only() {
    let contempt = |pos: &Position, history: &[u64], limits: Limits, c: i32| {
        let tt = table();
        run_with_contempt(pos, history, limits, &tt, 1, DrawRules::default(), c)
    };
    // A draw one ply down (the opponent to move): Black, lost, still takes the repetition,
    // now scored as a draw costing it the contempt.
    let root = Position::parse("B:WK22,K23:BK10").unwrap();
    let escape = legal_moves(&root)[0];
    let history = [root.play(escape).key()];
    let played = contempt(&root, &history, Limits::depth(8), 25);
    assert_eq!((played.best, played.score), (Some(escape), -25));
    let negative = contempt(&root, &history, Limits::depth(8), -25);
    assert_eq!((negative.best, negative.score), (Some(escape), 25));
    // Analysis scores draws 0 whatever the contempt.
    let analysis = Limits {
        analysis: true,
        ..Limits::depth(8)
    };
    assert_eq!(contempt(&root, &history, analysis, 25).score, 0);
    let infinite = Limits {
        infinite: true,
        ..Limits::depth(8)
    };
    assert_eq!(contempt(&root, &history, infinite, 25).score, 0);
    // Draws two plies down (the root side to move): the move limit of a won king ending.
    let pos = Position::parse("W:WK18,K22,K23:BK3").unwrap();
    let limited = contempt(&pos, &reversible_run(78), Limits::depth(8), 25);
    assert_eq!(limited.score, -25);
}

#[test]
fn a_win_under_the_move_limit_resets_the_count_in_time() {
    // 70 plies behind: the limit falls 10 plies into the search. A shallow search does
    // not reach it and sees the heuristic win. A deep one finds a proven win whose line
    // resets the count in time: White offers a king, which Black must take, and two
    // kings beat one. Along that line the run never reaches 80.
    let pos = Position::parse("W:WK18,K22,K23:BK3").unwrap();
    let rules = DrawRules::default();
    let history = reversible_run(70);
    let tt = table();
    let shallow = run_under(&pos, &history, Limits::depth(4), &tt, 1, rules);
    assert!(shallow.score >= 200, "{}", shallow.score);
    let tt = table();
    // Depth 22: the proof needs 14 plies with generation 4's pattern weights, 15 with
    // 4s's; the Italian network, which sees king endings less sharply, finds it at 22.
    let deep = run_under(&pos, &history, Limits::depth(22), &tt, 1, rules);
    assert!(deep.score > WIN_BOUND, "a proven win: {}", deep.score);
    let mut game = damiera::game::Game::with_rules(pos, rules);
    for &mv in &deep.pv {
        assert!(
            history.len() + game.reversible_plies() < 80,
            "{:?}",
            game.moves()
        );
        game.play(mv);
    }
    assert!(game.verdict().is_over(), "the line ends the game");
}

// ---------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------

/// A fixed move time is the move's whatever the search does, so a forced move is
/// searched (the table keeps it for the next move; on a game clock it is answered at
/// once, saving the clock: `single_legal_move_is_played_at_once_on_a_clock`).
#[test]
fn a_fixed_move_time_searches_a_forced_move() {
    let pos = Position::parse("W:W22,31:B18,2,3").unwrap();
    assert_eq!(legal_moves(&pos).len(), 1);
    let timed = fresh(&pos, Limits::move_time(0.05));
    assert!(timed.depth > 1, "{timed:?}");
}

/// A move's time counts from `since` (when the GUI's `go` arrived), not from when the
/// search began: a move whose time was used up before the search started answers with
/// the first iteration's move.
#[test]
fn move_time_counts_from_since() {
    let pos = Position::start();
    let long_ago = damiera::clock::Instant::now() - std::time::Duration::from_secs(2);
    let limits = Limits {
        since: Some(long_ago),
        ..Limits::move_time(1.0)
    };
    let r = fresh(&pos, limits);
    assert_eq!(r.depth, 1, "{r:?}");
    assert!(legal_moves(&pos).contains(&r.best.unwrap()));
}
