//! README's five-minute tour, run as written: every command of its code blocks, against the
//! built binary, with real sockets, netcat, curl and a Maildir, so that a README command that
//! stops working fails here.
//!
//! The tour's code blocks say what to do with them by their info string (the words after the
//! opening fence, which a Markdown renderer does not show):
//!
//! - ```` ```sh ````: a script, run to its end with `sh -e` in the tour's folder; it must exit 0.
//! - ```` ```sh NAME ````: one command left running in terminal NAME (the relay, an nc session).
//! - ```` ```text output ````: what the block before printed on standard output, line by line
//!   (blank lines aside). `...` inside a line stands for any text; a line of `...` alone for
//!   any number of lines. After a running command, its first lines.
//! - ```` ```text NAME ````: a session typed in terminal NAME. Lines that start with a reply
//!   code (`250 `, `250-`) or `* ` are the relay's, awaited in order (`...` as above); a reply
//!   other than the one written fails at once, a push not written is passed over. The other
//!   lines are typed.
//!
//! The substitutions, and nothing else:
//!
//! 1. `ccrelay` is the binary this test build made, first on `PATH`; `cargo run --release --`,
//!    should a tour block say it, is replaced by `ccrelay`.
//! 2. The addresses `127.0.0.1:7878` / `127.0.0.1 7878` (TCP) and `127.0.0.1:8080` (HTTP) take
//!    a free port each, so that the test never meets a relay already running on the machine.
//! 3. `port = 25` (the relay's SMTP server) becomes a free port where nothing listens: the
//!    relay's own mails then wait in its outbox, as the tour says they do until a server
//!    answers, and the machine's mail server (the email tests') is left alone.
//! 4. `<NAME's secret>` is the secret printed for NAME earlier in the tour: by `ccrelay init`
//!    (its indented `NAME  SECRET` lines) or by the arbiter's `PLAYER ADD NAME` (the reply's
//!    last word).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use crate::support::port;
use crate::support::process::output_within;

const TOUR: &str = "## A five-minute tour";
/// How long a relay's line or a script may take. Generous for a loaded 2-core machine; the
/// tour itself takes a few seconds (the Maildir is read every 2 s).
const WAIT: Duration = Duration::from_secs(30);

#[derive(Debug)]
enum Step {
    Run(String),
    Start {
        terminal: String,
        command: String,
    },
    Output(Vec<String>),
    Session {
        terminal: String,
        lines: Vec<String>,
    },
}

/// The tour's steps, in README's order.
fn tour(readme: &str) -> Vec<Step> {
    let mut lines = readme
        .lines()
        .skip_while(|l| *l != TOUR)
        .skip(1)
        .take_while(|l| !l.starts_with("## "));
    let mut steps = Vec::new();
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let body: Vec<String> = lines
            .by_ref()
            .take_while(|l| *l != "```")
            .map(str::to_owned)
            .collect();
        let words: Vec<&str> = info.split_whitespace().collect();
        steps.push(match words.as_slice() {
            ["sh"] => Step::Run(body.join("\n") + "\n"),
            ["sh", terminal] => {
                assert_eq!(body.len(), 1, "a terminal runs one command: {body:?}");
                Step::Start {
                    terminal: (*terminal).to_owned(),
                    command: body[0].clone(),
                }
            }
            ["text", "output"] => Step::Output(body),
            ["text", terminal] => Step::Session {
                terminal: (*terminal).to_owned(),
                lines: body,
            },
            _ => panic!("README's tour has a code block this test cannot run: ```{info}"),
        });
    }
    steps
}

