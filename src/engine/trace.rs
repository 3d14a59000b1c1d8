//! The trace: every observable thing the engine did, in order, with its virtual time.
//!
//! The story layer narrates these events and the scene animates them; the report lists the
//! grants and writes found here; and [`TraceHasher`] folds every entry into the `trace_hash`
//! that proves two runs were identical.

use serde::Serialize;

use super::token::WireToken;

/// One trace entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TraceEntry {
    /// Position in the trace, from 0.
    pub seq: u64,
    /// Virtual time, in ms.
    pub at_ms: u64,
    pub event: TraceEvent,
}

/// Why a leader stopped believing it leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepDownReason {
    /// No successful renewal for `renew_deadline_ms` on its own clock (client-go `RenewDeadline`).
    RenewDeadline,
    /// The coordinator refused its renewal (someone else holds the lease, or it expired).
    RenewRefused,
    /// Lock protocol: the borrower finished its errand (`lock.hold_ms`) and releases the lock.
    Finished,
    /// An acquire reply arrived after the requester's own session had run out (etcd's
    /// `ErrSessionExpired`, etcd-io/etcd#11456): it never starts working.
    SessionExpired,
}

/// What a lock release did to the key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ReleaseOutcome {
    /// The releaser's own key was deleted: the lock is free at once.
    Released,
    /// Someone else holds the key (or it expired); the owner check left it alone.
    NotOwner { holder: Option<String> },
    /// A plain `DEL` deleted a key the releaser did not own: `holder` just lost its lock.
    DeletedOthers { holder: String, token: u64 },
    /// There was no live key to delete.
    AlreadyFree,
}

/// Kinds of protocol message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    AcquireRequest,
    AcquireReply,
    RenewRequest,
    RenewReply,
    Write,
    /// Lock protocol: delete the key (compare-and-delete, or a plain `DEL`).
    ReleaseRequest,
}

impl MessageKind {
    /// Every kind, in the order the search tries them.
    pub const ALL: [MessageKind; 6] = [
        MessageKind::AcquireRequest,
        MessageKind::AcquireReply,
        MessageKind::RenewRequest,
        MessageKind::RenewReply,
        MessageKind::Write,
        MessageKind::ReleaseRequest,
    ];

    /// The kind named `code` ([`MessageKind::code`]), if any.
    pub fn from_code(code: &str) -> Option<MessageKind> {
        MessageKind::ALL.into_iter().find(|k| k.code() == code)
    }

    /// The kind's name as the trace writes it (snake_case): `acquire_request`, `write`, ….
    pub fn code(self) -> &'static str {
        match self {
            MessageKind::AcquireRequest => "acquire_request",
            MessageKind::AcquireReply => "acquire_reply",
            MessageKind::RenewRequest => "renew_request",
            MessageKind::RenewReply => "renew_reply",
            MessageKind::Write => "write",
            MessageKind::ReleaseRequest => "release_request",
        }
    }
}

/// Where a message goes or comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "id")]
pub enum Endpoint {
    Node(String),
    Coordinator,
    Resource,
    /// The outside world (a raw write from the scenario).
    Outside,
}

/// What the resource did with a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteOutcome {
    Accepted,
    /// The token is below the high-water mark (or equal, under the `reject` policy).
    RejectedStale,
    /// The token is missing or malformed.
    RejectedInvalid,
    /// The `dedupe` policy has already applied this op id; nothing applied.
    Duplicate,
    /// The token was issued by another lock than the one guarding this resource.
    RejectedForeignLock,
}

/// Why a refused write was not fencing doing its job but the lock's rightful term being shut
/// out: a liveness failure, safe yet harmful. The oracle of safety ([`Violation`]) has nothing to
/// say about these, so the judged write carries them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Blocked {
    /// The token is the newest the coordinator granted, yet below the high-water mark: the
    /// issuer went back below numbers it had already handed out (etcd-io/etcd#16028, a snapshot
    /// restore without `--bump-revision`). Every write of this term will be refused.
    IssuerBehind,
    /// The mark was set by a token of `lock`, compared as a bare number (`token_scope = global`,
    /// reference case C23); against this lock's own tokens the write would have passed.
    ForeignMark { lock: String },
}

