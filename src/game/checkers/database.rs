//! The endgame database a process uses: how many pieces the memory budget allows, and where it
//! comes from. The first game of a set of rules in a process starts a thread that reads it from
//! the cache file ([`endgame::cache_path`]) or, failing that, builds it: the positions of up to
//! four pieces first (seconds), used from the moment they are done, then the rest, written to
//! the cache file for the next process. `init` never waits for any of it.
//!
//! Two processes starting together on a machine without the cache file would both build the
//! large database: a lock file beside the cache file (`.lock`) lets only the first one build
//! it; the others keep the small one for their lifetime.

use super::endgame::{self, DistanceWriter, Endgame, Keep, MAX_PIECES};
use super::movegen::Capturing;
use crate::game::any::Resources;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

/// The pieces of the database built first, while the large one is read or built.
pub const SMALL_PIECES: u32 = 4;

/// A lock file older than this is left over from a process that died while building.
const STALE_LOCK: Duration = Duration::from_secs(30 * 60);

/// The databases of one set of rules, as they come: empty until their thread sets them.
#[derive(Default)]
pub struct Databases {
    small: OnceLock<Endgame>,
    large: OnceLock<Endgame>,
    /// Nothing more will come.
    done: AtomicBool,
}

impl Databases {
    /// The largest database there is now.
    pub fn get(&self) -> Option<&Endgame> {
        self.large.get().or_else(|| self.small.get())
    }

    /// Waits until nothing more will come; whether there is a database.
    pub fn wait(&self) -> bool {
        while !self.done.load(Ordering::Acquire) {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.get().is_some()
    }
}

impl Databases {
    /// Databases holding `db` alone, complete.
    pub fn of(db: Endgame) -> Databases {
        let dbs = Databases::default();
        let _ = dbs.large.set(db);
        dbs.done.store(true, Ordering::Release);
        dbs
    }
}

/// The databases of this process: one set of rules at a time (another replaces it).
type Cache = Mutex<Option<(Capturing, Arc<Databases>)>>;

/// The memory the database of up to `pieces` pieces takes (its long conversions are in a file),
/// with the small one kept beside it (its long conversions in memory: 16 bytes a class or so
/// more than measured, see docs/results/checkers.md).
pub fn bytes_for(pieces: u32) -> usize {
    let small = if pieces > SMALL_PIECES { Endgame::bytes_for(SMALL_PIECES) + SMALL_LONG_BYTES } else { 0 };
    Endgame::bytes_for(pieces) + small
}

/// The long conversions of the small database in memory, at most (measured: see the test
/// `the_small_database_keeps_its_distances_in_memory`).
const SMALL_LONG_BYTES: usize = 256 << 10;

/// The most pieces whose database fits in `budget` bytes (None: not even two).
pub fn pieces_for(budget: usize) -> Option<u32> {
    (2..=MAX_PIECES).rev().find(|&p| bytes_for(p) <= budget)
}

/// Caps the database's pieces (2 to [`MAX_PIECES`]) below what the memory allows. The test
/// suite (scripts/test.sh) sets 4: no test needs the 5-piece database, and a test process that
/// started its build would spend minutes of a core on it beside the other tests.
pub const PIECES_VAR: &str = "BOARDBOT_CHECKERS_PIECES";

/// The most pieces [`PIECES_VAR`] allows ([`MAX_PIECES`] when it is not set or not a number).
fn pieces_allowed() -> u32 {
    let Ok(text) = std::env::var(PIECES_VAR) else { return MAX_PIECES };
    match text.trim().parse::<u32>() {
        Ok(p) => p.clamp(2, MAX_PIECES),
        Err(_) => {
            log::warn!("{PIECES_VAR}={text}: not a number of pieces; up to {MAX_PIECES}");
            MAX_PIECES
        }
    }
}

/// The databases of `capturing` for this process, within the games' memory budget of
/// `resources` (None without one, or if it holds no database).
pub fn databases(capturing: Capturing, resources: &Resources) -> Option<Arc<Databases>> {
    let pieces = pieces_for(resources.budget_mib() << 20)?.min(pieces_allowed());
    let cache = resources.shared("checkers endgame", |_| Cache::default())?;
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, dbs)) = cache.as_ref().filter(|(c, _)| *c == capturing) {
        return Some(dbs.clone());
    }
    let dbs = Arc::new(Databases::default());
    let filling = dbs.clone();
    std::thread::spawn(move || {
        fill(&filling, capturing, pieces);
        filling.done.store(true, Ordering::Release);
    });
    *cache = Some((capturing, dbs.clone()));
    Some(dbs)
}

