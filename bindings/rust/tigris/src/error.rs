//! Error: a failed libtigris call, with its pinned status code and message.
use std::ffi::CStr;
use std::fmt;
use std::os::raw::c_char;

use tigris_sys as sys;

/// A libtigris call failed. `status()` is the tigris_status value of tigris.h (e.g. 2 for
/// TIGRIS_ERR_IO); the message names the file, op, tensor or field at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    status: i32,
    message: String,
}

/// Result of every fallible call of this crate.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub(crate) fn new(status: i32, message: impl Into<String>) -> Self {
        Error {
            status,
            message: message.into(),
        }
    }

    /// The error for `status` with the thread's last library message.
    pub(crate) fn last(status: i32) -> Self {
        // SAFETY: tigris_last_error never returns NULL (tigris.h: "" if none).
        Error::new(status, unsafe { cstr(sys::tigris_last_error()) })
    }

    pub fn status(&self) -> i32 {
        self.status
    }

    /// The stable name of the status, e.g. "TIGRIS_ERR_IO".
    pub fn status_name(&self) -> String {
        // SAFETY: static storage for any value (tigris.h).
        unsafe { cstr(sys::tigris_status_name(self.status)) }
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.status_name(), self.message)
    }
}

impl std::error::Error for Error {}

/// Copies a library-owned C string (NULL reads as "").
///
/// # Safety
/// `p` is NULL or a valid NUL-terminated string.
pub(crate) unsafe fn cstr(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

pub(crate) fn check(status: i32) -> Result<()> {
    if status == sys::TIGRIS_OK {
        Ok(())
    } else {
        Err(Error::last(status))
    }
}
