//! The classes resource: a teacher's group of seated games under one host
//! token. `POST /v1/classes` makes a class with its games, `GET
//! /v1/classes/{id}` lists them for the class's host, `POST
//! /v1/classes/{id}/games` adds one more. The class's host token is host of
//! each of its games (stop, throw for a side, report a throw, delete).

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{Class, Game, Subject};
use crate::extract::{Bearer, ClassIdPath, IdempotencyKey};
use crate::games::{CreateGameRequest, SeatsRequest};
use crate::json::{self, Obj};
use crate::problem::{ApiError, FieldError, Problem, StoreUnavailable};
use crate::service::idempotency::operation_hash;
use crate::service::{
    Answer, ClassRequest, CreatedClass, GameRequest, MAX_CLASS_GAMES, NewGame, Service,
};
use crate::views::game::{CreatedGameView, GameView, created_answer, created_view, game_view};

/// Body of `POST /v1/classes`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "name": "Room 4",
    "games": 4,
    "game": {"sides": {"a": {"name": "Hawks"}, "b": {"name": "Foxes"}}, "narration": {"audience": "young"}}
}))]
pub struct CreateClassRequest {
    /// The class's name: 1 to 40 characters, with a visible character, no
    /// control characters and no bidirectional controls, as a side's name
    /// (default "Class").
    #[schema(min_length = 1, max_length = 40, example = "Room 4")]
    pub name: Option<String>,
    /// How many games to make, 1 to 40 (default 1; more may be added).
    #[schema(minimum = 1, maximum = 40, example = 4)]
    #[serde(default, deserialize_with = "whole")]
    pub games: Option<u64>,
    /// Every game's setting, as `POST /v1/games` takes it (default `{}`).
    /// A class's games are always seated: `seats` may be left out, `true`
    /// or an object of seat settings, not `false`.
    // The game's own schema, which admits `null` already (as every body
    // of this API does): wrapped in another `oneOf` with `null`, `null`
    // matched both and fitted neither (schemathesis).
    #[schema(value_type = CreateGameRequest, required = false)]
    pub game: Option<Obj<CreateGameRequest>>,
}

/// A count in any JSON form of a whole number: `5` or `5.0`, as JSON
/// Schema's `integer` admits both (schemathesis sent `5.0`).
fn whole<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    use serde::de::Error;
    let Some(n) = Option::<serde_json::Number>::deserialize(d)? else {
        return Ok(None);
    };
    if let Some(v) = n.as_u64() {
        return Ok(Some(v));
    }
    match n.as_f64() {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(f) if f.fract() == 0.0 && (0.0..1e15).contains(&f) => Ok(Some(f as u64)),
        _ => Err(D::Error::custom(format!(
            "must be an integer from 1 to {MAX_CLASS_GAMES}, got {n}"
        ))),
    }
}

/// Links of a class.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClassLinks {
    /// This class (its games, with the host's token).
    #[serde(rename = "self")]
    pub self_: String,
    /// Where to post one more game.
    pub games: String,
    /// The projector page of every board (the host's token goes after `#`).
    pub overview: String,
    /// The fairness test of the class's reported throws, its games
    /// together (`null` before the class has a game).
    pub fairness: Option<String>,
}

/// A class just made: its host's token, shown this once, and its games,
/// each with its own tokens.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedClassView {
    /// The class's id.
    #[schema(example = "5d0c1f9a-3b7e-4c2a-9e41-7a6b2c8d9e10")]
    pub id: String,
    /// Its name.
    pub name: String,
    /// Creation time, RFC 3339 UTC.
    pub created_at: String,
    /// The class's host token (the teacher's): it lists the class's games,
    /// adds games, and is host of each game (throws for either side,
    /// reports throws, stops and deletes it). Never shown again: keep it
    /// secret.
    pub host_token: String,
    /// Its games, in the order made, each with its own tokens.
    pub games: Vec<CreatedGameView>,
    /// Related resources.
    pub links: ClassLinks,
}

/// Where a class's game stands: `in_play`, `won` (played to its end) or
/// `stopped` (by the host; `result` says who had more counters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClassGameState {
    /// Throws are still played.
    InPlay,
    /// A side won by the rules.
    Won,
    /// The host stopped it.
    Stopped,
}

