//! A run as a scenario file (docs/scenario-format.md), for "Export JSON" and "Import JSON".
//!
//! The file is the scenario the run was built from, with the chosen variant's settings
//! applied, and the current branch written into its script: the script steps taken, then one
//! step per sandbox action. Its `open_at` is the step being looked at. So `fencing-lab run` on
//! it runs the same world, and importing it in the app shows the same world at the same step.
//!
//! A run the user forked (`view::branches`) keeps the script as written instead, with every
//! branch in `branches` (script steps taken, then the user's actions) and the one shown in
//! `open_branch`, which `fencing-lab run` runs and the app opens.

use crate::sim::run::Run;
use crate::sim::scenario::{Scenario, Step};
use crate::view::branches::Branches;

/// What an exported scenario's id ends with, so it never takes a preset's id (a link names a
/// preset by id alone, and the picker tells scenarios apart by id).
const SUFFIX: &str = "-export";

/// The run's current branch as a scenario. `base` is the scenario as the picker has it (its
/// variants); `run.scenario` has the chosen variant applied already.
pub fn export_scenario(run: &Run, base: &Scenario) -> Scenario {
    export_tree(run, base, &Branches::default())
}

/// As [`export_scenario`], with the run's other branches: with any, the file keeps the script
/// as written and every branch, the one shown named by `open_branch`.
pub fn export_tree(run: &Run, base: &Scenario, branches: &Branches) -> Scenario {
    let mut s = run.scenario.clone();
    let (script_steps, actions) = run.branch();
    // The chosen variant, whose stated outcome applies while the file is the script (its
    // settings are applied already, and applying them again changes nothing).
    let chosen: Vec<_> = run
        .variant
        .as_ref()
        .and_then(|n| base.variant(n))
        .cloned()
        .into_iter()
        .collect();
    // Narration for other variants has no variant to name in the file: a step that speaks
    // for this run's variant says so plainly; alternatives for a policy stay.
    for step in &mut s.script {
        let mine = step
            .say_if
            .iter()
            .find(|a| a.variant.is_some() && a.variant == run.variant)
            .map(|a| a.say.clone());
        match mine {
            Some(say) => {
                step.say = say;
                step.say_if.clear();
            }
            None => step.say_if.retain(|a| a.variant.is_none()),
        }
    }
    if branches.any() {
        let mut all = branches.specs();
        let at = branches.position();
        all.insert(at, run.as_branch());
        // The variants' stated outcomes are about the script; a branch the user acted in
        // is not, as below.
        s.variants = if all.iter().any(|b| !b.actions.is_empty()) {
            Vec::new()
        } else {
            chosen
        };
        s.branches = all;
        s.open_branch = Some(at);
    } else if actions.is_empty() {
        // The script as written: keep the chosen variant.
        s.variants = chosen;
    } else {
        // The user took over: the rest of the script never ran, and the variants' stated
        // outcomes are about the script, not about this branch.
        s.script.truncate(script_steps);
        s.script.extend(actions.into_iter().map(|a| Step {
            say: format!("Sandbox: {a}."),
            say_if: Vec::new(),
            actions: vec![a],
        }));
        s.variants.clear();
    }
    if !s.id.ends_with(SUFFIX) {
        s.id.push_str(SUFFIX);
        s.title = format!("{} (exported)", s.title);
    }
    s.open_at = Some(run.cursor());
    s
}

/// The export as the text of a file, laid out as `fencing-lab export` prints it.
pub fn export_json(run: &Run, base: &Scenario, branches: &Branches) -> String {
    // Compact serialisation, which links already use, then indented by hand: serde_json's
    // pretty printer would add a second copy of every serialiser to the app's WASM.
    let compact = serde_json::to_string(&export_tree(run, base, branches))
        .unwrap_or_else(|e| unreachable!("a scenario serialises: {e}"));
    indent(&compact) + "\n"
}

/// Compact JSON laid out as `serde_json::to_string_pretty` does (two spaces, `"key": value`,
/// `[]` and `{}` for empty ones).
fn indent(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0;
    let (mut in_string, mut escaped) = (false, false);
    let mut chars = compact.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n("  ", depth));
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                let close = if c == '{' { '}' } else { ']' };
                if chars.peek() == Some(&close) {
                    out.push(close);
                    chars.next();
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth -= 1;
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}

/// What the Export/Import panel says about the last file it saved or read: `ok` is false for
/// a file that could not be imported, read or saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileStatus {
    pub ok: bool,
    pub text: String,
}

impl FileStatus {
    pub fn imported(title: &str, step: usize) -> FileStatus {
        FileStatus {
            ok: true,
            text: format!("Imported “{title}”, at step {step}."),
        }
    }

    /// `why` names the JSON path of the problem (`Scenario::from_json`).
    pub fn not_imported(why: &str) -> FileStatus {
        FileStatus {
            ok: false,
            text: format!("Not imported: {why}. The current run was kept."),
        }
    }

