//! `boardbot serve`: the real binary on a free port, its JSON API through plain HTTP (a tiny
//! client over `TcpStream`), and its page in a real browser (Debian's chromium, headless, driven
//! over the DevTools protocol): whole games played by clicks.

use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_boardbot");

/// `boardbot serve` on a free loopback port, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("boardbot serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("expected 'listening on http://ADDR', got {line:?}"))
            .to_string();
        Server { child, addr }
    }

    fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// One request (its own connection); the status and the JSON body.
    fn call(&self, method: &str, path: &str, body: Option<&[u8]>) -> (u16, Value) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let body = body.unwrap_or(b"");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        // The server may answer (413) and close before reading a large body whole.
        let _ = stream.write_all(body);
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
        let reply = String::from_utf8_lossy(&reply).to_string();
        let status: u16 =
            reply.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("{reply}"));
        let (_, text) = reply.split_once("\r\n\r\n").unwrap();
        let value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text:?}"));
        (status, value)
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.call("POST", path, Some(body.to_string().as_bytes()))
    }

    fn state(&self, session: &str) -> Value {
        let (status, v) = self.call("GET", &format!("/api/state?session={session}"), None);
        assert_eq!(status, 200, "{v}");
        v
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn assert_error(reply: (u16, Value), status: u16, words: &str) {
    assert_eq!(reply.0, status, "{}", reply.1);
    let error = reply.1["error"].as_str().unwrap_or_else(|| panic!("no error text: {}", reply.1));
    assert!(error.contains(words), "'{error}' should contain '{words}'");
}

#[test]
fn api_bad_requests_get_4xx_json_errors_and_change_nothing() {
    let server = Server::start(&[]);
    let (status, games) = server.call("GET", "/api/games", None);
    assert_eq!(status, 200);
    let games = games["games"].as_array().unwrap();
    assert!(games.len() >= 2);
    for g in games {
        assert!(g["usage"].as_str().unwrap().starts_with(g["name"].as_str().unwrap()), "{g}");
    }

    assert_error(server.post("/api/new", &json!({"game": "chess 8 8"})), 400, "unknown game");
    assert_error(server.post("/api/new", &json!({"game": "mnk 3 3"})), 400, "usage");
    assert_error(server.post("/api/new", &json!({"game": "mnk 3 3 3", "you": "both"})), 400, "first");
    assert_error(server.post("/api/new", &json!({"game": "mnk 3 3 3", "level": "godlike"})), 400, "level");
    assert_error(server.post("/api/new", &json!({"game": "mnk 3 3 3", "time": 0})), 400, "time");
    assert_error(server.post("/api/new", &json!({"game": "mnk 3 3 3", "session": "nope"})), 404, "unknown session");
    assert_error(server.call("POST", "/api/new", Some(b"{not json")), 400, "JSON");
    assert_error(server.call("POST", "/api/new", Some(&vec![b' '; 70 * 1024])), 413, "65536");
    assert_error(server.call("GET", "/api/state?session=nope", None), 404, "unknown session");
    assert_error(server.call("GET", "/api/state", None), 400, "session");
    assert_error(server.post("/api/move", &json!({"session": "nope", "move": "0 0"})), 404, "unknown session");
    assert_error(server.post("/api/undo", &json!({"session": "nope"})), 404, "unknown session");
    assert_error(server.call("GET", "/api/nothing", None), 404, "no such");
    assert_error(server.call("DELETE", "/api/games", None), 405, "method");

    let (status, state) =
        server.post("/api/new", &json!({"game": "mnk 3 3 3", "you": "first", "level": "max", "time": 0.2}));
    assert_eq!(status, 200, "{state}");
    let id = state["session"].as_str().unwrap().to_string();
    assert_eq!(state["status"], "your_turn");
    assert_error(server.post("/api/undo", &json!({"session": id})), 409, "no move");
    let (status, after) = server.post("/api/move", &json!({"session": id, "move": "1 1"}));
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["history"].as_array().unwrap().len(), 2, "the engine replied: {after}");
    assert!(after["thinking"]["words"].is_string(), "{after}");
    // Every bad move leaves the game as it was.
    for bad in [json!("1 1"), json!("9 9"), json!("banana"), json!(""), json!(7)] {
        let reply = server.post("/api/move", &json!({"session": id, "move": bad}));
        assert!(reply.0 == 400, "{bad}: {:?}", reply);
        assert!(reply.1["error"].is_string());
        assert_eq!(server.state(&id), after, "after the move {bad}");
    }
    assert_error(server.call("POST", "/api/move", Some(&vec![b'x'; 100 * 1024])), 413, "bytes");
    assert_eq!(server.state(&id), after);

    let (status, undone) = server.post("/api/undo", &json!({"session": id}));
    assert_eq!(status, 200, "{undone}");
    assert_eq!(undone["history"], json!([]));
    assert_eq!(undone["status"], "your_turn");

    // A finished game takes no move.
    let (_, cx) = server.post("/api/new", &json!({"game": "cx 4 4 3", "you": "second", "time": 0.1, "session": id}));
    assert_eq!(cx["session"], json!(id), "the session is kept");
    assert_eq!(cx["history"].as_array().unwrap().len(), 1, "the engine opened: {cx}");
    let mut state = cx;
    while state["status"] == "your_turn" {
        let mv = state["view"]["moves"][0]["text"].clone();
        let (status, next) = server.post("/api/move", &json!({"session": id, "move": mv}));
        assert_eq!(status, 200, "{next}");
        state = next;
    }
    assert_eq!(state["status"], "over", "{state}");
    assert!(state["result"].is_string() && state["outcome"].is_string());
    assert_error(server.post("/api/move", &json!({"session": id, "move": "0"})), 409, "over");
}

