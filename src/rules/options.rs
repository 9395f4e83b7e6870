//! Ruleset options and presets (RULES.md 4).
//!
//! A ruleset is a [`Preset`] plus explicit overrides; [`Options::validate`]
//! is the only way an unchecked set of options becomes playable (through
//! [`crate::rules::Table::new`]).

use serde::{Deserialize, Serialize};

use super::board::Board;
use super::sticks::ThrowTable;

/// Which bank of the north creek makes the awl fall in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DeadlyNorthBank {
    /// Own 20, the near bank (the Wikipedia composite; Ludii; Culin 1898's
    /// "space opposite the start").
    #[default]
    Near,
    /// Own 21, the far bank (bead.game; the Ringling wiki's "21st").
    Far,
}

/// What landing exactly on own last space (own 40 on the circle, the near
/// bank of the south creek) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum OwnLastSpace {
    /// The awl falls into the south creek: back to own 1, one counter paid,
    /// no circuit (the Wikipedia composite; bead.game).
    #[default]
    FallsIn,
    /// An ordinary space; landing on or passing own start wins the lap
    /// (cyningstan; the A4 sheet).
    Ordinary,
    /// Landing exactly there completes the circuit: back to own 1, one
    /// counter won (Ludii's coding of Culin 1898).
    CompletesCircuit,
}

/// What a throw that would carry the awl past own last space does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Overshoot {
    /// The circuit is complete and the awl keeps going with the rest of the
    /// throw (the Wikipedia composite).
    #[default]
    CarryOn,
    /// The throw is not played: a forced pass (Ludii: an exact throw is
    /// needed to come home).
    NoMove,
}

/// What landing on a dry branch does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DryBranch {
    /// Nothing (the Wikipedia composite; Ludii; Culin's silence).
    #[default]
    NoEffect,
    /// The side forfeits its next throw: the extra throw this throw earned,
    /// or else its next turn (cyningstan; the A4 sheet; bead.game).
    LoseThrow,
    /// From the first dry branch the awl crosses to the facing stroke of the
    /// second (own 10 → 31, 11 → 30): a modern print-and-play option.
    CrossOver,
}

/// How turns pass between the players of two teams.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TurnOrder {
    /// Every player of one side throws her turn, then every player of the
    /// other side (Culin 1898 via the Ludii evidence pages; Ludii).
    #[default]
    SideBlocks,
    /// Players of the two sides take turns: A1, B1, A2, B2, ... (cyningstan;
    /// the A4 sheet's "alternating").
    Alternate,
}

/// When the game checks for a winner by counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum EndCheck {
    /// The moment any side holds every counter, after each single transfer
    /// (RULES.md 3.10).
    #[default]
    Immediate,
    /// After each whole move, for the side that just moved only: it wins if
    /// the other side holds no counters (Ludii's coding; RULES.md 4).
    AfterMove,
}

/// A named starting point for the options (RULES.md 4, presets table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// The default composite reconstruction (RULES.md 3).
    #[default]
    Composite,
    /// Culin 1898's count of flat faces.
    Culin1898,
    /// Ludii's "Zohn Ahl (Observed)" coding.
    Ludii,
    /// The A4 print-and-play sheet.
    A4,
    /// The boxed commercial edition's win rule: four circuits.
    Boxed,
}

impl Preset {
    /// All presets, the default first.
    pub const ALL: [Preset; 5] = [
        Preset::Composite,
        Preset::Culin1898,
        Preset::Ludii,
        Preset::A4,
        Preset::Boxed,
    ];

