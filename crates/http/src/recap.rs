//! The recap of a finished or stopped game (`GET /v1/games/{id}/recap`):
//! the turning point, the luckiest and unluckiest throws, the rare throws,
//! the counts against what the odds expect, the longest run, and questions
//! for a class; found again from the move log on every read
//! ([`Service::recap`]).

use std::num::NonZeroUsize;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use actix_web::{HttpResponse, get, web};
use lru::LruCache;
use serde::{Deserialize, Serialize};
use tokio::sync::OnceCell;
use utoipa::{IntoParams, ToSchema};

use super::dto::{CitationView, ProbabilityView};
use super::extract::{GameIdPath, NarrationQuery};
use super::problem::{ApiError, Problem};
use super::views::moves::{ChancesUnknownView, SidesChanceView};
use crate::domain::{Game, GameId};
use crate::narration::{Audience, Detail, MoveSwing, SwingCause, TallyKind};
use crate::service::{ChancesUnknown, Recap, Service};
use zohn_ahl_odds::Solver;
use zohn_ahl_rules::Side;

/// The audience and detail of a recap: the operation's query parameters,
/// as documented, extracted first to refuse a repeated one; the values are
/// read by [`NarrationQuery`].
#[derive(Debug, Deserialize, IntoParams)]
#[expect(dead_code, reason = "parsed only to refuse repeated parameters")]
#[into_params(parameter_in = Query)]
pub struct RecapQuery {
    /// Word the recap for this audience (default: the game's own).
    #[param(value_type = Option<Audience>)]
    audience: Option<String>,
    /// How much the summary tells (default: the game's own): `brief` the
    /// result and the turning point, `lesson` the opening and the counts
    /// too, `full` the luckiest and unluckiest throws as well. The
    /// questions are the same at every level.
    #[param(value_type = Option<Detail>)]
    detail: Option<String>,
}

/// A finished or stopped game looked back on.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecapView {
    /// The game's id.
    #[schema(example = "0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79")]
    pub game_id: String,
    /// Moves played.
    pub moves: u32,
    /// The winner; `null` for a stopped game with the counters even.
    pub winner: Option<Side>,
    /// Whether the game was stopped (rather than won on the board).
    pub stopped: bool,
    /// The audience the words are for.
    pub audience: Audience,
    /// The detail level of the summary.
    pub detail: Detail,
    /// The chances over the game; `null` when the ruleset's odds are not
    /// known (see `chances_unknown`).
    pub chances: Option<RecapChancesView>,
    /// Why `chances` is `null`; `null` when it is not.
    pub chances_unknown: Option<ChancesUnknownView>,
    /// Each move whose throw's result is rarer than 1 in 16, in order.
    pub rare_throws: Vec<RareThrowView>,
    /// The ruleset's rarest result and how often it came.
    pub rarest_result: RarestResultView,
    /// Falls, whips, circuits and extra throws: how many there were, and
    /// how many the odds expected from the positions this game passed
    /// through (each move's probability of it, from the state the move was
    /// played from, summed over the game).
    pub tallies: Vec<TallyView>,
    /// The probability that a throw earns another.
    pub extra_throw_probability: ProbabilityView,
    /// The longest run of moves by one side (`null` for a game without
    /// moves).
    pub longest_run: Option<RunView>,
    /// The recap in sentences, for `audience` at `detail`.
    pub summary: Vec<String>,
    /// Three to five questions for a class, each about this game, each
    /// with its answer worked out from the numbers; none for a game
    /// stopped before its first throw.
    pub questions: Vec<QuestionView>,
}

/// The chances part of a recap.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecapChancesView {
    /// Each side's chance of winning before the first throw.
    pub opening: SidesChanceView,
    /// The move that changed the chances most.
    pub turning_point: MoveSwingView,
    /// The move that raised its thrower's chance most.
    pub luckiest: MoveSwingView,
    /// The move that lowered its thrower's chance most.
    pub unluckiest: MoveSwingView,
    /// The winner's lowest chance in the game, and after which move (0:
    /// the opening); `null` without a winner.
    pub winners_lowest: Option<LowestView>,
}

