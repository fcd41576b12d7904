use super::*;
use crate::transport::bridge::game::RemoteResult;
use crate::transport::bridge::request::{self, Credentials, MoveCall};
use crate::transport::http::xfcc::soap::{SOAP_NS, XFCC_NS, read, response};

/// An answer of ICCF's shape: no `timeControl`, `eventDate` or `message` when there is
/// none, a `gameLink` this relay does not read, movetext over several lines, results in
/// ICCF's words, and the response's fields with a namespace prefix.
fn iccf_games() -> String {
    let game = |id: &str, extra: &str| {
        format!(
            "<XfccGame><id>{id}</id><white>Smith, John</white><black>Ivanov, Pyotr</black>\
             <event>WC35/pr01</event><site>ICCF</site><myTurn>false</myTurn>\
             <hasWhite>false</hasWhite><daysPlayer>49</daysPlayer><hoursPlayer>23</hoursPlayer>\
             <minutesPlayer>59</minutesPlayer><daysOpponent>47</daysOpponent>\
             <hoursOpponent>2</hoursOpponent><minutesOpponent>5</minutesOpponent>{extra}\
             <gameLink>https://www.iccf.com/game?id={id}</gameLink></XfccGame>"
        )
    };
    let first = game(
        "1234567",
        "<moves>1.e4 c5 2.Nf3\n d6 3.d4</moves><drawOffered>false</drawOffered>\
         <result>Ongoing</result><setup>false</setup>",
    );
    let second = game(
        "1234568",
        "<moves>1.d4 Nf6</moves><drawOffered>true</drawOffered>\
         <result>WhiteDefaulted</result><message>sorry, I must stop</message>",
    );
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{SOAP_NS}"><soap:Body><x:GetMyGamesResponse xmlns:x="{XFCC_NS}"><x:GetMyGamesResult>{first}{second}</x:GetMyGamesResult></x:GetMyGamesResponse></soap:Body></soap:Envelope>"#
    )
}

#[test]
fn an_answer_of_iccfs_shape_is_read_with_its_omissions() {
    let games = games(iccf_games().as_bytes()).unwrap();
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert_eq!(g.id, "1234567");
    assert_eq!(
        (g.white.as_str(), g.black.as_str()),
        ("Smith, John", "Ivanov, Pyotr")
    );
    assert!(!g.my_turn && !g.has_white);
    assert_eq!(g.color(), shakmaty::Color::Black);
    assert_eq!(
        g.time_left,
        [
            49 * 86_400 + 23 * 3_600 + 59 * 60,
            47 * 86_400 + 2 * 3_600 + 5 * 60
        ]
    );
    assert_eq!(g.moves, "1.e4 c5 2.Nf3\n d6 3.d4");
    assert_eq!(g.result, RemoteResult::Ongoing);
    assert!(g.result.is_ongoing());
    assert_eq!(
        (g.message.as_deref(), g.time_control.as_deref()),
        (None, None)
    );
    assert_eq!(g.fen, None);
    let g = &games[1];
    assert!(g.draw_offered);
    assert_eq!(g.result, RemoteResult::WhiteDefaulted);
    assert_eq!(g.result.winner(), Some(Some(shakmaty::Color::Black)));
    assert_eq!(g.message.as_deref(), Some("sorry, I must stop"));
}

#[test]
fn results_in_every_word_and_one_unknown() {
    for (word, winner) in [
        ("WhiteWins", Some(Some(shakmaty::Color::White))),
        ("BlackWinAdjudicated", Some(Some(shakmaty::Color::Black))),
        ("BlackDefaulted", Some(Some(shakmaty::Color::White))),
        ("Draw", Some(None)),
        ("DrawAdjudicated", Some(None)),
        ("BothDefaulted", None),
        ("Cancelled", None),
        ("AdjudicationPending", None),
        ("Ongoing", None),
    ] {
        assert_eq!(RemoteResult::from_name(word).winner(), winner, "{word}");
    }
    let unknown = RemoteResult::from_name("WhiteWinsOnTimeMaybe");
    assert_eq!(unknown, RemoteResult::Other("WhiteWinsOnTimeMaybe".into()));
    assert!(!unknown.is_ongoing());
    assert_eq!(unknown.winner(), None);
}

