//! A player by APRS message: a handheld (here a test client speaking KISS to its own Direwolf,
//! as a radio's built-in TNC would) plays a game against a player over TCP, through the
//! relay's `[[radio]]` port and its Direwolf, on a channel with noise the test owns
//! (support/radio.rs). Moves in three notations (ICCF, SAN with its number, SAN with the
//! game's short number, LAN), a copy of a message applied once, an answer whose first copy is
//! "not heard" sent again, a wrong code refused and counted, the opponent's moves delivered
//! and acknowledged. The bytes on air per APRS move are printed (docs/performance.md), and the
//! wait per move with the frames it took: `CCRELAY_RADIO_NOISE=N` sets the channel's noise
//! (σ 500 unless said), `CCRELAY_APRS_MOVES=N` plays N plain moves more before the end (none
//! unless said, so the suite's time stays as it is) for a wait's p50 and p99.

use std::collections::HashSet;
use std::net::TcpStream;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ccrelay::transport::radio::aprs::Aprs;
use ccrelay::transport::radio::ax25::{Callsign, PID_NO_L3, UiFrame};
use ccrelay::transport::radio::kiss;

use crate::support::config::{BORIS, players_and_games_toml};
use crate::support::daemon::Daemon;
use crate::support::http::get_with;
use crate::support::line::{Client, push_with};
use crate::support::link::moves_of;
use crate::support::process::ccrelay;
use crate::support::radio::{Channel, Direwolf, require_direwolf};
use crate::support::web::player_cookie;
use std::io::{Read, Write};

const RELAY: &str = "N0CALL-1";
const HANDHELD: &str = "N0CALL-7";
/// How long one message may take to be answered on the noisy channel.
const PATIENCE: Duration = Duration::from_secs(40);

/// The relay's configuration: hal by radio (White), boris over TCP (Black), game m1; the
/// radio port's TNC at KISS port `kiss` on loopback.
fn relay_config(dir: &Path, kiss: u16) -> String {
    relay_config_with(dir, &format!("tnc = \"127.0.0.1:{kiss}\"\n"))
}

/// The same, the radio port's TNC reached by `tnc_keys` (`tnc = ...`, or a serial line's).
fn relay_config_with(dir: &Path, tnc_keys: &str) -> String {
    let hash = ccrelay::auth::hash_secret_cheap("hal-secret").expect("hash");
    format!(
        "data_dir = {:?}\n[tcp]\nlisten = \"127.0.0.1:0\"\n\
         [[players]]\nid = \"hal\"\nsecret_hash = {hash:?}\nnotation = \"san\"\nlang = \"ru\"\n\
         reach = \"radio\"\ncallsign = \"n0call-7\"\n{}\
         [[radio]]\nid = \"vhf\"\n{tnc_keys}callsign = \"{RELAY}\"\n\
         aprs = true\naprs_retry_seconds = 6\n[http]\nlisten = \"127.0.0.1:0\"\n",
        dir.join("data").display().to_string(),
        players_and_games_toml(&[BORIS], &[("m1", "hal", "boris")]),
    )
}

/// A handheld radio's messaging: frames to and from its own TNC over KISS.
struct Handheld {
    kiss: TcpStream,
    heard: mpsc::Receiver<Aprs>,
    /// Messages heard while waiting for an acknowledgement, for [`Handheld::expect`].
    backlog: std::collections::VecDeque<Aprs>,
    /// Frames sent, for the figures.
    sent: usize,
    /// Ids of the messages acknowledged: a copy heard again (its ack lost) is acknowledged
    /// again and not taken for a new message, as a radio shows a message once.
    acked: HashSet<String>,
}

