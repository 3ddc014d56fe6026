//! Fencing tokens and the issuers that mint them.
//!
//! A token is `(epoch, counter)` compared lexicographically; issuers without epochs
//! leave the epoch at 0, so a plain counter compares as a plain integer. The token
//! names its lock so a resource that binds scope can refuse a token minted for another.

use super::name::Name;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Token {
    /// The lock (authority domain) that issued it.
    pub lock: Name,
    pub epoch: u64,
    pub counter: i64,
}

impl Token {
    /// Ordering of authority, ignoring scope: what a receiver compares.
    pub fn order(&self, other: &Token) -> Ordering {
        (self.epoch, self.counter).cmp(&(other.epoch, other.counter))
    }

    /// The value as people read it: `42`, or `e2:42` when it carries an epoch.
    pub fn short(&self) -> String {
        if self.epoch == 0 {
            self.counter.to_string()
        } else {
            format!("e{}:{}", self.epoch, self.counter)
        }
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.short())
    }
}

/// How a lock's tokens are made.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    deny_unknown_fields,
    try_from = "IssuerFields"
)]
pub enum IssuerKind {
    /// A counter in a consistent store: survives restart and failover; next value is `start`.
    Counter {
        #[serde(default = "default_start")]
        start: i64,
    },
    /// The coordinator node's local clock reading at grant time.
    WallClock,
    /// Each replica keeps its own counter; failover switches to the next replica's.
    IndependentCounters {
        #[serde(default = "default_start")]
        start: i64,
        #[serde(default = "default_replicas")]
        replicas: usize,
    },
    /// `(epoch, counter)`; restore and failover (and a restart that lost the counter) bump the epoch.
    Epoch {
        #[serde(default = "default_start")]
        start: i64,
    },
    /// A random value per grant (Redlock's): unique, but with no order, so a receiver can
    /// only ask whether a token is the one it was told about, not which of two is newer.
    /// Drawn from `seed`, so a run is the same every time.
    Random {
        #[serde(default = "default_seed")]
        seed: u64,
    },
}

/// How an issuer is read: one flat object checked against its `kind` (as for `Action`, much
/// less WASM than serde's code for an internally tagged enum).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IssuerFields {
    kind: String,
    start: Option<i64>,
    replicas: Option<usize>,
    seed: Option<u64>,
}

impl TryFrom<IssuerFields> for IssuerKind {
    type Error = String;

    fn try_from(f: IssuerFields) -> Result<IssuerKind, String> {
        let start = f.start.unwrap_or_else(default_start);
        let k = match f.kind.as_str() {
            "counter" => IssuerKind::Counter { start },
            "wall-clock" => IssuerKind::WallClock,
            "independent-counters" => IssuerKind::IndependentCounters {
                start,
                replicas: f.replicas.unwrap_or_else(default_replicas),
            },
            "epoch" => IssuerKind::Epoch { start },
            "random" => IssuerKind::Random {
                seed: f.seed.unwrap_or_else(default_seed),
            },
            other => {
                return Err(format!(
                    "unknown variant `{other}`, expected one of `counter`, `wall-clock`, `independent-counters`, `epoch`, `random`"
                ))
            }
        };
        if f.seed.is_some() && !matches!(k, IssuerKind::Random { .. }) {
            return Err(format!("unknown field `seed` for `{}`", f.kind));
        }
        let takes_start = !matches!(k, IssuerKind::WallClock | IssuerKind::Random { .. });
        let takes_replicas = matches!(k, IssuerKind::IndependentCounters { .. });
        if f.start.is_some() && !takes_start {
            return Err(format!("unknown field `start` for `{}`", f.kind));
        }
        if f.replicas.is_some() && !takes_replicas {
            return Err(format!("unknown field `replicas` for `{}`", f.kind));
        }
        Ok(k)
    }
}

fn default_start() -> i64 {
    1
}
fn default_replicas() -> usize {
    2
}
fn default_seed() -> u64 {
    1
}

impl Default for IssuerKind {
    fn default() -> Self {
        IssuerKind::Counter { start: 1 }
    }
}

impl IssuerKind {
    pub fn name(&self) -> &'static str {
        match self {
            IssuerKind::Counter { .. } => "counter",
            IssuerKind::WallClock => "wall-clock",
            IssuerKind::IndependentCounters { .. } => "independent-counters",
            IssuerKind::Epoch { .. } => "epoch",
            IssuerKind::Random { .. } => "random",
        }
    }
}

/// Random tokens are drawn from `RANDOM_LOW..RANDOM_LOW + RANDOM_SPAN`.
const RANDOM_LOW: i64 = 1000;
const RANDOM_SPAN: i64 = 9000;