impl WriteOutcome {
    /// The outcome's name as the report writes it: `accepted`, `rejected_stale`, ….
    pub fn code(self) -> &'static str {
        match self {
            WriteOutcome::Accepted => "accepted",
            WriteOutcome::RejectedStale => "rejected_stale",
            WriteOutcome::RejectedInvalid => "rejected_invalid",
            WriteOutcome::Duplicate => "duplicate",
            WriteOutcome::RejectedForeignLock => "rejected_foreign_lock",
        }
    }
}

/// A safety violation found by the oracle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Violation {
    /// The resource accepted a write whose token is older than the newest token the coordinator
    /// had granted. `resource_had_seen_newer` says whether the resource already knew a newer
    /// token (only possible with fencing off: the boat obeying two flag-bearers).
    /// `resource_forgot_newer` (present only when true): the resource had not seen a newer
    /// token by its mark, but had accepted one before and lost it (a restart without a durable
    /// mark, a restore from an old backup).
    StaleWriteAccepted {
        op_id: String,
        from: Option<String>,
        token: u64,
        newest_granted: u64,
        resource_had_seen_newer: bool,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        resource_forgot_newer: bool,
    },
    /// With fencing off, the resource accepted a write with a missing or malformed token.
    InvalidTokenAccepted { op_id: String, from: Option<String>, token: WireToken },
    /// The resource accepted a token lower than one it had accepted before (fencing off, or a
    /// lost or rolled-back high-water mark). `highest_before` is the largest token it had ever
    /// accepted, whatever its mark says now.
    TokenRegression { op_id: String, from: Option<String>, token: u64, highest_before: u64 },
    /// An operation id took effect a second time: a retried write was applied twice (fencing is
    /// not idempotency; only the `dedupe` policy, with a durable record, prevents it).
    DuplicateSideEffect { op_id: String, from: Option<String> },
    /// A lock release deleted a key that another client held (a plain `DEL` after the lock had
    /// expired and been taken: abelaska/jedis-lock#2, redis/redis-py#1031). `node` released,
    /// `holder` lost the lock it had with `holder_token`.
    LockDeletedByNonOwner { node: String, holder: String, holder_token: u64 },
    /// The resource accepted a token issued by another lock (`lock`), compared as a bare number
    /// (reference case C23).
    ForeignTokenAccepted { op_id: String, from: Option<String>, token: u64, lock: String },
}

impl Violation {
    /// The violation's kind in snake_case, as its serialized `kind` tag, the report and the
    /// page's `data-kind` name it (e.g. `stale_write_accepted`).
    pub fn kind(&self) -> &'static str {
        match self {
            Violation::StaleWriteAccepted { .. } => "stale_write_accepted",
            Violation::InvalidTokenAccepted { .. } => "invalid_token_accepted",
            Violation::TokenRegression { .. } => "token_regression",
            Violation::DuplicateSideEffect { .. } => "duplicate_side_effect",
            Violation::LockDeletedByNonOwner { .. } => "lock_deleted_by_non_owner",
            Violation::ForeignTokenAccepted { .. } => "foreign_token_accepted",
        }
    }

    /// The node whose write (or, for a deleted lock, whose release) caused the violation, if it
    /// came from a node.
    pub fn writer(&self) -> Option<&str> {
        match self {
            Violation::StaleWriteAccepted { from, .. }
            | Violation::InvalidTokenAccepted { from, .. }
            | Violation::TokenRegression { from, .. }
            | Violation::DuplicateSideEffect { from, .. }
            | Violation::ForeignTokenAccepted { from, .. } => from.as_deref(),
            Violation::LockDeletedByNonOwner { node, .. } => Some(node),
        }
    }
}

