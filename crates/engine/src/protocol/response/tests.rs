use super::*;
use crate::protocol::parser::sanitize;
use crate::protocol::parser::tests::{error_names_its_cause, keyword, line_like};
use proptest::prelude::*;

fn ok(line: &str) -> Response {
    match parse_response(line) {
        Ok(Some(r)) => r,
        other => panic!("{line:?} gave {other:?}"),
    }
}

#[test]
fn handshake_lines() {
    let id = Id {
        name: Some("Damiera".into()),
        version: Some("0.1.0".into()),
        author: Some("The Damiera authors".into()),
        country: Some("Italy".into()),
    };
    let line = "id name=Damiera version=0.1.0 author=\"The Damiera authors\" country=Italy";
    assert_eq!(Response::Id(id.clone()).to_string(), line);
    assert_eq!(ok(line), Response::Id(id));
    assert_eq!(ok("wait"), Response::Wait);
    assert_eq!(ok("ready"), Response::Ready);
    assert_eq!(ok("pong"), Response::Pong);
}

#[test]
fn params() {
    let threads = Param {
        name: "threads".into(),
        value: "1".into(),
        kind: Some(ParamType::Int {
            min: Some(1),
            max: Some(64),
        }),
    };
    let line = "param name=threads value=1 type=int min=1 max=64";
    assert_eq!(threads.to_string(), line);
    assert_eq!(ok(line), Response::Param(threads));
    let variant =
        "param name=variant value=normal type=enum values=\"normal killer bt frisian losing\"";
    match ok(variant) {
        Response::Param(Param {
            kind: Some(ParamType::Enum { values }),
            ..
        }) => assert_eq!(values.len(), 5),
        other => panic!("{other:?}"),
    }
    match ok("param name=x value=1 type=weird") {
        Response::Param(p) => assert_eq!(p.kind, None),
        other => panic!("{other:?}"),
    }
    assert!(parse_response("param value=1").is_err());
    assert!(parse_response("param name=x type=int min=low").is_err());
}

#[test]
fn scan_info_line() {
    let line = "info depth=21 mean-depth=20.8 score=-0.01 nodes=31261613 time=3.906 nps=8.0 \
                pv=\"32-28 17-22 28x17x22\" seldepth=40 flag";
    let info = Info {
        depth: Some(21),
        mean_depth: Some(20.8),
        score: Some(-0.01),
        nodes: Some(31_261_613),
        time: Some(3.906),
        nps: Some(8.0),
        pv: Some(vec!["32-28".into(), "17-22".into(), "28x17x22".into()]),
        multipv: None,
        book: None,
    };
    assert_eq!(ok(line), Response::Info(info));
    assert_eq!(ok("info"), Response::Info(Info::default()));
    assert!(parse_response("info depth=x").is_err());
}

#[test]
fn info_formatting() {
    let info = Info {
        depth: Some(7),
        mean_depth: Some(6.94),
        score: Some(0.5),
        nodes: Some(1234),
        time: Some(0.0125),
        nps: Some(0.0987),
        pv: Some(vec!["22-19".into()]),
        multipv: None,
        book: None,
    };
    assert_eq!(
        info.to_string(),
        "info depth=7 mean-depth=6.9 score=0.50 nodes=1234 time=0.013 nps=0.1 pv=\"22-19\""
    );
    let ranked = Info {
        multipv: Some(2),
        ..info
    };
    let line = "info depth=7 multipv=2 mean-depth=6.9 score=0.50 nodes=1234 time=0.013 nps=0.1 \
                pv=\"22-19\"";
    assert_eq!(ranked.to_string(), line);
    assert_eq!(
        parse_response(line).unwrap().unwrap(),
        Response::Info(Info {
            time: Some(0.013),
            nps: Some(0.1),
            mean_depth: Some(6.9),
            ..ranked
        })
    );
    let book = Info {
        depth: Some(0),
        book: Some(1),
        ..Info::default()
    };
    assert_eq!(book.to_string(), "info depth=0 book=1");
}

#[test]
fn done_and_error() {
    let done = Done {
        mv: Some("19x10x14".into()),
        ponder: Some("6x15".into()),
    };
    assert_eq!(done.to_string(), "done move=19x10x14 ponder=6x15");
    assert_eq!(ok("done move=19x10x14 ponder=6x15"), Response::Done(done));
    assert_eq!(ok("done"), Response::Done(Done::default()));
    assert_eq!(ok("done move=\"\""), Response::Done(Done::default()));
    let error = Response::Error {
        message: "bad \"pos\"".into(),
    };
    assert_eq!(error.to_string(), "error message=\"bad 'pos'\"");
    assert_eq!(
        ok("error message=\"level: bad value for depth: 'abc'\""),
        Response::Error {
            message: "level: bad value for depth: 'abc'".into()
        }
    );
}

#[test]
fn chatter_is_ignored() {
    for line in [
        "",
        "loading eval weights...",
        "Scan 3.1 ready?",
        "# comment",
    ] {
        assert_eq!(parse_response(line), Ok(None), "{line:?}");
    }
}

fn text() -> impl Strategy<Value = String> {
    "[^\"\\p{Cc}]{0,12}"
}

fn some_text() -> impl Strategy<Value = String> {
    "[^\"\\p{Cc}]{1,12}"
}

fn hub_move() -> impl Strategy<Value = String> {
    "[1-9][0-9]?[-x][1-9][0-9]?(x[1-9][0-9]?){0,3}"
}

fn moves() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(hub_move(), 0..8)
}

fn id() -> impl Strategy<Value = Id> {
    let opt = || proptest::option::of(text());
    (opt(), opt(), opt(), opt()).prop_map(|(name, version, author, country)| Id {
        name,
        version,
        author,
        country,
    })
}

