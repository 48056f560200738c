//! Shared helpers of the integration tests: a driver for the real `boardbot` binary (spawn, send
//! lines, read replies with a timeout so that a hung binary fails the test instead of hanging it)
//! and an independent referee (a plain board model with its own legality and win checks).
#![allow(dead_code)]

pub mod server;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_boardbot");

/// Longest wait for a reply that involves no long search (generous: the machine may be loaded).
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(5);

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_thread: Option<JoinHandle<()>>,
    /// Everything sent (`> `) and received (`< `), for failure messages.
    log: Vec<String>,
    /// Every line read from stdout so far.
    received: Vec<String>,
}

impl Engine {
    /// The engine with default options and no RUST_LOG.
    pub fn spawn() -> Engine {
        Engine::spawn_with(&[], &[])
    }

    /// The engine with command-line `args` and extra environment `env`.
    pub fn spawn_with(args: &[&str], env: &[(&str, &str)]) -> Engine {
        let mut cmd = Command::new(BIN);
        cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        cmd.env_remove("RUST_LOG");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("spawn boardbot");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // A line that does not end in '\n' is passed on as it is and shows up in
                        // assertions as such (`\n` kept to tell it apart).
                        let line = match buf.strip_suffix(b"\n") {
                            Some(l) => String::from_utf8_lossy(l).into_owned(),
                            None => format!("{}<no newline>", String::from_utf8_lossy(&buf)),
                        };
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        // Always drain stderr, or a chatty engine (RUST_LOG=info) would block on a full pipe.
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut err_pipe = child.stderr.take().expect("stderr");
        let sink = stderr.clone();
        let stderr_thread = std::thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            loop {
                match err_pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => sink.lock().unwrap().extend_from_slice(&chunk[..n]),
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            stderr,
            stderr_thread: Some(stderr_thread),
            log: Vec::new(),
            received: Vec::new(),
        }
    }

    pub fn transcript(&self) -> String {
        let tail: Vec<&String> = self.log.iter().rev().take(40).collect();
        let mut s: Vec<String> = tail.into_iter().rev().map(|l| truncate(l, 200)).collect();
        s.push(format!("[stderr tail] {}", truncate(&tail_of(&self.stderr_text(), 2000), 2000)));
        s.join("\n")
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The CPU time (user and system) the engine's process has used so far: unlike the time a
    /// reply takes, it does not grow when other processes load the machine.
    pub fn cpu_time(&self) -> Duration {
        cpu_time_of(self.child.id())
    }

    /// Writes raw bytes to the engine's input and flushes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.log.push(format!("> {}", String::from_utf8_lossy(bytes).trim_end()));
        let stdin = self.stdin.as_mut().expect("stdin already closed");
        // An engine that has quit closes its input: a broken pipe is then no error of the test
        // (what it answered, and how it exited, is checked by the caller).
        let written = stdin.write_all(bytes).and_then(|_| stdin.flush());
        match written {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => self.log.push("(input closed)".into()),
            other => other.expect("write to boardbot"),
        }
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_raw(&bytes);
    }

    /// The next output line, or why there was none within `timeout`.
    pub fn try_recv(&mut self, timeout: Duration) -> Result<String, RecvTimeoutError> {
        let r = self.lines.recv_timeout(timeout);
        if let Ok(line) = &r {
            self.log.push(format!("< {line}"));
            self.received.push(line.clone());
        }
        r
    }