/// Polls the session's state until its status is `status` (within 10 s); that state.
fn wait_for_status(server: &Server, session: &str, status: &str) -> Value {
    let start = Instant::now();
    loop {
        let s = server.state(session);
        if s["status"] == status {
            return s;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "expected status {status}: {s}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn api_searches_beyond_the_limit_wait_in_a_queue() {
    let server = Server::start(&["--searches", "1"]);
    let new = |you: &str| {
        let (status, s) = server.post("/api/new", &json!({"game": "mnk 15 15 5", "you": you, "time": 2.0}));
        assert_eq!(status, 200, "{s}");
        s["session"].as_str().unwrap().to_string()
    };
    let (a, b) = (new("first"), new("first"));
    std::thread::scope(|scope| {
        let first = scope.spawn(|| server.post("/api/move", &json!({"session": a, "move": "7 7"})));
        wait_for_status(&server, &a, "thinking");
        let second = scope.spawn(|| server.post("/api/move", &json!({"session": b, "move": "7 7"})));
        let waiting = wait_for_status(&server, &b, "queued");
        assert_eq!(server.state(&a)["status"], "thinking", "one search at a time");
        assert_eq!(waiting["history"], json!(["7 7"]), "the person's move shows while the engine waits");
        for reply in [first.join().unwrap(), second.join().unwrap()] {
            assert_eq!(reply.0, 200, "{}", reply.1);
            assert_eq!(reply.1["status"], "your_turn");
            assert_eq!(reply.1["history"].as_array().unwrap().len(), 2);
        }
    });
}

#[test]
fn api_a_client_that_goes_away_stops_its_search() {
    let server = Server::start(&[]);
    let (_, s) = server.post("/api/new", &json!({"game": "mnk 15 15 5", "you": "first", "time": 30}));
    let id = s["session"].as_str().unwrap().to_string();
    let body = json!({"session": id, "move": "7 7"}).to_string();
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    write!(
        stream,
        "POST /api/move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    wait_for_status(&server, &id, "thinking");
    let gone = Instant::now();
    drop(stream);
    loop {
        let s = server.state(&id);
        if s["status"] == "your_turn" {
            assert_eq!(s["history"].as_array().unwrap().len(), 2, "the engine still played its move: {s}");
            break;
        }
        assert!(gone.elapsed() < Duration::from_secs(5), "the search went on after the client left: {s}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

// ---- the page in a browser ----

fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap().to_path_buf()
}

fn browser(size: (u32, u32)) -> Browser {
    let path = std::env::var_os("BOARDBOT_CHROMIUM").map(PathBuf::from).unwrap_or_else(|| "/usr/bin/chromium".into());
    assert!(
        path.exists(),
        "no browser at {} (install Debian's chromium, as .ci/run does, or set BOARDBOT_CHROMIUM)",
        path.display()
    );
    let options = LaunchOptions::default_builder()
        .path(Some(path))
        .headless(true)
        // As root, chromium runs only without its sandbox.
        .sandbox(false)
        .window_size(Some(size))
        .idle_browser_timeout(Duration::from_secs(300))
        .build()
        .unwrap();
    Browser::new(options).expect("chromium starts")
}

/// A JavaScript expression's value, through JSON.
fn js(tab: &Tab, expr: &str) -> Value {
    let r = tab.evaluate(&format!("JSON.stringify({expr})"), false).unwrap();
    match r.value {
        Some(Value::String(s)) => serde_json::from_str(&s).unwrap(),
        _ => Value::Null,
    }
}

/// Waits until the page rests (the person to move, or the game over) and returns its state.
fn settled(tab: &Tab) -> Value {
    let start = Instant::now();
    loop {
        let status = js(tab, "document.body.dataset.status");
        if status == "your_turn" || status == "over" {
            return js(tab, "window.boardbot.state");
        }
        assert!(start.elapsed() < Duration::from_secs(60), "the page did not settle: {status}");
        std::thread::sleep(Duration::from_millis(30));
    }
}

/// Starts `game` from the page's form, the person playing first, at 0.2 s per move.
fn new_game(tab: &Tab, game: &str) -> Value {
    new_game_as(tab, game, "first")
}

/// Starts `game` from the page's form, the person playing `you`, at 0.2 s per move; returns the
/// state once the person is to move.
fn new_game_as(tab: &Tab, game: &str, you: &str) -> Value {
    let name = game.split_whitespace().next().unwrap();
    js(
        tab,
        &format!(
            r#"(() => {{
                const set = (id, v) => {{ const el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event("change")); }};
                set("game", "{name}");
                const choice = document.getElementById("board-choice");
                if ([...choice.options].some((o) => o.value === "{game}")) set("board-choice", "{game}");
                else {{ set("board-choice", ""); set("custom", "{game}"); }}
                set("you", "{you}"); set("level", "max"); set("time", "0.2");
                return true; }})()"#
        ),
    );
    tab.find_element("#new").unwrap().click().unwrap();
    let start = Instant::now();
    loop {
        let s = settled(tab);
        if s["game"] == game && (s["history"] == json!([]) || you != "first") && s["status"] == "your_turn" {
            return s;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "no new game: {s}");
        std::thread::sleep(Duration::from_millis(30));
    }
}

/// Clicks the board's cell `i`: with the mouse, through DevTools (about a second a click here),
/// or by the element's `click()` in the page (the same handler, without the mouse's wait for a
/// stable layout), for the long games.
fn click_cell(tab: &Tab, i: usize, mouse: bool) {
    let selector = format!(".cell[data-index='{i}']");
    if mouse {
        tab.find_element(&selector).unwrap().click().unwrap();
    } else {
        assert_eq!(
            js(tab, &format!(r#"(() => {{ document.querySelector("{selector}").click(); return true; }})()"#)),
            json!(true)
        );
    }
}

/// Plays a whole game by clicks: each turn the first legal move that no other move extends (a
/// whole capture path), its cells clicked in order (with the mouse if `mouse`). Returns the
/// final state; `illegal` also clicks a cell that takes no click once, which must change nothing.
fn play_by_clicks(tab: &Tab, mut state: Value, mut illegal: bool, mouse: bool) -> Value {
    for _ in 0..400 {
        if state["status"] == "over" {
            return state;
        }
        let view = &state["view"];
        let keys = |m: &Value| -> Vec<String> {
            m["keys"].as_array().unwrap().iter().map(|k| k.as_str().unwrap().to_string()).collect()
        };
        let moves: Vec<Vec<String>> = view["moves"].as_array().unwrap().iter().map(keys).collect();
        let cells = view["cells"].as_array().unwrap();
        if illegal && state["history"].as_array().unwrap().len() >= 2 {
            let dead = cells
                .iter()
                .position(|c| c["content"] != "" && !moves.iter().any(|m| c["key"].as_str() == Some(m[0].as_str())))
                .expect("an occupied cell that starts no move");
            click_cell(tab, dead, mouse);
            std::thread::sleep(Duration::from_millis(400));
            assert_eq!(js(tab, "document.body.dataset.status"), "your_turn");
            assert_eq!(js(tab, "window.boardbot.state"), state, "a click on a dead cell changed the game");
            illegal = false;
        }
        let whole = moves
            .iter()
            .find(|m| !moves.iter().any(|o| o.len() > m.len() && o.starts_with(m)))
            .expect("a legal move")
            .clone();
        let before = state["history"].as_array().unwrap().len();
        for key in &whole {
            let i = cells.iter().position(|c| c["key"].as_str() == Some(key.as_str())).expect("a cell to click");
            click_cell(tab, i, mouse);
        }
        let start = Instant::now();
        loop {
            state = settled(tab);
            if state["history"].as_array().unwrap().len() > before {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "the clicks {whole:?} played nothing");
            std::thread::sleep(Duration::from_millis(30));
        }
    }
    panic!("the game did not end: {state}");
}

/// Waits for the page's first board (it starts a game by itself).
fn wait_for_board(tab: &Tab) {
    let start = Instant::now();
    while js(tab, "document.querySelectorAll('#board .cell').length") == json!(0) {
        let message = js(tab, "document.getElementById('message').textContent");
        assert!(start.elapsed() < Duration::from_secs(30), "no board on the page: {message}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn screenshot(tab: &Tab, name: &str) {
    let png = tab.capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true).unwrap();
    std::fs::write(target_dir().join(name), png).unwrap();
}

/// Checks the page's game-over text and, after a win, that at least `marked` cells are
/// highlighted (a winning line; in Kalah the pit of the last move).
fn check_result(tab: &Tab, state: &Value, marked: u64) {
    let result = state["result"].as_str().unwrap();
    let shown = js(tab, "document.getElementById('result').textContent");
    assert!(shown.as_str().unwrap().starts_with(result), "shown {shown}, state {state}");
    assert_eq!(js(tab, "document.getElementById('message').textContent"), json!(format!("Game over: {result}.")));
    if result != "Draw" {
        assert!(state["end_reason"].is_string(), "{state}");
        let shown = js(tab, "document.querySelectorAll('#board .cell.marked').length");
        assert!(shown.as_u64().unwrap() >= marked, "the winning line is highlighted: {shown}");
    }
}

#[test]
fn browser_plays_whole_games_by_clicks() {
    let server = Server::start(&[]);
    let browser = browser((1100, 820));
    let tab = browser.new_tab().unwrap();
    tab.set_default_timeout(Duration::from_secs(30));
    tab.navigate_to(&server.url()).unwrap().wait_until_navigated().unwrap();
    wait_for_board(&tab);

    // Tic-tac-toe: the engine never loses it.
    let state = new_game(&tab, "mnk 3 3 3");
    let end = play_by_clicks(&tab, state, true, true);
    assert_ne!(end["result"], "You win", "{end}");
    check_result(&tab, &end, 3);
    screenshot(&tab, "serve-mnk.png");

    // Connect-4: the person drops into the leftmost open column every turn and loses.
    let state = new_game(&tab, "cx 6 7 4");
    let end = play_by_clicks(&tab, state, false, true);
    assert_eq!(end["result"], "boardbot wins", "{end}");
    check_result(&tab, &end, 3);
    let thinking = js(&tab, "document.getElementById('thinking').textContent");
    assert!(thinking.as_str().unwrap().contains("depth"), "{thinking}");
    screenshot(&tab, "serve-cx.png");

    // Bantumi: the person sows the leftmost pit that has seeds (moving again after an extra
    // turn) and loses; the store of the second player (top left) takes no click.
    let state = new_game(&tab, "kalah 6 3");
    let end = play_by_clicks(&tab, state, true, false);
    assert_eq!(end["result"], "boardbot wins", "{end}");
    check_result(&tab, &end, 0);
    assert!(end["end_reason"].as_str().unwrap().contains("more seeds"), "{end}");
    // The solver proves the win: its score is the margin, in seeds.
    let thinking = js(&tab, "document.getElementById('thinking').textContent");
    assert!(thinking.as_str().unwrap().contains("wins by"), "{thinking}");
    screenshot(&tab, "serve-kalah.png");

    // Under the pie rule, the second player's first move may be the swap: a button, no cell.
    let state = new_game_as(&tab, "kalah 6 3 pie", "second");
    assert_eq!(state["history"].as_array().unwrap().len(), 1, "{state}");
    tab.find_element("#no-cell-moves button").unwrap().click().unwrap();
    let start = Instant::now();
    loop {
        let s = settled(&tab);
        if s["history"].as_array().unwrap().len() >= 2 {
            assert_eq!(s["history"][1], "swap", "{s}");
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the swap button played nothing: {s}");
        std::thread::sleep(Duration::from_millis(30));
    }

    // Checkers: a piece, then each landing square; the person plays the first legal move (a
    // whole capture path when it must capture) and loses.
    let t0 = Instant::now();
    let state = new_game(&tab, "checkers english");
    let end = play_by_clicks(&tab, state, true, false);
    eprintln!("checkers game by clicks: {:?}, {} moves", t0.elapsed(), end["history"].as_array().unwrap().len());
    assert_eq!(end["result"], "boardbot wins", "{end}");
    check_result(&tab, &end, 0);
    screenshot(&tab, "serve-checkers.png");

    // Undo takes back the person's last move and the reply.
    let before = end["history"].as_array().unwrap().len();
    tab.find_element("#undo").unwrap().click().unwrap();
    let start = Instant::now();
    loop {
        let s = js(&tab, "window.boardbot.state");
        if s["history"].as_array().unwrap().len() < before && js(&tab, "document.body.dataset.status") == "your_turn" {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "undo did nothing: {s}");
        std::thread::sleep(Duration::from_millis(30));
    }

    // A phone-sized window: the board fits its width.
    let phone = self::browser((390, 800));
    let tab = phone.new_tab().unwrap();
    tab.navigate_to(&server.url()).unwrap().wait_until_navigated().unwrap();
    wait_for_board(&tab);
    let state = new_game(&tab, "cx 6 7 4");
    let width = js(&tab, "document.getElementById('board').getBoundingClientRect().right <= window.innerWidth");
    assert_eq!(width, json!(true));
    let mut state = state;
    for _ in 0..3 {
        // The top cell of the middle column: a click anywhere in a column plays it.
        tab.find_element(".cell[data-index='3']").unwrap().click().unwrap();
        let before = state["history"].as_array().unwrap().len();
        while state["history"].as_array().unwrap().len() <= before {
            std::thread::sleep(Duration::from_millis(30));
            state = settled(&tab);
        }
    }
    screenshot(&tab, "serve-phone.png");
}
