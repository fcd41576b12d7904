//! APRS messages, as a handheld radio sends and shows them: `:ADDRESSEE:text{ID` (the addressee
//! padded with spaces to nine characters, the text at most 67 characters, an ID of one to five
//! letters or digits), answered `:SENDER   :ackID` for every copy heard (digipeaters repeat
//! frames, and a radio resends until it hears the ack).
//!
//! What players will send the relay and what it answers them: this file reads and writes the
//! messages, cuts an answer into texts a radio can show (67 characters, or 45 for older
//! radios), and makes any text APRS's ASCII (a Russian reader gets Latin letters: Cyrillic is
//! transliterated, a move's piece letters are the English ones).

/// The addressee field's width.
pub const ADDRESSEE_WIDTH: usize = 9;
/// The longest text APRS 1.1 allows in a message.
pub const TEXT_MAX: usize = 67;
/// The longest a message ID may be.
const ID_MAX: usize = 5;

/// A message, an acknowledgement or a rejection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Aprs {
    Message {
        addressee: String,
        text: String,
        /// `None`: the sender wants no acknowledgement.
        id: Option<String>,
    },
    Ack {
        addressee: String,
        id: String,
    },
    Rej {
        addressee: String,
        id: String,
    },
}

/// Why an information field is not an APRS message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AprsError {
    #[error("not an APRS message (no ':' and nine-character addressee)")]
    NotMessage,
    #[error("message text longer than {TEXT_MAX} characters or not ASCII")]
    BadText,
    #[error("message ID not 1 to 5 letters or digits")]
    BadId,
}

impl Aprs {
    /// Reads an information field.
    pub fn parse(info: &[u8]) -> Result<Aprs, AprsError> {
        let rest = info.strip_prefix(b":").ok_or(AprsError::NotMessage)?;
        if rest.len() < ADDRESSEE_WIDTH + 1 || rest[ADDRESSEE_WIDTH] != b':' {
            return Err(AprsError::NotMessage);
        }
        let addressee = std::str::from_utf8(&rest[..ADDRESSEE_WIDTH])
            .map_err(|_| AprsError::NotMessage)?
            .trim_end()
            .to_ascii_uppercase();
        let body =
            std::str::from_utf8(&rest[ADDRESSEE_WIDTH + 1..]).map_err(|_| AprsError::BadText)?;
        let body = body.trim_end_matches(['\r', '\n']);
        for (word, ack) in [("ack", true), ("rej", false)] {
            if let Some(id) = body.strip_prefix(word).filter(|id| valid_id(id)) {
                let (addressee, id) = (addressee, id.to_owned());
                return Ok(if ack {
                    Aprs::Ack { addressee, id }
                } else {
                    Aprs::Rej { addressee, id }
                });
            }
        }
        let (text, id) = match body.rsplit_once('{') {
            // APRS 1.1's reply-ack (`{MM}AA`): the ID is the part before `}`.
            Some((text, id)) => (text, Some(id.split('}').next().unwrap_or(id))),
            None => (body, None),
        };
        if let Some(id) = id
            && !valid_id(id)
        {
            return Err(AprsError::BadId);
        }
        if text.chars().count() > TEXT_MAX || !text.is_ascii() {
            return Err(AprsError::BadText);
        }
        Ok(Aprs::Message {
            addressee,
            text: text.to_owned(),
            id: id.map(str::to_owned),
        })
    }

    /// The information field.
    pub fn encode(&self) -> Vec<u8> {
        let (addressee, body) = match self {
            Aprs::Message {
                addressee,
                text,
                id,
            } => {
                let id = id.as_ref().map_or(String::new(), |id| format!("{{{id}"));
                (addressee, format!("{text}{id}"))
            }
            Aprs::Ack { addressee, id } => (addressee, format!("ack{id}")),
            Aprs::Rej { addressee, id } => (addressee, format!("rej{id}")),
        };
        format!(":{addressee:<ADDRESSEE_WIDTH$}:{body}").into_bytes()
    }
}

