//! Links: a whole run in a URL fragment, compact and versioned.
//!
//! A link holds the scenario (a preset id, or the scenario file inline), the variant or
//! policy, the seed, how many script steps were taken, every user action after them and
//! the step being looked at. Opening it replays those inputs through the model, which is
//! deterministic, so the same world appears at the same step.
//!
//! The run's other branches (`view::branches`) follow, when it has any: each as the script
//! steps and actions that reproduce it ([`Branch`]), so a link shares the tree the user made.
//!
//! Format: `v1.` then base64url of bytes. Actions take one opcode byte and small varint
//! arguments (worker and resource by index, messages by id), so 200 sandbox actions fit
//! in well under 2,000 characters. Anything without a short form is carried as JSON.

use crate::presets;
use crate::sim::action::{Action, MsgSel, MAX_RUN_TICKS};
use crate::sim::resource::Policy;
use crate::sim::run::{Entry, Replayed, Run};
use crate::sim::scenario::{Branch, Variant};
use crate::sim::{Name, Scenario, World};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

pub const LINK_VERSION: u8 = 1;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioRef {
    Preset(String),
    Inline(Box<Scenario>),
}

/// Everything needed to rebuild a view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub scenario: ScenarioRef,
    pub variant: Option<String>,
    /// A plain policy chosen instead of a variant.
    pub policy: Option<Policy>,
    pub seed: Option<u64>,
    pub script_steps: usize,
    pub actions: Vec<Action>,
    pub cursor: usize,
    /// The run's other branches, in their order (`view::branches`); the one shown comes
    /// after the first `branch_at` of them.
    pub branches: Vec<Branch>,
    pub branch_at: usize,
}

/// The most branches a link may carry besides the one it shows (`view::branches`'s limit).
pub const MAX_LINK_BRANCHES: usize = crate::view::branches::MAX_BRANCHES - 1;

/// What is wrong with a link, in words for the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError(pub String);

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn bad<T>(why: impl Into<String>) -> Result<T, LinkError> {
    Err(LinkError(why.into()))
}

impl Link {
    /// The link for a run's current branch and step.
    pub fn of(run: &Run, scenario: ScenarioRef, policy: Option<Policy>, seed: Option<u64>) -> Link {
        let (script_steps, actions) = run.branch();
        Link {
            scenario,
            variant: run.variant.clone(),
            policy,
            seed,
            script_steps,
            actions,
            cursor: run.cursor(),
            branches: Vec::new(),
            branch_at: 0,
        }
    }

    /// The same link, also carrying the run's other branches (see `view::branches`).
    pub fn with_branches(mut self, branches: Vec<Branch>, at: usize) -> Link {
        self.branch_at = at.min(branches.len());
        self.branches = branches;
        self
    }

    pub fn base_scenario(&self) -> Result<Scenario, LinkError> {
        match &self.scenario {
            ScenarioRef::Preset(id) => match presets::get(id) {
                Some(s) => Ok(s),
                None => bad(format!(
                    "the link names a scenario this version does not have: “{id}”"
                )),
            },
            ScenarioRef::Inline(s) => Ok((**s).clone()),
        }
    }

    /// The scenario the link's runs are built from (its policy and seed applied), and the
    /// variant it names.
    fn prepared(&self) -> Result<(Scenario, Option<Variant>), LinkError> {
        let mut s = self.base_scenario()?;
        if let Some(p) = self.policy {
            s.policy = p;
        }
        if let Some(seed) = self.seed {
            s.seed = seed;
        }
        let variant = match &self.variant {
            Some(v) => match s.variant(v) {
                Some(v) => Some(v.clone()),
                None => return bad(format!("the scenario has no variant “{v}”")),
            },
            None => None,
        };
        Ok((s, variant))
    }

    /// Replay the link's other branches (their checks were made when it was decoded).
    pub fn branch_runs(&self) -> Result<Vec<Run>, LinkError> {
        let (s, variant) = self.prepared()?;
        self.branches
            .iter()
            .enumerate()
            .map(|(k, p)| {
                Run::replay_branch(&s, variant.as_ref(), p)
                    .map_err(|r| LinkError(format!("branch {} of the link: {}", k + 1, r.what)))
            })
            .collect()
    }

