//! Story-time pacing: how far the virtual clock moves in one frame of real time.
//!
//! Played linearly, a message crosses the scene in its latency: Old Chen's flag with 7 flies for
//! 71 ms, the clasp race is over in 49 ms, and a learner sees verdicts appear, never their cause
//! travel. With story pacing the clock slows while something is in flight and holds the beats of a
//! key moment, then makes up some of the lost time in quiet stretches:
//!
//! - **Flights.** While messages travel, virtual time moves at most `duration / MIN_FLIGHT_MS` per
//!   real ms for the shortest of them, so each one is on screen for at least [`MIN_FLIGHT_MS`] of
//!   real time. A frame stops at the moment a message is sent (the engine is advanced event by
//!   event inside a frame), so no flight starts and ends unseen between two frames.
//! - **Beats.** After a figure falls asleep or wakes, a lease is granted, runs out or is revoked, a
//!   lost race for the clasp, fencing switched, … the clock stands still for [`BEAT_MS`]; after a
//!   refused write or a violation, for [`VERDICT_MS`].
//! - **Quiet stretches.** With nothing in flight, the clock runs up to [`QUIET_BOOST`] times the
//!   chosen speed until the real time spent on flights and beats is made up (at most
//!   [`MAX_BEHIND_MS`] of it is remembered).
//!
//! All of this up to 4× ([`FULL_STORY_MAX_SPEED`]); at 8× flights and beats take half as long;
//! from 16× ([`PLAIN_FROM_SPEED`]), and always under [`Pacing::True`], the clock is plain: real
//! time × speed. Pacing is presentation only: the engine is advanced to the same moments in the
//! same order, so the trace and its hash are those of an unpaced run.

use crate::engine::timeline::Timeline;
use crate::engine::{Sim, TraceEntry, TraceEvent, WriteOutcome};
use crate::scenario::Pacing;

/// Least real time a message is on screen in flight under story pacing, in ms.
pub const MIN_FLIGHT_MS: f64 = 750.0;
/// Real time the clock stands still on a beat of the story, in ms.
pub const BEAT_MS: f64 = 700.0;
/// Real time the clock stands still on a refused write or a violation, in ms.
pub const VERDICT_MS: f64 = 1_200.0;
/// An acquire refused at most this long after a grant to someone else lost the race for the
/// clasp (a beat of its own), in virtual ms.
pub const RACE_WINDOW_MS: u64 = 200;
/// In a quiet stretch the clock runs at most this many times the chosen speed.
pub const QUIET_BOOST: f64 = 2.0;
/// Most real time spent on flights and beats that quiet stretches make up, in ms.
pub const MAX_BEHIND_MS: f64 = 3_000.0;
/// Up to this speed (as a factor) flights and beats take their full time.
pub const FULL_STORY_MAX_SPEED: f64 = 4.0;
/// From this speed (as a factor) the clock is plain.
pub const PLAIN_FROM_SPEED: f64 = 16.0;
/// Most engine moments one frame goes through (a bound on a frame's work; what is left waits for
/// the next frame).
pub const MAX_MOMENTS_PER_FRAME: usize = 256;

/// How one frame is played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Play {
    /// The chosen speed, as a factor (0.25 ..= 64).
    pub speed: f64,
    pub pacing: Pacing,
    /// The clock stops at this moment (a lesson step's awaited event), in ms, unless it is
    /// already past it.
    pub stop_at_ms: Option<u64>,
}

/// How much of the story's slowing applies at `speed` (a factor): 1 up to 4×, ½ at 8×, 0 (plain
/// time) from 16×.
pub fn story_share(speed: f64) -> f64 {
    if speed <= FULL_STORY_MAX_SPEED {
        1.0
    } else if speed < PLAIN_FROM_SPEED {
        0.5
    } else {
        0.0
    }
}

