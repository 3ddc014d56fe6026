//! The space-time diagram as geometry: lanes, lease bars, message arrows, verdicts and
//! violations, all derived from a run's events and frames up to its current step.
//!
//! The x axis is true time, with a minimum spacing: every (tick, step) that has events gets
//! a column wide enough for what it shows (a verdict needs room for its words), a tick with
//! nothing in it is narrow, and a long idle stretch is compressed into a marked gap. The page
//! packs columns (`Spacing::Packed`): one starts where the lanes it draws on have room, so
//! columns on different lanes share x, while every event stays right of every earlier one.
//! So x is monotonic in time without being proportional to it; the ruler says which tick is
//! where. A phone's narrow view packs them closer still, its verdicts' words shown on demand
//! (`Spacing::Compact`).
//!
//! Lease bars come from events (grant, expiry, belief, crash) and are reconciled with each
//! frame's world at the end of every step, so anything the events leave implicit (a release,
//! a restore bringing back an old holder) still ends or starts a bar.

use std::collections::BTreeMap;

use crate::sim::event::{Event, EventKind};
use crate::sim::message::MessageKind;
use crate::sim::run::Run;
use crate::sim::time::Tick;
use crate::sim::worker::Status;
use crate::sim::World;

/// Height of the ruler above the lanes (step numbers, then tick labels).
pub const RULER_H: i32 = 46;
pub const COORD_H: i32 = 70;
pub const WORKER_H: i32 = 98;
pub const RESOURCE_H: i32 = 108;
pub const LEFT: i32 = 14;
/// Room to the right of "now" for in-flight arrows and their labels, and for a view that
/// follows the present to begin where it cuts no text (`follow_left`).
pub const RIGHT_PAD: i32 = 240;
pub const MIN_COL: i32 = 40;
pub const EMPTY_TICK: i32 = 14;
pub const COL_PAD: i32 = 4;
const ANCHOR_W: i32 = 26;
const MARK_W: i32 = 30;
const LABEL_W: i32 = 84;
pub const VERDICT_W: i32 = 140;
/// Empty stretches longer than this are drawn compressed.
const MAX_EMPTY_RUN: u64 = 6;
const GAP_W: i32 = 34;

/// How much room the drawing gives what it shows along x: the full drawing, with every
/// verdict's and mark's words beside it, or the compact one a phone draws (`Spacing::Compact`).
#[derive(Clone, Copy, Debug)]
struct Room {
    /// The least distance between two events on one lane of a column.
    anchor_sep: i32,
    /// Packed, how far right of a column's last event the next column's first is at least.
    advance: i32,
    min_col: i32,
    /// The room of an arrow's end or a bar's edge.
    anchor_w: i32,
    /// The room of a mark without a label.
    mark_w: i32,
    empty_tick: i32,
    gap_w: i32,
    /// The room a mark with a label takes (compact, its glyph's).
    label_w: i32,
    /// Whether a verdict's three lines of words are drawn under it and given room.
    words: bool,
}

const FULL: Room = Room {
    anchor_sep: ANCHOR_SEP,
    advance: ADVANCE,
    min_col: MIN_COL,
    anchor_w: ANCHOR_W,
    mark_w: MARK_W,
    empty_tick: EMPTY_TICK,
    gap_w: GAP_W,
    label_w: LABEL_W,
    words: true,
};

/// Compact: a verdict is its glyph (its words are its accessible name, its tooltip, and what
/// focusing or tapping it shows under the diagram); a mark is drawn where its lane's messages
/// arrive and leave in its column, not beside them (its label is drawn where there is room,
/// and is its tooltip and the event log's line); events, columns and idle ticks closer. Three
/// steps of every preset fit a 360-px phone's view (tests/layout_geometry.rs measures them).
const PHONE: Room = Room {
    anchor_sep: 12,
    advance: 6,
    min_col: 16,
    anchor_w: 10,
    mark_w: 18,
    empty_tick: 6,
    gap_w: 20,
    label_w: 18,
    words: false,
};