/// Reads or builds the databases (see the module's documentation).
fn fill(dbs: &Databases, capturing: Capturing, pieces: u32) {
    let path = endgame::cache_path(capturing, pieces).filter(|_| pieces > SMALL_PIECES);
    let distances = path.as_ref().map(|p| p.with_extension("dtc"));
    if let Some(path) = &path {
        match Endgame::load(path, distances.as_deref(), capturing, pieces) {
            Ok(db) => {
                log::info!("checkers endgame database: {pieces} pieces read from {}", path.display());
                let _ = dbs.large.set(db);
                return;
            }
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => log::warn!("checkers endgame database: {e}"),
            Err(_) => {}
        }
    }
    let small = Endgame::build(capturing, pieces.min(SMALL_PIECES));
    if pieces <= SMALL_PIECES {
        let _ = dbs.large.set(small);
        return;
    }
    let _ = dbs.small.set(small);
    let lock = path.as_ref().map(|p| p.with_extension("lock"));
    if let Some(lock) = &lock {
        if !take_lock(lock) {
            log::info!("checkers endgame database: another process is building it; {SMALL_PIECES} pieces here");
            return;
        }
        remove_leftovers(lock);
    }
    if let Some(path) = &path {
        // Measured: docs/results/checkers.md (30,277,289 bytes of values, the distances beside
        // them; 258 s of wall time for a newcomer's first run, issue 58).
        let rules = if capturing == Capturing::Complete { "English" } else { "house-rules" };
        crate::cache::announce_build(
            &format!("the {rules} checkers {pieces}-piece endgame database"),
            path,
            45_000_000,
            "about 4 to 6 minutes on 2 cores; games play on meanwhile",
        );
    }
    let begin = std::time::Instant::now();
    let large = match (&path, &distances) {
        (Some(path), Some(distances)) => build_to_files(capturing, pieces, path, distances).unwrap_or_else(|e| {
            log::warn!("checkers endgame database: not saved: {e}");
            Endgame::build_keeping(capturing, pieces, Keep::Dropped).expect("no file to write")
        }),
        _ => Endgame::build_keeping(capturing, pieces, Keep::Dropped).expect("no file to write"),
    };
    log::info!(
        "checkers endgame database: {pieces} pieces built in {:.1} s ({} bytes in memory)",
        begin.elapsed().as_secs_f64(),
        large.bytes()
    );
    if let Some(lock) = &lock {
        let _ = std::fs::remove_file(lock);
        crate::cache::release(lock);
    }
    let _ = dbs.large.set(large);
}

/// Builds the database with its distances written to `distances`, then its values to `path`.
fn build_to_files(capturing: Capturing, pieces: u32, path: &Path, distances: &Path) -> std::io::Result<Endgame> {
    let mut writer = DistanceWriter::create(distances, capturing, pieces)?;
    let mut db = Endgame::build_keeping(capturing, pieces, Keep::File(&mut writer))?;
    writer.finish(&mut db)?;
    db.save(path)?;
    Ok(db)
}

/// Removes the files that builds of processes that died left beside `lock` (`NAME.db.tmpPID`,
/// `NAME.dtc.tmpPID`): the lock's holder is the only one writing them.
fn remove_leftovers(lock: &Path) {
    let (Some(dir), Some(stem)) = (lock.parent(), lock.file_stem().and_then(|s| s.to_str())) else { return };
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(&format!("{stem}.")) && name.contains(".tmp") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Creates the lock file, holding this process's id (replacing a stale one: its process gone,
/// or older than [`STALE_LOCK`]); false if another process holds it.
fn take_lock(lock: &Path) -> bool {
    if let Some(dir) = lock.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    // The lock is removed at exit if still held ([`crate::cache::clean_up`]).
    let create = || {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(lock)?;
        crate::cache::hold(lock);
        std::io::Write::write_all(&mut f, std::process::id().to_string().as_bytes())
    };
    if create().is_ok() {
        return true;
    }
    if !lock.exists() {
        // No lock can be made where the cache cannot be written either: build without one.
        return true;
    }
    let old = std::fs::metadata(lock)
        .and_then(|m| m.modified())
        .is_ok_and(|t| SystemTime::now().duration_since(t).unwrap_or_default() > STALE_LOCK);
    // A process that died while building (a match's engine quits after its game) left it.
    let gone = std::fs::read_to_string(lock)
        .ok()
        .and_then(|pid| pid.trim().parse::<u32>().ok())
        .is_some_and(|pid| Path::new("/proc").is_dir() && !Path::new(&format!("/proc/{pid}")).exists());
    if old || gone {
        let _ = std::fs::remove_file(lock);
        return create().is_ok();
    }
    false
}