    /// The next output line within `timeout`; panics (fails the test) otherwise.
    pub fn recv_within(&mut self, timeout: Duration) -> String {
        match self.try_recv(timeout) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                panic!("no reply within {timeout:?}; transcript:\n{}", self.transcript())
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!("engine closed its output; transcript:\n{}", self.transcript())
            }
        }
    }

    pub fn recv(&mut self) -> String {
        self.recv_within(REPLY_TIMEOUT)
    }

    /// Sends `line` and returns the reply.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.recv()
    }

    /// Sends `line` and asserts the reply.
    pub fn expect(&mut self, line: &str, reply: &str) {
        let got = self.ask(line);
        assert_eq!(got, reply, "reply to '{line}'; transcript:\n{}", self.transcript());
    }

    pub fn expect_ok(&mut self, line: &str) {
        self.expect(line, "ok");
    }

    /// Asserts that the engine is alive and has no unread output: `name` gets its reply next.
    pub fn assert_in_sync(&mut self) {
        let got = self.ask("name");
        assert!(got.starts_with("name boardbot "), "expected the reply to 'name', got '{got}'; transcript:\n{}", {
            self.transcript()
        });
    }

    /// Sends raw bytes that form one input line and asserts exactly one `error ...` reply: the
    /// reply is an error, and the next reply belongs to the next command. Returns the error text.
    pub fn expect_error_raw(&mut self, bytes: &[u8]) -> String {
        self.send_raw(bytes);
        let got = self.recv();
        assert!(
            got.starts_with("error ") && got.len() > "error ".len(),
            "expected 'error <reason>' for {:?}, got '{}'; transcript:\n{}",
            truncate(&String::from_utf8_lossy(bytes), 100),
            truncate(&got, 200),
            self.transcript()
        );
        self.assert_in_sync();
        got
    }

    /// Sends `line` and asserts exactly one `error ...` reply; returns the error text.
    pub fn expect_error(&mut self, line: &str) -> String {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.expect_error_raw(&bytes)
    }

    /// Asserts that no output line arrives within `d`.
    pub fn expect_silence(&mut self, d: Duration) {
        if let Ok(line) = self.try_recv(d) {
            panic!("unexpected output '{line}'; transcript:\n{}", self.transcript());
        }
    }

    /// Closes the engine's input (end of input).
    pub fn close_stdin(&mut self) {
        self.log.push("> <end of input>".into());
        self.stdin = None;
    }

    /// Waits up to `timeout` for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Asserts that the process exits with status 0 within `timeout`.
    pub fn assert_exits_ok(&mut self, timeout: Duration) {
        match self.wait_exit(timeout) {
            Some(status) => assert!(status.success(), "exit status {status}; transcript:\n{}", self.transcript()),
            None => panic!("still running {timeout:?} later; transcript:\n{}", self.transcript()),
        }
    }

    /// All output lines still to come until the output closes (the process must be exiting).
    pub fn remaining_lines(&mut self, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.try_recv(left) {
                Ok(line) => out.push(line),
                Err(RecvTimeoutError::Disconnected) => return out,
                Err(RecvTimeoutError::Timeout) => panic!("output still open; transcript:\n{}", self.transcript()),
            }
        }
    }

    /// Every line read from the engine's stdout so far.
    pub fn received(&self) -> &[String] {
        &self.received
    }

    /// Everything the engine wrote to stderr so far (all of it once it has exited).
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Waits for the stderr pipe to close (after the process exited) and returns all of it.
    pub fn finish_stderr(&mut self) -> String {
        if let Some(t) = self.stderr_thread.take() {
            t.join().unwrap();
        }
        self.stderr_text()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(n).collect::<String>())
    }
}

fn tail_of(s: &str, n: usize) -> String {
    let chars: Vec<char> = s.chars().collect();
    chars[chars.len().saturating_sub(n)..].iter().collect()
}

// ---------------------------------------------------------------------------------------------
// The referee: an independent, deliberately simple model of both games.

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Mnk,
    Cx,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Res {
    /// 1 = first player, 2 = second player.
    Win(u8),
    Draw,
}

impl Res {
    /// The protocol's text for this result.
    pub fn end_line(self) -> &'static str {
        match self {
            Res::Win(1) => "end first wins",
            Res::Win(_) => "end second wins",
            Res::Draw => "end draw",
        }
    }
}

const EMPTY: u8 = 0;
const BLOCKED: u8 = 3;

