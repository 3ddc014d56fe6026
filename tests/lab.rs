//! The lease-duration lab measures the trade-offs the essay names, and every plotted run replays.

use fencing_lab::sim::lab::{self, LabParams};
use fencing_lab::sim::{Run, ViolationKind};

fn params() -> LabParams {
    LabParams {
        ttls: vec![3, 6, 30, 60],
        runs: 6,
        duration: 240,
        ..LabParams::default()
    }
}

#[test]
fn longer_leases_delay_takeover_and_suffer_fewer_false_expirations() {
    let r = lab::sweep(&params());
    let short = &r.points[0];
    let long = &r.points[3];
    assert!(
        long.takeover_mean.unwrap() > 3.0 * short.takeover_mean.unwrap(),
        "{r:#?}"
    );
    assert!(short.false_expirations_mean > long.false_expirations_mean);
    assert!(short.renewals_per_minute > long.renewals_per_minute);
}

#[test]
fn without_a_fence_short_leases_let_stale_writes_through_and_the_fence_stops_them() {
    let r = lab::sweep(&params());
    assert!(
        r.points[0].stale_accepted_unfenced_mean > 0.0,
        "short leases under pauses must break safety"
    );
    let edge = r.unsafe_up_to.expect("some TTL is unsafe without fencing");
    assert!(edge < 60, "the longest lease outlasts every pause: {edge}");
    for pt in &r.points {
        assert_eq!(
            pt.stale_overwrites_fenced_total, 0,
            "the fenced copy never takes a stale overwrite (ttl {})",
            pt.ttl
        );
    }
}

#[test]
fn a_plotted_run_opens_as_a_normal_run_with_the_same_outcome() {
    let p = params();
    let (scenario, actions, measured) = lab::simulate(&p, 3, 1);
    let mut run = Run::new(&scenario, None);
    for a in actions {
        run.act(a).expect("lab actions replay");
    }
    let unfenced = run
        .world()
        .ghost
        .violations
        .iter()
        .filter(|v| {
            v.resource == "unfenced"
                && matches!(
                    v.kind,
                    ViolationKind::StaleOverwrite | ViolationKind::SupersededWrite
                )
        })
        .count();
    assert_eq!(unfenced as u32, measured.stale_accepted_unfenced);
    assert_eq!(
        run.world().metrics.fencing_rejected_stale,
        measured.stale_rejected_fenced
    );
    assert_eq!(
        lab::simulate(&p, 3, 1).2,
        measured,
        "the same seed measures the same run"
    );
}
