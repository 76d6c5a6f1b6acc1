//! Statistics for engine-vs-engine matches.
//!
//! Everything is seen from engine A's point of view: a win is a game A won.
//!
//! * [`Score`] holds trinomial (win/draw/loss) counts and gives the score
//!   fraction, an Elo estimate with a 95 % error bar and the likelihood of
//!   superiority (LOS).
//! * [`Pentanomial`] holds the counts of game-pair scores (each opening played
//!   twice with colours reversed), whose variance accounts for the correlation
//!   between the two games of a pair.
//! * [`Sprt`] runs a sequential probability ratio test on logistic Elo with
//!   the generalized likelihood ratio, as fishtest computes it.
//! * [`erf`] / [`erfc`] are implemented here to full `f64` precision.
//!
//! Elo values are logistic Elo: `elo = -400 * log10(1/s - 1)` for a score
//! fraction `s`. A score of exactly 0 or 1 has no finite Elo: [`elo_from_score`]
//! then returns negative or positive infinity, and error bars that reach such a
//! score are infinite too.

use std::fmt;

/// The 97.5 % quantile of the standard normal distribution (two-sided 95 %).
const Z_975: f64 = 1.959_963_984_540_054;

/// Counts that are zero are replaced by this value when computing an LLR, so
/// that the variance never vanishes (OpenBench's regularization).
const LLR_REGULARIZATION: f64 = 1e-3;

/// The result of one game from engine A's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameOutcome {
    /// Engine A won.
    Win,
    /// The game was drawn.
    Draw,
    /// Engine A lost.
    Loss,
}

impl GameOutcome {
    /// The points engine A scored: 1, 0.5 or 0.
    pub fn points(self) -> f64 {
        match self {
            GameOutcome::Win => 1.0,
            GameOutcome::Draw => 0.5,
            GameOutcome::Loss => 0.0,
        }
    }

    /// Half-points engine A scored: 2, 1 or 0.
    fn half_points(self) -> usize {
        match self {
            GameOutcome::Win => 2,
            GameOutcome::Draw => 1,
            GameOutcome::Loss => 0,
        }
    }
}

/// An Elo difference estimate with the half-width of its 95 % confidence
/// interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Estimated Elo difference of engine A over engine B.
    pub elo: f64,
    /// Half-width of the 95 % confidence interval, in Elo.
    pub error: f64,
}

