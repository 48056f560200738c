//! Replies come within the time budget (TIMEOUT minus the 100 ms default margin), measured from
//! the write of the command to the read of the reply. The tests of this file run one at a time,
//! so that they do not compete with each other for the CPU.

mod common;

use common::*;
use std::sync::Mutex;
use std::time::Duration;

static SERIAL: Mutex<()> = Mutex::new(());

const LIMIT: Duration = Duration::from_millis(1000);

/// Plays up to `max_replies` engine moves of `board` with TIMEOUT 1 and checks every latency.
fn check_latencies(board: Board, engine_first: bool, seed: u64, max_replies: usize) {
    check_latencies_with(&[], board, engine_first, seed, max_replies)
}

/// As [`check_latencies`], the engine started with `args`.
fn check_latencies_with(args: &[&str], board: Board, engine_first: bool, seed: u64, max_replies: usize) {
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut e = Engine::spawn_with(args, &[]);
    // The engine makes its tables before it reads a line: a large hash takes seconds on a
    // loaded machine (set-up time, not a move's).
    e.send("name");
    e.recv_within(Duration::from_secs(120));
    let mut b = board;
    start(&mut e, &b, engine_first, "1");
    let mut opponent = tactical_opponent(seed);
    let mut latencies = Vec::new();
    fn timed(e: &mut Engine, latencies: &mut Vec<(String, Duration)>, line: &str) -> String {
        let t = std::time::Instant::now();
        let r = e.ask(line);
        latencies.push((line.to_string(), t.elapsed()));
        r
    }
    if engine_first {
        let r = timed(&mut e, &mut latencies, "go");
        b.play_reply(&r);
    }
    while b.result.is_none() && latencies.len() < max_replies {
        let mv = opponent(&b);
        b.play(mv);
        let line = format!("move {}", b.text(mv));
        let r = timed(&mut e, &mut latencies, &line);
        match b.result {
            Some(res) => assert_eq!(r, res.end_line()),
            None => {
                b.play_reply(&r);
            }
        }
    }
    let slowest = latencies.iter().max_by_key(|(_, d)| *d).unwrap();
    eprintln!("{} replies, slowest {:?} for '{}'", latencies.len(), slowest.1, slowest.0);
    for (line, d) in &latencies {
        assert!(*d < LIMIT, "reply to '{line}' took {d:?} (limit {LIMIT:?}); all: {latencies:?}");
    }
}

#[test]
fn replies_within_budget_gomoku_15x15x5() {
    check_latencies(Board::mnk(15, 15, 5), false, 1, 3);
    check_latencies(Board::mnk(15, 15, 5), true, 2, 3);
}

#[test]
fn replies_within_budget_connectx_25x25x10() {
    check_latencies(Board::cx(25, 25, 10), true, 3, 3);
    check_latencies(Board::cx(25, 25, 10), false, 4, 3);
}

#[test]
fn replies_within_budget_large_mnk() {
    // A large board: the first iterations on it must not overrun either.
    check_latencies(Board::mnk(50, 50, 6), false, 5, 3);
}

/// The largest board there is, crowded: 20,000 stones scattered on 1000 x 1000 (K = 8), set up
/// with `position`. Every reply must still come within TIMEOUT (0.5 s here; the search budget is
/// 0.2 s), however many candidate moves the first search iteration has.
#[test]
fn replies_within_timeout_on_a_crowded_huge_board() {
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (n, k, stones) = (1000, 8, 20_000);
    let mut b = Board::mnk(n, n, k);
    let mut rng = Rng::new(99);
    let mut words = Vec::with_capacity(stones);
    while words.len() < stones {
        let cell = rng.below(n * n);
        if b.is_legal(cell) {
            b.play(cell);
            words.push(b.comma_text(cell));
        }
    }
    assert!(b.result.is_none(), "the random position is already decided");
    // The board's tables take 147 MiB (twice 77 bytes a cell): the hash must allow them.
    let mut e = Engine::spawn_with(&["--hash", "160"], &[]);
    e.expect_ok(&format!("init {n} {n} {k} true 0.5"));
    e.expect_ok(&format!("position {}", words.join(" ")));
    let limit = Duration::from_millis(500);
    let mut latencies = Vec::new();
    for i in 0..3 {
        let t = std::time::Instant::now();
        let line = if i == 0 {
            "go".to_string()
        } else {
            let mv = loop {
                let c = rng.below(n * n);
                if b.is_legal(c) {
                    break c;
                }
            };
            b.play(mv);
            format!("move {}", b.text(mv))
        };
        let reply = e.ask(&line);
        latencies.push((line, t.elapsed()));
        if b.result.is_some() {
            break;
        }
        b.play_reply(&reply);
        if b.result.is_some() {
            break;
        }
    }
    for (line, d) in &latencies {
        assert!(*d < limit, "reply to '{line}' took {d:?} with TIMEOUT {limit:?}; all: {latencies:?}");
    }
}

