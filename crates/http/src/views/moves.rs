//! A move as the API shows it: the throw, its events and its narration.

use serde::Serialize;
use utoipa::ToSchema;

use super::game::{GameStatus, GameView, game_status, game_view, next_to_throw, winner};
use crate::domain::{Game, MoveRecord, Setup, ThrowOrigin};
use crate::dto::{CountersView, NarrationView, ProbabilityView, SeatView, seat_view};
use crate::narration::{Audience, Chances, Detail};
use crate::service::{ChanceTable, ChancesUnknown};
use zohn_ahl_odds::Solver;
use zohn_ahl_rules::{CounterReason, Creek, Event, Face, Side, SpinnerSector, Throw, WinReason};

/// One move: the throw, what it did, and its narration.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveView {
    /// Move number, from 1.
    pub n: u32,
    /// The side that threw.
    pub side: Side,
    /// The player who threw.
    pub player: SeatView,
    /// Where the throw came from.
    pub origin: ThrowOrigin,
    /// Each stick's face, the sahe last (`null` for a spinner game).
    pub sticks: Option<Vec<Face>>,
    /// Flat faces up (`null` for a spinner game).
    #[schema(minimum = 0, maximum = 4)]
    pub flat_faces: Option<u8>,
    /// Whether the sahe showed its flat face (`null` for a spinner game).
    pub sahe_flat: Option<bool>,
    /// The spinner's sector (`null` for a stick game).
    pub spinner: Option<SpinnerSector>,
    /// Spaces moved by the throw.
    #[schema(example = 3)]
    pub value: u8,
    /// Whether the throw's result earns another throw (the score's flag). The
    /// same side throws again unless the move won the game or lost the
    /// extra throw on a dry branch: its events say which (a `throws_again`
    /// event, or `won` / `lost_throw`).
    pub throws_again: bool,
    /// Probability of this result (value and throws-again) under the table.
    pub probability: ProbabilityView,
    /// The mover's awl before, own numbering.
    pub from: u8,
    /// The mover's awl after every consequence, own numbering.
    pub to: u8,
    /// What happened, in order.
    pub events: Vec<EventView>,
    /// Counters after the move.
    pub counters: CountersView,
    /// The move in one line for a big screen or a chat: who threw what,
    /// where the awl went, what happened; in the narration's audience.
    #[schema(max_length = 100, example = "Ama: 3, from 4 to 7; next: Bea.")]
    pub caption: String,
    /// What happened, why, and context, with citations.
    pub narration: NarrationView,
    /// The game right after this move: enough to keep a board up to date
    /// from the feed or the move log without reading the game again.
    pub after: AfterMove,
    /// Each side's exact chance of winning just before this move and just
    /// after it, from this service's own computation (the ruleset's solved
    /// Markov chain, as `GET /v1/games/{id}/odds` gives it); worked out
    /// when read, never stored.
    pub chances: MoveChancesView,
}

/// Each side's chance of winning.
#[derive(Debug, Serialize, ToSchema)]
pub struct SidesChanceView {
    /// Probability that side A wins.
    #[schema(minimum = 0, maximum = 1, example = 0.4976)]
    pub a: f64,
    /// Probability that side B wins.
    #[schema(minimum = 0, maximum = 1, example = 0.5024)]
    pub b: f64,
}

impl From<[f64; 2]> for SidesChanceView {
    fn from(p: [f64; 2]) -> Self {
        Self { a: p[0], b: p[1] }
    }
}

/// Why a move's chances are `null`.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChancesUnknownReason {
    /// The ruleset's Markov chain is larger than this service solves
    /// (5,000,000 states): it has no exact odds.
    RulesetTooLarge,
    /// The ruleset's odds are being solved in the background: read the move
    /// again in a few seconds.
    BeingSolved,
    /// The odds of this move could not be found.
    Unavailable,
    /// The server was started with the moves' chances off
    /// (`--move-chances off`).
    Off,
}

