//! Embed mode: `?embed&preset=ID&policy=P&step=N&autoplay&sandbox&predict` shows only the timeline,
//! the controls and the narration (docs/embedding.md). The options are read here, natively
//! testable; a bad option is named in the page and the rest still apply.

use super::state::{AppState, Choice, Msg};
use super::svg::escape;

/// The options of an embedded view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EmbedOptions {
    /// `embed` was given: only the timeline, the controls and the narration.
    pub embed: bool,
    pub preset: Option<String>,
    /// A variant name or a plain policy, as in the policy picker.
    pub policy: Option<String>,
    pub step: Option<usize>,
    pub autoplay: bool,
    /// Show the sandbox buttons and the in-flight panel too.
    pub sandbox: bool,
    /// Predict mode: stepping forward stops before each verdict for the reader's prediction.
    pub predict: bool,
}

impl EmbedOptions {
    /// The options in a query string (`?embed&preset=…`), or `None` when `embed` is absent.
    pub fn parse(query: &str) -> Option<EmbedOptions> {
        let o = Self::parse_any(query);
        o.embed.then_some(o)
    }

    /// The options in any address, with `embed` or without: the full app honours
    /// `?preset=ID&policy=P&step=N` too, as a teacher writes a link by hand.
    pub fn parse_any(query: &str) -> EmbedOptions {
        let mut o = EmbedOptions::default();
        for part in query
            .trim_start_matches('?')
            .split('&')
            .filter(|p| !p.is_empty())
        {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            let value = decode(value);
            let on = !matches!(value.as_str(), "0" | "false" | "no");
            match key {
                "embed" => o.embed = on,
                "preset" => o.preset = Some(value),
                "policy" => o.policy = Some(value),
                "step" => {
                    o.step = value
                        .parse()
                        .ok()
                        .or(Some(usize::MAX))
                        .filter(|_| !value.is_empty())
                }
                "autoplay" => o.autoplay = on,
                "sandbox" => o.sandbox = on,
                "predict" => o.predict = on,
                _ => {}
            }
        }
        o
    }

    /// The query string for these options (what the Embed dialog writes).
    pub fn query(&self) -> String {
        let mut q = vec!["embed".to_string()];
        if let Some(p) = &self.preset {
            q.push(format!("preset={}", encode(p)));
        }
        if let Some(p) = &self.policy {
            q.push(format!("policy={}", encode(p)));
        }
        if let Some(s) = self.step {
            q.push(format!("step={s}"));
        }
        if self.autoplay {
            q.push("autoplay".into());
        }
        if self.sandbox {
            q.push("sandbox".into());
        }
        if self.predict {
            q.push("predict".into());
        }
        format!("?{}", q.join("&"))
    }

    /// Apply the options to a fresh app state. Returns what was wrong with them, if anything
    /// (the rest still applies).
    pub fn apply(&self, state: &mut AppState) -> Vec<String> {
        let mut wrong = Vec::new();
        // A preset the page has not fetched yet: the options wait for it (nothing is wrong yet).
        if let Some(id) = &self.preset {
            if state.wait_for(id, Msg::Options(self.clone())) {
                return wrong;
            }
        }
        if let Some(id) = &self.preset {
            if !state.apply(Msg::LoadId(id.clone())) && state.current().id != *id {
                wrong.push(format!("no scenario named “{id}”"));
            }
        }
        if let Some(p) = &self.policy {
            match Choice::parse(state.current(), p) {
                Some(c) => {
                    state.apply(Msg::Choose(c));
                }
                None => wrong.push(format!("no receiver policy or variant named “{p}”")),
            }
        }
        match self.step {
            Some(usize::MAX) => wrong.push("the step is not a number".into()),
            Some(s) => {
                state.apply(Msg::Seek(s));
            }
            None => {}
        }
        // After the step: a frame opened at step N starts asking from there.
        if self.predict {
            state.apply(Msg::Predict(true));
        }
        if self.autoplay && state.can_play() && !state.at_end() {
            state.apply(Msg::TogglePlay);
        }
        if !wrong.is_empty() {
            state.error = Some(format!(
                "This {}'s options are not all valid: {}. Showing {} instead.",
                if self.embed { "embed" } else { "address" },
                wrong.join("; "),
                state.current().title
            ));
        }
        wrong
    }
}

/// What the Embed dialog offers: an iframe that shows the current view.
pub struct Snippet {
    /// The iframe's address: `app_url` plus the options, plus the view's link as the hash
    /// when the options alone cannot reproduce it (sandbox actions, a scenario that is not a
    /// preset).
    pub src: String,
    pub html: String,
}

impl EmbedOptions {
    /// The options that show this view: its preset, receiver choice and step.
    pub fn of(state: &AppState, autoplay: bool, sandbox: bool) -> EmbedOptions {
        let id = &state.current().id;
        let cursor = state.run.cursor();
        EmbedOptions {
            embed: true,
            preset: crate::presets::listed(id).then(|| id.clone()),
            policy: Some(state.choice.value()),
            step: (cursor > 0).then_some(cursor),
            autoplay,
            sandbox,
            predict: state.predict.on,
        }
    }
}

