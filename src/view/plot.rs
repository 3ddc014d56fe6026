//! The lease-duration lab's charts against TTL: pure geometry (nice ticks, a linear scale,
//! one series per metric, marks where this sweep saw stale writes get through without
//! fencing) and the SVG text drawn from it, for the page and for "Export SVG". No mark is a
//! safe threshold: the banner says no TTL is safe without fencing.
//!
//! Hand-written rather than a plotting crate: the bundle budget (250 KB gzip for the whole
//! app) has no room for one, and four small line charts need only what is here. Numbers are
//! formatted with integer arithmetic, so the WASM carries no float-formatting code for them.

use super::svg::escape as esc;
use super::svg::Sheets;
use crate::sim::lab::{LabPoint, LabResult, LabRun};
use crate::sim::time::Tick;

/// The chart's coordinate box (SVG user units); the page scales it to its width.
pub const W: f64 = 420.0;
pub const H: f64 = 270.0;
/// The plot area inside it, leaving room for tick labels, axis names and the marker label.
pub const X0: f64 = 50.0;
pub const X1: f64 = W - 18.0;
pub const Y0: f64 = 46.0;
pub const Y1: f64 = H - 46.0;
/// One legend row under the chart (charts with two series).
const LEGEND_ROW: f64 = 20.0;
/// The export's title band above the chart, and its footer below.
const TITLE_H: f64 = 30.0;
const FOOTER_H: f64 = 22.0;

/// One plotted figure of a `LabPoint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    Takeover,
    FalseExpirations,
    /// Renewals and the acquires that replace a lapsed lease, per minute.
    Renewals,
    StaleUnfenced,
    /// Superseded writes the fenced (highest-seen) copy applied.
    SupersededFenced,
    StaleFenced,
}

impl Metric {
    pub const ALL: [Metric; 6] = [
        Metric::Takeover,
        Metric::FalseExpirations,
        Metric::Renewals,
        Metric::StaleUnfenced,
        Metric::SupersededFenced,
        Metric::StaleFenced,
    ];

    /// A short id, used in `data-pt` attributes.
    pub fn id(self) -> &'static str {
        match self {
            Metric::Takeover => "takeover",
            Metric::FalseExpirations => "false",
            Metric::Renewals => "renewals",
            Metric::StaleUnfenced => "unfenced",
            Metric::SupersededFenced => "superseded",
            Metric::StaleFenced => "fenced",
        }
    }

    pub fn from_id(id: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.id() == id)
    }

    /// The mean at one TTL; `None` where nothing was measured (no run saw a takeover).
    pub fn value(self, p: &LabPoint) -> Option<f64> {
        match self {
            Metric::Takeover => p.takeover_mean,
            Metric::FalseExpirations => Some(p.false_expirations_mean),
            Metric::Renewals => Some(p.lease_messages_per_minute),
            Metric::StaleUnfenced => Some(p.stale_accepted_unfenced_mean),
            Metric::SupersededFenced => Some(p.superseded_accepted_fenced_mean),
            Metric::StaleFenced => Some(p.stale_rejected_fenced_mean),
        }
    }

    /// What one run measured, in the units of `value` (renewals per minute of `minutes`).
    pub fn run_value(self, r: &LabRun, minutes: f64) -> Option<f64> {
        match self {
            Metric::Takeover => r.takeover.map(|t| t as f64),
            Metric::FalseExpirations => Some(r.false_expirations as f64),
            Metric::Renewals => Some((r.renewals + r.acquires) as f64 / minutes),
            Metric::StaleUnfenced => Some(r.stale_accepted_unfenced as f64),
            Metric::SupersededFenced => Some(r.superseded_accepted_fenced as f64),
            Metric::StaleFenced => Some(r.stale_rejected_fenced as f64),
        }
    }

    /// The series' name in legends.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Takeover => "time to takeover",
            Metric::FalseExpirations => "false expirations",
            Metric::Renewals => "renewals and re-acquires per minute",
            Metric::StaleUnfenced => "old-owner writes accepted without fencing",
            Metric::SupersededFenced => "superseded writes accepted with fencing",
            Metric::StaleFenced => "stale writes rejected with fencing",
        }
    }

    /// The figure in words: "takeover 12.5 s after the crash", "2 false expirations".
    pub fn phrase(self, v: f64) -> String {
        let n = value_text(v);
        let many = n != "1";
        match self {
            Metric::Takeover => format!("takeover {n} s after the crash"),
            Metric::FalseExpirations => {
                format!("{n} false expiration{}", if many { "s" } else { "" })
            }
            Metric::Renewals => format!("{n} renewals and re-acquires per minute"),
            Metric::SupersededFenced => format!(
                "{n} superseded write{} accepted with fencing",
                if many { "s" } else { "" }
            ),
            Metric::StaleUnfenced => format!(
                "{n} old-owner write{} accepted without fencing",
                if many { "s" } else { "" }
            ),
            Metric::StaleFenced => format!(
                "{n} stale write{} rejected with fencing",
                if many { "s" } else { "" }
            ),
        }
    }

    /// Counts of events (pick the run showing the most of them); rates (pick the typical run).
    fn is_count(self) -> bool {
        !matches!(self, Metric::Takeover | Metric::Renewals)
    }

    /// The series' look: a class for its colour and its points' shape. The line style differs
    /// too (`lp-dash`, `lp-dot2`), so colour is never the only difference.
    fn style(self) -> (&'static str, Shape) {
        match self {
            Metric::StaleUnfenced => ("lp-bad", Shape::Circle),
            Metric::SupersededFenced => ("lp-warn lp-dot2", Shape::Diamond),
            Metric::StaleFenced => ("lp-good lp-dash", Shape::Square),
            _ => ("lp-main", Shape::Circle),
        }
    }
}