/// The `n`th random value of `seed`: the first `RANDOM_SPAN` draws are a permutation of
/// the four-digit values (a keyed Feistel network, cycle-walked into the span), the next
/// `RANDOM_SPAN` a permutation of the `RANDOM_SPAN` values above those, and so on, so that no
/// value is ever drawn twice in a run, as Redlock's unique values never repeat.
fn random_value(seed: u64, n: i64) -> i64 {
    let block = n / RANDOM_SPAN;
    let key = seed ^ (block as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut x = (n % RANDOM_SPAN) as u64;
    loop {
        x = feistel(key, x);
        if x < RANDOM_SPAN as u64 {
            break;
        }
    }
    RANDOM_LOW + block * RANDOM_SPAN + x as i64
}

/// A bijection on 14-bit values (two 7-bit halves, four rounds keyed by `key`).
fn feistel(key: u64, x: u64) -> u64 {
    let (mut l, mut r) = (x >> 7, x & 0x7f);
    for round in 0..4u64 {
        let f = super::rng::Rng::new(key ^ (round << 56) ^ r).next_u64() & 0x7f;
        (l, r) = (r, l ^ f);
    }
    (l << 7) | r
}

/// The mutable state of one lock's issuer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Issuer {
    pub kind: IssuerKind,
    pub epoch: u64,
    /// Next counter value, one per replica (a single entry unless replicas are independent).
    pub next: Vec<i64>,
}

impl Issuer {
    pub fn new(kind: IssuerKind) -> Self {
        let (next, epoch) = match &kind {
            IssuerKind::Counter { start } => (vec![*start], 0),
            IssuerKind::WallClock => (vec![0], 0),
            IssuerKind::IndependentCounters { start, replicas } => {
                (vec![*start; (*replicas).max(1)], 0)
            }
            IssuerKind::Epoch { start } => (vec![*start], 1),
            // How many values were drawn: the next draw's place in the seed's permutation.
            IssuerKind::Random { .. } => (vec![0], 0),
        };
        Issuer { kind, epoch, next }
    }

    /// Mint a token for `lock` on `replica`, reading the coordinator's local clock for wall-clock tokens.
    pub fn mint(&mut self, lock: &str, replica: usize, local_now: i64) -> Token {
        let counter = match self.kind {
            IssuerKind::WallClock => local_now,
            IssuerKind::IndependentCounters { .. } => {
                let slot = replica % self.next.len();
                let c = self.next[slot];
                self.next[slot] += 1;
                c
            }
            IssuerKind::Counter { .. } | IssuerKind::Epoch { .. } => {
                let c = self.next[0];
                self.next[0] += 1;
                c
            }
            IssuerKind::Random { seed } => {
                let n = self.next[0];
                self.next[0] += 1;
                random_value(seed, n)
            }
        };
        Token {
            lock: lock.into(),
            epoch: self.epoch,
            counter,
        }
    }

    /// The counter was lost (restart without persistence): it starts over. Random values
    /// are not a counter: Redlock draws each from the operating system's randomness, which a
    /// restart does not rewind, so they stay unique (what a restart loses is the key itself).
    pub fn forget(&mut self) {
        if !matches!(self.kind, IssuerKind::Random { .. }) {
            self.next = Issuer::new(self.kind.clone()).next;
        }
        self.bump_epoch();
    }

    /// A restore or failover: epoch issuers move to a new epoch, others do not notice.
    pub fn bump_epoch(&mut self) {
        if matches!(self.kind, IssuerKind::Epoch { .. }) {
            self.epoch += 1;
        }
    }

    /// Whether two of its tokens say which was granted later. A random value does not, so
    /// a receiver comparing them by size is reading noise.
    pub fn ordered(kind: &IssuerKind) -> bool {
        !matches!(kind, IssuerKind::Random { .. })
    }

