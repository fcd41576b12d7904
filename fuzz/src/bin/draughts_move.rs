//! AFL's entry to the `draughts_move` target (`ccrelay_fuzz::targets`).

fn main() {
    let harness = ccrelay_fuzz::targets::harness("draughts_move").expect("a known target");
    afl::fuzz!(|data: &[u8]| harness(data));
}
