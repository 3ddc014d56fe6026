//! Explore every preset under each variant and print the verdicts (a development aid).
use fencing_lab::sim::explore::{explore, Bounds};
fn main() {
    let only = std::env::args().nth(1);
    for s in fencing_lab::presets::all() {
        if only.as_deref().is_some_and(|o| o != s.id) || s.id == "sandbox" {
            continue;
        }
        for v in &s.variants {
            let sv = s.with_variant(v);
            let t = std::time::Instant::now();
            let r = explore(&sv, Some(v.name.clone()), Bounds::for_scenario(&sv));
            let broken: Vec<String> = r
                .invariants
                .iter()
                .filter(|i| !i.held)
                .map(|i| {
                    format!(
                        "{}({})",
                        i.kind,
                        i.counterexample.as_ref().map_or(0, |c| c.len())
                    )
                })
                .collect();
            println!(
                "{:<26} {:<22} distinct {:>7} terminal {:>6} {:>5}ms complete {} broken: {}",
                s.id,
                v.name,
                r.distinct_states,
                r.terminal_states,
                t.elapsed().as_millis(),
                r.complete,
                broken.join(" ")
            );
        }
    }
}
