//! What a move did that moved the chances: the recap names it with the
//! move ("a 3 for the Otters took them into the creek"), so that a class
//! sees that the landing changed the game, not the number thrown.

use serde::{Deserialize, Serialize};

use crate::rules::Event;

/// What a move did, as the recap names it: the first of these, in this
/// order, that the move's events hold.
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
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum SwingCause {
    /// The move won the game.
    Won,
    /// The mover whipped the other awl back to its start.
    Whipped,
    /// The mover's awl fell into a creek, back to its start.
    Fell,
    /// The mover's awl came home: a circuit completed.
    Circuit,
    /// The awl ended on a dry branch and the extra throw was lost.
    LostThrow,
    /// The awl ended on a dry branch and the side's next turn is lost.
    LostTurn,
    /// The throw was too many to finish exactly: the awl stayed.
    ForcedPass,
    /// The awl passed the deadly north bank safely.
    PassedNorthCreek,
    /// The throw earned another.
    ExtraThrow,
    /// The awl moved, and nothing else happened.
    Moved,
}

impl SwingCause {
    /// Every cause, in the order the recap looks for them.
    pub const ALL: [SwingCause; 10] = [
        SwingCause::Won,
        SwingCause::Whipped,
        SwingCause::Fell,
        SwingCause::Circuit,
        SwingCause::LostThrow,
        SwingCause::LostTurn,
        SwingCause::ForcedPass,
        SwingCause::PassedNorthCreek,
        SwingCause::ExtraThrow,
        SwingCause::Moved,
    ];

    /// The cause's name as written in the API.
    #[must_use]
    pub fn key(self) -> &'static str {
        self.into()
    }

    /// Whether `event` is this cause.
    fn matches(self, event: &Event) -> bool {
        match (self, event) {
            (SwingCause::Won, Event::Won { .. })
            | (SwingCause::Whipped, Event::Whipped { .. })
            | (SwingCause::Fell, Event::FellIntoCreek { .. })
            | (SwingCause::Circuit, Event::CompletedCircuit { .. })
            | (SwingCause::ForcedPass, Event::ForcedPass { .. })
            | (SwingCause::PassedNorthCreek, Event::PassedNorthCreek { .. })
            | (SwingCause::ExtraThrow, Event::ThrowsAgain { .. }) => true,
            (
                SwingCause::LostThrow,
                Event::LostThrow {
                    extra_throw_lost, ..
                },
            ) => *extra_throw_lost,
            (
                SwingCause::LostTurn,
                Event::LostThrow {
                    extra_throw_lost, ..
                },
            ) => !*extra_throw_lost,
            _ => false,
        }
    }

    /// The cause of a move with these events.
    #[must_use]
    pub fn of(events: &[Event]) -> SwingCause {
        SwingCause::ALL
            .into_iter()
            .find(|cause| events.iter().any(|e| cause.matches(e)))
            .unwrap_or(SwingCause::Moved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Seat, Side, WinReason};

    #[test]
    fn a_whip_that_earns_another_throw_is_named_as_the_whip() {
        let seat = Seat {
            side: Side::A,
            player: 0,
        };
        let events = [
            Event::Whipped {
                side: Side::A,
                victim: Side::B,
                space: 12,
            },
            Event::ThrowsAgain { seat },
        ];
        assert_eq!(SwingCause::of(&events), SwingCause::Whipped);
        assert_eq!(
            SwingCause::of(&[Event::ThrowsAgain { seat }]),
            SwingCause::ExtraThrow
        );
        assert_eq!(SwingCause::of(&[]), SwingCause::Moved);
        let won = Event::Won {
            side: Side::A,
            reason: WinReason::Circuits,
        };
        assert_eq!(SwingCause::of(&[won]), SwingCause::Won);
    }
}
