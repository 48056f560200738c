//! `boardbot serve`: a web page to play against the engine in a browser, and the JSON API
//! behind it (docs/api.md).
//!
//! The server holds games only through the registry ([`GameSpec`], [`GAMES`]) and the
//! [`Engine`]: a game added to the registry appears on the page as it is. The page draws the
//! game-neutral [`View`].
//!
//! - Every tab has its own session (an id the page keeps) holding its own [`Engine`]; a session
//!   idle for `--idle` minutes is dropped.
//! - At most `--searches` searches run at once, each on a blocking thread; the others wait in a
//!   queue and their state says `queued`.
//! - Only the server's own page may drive it ([`Hosts`]): a `Host` that is not the bound
//!   address, `localhost` or an `--allow-host` name gets 403 (DNS rebinding), and a request
//!   that changes something must be `application/json` and come from the server's own origin
//!   (`Origin`, `Sec-Fetch-Site`), so that no other site's page can start games or searches.
//! - Each client address holds at most `--max-sessions-per-client` sessions; a newcomer to a
//!   full server takes the place of the longest-idle session (untouched for [`EVICT_AFTER`],
//!   not in use), a client at its own cap the place of its own longest-idle one.
//! - A search whose request goes away (the tab closed) is stopped: the request's future holds a
//!   guard whose `Drop` raises the search's stop flag.
//! - Every bad request gets a 4xx and `{"error": "..."}`, and changes nothing.
//! - The async workers only route requests and copy bytes: building a game, its state and its
//!   JSON, and every search run on blocking threads. The blocking pool has room for every
//!   search (`--searches`), every large-board job ([`LARGE_LANES`]) and [`LIGHT_THREADS`] more,
//!   so that a small board's work never waits for a thread: the work of large boards (a number
//!   over [`SMALL_SIDE`] in the description) waits for one of the [`LARGE_LANES`] large-board
//!   lanes instead, so that no more than that many run at once on the cores that the small
//!   boards' requests share. Boards are at most
//!   [`MAX_SIZE`] a side (a larger one gets 400), so that a state stays small; the session
//!   limit is checked before an engine is made.
//! - A connection that sends no request for [`HEADER_TIMEOUT`] is closed, and at most
//!   [`MAX_CONNECTIONS`] are served at once (more wait to be accepted): the memory they take
//!   is bounded (docs/api.md gives the ceiling).

use crate::bot::{option, Engine, Options, Value};
use crate::game::any::{AnyGame, GameRecordText, MoveValue};
use crate::game::players::{Algorithm, Source, Thought};
use crate::game::registry::{GameSpec, GameType, Resources, GAMES};
use crate::game::render::View;
use crate::search::{Outcome, Side};
use crate::ui::words::{opinion_words, thought_line};
use anyhow::{anyhow, Result};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use clap::Args;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedMutexGuard, Semaphore};

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// The largest number in a game's description (`mnk 100 100 5`: boards up to 100 x 100): the
/// state of a larger board is megabytes of JSON and takes long to build (`cx 1000 1000 4`:
/// 41.9 MB in 23.9 s), which a shared server does not offer.
pub const MAX_SIZE: u64 = 100;
/// A connection that has not sent a whole request head within this time after it opened or
/// after its last reply is closed (`--request-timeout`, in seconds).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections served at once; further ones wait in the listen queue.
pub const MAX_CONNECTIONS: usize = 1024;
/// The time a connection has to send its request when more than a quarter of
/// [`MAX_CONNECTIONS`] are open.
pub const CROWDED_REQUEST_TIMEOUT: Duration = Duration::from_secs(1);
/// Blocking threads for small boards' work (games, states, undo; no search), beyond those of
/// the searches and of the [`LARGE_LANES`]: the blocking pool never makes a small board's job
/// wait behind a search or a large board's job.
pub const LIGHT_THREADS: usize = 16;
/// Large boards' jobs (building a game, a state and its JSON, undo, review) running at once;
/// the others wait for a lane (FIFO).
pub const LARGE_LANES: usize = 2;
/// A board is large when a number of its description is over `SMALL_SIDE` (`mnk 100 100 5`,
/// `cx 70 70 10`; not `mnk 15 15 5`, `cx 25 25 10`), read on the text before the game is built.
pub const SMALL_SIDE: usize = 32;
/// A newcomer to a full server takes the place of a session untouched for at least this long.
pub const EVICT_AFTER: Duration = Duration::from_secs(60);
/// The time per move allowed, in seconds.
pub const TIME_RANGE: (f64, f64) = (0.05, 60.0);
/// A game clock's minutes for each side (the page offers whole and half minutes; the API takes
/// less, down to 0.6 s).
pub const CLOCK_MINUTES: (f64, f64) = (0.01, 600.0);
/// A game clock's increment, the seconds added to a side's clock after each of its turns.
pub const CLOCK_INCREMENT: (f64, f64) = (0.0, 60.0);
/// On a game clock the engine plans a move on about this share of its time left
/// (1/[`CLOCK_MOVES_TO_GO`]), plus [`CLOCK_INCREMENT_SHARE`] of the increment...
pub const CLOCK_MOVES_TO_GO: u32 = 25;
pub const CLOCK_INCREMENT_SHARE: f64 = 0.75;
/// ...and never on more than its time left less a safety margin: this share of it, at least
/// [`CLOCK_MIN_RESERVE`] (at most half of it). The server stops the search at the planned
/// time ([`Deadline`]), and the engine keeps its own margin within it.
pub const CLOCK_RESERVE_SHARE: f64 = 0.1;
pub const CLOCK_MIN_RESERVE: Duration = Duration::from_millis(50);

/// The time the engine plans for its move with `left` on its clock and `increment` to come
/// after the move: `left / CLOCK_MOVES_TO_GO + CLOCK_INCREMENT_SHARE * increment`, at most
/// `left` less the reserve ([`CLOCK_RESERVE_SHARE`], [`CLOCK_MIN_RESERVE`]).
pub fn clock_budget(left: Duration, increment: Duration) -> Duration {
    let reserve = left.mul_f64(CLOCK_RESERVE_SHARE).max(CLOCK_MIN_RESERVE).min(left / 2);
    let usable = left.saturating_sub(reserve);
    (left / CLOCK_MOVES_TO_GO + increment.mul_f64(CLOCK_INCREMENT_SHARE)).min(usable)
}

/// A game clock: each side's time left; the clock of the side to move runs (the person's on
/// their turn, the engine's from the person's move to its reply), none in analysis mode or once
/// the game is over. A side whose clock reaches zero on its turn loses on time.
#[derive(Clone, Debug)]
struct GameClock {
    minutes: f64,
    increment: Duration,
    /// Each side's time left (the first player's first) when its clock last stopped.
    left: [Duration; 2],
    /// The side whose clock runs, since when.
    running: Option<(Side, Instant)>,
    /// The side whose time ran out, once its clock was stopped at zero.
    flag: Option<Side>,
}

impl GameClock {
    fn new(minutes: f64, increment: f64) -> GameClock {
        let start = Duration::from_secs_f64(minutes * 60.0);
        GameClock {
            minutes,
            increment: Duration::from_secs_f64(increment),
            left: [start; 2],
            running: None,
            flag: None,
        }
    }

    /// `side`'s time left now.
    fn left_now(&self, side: Side) -> Duration {
        match self.running {
            Some((s, since)) if s == side => self.left[s.index()].saturating_sub(since.elapsed()),
            _ => self.left[side.index()],
        }
    }

    /// The side whose time has run out, if any: flagged, or its clock running at zero now.
    fn flagged(&self) -> Option<Side> {
        self.flag.or_else(|| self.running.filter(|&(s, since)| since.elapsed() >= self.left[s.index()]).map(|r| r.0))
    }

    /// Starts `side`'s clock (the other's stopped first, no increment), unless it runs already.
    fn run(&mut self, side: Side) {
        if self.running.map(|r| r.0) != Some(side) {
            self.stop(false);
            if self.flag.is_none() {
                self.running = Some((side, Instant::now()));
            }
        }
    }

    /// Stops the running clock, its side charged the time since it started and given the
    /// increment if it `moved` (its turn done); a side that used all of its time is flagged.
    fn stop(&mut self, moved: bool) {
        let Some((side, since)) = self.running.take() else { return };
        let used = since.elapsed();
        let left = &mut self.left[side.index()];
        if used >= *left {
            *left = Duration::ZERO;
            self.flag = Some(side);
        } else {
            *left -= used;
            if moved {
                *left += self.increment;
            }
        }
    }
}

/// A game clock as the API shows it (docs/api.md).
#[derive(Clone, Debug, Serialize)]
pub struct ClockOut {
    pub minutes: f64,
    /// Seconds added after each turn.
    pub increment: f64,
    /// Each side's time left now, in milliseconds (the first player's first).
    pub left_ms: [u64; 2],
    /// "first" or "second": the side whose clock runs (counting down from `left_ms`); null
    /// when none runs.
    pub running: Option<&'static str>,
    /// The side that ran out of time ("first" or "second"), if one did.
    pub flagged: Option<&'static str>,
}

const INDEX_HTML: &str = include_str!("web/index.html");
const APP_JS: &str = include_str!("web/app.js");
const STYLE_CSS: &str = include_str!("web/style.css");
const FAVICON_SVG: &str = include_str!("web/favicon.svg");

/// `boardbot serve`: the options.
#[derive(Args, Clone, Debug)]
pub struct ServeArgs {
    /// The address to listen on (port 0: any free port; the bound address is printed as
    /// `listening on http://ADDR`). Loopback by default: anyone who can reach the port can play.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Searches running at once; further ones wait in a queue.
    #[arg(long, default_value_t = 2)]
    pub searches: usize,
    /// Minutes after which an idle session (a game nobody touched) is dropped.
    #[arg(long = "idle", default_value_t = 30)]
    pub idle_minutes: u64,
    /// Sessions kept at most (each holds an engine with its tables, see --hash). When full, a
    /// new session takes the place of the longest-idle one untouched for a minute.
    #[arg(long, default_value_t = 64)]
    pub max_sessions: usize,
    /// Sessions kept at most for one client address (an IPv6 client's /64); beyond that, a new
    /// one takes the place of the client's own longest-idle session.
    #[arg(long, default_value_t = 16)]
    pub max_sessions_per_client: usize,
    /// A host name (or NAME:PORT) the page may be reached by, besides the bound address and
    /// `localhost` (repeatable): requests naming another host in `Host` get 403.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// Each session's engine memory in MiB (its `hash` option: tables and solvers together).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Seconds a connection may stay open without sending a request (a whole request head):
    /// then it is closed.
    #[arg(long, default_value_t = HEADER_TIMEOUT.as_secs_f64())]
    pub request_timeout: f64,
}

/// Runs the server until the process ends.
pub fn run(args: ServeArgs, mut options: Options) -> Result<()> {
    anyhow::ensure!(args.searches >= 1, "--searches must be at least 1");
    anyhow::ensure!(args.max_sessions >= 1, "--max-sessions must be at least 1");
    anyhow::ensure!(args.max_sessions_per_client >= 1, "--max-sessions-per-client must be at least 1");
    for name in &args.allow_host {
        anyhow::ensure!(
            split_authority(name).is_some_and(|(host, _)| !host.is_empty()),
            "--allow-host '{name}': give a host name or address, with a port or without"
        );
    }
    options.set_value("hash", Value::Number(args.hash as u64)).map_err(|e| anyhow!("--{e}"))?;
    anyhow::ensure!(
        args.request_timeout.is_finite() && (0.01..=3600.0).contains(&args.request_timeout),
        "--request-timeout must be 0.01..=3600 seconds"
    );
    let request_timeout = Duration::from_secs_f64(args.request_timeout);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(args.searches + LARGE_LANES + LIGHT_THREADS)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr).await?;
        let app = Arc::new(App::new(&args, listener.local_addr()?, options));
        tokio::spawn(reaper(app.clone()));
        println!("listening on http://{}", listener.local_addr()?);
        std::io::stdout().flush()?;
        serve_connections(listener, router(app), request_timeout).await
    })
}

