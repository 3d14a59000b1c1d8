//! The lantern and fencing lessons say what the engine shows: each key step ends at the moment
//! the seed documents describe, with the values they give (seed 001, the lantern of Nantang;
//! seeds 002 and 004, the field notes and the Q&A on fencing tokens) or the values a scenario's
//! file states as its design (its TTL, its events, its summary). Numbers the program merely
//! printed are not asserted.

use leaselab::engine::Sim;
use leaselab::scenario::lesson::{self, Lesson};
use leaselab::scenario::{library, Report, Scenario};
use serde_json::{json, Value};

const LANTERN: &str = "lantern-return-hour";
const FENCING: &str = "fencing-in-depth";

fn lesson(id: &str) -> Lesson {
    library::lessons::get(id).expect("built-in").expect("valid")
}

fn scenario(id: &str) -> Scenario {
    library::get(id).expect("built-in").expect("valid")
}

/// One step of a built-in lesson, played as the lesson plays it.
struct Played {
    /// The step's scenario.
    scenario: Scenario,
    /// When the step begins.
    start_ms: u64,
    /// When its awaited event happens.
    at_ms: u64,
    /// The awaited event, as `leaselab trace` prints it.
    event: Value,
    /// Every trace entry from the step's start to the awaited one (included): `(at_ms, event)`.
    window: Vec<(u64, Value)>,
    /// The whole run the step is part of, played to its end: `(at_ms, event)`.
    run: Vec<(u64, Value)>,
}

impl Played {
    /// The events of the window of type `ty`, with their times.
    fn window_of(&self, ty: &str) -> Vec<(u64, &Value)> {
        self.window.iter().filter(|(_, e)| e["type"] == ty).map(|(t, e)| (*t, e)).collect()
    }

    /// The events of the whole run of type `ty`, with their times.
    fn run_of(&self, ty: &str) -> Vec<(u64, &Value)> {
        self.run.iter().filter(|(_, e)| e["type"] == ty).map(|(t, e)| (*t, e)).collect()
    }
}

/// The step titled `title` (English) of lesson `id`: its start and its awaited entry, in a fresh
/// run of its start (as `tests/lessons.rs` finds them), and the trace in between.
fn played(id: &str, title: &str) -> Played {
    let lesson = lesson(id);
    let plan = lesson::plan(&lesson, library::get).expect("plays");
    let i = lesson.steps.iter().position(|s| s.title.en == title).unwrap_or_else(|| panic!("{id}: no step {title:?}"));
    let (t, seq) = plan[i].until.unwrap_or_else(|| panic!("{id}: step {title:?} awaits no event"));
    let start = &plan[i].start;
    let scenario = scenario(&start.scenario);
    let mut sim = Sim::replay(scenario.config.clone(), &start.interventions).expect("replays");
    sim.advance_to(t);
    let json = |e: &leaselab::engine::TraceEntry| (e.at_ms, serde_json::to_value(&e.event).expect("serializes"));
    let end = sim.trace().iter().position(|e| e.seq == seq).expect("the awaited entry is in the trace");
    let window: Vec<(u64, Value)> = sim.trace()[start.trace_len..=end].iter().map(json).collect();
    let (at_ms, event) = window.last().cloned().expect("the window holds the awaited entry");
    assert_eq!(at_ms, t);
    sim.run_to_end();
    let run = sim.trace().iter().map(json).collect();
    Played { scenario, start_ms: start.at_ms, at_ms, event, window, run }
}

fn report(s: &Scenario) -> Report {
    Report::run(s).expect("valid config")
}

// ----- both lessons: the shape the brief and the format ask for -----

