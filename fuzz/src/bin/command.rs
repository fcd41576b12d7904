//! AFL's entry to the `command` target (`ccrelay_fuzz::targets`).

fn main() {
    let harness = ccrelay_fuzz::targets::harness("command").expect("a known target");
    afl::fuzz!(|data: &[u8]| harness(data));
}
