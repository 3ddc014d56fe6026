//! The benchmarks' shared harness: warm-up, repeated samples, median, min and max, on std
//! alone (no benchmark crate in the test build).

use std::time::{Duration, Instant};

pub struct Stats {
    pub median: Duration,
    pub min: Duration,
    pub max: Duration,
    pub samples: usize,
}

/// Time `f` (one iteration = one call): a warm-up, then `samples` timed calls.
pub fn measure(samples: usize, mut f: impl FnMut()) -> Stats {
    f();
    let mut times: Vec<Duration> = (0..samples)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    Stats {
        median: times[times.len() / 2],
        min: times[0],
        max: times[times.len() - 1],
        samples,
    }
}

pub fn fmt_time(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    if ns >= 1e9 {
        format!("{:.3} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.3} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

pub fn report(name: &str, st: &Stats, per: u64, unit: &str, extra: &str) {
    let each = |d: Duration| d / per as u32;
    println!(
        "{name:<34} time: [{} {} {}] per {unit} (median of {} samples){extra}",
        fmt_time(each(st.min)),
        fmt_time(each(st.median)),
        fmt_time(each(st.max)),
        st.samples
    );
}
