//! The draw of the entrants' numbers by lot (ICCF draws them before a section starts): a
//! shuffle driven by a seed that is recorded with its result, so anyone can repeat the draw
//! and check it.
//!
//! The procedure, repeatable with any SHA-256 tool: for `i` from the last place down to 1,
//! take the first 8 bytes of SHA-256(seed ‖ `i` as 8 big-endian bytes) as a big-endian number
//! `r`, and swap the entrants at places `i` and `r mod (i + 1)` (Fisher and Yates' shuffle).
//!
//! ```
//! use ccrelay::event::draw::shuffle;
//! let seed = [7u8; 32];
//! let a = shuffle(&["a", "b", "c", "d"], &seed);
//! assert_eq!(a, shuffle(&["a", "b", "c", "d"], &seed), "the same seed, the same draw");
//! let mut sorted = a.clone();
//! sorted.sort();
//! assert_eq!(sorted, ["a", "b", "c", "d"]);
//! ```

use sha2::{Digest, Sha256};

/// `entrants` in the order the seed draws.
pub fn shuffle<T: Clone>(entrants: &[T], seed: &[u8]) -> Vec<T> {
    let mut out = entrants.to_vec();
    for i in (1..out.len()).rev() {
        let digest = Sha256::new()
            .chain_update(seed)
            .chain_update((i as u64).to_be_bytes())
            .finalize();
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        let j = (u64::from_be_bytes(first) % (i as u64 + 1)) as usize;
        out.swap(i, j);
    }
    out
}

/// The lot's order (`lot`, as [`shuffle`] drew it) sorted by rating, highest first, each
/// rating in hundredths as the list prints it (`rating`); equal ratings keep the lot's order.
/// `EVENT SEED <event> BY rating` numbers the entrants so, and journals the lot's seed and
/// the ratings it used, so that anyone can repeat it.
pub fn by_rating(lot: &[String], rating: &dyn Fn(&str) -> i64) -> Vec<String> {
    let mut seeded = lot.to_vec();
    seeded.sort_by_key(|player| std::cmp::Reverse(rating(player)));
    seeded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeding_by_rating_keeps_the_lot_among_equals() {
        let lot: Vec<String> = ["d", "a", "c", "b"].map(String::from).to_vec();
        let rating = |p: &str| match p {
            "a" => 180_000,
            "b" => 150_000,
            _ => 160_000,
        };
        assert_eq!(by_rating(&lot, &rating), ["a", "d", "c", "b"]);
    }

    #[test]
    fn the_draw_is_fixed_by_its_seed_and_moves_with_it() {
        let entrants: Vec<u32> = (1..=12).collect();
        let a = shuffle(&entrants, b"seed one");
        assert_eq!(a, shuffle(&entrants, b"seed one"));
        assert_ne!(a, shuffle(&entrants, b"seed two"));
        assert_ne!(
            a, entrants,
            "twelve entrants are not left in order by this seed"
        );
        // The first step by hand: i = 11, r from SHA-256("seed one" ‖ 11).
        let digest = Sha256::digest([b"seed one".as_slice(), &11u64.to_be_bytes()].concat());
        let r = u64::from_be_bytes(digest[..8].try_into().unwrap());
        let mut expected = entrants.clone();
        expected.swap(11, (r % 12) as usize);
        assert_eq!(
            expected[11], a[11],
            "the last place is settled by the first step"
        );
        assert!(shuffle::<u32>(&[], b"x").is_empty());
    }
}
