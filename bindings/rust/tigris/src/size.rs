//! Byte sizes as numbers or human text ("256K", "1.5MiB"), parsed by tigris_parse_size.
use std::ffi::CString;

use crate::error::{check, Error, Result};
use tigris_sys as sys;

/// A byte size: `64 * 1024`, `"64K"` or `String::from("1.5MiB")`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Size {
    Bytes(u64),
    Text(String),
}

impl From<u64> for Size {
    fn from(b: u64) -> Self {
        Size::Bytes(b)
    }
}
impl From<&str> for Size {
    fn from(t: &str) -> Self {
        Size::Text(t.to_string())
    }
}
impl From<String> for Size {
    fn from(t: String) -> Self {
        Size::Text(t)
    }
}

impl Size {
    /// The size in bytes (units as in tigris.h: K = 1024).
    pub fn bytes(&self) -> Result<u64> {
        match self {
            Size::Bytes(b) => Ok(*b),
            Size::Text(t) => parse_size(t),
        }
    }
}

/// Parses "256K", "1.5MiB", "262144" with the library's own parser.
pub fn parse_size(text: &str) -> Result<u64> {
    let c = CString::new(text)
        .map_err(|_| Error::new(sys::TIGRIS_ERR_INVALID_ARGUMENT, "size holds a NUL byte"))?;
    let mut bytes = 0u64;
    // SAFETY: valid out pointer and C string.
    check(unsafe { sys::tigris_parse_size(&mut bytes, c.as_ptr()) })?;
    Ok(bytes)
}