#[test]
fn a_fault_is_the_servers_word_and_authentication_is_known() {
    let fault = crate::transport::http::xfcc::soap::fault(true, "AuthenticationFailed");
    let e = games(fault.as_bytes()).unwrap_err();
    assert!(e.is_authentication(), "{e:?}");
    let other = crate::transport::http::xfcc::soap::fault(false, "ServerError: busy");
    let e = games(other.as_bytes()).unwrap_err();
    assert!(matches!(&e, AnswerError::Fault { code, .. } if code == "soap:Server"));
    assert!(!e.is_authentication());
}

#[test]
fn what_is_not_an_answer_is_refused_with_its_reason() {
    let html = b"<!DOCTYPE html><html><body>502 Bad Gateway</body></html>";
    assert_eq!(games(html), Err(AnswerError::Xml(SoapError::Doctype)));
    let page = b"<html><body><p>maintenance</p></body></html>";
    assert!(matches!(games(page), Err(AnswerError::Shape(_))));
    assert!(matches!(games(b""), Err(AnswerError::Shape(_))));
    assert!(matches!(games(b"not xml at all"), Err(AnswerError::Xml(_))));
    let laughs = format!(
        r#"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]>{}"#,
        iccf_games().trim_start_matches(r#"<?xml version="1.0" encoding="utf-8"?>"#)
    );
    assert_eq!(
        games(laughs.as_bytes()),
        Err(AnswerError::Xml(SoapError::Doctype))
    );
    // The answer to another operation.
    let other = response("MakeAMove", "Success");
    assert!(matches!(
        games(other.as_bytes()),
        Err(AnswerError::Shape(_))
    ));
    // A game without an id, and one with a time that is no number.
    let no_id = response("GetMyGames", "<XfccGame><white>a</white></XfccGame>");
    assert!(matches!(
        games(no_id.as_bytes()),
        Err(AnswerError::Shape(_))
    ));
    let bad_time = response(
        "GetMyGames",
        "<XfccGame><id>1</id><daysPlayer>lots</daysPlayer></XfccGame>",
    );
    assert!(matches!(
        games(bad_time.as_bytes()),
        Err(AnswerError::Shape(_))
    ));
}

#[test]
fn an_answer_too_large_is_refused() {
    let many = response(
        "GetMyGames",
        &"<XfccGame><id>1</id></XfccGame>".repeat(MAX_GAMES + 1),
    );
    assert_eq!(games(many.as_bytes()), Err(AnswerError::TooLarge));
    let wide = response("GetMyGames", &"<x/>".repeat(MAX_ELEMENTS + 1));
    assert_eq!(games(wide.as_bytes()), Err(AnswerError::TooLarge));
    let deep = response(
        "GetMyGames",
        &format!("{}{}", "<x>".repeat(40), "</x>".repeat(40)),
    );
    assert_eq!(
        games(deep.as_bytes()),
        Err(AnswerError::Xml(SoapError::TooDeep))
    );
}

#[test]
fn every_move_result_is_read_back_and_an_unknown_one_refused() {
    for result in MoveResult::ALL {
        let answered = response("MakeAMove", result.as_str());
        assert_eq!(move_result(answered.as_bytes()), Ok(result));
    }
    let corrected = response("MakeAMove", "MoveIsAmbiguous");
    assert_eq!(
        move_result(corrected.as_bytes()),
        Ok(MoveResult::MoveIsAmbiguous)
    );
    let unknown = response("MakeAMove", "Maybe");
    assert!(matches!(
        move_result(unknown.as_bytes()),
        Err(AnswerError::Shape(_))
    ));
}

/// What the bridge sends is what the relay's own XFCC server reads, text escaped.
#[test]
fn requests_read_back_as_the_server_reads_them() {
    let account = Credentials {
        username: "alice",
        password: "p<&>w",
    };
    let call = read(request::get_my_games(&account).as_bytes()).unwrap();
    assert_eq!(call.operation, "GetMyGames");
    assert_eq!(call.field("password"), Some("p<&>w"));
    let action = MoveCall {
        game: "1234567".into(),
        movecount: Some(12),
        my_move: Some("Nf3".into()),
        offer_draw: true,
        message: Some("a & b <c>".into()),
        ..MoveCall::default()
    };
    let call = read(request::make_a_move(&account, &action).as_bytes()).unwrap();
    assert_eq!(call.operation, "MakeAMove");
    for (name, value) in [
        ("gameId", "1234567"),
        ("movecount", "12"),
        ("myMove", "Nf3"),
        ("offerDraw", "true"),
        ("resign", "false"),
        ("acceptDraw", "false"),
        ("claimDraw", "false"),
        ("myMessage", "a & b <c>"),
    ] {
        assert_eq!(call.field(name), Some(value), "{name}");
    }
}
