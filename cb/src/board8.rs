//! CheckerBoard's board and move types and their translation to the rules core.
//!
//! CheckerBoard hands the engine an `int board[8][8]` indexed `board[x][y]`; for Italian
//! (gametype 22) square `n` of the FID numbering is at `y = (n-1)/4` (the row from
//! Black's side) and `x` its column, so square 1 is `board[0][0]`. Black's men start
//! on 1-12 (`y` 0-2), White's on 21-32, White moves first: CheckerBoard's `CB_WHITE` is
//! the FID White.
//!
//! The other game types (21 English, 23 Pool, 24 Spanish, 25 Russian, 26 Brazilian, 29
//! Czech, 31 Thai, 42 Damka) use the same `board[x][y]`:
//! CheckerBoard keeps one board and only mirrors the Italian one on screen, and Damiera
//! plays every variant on the Italian geometry (see `damiera_engine::board::Variant`), so the
//! coordinates of a square are the same in every game type. What differs is the numbers
//! CheckerBoard writes in FEN strings and move texts: FID numbers in Italian (and in
//! Spanish, which CheckerBoard shows on the Italian board), the English numbering (1 = the
//! upper right of Black's back row, as CheckerBoard counts) in the others
//! ([`cb_numbering`]).

use damiera_engine::board::{Color, Move, Piece, Position, Square, Variant};

/// The numbering CheckerBoard uses for squares of `variant` in FEN strings, `islegal` and
/// move texts: the FID one on the Italian board, the English one on every board with a1
/// dark (the mirrored ones).
pub fn cb_numbering(variant: Variant) -> Variant {
    if variant.mirrored() {
        Variant::English
    } else {
        Variant::Italian
    }
}

/// A FEN string as CheckerBoard writes it for `variant`, read as a position of `variant`.
pub fn read_cb_fen(
    variant: Variant,
    fen: &str,
) -> Result<Position, damiera_engine::board::PositionError> {
    Position::from_fen_in(cb_numbering(variant), fen).map(|p| p.with_variant(variant))
}
use damiera_engine::movegen::capture_paths;

/// `CB_WHITE`.
pub const CB_WHITE: i32 = 1;
/// `CB_BLACK`.
pub const CB_BLACK: i32 = 2;
/// `CB_MAN`.
pub const CB_MAN: i32 = 4;
/// `CB_KING`.
pub const CB_KING: i32 = 8;

/// CheckerBoard's board, `board[x][y]`.
pub type Board8x8 = [[i32; 8]; 8];

/// A square in CheckerBoard's coordinates.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coor {
    /// Column, 0-7.
    pub x: i32,
    /// Row from Black's side, 0-7.
    pub y: i32,
}

/// CheckerBoard's `struct CBmove`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CbMove {
    /// Pieces captured.
    pub jumps: i32,
    /// The moving piece after the move (crowned if it was).
    pub newpiece: i32,
    /// The moving piece before the move.
    pub oldpiece: i32,
    /// Where it starts.
    pub from: Coor,
    /// Where it ends.
    pub to: Coor,
    /// Landing squares of a capture, `path[1..=jumps]` (`path[0]` unused).
    pub path: [Coor; 12],
    /// Captured squares, in the order they are jumped.
    pub del: [Coor; 12],
    /// The pieces captured there.
    pub delpiece: [i32; 12],
}

/// The CheckerBoard code of a piece (`CB_WHITE | CB_MAN`, ...).
pub fn piece_code(piece: Piece) -> i32 {
    let color = match piece.color {
        Color::White => CB_WHITE,
        Color::Black => CB_BLACK,
    };
    color | if piece.king { CB_KING } else { CB_MAN }
}

/// The side of a CheckerBoard colour argument.
pub fn color_of(code: i32) -> Result<Color, String> {
    match code {
        CB_WHITE => Ok(Color::White),
        CB_BLACK => Ok(Color::Black),
        other => Err(format!(
            "color {other} is neither CB_WHITE (1) nor CB_BLACK (2)"
        )),
    }
}

/// Where a square is on CheckerBoard's board.
pub fn coor(sq: Square) -> Coor {
    Coor {
        x: i32::from(sq.col()),
        y: i32::from(sq.row()),
    }
}

/// The square at CheckerBoard coordinates, if it is a dark square on the board.
pub fn square_at(c: Coor) -> Option<Square> {
    let (x, y) = (u8::try_from(c.x).ok()?, u8::try_from(c.y).ok()?);
    Square::from_row_col(y, x)
}

