//! What the server knows: the game, the settings, the clocks, the engine (its state, its
//! parameters, its latest analysis lines) and the review. One [`App`] is shared by the
//! HTTP handlers and the engine thread; every change goes through [`App::change`] (or
//! [`App::update`] for the engine's own status), which tells the open pages.

use crate::clock::Instant;
use std::collections::BTreeMap;

use crossbeam_channel::Sender;
use parking_lot::Mutex;
use serde_json::{Value, json};

use super::events::Broadcaster;
use super::explorer::Explorer;
use super::game::{
    BoardEnding, ShownGame, board_json, game_json, games_json, house_rules_json, legal_json,
    squares_json,
};
use super::review::Review;
use crate::board::{Color, HouseRules, Move, Position, Variant};
use crate::clock::{GameClock, TimeControl};
use crate::protocol::response::{Param, ParamType};

/// Play against the engine, or analyse with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The engine plays `engine_side`.
    Play,
    /// The engine analyses the position shown while `analysing` is on.
    Analyse,
}

/// The engine process as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineStatus {
    /// Being started.
    Starting,
    /// Running; `busy` while a search is out.
    Ready {
        /// A search is running.
        busy: bool,
    },
    /// Not running; the reason.
    Dead(String),
}

/// The user's choices.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Play or analyse.
    pub mode: Mode,
    /// The side the engine plays in play mode (`None`: nobody, two humans).
    pub engine_side: Option<Color>,
    /// Seconds per engine move when there are no clocks.
    pub movetime: f64,
    /// Analysis running (analyse mode).
    pub analysing: bool,
    /// Seconds per position in a review.
    pub review_seconds: f64,
}

/// Everything behind the lock.
pub struct State {
    /// The variant the board and its engine play (`damiera gui --variant`).
    pub variant: Variant,
    /// The game.
    pub game: ShownGame,
    /// The user's choices.
    pub settings: Settings,
    /// The clocks (time control `None`: seconds per move instead).
    pub clocks: GameClock,
    /// Changes with every change of game or settings; the engine thread compares it.
    pub version: u64,
    /// Changes with every event sent (also of the engine's status and analysis), so
    /// that a page can tell the newer of two snapshots that reach it by different paths.
    pub revision: u64,
    /// The engine process.
    pub engine: EngineStatus,
    /// Engine name from its `id` line.
    pub engine_name: String,
    /// Engine process id while running.
    pub engine_pid: Option<u32>,
    /// Last message about the engine (illegal move, error line...), shown on the page.
    pub engine_message: Option<String>,
    /// The parameters the engine declared in its `hub` answer.
    pub params: Vec<Param>,
    /// Values the user set, by name (sent with `set-param`, and again after a restart).
    pub param_values: BTreeMap<String, String>,
    /// Changes with every parameter the user sets; the engine thread compares it.
    pub params_version: u64,
    /// Latest `info` line per MultiPV index, for the version they belong to.
    pub analysis: BTreeMap<u32, Value>,
    /// The review of a line, if one was asked for.
    pub review: Option<Review>,
    /// Numbers reviews.
    pub reviews: u64,
    /// A game ended by the players (a resignation, a draw agreed), at the end of the
    /// line it was agreed on.
    pub agreed: Option<Agreed>,
    /// The draw offer the engine is considering, if any.
    pub draw_offer: Option<DrawOffer>,
    /// The engine's answer to the latest draw offer.
    pub draw_answer: Option<DrawAnswer>,
    /// Numbers draw offers.
    pub offers: u64,
    /// The opening explorer's book and games.
    pub explorer: Explorer,
}

/// An ending the players chose: it holds at the end of `moves` (the line it was agreed
/// on); a move taken back or another line shown is not over.
#[derive(Clone, Debug)]
pub struct Agreed {
    /// The line, from the start, at whose end the game ended.
    pub moves: Vec<Move>,
    /// The result and why.
    pub ending: BoardEnding,
}

/// A draw offered to the engine at the end of `moves`; void once the line changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawOffer {
    /// Numbers the offer.
    pub id: u64,
    /// The line it was made at the end of.
    pub moves: Vec<Move>,
}

