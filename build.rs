//! The preset scenario files without the whitespace between JSON tokens, for
//! `src/presets.rs` to embed: the same data in fewer bytes of the page's WASM (every byte
//! counts against the first-load ceiling in `make test`). Text inside strings is kept as is.
//! Also the presets' catalog (`catalog.rs`: id, title and theme of each), which the page's
//! picker lists without the files: the page fetches a preset's file when it is opened.

use std::path::Path;

/// `json` with every space, tab and newline outside a string removed.
fn without_layout(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if !c.is_whitespace() {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

/// A preset's `field` (a string at its top level), or "" when it has none.
fn text_field(json: &serde_json::Value, field: &str) -> String {
    json.get(field)
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_string()
}

fn main() {
    println!("cargo:rerun-if-changed=presets");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let out = Path::new(&out_dir).join("presets");
    std::fs::create_dir_all(&out).expect("OUT_DIR/presets is writable");
    let mut entries = Vec::new();
    for entry in std::fs::read_dir("presets").expect("the presets folder") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|x| x == "json") {
            println!("cargo:rerun-if-changed={}", path.display());
            let text = std::fs::read_to_string(&path).expect("a readable preset");
            let name = path.file_name().expect("a file name");
            std::fs::write(out.join(name), without_layout(&text)).expect("written");
            // A file that is not JSON (being edited) is left out here; the test suite names it.
            if let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) {
                let id = path
                    .file_stem()
                    .expect("a stem")
                    .to_string_lossy()
                    .to_string();
                entries.push(format!(
                    "    Entry {{ id: {:?}, title: {:?}, theme: {:?} }},\n",
                    id,
                    text_field(&json, "title"),
                    text_field(&json, "theme")
                ));
            }
        }
    }
    entries.sort();
    // Every file by id, for the browser test of every preset (tests/support/traces.rs): the
    // page's build embeds two, and that test has no server to fetch the rest from.
    let mut files: Vec<String> = std::fs::read_dir("presets")
        .expect("the presets folder")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let id = p.file_stem().expect("a stem").to_string_lossy().to_string();
            format!(
                "    ({id:?}, include_str!(concat!(env!(\"OUT_DIR\"), \"/presets/{id}.json\"))),\n"
            )
        })
        .collect();
    files.sort();
    std::fs::write(
        Path::new(&out_dir).join("all_presets.rs"),
        format!(
            "// Every preset file: (id, text).\n&[\n{}]\n",
            files.concat()
        ),
    )
    .expect("written");
    let catalog = format!(
        "/// Every preset file's id (its name), title and theme, by id.\npub const CATALOG: &[Entry] = &[\n{}];\n",
        entries.concat()
    );
    std::fs::write(Path::new(&out_dir).join("catalog.rs"), catalog).expect("written");
}