/// A move and what it did to the chances.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveSwingView {
    /// The move's number.
    pub n: u32,
    /// The side that threw.
    pub side: Side,
    /// The throw's value.
    pub value: u8,
    /// The probability of the throw's result.
    pub probability: ProbabilityView,
    /// Each side's chance before the move.
    pub before: SidesChanceView,
    /// Each side's chance after it.
    pub after: SidesChanceView,
    /// What the move did (the landing, not the number, moves the chances).
    pub cause: SwingCause,
}

impl From<&MoveSwing> for MoveSwingView {
    fn from(m: &MoveSwing) -> Self {
        Self {
            n: m.n,
            side: m.side,
            value: m.value,
            probability: m.probability.into(),
            before: m.before.into(),
            after: m.after.into(),
            cause: m.cause,
        }
    }
}

/// The winner's lowest chance.
#[derive(Debug, Serialize, ToSchema)]
pub struct LowestView {
    /// The chance.
    #[schema(minimum = 0, maximum = 1)]
    pub chance: f64,
    /// After this move (0: before the first throw).
    pub after_move: u32,
}

/// A rare throw.
#[derive(Debug, Serialize, ToSchema)]
pub struct RareThrowView {
    /// The move's number.
    pub n: u32,
    /// The side that threw.
    pub side: Side,
    /// The throw's value.
    pub value: u8,
    /// The probability of its result.
    pub probability: ProbabilityView,
}

/// The rarest result.
#[derive(Debug, Serialize, ToSchema)]
pub struct RarestResultView {
    /// Its value.
    pub value: u8,
    /// Its probability on one throw.
    pub probability: ProbabilityView,
    /// Times it came.
    pub observed: u32,
    /// Times expected in a game this long (moves times probability).
    pub expected: f64,
}

/// A count against its expectation.
#[derive(Debug, Serialize, ToSchema)]
pub struct TallyView {
    /// What is counted. `extra_throws` counts the extra throws earned (the
    /// moves whose events hold `throws_again`): a throw whose result would
    /// earn one but that ends the game, or loses it on a dry branch, earns
    /// none, so it can be fewer than the moves whose score says
    /// `throws_again`.
    pub kind: TallyKind,
    /// Times it happened.
    pub observed: u32,
    /// Times expected from the positions played.
    pub expected: f64,
}

/// The longest run of moves by one side.
#[derive(Debug, Serialize, ToSchema)]
pub struct RunView {
    /// The side.
    pub side: Side,
    /// Its first move.
    pub first: u32,
    /// Its last move.
    pub last: u32,
    /// Moves in the run.
    pub turns: u32,
    /// Whether every move of the run but the last earned an extra throw
    /// (rather than the other side losing a turn).
    pub extra_throws_only: bool,
}

/// A question for the class.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuestionView {
    /// The question.
    pub question: String,
    /// Its answer, worked out from this game's numbers.
    pub answer: String,
    /// The move it is about; `null` when it is about the whole game.
    pub about_move: Option<u32>,
    /// What the numbers come from (this service's own computation,
    /// `zohn-ahl-odds` in `GET /v1/sources`).
    pub citations: Vec<CitationView>,
}

impl From<&Recap> for RecapView {
    fn from(r: &Recap) -> Self {
        let f = &r.facts;
        let expected = f64::from(f.moves) * f.rare.probability.as_f64();
        Self {
            game_id: r.game.id.to_string(),
            moves: f.moves,
            winner: f.winner,
            stopped: f.stopped,
            audience: r.audience,
            detail: r.detail,
            chances: f.chances.as_ref().map(|c| RecapChancesView {
                opening: c.opening.into(),
                turning_point: (&c.turning_point).into(),
                luckiest: (&c.luckiest).into(),
                unluckiest: (&c.unluckiest).into(),
                winners_lowest: c
                    .winners_lowest
                    .map(|(chance, after_move)| LowestView { chance, after_move }),
            }),
            chances_unknown: r.chances_unknown.map(ChancesUnknownView::from),
            rare_throws: r
                .rare_throws
                .iter()
                .map(|&(n, side, value, p)| RareThrowView {
                    n,
                    side,
                    value,
                    probability: p.into(),
                })
                .collect(),
            rarest_result: RarestResultView {
                value: f.rare.value,
                probability: f.rare.probability.into(),
                observed: f.rare.observed,
                expected,
            },
            tallies: f
                .tallies
                .iter()
                .map(|t| TallyView {
                    kind: t.kind,
                    observed: t.observed,
                    expected: t.expected,
                })
                .collect(),
            extra_throw_probability: f.extra_throw.into(),
            longest_run: f.longest_run.map(|run| RunView {
                side: run.side,
                first: run.first,
                last: run.last,
                turns: run.turns(),
                extra_throws_only: run.extra_throws_only,
            }),
            summary: r.text.summary.clone(),
            questions: r
                .text
                .questions
                .iter()
                .map(|q| QuestionView {
                    question: q.question.clone(),
                    answer: q.answer.clone(),
                    about_move: q.about_move,
                    citations: q.citations.iter().map(CitationView::from).collect(),
                })
                .collect(),
        }
    }
}

