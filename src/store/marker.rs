//! A small file beside the engine's files that says "a partscat catalogue lives here, at
//! least at this data version". sled, given a damaged log, may recover to an empty or an
//! older database without an error; the marker turns that into a refusal to start instead
//! of an appliance that serves an empty or stale catalogue.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::error::StoreError;

pub const FILE: &str = "partscat-store";

fn file(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

/// The data version the marker vouches for, or `None` where there is no marker.
pub fn read(dir: &Path) -> Result<Option<u64>, StoreError> {
    let text = match fs::read_to_string(file(dir)) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(StoreError::Corrupt(
                dir.into(),
                format!("its marker file cannot be read: {e}"),
            ));
        }
    };
    text.lines()
        .find_map(|l| l.strip_prefix("data_version = "))
        .and_then(|v| v.trim().parse().ok())
        .map(Some)
        .ok_or_else(|| StoreError::Corrupt(dir.into(), "its marker file is damaged".into()))
}

/// Replaces the marker atomically (write, sync, rename, sync the directory).
pub fn write(dir: &Path, data_version: u64) -> Result<(), StoreError> {
    let fail = |e: std::io::Error| StoreError::io("cannot write the store marker", e);
    let tmp = dir.join(format!("{FILE}.tmp"));
    let mut f = fs::File::create(&tmp).map_err(fail)?;
    write!(
        f,
        "# A partscat catalogue store. Do not edit.\nformat = {}\ndata_version = {data_version}\n",
        super::FORMAT_VERSION
    )
    .map_err(fail)?;
    f.sync_all().map_err(fail)?;
    fs::rename(&tmp, file(dir)).map_err(fail)?;
    fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(fail)?;
    Ok(())
}
