//! The `fencing-lab` command line: `list`, `run`, `check`, `export` and `render`, over the same model the
//! app draws.
//!
//! Arguments are parsed by hand (std only). Results go to stdout. Bad input — an unknown
//! command, flag, preset, variant or policy, an unreadable or invalid scenario file, a script
//! action the world refuses — is one line `fencing-lab: <problem>` on stderr and exit code 2.

use crate::presets;
use crate::sim::explore::{explore, Bounds, ExploreReport};
use crate::sim::report::Report;
use crate::sim::run::{Replayed, Run};
use crate::sim::scenario::{Scenario, Variant};
use crate::sim::{Action, Policy, World};
use std::fmt::Write as _;
use std::io::{Read, Write as _};

/// Exit code: the run finished, but the chosen variant's stated outcome did not hold.
pub const EXIT_MISMATCH: i32 = 1;
/// Exit code: bad input (one line on stderr).
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit code: a defect in this program (it reports one line instead of a panic message).
pub const EXIT_INTERNAL: i32 = 70;

pub const USAGE: &str = "\
fencing-lab: leases and fencing tokens, simulated

Usage:
  fencing-lab list
  fencing-lab run (--preset ID | FILE.json | -) [--variant NAME] [--policy P] [--format text|json]
  fencing-lab check (--preset ID | FILE.json | -) [--variant NAME] [--policy P] [--format text|json]
                   [--max-states N] [--depth N]
  fencing-lab export (--preset ID | FILE.json | -)
  fencing-lab render (--preset ID | FILE.json | -) [--variant NAME] [--policy P] --svg OUT.svg
  fencing-lab help

list     preset ids and titles, grouped by theme
run      run the whole script and print the timeline and verdicts (text) or the report (json)
check    explore every reachable state (delivery orders, holds, pauses, time) within bounds and
         report, per invariant, whether it held or the shortest run that breaks it
export   print a scenario as a scenario file (docs/scenario-format.md); running it gives the same result
render   run the whole script and write the timeline as a standalone SVG (--svg - : stdout)

Options of run:
  --preset ID      a built-in scenario (see `fencing-lab list`); or give a FILE.json, or - for stdin
  --variant NAME   run under that variant of the scenario (default: its first variant, if any)
  --policy P       unfenced | highest-seen | strict | check-then-write | fence-on-acquire |
                   equal-token, or a variant name: runs the variant with that name or that policy
                   (so its settings and expectations apply); otherwise applies P as the
                   scenario's receiver policy
  --format F       text (default) or json
  --actions FILE   run these actions from step 0 instead of the script: a JSON list of
                   actions, one invariant of `check --format json` (its counterexample), or a
                   whole check report (its first counterexample); - reads stdin

Options of render: --preset, --variant and --policy as for run, and
  --svg OUT.svg    where to write the SVG (required; - writes it to stdout)

Options of check: --preset, --variant, --policy and --format as for run, and
  --max-states N   stop after N distinct states (the report then says INCOMPLETE)
  --depth N        longest run explored, in actions

Exit status: 0 done (and the variant's stated outcome held); 1 the run finished but the
variant's stated outcome did not hold; 2 bad input, reported as one line on stderr.
check exits 0 whenever it finished, whether or not an invariant broke.
";

/// Something wrong with the input: reported as one line, exit code 2.
#[derive(Debug)]
struct Problem(String);

fn problem<T>(msg: impl Into<String>) -> Result<T, Problem> {
    Err(Problem(msg.into()))
}

/// What a command prints and how it exits.
struct Output {
    text: String,
    code: i32,
}

impl Output {
    fn ok(text: String) -> Self {
        Output { text, code: 0 }
    }
}

/// Runs the CLI with its arguments (without the program name); returns the process exit code.
pub fn main(args: Vec<String>) -> i32 {
    // A defect must still read as one line, not a panic message and a backtrace hint.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown failure".into());
        let at = info
            .location()
            .map(|l| format!(" ({}:{})", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("fencing-lab: internal error: {}{at}", one_line(&what));
    }));
    let result = std::panic::catch_unwind(|| dispatch(&args));
    std::panic::set_hook(previous);
    match result {
        Ok(Ok(out)) => {
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth a message.
            let _ = stdout
                .write_all(terminal_safe(&out.text).as_bytes())
                .and_then(|_| stdout.flush());
            out.code
        }
        Ok(Err(Problem(msg))) => {
            eprintln!("fencing-lab: {}", terminal_safe(&cut(&one_line(&msg))));
            EXIT_BAD_INPUT
        }
        Err(_) => EXIT_INTERNAL,
    }
}

