//! What a replay sends and what the engine answered: a scenario's trace turned into a list of
//! [`Step`]s, each a request that reached the store or the resource (with the moment, in virtual
//! ms, and the store's own clock reading then) and the engine's answer to it. Pure: no server.
//!
//! Which trace events become requests (`src/engine/trace.rs`): an acquire that the store
//! granted, re-granted or refused (`lease_granted`, `lease_reacquired`, `acquire_refused`), a
//! renewal (`lease_renewed`, `renew_refused`), a lock release (`lock_released`), the store's own
//! expiry (`lease_expired`: is the key gone?), the new term's epoch barrier
//! (`epoch_barrier_raised`: the mark after the grant's transaction), every write that reached the
//! resource (`write_judged`), and the faults and levers that act on the servers' state
//! (`lease_revoked`, `fencing_set`, `issuer_rolled_back`, `resource_restored`,
//! `resource_restarted`; a `clock_jumped` or `clock_rate_set` of the store moves the store's
//! clock, which every later step carries). What happens only on the clients' side (pauses,
//! crashes, partitions, messages on their way) is already in which requests reach the store and
//! when, so it needs no step of its own.

use std::fmt;

use leaselab::engine::clock::Clock;
use leaselab::engine::command::STORE;
use leaselab::engine::{
    Config, EqualTokenPolicy, Expiry, Protocol, ReleaseCheck, ReleaseOutcome, Sim, StoreKind, TokenCheck, TokenScope,
    TraceEvent, WireToken, WriteOutcome,
};

/// The store a scenario's run is judged against: the rules (boundary inclusivity, tokens,
/// renewals) of which real server its answers must equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Redis 7.0: `SET key value NX PX ttl`, `INCR` tokens, Lua scripts; replayed with its wall
    /// clock driven to the engine's virtual time, so exactly.
    Redis,
    /// etcd 3.4: a key on a lease, revision tokens, keepalive renewals; replayed in real time.
    Etcd,
}

impl Profile {
    /// Every server the suite replays on.
    pub const ALL: [Profile; 2] = [Profile::Redis, Profile::Etcd];

    /// The name used in reports: `redis` or `etcd`, the name of the store profile it serves
    /// (`StoreKind::code`).
    pub fn name(self) -> &'static str {
        match self {
            Profile::Redis => "redis",
            Profile::Etcd => "etcd",
        }
    }

    /// The server of store profile `store`: the one of the same name; `None` where no server of
    /// it runs here.
    pub fn serving(store: StoreKind) -> Option<Profile> {
        Self::ALL.into_iter().find(|p| p.name() == store.code())
    }
}

/// Under which server's rules a scenario is judged: the one its store profile is replayed on,
/// as the profile's own rule says ([`StoreRules::replayed_on`](leaselab::engine::StoreRules::replayed_on):
/// the store it names, or Redis for a Kubernetes Lease, whose store side is never replayed and
/// whose resource's writes go to the Redis fence like any other).
pub fn profile_of(config: &Config) -> Profile {
    // Every profile's `replayed_on` names a server that runs here (tested below).
    Profile::serving(config.store_kind.rules().replayed_on).unwrap_or(Profile::Redis)
}

/// How the store and the resource of a scenario behave (from its [`Config`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// The lock's name (the store's key; tokens are scoped to it).
    pub lock: String,
    /// The lease's time to live, in ms of the store's clock.
    pub ttl_ms: u64,
    /// Whether the holder asking again keeps its term (lease protocol) or is refused (a lock's
    /// `SET NX`).
    pub reentrant: bool,
    /// Whether a grant raises the resource's mark in the same transaction.
    pub epoch_barrier: bool,
    /// The token of the first grant.
    pub first_token: u64,
    /// Whether the resource checks tokens at the start (`fencing_set` may change it).
    pub fencing: bool,
    /// What the resource does with a token equal to its mark.
    pub equal_token: EqualTokenPolicy,
    /// Ordered tokens, or equality with the first one accepted.
    pub token_check: TokenCheck,
    /// Whether another lock's tokens are refused or compared as bare numbers.
    pub token_scope: TokenScope,
    /// Whether the mark survives a resource restart.
    pub persist_high_water: bool,
    /// Whether the engine renews a lease without checking the key (the etcd profile's
    /// keepalive), so a plain `DEL` leaves the victim's renewals succeeding there too.
    pub keepalive_renewal: bool,
    /// Whether the engine's tokens are the store's revisions (the etcd profile): then the
    /// distance between two grants' tokens must be the distance between their revisions on the
    /// server (every write in between took one).
    pub revision_tokens: bool,
}

