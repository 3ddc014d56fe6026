//! The table: every preset, under every variant it contrasts, must end as it says.

use fencing_lab::presets;
use fencing_lab::sim::report::Report;
use fencing_lab::sim::Run;

#[test]
fn every_preset_meets_its_stated_outcome_under_each_variant() {
    let mut failures = Vec::new();
    for s in presets::all() {
        if s.id == "sandbox" {
            continue;
        }
        if s.variants.len() < 2 {
            failures.push(format!(
                "{}: contrasts {} variant(s); a preset contrasts at least two",
                s.id,
                s.variants.len()
            ));
        }
        for v in &s.variants {
            let e = &v.expect;
            if e.requests.is_empty() && e.violations.is_empty() && e.absent.is_empty() {
                failures.push(format!("{} / {}: states no outcome to check", s.id, v.name));
            }
            let mut run = Run::new(&s, Some(v));
            if let Err(err) = run.run_script() {
                failures.push(format!("{} / {}: script failed: {err}", s.id, v.name));
                continue;
            }
            for m in Report::of(&run).mismatches(e) {
                failures.push(format!("{} / {}: {m}", s.id, v.name));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_preset_is_complete_data() {
    for s in presets::all() {
        assert!(
            !s.title.starts_with("PLACEHOLDER"),
            "{} is a placeholder",
            s.id
        );
        assert!(
            !s.summary.is_empty() && !s.theme.is_empty(),
            "{} lacks summary or theme",
            s.id
        );
        if s.id != "sandbox" {
            assert!(!s.script.is_empty(), "{} has no script", s.id);
            assert!(
                s.script.iter().all(|st| !st.say.trim().is_empty()),
                "{} has a step without narration",
                s.id
            );
            assert!(
                s.variants.iter().all(|v| !v.outcome.is_empty()),
                "{} has a variant without an outcome text",
                s.id
            );
        }
    }
}

#[test]
fn preset_files_round_trip_through_the_scenario_format() {
    for s in presets::all() {
        let back =
            fencing_lab::sim::Scenario::from_json(&s.to_json()).expect("exported preset parses");
        assert_eq!(back, s, "{}", s.id);
    }
}
