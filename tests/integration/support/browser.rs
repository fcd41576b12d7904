//! A real browser: Debian's chromium, headless, driven through chromedriver over WebDriver
//! (fantoccini); what a page shows, read in one script step; a wait for a page to change; a
//! field typed into and the viewport sized as the page tests share them.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};

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

/// Runs a script and gives its value as text.
pub async fn text_of(c: &Client, script: &str) -> String {
    let value = c.execute(script, vec![]).await.expect("script");
    value.as_str().unwrap_or_default().to_owned()
}

/// Types `text` into the field `css` (emptied first), found afresh: a live page may put a
/// new copy of its parts in place at any moment, and an element found before is then gone.
pub async fn type_into(c: &Client, css: &str, text: &str) {
    let mut last = None;
    for _ in 0..5 {
        let typed = async {
            let e = c.find(Locator::Css(css)).await?;
            e.clear().await?;
            e.send_keys(text).await
        };
        match typed.await {
            Ok(()) => return,
            Err(e) => last = Some(e),
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("cannot type into {css}: {last:?}");
}

/// Sets the page's viewport to `width` × `height` CSS pixels (the window is sized so that its
/// inside is that).
pub async fn viewport(c: &Client, width: u32, height: u32) {
    let (mut w, mut h) = (width, height);
    for _ in 0..4 {
        c.set_window_size(w, h).await.expect("resize");
        let inner = c
            .execute("return [window.innerWidth, window.innerHeight];", vec![])
            .await
            .expect("script");
        let inner: (u32, u32) = serde_json::from_value(inner).expect("two numbers");
        if inner == (width, height) {
            return;
        }
        w = (w + width).saturating_sub(inner.0);
        h = (h + height).saturating_sub(inner.1);
    }
    panic!("the viewport did not become {width} × {height}");
}
