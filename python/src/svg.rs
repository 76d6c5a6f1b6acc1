//! A board as SVG, for Jupyter's `_repr_svg_`: the variant's own board (Italian with its
//! dark square at White's lower right, the others at the lower left), White at the bottom,
//! square names on the dark squares, the last move's squares marked.

use std::fmt::Write;

use damiera::board::{Color, Position, Square};

use crate::moves::PyMove;

const CELL: u32 = 40;

/// The SVG text of `pos`, the squares of `last` marked.
pub fn board_svg(pos: &Position, last: Option<&PyMove>) -> String {
    let variant = pos.variant();
    let size = CELL * 8;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {size} {size}\" \
         width=\"{size}\" height=\"{size}\" font-family=\"sans-serif\">"
    );
    let marked: Vec<Square> = last.map(|m| m.path.iter().collect()).unwrap_or_default();
    for row in 0..8u8 {
        for col in 0..8u8 {
            let (x, y) = (u32::from(col) * CELL, u32::from(row) * CELL);
            let square = variant.square_at(row, col);
            let fill = match square {
                None => "#f0d9b5",
                Some(sq) if marked.contains(&sq) => "#8a9a3b",
                Some(_) => "#6b8e4e",
            };
            let _ = write!(
                s,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>"
            );
            let Some(sq) = square else { continue };
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" font-size=\"9\" fill=\"#e8f0e0\">{}</text>",
                x + 2,
                y + 10,
                variant.square_name(sq)
            );
            if let Some(piece) = pos.piece_at(sq) {
                let (cx, cy) = (x + CELL / 2, y + CELL / 2);
                let (body, edge) = match piece.color {
                    Color::White => ("#fbfbf5", "#333"),
                    Color::Black => ("#262626", "#ddd"),
                };
                let _ = write!(
                    s,
                    "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"15\" fill=\"{body}\" stroke=\"{edge}\" \
                     stroke-width=\"1.5\"/>"
                );
                if piece.king {
                    let _ = write!(
                        s,
                        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"8\" fill=\"none\" stroke=\"#c9a227\" \
                         stroke-width=\"3\"/>"
                    );
                }
            }
        }
    }
    s.push_str("</svg>");
    s
}
