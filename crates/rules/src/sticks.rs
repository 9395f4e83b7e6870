//! The four stick dice and the throw tables that score them.
//!
//! Three sticks carry a red groove on the flat face; the fourth, the sahe
//! ("green"), a blue, black or green one (Culin 1907, pp. 124-130, via the
//! Wikipedia article). Each face is taken as equally likely, p = 1/2: a
//! modelling choice, since no source gives field odds (docs/rules.md#sticks).

use serde::{Deserialize, Serialize};

/// The face a stick shows after the throw.
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
pub enum Face {
    /// The flat, grooved and painted face.
    Flat,
    /// The rounded, unmarked face.
    Round,
}

/// The faces of the four sticks: indexes 0-2 are the red-grooved sticks,
/// index 3 is the sahe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Sticks([Face; 4]);

impl Sticks {
    /// Index of the sahe in [`Sticks::faces`].
    pub const SAHE: usize = 3;

    /// The sticks showing these faces (`faces[3]` is the sahe).
    #[must_use]
    pub const fn new(faces: [Face; 4]) -> Self {
        Self(faces)
    }

    /// The configuration whose bit `i` (0..4) set means stick `i` is flat up;
    /// bit 3 is the sahe. Only the low four bits are read.
    #[must_use]
    // Inlined across crates: the throw sources draw every simulated throw
    // through it (a call cost about 4 % of a throw).
    #[inline]
    pub fn from_bits(bits: u8) -> Self {
        Self(std::array::from_fn(|i| {
            if bits >> i & 1 == 1 {
                Face::Flat
            } else {
                Face::Round
            }
        }))
    }

    /// The configuration as bits: bit `i` set means stick `i` is flat up
    /// (the inverse of [`Sticks::from_bits`]).
    #[must_use]
    #[inline]
    pub const fn bits(self) -> u8 {
        let mut bits = 0;
        let mut i = 0;
        while i < 4 {
            if matches!(self.0[i], Face::Flat) {
                bits |= 1 << i;
            }
            i += 1;
        }
        bits
    }

    /// All 16 configurations, each equally likely.
    pub fn all() -> impl Iterator<Item = Sticks> {
        (0u8..16).map(Sticks::from_bits)
    }

    /// The four faces, the sahe last.
    #[must_use]
    pub const fn faces(self) -> [Face; 4] {
        self.0
    }

    /// How many sticks show the flat face (0..=4).
    #[must_use]
    pub fn flat_count(self) -> u8 {
        // At most 4, so the cast is exact.
        self.0.iter().filter(|f| **f == Face::Flat).count() as u8
    }

    /// Whether the sahe shows its flat face.
    #[must_use]
    pub fn sahe_flat(self) -> bool {
        self.0[Self::SAHE] == Face::Flat
    }
}

/// A sector of the A4 sheet's spinner (docs/rules.md#throw-spinner): seven equal sectors,
/// one per row of the composite table. Equal sizes are our assumption; the
/// sheet does not give them.
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
pub enum SpinnerSector {
    /// 10, throw again.
    Ten,
    /// 1.
    One,
    /// Blue 1, throw again.
    BlueOne,
    /// 2.
    Two,
    /// 3.
    Three,
    /// Blue 3, throw again.
    BlueThree,
    /// 6, throw again.
    Six,
}

impl SpinnerSector {
    /// This sector's place in [`SpinnerSector::ALL`].
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            SpinnerSector::Ten => 0,
            SpinnerSector::One => 1,
            SpinnerSector::BlueOne => 2,
            SpinnerSector::Two => 3,
            SpinnerSector::Three => 4,
            SpinnerSector::BlueThree => 5,
            SpinnerSector::Six => 6,
        }
    }

    /// The seven sectors in the order of the composite table's rows.
    pub const ALL: [SpinnerSector; 7] = [
        SpinnerSector::Ten,
        SpinnerSector::One,
        SpinnerSector::BlueOne,
        SpinnerSector::Two,
        SpinnerSector::Three,
        SpinnerSector::BlueThree,
        SpinnerSector::Six,
    ];
}

