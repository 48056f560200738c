//! `--shard I/N`: one N-th of a match or of a self-play run, so that many machines can play it.
//!
//! A shard plays exactly the games the whole run would, with the same numbers, seeds, colours
//! and openings (the schedule is a function of the settings alone), and only those: game pairs
//! (the two games of a round) go round the shards in turn, pair p (from 0) to shard p mod N + 1,
//! so a pair is never split and every shard advances through the match at the same pace.
//! Self-play games, which are not paired, go round the same way (game g, from 1, to shard
//! (g - 1) mod N + 1). `boardbot merge` puts the shards' files back together.

use anyhow::{anyhow, Result};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Shard `index + 1` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// From 0.
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole run: one shard of one.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// Whether pair (or unpaired game) `unit`, from 0, is this shard's.
    pub fn holds(&self, unit: usize) -> bool {
        unit % self.count == self.index
    }
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

impl FromStr for Shard {
    type Err = anyhow::Error;

    /// `I/N`, 1 <= I <= N.
    fn from_str(text: &str) -> Result<Shard> {
        let bad = || anyhow!("'{text}' is not a shard I/N (1 <= I <= N, e.g. 2/8)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if i == 0 || i > n {
            return Err(bad());
        }
        Ok(Shard { index: i - 1, count: n })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_deal_the_units_round() {
        let s: Shard = "2/3".parse().unwrap();
        assert_eq!(s, Shard { index: 1, count: 3 });
        assert_eq!(s.to_string(), "2/3");
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let units = |s: Shard| (0..8).filter(|u| s.holds(*u)).collect::<Vec<_>>();
        assert_eq!(units("1/3".parse().unwrap()), [0, 3, 6]);
        assert_eq!(units(s), [1, 4, 7]);
        assert_eq!(units(Shard::WHOLE), (0..8).collect::<Vec<_>>());
        // Every unit in exactly one shard.
        for n in 1..5 {
            for u in 0..20 {
                assert_eq!((0..n).filter(|i| Shard { index: *i, count: n }.holds(u)).count(), 1);
            }
        }
    }
}
