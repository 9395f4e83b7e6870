//! The connection below the HTTP layer: each request head is read whole
//! and checked against the limits before actix-web's parser sees it, so
//! that a request it would refuse with an empty answer (a target past 64
//! KiB, a head past 128 KiB, more than 96 headers, a malformed head) gets
//! a problem (414, 431, 400) like every other refusal.
//!
//! A head within the limits is passed on as it came. One that is not is
//! replaced by a small request of the server's own, marked with a secret
//! of this process, which [`super::conventions::limits`] answers with the
//! problem; so the answer comes in its place among pipelined requests,
//! and the connection closes after it. What the client sends after it is
//! read and dropped, so that closing the connection does not reset it
//! before the client has read the answer.
//!
//! Request bodies are passed on by their `Content-Length`. After a head
//! with `Transfer-Encoding` (a chunked body) or an upgrade, the rest of
//! the connection is passed on unread: the HTTP layer alone reads it.

use std::io;
use std::pin::Pin;
use std::sync::LazyLock;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use actix_web::http::StatusCode;
use bytes::{Buf, BytesMut};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::conventions::{MAX_HEADER_BYTES, MAX_HEADERS, MAX_URI_BYTES};

/// The header that marks the server's own stand-in request.
pub(super) const REFUSAL_HEADER: &str = "zohn-ahl-refused";

/// This process's secret, which only its own stand-in requests carry.
static SECRET: LazyLock<String> = LazyLock::new(|| {
    let bytes: [u8; 16] = rand::random();
    hex::encode(bytes)
});

/// Most headers read in one head (past [`MAX_HEADERS`] is refused; this
/// bounds the parser's work).
const SCAN_HEADERS: usize = MAX_HEADERS + 36;

/// The longest request line served: the target's limit and room for the
/// method and the version.
const MAX_LINE: usize = MAX_URI_BYTES + 64;

/// The longest head: the request line, the headers' names and values, and
/// each header's `: ` and line end.
const MAX_HEAD: usize = MAX_LINE + MAX_HEADER_BYTES + 4 * (SCAN_HEADERS + 2);

/// How long a refused connection's remaining input is read and dropped
/// after the answer, at most.
const LINGER: Duration = Duration::from_secs(2);

/// The status a stand-in request of this process asks for, if `value` (the
/// [`REFUSAL_HEADER`]) is one.
pub(super) fn refusal(value: &[u8]) -> Option<StatusCode> {
    let text = std::str::from_utf8(value).ok()?;
    let (secret, code) = text.split_once(' ')?;
    if secret != SECRET.as_str() {
        return None;
    }
    match code {
        "400" => Some(StatusCode::BAD_REQUEST),
        "414" => Some(StatusCode::URI_TOO_LONG),
        "431" => Some(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE),
        _ => None,
    }
}

/// Where the reading of the connection is.
#[derive(Debug)]
enum State {
    /// Reading a request head (held until it is whole).
    Head,
    /// Passing on this many more bytes of a body.
    Body(u64),
    /// Passing on everything, unread.
    Through,
    /// A head was refused: what comes after it is dropped.
    Refused,
}

/// A connection whose request heads are checked before the HTTP layer
/// reads them.
pub struct Guarded<IO> {
    io: IO,
    state: State,
    /// The head read so far.
    held: BytesMut,
    /// What the HTTP layer is to read next.
    out: BytesMut,
    /// The end of the connection was read.
    eof: bool,
    /// Until when a refused connection's input is drained on shutdown.
    linger: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<IO> Guarded<IO> {
    /// Guard `io`.
    pub fn new(io: IO) -> Self {
        Self {
            io,
            state: State::Head,
            held: BytesMut::new(),
            out: BytesMut::new(),
            eof: false,
            linger: None,
        }
    }

    /// Take in bytes read from the connection.
    fn feed(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            match self.state {
                State::Through => {
                    self.out.extend_from_slice(data);
                    return;
                }
                State::Refused => return,
                State::Body(left) => {
                    let n = usize::try_from(left).unwrap_or(usize::MAX).min(data.len());
                    self.out.extend_from_slice(&data[..n]);
                    data = &data[n..];
                    let left = left - n as u64;
                    self.state = if left == 0 {
                        State::Head
                    } else {
                        State::Body(left)
                    };
                }
                State::Head => {
                    self.held.extend_from_slice(data);
                    data = &[];
                    self.read_heads();
                }
            }
        }
    }