impl Model {
    /// The store and resource settings of `config`.
    pub fn of(config: &Config) -> Self {
        Self {
            lock: config.lock.name.clone(),
            ttl_ms: config.lease.duration_ms,
            reentrant: config.protocol == Protocol::Lease,
            epoch_barrier: config.resource.epoch_barrier,
            first_token: config.issuer.first_token,
            fencing: config.resource.fencing,
            equal_token: config.resource.equal_token,
            token_check: config.resource.token_check,
            token_scope: config.resource.token_scope,
            persist_high_water: config.resource.persist_high_water,
            keepalive_renewal: !config.store_kind.rules().renew_checks_owner,
            revision_tokens: config.store_kind.rules().tokens == leaselab::engine::TokenSource::Revision,
        }
    }
}

/// A request that reached the store or the resource, or a fault that changes their state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// A node asks for the lock or lease (`identity` is what the key records).
    Acquire { node: String, identity: String },
    /// The holder renews the term of `token`.
    Renew { node: String, identity: String, token: u64 },
    /// A borrower releases: compare-and-delete with `owner_check`, a plain `DEL` without.
    Release { node: String, identity: String, token: u64, owner_check: bool },
    /// The store's clock has passed the term's expiry: the key must be gone now.
    CheckExpired { holder: String, token: u64 },
    /// The resource's mark after a grant with an epoch barrier.
    CheckMark,
    /// The coordinator strikes the holder now (`revoke_lease`).
    Revoke,
    /// A write reaches the resource. `lock` names the lock of the token when it is not the one
    /// guarding the resource.
    Write { op_id: String, token: WireToken, value: String, lock: Option<String> },
    /// The resource's token check is turned on or off.
    SetFencing { on: bool },
    /// The token counter is restored from an old backup: the next grant gets `next_token`.
    RollbackIssuer { next_token: u64 },
    /// The resource is restored from a backup whose mark was `high_water`.
    RestoreResource { high_water: u64 },
    /// The resource process restarts (the mark survives only when it is durable).
    RestartResource,
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Request::Acquire { node, .. } => write!(f, "acquire by {node}"),
            Request::Renew { node, token, .. } => write!(f, "renewal by {node} (token {token})"),
            Request::Release { node, token, owner_check, .. } => {
                let how = if *owner_check { "compare-and-delete" } else { "plain DEL" };
                write!(f, "release by {node} (token {token}, {how})")
            }
            Request::CheckExpired { holder, token } => write!(f, "expiry of {holder}'s term (token {token})"),
            Request::CheckMark => write!(f, "the epoch barrier's mark"),
            Request::Revoke => write!(f, "revoke"),
            Request::Write { op_id, token, .. } => write!(f, "write {op_id} (token {})", token.label()),
            Request::SetFencing { on } => write!(f, "fencing {}", if *on { "on" } else { "off" }),
            Request::RollbackIssuer { next_token } => write!(f, "issuer rolled back to {next_token}"),
            Request::RestoreResource { high_water } => write!(f, "resource restored to mark {high_water}"),
            Request::RestartResource => write!(f, "resource restart"),
        }
    }
}

