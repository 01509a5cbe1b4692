//! Non-negative least squares (Lawson and Hanson's active-set method, 1974): min ||A x - b|| with
//! x >= 0, for the fit's few columns. The passive set's sub-problems are solved through the normal
//! equations with a ridge of 1e-12 x their mean diagonal, so that columns the data cannot tell
//! apart (two terms that always appear together) give a finite, deterministic split instead of a
//! singular system.

/// A dense row-major matrix of `rows` x `cols`.
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<f64>,
}

impl Matrix {
    pub fn at(&self, r: usize, c: usize) -> f64 {
        self.data[r * self.cols + c]
    }
}

/// x >= 0 minimizing ||A x - b||; columns of zeros stay at 0. At most 3 x cols outer iterations.
pub fn nnls(a: &Matrix, b: &[f64]) -> Vec<f64> {
    let n = a.cols;
    let mut x = vec![0.0; n];
    let mut passive = vec![false; n];
    for _ in 0..3 * n.max(1) {
        let w = gradient(a, b, &x);
        let candidate = (0..n)
            .filter(|&j| !passive[j] && w[j] > 1e-12 * (1.0 + w.iter().fold(0.0_f64, |m, v| m.max(v.abs()))))
            .max_by(|&i, &j| w[i].total_cmp(&w[j]));
        let Some(j) = candidate else { break };
        passive[j] = true;
        inner_loop(a, b, &mut x, &mut passive);
    }
    x
}

/// Solves on the passive set and steps back along the segment while a passive variable would go
/// negative (moving it to the active set), as Lawson and Hanson's inner loop.
fn inner_loop(a: &Matrix, b: &[f64], x: &mut [f64], passive: &mut [bool]) {
    for _ in 0..x.len() + 1 {
        let z = solve_passive(a, b, passive);
        if (0..x.len()).all(|j| !passive[j] || z[j] > 0.0) {
            x.copy_from_slice(&z);
            return;
        }
        let alpha = (0..x.len())
            .filter(|&j| passive[j] && z[j] <= 0.0)
            .map(|j| x[j] / (x[j] - z[j]))
            .fold(f64::INFINITY, f64::min);
        for j in 0..x.len() {
            x[j] += alpha * (z[j] - x[j]);
            if passive[j] && x[j] <= 1e-15 {
                passive[j] = false;
                x[j] = 0.0;
            }
        }
    }
}

/// Aᵀ (b - A x).
fn gradient(a: &Matrix, b: &[f64], x: &[f64]) -> Vec<f64> {
    let residual: Vec<f64> =
        (0..a.rows).map(|r| b[r] - (0..a.cols).map(|c| a.at(r, c) * x[c]).sum::<f64>()).collect();
    (0..a.cols).map(|c| (0..a.rows).map(|r| a.at(r, c) * residual[r]).sum()).collect()
}

/// The unconstrained least squares on the passive columns (others 0), by ridged normal equations.
fn solve_passive(a: &Matrix, b: &[f64], passive: &[bool]) -> Vec<f64> {
    let cols: Vec<usize> = (0..a.cols).filter(|&j| passive[j]).collect();
    let k = cols.len();
    let mut m = vec![0.0; k * k];
    let mut v = vec![0.0; k];
    for (p, &i) in cols.iter().enumerate() {
        v[p] = (0..a.rows).map(|r| a.at(r, i) * b[r]).sum();
        for (q, &j) in cols.iter().enumerate() {
            m[p * k + q] = (0..a.rows).map(|r| a.at(r, i) * a.at(r, j)).sum();
        }
    }
    let ridge = 1e-12 * (0..k).map(|p| m[p * k + p]).sum::<f64>() / k.max(1) as f64;
    for p in 0..k {
        m[p * k + p] += ridge;
    }
    let solved = cholesky_solve(&mut m, &mut v, k);
    let mut z = vec![0.0; a.cols];
    for (p, &j) in cols.iter().enumerate() {
        z[j] = solved[p];
    }
    z
}

/// Solves M y = v for a symmetric positive-definite M (k x k, overwritten), by Cholesky.
fn cholesky_solve(m: &mut [f64], v: &mut [f64], k: usize) -> Vec<f64> {
    for j in 0..k {
        let mut d = m[j * k + j];
        for p in 0..j {
            d -= m[j * k + p] * m[j * k + p];
        }
        let d = d.max(f64::MIN_POSITIVE).sqrt();
        m[j * k + j] = d;
        for i in j + 1..k {
            let mut s = m[i * k + j];
            for p in 0..j {
                s -= m[i * k + p] * m[j * k + p];
            }
            m[i * k + j] = s / d;
        }
    }
    for i in 0..k {
        let s: f64 = (0..i).map(|p| m[i * k + p] * v[p]).sum();
        v[i] = (v[i] - s) / m[i * k + i];
    }
    for i in (0..k).rev() {
        let s: f64 = (i + 1..k).map(|p| m[p * k + i] * v[p]).sum();
        v[i] = (v[i] - s) / m[i * k + i];
    }
    v.to_vec()
}