/// Accepts connections and serves each on its own task (HTTP/1.1), as `axum::serve` does, but
/// with a timer: a connection idle for `request_timeout` without a request is closed (axum's
/// own loop kept 19,990 idle connections open), and at most [`MAX_CONNECTIONS`] at once.
async fn serve_connections(listener: tokio::net::TcpListener, app: Router, request_timeout: Duration) -> Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let permit = open.clone().acquire_owned().await.expect("the semaphore is never closed");
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors and the like: wait, as axum does, then go on.
                log::warn!("accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        // Each request knows its client's address (the sessions' cap per client).
        let service = TowerToHyperService::new(app.clone().layer(Extension(Peer(peer.ip()))));
        // With many connections open (idle ones hold their places until their timeout), a new
        // one gets at most a second to send its request, so that idle connections cannot keep
        // the places of the clients that send requests (measured: docs/results/stalls.md).
        let crowded = open.available_permits() < MAX_CONNECTIONS * 3 / 4;
        let timeout = if crowded { request_timeout.min(CROWDED_REQUEST_TIMEOUT) } else { request_timeout };
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(timeout)
                .serve_connection(TokioIo::new(stream), service);
            if let Err(e) = connection.await {
                log::debug!("connection: {e}");
            }
            drop(permit);
        });
    }
}

/// The routes: the page's files (its HTML, script, style sheet and icon) and the API.
pub fn router(app: Arc<App>) -> Router {
    let file = |kind: &'static str, text: &'static str| {
        get(move || async move { ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], text) })
    };
    Router::new()
        .route("/", file("text/html; charset=utf-8", INDEX_HTML))
        .route("/app.js", file("text/javascript; charset=utf-8", APP_JS))
        .route("/style.css", file("text/css; charset=utf-8", STYLE_CSS))
        .route("/favicon.svg", file("image/svg+xml", FAVICON_SVG))
        .route("/api/games", get(games))
        .route("/api/new", post(new_game))
        .route("/api/state", get(state))
        .route("/api/move", post(play_move))
        .route("/api/undo", post(undo))
        .route("/api/resign", post(resign))
        .route("/api/draw", post(offer_draw))
        .route("/api/analysis", post(analysis_mode))
        .route("/api/analyze", post(analyze))
        .route("/api/go", post(go))
        .route("/api/hint", post(hint))
        .route("/api/view", get(view))
        .route("/api/record", get(record))
        .route("/api/import", post(import))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page or endpoint") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "method not allowed here (see docs/api.md)")
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(app.clone(), guard))
        .layer(axum::middleware::from_fn(server_timing))
        .with_state(app)
}

/// Every response says how long the server took over it, in the standard `Server-Timing`
/// header (`app;dur=MS`, milliseconds): from the request's arrival at the router to its
/// response, the waits for a search slot, a session or a blocking thread included. The load
/// test (scripts/loadtest.sh) reads it to tell the server's time from its clients' own waits.
async fn server_timing(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let start = Instant::now();
    let mut response = next.run(request).await;
    let value = format!("app;dur={:.1}", start.elapsed().as_secs_f64() * 1000.0);
    if let Ok(value) = header::HeaderValue::from_str(&value) {
        response.headers_mut().insert("server-timing", value);
    }
    response
}

/// The address of a request's client (inserted by the accept loop).
#[derive(Clone, Copy, Debug)]
struct Peer(IpAddr);

/// Refuses what the server's own page never sends ([`Hosts::check`]) before any route runs.
async fn guard(State(app): State<Arc<App>>, request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    match app.hosts.check(request.method(), request.headers()) {
        Ok(()) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

/// Who may drive the server: the names a request may give in `Host`, and the rules for the
/// requests that change something (every method but GET, HEAD and OPTIONS).
///
/// - `Host` must name the bound address or `localhost`, with the bound port (none: port 80),
///   or a name of `--allow-host` (`NAME`: any port; `NAME:PORT`: that port). Bound to every
///   address (`0.0.0.0`, `::`), any IP address with the bound port is taken too, as the
///   machine's addresses are many and change: DNS rebinding (another site's name pointed at
///   this machine) always puts a name in `Host`, never an address, and a page of another
///   site that names an address is cross-origin, which the rules below refuse. Host names of
///   the machine (`myhost.local`) need `--allow-host`.
/// - A request that changes something must say `Content-Type: application/json` (a page of
///   another site can send a form or `text/plain` without asking the server first; JSON it
///   cannot), and if it has an `Origin`, it must be `http://` or `https://` followed by the
///   request's `Host` (the page's own origin), and if it has `Sec-Fetch-Site`, it must be
///   `same-origin` or `none`. A request without those headers (curl, scripts) is taken when its
///   `Host` is.
pub struct Hosts {
    bound: SocketAddr,
    /// `--allow-host`: lower-case names, each with its port or none (any port).
    names: Vec<(String, Option<u16>)>,
}

impl Hosts {
    pub fn new(bound: SocketAddr, allow: &[String]) -> Hosts {
        let names = allow.iter().filter_map(|a| split_authority(a)).collect();
        Hosts { bound, names }
    }

    /// Whether `authority` (a `Host` header: `name`, `name:port`, `[v6]:port`) names this server.
    pub fn allows(&self, authority: &str) -> bool {
        let Some((host, port)) = split_authority(authority) else { return false };
        if self.names.iter().any(|(name, p)| *name == host && p.is_none_or(|p| Some(p) == port)) {
            return true;
        }
        if port.unwrap_or(80) != self.bound.port() {
            return false;
        }
        if host == "localhost" {
            return true;
        }
        match host.parse::<IpAddr>() {
            Ok(ip) => self.bound.ip().is_unspecified() || ip == self.bound.ip(),
            Err(_) => false,
        }
    }

    /// The request's headers against the rules above: a 4xx and what to do when refused.
    pub fn check(&self, method: &Method, headers: &HeaderMap) -> Result<(), ApiError> {
        let text = |name: header::HeaderName| headers.get(name).map(|v| v.to_str().unwrap_or("\u{fffd}"));
        let host = text(header::HOST)
            .ok_or_else(|| ApiError::bad("no Host header: say which host you asked for (HTTP/1.1 needs it)"))?;
        if !self.allows(host) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "this server does not answer to the host '{host}': use http://{}/ or http://localhost:{}/, \
                     or start it with --allow-host NAME for another name",
                    self.bound,
                    self.bound.port()
                ),
            ));
        }
        if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
            return Ok(());
        }
        let json = text(header::CONTENT_TYPE).is_some_and(|t| {
            t.split(';').next().is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "send the body as JSON with 'Content-Type: application/json'",
            ));
        }
        if let Some(origin) = text(header::ORIGIN) {
            let own = ["http://", "https://"]
                .iter()
                .any(|scheme| origin.strip_prefix(scheme).is_some_and(|rest| rest.eq_ignore_ascii_case(host)));
            if !own {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    format!("requests from the origin '{origin}' are refused: only this server's own page may play"),
                ));
            }
        }
        if let Some(site) = text(header::HeaderName::from_static("sec-fetch-site")) {
            if !site.eq_ignore_ascii_case("same-origin") && !site.eq_ignore_ascii_case("none") {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    format!("a {site} request is refused: only this server's own page may play"),
                ));
            }
        }
        Ok(())
    }
}

/// `name`, `name:port`, `[v6]`, `[v6]:port` as the host in lower case without a final dot and
/// the port; None if malformed.
fn split_authority(authority: &str) -> Option<(String, Option<u16>)> {
    let authority = authority.trim();
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        host.parse::<std::net::Ipv6Addr>().ok()?;
        match after {
            "" => (host, None),
            _ => (host, Some(after.strip_prefix(':')?)),
        }
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    let port = match port {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None => None,
    };
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    let valid = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | ':' | '_');
    (!host.is_empty() && host.chars().all(valid)).then_some((host, port))
}

/// Whose sessions count together against `--max-sessions-per-client`: a client's IPv4 address,
/// or the /64 network of its IPv6 address (one machine's addresses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Client(IpAddr);

impl Client {
    fn of(ip: IpAddr) -> Client {
        match ip {
            IpAddr::V4(_) => Client(ip),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Client(IpAddr::V4(v4)),
                None => Client(IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into())),
            },
        }
    }
}

/// A reply of JSON serialized already (on a blocking thread, for a large board's state).
pub struct JsonBytes(Bytes);

impl JsonBytes {
    fn of<T: Serialize>(value: &T) -> Result<JsonBytes, ApiError> {
        serde_json::to_vec(value)
            .map(|v| JsonBytes(Bytes::from(v)))
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
    }
}

impl IntoResponse for JsonBytes {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0).into_response()
    }
}

/// The server's state: the sessions and the searches' slots.
pub struct App {
    sessions: Mutex<Sessions>,
    searches: Arc<Semaphore>,
    /// The large boards' lanes ([`LARGE_LANES`]).
    large: Arc<Semaphore>,
    idle: Duration,
    max_sessions: usize,
    per_client: usize,
    /// The options every session's engine starts with (the command line's `--hash`, `--weights`).
    options: Options,
    hosts: Hosts,
}

/// The sessions, and the places kept for the sessions being made (their engines not yet made),
/// by client: both count against the limits.
#[derive(Default)]
struct Sessions {
    map: HashMap<String, Arc<Slot>>,
    pending: HashMap<Client, usize>,
}

impl Sessions {
    /// The session the filter takes that has been untouched longest, at least `at_least`, and
    /// is not in use (no request holds its game).
    fn longest_idle(&self, take: impl Fn(&Slot) -> bool, at_least: Duration) -> Option<String> {
        self.map
            .values()
            .filter(|slot| take(slot) && !slot.in_use())
            .map(|slot| (slot.idle_for(), slot))
            .filter(|(idle, _)| *idle >= at_least)
            .max_by_key(|(idle, _)| *idle)
            .map(|(_, slot)| slot.id.clone())
    }
}

impl App {
    /// The server's state, for a server listening on `bound`.
    pub fn new(args: &ServeArgs, bound: SocketAddr, options: Options) -> App {
        App {
            sessions: Mutex::new(Sessions::default()),
            searches: Arc::new(Semaphore::new(args.searches)),
            large: Arc::new(Semaphore::new(LARGE_LANES)),
            idle: Duration::from_secs(args.idle_minutes * 60),
            max_sessions: args.max_sessions,
            per_client: args.max_sessions_per_client,
            options,
            hosts: Hosts::new(bound, &args.allow_host),
        }
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, Sessions> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The session `id`, marked as used now.
    fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        let slot = self.sessions().map.get(id).cloned();
        let slot = slot.ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!(
                    "unknown session '{id}': it ended (untouched for {} minutes, or its place was given to a new \
                     game); start a new game",
                    self.idle.as_secs() / 60
                ),
            )
        })?;
        slot.touch();
        Ok(slot)
    }

    /// A place for a new session of `client`, before its engine is made (300 refused requests
    /// used to make an engine each first: memory grew from 1.6 to 2.7 GB). A client at its cap
    /// gives up its own longest-idle session; on a full server, the longest-idle session
    /// untouched for [`EVICT_AFTER`] goes; 503 (saying why and what to do) when no session
    /// can go, as all are in use.
    fn reserve(self: &Arc<Self>, client: Client) -> Result<Reserved, ApiError> {
        self.reap();
        let evicted;
        {
            // Counted and taken under the sessions' lock, so that two requests cannot take the
            // last place.
            let mut sessions = self.sessions();
            let pending = |s: &Sessions, c: Option<Client>| -> usize {
                s.pending.iter().filter(|(k, _)| c.is_none_or(|c| **k == c)).map(|(_, n)| n).sum()
            };
            let mine = sessions.map.values().filter(|s| s.client == client).count() + pending(&sessions, Some(client));
            let victim = if mine >= self.per_client {
                let own = sessions.longest_idle(|s| s.client == client, Duration::ZERO);
                Some(own.ok_or_else(|| {
                    ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        format!(
                            "your address already has {} games in play on this server (the most one client may \
                             have) and the engine is working in all of them: wait for its moves, or close a tab",
                            self.per_client
                        ),
                    )
                })?)
            } else if sessions.map.len() + pending(&sessions, None) >= self.max_sessions {
                let any = sessions.longest_idle(|_| true, EVICT_AFTER);
                Some(any.ok_or_else(|| {
                    ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        format!(
                            "this server is full: its {} games were all played in the last {} s; try again in a \
                             minute",
                            self.max_sessions,
                            EVICT_AFTER.as_secs()
                        ),
                    )
                })?)
            } else {
                None
            };
            evicted = victim.and_then(|id| sessions.map.remove(&id));
            *sessions.pending.entry(client).or_default() += 1;
        }
        if let Some(slot) = &evicted {
            log::info!(
                "session {} ({:?}) ended after {:?} idle, for a new game",
                slot.id,
                slot.client.0,
                slot.idle_for()
            );
        }
        // Its engine is freed here, outside the lock.
        drop(evicted);
        Ok(Reserved(self.clone(), client))
    }

    /// Drops the sessions idle for longer than `idle` (not those in use).
    fn reap(&self) {
        let idle = self.idle;
        self.sessions().map.retain(|_, slot| slot.idle_for() < idle || slot.in_use());
    }

    /// Runs `work` off the async workers: on a blocking thread at once for a small board, in a
    /// large-board lane (waiting for one) for a `large` one.
    async fn off<T: Send + 'static>(
        &self,
        large: bool,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        if !large {
            return off(work).await;
        }
        let lane = self.large.clone().acquire_owned().await.expect("the semaphore is never closed");
        // The lane is held for as long as the work runs, even if the request goes away.
        off(move || {
            let out = work();
            drop(lane);
            out
        })
        .await
    }
}