/// An answer, in the engine's terms (a server's answer is translated into these).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A new term with this token.
    Granted {
        token: u64,
    },
    /// The holder asked again and keeps its term.
    Reacquired {
        token: u64,
    },
    /// Someone else (`holder`, the identity the key records) holds a live lease.
    Refused {
        holder: String,
    },
    Renewed,
    RenewRefused,
    Released,
    NotOwner {
        holder: Option<String>,
    },
    DeletedOthers {
        holder: String,
        token: u64,
    },
    AlreadyFree,
    /// The key is gone.
    Expired,
    /// The key is still there.
    Live,
    /// The resource's high-water mark.
    Mark {
        mark: u64,
    },
    /// The resource's verdict on a write and its mark after it.
    Judged {
        outcome: WriteOutcome,
        mark: u64,
    },
    /// A fault or lever that has no answer (carried out, nothing to compare).
    Done,
    /// The server's reply could not be read as an answer (its text).
    Unreadable(String),
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Granted { token } => write!(f, "granted token {token}"),
            Answer::Reacquired { token } => write!(f, "re-granted token {token}"),
            Answer::Refused { holder } => write!(f, "refused (held by {holder})"),
            Answer::Renewed => write!(f, "renewed"),
            Answer::RenewRefused => write!(f, "renewal refused"),
            Answer::Released => write!(f, "released"),
            Answer::NotOwner { holder } => {
                write!(f, "not the owner (held by {})", holder.as_deref().unwrap_or("nobody"))
            }
            Answer::DeletedOthers { holder, token } => write!(f, "deleted {holder}'s key (token {token})"),
            Answer::AlreadyFree => write!(f, "already free"),
            Answer::Expired => write!(f, "expired (key gone)"),
            Answer::Live => write!(f, "still live (key there)"),
            Answer::Mark { mark } => write!(f, "mark {mark}"),
            Answer::Judged { outcome, mark } => write!(f, "{}, mark {mark}", outcome.code()),
            Answer::Done => write!(f, "done"),
            Answer::Unreadable(text) => write!(f, "unreadable reply {text:?}"),
        }
    }
}

/// One request with the engine's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The trace entry it comes from.
    pub seq: u64,
    /// When the store or the resource handled it, in virtual ms.
    pub at_ms: u64,
    /// The store's clock then, in ms (what the engine judged expiry on).
    pub store_ms: i64,
    /// What reached the store or the resource.
    pub request: Request,
    /// The engine's answer.
    pub expected: Answer,
    /// For a grant, re-grant or renewal: when the engine says the term now expires, in true ms.
    pub expires_ms: Option<u64>,
}

/// A scenario's requests and the resource's final state, as the engine has them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The built-in's id.
    pub scenario: String,
    /// The store's and the resource's settings.
    pub model: Model,
    /// The requests in the order the engine handled them.
    pub steps: Vec<Step>,
    /// The resource's mark at the end.
    pub final_mark: u64,
    /// The value of the last accepted write at the end.
    pub final_value: Option<String>,
    /// Events of the trace that are not replayed, with the reason (printed by the suite).
    pub skipped: Vec<String>,
    /// The run's end, in virtual ms.
    pub until_ms: u64,
}

impl Plan {
    /// Whether any step goes to the store (not only to the resource).
    pub fn uses_store(&self) -> bool {
        self.steps.iter().any(|s| {
            matches!(
                s.request,
                Request::Acquire { .. }
                    | Request::Renew { .. }
                    | Request::Release { .. }
                    | Request::CheckExpired { .. }
                    | Request::Revoke
            )
        })
    }
}

/// Why the store's side of a run cannot be replayed on one real server, if it cannot: a
/// fail-over needs a second server (a Redis replica, an etcd cluster) and this suite runs one
/// of each; lock-delay is Consul's and Chubby's, and neither Redis nor etcd has it. The
/// resource's side is replayed all the same.
pub fn store_side_unreplayable(config: &Config) -> Option<&'static str> {
    let fails_over = config
        .events
        .iter()
        .chain(&config.interventions)
        .any(|c| matches!(c.command, leaselab::engine::Command::StoreFailover { .. }));
    if fails_over {
        Some("a store fail-over needs a replica or a cluster; a single real server cannot fail over")
    } else if config.resources.len() > 1 && config.store_kind.rules().tokens == leaselab::engine::TokenSource::Revision
    {
        Some(
            "etcd's tokens are revisions, and the writes to the second resource, which take revisions too, \
             are not replayed",
        )
    } else if config.lock.lock_delay_ms > 0 {
        Some("lock-delay is Consul's and Chubby's; neither Redis nor etcd has it")
    } else {
        None
    }
}

