//! A real browser: Debian's chromium, headless, driven through chromedriver over WebDriver
//! (fantoccini); what a page shows, read in one script step; a wait for a page to change.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// chromedriver on a free port; killed when dropped.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    pub fn start() -> Driver {
        for program in [CHROMEDRIVER, CHROMIUM] {
            assert!(
                Path::new(program).exists(),
                "{program} is missing: apt-get install chromium chromium-driver (tests/run does)"
            );
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen");
            std::thread::sleep(Duration::from_millis(100));
        }
        Driver { child, port }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A headless chromium session through `driver`, English, 1100 by 900.
pub async fn browser(driver: &Driver) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_owned(),
        serde_json::json!({
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1100,900", "--lang=en-US"]
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a browser session")
}

/// An attribute, read by a script in one step (the live page swaps its parts in at any
/// moment, so an element found first may be gone when it is read).
pub async fn attr(c: &Client, css: &str, name: &str) -> Option<String> {
    let value = c
        .execute(
            "var e=document.querySelector(arguments[0]);return e?e.getAttribute(arguments[1]):null;",
            vec![css.into(), name.into()],
        )
        .await
        .expect("script");
    value.as_str().map(str::to_owned)
}

/// The move list's texts, read in one step.
pub async fn moves(c: &Client) -> Vec<String> {
    let value = c
        .execute(
            "return Array.from(document.querySelectorAll('#moves .move')).map(function(a){return a.textContent.trim();});",
            vec![],
        )
        .await
        .expect("script");
    serde_json::from_value(value).expect("a list of moves")
}

/// Whether `done` holds within `within`, asked every 100 ms.
pub async fn wait_for(
    c: &Client,
    within: Duration,
    mut done: impl AsyncFnMut(&Client) -> bool,
) -> bool {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if done(c).await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}
