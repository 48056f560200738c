//! An evaluation's weights by name: the numbers a game's evaluation gives its features, their
//! defaults compiled in, so that a tuner can fit them (`boardbot tune`) and a file can set them
//! in any mode (`--weights FILE`, protocol `set weights FILE`) before a change is tested.
//!
//! A weights file is text: a line `game NAME` (the game whose evaluation it is for), then one
//! `WEIGHT VALUE` line a weight (a whole number), `#` starting a comment. Weights it does not
//! name keep their values; a name the evaluation does not have is an error.

use anyhow::{anyhow, bail, Result};
use std::fmt::Write;

/// The largest weight, in absolute value (fifty checkers men): an evaluation must not overflow
/// with any weights within it (checkers' largest term, its material lead times `exchange`, is
/// at most 24 x 5000 x 5000 = 6e8).
pub const MAX_WEIGHT: i32 = 5_000;

/// An evaluation's weights: names, values, and which of them a tuner keeps as they are (the
/// evaluation's unit: a checkers man is 100, and the other weights are measured in it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    names: &'static [&'static str],
    values: Vec<i32>,
    fixed: &'static [&'static str],
}

impl Weights {
    /// The weights `names` with their `defaults`; the tuner leaves the `fixed` ones alone.
    pub fn new(names: &'static [&'static str], defaults: &[i32], fixed: &'static [&'static str]) -> Weights {
        assert_eq!(names.len(), defaults.len(), "a default for every weight");
        assert!(fixed.iter().all(|f| names.contains(f)), "fixed weights are weights");
        Weights { names, values: defaults.to_vec(), fixed }
    }

    pub fn names(&self) -> &'static [&'static str] {
        self.names
    }

    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// The values, to change in place (a tuner's steps; keep them within +-[`MAX_WEIGHT`]).
    pub fn values_mut(&mut self) -> &mut [i32] {
        &mut self.values
    }

    /// The index of weight `name`.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| *n == name)
    }

    pub fn get(&self, name: &str) -> Option<i32> {
        self.index(name).map(|i| self.values[i])
    }

    /// Whether weight `i` is one the tuner leaves alone.
    pub fn is_fixed(&self, i: usize) -> bool {
        self.fixed.contains(&self.names[i])
    }

    /// Sets weight `name`.
    pub fn set(&mut self, name: &str, value: i32) -> Result<()> {
        if value.abs() > MAX_WEIGHT {
            bail!("weight '{name}' {value} is beyond +-{MAX_WEIGHT}");
        }
        let i = self.index(name).ok_or_else(|| match self.names.len() {
            ..=100 => anyhow!("unknown weight '{name}' (weights: {})", self.names.join(", ")),
            n => anyhow!("unknown weight '{name}' (the evaluation's {n} weights: see a file `boardbot tune` writes)"),
        })?;
        self.values[i] = value;
        Ok(())
    }

    /// Sets the weights `file` names (the others keep their values); all or nothing.
    pub fn apply(&mut self, file: &WeightFile) -> Result<()> {
        let mut next = self.clone();
        for (name, value) in &file.values {
            next.set(name, *value)?;
        }
        *self = next;
        Ok(())
    }
}

/// A weights file's contents: the game it is for and its `name value` pairs, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightFile {
    pub game: String,
    pub values: Vec<(String, i32)>,
}

impl WeightFile {
    /// Every weight of `weights`, for `game`.
    pub fn of(game: &str, weights: &Weights) -> WeightFile {
        let values = weights.names().iter().zip(weights.values()).map(|(n, v)| (n.to_string(), *v)).collect();
        WeightFile { game: game.to_string(), values }
    }