/// Runs `config` on the engine to its end and turns its trace into a [`Plan`].
///
/// # Errors
/// The engine's refusal of the configuration, as text.
pub fn plan(scenario: &str, config: &Config) -> Result<Plan, String> {
    let mut sim = Sim::new(config.clone()).map_err(|e| e.to_string())?;
    sim.run_to_end();
    let identity =
        |node: &str| config.nodes.iter().find(|n| n.id == node).map_or_else(|| node.to_owned(), |n| n.identity.clone());
    let observer = config.protocol == Protocol::Lease && config.lease.expiry == Expiry::Observer;
    // The DynamoDB lock client's rule: no DynamoDB here, and a Redis `SET NX` would refuse the
    // take-over of a held key that the client's conditional put on the version is granted.
    let client_judged_lock = config.protocol == Protocol::Lock && config.lease.expiry == Expiry::Observer;
    let owner_check = config.lock.release_check == ReleaseCheck::Owner;
    let mut clock = Clock::new(config.store_clock);
    let mut steps = Vec::new();
    let mut skipped = Vec::new();
    let unreplayable = store_side_unreplayable(config);
    for entry in sim.trace() {
        let at = entry.at_ms;
        let mut push = |request: Request, expected: Answer, expires_ms: Option<u64>| {
            steps.push(Step { seq: entry.seq, at_ms: at, store_ms: clock.read(at), request, expected, expires_ms });
        };
        let store_event = matches!(
            entry.event,
            TraceEvent::LeaseGranted { .. }
                | TraceEvent::LeaseReacquired { .. }
                | TraceEvent::AcquireRefused { .. }
                | TraceEvent::LeaseRenewed { .. }
                | TraceEvent::RenewRefused { .. }
                | TraceEvent::LeaseRevoked { .. }
        );
        let store_side = store_event
            || matches!(
                entry.event,
                TraceEvent::LockReleased { .. }
                    | TraceEvent::LeaseExpired { .. }
                    | TraceEvent::AcquireDelayed { .. }
                    | TraceEvent::StoreFailedOver { .. }
            );
        if let (Some(reason), true) = (unreplayable, store_side) {
            skipped.push(format!("{at} ms: {reason}"));
            continue;
        }
        if client_judged_lock && store_side {
            skipped.push(format!(
                "{at} ms: client-judged lock expiry (the DynamoDB lock client's conditional put on the \
                 record version): no DynamoDB server runs here, and Redis judges no such take-over"
            ));
            continue;
        }
        // One mark key per store: the writes, restores, restarts and barriers of the second and
        // later resources (`resources`) are not replayed; the first resource's are.
        if let Some(name) = leaselab::story::narrate::resource_of(&entry.event)
            .filter(|name| config.resources.first().is_some_and(|first| first != name))
        {
            skipped.push(format!(
                "{at} ms: resource \"{name}\" is not the run's first resource; the suite keeps one fenced \
                 mark per server and replays only the first resource's writes"
            ));
            continue;
        }
        if observer && store_event {
            skipped.push(format!(
                "{} ms: under observer expiry the store judges no expiry (client-go compares \
                 resourceVersion on its own clock), so no server TTL answers it",
                at
            ));
            continue;
        }
        match &entry.event {
            TraceEvent::LeaseGranted { node, token, expires_ms, .. } => push(
                Request::Acquire { node: node.clone(), identity: identity(node) },
                Answer::Granted { token: *token },
                Some(*expires_ms),
            ),
            TraceEvent::LeaseReacquired { node, token, expires_ms } => push(
                Request::Acquire { node: node.clone(), identity: identity(node) },
                Answer::Reacquired { token: *token },
                Some(*expires_ms),
            ),
            TraceEvent::AcquireRefused { node, holder, .. } => push(
                Request::Acquire { node: node.clone(), identity: identity(node) },
                Answer::Refused { holder: holder.clone() },
                None,
            ),
            TraceEvent::LeaseRenewed { node, token, expires_ms } => push(
                Request::Renew { node: node.clone(), identity: identity(node), token: *token },
                Answer::Renewed,
                Some(*expires_ms),
            ),
            TraceEvent::RenewRefused { node, token, .. } => push(
                Request::Renew { node: node.clone(), identity: identity(node), token: *token },
                Answer::RenewRefused,
                None,
            ),
            TraceEvent::LockReleased { node, token, outcome } => push(
                Request::Release { node: node.clone(), identity: identity(node), token: *token, owner_check },
                match outcome {
                    ReleaseOutcome::Released => Answer::Released,
                    ReleaseOutcome::NotOwner { holder } => Answer::NotOwner { holder: holder.clone() },
                    ReleaseOutcome::DeletedOthers { holder, token } => {
                        Answer::DeletedOthers { holder: holder.clone(), token: *token }
                    }
                    ReleaseOutcome::AlreadyFree => Answer::AlreadyFree,
                },
                None,
            ),
            TraceEvent::LeaseExpired { holder, token } => {
                push(Request::CheckExpired { holder: holder.clone(), token: *token }, Answer::Expired, None)
            }
            TraceEvent::LeaseRevoked { .. } => push(Request::Revoke, Answer::Done, None),
            TraceEvent::EpochBarrierRaised { high_water_after, .. } => {
                push(Request::CheckMark, Answer::Mark { mark: *high_water_after }, None)
            }
            TraceEvent::WriteJudged { op_id, token, value, outcome, high_water_after, lock, .. } => push(
                Request::Write { op_id: op_id.clone(), token: token.clone(), value: value.clone(), lock: lock.clone() },
                Answer::Judged { outcome: *outcome, mark: *high_water_after },
                None,
            ),
            TraceEvent::FencingSet { on } => push(Request::SetFencing { on: *on }, Answer::Done, None),
            TraceEvent::IssuerRolledBack { next_token, .. } => {
                push(Request::RollbackIssuer { next_token: *next_token }, Answer::Done, None)
            }
            TraceEvent::ResourceRestored { high_water_after, .. } => push(
                Request::RestoreResource { high_water: *high_water_after },
                Answer::Mark { mark: *high_water_after },
                None,
            ),
            TraceEvent::ResourceRestarted { high_water_after, .. } => {
                push(Request::RestartResource, Answer::Mark { mark: *high_water_after }, None)
            }
            TraceEvent::ClockJumped { target, by_ms, .. } if target == STORE => clock.jump(*by_ms, at),
            TraceEvent::ClockRateSet { target, rate_ppm } if target == STORE => clock.set_rate(*rate_ppm, at),
            TraceEvent::TraceLimitReached { .. } => {
                skipped.push(format!("{at} ms: the run hit the engine's trace limit; later events are missing"))
            }
            _ => {}
        }
    }
    let resource = sim.snapshot().resource;
    Ok(Plan {
        scenario: scenario.to_owned(),
        model: Model::of(config),
        steps,
        final_mark: resource.high_water,
        final_value: resource.value,
        skipped,
        until_ms: config.until_ms,
    })
}

