//! Where throws come from when the server throws: a per-game seeded
//! generator, behind a trait so tests can script the throws.
//!
//! The generator is ChaCha20 (`rand_chacha`, a named and stable algorithm),
//! keyed by the SHA-256 of the game's seed string. Throw number `n` (1-based)
//! uses stream `n` of that key, so a throw depends only on the seed and its
//! number: the same seed gives the same throws across restarts, and no
//! generator state needs storing.

use std::fmt;
use std::sync::{Mutex, PoisonError};

use rand::SeedableRng;
use rand::{Rng, RngExt};
use rand_chacha::{ChaCha8Rng, ChaCha20Rng};
use sha2::{Digest, Sha256};

use crate::rules::{SpinnerSector, Sticks, Throw, ThrowTable};

/// A source of throws for a game.
pub trait ThrowSource {
    /// The throw for move number `n` (1-based) under `table`.
    fn throw(&mut self, table: ThrowTable, n: u32) -> Throw;
}

/// Where the server's throws come from, for every game: chosen when the
/// service is built ([`FromSeed`] in the server, a [`ScriptedServerThrows`]
/// in a test that needs given throws).
pub trait ServerThrows: Send + Sync + fmt::Debug {
    /// The server's throw for move number `n` (1-based) of the game whose
    /// seed is `seed`, under `table`.
    fn throw(&self, seed: &str, table: ThrowTable, n: u32) -> Throw;
}

/// Every game's throws drawn from its seed by [`SeededThrows`]: the same
/// seed gives the same game, across restarts.
#[derive(Clone, Copy, Debug, Default)]
pub struct FromSeed;

impl ServerThrows for FromSeed {
    fn throw(&self, seed: &str, table: ThrowTable, n: u32) -> Throw {
        SeededThrows::new(seed).throw(table, n)
    }
}

/// Throws drawn from a game's seed (see the module docs).
#[derive(Clone)]
pub struct SeededThrows {
    key: [u8; 32],
}

impl SeededThrows {
    /// The throws of the game whose seed is `seed` (any string).
    #[must_use]
    pub fn new(seed: &str) -> Self {
        Self {
            key: Sha256::digest(seed.as_bytes()).into(),
        }
    }
}

impl ThrowSource for SeededThrows {
    fn throw(&mut self, table: ThrowTable, n: u32) -> Throw {
        let mut rng = ChaCha20Rng::from_seed(self.key);
        rng.set_stream(u64::from(n));
        if table.uses_sticks() {
            // Four fair sticks: one uniform configuration of 16.
            Throw::Sticks(Sticks::from_bits(rng.random_range(0..16u8)))
        } else {
            let sector = SpinnerSector::ALL[rng.random_range(0..SpinnerSector::ALL.len())];
            Throw::Spinner(sector)
        }
    }
}

/// A fast seeded stream of throws for simulations and benchmarks: one
/// ChaCha8 stream (`rand_chacha`, a named and stable algorithm) keyed by the
/// SHA-256 of the seed string, four bits a throw (sixteen throws from each
/// 64-bit draw; a spinner throw takes three bits, redrawn on 7, so each of
/// the seven sectors stays exactly 1/7).
///
/// [`SeededThrows`] sets up a ChaCha20 generator for every throw, so that a
/// game's throw `n` depends on its seed and `n` alone; that setup costs more
/// than playing the throw. A simulation needs no such random access, so this
/// source draws its throws in sequence instead. The same seed gives the same
/// stream, but not the same throws as [`SeededThrows`].
#[derive(Clone, Debug)]
pub struct StreamThrows {
    rng: ChaCha8Rng,
    bits: u64,
    left: u32,
}

impl StreamThrows {
    /// The stream of throws whose seed is `seed` (any string).
    #[must_use]
    pub fn new(seed: &str) -> Self {
        Self {
            rng: ChaCha8Rng::from_seed(Sha256::digest(seed.as_bytes()).into()),
            bits: 0,
            left: 0,
        }
    }

    /// `n` (at most 8) fresh random bits.
    #[inline]
    fn take(&mut self, n: u32) -> u8 {
        if self.left < n {
            self.bits = self.rng.next_u64();
            self.left = 64;
        }
        // Masked to at most 8 bits, so the cast is exact.
        let v = (self.bits & ((1 << n) - 1)) as u8;
        self.bits >>= n;
        self.left -= n;
        v
    }

    /// The next throw under `table`.
    // Always inlined into the simulations' loop, beside `rules::play_into`.
    #[inline(always)]
    pub fn next_throw(&mut self, table: ThrowTable) -> Throw {
        if table.uses_sticks() {
            Throw::Sticks(Sticks::from_bits(self.take(4)))
        } else {
            loop {
                let i = usize::from(self.take(3));
                if let Some(sector) = SpinnerSector::ALL.get(i) {
                    return Throw::Spinner(*sector);
                }
            }
        }
    }
}

impl ThrowSource for StreamThrows {
    fn throw(&mut self, table: ThrowTable, _n: u32) -> Throw {
        self.next_throw(table)
    }
}

/// A scripted throw source for tests and demonstrations: plays the given
/// throws in order, then repeats the last one.
///
/// # Panics
/// [`ThrowSource::throw`] panics when the script is empty.
#[derive(Clone, Debug)]
pub struct ScriptedThrows {
    script: Vec<Throw>,
    next: usize,
}

impl ScriptedThrows {
    /// A source that plays `script` in order.
    #[must_use]
    pub fn new(script: Vec<Throw>) -> Self {
        Self { script, next: 0 }
    }
}

impl ThrowSource for ScriptedThrows {
    fn throw(&mut self, _table: ThrowTable, _n: u32) -> Throw {
        let i = self.next.min(self.script.len().saturating_sub(1));
        self.next += 1;
        self.script[i]
    }
}

/// The server's throws given in order, whatever the game and its seed, as
/// [`ScriptedThrows`] plays them (the last one repeated once the script is
/// played): a test scripts the throws that make a move happen.
///
/// # Panics
/// [`ServerThrows::throw`] panics when the script is empty.
#[derive(Debug)]
pub struct ScriptedServerThrows(Mutex<ScriptedThrows>);

impl ScriptedServerThrows {
    /// The server throws `script`, in order.
    #[must_use]
    pub fn new(script: Vec<Throw>) -> Self {
        Self(Mutex::new(ScriptedThrows::new(script)))
    }
}

impl ServerThrows for ScriptedServerThrows {
    fn throw(&self, _seed: &str, table: ThrowTable, n: u32) -> Throw {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .throw(table, n)
    }
}
