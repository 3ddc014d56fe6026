//! The timeline as a standalone SVG document, for a doc or a slide: the same
//! [`layout::Timeline`] geometry the app's timeline component draws, with the lane names in a
//! left gutter, a title, a legend, and the app's colours in an inline `<style>`. Nothing in it
//! refers outside the file (no fonts, images or stylesheets), so it reads the same anywhere.
//!
//! Pure string building: the CLI (`fencing-lab render`) and the app's "Export SVG" share it.

use super::layout::{self, Arrow, ArrowState, LaneKind, Timeline, VerdictKind};
use crate::sim::run::Run;
use std::fmt::Write as _;

/// Width of the lane-name gutter left of the diagram.
const GUTTER: i32 = 150;
/// Height of the title block above the diagram.
const HEAD: i32 = 54;
/// Height of the legend below it.
const LEGEND: i32 = 58;

/// The app's timeline colours (static/style.css), with its CSS variables written out.
const STYLE: &str = "
text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Noto Sans',sans-serif;font-size:11px;fill:#1f2328}
.doc-title{font-size:17px;font-weight:700}
.doc-sub{font-size:12px;fill:#57606a}
.gutter-bg{fill:#fff;stroke:#d0d7de}
.lane-name{font-size:13px;font-weight:700}
.lane-detail{font-size:10.5px;fill:#57606a}
.lane-coordinator .lane-name{fill:#6639ba}
.lane-worker .lane-name{fill:#0550ae}
.lane-resource .lane-name{fill:#116329}
.lane.even .lane-bg{fill:#fff}
.lane.odd .lane-bg{fill:#f6f8fa}
.lane-bg{stroke:#eaeef2}
.axis{stroke:#8c959f;stroke-width:1}
.step{fill:transparent}
.step.current{fill:#fff8c5;fill-opacity:.8;stroke:#d4a72c;stroke-dasharray:4 3}
.ruler text{fill:#57606a}
.ruler .step-no.current{fill:#7d4e00;font-weight:700;font-size:12px}
.ruler .grid{stroke:#d8dee4;stroke-dasharray:2 4}
.gap rect{fill:#eaeef2;fill-opacity:.7}
.now{stroke:#1f2328;stroke-width:1.5;stroke-dasharray:5 3}
.now-label{font-weight:700}
.bar-holder rect{fill:#ddf4ff;stroke:#0969da;stroke-width:1.3}
.bar-holder text{fill:#0a3069}
.bar-belief rect{fill:#0969da}
.bar-belief text{fill:#fff}
.bar-text{font-size:10.5px;font-weight:600}
.band-paused rect{fill:url(#hatch-pause);stroke:#9a6700}
.hatch-bg{fill:#fff8c5}
.hatch-line{stroke:#e3b341;stroke-width:3}
.band-paused text{fill:#6b4500}
.band-crashed rect{fill:#24292f}
.band-crashed text{fill:#fff}
.band-cutoff rect{fill:#fbefff;stroke:#8250df;stroke-dasharray:3 2}
.band-cutoff text{fill:#6639ba}
.band-text{font-weight:700}
.overlap rect{fill:url(#hatch-overlap);stroke:#82071e}
.overlap-bg{fill:#cf222e}
.overlap-line{stroke:#a40e26;stroke-width:3}
.overlap text{fill:#fff;font-size:9px;font-weight:700}
.arrow line{stroke:#57606a;stroke-width:1.4}
.arrow.k-write line{stroke:#0550ae;stroke-width:1.9}
.arrow.in-flight line{stroke-dasharray:6 4}
.arrow.held line{stroke:#9a6700;stroke-dasharray:2 4;stroke-width:2}
.arrow.dropped line,.arrow.lost line{stroke:#8c959f;stroke-dasharray:3 3}
.arrow .head{fill:#fff;stroke:#57606a;stroke-width:2}
.arrow.held .head{stroke:#9a6700}
.ah{fill:#57606a}
.ah-write{fill:#0550ae}
.arrow-label,.pending-label,.mark-label,.v-line{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
.arrow-label{fill:#0550ae;font-size:10.5px;font-weight:600}
.pending-label{font-size:10.5px;font-weight:600}
.mark .dot{fill:#fff;stroke:#57606a;stroke-width:1.3}
.mark-label{fill:#57606a;font-size:10px}
.m-grant .dot{stroke:#0969da}
.m-expire .dot,.m-warn .dot{stroke:#bc4c00}
.m-node .dot{stroke:#8250df;fill:#fbefff}
.m-prepare .dot{stroke:#0550ae}
.m-dropped .dot{stroke:#cf222e;fill:#fff}
.m-held .dot{stroke:#9a6700;fill:#fff8c5}
.v-accepted .shape,.v-noop .shape{fill:#1a7f37}
.v-rejected .shape{fill:#953800}
.v-replayed .shape{fill:#0969da}
.v-checked .shape{fill:#fff;stroke:#57606a;stroke-width:1.5;stroke-dasharray:3 2}
.verdict .glyph{fill:#fff;font-size:14px;font-weight:700}
.v-checked .glyph{fill:#1f2328}
.v-outcome{font-weight:700}
.v-accepted .v-outcome{fill:#116329}
.v-rejected .v-outcome{fill:#953800}
.v-highest{fill:#57606a}
.violation .shape{fill:#cf222e;stroke:#82071e;stroke-width:1.5}
.violation text{fill:#fff;font-weight:800;font-size:14px}
.legend-bg{fill:#f6f8fa;stroke:#d0d7de}
.legend text{fill:#57606a;font-size:11px}
";

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
    fn diamond(&mut self, class: &str, x: i32, y: i32, r: i32) {
        let _ = write!(
            self.0,
            r#"<path class="{class}" d="M{x},{} L{},{y} L{x},{} L{},{y} Z"/>"#,
            y - r,
            x + r,
            y + r,
            x - r
        );
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

fn lane_class(k: LaneKind) -> &'static str {
    match k {
        LaneKind::Coordinator => "coordinator",
        LaneKind::Worker => "worker",
        LaneKind::Resource => "resource",
    }
}

/// A run up to its current step as a document: headed by `title`, with the scenario `id`,
/// the receiver setting and how far the run got as the subtitle.
pub fn run_svg(run: &Run, id: &str, title: &str) -> String {
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
    timeline_svg(&layout::layout(run), title, &subtitle)
}

/// The whole timeline `tl` as an SVG document headed by `title` and `subtitle`.
pub fn timeline_svg(tl: &Timeline, title: &str, subtitle: &str) -> String {
    let width = GUTTER + tl.width.max(320);
    let height = HEAD + tl.height + LEGEND;
    let mut d = Doc(String::with_capacity(16 * 1024));
    let _ = write!(
        d.0,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-labelledby="doc-title doc-desc">"#
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
    let _ = write!(d.0, "<style>{STYLE}</style>");
    defs(&mut d);
    d.rect("gutter-bg", 0, 0, width, height, 0);
    d.text("doc-title", 12, 22, "start", title);
    d.text("doc-sub", 12, 42, "start", subtitle);

    // Lane names in the gutter, then the diagram to its right.
    let _ = write!(d.0, r#"<g transform="translate(0,{HEAD})">"#);
    for (i, l) in tl.lanes.iter().enumerate() {
        let parity = if i % 2 == 0 { "even" } else { "odd" };
        let _ = write!(
            d.0,
            r#"<g class="lane lane-{} {parity}">"#,
            lane_class(l.kind)
        );
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

fn defs(d: &mut Doc) {
    d.0.push_str(concat!(
        "<defs>",
        r#"<marker id="ah" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="ah"/></marker>"#,
        r#"<marker id="ah-write" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="ah-write"/></marker>"#,
        r#"<pattern id="hatch-pause" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" class="hatch-bg"/><line x1="0" y1="0" x2="0" y2="8" class="hatch-line"/></pattern>"#,
        r#"<pattern id="hatch-overlap" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="6" height="6" class="overlap-bg"/><line x1="0" y1="0" x2="0" y2="6" class="overlap-line"/></pattern>"#,
        "</defs>"
    ));
}

/// What the app's timeline component draws, in the same order and with the same classes.
fn diagram(d: &mut Doc, tl: &Timeline) {
    let w = tl.width.max(320);
    for (i, l) in tl.lanes.iter().enumerate() {
        let parity = if i % 2 == 0 { "even" } else { "odd" };
        let _ = write!(d.0, r#"<g class="lane {parity}">"#);
        d.rect("lane-bg", 0, l.y, w, l.h, 0);
        d.line("axis", layout::LEFT - 8, l.axis, tl.now_x, l.axis, None);
        d.end();
    }
    for b in &tl.steps {
        let class = if b.current { "step current" } else { "step" };
        d.rect(
            class,
            b.x0,
            layout::RULER_H - 22,
            (b.x1 - b.x0).max(1),
            tl.height - layout::RULER_H + 22,
            0,
        );
    }
    ruler(d, tl);
    for b in &tl.bars {
        let bw = b.x1 - b.x0;
        d.group(&format!("bar {}", b.kind.class()), &b.title);
        d.rect("bar-rect", b.x0, b.y, bw, b.h, 3);
        if let Some(t) = &b.text {
            d.placed(t);
        }
        d.end();
    }
    for o in &tl.overlaps {
        d.group("overlap", &o.title);
        d.rect("hatch", o.x0, o.y, o.x1 - o.x0, o.h, 2);
        if let Some(t) = &o.text {
            d.placed(t);
        }
        d.end();
    }
    for a in &tl.arrows {
        arrow(d, a);
    }
    for m in &tl.marks {
        d.group(&format!("mark {}", m.class), &m.title);
        d.circle("dot", m.x, m.y, 9);
        d.text("glyph", m.x, m.y + 4, "middle", &m.glyph);
        if let Some(t) = &m.text {
            d.placed(t);
        }
        d.end();
    }
    for v in &tl.verdicts {
        let glyph = v.kind.glyph();
        d.group(&format!("verdict {}", v.kind.class()), &v.explain());
        match v.kind {
            VerdictKind::Rejected => d.rect("shape", v.x - 11, v.y - 11, 22, 22, 3),
            _ => d.circle("shape", v.x, v.y, 11),
        }
        d.text("glyph", v.x, v.y + 5, "middle", glyph);
        for t in v.lines() {
            d.placed(&t);
        }
        d.end();
    }
    for v in &tl.violations {
        d.group("violation", &v.aria_label());
        d.diamond("shape", v.x, v.y, 11);
        d.text("bang", v.x, v.y + 5, "middle", "!");
        d.end();
    }
    d.line(
        "now",
        tl.now_x,
        layout::RULER_H - 12,
        tl.now_x,
        tl.height,
        None,
    );
    d.placed(&layout::now_text(tl));
}

fn ruler(d: &mut Doc, tl: &Timeline) {
    d.0.push_str(r#"<g class="ruler">"#);
    d.text("ruler-title", 2, 12, "start", "step");
    let mut last_label = -1000;
    for b in &tl.steps {
        let cx = (b.x0 + b.x1) / 2;
        if b.current || (b.x1 - b.x0 >= 14 && cx - last_label >= 22) {
            let class = if b.current {
                "step-no current"
            } else {
                "step-no"
            };
            d.text(class, cx, 12, "middle", &b.step.to_string());
            last_label = cx;
        }
    }
    for t in &tl.ticks {
        d.line("grid", t.x, layout::RULER_H - 6, t.x, tl.height, None);
        d.placed(&layout::tick_text(t));
    }
    for g in &tl.gaps {
        d.group(
            "gap",
            &format!("{} ticks with nothing happening, drawn compressed", g.ticks),
        );
        d.rect(
            "gap-bg",
            g.x0,
            layout::RULER_H,
            g.x1 - g.x0,
            tl.height - layout::RULER_H,
            0,
        );
        d.text(
            "gap-label",
            (g.x0 + g.x1) / 2,
            layout::RULER_H - 10,
            "middle",
            "≈",
        );
        d.end();
    }
    d.end();
}

fn arrow(d: &mut Doc, a: &Arrow) {
    d.group(&format!("arrow {} k-{}", a.state.class(), a.kind), &a.title);
    let marker = match (a.state, a.kind.as_str()) {
        (ArrowState::Delivered | ArrowState::Lost, "write") => Some("ah-write"),
        (ArrowState::Delivered | ArrowState::Lost, _) => Some("ah"),
        _ => None,
    };
    d.line("shaft", a.x0, a.y0, a.x1, a.y1, marker);
    if matches!(a.state, ArrowState::InFlight | ArrowState::Held) {
        d.circle("head", a.x1, a.y1, 4);
    }
    if let Some(t) = &a.text {
        d.placed(t);
    }
    d.end();
}

/// The app's legend, drawn: a swatch and its words per entry, wrapped to `width`.
fn legend(d: &mut Doc, x0: i32, y0: i32, width: i32) {
    d.0.push_str(r#"<g class="legend">"#);
    d.rect("legend-bg", x0 - 6, y0, width + 12, LEGEND - 14, 4);
    let entries: [(&str, &str); 10] = [
        ("holder", "coordinator's view of the lease"),
        ("belief", "the worker's own belief"),
        ("overlap", "⚠ two workers believe at once"),
        ("paused", "paused (stop-the-world)"),
        ("crashed", "✕ crashed"),
        ("accepted", "accepted"),
        ("rejected", "rejected"),
        ("violation", "violation (its <title> says why)"),
        ("pending", "message in flight"),
        ("held", "message held by the network"),
    ];
    let (mut x, mut y) = (x0, y0 + 15);
    for (kind, words) in entries {
        // About 6 px a character at 11 px, plus the swatch.
        let w = 34 + words.chars().count() as i32 * 6 + 14;
        if x + w > x0 + width && x > x0 {
            x = x0;
            y += 18;
        }
        let sy = y - 8;
        match kind {
            "holder" | "belief" | "crashed" => {
                let class = match kind {
                    "holder" => "bar bar-holder",
                    "belief" => "bar bar-belief",
                    _ => "bar band-crashed",
                };
                let _ = write!(d.0, r#"<g class="{class}">"#);
                d.rect("sw", x, sy, 24, 11, 2);
                d.end();
            }
            "paused" => {
                d.0.push_str(r#"<g class="bar band-paused">"#);
                d.rect("sw", x, sy, 24, 11, 2);
                d.end();
            }
            "overlap" => {
                d.0.push_str(r#"<g class="overlap">"#);
                d.rect("sw", x, sy, 24, 11, 2);
                d.end();
            }
            "accepted" => {
                d.0.push_str(r#"<g class="verdict v-accepted">"#);
                d.circle("shape", x + 12, sy + 5, 8);
                d.text("glyph", x + 12, sy + 10, "middle", "✓");
                d.end();
            }
            "rejected" => {
                d.0.push_str(r#"<g class="verdict v-rejected">"#);
                d.rect("shape", x + 4, sy - 3, 16, 16, 3);
                d.text("glyph", x + 12, sy + 10, "middle", "✗");
                d.end();
            }
            "violation" => {
                d.0.push_str(r#"<g class="violation">"#);
                d.diamond("shape", x + 12, sy + 5, 9);
                d.text("bang", x + 12, sy + 10, "middle", "!");
                d.end();
            }
            "pending" | "held" => {
                let class = if kind == "held" {
                    "arrow held"
                } else {
                    "arrow in-flight"
                };
                let _ = write!(d.0, r#"<g class="{class}">"#);
                d.line("shaft", x, sy + 5, x + 24, sy + 5, None);
                d.end();
            }
            _ => {}
        }
        d.text("legend-text", x + 30, y, "start", words);
        x += w;
    }
    d.end();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;
    use crate::sim::run::Run;

    fn paused_writer_svg() -> String {
        let s = presets::get("paused-writer").unwrap();
        let mut run = Run::new(&s, s.variants.first());
        run.run_script().unwrap();
        timeline_svg(&layout::layout(&run), &s.title, "variant <fenced> & more")
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
        let svg = timeline_svg(&tl, &s.title, "fenced");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let t = texts(&doc);
        assert!(!tl.verdicts.is_empty());
        for v in &tl.verdicts {
            let what = format!("{} {} · {}", v.kind.glyph(), v.request, v.token);
            assert!(t.contains(&what), "missing {what}");
            assert!(t.contains(&v.outcome), "missing {}", v.outcome);
            assert!(t.contains(&format!("highest {}", v.highest)));
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
        let svg = timeline_svg(&tl, &s.title, "unfenced");
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

    #[test]
    fn text_is_escaped() {
        let svg = paused_writer_svg();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert!(texts(&doc).contains(&"variant <fenced> & more".to_string()));
        assert!(svg.contains("variant &lt;fenced&gt; &amp; more"));
        assert_eq!(escape("a\"b'c\u{1}"), "a&quot;b&apos;c");
    }
}
