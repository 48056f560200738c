//! The Java bridges of `scripts/java/boardbot/` (boardbot as a player of the MNKGame and CXGame
//! course referees), compiled with `javac` against the stand-in referees of
//! `scripts/java/standins/` and played there against trivial players, with the real binary as the
//! engine. Needs `javac` and `java` on the PATH (Java 17 on CI): without them the tests fail.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

const BIN: &str = env!("CARGO_BIN_EXE_boardbot");
const MNK: &str = "boardbot.MNKBridge";
const CX: &str = "boardbot.CXBridge";
const FIRST_FREE: &str = "mnkgame.FirstFreePlayer";
const FIRST_COLUMN: &str = "connectx.FirstColumnPlayer";

/// A fresh directory for this test run's files, under cargo's temporary directory for tests
/// (inside `target/`, so nothing is left in the system's temporary directory); the previous
/// run's files are removed when the first one is made.
fn scratch_dir(tag: &str) -> PathBuf {
    static BASE: OnceLock<PathBuf> = OnceLock::new();
    let base = BASE.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("java-bridges");
        let _ = std::fs::remove_dir_all(&base);
        base
    });
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
    let dir = base.join(format!("{tag}-{nanos}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The classes of the bridges and stand-ins, compiled once per test run.
fn classes() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/java");
        let mut sources = Vec::new();
        let mut dirs = vec![root];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "java") {
                    sources.push(path);
                }
            }
        }
        let out = scratch_dir("classes");
        let result = Command::new("javac").arg("-d").arg(&out).args(&sources).output().unwrap_or_else(|e| {
            panic!("cannot run `javac` ({e}): these tests need a JDK (17 or later) with javac and java on the PATH")
        });
        assert!(
            result.status.success(),
            "javac failed:\n{}{}",
            String::from_utf8_lossy(&result.stdout),
            String::from_utf8_lossy(&result.stderr)
        );
        out
    })
}

/// One referee process at a time: the engine's moves are timed, so the games should not compete
/// for the cores with each other.
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// A referee's output.
struct Games {
    stdout: String,
    stderr: String,
}

impl Games {
    fn context(&self) -> String {
        format!("--- stdout ---\n{}--- stderr ---\n{}", self.stdout, self.stderr)
    }

    /// The result of each round ("WIN CLASS" or "DRAW").
    fn results(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .filter_map(|l| l.split_once("RESULT round "))
            .map(|(_, r)| r.split_once(": ").unwrap().1)
            .collect()
    }
}

