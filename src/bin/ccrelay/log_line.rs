//! The log's line on standard error, written for less: the same text as tracing-subscriber's
//! default ("full") format without colours, made in a third of the instructions.
//!
//! At `info` the daemon logs a line for every move it relays, formatted on the move's path.
//! The default format spends about 12,000 instructions on that line: the clock turned into a
//! date on every line, and each field written through a three-argument `write!`. Here the
//! date is worked out once a second (by jiff) and each field is written as its name, `=` and
//! its value. What the line says, and how a message's control characters are escaped, is the
//! default format's, which the tests hold it to. What this does not write the common way (a
//! line in a span, a record from the `log` crate, colours for a terminal) it hands to the
//! default format, which writes it as before.

use std::cell::RefCell;
use std::fmt::{self, Write as _};
use std::time::{SystemTime, UNIX_EPOCH};

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::field::{RecordFields, VisitOutput};
use tracing_subscriber::fmt::format::{DefaultFields, DefaultVisitor, Format, Full, Writer};
use tracing_subscriber::fmt::time::FormatTime;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// The event's line: time, level, target, then its fields ([`LeanFields`]).
#[derive(Default)]
pub struct LeanLine {
    full: Format<Full>,
}

impl<S, N> FormatEvent<S, N> for LeanLine
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let meta = event.metadata();
        if writer.has_ansi_escapes()
            || meta.fields().field("log.target").is_some()
            || ctx.event_scope().is_some()
        {
            return self.full.format_event(ctx, writer, event);
        }
        write_time(&mut writer)?;
        writer.write_str(level_name(meta.level()))?;
        writer.write_char(' ')?;
        writer.write_str(meta.target())?;
        writer.write_str(": ")?;
        ctx.format_fields(writer.by_ref(), event)?;
        writer.write_char('\n')
    }
}

/// The level as the default format writes it, five characters wide.
fn level_name(level: &Level) -> &'static str {
    match *level {
        Level::TRACE => "TRACE",
        Level::DEBUG => "DEBUG",
        Level::INFO => " INFO",
        Level::WARN => " WARN",
        Level::ERROR => "ERROR",
    }
}

thread_local! {
    /// The last second written, and its date and time up to the second (`2026-12-03T14:16:53`).
    static SECOND: RefCell<(u64, String)> = const { RefCell::new((u64::MAX, String::new())) };
}

/// `2026-12-03T14:16:53.123456Z ` (UTC, microseconds), as the default format's clock writes it.
fn write_time(writer: &mut Writer<'_>) -> fmt::Result {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).ok();
    let second = now.and_then(|since_epoch| {
        let secs = since_epoch.as_secs();
        SECOND.with(|cached| {
            let mut cached = cached.borrow_mut();
            if cached.0 != secs {
                let date = jiff::Timestamp::from_second(i64::try_from(secs).ok()?).ok()?;
                *cached = (secs, date.strftime("%Y-%m-%dT%H:%M:%S").to_string());
            }
            Some(writer.write_str(&cached.1))
        })
    });
    let (Some(written), Some(since_epoch)) = (second, now) else {
        // A clock before 1970 or past jiff's last year: the default format's clock writes it.
        if tracing_subscriber::fmt::time::SystemTime
            .format_time(writer)
            .is_err()
        {
            writer.write_str("<unknown time>")?;
        }
        return writer.write_char(' ');
    };
    written?;
    let mut text = *b".000000Z ";
    let mut rest = since_epoch.subsec_micros();
    for digit in text[1..7].iter_mut().rev() {
        *digit = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
    writer.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
}

/// Fields as `name=value`, space-separated, the message first and bare, as the default
/// format's fields are written.
#[derive(Default)]
pub struct LeanFields;

impl<'w> FormatFields<'w> for LeanFields {
    fn format_fields<R: RecordFields>(&self, writer: Writer<'w>, fields: R) -> fmt::Result {
        if writer.has_ansi_escapes() {
            return DefaultFields::new().format_fields(writer, fields);
        }
        let mut visitor = LeanVisitor {
            writer,
            is_empty: true,
            result: Ok(()),
        };
        fields.record(&mut visitor);
        visitor.result
    }
}

struct LeanVisitor<'w> {
    writer: Writer<'w>,
    is_empty: bool,
    result: fmt::Result,
}

