//! The numbers an article's media files go by (TecDoc's `docId`): the article's
//! `legacyArticleId` and a slot the file's URI chooses, so a number names the same file for as
//! long as the article keeps it, whatever else the article gains or loses, and needs no index
//! of its own. Numbers stay below 2^52, exact in a JavaScript client's numbers.

use sha2::{Digest, Sha256};

use super::Media;

/// The bits of a number its slot takes; the article's id takes the rest.
const SLOT_BITS: u32 = 21;
const SLOTS: u64 = 1 << SLOT_BITS;

/// The slot a URI asks for first: its hash, cut to the slot's bits.
fn wanted_slot(uri: &str) -> u64 {
    let hash = Sha256::digest(uri.as_bytes());
    u64::from_be_bytes(hash[..8].try_into().unwrap_or_default()) % SLOTS
}

/// The numbers of `media`, an article's media rows in their stored order, one each. Two URIs
/// that ask for the same slot (one article in about a million with two files) are told apart
/// by the later one, in URI order, taking the next free slot: the same rows always get the
/// same numbers.
pub fn document_ids(article_id: u32, media: &[Media]) -> Vec<u64> {
    let mut uris: Vec<&str> = media.iter().map(|m| m.uri.as_str()).collect();
    uris.sort_unstable();
    uris.dedup();
    let mut taken: Vec<(&str, u64)> = Vec::with_capacity(uris.len());
    for uri in uris {
        let mut slot = wanted_slot(uri);
        while taken.iter().any(|&(_, s)| s == slot) {
            slot = (slot + 1) % SLOTS;
        }
        taken.push((uri, slot));
    }
    let base = u64::from(article_id) << SLOT_BITS;
    media
        .iter()
        .map(|m| {
            let slot = taken
                .iter()
                .find(|(uri, _)| *uri == m.uri)
                .map_or(0, |&(_, slot)| slot);
            base | slot
        })
        .collect()
}

/// The article whose file a number names; None for a number no article's file can have.
pub fn article_of_document(doc_id: u64) -> Option<u32> {
    u32::try_from(doc_id >> SLOT_BITS)
        .ok()
        .filter(|&id| (1..=i32::MAX as u32).contains(&id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{ArticleKey, MediaKind};

    fn row(uri: &str) -> Media {
        Media {
            article: ArticleKey {
                brand_id: 1,
                reference: "A".into(),
            },
            kind: MediaKind::Image,
            set: String::new(),
            position: 0,
            uri: uri.into(),
            description: String::new(),
        }
    }

    #[test]
    fn a_file_keeps_its_number_whatever_else_the_article_holds() {
        let one = document_ids(610, &[row("media/b.jpg")]);
        let three = document_ids(610, &[row("media/a.jpg"), row("media/b.jpg"), row("x.pdf")]);
        assert_eq!(one[0], three[1]);
        assert_eq!(article_of_document(three[0]), Some(610));
        let mut distinct = three.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), 3);
        assert!(three.iter().all(|&id| id < 1 << 52));
        // The largest article id still fits a JavaScript number exactly.
        let last = document_ids(i32::MAX as u32, &[row("media/a.jpg")])[0];
        assert!(last < 1 << 52);
        assert_eq!(article_of_document(last), Some(i32::MAX as u32));
        assert_eq!(article_of_document(12), None);
        assert_eq!(article_of_document(u64::MAX), None);
    }

    #[test]
    fn two_uris_asking_for_one_slot_get_two_numbers() {
        // Any two URIs whose slots meet: found by counting up.
        let first = "media/0.jpg";
        let clash = (1..)
            .map(|i| format!("media/{i}.jpg"))
            .find(|u| wanted_slot(u) == wanted_slot(first))
            .unwrap_or_default();
        let ids = document_ids(7, &[row(first), row(&clash), row(first)]);
        assert_ne!(ids[0], ids[1]);
        assert_eq!(ids[0], ids[2]);
    }
}
