//! The `fencing-lab` command line. (Being written: list, run, export.)

/// Runs the CLI with its arguments; returns the process exit code.
pub fn main(args: Vec<String>) -> i32 {
    let _ = args;
    eprintln!("fencing-lab: not yet implemented");
    2
}