/// Converts a score fraction into a logistic Elo difference:
/// `-400 * log10(1/s - 1)`.
///
/// Returns `f64::NEG_INFINITY` for `s <= 0`, `f64::INFINITY` for `s >= 1`
/// and NaN for NaN.
pub fn elo_from_score(s: f64) -> f64 {
    if s.is_nan() {
        f64::NAN
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Converts a logistic Elo difference into the expected score fraction:
/// `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Sample size, mean and (population) variance of a weighted sample.
#[derive(Clone, Copy, Debug)]
struct Moments {
    n: f64,
    mean: f64,
    var: f64,
}

impl Moments {
    /// Moments of the values `x` occurring `count` times, given as `(x, count)`.
    /// An empty sample has mean 0.5 and variance 0.
    fn from_weighted(values: &[(f64, f64)]) -> Moments {
        let n: f64 = values.iter().map(|&(_, c)| c).sum();
        if n <= 0.0 {
            return Moments {
                n: 0.0,
                mean: 0.5,
                var: 0.0,
            };
        }
        let mean = values.iter().map(|&(x, c)| x * c).sum::<f64>() / n;
        let var = values
            .iter()
            .map(|&(x, c)| c * (x - mean) * (x - mean))
            .sum::<f64>()
            / n;
        Moments { n, mean, var }
    }

    /// Standard error of the mean (0 for an empty sample).
    fn std_error(&self) -> f64 {
        if self.n <= 0.0 {
            0.0
        } else {
            (self.var / self.n).sqrt()
        }
    }

    /// Elo half-width of the 95 % interval, obtained as cutechess-cli and
    /// fastchess do: the normal interval `mean ± 1.96·se` of the score is
    /// mapped to Elo and halved.
    fn elo_error_95(&self) -> f64 {
        let se = self.std_error();
        if se == 0.0 {
            return if self.n <= 0.0 { f64::INFINITY } else { 0.0 };
        }
        let lo = self.mean - Z_975 * se;
        let hi = self.mean + Z_975 * se;
        if lo <= 0.0 || hi >= 1.0 {
            return f64::INFINITY;
        }
        (elo_from_score(hi) - elo_from_score(lo)) / 2.0
    }

    /// Probability that the true mean exceeds 0.5 under the normal
    /// approximation.
    fn los_normal(&self) -> f64 {
        let se = self.std_error();
        let d = self.mean - 0.5;
        if se == 0.0 {
            return if d > 0.0 {
                1.0
            } else if d < 0.0 {
                0.0
            } else {
                0.5
            };
        }
        0.5 * (1.0 + erf(d / (se * std::f64::consts::SQRT_2)))
    }

    fn estimate(&self) -> EloEstimate {
        EloEstimate {
            elo: elo_from_score(self.mean),
            error: self.elo_error_95(),
        }
    }
}

/// Win/draw/loss counts of a match, from engine A's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// Games won by engine A.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games lost by engine A.
    pub losses: u64,
}

impl Score {
    /// A score with the given counts.
    pub const fn new(wins: u64, draws: u64, losses: u64) -> Score {
        Score {
            wins,
            draws,
            losses,
        }
    }

    /// Adds one game.
    pub fn record(&mut self, outcome: GameOutcome) {
        match outcome {
            GameOutcome::Win => self.wins += 1,
            GameOutcome::Draw => self.draws += 1,
            GameOutcome::Loss => self.losses += 1,
        }
    }

    /// Number of games played.
    pub const fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction `(W + D/2) / N`; 0.5 when no game was played.
    pub fn score(&self) -> f64 {
        self.moments().mean
    }

    /// Per-game variance of the score (trinomial, population variance).
    pub fn variance(&self) -> f64 {
        self.moments().var
    }

    /// Elo difference estimate (see [`elo_from_score`] for the limits).
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// Half-width of the 95 % Elo confidence interval from the trinomial
    /// variance. Infinite with no games or when the interval reaches a score
    /// of 0 or 1; 0 when the variance is 0 (e.g. all draws).
    pub fn elo_error_95(&self) -> f64 {
        self.moments().elo_error_95()
    }

    /// Elo estimate and error bar together.
    pub fn estimate(&self) -> EloEstimate {
        self.moments().estimate()
    }

    /// Likelihood of superiority: `0.5 * (1 + erf((W - L) / sqrt(2 (W + L))))`,
    /// 0.5 when there are no decisive games.
    pub fn los(&self) -> f64 {
        let decisive = self.wins + self.losses;
        if decisive == 0 {
            return 0.5;
        }
        let diff = self.wins as f64 - self.losses as f64;
        0.5 * (1.0 + erf(diff / (2.0 * decisive as f64).sqrt()))
    }

    fn weighted(&self, floor: f64) -> [(f64, f64); 3] {
        let c = |n: u64| (n as f64).max(floor);
        [
            (1.0, c(self.wins)),
            (0.5, c(self.draws)),
            (0.0, c(self.losses)),
        ]
    }

    fn moments(&self) -> Moments {
        Moments::from_weighted(&self.weighted(0.0))
    }
}

/// Counts of game-pair scores (the same opening played twice with colours
/// reversed), from engine A's point of view.
///
/// `counts[i]` is the number of pairs in which engine A scored `i / 2`
/// points: index 0 → 0, 1 → 0.5, 2 → 1, 3 → 1.5, 4 → 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial {
    /// Pair counts indexed by half-points scored in the pair.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// A pentanomial with the given counts (see the type documentation).
    pub const fn new(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    /// Adds one game pair.
    pub fn record_pair(&mut self, first: GameOutcome, second: GameOutcome) {
        self.counts[first.half_points() + second.half_points()] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Score fraction per game (pair score / 2, averaged); 0.5 with no pairs.
    pub fn score(&self) -> f64 {
        self.moments().mean
    }

    /// Per-pair variance of the normalized pair score (pair points / 2).
    pub fn variance(&self) -> f64 {
        self.moments().var
    }

    /// Elo difference estimate (see [`elo_from_score`] for the limits).
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// Half-width of the 95 % Elo confidence interval from the pentanomial
    /// variance; same conventions as [`Score::elo_error_95`].
    pub fn elo_error_95(&self) -> f64 {
        self.moments().elo_error_95()
    }

    /// Elo estimate and error bar together.
    pub fn estimate(&self) -> EloEstimate {
        self.moments().estimate()
    }

    /// Likelihood of superiority under the normal approximation of the pair
    /// scores: `0.5 * (1 + erf((mean - 0.5) / (sqrt(2) * se)))`.
    pub fn los(&self) -> f64 {
        self.moments().los_normal()
    }

    fn weighted(&self, floor: f64) -> [(f64, f64); 5] {
        let mut out = [(0.0, 0.0); 5];
        for (i, (slot, &n)) in out.iter_mut().zip(&self.counts).enumerate() {
            *slot = (i as f64 / 4.0, (n as f64).max(floor));
        }
        out
    }

    fn moments(&self) -> Moments {
        Moments::from_weighted(&self.weighted(0.0))
    }
}

/// Outcome of an SPRT check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtStatus {
    /// Neither bound has been reached yet.
    Continue,
    /// The LLR reached the lower bound: accept H0 (`elo = elo0`).
    AcceptH0,
    /// The LLR reached the upper bound: accept H1 (`elo = elo1`).
    AcceptH1,
}

/// Invalid SPRT parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtParamError(String);

impl fmt::Display for SprtParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid SPRT parameters: {}", self.0)
    }
}

