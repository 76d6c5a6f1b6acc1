use std::time::Duration;

use super::*;

fn session() -> (Session, Receiver<EngineEvent>) {
    let mut params = Params::default();
    params.engine.tt_mib = 1;
    Session::new(params).unwrap()
}

fn texts(responses: &[Response]) -> Vec<String> {
    responses.iter().map(|r| r.to_string()).collect()
}

/// Sends a line and returns its answers as text.
fn send(s: &mut Session, line: &str) -> Vec<String> {
    texts(&s.handle_line(line))
}

/// Pumps engine events until the search is over; returns every answer.
fn pump(s: &mut Session, events: &Receiver<EngineEvent>) -> Vec<String> {
    let mut out = Vec::new();
    while s.is_searching() {
        let event = events
            .recv_timeout(Duration::from_secs(30))
            .expect("engine event");
        out.extend(texts(&s.handle_event(event)));
    }
    out
}

/// Pumps engine events until the search is over; returns all answers but `info`.
fn finish(s: &mut Session, events: &Receiver<EngineEvent>) -> Vec<String> {
    let mut out = pump(s, events);
    out.retain(|l| !l.starts_with("info"));
    out
}

#[test]
fn handshake_and_ping() {
    let (mut s, _events) = session();
    let hub = send(&mut s, "hub");
    assert!(hub[0].starts_with("id name=Damiera version="), "{hub:?}");
    assert!(hub[0].ends_with("country=Italy"));
    // id, one line per parameter, wait.
    let lines = Params::default().declarations().len() + 2;
    assert_eq!(hub.len(), lines);
    assert_eq!(hub[lines - 1], "wait");
    assert_eq!(send(&mut s, "init"), ["ready"]);
    assert_eq!(send(&mut s, "ping"), ["pong"]);
    assert!(send(&mut s, "frobnicate").is_empty());
    assert!(send(&mut s, "").is_empty());
}

#[test]
fn depth_search_answers_done() {
    let (mut s, events) = session();
    assert!(send(&mut s, "pos start moves=\"22-19 11-15\"").is_empty());
    assert!(send(&mut s, "level depth=3").is_empty());
    assert!(send(&mut s, "go").is_empty());
    let out = finish(&mut s, &events);
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("done move="), "{out:?}");
}

#[test]
fn no_legal_move_gives_plain_done() {
    let (mut s, events) = session();
    send(&mut s, "pos pos=Wbeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee");
    send(&mut s, "level depth=2");
    send(&mut s, "go think");
    assert_eq!(finish(&mut s, &events), ["done"]);
}

#[test]
fn bad_pos_keeps_position() {
    let (mut s, events) = session();
    assert!(send(&mut s, "pos pos=Wbeeeeeeeeeeeebeeeeweeeeeeeeeeeee").is_empty());
    let err = send(&mut s, "pos start moves=\"22-19 22-19\"");
    assert_eq!(err.len(), 1);
    assert!(err[0].starts_with("error message=\"pos: "), "{err:?}");
    assert!(err[0].contains("22-19") && err[0].contains("legal moves"));
    send(&mut s, "level depth=1");
    send(&mut s, "go");
    let out = finish(&mut s, &events);
    assert_eq!(out, ["done move=19x10x14"]);
}

#[test]
fn commands_during_search_are_queued_in_order() {
    let (mut s, events) = session();
    send(&mut s, "go analyze");
    assert_eq!(send(&mut s, "ping"), ["pong"]);
    assert!(send(&mut s, "level depth=bad").is_empty());
    assert!(send(&mut s, "ponder-hit").is_empty()); // served: ignored, not pondering
    assert!(send(&mut s, "level depth=1").is_empty());
    assert!(send(&mut s, "go think").is_empty());
    assert!(send(&mut s, "stop").is_empty()); // queued: after the queued go
    assert!(send(&mut s, "init").is_empty());
    s.engine.stop();
    let out = finish(&mut s, &events);
    assert_eq!(out.len(), 4, "{out:?}");
    assert!(out[0].starts_with("done move="));
    assert_eq!(
        out[1],
        "error message=\"level: bad value for depth: 'bad'\""
    );
    assert!(out[2].starts_with("done move="));
    assert_eq!(out[3], "ready");
}

