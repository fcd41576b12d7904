//! Helpers shared by the test modules.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use ccrelay::convert::{Format, Options, convert};
use ccrelay::notation::Lang;
use ccrelay::notation::movetext::Totals;

/// What one conversion printed.
pub struct Converted {
    pub out: String,
    pub err: String,
    pub totals: Totals,
}

/// Converts `input` in memory through the library.
pub fn convert_text(input: &str, to: Format, lang: Option<Lang>, fen: Option<&str>) -> Converted {
    let options = Options {
        to,
        lang,
        start: fen.map(|f| f.parse().expect("test FEN")),
    };
    let mut out = Vec::new();
    let mut err = Vec::new();
    let totals = convert(input.as_bytes(), &mut out, &mut err, &options).expect("in-memory I/O");
    Converted {
        out: String::from_utf8(out).expect("UTF-8 output"),
        err: String::from_utf8(err).expect("UTF-8 errors"),
        totals,
    }
}

pub fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(path)
}

pub fn read_fixture(path: &str) -> String {
    std::fs::read_to_string(fixture(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The built `ccrelay` binary.
pub fn ccrelay() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ccrelay"))
}

/// Runs `command` to its end, its output read as it comes; panics if it is still running
/// after `within` (killed first), so a test of something that must stop never hangs.
pub fn output_within(mut command: Command, within: Duration) -> Output {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the command");
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = read(Box::new(child.stdout.take().expect("stdout")));
    let stderr = read(Box::new(child.stderr.take().expect("stderr")));
    let deadline = Instant::now() + within;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} still running after {within:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().expect("stdout"),
        stderr: stderr.join().expect("stderr"),
    }
}

/// The moves of numbered movetext, without numbers, results and draw offers:
/// `1. 5254 5755` -> `5254 5755`.
pub fn moves_only(text: &str) -> Vec<String> {
    text.split_whitespace()
        .filter(|t| !t.ends_with('.') && !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*" | "(=)"))
        .map(str::to_owned)
        .collect()
}

/// The CA certificate the test mail servers' certificates are signed by.
pub const MAIL_CA: &str = "/etc/ccrelay-test/ca.pem";

/// Fails, never skips, when the mail servers of `tests/mail/setup.sh` are not running: with
/// one line naming the command that starts them, not a screen of connection errors.
pub fn require_mail_servers() {
    require_listening(&[25, 993]);
    if !std::path::Path::new(MAIL_CA).exists() {
        panic!("{MAIL_CA} missing: run `sudo tests/mail/setup.sh` (or tests/run)");
    }
}

/// Panics with the set-up command unless something listens on each loopback port.
fn require_listening(ports: &[u16]) {
    let listening = |port: u16| {
        std::net::TcpStream::connect_timeout(
            &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
            std::time::Duration::from_secs(2),
        )
        .is_ok()
    };
    let missing: Vec<String> = ports
        .iter()
        .filter(|p| !listening(**p))
        .map(|p| format!("127.0.0.1:{p}"))
        .collect();
    if !missing.is_empty() {
        panic!(
            "mail servers not running (nothing on {}): run `sudo tests/mail/setup.sh` (or tests/run)",
            missing.join(", ")
        );
    }
}

#[test]
#[should_panic(
    expected = "mail servers not running (nothing on 127.0.0.1:1): run `sudo tests/mail/setup.sh` (or tests/run)"
)]
fn without_mail_servers_an_email_test_fails_with_one_line_naming_the_command() {
    // Port 1 (tcpmux) has no listener on a test machine: as 25 and 993 without the servers.
    require_listening(&[1]);
}

/// A TLS client configuration that trusts one certificate (a test's own, made with rcgen).
pub fn tls_client_trusting(cert_der: &[u8]) -> rustls::ClientConfig {
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(rustls::pki_types::CertificateDer::from(cert_der.to_vec()))
        .expect("root");
    rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("versions")
    .with_root_certificates(roots)
    .with_no_client_auth()
}

/// A man in the middle of two linked nodes: two loopback ports, one for each node to connect
/// to; each pair of connections accepted (the n-th on both ports) is joined by `pump`, called
/// once a direction with `2n` (first port to second) and `2n + 1` (back), until either
/// direction ends and both connections close. Returns the ports and the runtime serving them:
/// dropping it closes everything.
pub fn middle<P, F>(pump: P) -> ((u16, u16), tokio::runtime::Runtime)
where
    P: Fn(tokio::net::tcp::OwnedReadHalf, tokio::net::tcp::OwnedWriteHalf, u64) -> F
        + Send
        + 'static,
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let (la, lb) = runtime.block_on(async {
        (
            tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
            tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
        )
    });
    let ports = (
        la.local_addr().unwrap().port(),
        lb.local_addr().unwrap().port(),
    );
    runtime.spawn(async move {
        let mut round = 0u64;
        loop {
            let (Ok((a, _)), Ok((b, _))) = tokio::join!(la.accept(), lb.accept()) else {
                return;
            };
            round += 1;
            let (ar, aw) = a.into_split();
            let (br, bw) = b.into_split();
            let one = pump(ar, bw, round * 2);
            let two = pump(br, aw, round * 2 + 1);
            // When either direction ends, both connections close with this scope.
            tokio::select! {
                () = one => {}
                () = two => {}
            }
        }
    });
    (ports, runtime)
}
