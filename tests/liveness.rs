//! Whether the lease is live is decided once (by the engine: `engine::Liveness::judge`, the
//! snapshot's `lease.liveness`) and every view shows
//! that one decision: the harbor's plaque and hourglass, the lantern's tablet, and the technical
//! view (the lease as Kubernetes, Redis and etcd print it). Checked at every 100 ms of every
//! built-in scenario, in the words each view actually shows.

use leaselab::engine::Sim;
use leaselab::scenario::library;
use leaselab::story::harbor::{plaque_name_struck, HARBOR};
use leaselab::story::i18n::Ui;
use leaselab::story::lantern::{face, Face};
use leaselab::story::picture::{picture, Memory, Picture};
use leaselab::story::technical::{lease_state, technical_view, LeaseState, TermKind, View};
use leaselab::vocab::Lang;

/// What the harbor shows: nobody on the plaque; a name with sand running; a struck name with the
/// sand run out.
fn plaque_says(p: &Picture) -> &'static str {
    let (glass, _) = HARBOR.timer_line(&p.timer);
    match (&p.record.holder, glass, plaque_name_struck(p)) {
        (None, _, false) => "free",
        (Some(_), Ui::SandLeft, false) => "live",
        (Some(_), Ui::SandOut, true) => "lapsed",
        other => panic!("the plaque and its hourglass disagree: {other:?}"),
    }
}

/// What the lantern's tablet shows.
fn tablet_says(p: &Picture) -> &'static str {
    match face(&p.record) {
        Face::Free => "free",
        Face::Taken => "live",
        Face::HourPassed => "lapsed",
    }
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
fn plaque_tablet_and_technical_view_agree_at_every_100_ms_of_every_builtin() {
    let mut checked = 0u32;
    let mut lapsed_seen = 0u32;
    for id in library::ids() {
        let scenario = library::get(id).expect("listed").expect("parses");
        let mut sim = Sim::new(scenario.config.clone()).expect("valid");
        let mut memory = Memory::default();
        let until = scenario.config.until_ms;
        for t in (0..=until).step_by(100) {
            sim.advance_to(t);
            memory.absorb(sim.trace());
            let p = picture(&sim.snapshot(), &memory);
            let (plaque, tablet, technical) = (plaque_says(&p), tablet_says(&p), technical_says(&sim));
            assert!(
                plaque == tablet && tablet == technical,
                "{id} at {t} ms: plaque {plaque}, tablet {tablet}, technical view {technical}"
            );
            checked += 1;
            lapsed_seen += u32::from(plaque == "lapsed");
        }
    }
    assert!(checked > 10_000, "only {checked} moments checked");
    assert!(lapsed_seen > 1_000, "lapsed leases are among them (observer-full-wait alone has ~950): {lapsed_seen}");
}
