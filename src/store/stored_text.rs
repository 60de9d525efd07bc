//! Stored bytes read as text. Nearly every text a catalogue stores is ASCII: tested for that a
//! word at a time, where the UTF-8 check walks a short text byte by byte (about 90
//! instructions a text; an article's answer reads some 25).

use bincode::de::{BorrowDecode, BorrowDecoder};
use bincode::error::DecodeError;

/// `bytes` as text; none where they are not UTF-8.
pub fn text_of(bytes: &[u8]) -> Option<&str> {
    if bytes.is_ascii() {
        // SAFETY: ASCII bytes are UTF-8.
        return Some(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes).ok()
}

/// A text of a stored value, borrowed: as bincode decodes a `&str`, checked by `text_of`.
#[repr(transparent)]
pub struct Text<'a>(pub &'a str);

impl<'a, 'de: 'a, C> BorrowDecode<'de, C> for Text<'a> {
    fn borrow_decode<D: BorrowDecoder<'de, Context = C>>(
        decoder: &mut D,
    ) -> Result<Self, DecodeError> {
        let bytes = <&[u8]>::borrow_decode(decoder)?;
        text_of(bytes)
            .map(Text)
            .ok_or(DecodeError::Other("a stored text is not UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_text_exactly_when_they_are_utf8() {
        let texts: [&[u8]; 9] = [
            b"",
            b"0 986 494 048",
            b"a text longer than two words of ASCII",
            "Bremsbelagsatz, Scheibenbremse".as_bytes(),
            "Scheibe für Bremsen, 300 mm und länger".as_bytes(),
            b"\x7f\x00\x01",
            b"\xff",
            b"ASCII for sixteen bytes, then \xc3",
            b"\xe2\x82",
        ];
        for bytes in texts {
            assert_eq!(text_of(bytes), std::str::from_utf8(bytes).ok(), "{bytes:?}");
        }
    }
}
