//! `GET /v1/games/{id}/events`: the live feed of a game, as Server-Sent
//! Events (the default) or as NDJSON (`Accept: application/x-ndjson`).
//!
//! The stream opens with a `snapshot` (the game view, as
//! `GET /v1/games/{id}` gives it, with `id` = its moves so far), or, when
//! resuming after move `n` (`Last-Event-ID: n`, or `?since=n`), with move
//! `n + 1`; then one `move` per move (the move view, as
//! `GET /v1/games/{id}/moves/{n}` gives it, with `id` = its number); when
//! the game ends (won or stopped), `end` with the final game view, and the
//! stream closes; when the game is deleted (by a request, or by the
//! server's retention), `deleted`, and the stream closes. `?follow=false` tells what the store holds (and `end` if
//! the game is over), then closes without waiting for more. SSE streams
//! send `retry: 2000` once and a `: keep-alive` comment after 15 s without
//! news; NDJSON streams send an empty line then. The fan-out is the
//! service's (`service::Hub`); this module only frames, each move once per
//! audience, detail level and format for all of its subscribers.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use actix_web::http::header::{self, HeaderMap};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::extract::{GameIdPath, NarrationQuery};
use super::problem::{ApiError, Problem};
use super::recap::{RecapView, feed_recap};
use super::views::game::{GameView, game_view};
use super::views::moves::{MoveView, move_view};
use crate::domain::Game;
use crate::narration::{Audience, Detail};
use crate::service::{ChanceTable, ChancesUnknown};
use crate::service::{Deletion, Service, Watch, WatchEvent};
use zohn_ahl_odds::Solver;

/// How long a stream may stay silent before a keep-alive.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The reconnection delay an SSE stream suggests, in milliseconds.
pub const RETRY_MS: u32 = 2000;

/// The NDJSON media type.
pub const NDJSON: &str = "application/x-ndjson";

/// The feed's query parameters, as documented; extracted first so that an
/// repeated one is refused (unknown ones are ignored). The values are read by [`Resume`],
/// [`Follow`] and [`NarrationQuery`].
#[derive(Debug, Deserialize, IntoParams)]
#[expect(
    dead_code,
    reason = "parsed only to refuse parameters the operation does not document"
)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Narrate every move again for this audience (default: the game's
    /// own), as on the move log.
    #[param(value_type = Option<Audience>)]
    audience: Option<String>,
    /// Tell every move at this detail level (default: the game's own), as
    /// on the move log.
    #[param(value_type = Option<Detail>)]
    detail: Option<String>,
    /// Resume after move `since` (no snapshot): the first event is move
    /// `since + 1`. For clients without `Last-Event-ID` (NDJSON); the
    /// header wins when both are sent.
    #[param(value_type = Option<u32>, minimum = 0, maximum = 999_999_999)]
    since: Option<String>,
    /// `false`: tell what is there now (and `end` if the game is over),
    /// then close; default `true`: stay open for every move until the end.
    #[param(value_type = Option<bool>)]
    follow: Option<String>,
}

#[derive(Deserialize)]
struct FeedParams {
    since: Option<String>,
    follow: Option<String>,
}

/// A move number of the resume point: 0 to 999,999,999.
fn move_number(text: &str) -> Option<u32> {
    (!text.is_empty() && text.len() <= 9 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

/// Where the feed resumes (`Last-Event-ID`, else `since`), whether it
/// follows, and in which format.
struct Request {
    resume: Option<u32>,
    follow: bool,
    ndjson: bool,
}

fn parse(headers: &HeaderMap, query: &str) -> Result<Request, ApiError> {
    let params = web::Query::<FeedParams>::from_query(query)
        .map_err(|e| ApiError::invalid(format!("query string: {e}"), Vec::new()))?;
    // Browsers send the header only with a non-empty id; an empty one is
    // as malformed as any other value that is not a move number.
    let header = headers
        .get("last-event-id")
        .map(|v| v.to_str().unwrap_or("?").trim());
    // `since` is checked even when the header wins: a malformed one is
    // refused either way.
    let since = params
        .since
        .as_deref()
        .map(|text| {
            move_number(text).ok_or_else(|| {
                ApiError::field(
                    "#/query/since",
                    "must be a move number, an integer from 0 to 999999999",
                )
            })
        })
        .transpose()?;
    let resume = match header {
        Some(text) => Some(move_number(text).ok_or_else(|| {
            ApiError::field(
                "#/header/Last-Event-ID",
                "must be the id of an event of this feed, a move number from 0",
            )
        })?),
        None => since,
    };
    // Either case: clients written in other languages send `True`.
    let follow = match params.follow.as_deref() {
        None => true,
        Some(t) if t.eq_ignore_ascii_case("true") => true,
        Some(f) if f.eq_ignore_ascii_case("false") => false,
        Some(_) => {
            return Err(ApiError::field("#/query/follow", "must be true or false"));
        }
    };
    let ndjson = headers
        .get_all(header::ACCEPT)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|m| {
            m.split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case(NDJSON))
        });
    Ok(Request {
        resume,
        follow,
        ndjson,
    })
}

