//! A short protocol fuzzer (issue 39): seeded random lines, good and bad, for every game family
//! in protocol mode, for `--protocol gomocup` and for `--protocol mkagent`. What must hold,
//! whatever the lines: no panic (nothing `panicked` on stderr, no `internal error` reply), no
//! hang (every command of the line protocol gets its one reply; the process exits at end of
//! input), and no reply to a search later than its TIMEOUT plus [`SLACK`] (boards within the
//! supported sizes: a stall shows as seconds; the margins themselves are measured by
//! scripts/reply-times.sh, not here, since a test must not depend on the machine's load).
//!
//! Each test's seed is fixed: a failure is reproduced by running it again (its transcript is in
//! the failure message). `FUZZ_LINES=N` sets the number of lines per session (default 150).

mod common;

use common::*;
use std::time::{Duration, Instant};

/// A search reply may come this late after its TIMEOUT and still pass (a loaded machine delays
/// it; an engine that ignores its clock takes seconds more).
const SLACK: Duration = Duration::from_millis(2500);

fn lines_per_session() -> usize {
    std::env::var("FUZZ_LINES").ok().and_then(|v| v.parse().ok()).unwrap_or(150)
}

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

/// A random number text: small ones mostly, some edge cases.
fn number(rng: &mut Rng, max: usize) -> String {
    match rng.below(12) {
        0 => pick(rng, &["-1", "+3", "0", "99999999999999999999", "1e3", "", "x", "1.5"]).to_string(),
        _ => rng.below(max + 1).to_string(),
    }
}

/// Move text of any game, right or wrong: cells, columns, pits, checkers paths, swap, garbage.
fn random_move(rng: &mut Rng, size: usize) -> String {
    let n = |rng: &mut Rng| number(rng, size);
    match rng.below(9) {
        0 => format!("{} {}", n(rng), n(rng)),
        1 => format!("{},{}", n(rng), n(rng)),
        2 => n(rng),
        3 => format!("{}-{}", rng.below(34), rng.below(34)),
        4 => format!("{}x{}x{}", rng.below(34), rng.below(34), rng.below(34)),
        5 => pick(rng, &["swap", "SWAP", "pass", "+1", "16, 5", ",5 6", "1 2 3", "a1", "\t"]).to_string(),
        6 => format!("{} {}", rng.below(size.max(1)), rng.below(size.max(1))),
        7 => rng.below(size.max(1) + 1).to_string(),
        _ => (0..rng.below(12)).map(|_| (b'!' + rng.below(90) as u8) as char).collect(),
    }
}

/// One game of `family` at a short TIMEOUT (sizes within what the protocol supports, kept small
/// so that the tests stay short), or a malformed `init`.
fn random_init(rng: &mut Rng, family: &str) -> (String, Duration) {
    let t = pick(rng, &["0.05", "0.1", "0.2"]);
    let first = pick(rng, &["true", "false", "1", "0", "first", "second"]);
    let game = match family {
        "mnk" => {
            let (m, n) = (1 + rng.below(19), 1 + rng.below(19));
            let k = [1 + rng.below(7), 255][usize::from(rng.below(10) == 0)];
            let blocked = if rng.below(3) == 0 {
                format!(" blocked {},{} {},{}", rng.below(m), rng.below(n), rng.below(m), rng.below(n))
            } else {
                String::new()
            };
            return (format!("init mnk {m} {n} {k} {first} {t}{blocked}"), secs(t));
        }
        "cx" => {
            let (m, n) = (1 + rng.below(12), 1 + rng.below(12));
            let x = [1 + rng.below(7), 64, 255][rng.below(3).min(2) * usize::from(rng.below(4) == 0)];
            format!("cx {m} {n} {x}")
        }
        "kalah" => {
            let options = pick(rng, &["", " pie", " capture empty", " capture standard pie"]);
            format!("kalah {} {}{options}", 1 + rng.below(6), 1 + rng.below(6))
        }
        _ => pick(rng, &["checkers english", "checkers house", "draughts english"]).to_string(),
    };
    if rng.below(8) == 0 {
        // Malformed: a word dropped or a bad word put in.
        let bad =
            pick(rng, &["init", "init {game}", "init {game} maybe 1", "init {game} true -1", "init {game} true 0"]);
        return (bad.replace("{game}", &game), secs(t));
    }
    (format!("init {game} {first} {t}"), secs(t))
}

fn secs(t: &str) -> Duration {
    Duration::from_secs_f64(t.parse().unwrap())
}

