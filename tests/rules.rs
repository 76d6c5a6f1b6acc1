//! The rules core against outside references: perft suites and FID rule positions from
//! `tests/data`, move text in both forms, and the `perft` / `moves` commands.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

mod support;

use std::process::Command;

use damiera::board::{Color, HouseRules, Position, Variant};
use damiera::movegen::{
    MoveError, hub_text, legal_moves, parse_move, path_text, perft, sort_moves,
};

/// Leaves above this are checked only by the ignored `perft_deep` test.
const NORMAL_RUN_LIMIT: u64 = 100_000_000;

fn data_lines(name: &str) -> Vec<Vec<String>> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('|').map(|f| f.trim().to_string()).collect())
        .collect()
}

/// Every game's perft suites, to the depths whose count is at most `limit`.
fn check_suites(limit: u64) {
    for suite in support::perft::suites() {
        for (i, &expected) in suite.counts.iter().enumerate() {
            if expected > limit {
                continue;
            }
            let depth = i as u32 + 1;
            let got = perft(&suite.position, depth, suite.paths);
            assert_eq!(got, expected, "{} depth {depth}", suite.label);
        }
    }
}

#[test]
fn perft_suites() {
    check_suites(NORMAL_RUN_LIMIT);
}

#[test]
#[ignore = "deep perft (depth 12-13 from the start), minutes in release mode"]
fn perft_deep() {
    check_suites(u64::MAX);
}

#[test]
fn fid_rule_positions() {
    for f in data_lines("rules.txt") {
        let pos = Position::parse(&f[0]).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
        let mut moves = legal_moves(&pos).to_vec();
        sort_moves(&mut moves);
        let got: Vec<String> = moves.iter().map(|&m| path_text(&pos, m)).collect();
        let expected: Vec<String> = match f[1].as_str() {
            "-" => Vec::new(),
            list => list.split_whitespace().map(String::from).collect(),
        };
        assert_eq!(got, expected, "{} ({})", f[0], f[2]);
    }
}

#[test]
fn ring_capture_is_one_move_with_two_paths() {
    let pos = Position::parse("W:WK18:B14,15,22,23").unwrap();
    assert_eq!(perft(&pos, 1, false), 1);
    assert_eq!(perft(&pos, 1, true), 2);
    let mv = legal_moves(&pos)[0];
    assert_eq!(hub_text(mv), "18x18x14x15x22x23");
    let after = pos.play(mv);
    assert_eq!(after.to_fen(), "B:WK18:B");
}

#[test]
fn promotion_at_the_end_of_the_move() {
    let pos = Position::parse("W:W10:B6,7").unwrap();
    let after = pos.play(parse_move(&pos, "10x3").unwrap());
    assert_eq!(after.to_fen(), "B:WK3:B7");
    let quiet = Position::parse("B:W30:B27").unwrap();
    let after = quiet.play(parse_move(&quiet, "27-31").unwrap());
    assert_eq!(after.to_fen(), "W:W30:BK31");
}

/// A man that reaches the king row during a capture and can capture on, backward: in
/// Russian draughts it is crowned and goes on as a king; in Pool checkers and Brazilian
/// draughts it goes on as a man and stays one.
#[test]
fn promotion_during_a_capture_follows_each_games_rule() {
    let russian = Position::parse_in(Variant::Russian, "W:Wd6:Ba7,e7,g7").unwrap();
    let after = |v: Variant| {
        let pos = russian.with_variant(v);
        let moves = legal_moves(&pos);
        assert_eq!(moves.len(), 1, "{v}");
        pos.play(moves[0]).with_variant(Variant::Russian).to_fen()
    };
    assert_eq!(after(Variant::Russian), "B:WKh6:Ba7");
    assert_eq!(after(Variant::Pool), "B:Wh6:Ba7");
    assert_eq!(after(Variant::Brazilian), "B:Wh6:Ba7");
}

#[test]
fn move_text_forms() {
    let pos = Position::parse("W:WK27:B5,6,13,15,21,23").unwrap();
    let long = parse_move(&pos, "27x20x11x2x9x18x25").unwrap();
    assert_eq!(hub_text(long), "27x25x5x6x13x15x21x23");
    assert_eq!(parse_move(&pos, "27x25x5x6x13x15x21x23"), Ok(long));
    assert_eq!(
        parse_move(&pos, "27x25x23x21x15x13x6x5"),
        Ok(long),
        "captured in any order"
    );
    assert_eq!(
        parse_move(&pos, "27x25"),
        Ok(long),
        "short form naming one move"
    );
    assert_eq!(path_text(&pos, long), "27x20x11x2x9x18x25");

    let start = Position::start();
    let quiet = parse_move(&start, "22-19").unwrap();
    assert_eq!(
        (hub_text(quiet), path_text(&start, quiet)),
        ("22-19".into(), "22-19".into())
    );
    assert_eq!(parse_move(&start, " 22-19 "), Ok(quiet));
}