/// A point's symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Circle,
    Square,
    Diamond,
}

/// The four charts of the lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChartKind {
    Takeover,
    FalseExpirations,
    Renewals,
    StaleWrites,
}

impl ChartKind {
    pub const ALL: [ChartKind; 4] = [
        ChartKind::Takeover,
        ChartKind::FalseExpirations,
        ChartKind::Renewals,
        ChartKind::StaleWrites,
    ];

    pub fn id(self) -> &'static str {
        match self {
            ChartKind::Takeover => "takeover",
            ChartKind::FalseExpirations => "false-expirations",
            ChartKind::Renewals => "renewals",
            ChartKind::StaleWrites => "stale-writes",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            ChartKind::Takeover => "Time to takeover after a crash",
            ChartKind::FalseExpirations => "False expirations",
            ChartKind::Renewals => "Renewal traffic per minute",
            ChartKind::StaleWrites => "Stale and superseded writes: without fencing vs with it",
        }
    }

    /// What the chart shows, in a sentence under its title.
    pub fn caption(self) -> &'static str {
        match self {
            ChartKind::Takeover => {
                "Seconds from the holder's crash until another worker is granted the lease."
            }
            ChartKind::FalseExpirations => {
                "A live holder losing its lease at the coordinator, per run: a pause outlasted it, or its renewal came too late."
            }
            ChartKind::Renewals => {
                "Renew requests both workers send, per minute of run, plus the acquires that replace a lease which lapsed (below about two round trips a renewal is answered after the lease ran out)."
            }
            ChartKind::StaleWrites => {
                "Per run. Each write goes to two copies of the resource, as two requests that travel apart. “Old-owner writes accepted without fencing”: writes of an expired owner the unfenced copy applied, stale (after the new owner wrote there) or superseded (before it). “Superseded writes accepted with fencing”: old-owner writes the fenced copy (highest-seen) applied because they landed before the new token did. “Stale writes rejected with fencing”: old-owner writes it refused. Where the only old-owner writes landed early, the last line stays at 0: the fence had nothing to refuse."
            }
        }
    }

    pub fn y_label(self) -> &'static str {
        match self {
            ChartKind::Takeover => "seconds",
            ChartKind::FalseExpirations => "per run",
            ChartKind::Renewals => "messages per minute",
            ChartKind::StaleWrites => "writes per run",
        }
    }

    pub fn metrics(self) -> &'static [Metric] {
        match self {
            ChartKind::Takeover => &[Metric::Takeover],
            ChartKind::FalseExpirations => &[Metric::FalseExpirations],
            ChartKind::Renewals => &[Metric::Renewals],
            ChartKind::StaleWrites => &[
                Metric::StaleUnfenced,
                Metric::SupersededFenced,
                Metric::StaleFenced,
            ],
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct AxisTick {
    /// x for the x axis, y for the y axis.
    pub pos: f64,
    pub label: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlotPoint {
    pub x: f64,
    pub y: f64,
    /// Index into `LabResult::points`.
    pub index: usize,
    pub ttl: Tick,
    pub value: f64,
    /// "TTL 30: 2 false expirations".
    pub label: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub metric: Metric,
    pub points: Vec<PlotPoint>,
    /// The line through the points (SVG path data).
    pub path: String,
}

/// A TTL at which some run of this sweep let a stale write through the unfenced copy.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub x: f64,
    pub ttl: Tick,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub kind: ChartKind,
    pub x_ticks: Vec<AxisTick>,
    pub y_ticks: Vec<AxisTick>,
    pub series: Vec<Series>,
    /// The stale-writes chart's marks where stale writes were observed (none elsewhere).
    pub marks: Vec<Marker>,
    /// The stale-writes chart's short banner lines, drawn above the plot.
    pub banner: Vec<String>,
    /// The chart in one sentence, for screen readers and the export's description.
    pub summary: String,
    /// Total height (the legend adds rows).
    pub height: f64,
    /// "mean of 10 runs per TTL", for the export's footer.
    pub runs: u32,
}

/// `v` with at most `decimals` decimals, trailing zeros dropped ("2.5", "3", "0.25").
pub fn num(v: f64, decimals: u32) -> String {
    let scale = 10i64.pow(decimals);
    let n = (v * scale as f64).round() as i64;
    let (sign, n) = if n < 0 { ("-", -n) } else { ("", n) };
    let (int, mut frac, mut d) = (n / scale, n % scale, decimals);
    while d > 0 && frac % 10 == 0 {
        frac /= 10;
        d -= 1;
    }
    if d == 0 {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac:0width$}", width = d as usize)
    }
}

