//! The forms the one list of options is described in: what the API and
//! the command line document of each option ([`OptionSpec`]), a bound
//! refused ([`OptionError`]), and the values a condition fits ([`AnyOf`]).

use serde::Serialize;

/// The values of one option that a condition fits, written as the API
/// writes the option: one value (`"sticks_sahe"`) or a list of them
/// (`["sticks_sahe", "sticks_count"]`). Never empty: an empty list would fit
/// no game. How it is read from data lives with the data
/// (`narration/catalogue.rs`).
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

/// One option as the API and the command line document it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Its name, as written in the API and (with hyphens) on the command line.
    pub name: &'static str,
    /// One line saying what it does.
    pub description: &'static str,
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
