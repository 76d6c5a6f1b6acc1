//! A [`Game`] as a PDN record: the one place where a played game becomes a
//! [`PdnGame`], for the match runner, the web board and analysis alike.

use super::Game;
use super::pdn::{PdnGame, PdnMove, Slot};
use crate::board::{HouseRules, Position};
use crate::movegen::path_text;

/// How a recorded game ended: the PDN result token and, when the game is over, why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordEnd {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The `Termination` tag, if the game is over.
    pub termination: Option<String>,
}

impl RecordEnd {
    /// The end the game's own verdict gives: its result, and the verdict in words
    /// once it is over (`*` and no termination while it goes on).
    pub fn of(game: &Game) -> RecordEnd {
        let verdict = game.verdict();
        RecordEnd {
            result: verdict.result().to_string(),
            termination: verdict.is_over().then(|| verdict.to_string()),
        }
    }
}

/// The PDN record of `game`: its moves in path notation with their numbers, then the
/// tags in the order given, `Result`, `GameType` (the variant's: 22 Italian, 21 English,
/// 23 Pool, 24 Spanish, 25 Russian, 26 Brazilian, 29 Czech, 31 Thai, 42 Damka), `SetUp` and `FEN`
/// for a game that does not start
/// from its variant's start position, `HouseRules` for a Damka game played under house
/// rules (their names, comma-separated), and `Termination` when known.
pub fn pdn_record(game: &Game, tags: &[(&str, &str)], end: &RecordEnd) -> PdnGame {
    let mut record = PdnGame {
        moves: main_line(game),
        result: (end.result != "*").then(|| end.result.clone()),
        ..PdnGame::default()
    };
    for (name, value) in tags {
        record.set_tag(name, value);
    }
    record.set_tag("Result", &end.result);
    let variant = game.start().variant();
    record.set_tag("GameType", &variant.game_type().to_string());
    // Damka's house rules: its moves are not legal Damka without them.
    let house = game.start().house_rules();
    if !house.is_empty() {
        record.set_tag("HouseRules", &house.to_string());
    }
    if game.start().with_house_rules(HouseRules::NONE) != Position::start_of(variant) {
        record.set_tag("SetUp", "1");
        record.set_tag("FEN", &game.start().to_fen());
    }
    if let Some(t) = &end.termination {
        record.set_tag("Termination", t);
    }
    record
}

/// The moves of `game` as PDN moves, numbered as a PDN reader numbers them: a move
/// number starts with the variant's first mover (White, or Black in English checkers,
/// whose `1. 11-15 23-19` is Black's move then White's), and a game that the other side
/// starts opens with `1...`. The first mover's moves are in the first [`Slot`] of their
/// number, whatever their colour.
fn main_line(game: &Game) -> Vec<PdnMove> {
    let first = game.start().variant().first_mover();
    let mut number = 1;
    let mut moves = Vec::with_capacity(game.plies());
    for (pos, &mv) in game.positions().iter().zip(game.moves()) {
        let slot = if pos.side_to_move() == first {
            Slot::First
        } else {
            Slot::Second
        };
        moves.push(PdnMove::new(&path_text(pos, mv), number, slot));
        if slot == Slot::Second {
            number += 1;
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::pdn::{parse_pdn, write_pdn};
    use crate::game::replay::replay_game;

    #[test]
    fn a_record_reads_back_as_the_same_game() {
        let start = Position::parse("B:W21-32:B1-12").unwrap();
        let mut game = Game::new(start);
        for _ in 0..5 {
            let mv = crate::movegen::legal_moves(&game.position())[0];
            game.play(mv);
        }
        let end = RecordEnd::of(&game);
        assert_eq!(end.result, "*");
        let record = pdn_record(&game, &[("Event", "test"), ("White", "A")], &end);
        assert_eq!(record.tag("FEN"), Some(start.to_fen().as_str()));
        let text = write_pdn(&[record]);
        assert!(text.contains("\n1... ") && text.contains(" 3. "), "{text}");
        let back = &parse_pdn(&text).unwrap()[0];
        assert_eq!(replay_game(back, 1).unwrap(), game);
    }

    #[test]
    fn every_variant_records_its_game_type_and_reads_back() {
        use crate::board::Variant;
        for variant in Variant::ALL {
            let mut game = Game::new(Position::start_of(variant));
            for _ in 0..6 {
                let mv = crate::movegen::legal_moves(&game.position())[0];
                game.play(mv);
            }
            let record = pdn_record(&game, &[], &RecordEnd::of(&game));
            let number = variant.game_type().to_string();
            assert_eq!(record.tag("GameType"), Some(number.as_str()));
            assert_eq!(record.tag("FEN"), None, "{variant} starts from its start");
            let text = write_pdn(&[record]);
            assert!(text.contains("\n1. ") && text.contains(" 3. "), "{text}");
            let back = &parse_pdn(&text).unwrap()[0];
            assert_eq!(replay_game(back, 1).unwrap(), game, "{variant}: {text}");
        }
    }

    /// A Damka game under house rules carries them in `HouseRules` and reads back under
    /// them: here White declines a capture (c3-b4 while c3:e5 was there) and is huffed,
    /// which is not a legal Damka move without the tag. A bad tag is one line.
    #[test]
    fn house_rules_are_recorded_and_read_back() {
        use crate::board::Variant;
        let house = HouseRules::parse("huffing,count-pieces").unwrap();
        let start = Position::parse_in(Variant::Damka, "W:Wc3,g1:Bd4,b8")
            .unwrap()
            .with_house_rules(house);
        let mut game = Game::new(start);
        game.play_text("c3-b4").unwrap();
        let record = pdn_record(&game, &[], &RecordEnd::of(&game));
        assert_eq!(record.tag("HouseRules"), Some("huffing,count-pieces"));
        let text = write_pdn(&[record]);
        let back = &parse_pdn(&text).unwrap()[0];
        assert_eq!(replay_game(back, 1).unwrap(), game, "{text}");
        assert_eq!(game.position().to_fen(), "B:Wg1:Bb8,d4");
        let plain = text.replace("[HouseRules \"huffing,count-pieces\"]\n", "");
        assert!(
            replay_game(&parse_pdn(&plain).unwrap()[0], 1).is_err(),
            "{plain}"
        );
        let bad = text.replace("count-pieces", "blowing");
        let err = replay_game(&parse_pdn(&bad).unwrap()[0], 2).unwrap_err();
        let err = err.to_string();
        assert!(
            err.starts_with("game 2: HouseRules: unknown house rule"),
            "{err}"
        );
        assert!(err.contains("blowing") && !err.contains('\n'), "{err}");
        let russian = text.replace("[GameType \"42\"]", "[GameType \"25\"]");
        let err = replay_game(&parse_pdn(&russian).unwrap()[0], 1).unwrap_err();
        assert!(err.to_string().contains("damka only"), "{err}");
    }

    #[test]
    fn a_finished_game_carries_its_result_and_termination() {
        let mut game = Game::new(Position::parse("W:W10:B6").unwrap());
        game.play_text("10x3").unwrap();
        let end = RecordEnd::of(&game);
        let record = pdn_record(&game, &[], &end);
        assert_eq!(record.result.as_deref(), Some("1-0"));
        assert_eq!(
            record.tag("Termination"),
            Some(end.termination.as_deref().unwrap())
        );
    }
}
