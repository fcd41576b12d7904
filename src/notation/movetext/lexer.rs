//! The movetext lexer: a byte stream cut into tokens (words, tags, comments, variations,
//! NAGs, blank lines) through a fixed buffer, so memory does not grow with the input.

use std::io::{self, Read};

use super::{
    BUFFER_BYTES, MAX_COMMENT_KEPT, MAX_TAG_NAME_BYTES, MAX_TAG_VALUE_BYTES, MAX_WORD_BYTES,
};

/// What the lexer hands the game reader.
pub(crate) enum Token<'a> {
    Word(&'a [u8]),
    WordTooLong,
    Tag(String, String),
    BadTag,
    /// A comment's first bytes.
    Comment(&'a [u8]),
    /// A `{` comment the input ends inside.
    UnterminatedComment,
    VariationOpen,
    VariationClose,
    DrawOffer,
    Nag,
    BlankLine,
    Eof,
}

/// Cuts a byte stream into tokens through a fixed buffer. "Need more bytes" (refill) is kept
/// apart from "bad bytes" (which are just words that will not read as moves).
pub(crate) struct Lexer<R> {
    src: R,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    eof: bool,
    pub(crate) line: u64,
    at_line_start: bool,
    started: bool,
    comment: [u8; MAX_COMMENT_KEPT],
    pending_tag: Option<(String, String)>,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

fn is_delimiter(b: u8) -> bool {
    is_space(b) || matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'$')
}

impl<R: Read> Lexer<R> {
    pub(crate) fn new(src: R) -> Lexer<R> {
        Lexer {
            src,
            buf: vec![0; BUFFER_BYTES].into_boxed_slice(),
            pos: 0,
            end: 0,
            eof: false,
            line: 1,
            at_line_start: true,
            started: false,
            comment: [0; MAX_COMMENT_KEPT],
            pending_tag: None,
        }
    }

    pub(crate) fn push_back_tag(&mut self, name: String, value: String) {
        self.pending_tag = Some((name, value));
    }

    /// The next token and the line it starts on.
    pub(crate) fn next(&mut self) -> io::Result<(Token<'_>, u64)> {
        if let Some((name, value)) = self.pending_tag.take() {
            return Ok((Token::Tag(name, value), self.line));
        }
        if self.skip_space()? {
            return Ok((Token::BlankLine, self.line));
        }
        let line = self.line;
        Ok((self.next_token()?, line))
    }

    /// Makes at least `n` bytes available from `pos`, unless the input ends first.
    fn fill(&mut self, n: usize) -> io::Result<bool> {
        while self.end - self.pos < n {
            if self.eof {
                return Ok(false);
            }
            if self.pos > 0 {
                self.buf.copy_within(self.pos..self.end, 0);
                self.end -= self.pos;
                self.pos = 0;
            }
            match self.src.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(read) => self.end += read,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(true)
    }

    fn peek(&mut self, k: usize) -> io::Result<Option<u8>> {
        Ok(if self.fill(k + 1)? {
            Some(self.buf[self.pos + k])
        } else {
            None
        })
    }

    fn bump(&mut self) {
        if self.buf[self.pos] == b'\n' {
            self.line += 1;
            self.at_line_start = true;
        } else {
            self.at_line_start = false;
        }
        self.pos += 1;
    }

    /// The length of the space character at offset `k`, or 0. Besides ASCII spaces, the Unicode
    /// spaces word processors put in movetext count (no-break, narrow no-break, thin, en, em,
    /// ideographic), and so does a byte-order mark, which `cat a.pgn b.pgn` leaves mid-stream.
    fn space_len_at(&mut self, k: usize) -> io::Result<usize> {
        let Some(b0) = self.peek(k)? else {
            return Ok(0);
        };
        if is_space(b0) {
            return Ok(1);
        }
        if !matches!(b0, 0xc2 | 0xe2 | 0xe3 | 0xef) {
            return Ok(0);
        }
        let b1 = self.peek(k + 1)?;
        if b0 == 0xc2 {
            return Ok(if b1 == Some(0xa0) { 2 } else { 0 });
        }
        let b2 = self.peek(k + 2)?;
        let space = matches!(
            (b0, b1, b2),
            (0xe2, Some(0x80), Some(0x80..=0x8b | 0xaf))
                | (0xe2, Some(0x81), Some(0x9f))
                | (0xe3, Some(0x80), Some(0x80))
                | (0xef, Some(0xbb), Some(0xbf))
        );
        Ok(if space { 3 } else { 0 })
    }

    fn space_len(&mut self) -> io::Result<usize> {
        self.space_len_at(0)
    }

    /// Skips spaces and `%` escape lines; true if they held a blank line.
    fn skip_space(&mut self) -> io::Result<bool> {
        if !self.started {
            self.started = true;
            if self.fill(3)? && self.buf[self.pos..self.pos + 3] == [0xef, 0xbb, 0xbf] {
                self.pos += 3;
            }
        }
        let mut newlines = 0;
        loop {
            let n = self.space_len()?;
            if n > 0 {
                for _ in 0..n {
                    if self.buf[self.pos] == b'\n' {
                        newlines += 1;
                    }
                    self.bump();
                }
                continue;
            }
            // `%` at the start of a line escapes the line (PGN 6).
            if self.at_line_start && self.peek(0)? == Some(b'%') {
                self.skip_line()?;
                continue;
            }
            return Ok(newlines >= 2);
        }
    }

    /// The next token, with spaces already skipped.
    fn next_token(&mut self) -> io::Result<Token<'_>> {
        let Some(b) = self.peek(0)? else {
            return Ok(Token::Eof);
        };
        match b {
            b';' => {
                self.skip_line()?;
                Ok(Token::Comment(&[]))
            }
            b'{' => {
                self.bump();
                let mut kept = 0;
                loop {
                    let Some(c) = self.peek(0)? else {
                        return Ok(Token::UnterminatedComment);
                    };
                    self.bump();
                    if c == b'}' {
                        break;
                    }
                    if kept < MAX_COMMENT_KEPT {
                        self.comment[kept] = c;
                        kept += 1;
                    }
                }
                Ok(Token::Comment(&self.comment[..kept]))
            }
            b'(' => {
                if self.peek(1)? == Some(b'=') && self.peek(2)? == Some(b')') {
                    self.pos += 3;
                    return Ok(Token::DrawOffer);
                }
                self.bump();
                Ok(Token::VariationOpen)
            }
            b')' => {
                self.bump();
                Ok(Token::VariationClose)
            }
            b'}' => {
                self.bump();
                Ok(Token::Word(b"}"))
            }
            b']' => {
                self.bump();
                Ok(Token::Word(b"]"))
            }
            b'$' => {
                self.bump();
                while let Some(c) = self.peek(0)? {
                    if !c.is_ascii_digit() {
                        break;
                    }
                    self.bump();
                }
                Ok(Token::Nag)
            }
            b'[' => self.tag(),
            _ => self.word(),
        }
    }

    fn skip_line(&mut self) -> io::Result<()> {
        while let Some(c) = self.peek(0)? {
            if c == b'\n' {
                break;
            }
            self.bump();
        }
        Ok(())
    }

    fn word(&mut self) -> io::Result<Token<'_>> {
        let mut len = 0;
        while let Some(b) = self.peek(len)? {
            if is_delimiter(b) || (b >= 0xc2 && self.space_len_at(len)? > 0) {
                break;
            }
            len += 1;
            if len > MAX_WORD_BYTES {
                while let Some(b) = self.peek(0)? {
                    if is_delimiter(b) {
                        break;
                    }
                    self.bump();
                }
                return Ok(Token::WordTooLong);
            }
        }
        let start = self.pos;
        self.pos += len;
        self.at_line_start = false;
        Ok(Token::Word(&self.buf[start..start + len]))
    }

    /// `[Name "value"]`, with `\"` and `\\` escapes. A malformed tag skips its line.
    fn tag(&mut self) -> io::Result<Token<'_>> {
        self.bump();
        let mut name = Vec::new();
        while let Some(c) = self.peek(0)? {
            if c.is_ascii_alphanumeric() || c == b'_' {
                if name.len() >= MAX_TAG_NAME_BYTES {
                    break;
                }
                name.push(c);
                self.bump();
            } else {
                break;
            }
        }
        while matches!(self.peek(0)?, Some(b' ' | b'\t')) {
            self.bump();
        }
        if name.is_empty() || self.peek(0)? != Some(b'"') {
            self.skip_line()?;
            return Ok(Token::BadTag);
        }
        self.bump();
        let mut value = Vec::new();
        loop {
            match self.peek(0)? {
                None | Some(b'\n') => return Ok(Token::BadTag),
                Some(b'"') => {
                    self.bump();
                    break;
                }
                Some(b'\\') => {
                    self.bump();
                    if let Some(c) = self.peek(0)?
                        && c != b'\n'
                    {
                        self.bump();
                        if value.len() < MAX_TAG_VALUE_BYTES {
                            value.push(c);
                        }
                    }
                }
                Some(c) => {
                    self.bump();
                    if value.len() < MAX_TAG_VALUE_BYTES {
                        value.push(c);
                    }
                }
            }
        }
        while matches!(self.peek(0)?, Some(b' ' | b'\t')) {
            self.bump();
        }
        if self.peek(0)? == Some(b']') {
            self.bump();
        } else {
            self.skip_line()?;
            return Ok(Token::BadTag);
        }
        Ok(Token::Tag(
            String::from_utf8_lossy(&name).into_owned(),
            String::from_utf8_lossy(&value).into_owned(),
        ))
    }
}
