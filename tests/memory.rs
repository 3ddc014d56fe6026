//! Memory grows with a run, not its square (issue 33). A run keeps a snapshot of the world
//! per step; what grows with the run's history (the checker's violations, the overlaps, an
//! email outbox, a content store's keys, recorded results) must be shared between snapshots,
//! or each step copies the whole history and a long run's memory is quadratic (a preset
//! repeated to 4,000 steps took 850 MB, 10,000 steps aborted at 2.4 GB).
//!
//! A counting allocator measures the bytes still allocated while a run is held: doubling the
//! steps may at most about double them. One test only, so no other test's allocations run
//! on another thread while it counts.

use fencing_lab::presets;
use fencing_lab::sim::{Run, Scenario};
use serde_json::{json, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
        System.alloc(l)
    }

    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        System.dealloc(p, l)
    }

    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE.fetch_add(new as isize - l.size() as isize, Ordering::Relaxed);
        System.realloc(p, l, new)
    }
}

#[global_allocator]
static A: Counting = Counting;

/// A preset with its script's steps repeated to `n` steps, and no variants.
fn repeated(id: &str, n: usize) -> Value {
    let mut s: Value = serde_json::from_str(presets::source(id).expect("a preset")).unwrap();
    let script = s["script"].as_array().unwrap().clone();
    s["script"] = script.iter().cycle().take(n).cloned().collect();
    s["variants"] = json!([]);
    s
}

/// The sandbox's workers writing to one destination, `resource`: A acquires, then writes (a
/// new operation each time), lets a tick pass, renews, lets a tick pass, over and over (`n`
/// steps in all).
fn writes_to(resource: Value, n: usize) -> Value {
    let mut s: Value = serde_json::from_str(presets::source("sandbox").unwrap()).unwrap();
    s["resources"] = json!([resource]);
    let acquire = json!({ "say": "A acquires.", "do": [
        { "do": "acquire", "worker": "A" }, { "do": "await", "worker": "A" }] });
    let cycle = [
        json!({ "say": "A emails.", "do": [{ "do": "write", "worker": "A",
            "write": { "to": [s["resources"][0]["name"].clone()], "op": { "set": "Your order has shipped" } } }] }),
        json!({ "say": "Time passes.", "do": [{ "do": "advance", "ticks": 1 }] }),
        json!({ "say": "A renews.", "do": [{ "do": "renew", "worker": "A" }] }),
        json!({ "say": "Time passes.", "do": [{ "do": "advance", "ticks": 1 }] }),
    ];
    let script: Vec<Value> = std::iter::once(acquire)
        .chain(cycle.iter().cycle().take(n - 1).cloned())
        .collect();
    s["script"] = script.into();
    s
}

fn emails(n: usize) -> Value {
    writes_to(json!({ "name": "inbox", "kind": "email" }), n)
}

/// An API that records each operation's result (an idempotency key) and every call made.
fn api(n: usize) -> Value {
    let api = json!({ "name": "api", "kind": "idempotent-api", "options": { "dedup": true } });
    writes_to(api, n)
}

/// Bytes still allocated while the run of `s` to its end is held (the scenario's own
/// bytes included: those grow with its length too).
fn live_after_run(s: &Value) -> isize {
    let text = s.to_string();
    let before = LIVE.load(Ordering::Relaxed);
    let scenario = Scenario::from_json(&text).expect("a valid scenario");
    let mut run = Run::new(&scenario, None);
    run.run_script().expect("every step is taken");
    assert_eq!(run.len(), s["script"].as_array().unwrap().len());
    let live = LIVE.load(Ordering::Relaxed) - before;
    drop((run, scenario));
    live
}

/// A name, the run of `n` steps, and the `n` to double.
type Case = (&'static str, fn(usize) -> Value, usize);

#[test]
fn doubling_a_runs_steps_at_most_about_doubles_its_memory() {
    let cases: [Case; 5] = [
        (
            "cross-object-token",
            |n| repeated("cross-object-token", n),
            1000,
        ),
        (
            "coordinator-restore-epoch",
            |n| repeated("coordinator-restore-epoch", n),
            1000,
        ),
        (
            "immutable-thumbnail",
            |n| repeated("immutable-thumbnail", n),
            1000,
        ),
        ("email destination", emails, 2000),
        ("idempotent API with recorded results", api, 2000),
    ];
    // Every case measured before any is judged, so a failure shows them all.
    let mut report = Vec::new();
    let mut worst: f64 = 0.0;
    for (name, make, n) in cases {
        let (small, large) = (live_after_run(&make(n)), live_after_run(&make(2 * n)));
        let ratio = large as f64 / small as f64;
        worst = worst.max(ratio);
        report.push(format!(
            "{name}: {n} steps {} KB, {} steps {} KB, x{ratio:.2}",
            small / 1024,
            2 * n,
            large / 1024
        ));
        eprintln!("{}", report.last().unwrap());
    }
    assert!(
        worst <= 2.3,
        "memory grows faster than the run: {report:#?}"
    );
}
