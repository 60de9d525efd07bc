use std::path::PathBuf;

/// Why the store could not do what was asked. Messages are for the operator.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "the store at {0} is in use by another process (is `partscat serve` running on it?); stop it or use the running server"
    )]
    InUse(PathBuf),
    #[error(
        "{0} is not a partscat store: {1}; point --data at a partscat store or an empty directory"
    )]
    NotOurs(PathBuf, String),
    #[error(
        "the store at {path} has format version {found}, newer than this partscat understands ({supported}); run a newer partscat"
    )]
    NewerFormat {
        path: PathBuf,
        found: u32,
        supported: u32,
    },
    #[error(
        "the store at {0} is corrupt: {1}; restore it from a backup (`partscat restore --data EMPTY_DIR FILE`, then point data_dir at it)"
    )]
    Corrupt(PathBuf, String),
    #[error("cannot open the store at {0}: {1}")]
    Unopenable(PathBuf, String),
    /// The store is another account's: nothing is wrong with it.
    #[error(
        "the store at {store} belongs to the account '{owner}', and this command runs as '{running_as}', which may not read and write {denied}: run it as '{owner}' (for example `sudo -u {owner} partscat …`); the store itself is untouched"
    )]
    NoPermission {
        store: PathBuf,
        denied: String,
        owner: String,
        running_as: String,
    },
    /// The storage engine failed; its own error is the source.
    #[error("storage engine error: {0}")]
    Engine(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// A file of the store could not be made, read or written.
    #[error("{doing}: {source}")]
    Io {
        doing: String,
        #[source]
        source: std::io::Error,
    },
    /// Stored data that does not read as partscat wrote it: damage `check` reports.
    #[error("damaged store: {0}")]
    Damaged(String),
    /// A step of the store's own work failed (a helper thread, a scratch database, steps in
    /// the wrong order): a fault of partscat or of the machine, not of the data.
    #[error("internal error: {0}")]
    Internal(String),
    /// The system gave no random bytes.
    #[error("no random bytes for {what}: {source}")]
    NoRandomness {
        what: &'static str,
        #[source]
        source: getrandom::Error,
    },
    /// Every numeric article id (up to 2^31) has been given out.
    #[error("the store has given out every numeric article id (2^31)")]
    ArticleIdsExhausted,
    /// Every criterion number clients can take has been given out.
    #[error("the store has given out every criterion number (2^31)")]
    CriterionIdsExhausted,
    /// A record bigger than the sorter can hold.
    #[error("a key or value of 4 GiB or more cannot be sorted")]
    TooLargeToSort,
    /// An answer's item could not be written as JSON.
    #[error("an answer could not be written as JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The file system of the store has no space left.
    #[error("the disk holding the store is full (no space left on device)")]
    DiskFull,
    #[error("an import is already running on this store")]
    Busy,
    /// A compaction gave up and left the store as it was.
    #[error("the store was not compacted now ({0}); it is left as it was")]
    NotCompacted(&'static str),
    /// A replace would retire rows that rows of other data sets still refer to.
    #[error(
        "the replace would retire rows that {count} row(s) of other data sets still refer to ({}); replace those data sets in the same import, or keep the rows; nothing was written",
        first.join("; ")
    )]
    StillReferred { count: u64, first: Vec<String> },
    /// A change feed asked from before the changes the store keeps.
    #[error(
        "the change feed keeps the changes since data version {complete_since}; data version {since} is older: refresh in full"
    )]
    ChangesGone { since: u64, complete_since: u64 },
    /// A provider's numeric alias is another provider's already.
    #[error("number {number} names provider `{provider}` already")]
    NumberTaken { number: u32, provider: String },
    /// A request's scan stopped: its client left, or it ran past its work budget.
    #[error(transparent)]
    Spent(#[from] crate::budget::Spent),
}

impl StoreError {
    /// An I/O error of the store's files, with what was being done.
    pub(crate) fn io(doing: &str, e: std::io::Error) -> StoreError {
        if e.kind() == std::io::ErrorKind::StorageFull {
            StoreError::DiskFull
        } else {
            StoreError::Io {
                doing: doing.to_owned(),
                source: e,
            }
        }
    }

    /// A stored record that does not decode: damage the integrity check reports.
    pub(super) fn undecodable(tree: super::layout::TreeName) -> StoreError {
        StoreError::Damaged(format!("a record of {} cannot be decoded", tree.name()))
    }
}
