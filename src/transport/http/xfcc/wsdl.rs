//! The service description SOAP toolkits load (`GET /xfccbasic.asmx?wsdl`): document/literal
//! SOAP 1.1, the two operations and the `XfccGame` type in the order [`super::game_xml`]
//! writes its fields. The endpoint's address is the one the client asked for.

use super::soap::escape;

/// The WSDL, with the service at `endpoint` (`http://host/xfccbasic.asmx`).
pub fn wsdl(endpoint: &str) -> String {
    wsdl_text().replace("{ENDPOINT}", &escape(endpoint).replace('"', "&quot;"))
}

/// Every field of `XfccGame` with its XML Schema type, in order.
pub const GAME_FIELDS: &[(&str, &str)] = &[
    ("id", "s:string"),
    ("white", "s:string"),
    ("black", "s:string"),
    ("event", "s:string"),
    ("site", "s:string"),
    ("myTurn", "s:boolean"),
    ("hasWhite", "s:boolean"),
    ("daysPlayer", "s:int"),
    ("hoursPlayer", "s:int"),
    ("minutesPlayer", "s:int"),
    ("daysOpponent", "s:int"),
    ("hoursOpponent", "s:int"),
    ("minutesOpponent", "s:int"),
    ("moves", "s:string"),
    ("drawOffered", "s:boolean"),
    ("result", "tns:Result"),
    ("eventDate", "s:date"),
    ("timeControl", "s:string"),
    ("setup", "s:boolean"),
    ("fen", "s:string"),
    ("message", "s:string"),
    ("round", "s:string"),
    ("whiteNA", "s:string"),
    ("blackNA", "s:string"),
    ("serverInfo", "s:string"),
];

/// `GameResult`'s values.
pub const RESULTS: &[&str] = &[
    "Ongoing",
    "WhiteWins",
    "BlackWins",
    "Draw",
    "WhiteWinAdjudicated",
    "BlackWinAdjudicated",
    "DrawAdjudicated",
    "WhiteDefaulted",
    "BlackDefaulted",
    "BothDefaulted",
    "Cancelled",
    "AdjudicationPending",
];

/// `MakeAMoveResult`'s values, spelled as the clients match them (`MoveIsAmbigous`).
pub const MOVE_RESULTS: &[&str] = &[
    "Success",
    "ServerError",
    "AuthenticationFailed",
    "InvalidGameID",
    "NotYourGame",
    "NotYourTurn",
    "InvalidMoveNumber",
    "InvalidMove",
    "NoDrawWasOffered",
    "LostOnTime",
    "YouAreOnLeave",
    "MoveIsAmbigous",
    "FeatureUnavailable",
];

fn enumeration(name: &str, values: &[&str]) -> String {
    let values: String = values
        .iter()
        .map(|v| format!("<s:enumeration value=\"{v}\"/>"))
        .collect();
    format!(
        "<s:simpleType name=\"{name}\"><s:restriction base=\"s:string\">{values}</s:restriction></s:simpleType>"
    )
}

fn game_type() -> String {
    let fields: String = GAME_FIELDS
        .iter()
        .map(|(name, ty)| {
            let optional = if ty.starts_with("s:string") || *name == "eventDate" {
                "minOccurs=\"0\""
            } else {
                "minOccurs=\"1\""
            };
            format!("<s:element {optional} maxOccurs=\"1\" name=\"{name}\" type=\"{ty}\"/>")
        })
        .collect();
    format!("<s:complexType name=\"XfccGame\"><s:sequence>{fields}</s:sequence></s:complexType>")
}

fn make_a_move_params() -> String {
    [
        ("username", "s:string", 0),
        ("password", "s:string", 0),
        ("gameId", "s:string", 0),
        ("resign", "s:boolean", 1),
        ("acceptDraw", "s:boolean", 1),
        ("movecount", "s:int", 1),
        ("myMove", "s:string", 0),
        ("offerDraw", "s:boolean", 1),
        ("claimDraw", "s:boolean", 1),
        ("myMessage", "s:string", 0),
    ]
    .iter()
    .map(|(name, ty, min)| {
        format!("<s:element minOccurs=\"{min}\" maxOccurs=\"1\" name=\"{name}\" type=\"{ty}\"/>")
    })
    .collect()
}

