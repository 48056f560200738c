//! An engine run as a child process speaking boardbot's line protocol (protocol.md) or the
//! Gomocup (pbrain) protocol ([`super::pbrain`]) on its stdin/stdout. A reader thread stamps every line of stdout with the instant it was read, so a
//! reply's time runs from the write of the request to the read of the reply; stderr is kept
//! (its last lines explain a crash) and optionally echoed.

use super::adapter::{EngineAdapter, Fault, FaultKind, GameSetup, Reply};
use super::pbrain;
use crate::game::registry::GameSpec;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Lines of stderr kept for the report of a crash.
const STDERR_TAIL: usize = 20;
/// How long `quit` waits for the engine to exit before killing it.
const QUIT_GRACE: Duration = Duration::from_secs(1);

/// The protocol an engine process speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// boardbot's line protocol (protocol.md).
    Boardbot,
    /// The Gomocup (pbrain) protocol of gomoku engines.
    Pbrain,
}

/// How to run an engine process.
#[derive(Clone, Debug)]
pub struct ProcessConfig {
    pub name: String,
    /// Program and arguments.
    pub argv: Vec<String>,
    pub protocol: Protocol,
    /// Send `set seed N` before each game (boardbot's own players, whose random choices take a seed).
    pub seeded: bool,
    /// Time allowed for the replies to `set` and `init` (including the start of the process).
    pub setup_timeout: Duration,
    /// Echo the engine's stderr to ours, each line prefixed with the engine's name.
    pub echo_stderr: bool,
}

enum Line {
    Text(String, Instant),
    Eof,
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        // The engine runs in a process group of its own (see `spawn`): kill the whole group, so
        // that nothing it started (a shell's children, say) outlives it.
        #[cfg(unix)]
        {
            // The system call rather than a `kill` process: no fork and exec at every engine's
            // end, no dependence on PATH or on the process limit (docs/testing.md, "Engines'
            // processes"). The group's id is the child's pid; a group already gone gives ESRCH.
            if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
                // SAFETY: killpg only sends a signal; it touches no memory of this process.
                let _ = unsafe { libc::killpg(group, libc::SIGKILL) };
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A child process speaking the protocol.
pub struct ProcessEngine {
    config: ProcessConfig,
    running: Option<Running>,
    /// A pbrain engine's opening stones (`x,y,f` lines), sent in a BOARD command with the first
    /// move asked for in the game.
    opening_board: Vec<String>,
}

impl ProcessEngine {
    pub fn new(config: ProcessConfig) -> ProcessEngine {
        ProcessEngine { config, running: None, opening_board: Vec::new() }
    }

    pub fn config(&self) -> &ProcessConfig {
        &self.config
    }

    fn spawn(&self) -> Result<Running, Fault> {
        let (program, args) =
            self.config.argv.split_first().ok_or_else(|| Fault::new(FaultKind::Crash, "empty engine command"))?;
        let mut command = Command::new(program);
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Fault::new(FaultKind::Crash, format!("cannot start '{}': {e}", self.config.argv.join(" "))))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(text) = read_line(&mut reader) {
                if tx.send(Line::Text(text, Instant::now())).is_err() {
                    return;
                }
            }
            let _ = tx.send(Line::Eof);
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr_tail.clone();
        let echo = self.config.echo_stderr.then(|| self.config.name.clone());
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            while let Some(text) = read_line(&mut reader) {
                if let Some(name) = &echo {
                    eprintln!("[{name}] {text}");
                }
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                if tail.len() == STDERR_TAIL {
                    tail.pop_front();
                }
                tail.push_back(text);
            }
        });
        Ok(Running { child, stdin, lines, stderr_tail })
    }

    /// Why the engine stopped answering: exit status and the last line of stderr.
    fn crash(&mut self, what: &str) -> Fault {
        let Some(running) = self.running.as_mut() else { return Fault::new(FaultKind::Crash, "not running") };
        // The pipe closes a moment before the process is reaped.
        let deadline = Instant::now() + Duration::from_millis(200);
        let status = loop {
            match running.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                _ => break None,
            }
        };
        let mut detail = match status {
            Some(status) => format!("{what}: engine exited ({status})"),
            None => format!("{what}: engine closed its output"),
        };
        let tail = running.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(last) = tail.back() {
            detail.push_str(&format!("; last stderr line: {last}"));
        }
        Fault::new(FaultKind::Crash, detail)
    }

    /// Whether `line` is chatter of the engine's protocol (pbrain's MESSAGE and DEBUG), not a reply.
    fn is_chatter(&self, line: &str) -> bool {
        self.config.protocol == Protocol::Pbrain && pbrain::is_chatter(line)
    }

    /// Writes `line` to the engine.
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let running = self.running.as_mut().ok_or_else(|| Fault::new(FaultKind::Crash, "engine not running"))?;
        let written = writeln!(running.stdin, "{line}").and_then(|_| running.stdin.flush());
        written.map_err(|e| self.crash(&format!("writing '{line}' failed ({e})")))
    }

    /// Sends `line` and waits up to `limit` for the reply line (chatter skipped).
    fn request(&mut self, line: &str, limit: Duration) -> Result<Reply, Fault> {
        let running = self.running.as_mut().ok_or_else(|| Fault::new(FaultKind::Crash, "engine not running"))?;
        // Lines nobody asked for: note and drop them, so they are not taken for this reply.
        loop {
            match running.lines.try_recv() {
                Ok(Line::Text(text, _)) if self.config.protocol == Protocol::Pbrain && pbrain::is_chatter(&text) => {
                    log::debug!("{}: {text}", self.config.name)
                }
                Ok(Line::Text(text, _)) => log::warn!("{}: unsolicited line '{text}' ignored", self.config.name),
                Ok(Line::Eof) | Err(TryRecvError::Disconnected) => return Err(self.crash("before a request")),
                Err(TryRecvError::Empty) => break,
            }
        }
        let sent = Instant::now();
        self.send(line)?;
        let received = loop {
            let running = self.running.as_mut().expect("running: checked above");
            let left = limit.saturating_sub(sent.elapsed());
            let received = match running.lines.recv_timeout(left) {
                Ok(line) => Some(line),
                // A reply read just in time may reach the channel a moment after the wait ends:
                // its time stamp decides.
                Err(RecvTimeoutError::Timeout) => running.lines.try_recv().ok(),
                Err(RecvTimeoutError::Disconnected) => Some(Line::Eof),
            };
            match received {
                Some(Line::Text(text, _)) if self.is_chatter(&text) => log::debug!("{}: {text}", self.config.name),
                other => break other,
            }
        };
        match received {
            Some(Line::Text(text, at)) => {
                let elapsed = at.saturating_duration_since(sent);
                if elapsed > limit {
                    return Err(Fault::timeout(elapsed, limit, format!("late reply '{text}' to '{line}'")));
                }
                Ok(Reply { text, elapsed })
            }
            Some(Line::Eof) => Err(self.crash(&format!("no reply to '{line}'"))),
            None => Err(Fault::timeout(sent.elapsed(), limit, format!("no reply to '{line}'"))),
        }
    }

    /// A request whose only good answer is `ok` (`OK` in pbrain).
    fn expect_ok(&mut self, line: &str) -> Result<(), Fault> {
        let reply = self.request(line, self.config.setup_timeout)?;
        if reply.text.trim().eq_ignore_ascii_case("ok") {
            Ok(())
        } else {
            Err(Fault::new(FaultKind::Garbled, format!("'{}' answered '{line}' (expected 'ok')", reply.text.trim())))
        }
    }
}

