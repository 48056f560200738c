//! The binary self-play file (`boardbot selfplay --format bin`): the text file's `#` header,
//! then the line `# records R` (R: the bytes of a record), then fixed-size records, one a
//! position, each game's consecutive (K = 1..N) and the games in order:
//!
//! ```text
//! bytes 0..4    GAME    u32   the game's number, from 1
//! bytes 4..6    K       u16   this position is the K-th ...
//! bytes 6..8    N       u16   ... of the game's N
//! byte  8       RESULT  i8    the game's result, first player's view: 1 win, 0 draw, -1 loss
//! byte  9       PIECES  u8    the pieces on the board (the phase)
//! byte  10      FLAGS   u8    bit 0: SCORE holds a search's score
//! byte  11      -             zero
//! bytes 12..16  SCORE   i32   the search's score, side to move's view (0 without one)
//! bytes 16..R   POSITION      the game's packed position (`Render::packed`: checkers 13 bytes)
//! ```
//!
//! All numbers little-endian. Everything the text file's line says is here, the position packed
//! instead of written (checkers: 29 bytes a position against about 60).

use anyhow::{anyhow, bail, Result};

/// The bytes before the packed position.
pub const FIXED: usize = 16;
/// The header's last line starts so; the record size follows.
pub const RECORDS_LINE: &str = "# records ";

const HAS_SCORE: u8 = 1;

/// One record of a binary file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BinRecord {
    pub game: u32,
    pub index: u16,
    pub count: u16,
    /// First player's view: 1, 0, -1.
    pub result: i8,
    pub pieces: u8,
    pub score: Option<i32>,
    pub position: Vec<u8>,
}

impl BinRecord {
    /// The first player's score: 1, 1/2 or 0.
    pub fn first_player_score(&self) -> f64 {
        (self.result as f64 + 1.0) / 2.0
    }

    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.game.to_le_bytes());
        out.extend_from_slice(&self.index.to_le_bytes());
        out.extend_from_slice(&self.count.to_le_bytes());
        out.push(self.result as u8);
        out.push(self.pieces);
        out.push(if self.score.is_some() { HAS_SCORE } else { 0 });
        out.push(0);
        out.extend_from_slice(&self.score.unwrap_or(0).to_le_bytes());
        out.extend_from_slice(&self.position);
    }

    /// Reads a record of exactly `bytes` (a whole record).
    pub fn read(bytes: &[u8]) -> Result<BinRecord> {
        if bytes.len() < FIXED {
            bail!("a record of {} bytes (at least {FIXED})", bytes.len());
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let r = BinRecord {
            game: u32_at(0),
            index: u16_at(4),
            count: u16_at(6),
            result: bytes[8] as i8,
            pieces: bytes[9],
            score: (bytes[10] & HAS_SCORE != 0).then(|| u32_at(12) as i32),
            position: bytes[FIXED..].to_vec(),
        };
        if r.game == 0 || r.index == 0 || r.index > r.count {
            bail!("game {} position {}/{}", r.game, r.index, r.count);
        }
        if !(-1..=1).contains(&r.result) || bytes[10] & !HAS_SCORE != 0 || bytes[11] != 0 {
            bail!("game {}: result {} or flags {} out of range", r.game, r.result, bytes[10]);
        }
        Ok(r)
    }
}

/// A binary file split: its text header (the `# records R` line included), the record size,
/// and where the records start.
pub fn split(bytes: &[u8]) -> Result<(String, usize, usize)> {
    let mut at = 0;
    while at < bytes.len() && bytes[at] == b'#' {
        let end =
            bytes[at..].iter().position(|&b| b == b'\n').map(|e| at + e + 1).ok_or_else(|| anyhow!("a cut header"))?;
        let line = std::str::from_utf8(&bytes[at..end - 1]).map_err(|_| anyhow!("a header line not in UTF-8"))?;
        at = end;
        if let Some(size) = line.strip_prefix(RECORDS_LINE) {
            let size: usize = size.parse().map_err(|_| anyhow!("'{line}': not a record size"))?;
            if size < FIXED {
                bail!("'{line}': records of at least {FIXED} bytes");
            }
            let header = String::from_utf8(bytes[..at].to_vec()).expect("checked line by line");
            return Ok((header, size, at));
        }
    }
    bail!("not a binary self-play file (no '{RECORDS_LINE}R' line ending its header)")
}

/// The records of a binary file's bytes after its header (a cut last record is an error).
pub fn records(body: &[u8], size: usize) -> Result<Vec<BinRecord>> {
    if !body.len().is_multiple_of(size) {
        bail!("{} bytes of records is not a whole number of {size}-byte records", body.len());
    }
    body.chunks(size)
        .enumerate()
        .map(|(i, c)| BinRecord::read(c).map_err(|e| anyhow!("record {}: {e}", i + 1)))
        .collect()
}

/// Where the complete games of a binary file's records end: the number of the last complete
/// game and the byte length (from the records' start) of its last record's end. A game's
/// records are consecutive, K = 1..N; what follows the last complete game is not kept.
pub fn complete_games(body: &[u8], size: usize) -> (usize, usize) {
    let (mut last, mut keep) = (0, 0);
    let mut expect: Option<(u32, u16)> = None;
    for (i, chunk) in body.chunks_exact(size).enumerate() {
        let Ok(r) = BinRecord::read(chunk) else { break };
        let continues = match expect {
            Some((g, k)) => r.game == g && r.index == k,
            None => r.game as usize > last && r.index == 1,
        };
        if !continues {
            break;
        }
        if r.index == r.count {
            (last, keep, expect) = (r.game as usize, (i + 1) * size, None);
        } else {
            expect = Some((r.game, r.index + 1));
        }
    }
    (last, keep)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(game: u32, index: u16, count: u16, score: Option<i32>) -> BinRecord {
        BinRecord { game, index, count, result: -1, pieces: 24, score, position: vec![1, 2, 3] }
    }

    #[test]
    fn records_round_trip_and_cut_games_are_found() {
        let size = FIXED + 3;
        let rs = [record(1, 1, 2, Some(-70_000)), record(1, 2, 2, None), record(2, 1, 2, Some(5))];
        let mut body = Vec::new();
        rs.iter().for_each(|r| r.write(&mut body));
        assert_eq!(body.len(), 3 * size);
        assert_eq!(records(&body, size).unwrap(), rs.to_vec());
        assert_eq!(rs[0].first_player_score(), 0.0);
        // Game 2 is cut off after its first record; a record cut part-way ends it too.
        assert_eq!(complete_games(&body, size), (1, 2 * size));
        assert_eq!(complete_games(&body[..2 * size - 1], size), (0, 0));
        assert!(records(&body[..size + 1], size).is_err());
        let mut bad = body.clone();
        bad[8] = 3; // result 3
        assert!(records(&bad, size).unwrap_err().to_string().contains("record 1"));
        let file = [b"# game x\n# records 19\n".as_slice(), &body].concat();
        assert_eq!(split(&file).unwrap(), ("# game x\n# records 19\n".to_string(), 19, 22));
        assert!(split(b"# game x\n1\t1/1").is_err());
    }
}