#[test]
fn move_text_errors_list_the_moves() {
    let start = Position::start();
    let legal = [
        "21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20",
    ];
    match parse_move(&start, "22-17") {
        Err(MoveError::Illegal { legal: listed, .. }) => assert_eq!(listed, legal),
        other => panic!("expected Illegal, got {other:?}"),
    }
    let err = parse_move(&start, "22-17").unwrap_err().to_string();
    assert!(err.contains("\"22-17\"") && err.contains("24-20"), "{err}");
    for text in [
        "22-",
        "a-b",
        "33-29",
        "0-4",
        "22-19-15",
        "x",
        "",
        "22x",
        "22x1x2x99",
    ] {
        assert!(
            matches!(parse_move(&start, text), Err(MoveError::Syntax { .. })),
            "{text}"
        );
    }
    let none = Position::parse("W:W32:BK28").unwrap();
    let err = parse_move(&none, "32-27").unwrap_err().to_string();
    assert!(err.contains("no legal move"), "{err}");
}

#[test]
fn ambiguous_short_form_lists_candidates() {
    // The man on 26 takes two either way round and lands on 10 both times.
    let pos = Position::parse("W:W26:B13,14,21,22").unwrap();
    match parse_move(&pos, "26x10") {
        Err(MoveError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates, ["26x17x10", "26x19x10"])
        }
        other => panic!("expected Ambiguous, got {other:?}"),
    }
    let a = parse_move(&pos, "26x17x10").unwrap();
    assert_eq!(parse_move(&pos, "26x10x13x21"), Ok(a));
    assert_eq!(
        hub_text(parse_move(&pos, "26x19x10").unwrap()),
        "26x10x14x22"
    );
    assert_eq!(pos.side_to_move(), Color::White);
}

