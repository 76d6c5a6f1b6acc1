//! The PDN readers and writer, against samples and properties.

use super::*;
use proptest::prelude::*;

const SAMPLE: &str = r#"[Event "Campionato \"Assoluto\""]
[White "Rossi"]
[Black "Bianchi \\ jr"]
[Result "1-0"]
[GameType "22"]

; a line comment 99-99 (
{Opening comment}
1. 22-19 11-15 2. 19x10! 6x15 $1 (2... 7x14 {a (tricky) comment} (3. 21-18?))
3. 24-20 {quiet
   move} 3... 15-19?! 4. 23x14x5 1-0

[Event "Second"]
1.21-17 12-16 2.17x8x1 *
"#;

fn mv(number: u32, slot: Slot, text: &str, comment: Option<&str>) -> PdnMove {
    PdnMove {
        comment: comment.map(str::to_string),
        ..PdnMove::new(text, number, slot)
    }
}

fn parse_one(text: &str) -> PdnGame {
    let games = parse_pdn(text).expect("valid PDN");
    assert_eq!(games.len(), 1, "{games:?}");
    games.into_iter().next().unwrap_or_default()
}

#[test]
fn reads_sample_file() {
    let games = parse_pdn(SAMPLE).expect("valid PDN");
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert_eq!(g.tag("Event"), Some("Campionato \"Assoluto\""));
    assert_eq!(g.tag("Black"), Some("Bianchi \\ jr"));
    assert_eq!(g.tag("GameType"), Some("22"));
    assert_eq!(g.tags.len(), 5);
    assert_eq!(g.comment.as_deref(), Some("Opening comment"));
    use Slot::{First as W, Second as B};
    let annotated = |m: PdnMove, glyph: &str| PdnMove {
        annotation: Some(glyph.to_string()),
        ..m
    };
    let expected = vec![
        mv(1, W, "22-19", None),
        mv(1, B, "11-15", None),
        annotated(mv(2, W, "19x10", None), "!"),
        PdnMove {
            variations: vec!["2... 7x14 {a (tricky) comment} (3. 21-18?)".to_string()],
            ..mv(2, B, "6x15", None)
        },
        mv(3, W, "24-20", Some("quiet move")),
        annotated(mv(3, B, "15-19", None), "?!"),
        mv(4, W, "23x14x5", None),
    ];
    assert_eq!(g.moves, expected);
    assert_eq!(g.result.as_deref(), Some("1-0"));
    let g2 = &games[1];
    assert_eq!(g2.tag("Event"), Some("Second"));
    assert_eq!(
        g2.moves,
        vec![
            mv(1, W, "21-17", None),
            mv(1, B, "12-16", None),
            mv(2, W, "17x8x1", None),
        ]
    );
    assert_eq!(g2.result, None);
}

#[test]
fn reads_all_result_tokens() {
    for r in ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0"] {
        let g = parse_one(&format!("1. 22-18 {r}"));
        assert_eq!(g.result.as_deref(), Some(r));
    }
    assert_eq!(parse_one("1. 22-18 *").result, None);
}

#[test]
fn games_split_on_results_and_tags() {
    let games = parse_pdn("1. 22-18 2-0 1. 21-17 0-2 [Event \"x\"] 1. 23-19").expect("valid");
    assert_eq!(games.len(), 3);
    assert_eq!(games[2].tag("Event"), Some("x"));
    assert_eq!(games[2].result, None);
    let games = parse_pdn("1. 22-18\n[Event \"next\"]\n1. 21-17").expect("valid");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].moves.len(), 1);
    assert!(
        parse_pdn(" \n; only a comment\n% escape\n")
            .expect("valid")
            .is_empty()
    );
}

