//! The web server: a daemon with events under every viewing rule and their games, `[http]` on
//! an ephemeral port; an element's attribute on a page; forms POSTed; the arbiter and players
//! logged in through their forms.

use std::net::SocketAddr;
use std::path::PathBuf;

use super::config::{ALICE, BORIS, CAROL, config_text_with};
use super::daemon::Daemon;
use super::http::{Response, get_with, raw};

/// Events under every viewing rule, and their games.
const EVENTS: &str = r#"
[[events]]
id = "open"
name = "Open Cup"
site = "Krasnoyarsk"

[[events]]
id = "slow"
name = "Delayed Cup"
view = "delay"
delay = 2

[[events]]
id = "late"
name = "Finished Cup"
view = "finished"

[[events]]
id = "hidden"
name = "Hidden Cup"
view = "private"

[[games]]
id = "g1"
event = "open"
white = "alice"
black = "boris"

[[games]]
id = "g2"
event = "open"
white = "boris"
black = "carol"

[[games]]
id = "g3"
event = "open"
white = "carol"
black = "alice"

[[games]]
id = "d1"
event = "slow"
white = "alice"
black = "boris"

[[games]]
id = "f1"
event = "late"
white = "alice"
black = "carol"

[[games]]
id = "p1"
event = "hidden"
white = "boris"
black = "alice"

[[games]]
id = "dr1"
event = "open"
game = "draughts-ru"
white = "alice"
black = "carol"
"#;

/// A daemon with the events above, `[http]` on an ephemeral port and `http_extra` in it.
pub fn start(http_extra: &str) -> (tempfile::TempDir, PathBuf, Daemon) {
    start_with("", http_extra)
}

/// [`start`], with `extra` (TOML: a `[clock]`, more `[[events]]`) in the configuration too.
pub fn start_with(extra: &str, http_extra: &str) -> (tempfile::TempDir, PathBuf, Daemon) {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let mut text = config_text_with(&dir.path().join("data"), &[ALICE, BORIS, CAROL], &[], extra);
    text.push_str(EVENTS);
    text.push_str(&format!("[http]\nlisten = \"127.0.0.1:0\"\n{http_extra}"));
    std::fs::write(&config, text).expect("write config");
    let daemon = Daemon::start(&config);
    (dir, config, daemon)
}

/// The value of attribute `name` on the element with `id="id"`.
pub fn attr_of(html: &str, id: &str, name: &str) -> Option<String> {
    let at = html.find(&format!("id=\"{id}\""))?;
    let tag_start = html[..at].rfind('<')?;
    let tag_end = at + html[at..].find('>')?;
    let tag = &html[tag_start..tag_end];
    let key = format!("{name}=\"");
    let from = tag.find(&key)? + key.len();
    let len = tag[from..].find('"')?;
    Some(tag[from..from + len].to_owned())
}

/// Logs the arbiter in on the web; the session cookie.
pub fn arbiter_cookie(addr: SocketAddr, secret: &str) -> Result<String, u16> {
    let body = format!("secret={secret}");
    let response = raw(
        addr,
        format!(
            "POST /login HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    );
    if response.status != 303 {
        return Err(response.status);
    }
    let cookie = response
        .headers
        .iter()
        .find(|(n, v)| n == "set-cookie" && v.starts_with("ccrelay_arbiter="))
        .map(|(_, v)| v.clone())
        .expect("a session cookie");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Strict"), "{cookie}");
    Ok(cookie.split(';').next().unwrap_or_default().to_owned())
}

/// A form POSTed with `cookie`; the response.
pub fn post_form(addr: SocketAddr, path: &str, cookie: &str, fields: &[(&str, &str)]) -> Response {
    let body: String = fields
        .iter()
        .map(|(k, v)| format!("{k}={}", urlencode(v)))
        .collect::<Vec<_>>()
        .join("&");
    raw(
        addr,
        format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
}

/// Percent-encoding for a form's value.
pub fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The `Set-Cookie` header of a response that sets cookie `name`.
pub fn cookie_named(response: &Response, name: &str) -> Option<String> {
    response
        .headers
        .iter()
        .find(|(n, v)| n == "set-cookie" && v.starts_with(&format!("{name}=")))
        .map(|(_, v)| v.clone())
}

/// Logs a player in through the form (with the form's own token); the session cookie
/// (`ccrelay_player=...`), or the refusing response.
pub fn player_cookie(addr: SocketAddr, id: &str, secret: &str) -> Result<String, Response> {
    let form = get_with(addr, "/play", "");
    assert_eq!(form.status, 200, "{}", form.body);
    let token = attr_of(&form.body, "login-form-token", "value").expect("the form's token");
    let form_cookie = cookie_named(&form, "ccrelay_login_form").expect("the form's cookie");
    let form_cookie = form_cookie.split(';').next().unwrap_or_default();
    let response = post_form(
        addr,
        "/play/login",
        form_cookie,
        &[("form", &token), ("player", id), ("secret", secret)],
    );
    if response.status != 303 {
        return Err(response);
    }
    let cookie = cookie_named(&response, "ccrelay_player").expect("a session cookie");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Strict"), "{cookie}");
    assert!(cookie.contains("Path=/"), "{cookie}");
    Ok(cookie.split(';').next().unwrap_or_default().to_owned())
}

/// The form token of a page (every form of the session carries the same).
pub fn form_token(html: &str) -> String {
    let at = html.find("name=\"form\" value=\"").expect("a form") + 19;
    html[at..at + 64].to_owned()
}
