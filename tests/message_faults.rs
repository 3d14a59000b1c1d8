//! One message's fault (issue 30): the network loses, holds back or copies the next message of
//! a kind between a node and the store or the resource (`Command::NextMessage`; `lose_next`,
//! `hold_next`, `copy_next` in files), as a scenario's step, a link's item and a search's choice.
//!
//! Each fault is checked against the same run without it: the message the fault picks is the
//! one the plain run sends first of that kind to or from that node, and everything before it is
//! the same.

mod common;

use leaselab::engine::search::{Goal, Lever, Outcome, Searcher, Space};
use leaselab::engine::{
    Command, Config, Endpoint, MessageFault, MessageKind, ScheduledCommand, Sim, TraceEntry, TraceEvent, Violation,
    WriteOutcome,
};
use leaselab::scenario::link;

/// The harbor with fencing and without its scripted nap: Chen leads from the start, renewing,
/// and writes with his token.
fn harbor() -> Config {
    let mut c = common::builtin("harbor-zombie").config;
    c.events.clear();
    c.until_ms = 40_000;
    c
}

fn played(config: &Config, interventions: &[ScheduledCommand]) -> Sim {
    let mut sim = Sim::replay(config.clone(), interventions).expect("a valid run");
    sim.run_to_end();
    sim
}

fn fault(kind: MessageKind, fault: MessageFault) -> Vec<ScheduledCommand> {
    vec![ScheduledCommand { at_ms: 0, command: Command::NextMessage { node: "chen".into(), kind, fault } }]
}

