//! Story-time pacing (issue 12): played in simulated frames of 16.7 ms of real time, every
//! message is on screen in flight for at least 0.6 s up to 4×, the key moments are held, and the
//! run itself (its trace, its hash) is exactly the unpaced one. No wall clock: real time here is
//! the sum of the simulated frames.

mod common;

use std::collections::BTreeMap;

use common::*;
use leaselab::engine::timeline::Timeline;
use leaselab::engine::{Command, MessageKind, Sim, TraceEvent, WireToken};
use leaselab::scenario::Pacing;
use leaselab::story::pacing::{Pacer, Play, BEAT_MS, QUIET_BOOST, VERDICT_MS};

/// One animation frame at 60 Hz, in real ms.
const FRAME_MS: f64 = 16.7;
/// What the issue asks: every message on screen in flight at least this long, in real ms.
const ON_SCREEN_MS: f64 = 600.0;

/// A run played the way the page plays it: the engine at the clock's whole ms, one pacer.
struct Player {
    timeline: Timeline,
    sim: Sim,
    clock_ms: f64,
    pacer: Pacer,
    play: Play,
    /// Simulated real time so far, in ms.
    real_ms: f64,
    /// Per message id: when it was first drawn in flight and when it was first gone (real ms).
    seen: BTreeMap<u64, (f64, Option<f64>)>,
}

impl Player {
    fn new(id: &str, speed: f64, pacing: Pacing) -> Player {
        let config = builtin(id).config;
        let timeline = Timeline::new(config.clone()).expect("valid");
        let mut sim = Sim::new(config).expect("valid");
        sim.advance_to(0);
        let mut player = Player {
            timeline,
            sim,
            clock_ms: 0.0,
            pacer: Pacer::new(),
            play: Play { speed, pacing, stop_at_ms: None },
            real_ms: 0.0,
            seen: BTreeMap::new(),
        };
        player.look();
        player
    }

    /// Jumps to `t_ms` as the time slider does.
    fn seek(&mut self, t_ms: u64) {
        self.sim = self.timeline.seek(t_ms);
        self.clock_ms = self.sim.now_ms() as f64;
        self.look();
    }

    /// Notes which messages are on screen now (what the snapshot's `in_flight` draws).
    fn look(&mut self) {
        let now = self.real_ms;
        let shown: Vec<u64> = self.sim.snapshot().in_flight.iter().map(|m| m.id).collect();
        for id in &shown {
            self.seen.entry(*id).or_insert((now, None));
        }
        for (id, (_, gone)) in self.seen.iter_mut() {
            if gone.is_none() && !shown.contains(id) {
                *gone = Some(now);
            }
        }
    }

    /// One frame; returns how far the clock moved, in virtual ms.
    fn frame(&mut self) -> f64 {
        let before = self.clock_ms;
        self.clock_ms = self.pacer.frame(&self.timeline, &mut self.sim, self.clock_ms, FRAME_MS, self.play);
        self.real_ms += FRAME_MS;
        self.look();
        self.clock_ms - before
    }

    /// Frames until the clock reaches `t_ms` (or the run ends); fails after `limit` frames.
    fn play_to(&mut self, t_ms: u64, limit: usize) {
        for _ in 0..limit {
            if self.clock_ms >= t_ms as f64 || self.sim.finished() {
                return;
            }
            self.frame();
        }
        panic!("{limit} frames did not reach {t_ms} ms (the clock is at {} ms)", self.clock_ms);
    }

    /// How long message `id` was on screen in flight, in real ms (`None`: never seen, or still
    /// there).
    fn on_screen_ms(&self, id: u64) -> Option<f64> {
        let (from, gone) = self.seen.get(&id)?;
        Some((*gone)? - from)
    }
}

/// `(id, kind, sender, token)` of every message sent in `[from_ms, to_ms)`, from the trace.
fn sent(sim: &Sim, from_ms: u64, to_ms: u64) -> Vec<(u64, MessageKind, String, Option<WireToken>)> {
    sim.trace()
        .iter()
        .filter(|e| (from_ms..to_ms).contains(&e.at_ms))
        .filter_map(|e| match &e.event {
            TraceEvent::MessageSent { id, kind, from, token, .. } => {
                Some((*id, *kind, format!("{from:?}"), token.clone()))
            }
            _ => None,
        })
        .collect()
}