impl LeanVisitor<'_> {
    fn write_field(&mut self, name: &str, value: &dyn fmt::Debug) -> fmt::Result {
        if self.is_empty {
            self.is_empty = false;
        } else {
            self.writer.write_char(' ')?;
        }
        if name == "message" {
            if self.writer.sanitizes_ansi_escapes() {
                return write!(Escaping(&mut self.writer), "{value:?}");
            }
            return write!(self.writer, "{value:?}");
        }
        self.writer
            .write_str(name.strip_prefix("r#").unwrap_or(name))?;
        self.writer.write_char('=')?;
        write!(self.writer, "{value:?}")
    }
}

impl Visit for LeanVisitor<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.record_debug(field, &format_args!("{value}"));
        } else {
            self.record_debug(field, &value);
        }
    }

    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        if self.result.is_err() {
            return;
        }
        // An error and its sources are written by the default format's own visitor.
        let mut default = DefaultVisitor::new(self.writer.by_ref(), self.is_empty);
        default.record_error(field, value);
        self.result = default.finish();
        self.is_empty = false;
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        // Fields of a record from the `log` crate that the line's head already says.
        if self.result.is_err() || field.name().starts_with("log.") {
            return;
        }
        self.result = self.write_field(field.name(), value);
    }
}

/// Writes what it is given with the control characters a terminal would obey escaped, as the
/// default format escapes a message.
struct Escaping<'a, 'w>(&'a mut Writer<'w>);

impl fmt::Write for Escaping<'_, '_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        let mut plain = 0;
        for (at, ch) in text.char_indices() {
            // C0 controls a terminal acts on, DEL, and the C1 controls.
            if !matches!(
                ch,
                '\x1b' | '\x07' | '\x08' | '\x0c' | '\x7f' | '\u{80}'..='\u{9f}'
            ) {
                continue;
            }
            self.0.write_str(&text[plain..at])?;
            if ch < '\u{80}' {
                write!(self.0, "\\x{:02x}", ch as u32)?;
            } else {
                write!(self.0, "\\u{{{:x}}}", ch as u32)?;
            }
            plain = at + ch.len_utf8();
        }
        self.0.write_str(&text[plain..])
    }
}

#[cfg(test)]
mod tests {
    use std::io;
    use std::sync::{Arc, Mutex};

    use tracing_subscriber::fmt::MakeWriter;
    use tracing_subscriber::prelude::*;

    use super::*;

    /// Lines written, shared with the test.
    #[derive(Clone, Default)]
    struct Lines(Arc<Mutex<Vec<u8>>>);

    impl io::Write for Lines {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| io::Error::other("poisoned"))?
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Lines {
        type Writer = Lines;
        fn make_writer(&'a self) -> Lines {
            self.clone()
        }
    }

    impl Lines {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[derive(Debug)]
    struct Refused(&'static str, Option<Box<Refused>>);

    impl fmt::Display for Refused {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for Refused {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|e| e as _)
        }
    }

