//! Small value types of the catalogue, each with one text form used by imports and exports.

use std::fmt;

use serde::{Serialize, Serializer};

/// The separator of a list's items in its text form (`eans`, `replaced_by`: `a|b|c`).
pub const LIST_SEPARATOR: &str = "|";

/// A production year with an optional month, written `YYYY` or `YYYY-MM`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct YearMonth {
    pub year: u16,
    /// 1 to 12, or 0 where only the year is known.
    pub month: u8,
}

impl YearMonth {
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("'{text}' is not a year (YYYY) or a year and month (YYYY-MM)");
        let (year, month) = match text.split_once('-') {
            Some((y, m)) => (y, Some(m)),
            None => (text, None),
        };
        let year = parse_digits(year, 4).ok_or_else(bad)? as u16;
        let month = match month {
            Some(m) => parse_digits(m, 2).ok_or_else(bad)? as u8,
            None => 0,
        };
        if !(1886..=2200).contains(&year) || (month == 0 && text.contains('-')) || month > 12 {
            return Err(bad());
        }
        Ok(YearMonth { year, month })
    }
}

impl fmt::Display for YearMonth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.month {
            0 => write!(f, "{:04}", self.year),
            m => write!(f, "{:04}-{:02}", self.year, m),
        }
    }
}

/// A calendar date, written `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

impl Date {
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("'{text}' is not a date (YYYY-MM-DD)");
        let mut parts = text.split('-');
        let (Some(y), Some(m), Some(d), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let year = parse_digits(y, 4).ok_or_else(bad)? as u16;
        let month = parse_digits(m, 2).ok_or_else(bad)? as u8;
        let day = parse_digits(d, 2).ok_or_else(bad)? as u8;
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return Err(bad());
        }
        Ok(Date { year, month, day })
    }
}

impl Date {
    /// Today in UTC.
    pub fn today() -> Date {
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        Date::from_unix_days((seconds / 86_400) as i64)
    }

    /// The civil date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
    pub fn from_unix_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as u16;
        Date { year, month, day }
    }
}

fn days_in_month(year: u16, month: u8) -> u8 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Unix seconds as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_timestamp(secs: u64) -> String {
    let second = secs % 86_400;
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        Date::from_unix_days((secs / 86_400) as i64),
        second / 3600,
        second % 3600 / 60,
        second % 60
    )
}

impl fmt::Display for Date {
    /// `YYYY-MM-DD`, written digit by digit: every price in an answer carries one or two.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = *b"0000-00-00";
        put_digits(&mut text[..4], u64::from(self.year));
        put_digits(&mut text[5..7], u64::from(self.month));
        put_digits(&mut text[8..], u64::from(self.day));
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

/// Writes `n`'s last `out.len()` decimal digits into `out`, zero-padded.
fn put_digits(out: &mut [u8], mut n: u64) {
    for digit in out.iter_mut().rev() {
        *digit = b'0' + (n % 10) as u8;
        n /= 10;
    }
}

/// A money amount in ten-thousandths of the currency unit, so sums are exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Amount(pub i64);

impl Amount {
    const SCALE: i64 = 10_000;

    /// Reads `12`, `12.5` or `12.3456` (a `,` decimal separator is accepted too).
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("'{text}' is not an amount (digits with up to 4 decimals)");
        let (negative, body) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (whole, fraction) = match body.split_once(['.', ',']) {
            Some((w, f)) => (w, f),
            None => (body, ""),
        };
        if whole.is_empty() || whole.len() > 12 || fraction.len() > 4 {
            return Err(bad());
        }
        let whole = parse_digits(whole, whole.len()).ok_or_else(bad)? as i64;
        let mut scaled = whole * Self::SCALE;
        if !fraction.is_empty() {
            let digits = parse_digits(fraction, fraction.len()).ok_or_else(bad)? as i64;
            scaled += digits * 10_i64.pow(4 - fraction.len() as u32);
        }
        Ok(Amount(if negative { -scaled } else { scaled }))
    }

    /// In hundredths, rounded half away from zero (`12.345` is 1235).
    pub fn cents(self) -> i64 {
        let half = Self::SCALE / 200;
        let rounded = if self.0 < 0 {
            self.0 - half
        } else {
            self.0 + half
        };
        rounded / (Self::SCALE / 100)
    }

