//! The board's game review: every position of a line searched by the Hub engine, one
//! after the other, and the moves scored as `damiera analyse` scores them (the shared
//! [`crate::review`] room): the loss of each move against the best one, `?`/`??`, the
//! evaluation curve and the annotated PDN.

use serde_json::{Value, json};

use crate::board::{Move, Position};
use crate::game::pdn::{PdnGame, write_pdn};
use crate::game::{Game, Verdict};
use crate::movegen::{hub_text_in, parse_move};
use crate::review::annotate::annotate;
use crate::review::{
    Marks, PlyVerdict, curve, from_hub_men, played_score_from_lines, white_view_text,
};
use crate::search::score::WIN;

/// Shortest search per position accepted, in seconds.
pub const MIN_SECONDS: f64 = 0.05;
/// Longest search per position accepted, in seconds.
pub const MAX_SECONDS: f64 = 600.0;

/// What the engine found in one position: the best line's score (side to move) and
/// moves, and the first move and score of every line it reported (MultiPV), best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Eval {
    /// Score of the best line, search units, for the side to move.
    pub score: i32,
    /// The best line.
    pub pv: Vec<Move>,
    /// First move and score of each line, best first.
    pub lines: Vec<(Option<Move>, i32)>,
}

impl Eval {
    /// The evaluation from the engine's last `info` lines in `pos` (best first): each a
    /// Hub score in men and a PV in Hub form. `None` without a score.
    pub fn from_hub(pos: &Position, lines: &[(Option<f64>, Vec<String>)]) -> Option<Eval> {
        let (best_score, best_pv) = lines.first()?;
        let score = from_hub_men((*best_score)?)?;
        let pv = legal_prefix(pos, best_pv);
        let lines = lines
            .iter()
            .filter_map(|(score, pv)| {
                let score = from_hub_men((*score)?)?;
                Some((legal_prefix(pos, pv).first().copied(), score))
            })
            .collect();
        Some(Eval { score, pv, lines })
    }
}

/// The moves of a Hub PV as far as they are legal.
fn legal_prefix(pos: &Position, pv: &[String]) -> Vec<Move> {
    let mut pos = *pos;
    let mut out = Vec::new();
    for text in pv {
        let Ok(mv) = parse_move(&pos, text) else {
            break;
        };
        out.push(mv);
        pos = pos.play(mv);
    }
    out
}

/// A review of one line of the game.
#[derive(Clone, Debug)]
pub struct Review {
    /// Tells this review's searches from an earlier review's.
    pub id: u64,
    line: Game,
    evals: Vec<Option<Eval>>,
    /// Still searching.
    pub running: bool,
    /// Seconds per position.
    pub seconds: f64,
    /// The engine's name, for the annotated PDN.
    pub engine: String,
    /// Why the review stopped early, if it did.
    pub error: Option<String>,
}

/// A search the review asks for: position `ply` of the line.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewSearch {
    /// The position's ply in the line.
    pub ply: usize,
    /// The start position of the line.
    pub start: Position,
    /// The moves up to the position, Hub form.
    pub moves: Vec<String>,
    /// The position.
    pub pos: Position,
}

impl Review {
    /// A review of `line`, searching each position for `seconds`. Positions the rules
    /// have ended are scored at once (no legal move: lost; a draw: 0).
    pub fn new(id: u64, line: &Game, seconds: f64, engine: &str) -> Review {
        let evals = (0..=line.plies())
            .map(|ply| match line.verdict_at(ply) {
                Verdict::Ongoing => None,
                Verdict::Draw(_) => Some(Eval {
                    score: 0,
                    pv: Vec::new(),
                    lines: Vec::new(),
                }),
                Verdict::Win(..) => Some(Eval {
                    score: -WIN,
                    pv: Vec::new(),
                    lines: Vec::new(),
                }),
            })
            .collect();
        Review {
            id,
            line: line.clone(),
            evals,
            running: true,
            seconds,
            engine: engine.to_string(),
            error: None,
        }
    }

    /// The moves of the line reviewed.
    pub fn moves(&self) -> &[Move] {
        self.line.moves()
    }

