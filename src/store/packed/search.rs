//! Binary search over sorted keys that compares numbers rather than byte strings. Keys of a
//! block or of a table's block index share a prefix (a brand, an article) and differ in the
//! bytes after it: the eight bytes after the shared prefix, as a big-endian number, order
//! two keys whenever they differ, and a whole key is read only where they are equal. A
//! lookup then costs a few integer comparisons instead of a call to `memcmp` per step.

/// Equal heads counted one by one before they are searched for their end.
const SHORT_RUN: usize = 8;

/// The search heads of a sorted list of keys: `u64` in blocks, whose keys share most of
/// themselves; `u128` in a table's block index, whose keys (a brand, then a reference)
/// often agree in their first eight bytes.
pub struct Heads<H> {
    /// Bytes every key starts with (a copy of them).
    shared: Shared,
    /// Each key's first bytes after `shared`, zero-padded, big-endian.
    heads: Box<[H]>,
}

impl<H> Default for Heads<H> {
    fn default() -> Self {
        Heads {
            shared: Shared::Inline(0, [0; INLINE]),
            heads: Box::default(),
        }
    }
}

/// Shared bytes kept beside the heads' pointer when they are few (a brand and a reference's
/// first letters): a search of a block whose lines are not in the processor's cache then
/// waits for one line fewer.
const INLINE: usize = 22;

enum Shared {
    Inline(u8, [u8; INLINE]),
    Boxed(Box<[u8]>),
}

impl Shared {
    fn new(bytes: &[u8]) -> Shared {
        match bytes.len() {
            n if n <= INLINE => {
                let mut inline = [0; INLINE];
                inline[..n].copy_from_slice(bytes);
                Shared::Inline(n as u8, inline)
            }
            _ => Shared::Boxed(bytes.into()),
        }
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Shared::Inline(n, inline) => &inline[..usize::from(*n)],
            Shared::Boxed(bytes) => bytes,
        }
    }
}

/// Heads a search counts one by one rather than halving: loads that do not wait on each
/// other are fetched from memory together, where each step of a binary search waits for
/// the line of the step before.
const COUNTED: usize = 64;

/// The number of `heads` (in increasing order) below `wanted`.
fn below<H: Head>(heads: &[H], wanted: H) -> usize {
    let (mut base, mut len) = (0, heads.len());
    while len > COUNTED {
        let half = len / 2;
        if heads[base + half] < wanted {
            base += half + 1;
            len -= half + 1;
        } else {
            len = half;
        }
    }
    base + heads[base..base + len]
        .iter()
        .map(|&h| usize::from(h < wanted))
        .sum::<usize>()
}

/// The first bytes of a key as a number. Two keys whose heads differ are ordered as their
/// heads are; equal heads say nothing.
pub trait Head: Copy + Ord {
    fn of(key: &[u8]) -> Self;
}

impl Head for u64 {
    fn of(key: &[u8]) -> u64 {
        let mut bytes = [0u8; 8];
        let n = key.len().min(8);
        bytes[..n].copy_from_slice(&key[..n]);
        u64::from_be_bytes(bytes)
    }
}

impl Head for u128 {
    fn of(key: &[u8]) -> u128 {
        let mut bytes = [0u8; 16];
        let n = key.len().min(16);
        bytes[..n].copy_from_slice(&key[..n]);
        u128::from_be_bytes(bytes)
    }
}

