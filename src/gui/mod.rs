//! `tiao gui`: a board in the browser, served from this process (serve only: the rules, the
//! notation and the engine are the library's).
//!
//! - [`Server`]: an HTTP server ([`tiny_http`], one thread per request) on a local address. It
//!   serves the page's files, embedded in the binary (`assets/`: HTML, CSS, JavaScript; the
//!   board is drawn by the script as SVG), and a JSON API under `/api/` (request types in
//!   [`api`]); engine output goes to the page as Server-Sent Events (`GET /api/events`).
//! - A page ([`session::Page`]) is one browser tab: it asks for a session when it loads and names
//!   it in every request. Each has its game ([`game::GameRecord`]) and its own
//!   [`Engine`](crate::engine::Engine), the facade the Hub loop drives; one search at a time per
//!   page, stopped when its event stream closes (the tab went away).
//!
//! Routes: `GET /` (the page), `/gui.css`, `/gui.js`; `GET /api/events?session=ID` (the stream:
//! `state`, `info`, `done`, `error` events); `GET /api/curve?session=ID` (the evaluation curve as
//! SVG); `POST /api/session`, `/api/state`, `/api/new`, `/api/play`, `/api/takeback`,
//! `/api/goto`, `/api/engine`, `/api/analyze`, `/api/review`, `/api/stop`, `/api/pdn/load`,
//! `/api/pdn/save`, each taking a JSON object and answering the page's view (or the PDN text).
//!
//! Invariants:
//! - Only the server's own origin drives it: a request whose `Host` is not the address it
//!   serves (by name or number), or that carries an `Origin` (or `Sec-Fetch-Site: cross-site`)
//!   from elsewhere, is refused with 403 before anything else: another web page open in the
//!   browser cannot use it, and a DNS name rebound to this address cannot either.
//! - Input never panics the server and a refused request changes nothing: a body above
//!   [`MAX_BODY`] is 413, a body that is not JSON (or has unknown fields) 400, a POST that is not
//!   `application/json` 415, an unknown route 404, a wrong method 405, an unknown session 404,
//!   a refused FEN, move or PDN 422 (the reason in `{"error": ...}`).
//! - The server reads no file: what it serves is compiled in, and PDN games come in the body.
//! - At most [`MAX_PAGES`] pages live at once; pages without a stream for [`PAGE_IDLE`] are
//!   dropped (their engines with them), and at most [`MAX_REQUESTS`] requests are handled at once.

pub mod api;
pub mod game;
pub mod session;

use api::{
    EngineRequest, ErrorBody, GotoRequest, NewRequest, PdnRequest, PlayRequest, SessionOnly,
    SessionRequest, TakebackRequest,
};
use serde::de::DeserializeOwned;
use session::{Page, PageError, PageState, Purpose};
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::engine::EngineOptions;
use crate::game::Variant;
use crate::search::Limits;
use crate::variant::GameKind;

/// The largest request body read, bytes (a PDN file of a long match fits).
pub const MAX_BODY: usize = 8 << 20;
/// The most pages (tabs) alive at once.
pub const MAX_PAGES: usize = 32;
/// A page whose stream has been closed this long is dropped.
pub const PAGE_IDLE: Duration = Duration::from_secs(120);
/// The most requests handled at once (streams included).
pub const MAX_REQUESTS: usize = 128;
/// How often an idle stream sends a comment (and so finds out that its page went away).
pub const KEEPALIVE: Duration = Duration::from_millis(1_000);
/// The routes that take a `POST` (any other method on them is 405; an unknown route is 404).
const POST_ROUTES: [&str; 12] = [
    "/api/session",
    "/api/state",
    "/api/new",
    "/api/play",
    "/api/takeback",
    "/api/goto",
    "/api/engine",
    "/api/analyze",
    "/api/review",
    "/api/stop",
    "/api/pdn/load",
    "/api/pdn/save",
];
/// The default port of `tiao gui`.
pub const DEFAULT_PORT: u16 = 8737;