    /// Replay the link into a run at its step.
    pub fn to_run(&self) -> Result<Run, LinkError> {
        let (s, variant) = self.prepared()?;
        let mut run =
            Run::replay(&s, variant.as_ref(), self.script_steps, &self.actions).map_err(|r| {
                LinkError(match r.what {
                    Replayed::ScriptEnded { wanted, has } => {
                        format!("the link takes {wanted} script steps; the script has {has}")
                    }
                    Replayed::Script { index, error } => {
                        format!("script step {}: {error}", index + 1)
                    }
                    too_long @ Replayed::TooLong { .. } => {
                        format!("the link asks too much: {too_long}")
                    }
                    Replayed::Action {
                        index,
                        action,
                        error,
                    } => format!(
                        "action {} of the link ({action}) cannot be replayed: {error}",
                        index + 1
                    ),
                })
            })?;
        if self.cursor > run.len() {
            return bad(format!(
                "the link points at step {}, past the end ({})",
                self.cursor,
                run.len()
            ));
        }
        run.seek(self.cursor);
        Ok(run)
    }

    /// The fragment text (without `#`). Short forms need the world each action was taken in,
    /// so this replays the link; [`Link::encode_from`] reads them from a run instead.
    pub fn encode(&self) -> String {
        let mut worlds = Vec::new();
        if let Ok(mut probe) = self.clone_without_actions().to_run() {
            for a in &self.actions {
                worlds.push(probe.world().clone());
                if probe.act(a.clone()).is_err() {
                    break;
                }
            }
        }
        let worlds: Vec<&World> = worlds.iter().collect();
        let others = self.branch_runs().unwrap_or_default();
        let others: Vec<&Run> = others.iter().collect();
        self.write(&worlds, &others)
    }

    /// The fragment text of the link [`Link::of`] made from `run` (and `others`, the runs of
    /// its `branches`), with the worlds the runs already keep: no replay, so copying a link
    /// late in a long run costs no more than early.
    pub fn encode_from(&self, run: &Run, others: &[&Run]) -> String {
        self.write(&user_worlds(run), others)
    }

    /// `worlds[k]` is the world action `k` was taken in; without all of them, every action is
    /// written in its long (JSON) form. `others` are the runs of `branches`, for theirs.
    fn write(&self, worlds: &[&World], others: &[&Run]) -> String {
        let mut w = Writer::default();
        w.byte(LINK_VERSION);
        match &self.scenario {
            ScenarioRef::Preset(id) => {
                w.byte(0);
                w.str(id);
            }
            ScenarioRef::Inline(s) => {
                w.byte(1);
                w.str(
                    &serde_json::to_string(s)
                        .unwrap_or_else(|e| unreachable!("a scenario serialises: {e}")),
                );
            }
        }
        w.str(self.variant.as_deref().unwrap_or(""));
        w.byte(self.policy.map_or(0, |p| {
            Policy::ALL.iter().position(|x| *x == p).expect("listed") as u8 + 1
        }));
        match self.seed {
            Some(s) => {
                w.byte(1);
                w.varint(s);
            }
            None => w.byte(0),
        }
        w.varint(self.script_steps as u64);
        w.varint(self.actions.len() as u64);
        if worlds.len() == self.actions.len() {
            for (a, world) in self.actions.iter().zip(worlds) {
                encode_action(&mut w, world, a);
            }
        } else {
            for a in &self.actions {
                w.json_action(a);
            }
        }
        w.varint(self.cursor as u64);
        if !self.branches.is_empty() {
            w.varint(self.branches.len() as u64);
            w.varint(self.branch_at as u64);
            for (k, p) in self.branches.iter().enumerate() {
                w.varint(p.script_steps as u64);
                w.varint(p.actions.len() as u64);
                let worlds = others.get(k).map(|r| user_worlds(r)).unwrap_or_default();
                if worlds.len() == p.actions.len() {
                    for (a, world) in p.actions.iter().zip(&worlds) {
                        encode_action(&mut w, world, a);
                    }
                } else {
                    for a in &p.actions {
                        w.json_action(a);
                    }
                }
                w.varint(p.open_at as u64);
            }
        }
        format!("v{LINK_VERSION}.{}", URL_SAFE_NO_PAD.encode(&w.0))
    }

    fn clone_without_actions(&self) -> Link {
        Link {
            actions: Vec::new(),
            cursor: self.script_steps,
            ..self.clone()
        }
    }