/// How long the clock holds after `entry`, in real ms at full share (0: no beat). `earlier` is the
/// trace before it (a refused acquire is a beat only right after someone else's grant).
pub fn beat_ms(entry: &TraceEntry, earlier: &[TraceEntry]) -> f64 {
    match &entry.event {
        TraceEvent::WriteJudged { outcome, .. } if *outcome != WriteOutcome::Accepted => VERDICT_MS,
        TraceEvent::ViolationFound { .. } => VERDICT_MS,
        TraceEvent::Paused { .. }
        | TraceEvent::Resumed { .. }
        | TraceEvent::Crashed { .. }
        | TraceEvent::Restarted { .. }
        | TraceEvent::Partitioned { .. }
        | TraceEvent::PartitionedFrom { .. }
        | TraceEvent::Healed { .. }
        | TraceEvent::LeaseGranted { .. }
        | TraceEvent::LeaseExpired { .. }
        | TraceEvent::LeaseRevoked { .. }
        | TraceEvent::LockReleased { .. }
        | TraceEvent::FencingSet { .. }
        | TraceEvent::IssuerRolledBack { .. }
        | TraceEvent::StoreFailedOver { .. }
        | TraceEvent::ResourceRestored { .. }
        | TraceEvent::ResourceRestarted { .. }
        | TraceEvent::ClockJumped { .. } => BEAT_MS,
        TraceEvent::AcquireRefused { node, .. } => {
            let since = entry.at_ms.saturating_sub(RACE_WINDOW_MS);
            let raced = earlier
                .iter()
                .rev()
                .take_while(|e| e.at_ms >= since)
                .any(|e| matches!(&e.event, TraceEvent::LeaseGranted { node: winner, .. } if winner != node));
            if raced {
                BEAT_MS
            } else {
                0.0
            }
        }
        _ => 0.0,
    }
}

/// The fastest the clock may run while messages travel, in virtual ms per real ms (`None`: none
/// travels). A message waiting at a frozen node's door (arrived, not yet taken in) does not
/// travel.
fn flight_rate(sim: &Sim, share: f64) -> Option<f64> {
    let now = sim.now_ms();
    sim.snapshot()
        .in_flight
        .iter()
        .filter(|m| m.sent_ms <= now && m.arrive_ms > now)
        .map(|m| (m.arrive_ms - m.sent_ms) as f64 / (MIN_FLIGHT_MS * share))
        .min_by(f64::total_cmp)
}

/// The story's clock between frames: a beat being held, and how far behind plain time the story
/// is. Reset by itself when the clock it is given is not the one it left (a seek, a step, a new
/// run).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pacer {
    /// Real time the current beat is still held, in ms.
    hold_ms: f64,
    /// Real time spent on flights and beats beyond what plain time would have taken, in ms
    /// (0 ..= [`MAX_BEHIND_MS`]).
    behind_ms: f64,
    /// The clock the last frame ended at, in virtual ms.
    left_at_ms: Option<f64>,
}

impl Pacer {
    /// A pacer with nothing held.
    pub fn new() -> Self {
        Self::default()
    }

    /// Real time the current beat is still held, in ms.
    pub fn holding_ms(&self) -> f64 {
        self.hold_ms
    }

