//! Sweeps: one knob of a scenario turned through a range, each setting played with many seeds,
//! fencing on and off, and counted: how often safety broke, and how long nobody led.
//!
//! FizzBee plots a model's outcomes against its probabilities from its command line; here the
//! outcomes are the engine's own runs, so a point on the curve is a set of runs a learner can
//! open ([`Point::examples`]). Deterministic: the same scenario and [`SweepSpec`] give the same
//! points, bit for bit, natively and in the browser.

use serde::{Deserialize, Serialize};

use super::{oracle, Command, Config, ConfigError, Sim, TraceEvent};

/// What a sweep turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Knob {
    /// `leaseDurationSeconds` (the lock's TTL), in ms; the renewal period, renew deadline and
    /// retry period keep their proportions to it, as client-go's defaults do (15 s, 10 s, 2 s).
    LeaseDurationMs,
    /// The length of the scenario's scripted pauses, in ms: a pause with a length gets this one,
    /// a pause ended by a scripted resume is resumed this long after it began.
    PauseMs,
    /// Every node's clock rate, in parts per million of true time (1 000 000: true speed; the
    /// store's clock keeps its own): how a slow or fast clock on the clients stretches or
    /// shrinks the lease as they measure it.
    ClockRatePpm,
    /// The network's one-way latency, in ms: drawn between half of it and it.
    NetworkDelayMs,
}

impl Knob {
    /// Every knob.
    pub const ALL: [Knob; 4] = [Knob::LeaseDurationMs, Knob::PauseMs, Knob::ClockRatePpm, Knob::NetworkDelayMs];

    /// Its `snake_case` name.
    pub fn code(self) -> &'static str {
        match self {
            Knob::LeaseDurationMs => "lease_duration_ms",
            Knob::PauseMs => "pause_ms",
            Knob::ClockRatePpm => "clock_rate_ppm",
            Knob::NetworkDelayMs => "network_delay_ms",
        }
    }

    /// The knob named `code`, if any.
    pub fn from_code(code: &str) -> Option<Knob> {
        Knob::ALL.into_iter().find(|k| k.code() == code)
    }

    /// Whether a person sees it in seconds (a time, kept in ms) rather than in its own unit
    /// (`scenario::live::shown`).
    pub fn in_seconds(self) -> bool {
        !matches!(self, Knob::ClockRatePpm)
    }

    /// `config` with this knob set to `value`.
    ///
    /// # Errors
    /// The configuration the setting makes, if it breaks a rule of [`Config::check`] (the path
    /// names the knob and the value), or a knob the scenario has nothing to turn (no pause).
    pub fn apply(self, config: &Config, value: u64) -> Result<Config, ConfigError> {
        let mut c = config.clone();
        let at = |message: String| ConfigError { path: format!("{}={value}", self.code()), message };
        match self {
            Knob::LeaseDurationMs => {
                let old = c.lease.duration_ms.max(1);
                let scale = |ms: u64| (u128::from(ms) * u128::from(value) / u128::from(old)).max(1);
                let scale = |ms: u64| u64::try_from(scale(ms)).unwrap_or(u64::MAX);
                c.lease.renew_every_ms = scale(c.lease.renew_every_ms);
                c.lease.renew_deadline_ms = scale(c.lease.renew_deadline_ms);
                c.lease.retry_every_ms = scale(c.lease.retry_every_ms);
                for node in &mut c.nodes {
                    if let Some(lease) = node.lease.as_mut() {
                        lease.duration_ms = scale(lease.duration_ms);
                    }
                }
                c.lease.duration_ms = value;
            }
            Knob::PauseMs => {
                let mut turned = false;
                let events = c.events.clone();
                for (i, event) in events.iter().enumerate() {
                    let Command::Pause { node, for_ms } = &event.command else { continue };
                    turned = true;
                    if for_ms.is_some() {
                        c.events[i].command = Command::Pause { node: node.clone(), for_ms: Some(value) };
                        continue;
                    }
                    let resume = events
                        .iter()
                        .enumerate()
                        .skip(i + 1)
                        .find(|(_, e)| matches!(&e.command, Command::Resume { node: n } if n == node));
                    if let Some((j, _)) = resume {
                        c.events[j].at_ms = event.at_ms.saturating_add(value);
                    }
                }
                if !turned {
                    return Err(at("the scenario pauses nobody: there is no pause to lengthen".into()));
                }
                // A resume moved past later steps goes back in time order (the file's order for ties).
                c.events.sort_by_key(|e| e.at_ms);
            }
            Knob::ClockRatePpm => {
                for node in &mut c.nodes {
                    node.clock.rate_ppm = value;
                }
            }
            Knob::NetworkDelayMs => {
                c.network.latency_max_ms = value;
                c.network.latency_min_ms = value / 2;
            }
        }
        c.check().map_err(|e| at(format!("{}: {}", e.path, e.message)))?;
        Ok(c)
    }
}

