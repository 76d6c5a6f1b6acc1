//! Slices of a numbered run, for batch systems: `--shard K/N` does the K-th of N
//! contiguous, deterministic parts of a run of numbered items (self-play games, match
//! game pairs). The slices of a run cover every item exactly once, in order, so a slice
//! that died is re-run alone and its output replaces the lost one.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// Slice `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// Which slice, 1..=count.
    pub index: u64,
    /// How many slices the run is cut into.
    pub count: u64,
}

impl Shard {
    /// The whole run as one slice.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Slice `index` of `count`; `None` unless 1 <= index <= count.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (index >= 1 && index <= count).then_some(Shard { index, count })
    }

    /// The items of this slice out of `total`: `[(K-1)·total/N, K·total/N)`.
    pub fn range(&self, total: u64) -> Range<u64> {
        let cut = |k: u64| (u128::from(k) * u128::from(total) / u128::from(self.count)) as u64;
        cut(self.index - 1)..cut(self.index)
    }

    /// Whether this is the first slice (the one that writes a file's header).
    pub fn is_first(&self) -> bool {
        self.index == 1
    }
}

impl Default for Shard {
    fn default() -> Self {
        Shard::WHOLE
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Parses `K/N` with 1 <= K <= N.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard {text:?}: expected K/N with 1 <= K <= N, e.g. 3/16");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        Shard::new(k, n).ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_cover_every_item_once_in_order() {
        for total in [0u64, 1, 5, 7, 100, 1001] {
            for count in [1u64, 2, 3, 4, 7, 16] {
                let mut next = 0;
                for index in 1..=count {
                    let r = Shard::new(index, count).unwrap().range(total);
                    assert_eq!(r.start, next);
                    assert!(r.end - r.start <= total / count + 1);
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
        assert_eq!(Shard::WHOLE.range(9), 0..9);
        assert_eq!(
            Shard::new(3, 4).unwrap().range(u64::MAX).end,
            u64::MAX / 4 * 3 + 2
        );
    }

    #[test]
    fn parses_k_of_n() {
        assert_eq!(
            "3/16".parse(),
            Ok(Shard {
                index: 3,
                count: 16
            })
        );
        assert_eq!(" 1 / 1 ".parse(), Ok(Shard::WHOLE));
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", "-1/4", "1/4/5", ""] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains("bad shard"), "{bad}: {e}");
        }
        assert_eq!(Shard::new(2, 5).unwrap().to_string(), "2/5");
    }
}
