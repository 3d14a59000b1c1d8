//! The run's single source of randomness: a PCG generator seeded from the scenario's `seed`.
//!
//! Every random draw in a run comes from here, in event order, so a seed fully determines the run
//! (the approach of TigerBeetle's simulator: a failure is a number you can replay).

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Seeded PRNG. `Clone` copies its position, so a cloned simulation draws the same numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(Pcg64Mcg);

/// Hashes where the generator stands by its next draw (the generator keeps its state private):
/// two positions with the same next draw hash alike, which only costs a search
/// (`engine::search`) a state it treats as seen, with a chance of about 2⁻⁶⁴ per pair.
impl std::hash::Hash for Rng {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.clone().next_u64());
    }
}

impl Rng {
    /// A generator for `seed`; the same seed always gives the same sequence.
    pub fn new(seed: u64) -> Self {
        Self(Pcg64Mcg::seed_from_u64(seed))
    }

    /// A uniform integer in `lo ..= hi` (returns `lo` when `hi <= lo`).
    ///
    /// Uses the widening-multiply reduction; its bias is below 2⁻⁴⁴ for the spans used here
    /// (at most 10 minutes of milliseconds), far below anything a lesson could show.
    pub fn range_inclusive(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        let span = u128::from(hi - lo) + 1;
        let draw = (u128::from(self.0.next_u64()) * span) >> 64;
        // draw < span ≤ u64::MAX + 1, so it fits in u64 after the shift.
        lo + u64::try_from(draw).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_draws_and_bounds_hold() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..1000 {
            let x = a.range_inclusive(20, 80);
            assert_eq!(x, b.range_inclusive(20, 80));
            assert!((20..=80).contains(&x));
        }
    }

    #[test]
    fn different_seeds_differ_and_all_values_reachable() {
        let draws = |seed| {
            (0..64).map(|_| 0).scan(Rng::new(seed), |r, _: i32| Some(r.range_inclusive(0, 3))).collect::<Vec<_>>()
        };
        assert_ne!(draws(1), draws(2));
        let seen: std::collections::BTreeSet<u64> = draws(3).into_iter().collect();
        assert_eq!(seen.len(), 4, "every value of a small range must be drawn");
    }

    #[test]
    fn degenerate_range() {
        assert_eq!(Rng::new(1).range_inclusive(5, 5), 5);
        assert_eq!(Rng::new(1).range_inclusive(9, 3), 9);
    }
}
