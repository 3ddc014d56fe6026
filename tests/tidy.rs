//! The model knows nothing of the browser, the wall clock, threads or OS randomness:
//! `src/sim/**/*.rs` may not name them. (Formatting is the Makefile's `fmt-check`, not this.)
//!
//! The scan reads code, not prose: comments and string literals are skipped, and a pattern
//! matches whole path tokens (`rand::` but not `operand::`), however the `::` is spaced,
//! including inside `use a::{b, c}` groups.

use std::path::{Path, PathBuf};

/// Forbidden paths, as `::`-separated tokens; a trailing `::` means "anything under it".
const FORBIDDEN: &[&str] = &[
    "yew",
    "web_sys",
    "gloo",
    "wasm_bindgen",
    "js_sys",
    "Instant::now",
    "SystemTime",
    "thread_rng",
    "getrandom",
    "std::thread",
    "rand::",
];

/// The source with comments, string and character literals blanked out (newlines kept, so
/// line numbers still count).
fn code_only(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '/' if c.get(i + 1) == Some(&'/') => {
                while i < c.len() && c[i] != '\n' {
                    out.push(' ');
                    i += 1;
                }
            }
            '/' if c.get(i + 1) == Some(&'*') => {
                let mut depth = 0;
                while i < c.len() {
                    if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                        depth += 1;
                        out.push_str("  ");
                        i += 2;
                    } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                        depth -= 1;
                        out.push_str("  ");
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        out.push(blank(c[i]));
                        i += 1;
                    }
                }
            }
            'r' if matches!(c.get(i + 1), Some('"') | Some('#'))
                && !is_ident(c.get(i.wrapping_sub(1)).copied()) =>
            {
                // Raw string r"..." or r#"..."#.
                let mut j = i + 1;
                let mut hashes = 0;
                while c.get(j) == Some(&'#') {
                    hashes += 1;
                    j += 1;
                }
                if c.get(j) != Some(&'"') {
                    out.push(c[i]);
                    i += 1;
                    continue;
                }
                j += 1;
                loop {
                    if j >= c.len() {
                        break;
                    }
                    if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
                        j += 1 + hashes;
                        break;
                    }
                    j += 1;
                }
                out.extend(c[i..j.min(c.len())].iter().map(|&ch| blank(ch)));
                i = j;
            }
            '"' => {
                out.push(' ');
                i += 1;
                while i < c.len() && c[i] != '"' {
                    if c[i] == '\\' {
                        out.push(' ');
                        i += 1;
                    }
                    if i < c.len() {
                        out.push(blank(c[i]));
                        i += 1;
                    }
                }
                out.push(' ');
                i += 1;
            }
            '\'' => {
                // A char literal ('x', '\n', '\u{..}'); otherwise a lifetime, kept as is.
                let end = if c.get(i + 1) == Some(&'\\') {
                    (i + 3..c.len().min(i + 12)).find(|&j| c[j] == '\'')
                } else if c.get(i + 2) == Some(&'\'') {
                    Some(i + 2)
                } else {
                    None
                };
                match end {
                    Some(e) => {
                        out.extend(std::iter::repeat_n(' ', e + 1 - i));
                        i = e + 1;
                    }
                    None => {
                        out.push('\'');
                        i += 1;
                    }
                }
            }
            ch => {
                out.push(ch);
                i += 1;
            }
        }
    }
    out
}

fn is_ident(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// Tokens of code: identifiers, `::`, and single punctuation, each with its line.
fn tokens(code: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let c: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < c.len() {
            if is_ident(Some(c[i])) {
                let start = i;
                while i < c.len() && is_ident(Some(c[i])) {
                    i += 1;
                }
                out.push((c[start..i].iter().collect(), n + 1));
            } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
                out.push(("::".into(), n + 1));
                i += 2;
            } else if !c[i].is_whitespace() {
                out.push((c[i].to_string(), n + 1));
                i += 1;
            } else {
                i += 1;
            }
        }
    }
    out
}

/// Paths as written, with `use` groups expanded: `use std::{fmt, thread}` yields
/// `std::fmt` and `std::thread`. Each with the line it starts on.
fn paths(code: &str) -> Vec<(Vec<String>, usize)> {
    let toks = tokens(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i].0 == "use" {
            // Expand the whole use tree up to its `;`.
            let end = (i..toks.len())
                .find(|&j| toks[j].0 == ";")
                .unwrap_or(toks.len());
            expand_use(&toks[i + 1..end], &[], &mut out);
            i = end;
            continue;
        }
        if is_ident(toks[i].0.chars().next()) {
            let line = toks[i].1;
            let mut path = vec![toks[i].0.clone()];
            let mut j = i + 1;
            while j + 1 < toks.len() && toks[j].0 == "::" && is_ident(toks[j + 1].0.chars().next())
            {
                path.push(toks[j + 1].0.clone());
                j += 2;
            }
            if j < toks.len() && toks[j].0 == "::" {
                path.push(String::new()); // `a::<T>` or `a::{`: something under it
            }
            out.push((path, line));
            i = j.max(i + 1);
            continue;
        }
        i += 1;
    }
    out
}

