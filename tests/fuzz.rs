//! The decoders under hostile input: mutations of every preset's JSON (numbers swapped for
//! extremes, bytes cut, inserted and repeated, deep nesting, unknown names), of links made
//! from real sessions, of action lists, and random embed queries. Each decoder must answer
//! with a value or an error, never a panic, and what it accepts must run without one.
//!
//! `make test` runs a fixed-seed slice (FUZZ_CASES, 1,500 per decoder by default);
//! `make fuzz` runs FUZZ_CASES=1000000 per decoder and prints the count and time.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use fencing_lab::link::{Link, ScenarioRef};
use fencing_lab::presets;
use fencing_lab::sim::{Action, Run, Scenario};
use fencing_lab::view::embed::EmbedOptions;
use fencing_lab::view::state::{load_presets, AppState};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Inputs a decoder accepted (the rest it refused with an error), for the report.
static ACCEPTED: AtomicUsize = AtomicUsize::new(0);

fn accepted() {
    ACCEPTED.fetch_add(1, Ordering::Relaxed);
}

fn cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_500)
}

/// Run `check` over `strategy` with a fixed seed; report how many inputs and how long.
fn fuzz<S: Strategy>(name: &str, strategy: S, check: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let config = Config {
        cases: cases(),
        rng_seed: RngSeed::Fixed(0x5eed_f022),
        failure_persistence: None,
        max_shrink_iters: 200,
        ..Config::default()
    };
    let start = Instant::now();
    let before = ACCEPTED.load(Ordering::Relaxed);
    let result = TestRunner::new(config).run(&strategy, check);
    eprintln!(
        "fuzz {name}: {} inputs in {:.1} s, {} of them accepted and run (counts may mix when tests run at once)",
        cases(),
        start.elapsed().as_secs_f64(),
        ACCEPTED.load(Ordering::Relaxed) - before
    );
    if let Err(e) = result {
        panic!("fuzz {name}: {e}");
    }
}

/// Values that break careless arithmetic and allocation, and values of the wrong type.
const EXTREMES: &[&str] = &[
    "-1",
    "0",
    "1e308",
    "-1e308",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "-9223372036854775808",
    "134217728",
    "1.5",
    "null",
    "true",
    "\"\"",
    "\"\\u001b[2J\"",
    "[]",
    "{}",
];

/// One edit of a text, at a position given as a fraction of its length.
#[derive(Clone, Debug)]
enum Edit {
    /// Replace the number (or word) nearest the position with an extreme.
    Number(u16, usize),
    Cut(u16, u16),
    Insert(u16, String),
    Repeat(u16, u16),
    Nest(u16, u8),
    Truncate(u16),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<u16>(), 0..EXTREMES.len()).prop_map(|(at, k)| Edit::Number(at, k)),
        1 => (any::<u16>(), 1u16..64).prop_map(|(at, n)| Edit::Cut(at, n)),
        1 => (any::<u16>(), "[\\[\\]{}\",:a-z0-9\\-]{1,8}").prop_map(|(at, s)| Edit::Insert(at, s)),
        1 => (any::<u16>(), 1u16..200).prop_map(|(at, n)| Edit::Repeat(at, n)),
        1 => (any::<u16>(), any::<u8>()).prop_map(|(at, d)| Edit::Nest(at, d)),
        1 => any::<u16>().prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut t = text.as_bytes().to_vec();
    let at = |t: &Vec<u8>, f: u16| (f as usize * t.len()) / (u16::MAX as usize + 1);
    for e in edits {
        match e {
            Edit::Number(f, k) => {
                let i = at(&t, *f);
                // The run of digits (or letters) at or after i.
                let Some(s) = (i..t.len()).find(|&j| t[j].is_ascii_alphanumeric()) else {
                    continue;
                };
                let end = (s..t.len())
                    .find(|&j| !t[j].is_ascii_alphanumeric() && t[j] != b'-' && t[j] != b'.')
                    .unwrap_or(t.len());
                t.splice(s..end, EXTREMES[*k].bytes());
            }
            Edit::Cut(f, n) => {
                let i = at(&t, *f);
                let end = (i + *n as usize).min(t.len());
                t.drain(i..end);
            }
            Edit::Insert(f, s) => {
                let i = at(&t, *f);
                t.splice(i..i, s.bytes());
            }
            Edit::Repeat(f, n) => {
                let i = at(&t, *f);
                let end = (i + *n as usize).min(t.len());
                let piece = t[i..end].to_vec();
                t.splice(end..end, piece);
            }
            Edit::Nest(f, d) => {
                let i = at(&t, *f);
                let depth = *d as usize * 4;
                let open = "[".repeat(depth) + &"]".repeat(depth);
                t.splice(i..i, open.bytes());
            }
            Edit::Truncate(f) => {
                let i = at(&t, *f);
                t.truncate(i);
            }
        }
    }
    String::from_utf8_lossy(&t).into_owned()
}

/// Whatever a reader accepted runs, under every variant, without a panic.
fn runs(s: &Scenario) {
    let _ = Run::replay(s, None, s.script.len(), &[]);
    for v in &s.variants {
        let _ = Run::replay(s, Some(v), s.script.len(), &[]);
    }
}

