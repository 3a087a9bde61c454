//! A message's times (`createdAt`, `completedAt`) as milliseconds since the Unix epoch: the
//! protocol lets an agent write either a number of milliseconds or an RFC 3339 date-time string
//! (`2026-11-24T10:00:00.000Z`, what JavaScript's `Date.prototype.toISOString` writes).

use serde_json::Value;

/// `value` in ms since the epoch: a non-negative integer as it is, an RFC 3339 date-time read;
/// anything else (or a date before 1970) is `None`.
pub fn epoch_ms(value: &Value) -> Option<u64> {
    match value {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => rfc3339_ms(s),
        _ => None,
    }
}

/// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (RFC 3339 section 5.6; `t`, `z` and a space
/// for `T` allowed, as section 5.6 notes), to the millisecond. Byte by byte: the standard
/// library's integer parsing would be a kilobyte of the wasm for these few digits.
fn rfc3339_ms(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    if !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let num = |from: usize, to: usize| digits(&b[from..to]);
    let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (hour, minute, second) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    // Leap seconds (60) are read as the second before the next minute's first.
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut rest = &b[19..];
    let mut millis = 0;
    if let [b'.', fraction @ ..] = rest {
        let count = fraction.iter().take_while(|d| d.is_ascii_digit()).count();
        if count == 0 {
            return None;
        }
        // The first three digits are milliseconds; finer ones are dropped.
        for i in 0..3 {
            millis = millis * 10
                + fraction
                    .get(i)
                    .filter(|_| i < count)
                    .map_or(0, |d| i64::from(d - b'0'));
        }
        rest = &fraction[count..];
    }
    let offset_minutes = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (h, m) = (digits(&[*h1, *h2])?, digits(&[*m1, *m2])?);
            if h > 23 || m > 59 {
                return None;
            }
            if *sign == b'+' {
                h * 60 + m
            } else {
                -(h * 60 + m)
            }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset_minutes * 60;
    u64::try_from(seconds * 1_000 + millis).ok()
}

/// The number ASCII digits `bytes` write, or `None` for any other byte.
fn digits(bytes: &[u8]) -> Option<i64> {
    bytes.iter().try_fold(0_i64, |n, d| {
        d.is_ascii_digit().then(|| n * 10 + i64::from(d - b'0'))
    })
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to the proleptic Gregorian date: Howard Hinnant's `days_from_civil`
/// ("chrono-Compatible Low-Level Date Algorithms"), with its constants: eras of 400 years
/// (146,097 days), years that start in March (so the leap day is the year's last), 719,468 the
/// days from 0000-03-01 to 1970-01-01.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
#[path = "when_tests.rs"]
mod tests;
