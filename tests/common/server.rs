//! `boardbot serve` on a free loopback port, and a tiny HTTP client over `TcpStream` for its
//! JSON API (one request per connection).

use super::BIN;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The server process, killed when dropped.
pub struct Server {
    child: Child,
    pub addr: String,
}

impl Server {
    /// Starts `boardbot serve --addr 127.0.0.1:0 EXTRA...` and reads the address it prints.
    pub fn start(extra: &[&str]) -> Server {
        Server::start_at("127.0.0.1:0", extra)
    }

    /// Starts `boardbot serve --addr ADDR EXTRA...` (a server again where one was).
    pub fn start_at(addr: &str, extra: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--addr", addr])
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

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// One request: the status and the body's text (the reply is read for at most 120 s).
    pub fn call_text(&self, method: &str, path: &str, body: Option<&[u8]>) -> (u16, String) {
        let (status, _, text) = self.call_whole(method, path, body);
        (status, text)
    }

    /// One request: the status, the reply's head (status line and headers) and its body's text.
    pub fn call_whole(&self, method: &str, path: &str, body: Option<&[u8]>) -> (u16, String, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
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
        let (head, text) = reply.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no body: {reply}"));
        (status, head.to_string(), text.to_string())
    }

    /// One request: the status and the JSON body.
    pub fn call(&self, method: &str, path: &str, body: Option<&[u8]>) -> (u16, Value) {
        let (status, text) = self.call_text(method, path, body);
        let value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text:.300}"));
        (status, value)
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.call("POST", path, Some(body.to_string().as_bytes()))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