/// One throw: the sticks' faces, or where the spinner stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Throw {
    /// The four sticks, the sahe last.
    Sticks(Sticks),
    /// The spinner's sector (table `spinner` only).
    Spinner(SpinnerSector),
}

/// An exact probability `numerator / denominator`, in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Odds {
    /// Numerator.
    pub numerator: u32,
    /// Denominator (never 0).
    pub denominator: u32,
}

impl Odds {
    /// `n / d` reduced to lowest terms.
    ///
    /// # Panics
    /// If `d` is 0.
    #[must_use]
    pub const fn new(n: u32, d: u32) -> Self {
        assert!(d != 0, "zero denominator");
        let g = gcd(n, d);
        Self {
            numerator: n / g,
            denominator: d / g,
        }
    }

    /// The probability as a float.
    #[must_use]
    pub fn as_f64(self) -> f64 {
        f64::from(self.numerator) / f64::from(self.denominator)
    }
}

const fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        if a == 0 { 1 } else { a }
    } else {
        gcd(b, a % b)
    }
}

/// What a throw is worth under a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Score {
    /// Spaces the awl moves (1, 2, 3, 5, 6 or 10).
    pub value: u8,
    /// Whether the same side throws again.
    pub throws_again: bool,
    /// Probability of this result (value and throws-again together) under
    /// the table, with fair sticks or equal spinner sectors.
    pub probability: Odds,
}

/// The throw does not belong to the table (spinner sector under a sticks
/// table, or sticks under the spinner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a {got} throw cannot be scored by the {table:?} table")]
pub struct ThrowMismatch {
    /// The table in force.
    pub table: ThrowTable,
    /// What was thrown: "sticks" or "spinner".
    pub got: &'static str,
}

/// A throw table (docs/rules.md#sticks, option `throw_table`).
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
pub enum ThrowTable {
    /// The composite table (Mooney's Tsoñä values with the sahe's extra
    /// throws, via the Wikipedia article): 0 flat = 10 and again; 1 flat = 1
    /// (again when it is the sahe); 2 = 2; 3 = 3 (again when the sahe is among
    /// them); 4 = 6 and again.
    #[default]
    SticksSahe,
    /// Culin 1898 as coded by Ludii: the count of flat faces, 4 = 5 and
    /// 0 = 10, both throwing again; the sahe plays no part.
    SticksCount,
    /// The A4 sheet's spinner: 1, 2, 3, 6, 10, with blue 1, blue 3, 6 and 10
    /// throwing again; seven equal sectors (our assumption).
    Spinner,
}

impl ThrowTable {
    /// All tables.
    pub const ALL: [ThrowTable; 3] = [
        ThrowTable::SticksSahe,
        ThrowTable::SticksCount,
        ThrowTable::Spinner,
    ];

    /// Whether this table is thrown with the four sticks.
    #[must_use]
    #[inline]
    pub const fn uses_sticks(self) -> bool {
        !matches!(self, ThrowTable::Spinner)
    }

    /// Score a throw.
    ///
    /// # Errors
    /// [`ThrowMismatch`] when a spinner sector meets a sticks table or the reverse.
    #[inline]
    pub fn score(self, throw: &Throw) -> Result<Score, ThrowMismatch> {
        // Looked up in tables built at compile time: scoring is on the
        // engine's hot path.
        match (self, throw) {
            (ThrowTable::SticksSahe, Throw::Sticks(s)) => Ok(SAHE_SCORES[usize::from(s.bits())]),
            (ThrowTable::SticksCount, Throw::Sticks(s)) => Ok(COUNT_SCORES[usize::from(s.bits())]),
            (ThrowTable::Spinner, Throw::Spinner(sector)) => Ok(SPINNER_SCORES[sector.index()]),
            (table, Throw::Spinner(_)) => Err(ThrowMismatch {
                table,
                got: "spinner",
            }),
            (table, Throw::Sticks(_)) => Err(ThrowMismatch {
                table,
                got: "sticks",
            }),
        }
    }