    /// What the coordinator shows: `next 42`, `epoch 2, next 5`, `clock`.
    pub fn describe(&self) -> String {
        match self.kind {
            IssuerKind::WallClock => "wall clock".into(),
            IssuerKind::Random { .. } => "random values".into(),
            IssuerKind::Epoch { .. } => format!("epoch {}, next {}", self.epoch, self.next[0]),
            IssuerKind::IndependentCounters { .. } => {
                let parts: Vec<String> = self.next.iter().map(|n| n.to_string()).collect();
                format!("replica counters next {}", parts.join(" / "))
            }
            IssuerKind::Counter { .. } => format!("next {}", self.next[0]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issuers_read_back_and_bad_ones_say_why() {
        for k in [
            IssuerKind::Counter { start: 7 },
            IssuerKind::WallClock,
            IssuerKind::IndependentCounters {
                start: 3,
                replicas: 4,
            },
            IssuerKind::Epoch { start: 1 },
        ] {
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(
                serde_json::from_str::<IssuerKind>(&json).unwrap(),
                k,
                "{json}"
            );
        }
        let read = |s: &str| serde_json::from_str::<IssuerKind>(s);
        assert_eq!(
            read(r#"{"kind":"counter"}"#).unwrap(),
            IssuerKind::Counter { start: 1 }
        );
        assert_eq!(
            read(r#"{"kind":"independent-counters"}"#).unwrap(),
            IssuerKind::IndependentCounters {
                start: 1,
                replicas: 2
            }
        );
        let err = |s: &str| read(s).unwrap_err().to_string();
        assert!(err(r#"{"kind":"dice"}"#).contains("unknown variant `dice`"));
        assert!(err(r#"{"kind":"wall-clock","start":3}"#).contains("unknown field `start`"));
        assert!(err(r#"{"kind":"counter","replicas":3}"#).contains("unknown field `replicas`"));
        assert!(err(r#"{"kind":"counter","colour":3}"#).contains("unknown field `colour`"));
        assert!(err(r#"{"start":3}"#).contains("missing field `kind`"));
    }

    #[test]
    fn epoch_orders_before_counter() {
        let mut i = Issuer::new(IssuerKind::Epoch { start: 41 });
        let a = i.mint("x", 0, 0);
        let b = i.mint("x", 0, 0);
        i.next = vec![41]; // restored snapshot
        i.bump_epoch();
        let c = i.mint("x", 0, 0);
        assert_eq!(a.order(&b), Ordering::Less);
        assert_eq!(b.order(&c), Ordering::Less, "{b} < {c}");
        assert_eq!(c.short(), "e2:41");
    }

    #[test]
    fn independent_replicas_reuse_values() {
        let mut i = Issuer::new(IssuerKind::IndependentCounters {
            start: 41,
            replicas: 2,
        });
        assert_eq!(i.mint("x", 0, 0).counter, 41);
        assert_eq!(i.mint("x", 0, 0).counter, 42);
        assert_eq!(i.mint("x", 1, 0).counter, 41);
    }

    #[test]
    fn random_values_are_repeatable_and_unordered() {
        let draw = |seed| {
            let mut i = Issuer::new(IssuerKind::Random { seed });
            (0..6)
                .map(|_| i.mint("x", 0, 0).counter)
                .collect::<Vec<_>>()
        };
        let xs = draw(7);
        assert_eq!(xs, draw(7), "the same seed draws the same values");
        assert_ne!(xs, draw(8));
        assert!(xs.iter().all(|x| (1000..10_000).contains(x)), "{xs:?}");
        // Later grants are not larger: the order of values says nothing about grant order.
        assert!(xs.windows(2).any(|w| w[1] < w[0]), "{xs:?}");
        // A restart that loses the lock service's data does not rewind its randomness.
        let mut i = Issuer::new(IssuerKind::Random { seed: 7 });
        i.mint("x", 0, 0);
        i.forget();
        assert_eq!(i.mint("x", 0, 0).counter, xs[1], "a restart draws on");
        // No value repeats, past the four-digit span too.
        let mut i = Issuer::new(IssuerKind::Random { seed: 7 });
        let mut seen = std::collections::BTreeSet::new();
        for n in 0..2 * RANDOM_SPAN + 5 {
            let v = i.mint("x", 0, 0).counter;
            assert!(seen.insert(v), "draw {n} repeats {v}");
            if n < RANDOM_SPAN {
                assert!((1000..10_000).contains(&v), "draw {n}: {v}");
            }
        }
        let k = IssuerKind::Random { seed: 7 };
        assert_eq!(
            serde_json::from_str::<IssuerKind>(r#"{"kind":"random","seed":7}"#).unwrap(),
            k
        );
        assert_eq!(
            serde_json::from_str::<IssuerKind>(&serde_json::to_string(&k).unwrap()).unwrap(),
            k
        );
        let err = serde_json::from_str::<IssuerKind>(r#"{"kind":"counter","seed":7}"#).unwrap_err();
        assert!(err.to_string().contains("unknown field `seed`"), "{err}");
        assert!(!Issuer::ordered(&k) && Issuer::ordered(&IssuerKind::Epoch { start: 1 }));
    }

    #[test]
    fn wall_clock_reads_the_clock() {
        let mut i = Issuer::new(IssuerKind::WallClock);
        assert_eq!(i.mint("x", 0, 1700).counter, 1700);
        assert_eq!(i.mint("x", 0, 1700).counter, 1700, "duplicate timestamps");
    }
}
