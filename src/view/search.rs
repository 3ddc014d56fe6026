//! The explorer's search off the page: the message protocol between the explorer panel
//! (`view::explore::Session`, `src/ui/components/explorer.rs`) and its Web Worker
//! (`src/bin/explorer_worker.rs`), and the loop the worker runs. Pure model and codec: no
//! browser, no clock of its own (the worker passes one in), so it is tested natively.
//!
//! One search per worker, JSON text both ways:
//!
//! ```text
//! worker → page   "ready"                                     its WASM is running
//! page → worker   {"protocol":1,"scenario":…,"origin":…}      a Request: what to explore
//! worker → page   {"progress":{"report":…,"frontier":N}}      every PROGRESS_MS or so
//! worker → page   {"done":{"report":…}}                       the search has stopped
//! worker → page   {"failed":{"error":"…"}}                    the request could not be run
//! ```
//!
//! The page waits for `ready` before it sends the request: a message that reached the worker
//! before its WASM had installed its handler would be lost. Cancel is `Worker.terminate()`:
//! the worker never reads a second message, so the search runs as one loop, without slices.

use crate::sim::explore::{Bounds, ExploreReport, Explorer};
use crate::sim::{Action, Run, Scenario};
use serde::{Deserialize, Serialize};

/// The version of this protocol. The worker's files are not content-hashed (trunk names a
/// worker after its binary), so a page and a worker of two builds can meet (one of them
/// cached); a request of another version is refused with a clear error, not misread.
pub const PROTOCOL: u32 = 1;

/// The worker's script, relative to the page: `static/explorer-worker-loader.js`, which loads
/// the worker binary's glue and WASM (trunk builds them, `data-type="worker"` in index.html).
/// Relative, so it resolves wherever the app is served: `dist/`, or `app/` inside the guide.
pub const WORKER_URL: &str = "./explorer-worker-loader.js";

/// How often the worker reports progress, in ms of its clock.
pub const PROGRESS_MS: f64 = 75.0;

/// States expanded between two looks at the clock.
const CHUNK: usize = 100;

/// Where a search starts: the scenario's first state, or the step on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    Start,
    Here,
}

/// What to explore: the page's run as `Run::replay` takes it, and the bounds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    pub protocol: u32,
    /// The scenario as the run has it: the chosen variant's settings already applied, so it
    /// is replayed with no variant.
    pub scenario: Scenario,
    /// The variant's name, for the report.
    pub variant: Option<String>,
    pub origin: Origin,
    /// How the run got to the step the search starts from (`Run::branch_to_cursor`):
    /// script steps, then the user's actions. Nothing for a search from the start.
    pub script_steps: usize,
    pub actions: Vec<Action>,
    pub bounds: Bounds,
}

/// What the worker says. Externally tagged (`{"progress":{…}}`): the page decodes the report
/// straight from the text, with no buffered copy of serde's for an internal tag (code size).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// Its WASM is running and listening: send the request.
    Ready,
    /// The report so far (incomplete), and the frontier still to expand.
    Progress {
        report: ExploreReport,
        frontier: usize,
    },
    /// The search has stopped: finished, or at the bound of distinct states.
    Done { report: ExploreReport },
    /// The request could not be read or replayed.
    Failed { error: String },
}

