//! The space-time diagram (issue 4): one lane per node, one for the store, one for the fenced
//! resource; bars for what each lane believes or holds; an arrow per message from its send to
//! its arrival, writes labelled with their token and ending in their verdict.
//!
//! Derived from the trace alone (a pure function, unit-tested natively); `ui::diagram` draws it.
//! The gap the diagram exists to show is between a node's *belief* bar (it thinks it leads) and
//! the store lane's *holds* bar (who the store says holds the lease): where a node believes and
//! the store says otherwise, a stale write can be on its way.

use crate::engine::{
    Endpoint, MessageKind, ReleaseOutcome, TraceEntry, TraceEvent, Violation, WireToken, WriteOutcome,
};

/// Which lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaneKey {
    Node(String),
    /// The coordinator or lock store.
    Store,
    /// The fenced resource.
    Resource,
}

/// What a bar on a lane says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BarKind {
    /// Node: believes it leads, with this token.
    Believes { token: u64 },
    /// Node: stopped leading, but its work still writes with this token.
    Zombie { token: u64 },
    /// Node: frozen (GC pause).
    Paused,
    /// Node: crashed.
    Crashed,
    /// Node: cut off (from everything, or from one side).
    Cut,
    /// Store: `holder` holds the lease with `token`, by the store's own judgement.
    Holds { holder: String, token: u64 },
}

/// A stretch of time on one lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bar {
    pub lane: usize,
    pub kind: BarKind,
    pub from_ms: u64,
    /// The end, or the diagram's `now_ms` while it lasts (`open`).
    pub to_ms: u64,
    pub open: bool,
}

/// How a message ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Still on its way at `now_ms`.
    InFlight,
    /// Arrived (a write: see `outcome`).
    Arrived,
    /// Lost (a partition, a crashed receiver).
    Lost,
}

/// A message, from send to arrival.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub id: u64,
    pub kind: MessageKind,
    pub from_lane: usize,
    pub to_lane: usize,
    pub sent_ms: u64,
    /// When it arrives (or arrived); for a lost message, when it was lost.
    pub end_ms: u64,
    pub fate: Fate,
    /// The token it carries, as shown (`7`, `∅`, …), if any.
    pub token: Option<String>,
    /// A write's verdict, once judged.
    pub outcome: Option<WriteOutcome>,
    /// The oracle reported a violation for this write.
    pub violation: bool,
    /// The refusal shut out the lock's rightful term ([`crate::engine::Blocked`]).
    pub blocked: bool,
}

/// A moment on a lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// A new term with its token.
    Grant { token: u64 },
    /// The lease ran out on the store's clock.
    Expired,
    /// Struck by the operator.
    Revoked,
    /// Released by its holder (or deleted by someone else's plain `DEL`: `by_other`).
    Released { by_other: bool },
    /// A write from outside, judged.
    /// `blocked`: the refusal shut out the lock's rightful term ([`crate::engine::Blocked`]).
    RawWrite { token: String, outcome: WriteOutcome, violation: bool, blocked: bool },
}

/// A moment on a lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub lane: usize,
    pub at_ms: u64,
    pub kind: MarkKind,
}

/// The whole diagram up to `now_ms`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagram {
    pub lanes: Vec<LaneKey>,
    pub bars: Vec<Bar>,
    pub arrows: Vec<Arrow>,
    pub marks: Vec<Mark>,
    pub now_ms: u64,
}

impl Diagram {
    /// The lane of node `id`.
    pub fn node_lane(&self, id: &str) -> Option<usize> {
        self.lanes.iter().position(|l| matches!(l, LaneKey::Node(n) if n == id))
    }
}

/// Lanes: the nodes in order, then the store, then the resource.
/// The lanes for these nodes, in drawing order: one per node, then the store, then the resource.
pub fn lanes(node_ids: &[String]) -> Vec<LaneKey> {
    let mut lanes: Vec<LaneKey> = node_ids.iter().cloned().map(LaneKey::Node).collect();
    lanes.push(LaneKey::Store);
    lanes.push(LaneKey::Resource);
    lanes
}

/// Open bars, keyed by (lane, which kind of bar).
#[derive(Default)]
struct Open {
    bars: Vec<(usize, u8, BarKind, u64)>,
    /// The store's current term: (bar start, holder, token, tentative end by its clock).
    held: Option<(u64, String, u64, u64)>,
}

impl Open {
    fn open(&mut self, lane: usize, slot: u8, kind: BarKind, at: u64, out: &mut Vec<Bar>) {
        self.close(lane, slot, at, out);
        self.bars.push((lane, slot, kind, at));
    }