const INDEX_HTML: &str = include_str!("assets/index.html");
const GUI_CSS: &str = include_str!("assets/gui.css");
const GUI_JS: &str = include_str!("assets/gui.js");

/// Why the server cannot start.
#[derive(Debug)]
pub enum GuiError {
    /// The address cannot be bound.
    Bind { addr: SocketAddr, reason: String },
}

impl fmt::Display for GuiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuiError::Bind { addr, reason } => write!(f, "cannot listen on {addr}: {reason}"),
        }
    }
}

impl std::error::Error for GuiError {}

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (port 0: any free port).
    pub addr: SocketAddr,
    /// The options of every page's engine.
    pub engine: EngineOptions,
}

/// A refused request: its status and reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub reason: String,
}

impl Refusal {
    fn new(status: u16, reason: impl Into<String>) -> Refusal {
        Refusal {
            status,
            reason: reason.into(),
        }
    }
}

impl From<PageError> for Refusal {
    fn from(e: PageError) -> Refusal {
        match e {
            PageError::Refused(r) => Refusal::new(422, r),
            PageError::Engine(r) => Refusal::new(409, r),
        }
    }
}

/// What a route answers.
enum Reply {
    /// A body with its content type.
    Body(&'static str, String),
    /// The event stream of a page.
    Stream(Arc<Page>),
}

/// What every request shares: the pages and the address.
struct Shared {
    pages: Mutex<HashMap<String, Arc<Page>>>,
    /// `Host` values accepted (`127.0.0.1:8737`, `localhost:8737`, ...), lower case.
    hosts: Vec<String>,
    /// Listening on every address (`--host 0.0.0.0`): any IP address with the port is accepted
    /// as `Host` too (an address, never a name: a rebound DNS name is still refused).
    any_ip: Option<u16>,
    engine: EngineOptions,
    busy: AtomicUsize,
}

/// The server: bound, serving once [`Server::run`] is called.
pub struct Server {
    http: Arc<tiny_http::Server>,
    addr: SocketAddr,
    shared: Arc<Shared>,
}

/// The `Host` values that name `addr`.
fn host_names(addr: SocketAddr) -> Vec<String> {
    let port = addr.port();
    let ip = addr.ip();
    let mut names = vec![match ip {
        IpAddr::V4(v4) => format!("{v4}:{port}"),
        IpAddr::V6(v6) => format!("[{v6}]:{port}"),
    }];
    if ip.is_loopback() || ip.is_unspecified() {
        names.extend([
            format!("localhost:{port}"),
            format!("127.0.0.1:{port}"),
            format!("[::1]:{port}"),
        ]);
    }
    names.dedup();
    names
}

impl Server {
    /// Binds the address.
    pub fn bind(config: Config) -> Result<Server, GuiError> {
        let http = tiny_http::Server::http(config.addr).map_err(|e| GuiError::Bind {
            addr: config.addr,
            reason: e.to_string(),
        })?;
        let addr = http.server_addr().to_ip().ok_or_else(|| GuiError::Bind {
            addr: config.addr,
            reason: "not an IP address".into(),
        })?;
        Ok(Server {
            http: Arc::new(http),
            addr,
            shared: Arc::new(Shared {
                pages: Mutex::new(HashMap::new()),
                hosts: host_names(addr),
                any_ip: addr.ip().is_unspecified().then_some(addr.port()),
                engine: config.engine,
                busy: AtomicUsize::new(0),
            }),
        })
    }

    /// The address bound.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address (`http://127.0.0.1:8737/`; `localhost` for a wildcard address).
    pub fn url(&self) -> String {
        let ip = self.addr.ip();
        if ip.is_unspecified() {
            format!("http://localhost:{}/", self.addr.port())
        } else {
            format!("http://{}/", host_names(self.addr)[0])
        }
    }