/// The name of a feed event (its SSE `event:` field; an NDJSON line's
/// `event`).
#[derive(Clone, Copy, Debug)]
pub enum FeedEventName {
    /// The game as it stands (`data`: a game view).
    Snapshot,
    /// One move (`data`: a move view).
    Move,
    /// The game is over (`data`: the final game view with its recap); the
    /// stream closes.
    End,
    /// The game was deleted (`data`: a `FeedDeletion`); the stream closes,
    /// and the game's reads answer 404 from now on.
    Deleted,
}

impl FeedEventName {
    fn name(self) -> &'static str {
        match self {
            FeedEventName::Snapshot => "snapshot",
            FeedEventName::Move => "move",
            FeedEventName::End => "end",
            FeedEventName::Deleted => "deleted",
        }
    }
}

/// Why a game's feed ended without an `end`: its `deleted` event.
#[derive(Debug, Serialize, ToSchema)]
pub struct FeedDeletion {
    /// The game's id.
    #[schema(example = "0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79")]
    id: String,
    /// `request`: deleted by `DELETE /v1/games/{id}`; `retention`: removed
    /// by the server's retention (finished, or without a move, for longer
    /// than the retention period).
    reason: DeletionReason,
}

/// Why the game was deleted.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeletionReason {
    /// By `DELETE /v1/games/{id}`.
    Request,
    /// By the server's retention.
    Retention,
}

/// An SSE event's `data`: `anyOf`, by hand (an untagged enum is a `oneOf`).
pub struct FeedData;

impl utoipa::PartialSchema for FeedData {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AnyOfBuilder, Ref};
        AnyOfBuilder::new()
            .item(Ref::from_schema_name("GameView"))
            .item(Ref::from_schema_name("MoveView"))
            .item(Ref::from_schema_name("EndView"))
            .item(Ref::from_schema_name("FeedDeletion"))
            .description(Some(
                "What one event of the SSE feed carries in its `data` (one line of JSON): a \
                 `GameView` for `snapshot`, a `MoveView` for `move`, an `EndView` (the final game \
                 view with its recap) for `end`, a `FeedDeletion` for `deleted` (`anyOf`: an \
                 `EndView` is a `GameView` too). The event's name is its `event:` field and its \
                 `id:` the resume point to send back as `Last-Event-ID`; the stream also carries \
                 `retry:` once and `: keep-alive` comments, which are not events. The schema of \
                 the SSE media type, since generated SSE readers (hey-api's `streamEvents`) yield \
                 each event's `data`, parsed, as the item.",
            ))
            .into()
    }
}

impl ToSchema for FeedData {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        use utoipa::PartialSchema;
        schemas.push(("GameView".to_owned(), GameView::schema()));
        <GameView as ToSchema>::schemas(schemas);
        schemas.push(("MoveView".to_owned(), MoveView::schema()));
        <MoveView as ToSchema>::schemas(schemas);
        schemas.push(("EndView".to_owned(), EndView::schema()));
        <EndView as ToSchema>::schemas(schemas);
        schemas.push(("FeedDeletion".to_owned(), FeedDeletion::schema()));
        <FeedDeletion as ToSchema>::schemas(schemas);
    }
}

/// The NDJSON feed's body as a whole: text, one `FeedLine` a line (its
/// `contentSchema`), so that a generated client reads it raw.
pub struct FeedLines;

impl utoipa::PartialSchema for FeedLines {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Ref, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "The feed as NDJSON: one `FeedLine` (this schema's `contentSchema`) a line, \
                 and an empty line as a keep-alive.",
            ))
            .content_media_type(NDJSON)
            .content_schema(Some(Ref::from_schema_name("FeedLine")))
            .into()
    }
}

