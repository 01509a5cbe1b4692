//! The simulator's seeded random numbers: SplitMix64 and the few distributions the workload draws.
//!
//! Hand-written (about 40 lines) rather than a crate so the core stays on std and the stream of
//! numbers for a seed never changes under a dependency upgrade: a link reproduces a sweep.

/// SplitMix64 (Steele, Lea and Flood 2014): one u64 of state, passes BigCrush, trivially seeded.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1]: never 0, so its logarithm is finite.
    pub fn unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Exponential with mean 1: -ln(u).
    pub fn exponential(&mut self) -> f64 {
        -self.unit().ln()
    }

    /// Standard normal by Box-Muller (one of the pair; the other is discarded for simplicity).
    pub fn normal(&mut self) -> f64 {
        let (u, v) = (self.unit(), self.unit());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// Gamma with shape k > 0 and mean k (scale 1), by Marsaglia and Tsang (2000); for k < 1 the
    /// boost gamma(k + 1) x u^(1/k).
    pub fn gamma(&mut self, shape: f64) -> f64 {
        if shape < 1.0 {
            return self.gamma(shape + 1.0) * self.unit().powf(1.0 / shape);
        }
        let d = shape - 1.0 / 3.0;
        let c = 1.0 / (9.0 * d).sqrt();
        loop {
            let x = self.normal();
            let v = (1.0 + c * x).powi(3);
            if v > 0.0 && self.unit().ln() < 0.5 * x * x + d - d * v + d * v.ln() {
                return d * v;
            }
        }
    }
}
