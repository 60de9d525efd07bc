//! The bounds on what partscat takes from outside (`[limits]`): the length of every imported
//! or synced field and row, the size of an answer, and how large, long and slow a transfer
//! from an upstream, a media source or to a publish target may be. Going past one is an
//! error naming the limit, with nothing written.

use std::time::Duration;

mod answer;
pub mod in_flight;
pub use answer::{AnswerSize, BoundedAnswer, answer_too_large, set_answer_bytes, within_answer};

/// The bounds, each a setting of the `[limits]` table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Names, descriptions, notes and criteria values, in bytes.
    pub text_bytes: u64,
    /// References, numbers, ids and codes (and each item of a list of them), in bytes.
    pub number_bytes: u64,
    /// Media URIs, in bytes.
    pub uri_bytes: u64,
    /// One row of an import file, every field and separator, in bytes.
    pub row_bytes: u64,
    /// One SOAP or JSON answer, in MiB.
    pub answer_mb: u64,
    /// What every answer being built and sent holds together, in MiB.
    pub answers_in_flight_mb: u64,
    /// One change feed as it arrives, in MiB.
    pub feed_mb: u64,
    /// The files of one `partscat import` sent to a running server, together, in MiB.
    pub import_mb: u64,
    /// How long one transfer (a feed, a media file, a published file) may take, in seconds.
    pub transfer_deadline_s: u64,
    /// The slowest a transfer may be over any 30 s, in KiB/s; 0: no minimum.
    pub transfer_min_rate_kib: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            text_bytes: 512,
            number_bytes: 64,
            uri_bytes: 2048,
            row_bytes: 64 * 1024,
            answer_mb: 64,
            answers_in_flight_mb: 512,
            feed_mb: 8192,
            import_mb: 65536,
            transfer_deadline_s: 3600,
            transfer_min_rate_kib: 4,
        }
    }
}

/// One bound: its key in the `[limits]` table (`config/table.rs` has its row) and its least
/// value.
pub struct LimitSetting {
    pub key: &'static str,
    /// The least value that makes sense.
    pub min: u64,
    field: fn(&mut Limits) -> &mut u64,
}

/// Every bound, in the order of the documented default file.
pub const LIMIT_SETTINGS: [LimitSetting; 10] = [
    LimitSetting {
        key: "text_bytes",
        min: 16,
        field: |l| &mut l.text_bytes,
    },
    LimitSetting {
        key: "number_bytes",
        min: 8,
        field: |l| &mut l.number_bytes,
    },
    LimitSetting {
        key: "uri_bytes",
        min: 64,
        field: |l| &mut l.uri_bytes,
    },
    LimitSetting {
        key: "row_bytes",
        min: 1024,
        field: |l| &mut l.row_bytes,
    },
    LimitSetting {
        key: "answer_mb",
        min: 1,
        field: |l| &mut l.answer_mb,
    },
    LimitSetting {
        key: "answers_in_flight_mb",
        min: 16,
        field: |l| &mut l.answers_in_flight_mb,
    },
    LimitSetting {
        key: "feed_mb",
        min: 1,
        field: |l| &mut l.feed_mb,
    },
    LimitSetting {
        key: "import_mb",
        min: 1,
        field: |l| &mut l.import_mb,
    },
    LimitSetting {
        key: "transfer_deadline_s",
        min: 1,
        field: |l| &mut l.transfer_deadline_s,
    },
    LimitSetting {
        key: "transfer_min_rate_kib",
        min: 0,
        field: |l| &mut l.transfer_min_rate_kib,
    },
];

impl Limits {
    /// Sets the bound `key` from `text`; the error says what the value should be.
    pub fn set(&mut self, key: &str, text: &str) -> Result<(), String> {
        let setting = LIMIT_SETTINGS
            .iter()
            .find(|s| s.key == key)
            .ok_or_else(|| format!("'{key}' is not a limit"))?;
        let value = text
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|&v| v >= setting.min && v <= 1 << 40)
            .ok_or_else(|| {
                format!(
                    "'{}' is not a whole number of {} or more",
                    text.trim(),
                    setting.min
                )
            })?;
        *(setting.field)(self) = value;
        Ok(())
    }

    pub fn answer_bytes(&self) -> u64 {
        self.answer_mb << 20
    }

    pub fn answers_in_flight_bytes(&self) -> u64 {
        self.answers_in_flight_mb << 20
    }

    pub fn feed_bytes(&self) -> u64 {
        self.feed_mb << 20
    }

    pub fn import_bytes(&self) -> u64 {
        self.import_mb << 20
    }

    pub fn transfer_deadline(&self) -> Duration {
        Duration::from_secs(self.transfer_deadline_s)
    }

    /// The bound of a column of an import file, by what the column holds.
    pub fn of_column(&self, column: &str) -> FieldLimit {
        match column {
            "name" | "make" | "model" | "type" | "engine" | "description" | "value" | "unit"
            | "notes" | "fuel" | "position" | "set" | "text" | "key" => FieldLimit {
                bytes: self.text_bytes,
                setting: "text_bytes",
                item_bytes: None,
            },
            "uri" => FieldLimit {
                bytes: self.uri_bytes,
                setting: "uri_bytes",
                item_bytes: None,
            },
            // Lists of numbers: the whole field as a text, each item as a number.
            "eans" | "replaced_by" => FieldLimit {
                bytes: self.text_bytes,
                setting: "text_bytes",
                item_bytes: Some(self.number_bytes),
            },
            _ => FieldLimit {
                bytes: self.number_bytes,
                setting: "number_bytes",
                item_bytes: None,
            },
        }
    }
}