/// Look back on a finished or stopped game: its turning point, its luck, questions for a class.
///
/// The recap of a finished or stopped game, for a class to talk about
/// chance afterwards: the turning point (the move that changed the chances
/// most), the luckiest and unluckiest throws, the rare throws (rarer than
/// 1 in 16), the falls, whips, circuits and extra throws against what the
/// odds expected from the positions played, the longest run of moves, and
/// three to five questions each tied to something that happened, each with
/// its answer. Worked out from the move log when read; the chances from
/// the ruleset's solved chain (`null`, with the reason, when the ruleset is
/// too large or still being solved: ask again).
#[utoipa::path(
    operation_id = "get_recap",
    tag = "games",
    params(GameIdPath, RecapQuery),
    responses(
        (status = 200, description = "The recap", body = RecapView),
        (status = 400, description = "Malformed id, audience or detail", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is still in play (`/problems/game-in-play`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/recap")]
pub async fn get_recap(
    service: web::Data<Service>,
    solver: web::Data<Solver>,
    // The documented parameters first: a repeated one is refused before
    // the path is read (unknown ones are ignored).
    _params: web::Query<RecapQuery>,
    GameIdPath(id): GameIdPath,
    told: NarrationQuery,
) -> Result<HttpResponse, ApiError> {
    let recap = service
        .recap(&solver, id, told.audience, told.detail)
        .await?;
    Ok(HttpResponse::Ok().json(RecapView::from(&recap)))
}

/// Recaps kept for the live feed's `end`, by game, version, audience and
/// detail: the subscribers of a game that ends all get the one recap made
/// by the first (the others wait for it), not one read of the move log
/// each.
const FEED_RECAPS: usize = 64;

type RecapKey = (GameId, u32, Audience, Detail);

/// A recap made, and whether its chances were still being solved.
type Made = (Arc<RecapView>, bool);

static RECAPS: LazyLock<Mutex<LruCache<RecapKey, Arc<OnceCell<Made>>>>> = LazyLock::new(|| {
    Mutex::new(LruCache::new(
        NonZeroUsize::new(FEED_RECAPS).unwrap_or(NonZeroUsize::MIN),
    ))
});

/// The recap of `game` (finished) for the feed's `end`, for `audience` at
/// `detail`: made once per game, version, audience and detail, and shared.
/// `None` when it cannot be made (the reason is logged); one whose chances
/// are still being solved is not kept, so a later subscriber gets them.
pub async fn feed_recap(
    service: &Service,
    solver: &Solver,
    game: &Game,
    audience: Audience,
    detail: Detail,
) -> Option<Arc<RecapView>> {
    let key = (game.id, game.version.get(), audience, detail);
    let cell = Arc::clone(
        RECAPS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(key, || Arc::new(OnceCell::new())),
    );
    let made = cell
        .get_or_try_init(|| async {
            match service
                .recap(solver, game.id, Some(audience), Some(detail))
                .await
            {
                Ok(recap) => Ok((
                    Arc::new(RecapView::from(&recap)),
                    recap.chances_unknown == Some(ChancesUnknown::BeingSolved),
                )),
                Err(refusal) => Err(refusal),
            }
        })
        .await;
    match made {
        Ok((view, being_solved)) => {
            if *being_solved {
                RECAPS
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .pop(&key);
            }
            Some(Arc::clone(view))
        }
        Err(refusal) => {
            tracing::warn!(game = %game.id, detail = %refusal.detail, "a feed's end was sent without its recap");
            None
        }
    }
}
