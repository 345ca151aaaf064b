//! Message and conversation ids (UUID v4) and timestamps (ISO 8601), from randomness and a
//! clock the caller supplies.

/// A version-4 UUID from 16 random bytes, lower-case and hyphenated.
pub fn uuid_v4(mut bytes: [u8; 16]) -> String {
    bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
    bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &hex[0..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..32])
}

/// `ms` since the Unix epoch as ISO 8601 UTC with milliseconds (`2026-11-22T05:39:38.123Z`),
/// the format of JavaScript's `Date.prototype.toISOString`.
pub fn iso8601(ms: f64) -> String {
    let ms = if ms.is_finite() { ms.max(0.0) as i64 } else { 0 };
    let (days, ms_of_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (year, month, day) = civil_from_days(days);
    let (h, m, s, milli) = (ms_of_day / 3_600_000, ms_of_day / 60_000 % 60, ms_of_day / 1000 % 60, ms_of_day % 1000);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_has_version_and_variant_bits() {
        let id = uuid_v4([0xff; 16]);
        assert_eq!(id, "ffffffff-ffff-4fff-bfff-ffffffffffff");
        let id = uuid_v4([0; 16]);
        assert_eq!(id, "00000000-0000-4000-8000-000000000000");
    }

    #[test]
    fn timestamps_match_javascript_to_iso_string() {
        assert_eq!(iso8601(0.0), "1970-01-01T00:00:00.000Z");
        // new Date(1795326978123).toISOString()
        assert_eq!(iso8601(1_795_326_978_123.0), "2026-11-22T05:56:18.123Z");
        // A leap day: new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 999)).toISOString()
        assert_eq!(iso8601(1_709_251_199_999.0), "2024-02-29T23:59:59.999Z");
        assert_eq!(iso8601(f64::NAN), "1970-01-01T00:00:00.000Z");
    }
}
