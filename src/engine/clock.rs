//! Local clocks: what a node or the store reads when it looks at its own watch.
//!
//! Virtual time (the engine's `now_ms`) is the one true time; nobody inside the model can read it.
//! Each node and the store read a local clock that is `offset + rate × true time`, piecewise: a
//! `clock_jump` steps it (NTP stepping a server clock, valkey-io/valkey#2651), a `clock_rate`
//! changes how fast it runs from now on (a drifting oscillator, a VM that is descheduled). A jump
//! may go backwards; the rate is always positive, so a clock never runs backwards between jumps.
//!
//! Only differences on the *same* clock are safe to trust: client-go's leader election measures
//! expiry on the candidate's own clock from when it observed a change (kubernetes/client-go#448),
//! which tolerates any offset, but a rate skew still bends every duration the clock measures.

use serde::Serialize;

/// Parts per million in a rate of 1.0.
pub const RATE_ONE_PPM: u64 = 1_000_000;
/// Slowest rate allowed, in ppm (0.1×).
pub const RATE_MIN_PPM: u64 = 100_000;
/// Fastest rate allowed, in ppm (10×).
pub const RATE_MAX_PPM: u64 = 10_000_000;
/// Largest offset or jump allowed, in ms (24 h either way).
pub const MAX_CLOCK_SHIFT_MS: i64 = 24 * 60 * 60 * 1000;

/// A clock's start: its offset from true time and its rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ClockConfig {
    /// Reading at true time 0, in ms (−24 h ..= 24 h).
    pub offset_ms: i64,
    /// Local ms per true ms, in parts per million (100 000 ..= 10 000 000, i.e. 0.1× to 10×).
    pub rate_ppm: u64,
}

impl Default for ClockConfig {
    fn default() -> Self {
        Self { offset_ms: 0, rate_ppm: RATE_ONE_PPM }
    }
}

impl ClockConfig {
    /// Checks the ranges above.
    ///
    /// # Errors
    /// `(field, message)` naming `offset_ms` or `rate`.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if self.offset_ms.abs() > MAX_CLOCK_SHIFT_MS {
            return Err((
                "offset_ms",
                format!("must be between -{MAX_CLOCK_SHIFT_MS} and {MAX_CLOCK_SHIFT_MS} (24 h)"),
            ));
        }
        check_rate(self.rate_ppm).map_err(|m| ("rate", m))
    }
}

/// Checks a rate in ppm.
///
/// # Errors
/// A message when it lies outside 0.1× ..= 10×.
pub fn check_rate(rate_ppm: u64) -> Result<(), String> {
    if (RATE_MIN_PPM..=RATE_MAX_PPM).contains(&rate_ppm) {
        Ok(())
    } else {
        Err("must be between 0.1 and 10 (times the speed of true time)".into())
    }
}

/// A piecewise-linear local clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Clock {
    /// True time of the last change, in ms.
    base_true_ms: u64,
    /// Reading at `base_true_ms`, in local ms.
    base_local_ms: i64,
    /// Local ms per true ms, in ppm.
    rate_ppm: u64,
}

impl Clock {
    /// A clock that reads `config.offset_ms` at true time 0.
    pub fn new(config: ClockConfig) -> Self {
        Self { base_true_ms: 0, base_local_ms: config.offset_ms, rate_ppm: config.rate_ppm.max(1) }
    }

    /// The rate, in ppm.
    pub fn rate_ppm(&self) -> u64 {
        self.rate_ppm
    }

    /// The reading at true time `true_ms` (≥ the last change), in local ms; rounds down.
    pub fn read(&self, true_ms: u64) -> i64 {
        let elapsed = i128::from(true_ms.saturating_sub(self.base_true_ms));
        let local = elapsed * i128::from(self.rate_ppm) / i128::from(RATE_ONE_PPM);
        clamp_i64(i128::from(self.base_local_ms) + local)
    }

