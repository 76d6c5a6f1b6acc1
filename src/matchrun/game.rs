//! One game between two engine processes: clocks, rules, adjudication, PDN record.
//!
//! Draw rules. The FID's rules summary (fid.it, "Brief rules of Italian draughts")
//! names only agreement and the threefold repetition of a position; no move-count draw
//! rule was found in the FID texts we could consult. The runner therefore uses
//! threefold repetition (same position, same side to move) and, as a configurable
//! fallback, 40 moves per side without a capture or a man move (`--draw-moves`).

use std::collections::HashMap;
use std::time::Duration;

use crate::board::{Color, Move, Position};
use crate::hub::parser::{Clock, Level};
use crate::movegen::{hub_text, legal_moves, parse_move, path_text};

use crate::game::pdn::{PdnGame, PdnMove, Side};
use super::stats::GameOutcome;
use crate::hub::client::{EngineFailure, EngineProc, EngineSpec, Thought};

/// Answer deadline when no clock or move time is set (depth or node limits only).
pub const UNTIMED_LIMIT: Duration = Duration::from_secs(60);

/// How long the `hub`/`init` handshake may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Search limits sent with `level`; several may be combined.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Game clock: base seconds and increment seconds (added after each move).
    pub tc: Option<(f64, f64)>,
    /// Fixed seconds per move.
    pub movetime: Option<f64>,
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
}

impl Limits {
    /// The PDN `TimeControl` value, e.g. `10+0.1`, `movetime 0.2`, `depth 3`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some((base, inc)) = self.tc {
            parts.push(format!("{base}+{inc}"));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("movetime {t}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        parts.join(", ")
    }
}

/// Draw and score adjudication settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adjudication {
    /// Draw when a position (with the same side to move) occurs this often; 0 = off.
    pub repetition: u32,
    /// Draw after this many moves per side without a capture or a man move; 0 = off.
    pub draw_moves: u32,
    /// Draw after this many moves per side in all; 0 = off.
    pub max_moves: u32,
    /// `(S, N)`: both engines report |score| >= S, agreeing on the winner, for N
    /// consecutive moves each: the game goes to that side.
    pub score: Option<(f64, u32)>,
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication {
            repetition: 3,
            draw_moves: 40,
            max_moves: 300,
            score: None,
        }
    }
}

/// Everything a game needs besides its engines.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Search limits.
    pub limits: Limits,
    /// Extra time an engine may use beyond its clock before it forfeits.
    pub margin: Duration,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// PDN `Event` tag.
    pub event: String,
    /// PDN `Date` tag.
    pub date: String,
}

/// One game to play.
#[derive(Clone, Copy, Debug)]
pub struct Job {
    /// 0-based game index in the match.
    pub index: usize,
    /// 1-based round (pass over the openings).
    pub round: usize,
    /// Start position.
    pub opening: Position,
    /// Whether engine A (the first `--engine`) has White.
    pub a_is_white: bool,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The job it came from.
    pub job: Job,
    /// Result from engine A's point of view.
    pub outcome: GameOutcome,
    /// Why the game ended (also the PDN `Termination` tag).
    pub termination: String,
    /// The PDN record.
    pub pdn: PdnGame,
}

/// An engine slot: the spec and, while it runs, the process. A failed process is
/// dropped (killed) and started again when next needed.
pub struct Slot {
    spec: EngineSpec,
    proc: Option<EngineProc>,
}

