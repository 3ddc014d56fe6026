//! The `fencing-lab` binary, run as a user runs it: list, run (text and JSON), export, and
//! every kind of bad input (one line on stderr, exit code 2, never a panic).

use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_fencing-lab");

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_with_stdin(args: &[&str], stdin: Option<&str>) -> Out {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .expect("piped")
            .write_all(text.as_bytes())
            .expect("stdin written");
    }
    let o = child.wait_with_output().expect("the binary finishes");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8(o.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(o.stderr).expect("stderr is UTF-8"),
    }
}

fn cli(args: &[&str]) -> Out {
    run_with_stdin(args, None)
}

/// A run that must succeed (exit 0, nothing on stderr).
fn ok(args: &[&str]) -> String {
    let o = cli(args);
    assert_eq!(
        o.code, 0,
        "fencing-lab {args:?} exited {}: {}",
        o.code, o.stderr
    );
    assert!(
        o.stderr.is_empty(),
        "fencing-lab {args:?} wrote to stderr: {}",
        o.stderr
    );
    o.stdout
}

fn json_of(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).expect("--format json prints JSON")
}

/// A scratch directory of this test's own, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("fencing-lab-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        Scratch(dir)
    }

    fn file(&self, name: &str, text: &str) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, text).expect("scratch file");
        p.to_str().expect("UTF-8 path").to_string()
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().expect("UTF-8 path").to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn request<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["requests"]
        .as_array()
        .expect("requests is a list")
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no request {id} in {report:#}"))
}

fn violation_kinds(report: &Value) -> Vec<String> {
    report["violations"]
        .as_array()
        .expect("violations is a list")
        .iter()
        .map(|v| v["kind"].as_str().expect("kind is a string").to_string())
        .collect()
}

fn paused_writer() -> Value {
    serde_json::from_str(&ok(&["export", "--preset", "paused-writer"])).expect("export prints JSON")
}

// ---------------------------------------------------------------------------------------

#[test]
fn help_prints_usage() {
    let out = ok(&["help"]);
    assert!(
        out.contains("Usage:") && out.contains("fencing-lab run"),
        "{out}"
    );
    assert_eq!(ok(&["--help"]), out);
    assert_eq!(ok(&["run", "--help"]), out);
}

#[test]
fn list_shows_every_preset_with_its_title_grouped_by_theme() {
    let out = ok(&["list"]);
    for s in fencing_lab::presets::all() {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(s.id.as_str()))
            .unwrap_or_else(|| panic!("{} is not listed:\n{out}", s.id));
        assert!(line.contains(&s.title), "{line}");
        if !s.theme.is_empty() {
            assert!(
                out.lines().any(|l| l == s.theme),
                "theme {} is not a heading:\n{out}",
                s.theme
            );
        }
    }
    let pw = out
        .lines()
        .find(|l| l.trim_start().starts_with("paused-writer"))
        .expect("paused-writer listed");
    assert!(pw.contains("A paused writer comes back"), "{pw}");
}

#[test]
fn run_text_shows_timeline_requests_violations_metrics_resources_and_expectation() {
    let out = ok(&["run", "--preset", "paused-writer"]);
    for heading in [
        "Timeline",
        "Requests",
        "Violations",
        "Metrics",
        "Resources",
        "Expected outcome",
    ] {
        assert!(
            out.lines().any(|l| l == heading),
            "no {heading} section:\n{out}"
        );
    }
    assert!(
        out.contains("variant highest-seen, policy highest-seen"),
        "{out}"
    );
    // One event a line: tick, actor, what happened, token, verdict.
    assert!(
        out.lines().any(|l| l.contains("t=16")
            && l.contains("report")
            && l.contains("rejects: stale")
            && l.contains("[token 41]")),
        "the stale rejection is not on the timeline:\n{out}"
    );
    let a = out
        .lines()
        .find(|l| l.trim_start().starts_with("A-stale "))
        .expect("A-stale in the request table");
    let cells: Vec<&str> = a.split_whitespace().collect();
    assert_eq!(
        cells,
        ["A-stale", "A", "report", "41", "rejected", "stale"],
        "{a}"
    );
    assert!(out.contains("Violations\n  none\n"), "{out}");
    assert!(out.contains("fencing rejected: stale"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.contains("report") && l.contains("highest 42") && l.contains("B's report")),
        "{out}"
    );
    assert!(out.contains("met: every stated outcome holds"), "{out}");
}

#[test]
fn run_text_unfenced_reports_the_stale_overwrite() {
    let out = ok(&["run", "--preset", "paused-writer", "--policy", "unfenced"]);
    let v = out
        .lines()
        .find(|l| l.contains("stale_overwrite"))
        .unwrap_or_else(|| panic!("no stale_overwrite line:\n{out}"));
    assert!(
        v.contains("t=16") && v.contains("report") && v.contains("A-stale"),
        "{v}"
    );
    assert!(
        out.contains("VIOLATION stale_overwrite"),
        "the timeline shows the violation:\n{out}"
    );
}