async fn reaper(app: Arc<App>) {
    let mut tick = tokio::time::interval(Duration::from_secs(30));
    loop {
        tick.tick().await;
        app.reap();
    }
}

/// One session: a game against its own engine.
struct Slot {
    id: String,
    client: Client,
    /// Whether its board is large ([`description_is_large`]): its work waits for a large-board
    /// lane.
    large: AtomicBool,
    /// Held by the request that changes the game (through a search, if the engine moves).
    play: Arc<tokio::sync::Mutex<Play>>,
    /// While a request works on the game: the state it showed last, with its status, as JSON.
    busy: Mutex<Option<Bytes>>,
    last_used: Mutex<Instant>,
}

impl Slot {
    fn touch(&self) {
        *self.last_used.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    fn idle_for(&self) -> Duration {
        self.last_used.lock().unwrap_or_else(|e| e.into_inner()).elapsed()
    }

    fn set_busy(&self, state: Option<Bytes>) {
        *self.busy.lock().unwrap_or_else(|e| e.into_inner()) = state;
    }

    fn busy(&self) -> Option<Bytes> {
        self.busy.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn large(&self) -> bool {
        self.large.load(Ordering::Relaxed)
    }

    /// Whether a request works on its game (the game held, or a search shown).
    fn in_use(&self) -> bool {
        self.play.try_lock().is_err() || self.busy().is_some()
    }

    /// The game for a request that changes it; 409 while another request works on it.
    async fn take(&self) -> Result<OwnedMutexGuard<Play>, ApiError> {
        loop {
            if let Ok(play) = self.play.clone().try_lock_owned() {
                return Ok(play);
            }
            // Held by a search (its busy state says so), or for an instant by a state request.
            if self.busy().is_some() {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    "the engine is still playing in this game: wait for its move",
                ));
            }
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
    }
}

/// A place kept for a session being made ([`App::reserve`]), given back when dropped.
struct Reserved(Arc<App>, Client);

impl Drop for Reserved {
    fn drop(&mut self) {
        let mut sessions = self.0.sessions();
        if let Some(n) = sessions.pending.get_mut(&self.1) {
            *n -= 1;
            if *n == 0 {
                sessions.pending.remove(&self.1);
            }
        }
    }
}

/// Whether a game's description is of a large board (a number over [`SMALL_SIDE`]), read on
/// the text, before the game is built.
fn description_is_large(game: &str) -> bool {
    game.split_whitespace().any(|word| {
        let digits = word.trim_start_matches('0');
        word.bytes().all(|b| b.is_ascii_digit()) && (digits.len() > 3 || digits.parse().unwrap_or(0) > SMALL_SIDE)
    })
}

/// Runs `work` on a blocking thread: whatever touches a game (its size is the player's choice)
/// stays off the async workers. Large boards' work goes through [`App::off`] instead.
async fn off<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}

/// A game description's numbers are at most [`MAX_SIZE`] (checked on the text, before the game
/// is built).
fn check_size(game: &str) -> Result<(), ApiError> {
    for word in game.split_whitespace() {
        let digits = word.trim_start_matches('0');
        if word.bytes().all(|b| b.is_ascii_digit()) && (digits.len() > 3 || digits.parse().unwrap_or(0) > MAX_SIZE) {
            return Err(ApiError::bad(format!(
                "'{word}' is too large for this server: boards up to {MAX_SIZE} a side (boardbot play for larger)"
            )));
        }
    }
    Ok(())
}

/// Clears a session's busy state when the request working on it ends, however it ends.
struct Busy(Arc<Slot>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.set_busy(None);
    }
}

/// Raises a search's stop flag when dropped: the request's future holds it, so a client that
/// goes away (its future dropped) stops the search.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What a session plays.
struct Play {
    engine: Engine,
    you: Side,
    level: String,
    time: f64,
    /// What the engine thought of its last move.
    thinking: Option<ThinkingOut>,
    /// The person resigned (POST /api/resign): the game is over, won by the engine, whatever
    /// the position; undo or a new game takes it back.
    resigned: bool,
    /// The engine took the person's offer of a draw (POST /api/draw), for this reason: the game
    /// is over, drawn, whatever the position; undo or a new game takes it back.
    agreed: Option<String>,
    /// The engine's answer to the person's last offer of a draw, shown until the game changes.
    offer: Option<OfferOut>,
    /// Analysis mode (POST /api/analysis): the engine plays no move; the person moves for
    /// both sides and undo takes back one move.
    analysis: bool,
    /// The engine's opinion after each of its turns that said one, for the evaluation graph.
    evals: Vec<EvalPoint>,
    /// The game clock, if the game has one (the engine's moves then keep to its clock rather
    /// than to `time`).
    clock: Option<GameClock>,
}

/// A point of the evaluation graph: after the first `ply` moves, the engine's opinion of the
/// position as its evaluation bar gives it (-1: boardbot wins, 1: the person wins), in words.
#[derive(Clone, Debug, Serialize)]
pub struct EvalPoint {
    pub ply: usize,
    pub bar: f64,
    pub words: String,
}

impl Play {
    fn game(&self) -> &dyn AnyGame {
        self.engine.game().expect("a session always has a game")
    }

    fn engine_to_move(&self) -> bool {
        let game = self.game();
        self.outcome().is_none() && game.to_move() != self.you && !self.analysis
    }

    /// The game's outcome, a resignation's and a loss on time included.
    fn outcome(&self) -> Option<Outcome> {
        if self.resigned {
            return Some(Outcome::Win(self.you.other()));
        }
        if self.agreed.is_some() {
            return Some(Outcome::Draw);
        }
        if let Some(side) = self.flagged() {
            return Some(Outcome::Win(side.other()));
        }
        self.game().outcome()
    }

    /// The side that lost on time, if one did.
    fn flagged(&self) -> Option<Side> {
        self.clock.as_ref().and_then(GameClock::flagged)
    }

    /// Sets the clock going for the position: the side to move's runs while the game goes on
    /// against the engine, none in analysis mode or once the game is over.
    fn sync_clock(&mut self) {
        if self.clock.is_none() {
            return;
        }
        let still = self.outcome().is_some() || self.analysis;
        let side = self.game().to_move();
        let clock = self.clock.as_mut().expect("checked above");
        if still {
            clock.stop(false);
        } else {
            clock.run(side);
        }
    }

    fn clock_out(&self) -> Option<ClockOut> {
        let side = |s: Side| if s == Side::First { "first" } else { "second" };
        self.clock.as_ref().map(|c| ClockOut {
            minutes: c.minutes,
            increment: c.increment.as_secs_f64(),
            left_ms: [Side::First, Side::Second].map(|s| c.left_now(s).as_millis() as u64),
            running: c.running.filter(|_| c.flagged().is_none()).map(|r| side(r.0)),
            flagged: c.flagged().map(side),
        })
    }

    fn state(&self, id: &str, status: &'static str) -> StateOut {
        let game = self.game();
        let side = |s: Side| if s == Side::First { "first" } else { "second" };
        let outcome = self.outcome();
        let result = outcome.map(|o| match o {
            Outcome::Draw => "Draw".to_string(),
            Outcome::Win(s) if s == self.you => "You win".to_string(),
            Outcome::Win(_) => "boardbot wins".to_string(),
        });
        let played = game
            .history()
            .into_iter()
            .zip(game.human_history())
            .zip(game.movers())
            .map(|((text, human), s)| PlayedOut { text, human, side: side(s) })
            .collect();
        let view = game.view();
        let end_reason = if self.resigned {
            Some("you resigned".to_string())
        } else if let Some(why) = &self.agreed {
            Some(format!("drawn by agreement: {why}"))
        } else if let Some(side) = self.flagged() {
            Some(if side == self.you { "you ran out of time" } else { "boardbot ran out of time" }.to_string())
        } else {
            game.human_end_reason().map(|r| in_view_names(&r, game.side_names(), &view))
        };
        StateOut {
            session: id.to_string(),
            game: game.spec().to_string(),
            view,
            history: game.history(),
            played,
            to_move: outcome.is_none().then(|| side(game.to_move())),
            your_side: side(self.you),
            level: self.level.clone(),
            time: self.time,
            outcome: outcome.map(|o| match o {
                Outcome::Draw => "draw",
                Outcome::Win(s) => side(s),
            }),
            result,
            end_reason,
            thinking: self.thinking.clone(),
            status,
            algorithm: self.engine.options().algorithm.name(),
            evaluation: self.engine.options().evaluation.clone(),
            depth: self.engine.options().max_depth,
            draw_offer: self.offer.clone(),
            analysis: self.analysis,
            evals: self.evals.iter().filter(|e| e.ply <= game.history().len()).cloned().collect(),
            clock: self.clock_out(),
        }
    }

    /// The status with no request at work.
    fn resting_status(&self) -> &'static str {
        if self.outcome().is_some() {
            "over"
        } else if self.engine_to_move() {
            "engine_to_move"
        } else {
            "your_turn"
        }
    }
}

/// `text` (a game's words, starting with a player's name as the game's texts give it:
/// `names`) with the player called as the page's view calls it ("Black has 5 in a row" where the
/// terminal says "X has 5 in a row"): the page names players as its board draws them.
fn in_view_names(text: &str, names: [&str; 2], view: &View) -> String {
    for (name, player) in names.iter().zip(&view.players) {
        if let Some(rest) = text.strip_prefix(name).filter(|rest| rest.starts_with(' ')) {
            return format!("{}{rest}", player.name);
        }
    }
    text.to_string()
}

/// A game's state as the API shows it (docs/api.md).
#[derive(Clone, Debug, Serialize)]
pub struct StateOut {
    /// your_turn, queued, thinking, engine_to_move (no search running: POST /api/go), over.
    /// First, so that the JSON of a state differs by its first bytes only from another status.
    pub status: &'static str,
    pub session: String,
    pub game: String,
    pub view: View,
    pub history: Vec<String>,
    /// The moves since the start: each as move text, as people write it, and who played it.
    pub played: Vec<PlayedOut>,
    /// "first" or "second"; null once the game is over.
    pub to_move: Option<&'static str>,
    pub your_side: &'static str,
    pub level: String,
    pub time: f64,
    /// "first", "second" (the winner) or "draw"; null while the game goes on.
    pub outcome: Option<&'static str>,
    /// The outcome for the person: "You win", "boardbot wins", "Draw".
    pub result: Option<String>,
    pub end_reason: Option<String>,
    pub thinking: Option<ThinkingOut>,
    /// The engine's algorithm ("full": its own search), the textbook algorithms' evaluation
    /// (null: the game's own) and the depth cap (null: none).
    pub algorithm: &'static str,
    pub evaluation: Option<String>,
    pub depth: Option<u32>,
    /// The engine's answer to the person's last offer of a draw (POST /api/draw), until the
    /// game changes; null when none was made.
    pub draw_offer: Option<OfferOut>,
    /// Analysis mode: the engine plays no move, the person moves for both sides.
    pub analysis: bool,
    /// The evaluation graph: the engine's opinion after each of its turns that said one.
    pub evals: Vec<EvalPoint>,
    /// The game clock; null for a game without one.
    pub clock: Option<ClockOut>,
}

