//! The forms the one list of options is described in: what the API and
//! the command line document of each option ([`OptionSpec`]), a bound
//! refused ([`OptionError`]), and the values a condition fits ([`AnyOf`]).

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, IntoDeserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

/// The values of one option that a condition fits, written as the API
/// writes the option: one value (`"sticks_sahe"`) or a list of them
/// (`["sticks_sahe", "sticks_count"]`). Never empty: an empty list would fit
/// no game. Read from data (a fact's `when`) as the API writes an option:
/// one value or a list; an unknown value names the allowed ones, and an
/// empty list fails the load.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct AnyOf<T>(Vec<T>);

impl<T> AnyOf<T> {
    /// The values, or `None` for an empty list (which would fit no game).
    #[must_use]
    pub fn new(values: Vec<T>) -> Option<Self> {
        (!values.is_empty()).then_some(Self(values))
    }
}

impl<T: PartialEq> AnyOf<T> {
    /// Whether `value` is one of the values.
    #[must_use]
    pub fn contains(&self, value: &T) -> bool {
        self.0.contains(value)
    }

    /// The values, as written.
    #[must_use]
    pub fn values(&self) -> &[T] {
        &self.0
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for AnyOf<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let values = deserializer.deserialize_any(OneOrMany(PhantomData))?;
        AnyOf::new(values).ok_or_else(|| de::Error::custom("an empty list of values fits no game"))
    }
}

/// Reads one value, or a list of values, of an option.
struct OneOrMany<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for OneOrMany<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value of the option, or a list of them")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut values = Vec::new();
        while let Some(value) = seq.next_element()? {
            values.push(value);
        }
        Ok(values)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<T>, E> {
        T::deserialize(Scalar(v.into_deserializer())).map(|t| vec![t])
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Vec<T>, E> {
        T::deserialize(Scalar(v.into_deserializer())).map(|t| vec![t])
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Vec<T>, E> {
        T::deserialize(Scalar(v.into_deserializer())).map(|t| vec![t])
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Vec<T>, E> {
        T::deserialize(Scalar(v.into_deserializer())).map(|t| vec![t])
    }

    /// `null`: an optional count that is off.
    fn visit_unit<E: de::Error>(self) -> Result<Vec<T>, E> {
        T::deserialize(().into_deserializer()).map(|t| vec![t])
    }
}

/// One scalar of a condition read as a value of the option: a name for a
/// choice, a number for a count, and `Some` of it for an optional count.
struct Scalar<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Scalar<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        visitor.visit_some(self.0)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// One option as the API and the command line document it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Its name, as written in the API and (with hyphens) on the command line.
    pub name: &'static str,
    /// One line saying what it does.
    pub description: &'static str,
    /// The id of the lesson's section that teaches it (the narration's
    /// `Section::id`: `board`, `sticks`, `turn`, `north_creek`, `home`,
    /// `whip`, `dry_branches`, `winning`, `stopping`), declared with the
    /// option; a value other than the composite's has its departure
    /// sentence there.
    pub lesson: &'static str,
    /// Its values.
    pub kind: OptionKind,
}

/// The values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// One of a closed set of names.
    Choice {
        /// The Rust type's name (`Board`), which is also its schema's name.
        type_name: &'static str,
        /// One sentence saying what each value does: the type's
        /// description in the API.
        description: &'static str,
        /// Every value, as written in the API.
        values: &'static [&'static str],
        /// The default's name.
        default: &'static str,
    },
    /// A whole number within bounds.
    Count {
        /// Smallest allowed.
        min: u8,
        /// Largest allowed.
        max: u8,
        /// The default (`None`: off).
        default: Option<u8>,
        /// Whether `null` (off) is allowed.
        nullable: bool,
    },
}

/// An option value out of its bounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{option} must be an integer from {min} to {max}, got {got}")]
pub struct OptionError {
    /// The option's name.
    pub option: &'static str,
    /// Smallest allowed.
    pub min: u8,
    /// Largest allowed.
    pub max: u8,
    /// What was given.
    pub got: i64,
}

impl OptionError {
    pub(super) const fn new(option: &'static str, min: u8, max: u8, got: i64) -> Self {
        Self {
            option,
            min,
            max,
            got,
        }
    }
}
