//! The frame every page shares: the document head (viewport for phones, the style), the
//! language switch, the arbiter's login link, and the script that follows a page live. The
//! style and the script are served as files ([`STYLE_PATH`], [`LIVE_PATH`]), never inline:
//! the Content-Security-Policy lets a page run no inline script or style.

use maud::{DOCTYPE, Markup, html};

use super::words::{Tongue, Words};

/// Where the style is served (the version in the name, so a new release's is fetched anew).
pub const STYLE_PATH: &str = concat!("/assets/ccrelay-", env!("CARGO_PKG_VERSION"), ".css");
/// Where the live script is served.
pub const LIVE_PATH: &str = concat!("/assets/live-", env!("CARGO_PKG_VERSION"), ".js");

/// The style: readable on a phone (one column under 700px, no page wider than the screen from
/// 360 px up), the board scaling to the width; on a player's game the board, the move's
/// reading and its Send button on one screen, and the header one line.
pub const STYLE: &str = r#"
body{font-family:system-ui,sans-serif;margin:0;color:#222;background:#fbfaf7;line-height:1.4}
header{background:#3b2f24;color:#f0d9b5;padding:.5em 1em;display:flex;flex-wrap:wrap;gap:1em;align-items:center}
header a{color:#f0d9b5}
header .right{margin-left:auto;display:flex;gap:.8em;align-items:center}
main{padding:1em;max-width:1100px;margin:auto}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left}
td.num,th.num{text-align:center}
.game{display:flex;flex-wrap:wrap;gap:1.5em}
.board{width:min(92vw,480px);height:auto;aspect-ratio:1/1;display:block}
.side{flex:1;min-width:260px}
ol.moves{padding-left:2.5em;columns:2;column-gap:1.5em}
ol.moves a{text-decoration:none;padding:0 .2em}
ol.moves a.current{background:#e8d33f;border-radius:3px}
.note{color:#665}
.sr{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0;overflow-wrap:anywhere}
form.choose{display:flex;flex-wrap:wrap;gap:.5em;align-items:center}
@media (max-width:700px){ol.moves{columns:1}header{font-size:.9em}}
.flash{padding:.5em .8em;border-radius:4px;margin:.5em 0}
.flash.done{background:#e3f1dc}
.flash.refused{background:#f7dede}
.error{color:#a01010}
form.inline{display:inline-block;margin:.3em 0}
header form.inline{margin:0}
rect.picked{fill:#5b9bd5;fill-opacity:.55}
rect.cursor{fill:none;stroke:#1f5fbf;stroke-width:3}
.board[data-interactive]{touch-action:none;cursor:pointer}
.board[data-interactive]:focus{outline:3px solid #1f5fbf}
.move-box{margin:.8em 0;padding:.6em;background:#f3efe6;border-radius:4px}
.move-box input#move{font-size:1.2em;width:9em}
#read-as{font-size:1.15em}
.turn.mine{font-weight:700;color:#1f6f1f}
tr.my-turn{background:#fff6cc}
ol.messages{list-style:none;padding:0}
ol.messages li{margin:.3em 0;padding:.3em .6em;border-radius:4px;background:#f0ede6;overflow-wrap:anywhere}
ol.messages li.mine{background:#e6eef7}
textarea#message{width:100%;max-width:30em}
button.danger{background:#a01010;color:#fff;border:0;padding:.3em .7em;border-radius:3px}
form.login{display:flex;flex-direction:column;gap:.6em;max-width:20em}
.board-box{flex:none;max-width:100%}
output#preview{display:block;margin-top:.4em;min-height:1.4em}
.side input,.side select,.side textarea{max-width:100%;box-sizing:border-box}
@media (max-width:700px){.game{display:block}.board{width:100%;max-width:480px}.side{min-width:0;margin-top:1em}main{padding:.6em}}
main{overflow-wrap:anywhere}
.langs{display:inline-flex;gap:.8em}
.langs .short{display:none}
header.play{flex-wrap:nowrap;white-space:nowrap;overflow:hidden}
header.play .right{min-width:0}
header.play .me{min-width:0;overflow:hidden;text-overflow:ellipsis}
.game-head{display:flex;flex-wrap:wrap;align-items:baseline;column-gap:1em}
.game-head h1,.game-head .turn{margin:.2em 0}
form.move-box{display:flex;flex-wrap:wrap;align-items:center;gap:.4em}
form.move-box output,form.move-box .note{flex-basis:100%;margin:0}
.move-box .buttons{white-space:nowrap}
.actions form{margin:.4em 0}
@media (max-width:700px){
header{padding:.4em .6em;gap:.6em}
.langs{gap:.5em}
.langs .long{display:none}
.langs .short{display:inline}
header{flex-wrap:nowrap;white-space:nowrap}
header .as,header .title{display:none}
.game-head h1{font-size:1.2em}
.side{margin-top:.4em}
.move-box{margin:.4em 0;padding:.4em .5em}
.move-box input#move{width:7em}
#my-games,#my-games tbody,#my-games tr,#my-games td{display:block}
#my-games thead{display:none}
#my-games tr{border:1px solid #ccc;border-radius:4px;margin:.5em 0;padding:.3em .5em}
#my-games td{border:0;padding:.1em 0}
#my-games td::before{content:attr(data-label) ": ";font-weight:600}
}
nav.desk{display:flex;flex-wrap:wrap;gap:.4em 1em;margin:.2em 0 .8em}
form.desk{display:flex;flex-wrap:wrap;gap:.5em;align-items:center;margin:.5em 0}
form.desk.fields{flex-direction:column;align-items:flex-start;max-width:40em}
small.help{color:#665;display:block;margin:-.4em 0 .3em}
.scroll{overflow-x:auto;max-width:100%}
details.player{margin:.3em 0;padding:.2em .5em;border:1px solid #ddd;border-radius:4px}
fieldset.players{display:flex;flex-wrap:wrap;gap:.3em 1em;border:1px solid #ccc}
section.decision{border:1px solid #ccc;border-radius:4px;padding:.5em .8em;margin:.8em 0}
#answer pre,pre#event-text,#events-text{white-space:pre-wrap;margin:.3em 0}
pre#event-text{background:#f3efe6;padding:.5em}
.warning{color:#a01010;font-weight:600}
section.sheet{border:2px dashed #888;padding:1em;max-width:34em}
section.sheet code{font-size:1.3em}
.desk input,.desk select{max-width:100%;box-sizing:border-box}
@media (max-width:700px){
#players,#players tbody,#players tr,#players td{display:block}
#players thead{display:none}
#players tr{border:1px solid #ccc;border-radius:4px;margin:.5em 0;padding:.3em .5em}
#players td{border:0;padding:.1em 0}
#players td::before{content:attr(data-label) ": ";font-weight:600}
section.decision h2{font-size:1.15em}
section.decision{padding:.4em .6em}
}
@media print{body *{visibility:hidden}#sheet,#sheet *{visibility:visible}#sheet{position:absolute;left:0;top:0;border:0}}
"#;

/// Follows the page live: on each `change` the page is fetched again and its `<main>` put in
/// place, so the board and the moves move without a reload; once more when the listener
/// opens, for what changed between the page's making and the listener's start. The browser's EventSource
/// reconnects by itself after a dropped connection; a refusal (the server's listener limit)
/// is tried again after a pause.
pub const LIVE: &str = r#"
(function(){
  var url=document.body.getAttribute('data-live');
  if(!url||!window.EventSource)return;
  function refresh(){
    fetch(location.href,{credentials:'same-origin'}).then(function(r){return r.ok?r.text():null}).then(function(t){
      if(!t)return;
      var d=new DOMParser().parseFromString(t,'text/html');
      var fresh=d.getElementById('main'),old=document.getElementById('main');
      if(d.body.getAttribute('data-version')===document.body.getAttribute('data-version'))return;
      document.body.setAttribute('data-version',d.body.getAttribute('data-version')||'');
      if(fresh&&old){old.replaceWith(fresh);}
    });
  }
  function open(){
    var es=new EventSource(url);
    es.addEventListener('change',refresh);
    es.onopen=function(){document.body.setAttribute('data-live-state','open');refresh();};
    es.onerror=function(){
      document.body.setAttribute('data-live-state','error');
      if(es.readyState===2){setTimeout(open,5000);}
    };
  }
  open();
})();
"#;

/// The language switch in every page's header, each language named in itself (by its code
/// on a narrow screen); `keep` (`ply=5&`) stays in its links.
pub fn language_switch(keep: &str) -> Markup {
    html! {
        span.langs {
            @for (code, name) in [("en", "English"), ("ru", "Русский"), ("uk", "Українська")] {
                span lang=(code) {
                    a href={ "?" (keep) "lang=" (code) } hreflang=(code) title=(name) {
                        span.long { (name) }
                        span.short aria-hidden="true" { (code.to_uppercase()) }
                    }
                }
            }
        }
    }
}

/// A short digest of what a page shows: the live script puts a page read again in place
/// only when it differs.
pub fn version(body: &Markup) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(body.0.as_bytes());
    hex::encode(&digest[..8])
}

/// A whole page: `live` is the Server-Sent Events address that follows it, if any.
pub fn page(tongue: Tongue, title: &str, live: Option<&str>, body: Markup) -> Markup {
    page_keeping(tongue, title, live, "", body)
}

/// A whole page whose language switch keeps `keep` (`ply=5&`) in its links, so a viewer
/// stepping through a game stays on the move they were looking at.
pub fn page_keeping(
    tongue: Tongue,
    title: &str,
    live: Option<&str>,
    keep: &str,
    body: Markup,
) -> Markup {
    let w = Words::of(tongue);
    html! {
        (DOCTYPE)
        html lang=(tongue.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · ccrelay" }
                link rel="stylesheet" href=(STYLE_PATH);
            }
            body data-live=[live] data-version=(version(&body)) {
                header {
                    a href="/" { strong { "ccrelay" } }
                    span.title { (w.title) }
                    span.right {
                        (language_switch(keep))
                        a href="/login" { (w.arbiter) }
                    }
                }
                (body)
                @if live.is_some() {
                    script src=(LIVE_PATH) {}
                }
            }
        }
    }
}
