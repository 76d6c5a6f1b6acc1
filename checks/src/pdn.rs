//! PDN files as other programs write them, read by [`damiera::game::pdn_file`] and
//! [`damiera::game::pdn`], replayed by [`damiera::game::replay`], and opening files.
//!
//! Properties: the games of a file that reads write back to text that reads again as
//! the same games (tags in writing order, every move with the number and side the file
//! gave it), and that text is a fixed point; a game that replays holds only legal
//! moves; the recovering reader's games replay whole and legally and its warnings are
//! one line naming a token; the openings a file gives are sound positions.

use super::position::{game_is_legal, position_round_trips};
use super::{Checked, ensure};
use damiera::game::openings::parse_openings;
use damiera::game::pdn::{PdnGame, parse_pdn, write_pdn};
use damiera::game::pdn_file::{decode, describe, read_games, read_recovering};
use damiera::game::replay::replay_game;

/// Runs every property on `data` (see the module documentation).
pub fn check(data: &[u8]) -> Checked {
    if let Ok(games) = read_games(data) {
        games_round_trip(&games)?;
        for (i, game) in games.iter().enumerate() {
            let _ = describe(i, game);
            if let Ok(replayed) = replay_game(game, i + 1) {
                ensure(replayed.moves().len() == game.moves.len(), || {
                    format!("game {}: replay lost moves", i + 1)
                })?;
                game_is_legal(&replayed).map_err(|e| format!("game {}: {e}", i + 1))?;
            }
        }
    } else if let Ok(games) = parse_pdn(&decode(data)) {
        // Another GameType: still written and read back alike.
        games_round_trip(&games)?;
    }
    recovering_read_holds(data)?;
    if let Ok(openings) = parse_openings("fuzz", data) {
        for pos in &openings {
            position_round_trips(pos)?;
        }
    }
    Ok(())
}

/// The recovering reader: every game it gives replays whole and legally, numbers
/// rise, and every warning is one line naming a token.
fn recovering_read_holds(data: &[u8]) -> Checked {
    let read = read_recovering(data);
    let mut last = 0;
    for game in &read.games {
        ensure(game.number > last, || {
            format!("game numbers do not rise at {}", game.number)
        })?;
        last = game.number;
        ensure(game.replay.moves().len() == game.pdn.moves.len(), || {
            format!("game {}: the recovering replay lost moves", game.number)
        })?;
        game_is_legal(&game.replay).map_err(|e| format!("game {}: {e}", game.number))?;
    }
    for w in &read.warnings {
        let text = w.to_string();
        ensure(
            !text.contains(['\n', '\r']) && w.fault.contains('`'),
            || format!("warning not one line naming a token: {text:?}"),
        )?;
    }
    Ok(())
}

/// Written and read back, the games are the same (tags in writing order), and
/// writing them again gives the same text.
pub fn games_round_trip(games: &[PdnGame]) -> Checked {
    let text = write_pdn(games);
    let again = parse_pdn(&text).map_err(|e| format!("written PDN does not read: {e}\n{text}"))?;
    let expected: Vec<PdnGame> = games
        .iter()
        .map(|g| {
            let mut g = g.clone();
            g.sort_tags();
            g
        })
        .collect();
    ensure(again == expected, || {
        format!("games change when written and read back:\n{text}\n{expected:?}\n{again:?}")
    })?;
    let twice = write_pdn(&again);
    ensure(twice == text, || {
        format!("writing is not a fixed point:\n{text}\n---\n{twice}")
    })
}