/// Text for a terminal: a control character from a file (an escape sequence in a name, say)
/// is shown as a JSON-style `\u001b` rather than obeyed, so a scenario cannot clear the
/// screen or fake a line of output. Newlines and tabs stay; the escape is valid inside a JSON
/// string too, so `--format json` output stays JSON.
pub fn terminal_safe(text: &str) -> String {
    let unsafe_char =
        |c: char| (c.is_control() && c != '\n' && c != '\t') || is_format_or_separator(c);
    if !text.chars().any(unsafe_char) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if unsafe_char(c) {
                format!("\\u{:04x}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Unicode's line and paragraph separators (Zl, Zp) and format characters (Cf, Unicode 15):
/// invisible, or a line break to some readers (U+2028 in a JSON viewer or an editor), so a
/// one-line message would not stay one line, and a name could hide or reorder text.
fn is_format_or_separator(c: char) -> bool {
    matches!(c,
        '\u{00ad}' | '\u{0600}'..='\u{0605}' | '\u{061c}' | '\u{06dd}' | '\u{070f}'
        | '\u{0890}'..='\u{0891}' | '\u{08e2}' | '\u{180e}' | '\u{200b}'..='\u{200f}'
        | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206f}'
        | '\u{feff}' | '\u{fff9}'..='\u{fffb}' | '\u{110bd}' | '\u{110cd}'
        | '\u{13430}'..='\u{1343f}' | '\u{1bca0}'..='\u{1bca3}' | '\u{1d173}'..='\u{1d17a}'
        | '\u{e0001}' | '\u{e0020}'..='\u{e007f}')
}

/// The most characters of an error message: a message quoting a huge value says so briefly.
const MESSAGE_CHARS: usize = 600;

fn cut(msg: &str) -> String {
    match msg.char_indices().nth(MESSAGE_CHARS) {
        None => msg.to_string(),
        Some((at, _)) => format!(
            "{}… ({} more characters)",
            &msg[..at],
            msg[at..].chars().count()
        ),
    }
}

/// Any message as a single line.
fn one_line(msg: &str) -> String {
    msg.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn dispatch(args: &[String]) -> Result<Output, Problem> {
    let Some((cmd, rest)) = args.split_first() else {
        return problem("no command given; try `fencing-lab help`");
    };
    match cmd.as_str() {
        "list" => cmd_list(rest),
        "run" => cmd_run(rest),
        "export" => cmd_export(rest),
        "check" => cmd_check(rest),
        "render" => cmd_render(rest),
        "help" | "-h" | "--help" => Ok(Output::ok(USAGE.to_string())),
        "-V" | "--version" => Ok(Output::ok(format!(
            "fencing-lab {}\n",
            env!("CARGO_PKG_VERSION")
        ))),
        other if other.starts_with('-') => {
            problem(format!("unknown flag “{other}”; try `fencing-lab help`"))
        }
        other => problem(format!(
            "unknown command “{other}” (commands: list, run, check, export, render, help)"
        )),
    }
}

// ---------------------------------------------------------------------------------------
// Arguments

/// A command's arguments: `--name value` / `--name=value` flags and positional words.
#[derive(Default)]
struct Args {
    flags: Vec<(String, String)>,
    positional: Vec<String>,
    help: bool,
}

impl Args {
    fn parse(cmd: &str, args: &[String], known: &[&str]) -> Result<Args, Problem> {
        let mut out = Args::default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if a == "-h" || a == "--help" {
                out.help = true;
            } else if a == "-" || !a.starts_with('-') {
                out.positional.push(a.clone());
            } else if let Some(body) = a.strip_prefix("--").filter(|b| !b.is_empty()) {
                let (name, inline) = match body.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (body, None),
                };
                if !known.contains(&name) {
                    let hint = if known.is_empty() {
                        format!("{cmd} takes no flags")
                    } else {
                        let names: Vec<String> = known.iter().map(|k| format!("--{k}")).collect();
                        format!("{cmd} takes {}", names.join(", "))
                    };
                    return problem(format!("unknown flag “--{name}” for {cmd} ({hint})"));
                }
                let value = match inline {
                    Some(v) => v,
                    None => match it.next() {
                        Some(v) if !v.starts_with("--") => v.clone(),
                        _ => return problem(format!("--{name} needs a value")),
                    },
                };
                if value.is_empty() {
                    return problem(format!("--{name} needs a value"));
                }
                if out.flags.iter().any(|(n, _)| n == name) {
                    return problem(format!("--{name} is given twice"));
                }
                out.flags.push((name.to_string(), value));
            } else {
                return problem(format!("unknown flag “{a}” for {cmd}"));
            }
        }
        Ok(out)
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.flags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// `--format text` (the default) or `--format json`.
    fn format(&self) -> Result<Format, Problem> {
        match self.get("format") {
            None | Some("text") => Ok(Format::Text),
            Some("json") => Ok(Format::Json),
            Some(f) => problem(format!("unknown format “{f}” (formats: text, json)")),
        }
    }

    /// The scenario to work on: `--preset ID`, or one file (`-` is standard input).
    fn source(&self, cmd: &str) -> Result<Source, Problem> {
        match (self.get("preset"), self.positional.as_slice()) {
            (Some(_), [f, ..]) => problem(format!(
                "{cmd}: give --preset or a file, not both (got “{f}” too)"
            )),
            (Some(id), []) => Ok(Source::Preset(id.to_string())),
            (None, [f]) => Ok(Source::File(f.clone())),
            (None, []) => problem(format!(
                "{cmd}: which scenario? give --preset ID or a FILE.json"
            )),
            (None, [_, extra, ..]) => problem(format!(
                "{cmd}: one scenario file at a time (unexpected “{extra}”)"
            )),
        }
    }
}

enum Source {
    Preset(String),
    File(String),
}

impl Source {
    /// The scenario and the name its problems are reported under.
    fn load(&self) -> Result<(Scenario, String), Problem> {
        match self {
            Source::Preset(id) => match presets::get(id) {
                Some(s) => Ok((s, id.clone())),
                None => problem(format!("no preset named “{id}” (see `fencing-lab list`)")),
            },
            Source::File(path) => {
                let label = if path == "-" {
                    "<stdin>".to_string()
                } else {
                    path.clone()
                };
                let text =
                    read_input(path).map_err(|e| Problem(format!("cannot read {label}: {e}")))?;
                let s = Scenario::from_json(&text).map_err(|e| Problem(format!("{label}: {e}")))?;
                Ok((s, label))
            }
        }
    }
}

/// The largest input file read: far more than any scenario, far less than `/dev/zero`.
pub const MAX_INPUT_BYTES: u64 = 16 * 1024 * 1024;

fn read_input(path: &str) -> std::io::Result<String> {
    let source: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path)?)
    };
    let mut bytes = Vec::new();
    source.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} MB, far more than any scenario",
            MAX_INPUT_BYTES / 1024 / 1024
        )));
    }
    String::from_utf8(bytes).map_err(|_| std::io::Error::other("not UTF-8 text"))
}