#[test]
fn black_to_move_from_fen_or_number() {
    let g = parse_one("[FEN \"B:W18,24:B12,16\"]\n11-15 18x11 1/2-1/2");
    assert_eq!(g.first_side(), crate::board::Color::Black);
    assert_eq!(g.moves[0], mv(1, Slot::Second, "11-15", None));
    assert_eq!(g.moves[1], mv(2, Slot::First, "18x11", None));
    let g = parse_one("17... 11-15 18. 22x13 *");
    assert_eq!(g.moves[0], mv(17, Slot::Second, "11-15", None));
    assert_eq!(g.moves[1], mv(18, Slot::First, "22x13", None));
}

/// Found by fuzzing (fuzz/regressions/pdn/): a file's odd numbering (`2...` on a
/// move that follows Black's) was written without the number, read back as White's
/// move, and written again differently.
#[test]
fn odd_numbering_is_written_as_read() {
    let g = parse_one("1. 22-19 11-15 2... 19x1 3... 5-9 *");
    assert_eq!(g.moves[2], mv(2, Slot::Second, "19x1", None));
    let text = write_pdn(std::slice::from_ref(&g));
    assert_eq!(text, "1. 22-19 11-15 2... 19x1 3... 5-9 *\n");
    assert_eq!(parse_one(&text), g);
    // Regular numbering still writes no continuation numbers.
    let regular = parse_one("1. 22-19 11-15 2. 24-20 12-16 *");
    assert_eq!(write_pdn(&[regular]), "1. 22-19 11-15 2. 24-20 12-16 *\n");
}

/// Found by fuzzing the web board's API (fuzz/regressions/web_api/): an unterminated
/// comment's line breaks went into the error, which the API promises as one line.
#[test]
fn an_error_is_one_line() {
    let e = parse_pdn("1. 22-18 {a\n\nb\r\tc *").expect_err("unterminated");
    assert_eq!(e.token, "{a  b  c *");
    assert!(!e.to_string().contains(['\n', '\r', '\t']), "{e}");
}

#[test]
fn normalizes_move_text() {
    assert_eq!(normalize_move("22-19!?").as_deref(), Some("22-19"));
    assert_eq!(normalize_move("29X22:15x6").as_deref(), Some("29x22x15x6"));
    assert_eq!(normalize_move("9x18"), Some("9x18".to_string()));
    for bad in [
        "22-19-15", "22-33", "1-1", "0-4", "22", "22x", "x22", "22-x19", "a-b", "022-19", "",
    ] {
        assert_eq!(normalize_move(bad), None, "{bad}");
    }
}

#[test]
fn errors_locate_the_bad_token() {
    let e = parse_pdn("1. 22-18 1-0\n\n1. 21-17 12-16\n2. 17-44 *").expect_err("bad move");
    assert_eq!((e.game, e.line, e.column), (2, 4, 4));
    assert_eq!(e.token, "17-44");
    assert_eq!(e.kind, PdnErrorKind::BadToken);
    assert_eq!(
        e.to_string(),
        "PDN game 2, line 4, column 4: invalid token `17-44`"
    );

    let kind = |t: &str| parse_pdn(t).expect_err("invalid").kind;
    assert_eq!(
        kind("1. 22-18 {never closed"),
        PdnErrorKind::UnterminatedComment
    );
    assert_eq!(
        kind("1. 22-18 (1... 11-15 (x)"),
        PdnErrorKind::UnterminatedVariation
    );
    assert_eq!(kind("1. 22-18 )"), PdnErrorKind::UnmatchedParenthesis);
    assert_eq!(kind("[Event \"x\"\n1. 22-18"), PdnErrorKind::MalformedTag);
    assert_eq!(kind("[Event x]"), PdnErrorKind::MalformedTag);
    assert_eq!(kind("[ \"x\"]"), PdnErrorKind::MalformedTag);
    assert_eq!(kind("1. 22-18 }"), PdnErrorKind::BadToken);
    assert_eq!(kind("1. e2-e4"), PdnErrorKind::BadToken);
    // Algebraic moves (Russian, Brazilian): dark squares only, `:` read as `x`.
    let russian = parse_pdn("1. c3-d4 f6-e5 2. D4:F6 g7xe5 *").unwrap_or_default();
    let texts: Vec<&str> = russian[0].moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["c3-d4", "f6-e5", "d4xf6", "g7xe5"]);
    assert_eq!(kind("1. c3-22"), PdnErrorKind::BadToken);
    assert_eq!(kind("99999999999. 22-18"), PdnErrorKind::BadToken);
}

