//! A name in the model: a worker, a lock, a resource, a request id, an operation id.
//!
//! Names are made once (from the scenario, or when a request is numbered) and then copied
//! into every message, token, lease and record that mentions them; the explorer clones a
//! node of the world for each transition. A `String` would allocate and copy at each of
//! those; a `Name` shares one immutable text (`Rc<str>`), so a copy is a counter bump.
//! It reads, compares, orders, hashes and serialises exactly as the text it holds.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Name(Rc<str>);

impl Name {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name(Rc::from(s))
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(Rc::from(s))
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Name {
        Name(Rc::from(s.as_str()))
    }
}

impl From<&Name> for Name {
    fn from(s: &Name) -> Name {
        s.clone()
    }
}

impl From<Name> for String {
    fn from(n: Name) -> String {
        n.0.to_string()
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        &*self.0 == other.as_str()
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == &*other.0
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
        String::deserialize(d).map(Name::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn a_name_behaves_as_its_text() {
        let n = Name::from("worker-A");
        assert_eq!(n, "worker-A");
        assert_eq!(n.to_string(), "worker-A");
        assert_eq!(format!("{n:?}"), "\"worker-A\"");
        assert_eq!(serde_json::to_string(&n).unwrap(), "\"worker-A\"");
        let back: Name = serde_json::from_str("\"worker-A\"").unwrap();
        assert_eq!(back, n);
        let mut m = BTreeMap::new();
        m.insert(Name::from("b"), 2);
        m.insert(Name::from("a"), 1);
        assert_eq!(m.get("a"), Some(&1));
        assert_eq!(m.keys().map(|k| k.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        // Hashes as the text does, so a state key is unchanged by the representation.
        use std::hash::{Hash, Hasher};
        let hash = |x: &dyn Fn(&mut crate::hash::FxHasher)| {
            let mut h = crate::hash::FxHasher::default();
            x(&mut h);
            h.finish()
        };
        assert_eq!(hash(&|h| n.hash(h)), hash(&|h| "worker-A".hash(h)));
    }
}
