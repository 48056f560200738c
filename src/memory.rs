//! Large tables of atomic words, shared by the search's and the solver's transposition tables.

use std::sync::atomic::AtomicU64;

/// Zeroed atomic words whose first word starts a cache line, so that a table's bucket of 32
/// bytes (or 64) never straddles two lines, which would cost two memory loads instead of one.
/// The allocator's large blocks start 16 bytes past a page boundary, so the words start at the
/// first line boundary inside the allocation (measured: docs/results/speed.md).
pub struct Words {
    buf: Vec<AtomicU64>,
    /// The index in `buf` of the first word, which starts a cache line.
    start: usize,
    len: usize,
}

impl Words {
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn iter(&self) -> impl Iterator<Item = &AtomicU64> {
        self.buf[self.start..self.start + self.len].iter()
    }
}

impl std::ops::Index<usize> for Words {
    type Output = AtomicU64;
    #[inline(always)]
    fn index(&self, i: usize) -> &AtomicU64 {
        &self.buf[self.start + i]
    }
}

impl std::ops::Index<std::ops::Range<usize>> for Words {
    type Output = [AtomicU64];
    #[inline(always)]
    fn index(&self, r: std::ops::Range<usize>) -> &[AtomicU64] {
        &self.buf[self.start + r.start..self.start + r.end]
    }
}

/// Bytes in a cache line.
const LINE: usize = 64;

/// `n` zeroed atomic words starting on a cache line ([`Words`]), allocated as zeroed memory
/// (calloc) and backed by huge pages where the system allows it (see [`advise_huge_pages`]).
///
/// The system maps a page at its first write. Made inside [`mapped_at_once`] on this thread, every
/// page is mapped now; otherwise as the table is used, so that making a table costs in
/// proportion to the part of it that is used (a server's new session, a short solve).
pub fn zeroed_words(n: usize) -> Words {
    let extra = LINE / std::mem::size_of::<u64>();
    let buf = zeroed_vec(n + extra);
    let start = (buf.as_ptr() as usize).next_multiple_of(LINE) - buf.as_ptr() as usize;
    if MAP_AT_ONCE.get() {
        populate(&buf);
    }
    Words { start: start / std::mem::size_of::<u64>(), len: n, buf }
}

thread_local! {
    /// Whether the tables this thread makes now are mapped at once (see [`mapped_at_once`]).
    static MAP_AT_ONCE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `make` with every table it makes on this thread ([`zeroed_words`]) mapped at once.
///
/// For an engine that plays by the clock: a table's first writes land on random pages, so a table
/// left unmapped pays for its mapping inside the searches that fill it, seconds for tables of
/// gigabytes when the system must first reclaim the memory (docs/results/speed.md), and a move
/// made late loses the game. Mapped here, the cost is paid when the table is made (`set hash`,
/// the start of a protocol session), never in a move.
pub fn mapped_at_once<T>(make: impl FnOnce() -> T) -> T {
    /// Puts the thread's setting back, even if `make` unwinds.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            MAP_AT_ONCE.set(self.0);
        }
    }
    let _restore = Restore(MAP_AT_ONCE.replace(true));
    make()
}

fn zeroed_vec(n: usize) -> Vec<AtomicU64> {
    // Reason for `unsafe`: building the words one by one writes the whole table, which is slow
    // for a large table; as a zeroed allocation (the OS maps zero pages on first touch) it costs
    // next to nothing until it is used (measured: docs/results/speed.md).
    // `vec![0u64; n]` is such an allocation; it is re-typed in place.
    const _: () = assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>());
    let mut v = std::mem::ManuallyDrop::new(vec![0u64; n]);
    // SAFETY: AtomicU64 has the same size and bit validity as u64, and (asserted above) the same
    // alignment, so the allocation's layout is unchanged and every zero word is a valid atomic.
    let words = unsafe { Vec::from_raw_parts(v.as_mut_ptr() as *mut AtomicU64, v.len(), v.capacity()) };
    advise_huge_pages(&words);
    words
}

