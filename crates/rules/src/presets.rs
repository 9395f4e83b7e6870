//! The presets: named starting points for the options (see
//! `docs/rules.md#presets`).

use serde::{Deserialize, Serialize};

use super::board::Board;
use super::options::{DryBranch, EndCheck, Options, Overshoot, OwnLastSpace, TurnOrder};
use super::sticks::ThrowTable;

/// A named starting point for the options (see `docs/rules.md#presets`).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    Default,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Preset {
    /// The default composite reconstruction (docs/rules.md#play).
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
