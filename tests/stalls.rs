//! Issue 39 on the real binary, where it is not the line protocol (tests/protocol.rs has those):
//! `boardbot serve` under boards, sessions and connections a person or a program may throw at it
//! (item 4), and `boardbot match` cut short by Ctrl-C or asked for records it cannot write
//! (item 7).

mod common;

use common::memory_kib;
use common::server::Server;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_boardbot");

/// A new game of `game` (the person moves first, 50 ms a move): status, the body's length
/// and its JSON.
fn new_game(server: &Server, game: &str) -> (u16, usize, Value) {
    let body = json!({"game": game, "you": "first", "time": 0.05}).to_string();
    let (status, text) = server.call_text("POST", "/api/new", Some(body.as_bytes()));
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{game}: {e}: {text:.200}"));
    (status, text.len(), value)
}

/// Item 4: a board beyond the server's size gets a 400 at once (`mnk 250 250 5` took 4.6 s to
/// build and froze other sessions; `cx 1000 1000 4` made a 41.9 MB reply in 23.9 s); the
/// largest board allowed answers with a state of a size a page can take, and the other
/// sessions' cheap requests are answered while large games are being made.
#[test]
fn serve_refuses_boards_beyond_its_size_and_keeps_replies_small() {
    let server = Server::start(&[]);
    for game in ["mnk 250 250 5", "cx 1000 1000 4", "mnk 101 7 5", "mnk 0100000 7 5", "cx 6 7 255"] {
        let t = Instant::now();
        let (status, _, v) = new_game(&server, game);
        assert_eq!(status, 400, "{game}: {v}");
        assert!(v["error"].as_str().unwrap().contains("too large"), "{game}: {v}");
        assert!(t.elapsed() < Duration::from_secs(30), "{game}: {:?}", t.elapsed());
    }
    let server = &server;
    std::thread::scope(|scope| {
        let large: Vec<_> = ["mnk 100 100 5", "cx 100 100 4", "mnk 100 100 5"]
            .into_iter()
            .map(|game| scope.spawn(move || new_game(server, game)))
            .collect();
        // Meanwhile the games' list is answered (it needs no game built).
        for _ in 0..5 {
            let (status, v) = server.call("GET", "/api/games", None);
            assert_eq!(status, 200, "{v}");
        }
        for h in large {
            let (status, bytes, v) = h.join().unwrap();
            assert_eq!(status, 200, "{v}");
            assert!(bytes < 2 << 20, "a state of {bytes} bytes");
        }
    });
}

/// Item 4: a full server refuses a new session before it makes its engine (300 refused requests
/// grew the server from 1.6 to 2.7 GB: each made an engine with its tables first).
#[test]
fn serve_checks_its_session_limit_before_making_an_engine() {
    let server = Server::start(&["--max-sessions", "2", "--hash", "256"]);
    for _ in 0..2 {
        let (status, _, v) = new_game(&server, "mnk 3 3 3");
        assert_eq!(status, 200, "{v}");
    }
    let (rss_before, _) = memory_kib(server.pid());
    let (_, peak_before) = memory_kib(server.pid());
    for _ in 0..20 {
        let (status, _, v) = new_game(&server, "mnk 3 3 3");
        assert_eq!(status, 503, "{v}");
    }
    let (rss, peak) = memory_kib(server.pid());
    // An engine of `--hash 256` touches 256 MiB when made: none was.
    assert!(peak < peak_before + 64 * 1024, "peak {peak_before} -> {peak} KiB, resident {rss_before} -> {rss} KiB");
}

/// Item 4: a connection that sends no request is closed after `--request-timeout` (19,990 idle
/// connections were kept open), and the server still answers.
#[test]
fn serve_closes_connections_that_send_no_request() {
    let server = Server::start(&["--request-timeout", "1"]);
    let mut idle: Vec<TcpStream> = (0..50).map(|_| TcpStream::connect(&server.addr).unwrap()).collect();
    // One sends half a request head, and no more.
    idle[0].write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n").unwrap();
    let t = Instant::now();
    for s in &mut idle {
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut buf = [0u8; 256];
        // Closed by the server: end of stream (or a 408 reply first, then the end).
        loop {
            match s.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => continue,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
                Err(e) => panic!("an idle connection still open after {:?}: {e}", t.elapsed()),
            }
        }
    }
    let (status, _) = server.call("GET", "/api/games", None);
    assert_eq!(status, 200);
}

/// `boardbot match` with `args`, its stdout and stderr piped.
fn start_match(args: &[&str]) -> Child {
    Command::new(BIN)
        .arg("match")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("boardbot match starts")
}