/// The engine's answer to an offer of a draw.
#[derive(Clone, Debug, Serialize)]
pub struct OfferOut {
    pub accepted: bool,
    /// The answer in words, with its reason: "boardbot accepts the draw: its search proves the
    /// position a draw", "boardbot declines the draw: boardbot wins in 4 moves".
    pub words: String,
}

/// A move played.
#[derive(Clone, Debug, Serialize)]
pub struct PlayedOut {
    pub text: String,
    pub human: String,
    /// "first" or "second".
    pub side: &'static str,
}

/// What the engine thought of its last move.
#[derive(Clone, Debug, Serialize)]
pub struct ThinkingOut {
    pub moves: Vec<String>,
    /// The moves as people write them.
    pub human: Vec<String>,
    pub depth: u32,
    pub score: i32,
    /// The score in words, from the engine's side: "wins in 7", "draw", "evaluation +12".
    pub words: String,
    pub proved: bool,
    pub nodes: u64,
    pub time_ms: u64,
    /// Where the move came from: search, only_move, book, solver, wins_at_once.
    pub source: Source,
    /// The thinking in one line for people, naming "boardbot" and "you": "boardbot wins in 4
    /// moves (depth 12, 1,234 nodes, 0.50 s)", "only move", "book move: ...".
    pub line: String,
    /// The opinion alone ("better for you"), if the move says one.
    pub opinion: Option<String>,
    /// For an evaluation bar, from the person's view: -1 (boardbot wins) to 1 (the person wins);
    /// null if the move says nothing of the position.
    pub bar: Option<f64>,
    /// The deadline the server gave the search ([`Deadline`]: the page's time per move), in
    /// milliseconds after it started.
    pub budget_ms: u64,
}

impl ThinkingOut {
    /// The engine's thought `t` of its moves `moves` (as people write them: `human`), `me`
    /// ("boardbot") against `other` ("you"); `ended`: whether those moves ended the game.
    fn new(moves: Vec<String>, human: Vec<String>, t: &Thought, me: &str, other: &str, ended: bool) -> ThinkingOut {
        ThinkingOut {
            moves,
            human,
            depth: t.depth,
            score: t.score,
            words: t.words.clone(),
            proved: t.proved,
            nodes: t.nodes,
            time_ms: t.elapsed.as_millis() as u64,
            source: t.source,
            line: line_for_people(t, me, other, ended),
            opinion: t.opinion.as_ref().map(|op| opinion_words(op, me, other)),
            bar: t.opinion.as_ref().map(|op| -op.bar()),
            budget_ms: 0,
        }
    }
}

/// The page's time per move as a deadline the server keeps itself, whatever the engine's
/// options ask (a textbook algorithm to depth 64, a hint at full strength): the search's stop
/// flag is raised `budget` after the search starts, so that no reply waits longer than the
/// person chose plus the search's check of the flag. Dropped (the search over) before then, it
/// raises nothing.
struct Deadline(tokio::task::JoinHandle<()>);

