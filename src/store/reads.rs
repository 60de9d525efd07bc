//! What an answer was read from: each table at its generation, whole or only under some key
//! prefixes. An answer kept by the answer cache stays good for as long as every table it read
//! is still at that generation, or, where it read only under prefixes, for as long as no
//! commit since changed a key under them (`Recent`): a commit that changed prices leaves the
//! answers that never read a price, and those that read other articles' prices.
//!
//! Recording is per thread: `recorded` runs a build and collects what the catalogue views it
//! reads report (`Catalogue::tree`, the prefix reads, the names, the data version) on this
//! thread meanwhile.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Arc;

use super::layout::TreeName;

/// How a build read one table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Read {
    Whole,
    /// Only the keys under these prefixes, sorted.
    Under(Vec<Vec<u8>>),
}

/// More prefixes than this of one table count as a read of the whole table.
const MAX_PREFIXES: usize = 32;

impl Read {
    fn merge(&mut self, other: Read) {
        match (&mut *self, other) {
            (Read::Whole, _) => {}
            (_, Read::Whole) => *self = Read::Whole,
            (Read::Under(mine), Read::Under(more)) => {
                for prefix in more {
                    if let Err(at) = mine.binary_search(&prefix) {
                        mine.insert(at, prefix);
                    }
                }
                if mine.len() > MAX_PREFIXES {
                    *self = Read::Whole;
                }
            }
        }
    }
}

/// What an answer depends on: (table, generation, how it was read), the data version as a
/// table of its own, in table order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp(Vec<(u8, u64, Read)>);

/// The "table" of the data version itself: an answer that shows it changes with every commit.
pub(super) const DATA_VERSION: u8 = u8::MAX;

/// A build being recorded: what it read so far, or `None` once it read one table at two
/// generations (two views of the catalogue: nothing to keep).
type Recording = Option<Vec<(u8, u64, Read)>>;

thread_local! {
    static RECORDING: RefCell<Option<Recording>> = const { RefCell::new(None) };
}

/// Notes, if a build is being recorded on this thread, that it read `table` at `generation`.
/// `read` is made only while a build is recorded: most reads are not (the answer cache off,
/// or a route it does not keep), and they allocate nothing for it.
fn note_read(table: u8, generation: u64, read: impl FnOnce() -> Read) {
    RECORDING.with(|recording| {
        let mut recording = recording.borrow_mut();
        let Some(Some(reads)) = &mut *recording else {
            return;
        };
        match reads.iter_mut().find(|(t, _, _)| *t == table) {
            Some((_, g, _)) if *g != generation => *recording = Some(None),
            Some((_, _, known)) => known.merge(read()),
            None => reads.push((table, generation, read())),
        }
    })
}

/// Notes a read of a whole table (or of the data version).
pub(super) fn note(table: u8, generation: u64) {
    note_read(table, generation, || Read::Whole)
}

/// Notes a read of a catalogue table.
pub(super) fn note_table(table: TreeName, generation: u64) {
    note(table.index() as u8, generation)
}

/// Notes a read of the keys of a catalogue table under `prefix` only.
pub(super) fn note_prefix(table: TreeName, generation: u64, prefix: &[u8]) {
    note_read(table.index() as u8, generation, || {
        Read::Under(vec![prefix.to_vec()])
    })
}

/// Runs `build`, and says what it read: `None` if it read two views of one table.
pub fn recorded<T>(build: impl FnOnce() -> T) -> (T, Option<Stamp>) {
    let outer = RECORDING.with(|r| r.borrow_mut().replace(Some(Vec::new())));
    let built = build();
    let read = RECORDING.with(|r| std::mem::replace(&mut *r.borrow_mut(), outer));
    let stamp = read.flatten().map(|mut read| {
        read.sort_unstable_by_key(|(table, _, _)| *table);
        // A recording around this one read all this one did.
        for (table, generation, how) in &read {
            note_read(*table, *generation, || how.clone());
        }
        Stamp(read)
    });
    (built, stamp)
}