#[test]
fn run_json_highest_seen_rejects_the_stale_write() {
    let r = json_of(&["run", "--preset", "paused-writer", "--format", "json"]);
    assert_eq!(r["scenario"], "paused-writer");
    assert_eq!(r["variant"], "highest-seen");
    assert_eq!(r["policy"], "highest-seen");
    let a = request(&r, "A-stale");
    assert_eq!(
        (&a["from"], &a["resource"], &a["token"]),
        (&json!("A"), &json!("report"), &json!(41))
    );
    assert_eq!(
        (&a["outcome"], &a["reason"]),
        (&json!("rejected"), &json!("stale"))
    );
    let b = request(&r, "B-write");
    assert_eq!(
        (&b["token"], &b["outcome"], &b["reason"]),
        (&json!(42), &json!("accepted"), &Value::Null)
    );
    assert!(violation_kinds(&r).is_empty(), "{r:#}");
    assert_eq!(r["metrics"]["fencing_rejected_stale"], 1);
    assert_eq!(r["resources"][0]["highest"], 42);
    assert_eq!(r["resources"][0]["value"], "B's report");
    assert_eq!(r["expectation"]["met"], true, "{r:#}");
    // --policy naming the variant's policy picks that variant.
    assert_eq!(
        json_of(&[
            "run",
            "--preset",
            "paused-writer",
            "--policy",
            "highest-seen",
            "--format=json"
        ]),
        r
    );
}

