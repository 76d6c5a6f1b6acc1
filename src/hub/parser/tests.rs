use super::*;
use crate::clock::{Limits as Level, TimeLeft};
use proptest::prelude::*;

fn ok(line: &str) -> Command {
    match parse_command(line) {
        Ok(Some(c)) => c,
        other => panic!("{line:?} gave {other:?}"),
    }
}

fn err(line: &str) -> String {
    match parse_command(line) {
        Err(e) => e.message().to_string(),
        other => panic!("{line:?} gave {other:?}"),
    }
}

#[test]
fn empty_and_unknown_lines_are_ignored() {
    for line in [
        "",
        "   ",
        "\r\n",
        "foo",
        "foo bar=\"unterminated",
        "=x",
        "\"go\"",
        "GO",
    ] {
        assert_eq!(parse_command(line), Ok(None), "{line:?}");
    }
}

#[test]
fn simple_commands() {
    assert_eq!(ok("hub"), Command::Hub);
    assert_eq!(ok("  init  "), Command::Init);
    assert_eq!(ok("ping\r"), Command::Ping);
    assert_eq!(ok("new-game"), Command::NewGame);
    assert_eq!(ok("ponder-hit"), Command::PonderHit);
    assert_eq!(ok("stop"), Command::Stop);
    assert_eq!(ok("quit extra=1 flag"), Command::Quit);
}

#[test]
fn set_param() {
    let expected = Command::SetParam {
        name: "tt-size".into(),
        value: "128".into(),
    };
    assert_eq!(ok("set-param name=tt-size value=128"), expected);
    assert_eq!(ok("set-param value = 128 name =tt-size"), expected);
    let empty = Command::SetParam {
        name: "x".into(),
        value: "".into(),
    };
    assert_eq!(ok("set-param name=x value=\"\""), empty);
    assert_eq!(ok("set-param name=x value"), empty);
    assert_eq!(err("set-param value=1"), "set-param: missing name");
    assert_eq!(err("set-param name=x"), "set-param: missing value");
    assert_eq!(
        err("set-param name=\"\" value=1"),
        "set-param: bad value for name: \"\""
    );
}

#[test]
fn pos_forms() {
    let start = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
    assert_eq!(
        ok(&format!("pos pos={start}")),
        Command::Pos {
            position: PositionSpec::Hub(start.into()),
            moves: vec![],
        }
    );
    assert_eq!(
        ok("pos start moves=\" 22-19  11-15\t19x10x14 \""),
        Command::Pos {
            position: PositionSpec::Start,
            moves: vec!["22-19".into(), "11-15".into(), "19x10x14".into()],
        }
    );
    assert_eq!(
        ok("pos start moves=22-19"),
        Command::Pos {
            position: PositionSpec::Start,
            moves: vec!["22-19".into()],
        }
    );
    assert_eq!(err("pos"), "pos: missing pos (or start)");
    assert_eq!(err("pos start pos=W"), "pos: both start and pos= given");
    assert_eq!(err("pos pos=\"\""), "pos: bad value for pos: \"\"");
}

#[test]
fn level_forms() {
    let level = |l: Level| Command::Level(l);
    assert_eq!(
        ok("level depth=12"),
        level(Level {
            depth: Some(12),
            ..Level::default()
        })
    );
    assert_eq!(
        ok("level nodes=1000000"),
        level(Level {
            nodes: Some(1_000_000),
            ..Level::default()
        })
    );
    assert_eq!(
        ok("level move-time=1.5"),
        level(Level {
            move_time: Some(1.5),
            ..Level::default()
        })
    );
    assert_eq!(
        ok("level moves=9 time=291.587 inc=2"),
        level(Level {
            clock: Some(TimeLeft {
                moves_to_go: Some(9),
                remaining_ms: 293_587,
                increment_ms: 2000,
            }),
            ..Level::default()
        })
    );
    assert_eq!(
        ok("level moves=0 time=60"),
        level(Level {
            clock: Some(TimeLeft {
                moves_to_go: None,
                remaining_ms: 60_000,
                increment_ms: 0,
            }),
            ..Level::default()
        })
    );
    assert_eq!(
        ok("level infinite"),
        level(Level {
            infinite: true,
            ..Level::default()
        })
    );
}