#[test]
fn writes_standard_pdn() {
    let game = PdnGame {
        tags: vec![
            ("GameType".into(), "22".into()),
            ("Result".into(), "1-0".into()),
            ("Black".into(), "B \"q\"".into()),
            ("Event".into(), "E".into()),
            ("TimeControl".into(), "60+1".into()),
        ],
        comment: None,
        moves: vec![
            mv(1, Slot::First, "22-19", None),
            mv(1, Slot::Second, "11-15", Some("main line")),
            mv(2, Slot::First, "19x10", None),
            mv(2, Slot::Second, "6x15", None),
        ],
        result: Some("1-0".into()),
    };
    let text = game.to_string();
    assert_eq!(
        text,
        "[Event \"E\"]\n[Black \"B \\\"q\\\"\"]\n[Result \"1-0\"]\n[GameType \"22\"]\n\
         [TimeControl \"60+1\"]\n\n1. 22-19 11-15 {main line} 2. 19x10 6x15 1-0\n"
    );
    let mut sorted = game.clone();
    sorted.sort_tags();
    assert_eq!(parse_one(&text), sorted);
}

#[test]
fn writes_ellipsis_only_for_black_first() {
    let game = PdnGame {
        tags: vec![("FEN".into(), "B:W18:B12".into())],
        comment: Some("start".into()),
        moves: vec![
            mv(1, Slot::Second, "12-16", None),
            mv(2, Slot::First, "18-14", Some("threat")),
            mv(2, Slot::Second, "16-20", None),
        ],
        result: None,
    };
    let text = game.to_string();
    assert!(
        text.ends_with("{start} 1... 12-16 2. 18-14 {threat} 16-20 *\n"),
        "{text}"
    );
    assert_eq!(parse_one(&text), game);
}

#[test]
fn wraps_long_move_text() {
    let mut game = PdnGame::default();
    for n in 1..=60 {
        game.moves.push(mv(n, Slot::First, "22x13x4", None));
        game.moves.push(mv(n, Slot::Second, "11-15", Some("a b c")));
    }
    let text = game.to_string();
    assert!(
        text.lines().all(|l| l.chars().count() <= LINE_WIDTH),
        "{text}"
    );
    assert!(text.lines().count() > 10);
    assert_eq!(parse_one(&text), game);
}

#[test]
fn write_many_then_read() {
    let a = parse_pdn(SAMPLE).expect("valid PDN");
    let text = write_pdn(&a);
    assert_eq!(parse_pdn(&text).expect("written PDN is valid"), a);
}

/// Reads `text` with [`recover_pdn`]: the games read (by number) and the warnings.
fn recover(text: &str) -> (Vec<(usize, PdnGame)>, Vec<String>) {
    let read = recover_pdn(text);
    let warnings = read.iter().flat_map(|g| &g.warnings).map(|w| w.to_string());
    let warnings = warnings.collect();
    let games = read
        .into_iter()
        .filter_map(|g| g.game.map(|game| (g.number, game)));
    (games.collect(), warnings)
}

