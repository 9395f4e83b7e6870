//! A move as the log keeps it: the throw, its score, the events it caused,
//! the state after it and the narration's plan (the rules told, each in
//! full or briefly, and the context fact), in a small binary form of a few
//! dozen bytes. No text is kept: the narration is rendered again when the
//! move is read ([`LoggedMove::record`]), for the game's audience, and reads
//! exactly as it did when the move was played.
//!
//! The form, version 1 (every integer a byte unless it says varint, an
//! unsigned LEB128; a side is 0 for A, 1 for B):
//!
//! ```text
//! version (1) · flags (bit 0 reported, bit 1 throws again, bit 2 spinner)
//! · seat side · seat player · throw (the sticks' bits, or the spinner's
//! sector) · value · probability numerator, denominator (varints)
//! · from · to
//! · state: awls A, B · counters A, B · circuits A, B (varints) · turn
//!   (varint) · flags (bit 0 extra throw, bit 1 A forfeits, bit 2 B
//!   forfeits, bit 3 won, bit 4 drawn, bit 5 the winner is B) · throws
//!   (varint)
//! · events: count (varint), each a tag and its fields
//! · rules: count (varint), each its id (varint length, UTF-8) and brief
//!   (0 or 1)
//! · fact: 0, or 1 and its id (varint length, UTF-8)
//! ```

use crate::narration::{self, MoveContext};
use crate::rules::{
    CounterReason, Creek, Event, GameState, Odds, Outcome, Score, Seat, Side, SpinnerSector,
    Sticks, Throw, WinReason,
};
use crate::{MoveRecord, Setup, ThrowOrigin};

/// The form's version, its first byte.
const VERSION: u8 = 1;

/// A move of the log: everything of a [`MoveRecord`] but the narration's
/// text, with the narration's plan instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedMove {
    /// Who threw.
    pub seat: Seat,
    /// Server or reported.
    pub origin: ThrowOrigin,
    /// The throw.
    pub throw: Throw,
    /// Its score.
    pub score: Score,
    /// The mover's awl before.
    pub from: u8,
    /// The mover's awl after.
    pub to: u8,
    /// What happened.
    pub events: Vec<Event>,
    /// The state after the move.
    pub state: GameState,
    /// The rules its narration told, each with whether it was brief.
    pub rules: Vec<(String, bool)>,
    /// The context fact its narration told.
    pub fact: Option<String>,
}

impl LoggedMove {
    /// The log's form of a move as played.
    #[must_use]
    pub fn of(record: &MoveRecord) -> Self {
        let (rules, fact) = narration::plan_of(&record.narration);
        Self {
            seat: record.seat,
            origin: record.origin,
            throw: record.throw,
            score: record.score,
            from: record.from,
            to: record.to,
            events: record.events.clone(),
            state: record.state.clone(),
            rules,
            fact,
        }
    }

    /// Move `n` as read: its narration rendered for the game's audience
    /// from the plan (it carries no memory of the rules stated so far; the
    /// game row keeps that).
    #[must_use]
    pub fn record(self, n: u32, setup: &Setup) -> MoveRecord {
        let cast = setup.cast();
        let narration = narration::narrate_planned(
            &MoveContext {
                options: &setup.options,
                cast: &cast,
                audience: setup.audience,
                detail: crate::narration::Detail::Lesson,
                move_number: n,
                from: self.from,
                to: self.to,
                other_awl: self.state.awl(self.seat.side.other()),
                seat: self.seat,
                throw: &self.throw,
                score: &self.score,
                events: &self.events,
                told: &[],
                previous: None,
            },
            &self.rules,
            self.fact.as_deref(),
        );
        MoveRecord {
            n,
            seat: self.seat,
            origin: self.origin,
            throw: self.throw,
            score: self.score,
            from: self.from,
            to: self.to,
            events: self.events,
            narration,
            state: self.state,
        }
    }

    /// The bytes kept.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(64));
        w.byte(VERSION);
        let (spinner, throw) = match self.throw {
            Throw::Sticks(s) => (false, s.bits()),
            Throw::Spinner(sector) => (true, u8::try_from(sector.index()).unwrap_or(u8::MAX)),
        };
        w.byte(
            u8::from(self.origin == ThrowOrigin::Reported)
                | u8::from(self.score.throws_again) << 1
                | u8::from(spinner) << 2,
        );
        w.seat(self.seat);
        w.byte(throw);
        w.byte(self.score.value);
        w.varint(u64::from(self.score.probability.numerator));
        w.varint(u64::from(self.score.probability.denominator));
        w.byte(self.from);
        w.byte(self.to);
        w.state(&self.state);
        w.varint(self.events.len() as u64);
        for event in &self.events {
            w.event(event);
        }
        w.varint(self.rules.len() as u64);
        for (rule, brief) in &self.rules {
            w.text(rule);
            w.byte(u8::from(*brief));
        }
        match &self.fact {
            Some(fact) => {
                w.byte(1);
                w.text(fact);
            }
            None => w.byte(0),
        }
        w.0
    }

    /// Read the bytes kept.
    ///
    /// # Errors
    /// A description of what is wrong with them.
    pub fn decode(bytes: &[u8]) -> Result<Self, String> {
        let mut r = Reader { bytes, at: 0 };
        let version = r.byte()?;
        if version != VERSION {
            return Err(format!("a logged move of version {version}"));
        }
        let flags = r.byte()?;
        let seat = r.seat()?;
        let throw_byte = r.byte()?;
        let throw = if flags & 4 == 0 {
            if throw_byte > 0x0f {
                return Err(format!("sticks {throw_byte:#x}"));
            }
            Throw::Sticks(Sticks::from_bits(throw_byte))
        } else {
            Throw::Spinner(
                *SpinnerSector::ALL
                    .get(usize::from(throw_byte))
                    .ok_or_else(|| format!("spinner sector {throw_byte}"))?,
            )
        };
        let value = r.byte()?;
        let numerator = r.u32()?;
        let denominator = r.u32()?;
        if denominator == 0 {
            return Err("a probability over 0".to_owned());
        }
        let score = Score {
            value,
            throws_again: flags & 2 != 0,
            probability: Odds {
                numerator,
                denominator,
            },
        };
        let from = r.byte()?;
        let to = r.byte()?;
        let state = r.state()?;
        let count = r.len()?;
        let mut events = Vec::with_capacity(count.min(64));
        for _ in 0..count {
            events.push(r.event()?);
        }
        let count = r.len()?;
        let mut rules = Vec::with_capacity(count.min(16));
        for _ in 0..count {
            let rule = r.text()?;
            rules.push((rule, r.flag()?));
        }
        let fact = if r.flag()? { Some(r.text()?) } else { None };
        if r.at != bytes.len() {
            return Err(format!("{} bytes after a logged move", bytes.len() - r.at));
        }
        Ok(Self {
            seat,
            origin: if flags & 1 == 0 {
                ThrowOrigin::Server
            } else {
                ThrowOrigin::Reported
            },
            throw,
            score,
            from,
            to,
            events,
            state,
            rules,
            fact,
        })
    }
}

mod read;
mod write;

use read::Reader;
use write::Writer;

#[cfg(test)]
mod tests;
