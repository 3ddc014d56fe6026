//! The explorer's cost per transition, native: the whole breadth-first search of a preset
//! under its default bounds (`Bounds::for_scenario`), timed end to end and divided by the
//! transitions taken (states explored, counting each arrival) and by the distinct states.
//!
//! `cargo bench --bench explore` runs every preset in full (`-- ID` for one); run without
//! `--bench` (as `cargo test --benches` does) it takes one quick sample of paused-writer.
//! Figures go to docs/performance.md ("Explorer (native)").

use fencing_lab::presets;
use fencing_lab::sim::explore::{explore, Bounds};
use std::hint::black_box;

// Each bench uses part of the shared harness.
#[allow(dead_code)]
mod harness;
use harness::{fmt_time, measure};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let full = args.iter().any(|a| a == "--bench");
    let filter = args.iter().find(|a| !a.starts_with('-')).cloned();
    let ids: Vec<&str> = match (&filter, full) {
        (Some(f), _) => presets::ids()
            .filter(|id| id.contains(f.as_str()))
            .collect(),
        (None, true) => presets::ids().collect(),
        (None, false) => vec!["paused-writer"],
    };
    println!(
        "{:<26} {:>9} {:>9} {:>9} {:>10} {:>11} {:>9}",
        "preset", "explored", "distinct", "complete", "search", "/transition", "M trans/s"
    );
    for id in ids {
        let s = presets::get(id).expect("preset");
        let bounds = Bounds::for_scenario(&s);
        let mut last = None;
        let st = measure(if full { 5 } else { 1 }, || {
            last = Some(black_box(explore(&s, None, bounds.clone())));
        });
        let r = last.expect("one sample");
        let per = st.median / r.states.max(1) as u32;
        println!(
            "{:<26} {:>9} {:>9} {:>9} {:>10} {:>11} {:>9.3}",
            id,
            r.states,
            r.distinct_states,
            r.complete,
            fmt_time(st.median),
            fmt_time(per),
            r.states as f64 / st.median.as_secs_f64() / 1e6
        );
    }
}
