//! The timeline as a standalone SVG document, for a doc or a slide: the same
//! [`layout::Timeline`] geometry the app's timeline component draws, with the lane names in a
//! left gutter, a title, a legend, and the app's colours in an inline `<style>`. Nothing in it
//! refers outside the file (no fonts, images or stylesheets), so it reads the same anywhere.
//!
//! Pure string building: the CLI (`fencing-lab render`) and the app's "Export SVG" share it.

use super::layout::{self, Arrow, Shape, Swatch, Timeline};
use crate::sim::run::Run;
use std::fmt::Write as _;

/// Width of the lane-name gutter left of the diagram.
const GUTTER: i32 = 150;
/// Height of the title block above the diagram.
const HEAD: i32 = 54;
/// Height of the legend below it, in two rows (`legend_height`: more when it wraps to more).
const LEGEND: i32 = 58;

/// The page's own stylesheets as text, for an exported file to carry: the app's colours
/// (custom properties, to write out every `var()` with), the timeline's rules and the lab
/// charts' rules. The CLI has them built in (`Sheets::built_in`); the page reads the very
/// sheets it linked (`ui::components::export::page_sheets`), so the WASM carries no second
/// copy of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sheets {
    pub palette: String,
    pub timeline: String,
    pub plot: String,
}

/// The app's colours: static/palette.css.
#[cfg(not(target_arch = "wasm32"))]
pub const PALETTE_CSS: &str = include_str!("../../static/palette.css");
/// The diagram's rules: the very stylesheet the page links for its timeline.
#[cfg(not(target_arch = "wasm32"))]
pub const TIMELINE_CSS: &str = include_str!("../../static/timeline.css");
/// The lab charts' rules.
#[cfg(not(target_arch = "wasm32"))]
pub const PLOT_CSS: &str = include_str!("../../static/plot.css");

#[cfg(not(target_arch = "wasm32"))]
impl Sheets {
    /// The files in static/, as the page links them.
    pub fn built_in() -> Sheets {
        Sheets {
            palette: PALETTE_CSS.into(),
            timeline: TIMELINE_CSS.into(),
            plot: PLOT_CSS.into(),
        }
    }
}
/// What only the document draws: its title block, the lane names in its gutter, its legend
/// (the page draws these in HTML, styled by static/style.css).
const DOC_CSS: &str = "
.doc{font-family:var(--sans)}
.doc .doc-title{font-size:17px;font-weight:700}
.doc .doc-sub{font-size:12px;fill:var(--muted)}
.gutter-bg{fill:var(--panel);stroke:var(--border)}
.doc .lane-name{font-size:13px;font-weight:700}
.doc .lane-detail{font-size:10.5px;fill:var(--muted)}
.doc .lane-coordinator .lane-name{fill:var(--purple-6)}
.doc .lane-worker .lane-name{fill:var(--accent-dark)}
.doc .lane-resource .lane-name{fill:var(--green-6)}
.legend-bg{fill:var(--gray-0);stroke:var(--border)}
.doc .legend-text{fill:var(--muted);font-size:11px}
";

/// The document's `<style>`: the timeline's stylesheet and the document's own rules, written
/// out.
pub fn stylesheet(sheets: &Sheets) -> String {
    written_out(&sheets.palette, &[&sheets.timeline, DOC_CSS])
}

/// Stylesheets as an exported SVG carries them: without comments, every `var(--name)`
/// replaced by its value in `palette` (a file read anywhere, by a viewer that may not know
/// custom properties, looks as the page does), one line per line of rules. The palette is
/// read as written in static/palette.css or as a browser gives it back (a rule on one line).
/// Only its top-level rules count: the light theme. The dark theme's `@media` block is left
/// out, so a file exported from a page in either theme is the same light drawing on its own
/// opaque background, readable on a light or a dark slide.
pub fn written_out(palette: &str, sheets: &[&str]) -> String {
    let palette = top_level_rules(&without_comments(palette));
    let palette: Vec<(&str, &str)> = palette
        .split(['{', ';', '}'])
        .filter_map(|d| d.trim().strip_prefix("--")?.split_once(':'))
        .map(|(name, value)| (name.trim(), value.trim()))
        .collect();
    let mut css: String = sheets.iter().map(|s| without_comments(s)).collect();
    for (name, value) in &palette {
        css = css.replace(&format!("var(--{name})"), value);
    }
    // Indentation and blank lines dropped.
    let lines: Vec<&str> = css
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join("\n")
}