/// Item 7: `match --record` for a game without a record format says so at the start and writes
/// nothing (it wrote an empty file without a word).
#[test]
fn match_record_without_a_record_format_says_so_and_writes_nothing() {
    let file = std::env::temp_dir().join(format!("boardbot-record-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let out = start_match(&[
        "--game",
        "mnk",
        "3",
        "3",
        "3",
        "--engine1",
        "random",
        "--engine2",
        "random",
        "--quiet",
        "--record",
        file.to_str().unwrap(),
    ])
    .wait_with_output()
    .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no record format for mnk 3 3 3") && stderr.contains("nothing is written"), "{stderr}");
    assert!(!file.exists(), "{} was written", file.display());
}

/// Item 7: Ctrl-C (SIGINT) in the middle of a match prints the results of the games finished so
/// far and ends the match (the results table was lost).
#[test]
fn match_interrupted_prints_the_games_played() {
    let mut m = start_match(&[
        "--game",
        "mnk",
        "5",
        "5",
        "4",
        "--engine1",
        "self",
        "--engine2",
        "random",
        "--rounds",
        "200",
        "--timeout",
        "0.05",
    ]);
    let pid = m.id().to_string();
    // The progress goes to stderr, one line a game when it is not a terminal: wait for two.
    let stderr = m.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut games = 0;
    let mut seen = Vec::new();
    while games < 2 {
        let line = rx.recv_timeout(Duration::from_secs(120)).unwrap_or_else(|_| panic!("no games: {seen:?}"));
        games += usize::from(line.starts_with('['));
        seen.push(line);
    }
    let kill = Command::new("kill").args(["-INT", &pid]).status().unwrap();
    assert!(kill.success());
    let t = Instant::now();
    let status = loop {
        if let Some(status) = m.try_wait().unwrap() {
            break status;
        }
        assert!(t.elapsed() < Duration::from_secs(60), "the match went on after Ctrl-C");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stdout = String::new();
    m.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
    assert_eq!(status.code(), Some(130), "{stdout}");
    // The reader thread may not have passed on the last lines yet when the process is gone:
    // read on until it has (end of the pipe) or the line is seen.
    let mut rest = Vec::new();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(30)) {
        let done = line.contains("interrupted");
        rest.push(line);
        if done {
            break;
        }
    }
    assert!(rest.iter().any(|l| l.contains("interrupted")), "{rest:?}");
    // The results table, with the games finished (at least the two seen, not all 400).
    let total = stdout.lines().find(|l| l.starts_with("TOTAL")).unwrap_or_else(|| panic!("no table: {stdout}"));
    let played: usize = total.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap();
    assert!((2..400).contains(&played), "{stdout}");
}

/// Issue 57, item 11: Ctrl-C kept only the games finished in order: with one game stuck, the
/// games another job finished after it were in the progress but not in the files or the table
/// (progress said 7, the files kept 5); and SIGTERM printed nothing. Here one job's engine never
/// moves (its game waits for the 30-second timeout), the other job plays the 11 other games,
/// then SIGTERM: all 11 are in the table, the game log and the results file.
#[test]
fn sigterm_keeps_every_finished_game_in_the_table_and_the_files() {
    let dir = std::env::temp_dir().join(format!("boardbot-sigterm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (lock, log, results) = (dir.join("lock"), dir.join("log.tsv"), dir.join("results.jsonl"));
    // The first engine process started (job 1's) takes the lock and never moves; the others play.
    let engine1 = format!(
        "sh -c 'if mkdir {lock} 2>/dev/null; then read a; echo ok; while read l; do :; done; else exec {BIN} --player random; fi'",
        lock = lock.display()
    );
    let (log_s, results_s) = (log.to_str().unwrap(), results.to_str().unwrap());
    let args =
        ["--game", "mnk", "3", "3", "3", "--rounds", "6", "--jobs", "2", "--timeout", "30", "--engine2", "random"];
    let mut m = start_match(&[&args[..], &["--engine1", &engine1, "--log", log_s, "--results", results_s]].concat());
    let stderr = m.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut seen = Vec::new();
    while seen.iter().filter(|l: &&String| l.starts_with('[')).count() < 11 {
        let line = rx.recv_timeout(Duration::from_secs(60)).unwrap_or_else(|_| panic!("games: {seen:?}"));
        seen.push(line);
    }
    assert!(Command::new("kill").args(["-TERM", &m.id().to_string()]).status().unwrap().success());
    let t = Instant::now();
    let status = loop {
        if let Some(status) = m.try_wait().unwrap() {
            break status;
        }
        assert!(t.elapsed() < Duration::from_secs(20), "the match went on after SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stdout = String::new();
    m.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
    assert_eq!(status.code(), Some(130), "{stdout}");
    let total = stdout.lines().find(|l| l.starts_with("TOTAL")).unwrap_or_else(|| panic!("no table: {stdout}"));
    assert_eq!(total.split_whitespace().nth(1), Some("11"), "{stdout}");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert_eq!(logged.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).count(), 11, "{logged}");
    let (_, games) = boardbot::referee::results::read(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(games.len(), 11);
    let _ = std::fs::remove_dir_all(&dir);
}