/// Asks Linux to back `words` with transparent huge pages (2 MiB instead of 4 KiB). A table
/// probe lands on a random address, so with small pages nearly every probe also misses the TLB.
#[cfg(target_os = "linux")]
fn advise_huge_pages(words: &[AtomicU64]) {
    const PAGE: usize = 4096;
    let start = words.as_ptr() as usize;
    let end = start + std::mem::size_of_val(words);
    let first = start.next_multiple_of(PAGE);
    if end <= first + (2 << 20) {
        return;
    }
    // Reason for `unsafe`: huge pages make the table's probes faster (measured:
    // docs/results/speed.md). The call only changes how the kernel backs the pages of memory
    // this vector owns; it reads and writes no memory, and failure (e.g. THP disabled) leaves
    // the mapping as it was.
    // SAFETY: [first, end rounded down to a page) lies inside the vector's own allocation.
    let _ = unsafe { libc::madvise(first as *mut libc::c_void, (end - first) / PAGE * PAGE, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: &[AtomicU64]) {}

/// Maps every page of `words` now: Linux fills them in one call (MADV_POPULATE_WRITE) where it
/// can, else one word of each 4 KiB page is written.
fn populate(words: &[AtomicU64]) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = words.as_ptr() as usize;
        let end = start + std::mem::size_of_val(words);
        let first = start.next_multiple_of(PAGE);
        if end > first + PAGE {
            // Reason for `unsafe`: one call maps the pages instead of a fault for each
            // (measured: docs/results/speed.md). The call only makes the kernel map pages of memory this vector owns, as a write
            // would; on failure (a kernel before 5.14) the writes below do it.
            // SAFETY: [first, end rounded down to a page) lies inside the vector's own allocation.
            let len = (end - first) / PAGE * PAGE;
            if unsafe { libc::madvise(first as *mut libc::c_void, len, libc::MADV_POPULATE_WRITE) } == 0 {
                return;
            }
        }
    }
    // One word of each 4 KiB page (512 words).
    for w in words.iter().step_by(512) {
        w.store(0, std::sync::atomic::Ordering::Relaxed);
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The share of `words`' whole pages that the system has mapped.
    fn mapped_share(words: &Words) -> f64 {
        const PAGE: usize = 4096;
        let start = (words.iter().next().unwrap() as *const AtomicU64 as usize).next_multiple_of(PAGE);
        let pages = (words.len() * 8 - PAGE) / PAGE;
        let mut resident = vec![0u8; pages];
        // Reason for `unsafe`: the only way to ask which pages are mapped. `mincore` writes one
        // byte a page into `resident` (`pages` long) and reads no memory of the range.
        // SAFETY: [start, start + pages * PAGE) lies inside the words' allocation, and start is
        // page-aligned.
        let rc = unsafe { libc::mincore(start as *mut libc::c_void, pages * PAGE, resident.as_mut_ptr()) };
        assert_eq!(rc, 0, "mincore: {}", std::io::Error::last_os_error());
        resident.iter().filter(|&&b| b & 1 == 1).count() as f64 / pages as f64
    }

    #[test]
    fn tables_are_mapped_when_made_only_when_asked() {
        const WORDS: usize = 4 << 20; // 32 MiB
        let lazy = zeroed_words(WORDS);
        assert!(mapped_share(&lazy) < 0.1, "a table made lazily is mapped: {}", mapped_share(&lazy));
        // Used a little: only the pages written are mapped.
        lazy[WORDS / 2].store(1, std::sync::atomic::Ordering::Relaxed);
        assert!(mapped_share(&lazy) < 0.2);
        let at_once = mapped_at_once(|| zeroed_words(WORDS));
        assert_eq!(mapped_share(&at_once), 1.0);
        assert!(at_once.iter().all(|w| w.load(std::sync::atomic::Ordering::Relaxed) == 0));
        // The setting ends with the closure, even one that unwinds.
        let _ = std::panic::catch_unwind(|| mapped_at_once(|| panic!("unwinds")));
        assert!(mapped_share(&zeroed_words(WORDS)) < 0.1);
        // Another thread's tables are its own business.
        mapped_at_once(|| {
            let other = std::thread::spawn(|| mapped_share(&zeroed_words(WORDS))).join().unwrap();
            assert!(other < 0.1);
        });
    }
}
