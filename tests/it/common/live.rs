//! The real server on a bound port, and a small HTTP/1.1 client that reads
//! streamed answers (chunked) frame by frame: Server-Sent Events and NDJSON
//! lines as they arrive.

use std::net::SocketAddr;
use std::time::Duration;

use actix_web::dev::ServerHandle;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use zohn_ahl::service::{FeedLimits, MAX_BATCH, Service};
use zohn_ahl::store::Store;

use super::TestDb;

/// Every wait of these tests is bounded by this.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// The application served on `127.0.0.1:<free port>` over a fresh database.
pub struct Served {
    pub db: TestDb,
    pub addr: SocketAddr,
    /// The service behind the server (for what has no route: a purge).
    pub service: Service,
    handle: ServerHandle,
}

impl Served {
    /// Serve with these live-feed bounds.
    pub async fn start(limits: FeedLimits) -> Self {
        let db = TestDb::new();
        let store = Store::connect(&db.url).await.expect("open store");
        let service = Service::with_limits(store, MAX_BATCH, limits);
        let served = service.clone();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("address");
        // The server's own settings (TCP_NODELAY, hang-ups noticed, the
        // connection's time-outs).
        let server =
            zohn_ahl::server::serve_on(listener, move || zohn_ahl::http::app(service.clone()))
                .expect("listen")
                .workers(2)
                .disable_signals()
                .shutdown_timeout(1)
                .run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        Self {
            db,
            addr,
            service: served,
            handle,
        }
    }

    pub async fn stop(self) {
        self.handle.stop(false).await;
    }

    /// One request, answered whole (the connection closes after it).
    pub async fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Answer {
        let mut stream = Stream::open(self.addr, method, path, headers, body).await;
        let body = stream.body().await;
        Answer {
            status: stream.status,
            headers: stream.headers,
            body,
        }
    }

    /// GET a path and parse its JSON.
    pub async fn get_json(&self, path: &str) -> serde_json::Value {
        let a = self.request("GET", path, &[], b"").await;
        assert_eq!(
            a.status,
            200,
            "{path}: {}",
            String::from_utf8_lossy(&a.body)
        );
        serde_json::from_slice(&a.body).expect("JSON")
    }

    /// Create a game with this body; its id.
    pub async fn create(&self, body: &serde_json::Value) -> String {
        let a = self
            .request(
                "POST",
                "/v1/games",
                &[("content-type", "application/json")],
                body.to_string().as_bytes(),
            )
            .await;
        assert_eq!(a.status, 201, "{}", String::from_utf8_lossy(&a.body));
        let v: serde_json::Value = serde_json::from_slice(&a.body).expect("JSON");
        v["id"].as_str().expect("id").to_owned()
    }

    /// One server throw; the answer.
    pub async fn throw(&self, id: &str) -> Answer {
        self.request("POST", &format!("/v1/games/{id}/throws"), &[], b"")
            .await
    }

    /// Open a streamed GET.
    pub async fn stream(&self, path: &str, headers: &[(&str, &str)]) -> Stream {
        Stream::open(self.addr, "GET", path, headers, b"").await
    }
}

/// A whole answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("JSON")
    }
}

fn header<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// One Server-Sent Events block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Event {
    pub event: Option<String>,
    pub id: Option<String>,
    pub data: Option<String>,
    pub retry: Option<String>,
    pub comments: Vec<String>,
}

impl Event {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(self.data.as_deref().expect("data")).expect("JSON data")
    }

    pub fn id(&self) -> u32 {
        self.id.as_deref().expect("id").parse().expect("numeric id")
    }
}

/// A response whose body is read as it arrives.
pub struct Stream {
    reader: BufReader<TcpStream>,
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// `None`: chunked; `Some(n)`: `n` bytes left.
    length: Option<usize>,
    /// Body bytes received and not yet taken.
    pending: Vec<u8>,
    ended: bool,
}

