//! One game between two engine processes: clocks, rules, adjudication, PDN record.
//!
//! The game itself is a [`Game`] of the game room: its verdict under the match's
//! [`crate::game::DrawRules`] (threefold repetition and 40 moves each without a capture
//! or a man move by default; `--draw-repetition`, `--draw-moves`) ends a game as it
//! ends everywhere else. The runner adds what only a match has: clocks, a move cap,
//! score adjudication and engine faults.

use std::time::Duration;

use crate::clock::Instant;

use crate::board::{Color, Move, Position};
use crate::clock::{GameClock, Limits, TimeControl};
use crate::game::{DrawRules, Game, Verdict};
use crate::movegen::{hub_text_in, parse_move};

use super::stats::GameOutcome;
use super::time_use::TimeUse;
use crate::game::pdn::PdnGame;
use crate::game::record::{RecordEnd, pdn_record};
use crate::protocol::client::{EngineFailure, EngineProc, EngineSpec, Thought};

/// Answer deadline when no clock or move time is set (depth or node limits only).
pub const UNTIMED_LIMIT: Duration = Duration::from_secs(60);

/// How long the `hub`/`init` handshake may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The game's draw rules and the runner's own adjudication.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adjudication {
    /// The rules of the game: repetition and the move limit.
    pub rules: DrawRules,
    /// Draw after this many moves per side in all; 0 = off.
    pub max_moves: u32,
    /// `(S, N)`: both engines report |score| >= S, agreeing on the winner, for N
    /// consecutive moves each: the game goes to that side.
    pub score: Option<(f64, u32)>,
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication {
            rules: DrawRules::default(),
            max_moves: 300,
            score: None,
        }
    }
}

impl GameSettings {
    /// The PDN `TimeControl` value, e.g. `10+0.1`, `movetime 0.2`, `depth 3`.
    pub fn describe_limits(&self) -> String {
        self.limits.describe(self.time_control)
    }
}

/// Everything a game needs besides its engines.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The game clock, if the games are played on one.
    pub time_control: Option<TimeControl>,
    /// Limits of every move besides the clock: depth, nodes, time per move (its
    /// `clock` is the runner's to fill in).
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
pub struct ScheduledGame {
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
    pub job: ScheduledGame,
    /// Result from engine A's point of view.
    pub outcome: GameOutcome,
    /// Why the game ended (also the PDN `Termination` tag).
    pub termination: String,
    /// The PDN record.
    pub pdn: PdnGame,
    /// The time engine A (`[0]`) and engine B (`[1]`) used for their moves.
    pub time_use: [TimeUse; 2],
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
        level: Limits,
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

/// How a game ended, from White's side, with the reason (the PDN `Termination`).
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// The side won.
    Win(Color, String),
    /// Drawn.
    Draw(String),
}

/// The referee's call before each move: the game's verdict under its rules, then the
/// runner's move cap. `None` while the game goes on.
pub fn referee(game: &Game, adjudication: &Adjudication) -> Option<Ending> {
    let verdict = game.verdict();
    match verdict {
        Verdict::Win(winner, _) => Some(Ending::Win(winner, verdict.to_string())),
        Verdict::Draw(_) => Some(Ending::Draw(verdict.to_string())),
        Verdict::Ongoing => {
            let cap = 2 * adjudication.max_moves as usize;
            (cap > 0 && game.plies() >= cap).then(|| at_the_cap(game))
        }
    }
}

/// The end of a game stopped at the move cap: a draw, or under Damka's `count-pieces`
/// house rule the count ([`Game::adjudicated`]).
fn at_the_cap(game: &Game) -> Ending {
    match game.adjudicated() {
        verdict @ Verdict::Win(winner, _) => Ending::Win(winner, format!("max moves, {verdict}")),
        Verdict::Draw(reason) => Ending::Draw(format!("max moves, {reason}")),
        Verdict::Ongoing => Ending::Draw("max moves".into()),
    }
}

/// The running state of one game.
struct GameState {
    game: Game,
    hub_moves: Vec<String>,
    /// The engine's score and depth of each move, as its PDN comment.
    comments: Vec<Option<String>>,
    /// Both clocks; an engine may overrun its clock by the margin.
    clock: GameClock,
    score_run: (u32, Option<Color>),
    /// The time White (`[0]`) and Black (`[1]`) used for their moves.
    time_use: [TimeUse; 2],
}

