//! Exhaustive exploration: every reachable state of a scenario over the choices the
//! model exposes, deduplicated by state, breadth first so each counterexample found is
//! a shortest one (in the manner of Stateright's checker).
//!
//! The script is read as one program per actor: each worker's own actions (acquire,
//! await, prepare, write, retry, renew, release) in order, and the story's faults (restores,
//! restarts, clock jumps, partitions) as a program of their own. Everything else is a
//! choice: which in-flight message to deliver next, holding, dropping or duplicating one
//! within bounds, pausing or crashing a worker within bounds, and letting time run to the
//! next deadline. The explorer is resumable (`run(budget)`) so a page can slice it.

use super::action::{Action, MsgSel};
use super::hash::FxHasher;
use super::invariant::{Milestone, Property, ViolationKind};
use super::message::{self, MessageKind};
use super::scenario::Scenario;
use super::time::Tick;
use super::world::World;
use serde::{Deserialize, Serialize};
use std::collections::{HashSet, VecDeque};
use std::hash::BuildHasherDefault;
use std::hash::{Hash, Hasher};

/// The limits of the search, shown with every report.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Bounds {
    /// Longest run, in actions.
    pub max_depth: usize,
    /// Latest true time the search lets the clock reach.
    pub max_tick: Tick,
    pub max_holds: u8,
    pub max_drops: u8,
    pub max_duplicates: u8,
    /// Pauses (stop-the-world, until resumed) across all workers.
    pub max_pauses: u8,
    /// Crashes across all workers (each may be followed by a restart).
    pub max_crashes: u8,
    /// Actions a worker may take of its own accord, beyond any script: what the sandbox
    /// offers (acquire, write, send, retry, renew, release), across all workers. Exploring
    /// from the start uses none; exploring from a step of a run (`Explorer::from_here`) does.
    pub max_moves: u8,
    /// Stop after this many distinct states (the report then says it is incomplete).
    pub max_states: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_depth: 40,
            max_tick: 60,
            max_holds: 1,
            max_drops: 0,
            max_duplicates: 0,
            max_pauses: 1,
            max_crashes: 0,
            max_moves: 0,
            max_states: 300_000,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvariantResult {
    pub kind: ViolationKind,
    pub held: bool,
    /// The shortest violating run as user actions from the start, replayable with `Run::act`.
    pub counterexample: Option<Vec<Action>>,
}

