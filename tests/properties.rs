//! Property tests of the rules core over random games: the incremental Zobrist key equals
//! a full recompute, board invariants hold after every move, and every position and move
//! survives print → parse, and the quick tests for a capture or a quiet move agree with
//! the move list. Also: position and move parsers never panic on any text.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use damiera::board::Position;
use damiera::movegen::{has_capture, has_quiet_move, hub_text, legal_moves, parse_move, path_text};
use proptest::prelude::*;

/// Plays a random game from `start`, choosing moves by `choices`, calling `check` on
/// every position reached (the start included).
fn random_game(start: Position, choices: &[u16], mut check: impl FnMut(&Position)) {
    let mut pos = start;
    check(&pos);
    for &c in choices {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        pos = pos.play(moves[c as usize % moves.len()]);
        check(&pos);
    }
}

/// Start positions with kings, so that king moves and captures appear early.
fn starts() -> impl Strategy<Value = Position> {
    prop_oneof![
        Just(Position::start()),
        Just(Position::parse("W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4").unwrap()),
        Just(Position::parse("B:W30,21,22,17,20,K6:B25,28,9,5,1,3").unwrap()),
        Just(Position::parse("W:WK18,K30,31:BK14,K15,22,23,5").unwrap()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn key_and_invariants_hold_in_random_games(start in starts(), choices in prop::collection::vec(any::<u16>(), 0..200)) {
        random_game(start, &choices, |pos| {
            assert_eq!(pos.check_invariants(), Ok(()));
            assert_eq!(pos.key(), pos.compute_key());
        });
    }

    #[test]
    fn quick_move_tests_agree_with_the_move_list(start in starts(), choices in prop::collection::vec(any::<u16>(), 0..200)) {
        random_game(start, &choices, |pos| {
            let moves = legal_moves(pos);
            assert_eq!(has_capture(pos), moves.iter().any(|m| m.is_capture()), "{}", pos.to_fen());
            if !has_capture(pos) {
                assert_eq!(has_quiet_move(pos), !moves.is_empty(), "{}", pos.to_fen());
            }
        });
    }

    #[test]
    fn positions_survive_print_and_parse(start in starts(), choices in prop::collection::vec(any::<u16>(), 0..200)) {
        random_game(start, &choices, |pos| {
            assert_eq!(Position::parse(&pos.to_fen()), Ok(*pos));
            assert_eq!(Position::parse(&pos.to_hub()), Ok(*pos));
        });
    }

    #[test]
    fn moves_survive_print_and_parse(start in starts(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        random_game(start, &choices, |pos| {
            for &mv in legal_moves(pos).iter() {
                assert_eq!(parse_move(pos, &hub_text(mv)), Ok(mv), "{}", hub_text(mv));
                assert_eq!(parse_move(pos, &path_text(pos, mv)), Ok(mv), "{}", path_text(pos, mv));
            }
        });
    }

    #[test]
    fn position_parser_never_panics(text in "\\PC{0,60}") {
        let _ = Position::parse(&text);
    }

    #[test]
    fn fen_like_text_never_panics(text in "[WB]:[WBK0-9,:\\-. ]{0,50}") {
        if let Ok(pos) = Position::parse(&text) {
            prop_assert_eq!(pos.check_invariants(), Ok(()));
        }
    }

    #[test]
    fn move_parser_never_panics(text in "[0-9x\\- ]{0,30}") {
        let pos = Position::start();
        let _ = parse_move(&pos, &text);
    }
}

#[test]
fn a_blocked_side_has_no_quiet_move() {
    // The white man on 32 can only step to 28, where a black king stands (men never
    // capture kings); a second man on 27 has somewhere to go.
    let blocked = Position::parse("W:W32:BK28").unwrap();
    assert!(!has_capture(&blocked) && !has_quiet_move(&blocked));
    let free = Position::parse("W:W32,27:BK28").unwrap();
    assert!(!has_capture(&free) && has_quiet_move(&free));
}
