//! True time and each node's local clock.
//!
//! True time is a tick counter owned by the world. Nodes never read it: they read
//! their own clock, which has an offset, a drift rate and may jump. Leases are judged
//! on local clocks, which is how a drifting clock makes two workers believe at once.

use serde::{Deserialize, Serialize};

/// Global true time, in ticks.
pub type Tick = u64;

/// A node's local clock: `local(t) = offset + t * rate_permille / 1000`.
///
/// Integer arithmetic keeps the world hashable and runs bit-identical everywhere.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Clock {
    /// Local reading at true time 0, plus every jump so far.
    pub offset: i64,
    /// Speed against true time in thousandths: 1000 is exact, 900 runs 10 % slow.
    pub rate_permille: u32,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            offset: 0,
            rate_permille: 1000,
        }
    }
}

impl Clock {
    /// The local reading at true time `now`.
    pub fn read(&self, now: Tick) -> i64 {
        self.offset + (now as i64 * self.rate_permille as i64) / 1000
    }

    /// A step adjustment, forward (positive) or backward (negative).
    pub fn jump(&mut self, delta: i64) {
        self.offset += delta;
    }

    /// The first true tick at or after `from` when this clock reads at least `x`
    /// (`None` for a stopped clock that never gets there).
    pub fn first_tick_reading(&self, x: i64, from: Tick) -> Option<Tick> {
        if self.read(from) >= x {
            return Some(from);
        }
        if self.rate_permille == 0 {
            return None;
        }
        let rate = self.rate_permille as i64;
        let mut t = ((x - self.offset) * 1000 + rate - 1)
            .div_euclid(rate)
            .max(from as i64) as Tick;
        // Integer rounding in `read` can leave it a tick short or long.
        while t > from && self.read(t - 1) >= x {
            t -= 1;
        }
        while self.read(t) < x {
            t += 1;
        }
        Some(t)
    }

    pub fn is_exact(&self) -> bool {
        self.offset == 0 && self.rate_permille == 1000
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drift_and_jumps_change_the_reading() {
        let mut c = Clock {
            offset: 5,
            rate_permille: 500,
        };
        assert_eq!(c.read(10), 10);
        c.jump(-7);
        assert_eq!(c.read(10), 3);
        assert_eq!(Clock::default().read(42), 42);
    }

    #[test]
    fn first_tick_reading_inverts_read() {
        for rate in [1, 333, 500, 1000, 1500] {
            for offset in [-20, 0, 7] {
                let c = Clock {
                    offset,
                    rate_permille: rate,
                };
                for x in -5..60 {
                    let t = c
                        .first_tick_reading(x, 3)
                        .expect("a running clock gets there");
                    assert!(c.read(t) >= x && t >= 3);
                    assert!(
                        t == 3 || c.read(t - 1) < x,
                        "rate {rate} offset {offset} x {x}: {t}"
                    );
                }
            }
        }
        assert_eq!(
            Clock {
                offset: 0,
                rate_permille: 0
            }
            .first_tick_reading(5, 0),
            None
        );
    }
}
