//! Whether the lease is live is decided once (by the engine: `engine::Liveness::judge`, the
//! snapshot's `lease.liveness`) and every view shows that one decision: every fable's drawing
//! (its record's holder, as drawn) and the technical view (the lease as Kubernetes, Redis and etcd
//! print it). Checked at every 100 ms of every built-in scenario. What each fable shows for it in
//! words (the harbor's struck name and run-out sand, the lantern's tablet) is checked in the
//! fable's own module.

use leaselab::draw::{whole, Look};
use leaselab::engine::Sim;
use leaselab::scenario::library;
use leaselab::story::picture::{picture, Memory, Picture};
use leaselab::story::technical::{lease_state, technical_view, LeaseState, TermKind, View};
use leaselab::story::Cast;
use leaselab::vocab::{Fable, Lang};

/// What `fable`'s drawing shows of the record: the `data-lease` its drawing puts on the record's
/// holder (every drawing marks it), which must be there exactly once.
fn scene_says(fable: Fable, p: &Picture, cast: &Cast) -> String {
    let look = Look { fable, lang: Lang::En, floor: 0.0 };
    let markup = whole(fable.drawing(), p, cast, None, look).into_string();
    let found: Vec<&str> = markup.split("data-lease=\"").skip(1).filter_map(|rest| rest.split('"').next()).collect();
    assert_eq!(found.len(), 1, "{fable:?} marks its record's holder once: {found:?}");
    found[0].to_owned()
}

/// What the technical view shows: its judgement, and what Redis prints for the key (a value
/// while the lock is held, `(nil)` otherwise).
fn technical_says(sim: &Sim) -> &'static str {
    let snap = sim.snapshot();
    let state = match lease_state(&snap) {
        LeaseState::Free => "free",
        LeaseState::Held { .. } => "live",
        LeaseState::Expired { .. } => "lapsed",
    };
    let redis = technical_view(View::Redis, &snap, &snap.lease.lock_name, Lang::En);
    let first_answer = redis.lines.iter().find(|l| l.kind == TermKind::Output).map(|l| l.text.as_str());
    let key_shown = first_answer.is_some_and(|t| t != "(nil)");
    assert_eq!(key_shown, state == "live", "redis-cli shows the key exactly while the lease is held: {first_answer:?}");
    state
}

#[test]
fn every_fables_scene_and_the_technical_view_agree_at_every_100_ms_of_every_builtin() {
    let mut checked = 0u32;
    let mut lapsed_seen = 0u32;
    for id in library::ids() {
        let scenario = library::get(id).expect("listed").expect("parses");
        let casts: Vec<(Fable, Cast)> = Fable::all().map(|f| (f, Cast::for_fable(&scenario, f))).collect();
        let mut sim = Sim::new(scenario.config.clone()).expect("valid");
        let mut memory = Memory::default();
        let until = scenario.config.until_ms;
        for t in (0..=until).step_by(100) {
            sim.advance_to(t);
            memory.absorb(sim.trace());
            let p = picture(&sim.snapshot(), &memory);
            let technical = technical_says(&sim);
            for (fable, cast) in &casts {
                let scene = scene_says(*fable, &p, cast);
                assert_eq!(scene, technical, "{id} at {t} ms: {fable:?} shows {scene}, the technical view {technical}");
            }
            checked += 1;
            lapsed_seen += u32::from(technical == "lapsed");
        }
    }
    assert!(checked > 10_000, "only {checked} moments checked");
    assert!(lapsed_seen > 1_000, "lapsed leases are among them (observer-full-wait alone has ~950): {lapsed_seen}");
}