static WSDL_TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();

fn wsdl_text() -> &'static str {
    WSDL_TEXT.get_or_init(|| {
        TEMPLATE
            .replace("{GAME}", &game_type())
            .replace("{RESULT}", &enumeration("Result", RESULTS))
            .replace(
                "{MOVE_RESULT}",
                &enumeration("MakeAMoveResult", MOVE_RESULTS),
            )
            .replace("{MAKE_A_MOVE}", &make_a_move_params())
    })
}

const TEMPLATE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="http://www.bennedik.com/webservices/XfccBasic" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="http://www.bennedik.com/webservices/XfccBasic">
<wsdl:types>
<s:schema elementFormDefault="qualified" targetNamespace="http://www.bennedik.com/webservices/XfccBasic">
<s:element name="GetMyGames"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="username" type="s:string"/><s:element minOccurs="0" maxOccurs="1" name="password" type="s:string"/></s:sequence></s:complexType></s:element>
<s:element name="GetMyGamesResponse"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="GetMyGamesResult" type="tns:ArrayOfXfccGame"/></s:sequence></s:complexType></s:element>
<s:complexType name="ArrayOfXfccGame"><s:sequence><s:element minOccurs="0" maxOccurs="unbounded" name="XfccGame" nillable="true" type="tns:XfccGame"/></s:sequence></s:complexType>
{GAME}
{RESULT}
<s:element name="MakeAMove"><s:complexType><s:sequence>{MAKE_A_MOVE}</s:sequence></s:complexType></s:element>
<s:element name="MakeAMoveResponse"><s:complexType><s:sequence><s:element minOccurs="1" maxOccurs="1" name="MakeAMoveResult" type="tns:MakeAMoveResult"/></s:sequence></s:complexType></s:element>
{MOVE_RESULT}
</s:schema>
</wsdl:types>
<wsdl:message name="GetMyGamesSoapIn"><wsdl:part name="parameters" element="tns:GetMyGames"/></wsdl:message>
<wsdl:message name="GetMyGamesSoapOut"><wsdl:part name="parameters" element="tns:GetMyGamesResponse"/></wsdl:message>
<wsdl:message name="MakeAMoveSoapIn"><wsdl:part name="parameters" element="tns:MakeAMove"/></wsdl:message>
<wsdl:message name="MakeAMoveSoapOut"><wsdl:part name="parameters" element="tns:MakeAMoveResponse"/></wsdl:message>
<wsdl:portType name="XfccBasicSoap">
<wsdl:operation name="GetMyGames"><wsdl:input message="tns:GetMyGamesSoapIn"/><wsdl:output message="tns:GetMyGamesSoapOut"/></wsdl:operation>
<wsdl:operation name="MakeAMove"><wsdl:input message="tns:MakeAMoveSoapIn"/><wsdl:output message="tns:MakeAMoveSoapOut"/></wsdl:operation>
</wsdl:portType>
<wsdl:binding name="XfccBasicSoap" type="tns:XfccBasicSoap">
<soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
<wsdl:operation name="GetMyGames"><soap:operation soapAction="http://www.bennedik.com/webservices/XfccBasic/GetMyGames" style="document"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
<wsdl:operation name="MakeAMove"><soap:operation soapAction="http://www.bennedik.com/webservices/XfccBasic/MakeAMove" style="document"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
</wsdl:binding>
<wsdl:service name="XfccBasic">
<wsdl:port name="XfccBasicSoap" binding="tns:XfccBasicSoap"><soap:address location="{ENDPOINT}"/></wsdl:port>
</wsdl:service>
</wsdl:definitions>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wsdl_is_well_formed_and_names_the_endpoint() {
        let text = wsdl("http://example.org/xfccbasic.asmx");
        assert!(text.contains(r#"location="http://example.org/xfccbasic.asmx""#));
        let mut reader = quick_xml::Reader::from_str(&text);
        reader.config_mut().check_end_names = true;
        loop {
            match reader.read_event() {
                Ok(quick_xml::events::Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("{e}"),
            }
        }
        for (name, _) in GAME_FIELDS {
            assert!(text.contains(&format!("name=\"{name}\"")), "{name}");
        }
        assert!(text.contains("MoveIsAmbigous"));
    }
}