fn valid_id(id: &str) -> bool {
    (1..=ID_MAX).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// `text` as APRS carries it: ASCII, Cyrillic transliterated, the characters APRS reserves in
/// a message (`{`, `|`, `~`) and anything else outside printable ASCII replaced.
pub fn ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '{' => out.push('('),
            '}' => out.push(')'),
            '|' | '~' => out.push('-'),
            ' '..='~' => out.push(c),
            '\n' | '\t' => out.push(' '),
            _ => out.push_str(latin(c)),
        }
    }
    out
}

/// A Cyrillic letter in Latin letters (Russian and Ukrainian, after the passport rules), or `?`.
fn latin(c: char) -> &'static str {
    const LOWER: [(char, &str); 37] = [
        ('а', "a"),
        ('б', "b"),
        ('в', "v"),
        ('г', "g"),
        ('д', "d"),
        ('е', "e"),
        ('ё', "e"),
        ('ж', "zh"),
        ('з', "z"),
        ('и', "i"),
        ('й', "i"),
        ('к', "k"),
        ('л', "l"),
        ('м', "m"),
        ('н', "n"),
        ('о', "o"),
        ('п', "p"),
        ('р', "r"),
        ('с', "s"),
        ('т', "t"),
        ('у', "u"),
        ('ф', "f"),
        ('х', "kh"),
        ('ц', "ts"),
        ('ч', "ch"),
        ('ш', "sh"),
        ('щ', "shch"),
        ('ъ', "ie"),
        ('ы', "y"),
        ('ь', ""),
        ('э', "e"),
        ('ю', "iu"),
        ('я', "ia"),
        ('є', "ie"),
        ('і', "i"),
        ('ї', "i"),
        ('ґ', "g"),
    ];
    let lower = c.to_lowercase().next().unwrap_or(c);
    let found = LOWER.iter().find(|(k, _)| *k == lower).map(|(_, v)| *v);
    match found {
        // Upper case: the first letter up (`Ж` → `Zh`), from a table of the same.
        Some(v) if lower != c => UPPER.iter().find(|(k, _)| *k == v).map_or(v, |(_, u)| *u),
        Some(v) => v,
        None => "?",
    }
}

/// The transliterations with their first letter up.
const UPPER: [(&str, &str); 28] = [
    ("a", "A"),
    ("b", "B"),
    ("v", "V"),
    ("g", "G"),
    ("d", "D"),
    ("e", "E"),
    ("zh", "Zh"),
    ("z", "Z"),
    ("i", "I"),
    ("k", "K"),
    ("l", "L"),
    ("m", "M"),
    ("n", "N"),
    ("o", "O"),
    ("p", "P"),
    ("r", "R"),
    ("s", "S"),
    ("t", "T"),
    ("u", "U"),
    ("f", "F"),
    ("kh", "Kh"),
    ("ts", "Ts"),
    ("ch", "Ch"),
    ("sh", "Sh"),
    ("shch", "Shch"),
    ("y", "Y"),
    ("iu", "Iu"),
    ("ia", "Ia"),
];

