//! AFL's entry to the `mail` target (`ccrelay_fuzz::targets`).

fn main() {
    let harness = ccrelay_fuzz::targets::harness("mail").expect("a known target");
    afl::fuzz!(|data: &[u8]| harness(data));
}
