//! Secrets the daemon holds in memory: mail server passwords and link keys. Each is given in
//! the file (`password = "..."`) or read from another file (`password_file = "..."`), never
//! printed (`Debug` hides them) and never quoted in a configuration error.

use std::fmt;
use std::path::PathBuf;

use super::check::Checker;

/// A password read from the configuration or a file. Never printed: `Debug` shows `***`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// A link's shared secret: bytes, as a key file may hold any. Never printed: `Debug` shows
/// its length only.
#[derive(Clone)]
pub struct LinkSecret(pub Vec<u8>);

impl fmt::Debug for LinkSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LinkSecret({} bytes)", self.0.len())
    }
}

impl Checker {
    /// The secret under `prefix`, given as `name` or read from the file `name_file` (one of
    /// them; neither is reported only if `required`). The file's last line break is not part
    /// of the secret: an editor adds one. Problems never quote the secret.
    pub fn secret(
        &mut self,
        prefix: &str,
        name: &str,
        inline: Option<String>,
        file: Option<PathBuf>,
        required: bool,
    ) -> Option<Vec<u8>> {
        let key = format!("{prefix}.{name}");
        match (inline, file) {
            (Some(_), Some(_)) => {
                self.problem(key, format!("give {name} or {name}_file, not both"));
                None
            }
            (Some(text), None) => Some(text.into_bytes()),
            (None, Some(file)) => {
                let file = self.path(file);
                match std::fs::read(&file) {
                    Ok(mut bytes) => {
                        while bytes.last().is_some_and(|b| matches!(b, b'\n' | b'\r')) {
                            bytes.pop();
                        }
                        Some(bytes)
                    }
                    Err(e) => {
                        self.problem(
                            format!("{key}_file"),
                            format!("cannot read {}: {e}", file.display()),
                        );
                        None
                    }
                }
            }
            (None, None) => {
                if required {
                    self.problem(key, format!("missing: give {name} or {name}_file"));
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    const SECRET: &str = "correct horse battery staple";

    /// One reader for every `X` / `X_file` pair: the mail passwords and the link secret.
    fn read(
        inline: Option<&str>,
        file: Option<&Path>,
        required: bool,
    ) -> (Option<Vec<u8>>, Vec<(String, String)>) {
        let mut c = Checker::new(Path::new("/nonexistent"));
        let secret = c.secret(
            "s",
            "password",
            inline.map(str::to_owned),
            file.map(Path::to_path_buf),
            required,
        );
        let problems = match c.finish(()) {
            Ok(()) => Vec::new(),
            Err(e) => e.problems.into_iter().map(|p| (p.key, p.message)).collect(),
        };
        (secret, problems)
    }

    #[test]
    fn a_secret_is_given_or_read_from_a_file_less_its_last_line_break() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pw");
        std::fs::write(&file, format!("{SECRET} \r\n")).unwrap();
        // Trailing spaces are the secret's; the editor's line break is not.
        assert_eq!(
            read(None, Some(&file), true),
            (Some(format!("{SECRET} ").into_bytes()), vec![])
        );
        assert_eq!(
            read(Some(SECRET), None, true),
            (Some(SECRET.as_bytes().to_vec()), vec![])
        );
        assert_eq!(read(None, None, false), (None, vec![]));
    }

    #[test]
    fn a_secret_given_twice_missing_or_unreadable_is_named_never_quoted() {
        let (_, both) = read(Some(SECRET), Some(Path::new("pw")), false);
        let (_, missing) = read(None, None, true);
        let (_, unreadable) = read(None, Some(Path::new("pw")), true);
        assert_eq!(both[0].0, "s.password");
        assert_eq!(missing[0].0, "s.password");
        assert_eq!(unreadable[0].0, "s.password_file");
        assert!(
            unreadable[0].1.contains("/nonexistent/pw"),
            "{unreadable:?}"
        );
        for (_, message) in both.iter().chain(&missing).chain(&unreadable) {
            assert!(!message.contains("horse"), "{message}");
        }
    }

    #[test]
    fn secrets_never_show_in_debug() {
        assert_eq!(format!("{:?}", Secret(SECRET.to_owned())), "***");
        assert_eq!(
            format!("{:?}", LinkSecret(SECRET.as_bytes().to_vec())),
            "LinkSecret(28 bytes)"
        );
    }
}