/// A measured mean as people read it: one decimal, two below 1.
pub fn value_text(v: f64) -> String {
    num(v, if v.abs() < 1.0 { 2 } else { 1 })
}

/// A step of 1, 2 or 5 times a power of ten giving about `target` intervals over `span`.
pub fn nice_step(span: f64, target: usize) -> f64 {
    let raw = span / target.max(1) as f64;
    let mut mag = 1.0;
    while mag * 10.0 <= raw {
        mag *= 10.0;
    }
    while mag > raw {
        mag /= 10.0;
    }
    let f = raw / mag;
    let m = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * mag
}

/// Round tick values covering `lo..=hi`, about `target` intervals apart, and how many
/// decimals their labels need.
pub fn ticks(lo: f64, hi: f64, target: usize) -> (Vec<f64>, u32) {
    let hi = if hi > lo { hi } else { lo + 1.0 };
    let step = nice_step(hi - lo, target);
    let (first, last) = ((lo / step).floor() as i64, (hi / step).ceil() as i64);
    let mut decimals = 0;
    let mut s = step;
    while s < 0.999_999 && decimals < 6 {
        s *= 10.0;
        decimals += 1;
    }
    ((first..=last).map(|k| k as f64 * step).collect(), decimals)
}

/// A linear map from `lo..=hi` onto `a..=b`.
fn scale(v: f64, lo: f64, hi: f64, a: f64, b: f64) -> f64 {
    a + (v - lo) / (hi - lo) * (b - a)
}

/// The chart of one kind from a sweep's result.
pub fn chart(r: &LabResult, kind: ChartKind) -> Chart {
    let ttls = r.points.iter().map(|p| p.ttl as f64);
    let (tmin, tmax) = ttls.fold((f64::MAX, 0.0f64), |(a, b), t| (a.min(t), b.max(t)));
    let (xt, xd) = ticks(if r.points.is_empty() { 0.0 } else { tmin }, tmax, 6);
    let (xlo, xhi) = (xt[0], xt[xt.len() - 1]);
    let ymax = kind
        .metrics()
        .iter()
        .flat_map(|m| r.points.iter().filter_map(|p| m.value(p)))
        .fold(0.0f64, f64::max);
    let (yt, yd) = ticks(0.0, ymax, 4);
    let (ylo, yhi) = (yt[0], yt[yt.len() - 1]);
    let x = |t: f64| scale(t, xlo, xhi, X0, X1);
    let y = |v: f64| scale(v, ylo, yhi, Y1, Y0);

    let series = kind
        .metrics()
        .iter()
        .map(|&m| {
            let points: Vec<PlotPoint> = r
                .points
                .iter()
                .enumerate()
                .filter_map(|(index, p)| {
                    m.value(p).map(|v| PlotPoint {
                        x: x(p.ttl as f64),
                        y: y(v),
                        index,
                        ttl: p.ttl,
                        value: v,
                        label: format!("TTL {}: {}", p.ttl, m.phrase(v)),
                    })
                })
                .collect();
            let path = points
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    format!(
                        "{}{} {}",
                        if i == 0 { "M" } else { "L" },
                        num(p.x, 1),
                        num(p.y, 1)
                    )
                })
                .collect::<Vec<_>>()
                .join(" ");
            Series {
                metric: m,
                points,
                path,
            }
        })
        .collect();
    let stale_chart = kind == ChartKind::StaleWrites;
    let seen = stale_ttls(r);
    let marks = if stale_chart {
        seen.iter()
            .map(|&ttl| Marker {
                x: x(ttl as f64),
                ttl,
            })
            .collect()
    } else {
        Vec::new()
    };
    let banner_lines = if stale_chart {
        vec![
            NO_SAFE_TTL.to_string(),
            match seen.as_slice() {
                [] => "no stale write seen in this sweep".into(),
                _ => format!("stale writes seen at {}", ttl_list(&seen)),
            },
        ]
    } else {
        Vec::new()
    };
    let runs = r.params.runs;
    let summary = format!(
        "{} against lease TTL: {} TTLs from {} to {}, each the mean of {runs} run{}. {}",
        kind.title(),
        r.points.len(),
        num(tmin.min(tmax), 0),
        num(tmax, 0),
        if runs == 1 { "" } else { "s" },
        banner(r),
    );
    let legend_rows = if kind.metrics().len() > 1 {
        kind.metrics().len()
    } else {
        0
    };
    Chart {
        kind,
        x_ticks: xt
            .iter()
            .map(|&t| AxisTick {
                pos: x(t),
                label: num(t, xd),
            })
            .collect(),
        y_ticks: yt
            .iter()
            .map(|&v| AxisTick {
                pos: y(v),
                label: num(v, yd),
            })
            .collect(),
        series,
        marks,
        banner: banner_lines,
        summary,
        height: H + legend_rows as f64 * LEGEND_ROW,
        runs,
    }
}

