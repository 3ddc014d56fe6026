//! Branches: the ways a run went. Acting while stepped back forks the run; what came after
//! is not thrown away but kept as a branch the user can switch back to, compare with the
//! one on screen, share in a link and save in a file.
//!
//! Branches are numbered in the order they were made (1 is the first). Only their runs are
//! kept; the tree is worked out from them: a branch's parent is the earlier branch it shares
//! the most steps with, and it forks at the step after those. Steps are compared by the
//! actions they took, which decides the world, the model being deterministic.

use crate::sim::run::{Entry, Run};
use crate::sim::scenario::Branch;
/// The most branches kept, the one on screen included: forking past it lets the oldest go.
pub use crate::sim::scenario::MAX_BRANCHES;

/// The most events the branches not on screen may hold together: twice a run's budget, so
/// that a page holding a run and its branches stays within the work budget's memory
/// (docs/security.md) however many long branches the user makes.
pub const MAX_KEPT_EVENTS: usize = 2 * crate::sim::run::MAX_RUN_EVENTS;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Branches {
    /// The branches not on screen, by number, oldest first.
    others: Vec<(usize, Run)>,
    /// The number of the branch on screen.
    current: usize,
    next: usize,
}

impl Default for Branches {
    fn default() -> Self {
        Branches {
            others: Vec::new(),
            current: 1,
            next: 2,
        }
    }
}

/// A branch as the branch list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub number: usize,
    /// The branch it forked from, and the last step they share (none for the first).
    pub parent: Option<(usize, usize)>,
    /// How deep in the tree (0 for the first branch), for indenting the list.
    pub depth: usize,
    /// Its steps, and the step it is at.
    pub steps: usize,
    pub cursor: usize,
    /// What it did first after the fork, in words ("A resumes", "the script's step 4").
    pub first: Option<String>,
    pub current: bool,
}

/// How many leading steps two runs share.
pub fn shared_steps(a: &Run, b: &Run) -> usize {
    (1..=a.len().min(b.len()))
        .take_while(|&i| a.step_actions(i) == b.step_actions(i))
        .count()
}

/// Step `i` of `run` in words, for the branch list and the compare view.
pub fn step_words(run: &Run, i: usize) -> Option<String> {
    match run.entry(i)? {
        Entry::User(a) => Some(format!("“{a}”")),
        Entry::Script(j) => Some(format!("the script's step {}", j + 1)),
        Entry::Start => None,
    }
}

/// A branch in the branch list and the compare view: "Branch 2, from step 3 of branch 1:
/// “advance 2 ticks” … (5 steps)". Deeper branches are marked with ↳, one per level.
pub fn label(row: &Row) -> String {
    let indent = "↳ ".repeat(row.depth);
    let n = row.number;
    let steps = match row.steps {
        1 => "1 step".to_string(),
        k => format!("{k} steps"),
    };
    match (row.parent, &row.first) {
        (Some((p, at)), Some(first)) => {
            format!("{indent}Branch {n}, from step {at} of branch {p}: {first} … ({steps})")
        }
        (Some((p, at)), None) => format!("{indent}Branch {n}: branch {p} to step {at}"),
        (None, _) => format!("{indent}Branch {n} ({steps})"),
    }
}

impl Branches {
    /// The number of the branch on screen.
    pub fn current(&self) -> usize {
        self.current
    }

    /// True when there is more than the branch on screen.
    pub fn any(&self) -> bool {
        !self.others.is_empty()
    }

    pub fn others(&self) -> impl Iterator<Item = (usize, &Run)> {
        self.others.iter().map(|(n, r)| (*n, r))
    }

    pub fn get(&self, number: usize) -> Option<&Run> {
        self.others
            .iter()
            .find(|(n, _)| *n == number)
            .map(|(_, r)| r)
    }