#[test]
fn run_json_unfenced_accepts_it_and_reports_a_stale_overwrite() {
    let r = json_of(&[
        "run",
        "--preset",
        "paused-writer",
        "--policy",
        "unfenced",
        "--format",
        "json",
    ]);
    assert_eq!(r["variant"], "unfenced");
    assert_eq!(r["policy"], "unfenced");
    let a = request(&r, "A-stale");
    assert_eq!(
        (&a["token"], &a["outcome"], &a["reason"]),
        (&json!(41), &json!("accepted"), &Value::Null)
    );
    let v = r["violations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["kind"] == "stale_overwrite")
        .unwrap_or_else(|| panic!("no stale_overwrite in {r:#}"));
    assert_eq!(
        (&v["tick"], &v["resource"], &v["request"]),
        (&json!(16), &json!("report"), &json!("A-stale"))
    );
    assert!(v["detail"].as_str().unwrap().contains("A-stale"), "{v}");
    assert_eq!(r["resources"][0]["value"], "A's report");
    assert_eq!(r["expectation"]["met"], true);
    assert_eq!(
        json_of(&[
            "run",
            "--preset",
            "paused-writer",
            "--variant",
            "unfenced",
            "--format",
            "json"
        ]),
        r
    );
}

#[test]
fn a_policy_no_variant_runs_under_applies_to_the_scenario_unchecked() {
    let r = json_of(&[
        "run",
        "--preset",
        "paused-writer",
        "--policy",
        "strict",
        "--format",
        "json",
    ]);
    assert_eq!(r["policy"], "strict");
    assert_eq!(r["variant"], Value::Null);
    assert_eq!(request(&r, "A-stale")["reason"], "stale");
    assert_eq!(r["expectation"]["checked"], false);
    assert_eq!(r["expectation"]["met"], Value::Null);
    // A variant with another policy on top: the variant's expectation is not checked.
    let r = json_of(&[
        "run",
        "--preset",
        "paused-writer",
        "--variant",
        "unfenced",
        "--policy",
        "highest-seen",
        "--format",
        "json",
    ]);
    assert_eq!(
        (&r["variant"], &r["policy"]),
        (&json!("unfenced"), &json!("highest-seen"))
    );
    assert_eq!(request(&r, "A-stale")["outcome"], "rejected");
    assert_eq!(r["expectation"]["checked"], false);
}

#[test]
fn export_then_run_gives_the_same_report_for_every_preset_and_variant() {
    let dir = Scratch::new("roundtrip");
    for s in fencing_lab::presets::all() {
        let text = ok(&["export", "--preset", &s.id]);
        assert_eq!(
            fencing_lab::sim::Scenario::from_json(&text).as_ref(),
            Ok(&s),
            "{} exports as itself",
            s.id
        );
        let file = dir.file(&format!("{}.json", s.id), &text);
        let mut variants: Vec<Option<&str>> = vec![None];
        variants.extend(s.variants.iter().map(|v| Some(v.name.as_str())));
        for v in variants {
            let mut from_preset = vec!["run", "--preset", s.id.as_str(), "--format", "json"];
            let mut from_file = vec!["run", file.as_str(), "--format", "json"];
            if let Some(v) = v {
                from_preset.extend(["--variant", v]);
                from_file.extend(["--variant", v]);
            }
            let (a, b) = (cli(&from_preset), cli(&from_file));
            assert_eq!(
                a.code, b.code,
                "{} {v:?}: {} / {}",
                s.id, a.stderr, b.stderr
            );
            assert_eq!(
                a.stdout, b.stdout,
                "{} {v:?}: the export runs differently",
                s.id
            );
            assert_eq!(a.stderr, b.stderr);
        }
        // The text output too, and from standard input.
        let text_run = cli(&["run", "--preset", &s.id]);
        let piped = run_with_stdin(&["run", "-"], Some(&text));
        assert_eq!(
            (text_run.code, &text_run.stdout),
            (piped.code, &piped.stdout),
            "{}",
            s.id
        );
    }
}

#[test]
fn an_unmet_expectation_exits_1() {
    let mut s = paused_writer();
    s["variants"][0]["expect"]["requests"]["A-stale"] = json!({ "outcome": "accepted" });
    let dir = Scratch::new("mismatch");
    let file = dir.file("wrong.json", &s.to_string());
    let o = cli(&["run", &file]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stdout.contains("NOT MET")
            && o.stdout
                .contains("request A-stale: expected accepted, got rejected"),
        "{}",
        o.stdout
    );
    let j = cli(&["run", &file, "--format", "json"]);
    assert_eq!(j.code, 1);
    let r: Value = serde_json::from_str(&j.stdout).unwrap();
    assert_eq!(r["expectation"]["met"], false);
}

// ---------------------------------------------------------------------------------------
// Bad input

/// Exit 2, nothing on stdout, exactly one line on stderr naming the problem, no panic.
fn assert_bad(o: &Out, args: &[&str], mentions: &[&str]) {
    assert_eq!(
        o.code, 2,
        "fencing-lab {args:?} exited {} (stderr {:?})",
        o.code, o.stderr
    );
    assert!(
        o.stdout.is_empty(),
        "fencing-lab {args:?} printed {:?}",
        o.stdout
    );
    assert!(
        !o.stderr.contains("panicked") && !o.stderr.contains("internal error"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.ends_with('\n'), "{:?}", o.stderr);
    let lines: Vec<&str> = o.stderr.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "fencing-lab {args:?}: not one line: {:?}",
        o.stderr
    );
    assert!(lines[0].starts_with("fencing-lab: "), "{}", lines[0]);
    for m in mentions {
        assert!(
            lines[0].contains(m),
            "fencing-lab {args:?}: {:?} does not mention {m:?}",
            lines[0]
        );
    }
}

fn bad(args: &[&str], mentions: &[&str]) {
    assert_bad(&cli(args), args, mentions);
}

#[test]
fn bad_commands_and_flags() {
    bad(&[], &["no command"]);
    bad(&["frobnicate"], &["unknown command", "frobnicate"]);
    bad(&["--frob"], &["unknown flag", "--frob"]);
    bad(&["list", "--format", "json"], &["unknown flag", "--format"]);
    bad(&["list", "extra"], &["extra"]);
    bad(&["run"], &["--preset"]);
    bad(&["export"], &["--preset"]);
    bad(&["run", "--preset"], &["--preset needs a value"]);
    bad(
        &["run", "--preset", "paused-writer", "--frob", "1"],
        &["unknown flag", "--frob"],
    );
    bad(
        &["run", "--preset", "paused-writer", "-x"],
        &["unknown flag", "-x"],
    );
    bad(
        &["run", "--preset", "paused-writer", "--preset", "sandbox"],
        &["--preset", "twice"],
    );
    bad(
        &["run", "--preset", "paused-writer", "--format", "xml"],
        &["unknown format", "xml"],
    );
    bad(
        &["run", "--preset", "paused-writer", "a.json"],
        &["not both", "a.json"],
    );
    bad(
        &["export", "--preset", "paused-writer", "--policy", "strict"],
        &["unknown flag", "--policy"],
    );
}

#[test]
fn bad_preset_policy_and_variant() {
    bad(
        &["run", "--preset", "no-such-preset"],
        &["no preset", "no-such-preset"],
    );
    bad(
        &["export", "--preset", "no-such-preset"],
        &["no preset", "no-such-preset"],
    );
    bad(
        &[
            "run",
            "--preset",
            "paused-writer",
            "--policy",
            "mostly-fenced",
        ],
        &["unknown policy", "mostly-fenced", "highest-seen"],
    );
    bad(
        &["run", "--preset", "paused-writer", "--variant", "nope"],
        &["no variant", "nope", "unfenced"],
    );
    bad(
        &[
            "run",
            "--preset",
            "paused-writer",
            "--variant",
            "unfenced",
            "--policy",
            "nope",
        ],
        &["unknown policy", "nope"],
    );
}

#[test]
fn bad_files() {
    let dir = Scratch::new("bad");
    let missing = dir.path("missing.json");
    bad(&["run", &missing], &["cannot read", "missing.json"]);
    bad(&["run", dir.0.to_str().unwrap()], &["cannot read"]);

    let pw = paused_writer();
    let edit = |f: &dyn Fn(&mut Value)| {
        let mut s = pw.clone();
        f(&mut s);
        serde_json::to_string_pretty(&s).unwrap()
    };
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "malformed",
            "{ \"version\": 1, \"id\": ".into(),
            vec!["malformed.json", "EOF"],
        ),
        (
            "not-json",
            "version = 1".into(),
            vec!["not-json.json", "line 1"],
        ),
        ("empty", String::new(), vec!["empty.json"]),
        (
            "wrong-type",
            edit(&|s| s["locks"][0]["ttl"] = json!("ten")),
            vec!["locks[0].ttl", "invalid type", "\"ten\""],
        ),
        (
            "negative",
            edit(&|s| s["seed"] = json!(-1)),
            vec!["seed", "invalid value"],
        ),
        (
            "unknown-field",
            edit(&|s| s["workers"][1]["colour"] = json!("red")),
            vec!["workers[1].colour", "unknown field"],
        ),
        (
            "unknown-top",
            edit(&|s| s["colour"] = json!("red")),
            vec!["colour", "unknown field"],
        ),
        (
            "missing-field",
            edit(&|s| {
                s["locks"][0].as_object_mut().unwrap().remove("ttl");
            }),
            vec!["locks[0]", "missing field `ttl`"],
        ),
        (
            "unknown-action",
            edit(&|s| s["script"][0]["do"][0]["do"] = json!("explode")),
            vec!["script[0].do[0]", "explode"],
        ),
        (
            "unknown-policy",
            edit(&|s| s["policy"] = json!("mostly")),
            vec!["policy", "mostly"],
        ),
        (
            "unknown-kind",
            edit(&|s| s["resources"][0]["kind"] = json!({ "database": {} })),
            vec!["resources[0].kind", "database"],
        ),
        (
            "version",
            edit(&|s| s["version"] = json!(2)),
            vec!["version", "2"],
        ),
        (
            "no-worker",
            edit(&|s| s["script"][4]["do"][0]["worker"] = json!("Z")),
            vec!["script[4].do[0].worker", "“Z”"],
        ),
        (
            "no-resource",
            edit(&|s| s["script"][6]["do"][0]["write"]["to"] = json!(["nowhere"])),
            vec!["script[6].do[0].write.to[0]", "nowhere"],
        ),
        (
            "no-lock",
            edit(&|s| s["workers"][0]["lock"] = json!("other-lock")),
            vec!["workers[0].lock", "other-lock"],
        ),
        (
            "twice",
            edit(&|s| s["workers"][1]["name"] = json!("A")),
            vec!["workers[1].name", "twice"],
        ),
    ];
    for (name, text, mentions) in &cases {
        let file = dir.file(&format!("{name}.json"), text);
        bad(&["run", &file], mentions);
        bad(&["export", &file], mentions);
        // The same problem from standard input is named as <stdin>.
        let mut m = mentions.clone();
        m.retain(|x| !x.ends_with(".json"));
        m.push("<stdin>");
        assert_bad(
            &run_with_stdin(&["run", "-"], Some(text)),
            &["run", "-"],
            &m,
        );
    }
}

