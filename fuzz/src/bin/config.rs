//! AFL's entry to the `config` target (`ccrelay_fuzz::targets`).

fn main() {
    let harness = ccrelay_fuzz::targets::harness("config").expect("a known target");
    afl::fuzz!(|data: &[u8]| harness(data));
}
