//! The writes made while a compaction copies the engine's files (`compaction`): each tree's
//! writes record what they did, after they succeeded, so the copy gets them too.

use super::{Shared, lock};

/// A write made while a compaction copies.
pub(super) enum Op {
    Open(String),
    Apply(String, Vec<(Vec<u8>, Option<Vec<u8>>)>),
    Clear(String),
    Drop(String),
}

impl Op {
    fn bytes(&self) -> usize {
        match self {
            Op::Apply(_, writes) => writes
                .iter()
                .map(|(k, v)| k.len() + v.as_ref().map_or(0, Vec::len))
                .sum(),
            _ => 0,
        }
    }
}

/// The writes recorded during one compaction's copy.
#[derive(Default)]
pub(super) struct Recording {
    pub(super) ops: Vec<Op>,
    pub(super) bytes: usize,
}

impl Shared {
    /// Records `op` if a compaction is copying; called under the write gate, after the write
    /// succeeded.
    pub(super) fn recorded(&self, op: impl FnOnce() -> Op) {
        let mut recording = lock(&self.recording);
        if let Some(r) = recording.as_mut() {
            let op = op();
            r.bytes += op.bytes();
            r.ops.push(op);
        }
    }

    pub(super) fn recording(&self) -> bool {
        lock(&self.recording).is_some()
    }
}