/// A stylesheet without its at-rules (`@media … { … }`, `@import …;`): the rules at its top
/// level only.
fn top_level_rules(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let (mut depth, mut skipping) = (0usize, false);
    for c in css.chars() {
        if depth == 0 && c == '@' {
            skipping = true;
        }
        if !skipping {
            out.push(c);
        }
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                skipping &= depth > 0;
            }
            ';' if depth == 0 => skipping = false,
            _ => {}
        }
    }
    out
}

/// A stylesheet without its `/* comments */`.
fn without_comments(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        rest = rest[start..]
            .split_once("*/")
            .map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out
}

/// Text for XML character data and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Not allowed in XML 1.0 at all: drop rather than emit a broken document.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// An SVG document writer: every element is written whole, attributes escaped.
struct Doc(String);

impl Doc {
    /// A text the layout placed.
    fn placed(&mut self, t: &layout::Text) {
        self.text(t.class, t.x, t.y, t.anchor.as_str(), &t.body);
    }
    fn text(&mut self, class: &str, x: i32, y: i32, anchor: &str, body: &str) {
        let _ = write!(
            self.0,
            r#"<text class="{class}" x="{x}" y="{y}" text-anchor="{anchor}">{}</text>"#,
            escape(body)
        );
    }
    fn rect(&mut self, class: &str, x: i32, y: i32, w: i32, h: i32, rx: i32) {
        let _ = write!(
            self.0,
            r#"<rect class="{class}" x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}"/>"#
        );
    }
    fn line(&mut self, class: &str, x1: i32, y1: i32, x2: i32, y2: i32, marker: Option<&str>) {
        let _ = write!(
            self.0,
            r#"<line class="{class}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}""#
        );
        if let Some(m) = marker {
            let _ = write!(self.0, r#" marker-end="url(#{m})""#);
        }
        self.0.push_str("/>");
    }
    fn circle(&mut self, class: &str, cx: i32, cy: i32, r: i32) {
        let _ = write!(
            self.0,
            r#"<circle class="{class}" cx="{cx}" cy="{cy}" r="{r}"/>"#
        );
    }
    fn path(&mut self, class: &str, d: &str) {
        let _ = write!(self.0, r#"<path class="{class}" d="{d}"/>"#);
    }
    /// A shape the layout decided.
    fn shape(&mut self, class: &str, sh: &Shape) {
        match sh {
            Shape::Circle { cx, cy, r } => self.circle(class, *cx, *cy, *r),
            Shape::Rect { x, y, w, h, rx } => self.rect(class, *x, *y, *w, *h, *rx),
            Shape::Line { x1, y1, x2, y2 } => self.line(class, *x1, *y1, *x2, *y2, None),
            Shape::Path { d } => self.path(class, d),
        }
    }
    /// Open a group with no title.
    fn open(&mut self, class: &str) {
        let _ = write!(self.0, r#"<g class="{}">"#, escape(class));
    }
    /// Open a group whose first child is a `<title>` (a tooltip in a browser, a description
    /// for a screen reader).
    fn group(&mut self, class: &str, title: &str) {
        let _ = write!(
            self.0,
            r#"<g class="{}"><title>{}</title>"#,
            escape(class),
            escape(title)
        );
    }
    fn end(&mut self) {
        self.0.push_str("</g>");
    }
}

/// A run up to its current step as a document: headed by `title`, with the scenario `id`,
/// the receiver setting and how far the run got as the subtitle.
pub fn run_svg(run: &Run, id: &str, title: &str, sheets: &Sheets) -> String {
    let policy = run.scenario.policy.as_str();
    let setting = match &run.variant {
        Some(v) => format!("variant {v}, policy {policy}"),
        None => format!("policy {policy}"),
    };
    let subtitle = format!(
        "{id} · {setting} · {} steps, t={}",
        run.cursor(),
        run.world().now()
    );
    timeline_svg(&layout::layout(run), title, &subtitle, sheets)
}

/// The whole timeline `tl` as an SVG document headed by `title` and `subtitle`.
pub fn timeline_svg(tl: &Timeline, title: &str, subtitle: &str, sheets: &Sheets) -> String {
    let width = GUTTER + tl.width.max(320);
    let height = HEAD + tl.height + legend_height(width);
    let mut d = Doc(String::with_capacity(16 * 1024));
    let _ = write!(
        d.0,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="tl-svg doc" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-labelledby="doc-title doc-desc">"#
    );
    let _ = write!(
        d.0,
        r#"<title id="doc-title">{}</title><desc id="doc-desc">{}</desc>"#,
        escape(title),
        escape(&format!(
            "{subtitle}. Space-time diagram up to t={}: one lane per node, time running to the right; {} messages, {} verdicts, {} violations.",
            tl.now_tick,
            tl.arrows.len(),
            tl.verdicts.len(),
            tl.violations.len()
        ))
    );
    let _ = write!(d.0, "<style>{}</style>", stylesheet(sheets));
    d.0.push_str(layout::DEFS);
    d.rect("gutter-bg", 0, 0, width, height, 0);
    d.text("doc-title", 12, 22, "start", title);
    d.text("doc-sub", 12, 42, "start", subtitle);

    // Lane names in the gutter, then the diagram to its right.
    let _ = write!(d.0, r#"<g transform="translate(0,{HEAD})">"#);
    for (i, l) in tl.lanes.iter().enumerate() {
        d.open(&tl.lane_class(i));
        d.rect("lane-bg", 0, l.y, GUTTER, l.h, 0);
        d.text("lane-name", 10, l.y + 20, "start", &l.name);
        d.text("lane-detail", 10, l.y + 35, "start", &l.detail);
        d.end();
    }
    let _ = write!(d.0, r#"<g transform="translate({GUTTER},0)">"#);
    diagram(&mut d, tl);
    d.0.push_str("</g></g>");
    legend(&mut d, 12, HEAD + tl.height + 8, width - 24);
    d.0.push_str("</svg>\n");
    d.0
}

/// What the app's timeline component draws, in the same order and with the same classes.
fn diagram(d: &mut Doc, tl: &Timeline) {
    let w = tl.width.max(320);
    for i in 0..tl.lanes.len() {
        d.open(&tl.lane_class(i));
        for (class, sh) in tl.lane_shapes(i, w) {
            d.shape(class, &sh);
        }
        d.end();
    }
    for b in &tl.steps {
        d.shape(b.class(None), &b.rect(tl.height));
    }
    ruler(d, tl);
    for b in &tl.bars {
        d.group(&b.class(), &b.title);
        d.shape("bar-rect", &b.rect());
        if let Some(t) = &b.text {
            d.placed(t);
        }
        d.end();
    }
    for o in &tl.overlaps {
        d.group("overlap", &o.title);
        d.shape("hatch", &o.rect());
        if let Some(t) = &o.text {
            d.placed(t);
        }
        d.end();
    }
    for a in &tl.arrows {
        arrow(d, a);
    }
    for m in &tl.marks {
        d.group(&m.group_class(), &m.title);
        d.shape("dot", &m.dot());
        d.placed(&m.glyph_text());
        if let Some(t) = &m.text {
            d.placed(t);
        }
        d.end();
    }
    for v in &tl.verdicts {
        d.group(&v.class(), &v.explain());
        d.shape("shape", &v.shape());
        d.placed(&v.glyph_text());
        for t in v.drawn_lines() {
            d.placed(&t);
        }
        d.end();
    }
    for v in &tl.violations {
        d.group("violation", &v.aria_label());
        d.shape("shape", &v.shape());
        d.placed(&v.glyph_text());
        d.end();
    }
    let (x, y0, y1) = tl.now_line();
    d.line("now", x, y0, x, y1, None);
    d.placed(&layout::now_text(tl));
}

fn ruler(d: &mut Doc, tl: &Timeline) {
    d.open("ruler");
    d.placed(&layout::ruler_title());
    for (_, t) in tl.step_numbers() {
        d.placed(&t);
    }
    for t in &tl.ticks {
        let (x, y0) = t.grid_top();
        d.line("grid", x, y0, x, tl.height, None);
        d.placed(&layout::tick_text(t));
    }
    for g in &tl.gaps {
        d.group("gap", &g.title());
        d.shape("gap-bg", &g.rect(tl.height));
        d.placed(&g.text());
        d.end();
    }
    d.end();
}

fn arrow(d: &mut Doc, a: &Arrow) {
    d.group(&a.class(), &a.title);
    d.line("shaft", a.x0, a.y0, a.x1, a.y1, a.marker());
    if let Some(head) = a.head() {
        d.shape("head", &head);
    }
    if let Some(t) = &a.text {
        d.placed(t);
    }
    d.end();
}

/// Where each legend entry goes, wrapped to `width` from (x0, 0): one (x, row) per entry.
fn legend_places(x0: i32, width: i32) -> Vec<(i32, i32)> {
    let (mut x, mut row) = (x0, 0);
    layout::LEGEND
        .iter()
        .map(|(_, words)| {
            // About 6 px a character at 11 px, plus the swatch.
            let w = 34 + words.chars().count() as i32 * 6 + 14;
            if x + w > x0 + width && x > x0 {
                x = x0;
                row += 1;
            }
            let at = (x, row);
            x += w;
            at
        })
        .collect()
}

/// The legend's height for a document `width` wide: as many rows as its entries wrap to (a
/// narrow diagram's legend took four rows, and its last two were cut off at a fixed height).
fn legend_height(width: i32) -> i32 {
    let rows = legend_places(12, width - 24).last().map_or(0, |p| p.1) + 1;
    LEGEND + (rows - 2).max(0) * 18
}

/// The legend (`layout::LEGEND`), drawn: a swatch and its words per entry, wrapped to `width`.
fn legend(d: &mut Doc, x0: i32, y0: i32, width: i32) {
    d.open("doc-legend");
    d.rect(
        "legend-bg",
        x0 - 6,
        y0,
        width + 12,
        legend_height(width + 24) - 14,
        4,
    );
    for ((swatch, words), (x, row)) in layout::LEGEND.iter().zip(legend_places(x0, width)) {
        let y = y0 + 15 + row * 18;
        swatch_at(d, *swatch, x, y - 8);
        d.text("legend-text", x + 30, y, "start", words);
    }
    d.end();
}

/// A legend entry's swatch, 24 px wide from (x, y): what the diagram draws for it, small.
fn swatch_at(d: &mut Doc, swatch: Swatch, x: i32, y: i32) {
    let glyph = swatch.glyph().unwrap_or_default();
    match swatch {
        Swatch::Holder | Swatch::Belief | Swatch::Paused | Swatch::Crashed | Swatch::Overlap => {
            d.open(match swatch {
                Swatch::Holder => "bar bar-holder",
                Swatch::Belief => "bar bar-belief",
                Swatch::Paused => "bar band-paused",
                Swatch::Crashed => "bar band-crashed",
                _ => "overlap",
            });
            d.rect("sw", x, y, 24, 11, 2);
        }
        Swatch::Accepted => {
            d.open("verdict v-accepted");
            d.circle("shape", x + 12, y + 5, 8);
            d.text("glyph", x + 12, y + 10, "middle", glyph);
        }
        Swatch::Rejected => {
            d.open("verdict v-rejected");
            d.rect("shape", x + 4, y - 3, 16, 16, 3);
            d.text("glyph", x + 12, y + 10, "middle", glyph);
        }
        Swatch::Violation => {
            d.open("violation");
            d.path("shape", &layout::diamond(x + 12, y + 5, 9));
            d.text("bang", x + 12, y + 10, "middle", glyph);
        }
        Swatch::Pending | Swatch::Held => {
            d.open(if swatch == Swatch::Held {
                "arrow held"
            } else {
                "arrow in-flight"
            });
            d.line("shaft", x, y + 5, x + 24, y + 5, None);
        }
    }
    d.end();
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;
    use crate::sim::run::Run;
    use crate::view::layout::VerdictKind;

    fn paused_writer_svg() -> String {
        let s = presets::get("paused-writer").unwrap();
        let mut run = Run::new(&s, s.variants.first());
        run.run_script().unwrap();
        timeline_svg(
            &layout::layout(&run),
            &s.title,
            "variant <fenced> & more",
            &Sheets::built_in(),
        )
    }

    /// Every text node of the document, parsed.
    fn texts(doc: &roxmltree::Document) -> Vec<String> {
        doc.descendants()
            .filter_map(|n| n.text())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn the_document_is_well_formed_standalone_svg() {
        let svg = paused_writer_svg();
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        for a in ["width", "height", "viewBox"] {
            assert!(root.attribute(a).is_some(), "{a}");
        }
        assert!(root.children().any(|c| c.has_tag_name("title")));
        assert!(root.children().any(|c| c.has_tag_name("style")));
        // Self-contained: nothing fetched from elsewhere.
        for n in doc.descendants() {
            for a in n.attributes() {
                let v = a.value();
                assert!(
                    !v.contains("http") || a.name() == "xmlns",
                    "external reference {}={v}",
                    a.name()
                );
                if v.starts_with("url(") {
                    assert!(v.starts_with("url(#"), "{v}");
                }
            }
            assert!(!n.has_tag_name("image") && !n.has_tag_name("use"));
        }
        assert!(!svg.contains("@import"));
    }

    #[test]
    fn it_shows_every_verdict_with_token_reason_and_highest() {
        let s = presets::get("paused-writer").unwrap();
        let mut run = Run::new(&s, s.variants.first());
        run.run_script().unwrap();
        let tl = layout::layout(&run);
        let svg = timeline_svg(&tl, &s.title, "fenced", &Sheets::built_in());
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let t = texts(&doc);
        assert!(!tl.verdicts.is_empty());
        for v in &tl.verdicts {
            let what = format!("{} {} · {}", v.kind.glyph(), v.request, v.token);
            assert!(t.contains(&what), "missing {what}");
            assert!(t.contains(&v.outcome), "missing {}", v.outcome);
            assert!(t.contains(&format!("{} {}", v.kept, v.highest)));
        }
        // A's stale write is rejected, and says why.
        let rejected = tl
            .verdicts
            .iter()
            .find(|v| v.kind == VerdictKind::Rejected)
            .expect("paused-writer rejects A's write");
        assert!(rejected.request.starts_with('A'), "{}", rejected.request);
        assert!(
            t.iter().any(|x| x == "rejected: stale"),
            "{:?}",
            rejected.outcome
        );
        // Lanes are named, both lease bars drawn, the pause marked.
        for l in &tl.lanes {
            assert!(t.contains(&l.name), "lane {}", l.name);
        }
        let classes: Vec<&str> = doc
            .descendants()
            .filter_map(|n| n.attribute("class"))
            .collect();
        for c in ["bar bar-holder", "bar bar-belief", "bar band-paused"] {
            assert!(classes.contains(&c), "{c}");
        }
    }

    #[test]
    fn violations_carry_their_explanation_as_a_title() {
        let s = presets::get("paused-writer").unwrap();
        let v = s
            .variant("unfenced")
            .expect("paused-writer has an unfenced variant");
        let mut run = Run::new(&s, Some(v));
        run.run_script().unwrap();
        let tl = layout::layout(&run);
        assert!(!tl.violations.is_empty());
        let svg = timeline_svg(&tl, &s.title, "unfenced", &Sheets::built_in());
        let doc = roxmltree::Document::parse(&svg).unwrap();
        for v in &tl.violations {
            let g = doc
                .descendants()
                .find(|n| {
                    n.attribute("class") == Some("violation")
                        && n.first_element_child().and_then(|t| t.text())
                            == Some(v.aria_label().as_str())
                })
                .expect("a violation group titled with its explanation");
            assert!(v.aria_label().contains(&v.explain));
            assert!(g.descendants().any(|n| n.text() == Some("!")));
        }
    }

    /// The legend wraps to as many rows as a narrow diagram needs, and the document is tall
    /// enough for all of them (the sandbox's, at step 0, took four rows and lost two).
    #[test]
    fn the_legend_fits_the_document_however_narrow() {
        for id in ["sandbox", "same-owner-repeats", "coordinator-restore"] {
            let s = presets::get(id).unwrap();
            let mut run = Run::new(&s, s.variants.first());
            run.run_script().unwrap();
            let svg = timeline_svg(&layout::layout(&run), &s.title, "", &Sheets::built_in());
            let doc = roxmltree::Document::parse(&svg).unwrap();
            let height: i32 = doc
                .root_element()
                .attribute("height")
                .unwrap()
                .parse()
                .unwrap();
            let lowest = doc
                .descendants()
                .filter(|n| n.attribute("class") == Some("legend-text"))
                .map(|n| n.attribute("y").unwrap().parse::<i32>().unwrap())
                .max()
                .unwrap();
            assert!(
                lowest + 8 <= height,
                "{id}: legend text at {lowest}, height {height}"
            );
        }
    }

    #[test]
    fn text_is_escaped() {
        let svg = paused_writer_svg();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert!(texts(&doc).contains(&"variant <fenced> & more".to_string()));
        assert!(svg.contains("variant &lt;fenced&gt; &amp; more"));
        assert_eq!(escape("a\"b'c\u{1}"), "a&quot;b&apos;c");
    }

    /// The class tokens a stylesheet's selectors name.
    fn selector_classes(css: &str) -> Vec<String> {
        let mut out = Vec::new();
        for rule in css.split('}') {
            let selector = rule.split('{').next().unwrap_or("");
            for part in selector.split('.').skip(1) {
                let name: String = part
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                    .collect();
                out.push(name);
            }
        }
        out
    }

    #[test]
    fn a_palette_as_the_browser_gives_it_back_is_written_out_too() {
        // The page reads its sheets back through the CSSOM: one rule a line, no comments.
        let palette = ":root { --ok: #1a7f37; --bad: #cf222e; }";
        let css = written_out(
            palette,
            &[".v-ok { fill: var(--ok); }\n.v-bad { stroke: var(--bad); }"],
        );
        assert_eq!(css, ".v-ok { fill: #1a7f37; }\n.v-bad { stroke: #cf222e; }");
    }

    #[test]
    fn an_export_carries_the_light_theme_whichever_the_page_is_in() {
        // The dark theme's block, as a browser gives it back, before or after the light one.
        let light = ":root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; }";
        let dark =
            "@media (prefers-color-scheme: dark) {\n  :root { --ok: #3fb950; --bad: #ff7b72; }\n}";
        let sheet = ".v-ok { fill: var(--ok); }\n.v-bad { stroke: var(--bad); }";
        let want = ".v-ok { fill: #1a7f37; }\n.v-bad { stroke: #cf222e; }";
        assert_eq!(written_out(&format!("{light}\n{dark}"), &[sheet]), want);
        assert_eq!(written_out(&format!("{dark}\n{light}"), &[sheet]), want);
        assert_eq!(top_level_rules("@import url(x.css);\na{b:c}"), "\na{b:c}");
        // The file as written: the dark block sets colours again, and none of them is
        // written out; the document paints its own light background (the gutter's rect
        // covers it whole).
        let style = stylesheet(&Sheets::built_in());
        assert!(PALETTE_CSS.contains("@media (prefers-color-scheme: dark)"));
        assert!(style.contains(".tl-svg text {\nfill: #1f2328;"), "{style}");
        assert!(!style.contains("#e6edf3") && !style.contains("#161b22"));
        assert!(style.contains(".gutter-bg{fill:#ffffff;"));
        let svg = paused_writer_svg();
        let (w, h) = (
            svg.split("width=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap(),
            svg.split("height=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap(),
        );
        assert!(svg.contains(&format!(
            r#"<rect class="gutter-bg" x="0" y="0" width="{w}" height="{h}" rx="0"/>"#
        )));
    }

    #[test]
    fn the_document_carries_the_pages_timeline_stylesheet_written_out() {
        let svg = paused_writer_svg();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let style = doc
            .descendants()
            .find(|n| n.has_tag_name("style"))
            .and_then(|n| n.text())
            .unwrap();
        assert_eq!(style, stylesheet(&Sheets::built_in()));
        assert!(!style.contains("var("), "a var() left: {style}");
        assert!(!style.contains("/*"));
        // Every rule of static/timeline.css, in its order, each colour written out.
        let timeline: Vec<&str> = TIMELINE_CSS
            .lines()
            .map(str::trim)
            .filter(|l| l.ends_with('{'))
            .collect();
        let mut at = 0;
        for selector in timeline {
            let found = style[at..].find(selector).unwrap_or_else(|| {
                panic!("{selector} of static/timeline.css is not in the document, in order")
            });
            at += found + selector.len();
        }
        assert!(style.contains(".arrow.k-write line {\nstroke: #0550ae;"));
        // The page links the same file (trunk copies it into dist/), after the palette.
        let index = include_str!("../../index.html");
        let links: Vec<&str> = index
            .lines()
            .filter(|l| l.contains(r#"data-trunk rel="css""#))
            .collect();
        assert!(links[0].contains("static/palette.css"), "{links:?}");
        assert!(links.iter().any(|l| l.contains("static/timeline.css")));
    }

    #[test]
    fn every_class_the_layout_gives_has_a_rule_in_the_timeline_stylesheet() {
        let styled: Vec<String> = selector_classes(TIMELINE_CSS)
            .into_iter()
            .chain(selector_classes(DOC_CSS))
            .collect();
        // Names that only group or mark what is drawn (a key for tests and scripts), with
        // nothing of their own to style.
        let structural = [
            "lane",
            "lane-coordinator",
            "lane-worker",
            "lane-resource",
            "shaft",
            "bar-rect",
            "hatch",
            "gap-bg",
            "gap-label",
            "ruler-title",
            "tick-label",
            "step-no",
            "bang",
            "doc-legend",
            "sw",
            "open",
            "v-what",
            "label",
            "delivered",
            "k-acquire",
            "k-grant",
            "k-available",
            "k-renew",
            "k-renewed",
            "k-renewal",
            "k-release",
            "k-reply",
            "k-fence",
            "m-minor",
            "shape",
            "doc",
            "band-text",
        ];
        let mut seen = Vec::new();
        for s in presets::all() {
            // The scenario as it is, and under each of its variants.
            for v in std::iter::once(None).chain(s.variants.iter().map(Some)) {
                let mut run = Run::new(&s, v);
                run.run_script().unwrap();
                let svg = timeline_svg(&layout::layout(&run), &s.title, "", &Sheets::built_in());
                let doc = roxmltree::Document::parse(&svg).unwrap();
                for class in doc.descendants().filter_map(|n| n.attribute("class")) {
                    for token in class.split_whitespace() {
                        if !seen.iter().any(|s: &String| s == token) {
                            seen.push(token.to_string());
                        }
                    }
                }
            }
        }
        let unstyled: Vec<&String> = seen
            .iter()
            .filter(|c| !styled.contains(c) && !structural.contains(&c.as_str()))
            .collect();
        assert!(
            unstyled.is_empty(),
            "no rule in static/timeline.css for {unstyled:?}"
        );
        // And the structural list names only what is drawn.
        for c in structural {
            assert!(
                seen.iter().any(|s| s == c) || c.starts_with("k-"),
                "{c} is not drawn"
            );
        }
    }
}
