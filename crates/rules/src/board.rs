//! Board geometry: the 40-space circle and the 28-space square, with both
//! sides' numberings.
//!
//! docs/rules.md#board (Culin 1898, p. 687, as coded by Ludii and summarised by
//! the Wikipedia article): side A starts on the east bank of the south creek
//! and moves counter-clockwise, side B on the west bank and moves clockwise.
//! One physical space has A-number `a` and B-number `b` with `a + b = L + 1`
//! (`L` = 40 on the circle, 28 on the square).

use serde::{Deserialize, Serialize};

/// One of the two sides (two players or two teams). Side A starts on the east
/// bank of the south creek and moves counter-clockwise; side B starts on the
/// west bank and moves clockwise (docs/rules.md#board; Ludii's coding of Culin 1898).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    PartialOrd,
    Ord,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
    strum::VariantArray,
)]
pub enum Side {
    /// Starts on the east bank of the south creek; moves counter-clockwise.
    A,
    /// Starts on the west bank of the south creek; moves clockwise.
    B,
}

impl Side {
    /// Both sides, A first.
    pub const BOTH: [Side; 2] = [Side::A, Side::B];

    /// The other side.
    #[must_use]
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }

    /// 0 for A, 1 for B: the index into per-side arrays.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Side::A => 0,
            Side::B => 1,
        }
    }
}

/// A space in one side's own numbering, `1..=L` (`L` = [`Board::len`]).
pub type OwnSpace = u8;

/// The shape of the track.
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
pub enum Board {
    /// The 40-space circle drawn on the awl cloth (Culin 1898, p. 687).
    #[default]
    Circle40,
    /// The 28-cell ring round an 8×8 grid of the A4 print-and-play sheet
    /// (docs/rules.md#board-square28; the layout is our inference from the sheet's count).
    Square28,
}

/// A point of the compass, for naming dry branches.
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
pub enum Compass {
    /// East.
    East,
    /// West.
    West,
}

/// A bank of a creek, relative to the side whose numbering is used: the near
/// bank is the one its awl reaches first.
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
pub enum Bank {
    /// Reached first by this side's awl.
    Near,
    /// Reached second by this side's awl.
    Far,
}

/// What is drawn at a space, as seen by one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Feature {
    /// A plain counting space.
    Ordinary,
    /// A stroke of a dry branch (own 10, 11, 30, 31 on the circle).
    DryBranch {
        /// Which dry branch.
        compass: Compass,
    },
    /// A bank of the north creek (own 20 near, own 21 far on the circle).
    NorthCreek {
        /// Which bank, for this side.
        bank: Bank,
    },
    /// A bank of the south creek: own 1 (the far bank, this side's start) or
    /// own `L` (the near bank, the other side's start).
    SouthCreek {
        /// Which bank, for this side.
        bank: Bank,
    },
}

impl Feature {
    /// Every feature, in the order of [`Feature::key`]'s list.
    pub const ALL: [Feature; 7] = [
        Feature::Ordinary,
        Feature::DryBranch {
            compass: Compass::East,
        },
        Feature::DryBranch {
            compass: Compass::West,
        },
        Feature::NorthCreek { bank: Bank::Near },
        Feature::NorthCreek { bank: Bank::Far },
        Feature::SouthCreek { bank: Bank::Far },
        Feature::SouthCreek { bank: Bank::Near },
    ];

    /// A stable identifier of the feature as seen by a side: `ordinary`,
    /// `dry_branch_east`, `dry_branch_west`, `north_creek_near`,
    /// `north_creek_far`, `south_creek_far` (own start), `south_creek_near`.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Feature::Ordinary => "ordinary",
            Feature::DryBranch {
                compass: Compass::East,
            } => "dry_branch_east",
            Feature::DryBranch {
                compass: Compass::West,
            } => "dry_branch_west",
            Feature::NorthCreek { bank: Bank::Near } => "north_creek_near",
            Feature::NorthCreek { bank: Bank::Far } => "north_creek_far",
            Feature::SouthCreek { bank: Bank::Far } => "south_creek_far",
            Feature::SouthCreek { bank: Bank::Near } => "south_creek_near",
        }
    }
}

