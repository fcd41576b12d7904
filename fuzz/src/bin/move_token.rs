//! AFL's entry to the `move_token` target (`ccrelay_fuzz::targets`).

fn main() {
    let harness = ccrelay_fuzz::targets::harness("move_token").expect("a known target");
    afl::fuzz!(|data: &[u8]| harness(data));
}