#[test]
fn level_errors() {
    assert_eq!(
        err("level depth=abc"),
        "level: bad value for depth: \"abc\""
    );
    assert_eq!(err("level depth=-1"), "level: bad value for depth: \"-1\"");
    assert_eq!(err("level depth"), "level: bad value for depth: \"\"");
    assert_eq!(
        err("level move-time=-0.5"),
        "level: bad value for move-time: \"-0.5\""
    );
    assert_eq!(
        err("level move-time=NaN"),
        "level: bad value for move-time: \"NaN\""
    );
    assert_eq!(err("level time=inf"), "level: bad value for time: \"inf\"");
    assert_eq!(err("level moves=40"), "level: missing time");
    assert_eq!(
        err("level foo=1"),
        "level: missing limit (depth, nodes, move-time, time or infinite)"
    );
}

#[test]
fn go_modes() {
    assert_eq!(ok("go"), Command::Go(GoMode::Think));
    assert_eq!(ok("go think"), Command::Go(GoMode::Think));
    assert_eq!(ok("go ponder"), Command::Go(GoMode::Ponder));
    assert_eq!(
        ok("go analyze unknown=\"x y\""),
        Command::Go(GoMode::Analyze)
    );
    assert_eq!(
        err("go think ponder"),
        "go: conflicting modes (give one of think, ponder, analyze)"
    );
}

#[test]
fn syntax_errors_of_known_commands() {
    assert_eq!(err("pos pos=\"Wbb"), "pos: unterminated quoted value");
    assert_eq!(err("level depth="), "level: missing value after depth=");
    assert!(err("go think\"x\"").starts_with("go: syntax error near"));
    assert!(err("level depth=1 =2").starts_with("level: syntax error near"));
}

#[test]
fn quoting() {
    assert_eq!(quote("abc"), "abc");
    assert_eq!(quote(""), "\"\"");
    assert_eq!(quote("a b"), "\"a b\"");
    assert_eq!(quote("a=b"), "\"a=b\"");
    assert_eq!(quote("say \"hi\""), "\"say 'hi'\"");
    assert_eq!(quote("a\nb"), "\"a b\"");
}

#[test]
fn canonical_display() {
    let cases = [
        (
            "set-param  name=ponder value=true",
            "set-param name=ponder value=true",
        ),
        ("pos start moves=22-19", "pos start moves=\"22-19\""),
        ("level time=60 moves=40", "level moves=40 time=60"),
        ("level infinite depth=3", "level depth=3 infinite"),
        ("go", "go think"),
    ];
    for (line, canonical) in cases {
        assert_eq!(ok(line).to_string(), canonical);
    }
}

fn text() -> impl Strategy<Value = String> {
    "[^\"\\p{Cc}]{0,12}"
}

fn hub_move() -> impl Strategy<Value = String> {
    "[1-9][0-9]?[-x][1-9][0-9]?(x[1-9][0-9]?){0,3}"
}

fn seconds() -> impl Strategy<Value = f64> {
    0.0f64..1e7
}

fn clock() -> impl Strategy<Value = TimeLeft> {
    (
        proptest::option::of(1u32..200),
        -10_000_000i64..10_000_000_000,
        0i64..10_000_000_000,
    )
        .prop_map(|(moves_to_go, remaining_ms, increment_ms)| TimeLeft {
            moves_to_go,
            remaining_ms,
            increment_ms,
        })
}

fn level() -> impl Strategy<Value = Level> {
    let parts = (
        proptest::option::of(any::<u32>()),
        proptest::option::of(any::<u64>()),
        proptest::option::of(seconds()),
        proptest::option::of(clock()),
        any::<bool>(),
    );
    parts
        .prop_map(|(depth, nodes, move_time, clock, infinite)| Level {
            depth,
            nodes,
            move_time,
            clock,
            infinite,
            analysis: false,
        })
        .prop_filter("at least one limit", |l| *l != Level::default())
}