/// The room a compact verdict takes: its glyph.
const GLYPH_W: i32 = 22;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneKind {
    Coordinator,
    Worker,
    Resource,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane {
    pub name: String,
    pub kind: LaneKind,
    /// What it is: `worker`, `store · highest-seen`.
    pub detail: String,
    pub y: i32,
    pub h: i32,
    /// The y of the lane's time line, where messages start and end.
    pub axis: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    /// The coordinator's record: this worker holds the lease.
    Holder,
    /// The worker's own belief that it holds the lease.
    Belief,
    Paused,
    Crashed,
    /// Cut off from the coordinator.
    CutOff,
    /// On the coordinator's lane: a lock-delay under way, the lock granted to nobody.
    LockDelay,
}

impl BarKind {
    pub fn class(&self) -> &'static str {
        match self {
            BarKind::Holder => "bar-holder",
            BarKind::Belief => "bar-belief",
            BarKind::Paused => "band-paused",
            BarKind::Crashed => "band-crashed",
            BarKind::CutOff => "band-cutoff",
            BarKind::LockDelay => "band-lockdelay",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bar {
    pub lane: usize,
    pub kind: BarKind,
    /// The lock a lease bar is about (empty for status bands).
    pub lock: String,
    pub x0: i32,
    pub x1: i32,
    pub y: i32,
    pub h: i32,
    pub label: String,
    pub title: String,
    /// Still going at the current step.
    pub open: bool,
    /// Started or ended in the current step.
    pub recent: bool,
    /// Its label where it is drawn, when it fits.
    pub text: Option<Text>,
    /// Where along the bar its text's row is clear of every other text: where the text may
    /// slide to stay in sight when the bar's start is scrolled away (`bar_text_in_view`).
    pub room: Vec<(i32, i32)>,
}

/// Where two or more workers believe they hold one lock at once, drawn on each of their lanes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverlapMark {
    pub lane: usize,
    pub x0: i32,
    pub x1: i32,
    pub y: i32,
    pub h: i32,
    pub title: String,
    /// `⚠ both believe`, when it fits.
    pub text: Option<Text>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowState {
    Delivered,
    InFlight,
    Held,
    Dropped,
    /// Delivered to a crashed node.
    Lost,
}

impl ArrowState {
    pub fn class(&self) -> &'static str {
        match self {
            ArrowState::Delivered => "delivered",
            ArrowState::InFlight => "in-flight",
            ArrowState::Held => "held",
            ArrowState::Dropped => "dropped",
            ArrowState::Lost => "lost",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub id: u32,
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
    pub state: ArrowState,
    /// The message's first word: `write`, `grant`, `reply`… (a CSS class).
    pub kind: String,
    /// A short visible label for the messages that matter most (writes, grants), else empty.
    pub label: String,
    pub title: String,
    pub recent: bool,
    /// Where its label (or, in flight, `in flight: …`) is drawn, if anywhere.
    pub text: Option<Text>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub x: i32,
    pub y: i32,
    /// The lane of the node it belongs to; none for a mark on a message's way (held).
    pub lane: Option<usize>,
    pub glyph: String,
    pub label: String,
    pub title: String,
    pub class: &'static str,
    pub recent: bool,
    /// Where its label is drawn, if anywhere.
    pub text: Option<Text>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerdictKind {
    Accepted,
    /// Accepted, but nothing changed (content already stored).
    NoOp,
    Rejected,
    Replayed,
    /// Check-then-write: the check passed; the write is a later step.
    Checked,
}

impl VerdictKind {
    pub fn class(&self) -> &'static str {
        match self {
            VerdictKind::Accepted => "v-accepted",
            VerdictKind::NoOp => "v-noop",
            VerdictKind::Rejected => "v-rejected",
            VerdictKind::Replayed => "v-replayed",
            VerdictKind::Checked => "v-checked",
        }
    }

    pub fn glyph(&self) -> &'static str {
        match self {
            VerdictKind::Accepted | VerdictKind::NoOp => "✓",
            VerdictKind::Rejected => "✗",
            VerdictKind::Replayed => "↺",
            VerdictKind::Checked => "?",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub x: i32,
    pub y: i32,
    pub resource: String,
    pub kind: VerdictKind,
    pub request: String,
    /// `41`, or `no token`.
    pub token: String,
    /// `accepted`, `rejected: stale`…
    pub outcome: String,
    /// The resource's highest accepted token after this verdict (the registered one under
    /// equal-token: `kept` says which).
    pub highest: String,
    /// `highest` or `registered` (`Policy::kept_token`).
    pub kept: &'static str,
    pub title: String,
    pub recent: bool,
    /// Whether its lines of words are drawn under it (not in the compact drawing, where its
    /// words are what focusing or tapping it shows).
    pub words: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViolationMark {
    pub x: i32,
    pub y: i32,
    pub resource: String,
    /// `stale_overwrite`…
    pub kind: String,
    /// The property in one sentence.
    pub explain: String,
    pub detail: String,
    pub tick: Tick,
    pub recent: bool,
}

/// What the line under the diagram says until a verdict or violation is focused or clicked.
pub const FOCUS_HINT: &str =
    "Focus or click a ✓, ✗ or ! on the timeline to read here what happened and why.";

impl Verdict {
    /// Its three lines under the glyph: what, the outcome, the highest token after it.
    pub fn lines(&self) -> [Text; 3] {
        let glyph = self.kind.glyph();
        [
            text(
                "v-line v-what",
                self.x,
                self.y + 28,
                Anchor::Middle,
                format!("{glyph} {} · {}", self.request, self.token),
            ),
            text(
                "v-line v-outcome",
                self.x,
                self.y + 42,
                Anchor::Middle,
                self.outcome.clone(),
            ),
            text(
                "v-line v-highest",
                self.x,
                self.y + 56,
                Anchor::Middle,
                format!("{} {}", self.kept, self.highest),
            ),
        ]
    }

    /// The lines the diagram draws under it: `lines`, or none in the compact drawing.
    pub fn drawn_lines(&self) -> Vec<Text> {
        if self.words {
            self.lines().into()
        } else {
            Vec::new()
        }
    }

    /// The verdict in a sentence: its accessible name, its tooltip, and what focusing it shows.
    pub fn explain(&self) -> String {
        format!(
            "{} {} — request {} with token {} at {}; {} token after it: {}. ({})",
            self.kind.glyph(),
            self.outcome,
            self.request,
            self.token,
            self.resource,
            self.kept,
            self.highest,
            self.title
        )
    }
}

impl ViolationMark {
    /// The accessible name of the marker.
    pub fn aria_label(&self) -> String {
        format!(
            "Violation at {}, t={}: {} — {}. {}",
            self.resource,
            self.tick,
            self.kind.replace('_', " "),
            self.explain,
            self.detail
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepBand {
    pub step: usize,
    pub x0: i32,
    pub x1: i32,
    pub current: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TickLabel {
    pub x: i32,
    pub tick: Tick,
}

/// A compressed stretch of idle time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gap {
    pub x0: i32,
    pub x1: i32,
    pub ticks: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeline {
    pub width: i32,
    pub height: i32,
    pub lanes: Vec<Lane>,
    pub ticks: Vec<TickLabel>,
    pub gaps: Vec<Gap>,
    pub steps: Vec<StepBand>,
    pub bars: Vec<Bar>,
    pub overlaps: Vec<OverlapMark>,
    pub arrows: Vec<Arrow>,
    pub marks: Vec<Mark>,
    pub verdicts: Vec<Verdict>,
    pub violations: Vec<ViolationMark>,
    /// The x of the present (the current step's end).
    pub now_x: i32,
    pub now_tick: Tick,
    /// Drawn compact, for a narrow view (`Spacing::Compact`).
    pub compact: bool,
}

impl Timeline {
    pub fn lane(&self, name: &str) -> Option<&Lane> {
        self.lanes.iter().find(|l| l.name == name)
    }

    /// The band of the current step, if the run has left the start.
    pub fn current_step(&self) -> Option<&StepBand> {
        self.steps.iter().find(|s| s.current)
    }
}

// ---------------------------------------------------------------------------------------------
// Lanes

fn lanes(w: &World) -> Vec<Lane> {
    let mut out = Vec::new();
    let mut y = RULER_H;
    let mut push = |name: &str, kind: LaneKind, detail: String, h: i32, axis: i32| {
        out.push(Lane {
            name: name.to_string(),
            kind,
            detail,
            y,
            h,
            axis: y + axis,
        });
        y += h;
    };
    let locks = w.coordinator().locks.len();
    let detail = if locks == 1 {
        "lease coordinator".to_string()
    } else {
        format!("lease coordinator · {locks} locks")
    };
    push("coordinator", LaneKind::Coordinator, detail, COORD_H, 30);
    for wk in w.workers() {
        push(&wk.name, LaneKind::Worker, "worker".into(), WORKER_H, 62);
    }
    for r in w.resources() {
        let fence = if r.kind.can_fence() {
            r.policy.as_str()
        } else {
            "cannot fence"
        };
        push(
            &r.name,
            LaneKind::Resource,
            format!("{} · {fence}", r.kind.name()),
            RESOURCE_H,
            36,
        );
    }
    out
}

/// The y offsets inside a worker lane.
fn holder_y(l: &Lane) -> i32 {
    l.y + 6
}
fn belief_y(l: &Lane) -> i32 {
    l.y + 22
}
fn overlap_y(l: &Lane) -> i32 {
    l.y + 37
}
const BAR_H: i32 = 13;

// ---------------------------------------------------------------------------------------------
// Placement: which lane and how much room each event needs in its column

#[derive(Clone, Debug)]
enum Place {
    /// At the lane's shared anchor in the column (arrow ends, bar edges).
    Anchor(usize),
    /// A slot of its own.
    Own(usize, i32, Option<String>),
    /// The slot of this request's verdict on this lane, else the anchor.
    Attach(usize, String),
    /// Somewhere in the column, on no lane (the network acting on a message).
    Column,
    /// A write prepared (✎): a slot of its own, which its sending leaves from.
    Prepared(usize, i32),
    /// A write sent: from the ✎ of the write prepared in the column, else the anchor.
    Write(usize),
}

/// The room a verdict needs: the widest of its three lines (as `Verdict::lines` words them).
fn verdict_width(e: &Event, kept: Option<&str>) -> i32 {
    use EventKind::*;
    let tok = e
        .token
        .as_ref()
        .map_or("no token".to_string(), |t| t.short());
    let what = format!("✓ {} · {tok}", e.request.as_deref().unwrap_or(""));
    let outcome = match &e.kind {
        WriteRejected { reason, .. } => format!("rejected: {}", reason.as_str()),
        WriteReplayed { recorded, .. } => format!("replayed ({recorded})"),
        WriteAccepted { no_op: true, .. } => "accepted (no change)".to_string(),
        CheckPassed { .. } => "check passed".to_string(),
        _ => "accepted".to_string(),
    };
    let highest = match kept {
        Some(kept) => format!("{kept} {tok}"),
        None => "highest — (tokens ignored)".to_string(),
    };
    let widest = text_width(&what, 11.0, false)
        .max(text_width(&outcome, 11.0, true))
        .max(text_width(&highest, 11.0, false));
    VERDICT_W.max(widest + 14)
}

fn place(
    e: &Event,
    lane_of: &dyn Fn(&str) -> Option<usize>,
    kept: &dyn Fn(&str) -> Option<&'static str>,
    room: Room,
) -> Option<Place> {
    use EventKind::*;
    let actor = lane_of(&e.actor);
    let own = |w: i32| actor.map(|l| Place::Own(l, w, None));
    let p = match &e.kind {
        Sent { kind, .. } if *kind == MessageKind::Write => actor.map(Place::Write),
        Sent { .. } => actor.map(Place::Anchor),
        Delivered { to, kind, .. } => {
            let l = lane_of(to)?;
            match (&e.request, *kind == MessageKind::Write) {
                (Some(r), true) => Some(Place::Attach(l, r.to_string())),
                _ => Some(Place::Anchor(l)),
            }
        }
        LostAtCrashedNode { to } => lane_of(to).map(Place::Anchor),
        Held { .. } | Released | Dropped { .. } | Duplicated { .. } => Some(Place::Column),
        WriteAccepted { resource, .. }
        | WriteRejected { resource, .. }
        | WriteReplayed { resource, .. }
        | CheckPassed { resource, .. } => {
            let w = if room.words {
                verdict_width(e, kept(resource))
            } else {
                GLYPH_W
            };
            lane_of(resource).map(|l| Place::Own(l, w, e.request.as_deref().map(str::to_string)))
        }
        Violation { resource, .. } => {
            let l = lane_of(resource)?;
            match &e.request {
                Some(r) => Some(Place::Attach(l, r.to_string())),
                None => Some(Place::Anchor(l)),
            }
        }
        Prepared { .. } => {
            // Its label names the request and token: room for a long label.
            let chars = e.request.as_deref().map_or(5, str::len) + 6;
            let w = if room.words {
                LABEL_W.max(chars as i32 * 6 + 10)
            } else {
                room.label_w
            };
            actor.map(|l| Place::Prepared(l, w))
        }
        RenewalFailed { .. } | ClockJumped { .. } => own(room.label_w),
        LeaseGranted { .. }
        | LeaseExpired { .. }
        | LeaseTakenOver { .. }
        | TokenBumped { .. }
        | FenceStarted { .. }
        | FenceRetried { .. }
        | ReplyIgnored { .. } => own(room.label_w),
        CoordinatorRestarted { .. }
        | CoordinatorRestored
        | CoordinatorBackedUp
        | FailedOver { .. } => own(room.label_w),
        FenceRegistered { .. }
        | TransactionRefused { .. }
        | ResourceBackedUp { .. }
        | ResourceRestored { .. }
        | ResourceRestarted { .. } => own(room.label_w),
        LeaseRenewed { .. }
        | RenewalDenied { .. }
        | LeaseReleased { .. }
        | WaitersNotified { .. }
        | AcquireQueued { .. } => own(room.mark_w),
        AcquireSent { .. }
        | LeaseAcquired { .. }
        | LeaseBeliefRenewed { .. }
        | LeaseBeliefExpired { .. }
        | Paused { .. }
        | Resumed
        | Crashed
        | Restarted
        | ReplyReceived { .. }
        | Partitioned
        | Healed => actor.map(Place::Anchor),
    };
    p
}

#[derive(Clone, Debug)]
struct Slot {
    key: Option<String>,
    width: i32,
    offset: i32,
    /// Compact: a mark is drawn at this anchor.
    marked: bool,
}

impl Slot {
    /// A verdict's slot is keyed by its request and count (`{request}#{n}`); anchors and
    /// prepared writes have keys that start with a NUL, marks none.
    fn is_verdict(&self) -> bool {
        self.key.as_deref().is_some_and(|k| !k.starts_with('\u{0}'))
    }
}

#[derive(Clone, Debug, Default)]
struct Column {
    tick: Tick,
    step: usize,
    /// Per lane, its slots in order.
    slots: Vec<(usize, Vec<Slot>)>,
    /// Per (lane, request): deliveries and verdicts so far, so that the n-th delivery of a
    /// request (a duplicate, say) lands on the n-th verdict and a violation on the latest one.
    seen: Vec<(usize, String, usize, usize)>,
    width: i32,
    x0: i32,
}

const ANCHOR: &str = "\u{0}anchor";
/// How far along its arrow a message held as it was sent is marked (‖), off its sender's mark.
const HELD_AWAY: i32 = 24;
/// The key of a prepared write's slot (followed by its index on the lane).
const PREPARED: &str = "\u{0}prepared";
/// The least distance between two events on one lane of a column.
const ANCHOR_SEP: i32 = 60;

impl Column {
    fn lane(&mut self, lane: usize) -> &mut Vec<Slot> {
        let i = match self.slots.iter().position(|(l, _)| *l == lane) {
            Some(i) => i,
            None => {
                self.slots.push((lane, Vec::new()));
                self.slots.len() - 1
            }
        };
        &mut self.slots[i].1
    }

    fn slot(&mut self, lane: usize, key: Option<String>, width: i32) -> usize {
        let v = self.lane(lane);
        if let Some(k) = &key {
            if let Some(i) = v.iter().position(|s| s.key.as_ref() == Some(k)) {
                v[i].width = v[i].width.max(width);
                return i;
            }
        }
        v.push(Slot {
            key,
            width,
            offset: 0,
            marked: false,
        });
        v.len() - 1
    }

    /// Compact, a mark's slot: the lane's anchor in the column, where its messages arrive
    /// and leave, unless a mark is drawn there already; else a slot of its own.
    fn mark_slot(&mut self, lane: usize, width: i32) -> usize {
        let i = self.slot(lane, Some(ANCHOR.into()), width);
        let v = self.lane(lane);
        if v[i].marked {
            self.slot(lane, None, width)
        } else {
            v[i].marked = true;
            i
        }
    }

    fn find(&self, lane: usize, key: &str) -> Option<usize> {
        let (_, v) = self.slots.iter().find(|(l, _)| *l == lane)?;
        v.iter().position(|s| s.key.as_deref() == Some(key))
    }

    /// Count a delivery (`delivery`) or a verdict of `request` on `lane`; returns the new count.
    fn count(&mut self, lane: usize, request: &str, delivery: bool) -> usize {
        let i = match self
            .seen
            .iter()
            .position(|(l, r, _, _)| *l == lane && r == request)
        {
            Some(i) => i,
            None => {
                self.seen.push((lane, request.to_string(), 0, 0));
                self.seen.len() - 1
            }
        };
        let e = &mut self.seen[i];
        if delivery {
            e.2 += 1;
            e.2
        } else {
            e.3 += 1;
            e.3
        }
    }

    fn verdicts(&self, lane: usize, request: &str) -> usize {
        self.seen
            .iter()
            .find(|(l, r, _, _)| *l == lane && r == request)
            .map_or(0, |e| e.3)
    }

    /// Place each lane's slots in order. A slot with words (a mark's label, a verdict's
    /// lines) starts past the words before it; an anchor, which has none, needs only to be
    /// right of the event before it (`ANCHOR_SEP`), so a reply leaves from beside its verdict
    /// rather than past the verdict's words.
    fn finish(&mut self, room: Room) {
        let mut width = room.min_col;
        for (_, v) in self.slots.iter_mut() {
            let (mut words_end, mut last_centre) = (0, i32::MIN / 2);
            for s in v.iter_mut() {
                let centre = if s.key.as_deref() == Some(ANCHOR) {
                    (last_centre + room.anchor_sep).max(s.width / 2)
                } else {
                    (words_end + s.width / 2).max(last_centre + room.anchor_sep)
                };
                s.offset = centre - s.width / 2;
                last_centre = centre;
                words_end = words_end.max(s.offset + s.width);
            }
            width = width.max(words_end);
        }
        self.width = width + 2 * COL_PAD;
    }

    fn lane_slots(&self, lane: usize) -> &[Slot] {
        &self
            .slots
            .iter()
            .find(|(l, _)| *l == lane)
            .expect("placed lane")
            .1
    }

    /// Moves slot `slot` of lane `lane`, and the slots after it on that lane, `by` right,
    /// widening the column to match.
    fn shift(&mut self, lane: usize, slot: usize, by: i32) {
        let Some((_, v)) = self.slots.iter_mut().find(|(l, _)| *l == lane) else {
            return;
        };
        for s in &mut v[slot..] {
            s.offset += by;
        }
        let end = Column::lane_extent(v);
        self.width = self.width.max(end + 2 * COL_PAD);
    }

    /// How far right of its left edge each of the column's events is.
    fn centres(&self) -> impl Iterator<Item = i32> + '_ {
        self.slots
            .iter()
            .flat_map(|(_, v)| v.iter().map(|s| COL_PAD + s.offset + s.width / 2))
    }

    /// How far right of its left edge the column's first event is.
    fn first_centre(&self) -> i32 {
        self.centres().min().unwrap_or(self.width / 2)
    }

    /// How far right of its left edge the column's last event is.
    fn last_centre(&self) -> i32 {
        self.centres().max().unwrap_or(self.width / 2)
    }

    /// How far right of its left edge what lane `lane` draws in this column ends.
    fn lane_extent(v: &[Slot]) -> i32 {
        v.iter().map(|s| s.offset + s.width).max().unwrap_or(0)
    }

    fn x(&self, lane: usize, slot: usize) -> i32 {
        let s = &self.lane_slots(lane)[slot];
        self.x0 + COL_PAD + s.offset + s.width / 2
    }
}

/// A few entries looked up by key: a vector, in insertion order. (The layout keeps a handful
/// of open bars and messages at a time; a tree map per use would cost more WASM than it saves.)
struct VecMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap(Vec::new())
    }
}

impl<K: PartialEq, V> VecMap<K, V> {
    fn pos<Q: ?Sized + PartialEq>(&self, k: &Q) -> Option<usize>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.0.iter().position(|(x, _)| x.borrow() == k)
    }

    fn get<Q: ?Sized + PartialEq>(&self, k: &Q) -> Option<&V>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.pos(k).map(|i| &self.0[i].1)
    }

    fn get_mut<Q: ?Sized + PartialEq>(&mut self, k: &Q) -> Option<&mut V>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.pos(k).map(|i| &mut self.0[i].1)
    }

    fn contains_key<Q: ?Sized + PartialEq>(&self, k: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
    {
        self.pos(k).is_some()
    }

    fn insert(&mut self, k: K, v: V) {
        match self.pos(&k) {
            Some(i) => self.0[i].1 = v,
            None => self.0.push((k, v)),
        }
    }

    fn remove<Q: ?Sized + PartialEq>(&mut self, k: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.pos(k).map(|i| self.0.remove(i).1)
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// Where an event was placed: its column, and lane + slot when it has one.
#[derive(Clone, Copy, Debug)]
struct Spot {
    /// Index into the columns.
    col: usize,
    at: Option<(usize, usize)>,
}

// ---------------------------------------------------------------------------------------------
// The layout

struct Open {
    x0: i32,
    lock: String,
    label: String,
    title: String,
    step: usize,
    key: String,
}

struct MsgStart {
    from: usize,
    to: usize,
    x0: i32,
    kind: MessageKind,
    /// The arrow's own label: `A1 · 41` on a write, `fence 41` on a fence; empty on the rest.
    label: String,
    what: String,
    title: String,
    step: usize,
    holds: Vec<i32>,
}

/// Lay out the run from its start up to its current step.
pub fn layout(run: &Run) -> Timeline {
    layout_from(run, 1)
}

/// How many events the page draws at first in a long run (it can draw more on request).
pub const WINDOW_EVENTS: usize = 400;

/// Where a window of about `events` events ending at the current step begins: the first step
/// to draw. A long run is drawn from there, so each step costs the same late in the run.
pub fn window_start(run: &Run, events: usize) -> usize {
    let mut s = run.cursor();
    let mut n = 0;
    while s > 1 && n + run.step_events(s).len() < events {
        n += run.step_events(s).len();
        s -= 1;
    }
    s.max(1)
}

/// Where what happened before a window's first step is drawn from: just left of the window,
/// so bars and messages that began earlier come in from the edge.
const BEFORE_X: i32 = LEFT - 12;

/// Lay out steps `first..=cursor` of the run. What began earlier and goes on into the window
/// (a lease, a pause, a message in flight) enters from the left edge; what ended earlier is not
/// drawn. `first` is clamped to `1..=cursor`.
pub fn layout_from(run: &Run, first: usize) -> Timeline {
    layout_with(run, first, Spacing::Packed)
}

/// How phase 2 places the columns along x.
#[derive(Clone, Copy, Debug)]
pub enum Spacing<'a> {
    /// A column starts where the lanes it draws on have room, so a verdict's words on one
    /// lane do not push a grant on another to the right: the diagram the page draws on a wide
    /// screen, where a whole story fits one screen more often. Time still runs left to right.
    Packed,
    /// Packed, in less room: the drawing of a narrow view (a phone), where a verdict is its
    /// glyph and a mark's label is drawn only where there is room (`PHONE`).
    Compact,
    /// One column after another, step `first + i`'s band at least `min[i]` wide: two runs of
    /// the same steps laid out with the larger of their band widths line up step for step
    /// (compare view).
    Aligned(&'a [i32]),
}

impl Spacing<'_> {
    fn room(&self) -> Room {
        match self {
            Spacing::Compact => PHONE,
            _ => FULL,
        }
    }

    /// Whether columns are packed (a column starts where its lanes have room).
    fn packed(&self) -> bool {
        !matches!(self, Spacing::Aligned(_))
    }
}

/// As `layout_from`, drawn compact (`Spacing::Compact`) when `compact`: what the page draws
/// in a narrow view.
pub fn layout_for(run: &Run, first: usize, compact: bool) -> Timeline {
    let spacing = if compact {
        Spacing::Compact
    } else {
        Spacing::Packed
    };
    layout_with(run, first, spacing)
}

/// The width of each step's band, from step `first` on: what `layout_with` takes to draw
/// another run with the same columns.
pub fn band_widths(tl: &Timeline) -> Vec<i32> {
    tl.steps.iter().map(|b| b.x1 - b.x0).collect()
}

/// As `layout_from`, with the columns spaced as `spacing` says.
pub fn layout_with(run: &Run, first: usize, spacing: Spacing) -> Timeline {
    let world = run.world();
    let lanes = lanes(world);
    let cursor = run.cursor();
    let first = first.clamp(1, cursor.max(1));
    let steps_of = Steps { run };
    let start_tick = if first > 1 {
        run.world_at(first - 1).map_or(0, |w| w.now())
    } else {
        0
    };

    // 1. Columns and slots.
    let room = spacing.room();
    let (mut cols, spots, arrivals) = columns(run, first, &lanes, room);
    // 2. x for every tick and column, and the steps' bands.
    let axis = axis(
        &mut cols,
        (&arrivals, &lanes),
        start_tick,
        world.now(),
        first,
        spacing,
    );
    let steps = step_bands(&cols, cursor, spacing);
    let spot_x = |sp: &Spot| -> i32 {
        let c = &cols[sp.col];
        match sp.at {
            Some((l, slot)) => c.x(l, slot),
            None => c.x0 + c.width / 2,
        }
    };
    // Where step `s` ends for what the world says after it (a bar it ended, one it began):
    // its band's end, and never past where the next step begins (packed, the next step's
    // first column may start inside this band).
    let band_end = |s: usize| {
        if s < first {
            return BEFORE_X;
        }
        let end = steps.get(s - first).map_or(LEFT, |b: &StepBand| b.x1);
        steps.get(s + 1 - first).map_or(end, |next: &StepBand| {
            end.min(next.x0.max(steps[s - first].x0))
        })
    };

    // 3. Walk the events, drawing as we go.
    let tl = Timeline {
        width: axis.now_x + RIGHT_PAD,
        height: lanes.last().map_or(RULER_H, |l| l.y + l.h) + 6,
        ticks: thin_labels(axis.labels),
        gaps: axis.gaps,
        now_x: axis.now_x,
        now_tick: world.now(),
        compact: !room.words,
        ..Default::default()
    };
    let mut p = Painter::new(tl, &lanes, world, cursor);
    if first > 1 {
        if let Some(w) = run.world_at(first - 1) {
            p.reconcile(w, BEFORE_X, first - 1);
            seed_in_flight(run, w, first, &lanes, &mut p.msgs, &mut p.highest_now);
        }
    }
    let base = steps_of.start(first);
    let last_start = steps_of.start(cursor);
    for s in first..=cursor {
        let step_events = run.step_events(s);
        for (i, e) in step_events.iter().enumerate() {
            let k = steps_of.start(s) + i;
            let sp = &spots[k - base];
            let at = At {
                x: spot_x(sp),
                lane: sp.at.map(|a| a.0),
                recent: k >= last_start && cursor > 0,
                step: s,
            };
            p.event(e, &step_events[i + 1..], at);
        }
        // Reconcile open bars with the world after this step.
        let Some(w) = run.world_at(s) else { continue };
        p.reconcile(w, band_end(s), s);
    }

    // 4. What is still going on now.
    let mut tl = p.finish();
    spread_pending(&mut tl.arrows);
    tl.overlaps = overlaps(&tl, &lanes);
    tl.steps = steps;
    tl.lanes = lanes;
    place_texts(&mut tl);
    tl
}

/// Where each step's events begin in the run's event numbering.
struct Steps<'a> {
    run: &'a Run,
}

impl Steps<'_> {
    fn start(&self, s: usize) -> usize {
        if s == 0 {
            0
        } else {
            self.run.events_end(s - 1).unwrap_or(0)
        }
    }
}

/// Phase 1: a column per (tick, step) with events, a slot per lane in it for what needs room,
/// and each event's spot. Events come in time order within a step and each step starts at
/// the tick the previous one ended, so columns are created in (tick, step) order.
fn columns(
    run: &Run,
    first: usize,
    lanes: &[Lane],
    room: Room,
) -> (Vec<Column>, Vec<Spot>, Vec<Arrival>) {
    let world = run.world();
    let lane_of = |name: &str| lanes.iter().position(|l| l.name == name);
    // What a fenced resource keeps (`Policy::kept_token`); none for one that is not.
    let kept = |name: &str| {
        world
            .resource(name)
            .filter(|r| r.is_fenced())
            .map(|r| r.policy.kept_token())
    };
    let steps = Steps { run };
    // Events before the window have no spot: spots are indexed from here.
    let base = steps.start(first);
    let mut cols: Vec<Column> = Vec::new();
    let mut spots: Vec<Spot> = Vec::with_capacity(run.event_count());
    let mut attach: Vec<(usize, usize, String)> = Vec::new();
    // A write's message → the spot it was sent from; (delivery's spot, sending's spot).
    let mut sent_from: BTreeMap<u32, usize> = BTreeMap::new();
    let mut writes: Vec<(usize, usize)> = Vec::new();
    let column = |cols: &mut Vec<Column>, tick: Tick, step: usize| -> usize {
        if cols.last().is_none_or(|c| (c.tick, c.step) != (tick, step)) {
            cols.push(Column {
                tick,
                step,
                ..Default::default()
            });
        }
        cols.len() - 1
    };
    for s in first..=run.cursor() {
        for (i, e) in run.step_events(s).iter().enumerate() {
            let k = steps.start(s) + i - base;
            let ci = column(&mut cols, e.tick, s);
            let col = &mut cols[ci];
            match (&e.kind, e.message) {
                (EventKind::Sent { kind, .. }, Some(m)) if *kind == MessageKind::Write => {
                    sent_from.insert(m, k);
                }
                (EventKind::Delivered { kind, .. }, Some(m)) if *kind == MessageKind::Write => {
                    writes.extend(sent_from.get(&m).map(|&from| (k, from)));
                }
                _ => {}
            }
            let at = match place(e, &lane_of, &kept, room) {
                Some(Place::Anchor(l)) => {
                    Some((l, col.slot(l, Some(ANCHOR.into()), room.anchor_w)))
                }
                Some(Place::Own(l, w, Some(r))) => {
                    let n = col.count(l, &r, false);
                    Some((l, col.slot(l, Some(format!("{r}#{n}")), w)))
                }
                Some(Place::Own(l, w, None) | Place::Prepared(l, w)) if !room.words => {
                    Some((l, col.mark_slot(l, w)))
                }
                // Keyed by its place in the lane: two writes prepared are two slots.
                Some(Place::Prepared(l, w)) => {
                    let n = col.lane(l).len();
                    Some((l, col.slot(l, Some(format!("{PREPARED}{n}")), w)))
                }
                // A write leaves from the ✎ it was prepared at, in this column (else the
                // anchor: sent later, or compact, where the ✎ is at the anchor).
                Some(Place::Write(l)) => {
                    let prepared = col.lane(l).iter().rposition(|s| {
                        room.words && s.key.as_deref().is_some_and(|k| k.starts_with(PREPARED))
                    });
                    let slot =
                        prepared.unwrap_or_else(|| col.slot(l, Some(ANCHOR.into()), room.anchor_w));
                    Some((l, slot))
                }
                Some(Place::Own(l, w, None)) => Some((l, col.slot(l, None, w))),
                Some(Place::Attach(l, r)) => {
                    let nth = if matches!(e.kind, EventKind::Delivered { .. }) {
                        col.count(l, &r, true)
                    } else {
                        col.verdicts(l, &r).max(1)
                    };
                    attach.push((k, l, format!("{r}#{nth}")));
                    None
                }
                Some(Place::Column) | None => None,
            };
            spots.push(Spot { col: ci, at });
        }
        let end_tick = run.world_at(s).map_or(0, |w| w.now());
        column(&mut cols, end_tick, s);
    }
    for (k, l, r) in attach {
        let col = &mut cols[spots[k].col];
        let slot = match col.find(l, &r) {
            Some(i) => i,
            None => col.slot(l, Some(ANCHOR.into()), room.anchor_w),
        };
        spots[k].at = Some((l, slot));
    }
    for c in cols.iter_mut() {
        c.finish(room);
    }
    let arrivals = writes
        .into_iter()
        .filter_map(|(k, from)| {
            let (sp, from) = (&spots[k], &spots[from]);
            Some(Arrival {
                col: sp.col,
                at: sp.at?,
                from: (from.col, from.at?),
            })
        })
        .collect();
    (cols, spots, arrivals)
}

/// A write arriving at a resource: its column and (lane, slot), and the (column, (lane,
/// slot)) it was sent from.
struct Arrival {
    col: usize,
    at: (usize, usize),
    from: (usize, (usize, usize)),
}

/// The top and bottom of a verdict's words (its three lines' boxes), below its lane's axis.
const VERDICT_WORDS: (i32, i32) = (17, 59);
/// How far right of a verdict's words an arrow passing them stays, at least.
const ARROW_CLEARANCE: i32 = 6;
/// The most a verdict is moved right to keep an arrow off the words above it: a long, shallow
/// arrow (a message delayed for many ticks) would need the width of the diagram. The presets
/// need less (multi-object's check-then-write, the most: A's late write to Y passes B's and
/// its own verdict on X).
const MOST_CLEARING: i32 = 400;

/// Moves each verdict an arrow ends at in column `ci` (and what follows it on its lane) right,
/// until the arrow passes right of the words of every verdict above it in the column. The
/// arrows come down from the workers, and a verdict's words sit right under its own arrow's
/// end: the arrow to a lower lane (the second object of a multi-object write, say) would run
/// through them. Column `ci` and the ones its arrows come from are placed.
fn clear_verdict_words(cols: &mut [Column], ci: usize, arrivals: &[Arrival], lanes: &[Lane]) {
    let mut mine: Vec<&Arrival> = arrivals.iter().filter(|a| a.col == ci).collect();
    // Top down: moving a verdict moves the words the arrows below it must clear.
    mine.sort_by_key(|a| lanes[a.at.0].axis);
    for a in mine {
        let ((lane, slot), (fc, (fl, fs))) = (a.at, a.from);
        if !cols[ci].lane_slots(lane)[slot].is_verdict() {
            continue;
        }
        // Moved clear of one verdict's words, the arrow may cross the next one's: again until
        // it crosses none.
        let mut moved = 0;
        while let Some(need) = words_crossed(&cols[ci], (lane, slot), &cols[fc], (fl, fs), lanes) {
            moved += need;
            if moved > MOST_CLEARING {
                cols[ci].shift(lane, slot, need - moved);
                break;
            }
            cols[ci].shift(lane, slot, need);
        }
    }
}

/// How far right the verdict at (lane, slot) of `c` must move for the arrow to it from `from`
/// to pass right of the words of a verdict above it that it crosses, if it crosses one.
fn words_crossed(
    c: &Column,
    (lane, slot): (usize, usize),
    from: &Column,
    (fl, fs): (usize, usize),
    lanes: &[Lane],
) -> Option<i32> {
    let (xs, ys) = (from.x(fl, fs) as f64, lanes[fl].axis as f64);
    let (xe, ye) = (c.x(lane, slot) as f64, lanes[lane].axis as f64);
    let mut need = 0.0f64;
    for (l, v) in &c.slots {
        let (top, bottom) = (
            (lanes[*l].axis + VERDICT_WORDS.0) as f64,
            (lanes[*l].axis + VERDICT_WORDS.1) as f64,
        );
        if top <= ys || top >= ye {
            continue;
        }
        // Where the arrow is at the words' top and bottom.
        let at = |y: f64| xs + (xe - xs) * ((y - ys) / (ye - ys)).min(1.0);
        let (xt, xb) = (at(top), at(bottom));
        for w in v.iter().filter(|w| w.is_verdict()) {
            let x0 = (c.x0 + COL_PAD + w.offset) as f64;
            let x1 = x0 + w.width as f64;
            if xt.min(xb) >= x1 || xt.max(xb) <= x0 {
                continue;
            }
            // The end that puts the arrow's top right of the words.
            let clear = xs + (x1 + ARROW_CLEARANCE as f64 - xs) * (ye - ys) / (top - ys);
            need = need.max(clear - xe);
        }
    }
    let need = need.ceil() as i32;
    (need > 0).then_some(need)
}

/// What phase 2 measures out along the x axis.
struct Axis {
    gaps: Vec<Gap>,
    labels: Vec<TickLabel>,
    /// The x of the present.
    now_x: i32,
}

/// Packed, how far right of a column's last event the next column's first is at least:
/// enough to tell their times apart, and to give a message between them a slope.
const ADVANCE: i32 = 22;

/// Phase 2: x for every tick and column, from `start_tick` to `now`, spaced as `spacing`
/// says; long idle stretches compressed into gaps.
fn axis(
    cols: &mut [Column],
    (arrivals, lanes): (&[Arrival], &[Lane]),
    start_tick: Tick,
    now: Tick,
    first: usize,
    spacing: Spacing,
) -> Axis {
    let mut gaps = Vec::new();
    let mut labels = Vec::new();
    // Aligned, where the next column starts; packed, the least x of its first event.
    let mut x = LEFT;
    // Packed: per lane, the right edge of what its columns drew so far; and the right edge
    // of all of them.
    let mut lane_end: Vec<i32> = Vec::new();
    let mut reach = LEFT;
    let mut t: Tick = start_tick;
    let mut next = 0; // the first column not yet placed
    let mut band_x0 = LEFT; // where the band of the step being placed began
    let room = spacing.room();
    while t <= now {
        if cols.get(next).is_some_and(|c| c.tick == t) {
            let mut tick_x = None;
            while cols.get(next).is_some_and(|c| c.tick == t) {
                let last = cols.get(next + 1).is_none_or(|n| n.step != cols[next].step);
                match spacing {
                    Spacing::Packed | Spacing::Compact => {
                        let c = &cols[next];
                        // Where the column's first event is, from its left edge.
                        let first_c = c.first_centre();
                        // Time: its first event right of every earlier one. Room: what it
                        // draws on a lane clear of what that lane drew before.
                        let mut x0 = (x - first_c).max(LEFT);
                        for (l, _) in &c.slots {
                            if let Some(end) = lane_end.get(*l) {
                                x0 = x0.max(end - COL_PAD);
                            }
                        }
                        cols[next].x0 = x0;
                        if room.words {
                            clear_verdict_words(cols, next, arrivals, lanes);
                        }
                        let c = &mut cols[next];
                        let last_c = c.last_centre();
                        for (l, v) in &c.slots {
                            if lane_end.len() <= *l {
                                lane_end.resize(l + 1, LEFT);
                            }
                            lane_end[*l] = x0 + COL_PAD + Column::lane_extent(v);
                        }
                        reach = reach.max(x0 + c.width);
                        tick_x = tick_x.or(Some(x0 + first_c - room.advance / 2));
                        x = x0 + last_c + room.advance;
                    }
                    Spacing::Aligned(min_bands) => {
                        cols[next].x0 = x;
                        clear_verdict_words(cols, next, arrivals, lanes);
                        let c = &mut cols[next];
                        x += c.width;
                        if last {
                            // A step's band ends with its last column: widen that to the minimum.
                            let want = min_bands.get(c.step - first).copied().unwrap_or(0);
                            if x - band_x0 < want {
                                c.width += want - (x - band_x0);
                                x = band_x0 + want;
                            }
                            band_x0 = x;
                        }
                        tick_x = tick_x.or(Some(c.x0));
                        reach = x;
                    }
                }
                next += 1;
            }
            labels.push(TickLabel {
                x: tick_x.unwrap_or(x),
                tick: t,
            });
            t += 1;
        } else {
            // A run of ticks with nothing in them. A long one is a gap, drawn clear of
            // everything before it; a short one only moves time on.
            let a = t;
            let until = cols.get(next).map_or(now + 1, |c| c.tick.min(now + 1));
            t = until.max(a + 1);
            let n = t - a;
            if n <= MAX_EMPTY_RUN {
                x += n as i32 * room.empty_tick;
            } else {
                x = x.max(reach);
                gaps.push(Gap {
                    x0: x + 2 * room.empty_tick,
                    x1: x + 2 * room.empty_tick + room.gap_w,
                    ticks: n,
                });
                x += 4 * room.empty_tick + room.gap_w;
            }
            reach = reach.max(x);
        }
    }
    Axis {
        gaps,
        labels,
        // Compact, closer to the last column: the view that follows the present ends there.
        now_x: x.max(reach) + if room.words { 8 } else { 4 },
    }
}

/// Step bands: each from the end of the previous step to the end of its last column.
///
/// Packed, a band runs from its first column to the end of its widest, and may begin inside
/// the band before it: the current step's highlight then covers what it drew.
fn step_bands(cols: &[Column], cursor: usize, spacing: Spacing) -> Vec<StepBand> {
    let mut steps: Vec<StepBand> = Vec::new();
    let mut prev_end = LEFT;
    for c in cols {
        let end = (c.x0 + c.width).max(prev_end);
        match steps.last_mut() {
            Some(b) if b.step == c.step => b.x1 = b.x1.max(c.x0 + c.width),
            _ => steps.push(StepBand {
                step: c.step,
                // Packed, from just left of its first event: a verdict's words reach left
                // into the step before, and the current step's highlight must not claim
                // that step's events.
                x0: if spacing.packed() {
                    (c.x0 + c.first_centre() - spacing.room().advance / 2).max(c.x0)
                } else {
                    prev_end
                },
                x1: if spacing.packed() {
                    c.x0 + c.width
                } else {
                    end
                },
                current: c.step == cursor,
            }),
        }
        prev_end = end;
    }
    steps
}

/// Where an event is drawn: its x, its lane, whether it is of the current step, its step.
#[derive(Clone, Copy)]
struct At {
    x: i32,
    lane: Option<usize>,
    recent: bool,
    step: usize,
}

/// Phase 3: draws the events one by one into a timeline, keeping what is still open (bars,
/// messages on their way) until what ends it comes.
struct Painter<'a> {
    tl: Timeline,
    lanes: &'a [Lane],
    world: &'a World,
    cursor: usize,
    /// lock → (lane, bar)
    holders: VecMap<String, (usize, Open)>,
    /// lane → bar
    beliefs: VecMap<usize, Open>,
    status: VecMap<usize, (BarKind, Open)>,
    cutoff: VecMap<usize, Open>,
    /// lock → its lock-delay band on the coordinator's lane
    delays: VecMap<String, Open>,
    msgs: VecMap<u32, MsgStart>,
    /// Each resource's highest token as the events tell it, for verdicts that do not carry it.
    highest_now: VecMap<String, String>,
}

impl<'a> Painter<'a> {
    fn new(tl: Timeline, lanes: &'a [Lane], world: &'a World, cursor: usize) -> Self {
        Painter {
            tl,
            lanes,
            world,
            cursor,
            holders: VecMap::default(),
            beliefs: VecMap::default(),
            status: VecMap::default(),
            cutoff: VecMap::default(),
            delays: VecMap::default(),
            msgs: VecMap::default(),
            highest_now: VecMap::default(),
        }
    }

    fn lane_of(&self, name: &str) -> Option<usize> {
        self.lanes.iter().position(|l| l.name == name)
    }

    /// End an open bar at `x1` in step `step` (`usize::MAX`: still going at the present).
    fn close(&mut self, lane: usize, kind: BarKind, o: Open, x1: i32, step: usize) {
        let l = &self.lanes[lane];
        let (y, h) = match kind {
            BarKind::Holder => (holder_y(l), BAR_H),
            BarKind::Belief => (belief_y(l), BAR_H),
            // Above the coordinator's marks, whose labels are under them.
            BarKind::LockDelay => (l.axis - 10 - BAR_H, BAR_H),
            _ => (l.axis - 11, 22),
        };
        let cursor = self.cursor;
        self.tl.bars.push(Bar {
            lane,
            kind,
            lock: o.lock,
            x0: o.x0,
            x1: x1.max(o.x0 + 2),
            y,
            h,
            label: o.label,
            title: o.title,
            open: step == usize::MAX,
            recent: cursor > 0 && (o.step == cursor || step == cursor),
            text: None,
            room: Vec::new(),
        });
    }

    /// Make the open bars agree with a world: after each step, and at a window's left edge
    /// (where the world before the window says what was already going on).
    fn reconcile(&mut self, w: &World, xe: i32, s: usize) {
        for (name, l) in &w.coordinator().locks {
            match (
                l.delayed_until_local.is_some(),
                self.delays.contains_key(name.as_str()),
            ) {
                (true, false) => self.start_delay(name, xe, s),
                (false, true) => self.end_delay(name, xe, s),
                _ => {}
            }
            let truth = l
                .holder
                .as_ref()
                .and_then(|h| self.lane_of(&h.worker).map(|lane| (lane, h.token.short())));
            let ours = self
                .holders
                .get(name.as_str())
                .map(|(lane, o)| (*lane, o.key.clone()));
            if truth != ours {
                if let Some((lane, o)) = self.holders.remove(name.as_str()) {
                    self.close(lane, BarKind::Holder, o, xe, s);
                }
                if let Some((lane, t)) = truth {
                    let o = holder_open(xe, name, &self.lanes[lane].name, Some(&t), s);
                    self.holders.insert(name.to_string(), (lane, o));
                }
            }
        }
        for wk in w.workers() {
            let Some(l) = self.lane_of(&wk.name) else {
                continue;
            };
            // One belief bar per lane: the lease granted last.
            let truth = wk
                .leases
                .last()
                .filter(|_| wk.status != Status::Crashed)
                .map(|le| le.token.short());
            let ours = self.beliefs.get(&l).map(|o| o.key.clone());
            if truth != ours {
                if let Some(o) = self.beliefs.remove(&l) {
                    self.close(l, BarKind::Belief, o, xe, s);
                }
                if let (Some(t), Some(le)) = (truth, wk.leases.last()) {
                    let o = belief_open(xe, &le.lock, &wk.name, Some(&t), s);
                    self.beliefs.insert(l, o);
                }
            }
            let st = match wk.status {
                Status::Running => None,
                Status::Paused { .. } => Some(BarKind::Paused),
                Status::Crashed => Some(BarKind::Crashed),
            };
            if self.status.get(&l).map(|(k, _)| *k) != st {
                self.end_status(l, xe, s);
                if let Some(kind) = st {
                    let o = status_open(xe, kind, &wk.name, s);
                    self.status.insert(l, (kind, o));
                }
            }
            if wk.partitioned != self.cutoff.contains_key(&l) {
                match self.cutoff.remove(&l) {
                    Some(o) => self.close(l, BarKind::CutOff, o, xe, s),
                    None => {
                        let o = status_open(xe, BarKind::CutOff, &wk.name, s);
                        self.cutoff.insert(l, o);
                    }
                }
            }
        }
    }

    fn end_status(&mut self, lane: usize, x: i32, s: usize) {
        if let Some((kind, o)) = self.status.remove(&lane) {
            self.close(lane, kind, o, x, s);
        }
    }

    fn end_belief(&mut self, lane: usize, x: i32, s: usize) {
        if let Some(o) = self.beliefs.remove(&lane) {
            self.close(lane, BarKind::Belief, o, x, s);
        }
    }

    fn end_holder(&mut self, lock: &str, x: i32, s: usize) {
        if let Some((l, o)) = self.holders.remove(lock) {
            self.close(l, BarKind::Holder, o, x, s);
        }
    }

    /// A lock-delay begins: a band on the coordinator's lane until the lock is granted again.
    fn start_delay(&mut self, lock: &str, x: i32, s: usize) {
        if self.lane_of("coordinator").is_none() || self.delays.contains_key(lock) {
            return;
        }
        let o = Open {
            x0: x,
            lock: lock.to_string(),
            label: "lock-delay: no grant".into(),
            title: format!("lock-delay: its holder was lost, so the coordinator grants {lock} to nobody until the delay ends, for whatever the lost holder sent to land first"),
            step: s,
            key: String::new(),
        };
        self.delays.insert(lock.to_string(), o);
    }

    fn end_delay(&mut self, lock: &str, x: i32, s: usize) {
        if let (Some(o), Some(lane)) = (self.delays.remove(lock), self.lane_of("coordinator")) {
            self.close(lane, BarKind::LockDelay, o, x, s);
        }
    }

    fn end_all_holders(&mut self, x: i32, s: usize) {
        for (_, (l, o)) in std::mem::take(&mut self.holders) {
            self.close(l, BarKind::Holder, o, x, s);
        }
    }

    /// Draw one event; `later` are the events after it in its step.
    fn event(&mut self, e: &Event, later: &[Event], at: At) {
        use EventKind::*;
        match &e.kind {
            Sent { .. }
            | Delivered { .. }
            | LostAtCrashedNode { .. }
            | Dropped { .. }
            | Held { .. }
            | Released
            | Duplicated { .. } => self.message(e, at),
            WriteAccepted { .. }
            | WriteRejected { .. }
            | WriteReplayed { .. }
            | CheckPassed { .. } => self.verdict(e, at),
            Violation {
                kind,
                resource,
                detail,
            } => {
                if let Some(l) = at.lane {
                    // Beside the verdict it concerns, clear of the arrow coming in; a second
                    // violation of the same decision beside the first, not on it (where it
                    // could be neither seen nor hovered).
                    // Compact, under the verdict, where its words are in the full drawing:
                    // beside it is the next column's room.
                    let (mut x, y) = if self.tl.compact {
                        (at.x, self.lanes[l].axis + 30)
                    } else {
                        (at.x + 28, self.lanes[l].axis)
                    };
                    while self.tl.violations.iter().any(|v| v.y == y && v.x == x) {
                        x += 22;
                    }
                    self.tl.violations.push(ViolationMark {
                        x,
                        y,
                        resource: resource.to_string(),
                        kind: kind.as_str().to_string(),
                        explain: kind.explain().to_string(),
                        detail: detail.clone(),
                        tick: e.tick,
                        recent: at.recent,
                    });
                }
            }
            _ => {
                self.bars(e, later, at);
                if let (Some(l), Some((glyph, label, class))) = (at.lane, mark_of(e)) {
                    self.tl.marks.push(Mark {
                        x: at.x,
                        y: self.lanes[l].axis,
                        lane: Some(l),
                        glyph: glyph.into(),
                        label,
                        title: describe(e),
                        class,
                        recent: at.recent,
                        text: None,
                    });
                }
            }
        }
    }

    /// A message's events: its start, its end (an arrow), a hold or a copy on its way.
    fn message(&mut self, e: &Event, at: At) {
        use EventKind::*;
        let (x, s) = (at.x, at.step);
        let id = e.message.unwrap_or(0);
        match &e.kind {
            Sent { to, kind, what } => {
                // A worker lets go of its lease as it sends the release: its belief ends
                // there, not where the step's band ends (packed, that can be far right, past
                // the next owner's grant: a false "both believe").
                if *kind == MessageKind::Release {
                    if let Some(l) = self.lane_of(&e.actor) {
                        self.end_belief(l, x, s);
                    }
                }
                if let (Some(from), Some(to), Some(id)) =
                    (self.lane_of(&e.actor), self.lane_of(to), e.message)
                {
                    let m = MsgStart {
                        from,
                        to,
                        x0: x,
                        kind: *kind,
                        label: arrow_label(*kind, e),
                        what: what.clone(),
                        title: describe(e),
                        step: s,
                        holds: vec![],
                    };
                    self.msgs.insert(id, m);
                }
            }
            Delivered { .. } => {
                if let Some(m) = e.message.and_then(|id| self.msgs.remove(&id)) {
                    let ends = endpoints(self.lanes, m.from, m.to);
                    let recent = at.recent || m.step == self.cursor;
                    self.arrow(id, &m, x, ends, ArrowState::Delivered, recent);
                }
            }
            LostAtCrashedNode { .. } => {
                let arrows = self.tl.arrows.iter_mut().rev();
                if let Some(a) = arrows.into_iter().find(|a| Some(a.id) == e.message) {
                    a.state = ArrowState::Lost;
                    a.title = format!("{} — lost: the receiver has crashed", a.title);
                }
            }
            Dropped { why } => {
                if let Some(m) = e.message.and_then(|id| self.msgs.remove(&id)) {
                    // The ✕ is on the receiver's lane, on the side the message came
                    // from: it was addressed there and never arrived.
                    let (y0, _) = endpoints(self.lanes, m.from, m.to);
                    let (from, to) = (&self.lanes[m.from], &self.lanes[m.to]);
                    let ymid = drop_y(to, from.axis < to.axis);
                    let xd = x.max(m.x0 + 12);
                    let recent = at.recent || m.step == self.cursor;
                    self.arrow(id, &m, xd, (y0, ymid), ArrowState::Dropped, recent);
                    if let Some(a) = self.tl.arrows.last_mut() {
                        a.title = format!("{} — dropped ({why})", a.title);
                    }
                    self.tl.marks.push(Mark {
                        x: xd,
                        y: ymid,
                        lane: Some(m.to),
                        glyph: "✕".into(),
                        label: "dropped".into(),
                        title: describe(e),
                        class: "m-dropped",
                        recent: at.recent,
                        text: None,
                    });
                }
            }
            Held { .. } => {
                if let Some(m) = e.message.and_then(|id| self.msgs.get_mut(&id)) {
                    m.holds.push(x);
                }
            }
            Duplicated { copy } => {
                if let Some(m) = e.message.and_then(|id| self.msgs.get(&id)) {
                    let c = MsgStart {
                        from: m.from,
                        to: m.to,
                        x0: m.x0,
                        kind: m.kind,
                        label: m.label.clone(),
                        what: m.what.clone(),
                        title: format!("{} (copy #{copy}, duplicated at t={})", m.title, e.tick),
                        step: s,
                        holds: vec![x],
                    };
                    self.msgs.insert(*copy, c);
                }
            }
            _ => {}
        }
    }

    /// A message's arrow from where it started to `x1`, `(y0, y1)`, and a mark where the
    /// network held it on the way.
    fn arrow(
        &mut self,
        id: u32,
        m: &MsgStart,
        x1: i32,
        ys: (i32, i32),
        state: ArrowState,
        recent: bool,
    ) {
        let (y0, y1) = ys;
        self.tl.arrows.push(Arrow {
            id,
            x0: m.x0,
            y0,
            x1,
            y1,
            state,
            kind: arrow_class(m.kind).to_string(),
            label: m.label.clone(),
            title: m.title.clone(),
            recent,
            text: None,
        });
        // On the arrow where the hold was, but never past the sender's lane: a hold of A's
        // message drawn on B's lane (which the arrow crosses) read as B's.
        let sender = &self.lanes[m.from];
        let (top, bottom) = (sender.y + 8, sender.y + sender.h - 8);
        for &hx in &m.holds {
            // Held as it was sent: a little along its way, off the mark it leaves from (a ✎).
            let along = (x1 - m.x0).signum() * HELD_AWAY;
            let hx = if (hx - m.x0).abs() < HELD_AWAY && (x1 - m.x0).abs() > 2 * HELD_AWAY {
                m.x0 + along
            } else {
                hx
            };
            let f = if x1 == m.x0 {
                0.5
            } else {
                ((hx - m.x0) as f64 / (x1 - m.x0) as f64).clamp(0.0, 1.0)
            };
            let mut y = y0 + ((y1 - y0) as f64 * f) as i32;
            let mut x = hx.clamp(m.x0.min(x1), m.x0.max(x1));
            if y1 != y0 && !(top..=bottom).contains(&y) {
                y = y.clamp(top, bottom);
                x = m.x0 + ((x1 - m.x0) as f64 * (y - y0) as f64 / (y1 - y0) as f64) as i32;
            }
            self.tl.marks.push(Mark {
                x,
                y,
                lane: None,
                glyph: "‖".into(),
                label: String::new(),
                title: format!("held in the network: {}", m.what),
                class: "m-held",
                recent,
                text: None,
            });
        }
    }

    /// A resource's verdict on a write (or a check).
    fn verdict(&mut self, e: &Event, at: At) {
        use EventKind::*;
        let Some(l) = at.lane else { return };
        let tokstr = |t: &Option<crate::sim::token::Token>| {
            t.as_ref().map_or("none".to_string(), |t| t.short())
        };
        let known = |r: &str| {
            self.highest_now
                .get(r)
                .cloned()
                .unwrap_or_else(|| "none".into())
        };
        let (kind, outcome, highest) = match &e.kind {
            WriteAccepted {
                highest,
                no_op: true,
                ..
            } => (
                VerdictKind::NoOp,
                "accepted (no change)".to_string(),
                tokstr(highest),
            ),
            WriteAccepted { highest, .. } => (
                VerdictKind::Accepted,
                "accepted".to_string(),
                tokstr(highest),
            ),
            WriteRejected {
                reason, highest, ..
            } => (
                VerdictKind::Rejected,
                format!("rejected: {}", reason.as_str()),
                tokstr(highest),
            ),
            WriteReplayed { recorded, resource } => (
                VerdictKind::Replayed,
                format!("replayed ({recorded})"),
                known(resource),
            ),
            CheckPassed { resource, .. } => (
                VerdictKind::Checked,
                "check passed".to_string(),
                known(resource),
            ),
            _ => return,
        };
        if let WriteAccepted { resource, .. } | WriteRejected { resource, .. } = &e.kind {
            self.highest_now
                .insert(resource.to_string(), highest.clone());
        }
        let lane = &self.lanes[l];
        let res = self.world.resource(&lane.name);
        let fenced = res.is_some_and(|r| r.is_fenced());
        let kept = res.map_or("highest", |r| r.policy.kept_token());
        let highest = if fenced {
            highest
        } else {
            "— (tokens ignored)".to_string()
        };
        self.tl.verdicts.push(Verdict {
            x: at.x,
            y: lane.axis,
            resource: lane.name.clone(),
            kind,
            request: e.request.as_deref().unwrap_or_default().to_string(),
            token: e
                .token
                .as_ref()
                .map_or_else(|| "no token".into(), |t| t.short()),
            outcome,
            highest,
            kept,
            title: describe(e),
            recent: at.recent,
            words: !self.tl.compact,
        });
    }

    /// What an event starts or ends of the bars: leases held and believed, pauses, crashes,
    /// partitions; and the highest token a resource's fence or restore sets.
    fn bars(&mut self, e: &Event, later: &[Event], at: At) {
        use EventKind::*;
        let (x, s) = (at.x, at.step);
        let actor = self.lane_of(&e.actor);
        let tok = e.token.as_ref().map(|t| t.short());
        match &e.kind {
            LeaseGranted { lock, .. } => {
                // The grant message that follows names the new holder.
                let holder = later.iter().find_map(|n| match &n.kind {
                    Sent {
                        to,
                        kind: MessageKind::Grant,
                        ..
                    } if n.actor == "coordinator" && n.generation == e.generation => {
                        Some(to.clone())
                    }
                    _ => None,
                });
                self.end_holder(lock, x, s);
                self.end_delay(lock, x, s);
                if let Some(h) = holder.as_deref().and_then(|h| self.lane_of(h)) {
                    let o = holder_open(x, lock, &self.lanes[h].name, tok.as_deref(), s);
                    self.holders.insert(lock.to_string(), (h, o));
                }
            }
            LeaseExpired { lock, .. } => {
                self.end_holder(lock, x, s);
                let delayed = self.world.coordinator().locks.get(lock.as_str());
                if delayed.is_some_and(|l| l.lock_delay > 0) {
                    self.start_delay(lock, x, s);
                }
            }
            LeaseReleased { lock } | LeaseTakenOver { lock, .. } => self.end_holder(lock, x, s),
            // A lock-delay that ends with someone waiting ends with them told to ask again.
            WaitersNotified { lock, .. } => self.end_delay(lock, x, s),
            CoordinatorRestarted { persisted: false }
            | CoordinatorRestored
            | FailedOver { behind: true, .. } => self.end_all_holders(x, s),
            LeaseAcquired { lock, .. } => {
                if let Some(l) = actor {
                    self.end_belief(l, x, s);
                    let o = belief_open(x, lock, &e.actor, tok.as_deref(), s);
                    self.beliefs.insert(l, o);
                }
            }
            LeaseBeliefExpired { .. } | RenewalFailed { .. } => {
                if let Some(l) = actor {
                    self.end_belief(l, x, s);
                }
            }
            Crashed | Paused { .. } => {
                if let Some(l) = actor {
                    if matches!(e.kind, Crashed) {
                        self.end_belief(l, x, s);
                    }
                    let kind = if matches!(e.kind, Crashed) {
                        BarKind::Crashed
                    } else {
                        BarKind::Paused
                    };
                    self.end_status(l, x, s);
                    let o = status_open(x, kind, &e.actor, s);
                    self.status.insert(l, (kind, o));
                }
            }
            Resumed | Restarted => {
                if let Some(l) = actor {
                    self.end_status(l, x, s);
                }
            }
            Partitioned => {
                if let Some(l) = actor {
                    if !self.cutoff.contains_key(&l) {
                        let o = status_open(x, BarKind::CutOff, &e.actor, s);
                        self.cutoff.insert(l, o);
                    }
                }
            }
            Healed => {
                if let Some(l) = actor {
                    if let Some(o) = self.cutoff.remove(&l) {
                        self.close(l, BarKind::CutOff, o, x, s);
                    }
                }
            }
            FenceRegistered {
                highest, resource, ..
            }
            | ResourceRestored {
                highest, resource, ..
            } => {
                let h = highest.as_ref().map_or("none".to_string(), |t| t.short());
                self.highest_now.insert(resource.to_string(), h);
            }
            _ => {}
        }
    }

    /// Phase 4: end at the present what is still going on (bars, messages in flight).
    fn finish(mut self) -> Timeline {
        let (now_x, now) = (self.tl.now_x, self.tl.now_tick);
        let open = usize::MAX;
        self.end_all_holders(now_x, open);
        for (l, o) in std::mem::take(&mut self.beliefs) {
            self.close(l, BarKind::Belief, o, now_x, open);
        }
        for (l, (kind, o)) in std::mem::take(&mut self.status) {
            self.close(l, kind, o, now_x, open);
        }
        for (l, o) in std::mem::take(&mut self.cutoff) {
            self.close(l, BarKind::CutOff, o, now_x, open);
        }
        if let Some(lane) = self.lane_of("coordinator") {
            for (_, o) in std::mem::take(&mut self.delays) {
                self.close(lane, BarKind::LockDelay, o, now_x, open);
            }
        }
        for env in &self.world.network().in_flight {
            let Some(m) = self.msgs.remove(&env.id) else {
                continue;
            };
            let (y0, y1) = endpoints(self.lanes, m.from, m.to);
            let held = env.is_held(now);
            let frac = if held {
                0.5
            } else {
                let total = env.due_at.saturating_sub(env.sent_at).max(1) as f64;
                (now.saturating_sub(env.sent_at) as f64 / total).clamp(0.2, 0.8)
            };
            let y = y0 + ((y1 - y0) as f64 * frac) as i32;
            let state = if held {
                ArrowState::Held
            } else {
                ArrowState::InFlight
            };
            self.arrow(env.id, &m, now_x, (y0, y), state, true);
            if let Some(a) = self.tl.arrows.last_mut() {
                a.title = format!(
                    "{} — {} (due t={})",
                    a.title,
                    if held { "held" } else { "in flight" },
                    env.due_at
                );
                a.recent = m.step == self.cursor;
            }
        }
        self.tl
    }
}

/// The mark an event puts on its lane, if any: (glyph, label, class). The label may be empty
/// (the glyph and the tooltip say enough).
fn mark_of(e: &Event) -> Option<(&'static str, String, &'static str)> {
    use EventKind::*;
    let tok = e.token.as_ref().map(|t| t.short());
    let short =
        |t: &Option<crate::sim::token::Token>| t.as_ref().map_or("none".to_string(), |t| t.short());
    let none = String::new;
    Some(match &e.kind {
        LeaseGranted { .. } => (
            "◆",
            format!("grant {}", tok.as_deref().unwrap_or("")),
            "m-grant",
        ),
        LeaseExpired { holder, .. } => ("◷", format!("expire {holder}"), "m-expire"),
        LeaseTakenOver { holder, .. } => ("⇥", format!("end {holder}'s"), "m-expire"),
        TokenBumped { .. } => (
            "◇",
            format!("bump {}", tok.as_deref().unwrap_or("")),
            "m-grant",
        ),
        LeaseReleased { .. } => ("⇡", none(), "m-minor"),
        CoordinatorRestarted { persisted: true } => ("↻", "restart".into(), "m-node"),
        CoordinatorRestarted { persisted: false } => ("↻", "restart, state lost".into(), "m-node"),
        CoordinatorRestored => ("↺", "restored".into(), "m-node"),
        CoordinatorBackedUp | ResourceBackedUp { .. } => ("▤", "backup".into(), "m-minor"),
        FailedOver { replica, behind } => {
            let behind = if *behind { ", behind" } else { "" };
            (
                "⇄",
                format!("fail-over → {}{behind}", replica + 1),
                "m-node",
            )
        }
        FenceRetried { .. } => ("▣", "fence again".into(), "m-warn"),
        ReplyIgnored { kind, .. } => ("∅", format!("ignored {}", kind.word()), "m-minor"),
        FenceStarted { .. } => ("▣", "fence first".into(), "m-minor"),
        LeaseRenewed { .. } => ("⊕", none(), "m-minor"),
        RenewalDenied { .. } => ("⊘", none(), "m-warn"),
        WaitersNotified { .. } => ("⋯", "free: ask again".into(), "m-minor"),
        AcquireQueued { .. } => ("⋯", none(), "m-minor"),
        RenewalFailed { .. } => ("⊘", "renewal failed".into(), "m-warn"),
        Prepared { .. } => {
            let label = format!(
                "{} · {}",
                e.request.as_deref().unwrap_or("write"),
                tok.as_deref().unwrap_or("no token")
            );
            ("✎", label, "m-prepare")
        }
        ClockJumped { by, .. } => ("◔", format!("clock {by:+}"), "m-warn"),
        FenceRegistered { highest, .. } => ("▣", format!("fence → {}", short(highest)), "m-minor"),
        ResourceRestored { highest, .. } => {
            ("↺", format!("restored, hi {}", short(highest)), "m-node")
        }
        ResourceRestarted { .. } => ("↻", "restart".into(), "m-node"),
        _ => return None,
    })
}

/// A window's messages that were sent before it and are still in flight at its start: they
/// enter from the left edge, labelled as when they were sent.
fn seed_in_flight(
    run: &Run,
    before: &World,
    first: usize,
    lanes: &[Lane],
    msgs: &mut VecMap<u32, MsgStart>,
    highest_now: &mut VecMap<String, String>,
) {
    let lane_of = |name: &str| lanes.iter().position(|l| l.name == name);
    let sent = |id: u32| {
        (1..first)
            .rev()
            .flat_map(|s| run.step_events(s).iter().rev())
            .find_map(|e| match &e.kind {
                EventKind::Sent { to, kind, what } if e.message == Some(id) => {
                    Some((e, to, *kind, what))
                }
                _ => None,
            })
    };
    for env in &before.network().in_flight {
        // A copy is labelled as the message it copies.
        let original = (1..first)
            .rev()
            .flat_map(|s| run.step_events(s).iter().rev())
            .find_map(|e| match e.kind {
                EventKind::Duplicated { copy } if copy == env.id => e.message,
                _ => None,
            });
        let Some((e, to, kind, what)) = sent(env.id).or_else(|| original.and_then(sent)) else {
            continue;
        };
        if let (Some(from), Some(to)) = (lane_of(&e.actor), lane_of(to)) {
            msgs.insert(
                env.id,
                MsgStart {
                    from,
                    to,
                    x0: BEFORE_X,
                    kind,
                    label: arrow_label(kind, e),
                    what: what.clone(),
                    title: describe(e),
                    step: first - 1,
                    holds: vec![],
                },
            );
        }
    }
    for r in before.resources() {
        let h = r
            .data
            .highest
            .as_ref()
            .map_or("none".to_string(), |t| t.short());
        highest_now.insert(r.name.to_string(), h);
    }
}

/// Messages still in flight all end at "now": move their ends apart so their labels do not
/// print over each other.
fn spread_pending(arrows: &mut [Arrow]) {
    // Kept in order as they are found (a handful), not sorted after: a sort of its own
    // would be one more copy of the standard sort in the page's WASM.
    let mut pending: Vec<(i32, u32, usize)> = Vec::new();
    for (i, a) in arrows.iter().enumerate() {
        if matches!(a.state, ArrowState::InFlight | ArrowState::Held) {
            let k = (a.y1, a.id, i);
            pending.insert(pending.partition_point(|p| *p < k), k);
        }
    }
    let pending = pending.into_iter().map(|(_, _, i)| i);
    let mut last = i32::MIN / 2;
    for i in pending {
        if arrows[i].y1 < last + 16 {
            arrows[i].y1 = last + 16;
        }
        last = arrows[i].y1;
    }
}

fn thin_labels(labels: Vec<TickLabel>) -> Vec<TickLabel> {
    let mut out: Vec<TickLabel> = Vec::new();
    for l in labels {
        if out.last().is_none_or(|p| l.x - p.x >= 34) {
            out.push(l);
        }
    }
    out
}

fn endpoints(lanes: &[Lane], from: usize, to: usize) -> (i32, i32) {
    let (a, b) = (lanes[from].axis, lanes[to].axis);
    // Stop short of a verdict glyph on the receiving axis.
    let pad = if lanes[to].kind == LaneKind::Resource {
        12
    } else {
        3
    };
    let y1 = if b > a {
        b - pad
    } else if b < a {
        b + pad
    } else {
        b
    };
    (a, y1)
}

/// Where a dropped message's ✕ sits on its receiver's lane: between the lane's edge it came
/// from and its axis, in the room the lane leaves free there.
fn drop_y(l: &Lane, from_above: bool) -> i32 {
    match (l.kind, from_above) {
        // Below the lease bars and the overlap stripe, above a status band.
        (LaneKind::Worker, true) => l.axis - 13,
        (LaneKind::Worker, false) => l.axis + 22,
        (LaneKind::Coordinator, true) => l.y + 12,
        (LaneKind::Coordinator, false) => l.axis + 22,
        (LaneKind::Resource, true) => l.y + 12,
        // Below the verdicts' lines.
        (LaneKind::Resource, false) => l.y + l.h - 10,
    }
}

/// The arrow's class (and its CSS): one word per kind of message.
fn arrow_class(kind: MessageKind) -> &'static str {
    match kind {
        MessageKind::Acquire => "acquire",
        MessageKind::Grant => "grant",
        MessageKind::Available => "available",
        MessageKind::Renew => "renew",
        MessageKind::Renewed => "renewed",
        MessageKind::RenewDenied => "renewal",
        MessageKind::Release => "release",
        MessageKind::Write => "write",
        MessageKind::Reply => "reply",
        MessageKind::Fence | MessageKind::FenceAck => "fence",
    }
}

/// Writes carry the story (`A1 · 41`), and fences their token (`fence 41`); a grant is
/// labelled on the coordinator's lane already, the rest need no label.
fn arrow_label(kind: MessageKind, sent: &Event) -> String {
    let tok = sent.token.as_ref().map(|t| t.short());
    match kind {
        MessageKind::Write => format!(
            "{} · {}",
            sent.request.as_deref().unwrap_or(""),
            tok.as_deref().unwrap_or("no token")
        ),
        MessageKind::Fence | MessageKind::FenceAck => format!("fence {}", tok.unwrap_or_default()),
        _ => String::new(),
    }
}

fn holder_open(x: i32, lock: &str, worker: &str, tok: Option<&str>, step: usize) -> Open {
    let t = tok.unwrap_or("?");
    Open {
        x0: x,
        lock: lock.to_string(),
        label: format!("coordinator: {worker} holds {t}"),
        title: format!("The coordinator's view: {worker} holds {lock} with token {t} (until it expires by the coordinator's clock)"),
        step,
        key: t.to_string(),
    }
}

fn belief_open(x: i32, lock: &str, worker: &str, tok: Option<&str>, step: usize) -> Open {
    let t = tok.unwrap_or("?");
    Open {
        x0: x,
        lock: lock.to_string(),
        label: format!("{worker} believes: {t}"),
        title: format!("{worker}'s own belief: it holds {lock} with token {t} (judged by its own clock, and only while it runs)"),
        step,
        key: t.to_string(),
    }
}

fn status_open(x: i32, kind: BarKind, worker: &str, step: usize) -> Open {
    let (label, title) = match kind {
        BarKind::Paused => ("❚❚ paused", format!("{worker} is paused (stop-the-world): it executes nothing, but keeps its state and its belief")),
        BarKind::Crashed => ("✕ crashed", format!("{worker} has crashed: its lease and prepared work are gone")),
        _ => ("cut off", format!("{worker} is cut off from the coordinator")),
    };
    Open {
        x0: x,
        lock: String::new(),
        label: label.into(),
        title,
        step,
        key: String::new(),
    }
}

/// An event as a tooltip: `t=12 · coordinator grants report-lock… [token 42]`.
pub fn describe(e: &Event) -> String {
    let described = matches!(e.kind, EventKind::Sent { .. } | EventKind::Delivered { .. });
    let tok = match &e.token {
        Some(t) if !described => format!(" [token {t}]"),
        _ => String::new(),
    };
    let actor = if e.actor == "network" {
        "the network".to_string()
    } else {
        e.actor.to_string()
    };
    format!("t={} · {actor} {}{tok}", e.tick, e.kind)
}

/// Overlapping beliefs: where two workers' belief bars on the same lock cover the same x.
fn overlaps(tl: &Timeline, lanes: &[Lane]) -> Vec<OverlapMark> {
    let beliefs: Vec<&Bar> = tl
        .bars
        .iter()
        .filter(|b| b.kind == BarKind::Belief)
        .collect();
    let mut out = Vec::new();
    for (i, a) in beliefs.iter().enumerate() {
        for b in &beliefs[i + 1..] {
            if a.lane == b.lane || a.lock != b.lock {
                continue;
            }
            let (x0, x1) = (a.x0.max(b.x0), a.x1.min(b.x1));
            if x1 <= x0 {
                continue;
            }
            let (na, nb) = (&lanes[a.lane].name, &lanes[b.lane].name);
            let title = format!(
                "Overlap: {na} and {nb} both believe they hold {} here — the lease alone cannot stop the older one",
                a.lock
            );
            for bar in [a, b] {
                let l = &lanes[bar.lane];
                out.push(OverlapMark {
                    lane: bar.lane,
                    x0,
                    x1,
                    y: overlap_y(l),
                    h: 9,
                    title: title.clone(),
                    text: None,
                });
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Text: what every piece of text on the diagram measures, for laying labels out apart

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    /// The SVG `text-anchor` value.
    pub fn as_str(&self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// A piece of text placed on the diagram: its class (which sets its font, static/style.css),
/// its baseline point and anchor, and its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    pub class: &'static str,
    pub x: i32,
    pub y: i32,
    pub anchor: Anchor,
    pub body: String,
}

/// The font of a text class: (size in px, bold), as static/style.css sets it.
pub fn font_of(class: &str) -> (f64, bool) {
    match class {
        "arrow-label" | "pending-label" | "bar-text" => (10.5, true),
        "mark-label" => (10.0, false),
        "band-text" | "now-label" | "v-line v-outcome" => (11.0, true),
        "label" => (9.0, true),
        "step-no current" => (12.0, true),
        _ => (11.0, false),
    }
}

/// The width of `body` in a font of `size` px: each character's advance estimated from its
/// shape (the font is the system's sans-serif, so no exact metrics are known here), with a
/// little to spare rather than too little.
pub fn text_width(body: &str, size: f64, bold: bool) -> i32 {
    // Advances in em, about those of DejaVu Sans (a wide sans-serif, and Linux's usual one):
    // measured in Chromium, these estimates come within a few percent of it, a little over;
    // narrower fonts (Arial, Helvetica, Segoe UI) get room to spare.
    let em: f64 = body
        .chars()
        .map(|c| match c {
            '\'' | 'i' | 'l' | 'j' | 'I' => 0.29,
            ' ' | '.' | ',' | ':' | ';' | '|' | '·' | '/' => 0.33,
            '!' | 'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' => 0.41,
            'm' => 0.98,
            'w' | 'M' => 0.87,
            'W' => 0.99,
            '0'..='9' => 0.64,
            '+' | '=' | '#' => 0.84,
            's' | 'z' | 'c' | '?' | '_' => 0.56,
            'a'..='z' => 0.63,
            'A'..='Z' => 0.72,
            c if c.is_ascii() => 0.63,
            _ => 1.0,
        })
        .sum();
    let w = em * size * if bold { 1.12 } else { 1.0 } * 1.03;
    w.ceil() as i32
}

/// A text's box on the diagram, with the white halo labels are drawn with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextBox {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
    pub class: &'static str,
    pub body: String,
}

impl TextBox {
    pub fn of(t: &Text) -> TextBox {
        let (size, bold) = font_of(t.class);
        let w = text_width(&t.body, size, bold);
        let x0 = match t.anchor {
            Anchor::Start => t.x,
            Anchor::Middle => t.x - w / 2,
            Anchor::End => t.x - w,
        };
        TextBox {
            x0: x0 - 1,
            x1: x0 + w + 1,
            y0: t.y - (size * 0.78).ceil() as i32,
            y1: t.y + (size * 0.24).ceil() as i32,
            class: t.class,
            body: t.body.clone(),
        }
    }

    pub fn overlaps(&self, o: &TextBox) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    /// A bar's own text, or a verdict's lines: what labels must keep off.
    pub fn is_fixed(&self) -> bool {
        matches!(self.class, "bar-text" | "band-text") || self.class.starts_with("v-line")
    }
}

fn text(class: &'static str, x: i32, y: i32, anchor: Anchor, body: String) -> Text {
    Text {
        class,
        x,
        y,
        anchor,
        body,
    }
}

/// A tick's label on the ruler.
pub fn tick_text(k: &TickLabel) -> Text {
    text(
        "tick-label",
        k.x + 2,
        RULER_H - 10,
        Anchor::Start,
        format!("t={}", k.tick),
    )
}

/// The present's label on the ruler: right of the "now" line, or compact left of it where
/// there is room (over the last ticks' labels, which give way), so that the view need not
/// reach past it.
pub fn now_text(tl: &Timeline) -> Text {
    let body = format!("now t={}", tl.now_tick);
    let left = text("now-label", tl.now_x - 4, RULER_H - 12, Anchor::End, body);
    let at = TextBox::of(&left);
    let gap = |g: &Gap| TextBox::of(&g.text()).overlaps(&at);
    if tl.compact && at.x0 >= 2 && !tl.gaps.iter().any(gap) {
        return left;
    }
    text(
        "now-label",
        tl.now_x + 4,
        RULER_H - 12,
        Anchor::Start,
        left.body,
    )
}

/// A rectangle that labels had better keep off (a bar, a glyph), though they may cover it.
#[derive(Clone, Copy)]
struct Rect(i32, i32, i32, i32);

impl Rect {
    fn hits(&self, b: &TextBox) -> bool {
        self.0 < b.x1 && b.x0 < self.2 && self.1 < b.y1 && b.y0 < self.3
    }
    fn around(x: i32, y: i32, r: i32) -> Rect {
        Rect(x - r, y - r, x + r, y + r)
    }
}

/// Whether a message's arrow, the segment from (x0, y0) to (x1, y1), runs through the box `b`
/// (its halo aside: a line may touch a text's white rim).
fn crosses(&Rect(x0, y0, x1, y1): &Rect, b: &TextBox) -> bool {
    let (bx0, by0, bx1, by1) = (b.x0 + 1, b.y0 + 1, b.x1 - 1, b.y1 - 1);
    if x0.max(x1) <= bx0 || x0.min(x1) >= bx1 || y0.max(y1) <= by0 || y0.min(y1) >= by1 {
        return false;
    }
    // Corners strictly on both sides of the line: it runs through.
    let side = |x: i32, y: i32| {
        ((x1 - x0) as i64 * (y - y0) as i64 - (y1 - y0) as i64 * (x - x0) as i64).signum()
    };
    let s = [
        side(bx0, by0),
        side(bx1, by0),
        side(bx0, by1),
        side(bx1, by1),
    ];
    s.iter().any(|&v| v > 0) && s.iter().any(|&v| v < 0)
}

/// Boxes bucketed by x, so that finding what a box hits looks at its neighbours only (a long
/// run's full layout places thousands of labels).
struct Grid<T> {
    cells: Vec<Vec<T>>,
}

const CELL: i32 = 128;

impl<T: Clone> Grid<T> {
    fn new() -> Self {
        Grid { cells: Vec::new() }
    }
    fn span(x0: i32, x1: i32) -> std::ops::RangeInclusive<usize> {
        (x0.max(0) / CELL) as usize..=(x1.max(0) / CELL) as usize
    }
    fn insert(&mut self, x0: i32, x1: i32, t: T) {
        let r = Self::span(x0, x1);
        if self.cells.len() <= *r.end() {
            self.cells.resize(r.end() + 1, Vec::new());
        }
        for i in r {
            self.cells[i].push(t.clone());
        }
    }
    fn any(&self, x0: i32, x1: i32, f: impl Fn(&T) -> bool) -> bool {
        Self::span(x0, x1).any(|i| self.cells.get(i).is_some_and(|c| c.iter().any(&f)))
    }
    fn each(&self, x0: i32, x1: i32, mut f: impl FnMut(&T)) {
        for i in Self::span(x0, x1) {
            self.cells.get(i).into_iter().flatten().for_each(&mut f);
        }
    }
}

/// The text forms of a bar's label, longest first: a short bar shows a shorter one.
fn bar_forms(b: &Bar) -> Vec<String> {
    let mut v = vec![b.label.clone()];
    let last = b.label.rsplit(' ').next().unwrap_or("").to_string();
    match b.kind {
        BarKind::Holder => {
            if let Some(r) = b.label.strip_prefix("coordinator: ") {
                v.push(r.to_string());
            }
            v.push(last);
        }
        BarKind::Belief => v.push(last),
        BarKind::Paused | BarKind::Crashed => {
            v.push(b.label.split(' ').next().unwrap_or("").to_string())
        }
        BarKind::CutOff => {}
        // "lock-delay", then nothing.
        BarKind::LockDelay => v.push(b.label.trim_end_matches(": no grant").to_string()),
    }
    v.retain(|s| !s.is_empty());
    v
}

/// Lay every label out where it is clear of every other text: the bars' own text and the
/// verdicts' lines stay where they belong (a bar shows a shorter form of its label, or none,
/// when the whole does not fit in it); labels of messages and marks take the first of a few
/// places near what they label that collides with no text and stays inside the drawing —
/// preferring places off bars and glyphs too — and an identical label where another already
/// says the same is left out. Messages in flight may widen the drawing for their labels.
fn place_texts(tl: &mut Timeline) {
    // The ruler: a tick label under the present's label gives way to it.
    let now = TextBox::of(&now_text(tl));
    tl.ticks
        .retain(|k| !TextBox::of(&tick_text(k)).overlaps(&now));

    let mut p = Placer::new(tl);
    for b in tl.bars.iter_mut() {
        b.text = p.bar_text(b);
    }
    for o in tl.overlaps.iter_mut() {
        o.text = p.overlap_text(o);
    }
    // Labels that can move: the first clear place of their candidates. Messages in flight
    // first, labelled at their heads by "now"; then marks; then delivered messages.
    // Compact, none past "now", where the view that follows the present ends.
    let right = tl.now_x + if tl.compact { -2 } else { RIGHT_PAD };
    for a in tl.arrows.iter_mut().filter(|a| a.pending()) {
        a.text = p.place(pending_places(a, tl.compact), i32::MAX, false);
    }
    // Compact, marks are close together: a mark's label over another's glyph is left out.
    for m in tl.marks.iter_mut().filter(|m| !m.label.is_empty()) {
        m.text = p.place(mark_places(m, tl.compact), right, tl.compact);
    }
    for a in tl.arrows.iter_mut() {
        if !a.label.is_empty() && !a.pending() {
            a.text = p.place(arrow_places(a, tl.compact), right, false);
        }
    }
    tl.width = tl.width.max(p.widest + 6);
    for b in tl.bars.iter_mut() {
        b.room = p.room(b);
    }
}

/// Where a message in flight's label may go: beside its head, then further above and below.
/// Compact, only what it is (the dashed arrow says it is on its way, and its tooltip says it
/// in words), left of its head first, so that the view need not reach past the present.
fn pending_places(a: &Arrow, compact: bool) -> Vec<Text> {
    let what = if a.label.is_empty() {
        a.kind.clone()
    } else {
        a.label.clone()
    };
    let p = if a.state == ArrowState::Held {
        "‖ held"
    } else {
        "in flight"
    };
    let body = if compact {
        what
    } else {
        format!("{p}: {what}")
    };
    let mut places = Vec::new();
    if compact {
        for dy in [0, -13, 13, -26, 26] {
            places.push((a.x1 - 7, dy, Anchor::End));
        }
    }
    for dy in [0, -13, 13, -26, 26, -39, 39] {
        places.push((a.x1 + 7, dy, Anchor::Start));
    }
    places
        .into_iter()
        .map(|(x, dy, anchor)| text("pending-label", x, a.y1 + 4 + dy, anchor, body.clone()))
        .collect()
}

/// Where a mark's label may go: below, beside, above.
fn mark_places(m: &Mark, compact: bool) -> Vec<Text> {
    use Anchor::*;
    // (dx, dy, anchor, drawn full only). Full, a ✎'s writes leave from it, down or up: below
    // it still, beside them, before beside it (on its lane's line).
    const PLACES: [(i32, i32, Anchor, bool); 17] = [
        (0, 22, Middle, false),
        (-7, 22, End, true),
        (7, 22, Start, true),
        (13, 4, Start, false),
        (-13, 4, End, false),
        (0, -14, Middle, false),
        (-8, 22, Start, false),
        (8, 22, End, false),
        (12, 19, Start, false),
        (-12, 19, End, false),
        (12, -10, Start, false),
        (-12, -10, End, false),
        (0, 34, Middle, false),
        (-7, -14, End, true),
        (7, -14, Start, true),
        (-14, 30, End, true),
        (14, 30, Start, true),
    ];
    PLACES
        .iter()
        .filter(|p| !(compact && p.3))
        .map(|&(dx, dy, a, _)| text("mark-label", m.x + dx, m.y + dy, a, m.label.clone()))
        .collect()
}

/// Where a delivered message's label may go: along the arrow, near the sender first (a
/// quarter of the way), either side. Compact, near the sender only: there a steep arrow's
/// middle is a lane or two away, beside other messages.
fn arrow_places(a: &Arrow, compact: bool) -> Vec<Text> {
    use Anchor::*;
    let along: &[i32] = if compact {
        &[25, 15, 35, 8]
    } else {
        &[25, 35, 15, 45, 55, 65, 8, 75, 85]
    };
    // Beside the arrow; then, full, off it (a shallow arrow runs through a label beside it):
    // above, below, diagonally.
    let beside = [(6, 4, Start), (-6, 4, End)];
    let off = [
        (0, -6, Middle),
        (0, 15, Middle),
        (6, -6, Start),
        (-6, 15, End),
        (6, 15, Start),
        (-6, -6, End),
    ];
    let sets: &[&[(i32, i32, Anchor)]] = if compact {
        &[&beside]
    } else {
        &[&beside, &off]
    };
    let mut cands = Vec::new();
    for set in sets {
        for &f in along {
            let px = a.x0 + (a.x1 - a.x0) * f / 100;
            let py = a.y0 + (a.y1 - a.y0) * f / 100;
            for &(dx, dy, anchor) in *set {
                cands.push(text(
                    "arrow-label",
                    px + dx,
                    py + dy,
                    anchor,
                    a.label.clone(),
                ));
            }
        }
    }
    cands
}

/// What the labels laid out so far take, and what they had better keep off.
struct Placer {
    /// Texts placed: nothing may print over them.
    hard: Grid<TextBox>,
    /// Bars and glyphs: a label may cover them, if it must.
    soft: Grid<Rect>,
    /// The labels that could move, placed: one saying the same words nearby is left out.
    movable: Grid<TextBox>,
    /// Messages' arrows, as segments: a text had better not be crossed by one.
    lines: Grid<Rect>,
    /// The right end of the widest text.
    widest: i32,
    top: i32,
    bottom: i32,
}

impl Placer {
    /// The verdicts' lines, fixed, and the shapes labels keep off.
    fn new(tl: &Timeline) -> Placer {
        let mut p = Placer {
            hard: Grid::new(),
            soft: Grid::new(),
            movable: Grid::new(),
            lines: Grid::new(),
            widest: 0,
            top: RULER_H + 1,
            bottom: tl.height - 1,
        };
        for v in &tl.verdicts {
            for t in v.drawn_lines() {
                p.keep(TextBox::of(&t));
            }
        }
        let mut avoid = |r: Rect| p.soft.insert(r.0, r.2, r);
        for b in &tl.bars {
            avoid(Rect(b.x0, b.y, b.x1, b.y + b.h));
        }
        for m in &tl.marks {
            avoid(Rect::around(m.x, m.y, 10));
        }
        for v in &tl.verdicts {
            avoid(Rect::around(v.x, v.y, 13));
        }
        for v in &tl.violations {
            avoid(Rect::around(v.x, v.y, 13));
        }
        for a in tl.arrows.iter().filter(|a| a.pending()) {
            avoid(Rect::around(a.x1, a.y1, 5));
        }
        // Compact, labels are few and close to what they name (their places are fewer, and
        // the view that follows the present is measured by them): arrows are not avoided.
        for a in tl.arrows.iter().filter(|_| !tl.compact) {
            let s = Rect(a.x0, a.y0, a.x1, a.y1);
            p.lines.insert(a.x0.min(a.x1), a.x0.max(a.x1), s);
        }
        p
    }

    /// Whether a message's arrow runs through `b`.
    fn crossed(&self, b: &TextBox) -> bool {
        self.lines.any(b.x0, b.x1, |s| crosses(s, b))
    }

    fn keep(&mut self, b: TextBox) {
        self.widest = self.widest.max(b.x1);
        self.hard.insert(b.x0, b.x1, b);
    }

    fn hits(&self, b: &TextBox) -> bool {
        self.hard.any(b.x0, b.x1, |h| h.overlaps(b))
    }

    /// A bar's own text: inside the bar, clear of any other text, and of the marks drawn over
    /// the bar when it can be. A bar still going is named at its right end, by the present
    /// (what the view follows: its start may be scrolled out of sight); an ended one at its
    /// start.
    fn bar_text(&mut self, b: &Bar) -> Option<Text> {
        let class = match b.kind {
            BarKind::Holder | BarKind::Belief => "bar-text",
            _ => "band-text",
        };
        let y = b.y + b.h / 2 + 4;
        let mut ends = [(b.x0 + 5, Anchor::Start), (b.x1 - 5, Anchor::End)];
        if b.open {
            ends.reverse();
        }
        let mut cands = Vec::new();
        for body in bar_forms(b) {
            for (x, anchor) in ends {
                cands.push(text(class, x, y, anchor, body.clone()));
            }
        }
        let fits = |t: &Text| {
            let bx = TextBox::of(t);
            bx.x0 >= b.x0 && bx.x1 <= b.x1 && !self.hits(&bx)
        };
        let glyphs = |t: &Text| {
            let bx = TextBox::of(t);
            self.soft.any(bx.x0, bx.x1, |r| {
                r.hits(&bx) && !(r.0 == b.x0 && r.2 == b.x1 && r.1 == b.y)
            })
        };
        // Off arrows first (a line through words is what shows most), then off glyphs.
        let pick = (0..cands.len())
            .filter(|&i| fits(&cands[i]))
            .min_by_key(|&i| {
                let t = &cands[i];
                (self.crossed(&TextBox::of(t)), glyphs(t), i)
            })?;
        self.keep(TextBox::of(&cands[pick]));
        Some(cands.swap_remove(pick))
    }

    /// `⚠ both believe` on an overlap, when it fits.
    fn overlap_text(&mut self, o: &OverlapMark) -> Option<Text> {
        let t = text(
            "label",
            o.x0 + 4,
            o.y + o.h - 2,
            Anchor::Start,
            "⚠ both believe".into(),
        );
        let bx = TextBox::of(&t);
        (bx.x1 <= o.x1 && !self.hits(&bx)).then(|| {
            self.keep(bx);
            t
        })
    }

    /// The first of `cands` that is clear of every text and inside the drawing (`limit` its
    /// right end), preferring one off bars and glyphs too (`clear_only`: only one off them); none
    /// if the first says what is already said there.
    fn place(&mut self, cands: Vec<Text>, limit: i32, clear_only: bool) -> Option<Text> {
        let first = TextBox::of(cands.first()?);
        if self.movable.any(first.x0, first.x1, |m| {
            m.body == first.body && m.overlaps(&first)
        }) {
            return None;
        }
        let boxes: Vec<TextBox> = cands.iter().map(TextBox::of).collect();
        let ok = |b: &TextBox| {
            b.x0 >= 2 && b.x1 <= limit && b.y0 >= self.top && b.y1 <= self.bottom && !self.hits(b)
        };
        let clear = |b: &TextBox| !self.soft.any(b.x0, b.x1, |r| r.hits(b));
        // Off arrows first, then off bars and glyphs.
        let pick = (0..cands.len())
            .filter(|&i| ok(&boxes[i]) && (!clear_only || clear(&boxes[i])))
            .min_by_key(|&i| (self.crossed(&boxes[i]), !clear(&boxes[i]), i))?;
        let b = boxes[pick].clone();
        self.movable.insert(b.x0, b.x1, b.clone());
        self.keep(b);
        Some(cands[pick].clone())
    }

    /// Where a bar's text could slide: its row minus every other text on it.
    fn room(&self, b: &Bar) -> Vec<(i32, i32)> {
        let mut room = Vec::new();
        let Some(own) = b.text.as_ref().map(TextBox::of) else {
            return room;
        };
        // In order as found (see `spread_pending`: no sort of its own).
        let mut taken: Vec<(i32, i32)> = Vec::new();
        self.hard.each(b.x0, b.x1, |h| {
            if *h != own && h.y0 < own.y1 && own.y0 < h.y1 && h.x0 < b.x1 && b.x0 < h.x1 {
                let k = (h.x0, h.x1);
                taken.insert(taken.partition_point(|t| *t < k), k);
            }
        });
        let mut x = b.x0;
        for (a, z) in taken {
            if a > x {
                room.push((x, a));
            }
            x = x.max(z);
        }
        if x < b.x1 {
            room.push((x, b.x1));
        }
        room
    }
}

/// How far right a view that follows the present must reach: past "now" and its label, and
/// past the labels of the messages still in flight, whole.
pub fn follow_right(tl: &Timeline) -> i32 {
    let now = TextBox::of(&now_text(tl)).x1;
    let pending = tl
        .arrows
        .iter()
        .filter_map(|a| a.text.as_ref())
        .filter(|t| t.class == "pending-label")
        .map(|t| TextBox::of(t).x1)
        .max()
        .unwrap_or(0);
    (now.max(pending) + 8).min(tl.width)
}

/// Where a view `view` px wide that follows the present begins: its right edge at
/// `follow_right`, moved right (into the empty room past the present, at most a quarter of
/// the view and to the end of the drawing) just enough that its left edge, and the fade there,
/// cut no text, when it can be. Failing that — a narrow view, where the present step's own
/// verdicts would be cut — moved left, keeping the "now" line in view, to the nearest place
/// that cuts nothing at the left edge: the labels of messages in flight, and of "now", are
/// the ones to give way. (Bars' own text slides instead: `bar_text_in_view`.)
pub fn follow_left(tl: &Timeline, view: i32) -> i32 {
    let left = follow_right(tl) - view;
    // Compact (a phone's narrow view), as many steps as fit: the view ends at the present,
    // and what its left edge cuts fades out there.
    if tl.compact {
        return left.max(0);
    }
    // Not so far that the view shows more of the empty room than of the run.
    let most = (tl.width - view).min(left + view / 4).max(left);
    // Not so far left that the "now" line leaves the view (its label may give way too).
    let least = (tl.now_x + 2 - view).clamp(0, left.max(0));
    if left <= 0 {
        return 0;
    }
    let bars: Vec<&Text> = tl.bars.iter().filter_map(|b| b.text.as_ref()).collect();
    let boxes: Vec<TextBox> = texts(tl)
        .iter()
        .filter(|t| !bars.contains(t))
        .map(TextBox::of)
        .filter(|b| b.x1 > least && b.x0 < most)
        .collect();
    // Best, no text in the fade at the edge; else at least none cut by the edge itself.
    let faded = |x: i32| boxes.iter().any(|b| b.x0 < x + VIEW_FADE && x < b.x1);
    let cut = |x: i32| boxes.iter().any(|b| b.x0 < x && x < b.x1);
    let edges = || boxes.iter().flat_map(|b| [b.x1, b.x0 - VIEW_FADE, b.x0]);
    let mut right = vec![left];
    right.extend(edges().filter(|&x| x > left && x <= most));
    right.sort();
    let mut back: Vec<i32> = edges().filter(|&x| x >= least && x < left).collect();
    // Sorted up and reversed rather than sorted by a reversed comparison: the same sort as
    // `right` above, one copy of it in the WASM instead of two.
    back.sort();
    back.reverse();
    right
        .iter()
        .copied()
        .find(|&x| !faded(x))
        .or_else(|| right.iter().copied().find(|&x| !cut(x)))
        .or_else(|| back.iter().copied().find(|&x| !cut(x)))
        .unwrap_or(left)
}

/// A bar's text as drawn when only `left..right` of the diagram is in sight (it scrolls):
/// where the layout put it if that is all in sight; else the longest form of its label that
/// fits where the bar is in sight and its row is clear, at the left of that; else none. A
/// label is moved or left out, never cut.
pub fn bar_text_in_view(b: &Bar, left: i32, right: i32) -> Option<Text> {
    let t = b.text.as_ref()?;
    let bx = TextBox::of(t);
    if bx.x0 >= left && bx.x1 <= right {
        return Some(t.clone());
    }
    for body in bar_forms(b) {
        for &(r0, r1) in &b.room {
            // Clear of the fade at the view's left edge (static/style.css, `.tl-scroll`).
            let a = if left > r0 { left + VIEW_FADE } else { r0 + 5 };
            let c = text(t.class, a, t.y, Anchor::Start, body.clone());
            let cb = TextBox::of(&c);
            if cb.x0 >= a - 1 && cb.x1 + 4 <= r1.min(right) {
                return Some(c);
            }
        }
    }
    None
}

/// How wide the scroller's left edge fades out (static/style.css, `.tl-scroll`), plus a little.
pub const VIEW_FADE: i32 = 20;

/// Every text the diagram draws, where it draws it.
pub fn texts(tl: &Timeline) -> Vec<Text> {
    let mut out: Vec<Text> = Vec::new();
    out.extend(tl.bars.iter().filter_map(|b| b.text.clone()));
    out.extend(tl.overlaps.iter().filter_map(|b| b.text.clone()));
    out.extend(tl.arrows.iter().filter_map(|b| b.text.clone()));
    out.extend(tl.marks.iter().filter_map(|b| b.text.clone()));
    for v in &tl.verdicts {
        out.extend(v.drawn_lines());
    }
    out.extend(tl.ticks.iter().map(tick_text));
    out.push(now_text(tl));
    out
}

// ---------------------------------------------------------------------------------------------
// Drawing: what every renderer prints (the app's component, view::svg), decided once here.
// Each class is styled by static/timeline.css, the one stylesheet both use.

/// A shape a renderer draws as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    Circle {
        cx: i32,
        cy: i32,
        r: i32,
    },
    Rect {
        x: i32,
        y: i32,
        w: i32,
        h: i32,
        rx: i32,
    },
    Line {
        x1: i32,
        y1: i32,
        x2: i32,
        y2: i32,
    },
    Path {
        d: String,
    },
}

/// A diamond of half-diagonal `r` around (x, y), as SVG path data.
pub fn diamond(x: i32, y: i32, r: i32) -> String {
    format!(
        "M{x},{} L{},{y} L{x},{} L{},{y} Z",
        y - r,
        x + r,
        y + r,
        x - r
    )
}

/// `class`, with ` recent` when it changed in the current step (the app highlights it; an
/// exported document, a still picture, does not).
pub fn with_recent(class: &str, recent: bool) -> String {
    if recent {
        format!("{class} recent")
    } else {
        class.to_string()
    }
}

/// The arrowheads and hatch patterns the diagram's `url(#…)`s name, as SVG markup: once per
/// page or document (ids must be unique).
pub const DEFS: &str = concat!(
    "<defs>",
    r#"<marker id="ah" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="ah"/></marker>"#,
    r#"<marker id="ah-write" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="ah-write"/></marker>"#,
    r#"<pattern id="hatch-pause" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" class="hatch-bg"/><line x1="0" y1="0" x2="0" y2="8" class="hatch-line"/></pattern>"#,
    r#"<pattern id="hatch-overlap" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="6" height="6" class="overlap-bg"/><line x1="0" y1="0" x2="0" y2="6" class="overlap-line"/></pattern>"#,
    "</defs>"
);

/// What a legend entry shows beside its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swatch {
    Holder,
    Belief,
    Overlap,
    Paused,
    Crashed,
    Accepted,
    Rejected,
    Violation,
    Pending,
    Held,
}

impl Swatch {
    /// Its name as a class suffix (`sw-holder` in the app's legend).
    pub fn name(&self) -> &'static str {
        match self {
            Swatch::Holder => "holder",
            Swatch::Belief => "belief",
            Swatch::Overlap => "overlap",
            Swatch::Paused => "paused",
            Swatch::Crashed => "crashed",
            Swatch::Accepted => "accepted",
            Swatch::Rejected => "rejected",
            Swatch::Violation => "violation",
            Swatch::Pending => "pending",
            Swatch::Held => "held",
        }
    }

    /// The glyph drawn on it, for the marks the diagram draws with one.
    pub fn glyph(&self) -> Option<&'static str> {
        match self {
            Swatch::Accepted => Some(VerdictKind::Accepted.glyph()),
            Swatch::Rejected => Some(VerdictKind::Rejected.glyph()),
            Swatch::Violation => Some(VIOLATION_GLYPH),
            _ => None,
        }
    }
}

