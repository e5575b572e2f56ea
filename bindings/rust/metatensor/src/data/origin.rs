//! Data origins: the names the library gives to who made an array.

use std::ffi::CString;

use crate::c_api::{MTS_BUFFER_SIZE_ERROR, mts_data_origin_t};
use crate::errors::Error;

/// Registers `name` as a data origin (or finds it, when registered before) and gives its
/// identifier.
pub(super) fn register_data_origin(name: &str) -> Result<mts_data_origin_t, Error> {
    let name = CString::new(name)
        .map_err(|_| Error { code: None, message: format!("the origin name {name:?} contains a NUL byte") })?;
    let mut origin: mts_data_origin_t = 0;
    // SAFETY: name is NUL-terminated and origin valid for a write
    unsafe { crate::checked::register_data_origin(name.as_ptr(), &mut origin)? };
    Ok(origin)
}

/// The name under which `origin` was registered.
pub(super) fn get_data_origin(origin: mts_data_origin_t) -> Result<String, Error> {
    let mut buffer = vec![0_u8; 64];
    loop {
        // SAFETY: buffer is valid for buffer.len() bytes of writes
        let result = unsafe { crate::checked::get_data_origin(origin, buffer.as_mut_ptr().cast(), buffer.len()) };
        match result {
            Ok(()) => break,
            Err(error) if error.code == Some(MTS_BUFFER_SIZE_ERROR) => {
                let larger = 2 * buffer.len();
                buffer.resize(larger, 0);
            }
            Err(error) => return Err(error),
        }
    }
    let end = buffer.iter().position(|&byte| byte == 0).unwrap_or(buffer.len());
    buffer.truncate(end);
    String::from_utf8(buffer)
        .map_err(|_| Error { code: None, message: "the name of a data origin is not UTF-8".into() })
}

#[cfg(test)]
mod unit_tests {
    use super::*;

    #[test]
    fn names_round_trip_even_when_long() {
        let long = "a-rather-long-origin-name-".repeat(10);
        for name in ["short", long.as_str()] {
            let origin = register_data_origin(name).unwrap();
            assert_eq!(get_data_origin(origin).unwrap(), name);
            assert_eq!(register_data_origin(name).unwrap(), origin, "registered once");
        }
    }

    #[test]
    fn unknown_origins_and_bad_names() {
        assert_eq!(get_data_origin(u64::MAX).unwrap(), "unregistered origin");
        let error = register_data_origin("nul\0").unwrap_err();
        assert!(error.message.contains("NUL"), "{}", error.message);
    }
}