/// A large hash: its tables are made when the engine starts, not inside the first moves (they
/// were, and replies took seconds at TIMEOUT 1).
#[test]
fn replies_within_timeout_with_a_large_hash() {
    check_latencies_with(&["--hash", "2048"], Board::cx(6, 7, 4), false, 5, 6);
}

/// Issue 39, 3: on 1000 x 1000 each move cost about 220 ms of CPU whatever the budget (the game
/// was copied for every search: 278 ms at 0.05 s), and the process took 322-370 MiB whatever
/// `hash` said. Now the board is refused at `init` when its tables do not fit the hash, and a
/// move costs what its budget allows. CPU time, not the reply's wall time: it does not depend on
/// the machine's load.
#[test]
fn huge_boards_cost_their_budget_and_fit_the_hash() {
    let mut e = Engine::spawn_with(&["--hash", "16"], &[]);
    let error = e.expect_error("init mnk 1000 1000 5 true 0.05");
    assert!(error.contains("hash"), "{error}");
    e.expect_error("init cx 1000 1000 4 true 0.05");
    let (rss, _) = memory_kib(e.pid());
    assert!(rss < 64 * 1024, "{rss} KiB resident with --hash 16 after the refusals");

    let mut e = Engine::spawn_with(&["--hash", "160"], &[]);
    e.send("init mnk 1000 1000 5 true 0.05");
    assert_eq!(e.recv_within(Duration::from_secs(120)), "ok");
    // The engine plays both sides (`go`), so that the game goes on with threats on the board.
    let mut b = Board::mnk(1000, 1000, 5);
    let mut cpu = Vec::new();
    for _ in 0..8 {
        let before = e.cpu_time();
        e.send("go");
        let reply = e.recv_within(Duration::from_secs(60));
        cpu.push(e.cpu_time().saturating_sub(before));
        b.play_reply(&reply);
    }
    let worst = cpu.iter().max().unwrap();
    assert!(*worst < Duration::from_millis(150), "CPU per move at 0.05 s: {cpu:?}");
    // The tables (160 MiB) and the board (147 MiB), each within the hash.
    let (rss, peak) = memory_kib(e.pid());
    assert!(peak < (2 * 160 + 40) * 1024, "{rss} KiB resident, peak {peak} KiB, with --hash 160");
}

/// Issue 57, item 4: each helper thread copied the game inside the move and kept the copy
/// outside `hash` (1000 x 1000 at 0.1 s: 16 threads took 5-9 s a move and 824 MB). Now the
/// engine runs only the helpers whose copies fit in a twentieth of the move's time and in the
/// hash, and says so in the log. CPU time of the process (all its threads), not wall time.
#[test]
fn threads_on_a_huge_board_keep_the_time_and_the_hash() {
    let mut e = Engine::spawn_with(&["--hash", "160", "--threads", "16"], &[]);
    e.send("init mnk 1000 1000 5 true 0.1");
    assert_eq!(e.recv_within(Duration::from_secs(120)), "ok");
    let mut b = Board::mnk(1000, 1000, 5);
    let mut cpu = Vec::new();
    for _ in 0..3 {
        let before = e.cpu_time();
        e.send("go");
        let reply = e.recv_within(Duration::from_secs(60));
        cpu.push(e.cpu_time().saturating_sub(before));
        b.play_reply(&reply);
    }
    assert!(*cpu.iter().max().unwrap() < Duration::from_millis(300), "CPU per move at 0.1 s: {cpu:?}");
    let (rss, peak) = memory_kib(e.pid());
    assert!(peak < (2 * 160 + 40) * 1024, "{rss} KiB resident, peak {peak} KiB, with --hash 160");
    e.send("quit");
    e.assert_exits_ok(Duration::from_secs(30));
    let log = e.finish_stderr();
    assert!(log.contains("threads: 1 of the 16 asked"), "{log}");
    // A small board keeps a helper a core.
    let mut e = Engine::spawn_with(&["--threads", "2"], &[]);
    e.expect_ok("init mnk 15 15 5 true 0.1");
    assert!(!e.ask("go").starts_with("error"));
    e.send("quit");
    e.assert_exits_ok(Duration::from_secs(30));
    let log = e.finish_stderr();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(log.contains("threads: "), cores < 2, "{log}");
}