impl From<ChancesUnknown> for ChancesUnknownReason {
    fn from(why: ChancesUnknown) -> Self {
        match why {
            ChancesUnknown::RulesetTooLarge => Self::RulesetTooLarge,
            ChancesUnknown::BeingSolved => Self::BeingSolved,
            ChancesUnknown::Unavailable => Self::Unavailable,
            ChancesUnknown::Off => Self::Off,
        }
    }
}

/// A move's chances of winning, before and after it; both `null` with the
/// reason when the ruleset's odds are not known.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"before": {"a": 0.4976, "b": 0.5024}, "after": {"a": 0.6021, "b": 0.3979}, "unknown": null}))]
pub struct MoveChancesView {
    /// Before the move; `null` when not known (see `unknown`).
    pub before: Option<SidesChanceView>,
    /// After the move (1 and 0 once it has won the game); `null` when not
    /// known (see `unknown`).
    pub after: Option<SidesChanceView>,
    /// Why `before` and `after` are `null`; `null` when they are known.
    pub unknown: Option<ChancesUnknownView>,
}

/// Why a move's chances are not given.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChancesUnknownView {
    /// The reason.
    pub reason: ChancesUnknownReason,
    /// The reason in a sentence.
    pub detail: String,
}

impl MoveChancesView {
    fn of(chances: Result<Chances, ChancesUnknown>) -> Self {
        match chances {
            Ok(c) => Self {
                before: Some(c.before.into()),
                after: Some(c.after.into()),
                unknown: None,
            },
            Err(why) => Self {
                before: None,
                after: None,
                unknown: Some(why.into()),
            },
        }
    }
}

impl From<ChancesUnknown> for ChancesUnknownView {
    fn from(why: ChancesUnknown) -> Self {
        Self {
            reason: why.into(),
            detail: why.detail(),
        }
    }
}

/// The game right after a move, as `GET /v1/games/{id}` gave it then.
#[derive(Debug, Serialize, ToSchema)]
pub struct AfterMove {
    /// `in_progress`, or `finished` when this move won the game.
    pub status: GameStatus,
    /// The game's version after this move (its number; the game's `ETag`
    /// then, quoted): send it as `If-Match` to throw on from here.
    #[schema(minimum = 1, example = 3)]
    pub version: u32,
    /// Who throws next; `null` when this move finished the game.
    pub to_throw: Option<SeatView>,
    /// Whether the side to move throws again (this throw said so; `false`
    /// once the game is finished).
    pub extra_throw_pending: bool,
    /// Counters each side holds.
    pub counters: CountersView,
    /// The side this move made the winner; `null` while the game goes on.
    pub winner: Option<Side>,
}

/// The answer to a throw: the move, and the game after it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ThrowView {
    /// The move played.
    #[serde(flatten)]
    pub played: MoveView,
    /// The game after this move.
    pub state: GameView,
}

/// The answer to a throw: the move `record`, told for the game's audience
/// at its detail level, and the game as it now is. Its chances come from
/// the process's odds service as it is now ([`ChanceTable::now`]: the
/// single writer renders the answers it keeps, and does not wait).
#[must_use]
pub fn throw_view(game: &Game, record: &MoveRecord) -> ThrowView {
    let chances = chance_table_now(game);
    ThrowView {
        played: move_view(game, record, None, None, &chances),
        state: game_view(game, &game.state),
    }
}

/// The chain of `game`'s ruleset as the process's odds service has it now,
/// without waiting.
#[must_use]
pub fn chance_table_now(game: &Game) -> ChanceTable {
    match game.setup.table() {
        Ok(table) => ChanceTable::now(&Solver::shared(), &table),
        Err(_) => ChanceTable::Unknown(ChancesUnknown::Unavailable),
    }
}

/// The chain of `game`'s ruleset from `solver`, waiting for it at most the
/// odds service's budget.
pub async fn chance_table(solver: &Solver, game: &Game) -> ChanceTable {
    match game.setup.table() {
        Ok(table) => ChanceTable::ready(solver, &table).await,
        Err(_) => ChanceTable::Unknown(ChancesUnknown::Unavailable),
    }
}

