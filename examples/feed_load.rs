//! Live-feed load benchmark (run by `scripts/feed_load.sh` against a
//! release server): many subscribers of `GET /v1/games/{id}/events` while
//! throws are made, and the delay from each throw's answer to its `move`
//! event reaching every subscriber.
//!
//! ```text
//! cargo run --release --example feed_load -- ADDR GAMES SUBSCRIBERS_PER_GAME THROWS RATE
//! ```
//!
//! Creates `GAMES` long games, opens `SUBSCRIBERS_PER_GAME` SSE streams on
//! each and waits for every snapshot, then makes `THROWS` server throws, one
//! after another at most `RATE` a second, round-robin over the games. For
//! each throw it takes the moment its 201 answer was read and, for every
//! subscriber of its game, the moment its `move` event arrived (an event
//! that comes before the answer counts as 0). Prints one `RESULT` line:
//! per-throw delay from the answer to the last subscriber (p50, p99, max),
//! per-delivery delay (p50, p99), the delay from sending the throw to its
//! event at the last subscriber (p50, p99: the commit included), and
//! deliveries missing.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// An HTTP/1.1 response read as it arrives (chunked or sized).
struct Response {
    reader: BufReader<TcpStream>,
    status: u16,
    chunked: bool,
    length: usize,
    pending: Vec<u8>,
}

async fn open(addr: SocketAddr, method: &str, path: &str, headers: &str, body: &str) -> Response {
    let mut tcp = TcpStream::connect(addr).await.expect("connect");
    tcp.set_nodelay(true).expect("nodelay");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nhost: {addr}\r\ncontent-length: {}\r\n{headers}\r\n{body}",
        body.len()
    );
    tcp.write_all(head.as_bytes()).await.expect("write");
    let mut reader = BufReader::new(tcp);
    let mut line = String::new();
    reader.read_line(&mut line).await.expect("status");
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status code");
    let (mut chunked, mut length) = (false, 0);
    loop {
        line.clear();
        reader.read_line(&mut line).await.expect("header");
        let l = line.trim_end().to_ascii_lowercase();
        if l.is_empty() {
            break;
        }
        if l == "transfer-encoding: chunked" {
            chunked = true;
        }
        if let Some(v) = l.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    Response {
        reader,
        status,
        chunked,
        length,
        pending: Vec::new(),
    }
}

impl Response {
    /// More body bytes; `false` at the end.
    async fn fill(&mut self) -> bool {
        if !self.chunked {
            if self.length == 0 {
                return false;
            }
            let mut buf = vec![0; self.length];
            self.reader.read_exact(&mut buf).await.expect("body");
            self.pending.extend_from_slice(&buf);
            self.length = 0;
            return true;
        }
        let mut line = String::new();
        if self.reader.read_line(&mut line).await.unwrap_or(0) == 0 {
            return false;
        }
        let size = usize::from_str_radix(line.trim(), 16).unwrap_or(0);
        if size == 0 {
            return false;
        }
        let mut buf = vec![0; size + 2];
        if self.reader.read_exact(&mut buf).await.is_err() {
            return false;
        }
        buf.truncate(size);
        self.pending.extend_from_slice(&buf);
        true
    }

    async fn body(mut self) -> Vec<u8> {
        while self.fill().await {}
        self.pending
    }

