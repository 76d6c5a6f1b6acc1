//! Every front end ends a game at the same ply with the same verdict: the console, the
//! web board, the match runner's referee, self-play's referee and the Hub session all
//! keep their games in the game room, under the same draw rules.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code: a failed unwrap fails the test

use damiera::board::{Color, Position};
use damiera::cli::play::{ConsoleGame, Think};
use damiera::game::{DrawReason, DrawRules, Game, Verdict, WinReason};
use damiera::gui::game::ShownGame;
use damiera::hub::params::Params;
use damiera::hub::session::Session;
use damiera::matchrun::game::{Adjudication, Ending, referee};
use damiera::movegen::{hub_text, legal_moves, path_text};
use damiera::train::selfplay;
use proptest::prelude::*;

/// The verdict each front end gives after each ply of `moves` from `start`: the plies
/// are played until one front end (or the sequence) ends; the result is the list of
/// verdicts after every ply, per front end.
struct Fronts {
    console: ConsoleGame,
    board: ShownGame,
    runner: Game,
    selfplay: Game,
    hub: Session,
    start: Position,
    hub_moves: Vec<String>,
    adjudication: Adjudication,
}

/// A verdict in the match runner's terms.
fn as_ending(v: Verdict) -> Option<Ending> {
    match v {
        Verdict::Ongoing => None,
        Verdict::Win(w, _) => Some(Ending::Win(w, v.to_string())),
        Verdict::Draw(_) => Some(Ending::Draw(v.to_string())),
    }
}

/// A verdict in self-play's terms: White's result 0, 1, 2.
fn as_selfplay(v: Verdict) -> Option<u8> {
    match v {
        Verdict::Ongoing => None,
        Verdict::Win(Color::White, _) => Some(2),
        Verdict::Win(Color::Black, _) => Some(0),
        Verdict::Draw(_) => Some(1),
    }
}

impl Fronts {
    fn new(start: Position, rules: DrawRules) -> Fronts {
        let mut params = Params {
            draw_moves: Some(rules.quiet_moves.unwrap_or(0)),
            ..Params::default()
        };
        params.engine.tt_mib = 1;
        let (hub, _events) = Session::new(params).unwrap();
        let mut fronts = Fronts {
            console: ConsoleGame::new(
                start,
                None,
                Think::Depth(1),
                ConsoleGame::default_engine().unwrap(),
            )
            .with_rules(rules),
            board: ShownGame::with_rules(start, rules),
            runner: Game::with_rules(start, rules),
            selfplay: Game::with_rules(start, rules),
            hub,
            start,
            hub_moves: Vec::new(),
            adjudication: Adjudication {
                rules,
                max_moves: 0,
                score: None,
            },
        };
        fronts.send_hub_position();
        fronts
    }

    fn send_hub_position(&mut self) {
        let line = format!(
            "pos pos={} moves=\"{}\"",
            self.start.to_hub(),
            self.hub_moves.join(" ")
        );
        let answers = self.hub.handle_line(&line);
        assert!(answers.is_empty(), "{line}: {answers:?}");
    }

    /// Plays `text` (path form) everywhere.
    fn play(&mut self, text: &str) {
        let pos = self.runner.position();
        let mut out = Vec::new();
        self.console.handle(text, &mut out).expect("write to a Vec");
        assert_eq!(
            self.console.position(),
            pos.play(parse(&pos, text)),
            "console: {text}"
        );
        self.board.play_text(text).expect("board move");
        let mv = self.runner.play_text(text).expect("runner move");
        self.selfplay.play(mv);
        self.hub_moves.push(hub_text(mv));
        self.send_hub_position();
    }

    /// The verdict of each front end, which must all agree; returns it.
    fn verdict(&self) -> Verdict {
        let v = self.console.game().verdict();
        assert_eq!(self.board.verdict(), v, "web board");
        assert_eq!(
            referee(&self.runner, &self.adjudication),
            as_ending(v),
            "match runner"
        );
        assert_eq!(
            selfplay::referee(&self.selfplay, usize::MAX),
            as_selfplay(v),
            "self-play"
        );
        assert_eq!(self.hub.game().verdict(), v, "Hub session");
        assert_eq!(
            self.hub.game().history_keys(),
            self.runner.history_keys(),
            "Hub history"
        );
        v
    }
}

fn parse(pos: &Position, text: &str) -> damiera::board::Move {
    damiera::movegen::parse_move(pos, text).expect("legal move")
}

/// Plays `moves` through every front end; returns the ply at which the game ended and
/// the verdict (or the plies played and `Ongoing`).
fn play_through(fen: &str, rules: DrawRules, moves: &[String]) -> (usize, Verdict) {
    let start = Position::parse(fen).expect("test position");
    let mut fronts = Fronts::new(start, rules);
    for (ply, text) in moves.iter().enumerate() {
        let v = fronts.verdict();
        if v.is_over() {
            return (ply, v);
        }
        fronts.play(text);
    }
    (moves.len(), fronts.verdict())
}