/// A server's answer that differs from the engine's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The built-in's id.
    pub scenario: String,
    /// `redis` or `etcd`.
    pub server: &'static str,
    /// The moment, in virtual ms.
    pub at_ms: u64,
    /// What was asked (`acquire by wang`, `final mark`, …).
    pub request: String,
    /// The engine's answer, as text.
    pub engine: String,
    /// The server's answer, as text.
    pub server_answer: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "MISMATCH {} at {} ms on {}: {}: engine {}, server {}",
            self.scenario, self.at_ms, self.server, self.request, self.engine, self.server_answer
        )
    }
}

/// What one scenario's replay on one server found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Answers compared (the final mark and value count as two).
    pub compared: u64,
    /// Answers the real server cannot decide deterministically (etcd's lessor window), sent but
    /// not compared.
    pub undecidable: u64,
    /// Every answer that differed.
    pub mismatches: Vec<Mismatch>,
}

impl Outcome {
    /// Compares one answer; a difference is recorded as a [`Mismatch`].
    pub fn compare(&mut self, plan: &Plan, server: &'static str, step: &Step, got: &Answer) {
        if step.expected == Answer::Done {
            return;
        }
        self.compared += 1;
        if *got != step.expected {
            self.mismatches.push(Mismatch {
                scenario: plan.scenario.clone(),
                server,
                at_ms: step.at_ms,
                request: step.request.to_string(),
                engine: step.expected.to_string(),
                server_answer: got.to_string(),
            });
        }
    }

