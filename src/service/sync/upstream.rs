//! Where `syncTecdoc` takes the catalogue from, as the `[sync]` settings name it.

use super::*;

/// Where the catalogue comes from.
#[derive(Debug, Clone)]
pub enum Upstream {
    /// Another partscat's change feed.
    Feed {
        base: String,
        provider: String,
        key: String,
        trust: Trust,
    },
    /// A directory of deliveries: subdirectories whose names sort by date, each holding
    /// `<type>.csv` files. A name starting with `.` is a delivery still being written.
    Deliveries(PathBuf),
    /// An upstream's deliveries with their index (`deliveries_dir`), in a folder or served
    /// over HTTP(S).
    Indexed(Location),
}

impl Upstream {
    /// The configured upstream; its key file is read now, so a rotated key needs no restart.
    pub fn configured(settings: &SyncSettings) -> Result<Upstream, SyncError> {
        if let Some(dir) = &settings.source_dir {
            if dir.join(crate::service::deliveries::INDEX).exists() {
                return Ok(Upstream::Indexed(Location::Folder(dir.clone())));
            }
            return Ok(Upstream::Deliveries(dir.clone()));
        }
        if let Some(base) = &settings.source_url {
            return Ok(Upstream::Indexed(Location::web(
                base.clone(),
                settings.trust.clone(),
            )));
        }
        let base = settings.upstream.clone().ok_or(SyncError::NotConfigured)?;
        let provider = settings.provider.clone().ok_or(SyncError::NotConfigured)?;
        let key = match (&settings.api_key, &settings.api_key_file) {
            (Some(key), _) => key.clone(),
            (None, Some(file)) => crate::outside::files::read_setting_text(file)
                .map_err(|e| SyncError::KeyFile(file.display().to_string(), e.to_string()))?
                .lines()
                .next()
                .map(|l| l.trim().to_owned())
                .filter(|k| !k.is_empty())
                .ok_or_else(|| {
                    SyncError::KeyFile(file.display().to_string(), "it holds no key".into())
                })?,
            (None, None) => String::new(),
        };
        Ok(Upstream::Feed {
            base,
            provider,
            key,
            trust: settings.trust.clone(),
        })
    }

    /// Where it is, for messages.
    pub fn describe(&self) -> String {
        match self {
            Upstream::Feed { base, .. } => base.clone(),
            Upstream::Deliveries(dir) => dir.display().to_string(),
            Upstream::Indexed(location) => location.describe(),
        }
    }
}
