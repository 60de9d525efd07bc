//! The manifests of earlier store formats, each read once and turned into today's (`From`)
//! by the open or the migration that meets it.

use bincode::{Decode, Encode};

use super::{ChangeLog, ImportedFile, Manifest, SyncMark};

/// The manifest of format 5 and before, without page ids (manifest codec version 3).
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
pub struct ManifestBeforePages {
    pub generation: u64,
    pub data_version: u64,
    pub updated_at: u64,
    pub trees: Vec<(String, u64)>,
    pub imported: Vec<ImportedFile>,
    pub changes: ChangeLog,
    pub synced: SyncMark,
}

impl From<ManifestBeforePages> for Manifest {
    /// Tables of format 5 hold no pages; the migration to format 6 writes them.
    fn from(old: ManifestBeforePages) -> Manifest {
        Manifest {
            generation: old.generation,
            data_version: old.data_version,
            updated_at: old.updated_at,
            trees: old.trees,
            imported: old.imported,
            changes: old.changes,
            synced: old.synced,
            next_page: 0,
        }
    }
}

/// The manifest of format 3 before syncs were marked (manifest codec version 2).
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
pub struct ManifestBeforeSync {
    pub generation: u64,
    pub data_version: u64,
    pub updated_at: u64,
    pub trees: Vec<(String, u64)>,
    pub imported: Vec<ImportedFile>,
    pub changes: ChangeLog,
}

impl From<ManifestBeforeSync> for Manifest {
    fn from(old: ManifestBeforeSync) -> Manifest {
        Manifest::from(ManifestBeforePages {
            generation: old.generation,
            data_version: old.data_version,
            updated_at: old.updated_at,
            trees: old.trees,
            imported: old.imported,
            changes: old.changes,
            synced: SyncMark::default(),
        })
    }
}

/// The manifest of format 3 before the change feed (manifest codec version 1).
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
pub struct ManifestV3 {
    pub generation: u64,
    pub data_version: u64,
    pub updated_at: u64,
    pub trees: Vec<(String, u64)>,
    pub imported: Vec<ImportedFile>,
}

impl From<ManifestV3> for Manifest {
    /// No changes were kept: a feed starts from the store's data version.
    fn from(old: ManifestV3) -> Manifest {
        Manifest::from(ManifestBeforeSync {
            changes: ChangeLog {
                complete_since: old.data_version,
                kept: Vec::new(),
            },
            generation: old.generation,
            data_version: old.data_version,
            updated_at: old.updated_at,
            trees: old.trees,
            imported: old.imported,
        })
    }
}

/// The manifest of format 1, read once by the migration to format 2.
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
pub struct ManifestV1 {
    pub generation: u64,
    pub data_version: u64,
    pub updated_at: u64,
    pub trees: Vec<(String, u64)>,
}