impl Handheld {
    fn connect(port: u16) -> Handheld {
        let kiss = TcpStream::connect(("127.0.0.1", port)).expect("KISS port");
        let mut reading = kiss.try_clone().expect("clone");
        let (tx, heard) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = kiss::Reader::default();
            let mut buf = [0u8; 1024];
            while let Ok(n) = reading.read(&mut buf) {
                if n == 0 {
                    return;
                }
                reader.push(&buf[..n]);
                while let Some(frame) = reader.next_frame() {
                    let Ok(frame) = frame else { continue };
                    let Ok(ui) = UiFrame::decode(&frame.data) else {
                        continue;
                    };
                    if ui.source.to_string() != RELAY || ui.pid != PID_NO_L3 {
                        continue;
                    }
                    match Aprs::parse(&ui.info) {
                        Ok(aprs) => {
                            if tx.send(aprs).is_err() {
                                return;
                            }
                        }
                        Err(e) => eprintln!("not APRS: {e}"),
                    }
                }
            }
        });
        Handheld {
            kiss,
            heard,
            backlog: Default::default(),
            sent: 0,
            acked: HashSet::new(),
        }
    }

    fn transmit(&mut self, aprs: &Aprs) {
        let frame = UiFrame {
            destination: "APK004".parse::<Callsign>().expect("tocall"),
            source: HANDHELD.parse().expect("callsign"),
            path: Vec::new(),
            pid: PID_NO_L3,
            info: aprs.encode(),
        };
        let bytes = kiss::encode(0, kiss::Command::Data, &frame.encode().expect("frame"));
        self.kiss.write_all(&bytes).expect("to the TNC");
        self.sent += 1;
    }

    fn ack(&mut self, id: &str) {
        self.transmit(&Aprs::Ack {
            addressee: RELAY.into(),
            id: id.into(),
        });
    }

    /// Sends `text` with message id `id`, again every 10 s as a radio does, until the relay
    /// acknowledges it.
    fn send(&mut self, text: &str, id: &str) {
        let message = Aprs::Message {
            addressee: RELAY.into(),
            text: text.into(),
            id: Some(id.into()),
        };
        let deadline = Instant::now() + PATIENCE;
        'resend: loop {
            self.transmit(&message);
            let again = Instant::now() + Duration::from_secs(10);
            while Instant::now() < again {
                assert!(Instant::now() < deadline, "{text:?} never acknowledged");
                match self.heard.recv_timeout(Duration::from_millis(200)) {
                    Ok(Aprs::Ack {
                        addressee,
                        id: acked,
                    }) if addressee == HANDHELD && acked == id => {
                        break 'resend;
                    }
                    // An answer or a move before the ack: kept for `expect`.
                    Ok(message @ Aprs::Message { .. }) => self.backlog.push_back(message),
                    Ok(_) | Err(_) => {}
                }
            }
        }
    }

    /// Acknowledges every message heard for `wait`.
    fn ack_heard(&mut self, wait: Duration) {
        let until = Instant::now() + wait;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            let heard = self
                .backlog
                .pop_front()
                .or_else(|| self.heard.recv_timeout(left).ok());
            if let Some(Aprs::Message { id: Some(id), .. }) = heard {
                self.ack(&id);
            }
        }
    }

    /// Waits for a message to the handheld whose text holds `needle` (acknowledging every
    /// message heard, unless `ignore_first` and it is the first copy of the one wanted), and
    /// returns its text and id.
    fn expect(&mut self, needle: &str, ignore_first: bool) -> (String, String) {
        let deadline = Instant::now() + PATIENCE;
        let mut ignored: Option<String> = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "no message with {needle:?}");
            let Some(aprs) = self
                .backlog
                .pop_front()
                .or_else(|| self.heard.recv_timeout(left).ok())
            else {
                continue;
            };
            let Aprs::Message {
                addressee,
                text,
                id: Some(id),
            } = aprs
            else {
                continue;
            };
            assert_eq!(addressee, HANDHELD);
            assert!(text.len() <= 67 && text.is_ascii(), "{text:?}");
            if self.acked.contains(&id) {
                self.ack(&id);
                continue;
            }
            if text.contains(needle) && ignore_first && ignored.is_none() {
                eprintln!("handheld: first copy of {id} not acknowledged: {text}");
                ignored = Some(id);
                continue;
            }
            self.ack(&id);
            self.acked.insert(id.clone());
            if text.contains(needle) {
                if let Some(first) = &ignored {
                    assert_eq!(&id, first, "the same message again, with its id");
                }
                return (text, id);
            }
            eprintln!("handheld: also heard {id}: {text}");
        }
    }
}

/// hal's card, as `ccrelay radio card` prints it.
fn card(config: &Path) -> Vec<String> {
    card_with(config, &[])
}