// ---------------------------------------------------------------------------------------
// list

fn cmd_list(args: &[String]) -> Result<Output, Problem> {
    let a = Args::parse("list", args, &[])?;
    if a.help {
        return Ok(Output::ok(USAGE.to_string()));
    }
    if let Some(p) = a.positional.first() {
        return problem(format!("list takes no arguments (unexpected “{p}”)"));
    }
    let all = presets::all();
    let width = all.iter().map(|s| s.id.len()).max().unwrap_or(0);
    let mut themes: Vec<&str> = Vec::new();
    for s in &all {
        if !themes.contains(&s.theme.as_str()) {
            themes.push(&s.theme);
        }
    }
    let mut out = String::new();
    for (k, theme) in themes.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        out.push_str(if theme.is_empty() {
            "(no theme)"
        } else {
            theme
        });
        out.push('\n');
        for s in all.iter().filter(|s| s.theme == *theme) {
            let _ = writeln!(out, "  {:<width$}  {}", s.id, s.title);
        }
    }
    Ok(Output::ok(out))
}

// ---------------------------------------------------------------------------------------
// export

fn cmd_export(args: &[String]) -> Result<Output, Problem> {
    let a = Args::parse("export", args, &["preset"])?;
    if a.help {
        return Ok(Output::ok(USAGE.to_string()));
    }
    let (s, _) = a.source("export")?.load()?;
    Ok(Output::ok(s.to_json() + "\n"))
}