    /// Judge the heads held, passing on each whole one that is within the
    /// limits.
    fn read_heads(&mut self) {
        while matches!(self.state, State::Head) && !self.held.is_empty() {
            match judge(&self.held) {
                Judged::Partial => return,
                Judged::Refuse(status) => {
                    self.refuse(status);
                    return;
                }
                Judged::Whole { len, next } => {
                    let head = self.held.split_to(len);
                    self.out.extend_from_slice(&head);
                    self.state = next;
                    if !matches!(self.state, State::Head) {
                        // The rest is a body, or passed on unread.
                        let rest = self.held.split();
                        self.feed(&rest);
                    }
                }
            }
        }
    }

    /// Stand in for a refused head: the server's own request, which is
    /// answered with `status` as a problem; nothing after it is read.
    fn refuse(&mut self, status: StatusCode) {
        self.held.clear();
        self.out.extend_from_slice(
            format!(
                "GET /refused HTTP/1.1\r\nhost: refused.invalid\r\nconnection: close\r\n\
                 {REFUSAL_HEADER}: {} {}\r\n\r\n",
                SECRET.as_str(),
                status.as_u16()
            )
            .as_bytes(),
        );
        self.state = State::Refused;
    }
}

/// What a held head is.
enum Judged {
    /// Not whole yet, and within the limits so far.
    Partial,
    /// Refused with this status.
    Refuse(StatusCode),
    /// Whole, `len` bytes, within the limits; what follows it.
    Whole { len: usize, next: State },
}