    /// The preset a link's fragment names, read from its header alone (the page fetches the
    /// preset's file before it decodes the rest); `None` for an inline scenario or a link it
    /// cannot read (`decode` says what is wrong with it).
    pub fn preset_named(text: &str) -> Option<String> {
        let text = text.trim().trim_start_matches('#');
        let (version, body) = text.split_once('.')?;
        if version != format!("v{LINK_VERSION}") {
            return None;
        }
        // The version, the tag and the id's length and bytes: base64 of a few hundred bytes.
        let head = body.get(..body.len().min(400) / 4 * 4)?;
        let bytes = URL_SAFE_NO_PAD.decode(head).ok()?;
        let mut r = Reader {
            bytes: &bytes,
            at: 0,
        };
        (r.byte()? == LINK_VERSION && r.byte()? == 0).then_some(())?;
        r.str()
    }

    /// Read a fragment (with or without `#`). Errors say what is wrong in plain words.
    pub fn decode(text: &str) -> Result<Link, LinkError> {
        let text = text.trim().trim_start_matches('#');
        let Some((version, body)) = text.split_once('.') else {
            return bad("this link is not a Fencing Lab link (no version mark)");
        };
        match version.strip_prefix('v').and_then(|v| v.parse::<u32>().ok()) {
            Some(v) if v == LINK_VERSION as u32 => {}
            Some(v) if v > LINK_VERSION as u32 => {
                return bad(format!("this link was made by a newer Fencing Lab (format v{v}); this one reads v{LINK_VERSION}"))
            }
            _ => return bad(format!("this link has an unknown format mark “{version}”")),
        }
        let bytes = URL_SAFE_NO_PAD.decode(body).map_err(|_| {
            LinkError("this link is damaged: it has characters a link never contains".into())
        })?;
        let mut r = Reader {
            bytes: &bytes,
            at: 0,
        };
        let truncated = || {
            LinkError("this link is incomplete: it may have been cut off when it was copied".into())
        };
        if r.byte().ok_or_else(truncated)? != LINK_VERSION {
            return bad("this link's header does not match its version mark");
        }
        let scenario = match r.byte().ok_or_else(truncated)? {
            0 => ScenarioRef::Preset(r.str().ok_or_else(truncated)?),
            1 => {
                let json = r.str().ok_or_else(truncated)?;
                let s = Scenario::from_json(&json)
                    .map_err(|e| LinkError(format!("the scenario in this link is invalid: {e}")))?;
                ScenarioRef::Inline(Box::new(s))
            }
            _ => return bad("this link is damaged (scenario tag)"),
        };
        let variant = Some(r.str().ok_or_else(truncated)?).filter(|v| !v.is_empty());
        let policy = match r.byte().ok_or_else(truncated)? {
            0 => None,
            n => Some(
                *Policy::ALL
                    .get(n as usize - 1)
                    .ok_or_else(|| LinkError("this link is damaged (policy)".into()))?,
            ),
        };
        let damaged = |e: Option<String>| match e {
            None => truncated(),
            Some(why) => LinkError(format!("this link is damaged: {why}")),
        };
        // A seed is any 64-bit number; its flag says whether one follows, and nothing else.
        let seed = match r.byte().ok_or_else(truncated)? {
            0 => None,
            1 => Some(r.varint().map_err(damaged)?),
            _ => return bad("this link is damaged (seed flag)"),
        };
        let script_steps = r.index().map_err(damaged)?;
        let count = r.index().map_err(damaged)?;
        if count > bytes.len() {
            return Err(truncated());
        }
        let mut link = Link {
            scenario,
            variant,
            policy,
            seed,
            script_steps,
            actions: Vec::new(),
            cursor: 0,
            branches: Vec::new(),
            branch_at: 0,
        };
        // Decoding short forms needs the world at each action: replay as we read.
        let mut probe = link.clone_without_actions().to_run()?;
        // The time the script and each action ask for, counted as `Run::replay` counts it:
        // refused before the page is kept busy replaying it.
        let mut ticks = Action::ticks_asked(
            probe.scenario.script[..link.script_steps.min(probe.scenario.script.len())]
                .iter()
                .flat_map(|st| st.actions.iter()),
        );
        for i in 0..count {
            let a = decode_action(&mut r, probe.world()).map_err(|e| match e {
                None => truncated(),
                Some(why) => LinkError(format!("action {} of the link: {why}", i + 1)),
            })?;
            ticks = ticks.saturating_add(a.ticks_run());
            if ticks > MAX_RUN_TICKS {
                return bad(format!(
                    "the link asks too much: {}",
                    Replayed::TooLong { ticks }
                ));
            }
            probe.act(a.clone()).map_err(|e| {
                LinkError(format!(
                    "action {} of the link ({a}) cannot be replayed: {e}",
                    i + 1
                ))
            })?;
            link.actions.push(a);
        }
        link.cursor = r.index().map_err(damaged)?;
        if r.at < bytes.len() {
            link.read_branches(&mut r)?;
        }
        if r.at != bytes.len() {
            return bad("this link is damaged: it has bytes after its end");
        }
        Ok(link)
    }
}