    /// Compares the resource's final mark and value with the engine's.
    pub fn compare_final(&mut self, plan: &Plan, server: &'static str, mark: u64, value: Option<String>) {
        let show = |v: &Option<String>| v.as_ref().map_or_else(|| "none".to_owned(), |v| format!("{v:?}"));
        for (what, engine, got) in [
            ("final mark", plan.final_mark.to_string(), mark.to_string()),
            ("final value", show(&plan.final_value), show(&value)),
        ] {
            self.compared += 1;
            if engine != got {
                self.mismatches.push(Mismatch {
                    scenario: plan.scenario.clone(),
                    server,
                    at_ms: plan.until_ms,
                    request: what.to_owned(),
                    engine,
                    server_answer: got,
                });
            }
        }
    }
}

/// A change to a plan that makes one of its answers wrong: the altered plan and the altered step.
pub type Alteration = fn(&Plan) -> Option<(Plan, Step)>;

/// A deliberately wrong engine, for the self-check: the plan with the first refused acquire
/// answered as granted (the token the next grant would have had), as an engine whose `SET NX`
/// ignored a live key would answer. Returns the altered plan and the altered step, or `None`
/// when no acquire was refused.
pub fn grant_a_refused_acquire(plan: &Plan) -> Option<(Plan, Step)> {
    let mut altered = plan.clone();
    let index = altered.steps.iter().position(|s| matches!(s.expected, Answer::Refused { .. }))?;
    let next = altered.steps[..index]
        .iter()
        .rev()
        .find_map(|s| match s.expected {
            Answer::Granted { token } => Some(token + 1),
            _ => None,
        })
        .unwrap_or(plan.model.first_token);
    altered.steps[index].expected = Answer::Granted { token: next };
    let step = altered.steps[index].clone();
    Some((altered, step))
}

/// A deliberately wrong expiry rule, for the self-check: the first term's expiry reported one
/// millisecond before the engine's moment, as an engine whose lease ran out a millisecond early
/// would. Both Redis (alive through its expiry millisecond) and an exclusive rule still hold
/// the key then. Returns the altered plan and step, or `None` when no term expired.
pub fn expire_a_millisecond_early(plan: &Plan) -> Option<(Plan, Step)> {
    let mut altered = plan.clone();
    let index = altered.steps.iter().position(|s| s.expected == Answer::Expired && s.at_ms > 0)?;
    let step = &mut altered.steps[index];
    step.at_ms -= 1;
    step.store_ms -= 1;
    let step = step.clone();
    Some((altered, step))
}

/// A deliberately wrong resource rule, for the self-check: the first write the engine refused
/// as stale answered as accepted. Returns the altered plan and step, or `None` when no write was
/// refused as stale.
pub fn accept_a_stale_write(plan: &Plan) -> Option<(Plan, Step)> {
    let mut altered = plan.clone();
    let index = altered
        .steps
        .iter()
        .position(|s| matches!(s.expected, Answer::Judged { outcome: WriteOutcome::RejectedStale, .. }))?;
    if let Answer::Judged { mark, .. } = altered.steps[index].expected {
        altered.steps[index].expected = Answer::Judged { outcome: WriteOutcome::Accepted, mark };
    }
    let step = altered.steps[index].clone();
    Some((altered, step))
}