/// A board. Moves are numbers: a cell index `row * cols + col` for mnk, a column for cx.
#[derive(Clone, Debug)]
pub struct Board {
    pub kind: Kind,
    pub rows: usize,
    pub cols: usize,
    pub k: usize,
    /// 0 empty, 1 first, 2 second, 3 blocked; row 0 is the top.
    pub cells: Vec<u8>,
    pub result: Option<Res>,
    pub moves: usize,
    /// Free cells left.
    pub empty: usize,
}

impl Board {
    pub fn mnk(rows: usize, cols: usize, k: usize) -> Board {
        let n = rows * cols;
        Board { kind: Kind::Mnk, rows, cols, k, cells: vec![EMPTY; n], result: None, moves: 0, empty: n }
    }

    pub fn mnk_blocked(rows: usize, cols: usize, k: usize, blocked: &[(usize, usize)]) -> Board {
        let mut b = Board::mnk(rows, cols, k);
        for &(r, c) in blocked {
            if b.cells[r * cols + c] == EMPTY {
                b.cells[r * cols + c] = BLOCKED;
                b.empty -= 1;
            }
        }
        b
    }

    pub fn cx(rows: usize, cols: usize, k: usize) -> Board {
        let n = rows * cols;
        Board { kind: Kind::Cx, rows, cols, k, cells: vec![EMPTY; n], result: None, moves: 0, empty: n }
    }

    /// The `init` line for this board (without blocked cells).
    pub fn init_line(&self, engine_first: bool, timeout: &str) -> String {
        let kind = match self.kind {
            Kind::Mnk => "mnk",
            Kind::Cx => "cx",
        };
        format!("init {kind} {} {} {} {engine_first} {timeout}", self.rows, self.cols, self.k)
    }

    /// 1 or 2: the side to move.
    pub fn to_move(&self) -> u8 {
        if self.moves.is_multiple_of(2) {
            1
        } else {
            2
        }
    }

    pub fn get(&self, r: usize, c: usize) -> u8 {
        self.cells[r * self.cols + c]
    }

    /// The row a piece dropped in column `c` lands on (the highest free row index).
    pub fn landing_row(&self, c: usize) -> Option<usize> {
        (0..self.rows).rev().find(|&r| self.get(r, c) == EMPTY)
    }

    pub fn legal(&self) -> Vec<usize> {
        if self.result.is_some() {
            return Vec::new();
        }
        match self.kind {
            Kind::Mnk => (0..self.cells.len()).filter(|&i| self.cells[i] == EMPTY).collect(),
            Kind::Cx => (0..self.cols).filter(|&c| self.get(0, c) == EMPTY).collect(),
        }
    }

    pub fn is_legal(&self, mv: usize) -> bool {
        self.result.is_none()
            && match self.kind {
                Kind::Mnk => mv < self.cells.len() && self.cells[mv] == EMPTY,
                Kind::Cx => mv < self.cols && self.get(0, mv) == EMPTY,
            }
    }

    /// The cell a move fills.
    pub fn cell_of(&self, mv: usize) -> usize {
        match self.kind {
            Kind::Mnk => mv,
            Kind::Cx => self.landing_row(mv).expect("column not full") * self.cols + mv,
        }
    }

    /// Plays a legal move and updates the result.
    pub fn play(&mut self, mv: usize) {
        assert!(self.is_legal(mv), "referee: illegal move {}", self.text(mv));
        let cell = self.cell_of(mv);
        let side = self.to_move();
        self.cells[cell] = side;
        self.moves += 1;
        self.empty -= 1;
        if self.wins_at(cell, side) {
            self.result = Some(Res::Win(side));
        } else if self.empty == 0 {
            self.result = Some(Res::Draw);
        }
    }