/// Chen's write with 7 after he wakes at 60 s (the one the verifier voids), by message id.
fn chens_late_seven(sim: &Sim) -> u64 {
    let late: Vec<u64> = sent(sim, 60_000, 90_000)
        .into_iter()
        .filter(|(_, kind, from, token)| {
            *kind == MessageKind::Write && from.contains("chen") && *token == Some(WireToken::Number(7))
        })
        .map(|(id, ..)| id)
        .collect();
    assert_eq!(late.len(), 1, "Chen waves his 7 once after waking: {late:?}");
    late[0]
}

#[test]
fn chens_seven_flies_for_at_least_600_ms_at_1x_and_4x() {
    for speed in [1.0, 4.0] {
        let mut p = Player::new("harbor-zombie", speed, Pacing::Story);
        p.seek(59_000);
        p.play_to(62_000, 20_000);
        let id = chens_late_seven(&p.sim);
        let shown = p.on_screen_ms(id).expect("Chen's 7 was drawn in flight and then arrived");
        println!("{speed}×: Chen's 7 on screen in flight for {shown:.0} ms of real time");
        assert!(shown >= ON_SCREEN_MS, "at {speed}×, Chen's 7 was on screen for {shown:.0} ms");
        // Linearly it would have flown for its latency / speed: far too short to see.
        let latency = p.sim.trace().iter().find_map(|e| match &e.event {
            TraceEvent::WriteJudged { message: Some(m), sent_ms, .. } if *m == id => Some(e.at_ms - sent_ms),
            _ => None,
        });
        let linear = latency.expect("the 7 was judged") as f64 / speed;
        assert!(linear < 100.0, "the latency alone ({linear} ms of real time) would hide the flight");
    }
}

#[test]
fn every_message_of_the_first_minute_is_seen_in_flight_at_1x_and_4x() {
    for speed in [1.0, 4.0] {
        let mut p = Player::new("harbor-zombie", speed, Pacing::Story);
        p.play_to(61_000, 40_000);
        let first_minute = sent(&p.sim, 0, 60_000);
        assert!(first_minute.len() > 50, "harbor-zombie's first minute is busy: {}", first_minute.len());
        let kinds: Vec<MessageKind> = first_minute.iter().map(|m| m.1).collect();
        for kind in [
            MessageKind::AcquireRequest,
            MessageKind::AcquireReply,
            MessageKind::RenewRequest,
            MessageKind::RenewReply,
            MessageKind::Write,
        ] {
            assert!(kinds.contains(&kind), "{kind:?} is among the first minute's messages");
        }
        for (id, kind, from, _) in first_minute {
            let shown = p.on_screen_ms(id).unwrap_or_else(|| panic!("{speed}×: {kind:?} #{id} from {from} never seen"));
            assert!(shown >= ON_SCREEN_MS, "{speed}×: {kind:?} #{id} from {from} on screen {shown:.0} ms");
        }
    }
}

/// The lock protocol's release travels too (`lock-owner-release` releases its lock).
#[test]
fn a_release_is_seen_in_flight() {
    let mut p = Player::new("lock-owner-release", 4.0, Pacing::Story);
    p.play_to(u64::MAX, 200_000);
    let releases: Vec<u64> =
        sent(&p.sim, 0, u64::MAX).into_iter().filter(|m| m.1 == MessageKind::ReleaseRequest).map(|m| m.0).collect();
    assert!(!releases.is_empty(), "lock-owner-release sends a release");
    for id in releases {
        let shown = p.on_screen_ms(id).expect("the release was drawn");
        assert!(shown >= ON_SCREEN_MS, "release #{id} on screen {shown:.0} ms");
    }
}

#[test]
fn the_two_hands_on_the_clasp_are_seen_travelling_together_and_the_latch_is_held() {
    let mut p = Player::new("lantern-race", 1.0, Pacing::Story);
    let requests: Vec<u64> = p.sim.snapshot().in_flight.iter().map(|m| m.id).collect();
    assert_eq!(requests.len(), 2, "both borrowers set out at 0 ms");
    // A frame where both are on their way, neither arrived.
    let mut together = 0.0;
    let mut latched_at = None;
    let mut refused_at = None;
    for _ in 0..400 {
        p.frame();
        let now = p.sim.now_ms();
        let snap = p.sim.snapshot();
        let travelling = snap.in_flight.iter().filter(|m| requests.contains(&m.id) && m.arrive_ms > now).count();
        if travelling == 2 {
            together += FRAME_MS;
        }
        let has = |pred: &dyn Fn(&TraceEvent) -> bool| p.sim.trace().iter().any(|e| pred(&e.event));
        if latched_at.is_none() && has(&|e| matches!(e, TraceEvent::LeaseGranted { .. })) {
            latched_at = Some(p.real_ms);
        }
        if refused_at.is_none() && has(&|e| matches!(e, TraceEvent::AcquireRefused { .. })) {
            refused_at = Some(p.real_ms);
        }
    }
    for id in &requests {
        let shown = p.on_screen_ms(*id).expect("each request arrives");
        assert!(shown >= ON_SCREEN_MS, "request #{id} on screen {shown:.0} ms");
    }
    assert!(together >= ON_SCREEN_MS, "both hands reach for the clasp together for {together:.0} ms");
    let (latched, refused) = (latched_at.expect("one latches"), refused_at.expect("one is too late"));
    // 1 ms of virtual time apart: the latch is held before the other finds the clasp taken.
    assert!(refused - latched >= BEAT_MS - FRAME_MS, "the latch was on screen alone for {:.0} ms", refused - latched);
}