/// The diagram's legend: what each kind of bar, mark and message means.
pub const LEGEND: [(Swatch, &str); 10] = [
    (Swatch::Holder, "coordinator's view of the lease"),
    (Swatch::Belief, "the worker's own belief"),
    (Swatch::Overlap, "⚠ two workers believe at once"),
    (Swatch::Paused, "❚❚ paused (stop-the-world)"),
    (Swatch::Crashed, "✕ crashed"),
    (Swatch::Accepted, "accepted"),
    (Swatch::Rejected, "rejected"),
    (
        Swatch::Violation,
        "violation (focus, click or hover it for why)",
    ),
    (Swatch::Pending, "message still in flight"),
    (Swatch::Held, "message held by the network"),
];

/// The glyph in a violation's diamond.
pub const VIOLATION_GLYPH: &str = "!";

impl LaneKind {
    /// Its class suffix: `lane-worker`.
    pub fn class(&self) -> &'static str {
        match self {
            LaneKind::Coordinator => "coordinator",
            LaneKind::Worker => "worker",
            LaneKind::Resource => "resource",
        }
    }
}

impl Timeline {
    /// The class of lane `i`'s group: its kind, and alternate shading.
    pub fn lane_class(&self, i: usize) -> String {
        let parity = if i.is_multiple_of(2) { "even" } else { "odd" };
        format!("lane lane-{} {parity}", self.lanes[i].kind.class())
    }