    /// The first true time, no earlier than `now_ms`, at which the clock reads at least `local_ms`.
    pub fn when_reads(&self, local_ms: i64, now_ms: u64) -> u64 {
        if self.read(now_ms) >= local_ms {
            return now_ms;
        }
        let needed = i128::from(local_ms) - i128::from(self.base_local_ms);
        let rate = i128::from(self.rate_ppm);
        // Smallest elapsed e with e × rate / 1e6 ≥ needed: ceil(needed × 1e6 / rate).
        let elapsed = (needed * i128::from(RATE_ONE_PPM) + rate - 1) / rate;
        let t = i128::from(self.base_true_ms) + elapsed;
        u64::try_from(t.max(i128::from(now_ms))).unwrap_or(u64::MAX)
    }

    /// How many true ms from `now_ms` until `after_ms` local ms have passed on this clock.
    pub fn true_after(&self, after_ms: u64, now_ms: u64) -> u64 {
        let target = self.read(now_ms).saturating_add(i64::try_from(after_ms).unwrap_or(i64::MAX));
        self.when_reads(target, now_ms).saturating_sub(now_ms)
    }

    /// Step the clock by `by_ms` at true time `now_ms` (negative: backwards).
    pub fn jump(&mut self, by_ms: i64, now_ms: u64) {
        self.rebase(now_ms);
        self.base_local_ms = self.base_local_ms.saturating_add(by_ms);
    }

    /// Run at `rate_ppm` from true time `now_ms` on.
    pub fn set_rate(&mut self, rate_ppm: u64, now_ms: u64) {
        self.rebase(now_ms);
        self.rate_ppm = rate_ppm.max(1);
    }

    fn rebase(&mut self, now_ms: u64) {
        self.base_local_ms = self.read(now_ms);
        self.base_true_ms = now_ms.max(self.base_true_ms);
    }
}

fn clamp_i64(v: i128) -> i64 {
    i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_true_clock_reads_true_time() {
        let c = Clock::new(ClockConfig::default());
        assert_eq!(c.read(12_345), 12_345);
        assert_eq!(c.when_reads(20_000, 12_345), 20_000);
        assert_eq!(c.true_after(5_000, 1_000), 5_000);
    }

    #[test]
    fn offset_shifts_readings_but_not_durations() {
        let c = Clock::new(ClockConfig { offset_ms: 3_600_000, rate_ppm: RATE_ONE_PPM });
        assert_eq!(c.read(0), 3_600_000);
        assert_eq!(c.true_after(15_000, 7_000), 15_000);
    }

    #[test]
    fn a_fast_clock_measures_durations_short() {
        // At 2×, 15 s on this clock pass in 7.5 s of true time.
        let c = Clock::new(ClockConfig { offset_ms: 0, rate_ppm: 2 * RATE_ONE_PPM });
        assert_eq!(c.read(1_000), 2_000);
        assert_eq!(c.true_after(15_000, 1_000), 7_500);
        // At 1/3×, rounding up: the clock reads 10 only from true time 30.
        let slow = Clock::new(ClockConfig { offset_ms: 0, rate_ppm: RATE_ONE_PPM / 3 });
        let t = slow.when_reads(10, 0);
        assert!(slow.read(t) >= 10 && slow.read(t - 1) < 10, "{t}");
    }

    #[test]
    fn jumps_and_rate_changes_apply_from_now() {
        let mut c = Clock::new(ClockConfig::default());
        c.jump(86_400_000, 3_000);
        assert_eq!(c.read(3_000), 86_403_000);
        assert_eq!(c.read(4_000), 86_404_000);
        c.set_rate(RATE_ONE_PPM / 2, 4_000);
        assert_eq!(c.read(6_000), 86_405_000);
        c.jump(-86_405_000, 6_000);
        assert_eq!(c.read(6_000), 0);
        // A deadline already passed on the clock is due now.
        assert_eq!(c.when_reads(-5, 6_000), 6_000);
    }
}
