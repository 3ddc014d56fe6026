use fencing_lab::sim::explore::{explore, Bounds};
fn main() {
    let id = std::env::args().nth(1).unwrap_or("paused-writer".into());
    let s = fencing_lab::presets::get(&id).unwrap();
    for v in &s.variants {
        let t = std::time::Instant::now();
        let r = explore(&s.with_variant(v), Some(v.name.clone()), Bounds::for_scenario(&s.with_variant(v)));
        println!("{} / {}: states {} distinct {} terminal {} complete {} in {:?}", id, v.name, r.states, r.distinct_states, r.terminal_states, r.complete, t.elapsed());
        for i in &r.invariants {
            println!("  {} held={} {}", i.kind, i.held, i.counterexample.as_ref().map(|c| c.iter().map(|a| a.to_string()).collect::<Vec<_>>().join("; ")).unwrap_or_default());
        }
    }
}
