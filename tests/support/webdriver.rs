//! A minimal W3C WebDriver client over `TcpStream` and `serde_json`: chromedriver started on a
//! free port, a headless Chromium session, and the few commands the browser tests use (open a
//! page, find elements, click, type, run a script, take a screenshot).

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The key of an element reference in WebDriver answers.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
/// Where Debian puts the driver.
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// Chromium's flags: headless, and quiet on a machine without a network.
const CHROMIUM_ARGS: [&str; 10] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,1400",
];

/// chromedriver and one browser session, both ended when dropped.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    profile: PathBuf,
}

/// An element of the page.
#[derive(Clone, Debug)]
pub struct Element(String);

/// The chromedriver to use: `TIAO_CHROMEDRIVER`, else Debian's; `None` when there is none.
pub fn chromedriver() -> Option<PathBuf> {
    let path = std::env::var_os("TIAO_CHROMEDRIVER")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(CHROMEDRIVER));
    path.exists().then_some(path)
}

/// The Chromium binary beside the driver, if one is installed where Debian puts it.
fn chromium_binary() -> Option<&'static str> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| Path::new(p).exists())
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP request to the driver; the answer's JSON.
fn request(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(300)))
        .map_err(|e| e.to_string())?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).map_err(|e| e.to_string())?;
    s.write_all(body.as_bytes()).map_err(|e| e.to_string())?;
    // chromedriver keeps the connection open: the body is read by its length.
    let mut reader = BufReader::new(s);
    let mut length = None;
    let mut chunked = false;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            return Err("the driver closed the connection".into());
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse::<usize>().ok();
        }
        if lower.starts_with("transfer-encoding:") && lower.contains("chunked") {
            chunked = true;
        }
    }
    let mut bytes = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).map_err(|e| e.to_string())?;
            let n = usize::from_str_radix(size.trim(), 16).map_err(|e| e.to_string())?;
            let mut chunk = vec![0; n + 2];
            reader.read_exact(&mut chunk).map_err(|e| e.to_string())?;
            if n == 0 {
                break;
            }
            bytes.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(n) = length {
        bytes.resize(n, 0);
        reader.read_exact(&mut bytes).map_err(|e| e.to_string())?;
    } else {
        reader.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    }
    let body = String::from_utf8_lossy(&bytes).into_owned();
    let v: Value = serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))?;
    if v["value"]["error"].is_string() {
        return Err(format!("{method} {path}: {}", v["value"]));
    }
    Ok(v["value"].clone())
}

impl Browser {
    /// Starts chromedriver and a headless Chromium; `None` (with the reason printed) when there
    /// is no chromedriver.
    pub fn start() -> Option<Browser> {
        let Some(driver_path) = chromedriver() else {
            eprintln!(
                "skipped: no chromedriver ({CHROMEDRIVER}; apt-get install chromium chromium-driver)"
            );
            return None;
        };
        let port = free_port();
        let driver = Command::new(driver_path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let profile =
            std::env::temp_dir().join(format!("tiao-chromium-{}-{port}", std::process::id()));
        // Built at once, so that the driver is ended (by `Drop`) whatever happens next.
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
            profile: profile.clone(),
        };
        let start = Instant::now();
        while request(port, "GET", "/status", None).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "chromedriver never answers"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut args: Vec<String> = CHROMIUM_ARGS.iter().map(|a| a.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let mut options = json!({ "args": args });
        if let Some(b) = chromium_binary() {
            options["binary"] = json!(b);
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options,
        }}});
        let v = request(port, "POST", "/session", Some(&caps)).expect("a browser session");
        browser.session = v["sessionId"].as_str().unwrap().to_string();
        Some(browser)
    }

    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        request(self.port, method, &path, body.as_ref()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Opens `url`.
    pub fn open(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    /// The elements matching a CSS selector.
    pub fn find_all(&self, css: &str) -> Vec<Element> {
        let v = self.cmd(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_array()
            .unwrap()
            .iter()
            .map(|e| Element(e[ELEMENT].as_str().unwrap().to_string()))
            .collect()
    }

    /// The element matching a CSS selector, waiting for it to appear.
    pub fn find(&self, css: &str) -> Element {
        self.wait_for(&format!("{css} appears"), || {
            self.find_all(css).into_iter().next()
        })
    }

    /// Clicks the element matching `css` (found again if the page redrew it meanwhile).
    pub fn click_on(&self, css: &str) {
        self.wait_for(&format!("a click on {css}"), || {
            let e = self.find(css);
            let path = format!("/session/{}/element/{}/click", self.session, e.0);
            match request(self.port, "POST", &path, Some(&json!({}))) {
                Ok(_) => Some(()),
                Err(err) if err.contains("stale element") => None,
                Err(err) => panic!("{err}"),
            }
        })
    }

    /// Types `text` into an element.
    pub fn type_into(&self, e: &Element, text: &str) {
        self.cmd(
            "POST",
            &format!("/element/{}/value", e.0),
            Some(json!({ "text": text })),
        );
    }

    /// An element's text.
    pub fn text(&self, e: &Element) -> String {
        self.cmd("GET", &format!("/element/{}/text", e.0), None)
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// Runs a script in the page (its arguments are `arguments[0]`...), its value.
    pub fn script(&self, script: &str, args: Value) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Waits until `f` gives something, or panics naming `what` after a generous time-out.
    pub fn wait_for<T>(&self, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
        let start = Instant::now();
        loop {
            if let Some(t) = f() {
                return t;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "waited in vain: {what}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the script's value is true.
    pub fn wait_until(&self, what: &str, script: &str) {
        self.wait_for(what, || {
            self.script(script, json!([]))
                .as_bool()
                .unwrap_or(false)
                .then_some(())
        })
    }

    /// A PNG picture of the window.
    pub fn page_screenshot(&self) -> Vec<u8> {
        let v = self.cmd("GET", "/screenshot", None);
        base64_decode(v.as_str().unwrap())
    }

    /// A PNG picture of an element.
    pub fn screenshot(&self, e: &Element) -> Vec<u8> {
        let v = self.cmd("GET", &format!("/element/{}/screenshot", e.0), None);
        base64_decode(v.as_str().unwrap())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = request(
                self.port,
                "DELETE",
                &format!("/session/{}", self.session),
                None,
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Standard base64 (with padding) to bytes.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some((c - b'A') as u32),
            b'a'..=b'z' => Some((c - b'a') as u32 + 26),
            b'0'..=b'9' => Some((c - b'0') as u32 + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    };
    let digits: Vec<u32> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, d) in chunk.iter().enumerate() {
            n |= d << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}

#[test]
fn base64_decodes() {
    assert_eq!(base64_decode("aGVsbG8="), b"hello");
    assert_eq!(base64_decode("aGVsbG8h"), b"hello!");
}