// ---------------------------------------------------------------------------------------
// run

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

/// Which variant a run uses, and what that means for its expectation.
struct Choice {
    /// The scenario to run (the base, or the base with `--policy` applied when no variant fits).
    scenario: Scenario,
    variant: Option<Variant>,
    /// Why the variant's expectation is not checked, when it is not.
    unchecked: Option<String>,
    /// The chosen variant as the scenario states it (for its outcome text and expectation).
    stated: Option<Variant>,
}

fn policy_names() -> String {
    Policy::ALL
        .iter()
        .map(|p| p.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn variant_names(s: &Scenario) -> String {
    if s.variants.is_empty() {
        "it has none".into()
    } else {
        let names: Vec<&str> = s.variants.iter().map(|v| v.name.as_str()).collect();
        format!("variants: {}", names.join(", "))
    }
}

fn parse_policy(p: &str, s: &Scenario) -> Result<Policy, Problem> {
    Policy::parse(p).ok_or_else(|| {
        Problem(format!(
            "unknown policy “{p}” (policies: {}; or a variant name of “{}”: {})",
            policy_names(),
            s.id,
            variant_names(s)
        ))
    })
}

fn choose(s: &Scenario, variant: Option<&str>, policy: Option<&str>) -> Result<Choice, Problem> {
    let plain = |v: &Variant| Choice {
        scenario: s.clone(),
        variant: Some(v.clone()),
        unchecked: None,
        stated: Some(v.clone()),
    };
    match (variant, policy) {
        (Some(name), policy) => {
            let Some(v) = s.variant(name) else {
                return problem(format!(
                    "scenario “{}” has no variant “{name}” ({})",
                    s.id,
                    variant_names(s)
                ));
            };
            let Some(p) = policy else { return Ok(plain(v)) };
            let p = parse_policy(p, s)?;
            if v.policy == Some(p) || (v.policy.is_none() && s.policy == p) {
                return Ok(plain(v));
            }
            let mut changed = v.clone();
            changed.policy = Some(p);
            Ok(Choice {
                scenario: s.clone(),
                variant: Some(changed),
                unchecked: Some(format!(
                    "--policy {} overrides the policy variant “{}” states its outcome under",
                    p.as_str(),
                    v.name
                )),
                stated: Some(v.clone()),
            })
        }
        (None, Some(p)) => {
            if let Some(v) = s.variant(p) {
                return Ok(plain(v));
            }
            let policy = parse_policy(p, s)?;
            if let Some(v) = s.variant_for(policy) {
                return Ok(plain(v));
            }
            let mut base = s.clone();
            base.policy = policy;
            let unchecked = (!s.variants.is_empty()).then(|| {
                format!(
                    "no variant of “{}” is {} alone; the scenario ran as written with that policy",
                    s.id,
                    policy.as_str()
                )
            });
            Ok(Choice {
                scenario: base,
                variant: None,
                unchecked,
                stated: None,
            })
        }
        (None, None) => match s.variants.first() {
            Some(v) => Ok(plain(v)),
            None => Ok(Choice {
                scenario: s.clone(),
                variant: None,
                unchecked: None,
                stated: None,
            }),
        },
    }
}

/// Run the whole script, naming the step and action the world refused, if any.
/// A file that names its `open_branch` (an exported run the user forked) runs that branch.
fn run_all(choice: &Choice, label: &str) -> Result<Run, Problem> {
    if let Some(b) = choice
        .scenario
        .open_branch
        .and_then(|k| choice.scenario.branches.get(k))
    {
        return Run::replay(
            &choice.scenario,
            choice.variant.as_ref(),
            b.script_steps,
            &b.actions,
        )
        .map_err(|r| Problem(format!("{label}: its open branch: {}", r.what)));
    }
    let mut run = Run::new(&choice.scenario, choice.variant.as_ref());
    loop {
        let next = run.next_script_step();
        match run.step_forward() {
            Ok(true) => {}
            Ok(false) => return Ok(run),
            Err(e) => {
                let Some(i) = next else {
                    return problem(format!("{label}: {e}"));
                };
                // Replay the step action by action to name the one refused.
                let mut world: World = run.world().clone();
                for (j, a) in run.scenario.script[i].actions.iter().enumerate() {
                    if let Err(e) = world.step(a) {
                        return problem(format!(
                            "{label}: script[{i}].do[{j}] ({a}) was refused: {e}"
                        ));
                    }
                }
                return problem(format!("{label}: script[{i}] was refused: {e}"));
            }
        }
    }
}

fn cmd_run(args: &[String]) -> Result<Output, Problem> {
    let a = Args::parse(
        "run",
        args,
        &["preset", "policy", "variant", "format", "actions"],
    )?;
    if a.help {
        return Ok(Output::ok(USAGE.to_string()));
    }
    let format = a.format()?;
    let (scenario, label) = a.source("run")?.load()?;
    let mut choice = choose(&scenario, a.get("variant"), a.get("policy"))?;
    let mut run = match a.get("actions") {
        None => run_all(&choice, &label)?,
        Some(path) => {
            // The variant's stated outcome is about its script, not about these actions.
            choice.unchecked =
                Some("the run replays the given actions instead of the script".into());
            replay_actions(&choice, path)?
        }
    };
    let report = Report::of(&run);
    let verdict = Verdict::of(&choice, &report);
    let text = match format {
        Format::Json => {
            let out = JsonOutput {
                report: &report,
                expectation: verdict.to_json(),
            };
            serde_json::to_string_pretty(&out).expect("a report serialises") + "\n"
        }
        Format::Text => render_text(&mut run, &report, &verdict),
    };
    let code = if verdict.met() == Some(false) {
        EXIT_MISMATCH
    } else {
        0
    };
    Ok(Output { text, code })
}

/// `run --actions FILE`: the scenario from step 0 with these actions as the user's, in order.
fn replay_actions(choice: &Choice, path: &str) -> Result<Run, Problem> {
    let label = if path == "-" { "<stdin>" } else { path };
    let text = read_input(path).map_err(|e| Problem(format!("cannot read {label}: {e}")))?;
    let actions = actions_of(&text).map_err(|e| Problem(format!("{label}: {e}")))?;
    Run::replay(&choice.scenario, choice.variant.as_ref(), 0, &actions).map_err(|r| match r.what {
        Replayed::Action {
            index,
            action,
            error,
        } => Problem(format!(
            "{label}: action [{index}] ({action}) was refused: {error}"
        )),
        other => Problem(format!("{label}: {other}")),
    })
}

/// The actions in an `--actions` file: a JSON list of actions; or one invariant of
/// `check --format json` (its `counterexample`); or the whole check report (the first
/// violated invariant's counterexample).
fn actions_of(text: &str) -> Result<Vec<Action>, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let (list, at) = if v.is_array() {
        (v, String::new())
    } else if let Some(ce) = v.get("counterexample") {
        (ce.clone(), "counterexample".to_string())
    } else if let Some(invs) = v.get("invariants").and_then(|i| i.as_array()) {
        match invs.iter().position(|i| !i["counterexample"].is_null()) {
            Some(k) => (
                invs[k]["counterexample"].clone(),
                format!("invariants[{k}].counterexample"),
            ),
            None => {
                return Err("the check report has no counterexample (every invariant held)".into())
            }
        }
    } else {
        return Err(
            "expected a list of actions, an invariant with a `counterexample`, or a check report"
                .into(),
        );
    };
    if list.is_null() {
        return Err(format!(
            "{at} is null: that invariant held, there is nothing to replay"
        ));
    }
    crate::sim::json_error::from_value(&list).map_err(|e| {
        match (at.is_empty(), e.starts_with('[')) {
            (true, _) => e,
            (false, true) => format!("{at}{e}"),
            (false, false) => format!("{at}: {e}"),
        }
    })
}

// ---------------------------------------------------------------------------------------
// render

fn cmd_render(args: &[String]) -> Result<Output, Problem> {
    let a = Args::parse("render", args, &["preset", "policy", "variant", "svg"])?;
    if a.help {
        return Ok(Output::ok(USAGE.to_string()));
    }
    let Some(out) = a.get("svg") else {
        return problem("render: where to? give --svg OUT.svg (or --svg - for stdout)");
    };
    let (scenario, label) = a.source("render")?.load()?;
    let choice = choose(&scenario, a.get("variant"), a.get("policy"))?;
    let run = run_all(&choice, &label)?;
    let svg = crate::view::svg::run_svg(
        &run,
        &scenario.id,
        &scenario.title,
        &crate::view::svg::Sheets::built_in(),
    );
    if out == "-" {
        return Ok(Output::ok(svg));
    }
    std::fs::write(out, svg).map_err(|e| Problem(format!("cannot write {out}: {e}")))?;
    Ok(Output::ok(String::new()))
}

// ---------------------------------------------------------------------------------------
// check

fn cmd_check(args: &[String]) -> Result<Output, Problem> {
    let a = Args::parse(
        "check",
        args,
        &[
            "preset",
            "policy",
            "variant",
            "format",
            "max-states",
            "depth",
        ],
    )?;
    if a.help {
        return Ok(Output::ok(USAGE.to_string()));
    }
    let format = a.format()?;
    let (scenario, _) = a.source("check")?.load()?;
    let choice = choose(&scenario, a.get("variant"), a.get("policy"))?;
    let world_of = match &choice.variant {
        Some(v) => choice.scenario.with_variant(v),
        None => choice.scenario.clone(),
    };
    let mut bounds = Bounds::for_scenario(&world_of);
    let number = |name: &str| -> Result<Option<usize>, Problem> {
        match a.get(name) {
            None => Ok(None),
            Some(v) => match v.parse::<usize>() {
                Ok(n) if n > 0 => Ok(Some(n)),
                _ => problem(format!("--{name} takes a positive whole number, not “{v}”")),
            },
        }
    };
    if let Some(n) = number("max-states")? {
        bounds.max_states = n;
    }
    if let Some(n) = number("depth")? {
        bounds.max_depth = n;
    }
    // The model has no clock: the command times the search.
    let started = std::time::Instant::now();
    let mut report = explore(
        &world_of,
        choice.variant.as_ref().map(|v| v.name.clone()),
        bounds,
    );
    report.elapsed_ms = started.elapsed().as_millis() as u64;
    let text = match format {
        Format::Json => serde_json::to_string_pretty(&report).expect("a report serialises") + "\n",
        Format::Text => check_text(&report),
    };
    Ok(Output::ok(text))
}

fn check_text(r: &ExploreReport) -> String {
    let mut o = String::new();
    let variant = r
        .variant
        .as_deref()
        .map_or("no variant".to_string(), |v| format!("variant {v}"));
    let _ = writeln!(o, "{}: {variant}, policy {}", r.scenario, r.policy);
    let b = &r.bounds;
    let _ = writeln!(
        o,
        "bounds: depth {}, time up to t={}, holds {}, drops {}, duplicates {}, pauses {}, crashes {}, at most {} states",
        b.max_depth, b.max_tick, b.max_holds, b.max_drops, b.max_duplicates, b.max_pauses, b.max_crashes, b.max_states
    );
    let _ = writeln!(
        o,
        "explored {} states ({} distinct, {} terminal) in {} ms{}",
        r.states,
        r.distinct_states,
        r.terminal_states,
        r.elapsed_ms,
        if r.complete {
            ""
        } else {
            " — INCOMPLETE: the state bound cut the search short"
        }
    );
    for inv in &r.invariants {
        match &inv.counterexample {
            None => {
                let _ = writeln!(o, "  held      {}", inv.kind.as_str());
            }
            Some(ce) => {
                let _ = writeln!(
                    o,
                    "  VIOLATED  {} — shortest counterexample, {} actions:",
                    inv.kind.as_str(),
                    ce.len()
                );
                for (i, a) in ce.iter().enumerate() {
                    let _ = writeln!(o, "    {:>2}. {a}", i + 1);
                }
            }
        }
    }
    let _ = writeln!(o, "milestones (what the search got to):");
    for m in &r.milestones {
        match &m.witness {
            Some(w) => {
                let _ = writeln!(
                    o,
                    "  reached   {} — {}, in {} actions at the shortest",
                    m.kind,
                    m.kind.explain(),
                    w.len()
                );
            }
            None => {
                let _ = writeln!(
                    o,
                    "  NEVER     {} — {}: not within these bounds",
                    m.kind,
                    m.kind.explain()
                );
            }
        }
    }
    o
}

/// `--format json`: the report, field for field, and whether the variant's stated outcome held.
#[derive(serde::Serialize)]
struct JsonOutput<'a> {
    #[serde(flatten)]
    report: &'a Report,
    expectation: ExpectationJson<'a>,
}