impl Knob {
    /// The setting nearest `value` that [`Knob::apply`] accepts for `config`, found by bisection
    /// between `value` and `accepted`, a setting it accepts; `None` when it refuses `accepted`
    /// too. For saying what the engine takes when an end of a range is refused. The settings a
    /// knob accepts form one interval: each rule [`Config::check`] applies to them is a bound on
    /// the value, or on a period that keeps its proportion to it.
    pub fn nearest_accepted(self, config: &Config, value: u64, accepted: u64) -> Option<u64> {
        let ok = |v: u64| self.apply(config, v).is_ok();
        if !ok(accepted) {
            return None;
        }
        let (mut good, mut bad) = (accepted, value);
        while good.abs_diff(bad) > 1 {
            let mid = u64::try_from((u128::from(good) + u128::from(bad)) / 2).unwrap_or(good);
            if ok(mid) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        Some(good)
    }
}

/// Most points on one curve.
pub const MAX_POINTS: u32 = 200;
/// Most seeds per point.
pub const MAX_SEEDS: u32 = 1_000;

/// What to sweep: `knob` from `from` to `to` in `points` evenly spaced settings (both ends
/// included), each played with `seeds` seeds: the scenario's own seed and the ones after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepSpec {
    pub knob: Knob,
    pub from: u64,
    pub to: u64,
    /// 2 ..= [`MAX_POINTS`].
    pub points: u32,
    /// 1 ..= [`MAX_SEEDS`].
    pub seeds: u32,
}

impl SweepSpec {
    /// Reads `NAME=FROM..TO/POINTS` (`lease_duration_ms=5000..60000/20`).
    ///
    /// # Errors
    /// What is wrong with the text, naming the part.
    pub fn parse(text: &str, seeds: u32) -> Result<Self, ConfigError> {
        let bad = |message: String| ConfigError { path: "knob".into(), message };
        let (name, range) =
            text.split_once('=').ok_or_else(|| bad(format!("\"{text}\": expected NAME=FROM..TO/POINTS")))?;
        let knob = Knob::from_code(name).ok_or_else(|| {
            let all: Vec<&str> = Knob::ALL.iter().map(|k| k.code()).collect();
            bad(format!("\"{name}\" is not a knob; there are {}", all.join(", ")))
        })?;
        let (span, points) =
            range.split_once('/').ok_or_else(|| bad(format!("\"{range}\": expected FROM..TO/POINTS")))?;
        let (from, to) = span.split_once("..").ok_or_else(|| bad(format!("\"{span}\": expected FROM..TO")))?;
        let number = |s: &str| s.trim().parse::<u64>().map_err(|_| bad(format!("\"{s}\" is not a whole number")));
        let points = u32::try_from(number(points)?).map_err(|_| bad(format!("\"{points}\": too many points")))?;
        let spec = Self { knob, from: number(from)?, to: number(to)?, points, seeds };
        spec.check()?;
        Ok(spec)
    }

    /// Checks the counts and the range.
    ///
    /// # Errors
    /// The field and what is wrong.
    pub fn check(&self) -> Result<(), ConfigError> {
        let bad = |path: &str, message: String| Err(ConfigError { path: path.into(), message });
        if !(2..=MAX_POINTS).contains(&self.points) {
            return bad("points", format!("{}: must be 2 ..= {MAX_POINTS}", self.points));
        }
        if !(1..=MAX_SEEDS).contains(&self.seeds) {
            return bad("seeds", format!("{}: must be 1 ..= {MAX_SEEDS}", self.seeds));
        }
        if self.to <= self.from {
            return bad("to", format!("{} must be above from ({})", self.to, self.from));
        }
        Ok(())
    }