/// A session of the line protocol on `family`'s games: every line gets one reply, searches within
/// their TIMEOUT (plus SLACK), no panic, and a clean exit at end of input.
fn fuzz_protocol(family: &str, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut e = Engine::spawn_with(&["--hash", "8"], &[]);
    let mut timeout = Duration::from_secs(10);
    let mut slowest = (Duration::ZERO, String::new());
    for i in 0..lines_per_session() {
        let mut init_timeout = None;
        let line = match (i, rng.below(20)) {
            (0, _) | (_, 0) => {
                let (line, t) = random_init(&mut rng, family);
                init_timeout = Some(t);
                line
            }
            (_, 1..=6) => "go".to_string(),
            (_, 7..=11) => format!("move {}", random_move(&mut rng, 20)),
            (_, 12) => format!(
                "position {}",
                (0..rng.below(5)).map(|_| random_move(&mut rng, 20)).collect::<Vec<_>>().join(" ")
            ),
            (_, 13) => {
                let key = pick(&mut rng, &["level", "player", "margin", "hash", "seed", "threads", "bogus"]);
                let value = match key {
                    "player" => pick(&mut rng, &["search", "random", "l1", "ab3", "ab64", "ab0", "abc"]).to_string(),
                    "level" => pick(&mut rng, &["easy", "max", "3", "11"]).to_string(),
                    "hash" => pick(&mut rng, &["1", "4", "8", "0"]).to_string(),
                    "threads" => pick(&mut rng, &["1", "2", "0"]).to_string(),
                    _ => number(&mut rng, 400),
                };
                format!("set {key} {value}")
            }
            (_, 14) => pick(&mut rng, &["name", "about", "help", "", "   ", "GO", "go now"]).to_string(),
            (_, 15) => format!("init {}", random_move(&mut rng, 30)),
            _ => random_move(&mut rng, 20),
        };
        if line.trim().is_empty() {
            continue;
        }
        let t = Instant::now();
        e.send(&line);
        let reply = e.recv_within(timeout + Duration::from_secs(60));
        let took = t.elapsed();
        if reply == "ok" {
            timeout = init_timeout.unwrap_or(timeout);
        }
        assert!(!reply.contains("internal error"), "'{line}' -> '{reply}'; transcript:\n{}", e.transcript());
        let searched = !reply.starts_with("error") && (line == "go" || line.starts_with("move "));
        if searched {
            assert!(
                took <= timeout + SLACK,
                "'{line}' took {took:?} at TIMEOUT {timeout:?}; transcript:\n{}",
                e.transcript()
            );
            if took > slowest.0 {
                slowest = (took, line.clone());
            }
        }
    }
    e.close_stdin();
    e.assert_exits_ok(Duration::from_secs(30));
    let stderr = e.finish_stderr();
    assert!(!stderr.contains("panicked"), "{stderr}");
    eprintln!("{family} seed {seed}: slowest search reply {:?} ('{}')", slowest.0, slowest.1);
}

#[test]
fn fuzz_protocol_mnk() {
    fuzz_protocol("mnk", 391);
}

#[test]
fn fuzz_protocol_connectx() {
    fuzz_protocol("cx", 392);
}

#[test]
fn fuzz_protocol_kalah() {
    fuzz_protocol("kalah", 393);
}

#[test]
fn fuzz_protocol_checkers() {
    fuzz_protocol("checkers", 394);
}