    /// Every kind of event the daemon logs, and some it might: one of each a line.
    fn log_everything() {
        let game = String::from("g1");
        tracing::info!(
            game = %game,
            ply = 12u32,
            iccf = %"5254",
            from = %"vera",
            to = %"boris",
            channel_in = %"tcp",
            channel_out = %"link:kr",
            "move relayed"
        );
        tracing::warn!("stopping");
        tracing::error!(error = %"disk full", "the journal refused a commit");
        tracing::info!(
            text = "a \"quoted\"\tword\n",
            "a str field, quoted as Debug"
        );
        tracing::info!(
            "a message with an escape \x1b[31m red, a bell \x07, BS \x08, FF \x0c, DEL \x7f, C1 \u{9b}"
        );
        tracing::info!(message = "a message as a str field \x1b]0;title\x07");
        tracing::debug!(count = 3u64, ratio = 0.5f64, signed = -4i64, on = true);
        tracing::trace!(r#type = "raw", "a raw identifier");
        tracing::warn!(
            error = &Refused("outer", Some(Box::new(Refused("inner", None))))
                as &(dyn std::error::Error + 'static),
            "an error with its source"
        );
        tracing::warn!(peer = ?Some("kr"), "a Debug field");
        tracing::info!(target: "ccrelay::elsewhere", "unicode: Ферзь, Schach, 王");
        let span = tracing::info_span!("node", i = 1);
        span.in_scope(|| tracing::info!(moves = 3, "inside a span"));
        tracing::info!("");
        // A dependency's record through the `log` crate, named by its own target.
        let record = log::Record::builder()
            .args(format_args!("a record from a dependency"))
            .level(log::Level::Warn)
            .target("rustls::client")
            .module_path(Some("rustls::client::hs"))
            .file(Some("hs.rs"))
            .line(Some(12))
            .build();
        tracing_log::format_trace(&record).unwrap();
    }

    /// What each formatter wrote, without the clock (each line's first 28 bytes).
    fn lines_without_time(text: &str) -> Vec<String> {
        text.lines()
            .map(|line| {
                let (time, rest) = line.split_at(28);
                assert!(
                    time.len() == 28 && time.ends_with("Z ") && time.as_bytes()[10] == b'T',
                    "a line's clock: {time:?}"
                );
                rest.to_owned()
            })
            .collect()
    }

    #[test]
    fn a_line_says_what_the_default_format_says() {
        let default = Lines::default();
        let lean = Lines::default();
        let subscriber = tracing_subscriber::registry()
            .with(
                tracing_subscriber::fmt::layer()
                    .with_writer(default.clone())
                    .with_ansi(false),
            )
            .with(
                tracing_subscriber::fmt::layer()
                    .with_writer(lean.clone())
                    .with_ansi(false)
                    .event_format(LeanLine::default())
                    .fmt_fields(LeanFields),
            )
            .with(tracing_subscriber::filter::LevelFilter::TRACE);
        tracing::subscriber::with_default(subscriber, log_everything);
        let (expected, written) = (default.text(), lean.text());
        assert_eq!(expected.lines().count(), 14, "{expected}");
        assert_eq!(lines_without_time(&written), lines_without_time(&expected));
        assert_eq!(
            lines_without_time(&written)[0],
            " INFO ccrelay::log_line::tests: move relayed game=g1 ply=12 iccf=5254 from=vera \
             to=boris channel_in=tcp channel_out=link:kr"
        );
        assert_eq!(
            lines_without_time(&written)[13],
            " WARN rustls::client: a record from a dependency"
        );
    }

    #[test]
    fn the_clock_is_the_default_formats_to_the_microsecond() {
        let mut text = String::new();
        write_time(&mut Writer::new(&mut text)).unwrap();
        let mut theirs = String::new();
        tracing_subscriber::fmt::time::SystemTime
            .format_time(&mut Writer::new(&mut theirs))
            .unwrap();
        theirs.push(' ');
        assert_eq!(text.len(), theirs.len(), "{text:?} against {theirs:?}");
        // The same second, unless one was written across its turn.
        let (mine, other) = (&text[..19], &theirs[..19]);
        assert!(mine <= other, "{text:?} against {theirs:?}");
        assert_eq!(&text[19..20], ".");
        assert!(text[20..26].bytes().all(|b| b.is_ascii_digit()));
        assert_eq!(&text[26..], "Z ");
    }
}
