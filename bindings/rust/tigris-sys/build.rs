//! Links libtigris and checks that the Rust declarations match the C header.
//!
//! The library is found with pkg-config (`tigris.pc` of an installed TiGrIS: `cmake --install
//! build --prefix P`, then PKG_CONFIG_PATH=P/lib/pkgconfig), and an rpath to its folder is
//! added so that programs run without LD_LIBRARY_PATH. TIGRIS_SYS_LIB_DIR and
//! TIGRIS_SYS_INCLUDE_DIR override the search with explicit folders (a build tree).
//! For the layout test, a small C program built here against tigris.h prints sizeof and
//! offsetof of every struct; its output becomes `layout.rs`, which tests/layout.rs compares
//! with the Rust structs (no bindgen: the C compiler is the reference).
use std::env;
use std::path::PathBuf;
use std::process::Command;

/// The folders of libtigris and of tigris.h.
fn locate() -> (PathBuf, PathBuf) {
    println!("cargo:rerun-if-env-changed=TIGRIS_SYS_LIB_DIR");
    println!("cargo:rerun-if-env-changed=TIGRIS_SYS_INCLUDE_DIR");
    if let Ok(lib) = env::var("TIGRIS_SYS_LIB_DIR") {
        let include = env::var("TIGRIS_SYS_INCLUDE_DIR").unwrap_or_else(|_| {
            let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
            manifest.join("../../../include").display().to_string()
        });
        println!("cargo:rustc-link-search=native={lib}");
        println!("cargo:rustc-link-lib=dylib=tigris");
        return (PathBuf::from(lib), PathBuf::from(include));
    }
    match pkg_config::Config::new()
        .atleast_version("0.2")
        .probe("tigris")
    {
        Ok(found) => (
            found.link_paths.first().cloned().unwrap_or_default(),
            found.include_paths.first().cloned().unwrap_or_default(),
        ),
        Err(e) => panic!(
            "libtigris not found: {e}\n\
             Install TiGrIS (`cmake --install build --prefix P` in the TiGrIS repository) and \
             set PKG_CONFIG_PATH=P/lib/pkgconfig, or set TIGRIS_SYS_LIB_DIR (and \
             TIGRIS_SYS_INCLUDE_DIR) to the folders of libtigris.so and tigris.h."
        ),
    }
}

fn main() {
    println!("cargo:rerun-if-changed=layout.c");
    let (lib_dir, include) = locate();
    println!(
        "cargo:rerun-if-changed={}",
        include.join("tigris.h").display()
    );
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
    // Handed to dependents (the `tigris` crate) as DEP_TIGRIS_LIB_DIR.
    println!("cargo:lib_dir={}", lib_dir.display());

    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
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