impl ToSchema for FeedLines {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        use utoipa::PartialSchema;
        schemas.push(("FeedLine".to_owned(), FeedLine::schema()));
        <FeedLine as ToSchema>::schemas(schemas);
    }
}

/// One line of the NDJSON feed.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
#[expect(dead_code, reason = "the schema of a line; lines are framed by hand")]
pub enum FeedLine {
    /// The game as it stands.
    #[schema(title = "Snapshot")]
    Snapshot {
        /// Moves so far.
        id: u32,
        /// The game, as `GET /v1/games/{id}` gives it.
        data: Box<GameView>,
    },
    /// One move.
    #[schema(title = "Move")]
    Move {
        /// The move's number.
        id: u32,
        /// The move, as `GET /v1/games/{id}/moves/{n}` gives it.
        data: Box<MoveView>,
    },
    /// The game is over; the stream closes.
    #[schema(title = "End")]
    End {
        /// The game's final version: its moves, one more for a stop.
        id: u32,
        /// The final game, and its recap.
        data: Box<EndView>,
    },
    /// The game was deleted; the stream closes.
    #[schema(title = "Deleted")]
    Deleted {
        /// The last move told.
        id: u32,
        /// The game and why it was deleted.
        data: FeedDeletion,
    },
}

/// The `end` event's data: the final game view (as `GET /v1/games/{id}`
/// gives it) with the game's recap (as `GET /v1/games/{id}/recap` gives
/// it for the feed's audience and detail).
#[derive(Debug, Serialize, ToSchema)]
pub struct EndView {
    /// The final game.
    #[serde(flatten)]
    pub game: GameView,
    /// The game's recap, for the feed's audience and detail; `null` when it
    /// could not be made.
    #[schema(value_type = Option<RecapView>)]
    pub recap: Option<Arc<RecapView>>,
}

/// One framed event.
fn frame(ndjson: bool, event: FeedEventName, id: u32, data: &[u8]) -> Bytes {
    let event = event.name();
    let mut out = Vec::with_capacity(data.len() + 48);
    if ndjson {
        out.extend_from_slice(b"{\"event\":\"");
        out.extend_from_slice(event.as_bytes());
        out.extend_from_slice(b"\",\"id\":");
        out.extend_from_slice(id.to_string().as_bytes());
        out.extend_from_slice(b",\"data\":");
        out.extend_from_slice(data);
        out.extend_from_slice(b"}\n");
    } else {
        out.extend_from_slice(b"event: ");
        out.extend_from_slice(event.as_bytes());
        out.extend_from_slice(b"\nid: ");
        out.extend_from_slice(id.to_string().as_bytes());
        out.extend_from_slice(b"\ndata: ");
        out.extend_from_slice(data);
        out.extend_from_slice(b"\n\n");
    }
    Bytes::from(out)
}

fn game_json(game: &Game) -> Vec<u8> {
    serde_json::to_vec(&game_view(game, &game.state)).unwrap_or_default()
}

/// A feed being sent.
struct Feed {
    watch: Watch,
    /// The service, for the recap in `end`.
    service: web::Data<Service>,
    /// The odds service the moves' chances come from.
    solver: Solver,
    ndjson: bool,
    told: NarrationQuery,
    opened: bool,
}

