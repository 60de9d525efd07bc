use super::*;

fn delivery(from: Option<u64>, to: u64) -> Delivery {
    Delivery {
        name: format!("d-{to}"),
        from,
        to,
        files: Vec::new(),
    }
}

#[test]
fn a_reader_takes_the_changes_from_its_position_or_the_full_delivery_first() {
    let index = Index {
        store: "s".into(),
        version: 9,
        full: delivery(None, 4),
        changes: vec![
            delivery(Some(4), 6),
            delivery(Some(6), 7),
            delivery(Some(7), 9),
        ],
    };
    let names = |route: Vec<&Delivery>| route.iter().map(|d| d.to).collect::<Vec<_>>();
    assert_eq!(names(index.route_from(None)), [4, 6, 7, 9]);
    assert_eq!(names(index.route_from(Some(5))), [6, 7, 9]);
    assert_eq!(names(index.route_from(Some(7))), [9]);
    assert!(index.route_from(Some(9)).is_empty());
    // Behind the oldest changes kept: the full delivery again.
    assert_eq!(names(index.route_from(Some(2))), [4, 6, 7, 9]);
}
