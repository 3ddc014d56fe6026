//! The timeline's text, as geometry: every preset under every variant and every policy, at
//! every step (the whole run and a window of its recent steps), and random sandbox runs. No
//! two texts overlap (labels, bars' own text, verdict lines, the ruler), every text lies
//! inside the drawing, a bar's text inside its bar, and every mark sits on the lane of the
//! node it belongs to — a dropped message's ✕ on its receiver's lane, at the side it came
//! from: the message was addressed there and never arrived.
//!
//! Text widths are estimated from the characters (`layout::text_width`), as the layout itself
//! estimates them.

use fencing_lab::sim::event::EventKind;
use fencing_lab::sim::run::Run;
use fencing_lab::sim::Policy;
use fencing_lab::view::layout::{self, ArrowState, Timeline};
use fencing_lab::view::state::{build_run, load_presets, Choice};

/// Each step from `from` of every preset's script under its default setting, laid out:
/// `f(id, step, layout)`.
fn each_scripted_step(from: usize, mut f: impl FnMut(&str, usize, &Timeline)) {
    for s in load_presets() {
        let mut run = build_run(&s, &Choice::default_for(&s));
        run.run_script().unwrap();
        for i in from..=run.len() {
            run.seek(i);
            f(&s.id, i, &layout::layout(&run));
        }
    }
}

/// Where a message was headed: its own send, or that of the message it copies.
fn receiver(run: &Run, id: u32) -> Option<String> {
    let sent = |id: u32| {
        run.events().find_map(|e| match &e.kind {
            EventKind::Sent { to, .. } if e.message == Some(id) => Some(to.to_string()),
            _ => None,
        })
    };
    sent(id).or_else(|| {
        let original = run.events().find_map(|e| match e.kind {
            EventKind::Duplicated { copy } if copy == id => e.message,
            _ => None,
        })?;
        receiver(run, original)
    })
}

fn lane_at(tl: &Timeline, y: i32) -> Option<usize> {
    tl.lanes.iter().position(|l| l.y <= y && y < l.y + l.h)
}

/// Everything wrong with one layout, as sentences.
fn problems(tl: &Timeline, run: &Run) -> Vec<String> {
    let mut out = Vec::new();
    let texts = layout::texts(tl);
    let boxes: Vec<layout::TextBox> = texts.iter().map(layout::TextBox::of).collect();
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            if a.overlaps(b) {
                let what = if a.is_fixed() || b.is_fixed() {
                    "over a bar's or verdict's text"
                } else {
                    "overlap"
                };
                out.push(format!(
                    "{what}: {:?} {:?} and {:?} {:?}",
                    a.body,
                    (a.x0, a.y0, a.x1, a.y1),
                    b.body,
                    (b.x0, b.y0, b.x1, b.y1)
                ));
            }
        }
        if a.x0 < 0 || a.x1 > tl.width || a.y0 < 0 || a.y1 > tl.height {
            out.push(format!(
                "clipped: {:?} {:?} outside {}×{}",
                a.body,
                (a.x0, a.y0, a.x1, a.y1),
                tl.width,
                tl.height
            ));
        }
    }
    for b in &tl.bars {
        if let Some(t) = &b.text {
            let bx = layout::TextBox::of(t);
            if bx.x0 < b.x0 || bx.x1 > b.x1 {
                out.push(format!(
                    "bar text outside its bar: {:?} {:?} in {:?}",
                    t.body,
                    (bx.x0, bx.x1),
                    (b.x0, b.x1)
                ));
            }
        }
    }
    for m in &tl.marks {
        let at = lane_at(tl, m.y);
        if let Some(l) = m.lane {
            if at != Some(l) {
                out.push(format!(
                    "mark {:?} of {} drawn on lane {:?}",
                    m.glyph,
                    tl.lanes[l].name,
                    at.map(|i| &tl.lanes[i].name)
                ));
            }
        }
        if m.class == "m-dropped" {
            let arrow = tl
                .arrows
                .iter()
                .find(|a| a.state == ArrowState::Dropped && (a.x1, a.y1) == (m.x, m.y));
            let to = arrow.and_then(|a| receiver(run, a.id));
            let want = to
                .as_deref()
                .and_then(|n| tl.lanes.iter().position(|l| l.name == n));
            if want.is_none() || at != want {
                out.push(format!(
                    "dropped ✕ for {to:?} drawn on lane {:?}",
                    at.map(|i| &tl.lanes[i].name)
                ));
            }
        }
    }
    out
}