/// The API form of a stored move, narrated for `audience` at `detail`
/// (each `None`: the game's own), with its chances from `chances`.
#[must_use]
pub fn move_view(
    game: &Game,
    record: &MoveRecord,
    audience: Option<Audience>,
    detail: Option<Detail>,
    chances: &ChanceTable,
) -> MoveView {
    let setup = &game.setup;
    let odds = setup
        .table()
        .map_err(|_| ChancesUnknown::Unavailable)
        .and_then(|table| chances.of_move(&table, record));
    let narration = record.told_with_chances(
        setup,
        audience.unwrap_or(setup.audience),
        detail.unwrap_or(setup.detail),
        odds.as_ref().ok(),
    );
    let (sticks, flat_faces, sahe_flat, spinner) = match record.throw {
        Throw::Sticks(s) => (
            Some(s.faces().to_vec()),
            Some(s.flat_count()),
            Some(s.sahe_flat()),
            None,
        ),
        Throw::Spinner(sector) => (None, None, None, Some(sector)),
    };
    MoveView {
        n: record.n,
        side: record.seat.side,
        player: seat_view(setup, record.seat),
        origin: record.origin,
        sticks,
        flat_faces,
        sahe_flat,
        spinner,
        value: record.score.value,
        throws_again: record.score.throws_again,
        probability: record.score.probability.into(),
        from: record.from,
        to: record.to,
        events: record.events.iter().map(|e| event_view(setup, e)).collect(),
        counters: CountersView {
            a: record.state.counters[0],
            b: record.state.counters[1],
        },
        caption: record.caption(setup, narration.audience),
        narration: narration.as_ref().into(),
        after: after_move(setup, record),
        chances: MoveChancesView::of(odds),
    }
}

/// The game as `record` left it (computed when read: stored moves keep only
/// their state).
fn after_move(setup: &Setup, record: &MoveRecord) -> AfterMove {
    let state = &record.state;
    AfterMove {
        status: game_status(state),
        version: record.n,
        to_throw: next_to_throw(setup, state),
        extra_throw_pending: state.extra_throw,
        counters: CountersView {
            a: state.counters[0],
            b: state.counters[1],
        },
        winner: winner(state),
    }
}

/// A page of the move log.
#[derive(Debug, Serialize, ToSchema)]
pub struct MovePage {
    /// Moves, oldest first.
    pub items: Vec<MoveView>,
    /// Pass as `cursor` to get the next page; `null` on the last page.
    #[schema(pattern = "^[0-9]{1,9}$")]
    pub next_cursor: Option<String>,
}