#[test]
fn both_lessons_have_predictions_an_audience_question_and_a_closing_metaphor_table() {
    for id in [LANTERN, FENCING] {
        let l = lesson(id);
        assert!((7..=12).contains(&l.steps.len()), "{id}: {} steps", l.steps.len());
        let asks: Vec<_> = l.steps.iter().filter_map(|s| s.ask.as_ref()).collect();
        assert!(asks.len() >= 2, "{id}: at least two predictions");
        assert_eq!(asks.iter().filter(|a| a.countdown_s.is_some()).count(), 1, "{id}: one audience question");
        let last = l.steps.last().expect("steps");
        assert!(last.metaphors && last.until.is_none(), "{id}: ends on the metaphor table");
        assert!(l.metaphors.len() >= 8, "{id}: a full metaphor table");
        for (i, s) in l.steps.iter().enumerate() {
            // Every step but the closing words moves on by an engine event, and the narration
            // points at what it talks about.
            if i + 2 < l.steps.len() {
                assert!(s.until.is_some(), "{id} step {i} waits for an engine event");
            }
            if s.until.is_some() {
                assert!(!s.point.is_empty(), "{id} step {i} points at something");
            }
            for text in [&s.title, &s.text] {
                assert!(text.zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{id} step {i}: {}", text.zh);
            }
        }
    }
    assert_eq!(lesson(LANTERN).fable, leaselab::vocab::Fable::from_code("lantern"), "every scene told as the lantern");
    let menu: Vec<&str> = library::lessons::MENU.iter().map(|m| m.id).collect();
    assert_eq!(menu, ["harbor-replaced", LANTERN, FENCING]);
}

// ----- the lantern (seed 001) -----

/// "If two arrive together, one latches it and the other finds it already held — they know they
/// were a step too late." lantern-race: both set out at 0 ms; A-Xiu is one millisecond earlier.
#[test]
fn lantern_the_clasp_lets_one_borrower_in() {
    let p = played(LANTERN, "Two hands on the clasp");
    let set_out: Vec<&Value> = p
        .run
        .iter()
        .filter(|(t, e)| *t == 0 && e["type"] == "message_sent" && e["kind"] == "acquire_request")
        .map(|(_, e)| &e["from"]["id"])
        .collect();
    assert_eq!(set_out, [&json!("xiu"), &json!("wang")], "both set out at the same moment");
    assert_eq!((&p.event["node"], &p.event["holder"]), (&json!("wang"), &json!("xiu")), "{}", p.event);
    let grants = p.window_of("lease_granted");
    assert_eq!(grants.len(), 1, "exactly one acquire succeeds");
    let (granted_ms, grant) = grants[0];
    assert_eq!((&grant["node"], &grant["token"]), (&json!("xiu"), &json!(p.scenario.config.issuer.first_token)));
    assert_eq!(p.at_ms, granted_ms + 1, "Wang reaches the clasp one millisecond later");
}

/// "If you are not finished, you may come back in person to renew"; "Renewal interval is
/// typically TTL / 3." lantern-race: a 9 s TTL, renewed every 3 s.
#[test]
fn lantern_the_return_hour_is_moved_on_in_person() {
    let p = played(LANTERN, "The return hour, renewed in person");
    let lease = &p.scenario.config.lease;
    assert_eq!((lease.duration_ms, lease.renew_every_ms), (9_000, 3_000));
    assert_eq!((&p.event["node"], &p.event["token"]), (&json!("xiu"), &json!(1)), "{}", p.event);
    // The grant happened in the step before; its return hour is one TTL after it.
    let (granted_ms, grant) = p.run_of("lease_granted")[0];
    assert_eq!(grant["expires_ms"], json!(granted_ms + lease.duration_ms));
    assert!(p.at_ms < granted_ms + lease.duration_ms, "she comes back before the hour");
    assert_eq!(p.event["expires_ms"], json!(p.at_ms + lease.duration_ms), "the hour moves one TTL on from the renewal");
    let (led_ms, _) = p.run_of("became_leader")[0];
    let max = p.scenario.config.network.latency_max_ms;
    assert!(
        (led_ms + lease.renew_every_ms..=led_ms + lease.renew_every_ms + 2 * max).contains(&p.at_ms),
        "{}",
        p.at_ms
    );
    assert!(!p.window_of("acquire_refused").is_empty(), "Wang keeps trying the clasp and is refused");
    assert!(p.window_of("acquire_refused").iter().all(|(_, e)| e["holder"] == "xiu"));
}

/// "Even if the borrower had an accident — say, twisted an ankle while inspecting the ditch and
/// could not return — the lantern would never be held by one person forever. When the hour was up,
/// the clasp opened automatically." lantern-ankle: she crashes at 10 s with a 12 s TTL; the tablet
/// is free only after her return hour, and Smith Wang gets wick No. 2.
#[test]
fn lantern_after_a_twisted_ankle_the_lantern_is_free_only_after_her_return_hour() {
    let crash = played(LANTERN, "A-Xiu twists an ankle");
    assert_eq!((crash.at_ms, &crash.event["type"], &crash.event["node"]), (10_000, &json!("crashed"), &json!("xiu")));

    let p = played(LANTERN, "Who gets the lantern, and when?");
    assert_eq!(p.start_ms, 10_000, "the question is asked once she has fallen");
    let lease = &p.scenario.config.lease;
    assert_eq!(lease.duration_ms, 12_000);
    let (last_renewal_ms, _) = *p
        .run_of("lease_renewed")
        .iter()
        .rfind(|(t, e)| *t < 10_000 && e["node"] == "xiu")
        .expect("she renewed before she fell");
    let return_hour = last_renewal_ms + lease.duration_ms;
    let expired = p.window_of("lease_expired");
    assert_eq!(expired.len(), 1);
    // The run is on Redis, which keeps a key through its expiry millisecond: it is gone one
    // millisecond after the return hour.
    assert_eq!(p.scenario.config.store_kind, leaselab::engine::StoreKind::Redis);
    let return_hour = return_hour + 1;
    assert_eq!(
        (expired[0].0, &expired[0].1["holder"], &expired[0].1["token"]),
        (return_hour, &json!("xiu"), &json!(1))
    );
    // Until then every try at the clasp found her name.
    let refused = p.window_of("acquire_refused");
    assert!(
        !refused.is_empty() && refused.iter().all(|(t, e)| *t < return_hour && e["holder"] == "xiu"),
        "{refused:?}"
    );
    assert_eq!(
        (&p.event["node"], &p.event["token"], &p.event["lease_transitions"]),
        (&json!("wang"), &json!(2), &json!(1))
    );
    let max = p.scenario.config.network.latency_max_ms;
    assert!(
        p.at_ms >= return_hour && p.at_ms <= return_hour + lease.retry_every_ms + 2 * max,
        "{} vs {return_hour}",
        p.at_ms
    );
}

/// "You are holding a dead lantern and can do nothing with it." lantern-ankle: her errand sent
/// the long way round before she fell reaches the granary with No. 1 and is refused: only No. 2.
#[test]
fn lantern_the_stale_wick_is_turned_back_at_the_granary() {
    let p = played(LANTERN, "A burnt-out wick at the granary door");
    let e = &p.event;
    assert_eq!(
        (&e["from"], &e["token"]["raw"], &e["outcome"]),
        (&json!("xiu"), &json!(1), &json!("rejected_stale")),
        "{e}"
    );
    assert_eq!((&e["high_water_before"], &e["high_water_after"]), (&json!(2), &json!(2)));
    // Sent while she still held the lantern, before the crash at 10 s, delayed 20 s from 9 s.
    let sent = e["sent_ms"].as_u64().expect("sent_ms");
    assert!((9_000..10_000).contains(&sent), "{sent}");
    assert!(p.at_ms >= sent + 20_000);
    let first_2 = p.window_of("write_judged").into_iter().find(|(_, w)| w["token"]["raw"] == 2).expect("Wang's errand");
    assert_eq!((&first_2.1["from"], &first_2.1["outcome"]), (&json!("wang"), &json!("accepted")));
}

/// lantern-ditch: with no keeper, her errand with No. 1 is done after Wang's No. 2 and she falls
/// into the ditch: stale_write_accepted and token_regression (the scenario's summary).
#[test]
fn lantern_without_a_keeper_she_falls_into_the_ditch() {
    let p = played(LANTERN, "No keeper at the granary");
    assert!(!p.scenario.config.resource.fencing, "no keeper");
    let v = &p.event["violation"];
    assert_eq!(
        (&v["kind"], &v["from"], &v["token"], &v["newest_granted"]),
        (&json!("stale_write_accepted"), &json!("xiu"), &json!(1), &json!(2)),
        "{v}"
    );
    assert_eq!(v["resource_had_seen_newer"], true);
    assert!(p.at_ms >= 30_000, "after her 20 s doze from 10 s");
    let also: Vec<&Value> = p
        .run
        .iter()
        .filter(|(t, e)| *t == p.at_ms && e["type"] == "violation_found")
        .map(|(_, e)| &e["violation"]["kind"])
        .collect();
    assert_eq!(also, [&json!("stale_write_accepted"), &json!("token_regression")]);
}

/// lock-late-del and lock-owner-release: a plain DEL wipes Smith Wang's name; the owner-checked
/// release reads it and leaves it alone (the scenarios' summaries).
#[test]
fn lantern_a_release_must_read_the_name_first() {
    let p = played(LANTERN, "Wiping the tablet without reading it");
    let v = &p.event["violation"];
    assert_eq!(
        (&v["kind"], &v["node"], &v["holder"], &v["holder_token"]),
        (&json!("lock_deleted_by_non_owner"), &json!("a"), &json!("b"), &json!(2)),
        "{v}"
    );
    assert!(p.at_ms >= 8_000, "after her 7 s doze from 1 s");
    let released = p.window_of("lock_released");
    assert_eq!(released.last().map(|(_, e)| &e["outcome"]["kind"]), Some(&json!("deleted_others")));

    let q = played(LANTERN, "Read the name first");
    assert_eq!(q.at_ms, p.at_ms, "the same seed, the same moment");
    assert_eq!(
        (&q.event["node"], &q.event["outcome"]),
        (&json!("a"), &json!({"kind": "not_owner", "holder": "b"})),
        "{}",
        q.event
    );
    assert!(q.run_of("violation_found").is_empty(), "nothing is wiped, all night");
}

/// "Too-long TTLs mean slow failure recovery." ttl-too-long: a 60 s lease and a crash at 10 s.
#[test]
fn lantern_a_long_return_hour_means_a_long_wait() {
    let p = played(LANTERN, "A return hour too long");
    let lease = &p.scenario.config.lease;
    assert_eq!(lease.duration_ms, 60_000);
    assert_eq!(p.window_of("crashed").first().map(|(t, _)| *t), Some(10_000));
    let (first_grant_ms, _) = p.run_of("lease_granted")[0];
    assert_eq!((&p.event["node"], &p.event["token"]), (&json!("lin"), &json!(2)));
    let max = p.scenario.config.network.latency_max_ms;
    assert!(
        p.at_ms >= first_grant_ms + lease.duration_ms
            && p.at_ms <= first_grant_ms + lease.duration_ms + lease.retry_every_ms + 2 * max
    );
    assert!(p.at_ms - 10_000 > 50_000 - 1_000, "about 50 s with nobody at work");
}

/// "Too-short TTLs cause frequent renewals and lock churn." ttl-too-short: nobody fails, yet
/// leaders keep stepping down and the lantern is idle most of the night.
#[test]
fn lantern_a_short_return_hour_churns() {
    let p = played(LANTERN, "A return hour too short");
    assert_eq!((p.at_ms, &p.event["type"]), (p.scenario.config.until_ms, &json!("run_ended")));
    for fault in ["crashed", "paused", "partitioned"] {
        assert!(p.window_of(fault).is_empty(), "nobody fails: {fault}");
    }
    assert!(p.window_of("stepped_down").len() >= 10, "the holders keep putting the lantern down");
    let r = report(&p.scenario);
    let idle: u64 = r.leader_gaps.iter().map(|g| g.length_ms).sum();
    assert!(idle > r.until_ms / 2, "idle for most of the run: {idle} ms");
}

// ----- fencing in depth (seeds 002 and 004) -----

/// Seed 004's timeline: A gets 41 and pauses, B gets 42 and writes, A's 41 is refused.
#[test]
fn fencing_41_after_42_is_refused() {
    let p = played(FENCING, "41 after 42: refused");
    let e = &p.event;
    assert_eq!((&e["from"], &e["token"]["raw"], &e["high_water_before"]), (&json!("a"), &json!(41), &json!(42)), "{e}");
    assert!(p.at_ms >= 16_000, "A sleeps from 4 s for 12 s");
    let grant = p.window_of("lease_granted").into_iter().find(|(_, g)| g["node"] == "b").expect("B is granted");
    assert_eq!((&grant.1["token"], &grant.1["lease_transitions"]), (&json!(42), &json!(1)));
    let b42 = p.window_of("write_judged").into_iter().find(|(_, w)| w["token"]["raw"] == 42).expect("B writes first");
    assert_eq!(b42.1["outcome"], "accepted");
    assert!(b42.0 < p.at_ms);
}

/// Seed 002: "在资源尚未见过新世代之前到达的旧写入，仍可能通过高水位检查" (the stale token passes
/// before the resource has seen the newer one); and an epoch barrier closes the window.
#[test]
fn fencing_a_stale_token_passes_until_the_resource_has_seen_the_newer_one_and_a_barrier_closes_that() {
    let p = played(FENCING, "Before the resource has seen 42");
    let v = &p.event["violation"];
    assert_eq!(
        (&v["kind"], &v["from"], &v["token"], &v["newest_granted"]),
        (&json!("stale_write_accepted"), &json!("a"), &json!(41), &json!(42)),
        "{v}"
    );
    assert_eq!(v["resource_had_seen_newer"], false);
    let granted_42 =
        p.window_of("lease_granted").into_iter().find(|(_, g)| g["token"] == 42).expect("42 granted first").0;
    assert!(granted_42 < p.at_ms, "42 had been granted");
    assert!(p.window_of("write_judged").iter().all(|(_, w)| w["token"]["raw"] != 42), "but never seen by the resource");

    let b = played(FENCING, "An epoch barrier closes the window");
    assert!(b.scenario.config.resource.epoch_barrier);
    assert_eq!(b.at_ms, p.at_ms, "the same seed, the same arrival");
    assert_eq!((&b.event["token"]["raw"], &b.event["high_water_before"]), (&json!(41), &json!(42)), "{}", b.event);
    let raised = b
        .window_of("epoch_barrier_raised")
        .into_iter()
        .find(|(_, e)| e["token"] == 42)
        .expect("the grant raises the mark");
    assert_eq!(raised.0, granted_42, "in the grant's own transaction");
    assert!(b.window_of("write_judged").iter().all(|(_, w)| w["from"] != "b"), "before any write of B");
    assert!(b.run_of("violation_found").is_empty(), "no stale write at all");
}

/// Seed 002's sequential model, write by write: 1 passes before 2 is seen, 2 fences 1, an equal
/// token writes again; null, "2" and true are refused without changing anything; 3 fences 2.
#[test]
fn fencing_the_field_notes_model_equal_tokens_malformed_tokens_and_3_fences_2() {
    let p = played(FENCING, "Equal tokens need a policy");
    let judged: Vec<(Value, Value, Value)> = p
        .window_of("write_judged")
        .iter()
        .map(|(_, w)| (w["token"]["raw"].clone(), w["outcome"].clone(), w["high_water_after"].clone()))
        .collect();
    assert_eq!(
        judged,
        [
            (json!(1), json!("accepted"), json!(1)),
            (json!(2), json!("accepted"), json!(2)),
            (json!(1), json!("rejected_stale"), json!(2)),
            (json!(2), json!("accepted"), json!(2)),
        ],
        "assert resource.write(old_leader); write(new_leader); refused(old_leader); write(new_leader) again"
    );
    assert_eq!(p.event["value"], "second-write-in-same-epoch");

    let q = played(FENCING, "Not a number, and then a newer one");
    assert_eq!(q.start_ms, p.at_ms);
    let judged: Vec<(Value, Value, Value, Value)> = q
        .window_of("write_judged")
        .iter()
        .map(|(_, w)| {
            (w["token"].clone(), w["outcome"].clone(), w["high_water_before"].clone(), w["high_water_after"].clone())
        })
        .collect();
    assert_eq!(
        judged,
        [
            (json!({"kind": "malformed", "raw": "null"}), json!("rejected_invalid"), json!(2), json!(2)),
            (json!({"kind": "malformed", "raw": "\"2\""}), json!("rejected_invalid"), json!(2), json!(2)),
            (json!({"kind": "malformed", "raw": "true"}), json!("rejected_invalid"), json!(2), json!(2)),
            (json!({"kind": "number", "raw": 3}), json!("accepted"), json!(2), json!(3)),
            (json!({"kind": "number", "raw": 2}), json!("rejected_stale"), json!(3), json!(3)),
        ],
        "refused(None); refused(\"2\"); refused(True); write(next_token); refused(new_leader)"
    );
    assert!(q.window_of("violation_found").is_empty());
}

/// Seed 004: "token=42 的请求自身重试两次，仍需要请求 ID 或唯一约束实现幂等" (a retry with the
/// same token still needs a request id): a plain fence applies R1 twice; dedupe applies it once.
#[test]
fn fencing_is_not_idempotency_an_operation_id_is() {
    let p = played(FENCING, "A retry under a plain fence");
    assert_eq!(
        (&p.event["violation"]["kind"], &p.event["violation"]["op_id"]),
        (&json!("duplicate_side_effect"), &json!("R1"))
    );
    let r1: Vec<&Value> = p
        .window_of("write_judged")
        .into_iter()
        .filter(|(_, w)| w["op_id"] == "R1")
        .map(|(_, w)| &w["outcome"])
        .collect();
    assert_eq!(r1, [&json!("accepted"), &json!("accepted")], "the same op, the same token 9, applied twice");

    let q = played(FENCING, "An operation id, remembered");
    assert_eq!(q.event["outcome"], "accepted", "R2 is a new operation");
    let r1: Vec<&Value> = q
        .window_of("write_judged")
        .into_iter()
        .filter(|(_, w)| w["op_id"] == "R1")
        .map(|(_, w)| &w["outcome"])
        .collect();
    assert_eq!(r1, [&json!("accepted"), &json!("duplicate")]);
    assert!(q.run_of("violation_found").is_empty());
}

/// Seed 002: "计数器回退可能让新所有者拿到比旧持有者更小的编号" (a rolled-back counter gives the new
/// owner a smaller number): issuer-rollback's new holder gets 905 after 1000 and is refused.
#[test]
fn fencing_a_rolled_back_issuer_locks_the_new_holder_out() {
    let p = played(FENCING, "The counter goes back");
    assert_eq!(p.scenario.config.issuer.first_token, 1000);
    let rolled = p.window_of("issuer_rolled_back");
    assert_eq!((rolled[0].0, &rolled[0].1["next_token"]), (5_000, &json!(905)));
    let grant = p.window_of("lease_granted").into_iter().find(|(_, g)| g["node"] == "b").expect("B is granted");
    assert_eq!((&grant.1["token"], &grant.1["lease_transitions"]), (&json!(905), &json!(1)));
    let e = &p.event;
    assert_eq!(
        (&e["token"]["raw"], &e["outcome"], &e["high_water_before"]),
        (&json!(905), &json!("rejected_stale"), &json!(1000)),
        "{e}"
    );
    let b_writes: Vec<&Value> =
        p.run_of("write_judged").into_iter().filter(|(_, w)| w["from"] == "b").map(|(_, w)| &w["outcome"]).collect();
    assert!(
        b_writes.len() > 1 && b_writes.iter().all(|o| **o == "rejected_stale"),
        "refused for as long as B holds: {b_writes:?}"
    );
}

/// Seed 002: "资源丢失持久化高水位，也可能重新接受旧世代" (a resource that loses its mark accepts
/// an old epoch again): lost-high-water-mark accepts Chen's 4 after Lin's 5.
#[test]
fn fencing_a_forgotten_high_water_mark_lets_the_old_epoch_in() {
    let p = played(FENCING, "The mark forgotten");
    assert!(!p.scenario.config.resource.persist_high_water);
    let v = &p.event["violation"];
    assert_eq!(
        (&v["kind"], &v["from"], &v["token"], &v["highest_before"]),
        (&json!("token_regression"), &json!("chen"), &json!(4), &json!(5)),
        "{v}"
    );
    let restarted = p.window_of("resource_restarted");
    assert_eq!((restarted[0].0, &restarted[0].1["high_water_after"]), (40_000, &json!(0)));
    assert!(p.at_ms > 40_000);
}

/// Seed 004: "不能拿订单 A 的 100 去压制订单 B 的 5" (a token of one lock must not fence
/// another): compared as bare numbers, the invoices 51 locks the orders holder's 50 out; keyed by
/// lock, it is refused.
#[test]
fn fencing_tokens_are_per_lock() {
    let p = played(FENCING, "Tokens belong to one lock");
    let foreign =
        p.window_of("write_judged").into_iter().find(|(_, w)| w["lock"] == "invoices").expect("the invoices write");
    assert_eq!(
        (&foreign.1["token"]["raw"], &foreign.1["outcome"], &foreign.1["high_water_after"]),
        (&json!(51), &json!("accepted"), &json!(51))
    );
    assert_eq!(p.window_of("violation_found")[0].1["violation"]["kind"], "foreign_token_accepted");
    assert_eq!((&p.event["token"]["raw"], &p.event["outcome"]), (&json!(50), &json!("rejected_stale")), "{}", p.event);

    // What the step says of foreign-token-per-lock.
    let r = report(&scenario("foreign-token-per-lock"));
    let outcomes: Vec<Value> = r.writes.iter().map(|w| serde_json::to_value(w.outcome).expect("serializes")).collect();
    assert_eq!(outcomes, [json!("accepted"), json!("rejected_foreign_lock"), json!("accepted")]);
}