#[test]
fn a_script_step_the_world_refuses_exits_2_naming_the_step() {
    let dir = Scratch::new("refused");
    // A writes while it is paused: the world refuses, and the step and action are named.
    let mut s = paused_writer();
    s["script"][3]["do"] = json!([
        { "do": "advance", "ticks": 10 },
        { "do": "write", "worker": "A", "write": { "to": ["report"], "op": { "set": "x" } } }
    ]);
    let file = dir.file("paused.json", &s.to_string());
    bad(
        &["run", &file],
        &["paused.json", "script[3].do[1]", "A is paused"],
    );
    bad(
        &["run", &file, "--format", "json"],
        &["script[3].do[1]", "A is paused"],
    );
    // A message that is not in flight.
    let mut s = paused_writer();
    s["script"][0]["do"] = json!([{ "do": "deliver", "msg": { "request": "nothing" } }]);
    let file = dir.file("deliver.json", &s.to_string());
    bad(
        &["run", &file],
        &["script[0].do[0]", "no message in flight"],
    );
}

#[test]
fn the_acceptance_commands_from_the_readme() {
    let text = ok(&["run", "--preset", "paused-writer"]);
    assert!(text
        .lines()
        .any(|l| l.contains("A-stale") && l.contains("rejected") && l.contains("stale")));
    let text = ok(&["run", "--preset", "paused-writer", "--policy", "unfenced"]);
    assert!(text.contains("stale_overwrite"));
    assert!(Path::new(BIN).exists());
}

// ---------------------------------------------------------------------------------------
// docs/scenario-format.md stays true

fn format_doc() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scenario-format.md"))
        .expect("the format doc")
}

#[test]
fn the_format_docs_example_runs_and_meets_both_its_variants() {
    let doc = format_doc();
    let start = doc.find("```json\n").expect("a JSON example") + "```json\n".len();
    let example = &doc[start..start + doc[start..].find("```").expect("closed")];
    let s =
        fencing_lab::sim::Scenario::from_json(example).expect("the example is a valid scenario");
    assert_eq!(s.variants.len(), 2);
    let dir = Scratch::new("doc-example");
    let file = dir.file("example.json", example);
    for v in &s.variants {
        let r = json_of(&["run", &file, "--variant", &v.name, "--format", "json"]);
        assert_eq!(
            r["expectation"]["met"], true,
            "{} / {}: {:#}",
            s.id, v.name, r["expectation"]
        );
    }
    let fenced = json_of(&["run", &file, "--format", "json"]);
    assert_eq!(request(&fenced, "A-old")["reason"], "stale");
}

/// The names serde accepts for a type, from the error it gives for an unknown one.
fn accepted_names<T: serde::de::DeserializeOwned + std::fmt::Debug>(probe: Value) -> Vec<String> {
    let err = serde_json::from_value::<T>(probe)
        .expect_err("the probe is unknown")
        .to_string();
    let list = err
        .split("expected ")
        .nth(1)
        .unwrap_or_else(|| panic!("no list in {err}"));
    let list = list.strip_prefix("one of ").unwrap_or(list);
    list.split(", ")
        .flat_map(|x| x.split(" or "))
        .map(|n| n.trim_matches(|c| c == '`' || c == ' ').to_string())
        .collect()
}