/// The iframe snippet for the app at `app_url` (its address without query or hash).
pub fn snippet(state: &AppState, app_url: &str, autoplay: bool, sandbox: bool) -> Snippet {
    let o = EmbedOptions::of(state, autoplay, sandbox);
    let mut src = format!("{app_url}{}", o.query());
    if o.preset.is_none() || state.run.has_user_actions() {
        src.push('#');
        src.push_str(&state.link());
    }
    let height = frame_height(state, sandbox);
    let title = format!("Fencing Lab: {}", state.current().title);
    let html = format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"{height}\" loading=\"lazy\" \
         sandbox=\"allow-scripts allow-same-origin\" \
         style=\"border:1px solid #ccd; border-radius:8px\"></iframe>",
        escape(&src),
        escape(&title)
    );
    Snippet { src, html }
}

/// A frame height (px) that shows the whole view without scrolling from 700 px wide: the
/// timeline, then the narration beside the controls — or, with the sandbox, a panel of
/// buttons per lane (worker, coordinator, resource). Measured in Chromium over the presets.
pub fn frame_height(state: &AppState, sandbox: bool) -> i32 {
    let timeline = super::layout::layout(&state.run);
    let lanes = timeline.lanes.len() as i32;
    // Predict mode's panel: a question with its answers, or the score and the steps missed.
    let predict = if state.predict.on { PREDICT_HEIGHT } else { 0 };
    predict
        + if sandbox {
            timeline.height + 300 + 220 * lanes
        } else {
            timeline.height + 550
        }
}

/// The height predict mode adds to a frame from 700 px wide, where its question sits under the
/// narration beside the controls: the score and the verdicts missed at the end, and the
/// expected outcome shown then (measured in Chromium: +58 px for paused-writer).
pub const PREDICT_HEIGHT: i32 = 120;

/// Where the Embed dialog's "how to embed" link points, from the app's own path: inside the
/// guide (`make site` puts the app in `app/` beside the guide's pages) the guide's page on
/// embedding; elsewhere docs/embedding.md, which the build copies beside the app (index.html).
/// Both are files of the same site, so the link works offline.
pub fn guide_page(pathname: &str) -> &'static str {
    let dir = pathname.rsplit_once('/').map_or("", |(dir, _)| dir);
    if dir.ends_with("/app") || dir == "app" {
        "../embedding.html"
    } else {
        "embedding.md"
    }
}

