//! AFL's entry to the `radio` target (`ccrelay_fuzz::targets`).

fn main() {
    let harness = ccrelay_fuzz::targets::harness("radio").expect("a known target");
    afl::fuzz!(|data: &[u8]| harness(data));
}