    pub fn times(self, quantity: u32) -> Amount {
        Amount(self.0.saturating_mul(quantity as i64))
    }
}

impl std::ops::Add for Amount {
    type Output = Amount;
    fn add(self, other: Amount) -> Amount {
        Amount(self.0.saturating_add(other.0))
    }
}

impl fmt::Display for Amount {
    /// At least two decimals, more only where the amount has them.
    /// Written digit by digit into a buffer on the stack (every price of an answer has one).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A sign, at most 20 digits of an i64's whole part, a point, four decimals.
        let mut text = [0u8; 26];
        let abs = self.0.unsigned_abs();
        let (mut whole, fraction) = (abs / Self::SCALE as u64, abs % Self::SCALE as u64);
        let mut end = text.len();
        put_digits(&mut text[end - 4..], fraction);
        // Trailing zeros beyond two decimals are left off.
        while end > text.len() - 2 && text[end - 1] == b'0' {
            end -= 1;
        }
        let mut start = text.len() - 5;
        text[start] = b'.';
        loop {
            start -= 1;
            text[start] = b'0' + (whole % 10) as u8;
            whole /= 10;
            if whole == 0 {
                break;
            }
        }
        if self.0 < 0 {
            start -= 1;
            text[start] = b'-';
        }
        f.write_str(std::str::from_utf8(&text[start..end]).map_err(|_| fmt::Error)?)
    }
}

/// Parses exactly `len` ASCII digits.
fn parse_digits(text: &str, len: usize) -> Option<u64> {
    if text.len() != len || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

macro_rules! serialize_as_text {
    ($($t:ty),*) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
    )*};
}
serialize_as_text!(YearMonth, Date, Amount);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_days_become_civil_dates() {
        assert_eq!(Date::from_unix_days(0).to_string(), "1970-01-01");
        assert_eq!(Date::from_unix_days(11_016).to_string(), "2000-02-29");
        assert_eq!(Date::from_unix_days(20_779).to_string(), "2026-11-22");
    }

    #[test]
    fn year_months_round_trip() {
        assert_eq!(YearMonth::parse("2015").unwrap().to_string(), "2015");
        assert_eq!(YearMonth::parse("2015-03").unwrap().to_string(), "2015-03");
        for bad in ["15", "2015-3", "2015-13", "2015-", "abcd", "2015-00"] {
            assert!(YearMonth::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn dates_are_checked() {
        assert_eq!(Date::parse("2024-02-29").unwrap().to_string(), "2024-02-29");
        assert_eq!(Date::parse("0001-10-09").unwrap().to_string(), "0001-10-09");
        for bad in ["2023-02-29", "2024-04-31", "2024-1-01", "2024-01-01-01", ""] {
            assert!(Date::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn amounts_are_exact() {
        assert_eq!(Amount::parse("12").unwrap().to_string(), "12.00");
        assert_eq!(Amount::parse("12,5").unwrap().to_string(), "12.50");
        assert_eq!(Amount::parse("0.1234").unwrap().to_string(), "0.1234");
        assert_eq!(Amount::parse("-0.5").unwrap().to_string(), "-0.50");
        assert_eq!(Amount::parse("100.010").unwrap().to_string(), "100.01");
        assert_eq!(Amount::parse("7.0200").unwrap().to_string(), "7.02");
        assert_eq!(Amount(0).to_string(), "0.00");
        assert_eq!(Amount(i64::MIN).to_string(), "-922337203685477.5808");
        assert_eq!(Amount(i64::MAX).to_string(), "922337203685477.5807");
        assert_eq!(Amount::parse("-3.10").unwrap(), Amount(-31_000));
        assert_eq!((Amount::parse("0.1").unwrap().times(3)).to_string(), "0.30");
        for bad in ["", ".5", "1.23456", "1e3", "12.a", "--1"] {
            assert!(Amount::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn cents_round_half_away_from_zero() {
        for (text, cents) in [
            ("61.07", 6107),
            ("12.345", 1235),
            ("12.3449", 1234),
            ("-12.345", -1235),
            ("0.005", 1),
            ("0", 0),
        ] {
            assert_eq!(Amount::parse(text).unwrap().cents(), cents, "{text}");
        }
    }
}