impl Stamp {
    pub(super) fn tables(&self) -> impl Iterator<Item = (u8, u64, &Read)> + '_ {
        self.0.iter().map(|(t, g, r)| (*t, *g, r))
    }

    /// This stamp with each table at its generation `now` (where `now` knows the table), or
    /// `None` where no table moved. Only for a stamp a catalogue found still current: then
    /// what it stamps reads the same at the tables' new generations, and the next check of
    /// it need not walk the commits between them again.
    pub(super) fn advanced(&self, now: impl Fn(u8) -> Option<u64>) -> Option<Stamp> {
        let moved = self
            .0
            .iter()
            .any(|(table, generation, _)| now(*table).is_some_and(|n| n != *generation));
        moved.then(|| {
            let at_now = self.0.iter().map(|(table, generation, read)| {
                (*table, now(*table).unwrap_or(*generation), read.clone())
            });
            Stamp(at_now.collect())
        })
    }

    /// Bytes it holds, for a cache's weight.
    pub fn weight(&self) -> usize {
        self.0
            .iter()
            .map(|(_, _, read)| match read {
                Read::Whole => 16,
                Read::Under(prefixes) => 16 + prefixes.iter().map(|p| p.len() + 24).sum::<usize>(),
            })
            .sum()
    }
}

/// One commit's change of one table: from which generation to which, and the keys it
/// changed (sorted), where they are few enough to keep.
#[derive(Debug)]
struct Step {
    table: u8,
    from: u64,
    to: u64,
    keys: Option<Arc<Vec<Vec<u8>>>>,
}

/// The keys the last commits changed, table by table, carried from each catalogue view to
/// its successor. A view opened afresh (a start, a compaction) knows none: its answers are
/// read again.
#[derive(Debug, Default)]
pub(super) struct Recent(VecDeque<Arc<Step>>);

/// One commit's change of one table, as a commit reports it: the table, its generation
/// before and after, and the keys it changed (`None`: not known, or too many).
pub(super) type TableChange = (TreeName, u64, u64, Option<Vec<Vec<u8>>>);

/// How many table changes are remembered.
const KEPT_STEPS: usize = 256;
/// A table change of more keys than this is remembered as "everything".
pub(super) const MAX_KEPT_KEYS: usize = 100_000;

impl Recent {
    /// These steps and one commit's.
    pub(super) fn and(&self, commit: Vec<TableChange>) -> Recent {
        let mut steps = self.0.clone();
        for (table, from, to, keys) in commit {
            let keys = keys.filter(|k| k.len() <= MAX_KEPT_KEYS).map(|mut keys| {
                keys.sort_unstable();
                Arc::new(keys)
            });
            steps.push_back(Arc::new(Step {
                table: table.index() as u8,
                from,
                to,
                keys,
            }));
        }
        while steps.len() > KEPT_STEPS {
            steps.pop_front();
        }
        Recent(steps)
    }