#[test]
fn recovers_the_faults_of_real_files() {
    let (games, warnings) = recover("[Event \"1 turno\"\"]\n\n1. 22-18 06-10 1-0\n");
    assert_eq!(games[0].1.tag("Event"), Some("1 turno"));
    assert_eq!(games[0].1.moves[1].text, "6-10");
    assert_eq!(
        warnings,
        ["game 1, line 1: repaired: tag value ends in a doubled quote: `[Event \"1 turno\"\"]`"]
    );
    let (games, warnings) = recover("1. 22-18 {a {PARI} b} 1/2-1/2 } 11-15 0-2t");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].1.moves[0].comment.as_deref(), Some("a {PARI} b"));
    assert_eq!(games[1].1.result.as_deref(), Some("0-2"));
    assert_eq!(games[1].1.tag("Termination"), Some("time forfeit"));
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(warnings[1].starts_with("game 2, line 1: repaired: stray `}` dropped"));
    // A bad game is skipped to its result; the games around it are read.
    let (games, warnings) = recover("1. 22-18 2-0\n1. 22-99 11-15 0-2\n1. 21-17 1-1\n");
    let numbers: Vec<usize> = games.iter().map(|g| g.0).collect();
    assert_eq!(numbers, [1, 3]);
    assert_eq!(warnings, ["game 2, line 2: skipped: invalid token `22-99`"]);
    // `[` at a line start in a comment is the comment's, even as a tag pair; after
    // a blank line it starts a game, so a comment never closed costs one game.
    let text = "[White \"a\"]\n1. 22-18 {see\n[White \"b\"]\n} *\n\n[White \"c\"]\n1. 22-18 {x\n\n[White \"d\"]\n1. 21-17 *\n";
    let (games, warnings) = recover(text);
    let whites: Vec<_> = games.iter().map(|g| g.1.tag("White")).collect();
    assert_eq!(whites, [Some("a"), Some("d")]);
    assert_eq!(
        games[0].1.moves[0].comment.as_deref(),
        Some("see [White \"b\"]")
    );
    assert_eq!(
        warnings,
        ["game 2, line 7: skipped: unterminated comment `{x  `"]
    );
    // Recovering, a tag closes on its line.
    let (games, warnings) = recover("[Event \"a\nb\"]\n1. 22-18 *\n\n[Event \"c\"]\n1. 21-17 *\n");
    assert_eq!(games.len(), 1);
    assert!(
        warnings[0].starts_with("game 1, line 1: skipped: malformed tag pair `[Event \"a`"),
        "{warnings:?}"
    );
}

#[test]
fn italian_tag_names_and_results() {
    let g = parse_one("[Bianco \"Rossi\"]\n[Nero \"Verdi\"]\n[Risultato \"2-0\"]\n1. 22-18");
    assert_eq!(
        (g.tag("White"), g.tag("Black")),
        (Some("Rossi"), Some("Verdi"))
    );
    assert_eq!(
        (g.result.as_deref(), g.result_or_tag()),
        (None, Some("2-0"))
    );
    let mut g = g;
    g.set_tag("White", "Neri");
    assert_eq!(g.tag("White"), Some("Neri"));
}

#[test]
fn tag_helpers() {
    let mut g = PdnGame::default();
    g.set_tag("Event", "a");
    g.set_tag("Event", "b");
    g.set_tag("Round", "1");
    assert_eq!(g.tags.len(), 2);
    assert_eq!(g.tag("Event"), Some("b"));
    assert_eq!(g.tag("Site"), None);
}

fn arb_move_text() -> impl Strategy<Value = String> {
    let square = 1u8..=32;
    prop_oneof![
        (square.clone(), square.clone())
            .prop_filter("distinct squares", |(a, b)| a != b)
            .prop_map(|(a, b)| format!("{a}-{b}")),
        prop::collection::vec(square, 2..6)
            .prop_map(|v| { v.iter().map(u8::to_string).collect::<Vec<_>>().join("x") }),
    ]
}

fn arb_comment() -> impl Strategy<Value = Option<String>> {
    prop::option::of(
        prop::collection::vec("[a-zA-Z0-9;()%\\[\\]\"!?.{*-]{1,8}", 0..5).prop_map(|w| w.join(" ")),
    )
}

