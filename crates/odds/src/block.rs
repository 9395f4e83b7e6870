//! One component solved: plain sweeps by layer, and restarted GMRES on the
//! preconditioned fixed point.

use super::chain::Work;
use super::{
    KRYLOV_BYTES, KRYLOV_DIM, MAX_SWEEPS, OddsError, PLAIN_SWEEPS, PRECONDITIONER_ROUNDS, SLOW,
    TOLERANCE,
};

/// One component: `x = inv_keep · (b + Σ q · x[t])` over its own states,
/// the values of the components it leads to being folded into `b`.
pub(super) struct Block<'a> {
    pub(super) layers: Vec<usize>,
    pub(super) start: &'a [u32],
    pub(super) t: &'a [u32],
    pub(super) k: &'a [u8],
    pub(super) inv_keep: &'a [f64],
    pub(super) probs: &'a [f64],
}

impl Block<'_> {
    pub(super) fn len(&self) -> usize {
        self.inv_keep.len()
    }

    /// The new value of state `i`, from the constant term `c` and the
    /// current values.
    #[inline(always)]
    pub(super) fn row(&self, i: usize, c: f64, x: &[f64]) -> f64 {
        let (s, e) = (self.start[i] as usize, self.start[i + 1] as usize);
        let mut v = c;
        for (&t, &k) in self.t[s..e].iter().zip(&self.k[s..e]) {
            v += self.probs[usize::from(k)] * x[t as usize];
        }
        v * self.inv_keep[i]
    }

    /// Update the states `range` in order, returning the largest change
    /// (relative to the value when `relative`).
    #[inline(always)]
    pub(super) fn update(
        &self,
        range: std::ops::Range<usize>,
        x: &mut [f64],
        b: Option<&[f64]>,
        relative: bool,
    ) -> f64 {
        let mut d = 0f64;
        for i in range {
            let v = self.row(i, b.map_or(0.0, |b| b[i]), x);
            let c = (v - x[i]).abs();
            d = d.max(if relative { c / v.max(1.0) } else { c });
            x[i] = v;
        }
        d
    }

    /// One Gauss-Seidel sweep in place, with the constant terms `b` (none:
    /// zero, which applies the sweep's iteration matrix to `x`). Returns
    /// the largest change, relative to the value when `relative`.
    pub(super) fn sweep(&self, x: &mut [f64], b: Option<&[f64]>, relative: bool) -> f64 {
        self.update(0..x.len(), x, b, relative)
    }

    /// The same sweep, layer by layer from the last layer (each layer in
    /// order): it carries values from the inner layers (furthest from the
    /// finish) outwards in one go, as the sweep in order carries them
    /// inwards.
    pub(super) fn sweep_layers_back(
        &self,
        x: &mut [f64],
        b: Option<&[f64]>,
        relative: bool,
    ) -> f64 {
        let mut d = 0f64;
        for w in self.layers.windows(2).rev() {
            d = d.max(self.update(w[0]..w[1], x, b, relative));
        }
        d
    }

    /// The preconditioner: [`PRECONDITIONER_ROUNDS`] rounds of a sweep in
    /// order then one layer by layer from the last layer; returns the
    /// largest change.
    pub(super) fn precondition(
        &self,
        x: &mut [f64],
        b: Option<&[f64]>,
        relative: bool,
        work: &mut Work<'_>,
    ) -> f64 {
        let mut d = 0f64;
        for _ in 0..PRECONDITIONER_ROUNDS {
            d = d.max(self.sweep(x, b, relative));
            d = d.max(self.sweep_layers_back(x, b, relative));
            work.updates += 2 * self.len() as u64;
        }
        d
    }

    /// Solve the component for the constant terms `b`, from `x`, until a
    /// sweep moves no value by more than [`TOLERANCE`] (relative to the
    /// value when `relative`): a few plain Gauss-Seidel sweeps, then, if
    /// they have not settled, restarted GMRES on the fixed point of the
    /// sweep (the sweep is the preconditioner: its residual is the change a
    /// sweep makes), each restart checked by a true sweep.
    pub(super) fn solve(
        &self,
        b: &[f64],
        x: &mut [f64],
        relative: bool,
        work: &mut Work<'_>,
    ) -> Result<(), OddsError> {
        let n = self.len();
        let mut before = f64::INFINITY;
        for sweep in 0..PLAIN_SWEEPS {
            work.check()?;
            let d = self.sweep(x, Some(b), relative);
            work.updates += n as u64;
            if d < TOLERANCE {
                return finite(x);
            }
            // Slow to settle: accelerate.
            if sweep >= 2 && d > SLOW * before {
                break;
            }
            before = d;
        }
        let dim = (KRYLOV_BYTES / (8 * n.max(1)))
            .saturating_sub(1)
            .min(KRYLOV_DIM);
        if dim >= 4 && self.gmres(b, x, relative, dim, work)? {
            return finite(x);
        }
        // Plain sweeps: for components too large for the Krylov vectors,
        // or should the acceleration stall.
        for _ in 0..MAX_SWEEPS {
            work.check()?;
            let d = self.sweep(x, Some(b), relative);
            work.updates += n as u64;
            if !d.is_finite() {
                break;
            }
            if d < TOLERANCE {
                return finite(x);
            }
        }
        Err(OddsError::NoConvergence {
            sweeps: u32::try_from(work.updates / n.max(1) as u64).unwrap_or(u32::MAX),
        })
    }

    /// Restarted GMRES(`dim`) on `(I - G) x = g`, where `G` is the sweep's
    /// iteration matrix and `g` a sweep from zero: the residual `g - (I -
    /// G) x` is the change a sweep makes from `x`. `Ok(true)` once a sweep
    /// from `x` moves no value by more than the tolerance (and `x` is that
    /// sweep's result); `Ok(false)` if a restart stops making progress.
    pub(super) fn gmres(
        &self,
        b: &[f64],
        x: &mut [f64],
        relative: bool,
        dim: usize,
        work: &mut Work<'_>,
    ) -> Result<bool, OddsError> {
        let n = self.len();
        let mut y = vec![0f64; n];
        let mut basis: Vec<Vec<f64>> = Vec::with_capacity(dim + 1);
        // Hessenberg matrix by columns, Givens rotations, residual vector.
        let mut h = vec![vec![0f64; dim + 1]; dim];
        let mut cs = vec![0f64; dim];
        let mut sn = vec![0f64; dim];
        let mut g = vec![0f64; dim + 1];
        let mut previous = f64::INFINITY;
        loop {
            work.check()?;
            y.copy_from_slice(x);
            let d = self.precondition(&mut y, Some(b), relative, work);
            if !d.is_finite() {
                return Ok(false);
            }
            if d < TOLERANCE {
                x.copy_from_slice(&y);
                return Ok(true);
            }
            // The residual, and what its 2-norm must come under for the
            // largest change to be within the tolerance.
            let mut r: Vec<f64> = y.iter().zip(x.iter()).map(|(a, c)| a - c).collect();
            let beta = norm(&r);
            if beta >= 0.5 * previous {
                return Ok(false);
            }
            previous = beta;
            // Below what rounding lets the residual reach, a longer cycle
            // gains nothing; the next restart's sweep decides.
            let target = (0.25 * TOLERANCE).max(64.0 * f64::EPSILON * norm(&y));
            for v in &mut r {
                *v /= beta;
            }
            basis.clear();
            basis.push(r);
            g.iter_mut().for_each(|v| *v = 0.0);
            g[0] = beta;
            let mut used = 0;
            for j in 0..dim {
                work.check()?;
                // w = (I - G) v_j
                let mut w = basis[j].clone();
                self.precondition(&mut w, None, false, work);
                for (wi, vi) in w.iter_mut().zip(&basis[j]) {
                    *wi = vi - *wi;
                }
                // Modified Gram-Schmidt.
                let col = &mut h[j];
                for (i, v) in basis.iter().enumerate() {
                    let hij = dot(&w, v);
                    col[i] = hij;
                    for (wk, vk) in w.iter_mut().zip(v) {
                        *wk -= hij * vk;
                    }
                }
                let hn = norm(&w);
                col[j + 1] = hn;
                // Apply the earlier rotations, then a new one.
                for i in 0..j {
                    let (a, c) = (col[i], col[i + 1]);
                    col[i] = cs[i] * a + sn[i] * c;
                    col[i + 1] = -sn[i] * a + cs[i] * c;
                }
                let (a, c) = (col[j], col[j + 1]);
                let rho = a.hypot(c);
                if rho == 0.0 || !rho.is_finite() {
                    break;
                }
                cs[j] = a / rho;
                sn[j] = c / rho;
                col[j] = rho;
                col[j + 1] = 0.0;
                g[j + 1] = -sn[j] * g[j];
                g[j] *= cs[j];
                used = j + 1;
                if g[j + 1].abs() < target || hn == 0.0 {
                    break;
                }
                for wk in &mut w {
                    *wk /= hn;
                }
                basis.push(w);
            }
            if used == 0 {
                return Ok(false);
            }
            // Back substitution: H z = g, then x += V z.
            let mut z = vec![0f64; used];
            for i in (0..used).rev() {
                let mut s = g[i];
                for (jj, zj) in z.iter().enumerate().skip(i + 1) {
                    s -= h[jj][i] * zj;
                }
                z[i] = s / h[i][i];
            }
            for (zi, v) in z.iter().zip(&basis) {
                for (xk, vk) in x.iter_mut().zip(v) {
                    *xk += zi * vk;
                }
            }
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

fn finite(x: &[f64]) -> Result<(), OddsError> {
    if x.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(OddsError::NoConvergence { sweeps: 0 })
    }
}