fn expand_use(toks: &[(String, usize)], prefix: &[String], out: &mut Vec<(Vec<String>, usize)>) {
    // Split the top level on commas, honouring braces.
    let mut depth = 0;
    let mut start = 0;
    let mut parts = Vec::new();
    for (k, (t, _)) in toks.iter().enumerate() {
        match t.as_str() {
            "{" => depth += 1,
            "}" => depth -= 1,
            "," if depth == 0 => {
                parts.push(&toks[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&toks[start..]);
    for part in parts {
        let mut path = prefix.to_vec();
        let mut k = 0;
        let line = part.first().map_or(0, |t| t.1);
        while k < part.len() {
            let t = &part[k].0;
            if t == "{" {
                let close =
                    part.len() - 1 - part.iter().rev().position(|x| x.0 == "}").unwrap_or(0);
                let mut p = path.clone();
                p.push(String::new());
                out.push((p, line));
                expand_use(&part[k + 1..close], &path, out);
                path.clear();
                break;
            }
            if t == "as" {
                break;
            }
            if is_ident(t.chars().next()) {
                path.push(t.clone());
            }
            k += 1;
        }
        if !path.is_empty() {
            out.push((path, line));
        }
    }
}

/// Whether `path` contains the forbidden `pattern` as consecutive segments (and, for a
/// pattern ending in `::`, something under it). `gloo` also covers the `gloo_*` crates.
fn matches(path: &[String], pattern: &str) -> bool {
    let mut want: Vec<&str> = pattern.split("::").collect();
    let open = want.last() == Some(&"");
    if open {
        want.pop();
    }
    let same = |w: &str, p: &str| w == p || (w == "gloo" && p.starts_with("gloo_"));
    (0..path.len()).any(|s| {
        let rest = &path[s..];
        rest.len() >= want.len() + open as usize && want.iter().zip(rest).all(|(w, p)| same(w, p))
    })
}

/// Every forbidden use in one source text: (line, pattern, path as written).
fn scan(src: &str) -> Vec<(usize, &'static str, String)> {
    let mut found = Vec::new();
    for (path, line) in paths(&code_only(src)) {
        for pat in FORBIDDEN {
            if matches(&path, pat) {
                let shown = path
                    .iter()
                    .filter(|s| !s.is_empty())
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("::");
                found.push((line, *pat, shown));
            }
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn the_model_names_no_browser_clock_thread_or_os_randomness() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sim");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(
        files.len() >= 10,
        "found only {} files under {}",
        files.len(),
        root.display()
    );
    assert!(files.iter().any(|f| f.ends_with("world.rs")));
    let mut problems = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).expect("readable source");
        for (line, pat, path) in scan(&src) {
            problems.push(format!(
                "{}:{line}: `{path}` ({pat} is not allowed in the model)",
                f.display()
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------------------
// The scanner itself can fail

fn flagged(src: &str) -> Vec<&'static str> {
    scan(src).into_iter().map(|(_, p, _)| p).collect()
}

#[test]
fn the_scanner_flags_each_forbidden_path() {
    let cases: &[(&str, &str)] = &[
        ("use yew::prelude::*;", "yew"),
        ("let w = web_sys::window();", "web_sys"),
        ("use gloo_timers::callback::Timeout;", "gloo"),
        ("use gloo::timers;", "gloo"),
        ("#[wasm_bindgen] pub fn f() {}", "wasm_bindgen"),
        ("let d = js_sys::Date::now();", "js_sys"),
        ("let t = std::time::Instant::now();", "Instant::now"),
        ("let t = Instant :: now();", "Instant::now"),
        ("use std::time::SystemTime;", "SystemTime"),
        ("let n = SystemTime::UNIX_EPOCH;", "SystemTime"),
        ("let mut r = rand::thread_rng();", "thread_rng"),
        ("let mut r = rand::thread_rng();", "rand::"),
        ("getrandom::getrandom(&mut buf)?;", "getrandom"),
        ("std::thread::spawn(|| ());", "std::thread"),
        ("use std::{fmt, thread};", "std::thread"),
        (
            "use std::{fmt, time::{Duration, SystemTime}};",
            "SystemTime",
        ),
        ("use rand::Rng;", "rand::"),
        ("use rand::{Rng, SeedableRng};", "rand::"),
        ("let x: u8 = rand :: random();", "rand::"),
    ];
    for (src, pat) in cases {
        assert!(
            flagged(src).contains(pat),
            "{src:?} should be flagged for {pat}, got {:?}",
            flagged(src)
        );
    }
}

#[test]
fn the_scanner_ignores_prose_strings_and_lookalikes() {
    let clean = [
        "// a comment naming yew, web_sys and rand::thread_rng is prose",
        "/* block comment: std::thread::spawn, SystemTime */ let x = 1;",
        "/* nested /* SystemTime */ still a comment: Instant::now */",
        "/// doc: uses no Instant::now",
        r#"let s = "web_sys and rand::Rng in a string";"#,
        r##"let s = r#"SystemTime "quoted" inside"#;"##,
        "let c = '\"'; let d = 1;",
        "let q = '\\''; let s = \"SystemTime\";",
        "let u = '\\u{1F600}'; let s = \"yew\";",
        "fn f<'a>(x: &'a str) -> &'a str { x }",
        "let o = operand::value(); let g = gloomy::x(); let b = brand::new();",
        "use super::rng::Rng; let r = Rng::new(7);",
        "let thread_count = 2; let instant = 1; let now = instant;",
        "use std::time::Duration;",
        "mod threads { pub fn spawn() {} } let rand = 4; let x = rand + 1;",
    ];
    for src in clean {
        assert!(
            flagged(src).is_empty(),
            "{src:?} was flagged: {:?}",
            scan(src)
        );
    }
}

#[test]
fn the_scanner_reports_the_line() {
    let src = "fn main() {\n    // fine\n    let s = \"fine\";\n    let t = Instant::now();\n}\n";
    assert_eq!(
        scan(src)
            .iter()
            .map(|(l, p, _)| (*l, *p))
            .collect::<Vec<_>>(),
        vec![(4, "Instant::now")]
    );
}

#[test]
fn a_forbidden_line_added_to_a_real_model_file_is_caught() {
    let world =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sim/world.rs"))
            .expect("world.rs");
    assert!(scan(&world).is_empty());
    let lines = world.lines().count();
    let tainted = format!("{world}\nfn later() {{ let _ = std::time::SystemTime::now(); }}\n");
    assert_eq!(
        scan(&tainted)
            .iter()
            .map(|(l, p, _)| (*l, *p))
            .collect::<Vec<_>>(),
        vec![(lines + 2, "SystemTime")]
    );
}

/// The model is a crate of its own whose only dependencies are serde and serde_json, so a
/// browser, clock or randomness crate cannot reach it without this test failing first.
#[test]
fn the_model_crate_depends_on_serde_alone() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sim/Cargo.toml"))
            .expect("src/sim/Cargo.toml");
    let mut section = String::new();
    let mut deps = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_string();
        } else if section.contains("dependencies") && !line.is_empty() && !line.starts_with('#') {
            deps.push(line.split(['=', ' ']).next().unwrap_or("").to_string());
        }
    }
    assert_eq!(deps, ["serde", "serde_json"], "in {section}");
    assert!(
        !manifest.contains("[target."),
        "no target-specific dependencies"
    );
}

/// Components own no timers: only `src/ui/hooks.rs` names `gloo_timers`, so every timer's
/// lifetime follows a hook's and none decides anything behind the state machine's back.
#[test]
fn only_the_hooks_own_timers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(files.iter().any(|f| f.ends_with("hooks.rs")));
    let mut owners = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).expect("readable source");
        if paths(&code_only(&src))
            .iter()
            .any(|(path, _)| matches(path, "gloo_timers"))
        {
            owners.push(
                f.strip_prefix(&root)
                    .expect("under src/ui")
                    .display()
                    .to_string(),
            );
        }
    }
    assert_eq!(owners, ["hooks.rs"]);
    // And the check can fail: a component naming a timer is seen.
    let tainted =
        "use gloo_timers::callback::Timeout;\nfn f() { Timeout::new(1, || ()).forget(); }";
    assert!(paths(&code_only(tainted))
        .iter()
        .any(|(p, _)| matches(p, "gloo_timers")));
}

/// The tools module keeps its Yew apps' subtree ids clear of the page's by spending as many
/// as the page can make (`ui::PAGE_ROOTS`, src/ui/mod.rs): the page mounts one root, `App`
/// (embed mode's module, `EmbedApp`, hosts no tools), and renders no portals, each of which
/// would be a root more.
#[test]
fn the_page_makes_one_yew_root_and_no_portal() {
    let mut files = Vec::new();
    rust_files(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")),
        &mut files,
    );
    let mut roots = Vec::new();
    for f in &files {
        let code = code_only(&std::fs::read_to_string(f).unwrap());
        assert!(
            !code.contains("create_portal"),
            "{}: a portal is a Yew root of the page's",
            f.display()
        );
        for (i, line) in code.lines().enumerate() {
            if line.contains("Renderer::<") {
                roots.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    let page: Vec<&String> = roots
        .iter()
        .filter(|r| r.contains("Renderer::<App>"))
        .collect();
    assert_eq!(page.len(), 1, "{roots:#?}");
    let ui =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/ui/mod.rs")).unwrap();
    assert!(
        ui.contains("const PAGE_ROOTS: usize = 1;"),
        "PAGE_ROOTS is the page's one root"
    );
    // Every root is one of the four known: the page, embed mode, a tool's body, a spare.
    for r in &roots {
        assert!(
            [
                "Renderer::<App>",
                "Renderer::<EmbedApp>",
                "Renderer::<LabBody>",
                "Renderer::<Nothing>"
            ]
            .iter()
            .any(|k| r.contains(k)),
            "a Yew root nobody counted: {r}"
        );
    }
}