impl Link {
    /// The other branches, after the shown one's step: how many, where the shown one goes
    /// among them, then each as a path. Each is replayed as it is read, as the shown one is.
    fn read_branches(&mut self, r: &mut Reader) -> Result<(), LinkError> {
        let truncated = || {
            LinkError("this link is incomplete: it may have been cut off when it was copied".into())
        };
        let damaged = |k: usize| {
            move |e: Option<String>| match e {
                None => truncated(),
                Some(why) => LinkError(format!("branch {k} of this link is damaged: {why}")),
            }
        };
        let count = r.index().map_err(damaged(0))?;
        if count == 0 || count > MAX_LINK_BRANCHES {
            return bad(format!(
                "this link carries {count} other branches; a run keeps 1 to {MAX_LINK_BRANCHES}"
            ));
        }
        self.branch_at = r.index().map_err(damaged(0))?;
        if self.branch_at > count {
            return bad("this link is damaged (branch position)");
        }
        let (s, variant) = self.prepared()?;
        for k in 1..=count {
            let script_steps = r.index().map_err(damaged(k))?;
            let mut probe = Run::replay(&s, variant.as_ref(), script_steps, &[])
                .map_err(|x| LinkError(format!("branch {k} of this link: {}", x.what)))?;
            let n = r.index().map_err(damaged(k))?;
            if n > r.bytes.len() {
                return Err(truncated());
            }
            let mut ticks = Action::ticks_asked(
                s.script[..script_steps.min(s.script.len())]
                    .iter()
                    .flat_map(|st| st.actions.iter()),
            );
            let mut actions = Vec::with_capacity(n);
            for i in 0..n {
                let a = decode_action(r, probe.world()).map_err(|e| match e {
                    None => truncated(),
                    Some(why) => LinkError(format!("branch {k}, action {}: {why}", i + 1)),
                })?;
                ticks = ticks.saturating_add(a.ticks_run());
                if ticks > MAX_RUN_TICKS {
                    return bad(format!(
                        "branch {k} of the link asks too much: {}",
                        Replayed::TooLong { ticks }
                    ));
                }
                probe.act(a.clone()).map_err(|e| {
                    LinkError(format!(
                        "branch {k}, action {} ({a}), cannot be replayed: {e}",
                        i + 1
                    ))
                })?;
                actions.push(a);
            }
            let cursor = r.index().map_err(damaged(k))?;
            if cursor > probe.len() {
                return bad(format!(
                    "branch {k} of the link points at step {cursor}, past its end ({})",
                    probe.len()
                ));
            }
            self.branches.push(Branch {
                script_steps,
                actions,
                open_at: cursor,
            });
        }
        Ok(())
    }
}

/// The world each user action of `run` was taken in, in order.
fn user_worlds(run: &Run) -> Vec<&World> {
    (1..=run.len())
        .filter(|&i| matches!(run.entry(i), Some(Entry::User(_))))
        .filter_map(|i| run.world_at(i - 1))
        .collect()
}

/// What the page should open for its URL fragment (`location.hash`, with or without `#`):
/// nothing for an empty one or the test hook `#panic`; anything else is offered to
/// [`Link::decode`] — percent-escapes undone first, as a mail client or a chat may add them —
/// so that a mangled link gets a message instead of being ignored.
pub fn fragment_to_open(hash: &str) -> Option<String> {
    let h = hash.strip_prefix('#').unwrap_or(hash);
    let h = percent_decoded(h);
    let h = h.trim();
    (!h.is_empty() && h != "panic").then(|| h.to_string())
}

