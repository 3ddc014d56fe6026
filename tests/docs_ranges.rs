//! docs/scenario-format.md's table of ranges says what the validator enforces: each row is
//! rebuilt from the constants the validator uses and compared with the docs' words, so a
//! changed limit (or a mistyped power of ten) fails here until the docs say it too.

use fencing_lab::sim::action::{MAX_AMOUNT, MAX_RUN_TICKS, MAX_STEP_TICKS, MAX_TICKS};
use fencing_lab::sim::scenario::{
    MAX_BRANCHES, MAX_BRANCH_ACTIONS, MAX_CLOCK_OFFSET, MAX_NODES, MAX_RATE_PERMILLE, MAX_REPLICAS,
    MAX_SCRIPT_STEPS, MAX_STEP_ACTIONS, MAX_TOKEN_START,
};
use fencing_lab::sim::Scenario;

/// As the docs write a number: `10⁹` for a large power of ten, `100,000` otherwise.
fn n(v: i128) -> String {
    const SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let digits = v.to_string();
    let zeros = digits.len() - 1;
    if v >= 1_000_000_000 && digits.trim_end_matches('0') == "1" {
        let exp: String = zeros
            .to_string()
            .chars()
            .map(|d| SUP[d as usize - '0' as usize])
            .collect();
        return format!("10{exp}");
    }
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The rows of the table under "| what | range |", as (what, range).
fn documented() -> Vec<(String, String)> {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/scenario-format.md"
    ))
    .expect("docs/scenario-format.md");
    let mut rows = Vec::new();
    let mut inside = false;
    for line in doc.lines().map(str::trim) {
        if line == "| what | range |" {
            inside = true;
            continue;
        }
        if inside {
            if !line.starts_with('|') {
                break;
            }
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            if cells[0].starts_with("---") {
                continue;
            }
            rows.push((cells[0].to_string(), cells[1].to_string()));
        }
    }
    rows
}

#[test]
fn the_documented_ranges_are_the_validators() {
    let t = n(MAX_TICKS as i128);
    let want: Vec<(&str, String)> = vec![
        (
            "locks, workers, resources (how many)",
            format!("1–{0} locks; 0–{0} workers and resources", MAX_NODES),
        ),
        (
            "`script` (steps); actions in one step",
            format!(
                "0–{}; 0–{}",
                n(MAX_SCRIPT_STEPS as i128),
                n(MAX_STEP_ACTIONS as i128)
            ),
        ),
        (
            "`branches` (how many); actions in one branch",
            format!("0–{}; 0–{}", MAX_BRANCHES, n(MAX_BRANCH_ACTIONS as i128)),
        ),
        (
            "`network.delay`; `network.jitter`",
            format!("1–{t} ticks; 0–{t} ticks"),
        ),
        (
            "`locks[].ttl`; `workers[].renew_every`",
            format!("1–{t} ticks"),
        ),
        (
            "`coordinator.replicas`; an issuer's `replicas`",
            format!("1–{MAX_REPLICAS}"),
        ),
        (
            "an issuer's `start`",
            format!("±{}", n(MAX_TOKEN_START as i128)),
        ),
        (
            "a clock's `offset`; its `rate_permille`",
            format!(
                "±{}; 0–{}",
                n(MAX_CLOCK_OFFSET as i128),
                n(MAX_RATE_PERMILLE as i128)
            ),
        ),
        (
            "an account's `balance`; a `debit` or `credit`",
            format!("±{}", n(MAX_AMOUNT as i128)),
        ),
        (
            "`advance.ticks`; `await.within`",
            format!("1–{0}; 0–{0}", n(MAX_STEP_TICKS as i128)),
        ),
        (
            "all the `advance` and `await` ticks of a run (script, link or file)",
            format!("at most {}", n(MAX_RUN_TICKS as i128)),
        ),
        (
            "`pause.ticks`; `hold.until`; `clock-jump.by`",
            format!("at most {t} (`by` either way)"),
        ),
    ];
    let got = documented();
    let got: Vec<(&str, &str)> = got.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let want: Vec<(&str, &str)> = want.iter().map(|(a, b)| (*a, b.as_str())).collect();
    assert_eq!(got, want);
}

/// The start at the documented bound runs; one past it is refused, naming the field.
#[test]
fn an_issuers_start_is_refused_just_past_its_documented_bound() {
    let text = |start: i64| {
        format!(
            r#"{{"version":1,"id":"s","title":"s","locks":[{{"name":"l","ttl":5,"issuer":{{"kind":"counter","start":{start}}}}}],"workers":[],"resources":[],"script":[]}}"#
        )
    };
    for s in [MAX_TOKEN_START, -MAX_TOKEN_START] {
        Scenario::from_json(&text(s)).expect("at the bound");
    }
    for s in [MAX_TOKEN_START + 1, -MAX_TOKEN_START - 1] {
        let e = Scenario::from_json(&text(s)).expect_err("past the bound");
        assert!(e.to_string().contains("locks[0].issuer.start"), "{e}");
    }
}