fn texts(moves: &[&str]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// White's king round a 6-square loop, Black's round an 8-square loop, far apart: no
/// position occurs a third time within 96 plies.
fn quiet_walk(plies: usize) -> Vec<String> {
    let white = [18, 22, 26, 29, 25, 21];
    let black = [3, 7, 12, 16, 20, 15, 11, 6];
    let step =
        |lap: &[u8], i: usize| format!("{}-{}", lap[i % lap.len()], lap[(i + 1) % lap.len()]);
    (0..plies)
        .map(|i| {
            if i % 2 == 0 {
                step(&white, i / 2)
            } else {
                step(&black, i / 2)
            }
        })
        .collect()
}

/// A row of the table: name, start FEN, rules, moves, the ply the game ends at and how.
type Case = (
    &'static str,
    &'static str,
    DrawRules,
    Vec<String>,
    usize,
    Verdict,
);

#[test]
fn every_front_end_gives_the_same_verdict_at_the_same_ply() {
    let shuffle = texts(&["29-25", "4-8", "25-29", "8-4"].repeat(3));
    let no_limit = DrawRules::default().with_quiet_moves(0);
    let table: Vec<Case> = vec![
        (
            "repetition",
            "W:WK29:BK4",
            DrawRules::default(),
            shuffle.clone(),
            8,
            Verdict::Draw(DrawReason::Repetition { times: 3 }),
        ),
        (
            "40-move rule at ply 80 of the run",
            "W:WK18:BK3",
            DrawRules::default(),
            quiet_walk(90),
            80,
            Verdict::Draw(DrawReason::QuietMoves { moves: 40 }),
        ),
        (
            "the run starts after the last man move",
            "W:WK18,32:BK3,1",
            DrawRules::default(),
            [texts(&["32-28", "1-5"]), quiet_walk(90)].concat(),
            82,
            Verdict::Draw(DrawReason::QuietMoves { moves: 40 }),
        ),
        (
            "no legal move",
            "W:W22,K29:B11",
            DrawRules::default(),
            texts(&["22-18", "11-14", "18x11"]),
            3,
            Verdict::Win(Color::White, WinReason::NoLegalMove),
        ),
        (
            "move limit switched off",
            "W:WK18:BK3",
            no_limit,
            quiet_walk(90),
            90,
            Verdict::Ongoing,
        ),
        (
            "a shorter limit",
            "W:WK18:BK3",
            DrawRules::default().with_quiet_moves(10),
            quiet_walk(30),
            20,
            Verdict::Draw(DrawReason::QuietMoves { moves: 10 }),
        ),
    ];
    for (name, fen, rules, moves, ply, verdict) in table {
        assert_eq!(play_through(fen, rules, &moves), (ply, verdict), "{name}");
    }
}

/// Random legal moves from a few starts, king endings among them so that repetitions
/// and the move limit come up.
fn random_game(start: &str, seed: u64, plies: usize) -> Vec<String> {
    let mut pos = Position::parse(start).expect("test position");
    let mut game = Game::new(pos);
    let mut state = seed | 1;
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = legal_moves(&pos);
        if legal.is_empty() || game.verdict().is_over() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mv = legal[(state % legal.len() as u64) as usize];
        moves.push(path_text(&pos, mv));
        game.play(mv);
        pos = pos.play(mv);
    }
    moves
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_games_end_alike_everywhere(
        start in prop::sample::select(vec![
            "W:W21-32:B1-12",
            "W:WK18,K22:BK3,K7",
            "W:WK32,K28:BK1",
            "B:W22,K29:B9,K4",
        ]),
        seed in any::<u64>(),
        limit in prop::sample::select(vec![0u32, 5, 40]),
    ) {
        let rules = DrawRules::default().with_quiet_moves(limit);
        let moves = random_game(start, seed, 160);
        let (ply, verdict) = play_through(start, rules, &moves);
        // And the game room alone agrees.
        let game = Game::from_texts(Position::parse(start).unwrap(), rules, &moves[..ply]).unwrap();
        prop_assert_eq!(game.verdict(), verdict);
    }
}

/// The random games reach every kind of ending, so the property above is not vacuous.
#[test]
fn random_games_reach_every_ending() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 1..=120u64 {
        for start in ["W:WK18,K22:BK3,K7", "W:WK32,K28:BK1", "B:W22,K29:B9,K4"] {
            let rules = DrawRules::default().with_quiet_moves(5);
            let moves = random_game(start, seed, 160);
            let (_, verdict) = play_through(start, rules, &moves);
            seen.insert(match verdict {
                Verdict::Ongoing => "ongoing",
                Verdict::Win(..) => "win",
                Verdict::Draw(DrawReason::Repetition { .. }) => "repetition",
                Verdict::Draw(DrawReason::QuietMoves { .. }) => "move limit",
                Verdict::Draw(DrawReason::Ending { .. }) => "ending (not Italian)",
                Verdict::Draw(DrawReason::EqualPieces) => "counted (Damka house rule)",
            });
        }
    }
    assert!(
        ["win", "repetition", "move limit"]
            .iter()
            .all(|k| seen.contains(k)),
        "{seen:?}"
    );
}