impl Feed {
    async fn next(mut self) -> Option<(Result<Bytes, Infallible>, Self)> {
        if !self.opened {
            self.opened = true;
            if !self.ndjson {
                let retry = Bytes::from(format!("retry: {RETRY_MS}\n\n"));
                return Some((Ok(retry), self));
            }
        }
        let event = match self.watch.next().await {
            Ok(Some(event)) => event,
            Ok(None) => return None,
            Err(e) => {
                tracing::warn!(error = %e, "a live feed stopped: the store could not be read");
                return None;
            }
        };
        let bytes = match event {
            WatchEvent::Snapshot(game) => frame(
                self.ndjson,
                FeedEventName::Snapshot,
                game.state.throws,
                &game_json(&game),
            ),
            WatchEvent::Move(m) => {
                // Rendered and framed by the first subscriber of each
                // audience, detail level and format; the others share its
                // bytes.
                let audience = self.told.audience.unwrap_or(m.game.setup.audience);
                let detail = self.told.detail.unwrap_or(m.game.setup.detail);
                let ndjson = self.ndjson;
                // As the throw's answer has them: what the odds service
                // has solved now, without waiting.
                let chances = match m.game.setup.table() {
                    Ok(table) => ChanceTable::now(&self.solver, &table),
                    Err(_) => ChanceTable::Unknown(ChancesUnknown::Unavailable),
                };
                m.framed(audience, detail, ndjson, |game, record| {
                    let n = record.n;
                    let view = move_view(game, record, Some(audience), Some(detail), &chances);
                    let data = serde_json::to_vec(&view).unwrap_or_default();
                    frame(ndjson, FeedEventName::Move, n, &data)
                })
            }
            WatchEvent::Deleted { id, last, why } => {
                let reason = match why {
                    Deletion::Request => DeletionReason::Request,
                    Deletion::Retention => DeletionReason::Retention,
                };
                let data = serde_json::to_vec(&FeedDeletion {
                    id: id.to_string(),
                    reason,
                })
                .unwrap_or_default();
                frame(self.ndjson, FeedEventName::Deleted, last, &data)
            }
            // The game's final version: its moves, and one more for a stop,
            // so that a resume from it is told apart from one after the
            // last move (see `get_events`).
            WatchEvent::End(game) => {
                let audience = self.told.audience.unwrap_or(game.setup.audience);
                let detail = self.told.detail.unwrap_or(game.setup.detail);
                let recap = feed_recap(&self.service, &self.solver, &game, audience, detail).await;
                let data = serde_json::to_vec(&EndView {
                    game: game_view(&game, &game.state),
                    recap,
                })
                .unwrap_or_default();
                frame(self.ndjson, FeedEventName::End, game.version.get(), &data)
            }
            WatchEvent::Idle if self.ndjson => Bytes::from_static(b"\n"),
            WatchEvent::Idle => Bytes::from_static(b": keep-alive\n\n"),
        };
        Some((Ok(bytes), self))
    }
}