#[test]
fn ponder_then_ponder_hit_and_quit() {
    let (mut s, events) = session();
    send(&mut s, "level move-time=0.05");
    send(&mut s, "go ponder");
    std::thread::sleep(Duration::from_millis(20));
    assert!(s.is_searching());
    send(&mut s, "ponder-hit");
    let out = finish(&mut s, &events);
    assert!(out[0].starts_with("done move="), "{out:?}");
    send(&mut s, "go ponder");
    send(&mut s, "quit");
    assert!(!s.is_finished());
    let out = finish(&mut s, &events);
    assert!(out[0].starts_with("done move="), "{out:?}");
    assert!(s.is_finished());
}

#[test]
fn set_param_errors_and_changes() {
    let (mut s, _events) = session();
    assert!(send(&mut s, "set-param name=style value=baseline").is_empty());
    assert!(send(&mut s, "set-param name=threads value=2").is_empty());
    assert_eq!(s.engine.options().threads, 2);
    let err = send(&mut s, "set-param name=threads value=99");
    assert!(err[0].starts_with("error message=\"set-param: "), "{err:?}");
    assert_eq!(s.engine.options().threads, 2);
    let hub = send(&mut s, "hub");
    assert!(
        hub.contains(
            &"param name=style value=baseline type=enum values=\"full hce baseline patterns\""
                .to_string()
        )
    );
}

#[test]
fn level_to_limits() {
    let level = |text: &str| match parse_command(text) {
        Ok(Some(Command::Level(l))) => l,
        other => panic!("{other:?}"),
    };
    let infinite = limits(&level("level infinite"), GoMode::Think);
    assert!(infinite.infinite);
    let mixed = limits(&level("level infinite depth=4"), GoMode::Think);
    assert!(!mixed.infinite);
    assert_eq!(mixed.depth, Some(4));
    let clock = limits(&level("level moves=20 time=30 inc=0.5"), GoMode::Ponder);
    assert_eq!(
        clock.clock,
        Some(crate::clock::TimeLeft {
            remaining_ms: 30_500,
            increment_ms: 500,
            moves_to_go: Some(20)
        })
    );
    let analyze = limits(&level("level depth=3"), GoMode::Analyze);
    assert!(analyze.infinite && analyze.depth.is_none());
}

#[test]
fn driver_runs_until_end_of_input() {
    let input = b"hub\ninit\npos start\nlevel depth=2\ngo\nping\n".to_vec();
    let mut output = Vec::new();
    run(io::Cursor::new(input), &mut output).expect("run");
    let text = String::from_utf8(output).expect("utf-8");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("info")).collect();
    assert!(lines.contains(&"ready"));
    assert!(lines.contains(&"pong"));
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("done move=")).count(),
        1
    );
}

#[test]
fn lines_up_to_the_limit_are_read_and_longer_ones_skipped() {
    let mut input = vec![b'a'; MAX_LINE];
    input.push(b'\n');
    input.extend(vec![b'b'; 3 * MAX_LINE]);
    input.extend_from_slice(b"\nping\nlast");
    let mut reader = io::Cursor::new(input);
    let mut buf = Vec::new();
    let mut next = || read_line(&mut reader, &mut buf).expect("read");
    assert_eq!(next().flatten().map(|l| l.len()), Some(MAX_LINE + 1));
    assert_eq!(next(), Some(None));
    assert_eq!(next(), Some(Some("ping\n".to_string())));
    assert_eq!(next(), Some(Some("last".to_string())));
    assert_eq!(next(), None);
}

#[test]
fn an_overlong_line_waits_for_the_search_like_any_line() {
    let (mut s, events) = session();
    assert_eq!(
        texts(&s.handle_overlong_line()),
        ["error message=\"input: line longer than 1048576 bytes, ignored\""]
    );
    send(&mut s, "go analyze");
    assert!(s.handle_overlong_line().is_empty());
    s.engine.stop();
    let out = finish(&mut s, &events);
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[1].starts_with("error message=\"input: line longer"));
}

#[test]
fn a_go_counts_its_time_from_its_arrival() {
    let (mut s, events) = session();
    send(&mut s, "level move-time=1");
    // Read two seconds ago (behind a slow line, say): its second is already spent.
    let long_ago = Instant::now() - Duration::from_secs(2);
    assert!(s.handle_line_received("go think", long_ago).is_empty());
    let out = pump(&mut s, &events);
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info")).collect();
    assert_eq!(infos.len(), 1, "one iteration only: {out:?}");
    assert!(
        infos[0].contains(" depth=1 ") && infos[0].contains(" time=2."),
        "{out:?}"
    );
    assert!(out[out.len() - 1].starts_with("done move="), "{out:?}");
}
