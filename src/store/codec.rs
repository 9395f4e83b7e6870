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

use crate::domain::{MoveRecord, Setup, ThrowOrigin};
use crate::narration::{self, MoveContext};
use crate::rules::{
    CounterReason, Creek, Event, GameState, Odds, Outcome, Score, Seat, Side, SpinnerSector,
    Sticks, Throw, WinReason,
};

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
                move_number: n,
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

struct Writer(Vec<u8>);

fn side_byte(side: Side) -> u8 {
    match side {
        Side::A => 0,
        Side::B => 1,
    }
}

fn creek_byte(creek: Creek) -> u8 {
    match creek {
        Creek::North => 0,
        Creek::South => 1,
    }
}

fn reason_byte(reason: CounterReason) -> u8 {
    match reason {
        CounterReason::Circuit => 0,
        CounterReason::Whip => 1,
        CounterReason::CreekFall => 2,
    }
}

fn win_byte(reason: WinReason) -> u8 {
    match reason {
        WinReason::AllCounters => 0,
        WinReason::Circuits => 1,
        WinReason::Stopped => 2,
    }
}

impl Writer {
    fn byte(&mut self, b: u8) {
        self.0.push(b);
    }

    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }

    fn text(&mut self, s: &str) {
        self.varint(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }

    fn side(&mut self, side: Side) {
        self.byte(side_byte(side));
    }

    fn seat(&mut self, seat: Seat) {
        self.side(seat.side);
        self.byte(seat.player);
    }

    fn state(&mut self, s: &GameState) {
        self.byte(s.awls[0]);
        self.byte(s.awls[1]);
        self.byte(s.counters[0]);
        self.byte(s.counters[1]);
        self.varint(u64::from(s.circuits[0]));
        self.varint(u64::from(s.circuits[1]));
        self.varint(u64::from(s.turn));
        let outcome = match s.outcome {
            None => 0,
            Some(Outcome::Won { side: Side::A }) => 8,
            Some(Outcome::Won { side: Side::B }) => 8 | 32,
            Some(Outcome::Draw) => 16,
        };
        self.byte(
            u8::from(s.extra_throw)
                | u8::from(s.forfeits[0]) << 1
                | u8::from(s.forfeits[1]) << 2
                | outcome,
        );
        self.varint(u64::from(s.throws));
    }

    fn event(&mut self, event: &Event) {
        match *event {
            Event::Moved {
                side,
                from,
                to,
                steps,
            } => {
                self.byte(0);
                self.side(side);
                self.byte(from);
                self.byte(to);
                self.byte(steps);
            }
            Event::PassedNorthCreek { side } => {
                self.byte(1);
                self.side(side);
            }
            Event::CompletedCircuit {
                side,
                circuits,
                exact,
            } => {
                self.byte(2);
                self.side(side);
                self.varint(u64::from(circuits));
                self.byte(u8::from(exact));
            }
            Event::FellIntoCreek { side, creek, space } => {
                self.byte(3);
                self.side(side);
                self.byte(creek_byte(creek));
                self.byte(space);
            }
            Event::Whipped {
                side,
                victim,
                space,
            } => {
                self.byte(4);
                self.side(side);
                self.side(victim);
                self.byte(space);
            }
            Event::CounterPaid {
                payer,
                payee,
                reason,
                counters,
            } => {
                self.byte(5);
                self.side(payer);
                self.side(payee);
                self.byte(reason_byte(reason));
                self.byte(counters[0]);
                self.byte(counters[1]);
            }
            Event::CounterUnpaid {
                payer,
                payee,
                reason,
            } => {
                self.byte(6);
                self.side(payer);
                self.side(payee);
                self.byte(reason_byte(reason));
            }
            Event::ForcedPass { side, value } => {
                self.byte(7);
                self.side(side);
                self.byte(value);
            }
            Event::LandedOnDryBranch { side, space } => {
                self.byte(8);
                self.side(side);
                self.byte(space);
            }
            Event::LostThrow {
                side,
                space,
                extra_throw_lost,
            } => {
                self.byte(9);
                self.side(side);
                self.byte(space);
                self.byte(u8::from(extra_throw_lost));
            }
            Event::CrossedDryBranch { side, from, to } => {
                self.byte(10);
                self.side(side);
                self.byte(from);
                self.byte(to);
            }
            Event::TurnSkipped { seat } => {
                self.byte(11);
                self.seat(seat);
            }
            Event::ThrowsAgain { seat } => {
                self.byte(12);
                self.seat(seat);
            }
            Event::TurnPassed { seat } => {
                self.byte(13);
                self.seat(seat);
            }
            Event::Won { side, reason } => {
                self.byte(14);
                self.side(side);
                self.byte(win_byte(reason));
            }
            Event::Drawn => self.byte(15),
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| "a logged move cut short".to_owned())?;
        self.at += 1;
        Ok(b)
    }

    fn flag(&mut self) -> Result<bool, String> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(format!("flag {b}")),
        }
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("a varint too long".to_owned())
    }

    fn u32(&mut self) -> Result<u32, String> {
        u32::try_from(self.varint()?).map_err(|e| e.to_string())
    }

    fn u16(&mut self) -> Result<u16, String> {
        u16::try_from(self.varint()?).map_err(|e| e.to_string())
    }

    fn len(&mut self) -> Result<usize, String> {
        let n = usize::try_from(self.varint()?).map_err(|e| e.to_string())?;
        if n > self.bytes.len() {
            return Err(format!("a count of {n}"));
        }
        Ok(n)
    }

    fn text(&mut self) -> Result<String, String> {
        let n = self.len()?;
        let end = self.at + n;
        let bytes = self
            .bytes
            .get(self.at..end)
            .ok_or_else(|| "a logged move cut short".to_owned())?;
        self.at = end;
        String::from_utf8(bytes.to_vec()).map_err(|e| e.to_string())
    }

    fn side(&mut self) -> Result<Side, String> {
        match self.byte()? {
            0 => Ok(Side::A),
            1 => Ok(Side::B),
            b => Err(format!("side {b}")),
        }
    }

    fn seat(&mut self) -> Result<Seat, String> {
        let side = self.side()?;
        Ok(Seat {
            side,
            player: self.byte()?,
        })
    }

    fn state(&mut self) -> Result<GameState, String> {
        let awls = [self.byte()?, self.byte()?];
        let counters = [self.byte()?, self.byte()?];
        let circuits = [self.u16()?, self.u16()?];
        let turn = self.u16()?;
        let flags = self.byte()?;
        let outcome = match (flags & 8 != 0, flags & 16 != 0) {
            (false, false) => None,
            (true, false) => Some(Outcome::Won {
                side: if flags & 32 == 0 { Side::A } else { Side::B },
            }),
            (false, true) => Some(Outcome::Draw),
            (true, true) => return Err("won and drawn".to_owned()),
        };
        Ok(GameState {
            awls,
            counters,
            circuits,
            turn,
            extra_throw: flags & 1 != 0,
            forfeits: [flags & 2 != 0, flags & 4 != 0],
            throws: self.u32()?,
            outcome,
        })
    }

    fn event(&mut self) -> Result<Event, String> {
        let side = |r: &mut Self| r.side();
        Ok(match self.byte()? {
            0 => Event::Moved {
                side: side(self)?,
                from: self.byte()?,
                to: self.byte()?,
                steps: self.byte()?,
            },
            1 => Event::PassedNorthCreek { side: side(self)? },
            2 => Event::CompletedCircuit {
                side: side(self)?,
                circuits: self.u16()?,
                exact: self.flag()?,
            },
            3 => Event::FellIntoCreek {
                side: side(self)?,
                creek: match self.byte()? {
                    0 => Creek::North,
                    1 => Creek::South,
                    b => return Err(format!("creek {b}")),
                },
                space: self.byte()?,
            },
            4 => Event::Whipped {
                side: side(self)?,
                victim: side(self)?,
                space: self.byte()?,
            },
            5 => Event::CounterPaid {
                payer: side(self)?,
                payee: side(self)?,
                reason: self.reason()?,
                counters: [self.byte()?, self.byte()?],
            },
            6 => Event::CounterUnpaid {
                payer: side(self)?,
                payee: side(self)?,
                reason: self.reason()?,
            },
            7 => Event::ForcedPass {
                side: side(self)?,
                value: self.byte()?,
            },
            8 => Event::LandedOnDryBranch {
                side: side(self)?,
                space: self.byte()?,
            },
            9 => Event::LostThrow {
                side: side(self)?,
                space: self.byte()?,
                extra_throw_lost: self.flag()?,
            },
            10 => Event::CrossedDryBranch {
                side: side(self)?,
                from: self.byte()?,
                to: self.byte()?,
            },
            11 => Event::TurnSkipped { seat: self.seat()? },
            12 => Event::ThrowsAgain { seat: self.seat()? },
            13 => Event::TurnPassed { seat: self.seat()? },
            14 => Event::Won {
                side: side(self)?,
                reason: match self.byte()? {
                    0 => WinReason::AllCounters,
                    1 => WinReason::Circuits,
                    2 => WinReason::Stopped,
                    b => return Err(format!("win reason {b}")),
                },
            },
            15 => Event::Drawn,
            tag => return Err(format!("event tag {tag}")),
        })
    }

    fn reason(&mut self) -> Result<CounterReason, String> {
        match self.byte()? {
            0 => Ok(CounterReason::Circuit),
            1 => Ok(CounterReason::Whip),
            2 => Ok(CounterReason::CreekFall),
            b => Err(format!("counter reason {b}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_event() -> Vec<Event> {
        let seat = Seat {
            side: Side::B,
            player: 3,
        };
        vec![
            Event::Moved {
                side: Side::A,
                from: 1,
                to: 40,
                steps: 10,
            },
            Event::PassedNorthCreek { side: Side::B },
            Event::CompletedCircuit {
                side: Side::A,
                circuits: 300,
                exact: true,
            },
            Event::FellIntoCreek {
                side: Side::B,
                creek: Creek::South,
                space: 40,
            },
            Event::Whipped {
                side: Side::A,
                victim: Side::B,
                space: 17,
            },
            Event::CounterPaid {
                payer: Side::B,
                payee: Side::A,
                reason: CounterReason::CreekFall,
                counters: [13, 1],
            },
            Event::CounterUnpaid {
                payer: Side::A,
                payee: Side::B,
                reason: CounterReason::Whip,
            },
            Event::ForcedPass {
                side: Side::A,
                value: 6,
            },
            Event::LandedOnDryBranch {
                side: Side::B,
                space: 11,
            },
            Event::LostThrow {
                side: Side::A,
                space: 30,
                extra_throw_lost: true,
            },
            Event::CrossedDryBranch {
                side: Side::B,
                from: 11,
                to: 31,
            },
            Event::TurnSkipped { seat },
            Event::ThrowsAgain { seat },
            Event::TurnPassed { seat },
            Event::Won {
                side: Side::B,
                reason: WinReason::Stopped,
            },
            Event::Drawn,
        ]
    }

    fn logged(events: Vec<Event>, outcome: Option<Outcome>) -> LoggedMove {
        LoggedMove {
            seat: Seat {
                side: Side::B,
                player: 7,
            },
            origin: ThrowOrigin::Reported,
            throw: Throw::Spinner(SpinnerSector::ALL[6]),
            score: Score {
                value: 10,
                throws_again: true,
                probability: Odds::new(5, 1024),
            },
            from: 39,
            to: 4,
            events,
            state: GameState {
                awls: [40, 2],
                counters: [0, 14],
                circuits: [1, 999],
                turn: 70_000u32.try_into().unwrap_or(u16::MAX),
                extra_throw: true,
                forfeits: [false, true],
                throws: 1_000_000,
                outcome,
            },
            rules: vec![
                ("dry_branch_lose_throw".to_owned(), true),
                (String::new(), false),
            ],
            fact: Some("sticks_made_of_wood".to_owned()),
        }
    }

    #[test]
    fn every_event_and_outcome_reads_back_as_written() {
        for outcome in [
            None,
            Some(Outcome::Won { side: Side::A }),
            Some(Outcome::Won { side: Side::B }),
            Some(Outcome::Draw),
        ] {
            let m = logged(every_event(), outcome);
            assert_eq!(LoggedMove::decode(&m.encode()), Ok(m));
        }
        let mut m = logged(Vec::new(), None);
        m.fact = None;
        m.rules.clear();
        m.throw = Throw::Sticks(Sticks::from_bits(0b1010));
        m.origin = ThrowOrigin::Server;
        assert_eq!(LoggedMove::decode(&m.encode()), Ok(m));
    }

    #[test]
    fn cut_or_padded_bytes_are_refused_not_misread() {
        let bytes = logged(every_event(), None).encode();
        for end in 0..bytes.len() {
            assert!(LoggedMove::decode(&bytes[..end]).is_err(), "cut at {end}");
        }
        let mut padded = bytes.clone();
        padded.push(0);
        assert!(LoggedMove::decode(&padded).is_err());
        let mut other = bytes;
        other[0] = 2;
        assert!(LoggedMove::decode(&other).is_err());
    }
}
