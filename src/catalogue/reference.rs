//! The one reference normaliser: every write and every lookup goes through it, so that
//! `0 986 494 048`, `0986-494.048` and `0986494048` name the same article; and how a searched
//! number matches, and what it finds through a cross number.

use super::{ArticleKey, CrossKind};

/// Upper-cases a reference and drops everything that is not an ASCII letter or digit.
///
/// Non-ASCII letters are dropped too: catalogue numbers are ASCII by convention, and a
/// lookup must not depend on how a client's keyboard composes accents.
pub fn normalise_reference(written: &str) -> String {
    // Byte by byte: no byte of a character beyond ASCII is an ASCII letter or digit.
    let mut normalised = Vec::with_capacity(written.len());
    normalised.extend(
        written
            .bytes()
            .filter(u8::is_ascii_alphanumeric)
            .map(|b| b.to_ascii_uppercase()),
    );
    // ASCII letters and digits alone: always UTF-8.
    String::from_utf8(normalised).unwrap_or_default()
}

/// How a searched number must match a stored one; both are normalised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberMatch {
    Exact,
    Prefix,
    Suffix,
    PrefixOrSuffix,
}

impl NumberMatch {
    pub fn accepts(self, stored: &[u8], query: &[u8]) -> bool {
        match self {
            NumberMatch::Exact => stored == query,
            NumberMatch::Prefix => stored.starts_with(query),
            NumberMatch::Suffix => stored.ends_with(query),
            NumberMatch::PrefixOrSuffix => stored.starts_with(query) || stored.ends_with(query),
        }
    }
}

/// An article found through a cross number.
#[derive(Debug, Clone, PartialEq)]
pub struct CrossHit {
    pub article: ArticleKey,
    pub kind: CrossKind,
    pub manufacturer_id: Option<u32>,
    /// The cross number as written.
    pub number: String,
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