/// A game of a class: its state as `GET /v1/games/{id}` gives it, where it
/// stands, and its pictures and recap.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClassGameView {
    /// The game's state.
    #[serde(flatten)]
    pub game: GameView,
    /// `in_play`, `won` or `stopped`.
    pub standing: ClassGameState,
    /// The board as a picture, for a projector (`view=projector`).
    pub board: String,
    /// The recap, once the game is over (`null` before).
    pub recap: Option<String>,
}

/// A class and its games, oldest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClassView {
    /// The class's id.
    #[schema(example = "5d0c1f9a-3b7e-4c2a-9e41-7a6b2c8d9e10")]
    pub id: String,
    /// Its name.
    pub name: String,
    /// Creation time, RFC 3339 UTC.
    pub created_at: String,
    /// Its games, oldest first (a game deleted leaves the class).
    pub games: Vec<ClassGameView>,
    /// Related resources.
    pub links: ClassLinks,
}

fn class_links<'a>(class: &Class, games: impl Iterator<Item = &'a Game>) -> ClassLinks {
    let location = crate::answer::class_location(class.id);
    let query = games
        .map(|g| format!("game={}", g.id))
        .collect::<Vec<_>>()
        .join("&");
    ClassLinks {
        games: format!("{location}/games"),
        overview: format!("/play/class/{}", class.id),
        fairness: (!query.is_empty()).then(|| format!("/v1/fairness?{query}")),
        self_: location,
    }
}

fn class_game_view(game: &Game) -> ClassGameView {
    let standing = if !game.state.is_finished() {
        ClassGameState::InPlay
    } else if game.was_stopped() {
        ClassGameState::Stopped
    } else {
        ClassGameState::Won
    };
    ClassGameView {
        game: game_view(game, &game.state),
        standing,
        board: format!("/v1/games/{}/board.svg?view=projector", game.id),
        recap: game
            .state
            .is_finished()
            .then(|| format!("/v1/games/{}/recap", game.id)),
    }
}

/// The setting of a class's games as sent: seated whatever it says, but
/// `seats: false` is refused (`/game/seats`).
fn class_game_setting(game: Option<Obj<CreateGameRequest>>) -> Result<GameRequest, ApiError> {
    let game = game.map(|Obj(g)| g).unwrap_or_default();
    if matches!(game.seats, Some(SeatsRequest { seated: false, .. })) {
        return Err(unseated("/game/seats"));
    }
    Ok(GameRequest::from(game))
}

/// 422 for `seats: false` in a class's game at `pointer`: the schema is a
/// game's, which may be unseated, but a class's games are all seated.
fn unseated(pointer: &str) -> ApiError {
    let detail =
        "a class's games are seated: leave it out, or send true or an object of seat settings";
    ApiError::unprocessable(
        "class-games-seated",
        "A class's games are seated",
        format!("{pointer}: {detail}"),
        vec![FieldError {
            pointer: pointer.to_owned(),
            detail: detail.to_owned(),
        }],
    )
}

/// Make a class and its games.
///
/// A class groups a teacher's games under one host token: `games` seated
/// games (1 to 40) of one setting, made at once. Every field is optional:
/// `{}` (or an empty body) makes a class named "Class" of one game with
/// the defaults of `POST /v1/games`. The answer carries, once,
/// the class's `host_token` and each game's own tokens. Each game made
/// counts against the address's limit on games created.
#[utoipa::path(
    operation_id = "create_class",
    tag = "classes",
    params(
        IdempotencyKey,
    ),
    request_body(content = Option<CreateClassRequest>, content_type = "application/json"),
    responses(
        (status = 201, description = "The class, made with its games", body = CreatedClassView,
            headers(("Location" = String, description = "The class's URL"))),
        (status = 400, description = "A field out of bounds or unknown (`/name`, `/games`, `/game/...`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A request with this Idempotency-Key is still being served", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Both sides have the same name (`/game/sides/b/name`), or teams the preset cannot seat, or `seats: false` (`/problems/class-games-seated`), or this Idempotency-Key was used with another body", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client address would be past its most games this minute (`--limit-games-per-minute`) with this class's (`/problems/rate-limited`); retry after `Retry-After`", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u32, description = "Seconds to wait before trying again"))),
        StoreUnavailable,
    )
)]
#[post("/v1/classes")]
pub async fn create_class(
    service: web::Data<Service>,
    req: HttpRequest,
    // The body comes first: a body over the limit is refused before the
    // headers are looked at.
    body: web::Bytes,
    IdempotencyKey(key): IdempotencyKey,
) -> Result<HttpResponse, ApiError> {
    let request: CreateClassRequest = json::parse(&req, &body, true)?;
    let new = ClassRequest {
        name: request.name.unwrap_or_else(|| "Class".to_owned()),
        games: request.games.unwrap_or(1),
        game: class_game_setting(request.game)?,
    }
    .check()?;
    crate::rate::charge_games(&req, new.games)?;
    let answer = service
        .create_class(new, keyed(key, b"class", &body), created_class_answer)
        .await?;
    Ok(crate::answer::created(answer))
}

