//! Search behaviour: determinism of fixed-depth and fixed-node searches, the bench
//! signature, and forced wins that the engine finds and plays out against itself.

use std::process::Command;

use damiera::board::{Color, Position};
use damiera::movegen::{hub_text, legal_moves};
use damiera::search::score::WIN_BOUND;
use damiera::search::{
    Limits, SearchContext, SearchControl, SearchResult, Style, TranspositionTable, search,
};

fn run(pos: &Position, history: &[u64], limits: Limits, tt: &TranspositionTable) -> SearchResult {
    let control = SearchControl::new();
    let ctx = SearchContext {
        tt,
        control: &control,
        style: Style::FULL,
        threads: 1,
        egdb: None,
    };
    search(pos, history, &limits, &ctx, |_| {})
}

fn fresh(pos: &Position, limits: Limits) -> SearchResult {
    run(pos, &[], limits, &TranspositionTable::new(16))
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
    let bench = || {
        let out = Command::new(env!("CARGO_BIN_EXE_damiera"))
            .args(["bench", "--depth", "7"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let last = text.lines().last().unwrap().to_string();
        let words: Vec<&str> = last.split(' ').collect();
        assert_eq!(
            (words.len(), words[0], words[2], words[4]),
            (5, "bench", "nodes", "nps"),
            "{last}"
        );
        words[1].parse::<u64>().unwrap()
    };
    assert_eq!(bench(), bench());
}

#[test]
fn no_legal_move_gives_no_best_move() {
    let pos = Position::parse("W:W32:BK28").unwrap();
    let r = fresh(&pos, Limits::depth(3));
    assert_eq!(r.best, None);
    assert!(r.score < -WIN_BOUND);
}

#[test]
fn single_legal_move_is_played_at_once_when_timed() {
    let pos = Position::parse("W:W30:B27,1").unwrap();
    let r = fresh(&pos, Limits::move_time(5.0));
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
        let with = run(
            &root,
            &[seen.key()],
            Limits::depth(8),
            &TranspositionTable::new(16),
        );
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
    let tt = TranspositionTable::new(16);
    let mut pos = *start;
    let mut history: Vec<u64> = Vec::new();
    for ply in 0..max_plies {
        let r = run(&pos, &history, Limits::depth(depth), &tt);
        let Some(mv) = r.best else {
            return Some((pos.side_to_move(), ply));
        };
        assert!(legal_moves(&pos).contains(&mv));
        let king_move = pos.piece_at(mv.from()).is_some_and(|p| p.king) && !mv.is_capture();
        if king_move {
            history.push(pos.key())
        } else {
            history.clear()
        }
        pos = pos.play(mv);
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