    /// The run on screen is being replaced by a new branch; `left` (what it was) is kept
    /// under the current number, unless a kept branch already took the same steps. Returns
    /// the kept branch's number, the new branch's, and a branch let go to stay within
    /// [`MAX_BRANCHES`].
    pub fn fork(&mut self, left: Run) -> Fork {
        let kept = match self
            .others
            .iter()
            .find(|(_, r)| r.len() == left.len() && shared_steps(r, &left) == left.len())
        {
            Some((n, _)) => *n,
            None => {
                self.insert(self.current, left);
                self.current
            }
        };
        self.current = self.next;
        self.next += 1;
        // Kept branches share the steps before their forks, but each keeps its own after
        // them: the oldest go first while there are too many, or they hold too many events.
        let mut dropped = Vec::new();
        while !self.others.is_empty()
            && (self.others.len() >= MAX_BRANCHES || self.kept_events() > MAX_KEPT_EVENTS)
        {
            dropped.push(self.others.remove(0).0);
        }
        Fork {
            kept,
            now: self.current,
            dropped,
        }
    }

    /// The events the kept branches hold, counted as if none shared any (an upper bound).
    fn kept_events(&self) -> usize {
        self.others
            .iter()
            .map(|(_, r)| r.events_end(r.len()).unwrap_or(0))
            .sum()
    }

    /// Put branch `number` on screen (into `run`), keeping the one that was. False if there
    /// is no such branch.
    pub fn switch(&mut self, number: usize, run: &mut Run) -> bool {
        let Some(i) = self.others.iter().position(|(n, _)| *n == number) else {
            return false;
        };
        let (_, picked) = self.others.remove(i);
        let left = std::mem::replace(run, picked);
        self.insert(self.current, left);
        self.current = number;
        true
    }

    /// Keep `run` as branch `number`, in order (an insert, not a sort: no sort's code in the
    /// page for a list this short).
    fn insert(&mut self, number: usize, run: Run) {
        let at = self.others.partition_point(|(n, _)| *n < number);
        self.others.insert(at, (number, run));
    }

    /// Every kept branch rebuilt by `f` (the runs replayed under another receiver choice).
    pub fn rebuild(&mut self, mut f: impl FnMut(&Run) -> Run) {
        for (_, r) in &mut self.others {
            *r = f(r);
        }
    }

    /// Branches from a link or a file: `others` are the ones not on screen, in order, and
    /// the one on screen comes after the first `at` of them.
    pub fn from_runs(others: Vec<Run>, at: usize) -> Branches {
        let at = at.min(others.len());
        let current = at + 1;
        let others: Vec<(usize, Run)> = others
            .into_iter()
            .enumerate()
            .map(|(i, r)| (if i < at { i + 1 } else { i + 2 }, r))
            .collect();
        Branches {
            next: others.len() + 2,
            others,
            current,
        }
    }

    /// How many kept branches come before the one on screen (what a link carries to number
    /// them again as they were).
    pub fn position(&self) -> usize {
        self.others
            .iter()
            .filter(|(n, _)| *n < self.current)
            .count()
    }

    /// The kept branches as a file or a link keeps them, in order.
    pub fn specs(&self) -> Vec<Branch> {
        self.others.iter().map(|(_, r)| r.as_branch()).collect()
    }

    /// The tree, as a list in depth-first order: each branch after its parent, children by
    /// number. `run` is the branch on screen.
    pub fn rows(&self, run: &Run) -> Vec<Row> {
        let mut all: Vec<(usize, &Run)> = self.others().collect();
        all.insert(self.position(), (self.current, run));
        // Each branch's parent: the earlier branch it shares most steps with (the first such).
        let parents: Vec<Option<(usize, usize)>> = all
            .iter()
            .enumerate()
            .map(|(k, (_, r))| {
                all[..k].iter().map(|(n, p)| (*n, shared_steps(p, r))).fold(
                    None,
                    |best: Option<(usize, usize)>, (n, s)| match best {
                        Some((_, b)) if b >= s => best,
                        _ => Some((n, s)),
                    },
                )
            })
            .collect();
        let mut rows = Vec::with_capacity(all.len());
        let mut stack: Vec<(usize, usize)> = all
            .iter()
            .zip(&parents)
            .filter(|(_, p)| p.is_none())
            .map(|((n, _), _)| (*n, 0))
            .rev()
            .collect();
        while let Some((n, depth)) = stack.pop() {
            let k = all.iter().position(|(m, _)| *m == n).expect("listed");
            let r = all[k].1;
            let parent = parents[k];
            rows.push(Row {
                number: n,
                parent,
                depth,
                steps: r.len(),
                cursor: r.cursor(),
                first: step_words(r, parent.map_or(1, |(_, at)| at + 1)),
                current: n == self.current,
            });
            for (j, p) in parents.iter().enumerate().rev() {
                if p.is_some_and(|(m, _)| m == n) {
                    stack.push((all[j].0, depth + 1));
                }
            }
        }
        rows
    }
}