/// CPU hogs (`sh` busy loops, each ended by `timeout` after 300 s at most), each in a process
/// group of its own, killed whole when dropped.
struct Hogs(Vec<std::process::Child>);

impl Hogs {
    fn start(n: usize) -> Hogs {
        use std::os::unix::process::CommandExt;
        use std::process::Stdio;
        Hogs(
            (0..n)
                .map(|_| {
                    std::process::Command::new("timeout")
                        .args(["300", "sh", "-c", "while :; do :; done"])
                        .process_group(0)
                        .stdin(Stdio::null())
                        .stdout(Stdio::null())
                        .stderr(Stdio::null())
                        .spawn()
                        .expect("timeout and sh (coreutils) start a CPU hog")
                })
                .collect(),
        )
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        for h in &mut self.0 {
            let _ = std::process::Command::new("kill").args(["-KILL", "--", &format!("-{}", h.id())]).status();
            let _ = h.wait();
        }
    }
}

/// The replies' times as the engine measured them (its `reply: X ms of Y ms` log lines).
fn measured_replies(log: &str) -> Vec<(f64, f64)> {
    log.lines()
        .filter_map(|l| {
            let rest = &l[l.find("reply: ")? + 7..];
            let mut words = rest.split_whitespace();
            let elapsed = words.next()?.parse().ok()?;
            let timeout = words.nth(2)?.parse().ok()?;
            Some((elapsed, timeout))
        })
        .collect()
}

/// Issue 57, item 7: at 0.1 s beside fuzzers the worst reply took 1.46-1.55 times the budget.
/// The engine measures each reply (from its line read to its write) and its delay past the
/// search's plan, and widens its margin for the rest of the game when a reply comes late. Beside
/// two CPU hogs this test starts (on a machine others load too), 30 replies at 0.3 s: every one
/// is measured, a late one widens the margin, and after the first five at most one reply is over
/// the time by the engine's own measure (a single stall of the machine longer than the whole
/// margin cannot be helped), none by half the time. Only the engine's measures are asserted.
#[test]
fn beside_cpu_hogs_replies_widen_the_margin_and_hold_the_time() {
    let _hogs = Hogs::start(2);
    let mut e = Engine::spawn_with(&[], &[("RUST_LOG", "info")]);
    e.expect_ok("init mnk 19 19 5 true 0.3");
    let mut replies = 0;
    while replies < 30 {
        let reply = e.ask("go");
        if reply.starts_with("error") {
            e.expect_ok("init mnk 19 19 5 true 0.3");
            continue;
        }
        replies += 1;
    }
    e.send("quit");
    e.assert_exits_ok(Duration::from_secs(30));
    let log = e.finish_stderr();
    let measured = measured_replies(&log);
    assert_eq!(measured.len(), 30, "{log}");
    let over: Vec<&(f64, f64)> = measured[5..].iter().filter(|(elapsed, timeout)| elapsed > timeout).collect();
    assert!(over.len() <= 1, "replies over the time after the first five: {over:?} of {measured:?}");
    assert!(over.iter().all(|(elapsed, timeout)| *elapsed < 1.5 * timeout), "{measured:?}");
    let late = log.lines().any(|l| l.contains("ms past its plan") && !l.contains(" 0.0 ms past its plan"));
    // (The widening's line is at info level under 10 ms, at warn above.)
    assert!(!late || log.contains("the margin is widened by"), "a late reply and no widening: {log}");
}
