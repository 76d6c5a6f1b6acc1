//! Static evaluation, in hundredths of a man from the side to move's view.
//!
//! Four evaluations: [`EvalStyle::Pattern`], the learned evaluation (the engine's
//! default): a network ([`nnue`]) where the weights carry one, the learned patterns
//! (weights from [`weights_file`]) elsewhere; [`EvalStyle::Patterns`], the learned patterns
//! even where a network is the default (the match yardstick of the network);
//! [`EvalStyle::Hce`], the hand-made evaluation the patterns replaced; and
//! [`EvalStyle::Material`], the first version's material count. The weights carry a
//! network when a network file (`.dmn`, [`nnue_file`]) was loaded, or when the game's
//! built-in weights have one (Italian: `italian.dmn`, English: `english.dmn`, Russian:
//! `russian.dmn`; Brazilian and Pool: `brazilian.dmn` and `pool.dmn`, Russian's relabelled).

pub mod hce;
pub mod nnue;
pub mod nnue_file;
pub mod nnue_stack;
pub mod pattern;
pub mod score_cache;
pub mod weights_file;

use std::io::Read;
use std::sync::{Arc, OnceLock};

use super::score::EVAL_LIMIT;
use crate::board::{Color, Position, Variant};
pub use hce::{WEIGHTS, Weights};
pub use pattern::PatternWeights;
pub use weights_file::WeightsError;

/// Which evaluation to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalStyle {
    /// Learned weights over board regions (the weights the search context carries), or
    /// the network those weights carry (a loaded `.dmn` file, or the game's built-in one).
    #[default]
    Pattern,
    /// The learned weights over board regions, never a network.
    Patterns,
    /// Today's hand-made terms (kept as a match yardstick).
    Hce,
    /// Material only (the first working version; kept as a match baseline).
    Material,
}

/// The king's value in the material-only baseline (the first version's guess).
const MATERIAL_KING: i32 = 230;

/// The baseline's king: the first version's guess in Italian, the hand-made value in
/// the other variants.
const fn material_king(variant: Variant) -> i32 {
    match variant {
        Variant::Italian => MATERIAL_KING,
        v => hce::weights_for(v).king,
    }
}

/// Evaluates `pos` for the side to move; the pattern evaluation uses `weights` (their
/// network, from scratch, if they carry one).
#[inline]
pub fn evaluate(pos: &Position, style: EvalStyle, weights: &PatternWeights) -> i32 {
    if style == EvalStyle::Pattern
        && let Some(net) = &weights.network
    {
        return net.evaluate(pos).clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1);
    }
    let white = match style {
        EvalStyle::Pattern | EvalStyle::Patterns => pattern::evaluate_white(pos, weights),
        EvalStyle::Hce => hce::evaluate_white(pos, hce::weights_for(pos.variant())),
        EvalStyle::Material => hce::material(pos, 100, material_king(pos.variant())),
    };
    let score = match pos.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    };
    score.clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
}

/// The weights file built into the binary: the Italian one.
pub static EMBEDDED_FILE: &[u8] = include_bytes!("default.dmw");

/// The weights file built into the binary for `variant` (every game has one; `None`
/// would leave a game on material values only).
pub const fn embedded_file(variant: Variant) -> Option<&'static [u8]> {
    match variant {
        Variant::Italian => Some(EMBEDDED_FILE),
        Variant::English => Some(include_bytes!("english.dmw")),
        Variant::Russian => Some(include_bytes!("russian.dmw")),
        Variant::Brazilian => Some(include_bytes!("brazilian.dmw")),
        Variant::Pool => Some(include_bytes!("pool.dmw")),
        Variant::Spanish => Some(include_bytes!("spanish.dmw")),
        Variant::Czech => Some(include_bytes!("czech.dmw")),
        Variant::Thai => Some(include_bytes!("thai.dmw")),
        Variant::Damka => Some(include_bytes!("damka.dmw")),
    }
}

