//! A map that grows for a whole run and is cloned with every step's snapshot of the world (a
//! deduplicating resource's recorded results, one per operation id): disjoint sorted chunks
//! behind `Rc`, merged like a binary counter (as `SharedSet`), so a clone copies a few
//! pointers and a new key copies O(log n) entries on average. Replacing a key's value copies
//! the chunk that holds it, when another snapshot shares it: rare (a key recorded again
//! after it expired).
//!
//! Equality, hashing and serialisation see only the entries, in key order, never the
//! chunks: the same as a `BTreeMap` of them.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

#[derive(Clone)]
pub struct SharedMap<K, V> {
    /// Disjoint, largest first.
    chunks: Vec<Rc<BTreeMap<K, V>>>,
}

impl<K, V> Default for SharedMap<K, V> {
    fn default() -> Self {
        SharedMap { chunks: Vec::new() }
    }
}

impl<K: Ord + Clone, V: Clone> SharedMap<K, V> {
    pub fn get<Q: Ord + ?Sized>(&self, k: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.chunks.iter().find_map(|c| c.get(k))
    }

    /// Sets `k` to `v`; the value it had, if any (as `BTreeMap::insert`).
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        if let Some(c) = self.chunks.iter_mut().find(|c| c.contains_key(&k)) {
            return Rc::make_mut(c).insert(k, v);
        }
        let mut new = BTreeMap::from([(k, v)]);
        while self.chunks.last().is_some_and(|c| c.len() <= new.len()) {
            let last = self.chunks.pop().expect("checked");
            new.extend(last.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        self.chunks.push(Rc::new(new));
        None
    }

    pub fn len(&self) -> usize {
        self.chunks.iter().map(|c| c.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// Every entry, in key order.
    pub fn iter(&self) -> std::vec::IntoIter<(&K, &V)> {
        let mut all: Vec<(&K, &V)> = self.chunks.iter().flat_map(|c| c.iter()).collect();
        if self.chunks.len() > 1 {
            all.sort_by(|a, b| a.0.cmp(b.0));
        }
        all.into_iter()
    }

    /// Every value, in key order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.iter().map(|(_, v)| v)
    }
}

impl<K: Ord + Clone, V: Clone> FromIterator<(K, V)> for SharedMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(it: I) -> Self {
        let mut m = SharedMap::default();
        for (k, v) in it {
            m.insert(k, v);
        }
        m
    }
}

impl<K: Ord + Clone + std::fmt::Debug, V: Clone + std::fmt::Debug> std::fmt::Debug
    for SharedMap<K, V>
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Ord + Clone, V: Clone + PartialEq> PartialEq for SharedMap<K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<K: Ord + Clone, V: Clone + Eq> Eq for SharedMap<K, V> {}

impl<K: Ord + Clone + Hash, V: Clone + Hash> Hash for SharedMap<K, V> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        // As a `BTreeMap` of its entries: its length, then each (key, value) in key order.
        self.len().hash(h);
        for entry in self.iter() {
            entry.hash(h);
        }
    }
}

impl<K: Ord + Clone + Serialize, V: Clone + Serialize> Serialize for SharedMap<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de, K: Ord + Clone + Deserialize<'de>, V: Clone + Deserialize<'de>> Deserialize<'de>
    for SharedMap<K, V>
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(BTreeMap::<K, V>::deserialize(d)?.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::hash::std_hash as hash_of;

    #[test]
    fn behaves_as_a_btreemap_whatever_the_order_of_insertion() {
        let mut plain = BTreeMap::new();
        let mut shared = SharedMap::default();
        assert_eq!(hash_of(&shared), hash_of(&plain));
        for i in 0..300u32 {
            let (k, v) = ((i * 7919) % 211, i);
            assert_eq!(shared.insert(k, v), plain.insert(k, v), "{k}");
            assert_eq!(shared.len(), plain.len());
        }
        assert!((0..211).all(|k| shared.get(&k) == plain.get(&k)));
        assert!(shared.iter().eq(plain.iter()));
        assert!(shared.values().eq(plain.values()));
        let backwards: SharedMap<u32, u32> = plain.iter().rev().map(|(k, v)| (*k, *v)).collect();
        assert_eq!(shared, backwards, "equal by entries, not by chunks");
        assert_eq!(
            hash_of(&shared),
            hash_of(&plain),
            "hashes as the BTreeMap would"
        );
        assert_eq!(hash_of(&shared), hash_of(&backwards));
        assert_eq!(format!("{shared:?}"), format!("{plain:?}"));
        let json = serde_json::to_string(&shared).unwrap();
        assert_eq!(json, serde_json::to_string(&plain).unwrap());
        assert_eq!(
            serde_json::from_str::<SharedMap<u32, u32>>(&json).unwrap(),
            shared
        );
    }

    #[test]
    fn clones_share_chunks_and_a_replaced_value_stays_in_its_own_copy() {
        let mut m = SharedMap::default();
        for k in 0..1000u32 {
            m.insert(k, k);
            assert!(m.chunks.len() <= 11, "{} chunks at {k}", m.chunks.len());
        }
        let mut copy = m.clone();
        assert!(Rc::ptr_eq(&copy.chunks[0], &m.chunks[0]));
        assert_eq!(copy.insert(3, 0), Some(3));
        assert_eq!((copy.get(&3), m.get(&3)), (Some(&0), Some(&3)));
    }
}
