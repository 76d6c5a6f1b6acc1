//! Fitting the pattern evaluation to training positions: logistic regression.
//!
//! The model is the evaluation of [`crate::search::eval::pattern`] computed in floating
//! point, in logit units: the predicted result for White is `sigmoid(y)`. The target is
//! the game result, optionally blended with the search score (`lambda` = weight of the
//! result). The loss is the cross-entropy, minimised by Adam over mini-batches with an
//! L2 penalty on the pattern weights. Positions are split into training and validation
//! sets by game. The weights of the epoch with the lowest validation loss are kept and
//! converted to hundredths of a man with the scale `k` that best maps search scores to
//! results, so the new evaluation speaks the same units as the old one.
//!
//! Gradients are summed in 64-bit fixed point, so the result is the same for any number
//! of threads; with the same seed it is bit for bit the same.

use std::time::Instant;

use super::Rng;
use super::data::Sample;
use crate::board::Variant;
use crate::search::eval::hce;
use crate::search::eval::pattern::{
    CONFIGS, FULL_PHASE, Features, PatternWeights, UNIT, WEIGHT_COUNT, WINDOWS, mirror_config,
    offset,
};

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the training set.
    pub epochs: u32,
    /// Weight of the game result in the target; the rest is the search score.
    pub lambda: f64,
    /// Share of games held out for validation.
    pub validation: f64,
    /// Seed for the split and the shuffles.
    pub seed: u64,
    /// Adam step size (logit units).
    pub learning_rate: f64,
    /// Positions per mini-batch.
    pub batch: usize,
    /// L2 penalty on the pattern weights.
    pub l2: f64,
    /// Threads.
    pub threads: usize,
}

/// Progress after one epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// 1-based epoch.
    pub epoch: u32,
    /// Mean cross-entropy on the training set.
    pub train_loss: f64,
    /// Mean cross-entropy on the validation set.
    pub validation_loss: f64,
    /// Seconds spent in this epoch.
    pub seconds: f64,
}

/// The outcome of training.
#[derive(Clone, Debug)]
pub struct Trained {
    /// The weights (best validation epoch).
    pub weights: PatternWeights,
    /// The scale from hundredths of a man to logits.
    pub k: f64,
    /// Positions used for training and for validation.
    pub sizes: (usize, usize),
    /// Best validation loss, and its epoch (0 = the starting weights).
    pub best: (f64, u32),
    /// Validation loss of the starting weights (material only) and of the hand-made
    /// evaluation, for comparison.
    pub reference: (f64, f64),
}

/// One position ready for training.
struct Example {
    f: Features,
    target: f32,
}

/// Fixed-point scale of the summed gradients.
const GRAD_SCALE: f64 = (1u64 << 32) as f64;

/// The one variant of all `samples` (Italian for none); an error if they mix games.
pub fn variant_of(samples: &[Sample]) -> Result<Variant, String> {
    let variant = samples
        .first()
        .map_or(Variant::Italian, |s| s.position.variant());
    match samples.iter().find(|s| s.position.variant() != variant) {
        Some(other) => Err(format!(
            "the data mixes {variant} and {} positions: train each variant on its own games",
            other.position.variant()
        )),
        None => Ok(variant),
    }
}