    /// Whether `side` has K in a row through `cell`.
    fn wins_at(&self, cell: usize, side: u8) -> bool {
        let (r0, c0) = ((cell / self.cols) as isize, (cell % self.cols) as isize);
        for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
            let mut n = 1;
            for sign in [1isize, -1] {
                let (mut r, mut c) = (r0 + sign * dr, c0 + sign * dc);
                while r >= 0
                    && c >= 0
                    && (r as usize) < self.rows
                    && (c as usize) < self.cols
                    && self.get(r as usize, c as usize) == side
                {
                    n += 1;
                    r += sign * dr;
                    c += sign * dc;
                }
            }
            if n >= self.k {
                return true;
            }
        }
        false
    }

    /// The moves with which `side` would win at once if it were to move now.
    pub fn winning_moves(&self, side: u8) -> Vec<usize> {
        self.legal()
            .into_iter()
            .filter(|&mv| {
                let cell = self.cell_of(mv);
                let mut b = self.clone();
                b.cells[cell] = side;
                b.wins_at(cell, side)
            })
            .collect()
    }

    /// The protocol text of a move: `ROW COL` for mnk, the column for cx.
    pub fn text(&self, mv: usize) -> String {
        match self.kind {
            Kind::Mnk => format!("{} {}", mv / self.cols, mv % self.cols),
            Kind::Cx => mv.to_string(),
        }
    }

    /// The `ROW,COL` text of an mnk move.
    pub fn comma_text(&self, mv: usize) -> String {
        format!("{},{}", mv / self.cols, mv % self.cols)
    }

    /// Reads a move as the engine must write it (`ROW COL` or a column, nothing else), without
    /// checking legality.
    pub fn parse_reply(&self, s: &str) -> Result<usize, String> {
        let num = |w: &str| -> Result<usize, String> {
            if w.is_empty() || !w.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("'{s}' is not a move"));
            }
            w.parse::<usize>().map_err(|_| format!("'{s}' is not a move"))
        };
        match self.kind {
            Kind::Mnk => {
                let parts: Vec<&str> = s.split(' ').collect();
                if parts.len() != 2 {
                    return Err(format!("'{s}' is not 'ROW COL'"));
                }
                let (r, c) = (num(parts[0])?, num(parts[1])?);
                if r >= self.rows || c >= self.cols {
                    return Err(format!("'{s}' is off the board"));
                }
                Ok(r * self.cols + c)
            }
            Kind::Cx => {
                let c = num(s)?;
                if c >= self.cols {
                    return Err(format!("'{s}' is off the board"));
                }
                Ok(c)
            }
        }
    }

    /// Parses an engine reply, asserts it is a legal move here, and plays it.
    pub fn play_reply(&mut self, reply: &str) -> usize {
        let mv = self.parse_reply(reply).unwrap_or_else(|e| panic!("bad engine reply: {e}\n{}", self.show()));
        assert!(self.is_legal(mv), "engine played an illegal move '{reply}' on\n{}", self.show());
        self.play(mv);
        mv
    }

    pub fn show(&self) -> String {
        let mut s = String::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                s.push(match self.get(r, c) {
                    1 => 'X',
                    2 => 'O',
                    BLOCKED => '#',
                    _ => '.',
                });
            }
            s.push('\n');
        }
        s
    }
}

// ---------------------------------------------------------------------------------------------
// Opponents and a small seeded generator (independent of the engine's own).

/// SplitMix64.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x1234_5678_9ABC_DEF0)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn pick(&mut self, v: &[usize]) -> usize {
        v[self.below(v.len())]
    }
}

pub type Opponent<'a> = Box<dyn FnMut(&Board) -> usize + 'a>;

/// Any legal move, uniformly.
pub fn random_opponent(seed: u64) -> Opponent<'static> {
    let mut rng = Rng::new(seed);
    Box::new(move |b: &Board| rng.pick(&b.legal()))
}

/// The first legal move (deterministic).
pub fn first_legal_opponent() -> Opponent<'static> {
    Box::new(|b: &Board| b.legal()[0])
}