    /// Lane `i`'s background, `width` wide, and its time axis up to the present.
    pub fn lane_shapes(&self, i: usize, width: i32) -> [(&'static str, Shape); 2] {
        let l = &self.lanes[i];
        [
            (
                "lane-bg",
                Shape::Rect {
                    x: 0,
                    y: l.y,
                    w: width,
                    h: l.h,
                    rx: 0,
                },
            ),
            (
                "axis",
                Shape::Line {
                    x1: LEFT - 8,
                    y1: l.axis,
                    x2: self.now_x,
                    y2: l.axis,
                },
            ),
        ]
    }

    /// The step numbers on the ruler: the current step's, and others where there is room.
    pub fn step_numbers(&self) -> Vec<(usize, Text)> {
        // Compact, the first steps are narrow: their numbers keep clear of the ruler's title.
        let mut last_label = if self.compact { 26 } else { -1000 };
        let mut out: Vec<(usize, Text)> = Vec::new();
        for b in &self.steps {
            let cx = (b.x0 + b.x1) / 2;
            let class = if b.current {
                "step-no current"
            } else {
                "step-no"
            };
            let t = text(class, cx, 12, Anchor::Middle, b.step.to_string());
            // Full, every number is shown unless it would touch the one before (then the
            // current step's wins); compact, thinned by distance, as its bands are narrow.
            let room = |o: &Text| TextBox::of(o).x1 + STEP_NO_GAP <= TextBox::of(&t).x0;
            let fits = if self.compact {
                b.x1 - b.x0 >= 14 && cx - last_label >= 22
            } else {
                out.last().is_none_or(|(_, o)| room(o))
            };
            if b.current && !self.compact {
                while out.last().is_some_and(|(_, o)| !room(o)) {
                    out.pop();
                }
            }
            if b.current || fits {
                out.push((b.step, t));
                last_label = cx;
            }
        }
        out
    }

    /// The "now" line, top to bottom: (x, y0, y1).
    pub fn now_line(&self) -> (i32, i32, i32) {
        (self.now_x, RULER_H - 12, self.height)
    }
}

/// The least room between two step numbers on the ruler.
pub const STEP_NO_GAP: i32 = 4;

/// The ruler's title.
pub fn ruler_title() -> Text {
    text("ruler-title", 2, 12, Anchor::Start, "step".into())
}

impl StepBand {
    /// Its class: the current step's, and the step `marked` as where two runs part.
    pub fn class(&self, marked: Option<usize>) -> &'static str {
        match (self.current, Some(self.step) == marked) {
            (true, true) => "step current diverge",
            (false, true) => "step diverge",
            (true, false) => "step current",
            (false, false) => "step",
        }
    }

