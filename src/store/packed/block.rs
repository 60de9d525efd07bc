//! One block of a packed table: consecutive entries of the table, each key stored as the
//! length it shares with the key before it and the rest, compressed with Zstandard as a whole.
//!
//! Stored form: `codec (u8) ‖ page id (varint) ‖ entry count (varint) ‖ body`, where the
//! codec byte is the block format's version (`RAW`, `LZ4` or `ZSTD`) and, for a compressed
//! block, the body is the uncompressed length (varint) and the compressed bytes. Blocks are
//! written raw or with Zstandard; LZ4 blocks (format 6) are still read.

use super::search::Heads;
use crate::store::varint;

const RAW: u8 = 1;
const LZ4: u8 = 2;
const ZSTD: u8 = 3;
/// How many times smaller than its body a Zstandard block can be (a 128 KiB block of one
/// byte value takes four).
const ZSTD_MOST_SHRUNK: usize = 1 << 15;

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

    /// The block's entries as they are, to be sealed (here or on another thread); the
    /// builder is empty again afterwards.
    pub fn take(&mut self) -> Unsealed {
        self.last_key.clear();
        let capacity = self.body.capacity();
        Unsealed {
            count: std::mem::take(&mut self.count),
            body: std::mem::replace(&mut self.body, Vec::with_capacity(capacity)),
        }
    }
}

/// A block's entries before compression.
pub struct Unsealed {
    count: u64,
    body: Vec<u8>,
}

impl Unsealed {
    pub fn len(&self) -> usize {
        self.body.len()
    }

    /// The stored form of the block, as page `page`.
    pub fn seal(self, page: u64) -> Vec<u8> {
        let compressed = zstd_block::compress(&self.body);
        let mut out = Vec::with_capacity(self.body.len() + 24);
        // Compression that saves less than an eighth is not worth decompressing for.
        if let Some(compressed) =
            compressed.filter(|c| c.len() < self.body.len() - self.body.len() / 8)
        {
            out.push(ZSTD);
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
        out
    }
}

/// What a stored block says about itself without being decompressed.
pub struct Header {
    pub count: u64,
}

pub fn header(stored: &[u8]) -> Option<Header> {
    let (&codec, mut rest) = stored.split_first()?;
    if codec != RAW && codec != LZ4 && codec != ZSTD {
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
            ZSTD => {
                let len = usize::try_from(varint::take(&mut rest)?).ok()?;
                // Zstandard keeps a run of one byte in a few bytes per 128 KiB (a long name
                // of one letter); a damaged length must still not become a huge allocation.
                if len > rest.len().saturating_mul(ZSTD_MOST_SHRUNK) {
                    return None;
                }
                zstd_block::decompress(rest, len)?.into()
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

/// Zstandard at its fastest level, one context per thread: a block is 4 KiB, and a context
/// made per block would cost more than the compression itself.
mod zstd_block {
    use std::cell::RefCell;
    use zstd::bulk::{Compressor, Decompressor};

    const LEVEL: i32 = 1;

    thread_local! {
        static COMPRESSOR: RefCell<Option<Compressor<'static>>> = const { RefCell::new(None) };
        static DECOMPRESSOR: RefCell<Option<Decompressor<'static>>> = const { RefCell::new(None) };
    }

    /// `None` when zstd cannot make a context (out of memory): the block is then stored raw.
    pub fn compress(body: &[u8]) -> Option<Vec<u8>> {
        COMPRESSOR.with(|cell| {
            let mut context = cell.borrow_mut();
            if context.is_none() {
                *context = Compressor::new(LEVEL).ok();
            }
            context.as_mut()?.compress(body).ok()
        })
    }

    /// The body of `len` bytes, or `None` when `stored` does not decompress to exactly that.
    pub fn decompress(stored: &[u8], len: usize) -> Option<Vec<u8>> {
        DECOMPRESSOR.with(|cell| {
            let mut context = cell.borrow_mut();
            if context.is_none() {
                *context = Decompressor::new().ok();
            }
            let body = context.as_mut()?.decompress(stored, len).ok()?;
            (body.len() == len).then_some(body)
        })
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
        b.take().seal(number)
    }

    #[test]
    fn blocks_written_with_lz4_by_format_6_are_still_read_and_damage_is_refused() {
        let body_of = |stored: &[u8]| {
            let mut rest = &stored[1..];
            varint::take(&mut rest).unwrap();
            varint::take(&mut rest).unwrap();
            let len = varint::take(&mut rest).unwrap() as usize;
            zstd_block::decompress(rest, len).unwrap()
        };
        let value = [5u8; 40];
        let keys: Vec<Vec<u8>> = (0..60u32)
            .map(|i| format!("K{i:04}").into_bytes())
            .collect();
        let entries: Vec<(&[u8], &[u8])> = keys.iter().map(|k| (&k[..], &value[..])).collect();
        let stored = built(&entries, 4);
        assert_eq!(stored[0], ZSTD);
        let body = body_of(&stored);

        let mut lz4 = vec![LZ4];
        varint::put(&mut lz4, 4);
        varint::put(&mut lz4, entries.len() as u64);
        varint::put(&mut lz4, body.len() as u64);
        lz4.extend_from_slice(&lz4_flex::block::compress(&body));
        let block = Block::decode(&lz4).unwrap();
        assert_eq!(block.len(), entries.len());
        assert_eq!(
            (block.key(59), block.value(59)),
            (&keys[59][..], &value[..])
        );

        // A length that does not match what the bytes hold, and cut bytes, decode to nothing.
        let mut wrong_len = vec![ZSTD];
        varint::put(&mut wrong_len, 4);
        varint::put(&mut wrong_len, entries.len() as u64);
        varint::put(&mut wrong_len, body.len() as u64 + 1);
        let header_len = built(&entries, 4).len() - zstd_block::compress(&body).unwrap().len();
        wrong_len.extend_from_slice(&stored[header_len..]);
        assert!(Block::decode(&wrong_len).is_none());
        assert!(Block::decode(&stored[..stored.len() - 3]).is_none());
    }

    #[test]
    fn a_long_run_of_one_byte_compresses_far_and_still_decodes() {
        let name = vec![b'L'; 16 << 20];
        let stored = built(&[(b"1", &name[..])], 1);
        assert!(stored.len() * 1000 < name.len(), "{} bytes", stored.len());
        let block = Block::decode(&stored).unwrap();
        assert_eq!(block.value(0), &name[..]);
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