/// Reads a position from CheckerBoard's board. Light squares are ignored; every dark
/// square must hold 0 or a piece code, and the position must be one the rules allow
/// (at most 12 pieces a side, no man on its own crowning row).
pub fn read_board(board: &Board8x8, color: i32, variant: Variant) -> Result<Position, String> {
    let side = color_of(color)?;
    let mut white = Vec::new();
    let mut black = Vec::new();
    for sq in Square::all() {
        let c = coor(sq);
        let code = board[c.x as usize][c.y as usize];
        let n = sq.number();
        match code {
            0 => {}
            5 => white.push(n.to_string()),
            9 => white.push(format!("K{n}")),
            6 => black.push(n.to_string()),
            10 => black.push(format!("K{n}")),
            other => return Err(format!("square {n} holds {other}, not a piece code")),
        }
    }
    let side = if side == Color::White { "W" } else { "B" };
    let fen = format!("{side}:W{}:B{}", white.join(","), black.join(","));
    Position::from_fen(&fen)
        .map(|p| p.with_variant(variant))
        .map_err(|e| format!("illegal position: {e}"))
}

/// Writes the pieces of `pos` on the dark squares of `board` (light squares untouched).
pub fn write_board(pos: &Position, board: &mut Board8x8) {
    for sq in Square::all() {
        let c = coor(sq);
        board[c.x as usize][c.y as usize] = pos.piece_at(sq).map_or(0, piece_code);
    }
}

/// The capture path CheckerBoard shows for `mv`: landing squares, start included (the
/// path of highest Art. 6.9 priority); just `[from, to]` for a quiet move.
pub fn move_path(pos: &Position, mv: Move) -> Vec<Square> {
    capture_paths(pos, mv)
        .into_iter()
        .next()
        .unwrap_or_else(|| vec![mv.from(), mv.to()])
}

/// The square between two squares two diagonal steps apart (the jumped square).
fn between(a: Square, b: Square) -> Option<Square> {
    Square::from_row_col((a.row() + b.row()) / 2, (a.col() + b.col()) / 2)
}

/// One move described for CheckerBoard: pieces before and after, and per jump the
/// landing square, the captured square and the captured piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    /// Start square.
    pub from: Square,
    /// End square.
    pub to: Square,
    /// Piece code before the move.
    pub oldpiece: i32,
    /// Piece code after the move.
    pub newpiece: i32,
    /// (landing square, captured square, captured piece code), in jump order.
    pub jumps: Vec<(Square, Square, i32)>,
}

/// Describes a legal move of `pos`.
pub fn move_info(pos: &Position, mv: Move) -> MoveInfo {
    let old = pos.piece_at(mv.from()).unwrap_or(Piece {
        color: pos.side_to_move(),
        king: false,
    });
    let new = pos.play(mv).piece_at(mv.to()).unwrap_or(old);
    let mut jumps = Vec::new();
    if mv.is_capture() {
        for step in move_path(pos, mv).windows(2) {
            if let Some(jumped) = between(step[0], step[1]) {
                let code = pos.piece_at(jumped).map_or(0, piece_code);
                jumps.push((step[1], jumped, code));
            }
        }
    }
    MoveInfo {
        from: mv.from(),
        to: mv.to(),
        oldpiece: piece_code(old),
        newpiece: piece_code(new),
        jumps,
    }
}

/// The `CBmove` of a legal move of `pos`.
pub fn cb_move(pos: &Position, mv: Move) -> CbMove {
    let info = move_info(pos, mv);
    // `path` has room for 11 landings (`path[0]` is unused); no FID capture comes close.
    let jumps = info.jumps.len().min(11);
    let mut m = CbMove {
        jumps: jumps as i32,
        newpiece: info.newpiece,
        oldpiece: info.oldpiece,
        from: coor(info.from),
        to: coor(info.to),
        ..CbMove::default()
    };
    for (i, &(landing, jumped, piece)) in info.jumps.iter().take(jumps).enumerate() {
        m.path[i + 1] = coor(landing);
        m.del[i] = coor(jumped);
        m.delpiece[i] = piece;
    }
    m
}