/// The network built into the binary for `variant`, if it has one: then the learned
/// evaluation of that game. Brazilian's and Pool's are Russian's, relabelled by
/// `scripts/nnue/relabel.py`: the three games differ in their capture rules (Brazilian's
/// capture of the most pieces, Pool's man that captures on uncrowned), not in what a
/// quiet position is worth, and it beat both games' pattern weights (where a network
/// trained on Brazilian games did not).
pub const fn embedded_network(variant: Variant) -> Option<&'static [u8]> {
    match variant {
        Variant::Italian => Some(include_bytes!("italian.dmn")),
        Variant::English => Some(include_bytes!("english.dmn")),
        Variant::Russian => Some(include_bytes!("russian.dmn")),
        Variant::Brazilian => Some(include_bytes!("brazilian.dmn")),
        Variant::Pool => Some(include_bytes!("pool.dmn")),
        Variant::Czech | Variant::Spanish | Variant::Thai | Variant::Damka => None,
    }
}

/// The embedded Italian weights, parsed once and shared.
pub fn embedded_weights() -> Arc<PatternWeights> {
    Arc::clone(embedded_weights_for(Variant::Italian))
}

/// The embedded weights of `variant`, parsed once and shared (material values only
/// should an embedded file ever fail its checks or name another variant, which a unit
/// test rules out).
pub fn embedded_weights_for(variant: Variant) -> &'static Arc<PatternWeights> {
    static EMBEDDED: [OnceLock<Arc<PatternWeights>>; Variant::COUNT] =
        [const { OnceLock::new() }; Variant::COUNT];
    EMBEDDED[variant.index()].get_or_init(|| {
        let parsed = embedded_file(variant).map(weights_file::parse);
        let mut weights = match parsed {
            Some(Ok(w)) if w.variant == variant => w,
            _ => PatternWeights::material_only_in(variant),
        };
        weights.network = embedded_network(variant)
            .and_then(|bytes| nnue_file::parse(bytes).ok())
            .filter(|net| net.variant == variant)
            .map(Arc::new);
        Arc::new(weights)
    })
}

/// The weights a search of a `variant` position uses: `weights` if they were made for
/// that variant, else the variant's embedded ones.
#[inline]
pub fn weights_in(weights: &PatternWeights, variant: Variant) -> &PatternWeights {
    if weights.variant == variant {
        weights
    } else {
        embedded_weights_for(variant)
    }
}

/// Pattern weights and the name of the file they came from: what an engine plays with.
/// Clones share the weights; two are equal when they are the same loaded copy.
#[derive(Clone, Debug)]
pub struct EvalFile {
    name: String,
    weights: Arc<PatternWeights>,
}

impl EvalFile {
    /// The embedded weights, named `embedded`.
    pub fn embedded() -> EvalFile {
        EvalFile {
            name: String::new(),
            weights: embedded_weights(),
        }
    }

    /// Loads a weights file, or a network file (told by its magic: the network then
    /// evaluates, beside its variant's embedded pattern weights); `embedded` (or an
    /// empty path) is the built-in one. Reads at most one byte more than the larger of
    /// the two formats, so a huge file or a device is refused by its size.
    pub fn load(path: &str) -> Result<EvalFile, WeightsError> {
        if path.is_empty() || path == "embedded" {
            return Ok(EvalFile::embedded());
        }
        let io = |e: std::io::Error| WeightsError::Io(format!("{path}: {e}"));
        let file = std::fs::File::open(path).map_err(io)?;
        let mut bytes = Vec::new();
        let longest = weights_file::FILE_LEN.max(nnue_file::MAX_FILE_LEN);
        file.take(longest as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        let weights = if nnue_file::is_network(&bytes) {
            let net = nnue_file::parse(&bytes).map_err(WeightsError::Network)?;
            let mut weights = PatternWeights::clone(embedded_weights_for(net.variant));
            weights.network = Some(Arc::new(net));
            weights
        } else {
            weights_file::parse(&bytes)?
        };
        Ok(EvalFile {
            name: path.to_string(),
            weights: Arc::new(weights),
        })
    }

    /// Refuses weights loaded from a file for another game than `variant` (the embedded
    /// ones are every variant's: a search takes those of its position's variant).
    pub fn check_variant(&self, variant: Variant) -> Result<(), WeightsError> {
        let file = self.weights.variant;
        if self.name.is_empty() || file == variant {
            Ok(())
        } else {
            Err(WeightsError::Variant {
                file,
                wanted: variant,
            })
        }
    }

    /// The file's path, or `embedded`.
    pub fn name(&self) -> &str {
        if self.name.is_empty() {
            "embedded"
        } else {
            &self.name
        }
    }

    /// The weights, shared.
    pub fn weights(&self) -> &Arc<PatternWeights> {
        &self.weights
    }
}

impl Default for EvalFile {
    fn default() -> Self {
        EvalFile::embedded()
    }
}

impl PartialEq for EvalFile {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && Arc::ptr_eq(&self.weights, &other.weights)
    }
}

