//! Comparing runs (issue 4): the same scenario, seed and interventions with one setting flipped,
//! and the first moment the two runs part. The library holds pairs of scenarios that differ in
//! exactly that setting, so the flipped run must be the other file's run, bit for bit.

mod common;

use common::*;
use leaselab::engine::compare::{compare, first_difference, tally, Setting};
use leaselab::engine::timeline::Timeline;
use leaselab::engine::{Command, ReleaseOutcome, TraceEvent, WireToken, WriteOutcome};

/// Seed 000: with the flag-verifier and without it, the harbor runs alike until Chen wakes and
/// waves his 7 after Lin got 8; there, and nowhere earlier, the verifier voids the 7 where the
/// boat without one obeys it.
#[test]
fn harbor_fencing_on_and_off_part_at_chens_stale_seven() {
    let s = builtin("harbor-zombie");
    assert!(Setting::Fencing.is_on(&s.config));
    let (this, other, d) = compare(&s.config, &[], Setting::Fencing).expect("valid");
    // The flipped run is the library's harbor without fencing.
    assert_eq!(other.trace_hash(), run(&builtin("harbor-no-fencing")).trace_hash());

    let d = d.expect("the runs part");
    let chen_token = s.config.issuer.first_token;
    let lin_token = chen_token + 1;
    let woke = s
        .config
        .events
        .iter()
        .find(|e| matches!(&e.command, Command::Resume { node } if node == "chen"))
        .map(|e| e.at_ms)
        .expect("the file wakes Chen");
    // Chen's prepared write leaves as he wakes and takes one network latency to arrive.
    let latency = s.config.network.latency_max_ms;
    assert!(d.at_ms >= woke && d.at_ms <= woke + latency, "parted at {} ms, Chen woke at {woke} ms", d.at_ms);
    let verdict = |e: &Option<leaselab::engine::TraceEntry>| match e.as_ref().map(|e| &e.event) {
        Some(TraceEvent::WriteJudged { from, token, outcome, high_water_before, .. }) => {
            (from.clone(), token.clone(), *outcome, *high_water_before)
        }
        other => panic!("not a judged write: {other:?}"),
    };
    let chen = Some("chen".to_owned());
    assert_eq!(verdict(&d.this), (chen.clone(), WireToken::Number(chen_token), WriteOutcome::RejectedStale, lin_token));
    assert_eq!(verdict(&d.other).0, chen);
    assert_eq!(verdict(&d.other).2, WriteOutcome::Accepted, "without fencing the stale 7 lands");
    // Before that moment Lin had already got 8, in both runs alike.
    assert!(this.trace()[..d.index].iter().any(
        |e| matches!(&e.event, TraceEvent::LeaseGranted { node, token, .. } if node == "lin" && *token == lin_token)
    ));
    assert_eq!(first_difference(this.trace(), this.trace()), None);
    // Up to and with that write: with fencing, one refusal (the 7) and no violation; without,
    // the 7 is accepted and the oracle reports it.
    let upto = |sim: &leaselab::engine::Sim| tally(&sim.trace()[..sim.trace().partition_point(|e| e.at_ms <= d.at_ms)]);
    let ([_, refused, violations], [_, refused_off, violations_off]) = (upto(&this), upto(&other));
    assert_eq!((refused, violations, refused_off), (1, 0, 0));
    assert!(violations_off >= 1, "the stale 7 accepted without fencing is a violation");
}

/// Waking Chen at 21 s (as in the time-travel test): he renews in time, nobody gets 8, and
/// fencing never matters: the runs differ only in the flag they record.
#[test]
fn when_no_write_is_stale_fencing_changes_nothing() {
    let s = builtin("harbor-zombie");
    let mut timeline = Timeline::new(s.config.clone()).expect("valid");
    timeline.intervene(21_000, Command::Resume { node: "chen".into() }).expect("valid");
    let (this, other, d) = compare(&s.config, timeline.interventions(), Setting::Fencing).expect("valid");
    assert_eq!(d, None);
    assert_ne!(this.trace_hash(), other.trace_hash(), "the judged writes still record the flag");
    assert_eq!(this.trace_hash(), timeline.seek(s.config.until_ms).trace_hash());
}

/// Seed 002 (KAFKA-6082): with the barrier every grant raises the resource's mark in the same
/// transaction, so the runs part at the very first grant (41), long before the early 41 that
/// the barrier's run refuses.
#[test]
fn the_epoch_barrier_parts_the_runs_at_the_first_grant() {
    let s = builtin("deposed-41-accepted");
    let (this, other, d) = compare(&s.config, &[], Setting::EpochBarrier).expect("valid");
    assert_eq!(other.trace_hash(), run(&builtin("deposed-41-barrier")).trace_hash());
    let d = d.expect("the runs part");
    let newer = s.config.issuer.first_token;
    let granted = this
        .trace()
        .iter()
        .find(|e| matches!(e.event, TraceEvent::LeaseGranted { token, .. } if token == newer))
        .expect("41 is granted");
    assert_eq!(d.at_ms, granted.at_ms);
    assert!(
        matches!(d.other.as_ref().map(|e| &e.event), Some(TraceEvent::EpochBarrierRaised { token, .. }) if *token == newer),
        "{:?}",
        d.other
    );
}

