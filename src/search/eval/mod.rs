//! Static evaluation, in hundredths of a man from the side to move's view.
//!
//! Three evaluations: [`EvalStyle::Pattern`], the learned pattern evaluation (the engine's
//! default, weights from [`weights_file`]); [`EvalStyle::Hce`], the hand-made evaluation
//! it replaced (kept as the match yardstick); and [`EvalStyle::Material`], the first
//! version's material count.

pub mod hce;
pub mod pattern;
pub mod weights_file;

use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Mutex, OnceLock};

use super::score::EVAL_LIMIT;
use crate::board::{Color, Position};
pub use hce::{WEIGHTS, Weights, white_view};
pub use pattern::PatternWeights;
pub use weights_file::WeightsError;

/// Which evaluation to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalStyle {
    /// Learned weights over board regions (the active weights file).
    #[default]
    Pattern,
    /// Today's hand-made terms (kept as a match yardstick).
    Hce,
    /// Material only (the first working version; kept as a match baseline).
    Material,
}

/// The king's value in the material-only baseline (the first version's guess).
const MATERIAL_KING: i32 = 230;

/// Evaluates `pos` for the side to move.
#[inline]
pub fn evaluate(pos: &Position, style: EvalStyle) -> i32 {
    let white_view = match style {
        EvalStyle::Pattern => pattern::white_view(pos, active_weights()),
        EvalStyle::Hce => hce::white_view(pos, &WEIGHTS),
        EvalStyle::Material => hce::material(pos, 100, MATERIAL_KING),
    };
    let score = match pos.side_to_move() {
        Color::White => white_view,
        Color::Black => -white_view,
    };
    score.clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
}

/// The weights file built into the binary.
pub static EMBEDDED_FILE: &[u8] = include_bytes!("default.dmw");

/// Weights loaded by [`load_eval_file`]; null means the embedded ones. Every pointer
/// stored here comes from `Box::leak` and is never freed.
static ACTIVE: AtomicPtr<PatternWeights> = AtomicPtr::new(std::ptr::null_mut());
/// Where the active weights came from.
static ACTIVE_NAME: Mutex<String> = Mutex::new(String::new());

/// The embedded weights (material values only should the embedded file ever fail its
/// checks, which a unit test rules out).
pub fn embedded_weights() -> &'static PatternWeights {
    static EMBEDDED: OnceLock<PatternWeights> = OnceLock::new();
    EMBEDDED.get_or_init(|| {
        weights_file::parse(EMBEDDED_FILE).unwrap_or_else(|_| PatternWeights::material_only())
    })
}

/// The weights the pattern evaluation uses now.
#[inline(always)]
#[allow(unsafe_code)] // SAFETY: see the block; to go when the weights become a value.
pub fn active_weights() -> &'static PatternWeights {
    let p = ACTIVE.load(Ordering::Acquire);
    if p.is_null() {
        embedded_weights()
    } else {
        // SAFETY: non-null pointers in ACTIVE come from Box::leak and are never freed.
        unsafe { &*p }
    }
}

/// Loads a weights file for the pattern evaluation, process-wide. `embedded` (or an
/// empty path) goes back to the built-in weights. On error nothing changes: the
/// weights in use stay in use.
pub fn load_eval_file(path: &str) -> Result<(), WeightsError> {
    if path.is_empty() || path == "embedded" {
        ACTIVE.store(std::ptr::null_mut(), Ordering::Release);
        set_active_name("");
        return Ok(());
    }
    let bytes = std::fs::read(path).map_err(|e| WeightsError::Io(format!("{path}: {e}")))?;
    let weights = weights_file::parse(&bytes)?;
    ACTIVE.store(Box::leak(Box::new(weights)), Ordering::Release);
    set_active_name(path);
    Ok(())
}

/// The active weights file's path, or `embedded`.
pub fn eval_file_name() -> String {
    let name = ACTIVE_NAME.lock().map(|n| n.clone()).unwrap_or_default();
    if name.is_empty() {
        "embedded".to_string()
    } else {
        name
    }
}

fn set_active_name(name: &str) {
    if let Ok(mut n) = ACTIVE_NAME.lock() {
        *n = name.to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_file_passes_its_checks() {
        assert!(weights_file::parse(EMBEDDED_FILE).is_ok());
    }

    #[test]
    fn mirrored_positions_score_the_same_in_every_style() {
        // Colours swapped and the board turned: the same position for the side to move.
        for (a, b) in [
            ("W:W21-32:B1-12", "B:W21-32:B1-12"),
            ("W:W22,23,K5:B9,10", "B:B11,10,K28:W24,23"),
            ("B:W18,19,25,K1:B2,7,K30", "W:B15,14,8,K32:W31,26,K3"),
        ] {
            let (a, b) = (Position::parse(a).unwrap(), Position::parse(b).unwrap());
            for style in [EvalStyle::Pattern, EvalStyle::Hce, EvalStyle::Material] {
                assert_eq!(evaluate(&a, style), evaluate(&b, style), "{style:?}");
            }
        }
    }

    #[test]
    fn a_missing_file_keeps_the_weights() {
        let before = active_weights() as *const PatternWeights;
        assert!(matches!(
            load_eval_file("/nonexistent/weights.dmw"),
            Err(WeightsError::Io(_))
        ));
        assert_eq!(active_weights() as *const PatternWeights, before);
    }
}