impl Deadline {
    fn start(stop: &Arc<AtomicBool>, budget: Duration) -> Deadline {
        let stop = stop.clone();
        Deadline(tokio::spawn(async move {
            tokio::time::sleep(budget).await;
            stop.store(true, Ordering::Relaxed);
        }))
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// [`thought_line`], saying only what is true for a person: a move that ended the game is not
/// "a win in 1 move" but the winning (or drawing) move, and a move chosen with no node
/// searched (the lowest levels look at the moves at a glance) shows no depth, nodes or time.
fn line_for_people(t: &Thought, me: &str, other: &str, ended: bool) -> String {
    use crate::game::render::Opinion;
    match &t.opinion {
        Some(Opinion::Win { moves: Some(_), .. }) if ended => return "the winning move".to_string(),
        Some(Opinion::Draw) if ended => return "the game ends in a draw".to_string(),
        _ => {}
    }
    if t.source == Source::Search && t.nodes == 0 && t.algorithm.is_none() {
        return "a quick move, chosen at a glance without a search".to_string();
    }
    thought_line(t, me, other)
}

/// An API error: a 4xx (or 5xx) with `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError(StatusCode, String);

impl ApiError {
    fn new(status: StatusCode, message: impl std::fmt::Display) -> ApiError {
        ApiError(status, message.to_string())
    }

    fn bad(message: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

/// A JSON body, with every failure (too large, unreadable, not JSON, wrong fields) as an
/// [`ApiError`].
fn read_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = body.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(status, format!("request body over {MAX_BODY} bytes"))
        } else {
            ApiError::new(status, e.body_text())
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad(format!("bad JSON body: {e}")))
}

#[derive(Serialize)]
struct GameOut {
    name: &'static str,
    aliases: &'static [&'static str],
    usage: &'static str,
    about: &'static str,
    examples: Vec<String>,
    /// The boards people know by a name: {"name": "connect4", "game": "cx 6 7 4"}.
    names: Vec<serde_json::Value>,
    /// The players' names (the first player's first), from the first example.
    sides: [&'static str; 2],
    /// The players' names on each board of `names` and `examples` (by its description), as its
    /// page draws them: {"mnk 15 15 5": ["Black", "White"], "mnk 3 3 3": ["X", "O"]}.
    board_sides: serde_json::Map<String, serde_json::Value>,
    /// The evaluations of the textbook algorithms: {"name", "about"}, the engine's first.
    evaluations: Vec<serde_json::Value>,
    /// Whether the description takes cells out of play (`blocked ROW,COL ...`).
    blocked: bool,
}

/// The boards a game's registry entry gives as examples ([`GameType::examples`]).
pub fn examples(kind: &'static GameType) -> Vec<String> {
    kind.examples.iter().map(|e| e.to_string()).collect()
}

async fn games() -> Result<Json<serde_json::Value>, ApiError> {
    static GAMES_OUT: OnceLock<serde_json::Value> = OnceLock::new();
    if let Some(out) = GAMES_OUT.get() {
        return Ok(Json(out.clone()));
    }
    // The examples are checked by building each game once: off the async workers, once.
    let out = off(|| {
        let games: Vec<GameOut> = GAMES
            .iter()
            .map(|&k| {
                let first = k.names.first().map(|(_, d)| d.to_string()).or_else(|| examples(k).into_iter().next());
                let game =
                    first.and_then(|d| GameSpec::parse(&d).ok()).and_then(|s| s.new_game(&Resources::none()).ok());
                GameOut {
                    name: k.name,
                    aliases: k.aliases,
                    usage: k.usage,
                    about: k.about,
                    examples: examples(k),
                    names: k
                        .names
                        .iter()
                        .map(|(name, game)| serde_json::json!({ "name": name, "game": game }))
                        .collect(),
                    sides: game.as_ref().map_or(["first", "second"], |g| g.view().players.map(|p| p.name)),
                    board_sides: k
                        .names
                        .iter()
                        .map(|(_, d)| d.to_string())
                        .chain(examples(k))
                        .filter_map(|d| {
                            let g = GameSpec::parse(&d).ok()?.new_game(&Resources::none()).ok()?;
                            Some((d, serde_json::json!(g.view().players.map(|p| p.name))))
                        })
                        .collect(),
                    evaluations: game
                        .as_ref()
                        .map(|g| g.evaluations())
                        .unwrap_or_default()
                        .iter()
                        .map(|(name, about)| serde_json::json!({ "name": name, "about": about }))
                        .collect(),
                    blocked: k.blocked,
                }
            })
            .collect();
        let levels: Vec<&str> = crate::bot::LEVELS.iter().map(|(name, _)| *name).collect();
        let algorithms: Vec<serde_json::Value> =
            Algorithm::PLAY.iter().map(|a| serde_json::json!({ "name": a.name(), "about": a.about() })).collect();
        serde_json::json!({ "games": games, "levels": levels, "time": TIME_RANGE, "algorithms": algorithms })
    })
    .await?;
    Ok(Json(GAMES_OUT.get_or_init(|| out).clone()))
}

#[derive(Deserialize)]
struct NewIn {
    game: String,
    #[serde(default = "default_you")]
    you: String,
    #[serde(default = "default_level")]
    level: String,
    #[serde(default = "default_time")]
    time: f64,
    /// A session to play the new game in (its engine and memory kept); none: a new session.
    session: Option<String>,
    /// The engine's algorithm (see [`Algorithm`]); "full" by default.
    algorithm: Option<String>,
    /// The textbook algorithms' evaluation, by name; the game's own by default.
    evaluation: Option<String>,
    /// The search's depth cap, 1 to 64.
    depth: Option<u32>,
    /// Cells out of play placed at random (games that take `blocked ROW,COL ...`).
    #[serde(default)]
    blocked: usize,
    /// The seed of the random choices (the cells out of play, the engine's); from the
    /// operating system by default.
    seed: Option<u64>,
    /// Moves to play from the start (move text), all or nothing: a shared position.
    #[serde(default)]
    moves: Vec<String>,
    /// Moves to play from the start (after `moves`) as people write them (the move list's
    /// notation: `h8 i9`, `4 3`, `11-15`), all or nothing: a position set up from a move list.
    #[serde(default)]
    human_moves: Vec<String>,
    /// Start in analysis mode (the engine plays no move).
    #[serde(default)]
    analysis: bool,
    /// A game clock (minutes for each side, and seconds added after each turn); none by default.
    clock: Option<ClockIn>,
}

#[derive(Clone, Copy, Deserialize)]
struct ClockIn {
    minutes: f64,
    #[serde(default)]
    increment: f64,
    /// Each side's time left in milliseconds (the first player's first), for a game taken up
    /// again (the page keeps its games); the full `minutes` by default.
    left_ms: Option<[u64; 2]>,
}

fn default_you() -> String {
    "first".into()
}
fn default_level() -> String {
    "max".into()
}
fn default_time() -> f64 {
    1.0
}

#[derive(Deserialize)]
struct SessionIn {
    session: String,
}

#[derive(Deserialize)]
struct MoveIn {
    session: String,
    #[serde(rename = "move")]
    mv: String,
}

async fn new_game(
    State(app): State<Arc<App>>,
    Extension(peer): Extension<Peer>,
    body: Result<Bytes, BytesRejection>,
) -> Result<JsonBytes, ApiError> {
    let req: NewIn = read_body(body)?;
    check_size(&req.game)?;
    let large = description_is_large(&req.game);
    let you = match req.you.to_ascii_lowercase().as_str() {
        "first" => Side::First,
        "second" => Side::Second,
        other => return Err(ApiError::bad(format!("you must be \"first\" or \"second\", got '{other}'"))),
    };
    // The engine's options the request sets, checked now against the options' table (a bad
    // value changes nothing) and set on the session's engine by `setup`.
    let mut asked = vec![
        ("level", option("level").and_then(|o| o.parse(&req.level)).map_err(ApiError::bad)?),
        ("algorithm", Value::Text(req.algorithm.clone().unwrap_or_else(|| "full".into()))),
        ("depth", req.depth.map_or(Value::Off, |d| Value::Number(d.into()))),
        ("evaluation", Value::Text(req.evaluation.clone().unwrap_or_default())),
    ];
    asked.extend(req.seed.map(|seed| ("seed", Value::Number(seed))));
    let mut checked = Options::default();
    for (key, value) in &asked {
        checked.set_value(key, value.clone()).map_err(ApiError::bad)?;
    }
    if !(TIME_RANGE.0..=TIME_RANGE.1).contains(&req.time) {
        return Err(ApiError::bad(format!(
            "time must be {} to {} seconds per move, got {}",
            TIME_RANGE.0, TIME_RANGE.1, req.time
        )));
    }
    if let Some(c) = req.clock {
        if !(CLOCK_MINUTES.0..=CLOCK_MINUTES.1).contains(&c.minutes) {
            return Err(ApiError::bad(format!(
                "clock minutes must be {} to {}, got {}",
                CLOCK_MINUTES.0, CLOCK_MINUTES.1, c.minutes
            )));
        }
        if !(CLOCK_INCREMENT.0..=CLOCK_INCREMENT.1).contains(&c.increment) {
            return Err(ApiError::bad(format!(
                "clock increment must be {} to {} seconds, got {}",
                CLOCK_INCREMENT.0, CLOCK_INCREMENT.1, c.increment
            )));
        }
        // Increments can take a side's time above its start: a day at most.
        if c.left_ms.is_some_and(|l| l.iter().any(|&ms| ms > 86_400_000)) {
            return Err(ApiError::bad("clock left_ms must be 0 to 86400000 milliseconds for each side"));
        }
    }
    let evaluation = checked.evaluation;
    // The game as described, its evaluation checked, its cells out of play drawn: it is built,
    // so this runs off the async workers (see `off`).
    let (blocked, seed, wanted) = (req.blocked, req.seed, evaluation.clone());
    let (moves, human_moves) = (req.moves.clone(), req.human_moves.clone());
    // The description read and checked (a position given by `fen` is built, so that an illegal
    // one gets 400), and the moves to play from its start, in move text.
    let prepare = move |text: &str| -> Result<(GameSpec, Vec<String>), ApiError> {
        let mut spec = GameSpec::parse(text).map_err(ApiError::bad)?;
        if !spec.options().is_empty() {
            spec.new_game(&Resources::none()).map_err(ApiError::bad)?;
        }
        if let Some(name) = &wanted {
            let game = spec.new_game(&Resources::none()).map_err(ApiError::bad)?;
            if !game.evaluations().iter().any(|(n, _)| n == name) {
                let names: Vec<&str> = game.evaluations().iter().map(|(n, _)| *n).collect();
                return Err(ApiError::bad(format!("{spec} has no evaluation '{name}' ({})", names.join(", "))));
            }
        }
        if blocked > 0 {
            if !spec.kind().blocked || !spec.options().is_empty() {
                return Err(ApiError::bad(format!("{spec} takes no cells out of play at random")));
            }
            let free = crate::ui::play::free_cells(&spec).map_err(|e| ApiError::bad(e.to_string()))?;
            if blocked >= free.len() {
                return Err(ApiError::bad(format!("at most {} cells out of play", free.len().saturating_sub(1))));
            }
            let mut rng = seed.map_or_else(SmallRng::from_entropy, SmallRng::seed_from_u64);
            spec = crate::ui::play::with_blocked(&spec, blocked, &mut rng).map_err(|e| ApiError::bad(e.to_string()))?;
        }
        let mut moves = moves.clone();
        if !moves.is_empty() || !human_moves.is_empty() {
            // Checked on a game of its own before the session changes.
            let mut game = spec.new_game(&Resources::none()).map_err(ApiError::bad)?;
            game.set_moves(&moves).map_err(|e| ApiError::bad(format!("moves: {e}")))?;
            for (i, human) in human_moves.iter().enumerate() {
                let text = game
                    .parse_human(human)
                    .map_err(|e| ApiError::bad(format!("move {} of the list, '{human}': {e}", i + 1)))?;
                game.play(&text).map_err(|e| ApiError::bad(format!("move {} of the list, '{human}': {e}", i + 1)))?;
                moves.push(text);
            }
        }
        Ok((spec, moves))
    };
    let timeout = Duration::from_secs_f64(req.time);
    let level_name = req.level.to_ascii_lowercase();
    let setup = move |play: &mut Play, spec: &GameSpec, moves: &[String]| -> Result<(), ApiError> {
        let internal = |e: anyhow::Error| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e);
        let mut options = play.engine.options().clone();
        for (key, value) in asked {
            options.set_value(key, value).map_err(internal)?;
        }
        play.engine.set_options(options).map_err(internal)?;
        play.engine.new_game(spec, you == Side::Second, timeout).map_err(internal)?;
        if !moves.is_empty() {
            let words: Vec<&str> = moves.iter().flat_map(|m| m.split_whitespace()).collect();
            play.engine.set_position(&words).map_err(internal)?;
        }
        play.analysis = req.analysis;
        play.you = you;
        play.level = level_name;
        play.time = req.time;
        play.thinking = None;
        play.resigned = false;
        play.agreed = None;
        play.offer = None;
        play.evals.clear();
        play.clock = req.clock.map(|c| {
            let mut clock = GameClock::new(c.minutes, c.increment);
            if let Some(left) = c.left_ms {
                clock.left = left.map(Duration::from_millis);
                clock.flag = [Side::First, Side::Second].into_iter().find(|s| clock.left[s.index()].is_zero());
            }
            clock
        });
        Ok(())
    };
    let text = req.game;
    let (slot, play) = match &req.session {
        Some(id) => {
            let slot = app.slot(id)?;
            let mut play = slot.take().await?;
            // The game is read and built off the async workers; a bad description changes nothing.
            play = app
                .off(large, move || {
                    let (spec, moves) = prepare(&text)?;
                    setup(&mut play, &spec, &moves)?;
                    Ok::<_, ApiError>(play)
                })
                .await??;
            slot.large.store(description_is_large(&play.game().spec().to_string()), Ordering::Relaxed);
            (slot, play)
        }
        None => {
            // The session's place first: a full server makes no engine.
            let client = Client::of(peer.0);
            let reserved = app.reserve(client)?;
            let options = app.options.clone();
            // The engine's tables are made and touched here, and the game built: off the async
            // workers.
            let play = app
                .off(large, move || {
                    let (spec, moves) = prepare(&text)?;
                    let engine = Engine::new(options).mapping_tables_as_used();
                    let mut play = Play {
                        engine,
                        you,
                        level: String::new(),
                        time: 0.0,
                        thinking: None,
                        resigned: false,
                        agreed: None,
                        offer: None,
                        analysis: false,
                        evals: Vec::new(),
                        clock: None,
                    };
                    setup(&mut play, &spec, &moves)?;
                    Ok::<_, ApiError>(play)
                })
                .await??;
            let id = format!("{:032x}", rand::random::<u128>());
            let large = description_is_large(&play.game().spec().to_string());
            let slot = Arc::new(Slot {
                id: id.clone(),
                client,
                large: AtomicBool::new(large),
                play: Arc::new(tokio::sync::Mutex::new(play)),
                busy: Mutex::new(None),
                last_used: Mutex::new(Instant::now()),
            });
            let play = slot.take().await?;
            app.sessions().map.insert(id, slot.clone());
            drop(reserved);
            (slot, play)
        }
    };
    engine_turn(&app, slot, play).await
}

/// A search's hold on its session (shown busy) and on a search slot, for as long as it lives:
/// the search's blocking thread drops it as soon as it ends, even if the request went away.
struct SearchHold {
    _busy: Busy,
    _permit: tokio::sync::OwnedSemaphorePermit,
}

/// The state's JSON with the status `queued`, and with `thinking`, for a search about to wait:
/// serialized once (a large board's state is a megabyte), the status being its first field.
fn search_states(play: &Play, id: &str) -> Result<(JsonBytes, JsonBytes), ApiError> {
    let mut state = play.state(id, "queued");
    let queued = JsonBytes::of(&state)?;
    let (from, to) = (&br#"{"status":"queued""#[..], &br#"{"status":"thinking""#[..]);
    let thinking = match queued.0.strip_prefix(from) {
        Some(rest) => JsonBytes(Bytes::from([to, rest].concat())),
        None => {
            state.status = "thinking";
            JsonBytes::of(&state)?
        }
    };
    Ok((queued, thinking))
}

/// Shows the session `queued` (its state), waits for a search slot, then shows it `thinking`.
/// Returns the hold, the search's stop flag and the flag's guard: the request's future keeps the
/// guard, so a client that goes away stops the search.
async fn wait_for_search(
    app: &App,
    slot: &Arc<Slot>,
    (queued, thinking): (JsonBytes, JsonBytes),
) -> (SearchHold, Arc<AtomicBool>, StopOnDrop) {
    slot.set_busy(Some(queued.0));
    let busy = Busy(slot.clone());
    let permit = app.searches.clone().acquire_owned().await.expect("the semaphore is never closed");
    slot.set_busy(Some(thinking.0));
    let stop = Arc::new(AtomicBool::new(false));
    (SearchHold { _busy: busy, _permit: permit }, stop.clone(), StopOnDrop(stop))
}

/// Lets the engine play while it is its turn (a search on a blocking thread, after waiting for
/// a search slot), and returns the state then.
async fn engine_turn(app: &App, slot: Arc<Slot>, mut play: OwnedMutexGuard<Play>) -> Result<JsonBytes, ApiError> {
    loop {
        let id = slot.id.clone();
        // The state (the board's view, O(cells)) and its JSON are made off the async workers too.
        let (back, shown) = app
            .off(slot.large(), move || {
                // The engine's clock runs from the person's move (a wait for a search slot
                // included).
                play.sync_clock();
                let shown = play.engine_to_move().then(|| search_states(&play, &id));
                (play, shown)
            })
            .await?;
        play = back;
        let Some(shown) = shown else { break };
        let (hold, stop, _stop_on_drop) = wait_for_search(app, &slot, shown?).await;
        let engine_side = play.game().to_move();
        // On a game clock, the engine's share of its time left (see `clock_budget`); else the
        // page's time per move.
        let budget = match &play.clock {
            Some(clock) => {
                let budget = clock_budget(clock.left_now(engine_side), clock.increment);
                play.engine.set_clock_budget(budget);
                budget
            }
            None => Duration::from_secs_f64(play.time),
        };
        let _deadline = Deadline::start(&stop, budget);
        let budget_ms = budget.as_millis() as u64;
        let search = tokio::task::spawn_blocking(move || {
            let before = play.game().history().len();
            let history = play.game().history();
            let turn = play.engine.think(Instant::now(), stop);
            let mut out_of_time = false;
            if let Some(clock) = play.clock.as_mut() {
                clock.stop(true);
                out_of_time = clock.flag == Some(engine_side);
            }
            let turn = if out_of_time {
                // Out of time before its move was made (its reserve keeps that from happening):
                // the move does not count, the game is lost on time.
                play.thinking = None;
                let words: Vec<&str> = history.iter().flat_map(|m| m.split_whitespace()).collect();
                play.engine.set_position(&words)
            } else {
                turn.map(|turn| {
                    let human = play.game().human_history()[before..].to_vec();
                    let ended = play.game().outcome().is_some();
                    play.thinking = turn.thought.as_ref().map(|t| ThinkingOut {
                        budget_ms,
                        ..ThinkingOut::new(turn.moves.clone(), human, t, "boardbot", "you", ended)
                    });
                    let ply = play.game().history().len();
                    if let Some((bar, words)) =
                        play.thinking.as_ref().and_then(|t| Some((t.bar?, t.opinion.clone().unwrap_or_default())))
                    {
                        play.evals.retain(|e| e.ply < ply);
                        play.evals.push(EvalPoint { ply, bar, words });
                    }
                })
            };
            // The slot and the game are free again even if the request went away.
            drop(hold);
            (play, turn)
        });
        let (back, turn) = search.await.map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        play = back;
        turn.map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
    }
    // The person's clock runs from the engine's move (or the start) on.
    play.sync_clock();
    let id = slot.id.clone();
    app.off(slot.large(), move || JsonBytes::of(&play.state(&id, play.resting_status()))).await?
}

#[derive(Deserialize)]
struct StateQuery {
    session: String,
}

async fn state(
    State(app): State<Arc<App>>,
    query: Result<Query<StateQuery>, QueryRejection>,
) -> Result<JsonBytes, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad(e.body_text()))?;
    let slot = app.slot(&q.session)?;
    // Never behind a search: a request that holds the game sets its busy state at once, so
    // this waits at most for that instant.
    loop {
        if let Some(state) = slot.busy() {
            return Ok(JsonBytes(state));
        }
        if let Ok(play) = slot.play.clone().try_lock_owned() {
            let id = slot.id.clone();
            return app.off(slot.large(), move || JsonBytes::of(&play.state(&id, play.resting_status()))).await?;
        }
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
}

/// A game's record for download (docs/api.md, `GET /api/record`).
#[derive(Serialize)]
struct RecordOut {
    filename: String,
    text: String,
}

async fn record(
    State(app): State<Arc<App>>,
    query: Result<Query<StateQuery>, QueryRejection>,
) -> Result<Json<RecordOut>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad(e.body_text()))?;
    let slot = app.slot(&q.session)?;
    let play = slot.take().await?;
    let game = play.game();
    let players = match play.you {
        Side::First => ["You".to_string(), "boardbot".to_string()],
        Side::Second => ["boardbot".to_string(), "You".to_string()],
    };
    let result = crate::game::record::result_text(play.outcome());
    let text = GameRecordText {
        event: "boardbot serve".into(),
        number: 1,
        players,
        moves: game.history(),
        result: result.into(),
        reason: game.human_end_reason().unwrap_or_default(),
        notes: Vec::new(),
    };
    let (extension, text) = crate::game::record::export(game, &text);
    let name: String = game.spec().to_string().split_whitespace().take(4).collect::<Vec<_>>().join("-");
    Ok(Json(RecordOut { filename: format!("boardbot-{name}.{extension}"), text }))
}

