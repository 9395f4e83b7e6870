//! The service's answers as HTTP responses: the paths of games, moves and
//! classes, written here once, and each answer's `Location` and `ETag`
//! built from what it is about ([`Subject`]).

use actix_web::http::header;
use actix_web::{HttpResponse, HttpResponseBuilder};

use crate::domain::{ClassId, GameId, Subject};
use crate::service::Answer;

/// A game's path: its own link, and the `Location` of its creation.
pub(crate) fn game_location(id: GameId) -> String {
    format!("/v1/games/{id}")
}

/// Move `n`'s path, the `Location` of the throw that played it.
pub(crate) fn move_location(id: GameId, n: u32) -> String {
    format!("/v1/games/{id}/moves/{n}")
}

/// A class's path, the `Location` of its creation.
pub(crate) fn class_location(id: ClassId) -> String {
    format!("/v1/classes/{id}")
}

/// Where what an answer is about can be read.
fn location(subject: Subject) -> String {
    match subject {
        Subject::Game { id, .. } => game_location(id),
        Subject::Move { id, n, .. } => move_location(id, n),
        Subject::Class(id) => class_location(id),
    }
}

/// 201 Created with an answer: its `Location`, the game's `ETag` (a class
/// has none) and, for a replay, `Idempotent-Replayed`.
pub(crate) fn created(answer: Answer) -> HttpResponse {
    let mut res = HttpResponse::Created();
    res.insert_header((header::LOCATION, location(answer.subject)));
    respond(res, answer)
}

/// 200 OK with an answer about a game changed in place (a stop): the
/// game's `ETag` and, for a replay, `Idempotent-Replayed`.
pub(crate) fn changed(answer: Answer) -> HttpResponse {
    respond(HttpResponse::Ok(), answer)
}

fn respond(mut res: HttpResponseBuilder, answer: Answer) -> HttpResponse {
    if let Some(version) = answer.subject.version() {
        res.insert_header((header::ETAG, version.etag()));
    }
    res.content_type("application/json");
    if answer.replayed {
        res.insert_header(("idempotent-replayed", "true"));
    }
    res.body(answer.body)
}