/// The lantern's lock: a plain DEL deletes B's lock where the owner check leaves it alone.
#[test]
fn the_release_check_parts_the_runs_at_the_late_release() {
    let s = builtin("lock-late-del");
    assert!(Setting::ReleaseCheck.applies(&s.config) && !Setting::Expiry.applies(&s.config));
    let (_, other, d) = compare(&s.config, &[], Setting::ReleaseCheck).expect("valid");
    assert_eq!(other.trace_hash(), run(&builtin("lock-owner-release")).trace_hash());
    let d = d.expect("the runs part");
    let outcome = |e: &Option<leaselab::engine::TraceEntry>| match e.as_ref().map(|e| &e.event) {
        Some(TraceEvent::LockReleased { node, outcome, .. }) => (node.clone(), outcome.clone()),
        other => panic!("not a release: {other:?}"),
    };
    let (a, deleted) = outcome(&d.this);
    let (a2, kept) = outcome(&d.other);
    assert_eq!(a, a2);
    assert!(matches!(deleted, ReleaseOutcome::DeletedOthers { .. }), "{deleted:?}");
    assert!(matches!(kept, ReleaseOutcome::NotOwner { .. }), "{kept:?}");
}

/// The same lantern run on Redis and on etcd: the stores first part where etcd's lessor has not
/// yet deleted A-Xiu's expired key while Redis already let Wang take it (or where their token
/// numbers differ); and once A's plain DEL has removed Wang's key, Redis refuses his next renewal
/// while etcd keeps renewing his lease. The run flipped to etcd is `lock-late-del-etcd` but for
/// the client's session check, which the flip leaves as it was.
#[test]
fn the_store_can_be_flipped_between_redis_and_etcd() {
    let s = builtin("lock-late-del");
    assert!(Setting::Store.applies(&s.config) && !Setting::Store.is_on(&s.config));
    let (this, other, d) = compare(&s.config, &[], Setting::Store).expect("valid");
    let mut etcd = builtin("lock-late-del-etcd").config;
    etcd.lock.session_check = s.config.lock.session_check;
    assert_eq!(
        other.trace_hash(),
        run(&leaselab::scenario::Scenario { config: etcd, ..builtin("lock-late-del") }).trace_hash()
    );
    assert!(d.is_some_and(|d| d.at_ms < 5_500), "they part by the first expiry at the latest");
    let refused = |sim: &leaselab::engine::Sim| {
        sim.trace().iter().any(|e| matches!(&e.event, TraceEvent::RenewRefused { node, .. } if node == "b"))
    };
    assert!(refused(&this) && !refused(&other));
    // A lease of 2.5 s is not an etcd TTL (whole seconds): the flip is not offered.
    let mut odd = s.config.clone();
    odd.lease = leaselab::engine::LeaseConfig::with_duration(2_500);
    assert!(!Setting::Store.applies(&odd));
    // Observer expiry needs a store that only compare-and-swaps: not etcd.
    assert!(!Setting::Store.applies(&builtin("observer-offset").config));
}

/// Flipping twice gives the configuration back, for every setting a scenario offers (the
/// renewal policy is offered only where it does: a custom renewal interval is not restored; a
/// Kubernetes Lease offers no store flip).
#[test]
fn flipping_twice_is_no_change() {
    let mut renew_offered = 0;
    for id in leaselab::scenario::library::ids() {
        let c = builtin(id).config;
        for setting in Setting::ALL {
            if !setting.applies(&c) {
                continue;
            }
            if setting == Setting::RenewPolicy {
                renew_offered += 1;
            }
            let once = setting.flipped(&c);
            assert_ne!(setting.is_on(&once), setting.is_on(&c), "{id} {setting:?}");
            assert_eq!(setting.flipped(&once), c, "{id} {setting:?}");
        }
    }
    assert!(renew_offered >= 3, "the Kubernetes built-ins can flip their renewal policy");
}

/// Every setting a scenario offers can be flipped: the page never falls back silently to "no
/// other run" (walkthrough of issue 4: the epoch barrier under `equal_token: reject`, which the
/// configuration rules refuse, was offered and then dropped without a word).
#[test]
fn every_offered_setting_gives_a_comparison() {
    for id in leaselab::scenario::library::ids() {
        let config = builtin(id).config;
        for setting in Setting::ALL.into_iter().filter(|s| s.applies(&config)) {
            assert!(compare(&config, &[], setting).is_ok(), "{id}: {setting:?} is offered but cannot be compared");
        }
    }
    let mut reject = builtin("harbor-zombie").config;
    reject.resource.equal_token = leaselab::engine::EqualTokenPolicy::Reject;
    assert!(!Setting::EpochBarrier.applies(&reject), "the barrier needs equal tokens accepted");
    assert!(Setting::Fencing.applies(&reject));
}