    /// The next SSE block, as text.
    async fn block(&mut self) -> Option<String> {
        loop {
            if let Some(at) = self.pending.windows(2).position(|w| w == b"\n\n") {
                let rest = self.pending.split_off(at + 2);
                let block = std::mem::replace(&mut self.pending, rest);
                return Some(String::from_utf8_lossy(&block).into_owned());
            }
            if !self.fill().await {
                return None;
            }
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

/// Arrival moments: (game index, move number) -> one per subscriber.
type Arrivals = Arc<Mutex<HashMap<(usize, u32), Vec<Instant>>>>;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, addr, games, subs, throws, rate] = &args[..] else {
        eprintln!("usage: feed_load ADDR GAMES SUBSCRIBERS_PER_GAME THROWS RATE");
        std::process::exit(2);
    };
    let addr: SocketAddr = addr.parse().expect("ADDR: host:port");
    let (games, subs): (usize, usize) = (games.parse().unwrap(), subs.parse().unwrap());
    let (throws, rate): (usize, f64) = (throws.parse().unwrap(), rate.parse().unwrap());

    // Long games (15 counters a side), so that none ends during the run.
    let mut ids = Vec::with_capacity(games);
    for _ in 0..games {
        let body = r#"{"ruleset":{"options":{"counters_per_side":15}}}"#;
        let r = open(
            addr,
            "POST",
            "/v1/games",
            "content-type: application/json\r\nconnection: close\r\n",
            body,
        )
        .await;
        assert_eq!(r.status, 201);
        let v: serde_json::Value = serde_json::from_slice(&r.body().await).unwrap();
        ids.push(v["id"].as_str().unwrap().to_owned());
    }

    let arrivals: Arrivals = Arc::default();
    let (ready_tx, mut ready_rx) = tokio::sync::mpsc::channel::<()>(games * subs);
    let mut refused = 0usize;
    let mut tasks = Vec::new();
    for (g, id) in ids.iter().enumerate() {
        for _ in 0..subs {
            let mut r = open(addr, "GET", &format!("/v1/games/{id}/events"), "", "").await;
            if r.status != 200 {
                refused += 1;
                continue;
            }
            let arrivals = Arc::clone(&arrivals);
            let ready = ready_tx.clone();
            tasks.push(tokio::spawn(async move {
                while let Some(block) = r.block().await {
                    let now = Instant::now();
                    if block.starts_with("event: snapshot") {
                        let _ = ready.send(()).await;
                    } else if let Some(rest) = block.strip_prefix("event: move\nid: ") {
                        let n: u32 = rest.split('\n').next().unwrap().parse().unwrap();
                        arrivals
                            .lock()
                            .unwrap()
                            .entry((g, n))
                            .or_default()
                            .push(now);
                    }
                }
            }));
        }
    }
    drop(ready_tx);
    let open_streams = tasks.len();
    for _ in 0..open_streams {
        ready_rx.recv().await.expect("a snapshot");
    }
    eprintln!("{open_streams} subscribers ready ({refused} refused)");

    let gap = Duration::from_secs_f64(1.0 / rate);
    // (game, move, request sent, answer read)
    let mut answered: Vec<(usize, u32, Instant, Instant)> = Vec::with_capacity(throws);
    let started = Instant::now();
    for i in 0..throws {
        let tick = started + gap * u32::try_from(i).unwrap();
        tokio::time::sleep_until(tick.into()).await;
        let g = i % games;
        let sent = Instant::now();
        let r = open(
            addr,
            "POST",
            &format!("/v1/games/{}/throws", ids[g]),
            "connection: close\r\n",
            "",
        )
        .await;
        let status = r.status;
        let body = r.body().await;
        let now = Instant::now();
        if status != 201 {
            eprintln!("throw {i}: {status}");
            continue;
        }
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        answered.push((
            g,
            u32::try_from(v["n"].as_u64().unwrap()).unwrap(),
            sent,
            now,
        ));
    }
    let elapsed = started.elapsed();
    // Let the last events arrive.
    tokio::time::sleep(Duration::from_secs(2)).await;

    let per_game = open_streams / games.max(1);
    let arrivals = arrivals.lock().unwrap();
    let mut to_all = Vec::new();
    let mut each = Vec::new();
    let mut from_request = Vec::new();
    let mut missing = 0usize;
    for (g, n, sent, answer) in &answered {
        let got = arrivals.get(&(*g, *n)).map_or(&[][..], Vec::as_slice);
        missing += per_game.saturating_sub(got.len());
        let delays: Vec<Duration> = got
            .iter()
            .map(|t| t.saturating_duration_since(*answer))
            .collect();
        if let Some(worst) = delays.iter().max() {
            to_all.push(*worst);
        }
        if let Some(last) = got.iter().max() {
            from_request.push(last.saturating_duration_since(*sent));
        }
        each.extend(delays);
    }
    to_all.sort();
    each.sort();
    from_request.sort();
    println!(
        "RESULT games={games} subscribers={open_streams} refused={refused} throws={} throws_per_s={:.1} all_p50_ms={} all_p99_ms={} all_max_ms={} each_p50_ms={} each_p99_ms={} request_p50_ms={} request_p99_ms={} missing={missing}",
        answered.len(),
        answered.len() as f64 / elapsed.as_secs_f64(),
        ms(percentile(&to_all, 50.0)),
        ms(percentile(&to_all, 99.0)),
        ms(to_all.last().copied().unwrap_or_default()),
        ms(percentile(&each, 50.0)),
        ms(percentile(&each, 99.0)),
        ms(percentile(&from_request, 50.0)),
        ms(percentile(&from_request, 99.0)),
    );
    for t in tasks {
        t.abort();
    }
}