    /// Its band, from the ruler's step numbers down to the bottom of a diagram `height` tall.
    pub fn rect(&self, height: i32) -> Shape {
        Shape::Rect {
            x: self.x0,
            y: RULER_H - 22,
            w: (self.x1 - self.x0).max(1),
            h: height - RULER_H + 22,
            rx: 0,
        }
    }

    /// The words under a band marked as where two runs part.
    pub fn diverge_text(&self, height: i32) -> Text {
        text(
            "diverge-label",
            (self.x0 + self.x1) / 2,
            height - 6,
            Anchor::Middle,
            "≠ first difference".into(),
        )
    }
}

impl TickLabel {
    /// Its grid line: (x, y0) down to the diagram's bottom.
    pub fn grid_top(&self) -> (i32, i32) {
        (self.x, RULER_H - 6)
    }
}

impl Gap {
    pub fn title(&self) -> String {
        format!(
            "{} ticks with nothing happening, drawn compressed",
            self.ticks
        )
    }

    /// Its shading, under the ruler down to the bottom of a diagram `height` tall.
    pub fn rect(&self, height: i32) -> Shape {
        Shape::Rect {
            x: self.x0,
            y: RULER_H,
            w: self.x1 - self.x0,
            h: height - RULER_H,
            rx: 0,
        }
    }

