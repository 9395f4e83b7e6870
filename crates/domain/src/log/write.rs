//! Writing a move's binary form.

use super::*;

pub(super) struct Writer(pub(super) Vec<u8>);

pub(super) fn side_byte(side: Side) -> u8 {
    match side {
        Side::A => 0,
        Side::B => 1,
    }
}

pub(super) fn creek_byte(creek: Creek) -> u8 {
    match creek {
        Creek::North => 0,
        Creek::South => 1,
    }
}

pub(super) fn reason_byte(reason: CounterReason) -> u8 {
    match reason {
        CounterReason::Circuit => 0,
        CounterReason::Whip => 1,
        CounterReason::CreekFall => 2,
    }
}

pub(super) fn win_byte(reason: WinReason) -> u8 {
    match reason {
        WinReason::AllCounters => 0,
        WinReason::Circuits => 1,
        WinReason::Stopped => 2,
    }
}

impl Writer {
    pub(super) fn byte(&mut self, b: u8) {
        self.0.push(b);
    }

    pub(super) fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }

    pub(super) fn text(&mut self, s: &str) {
        self.varint(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }

    pub(super) fn side(&mut self, side: Side) {
        self.byte(side_byte(side));
    }

    pub(super) fn seat(&mut self, seat: Seat) {
        self.side(seat.side);
        self.byte(seat.player);
    }

    pub(super) fn state(&mut self, s: &GameState) {
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

    pub(super) fn event(&mut self, event: &Event) {
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