    /// Serves until [`Server::stopper`]'s handle is called: each request on a thread of its own.
    pub fn run(&self) {
        for request in self.http.incoming_requests() {
            let shared = self.shared.clone();
            if shared.busy.fetch_add(1, Ordering::SeqCst) >= MAX_REQUESTS {
                shared.busy.fetch_sub(1, Ordering::SeqCst);
                let _ = request.respond(json_response(
                    503,
                    &ErrorBody {
                        error: "too many requests at once".into(),
                    },
                ));
                continue;
            }
            let spawned = std::thread::Builder::new()
                .name("tiao-gui-request".into())
                .spawn(move || {
                    handle(&shared, request);
                    shared.busy.fetch_sub(1, Ordering::SeqCst);
                });
            if spawned.is_err() {
                self.shared.busy.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }

    /// A function that makes [`Server::run`] return (its pages' searches are stopped when the
    /// server is dropped).
    pub fn stopper(&self) -> impl Fn() + Send + Sync + 'static {
        let http = self.http.clone();
        move || http.unblock()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let pages: Vec<Arc<Page>> = lock_pages(&self.shared).drain().map(|(_, p)| p).collect();
        for p in pages {
            p.lock().cancel();
        }
    }
}

fn lock_pages(shared: &Shared) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Page>>> {
    shared.pages.lock().unwrap_or_else(PoisonError::into_inner)
}

fn header<'a>(request: &'a tiny_http::Request, name: &str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str())
}

/// Whether `host` (lower case, with its port) names this server.
fn own_host(shared: &Shared, host: &str) -> bool {
    shared.hosts.iter().any(|h| h == host)
        || shared
            .any_ip
            .is_some_and(|port| host.parse::<SocketAddr>().is_ok_and(|a| a.port() == port))
}

/// Whether the request comes from the server's own page (see the module's invariants).
fn check_origin(shared: &Shared, request: &tiny_http::Request) -> Result<(), Refusal> {
    let host = header(request, "Host")
        .map(|h| h.trim().to_ascii_lowercase())
        .ok_or_else(|| Refusal::new(403, "no Host header"))?;
    if !own_host(shared, &host) {
        return Err(Refusal::new(
            403,
            format!("Host '{host}' is not this server's address"),
        ));
    }
    if let Some(origin) = header(request, "Origin") {
        let origin = origin.trim().to_ascii_lowercase();
        let own = origin
            .strip_prefix("http://")
            .is_some_and(|o| own_host(shared, o));
        if !own {
            return Err(Refusal::new(
                403,
                format!("Origin '{origin}' is not this server's"),
            ));
        }
    }
    if header(request, "Sec-Fetch-Site").is_some_and(|s| s.eq_ignore_ascii_case("cross-site")) {
        return Err(Refusal::new(403, "a cross-site request"));
    }
    Ok(())
}

/// The security headers every answer carries.
fn headers(content_type: &str) -> Vec<tiny_http::Header> {
    [
        ("Content-Type", content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
        ),
    ]
    .into_iter()
    .filter_map(|(k, v)| tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()).ok())
    .collect()
}

fn response(
    status: u16,
    content_type: &str,
    body: String,
) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    let mut r = tiny_http::Response::from_data(body.into_bytes()).with_status_code(status);
    for h in headers(content_type) {
        r.add_header(h);
    }
    r
}

fn json_response(
    status: u16,
    body: &impl serde::Serialize,
) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    let text = serde_json::to_string(body).unwrap_or_else(|_| "{}".into());
    response(status, "application/json", text)
}

/// Handles one request, whatever it holds.
fn handle(shared: &Shared, mut request: tiny_http::Request) {
    let result = check_origin(shared, &request).and_then(|()| route(shared, &mut request));
    match result {
        Ok(Reply::Body(content_type, body)) => {
            let _ = request.respond(response(200, content_type, body));
        }
        Ok(Reply::Stream(page)) => stream(request, &page),
        Err(r) => {
            let _ = request.respond(json_response(r.status, &ErrorBody { error: r.reason }));
        }
    }
}

