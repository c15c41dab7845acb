pub mod json;

/// The `tigris` CLI of the installed tree under test (TIGRIS_PREFIX, as ctest sets it), else
/// the build's (TIGRIS_BUILD_DIR).
#[allow(dead_code)]
pub fn cli() -> std::path::PathBuf {
    if let Ok(prefix) = std::env::var("TIGRIS_PREFIX") {
        return std::path::PathBuf::from(prefix).join("bin/tigris");
    }
    let dir = std::env::var("TIGRIS_BUILD_DIR").expect("TIGRIS_PREFIX or TIGRIS_BUILD_DIR");
    std::path::PathBuf::from(dir).join("bin/tigris")
}
