fn main() {
    let p = fencing_lab::sim::lab::LabParams::default();
    let t = std::time::Instant::now();
    let r = fencing_lab::sim::lab::sweep(&p);
    for pt in &r.points {
        println!("ttl {:>3} takeover {:>6.1?} false_exp {:.2} renew/min {:>5.1} stale_unfenced {:.2} rejected_fenced {:.2} superseded_fenced {:.2} so_fenced {}", pt.ttl, pt.takeover_mean, pt.false_expirations_mean, pt.renewals_per_minute, pt.stale_accepted_unfenced_mean, pt.stale_rejected_fenced_mean, pt.superseded_accepted_fenced_mean, pt.stale_overwrites_fenced_total);
    }
    println!(
        "stale writes seen up to {:?} in {:?}",
        r.stale_seen_up_to,
        t.elapsed()
    );
}