    pub fn text(&self) -> Text {
        text(
            "gap-label",
            (self.x0 + self.x1) / 2,
            RULER_H - 10,
            Anchor::Middle,
            "≈".into(),
        )
    }
}

impl Bar {
    /// Its class: its kind, and whether it goes on past the present.
    pub fn class(&self) -> String {
        format!(
            "bar {}{}",
            self.kind.class(),
            if self.open { " open" } else { "" }
        )
    }

    pub fn rect(&self) -> Shape {
        span(self.x0, self.x1, self.y, self.h, 3)
    }
}

/// A rectangle from `x0` to `x1`, `h` tall from `y`, its corners rounded by `rx`.
fn span(x0: i32, x1: i32, y: i32, h: i32, rx: i32) -> Shape {
    Shape::Rect {
        x: x0,
        y,
        w: x1 - x0,
        h,
        rx,
    }
}

impl OverlapMark {
    pub fn rect(&self) -> Shape {
        span(self.x0, self.x1, self.y, self.h, 2)
    }
}

impl Arrow {
    /// Still on its way (in flight or held): it ends in an open head, not an arrowhead.
    pub fn pending(&self) -> bool {
        matches!(self.state, ArrowState::InFlight | ArrowState::Held)
    }

    /// Its class: its state and the kind of message (`k-write`).
    pub fn class(&self) -> String {
        format!("arrow {} k-{}", self.state.class(), self.kind)
    }

