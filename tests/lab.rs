//! The lease-duration lab measures the trade-offs the essay names, and every plotted run replays.

use fencing_lab::sim::lab::{self, LabParams};
use fencing_lab::sim::{Run, ViolationKind};

/// TTLs from just above the round trip (1–2 ticks each way, counted from the request's send)
/// to far above every pause.
fn params() -> LabParams {
    LabParams {
        ttls: vec![5, 8, 30, 60],
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

/// The sweep the app runs when nobody touches the form.
fn app_default() -> LabParams {
    fencing_lab::view::lab::LabForm::default().lab_params()
}

#[test]
fn renewal_traffic_falls_as_the_lease_grows() {
    for p in [app_default(), LabParams::default()] {
        let r = lab::sweep(&p);
        let traffic: Vec<f64> = r
            .points
            .iter()
            .map(|pt| pt.lease_messages_per_minute)
            .collect();
        assert!(
            traffic.windows(2).all(|w| w[1] <= w[0]),
            "never rises from one TTL to the next: {traffic:?} at {:?}",
            p.ttls
        );
        assert!(traffic[0] > 5.0 * traffic[traffic.len() - 1], "{traffic:?}");
        // From where a lease can be kept by renewing alone (two round trips and more), the
        // renewals themselves fall: every third of a longer lease is a longer interval.
        let kept: Vec<f64> = r
            .points
            .iter()
            .filter(|pt| pt.ttl >= 9)
            .map(|pt| pt.renewals_per_minute)
            .collect();
        assert!(kept.windows(2).all(|w| w[1] < w[0]), "{kept:?}");
    }
    // The interval is the TTL's fraction rounded, not truncated: a third of 6 is 2, of 15 is 5.
    let p = LabParams::default();
    let every: Vec<u64> = [2, 4, 6, 9, 15, 30, 60]
        .iter()
        .map(|&t| lab::renew_every(&p, t))
        .collect();
    assert_eq!(every, [1, 1, 2, 3, 5, 10, 20]);
}

#[test]
fn the_fenced_copy_still_accepts_superseded_writes_at_short_leases() {
    let r = lab::sweep(&app_default());
    let short = r.points.iter().filter(|pt| pt.ttl <= 9);
    assert!(
        short
            .clone()
            .any(|pt| pt.superseded_accepted_fenced_mean > 0.0),
        "highest-seen applies an old owner's write that lands before the new owner's first: {:?}",
        r.points
            .iter()
            .map(|pt| (pt.ttl, pt.superseded_accepted_fenced_mean))
            .collect::<Vec<_>>()
    );
    for pt in short {
        let runs = &pt.runs;
        // Each is an old owner's write the unfenced copy applied as well.
        assert!(
            runs.iter()
                .map(|r| r.superseded_accepted_fenced)
                .sum::<u32>()
                <= runs.iter().map(|r| r.stale_accepted_unfenced).sum::<u32>()
        );
    }
}

#[test]
fn without_a_fence_short_leases_let_stale_writes_through_and_the_fence_stops_them() {
    let r = lab::sweep(&params());
    assert!(
        r.points[0].stale_accepted_unfenced_mean > 0.0,
        "short leases under pauses must break safety"
    );
    let edge = r
        .stale_seen_up_to
        .expect("some TTL is unsafe without fencing");
    // Not a safe threshold: these runs cap pauses at 12 s, so a 60 s lease outlasts them
    // all. The cap, not the lease, keeps it clean; real pauses have none.
    assert!(
        edge < 60,
        "a 60 s lease outlasts every capped pause: {edge}"
    );
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
    let (scenario, actions, measured) = lab::simulate(&p, 5, 1);
    let mut run = Run::new(&scenario, None);
    for a in actions {
        run.act(a).expect("lab actions replay");
    }
    let unfenced = run
        .world()
        .ghost()
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
        run.world().metrics().fencing_rejected_stale,
        measured.stale_rejected_fenced
    );
    assert_eq!(
        lab::simulate(&p, 5, 1).2,
        measured,
        "the same seed measures the same run"
    );
}

#[test]
fn a_constant_clock_skew_cancels_out_and_a_drift_does_not() {
    let p = params();
    let skewed = LabParams {
        skew: 40,
        ..params()
    };
    let (s, _, plain) = lab::simulate(&p, 6, 2);
    let (t, _, with_skew) = lab::simulate(&skewed, 6, 2);
    assert_ne!(
        s.workers[0].clock.offset, t.workers[0].clock.offset,
        "the skew reached the clocks"
    );
    assert_eq!(
        plain, with_skew,
        "leases are durations on one clock: an offset changes nothing"
    );
    let drifting = LabParams {
        drift_permille: 300,
        ..params()
    };
    let a: Vec<_> = (0..p.runs).map(|i| lab::simulate(&p, 6, i).2).collect();
    let b: Vec<_> = (0..p.runs)
        .map(|i| lab::simulate(&drifting, 6, i).2)
        .collect();
    assert_ne!(a, b, "a fast or slow clock changes when leases run out");
}

#[test]
fn a_lease_no_longer_than_the_round_trip_is_hardly_ever_held() {
    // Counted from the request's send, a 2-tick lease has run out before a grant that took
    // 2 to 4 ticks there and back arrives: the worker ignores it and asks again.
    let p = LabParams {
        ttls: vec![2, 30],
        ..params()
    };
    let r = lab::sweep(&p);
    assert!(
        r.points[0].false_expirations_mean > 10.0 * r.points[1].false_expirations_mean.max(0.1)
    );
    let ignored: u32 = (0..p.runs)
        .map(|i| {
            let (s, actions, _) = lab::simulate(&p, 2, i);
            let mut run = Run::new(&s, None);
            for a in actions {
                run.act(a).expect("lab actions replay");
            }
            run.world().metrics().replies_ignored
        })
        .sum();
    assert!(
        ignored > 0,
        "grants arriving after their lease ran out are ignored"
    );
}