#[test]
fn the_format_doc_names_every_action_kind_policy_issuer_and_metric() {
    use fencing_lab::sim::action::Action;
    use fencing_lab::sim::message::MessageKind;
    use fencing_lab::sim::resource::ResourceKind;
    use fencing_lab::sim::token::IssuerKind;
    let doc = format_doc();
    let mut names: Vec<String> = Vec::new();
    names.extend(accepted_names::<Action>(json!({ "do": "no-such-action" })));
    names.extend(accepted_names::<ResourceKind>(json!("no-such-kind")));
    names.extend(accepted_names::<IssuerKind>(
        json!({ "kind": "no-such-issuer" }),
    ));
    names.extend(accepted_names::<MessageKind>(json!("no-such-message")));
    // Every field of every object in the format.
    use fencing_lab::sim::scenario as sc;
    let unknown = || json!({ "zz-no-such-field": 1 });
    names.extend(accepted_names::<sc::Scenario>(unknown()));
    names.extend(accepted_names::<sc::CoordinatorSpec>(unknown()));
    names.extend(accepted_names::<sc::LockSpec>(unknown()));
    names.extend(accepted_names::<sc::WorkerSpec>(unknown()));
    names.extend(accepted_names::<sc::ResourceSpec>(unknown()));
    names.extend(accepted_names::<sc::Step>(unknown()));
    names.extend(accepted_names::<sc::Variant>(unknown()));
    names.extend(accepted_names::<sc::Settings>(unknown()));
    names.extend(accepted_names::<sc::Expectation>(unknown()));
    names.extend(accepted_names::<sc::ExpectedRequest>(unknown()));
    names.extend(accepted_names::<fencing_lab::sim::resource::ResourceOptions>(unknown()));
    names.extend(accepted_names::<fencing_lab::sim::message::NetworkSpec>(
        unknown(),
    ));
    names.extend(accepted_names::<fencing_lab::sim::time::Clock>(unknown()));
    names.extend(accepted_names::<fencing_lab::sim::worker::WriteSpec>(
        unknown(),
    ));
    names.extend(accepted_names::<fencing_lab::sim::MsgSel>(unknown()));
    names.extend(accepted_names::<fencing_lab::sim::Op>(
        json!({ "zz-no-such-op": 1 }),
    ));
    names.extend(accepted_names::<fencing_lab::sim::Reason>(json!(
        "zz-no-such-reason"
    )));
    names.extend(
        fencing_lab::sim::Policy::ALL
            .iter()
            .map(|p| p.as_str().to_string()),
    );
    names.extend(
        fencing_lab::sim::ViolationKind::ALL
            .iter()
            .map(|k| k.as_str().to_string()),
    );
    let metrics = serde_json::to_value(fencing_lab::sim::Metrics::default()).unwrap();
    names.extend(metrics.as_object().unwrap().keys().cloned());
    assert!(names.len() > 100, "{names:?}");
    for n in names {
        assert!(
            doc.contains(&format!("`{n}`")) || doc.contains(&format!("\"{n}\"")),
            "docs/scenario-format.md does not mention {n}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// check

fn invariant<'a>(report: &'a Value, kind: &str) -> &'a Value {
    report["invariants"]
        .as_array()
        .expect("invariants is a list")
        .iter()
        .find(|i| i["kind"] == kind)
        .unwrap_or_else(|| panic!("no invariant {kind} in {report}"))
}

#[test]
fn check_reports_counts_bounds_and_each_invariant() {
    let r = json_of(&[
        "check",
        "--preset",
        "paused-writer",
        "--policy",
        "unfenced",
        "--format",
        "json",
    ]);
    for field in ["states", "distinct_states", "terminal_states", "elapsed_ms"] {
        assert!(r[field].is_u64(), "{field} is a count: {r}");
    }
    assert!(r["distinct_states"].as_u64() <= r["states"].as_u64());
    assert!(r["terminal_states"].as_u64().unwrap() > 0);
    assert_eq!(r["complete"], true);
    assert!(r["bounds"]["max_depth"].is_u64() && r["bounds"]["max_pauses"].is_u64());
    let kinds: Vec<&str> = r["invariants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"stale_overwrite") && kinds.contains(&"double_execution"),
        "{kinds:?}"
    );
    let stale = invariant(&r, "stale_overwrite");
    assert_eq!(stale["held"], false);
    assert!(stale["counterexample"]
        .as_array()
        .is_some_and(|c| !c.is_empty()));
    assert_eq!(invariant(&r, "double_execution")["held"], true);
    assert!(invariant(&r, "double_execution")["counterexample"].is_null());

    // The fence holds where the lease alone did not.
    let fenced = json_of(&[
        "check",
        "--preset",
        "paused-writer",
        "--policy",
        "highest-seen",
        "--format",
        "json",
    ]);
    assert_eq!(invariant(&fenced, "stale_overwrite")["held"], true);
    assert!(invariant(&fenced, "stale_overwrite")["counterexample"].is_null());
}

#[test]
fn check_verdicts_match_the_explorer_for_delayed_before_new() {
    let hs = json_of(&[
        "check",
        "--preset",
        "delayed-before-new",
        "--policy",
        "highest-seen",
        "--format",
        "json",
    ]);
    assert_eq!(invariant(&hs, "superseded_write")["held"], false);
    let foa = json_of(&[
        "check",
        "--preset",
        "delayed-before-new",
        "--policy",
        "fence-on-acquire",
        "--format",
        "json",
    ]);
    for i in foa["invariants"].as_array().unwrap() {
        assert_eq!(i["held"], true, "fence-on-acquire: {i}");
    }
    let text = ok(&[
        "check",
        "--preset",
        "delayed-before-new",
        "--policy",
        "highest-seen",
    ]);
    assert!(text.contains("VIOLATED  superseded_write"), "{text}");
    assert!(text.contains("held      stale_overwrite"), "{text}");
}

#[test]
fn a_counterexample_replays_with_run_actions() {
    let report = ok(&[
        "check",
        "--preset",
        "paused-writer",
        "--policy",
        "unfenced",
        "--format",
        "json",
    ]);
    let r: Value = serde_json::from_str(&report).unwrap();
    let scratch = Scratch::new("counterexample");
    let violations = |out: &str| -> Vec<String> {
        let v: Value = serde_json::from_str(out).expect("run JSON");
        v["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["kind"].as_str().unwrap().to_string())
            .collect()
    };
    // The action list alone, one invariant, and the whole report piped in.
    let list = scratch.0.join("ce.json");
    std::fs::write(
        &list,
        invariant(&r, "stale_overwrite")["counterexample"].to_string(),
    )
    .unwrap();
    let one = scratch.0.join("inv.json");
    std::fs::write(&one, invariant(&r, "stale_overwrite").to_string()).unwrap();
    for file in [&list, &one] {
        let out = ok(&[
            "run",
            "--preset",
            "paused-writer",
            "--policy",
            "unfenced",
            "--actions",
            file.to_str().unwrap(),
            "--format",
            "json",
        ]);
        assert!(
            violations(&out).contains(&"stale_overwrite".to_string()),
            "{file:?}: {out}"
        );
    }
    let piped = run_with_stdin(
        &[
            "run",
            "--preset",
            "paused-writer",
            "--policy",
            "unfenced",
            "--actions",
            "-",
            "--format",
            "json",
        ],
        Some(&report),
    );
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    assert!(!violations(&piped.stdout).is_empty());
    // The same actions under the fence: the stale write is rejected.
    let out = ok(&[
        "run",
        "--preset",
        "paused-writer",
        "--policy",
        "highest-seen",
        "--actions",
        list.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(
        !violations(&out).contains(&"stale_overwrite".to_string()),
        "{out}"
    );
}

#[test]
fn check_and_run_actions_refuse_bad_input_in_one_line() {
    for args in [
        vec!["check", "--preset", "no-such-preset"],
        vec!["check", "--preset", "paused-writer", "--policy", "bogus"],
        vec!["check", "--preset", "paused-writer", "--max-states", "lots"],
        vec!["check", "--preset", "paused-writer", "--format", "xml"],
    ] {
        let o = cli(&args);
        assert_eq!(o.code, 2, "{args:?}");
        assert_eq!(o.stderr.lines().count(), 1, "{args:?}: {}", o.stderr);
        assert!(o.stderr.starts_with("fencing-lab: "), "{}", o.stderr);
    }
    let held = run_with_stdin(
        &["run", "--preset", "paused-writer", "--actions", "-"],
        Some(r#"{"kind":"x","held":true,"counterexample":null}"#),
    );
    assert_eq!(held.code, 2);
    assert!(held.stderr.contains("nothing to replay"), "{}", held.stderr);
    let bad = run_with_stdin(
        &["run", "--preset", "paused-writer", "--actions", "-"],
        Some(r#"[{"do":"acquire","worker":"A"},{"do":"fly"}]"#),
    );
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("[1]") && bad.stderr.contains("unknown variant `fly`"),
        "{}",
        bad.stderr
    );
    let refused = run_with_stdin(
        &["run", "--preset", "paused-writer", "--actions", "-"],
        Some(r#"[{"do":"crash","worker":"Z"}]"#),
    );
    assert_eq!(refused.code, 2);
    assert!(refused.stderr.contains("action [0]"), "{}", refused.stderr);
}

// ---------------------------------------------------------------------------------------
// render

/// The text of every node of a parsed SVG.
fn svg_texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("render writes well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter_map(|n| n.text())
        .map(str::to_string)
        .collect()
}

#[test]
fn render_writes_the_whole_timeline_as_svg() {
    let dir = Scratch::new("render");
    let out = dir.path("pw.svg");
    assert_eq!(
        ok(&["render", "--preset", "paused-writer", "--svg", &out]),
        ""
    );
    let t = svg_texts(&std::fs::read_to_string(&out).expect("the SVG was written"));
    assert!(t.iter().any(|x| x == "rejected: stale"), "{t:?}");
    assert!(t.iter().any(|x| x.contains("A-stale")), "{t:?}");
    // The title and the setting, so the picture reads on its own in a document.
    assert!(t.iter().any(|x| x == "A paused writer comes back"), "{t:?}");
    assert!(t.iter().any(|x| x.contains("policy highest-seen")), "{t:?}");
    // Under another policy, to stdout: the stale write goes through.
    let svg = ok(&[
        "render",
        "--preset",
        "paused-writer",
        "--policy",
        "unfenced",
        "--svg",
        "-",
    ]);
    let t = svg_texts(&svg);
    assert!(!t.iter().any(|x| x == "rejected: stale"));
    assert!(t.iter().any(|x| x.contains("stale overwrite")), "{t:?}");
    // A file (here an export) renders like the preset.
    let file = dir.file("pw.json", &ok(&["export", "--preset", "paused-writer"]));
    let from_file = ok(&["render", &file, "--svg", "-"]);
    assert_eq!(
        svg_texts(&from_file)
            .iter()
            .filter(|x| x.contains("A-stale"))
            .count(),
        svg_texts(&std::fs::read_to_string(&out).unwrap())
            .iter()
            .filter(|x| x.contains("A-stale"))
            .count()
    );
}

#[test]
fn render_bad_input() {
    bad(&["render", "--preset", "paused-writer"], &["--svg"]);
    bad(
        &["render", "--preset", "no-such-preset", "--svg", "-"],
        &["no preset", "no-such-preset"],
    );
    bad(&["render", "--svg", "-"], &["--preset"]);
    bad(
        &[
            "render",
            "--preset",
            "paused-writer",
            "--svg",
            "/no/such/dir/x.svg",
        ],
        &["cannot write", "x.svg"],
    );
    bad(
        &[
            "render",
            "--preset",
            "paused-writer",
            "--format",
            "json",
            "--svg",
            "-",
        ],
        &["unknown flag", "--format"],
    );
}

// ---------------------------------------------------------------------------------------
// Hostile input: every number in range, names that cannot drive the terminal, bounded reads

#[test]
fn numbers_out_of_range_are_refused_with_their_path() {
    let dir = Scratch::new("ranges");
    type Case = (&'static str, fn(&mut Value), &'static str);
    let cases: [Case; 9] = [
        (
            "script ticks",
            |s| s["script"][0]["do"] = json!(vec![json!({"do": "advance", "ticks": 100_000}); 11]),
            "script (ticks of advance and await in all): must be from 0 to 1000000",
        ),
        (
            "jitter",
            |s| s["network"] = json!({"delay": 1, "jitter": u64::MAX}),
            "network.jitter: must be from 0 to",
        ),
        (
            "ttl",
            |s| s["locks"][0]["ttl"] = json!(i64::MAX),
            "locks[0].ttl: must be from 1 to",
        ),
        (
            "replicas",
            |s| {
                s["locks"][0]["issuer"] =
                    json!({"kind": "independent-counters", "replicas": 1u64 << 40})
            },
            "locks[0].issuer.replicas",
        ),
        (
            "coordinator replicas",
            |s| s["coordinator"] = json!({"replicas": 1u64 << 27}),
            "coordinator.replicas",
        ),
        (
            "offset",
            |s| s["workers"][0]["clock"] = json!({"offset": i64::MAX, "rate_permille": 1000}),
            "workers[0].clock.offset",
        ),
        (
            "rate",
            |s| s["workers"][0]["clock"] = json!({"offset": 0, "rate_permille": u32::MAX}),
            "workers[0].clock.rate_permille",
        ),
        (
            "clock jump",
            |s| s["script"][0]["do"] = json!([{"do": "clock-jump", "node": "A", "by": i64::MIN}]),
            "script[0].do[0].by: a clock jump of at most",
        ),
        (
            "variant ttl",
            |s| s["variants"][0]["settings"] = json!({"ttl": u64::MAX}),
            "variants[0]",
        ),
    ];
    for (name, mutate, mention) in cases {
        let mut s = paused_writer();
        mutate(&mut s);
        let f = dir.file(&format!("{}.json", name.replace(' ', "-")), &s.to_string());
        bad(&["run", &f], &[mention]);
        bad(&["check", &f], &[mention]);
    }
}

#[test]
fn names_cannot_drive_the_terminal_and_long_values_are_cut() {
    let dir = Scratch::new("terminal");
    let evil = "R\u{1b}[2J\u{1b}[31mFAKE: all good\u{9b}";
    let mut s: Value = serde_json::from_str(&ok(&["export", "--preset", "sandbox"])).unwrap();
    s["resources"][0]["name"] = json!(evil);
    let f = dir.file("ansi-run.json", &s.to_string());
    // Shown, escaped, in the report...
    let out = ok(&["run", &f]);
    assert!(!out.contains('\u{1b}') && !out.contains('\u{9b}'), "{out}");
    assert!(out.contains("R\\u001b[2J"), "{out}");
    // ...and in JSON, which stays JSON with the name intact.
    let j = json_of(&["run", &f, "--format", "json"]);
    assert_eq!(j["resources"][0]["name"], evil);
    // In an error message, escaped and on one line.
    let r = s["resources"][0].clone();
    s["resources"].as_array_mut().unwrap().push(r);
    let f = dir.file("ansi-error.json", &s.to_string());
    let o = cli(&["run", &f]);
    assert_bad(&o, &["run", &f], &["\\u001b[2J", "is used twice"]);
    assert!(!o.stderr.contains('\u{1b}'));
    // Unicode's line and paragraph separators and format characters are escaped too: the
    // error stays one line in any reader, and nothing invisible hides in it.
    for (c, shown) in [
        ('\u{2028}', "\\u2028"),
        ('\u{2029}', "\\u2029"),
        ('\u{feff}', "\\ufeff"),
        ('\u{200b}', "\\u200b"),
        ('\u{2066}', "\\u2066"),
    ] {
        let mut t = paused_writer();
        t["script"][0]["do"][0]["worker"] = json!(format!("A{c}Z"));
        let f = dir.file("separator.json", &t.to_string());
        let o = cli(&["run", &f]);
        assert_eq!(o.code, 2, "{}", o.stderr);
        assert!(!o.stderr.contains(c), "{:?}", o.stderr);
        assert!(o.stderr.contains(&format!("A{shown}Z")), "{}", o.stderr);
        assert_eq!(o.stderr.trim_end().lines().count(), 1);
    }
    // A megabyte name gives a message of a few hundred characters.
    s["resources"][0]["name"] = json!("R".repeat(1 << 20));
    s["resources"][1]["name"] = json!("R".repeat(1 << 20));
    let f = dir.file("long.json", &s.to_string());
    let o = cli(&["run", &f]);
    assert_bad(&o, &["run", &f], &["more characters)"]);
    assert!(o.stderr.len() < 2000, "{} bytes", o.stderr.len());
}

#[test]
fn an_endless_input_is_refused_not_read_to_exhaustion() {
    if Path::new("/dev/zero").exists() {
        bad(&["run", "/dev/zero"], &["larger than 16 MB"]);
    }
}

/// One rule for "this policy": for every preset and policy, `--policy` runs the variant the
/// app's picker shows for it (`Choice::parse`), or the plain policy when the picker has none.
#[test]
fn the_cli_and_the_app_resolve_a_policy_to_the_same_variant() {
    use fencing_lab::sim::Policy;
    use fencing_lab::view::state::Choice;
    for s in fencing_lab::presets::all() {
        for p in Policy::ALL {
            let app = match Choice::parse(&s, p.as_str()).expect("every policy parses") {
                Choice::Variant(v) => json!(v),
                Choice::Policy(_) => Value::Null,
            };
            let r = json_of(&[
                "run",
                "--preset",
                &s.id,
                "--policy",
                p.as_str(),
                "--format",
                "json",
            ]);
            assert_eq!(r["variant"], app, "{} under {}", s.id, p.as_str());
            assert_eq!(r["policy"], p.as_str(), "{} under {}", s.id, p.as_str());
        }
    }
}

/// `--help` names every receiver policy the binary accepts, and each one named runs.
#[test]
fn help_lists_every_policy_the_cli_accepts() {
    let help = ok(&["help"]);
    for p in fencing_lab::sim::Policy::ALL {
        let name = p.as_str();
        assert!(help.contains(name), "--help does not name {name}");
        ok(&["run", "--preset", "paused-writer", "--policy", name]);
    }
}

#[test]
fn a_file_with_branches_runs_its_open_branch_and_refuses_a_bad_one() {
    let mut s = paused_writer();
    // Branch 0: the script to step 3, then 5 ticks; branch 1, open: the script to step 2.
    s["variants"] = json!([]);
    s["branches"] = json!([
        { "script_steps": 3, "do": [{ "do": "advance", "ticks": 5 }], "open_at": 4 },
        { "script_steps": 2, "open_at": 2 }
    ]);
    s["open_branch"] = json!(1);
    let dir = Scratch::new("branches");
    let report = |s: &Value| -> Value {
        let file = dir.file("b.json", &s.to_string());
        serde_json::from_str(&ok(&["run", &file, "--format", "json"])).expect("JSON")
    };
    // Each as a plain file whose script is the branch's steps.
    let plain = |steps: usize, extra: Option<Value>| -> Value {
        let mut p = paused_writer();
        p["variants"] = json!([]);
        let mut script: Vec<Value> = p["script"].as_array().unwrap()[..steps].to_vec();
        script.extend(extra.map(|a| json!({ "say": "", "do": [a] })));
        p["script"] = Value::Array(script);
        p
    };
    let (open, reference) = (report(&s), report(&plain(2, None)));
    assert_eq!(open["requests"], reference["requests"]);
    assert_eq!(open["ticks"], reference["ticks"]);
    s["open_branch"] = json!(0);
    let (open, reference) = (
        report(&s),
        report(&plain(3, Some(json!({ "do": "advance", "ticks": 5 })))),
    );
    assert_eq!(
        (&open["ticks"], &open["resources"]),
        (&reference["ticks"], &reference["resources"])
    );
    assert_ne!(open["ticks"], report(&plain(2, None))["ticks"]);
    // Refusals name the path.
    for (field, value, says) in [
        ("open_branch", json!(2), "open_branch: there is no branch 2"),
        (
            "branches",
            json!([{ "script_steps": 999 }]),
            "branches[0].script_steps",
        ),
        (
            "branches",
            json!([{ "script_steps": 0, "do": [{ "do": "pause", "worker": "Z" }] }]),
            "branches[0].do[0].worker: no worker named “Z”",
        ),
    ] {
        let mut bad = s.clone();
        bad[field] = value;
        let o = cli(&["run", &dir.file("bad.json", &bad.to_string())]);
        assert_eq!(o.code, 2, "{field}: {}", o.stderr);
        assert!(o.stderr.contains(says), "{field}: {}", o.stderr);
    }
}

/// Issue 32: a refused conditional write said only "precondition_failed (highest none)".
/// The log names the version the write named and the object's, as the store compared them;
/// the JSON report has them on the verdict, and the object's version on the resource.
#[test]
fn a_refused_conditional_write_shows_both_versions() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/s3-conditional-write.json"
    );
    let text = ok(&["run", file]);
    assert!(
        text.contains("report rejects: precondition_failed (the write names version 1, the object is at version 2)"),
        "{text}"
    );
    let report = json_of(&["run", file, "--format", "json"]);
    let refused = &request(&report, "A-stale")["verdicts"][0];
    assert_eq!(
        refused["versions"],
        json!({ "named": 1, "found": 2 }),
        "{refused}"
    );
    let resource = report["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "report")
        .unwrap();
    assert_eq!(resource["version"], json!(2));
    // No version where no write is conditional.
    let plain = paused_writer();
    assert!(plain["resources"][0].get("version").is_none(), "{plain}");
}

/// Issue 32: a registration of a token lower than the registered one was logged as
/// "registers the new token before its owner is told; highest 41", whatever happened. After
/// coordinator-restore's restore, 41 comes after 43: fence-on-acquire keeps 43, equal-token
/// replaces it, and each says so (neither claims to know which grant is newer).
#[test]
fn a_lower_registration_is_logged_as_kept_or_replaced() {
    let kept = ok(&[
        "run",
        "--preset",
        "coordinator-restore",
        "--policy",
        "fence-on-acquire",
    ]);
    assert!(
        kept.contains("report keeps 43: the token it is asked to register is lower, so nothing changes [token 41]"),
        "{kept}"
    );
    let replaced = ok(&[
        "run",
        "--preset",
        "coordinator-restore",
        "--policy",
        "equal-token",
    ]);
    assert!(
        replaced.contains("report replaces the registered 43 with a lower token: it keeps the latest registration, whatever its order; registered 41 [token 41]"),
        "{replaced}"
    );
    // The first grant's registration (t=2) is still a new token.
    for text in [&kept, &replaced] {
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("registers the new token"))
            .collect();
        assert!(
            lines
                .iter()
                .any(|l| l.contains("t=2 ") && l.contains("[token 41]")),
            "{lines:?}"
        );
        assert!(
            lines
                .iter()
                .all(|l| !l.contains("[token 41]") || l.contains("t=2 ")),
            "{lines:?}"
        );
    }
}
