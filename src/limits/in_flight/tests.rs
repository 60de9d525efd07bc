//! The pool's rules, on the counting allocator the library's tests run with.

use super::*;

// The pool is one per process: these tests take turns.
static TURNS: Mutex<()> = Mutex::new(());

#[test]
fn what_a_thread_allocates_for_a_request_is_held_until_the_request_ends() {
    let _turn = TURNS.lock().unwrap_or_else(|e| e.into_inner());
    let held = Held::new();
    let kept = {
        let _counting = held.count_here(false);
        vec![7u8; 4 << 20]
    };
    assert!(held.bytes() >= 4 << 20, "{}", held.bytes());
    assert!(held.0.counted.load(Ordering::Relaxed) >= 4 << 20);
    // Released on another thread, outside the work: still held until the request ends.
    std::thread::spawn(move || drop(kept)).join().unwrap();
    assert!(held.bytes() >= 4 << 20);
    let freed = {
        let _counting = held.count_here(false);
        drop(vec![0u8; 1 << 20]);
        held.bytes()
    };
    assert!(
        freed >= 4 << 20,
        "what is allocated and released within is not held"
    );
}

#[test]
fn past_the_bound_the_oldest_large_request_goes_on_and_a_younger_one_is_refused() {
    let _turn = TURNS.lock().unwrap_or_else(|e| e.into_inner());
    set_in_flight_bytes(8 << 20);
    let (older, younger, small) = (Held::new(), Held::new(), Held::new());
    older.add(6 << 20);
    younger.add(1 << 20);
    {
        let _counting = younger.count_here(false);
        assert_eq!(check(), Ok(()), "within the bound");
        assert_eq!(room_for(4 << 20), Err(NoRoom), "past it, not the oldest");
    }
    {
        let _counting = older.count_here(false);
        assert_eq!(room_for(64 << 20), Ok(()), "the oldest goes on");
    }
    {
        let _counting = small.count_here(false);
        assert_eq!(check(), Ok(()), "a small one is never held back");
    }
    // Room made by the older one's end lets the younger one go on.
    drop(older);
    let _counting = younger.count_here(false);
    assert_eq!(room_for(4 << 20), Ok(()));
    set_in_flight_bytes(512 << 20);
}

#[test]
fn a_waiting_request_goes_on_when_another_gives_back_its_room() {
    let _turn = TURNS.lock().unwrap_or_else(|e| e.into_inner());
    set_in_flight_bytes(8 << 20);
    let older = Held::new();
    older.add(7 << 20);
    let younger = Held::new();
    younger.add(1 << 20);
    let waiting = std::thread::spawn(move || {
        let _counting = younger.count_here(true);
        room_for(2 << 20)
    });
    // Given back at once or while the other waits: either way it finds room.
    older.add(-(7 << 20));
    assert_eq!(waiting.join().unwrap(), Ok(()));
    drop(older);
    set_in_flight_bytes(512 << 20);
}

#[test]
fn nested_counting_reports_to_each_request_its_own() {
    let _turn = TURNS.lock().unwrap_or_else(|e| e.into_inner());
    let (outer, inner) = (Held::new(), Held::new());
    let _outer_counting = outer.count_here(false);
    let a = vec![1u8; 1 << 20];
    let b = {
        let _inner_counting = inner.count_here(false);
        assert!(current().is_some_and(|h| Arc::ptr_eq(&h.0, &inner.0)));
        vec![2u8; 2 << 20]
    };
    drop(_outer_counting);
    assert!(
        (1 << 20..2 << 20).contains(&outer.bytes()),
        "{}",
        outer.bytes()
    );
    assert!(inner.bytes() >= 2 << 20);
    drop((a, b));
}
