//! One block of a packed table: consecutive entries of the table, each key stored as the
//! length it shares with the key before it and the rest, compressed with LZ4 as a whole.
//!
//! Stored form: `codec (u8) ‖ page id (varint) ‖ entry count (varint) ‖ body`, where the
//! codec byte is the block format's version (`RAW` or `LZ4`) and, for `LZ4`, the body is the
//! uncompressed length (varint) and the compressed bytes.

use super::search::Heads;
use crate::store::varint;

const RAW: u8 = 1;
const LZ4: u8 = 2;

/// Builds the uncompressed body of a block from entries given in key order.
#[derive(Default)]
pub struct BlockBuilder {
    body: Vec<u8>,
    last_key: Vec<u8>,
    count: u64,
}

impl BlockBuilder {
    pub fn push(&mut self, key: &[u8], value: &[u8]) {
        let shared = key
            .iter()
            .zip(&self.last_key)
            .take_while(|(a, b)| a == b)
            .count();
        varint::put(&mut self.body, shared as u64);
        varint::put(&mut self.body, (key.len() - shared) as u64);
        self.body.extend_from_slice(&key[shared..]);
        varint::put(&mut self.body, value.len() as u64);
        self.body.extend_from_slice(value);
        self.last_key.clear();
        self.last_key.extend_from_slice(key);
        self.count += 1;
    }

    pub fn body_len(&self) -> usize {
        self.body.len()
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn last_key(&self) -> &[u8] {
        &self.last_key
    }

    /// The stored form of the block; the builder is empty again afterwards.
    pub fn seal(&mut self, page: u64) -> Vec<u8> {
        let compressed = lz4_flex::block::compress(&self.body);
        let mut out = Vec::with_capacity(compressed.len().min(self.body.len()) + 24);
        // Compression that saves less than an eighth is not worth decompressing for.
        if compressed.len() < self.body.len() - self.body.len() / 8 {
            out.push(LZ4);
            varint::put(&mut out, page);
            varint::put(&mut out, self.count);
            varint::put(&mut out, self.body.len() as u64);
            out.extend_from_slice(&compressed);
        } else {
            out.push(RAW);
            varint::put(&mut out, page);
            varint::put(&mut out, self.count);
            out.extend_from_slice(&self.body);
        }
        self.body.clear();
        self.last_key.clear();
        self.count = 0;
        out
    }
}

/// What a stored block says about itself without being decompressed.
pub struct Header {
    pub count: u64,
}

pub fn header(stored: &[u8]) -> Option<Header> {
    let (&codec, mut rest) = stored.split_first()?;
    if codec != RAW && codec != LZ4 {
        return None;
    }
    varint::take(&mut rest)?;
    let count = varint::take(&mut rest)?;
    Some(Header { count })
}

/// A decoded block: full keys and values side by side, searchable by key.
pub struct Block {
    data: Vec<u8>,
    /// (key start, key end, value end) in `data`; a value starts where its key ends.
    entries: Vec<(u32, u32, u32)>,
    /// The keys' search heads.
    heads: Heads<u64>,
}

impl Block {
    pub fn decode(stored: &[u8]) -> Option<Block> {
        let (&codec, mut rest) = stored.split_first()?;
        varint::take(&mut rest)?;
        let count = usize::try_from(varint::take(&mut rest)?).ok()?;
        let body: std::borrow::Cow<[u8]> = match codec {
            RAW => rest.into(),
            LZ4 => {
                let len = usize::try_from(varint::take(&mut rest)?).ok()?;
                // A damaged length must not become a huge allocation.
                if len > rest.len().saturating_mul(256) {
                    return None;
                }
                lz4_flex::block::decompress(rest, len).ok()?.into()
            }
            _ => return None,
        };
        let mut body: &[u8] = &body;
        let mut data = Vec::with_capacity(body.len() * 2);
        let mut entries = Vec::with_capacity(count.min(1 << 16));
        let mut last_key = 0..0;
        for _ in 0..count {
            let shared = usize::try_from(varint::take(&mut body)?).ok()?;
            let own = usize::try_from(varint::take(&mut body)?).ok()?;
            if shared > last_key.len() || own > body.len() {
                return None;
            }
            let start = data.len();
            data.extend_from_within(last_key.start..last_key.start + shared);
            data.extend_from_slice(&body[..own]);
            body = &body[own..];
            let key_end = data.len();
            let value_len = usize::try_from(varint::take(&mut body)?).ok()?;
            if value_len > body.len() {
                return None;
            }
            data.extend_from_slice(&body[..value_len]);
            body = &body[value_len..];
            entries.push((
                u32::try_from(start).ok()?,
                u32::try_from(key_end).ok()?,
                u32::try_from(data.len()).ok()?,
            ));
            last_key = start..key_end;
        }
        if !body.is_empty() {
            return None;
        }
        let heads = Heads::new(
            entries
                .iter()
                .map(|&(s, k, _)| &data[s as usize..k as usize]),
        );
        Some(Block {
            data,
            entries,
            heads,
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn key(&self, i: usize) -> &[u8] {
        let (s, k, _) = self.entries[i];
        &self.data[s as usize..k as usize]
    }

    pub fn value(&self, i: usize) -> &[u8] {
        let (_, k, v) = self.entries[i];
        &self.data[k as usize..v as usize]
    }

    /// The position of the first entry whose key is at least `key`.
    pub fn lower_bound(&self, key: &[u8]) -> usize {
        self.heads.lower_bound(|i| self.key(i), key)
    }

    /// About the bytes its entries take in a block being built: whether it fits beside others.
    pub fn bytes(&self) -> usize {
        self.data.len() + 3 * self.entries.len()
    }

    /// Bytes the block holds in memory, for the cache's weight.
    pub fn weight(&self) -> usize {
        self.data.len() + self.entries.len() * 12 + self.heads.weight() + 64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built(entries: &[(&[u8], &[u8])], number: u64) -> Vec<u8> {
        let mut b = BlockBuilder::default();
        for (k, v) in entries {
            b.push(k, v);
        }
        b.seal(number)
    }

    #[test]
    fn blocks_round_trip_raw_and_compressed() {
        let small: Vec<(&[u8], &[u8])> = vec![(b"a", b"1"), (b"ab", b""), (b"b", b"xyz")];
        let long_value = vec![7u8; 3000];
        let keys: Vec<Vec<u8>> = (0..40u32)
            .map(|i| format!("GDB{i:05}").into_bytes())
            .collect();
        let large: Vec<(&[u8], &[u8])> = keys.iter().map(|k| (&k[..], &long_value[..50])).collect();
        for (entries, number) in [(small, 3), (large, 9)] {
            let stored = built(&entries, number);
            let h = header(&stored).unwrap();
            assert_eq!(h.count, entries.len() as u64);
            let block = Block::decode(&stored).unwrap();
            assert_eq!(block.len(), entries.len());
            for (i, (k, v)) in entries.iter().enumerate() {
                assert_eq!((block.key(i), block.value(i)), (*k, *v));
                assert_eq!(block.lower_bound(k), i);
            }
            assert_eq!(block.lower_bound(b"zzzzzzzz"), entries.len());
        }
    }

    #[test]
    fn damaged_blocks_do_not_decode() {
        let stored = built(&[(b"abc", b"value"), (b"abd", b"other")], 1);
        for cut in 0..stored.len() {
            assert!(Block::decode(&stored[..cut]).is_none(), "cut at {cut}");
        }
        assert!(Block::decode(&[9, 0, 0]).is_none());
    }
}
