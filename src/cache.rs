//! The folder of the engine's data kept across runs (the games' endgame databases), one for every
//! game: `$BOARDBOT_CACHE` if set (`off` or empty: no folder, nothing read or written), else
//! `$XDG_CACHE_HOME/boardbot`, else `$HOME/.cache/boardbot`. (In a checkout, `cargo run` and
//! `cargo test` set `BOARDBOT_CACHE` to the checkout's `target/boardbot-cache`:
//! `.cargo/config.toml`.)
//!
//! Files being written in it carry the writer's process id: `NAME.tmpPID` and `NAME.partPID`
//! (written whole, then renamed to NAME) and `NAME.lock` (holding the PID as text). A process
//! registers the ones it makes ([`temporary`], [`hold`]) and [`clean_up`] removes those still
//! there when it exits; the first [`dir`] of a process removes the ones whose process no longer
//! runs (a process killed, or one that ended while a build's thread was writing).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// The environment variable naming the folder.
pub const VAR: &str = "BOARDBOT_CACHE";

/// The files this process is writing in the folder (removed by [`clean_up`]).
static HELD: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The folder's stale files are removed once a process.
static SWEPT: Once = Once::new();

/// The folder, if there is one (it is made when a file is first written); the first call of a
/// process removes the files left there by processes that no longer run.
pub fn dir() -> Option<PathBuf> {
    let dir = folder()?;
    SWEPT.call_once(|| sweep(&dir));
    Some(dir)
}

/// The folder that the environment names, untouched.
fn folder() -> Option<PathBuf> {
    match std::env::var_os(VAR) {
        Some(d) if d == "off" || d.is_empty() => None,
        Some(d) => Some(PathBuf::from(d)),
        None => std::env::var_os("XDG_CACHE_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").filter(|d| !d.is_empty()).map(|h| Path::new(&h).join(".cache")))
            .map(|d| d.join("boardbot")),
    }
}

/// The file `path` + `.KINDPID` (KIND: `tmp` or `part`) that this process writes first and then
/// renames to `path`; registered until [`release`]d.
pub fn temporary(path: &Path, kind: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{kind}{}", std::process::id()));
    let tmp = PathBuf::from(name);
    hold(&tmp);
    tmp
}

/// Registers `path` (a temporary or lock file of this process) for removal at exit.
pub fn hold(path: &Path) {
    HELD.lock().unwrap_or_else(|e| e.into_inner()).push(path.to_path_buf());
}

/// Unregisters `path` (renamed or removed by its writer).
pub fn release(path: &Path) {
    HELD.lock().unwrap_or_else(|e| e.into_inner()).retain(|p| p != path);
}

/// Removes the temporary and lock files this process still holds: called when the process ends
/// (its last words: a build's thread may still be writing one).
pub fn clean_up() {
    clean_up_where(|_| true);
}

/// Removes the files this process holds that `which` picks.
fn clean_up_where(which: impl Fn(&Path) -> bool) {
    let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
    held.retain(|path| {
        let picked = which(path);
        if picked {
            let _ = std::fs::remove_file(path);
        }
        !picked
    });
}

/// Whether process `pid` runs (where /proc tells; elsewhere assumed to run, so that nothing of
/// a live process is removed).
fn runs(pid: u32) -> bool {
    !Path::new("/proc/self").is_dir() || Path::new(&format!("/proc/{pid}")).exists()
}

/// The process id a file of the folder names, if it is a temporary (`.tmpPID`, `.partPID`) or a
/// lock file (`.lock`, holding the PID), else None.
fn owner(path: &Path) -> Option<u32> {
    let name = path.file_name()?.to_str()?;
    if name.ends_with(".lock") {
        return std::fs::read_to_string(path).ok()?.trim().parse().ok();
    }
    let (_, tail) = name.rsplit_once('.')?;
    let digits = tail.strip_prefix("tmp").or_else(|| tail.strip_prefix("part"))?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.parse().ok())?
}

/// Removes the temporary and lock files of `dir` whose process no longer runs.
fn sweep(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if let Some(pid) = owner(&path) {
            if pid != std::process::id() && !runs(pid) {
                log::info!("cache: removing {}, left by process {pid}", path.display());
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}

/// Says on stderr (whatever the log level: a first run must not look like a hang) that a
/// database is being built for the cache: `what`, its size and the time it took on the machine
/// where it was measured.
pub fn announce_build(what: &str, path: &Path, bytes: u64, measured: &str) {
    eprintln!(
        "boardbot: building {what} once for the cache ({:.0} MB in {}; {measured})",
        bytes as f64 / 1e6,
        path.display()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_files_are_those_of_processes_gone() {
        let dir = std::env::temp_dir().join(format!("boardbot-cache-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A process id above Linux's largest (2^22) runs nowhere.
        let gone = 4_999_999u32;
        let me = std::process::id();
        let files = [
            (format!("checkers-english-5.dtc.tmp{gone}"), false),
            (format!("kalah-db-6-standard-20.part{gone}"), false),
            (format!("checkers-english-5.db.tmp{me}"), true),
            ("checkers-english-5.db".to_string(), true),
            ("notes.tmpx".to_string(), true),
        ];
        for (name, _) in &files {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        std::fs::write(dir.join("old.lock"), gone.to_string()).unwrap();
        std::fs::write(dir.join("mine.lock"), me.to_string()).unwrap();
        sweep(&dir);
        for (name, kept) in &files {
            assert_eq!(dir.join(name).exists(), *kept, "{name}");
        }
        assert!(!dir.join("old.lock").exists());
        assert!(dir.join("mine.lock").exists());
        let held = temporary(&dir.join("a.db"), "tmp");
        std::fs::write(&held, b"x").unwrap();
        assert_eq!(held.file_name().unwrap().to_str().unwrap(), format!("a.db.tmp{me}"));
        clean_up_where(|p| p.starts_with(&dir));
        assert!(!held.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
