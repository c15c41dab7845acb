//! Links libtigris and checks that the Rust declarations match the C header.
//!
//! The library is found with pkg-config (`tigris.pc` of an installed TiGrIS: `cmake --install
//! build --prefix P`, then PKG_CONFIG_PATH=P/lib/pkgconfig), and an rpath to its folder is
//! added so that this workspace's tests and examples run without LD_LIBRARY_PATH (Cargo
//! gives rustc-link-arg to no other package: a downstream binary adds its own, README.md).
//! TIGRIS_SYS_LIB_DIR and TIGRIS_SYS_INCLUDE_DIR override the search with explicit folders
//! (a build tree). Not TIGRIS_LIB_DIR: ctest exports that one (the build tree's library)
//! to every binding test, and the Rust tests are meant to use the installed tree.
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
        return (
            canonical(PathBuf::from(lib)),
            canonical(PathBuf::from(include)),
        );
    }
    match pkg_config::Config::new()
        .atleast_version("0.2")
        .probe("tigris")
    {
        // tigris.pc's paths are relative to its own folder (prefix=${pcfiledir}/../..):
        // resolved here so the rpath and messages name the real folders.
        Ok(found) => (
            canonical(found.link_paths.first().cloned().unwrap_or_default()),
            canonical(found.include_paths.first().cloned().unwrap_or_default()),
        ),
        Err(e) => panic!(
            "libtigris not found: {e}\n\
             Install TiGrIS (`cmake --install build --prefix P` in the TiGrIS repository) and \
             set PKG_CONFIG_PATH=P/lib/pkgconfig, or set TIGRIS_SYS_LIB_DIR (and \
             TIGRIS_SYS_INCLUDE_DIR) to the folders of libtigris.so and tigris.h."
        ),
    }
}

fn canonical(dir: PathBuf) -> PathBuf {
    std::fs::canonicalize(&dir).unwrap_or(dir)
}

fn main() {
    println!("cargo:rerun-if-changed=layout.c");
    let (lib_dir, include) = locate();
    assert!(
        include.join("tigris.h").is_file(),
        "tigris.h not found in {} (the include folder of the libtigris in {})",
        include.display(),
        lib_dir.display()
    );
    println!(
        "cargo:rerun-if-changed={}",
        include.join("tigris.h").display()
    );
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
    // Handed to direct dependents (the `tigris` crate) as DEP_TIGRIS_LIB_DIR and
    // DEP_TIGRIS_INCLUDE: Cargo applies rustc-link-arg (the rpath) to this package's own
    // tests only, so each crate with binaries adds it again (tigris/build.rs).
    println!("cargo:lib_dir={}", lib_dir.display());
    println!("cargo:include={}", include.display());

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
