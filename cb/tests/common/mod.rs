//! The checks shared by the Linux and the Windows (wine) runs of the C harness: the
//! harness calls the engine library exactly as CheckerBoard does, and every answer is
//! checked here against the rules core.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use damiera_cb::board8::{Board8x8, Coor, coor, piece_code, write_board};
use damiera_engine::board::{Color, Move, Piece, Position, Square};
use damiera_engine::movegen::{capture_paths, legal_moves};

/// `CB_WHITE`, `CB_BLACK`.
pub const CB_WHITE: i32 = 1;
pub const CB_BLACK: i32 = 2;
/// getmove's return values.
pub const CB_DRAW: i32 = 0;
pub const CB_WIN: i32 = 1;
pub const CB_LOSS: i32 = 2;
pub const CB_UNKNOWN: i32 = 3;

/// Whether this is a CI run (`CI` set to anything but empty, `0` or `false`), where
/// every test must run. The same rule as the root package's tests/support/mod.rs
/// (cb's tests cannot include that module): keep the two alike.
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// Reports that `test` cannot run here and why. Under CI this fails the test; else it
/// is written straight to stderr, past the test harness's capture, so that a plain
/// `cargo test` shows it (as tests/support/mod.rs's `skip`).
pub fn skip(test: &str, reason: &str) {
    assert!(!ci(), "{test} cannot run under CI: {reason}");
    let _ = writeln!(
        std::io::stderr(),
        "\n!!! SKIPPED {test}: {reason} (bash .ci/run installs what the tests need) !!!\n"
    );
}