/// What a fork did to the branches (see [`Branches::fork`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fork {
    pub kept: usize,
    pub now: usize,
    /// The branches let go to stay within the limits, oldest first.
    pub dropped: Vec<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;
    use crate::sim::Action;

    fn run() -> Run {
        let s = presets::get("paused-writer").unwrap();
        let mut r = Run::new(&s, s.variants.first());
        r.run_script().unwrap();
        r
    }

    #[test]
    fn a_fork_keeps_what_came_after_and_the_tree_shows_where_it_parted() {
        let mut b = Branches::default();
        let mut on_screen = run();
        let whole = on_screen.len();
        on_screen.seek(3);
        let left = on_screen.clone();
        on_screen.act(Action::Advance { ticks: 1 }).unwrap();
        let f = b.fork(left);
        assert_eq!(
            f,
            Fork {
                kept: 1,
                now: 2,
                dropped: Vec::new()
            }
        );
        assert_eq!(
            b.get(1).unwrap().len(),
            whole,
            "the first branch keeps every step"
        );
        let rows = b.rows(&on_screen);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].number, rows[0].parent), (1, None));
        assert_eq!((rows[1].number, rows[1].parent), (2, Some((1, 3))));
        assert_eq!(rows[1].first.as_deref(), Some("“advance 1 tick”"));
        assert!(rows[1].current && !rows[0].current);

        // Back on branch 1, fork it again at step 5: branch 3's parent is 1, not 2.
        assert!(b.switch(1, &mut on_screen));
        assert_eq!(on_screen.len(), whole);
        on_screen.seek(5);
        let left = on_screen.clone();
        on_screen.act(Action::Advance { ticks: 2 }).unwrap();
        // Branch 1 is kept already with the same steps: not a second copy.
        assert_eq!(b.fork(left).kept, 1);
        let rows = b.rows(&on_screen);
        let order: Vec<_> = rows.iter().map(|r| (r.number, r.depth)).collect();
        assert_eq!(order, vec![(1, 0), (2, 1), (3, 1)]);
        assert_eq!(rows[2].parent, Some((1, 5)));
    }

    #[test]
    fn forking_past_the_limit_lets_the_oldest_go() {
        let mut b = Branches::default();
        let mut on_screen = run();
        for k in 0..MAX_BRANCHES + 2 {
            on_screen.seek(1);
            let left = on_screen.clone();
            on_screen
                .act(Action::Advance {
                    ticks: k as u64 + 1,
                })
                .unwrap();
            on_screen.act(Action::Advance { ticks: 1 }).unwrap();
            let f = b.fork(left);
            assert!(b.others.len() < MAX_BRANCHES, "{k}");
            assert_eq!(!f.dropped.is_empty(), k + 2 > MAX_BRANCHES, "{k}");
        }
        assert_eq!(b.rows(&on_screen).len(), MAX_BRANCHES);
    }

    #[test]
    fn specs_rebuild_the_same_branches_numbered_as_they_were() {
        let s = presets::get("paused-writer").unwrap();
        let v = s.variants.first();
        let mut b = Branches::default();
        let mut on_screen = run();
        on_screen.seek(4);
        let left = on_screen.clone();
        on_screen.act(Action::Advance { ticks: 3 }).unwrap();
        b.fork(left);
        assert!(b.switch(1, &mut on_screen));
        let back: Vec<Run> = b
            .specs()
            .iter()
            .map(|p| Run::replay_branch(&s, v, p).unwrap())
            .collect();
        let again = Branches::from_runs(back, b.position());
        assert_eq!(again.current(), 1);
        assert_eq!(again.rows(&on_screen), b.rows(&on_screen));
        assert_eq!(again.get(2), b.get(2));
    }
}