/// The banner's lead, and the first line drawn in the stale-writes chart.
pub const NO_SAFE_TTL: &str = "No TTL is safe without fencing";

/// The TTLs at which some run let a stale write through the unfenced copy.
pub fn stale_ttls(r: &LabResult) -> Vec<Tick> {
    r.points
        .iter()
        .filter(|p| p.stale_accepted_unfenced_mean > 0.0)
        .map(|p| p.ttl)
        .collect()
}

/// "TTL 4", "TTL 4 and 9", "TTL 4, 6 and 9"; more than four as "7 TTLs from 2 to 41".
fn ttl_list(ttls: &[Tick]) -> String {
    match ttls {
        [] => String::new(),
        [t] => format!("TTL {t}"),
        [rest @ .., last] if ttls.len() <= 4 => format!(
            "TTL {} and {last}",
            rest.iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        [first, .., last] => format!("{} TTLs from {first} to {last}", ttls.len()),
    }
}

/// What the sweep says about safety, in the essay's terms: no lease length is a safe
/// threshold without fencing, and where this sweep happened to observe stale writes.
pub fn banner(r: &LabResult) -> String {
    let p = &r.params;
    let seen = stale_ttls(r);
    let lead = format!(
        "{NO_SAFE_TTL}: a longer lease makes stale writes rarer and takeover slower; it never rules them out."
    );
    let caps = format!(
        "these runs cap pauses at {} s and network delay at {} s, and real pauses and delays have no such cap",
        p.pause_max,
        p.delay + p.jitter
    );
    let runs = format!("{} run{}", p.runs, if p.runs == 1 { "" } else { "s" });
    match seen.as_slice() {
        [] => format!("{lead} This sweep saw no stale write get through the unfenced copy in {runs} at each TTL: rare is not impossible, and {caps}."),
        _ => {
            let longest = *seen.last().expect("some TTL");
            let beyond = if r.points.iter().any(|pt| pt.ttl > longest) {
                format!(" None turned up above TTL {longest} in {runs} each: rarer, not ruled out, since {caps}.")
            } else {
                String::new()
            };
            format!(
                "{lead} This sweep observed stale writes through the unfenced copy at {}.{beyond}",
                ttl_list(&seen)
            )
        }
    }
}

/// All four charts, in `ChartKind::ALL` order.
pub fn charts(r: &LabResult) -> Vec<Chart> {
    ChartKind::ALL.iter().map(|&k| chart(r, k)).collect()
}

/// The run behind a point to open by default: for counts, the run showing the most of it (so
/// the timeline has the thing to show); for rates, the run closest to the mean.
pub fn representative(p: &LabPoint, m: Metric, minutes: f64) -> u32 {
    let mean = m.value(p);
    let score = |r: &LabRun| -> Option<f64> {
        let v = m.run_value(r, minutes)?;
        Some(match (m.is_count(), mean) {
            (true, _) => -v,
            (false, Some(mean)) => (v - mean).abs(),
            (false, None) => 0.0,
        })
    };
    p.runs
        .iter()
        .filter_map(|r| score(r).map(|s| (s, r.index)))
        .fold(None, |best: Option<(f64, u32)>, c| match best {
            Some(b) if b.0 <= c.0 => Some(b),
            _ => Some(c),
        })
        .map_or(0, |(_, i)| i)
}

/// A page point's `data-pt` value, "unfenced:3": its series and its index in the result.
pub fn point_id(m: Metric, index: usize) -> String {
    format!("{}:{index}", m.id())
}

pub fn parse_point_id(s: &str) -> Option<(Metric, usize)> {
    let (m, i) = s.split_once(':')?;
    Some((Metric::from_id(m)?, i.parse().ok()?))
}

/// The exported chart's `<style>`: the charts' rules, the very stylesheet the page links
/// (static/plot.css; a page under a strict Content-Security-Policy may not add a `<style>`),
/// with its `var()`s written out, so an exported file looks the same anywhere.
pub fn style(sheets: &Sheets) -> String {
    super::svg::written_out(&sheets.palette, &[&sheets.plot])
}

/// Whether the SVG goes into the page (points are focusable buttons; the heading is outside
/// it) or into a file (title and footer inside, nothing interactive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode<'a> {
    Page,
    /// Into a file, carrying these stylesheets.
    Export(&'a Sheets),
}

fn text(out: &mut String, class: &str, x: f64, y: f64, anchor: &str, body: &str) {
    out.push_str(&format!(
        "<text class=\"{class}\" x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\">{}</text>",
        num(x, 1),
        num(y, 1),
        esc(body)
    ));
}

fn line(out: &mut String, class: &str, x1: f64, y1: f64, x2: f64, y2: f64) {
    out.push_str(&format!(
        "<line class=\"{class}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
        num(x1, 1),
        num(y1, 1),
        num(x2, 1),
        num(y2, 1)
    ));
}

/// A point's symbol: a circle, a square or a diamond.
fn dot(out: &mut String, class: &str, shape: Shape, x: f64, y: f64, r: f64) {
    if shape == Shape::Diamond {
        // Its corners reach just past a circle of the same size: drawn over the unfenced
        // copy's point (the two often agree), both stay visible.
        let d = r * 1.2;
        out.push_str(&format!(
            "<path class=\"{class}\" d=\"M{} {} L{} {} L{} {} L{} {} Z\"/>",
            num(x, 1),
            num(y - d, 1),
            num(x + d, 1),
            num(y, 1),
            num(x, 1),
            num(y + d, 1),
            num(x - d, 1),
            num(y, 1)
        ));
    } else if shape == Shape::Square {
        out.push_str(&format!(
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
            num(x - r, 1),
            num(y - r, 1),
            num(2.0 * r, 1),
            num(2.0 * r, 1)
        ));
    } else {
        out.push_str(&format!(
            "<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
            num(x, 1),
            num(y, 1),
            num(r, 1)
        ));
    }
}

/// The chart as SVG markup. In the page, each point is `role="button"` with `tabindex`, its
/// label as accessible name and `data-pt="metric:index"` for the click handler.
pub fn svg(c: &Chart, mode: Mode<'_>) -> String {
    let export = matches!(mode, Mode::Export(_));
    let top = if export { TITLE_H } else { 0.0 };
    let height = c.height + top + if export { FOOTER_H } else { 0.0 };
    let mut o = String::with_capacity(8192);
    o.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"lp lab-plot\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"group\" aria-label=\"{}\">",
        num(W, 0),
        num(height, 0),
        num(W, 0),
        num(height, 0),
        esc(&c.summary)
    ));
    o.push_str(&format!(
        "<title>{}</title><desc>{}</desc>",
        esc(c.kind.title()),
        esc(&c.summary)
    ));
    if let Mode::Export(sheets) = mode {
        o.push_str(&format!("<style>{}</style>", style(sheets)));
    }
    o.push_str(&format!(
        "<rect class=\"lp-bg\" width=\"{}\" height=\"{}\"/>",
        num(W, 0),
        num(height, 0)
    ));
    if export {
        text(&mut o, "lp-title", 8.0, 21.0, "start", c.kind.title());
        o.push_str(&format!("<g transform=\"translate(0 {})\">", num(top, 0)));
    }
    // A narrow band at each TTL where stale writes were seen: observations, not a region.
    for m in &c.marks {
        o.push_str(&format!(
            "<rect class=\"lp-unsafe\" x=\"{}\" y=\"{}\" width=\"10\" height=\"{}\"/>",
            num(m.x - 5.0, 1),
            num(Y0, 1),
            num(Y1 - Y0, 1)
        ));
    }
    for t in &c.y_ticks {
        line(&mut o, "lp-grid", X0, t.pos, X1, t.pos);
        text(&mut o, "lp-muted", X0 - 6.0, t.pos + 4.0, "end", &t.label);
    }
    line(&mut o, "lp-axis", X0, Y1, X1, Y1);
    line(&mut o, "lp-axis", X0, Y0, X0, Y1);
    for t in &c.x_ticks {
        line(&mut o, "lp-axis", t.pos, Y1, t.pos, Y1 + 5.0);
        text(&mut o, "lp-muted", t.pos, Y1 + 19.0, "middle", &t.label);
    }
    text(
        &mut o,
        "lp-muted",
        (X0 + X1) / 2.0,
        Y1 + 38.0,
        "middle",
        "lease TTL (ticks; a tick is a second)",
    );
    text(&mut o, "lp-muted", 8.0, 16.0, "start", c.kind.y_label());
    for m in &c.marks {
        line(&mut o, "lp-mark", m.x, Y0 - 4.0, m.x, Y1);
    }
    // Right-aligned, clear of the y axis's name at the top left.
    for (i, b) in c.banner.iter().enumerate() {
        let class = if i == 0 { "lp-marktext" } else { "lp-bantext" };
        text(&mut o, class, X1, 16.0 + 16.0 * i as f64, "end", b);
    }
    for s in &c.series {
        let (class, shape) = s.metric.style();
        if s.points.len() > 1 {
            o.push_str(&format!(
                "<path class=\"lp-line {class}\" d=\"{}\" fill=\"none\"/>",
                s.path
            ));
        }
        for p in &s.points {
            let label = esc(&p.label);
            if export {
                o.push_str(&format!("<g><title>{label}</title>"));
            } else {
                o.push_str(&format!(
                    "<g class=\"lp-pt\" tabindex=\"0\" role=\"button\" aria-label=\"{label}\" data-pt=\"{}\"><title>{label}</title>",
                    point_id(s.metric, p.index)
                ));
                dot(&mut o, "lp-hit", shape, p.x, p.y, 11.0);
                dot(&mut o, "lp-ring", shape, p.x, p.y, 8.0);
            }
            dot(&mut o, &format!("lp-dot {class}"), shape, p.x, p.y, 4.5);
            o.push_str("</g>");
        }
    }
    if c.series.len() > 1 {
        for (i, s) in c.series.iter().enumerate() {
            let (class, shape) = s.metric.style();
            let y = H + 2.0 + i as f64 * LEGEND_ROW;
            line(&mut o, &format!("lp-line {class}"), X0, y, X0 + 28.0, y);
            dot(&mut o, &format!("lp-dot {class}"), shape, X0 + 14.0, y, 4.5);
            text(&mut o, "lp", X0 + 36.0, y + 4.5, "start", s.metric.name());
        }
    }
    if export {
        o.push_str("</g>");
        text(
            &mut o,
            "lp-muted",
            8.0,
            height - 7.0,
            "start",
            &format!(
                "Fencing Lab · lease-duration lab · mean of {} run{} per TTL",
                c.runs,
                if c.runs == 1 { "" } else { "s" }
            ),
        );
    }
    o.push_str("</svg>");
    o
}