fn arb_game() -> impl Strategy<Value = PdnGame> {
    let tag = ("[A-Za-z][A-Za-z0-9_]{0,8}", "\\PC{0,12}");
    let result =
        prop::option::of(prop::sample::select(&RESULTS[..7])).prop_map(|r| r.map(str::to_string));
    let glyph = prop::option::of(prop::sample::select(&["?", "??", "!", "!?", "?!"][..]))
        .prop_map(|g| g.map(str::to_string));
    let variation = prop::collection::vec(arb_move_text(), 0..4).prop_map(|w| w.join(" "));
    let extras = (glyph, prop::collection::vec(variation, 0..2));
    let moves = prop::collection::vec((arb_move_text(), arb_comment(), extras), 0..40);
    (
        prop::collection::vec(tag, 0..6),
        arb_comment(),
        1u32..200,
        any::<bool>(),
        moves,
        result,
    )
        .prop_map(|(tags, comment, start, black_first, moves, result)| {
            let mut next = (
                start,
                if black_first {
                    Slot::Second
                } else {
                    Slot::First
                },
            );
            let moves = moves
                .into_iter()
                .map(|(text, comment, (annotation, variations))| {
                    let (number, side) = next;
                    next = match side {
                        Slot::First => (number, Slot::Second),
                        Slot::Second => (number + 1, Slot::First),
                    };
                    PdnMove {
                        comment,
                        annotation,
                        variations,
                        ..PdnMove::new(&text, number, side)
                    }
                })
                .collect();
            PdnGame {
                tags,
                comment,
                moves,
                result,
            }
        })
}

proptest! {
    /// Whatever text comes before it, a game after a blank line is read, and every
    /// fault found names a line of the text and its token.
    #[test]
    fn a_game_after_any_text_is_read(
        junk in prop_oneof![
            "\\PC{0,200}",
            "[\\[\\]{}()\"\\\\;%$!?.xX:0-9 \\n*/-]{0,200}",
            "(\\[[A-Za-z]{1,5} \"[a-z\"]{0,4}\"\\]\n|[0-9]{1,2}[-x][0-9]{1,2} |\\{|\\}|1-0t? |\n){0,30}",
        ],
        game in arb_game(),
    ) {
        let mut game = game;
        game.tags.insert(0, ("Event".to_string(), "x".to_string()));
        let text = format!("{junk}\n\n{}", write_pdn(std::slice::from_ref(&game)));
        let read = recover_pdn(&text);
        let lines = text.split('\n').count();
        for w in read.iter().flat_map(|g| &g.warnings) {
            prop_assert!((1..=lines).contains(&w.line), "{w}");
            prop_assert!(w.fault.contains('`'), "{w}");
            prop_assert!(!w.to_string().contains(['\n', '\r']), "{w}");
        }
        game.sort_tags();
        let last = read.last().and_then(|g| g.game.as_ref());
        prop_assert!(last.is_some(), "{text}");
        if let Some(last) = last {
            prop_assert_eq!(&last.moves, &game.moves, "{}", text);
            prop_assert_eq!(&last.result, &game.result);
            prop_assert_eq!(&last.comment, &game.comment);
            prop_assert!(last.tags.ends_with(&game.tags), "{:?}", last.tags);
        }
        // Numbers count every game, skipped ones too.
        let numbers: Vec<usize> = read.iter().map(|g| g.number).collect();
        prop_assert_eq!(numbers, (1..=read.len()).collect::<Vec<_>>());
    }

    #[test]
    fn written_games_read_back_equal(games in prop::collection::vec(arb_game(), 1..4)) {
        // Games without tags must end in a result to stay separate; the
        // writer always writes one (`*` for None).
        let text = write_pdn(&games);
        let mut expected = games;
        expected.iter_mut().for_each(PdnGame::sort_tags);
        prop_assert_eq!(parse_pdn(&text).map_err(|e| e.to_string()), Ok(expected), "{}", text);
    }
}
