//! `ccrelay init DIR`: a working configuration for a new club in one command, so nobody has
//! to pipe secrets through `hash-secret` by hand to start.
//!
//! Writes `DIR/ccrelay.toml` (TCP on loopback, the journal in `DIR/data`, an administrator,
//! two players and a game between them) and makes the data directory. The secrets are drawn
//! from the operating system's random source, returned once for the caller to print, and
//! stored only as Argon2id hashes. An existing configuration is never overwritten.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::config::Config;

/// What `init` made.
#[derive(Debug)]
pub struct Club {
    /// The configuration file written.
    pub config: PathBuf,
    /// The journal's folder.
    pub data_dir: PathBuf,
    /// `(login, secret)`: the administrator first, then the players. Shown once; only the
    /// hashes are kept.
    pub secrets: Vec<(String, String)>,
    /// The game waiting for the players: `(id, white, black)`.
    pub game: (String, String, String),
    /// The address the daemon will listen on.
    pub listen: String,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InitError {
    #[error(
        "{0} exists already; init never overwrites a configuration (its secrets would be lost)"
    )]
    Exists(PathBuf),
    #[error("{what} {path}: {source}")]
    Io {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("no random source: {0}")]
    Random(String),
    #[error("hashing a secret: {0}")]
    Hash(String),
    #[error("the configuration written does not load (a bug): {0}")]
    Invalid(String),
}

/// The players a new club starts with, and the notation each reads.
const PLAYERS: [(&str, &str); 2] = [("player1", "san"), ("player2", "san")];
const GAME: &str = "game1";

impl Club {
    /// A netcat command line that reaches the daemon as written: netcat takes the host and
    /// the port as two words (`nc 127.0.0.1 7878`), an IPv6 host bare (`nc ::1 7878`), and
    /// cannot reach a wildcard address, so `0.0.0.0` and `::` become loopback.
    pub fn netcat(&self) -> String {
        match self.listen.parse::<std::net::SocketAddr>() {
            Ok(addr) => {
                let ip = match addr.ip() {
                    ip if ip.is_unspecified() && ip.is_ipv4() => "127.0.0.1".to_owned(),
                    ip if ip.is_unspecified() => "::1".to_owned(),
                    ip => ip.to_string(),
                };
                format!("nc {ip} {}", addr.port())
            }
            Err(_) => match self.listen.rsplit_once(':') {
                Some((host, port)) => format!("nc {host} {port}"),
                None => format!("nc {}", self.listen),
            },
        }
    }
}

/// Writes a new club's configuration into `dir` (made if missing), listening on `listen`.
pub fn init(dir: &Path, listen: &str) -> Result<Club, InitError> {
    let config = dir.join("ccrelay.toml");
    if config.exists() {
        return Err(InitError::Exists(config));
    }
    let io = |what, path: &Path| {
        let path = path.to_owned();
        move |source| InitError::Io { what, path, source }
    };
    let data_dir = dir.join("data");
    std::fs::create_dir_all(&data_dir).map_err(io("cannot make", &data_dir))?;
    restrict(&data_dir).map_err(io("cannot restrict", &data_dir))?;

    let mut secrets = Vec::new();
    let mut hashes = Vec::new();
    for login in std::iter::once("admin").chain(PLAYERS.iter().map(|(id, _)| *id)) {
        let secret = random_secret()?;
        hashes.push(crate::auth::hash_secret(&secret).map_err(InitError::Hash)?);
        secrets.push((login.to_owned(), secret));
    }
    let text = config_text(listen, &hashes);
    Config::from_toml(&text, dir).map_err(|e| InitError::Invalid(e.to_string()))?;
    // create_new: a file that appeared since the check above is not overwritten either.
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&config)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => InitError::Exists(config.clone()),
            _ => io("cannot write", &config)(e),
        })?;
    std::io::Write::write_all(&mut file, text.as_bytes()).map_err(io("cannot write", &config))?;
    Ok(Club {
        config,
        data_dir,
        secrets,
        game: (GAME.into(), PLAYERS[0].0.into(), PLAYERS[1].0.into()),
        listen: listen.to_owned(),
    })
}