    /// Whether no commit took `table` from generation `from` to `to` through a change of a
    /// key under one of `prefixes` (false where a step is not remembered).
    pub(super) fn untouched(
        &self,
        table: u8,
        mut from: u64,
        to: u64,
        prefixes: &[Vec<u8>],
    ) -> bool {
        while from != to {
            let Some(step) = self.0.iter().find(|s| s.table == table && s.from == from) else {
                return false;
            };
            let Some(keys) = &step.keys else {
                return false;
            };
            let touched = prefixes.iter().any(|prefix| {
                let at = keys.partition_point(|k| k.as_slice() < prefix.as_slice());
                keys.get(at).is_some_and(|k| k.starts_with(prefix))
            });
            if touched {
                return false;
            }
            from = step.to;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_is_stamped_with_what_it_read_once_each_and_an_outer_one_with_it_too() {
        let ((inner, stamp), outer) = recorded(|| {
            note(3, 7);
            recorded(|| {
                note(1, 2);
                note(1, 2);
                note(3, 7);
            })
        });
        assert_eq!(inner, ());
        let whole = |t, g| (t, g, Read::Whole);
        assert_eq!(stamp, Some(Stamp(vec![whole(1, 2), whole(3, 7)])));
        assert_eq!(outer, Some(Stamp(vec![whole(1, 2), whole(3, 7)])));
        // Outside any recording nothing is kept.
        note(5, 5);
        assert_eq!(recorded(|| ()).1, Some(Stamp(vec![])));
    }

    #[test]
    fn two_generations_of_one_table_make_nothing_to_keep() {
        let ((_, inner), outer) = recorded(|| {
            note(2, 1);
            recorded(|| note(2, 2))
        });
        assert_eq!(inner, Some(Stamp(vec![(2, 2, Read::Whole)])));
        assert_eq!(outer, None);
    }

    #[test]
    fn prefixes_of_one_table_gather_until_the_whole_is_read() {
        let prices = TreeName::Prices;
        let (_, stamp) = recorded(|| {
            note_prefix(prices, 4, b"b");
            note_prefix(prices, 4, b"a");
            note_prefix(prices, 4, b"b");
        });
        let under = Read::Under(vec![b"a".to_vec(), b"b".to_vec()]);
        assert_eq!(stamp, Some(Stamp(vec![(prices.index() as u8, 4, under)])));
        let (_, stamp) = recorded(|| {
            note_prefix(prices, 4, b"a");
            note_table(prices, 4);
            note_prefix(prices, 4, b"c");
        });
        assert_eq!(
            stamp,
            Some(Stamp(vec![(prices.index() as u8, 4, Read::Whole)]))
        );
        let (_, stamp) = recorded(|| {
            for i in 0..=MAX_PREFIXES as u32 {
                note_prefix(prices, 4, &i.to_be_bytes());
            }
        });
        assert_eq!(
            stamp,
            Some(Stamp(vec![(prices.index() as u8, 4, Read::Whole)]))
        );
    }

    #[test]
    fn a_prefix_is_untouched_by_commits_that_changed_other_keys_only() {
        let t = TreeName::Prices;
        let idx = t.index() as u8;
        let keys = |k: &[&[u8]]| Some(k.iter().map(|k| k.to_vec()).collect());
        let recent = Recent::default()
            .and(vec![(t, 1, 5, keys(&[b"ab1", b"zz"]))])
            .and(vec![(t, 5, 6, keys(&[b"ac"]))]);
        let under = |p: &[u8]| vec![p.to_vec()];
        assert!(recent.untouched(idx, 1, 6, &under(b"b")));
        assert!(recent.untouched(idx, 5, 6, &under(b"ab")));
        assert!(
            !recent.untouched(idx, 1, 6, &under(b"ab")),
            "changed from 1 to 5"
        );
        assert!(
            !recent.untouched(idx, 1, 6, &under(b"ac")),
            "changed from 5 to 6"
        );
        assert!(!recent.untouched(idx, 2, 6, &under(b"b")), "no step from 2");
        assert!(
            !recent.untouched(idx + 1, 1, 6, &under(b"b")),
            "another table"
        );
        assert!(recent.untouched(idx, 6, 6, &under(b"ab")));
        // A change of keys not known touches every prefix.
        let unknown = recent.and(vec![(t, 6, 9, None)]);
        assert!(!unknown.untouched(idx, 6, 9, &under(b"b")));
        let too_many = (0..=MAX_KEPT_KEYS as u32).map(|i| i.to_be_bytes().to_vec());
        let many = recent.and(vec![(t, 6, 9, Some(too_many.collect()))]);
        assert!(!many.untouched(idx, 6, 9, &under(b"zzzz")));
    }
}
