//! Endgame databases: the exact remaining margin of every position with at most N seeds in the
//! pits, for one board width and capture rule, built by retrograde analysis.
//!
//! # Index
//!
//! A position is its 2P pit counts in the order mover's pits 0..P, opponent's pits 0..P (each
//! from its owner's left). Positions with exactly n seeds are ranked in lexicographic order of
//! those counts (combinatorial ranking: the number of positions with n seeds before it), after
//! all positions with fewer seeds:
//!
//! ```text
//!   index = W(2P, n - 1) + sum over the first 2P - 1 pits i of
//!           W(2P - 1 - i, r_i) - W(2P - 1 - i, r_i - c_i)
//! ```
//!
//! where c_i is pit i's count, r_i the seeds in pits i.. (so r_0 = n), and W(j, x) = C(x + j, j)
//! the number of ways to put at most x seeds in j pits. The database of N seeds holds W(2P, N)
//! values, one byte each (a value lies in [-N, N]): for P = 6, N = 16 that is 30,421,755 bytes.
//! Positions in which a row is empty never occur in play (the game ends first); their entry holds
//! the end sweep's result, the mover's seeds minus the opponent's.
//!
//! # Building
//!
//! Seeds never come back from a store, so a move leads to a position with as many seeds in the
//! pits or fewer. The levels n = 0, 1, ..., N are built in order; a move that puts seeds in a
//! store reads a finished lower level. A move that does not (no seed reaches the store, no
//! capture) stays on the level and passes the turn; it moves seeds towards the mover's store in
//! the mover's row and leaves the other row alone, so the sum over both rows of each seed's
//! distance from its owner's left grows: such moves never cycle, and the level is finished by a
//! depth-first walk that values a position's same-level children before the position itself.
//!
//! The index of a position does not depend on N: the database of N seeds starts with the
//! database of any fewer, which [`Database::build_from`] extends.
//!
//! # File
//!
//! [`Database::save`] writes `KALAHDB2`, the pits, the capture rule (0 empty, 1 standard), N
//! (one byte each) and the values as they lie in memory (each the value XOR 0x80);
//! [`Database::load`] checks all of them and the length, and maps the file into memory.

use super::board::{self, byte, Geometry, Kind, MAX_PITS};
use crate::game::kalah::Capture;
use crate::memory::{zeroed_words, Words};
use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;

const MAGIC: &[u8; 8] = b"KALAHDB2";
/// The file's header: the magic, the pits, the capture rule, N.
const HEADER: usize = 11;
/// Not yet valued (during the build).
const UNKNOWN: i8 = i8::MIN;
/// The largest N: values must fit in an `i8`.
pub const MAX_DB_SEEDS: u32 = 127;

pub struct Database {
    geometry: Geometry,
    max_seeds: u32,
    /// `ways[j * stride + x]` = W(j, x) = C(x + j, j), for j <= 2P and x <= N.
    ways: Vec<u64>,
    stride: usize,
    values: Bytes,
}

/// The values, one byte each, holding the value XOR 0x80 (so that zeroed memory reads
/// [`UNKNOWN`]): in zeroed memory of their own, backed by huge pages where the system allows it
/// (a probe lands on a random address: with small pages nearly every probe would also miss the
/// TLB), or in a cache file mapped into memory (read on demand from the system's file cache:
/// nothing to load).
enum Bytes {
    Owned { words: Words, len: usize },
    Mapped(Mapping),
}