/// What the engine answered to a draw offer: accepted or not, and its score for itself
/// (hundredths of a man; `None` when it gave none, which declines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAnswer {
    /// The draw was agreed.
    pub accepted: bool,
    /// The engine's score of the game, from its own side.
    pub score: Option<i32>,
}

/// Messages to the engine thread.
#[derive(Debug)]
pub enum EngineCmd {
    /// Something changed: compare and start or stop a search.
    Wake,
    /// Kill the engine process (if any) and start a new one.
    Restart,
}

/// The shared application: state, event streams and the engine thread's inbox.
pub struct App {
    /// The state.
    pub state: Mutex<State>,
    /// Open event streams.
    pub events: Broadcaster,
    /// The engine thread's inbox.
    pub engine_tx: Sender<EngineCmd>,
}

impl State {
    /// A fresh state: start position, play mode, engine plays Black, 1 s per move.
    pub fn new() -> State {
        State::of(Variant::Italian)
    }

    /// [`State::new`] for a board of `variant`.
    pub fn of(variant: Variant) -> State {
        State {
            variant,
            game: ShownGame::new(Position::start_of(variant)),
            settings: Settings {
                mode: Mode::Play,
                engine_side: Some(Color::Black),
                movetime: 1.0,
                analysing: false,
                review_seconds: 1.0,
            },
            clocks: GameClock::new(None),
            version: 0,
            revision: 0,
            engine: EngineStatus::Starting,
            engine_name: "engine".into(),
            engine_pid: None,
            engine_message: None,
            params: Vec::new(),
            param_values: BTreeMap::new(),
            params_version: 0,
            analysis: BTreeMap::new(),
            review: None,
            reviews: 0,
            agreed: None,
            draw_offer: None,
            draw_answer: None,
            offers: 0,
            explorer: Explorer::new(),
        }
    }

    /// A new game from `game`: the clocks are set back, the review dropped.
    pub fn new_game(&mut self, game: ShownGame) {
        self.game = game;
        self.clocks = GameClock::new(self.clocks.control());
        self.agreed = None;
        self.draw_offer = None;
        self.draw_answer = None;
    }

    /// A new game of `variant` from its start (the board and its engine switch to it).
    pub fn new_game_of(&mut self, variant: Variant) {
        self.new_game_with(variant, HouseRules::NONE);
    }

    /// A new game of `variant` under Damka's house rules `house` (none for other games).
    pub fn new_game_with(&mut self, variant: Variant, house: HouseRules) {
        self.variant = variant;
        self.new_game(ShownGame::new(
            Position::start_of(variant).with_house_rules(house),
        ));
    }

    /// The house rules of the game shown (none but in Damka).
    pub fn house_rules(&self) -> HouseRules {
        self.game.start().house_rules()
    }

    /// The side that resigns or offers a draw in play mode: the engine's opponent, or
    /// the side to move at the end of the line when two people play. An error when the
    /// game is not one that can be resigned or offered a draw now.
    fn player_in_play(&self, what: &str) -> Result<Color, String> {
        if self.settings.mode != Mode::Play {
            return Err(format!("{what} is for play mode: choose Play first"));
        }
        if let Some(e) = self.ending() {
            return Err(format!("the game is over: {}", e.reason));
        }
        let turn = self.game.game().position().side_to_move();
        Ok(self.settings.engine_side.map_or(turn, Color::opponent))
    }

    /// The player resigns the game at the end of the line.
    pub fn resign(&mut self) -> Result<(), String> {
        let loser = self.player_in_play("resigning")?;
        let result = if loser == Color::White { "0-1" } else { "1-0" };
        self.agree(result, format!("{} resigned", color_title(loser)));
        Ok(())
    }

    /// The player offers a draw: agreed at once when two people play; otherwise the
    /// engine is asked (on the player's turn) and its answer lands in `draw_answer`.
    pub fn offer_draw(&mut self) -> Result<(), String> {
        self.player_in_play("a draw offer")?;
        let Some(engine) = self.settings.engine_side else {
            self.agree("1/2-1/2", "draw agreed".into());
            return Ok(());
        };
        if self.game.game().position().side_to_move() == engine {
            return Err("offer the draw on your turn: the engine is to move".into());
        }
        let moves = self.game.game().moves().to_vec();
        if self.draw_offer.as_ref().is_some_and(|o| o.moves == moves) {
            return Ok(());
        }
        self.offers += 1;
        self.draw_offer = Some(DrawOffer {
            id: self.offers,
            moves,
        });
        self.draw_answer = None;
        Ok(())
    }

