//! Issue 57, `boardbot serve`: only its own page drives it (item 1: `Host`, the content type,
//! `Origin`, `Sec-Fetch-Site`), no client address holds every session (item 2), and a small
//! board's requests are answered while every search runs (item 3). The real binary on a free
//! port, raw HTTP requests with the headers a browser or an attacker's page would send.

mod common;

use common::server::Server;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A request to `addr` with the head lines `headers` (each `Name: value`), and the body: the
/// status and the JSON reply.
fn raw(addr: &str, method: &str, path: &str, headers: &[&str], body: &str) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    for h in headers {
        head.push_str(h);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut reply = String::new();
    let _ = stream.read_to_string(&mut reply);
    let status: u16 = reply.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("{reply}"));
    let text = reply.split_once("\r\n\r\n").map_or("", |(_, t)| t);
    let value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text:.300}"));
    (status, value)
}

fn assert_refused(reply: (u16, Value), status: u16, words: &str) {
    assert_eq!(reply.0, status, "{}", reply.1);
    let error = reply.1["error"].as_str().unwrap_or_else(|| panic!("no error text: {}", reply.1));
    assert!(error.contains(words), "'{error}' should contain '{words}'");
}

const NEW: &str = r#"{"game": "mnk 3 3 3", "time": 0.05}"#;
const JSON: &str = "Content-Type: application/json";

fn port(addr: &str) -> &str {
    addr.rsplit_once(':').unwrap().1
}

/// The issue's request: a forged `Host` (DNS rebinding: another site's name pointed at the
/// loopback server) got 200. Now 403 with a JSON error, for reads and changes alike; the bound
/// address and `localhost` with the port are taken.
#[test]
fn a_forged_host_is_refused() {
    let server = Server::start(&[]);
    let addr = server.addr.as_str();
    let port = port(addr);
    for host in
        ["evil.example", &format!("evil.example:{port}"), "127.0.0.1:1", &format!("localhost.evil.example:{port}")]
    {
        let host = format!("Host: {host}");
        assert_refused(raw(addr, "POST", "/api/new", &[&host, JSON], NEW), 403, "does not answer to the host");
        assert_refused(raw(addr, "GET", "/api/games", &[&host], ""), 403, "--allow-host");
        assert_refused(raw(addr, "GET", "/", &[&host], ""), 403, "--allow-host");
    }
    assert_refused(raw(addr, "GET", "/api/games", &[], ""), 400, "Host");
    for host in [addr.to_string(), format!("localhost:{port}"), format!("LOCALHOST:{port}")] {
        let (status, v) = raw(addr, "POST", "/api/new", &[&format!("Host: {host}"), JSON], NEW);
        assert_eq!(status, 200, "{host}: {v}");
    }
}