/// The journal's folder is the daemon's alone.
fn restrict(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

fn random_secret() -> Result<String, InitError> {
    crate::auth::new_secret().map_err(InitError::Random)
}

/// The configuration file: every key a new club needs, commented.
fn config_text(listen: &str, hashes: &[String]) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "# ccrelay configuration written by `ccrelay init`. Every key is described in\n\
         # config/ccrelay.toml of the source. The secrets were shown once, when this file was\n\
         # written; only their Argon2id hashes are here. A new secret: `ccrelay hash-secret`.\n\
         # Check after editing: `ccrelay check-config FILE`.\n\n\
         # The journal (relative paths start at this file's folder).\n\
         data_dir = \"data\"\n\n\
         [tcp]\n\
         listen = {listen:?}\n\n\
         [admin]\n\
         # `LOGIN admin SECRET` creates games while the daemon runs (`CREATE g2 player1 player2`).\n\
         secret_hash = {:?}\n",
        hashes[0]
    );
    for ((id, notation), hash) in PLAYERS.iter().zip(&hashes[1..]) {
        let _ = writeln!(
            t,
            "[[players]]\n\
             id = {id:?}\n\
             secret_hash = {hash:?}\n\
             # What the player reads: iccf, san or lan (and lang = \"ru\", \"de\", ...).\n\
             notation = {notation:?}\n\
             reach = \"tcp\"\n"
        );
    }
    let _ = writeln!(
        t,
        "[[games]]\n\
         id = {GAME:?}\n\
         white = {:?}\n\
         black = {:?}",
        PLAYERS[0].0, PLAYERS[1].0
    );
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_netcat_line_names_host_and_port_apart() {
        let club = |listen: &str| Club {
            config: PathBuf::new(),
            data_dir: PathBuf::new(),
            secrets: Vec::new(),
            game: Default::default(),
            listen: listen.to_owned(),
        };
        assert_eq!(club("127.0.0.1:7878").netcat(), "nc 127.0.0.1 7878");
        assert_eq!(club("[::1]:7878").netcat(), "nc ::1 7878");
        assert_eq!(club("0.0.0.0:7878").netcat(), "nc 127.0.0.1 7878");
        assert_eq!(club("[::]:7878").netcat(), "nc ::1 7878");
        assert_eq!(club("localhost:7878").netcat(), "nc localhost 7878");
    }

    #[test]
    fn secrets_are_24_characters_of_the_alphabet_in_groups_and_differ() {
        let a = random_secret().unwrap();
        let b = random_secret().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 29, "{a}");
        assert_eq!(a.split('-').count(), 6);
        assert!(a.split('-').all(|g| {
            g.len() == 4
                && g.bytes()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        }));
    }

    #[test]
    fn a_club_is_written_once_and_its_secrets_verify() {
        let dir = tempfile::tempdir().unwrap();
        let club = init(dir.path(), "127.0.0.1:0").unwrap();
        let config = Config::load(&club.config).unwrap();
        assert_eq!(config.data_dir, dir.path().join("data"));
        assert!(club.data_dir.is_dir());
        assert_eq!(club.secrets.len(), 3);
        let (admin, secret) = &club.secrets[0];
        assert_eq!(admin, "admin");
        let hash = config.admin_secret_hash.as_deref().unwrap();
        assert!(crate::auth::verify_secret(secret, hash));
        for (id, secret) in &club.secrets[1..] {
            let hash = &config.players[id].secret_hash;
            assert!(crate::auth::verify_secret(secret, hash), "{id}");
            assert!(!crate::auth::verify_secret(&club.secrets[0].1, hash));
        }
        assert_eq!(config.games.len(), 1);
        let text = std::fs::read_to_string(&club.config).unwrap();
        for (_, secret) in &club.secrets {
            assert!(!text.contains(secret.as_str()), "a secret in the file");
        }
        // Never overwritten.
        match init(dir.path(), "127.0.0.1:0") {
            Err(InitError::Exists(path)) => assert_eq!(path, club.config),
            other => panic!("{other:?}"),
        }
        assert_eq!(std::fs::read_to_string(&club.config).unwrap(), text);
    }
}