/// Compiles the C harness with `compiler`; panics with the compiler's output.
pub fn compile_harness(compiler: &str, out: &Path, extra: &[&str]) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/harness/harness.c");
    let output = Command::new(compiler)
        .args(["-O2", "-Wall", "-o"])
        .arg(out)
        .arg(&src)
        .args(extra)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
    assert!(
        output.status.success(),
        "{compiler} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cb-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A running harness.
pub struct Harness {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// What one getmove gave back.
#[derive(Clone, Debug)]
pub struct MoveReply {
    pub ret: i32,
    pub board: Board8x8,
    pub jumps: i32,
    pub newpiece: i32,
    pub oldpiece: i32,
    pub from: Coor,
    pub to: Coor,
    pub path: [Coor; 12],
    pub del: [Coor; 12],
    pub delpiece: [i32; 12],
    pub status: String,
}

impl Harness {
    /// Starts `command` (the harness) with the settings file `ini`.
    pub fn start(command: &[String], ini: &Path, env: &[(&str, &str)]) -> Harness {
        let ini = ini.display().to_string();
        let mut all = env.to_vec();
        all.push(("DAMIERA_CB_INI", ini.as_str()));
        Harness::start_in(command, Path::new("."), &all)
    }

    /// Starts `command` (the harness, possibly behind wine) in `dir` with `env`.
    pub fn start_in(command: &[String], dir: &Path, env: &[(&str, &str)]) -> Harness {
        let mut cmd = Command::new(&command[0]);
        cmd.args(&command[1..])
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut h = Harness {
            child,
            stdin,
            stdout,
        };
        let first = h.line();
        assert_eq!(first, "loaded", "harness could not load the engine");
        h
    }

    fn line(&mut self) -> String {
        let mut s = String::new();
        self.stdout.read_line(&mut s).unwrap();
        assert!(!s.is_empty(), "harness ended (engine crash?)");
        s.trim_end_matches(['\r', '\n']).to_string()
    }

    fn send(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// `enginecommand`: (return value, reply).
    pub fn command(&mut self, text: &str) -> (i32, String) {
        self.send(&format!("cmd {text}"));
        let line = self.line();
        let rest = line
            .strip_prefix("reply ")
            .unwrap_or_else(|| panic!("{line}"));
        let (ret, reply) = rest.split_once(' ').unwrap_or((rest, ""));
        (ret.parse().unwrap(), unescape(reply))
    }

    /// `getmove` with these arguments.
    pub fn get_move(
        &mut self,
        pos: &Position,
        maxtime: f64,
        info: i32,
        moreinfo: i32,
    ) -> MoveReply {
        let board = board_text(pos);
        let color = cb_color(pos.side_to_move());
        self.send(&format!("move {color} {maxtime} {info} {moreinfo} {board}"));
        self.move_reply()
    }

    /// `getmove` with a long `maxtime`, `*playnow` set after `delay_ms`: the reply and the
    /// milliseconds from setting `playnow` to getmove's return.
    pub fn play_now(&mut self, pos: &Position, delay_ms: u32) -> (MoveReply, f64) {
        let board = board_text(pos);
        let color = cb_color(pos.side_to_move());
        self.send(&format!("playnow {color} {delay_ms} {board}"));
        let line = self.line();
        let ms: f64 = line
            .strip_prefix("latency ")
            .unwrap_or_else(|| panic!("{line}"))
            .parse()
            .unwrap();
        (self.move_reply(), ms)
    }

    /// Calls with null pointers and bad input; the return values.
    pub fn abuse(&mut self) -> Vec<i32> {
        self.send("abuse");
        let line = self.line();
        let rest = line
            .strip_prefix("abuse")
            .unwrap_or_else(|| panic!("{line}"));
        rest.split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect()
    }

    fn move_reply(&mut self) -> MoveReply {
        let line = self.line();
        let nums: Vec<i32> = line
            .strip_prefix("result ")
            .unwrap_or_else(|| panic!("{line}"))
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(nums.len(), 1 + 64 + 7 + 24 + 24 + 12, "{line}");
        let status_line = self.line();
        let status = unescape(status_line.strip_prefix("status ").unwrap_or(""));
        let mut board = [[0; 8]; 8];
        for i in 0..64 {
            board[i / 8][i % 8] = nums[1 + i];
        }
        let m = &nums[65..];
        let coors = |at: usize| -> [Coor; 12] {
            std::array::from_fn(|i| Coor {
                x: m[at + 2 * i],
                y: m[at + 2 * i + 1],
            })
        };
        MoveReply {
            ret: nums[0],
            board,
            jumps: m[0],
            newpiece: m[1],
            oldpiece: m[2],
            from: Coor { x: m[3], y: m[4] },
            to: Coor { x: m[5], y: m[6] },
            path: coors(7),
            del: coors(31),
            delpiece: std::array::from_fn(|i| m[55 + i]),
            status,
        }
    }

    /// Ends the harness; it must exit cleanly.
    pub fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "harness exit: {status}");
    }
}

fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// CheckerBoard's colour of a side.
pub fn cb_color(c: Color) -> i32 {
    match c {
        Color::White => CB_WHITE,
        Color::Black => CB_BLACK,
    }
}

/// The board as the harness reads it: 64 ints, `board[x][y]` x-major. Light squares hold
/// 0 (as in CheckerBoard).
pub fn board_text(pos: &Position) -> String {
    let mut board = [[0; 8]; 8];
    write_board(pos, &mut board);
    board
        .iter()
        .flatten()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn board_of(pos: &Position) -> Board8x8 {
    let mut board = [[0; 8]; 8];
    write_board(pos, &mut board);
    board
}

/// CheckerBoard's `domove`: what CheckerBoard does with the returned `CBmove`.
fn cb_domove(r: &MoveReply, board: &mut Board8x8) {
    let at = |c: Coor| (c.x as usize, c.y as usize);
    let (fx, fy) = at(r.from);
    board[fx][fy] = 0;
    let (tx, ty) = at(r.to);
    board[tx][ty] = r.newpiece;
    for d in &r.del[..r.jumps as usize] {
        let (x, y) = at(*d);
        board[x][y] = 0;
    }
}

fn in_board(c: Coor) -> bool {
    (0..8).contains(&c.x) && (0..8).contains(&c.y)
}

/// Checks one getmove answer against the rules: the returned board is the position
/// after a legal move; the CBmove names that move (pieces, squares, captured squares and
/// pieces, and a capture path of the highest priority); CheckerBoard's own `domove` of
/// the CBmove gives the same board. Returns the move.
pub fn check_move(pos: &Position, r: &MoveReply) -> Result<Move, String> {
    let legal = legal_moves(pos);
    if legal.is_empty() {
        if r.ret != CB_LOSS || r.board != board_of(pos) {
            return Err(format!(
                "no legal move: expected CB_LOSS and the board untouched, got {}",
                r.ret
            ));
        }
        return Err("no legal move".into());
    }
    if !(0..=3).contains(&r.ret) {
        return Err(format!("return value {}", r.ret));
    }
    let played: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| board_of(&pos.play(m)) == r.board)
        .collect();
    let Some(&mv) = played.first() else {
        return Err(format!(
            "the returned board is no legal move's (status {:?})",
            r.status
        ));
    };
    let moving = pos.piece_at(mv.from()).ok_or("no piece on from")?;
    let after = pos.play(mv).piece_at(mv.to()).ok_or("no piece on to")?;
    let expect = |what: &str, got: i32, want: i32| -> Result<(), String> {
        if got == want {
            Ok(())
        } else {
            Err(format!("{what}: got {got}, want {want} (move {:?})", mv))
        }
    };
    expect("oldpiece", r.oldpiece, piece_code(moving))?;
    expect("newpiece", r.newpiece, piece_code(after))?;
    if r.from != coor(mv.from()) || r.to != coor(mv.to()) {
        return Err(format!("from/to {:?} {:?} for {mv:?}", r.from, r.to));
    }
    expect("jumps", r.jumps, mv.capture_count() as i32)?;
    let n = r.jumps as usize;
    if n > 0 {
        // The path: start, then path[1..=n]; each step jumps the matching del square.
        let mut squares = vec![mv.from()];
        for i in 0..n {
            let (land, del) = (r.path[i + 1], r.del[i]);
            if !in_board(land) || !in_board(del) {
                return Err(format!("path or del off the board at jump {i}"));
            }
            let land_sq = damiera_cb::board8::square_at(land).ok_or("path on a light square")?;
            let del_sq = damiera_cb::board8::square_at(del).ok_or("del on a light square")?;
            let prev = squares[i];
            let mid = Square::from_row_col(
                (prev.row() + land_sq.row()) / 2,
                (prev.col() + land_sq.col()) / 2,
            );
            if mid != Some(del_sq) || prev.row().abs_diff(land_sq.row()) != 2 {
                return Err(format!(
                    "jump {i} from {prev} to {land_sq} does not jump {del_sq}"
                ));
            }
            let captured = pos.piece_at(del_sq).ok_or("captured square empty")?;
            expect("delpiece", r.delpiece[i], piece_code(captured))?;
            squares.push(land_sq);
        }
        if squares.last() != Some(&mv.to()) {
            return Err("the path does not end on to".into());
        }
        let mut dels: Vec<Square> = r.del[..n]
            .iter()
            .filter_map(|c| damiera_cb::board8::square_at(*c))
            .collect();
        dels.sort();
        if dels != mv.captured() {
            return Err(format!("captured {dels:?}, want {:?}", mv.captured()));
        }
        if !capture_paths(pos, mv).contains(&squares) {
            return Err(format!(
                "path {squares:?} is not a highest-priority path of {mv:?}"
            ));
        }
    }
    let mut board = board_of(pos);
    cb_domove(r, &mut board);
    if board != r.board {
        return Err("CheckerBoard's domove of the CBmove differs from the returned board".into());
    }
    Ok(mv)
}

/// A small deterministic random generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Whether some legal move is a king capture of at least `n` pieces.
pub fn long_king_capture(pos: &Position, n: u32) -> bool {
    legal_moves(pos)
        .iter()
        .any(|m| m.capture_count() >= n && pos.piece_at(m.from()).is_some_and(|p| p.king))
}

/// Test positions: `count` in all, from random games (every phase, kings included) and
/// random king positions where every legal move is a king capture of 3 or more pieces.
pub fn test_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let long_wanted = count / 5;
    while out.len() < long_wanted {
        let pos = random_king_position(&mut rng);
        if !legal_moves(&pos).is_empty()
            && legal_moves(&pos).iter().all(|m| m.capture_count() >= 3)
            && long_king_capture(&pos, 3)
        {
            out.push(pos);
        }
    }
    while out.len() < count {
        let mut pos = Position::start();
        let mut plies = 0;
        loop {
            let moves = legal_moves(&pos);
            if moves.is_empty() || plies > 200 {
                break;
            }
            if rng.below(8) == 0 || (pos.all_kings() != 0 && rng.below(3) == 0) {
                out.push(pos);
                if out.len() == count {
                    break;
                }
            }
            pos = pos.play(moves[rng.below(moves.len())]);
            plies += 1;
        }
    }
    out
}