/// Trains on `samples`, all of one variant, for which the weights are made; `report`
/// gets each epoch. Errors if either set is empty or the samples mix variants.
pub fn train(
    samples: &[Sample],
    cfg: &TrainConfig,
    mut report: impl FnMut(&EpochReport),
) -> Result<Trained, String> {
    let variant = variant_of(samples)?;
    let k = fit_scale(samples);
    let (train_set, val_set) = split(samples, cfg, k);
    if train_set.is_empty() || val_set.is_empty() {
        return Err(format!(
            "need positions for both training and validation (got {} and {}); play more games",
            train_set.len(),
            val_set.len()
        ));
    }
    let mut theta = initial_theta(k, variant);
    let mut adam = Adam::new(theta.len());
    let mut best = (loss(&val_set, &theta, cfg.threads), 0);
    let reference = (best.0, hce_loss(samples, cfg, k, variant));
    let mut best_theta = theta.clone();
    let mut rng = Rng::new(cfg.seed ^ 0x5EED);
    let mut order: Vec<usize> = (0..train_set.len()).collect();
    for epoch in 1..=cfg.epochs {
        let start = Instant::now();
        shuffle(&mut order, &mut rng);
        // Step size decays linearly to a tenth over the run.
        let progress = (epoch - 1) as f64 / cfg.epochs.max(1) as f64;
        let lr = cfg.learning_rate * (1.0 - 0.9 * progress);
        for chunk in order.chunks(cfg.batch.max(1)) {
            let grad = gradient(&train_set, chunk, &theta, cfg.threads);
            adam.step(&mut theta, &grad, lr, cfg.l2);
        }
        let validation_loss = loss(&val_set, &theta, cfg.threads);
        report(&EpochReport {
            epoch,
            train_loss: loss(&train_set, &theta, cfg.threads),
            validation_loss,
            seconds: start.elapsed().as_secs_f64(),
        });
        if validation_loss < best.0 {
            best = (validation_loss, epoch);
            best_theta.clone_from(&theta);
        }
    }
    Ok(Trained {
        weights: export(&best_theta, k).in_variant(variant),
        k,
        sizes: (train_set.len(), val_set.len()),
        best,
        reference,
    })
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The `k` minimising the cross-entropy of `sigmoid(k * score)` against the results
/// (golden-section search), where `score` is the search score in hundredths of a man.
pub fn fit_scale(samples: &[Sample]) -> f64 {
    let step = (samples.len() / 200_000).max(1);
    let subset: Vec<&Sample> = samples.iter().step_by(step).collect();
    let err = |k: f64| -> f64 {
        subset
            .iter()
            .map(|s| {
                cross_entropy(
                    sigmoid(k * s.score.clamp(-3000, 3000) as f64),
                    s.white_result(),
                )
            })
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (0.0005f64, 0.05f64);
    for _ in 0..50 {
        let m1 = lo + (hi - lo) * 0.382;
        let m2 = lo + (hi - lo) * 0.618;
        if err(m1) < err(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    (lo + hi) / 2.0
}

fn cross_entropy(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// Validation loss of the hand-made evaluation, scaled by `k`.
fn hce_loss(samples: &[Sample], cfg: &TrainConfig, k: f64, variant: Variant) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    let weights = hce::weights_for(variant);
    for s in samples.iter().filter(|s| is_validation(s, cfg)) {
        let eval = hce::evaluate_white(&s.position, weights);
        let target =
            cfg.lambda * s.white_result() + (1.0 - cfg.lambda) * sigmoid(k * s.score as f64);
        sum += cross_entropy(sigmoid(k * eval as f64), target);
        n += 1;
    }
    sum / n.max(1) as f64
}

fn is_validation(s: &Sample, cfg: &TrainConfig) -> bool {
    let threshold = (cfg.validation.clamp(0.0, 1.0) * 1_000_000.0) as u64;
    Rng::new(cfg.seed ^ (s.game as u64) << 20).next_u64() % 1_000_000 < threshold
}

/// Splits by game: about `validation` of the games go to the validation set.
fn split(samples: &[Sample], cfg: &TrainConfig, k: f64) -> (Vec<Example>, Vec<Example>) {
    let (mut train_set, mut val_set) = (Vec::new(), Vec::new());
    for s in samples {
        let searched = sigmoid(k * s.score as f64);
        let target = cfg.lambda * s.white_result() + (1.0 - cfg.lambda) * searched;
        let example = Example {
            f: Features::of(&s.position),
            target: target as f32,
        };
        if is_validation(s, cfg) {
            val_set.push(example);
        } else {
            train_set.push(example);
        }
    }
    (train_set, val_set)
}

/// Starting weights (logits): the variant's hand-made material values, everything else
/// zero.
fn initial_theta(k: f64, variant: Variant) -> Vec<f64> {
    let mut theta = vec![0.0; WEIGHT_COUNT];
    let w = hce::weights_for(variant);
    let (man, king) = (w.man as f64 * k, w.king as f64 * k);
    theta[offset::MAN..offset::MAN + 2].copy_from_slice(&[man, man]);
    theta[offset::KING..offset::KING + 2].copy_from_slice(&[king, king]);
    theta
}

/// Each active weight of `f` with its coefficient (the same terms as the evaluation).
fn active(f: &Features, mut visit: impl FnMut(usize, f64)) {
    let o = f.phase as f64 / FULL_PHASE as f64;
    for (n, &config) in f.windows.iter().enumerate() {
        let own = (n * CONFIGS + config as usize) * 2;
        let mirrored = ((WINDOWS - 1 - n) * CONFIGS + MIRROR[config as usize] as usize) * 2;
        visit(own, o);
        visit(own + 1, 1.0 - o);
        visit(mirrored, -o);
        visit(mirrored + 1, -(1.0 - o));
    }
    visit(offset::MAN, f.men as f64 * o);
    visit(offset::MAN + 1, f.men as f64 * (1.0 - o));
    visit(offset::KING, f.kings as f64 * o);
    visit(offset::KING + 1, f.kings as f64 * (1.0 - o));
    for i in 0..32 {
        let sign = ((f.white_kings >> i) & 1) as f64 - ((f.black_kings_mirrored >> i) & 1) as f64;
        if sign != 0.0 {
            visit(offset::KING_SQUARE + i, sign);
        }
    }
    visit(offset::RUNAWAY, f.runaway[0] as f64);
    visit(offset::RUNAWAY + 1, f.runaway[1] as f64);
    visit(offset::TEMPO, f.tempo as f64);
}

static MIRROR: std::sync::LazyLock<Vec<u16>> =
    std::sync::LazyLock::new(|| (0..CONFIGS).map(|c| mirror_config(c) as u16).collect());

fn predict(f: &Features, theta: &[f64]) -> f64 {
    let mut y = 0.0;
    active(f, |i, x| y += theta[i] * x);
    y
}

/// Mean loss over a set, on `threads` threads.
fn loss(set: &[Example], theta: &[f64], threads: usize) -> f64 {
    let per = set.len().div_ceil(threads.max(1)).max(1);
    let sums: Vec<f64> = std::thread::scope(|scope| {
        let handles: Vec<_> = set
            .chunks(per)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|e| cross_entropy(sigmoid(predict(&e.f, theta)), e.target as f64))
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .collect()
    });
    sums.iter().sum::<f64>() / set.len().max(1) as f64
}

/// Mean gradient over the batch `indices`, summed in fixed point.
fn gradient(set: &[Example], indices: &[usize], theta: &[f64], threads: usize) -> Vec<f64> {
    let per = indices.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Vec<i64>> = std::thread::scope(|scope| {
        let handles: Vec<_> = indices
            .chunks(per)
            .map(|part| {
                scope.spawn(move || {
                    let mut g = vec![0i64; theta.len()];
                    for &i in part {
                        let e = &set[i];
                        let d = sigmoid(predict(&e.f, theta)) - e.target as f64;
                        active(&e.f, |j, x| g[j] += (d * x * GRAD_SCALE) as i64);
                    }
                    g
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut total = vec![0i64; theta.len()];
    for part in &parts {
        for (t, g) in total.iter_mut().zip(part) {
            *t += g;
        }
    }
    let n = indices.len().max(1) as f64;
    total.iter().map(|&g| g as f64 / GRAD_SCALE / n).collect()
}

/// Adam with its moment estimates.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    fn step(&mut self, theta: &mut [f64], grad: &[f64], lr: f64, l2: f64) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        self.t += 1;
        let (c1, c2) = (1.0 - B1.powi(self.t), 1.0 - B2.powi(self.t));
        for i in 0..theta.len() {
            let g = if i < offset::MAN {
                grad[i] + l2 * theta[i]
            } else {
                grad[i]
            };
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            theta[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

fn shuffle(order: &mut [usize], rng: &mut Rng) {
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
}

/// Logits to fixed-point hundredths of a man, patterns made antisymmetric.
fn export(theta: &[f64], k: f64) -> PatternWeights {
    let fixed = |logit: f64| (logit / k * UNIT as f64).round().clamp(-32767.0, 32767.0) as i16;
    let mut v: Vec<i16> = theta.iter().map(|&x| fixed(x)).collect();
    for n in 0..WINDOWS {
        for c in 0..CONFIGS {
            let mirrored = ((WINDOWS - 1 - n) * CONFIGS + MIRROR[c] as usize) * 2;
            let own = (n * CONFIGS + c) * 2;
            for phase in 0..2 {
                v[own + phase] = fixed(theta[own + phase] - theta[mirrored + phase]);
            }
        }
    }
    PatternWeights::from_slice(&v).unwrap_or_else(PatternWeights::material_only)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::search::eval::pattern::evaluate_white;

    /// White is a man up in every "win" game; the rest are level draws.
    fn samples() -> Vec<Sample> {
        let up = Position::parse("W:W21,22,23,18:B1,2,3").unwrap();
        let level = Position::parse("B:W21,22,23:B1,2,3").unwrap();
        (0..400)
            .map(|i| Sample {
                position: if i % 2 == 0 { up } else { level },
                game: i,
                score: if i % 2 == 0 { 150 } else { 0 },
                result: if i % 2 == 0 { 2 } else { 1 },
            })
            .collect()
    }

    fn config(threads: usize) -> TrainConfig {
        TrainConfig {
            epochs: 3,
            lambda: 1.0,
            validation: 0.2,
            seed: 1,
            learning_rate: 0.01,
            batch: 64,
            l2: 0.0,
            threads,
        }
    }

    #[test]
    fn training_lowers_the_loss_and_is_deterministic() {
        let mut losses = Vec::new();
        let a = train(&samples(), &config(1), |r| losses.push(r.validation_loss)).unwrap();
        let b = train(&samples(), &config(2), |_| {}).unwrap();
        assert_eq!(a.weights, b.weights);
        assert!(losses[2] < losses[0], "{losses:?}");
        assert!(a.best.1 > 0);
        let up = Position::parse("W:W21,22,23,18:B1,2,3").unwrap();
        assert!(evaluate_white(&up, &a.weights) > 0);
    }

    #[test]
    fn export_matches_the_float_model() {
        let mut theta = initial_theta(0.01, Variant::Italian);
        theta[(2 * CONFIGS + 40) * 2] = 0.3;
        theta[offset::TEMPO] = 0.05;
        let w = export(&theta, 0.01);
        for text in ["W:W21,22,23,18,K5:B1,2,3,K30", "B:W25,26,13:B5,6,7,K32"] {
            let pos = Position::parse(text).unwrap();
            let f = Features::of(&pos);
            let float = predict(&f, &theta) / 0.01;
            assert!(
                (evaluate_white(&pos, &w) as f64 - float).abs() <= 2.0,
                "{text}"
            );
        }
    }

    #[test]
    fn weights_are_made_for_the_variant_of_their_data() {
        let russian: Vec<Sample> = samples()
            .into_iter()
            .map(|s| Sample {
                position: s.position.with_variant(Variant::Russian),
                ..s
            })
            .collect();
        let trained = train(&russian, &config(1), |_| {}).unwrap();
        assert_eq!(trained.weights.variant, Variant::Russian);
        let mut mixed = russian;
        mixed[5].position = mixed[5].position.with_variant(Variant::English);
        let err = train(&mixed, &config(1), |_| {}).unwrap_err();
        assert!(err.contains("mixes russian and english"), "{err}");
    }

    #[test]
    fn empty_sets_are_an_error() {
        assert!(train(&samples()[..1], &config(1), |_| {}).is_err());
    }
}