    /// The next search to run, while the review runs.
    pub fn next_job(&self) -> Option<ReviewSearch> {
        if !self.running {
            return None;
        }
        let ply = self.evals.iter().position(Option::is_none)?;
        Some(ReviewSearch {
            ply,
            start: self.line.start(),
            moves: self.moves()[..ply]
                .iter()
                .map(|&m| hub_text_in(self.line.start().variant(), m))
                .collect(),
            pos: self.line.positions()[ply],
        })
    }

    /// Records what the search of position `ply` found; `None` (no score) stops the
    /// review with a message. The review ends when every position is scored.
    pub fn record(&mut self, ply: usize, eval: Option<Eval>) {
        match (eval, self.evals.get_mut(ply)) {
            (Some(e), Some(slot)) => *slot = Some(e),
            (None, _) => {
                self.error = Some(format!("the engine gave no score at ply {ply}"));
                self.running = false;
            }
            (Some(_), None) => {}
        }
        if self.evals.iter().all(Option::is_some) {
            self.running = false;
        }
    }

    /// Positions scored so far.
    pub fn done(&self) -> usize {
        self.evals.iter().filter(|e| e.is_some()).count()
    }

    /// The verdict on each move, from the first, as far as the scores reach: the same
    /// scoring as `damiera analyse` (the move's own line when the engine reported it,
    /// otherwise the score of the position after it, negated).
    pub fn verdicts(&self) -> Vec<PlyVerdict> {
        let mut out = Vec::new();
        for (ply, &played) in self.moves().iter().enumerate() {
            let Some(eval) = &self.evals[ply] else { break };
            let from_lines = played_score_from_lines(played, eval.lines.iter().copied());
            let first = (eval.pv.first() == Some(&played)).then_some(eval.score);
            let after = || self.evals[ply + 1].as_ref().map(|e| -e.score);
            let Some(played_score) = from_lines.or(first).or_else(after) else {
                break;
            };
            let pos = self.line.positions()[ply];
            out.push(PlyVerdict::new(
                pos,
                eval.score,
                eval.pv.clone(),
                played_score,
            ));
        }
        out
    }