fn random_king_position(rng: &mut Rng) -> Position {
    let mut pieces: Vec<(Square, Piece)> = Vec::new();
    let mut used = std::collections::HashSet::new();
    let mut place = |rng: &mut Rng, color: Color, king: bool, pieces: &mut Vec<(Square, Piece)>| {
        for _ in 0..50 {
            let sq = Square::new(1 + rng.below(32) as u8).unwrap();
            let crown = match color {
                Color::White => sq.row() == 0,
                Color::Black => sq.row() == 7,
            };
            if used.contains(&sq) || (!king && crown) {
                continue;
            }
            used.insert(sq);
            pieces.push((sq, Piece { color, king }));
            return;
        }
    };
    let side = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    for _ in 0..1 + rng.below(2) {
        place(rng, side, true, &mut pieces);
    }
    for _ in 0..4 + rng.below(6) {
        let king = rng.below(3) == 0;
        place(rng, side.opponent(), king, &mut pieces);
    }
    for _ in 0..rng.below(3) {
        place(rng, side, false, &mut pieces);
    }
    Position::from_pieces(&pieces, side)
}

/// Runs getmove on every position and checks each answer; returns the number of answers
/// that were king captures of 3 or more pieces and of positions with kings.
pub fn check_positions(h: &mut Harness, positions: &[Position], maxtime: f64) -> (usize, usize) {
    let (mut long, mut kings) = (0, 0);
    for (i, pos) in positions.iter().enumerate() {
        let r = h.get_move(pos, maxtime, 0, 0);
        match check_move(pos, &r) {
            Ok(mv) => {
                if mv.capture_count() >= 3 && pos.piece_at(mv.from()).is_some_and(|p| p.king) {
                    long += 1;
                }
            }
            Err(e) => panic!("position {i} {}: {e}", pos.to_fen()),
        }
        if pos.all_kings() != 0 {
            kings += 1;
        }
    }
    (long, kings)
}