/// Chen wakes → waves 7 (held at his post) → the flag flies → the verifier voids it (held).
#[test]
fn the_beats_of_chens_waking_are_held() {
    let mut p = Player::new("harbor-zombie", 1.0, Pacing::Story);
    p.seek(59_990);
    p.play_to(60_000, 100);
    let woke = p.real_ms;
    let id = chens_late_seven(&p.sim);
    // He wakes with the flag in his hand: the clock stands while it has not left him.
    let mut waving = 0.0;
    while p.sim.now_ms() == 60_000 {
        p.frame();
        waving += FRAME_MS;
    }
    assert!(waving >= BEAT_MS, "Chen waving his 7 was held {waving:.0} ms");
    let voided = |sim: &Sim| {
        sim.trace().iter().any(|e| matches!(&e.event, TraceEvent::WriteJudged { message: Some(m), .. } if *m == id))
    };
    while !voided(&p.sim) {
        p.frame();
    }
    let flew = p.real_ms - woke - waving;
    assert!(flew >= ON_SCREEN_MS, "the flag flew for {flew:.0} ms");
    let judged_at = p.sim.now_ms();
    let mut held = 0.0;
    while p.sim.now_ms() == judged_at {
        p.frame();
        held += FRAME_MS;
    }
    assert!(held >= VERDICT_MS - FRAME_MS, "the voided 7 was held {held:.0} ms");
}

#[test]
fn from_16x_and_in_true_time_the_clock_is_plain() {
    for (speed, pacing) in
        [(16.0, Pacing::Story), (32.0, Pacing::Story), (64.0, Pacing::Story), (1.0, Pacing::True), (4.0, Pacing::True)]
    {
        let mut p = Player::new("harbor-zombie", speed, pacing);
        p.seek(58_000);
        for _ in 0..300 {
            if p.clock_ms + FRAME_MS * speed > 90_000.0 {
                break;
            }
            let moved = p.frame();
            assert!((moved - FRAME_MS * speed).abs() < 1e-6, "{speed}× {pacing:?}: a frame moved {moved} ms");
        }
    }
}

/// Story pacing really changes the telling below 16×: the frame around Chen's 7 is slower than
/// plain time (the test above would pass for any clock otherwise).
#[test]
fn story_time_is_slower_than_plain_time_around_a_flight() {
    for speed in [1.0, 4.0, 8.0] {
        let mut p = Player::new("harbor-zombie", speed, Pacing::Story);
        p.seek(60_000);
        let moved = p.frame();
        assert!(moved < FRAME_MS * speed / 4.0, "{speed}×: a frame moved {moved} ms while the 7 flies");
    }
}