/// Follow a game live: a snapshot, each move as it is made, then the end.
///
/// The live feed of a game: a snapshot, then each move as it is made,
/// then the end.
///
/// Server-Sent Events (`text/event-stream`) by default; NDJSON
/// (`application/x-ndjson`, one `{"event", "id", "data"}` object a line)
/// when `Accept` asks for it. Without a resume point the stream opens with
/// `snapshot` (`id`: the moves so far; `data`: the game view). Then one
/// `move` per move (`id`: its number; `data`: the move view, with its
/// `caption`), and, once the game is won or stopped, `end` (`data`: the
/// final game view with the game's recap, as `GET /v1/games/{id}/recap`
/// gives it for the feed's audience and detail), after which the stream closes. A game already over
/// gets its snapshot (or the moves after the resume point) and `end`.
/// When the game is deleted (`DELETE /v1/games/{id}`, or the server's
/// retention), its subscribers get `deleted` (`id`: the last move told;
/// `data`: the game's id and `reason`, `request` or `retention`), and the
/// stream closes; the game's reads, this one included, then answer 404.
///
/// `Last-Event-ID: n` (SSE; browsers send it when they reconnect) or
/// `?since=n` resumes after move `n`, with no gap and no duplicate, even
/// while moves are being made. A resume at or after the end of a finished
/// game (the `end` event's `id`: its final version, the moves and one more
/// for a stop) is answered 204 with no body, which stops a browser's
/// `EventSource` from reconnecting; a resume from a won game's last move is
/// the same, since that move's `after` already says the game is over. `?follow=false` sends what there is now
/// and closes. SSE streams send `retry: 2000` once, and `: keep-alive`
/// after 15 s without news (NDJSON: an empty line). Subscribers are
/// bounded per game and in all: beyond, 503 with `Retry-After`.
#[utoipa::path(
    operation_id = "stream_events",
    tag = "games",
    params(
        GameIdPath,
        ("Last-Event-ID" = Option<String>, Header, nullable = false, pattern = "^[0-9]{1,9}$", description = "Resume after this move (the `id` of the last event received): no snapshot; the first event is the next move"),
        EventsQuery,
    ),
    responses(
        (status = 200, description = "The feed: `snapshot` (unless resuming), one `move` per move, `end` when the game is over, `deleted` when it is deleted. SSE by default, its schema what each event's `data` holds (`FeedData`: the item an SSE reader yields); NDJSON with `Accept: application/x-ndjson`, a text of one `FeedLine` a line",
            content(
                (FeedData = "text/event-stream"),
                (inline(FeedLines) = "application/x-ndjson"),
            )),
        (status = 204, description = "Nothing more to tell: the resume point is at or after the end of a finished game (an `EventSource` stops reconnecting)"),
        (status = 400, description = "Malformed id, audience, detail, since, follow or Last-Event-ID", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client address has opened its most live feeds this minute (`--limit-feeds-per-minute`) (`/problems/rate-limited`); retry after `Retry-After`", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u32, description = "Seconds to wait before trying again"))),
        (status = 503, description = "The game's or the server's live feeds have their most subscribers (`/problems/feed-full`); retry after `Retry-After`", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u32, description = "Seconds to wait before trying again"))),
    )
)]
#[get("/v1/games/{id}/events")]
pub async fn get_events(
    service: web::Data<Service>,
    solver: web::Data<Solver>,
    req: HttpRequest,
    // The documented parameters first: an unknown or repeated one is
    // refused before the path is read.
    _params: web::Query<EventsQuery>,
    GameIdPath(id): GameIdPath,
    told: NarrationQuery,
) -> Result<HttpResponse, ApiError> {
    let Request {
        resume,
        follow,
        ndjson,
    } = parse(req.headers(), req.query_string())?;
    if let Some(after) = resume {
        let game = service.game(id).await?;
        if game.state.is_finished() && after >= game.version.get() {
            return Ok(HttpResponse::NoContent().finish());
        }
    }
    let watch = service.watch(id, resume, follow, KEEP_ALIVE).await?;
    let feed = Feed {
        watch,
        service: service.clone(),
        solver: solver.get_ref().clone(),
        ndjson,
        told,
        opened: false,
    };
    let stream = futures_util::stream::unfold(feed, Feed::next);
    let mut res = HttpResponse::Ok();
    res.content_type(if ndjson { NDJSON } else { "text/event-stream" })
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // Proxies that buffer (nginx) pass each event on at once.
        .insert_header(("x-accel-buffering", "no"));
    Ok(res.streaming(stream))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};

    use super::{FeedEventName, frame, parse};

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.append(HeaderName::from_static(k), HeaderValue::from_static(v));
        }
        map
    }

    #[test]
    fn last_event_id_wins_over_since_and_accept_chooses_ndjson() {
        let r = parse(&headers(&[("last-event-id", "7")]), "since=3").unwrap();
        assert_eq!(r.resume, Some(7));
        assert!(r.follow && !r.ndjson);
        let r = parse(
            &headers(&[("accept", "text/plain, application/x-ndjson;q=0.9")]),
            "since=3&follow=false",
        )
        .unwrap();
        assert_eq!(r.resume, Some(3));
        assert!(!r.follow && r.ndjson);
        assert_eq!(parse(&headers(&[]), "").unwrap().resume, None);
        assert!(!parse(&headers(&[]), "follow=False").unwrap().follow);
        assert!(parse(&headers(&[]), "follow=TRUE").unwrap().follow);
    }

    #[test]
    fn a_malformed_resume_point_points_at_its_input() {
        for (h, q, pointer) in [
            (&[("last-event-id", "x")][..], "", "#/header/Last-Event-ID"),
            (&[("last-event-id", "")][..], "", "#/header/Last-Event-ID"),
            (&[][..], "since=-1", "#/query/since"),
            (&[][..], "since=1234567890", "#/query/since"),
            (&[("last-event-id", "5")][..], "since=x", "#/query/since"),
            (&[][..], "follow=yes", "#/query/follow"),
        ] {
            let err = parse(&headers(h), q).err().unwrap();
            assert_eq!(err.problem().errors[0].pointer, pointer, "{q}");
        }
    }

    #[test]
    fn frames_are_one_event_each() {
        assert_eq!(
            &frame(false, FeedEventName::Move, 3, b"{}")[..],
            b"event: move\nid: 3\ndata: {}\n\n"
        );
        assert_eq!(
            &frame(true, FeedEventName::End, 9, b"{\"a\":1}")[..],
            b"{\"event\":\"end\",\"id\":9,\"data\":{\"a\":1}}\n"
        );
    }
}
