//! The server binary as an operator runs it: started on a fresh SQLite file
//! in a directory of the test's, on a free loopback port, waited for until
//! it is ready.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A loopback port nothing listens on at this moment.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The status line's code of `GET path`, or `None` when nothing listens.
pub fn get_status(port: u16, path: &str) -> Option<u16> {
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

/// Start the binary on `dir/games.db` and `port` with these flags besides
/// its database, address and one worker, its standard error going to
/// `stderr`; it is ready (`/readyz` answers 200) when this returns.
pub fn spawn_binary(dir: &std::path::Path, port: u16, flags: &[&str], stderr: Stdio) -> Child {
    let url = format!("sqlite://{}?mode=rwc", dir.join("games.db").display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
        .args([
            "--database-url",
            &url,
            "--addr",
            &format!("127.0.0.1:{port}"),
        ])
        .args(flags)
        .args(["--workers", "1"])
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while get_status(port, "/readyz") != Some(200) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the server exited at start"
        );
        assert!(Instant::now() < deadline, "the server did not become ready");
        std::thread::sleep(Duration::from_millis(50));
    }
    child
}

/// Send the server `signal` (`-TERM`, `-INT`).
pub fn send_signal(server: &Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &server.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// The binary as [`spawn_binary`] starts it, in a folder of its own, its
/// standard error written to a file there; read the file with
/// [`Logged::stop`].
pub struct Logged {
    /// The folder of its database and its log.
    pub dir: tempfile::TempDir,
    /// The running server.
    pub server: Child,
    /// A client for it.
    pub app: super::Bound,
}

impl Logged {
    /// Start the binary with `flags`, its log going to a file.
    pub fn start(flags: &[&str]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let log = std::fs::File::create(dir.path().join("server.log")).unwrap();
        let server = spawn_binary(dir.path(), port, flags, log.into());
        Self {
            dir,
            server,
            app: super::Bound::at(format!("http://127.0.0.1:{port}")),
        }
    }

    /// Stop it (SIGTERM), check it exited cleanly, and read its whole log.
    pub fn stop(self) -> String {
        send_signal(&self.server, "-TERM");
        let exit = { self.server }.wait().unwrap();
        assert!(exit.success(), "{exit}");
        std::fs::read_to_string(self.dir.path().join("server.log")).unwrap()
    }
}