fn position() -> impl Strategy<Value = PositionSpec> {
    prop_oneof![
        Just(PositionSpec::Start),
        "[^\"\\p{Cc}]{1,40}".prop_map(PositionSpec::Hub),
    ]
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        Just(Command::Hub),
        Just(Command::Init),
        Just(Command::Ping),
        Just(Command::NewGame),
        Just(Command::PonderHit),
        Just(Command::Stop),
        Just(Command::Quit),
        ("[^\"\\p{Cc}]{1,12}", text()).prop_map(|(name, value)| Command::SetParam { name, value }),
        (position(), proptest::collection::vec(hub_move(), 0..6))
            .prop_map(|(position, moves)| Command::Pos { position, moves }),
        level().prop_map(Command::Level),
        prop_oneof![
            Just(GoMode::Think),
            Just(GoMode::Ponder),
            Just(GoMode::Analyze)
        ]
        .prop_map(Command::Go),
    ]
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(line in any::<String>()) {
        let _ = parse_command(&line);
    }

    #[test]
    fn command_like_text_never_panics(
        head in "(hub|pos|level|go|set-param|quit|zz)",
        tail in "[a-z0-9 =\"\\-.x\t]{0,30}",
    ) {
        let _ = parse_command(&format!("{head} {tail}"));
    }

    #[test]
    fn display_round_trips(command in command()) {
        let line = command.to_string();
        prop_assert_eq!(parse_command(&line), Ok(Some(command)), "line {:?}", line);
    }
}

/// The transcripts in protocol.md: every fixed `< ` line is a canonical response
/// line, and every fixed `< error` right after a `> ` line is this parser's message.
#[test]
fn protocol_md_transcripts_agree_with_parser() {
    use crate::hub::response::{Response, parse_response};
    let doc = include_str!("../../../protocol.md");
    let mut last_sent = String::new();
    let mut checked = 0;
    for line in doc.lines() {
        if let Some(sent) = line.strip_prefix("> ").or(line.strip_prefix('>')) {
            last_sent = sent.to_string();
            continue;
        }
        let Some(expected) = line.strip_prefix("< ") else {
            continue;
        };
        if expected.contains('*') {
            continue;
        }
        let response = parse_response(expected).ok().flatten();
        let response = response.unwrap_or_else(|| panic!("not a response: {expected:?}"));
        assert_eq!(response.to_string(), expected);
        if let Response::Error { .. } = response {
            let message = match parse_command(&last_sent) {
                Err(e) => e.message().to_string(),
                other => panic!("{last_sent:?} gave {other:?}"),
            };
            assert_eq!(Response::Error { message }.to_string(), expected);
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} transcript lines checked");
}

#[test]
fn negative_clock_time_is_accepted() {
    // pydraughts sends its clock minus the increment, below zero near the end.
    match ok("level time=-0.05 inc=0.1") {
        Command::Level(level) => {
            // On the wire the increment comes before the move: 0.05 s is usable.
            let clock = level.clock.expect("a clock");
            assert_eq!((clock.remaining_ms, clock.increment_ms), (50, 100));
        }
        other => panic!("{other:?}"),
    }
    assert!(err("level time=0.5 inc=-0.1").contains("inc"));
}

#[test]
fn control_characters_in_quoted_values_read_as_spaces() {
    // What the writer writes for them (values cannot carry control characters), so
    // such a command prints back to a line that reads as the same command.
    for line in [
        "pos start moves=\"22-19\u{0}11-15\u{10}\"",
        "pos pos=\"W\u{7}x\" moves=\"1\u{0}\u{10}3 7\"",
        "set-param name=\"a\u{1b}b\" value=\"x\ty\u{0}\"",
    ] {
        let command = parse_command(line).unwrap().unwrap();
        let printed = command.to_string();
        assert!(!printed.chars().any(char::is_control), "{printed:?}");
        assert_eq!(parse_command(&printed), Ok(Some(command)), "{line:?}");
    }
    assert_eq!(
        parse_command("pos start moves=\"22-19\u{0}11-15\""),
        Ok(Some(Command::Pos {
            position: PositionSpec::Start,
            moves: vec!["22-19".into(), "11-15".into()],
        }))
    );
}