/// Reads a JSON body of at most [`MAX_BODY`] bytes as `T`.
fn body<T: DeserializeOwned>(request: &mut tiny_http::Request) -> Result<T, Refusal> {
    let json_type = header(request, "Content-Type").is_some_and(|t| {
        t.split(';')
            .next()
            .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
    });
    if !json_type {
        return Err(Refusal::new(415, "the body must be application/json"));
    }
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(Refusal::new(413, format!("a body above {MAX_BODY} bytes")));
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Refusal::new(400, format!("the body cannot be read: {e}")))?;
    if bytes.len() > MAX_BODY {
        return Err(Refusal::new(413, format!("a body above {MAX_BODY} bytes")));
    }
    serde_json::from_slice(&bytes).map_err(|e| Refusal::new(400, format!("bad JSON: {e}")))
}

/// The value of `name` in the query string.
fn query<'a>(url: &'a str, name: &str) -> Option<&'a str> {
    let (_, q) = url.split_once('?')?;
    q.split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

fn page(shared: &Shared, id: &str) -> Result<Arc<Page>, Refusal> {
    lock_pages(shared)
        .get(id)
        .cloned()
        .ok_or_else(|| Refusal::new(404, format!("unknown session '{id}' (reload the page)")))
}

/// A fresh page id: 128 random bits in hex.
fn fresh_id() -> String {
    let random = || {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        h.finish()
    };
    format!("{:016x}{:016x}", random(), random())
}

/// Drops the pages that went away, and makes room for one more.
fn collect_pages(shared: &Shared) -> Result<(), Refusal> {
    let mut pages = lock_pages(shared);
    pages.retain(|_, p| {
        let (idle, streaming) = p.idle();
        streaming || idle < PAGE_IDLE
    });
    if pages.len() >= MAX_PAGES {
        // The page idle longest without a stream makes room.
        let oldest = pages
            .iter()
            .filter(|(_, p)| !p.idle().1)
            .max_by_key(|(_, p)| p.idle().0)
            .map(|(k, _)| k.clone());
        match oldest {
            Some(k) => {
                pages.remove(&k);
            }
            None => return Err(Refusal::new(503, format!("{MAX_PAGES} pages are open"))),
        }
    }
    Ok(())
}

fn parse_variant(name: &str) -> Result<Variant, Refusal> {
    name.parse::<Variant>()
        .map_err(|e| Refusal::new(422, e.to_string()))
}

/// The view of a page after `change`, also sent on its stream (other requests of the page see
/// it there).
fn with_page<T: DeserializeOwned>(
    shared: &Shared,
    request: &mut tiny_http::Request,
    session: impl Fn(&T) -> &str,
    change: impl FnOnce(&mut PageState, T) -> Result<(), Refusal>,
) -> Result<Reply, Refusal> {
    let req: T = body(request)?;
    let p = page(shared, session(&req))?;
    let mut st = p.lock();
    change(&mut st, req)?;
    let view = st.view(&p.id);
    p.publish("state", &view);
    Ok(Reply::Body(
        "application/json",
        serde_json::to_string(&view).unwrap_or_default(),
    ))
}

