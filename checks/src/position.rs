//! Positions and moves as text: PDN FEN, the Hub position string, move text (path and
//! Hub forms) and the Hub `pos` command.
//!
//! The input's first line is a position text, the other lines move texts. Properties:
//! a position that parses has sound invariants and reads back equal from both of its
//! texts, which are canonical; a move that parses is one of the legal moves and reads
//! back from its Hub and path forms; a `pos` command that parses prints back to a line
//! that parses to the same command; a game built from move texts holds only legal moves,
//! each played in the position before it.

use super::{Checked, ensure};
use damiera::board::{Move, Position};
use damiera::game::{DrawRules, Game};
use damiera::movegen::{hub_text, legal_moves, parse_move, path_text};
use damiera::protocol::parser::{Command, PositionSpec, parse_command};

/// Runs every property on `data` (see the module documentation).
pub fn check(data: &[u8]) -> Checked {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    let moves: Vec<&str> = lines.collect();
    for pos in [
        Position::parse(first),
        Position::from_fen(first),
        Position::from_hub(first),
    ]
    .into_iter()
    .flatten()
    {
        position_round_trips(&pos)?;
    }
    let start = Position::parse(first).unwrap_or_else(|_| Position::start());
    for text in &moves {
        if let Ok(mv) = parse_move(&start, text) {
            move_is_legal_and_round_trips(&start, mv, text)?;
        }
    }
    game_moves_are_legal(start, &moves)?;
    pos_command(first, &moves)
}

/// Invariants, and both texts read back to the same position and are canonical.
pub fn position_round_trips(pos: &Position) -> Checked {
    pos.check_invariants()
        .map_err(|e| format!("{}: invariant broken: {e}", pos.to_fen()))?;
    let (fen, hub, variant) = (pos.to_fen(), pos.to_hub(), pos.variant());
    ensure(
        Position::parse_in(variant, &fen).as_ref() == Ok(pos),
        || format!("FEN {fen} does not read back in {variant}"),
    )?;
    ensure(
        Position::parse_in(variant, &hub).as_ref() == Ok(pos),
        || format!("Hub string {hub} does not read back in {variant}"),
    )?;
    ensure(
        Position::from_hub_in(variant, &hub).as_ref() == Ok(pos),
        || format!("from_hub_in({variant}, {hub}) differs"),
    )
}

/// A parsed move is legal and its Hub and path forms name it alone.
fn move_is_legal_and_round_trips(pos: &Position, mv: Move, text: &str) -> Checked {
    ensure(legal_moves(pos).contains(&mv), || {
        format!("{text:?} parsed to an illegal move in {}", pos.to_fen())
    })?;
    for form in [hub_text(mv), path_text(pos, mv)] {
        ensure(parse_move(pos, &form) == Ok(mv), || {
            format!(
                "{form} (from {text:?}) does not read back in {}",
                pos.to_fen()
            )
        })?;
    }
    Ok(())
}

/// Every move of a game built from texts is legal where it is played.
fn game_moves_are_legal(start: Position, moves: &[&str]) -> Checked {
    let Ok(game) = Game::from_texts(start, DrawRules::default(), moves) else {
        return Ok(());
    };
    game_is_legal(&game)
}

/// Each move of `game` is a legal move of the position before it, which it turns into
/// the next position.
pub fn game_is_legal(game: &Game) -> Checked {
    let positions = game.positions();
    ensure(positions.len() == game.moves().len() + 1, || {
        "positions and moves disagree".to_string()
    })?;
    for (i, &mv) in game.moves().iter().enumerate() {
        let before = &positions[i];
        ensure(legal_moves(before).contains(&mv), || {
            format!("move {} ({}) is illegal", i + 1, hub_text(mv))
        })?;
        ensure(positions[i + 1] == before.play(mv), || {
            format!("position after move {} is wrong", i + 1)
        })?;
    }
    Ok(())
}

/// `pos pos=<first> moves="..."` (and `pos start`) print back to the same command.
fn pos_command(first: &str, moves: &[&str]) -> Checked {
    let list = moves.join(" ");
    for line in [
        format!("pos pos={first} moves=\"{list}\""),
        format!("pos start moves=\"{list}\""),
        format!("pos {first}"),
    ] {
        let Ok(Some(command)) = parse_command(&line) else {
            continue;
        };
        let printed = command.to_string();
        ensure(parse_command(&printed) == Ok(Some(command.clone())), || {
            format!("{line:?} prints as {printed:?}, which reads differently")
        })?;
        if let Command::Pos {
            position: PositionSpec::Hub(text),
            ..
        } = &command
            && let Ok(pos) = Position::from_hub(text)
        {
            position_round_trips(&pos)?;
        }
    }
    Ok(())
}