    /// The draw offer the engine should consider now: made at the end of the line
    /// shown, which has not changed since, in a game still going on.
    pub fn pending_offer(&self) -> Option<&DrawOffer> {
        let offer = self.draw_offer.as_ref()?;
        let live = self.settings.mode == Mode::Play
            && self.settings.engine_side.is_some()
            && self.ending().is_none()
            && offer.moves == self.game.game().moves();
        live.then_some(offer)
    }

    /// The engine's answer to offer `id`: recorded, and a draw agreed if it accepts.
    pub fn answer_offer(&mut self, id: u64, answer: DrawAnswer) -> Result<(), String> {
        if self.pending_offer().is_none_or(|o| o.id != id) {
            return Err(String::new());
        }
        self.draw_offer = None;
        self.draw_answer = Some(answer);
        if answer.accepted {
            self.agree("1/2-1/2", "draw agreed".into());
        }
        Ok(())
    }

    fn agree(&mut self, result: &'static str, reason: String) {
        self.agreed = Some(Agreed {
            moves: self.game.game().moves().to_vec(),
            ending: BoardEnding { result, reason },
        });
        self.draw_offer = None;
    }

    /// True when the players ended the game (resigned, agreed a draw) at the end of
    /// the line shown.
    pub fn agreed_here(&self) -> bool {
        self.agreed_ending().is_some()
    }

    /// The players' ending, when it holds for the line shown.
    fn agreed_ending(&self) -> Option<&Agreed> {
        self.agreed
            .as_ref()
            .filter(|a| a.moves == self.game.game().moves())
    }

    /// Sets the time control (`None`: seconds per move) and sets the clocks back.
    pub fn set_time_control(&mut self, control: Option<TimeControl>) {
        self.clocks = GameClock::new(control);
    }

    /// True in play mode when `side` is the engine's.
    pub fn engine_plays(&self, side: Color) -> bool {
        self.settings.mode == Mode::Play && self.settings.engine_side == Some(side)
    }

    /// The game's end, at the end of the line shown: a flag fallen, or the rules.
    pub fn ending(&self) -> Option<BoardEnding> {
        if let Some(side) = self.clocks.flag() {
            return Some(BoardEnding {
                result: if side == Color::White { "0-1" } else { "1-0" },
                reason: format!(
                    "{} lost on time",
                    if side == Color::White {
                        "White"
                    } else {
                        "Black"
                    }
                ),
            });
        }
        self.ending_at(self.game.game().plies())
    }

    /// An ending the rules do not see: a fallen flag, a resignation, a draw agreed
    /// (for the PDN's result and termination).
    pub fn ending_off_the_board(&self) -> Option<BoardEnding> {
        if self.clocks.flag().is_some() {
            return self.ending();
        }
        self.agreed_ending().map(|a| a.ending.clone())
    }

    /// The verdict at ply `ply` of the line shown, if the game is over there: the
    /// rules', or the players' at the end of the line they agreed it on.
    fn ending_at(&self, ply: usize) -> Option<BoardEnding> {
        let verdict = self.game.verdict_at(ply);
        if verdict.is_over() {
            return Some(BoardEnding {
                result: verdict.result(),
                reason: verdict.to_string(),
            });
        }
        self.agreed_ending()
            .filter(|a| a.moves.len() == ply)
            .map(|a| a.ending.clone())
    }

    /// What ends the game at the ply shown: a fallen flag ends it everywhere in play
    /// mode; otherwise the rules at that ply.
    pub fn ending_shown(&self) -> Option<BoardEnding> {
        match self.clocks.flag() {
            Some(_) if self.settings.mode == Mode::Play => self.ending(),
            _ => self.ending_at(self.game.cursor()),
        }
    }

    /// The clock that should run now: in play mode, the side to move at the end of the
    /// line while the game goes on.
    pub fn clock_side(&self) -> Option<Color> {
        let live = self.settings.mode == Mode::Play && self.ending().is_none();
        live.then(|| self.game.game().position().side_to_move())
    }