/// What a throw made happen. `kind` names the event; spaces are in the
/// mover's own numbering.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventView {
    /// The awl moved.
    #[schema(title = "Moved")]
    Moved {
        /// The mover.
        side: Side,
        /// Where it stood.
        from: u8,
        /// Where the count ended.
        to: u8,
        /// Spaces counted.
        steps: u8,
    },
    /// Passed over the deadly north-creek bank without landing: harmless.
    #[schema(title = "PassedNorthCreek")]
    PassedNorthCreek {
        /// The mover.
        side: Side,
    },
    /// Came home: a circuit completed.
    #[schema(title = "CompletedCircuit")]
    CompletedCircuit {
        /// The mover.
        side: Side,
        /// Its circuits so far.
        circuits: u16,
        /// Landed exactly on own last space (`completes_circuit`).
        exact: bool,
    },
    /// Fell into a creek and went back to own space 1.
    #[schema(title = "FellIntoCreek")]
    FellIntoCreek {
        /// The mover.
        side: Side,
        /// Which creek.
        creek: Creek,
        /// Where it landed.
        space: u8,
    },
    /// Whipped the other awl back to its start.
    #[schema(title = "Whipped")]
    Whipped {
        /// The mover.
        side: Side,
        /// The whipped side.
        victim: Side,
        /// Where, in the mover's numbering.
        space: u8,
    },
    /// One counter changed hands.
    #[schema(title = "CounterPaid")]
    CounterPaid {
        /// Who gave it.
        payer: Side,
        /// Who took it.
        payee: Side,
        /// Why.
        reason: CounterReason,
        /// Counters after the transfer.
        counters: CountersView,
    },
    /// A counter was owed but the payer had none.
    #[schema(title = "CounterUnpaid")]
    CounterUnpaid {
        /// Who owed it.
        payer: Side,
        /// To whom.
        payee: Side,
        /// Why.
        reason: CounterReason,
    },
    /// The throw was not played: an exact throw is needed to come home.
    #[schema(title = "ForcedPass")]
    ForcedPass {
        /// The mover.
        side: Side,
        /// The unplayable value.
        value: u8,
    },
    /// Landed on a dry branch, to no effect.
    #[schema(title = "LandedOnDryBranch")]
    LandedOnDryBranch {
        /// The mover.
        side: Side,
        /// Where.
        space: u8,
    },
    /// Landed on a dry branch that loses a throw.
    #[schema(title = "LostThrow")]
    LostThrow {
        /// The mover.
        side: Side,
        /// Where.
        space: u8,
        /// `true`: this throw's extra throw is lost; `false`: the next turn.
        extra_throw_lost: bool,
    },
    /// Crossed to the facing stroke of the opposite dry branch.
    #[schema(title = "CrossedDryBranch")]
    CrossedDryBranch {
        /// The mover.
        side: Side,
        /// Where it landed.
        from: u8,
        /// Where it crossed to.
        to: u8,
    },
    /// A turn was skipped for an earlier dry-branch landing.
    #[schema(title = "TurnSkipped")]
    TurnSkipped {
        /// The seat that lost its turn.
        seat: SeatView,
    },
    /// The same player throws again.
    #[schema(title = "ThrowsAgain")]
    ThrowsAgain {
        /// Who throws.
        seat: SeatView,
    },
    /// The sticks pass on.
    #[schema(title = "TurnPassed")]
    TurnPassed {
        /// Who throws next.
        seat: SeatView,
    },
    /// The game is over.
    #[schema(title = "Won")]
    Won {
        /// The winner.
        side: Side,
        /// Why.
        reason: WinReason,
    },
    /// A stopped game with equal counters.
    #[schema(title = "Drawn")]
    Drawn,
}

/// The API form of an event.
#[must_use]
pub fn event_view(setup: &Setup, event: &Event) -> EventView {
    match *event {
        Event::Moved {
            side,
            from,
            to,
            steps,
        } => EventView::Moved {
            side,
            from,
            to,
            steps,
        },
        Event::PassedNorthCreek { side } => EventView::PassedNorthCreek { side },
        Event::CompletedCircuit {
            side,
            circuits,
            exact,
        } => EventView::CompletedCircuit {
            side,
            circuits,
            exact,
        },
        Event::FellIntoCreek { side, creek, space } => {
            EventView::FellIntoCreek { side, creek, space }
        }
        Event::Whipped {
            side,
            victim,
            space,
        } => EventView::Whipped {
            side,
            victim,
            space,
        },
        Event::CounterPaid {
            payer,
            payee,
            reason: r,
            counters,
        } => EventView::CounterPaid {
            payer,
            payee,
            reason: r,
            counters: CountersView {
                a: counters[0],
                b: counters[1],
            },
        },
        Event::CounterUnpaid {
            payer,
            payee,
            reason: r,
        } => EventView::CounterUnpaid {
            payer,
            payee,
            reason: r,
        },
        Event::ForcedPass { side, value } => EventView::ForcedPass { side, value },
        Event::LandedOnDryBranch { side, space } => EventView::LandedOnDryBranch { side, space },
        Event::LostThrow {
            side,
            space,
            extra_throw_lost,
        } => EventView::LostThrow {
            side,
            space,
            extra_throw_lost,
        },
        Event::CrossedDryBranch { side, from, to } => {
            EventView::CrossedDryBranch { side, from, to }
        }
        Event::TurnSkipped { seat } => EventView::TurnSkipped {
            seat: seat_view(setup, seat),
        },
        Event::ThrowsAgain { seat } => EventView::ThrowsAgain {
            seat: seat_view(setup, seat),
        },
        Event::TurnPassed { seat } => EventView::TurnPassed {
            seat: seat_view(setup, seat),
        },
        Event::Won { side, reason: r } => EventView::Won { side, reason: r },
        Event::Drawn => EventView::Drawn,
    }
}
