//! The preset scenario files without the whitespace between JSON tokens, for
//! `src/presets.rs` to embed: the same data in fewer bytes of the page's WASM (every byte
//! counts against the first-load ceiling in `make test`). Text inside strings is kept as is.

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

fn main() {
    println!("cargo:rerun-if-changed=presets");
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("presets");
    std::fs::create_dir_all(&out).expect("OUT_DIR/presets is writable");
    for entry in std::fs::read_dir("presets").expect("the presets folder") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|x| x == "json") {
            println!("cargo:rerun-if-changed={}", path.display());
            let text = std::fs::read_to_string(&path).expect("a readable preset");
            let name = path.file_name().expect("a file name");
            std::fs::write(out.join(name), without_layout(&text)).expect("written");
        }
    }
}