/// A self-contained SVG document of the chart, for "Export SVG".
pub fn plot_svg(c: &Chart, sheets: &Sheets) -> String {
    svg(c, Mode::Export(sheets))
}

/// The export's file name: `fencing-lab-stale-writes.svg`.
pub fn file_name(c: &Chart) -> String {
    format!("fencing-lab-{}.svg", c.kind.id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_styles_its_charts_with_the_rules_an_export_carries() {
        // The page links the file; an export carries it, written out.
        let index = include_str!("../../index.html");
        assert!(index.contains(r#"<link data-trunk rel="css" href="static/plot.css" />"#));
        assert!(
            !style(&Sheets::built_in()).contains("var(")
                && !style(&Sheets::built_in()).contains("/*")
        );
        assert!(style(&Sheets::built_in()).contains(".lp-bad{stroke:#cf222e;fill:#cf222e}"));
        // And the page's SVG carries none of its own (a strict CSP refuses a `<style>`).
        let c = &charts(&result())[0];
        assert!(!svg(c, Mode::Page).contains("<style>"));
        assert!(svg(c, Mode::Export(&Sheets::built_in()))
            .contains(&format!("<style>{}</style>", style(&Sheets::built_in()))));
    }
    use crate::sim::lab::{self, LabParams};

    fn result() -> LabResult {
        lab::sweep(&LabParams {
            ttls: vec![5, 8, 10, 20, 40],
            runs: 4,
            duration: 180,
            ..LabParams::default()
        })
    }

    #[test]
    fn ticks_are_round_numbers_covering_the_data() {
        assert_eq!(
            ticks(2.0, 60.0, 6),
            ((0..=6).map(|k| k as f64 * 10.0).collect(), 0)
        );
        assert_eq!(ticks(0.0, 7.0, 4).0, vec![0.0, 2.0, 4.0, 6.0, 8.0]);
        let (t, d) = ticks(0.0, 0.37, 4);
        assert_eq!(d, 1);
        let labels: Vec<String> = t.iter().map(|&v| num(v, d)).collect();
        assert_eq!(labels, ["0", "0.1", "0.2", "0.3", "0.4"]);
        // Nothing measured: still an axis, from 0 to 1.
        assert_eq!(ticks(0.0, 0.0, 4).0.last(), Some(&1.0));
        assert_eq!(nice_step(1234.0, 5), 500.0);
    }

    #[test]
    fn a_line_is_never_filled_by_its_colour_class() {
        // Equal specificity: the rule that comes last wins, so `.lp-line{fill:none}` must
        // follow every colour class that sets a fill.
        let line = crate::view::svg::PLOT_CSS
            .find(".lp-line{fill:none")
            .expect("the line rule");
        for colour in [".lp-main{", ".lp-bad{", ".lp-good{", ".lp-warn{"] {
            let at = crate::view::svg::PLOT_CSS.find(colour).expect(colour);
            assert!(
                at < line,
                "{colour} comes after .lp-line and fills the lines"
            );
        }
    }

    #[test]
    fn numbers_drop_trailing_zeros_and_round() {
        assert_eq!(num(2.5, 1), "2.5");
        assert_eq!(num(3.0, 2), "3");
        assert_eq!(num(0.254, 2), "0.25");
        assert_eq!(num(-1.26, 1), "-1.3");
        assert_eq!(num(12.05, 0), "12");
        assert_eq!(value_text(0.333), "0.33");
        assert_eq!(value_text(12.34), "12.3");
    }

    #[test]
    fn points_are_scaled_into_the_box() {
        let r = result();
        for c in charts(&r) {
            let xs: Vec<f64> = c.x_ticks.iter().map(|t| t.pos).collect();
            assert_eq!((xs[0], *xs.last().unwrap()), (X0, X1), "{:?}", c.kind);
            let ys: Vec<f64> = c.y_ticks.iter().map(|t| t.pos).collect();
            assert_eq!((ys[0], *ys.last().unwrap()), (Y1, Y0), "y grows upwards");
            for s in &c.series {
                for p in &s.points {
                    assert!(
                        (X0..=X1).contains(&p.x) && (Y0..=Y1).contains(&p.y),
                        "{p:?}"
                    );
                }
            }
        }
        // The axis runs 0..40 in steps of 10: TTL 20 sits halfway, TTL 10 a quarter in.
        let c = chart(&r, ChartKind::FalseExpirations);
        let at = |ttl| c.series[0].points.iter().find(|p| p.ttl == ttl).unwrap().x;
        assert!((at(20) - (X0 + X1) / 2.0).abs() < 1e-9);
        assert!((at(10) - (X0 + (X1 - X0) / 4.0)).abs() < 1e-9);
        // The largest mean sits at or below the top tick, and 0 on the x axis.
        let top = c.y_ticks.last().unwrap();
        let max = c.series[0]
            .points
            .iter()
            .map(|p| p.y)
            .fold(f64::MAX, f64::min);
        assert!(max >= top.pos);
        let zero = Y1;
        let p40 = c.series[0].points.iter().find(|p| p.ttl == 40).unwrap();
        assert_eq!(p40.value == 0.0, p40.y == zero);
    }

    #[test]
    fn the_stale_chart_plots_superseded_writes_and_marks_only_where_stale_writes_were_seen() {
        let r = result();
        let c = chart(&r, ChartKind::StaleWrites);
        let names: Vec<Metric> = c.series.iter().map(|s| s.metric).collect();
        assert_eq!(
            names,
            [
                Metric::StaleUnfenced,
                Metric::SupersededFenced,
                Metric::StaleFenced
            ]
        );
        let seen = stale_ttls(&r);
        assert!(
            !seen.is_empty(),
            "short leases let stale writes through here"
        );
        assert_eq!(Some(*seen.last().unwrap()), r.stale_seen_up_to);
        let marked: Vec<Tick> = c.marks.iter().map(|m| m.ttl).collect();
        assert_eq!(
            marked, seen,
            "a mark at each TTL where one was seen, no others"
        );
        for m in &c.marks {
            let under = c.series[0].points.iter().find(|p| p.ttl == m.ttl).unwrap();
            assert_eq!(m.x, under.x, "the mark stands on the point's TTL");
            assert!(under.value > 0.0, "some stale write got through there");
        }
        for p in &c.series[0].points {
            assert_eq!(p.value > 0.0, seen.contains(&p.ttl), "{p:?}");
        }
        // The superseded series reads the fenced copy's figure.
        for (p, pt) in c.series[1].points.iter().zip(&r.points) {
            assert_eq!(p.value, pt.superseded_accepted_fenced_mean);
        }
        assert_eq!(c.banner[0], "No TTL is safe without fencing");
        assert!(
            c.banner[1].starts_with("stale writes seen at TTL "),
            "{:?}",
            c.banner
        );
        assert!(c.summary.contains(&banner(&r)), "{}", c.summary);
        // Only the stale-writes chart carries them.
        for k in [
            ChartKind::Takeover,
            ChartKind::FalseExpirations,
            ChartKind::Renewals,
        ] {
            let other = chart(&r, k);
            assert!(other.marks.is_empty() && other.banner.is_empty(), "{k:?}");
        }
        // Nothing seen: no mark, and still no promise of safety.
        let mut safe = r.clone();
        for pt in &mut safe.points {
            pt.stale_accepted_unfenced_mean = 0.0;
        }
        let c = chart(&safe, ChartKind::StaleWrites);
        assert!(c.marks.is_empty());
        assert_eq!(c.banner[1], "no stale write seen in this sweep");
        assert!(c.summary.contains("No TTL is safe without fencing"));
    }

    #[test]
    fn the_banner_says_no_ttl_is_safe_and_where_stale_writes_were_observed() {
        let mut r = result();
        for (pt, v) in r.points.iter_mut().zip([0.5, 0.0, 0.25, 0.0, 0.0]) {
            pt.stale_accepted_unfenced_mean = v;
        }
        // TTLs 5, 8, 10, 20, 40: seen at 5 and 10.
        assert_eq!(
            banner(&r),
            "No TTL is safe without fencing: a longer lease makes stale writes rarer and takeover \
             slower; it never rules them out. This sweep observed stale writes through the unfenced \
             copy at TTL 5 and 10. None turned up above TTL 10 in 4 runs each: rarer, not ruled out, \
             since these runs cap pauses at 12 s and network delay at 2 s, and real pauses and delays \
             have no such cap."
        );
        let b = banner(&r);
        assert!(
            !b.contains("Unsafe") && !b.contains("≤"),
            "no threshold: {b}"
        );
        r.points[4].stale_accepted_unfenced_mean = 0.1;
        assert!(
            banner(&r).contains("at TTL 5, 10 and 40."),
            "{}",
            banner(&r)
        );
        assert!(
            !banner(&r).contains("None turned up"),
            "nothing longer was tried"
        );
        for pt in &mut r.points {
            pt.stale_accepted_unfenced_mean = 0.0;
        }
        assert!(banner(&r).ends_with(
            "This sweep saw no stale write get through the unfenced copy in 4 runs at each TTL: \
             rare is not impossible, and these runs cap pauses at 12 s and network delay at 2 s, \
             and real pauses and delays have no such cap."
        ));
        assert_eq!(ttl_list(&[2, 3, 4, 6, 9]), "5 TTLs from 2 to 9");
        assert_eq!(ttl_list(&[4]), "TTL 4");
    }

    #[test]
    fn takeover_points_exist_only_where_a_takeover_was_measured() {
        let mut r = result();
        r.points[1].takeover_mean = None;
        let c = chart(&r, ChartKind::Takeover);
        let ttls: Vec<Tick> = c.series[0].points.iter().map(|p| p.ttl).collect();
        assert_eq!(ttls, [5, 10, 20, 40]);
        assert_eq!(c.series[0].path.matches('L').count(), 3);
        assert!(c.series[0].path.starts_with('M'));
    }

    #[test]
    fn point_labels_name_the_ttl_and_the_figure() {
        let r = result();
        let c = chart(&r, ChartKind::FalseExpirations);
        let p = &c.series[0].points[0];
        assert_eq!(
            p.label,
            format!("TTL 5: {}", Metric::FalseExpirations.phrase(p.value))
        );
        assert_eq!(Metric::FalseExpirations.phrase(2.0), "2 false expirations");
        assert_eq!(
            Metric::StaleUnfenced.phrase(1.0),
            "1 old-owner write accepted without fencing"
        );
    }

    #[test]
    fn the_exported_svg_is_a_well_formed_self_contained_document() {
        let r = result();
        for c in charts(&r) {
            let text = plot_svg(&c, &Sheets::built_in());
            let doc = roxmltree::Document::parse(&text).expect("the export parses as XML");
            let root = doc.root_element();
            assert_eq!(root.tag_name().name(), "svg");
            assert_eq!(
                root.tag_name().namespace(),
                Some("http://www.w3.org/2000/svg")
            );
            let child = |name: &str| root.children().find(|n| n.has_tag_name(name));
            assert_eq!(child("title").unwrap().text(), Some(c.kind.title()));
            assert!(child("style").unwrap().text().unwrap().contains(".lp-bad"));
            let texts: Vec<&str> = root
                .descendants()
                .filter(|n| n.has_tag_name("text"))
                .filter_map(|n| n.text())
                .collect();
            assert!(texts.contains(&c.kind.title()), "the title is drawn too");
            assert!(texts.contains(&"lease TTL (ticks; a tick is a second)"));
            let points = root
                .descendants()
                .filter(|n| n.has_tag_name("g") && n.children().any(|k| k.has_tag_name("title")))
                .count();
            assert_eq!(
                points,
                c.series.iter().map(|s| s.points.len()).sum::<usize>()
            );
            assert!(!text.contains("tabindex"), "nothing interactive in a file");
            if c.kind == ChartKind::StaleWrites {
                assert!(texts.contains(&NO_SAFE_TTL), "{texts:?}");
                assert!(texts
                    .iter()
                    .any(|t| t.starts_with("stale writes seen at TTL")));
                assert!(
                    !texts.iter().any(|t| t.contains("Unsafe")),
                    "no safe threshold"
                );
            }
        }
    }

    #[test]
    fn page_points_are_buttons_naming_their_metric_and_point() {
        let r = result();
        let c = chart(&r, ChartKind::StaleWrites);
        let text = svg(&c, Mode::Page);
        let doc = roxmltree::Document::parse(&text).unwrap();
        let buttons: Vec<_> = doc
            .descendants()
            .filter(|n| n.attribute("role") == Some("button"))
            .collect();
        assert_eq!(buttons.len(), 3 * r.points.len());
        let b = buttons[0];
        assert_eq!(b.attribute("tabindex"), Some("0"));
        assert_eq!(b.attribute("data-pt"), Some("unfenced:0"));
        for id in buttons.iter().filter_map(|b| b.attribute("data-pt")) {
            let (m, i) = parse_point_id(id).expect("every point id parses");
            assert_eq!(point_id(m, i), id);
            assert!(c
                .series
                .iter()
                .any(|s| s.metric == m && s.points.iter().any(|p| p.index == i)));
        }
        assert_eq!(parse_point_id("nonsense:1"), None);
        assert_eq!(parse_point_id("fenced:x"), None);
        assert_eq!(
            b.attribute("aria-label"),
            Some(c.series[0].points[0].label.as_str())
        );
    }

    #[test]
    fn text_is_escaped() {
        let mut o = String::new();
        text(&mut o, "lp", 1.0, 2.0, "start", "x < y & z");
        roxmltree::Document::parse(&o).expect("escaped text parses");
    }

    #[test]
    fn the_default_run_behind_a_point_shows_its_figure() {
        let r = result();
        let p = &r.points[0];
        let minutes = r.params.duration as f64 / 60.0;
        let i = representative(p, Metric::StaleUnfenced, minutes);
        let most = p
            .runs
            .iter()
            .map(|r| r.stale_accepted_unfenced)
            .max()
            .unwrap();
        assert_eq!(p.runs[i as usize].stale_accepted_unfenced, most);
        let i = representative(p, Metric::Renewals, minutes);
        let dist = |r: &LabRun| {
            ((r.renewals + r.acquires) as f64 / minutes - p.lease_messages_per_minute).abs()
        };
        let best = p.runs.iter().map(dist).fold(f64::MAX, f64::min);
        assert_eq!(dist(&p.runs[i as usize]), best);
    }
}