/// Percent-decoding of a query value (`+` is a space).
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
            {
                Some(b) => {
                    out.push(b);
                    i += 2;
                }
                None => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encoding of everything but unreserved characters.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::state::load_presets;

    #[test]
    fn options_read_back_from_their_query() {
        assert_eq!(EmbedOptions::parse(""), None);
        assert_eq!(
            EmbedOptions::parse("?preset=paused-writer"),
            None,
            "not an embed"
        );
        let o = EmbedOptions {
            embed: true,
            preset: Some("paused-writer".into()),
            policy: Some("unfenced".into()),
            step: Some(3),
            autoplay: true,
            sandbox: false,
            predict: true,
        };
        assert_eq!(EmbedOptions::parse(&o.query()), Some(o.clone()));
        assert_eq!(
            EmbedOptions::parse("?embed&autoplay=0&sandbox=1"),
            Some(EmbedOptions {
                embed: true,
                sandbox: true,
                ..Default::default()
            })
        );
        assert_eq!(decode("a%20b+c%2"), "a b c%2");
        assert_eq!(encode("a b/é"), "a%20b%2F%C3%A9");
        // A stray `%` before a multi-byte character is kept, not sliced through.
        assert_eq!(decode("%aé%"), "%aé%");
        for s in ["", "paused-writer", "a&b=c#d", "é ✓ 日本", "100%"] {
            assert_eq!(decode(&encode(s)), s);
        }
    }

    /// The full app honours the same options without `embed` (a teacher's hand-written
    /// link), and names a bad one as the address's.
    #[test]
    fn the_app_without_embed_opens_the_view_its_address_names() {
        let o = EmbedOptions::parse_any("?preset=coordinator-restore&policy=unfenced&step=3");
        assert!(!o.embed);
        let mut s = AppState::new(load_presets());
        assert!(o.apply(&mut s).is_empty());
        assert_eq!(s.current().id, "coordinator-restore");
        assert_eq!(s.choice.value(), "unfenced");
        assert_eq!(s.run.cursor(), 3);
        // Nothing given: the app as it always opens.
        let mut s = AppState::new(load_presets());
        assert!(EmbedOptions::parse_any("").apply(&mut s).is_empty());
        assert_eq!(
            (s.current().id.as_str(), s.run.cursor()),
            ("paused-writer", 0)
        );
        let mut s = AppState::new(load_presets());
        EmbedOptions::parse_any("?preset=nope").apply(&mut s);
        let e = s.error.clone().unwrap();
        assert!(
            e.starts_with("This address's options") && e.contains("“nope”"),
            "{e}"
        );
    }

    #[test]
    fn options_choose_the_view_and_bad_ones_are_named() {
        let mut s = AppState::new(load_presets());
        let o =
            EmbedOptions::parse("?embed&preset=delayed-before-new&policy=fence-on-acquire&step=2")
                .unwrap();
        assert!(o.apply(&mut s).is_empty());
        assert_eq!(s.current().id, "delayed-before-new");
        assert_eq!(s.choice.value(), "fence-on-acquire");
        assert_eq!(s.run.cursor(), 2);
        assert!(!s.playing && s.error.is_none());

        let mut s = AppState::new(load_presets());
        let o = EmbedOptions::parse("?embed&preset=nope&policy=sideways&step=x&autoplay").unwrap();
        let wrong = o.apply(&mut s);
        assert_eq!(wrong.len(), 3, "{wrong:?}");
        assert_eq!(s.current().id, "paused-writer", "the default scenario");
        assert!(s.error.as_deref().unwrap().contains("“nope”"));
        assert!(s.playing, "autoplay still applies");

        // Predict mode: playing stops before the first verdict, and asks for it.
        let mut s = AppState::new(load_presets());
        let o = EmbedOptions::parse("?embed&preset=paused-writer&predict&autoplay").unwrap();
        assert!(o.predict);
        assert!(o.apply(&mut s).is_empty());
        assert!(s.predict.on && s.playing);
        while s.playing {
            s.apply(Msg::Tick);
        }
        assert_eq!(s.run.cursor(), 7);
        assert_eq!(s.asking.as_ref().map(|q| q.step), Some(8));
        assert!(EmbedOptions::of(&s, false, false)
            .query()
            .ends_with("&predict"));
        let mut plain = s.clone();
        plain.predict.on = false;
        assert_eq!(
            frame_height(&s, false),
            frame_height(&plain, false) + PREDICT_HEIGHT
        );
    }

    #[test]
    fn the_snippet_reopens_the_view_it_was_taken_from() {
        let mut s = AppState::new(load_presets());
        s.apply(Msg::LoadId("delayed-before-new".into()));
        s.apply(Msg::Seek(3));
        let snip = snippet(&s, "https://example.org/lab/", true, false);
        assert_eq!(
            snip.src,
            format!("https://example.org/lab/?embed&preset=delayed-before-new&policy={}&step=3&autoplay", s.choice.value())
        );
        assert!(
            snip.html.contains(
                "src=\"https://example.org/lab/?embed&amp;preset=delayed-before-new&amp;"
            ),
            "{}",
            snip.html
        );
        assert!(snip.html.contains(&format!(
            "title=\"Fencing Lab: {}\"",
            escape(&s.current().title)
        )));
        // The embedded page, given that address, shows the same view.
        let query = snip.src.split_once('?').unwrap().1;
        let mut e = AppState::new(load_presets());
        EmbedOptions::parse(query).unwrap().apply(&mut e);
        assert_eq!(
            (e.current().id.as_str(), e.choice.value(), e.run.cursor()),
            ("delayed-before-new", s.choice.value(), 3)
        );
        assert_eq!(e.run.world(), s.run.world());
    }

    #[test]
    fn a_sandbox_session_travels_in_the_snippets_hash() {
        let mut s = AppState::new(load_presets());
        s.apply(Msg::LoadId("sandbox".into()));
        let worker = s.run.world().workers()[0].name.clone();
        s.apply(Msg::Act(crate::sim::Action::Acquire { worker, lock: None }));
        let snip = snippet(&s, "app/", false, true);
        let (query, hash) = snip
            .src
            .split_once('#')
            .expect("the session is in the hash");
        assert!(query.ends_with("&sandbox"), "{query}");
        assert_eq!(hash, s.link());
        let mut e = AppState::new(load_presets());
        EmbedOptions::parse(query.trim_start_matches("app/"))
            .unwrap()
            .apply(&mut e);
        e.apply(Msg::OpenLink(hash.to_string()));
        assert_eq!(e.run.world(), s.run.world());
        let lanes = crate::view::layout::layout(&s.run).lanes.len();
        assert!(lanes >= 3, "{lanes} lanes");
        let height = |h: &str| -> i32 {
            h.split("height=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        let plain = snippet(&s, "app/", false, false);
        assert!(
            height(&snip.html) > height(&plain.html) + 150 * lanes as i32,
            "the sandbox buttons need room: {} vs {}",
            snip.html,
            plain.html
        );
    }

    #[test]
    fn the_embedding_guide_is_found_beside_the_app() {
        // In the built guide (target/site/app/…): its page on embedding.
        assert_eq!(guide_page("/app/"), "../embedding.html");
        assert_eq!(guide_page("/app/index.html"), "../embedding.html");
        assert_eq!(
            guide_page("/fencing-lab/app/index.html"),
            "../embedding.html"
        );
        // The app on its own (dist/): the copy of docs/embedding.md beside it.
        assert_eq!(guide_page("/"), "embedding.md");
        assert_eq!(guide_page("/index.html"), "embedding.md");
        assert_eq!(guide_page("/fencing-lab/"), "embedding.md");
        assert_eq!(guide_page("/snapp/"), "embedding.md");
    }
}
