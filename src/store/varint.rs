//! LEB128 variable-length unsigned integers: small numbers take one byte.

pub fn put(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Reads one integer from the front of `input` and advances past it.
pub fn take(input: &mut &[u8]) -> Option<u64> {
    // Most integers a record holds (lengths of short texts and keys) take one byte.
    if let Some((&byte, rest)) = input.split_first()
        && byte < 0x80
    {
        *input = rest;
        return Some(u64::from(byte));
    }
    let mut n = 0u64;
    for (i, &byte) in input.iter().enumerate().take(10) {
        n |= u64::from(byte & 0x7F) << (7 * i);
        if byte & 0x80 == 0 {
            *input = &input[i + 1..];
            return Some(n);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn integers_round_trip() {
        for n in [0, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut out = Vec::new();
            super::put(&mut out, n);
            let mut input = &out[..];
            assert_eq!(super::take(&mut input), Some(n));
            assert!(input.is_empty());
        }
        assert_eq!(super::take(&mut &[0x80u8][..]), None);
    }
}
