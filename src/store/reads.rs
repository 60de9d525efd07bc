//! Which tables an answer was read from, and at which generation: an answer kept by the
//! answer cache stays good for as long as every table it read is still at that generation, so
//! a commit that changed prices leaves the answers that never read a price.
//!
//! Recording is per thread: `recorded` runs a build and collects what the catalogue views it
//! reads report (`Catalogue::tree`, the names, the data version) on this thread meanwhile.

use std::cell::RefCell;

use super::layout::TreeName;

/// What an answer depends on: (table, generation) pairs, the data version as a table of its
/// own, in table order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp(Vec<(u8, u64)>);

/// The "table" of the data version itself: an answer that shows it changes with every commit.
pub(super) const DATA_VERSION: u8 = u8::MAX;

/// A build being recorded: what it read so far, or `None` once it read one table at two
/// generations (two views of the catalogue: nothing to keep).
type Recording = Option<Vec<(u8, u64)>>;

thread_local! {
    static RECORDING: RefCell<Option<Recording>> = const { RefCell::new(None) };
}

/// Notes, if a build is being recorded on this thread, that it read `table` at `generation`.
pub(super) fn note(table: u8, generation: u64) {
    RECORDING.with(|recording| {
        let mut recording = recording.borrow_mut();
        let Some(Some(read)) = &mut *recording else {
            return;
        };
        match read.iter().find(|(t, _)| *t == table) {
            Some(&(_, g)) if g == generation => {}
            Some(_) => *recording = Some(None),
            None => read.push((table, generation)),
        }
    })
}

/// Notes a read of a catalogue table.
pub(super) fn note_table(table: TreeName, generation: u64) {
    note(table.index() as u8, generation)
}

/// Runs `build`, and says what it read: `None` if it read two views of one table.
pub fn recorded<T>(build: impl FnOnce() -> T) -> (T, Option<Stamp>) {
    let outer = RECORDING.with(|r| r.borrow_mut().replace(Some(Vec::new())));
    let built = build();
    let read = RECORDING.with(|r| std::mem::replace(&mut *r.borrow_mut(), outer));
    let stamp = read.flatten().map(|mut read| {
        read.sort_unstable();
        // A recording around this one read all this one did.
        for &(table, generation) in &read {
            note(table, generation);
        }
        Stamp(read)
    });
    (built, stamp)
}

impl Stamp {
    pub(super) fn tables(&self) -> impl Iterator<Item = (u8, u64)> + '_ {
        self.0.iter().copied()
    }

    /// Bytes it holds, for a cache's weight.
    pub fn weight(&self) -> usize {
        self.0.len() * 16
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
        assert_eq!(stamp, Some(Stamp(vec![(1, 2), (3, 7)])));
        assert_eq!(outer, Some(Stamp(vec![(1, 2), (3, 7)])));
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
        assert_eq!(inner, Some(Stamp(vec![(2, 2)])));
        assert_eq!(outer, None);
    }
}