    /// The id of the arrowhead (`DEFS`) it ends in, if it arrived somewhere: writes have their own.
    pub fn marker(&self) -> Option<&'static str> {
        match (self.state, self.kind.as_str()) {
            (ArrowState::Delivered | ArrowState::Lost, "write") => Some("ah-write"),
            (ArrowState::Delivered | ArrowState::Lost, _) => Some("ah"),
            _ => None,
        }
    }

    /// The open head of a message still on its way.
    pub fn head(&self) -> Option<Shape> {
        self.pending().then_some(Shape::Circle {
            cx: self.x1,
            cy: self.y1,
            r: 4,
        })
    }
}

impl Mark {
    /// Its group's class: `mark` and its kind (`m-grant`).
    pub fn group_class(&self) -> String {
        format!("mark {}", self.class)
    }

    pub fn dot(&self) -> Shape {
        Shape::Circle {
            cx: self.x,
            cy: self.y,
            r: 9,
        }
    }

    pub fn glyph_text(&self) -> Text {
        text(
            "glyph",
            self.x,
            self.y + 4,
            Anchor::Middle,
            self.glyph.clone(),
        )
    }
}

impl Verdict {
    pub fn class(&self) -> String {
        format!("verdict {}", self.kind.class())
    }

    /// Its shape: a square for a rejection, a circle for the rest.
    pub fn shape(&self) -> Shape {
        match self.kind {
            VerdictKind::Rejected => Shape::Rect {
                x: self.x - 11,
                y: self.y - 11,
                w: 22,
                h: 22,
                rx: 3,
            },
            _ => Shape::Circle {
                cx: self.x,
                cy: self.y,
                r: 11,
            },
        }
    }

    pub fn glyph_text(&self) -> Text {
        text(
            "glyph",
            self.x,
            self.y + 5,
            Anchor::Middle,
            self.kind.glyph().to_string(),
        )
    }
}

impl ViolationMark {
    /// Its red diamond.
    pub fn shape(&self) -> Shape {
        Shape::Path {
            d: diamond(self.x, self.y, 11),
        }
    }

    /// The ring around it that shows focus (and, in the app, that it is new).
    pub fn ring(&self) -> Shape {
        Shape::Path {
            d: diamond(self.x, self.y, 15),
        }
    }