/// Plays a whole game, the engine moving for both sides, with `set gamehist` before
/// each getmove as CheckerBoard sends it. Ends by the rules: a side without a legal move
/// loses, threefold repetition or 40 moves each without a capture or man move draws.
/// Returns the reason and the number of plies.
pub fn whole_game(h: &mut Harness, maxtime: f64) -> (String, usize) {
    let mut pos = Position::start();
    // The position after the last irreversible move and the reversible moves since.
    let mut base = pos;
    let mut reversible: Vec<String> = Vec::new();
    let mut seen: Vec<u64> = vec![pos.key()];
    for ply in 0..1000 {
        if legal_moves(&pos).is_empty() {
            return (format!("{:?} has no legal move", pos.side_to_move()), ply);
        }
        if seen.iter().filter(|&&k| k == pos.key()).count() >= 3 {
            return ("threefold repetition".into(), ply);
        }
        if reversible.len() >= 80 {
            return ("40 moves without capture or man move".into(), ply);
        }
        let hist = format!("set gamehist {} {}", base.to_fen(), reversible.join(" "));
        let (ret, reply) = h.command(hist.trim_end());
        assert_eq!(ret, 1, "{hist}: {reply}");
        let r = h.get_move(&pos, maxtime, 0, 0);
        let mv = check_move(&pos, &r).unwrap_or_else(|e| panic!("ply {ply} {}: {e}", pos.to_fen()));
        let king_quiet = pos.piece_at(mv.from()).is_some_and(|p| p.king) && !mv.is_capture();
        let from_to = format!("{}-{}", mv.from(), mv.to());
        pos = pos.play(mv);
        if king_quiet {
            reversible.push(from_to);
            seen.push(pos.key());
        } else {
            base = pos;
            reversible.clear();
            seen = vec![pos.key()];
        }
    }
    panic!("the game did not end in 1000 plies");
}

