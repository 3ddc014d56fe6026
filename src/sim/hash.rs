//! A fast, deterministic hasher for state fingerprints (the FxHash mix with a final
//! avalanche). SipHash is the std default and costs as much as cloning a world.

use std::hash::Hasher;

#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

const K: u64 = 0x517c_c1b7_2722_0a95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(buf) ^ ((rest.len() as u64) << 56));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        // SplitMix64's finaliser, so nearby states land far apart.
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A value's hash by the standard library's hasher: the shared collections' tests check that
/// each hashes as the `std` collection it stands for.
#[cfg(test)]
pub(crate) fn std_hash<T: std::hash::Hash>(x: &T) -> u64 {
    use std::hash::Hasher;
    let mut h = std::hash::DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    fn h<T: Hash>(t: &T) -> u64 {
        let mut s = FxHasher::default();
        t.hash(&mut s);
        s.finish()
    }

    #[test]
    fn distinguishes_nearby_values() {
        assert_ne!(h(&("ab", 1u32)), h(&("ba", 1u32)));
        assert_ne!(h(&"abcdefgh1"), h(&"abcdefgh2"));
        assert_eq!(h(&vec![1u64, 2, 3]), h(&vec![1u64, 2, 3]));
        let all: std::collections::HashSet<u64> = (0..10_000u32).map(|i| h(&i)).collect();
        assert_eq!(all.len(), 10_000);
    }
}