impl Eq for EvalFile {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_file_passes_its_checks() {
        assert!(weights_file::parse(EMBEDDED_FILE).is_ok());
        for v in Variant::ALL {
            let Some(file) = embedded_file(v) else {
                continue;
            };
            let parsed = weights_file::parse(file);
            assert_eq!(parsed.map(|w| w.variant), Ok(v), "{v}");
            assert_eq!(embedded_weights_for(v).variant, v);
        }
    }

    #[test]
    fn a_search_takes_the_weights_of_its_variant() {
        let italian = embedded_weights();
        for v in Variant::ALL {
            let chosen = weights_in(&italian, v);
            assert_eq!(chosen.variant, v);
            assert!(std::ptr::eq(chosen, &**embedded_weights_for(v)));
        }
        let russian = PatternWeights::material_only_in(Variant::Russian);
        assert!(std::ptr::eq(
            weights_in(&russian, Variant::Russian),
            &russian
        ));
    }

    #[test]
    fn a_file_for_another_variant_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("damiera-evalvar-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("russian.dmw");
        let russian = PatternWeights::material_only_in(Variant::Russian);
        std::fs::write(&path, weights_file::to_bytes(&russian)).unwrap();
        let loaded = EvalFile::load(path.to_str().unwrap()).unwrap();
        assert_eq!(loaded.check_variant(Variant::Russian), Ok(()));
        let err = loaded.check_variant(Variant::English).unwrap_err();
        assert_eq!(
            err.to_string(),
            "weights file is for Russian draughts (russian), not English checkers (english): \
             train weights on english games"
        );
        assert_eq!(
            EvalFile::embedded().check_variant(Variant::Brazilian),
            Ok(())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn mirrored_positions_score_the_same_in_every_style() {
        // Colours swapped and the board turned: the same position for the side to move.
        let weights = embedded_weights();
        for (a, b) in [
            ("W:W21-32:B1-12", "B:W21-32:B1-12"),
            ("W:W22,23,K5:B9,10", "B:B11,10,K28:W24,23"),
            ("B:W18,19,25,K1:B2,7,K30", "W:B15,14,8,K32:W31,26,K3"),
        ] {
            let (a, b) = (Position::parse(a).unwrap(), Position::parse(b).unwrap());
            for v in Variant::ALL {
                let (a, b) = (a.with_variant(v), b.with_variant(v));
                let weights = weights_in(&weights, v);
                for style in [EvalStyle::Pattern, EvalStyle::Hce, EvalStyle::Material] {
                    assert_eq!(
                        evaluate(&a, style, weights),
                        evaluate(&b, style, weights),
                        "{v} {style:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn missing_and_oversized_files_are_refused() {
        assert!(matches!(
            EvalFile::load("/nonexistent/weights.dmw"),
            Err(WeightsError::Io(_))
        ));
        // A device that never ends is read only up to one byte past a weights file.
        if cfg!(unix) {
            assert!(matches!(
                EvalFile::load("/dev/zero"),
                Err(WeightsError::Magic)
            ));
        }
        let dir = std::env::temp_dir().join(format!("damiera-evalfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let long = dir.join("long.dmw");
        let mut bytes = weights_file::to_bytes(&PatternWeights::material_only());
        bytes.extend_from_slice(&[0; 4096]);
        std::fs::write(&long, &bytes).unwrap();
        let err = EvalFile::load(long.to_str().unwrap()).unwrap_err();
        assert_eq!(
            err,
            WeightsError::Size {
                expected: weights_file::FILE_LEN,
                found: weights_file::FILE_LEN + 1
            }
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn loaded_weights_are_shared_and_freed_with_their_last_owner() {
        let dir = std::env::temp_dir().join(format!("damiera-evalshare-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.dmw");
        std::fs::write(
            &path,
            weights_file::to_bytes(&PatternWeights::material_only()),
        )
        .unwrap();
        let loaded = EvalFile::load(path.to_str().unwrap()).unwrap();
        assert_eq!(loaded.name(), path.to_str().unwrap());
        assert_eq!(**loaded.weights(), PatternWeights::material_only());
        let copy = loaded.clone();
        assert_eq!(copy, loaded);
        assert_ne!(EvalFile::load(path.to_str().unwrap()).unwrap(), loaded);
        let weak = Arc::downgrade(loaded.weights());
        drop((loaded, copy));
        assert!(weak.upgrade().is_none(), "freed with the last owner");
        assert_eq!(EvalFile::load("embedded").unwrap(), EvalFile::embedded());
        assert_eq!(EvalFile::embedded().name(), "embedded");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn brazilians_and_pools_networks_are_russians_relabelled() {
        let Some(russian) = embedded_network(Variant::Russian) else {
            panic!("Russian has a network");
        };
        for variant in [Variant::Brazilian, Variant::Pool] {
            let Some(copy) = embedded_network(variant) else {
                panic!("{variant} has a network");
            };
            assert_eq!(
                copy[..12],
                russian[..12],
                "{variant}: magic and format version"
            );
            assert_eq!(copy[24..], russian[24..], "{variant}: the same integers");
            let game_type = variant.rules().game_type;
            assert_eq!(copy[20..24], game_type.to_le_bytes(), "{variant}");
        }
    }

    #[test]
    fn games_with_a_built_in_network_evaluate_with_it_and_with_patterns_on_request() {
        let with_network = [
            (Variant::Italian, "B:W18,22,25,K30:B3,9,12"),
            (Variant::English, "B:W18,22,25,K30:B3,9,12"),
            (Variant::Russian, "B:Wc3,e3,g3,Kh2:Ba7,c7,e7"),
            (Variant::Brazilian, "B:Wc3,e3,g3,Kh2:Ba7,c7,e7"),
            (Variant::Pool, "B:W18,22,25,K30:B3,9,12"),
        ];
        for variant in Variant::ALL {
            let weights = embedded_weights_for(variant);
            assert_eq!(weights.variant, variant);
            let net = weights.network.as_deref();
            let has_network = with_network.iter().any(|(game, _)| *game == variant);
            assert_eq!(net.is_some(), has_network, "{variant}");
            assert!(net.is_none_or(|n| n.variant == variant));
        }
        for (variant, fen) in with_network {
            let weights = embedded_weights_for(variant);
            let Some(net) = weights.network.as_deref() else {
                panic!("{variant} has a network");
            };
            let pos = Position::parse_in(variant, fen).unwrap();
            let network = evaluate(&pos, EvalStyle::Pattern, weights);
            assert_eq!(network, net.evaluate(&pos));
            let patterns = evaluate(&pos, EvalStyle::Patterns, weights);
            assert_eq!(patterns, -pattern::evaluate_white(&pos, weights));
            assert_ne!(network, patterns, "{variant}");
        }
    }
}