impl Slot {
    /// A slot with no process yet.
    pub fn new(spec: EngineSpec) -> Slot {
        Slot { spec, proc: None }
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    fn ensure(&mut self) -> Result<&mut EngineProc, EngineFailure> {
        if self.proc.is_none() {
            self.proc = Some(EngineProc::start(&self.spec, HANDSHAKE_TIMEOUT)?);
        }
        self.proc
            .as_mut()
            .ok_or_else(|| EngineFailure::Spawn("not started".into()))
    }

    /// Sends `new-game`; a failure only drops the process (it restarts on `think`).
    pub fn new_game(&mut self) {
        let ok = self.ensure().and_then(|p| p.new_game()).is_ok();
        if !ok {
            self.proc = None;
        }
    }

    fn think(
        &mut self,
        start: &Position,
        moves: &[String],
        level: Level,
        limit: Duration,
    ) -> Result<Thought, EngineFailure> {
        let result = self
            .ensure()
            .and_then(|p| p.think(start, moves, level, limit));
        if result.is_err() {
            self.proc = None;
        }
        result
    }

    /// Quits the engine politely, if it runs.
    pub fn shutdown(&mut self) {
        if let Some(p) = self.proc.take() {
            p.quit();
        }
    }
}

/// How a game ended, from White's side.
#[derive(Clone, Debug, PartialEq)]
enum Ending {
    Win(Color, String),
    Draw(String),
}

/// The running state of one game.
struct GameState {
    start: Position,
    pos: Position,
    hub_moves: Vec<String>,
    pdn_moves: Vec<PdnMove>,
    seen: HashMap<u64, u32>,
    quiet_plies: u32,
    clocks: [f64; 2],
    score_run: (u32, Option<Color>),
    move_number: u32,
}

fn color_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn failure_text(f: &EngineFailure, name: &str) -> String {
    match f {
        EngineFailure::Timeout => format!("time forfeit by {name}"),
        EngineFailure::Crash(m) => format!("crash of {name}: {m}"),
        EngineFailure::Spawn(m) => format!("crash of {name}: cannot start: {m}"),
        EngineFailure::Protocol(m) => format!("protocol error by {name}: {m}"),
    }
}

impl GameState {
    fn new(start: Position, limits: &Limits) -> GameState {
        let base = limits.tc.map_or(0.0, |t| t.0);
        let mut seen = HashMap::new();
        seen.insert(start.key(), 1);
        GameState {
            start,
            pos: start,
            hub_moves: Vec::new(),
            pdn_moves: Vec::new(),
            seen,
            quiet_plies: 0,
            clocks: [base, base],
            score_run: (0, None),
            move_number: 1,
        }
    }

    /// Ends by the rules or by a draw adjudication, checked before every move.
    fn rules_ending(&self, adj: &Adjudication) -> Option<Ending> {
        let side = self.pos.side_to_move();
        if legal_moves(&self.pos).is_empty() {
            let text = format!("{} has no legal move", side_name(side));
            return Some(Ending::Win(side.opponent(), text));
        }
        let reps = self.seen.get(&self.pos.key()).copied().unwrap_or(0);
        if adj.repetition > 0 && reps >= adj.repetition {
            return Some(Ending::Draw(format!("repetition ({reps} times)")));
        }
        if adj.draw_moves > 0 && self.quiet_plies >= 2 * adj.draw_moves {
            let n = adj.draw_moves;
            return Some(Ending::Draw(format!("{n}-move rule")));
        }
        let plies = self.hub_moves.len() as u32;
        if adj.max_moves > 0 && plies >= 2 * adj.max_moves {
            return Some(Ending::Draw("max moves".into()));
        }
        None
    }

    /// The `level` for the side to move and the deadline for its answer.
    fn level(&self, s: &GameSettings) -> (Level, Duration) {
        let side = color_index(self.pos.side_to_move());
        let mut limit = UNTIMED_LIMIT;
        let mut level = Level {
            depth: s.limits.depth,
            nodes: s.limits.nodes,
            ..Level::default()
        };
        if let Some((_, inc)) = s.limits.tc {
            let time = (self.clocks[side].max(0.0) * 1000.0).round() / 1000.0;
            level.clock = Some(Clock {
                moves: None,
                time,
                inc,
            });
            limit = Duration::from_secs_f64(time) + s.margin;
        }
        if let Some(t) = s.limits.movetime {
            level.move_time = Some(t);
            limit = limit.min(Duration::from_secs_f64(t) + s.margin);
        }
        (level, limit)
    }

    /// Charges the mover's clock; `true` when the clock fell below minus the margin.
    fn charge_clock(&mut self, s: &GameSettings, elapsed: Duration) -> bool {
        let Some((_, inc)) = s.limits.tc else {
            return false;
        };
        let side = color_index(self.pos.side_to_move());
        self.clocks[side] -= elapsed.as_secs_f64();
        if self.clocks[side] < -s.margin.as_secs_f64() {
            return true;
        }
        self.clocks[side] += inc;
        false
    }