fn route(shared: &Shared, request: &mut tiny_http::Request) -> Result<Reply, Refusal> {
    let url = request.url().to_string();
    let path = url.split('?').next().unwrap_or("");
    let method = request.method().clone();
    let get = method == tiny_http::Method::Get || method == tiny_http::Method::Head;
    let post = method == tiny_http::Method::Post;
    let wrong = || Refusal::new(405, format!("{method} is not accepted on {path}"));
    match path {
        "/" | "/index.html" if get => {
            Ok(Reply::Body("text/html; charset=utf-8", INDEX_HTML.into()))
        }
        "/gui.css" if get => Ok(Reply::Body("text/css; charset=utf-8", GUI_CSS.into())),
        "/gui.js" if get => Ok(Reply::Body("text/javascript; charset=utf-8", GUI_JS.into())),
        "/" | "/index.html" | "/gui.css" | "/gui.js" | "/api/events" | "/api/curve" if !get => {
            Err(wrong())
        }
        "/api/events" => {
            let id = query(&url, "session").unwrap_or("");
            Ok(Reply::Stream(page(shared, id)?))
        }
        "/api/curve" => {
            let id = query(&url, "session").unwrap_or("");
            let p = page(shared, id)?;
            let st = p.lock();
            Ok(Reply::Body("image/svg+xml", curve(&st.game)))
        }
        p if POST_ROUTES.contains(&p) && !post => Err(wrong()),
        "/api/session" => {
            let _: SessionRequest = body(request)?;
            collect_pages(shared)?;
            let id = fresh_id();
            let p = Page::new(id.clone(), GameKind::default(), &shared.engine)
                .map_err(|e| Refusal::new(500, e))?;
            let view = p.lock().view(&id);
            lock_pages(shared).insert(id, p);
            Ok(Reply::Body(
                "application/json",
                serde_json::to_string(&view).unwrap_or_default(),
            ))
        }
        "/api/state" => with_page(shared, request, |r: &SessionOnly| &r.session, |_, _| Ok(())),
        "/api/new" => with_page(
            shared,
            request,
            |r: &NewRequest| &r.session,
            |st, r| {
                let variant = r.variant.as_deref().map(parse_variant).transpose()?;
                Ok(st.new_game(variant, r.fen.as_deref())?)
            },
        ),
        "/api/play" => with_page(
            shared,
            request,
            |r: &PlayRequest| &r.session,
            |st, r| Ok(st.play(&r.mv)?),
        ),
        "/api/takeback" => with_page(
            shared,
            request,
            |r: &TakebackRequest| &r.session,
            |st, r| {
                st.take_back(r.ply);
                Ok(())
            },
        ),
        "/api/goto" => with_page(
            shared,
            request,
            |r: &GotoRequest| &r.session,
            |st, r| {
                st.go_to(r.ply);
                Ok(())
            },
        ),
        "/api/engine" => with_page(
            shared,
            request,
            |r: &EngineRequest| &r.session,
            |st, r| {
                let t = r.move_time().map_err(|e| Refusal::new(422, e))?;
                Ok(st.start(Purpose::Play, Limits::move_time(t))?)
            },
        ),
        "/api/analyze" => with_page(
            shared,
            request,
            |r: &SessionOnly| &r.session,
            |st, _| {
                let limits = Limits {
                    analyze: true,
                    ..Limits::infinite()
                };
                Ok(st.start(Purpose::Analyze, limits)?)
            },
        ),
        "/api/review" => with_page(
            shared,
            request,
            |r: &SessionOnly| &r.session,
            |st, _| {
                st.cancel();
                st.next_review();
                Ok(())
            },
        ),
        "/api/stop" => with_page(
            shared,
            request,
            |r: &SessionOnly| &r.session,
            |st, _| {
                st.cancel();
                Ok(())
            },
        ),
        "/api/pdn/load" => with_page(
            shared,
            request,
            |r: &PdnRequest| &r.session,
            |st, r| Ok(st.load_pdn(&r.pdn, r.game)?),
        ),
        "/api/pdn/save" => {
            let r: SessionOnly = body(request)?;
            let p = page(shared, &r.session)?;
            let text = p.lock().game.to_pdn();
            #[derive(serde::Serialize)]
            struct Saved {
                pdn: String,
            }
            Ok(Reply::Body(
                "application/json",
                serde_json::to_string(&Saved { pdn: text }).unwrap_or_default(),
            ))
        }
        _ => Err(Refusal::new(404, format!("no such page: {path}"))),
    }
}

