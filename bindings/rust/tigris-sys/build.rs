//! Links libtigris and checks that the Rust declarations match the C header.
//!
//! TIGRIS_LIB_DIR names the folder with libtigris.so (bindings/CMakeLists.txt passes the
//! one it built); TIGRIS_INCLUDE_DIR the folder with tigris.h (default: ../../../include).
//! For the layout test, a small C program built here against tigris.h prints sizeof and
//! offsetof of every struct; its output becomes `layout.rs`, which tests/layout.rs compares
//! with the Rust structs (no bindgen: the C compiler is the reference).
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=TIGRIS_LIB_DIR");
    println!("cargo:rerun-if-env-changed=TIGRIS_INCLUDE_DIR");
    println!("cargo:rerun-if-changed=layout.c");
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let include = env::var("TIGRIS_INCLUDE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| manifest.join("../../../include"));
    println!(
        "cargo:rerun-if-changed={}",
        include.join("tigris.h").display()
    );

    let lib_dir = env::var("TIGRIS_LIB_DIR").unwrap_or_else(|_| {
        panic!("set TIGRIS_LIB_DIR to the folder holding libtigris.so (e.g. build/libtigris)")
    });
    println!("cargo:rustc-link-search=native={lib_dir}");
    println!("cargo:rustc-link-lib=dylib=tigris");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{lib_dir}");
    // Handed to dependents (the `tigris` crate) as DEP_TIGRIS_LIB_DIR.
    println!("cargo:lib_dir={lib_dir}");

    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let exe = out.join("tigris_layout");
    let cc = env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let status = Command::new(&cc)
        .arg("-std=c99")
        .arg("-I")
        .arg(&include)
        .arg(manifest.join("layout.c"))
        .arg("-o")
        .arg(&exe)
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}`: {e}"));
    assert!(
        status.success(),
        "compiling layout.c against tigris.h failed"
    );
    let printed = Command::new(&exe).output().expect("running tigris_layout");
    assert!(printed.status.success());
    std::fs::write(out.join("layout.rs"), printed.stdout).unwrap();
}