/// Takes an immediate win, else blocks an immediate loss, else plays a random move (near the
/// stones on an mnk board, to keep the game tight).
pub fn tactical_opponent(seed: u64) -> Opponent<'static> {
    let mut rng = Rng::new(seed);
    Box::new(move |b: &Board| {
        let me = b.to_move();
        let win = b.winning_moves(me);
        if !win.is_empty() {
            return rng.pick(&win);
        }
        let block = b.winning_moves(3 - me);
        if !block.is_empty() {
            return rng.pick(&block);
        }
        let legal = b.legal();
        if b.kind == Kind::Mnk {
            let near: Vec<usize> = legal
                .iter()
                .copied()
                .filter(|&m| {
                    let (r, c) = ((m / b.cols) as isize, (m % b.cols) as isize);
                    (-1..=1isize).any(|dr| {
                        (-1..=1isize).any(|dc| {
                            let (rr, cc) = (r + dr, c + dc);
                            rr >= 0
                                && cc >= 0
                                && (rr as usize) < b.rows
                                && (cc as usize) < b.cols
                                && matches!(b.get(rr as usize, cc as usize), 1 | 2)
                        })
                    })
                })
                .collect();
            if !near.is_empty() {
                return rng.pick(&near);
            }
        }
        rng.pick(&legal)
    })
}

/// Plays one game to its end: `init` must have been sent (with the engine moving first if
/// `engine_first`), and `board` must be the same position. Every engine reply is checked to be a
/// legal move, and every game-ending opponent move to get the right `end` line. Returns the
/// result and the engine's reply latencies (from the write of the command to the read of the
/// reply).
pub fn play_out(engine: &mut Engine, board: &mut Board, engine_first: bool, opponent: &mut Opponent) -> PlayedGame {
    let mut latencies = Vec::new();
    let mut timed_ask = |engine: &mut Engine, line: &str| {
        let t = Instant::now();
        let reply = engine.ask(line);
        latencies.push(t.elapsed());
        reply
    };
    if engine_first == (board.to_move() == 1) && board.result.is_none() {
        let reply = timed_ask(engine, "go");
        board.play_reply(&reply);
    }
    while board.result.is_none() {
        let mv = opponent(board);
        board.play(mv);
        let line = format!("move {}", board.text(mv));
        let reply = timed_ask(engine, &line);
        match board.result {
            Some(res) => {
                assert_eq!(reply, res.end_line(), "reply to the game-ending '{line}' on\n{}", board.show());
            }
            None => {
                assert_ne!(reply, "ok", "'ok' after '{line}' although the engine is to move");
                board.play_reply(&reply);
            }
        }
    }
    let engine_side = if engine_first { 1 } else { 2 };
    PlayedGame { result: board.result.unwrap(), engine_side, latencies }
}

pub struct PlayedGame {
    pub result: Res,
    /// 1 or 2.
    pub engine_side: u8,
    pub latencies: Vec<Duration>,
}

impl PlayedGame {
    pub fn engine_lost(&self) -> bool {
        self.result == Res::Win(3 - self.engine_side)
    }
    pub fn engine_won(&self) -> bool {
        self.result == Res::Win(self.engine_side)
    }
}

/// Starts a game on a fresh board: sends `init` and checks `ok`.
pub fn start(engine: &mut Engine, board: &Board, engine_first: bool, timeout: &str) {
    engine.expect_ok(&board.init_line(engine_first, timeout));
}

/// The CPU time (user and system, all threads) process `pid` has used so far, from
/// /proc/PID/stat.
pub fn cpu_time_of(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc/PID/stat");
    // The fields after the command name (which may hold blanks), from field 3 (state) on:
    // utime and stime are fields 14 and 15, in clock ticks.
    let rest = &stat[stat.rfind(')').expect("a stat line") + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // /proc counts in USER_HZ, 100 a second on Linux whatever the kernel's own tick.
    Duration::from_millis(ticks * 10)
}

/// The resident memory of process `pid` now and at its peak, in KiB (VmRSS and VmHWM of
/// /proc/PID/status).
pub fn memory_kib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc/PID/status");
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}