/// The first message of `kind` sent to or from `node` in `sim`: its trace entry, id and arrival.
fn first_sent<'a>(sim: &'a Sim, kind: MessageKind, node: &str) -> (&'a TraceEntry, u64, u64) {
    let at_node = Endpoint::Node(node.into());
    sim.trace()
        .iter()
        .find_map(|e| match &e.event {
            TraceEvent::MessageSent { id, kind: k, from, to, arrive_ms, .. }
                if *k == kind && (*from == at_node || *to == at_node) =>
            {
                Some((e, *id, *arrive_ms))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("the plain run sends a {}", kind.code()))
}

/// The trace before `seq`, without the entry that armed the fault.
fn before(sim: &Sim, at_ms: u64) -> Vec<&TraceEvent> {
    sim.trace()
        .iter()
        .filter(|e| e.at_ms < at_ms && !matches!(e.event, TraceEvent::MessageFaultArmed { .. }))
        .map(|e| &e.event)
        .collect()
}

#[test]
fn a_lost_message_is_the_first_of_its_kind_and_never_arrives() {
    let config = harbor();
    let plain = played(&config, &[]);
    let (sent, id, _) = first_sent(&plain, MessageKind::RenewReply, "chen");
    let lost = played(&config, &fault(MessageKind::RenewReply, MessageFault::Lose));
    assert_eq!(before(&lost, sent.at_ms), before(&plain, sent.at_ms), "the same run up to the reply");
    let dropped = lost.trace().iter().find(|e| matches!(e.event, TraceEvent::MessageDropped { id: i, .. } if i == id));
    let dropped = dropped.expect("the reply is dropped");
    assert_eq!(dropped.at_ms, sent.at_ms, "lost as it is sent");
    assert!(
        !lost.trace().iter().any(|e| matches!(e.event, TraceEvent::MessageSent { id: i, .. } if i == id)),
        "a lost message is not sent"
    );
    // One fault, one message: the next renewal reply to Chen reaches him.
    let later = lost.trace().iter().any(|e| {
        e.at_ms > sent.at_ms
            && matches!(&e.event, TraceEvent::MessageSent { kind: MessageKind::RenewReply, to: Endpoint::Node(n), .. } if n == "chen")
    });
    assert!(later, "the renewal replies after it travel");
}

#[test]
fn a_held_message_arrives_its_hold_later() {
    let config = harbor();
    let plain = played(&config, &[]);
    let (sent, id, arrive_ms) = first_sent(&plain, MessageKind::RenewRequest, "chen");
    let held = played(&config, &fault(MessageKind::RenewRequest, MessageFault::Hold { by_ms: 4_000 }));
    assert_eq!(before(&held, sent.at_ms), before(&plain, sent.at_ms));
    let (again, id_again, arrive_again) = first_sent(&held, MessageKind::RenewRequest, "chen");
    assert_eq!((again.at_ms, id_again), (sent.at_ms, id), "the same message, sent at the same moment");
    assert_eq!(arrive_again, arrive_ms + 4_000, "its drawn latency plus the hold");
    assert!(held
        .trace()
        .iter()
        .any(|e| matches!(e.event, TraceEvent::MessageHeldBack { id: i, by_ms: 4_000, .. } if i == id)));
}

/// Seeds 002 and 004: a token equal to the high-water mark passes (the policy the harbor's
/// verifier states), so a copy of Chen's write passes the fence as the write did; fencing is not
/// idempotency, and the run says so as a duplicated side effect.
#[test]
fn a_copied_write_passes_the_fence_twice() {
    let config = harbor();
    let plain = played(&config, &[]);
    let (_, id, _) = first_sent(&plain, MessageKind::Write, "chen");
    let copied = played(&config, &fault(MessageKind::Write, MessageFault::Copy));
    let copy = copied.trace().iter().find_map(|e| match e.event {
        TraceEvent::MessageDuplicated { id: c, copy_of, .. } if copy_of == id => Some(c),
        _ => None,
    });
    assert!(copy.is_some(), "the write is copied");
    let accepted: Vec<&TraceEntry> = copied
        .trace()
        .iter()
        .filter(|e| matches!(&e.event, TraceEvent::WriteJudged { op_id, outcome: WriteOutcome::Accepted | WriteOutcome::Duplicate, .. } if op_id == "chen-1"))
        .collect();
    assert_eq!(accepted.len(), 2, "both copies pass the fence: {accepted:?}");
    assert!(copied.trace().iter().any(|e| matches!(&e.event, TraceEvent::ViolationFound { violation: Violation::DuplicateSideEffect { op_id, .. }, .. } if op_id == "chen-1")));
    // Without the fault, the plain run writes chen-1 once.
    assert!(!plain.trace().iter().any(|e| matches!(
        e.event,
        TraceEvent::ViolationFound { violation: Violation::DuplicateSideEffect { .. }, .. }
    )));
}

#[test]
fn a_search_of_copies_finds_the_duplicate_with_one() {
    let mut space = Space { max_interventions: 1, scripted: false, ..Space::default() };
    for lever in Lever::ALL {
        space.allow(lever, lever == Lever::CopyMessage);
    }
    let outcome = Searcher::new(harbor(), &[Goal::DuplicateSideEffect], &space).expect("valid").finish();
    let Outcome::Found { found, .. } = outcome else { panic!("a copy duplicates a write: {outcome:?}") };
    assert_eq!(found.depth, 1);
    let copies: Vec<&Command> = found
        .interventions
        .iter()
        .map(|i| &i.command)
        .filter(|c| matches!(c, Command::NextMessage { fault: MessageFault::Copy, .. }))
        .collect();
    assert_eq!(copies.len(), 1, "{:?}", found.interventions);
    // Its run, replayed from its interventions (as a link carries them), meets it.
    let replayed = link::decode(&link::encode(&found.interventions).expect("a link carries it")).expect("reads back");
    assert_eq!(replayed, found.interventions);
    let run = played(&harbor(), &replayed);
    assert!(run.trace().iter().any(|e| matches!(
        e.event,
        TraceEvent::ViolationFound { violation: Violation::DuplicateSideEffect { .. }, .. }
    )));
    assert_eq!(run.trace_hash(), found.trace_hash);
    // Losing or holding one message is not enough: the same question finds nothing then.
    for lever in [Lever::LoseMessage, Lever::HoldMessage] {
        let mut other = space.clone();
        other.allow(Lever::CopyMessage, false);
        other.allow(lever, true);
        let outcome = Searcher::new(harbor(), &[Goal::DuplicateSideEffect], &other).expect("valid").finish();
        assert!(matches!(outcome, Outcome::NoneWithinBounds { .. }), "{lever:?}: {outcome:?}");
    }
}

#[test]
fn the_levers_set_the_space() {
    let plain = Space::default();
    for lever in Lever::ALL {
        assert_eq!(lever.default_on(), plain.pulls(lever), "{lever:?}");
        let mut s = Space::default();
        s.allow(lever, true);
        assert!(s.pulls(lever) && s.check().is_ok(), "{lever:?}");
        s.allow(lever, false);
        assert!(!s.pulls(lever), "{lever:?}");
        // Each lever sets its own field only.
        let others = |s: &Space| Lever::ALL.iter().filter(|l| **l != lever).map(|l| s.pulls(*l)).collect::<Vec<_>>();
        assert_eq!(others(&s), others(&plain), "{lever:?}");
    }
    assert_eq!(Lever::ALL.iter().map(|l| l.code()).collect::<std::collections::HashSet<_>>().len(), Lever::ALL.len());
}

#[test]
fn files_and_links_carry_a_message_fault() {
    let file = |event: &str| {
        format!(
            r#"{{"format":"leaselab.scenario/1","id":"t","fable":"harbor","title":{{"en":"t","zh":"t"}},
            "nodes":[{{"id":"chen"}}],"events":[{event}]}}"#
        )
    };
    let read = |event: &str| leaselab::scenario::parse(&file(event));
    let s = read(r#"{"at_ms":5000,"do":"hold_next","node":"chen","message":"renew_request","by_ms":3000}"#)
        .expect("a held renewal");
    assert_eq!(
        s.config.events,
        vec![ScheduledCommand {
            at_ms: 5_000,
            command: Command::NextMessage {
                node: "chen".into(),
                kind: MessageKind::RenewRequest,
                fault: MessageFault::Hold { by_ms: 3_000 }
            }
        }]
    );
    for (event, path, says) in [
        (r#"{"at_ms":1,"do":"lose_next","node":"chen","message":"renewal"}"#, "events[0].message", "renew_reply"),
        (r#"{"at_ms":1,"do":"hold_next","node":"chen","message":"write"}"#, "events[0].by_ms", "required"),
        (
            r#"{"at_ms":1,"do":"copy_next","node":"chen","message":"write","by_ms":5}"#,
            "events[0].by_ms",
            "does not apply",
        ),
        (r#"{"at_ms":1,"do":"lose_next","node":"chen"}"#, "events[0].message", "required"),
        (r#"{"at_ms":1,"do":"hold_next","node":"chen","message":"write","by_ms":0}"#, "by_ms", "between 1"),
        (r#"{"at_ms":1,"do":"copy_next","node":"nobody","message":"write"}"#, "events[0]", "nobody"),
    ] {
        let err = read(event).expect_err(event).to_string();
        assert!(err.contains(path) && err.contains(says), "{event}: {err}");
    }
    for item in ["0.m.chen.write.lose", "0.m.chen.renew_reply.hold.2500", "0.m.chen.acquire_request.copy"] {
        let commands = link::decode(item).expect(item);
        assert_eq!(link::encode(&commands).as_deref(), Some(item));
    }
    for bad in ["0.m.chen.renewal.lose", "0.m.chen.write.hold", "0.m.chen.write.hold.0", "0.m.chen.write.burn"] {
        assert!(link::decode(bad).is_err(), "{bad}");
    }
}