fn damiera(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(args)
        .output()
        .expect("run damiera");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_command_output() {
    let (code, out, _) = damiera(&["perft", "3", "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8);
    assert!(
        lines[0].starts_with("21-17 "),
        "sorted by squares: {}",
        lines[0]
    );
    let sum: u64 = lines[..7]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 302);
    let last: Vec<&str> = lines[7].split(' ').collect();
    assert_eq!(
        (last[0], last[1], last[2], last[4]),
        ("total", "302", "time_ms", "nps")
    );
    assert!(last[3].parse::<u64>().is_ok() && last[5].parse::<u64>().is_ok());

    let (code, out, _) = damiera(&["perft", "2", "--paths", "--fen", "W:WK18:B14,15,22,23,1"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("total 2 "), "{out}");
}

#[test]
fn moves_command_output() {
    let (code, out, _) = damiera(&["moves", "--fen", "W:WK31:B18,20,K27,K28"]);
    assert_eq!((code, out.as_str()), (0, "31x22x13\n31x24x15\n"));
    let (_, out, _) = damiera(&["moves", "--fen", "W:WK31:B18,20,K27,K28", "--format", "hub"]);
    assert_eq!(out, "31x13x18x27\n31x15x20x28\n");
    let (_, out, _) = damiera(&["moves", "--fen", "W:WK31:B18,20,K27,K28", "--format", "fen"]);
    assert_eq!(out, "31x22x13 B:WK13:B20,K28\n31x24x15 B:WK15:B18,K27\n");
    let (_, out, _) = damiera(&["moves", "--variant", "russian", "--format", "fen"]);
    assert!(out.starts_with("a3-b4 B:Wa1,b2,b4,"), "{out}");
    let (code, out, _) = damiera(&["moves", "--fen", "W:W32:BK28"]);
    assert_eq!((code, out.as_str()), (0, ""));
    let (_, out, _) = damiera(&["moves", "--fen", "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"]);
    assert_eq!(out.lines().count(), 7);
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    for args in [
        &["perft", "x"][..],
        &["perft", "3", "--fen", "W:W33:B1"],
        &["perft"],
        &["moves", "--fen", "Wxyz"],
        &["moves", "--format", "long"],
        &["perft", "3", "--bogus"],
        &["nosuchcommand"],
    ] {
        let (code, out, err) = damiera(args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(out, "", "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
    let (_, _, err) = damiera(&["perft", "3", "--fen", "W:W33:B1"]);
    assert!(err.contains("33"), "{err}");
}

/// The legal moves of `fen` in `variant`, path form, shortest text first, then in
/// alphabetical order.
fn moves_in(variant: Variant, fen: &str) -> Vec<String> {
    let pos = Position::parse_in(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut texts: Vec<String> = legal_moves(&pos)
        .iter()
        .map(|&m| path_text(&pos, m))
        .collect();
    texts.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
    texts
}

/// Czech draughts: where a king can capture, a king must (Art. 4.14), even when a man's
/// capture takes more; Russian draughts leave the choice free, and Brazilian draughts
/// ask for the most pieces.
#[test]
fn czech_a_kings_capture_comes_first() {
    let fen = "W:WKc1,a3:Bb4,d6,g5";
    assert_eq!(moves_in(Variant::Czech, fen), ["c1:h6"]);
    assert_eq!(moves_in(Variant::Russian, fen), ["c1:h6", "a3:c5:e7"]);
    assert_eq!(moves_in(Variant::Brazilian, fen), ["a3xc5xe7"]);
    // Without a king, the men choose freely, not necessarily the longest capture.
    assert_eq!(
        moves_in(Variant::Czech, "W:Wa3,e3:Bb4,d6,f4"),
        ["e3:g5", "a3:c5:e7"]
    );
}

/// Spanish draughts: the most pieces (the law of quantity), then among those the most
/// kings (the law of quality).
#[test]
fn spanish_most_pieces_then_most_kings() {
    // One king or one man: the king.
    assert_eq!(moves_in(Variant::Spanish, "W:W11,12:B15,K14"), ["11x18"]);
    // Two men or one king: the two men, either way.
    assert_eq!(
        moves_in(Variant::Spanish, "W:W11,12:B15,K14,23"),
        ["11x20x27", "12x19x28"]
    );
    // Two pieces each way, one way with a king among them: that one.
    assert_eq!(
        moves_in(Variant::Spanish, "W:W11,12:B15,K14,22"),
        ["11x18x27"]
    );
}

/// Spanish squares are counted from White's side: 1 at White's near right, on the Italian
/// board (a dark square at each player's right); White starts on 1–12 and moves first.
#[test]
fn spanish_board_and_numbers() {
    let start = Position::start_of(Variant::Spanish);
    assert_eq!(
        Ok(start),
        Position::parse_in(Variant::Spanish, "W:W1-12:B21-32")
    );
    assert_eq!(
        moves_in(Variant::Spanish, &start.to_fen()),
        ["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"]
    );
    // Spanish 1 is the Italian board's lower-right corner, Italian 32.
    assert_eq!(
        Variant::Spanish.square_numbered(1),
        Variant::Italian.square_numbered(32)
    );
}

/// Thai draughts: eight men each on two rows; a king takes a piece at any distance but
/// lands just behind it, and a taken piece leaves the board at once, so the king may come
/// back over its square in the same capture.
#[test]
fn thai_king_lands_just_behind_and_taken_pieces_leave_at_once() {
    let start = Position::start_of(Variant::Thai);
    assert_eq!(start.men(Color::White).count_ones(), 8);
    assert_eq!(
        Ok(start),
        Position::parse_in(Variant::Thai, "W:W1-8:B25-32")
    );
    assert_eq!(
        start.to_fen(),
        "W:Wa1,b2,c1,d2,e1,f2,g1,h2:Ba7,b8,c7,d8,e7,f8,g7,h8"
    );
    assert_eq!(moves_in(Variant::Thai, "W:WKa1:Bd4"), ["a1xe5"]);
    assert_eq!(
        moves_in(Variant::Russian, "W:WKa1:Bd4"),
        ["a1:e5", "a1:f6", "a1:g7", "a1:h8"]
    );
    // Both men, in either order: the second jump passes the first one's square.
    assert_eq!(
        moves_in(Variant::Thai, "W:WKd4:Bc3,e5"),
        ["d4xb2xf6", "d4xf6xb2"]
    );
    let pos = Position::parse_in(Variant::Thai, "W:WKd4:Bc3,e5").unwrap();
    for &m in legal_moves(&pos).iter() {
        assert_eq!(pos.play(m).pieces(Color::Black), 0);
    }
}

/// Damka: a man's first jump goes forward, the later jumps of its chain any way; a man
/// crowned during a capture stops there; kings fly and land where the capture goes on.
#[test]
fn damka_men_turn_back_after_the_first_jump_and_stop_when_crowned() {
    let start = Position::start_of(Variant::Damka);
    assert_eq!(
        Ok(start),
        Position::parse_in(Variant::Damka, "W:W1-12:B21-32")
    );
    assert_eq!(start.side_to_move(), Color::White);
    // The man on c3 takes d4 forward, then f4 behind it; a Czech man stops after d4.
    assert_eq!(moves_in(Variant::Damka, "W:Wc3:Bd4,f4,b8"), ["c3:e5:g3"]);
    assert_eq!(moves_in(Variant::Czech, "W:Wc3:Bd4,f4,b8"), ["c3:e5"]);
    // A man never begins with a backward jump: a Russian man must take d2, a Damka man
    // steps forward.
    assert_eq!(moves_in(Variant::Damka, "W:We3:Bd2,b8"), ["e3-d4", "e3-f4"]);
    assert_eq!(moves_in(Variant::Russian, "W:We3:Bd2,b8"), ["e3:c1"]);
    // Five pieces, back over its own start square; free choice, so one piece is legal too.
    assert_eq!(
        moves_in(Variant::Damka, "W:Wc3,a1,h2:Bd4,f4,f2,d2,b4,f8,h8,b8"),
        ["c3:a5", "c3:e5:g3:e1:c3:a5"]
    );
    // Crowned on f8 the man stops, though a king there could take g7; a Russian one goes on.
    assert_eq!(moves_in(Variant::Damka, "W:Wd6:Be7,g7,b8"), ["d6:f8"]);
    assert_eq!(moves_in(Variant::Russian, "W:Wd6:Be7,g7,b8"), ["d6:f8:h6"]);
    let pos = Position::parse_in(Variant::Damka, "W:Wd6:Be7,g7,b8").unwrap();
    assert_eq!(pos.play(legal_moves(&pos)[0]).to_fen(), "B:WKf8:Bb8,g7");
    // A king lands anywhere behind the piece it takes, but where the capture goes on if
    // it can: f6 (to take e7), not d4, e5 or g7.
    assert_eq!(moves_in(Variant::Damka, "W:WKa1:Bc3,e7,b8"), ["a1:f6:d8"]);
    assert_eq!(
        moves_in(Variant::Damka, "W:WKa1:Bc3,e5,b8"),
        ["a1:d4:f6", "a1:d4:g7", "a1:d4:h8"]
    );
}

/// The legal moves of a Damka position under `house` rules, as `moves_in` lists them.
fn house_moves(house: &str, fen: &str) -> Vec<String> {
    let house = HouseRules::parse(house).unwrap();
    let pos = Position::parse_in(Variant::Damka, fen)
        .unwrap()
        .with_house_rules(house);
    let mut texts: Vec<String> = legal_moves(&pos)
        .iter()
        .map(|&m| path_text(&pos, m))
        .collect();
    texts.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
    texts
}

/// The position after the Damka move `text` under `house` rules, as FEN.
fn house_after(house: &str, fen: &str, text: &str) -> String {
    let house = HouseRules::parse(house).unwrap();
    let pos = Position::parse_in(Variant::Damka, fen)
        .unwrap()
        .with_house_rules(house);
    let mv = parse_move(&pos, text).unwrap();
    let next = pos.play(mv);
    assert_eq!(next.check_invariants(), Ok(()));
    next.to_fen()
}

/// Damka's house rules, each on a position where it changes the legal moves.
#[test]
fn damka_house_rules_change_the_moves() {
    // no-compulsory-capture: the quiet moves stand beside the capture.
    let fen = "W:Wc3,g1:Bd4,b8";
    assert_eq!(house_moves("", fen), ["c3:e5"]);
    assert_eq!(
        house_moves("no-compulsory-capture", fen),
        ["c3-b4", "c3:e5", "g1-f2", "g1-h2"]
    );
    // stop-chain: a man's chain may stop after any jump; a flying king that stops may
    // land anywhere behind the piece it took (not only where the capture goes on).
    let chain = "W:Wc3,a1,h2:Bd4,f4,f2,d2,b4,f8,h8,b8";
    assert_eq!(house_moves("", chain), ["c3:a5", "c3:e5:g3:e1:c3:a5"]);
    assert_eq!(
        house_moves("stop-chain", chain),
        [
            "c3:a5",
            "c3:e5",
            "c3:e5:g3",
            "c3:e5:g3:e1",
            "c3:e5:g3:e1:c3",
            "c3:e5:g3:e1:c3:a5"
        ]
    );
    assert_eq!(house_moves("", "W:WKa1:Bc3,e7,b8"), ["a1:f6:d8"]);
    assert_eq!(
        house_moves("stop-chain", "W:WKa1:Bc3,e7,b8"),
        ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8", "a1:f6:d8"]
    );
    // last-man-backward: a side's only man (beside a king) may step back; with two men
    // it may not.
    let last = "W:Wc3,Ka1:Bb4,d4,a5,e5,Kh8";
    assert_eq!(house_moves("", last), ["a1-b2"]);
    assert_eq!(
        house_moves("last-man-backward", last),
        ["a1-b2", "c3-b2", "c3-d2"]
    );
    let two_men = "W:Wc3,g1:Bb4,d4,a5,e5,Kh8";
    assert_eq!(
        house_moves("last-man-backward", two_men),
        house_moves("", two_men)
    );
    // men-forward-only: the man stops after its forward jump, as in Czech draughts.
    assert_eq!(house_moves("", "W:Wc3:Bd4,f4,b8"), ["c3:e5:g3"]);
    assert_eq!(
        house_moves("men-forward-only", "W:Wc3:Bd4,f4,b8"),
        ["c3:e5"]
    );
}

/// Huffing: a quiet move played while a capture was possible removes, at its end, the
/// piece that could have captured: the mover where it lands if it could, else the piece
/// that could take the most, the lowest square number on a tie.
#[test]
fn damka_huffing_removes_the_piece_that_declined() {
    let fen = "W:Wc3,g1:Bd4,b8";
    assert_eq!(
        house_moves("huffing", fen),
        house_moves("no-compulsory-capture", fen)
    );
    // The capturer moves away: it is removed where it landed.
    assert_eq!(house_after("huffing", fen, "c3-b4"), "B:Wg1:Bb8,d4");
    // Another piece moves: the capturer is removed.
    assert_eq!(house_after("huffing", fen, "g1-h2"), "B:Wh2:Bb8,d4");
    // The capture itself huffs nothing; without a capture nothing is huffed.
    assert_eq!(house_after("huffing", fen, "c3:e5"), "B:We5,g1:Bb8");
    assert_eq!(house_after("huffing", "W:Wc3:Bb8", "c3-d4"), "B:Wd4:Bb8");
    // Two capturers taking one piece each: the lower number goes (c3 = 2, g3 = 4).
    let two = "W:Wc3,g3,a1:Bd4,f4,b8";
    assert_eq!(house_after("huffing", two, "a1-b2"), "B:Wb2,g3:Bb8,d4,f4");
    // g3 could take two (f4, d6), c3 one (b4): g3 goes, though its number is higher.
    let more = "W:Wc3,g3,a1:Bb4,f4,d6,b8";
    assert_eq!(
        house_after("huffing", more, "a1-b2"),
        "B:Wb2,c3:Bb4,b8,d6,f4"
    );
}

/// House rules are part of the position's key, so a table cannot mix them; a set that
/// changes nothing in the moves still keys apart, and other games take none.
#[test]
fn house_rules_key_apart_and_stay_damka_only() {
    let plain = Position::start_of(Variant::Damka);
    let house = HouseRules::parse("huffing").unwrap();
    let with = plain.with_house_rules(house);
    assert_ne!(plain.key(), with.key());
    assert_eq!(with.check_invariants(), Ok(()));
    assert_eq!(with.with_house_rules(HouseRules::NONE), plain);
    let russian = Position::start_of(Variant::Russian);
    assert_eq!(russian.with_house_rules(house), russian);
    assert_eq!(
        with.with_variant(Variant::Russian),
        plain.with_variant(Variant::Russian)
    );
    assert_eq!(
        with.with_variant(Variant::Russian).check_invariants(),
        Ok(())
    );
    assert!(house.check_variant(Variant::Russian).is_err());
}

/// tests/data/perft.txt's Damka counts against a second, plainly written move generator
/// (tests/python/damka_perft.py: plain coordinates, nothing shared with Damiera), to the
/// depths it reaches in seconds; `perft_suites` checks the same counts against Damiera.
#[test]
fn damka_perft_equals_the_python_reference() {
    let Some(python) = support::python("damka_perft_equals_the_python_reference") else {
        return;
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/damka_perft.py");
    let suites: Vec<_> = support::perft::suites()
        .into_iter()
        .filter(|s| s.game == Variant::Damka)
        .collect();
    assert!(suites.len() >= 8, "{} Damka suites", suites.len());
    for suite in suites {
        let depth = suite.counts.iter().take_while(|&&n| n <= 1_000_000).count();
        let mut args = vec!["--fen".to_string(), suite.fen.clone(), depth.to_string()];
        if suite.paths {
            args.push("--paths".into());
        }
        args.extend(suite.house.iter().map(|rule| format!("--{rule}")));
        let out = Command::new(&python)
            .arg(script)
            .args(&args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}: {out:?}", suite.label);
        let got: Vec<u64> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(got, suite.counts[..depth], "{}", suite.label);
    }
}
