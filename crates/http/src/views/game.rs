//! A game as every answer about it shows it: its state, sides, awls,
//! status and links.

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::{Game, Setup};
use crate::dto::{RulesetView, SeatView, seat_view};
use crate::narration::{Audience, Detail};
use crate::service::Created;
use zohn_ahl_rules::{GameState, Outcome, Side};

/// Where an awl stands.
#[derive(Debug, Serialize, ToSchema)]
pub struct AwlView {
    /// The space in the side's own numbering (1 = its start).
    #[schema(minimum = 1, maximum = 40, example = 1)]
    pub space: u8,
    /// The physical space, counted 0.. in side A's direction from A's start
    /// (the same index for both sides means the same space).
    #[schema(minimum = 0, maximum = 39, example = 0)]
    pub physical_index: u8,
    /// What is drawn there, seen by this side.
    #[schema(value_type = crate::schema::FeatureName, example = "south_creek_far")]
    pub feature: &'static str,
}

/// The way a side's awl goes round: `counter_clockwise` (A) or `clockwise` (B).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Side A's way.
    CounterClockwise,
    /// Side B's way.
    Clockwise,
}

/// Whether a game is being played: `in_progress`, or `finished` (won,
/// drawn or stopped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Throws are still played.
    InProgress,
    /// Won, drawn or stopped: no more throws.
    Finished,
}

/// How a finished game ended: `won` (see `winner`) or `draw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// A side won.
    Won,
    /// A stopped game with equal counters.
    Draw,
}

/// One side's place in the game.
#[derive(Debug, Serialize, ToSchema)]
pub struct SideView {
    /// `A` or `B`.
    pub side: Side,
    /// Display name.
    pub name: String,
    /// Player names in throwing order.
    pub players: Vec<String>,
    /// `counter_clockwise` (A) or `clockwise` (B).
    pub direction: Direction,
    /// Its awl.
    pub awl: AwlView,
    /// Counters it holds.
    #[schema(minimum = 0, maximum = 30)]
    pub counters: u8,
    /// Circuits it has completed.
    pub circuits: u16,
}

/// Links to the game's resources.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameLinks {
    /// This game.
    #[serde(rename = "self")]
    pub self_: String,
    /// Where to post throws.
    pub throws: String,
    /// The move log.
    pub moves: String,
}

/// A game's state.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameView {
    /// The game's id.
    #[schema(example = "0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79")]
    pub id: String,
    /// `in_progress` or `finished`.
    pub status: GameStatus,
    /// Changes with every move or stop (also sent as `ETag`).
    pub version: u32,
    /// Creation time, RFC 3339 UTC.
    pub created_at: String,
    /// Last change, RFC 3339 UTC.
    pub updated_at: String,
    /// The ruleset.
    pub ruleset: RulesetView,
    /// Side A, then side B.
    pub sides: Vec<SideView>,
    /// Who throws next; `null` when finished.
    pub to_throw: Option<SeatView>,
    /// Whether the side to move is throwing again after a throw that said so.
    pub extra_throw_pending: bool,
    /// The winner, once there is one; `null` before and in a draw.
    pub winner: Option<Side>,
    /// `won` or `draw` once finished; `null` before.
    pub result: Option<GameResult>,
    /// Throws played.
    pub throws: u32,
    /// The narration's audience.
    pub audience: Audience,
    /// How much each move's narration tells when read without `?detail=`.
    pub detail: Detail,
    /// The seed: the creator's own seed always; a server-chosen seed only
    /// once the game is finished (so nobody can foresee its throws).
    pub seed: Option<String>,
    /// Whether throws need a token: the mover's or the host's.
    pub seated: bool,
    /// In a seated game, whether a side's own token may report a physical
    /// throw (otherwise only the host's may).
    pub sides_report_throws: bool,
    /// Related resources.
    pub links: GameLinks,
}

/// The answer to creating a game: its state and, for a seated game, its
/// tokens, shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedGameView {
    /// The game's state.
    #[serde(flatten)]
    pub game: GameView,
    /// The seat tokens (A's and B's) of a seated game, never shown again:
    /// keep them secret; `null` for a game without seats.
    pub seat_tokens: Option<SeatTokens>,
    /// The host's token (the teacher's, the app's) of a seated game: it
    /// throws for either side, reports physical throws, stops and deletes
    /// the game. Never shown again: keep it secret; `null` for a game
    /// without seats.
    pub host_token: Option<String>,
    /// Each side's join code of a seated game: 6 characters a pupil types
    /// on `/join` (or sends to `POST /v1/join`) to open her seat while the
    /// game is not finished; `null` for a game without seats.
    pub join_codes: Option<JoinCodes>,
}