impl Bytes {
    fn unknown(len: usize) -> Bytes {
        Bytes::Owned { words: zeroed_words(len.div_ceil(8)), len }
    }
    fn len(&self) -> usize {
        match self {
            Bytes::Owned { len, .. } => *len,
            Bytes::Mapped(m) => m.bytes().len(),
        }
    }
    #[inline(always)]
    fn get(&self, i: usize) -> i8 {
        let byte = match self {
            Bytes::Owned { words, len } => {
                debug_assert!(i < *len);
                (words[i / 8].load(Relaxed) >> (8 * (i % 8))) as u8
            }
            Bytes::Mapped(m) => m.bytes()[i],
        };
        (byte ^ 0x80) as i8
    }
    /// Bytes 8w..8w + 8 as they lie in memory (past the end: zero).
    fn word(&self, w: usize) -> u64 {
        match self {
            Bytes::Owned { words, .. } => words[w].load(Relaxed),
            Bytes::Mapped(m) => {
                let bytes = m.bytes();
                let mut b = [0u8; 8];
                let chunk = &bytes[(8 * w).min(bytes.len())..(8 * w + 8).min(bytes.len())];
                b[..chunk.len()].copy_from_slice(chunk);
                u64::from_le_bytes(b)
            }
        }
    }
    /// Starts loading byte `i`'s cache line (see [`super::table::prefetch`]).
    #[inline(always)]
    fn prefetch(&self, i: usize) {
        match self {
            Bytes::Owned { words, .. } => super::table::prefetch(&words[i / 8]),
            Bytes::Mapped(m) => super::table::prefetch(&m.bytes()[i]),
        }
    }
    #[inline(always)]
    fn set(&self, i: usize, v: i8) {
        let Bytes::Owned { words, .. } = self else { unreachable!("a mapped database is read-only") };
        let w = &words[i / 8];
        let shift = 8 * (i % 8);
        let byte = (v as u8 ^ 0x80) as u64;
        w.store(w.load(Relaxed) & !(0xff << shift) | byte << shift, Relaxed);
    }
}

/// A file mapped read-only into memory, from byte `offset` on.
struct Mapping {
    /// The mapping's address, as an integer (the mapping is read-only and lives as long as this).
    address: usize,
    /// The mapping's length (the whole file).
    mapped: usize,
    offset: usize,
}

impl Mapping {
    /// Maps `file` (of `len` bytes) read-only.
    #[cfg(unix)]
    fn new(file: &std::fs::File, len: usize, offset: usize) -> std::io::Result<Mapping> {
        use std::os::fd::AsRawFd;
        // Reason for `unsafe`: mapping the cache file instead of reading it leaves nothing to
        // load: Kalah(6,4) over the 20-seed database (226 MB) starts at once instead of after
        // reading the file (0.45 to 1.7 s, docs/results/kalah.md).
        // SAFETY: a fresh read-only private mapping of an open file; the kernel checks the
        // arguments and returns MAP_FAILED on error.
        let address =
            unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ, libc::MAP_PRIVATE, file.as_raw_fd(), 0) };
        if address == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        // Reason for `unsafe`: with this advice, the pages of the file that the system reads
        // into its cache through this mapping are read as huge pages (2 MiB) and mapped as
        // such, so that a probe at a random place rarely misses the TLB: Kalah(6,4) over the
        // 20-seed file mapped that way took 15% less CPU than over the same file in small pages
        // (docs/results/kalah.md). Pages already cached stay as they are ([`Database::save`]
        // drops those it wrote). Failure (no transparent huge pages) changes nothing.
        // SAFETY: advice on the mapping just made, of `len` bytes; it reads and writes no memory.
        #[cfg(target_os = "linux")]
        let _ = unsafe { libc::madvise(address, len, libc::MADV_HUGEPAGE) };
        Ok(Mapping { address: address as usize, mapped: len, offset })
    }

    #[cfg(not(unix))]
    fn new(_file: &std::fs::File, _len: usize, _offset: usize) -> std::io::Result<Mapping> {
        Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "no file mapping on this system"))
    }

    #[inline(always)]
    fn bytes(&self) -> &[u8] {
        // SAFETY: the mapping is `mapped` bytes long, readable, and lives as long as `self`; the
        // cache's files are replaced by renaming, never written in place, so its bytes do not
        // change while mapped.
        unsafe { std::slice::from_raw_parts((self.address + self.offset) as *const u8, self.mapped - self.offset) }
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        #[cfg(unix)]
        // SAFETY: the mapping made in `Mapping::new`, unmapped once.
        unsafe {
            libc::munmap(self.address as *mut libc::c_void, self.mapped);
        }
    }
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Database({} pits, {}, {} seeds)",
            self.geometry.pits(),
            self.geometry.capture().name(),
            self.max_seeds
        )
    }
}

