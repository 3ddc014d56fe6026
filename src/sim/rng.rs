//! A seeded generator (SplitMix64): the only randomness the model has.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    /// Where the sequence is: `Rng::new(r.state())` goes on as `r` would.
    pub fn state(&self) -> u64 {
        self.state
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..=max`.
    pub fn upto(&mut self, max: u64) -> u64 {
        match max.checked_add(1) {
            // Nothing drawn: a run without jitter keeps the sequence it always had.
            Some(1) => 0,
            Some(n) => self.next_u64() % n,
            // 0..=u64::MAX: every value.
            None => self.next_u64(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let xs: Vec<u64> = (0..5).map(|_| a.upto(10)).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.upto(10)).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|x| *x <= 10));
        assert_ne!(Rng::new(8).next_u64(), Rng::new(7).next_u64());
        // The whole range, without a remainder by zero.
        assert_ne!(a.upto(u64::MAX), a.upto(u64::MAX));
        assert_eq!(a.upto(0), 0);
    }
}
