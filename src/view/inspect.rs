//! The inspector: every node's state as labelled rows, with what the last step changed.

use super::text;
use crate::sim::report::Report;
use crate::sim::run::Run;
use crate::sim::worker::Asked;
use crate::sim::World;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub label: String,
    pub value: String,
    /// The value differs from the one before the current step (or the row is new).
    pub changed: bool,
}

/// What a section shows: it decides the card's colour, so rewording `subtitle` never does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SectionKind {
    Coordinator,
    Worker,
    Resource,
    Requests,
    Metrics,
}

impl SectionKind {
    /// The card's CSS class suffix (`card-coordinator`, ...).
    pub fn class(self) -> &'static str {
        match self {
            SectionKind::Coordinator => "coordinator",
            SectionKind::Worker => "worker",
            SectionKind::Resource => "resource",
            SectionKind::Requests => "requests",
            SectionKind::Metrics => "metrics",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// `coordinator`, a worker's or a resource's name, `requests`, `evidence`.
    pub title: String,
    pub kind: SectionKind,
    /// What kind of node it is, in a few words, for people.
    pub subtitle: String,
    pub rows: Vec<Row>,
}

fn row(label: impl Into<String>, value: impl Into<String>) -> Row {
    Row {
        label: label.into(),
        value: value.into(),
        changed: false,
    }
}

fn token(t: Option<&crate::sim::token::Token>) -> String {
    t.map_or("none".into(), |t| t.short())
}

/// The coordinator's backup as its row shows it: the counters a restore would bring back
/// (holders never come back), and whether it is the one the world starts with.
fn backup(w: &World, start: &World) -> String {
    let Some(b) = &w.coordinator().backup else {
        return "none".into();
    };
    let counters: Vec<String> = b
        .iter()
        .map(|(name, l)| format!("{name} {}", l.issuer.describe()))
        .collect();
    let counters = counters.join(", ");
    let initial = start
        .coordinator()
        .backup
        .as_ref()
        .is_some_and(|s| std::rc::Rc::ptr_eq(s, b) || **s == **b);
    if initial {
        format!("{counters} (made at the start)")
    } else {
        counters
    }
}

/// The nodes of one world, without change marks; `start` is the world at step 0.
pub fn world_sections(w: &World, start: &World) -> Vec<Section> {
    let mut out = Vec::new();
    let c = &w.coordinator();
    let mut rows = vec![row("its clock reads", c.local(w.now()).to_string())];
    if c.replicas > 1 {
        rows.push(row(
            "serving replica",
            format!("{} of {}", c.replica + 1, c.replicas),
        ));
    }
    for (name, l) in &c.locks {
        let holder = match &l.holder {
            Some(h) => format!("{} with token {}", h.worker, h.token.short()),
            None => "nobody".into(),
        };
        rows.push(row(format!("{name}: holder"), holder));
        if let Some(h) = &l.holder {
            rows.push(row(
                format!("{name}: lease expires (its clock)"),
                h.expires_local.to_string(),
            ));
        }
        rows.push(row(format!("{name}: issuer"), l.issuer.describe()));
        if let Some(until) = l.delayed_until_local {
            rows.push(row(
                format!("{name}: lock-delay"),
                format!("granted to nobody until its clock {until}"),
            ));
        }
        let on = |yes: bool, what: &str| yes.then(|| what.to_string());
        let rules: Vec<String> = [
            on(l.takeover, "a new acquire takes over"),
            on(l.bump_on_expiry, "an expiry bumps the token"),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !rules.is_empty() {
            rows.push(row(format!("{name}: rules"), rules.join("; ")));
        }
        if !l.queue.is_empty() {
            let waiting: Vec<&str> = l.queue.iter().map(|q| q.worker.as_str()).collect();
            rows.push(row(format!("{name}: waiting"), waiting.join(", ")));
        }
        if let Some(p) = &l.pending {
            rows.push(row(
                format!("{name}: fencing before grant"),
                format!(
                    "token {} for {}, awaiting {}",
                    p.token.short(),
                    p.worker.as_deref().unwrap_or("nobody (a bump)"),
                    p.awaiting.join(", ")
                ),
            ));
        }
    }
    rows.push(row("backup", backup(w, start)));
    out.push(Section {
        title: "coordinator".into(),
        kind: SectionKind::Coordinator,
        subtitle: "lease coordinator".into(),
        rows,
    });

    for wk in w.workers() {
        let mut rows = vec![row("state", text::status(&wk.status))];
        if wk.leases.is_empty() {
            rows.push(row("token it holds", "none"));
        }
        for l in &wk.leases {
            rows.push(row(
                "token it holds",
                format!("{} ({})", l.token.short(), l.lock),
            ));
            rows.push(row(
                "believes valid until (its clock)",
                l.valid_until_local.to_string(),
            ));
        }
        if !wk.outstanding.is_empty() {
            let asked: Vec<String> = wk
                .outstanding
                .iter()
                .map(|o| match &o.asked {
                    Asked::Acquire => format!("#{} acquire {}", o.req, o.lock),
                    Asked::Renew(t) => format!("#{} renew {} ({})", o.req, o.lock, t.short()),
                })
                .collect();
            rows.push(row("waiting for answers to", asked.join(", ")));
        }
        rows.push(row("its clock reads", wk.local(w.now()).to_string()));
        if wk.partitioned {
            rows.push(row("network", "cut off from the coordinator"));
        }
        if !wk.prepared.is_empty() {
            let p: Vec<String> = wk
                .prepared
                .iter()
                .map(|r| format!("{} (token {})", r.id, token(r.token.as_ref())))
                .collect();
            rows.push(row("prepared, not yet sent", p.join(", ")));
        }
        if !wk.inbox.is_empty() {
            rows.push(row("mail waiting (paused)", wk.inbox.len().to_string()));
        }
        out.push(Section {
            title: wk.name.to_string(),
            kind: SectionKind::Worker,
            subtitle: "worker".into(),
            rows,
        });
    }

    for r in w.resources() {
        let fence = if r.kind.can_fence() {
            r.policy.as_str()
        } else {
            "cannot fence"
        };
        let mut rows = vec![
            row(
                format!("{} token", r.policy.kept_token()),
                token(r.data.highest.as_ref()),
            ),
            row("value", r.data.value.clone()),
        ];
        if r.versioned {
            // What a conditional write names (S3's ETag, GCS's generation).
            rows.push(row("version", r.data.version.to_string()));
        }
        if !r.data.results.is_empty() {
            let recorded: Vec<String> = r
                .data
                .results
                .iter()
                .map(|(key, rec)| {
                    let expired = r.recorded(key, w.now()).is_none();
                    let note = if expired { " (key expired)" } else { "" };
                    format!("{key}: {}{note}", rec.outcome.word())
                })
                .collect();
            rows.push(row("recorded results", recorded.join(", ")));
        }
        if !r.checked.is_empty() {
            let c: Vec<&str> = r.checked.iter().map(|q| q.request.id.as_str()).collect();
            rows.push(row("checked, not yet written", c.join(", ")));
        }
        if r.data.items.len() > 1 {
            rows.push(row("items", r.data.items.to_vec().join(", ")));
        }
        out.push(Section {
            title: r.name.to_string(),
            kind: SectionKind::Resource,
            subtitle: format!("{} · {fence}", r.kind.name()),
            rows,
        });
    }
    out
}

/// Mark every row whose value differs from the same row in `before`.
pub fn mark_changes(now: &mut [Section], before: &[Section]) {
    for s in now.iter_mut() {
        let old = before.iter().find(|b| b.title == s.title);
        for r in &mut s.rows {
            let was = old.and_then(|o| o.rows.iter().find(|x| x.label == r.label));
            r.changed = was.is_none_or(|x| x.value != r.value);
        }
    }
}

/// Everything the inspector shows at the run's current step.
pub fn sections(run: &Run) -> Vec<Section> {
    let start = run.world_at(0).expect("a run has its start");
    let mut now = world_sections(run.world(), start);
    let c = run.cursor();
    if c > 0 {
        if let Some(prev) = run.world_at(c - 1) {
            mark_changes(&mut now, &world_sections(prev, start));
        }
    }

    let report = Report::of(run);
    let touched: Vec<&str> = run
        .last_step_events()
        .iter()
        .filter_map(|e| e.request.as_deref())
        .collect();
    let requests = report
        .requests
        .iter()
        .map(|r| {
            // The report gives tokens as JSON (a number, or "e2:41"); read them without a serializer.
            let tok = match &r.token {
                None => "no token".to_string(),
                Some(serde_json::Value::String(t)) => format!("token {t}"),
                Some(v) => format!("token {}", v.as_i64().unwrap_or_default()),
            };
            let verdict = match r.reason {
                Some(reason) => format!("{} ({})", r.outcome, reason.as_str()),
                None => r.outcome.to_string(),
            };
            Row {
                label: format!("{} → {}", r.id, r.resource),
                value: format!("{tok}: {verdict}"),
                changed: c > 0 && touched.contains(&r.id.as_str()),
            }
        })
        .collect::<Vec<_>>();
    if !requests.is_empty() {
        now.push(Section {
            title: "requests".into(),
            kind: SectionKind::Requests,
            subtitle: "each request's verdict".into(),
            rows: requests,
        });
    }

    let prev_metrics = if c > 0 {
        run.world_at(c - 1).map(|w| w.metrics().rows())
    } else {
        None
    };
    let rows = run
        .world()
        .metrics()
        .rows()
        .into_iter()
        .enumerate()
        .map(|(i, (name, v))| Row {
            label: name.to_string(),
            value: v.to_string(),
            changed: prev_metrics.as_ref().is_some_and(|p| p[i].1 != v),
        })
        .collect();
    now.push(Section {
        title: "evidence".into(),
        kind: SectionKind::Metrics,
        subtitle: "metrics".into(),
        rows,
    });
    now
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    #[test]
    fn the_last_step_is_marked() {
        let s = presets::get("paused-writer").unwrap();
        let mut run = Run::new(&s, s.variants.first());
        assert!(
            sections(&run)
                .iter()
                .flat_map(|s| &s.rows)
                .all(|r| !r.changed),
            "nothing changed at step 0"
        );
        run.step_forward().unwrap();
        run.step_forward().unwrap(); // the grant arrives
        let secs = sections(&run);
        let a = secs.iter().find(|s| s.title == "A").unwrap();
        let held = a.rows.iter().find(|r| r.label == "token it holds").unwrap();
        assert!(held.changed && held.value.starts_with("41"), "{held:?}");
        let coord = secs.iter().find(|s| s.title == "coordinator").unwrap();
        assert!(coord
            .rows
            .iter()
            .any(|r| r.label.ends_with("holder") && r.value.starts_with('A')));
        let ev = secs.iter().find(|s| s.title == "evidence").unwrap();
        assert!(ev
            .rows
            .iter()
            .any(|r| r.label == "lease acquired" && r.changed && r.value == "1"));
    }

    #[test]
    fn requests_show_their_verdicts() {
        let s = presets::get("paused-writer").unwrap();
        let mut run = Run::new(&s, s.variants.first());
        run.run_script().unwrap();
        let secs = sections(&run);
        let req = secs.iter().find(|s| s.title == "requests").unwrap();
        assert!(
            req.rows
                .iter()
                .any(|r| r.label.starts_with("A-stale") && r.value.contains("rejected (stale)")),
            "{req:?}"
        );
    }

    #[test]
    fn the_backup_row_says_what_a_restore_brings_back() {
        let row_of = |run: &Run| {
            let secs = sections(run);
            let c = secs.iter().find(|s| s.title == "coordinator").unwrap();
            c.rows.iter().find(|r| r.label == "backup").unwrap().clone()
        };
        // At t=0 in every preset: the backup the world starts with, by its counters — not
        // "taken", as if someone had taken one.
        for s in presets::all() {
            let run = Run::new(&s, s.variants.first());
            let r = row_of(&run);
            assert!(r.value.ends_with(" (made at the start)"), "{}: {r:?}", s.id);
            for l in &s.locks {
                assert!(r.value.contains(&l.name), "{}: {r:?}", s.id);
            }
            assert!(!r.value.contains("taken"), "{}: {r:?}", s.id);
        }
        // A backup taken later holds the counters of its time, and is marked as a change.
        let s = presets::get("sandbox").unwrap();
        let mut run = Run::new(&s, None);
        run.act(crate::sim::Action::Acquire {
            worker: "A".into(),
            lock: None,
        })
        .unwrap();
        run.act(crate::sim::Action::Advance { ticks: 2 }).unwrap();
        assert_eq!(row_of(&run).value, "store-lock next 1 (made at the start)");
        run.act(crate::sim::Action::CoordinatorBackup).unwrap();
        let r = row_of(&run);
        assert_eq!(r.value, "store-lock next 2");
        assert!(r.changed);
    }
}