#[derive(Deserialize)]
struct ImportIn {
    text: String,
}

/// A record read (docs/api.md, `POST /api/import`): the game and its moves, for `/api/new`.
#[derive(Serialize)]
struct ImportOut {
    game: String,
    moves: Vec<String>,
}

async fn import(body: Result<Bytes, BytesRejection>) -> Result<Json<ImportOut>, ApiError> {
    let req: ImportIn = read_body(body)?;
    let (spec, moves) = off(move || crate::game::record::import(&req.text)).await?.map_err(ApiError::bad)?;
    Ok(Json(ImportOut { game: spec.to_string(), moves }))
}

async fn play_move(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<JsonBytes, ApiError> {
    let req: MoveIn = read_body(body)?;
    let slot = app.slot(&req.session)?;
    let mut play = slot.take().await?;
    if play.flagged() == Some(play.you) {
        return Err(ApiError::new(StatusCode::CONFLICT, "the game is over: your time ran out"));
    }
    if play.outcome().is_some() {
        return Err(ApiError::new(StatusCode::CONFLICT, "the game is over"));
    }
    if play.engine_to_move() {
        return Err(ApiError::new(StatusCode::CONFLICT, "it is the engine's turn (POST /api/go)"));
    }
    // A move is read and played in O(1) on any board: no large-board lane, so that a refusal
    // is answered at once.
    let play = off(move || {
        if play.analysis {
            // Either side's move: checked on a copy, then the position set.
            let mut game = play.game().clone_box();
            game.play(&req.mv).map_err(ApiError::bad)?;
            let history = game.history();
            let words: Vec<&str> = history.iter().flat_map(|m| m.split_whitespace()).collect();
            play.engine.set_position(&words).map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
        } else {
            play.engine.opponent_move(&req.mv).map_err(ApiError::bad)?;
            // The person's turn done (not an extra turn): their clock stops, the increment added.
            let you = play.you;
            if play.game().to_move() != you {
                if let Some(clock) = play.clock.as_mut() {
                    clock.stop(true);
                }
            }
        }
        play.offer = None;
        Ok::<_, ApiError>(play)
    })
    .await??;
    engine_turn(&app, slot, play).await
}

/// The engine plays its turn, if it is its turn (after a request that went away mid-search).
async fn go(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<JsonBytes, ApiError> {
    let req: SessionIn = read_body(body)?;
    let slot = app.slot(&req.session)?;
    let play = slot.take().await?;
    engine_turn(&app, slot, play).await
}

/// Takes back the person's last move and the engine's reply to it.
async fn undo(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<JsonBytes, ApiError> {
    let req: SessionIn = read_body(body)?;
    let slot = app.slot(&req.session)?;
    let mut play = slot.take().await?;
    if play.flagged().is_some() {
        return Err(ApiError::new(StatusCode::CONFLICT, "the game was lost on time: start a new game"));
    }
    let id = slot.id.clone();
    // A copy of the game and its moves replayed: O(cells), off the async workers.
    app.off(slot.large(), move || {
        let mut game = play.game().clone_box();
        let you = play.you;
        // Back to the last position where the person was to move before one of their moves.
        loop {
            if !game.undo() {
                return Err(ApiError::new(StatusCode::CONFLICT, "no move of yours to take back"));
            }
            // In analysis mode one move, whoever played it.
            if game.to_move() == you || play.analysis {
                break;
            }
        }
        let history = game.history();
        let words: Vec<&str> = history.iter().flat_map(|m| m.split_whitespace()).collect();
        play.engine.set_position(&words).map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
        play.thinking = None;
        play.resigned = false;
        play.agreed = None;
        play.offer = None;
        // The time spent is not given back: the person's clock runs on from where it is.
        play.sync_clock();
        JsonBytes::of(&play.state(&id, play.resting_status()))
    })
    .await?
}

/// The person resigns: the game is over, won by the engine (409 if it is over already or the
/// engine is playing in it).
async fn resign(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<JsonBytes, ApiError> {
    let req: SessionIn = read_body(body)?;
    let slot = app.slot(&req.session)?;
    let mut play = slot.take().await?;
    if play.outcome().is_some() {
        return Err(ApiError::new(StatusCode::CONFLICT, "the game is over"));
    }
    play.resigned = true;
    play.offer = None;
    play.sync_clock();
    let id = slot.id.clone();
    app.off(slot.large(), move || JsonBytes::of(&play.state(&id, play.resting_status()))).await?
}

/// The engine's suggestion for the person's move, not played.
#[derive(Clone, Debug, Serialize)]
pub struct HintOut {
    /// The moves of the turn suggested (several where the game gives extra turns), in move text
    /// and as people write them.
    pub moves: Vec<String>,
    pub human: Vec<String>,
    /// The cells to click for the first move, in order (none for a move no cell stands for).
    pub keys: Vec<String>,
    /// The thinking behind it, naming "you" (the person) and "boardbot".
    pub line: String,
    /// The depth its search reached (0: no search chose it: a book, a solver, an only move).
    pub depth: u32,
    /// The deadline the server gave the search ([`Deadline`]: the page's time per move), in
    /// milliseconds after it started: a hint takes no longer than one of the engine's moves,
    /// whatever the level, algorithm and depth.
    pub budget_ms: u64,
}

/// The engine's search of the person's turn at full strength (the session's algorithm and
/// time, the maximum level whatever the session's), stopped by `stop`; the game and the
/// options are set back as they were (the engine on its own side). The turn found, not played,
/// and its moves as people write them.
fn person_search(play: &mut Play, stop: Arc<AtomicBool>) -> Result<(crate::game::players::Turn, Vec<String>)> {
    let history = play.game().history();
    let spec = play.game().spec().clone();
    // At full strength whatever the session's level, as strong sites give hints; the session's
    // options (its level) are set back below.
    let kept = play.engine.options().clone();
    let strongest = option("level").and_then(|o| o.parse("max")).and_then(|max| {
        let mut options = kept.clone();
        options.set_value("level", max)?;
        Ok(options)
    });
    let strongest = strongest.and_then(|options| play.engine.set_options(options));
    let turn = strongest.and_then(|()| play.engine.think(Instant::now(), stop));
    let kept = play.engine.set_options(kept);
    let found = turn.map(|turn| {
        let human = play.game().human_history()[history.len()..].to_vec();
        (turn, human)
    });
    // Back as it was: the position, and the engine on its own side (it searched the person's).
    let words: Vec<&str> = history.iter().flat_map(|m| m.split_whitespace()).collect();
    let (timeout, engine_first) = (Duration::from_secs_f64(play.time), play.you == Side::Second);
    let restored = kept
        .and_then(|()| play.engine.new_game(&spec, engine_first, timeout))
        .and_then(|()| play.engine.set_position(&words));
    restored.and(found)
}

/// The start of a search on the person's turn (a hint, a draw offer): the session's game taken
/// (409 if it is over or the engine is to move), shown as waiting and then as thinking (the
/// board's view, O(cells), made off the async workers), once a search slot is free.
/// `pause`: the person's clock stops meanwhile (the engine thinks on its own behalf: a draw
/// offer); else it runs on (a hint is the person's own thinking).
async fn person_turn_search(
    app: &App,
    session: &str,
    pause: bool,
) -> Result<(Arc<Slot>, OwnedMutexGuard<Play>, (SearchHold, Arc<AtomicBool>, StopOnDrop)), ApiError> {
    let slot = app.slot(session)?;
    let mut play = slot.take().await?;
    if play.outcome().is_some() {
        return Err(ApiError::new(StatusCode::CONFLICT, "the game is over"));
    }
    if play.engine_to_move() {
        return Err(ApiError::new(StatusCode::CONFLICT, "it is the engine's turn (POST /api/go)"));
    }
    if pause {
        if let Some(clock) = play.clock.as_mut() {
            clock.stop(false);
        }
    }
    let id = slot.id.clone();
    let (play, shown) = app
        .off(slot.large(), move || {
            let shown = search_states(&play, &id);
            (play, shown)
        })
        .await?;
    let search = wait_for_search(app, &slot, shown?).await;
    Ok((slot, play, search))
}

/// A hint: the session's engine at full strength (its algorithm and time, the maximum level
/// whatever the session's) searches the person's move through a search slot as for its own
/// moves, and the game and the level are set back as they were.
async fn hint(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<Json<HintOut>, ApiError> {
    let req: SessionIn = read_body(body)?;
    let (_, mut play, (hold, stop, _stop_on_drop)) = person_turn_search(&app, &req.session, false).await?;
    let budget = Duration::from_secs_f64(play.time);
    let _deadline = Deadline::start(&stop, budget);
    let budget_ms = budget.as_millis() as u64;
    let search = tokio::task::spawn_blocking(move || {
        let view = play.game().view();
        let turn = person_search(&mut play, stop);
        drop(hold);
        let hint = turn.map(|(turn, human)| {
            let keys = view.moves.iter().find(|m| Some(&m.text) == turn.moves.first()).map(|m| m.keys.clone());
            let line = turn.thought.as_ref().map_or_else(String::new, |t| thought_line(t, "you", "boardbot"));
            let depth = turn.thought.as_ref().map_or(0, |t| t.depth);
            HintOut { moves: turn.moves, human, keys: keys.unwrap_or_default(), line, depth, budget_ms }
        });
        (play, hint)
    });
    let (_play, hint) = search.await.map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(Json(hint.map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?))
}

/// The single moves played before the engine takes a draw on a level score that is not proved
/// (a proved draw it takes at once).
pub const DRAW_AFTER_PLIES: usize = 40;
/// A score is level when its opinion's advantage (in the game's units of a clear advantage: a
/// man in checkers, a seed in Kalah, [`crate::game::render::Render::opinion`]) is at most this.
pub const LEVEL: f64 = 0.25;

/// The engine's answer to an offer of a draw: whether it accepts, and why in words. `dead`: only
/// a draw can come of the position; `best`: the value of the person's best move (the analysis
/// board's, [`crate::game::any::AnyThinking::analyze_moves`]: exact where the game's solver,
/// database or search proves it), `plies` single moves into the game.
fn draw_answer(dead: bool, best: Option<&MoveValue>, plies: usize) -> OfferOut {
    use crate::game::render::Opinion;
    let accept = |why: String| OfferOut { accepted: true, words: format!("boardbot accepts the draw: {why}") };
    let decline = |why: String| OfferOut { accepted: false, words: format!("boardbot declines the draw: {why}") };
    if dead {
        return accept("only a draw can come of this position".into());
    }
    let Some(best) = best else {
        return decline("it has no opinion of the position yet".into());
    };
    match best.opinion {
        Opinion::Draw => accept(match best.source {
            "solver" => "its exact solver or endgame database proves the position a draw".into(),
            "end" => "the best move ends the game in a draw".into(),
            _ => format!("its search proves the position a draw (depth {})", best.depth),
        }),
        Opinion::Estimate { .. } if best.depth == 0 => {
            decline("it could not search the position in the time it has".into())
        }
        Opinion::Estimate { advantage } if advantage.abs() <= LEVEL => {
            let score = format!("evaluation {advantage:+.2} for you at depth {}, level within ±{LEVEL}", best.depth);
            if plies >= DRAW_AFTER_PLIES {
                accept(format!("it scores the position level after {plies} single moves ({score})"))
            } else {
                decline(format!(
                    "it takes a draw on a level score only after {DRAW_AFTER_PLIES} single moves, and {plies} have \
                     been played ({score})"
                ))
            }
        }
        ref op => decline(opinion_words(op, "you", "boardbot")),
    }
}

/// The person offers a draw on their turn: the engine values every move of the position as
/// the analysis board does (through a search slot, in its time: the session's time per move,
/// at least [`ANALYSIS_TIME`]) and answers
/// ([`draw_answer`]); if it accepts, the game is over, drawn. The state then, with the answer
/// in `draw_offer`.
async fn offer_draw(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<JsonBytes, ApiError> {
    let req: SessionIn = read_body(body)?;
    let (slot, mut play, (hold, stop, _stop_on_drop)) = person_turn_search(&app, &req.session, true).await?;
    let budget = Duration::from_secs_f64(play.time.max(ANALYSIS_TIME));
    let _deadline = Deadline::start(&stop, budget);
    let search = tokio::task::spawn_blocking(move || {
        let game = play.game();
        let dead = game.is_dead_draw();
        let plies = game.history().len();
        let values = if dead { Vec::new() } else { game.analyze_moves(budget, &stop, play.engine.options().hash_mb) };
        drop(hold);
        let answer = draw_answer(dead, values.first(), plies);
        if answer.accepted {
            play.agreed = Some(answer.words.trim_start_matches("boardbot accepts the draw: ").to_string());
        }
        play.offer = Some(answer);
        // The person's clock runs again if the game goes on.
        play.sync_clock();
        play
    });
    let play = search.await.map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let id = slot.id.clone();
    app.off(slot.large(), move || JsonBytes::of(&play.state(&id, play.resting_status()))).await?
}

#[derive(Deserialize)]
struct ModeIn {
    session: String,
    on: bool,
}

/// Analysis mode on or off: on, the engine plays no move and the person moves for both sides;
/// off, the engine plays its side again (at once if it is to move).
async fn analysis_mode(
    State(app): State<Arc<App>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<JsonBytes, ApiError> {
    let req: ModeIn = read_body(body)?;
    let slot = app.slot(&req.session)?;
    let mut play = slot.take().await?;
    play.analysis = req.on;
    play.offer = None;
    engine_turn(&app, slot, play).await
}

/// The analysis board's time: the session's time per move, and at least this many seconds.
pub const ANALYSIS_TIME: f64 = 1.0;

#[derive(Deserialize)]
struct AnalyzeIn {
    session: String,
    /// The position after the first `ply` moves of the game; all of them by default.
    ply: Option<usize>,
}

/// A legal move on the analysis board.
#[derive(Clone, Debug, Serialize)]
pub struct AnalyzedMove {
    pub text: String,
    pub human: String,
    /// The cells to click for it (none for a move no cell stands for).
    pub keys: Vec<String>,
    /// The value after it, from the view of the side to move: in search units, in words
    /// naming the players as the board does ("Red wins in 5 moves", "better for South"), and
    /// how it is known ("exact: the game's solver", "proved by search, depth 12", "estimate,
    /// depth 9: +0.42").
    pub score: i32,
    pub words: String,
    pub how: String,
    /// Exact: by the game's solver or database, a search that saw every line to the end, or
    /// the end of the game.
    pub proved: bool,
    /// "solver", "search" or "end".
    pub source: &'static str,
    pub depth: u32,
    /// The value as the game's solver writes it in `boardbot solve --analyze` (Connect-X: Pons'
    /// score; Kalah: the first player's final margin).
    pub solver_value: Option<i32>,
}

/// The analysis board: every legal move of the session's position (or of the position after
/// `ply` moves) with its value, best first ([`crate::game::any::AnyThinking::analyze_moves`]),
/// through a search slot within the session's time per move (at least [`ANALYSIS_TIME`]). Any
/// position in analysis mode, after the game or a past one; not the position the person is
/// playing against the engine (409).
async fn analyze(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<JsonBytes, ApiError> {
    let req: AnalyzeIn = read_body(body)?;
    let slot = app.slot(&req.session)?;
    let play = slot.take().await?;
    let id = slot.id.clone();
    let (play, prepared) = app
        .off(slot.large(), move || {
            let prepared = (|| {
                let game = play.game();
                let history = game.history();
                let ply = req.ply.unwrap_or(history.len());
                if ply > history.len() {
                    return Err(ApiError::bad(format!("ply must be 0 to {} (the moves played)", history.len())));
                }
                if ply == history.len() && play.outcome().is_none() && !play.analysis {
                    return Err(ApiError::new(
                        StatusCode::CONFLICT,
                        "the analysis board shows the game being played only in analysis mode (or a past \
                         position, or after the game)",
                    ));
                }
                let mut copy = game.clone_box();
                copy.set_moves(&history[..ply]).map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
                if copy.outcome().is_some() {
                    return Err(ApiError::new(
                        StatusCode::CONFLICT,
                        "the game is over in this position: no move to analyze",
                    ));
                }
                Ok((copy, ply, search_states(&play, &id)?))
            })();
            (play, prepared)
        })
        .await?;
    let (copy, ply, shown) = prepared?;
    let (hold, stop, _stop_on_drop) = wait_for_search(&app, &slot, shown).await;
    let budget = Duration::from_secs_f64(play.time.max(ANALYSIS_TIME));
    let _deadline = Deadline::start(&stop, budget);
    let hash_mb = play.engine.options().hash_mb;
    let work = tokio::task::spawn_blocking(move || {
        let moves = copy.analyze_moves(budget, &stop, hash_mb);
        drop(hold);
        let view = copy.view();
        let side = copy.to_move();
        let (me, other) = (view.players[side.index()].name, view.players[side.other().index()].name);
        let moves: Vec<AnalyzedMove> = moves
            .into_iter()
            .map(|m| {
                use crate::game::render::Opinion;
                let how = match (m.source, m.proved, &m.opinion) {
                    ("end", _, _) => "ends the game".to_string(),
                    ("solver", _, _) => match m.solver_value {
                        Some(v) => format!("exact: the game's solver (its score {v:+})"),
                        None => "exact: the game's solver or endgame database".to_string(),
                    },
                    (_, true, _) => format!("proved by search, depth {}", m.depth),
                    // A win the search saw but did not prove: said as such, not as a number.
                    (_, false, Opinion::Estimate { advantage }) if m.score.abs() >= crate::search::WIN_BOUND => {
                        let who = if *advantage > 0.0 { me } else { other };
                        format!("estimate, depth {}: a win for {who} seen, not proved", m.depth)
                    }
                    (_, false, Opinion::Estimate { advantage }) => {
                        format!("estimate, depth {}: {advantage:+.2}", m.depth)
                    }
                    _ => format!("estimate, depth {}", m.depth),
                };
                let keys = view.moves.iter().find(|v| v.text == m.text).map(|v| v.keys.clone()).unwrap_or_default();
                AnalyzedMove {
                    words: opinion_words(&m.opinion, me, other),
                    how,
                    keys,
                    text: m.text,
                    human: m.human,
                    score: m.score,
                    proved: m.proved,
                    source: m.source,
                    depth: m.depth,
                    solver_value: m.solver_value,
                }
            })
            .collect();
        let side = if side == Side::First { "first" } else { "second" };
        JsonBytes::of(&serde_json::json!({
            "ply": ply, "side": side, "player": me, "budget_ms": budget.as_millis() as u64, "moves": moves
        }))
    });
    let out = work.await.map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    drop(play);
    out
}

#[derive(Deserialize)]
struct ViewQuery {
    session: Option<String>,
    ply: Option<usize>,
    game: Option<String>,
}

/// A view for the page: a session's position after its first `ply` moves (review; all of them
/// by default), or the start of the game `game` describes (to click cells out of play in).
async fn view(
    State(app): State<Arc<App>>,
    query: Result<Query<ViewQuery>, QueryRejection>,
) -> Result<JsonBytes, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad(e.body_text()))?;
    match (q.session, q.game) {
        (Some(id), None) => {
            let slot = app.slot(&id)?;
            loop {
                if slot.busy().is_some() {
                    return Err(ApiError::new(StatusCode::CONFLICT, "the engine is thinking: wait for its move"));
                }
                if let Ok(play) = slot.play.clone().try_lock_owned() {
                    // Replaying the moves builds boards: off the async workers.
                    return app
                        .off(slot.large(), move || {
                            let game = play.game();
                            let ply = q.ply.unwrap_or(game.history().len());
                            let view = game.view_at(ply).ok_or_else(|| {
                                ApiError::bad(format!("ply must be 0 to {} (the moves played)", game.history().len()))
                            })?;
                            JsonBytes::of(&serde_json::json!({ "ply": ply, "view": view }))
                        })
                        .await?;
                }
                tokio::time::sleep(std::time::Duration::from_millis(2)).await;
            }
        }
        (None, Some(text)) => {
            check_size(&text)?;
            app.off(description_is_large(&text), move || {
                let spec = GameSpec::parse(&text).map_err(ApiError::bad)?;
                let game = spec.new_game(&Resources::none()).map_err(ApiError::bad)?;
                JsonBytes::of(&serde_json::json!({ "game": spec.to_string(), "ply": 0, "view": game.view() }))
            })
            .await?
        }
        _ => Err(ApiError::bad("give a session (and a ply) or a game")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(idle_minutes: u64) -> ServeArgs {
        ServeArgs {
            addr: "127.0.0.1:0".parse().unwrap(),
            searches: 1,
            idle_minutes,
            max_sessions: 4,
            max_sessions_per_client: 2,
            allow_host: vec!["boardbot.example".into(), "proxy.example:443".into()],
            hash: 2,
            request_timeout: 10.0,
        }
    }

    fn app(idle_minutes: u64) -> Arc<App> {
        Arc::new(App::new(
            &args(idle_minutes),
            "127.0.0.1:8080".parse().unwrap(),
            Options { hash_mb: args(idle_minutes).hash, ..Options::default() },
        ))
    }

    fn client(ip: &str) -> Client {
        Client::of(ip.parse().unwrap())
    }

    /// A session of `who`, untouched for `idle`.
    fn slot_of(app: &App, id: &str, who: Client, idle: Duration) -> Arc<Slot> {
        let slot = slot(app, id);
        let slot = Arc::new(Slot {
            id: slot.id.clone(),
            client: who,
            large: AtomicBool::new(false),
            play: slot.play.clone(),
            busy: Mutex::new(None),
            last_used: Mutex::new(Instant::now().checked_sub(idle).unwrap()),
        });
        app.sessions().map.insert(id.into(), slot.clone());
        slot
    }

    fn ids(app: &App) -> Vec<String> {
        let mut ids: Vec<String> = app.sessions().map.keys().cloned().collect();
        ids.sort();
        ids
    }

    fn slot(app: &App, id: &str) -> Arc<Slot> {
        let mut engine = Engine::new(app.options.clone());
        let spec = GameSpec::parse(&examples(GAMES[0])[0]).unwrap();
        engine.new_game(&spec, false, Duration::from_millis(100)).unwrap();
        let play = Play {
            engine,
            you: Side::First,
            level: "max".into(),
            time: 0.1,
            thinking: None,
            resigned: false,
            agreed: None,
            offer: None,
            analysis: false,
            evals: Vec::new(),
            clock: None,
        };
        let slot = Arc::new(Slot {
            id: id.into(),
            client: Client::of([127, 0, 0, 1].into()),
            large: AtomicBool::new(false),
            play: Arc::new(tokio::sync::Mutex::new(play)),
            busy: Mutex::new(None),
            last_used: Mutex::new(Instant::now()),
        });
        app.sessions().map.insert(id.into(), slot.clone());
        slot
    }

    #[test]
    fn a_client_at_its_cap_gives_up_its_own_longest_idle_session_not_one_in_use() {
        let app = app(30);
        let (a, b) = (client("10.0.0.1"), client("10.0.0.2"));
        slot_of(&app, "a-old", a, Duration::from_secs(50));
        let busy = slot_of(&app, "a-older-busy", a, Duration::from_secs(90));
        let _in_use = busy.play.clone().try_lock_owned().unwrap();
        slot_of(&app, "b-oldest", b, Duration::from_secs(500));
        let reserved = app.reserve(a).unwrap();
        assert_eq!(ids(&app), ["a-older-busy", "b-oldest"], "a's idle session went, not b's nor the busy one");
        // Now a has one session (busy) and one place being made: at its cap, nothing to give up.
        let e = app.reserve(a).err().expect("a is at its cap with no idle session");
        assert_eq!(e.0, StatusCode::SERVICE_UNAVAILABLE);
        assert!(e.1.contains("2 games in play") && e.1.contains("close a tab"), "{}", e.1);
        drop(reserved);
        // Another client is not held back by a's cap.
        drop(app.reserve(b).unwrap());
        assert_eq!(ids(&app), ["a-older-busy", "b-oldest"]);
    }

    #[test]
    fn a_full_server_gives_the_longest_idle_session_to_a_newcomer() {
        let app = app(30);
        let (a, b, c) = (client("10.0.0.1"), client("10.0.0.2"), client("10.0.0.3"));
        slot_of(&app, "a1", a, Duration::from_secs(70));
        slot_of(&app, "a2", a, Duration::from_secs(120));
        slot_of(&app, "b1", b, Duration::from_secs(10));
        let busy = slot_of(&app, "b2", b, Duration::from_secs(600));
        busy.set_busy(Some(Bytes::from_static(b"{}")));
        // Full (4): the longest idle that is not in use and untouched for a minute goes.
        let reserved = app.reserve(c).unwrap();
        assert_eq!(ids(&app), ["a1", "b1", "b2"]);
        drop(reserved);
        app.sessions().map.remove("a1");
        slot_of(&app, "c1", c, Duration::from_secs(5));
        slot_of(&app, "c2", c, Duration::from_secs(5));
        // Full again, every idle session touched within the minute: 503, saying why.
        let e = app.reserve(client("10.0.0.4")).err().expect("no session idle for a minute");
        assert_eq!(e.0, StatusCode::SERVICE_UNAVAILABLE);
        assert!(e.1.contains("full") && e.1.contains("try again in a minute"), "{}", e.1);
        assert_eq!(ids(&app), ["b1", "b2", "c1", "c2"], "nothing changed");
    }

    #[test]
    fn the_search_states_differ_by_their_status_only() {
        let app = app(30);
        let slot = slot(&app, "s");
        let play = slot.play.try_lock().unwrap();
        let (queued, thinking) = search_states(&play, "s").unwrap();
        assert!(thinking.0.starts_with(br#"{"status":"thinking","#), "spliced, not serialized again");
        let q: serde_json::Value = serde_json::from_slice(&queued.0).unwrap();
        let mut t: serde_json::Value = serde_json::from_slice(&thinking.0).unwrap();
        assert_eq!((&q["status"], &t["status"]), (&"queued".into(), &"thinking".into()));
        t["status"] = "queued".into();
        assert_eq!(q, t);
    }

    #[test]
    fn the_engine_plans_a_share_of_its_clock_and_keeps_a_reserve() {
        let ms = Duration::from_millis;
        for left in [0, 1, 10, 60, 100, 500, 1_000, 3_000, 60_000, 600_000, 36_000_000] {
            for increment in [0, 100, 2_000, 60_000] {
                let budget = clock_budget(ms(left), ms(increment));
                let reserve = ms(left).mul_f64(CLOCK_RESERVE_SHARE).max(CLOCK_MIN_RESERVE).min(ms(left) / 2);
                assert!(budget + reserve <= ms(left), "{left} ms left, +{increment}: {budget:?}");
                if increment == 0 {
                    assert!(budget <= ms(left) / CLOCK_MOVES_TO_GO, "{left} ms left: {budget:?}");
                }
            }
        }
        // Five minutes: 12 s a move; with an increment of 2 s, 1.5 s more.
        assert_eq!(clock_budget(ms(300_000), ms(0)), ms(12_000));
        assert_eq!(clock_budget(ms(300_000), ms(2_000)), ms(13_500));
        // Little left but a large increment: never more than the time left less the reserve.
        assert_eq!(clock_budget(ms(1_000), ms(10_000)), ms(900));
    }

    #[test]
    fn a_clock_charges_the_side_that_moved_and_flags_one_out_of_time() {
        let mut clock = GameClock::new(0.01, 1.0);
        assert_eq!(clock.left_now(Side::First), Duration::from_millis(600));
        clock.run(Side::First);
        std::thread::sleep(Duration::from_millis(20));
        assert!(clock.left_now(Side::First) < Duration::from_millis(600));
        assert_eq!(clock.left_now(Side::Second), Duration::from_millis(600), "only the running clock goes down");
        clock.stop(true);
        let first = clock.left_now(Side::First);
        assert!(first > Duration::from_millis(1_000) && first < Duration::from_millis(1_600), "{first:?}");
        clock.run(Side::Second);
        std::thread::sleep(Duration::from_millis(650));
        assert_eq!(clock.flagged(), Some(Side::Second), "out of time while running");
        assert_eq!(clock.left_now(Side::Second), Duration::ZERO);
        clock.stop(true);
        assert_eq!((clock.flag, clock.left[1]), (Some(Side::Second), Duration::ZERO), "no increment once out");
        clock.run(Side::First);
        assert!(clock.running.is_none(), "a flagged game's clocks stay stopped");
    }

    #[test]
    fn clients_are_addresses_and_ipv6_networks() {
        assert_eq!(client("10.0.0.1"), client("::ffff:10.0.0.1"));
        assert_eq!(client("2001:db8::1"), client("2001:db8::ffff:1"));
        assert_ne!(client("2001:db8::1"), client("2001:db8:0:1::1"));
        assert_ne!(client("10.0.0.1"), client("10.0.0.2"));
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(header::HeaderName::from_static(name), value.parse().unwrap());
        }
        map
    }

    #[test]
    fn only_the_bound_address_localhost_and_allowed_names_are_hosts() {
        let hosts = Hosts::new("127.0.0.1:8080".parse().unwrap(), &args(30).allow_host);
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LocalHost:8080",
            "localhost.:8080",
            "boardbot.example",
            "boardbot.example:9999",
            "proxy.example:443",
        ] {
            assert!(hosts.allows(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "evil.example",
            "127.0.0.1",
            "127.0.0.1:8081",
            "localhost:80",
            "localhost",
            "127.0.0.2:8080",
            "[::1]:8080",
            "proxy.example",
            "proxy.example:8080",
            "localhost.evil.example:8080",
            "127.0.0.1:8080@evil.example",
            "",
            "localhost:8080:8080",
        ] {
            assert!(!hosts.allows(bad), "{bad}");
        }
        // Bound to every address: any address of the machine, with the port; names as before.
        let any = Hosts::new("0.0.0.0:8080".parse().unwrap(), &[]);
        for ok in ["192.168.1.20:8080", "127.0.0.1:8080", "[fe80::1]:8080", "localhost:8080"] {
            assert!(any.allows(ok), "{ok}");
        }
        for bad in ["192.168.1.20:8081", "myhost.local:8080", "evil.example:8080"] {
            assert!(!any.allows(bad), "{bad}");
        }
        let v6 = Hosts::new("[::1]:80".parse().unwrap(), &[]);
        assert!(v6.allows("[::1]") && v6.allows("[::1]:80") && v6.allows("localhost"));
        assert!(!v6.allows("[::2]") && !v6.allows("127.0.0.1"));
    }

    #[test]
    fn changes_must_be_json_from_the_own_origin() {
        let hosts = Hosts::new("127.0.0.1:8080".parse().unwrap(), &[]);
        let check = |method: Method, pairs: &[(&'static str, &str)]| hosts.check(&method, &headers(pairs));
        let host = ("host", "127.0.0.1:8080");
        let json = ("content-type", "application/json");
        assert!(check(Method::POST, &[host, json]).is_ok(), "curl with JSON: no Origin");
        assert!(check(Method::POST, &[host, ("content-type", "Application/JSON; charset=utf-8")]).is_ok());
        let page = [host, json, ("origin", "http://127.0.0.1:8080"), ("sec-fetch-site", "same-origin")];
        assert!(check(Method::POST, &page).is_ok(), "the page itself");
        assert!(check(Method::GET, &[host, ("sec-fetch-site", "cross-site")]).is_ok(), "reads: Host only");
        let refused = |method: Method, pairs: &[(&'static str, &str)], status: StatusCode, words: &str| {
            let e = check(method, pairs).err().unwrap_or_else(|| panic!("{pairs:?} taken"));
            assert_eq!(e.0, status, "{pairs:?}: {}", e.1);
            assert!(e.1.contains(words), "{pairs:?}: {}", e.1);
        };
        refused(Method::GET, &[("host", "evil.example:8080")], StatusCode::FORBIDDEN, "--allow-host");
        refused(Method::GET, &[], StatusCode::BAD_REQUEST, "Host");
        refused(
            Method::POST,
            &[host, ("content-type", "text/plain")],
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "application/json",
        );
        refused(Method::POST, &[host], StatusCode::UNSUPPORTED_MEDIA_TYPE, "application/json");
        refused(
            Method::POST,
            &[host, ("content-type", "application/x-www-form-urlencoded")],
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "JSON",
        );
        for origin in ["http://evil.example", "null", "http://127.0.0.1:8080.evil.example", "http://localhost:8080"] {
            refused(Method::POST, &[host, json, ("origin", origin)], StatusCode::FORBIDDEN, "origin");
        }
        for site in ["cross-site", "same-site"] {
            refused(Method::POST, &[host, json, ("sec-fetch-site", site)], StatusCode::FORBIDDEN, site);
        }
    }

    #[test]
    fn large_descriptions_are_told_by_their_numbers() {
        for large in ["mnk 100 100 5", "cx 100 100 4", "mnk 70 70 10", "mnk 33 3 3", "mnk 0000100 7 5"] {
            assert!(description_is_large(large), "{large}");
        }
        for small in
            ["mnk 7 7 5", "mnk 15 15 5", "cx 25 25 10", "cx 32 32 4", "kalah 6 4", "gomoku", "checkers english"]
        {
            assert!(!description_is_large(small), "{small}");
        }
    }

    #[test]
    fn idle_sessions_expire_unless_in_use() {
        let soon = app(0);
        let (_idle, busy) = (slot(&soon, "idle"), slot(&soon, "busy"));
        let _in_use = busy.play.clone().try_lock_owned().unwrap();
        std::thread::sleep(Duration::from_millis(5));
        soon.reap();
        assert!(soon.slot("idle").is_err(), "an idle session is dropped");
        assert!(soon.slot("busy").is_ok(), "a session in use is kept");

        let late = app(30);
        slot(&late, "fresh");
        late.reap();
        assert!(late.slot("fresh").is_ok(), "a session used within the idle time is kept");
    }

    #[test]
    fn descriptions_beyond_the_size_limit_are_refused_before_they_are_read() {
        for ok in ["mnk 100 100 5", "cx 6 7 4", "kalah 6 4", "checkers english", "mnk 7 7 5 blocked 0,0", "mnk 007 7 5"]
        {
            assert!(check_size(ok).is_ok(), "{ok}");
        }
        for bad in ["mnk 101 7 5", "cx 1000 1000 4", "mnk 0100000 7 5", "cx 6 7 255", "mnk 99999999999999999999 3 3"] {
            let e = check_size(bad).unwrap_err();
            assert_eq!(e.0, StatusCode::BAD_REQUEST, "{bad}");
            assert!(e.1.contains("too large"), "{bad}: {}", e.1);
        }
    }

    #[test]
    fn every_game_gives_examples_the_registry_reads() {
        for &kind in GAMES {
            assert!(!examples(kind).is_empty(), "{} gives no example", kind.name);
            for e in examples(kind) {
                let spec = GameSpec::parse(&e).unwrap_or_else(|err| panic!("{e}: {err}"));
                assert!(std::ptr::eq(spec.kind(), kind), "{e} is not a board of {}", kind.name);
            }
        }
    }
}
