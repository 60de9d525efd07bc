//! The SOAP envelope reader on arbitrary bytes: it must answer `Ok` or `Err`, never panic,
//! and never hold more than its bounds allow.
#![no_main]

use libfuzzer_sys::fuzz_target;
use partscat::server::soap::envelope;

fuzz_target!(|data: &[u8]| {
    if let Ok(parsed) = envelope::parse(data) {
        assert!(depth(&parsed.operation) <= envelope::MAX_DEPTH);
    }
});

fn depth(e: &envelope::Element) -> usize {
    1 + e.children.iter().map(depth).max().unwrap_or(0)
}