    /// True when the page may move now: analyse mode, or the human's turn at the end.
    fn human_may_move(&self) -> bool {
        let turn = self.game.current().side_to_move();
        match self.settings.mode {
            Mode::Analyse => true,
            Mode::Play => {
                self.clocks.flag().is_none() && (!self.engine_plays(turn) || !self.game.at_end())
            }
        }
    }

    /// The engine's parameters for the page: declaration and current value.
    /// `variant` is left out: the board's own variant choice sets it.
    fn params_json(&self) -> Vec<Value> {
        self.params
            .iter()
            .filter(|p| p.name != "variant")
            .map(|p| {
                let value = self.param_values.get(&p.name).unwrap_or(&p.value);
                let mut v = json!({"name": p.name, "default": p.value, "value": value});
                if let Some(Value::Object(fields)) = p.kind.as_ref().map(kind_json)
                    && let Some(map) = v.as_object_mut()
                {
                    map.extend(fields);
                }
                v
            })
            .collect()
    }

    /// The state as the page reads it.
    pub fn to_json(&self) -> Value {
        let pos = self.game.current();
        let ending = self.ending_shown();
        let legal = if ending.is_none() && self.human_may_move() {
            legal_json(&pos)
        } else {
            Vec::new()
        };
        let s = &self.settings;
        let (status, busy, reason) = match &self.engine {
            EngineStatus::Starting => ("starting", false, None),
            EngineStatus::Ready { busy } => ("ready", *busy, None),
            EngineStatus::Dead(r) => ("dead", false, Some(r.clone())),
        };
        let verdicts = self
            .review
            .as_ref()
            .map(Review::verdicts)
            .unwrap_or_default();
        let mark = |moves: &[crate::board::Move]| {
            self.review.as_ref().and_then(|r| r.mark(&verdicts, moves))
        };
        json!({
            "version": self.version,
            "revision": self.revision,
            "variant": self.variant.name(),
            "variant_title": self.variant.title(),
            "squares": squares_json(self.variant),
            "game": game_json(self.variant),
            "games": games_json(),
            "house_rules": house_rules_json(self.variant, self.house_rules()),
            "fen": pos.to_fen(),
            "hub": pos.to_hub(),
            "board": board_json(&pos),
            "turn": side_name(pos.side_to_move()),
            "ply": self.game.cursor(),
            "plies": self.game.moves().len(),
            "moves": self.game.move_list(),
            "tree": self.game.tree_json(&mark),
            "path": self.game.path(),
            "last_move": self.game.last_move(),
            "legal": legal,
            "result": ending.map(|e| json!({"result": e.result, "reason": e.reason})),
            "offer": {
                "pending": self.pending_offer().is_some(),
                "answer": self.draw_answer.map(|a| json!({
                    "accepted": a.accepted,
                    "score": a.score.map(crate::search::score::in_men),
                    "text": a.score.map(crate::search::score::text),
                })),
                "id": self.offers,
            },
            "clock": clock_json(&self.clocks, Instant::now()),
            "settings": {
                "mode": if s.mode == Mode::Play { "play" } else { "analyse" },
                "engine_side": s.engine_side.map_or("none", side_name),
                "movetime": s.movetime,
                "analysing": s.analysing,
                "review_seconds": s.review_seconds,
            },
            "engine": {
                "status": status,
                "busy": busy,
                "reason": reason,
                "name": self.engine_name,
                "pid": self.engine_pid,
                "message": self.engine_message,
                "params": self.params_json(),
            },
            "explorer": self.explorer.to_json(&pos),
            "review": self.review.as_ref().map(|r| {
                let mut v = r.to_json(&verdicts);
                v["line_shown"] = json!(r.moves() == self.game.moves());
                v
            }),
        })
    }

    /// The analysis lines, best (MultiPV 1) first.
    pub fn analysis_json(&self) -> Value {
        json!({
            "version": self.version,
            "revision": self.revision,
            "lines": self.analysis.values().collect::<Vec<_>>(),
        })
    }

    /// Runs the clock the game calls for and drops a flag whose time is out.
    pub fn sync_clocks(&mut self, now: Instant) {
        self.clocks.check(now);
        let side = self.clock_side();
        self.clocks.run(side, now);
    }
}