/// hal's card, as `ccrelay radio card` prints it with `args` (`--next`: his next card).
fn card_with(config: &Path, args: &[&str]) -> Vec<String> {
    let out = ccrelay()
        .args(["radio", "card", "hal"])
        .args(args)
        .arg("--config")
        .arg(config)
        .output()
        .expect("ccrelay radio card");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let codes: Vec<String> = text
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .flat_map(|l| {
            l.split_whitespace()
                .skip(1)
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(codes.len(), 100, "{text}");
    codes
}

/// The channel's noise, σ in sample units (`CCRELAY_RADIO_NOISE`; a transmission reaches the
/// receiver at about 2800 RMS): 500, about +15 dB, unless said.
fn noise() -> u32 {
    std::env::var("CCRELAY_RADIO_NOISE")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(500)
}

/// Plain moves played after the test's own, for the wait's figures (`CCRELAY_APRS_MOVES`):
/// none unless said.
fn extra_moves() -> usize {
    std::env::var("CCRELAY_APRS_MOVES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The median and the 99th percentile (nearest rank).
fn p50_p99(waits: &mut [Duration]) -> (Duration, Duration) {
    waits.sort();
    let at = |q: f64| waits[((waits.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.99))
}

/// Frames both TNCs have sent so far.
fn frames_sent(tnc: &[Direwolf; 2]) -> usize {
    tnc.iter().map(|t| t.frames().0).sum()
}

/// The extra moves' plies after 4. Ng5, in ICCF: White's knight b1-c3 and back, Black's rook
/// h8-g8 and back (no claim is made, so the repetitions end nothing).
fn shuffle(k: usize) -> (&'static str, &'static str, &'static str) {
    // (Black's move in SAN, in ICCF; White's answer in ICCF)
    if k.is_multiple_of(2) {
        ("Rg8", "8878", "2133")
    } else {
        ("Rh8", "7888", "3321")
    }
}

#[test]
fn a_game_by_aprs_message_against_a_player_over_tcp() {
    require_direwolf();
    let extra = extra_moves();
    assert!(
        extra <= 90,
        "the card has 100 codes: at most 90 extra moves"
    );
    let channel = Channel::start(noise());
    let root = tempfile::tempdir().expect("tempdir");
    let tnc = [0, 1].map(|i| {
        Direwolf::start(
            &root.path().join(format!("tnc{i}")),
            &channel,
            i,
            [RELAY, HANDHELD][i],
        )
    });
    let config = root.path().join("ccrelay.toml");
    std::fs::write(&config, relay_config(root.path(), tnc[0].kiss)).expect("config");
    // The handheld listens before the relay tells it its game has started.
    let mut hal = Handheld::connect(tnc[1].kiss);
    let daemon = Daemon::start(&config);
    let codes = card(&config);
    let mut boris: Client = daemon.login(&BORIS);
    let started = Instant::now();

    // 1. e4 in ICCF numeric; the answer says the move in hal's notation.
    hal.send(&format!("5254 {}", codes[0]), "1");
    hal.expect("5254", false);
    // A copy (a digipeater's, or a resend whose ack was lost) is acknowledged, not applied.
    hal.send(&format!("5254 {}", codes[0]), "1");
    push_with(&mut boris, "MOVE m1");
    let (code, text) = boris.call("MOVE m1 1... e5");
    assert_eq!(code, 250, "{text}");
    hal.expect("5755", false);

    // 2. Nf3 with its number: this exchange alone (the move, its answer, the opponent's move,
    // each acknowledged) is what one move costs on air. A plain move's wait is from the
    // handheld's first transmission to the relay's answer, heard and acknowledged.
    let mut waits_from = Vec::new();
    let mut waits_to = Vec::new();
    let before = channel.air_seconds();
    let frames_before = frames_sent(&tnc);
    let sent = Instant::now();
    hal.send(&format!("2 Nf3 {}", codes[1]), "2");
    hal.expect("7163", false);
    waits_from.push(sent.elapsed());
    push_with(&mut boris, "MOVE m1");
    let sent = Instant::now();
    let (code, text) = boris.call("MOVE m1 2... Nc6");
    assert_eq!(code, 250, "{text}");
    hal.expect("2836", false);
    waits_to.push(sent.elapsed());
    std::thread::sleep(Duration::from_secs(2));
    let after = channel.air_seconds();
    let frames_one_move = frames_sent(&tnc) - frames_before;
    let one_move = [0, 1].map(|i| (after[i] - before[i]) * 150.0);

    // A wrong code: refused with a reason, nothing played.
    hal.send("g1 Bc4 ZZZZZ", "3");
    let (refusal, _) = hal.expect("nothing done", false);
    assert!(refusal.contains("ZZZZZ"), "{refusal}");

    // 3. Bc4 with the game's short number; the first copy of the answer is "not heard".
    hal.send(&format!("g1 Bc4 {}", codes[2]), "4");
    hal.expect("6134", true);
    push_with(&mut boris, "MOVE m1");
    let (code, text) = boris.call("MOVE m1 3... Nf6");
    assert_eq!(code, 250, "{text}");
    hal.expect("7866", false);

    // 4. In long algebraic, a code further down the card (any of the ten lowest unused).
    let sent = Instant::now();
    hal.send(&format!("Nf3-g5 {}", codes[5]), "5");
    hal.expect("6375", false);
    waits_from.push(sent.elapsed());
    push_with(&mut boris, "MOVE m1");

    // Plain moves for the figures, if asked for: the opponent's, then hal's, by codes in order
    // (3, 4, 6, 7, ... of the card's numbers from 0).
    let mut want_extra = Vec::new();
    let unused = (3..codes.len()).filter(|&i| i != 5);
    let frames_before = frames_sent(&tnc);
    for (k, code_at) in unused.take(extra).enumerate() {
        let (black_san, black_iccf, white_iccf) = shuffle(k);
        let number = 5 + k;
        let sent = Instant::now();
        let (code, text) = boris.call(&format!("MOVE m1 {}... {black_san}", number - 1));
        assert_eq!(code, 250, "{text}");
        hal.expect(&format!("({black_iccf})"), false);
        waits_to.push(sent.elapsed());
        let sent = Instant::now();
        hal.send(
            &format!("{number} {white_iccf} {}", codes[code_at]),
            &format!("x{k}"),
        );
        hal.expect(&format!("({white_iccf})"), false);
        waits_from.push(sent.elapsed());
        push_with(&mut boris, "MOVE m1");
        want_extra.push(("boris", black_iccf));
        want_extra.push(("hal", white_iccf));
    }
    let frames_extra = frames_sent(&tnc) - frames_before;
    let (code, text) = boris.call("RESIGN m1");
    assert_eq!(code, 250, "{text}");
    hal.expect("RESIGN", false);
    let elapsed = started.elapsed();

    let want: Vec<(String, String)> = [
        ("hal", "5254"),
        ("boris", "5755"),
        ("hal", "7163"),
        ("boris", "2836"),
        ("hal", "6134"),
        ("boris", "7866"),
        ("hal", "6375"),
    ]
    .iter()
    .chain(&want_extra)
    .map(|(p, m)| ((*p).to_owned(), (*m).to_owned()))
    .collect();
    drop(boris);
    // Everything told to hal was acknowledged: nothing waits in the station's store.
    let deadline = Instant::now() + Duration::from_secs(20);
    let store = root.path().join("data").join("aprs-vhf.log");
    loop {
        let text = std::fs::read_to_string(&store).expect("the store");
        let sent = text.lines().filter(|l| l.starts_with("S\t")).count();
        let acked = text.lines().filter(|l| l.starts_with("A\t")).count();
        if sent == acked {
            break;
        }
        // A last ack lost to a collision: the relay sends again, and the handheld answers.
        hal.ack_heard(Duration::from_millis(200));
        assert!(
            Instant::now() < deadline,
            "{sent} sent, {acked} acknowledged:\n{text}"
        );
    }
    let air = channel.air_seconds();
    // hal's page says how he is reached and which code comes next.
    let http = daemon.http.expect("[http]");
    let cookie = player_cookie(http, "hal", "hal-secret").expect("hal logs in");
    let page = get_with(http, "/play", &format!("Cookie: {cookie}\r\n"));
    let body = page.body.replace(['\u{2068}', '\u{2069}'], "");
    assert!(body.contains("N0CALL-7") && body.contains("APRS"), "{body}");
    // Codes 1, 2, 3 and 6 are used, then 4, 5, 7, 8, ... by the extra moves.
    let next = match extra {
        0 => 4,
        1 => 5,
        n => n + 5,
    };
    assert!(
        body.contains(&format!(" {next} (")),
        "the next code is number {next}: {body}"
    );
    drop(daemon);
    assert_eq!(moves_of(&config, "m1"), want, "each move once");
    eprintln!(
        "aprs: {} moves by APRS message in {elapsed:.1?} (with a copy, a wrong code and a lost ack); \
         on air: handheld {:.1} s, relay {:.1} s; {:.0} bytes on air a move at 1200 baud \
         (preambles included), {} frames from the handheld; one plain move and the opponent's \
         answer, each acknowledged: {:.0} bytes from the handheld, {:.0} from the relay",
        4 + extra,
        air[1],
        air[0],
        (air[0] + air[1]) * 150.0 / (4 + extra) as f64,
        hal.sent,
        one_move[1],
        one_move[0],
    );
    let plain = waits_from.len();
    let (from50, from99) = p50_p99(&mut waits_from);
    let (to50, to99) = p50_p99(&mut waits_to);
    eprintln!(
        "aprs, noise {}: {plain} plain moves from the handheld (2., 4. and {extra} more): from its \
         first transmission to the relay's answer heard, p50 {from50:.1?} p99 {from99:.1?}; {} \
         opponent's moves to the handheld, from the MOVE over TCP to the handheld hearing it, \
         p50 {to50:.1?} p99 {to99:.1?}; frames on air (both stations) for move 2 and its \
         answer, each acknowledged: {frames_one_move}{}",
        noise(),
        waits_to.len(),
        if extra == 0 {
            String::new()
        } else {
            format!(
                "; for the {extra} more, {:.1} frames a move and its answer",
                frames_extra as f64 / extra as f64
            )
        },
    );
}

/// The relay's TNC reached as a hardware TNC is, over a serial line: Direwolf's KISS on a
/// pseudo-terminal (`direwolf -p`), opened by the port as `device`, at 9600 baud 8N1 as a
/// TNC's serial port is usually set. A move crosses the air both ways through it; then the
/// player's next card (`ccrelay radio card --next`, for a lost one) is made while the daemon
/// runs, and the old card's codes are refused.
#[test]
fn moves_by_aprs_message_through_a_serial_tnc_and_a_lost_card_replaced() {
    require_direwolf();
    let channel = Channel::start(500);
    let root = tempfile::tempdir().expect("tempdir");
    let relay_tnc = Direwolf::start_with_pty(&root.path().join("tnc0"), &channel, 0, RELAY);
    let handheld_tnc = Direwolf::start(&root.path().join("tnc1"), &channel, 1, HANDHELD);
    let pty = relay_tnc.pty();
    let config = root.path().join("ccrelay.toml");
    let serial = format!("device = {:?}\nbaud = 9600\n", pty.display().to_string());
    std::fs::write(&config, relay_config_with(root.path(), &serial)).expect("config");
    let mut hal = Handheld::connect(handheld_tnc.kiss);
    let daemon = Daemon::start(&config);
    let codes = card(&config);
    let mut boris: Client = daemon.login(&BORIS);

    hal.send(&format!("5254 {}", codes[0]), "1");
    hal.expect("5254", false);
    push_with(&mut boris, "MOVE m1");
    let (code, text) = boris.call("MOVE m1 1... e5");
    assert_eq!(code, 250, "{text}");
    hal.expect("5755", false);

    // hal lost his card: the next one is made while the daemon runs, and the old one's codes
    // are refused from then on.
    let next = card_with(&config, &["--next"]);
    assert!(next.iter().all(|code| !codes.contains(code)), "a new card");
    hal.send(&format!("2 Nf3 {}", codes[1]), "2");
    let (refusal, _) = hal.expect("nothing done", false);
    assert!(refusal.contains(&codes[1]), "{refusal}");
    hal.send(&format!("2 Nf3 {}", next[0]), "3");
    hal.expect("7163", false);
    drop(boris);
    drop(daemon);
    assert_eq!(
        moves_of(&config, "m1"),
        [("hal", "5254"), ("boris", "5755"), ("hal", "7163")]
            .map(|(p, m)| (p.to_owned(), m.to_owned())),
    );
    // What the relay sent went through the pseudo-terminal: its Direwolf put it on air.
    let (sent, _) = relay_tnc.frames();
    assert!(sent >= 3, "acks, answers and a move sent: {sent} frames");
}
