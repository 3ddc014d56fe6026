//! Model throughput, native: simulated events per second on a long random schedule, and the
//! cost of one `Run` step (and of a report) once a run holds 10,000+ events.
//!
//! A small criterion-style harness on std alone (warm-up, repeated samples, median, min and
//! max), so the benchmark adds no dependency to the test build. `cargo bench --bench events`
//! runs it in full; run without `--bench` (as `cargo test --benches` does) it takes one quick
//! sample of each, as a smoke test. Figures go to docs/performance.md ("Model (native)").

use fencing_lab::sim::report::Report;
use fencing_lab::sim::rng::Rng;
use fencing_lab::sim::{Action, Run, Scenario, World};
use fencing_lab::view::layout;
use fencing_lab::view::state::{AppState, Msg};
use std::hint::black_box;
use std::time::Instant;

mod harness;
use harness::{fmt_time, measure, report};

const TARGET_EVENTS: usize = 10_000;
const CHOICE_SEED: u64 = 2024;

/// Three workers, one lock, one deduplicating store, a jittery network, a fixed seed.
fn scenario() -> Scenario {
    let s = serde_json::json!({
        "version": 1,
        "id": "bench",
        "title": "benchmark world",
        "seed": 42,
        "network": { "delay": 1, "jitter": 2 },
        "locks": [{ "name": "lock", "ttl": 8 }],
        "workers": [{ "name": "A" }, { "name": "B", "renew_every": 3 }, { "name": "C" }],
        "resources": [{ "name": "store", "kind": { "store": { "value": "initial" } }, "options": { "dedup": true } }]
    });
    Scenario::from_json(&s.to_string()).expect("valid bench scenario")
}

/// A random schedule over the world's own choices, long enough to produce `events` events.
fn schedule(s: &Scenario, events: usize) -> (Vec<Action>, usize) {
    let mut world = World::new(s);
    let mut rng = Rng::new(CHOICE_SEED);
    let mut actions = Vec::new();
    let mut count = 0;
    while count < events {
        let mut acts = world.enabled_actions();
        acts.push(Action::Advance { ticks: 4 });
        let a = acts[rng.upto(acts.len() as u64 - 1) as usize].clone();
        count += world.step(&a).expect("offered actions are accepted").len();
        actions.push(a);
    }
    (actions, count)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let full = args.iter().any(|a| a == "--bench");
    let filter = args.iter().find(|a| !a.starts_with('-')).cloned();
    let wanted = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
    let samples = |n: usize| if full { n } else { 1 };

    let s = scenario();
    let (actions, events) = schedule(&s, TARGET_EVENTS);
    println!(
        "schedule: {} actions, {events} events (seed {}, choice seed {CHOICE_SEED})",
        actions.len(),
        s.seed
    );

    if wanted("world/replay") {
        let st = measure(samples(30), || {
            let mut w = World::new(&s);
            let mut n = 0;
            for a in &actions {
                n += w.step(black_box(a)).expect("replays").len();
            }
            black_box((n, w.now()));
        });
        let rate = events as f64 / st.median.as_secs_f64();
        let extra = format!(
            "  thrpt: {:.2} M events/s, {:.0} k actions/s",
            rate / 1e6,
            actions.len() as f64 / st.median.as_secs_f64() / 1e3
        );
        report(
            "world/replay 10k events",
            &st,
            events as u64,
            "event",
            &extra,
        );
    }

    // A Run holding the whole schedule as user actions: a frame (world snapshot) per step.
    let mut run = Run::new(&s, None);
    let build = Instant::now();
    for a in &actions {
        run.act(a.clone()).expect("replays");
    }
    let build = build.elapsed();
    assert!(run.event_count() >= TARGET_EVENTS);
    if wanted("run/build") {
        println!(
            "{:<34} {} for {} steps: {} per step (incl. one world snapshot each)",
            "run/build by act",
            fmt_time(build),
            actions.len(),
            fmt_time(build / actions.len() as u32)
        );
    }

    if wanted("run/act") {
        // Steady state at the end of a 10k-event run: step back one, take the step again (a fork).
        let last = actions.last().expect("a schedule").clone();
        const BATCH: u32 = 200;
        let st = measure(samples(20), || {
            for _ in 0..BATCH {
                run.step_back();
                black_box(run.act(last.clone()).expect("replays"));
            }
        });
        report(
            "run/act at 10k events",
            &st,
            BATCH as u64,
            "step",
            "  (step back + act, which forks)",
        );
    }

    if wanted("run/step") {
        const BATCH: u32 = 10_000;
        let st = measure(samples(20), || {
            for _ in 0..BATCH {
                run.step_back();
                black_box(run.step_forward().expect("redo"));
            }
        });
        report(
            "run/step back+forward at 10k",
            &st,
            BATCH as u64,
            "pair",
            "  (frames already taken)",
        );
    }

    if wanted("run/seek") {
        let n = run.len();
        const BATCH: u32 = 1_000;
        let st = measure(samples(20), || {
            for i in 0..BATCH as usize {
                run.seek((i * 7919) % (n + 1));
                black_box(run.event_count());
            }
        });
        run.seek(n);
        report("run/seek anywhere at 10k", &st, BATCH as u64, "seek", "");
    }

    if wanted("view") {
        // What the page does per step, minus the DOM: the reducer clones the state and applies
        // the message, then the timeline is laid out again.
        let mut app = AppState::new(vec![s.clone()]);
        for a in &actions {
            app.apply(Msg::Act(a.clone()));
        }
        const BATCH: u32 = 20;
        let st = measure(samples(20), || {
            for _ in 0..BATCH {
                let mut next = app.clone();
                next.apply(Msg::StepBack);
                let mut again = next.clone();
                again.apply(Msg::StepForward);
                black_box(&again);
            }
        });
        report(
            "view/reduce (clone+apply) at 10k",
            &st,
            2 * BATCH as u64,
            "step",
            "",
        );
        let st = measure(samples(20), || {
            black_box(layout::layout(&app.run));
        });
        report(
            "view/layout at 10k events",
            &st,
            1,
            "layout",
            "  (the whole run)",
        );
        let first = layout::window_start(&app.run, layout::WINDOW_EVENTS);
        let st = measure(samples(50), || {
            black_box(layout::layout_from(&app.run, first));
        });
        report(
            "view/layout window at 10k events",
            &st,
            1,
            "layout",
            &format!(
                "  (the page's window: steps {first}.., about {} events)",
                layout::WINDOW_EVENTS
            ),
        );
    }

    if wanted("report") {
        let st = measure(samples(20), || {
            black_box(Report::of(&run));
        });
        report("report/of at 10k events", &st, 1, "report", "");
    }
}