/// Gomocup: after each command, `ABOUT` (whose reply starts `name=`) marks where its replies
/// end, so that commands with no reply (INFO, BOARD lines) cannot hang the test. A move's reply
/// comes within `timeout_turn` (plus SLACK).
#[test]
fn fuzz_gomocup() {
    let mut rng = Rng::new(395);
    let mut e = Engine::spawn_with(&["--protocol", "gomocup", "--hash", "8"], &[]);
    let mut turn = Duration::from_secs(30);
    let mut size = 15;
    for i in 0..lines_per_session() {
        let xy = |rng: &mut Rng, size: usize| format!("{},{}", number(rng, size), number(rng, size));
        let mut lines: Vec<String> = match (i, rng.below(16)) {
            (0, _) | (_, 0) => {
                size = pick(&mut rng, &["5", "10", "15", "20", "4", "1001", "x"]).parse().unwrap_or(15);
                vec![format!("START {size}")]
            }
            (_, 1) => vec![format!("RECTSTART {},{}", 5 + rng.below(20), 5 + rng.below(20))],
            (_, 2) => {
                let ms = pick(&mut rng, &["50", "100", "200", "0", "x"]);
                if let Ok(ms) = ms.parse::<u64>() {
                    turn = Duration::from_millis(ms.max(1));
                }
                vec![format!("INFO timeout_turn {ms}")]
            }
            (_, 3) => vec![format!(
                "INFO {} {}",
                pick(&mut rng, &["max_memory", "timeout_match", "time_left", "rule", "game_type", "bogus"]),
                pick(&mut rng, &["0", "1", "83886080", "1000", "-5", "x"])
            )],
            (_, 4) => vec!["BEGIN".into()],
            (_, 5..=9) => vec![format!("TURN {}", xy(&mut rng, size))],
            (_, 10) => {
                let mut block = vec!["BOARD".to_string()];
                for _ in 0..rng.below(6) {
                    block.push(format!("{},{}", xy(&mut rng, size), 1 + rng.below(3)));
                }
                block.push("DONE".into());
                block
            }
            (_, 11) => vec![format!("TAKEBACK {}", xy(&mut rng, size))],
            (_, 12) => vec!["RESTART".into()],
            _ => vec![random_move(&mut rng, 20)],
        };
        lines.push("ABOUT".into());
        let t = Instant::now();
        for line in &lines {
            e.send(line);
        }
        let mut first_reply = None;
        loop {
            let reply = e.recv_within(turn + Duration::from_secs(60));
            if first_reply.is_none() {
                first_reply = Some(t.elapsed());
            }
            assert!(!reply.contains("internal error"), "{lines:?} -> '{reply}'; transcript:\n{}", e.transcript());
            if reply.starts_with("name=") {
                break;
            }
        }
        let thinks = lines.iter().any(|l| l == "BEGIN" || l.starts_with("TURN") || l == "DONE");
        if thinks {
            let took = first_reply.unwrap_or_default();
            assert!(took <= turn + SLACK, "{lines:?} took {took:?}; transcript:\n{}", e.transcript());
        }
    }
    e.send("END");
    e.assert_exits_ok(Duration::from_secs(30));
    let stderr = e.finish_stderr();
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The Manchester Kalah agent: random messages, right and wrong. It answers only when it is to
/// move, so there is no marker: each message gets a moment for its replies; every reply must be a
/// move, the agent must outlive every bad message, and it must exit at `END` at once.
#[test]
fn fuzz_mkagent() {
    let mut rng = Rng::new(396);
    let log = std::env::temp_dir().join(format!("boardbot-fuzz-mkagent-{}.log", std::process::id()));
    let log_arg = log.to_string_lossy().to_string();
    let mut e = Engine::spawn_with(&["--protocol", "mkagent", "--clock", "20", "--log", &log_arg], &[]);
    let state = |rng: &mut Rng| -> String {
        match rng.below(3) {
            0 => "7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0".into(),
            1 => "7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1".into(),
            _ => (0..(14 + rng.below(4))).map(|_| number(rng, 14)).collect::<Vec<_>>().join(","),
        }
    };
    for _ in 0..lines_per_session() {
        let line = match rng.below(10) {
            0 => pick(&mut rng, &["START;South", "START;North", "START;East", "START"]).to_string(),
            1..=6 => format!(
                "CHANGE;{};{};{}",
                pick(&mut rng, &["1", "2", "3", "4", "5", "6", "7", "SWAP", "0", "8", "+1"]),
                state(&mut rng),
                pick(&mut rng, &["YOU", "OPP", "END", "MAYBE"])
            ),
            7 => random_move(&mut rng, 8),
            _ => format!("CHANGE;{}", random_move(&mut rng, 8)),
        };
        e.send(&line);
        // Replies, if any: each is a move.
        while let Ok(reply) = e.try_recv(Duration::from_millis(30)) {
            assert!(
                reply == "SWAP"
                    || reply
                        .strip_prefix("MOVE;")
                        .is_some_and(|n| matches!(n, "1" | "2" | "3" | "4" | "5" | "6" | "7")),
                "'{line}' -> '{reply}'; transcript:\n{}",
                e.transcript()
            );
        }
        assert!(
            e.wait_exit(Duration::ZERO).is_none(),
            "the agent exited after '{line}'; transcript:\n{}",
            e.transcript()
        );
    }
    e.send("END");
    let t = Instant::now();
    while e.wait_exit(Duration::from_millis(10)).is_none() {
        // Replies still coming for the last messages are drained; the agent must end soon.
        let _ = e.try_recv(Duration::from_millis(10));
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "the agent did not exit at END; transcript:\n{}",
            e.transcript()
        );
    }
    let text = std::fs::read_to_string(&log).unwrap_or_default() + &e.finish_stderr();
    let _ = std::fs::remove_file(&log);
    assert!(!text.contains("panicked"), "{text}");
}
