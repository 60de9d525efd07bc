//! The one reference normaliser: every write and every lookup goes through it, so that
//! `0 986 494 048`, `0986-494.048` and `0986494048` name the same article.

/// Upper-cases a reference and drops everything that is not an ASCII letter or digit.
///
/// Non-ASCII letters are dropped too: catalogue numbers are ASCII by convention, and a
/// lookup must not depend on how a client's keyboard composes accents.
pub fn normalise_reference(written: &str) -> String {
    written
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::normalise_reference;
    use proptest::prelude::*;

    #[test]
    fn ways_of_writing_one_number_agree() {
        for written in [
            "0 986 494 048",
            "0986-494.048",
            "0986494048",
            " 0986/494/048 ",
        ] {
            assert_eq!(normalise_reference(written), "0986494048");
        }
        assert_eq!(normalise_reference("gdb-1330"), "GDB1330");
        assert_eq!(normalise_reference("W 712/75"), "W71275");
        assert_eq!(normalise_reference("--"), "");
    }

    proptest! {
        #[test]
        fn is_idempotent(s in ".*") {
            let once = normalise_reference(&s);
            prop_assert_eq!(normalise_reference(&once), once);
        }

        #[test]
        fn keeps_only_upper_alphanumerics(s in ".*") {
            let n = normalise_reference(&s);
            prop_assert!(n.chars().all(|c| c.is_ascii_digit() || c.is_ascii_uppercase()));
        }

        #[test]
        fn ignores_separators_and_case(core in "[A-Za-z0-9]{1,12}", sep in "[ ./_-]{0,3}") {
            let spaced: String = core.chars().flat_map(|c| [c].into_iter().chain(sep.chars())).collect();
            prop_assert_eq!(normalise_reference(&spaced), core.to_ascii_uppercase());
        }

        #[test]
        fn never_merges_distinct_alphanumeric_content(a in "[A-Z0-9]{1,10}", b in "[A-Z0-9]{1,10}") {
            prop_assume!(a != b);
            prop_assert_ne!(normalise_reference(&a), normalise_reference(&b));
        }
    }
}
