//! The mail player of the power-cut test: Mira plays White in game `e1` against Boris by mail,
//! through the real mail servers of `tests/mail/setup.sh` (Postfix, Dovecot on loopback), with
//! node A reading its mail by IMAP and answering and forwarding by SMTP, its reply spool and
//! inbound mail ids on the disk that is cut. A move is acknowledged when its `accepted` reply
//! (or `handled before`, for a mail read again after a cut) arrives; that move must survive
//! every later cut. Every move of Boris's reaches her, each under one Message-ID however often
//! it is sent (mail is sent again when a cut took the mark that it was sent).

use std::time::{Duration, Instant};

use ccrelay::notation::Iccf;

use crate::support::games::long_game;
use crate::support::mail::{
    DOMAIN, EmailPlayer, MAIL_CA, mails, plain, require_mail_servers, send, unique,
};

pub struct Mailer {
    mira: EmailPlayer,
    relay: String,
    /// The ply of Mira's move mailed and not yet acknowledged.
    pending: Option<usize>,
    /// Plies of `e1` acknowledged to Mira.
    pub acked: usize,
}

impl Mailer {
    pub fn new() -> Mailer {
        require_mail_servers();
        Mailer {
            mira: EmailPlayer::new("mira", "iccf", None),
            relay: unique("relay"),
            pending: None,
            acked: 0,
        }
    }

    /// Node A's `[email]` sections, Mira, and game `e1`.
    pub fn config(&self) -> String {
        let hash = |s: &str| ccrelay::auth::hash_secret_cheap(s).expect("hash");
        let relay = &self.relay;
        format!(
            "[email]\naddress = \"{relay}@{DOMAIN}\"\npoll_interval_secs = 1\nretry_max_secs = 2\n\
             [email.imap]\nserver = \"localhost\"\nport = 993\ntls = \"tls\"\nca_file = {MAIL_CA:?}\nuser = \"{relay}@{DOMAIN}\"\npassword = \"test-pw\"\nidle = true\n\
             [email.smtp]\nserver = \"127.0.0.1\"\nport = 25\ntls = \"starttls\"\nca_file = {MAIL_CA:?}\nuser = \"{relay}@{DOMAIN}\"\npassword = \"test-pw\"\ntimeout_secs = 10\n\
             [[players]]\nid = \"mira\"\nsecret_hash = {:?}\nnotation = \"iccf\"\nreach = \"email\"\n\
             [players.email]\naddress = {:?}\ntoken_hash = {:?}\n\
             [[games]]\nid = \"e1\"\nwhite = \"mira\"\nblack = \"boris\"\n",
            hash("unused-secret"),
            self.mira.address(),
            hash(self.mira.token),
        )
    }

    /// Mira's turn in a round, given the moves of `e1` in the journal: she reads her mail
    /// (acknowledgements), and mails her move when it is her turn and none is on its way.
    pub fn plays(&mut self, in_journal: usize) {
        self.read();
        self.pending = self.pending.filter(|&p| p >= in_journal);
        let line = long_game();
        if in_journal.is_multiple_of(2) && in_journal < line.len() && self.pending.is_none() {
            let relay = format!("{}@{DOMAIN}", self.relay);
            let body = format!(
                "{}. {}",
                in_journal / 2 + 1,
                Iccf::from_move(line[in_journal].1)
            );
            let subject = format!("e1 key:{}", self.mira.token);
            send(
                &relay,
                &plain(&self.mira.address(), &relay, &subject, &body, ""),
            );
            self.pending = Some(in_journal);
        }
    }

    /// Takes the acknowledgement of the pending move from Mira's mail, if it came.
    fn read(&mut self) {
        let Some(ply) = self.pending else { return };
        // The move as the answer names it (the mail's help text names a move too: "12. 7163").
        let said = format!("{}. {}", ply / 2 + 1, Iccf::from_move(long_game()[ply].1));
        let acknowledged = mails(&self.mira.user).iter().any(|m| {
            m.text.contains(&format!("accepted e1 {said}"))
                || (m.text.contains("handled before") && m.text.contains(&format!("> {said}")))
        });
        if acknowledged {
            self.acked = self.acked.max(ply + 1);
            self.pending = None;
        }
    }

    /// At the end (node A running): waits up to a minute for the pending move's answer and
    /// for Boris's `black` moves to reach Mira; each under one Message-ID.
    pub fn settle(&mut self, plies: usize) {
        let deadline = Instant::now() + Duration::from_secs(60);
        let line = long_game();
        loop {
            self.read();
            let all = mails(&self.mira.user);
            let missing: Vec<String> = (1..plies)
                .step_by(2)
                .map(|ply| format!("{}... {}", ply / 2 + 1, Iccf::from_move(line[ply].1)))
                .filter(|n| !all.iter().any(|m| m.subject.contains(n.as_str())))
                .collect();
            if self.pending.is_none() && missing.is_empty() {
                for ply in (1..plies).step_by(2) {
                    let needle = format!("{}... {}", ply / 2 + 1, Iccf::from_move(line[ply].1));
                    let mut ids: Vec<&str> = all
                        .iter()
                        .filter(|m| m.subject.contains(&needle))
                        .map(|m| m.message_id.as_str())
                        .collect();
                    ids.sort_unstable();
                    ids.dedup();
                    assert_eq!(ids.len(), 1, "{needle}: mailed under {ids:?}");
                }
                return;
            }
            assert!(
                Instant::now() < deadline,
                "mail did not settle: pending {:?}, missing {missing:?}",
                self.pending
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }
}
