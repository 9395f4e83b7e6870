//! Where throws come from when the server throws: a per-game seeded
//! generator, behind a trait so tests can script the throws.
//!
//! The generator is ChaCha20 (`rand_chacha`, a named and stable algorithm),
//! keyed by the SHA-256 of the game's seed string. Throw number `n` (1-based)
//! uses stream `n` of that key, so a throw depends only on the seed and its
//! number: the same seed gives the same throws across restarts, and no
//! generator state needs storing.

use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};

use crate::rules::{SpinnerSector, Sticks, Throw, ThrowTable};

/// A source of throws for a game.
pub trait ThrowSource {
    /// The throw for move number `n` (1-based) under `table`.
    fn throw(&mut self, table: ThrowTable, n: u32) -> Throw;
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

/// A fresh random seed for a game created without one: 128 bits from the
/// operating system's generator, as 32 hex digits.
#[must_use]
pub fn fresh_seed() -> String {
    let bytes: [u8; 16] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