/// Every documented enginecommand and its documented answer.
pub fn check_commands(h: &mut Harness) {
    let ok = |h: &mut Harness, cmd: &str| -> String {
        let (ret, reply) = h.command(cmd);
        assert_eq!(ret, 1, "{cmd} -> {reply}");
        reply
    };
    assert_eq!(ok(h, "get protocolversion"), "2");
    assert_eq!(ok(h, "get gametype"), "22");
    assert!(ok(h, "name").starts_with("Damiera "));
    assert!(ok(h, "about").contains('\n'));
    assert_eq!(ok(h, "help"), "damiera_cb.htm");
    // CheckerBoard's probe and the API reference's examples.
    assert_eq!(ok(h, "get movelist B:W1:B"), "movelist 0");
    assert_eq!(
        ok(h, "get movelist B:W31:B3"),
        "movelist 2,0,6,6,3,6;0,6,6,3,7;"
    );
    let two = ok(h, "get movelist B:W11,13,19,21:B6,9");
    let mut entries: Vec<&str> = two
        .strip_prefix("movelist 2,")
        .unwrap_or_else(|| panic!("{two}"))
        .split_terminator(';')
        .collect();
    entries.sort();
    assert_eq!(
        entries,
        ["2,6,6,6,22,15,11,5,22,19,5", "2,6,6,9,25,18,13,5,25,21,5"]
    );
    assert!(ok(h, "get movelist W:W21-32:B1-12").starts_with("movelist 7,"));
    for (set, get, value) in [
        ("set hashsize 32", "get hashsize", "32"),
        ("set dbmbytes 64", "get dbmbytes", "64"),
        ("set searchthreads 1", "get searchthreads", "1"),
        ("set allscores 1", "get allscores", "1"),
        ("set allscores 0", "get allscores", "0"),
        ("set enable_wld 0", "get enable_wld", "0"),
    ] {
        ok(h, set);
        assert_eq!(ok(h, get), value, "{get}");
    }
    let db = ok(h, "set dbpath /nonexistent/db");
    assert!(db.contains("/nonexistent/db"), "{db}");
    ok(h, "set enable_wld 1");
    assert_eq!(ok(h, "get dbpath"), "/nonexistent/db");
    ok(h, "set dbpath ");
    ok(h, "set enable_wld 0");
    assert!(ok(h, "set check_wld_dir /nonexistent/db").contains("/nonexistent/db"));
    assert!(ok(h, "set gamehist W:W21-32:B1-12").contains("0 reversible"));
    assert!(ok(h, "set gamehist W:WK29:BK4 29-25 4-8 25-29 8-4").contains("4 reversible"));
    assert!(ok(h, "staticevaluation W:W21-32:B1-12").contains("evaluation"));
    // Not implemented: 0 and "?", as the API asks; bad values: 0 and the reason.
    assert_eq!(ok(h, "get book"), "3");
    assert_eq!(ok(h, "get bookfile"), "embedded");
    assert!(ok(h, "set book 2").contains("good moves"));
    assert_eq!(ok(h, "get book-mode"), "varied");
    assert!(ok(h, "set book 3").contains("best moves"));
    for cmd in [
        "get solve",
        "set solve 1",
        "get enable_mtc",
        "set enable_mtc 1",
        "get mtcpath",
        "set mtcpath x",
        "get max_dbpieces",
        "set max_dbpieces 6",
        "frobnicate",
        "get frobs",
        "set frobs 1",
        "",
    ] {
        assert_eq!(h.command(cmd), (0, "?".to_string()), "{cmd}");
    }
    for (cmd, word) in [
        ("set hashsize 0", "hashsize"),
        ("set hashsize lots", "hashsize"),
        ("set searchthreads 999", "searchthreads"),
        ("set allscores 2", "allscores"),
        ("set bookfile x.bin", "x.bin"),
        ("set book 4", "book"),
        ("set gamehist W:W21-32:B1-12 22-17", "move 1"),
        ("get movelist garbage", "FEN"),
    ] {
        let (ret, reply) = h.command(cmd);
        assert!(ret == 0 && reply.contains(word), "{cmd} -> {ret} {reply}");
    }
    assert_eq!(
        ok(h, "get hashsize"),
        "32",
        "a refused value changes nothing"
    );
}

/// Positions from random games with a real choice (3 or more quiet moves, 5 or more
/// pieces a side), where a search of 1000 s keeps going until stopped.
pub fn open_positions(count: usize, seed: u64) -> Vec<Position> {
    test_positions(count * 40, seed)
        .into_iter()
        .filter(|p| {
            let moves = legal_moves(p);
            moves.len() >= 3
                && !moves[0].is_capture()
                && p.count(Color::White) >= 5
                && p.count(Color::Black) >= 5
        })
        .take(count)
        .collect()
}

/// A getmove with `*playnow` set during a long search returns at once; the latencies
/// in ms (each checked to return a legal move). A search may also end on its own before
/// `*playnow` (a negative latency), but only with a proven win or loss (a proven result
/// needs no deeper search); such positions are left out of the latencies.
pub fn check_play_now(h: &mut Harness, positions: &[Position]) -> Vec<f64> {
    // A book move would come at once: these are the search's latencies.
    assert_eq!(h.command("set book 0").0, 1);
    let mut latencies = Vec::new();
    for (i, pos) in positions.iter().enumerate() {
        let (r, ms) = h.play_now(pos, 40 + 10 * (i as u32 % 8));
        check_move(pos, &r).unwrap_or_else(|e| panic!("playnow {i}: {e}"));
        if ms <= 0.0 {
            assert!(
                r.ret == CB_WIN || r.ret == CB_LOSS,
                "playnow {i}: a search of 1000 s returned {ms} ms before playnow without a \
                 proven result ({}): {}",
                r.ret,
                r.status
            );
            continue;
        }
        latencies.push(ms);
    }
    assert!(
        latencies.len() * 2 >= positions.len(),
        "most searches must be stopped by playnow: {latencies:?}"
    );
    latencies.sort_by(f64::total_cmp);
    latencies
}

/// The median of sorted values.
pub fn median(sorted: &[f64]) -> f64 {
    sorted[sorted.len() / 2]
}