    /// A download the panel started (`Ok(file name)`), or why it could not (`Err`).
    pub fn exported(result: Result<String, String>) -> FileStatus {
        match result {
            Ok(name) => FileStatus {
                ok: true,
                text: format!("Exported {name}."),
            },
            Err(why) => FileStatus {
                ok: false,
                text: format!("Could not export: {why}."),
            },
        }
    }
}

/// A file name for the export: the scenario's id and the step.
pub fn file_name(run: &Run, base: &Scenario, ext: &str) -> String {
    let id: String = base
        .id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("fencing-lab-{id}-step{}.{ext}", run.cursor())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;
    use crate::sim::Action;

    #[test]
    fn an_unchanged_run_exports_its_script_and_chosen_variant() {
        let base = presets::get("paused-writer").unwrap();
        let v = &base.variants[1];
        let mut run = Run::new(&base, Some(v));
        run.step_forward().unwrap();
        run.step_forward().unwrap();
        let s = export_scenario(&run, &base);
        assert_eq!(s.script, run.scenario.script);
        assert_eq!(s.variants, vec![v.clone()]);
        assert_eq!(s.open_at, Some(2));
        assert_eq!(s.id, "paused-writer-export");
        // Exporting an export keeps its id.
        let again = export_scenario(&Run::new(&s, s.variants.first()), &s);
        assert_eq!(again.id, s.id);
        assert_eq!(again.title, s.title);
        // What the command line reads.
        let text = export_json(&run, &base, &Branches::default());
        assert_eq!(Scenario::from_json(&text).unwrap(), s);
    }

    #[test]
    fn an_export_reads_back_and_narrates_as_the_run_did() {
        for base in presets::all() {
            for v in &base.variants {
                let mut run = Run::new(&base, Some(v));
                run.run_script().unwrap();
                let said: Vec<String> = (0..base.script.len())
                    .map(|i| run.step_narration(i).unwrap().to_string())
                    .collect();
                // The script as written, and a run the user took over after step 1.
                let mut forked = run.clone();
                forked.seek(1);
                forked.act(Action::Advance { ticks: 1 }).unwrap();
                for (r, steps) in [(&run, said.len()), (&forked, 1)] {
                    let text = export_json(r, &base, &Branches::default());
                    let s = Scenario::from_json(&text)
                        .unwrap_or_else(|e| panic!("{} / {}: {e}", base.id, v.name));
                    let back = Run::new(&s, s.variants.first());
                    for (i, want) in said.iter().enumerate().take(steps) {
                        assert_eq!(
                            back.step_narration(i),
                            Some(want.as_str()),
                            "{} / {} step {}",
                            base.id,
                            v.name,
                            i + 1
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn sandbox_actions_become_script_steps() {
        let base = presets::get("paused-writer").unwrap();
        let mut run = Run::new(&base, base.variants.first());
        run.step_forward().unwrap();
        run.act(Action::Advance { ticks: 2 }).unwrap();
        run.act(Action::Advance { ticks: 1 }).unwrap();
        let s = export_scenario(&run, &base);
        assert_eq!(s.script.len(), 3);
        assert_eq!(s.script[0], base.script[0]);
        assert_eq!(s.script[2].actions, vec![Action::Advance { ticks: 1 }]);
        assert!(s.variants.is_empty());
        // Running the whole file gives the same world.
        let mut replay = Run::new(&s, None);
        replay.run_script().unwrap();
        assert_eq!(replay.world().fingerprint(), run.world().fingerprint());
        assert!(replay.events().eq(run.events()));
    }

    #[test]
    fn the_file_reads_like_the_command_line_export() {
        for s in presets::all() {
            let run = Run::new(&s, None);
            let e = export_scenario(&run, &s);
            assert_eq!(
                export_json(&run, &s, &Branches::default()),
                e.to_json() + "\n",
                "{}",
                s.id
            );
        }
        // Strings with the characters the layout cares about.
        let mut s = presets::get("sandbox").unwrap();
        s.summary = r#"a "quoted" {brace}, [list]: \ done"#.into();
        let run = Run::new(&s, None);
        assert_eq!(
            export_json(&run, &s, &Branches::default()),
            export_scenario(&run, &s).to_json() + "\n"
        );
    }

    #[test]
    fn statuses_say_what_happened() {
        let bad = Scenario::from_json(r#"{"version": 1, "id": 3}"#).unwrap_err();
        let st = FileStatus::not_imported(&bad);
        assert!(!st.ok);
        assert!(st.text.contains("id: invalid type"), "{}", st.text);
        assert!(st.text.ends_with("The current run was kept."));
        assert!(FileStatus::imported("T", 4).ok);
        assert_eq!(
            FileStatus::exported(Ok("a.svg".into())).text,
            "Exported a.svg."
        );
        let e = FileStatus::exported(Err("no canvas".into()));
        assert!(!e.ok);
        assert_eq!(e.text, "Could not export: no canvas.");
    }

    #[test]
    fn file_names_are_plain() {
        let base = presets::get("paused-writer").unwrap();
        let run = Run::new(&base, None);
        assert_eq!(
            file_name(&run, &base, "svg"),
            "fencing-lab-paused-writer-step0.svg"
        );
    }
}