    /// The `?`/`??` of the move that ends `moves` (from the start), when that is a move of
    /// the line reviewed and scored.
    pub fn mark(&self, verdicts: &[PlyVerdict], moves: &[Move]) -> Option<&'static str> {
        let ply = moves.len().checked_sub(1)?;
        let v = verdicts.get(ply)?;
        if !self.moves().starts_with(moves) {
            return None;
        }
        Marks::default().glyph(v.loss)
    }

    /// The review as the page reads it: progress, and the chart's points (ply 0 and one
    /// after each scored move), each with its clipped White's-view value in men, its
    /// score as text and the move's mark.
    pub fn to_json(&self, verdicts: &[PlyVerdict]) -> Value {
        let marks = Marks::default();
        let points: Vec<Value> = curve(verdicts)
            .into_iter()
            .enumerate()
            .map(|(ply, (_, men))| {
                let (text, mark, loss) = match ply.checked_sub(1).map(|i| &verdicts[i]) {
                    None => {
                        let v = &verdicts[0];
                        (
                            white_view_text(v.position.side_to_move(), v.best_score),
                            None,
                            0.0,
                        )
                    }
                    Some(v) => (
                        white_view_text(v.position.side_to_move(), v.played_score),
                        marks.glyph(v.loss),
                        v.loss,
                    ),
                };
                json!({
                    "ply": ply,
                    "men": men,
                    "text": text,
                    "mark": mark,
                    "loss": (loss * 100.0).round() / 100.0,
                })
            })
            .collect();
        json!({
            "running": self.running,
            "done": self.done(),
            "total": self.evals.len(),
            "plies": self.moves().len(),
            "seconds": self.seconds,
            "error": self.error,
            "points": points,
        })
    }

    /// The line as annotated PDN (`record` is the line's record without analysis): the
    /// score after each scored move, `?`/`??` and the engine's line on mistakes.
    pub fn annotated_pdn(&self, record: &PdnGame, verdicts: &[PlyVerdict]) -> String {
        let annotator = format!(
            "{} via Damiera {} web board, {} s a position",
            self.engine,
            env!("CARGO_PKG_VERSION"),
            self.seconds
        );
        write_pdn(&[annotate(record, verdicts, Marks::default(), &annotator)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;

    fn line(moves: &[&str]) -> Game {
        Game::from_texts(Position::start(), Default::default(), moves).unwrap()
    }

    fn eval(score: i32, pv: &[Move]) -> Option<Eval> {
        Some(Eval {
            score,
            pv: pv.to_vec(),
            lines: pv.first().map(|&m| (Some(m), score)).into_iter().collect(),
        })
    }

    #[test]
    fn moves_are_scored_as_analyse_scores_them() {
        let game = line(&["22-18", "12-16"]);
        let [a, b] = [game.moves()[0], game.moves()[1]];
        let mut r = Review::new(1, &game, 0.1, "E");
        assert_eq!(r.next_job().map(|j| j.ply), Some(0));
        r.record(0, eval(10, &[a]));
        assert_eq!(
            r.verdicts().len(),
            1,
            "the engine's own move needs no other score"
        );
        let job = r.next_job().unwrap();
        assert_eq!(
            (job.ply, job.moves.as_slice()),
            (1, ["22-18".to_string()].as_slice())
        );
        // 12-16 was not the engine's choice: its score is the next position's, negated.
        let other = legal_moves(&job.pos)[0];
        let other = if other == b {
            legal_moves(&job.pos)[1]
        } else {
            other
        };
        r.record(1, eval(30, &[other]));
        r.record(2, eval(120, &[]));
        assert!(!r.running);
        let v = r.verdicts();
        assert_eq!(v.len(), 2);
        assert_eq!(
            (v[0].played_score, v[0].loss),
            (10, 0.0),
            "the best move loses nothing"
        );
        assert_eq!(v[1].played_score, -120);
        assert!((v[1].loss - 1.5).abs() < 1e-9);
        assert_eq!(r.mark(&v, &[a, b]), Some("??"));
        assert_eq!(r.mark(&v, &[a]), None);
        assert_eq!(r.mark(&v, &[b]), None, "not the line reviewed");
        let json = r.to_json(&v);
        assert_eq!(json["points"].as_array().map(Vec::len), Some(3));
        assert_eq!(json["points"][2]["mark"], "??");
        assert_eq!(json["points"][2]["text"], "+1.20");
        assert_eq!(json["points"][0]["text"], "+0.10");
        let record = crate::game::pdn::parse_pdn("1. 22-18 12-16 *")
            .unwrap()
            .remove(0);
        let pdn = r.annotated_pdn(&record, &v);
        assert!(pdn.contains("12-16??") || pdn.contains("12-16 ??"), "{pdn}");
    }

    #[test]
    fn a_finished_game_scores_its_last_position_without_a_search() {
        let game = Game::from_texts(
            Position::parse("W:W19:B14,6").unwrap(),
            Default::default(),
            &["19x10x3"],
        )
        .unwrap();
        let r = Review::new(2, &game, 0.1, "E");
        assert_eq!(r.done(), 1);
        assert_eq!(r.next_job().map(|j| j.ply), Some(0));
        let mut r = r;
        r.record(0, None);
        assert!(!r.running);
        assert_eq!(
            r.error.as_deref(),
            Some("the engine gave no score at ply 0")
        );
    }

    #[test]
    fn hub_lines_become_an_evaluation() {
        let pos = Position::start();
        let lines = [
            (Some(0.25), vec!["22-18".to_string(), "11-14".into()]),
            (Some(-99.97), vec!["21-17".to_string()]),
            (None, vec![]),
        ];
        let e = Eval::from_hub(&pos, &lines).unwrap();
        assert_eq!(e.score, 25);
        assert_eq!(e.pv.len(), 2);
        assert_eq!(e.lines.len(), 2);
        assert_eq!(e.lines[1].1, -(WIN - 3));
        assert_eq!(Eval::from_hub(&pos, &[(None, vec![])]), None);
        assert_eq!(Eval::from_hub(&pos, &[]), None);
    }
}
