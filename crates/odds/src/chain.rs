//! The chain cut into strongly connected components, and the work done on it.

use super::{A_WINS, B_WINS, OddsError, scratch, scratch_filled};

pub(super) fn components(n: usize, r: usize, next: &[u32]) -> Vec<u32> {
    const NONE: u32 = u32::MAX;
    let mut index = scratch_filled(n, NONE);
    let mut low = scratch_filled(n, 0u32);
    let mut on_stack = scratch_filled(n, false);
    let mut comp = scratch_filled(n, NONE);
    let mut stack: Vec<u32> = scratch(0);
    let mut calls: Vec<(u32, u8)> = scratch(0);
    let mut counter = 0u32;
    let mut done = 0u32;
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        calls.push((root as u32, 0));
        while let Some(&mut (v, ref mut k)) = calls.last_mut() {
            let v = v as usize;
            if usize::from(*k) < r {
                let t = next[v * r + usize::from(*k)];
                *k += 1;
                if t >= B_WINS || t as usize == v {
                    continue;
                }
                let t = t as usize;
                if index[t] == NONE {
                    index[t] = counter;
                    low[t] = counter;
                    counter += 1;
                    stack.push(t as u32);
                    on_stack[t] = true;
                    calls.push((t as u32, 0));
                } else if on_stack[t] {
                    low[v] = low[v].min(index[t]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(u, _)) = calls.last() {
                let u = u as usize;
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    comp[w as usize] = done;
                    if w as usize == v {
                        break;
                    }
                }
                done += 1;
            }
        }
    }
    comp
}

/// The chain in sweep order: each state's transitions within its own
/// component (`int_*`, as positions within the component) and to earlier
/// components (`ext_*`, as sweep positions), each with the index of its
/// throw result; the probability of winning for A at once; and one over
/// the probability of leaving the state (a forced pass that throws again
/// stays put, and is solved exactly).
pub(super) struct Chain {
    pub(super) to_a: Vec<f64>,
    pub(super) inv_keep: Vec<f64>,
    pub(super) int_start: Vec<u32>,
    pub(super) int_t: Vec<u32>,
    pub(super) int_k: Vec<u8>,
    pub(super) ext_start: Vec<u32>,
    pub(super) ext_t: Vec<u32>,
    pub(super) ext_k: Vec<u8>,
}

impl Chain {
    pub(super) fn new(
        probs: &[f64],
        next: &[u32],
        order: &[u32],
        rank: &[u32],
        bounds: &[usize],
    ) -> Result<Self, OddsError> {
        let n = order.len();
        let r = probs.len();
        // Count the edges first, so that each list is allocated once.
        let (mut ints, mut exts) = (0usize, 0usize);
        let mut comp = 0;
        for (pos, &id) in order.iter().enumerate() {
            while pos >= bounds[comp + 1] {
                comp += 1;
            }
            let id = id as usize;
            for &t in &next[id * r..(id + 1) * r] {
                if t < B_WINS && t as usize != id {
                    if rank[t as usize] as usize >= bounds[comp] {
                        ints += 1;
                    } else {
                        exts += 1;
                    }
                }
            }
        }
        let mut c = Self {
            to_a: scratch(n),
            inv_keep: scratch(n),
            int_start: scratch(n + 1),
            int_t: scratch(ints),
            int_k: scratch(ints),
            ext_start: scratch(n + 1),
            ext_t: scratch(exts),
            ext_k: scratch(exts),
        };
        c.int_start.push(0);
        c.ext_start.push(0);
        let mut comp = 0;
        for (pos, &id) in order.iter().enumerate() {
            while pos >= bounds[comp + 1] {
                comp += 1;
            }
            // lo < n <= MAX_STATES fits in u32.
            let lo = bounds[comp] as u32;
            let id = id as usize;
            let mut to_a = 0f64;
            let mut stay = 0f64;
            for (k, &t) in next[id * r..(id + 1) * r].iter().enumerate() {
                // A throw table has at most 16 results, so k fits.
                let kk = k as u8;
                match t {
                    A_WINS => to_a += probs[k],
                    B_WINS => {}
                    t if t as usize == id => stay += probs[k],
                    t => {
                        let p = rank[t as usize];
                        if p >= lo {
                            c.int_t.push(p - lo);
                            c.int_k.push(kk);
                        } else {
                            c.ext_t.push(p);
                            c.ext_k.push(kk);
                        }
                    }
                }
            }
            let keep = 1.0 - stay;
            if keep <= 0.0 {
                // A state that never moves on: impossible in an absorbing
                // chain, so a defect.
                return Err(OddsError::NoConvergence { sweeps: 0 });
            }
            c.to_a.push(to_a);
            c.inv_keep.push(1.0 / keep);
            // Fewer edges than n * r <= MAX_STATES * 16: fits in u32.
            c.int_start.push(c.int_t.len() as u32);
            c.ext_start.push(c.ext_t.len() as u32);
        }
        Ok(c)
    }

    /// One Gauss-Seidel sweep of the whole chain in order, updating both
    /// values; returns the largest change of a probability and of an
    /// expected throw count (relative to its value).
    pub(super) fn sweep_all(
        &self,
        probs: &[f64],
        bounds: &[usize],
        win_a: &mut [f64],
        throws: &mut [f64],
    ) -> (f64, f64) {
        let mut dp = 0f64;
        let mut de = 0f64;
        for w in bounds.windows(2) {
            let lo = w[0];
            for i in w[0]..w[1] {
                let (mut p, mut e) = (self.to_a[i], 1.0);
                for k in self.ext_start[i] as usize..self.ext_start[i + 1] as usize {
                    let q = probs[usize::from(self.ext_k[k])];
                    let t = self.ext_t[k] as usize;
                    p += q * win_a[t];
                    e += q * throws[t];
                }
                for k in self.int_start[i] as usize..self.int_start[i + 1] as usize {
                    let q = probs[usize::from(self.int_k[k])];
                    let t = lo + self.int_t[k] as usize;
                    p += q * win_a[t];
                    e += q * throws[t];
                }
                let (p, e) = (p * self.inv_keep[i], e * self.inv_keep[i]);
                dp = dp.max((p - win_a[i]).abs());
                de = de.max((e - throws[i]).abs() / e.max(1.0));
                win_a[i] = p;
                throws[i] = e;
            }
        }
        (dp, de)
    }
}

/// What a solve has done so far, and whether to go on.
pub(super) struct Work<'c> {
    /// States updated, over every sweep.
    pub(super) updates: u64,
    pub(super) cancelled: &'c dyn Fn() -> bool,
}

impl Work<'_> {
    pub(super) fn check(&self) -> Result<(), OddsError> {
        if (self.cancelled)() {
            Err(OddsError::Cancelled)
        } else {
            Ok(())
        }
    }
}