/// One line, without its line ending, invalid UTF-8 replaced; `None` at end of input.
fn read_line<R: Read>(reader: &mut BufReader<R>) -> Option<String> {
    let mut buf = Vec::new();
    match reader.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                buf.pop();
            }
            Some(String::from_utf8_lossy(&buf).into_owned())
        }
    }
}

/// The `init` line of the protocol: the game's name and size, who moves first, the time per
/// move, then the game's options.
pub fn init_line(spec: &GameSpec, first: bool, timeout: Duration) -> String {
    let mut line = format!("init {}", spec.name());
    for w in spec.size() {
        line.push(' ');
        line.push_str(w);
    }
    line.push_str(&format!(" {first} {}", timeout.as_secs_f64()));
    for w in spec.options() {
        line.push(' ');
        line.push_str(w);
    }
    line
}

/// The `position` line that sets up an opening: its moves, each as one word (`R,C` for m,n,k).
pub fn position_line(opening: &[String]) -> String {
    let words: Vec<String> = opening.iter().map(|mv| mv.split_whitespace().collect::<Vec<_>>().join(",")).collect();
    format!("position {}", words.join(" "))
}

/// Reads a reply to `go`/`move`: a move, or a fault for anything the protocol says is not one.
pub fn move_reply(text: &str) -> Result<&str, Fault> {
    let t = text.trim();
    let head = t.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
    match head.as_str() {
        "" => Err(Fault::new(FaultKind::Garbled, "empty reply")),
        "error" => Err(Fault::new(FaultKind::Garbled, format!("engine error: '{t}'"))),
        "end" => Err(Fault::new(FaultKind::Garbled, format!("claimed the game is over: '{t}'"))),
        "ok" => Err(Fault::new(FaultKind::Garbled, "answered 'ok' instead of a move")),
        _ => Ok(t),
    }
}

