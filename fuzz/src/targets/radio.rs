//! Packet radio: what a TNC hands up, read as KISS frames from a stream cut into chunks, each
//! frame as an AX.25 UI frame, its information as an APRS message.

use ccrelay::transport::radio::aprs::{self, Aprs};
use ccrelay::transport::radio::ax25::{MAX_INFO, MAX_PATH, UiFrame};
use ccrelay::transport::radio::kiss::{self, MAX_DATA, Reader};

/// A raw stream, cut into chunks of a size the first byte picks: no panic; every KISS frame is
/// bounded; every UI frame decoded encodes back to the same bytes' meaning; every APRS message
/// read writes back and reads the same; every answer cut from its text fits a radio.
pub fn stream(data: &[u8]) {
    let chunk = 1 + usize::from(data.first().copied().unwrap_or(0) % 32);
    let mut reader = Reader::default();
    for part in data.get(1..).unwrap_or(&[]).chunks(chunk) {
        reader.push(part);
        while let Some(step) = reader.next_frame() {
            let Ok(frame) = step else { continue };
            assert!(frame.data.len() <= MAX_DATA);
            one_frame(&frame.data);
        }
    }
    // The raw bytes as an APRS field too: a TNC's frame can carry anything.
    one_message(data);
    for width in [45, aprs::TEXT_MAX] {
        for text in aprs::split(&String::from_utf8_lossy(data), width) {
            assert!(text.is_ascii() && text.len() <= width);
        }
    }
    let again = kiss::encode(0, kiss::Command::Data, data);
    let mut reader = Reader::default();
    reader.push(&again);
    if data.len() <= MAX_DATA {
        assert_eq!(
            reader.next_frame().map(|r| r.map(|f| f.data)),
            Some(Ok(data.to_vec()))
        );
    }
}

fn one_frame(bytes: &[u8]) {
    let Ok(ui) = UiFrame::decode(bytes) else {
        return;
    };
    assert!(ui.path.len() <= MAX_PATH && ui.info.len() <= MAX_INFO);
    let encoded = ui.encode().expect("a decoded frame encodes");
    assert_eq!(UiFrame::decode(&encoded), Ok(ui.clone()));
    one_message(&ui.info);
}

fn one_message(info: &[u8]) {
    if let Ok(message) = Aprs::parse(info) {
        assert_eq!(Aprs::parse(&message.encode()), Ok(message));
    }
}