/// Whether the chosen variant's stated outcome held.
struct Verdict {
    variant: Option<String>,
    outcome: String,
    /// `None`: not checked (and why).
    mismatches: Result<Vec<String>, String>,
}

impl Verdict {
    fn of(choice: &Choice, report: &Report) -> Verdict {
        let Some(v) = &choice.stated else {
            let why = choice
                .unchecked
                .clone()
                .unwrap_or_else(|| "the scenario has no variants".into());
            return Verdict {
                variant: None,
                outcome: String::new(),
                mismatches: Err(why),
            };
        };
        let mismatches = match &choice.unchecked {
            Some(why) => Err(why.clone()),
            None => Ok(report.mismatches(&v.expect)),
        };
        Verdict {
            variant: Some(v.name.clone()),
            outcome: v.outcome.clone(),
            mismatches,
        }
    }

    fn met(&self) -> Option<bool> {
        self.mismatches.as_ref().ok().map(|m| m.is_empty())
    }

    fn to_json(&self) -> ExpectationJson<'_> {
        let (mismatches, why_unchecked) = match &self.mismatches {
            Ok(m) => (m.as_slice(), None),
            Err(why) => (&[][..], Some(why.as_str())),
        };
        ExpectationJson {
            variant: self.variant.as_deref(),
            outcome: &self.outcome,
            checked: why_unchecked.is_none(),
            met: self.met(),
            mismatches,
            why_unchecked,
        }
    }
}

