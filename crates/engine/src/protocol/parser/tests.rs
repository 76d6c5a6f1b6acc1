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
            since: None,
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

/// The keyword of `line` (its first word, as [`parse_line`] reads it) and the rest.
pub(crate) fn keyword(line: &str) -> (&str, &str) {
    let line = line.trim_start_matches(is_blank);
    line.split_at(line.find(|c| !is_word_char(c)).unwrap_or(line.len()))
}

/// Checks that `message`, the error for `line` (a command or a response), names what
/// was wrong: it is `<keyword>: <detail>` with the line's keyword, and the detail
/// quotes the line (a bad value with its argument, the text where the syntax broke,
/// the argument missing its value, the quote left open) or names the arguments that
/// are missing or in conflict. Shared with the response parser's tests.
pub(crate) fn error_names_its_cause(line: &str, message: &str) -> Result<(), String> {
    let (kw, rest) = keyword(line);
    let detail = message
        .strip_prefix(kw)
        .and_then(|m| m.strip_prefix(": "))
        .ok_or_else(|| format!("{message:?} does not start with the keyword {kw:?}"))?;
    let args = arg_list(rest).ok().map(|(_, args)| args);
    let has = |key: &str| args.as_ref().is_some_and(|a| a.has(key));
    let named = if let Some(bad) = detail.strip_prefix("bad value for ") {
        // `bad value for <key>: "<value>"`, the value as the line gives it.
        bad.split_once(": ").is_some_and(|(key, value)| {
            args.as_ref()
                .and_then(|a| a.get(key))
                .is_some_and(|v| format!("{v:?}") == value)
        })
    } else if let Some(near) = detail.strip_prefix("syntax error near ") {
        // The 24 characters of the line from where it stopped reading.
        (0..=rest.len())
            .filter(|&i| rest.is_char_boundary(i))
            .any(|i| format!("{:?}", rest[i..].chars().take(24).collect::<String>()) == near)
    } else if let Some(key) = detail.strip_prefix("missing value after ") {
        key.strip_suffix('=').is_some_and(|key| rest.contains(key))
    } else if detail == "unterminated quoted value" {
        rest.contains('"')
    } else if let Some(missing) = detail.strip_prefix("missing ") {
        // `missing <key>`, `missing <key> (or <key>)` or `missing <what> (<key>, <key>
        // or <key>)`: none of the keys is in the line.
        let (head, list) = missing.split_once(" (").unwrap_or((missing, ""));
        let list = list.trim_end_matches(')');
        let keys: Vec<&str> = match list.strip_prefix("or ") {
            Some(more) => std::iter::once(head).chain(more.split(", ")).collect(),
            None if list.is_empty() => vec![head],
            None => list
                .split([',', ' '])
                .filter(|k| !k.is_empty() && *k != "or")
                .collect(),
        };
        args.is_some() && keys.iter().all(|k| !has(k))
    } else if detail == "both start and pos= given" {
        has("start") && has("pos")
    } else if detail.starts_with("conflicting modes") {
        ["think", "ponder", "analyze"]
            .iter()
            .filter(|m| has(m))
            .count()
            > 1
    } else {
        false
    };
    if named {
        Ok(())
    } else {
        Err(format!(
            "{message:?} does not name what is wrong in {line:?}"
        ))
    }
}

/// Lines made by `grammar`, pairs of a keyword pattern and the pattern of its
/// arguments' keys: a keyword and up to five arguments, bare or with a value (a word, a
/// number, a quoted text, left open at times), then at times some junk. Most reach the
/// builders, good and bad.
pub(crate) fn line_like(grammar: &[(&'static str, &'static str)]) -> impl Strategy<Value = String> {
    let value = "( ?= ?([a-z0-9+.x-]{0,6}|-?[0-9]{1,3}(\\.[0-9]{1,3})?|\"[a-z0-9 .x\t-]{0,8}\"?))?";
    let lines = grammar.iter().map(|&(heads, keys)| {
        let arg = (keys, value).prop_map(|(key, value)| format!("{key}{value}"));
        (
            heads,
            proptest::collection::vec(arg, 0..5),
            "([a-z0-9 =\"\\-.x\t]{0,8})?",
        )
            .prop_map(|(head, args, junk)| {
                let mut line = head;
                for arg in args {
                    line.push(' ');
                    line.push_str(&arg);
                }
                line + &junk
            })
            .boxed()
    });
    proptest::strategy::Union::new(lines)
}

/// Any line is ignored when its keyword is no command's, and otherwise is a command
/// whose canonical line parses back to it, or an error that names its cause.
fn line_parses_back_or_names_its_fault(line: &str) -> Result<(), TestCaseError> {
    let (kw, _) = keyword(line);
    match parse_command(line) {
        Ok(None) => prop_assert!(lookup(kw).is_none(), "{:?} ignored", line),
        Ok(Some(command)) => {
            let printed = command.to_string();
            prop_assert_eq!(keyword(&printed).0, kw);
            prop_assert_eq!(parse_command(&printed), Ok(Some(command)), "{:?}", line);
        }
        Err(e) => {
            prop_assert!(lookup(kw).is_some(), "{:?}: an error for no command", line);
            error_names_its_cause(line, e.message()).map_err(TestCaseError::fail)?;
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn any_text_parses_back_or_names_its_fault(line in any::<String>()) {
        line_parses_back_or_names_its_fault(&line)?;
    }

    #[test]
    fn command_like_text_parses_back_or_names_its_fault(
        line in line_like(&[
            ("(hub|init|ping|new-game|ponder-hit|stop|quit|zz)", "(x|zz)"),
            ("set-param", "(name|value|zz)"),
            ("pos", "(start|pos|moves|zz)"),
            ("level", "(depth|nodes|move-time|moves|time|inc|infinite|zz)"),
            ("go", "(think|ponder|analyze|zz)"),
        ]),
    ) {
        line_parses_back_or_names_its_fault(&line)?;
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
    use crate::protocol::response::{Response, parse_response};
    let doc = include_str!("../../../../../protocol.md");
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
