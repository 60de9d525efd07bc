//! Which media files of the catalogue the local media store holds and which it lacks: per
//! kind, for every brand or one, with the first missing entries by URI. Read as the
//! catalogue's media entries stream by; only the listed missing entries are held.

use serde::Serialize;

use crate::catalogue::{Media, MediaKind};
use crate::media::{MediaStore, package::kind_name};
use crate::service::ServiceError;
use crate::store::Store;

/// Entries of one kind.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct KindCount {
    pub kind: &'static str,
    pub entries: u64,
    pub present: u64,
    pub missing: u64,
}

/// A media entry whose file the store lacks.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct MissingMedia {
    pub brand_id: u32,
    pub reference: String,
    pub kind: &'static str,
    pub uri: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MediaInventory {
    /// The brand looked at; every brand where absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brand_id: Option<u32>,
    pub media_dir: String,
    /// Images, documents and 360 frames, in that order.
    pub kinds: Vec<KindCount>,
    /// The first missing entries, up to the number asked for.
    pub missing: Vec<MissingMedia>,
}

const KINDS: [MediaKind; 3] = [MediaKind::Image, MediaKind::Document, MediaKind::Spin360];

/// Counts the catalogue's media entries (of `brand_id`, or all) as present in `media` or
/// missing, listing the first `listed` missing ones.
pub fn inventory(
    store: &Store,
    media: &MediaStore,
    brand_id: Option<u32>,
    listed: usize,
) -> Result<MediaInventory, ServiceError> {
    let catalogue = store.catalogue();
    let mut kinds: Vec<KindCount> = KINDS
        .iter()
        .map(|&k| KindCount {
            kind: kind_name(k),
            ..KindCount::default()
        })
        .collect();
    let mut missing = Vec::new();
    for m in catalogue.records::<Media>() {
        let m = m?;
        if brand_id.is_some_and(|b| b != m.article.brand_id) {
            continue;
        }
        let count = &mut kinds[match m.kind {
            MediaKind::Image => 0,
            MediaKind::Document => 1,
            MediaKind::Spin360 => 2,
        }];
        count.entries += 1;
        if media.lookup(&m.uri).is_some() {
            count.present += 1;
        } else {
            count.missing += 1;
            if missing.len() < listed {
                missing.push(MissingMedia {
                    brand_id: m.article.brand_id,
                    reference: m.article.reference,
                    kind: kind_name(m.kind),
                    uri: m.uri,
                });
            }
        }
    }
    Ok(MediaInventory {
        brand_id,
        media_dir: media.dir().display().to_string(),
        kinds,
        missing,
    })
}