    /// Reads the text of a weights file (see the module's text).
    pub fn parse(text: &str) -> Result<WeightFile> {
        let mut game = None;
        let mut values: Vec<(String, i32)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let words: Vec<&str> = line.split('#').next().unwrap_or("").split_whitespace().collect();
            let at = |e: &dyn std::fmt::Display| anyhow!("line {}: {e}", i + 1);
            match words.as_slice() {
                [] => {}
                ["game", name] if game.is_none() => game = Some(name.to_ascii_lowercase()),
                ["game", ..] => return Err(at(&"one 'game NAME' line")),
                [name, value] => {
                    let value: i32 = value.parse().map_err(|_| at(&format!("'{value}' is not a whole number")))?;
                    if value.abs() > MAX_WEIGHT {
                        return Err(at(&format!("{value} is beyond +-{MAX_WEIGHT}")));
                    }
                    if values.iter().any(|(n, _)| n == name) {
                        return Err(at(&format!("weight '{name}' given twice")));
                    }
                    values.push((name.to_string(), value));
                }
                _ => return Err(at(&format!("expected 'game NAME' or 'WEIGHT VALUE', got '{}'", words.join(" ")))),
            }
        }
        let game = game.ok_or_else(|| anyhow!("no 'game NAME' line"))?;
        Ok(WeightFile { game, values })
    }

    /// Reads the weights file at `path`.
    pub fn read(path: &std::path::Path) -> Result<WeightFile> {
        let text = std::fs::read_to_string(path).map_err(|e| anyhow!("cannot read {}: {e}", path.display()))?;
        WeightFile::parse(&text).map_err(|e| anyhow!("{}: {e}", path.display()))
    }

    /// The file's text, `comment` (may be empty) first as `#` lines.
    pub fn text(&self, comment: &str) -> String {
        let mut s = String::new();
        for line in comment.lines() {
            let _ = writeln!(s, "# {line}");
        }
        let _ = writeln!(s, "game {}", self.game);
        let width = self.values.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
        for (name, value) in &self.values {
            let _ = writeln!(s, "{name:<width$} {value}");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: &[&str] = &["man", "king", "centre"];

    fn weights() -> Weights {
        Weights::new(NAMES, &[100, 130, 6], &["man"])
    }

    #[test]
    fn a_weights_file_round_trips() {
        let mut w = weights();
        w.set("king", 142).unwrap();
        w.set("centre", -3).unwrap();
        let file = WeightFile::of("checkers", &w);
        let text = file.text("tuned by a test\nsecond line");
        assert!(
            text.starts_with("# tuned by a test\n# second line\ngame checkers\nman    100\nking   142\n"),
            "{text}"
        );
        let read = WeightFile::parse(&text).unwrap();
        assert_eq!(read, file);
        let mut back = weights();
        back.apply(&read).unwrap();
        assert_eq!(back, w);
        assert!(back.is_fixed(0) && !back.is_fixed(1));
    }

    #[test]
    fn weights_not_named_keep_their_values_and_bad_files_change_nothing() {
        let mut w = weights();
        w.apply(&WeightFile::parse("game checkers\n  king 150 # more\n\n").unwrap()).unwrap();
        assert_eq!(w.values(), [100, 150, 6]);
        let before = w.clone();
        let bad = WeightFile::parse("game checkers\nking 1\nqueen 900\n").unwrap();
        assert!(w.apply(&bad).unwrap_err().to_string().contains("unknown weight 'queen'"));
        assert_eq!(w, before, "all or nothing");
        for (text, error) in [
            ("king 1\n", "no 'game NAME' line"),
            ("game checkers\nking x\n", "line 2: 'x' is not a whole number"),
            ("game checkers\nking 1 2\n", "line 2: expected"),
            ("game checkers\nking 1\nking 2\n", "line 3: weight 'king' given twice"),
            ("game checkers\ngame mnk\n", "line 2: one 'game NAME' line"),
            ("game checkers\nking 5001\n", "line 2: 5001 is beyond"),
        ] {
            let e = WeightFile::parse(text).unwrap_err().to_string();
            assert!(e.contains(error), "{text:?}: {e}");
        }
        assert!(w.set("king", -5_001).is_err());
        assert!(w.set("king", -5_000).is_ok());
    }
}