struct Tally {
    layouts: usize,
    failures: Vec<String>,
}

impl Tally {
    fn check(&mut self, tl: &Timeline, run: &Run, ctx: &str) {
        self.layouts += 1;
        for p in problems(tl, run) {
            self.failures.push(format!("{ctx}: {p}"));
        }
    }

    /// The run at every step: laid out whole, and as the window of its last few steps.
    fn every_step(&mut self, run: &mut Run, ctx: &str) {
        for i in 0..=run.len() {
            run.seek(i);
            self.check(&layout::layout(run), run, &format!("{ctx} step {i}"));
            let first = layout::window_start(run, 12);
            if first > 1 {
                self.check(
                    &layout::layout_from(run, first),
                    run,
                    &format!("{ctx} step {i} from {first}"),
                );
            }
        }
    }

    fn finish(self, what: &str) {
        if self.failures.is_empty() {
            return;
        }
        let mut kinds: Vec<(String, usize)> = Vec::new();
        for f in &self.failures {
            let k = f.split(": ").nth(1).unwrap_or("").to_string();
            match kinds.iter_mut().find(|(x, _)| *x == k) {
                Some(e) => e.1 += 1,
                None => kinds.push((k, 1)),
            }
        }
        let mut shown: Vec<&String> = Vec::new();
        for (k, _) in &kinds {
            shown.extend(
                self.failures
                    .iter()
                    .filter(|f| f.split(": ").nth(1) == Some(k.as_str()))
                    .take(8),
            );
        }
        panic!(
            "{} problems in {} layouts of {what} ({kinds:?}):\n{}",
            self.failures.len(),
            self.layouts,
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// The compact drawing (a phone's): every preset under every setting at every step, whole
/// and windowed, lays its text out as apart as the full one.
#[test]
fn the_compact_drawing_lays_its_text_out_apart() {
    let mut tally = Tally {
        layouts: 0,
        failures: Vec::new(),
    };
    for s in load_presets() {
        let mut choices: Vec<Choice> = s
            .variants
            .iter()
            .map(|v| Choice::Variant(v.name.clone()))
            .collect();
        choices.extend(Policy::ALL.iter().map(|p| Choice::Policy(*p)));
        for c in choices {
            let mut run = build_run(&s, &c);
            run.run_script().unwrap();
            let ctx = format!("{} ({}) compact", s.id, c.value());
            for i in 0..=run.len() {
                run.seek(i);
                let first = layout::window_start(&run, 12);
                for from in [1, first] {
                    let tl = layout::layout_for(&run, from, true);
                    assert!(tl.compact);
                    tally.check(&tl, &run, &format!("{ctx} step {i} from {from}"));
                }
            }
        }
    }
    tally.finish("the presets drawn compact");
}

#[test]
fn every_preset_under_every_setting_lays_its_text_out_apart() {
    let mut tally = Tally {
        layouts: 0,
        failures: Vec::new(),
    };
    for s in load_presets() {
        let mut choices: Vec<Choice> = s
            .variants
            .iter()
            .map(|v| Choice::Variant(v.name.clone()))
            .collect();
        choices.extend(Policy::ALL.iter().map(|p| Choice::Policy(*p)));
        for c in choices {
            let mut run = build_run(&s, &c);
            run.run_script().unwrap();
            tally.every_step(&mut run, &format!("{} ({})", s.id, c.value()));
        }
    }
    tally.finish("the presets");
}

/// A tiny deterministic generator, for picking actions.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

#[test]
fn random_sandbox_runs_lay_their_text_out_apart() {
    let s = load_presets()
        .into_iter()
        .find(|s| s.id == "sandbox")
        .unwrap();
    let mut tally = Tally {
        layouts: 0,
        failures: Vec::new(),
    };
    for seed in 1..=24u64 {
        let mut rng = Lcg(seed);
        let mut run = build_run(&s, &Choice::default_for(&s));
        for _ in 0..40 {
            let actions = run.world().enabled_actions();
            if actions.is_empty() {
                break;
            }
            let a = actions[rng.next(actions.len())].clone();
            let _ = run.act(a);
        }
        tally.every_step(&mut run, &format!("sandbox seed {seed}"));
    }
    tally.finish("random sandbox runs");
}

/// How many labels the layout had to leave out (a repeat, or no clear place), over every
/// preset's last step: printed, and bounded.
#[test]
fn few_labels_are_left_out() {
    let (mut labelled, mut shown) = (0, 0);
    let mut missing = Vec::new();
    for s in load_presets() {
        let mut choices: Vec<Choice> = s
            .variants
            .iter()
            .map(|v| Choice::Variant(v.name.clone()))
            .collect();
        choices.extend(Policy::ALL.iter().map(|p| Choice::Policy(*p)));
        for c in choices {
            let mut run = build_run(&s, &c);
            run.run_script().unwrap();
            let tl = layout::layout(&run);
            let mut count = |has: bool, what: &str| {
                labelled += 1;
                if has {
                    shown += 1;
                } else {
                    missing.push(format!("{} ({}): {what}", s.id, c.value()));
                }
            };
            for a in tl.arrows.iter().filter(|a| !a.label.is_empty()) {
                count(a.text.is_some(), &a.label);
            }
            for m in tl.marks.iter().filter(|m| !m.label.is_empty()) {
                count(m.text.is_some(), &m.label);
            }
        }
    }
    eprintln!("{shown} of {labelled} labels shown; left out: {missing:#?}");
    assert!(
        shown * 20 >= labelled * 19,
        "{shown} of {labelled}: {missing:#?}"
    );
}

#[test]
fn paused_writer_labels_both_writes_clear_of_the_bars() {
    let s = load_presets()
        .into_iter()
        .find(|s| s.id == "paused-writer")
        .unwrap();
    for c in [
        Choice::Variant(s.variants[0].name.clone()),
        Choice::Policy(Policy::Unfenced),
    ] {
        let mut run = build_run(&s, &c);
        run.run_script().unwrap();
        let tl = layout::layout(&run);
        for req in ["A-stale", "B-write"] {
            let a = tl
                .arrows
                .iter()
                .find(|a| a.label.starts_with(req))
                .unwrap_or_else(|| panic!("{req}'s write"));
            let t = a.text.as_ref().expect("its label is drawn");
            let bx = layout::TextBox::of(t);
            for b in tl.bars.iter().filter_map(|b| b.text.as_ref()) {
                assert!(!bx.overlaps(&layout::TextBox::of(b)), "{t:?} on {b:?}");
            }
        }
    }
}

/// In a scroller only part of the diagram is in sight: a bar's text slides to stay in it, or
/// is left out — never cut at the edge, never over another text.
#[test]
fn bar_text_stays_whole_in_any_view() {
    let mut failures = Vec::new();
    let mut moved = 0;
    for s in load_presets() {
        let mut choices: Vec<Choice> = s
            .variants
            .iter()
            .map(|v| Choice::Variant(v.name.clone()))
            .collect();
        choices.push(Choice::Policy(Policy::Unfenced));
        for c in choices {
            let mut run = build_run(&s, &c);
            run.run_script().unwrap();
            for tl in [
                layout::layout(&run),
                layout::layout_from(&run, layout::window_start(&run, 12)),
            ] {
                let all = layout::texts(&tl);
                for view in [250, 1100] {
                    for left in (0..tl.width.max(1)).step_by(61) {
                        let right = left + view;
                        for b in &tl.bars {
                            let Some(t) = layout::bar_text_in_view(b, left, right) else {
                                continue;
                            };
                            if Some(&t) != b.text.as_ref() {
                                moved += 1;
                            }
                            let bx = layout::TextBox::of(&t);
                            let ctx = format!("{} ({}) view {left}..{right}", s.id, c.value());
                            if bx.x0 < left || bx.x1 > right || bx.x0 < b.x0 || bx.x1 > b.x1 {
                                failures.push(format!("{ctx}: {t:?} cut"));
                            }
                            for o in &all {
                                if Some(o) != b.text.as_ref()
                                    && layout::TextBox::of(o).overlaps(&bx)
                                {
                                    failures.push(format!("{ctx}: {t:?} over {o:?}"));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(moved > 0, "some text slides into view");
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(20)].join("\n")
    );
}

/// A view that follows the present shows "now" and every label of a message in flight whole.
#[test]
fn following_the_present_shows_its_labels_whole() {
    each_scripted_step(0, |id, i, tl| {
        let right = layout::follow_right(tl);
        assert!(right <= tl.width && right > tl.now_x, "{} step {i}", id);
        for t in layout::texts(tl) {
            let b = layout::TextBox::of(&t);
            if b.x0 >= tl.now_x {
                assert!(b.x1 <= right, "{} step {i}: {t:?} beyond {right}", id);
            }
        }
    });
}

/// The view that follows the present begins where it cuts no text, when there is room to
/// (a quarter of the view at most: more would show more empty room than run).
#[test]
fn following_the_present_cuts_no_text_at_its_left_edge() {
    let (mut views, mut clean, mut unfaded) = (0, 0, 0);
    each_scripted_step(0, |id, i, tl| {
        for view in [232, 400, 1100] {
            let left = layout::follow_left(tl, view);
            // The "now" line always in view; the present's own labels before the labels
            // of messages in flight and of "now".
            assert!(left >= 0 && left + view > tl.now_x, "{} step {i}", id);
            views += 1;
            let bars: Vec<&layout::Text> = tl.bars.iter().filter_map(|b| b.text.as_ref()).collect();
            let cut = layout::texts(tl)
                .iter()
                .filter(|t| !bars.contains(t))
                .map(layout::TextBox::of)
                .map(|b| {
                    (
                        b.x0 < left && left < b.x1,
                        b.x0 < left + layout::VIEW_FADE && left < b.x1,
                    )
                })
                .fold((false, false), |a, b| (a.0 || b.0, a.1 || b.1));
            if !cut.0 {
                clean += 1;
            }
            if !cut.1 {
                unfaded += 1;
            }
        }
    });
    eprintln!("{clean} of {views} views cut no text at their left edge; {unfaded} fade none");
    // Measured: 740 of 768 cut nothing, 530 of them with nothing in the fade either (packed
    // columns, 2026-12-07; one column after another, 745 of 768 at most). Denser packing cut
    // more at the 232-px view: `ANCHOR_SEP` (layout.rs) is 60 because 30 and 44 fell below
    // this bound, not because 60 looks best.
    assert!(clean * 100 >= views * 95, "{clean} of {views}");
}

/// Packed, a column starts where the lanes it draws on have room, not past every word of the
/// column before: at its last step, a story of the core lesson fits a 1280-px page's timeline
/// (about 1,100 px of diagram) whole, and the presets are together 30% narrower than one column
/// after another (the compare view's spacing).
#[test]
fn the_core_stories_fit_a_desktop_timeline_whole() {
    let (mut packed, mut aligned, mut fit) = (0, 0, Vec::new());
    for s in load_presets().into_iter().filter(|s| !s.script.is_empty()) {
        let mut run = build_run(&s, &Choice::default_for(&s));
        run.run_script().unwrap();
        let tl = layout::layout(&run);
        let one_by_one = layout::layout_with(&run, 1, layout::Spacing::Aligned(&[]));
        packed += tl.now_x;
        aligned += one_by_one.now_x;
        if layout::follow_right(&tl) <= 1100 {
            assert_eq!(layout::follow_left(&tl, 1100), 0, "{}", s.id);
            fit.push(s.id.clone());
        }
    }
    eprintln!("packed {packed}, one column after another {aligned}; whole in 1,100 px: {fit:?}");
    for id in [
        "happy-takeover",
        "paused-writer",
        "delayed-before-new",
        "omitted-token",
        "retry-double-debit",
        "unfenceable-email",
        "stripe-idempotency",
    ] {
        assert!(fit.iter().any(|f| f == id), "{id} does not fit: {fit:?}");
    }
    // Measured: 12 of 25 fit (4 did, one column after another).
    assert!(fit.len() >= 12, "{fit:?}");
    assert!(packed * 10 <= aligned * 7, "{packed} vs {aligned}");
}

/// The current step's highlight covers its own events and none of an earlier step's (packed,
/// a verdict's words reach left into the step before: the band once began there, and took
/// chubby-lock-delay's B-write for part of the last step).
#[test]
fn the_current_steps_band_holds_no_earlier_event() {
    each_scripted_step(1, |id, i, tl| {
        let Some(band) = tl.current_step() else {
            return;
        };
        let earlier = tl
            .marks
            .iter()
            .filter(|m| !m.recent)
            .map(|m| (m.x, m.title.clone()))
            .chain(
                tl.verdicts
                    .iter()
                    .filter(|v| !v.recent)
                    .map(|v| (v.x, v.explain())),
            );
        for (x, what) in earlier {
            assert!(
                x < band.x0 || x > band.x1,
                "{} step {i}: band {}–{} holds {what} at {x}",
                id,
                band.x0,
                band.x1
            );
        }
    });
}

/// A worker's belief ends when it sends its release, not where its step's band ends: in
/// coordinator-restore each owner releases before the next is granted, so no two workers
/// believe at once until the restore (it drew a false "both believe" after each release).
#[test]
fn a_belief_ends_at_the_release() {
    let s = load_presets()
        .into_iter()
        .find(|s| s.id == "coordinator-restore")
        .unwrap();
    let mut run = build_run(&s, &Choice::default_for(&s));
    run.run_script().unwrap();
    let tl = layout::layout(&run);
    for r in tl.arrows.iter().filter(|a| a.kind == "release") {
        let lane = tl.lanes.iter().position(|l| l.axis == r.y0).unwrap();
        let bar = tl
            .bars
            .iter()
            .filter(|b| b.lane == lane && b.kind == layout::BarKind::Belief && b.x0 <= r.x0)
            .max_by_key(|b| b.x0)
            .unwrap();
        assert!(
            bar.x1 <= r.x0,
            "{} ends at {}, released at {}",
            bar.label,
            bar.x1,
            r.x0
        );
    }
    // The first overlap is after the restore (step 4), when the restored counter reissues 41.
    let restore_x = tl.steps.iter().find(|b| b.step == 4).unwrap().x0;
    assert!(
        tl.overlaps.iter().all(|o| o.x0 >= restore_x),
        "{:?}",
        tl.overlaps
    );
}

/// No two violation marks share a place: each can be seen, focused and hovered (multi-object
/// and unfenceable-email break two properties in one decision, and drew both marks as one).
#[test]
fn violation_marks_never_cover_each_other() {
    let mut pairs = 0;
    for s in load_presets() {
        for p in Policy::ALL {
            let mut run = build_run(&s, &Choice::Policy(p));
            run.run_script().unwrap();
            let tl = layout::layout(&run);
            for (i, a) in tl.violations.iter().enumerate() {
                for b in &tl.violations[i + 1..] {
                    if a.y == b.y && (a.x - b.x).abs() < 40 {
                        pairs += 1;
                    }
                    assert!(
                        a.y != b.y || (a.x - b.x).abs() >= 20,
                        "{} ({}): {a:?} and {b:?}",
                        s.id,
                        p.as_str()
                    );
                }
            }
        }
    }
    assert!(
        pairs > 0,
        "no decision broke two properties: the test tests nothing"
    );
}

/// The diagram's view on a 360-px phone (CSS px), the narrowest of where the app is drawn
/// there: the guide's iframes (320 px wide inside the guide's margins). Measured in Chromium
/// at 360×740, the `.tl-scroll`'s clientWidth: 252 in the app, 256 embedded (`?embed`), 216
/// in the guide's iframe (static/style.css: the page's and the panel's padding, the 76-px
/// lane gutter).
const PHONE_VIEW: i32 = 216;

/// Issue 31: on a phone the story is told three steps at a time. Drawn compact, the view that
/// follows the present holds the current step's band and the two before it whole (all of
/// them, before step 3), for every preset at every step of its script. Drawn full, as on a
/// wide screen, it held 0-2 (the minimum over the presets was 0, in 20 of 25).
#[test]
fn a_phone_shows_three_whole_steps_around_the_present() {
    let mut short = Vec::new();
    let mut least = usize::MAX;
    for s in load_presets() {
        let mut run = build_run(&s, &Choice::default_for(&s));
        run.run_script().unwrap();
        for i in 1..=run.len() {
            run.seek(i);
            let tl = layout::layout_for(&run, 1, true);
            let left = layout::follow_left(&tl, PHONE_VIEW);
            let right = left + PHONE_VIEW;
            let whole: Vec<usize> = tl
                .steps
                .iter()
                .filter(|b| b.x0 >= left && b.x1 <= right)
                .map(|b| b.step)
                .collect();
            // The last three, consecutive, ending with the current step.
            let want: Vec<usize> = (i.saturating_sub(2).max(1)..=i).collect();
            least = least.min(whole.len());
            if !want.iter().all(|w| whole.contains(w)) {
                short.push(format!(
                    "{} step {i}: {whole:?} whole in {left}..{right}; bands {:?}",
                    s.id,
                    tl.steps
                        .iter()
                        .map(|b| (b.step, b.x0, b.x1))
                        .collect::<Vec<_>>()
                ));
            }
        }
    }
    eprintln!("at least {least} whole steps in a {PHONE_VIEW}-px view");
    assert!(short.is_empty(), "{}", short.join("\n"));
}

/// Whether the segment from (x0, y0) to (x1, y1) passes through the box `b` (its halo
/// aside: a line may touch a text's white rim).
fn segment_crosses(x0: i32, y0: i32, x1: i32, y1: i32, b: &layout::TextBox) -> bool {
    let (bx0, by0, bx1, by1) = (
        b.x0 as f64 + 1.0,
        b.y0 as f64 + 1.0,
        b.x1 as f64 - 1.0,
        b.y1 as f64 - 1.0,
    );
    let (x0, y0) = (x0 as f64, y0 as f64);
    let (dx, dy) = (x1 as f64 - x0, y1 as f64 - y0);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, x0 - bx0),
        (dx, bx1 - x0),
        (-dy, y0 - by0),
        (dy, by1 - y0),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    t0 < t1
}

/// The texts a message's arrow runs through, in one layout.
fn arrows_over_text(tl: &Timeline) -> Vec<String> {
    let boxes: Vec<layout::TextBox> = layout::texts(tl).iter().map(layout::TextBox::of).collect();
    let mut out = Vec::new();
    for a in &tl.arrows {
        for b in &boxes {
            if segment_crosses(a.x0, a.y0, a.x1, a.y1, b) {
                out.push(format!(
                    "{} arrow {:?} over {} {:?} {:?}",
                    a.kind,
                    (a.x0, a.y0, a.x1, a.y1),
                    b.class,
                    b.body,
                    (b.x0, b.y0, b.x1, b.y1)
                ));
            }
        }
    }
    out
}

/// Issue: in the desktop drawing, message arrows ran through text — a reply through B's
/// `B believes: 42`, an arrowhead on `❚❚ paused`, a long delayed write through the labels of
/// the lanes it passes over. A bar's text takes a form and an end that no arrow crosses, and
/// a label a place off every arrow, wherever there is one: over every preset under every
/// setting at every step, whole and windowed, the crossings left are those with no clear
/// place (a bar no wider than its shortest form, where an arrow leaves it), counted and held
/// to their number. Before, 5140: 1979 bars' text, 459 bands' text, 1200 arrows' labels, 695
/// marks' labels. `⚠ both believe` does not move, and is not counted.
///
/// A verdict's lines sit under its glyph, and a write to a lower lane in the same column (the
/// second object of a multi-object write) ran through them: immutable-thumbnail's publish to
/// the file through the content store's `✓ B-publish-v1:thumbs · 42`, 612 times. The verdict
/// that write ends at moves right until its arrow passes the words above (as far as
/// `MOST_CLEARING` in layout.rs), and none is left.
#[test]
fn message_arrows_keep_off_text_that_can_move() {
    let mut failures: Vec<String> = Vec::new();
    let mut layouts = 0;
    for s in load_presets() {
        let mut choices: Vec<Choice> = s
            .variants
            .iter()
            .map(|v| Choice::Variant(v.name.clone()))
            .collect();
        choices.extend(Policy::ALL.iter().map(|p| Choice::Policy(*p)));
        for c in choices {
            let mut run = build_run(&s, &c);
            run.run_script().unwrap();
            for i in 0..=run.len() {
                run.seek(i);
                let first = layout::window_start(&run, 12);
                for from in [1, first] {
                    layouts += 1;
                    let tl = layout::layout_from(&run, from);
                    for p in arrows_over_text(&tl) {
                        failures.push(format!(
                            "{} ({}) step {i} from {from}: {p}",
                            s.id,
                            c.value()
                        ));
                    }
                }
            }
        }
    }
    if let Ok(f) = std::env::var("DUMP_CROSSINGS") {
        std::fs::write(f, failures.join("\n")).unwrap();
    }
    let count = |class: &str| {
        failures
            .iter()
            .filter(|f| f.contains(&format!(" over {class} ")))
            .count()
    };
    let ceilings = [
        ("bar-text", 58),
        ("band-text", 7),
        ("arrow-label", 6),
        ("mark-label", 14),
        ("pending-label", 0),
        ("v-line", 0),
    ];
    let found: Vec<(&str, usize, usize)> = ceilings
        .iter()
        .map(|&(class, most)| (class, count(class), most))
        .collect();
    eprintln!("arrows over text in {layouts} layouts (class, found, at most): {found:?}");
    let over: Vec<&(&str, usize, usize)> = found.iter().filter(|(_, n, most)| n > most).collect();
    assert!(
        over.is_empty(),
        "more arrows over text than before: {over:?}\n{}",
        failures
            .iter()
            .filter(|f| over
                .iter()
                .any(|(c, _, _)| f.contains(&format!(" over {c} "))))
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// A write prepared and sent at once leaves from its ✎: it was drawn from the lane's anchor,
/// 60 px beside the ✎ (ANCHOR_SEP), as if sent from somewhere else. Every preset under every
/// setting at every step: each write arrow sent in the step and tick its write was prepared in
/// starts at the x of a ✎ on its lane naming the request.
#[test]
fn a_write_leaves_from_its_prepare_mark() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for s in load_presets() {
        let mut choices: Vec<Choice> = s
            .variants
            .iter()
            .map(|v| Choice::Variant(v.name.clone()))
            .collect();
        choices.extend(Policy::ALL.iter().map(|p| Choice::Policy(*p)));
        for c in choices {
            let mut run = build_run(&s, &c);
            run.run_script().unwrap();
            // (actor, request, tick, step) of each write prepared; message id → the same of
            // each write sent.
            let (mut prepared, mut sent) = (Vec::new(), Vec::new());
            for st in 1..=run.len() {
                for e in run.step_events(st) {
                    let req = e.request.as_deref().unwrap_or("").to_string();
                    match &e.kind {
                        EventKind::Prepared { .. } => {
                            prepared.push((e.actor.to_string(), req, e.tick, st))
                        }
                        EventKind::Sent { .. } if e.message.is_some() => {
                            sent.push((e.message.unwrap(), e.actor.to_string(), e.tick, st))
                        }
                        _ => {}
                    }
                }
            }
            for i in 0..=run.len() {
                run.seek(i);
                let tl = layout::layout(&run);
                for a in tl.arrows.iter().filter(|a| a.kind == "write") {
                    let Some((_, actor, tick, st)) = sent.iter().find(|m| m.0 == a.id) else {
                        continue;
                    };
                    let req = a.label.split(' ').next().unwrap_or("");
                    let Some(p) = prepared.iter().find(|p| {
                        (&p.0, p.2, p.3) == (actor, *tick, *st)
                            && (req == p.1 || req.starts_with(&format!("{}:", p.1)))
                    }) else {
                        continue;
                    };
                    checked += 1;
                    let marks: Vec<i32> = tl
                        .marks
                        .iter()
                        .filter(|m| m.glyph == "✎" && m.y == a.y0)
                        .filter(|m| m.label.split(' ').next() == Some(p.1.as_str()))
                        .map(|m| m.x)
                        .collect();
                    if !marks.contains(&a.x0) {
                        failures.push(format!(
                            "{} ({}) step {i}: {} leaves from x={}, its ✎ at {marks:?}",
                            s.id,
                            c.value(),
                            a.label,
                            a.x0
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} writes checked");
    assert!(
        failures.is_empty(),
        "{} of {checked}:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

/// The ruler numbers every step whose number fits: one is left out only where it would
/// touch a number shown (retry-double-debit hid step 8's, with room for it), and none shown
/// touch; the current step's is always shown. Every preset under every setting at every step,
/// whole and windowed, drawn full.
#[test]
fn every_step_number_that_fits_is_shown() {
    let mut failures = Vec::new();
    for s in load_presets() {
        let mut choices: Vec<Choice> = s
            .variants
            .iter()
            .map(|v| Choice::Variant(v.name.clone()))
            .collect();
        choices.extend(Policy::ALL.iter().map(|p| Choice::Policy(*p)));
        for c in choices {
            let mut run = build_run(&s, &c);
            run.run_script().unwrap();
            for i in 1..=run.len() {
                run.seek(i);
                let first = layout::window_start(&run, 12);
                for from in [1, first] {
                    let tl = layout::layout_from(&run, from);
                    let shown = tl.step_numbers();
                    let boxes: Vec<layout::TextBox> =
                        shown.iter().map(|(_, t)| layout::TextBox::of(t)).collect();
                    let ctx = format!("{} ({}) step {i} from {from}", s.id, c.value());
                    let touch = |a: &layout::TextBox, b: &layout::TextBox| {
                        a.x0 < b.x1 + layout::STEP_NO_GAP && b.x0 < a.x1 + layout::STEP_NO_GAP
                    };
                    for (k, a) in boxes.iter().enumerate() {
                        if let Some(b) = boxes[k + 1..].iter().find(|b| touch(a, b)) {
                            failures.push(format!("{ctx}: {} touches {}", a.body, b.body));
                        }
                    }
                    if let Some(cur) = tl.current_step() {
                        if !shown.iter().any(|(n, _)| *n == cur.step) {
                            failures.push(format!("{ctx}: the current step's number is hidden"));
                        }
                    }
                    for b in &tl.steps {
                        if shown.iter().any(|(n, _)| *n == b.step) {
                            continue;
                        }
                        let cx = (b.x0 + b.x1) / 2;
                        let (size, bold) = layout::font_of(if b.current {
                            "step-no current"
                        } else {
                            "step-no"
                        });
                        let w = layout::text_width(&b.step.to_string(), size, bold);
                        let me = layout::TextBox {
                            x0: cx - w / 2 - 1,
                            x1: cx - w / 2 + w + 1,
                            y0: 0,
                            y1: 15,
                            class: "step-no",
                            body: b.step.to_string(),
                        };
                        if !boxes.iter().any(|o| touch(o, &me)) {
                            failures.push(format!(
                                "{ctx}: step {}'s number is hidden, with room for it",
                                b.step
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

/// No mark's glyph is drawn over another's: a message held as it was sent was marked ‖ on its
/// ✎, once the write left from the ✎. Every preset under every setting at every step, whole,
/// drawn full.
#[test]
fn marks_are_not_drawn_over_each_other() {
    let mut failures = Vec::new();
    for s in load_presets() {
        let mut choices: Vec<Choice> = s
            .variants
            .iter()
            .map(|v| Choice::Variant(v.name.clone()))
            .collect();
        choices.extend(Policy::ALL.iter().map(|p| Choice::Policy(*p)));
        for c in choices {
            let mut run = build_run(&s, &c);
            run.run_script().unwrap();
            for i in 1..=run.len() {
                run.seek(i);
                let tl = layout::layout(&run);
                for (k, a) in tl.marks.iter().enumerate() {
                    for b in &tl.marks[k + 1..] {
                        if (a.x - b.x).abs() < 16 && (a.y - b.y).abs() < 16 {
                            failures.push(format!(
                                "{} ({}) step {i}: {} at {:?} over {} at {:?}",
                                s.id,
                                c.value(),
                                a.glyph,
                                (a.x, a.y),
                                b.glyph,
                                (b.x, b.y)
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}
