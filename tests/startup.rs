//! Start-up: several processes opening one database at the same moment.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use zohn_ahl::store::Store;

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The status line's code of `GET path`, or `None` when nothing listens.
fn get_status(port: u16, path: &str) -> Option<u16> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    answer.split(' ').nth(1)?.parse().ok()
}

struct Killed(Vec<Child>);

impl Drop for Killed {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Case 0001: three servers started at once on one new SQLite file; two
/// of them used to die in the migrations ("duplicate column name",
/// "UNIQUE constraint failed: _sqlx_migrations.version").
#[test]
fn instances_started_together_on_a_fresh_database_all_come_up() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("shared.db").display()
    );
    let ports: Vec<u16> = (0..3).map(|_| free_port()).collect();
    let mut servers = Killed(Vec::new());
    for port in &ports {
        servers.0.push(
            Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
                .args([
                    "--database-url",
                    &url,
                    "--addr",
                    &format!("127.0.0.1:{port}"),
                ])
                .args(["--log", "warn", "--workers", "1"])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap(),
        );
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut ready = vec![false; ports.len()];
    while ready.iter().any(|r| !r) {
        assert!(Instant::now() < deadline, "not every server became ready");
        for (i, server) in servers.0.iter_mut().enumerate() {
            if let Some(status) = server.try_wait().unwrap() {
                let mut err = String::new();
                server
                    .stderr
                    .take()
                    .unwrap()
                    .read_to_string(&mut err)
                    .unwrap();
                panic!("server {i} exited ({status}): {err}");
            }
            ready[i] = ready[i] || get_status(ports[i], "/readyz") == Some(200);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The same race inside one process: every store opened at once on a
/// fresh file migrates it exactly once and reports it ready.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stores_opened_together_on_a_fresh_database_all_migrate() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("shared.db").display());
    let opened = futures_util::future::join_all((0..6).map(|_| Store::connect(&url))).await;
    for store in opened {
        let store = store.expect("every store opens");
        assert!(store.ready().await.unwrap());
        store.close().await;
    }
}