    fn close(&mut self, lane: usize, slot: u8, at: u64, out: &mut Vec<Bar>) {
        if let Some(i) = self.bars.iter().position(|(l, s, _, _)| *l == lane && *s == slot) {
            let (lane, _, kind, from_ms) = self.bars.remove(i);
            out.push(Bar { lane, kind, from_ms, to_ms: at.max(from_ms), open: false });
        }
    }

    fn end_term(&mut self, store: usize, at: u64, out: &mut Vec<Bar>) {
        if let Some((from_ms, holder, token, _)) = self.held.take() {
            out.push(Bar {
                lane: store,
                kind: BarKind::Holds { holder, token },
                from_ms,
                to_ms: at.max(from_ms),
                open: false,
            });
        }
    }
}

const BELIEF: u8 = 0;
const ZOMBIE: u8 = 1;
const PAUSE: u8 = 2;
const CRASH: u8 = 3;
const CUT: u8 = 4;

fn token_label(t: &WireToken) -> String {
    t.label()
}

/// The diagram of `trace` (all entries up to `now_ms`) with one lane per node of `node_ids`.
/// `store_judges_expiry` is false under client-go's observer expiry: there the store's bar lasts
/// until someone else takes the lease, since the store never judges it expired.
pub fn diagram(trace: &[TraceEntry], node_ids: &[String], now_ms: u64, store_judges_expiry: bool) -> Diagram {
    let lanes = lanes(node_ids);
    let store = node_ids.len();
    let resource = store + 1;
    let lane_of = |id: &str| node_ids.iter().position(|n| n == id);
    let endpoint = |e: &Endpoint| match e {
        Endpoint::Node(id) => lane_of(id),
        Endpoint::Coordinator => Some(store),
        Endpoint::Resource | Endpoint::Outside => Some(resource),
    };
    let mut bars = Vec::new();
    let mut arrows: Vec<Arrow> = Vec::new();
    let mut marks = Vec::new();
    let mut open = Open::default();
    // Index in `arrows` of the last judged write, so a violation right after it marks it.
    let mut last_judged: Option<usize> = None;
    let mut last_raw_mark: Option<usize> = None;
    for entry in trace.iter().take_while(|e| e.at_ms <= now_ms) {
        let at = entry.at_ms;
        // A term the store judged over by its clock ends at its expiry, even before the event.
        match &entry.event {
            TraceEvent::MessageSent { id, kind, from, to, arrive_ms, token, .. } => {
                if let (Some(from_lane), Some(to_lane)) = (endpoint(from), endpoint(to)) {
                    arrows.push(Arrow {
                        id: *id,
                        kind: *kind,
                        from_lane,
                        to_lane,
                        sent_ms: at,
                        end_ms: *arrive_ms,
                        fate: if *arrive_ms <= now_ms { Fate::Arrived } else { Fate::InFlight },
                        token: token.as_ref().map(token_label),
                        outcome: None,
                        violation: false,
                        blocked: false,
                    });
                }
            }
            // Not found: lost at the sender (it was cut off), drawn as a stub of zero length.
            TraceEvent::MessageDropped { id, .. } => {
                if let Some(a) = arrows.iter_mut().rev().find(|a| a.id == *id) {
                    a.end_ms = at;
                    a.fate = Fate::Lost;
                }
            }
            TraceEvent::WriteJudged { message: Some(id), outcome, blocked, .. } => {
                last_raw_mark = None;
                last_judged = arrows.iter().rposition(|a| a.id == *id);
                if let Some(i) = last_judged {
                    arrows[i].outcome = Some(*outcome);
                    arrows[i].blocked = blocked.is_some();
                }
            }
            TraceEvent::WriteJudged { message: None, token, outcome, blocked, .. } => {
                last_judged = None;
                let (token, outcome, blocked) = (token_label(token), *outcome, blocked.is_some());
                marks.push(Mark {
                    lane: resource,
                    at_ms: at,
                    kind: MarkKind::RawWrite { token, outcome, violation: false, blocked },
                });
                last_raw_mark = Some(marks.len() - 1);
            }
            TraceEvent::ViolationFound { violation, .. } => {
                if matches!(violation, Violation::LockDeletedByNonOwner { .. }) {
                    continue;
                }
                if let Some(i) = last_judged {
                    arrows[i].violation = true;
                } else if let Some(i) = last_raw_mark {
                    if let MarkKind::RawWrite { violation, .. } = &mut marks[i].kind {
                        *violation = true;
                    }
                }
            }
            TraceEvent::BecameLeader { node, token } => {
                if let Some(l) = lane_of(node) {
                    open.close(l, ZOMBIE, at, &mut bars);
                    open.open(l, BELIEF, BarKind::Believes { token: *token }, at, &mut bars);
                }
            }
            TraceEvent::SteppedDown { node, .. } => {
                if let Some(l) = lane_of(node) {
                    open.close(l, BELIEF, at, &mut bars);
                }
            }
            TraceEvent::WorkContinues { node, token } => {
                if let Some(l) = lane_of(node) {
                    open.open(l, ZOMBIE, BarKind::Zombie { token: *token }, at, &mut bars);
                }
            }
            TraceEvent::WorkStopped { node, .. } => {
                if let Some(l) = lane_of(node) {
                    open.close(l, ZOMBIE, at, &mut bars);
                }
            }
            TraceEvent::Paused { node } => {
                if let Some(l) = lane_of(node) {
                    open.open(l, PAUSE, BarKind::Paused, at, &mut bars);
                }
            }
            TraceEvent::Resumed { node } => {
                if let Some(l) = lane_of(node) {
                    open.close(l, PAUSE, at, &mut bars);
                }
            }
            TraceEvent::Crashed { node } => {
                if let Some(l) = lane_of(node) {
                    for slot in [BELIEF, ZOMBIE, PAUSE] {
                        open.close(l, slot, at, &mut bars);
                    }
                    open.open(l, CRASH, BarKind::Crashed, at, &mut bars);
                }
            }
            TraceEvent::Restarted { node } => {
                if let Some(l) = lane_of(node) {
                    open.close(l, CRASH, at, &mut bars);
                }
            }
            TraceEvent::Partitioned { node } | TraceEvent::PartitionedFrom { node, .. } => {
                if let Some(l) = lane_of(node) {
                    open.open(l, CUT, BarKind::Cut, at, &mut bars);
                }
            }
            TraceEvent::Healed { node } => {
                if let Some(l) = lane_of(node) {
                    open.close(l, CUT, at, &mut bars);
                }
            }
            TraceEvent::LeaseGranted { node, token, expires_ms, .. } => {
                open.end_term(store, at, &mut bars);
                open.held = Some((at, node.clone(), *token, *expires_ms));
                marks.push(Mark { lane: store, at_ms: at, kind: MarkKind::Grant { token: *token } });
            }
            TraceEvent::LeaseRenewed { expires_ms, .. } | TraceEvent::LeaseReacquired { expires_ms, .. } => {
                if let Some(held) = open.held.as_mut() {
                    held.3 = *expires_ms;
                }
            }
            TraceEvent::LeaseExpired { .. } => {
                open.end_term(store, at, &mut bars);
                marks.push(Mark { lane: store, at_ms: at, kind: MarkKind::Expired });
            }
            TraceEvent::LeaseRevoked { holder: Some(_), .. } => {
                open.end_term(store, at, &mut bars);
                marks.push(Mark { lane: store, at_ms: at, kind: MarkKind::Revoked });
            }
            TraceEvent::LockReleased { outcome, .. } => {
                let by_other = matches!(outcome, ReleaseOutcome::DeletedOthers { .. });
                if by_other || *outcome == ReleaseOutcome::Released {
                    open.end_term(store, at, &mut bars);
                    marks.push(Mark { lane: store, at_ms: at, kind: MarkKind::Released { by_other } });
                }
            }
            _ => {}
        }
    }
    // What is still open lasts until now (a term the store judges ends at its expiry at most).
    for (lane, _, kind, from_ms) in open.bars {
        bars.push(Bar { lane, kind, from_ms, to_ms: now_ms.max(from_ms), open: true });
    }
    if let Some((from_ms, holder, token, expires)) = open.held {
        let to_ms = if store_judges_expiry { expires.min(now_ms) } else { now_ms };
        bars.push(Bar {
            lane: store,
            kind: BarKind::Holds { holder, token },
            from_ms,
            to_ms: to_ms.max(from_ms),
            open: true,
        });
    }
    crate::engine::queue::sort_by_keys(&mut bars, |b| (b.lane as u64, b.from_ms));
    Diagram { lanes, bars, arrows, marks, now_ms }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Sim;
    use crate::scenario::library;

    fn run(id: &str) -> (Sim, Vec<String>) {
        let s = library::get(id).expect("exists").expect("parses");
        let ids = s.config.nodes.iter().map(|n| n.id.clone()).collect();
        let mut sim = Sim::new(s.config).expect("valid");
        sim.run_to_end();
        (sim, ids)
    }

    /// Seed `000` on the diagram: Chen believes with 7 across his nap (20 s to 60 s) while the
    /// store's lane passes from Chen's 7 to Lin's 8; Chen's write with 7 crosses after 60 s and
    /// ends refused at the resource.
    #[test]
    fn harbor_zombie_shows_the_gap_between_belief_and_truth() {
        let (sim, ids) = run("harbor-zombie");
        let d = diagram(sim.trace(), &ids, sim.now_ms(), true);
        assert_eq!(d.lanes.len(), 4);
        let chen = d.node_lane("chen").expect("lane");
        let lin = d.node_lane("lin").expect("lane");
        let believes = |lane: usize, token: u64| {
            d.bars.iter().find(|b| b.lane == lane && b.kind == BarKind::Believes { token }).cloned().expect("a belief")
        };
        let chen7 = believes(chen, 7);
        let lin8 = believes(lin, 8);
        assert!(chen7.from_ms < 20_000 && chen7.to_ms >= 60_000, "{chen7:?}");
        assert!(lin8.from_ms > 20_000 && lin8.from_ms < 60_000, "{lin8:?}");
        let paused = d.bars.iter().find(|b| b.lane == chen && b.kind == BarKind::Paused).expect("the nap");
        assert_eq!((paused.from_ms, paused.to_ms), (20_000, 60_000));
        // The store's truth: Chen's 7 ended (expired) before Lin's 8 began.
        let store = ids.len();
        let terms: Vec<(String, u64, u64, u64)> = d
            .bars
            .iter()
            .filter_map(|b| match &b.kind {
                BarKind::Holds { holder, token } if b.lane == store => {
                    Some((holder.clone(), *token, b.from_ms, b.to_ms))
                }
                _ => None,
            })
            .collect();
        assert_eq!(terms.iter().map(|t| (t.0.as_str(), t.1)).collect::<Vec<_>>(), [("chen", 7), ("lin", 8)]);
        assert!(terms[0].3 <= terms[1].2, "one holder at a time: {terms:?}");
        assert!(terms[0].3 < chen7.to_ms, "Chen believes after the store stopped saying so");
        let grants: Vec<u64> = d
            .marks
            .iter()
            .filter_map(|m| match m.kind {
                MarkKind::Grant { token } => Some(token),
                _ => None,
            })
            .collect();
        assert_eq!(grants, [7, 8]);
        let stale = d
            .arrows
            .iter()
            .find(|a| a.kind == MessageKind::Write && a.from_lane == chen && a.sent_ms >= 60_000)
            .expect("Chen's flag on waking");
        assert_eq!(
            (stale.token.as_deref(), stale.outcome, stale.to_lane),
            (Some("7"), Some(WriteOutcome::RejectedStale), store + 1)
        );
        assert!(!stale.violation);
    }

    /// Without fencing the stale write is obeyed and marked as a violation.
    #[test]
    fn an_accepted_stale_write_stands_out() {
        let (sim, ids) = run("harbor-no-fencing");
        let d = diagram(sim.trace(), &ids, sim.now_ms(), true);
        let bad: Vec<&Arrow> = d.arrows.iter().filter(|a| a.violation).collect();
        assert!(!bad.is_empty());
        assert!(bad.iter().all(|a| a.outcome == Some(WriteOutcome::Accepted) && a.token.as_deref() == Some("7")));
    }

    /// Cut short at a moment, the diagram shows only what happened so far: open bars end now,
    /// and a message sent but not arrived is in flight.
    #[test]
    fn a_diagram_at_a_moment_ends_there() {
        let s = library::get("harbor-zombie").expect("exists").expect("parses");
        let ids: Vec<String> = s.config.nodes.iter().map(|n| n.id.clone()).collect();
        let mut sim = Sim::new(s.config).expect("valid");
        sim.advance_to(30_000);
        let d = diagram(sim.trace(), &ids, 30_000, true);
        assert!(d.bars.iter().all(|b| b.to_ms <= 30_000));
        let paused = d.bars.iter().find(|b| b.kind == BarKind::Paused).expect("the nap");
        assert!(paused.open && paused.to_ms == 30_000);
        assert!(d.arrows.iter().all(|a| a.sent_ms <= 30_000));
        assert!(d.arrows.iter().filter(|a| a.fate == Fate::InFlight).all(|a| a.end_ms > 30_000));
    }

    /// The lantern's plain DEL: releases end the store's terms, and one is marked as deleted by
    /// another borrower.
    #[test]
    fn releases_end_terms_on_the_store_lane() {
        let (sim, ids) = run("lock-late-del");
        let d = diagram(sim.trace(), &ids, sim.now_ms(), true);
        assert!(d.marks.iter().any(|m| m.kind == MarkKind::Released { by_other: true }));
        let store = ids.len();
        let mut terms: Vec<&Bar> = d.bars.iter().filter(|b| b.lane == store).collect();
        terms.sort_by_key(|b| b.from_ms);
        assert!(terms.windows(2).all(|w| w[0].to_ms <= w[1].from_ms), "never two holders on the store's lane");
    }
}