/// A deliberately wrong dedupe rule, for the self-check: the first write the engine answered
/// as a duplicate answered as accepted, as a resource that applied a retried op id again would.
/// Returns the altered plan and step, or `None` when no write was a duplicate.
pub fn apply_a_duplicate(plan: &Plan) -> Option<(Plan, Step)> {
    let mut altered = plan.clone();
    let index = altered
        .steps
        .iter()
        .position(|s| matches!(s.expected, Answer::Judged { outcome: WriteOutcome::Duplicate, .. }))?;
    if let Answer::Judged { mark, .. } = altered.steps[index].expected {
        altered.steps[index].expected = Answer::Judged { outcome: WriteOutcome::Accepted, mark };
    }
    let step = altered.steps[index].clone();
    Some((altered, step))
}

#[cfg(test)]
mod tests {
    use super::*;
    use leaselab::scenario::library;

    fn builtin_plan(id: &str) -> Plan {
        let scenario = library::get(id).expect("a built-in").expect("it parses");
        plan(id, &scenario.config).expect("it runs")
    }

    #[test]
    fn every_store_answer_and_write_of_the_trace_becomes_a_step() {
        let scenario = library::get("lantern-race").expect("a built-in").expect("it parses");
        let mut sim = Sim::new(scenario.config.clone()).expect("valid");
        sim.run_to_end();
        let answered = sim
            .trace()
            .iter()
            .filter(|e| {
                matches!(
                    e.event,
                    TraceEvent::LeaseGranted { .. }
                        | TraceEvent::AcquireRefused { .. }
                        | TraceEvent::LeaseRenewed { .. }
                        | TraceEvent::WriteJudged { .. }
                )
            })
            .count();
        let p = builtin_plan("lantern-race");
        assert!(answered > 5, "the scenario does something");
        assert_eq!(p.steps.len(), answered);
        let first = &p.steps[0];
        assert_eq!(first.request, Request::Acquire { node: "xiu".into(), identity: "xiu".into() });
        assert_eq!(first.expected, Answer::Granted { token: 1 });
        assert_eq!(first.expires_ms, Some(first.at_ms + 9_000));
        assert_eq!(p.final_mark, 1);
    }

    #[test]
    fn a_store_clock_jump_moves_every_later_step_on_the_store_clock() {
        let p = builtin_plan("store-clock-jump");
        let jump = 86_400_000;
        assert!(p.steps.iter().filter(|s| s.at_ms < 3_000).all(|s| s.store_ms == s.at_ms as i64));
        let later: Vec<&Step> = p.steps.iter().filter(|s| s.at_ms >= 3_000).collect();
        assert!(!later.is_empty());
        assert!(later.iter().all(|s| s.store_ms == s.at_ms as i64 + jump), "{later:?}");
        assert!(later.iter().any(|s| s.expected == Answer::Expired && s.at_ms == 3_000));
    }

    #[test]
    fn observer_expiry_replays_the_resource_but_not_the_store() {
        let p = builtin_plan("observer-full-wait");
        assert!(!p.uses_store());
        assert!(!p.skipped.is_empty());
        assert!(p.steps.iter().any(|s| matches!(s.request, Request::Write { .. })));
    }

    #[test]
    fn client_judged_locks_replay_the_resource_but_not_the_store() {
        let p = builtin_plan("lock-client-judged");
        assert!(!p.uses_store());
        assert!(p.skipped.iter().any(|s| s.contains("DynamoDB")), "{:?}", p.skipped);
        assert!(p.steps.iter().any(|s| matches!(s.request, Request::Write { .. })));
    }

    #[test]
    fn the_comparison_names_scenario_moment_and_answers() {
        let p = builtin_plan("lantern-race");
        let (altered, step) = grant_a_refused_acquire(&p).expect("wang is refused");
        assert_eq!(step.expected, Answer::Granted { token: 2 });
        let mut outcome = Outcome::default();
        // The true engine's answer, as a server that agrees with the engine would give it.
        let truth = p.steps.iter().find(|s| s.seq == step.seq).expect("same step").expected.clone();
        outcome.compare(&altered, "redis", &step, &truth);
        assert_eq!(outcome.compared, 1);
        let text = outcome.mismatches[0].to_string();
        assert!(text.contains("lantern-race") && text.contains(&format!("at {} ms", step.at_ms)), "{text}");
        assert!(text.contains("engine granted token 2") && text.contains("server refused (held by xiu)"), "{text}");
        let mut same = Outcome::default();
        same.compare(&p, "redis", &p.steps[0], &p.steps[0].expected);
        assert!(same.mismatches.is_empty());
    }

