//! Property tests of the rules core over random games: the incremental Zobrist key equals
//! a full recompute, board invariants hold after every move, and every position and move
//! survives print → parse, and the quick tests for a capture or a quiet move agree with
//! the move list. Also: any position or move text either reads back to what it parses to,
//! or is refused with an error that names what is wrong in it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use damiera::board::{Position, PositionError, Square};
use damiera::movegen::{
    MoveError, has_capture, has_quiet_move, hub_text, legal_moves, parse_move, path_text,
};
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

/// Hub position strings, mostly well formed: a side char (at times a wrong one), then
/// about 32 square chars, mostly empty, at times not a square char at all.
fn hub_like() -> impl Strategy<Value = String> {
    let square = prop_oneof![
        12 => Just('e'),
        2 => Just('w'),
        2 => Just('b'),
        1 => Just('W'),
        1 => Just('B'),
        1 => any::<char>(),
    ];
    ("[WBwbx]", prop::collection::vec(square, 31..=33))
        .prop_map(|(side, squares)| side + &squares.into_iter().collect::<String>())
}

/// Any text is a position whose FEN and Hub string read back to it, or an error that
/// names what is wrong in the text (the token, square or count at fault).
fn position_round_trips_or_names_its_fault(text: &str) -> Result<(), TestCaseError> {
    let error = match Position::parse(text) {
        Ok(pos) => {
            prop_assert_eq!(pos.check_invariants(), Ok(()));
            prop_assert_eq!(Position::parse(&pos.to_fen()), Ok(pos), "{:?}", text);
            prop_assert_eq!(Position::parse(&pos.to_hub()), Ok(pos), "{:?}", text);
            return Ok(());
        }
        Err(error) => error,
    };
    let t = text.trim();
    let message = error.to_string();
    let named = match &error {
        PositionError::Empty => t.is_empty(),
        PositionError::BadSide(side) => {
            t.contains(side.as_str())
                && !matches!(side.as_str(), "W" | "w" | "B" | "b")
                && message.contains(&format!("{side:?}"))
        }
        PositionError::BadLength(n) => {
            !t.contains(':')
                && t.chars().count() == *n
                && *n != 33
                && message.contains(&n.to_string())
        }
        PositionError::BadSquareChar { square, found } => {
            t.chars().nth(usize::from(*square)) == Some(*found)
                && !"wbWBe".contains(*found)
                && message.contains(&format!("square {square}: {found:?}"))
        }
        PositionError::BadPart(part) => {
            t.contains(part.as_str())
                && !part.starts_with(['W', 'w', 'B', 'b'])
                && message.contains(&format!("{part:?}"))
        }
        PositionError::BadToken(token) => {
            t.contains(token.as_str()) && message.contains(&format!("{token:?}"))
        }
        PositionError::SquareOutOfRange(square) => {
            t.contains(square.as_str())
                && square.parse::<u32>().is_ok_and(|n| !(1..=32).contains(&n))
                && message.contains(square.as_str())
        }
        PositionError::SquareTwice(n) => {
            n.parse::<u8>().is_ok_and(|n| (1..=32).contains(&n)) && message.contains(n.as_str())
        }
        PositionError::ManOnCrowningRow { square, color } => {
            square
                .parse::<u8>()
                .ok()
                .and_then(Square::new)
                .is_some_and(|sq| sq.mask() & color.crown_row() != 0)
                && message.contains(square.as_str())
        }
        PositionError::TooManyPieces { count, .. } => {
            *count > 12 && message.contains(&count.to_string())
        }
    };
    prop_assert!(named, "{:?}: {:?} ({})", text, error, message);
    Ok(())
}

/// The number a move text starts with.
fn first_square(text: &str) -> Option<u8> {
    text.split(['-', 'x']).next().and_then(|n| n.parse().ok())
}

/// Any text is a legal move of `pos` that reads back from its Hub and path forms, or an
/// error that quotes the text and says why: bad shape (naming the bad square), no legal
/// move (listing them all) or several (listing them).
fn move_round_trips_or_names_its_fault(pos: &Position, text: &str) -> Result<(), TestCaseError> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let legal = legal_moves(pos);
    let first = lower
        .split(['-', 'x'])
        .next()
        .and_then(|n| n.parse::<u8>().ok());
    let error = match parse_move(pos, text) {
        Ok(mv) => {
            prop_assert!(legal.contains(&mv), "{:?} in {}", text, pos.to_fen());
            prop_assert_eq!(Some(mv.from().number()), first, "{:?}", text);
            prop_assert_eq!(parse_move(pos, &hub_text(mv)), Ok(mv));
            prop_assert_eq!(parse_move(pos, &path_text(pos, mv)), Ok(mv));
            return Ok(());
        }
        Err(error) => error,
    };
    prop_assert!(error.to_string().contains(&format!("{t:?}")), "{}", error);
    let mut all: Vec<String> = legal.iter().map(|&m| path_text(pos, m)).collect();
    all.sort();
    match error {
        MoveError::Syntax {
            text: quoted,
            reason,
        } => {
            prop_assert_eq!(quoted, t);
            if let Some((token, _)) = reason.split_once(" is not a square") {
                let token = token.trim_matches('"');
                prop_assert!(lower.contains(token), "{:?}: {}", text, reason);
                prop_assert!(token.parse::<u8>().ok().and_then(Square::new).is_none());
            }
        }
        MoveError::Illegal {
            text: quoted,
            mut legal,
        } => {
            prop_assert_eq!(quoted, t);
            legal.sort();
            prop_assert_eq!(&legal, &all);
            prop_assert!(
                !all.contains(&lower),
                "{:?} is legal in {}",
                text,
                pos.to_fen()
            );
        }
        MoveError::Ambiguous {
            text: quoted,
            candidates,
        } => {
            prop_assert_eq!(quoted, t);
            prop_assert!(candidates.len() > 1);
            for candidate in &candidates {
                prop_assert!(all.contains(candidate), "{} in {}", candidate, pos.to_fen());
                prop_assert_eq!(first_square(candidate), first, "{}", candidate);
            }
        }
    }
    Ok(())
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
    fn position_text_round_trips_or_names_its_fault(text in prop_oneof!["\\PC{0,60}", hub_like()]) {
        position_round_trips_or_names_its_fault(&text)?;
    }

    #[test]
    fn fen_like_text_round_trips_or_names_its_fault(text in "[WB]:[WBK0-9,:\\-. ]{0,50}") {
        position_round_trips_or_names_its_fault(&text)?;
    }

    #[test]
    fn move_text_round_trips_or_names_its_fault(
        start in starts(),
        choices in prop::collection::vec(any::<u16>(), 0..40),
        text in prop_oneof![
            "[0-9x\\- ]{0,30}",
            "([1-9]|[12][0-9]|3[0-4]|0)([-xX]([1-9]|[12][0-9]|3[0-4])){0,4}",
        ],
    ) {
        let mut pos = start;
        random_game(start, &choices, |p| pos = *p);
        move_round_trips_or_names_its_fault(&pos, &text)?;
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
