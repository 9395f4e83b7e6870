//! Typed events: what a throw made happen, in order. The narration turns
//! them into text; the rules never do.

use serde::{Deserialize, Serialize};

use super::board::{OwnSpace, Side};
use super::state::Seat;

/// Which creek an awl fell into.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Creek {
    /// The north creek (own 20 or 21, by option).
    North,
    /// The south creek (landing exactly on own last space).
    South,
}

/// Why a counter moved.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum CounterReason {
    /// The payee completed a circuit.
    Circuit,
    /// The payee whipped the payer's awl.
    Whip,
    /// The payer's awl fell into a creek.
    CreekFall,
}

/// Why a side won.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum WinReason {
    /// It holds every counter (or, under `end_check: after_move`, the other
    /// side holds none).
    AllCounters,
    /// It completed `circuits_to_win` circuits.
    Circuits,
    /// The game was stopped and it held more counters.
    Stopped,
}

/// One thing a throw made happen. Spaces are in the mover's own numbering
/// unless the field says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// The awl moved `steps` spaces from `from` to `to` (before any hazard).
    Moved {
        /// The mover.
        side: Side,
        /// Where it stood.
        from: OwnSpace,
        /// Where the count ended.
        to: OwnSpace,
        /// Spaces counted.
        steps: u8,
    },
    /// The awl passed over the deadly north-creek bank without landing.
    PassedNorthCreek {
        /// The mover.
        side: Side,
    },
    /// The awl came home and the side completed a circuit.
    CompletedCircuit {
        /// The mover.
        side: Side,
        /// Its circuits so far.
        circuits: u16,
        /// `true` when it landed exactly on own last space (`completes_circuit`).
        exact: bool,
    },
    /// The awl fell into a creek and went back to own 1.
    FellIntoCreek {
        /// The mover.
        side: Side,
        /// Which creek.
        creek: Creek,
        /// Where it landed, own numbering.
        space: OwnSpace,
    },
    /// The mover's awl landed on the other awl and sent it back to its own 1.
    Whipped {
        /// The mover.
        side: Side,
        /// The whipped side.
        victim: Side,
        /// Where it happened, mover's own numbering.
        space: OwnSpace,
    },
    /// One counter moved from `payer` to `payee`.
    CounterPaid {
        /// The side that gave it.
        payer: Side,
        /// The side that took it.
        payee: Side,
        /// Why.
        reason: CounterReason,
        /// Counters after the transfer, A first.
        counters: [u8; 2],
    },
    /// A counter was owed but the payer held none (Ludii's coding).
    CounterUnpaid {
        /// The side that owed it.
        payer: Side,
        /// The side it was owed to.
        payee: Side,
        /// Why.
        reason: CounterReason,
    },
    /// The throw would pass own last space and an exact throw is needed.
    ForcedPass {
        /// The mover.
        side: Side,
        /// The value that could not be played.
        value: u8,
    },
    /// Landed on a dry branch where it has no effect.
    LandedOnDryBranch {
        /// The mover.
        side: Side,
        /// Where, own numbering.
        space: OwnSpace,
    },
    /// Landed on a dry branch under `lose_throw`.
    LostThrow {
        /// The mover.
        side: Side,
        /// Where, own numbering.
        space: OwnSpace,
        /// `true`: the extra throw this throw earned is lost; `false`: the
        /// side's next turn will be skipped.
        extra_throw_lost: bool,
    },
    /// Crossed from the first dry branch to the facing stroke of the second.
    CrossedDryBranch {
        /// The mover.
        side: Side,
        /// Where it landed first.
        from: OwnSpace,
        /// Where it crossed to.
        to: OwnSpace,
    },
    /// A turn passed over because of an earlier `lose_throw`.
    TurnSkipped {
        /// The seat that loses its turn.
        seat: Seat,
    },
    /// The same player throws again.
    ThrowsAgain {
        /// Who throws.
        seat: Seat,
    },
    /// The sticks pass to the next player.
    TurnPassed {
        /// Who throws next.
        seat: Seat,
    },
    /// The game is over.
    Won {
        /// The winner.
        side: Side,
        /// Why.
        reason: WinReason,
    },
    /// A stopped game with equal counters.
    Drawn,
}

impl Event {
    /// The event's kind as written in the API and the narration data
    /// (`moved`, `fell_into_creek`, ...).
    #[must_use]
    pub const fn kind(&self) -> &'static str {
        match self {
            Event::Moved { .. } => "moved",
            Event::PassedNorthCreek { .. } => "passed_north_creek",
            Event::CompletedCircuit { .. } => "completed_circuit",
            Event::FellIntoCreek { .. } => "fell_into_creek",
            Event::Whipped { .. } => "whipped",
            Event::CounterPaid { .. } => "counter_paid",
            Event::CounterUnpaid { .. } => "counter_unpaid",
            Event::ForcedPass { .. } => "forced_pass",
            Event::LandedOnDryBranch { .. } => "landed_on_dry_branch",
            Event::LostThrow { .. } => "lost_throw",
            Event::CrossedDryBranch { .. } => "crossed_dry_branch",
            Event::TurnSkipped { .. } => "turn_skipped",
            Event::ThrowsAgain { .. } => "throws_again",
            Event::TurnPassed { .. } => "turn_passed",
            Event::Won { .. } => "won",
            Event::Drawn => "drawn",
        }
    }
}
