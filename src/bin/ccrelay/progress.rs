//! Progress lines for long work (`journal verify`, `journal export`, a large `convert`,
//! `bench`), on standard error and only when it is a terminal.

use std::io::{self, Write};

/// Runs `work`, moving `bar` to `done` ten times a second.
pub async fn with_progress<T>(
    bar: &indicatif::ProgressBar,
    done: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    work: impl std::future::Future<Output = T>,
) -> T {
    let ticking = bar.clone();
    let ticker = tokio::spawn(async move {
        loop {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            ticking.set_position(done.load(std::sync::atomic::Ordering::Relaxed) as u64);
        }
    });
    let result = work.await;
    ticker.abort();
    result
}

/// A progress line on standard error, drawn only when standard error is a terminal (a log
/// file or a pipe gets nothing). `unit` is `bytes` (shown as sizes) or what is counted.
pub fn progress_bar(total: Option<u64>, unit: &str) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressStyle};
    use std::io::IsTerminal;
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let template = match (total, unit) {
        (Some(_), "bytes") => {
            "{bar:40} {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left)".to_owned()
        }
        (Some(_), unit) => format!("{{bar:40}} {{pos}}/{{len}} {unit} ({{per_sec}}, {{eta}} left)"),
        (None, unit) => format!("{{spinner}} {{pos}} {unit}"),
    };
    let bar = total.map_or_else(ProgressBar::new_spinner, ProgressBar::new);
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// Writes to standard error above the progress line, not through it.
pub struct AboveProgress {
    pub bar: indicatif::ProgressBar,
    pub inner: io::Stderr,
}

impl Write for AboveProgress {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let inner = &mut self.inner;
        self.bar.suspend(|| inner.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
