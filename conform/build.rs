//! Builds `fakeclock.c` into a shared library with the system C compiler (`cc -shared -fPIC`)
//! and tells the crate where it is (`LEASELAB_FAKECLOCK_SO`): redis-server is started with it in
//! `LD_PRELOAD` so that its wall clock reads the engine's virtual time.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=fakeclock.c");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let lib = out.join("libleaselab_fakeclock.so");
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let status = Command::new(&cc)
        .args(["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o"])
        .arg(&lib)
        .arg("fakeclock.c")
        .arg("-ldl")
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler {cc:?} (Debian: apt-get install gcc): {e}"));
    assert!(status.success(), "building fakeclock.c failed ({status})");
    println!("cargo:rustc-env=LEASELAB_FAKECLOCK_SO={}", lib.display());
}
