//! Ruleset options (see `docs/rules.md#options`), defined once in one list.
//!
//! A ruleset is a [`Preset`] plus explicit overrides; [`Options::validate`]
//! is the only way an unchecked set of options becomes playable (through
//! [`crate::Table::new`]).

use serde::{Deserialize, Serialize};

use super::board::Board;
pub use super::option_spec::{AnyOf, OptionError, OptionKind, OptionSpec};
use super::sticks::ThrowTable;

/// Which bank of the north creek makes the awl fall in.
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
pub enum EndCheck {
    /// The moment any side holds every counter, after each single transfer
    /// (docs/rules.md#end).
    #[default]
    Immediate,
    /// After each whole move, for the side that just moved only: it wins if
    /// the other side holds no counters (Ludii's coding; docs/rules.md#options).
    AfterMove,
}

/// Defines every ruleset option once: its name, type, default, bounds and
/// one-line description (the doc comment). From that one list come
/// [`Options`], [`OptionsPatch`] (the overrides a game or a command line
/// names), [`OptionsCondition`] (the values a fact presupposes), their
/// checks, [`Options::named_values`] and [`option_specs`] (what the API and
/// the command line document, the OpenAPI schemas of the options and of
/// their choice types included). The kinds: `choice("...")` (a closed set, a
/// strum-derived enum, with one sentence saying what each value does: its
/// type's description in the API), `count(MIN, MAX)` and
/// `optional_count(MIN, MAX)` (`None`: the rule is off), with bounds written
/// as constants.
macro_rules! ruleset_options {
    ($(
        $(#[doc = $doc:literal])+
        $name:ident: $ty:ty = $default:expr, lesson $lesson:literal, $kind:ident $(($($arg:expr),+))?;
    )+) => {
        /// The resolved options of a ruleset (see `docs/rules.md#options`).
        /// An option missing from a stored setup (one written before the
        /// option existed) reads as its default, the rule such games were
        /// played by.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(default)]
        pub struct Options {
            $( $(#[doc = $doc])+ pub $name: $ty, )+
        }

        impl Default for Options {
            fn default() -> Self {
                Self { $( $name: $default, )+ }
            }
        }

        /// Overrides of a preset's options: every field optional. Numbers
        /// are kept as sent (whole numbers) until [`OptionsPatch::apply`]
        /// checks them against their bounds. The same type is a game's
        /// option overrides and the command line's option flags.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct OptionsPatch {
            $(
                $(#[doc = $doc])+
                #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "patch_field")]
                pub $name: ruleset_options!(@patch $kind $ty),
            )+
        }

        /// The options a fact presupposes: for each option named, the
        /// values it fits (one value, or a list); an option left out may
        /// take any value. Written as the API writes the options
        /// (`{"board": "circle40"}`, `{"throw_table": ["sticks_sahe",
        /// "sticks_count"]}`).
        #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct OptionsCondition {
            $(
                $(#[doc = $doc])+
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $name: Option<AnyOf<$ty>>,
            )+
        }

        impl OptionsCondition {
            /// Whether no option is named (every game fits).
            #[must_use]
            pub fn is_empty(&self) -> bool {
                *self == Self::default()
            }

            /// Whether every option named here has, in `options`, one of
            /// the values named for it.
            #[must_use]
            pub fn matches(&self, options: &Options) -> bool {
                true $( && self.$name.as_ref().is_none_or(|any| any.contains(&options.$name)) )+
            }
        }

        $( ruleset_options!(@mark $kind $ty); )+

        /// Every option, in the API's order.
        #[must_use]
        pub fn option_specs() -> &'static [OptionSpec] {
            static SPECS: std::sync::LazyLock<Vec<OptionSpec>> = std::sync::LazyLock::new(|| vec![
                $( OptionSpec {
                    name: stringify!($name),
                    description: concat!($($doc),+).trim(),
                    lesson: $lesson,
                    kind: ruleset_options!(@spec $kind $ty, $default $($(, $arg)+)?),
                }, )+
            ]);
            &SPECS
        }

        impl Options {
            /// Every option's name and value as the command line writes it
            /// (`sticks_sahe`, `4`, `none` for a count that is off), in the
            /// API's order.
            #[must_use]
            pub fn named_values(&self) -> Vec<(&'static str, String)> {
                vec![ $( (stringify!($name), ruleset_options!(@text $kind, self.$name)), )+ ]
            }

            /// Check every bounded option.
            ///
            /// # Errors
            /// [`OptionError`] naming the first option out of its bounds.
            pub fn validate(&self) -> Result<(), OptionError> {
                $( ruleset_options!(@validate self, $name, $kind $($(, $arg)+)?); )+
                Ok(())
            }
        }

        /// Every option named, with its value in `options`: the overrides
        /// that give `options` whatever the preset.
        impl From<Options> for OptionsPatch {
            fn from(options: Options) -> Self {
                Self { $( $name: Some(ruleset_options!(@whole $kind, options.$name)), )+ }
            }
        }

        impl OptionsPatch {
            /// Whether no option is named.
            #[must_use]
            pub fn is_empty(&self) -> bool {
                *self == Self::default()
            }

            /// `base` with these overrides.
            ///
            /// # Errors
            /// Every option out of its bounds, in the API's order.
            pub fn apply(&self, base: Options) -> Result<Options, Vec<OptionError>> {
                let mut options = base;
                let mut errors = Vec::new();
                $( ruleset_options!(@apply self, options, errors, $name, $kind $($(, $arg)+)?); )+
                if errors.is_empty() { Ok(options) } else { Err(errors) }
            }

            /// Set the option `name` from its text form (`sticks_count`;
            /// a count as digits; `none` for an optional count).
            ///
            /// # Errors
            /// A message naming the allowed values or the bounds.
            pub fn set(&mut self, name: &str, text: &str) -> Result<(), String> {
                match name {
                    $( stringify!($name) => {
                        self.$name = Some(ruleset_options!(@parse $kind $ty, text)?);
                        Ok(())
                    } )+
                    _ => Err(format!("no option is named {name:?}")),
                }
            }
        }
    };
    (@text choice, $v:expr) => { <&'static str>::from($v).to_owned() };
    (@text count, $v:expr) => { $v.to_string() };
    (@text optional_count, $v:expr) => { $v.map_or_else(|| "none".to_owned(), |n| n.to_string()) };
    (@whole choice, $v:expr) => { $v };
    (@whole count, $v:expr) => { i64::from($v) };
    (@whole optional_count, $v:expr) => { $v.map(i64::from) };
    (@mark choice $ty:ty) => { impl Choice for $ty {} };
    (@mark $kind:ident $ty:ty) => {};
    (@patch choice $ty:ty) => { Option<$ty> };
    (@patch count $ty:ty) => { Option<i64> };
    (@patch optional_count $ty:ty) => { Option<Option<i64>> };
    (@spec choice $ty:ty, $default:expr, $values_doc:expr) => {
        OptionKind::Choice {
            type_name: stringify!($ty),
            description: $values_doc,
            values: <$ty as strum::VariantNames>::VARIANTS,
            default: {
                let d: $ty = $default;
                <&'static str>::from(d)
            },
        }
    };
    (@spec count $ty:ty, $default:expr, $min:expr, $max:expr) => {
        OptionKind::Count { min: $min, max: $max, default: Some($default), nullable: false }
    };
    (@spec optional_count $ty:ty, $default:expr, $min:expr, $max:expr) => {
        OptionKind::Count { min: $min, max: $max, default: $default, nullable: true }
    };
    (@validate $o:ident, $name:ident, choice, $values_doc:expr) => {};
    (@validate $o:ident, $name:ident, count, $min:expr, $max:expr) => {
        if !($min..=$max).contains(&$o.$name) {
            return Err(OptionError::new(stringify!($name), $min, $max, i64::from($o.$name)));
        }
    };
    (@validate $o:ident, $name:ident, optional_count, $min:expr, $max:expr) => {
        if let Some(n) = $o.$name && !($min..=$max).contains(&n) {
            return Err(OptionError::new(stringify!($name), $min, $max, i64::from(n)));
        }
    };
    (@apply $p:ident, $o:ident, $e:ident, $name:ident, choice, $values_doc:expr) => {
        if let Some(v) = $p.$name { $o.$name = v; }
    };
    (@apply $p:ident, $o:ident, $e:ident, $name:ident, count, $min:expr, $max:expr) => {
        if let Some(n) = $p.$name {
            match in_bounds(n, $min, $max) {
                Some(n) => $o.$name = n,
                None => $e.push(OptionError::new(stringify!($name), $min, $max, n)),
            }
        }
    };
    (@apply $p:ident, $o:ident, $e:ident, $name:ident, optional_count, $min:expr, $max:expr) => {
        match $p.$name {
            Some(Some(n)) => match in_bounds(n, $min, $max) {
                Some(n) => $o.$name = Some(n),
                None => $e.push(OptionError::new(stringify!($name), $min, $max, n)),
            },
            Some(None) => $o.$name = None,
            None => {}
        }
    };
    (@parse choice $ty:ty, $text:expr) => {
        $text.replace('-', "_").parse::<$ty>().map_err(|_| {
            format!(
                "must be one of {}, got {:?}",
                <$ty as strum::VariantNames>::VARIANTS.join(", "),
                $text
            )
        })
    };
    (@parse count $ty:ty, $text:expr) => {
        $text.parse::<i64>().map_err(|_| format!("must be a whole number, got {:?}", $text))
    };
    (@parse optional_count $ty:ty, $text:expr) => {
        if $text.eq_ignore_ascii_case("none") {
            Ok(None)
        } else {
            $text
                .parse::<i64>()
                .map(Some)
                .map_err(|_| format!("must be a whole number or none, got {:?}", $text))
        }
    };
}

ruleset_options! {
    /// The shape of the track.
    board: Board = Board::Circle40, lesson "board", choice(
        "Track: `circle40` (the 40-space awl cloth) or `square28` (the A4 sheet's 28-cell ring)."
    );
    /// How a throw is scored.
    throw_table: ThrowTable = ThrowTable::SticksSahe, lesson "sticks", choice(
        "How a throw is scored: `sticks_sahe` (composite: 1, 2, 3, 6, 10 with the sahe's extra throws), `sticks_count` (Culin 1898 via Ludii: 1, 2, 3, 5, 10), `spinner` (A4 sheet)."
    );
    /// Which bank of the north creek makes the awl fall in.
    deadly_north_bank: DeadlyNorthBank = DeadlyNorthBank::Near, lesson "north_creek", choice(
        "Which bank of the north creek makes the awl fall in: `near` (own 20) or `far` (own 21)."
    );
    /// What landing exactly on own last space (own 40) does.
    own_last_space: OwnLastSpace = OwnLastSpace::FallsIn, lesson "home", choice(
        "Landing exactly on own 40: `falls_in` (back to 1, pay a counter), `ordinary`, or `completes_circuit` (Ludii)."
    );
    /// What a throw that would carry the awl past home does.
    overshoot: Overshoot = Overshoot::CarryOn, lesson "home", choice(
        "Passing own 40: `carry_on` (circuit complete, keep moving) or `no_move` (exact throw needed; Ludii)."
    );
    /// What landing on a dry branch does.
    dry_branch: DryBranch = DryBranch::NoEffect, lesson "dry_branches", choice(
        "Landing on a dry branch: `no_effect`, `lose_throw` (cyningstan, A4 sheet) or `cross_over` (a print-and-play option)."
    );
    /// Counters each side holds at the start.
    counters_per_side: u8 = 4, lesson "winning", count(Options::MIN_COUNTERS, Options::MAX_COUNTERS);
    /// How turns pass between the players of two teams.
    turn_order: TurnOrder = TurnOrder::SideBlocks, lesson "turn", choice(
        "Team turn order: `side_blocks` (all of one side, then the other) or `alternate` (A1, B1, A2, B2, ...)."
    );
    /// Circuits that win outright; null: only counters decide.
    circuits_to_win: Option<u8> = None, lesson "winning", optional_count(1, Options::MAX_CIRCUITS_TO_WIN);
    /// When counters end the game.
    end_check: EndCheck = EndCheck::Immediate, lesson "winning", choice(
        "When counters end the game: `immediate` (the moment a side holds all) or `after_move` (Ludii: after the mover's move, if the other side holds none)."
    );
}

/// An option whose value is one of a closed set (a unit enum whose names
/// come from strum and serde alike).
trait Choice: serde::de::DeserializeOwned {}

/// How a field of [`OptionsPatch`] is read: a choice by its name, a count
/// as any whole JSON number (`12` or `12.0`, as JSON Schema's `integer`
/// allows; one beyond 64 bits is refused here, naming the number as sent,
/// and any other out of bounds fails its bounds later), and an
/// optional count with `null` meaning "off" (`Some(None)`), kept apart from
/// an absent field (`None`).
trait PatchField: Sized {
    fn read<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

fn patch_field<'de, D: serde::Deserializer<'de>, T: PatchField>(d: D) -> Result<T, D::Error> {
    T::read(d)
}

impl<T: Choice> PatchField for Option<T> {
    fn read<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Option::<T>::deserialize(d)
    }
}

/// A whole number of any JSON form.
struct Whole(i64);

impl<'de> Deserialize<'de> for Whole {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Whole;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Whole, E> {
                Ok(Whole(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Whole, E> {
                i64::try_from(v).map(Whole).map_err(|_| beyond(&v))
            }
            #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Whole, E> {
                if v.fract() == 0.0 {
                    // -2^63 <= v < 2^63: exact as an i64.
                    if v >= i64::MIN as f64 && v < -(i64::MIN as f64) {
                        Ok(Whole(v as i64))
                    } else {
                        // As JSON writes it: 1e20, not 100000000000000000000.
                        Err(beyond(&format_args!("{v:e}")))
                    }
                } else {
                    Err(E::custom(format!(
                        "invalid value: {v}, expected an integer"
                    )))
                }
            }
        }
        d.deserialize_any(Visit)
    }
}

/// A whole number too large for any option, named as sent.
fn beyond<E: serde::de::Error>(sent: &dyn std::fmt::Display) -> E {
    E::custom(format_args!(
        "must be an integer within the option's bounds, got {sent}"
    ))
}

impl PatchField for Option<i64> {
    fn read<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Option::<Whole>::deserialize(d).map(|w| w.map(|w| w.0))
    }
}

impl PatchField for Option<Option<i64>> {
    fn read<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Option::<Whole>::deserialize(d).map(|w| Some(w.map(|w| w.0)))
    }
}

/// A whole number within `min..=max`, as the option's type.
fn in_bounds(n: i64, min: u8, max: u8) -> Option<u8> {
    u8::try_from(n).ok().filter(|n| (min..=max).contains(n))
}

impl Options {
    /// Smallest allowed `counters_per_side`.
    pub const MIN_COUNTERS: u8 = 1;
    /// Largest allowed `counters_per_side` (30 counters in all).
    pub const MAX_COUNTERS: u8 = 15;
    /// Largest allowed `circuits_to_win`.
    pub const MAX_CIRCUITS_TO_WIN: u8 = 10;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Preset;
    use strum::VariantArray;

    /// An option left out of the patch would keep the other preset's
    /// value: the patch of a preset's options applied to any preset's gives
    /// the first preset's options back, every option included.
    #[test]
    fn a_presets_options_as_overrides_give_them_back_on_every_preset() {
        for from in Preset::VARIANTS {
            let patch = OptionsPatch::from(from.options());
            for onto in Preset::VARIANTS {
                assert_eq!(
                    patch.apply(onto.options()),
                    Ok(from.options()),
                    "{from:?} onto {onto:?}"
                );
            }
        }
    }
}
