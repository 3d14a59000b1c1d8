//! The built-in scenarios: JSON files under `assets/scenarios/`, compiled in, loaded by the app
//! and by the tests alike.

use super::{parse, Scenario, ScenarioError};

/// `(id, file contents)` of every built-in scenario, in menu order.
pub const FILES: &[(&str, &str)] = &[
    ("harbor-zombie", include_str!("../../assets/scenarios/harbor-zombie.json")),
    ("harbor-no-fencing", include_str!("../../assets/scenarios/harbor-no-fencing.json")),
    ("fencing-checks", include_str!("../../assets/scenarios/fencing-checks.json")),
    ("gc-pause-41-42", include_str!("../../assets/scenarios/gc-pause-41-42.json")),
    ("deposed-41-refused", include_str!("../../assets/scenarios/deposed-41-refused.json")),
    ("deposed-41-accepted", include_str!("../../assets/scenarios/deposed-41-accepted.json")),
    ("lost-high-water-mark", include_str!("../../assets/scenarios/lost-high-water-mark.json")),
    ("issuer-rollback", include_str!("../../assets/scenarios/issuer-rollback.json")),
    ("retried-write", include_str!("../../assets/scenarios/retried-write.json")),
    ("missing-token", include_str!("../../assets/scenarios/missing-token.json")),
    ("equality-fence", include_str!("../../assets/scenarios/equality-fence.json")),
    ("ttl-too-long", include_str!("../../assets/scenarios/ttl-too-long.json")),
    ("ttl-too-short", include_str!("../../assets/scenarios/ttl-too-short.json")),
    ("deposed-41-barrier", include_str!("../../assets/scenarios/deposed-41-barrier.json")),
    ("lock-late-del", include_str!("../../assets/scenarios/lock-late-del.json")),
    ("lock-owner-release", include_str!("../../assets/scenarios/lock-owner-release.json")),
    ("store-clock-jump", include_str!("../../assets/scenarios/store-clock-jump.json")),
    ("lock-session-expired", include_str!("../../assets/scenarios/lock-session-expired.json")),
    ("lock-session-unchecked", include_str!("../../assets/scenarios/lock-session-unchecked.json")),
    ("observer-full-wait", include_str!("../../assets/scenarios/observer-full-wait.json")),
    ("observer-rate-skew", include_str!("../../assets/scenarios/observer-rate-skew.json")),
    ("observer-offset", include_str!("../../assets/scenarios/observer-offset.json")),
    ("duplicate-identity", include_str!("../../assets/scenarios/duplicate-identity.json")),
    ("counter-reset", include_str!("../../assets/scenarios/counter-reset.json")),
    ("work-outlives-lease", include_str!("../../assets/scenarios/work-outlives-lease.json")),
    ("retried-write-dedupe", include_str!("../../assets/scenarios/retried-write-dedupe.json")),
    ("foreign-token-per-lock", include_str!("../../assets/scenarios/foreign-token-per-lock.json")),
    ("foreign-token-global", include_str!("../../assets/scenarios/foreign-token-global.json")),
    ("lantern-race", include_str!("../../assets/scenarios/lantern-race.json")),
    ("lantern-ankle", include_str!("../../assets/scenarios/lantern-ankle.json")),
    ("lantern-ditch", include_str!("../../assets/scenarios/lantern-ditch.json")),
];

/// The id of the scenario the app opens with.
pub const DEFAULT_ID: &str = "harbor-zombie";

/// Ids of the built-in scenarios, in menu order.
pub fn ids() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(id, _)| *id)
}

/// Load a built-in scenario by id; `None` for an unknown id.
///
/// # Errors
/// Never for the shipped files (a test parses every one); the `Result` keeps a broken build from
/// panicking the page.
pub fn get(id: &str) -> Option<Result<Scenario, ScenarioError>> {
    FILES.iter().find(|(i, _)| *i == id).map(|(_, json)| parse(json))
}
