//! The rules of Zohn Ahl as a pure engine.
//!
//! No I/O, no clock, no randomness source and no text: [`play`] takes a
//! [`Table`] (ruleset options, team sizes, first side), a [`GameState`] and a
//! [`Throw`] (the four stick faces, or a spinner sector) and returns the new
//! state with the typed [`Event`]s that explain it. The same inputs always
//! give the same outputs, so a game is fully described by its table and its
//! list of throws ([`replay`]).
//!
//! The rules follow `docs/rules.md`: the default ruleset is the composite
//! reconstruction of Culin 1907, pp. 124-130 (joining Culin's Zohn Ahl and
//! Mooney's Tsoñä accounts); the other presets and options are documented on
//! [`Options`].

mod board;
mod engine;
mod events;
mod option_spec;
mod options;
mod presets;
#[cfg(feature = "openapi")]
pub mod schema;
mod state;
mod sticks;

pub use board::{Bank, Board, Compass, Feature, OwnSpace, Side};
pub use engine::{Played, RulesError, play, play_into, replay, stop};
pub use events::{CounterReason, Creek, Event, WinReason};
pub use options::*;
pub use presets::Preset;
pub use state::{GameState, Outcome, Seat, SetupError, Table};
pub use sticks::{Face, Odds, Score, SpinnerSector, Sticks, Throw, ThrowMismatch, ThrowTable};