impl EngineAdapter for ProcessEngine {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn start(&mut self) -> Result<(), Fault> {
        if self.running.is_none() {
            self.running = Some(self.spawn()?);
        }
        Ok(())
    }

    fn is_running(&self) -> bool {
        self.running.is_some()
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Fault> {
        self.start()?;
        if self.config.protocol == Protocol::Pbrain {
            let (start, info) = pbrain::setup_lines(setup.spec, setup.timeout)?;
            self.opening_board = pbrain::board_lines(setup.opening, setup.first)?;
            self.expect_ok(&start)?;
            return info.iter().try_for_each(|line| self.send(line));
        }
        if self.config.seeded {
            self.expect_ok(&format!("set seed {}", setup.seed))?;
        }
        self.expect_ok(&init_line(setup.spec, setup.first, setup.timeout))?;
        if setup.opening.is_empty() {
            return Ok(());
        }
        self.expect_ok(&position_line(setup.opening))
    }

    fn ask_move(&mut self, opponent_turn: &[String], limit: Duration) -> Result<Reply, Fault> {
        let opponent_move = match opponent_turn {
            [] => None,
            [first @ .., last] => {
                if self.config.protocol == Protocol::Pbrain && !first.is_empty() {
                    return Err(Fault::new(FaultKind::Crash, "a pbrain engine takes one move a turn"));
                }
                // The moves before the last leave the opponent to move again: each gets `ok`.
                for mv in first {
                    self.expect_ok(&format!("move {mv}"))?;
                }
                Some(last.as_str())
            }
        };
        let line = match (self.config.protocol, opponent_move) {
            (Protocol::Pbrain, mv) if !self.opening_board.is_empty() => {
                // The opening and the opponent's move as one position, then DONE (timed).
                let mut board = std::mem::take(&mut self.opening_board);
                if let Some(mv) = mv {
                    board.push(pbrain::stone_line(mv, false)?);
                }
                self.send("BOARD")?;
                board.iter().try_for_each(|line| self.send(line))?;
                "DONE".to_string()
            }
            (Protocol::Pbrain, mv) => pbrain::move_request(mv)?,
            (Protocol::Boardbot, None) => "go".to_string(),
            (Protocol::Boardbot, Some(mv)) => format!("move {mv}"),
        };
        let reply = self.request(&line, limit)?;
        let text = match self.config.protocol {
            Protocol::Pbrain => pbrain::move_reply(&reply.text),
            Protocol::Boardbot => move_reply(&reply.text).map(str::to_string),
        };
        let text = text.map_err(|f| Fault { elapsed: Some(reply.elapsed), ..f })?;
        Ok(Reply { text, elapsed: reply.elapsed })
    }

    fn kill(&mut self) {
        self.running = None;
    }

    fn quit(&mut self) {
        let Some(mut running) = self.running.take() else { return };
        let quit = if self.config.protocol == Protocol::Pbrain { "END" } else { "quit" };
        let _ = writeln!(running.stdin, "{quit}").and_then(|_| running.stdin.flush());
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            match running.child.try_wait() {
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                _ => break,
            }
        }
        // Dropping `running` kills the process if it is still there.
    }
}

impl Drop for ProcessEngine {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_lines() {
        let spec = GameSpec::parse("cx 6 7 4").unwrap();
        assert_eq!(init_line(&spec, true, Duration::from_secs(1)), "init cx 6 7 4 true 1");
        let spec = GameSpec::parse("mnk 5 5 4 blocked 0,0 2,3").unwrap();
        assert_eq!(init_line(&spec, false, Duration::from_millis(500)), "init mnk 5 5 4 false 0.5 blocked 0,0 2,3");
        let opening = ["3 4".to_string(), "2 2".to_string()];
        assert_eq!(position_line(&opening), "position 3,4 2,2");
        assert_eq!(position_line(&["3".to_string(), "0".to_string()]), "position 3 0");
    }

    #[test]
    fn protocol_replies_that_are_not_moves() {
        assert_eq!(move_reply(" 3 4 ").unwrap(), "3 4");
        for (text, kind) in [
            ("", FaultKind::Garbled),
            ("error illegal move", FaultKind::Garbled),
            ("end first wins", FaultKind::Garbled),
            ("ok", FaultKind::Garbled),
        ] {
            assert_eq!(move_reply(text).unwrap_err().kind, kind, "{text}");
        }
    }
}
