//! A list that only grows for a whole run and is cloned with every step's snapshot of the
//! world (the checker's violations, the overlaps, an email outbox, a content store's keys):
//! frozen chunks behind `Rc`, merged like a binary counter (as `SharedSet`), and a short
//! tail of the newest elements held inline. A clone copies a few pointers and at most
//! `TAIL` elements; a push copies O(log n) elements on average; the newest element is
//! always in the tail, so changing it (`last_mut`: an overlap that goes on) copies nothing
//! shared. A plain `Vec` copied into every frame made a run's memory grow with the square of
//! its length (a preset repeated to 4,000 steps took 850 MB).
//!
//! Equality, hashing and serialisation see only the elements, in order, never the chunks:
//! the same as a `Vec` of them.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// Elements held inline before they are frozen into a shared chunk.
const TAIL: usize = 8;

#[derive(Clone)]
pub struct SharedVec<T> {
    /// In order, largest first; every one frozen.
    chunks: Vec<Rc<Vec<T>>>,
    /// The newest elements, after every chunk's: never empty unless the list is.
    tail: Vec<T>,
}

impl<T> Default for SharedVec<T> {
    fn default() -> Self {
        SharedVec {
            chunks: Vec::new(),
            tail: Vec::new(),
        }
    }
}

impl<T: Clone> SharedVec<T> {
    pub fn push(&mut self, x: T) {
        if self.tail.len() == TAIL {
            let mut new = std::mem::take(&mut self.tail);
            while self.chunks.last().is_some_and(|c| c.len() <= new.len()) {
                let last = self.chunks.pop().expect("checked");
                let mut merged = Vec::with_capacity(last.len() + new.len());
                merged.extend(last.iter().cloned());
                merged.append(&mut new);
                new = merged;
            }
            self.chunks.push(Rc::new(new));
        }
        self.tail.push(x);
    }

    /// The newest element, to change in place: it is never in a shared chunk.
    pub fn last_mut(&mut self) -> Option<&mut T> {
        self.tail.last_mut()
    }

    pub fn to_vec(&self) -> Vec<T> {
        self.iter().cloned().collect()
    }
}

impl<T> SharedVec<T> {
    pub fn len(&self) -> usize {
        self.chunks.iter().map(|c| c.len()).sum::<usize>() + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tail.is_empty()
    }

    /// Every element, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + Clone {
        self.chunks
            .iter()
            .flat_map(|c| c.iter())
            .chain(self.tail.iter())
    }

    /// The elements from index `start` on, in order, skipping whole chunks before it.
    pub fn iter_from(&self, mut start: usize) -> impl Iterator<Item = &T> {
        let mut first = 0;
        while first < self.chunks.len() && start >= self.chunks[first].len() {
            start -= self.chunks[first].len();
            first += 1;
        }
        self.chunks[first..]
            .iter()
            .flat_map(|c| c.iter())
            .chain(self.tail.iter())
            .skip(start)
    }

    pub fn get(&self, mut i: usize) -> Option<&T> {
        for c in &self.chunks {
            match c.get(i) {
                Some(x) => return Some(x),
                None => i -= c.len(),
            }
        }
        self.tail.get(i)
    }

    pub fn last(&self) -> Option<&T> {
        self.tail.last()
    }

    pub fn contains(&self, x: &T) -> bool
    where
        T: PartialEq,
    {
        self.iter().any(|y| y == x)
    }
}

impl<T> std::ops::Index<usize> for SharedVec<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        self.get(i).expect("index within the list")
    }
}

impl<'a, T> IntoIterator for &'a SharedVec<T> {
    type Item = &'a T;
    type IntoIter = Box<dyn DoubleEndedIterator<Item = &'a T> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<T: Clone> From<Vec<T>> for SharedVec<T> {
    fn from(xs: Vec<T>) -> Self {
        let mut v = SharedVec::default();
        for x in xs {
            v.push(x);
        }
        v
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for SharedVec<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: PartialEq> PartialEq for SharedVec<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<T: Eq> Eq for SharedVec<T> {}

impl<T: Hash> Hash for SharedVec<T> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        // As a `Vec` of its elements: its length, then each in order.
        self.len().hash(h);
        for x in self.iter() {
            x.hash(h);
        }
    }
}

impl<T: Serialize> Serialize for SharedVec<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de, T: Clone + Deserialize<'de>> Deserialize<'de> for SharedVec<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<T>::deserialize(d)?.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::hash::std_hash as hash_of;

    #[test]
    fn behaves_as_a_vec() {
        let mut plain = Vec::new();
        let mut shared = SharedVec::default();
        assert_eq!(hash_of(&shared), hash_of(&plain));
        for x in 0..300u32 {
            plain.push(x % 37);
            shared.push(x % 37);
            assert_eq!(shared.len(), plain.len());
            assert_eq!(shared.last(), plain.last());
            *shared.last_mut().unwrap() += 1;
            *plain.last_mut().unwrap() += 1;
        }
        assert!(shared.iter().eq(plain.iter()));
        assert!(shared.iter().rev().eq(plain.iter().rev()));
        assert!((0..300).all(|i| shared[i] == plain[i] && shared.get(i) == plain.get(i)));
        assert_eq!(shared.get(300), None);
        for start in [0, 1, 7, 8, 9, 100, 255, 256, 299, 300, 301] {
            assert!(
                shared.iter_from(start).eq(plain.iter().skip(start)),
                "{start}"
            );
        }
        assert!(shared.contains(&5) && !shared.contains(&99));
        assert_eq!(shared, SharedVec::from(plain.clone()), "equal by elements");
        assert_eq!(hash_of(&shared), hash_of(&plain), "hashes as the Vec would");
        assert_eq!(format!("{shared:?}"), format!("{plain:?}"));
        let json = serde_json::to_string(&shared).unwrap();
        assert_eq!(json, serde_json::to_string(&plain).unwrap());
        assert_eq!(
            serde_json::from_str::<SharedVec<u32>>(&json).unwrap(),
            shared
        );
        assert_eq!(shared.to_vec(), plain);
    }

    #[test]
    fn chunks_stay_few_and_clones_share_them() {
        let mut v = SharedVec::default();
        for x in 0..1000u32 {
            v.push(x);
            assert!(v.chunks.len() <= 8, "{} chunks at {x}", v.chunks.len());
            assert!(!v.tail.is_empty() && v.tail.len() <= TAIL);
        }
        let mut copy = v.clone();
        assert!(Rc::ptr_eq(&copy.chunks[0], &v.chunks[0]));
        *copy.last_mut().unwrap() = 0;
        assert_eq!(v.last(), Some(&999), "the other copy is untouched");
    }
}