/// Why a command changed nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IgnoredBecause {
    /// Pause: the node is crashed, already paused, or not started yet.
    NotRunning,
    NotPaused,
    AlreadyCrashed,
    NotCrashed,
    AlreadyPartitioned,
    NotPartitioned,
    UnknownNode,
    /// The command names a resource the run does not have (only a live command can: a
    /// scenario's are checked when it is read).
    UnknownResource,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum TraceEvent {
    /// A node process started (at its `start_ms`, or on restart) as a candidate.
    NodeStarted {
        node: String,
    },
    /// A message left its sender; it arrives at `arrive_ms` unless dropped.
    MessageSent {
        id: u64,
        kind: MessageKind,
        from: Endpoint,
        to: Endpoint,
        arrive_ms: u64,
        token: Option<WireToken>,
        /// For a reply: the id of the request it answers (what links an operation's invocation
        /// to its completion in an exported history).
        #[serde(skip_serializing_if = "Option::is_none")]
        reply_to: Option<u64>,
    },
    /// A message was lost: its sender or receiver was cut off, or the receiver had crashed.
    MessageDropped {
        id: u64,
        kind: MessageKind,
    },
    /// The network delivers message `copy_of` twice: `id` is the copy (its `MessageSent` comes
    /// just before), with its own drawn latency (`network.duplicate_percent`).
    MessageDuplicated {
        id: u64,
        copy_of: u64,
        kind: MessageKind,
    },
    /// The network holds message `id` back by `by_ms` on top of its latency (its `MessageSent`
    /// comes just before and already counts it), so later ones may overtake it
    /// (`network.reorder_percent`).
    MessageHeldBack {
        id: u64,
        kind: MessageKind,
        by_ms: u64,
    },
    /// A second reply to a request the node already had its answer to (the network duplicated
    /// the request or the reply) reached `node`, which ignores it, as a client ignores a
    /// response to a call that already returned.
    ReplyIgnored {
        id: u64,
        kind: MessageKind,
        node: String,
    },
    /// The coordinator's compare-and-swap succeeded: a new term with a new token.
    LeaseGranted {
        node: String,
        token: u64,
        lease_transitions: u32,
        expires_ms: u64,
    },
    /// The lease holder asked again while still holding it: same term, same token, renewTime moved.
    LeaseReacquired {
        node: String,
        token: u64,
        expires_ms: u64,
    },
    /// The compare-and-swap failed: someone else holds an unexpired lease.
    AcquireRefused {
        node: String,
        holder: String,
        expires_ms: u64,
    },
    /// A renewal succeeded: renewTime moved (a fresh mark carved, the hourglass flipped).
    LeaseRenewed {
        node: String,
        token: u64,
        expires_ms: u64,
    },
    /// A renewal was refused (not the holder, not the current token, or already expired).
    RenewRefused {
        node: String,
        token: u64,
        holder: Option<String>,
    },
    /// The coordinator's clock passed `renewTime + leaseDuration` with no renewal: the sand ran out.
    LeaseExpired {
        holder: String,
        token: u64,
    },
    /// The coordinator struck the holder's name on command.
    LeaseRevoked {
        holder: Option<String>,
        token: u64,
    },
    /// A node learned it won and now believes it leads.
    BecameLeader {
        node: String,
        token: u64,
    },
    /// A node stopped believing it leads.
    SteppedDown {
        node: String,
        token: u64,
        reason: StepDownReason,
    },
    /// The node stopped leading but its work goes on writing with `token` (`work.stops_with_lease`
    /// is false).
    WorkContinues {
        node: String,
        token: u64,
    },
    /// A bounded shutdown ended (`work.stops_after_ms`): the work that went on with `token`
    /// after the node stepped down stopped, `after_ms` after the loss on the node's clock.
    WorkStopped {
        node: String,
        token: u64,
        after_ms: u64,
    },
    /// The work's client sent write `op_id` again, unchanged, with `token` (`work.retry_after_ms`):
    /// the same op id reaches the resource twice.
    WriteRetried {
        node: String,
        op_id: String,
        token: u64,
        /// The resource, by name, when the run has named resources (`resources`); absent for
        /// the one unnamed resource.
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<String>,
    },
    /// Lock protocol: the store handled a release of `node`, which believed it held `token`.
    LockReleased {
        node: String,
        token: u64,
        outcome: ReleaseOutcome,
    },
    /// A new term raised the resource's high-water mark in the grant's own transaction
    /// (`resource.epoch_barrier`).
    EpochBarrierRaised {
        token: u64,
        high_water_before: u64,
        high_water_after: u64,
        /// The resource, by name, when the run has named resources (`resources`); absent for
        /// the one unnamed resource.
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<String>,
    },
    /// Observer expiry: `node` saw a new version of the record (another holder, or a renewal) and
    /// starts its own wait of `lease_duration_ms` on its clock from now.
    RecordObserved {
        node: String,
        holder: Option<String>,
        version: u64,
        lease_duration_ms: u64,
    },
    /// A clock was stepped: `target` is a node id or `store`; `reads_ms` is its reading after.
    ClockJumped {
        target: String,
        by_ms: i64,
        reads_ms: i64,
    },
    /// A clock's rate changed, in parts per million of true time.
    ClockRateSet {
        target: String,
        rate_ppm: u64,
    },
    /// A paused leader had checked its belief and prepared this write just before freezing.
    WritePrepared {
        node: String,
        op_id: String,
        token: u64,
        /// The resource, by name, when the run has named resources (`resources`); absent for
        /// the one unnamed resource.
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<String>,
    },
    /// The store refused an acquire because its lock-delay still runs: the last holder's term
    /// ended by expiry or invalidation less than `lock.lock_delay_ms` ago (Consul's `LockDelay`,
    /// Chubby's lock-delay). Nobody holds the lock; the delay ends at `until_ms` (true ms).
    AcquireDelayed {
        node: String,
        until_ms: u64,
    },
    /// The lock store failed over to another server (`{"do": "store_failover"}`), by the rule of
    /// its profile ([`StoreKind::failover`](super::profile::StoreKind::failover)). On etcd every
    /// write survives and the new leader's lessor extends every lease: `expires_ms` is the
    /// holder's new expiry (true ms). On Redis the promoted replica lacks the writes of the last
    /// `lag_ms`: `lost_holder` / `lost_token` name the term the old primary had and the replica
    /// does not, `holder` is who holds on the replica, and the token counter went from
    /// `next_token_before` back to `next_token`, so the next grant may repeat a token. `token`
    /// is the holder's token on the new server.
    StoreFailedOver {
        store: super::profile::StoreKind,
        lag_ms: u64,
        holder: Option<String>,
        token: Option<u64>,
        expires_ms: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        lost_holder: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        lost_token: Option<u64>,
        next_token_before: u64,
        next_token: u64,
    },
    /// The coordinator's token counter was restored from an old backup.
    IssuerRolledBack {
        next_token_before: u64,
        next_token: u64,
    },
    /// The resource was restored from a backup with a (possibly lower) high-water mark.
    ResourceRestored {
        high_water_before: u64,
        high_water_after: u64,
        /// The resource, by name, when the run has named resources (`resources`); absent for
        /// the one unnamed resource.
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<String>,
    },
    /// The resource process restarted; `high_water_after` is 0 when the mark was in memory only.
    ResourceRestarted {
        high_water_before: u64,
        high_water_after: u64,
        /// The resource, by name, when the run has named resources (`resources`); absent for
        /// the one unnamed resource.
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<String>,
    },
    /// A write reached the resource and was judged, atomically with applying it.
    WriteJudged {
        op_id: String,
        from: Option<String>,
        token: WireToken,
        value: String,
        sent_ms: u64,
        outcome: WriteOutcome,
        high_water_before: u64,
        high_water_after: u64,
        /// Whether the resource was checking tokens when it judged this write.
        fencing: bool,
        /// The lock that issued the token, when it is not the one guarding the resource.
        #[serde(skip_serializing_if = "Option::is_none")]
        lock: Option<String>,
        /// The id of the message that carried it (`None` for a write from outside).
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<u64>,
        /// Set when this refusal shut out the lock's rightful term instead of a stale one.
        #[serde(skip_serializing_if = "Option::is_none")]
        blocked: Option<Blocked>,
        /// The resource that judged it, by name, when the run has named resources
        /// (`resources`): each judges against its own mark. Absent for the one unnamed resource.
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<String>,
    },
    /// The oracle found a violation.
    ViolationFound {
        violation: Violation,
        /// The resource whose write it concerns, by name, when the run has named resources: the
        /// oracle judges each resource against what that resource accepted.
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<String>,
    },
    Paused {
        node: String,
    },
    Resumed {
        node: String,
    },
    Crashed {
        node: String,
    },
    Restarted {
        node: String,
    },
    Partitioned {
        node: String,
    },
    /// A partition cut only one of the node's links (`coordinator` or `resource`).
    PartitionedFrom {
        node: String,
        from: super::command::Link,
    },
    Healed {
        node: String,
    },
    FencingSet {
        on: bool,
    },
    /// The next write of `node` will be held up by `by_ms`.
    WriteDelayArmed {
        node: String,
        by_ms: u64,
    },
    /// The network will lose, hold back or copy the next message of `kind` between `node` and
    /// the store or the resource ([`super::Command::NextMessage`]).
    MessageFaultArmed {
        node: String,
        kind: MessageKind,
        fault: super::command::MessageFault,
    },
    /// The scenario's scripted steps still ahead for `node` were set aside
    /// ([`super::Command::DropScript`]) and will not happen: `dropped_ms` holds their times, in
    /// the order they would have applied. Empty when nothing was left for the node (the drop is
    /// recorded all the same, so the log can say the learner asked).
    ScriptDropped {
        node: String,
        dropped_ms: Vec<u64>,
    },
    /// A command was ignored because it made no sense in the current state (e.g. resuming a node
    /// that is not paused). `command` is the command as JSON.
    CommandIgnored {
        command: String,
        why: IgnoredBecause,
    },
    /// The run reached `until_ms`.
    RunEnded,
    /// The run produced [`super::MAX_TRACE_ENTRIES`] entries and stopped early, at this
    /// entry's time (a `run_ended` follows).
    TraceLimitReached {
        entries: usize,
    },
}