impl Board {
    /// Number of spaces in one circuit: 40 or 28.
    #[must_use]
    #[allow(clippy::len_without_is_empty, reason = "a board is never empty")]
    #[inline]
    pub const fn len(self) -> u8 {
        match self {
            Board::Circle40 => 40,
            Board::Square28 => 28,
        }
    }

    /// The same physical space in the other side's numbering: `L + 1 - own`.
    ///
    /// # Panics
    /// Never for `own` in `1..=L`; other values are a caller bug (debug assert).
    #[must_use]
    pub fn mirror(self, own: OwnSpace) -> OwnSpace {
        debug_assert!((1..=self.len()).contains(&own));
        self.len() + 1 - own
    }

    /// Physical index `0..L`, counted in A's direction from A's start:
    /// A-space = p + 1, B-space = L − p.
    #[must_use]
    #[inline]
    pub fn physical(self, side: Side, own: OwnSpace) -> u8 {
        match side {
            Side::A => own - 1,
            Side::B => self.len() - own,
        }
    }

    /// The side's own space for physical index `p` (inverse of [`Board::physical`]).
    #[must_use]
    pub fn own_space(self, side: Side, p: u8) -> OwnSpace {
        match side {
            Side::A => p + 1,
            Side::B => self.len() - p,
        }
    }

    /// The two strokes of the first dry branch in own numbering (10, 11 or 7, 8).
    #[must_use]
    #[inline]
    pub const fn first_dry_branch(self) -> [OwnSpace; 2] {
        match self {
            Board::Circle40 => [10, 11],
            Board::Square28 => [7, 8],
        }
    }

    /// The two strokes of the second dry branch in own numbering (30, 31 or 21, 22).
    #[must_use]
    #[inline]
    pub const fn second_dry_branch(self) -> [OwnSpace; 2] {
        match self {
            Board::Circle40 => [30, 31],
            Board::Square28 => [21, 22],
        }
    }

    /// The near bank of the north creek in own numbering (20 or 14); the far
    /// bank is the next space.
    #[must_use]
    #[inline]
    pub const fn north_near_bank(self) -> OwnSpace {
        match self {
            Board::Circle40 => 20,
            Board::Square28 => 14,
        }
    }

    /// Whether `own` is a stroke of either dry branch.
    #[must_use]
    #[inline]
    pub fn is_dry_branch(self, own: OwnSpace) -> bool {
        self.first_dry_branch().contains(&own) || self.second_dry_branch().contains(&own)
    }

    /// The facing stroke of the opposite dry branch for the `cross_over`
    /// option: own 10 → 31, 11 → 30 (square: 7 → 22, 8 → 21); `None` off the
    /// first dry branch. A modern print-and-play option (docs/rules.md#options).
    #[must_use]
    #[inline]
    pub fn cross_over(self, own: OwnSpace) -> Option<OwnSpace> {
        let [first, second] = self.first_dry_branch();
        let [third, fourth] = self.second_dry_branch();
        if own == first {
            Some(fourth)
        } else if own == second {
            Some(third)
        } else {
            None
        }
    }

    /// The corner cells of the square board (own 4, 11, 18, 25); none on the circle.
    #[must_use]
    pub fn is_corner(self, own: OwnSpace) -> bool {
        matches!(self, Board::Square28) && matches!(own, 4 | 11 | 18 | 25)
    }

    /// What is drawn at `own`, seen by `side` (docs/rules.md#board and 5).
    #[must_use]
    pub fn feature(self, side: Side, own: OwnSpace) -> Feature {
        let near = self.north_near_bank();
        let (first, second) = match side {
            Side::A => (Compass::East, Compass::West),
            Side::B => (Compass::West, Compass::East),
        };
        if own == 1 {
            Feature::SouthCreek { bank: Bank::Far }
        } else if own == self.len() {
            Feature::SouthCreek { bank: Bank::Near }
        } else if own == near {
            Feature::NorthCreek { bank: Bank::Near }
        } else if own == near + 1 {
            Feature::NorthCreek { bank: Bank::Far }
        } else if self.first_dry_branch().contains(&own) {
            Feature::DryBranch { compass: first }
        } else if self.second_dry_branch().contains(&own) {
            Feature::DryBranch { compass: second }
        } else {
            Feature::Ordinary
        }
    }
}