/// A milestone (`Milestone`): reached or not within the bounds, with the shortest run that
/// reaches it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MilestoneResult {
    pub kind: Milestone,
    pub reached: bool,
    pub witness: Option<Vec<Action>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExploreReport {
    pub scenario: String,
    pub variant: Option<String>,
    pub policy: String,
    pub bounds: Bounds,
    /// States reached, counting each arrival (transitions taken).
    pub states: usize,
    pub distinct_states: usize,
    pub terminal_states: usize,
    /// Filled in by the caller, who owns a clock; the model has none.
    pub elapsed_ms: u64,
    /// False when `max_states` cut the search short.
    pub complete: bool,
    pub invariants: Vec<InvariantResult>,
    /// What the search got to (reachability), so that "held" can be read against it.
    pub milestones: Vec<MilestoneResult>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Used {
    holds: u8,
    drops: u8,
    duplicates: u8,
    pauses: u8,
    crashes: u8,
    moves: u8,
}

impl Used {
    /// These counts with one more of something spent.
    fn plus(self, spend: impl FnOnce(&mut Used)) -> Used {
        let mut u = self;
        spend(&mut u);
        u
    }
}

struct Node {
    world: World,
    pcs: Vec<usize>,
    used: Used,
    depth: usize,
    /// Index into `trail` of the action that led here.
    at: Option<usize>,
}

/// One program: an actor's actions from the script, in order.
#[derive(Clone, Debug)]
struct Program {
    worker: Option<String>,
    actions: Vec<Action>,
}

pub struct Explorer {
    scenario: Scenario,
    variant: Option<String>,
    bounds: Bounds,
    programs: Vec<Program>,
    queue: VecDeque<Node>,
    /// State keys seen. Deterministically hashed (`FxHasher`): std's default hasher is seeded
    /// by the OS, which the model may not reach for.
    seen: HashSet<u64, BuildHasherDefault<FxHasher>>,
    /// (parent trail index, action): enough to rebuild any path.
    trail: Vec<(Option<usize>, Action)>,
    states: usize,
    terminal: usize,
    /// Each property of `Property::ALL` the search has settled (a violation found, a
    /// milestone reached), with the shortest run that did it; empty if it was so at the root.
    settled: Vec<(Property, Vec<Action>)>,
    /// The same as bits in `Property::ALL`'s order (`Ghost::witnessed`).
    settled_bits: u16,
    truncated: bool,
}

/// Whether a worker's action (the script's next, or a free move) is worth trying now: a
/// write or renewal once it holds a lease, an acquire once it holds none. The world accepts
/// more (a tokenless write, a second acquire), but those only repeat what is already tried.
fn worth_taking(w: &World, worker: &str, a: &Action) -> bool {
    let Some(wk) = w.worker(worker) else {
        return false;
    };
    match a {
        Action::Acquire { lock, .. } => {
            let lock = lock.as_deref().unwrap_or(&wk.lock);
            wk.lease(lock).is_none() && !wk.acquiring(lock)
        }
        Action::Prepare { .. }
        | Action::Write { .. }
        | Action::Renew { .. }
        | Action::Release { .. } => wk.holds_any(),
        _ => true,
    }
}

/// A worker's own action, as the sandbox offers it: a free move within `max_moves`. The
/// network's choices, pauses, crashes and time are the explorer's own, bounded apart.
fn is_move(a: &Action) -> bool {
    matches!(
        a,
        Action::Acquire { .. }
            | Action::Write { .. }
            | Action::Send { .. }
            | Action::Retry { .. }
            | Action::Renew { .. }
            | Action::Release { .. }
    )
}

/// Where a script action goes: a worker's program, the fault program, or nowhere (a choice).
fn program_of(a: &Action) -> Option<Option<&str>> {
    use Action::*;
    match a {
        // What the worker's own code does: its moves, preparing a write, waiting for a lease.
        Acquire { .. }
        | Write { .. }
        | Send { .. }
        | Retry { .. }
        | Renew { .. }
        | Release { .. }
        | Prepare { .. }
        | Await { .. } => a.worker().map(Some),
        Partition { .. }
        | Heal { .. }
        | ClockJump { .. }
        | CoordinatorBackup
        | CoordinatorRestart { .. }
        | CoordinatorRestore
        | CoordinatorFailover
        | ResourceBackup { .. }
        | ResourceRestore { .. }
        | ResourceRestart { .. } => Some(None),
        // What the explorer chooses itself: time, delivery, faults of the workers.
        Advance { .. }
        | Deliver { .. }
        | Hold { .. }
        | Unhold { .. }
        | Drop { .. }
        | Duplicate { .. }
        | Pause { .. }
        | Resume { .. }
        | Crash { .. }
        | Restart { .. }
        | CompleteWrite { .. } => None,
    }
}

impl Explorer {
    /// Every order of the scenario's story from its first state. `scenario` should already
    /// have its variant applied (`Scenario::with_variant`).
    pub fn new(scenario: &Scenario, variant: Option<String>, bounds: Bounds) -> Explorer {
        let script: Vec<Action> = scenario.script_actions().map(|(_, a)| a.clone()).collect();
        Explorer::from_here(scenario, variant, World::new(scenario), &script, bounds)
    }

    /// Every order from `world`, a state part-way through a run of `scenario`: the script
    /// still to come (`script`, read as one program per actor as from the start), and, within
    /// `bounds.max_moves`, whatever else a worker could be told to do there. A counterexample
    /// is the actions from `world` on; the caller prefixes how the run got there.
    pub fn from_here(
        scenario: &Scenario,
        variant: Option<String>,
        world: World,
        script: &[Action],
        bounds: Bounds,
    ) -> Explorer {
        let mut programs: Vec<Program> = Vec::new();
        for a in script {
            let Some(owner) = program_of(a) else { continue };
            let owner = owner.map(str::to_string);
            match programs.iter_mut().find(|p| p.worker == owner) {
                Some(p) => p.actions.push(a.clone()),
                None => programs.push(Program {
                    worker: owner,
                    actions: vec![a.clone()],
                }),
            }
        }
        let root = Node {
            world,
            pcs: vec![0; programs.len()],
            used: Used::default(),
            depth: 0,
            at: None,
        };
        let mut e = Explorer {
            scenario: scenario.clone(),
            variant,
            bounds,
            programs,
            queue: VecDeque::new(),
            seen: HashSet::default(),
            trail: Vec::new(),
            states: 1,
            terminal: 0,
            settled: Vec::new(),
            settled_bits: 0,
            truncated: false,
        };
        // A search from part-way may start where a milestone is already behind it, or a
        // property already broken: each is settled by the empty run.
        e.note_settled(0, root.world.ghost().witnessed(), &[]);
        e.seen.insert(e.key(&root));
        e.queue.push_back(root);
        e
    }

    fn key(&self, n: &Node) -> u64 {
        let mut h = super::hash::FxHasher::default();
        n.world.state_key().hash(&mut h);
        n.pcs.hash(&mut h);
        n.used.hash(&mut h);
        h.finish()
    }

    pub fn is_done(&self) -> bool {
        self.queue.is_empty()
    }

    /// Distinct states so far, and the frontier still to expand: for a progress bar.
    pub fn progress(&self) -> (usize, usize) {
        (self.seen.len(), self.queue.len())
    }

    /// Expand up to `budget` states. Returns true when the search is finished.
    pub fn run(&mut self, budget: usize) -> bool {
        for _ in 0..budget {
            let Some(node) = self.queue.pop_front() else {
                return true;
            };
            let choices = self.choices(&node);
            if choices.is_empty() {
                self.terminal += 1;
                continue;
            }
            for (action, pcs, used) in choices {
                let mut world = node.world.clone();
                if world.step_quiet(&action).is_err() {
                    continue;
                }
                self.states += 1;
                // Every transition is checked, a repeated state's included: the state key
                // leaves out what only the milestones read.
                let (before, after) = (node.world.ghost().witnessed(), world.ghost().witnessed());
                if after & !before & !self.settled_bits != 0 {
                    let mut path = self.path(node.at);
                    path.push(action.clone());
                    self.note_settled(before, after, &path);
                }
                let child = Node {
                    world,
                    pcs,
                    used,
                    depth: node.depth + 1,
                    at: Some(self.trail.len()),
                };
                let k = self.key(&child);
                if !self.seen.insert(k) {
                    continue;
                }
                self.trail.push((node.at, action));
                if self.seen.len() >= self.bounds.max_states {
                    self.truncated = true;
                    self.queue.clear();
                    return true;
                }
                self.queue.push_back(child);
            }
        }
        self.queue.is_empty()
    }

    /// Record the properties a transition settled for the first time: witnessed after it
    /// (`after`), not before it, and not settled by an earlier (so shorter) run.
    fn note_settled(&mut self, before: u16, after: u16, path: &[Action]) {
        for (i, p) in Property::ALL.into_iter().enumerate() {
            let bit = 1 << i;
            if after & bit != 0 && before & bit == 0 && self.settled_bits & bit == 0 {
                self.settled_bits |= bit;
                self.settled.push((p, path.to_vec()));
            }
        }
    }

    fn path(&self, mut at: Option<usize>) -> Vec<Action> {
        let mut out = Vec::new();
        while let Some(i) = at {
            let (parent, a) = &self.trail[i];
            out.push(a.clone());
            at = *parent;
        }
        out.reverse();
        out
    }

    fn choices(&self, n: &Node) -> Vec<(Action, Vec<usize>, Used)> {
        let b = &self.bounds;
        let w = &n.world;
        let mut out = Vec::new();
        if n.depth >= b.max_depth {
            return out;
        }
        let same = |a: Action| (a, n.pcs.clone(), n.used);
        for (pi, p) in self.programs.iter().enumerate() {
            // An `await` is a guard, not a move: once its worker believes it holds the lock it
            // passes as a 0-tick no-op, folded into the action after it (time is the
            // explorer's own choice, so it never waits). Until then the program is blocked.
            let mut pc = n.pcs[pi];
            while let Some(a @ Action::Await { .. }) = p.actions.get(pc) {
                if !self.ready(w, p, a) {
                    break;
                }
                pc += 1;
            }
            let Some(a) = p.actions.get(pc) else {
                continue;
            };
            if !self.ready(w, p, a) {
                continue;
            }
            let mut pcs = n.pcs.clone();
            pcs[pi] = pc + 1;
            out.push((a.clone(), pcs, n.used));
        }
        for e in &w.network().in_flight {
            let msg = MsgSel::id(e.id);
            // A reply only tells a worker what happened; when it lands changes nothing else,
            // so it arrives on time rather than being one more ordering to try.
            if e.msg.kind() != MessageKind::Reply {
                out.push(same(Action::Deliver { msg: msg.clone() }));
            }
            // Holding matters for protected writes (a delayed request), and for a registration
            // where a late one replaces a newer one (`Policy::registration_replaces`; under
            // fence-on-acquire it is ignored). Other messages are reordered by delivering them
            // early, which is always a choice.
            let delayable = match e.msg.kind() {
                MessageKind::Write => true,
                MessageKind::Fence => matches!(&e.to, message::Node::Resource(r)
                    if w.resource(r).is_some_and(|r| r.policy.registration_replaces())),
                _ => false,
            };
            if delayable && n.used.holds < b.max_holds && !e.is_held(w.now()) {
                let used = n.used.plus(|u| u.holds += 1);
                out.push((
                    Action::Hold {
                        msg: msg.clone(),
                        until: None,
                    },
                    n.pcs.clone(),
                    used,
                ));
            }
            if n.used.drops < b.max_drops {
                let used = n.used.plus(|u| u.drops += 1);
                out.push((Action::Drop { msg: msg.clone() }, n.pcs.clone(), used));
            }
            if n.used.duplicates < b.max_duplicates {
                let used = n.used.plus(|u| u.duplicates += 1);
                out.push((Action::Duplicate { msg }, n.pcs.clone(), used));
            }
        }
        for r in w.resources() {
            for q in r.checked.iter().map(|c| &c.request) {
                out.push(same(Action::CompleteWrite {
                    resource: r.name.clone(),
                    request: Some(q.id.clone()),
                }));
            }
        }
        for wk in w.workers() {
            let worker = wk.name.clone();
            use super::worker::Status;
            match wk.status {
                Status::Running => {
                    // A pause matters to a worker that holds a lease: it may outlast it.
                    if n.used.pauses < b.max_pauses && wk.holds_any() {
                        let used = n.used.plus(|u| u.pauses += 1);
                        out.push((
                            Action::Pause {
                                worker: worker.clone(),
                                ticks: None,
                            },
                            n.pcs.clone(),
                            used,
                        ));
                    }
                    if n.used.crashes < b.max_crashes {
                        let used = n.used.plus(|u| u.crashes += 1);
                        out.push((Action::Crash { worker }, n.pcs.clone(), used));
                    }
                }
                Status::Paused { until: None } => out.push(same(Action::Resume { worker })),
                Status::Paused { .. } => {}
                Status::Crashed => out.push(same(Action::Restart { worker })),
            }
        }
        if n.used.moves < b.max_moves {
            let used = n.used.plus(|u| u.moves += 1);
            let moves = w
                .enabled_actions()
                .into_iter()
                .filter(|a| is_move(a) && a.worker().is_some_and(|name| worth_taking(w, name, a)));
            for a in moves {
                out.push((a, n.pcs.clone(), used));
            }
        }
        if let Some(t) = w.next_deadline().filter(|t| *t <= b.max_tick) {
            out.push(same(Action::Advance { ticks: t - w.now() }));
        }
        out
    }

    /// A worker's next scripted action waits until the world accepts it and it makes sense
    /// for that worker (`worth_taking`).
    fn ready(&self, w: &World, p: &Program, a: &Action) -> bool {
        if let Action::Await { worker, lock, .. } = a {
            // Only ever a 0-tick check here: the explorer does not let `await` move time.
            let Some(wk) = w.worker(worker) else {
                return false;
            };
            return wk.is_running() && wk.believes(lock.as_deref().unwrap_or(&wk.lock));
        }
        if w.check(a).is_err() {
            return false;
        }
        p.worker
            .as_deref()
            .is_none_or(|name| worth_taking(w, name, a))
    }

    pub fn report(&self) -> ExploreReport {
        let run_to = |p: Property| self.settled.iter().find(|(q, _)| *q == p).map(|(_, r)| r);
        let invariants = ViolationKind::ALL
            .iter()
            .map(|k| {
                let found = run_to(Property::Always(*k));
                InvariantResult {
                    kind: *k,
                    held: found.is_none(),
                    counterexample: found.cloned(),
                }
            })
            .collect();
        ExploreReport {
            scenario: self.scenario.id.clone(),
            variant: self.variant.clone(),
            policy: self.scenario.policy.as_str().to_string(),
            bounds: self.bounds.clone(),
            states: self.states,
            distinct_states: self.seen.len(),
            terminal_states: self.terminal,
            elapsed_ms: 0,
            complete: !self.truncated,
            invariants,
            milestones: Milestone::ALL
                .iter()
                .map(|m| {
                    let found = run_to(Property::Sometimes(*m));
                    MilestoneResult {
                        kind: *m,
                        reached: found.is_some(),
                        witness: found.cloned(),
                    }
                })
                .collect(),
        }
    }
}

impl Bounds {
    /// Default bounds for a scenario: time runs as far as its script lets it, and a little more.
    pub fn for_scenario(s: &Scenario) -> Bounds {
        // How far the script takes true time: its advances, and its awaits as long as each
        // waited, which only running it tells. A script the world refuses counts its advances.
        let mut run = super::run::Run::new(s, None);
        let scripted: Tick = match run.run_script() {
            Ok(()) => run.world().now(),
            Err(_) => s
                .script_actions()
                .map(|(_, a)| match a {
                    Action::Advance { ticks } => *ticks,
                    _ => 0,
                })
                .sum(),
        };
        Bounds {
            max_tick: scripted + 2,
            ..Bounds::default()
        }
    }
}

impl Bounds {
    /// Default bounds for exploring from `world` with `script` still to come: time as far as
    /// the rest of the script takes it, then long enough for a lease to lapse and be taken
    /// over (the longest TTL and two slow round trips). Where the script has ended (a sandbox,
    /// or a run the user took over), three moves of the workers' own: enough for a write to
    /// be held while its lease lapses and another worker to acquire and write (the paused
    /// writer, from a sandbox where one worker holds the lock) and no pause, since a move
    /// taken late already shows a worker that stalled, and with a pause the sandbox above
    /// has 102,770 states instead of 27,804 and no shorter breach. Where the script goes on, its
    /// rest is the story and no moves are added: one free move anywhere in it multiplies
    /// the states by about forty (paused-writer from its third step: 4,726 → 192,121).
    pub fn from_here(s: &Scenario, world: &World, script: &[Action]) -> Bounds {
        let mut rest = world.clone();
        let scripted: Tick = match script.iter().try_for_each(|a| rest.step_quiet(a)) {
            Ok(()) => rest.now() - world.now(),
            Err(_) => script
                .iter()
                .map(|a| match a {
                    Action::Advance { ticks } => *ticks,
                    _ => 0,
                })
                .sum(),
        };
        let ttl = s.locks.iter().map(|l| l.ttl).max().unwrap_or(0);
        let round_trip = 2 * (s.network.delay + s.network.jitter);
        Bounds {
            max_tick: world.now() + scripted + ttl + 2 * round_trip + 2,
            max_moves: if script.is_empty() { 3 } else { 0 },
            max_pauses: if script.is_empty() { 0 } else { 1 },
            ..Bounds::default()
        }
    }
}

/// Explore a scenario to the end.
pub fn explore(scenario: &Scenario, variant: Option<String>, bounds: Bounds) -> ExploreReport {
    let mut e = Explorer::new(scenario, variant, bounds);
    while !e.run(10_000) {}
    e.report()
}