/// Plays `rounds` games (first player alternating, `p1` first in round 1) in the stand-in referee
/// (`mnkgame.MNKReferee` or `connectx.CXReferee`) with TIMEOUT 1 s and `engine` as BOARDBOT_CMD;
/// asserts that every game finished with no illegal move, exception or late move.
fn play(referee: &str, board: [u32; 3], p1: &str, p2: &str, rounds: u32, engine: &str) -> Games {
    let classes = classes();
    let _serial = serial();
    let board = board.map(|x| x.to_string());
    let rounds_arg = rounds.to_string();
    let output: Output = Command::new("java")
        .arg("-cp")
        .arg(classes)
        .arg(referee)
        .args(&board)
        .args([p1, p2, "-t", "1", "-r", &rounds_arg])
        .env("BOARDBOT_CMD", engine)
        .env_remove("RUST_LOG")
        .output()
        .unwrap_or_else(|e| panic!("cannot run `java` ({e}): these tests need a JDK (17 or later) on the PATH"));
    let games = Games {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    assert!(output.status.success(), "the referee failed ({})\n{}", output.status, games.context());
    for bad in ["ILLEGAL", "EXCEPTION", "LATE", "Exception", "initialization takes too much time"] {
        assert!(!games.stdout.contains(bad), "{bad} in the games\n{}", games.context());
    }
    assert_eq!(games.results().len(), rounds as usize, "not every game finished\n{}", games.context());
    games
}

fn assert_all(games: &Games, allowed: &[&str]) {
    for r in games.results() {
        assert!(allowed.contains(&r), "unexpected result '{r}' (allowed: {allowed:?})\n{}", games.context());
    }
}

/// A shell script in a fresh directory, run as `sh SCRIPT ARGS`: the BOARDBOT_CMD to use.
fn script(tag: &str, text: &str, args: &str) -> String {
    let path = scratch_dir(tag).join("engine.sh");
    std::fs::write(&path, text).unwrap();
    // BOARDBOT_CMD is split on spaces.
    assert!(!path.display().to_string().contains(' '), "a temporary directory without spaces");
    format!("sh {} {args}", path.display())
}

/// The real engine, whose output ends after N lines: the process dies (for the bridge) after
/// its first move of every game, and again after each restore.
fn flaky_engine(lines: u32) -> String {
    // After N lines the wrapper kills itself: the last holder of the bridge's end of the pipe is
    // gone, so the bridge reads end of output. (A loop, not `head`, which buffers its output.)
    let text = "#!/bin/sh\n\"$1\" | { n=0; while [ $n -lt \"$2\" ] && IFS= read -r line; do \
                printf '%s\\n' \"$line\"; n=$((n+1)); done; kill -9 $$; }\n";
    script("flaky", text, &format!("{BIN} {lines}"))
}

/// The real engine, whose output line number `line` (counting from 1: `init`'s `ok`, then `name`'s
/// reply, then the replies to the moves) is held back 4 s, once: a frozen engine, as if stopped with
/// `kill -STOP`, in a game whose moves have 1 s. The processes started after the hold are not held.
fn frozen_engine(tag: &str, line: u32) -> String {
    // `mkdir` succeeds once: the marker, which does not exist yet, is made at the first hold.
    let marker = scratch_dir(tag).join("held");
    let text = "#!/bin/sh\n\"$1\" | { n=0; while IFS= read -r line; do n=$((n+1)); \
                if [ $n -eq \"$2\" ] && mkdir \"$3\" 2>/dev/null; then sleep 4; fi; \
                printf '%s\\n' \"$line\"; done; }\n";
    script(tag, text, &format!("{BIN} {line} {}", marker.display()))
}

#[test]
fn mnk_3x3x3_the_bridge_never_loses() {
    let games = play("mnkgame.MNKReferee", [3, 3, 3], MNK, FIRST_FREE, 2, BIN);
    assert_all(&games, &["WIN boardbot.MNKBridge", "DRAW"]);
    assert!(games.stdout.contains("(boardbot "), "the engine's name is shown\n{}", games.context());
    // Two bridges (two engine processes): perfect play draws.
    let games = play("mnkgame.MNKReferee", [3, 3, 3], MNK, MNK, 2, BIN);
    assert_all(&games, &["DRAW"]);
}

#[test]
fn mnk_7x7x5_the_bridge_wins_with_both_colours() {
    let games = play("mnkgame.MNKReferee", [7, 7, 5], MNK, FIRST_FREE, 2, BIN);
    assert_all(&games, &["WIN boardbot.MNKBridge"]);
    assert!(!games.stderr.contains("[boardbot bridge]"), "no restore was needed\n{}", games.context());
}

#[test]
fn cx_6x7x4_the_bridge_wins_with_both_colours() {
    let games = play("connectx.CXReferee", [6, 7, 4], CX, FIRST_COLUMN, 2, BIN);
    assert_all(&games, &["WIN boardbot.CXBridge"]);
    assert!(!games.stderr.contains("[boardbot bridge]"), "no restore was needed\n{}", games.context());
}

#[test]
fn a_dying_engine_is_restarted_and_the_game_restored() {
    // 3 lines: `name`, `init` and one move (or, after a restart, `init`, `position`, `go`).
    let engine = flaky_engine(3);
    let games = play("mnkgame.MNKReferee", [7, 7, 5], MNK, FIRST_FREE, 2, &engine);
    assert!(games.stderr.contains("restarting the engine"), "the engine was restarted\n{}", games.context());
    assert!(games.stderr.contains("restored the game"), "the game was restored\n{}", games.context());
    let games = play("connectx.CXReferee", [6, 7, 4], FIRST_COLUMN, CX, 2, &engine);
    assert!(games.stderr.contains("restored the game"), "the game was restored\n{}", games.context());
}

#[test]
fn a_broken_or_missing_engine_still_gives_legal_moves() {
    // Answers everything, but always with the move "0 0" (occupied after the first time; not a
    // column): the bridge falls back to a legal move.
    let liar = script(
        "liar",
        "#!/bin/sh\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n    name) echo 'name boardbot 0.0.0-fake' ;;\n    go|move) echo '0 0' ;;\n    *) echo ok ;;\n  esac\ndone\n",
        "",
    );
    play("mnkgame.MNKReferee", [5, 5, 4], MNK, FIRST_FREE, 2, &liar);
    play("connectx.CXReferee", [6, 7, 4], CX, FIRST_COLUMN, 2, &liar);
    let missing = scratch_dir("missing").join("no-such-engine").display().to_string();
    let games = play("mnkgame.MNKReferee", [4, 4, 3], MNK, FIRST_FREE, 2, &missing);
    assert!(games.stdout.contains("boardbot.MNKBridge (boardbot)"), "the fallback name\n{}", games.context());
    play("connectx.CXReferee", [5, 4, 4], CX, FIRST_COLUMN, 2, &missing);
}

#[test]
fn a_frozen_engine_does_not_make_the_bridge_late() {
    // Line 4: the reply to the bridge's second move. The bridge waits until its deadline (900 ms of
    // the 1 s), plays its fallback move, kills the engine and restores the game in a new one at its
    // next move; `play` asserts that no move was late and that the game finished.
    let engine = frozen_engine("frozen-mnk", 4);
    let games = play("mnkgame.MNKReferee", [7, 7, 5], MNK, FIRST_FREE, 1, &engine);
    for log in [
        "no reply from the engine by the bridge's deadline (900 ms",
        "playing the first free cell",
        "restored the game",
    ] {
        assert!(games.stderr.contains(log), "'{log}' in the bridge's log\n{}", games.context());
    }
    assert_all(&games, &["WIN boardbot.MNKBridge"]);
    let engine = frozen_engine("frozen-cx", 4);
    let games = play("connectx.CXReferee", [6, 7, 4], FIRST_COLUMN, CX, 1, &engine);
    for log in [
        "no reply from the engine by the bridge's deadline (900 ms",
        "playing the first available column",
        "restored the game",
    ] {
        assert!(games.stderr.contains(log), "'{log}' in the bridge's log\n{}", games.context());
    }
    assert_all(&games, &["WIN boardbot.CXBridge"]);
}

/// Issue 57, item 8: the bridges started the engine inside the referee's timed initPlayer (under
/// load the course referee printed `initialization takes too much time`), and each restart after a
/// kill inside a move's time. An engine that takes 0.95 s to start (a wrapper that sleeps, then
/// runs the engine), in games of 1 s a move: it is started when the bridge is made, initPlayer
/// does not wait for it beyond half its time, the first move restores the game once the engine
/// is up, and the bridge wins with both colours; no reply is missed but by the starting engine.
#[test]
fn a_slow_starting_engine_starts_outside_the_referees_time() {
    let slow = script("slow", "#!/bin/sh\nsleep 0.95\nexec \"$@\"\n", BIN);
    let games = play("mnkgame.MNKReferee", [7, 7, 5], MNK, FIRST_FREE, 2, &slow);
    assert_all(&games, &["WIN boardbot.MNKBridge"]);
    assert!(!games.stderr.contains("no reply from the engine by the bridge's deadline"), "{}", games.context());
    let games = play("connectx.CXReferee", [6, 7, 4], FIRST_COLUMN, CX, 2, &slow);
    assert_all(&games, &["WIN boardbot.CXBridge"]);
    assert!(!games.stderr.contains("no reply from the engine by the bridge's deadline"), "{}", games.context());
}