    /// Asks the engine to move and plays its move; `Some` when the game ends.
    fn ply(&mut self, s: &GameSettings, slot: &mut Slot) -> Option<Ending> {
        let side = self.pos.side_to_move();
        let (level, limit) = self.level(s);
        let loss = |text: String| Some(Ending::Win(side.opponent(), text));
        let thought = match slot.think(&self.start, &self.hub_moves, level, limit) {
            Ok(t) => t,
            Err(f) => return loss(failure_text(&f, slot.name())),
        };
        if self.charge_clock(s, thought.elapsed) {
            return loss(failure_text(&EngineFailure::Timeout, slot.name()));
        }
        let Some(text) = thought.mv.as_deref() else {
            let f = EngineFailure::Protocol("done without a move".into());
            return loss(failure_text(&f, slot.name()));
        };
        let Ok(mv) = parse_move(&self.pos, text) else {
            return loss(format!("illegal move {} by {}", text.trim(), slot.name()));
        };
        self.record(mv, &thought);
        self.score_adjudication(s, side, thought.score)
    }

    /// Plays `mv`, recording it in both notations and updating the draw counters.
    fn record(&mut self, mv: Move, thought: &Thought) {
        let side = self.pos.side_to_move();
        let man_move = self.pos.piece_at(mv.from()).is_some_and(|p| !p.king);
        self.quiet_plies = if mv.is_capture() || man_move {
            0
        } else {
            self.quiet_plies + 1
        };
        let comment = match (thought.score, thought.depth) {
            (Some(sc), Some(d)) => Some(format!("{sc:.2}/{d}")),
            (Some(sc), None) => Some(format!("{sc:.2}")),
            _ => None,
        };
        let pdn_side = if side == Color::White {
            Side::White
        } else {
            Side::Black
        };
        self.pdn_moves.push(PdnMove {
            comment,
            ..PdnMove::new(&path_text(&self.pos, mv), self.move_number, pdn_side)
        });
        if side == Color::Black {
            self.move_number += 1;
        }
        self.hub_moves.push(hub_text(mv));
        self.pos = self.pos.play(mv);
        *self.seen.entry(self.pos.key()).or_insert(0) += 1;
    }