/// Judge the head at the start of `held`.
fn judge(held: &[u8]) -> Judged {
    // The request line first: its target must be within the limit.
    let line_end = held.iter().position(|&b| b == b'\n');
    let line = &held[..line_end.unwrap_or(held.len())];
    if target_len(line) > MAX_URI_BYTES || (line_end.is_none() && line.len() > MAX_LINE) {
        return Judged::Refuse(StatusCode::URI_TOO_LONG);
    }
    let mut headers = [httparse::EMPTY_HEADER; SCAN_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(held) {
        Ok(httparse::Status::Partial) => {
            if held.len() > MAX_HEAD {
                Judged::Refuse(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
            } else {
                Judged::Partial
            }
        }
        Err(httparse::Error::TooManyHeaders) => {
            Judged::Refuse(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
        }
        Err(_) => Judged::Refuse(StatusCode::BAD_REQUEST),
        Ok(httparse::Status::Complete(len)) => {
            let bytes: usize = request
                .headers
                .iter()
                .map(|h| h.name.len() + h.value.len())
                .sum();
            if request.headers.len() > MAX_HEADERS || bytes > MAX_HEADER_BYTES {
                return Judged::Refuse(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
            }
            match framing(&request) {
                Some(next) => Judged::Whole { len, next },
                None => Judged::Refuse(StatusCode::BAD_REQUEST),
            }
        }
    }
}

/// The length of the target of a request line (`GET /path?q HTTP/1.1`),
/// or of all of it after the method while the line is not whole.
fn target_len(line: &[u8]) -> usize {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let Some(start) = line.iter().position(|&b| b == b' ') else {
        return 0;
    };
    let rest = &line[start + 1..];
    match rest.iter().rposition(|&b| b == b' ') {
        Some(end) if rest[end + 1..].starts_with(b"HTTP/") => end,
        _ => rest.len(),
    }
}

/// How the body after a whole head is framed: its `Content-Length`
/// (none: no body), or passed on unread after `Transfer-Encoding` or an
/// upgrade; `None` for a `Content-Length` that is not one number.
fn framing(request: &httparse::Request<'_, '_>) -> Option<State> {
    if request.method == Some("CONNECT") {
        return Some(State::Through);
    }
    let mut length: Option<u64> = None;
    for header in request.headers.iter() {
        if header.name.eq_ignore_ascii_case("transfer-encoding")
            || header.name.eq_ignore_ascii_case("upgrade")
        {
            return Some(State::Through);
        }
        if header.name.eq_ignore_ascii_case("content-length") {
            let text = std::str::from_utf8(header.value).ok()?.trim();
            if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let n: u64 = text.parse().ok()?;
            if length.is_some_and(|l| l != n) {
                return None;
            }
            length = Some(n);
        }
    }
    Some(match length {
        Some(n) if n > 0 => State::Body(n),
        _ => State::Head,
    })
}

impl<IO: AsyncRead + Unpin> Guarded<IO> {
    /// Read from the connection into `out`, through the checks, until
    /// there is something to pass on or nothing more to read now.
    fn fill(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.eof && self.out.is_empty() && matches!(self.state, State::Refused) {
            // The stand-in's answer is still to be written: no end yet.
            return Poll::Pending;
        }
        let mut scratch = [0_u8; 16 * 1024];
        while self.out.is_empty() && !self.eof {
            let mut buf = ReadBuf::new(&mut scratch);
            ready!(Pin::new(&mut self.io).poll_read(cx, &mut buf))?;
            let read = buf.filled();
            if read.is_empty() {
                self.eof = true;
                if matches!(self.state, State::Refused) {
                    // The stand-in's answer is still to be written.
                    return Poll::Pending;
                }
                // A partial head is the HTTP layer's to judge.
                let held = self.held.split();
                self.out.extend_from_slice(&held);
            } else {
                self.feed(read);
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl<IO: AsyncRead + Unpin> AsyncRead for Guarded<IO> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if matches!(this.state, State::Through) && this.out.is_empty() && this.held.is_empty() {
            return Pin::new(&mut this.io).poll_read(cx, buf);
        }
        ready!(this.fill(cx))?;
        let n = this.out.len().min(buf.remaining());
        buf.put_slice(&this.out[..n]);
        this.out.advance(n);
        Poll::Ready(Ok(()))
    }
}

impl<IO: AsyncRead + AsyncWrite + Unpin> AsyncWrite for Guarded<IO> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    /// Shut the connection; after a refusal, first read and drop what the
    /// client still sends (for at most [`LINGER`]), so that the answer is
    /// not lost to a reset.
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(Pin::new(&mut this.io).poll_shutdown(cx))?;
        if !matches!(this.state, State::Refused) {
            return Poll::Ready(Ok(()));
        }
        let linger = this
            .linger
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(LINGER)));
        let mut scratch = [0_u8; 16 * 1024];
        while !this.eof {
            let mut buf = ReadBuf::new(&mut scratch);
            match Pin::new(&mut this.io).poll_read(cx, &mut buf) {
                Poll::Ready(Ok(())) if !buf.filled().is_empty() => {}
                Poll::Ready(_) => this.eof = true,
                Poll::Pending => {
                    ready!(linger.as_mut().poll(cx));
                    this.eof = true;
                }
            }
        }
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn passed(input: &[&[u8]]) -> (Vec<u8>, bool) {
        let mut g = Guarded::new(());
        for chunk in input {
            g.feed(chunk);
        }
        (g.out.to_vec(), matches!(g.state, State::Refused))
    }

    #[test]
    fn heads_within_the_limits_pass_as_they_came_with_their_bodies() {
        let two = b"POST /v1/games HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n";
        let (out, refused) = passed(&[&two[..10], &two[10..50], &two[50..]]);
        assert_eq!(out, two.to_vec());
        assert!(!refused);
    }

    #[test]
    fn a_target_past_the_limit_is_refused_as_414_before_the_head_is_whole() {
        let long = format!("GET /{} HTTP/1.1\r\n", "a".repeat(70 * 1024));
        let (out, refused) = passed(&[long.as_bytes()]);
        assert!(refused);
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("GET /refused "), "{text}");
        let value = text
            .lines()
            .find_map(|l| l.strip_prefix("zohn-ahl-refused: "))
            .unwrap();
        assert_eq!(refusal(value.as_bytes()), Some(StatusCode::URI_TOO_LONG));
        // Without the secret the header asks for nothing.
        assert_eq!(refusal(b"0123 414"), None);
    }

    #[test]
    fn too_many_headers_and_malformed_heads_are_refused_after_the_requests_before_them() {
        let mut many = b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\nGET / HTTP/1.1\r\n".to_vec();
        for i in 0..200 {
            many.extend_from_slice(format!("x-{i}: y\r\n").as_bytes());
        }
        many.extend_from_slice(b"\r\n");
        let (out, refused) = passed(&[&many]);
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("GET /healthz HTTP/1.1\r\nhost: x\r\n\r\nGET /refused "));
        assert!(text.contains(" 431\r\n") && refused, "{text}");
        let (out, refused) = passed(&[b"GET / HTTP/1.1\r\nbad header\r\n\r\n"]);
        assert!(refused && String::from_utf8(out).unwrap().contains(" 400\r\n"));
    }

    #[test]
    fn a_chunked_body_leaves_the_rest_of_the_connection_to_the_http_layer() {
        let chunked =
            b"POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
        let (out, refused) = passed(&[chunked]);
        assert_eq!(out, chunked.to_vec());
        assert!(!refused);
    }
}