/// W(j, x) for j <= `pits_total`, x <= `max_seeds`, by Pascal's rule W(j, x) = W(j - 1, x) +
/// W(j, x - 1); saturating (only sizes that fit are used).
fn ways_table(pits_total: usize, max_seeds: u32) -> Vec<u64> {
    let stride = max_seeds as usize + 1;
    let mut w = vec![1u64; (pits_total + 1) * stride];
    for j in 1..=pits_total {
        for x in 1..stride {
            w[j * stride + x] = w[(j - 1) * stride + x].saturating_add(w[j * stride + x - 1]);
        }
    }
    w
}

impl Database {
    /// The number of positions (bytes) of the database of `pits` pits a row and `max_seeds`
    /// seeds, None if it overflows.
    pub fn size(pits: usize, max_seeds: u32) -> Option<u64> {
        let w = ways_table(2 * pits, max_seeds);
        let v = w[2 * pits * (max_seeds as usize + 1) + max_seeds as usize];
        (v < u64::MAX).then_some(v)
    }

    /// The largest N whose database fits in `bytes` (None if not even N = 0 does).
    pub fn max_seeds_within(pits: usize, bytes: usize) -> Option<u32> {
        (0..=MAX_DB_SEEDS).take_while(|&n| Database::size(pits, n).is_some_and(|s| s <= bytes as u64)).last()
    }

    /// Builds the database of every position of `pits` pits a row (1..=7) with at most
    /// `max_seeds` (<= [`MAX_DB_SEEDS`]) seeds in the pits.
    pub fn build(pits: usize, capture: Capture, max_seeds: u32) -> Database {
        Database::build_from(None, pits, capture, max_seeds)
    }

    /// As [`Database::build`], starting from `smaller`, a database of the same rules and fewer
    /// seeds, whose values are copied: only the levels above it are built.
    pub fn build_from(smaller: Option<&Database>, pits: usize, capture: Capture, max_seeds: u32) -> Database {
        assert!(max_seeds <= MAX_DB_SEEDS);
        let size = Database::size(pits, max_seeds).expect("a database that fits in memory") as usize;
        let mut db = Database::empty(pits, capture, max_seeds, Bytes::unknown(size));
        let mut first = 0;
        if let Some(s) = smaller.filter(|s| s.pits() == pits && s.capture() == capture && s.max_seeds < max_seeds) {
            let Bytes::Owned { words, .. } = &db.values else { unreachable!("built in memory") };
            // Whole words of the smaller database: its last word's bytes past its end are zero,
            // as the new database's unknown bytes are.
            for w in 0..s.values.len().div_ceil(8) {
                words[w].store(s.values.word(w), Relaxed);
            }
            first = s.max_seeds + 1;
        }
        let k = 2 * pits;
        for n in first..=max_seeds {
            // The positions of level n in index order: counts in lexicographic order.
            let mut counts = vec![0u8; k];
            counts[k - 1] = n as u8;
            let mut index = db.offset(n);
            loop {
                if db.values.get(index) == UNKNOWN {
                    let pos = db.pack(&counts);
                    debug_assert_eq!(db.index(pos, n), index);
                    db.compute(pos, n, index);
                }
                index += 1;
                if !next_counts(&mut counts) {
                    break;
                }
            }
        }
        db
    }

    fn empty(pits: usize, capture: Capture, max_seeds: u32, values: Bytes) -> Database {
        Database {
            geometry: Geometry::new(pits, capture),
            max_seeds,
            ways: ways_table(2 * pits, max_seeds),
            stride: max_seeds as usize + 1,
            values,
        }
    }

    pub fn pits(&self) -> usize {
        self.geometry.pits()
    }
    pub fn capture(&self) -> Capture {
        self.geometry.capture()
    }
    /// N: the database knows every position with at most N seeds in the pits.
    pub fn max_seeds(&self) -> u32 {
        self.max_seeds
    }
    /// The database's size in bytes (one a position).
    pub fn bytes(&self) -> usize {
        self.values.len()
    }

    /// The remaining margin for the mover of `pos`, which has `n` <= N seeds in the pits.
    #[inline(always)]
    pub fn value(&self, pos: u128, n: u32) -> i32 {
        self.values.get(self.index(pos, n)) as i32
    }

