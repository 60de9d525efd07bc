//! How much of the change feed a store keeps.

/// How long the change feed keeps each data version's changes: the newest `versions` of
/// them, and none older than `days`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangeRetention {
    pub versions: u32,
    pub days: u32,
}

impl Default for ChangeRetention {
    fn default() -> Self {
        ChangeRetention {
            versions: 100,
            days: 30,
        }
    }
}