/// `--allow-host NAME` adds a name (any port), `NAME:PORT` a name at that port only.
#[test]
fn allow_host_adds_names() {
    let server = Server::start(&["--allow-host", "boardbot.test", "--allow-host", "proxy.test:443"]);
    let addr = server.addr.as_str();
    for host in [format!("boardbot.test:{}", port(addr)), "boardbot.test".into(), "proxy.test:443".into()] {
        let origin = format!("Origin: https://{host}");
        let (status, v) = raw(addr, "POST", "/api/new", &[&format!("Host: {host}"), JSON, &origin], NEW);
        assert_eq!(status, 200, "{host}: {v}");
    }
    for host in ["proxy.test", "proxy.test:8443", "other.test"] {
        assert_refused(raw(addr, "POST", "/api/new", &[&format!("Host: {host}"), JSON], NEW), 403, "host");
    }
    let mut bad = Command::new(common::BIN)
        .args(["serve", "--addr", "127.0.0.1:0", "--allow-host", "a b"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = String::new();
    bad.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    assert!(!bad.wait().unwrap().success(), "a malformed --allow-host is refused");
    assert!(stderr.contains("--allow-host 'a b'"), "{stderr}");
}

/// The issue's `text/plain` POST (a page of another site sends one without asking first) and a
/// form's content type: 415 with a JSON error, and no game made.
#[test]
fn a_post_that_is_not_json_is_refused() {
    let server = Server::start(&[]);
    let addr = server.addr.as_str();
    let host = format!("Host: {addr}");
    for kind in ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data"] {
        let reply = raw(addr, "POST", "/api/new", &[&host, &format!("Content-Type: {kind}")], NEW);
        assert_refused(reply, 415, "application/json");
    }
    assert_refused(raw(addr, "POST", "/api/new", &[&host], NEW), 415, "application/json");
    // A session's moves too: the game is left as it was.
    let (_, s) = raw(addr, "POST", "/api/new", &[&host, JSON], NEW);
    let id = s["session"].as_str().unwrap().to_string();
    let body = json!({"session": id, "move": "1 1"}).to_string();
    assert_refused(raw(addr, "POST", "/api/move", &[&host, "Content-Type: text/plain"], &body), 415, "JSON");
    let (status, after) = server.call("GET", &format!("/api/state?session={id}"), None);
    assert_eq!(status, 200);
    assert_eq!(after["history"], json!([]), "{after}");
    let (status, v) = raw(addr, "POST", "/api/move", &[&host, "Content-Type: application/json; charset=utf-8"], &body);
    assert_eq!(status, 200, "{v}");
}

/// A request from another origin (a page of another site, JSON through CORS' preflight or not)
/// is refused; the server's own origin is taken, over http or https (a proxy).
#[test]
fn a_foreign_origin_is_refused() {
    let server = Server::start(&[]);
    let addr = server.addr.as_str();
    let host = format!("Host: {addr}");
    for origin in [
        "http://evil.example",
        "null",
        &format!("http://localhost:{}", port(addr)),
        &format!("http://{addr}.evil.example"),
        &format!("http://{addr}:1"),
    ] {
        let reply = raw(addr, "POST", "/api/new", &[&host, JSON, &format!("Origin: {origin}")], NEW);
        assert_refused(reply, 403, "only this server's own page");
    }
    for origin in [format!("http://{addr}"), format!("https://{addr}")] {
        let (status, v) = raw(addr, "POST", "/api/new", &[&host, JSON, &format!("Origin: {origin}")], NEW);
        assert_eq!(status, 200, "{origin}: {v}");
    }
}

/// A browser's `Sec-Fetch-Site: cross-site` (or `same-site`: another port of the same machine)
/// is refused; `same-origin` is the page's own.
#[test]
fn a_cross_site_fetch_is_refused() {
    let server = Server::start(&[]);
    let addr = server.addr.as_str();
    let host = format!("Host: {addr}");
    for site in ["cross-site", "same-site"] {
        let reply = raw(addr, "POST", "/api/new", &[&host, JSON, &format!("Sec-Fetch-Site: {site}")], NEW);
        assert_refused(reply, 403, site);
    }
    let (status, v) = raw(addr, "POST", "/api/new", &[&host, JSON, "Sec-Fetch-Site: same-origin"], NEW);
    assert_eq!(status, 200, "{v}");
    // Reads need the Host only (a browser's own reads are same-origin anyway).
    let (status, v) = raw(addr, "GET", "/api/games", &[&host, "Sec-Fetch-Site: cross-site"], "");
    assert_eq!(status, 200, "{v}");
}

/// `boardbot serve --addr 0.0.0.0:0`: the port it listens on.
struct Everywhere {
    child: Child,
    port: String,
}

impl Everywhere {
    fn start() -> Everywhere {
        let mut child = Command::new(common::BIN)
            .args(["serve", "--addr", "0.0.0.0:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port = line.trim().strip_prefix("listening on http://0.0.0.0:").unwrap_or_else(|| panic!("{line}"));
        Everywhere { port: port.to_string(), child }
    }
}

impl Drop for Everywhere {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Bound to every address, the machine is reached by any of its addresses: any address with
/// the port is a good `Host` (a rebinding attack names a host, never an address); names are
/// still refused.
#[test]
fn bound_to_every_address_any_address_with_the_port_is_a_host() {
    let server = Everywhere::start();
    let addr = format!("127.0.0.1:{}", server.port);
    for host in [addr.clone(), format!("localhost:{}", server.port), format!("192.0.2.7:{}", server.port)] {
        let origin = format!("Origin: http://{host}");
        let (status, v) = raw(&addr, "POST", "/api/new", &[&format!("Host: {host}"), JSON, &origin], NEW);
        assert_eq!(status, 200, "{host}: {v}");
    }
    for host in [format!("evil.example:{}", server.port), "192.0.2.7:1".to_string()] {
        assert_refused(raw(&addr, "POST", "/api/new", &[&format!("Host: {host}"), JSON], NEW), 403, "host");
    }
}

/// Item 2: one address holds at most `--max-sessions-per-client` sessions (64 new games used to
/// fill the server for 30 minutes): beyond it, its own longest-idle session goes; when all of
/// them are in use, 503 says why and what to do.
#[test]
fn a_client_holds_at_most_its_cap_of_sessions() {
    let server = Server::start(&["--max-sessions-per-client", "2", "--hash", "2"]);
    let new = || {
        let (status, s) = server.post("/api/new", &json!({"game": "mnk 3 3 3", "time": 0.05}));
        assert_eq!(status, 200, "{s}");
        s["session"].as_str().unwrap().to_string()
    };
    let (a, b) = (new(), new());
    // b is touched after a: a is the longest idle.
    assert_eq!(server.call("GET", &format!("/api/state?session={b}"), None).0, 200);
    let c = new();
    let (status, gone) = server.call("GET", &format!("/api/state?session={a}"), None);
    assert_eq!(status, 404, "{gone}");
    assert!(gone["error"].as_str().unwrap().contains("start a new game"), "{gone}");
    for id in [&b, &c] {
        assert_eq!(server.call("GET", &format!("/api/state?session={id}"), None).0, 200, "{id} kept");
    }
    // The 64 new games of the issue: the client keeps two sessions, and never a 503.
    for _ in 0..64 {
        new();
    }

    // A session in use is never given up: both of the client's sessions search, so 503.
    let server = Server::start(&["--max-sessions-per-client", "2", "--hash", "2", "--searches", "2"]);
    let mut searching = Vec::new();
    for _ in 0..2 {
        let (_, s) = server.post("/api/new", &json!({"game": "mnk 15 15 5", "you": "first", "time": 30}));
        let id = s["session"].as_str().unwrap().to_string();
        searching.push((start_move(&server.addr, &id, "7 7"), id));
    }
    for (_, id) in &searching {
        wait_for_status(&server, id, "thinking");
    }
    let (status, v) = server.post("/api/new", &json!({"game": "mnk 3 3 3", "time": 0.05}));
    assert_eq!(status, 503, "{v}");
    let error = v["error"].as_str().unwrap();
    assert!(error.contains("2 games in play") && error.contains("close a tab"), "{error}");
    for (_, id) in &searching {
        assert_eq!(state_of(&server, id)["status"], "thinking", "the sessions in use are kept");
    }
}

/// Sends `POST /api/move` for `session` and returns the open connection without reading the
/// reply: the search goes on until the connection is dropped.
fn start_move(addr: &str, session: &str, mv: &str) -> TcpStream {
    let body = json!({"session": session, "move": mv}).to_string();
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST /api/move HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    stream
}

fn state_of(server: &Server, session: &str) -> Value {
    let (status, v) = server.call("GET", &format!("/api/state?session={session}"), None);
    assert_eq!(status, 200, "{v}");
    v
}

fn wait_for_status(server: &Server, session: &str, status: &str) -> Value {
    let start = Instant::now();
    loop {
        let s = state_of(server, session);
        if s["status"] == status {
            return s;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "expected status {status}: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Item 3: a small board's reads, refusals and new games are answered while every search runs
/// (sixteen of 30 s each): they never wait for a thread the searches hold (they did, once the
/// searches filled the 16 blocking threads). Asserted on order: every search is still running
/// when the small board's requests have their answers.
#[test]
fn a_small_boards_requests_are_answered_while_every_search_runs() {
    let searches = 16;
    let server = Server::start(&["--searches", "16", "--hash", "2", "--max-sessions-per-client", "32"]);
    let (status, small) = server.post("/api/new", &json!({"game": "mnk 7 7 5", "time": 0.05}));
    assert_eq!(status, 200, "{small}");
    let small = small["session"].as_str().unwrap().to_string();
    let mut running = Vec::new();
    for _ in 0..searches {
        let (status, s) = server.post("/api/new", &json!({"game": "mnk 15 15 5", "you": "first", "time": 30}));
        assert_eq!(status, 200, "{s}");
        let id = s["session"].as_str().unwrap().to_string();
        running.push((start_move(&server.addr, &id, "7 7"), id));
    }
    for (_, id) in &running {
        wait_for_status(&server, id, "thinking");
    }
    let (status, state) = server.call("GET", &format!("/api/state?session={small}"), None);
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["status"], "your_turn");
    let (status, v) = server.post("/api/move", &json!({"session": small, "move": "not a move"}));
    assert_eq!(status, 400, "{v}");
    let (status, v) = server.post("/api/new", &json!({"game": "cx 6 7 4", "time": 0.05, "session": small}));
    assert_eq!(status, 200, "{v}");
    let (status, v) = server.post("/api/new", &json!({"game": "mnk 3 3 3", "time": 0.05}));
    assert_eq!(status, 200, "{v}");
    let (status, v) = server.call("GET", "/api/view?game=mnk%209%209%205", None);
    assert_eq!(status, 200, "{v}");
    for (_, id) in &running {
        assert_eq!(state_of(&server, id)["status"], "thinking", "every search still runs");
    }
}
