//! The one codec of the store's values: a version byte, then the value in bincode. A reader
//! looks at the byte first, so the layout of one kind of value can change (a new version
//! decoded beside the old) without rewriting every store. Keys are not encoded here: they are
//! ordered byte strings built in `keys`.

use bincode::de::BorrowDecode;
use bincode::{Decode, Encode, config};

/// `version`, then `value`.
pub fn encode<T: Encode>(version: u8, value: &T) -> Vec<u8> {
    let mut out = vec![version];
    // Encoding into memory fails only for types this store does not have (unbounded lengths).
    let _ = bincode::encode_into_std_write(value, &mut out, config::standard());
    out
}

/// The version byte and the bytes after it.
pub fn split(bytes: &[u8]) -> Option<(u8, &[u8])> {
    bytes.split_first().map(|(&v, rest)| (v, rest))
}

/// Decodes the bytes after a version byte; `None` unless they are exactly one `T`.
pub fn body<T: Decode<()>>(bytes: &[u8]) -> Option<T> {
    match bincode::decode_from_slice(bytes, config::standard()) {
        Ok((value, used)) if used == bytes.len() => Some(value),
        _ => None,
    }
}

/// Decodes a value written by `encode` with version `version`, its texts borrowed from
/// `bytes`; `None` unless they are exactly one `T`.
pub fn decode_borrowed<'b, T: BorrowDecode<'b, ()>>(version: u8, bytes: &'b [u8]) -> Option<T> {
    match split(bytes)? {
        (v, rest) if v == version => {
            match bincode::borrow_decode_from_slice(rest, config::standard()) {
                Ok((value, used)) if used == rest.len() => Some(value),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Decodes a value written by `encode` with version `version`.
pub fn decode<T: Decode<()>>(version: u8, bytes: &[u8]) -> Option<T> {
    match split(bytes)? {
        (v, rest) if v == version => body(rest),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_comes_back_only_under_its_version_and_whole() {
        let bytes = encode(3, &(7u32, String::from("x")));
        assert_eq!(bytes[0], 3);
        assert_eq!(decode::<(u32, String)>(3, &bytes), Some((7, "x".into())));
        assert_eq!(decode::<(u32, String)>(2, &bytes), None);
        assert_eq!(
            decode::<(u32,)>(3, &bytes),
            None,
            "trailing bytes are refused"
        );
        assert_eq!(decode::<(u32,)>(3, &[]), None);
    }
}
