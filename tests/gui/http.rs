//! `tiao gui` over HTTP, without a browser: every malformed or foreign request is answered
//! cleanly (and changes nothing), the server keeps serving; moves, the engine, analysis and PDN
//! through the API.

use crate::gui_support::GuiServer;
use serde_json::{Value, json};

fn session_of(v: &Value) -> String {
    v["session"].as_str().unwrap().to_string()
}

#[test]
fn the_page_and_its_files_are_served() {
    let s = GuiServer::start();
    let (status, html) = s.get("/");
    assert_eq!(status, 200);
    assert!(html.contains("gui.js"), "{html}");
    for path in ["/gui.js", "/gui.css", "/index.html"] {
        assert_eq!(s.get(path).0, 200, "{path}");
    }
}

#[test]
fn bad_requests_are_answered_and_the_server_keeps_serving() {
    let mut s = GuiServer::start();
    let v = s.session();
    let id = session_of(&v);
    let start_fen = v["fen"].as_str().unwrap().to_string();
    // Unknown routes and methods.
    assert_eq!(s.get("/nothing").0, 404);
    assert_eq!(s.get("/api/nothing").0, 404);
    assert_eq!(s.get("/api/play").0, 405);
    assert_eq!(s.post("/api/curve", "{}").0, 405);
    assert_eq!(s.post("/api/nothing", "{}").0, 404);
    assert_eq!(s.post("/", "{}").0, 405);
    assert_eq!(s.get("/../../etc/passwd").0, 404);
    // Bad JSON, wrong fields, wrong types, no session.
    for body in [
        "",
        "{",
        "not json",
        "[1,2]",
        "{\"session\": 5}",
        "{\"session\": \"x\", \"unknown\": 1}",
        "\u{0}\u{1}",
    ] {
        let (status, err) = s.post("/api/play", body);
        assert_eq!(status, 400, "{body:?}: {err}");
        assert!(err["error"].is_string());
    }
    assert_eq!(
        s.post(
            "/api/play",
            &json!({"session": "nobody", "move": "32-28"}).to_string()
        )
        .0,
        404
    );
    // Not JSON by its type.
    let (status, _) = s.raw(
        &format!(
            "POST /api/state HTTP/1.1\nHost: {}\nContent-Type: text/plain\nContent-Length: 2\nConnection: close",
            s.host
        ),
        b"{}",
    );
    assert_eq!(status, 415);
    // A huge body: refused by its length, before it is read.
    let (status, _) = s.raw(
        &format!(
            "POST /api/pdn/load HTTP/1.1\nHost: {}\nContent-Type: application/json\nContent-Length: 100000000\nConnection: close",
            s.host
        ),
        &[b'x'; 1000],
    );
    assert_eq!(status, 413);
    // A huge body sent in chunks, with no length: refused when it passes the bound.
    let chunk = vec![b'a'; 1 << 20];
    let mut chunked = Vec::new();
    for _ in 0..10 {
        chunked.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        chunked.extend_from_slice(&chunk);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let (status, _) = s.raw(
        &format!(
            "POST /api/pdn/load HTTP/1.1\nHost: {}\nContent-Type: application/json\nTransfer-Encoding: chunked\nConnection: close",
            s.host
        ),
        &chunked,
    );
    assert_eq!(status, 413);
    // Garbage FENs, moves, variants and PDN: refused with a reason, nothing changed.
    for (path, body) in [
        ("/api/new", json!({"session": id, "fen": "W:garbage"})),
        (
            "/api/new",
            json!({"session": id, "fen": "\u{0}\u{ffff}xx:"}),
        ),
        ("/api/new", json!({"session": id, "variant": "chess"})),
        (
            "/api/new",
            json!({"session": id, "variant": "morris", "fen": "W:W31:B19"}),
        ),
        ("/api/play", json!({"session": id, "move": "33-27"})),
        ("/api/play", json!({"session": id, "move": "99-98"})),
        ("/api/play", json!({"session": id, "move": ""})),
        (
            "/api/pdn/load",
            json!({"session": id, "pdn": "1. 32-28 {unclosed"}),
        ),
        (
            "/api/pdn/load",
            json!({"session": id, "pdn": "1. 31-27 19-23 2. 27x18 99-1"}),
        ),
        (
            "/api/pdn/load",
            json!({"session": id, "pdn": "[GameType \"1\"]\n1. e2e4"}),
        ),
        ("/api/engine", json!({"session": id, "movetime": 0})),
        (
            "/api/engine",
            json!({"session": id, "movetime": 99999999999u64}),
        ),
    ] {
        let (status, err) = s.post(path, &body.to_string());
        assert_eq!(status, 422, "{path} {body}: {err}");
        assert!(!err["error"].as_str().unwrap().is_empty(), "{err}");
    }
    let (status, v) = s.post("/api/state", &json!({"session": id}).to_string());
    assert_eq!(status, 200);
    assert_eq!(v["fen"], start_fen.as_str());
    assert_eq!(v["variant"], "international");
    assert_eq!(v["moves"].as_array().unwrap().len(), 0);
    assert!(v["searching"].is_null());
    // Still serving, still alive.
    assert_eq!(s.get("/").0, 200);
    assert!(s.alive());
}

#[test]
fn foreign_origins_and_hosts_are_refused() {
    let s = GuiServer::start();
    let id = session_of(&s.session());
    let port = s.host.rsplit(':').next().unwrap().to_string();
    let body = json!({"session": id, "move": "32-28"}).to_string();
    let post = |host: &str, origin: Option<&str>| {
        let origin = origin.map_or(String::new(), |o| format!("\nOrigin: {o}"));
        s.raw(
            &format!(
                "POST /api/play HTTP/1.1\nHost: {host}{origin}\nContent-Type: application/json\nContent-Length: {}\nConnection: close",
                body.len()
            ),
            body.as_bytes(),
        )
        .0
    };
    // Another page in the browser (its origin), a DNS name rebound to this address (its host).
    assert_eq!(post(&s.host, Some("http://evil.example")), 403);
    assert_eq!(post(&s.host, Some("https://evil.example")), 403);
    assert_eq!(post(&s.host, Some("null")), 403);
    assert_eq!(
        post(&s.host, Some(&format!("http://127.0.0.1:{port}0"))),
        403
    );
    assert_eq!(post(&format!("evil.example:{port}"), None), 403);
    assert_eq!(post("evil.example", Some("http://evil.example")), 403);
    let (status, _) = s.raw(
        &format!("GET / HTTP/1.1\nHost: rebound.example:{port}\nConnection: close"),
        b"",
    );
    assert_eq!(status, 403);
    let (status, _) = s.raw(
        &format!(
            "GET /api/events?session={id} HTTP/1.1\nHost: {}\nSec-Fetch-Site: cross-site\nConnection: close",
            s.host
        ),
        b"",
    );
    assert_eq!(status, 403);
    // Nothing was played; the own origin (by name or number) is served.
    let (_, v) = s.post("/api/state", &json!({"session": id}).to_string());
    assert_eq!(v["moves"].as_array().unwrap().len(), 0);
    assert_eq!(
        post(
            &format!("localhost:{port}"),
            Some(&format!("http://localhost:{port}"))
        ),
        200
    );
    assert_eq!(
        post(&s.host, Some(&format!("http://{}", s.host))),
        422,
        "32-28 is played"
    );
}

#[test]
fn moves_the_engine_and_a_multi_capture_through_the_api() {
    let s = GuiServer::start();
    let id = session_of(&s.session());
    let mut events = s.events(&id);
    assert_eq!(events.next().0, "state");
    let (status, v) = s.post(
        "/api/play",
        &json!({"session": id, "move": "32-28"}).to_string(),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["moves"][0]["pdn"], "32-28");
    assert_eq!(v["side"], "black");
    assert_eq!(v["legal"].as_array().unwrap().len(), 9);
    let (status, _) = s.post(
        "/api/engine",
        &json!({"session": id, "movetime": 100}).to_string(),
    );
    assert_eq!(status, 200);
    let done = events.until("done", |_| true);
    assert!(done["played"].is_string(), "{done}");
    let v = events.until("state", |v| v["moves"].as_array().unwrap().len() == 2);
    assert_eq!(v["side"], "white");
    assert!(v["searching"].is_null());
    // Take back both moves, then a position with a three-piece capture.
    let (_, v) = s.post(
        "/api/takeback",
        &json!({"session": id, "ply": 0}).to_string(),
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 0);
    let (status, v) = s.post(
        "/api/new",
        &json!({"session": id, "fen": "W:W47:B42,32,31"}).to_string(),
    );
    assert_eq!(status, 200, "{v}");
    let legal = &v["legal"][0];
    assert_eq!(legal["path"], json!(["47", "38", "27", "36"]));
    let (status, v) = s.post(
        "/api/play",
        &json!({"session": id, "move": legal["hub"]}).to_string(),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["moves"][0]["pdn"], "47x36");
    assert_eq!(v["last_captured"].as_array().unwrap().len(), 3);
}

#[test]
fn analysis_streams_and_a_closed_stream_stops_it() {
    let s = GuiServer::start();
    let id = session_of(&s.session());
    let body = json!({"session": id}).to_string();
    {
        let mut events = s.events(&id);
        let (status, v) = s.post("/api/analyze", &body);
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["searching"], "analyze");
        let first = events.until("info", |_| true);
        let depth = first["depth"].as_u64().unwrap();
        let next = events.until("info", |v| v["depth"].as_u64().unwrap() > depth);
        assert!(
            next["pv"].as_array().is_some_and(|pv| !pv.is_empty()),
            "{next}"
        );
        assert!(next["nps"].is_u64() && next["score"].is_string());
        // The page goes away in mid-search: its stream closes.
    }
    let v = s.poll("/api/state", &body, |v| v["searching"].is_null());
    assert!(
        v["scores"][0].is_number(),
        "the analysis scored the position: {v}"
    );
    // Analysis stops on request too.
    let mut events = s.events(&id);
    s.post("/api/analyze", &body);
    events.until("info", |_| true);
    let (status, v) = s.post("/api/stop", &body);
    assert_eq!(status, 200);
    assert!(v["searching"].is_null());
    // Still serving.
    assert_eq!(s.get("/").0, 200);
    let other = session_of(&s.session());
    assert_ne!(other, id);
}