/// Fields whose numbers drive arithmetic and allocation, set whether the preset names them
/// or not (most presets leave the network and the clocks at their defaults).
const FIELDS: &[&[&str]] = &[
    &["network", "jitter"],
    &["network", "delay"],
    &["coordinator", "replicas"],
    &["coordinator", "clock", "offset"],
    &["coordinator", "clock", "rate_permille"],
    &["locks", "0", "ttl"],
    &["locks", "0", "issuer", "start"],
    &["locks", "0", "issuer", "replicas"],
    &["workers", "0", "clock", "offset"],
    &["workers", "0", "clock", "rate_permille"],
    &["workers", "0", "renew_every"],
    &["seed"],
    &["open_at"],
    &["script", "0", "do", "0", "ticks"],
    &["script", "0", "do", "0", "by"],
];

/// The preset's JSON with `field` set to an extreme number (made if absent).
fn with_field(text: &str, field: usize, extreme: usize) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).expect("presets are JSON");
    let mut at = &mut v;
    for key in FIELDS[field] {
        at = match key.parse::<usize>() {
            Ok(i) if at.is_array() => match at.get_mut(i) {
                Some(x) => x,
                None => return v.to_string(),
            },
            _ => {
                if !at.is_object() {
                    return v.to_string();
                }
                at.as_object_mut()
                    .expect("an object")
                    .entry(key.to_string())
                    .or_insert_with(|| serde_json::json!({}))
            }
        };
    }
    *at = serde_json::from_str(EXTREMES[extreme]).unwrap_or(serde_json::Value::Null);
    v.to_string()
}

#[test]
fn the_scenario_reader_never_panics() {
    let texts: Vec<&'static str> = presets::ids().filter_map(presets::source).collect();
    let n = texts.len();
    fuzz(
        "scenario reader",
        (
            0..n,
            prop::option::weighted(0.5, (0..FIELDS.len(), 0..EXTREMES.len())),
            prop::collection::vec(edit(), 0..3),
        ),
        |(i, field, edits)| {
            let base = match field {
                Some((f, k)) => with_field(texts[i], f, k),
                None => texts[i].to_string(),
            };
            let text = apply(&base, &edits);
            if let Ok(s) = Scenario::from_json(&text) {
                accepted();
                runs(&s);
            }
            Ok(())
        },
    );
}

/// Links of real sessions: every preset's script played, then sandbox actions.
fn links() -> Vec<String> {
    let mut out = Vec::new();
    for s in presets::all() {
        let mut run = Run::new(&s, s.variants.first());
        let _ = run.run_script();
        for k in 0..6 {
            let acts = run.world().enabled_actions();
            if acts.is_empty() {
                break;
            }
            let _ = run.act(acts[(k * 7) % acts.len()].clone());
        }
        let link = Link::of(&run, ScenarioRef::Preset(s.id.clone()), None, None);
        out.push(link.encode_from(&run, &[]));
    }
    out
}

#[test]
fn the_link_decoder_never_panics() {
    let links = links();
    let n = links.len();
    let bodies: Vec<Vec<u8>> = links
        .iter()
        .map(|l| {
            URL_SAFE_NO_PAD
                .decode(&l[3..])
                .expect("our own links decode")
        })
        .collect();
    fuzz(
        "link decoder",
        (
            0..n,
            prop::collection::vec((any::<u16>(), any::<u8>()), 0..6),
            any::<u16>(),
            prop::bool::weighted(0.1),
        ),
        |(i, flips, cut, random_text)| {
            let text = if random_text {
                // Not a link at all: random characters of the link alphabet and others.
                format!("v1.{}", String::from_utf8_lossy(&cut.to_le_bytes()))
            } else {
                let mut b = bodies[i].clone();
                for (at, byte) in flips {
                    let k = at as usize % b.len().max(1);
                    if let Some(x) = b.get_mut(k) {
                        *x = byte;
                    }
                }
                if cut % 5 == 0 {
                    b.truncate(cut as usize % (b.len() + 1));
                }
                format!("v1.{}", URL_SAFE_NO_PAD.encode(&b))
            };
            if let Ok(link) = Link::decode(&text) {
                accepted();
                let _ = link.to_run();
            }
            Ok(())
        },
    );
}

#[test]
fn the_action_list_reader_never_panics() {
    let sandbox = presets::get("sandbox").expect("sandbox");
    let list = serde_json::to_string(&vec![
        Action::Acquire {
            worker: "A".into(),
            lock: None,
        },
        Action::Advance { ticks: 2 },
        Action::ClockJump {
            node: "coordinator".into(),
            by: -4,
        },
        Action::Pause {
            worker: "A".into(),
            ticks: Some(3),
        },
        Action::Advance { ticks: 5 },
    ])
    .expect("serialises");
    fuzz(
        "action list reader",
        prop::collection::vec(edit(), 1..4),
        |edits| {
            let text = apply(&list, &edits);
            if let Ok(actions) = serde_json::from_str::<Vec<Action>>(&text) {
                accepted();
                let _ = Run::replay(&sandbox, None, 0, &actions);
            }
            Ok(())
        },
    );
}

#[test]
fn the_embed_query_parser_never_panics() {
    let base = AppState::new(load_presets());
    fuzz("embed query parser", "[?&=%a-z0-9\\-]{0,60}", |tail| {
        for query in [format!("?embed&{tail}"), tail.clone()] {
            if let Some(o) = EmbedOptions::parse(&query) {
                accepted();
                let mut state = base.clone();
                let _ = o.apply(&mut state);
            }
        }
        Ok(())
    });
}
