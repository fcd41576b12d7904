//! AFL's entry to the `draughts_text` target (`ccrelay_fuzz::targets`).

fn main() {
    let harness = ccrelay_fuzz::targets::harness("draughts_text").expect("a known target");
    afl::fuzz!(|data: &[u8]| harness(data));
}
