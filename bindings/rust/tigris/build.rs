//! The library folder comes from tigris-sys (its `links = "tigris"` metadata); an RPATH to it
//! lets this crate's tests and examples run without LD_LIBRARY_PATH.
fn main() {
    if let Ok(dir) = std::env::var("DEP_TIGRIS_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
