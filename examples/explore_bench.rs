//! The explorer panel's search, natively: for every preset under its default choice (what the
//! Scenario picker loads), a `view::explore::Session` with the page's bounds (at most
//! `APP_MAX_STATES` distinct states), its request served by the worker's loop
//! (`view::search::serve`) to the end with a real clock, as the page's Web Worker runs it, and
//! every reply received by the session. The native side of the browser figures in
//! docs/performance.md.
//!
//!   cargo run --release --example explore_bench [-- --runs N] [-- ID]
//!
//! Prints one line per preset (median of N runs, default 3) and a JSON line per preset.
use fencing_lab::view::explore::{main_search, Session};
use fencing_lab::view::search::serve;
use fencing_lab::view::state::{load_presets, AppState, Msg};
use std::time::Instant;

fn main() {
    let mut runs = 3usize;
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--runs" {
            runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(3).max(1);
        } else {
            only = Some(a);
        }
    }
    let mut app = AppState::new(load_presets());
    let ids: Vec<String> = app.scenarios.iter().map(|s| s.id.clone()).collect();
    let mut total_ms = 0.0;
    let mut total_states = 0usize;
    for id in ids {
        if only.as_deref().is_some_and(|o| o != id) {
            continue;
        }
        app.apply(Msg::LoadId(id.clone()));
        let choice = app.choice.value();
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..runs {
            let clock = Instant::now();
            let now = move || clock.elapsed().as_secs_f64() * 1000.0;
            let mut s = Session::start(&app, main_search(&app), now());
            let request = s.request().to_string();
            serve(&request, &mut { now }, &mut |reply| {
                s.receive(&reply, now());
            });
            times.push(now());
            last = Some((s.report(), s.states_per_sec()));
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let ms = times[times.len() / 2];
        let (r, _) = last.unwrap();
        let per_sec = r.states as f64 * 1000.0 / ms;
        total_ms += ms;
        total_states += r.states;
        println!(
            "{:<26} {:<20} states {:>8} distinct {:>7} {:>8.1} ms {:>9.0} states/s complete {}",
            id, choice, r.states, r.distinct_states, ms, per_sec, r.complete
        );
        eprintln!(
            "{{\"id\":\"{}\",\"choice\":\"{}\",\"states\":{},\"distinct\":{},\"ms\":{:.1},\"msMin\":{:.1},\"msMax\":{:.1},\"statesPerSec\":{:.0},\"complete\":{}}}",
            id,
            choice,
            r.states,
            r.distinct_states,
            ms,
            times[0],
            times[times.len() - 1],
            per_sec,
            r.complete
        );
    }
    println!(
        "all: {} states in {:.0} ms, {:.0} states/s",
        total_states,
        total_ms,
        total_states as f64 * 1000.0 / total_ms.max(1e-9)
    );
}