    /// The value at `index` (of [`Database::index`]): the remaining margin for the mover.
    #[inline(always)]
    pub fn value_at(&self, index: usize) -> i32 {
        self.values.get(index) as i32
    }

    /// Starts loading the value at `index` into the cache without waiting for it.
    #[inline(always)]
    pub fn prefetch_at(&self, index: usize) {
        self.values.prefetch(index);
    }

    /// Loads `pos`'s value and returns it as it is stored, for the same purpose as
    /// [`super::table::Table::touch`].
    #[inline(always)]
    pub fn touch(&self, pos: u128, n: u32) -> i8 {
        self.values.get(self.index(pos, n))
    }

    /// Starts loading `pos`'s value into the cache without waiting for it.
    #[inline(always)]
    pub fn prefetch(&self, pos: u128, n: u32) {
        self.values.prefetch(self.index(pos, n));
    }

    #[inline(always)]
    fn w(&self, j: usize, x: u32) -> u64 {
        self.ways[j * self.stride + x as usize]
    }

    /// The index of the first position with `n` seeds: W(2P, n - 1).
    fn offset(&self, n: u32) -> usize {
        if n == 0 {
            0
        } else {
            self.w(2 * self.pits(), n - 1) as usize
        }
    }

    /// The index of `pos`, which has `n` <= N seeds in the pits (for [`Database::value_at`]).
    #[inline(always)]
    pub fn index(&self, pos: u128, n: u32) -> usize {
        let p = self.pits();
        let k = 2 * p;
        let mut rem = n;
        let mut index = self.offset(n) as u64;
        for i in 0..k - 1 {
            if rem == 0 {
                break;
            }
            let c = byte(pos, if i < p { i } else { 8 + i - p });
            let j = k - 1 - i;
            index += self.w(j, rem) - self.w(j, rem - c);
            rem -= c;
        }
        index as usize
    }

    /// A position from its counts in index order.
    fn pack(&self, counts: &[u8]) -> u128 {
        let p = self.pits();
        counts
            .iter()
            .enumerate()
            .fold(0u128, |pos, (i, &c)| pos | (c as u128) << (8 * if i < p { i } else { 8 + i - p }))
    }

    /// Values `pos` (with `n` seeds, at `index`, unknown), and first its unknown same-level
    /// children. The children's indices are computed and their bytes loaded first, so that those
    /// memory accesses overlap.
    fn compute(&mut self, pos: u128, n: u32, index: usize) -> i8 {
        let (mine, theirs) = (board::row_sum(pos as u64), board::row_sum((pos >> 64) as u64));
        let value = if mine == 0 || theirs == 0 {
            mine as i32 - theirs as i32
        } else {
            let mut kids = [(Kind::End, 0i32, 0u128, 0usize); MAX_PITS];
            let mut touched = 0;
            for (i, kid) in kids.iter_mut().enumerate().take(self.pits()) {
                if byte(pos, i) == 0 {
                    continue;
                }
                let c = self.geometry.play(pos, i);
                let at = if c.kind == Kind::End { 0 } else { self.index(c.pos, n - c.gain as u32) };
                touched ^= self.values.get(at);
                *kid = (c.kind, c.gain, c.pos, at);
            }
            std::hint::black_box(touched);
            let mut best = i32::MIN;
            for (i, &(kind, gain, child, at)) in kids.iter().enumerate().take(self.pits()) {
                if byte(pos, i) == 0 {
                    continue;
                }
                let v = match kind {
                    Kind::End => gain,
                    Kind::Extra => gain + self.values.get(at) as i32,
                    Kind::Normal => {
                        let mut known = self.values.get(at);
                        if known == UNKNOWN {
                            // A quiet move: the child has n seeds too.
                            known = self.compute(child, n, at);
                        }
                        gain - known as i32
                    }
                };
                best = best.max(v);
            }
            best
        };
        self.values.set(index, value as i8);
        value as i8
    }

