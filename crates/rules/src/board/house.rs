//! Damka's house rules: options players agree before a game, carried by the
//! [`Position`](super::Position) so that the move generator, the search and the game room
//! all read them (docs/variants.md, "House rules").

use std::fmt;
use std::str::FromStr;

use super::variant::Variant;

/// One house rule of Damka.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum HouseRule {
    /// Captures are optional: quiet moves are legal beside them.
    NoCompulsoryCapture,
    /// A piece that could have captured and did not is removed (captures optional).
    Huffing,
    /// A capture chain may stop at any landing.
    StopChain,
    /// A side's only man may also step one square backward.
    LastManBackward,
    /// Men never capture backward, not even after a chain's first jump.
    MenForwardOnly,
    /// An unfinished game is decided by counting pieces.
    CountPieces,
}

impl HouseRule {
    /// Every house rule, in the order of their bits.
    pub const ALL: [HouseRule; 6] = [
        HouseRule::NoCompulsoryCapture,
        HouseRule::Huffing,
        HouseRule::StopChain,
        HouseRule::LastManBackward,
        HouseRule::MenForwardOnly,
        HouseRule::CountPieces,
    ];

    /// The option's name: the CLI's `--house-rule`, the Hub's `house-rules`, PDN's tag.
    pub const fn name(self) -> &'static str {
        match self {
            HouseRule::NoCompulsoryCapture => "no-compulsory-capture",
            HouseRule::Huffing => "huffing",
            HouseRule::StopChain => "stop-chain",
            HouseRule::LastManBackward => "last-man-backward",
            HouseRule::MenForwardOnly => "men-forward-only",
            HouseRule::CountPieces => "count-pieces",
        }
    }

    /// Its bit in a [`HouseRules`] set.
    const fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The names for messages: `no-compulsory-capture, huffing, ...`.
    pub fn names_listed() -> String {
        HouseRule::ALL.map(HouseRule::name).join(", ")
    }
}

impl fmt::Display for HouseRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HouseRule {
    type Err = String;

    /// A rule by its name; the error names the bad name and lists the valid ones.
    fn from_str(text: &str) -> Result<HouseRule, String> {
        let name = text.trim();
        HouseRule::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "unknown house rule {name:?}: the house rules are {}",
                    HouseRule::names_listed()
                )
            })
    }
}

/// A set of house rules; empty for every game but Damka.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct HouseRules(u8);

impl HouseRules {
    /// No house rule: the game's own rules.
    pub const NONE: HouseRules = HouseRules(0);

    /// The set holding `rules`.
    pub fn of(rules: &[HouseRule]) -> HouseRules {
        rules.iter().fold(HouseRules::NONE, |set, &r| set.with(r))
    }

    /// This set with `rule` added.
    pub const fn with(self, rule: HouseRule) -> HouseRules {
        HouseRules(self.0 | rule.bit())
    }

    /// Whether `rule` is in the set.
    #[inline(always)]
    pub const fn contains(self, rule: HouseRule) -> bool {
        self.0 & rule.bit() != 0
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set's bits (for hashing).
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether captures may be declined (no compulsory capture, or huffing).
    pub const fn captures_optional(self) -> bool {
        self.contains(HouseRule::NoCompulsoryCapture) || self.contains(HouseRule::Huffing)
    }

    /// Whether declining a capture costs nothing (no compulsory capture, no huffing): a
    /// search may then stand pat where a capture is possible.
    #[inline(always)]
    pub const fn may_stand_pat(self) -> bool {
        self.contains(HouseRule::NoCompulsoryCapture) && !self.contains(HouseRule::Huffing)
    }

    /// Whether a rule that changes the moves is in the set (all but counting pieces).
    pub const fn changes_moves(self) -> bool {
        self.0 & !HouseRule::CountPieces.bit() != 0
    }

    /// The rules in the set, in the order of [`HouseRule::ALL`].
    pub fn iter(self) -> impl Iterator<Item = HouseRule> {
        HouseRule::ALL
            .into_iter()
            .filter(move |&r| self.contains(r))
    }

    /// Parses a comma-separated list of names (empty or `none`: no rule).
    pub fn parse(text: &str) -> Result<HouseRules, String> {
        let text = text.trim();
        if text.is_empty() || text.eq_ignore_ascii_case("none") {
            return Ok(HouseRules::NONE);
        }
        text.split(',')
            .try_fold(HouseRules::NONE, |set, name| Ok(set.with(name.parse()?)))
    }

    /// Refuses a non-empty set for a game other than Damka, in one line.
    pub fn check_variant(self, variant: Variant) -> Result<(), String> {
        if self.is_empty() || variant == Variant::Damka {
            Ok(())
        } else {
            Err(format!(
                "house rules are options of damka only, not of {}",
                variant.name()
            ))
        }
    }
}

impl fmt::Display for HouseRules {
    /// The names joined by commas (empty for none), as the Hub and PDN write them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(HouseRule::name).collect();
        f.write_str(&names.join(","))
    }
}

impl FromStr for HouseRules {
    type Err = String;

    fn from_str(text: &str) -> Result<HouseRules, String> {
        HouseRules::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_bad_names_are_named() {
        let set = HouseRules::parse("huffing, stop-chain").unwrap();
        assert_eq!(set.to_string(), "huffing,stop-chain");
        assert_eq!(HouseRules::parse(&set.to_string()), Ok(set));
        assert_eq!(HouseRules::parse(""), Ok(HouseRules::NONE));
        let err = HouseRules::parse("huffing,blowing").unwrap_err();
        assert!(
            err.contains("\"blowing\"") && err.contains("count-pieces"),
            "{err}"
        );
        assert!(!err.contains('\n'));
        assert!(set.check_variant(Variant::Russian).is_err());
        assert!(set.check_variant(Variant::Damka).is_ok());
    }
}