/// The `expectation` member of the JSON output.
#[derive(serde::Serialize)]
struct ExpectationJson<'a> {
    /// The variant whose stated outcome this is (`null`: none chosen).
    variant: Option<&'a str>,
    /// Its outcome in plain words.
    outcome: &'a str,
    checked: bool,
    /// `null` when not checked.
    met: Option<bool>,
    mismatches: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    why_unchecked: Option<&'a str>,
}

/// Left-aligned columns, two spaces apart, indented by two.
fn table(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|x| x.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::from("  ");
        for (c, cell) in r.iter().enumerate() {
            if c + 1 < r.len() {
                let pad = widths[c] - cell.chars().count();
                line.push_str(cell);
                line.push_str(&" ".repeat(pad + 2));
            } else {
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn json_scalar(v: &Option<serde_json::Value>) -> String {
    match v {
        None | Some(serde_json::Value::Null) => "-".into(),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(x) => x.to_string(),
    }
}

fn render_text(run: &mut Run, report: &Report, verdict: &Verdict) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}: {}", report.scenario, report.title);
    let variant = match &report.variant {
        Some(v) => format!("variant {v}"),
        None => "no variant".into(),
    };
    let _ = writeln!(
        o,
        "{variant}, policy {}, seed {}",
        report.policy, report.seed
    );

    o.push_str("\nTimeline\n");
    let end = run.len();
    for i in 1..=end {
        run.seek(i);
        match run.narration() {
            Some(say) => {
                let _ = writeln!(o, "{i:>3}. {say}");
            }
            None => {
                let _ = writeln!(o, "{i:>3}.");
            }
        }
        for e in run.last_step_events() {
            let _ = writeln!(o, "       {e}");
        }
    }
    run.seek(end);

    o.push_str("\nRequests\n");
    if report.requests.is_empty() {
        o.push_str("  none\n");
    } else {
        let mut rows = vec![vec!["id", "from", "resource", "token", "outcome", "reason"]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>()];
        for r in &report.requests {
            rows.push(vec![
                r.id.clone(),
                r.from.clone(),
                r.resource.clone(),
                json_scalar(&r.token),
                r.outcome.to_string(),
                r.reason.map_or("-", |x| x.as_str()).to_string(),
            ]);
        }
        o.push_str(&table(&rows));
        // A request decided again (a duplicate, a retry under its name): each verdict counts.
        for r in report.redelivered() {
            let all: Vec<String> = r
                .verdicts
                .iter()
                .map(|v| format!("t={} {}", v.at, v.word()))
                .collect();
            let _ = writeln!(o, "  {} was delivered again: {}", r.id, all.join("; "));
        }
    }

    o.push_str("\nViolations\n");
    if report.violations.is_empty() {
        o.push_str("  none\n");
    } else {
        let rows: Vec<Vec<String>> = report
            .violations
            .iter()
            .map(|v| {
                vec![
                    format!("t={}", v.tick),
                    v.resource.clone(),
                    v.kind.as_str().to_string(),
                    v.detail.clone(),
                ]
            })
            .collect();
        o.push_str(&table(&rows));
    }

    if !report.overlaps.is_empty() {
        o.push_str("\nOverlapping beliefs\n");
        for ov in &report.overlaps {
            let _ = writeln!(
                o,
                "  {} each believed they held {} from t={} to t={}",
                ov.workers.join(" and "),
                ov.lock,
                ov.from,
                ov.to
            );
        }
    }

    o.push_str("\nMetrics\n");
    let rows: Vec<Vec<String>> = report
        .metrics
        .rows()
        .into_iter()
        .map(|(name, n)| vec![name.to_string(), n.to_string()])
        .collect();
    o.push_str(&table(&rows));

    o.push_str("\nResources\n");
    let rows: Vec<Vec<String>> = report
        .resources
        .iter()
        .map(|r| {
            vec![
                r.name.clone(),
                r.kind.clone(),
                r.policy.clone(),
                format!(
                    "{} {}",
                    Policy::parse(&r.policy).map_or("highest", |p| p.kept_token()),
                    json_scalar(&r.highest)
                ),
                format!("value “{}”", r.value),
            ]
        })
        .collect();
    o.push_str(&table(&rows));

    o.push_str("\nExpected outcome\n");
    if let Some(v) = &verdict.variant {
        let text = if verdict.outcome.is_empty() {
            "(no outcome text)"
        } else {
            verdict.outcome.as_str()
        };
        let _ = writeln!(o, "  {v}: {text}");
    }
    match &verdict.mismatches {
        Ok(m) if m.is_empty() => o.push_str("  met: every stated outcome holds\n"),
        Ok(m) => {
            o.push_str("  NOT MET:\n");
            for x in m {
                let _ = writeln!(o, "    - {x}");
            }
        }
        Err(why) => {
            let _ = writeln!(o, "  not checked: {why}");
        }
    }
    o
}
