//! Endgame databases kept as files across runs, so that a database is built once on a machine:
//! `kalah-db-P-CAPTURE-N.bin` (the format of [`Database::save`]: an 11-byte header, then one
//! byte a position, mapped into memory when read) in the engine's cache folder
//! ([`crate::cache`]: `$BOARDBOT_CACHE`, `off` for no files). A file is written whole under
//! another name (`NAME.partPID`) and then renamed, so that no reader sees half of one.
//!
//! Sizes (one byte a position, the header aside): on 6 pits, 14 seeds 9.7 MB, 16 seeds 30.4 MB,
//! 18 seeds 86.5 MB, 20 seeds 225.8 MB; on 7 pits, 12 seeds 9.7 MB, 14 seeds 40.1 MB, 15 seeds
//! 77.6 MB. No file is larger than the memory budget of the solve or game that made it.

use super::db::Database;
use crate::game::kalah::Capture;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The cache folder, if there is one ([`crate::cache::dir`]: made when a database is first saved).
pub fn dir() -> Option<PathBuf> {
    crate::cache::dir()
}

/// The file of the database of `pits` pits, `capture` and `seeds` seeds in `dir`.
pub fn file(dir: &Path, pits: usize, capture: Capture, seeds: u32) -> PathBuf {
    dir.join(format!("kalah-db-{pits}-{}-{seeds}.bin", capture.name()))
}

/// The most seeds of a cached database of these rules, at most `max_seeds`.
pub fn largest(pits: usize, capture: Capture, max_seeds: u32) -> Option<u32> {
    let dir = dir()?;
    (0..=max_seeds).rev().find(|&n| file(&dir, pits, capture, n).is_file())
}

/// The largest cached database of these rules of at most `max_seeds` seeds that can be read.
fn load_largest(pits: usize, capture: Capture, max_seeds: u32) -> Option<Database> {
    let (dir, n) = (dir()?, largest(pits, capture, max_seeds)?);
    Database::load(&file(&dir, pits, capture, n), pits, capture)
        .inspect_err(|e| log::warn!("kalah: the cached endgame database cannot be read: {e}"))
        .ok()
}

/// A database of these rules of at least `want` and at most `max_seeds` seeds: the largest
/// cached one if it has `want` seeds or more; else the database of `want` seeds, built from the
/// largest cached one (its levels are copied) or from nothing, and saved (if it cannot be, the
/// log says why).
pub fn load_or_build(pits: usize, capture: Capture, want: u32, max_seeds: u32) -> Database {
    let cached = load_largest(pits, capture, max_seeds);
    if let Some(db) = cached.as_ref().filter(|db| db.max_seeds() >= want) {
        log::info!("kalah: endgame database of {} seeds read from the cache", db.max_seeds());
        return cached.expect("checked");
    }
    let db = build(cached.as_ref(), pits, capture, want);
    if let Some(d) = dir() {
        if let Err(e) = save(&db, &d) {
            log::warn!("kalah: the endgame database could not be cached in {}: {e}", d.display());
        }
    }
    db
}

/// [`Database::build_from`], said on stderr first when the database is large and goes to the
/// cache (a first run must not look like a hang).
fn build(smaller: Option<&Database>, pits: usize, capture: Capture, seeds: u32) -> Database {
    let bytes = Database::size(pits, seeds).unwrap_or(0);
    if let Some(d) = dir().filter(|_| bytes > QUICK_BYTES as u64) {
        // Measured: docs/results/kalah.md (on 6 pits, 20 seeds from nothing: 70 s of CPU).
        crate::cache::announce_build(
            &format!("the Kalah endgame database of {pits} pits and {seeds} seeds"),
            &file(&d, pits, capture, seeds),
            bytes,
            "on 6 pits 20 seeds, 226 MB, took 70 to 80 s of CPU here; the game goes on meanwhile",
        );
    }
    Database::build_from(smaller, pits, capture, seeds)
}

/// The most bytes of the first database [`in_stages`] builds, so that a game has one within
/// seconds (on 7 pits 12 seeds, on 6 pits 14: 9.7 MB each, about 2 s to build here).
const QUICK_BYTES: usize = 10 << 20;

/// The databases a game of these rules uses, each handed to `publish` as soon as it is there: a
/// small one first (cached, or built in seconds), then the one of `want` seeds, built from it;
/// each database built is saved, so that a process that ends before the large one is done (a
/// game shorter than the build) leaves the small one, and a later process extends it.
pub fn in_stages(pits: usize, capture: Capture, want: u32, max_seeds: u32, publish: &dyn Fn(Arc<Database>)) {
    let quick = Database::max_seeds_within(pits, QUICK_BYTES).unwrap_or(0).min(want);
    let first = Arc::new(load_or_build(pits, capture, quick, max_seeds));
    publish(first.clone());
    if first.max_seeds() >= want {
        return;
    }
    let db = build(Some(&first), pits, capture, want);
    drop(first);
    if let Some(d) = dir() {
        if let Err(e) = save(&db, &d) {
            log::warn!("kalah: the endgame database could not be cached in {}: {e}", d.display());
        }
    }
    publish(Arc::new(db));
}

/// Writes `db` into `dir` under its name, through a file of its own renamed at the end, so that
/// a reader never sees half a file (two processes may build the same database at once).
pub fn save(db: &Database, dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let target = file(dir, db.pits(), db.capture(), db.max_seeds());
    let partial = crate::cache::temporary(&target, "part");
    let saved = db.save(&partial).and_then(|()| std::fs::rename(&partial, &target));
    if saved.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    crate::cache::release(&partial);
    saved
}
