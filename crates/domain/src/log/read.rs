//! Reading a move's binary form back.

use super::*;

pub(super) struct Reader<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
}

impl Reader<'_> {
    pub(super) fn byte(&mut self) -> Result<u8, String> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| "a logged move cut short".to_owned())?;
        self.at += 1;
        Ok(b)
    }

    pub(super) fn flag(&mut self) -> Result<bool, String> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(format!("flag {b}")),
        }
    }

    pub(super) fn varint(&mut self) -> Result<u64, String> {
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

    pub(super) fn u32(&mut self) -> Result<u32, String> {
        u32::try_from(self.varint()?).map_err(|e| e.to_string())
    }

    pub(super) fn u16(&mut self) -> Result<u16, String> {
        u16::try_from(self.varint()?).map_err(|e| e.to_string())
    }

    pub(super) fn len(&mut self) -> Result<usize, String> {
        let n = usize::try_from(self.varint()?).map_err(|e| e.to_string())?;
        if n > self.bytes.len() {
            return Err(format!("a count of {n}"));
        }
        Ok(n)
    }

    pub(super) fn text(&mut self) -> Result<String, String> {
        let n = self.len()?;
        let end = self.at + n;
        let bytes = self
            .bytes
            .get(self.at..end)
            .ok_or_else(|| "a logged move cut short".to_owned())?;
        self.at = end;
        String::from_utf8(bytes.to_vec()).map_err(|e| e.to_string())
    }

    pub(super) fn side(&mut self) -> Result<Side, String> {
        match self.byte()? {
            0 => Ok(Side::A),
            1 => Ok(Side::B),
            b => Err(format!("side {b}")),
        }
    }

    pub(super) fn seat(&mut self) -> Result<Seat, String> {
        let side = self.side()?;
        Ok(Seat {
            side,
            player: self.byte()?,
        })
    }

    pub(super) fn state(&mut self) -> Result<GameState, String> {
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

    pub(super) fn event(&mut self) -> Result<Event, String> {
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

    pub(super) fn reason(&mut self) -> Result<CounterReason, String> {
        match self.byte()? {
            0 => Ok(CounterReason::Circuit),
            1 => Ok(CounterReason::Whip),
            2 => Ok(CounterReason::CreekFall),
            b => Err(format!("counter reason {b}")),
        }
    }
}
