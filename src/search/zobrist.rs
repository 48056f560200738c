//! Zobrist keys and hash mixing: fixed pseudo-random 64-bit keys, the same in every run, all
//! from SplitMix64 (written once, here; the games' keys and the tables' hashes use it).

/// SplitMix64's increment (the golden ratio in 64 bits).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: a bijection of 64-bit words that spreads every bit.
#[inline(always)]
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The first output of SplitMix64 seeded with `seed`: a well-mixed key for `seed`, usable in
/// `const` tables.
#[inline(always)]
pub const fn splitmix(seed: u64) -> u64 {
    mix(seed.wrapping_add(GOLDEN))
}

/// SplitMix64: a tiny, well-mixed generator, enough for hash keys.
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        mix(self.0)
    }
}

/// `count` keys for each of the two sides: `keys[side][i]`.
pub fn side_keys(count: usize, seed: u64) -> [Vec<u64>; 2] {
    let mut rng = SplitMix64::new(seed);
    let a = (0..count).map(|_| rng.next_u64()).collect();
    let b = (0..count).map(|_| rng.next_u64()).collect();
    [a, b]
}