    /// The options this preset sets.
    #[must_use]
    pub fn options(self) -> Options {
        let base = Options::default();
        match self {
            Preset::Composite => base,
            Preset::Culin1898 => Options {
                throw_table: ThrowTable::SticksCount,
                ..base
            },
            Preset::Ludii => Options {
                throw_table: ThrowTable::SticksCount,
                own_last_space: OwnLastSpace::CompletesCircuit,
                overshoot: Overshoot::NoMove,
                counters_per_side: 10,
                end_check: EndCheck::AfterMove,
                ..base
            },
            Preset::A4 => Options {
                board: Board::Square28,
                throw_table: ThrowTable::Spinner,
                own_last_space: OwnLastSpace::Ordinary,
                dry_branch: DryBranch::LoseThrow,
                turn_order: TurnOrder::Alternate,
                ..base
            },
            Preset::Boxed => Options {
                circuits_to_win: Some(4),
                ..base
            },
        }
    }

    /// Players per side when the creator names none: two for `ludii` (its
    /// coding has four players in two teams), one otherwise.
    #[must_use]
    pub const fn default_players(self) -> u8 {
        match self {
            Preset::Ludii => 2,
            _ => 1,
        }
    }
}

/// The resolved options of a ruleset (RULES.md 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Options {
    /// Track shape.
    pub board: Board,
    /// How a throw is scored.
    pub throw_table: ThrowTable,
    /// Which north-creek bank is deadly.
    pub deadly_north_bank: DeadlyNorthBank,
    /// What landing exactly on own last space does.
    pub own_last_space: OwnLastSpace,
    /// What passing own last space does.
    pub overshoot: Overshoot,
    /// What landing on a dry branch does.
    pub dry_branch: DryBranch,
    /// Counters each side holds at the start, `1..=15`.
    pub counters_per_side: u8,
    /// How turns pass between team players.
    pub turn_order: TurnOrder,
    /// Circuits that win outright, `1..=10`; `None`: only counters decide.
    pub circuits_to_win: Option<u8>,
    /// When the counters are checked for a winner.
    pub end_check: EndCheck,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            board: Board::Circle40,
            throw_table: ThrowTable::SticksSahe,
            deadly_north_bank: DeadlyNorthBank::Near,
            own_last_space: OwnLastSpace::FallsIn,
            overshoot: Overshoot::CarryOn,
            dry_branch: DryBranch::NoEffect,
            counters_per_side: 4,
            turn_order: TurnOrder::SideBlocks,
            circuits_to_win: None,
            end_check: EndCheck::Immediate,
        }
    }
}

/// An option value out of its bounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// `counters_per_side` outside `1..=15`.
    #[error("counters_per_side must be from 1 to 15, got {0}")]
    CountersPerSide(u8),
    /// `circuits_to_win` outside `1..=10`.
    #[error("circuits_to_win must be from 1 to 10, got {0}")]
    CircuitsToWin(u8),
}

impl Options {
    /// Smallest allowed `counters_per_side`.
    pub const MIN_COUNTERS: u8 = 1;
    /// Largest allowed `counters_per_side` (30 counters in all).
    pub const MAX_COUNTERS: u8 = 15;
    /// Largest allowed `circuits_to_win`.
    pub const MAX_CIRCUITS_TO_WIN: u8 = 10;

    /// Check every bounded option.
    ///
    /// # Errors
    /// [`OptionError`] naming the first option out of bounds.
    pub fn validate(&self) -> Result<(), OptionError> {
        if !(Self::MIN_COUNTERS..=Self::MAX_COUNTERS).contains(&self.counters_per_side) {
            return Err(OptionError::CountersPerSide(self.counters_per_side));
        }
        if let Some(n) = self.circuits_to_win
            && !(1..=Self::MAX_CIRCUITS_TO_WIN).contains(&n)
        {
            return Err(OptionError::CircuitsToWin(n));
        }
        Ok(())
    }

    /// The deadly north-creek space in own numbering.
    #[must_use]
    #[inline]
    pub fn deadly_north_space(&self) -> u8 {
        match self.deadly_north_bank {
            DeadlyNorthBank::Near => self.board.north_near_bank(),
            DeadlyNorthBank::Far => self.board.north_near_bank() + 1,
        }
    }

    /// Counters in play in all: twice [`Options::counters_per_side`].
    #[must_use]
    pub fn total_counters(&self) -> u8 {
        self.counters_per_side * 2
    }
}
