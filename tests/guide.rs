//! The guide (docs/guide/src): every embedded frame names a preset and a policy the app
//! knows, and is tall enough to show its whole view (`view::embed::frame_height`), so a
//! reader never meets an error message or a frame that scrolls inside itself.

use fencing_lab::view::embed::{frame_height, EmbedOptions};
use fencing_lab::view::state::{load_presets, AppState};
use std::fs;

/// (page, the frame's query, its height attribute) for every `<iframe class="fencing-lab">`.
fn frames() -> Vec<(String, String, i32)> {
    let mut out = Vec::new();
    for entry in fs::read_dir("docs/guide/src").unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        for tag in text.split("<iframe").skip(1) {
            let tag = tag.split('>').next().unwrap();
            let attr = |name: &str| {
                tag.split(&format!(" {name}=\""))
                    .nth(1)
                    .map(|v| v.split('"').next().unwrap().to_string())
            };
            if attr("class").as_deref() != Some("fencing-lab") {
                continue;
            }
            let src = attr("src").expect("a frame has a src");
            let query = src
                .split_once('?')
                .map(|(_, q)| q.to_string())
                .unwrap_or_default();
            let height = attr("height").and_then(|h| h.parse().ok()).unwrap_or(0);
            out.push((path.display().to_string(), query, height));
        }
    }
    out
}

#[test]
fn every_frame_in_the_guide_opens_its_view_and_fits_it() {
    let frames = frames();
    assert!(
        frames.len() >= 20,
        "the guide embeds the presets: {} frames",
        frames.len()
    );
    for (page, query, height) in frames {
        let options = EmbedOptions::parse(&query)
            .unwrap_or_else(|| panic!("{page}: ?{query} is not an embed"));
        assert!(options.preset.is_some(), "{page}: ?{query} names no preset");
        let mut state = AppState::new(load_presets());
        let wrong = options.apply(&mut state);
        assert!(wrong.is_empty(), "{page}: ?{query}: {wrong:?}");
        let needed = frame_height(&state, options.sandbox);
        assert!(
            height >= needed,
            "{page}: ?{query} is {height} px tall; its view needs {needed} px"
        );
    }
}
