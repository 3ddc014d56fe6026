use fencing_lab::sim::{Action, World};
use std::time::Instant;
fn main() {
    let s = fencing_lab::presets::get("paused-writer").unwrap();
    let s = s.with_variant(&s.variants[0]);
    let mut w = World::new(&s);
    for (_, a) in s.script_actions() { w.step(a).unwrap(); }
    let n = 100_000;
    let t = Instant::now();
    for _ in 0..n { std::hint::black_box(w.clone()); }
    println!("clone {:?}", t.elapsed() / n);
    let t = Instant::now();
    for _ in 0..n { std::hint::black_box(w.state_key()); }
    println!("key {:?}", t.elapsed() / n);
    let mut w0 = World::new(&s);
    w0.step(&Action::Acquire{worker:"A".into(), lock:None}).unwrap();
    let t = Instant::now();
    for _ in 0..n { let mut c = w0.clone(); std::hint::black_box(c.step(&Action::Advance{ticks:1}).unwrap()); }
    println!("clone+step advance(deliver+grant) {:?}", t.elapsed() / n);
}