impl Request {
    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| unreachable!("a request serialises: {e}"))
    }

    /// Read a request; anything else is an error naming what is wrong, never a panic.
    pub fn decode(text: &str) -> Result<Request, String> {
        // The version first, so that another build's request says so rather than naming
        // whichever field changed.
        #[derive(Deserialize)]
        struct Version {
            protocol: Option<u32>,
        }
        let version: Version = serde_json::from_str(text)
            .map_err(|e| format!("the explorer's request is not a JSON object: {e}"))?;
        match version.protocol {
            Some(PROTOCOL) => {}
            Some(v) => {
                return Err(format!(
                "the explorer's request is of protocol {v}, this worker speaks {PROTOCOL}: reload the page"
            ))
            }
            None => return Err("the explorer's request has no protocol version".to_string()),
        }
        serde_json::from_str(text).map_err(|e| format!("the explorer's request: {e}"))
    }

    /// The search this request asks for: from the scenario's first state, or from the
    /// world its branch replays to, with the rest of the script — exactly what the panel
    /// searched on the page before the worker (`Explorer::new`, `Explorer::from_here` with
    /// the run's world and `Run::script_to_come` at the step on screen).
    pub fn explorer(&self) -> Result<Explorer, String> {
        match self.origin {
            Origin::Start => Ok(Explorer::new(
                &self.scenario,
                self.variant.clone(),
                self.bounds.clone(),
            )),
            Origin::Here => {
                let run = Run::replay(&self.scenario, None, self.script_steps, &self.actions)
                    .map_err(|r| {
                        format!("the run to search from could not be replayed: {}", r.what)
                    })?;
                Ok(Explorer::from_here(
                    &run.scenario,
                    self.variant.clone(),
                    run.world().clone(),
                    &run.script_to_come(),
                    self.bounds.clone(),
                ))
            }
        }
    }
}

impl Reply {
    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| unreachable!("a reply serialises: {e}"))
    }

    /// Read a reply; anything else is an error naming what is wrong, never a panic.
    pub fn decode(text: &str) -> Result<Reply, String> {
        serde_json::from_str(text).map_err(|e| format!("the explorer's worker said: {e}"))
    }
}

