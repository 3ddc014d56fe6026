//! One binary, two faces: the `fencing-lab` command line natively, the web app in WASM.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(fencing_lab::cli::main(std::env::args().skip(1).collect()));
}

#[cfg(target_arch = "wasm32")]
fn main() {
    fencing_lab::ui::start();
}