/// 64-bit FNV-1a over the canonical JSON of each trace entry.
///
/// Not cryptographic: it proves that two runs produced the same trace, bit for bit, on any
/// platform (native and wasm32 produce the same JSON and the same hash).
///
/// It folds the entries when the hash is asked for ([`TraceHasher::catch_up`]), not as they are
/// made: a run that nobody asks the hash of never serializes its trace (the page's first scene
/// does not show it, issue 14), and the hash is the same whenever it is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceHasher {
    hash: u64,
    /// How many entries, from the trace's first, are folded into `hash`.
    folded: usize,
}

impl Default for TraceHasher {
    fn default() -> Self {
        // FNV's offset basis: the hash of nothing.
        Self { hash: std::hash::Hasher::finish(&fnv::FnvHasher::default()), folded: 0 }
    }
}

impl TraceHasher {
    /// Folds in the entries of `trace` after the ones already folded (`trace` is the same trace,
    /// grown, or a prefix of it at least as long as what was folded).
    pub fn catch_up(&mut self, trace: &[TraceEntry]) {
        for entry in trace.get(self.folded..).unwrap_or_default() {
            self.add(entry);
        }
    }

    /// Folds one entry into the hash.
    fn add(&mut self, entry: &TraceEntry) {
        // Serializing plain data with string keys cannot fail; if it ever did, the error's text is
        // hashed (a `Debug` fallback would put every type's `Debug` code, floats included, into
        // the page: about 4 KB of brotli).
        use std::hash::Hasher as _;
        let bytes = serde_json::to_vec(entry).unwrap_or_else(|e| e.to_string().into_bytes());
        let mut fnv = fnv::FnvHasher::with_key(self.hash);
        fnv.write(&bytes);
        fnv.write(b"\n");
        self.hash = fnv.finish();
        self.folded += 1;
    }

