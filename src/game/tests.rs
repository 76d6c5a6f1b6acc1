use super::*;
use crate::board::Color;

fn pos(fen: &str) -> Position {
    Position::parse(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn game_of<S: AsRef<str>>(fen: &str, rules: DrawRules, moves: &[S]) -> Game {
    Game::from_texts(pos(fen), rules, moves).unwrap_or_else(|e| panic!("{e}"))
}

/// A white king on 18 and a black king on 3, far apart.
const KINGS: &str = "W:WK18:BK3";

#[test]
fn history_keys_follow_the_last_irreversible_move() {
    let game = game_of(
        "W:W22,K29:B11,K4",
        DrawRules::default(),
        &["29-25", "4-8", "22-18"],
    );
    assert_eq!(game.reversible_plies(), 0, "a man's move resets the run");
    assert!(game.history_keys().is_empty());
    let game = game_of(
        "W:W22,K29:B11,K4",
        DrawRules::default(),
        &["22-18", "4-8", "29-25"],
    );
    assert_eq!(game.reversible_plies(), 2);
    let keys = game.history_keys();
    assert_eq!(
        keys,
        vec![game.positions()[1].key(), game.positions()[2].key()]
    );
}

#[test]
fn repetition_draws_at_the_third_occurrence() {
    let shuffle = ["29-25", "4-8", "25-29", "8-4"];
    let mut game = game_of::<&str>("W:WK29:BK4", DrawRules::default(), &[]);
    for (i, text) in shuffle.iter().cycle().take(8).enumerate() {
        assert_eq!(game.verdict(), Verdict::Ongoing, "before ply {}", i + 1);
        game.play_text(text).unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(
        game.verdict(),
        Verdict::Draw(DrawReason::Repetition { times: 3 })
    );
    assert_eq!(game.verdict_at(4), Verdict::Ongoing, "twice is not enough");
    let twice = DrawRules {
        repetitions: Some(2),
        ..DrawRules::default()
    };
    game.set_rules(twice);
    assert_eq!(
        game.verdict_at(4),
        Verdict::Draw(DrawReason::Repetition { times: 2 })
    );
    game.set_rules(DrawRules::OFF);
    assert_eq!(game.verdict(), Verdict::Ongoing);
}

/// `plies` king moves from [`KINGS`] with no position occurring three times within 96
/// plies: White's king goes round a 6-square loop and Black's round an 8-square loop,
/// never near each other, so a position comes back only every 24 moves of each side.
fn quiet_walk(plies: usize) -> Vec<String> {
    let white = [18, 22, 26, 29, 25, 21];
    let black = [3, 7, 12, 16, 20, 15, 11, 6];
    let step =
        |lap: &[u8], i: usize| format!("{}-{}", lap[i % lap.len()], lap[(i + 1) % lap.len()]);
    (0..plies)
        .map(|i| {
            if i % 2 == 0 {
                step(&white, i / 2)
            } else {
                step(&black, i / 2)
            }
        })
        .collect()
}

#[test]
fn forty_moves_each_draw_at_ply_eighty() {
    let game = game_of(KINGS, DrawRules::default(), &quiet_walk(80));
    for ply in 0..80 {
        assert_eq!(game.verdict_at(ply), Verdict::Ongoing, "ply {ply}");
    }
    assert_eq!(
        game.verdict(),
        Verdict::Draw(DrawReason::QuietMoves { moves: 40 })
    );
    assert_eq!(game.reversible_plies(), 80);
    let off = game_of(KINGS, DrawRules::OFF, &quiet_walk(80));
    assert_eq!(off.verdict(), Verdict::Ongoing);
    let short = DrawRules::OFF.with_quiet_moves(3);
    let game = game_of(KINGS, short, &quiet_walk(6));
    assert_eq!(game.verdict_at(5), Verdict::Ongoing);
    assert_eq!(
        game.verdict(),
        Verdict::Draw(DrawReason::QuietMoves { moves: 3 })
    );
}

#[test]
fn no_legal_move_loses_before_any_draw() {
    // White takes Black's last piece.
    let game = game_of("W:W10:B6", DrawRules::default(), &["10x3"]);
    assert_eq!(
        game.verdict(),
        Verdict::Win(Color::White, WinReason::NoLegalMove)
    );
    // A blocked Black man on 1 (White men on 5 and 10, Black to move).
    let blocked = game_of::<&str>("B:W5,10,K32:B1", DrawRules::OFF.with_quiet_moves(1), &[]);
    assert_eq!(
        blocked.verdict(),
        Verdict::Win(Color::White, WinReason::NoLegalMove)
    );
}

#[test]
fn undo_truncate_and_bad_moves() {
    let mut game = game_of(KINGS, DrawRules::default(), &quiet_walk(5));
    assert_eq!(game.undo().map(|m| m.to().number()), Some(29));
    game.truncate(2);
    assert_eq!(game.plies(), 2);
    assert_eq!(game.positions().len(), 3);
    game.truncate(10);
    assert_eq!(game.plies(), 2);
    let err = Game::from_texts(Position::start(), DrawRules::default(), &["22-19", "22-19"]);
    let err = err.err().unwrap_or_default();
    assert!(err.starts_with("move 2: illegal move"), "{err}");
    assert!(Game::new(Position::start()).play_text("1-5").is_err());
}
