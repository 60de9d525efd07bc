//! The bound on one answer's size (`limits.answer_mb`): set once at start, checked as an
//! answer is written, so that no answer is built larger than it.

use std::sync::atomic::{AtomicU64, Ordering};

/// The largest answer the server builds, in bytes: set once at start from `answer_mb`.
static ANSWER_BYTES: AtomicU64 = AtomicU64::new(64 << 20);

/// Sets the largest answer the server builds.
pub fn set_answer_bytes(bytes: u64) {
    ANSWER_BYTES.store(bytes, Ordering::Relaxed);
}

/// The message of an answer over the bound, for the client.
pub fn answer_too_large() -> String {
    format!(
        "the answer would be over the limit of {} MiB (limits.answer_mb): ask for fewer at a time (perPage) or narrow the request",
        ANSWER_BYTES.load(Ordering::Relaxed) >> 20
    )
}

/// Whether `bytes` of one answer are within the bound.
pub fn within_answer(bytes: u64) -> Result<(), crate::budget::Spent> {
    if bytes > ANSWER_BYTES.load(Ordering::Relaxed) {
        return Err(crate::budget::Spent::TooLarge(answer_too_large()));
    }
    Ok(())
}

/// Bytes written into memory, refused past the answer bound: an answer is never built
/// larger than the bound, whatever the records it is made of.
#[derive(Default)]
pub struct BoundedAnswer {
    pub bytes: Vec<u8>,
}

/// A JSON writer calls `write` for every comma and quote: the check stays small enough to be
/// inlined there, and the refusal is made out of line.
impl std::io::Write for BoundedAnswer {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if (self.bytes.len() + buf.len()) as u64 > ANSWER_BYTES.load(Ordering::Relaxed) {
            return Err(over_the_answer_bound());
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.write(buf).map(drop)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cold]
#[inline(never)]
fn over_the_answer_bound() -> std::io::Error {
    std::io::Error::other(answer_too_large())
}

/// Counts bytes, refused past the answer bound: how large an answer would be, measured
/// without keeping it.
#[derive(Default)]
pub struct AnswerSize(pub u64);

impl std::io::Write for AnswerSize {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        if self.0 > ANSWER_BYTES.load(Ordering::Relaxed) {
            return Err(over_the_answer_bound());
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