impl<H: Head> Heads<H> {
    /// The heads of `keys`, which are in increasing order.
    pub fn new<'k>(keys: impl ExactSizeIterator<Item = &'k [u8]> + Clone) -> Heads<H> {
        let mut all = keys.clone();
        let (Some(first), last) = (all.next(), keys.clone().last()) else {
            return Heads::default();
        };
        // Sorted keys all share what the first and the last share.
        let last = last.unwrap_or(first);
        let shared = first.iter().zip(last).take_while(|(a, b)| a == b).count();
        Heads {
            shared: Shared::new(&first[..shared]),
            heads: keys.map(|k| H::of(&k[shared..])).collect(),
        }
    }

    /// The first position whose key (`key_at`) is at least `key`.
    pub fn lower_bound<'k>(&self, key_at: impl Fn(usize) -> &'k [u8], key: &[u8]) -> usize {
        let shared = self.shared.bytes();
        let common = shared.len().min(key.len());
        match key[..common].cmp(&shared[..common]) {
            std::cmp::Ordering::Less => return 0,
            std::cmp::Ordering::Greater => return self.heads.len(),
            // A key that is a proper prefix of what every key starts with is below them all.
            std::cmp::Ordering::Equal if key.len() < shared.len() => return 0,
            std::cmp::Ordering::Equal => {}
        }
        let wanted = H::of(&key[shared.len()..]);
        let mut low = below(&self.heads, wanted);
        // Keys with equal heads are few (one article's rows) and follow `low` in memory just
        // read: counted one by one, where a second binary search would read lines far off.
        let equal = |h: &H| *h == wanted;
        let run = self.heads[low..]
            .iter()
            .take(SHORT_RUN)
            .take_while(|h| equal(h))
            .count();
        let mut high = low
            + match run {
                SHORT_RUN => self.heads[low..].partition_point(equal),
                short => short,
            };
        while low < high {
            let middle = low + (high - low) / 2;
            if key_at(middle) < key {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        low
    }

    /// Bytes held, for a cache's weight.
    pub fn weight(&self) -> usize {
        let boxed = match &self.shared {
            Shared::Inline(..) => 0,
            Shared::Boxed(bytes) => bytes.len(),
        };
        boxed + std::mem::size_of_val(&*self.heads)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(keys: &[&[u8]], probes: &[&[u8]]) {
        let narrow = Heads::<u64>::new(keys.iter().copied());
        let wide = Heads::<u128>::new(keys.iter().copied());
        for probe in probes.iter().chain(keys) {
            let expected = keys.partition_point(|k| k < probe);
            let shown = String::from_utf8_lossy(probe);
            assert_eq!(
                narrow.lower_bound(|i| keys[i], probe),
                expected,
                "{shown:?}"
            );
            assert_eq!(wide.lower_bound(|i| keys[i], probe), expected, "{shown:?}");
        }
    }

    #[test]
    fn searches_agree_with_byte_order() {
        let keys: Vec<Vec<u8>> = [
            &b"\x00\x00\x00\x07GDB1"[..],
            b"\x00\x00\x00\x07GDB1\x00",
            b"\x00\x00\x00\x07GDB1\x00\x01",
            b"\x00\x00\x00\x07GDB1234567890\xff1",
            b"\x00\x00\x00\x07GDB1234567890\xff2",
            b"\x00\x00\x00\x07GDB1234567891",
            b"\x00\x00\x00\x07GDB2",
            b"\x00\x00\x00\x07H",
        ]
        .iter()
        .map(|k| k.to_vec())
        .collect();
        let keys: Vec<&[u8]> = keys.iter().map(|k| k.as_slice()).collect();
        let probes: &[&[u8]] = &[
            b"",
            b"\x00",
            b"\x00\x00\x00\x06zzz",
            b"\x00\x00\x00\x07",
            b"\x00\x00\x00\x07GDB",
            b"\x00\x00\x00\x07GDB0",
            b"\x00\x00\x00\x07GDB12345678",
            b"\x00\x00\x00\x07GDB1234567890\xff",
            b"\x00\x00\x00\x07GDB1234567890\xff15",
            b"\x00\x00\x00\x07GDB3",
            b"\x00\x00\x00\x08",
            b"\xff",
        ];
        check(&keys, probes);
        check(&keys[3..5], probes);
        check(&keys[..1], probes);
        check(&[], probes);
    }

    #[test]
    fn long_lists_are_halved_then_counted_and_long_prefixes_boxed() {
        // More heads than are counted one by one, with a shared prefix too long to keep
        // inline, every other key missing so that probes fall between keys.
        let prefix = [b'P'; INLINE + 9];
        let keys: Vec<Vec<u8>> = (0..1000u32)
            .map(|i| [&prefix[..], &(i * 2).to_be_bytes()].concat())
            .collect();
        let keys: Vec<&[u8]> = keys.iter().map(|k| k.as_slice()).collect();
        let probes: Vec<Vec<u8>> = (0..2002u32)
            .map(|i| [&prefix[..], &i.to_be_bytes()].concat())
            .chain([prefix[..3].to_vec(), b"Q".to_vec()])
            .collect();
        let probes: Vec<&[u8]> = probes.iter().map(|p| p.as_slice()).collect();
        for n in [
            0,
            1,
            COUNTED - 1,
            COUNTED,
            COUNTED + 1,
            3 * COUNTED + 7,
            1000,
        ] {
            check(&keys[..n], &probes);
        }
    }

    #[test]
    fn runs_of_equal_heads_short_and_long() {
        // One article's rows: the same 16 bytes, then a row number. Runs of 3 and of 20.
        let row = |article: &[u8], n: u8| [article, b"0123456789abcdef", &[n]].concat();
        let mut keys: Vec<Vec<u8>> = (0..3).map(|n| row(b"A", n)).collect();
        keys.extend((0..20).map(|n| row(b"B", n)));
        keys.push(row(b"C", 0));
        let keys: Vec<&[u8]> = keys.iter().map(|k| k.as_slice()).collect();
        let probes: Vec<Vec<u8>> = [b"A", b"B", b"C"]
            .iter()
            .flat_map(|a| [a.to_vec(), row(*a, 0), row(*a, 2), row(*a, 9), row(*a, 30)])
            .collect();
        let probes: Vec<&[u8]> = probes.iter().map(|p| p.as_slice()).collect();
        check(&keys, &probes);
        check(&keys[1..], &probes);
    }
}