fn failure_text(f: &EngineFailure, name: &str) -> String {
    match f {
        EngineFailure::Timeout => format!("time forfeit by {name}"),
        EngineFailure::Crash(m) => format!("crash of {name}: {m}"),
        EngineFailure::Spawn(m) => format!("crash of {name}: cannot start: {m}"),
        EngineFailure::Protocol(m) => format!("protocol error by {name}: {m}"),
    }
}

/// The longest wait for one move, whatever the clock says (a year).
const LONGEST_WAIT: Duration = Duration::from_secs(365 * 24 * 3600);

/// `t` seconds as a wait: 0 when negative or not a number, at most [`LONGEST_WAIT`].
fn seconds(t: f64) -> Duration {
    Duration::try_from_secs_f64(t)
        .unwrap_or(if t > 0.0 {
            LONGEST_WAIT
        } else {
            Duration::ZERO
        })
        .min(LONGEST_WAIT)
}

/// The game's clocks, running from the first move (the board's wait for a first move
/// is not a match's), with the margin as their grace.
fn running_clock(s: &GameSettings) -> GameClock {
    let mut clock = GameClock::new(s.time_control).with_grace(s.margin);
    clock.resume();
    clock
}

impl GameState {
    fn new(start: Position, s: &GameSettings) -> GameState {
        GameState {
            game: Game::with_rules(start, s.adjudication.rules),
            hub_moves: Vec::new(),
            comments: Vec::new(),
            clock: running_clock(s),
            score_run: (0, None),
            time_use: [TimeUse::default(); 2],
        }
    }

    fn pos(&self) -> Position {
        self.game.position()
    }

    /// The `level` for the side to move and the deadline for its answer.
    fn level(&self, s: &GameSettings) -> (Limits, Duration) {
        let side = self.pos().side_to_move();
        let mut limit = UNTIMED_LIMIT;
        let mut level = Limits {
            depth: s.limits.depth,
            nodes: s.limits.nodes,
            ..Limits::default()
        };
        if let Some(clock) = self.clock.time_left(side, Instant::now()) {
            level.clock = Some(clock);
            limit = seconds(clock.remaining()).saturating_add(s.margin);
        }
        if let Some(t) = s.limits.move_time {
            level.move_time = Some(t);
            limit = limit.min(seconds(t).saturating_add(s.margin));
        }
        (level, limit.min(LONGEST_WAIT))
    }

    /// Charges the mover's clock with `elapsed`; `true` when it ran out by more than
    /// the margin.
    fn charge_clock(&mut self, elapsed: Duration) -> bool {
        let side = self.pos().side_to_move();
        let start = Instant::now();
        self.clock.run(Some(side), start);
        self.clock.moved(
            side,
            start.checked_add(elapsed).unwrap_or(start + LONGEST_WAIT),
        );
        self.clock.flag() == Some(side)
    }

    /// Asks the engine to move and plays its move; `Some` when the game ends.
    fn ply(&mut self, s: &GameSettings, slot: &mut Slot) -> Option<Ending> {
        let side = self.pos().side_to_move();
        let (mut level, limit) = self.level(s);
        if let Some(nodes) = slot.spec.nodes {
            level.nodes = Some(nodes);
        }
        let loss = |text: String| Some(Ending::Win(side.opponent(), text));
        let thought = match slot.think(&self.game.start(), &self.hub_moves, level, limit) {
            Ok(t) => t,
            Err(f) => return loss(failure_text(&f, slot.name())),
        };
        self.time_use[side as usize].add(thought.elapsed);
        if self.charge_clock(thought.elapsed) {
            return loss(failure_text(&EngineFailure::Timeout, slot.name()));
        }
        let Some(text) = thought.mv.as_deref() else {
            let f = EngineFailure::Protocol("done without a move".into());
            return loss(failure_text(&f, slot.name()));
        };
        let Ok(mv) = parse_move(&self.pos(), text) else {
            return loss(format!("illegal move {} by {}", text.trim(), slot.name()));
        };
        self.record(mv, &thought);
        self.score_adjudication(s, side, thought.score)
    }