    /// The settings, from `from` to `to`.
    pub fn values(&self) -> Vec<u64> {
        let steps = u128::from(self.points - 1);
        let span = u128::from(self.to - self.from);
        (0..self.points).map(|i| self.from + u64::try_from(span * u128::from(i) / steps).unwrap_or(0)).collect()
    }
}

/// A run a point's class is shown by: its seed, and whether the resource fenced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    pub seed: u64,
    pub fencing: bool,
}

/// One setting's runs, counted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    /// The knob's setting.
    pub value: u64,
    /// Seeds played (each twice, fencing on and then off, where the store issues tokens).
    pub runs: u32,
    /// Whether the fenced runs were played: false on a store that issues no fencing token
    /// (then the fenced counts are 0 and the unfenced runs give the leaderless time).
    pub fenced: bool,
    /// Runs with fencing on in which the oracle found a safety violation (any kind).
    pub violating_fenced: u32,
    /// The same with fencing off.
    pub violating_unfenced: u32,
    /// Mean over the fenced runs (the unfenced ones when there are none) of the time nobody led, in ms (leader gaps after the first
    /// leader, `oracle::intervals`).
    pub leaderless_mean_ms: u64,
    /// The largest of them, in ms.
    pub leaderless_worst_ms: u64,
    /// One run of each class at this point, where there is one: `[violating with fencing,
    /// violating without, safe]` (safe with fencing where the store issues tokens), each the
    /// first seed of its class.
    pub examples: [Option<Example>; 3],
}

/// Plays `config` with `knob` set to each of `spec`'s values, `spec.seeds` seeds each, fencing
/// on and off. `on_point` is called after each point (for progress).
///
/// # Errors
/// Bad bounds ([`SweepSpec::check`]), or a setting that makes an invalid configuration.
pub fn sweep(config: &Config, spec: &SweepSpec, mut on_point: impl FnMut(&Point)) -> Result<Vec<Point>, ConfigError> {
    spec.check()?;
    let mut points = Vec::with_capacity(spec.points as usize);
    for value in spec.values() {
        let point = sweep_point(config, spec.knob, value, spec.seeds)?;
        on_point(&point);
        points.push(point);
    }
    Ok(points)
}

/// One point of a sweep: `knob` at `value`, `seeds` seeds from the scenario's own.
///
/// # Errors
/// As [`Knob::apply`].
pub fn sweep_point(config: &Config, knob: Knob, value: u64, seeds: u32) -> Result<Point, ConfigError> {
    let set = knob.apply(config, value)?;
    let fenced = {
        let mut c = set.clone();
        c.resource.fencing = true;
        c.check().is_ok()
    };
    let modes: &[bool] = if fenced { &[true, false] } else { &[false] };
    let mut point = Point {
        value,
        runs: seeds,
        fenced,
        violating_fenced: 0,
        violating_unfenced: 0,
        leaderless_mean_ms: 0,
        leaderless_worst_ms: 0,
        examples: [None; 3],
    };
    let mut leaderless_total: u128 = 0;
    for i in 0..u64::from(seeds) {
        let seed = config.seed.wrapping_add(i);
        for &fencing in modes {
            let mut c = set.clone();
            c.seed = seed;
            c.resource.fencing = fencing;
            let mut sim = Sim::new(c)?;
            sim.run_to_end();
            let violated = sim.trace().iter().any(|e| matches!(e.event, TraceEvent::ViolationFound { .. }));
            let example = Example { seed, fencing };
            if fencing == modes[0] {
                let (gaps, _) = oracle::intervals(sim.trace());
                let leaderless: u64 = gaps.iter().map(|g| g.length_ms).sum();
                leaderless_total += u128::from(leaderless);
                point.leaderless_worst_ms = point.leaderless_worst_ms.max(leaderless);
                if !violated {
                    point.examples[2].get_or_insert(example);
                }
            }
            match (violated, fencing) {
                (true, true) => {
                    point.violating_fenced += 1;
                    point.examples[0].get_or_insert(example);
                }
                (true, false) => {
                    point.violating_unfenced += 1;
                    point.examples[1].get_or_insert(example);
                }
                (false, _) => {}
            }
        }
    }
    point.leaderless_mean_ms = u64::try_from(leaderless_total / u128::from(seeds.max(1))).unwrap_or(u64::MAX);
    Ok(point)
}