    #[test]
    fn an_expiry_can_be_moved_a_millisecond_early_for_the_self_check() {
        let p = builtin_plan("lock-owner-release");
        let (altered, step) = expire_a_millisecond_early(&p).expect("a's term expires");
        let original = p.steps.iter().find(|s| s.seq == step.seq).expect("same step");
        assert_eq!((step.at_ms, step.store_ms), (original.at_ms - 1, original.store_ms - 1));
        assert_eq!(altered.steps.len(), p.steps.len());
        let changed = altered.steps.iter().zip(&p.steps).filter(|(a, b)| a != b).count();
        assert_eq!(changed, 1, "only that step moved");
    }

    #[test]
    fn a_stale_write_can_be_flipped_for_the_self_check() {
        let p = builtin_plan("fencing-checks");
        let (_, step) = accept_a_stale_write(&p).expect("a stale write");
        assert!(matches!(step.expected, Answer::Judged { outcome: WriteOutcome::Accepted, .. }));
        let mut o = Outcome::default();
        o.compare_final(&p, "etcd", p.final_mark + 1, p.final_value.clone());
        assert_eq!((o.compared, o.mismatches.len()), (2, 1));
        assert_eq!(o.mismatches[0].request, "final mark");
    }

    #[test]
    fn a_duplicate_can_be_applied_again_for_the_self_check() {
        let p = builtin_plan("retried-write-dedupe");
        let (altered, step) = apply_a_duplicate(&p).expect("a duplicate");
        assert!(matches!(step.expected, Answer::Judged { outcome: WriteOutcome::Accepted, .. }));
        assert_eq!(altered.steps.iter().zip(&p.steps).filter(|(a, b)| a != b).count(), 1);
        assert!(apply_a_duplicate(&builtin_plan("fencing-checks")).is_none(), "no dedupe there");
    }

    #[test]
    fn every_store_profile_is_replayed_on_a_server_here() {
        for store in leaselab::engine::StoreKind::ALL {
            assert!(Profile::serving(store.rules().replayed_on).is_some(), "{store:?}");
        }
    }

    #[test]
    fn every_scenario_is_replayed_on_the_store_it_names() {
        for id in library::ids() {
            let s = library::get(id).expect("built-in").expect("parses");
            let expected =
                if s.config.store_kind == leaselab::engine::StoreKind::Etcd { Profile::Etcd } else { Profile::Redis };
            assert_eq!(profile_of(&s.config), expected, "{id}");
        }
        assert_eq!(
            profile_of(&library::get("lock-late-del-etcd").expect("built-in").expect("parses").config),
            Profile::Etcd
        );
    }

    /// With two resources only the first one's writes are replayed (one mark key per server);
    /// the second's are skipped with the reason, and the plan's final mark is the first's.
    #[test]
    fn only_the_first_resource_is_replayed() {
        let p = builtin_plan("two-resources");
        let writes = p.steps.iter().filter(|s| matches!(s.request, Request::Write { .. })).count();
        let scenario = library::get("two-resources").expect("a built-in").expect("it parses");
        let mut sim = Sim::new(scenario.config.clone()).expect("valid");
        sim.run_to_end();
        let at_db = sim
            .trace()
            .iter()
            .filter(|e| matches!(&e.event, TraceEvent::WriteJudged { resource: Some(r), .. } if r == "db"))
            .count();
        assert_eq!(writes, at_db);
        assert!(p.skipped.iter().any(|s| s.contains("\"blobs\"")), "{:?}", p.skipped);
        assert!(p.skipped.iter().all(|s| !s.contains("\"db\"")), "{:?}", p.skipped);
        assert_eq!(p.final_mark, 8);
    }
}
