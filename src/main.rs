//! The browser app entry point (built by Trunk for wasm32). Natively it only explains itself.

#[cfg(target_arch = "wasm32")]
fn main() {
    leaselab::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("leaselab-web is the browser app: run `cargo xtask serve` to build and serve it.");
    std::process::exit(2);
}