/// The worker's whole job for one message: read the request, search in chunks, post the
/// report so far every `PROGRESS_MS` of `now` (and after the first chunk, so the page has
/// figures at once), then the final report, timed from the request's arrival. A message that
/// is not a request gets `Failed`.
pub fn serve(text: &str, now: &mut dyn FnMut() -> f64, post: &mut dyn FnMut(String)) {
    let t0 = now();
    let explorer = Request::decode(text).and_then(|r| r.explorer());
    let mut e = match explorer {
        Ok(e) => e,
        Err(error) => return post(Reply::Failed { error }.encode()),
    };
    let mut last: Option<f64> = None;
    loop {
        let done = e.run(CHUNK);
        let t = now();
        let elapsed_ms = (t - t0).max(0.0) as u64;
        if done {
            let mut report = e.report();
            report.elapsed_ms = elapsed_ms;
            return post(Reply::Done { report }.encode());
        }
        if last.is_none_or(|l| t - l >= PROGRESS_MS) {
            last = Some(t);
            let mut report = e.report();
            report.elapsed_ms = elapsed_ms;
            report.complete = false;
            let (_, frontier) = e.progress();
            post(Reply::Progress { report, frontier }.encode());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::explore::explore;

    fn request(id: &str, origin: Origin) -> Request {
        let scenario = crate::presets::get(id).unwrap();
        Request {
            protocol: PROTOCOL,
            bounds: Bounds::for_scenario(&scenario),
            scenario,
            variant: None,
            origin,
            script_steps: 0,
            actions: Vec::new(),
        }
    }

    /// A clock that moves `step` ms each time it is read.
    fn clock(step: f64) -> impl FnMut() -> f64 {
        let mut t = 0.0;
        move || {
            t += step;
            t
        }
    }

    fn replies(text: &str, step: f64) -> Vec<Reply> {
        let mut out = Vec::new();
        serve(text, &mut clock(step), &mut |s| {
            out.push(Reply::decode(&s).expect("the worker's replies decode"))
        });
        out
    }

    #[test]
    fn requests_and_replies_round_trip_for_every_preset() {
        for s in crate::presets::all() {
            for variant in std::iter::once(None).chain(s.variants.iter().map(Some)) {
                let run = Run::new(&s, variant);
                let req = Request {
                    protocol: PROTOCOL,
                    scenario: run.scenario.clone(),
                    variant: variant.map(|v| v.name.clone()),
                    origin: Origin::Here,
                    script_steps: 2,
                    actions: vec![Action::Advance { ticks: 1 }],
                    bounds: Bounds::default(),
                };
                assert_eq!(
                    Request::decode(&req.encode()).as_ref(),
                    Ok(&req),
                    "{}",
                    s.id
                );
            }
        }
        let r = explore(
            &crate::presets::get("paused-writer").unwrap(),
            Some("unfenced".into()),
            Bounds::default(),
        );
        for reply in [
            Reply::Ready,
            Reply::Progress {
                report: r.clone(),
                frontier: 7,
            },
            Reply::Done { report: r },
            Reply::Failed { error: "no".into() },
        ] {
            assert_eq!(Reply::decode(&reply.encode()), Ok(reply));
        }
        assert_eq!(Reply::Ready.encode(), r#""ready""#);
    }

    #[test]
    fn bad_messages_give_a_clear_error() {
        let good = request("paused-writer", Origin::Start).encode();
        let other = good.replacen("\"protocol\":1", "\"protocol\":2", 1);
        let cases: Vec<(String, &str)> = vec![
            (String::new(), "not a JSON object"),
            ("[1,2]".into(), "not a JSON object"),
            ("{\"scenario\":{}}".into(), "no protocol version"),
            (other, "protocol 2, this worker speaks 1"),
            ("{\"protocol\":1}".into(), "missing field"),
            (
                good.replacen("\"origin\":\"start\"", "\"origin\":\"there\"", 1),
                "unknown variant",
            ),
            (good.replacen('}', ",\"extra\":1}", 1), "unknown field"),
        ];
        for (text, says) in cases {
            let e = Request::decode(&text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
            // The worker answers it with the error, and nothing else.
            assert_eq!(replies(&text, 1.0), [Reply::Failed { error: e }]);
        }
        for text in ["", "{}", "{\"progress\":{}}", "\"later\"", "\u{0}"] {
            assert!(Reply::decode(text).is_err(), "{text:?}");
        }
        // A branch the scenario refuses: the replay's own words.
        let mut req = request("paused-writer", Origin::Here);
        req.script_steps = 999;
        let e = Request::decode(&req.encode())
            .unwrap()
            .explorer()
            .err()
            .unwrap();
        assert!(
            e.contains("could not be replayed") && e.contains("script steps"),
            "{e}"
        );
    }

    #[test]
    fn the_worker_reports_progress_then_the_same_report_as_the_command_line() {
        let req = request("paused-writer", Origin::Start);
        // A slow clock: progress after the first chunk and then every PROGRESS_MS.
        let out = replies(&req.encode(), 10.0);
        let n = out.len();
        assert!(n > 3, "{n} replies");
        for (i, r) in out.iter().enumerate() {
            match r {
                Reply::Progress { report, frontier } => {
                    assert!(i < n - 1 && !report.complete && *frontier > 0);
                }
                Reply::Done { report } => {
                    assert_eq!(i, n - 1);
                    let cli = explore(&req.scenario, None, req.bounds.clone());
                    assert!(report.complete && report.elapsed_ms > 0);
                    assert_eq!(
                        (report.states, report.distinct_states, &report.invariants),
                        (cli.states, cli.distinct_states, &cli.invariants)
                    );
                    assert_eq!(report.milestones, cli.milestones);
                }
                other => panic!("{other:?}"),
            }
        }
        // Progress only grows.
        let seen: Vec<usize> = out
            .iter()
            .filter_map(|r| match r {
                Reply::Progress { report, .. } => Some(report.distinct_states),
                _ => None,
            })
            .collect();
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
        // A fast clock: one progress (after the first chunk), then the report.
        let out = replies(&req.encode(), 0.001);
        assert_eq!(out.len(), 2);
    }
}