    /// One frame of `real_ms` of real time: moves the clock from `clock_ms` (virtual ms; `sim`
    /// stands at its whole part) and `sim` with it, through `timeline`'s interventions, and
    /// returns the new clock (never past the run's end, nor past `play.stop_at_ms`).
    pub fn frame(&mut self, timeline: &Timeline, sim: &mut Sim, clock_ms: f64, real_ms: f64, play: Play) -> f64 {
        let until = sim.config().until_ms as f64;
        let stop = play.stop_at_ms.map(|t| t as f64).filter(|t| clock_ms <= *t).unwrap_or(f64::INFINITY);
        let end = until.min(stop);
        let share = if play.pacing == Pacing::True { 0.0 } else { story_share(play.speed) };
        let real_ms = if real_ms.is_finite() { real_ms.max(0.0) } else { 0.0 };
        let speed = if play.speed.is_finite() && play.speed > 0.0 { play.speed } else { 1.0 };
        if share == 0.0 {
            *self = Self::default();
            let clock = (clock_ms + real_ms * speed).min(end).max(0.0);
            // `as` saturates: a huge clock cannot panic.
            timeline.advance(sim, clock.floor() as u64);
            self.left_at_ms = Some(clock);
            return clock;
        }
        if self.left_at_ms != Some(clock_ms) {
            *self = Self::default();
        }
        let mut clock = clock_ms;
        let mut budget = real_ms;
        for _ in 0..MAX_MOMENTS_PER_FRAME {
            if budget <= 0.0 || clock >= end {
                break;
            }
            if self.hold_ms > 0.0 {
                let used = self.hold_ms.min(budget);
                self.hold_ms -= used;
                budget -= used;
                self.behind_ms = (self.behind_ms + used).min(MAX_BEHIND_MS);
                continue;
            }
            let now = sim.now_ms();
            // The next moment something happens (a run stopped early has none).
            let next = if sim.finished() {
                end
            } else {
                [sim.next_event_ms(), timeline.next_intervention_ms(now)]
                    .into_iter()
                    .flatten()
                    .map(|t| t as f64)
                    .fold(end, f64::min)
                    .max(clock)
            };
            let flight = flight_rate(sim, share);
            let slowed = flight.filter(|r| *r < speed);
            let boosted = flight.is_none() && self.behind_ms > 0.0;
            // Real time until the story has caught up, running fast.
            let payoff = self.behind_ms / (QUIET_BOOST - 1.0);
            let (rate, span) = match (slowed, boosted) {
                (Some(r), _) => (r, budget),
                (None, true) => (speed * QUIET_BOOST, budget.min(payoff)),
                (None, false) => (speed, budget),
            };
            let reached = clock + span * rate >= next;
            let used = if reached { ((next - clock) / rate).max(0.0) } else { span };
            budget -= used;
            if slowed.is_some() {
                self.behind_ms = (self.behind_ms + used * (1.0 - rate / speed)).min(MAX_BEHIND_MS);
            } else if boosted {
                self.behind_ms = if used >= payoff { 0.0 } else { self.behind_ms - used * (QUIET_BOOST - 1.0) };
            }
            if !reached {
                clock += span * rate;
                continue;
            }
            clock = next;
            let before = sim.trace().len();
            timeline.advance(sim, next as u64);
            let trace = sim.trace();
            let mut sent = false;
            for (i, entry) in trace.iter().enumerate().skip(before) {
                sent |= matches!(entry.event, TraceEvent::MessageSent { .. });
                self.hold_ms = self.hold_ms.max(beat_ms(entry, &trace[..i]) * share);
            }
            // A message just left: the frame ends here, so it is drawn at its sender before it
            // moves, and its flight is paced from its first moment.
            if sent {
                break;
            }
        }
        // Between moments nothing happens: the engine only moves its clock.
        timeline.advance(sim, clock.floor() as u64);
        self.left_at_ms = Some(clock);
        clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{MessageKind, WireToken};

    fn entry(at_ms: u64, event: TraceEvent) -> TraceEntry {
        TraceEntry { seq: 0, at_ms, event }
    }

    fn granted(at_ms: u64, node: &str) -> TraceEntry {
        entry(at_ms, TraceEvent::LeaseGranted { node: node.into(), token: 1, lease_transitions: 0, expires_ms: 9_000 })
    }

    fn refused(at_ms: u64, node: &str) -> TraceEntry {
        entry(at_ms, TraceEvent::AcquireRefused { node: node.into(), holder: "xiu".into(), expires_ms: 9_000 })
    }

    #[test]
    fn the_share_is_full_up_to_4x_half_at_8x_and_none_from_16x() {
        for speed in [0.25, 0.5, 1.0, 2.0, 4.0] {
            assert_eq!(story_share(speed), 1.0, "{speed}×");
        }
        assert_eq!(story_share(8.0), 0.5);
        for speed in [16.0, 32.0, 64.0] {
            assert_eq!(story_share(speed), 0.0, "{speed}×");
        }
    }

    /// A refused acquire is a beat when it lost a race for the clasp, not when it is one more
    /// try against a holder of long standing.
    #[test]
    fn a_refusal_is_a_beat_only_right_after_another_grant() {
        let race = [granted(48, "xiu")];
        assert_eq!(beat_ms(&refused(49, "wang"), &race), BEAT_MS);
        assert_eq!(beat_ms(&refused(48 + RACE_WINDOW_MS + 1, "wang"), &race), 0.0);
        // The holder asking again is no race.
        assert_eq!(beat_ms(&refused(49, "xiu"), &race), 0.0);
        assert_eq!(beat_ms(&refused(49, "wang"), &[]), 0.0);
    }

    #[test]
    fn a_refused_write_is_held_longer_than_an_accepted_one() {
        let judged = |outcome| {
            entry(
                60_071,
                TraceEvent::WriteJudged {
                    op_id: "chen-8".into(),
                    from: Some("chen".into()),
                    token: WireToken::Number(7),
                    value: "chen#8".into(),
                    sent_ms: 60_000,
                    outcome,
                    high_water_before: 8,
                    high_water_after: 8,
                    fencing: true,
                    lock: None,
                    message: Some(67),
                    blocked: None,
                    resource: None,
                },
            )
        };
        assert_eq!(beat_ms(&judged(WriteOutcome::RejectedStale), &[]), VERDICT_MS);
        assert_eq!(beat_ms(&judged(WriteOutcome::Accepted), &[]), 0.0);
        let sent = TraceEvent::MessageSent {
            id: 1,
            kind: MessageKind::Write,
            from: crate::engine::Endpoint::Node("chen".into()),
            to: crate::engine::Endpoint::Resource,
            arrive_ms: 60_071,
            token: Some(WireToken::Number(7)),
            reply_to: None,
        };
        assert_eq!(beat_ms(&entry(60_000, sent), &[]), 0.0, "a flight is paced, not held");
    }
}