impl Stream {
    pub async fn open(
        addr: SocketAddr,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Self {
        let mut tcp = TcpStream::connect(addr).await.expect("connect");
        tcp.set_nodelay(true).expect("nodelay");
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\ncontent-length: {}\r\n",
            body.len()
        );
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        tcp.write_all(head.as_bytes()).await.expect("write");
        tcp.write_all(body).await.expect("write body");
        let mut reader = BufReader::new(tcp);
        let mut line = String::new();
        reader.read_line(&mut line).await.expect("status line");
        let status = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {line:?}"));
        let mut headers = Vec::new();
        loop {
            line.clear();
            reader.read_line(&mut line).await.expect("header");
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
            }
        }
        let chunked = header(&headers, "transfer-encoding")
            .is_some_and(|v| v.eq_ignore_ascii_case("chunked"));
        let length = if chunked {
            None
        } else {
            Some(
                header(&headers, "content-length")
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0),
            )
        };
        Self {
            reader,
            status,
            headers,
            length,
            pending: Vec::new(),
            ended: false,
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }

    /// The next piece of the body; `false` at its end.
    async fn fill(&mut self) -> bool {
        if self.ended {
            return false;
        }
        match self.length {
            Some(0) => {
                self.ended = true;
                false
            }
            Some(n) => {
                let mut buf = vec![0; n];
                self.reader.read_exact(&mut buf).await.expect("body");
                self.pending.extend_from_slice(&buf);
                self.length = Some(0);
                true
            }
            None => {
                let mut line = String::new();
                if self.reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                    self.ended = true;
                    return false;
                }
                let size = usize::from_str_radix(line.trim(), 16).expect("chunk size");
                if size == 0 {
                    // The last chunk, then the final CRLF.
                    let mut end = String::new();
                    let _ = self.reader.read_line(&mut end).await;
                    self.ended = true;
                    return false;
                }
                let mut buf = vec![0; size + 2];
                self.reader.read_exact(&mut buf).await.expect("chunk");
                buf.truncate(size);
                self.pending.extend_from_slice(&buf);
                true
            }
        }
    }

    /// The whole (rest of the) body.
    pub async fn body(&mut self) -> Vec<u8> {
        while tokio::time::timeout(PATIENCE, self.fill())
            .await
            .expect("body in time")
        {}
        std::mem::take(&mut self.pending)
    }

    /// Whether the body ends before anything more comes.
    pub async fn ends(&mut self) -> bool {
        while self.pending.is_empty() {
            match tokio::time::timeout(PATIENCE, self.fill()).await {
                Ok(true) => {}
                Ok(false) => return true,
                Err(_) => return false,
            }
        }
        false
    }

    /// Bytes up to and including `sep`, or `None` at the end of the body.
    async fn until(&mut self, sep: &[u8]) -> Option<Vec<u8>> {
        loop {
            if let Some(at) = self.pending.windows(sep.len()).position(|w| w == sep) {
                let rest = self.pending.split_off(at + sep.len());
                return Some(std::mem::replace(&mut self.pending, rest));
            }
            let more = tokio::time::timeout(PATIENCE, self.fill())
                .await
                .expect("the stream stalled");
            if !more {
                return None;
            }
        }
    }

    /// The next SSE block (events, `retry:` and comments alike).
    pub async fn block(&mut self) -> Option<Event> {
        let raw = self.until(b"\n\n").await?;
        let text = String::from_utf8(raw).expect("UTF-8");
        let mut e = Event::default();
        for line in text.lines() {
            if let Some(c) = line.strip_prefix(':') {
                e.comments.push(c.trim().to_owned());
            } else if let Some((field, value)) = line.split_once(':') {
                let value = value.strip_prefix(' ').unwrap_or(value).to_owned();
                match field {
                    "event" => e.event = Some(value),
                    "id" => e.id = Some(value),
                    "data" => e.data = Some(value),
                    "retry" => e.retry = Some(value),
                    other => panic!("unknown field {other:?}"),
                }
            }
        }
        Some(e)
    }

    /// The next SSE event that carries data (skipping `retry:` and
    /// keep-alives).
    pub async fn event(&mut self) -> Option<Event> {
        loop {
            let e = self.block().await?;
            if e.data.is_some() {
                return Some(e);
            }
        }
    }

    /// The next non-empty NDJSON line, parsed.
    pub async fn line(&mut self) -> Option<serde_json::Value> {
        loop {
            let raw = self.until(b"\n").await?;
            let text = String::from_utf8(raw).expect("UTF-8");
            if !text.trim().is_empty() {
                return Some(serde_json::from_str(&text).expect("a JSON line"));
            }
        }
    }
}