fn param_type() -> impl Strategy<Value = ParamType> {
    let int = || proptest::option::of(any::<i64>());
    let real = || proptest::option::of(-1e12f64..1e12);
    prop_oneof![
        Just(ParamType::Bool),
        Just(ParamType::String),
        (int(), int()).prop_map(|(min, max)| ParamType::Int { min, max }),
        (real(), real()).prop_map(|(min, max)| ParamType::Real { min, max }),
        proptest::collection::vec("[a-z0-9-]{1,8}", 0..5)
            .prop_map(|values| ParamType::Enum { values }),
    ]
}

fn param() -> impl Strategy<Value = Param> {
    (some_text(), text(), proptest::option::of(param_type()))
        .prop_map(|(name, value, kind)| Param { name, value, kind })
}

/// Reals already on the printed grid (`decimals` digits), so that they print back.
fn grid(scale: f64, max: i64) -> impl Strategy<Value = Option<f64>> {
    proptest::option::of((-max..=max).prop_map(move |n| n as f64 / scale))
}

fn unsigned_grid(scale: f64, max: i64) -> impl Strategy<Value = Option<f64>> {
    proptest::option::of((0..=max).prop_map(move |n| n as f64 / scale))
}

fn info() -> impl Strategy<Value = Info> {
    (
        proptest::option::of(any::<u32>()),
        unsigned_grid(10.0, 10_000),
        grid(100.0, 10_000),
        proptest::option::of(any::<u64>()),
        unsigned_grid(1000.0, 100_000_000),
        unsigned_grid(10.0, 100_000),
        proptest::option::of(moves()),
        proptest::option::of(1..=32u32),
    )
        .prop_map(
            |(depth, mean_depth, score, nodes, time, nps, pv, multipv)| Info {
                depth,
                mean_depth,
                score,
                nodes,
                time,
                nps,
                pv,
                multipv,
                book: depth.and_then(|d| (d % 5 == 0).then_some(1)),
            },
        )
}

fn response() -> impl Strategy<Value = Response> {
    let opt_move = || proptest::option::of(some_text());
    prop_oneof![
        id().prop_map(Response::Id),
        param().prop_map(Response::Param),
        Just(Response::Wait),
        Just(Response::Ready),
        Just(Response::Pong),
        info().prop_map(Response::Info),
        (opt_move(), opt_move()).prop_map(|(mv, ponder)| Response::Done(Done { mv, ponder })),
        text().prop_map(|message| Response::Error { message }),
    ]
}

/// `response` as its canonical line carries it: texts as [`sanitize`] writes them, lists
/// split into words again, reals rounded to the decimals they print with.
fn as_written(response: &Response) -> Response {
    let text = |t: &String| sanitize(t);
    let opt = |t: &Option<String>| t.as_ref().map(text);
    let list = |l: &Vec<String>| words(&sanitize(&l.join(" ")));
    let round = |v: Option<f64>, decimals: usize| {
        v.map(|v| format!("{v:.decimals$}").parse().unwrap_or(f64::NAN))
    };
    match response {
        Response::Id(id) => Response::Id(Id {
            name: opt(&id.name),
            version: opt(&id.version),
            author: opt(&id.author),
            country: opt(&id.country),
        }),
        Response::Param(p) => Response::Param(Param {
            name: text(&p.name),
            value: text(&p.value),
            kind: match &p.kind {
                Some(ParamType::Enum { values }) => Some(ParamType::Enum {
                    values: list(values),
                }),
                kind => kind.clone(),
            },
        }),
        Response::Info(info) => Response::Info(Info {
            mean_depth: round(info.mean_depth, 1),
            score: round(info.score, 2),
            time: round(info.time, 3),
            nps: round(info.nps, 1),
            pv: info.pv.as_ref().map(list),
            ..info.clone()
        }),
        Response::Done(done) => Response::Done(Done {
            mv: opt(&done.mv),
            ponder: opt(&done.ponder),
        }),
        Response::Error { message } => Response::Error {
            message: text(message),
        },
        other => other.clone(),
    }
}

/// Any line is ignored when its keyword is no response's, and otherwise is a response
/// whose canonical line reads back as it (see [`as_written`]), or an error that names
/// its cause.
fn line_parses_back_or_names_its_fault(line: &str) -> Result<(), TestCaseError> {
    let (kw, _) = keyword(line);
    let known = lookup(kw).is_some();
    match parse_response(line) {
        Ok(None) => prop_assert!(!known, "{:?} ignored", line),
        Ok(Some(response)) => {
            let printed = response.to_string();
            prop_assert_eq!(keyword(&printed).0, kw);
            prop_assert_eq!(
                parse_response(&printed),
                Ok(Some(as_written(&response))),
                "{:?} prints as {:?}",
                line,
                printed
            );
        }
        Err(e) => {
            prop_assert!(known, "{:?}: an error for no response", line);
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
    fn response_like_text_parses_back_or_names_its_fault(
        line in line_like(&[
            ("id", "(name|version|author|country|zz)"),
            ("param", "(name|value|type|min|max|values|type=(bool|int|real|string|enum))"),
            ("info", "(depth|mean-depth|score|nodes|time|nps|pv|multipv|zz)"),
            ("done", "(move|ponder|zz)"),
            ("(error|wait|ready|pong|zz)", "(message|zz)"),
        ]),
    ) {
        line_parses_back_or_names_its_fault(&line)?;
    }

    #[test]
    fn display_round_trips(response in response()) {
        let line = response.to_string();
        prop_assert_eq!(parse_response(&line), Ok(Some(response)), "line {:?}", line);
    }
}