impl std::error::Error for SprtParamError {}

/// A sequential probability ratio test of H0 `elo = elo0` against H1
/// `elo = elo1` (logistic Elo), with type I error `alpha` and type II error
/// `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative hypothesis.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// A test with validated parameters: finite `elo0 < elo1`, `alpha` and
    /// `beta` in (0, 1) with `alpha + beta < 1`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtParamError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtParamError(format!(
                "need finite elo0 < elo1, got {elo0}, {elo1}"
            )));
        }
        let unit = |p: f64| p > 0.0 && p < 1.0;
        if !(unit(alpha) && unit(beta) && alpha + beta < 1.0) {
            return Err(SprtParamError(format!(
                "need alpha, beta in (0, 1) with alpha + beta < 1, got {alpha}, {beta}"
            )));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Lower LLR bound `ln(beta / (1 - alpha))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper LLR bound `ln((1 - beta) / alpha)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// Log-likelihood ratio of a trinomial result (per-game samples).
    ///
    /// The generalized likelihood ratio (as fishtest computes it): for each hypothesis
    /// score `s = 1 / (1 + 10^(-elo/400))`, the outcome frequencies that fit the results
    /// best among those whose mean is `s`; the LLR is the difference of the two
    /// log-likelihoods. Zero counts are replaced by 1e-3 so that every outcome stays
    /// possible; with no games the LLR is 0. Unlike the normal approximation
    /// `N (s1 - s0) (2 mean - s0 - s1) / (2 var)`, which it matches on large samples, it
    /// stays moderate when nearly every result is the same (e.g. a run of drawn pairs,
    /// whose variance is almost 0).
    pub fn llr_trinomial(&self, score: &Score) -> f64 {
        if score.games() == 0 {
            return 0.0;
        }
        self.llr(&score.weighted(LLR_REGULARIZATION))
    }

    /// Log-likelihood ratio of a pentanomial result (per-pair samples of the
    /// normalized pair score), same method and conventions as
    /// [`Sprt::llr_trinomial`].
    pub fn llr_pentanomial(&self, penta: &Pentanomial) -> f64 {
        if penta.pairs() == 0 {
            return 0.0;
        }
        self.llr(&penta.weighted(LLR_REGULARIZATION))
    }

    fn llr(&self, outcomes: &[(f64, f64)]) -> f64 {
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        let log_ratio = |s: f64| {
            let lambda = mle_multiplier(outcomes, s);
            outcomes
                .iter()
                .map(|&(x, c)| c * (1.0 + lambda * (x - s)).ln())
                .sum::<f64>()
        };
        // Each hypothesis' log-likelihood is Σ c ln(c/n) − log_ratio(s).
        log_ratio(s0) - log_ratio(s1)
    }

    /// Decision for the given LLR: H1 at or above the upper bound, H0 at or
    /// below the lower bound, otherwise continue.
    pub fn status(&self, llr: f64) -> SprtStatus {
        if llr >= self.upper_bound() {
            SprtStatus::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

/// The Lagrange multiplier λ of the most likely outcome frequencies with mean `s`:
/// those are `p / (1 + λ (x - s))` for the observed frequencies `p` of the values `x`,
/// and λ is the root of `Σ p (x - s) / (1 + λ (x - s)) = 0`, a decreasing function of
/// λ on the interval where every `1 + λ (x - s)` is positive (found by bisection).
/// 0 when `s` is not strictly inside the values' range.
fn mle_multiplier(outcomes: &[(f64, f64)], s: f64) -> f64 {
    let above = outcomes
        .iter()
        .map(|&(x, _)| x - s)
        .fold(f64::MIN, f64::max);
    let below = outcomes
        .iter()
        .map(|&(x, _)| x - s)
        .fold(f64::MAX, f64::min);
    if above <= 0.0 || below >= 0.0 {
        return 0.0;
    }
    let slope = |lambda: f64| {
        outcomes
            .iter()
            .map(|&(x, c)| c * (x - s) / (1.0 + lambda * (x - s)))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (-1.0 / above, -1.0 / below);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if slope(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// One-line match summary, e.g.
/// `Elo: 35.2 +/- 20.1, LOS: 99.9 %, LLR: 1.23 (-2.94, 2.94)`.
///
/// `los` is a probability in [0, 1] and is printed as a percentage. The LLR
/// part is present only when `sprt` gives the test and its current LLR.
pub fn format_summary(estimate: EloEstimate, los: f64, sprt: Option<(&Sprt, f64)>) -> String {
    let mut out = format!(
        "Elo: {:.1} +/- {:.1}, LOS: {:.1} %",
        estimate.elo,
        estimate.error,
        los * 100.0
    );
    if let Some((test, llr)) = sprt {
        out.push_str(&format!(
            ", LLR: {:.2} ({:.2}, {:.2})",
            llr,
            test.lower_bound(),
            test.upper_bound()
        ));
    }
    out
}

/// The error function, accurate to about 1e-15 relative over the whole line.
///
/// Uses the everywhere-positive series
/// `erf(x) = 2/sqrt(pi) · exp(-x²) · Σ 2ⁿ x^(2n+1) / (2n+1)!!` for `|x| < 3`
/// and the continued fraction of [`erfc`] beyond.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        f64::NAN
    } else if x < 0.0 {
        -erf(-x)
    } else if x < 3.0 {
        erf_series(x)
    } else if x < 6.0 {
        1.0 - erfc_continued_fraction(x)
    } else {
        1.0
    }
}

/// The complementary error function `1 - erf(x)`, computed without
/// cancellation for large positive `x`.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        f64::NAN
    } else if x < 0.0 {
        2.0 - erfc(-x)
    } else if x < 3.0 {
        1.0 - erf_series(x)
    } else if x < 27.0 {
        erfc_continued_fraction(x)
    } else {
        0.0
    }
}

/// `2/sqrt(pi) · exp(-x²) · Σ_{n≥0} (2x²)ⁿ x / (1·3·…·(2n+1))` for `0 <= x`.
fn erf_series(x: f64) -> f64 {
    let two_x2 = 2.0 * x * x;
    let mut term = x;
    let mut sum = x;
    for n in 1..200 {
        term *= two_x2 / (2 * n + 1) as f64;
        sum += term;
        if term <= sum * 1e-17 {
            break;
        }
    }
    std::f64::consts::FRAC_2_SQRT_PI * (-x * x).exp() * sum
}

/// `erfc(x) = exp(-x²)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + …))))`,
/// evaluated with the modified Lentz algorithm; for `x >= 3`.
fn erfc_continued_fraction(x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut f = x;
    let mut c = f;
    let mut d = 0.0;
    for k in 1..300 {
        let a = k as f64 / 2.0;
        d = x + a * d;
        if d.abs() < TINY {
            d = TINY;
        }
        d = 1.0 / d;
        c = x + a / c;
        if c.abs() < TINY {
            c = TINY;
        }
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / (std::f64::consts::PI.sqrt() * f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts `|actual - expected| <= tol * max(1, |expected|)`.
    fn close(actual: f64, expected: f64, tol: f64) {
        let scale = expected.abs().max(1.0);
        assert!(
            (actual - expected).abs() <= tol * scale,
            "actual {actual}, expected {expected}"
        );
    }

    #[test]
    fn erf_matches_reference_values() {
        // Reference values of erf / erfc (tabulated, 16 significant digits).
        close(erf(0.0), 0.0, 1e-15);
        close(erf(0.5), 0.520_499_877_813_046_5, 1e-14);
        close(erf(1.0), 0.842_700_792_949_714_9, 1e-14);
        close(erf(2.0), 0.995_322_265_018_952_7, 1e-14);
        close(erf(3.0), 0.999_977_909_503_001_4, 1e-14);
        close(erf(4.0), 0.999_999_984_582_742_1, 1e-14);
        close(erf(-0.7), -0.677_801_193_837_418_4, 1e-14);
        close(erf(10.0), 1.0, 1e-15);
        close(erf(f64::INFINITY), 1.0, 0.0);
        close(erf(f64::NEG_INFINITY), -1.0, 0.0);
        assert!(erf(f64::NAN).is_nan());
        // erfc is relatively accurate in the tail.
        let rel = |a: f64, e: f64| (a - e).abs() / e;
        assert!(rel(erfc(3.0), 2.209_049_699_858_543_8e-5) < 1e-12);
        assert!(rel(erfc(5.0), 1.537_459_794_428_035e-12) < 1e-12);
        assert!(rel(erfc(1.0), 0.157_299_207_050_285_13) < 1e-13);
        close(erfc(-0.7), 1.677_801_193_837_418_4, 1e-14);
        close(erfc(30.0), 0.0, 0.0);
    }

    #[test]
    fn erf_is_continuous_at_switch_points() {
        for x in [3.0f64, 6.0] {
            close(erf(x - 1e-12), erf(x + 1e-12), 1e-12);
        }
    }

    #[test]
    fn elo_conversions() {
        close(elo_from_score(0.5), 0.0, 1e-12);
        // s = 0.75: 1/s - 1 = 1/3, -400 * log10(1/3) = 400 * 0.47712125472 = 190.848501888
        close(elo_from_score(0.75), 190.848_501_887_864_98, 1e-9);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12);
    }

    #[test]
    fn trinomial_w60_d20_l20() {
        let s = Score::new(60, 20, 20);
        assert_eq!(s.games(), 100);
        // (60 + 20/2) / 100 = 0.7
        close(s.score(), 0.7, 1e-12);
        // -400 * log10(1/0.7 - 1) = -400 * log10(3/7) = 400 * 0.36797678529 = 147.190714118
        close(s.elo(), 147.190_714_117_837_76, 1e-9);
        // var = 0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.054 + 0.008 + 0.098 = 0.16
        close(s.variance(), 0.16, 1e-12);
        // se = sqrt(0.16 / 100) = 0.04; interval 0.7 ± 1.959964·0.04 = [0.621601, 0.778399]
        // (elo(0.778399) - elo(0.621601)) / 2 = (218.2518 - 86.2250) / 2 = 66.01338
        close(s.elo_error_95(), 66.013_381_220_385_28, 1e-6);
        // LOS: 0.5·(1 + erf(40 / sqrt(160))) = 0.5·(1 + erf(3.16228)) = 0.99999613
        close(s.los(), 0.999_996_127_891_784_5, 1e-9);
    }

    #[test]
    fn los_w10_l5() {
        // 0.5·(1 + erf(5 / sqrt(30))) = 0.5·(1 + erf(0.912871)) = 0.5·1.803294 = 0.901647
        close(Score::new(10, 7, 5).los(), 0.901_647_198_770_526_6, 1e-9);
        close(Score::new(0, 3, 0).los(), 0.5, 0.0);
        close(
            Score::new(5, 0, 10).los(),
            1.0 - 0.901_647_198_770_526_6,
            1e-9,
        );
    }

    #[test]
    fn degenerate_scores() {
        let none = Score::default();
        close(none.score(), 0.5, 0.0);
        close(none.elo(), 0.0, 0.0);
        assert_eq!(none.elo_error_95(), f64::INFINITY);
        let draws = Score::new(0, 10, 0);
        close(draws.elo(), 0.0, 0.0);
        close(draws.elo_error_95(), 0.0, 0.0);
        let all_wins = Score::new(4, 0, 0);
        assert_eq!(all_wins.elo(), f64::INFINITY);
        let near = Score::new(9, 1, 0);
        assert_eq!(near.elo_error_95(), f64::INFINITY);
    }

    #[test]
    fn record_outcomes() {
        let mut s = Score::default();
        for o in [GameOutcome::Win, GameOutcome::Draw, GameOutcome::Win] {
            s.record(o);
        }
        assert_eq!(s, Score::new(2, 1, 0));
        let mut p = Pentanomial::default();
        p.record_pair(GameOutcome::Win, GameOutcome::Loss);
        p.record_pair(GameOutcome::Draw, GameOutcome::Draw);
        p.record_pair(GameOutcome::Win, GameOutcome::Draw);
        p.record_pair(GameOutcome::Loss, GameOutcome::Loss);
        assert_eq!(p.counts, [1, 0, 2, 1, 0]);
    }

    #[test]
    fn pentanomial_statistics() {
        let p = Pentanomial::new([2, 10, 20, 15, 3]);
        assert_eq!(p.pairs(), 50);
        // mean = (0·2 + .25·10 + .5·20 + .75·15 + 1·3) / 50 = 26.75 / 50 = 0.535
        close(p.score(), 0.535, 1e-12);
        // var = (2·.535² + 10·.285² + 20·.035² + 15·.215² + 3·.465²) / 50
        //     = (0.57245 + 0.81225 + 0.0245 + 0.693375 + 0.648675) / 50 = 0.055025
        close(p.variance(), 0.055_025, 1e-12);
        // elo(0.535) = -400·log10(0.465/0.535) = 24.360332
        close(p.elo(), 24.360_331_652_509_81, 1e-9);
        // se = sqrt(0.055025/50) = 0.0331738; interval [0.469981, 0.600019]
        // (elo(0.600019) - elo(0.469981)) / 2 = (70.4506 - (-20.8848)) / 2 = 45.66766
        close(p.elo_error_95(), 45.667_656_612_577_8, 1e-6);
        // LOS = 0.5·(1 + erf(0.035 / (sqrt 2 · 0.0331738))) = 0.854299
        close(p.los(), 0.854_298_759_484_267_3, 1e-9);
    }

    #[test]
    fn sprt_bounds() {
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("valid parameters");
        // ln(0.05 / 0.95) = -2.944438979; ln(0.95 / 0.05) = ln 19 = 2.944438979
        close(t.lower_bound(), -2.944_438_979_166_440_3, 1e-12);
        close(t.upper_bound(), 2.944_438_979_166_440_3, 1e-12);
        assert_eq!(t.status(3.0), SprtStatus::AcceptH1);
        assert_eq!(t.status(-3.0), SprtStatus::AcceptH0);
        assert_eq!(t.status(0.0), SprtStatus::Continue);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5).is_err());
        assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05).is_err());
    }

    /// Expected LLRs come from a second method (`scripts/llr_check.py`: the dual
    /// maximized by golden-section search instead of a root of its slope), to 1e-9.
    #[test]
    fn sprt_llr_trinomial() {
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("valid parameters");
        // W=30 D=40 L=20: the normal approximation gives 0.4611206.
        close(
            t.llr_trinomial(&Score::new(30, 40, 20)),
            0.451_909_666_704_710_67,
            1e-9,
        );
        close(t.llr_trinomial(&Score::default()), 0.0, 0.0);
        // All wins: regularization keeps the LLR finite; 50 ln(s1/s0) = 1.41841.
        close(
            t.llr_trinomial(&Score::new(50, 0, 0)),
            1.418_407_173_013_051_3,
            1e-9,
        );
        assert!(t.llr_trinomial(&Score::new(500, 0, 0)) > t.upper_bound());
    }

    #[test]
    fn sprt_llr_pentanomial() {
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("valid parameters");
        // N=50, mean 0.535, var 0.055025: the normal approximation gives 0.3635220.
        close(
            t.llr_pentanomial(&Pentanomial::new([2, 10, 20, 15, 3])),
            0.354_265_057_019_190_2,
            1e-9,
        );
        close(t.llr_pentanomial(&Pentanomial::default()), 0.0, 0.0);
    }

    /// Eleven drawn pairs: the normal approximation, whose variance is then almost 0,
    /// gave −45 and accepted H0 after 22 games of a real 0.1 s match; the likelihood
    /// ratio is about −0.48 and the test goes on.
    #[test]
    fn sprt_goes_on_after_a_few_drawn_pairs() {
        let t = Sprt::new(0.0, 15.0, 0.05, 0.05).expect("valid parameters");
        let llr = t.llr_pentanomial(&Pentanomial::new([0, 0, 11, 0, 0]));
        close(llr, -0.478_532_004_514_051_3, 1e-9);
        assert_eq!(t.status(llr), SprtStatus::Continue);
        // Enough drawn pairs still accept H0.
        let many = t.llr_pentanomial(&Pentanomial::new([0, 0, 200, 0, 0]));
        assert_eq!(t.status(many), SprtStatus::AcceptH0);
    }

    /// On a large, balanced sample the likelihood ratio and its normal approximation
    /// agree to within a few percent.
    #[test]
    fn sprt_llr_matches_the_normal_approximation_on_large_samples() {
        let t = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid parameters");
        let penta = Pentanomial::new([40, 300, 900, 380, 60]);
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(5.0));
        let m = penta.moments();
        let normal = m.n * (s1 - s0) * (2.0 * m.mean - s0 - s1) / (2.0 * m.var);
        let exact = t.llr_pentanomial(&penta);
        assert!(normal > 1.0, "{normal}");
        assert!((exact - normal).abs() < 0.03 * normal, "{exact} {normal}");
    }

    #[test]
    fn summary_format() {
        let t = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid parameters");
        let est = EloEstimate {
            elo: 35.24,
            error: 20.06,
        };
        assert_eq!(
            format_summary(est, 0.9994, Some((&t, 1.234))),
            "Elo: 35.2 +/- 20.1, LOS: 99.9 %, LLR: 1.23 (-2.94, 2.94)"
        );
        assert_eq!(
            format_summary(est, 0.5, None),
            "Elo: 35.2 +/- 20.1, LOS: 50.0 %"
        );
    }
}