/// `pattern` against `line`: equal, or with each `...` standing for any text.
fn matches(pattern: &str, line: &str) -> bool {
    let pieces: Vec<&str> = pattern.split("...").collect();
    let [first, middle @ .., last] = pieces.as_slice() else {
        return pattern == line;
    };
    if !line.starts_with(first) || line.len() < first.len() + last.len() || !line.ends_with(last) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for piece in middle {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    true
}

/// Expected lines against printed ones, blank lines aside; a `...` line takes any number.
fn matches_lines(expected: &[String], printed: &[&str]) -> bool {
    match expected.split_first() {
        None => printed.is_empty(),
        Some((line, rest)) if line == "..." => {
            (0..=printed.len()).any(|skip| matches_lines(rest, &printed[skip..]))
        }
        Some((line, rest)) => {
            printed.first().is_some_and(|p| matches(line, p)) && matches_lines(rest, &printed[1..])
        }
    }
}

fn non_blank(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .cloned()
        .collect()
}

/// A line of the relay's in a session: a reply code or a push.
fn from_relay(line: &str) -> bool {
    let b = line.as_bytes();
    line.starts_with("* ")
        || (b.len() >= 4 && b[..3].iter().all(u8::is_ascii_digit) && matches!(b[3], b' ' | b'-'))
}

/// The substitutions the module header lists.
struct Substitutions {
    addresses: Vec<(&'static str, String)>,
    secrets: HashMap<String, String>,
}

impl Substitutions {
    fn apply(&self, text: &str) -> String {
        let mut text = text.replace("cargo run --release --", "ccrelay");
        for (written, real) in &self.addresses {
            text = text.replace(written, real);
        }
        let mut out = String::new();
        let mut rest = text.as_str();
        while let Some(at) = rest.find('<') {
            out.push_str(&rest[..at]);
            rest = &rest[at..];
            let placeholder = rest
                .find("'s secret>")
                .map(|end| (&rest[1..end], end + "'s secret>".len()))
                .filter(|(name, _)| {
                    !name.is_empty()
                        && name
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                });
            match placeholder {
                Some((name, len)) => {
                    let secret = self.secrets.get(name).unwrap_or_else(|| {
                        panic!("README's tour uses <{name}'s secret> before it is printed")
                    });
                    out.push_str(secret);
                    rest = &rest[len..];
                }
                None => {
                    out.push('<');
                    rest = &rest[1..];
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// Secrets `ccrelay init` printed: the indented lines under "secrets, shown this once".
    fn learn_from_init(&mut self, stdout: &str) {
        let mut lines = stdout
            .lines()
            .skip_while(|l| !l.starts_with("secrets, shown"));
        lines.next();
        for line in lines.take_while(|l| l.starts_with("  ")) {
            if let [name, secret] = line.split_whitespace().collect::<Vec<_>>()[..] {
                self.secrets.insert(name.to_owned(), secret.to_owned());
            }
        }
    }

    /// A secret the arbiter's `PLAYER ADD` printed: `250 player NAME registered ...: SECRET`.
    fn learn_from_reply(&mut self, line: &str) {
        if let Some(rest) = line.strip_prefix("250 player ")
            && line.contains("shown this once")
            && let (Some(name), Some(secret)) = (
                rest.split_whitespace().next(),
                line.split_whitespace().last(),
            )
        {
            self.secrets.insert(name.to_owned(), secret.to_owned());
        }
    }
}

/// A command left running, its standard output read line by line.
struct Terminal {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: PathBuf,
}

impl Terminal {
    fn next_line(&self, deadline: Instant, what: &str) -> String {
        let left = deadline.saturating_duration_since(Instant::now());
        self.lines.recv_timeout(left).unwrap_or_else(|_| {
            panic!(
                "no line from the terminal while waiting for {what:?}; its standard error:\n{}",
                std::fs::read_to_string(&self.stderr).unwrap_or_default()
            )
        })
    }
}

/// Every process the tour started, ended when the test ends, however it ends.
#[derive(Default)]
struct Terminals(HashMap<String, Terminal>);

impl Drop for Terminals {
    fn drop(&mut self) {
        for terminal in self.0.values_mut() {
            let _ = terminal.child.kill();
            let _ = terminal.child.wait();
        }
    }
}

/// `sh -e` on a script, within [`WAIT`]: its status, standard output and standard error.
fn run_script(script: &str, dir: &Path, path: &str) -> (ExitStatus, String, String) {
    let mut sh = Command::new("sh");
    sh.args(["-ec", script]).current_dir(dir).env("PATH", path);
    let out = output_within(sh, WAIT);
    (
        out.status,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_tour_runs_as_written() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let steps = tour(&readme);
    assert!(
        steps.len() >= 10,
        "README's tour ({TOUR}) not found or almost empty: {steps:?}"
    );

    let dir = tempfile::tempdir().expect("tempdir");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_ccrelay"))
        .parent()
        .expect("binary folder");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (tcp, http, smtp) = (port::free(), port::free(), port::free());
    let mut subs = Substitutions {
        addresses: vec![
            ("127.0.0.1:7878", format!("127.0.0.1:{tcp}")),
            ("127.0.0.1 7878", format!("127.0.0.1 {tcp}")),
            ("127.0.0.1:8080", format!("127.0.0.1:{http}")),
            ("port = 25\n", format!("port = {smtp}\n")),
        ],
        secrets: HashMap::new(),
    };
    let tour_text: String = readme.split(TOUR).nth(1).unwrap_or_default().to_owned();
    for (written, _) in &subs.addresses {
        assert!(
            tour_text.contains(written),
            "README's tour no longer says {written:?}: update this test's substitutions"
        );
    }

    let mut terminals = Terminals::default();
    // What the last step printed, for an `output` block after it.
    let mut last_stdout: Option<String> = None;
    let mut last_started: Option<String> = None;
    for step in &steps {
        match step {
            Step::Run(script) => {
                let script = subs.apply(script);
                let (status, stdout, stderr) = run_script(&script, dir.path(), &path);
                assert!(
                    status.success(),
                    "README's tour command failed ({status}):\n{script}\n{stdout}{stderr}"
                );
                subs.learn_from_init(&stdout);
                last_stdout = Some(stdout);
                last_started = None;
            }
            Step::Start { terminal, command } => {
                let command = subs.apply(command);
                let stderr = dir.path().join(format!("{terminal}.stderr"));
                let mut child = Command::new("sh")
                    .args(["-c", &format!("exec {command}")])
                    .current_dir(dir.path())
                    .env("PATH", &path)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(std::fs::File::create(&stderr).expect("stderr file"))
                    .spawn()
                    .unwrap_or_else(|e| panic!("{command}: {e}"));
                let stdout = child.stdout.take().expect("stdout");
                let (send, lines) = mpsc::channel();
                std::thread::spawn(move || {
                    for line in BufReader::new(stdout).lines() {
                        let Ok(line) = line else { break };
                        if send.send(line).is_err() {
                            break;
                        }
                    }
                });
                let stdin = child.stdin.take();
                let old = terminals.0.insert(
                    terminal.clone(),
                    Terminal {
                        child,
                        stdin,
                        lines,
                        stderr,
                    },
                );
                assert!(old.is_none(), "terminal {terminal} started twice");
                last_started = Some(terminal.clone());
                last_stdout = None;
            }
            Step::Output(expected) => {
                let expected: Vec<String> =
                    non_blank(expected).iter().map(|l| subs.apply(l)).collect();
                if let Some(stdout) = last_stdout.take() {
                    let printed: Vec<&str> =
                        stdout.lines().filter(|l| !l.trim().is_empty()).collect();
                    assert!(
                        matches_lines(&expected, &printed),
                        "README shows\n{}\nbut the command printed\n{stdout}",
                        expected.join("\n")
                    );
                } else if let Some(name) = last_started.take() {
                    let terminal = &terminals.0[&name];
                    let deadline = Instant::now() + WAIT;
                    for want in &expected {
                        let got = terminal.next_line(deadline, want);
                        assert!(
                            matches(want, &got),
                            "README shows {want:?}; {name} printed {got:?}"
                        );
                    }
                } else {
                    panic!("an output block after no command: {expected:?}");
                }
            }
            Step::Session {
                terminal: name,
                lines,
            } => {
                let terminal = terminals
                    .0
                    .get_mut(name)
                    .unwrap_or_else(|| panic!("a session in terminal {name} before its command"));
                let deadline = Instant::now() + WAIT;
                for line in non_blank(lines) {
                    let line = subs.apply(&line);
                    if from_relay(&line) {
                        loop {
                            let got = terminal.next_line(deadline, &line);
                            if matches(&line, &got) {
                                subs.learn_from_reply(&got);
                                break;
                            }
                            assert!(
                                got.starts_with("* "),
                                "{name}: README shows {line:?}; the relay answered {got:?}"
                            );
                        }
                    } else {
                        let stdin = terminal.stdin.as_mut().expect("stdin");
                        writeln!(stdin, "{line}").expect("typing into the session");
                    }
                }
                last_stdout = None;
                last_started = None;
            }
        }
    }

    // "Ctrl-C stops the relay": SIGINT to the relay's terminal, a clean exit.
    let relay = terminals
        .0
        .get_mut("relay")
        .expect("the tour starts the relay in a terminal named relay");
    let interrupted = Command::new("kill")
        .args(["-INT", &relay.child.id().to_string()])
        .status()
        .expect("kill -INT");
    assert!(interrupted.success());
    let deadline = Instant::now() + WAIT;
    let status = loop {
        if let Some(status) = relay.child.try_wait().expect("wait") {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the relay did not stop on Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        status.success(),
        "the relay stopped with {status}:\n{}",
        std::fs::read_to_string(&relay.stderr).unwrap_or_default()
    );
}

#[test]
fn the_matching_rules_hold() {
    assert!(matches(
        "250 accepted game1 1. e4 (5254); clock: ...",
        "250 accepted game1 1. e4 (5254); clock: White 0d"
    ));
    assert!(!matches(
        "250 accepted game1 1. e4 (5254); clock: ...",
        "422 no such move"
    ));
    assert!(matches("  admin    ...", "  admin    k7qm-x2fa"));
    assert!(!matches("a...b...c", "abc-b"));
    assert!(matches("a...b...c", "a-b-c"));
    assert!(!matches("ab...ba", "aba"));
    let lines = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches_lines(
        &lines(&["x", "...", "z"]),
        &["x", "y", "y", "z"]
    ));
    assert!(matches_lines(&lines(&["x", "...", "z"]), &["x", "z"]));
    assert!(!matches_lines(&lines(&["x", "z"]), &["x", "y", "z"]));
    assert!(from_relay("250-round 1") && from_relay("* 3 MOVE") && !from_relay("LOGIN a b"));
}
