//! `set gamehist`: the game so far, as a [`Game`] of the game room, whose history (the
//! positions since the last irreversible move) the search needs for repetitions and the
//! move limit.

use damiera_engine::board::{Position, Variant};
use damiera_engine::game::{DrawRules, Game};

use crate::board8::{cb_numbering, read_cb_fen};

/// A game history as CheckerBoard sends it: `<FEN> [move...]`, moves as `24-19`, squares
/// in CheckerBoard's numbering for `variant`.
pub fn parse(text: &str, variant: Variant) -> Result<Game, String> {
    let mut words = text.split_whitespace();
    let fen = words.next().ok_or("gamehist needs a FEN position")?;
    let start = read_cb_fen(variant, fen).map_err(|e| format!("gamehist position: {e}"))?;
    let moves: Vec<String> = words.map(|w| renumber(variant, w)).collect();
    let rules = DrawRules::for_variant(variant);
    Game::from_texts(start, rules, &moves).map_err(|e| format!("gamehist: {e}"))
}

/// A move text in CheckerBoard's numbers rewritten in `variant`'s own square names (the
/// same text in Italian and English; `22-18` becomes `c3-d4` in Russian).
fn renumber(variant: Variant, text: &str) -> String {
    let from = cb_numbering(variant);
    if from == variant {
        return text.to_string();
    }
    let sep = if text.contains('-') { '-' } else { 'x' };
    text.split(sep)
        .map(|t| {
            t.parse::<u8>()
                .ok()
                .and_then(|n| from.square_numbered(n))
                .map_or_else(|| t.to_string(), |sq| variant.square_name(sq))
        })
        .collect::<Vec<_>>()
        .join(&sep.to_string())
}

/// The game to search at `pos`: `game` when it leads there, else `pos` alone (a history
/// for another position is stale and ignored).
pub fn game_for(game: Option<Game>, pos: &Position) -> Game {
    match game {
        Some(g) if g.position() == *pos => g,
        _ => Game::new(*pos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_moves_are_keyed_and_bad_histories_refused() {
        let g = parse("W:WK29:BK4 29-25 4-8 25-29 8-4", Variant::Italian).unwrap();
        assert_eq!(g.history_keys().len(), 4);
        assert_eq!(game_for(Some(g.clone()), &g.position()), g);
        assert_eq!(
            game_for(Some(g), &Position::start()),
            Game::new(Position::start())
        );
        assert!(parse("", Variant::Italian).is_err());
        assert!(parse("B:W1-40:B", Variant::Italian).is_err());
        assert!(
            parse("W:W21-32:B1-12 22-17", Variant::Italian)
                .unwrap_err()
                .contains("move 1")
        );
        // The API reference's example uses English numbering: 24-19 is no Italian move.
        let e = parse(
            "B:WK12,K27,30,32:B21,K24,28,K31 24-19 27-24",
            Variant::Italian,
        )
        .unwrap_err();
        assert!(e.contains("move 1"), "{e}");
    }

    /// A history is played under its game's draw rules, as a game started by the engine
    /// is: Russian histories once took the Italian ones (40 moves, no endings).
    #[test]
    fn histories_follow_their_games_draw_rules() {
        for v in Variant::ALL {
            let start = Position::start_of(v).with_variant(cb_numbering(v));
            let g = parse(&start.to_fen(), v).unwrap_or_else(|e| panic!("{v}: {e}"));
            assert_eq!(g.rules(), DrawRules::for_variant(v), "{v}");
        }
    }
}
