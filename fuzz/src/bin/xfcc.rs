//! AFL's entry to the `xfcc` target (`ccrelay_fuzz::targets`).

fn main() {
    let harness = ccrelay_fuzz::targets::harness("xfcc").expect("a known target");
    afl::fuzz!(|data: &[u8]| harness(data));
}