    /// Every equally likely elementary outcome of the table: the 16 stick
    /// configurations, or the 7 spinner sectors.
    #[must_use]
    pub fn outcomes(self) -> Vec<Throw> {
        if self.uses_sticks() {
            Sticks::all().map(Throw::Sticks).collect()
        } else {
            SpinnerSector::ALL
                .iter()
                .copied()
                .map(Throw::Spinner)
                .collect()
        }
    }

    /// The distinct results of the table with their exact probabilities,
    /// ordered by value then throws-again.
    #[must_use]
    pub fn results(self) -> Vec<Score> {
        let mut out: Vec<Score> = Vec::new();
        for throw in self.outcomes() {
            if let Ok(score) = self.score(&throw)
                && !out.contains(&score)
            {
                out.push(score);
            }
        }
        out.sort_by_key(|s| (s.value, s.throws_again));
        out
    }
}

/// Value and throws-again of the stick configuration `bits` under a stick
/// table (docs/rules.md#throw-sticks-sahe and 2.2).
const fn sticks_result(table: ThrowTable, bits: u8) -> (u8, bool) {
    // At most 4 bits are set, so the cast is exact.
    let flat = (bits & 0b1111).count_ones() as u8;
    let sahe = (bits >> Sticks::SAHE) & 1 == 1;
    match table {
        ThrowTable::SticksSahe => match flat {
            0 => (10, true),
            1 => (1, sahe),
            2 => (2, false),
            3 => (3, sahe),
            _ => (6, true),
        },
        ThrowTable::SticksCount => match flat {
            0 => (10, true),
            4 => (5, true),
            n => (n, false),
        },
        ThrowTable::Spinner => panic!("the spinner has no sticks"),
    }
}

/// Value and throws-again of spinner sector `i` of [`SpinnerSector::ALL`]
/// (docs/rules.md#throw-spinner).
const fn spinner_result(i: usize) -> (u8, bool) {
    match SpinnerSector::ALL[i] {
        SpinnerSector::Ten => (10, true),
        SpinnerSector::One => (1, false),
        SpinnerSector::BlueOne => (1, true),
        SpinnerSector::Two => (2, false),
        SpinnerSector::Three => (3, false),
        SpinnerSector::BlueThree => (3, true),
        SpinnerSector::Six => (6, true),
    }
}

/// Every stick configuration's score under a stick table, indexed by
/// [`Sticks::bits`]: the probability of a result is the share of the 16
/// equally likely configurations that give it.
const fn sticks_scores(table: ThrowTable) -> [Score; 16] {
    let mut out = [Score {
        value: 0,
        throws_again: false,
        probability: Odds::new(0, 1),
    }; 16];
    let mut bits = 0;
    while bits < 16 {
        let (value, throws_again) = sticks_result(table, bits as u8);
        let mut hits = 0;
        let mut other = 0;
        while other < 16 {
            let (v, a) = sticks_result(table, other as u8);
            if v == value && a == throws_again {
                hits += 1;
            }
            other += 1;
        }
        out[bits] = Score {
            value,
            throws_again,
            probability: Odds::new(hits, 16),
        };
        bits += 1;
    }
    out
}

/// Every sector's score, indexed as [`SpinnerSector::ALL`]; each result's
/// probability is its share of the seven equal sectors.
const fn spinner_scores() -> [Score; 7] {
    let mut out = [Score {
        value: 0,
        throws_again: false,
        probability: Odds::new(0, 1),
    }; 7];
    let mut i = 0;
    while i < 7 {
        let (value, throws_again) = spinner_result(i);
        let mut hits = 0;
        let mut j = 0;
        while j < 7 {
            let (v, a) = spinner_result(j);
            if v == value && a == throws_again {
                hits += 1;
            }
            j += 1;
        }
        out[i] = Score {
            value,
            throws_again,
            probability: Odds::new(hits, 7),
        };
        i += 1;
    }
    out
}

const SAHE_SCORES: [Score; 16] = sticks_scores(ThrowTable::SticksSahe);
const COUNT_SCORES: [Score; 16] = sticks_scores(ThrowTable::SticksCount);
const SPINNER_SCORES: [Score; 7] = spinner_scores();