    pub fn glyph_text(&self) -> Text {
        text(
            "bang",
            self.x,
            self.y + 5,
            Anchor::Middle,
            VIOLATION_GLYPH.into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;
    use crate::sim::scenario::Scenario;
    use crate::sim::Action;

    fn run_to_end(id: &str, variant: usize) -> Run {
        let s = presets::get(id).unwrap();
        let mut run = Run::new(&s, s.variants.get(variant));
        run.run_script().unwrap();
        run
    }

    fn paused_writer() -> Scenario {
        presets::get("paused-writer").unwrap()
    }

    /// Issue 32: Chubby's lock-delay was only a queued request; the coordinator's lane now
    /// shows the stretch it grants the lock to nobody. It covers the lost holder's late write
    /// when the delay is long enough, ends before it when it is too short, and is not drawn
    /// without a delay.
    #[test]
    fn a_lock_delay_is_a_band_on_the_coordinators_lane() {
        let variant = |name: &str| {
            let s = presets::get("chubby-lock-delay").unwrap();
            s.variants.iter().position(|v| v.name == name).unwrap()
        };
        let drawn = |name: &str| {
            let tl = layout(&run_to_end("chubby-lock-delay", variant(name)));
            let late = tl
                .verdicts
                .iter()
                .find(|v| v.request == "A-late")
                .unwrap()
                .x;
            let bands: Vec<(i32, i32, usize)> = tl
                .bars
                .iter()
                .filter(|b| b.kind == BarKind::LockDelay)
                .map(|b| (b.x0, b.x1, b.lane))
                .collect();
            (late, bands)
        };
        let (late, bands) = drawn("delay-covers");
        assert_eq!(bands.len(), 1, "{bands:?}");
        let (x0, x1, lane) = bands[0];
        assert_eq!(lane, 0, "on the coordinator's lane");
        assert!(
            x0 < late && late < x1,
            "the delay covers A's late write: {bands:?}, {late}"
        );
        let (late, bands) = drawn("delay-too-short");
        assert_eq!(bands.len(), 1, "{bands:?}");
        assert!(bands[0].1 < late, "the delay ends first: {bands:?}, {late}");
        assert_eq!(drawn("no-delay").1, []);
    }

    #[test]
    fn lanes_for_every_node() {
        let tl = layout(&run_to_end("paused-writer", 0));
        let names: Vec<&str> = tl.lanes.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["coordinator", "A", "B", "report"]);
        for w in tl.lanes.windows(2) {
            assert_eq!(w[0].y + w[0].h, w[1].y, "lanes stack without gaps");
        }
        assert!(tl.height >= tl.lanes.last().unwrap().y + tl.lanes.last().unwrap().h);
    }

    #[test]
    fn the_start_is_empty() {
        let s = paused_writer();
        let tl = layout(&Run::new(&s, s.variants.first()));
        assert!(tl.arrows.is_empty() && tl.bars.is_empty() && tl.steps.is_empty());
        assert!(tl.width > 0);
    }

    #[test]
    fn paused_writer_is_drawn_with_a_rejected_stale_write() {
        let run = run_to_end("paused-writer", 0);
        let tl = layout(&run);
        let stale = tl
            .verdicts
            .iter()
            .find(|v| v.request == "A-stale")
            .expect("A's verdict");
        assert_eq!(stale.kind, VerdictKind::Rejected);
        assert_eq!(stale.outcome, "rejected: stale");
        assert_eq!((stale.token.as_str(), stale.highest.as_str()), ("41", "42"));
        let b = tl.verdicts.iter().find(|v| v.request == "B-write").unwrap();
        assert_eq!(b.kind, VerdictKind::Accepted);
        assert!(b.x < stale.x, "B's verdict comes first in time");
        assert!(tl.violations.is_empty());
        // A pause band, and both views of the lease on each worker.
        let a = tl.lanes.iter().position(|l| l.name == "A").unwrap();
        let bl = tl.lanes.iter().position(|l| l.name == "B").unwrap();
        assert!(tl
            .bars
            .iter()
            .any(|x| x.lane == a && x.kind == BarKind::Paused));
        for lane in [a, bl] {
            assert!(
                tl.bars
                    .iter()
                    .any(|x| x.lane == lane && x.kind == BarKind::Holder),
                "holder bar on {lane}"
            );
            assert!(
                tl.bars
                    .iter()
                    .any(|x| x.lane == lane && x.kind == BarKind::Belief),
                "belief bar on {lane}"
            );
        }
        // The coordinator's view of A ends before B's begins; A's belief outlives it.
        let holder_a = tl
            .bars
            .iter()
            .find(|x| x.lane == a && x.kind == BarKind::Holder)
            .unwrap();
        let belief_a = tl
            .bars
            .iter()
            .find(|x| x.lane == a && x.kind == BarKind::Belief)
            .unwrap();
        let holder_b = tl
            .bars
            .iter()
            .find(|x| x.lane == bl && x.kind == BarKind::Holder)
            .unwrap();
        assert!(holder_a.x1 <= holder_b.x0);
        assert!(
            belief_a.x1 > holder_b.x0,
            "A still believes after B is granted"
        );
        // …so the overlap is marked on both lanes, as the model says.
        assert!(!run.world().overlaps().is_empty());
        assert!(
            tl.overlaps.iter().any(|o| o.lane == a) && tl.overlaps.iter().any(|o| o.lane == bl)
        );
        // Every message was delivered by the end.
        assert!(tl.arrows.iter().all(|x| x.state == ArrowState::Delivered));
        assert!(tl
            .arrows
            .iter()
            .any(|x| x.kind == "write" && x.label == "A-stale · 41"));
    }

    #[test]
    fn unfenced_marks_the_violation() {
        let s = paused_writer();
        let i = s
            .variants
            .iter()
            .position(|v| v.name == "unfenced")
            .unwrap();
        let tl = layout(&run_to_end("paused-writer", i));
        let v = tl.violations.first().expect("a violation marker");
        assert_eq!(v.kind, "stale_overwrite");
        assert!(
            v.aria_label().contains("stale overwrite"),
            "{}",
            v.aria_label()
        );
        let verdict = tl.verdicts.iter().find(|x| x.request == "A-stale").unwrap();
        assert_eq!(verdict.kind, VerdictKind::Accepted);
        assert_eq!(
            v.x,
            verdict.x + 28,
            "the marker sits beside the verdict that broke the rule"
        );
    }

    #[test]
    fn x_is_monotonic_in_time_and_columns_do_not_overlap() {
        let run = run_to_end("paused-writer", 0);
        let tl = layout(&run);
        for w in tl.steps.windows(2) {
            assert!(w[0].x0 < w[1].x0 && w[0].x0 <= w[0].x1);
        }
        let (mut cols, _, arrivals) = columns(&run, 1, &tl.lanes, FULL);
        let lanes = &tl.lanes;
        axis(
            &mut cols,
            (&arrivals, lanes),
            0,
            run.world().now(),
            1,
            Spacing::Packed,
        );
        let centres = |c: &Column| -> Vec<(usize, i32, i32)> {
            c.slots
                .iter()
                .flat_map(|(l, v)| (0..v.len()).map(move |k| (*l, k)))
                .map(|(l, k)| {
                    let half = c.slots.iter().find(|(m, _)| *m == l).unwrap().1[k].width / 2;
                    (l, c.x(l, k) - half, c.x(l, k) + half)
                })
                .collect()
        };
        for (i, a) in cols.iter().enumerate() {
            for b in &cols[i + 1..] {
                for (la, a0, a1) in centres(a) {
                    for (lb, b0, b1) in centres(b) {
                        assert!(
                            (b0 + b1) > (a0 + a1),
                            "a later event is drawn right of an earlier one"
                        );
                        if la == lb {
                            assert!(b0 >= a1, "what one lane draws keeps apart");
                        }
                    }
                }
            }
        }
        for w in tl.ticks.windows(2) {
            assert!(w[1].x - w[0].x >= 34, "labels keep their distance");
            assert!(w[0].tick < w[1].tick);
        }
        assert_eq!(tl.current_step().unwrap().step, run.cursor());
        for v in tl.verdicts.windows(2) {
            if v[0].y == v[1].y {
                assert!(
                    v[1].x - v[0].x >= VERDICT_W,
                    "verdicts on one lane keep apart"
                );
            }
        }
        assert!(tl.now_x >= tl.steps.last().unwrap().x1);
    }

    #[test]
    fn pending_messages_do_not_share_an_end() {
        let s = presets::get("sandbox").unwrap();
        let mut run = Run::new(&s, None);
        for w in &s.workers {
            run.act(Action::Acquire {
                worker: w.name.as_str().into(),
                lock: None,
            })
            .unwrap();
        }
        let tl = layout(&run);
        let mut ends: Vec<i32> = tl
            .arrows
            .iter()
            .filter(|a| a.state == ArrowState::InFlight)
            .map(|a| a.y1)
            .collect();
        assert_eq!(ends.len(), s.workers.len());
        ends.sort();
        assert!(ends.windows(2).all(|w| w[1] - w[0] >= 16), "{ends:?}");
    }

    #[test]
    fn a_hold_is_marked_on_the_senders_lane() {
        // A's write crosses B's and C's lanes on its way to the store: held some ticks after
        // it left, its mark stays on the arrow inside A's lane, not where the arrow is then.
        let s = presets::get("sandbox").unwrap();
        let mut run = Run::new(&s, None);
        let write = run.world().write_to("A", "store").unwrap();
        run.act(Action::Write {
            worker: "A".into(),
            write,
        })
        .unwrap();
        let id = run.world().network().in_flight[0].id;
        for w in ["B", "C"] {
            run.act(Action::Acquire {
                worker: w.into(),
                lock: None,
            })
            .unwrap();
        }
        run.act(Action::Hold {
            msg: crate::sim::MsgSel::id(id),
            until: None,
        })
        .unwrap();
        run.act(Action::Unhold {
            msg: crate::sim::MsgSel::id(id),
        })
        .unwrap();
        run.act(Action::Advance { ticks: 1 }).unwrap();
        let tl = layout(&run);
        let a = &tl.lanes[1];
        assert_eq!(a.name, "A");
        let held: Vec<&Mark> = tl.marks.iter().filter(|m| m.class == "m-held").collect();
        assert_eq!(held.len(), 1, "{:?}", tl.marks);
        let m = held[0];
        assert!(m.y > a.y && m.y < a.y + a.h, "{m:?} outside {a:?}");
        let arrow = tl.arrows.iter().find(|x| x.kind == "write").unwrap();
        // On the arrow's line, to a pixel.
        let on = arrow.y0 + (arrow.y1 - arrow.y0) * (m.x - arrow.x0) / (arrow.x1 - arrow.x0);
        assert!((on - m.y).abs() <= 2, "{m:?} off {arrow:?}");
    }

    #[test]
    fn in_flight_and_held_messages_are_pending() {
        let s = paused_writer();
        let mut run = Run::new(&s, s.variants.first());
        run.step_forward().unwrap(); // A asks: the acquire is in flight
        let tl = layout(&run);
        let a = tl.arrows.iter().find(|a| a.kind == "acquire").unwrap();
        assert_eq!(a.state, ArrowState::InFlight);
        assert_eq!(a.x1, tl.now_x);
        let id = run.world().network().in_flight[0].id;
        run.act(Action::Hold {
            msg: crate::sim::MsgSel::id(id),
            until: None,
        })
        .unwrap();
        run.act(Action::Advance { ticks: 3 }).unwrap();
        let tl = layout(&run);
        let a = tl.arrows.iter().find(|a| a.kind == "acquire").unwrap();
        assert_eq!(a.state, ArrowState::Held);
        assert!(tl.marks.iter().any(|m| m.class == "m-held"));
        run.act(Action::Drop {
            msg: crate::sim::MsgSel::id(id),
        })
        .unwrap();
        let tl = layout(&run);
        assert_eq!(tl.arrows[0].state, ArrowState::Dropped);
        assert!(tl.marks.iter().any(|m| m.class == "m-dropped"));
    }

    #[test]
    fn long_idle_stretches_are_compressed() {
        let s = presets::get("sandbox").unwrap();
        let mut run = Run::new(&s, None);
        run.act(Action::Advance { ticks: 5000 }).unwrap();
        let tl = layout(&run);
        assert!(tl.width < 1000, "width {}", tl.width);
        assert_eq!(tl.gaps.len(), 1);
        assert_eq!(tl.now_tick, 5000);
    }

    #[test]
    fn crash_and_release_end_bars() {
        let s = presets::get("sandbox").unwrap();
        let mut run = Run::new(&s, None);
        let w = s.workers[0].name.clone();
        run.act(Action::Acquire {
            worker: w.as_str().into(),
            lock: None,
        })
        .unwrap();
        run.act(Action::Advance { ticks: 2 }).unwrap();
        let tl = layout(&run);
        assert!(tl.bars.iter().any(|b| b.kind == BarKind::Belief && b.open));
        run.act(Action::Crash {
            worker: w.as_str().into(),
        })
        .unwrap();
        let tl = layout(&run);
        let belief = tl.bars.iter().find(|b| b.kind == BarKind::Belief).unwrap();
        assert!(!belief.open, "a crash ends the belief");
        let crash = tl.bars.iter().find(|b| b.kind == BarKind::Crashed).unwrap();
        assert!(crash.open && crash.recent);
        assert!(
            tl.bars.iter().any(|b| b.kind == BarKind::Holder && b.open),
            "the coordinator still thinks it holds"
        );
    }

    #[test]
    fn every_preset_and_variant_lays_out_at_every_step() {
        for s in presets::all() {
            let variants: Vec<Option<&crate::sim::scenario::Variant>> = if s.variants.is_empty() {
                vec![None]
            } else {
                s.variants.iter().map(Some).collect()
            };
            for v in variants {
                let mut run = Run::new(&s, v);
                run.run_script().unwrap();
                for i in 0..=run.len() {
                    run.seek(i);
                    let tl = layout(&run);
                    for b in &tl.bars {
                        assert!(b.x0 <= b.x1 && b.x1 <= tl.width, "{}: bar {b:?}", s.id);
                    }
                    for a in &tl.arrows {
                        assert!(a.x0 <= a.x1, "{}: arrow backwards {a:?}", s.id);
                    }
                    let n_violations = run.world().ghost().violations.len();
                    assert_eq!(tl.violations.len(), n_violations, "{} step {i}", s.id);
                }
            }
        }
    }

    #[test]
    fn a_window_draws_what_the_full_layout_draws_for_its_steps() {
        for s in presets::all() {
            let mut run = Run::new(&s, s.variants.first());
            run.run_script().unwrap();
            let full = layout(&run);
            let verdict = |v: &Verdict| {
                (
                    v.request.clone(),
                    v.outcome.clone(),
                    v.token.clone(),
                    v.highest.clone(),
                )
            };
            let violation = |v: &ViolationMark| (v.kind.clone(), v.detail.clone(), v.tick);
            let open = |tl: &Timeline| {
                let mut o: Vec<_> = tl
                    .bars
                    .iter()
                    .filter(|b| b.open)
                    .map(|b| (b.lane, b.kind, b.label.clone()))
                    .collect();
                o.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
                o
            };
            let pending = |tl: &Timeline| {
                let mut p: Vec<u32> = tl
                    .arrows
                    .iter()
                    .filter(|a| matches!(a.state, ArrowState::InFlight | ArrowState::Held))
                    .map(|a| a.id)
                    .collect();
                p.sort();
                p
            };
            for first in 1..=run.cursor() {
                let w = layout_from(&run, first);
                let in_window = |kind: fn(&EventKind) -> bool| {
                    (first..=run.cursor())
                        .flat_map(|st| run.step_events(st))
                        .filter(|e| kind(&e.kind))
                        .count()
                };
                let nv = in_window(|k| {
                    matches!(
                        k,
                        EventKind::WriteAccepted { .. }
                            | EventKind::WriteRejected { .. }
                            | EventKind::WriteReplayed { .. }
                            | EventKind::CheckPassed { .. }
                    )
                });
                let want: Vec<_> = full.verdicts[full.verdicts.len() - nv..]
                    .iter()
                    .map(verdict)
                    .collect();
                let got: Vec<_> = w.verdicts.iter().map(verdict).collect();
                assert_eq!(got, want, "{} from step {first}: verdicts", s.id);
                let nx = in_window(|k| matches!(k, EventKind::Violation { .. }));
                let want: Vec<_> = full.violations[full.violations.len() - nx..]
                    .iter()
                    .map(violation)
                    .collect();
                assert_eq!(
                    w.violations.iter().map(violation).collect::<Vec<_>>(),
                    want,
                    "{} from step {first}: violations",
                    s.id
                );
                assert_eq!(
                    open(&w),
                    open(&full),
                    "{} from step {first}: what is still going on",
                    s.id
                );
                assert_eq!(
                    pending(&w),
                    pending(&full),
                    "{} from step {first}: messages in flight",
                    s.id
                );
                assert_eq!(w.steps.first().map(|b| b.step), Some(first));
                assert!(w.width <= full.width);
                for b in &w.bars {
                    assert!(b.x1 > LEFT && b.x0 <= b.x1, "{}: bar {b:?}", s.id);
                }
            }
        }
    }

    #[test]
    fn a_window_holds_about_the_events_asked_for() {
        let run = run_to_end("paused-writer", 0);
        assert_eq!(window_start(&run, usize::MAX), 1);
        let s = window_start(&run, 3);
        assert!(s > 1 && s <= run.cursor());
        let n: usize = (s..=run.cursor()).map(|i| run.step_events(i).len()).sum();
        assert!(
            n >= 3 || s == 1,
            "at least the events asked for, or the whole run"
        );
    }
}
