use super::*;

#[test]
fn names_are_unique_and_parse_back() {
    for t in TreeName::ALL {
        assert_eq!(TreeName::from_name(t.name()), Some(t));
        assert_eq!(parse_stored_name(&t.stored_name(12)), Some((t.name(), 12)));
        assert_eq!(t.is_index(), TreeName::INDEXES.contains(&t));
        assert_eq!(!t.is_index(), TreeName::DATA.contains(&t));
    }
    assert_eq!(
        TreeName::DATA.len() + TreeName::INDEXES.len(),
        TreeName::ALL.len()
    );
}