    /// Plays `mv`, keeping its Hub text and the engine's comment.
    fn record(&mut self, mv: Move, thought: &Thought) {
        let comment = match (thought.score, thought.depth) {
            (Some(sc), Some(d)) => Some(format!("{sc:.2}/{d}")),
            (Some(sc), None) => Some(format!("{sc:.2}")),
            _ => None,
        };
        self.comments.push(comment);
        self.hub_moves
            .push(hub_text_in(self.game.start().variant(), mv));
        self.game.play(mv);
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
pub fn play_game(s: &GameSettings, slots: &mut [Slot; 2], job: ScheduledGame) -> GameRecord {
    let (white, black) = if job.a_is_white { (0, 1) } else { (1, 0) };
    for slot in slots.iter_mut() {
        slot.new_game();
    }
    let mut g = GameState::new(job.opening, s);
    let ending = loop {
        if let Some(end) = referee(&g.game, &s.adjudication) {
            break end;
        }
        let who = match g.pos().side_to_move() {
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
    job: ScheduledGame,
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
    let [white_time, black_time] = g.time_use;
    let time_use = if job.a_is_white {
        [white_time, black_time]
    } else {
        [black_time, white_time]
    };
    let round = (job.index + 1).to_string();
    let limits = s.describe_limits();
    let tags = [
        ("Event", s.event.as_str()),
        ("Site", "?"),
        ("Date", s.date.as_str()),
        ("Round", round.as_str()),
        ("White", names[0]),
        ("Black", names[1]),
        ("TimeControl", limits.as_str()),
    ];
    let end = RecordEnd {
        result: result.to_string(),
        termination: Some(termination.clone()),
    };
    let mut pdn = pdn_record(&g.game, &tags, &end);
    for (mv, comment) in pdn.moves.iter_mut().zip(g.comments) {
        mv.comment = comment;
    }
    GameRecord {
        job,
        outcome,
        termination,
        pdn,
        time_use,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> GameSettings {
        GameSettings {
            time_control: Some(TimeControl::new(1.0, 0.1)),
            limits: Limits::default(),
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
        let g = GameState::new(pos.unwrap_or_else(|_| Position::start()), &settings());
        let end = referee(&g.game, &Adjudication::default());
        assert_eq!(
            end,
            Some(Ending::Win(Color::White, "Black has no legal move".into()))
        );
    }

    /// At the move cap a Damka game under `count-pieces` is counted, not drawn.
    #[test]
    fn the_cap_counts_pieces_under_the_house_rule() {
        use crate::board::{HouseRules, Variant};
        let cap = Adjudication {
            max_moves: 1,
            ..Adjudication::default()
        };
        let game = |house: &str| {
            let start = Position::parse_in(Variant::Damka, "W:WKa1,c3:BKh8,Kf8,b8")
                .map(|p| p.with_house_rules(HouseRules::parse(house).unwrap_or_default()))
                .unwrap_or_else(|_| Position::start());
            let mut g = Game::new(start);
            for text in ["a1-b2", "h8-g7"] {
                assert!(g.play_text(text).is_ok(), "{text}");
            }
            g
        };
        assert_eq!(
            referee(&game(""), &cap),
            Some(Ending::Draw("max moves".into()))
        );
        assert_eq!(
            referee(&game("count-pieces"), &cap),
            Some(Ending::Win(
                Color::Black,
                "max moves, pieces counted, Black has more".into()
            ))
        );
    }

    #[test]
    fn clock_forfeit_after_margin() {
        let s = settings();
        let mut g = GameState::new(Position::start(), &s);
        assert!(!g.charge_clock(Duration::from_millis(1050)));
        // The 50 ms over zero are forgiven, then the increment comes.
        let left = g.clock.left(Color::White, Instant::now());
        assert_eq!(left, Duration::from_millis(100));
        assert!(g.charge_clock(Duration::from_millis(200)));
    }

    #[test]
    fn repetition_and_quiet_counters() {
        let mut g = GameState::new(
            Position::parse("W:WK29:BK4").unwrap_or_else(|_| Position::start()),
            &settings(),
        );
        for text in [
            "29-25", "4-8", "25-29", "8-4", "29-25", "4-8", "25-29", "8-4",
        ] {
            let mv = parse_move(&g.pos(), text);
            assert!(mv.is_ok(), "{text}");
            if let Ok(mv) = mv {
                g.record(mv, &thought());
            }
        }
        assert_eq!(g.game.reversible_plies(), 8);
        let end = referee(&g.game, &Adjudication::default());
        assert_eq!(end, Some(Ending::Draw("repetition (3 times)".into())));
    }

    #[test]
    fn score_adjudication_needs_agreement() {
        let mut s = settings();
        s.adjudication.score = Some((5.0, 2));
        let mut g = GameState::new(Position::start(), &s);
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

    trait PlayText {
        fn play_text(&self, text: &str) -> Position;
    }

    impl PlayText for Position {
        fn play_text(&self, text: &str) -> Position {
            parse_move(self, text).map_or(*self, |m| self.play(m))
        }
    }
}
