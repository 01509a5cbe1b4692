//! The Pareto frontier of the search's rows: no other row gives more tokens/s per GPU at equal or
//! more tokens/s per user.

use super::Row;

/// Indices of the rows on the frontier of (tokens/s per user, tokens/s per GPU), both higher
/// better, ordered by tokens/s per user ascending. A row is on it when no other row is at least
/// as good on both and better on one; of exact ties the first row counts.
pub fn frontier(rows: &[Row]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    // Highest per-user first; among equals, highest per-GPU first, then row order.
    order.sort_by(|&a, &b| {
        let (ra, rb) = (&rows[a], &rows[b]);
        rb.tokens_per_s_per_user
            .total_cmp(&ra.tokens_per_s_per_user)
            .then(rb.tokens_per_s_per_gpu.total_cmp(&ra.tokens_per_s_per_gpu))
            .then(a.cmp(&b))
    });
    let mut best_per_gpu = f64::NEG_INFINITY;
    let mut on: Vec<usize> = Vec::new();
    for i in order {
        if rows[i].tokens_per_s_per_gpu > best_per_gpu {
            best_per_gpu = rows[i].tokens_per_s_per_gpu;
            on.push(i);
        }
    }
    on.reverse();
    on
}