#[test]
fn a_match_pdn_loads_steps_and_saves() {
    let dir = std::env::temp_dir().join(format!("tiao-gui-pdn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("match.pdn");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args([
            "match",
            "--engine",
            "tiao hash=8",
            "--engine",
            "tiao hash=8",
            "--games",
            "2",
        ])
        .args(["--depth", "1", "--variant", "english", "--pdn"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let s = GuiServer::start();
    let id = session_of(&s.session());
    let (status, v) = s.post(
        "/api/pdn/load",
        &json!({"session": id, "pdn": text}).to_string(),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["variant"], "english");
    let plies = v["moves"].as_array().unwrap().len();
    assert!(plies > 4);
    assert_eq!(v["cursor"], plies);
    assert_eq!(v["pdn_games"].as_array().unwrap().len(), 2, "{v}");
    let (status, second) = s.post(
        "/api/pdn/load",
        &json!({"session": id, "pdn": text, "game": 1}).to_string(),
    );
    assert_eq!((status, &second["pdn_game"]), (200, &json!(1)));
    let (status, _) = s.post(
        "/api/pdn/load",
        &json!({"session": id, "pdn": text, "game": 2}).to_string(),
    );
    assert_eq!(status, 422, "there is no third game");
    s.post(
        "/api/pdn/load",
        &json!({"session": id, "pdn": text}).to_string(),
    );
    let (_, v) = s.post("/api/goto", &json!({"session": id, "ply": 3}).to_string());
    assert_eq!(v["cursor"], 3);
    assert_eq!(v["side"], "white", "english: Black moves first");
    let (_, saved) = s.post("/api/pdn/save", &json!({"session": id}).to_string());
    let saved = saved["pdn"].as_str().unwrap();
    assert!(saved.contains("[GameType \"21"), "{saved}");
    let first_game = text.split("\n\n[").next().unwrap();
    let moves_of = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with('['))
            .flat_map(|l| l.split_whitespace())
            .filter(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()) && !w.ends_with('.'))
            .filter(|w| w.contains('-') || w.contains('x'))
            .count()
    };
    assert!(moves_of(saved) >= plies.min(moves_of(first_game)));
    let curve = s.get(&format!("/api/curve?session={id}"));
    assert_eq!(curve.0, 200);
    assert!(curve.1.contains("<svg"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn every_variant_sets_up_from_a_fen_and_morris_plays() {
    let s = GuiServer::start();
    let id = session_of(&s.session());
    for (variant, fen, size) in [
        ("international", "W:W31,K46:B19,20", 10),
        ("brazilian", "W:Wa1,c3:Bf6,Kh8", 8),
        ("russian", "B:Wc3:Bd4,Kh8", 8),
        ("duoyibu", "W:Wc3,e3:Bd6", 8),
        ("english", "B:W21,22:BK1,5", 8),
    ] {
        let (status, v) = s.post(
            "/api/new",
            &json!({"session": id, "variant": variant, "fen": fen}).to_string(),
        );
        assert_eq!(status, 200, "{variant}: {v}");
        assert_eq!(v["size"], size);
        assert_eq!(v["start_fen"], fen);
        assert!(!v["legal"].as_array().unwrap().is_empty(), "{variant}");
    }
    let (status, v) = s.post(
        "/api/new",
        &json!({"session": id, "variant": "morris"}).to_string(),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["cells"].as_array().unwrap().len(), 24);
    assert_eq!(v["in_hand"], json!([9, 9]));
    for m in ["a1", "g7", "d1", "a7"] {
        let (status, v) = s.post("/api/play", &json!({"session": id, "move": m}).to_string());
        assert_eq!(status, 200, "{m}: {v}");
    }
    // White closes a1-d1-g1: each such placement names the man it removes.
    let (_, v) = s.post("/api/state", &json!({"session": id}).to_string());
    let mills: Vec<&Value> = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["path"][0] == "g1")
        .collect();
    assert_eq!(mills.len(), 2, "{v}");
    assert!(
        mills
            .iter()
            .all(|l| l["path"].as_array().unwrap().len() == 2)
    );
    let (status, _) = s.post(
        "/api/play",
        &json!({"session": id, "move": "g1"}).to_string(),
    );
    assert_eq!(status, 422, "a mill must remove a man");
    let (status, v) = s.post(
        "/api/play",
        &json!({"session": id, "move": mills[0]["hub"]}).to_string(),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["in_hand"], json!([6, 7]));
    assert_eq!(v["last_captured"].as_array().unwrap().len(), 1);
}

#[test]
fn several_pages_each_play_their_own_game() {
    let s = GuiServer::start();
    let a = session_of(&s.session());
    let b = session_of(&s.session());
    assert_ne!(a, b);
    s.post(
        "/api/play",
        &json!({"session": a, "move": "32-28"}).to_string(),
    );
    s.post(
        "/api/new",
        &json!({"session": b, "variant": "english"}).to_string(),
    );
    s.post(
        "/api/play",
        &json!({"session": b, "move": "11-15"}).to_string(),
    );
    let (_, va) = s.post("/api/state", &json!({"session": a}).to_string());
    let (_, vb) = s.post("/api/state", &json!({"session": b}).to_string());
    assert_eq!(
        (va["variant"].as_str(), vb["variant"].as_str()),
        (Some("international"), Some("english"))
    );
    assert_eq!(va["moves"][0]["pdn"], "32-28");
    assert_eq!(vb["moves"][0]["pdn"], "11-15");
    // A search on one page does not stop the other's.
    let mut events = s.events(&a);
    s.post("/api/analyze", &json!({"session": a}).to_string());
    let (status, _) = s.post("/api/analyze", &json!({"session": b}).to_string());
    assert_eq!(status, 200);
    events.until("info", |v| v["depth"].as_u64() > Some(1));
    let (_, va) = s.post("/api/state", &json!({"session": a}).to_string());
    assert_eq!(va["searching"], "analyze");
    s.post("/api/stop", &json!({"session": a}).to_string());
    s.post("/api/stop", &json!({"session": b}).to_string());
}
