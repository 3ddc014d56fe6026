use fencing_lab::sim::{report::Report, Run};
fn main() {
    let s = fencing_lab::presets::get("paused-writer").unwrap();
    for v in &s.variants {
        let mut run = Run::new(&s, Some(v));
        run.run_script().unwrap();
        for e in run.events() {
            println!("{e}");
        }
        let r = Report::of(&run);
        println!("{}", serde_json::to_string_pretty(&r.requests).unwrap());
        println!(
            "violations {:?}\nmismatch {:?}",
            r.violations,
            r.mismatches(&v.expect)
        );
    }
}