fn percent_decoded(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn byte(&mut self, b: u8) {
        self.0.push(b);
    }
    fn varint(&mut self, mut v: u64) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(b);
                return;
            }
            self.0.push(b | 0x80);
        }
    }
    /// An action's opcode, then its operands (indexes, ticks).
    fn op(&mut self, code: u8, operands: &[u64]) {
        self.byte(code);
        for &v in operands {
            self.varint(v);
        }
    }

    fn signed(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }
    fn str(&mut self, s: &str) {
        self.varint(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }
    fn json_action(&mut self, a: &Action) {
        self.byte(OP_JSON);
        self.str(
            &serde_json::to_string(a).unwrap_or_else(|e| unreachable!("actions serialise: {e}")),
        );
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }
    /// `Err(None)` when the bytes ran out, `Err(Some(why))` for an encoding past 64 bits.
    fn varint(&mut self) -> Result<u64, Option<String>> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte().ok_or(None)?;
            // The tenth byte holds bit 63 alone: anything more does not fit in 64 bits.
            if shift == 63 && b > 1 {
                return Err(Some("a number longer than 64 bits".into()));
            }
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(Some("a number longer than 64 bits".into()))
    }
    /// A count or an index: `Err(None)` when the bytes ran out, `Err(Some(why))` past 2^32
    /// (never cut to fewer bits: on a 32-bit target `as usize` would do that silently).
    fn index(&mut self) -> Result<usize, Option<String>> {
        let v = self.varint()?;
        u32::try_from(v)
            .map(|n| n as usize)
            .map_err(|_| Some(format!("the number {v} is far too large")))
    }
    fn signed(&mut self) -> Result<i64, Option<String>> {
        let u = self.varint()?;
        Ok(((u >> 1) as i64) ^ -((u & 1) as i64))
    }
    fn str(&mut self) -> Option<String> {
        let n = usize::try_from(self.varint().ok()?).ok()?;
        let end = self.at.checked_add(n)?;
        let s = std::str::from_utf8(self.bytes.get(self.at..end)?)
            .ok()?
            .to_string();
        self.at = end;
        Some(s)
    }
}

const OP_JSON: u8 = 255;

/// Worker actions with a one-byte form, by opcode (1, "write", is the sandbox's default write).
/// The link format's own numbering, fixed: not `sim::action::ACTION_NAMES`, whose order may change.
const WORKER_OPS: [&str; 12] = [
    "acquire",
    "write",
    "send",
    "retry",
    "renew",
    "release",
    "pause",
    "resume",
    "crash",
    "restart",
    "partition",
    "heal",
];

fn encode_action(w: &mut Writer, world: &World, a: &Action) {
    use Action::*;
    let widx = |name: &str| world.workers().iter().position(|x| x.name == name);
    let ridx = |name: &str| world.resources().iter().position(|x| x.name == name);
    let by_id = |m: &MsgSel| {
        (m == &MsgSel::id(m.id.unwrap_or(0)))
            .then_some(m.id)
            .flatten()
    };
    let short: Option<Vec<u8>> = (|| {
        let mut out = Writer::default();
        match a {
            Write { worker, write } if Some(write) == world.default_write(worker).as_ref() => {
                out.op(1, &[widx(worker)? as u64]);
            }
            Acquire { lock: None, worker }
            | Send { worker }
            | Retry { worker }
            | Renew { worker }
            | Release { worker }
            | Pause {
                worker,
                ticks: None,
            }
            | Resume { worker }
            | Crash { worker }
            | Restart { worker }
            | Partition { worker }
            | Heal { worker } => {
                let code = WORKER_OPS.iter().position(|o| *o == a.name())?;
                out.op(code as u8, &[widx(worker)? as u64]);
            }
            Pause {
                worker,
                ticks: Some(t),
            } => out.op(20, &[widx(worker)? as u64, *t]),
            Await {
                worker,
                lock,
                within,
            } => {
                // Worker, then lock and bound, each 0 when not given (else index or ticks + 1).
                let lock = match lock {
                    None => 0,
                    Some(l) => world.coordinator().locks.keys().position(|k| k == l)? as u64 + 1,
                };
                out.op(
                    25,
                    &[widx(worker)? as u64, lock, within.map_or(0, |t| t + 1)],
                );
            }
            Deliver { msg } => out.op(21, &[by_id(msg)? as u64]),
            Hold { msg, until: None } => out.op(22, &[by_id(msg)? as u64]),
            Drop { msg } => out.op(23, &[by_id(msg)? as u64]),
            Duplicate { msg } => out.op(24, &[by_id(msg)? as u64]),
            Advance { ticks } => out.op(30, &[*ticks]),
            CompleteWrite {
                resource,
                request: None,
            } => out.op(31, &[ridx(resource)? as u64]),
            ResourceRestore { resource } => out.op(32, &[ridx(resource)? as u64]),
            ResourceRestart { resource } => out.op(33, &[ridx(resource)? as u64]),
            ResourceBackup { resource } => out.op(34, &[ridx(resource)? as u64]),
            CoordinatorRestart { persist: None } => out.byte(40),
            CoordinatorRestore => out.byte(41),
            CoordinatorFailover => out.byte(42),
            CoordinatorBackup => out.byte(43),
            ClockJump { node, by } => {
                let node = if node == "coordinator" {
                    0
                } else {
                    widx(node)? as u64 + 1
                };
                out.op(44, &[node]);
                out.signed(*by);
            }
            _ => return None,
        }
        Some(out.0)
    })();
    match short {
        Some(bytes) => w.0.extend(bytes),
        None => w.json_action(a),
    }
}