/// A parameter type's fields for the page: `type`, and `min`/`max` or `values`.
fn kind_json(kind: &ParamType) -> Value {
    match kind {
        ParamType::Bool => json!({"type": "bool"}),
        ParamType::Int { min, max } => json!({"type": "int", "min": min, "max": max}),
        ParamType::Real { min, max } => json!({"type": "real", "min": min, "max": max}),
        ParamType::String => json!({"type": "string"}),
        ParamType::Enum { values } => json!({"type": "enum", "values": values}),
    }
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}

impl App {
    /// An application whose engine thread reads `engine_tx`'s other end.
    pub fn new(engine_tx: Sender<EngineCmd>) -> App {
        App::of(engine_tx, Variant::Italian)
    }

    /// [`App::new`] for a board of `variant`.
    pub fn of(engine_tx: Sender<EngineCmd>, variant: Variant) -> App {
        App {
            state: Mutex::new(State::of(variant)),
            events: Broadcaster::default(),
            engine_tx,
        }
    }

    /// An application with no engine thread behind it (nothing reads its inbox): for
    /// driving the JSON API without a process, as the fuzz target and the property tests
    /// do. The state and the events behave as in the server.
    pub fn offline() -> App {
        let (engine_tx, _) = crossbeam_channel::bounded(1);
        App::new(engine_tx)
    }

    /// Runs `change` under the lock; on `Ok` the version moves on, the clocks follow the
    /// game, the analysis is cleared if the position shown changed, a review whose line
    /// left the game is dropped, pages get the new state and the engine thread is woken.
    pub fn change<T>(
        &self,
        change: impl FnOnce(&mut State) -> Result<T, String>,
    ) -> Result<T, String> {
        let out = {
            let mut st = self.state.lock();
            let before = (st.game.cursor(), st.game.current(), st.game.start());
            let out = change(&mut st)?;
            st.version += 1;
            st.sync_clocks(Instant::now());
            if before != (st.game.cursor(), st.game.current(), st.game.start()) {
                st.analysis.clear();
            }
            let gone = st
                .review
                .as_ref()
                .is_some_and(|r| st.game.tree().find(r.moves()).is_none());
            if gone {
                st.review = None;
            }
            self.publish_locked(&mut st, true);
            out
        };
        let _ = self.engine_tx.try_send(EngineCmd::Wake);
        Ok(out)
    }

    /// Runs `update` under the lock without a new version (the engine's status, its
    /// analysis lines): pages get the new state (`state`) and analysis.
    pub fn update<T>(&self, state: bool, update: impl FnOnce(&mut State) -> T) -> T {
        let mut st = self.state.lock();
        let out = update(&mut st);
        self.publish_locked(&mut st, state);
        out
    }

    /// Sends the state (when `state`) and the analysis to every page, under the lock,
    /// so that the events reach each page in the order of the changes.
    fn publish_locked(&self, st: &mut State, state: bool) {
        st.revision += 1;
        if state {
            self.events
                .send("state", st.revision, st.to_json().to_string());
        }
        self.events
            .send("analysis", st.revision, st.analysis_json().to_string());
    }

    /// Drops the flag of a side whose time ran out (the engine thread asks every tick);
    /// true when one fell now.
    pub fn check_flag(&self) -> bool {
        let fell = {
            let st = self.state.lock();
            st.clocks.deadline().is_some_and(|d| Instant::now() >= d)
        };
        fell && self
            .change(|st| match st.clocks.check(Instant::now()) {
                Some(_) => Ok(()),
                None => Err(String::new()),
            })
            .is_ok()
    }
}

/// `white` or `black`, as the page names the sides.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// `White` or `Black`, for sentences.
fn color_title(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The clocks as the page reads them at `now`: seconds left per side, which runs.
pub fn clock_json(clocks: &GameClock, now: Instant) -> Value {
    let Some(control) = clocks.control() else {
        return Value::Null;
    };
    let secs = |c: Color| (clocks.left(c, now).as_secs_f64() * 1000.0).round() / 1000.0;
    json!({
        "time": control.base.as_secs_f64(),
        "inc": control.inc.as_secs_f64(),
        "white": secs(Color::White),
        "black": secs(Color::Black),
        "running": clocks.running().map(side_name),
        "paused": clocks.paused(),
        "flag": clocks.flag().map(side_name),
    })
}
