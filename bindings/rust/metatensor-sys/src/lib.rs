//! Raw declarations of the metatensor C API, linked to metatensor-go's `libmetatensor`: the
//! items, names and types of the reference's `metatensor-sys` crate, so that code written
//! against it (the `metatensor` crate included) compiles unchanged.
//!
//! The declarations are generated from the spec of the ABI (`c_api.rs`); this file adds the
//! error type that the reference's crate defines next to them.
#![doc = include_str!("../README.md")]

// generated (gen/rust) with the spec's line layout: rustfmt leaves it as it is
#[rustfmt::skip]
mod c_api;

pub use c_api::*;

/// An error of a metatensor call, or a panic caught at a callback's edge.
#[derive(Debug, Clone)]
pub struct Error {
    /// The status the C API returned; `None` for a caught panic
    pub code: Option<mts_status_t>,
    /// What went wrong
    pub message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        match self.code {
            Some(code) => write!(f, " (code {code})"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for Error {}

/// The payload of a panic, as `std::panic::catch_unwind` gives it.
impl From<Box<dyn std::any::Any + Send + 'static>> for Error {
    fn from(payload: Box<dyn std::any::Any + Send + 'static>) -> Error {
        let message = match payload.downcast::<String>() {
            Ok(message) => *message,
            Err(payload) => match payload.downcast::<&'static str>() {
                Ok(message) => (*message).to_owned(),
                // the reference panics here as well: a non-string payload is a bug elsewhere
                Err(_) => panic!("panic message is not a string, something is very wrong"),
            },
        };
        Error {
            code: None,
            message,
        }
    }
}