/// `Err(None)`: ran out of bytes; `Err(Some(why))`: bytes that make no sense here.
fn decode_action(r: &mut Reader, world: &World) -> Result<Action, Option<String>> {
    use Action::*;
    let worker = |r: &mut Reader| -> Result<Name, Option<String>> {
        let i = r.index()?;
        world
            .workers()
            .get(i)
            .map(|w| w.name.clone())
            .ok_or_else(|| Some(format!("no worker number {i}")))
    };
    let resource = |r: &mut Reader| -> Result<Name, Option<String>> {
        let i = r.index()?;
        world
            .resources()
            .get(i)
            .map(|x| x.name.clone())
            .ok_or_else(|| Some(format!("no resource number {i}")))
    };
    let msg =
        |r: &mut Reader| -> Result<MsgSel, Option<String>> { Ok(MsgSel::id(r.index()? as u32)) };
    let op = r.byte().ok_or(None)?;
    Ok(match op {
        1 => {
            let w = worker(r)?;
            let write = world
                .default_write(&w)
                .ok_or_else(|| Some("a write with nowhere to go".to_string()))?;
            Write { worker: w, write }
        }
        0 | 2..=11 => {
            let make = Action::worker_only(WORKER_OPS[op as usize])
                .ok_or_else(|| Some(format!("unknown action code {op}")))?;
            make(worker(r)?)
        }
        20 => Pause {
            worker: worker(r)?,
            ticks: Some(r.varint()?),
        },
        25 => {
            let worker = worker(r)?;
            let lock = match r.index()? {
                0 => None,
                n => Some(
                    world
                        .coordinator()
                        .locks
                        .keys()
                        .nth(n - 1)
                        .cloned()
                        .ok_or_else(|| Some(format!("no lock number {}", n - 1)))?,
                ),
            };
            let within = match r.varint()? {
                0 => None,
                t => Some(t - 1),
            };
            Await {
                worker,
                lock,
                within,
            }
        }
        21 => Deliver { msg: msg(r)? },
        22 => Hold {
            msg: msg(r)?,
            until: None,
        },
        23 => Drop { msg: msg(r)? },
        24 => Duplicate { msg: msg(r)? },
        30 => Advance { ticks: r.varint()? },
        31 => CompleteWrite {
            resource: resource(r)?,
            request: None,
        },
        32 => ResourceRestore {
            resource: resource(r)?,
        },
        33 => ResourceRestart {
            resource: resource(r)?,
        },
        34 => ResourceBackup {
            resource: resource(r)?,
        },
        40 => CoordinatorRestart { persist: None },
        41 => CoordinatorRestore,
        42 => CoordinatorFailover,
        43 => CoordinatorBackup,
        44 => {
            let n = r.index()?;
            let node = if n == 0 {
                Name::from("coordinator")
            } else {
                world
                    .workers()
                    .get(n - 1)
                    .map(|w| w.name.clone())
                    .ok_or_else(|| Some(format!("no worker number {}", n - 1)))?
            };
            ClockJump {
                node,
                by: r.signed()?,
            }
        }
        OP_JSON => {
            let json = r.str().ok_or(None)?;
            serde_json::from_str(&json).map_err(|e| Some(format!("unreadable action: {e}")))?
        }
        other => return Err(Some(format!("unknown action code {other}"))),
    })
}