    /// Writes the database to `path` (format in the module's documentation).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
        f.write_all(MAGIC)?;
        f.write_all(&[self.pits() as u8, capture_byte(self.capture()), self.max_seeds as u8])?;
        let len = self.values.len();
        for w in 0..len.div_ceil(8) {
            let bytes = self.values.word(w).to_le_bytes();
            f.write_all(&bytes[..(len - 8 * w).min(8)])?;
        }
        let f = f.into_inner().map_err(|e| e.into_error())?;
        drop_cached(&f)
    }

    /// Reads a database written by [`Database::save`], mapping the file into memory; an error
    /// if the file is not one, or not of `pits` pits and the `capture` rule.
    pub fn load(path: &Path, pits: usize, capture: Capture) -> std::io::Result<Database> {
        let (file, max_seeds, len) = Database::open(path, pits, capture)?;
        let values = Bytes::Mapped(Mapping::new(&file, len, HEADER)?);
        Ok(Database::empty(pits, capture, max_seeds, values))
    }

    /// As [`Database::load`], but the values are read from the file into memory of their own,
    /// backed by huge pages where the system allows it (the bench's `DB_READ=1`): the solve over
    /// it is faster, but the read costs about as much as that saves on Kalah(6,4), so the cache
    /// maps its files (docs/results/kalah.md).
    pub fn read(path: &Path, pits: usize, capture: Capture) -> std::io::Result<Database> {
        let (mut file, max_seeds, len) = Database::open(path, pits, capture)?;
        let len = len - HEADER;
        let values = Bytes::unknown(len);
        let Bytes::Owned { words, .. } = &values else { unreachable!("made in memory") };
        // Whole chunks of words, read straight from the file (the header already read).
        let mut chunk = vec![0u8; 1 << 20];
        let mut w = 0;
        let mut left = len;
        while left > 0 {
            let got = left.min(chunk.len());
            file.read_exact(&mut chunk[..got])?;
            for bytes in chunk[..got].chunks(8) {
                let mut b = [0u8; 8];
                b[..bytes.len()].copy_from_slice(bytes);
                words[w].store(u64::from_le_bytes(b), Relaxed);
                w += 1;
            }
            left -= got;
        }
        Ok(Database::empty(pits, capture, max_seeds, values))
    }

    /// Opens a database file and checks its header and length: the file (read past its header),
    /// N and the file's length.
    fn open(path: &Path, pits: usize, capture: Capture) -> std::io::Result<(std::fs::File, u32, usize)> {
        let bad =
            |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{}: {what}", path.display()));
        let mut file = std::fs::File::open(path)?;
        let mut header = [0u8; HEADER];
        file.read_exact(&mut header).map_err(|_| bad("not a Kalah endgame database"))?;
        if &header[..8] != MAGIC {
            return Err(bad("not a Kalah endgame database"));
        }
        let (file_pits, file_capture, max_seeds) = (header[8] as usize, header[9], header[10] as u32);
        if file_pits != pits || file_capture != capture_byte(capture) {
            return Err(bad("a database of other rules"));
        }
        let len = file.metadata()?.len() as usize;
        if max_seeds > MAX_DB_SEEDS || Database::size(pits, max_seeds) != Some((len - HEADER) as u64) {
            return Err(bad("wrong length"));
        }
        Ok((file, max_seeds, len))
    }
}

/// Writes `file` to disk and drops its pages from the system's cache, so that the first
/// mapping of it ([`Database::load`]) reads it back as huge pages.
fn drop_cached(file: &std::fs::File) -> std::io::Result<()> {
    file.sync_all()?;
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // Reason for `unsafe`: see `Mapping::new` (huge pages for the mapped file).
        // SAFETY: advice on an open file descriptor; it reads and writes no memory of ours.
        let _ = unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    }
    Ok(())
}

fn capture_byte(c: Capture) -> u8 {
    match c {
        Capture::Empty => 0,
        Capture::Standard => 1,
    }
}

/// The next counts with the same sum in lexicographic order; false after the last.
fn next_counts(counts: &mut [u8]) -> bool {
    let k = counts.len();
    if k < 2 {
        return false;
    }
    let mut tail = counts[k - 1];
    let mut i = k - 2;
    loop {
        if tail > 0 {
            counts[i] += 1;
            counts[i + 1..].fill(0);
            counts[k - 1] = tail - 1;
            return true;
        }
        if i == 0 {
            return false;
        }
        tail += counts[i];
        i -= 1;
    }
}