/// Cuts `text` (made ASCII) into texts of at most `width` characters, at spaces where it can
/// (a word longer than a text is cut), in order: an answer in as few messages as it needs.
pub fn split(text: &str, width: usize) -> Vec<String> {
    let width = width.clamp(1, TEXT_MAX);
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in ascii(text).split_whitespace() {
        let mut word = word;
        while word.len() > width {
            if !line.is_empty() {
                out.push(std::mem::take(&mut line));
            }
            out.push(word[..width].to_owned());
            word = &word[width..];
        }
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn message(addressee: &str, text: &str, id: Option<&str>) -> Aprs {
        Aprs::Message {
            addressee: addressee.to_owned(),
            text: text.to_owned(),
            id: id.map(str::to_owned),
        }
    }

    #[test]
    fn messages_read_as_radios_send_them() {
        let cases: &[(&str, Result<Aprs, AprsError>)] = &[
            (
                ":N0CALL-1 :5254 K7Q2{12",
                Ok(message("N0CALL-1", "5254 K7Q2", Some("12"))),
            ),
            (
                ":n0call-1 :g1 Nf3{A1b2C",
                Ok(message("N0CALL-1", "g1 Nf3", Some("A1b2C"))),
            ),
            (":N0CALL-1 :GAMES", Ok(message("N0CALL-1", "GAMES", None))),
            (
                ":N0CALL-1 :e4{MM}AA\r\n",
                Ok(message("N0CALL-1", "e4", Some("MM"))),
            ),
            (
                ":N0CALL-7 :ack12",
                Ok(Aprs::Ack {
                    addressee: "N0CALL-7".into(),
                    id: "12".into(),
                }),
            ),
            (
                ":N0CALL-7 :rej7",
                Ok(Aprs::Rej {
                    addressee: "N0CALL-7".into(),
                    id: "7".into(),
                }),
            ),
            (":N0CALL-1 :e4{TOOLONG", Err(AprsError::BadId)),
            (":N0CALL-1:e4", Err(AprsError::NotMessage)),
            ("!4903.50N/07201.75W-", Err(AprsError::NotMessage)),
            (":N0CALL-1 :ход e4{1", Err(AprsError::BadText)),
        ];
        for (info, want) in cases {
            assert_eq!(&Aprs::parse(info.as_bytes()), want, "{info}");
        }
    }

    #[test]
    fn what_the_relay_sends_is_padded_and_reads_back() {
        let m = message("N0CALL-7", "MOVE g1 12...Nf6", Some("3"));
        assert_eq!(m.encode(), b":N0CALL-7 :MOVE g1 12...Nf6{3".to_vec());
        assert_eq!(Aprs::parse(&m.encode()), Ok(m));
        let ack = Aprs::Ack {
            addressee: "AB1C".into(),
            id: "A9".into(),
        };
        assert_eq!(ack.encode(), b":AB1C     :ackA9".to_vec());
    }

    #[test]
    fn a_russian_reader_gets_latin_letters() {
        assert_eq!(ascii("Ход Кf3, ничья? {да}"), "Khod Kf3, nichia? (da)");
        assert_eq!(ascii("Щука | Жук ~ ёж"), "Shchuka - Zhuk - ezh");
        assert_eq!(ascii("♞ 王"), "? ?");
    }

    #[test]
    fn answers_are_cut_at_spaces_to_the_radios_width() {
        let text =
            "g1 anna-boris 12...Nf6 your move; g2 vera-anna 3.e4 their move; g3 anna-vera over 1-0";
        let long = split(text, TEXT_MAX);
        assert_eq!(long.len(), 2);
        let short = split(text, 45);
        assert!(short.iter().all(|t| t.len() <= 45));
        assert_eq!(short.join(" "), text);
        assert_eq!(
            split(&"x".repeat(100), 45),
            vec!["x".repeat(45), "x".repeat(45), "x".repeat(10)]
        );
    }

    proptest! {
        #[test]
        fn any_bytes_read_without_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..120)) {
            let _ = Aprs::parse(&bytes);
        }

        #[test]
        fn any_text_splits_into_ascii_texts_that_fit(text in "\\PC{0,300}", width in 1usize..80) {
            for t in split(&text, width) {
                prop_assert!(t.is_ascii() && !t.is_empty() && t.len() <= width.min(TEXT_MAX));
                let reserved = t.contains(['{', '|', '~']);
                prop_assert!(!reserved, "{}", t);
            }
        }

        #[test]
        fn messages_round_trip(text in "[ -z]{0,67}", id in "[A-Za-z0-9]{1,5}") {
            let text = text.replace('{', "(");
            let m = message("N0CALL-7", &text, Some(&id));
            let back = Aprs::parse(&m.encode());
            // A text that reads as an ack or a rejection is not sent as one (answers start
            // with a game or a word of the protocol).
            if !(text.starts_with("ack") || text.starts_with("rej")) {
                prop_assert_eq!(back, Ok(m));
            }
        }
    }
}
