//! AFL's entry to the `link_message` target (`ccrelay_fuzz::targets`).

fn main() {
    let harness = ccrelay_fuzz::targets::harness("link_message").expect("a known target");
    afl::fuzz!(|data: &[u8]| harness(data));
}