    /// Tracks consecutive decisive scores (White's view) for score adjudication.
    fn score_adjudication(
        &mut self,
        s: &GameSettings,
        mover: Color,
        score: Option<f64>,
    ) -> Option<Ending> {
        let (threshold, count) = s.adjudication.score?;
        let winner = score
            .filter(|v| v.abs() >= threshold)
            .map(|v| if v > 0.0 { mover } else { mover.opponent() });
        self.score_run = match (winner, self.score_run) {
            (Some(w), (n, Some(prev))) if w == prev => (n + 1, Some(w)),
            (Some(w), _) => (1, Some(w)),
            (None, _) => (0, None),
        };
        match self.score_run {
            (n, Some(w)) if n >= 2 * count => Some(Ending::Win(w, "adjudication: score".into())),
            _ => None,
        }
    }
}

/// Plays one game. `slots[0]` is engine A, `slots[1]` engine B.
pub fn play_game(s: &GameSettings, slots: &mut [Slot; 2], job: Job) -> GameRecord {
    let (white, black) = if job.a_is_white { (0, 1) } else { (1, 0) };
    for slot in slots.iter_mut() {
        slot.new_game();
    }
    let mut g = GameState::new(job.opening, &s.limits);
    let ending = loop {
        if let Some(end) = g.rules_ending(&s.adjudication) {
            break end;
        }
        let who = match g.pos.side_to_move() {
            Color::White => white,
            Color::Black => black,
        };
        if let Some(end) = g.ply(s, &mut slots[who]) {
            break end;
        }
    };
    let names = [slots[white].name(), slots[black].name()];
    finish(s, job, g, ending, names)
}

/// Builds the record: outcome for engine A, PDN tags and moves.
fn finish(
    s: &GameSettings,
    job: Job,
    g: GameState,
    ending: Ending,
    names: [&str; 2],
) -> GameRecord {
    let (result, termination, white_outcome) = match ending {
        Ending::Win(Color::White, t) => ("1-0", t, GameOutcome::Win),
        Ending::Win(Color::Black, t) => ("0-1", t, GameOutcome::Loss),
        Ending::Draw(t) => ("1/2-1/2", t, GameOutcome::Draw),
    };
    let outcome = match (job.a_is_white, white_outcome) {
        (true, o) | (false, o @ GameOutcome::Draw) => o,
        (false, GameOutcome::Win) => GameOutcome::Loss,
        (false, GameOutcome::Loss) => GameOutcome::Win,
    };
    let mut pdn = PdnGame {
        moves: g.pdn_moves,
        result: Some(result.to_string()),
        ..PdnGame::default()
    };
    let round = (job.index + 1).to_string();
    let tags = [
        ("Event", s.event.as_str()),
        ("Site", "?"),
        ("Date", s.date.as_str()),
        ("Round", round.as_str()),
        ("White", names[0]),
        ("Black", names[1]),
        ("Result", result),
        ("GameType", "22"),
    ];
    for (k, v) in tags {
        pdn.set_tag(k, v);
    }
    if g.start != Position::start() {
        pdn.set_tag("SetUp", "1");
        pdn.set_tag("FEN", &g.start.to_fen());
    }
    pdn.set_tag("TimeControl", &s.limits.describe());
    pdn.set_tag("Termination", &termination);
    GameRecord {
        job,
        outcome,
        termination,
        pdn,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> GameSettings {
        GameSettings {
            limits: Limits {
                tc: Some((1.0, 0.1)),
                ..Limits::default()
            },
            margin: Duration::from_millis(100),
            adjudication: Adjudication::default(),
            event: "test".into(),
            date: "2024.01.01".into(),
        }
    }

    fn thought() -> Thought {
        Thought {
            mv: None,
            score: None,
            depth: None,
            elapsed: Duration::ZERO,
        }
    }

    #[test]
    fn no_legal_move_loses() {
        let pos = Position::parse("W:W10:B6").map(|p| p.play_text("10x3"));
        let g = GameState::new(
            pos.unwrap_or_else(|_| Position::start()),
            &Limits::default(),
        );
        let end = g.rules_ending(&Adjudication::default());
        assert_eq!(
            end,
            Some(Ending::Win(Color::White, "Black has no legal move".into()))
        );
    }

    #[test]
    fn clock_forfeit_after_margin() {
        let s = settings();
        let mut g = GameState::new(Position::start(), &s.limits);
        assert!(!g.charge_clock(&s, Duration::from_millis(1050)));
        assert!((g.clocks[0] - 0.05).abs() < 1e-9);
        assert!(g.charge_clock(&s, Duration::from_millis(200)));
    }

    #[test]
    fn repetition_and_quiet_counters() {
        let mut g = GameState::new(
            Position::parse("W:WK29:BK4").unwrap_or_else(|_| Position::start()),
            &Limits::default(),
        );
        for text in [
            "29-25", "4-8", "25-29", "8-4", "29-25", "4-8", "25-29", "8-4",
        ] {
            let mv = parse_move(&g.pos, text);
            assert!(mv.is_ok(), "{text}");
            if let Ok(mv) = mv {
                g.record(mv, &thought());
            }
        }
        assert_eq!(g.quiet_plies, 8);
        let end = g.rules_ending(&Adjudication::default());
        assert_eq!(end, Some(Ending::Draw("repetition (3 times)".into())));
    }

    #[test]
    fn score_adjudication_needs_agreement() {
        let mut s = settings();
        s.adjudication.score = Some((5.0, 2));
        let mut g = GameState::new(Position::start(), &s.limits);
        // White says +6 (White wins), Black says -6 (White wins), four plies.
        let seq = [
            (Color::White, 6.0),
            (Color::Black, -6.0),
            (Color::White, 7.0),
        ];
        for (c, v) in seq {
            assert_eq!(g.score_adjudication(&s, c, Some(v)), None);
        }
        let end = g.score_adjudication(&s, Color::Black, Some(-9.0));
        assert_eq!(
            end,
            Some(Ending::Win(Color::White, "adjudication: score".into()))
        );
        assert_eq!(g.score_adjudication(&s, Color::White, Some(1.0)), None);
    }

    #[test]
    fn describe_limits() {
        let l = Limits {
            tc: Some((10.0, 0.1)),
            depth: Some(3),
            ..Limits::default()
        };
        assert_eq!(l.describe(), "10+0.1, depth 3");
    }

    trait PlayText {
        fn play_text(&self, text: &str) -> Position;
    }

    impl PlayText for Position {
        fn play_text(&self, text: &str) -> Position {
            parse_move(self, text).map_or(*self, |m| self.play(m))
        }
    }
}