/// The join codes of a seated game's sides.
#[derive(Debug, Serialize, ToSchema)]
pub struct JoinCodes {
    /// Side A's code.
    #[schema(example = "K7M2QX")]
    pub a: String,
    /// Side B's code.
    #[schema(example = "P4TW9H")]
    pub b: String,
}

/// The secret seat tokens of a seated game.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatTokens {
    /// Side A's token.
    pub a: String,
    /// Side B's token.
    pub b: String,
}

/// `in_progress` or `finished`, as a game at `state` is.
#[must_use]
pub fn game_status(state: &GameState) -> GameStatus {
    if state.is_finished() {
        GameStatus::Finished
    } else {
        GameStatus::InProgress
    }
}

/// Who throws next at `state`; `None` once the game is finished.
#[must_use]
pub fn next_to_throw(setup: &Setup, state: &GameState) -> Option<SeatView> {
    match setup.table() {
        Ok(table) if !state.is_finished() => Some(seat_view(setup, state.to_throw(&table))),
        _ => None,
    }
}

/// The side that won at `state`, if one has.
#[must_use]
pub fn winner(state: &GameState) -> Option<Side> {
    match state.outcome {
        Some(Outcome::Won { side }) => Some(side),
        _ => None,
    }
}

/// Build the view of a game at `state` (its current state, or one stored
/// with a move).
#[must_use]
pub fn game_view(game: &Game, state: &GameState) -> GameView {
    let setup = &game.setup;
    let board = setup.options.board;
    let id = game.id.to_string();
    let sides = Side::BOTH
        .iter()
        .map(|&side| {
            let space = state.awl(side);
            SideView {
                side,
                name: setup.sides[side.index()].name.clone(),
                players: setup.sides[side.index()].players.clone(),
                direction: match side {
                    Side::A => Direction::CounterClockwise,
                    Side::B => Direction::Clockwise,
                },
                awl: AwlView {
                    space,
                    physical_index: board.physical(side, space),
                    feature: board.feature(side, space).key(),
                },
                counters: state.counters(side),
                circuits: state.circuits[side.index()],
            }
        })
        .collect();
    let finished = state.is_finished();
    GameView {
        status: game_status(state),
        version: game.version.get(),
        created_at: game.created_at.as_str().to_owned(),
        updated_at: game.updated_at.as_str().to_owned(),
        ruleset: RulesetView {
            preset: setup.preset,
            options: setup.options.into(),
        },
        sides,
        to_throw: next_to_throw(setup, state),
        extra_throw_pending: state.extra_throw,
        winner: winner(state),
        result: state.outcome.map(|o| match o {
            Outcome::Won { .. } => GameResult::Won,
            Outcome::Draw => GameResult::Draw,
        }),
        throws: state.throws,
        audience: setup.audience,
        detail: setup.detail,
        seed: (finished || game.seeded).then(|| game.seed.as_str().to_owned()),
        seated: game.seated,
        sides_report_throws: game.sides_report_throws,
        links: GameLinks {
            self_: crate::answer::game_location(game.id),
            throws: format!("/v1/games/{id}/throws"),
            moves: format!("/v1/games/{id}/moves"),
        },
        id,
    }
}

/// The view of a game just made, its tokens included (a seated game's).
pub fn created_view(created: &Created) -> CreatedGameView {
    let game = &created.game;
    CreatedGameView {
        game: game_view(game, &game.state),
        seat_tokens: created.tokens.as_ref().map(|tokens| {
            let [a, b] = tokens.sides.each_ref().map(|t| t.as_str().to_owned());
            SeatTokens { a, b }
        }),
        host_token: created
            .tokens
            .as_ref()
            .map(|tokens| tokens.host.as_str().to_owned()),
        join_codes: created
            .tokens
            .as_ref()
            .and_then(|tokens| tokens.join_codes.as_ref())
            .map(|codes| {
                let [a, b] = codes.each_ref().map(|c| c.as_str().to_owned());
                JoinCodes { a, b }
            }),
    }
}

/// The body of a creation's answer, as sent (tokens included, for a
/// seated game).
pub fn created_answer(created: &Created) -> Vec<u8> {
    serde_json::to_vec(&created_view(created)).unwrap_or_default()
}