/// The evaluation curve of a page's game (the scores known; a position not searched takes the
/// score before it), as `tiao analyze --plot` draws it.
fn curve(game: &game::GameRecord) -> String {
    let mut last = 0.0;
    let points = game
        .scores
        .iter()
        .map(|s| {
            let v = s.map_or(last, |v| {
                if v >= game::PROVEN_MEN {
                    f64::INFINITY
                } else if v <= -game::PROVEN_MEN {
                    f64::NEG_INFINITY
                } else {
                    v
                }
            });
            if v.is_finite() {
                last = v;
            }
            v
        })
        .collect();
    let view = game.view();
    let plot = crate::render::plot::EvalPlot {
        title: format!("{} ({} plies)", game.kind.variant, game.moves.len()),
        points,
        marks: Vec::new(),
        first_move: (1, view.start_side != view.first_side),
    };
    crate::render::plot::svg(&plot, CURVE_CLIP)
}

/// The curve's range, men either side of zero (the `--plot` default).
pub const CURVE_CLIP: f64 = 5.0;

/// Sends a page's events on an open connection until the page goes away (a write fails).
fn stream(request: tiny_http::Request, page: &Arc<Page>) {
    let inbox = page.stream_opened();
    let mut w = request.into_writer();
    let mut head = String::from("HTTP/1.1 200 OK\r\nConnection: close\r\n");
    for h in headers("text/event-stream") {
        head.push_str(&format!("{}: {}\r\n", h.field, h.value));
    }
    head.push_str("\r\n");
    let mut ok = w.write_all(head.as_bytes()).is_ok() && w.flush().is_ok();
    if ok {
        // The page's state first, so that a stream opened late (a reconnection) starts right.
        let view = page.lock().view(&page.id);
        let frame = format!(
            "event: state\ndata: {}\n\n",
            serde_json::to_string(&view).unwrap_or_default()
        );
        ok = w.write_all(frame.as_bytes()).is_ok() && w.flush().is_ok();
    }
    while ok {
        let text = match inbox.recv_timeout(KEEPALIVE) {
            Ok(t) => t,
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => ": keepalive\n\n".into(),
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
        };
        ok = w.write_all(text.as_bytes()).is_ok() && w.flush().is_ok();
    }
    page.stream_closed();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(addr: &str) -> Shared {
        let addr: SocketAddr = addr.parse().unwrap();
        Shared {
            pages: Mutex::new(HashMap::new()),
            hosts: host_names(addr),
            any_ip: addr.ip().is_unspecified().then_some(addr.port()),
            engine: EngineOptions::default(),
            busy: AtomicUsize::new(0),
        }
    }

    #[test]
    fn own_hosts_by_number_or_loopback_name_never_another_name() {
        let local = shared("127.0.0.1:8737");
        for h in ["127.0.0.1:8737", "localhost:8737", "[::1]:8737"] {
            assert!(own_host(&local, h), "{h}");
        }
        for h in [
            "127.0.0.1:8738",
            "localhost",
            "evil.example:8737",
            "192.168.1.5:8737",
        ] {
            assert!(!own_host(&local, h), "{h}");
        }
        let lan = shared("192.168.1.5:80");
        assert!(own_host(&lan, "192.168.1.5:80") && !own_host(&lan, "localhost:80"));
        let any = shared("0.0.0.0:8737");
        assert!(own_host(&any, "10.0.0.7:8737") && own_host(&any, "localhost:8737"));
        assert!(!own_host(&any, "evil.example:8737") && !own_host(&any, "10.0.0.7:1"));
    }

    #[test]
    fn query_values() {
        assert_eq!(query("/api/events?session=ab&x=1", "session"), Some("ab"));
        assert_eq!(query("/api/events?x=1", "session"), None);
        assert_eq!(query("/api/events", "session"), None);
        assert_eq!(fresh_id().len(), 32);
        assert_ne!(fresh_id(), fresh_id());
    }
}