#[test]
fn a_quiet_stretch_makes_up_time_at_most_twice_as_fast() {
    let speed = 1.0;
    let mut p = Player::new("harbor-zombie", speed, Pacing::Story);
    let travelling = |p: &Player| {
        let now = p.sim.now_ms();
        p.sim.snapshot().in_flight.iter().any(|m| m.arrive_ms > now)
    };
    let sends = |p: &Player| p.sim.trace().iter().filter(|e| matches!(e.event, TraceEvent::MessageSent { .. })).count();
    let mut fastest: f64 = 0.0;
    let mut quiet_frames = 0;
    while p.clock_ms < 20_000.0 {
        let quiet = !travelling(&p) && p.pacer.holding_ms() == 0.0;
        let before = sends(&p);
        let moved = p.frame();
        if quiet && sends(&p) == before && p.pacer.holding_ms() == 0.0 {
            quiet_frames += 1;
            fastest = fastest.max(moved);
            assert!(moved >= FRAME_MS * speed - 1e-6, "a quiet frame at {} ms moved only {moved} ms", p.clock_ms);
            assert!(moved <= FRAME_MS * speed * QUIET_BOOST + 1e-6, "a quiet frame moved {moved} ms");
        }
    }
    assert!(quiet_frames > 100, "harbor-zombie has quiet stretches: {quiet_frames} frames");
    assert!(fastest > FRAME_MS * speed * 1.5, "quiet stretches make up time: at most {fastest} ms a frame");
    // With nothing to make up (a seek starts afresh) a quiet stretch runs at the chosen speed:
    // Lin's answer arrived at 613 ms, her next try is at 2 500 ms.
    p.seek(1_000);
    while p.clock_ms < 2_400.0 {
        let moved = p.frame();
        assert!((moved - FRAME_MS * speed).abs() < 1e-6, "at {} ms a frame moved {moved} ms", p.clock_ms);
    }
}

/// A message waiting at a frozen node's door has arrived: it does not slow the clock.
#[test]
fn a_message_held_at_a_sleepers_door_does_not_slow_the_clock() {
    let mut p = Player::new("harbor-zombie", 1.0, Pacing::Story);
    // Lin asks at 500 ms; the answer reaches her at 613 ms, after she fell asleep at 600 ms.
    p.timeline.intervene(600, Command::Pause { node: "lin".into(), for_ms: None }).expect("valid");
    p.play_to(1_000, 2_000);
    let waiting = p.sim.snapshot().in_flight;
    assert!(
        waiting.iter().any(|m| m.kind == MessageKind::AcquireReply && m.arrive_ms <= p.sim.now_ms()),
        "Lin's answer waits at her door: {waiting:?}"
    );
    p.play_to(2_000, 2_000);
    while p.clock_ms < 3_000.0 {
        let moved = p.frame();
        assert!(moved >= FRAME_MS - 1e-6, "at {} ms a frame moved only {moved} ms", p.clock_ms);
    }
}

/// A lesson step's awaited moment: the clock stops there, paced or not.
#[test]
fn the_clock_stops_at_a_lesson_moment() {
    for speed in [1.0, 4.0, 64.0] {
        let mut p = Player::new("harbor-zombie", speed, Pacing::Story);
        p.play.stop_at_ms = Some(30_536);
        p.seek(29_000);
        for _ in 0..2_000 {
            p.frame();
            assert!(p.clock_ms <= 30_536.0, "{speed}×: the clock passed the stop: {}", p.clock_ms);
        }
        assert_eq!(p.sim.now_ms(), 30_536, "{speed}×: the clock waits at the stop");
    }
}

/// A seek drops a beat being held: the run moves on from the new moment at once.
#[test]
fn a_seek_drops_the_beat_held() {
    let mut p = Player::new("harbor-zombie", 1.0, Pacing::Story);
    p.seek(59_999);
    p.frame();
    assert!(p.pacer.holding_ms() > 0.0, "Chen's waking is being held");
    p.seek(45_000);
    assert!(p.frame() > 0.0, "after a seek the clock moves on");
}

/// Presentation only: a paced run, with interventions, ends in the very trace and hash of the
/// unpaced one.
#[test]
fn a_paced_run_has_the_unpaced_trace_and_hash() {
    for (id, speed) in [("harbor-zombie", 1.0), ("harbor-zombie", 4.0), ("lantern-race", 8.0), ("lantern-ditch", 2.0)] {
        let mut p = Player::new(id, speed, Pacing::Story);
        let node = p.sim.snapshot().nodes[0].id.clone();
        p.timeline.intervene(1_234, Command::Pause { node: node.clone(), for_ms: Some(4_000) }).expect("valid");
        p.timeline.intervene(9_000, Command::SetFencing { on: false }).expect("valid");
        p.play_to(u64::MAX, 1_000_000);
        assert!(p.sim.finished(), "{id} {speed}×: played to the end");
        let interventions = p.timeline.interventions().to_vec();
        let mut plain = Sim::replay(p.timeline.config().clone(), &interventions).expect("valid");
        plain.run_to_end();
        assert_eq!(p.sim.trace(), plain.trace(), "{id} {speed}×: the trace");
        assert_eq!(p.sim.trace_hash(), plain.trace_hash(), "{id} {speed}×: the hash");
        let unpaced = run(&builtin(id));
        assert_ne!(plain.trace_hash(), unpaced.trace_hash(), "{id}: the interventions changed the run");
    }
}