    /// The hash as 16 lowercase hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash folded when asked, however often, is the FNV-1a of the trace's JSON lines: asked
    /// at every step, at a few moments, or once at the end, a run gives the same hash, and the
    /// hash of a copy taken midway and played on is the same too.
    #[test]
    fn the_hash_does_not_depend_on_when_it_is_asked() {
        use std::hash::Hasher as _;
        let scenario = crate::scenario::library::get("harbor-zombie").and_then(Result::ok).expect("the built-in");
        let mut often = crate::engine::Sim::new(scenario.config.clone()).expect("valid");
        let mut midway = None;
        while often.step() > 0 {
            often.fold_trace_hash();
            if often.now_ms() >= 20_000 && midway.is_none() {
                midway = Some(often.clone());
            }
        }
        let mut once = crate::engine::Sim::new(scenario.config).expect("valid");
        once.run_to_end();
        let mut midway = midway.expect("the run passes 20 s");
        midway.run_to_end();
        let mut fnv = fnv::FnvHasher::default();
        for entry in once.trace() {
            fnv.write(&serde_json::to_vec(entry).expect("plain data"));
            fnv.write(b"\n");
        }
        let expected = format!("{:016x}", fnv.finish());
        assert!(once.trace().len() > 20, "a run with a trace");
        assert_eq!(often.fold_trace_hash(), expected);
        assert_eq!(once.trace_hash(), expected);
        assert_eq!(midway.trace_hash(), expected);
    }

    /// `code` names each kind as the trace's JSON does.
    #[test]
    fn message_kind_codes_are_the_trace_names() {
        for kind in MessageKind::ALL {
            let json = serde_json::to_string(&kind).expect("plain data");
            assert_eq!(json, format!("\"{}\"", kind.code()));
            assert_eq!(MessageKind::from_code(kind.code()), Some(kind));
        }
    }
}