/// The entry of a move in the `get movelist` reply:
/// `jumps,oldpiece,newpiece,from,to[,landed,captured,piece]...;`.
pub fn movelist_entry(pos: &Position, mv: Move) -> String {
    let info = move_info(pos, mv);
    let mut s = format!(
        "{},{},{},{},{}",
        info.jumps.len(),
        info.oldpiece,
        info.newpiece,
        info.from,
        info.to
    );
    for (landing, jumped, piece) in &info.jumps {
        s.push_str(&format!(",{landing},{jumped},{piece}"));
    }
    s.push(';');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use damiera_engine::movegen::legal_moves;

    #[test]
    fn squares_match_checkerboard_numbering() {
        // cb_interface.h, numbertocoors for GT_ITALIAN.
        for n in 1..=32u8 {
            let sq = Square::new(n).unwrap();
            let i = i32::from(n) - 1;
            let y = i / 4;
            let x = 2 * (i % 4) + (y % 2);
            assert_eq!(coor(sq), Coor { x, y }, "square {n}");
            assert_eq!(square_at(Coor { x, y }), Some(sq));
            assert_eq!(1 + 4 * y + x / 2, i32::from(n));
        }
        assert_eq!(square_at(Coor { x: 1, y: 0 }), None);
        assert_eq!(square_at(Coor { x: -1, y: 0 }), None);
        assert_eq!(square_at(Coor { x: 0, y: 8 }), None);
    }

    #[test]
    fn start_position_round_trips() {
        let mut board = [[0; 8]; 8];
        write_board(&Position::start(), &mut board);
        // CheckerBoard's InitCheckerBoard: black men on y 0-2, white men on y 5-7.
        assert_eq!(board[0][0], CB_BLACK | CB_MAN);
        assert_eq!(board[7][7], CB_WHITE | CB_MAN);
        assert_eq!(board[1][5], CB_WHITE | CB_MAN);
        assert_eq!(board[1][0], 0);
        assert_eq!(
            read_board(&board, CB_WHITE, Variant::Italian),
            Ok(Position::start())
        );
    }

    #[test]
    fn bad_boards_are_refused_with_a_reason() {
        let mut board = [[0; 8]; 8];
        write_board(&Position::start(), &mut board);
        assert!(
            read_board(&board, 3, Variant::Italian)
                .unwrap_err()
                .contains("color 3")
        );
        board[2][2] = 7;
        assert!(
            read_board(&board, CB_WHITE, Variant::Italian)
                .unwrap_err()
                .contains("square 10")
        );
        board[2][2] = CB_BLACK | CB_MAN;
        board[1][7] = 0;
        board[0][0] = CB_WHITE | CB_MAN;
        let e = read_board(&board, CB_WHITE, Variant::Italian).unwrap_err();
        assert!(e.contains("crowning row"), "{e}");
    }

    #[test]
    fn movelist_entries_match_the_api_examples() {
        let pos = Position::from_fen("B:W31:B3").unwrap();
        let mut entries: Vec<String> = legal_moves(&pos)
            .iter()
            .map(|&m| movelist_entry(&pos, m))
            .collect();
        entries.sort();
        assert_eq!(entries, ["0,6,6,3,6;", "0,6,6,3,7;"]);
        let pos = Position::from_fen("B:W11,13,19,21:B6,9").unwrap();
        let mut entries: Vec<String> = legal_moves(&pos)
            .iter()
            .map(|&m| movelist_entry(&pos, m))
            .collect();
        entries.sort();
        assert_eq!(
            entries,
            ["2,6,6,6,22,15,11,5,22,19,5;", "2,6,6,9,25,18,13,5,25,21,5;"]
        );
    }

    #[test]
    fn crowning_capture_fills_cbmove() {
        // White man on 10 captures 6 and lands on 3 (crowned).
        let pos = Position::from_fen("W:W10:B6,20").unwrap();
        let mv = legal_moves(&pos)[0];
        let m = cb_move(&pos, mv);
        assert_eq!(m.jumps, 1);
        assert_eq!(m.oldpiece, CB_WHITE | CB_MAN);
        assert_eq!(m.newpiece, CB_WHITE | CB_KING);
        assert_eq!(m.path[1], coor(Square::new(3).unwrap()));
        assert_eq!(m.to, coor(Square::new(3).unwrap()));
        assert_eq!(m.del[0], coor(Square::new(6).unwrap()));
        assert_eq!(m.delpiece[0], CB_BLACK | CB_MAN);
    }
}
