//! AFL's entry to the `movetext` target (`ccrelay_fuzz::targets`).

fn main() {
    let harness = ccrelay_fuzz::targets::harness("movetext").expect("a known target");
    afl::fuzz!(|data: &[u8]| harness(data));
}