/// How long one field of a column may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldLimit {
    pub bytes: u64,
    /// The `[limits]` key that sets it, for messages.
    pub setting: &'static str,
    /// For a `|`-separated list, how long each item may be (`number_bytes`).
    pub item_bytes: Option<u64>,
}

impl FieldLimit {
    /// Why `value` of `column` is over the limit, if it is.
    pub fn exceeded(&self, column: &str, value: &str) -> Option<String> {
        if value.len() as u64 > self.bytes {
            return Some(format!(
                "column '{column}' is {} bytes long, over the limit of {} (limits.{})",
                value.len(),
                self.bytes,
                self.setting
            ));
        }
        let item_bytes = self.item_bytes?;
        value
            .split(crate::catalogue::LIST_SEPARATOR)
            .find(|item| item.trim().len() as u64 > item_bytes)
            .map(|item| {
                format!(
                    "column '{column}' holds an item {} bytes long, over the limit of {item_bytes} (limits.number_bytes)",
                    item.trim().len()
                )
            })
    }
}

/// Whether a transfer is too slow: it must bring at least `min_rate` bytes a second over
/// each window of `WINDOW`, the first one included.
#[derive(Debug)]
pub struct RateFloor {
    min_bytes_per_window: u64,
    window_started: std::time::Instant,
    in_window: u64,
}

impl RateFloor {
    pub const WINDOW: Duration = Duration::from_secs(30);

    pub fn new(limits: &Limits, now: std::time::Instant) -> RateFloor {
        RateFloor {
            min_bytes_per_window: limits.transfer_min_rate_kib * 1024 * Self::WINDOW.as_secs(),
            window_started: now,
            in_window: 0,
        }
    }

    /// When the current window ends: wait for data no longer than this.
    pub fn window_end(&self) -> std::time::Instant {
        self.window_started + Self::WINDOW
    }

    /// Counts `bytes` that arrived at `now`; the error when a window closed with too few.
    pub fn arrived(&mut self, bytes: u64, now: std::time::Instant) -> Result<(), String> {
        self.in_window += bytes;
        if now < self.window_end() {
            return Ok(());
        }
        if self.in_window < self.min_bytes_per_window {
            return Err(format!(
                "slower than the minimum of {} KiB/s over {} s (limits.transfer_min_rate_kib): {} bytes arrived",
                self.min_bytes_per_window / 1024 / Self::WINDOW.as_secs(),
                Self::WINDOW.as_secs(),
                self.in_window
            ));
        }
        self.window_started = now;
        self.in_window = 0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn a_drip_fails_the_rate_floor_at_the_end_of_a_window_and_a_steady_stream_does_not() {
        let limits = Limits::default();
        let start = Instant::now();
        let mut drip = RateFloor::new(&limits, start);
        for second in (10..30).step_by(10) {
            assert!(drip.arrived(1, start + Duration::from_secs(second)).is_ok());
        }
        let e = drip
            .arrived(1, start + Duration::from_secs(30))
            .unwrap_err();
        assert!(e.contains("transfer_min_rate_kib"), "{e}");

        let mut steady = RateFloor::new(&limits, start);
        for second in 1..=120 {
            steady
                .arrived(8 * 1024, start + Duration::from_secs(second))
                .unwrap();
        }
        let off = Limits {
            transfer_min_rate_kib: 0,
            ..limits
        };
        let mut none = RateFloor::new(&off, start);
        assert!(none.arrived(0, start + Duration::from_secs(300)).is_ok());
    }

    #[test]
    fn fields_are_bounded_by_what_their_column_holds() {
        let limits = Limits::default();
        assert!(
            limits
                .of_column("name")
                .exceeded("name", &"x".repeat(512))
                .is_none()
        );
        let e = limits
            .of_column("name")
            .exceeded("name", &"x".repeat(513))
            .unwrap();
        assert!(e.contains("513") && e.contains("text_bytes"), "{e}");
        let e = limits
            .of_column("reference")
            .exceeded("reference", &"9".repeat(65))
            .unwrap();
        assert!(e.contains("number_bytes"), "{e}");
        let list = format!("123|{}", "4".repeat(70));
        let e = limits.of_column("eans").exceeded("eans", &list).unwrap();
        assert!(e.contains("an item 70 bytes"), "{e}");
        assert!(
            limits
                .of_column("uri")
                .exceeded("uri", &"u".repeat(2000))
                .is_none()
        );
    }

    #[test]
    fn a_bound_is_set_by_its_key_and_refuses_nonsense() {
        let mut limits = Limits::default();
        limits.set("text_bytes", "300").unwrap();
        assert_eq!(limits.text_bytes, 300);
        assert!(
            limits
                .set("text_bytes", "3")
                .unwrap_err()
                .contains("16 or more")
        );
        assert!(limits.set("feed_mb", "many").is_err());
        assert!(limits.set("colour", "1").is_err());
    }
}
