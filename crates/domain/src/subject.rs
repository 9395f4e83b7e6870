//! What an answer kept under an idempotency key is about: the game, move or
//! class it made or changed. The service answers in these terms; each
//! surface builds its own headers and links from them (HTTP's `Location`
//! and `ETag`), and the store keeps them beside the sealed answer in the
//! text form below.

use std::fmt;

use crate::{ClassId, GameId, Version};

/// What an answer is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// A game at a version: its creation, or its stop.
    Game {
        /// The game.
        id: GameId,
        /// Its version after the request.
        version: Version,
    },
    /// A move: the throw that played it, and the game's version after it.
    Move {
        /// The game.
        id: GameId,
        /// Its version after the move.
        version: Version,
        /// The move's number, from 1.
        n: u32,
    },
    /// A class: its creation (a class has no version).
    Class(ClassId),
}

/// A kept subject's text that names no subject.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not an answer's subject: `game ID VERSION`, `move ID VERSION N` or `class ID`")]
pub struct BadSubject;

impl Subject {
    /// The game it is about (`None` for a class).
    #[must_use]
    pub fn game(self) -> Option<GameId> {
        match self {
            Self::Game { id, .. } | Self::Move { id, .. } => Some(id),
            Self::Class(_) => None,
        }
    }

    /// The game's version after the request (`None` for a class).
    #[must_use]
    pub fn version(self) -> Option<Version> {
        match self {
            Self::Game { version, .. } | Self::Move { version, .. } => Some(version),
            Self::Class(_) => None,
        }
    }

    /// Parse the text form [`fmt::Display`] writes.
    ///
    /// # Errors
    /// [`BadSubject`] for anything else.
    pub fn parse(text: &str) -> Result<Self, BadSubject> {
        let version = |v: &str| {
            v.parse::<u32>()
                .ok()
                .filter(|_| v.bytes().all(|b| b.is_ascii_digit()))
                .map(Version::new)
                .ok_or(BadSubject)
        };
        let game = |id: &str| GameId::parse(id).map_err(|_| BadSubject);
        let parts: Vec<&str> = text.split(' ').collect();
        match parts.as_slice() {
            ["game", id, v] => Ok(Self::Game {
                id: game(id)?,
                version: version(v)?,
            }),
            ["move", id, v, n] => Ok(Self::Move {
                id: game(id)?,
                version: version(v)?,
                n: version(n)?.get(),
            }),
            ["class", id] => ClassId::parse(id).map(Self::Class).map_err(|_| BadSubject),
            _ => Err(BadSubject),
        }
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Game { id, version } => write!(f, "game {id} {version}"),
            Self::Move { id, version, n } => write!(f, "move {id} {version} {n}"),
            Self::Class(id) => write!(f, "class {id}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_subject_reads_back_from_its_text() {
        let id = GameId::new();
        for subject in [
            Subject::Game {
                id,
                version: Version::new(0),
            },
            Subject::Move {
                id,
                version: Version::new(12),
                n: 12,
            },
            Subject::Class(ClassId::new()),
        ] {
            assert_eq!(Subject::parse(&subject.to_string()), Ok(subject));
        }
    }

    #[test]
    fn text_that_names_no_subject_is_refused() {
        let id = GameId::new();
        for text in [
            String::new(),
            format!("game {id}"),
            format!("game {id} +3"),
            format!("move {id} 3"),
            format!("class {id} 3"),
            format!("/v1/games/{id}"),
            "game not-an-id 3".to_owned(),
        ] {
            assert_eq!(Subject::parse(&text), Err(BadSubject), "{text}");
        }
    }
}