/// An idempotency key with the hash of the request it came with, bound to
/// the `operation` too ([`operation_hash`]).
pub(crate) fn keyed(
    key: Option<crate::domain::IdempotencyKey>,
    operation: &[u8],
    body: &[u8],
) -> Option<(crate::domain::IdempotencyKey, [u8; 32])> {
    key.map(|key| (key, operation_hash(operation, body)))
}

/// The body of a class's creation's answer, as sent (every token
/// included).
pub(crate) fn created_class_answer(made: &CreatedClass) -> Vec<u8> {
    let view = CreatedClassView {
        id: made.class.id.to_string(),
        name: made.class.name.clone(),
        created_at: made.class.created_at.as_str().to_owned(),
        host_token: made.host.as_str().to_owned(),
        games: made.games.iter().map(created_view).collect(),
        links: class_links(&made.class, made.games.iter().map(|c| &c.game)),
    };
    serde_json::to_vec(&view).unwrap_or_default()
}

/// List a class's games.
///
/// Each game's state (as `GET /v1/games/{id}` gives it: whose turn, each
/// side's counters and awl, the version), where it stands (`in_play`,
/// `won`, `stopped`), its board and its recap; with the class's host token.
#[utoipa::path(
    operation_id = "get_class",
    tag = "classes",
    params(ClassIdPath),
    security(("token" = [])),
    responses(
        (status = 200, description = "The class and its games", body = ClassView),
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token (`Authorization: Bearer <class host token>`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Another class's token, or a game's", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such class", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/classes/{id}")]
pub async fn get_class(
    service: web::Data<Service>,
    ClassIdPath(id): ClassIdPath,
    Bearer(token): Bearer,
) -> Result<HttpResponse, ApiError> {
    let (class, games) = service.class(id, token.as_ref()).await?;
    let view = ClassView {
        id: class.id.to_string(),
        name: class.name.clone(),
        created_at: class.created_at.as_str().to_owned(),
        links: class_links(&class, games.iter()),
        games: games.iter().map(class_game_view).collect(),
    };
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(view))
}

/// Add a game to a class.
///
/// One more seated game, set as `POST /v1/games` takes it (`{}` or no body:
/// the defaults), answered as that creation is, its tokens included; with
/// the class's host token. A class holds at most 40 games.
#[utoipa::path(
    operation_id = "create_class_game",
    tag = "classes",
    params(ClassIdPath),
    security(("token" = [])),
    request_body(content = Option<CreateGameRequest>, content_type = "application/json"),
    responses(
        (status = 201, description = "The game, made in the class", body = CreatedGameView,
            headers(("Location" = String, description = "The game's URL"),
                    ("ETag" = String, description = "The game's version, quoted"))),
        (status = 400, description = "Malformed id, or a field out of bounds or unknown", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token (`Authorization: Bearer <class host token>`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Another class's token, or a game's", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such class", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The class has its most games, 40 (`/problems/class-full`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Both sides have the same name, or `seats: false` (`/problems/class-games-seated`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client address has created its most games this minute (`--limit-games-per-minute`) (`/problems/rate-limited`); retry after `Retry-After`", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u32, description = "Seconds to wait before trying again"))),
        StoreUnavailable,
    )
)]
#[post("/v1/classes/{id}/games")]
pub async fn create_class_game(
    service: web::Data<Service>,
    req: HttpRequest,
    ClassIdPath(id): ClassIdPath,
    Bearer(token): Bearer,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: CreateGameRequest = json::parse(&req, &body, true)?;
    if matches!(request.seats, Some(SeatsRequest { seated: false, .. })) {
        return Err(unseated("/seats"));
    }
    let new = NewGame::try_from(request)?;
    let created = service.create_class_game(id, token.as_ref(), new).await?;
    Ok(crate::answer::created(Answer {
        subject: Subject::Game {
            id: created.game.id,
            version: created.game.version,
        },
        body: created_answer(&created),
        replayed: false,
    }))
}

/// The bound the document states, held to the service's.
const _: () = assert!(MAX_CLASS_GAMES == 40);
