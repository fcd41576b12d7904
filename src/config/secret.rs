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
