//! Durations as people read them on a clock line: days and hours, `12d 04h`, `-0d 03h` past a
//! limit. Written by hand rather than through the formatter: four go with every move's reply
//! and push.
//!
//! ```
//! use ccrelay::game::days_hours::days_hours;
//! assert_eq!(days_hours(3 * 86_400 + 4 * 3600), "3d 04h");
//! ```

use super::clock::DAY;

/// Days and hours, for people: `12d 04h`, `-0d 03h` when past a limit.
pub fn days_hours(seconds: i64) -> String {
    DaysHours(seconds).to_string()
}

/// Seconds written as [`days_hours`] does, straight into a formatter (a clock line is written
/// for every move pushed).
#[derive(Copy, Clone, Debug)]
pub struct DaysHours(pub i64);

impl DaysHours {
    /// Appends what [`Display`](std::fmt::Display) writes (`3d 04h`, `-1d 02h`) to `out`.
    pub fn push_to(&self, out: &mut String) {
        // Writing to a String cannot fail.
        let _ = self.write_to(out);
    }

    /// The text, to a String or a formatter alike. The digits by hand (the days by itoa),
    /// with no `write!` and no check of the ASCII written: four of these go with every move
    /// pushed and every move's reply, and the formatting machinery costs several times what
    /// they need.
    fn write_to(&self, out: &mut impl std::fmt::Write) -> std::fmt::Result {
        let s = self.0.unsigned_abs();
        let day = DAY.unsigned_abs();
        // Under 24.
        let hours = ((s % day) / 3600) as u8;
        if self.0 < 0 {
            out.write_char('-')?;
        }
        out.write_str(itoa::Buffer::new().format(s / day))?;
        out.write_str("d ")?;
        out.write_char(char::from(b'0' + hours / 10))?;
        out.write_char(char::from(b'0' + hours % 10))?;
        out.write_char('h')
    }
}

impl std::fmt::Display for DaysHours {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.write_to(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_hours_reads_well() {
        assert_eq!(days_hours(3 * DAY + 4 * 3600 + 59), "3d 04h");
        assert_eq!(days_hours(-3 * 3600), "-0d 03h");
        assert_eq!(days_hours(46 * DAY + 20 * 3600), "46d 20h");
        // Written by hand, as `format!` would.
        for seconds in [
            0,
            1,
            3599,
            3600,
            DAY - 1,
            DAY,
            10 * DAY,
            -DAY,
            i64::MAX,
            i64::MIN,
        ] {
            let s = seconds.unsigned_abs();
            let sign = if seconds < 0 { "-" } else { "" };
            let (day, hour) = (DAY.unsigned_abs(), 3600);
            let wanted = format!("{sign}{}d {:02}h", s / day, (s % day) / hour);
            assert_eq!(days_hours(seconds), wanted, "{seconds}");
            let mut appended = String::from("clock: ");
            DaysHours(seconds).push_to(&mut appended);
            assert_eq!(appended, format!("clock: {wanted}"), "{seconds}");
        }
    }
}
