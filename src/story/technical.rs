//! The coordinator's record as three real systems would show it, and the fenced resource's
//! ledger of judged writes and violations.
//!
//! Everything here is derived from the current [`Snapshot`] and the trace, nothing else:
//!
//! - [`technical_view`]: the lease as `kubectl`, `redis-cli` or `etcdctl` would print it
//!   ([`View`]). Virtual times print as offsets from the start of the run (`T+12.345s`), never
//!   as made-up dates. What a system does not have (Kubernetes and Redis issue no fencing token)
//!   is said in a translated note, not invented in the output.
//! - [`Ledger`]: the latest writes the resource judged and every violation the oracle reported,
//!   folded from the trace incrementally (each entry once).

use std::collections::VecDeque;

use super::i18n::{fill, Later};
use super::violations::Found;
use crate::engine::Liveness;
use crate::engine::{LeaseView, Snapshot, StoreKind, TraceEntry, TraceEvent, WriteOutcome};
use crate::vocab::Lang;

/// The store a profile reproduces, as its makers name it (the same in every language), with the
/// version whose behaviour the profile follows and `cargo xtask conform` checks.
pub fn store_name(kind: StoreKind) -> &'static str {
    match kind {
        StoreKind::Redis => "Redis 7.0",
        StoreKind::Etcd => "etcd 3.4",
        StoreKind::Kubernetes => "Kubernetes (client-go)",
    }
}

/// The note that names the run's store profile and its rules (the first note of every view).
pub fn store_note(kind: StoreKind, lang: Lang) -> String {
    let rules = match kind {
        StoreKind::Redis => Later::StoreRulesRedis,
        StoreKind::Etcd => Later::StoreRulesEtcd,
        StoreKind::Kubernetes => Later::StoreRulesK8s,
    };
    fill(Later::TechNoteStore.text(lang), &[("store", store_name(kind)), ("rules", rules.text(lang))])
}

/// Which real system's view of the lease to show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum View {
    /// A `coordination.k8s.io/v1` Lease, as `kubectl get lease -o yaml` prints it.
    #[default]
    K8s,
    /// A `SET key value NX PX ttl` lock, as `redis-cli` answers `GET` and `PTTL`.
    Redis,
    /// An etcd lock key under a lease (the `concurrency.Mutex` layout), as `etcdctl` shows it.
    Etcd,
}

impl View {
    /// Every view, in picker order.
    pub const ALL: [View; 3] = [View::K8s, View::Redis, View::Etcd];

    /// The code used in the URL (`&view=`) and as the picker's option value.
    pub fn code(self) -> &'static str {
        match self {
            View::K8s => "k8s",
            View::Redis => "redis",
            View::Etcd => "etcd",
        }
    }

    /// Reads a view code (`k8s`, `redis`, `etcd`; case and surrounding blanks ignored).
    pub fn from_code(code: &str) -> Option<View> {
        let code = code.trim();
        View::ALL.into_iter().find(|v| v.code().eq_ignore_ascii_case(code))
    }

    /// The picker's label.
    pub fn label(self) -> Later {
        match self {
            View::K8s => Later::TechViewK8s,
            View::Redis => Later::TechViewRedis,
            View::Etcd => Later::TechViewEtcd,
        }
    }
}

/// What a line of a terminal transcript is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TermKind {
    /// What was typed (with its prompt).
    Command,
    /// What the tool printed.
    Output,
}

/// One line of a terminal transcript. Language-neutral: tools print the same in any language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermLine {
    /// Typed or printed.
    pub kind: TermKind,
    /// The line as the terminal shows it (a command with its prompt).
    pub text: String,
}

/// A view of the lease: a terminal transcript and translated notes on what it means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TechView {
    /// Which system it imitates.
    pub view: View,
    /// The terminal transcript: commands and what the tool printed.
    pub lines: Vec<TermLine>,
    /// Notes in the chosen language (what the system lacks, why a key is gone, …).
    pub notes: Vec<String>,
}

/// The lease as every system must judge it now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeaseState {
    /// Nobody holds it: never granted, or revoked.
    Free,
    /// Someone holds a live lease.
    Held {
        /// `holderIdentity`.
        holder: String,
        /// The fencing token of the term.
        token: u64,
        /// Time left before it expires on the coordinator's clock, ≥ 1 ms.
        remaining_ms: u64,
    },
    /// The holder's term ran out and nobody has taken the lease since (Kubernetes still shows
    /// the name; Redis and etcd have deleted the key).
    Expired {
        /// `holderIdentity`, still on the record.
        holder: String,
        /// The fencing token of the term that ran out.
        token: Option<u64>,
        /// When it ran out: `renewTime + leaseDuration`, in ms.
        expired_at_ms: u64,
    },
}

/// The lease at the snapshot's time, as every system must show it: from the one judgement of
/// whether it is live, the engine's [`Liveness::judge`] (the snapshot's `lease.liveness`).
pub fn lease_state(snap: &Snapshot) -> LeaseState {
    let lease = &snap.lease;
    let Some(holder) = lease.holder_identity.clone() else { return LeaseState::Free };
    match (lease.liveness, lease.token) {
        (Liveness::Live { remaining_ms }, Some(token)) => LeaseState::Held { holder, token, remaining_ms },
        (Liveness::Live { .. }, None) => LeaseState::Expired { holder, token: None, expired_at_ms: snap.now_ms },
        (Liveness::Lapsed { since_ms }, token) => LeaseState::Expired { holder, token, expired_at_ms: since_ms },
        (Liveness::Free, _) => LeaseState::Free,
    }
}

/// A virtual time as an offset from the start of the run, e.g. `T+12.345s`.
pub fn offset(ms: u64) -> String {
    format!("T+{}.{:03}s", ms / 1000, ms % 1000)
}

/// A name usable as a Kubernetes object name, a Redis key part and an etcd path segment:
/// lowercase letters, digits, `-` and `.`, at most 63 characters; anything else becomes `-`.
/// Empty input gives `leaselab`.
pub fn lock_name(scenario_id: &str) -> String {
    let name: String = scenario_id
        .chars()
        .take(63)
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let name = name.trim_matches(|c| c == '-' || c == '.');
    if name.is_empty() {
        "leaselab".to_owned()
    } else {
        name.to_owned()
    }
}

/// The etcd lease ID of the term with `token`. LeaseLab's coordinator issues no lease IDs, so
/// the view makes one up from the token: `6c6c` ("ll") in the top bits, the token below, so each
/// term has its own ID and the same term always the same one.
pub fn etcd_lease_id(token: u64) -> u64 {
    0x6c6c_0000_0000_0000 | (token & 0x0000_ffff_ffff_ffff)
}

/// A string quoted the way `redis-cli` and Go's `%q` print it: in double quotes, with `"` and
/// `\` escaped and control characters as `\n`, `\t`, `\xHH`.
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", u32::from(c) & 0xff)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `text` escaped for markup: the one rule of [`super::markup`] (build markup with
/// [`super::markup::Markup`], which cannot take text unescaped).
pub fn escape_html(text: &str) -> String {
    super::markup::escape(text)
}

/// A YAML scalar as `kubectl` prints it: plain when it cannot be mistaken for anything else,
/// otherwise double-quoted.
fn yaml_scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
        && s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "y" | "n"
        );
    if plain {
        s.to_owned()
    } else {
        quoted(s)
    }
}

/// Whole seconds, rounded up (systems that count TTLs in seconds), and whether that was exact.
fn whole_seconds(ms: u64) -> (u64, bool) {
    (ms.div_ceil(1000), ms % 1000 == 0)
}

fn command(text: String) -> TermLine {
    TermLine { kind: TermKind::Command, text }
}

fn output(text: String) -> TermLine {
    TermLine { kind: TermKind::Output, text }
}

/// The lease of `snap` as `view` shows it; `name` names the lock (the scenario's `lock.name`;
/// see [`lock_name`]).
pub fn technical_view(view: View, snap: &Snapshot, name: &str, lang: Lang) -> TechView {
    technical_view_as(view, snap, name, lang, &|identity| identity.to_owned())
}

/// [`technical_view`] with the holder printed as `shown` names it (the fable's handle for a
/// process, see [`super::Cast::handle`]); the record is otherwise printed as it is.
pub fn technical_view_as(
    view: View,
    snap: &Snapshot,
    name: &str,
    lang: Lang,
    shown: &dyn Fn(&str) -> String,
) -> TechView {
    let renamed =
        snap.lease.holder_identity.as_deref().map(shown).filter(|h| Some(h) != snap.lease.holder_identity.as_ref());
    let retold;
    let snap = match renamed {
        Some(holder) => {
            retold =
                Snapshot { lease: LeaseView { holder_identity: Some(holder), ..snap.lease.clone() }, ..snap.clone() };
            &retold
        }
        None => snap,
    };
    let name = lock_name(name);
    let (lines, mut notes) = match view {
        View::K8s => k8s(snap, &name, lang),
        View::Redis => redis(snap, &name, lang),
        View::Etcd => etcd(snap, &name, lang),
    };
    notes.insert(0, store_note(snap.store_kind, lang));
    TechView { view, lines, notes }
}

/// `kubectl get lease NAME -o yaml`. Shape: the Lease example on kubernetes.io ("Leases",
/// API server identity): `apiVersion`, `kind`, `metadata`, then `spec` with its fields in
/// alphabetical order (kubectl sorts keys), `MicroTime` values quoted, fields that are not set
/// left out; and kubectl's `Error from server (NotFound)` line for an object that does not
/// exist yet. `resourceVersion` is the record's version; other server-set metadata (uid,
/// creationTimestamp) is left out.
fn k8s(snap: &Snapshot, name: &str, lang: Lang) -> (Vec<TermLine>, Vec<String>) {
    let lease = &snap.lease;
    let mut lines = vec![command(format!("$ kubectl get lease {name} -o yaml"))];
    let mut notes = Vec::new();
    let exists = lease.token.is_some() || lease.holder_identity.is_some() || lease.acquire_time_ms.is_some();
    if !exists {
        lines.push(output(format!("Error from server (NotFound): leases.coordination.k8s.io \"{name}\" not found")));
        notes.push(Later::TechNoteK8sMissing.text(lang).to_owned());
    } else {
        let (secs, exact) = whole_seconds(lease.lease_duration_ms);
        lines.extend(
            [
                "apiVersion: coordination.k8s.io/v1".to_owned(),
                "kind: Lease".to_owned(),
                "metadata:".to_owned(),
                format!("  name: {name}"),
                "  namespace: default".to_owned(),
                // The record's version: every acquire, renewal, release or revoke moves it, and
                // an observer's takeover is a compare-and-swap on it.
                format!("  resourceVersion: \"{}\"", lease.version),
                "spec:".to_owned(),
            ]
            .into_iter()
            .map(output),
        );
        if let Some(t) = lease.acquire_time_ms {
            lines.push(output(format!("  acquireTime: \"{}\"", offset(t))));
        }
        if let Some(h) = &lease.holder_identity {
            lines.push(output(format!("  holderIdentity: {}", yaml_scalar(h))));
        }
        lines.push(output(format!("  leaseDurationSeconds: {secs}")));
        lines.push(output(format!("  leaseTransitions: {}", lease.lease_transitions)));
        if let Some(t) = lease.renew_time_ms {
            lines.push(output(format!("  renewTime: \"{}\"", offset(t))));
        }
        match lease_state(snap) {
            LeaseState::Free => notes.push(Later::TechNoteK8sNoHolder.text(lang).to_owned()),
            LeaseState::Expired { expired_at_ms, .. } => {
                notes.push(fill(Later::TechNoteK8sExpired.text(lang), &[("at", &offset(expired_at_ms))]))
            }
            LeaseState::Held { .. } => {}
        }
        if !exact {
            notes.push(whole_seconds_note("Kubernetes", lease.lease_duration_ms, lang));
        }
        notes.push(Later::TechNoteTimes.text(lang).to_owned());
    }
    let token = lease.token.map_or_else(|| Later::Nothing.text(lang).to_owned(), |t| t.to_string());
    notes.insert(0, fill(Later::TechNoteK8sToken.text(lang), &[("token", &token)]));
    (lines, notes)
}

fn whole_seconds_note(system: &str, ms: u64, lang: Lang) -> String {
    fill(Later::TechNoteWholeSeconds.text(lang), &[("system", system), ("s", &super::i18n::span(ms))])
}

/// `redis-cli`: `GET` and `PTTL` on the lock key. Shapes: redis.io's `PTTL` page (an integer
/// reply, `-2` when the key does not exist, `-1` without an expiry, never the case for a lock
/// set with `PX`) and redis-cli's `(integer) N`, `(nil)` and quoted bulk strings.
fn redis(snap: &Snapshot, name: &str, lang: Lang) -> (Vec<TermLine>, Vec<String>) {
    let key = format!("lock:{name}");
    let prompt = "127.0.0.1:6379>";
    let mut lines = vec![command(format!("{prompt} GET {key}"))];
    let mut notes = Vec::new();
    match lease_state(snap) {
        LeaseState::Held { holder, token, remaining_ms } => {
            lines.push(output(quoted(&format!("{holder}:{token}"))));
            lines.push(command(format!("{prompt} PTTL {key}")));
            lines.push(output(format!("(integer) {remaining_ms}")));
            let ttl = snap.lease.lease_duration_ms.to_string();
            notes.push(fill(Later::TechNoteRedisValue.text(lang), &[("token", &token.to_string()), ("ttl", &ttl)]));
        }
        LeaseState::Free | LeaseState::Expired { .. } => {
            lines.push(output("(nil)".to_owned()));
            lines.push(command(format!("{prompt} PTTL {key}")));
            lines.push(output("(integer) -2".to_owned()));
            notes.push(Later::TechNoteRedisGone.text(lang).to_owned());
        }
    }
    (lines, notes)
}

/// `etcdctl`: the lock key under its prefix, and its lease's time to live.
///
/// - The key is `/locks/NAME/LEASEID` in hex, as `concurrency.Mutex` names it (prefix + lease ID).
/// - `etcdctl get --prefix … -w fields` prints each key-value as `"Key"`, `"CreateRevision"`,
///   `"ModRevision"`, `"Version"`, `"Value"`, `"Lease"` lines, then `"More"` and `"Count"`
///   (etcdctl's fields printer; the `create_revision` / `mod_revision` names are the JSON ones
///   in etcd.io's "Reading from etcd"). The response header lines (`"ClusterID"`, `"MemberID"`,
///   `"Revision"`, `"RaftTerm"`) are left out: LeaseLab has no cluster.
/// - `etcdctl lease timetolive ID` prints `lease ID granted with TTL(Ns), remaining(Ms)`, or
///   `lease ID already expired` (etcd PR #9052; etcdctl's simple printer, ID as `%016x`).
///   etcd's remaining TTL is whole seconds, rounded down ("expires in under TTL+1 seconds").
fn etcd(snap: &Snapshot, name: &str, lang: Lang) -> (Vec<TermLine>, Vec<String>) {
    let prefix = format!("/locks/{name}/");
    let mut lines = vec![command(format!("$ etcdctl get --prefix {prefix} -w fields"))];
    let mut notes = Vec::new();
    let (granted_ttl, exact) = whole_seconds(snap.lease.lease_duration_ms);
    match lease_state(snap) {
        LeaseState::Held { holder, token, remaining_ms } => {
            let id = etcd_lease_id(token);
            lines.extend(
                [
                    format!("\"Key\" : {}", quoted(&format!("{prefix}{id:x}"))),
                    format!("\"CreateRevision\" : {token}"),
                    format!("\"ModRevision\" : {token}"),
                    "\"Version\" : 1".to_owned(),
                    format!("\"Value\" : {}", quoted(&holder)),
                    format!("\"Lease\" : {id}"),
                    "\"More\" : false".to_owned(),
                    "\"Count\" : 1".to_owned(),
                ]
                .into_iter()
                .map(output),
            );
            lines.push(command(format!("$ etcdctl lease timetolive {id:016x}")));
            lines.push(output(format!(
                "lease {id:016x} granted with TTL({granted_ttl}s), remaining({}s)",
                remaining_ms / 1000
            )));
            notes.push(Later::TechNoteEtcdRevision.text(lang).to_owned());
            if !exact {
                notes.push(whole_seconds_note("etcd", snap.lease.lease_duration_ms, lang));
            }
        }
        LeaseState::Free | LeaseState::Expired { .. } => {
            lines.push(output("\"More\" : false".to_owned()));
            lines.push(output("\"Count\" : 0".to_owned()));
            match snap.lease.token {
                Some(token) => {
                    let id = etcd_lease_id(token);
                    lines.push(command(format!("$ etcdctl lease timetolive {id:016x}")));
                    lines.push(output(format!("lease {id:016x} already expired")));
                    notes.push(Later::TechNoteEtcdGone.text(lang).to_owned());
                }
                None => notes.push(Later::TechNoteNoGrant.text(lang).to_owned()),
            }
        }
    }
    (lines, notes)
}

// ---------------------------------------------------------------------------------------------
// The ledger: judged writes and violations

/// How many judged writes the resource table shows.
pub const WRITES_KEPT: usize = 12;

/// How many violations the panel keeps (the newest); older ones are only counted.
pub const VIOLATIONS_KEPT: usize = 200;

/// One write the resource judged (a `WriteJudged` trace event).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgedWrite {
    /// See [`Ledger::generation`].
    pub generation: u32,
    /// Position of its `WriteJudged` entry in the trace.
    pub seq: u64,
    /// When the resource judged it, in virtual ms.
    pub at_ms: u64,
    /// The operation id the write carried.
    pub op_id: String,
    /// The sending node; `None` for a write from outside.
    pub from: Option<String>,
    /// The token as received: the number, `∅` when absent, or the raw JSON.
    pub token: String,
    /// What the resource did with it.
    pub outcome: WriteOutcome,
    /// The high-water mark before the write was judged…
    pub high_water_before: u64,
    /// …and after.
    pub high_water_after: u64,
    /// The resource that judged it, by name, in a run with named resources (`resources`).
    pub resource: Option<String>,
}

impl JudgedWrite {
    /// The outcome's name in the report (`accepted`, `rejected_stale`, …), for `data-outcome`.
    pub fn outcome_code(&self) -> &'static str {
        self.outcome.code()
    }

    /// The outcome's label in the table.
    pub fn outcome_label(&self) -> Later {
        match self.outcome {
            WriteOutcome::Accepted => Later::OutcomeAccepted,
            WriteOutcome::RejectedStale => Later::OutcomeRejectedStale,
            WriteOutcome::RejectedInvalid => Later::OutcomeRejectedInvalid,
            WriteOutcome::Duplicate => Later::OutcomeDuplicate,
            WriteOutcome::RejectedForeignLock => Later::OutcomeRejectedForeign,
        }
    }

    /// `before → after` of the high-water mark, after the resource's name when it has one
    /// (`db 7 → 8`): each resource's mark is its own.
    pub fn mark_change(&self) -> String {
        let change = format!("{} → {}", self.high_water_before, self.high_water_after);
        match &self.resource {
            Some(name) => format!("{name} {change}"),
            None => change,
        }
    }
}

/// What the engineer's panels remember from the trace: things a single snapshot cannot tell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    /// Trace entries folded so far.
    seen: usize,
    /// Grows each time a new run starts, so rows of different runs never share a key.
    pub generation: u32,
    /// The latest judged writes, oldest first (at most [`WRITES_KEPT`]).
    pub writes: VecDeque<JudgedWrite>,
    /// The newest violations, oldest first (at most [`VIOLATIONS_KEPT`]).
    pub violations: VecDeque<Found>,
    /// Every violation reported in this run, also those no longer kept.
    pub violations_total: u64,
    /// The first valid token a resource accepted from two different writers, if any.
    pub shared_token: Option<SharedToken>,
    /// The latest tokens accepted, each with its resource (`None`: the only one) and its first
    /// writer, newest last (at most [`TOKENS_KEPT`]), for finding [`Ledger::shared_token`].
    accepted_from: VecDeque<(u64, Option<String>, String)>,
}

/// Two writers whose writes one resource accepted under the same token: two holders of one
/// number (an issuer that handed it out twice, as after a Redis fail-over that lost the
/// counter's `INCR`). The oracle counts none of it: no write was older than the newest token, none
/// went backwards, none was applied twice; a fence cannot tell the two apart unless equal tokens
/// are refused (Kleppmann 2016; seed `004`'s equal-token policy).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedToken {
    pub token: u64,
    /// The node whose write under `token` was accepted first.
    pub first: String,
    /// The other node, and when its write under the same token was accepted, in virtual ms.
    pub second: String,
    pub at_ms: u64,
}

/// How many recently accepted tokens [`Ledger`] remembers to find a shared one: tokens only
/// climb at a resource that fences, so two holders of one token write close together.
pub const TOKENS_KEPT: usize = 8;

impl Ledger {
    /// Folds the entries of `trace` not seen yet; returns whether anything the panels show
    /// changed. `trace` must be the same run's whole trace; a shorter one (a new run) starts over.
    pub fn absorb(&mut self, trace: &[TraceEntry]) -> bool {
        let mut changed = false;
        if trace.len() < self.seen {
            self.restart();
            changed = true;
        }
        for entry in trace.get(self.seen..).unwrap_or(&[]) {
            changed |= self.absorb_one(entry);
        }
        self.seen = trace.len();
        changed
    }

    /// Forgets everything for a new run.
    pub fn restart(&mut self) {
        *self = Ledger { generation: self.generation.wrapping_add(1), ..Ledger::default() };
    }

    /// The kept violations with their index in [`Ledger::violations`], newest first; violations
    /// found at the same moment stay in the oracle's order (a stale write before the regression
    /// it also is).
    pub fn violations_newest_first(&self) -> Vec<(usize, &Found)> {
        // Kept in trace order, so time never decreases: emit the groups of equal time from the
        // last one back, each group forwards (no sort: a sort costs the page KBs of wasm).
        let mut out = Vec::with_capacity(self.violations.len());
        let mut end = self.violations.len();
        while end > 0 {
            let at = self.violations.get(end - 1).map(|f| f.at_ms);
            let mut start = end - 1;
            while start > 0 && self.violations.get(start - 1).map(|f| f.at_ms) == at {
                start -= 1;
            }
            out.extend((start..end).filter_map(|i| self.violations.get(i).map(|f| (i, f))));
            end = start;
        }
        out
    }

    /// Violations not kept any more (the oldest ones).
    pub fn violations_dropped(&self) -> u64 {
        self.violations_total.saturating_sub(self.violations.len() as u64)
    }

    /// Remembers who first wrote under `token` at `resource`; a second writer makes it the
    /// [`Ledger::shared_token`] (the first such pair of the run).
    fn note_accepted(&mut self, token: u64, resource: Option<String>, writer: &str, at_ms: u64) {
        let first = self.accepted_from.iter().find(|(t, r, _)| *t == token && *r == resource).map(|(_, _, w)| w);
        match first {
            Some(first) if first != writer && self.shared_token.is_none() => {
                self.shared_token = Some(SharedToken { token, first: first.clone(), second: writer.to_owned(), at_ms });
            }
            Some(_) => {}
            None => {
                self.accepted_from.push_back((token, resource, writer.to_owned()));
                while self.accepted_from.len() > TOKENS_KEPT {
                    self.accepted_from.pop_front();
                }
            }
        }
    }

    fn absorb_one(&mut self, entry: &TraceEntry) -> bool {
        match &entry.event {
            TraceEvent::WriteJudged {
                op_id,
                from,
                token,
                outcome,
                high_water_before,
                high_water_after,
                resource,
                ..
            } => {
                if let (WriteOutcome::Accepted, Some(t), Some(writer)) = (*outcome, token.valid(), from.as_deref()) {
                    self.note_accepted(t, resource.clone(), writer, entry.at_ms);
                }
                self.writes.push_back(JudgedWrite {
                    generation: self.generation,
                    seq: entry.seq,
                    at_ms: entry.at_ms,
                    op_id: op_id.clone(),
                    from: from.clone(),
                    token: token.label(),
                    outcome: *outcome,
                    high_water_before: *high_water_before,
                    high_water_after: *high_water_after,
                    resource: resource.clone(),
                });
                while self.writes.len() > WRITES_KEPT {
                    self.writes.pop_front();
                }
                true
            }
            TraceEvent::ViolationFound { violation, .. } => {
                self.violations.push_back(Found {
                    generation: self.generation,
                    seq: entry.seq,
                    at_ms: entry.at_ms,
                    violation: violation.clone(),
                });
                self.violations_total = self.violations_total.saturating_add(1);
                while self.violations.len() > VIOLATIONS_KEPT {
                    self.violations.pop_front();
                }
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EqualTokenPolicy, LeaseView, ResourceView, Sim, Violation};
    use crate::scenario::library;

    /// A world at `now_ms` with the given lease; no nodes, nothing in flight. Its store judges
    /// expiry at `renewTime + leaseDuration` exactly, as etcd does (the lease is over at that
    /// instant), and the lease's liveness is the engine's judgement of that.
    fn world(now_ms: u64, mut lease: LeaseView) -> Snapshot {
        lease.expired |= lease.holder_identity.is_some() && lease.expires_ms.is_some_and(|e| now_ms >= e);
        lease.liveness =
            Liveness::judge(lease.holder_identity.is_some(), lease.expires_ms, lease.expired, true, now_ms);
        Snapshot {
            now_ms,
            until_ms: 90_000,
            protocol: crate::engine::Protocol::Lease,
            store_kind: crate::engine::StoreKind::Redis,
            expiry: crate::engine::Expiry::Coordinator,
            store_clock_ms: i64::try_from(now_ms).unwrap_or(i64::MAX),
            lease,
            nodes: Vec::new(),
            resource: ResourceView {
                name: None,
                fencing: true,
                equal_token: EqualTokenPolicy::Accept,
                epoch_barrier: false,
                token_scope: crate::engine::TokenScope::PerLock,
                high_water: 0,
                value: None,
                value_from: None,
                value_token: None,
                accepted: 0,
                rejected: 0,
            },
            more_resources: Vec::new(),
            in_flight: Vec::new(),
        }
    }

    fn never_granted() -> LeaseView {
        LeaseView {
            holder_identity: None,
            lease_duration_ms: 15_000,
            acquire_time_ms: None,
            renew_time_ms: None,
            lease_transitions: 0,
            token: None,
            newest_granted: None,
            expires_ms: None,
            expired: false,
            version: 0,
            lock_name: "leader".into(),
            renew_time_store_ms: None,
            liveness: Liveness::Free,
        }
    }

    /// Lin took the lease at 36.5 s with token 8 and last renewed it at 85.07 s (15 s lease).
    fn lin_holds() -> LeaseView {
        LeaseView {
            holder_identity: Some("lin".into()),
            lease_duration_ms: 15_000,
            acquire_time_ms: Some(36_500),
            renew_time_ms: Some(85_070),
            lease_transitions: 1,
            token: Some(8),
            newest_granted: Some(8),
            expires_ms: Some(100_070),
            expired: false,
            version: 9,
            lock_name: "leader".into(),
            renew_time_store_ms: Some(85_070),
            liveness: Liveness::Free,
        }
    }

    fn texts(v: &TechView) -> Vec<&str> {
        v.lines.iter().map(|l| l.text.as_str()).collect()
    }

    fn outputs(v: &TechView) -> Vec<&str> {
        v.lines.iter().filter(|l| l.kind == TermKind::Output).map(|l| l.text.as_str()).collect()
    }

    #[test]
    fn view_codes_round_trip_and_refuse_anything_else() {
        for v in View::ALL {
            assert_eq!(View::from_code(v.code()), Some(v));
        }
        assert_eq!(View::from_code(" Redis "), Some(View::Redis));
        assert_eq!(View::from_code("ETCD"), Some(View::Etcd));
        for bad in ["", "kubernetes", "k8s2", "zookeeper", "<b>"] {
            assert_eq!(View::from_code(bad), None, "{bad}");
        }
        assert_eq!(View::default(), View::K8s);
    }

    #[test]
    fn offsets_and_names() {
        assert_eq!(offset(0), "T+0.000s");
        assert_eq!(offset(12_345), "T+12.345s");
        assert_eq!(offset(90_000), "T+90.000s");
        assert_eq!(lock_name("harbor-zombie"), "harbor-zombie");
        assert_eq!(lock_name("Gc Pause/41"), "gc-pause-41");
        assert_eq!(lock_name("编号"), "leaselab");
        assert_eq!(lock_name(""), "leaselab");
        assert_eq!(lock_name(&"x".repeat(100)).len(), 63);
        assert_eq!(format!("{:016x}", etcd_lease_id(8)), "6c6c000000000008");
        assert_ne!(etcd_lease_id(7), etcd_lease_id(8));
        assert_eq!(quoted("lin:8"), "\"lin:8\"");
        assert_eq!(escape_html("<b a='1'>&\"x\"</b> 老陈"), "&lt;b a=&#39;1&#39;&gt;&amp;&quot;x&quot;&lt;/b&gt; 老陈");
        assert_eq!(quoted("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\x01\"");
    }

    #[test]
    fn lease_states_follow_the_coordinators_clock() {
        assert_eq!(lease_state(&world(0, never_granted())), LeaseState::Free);
        assert_eq!(
            lease_state(&world(92_728, lin_holds())),
            LeaseState::Held { holder: "lin".into(), token: 8, remaining_ms: 7_342 }
        );
        // Expiry is exclusive: at renewTime + duration the lease is no longer held, even before
        // the engine has recorded the expiry.
        assert_eq!(
            lease_state(&world(100_070, lin_holds())),
            LeaseState::Expired { holder: "lin".into(), token: Some(8), expired_at_ms: 100_070 }
        );
        let mut expired = lin_holds();
        expired.expired = true;
        assert!(matches!(lease_state(&world(100_500, expired)), LeaseState::Expired { expired_at_ms: 100_070, .. }));
        let mut revoked = lin_holds();
        revoked.holder_identity = None;
        revoked.expires_ms = None;
        assert_eq!(lease_state(&world(50_000, revoked)), LeaseState::Free);
    }

    #[test]
    fn k8s_prints_the_lease_object_and_keeps_the_token_apart() {
        let held = technical_view(View::K8s, &world(92_728, lin_holds()), "harbor-zombie", Lang::En);
        assert_eq!(
            texts(&held),
            [
                "$ kubectl get lease harbor-zombie -o yaml",
                "apiVersion: coordination.k8s.io/v1",
                "kind: Lease",
                "metadata:",
                "  name: harbor-zombie",
                "  namespace: default",
                "  resourceVersion: \"9\"",
                "spec:",
                "  acquireTime: \"T+36.500s\"",
                "  holderIdentity: lin",
                "  leaseDurationSeconds: 15",
                "  leaseTransitions: 1",
                "  renewTime: \"T+85.070s\"",
            ]
        );
        assert_eq!(held.lines[0].kind, TermKind::Command);
        assert!(!texts(&held).iter().any(|l| l.to_lowercase().contains("token")), "no token in the Lease");
        assert!(held.notes[1].contains("fencing token: 8") && held.notes[1].contains("not part of the Lease object"));
        assert!(!held.notes.iter().any(|n| n.contains("expired")));

        let zh = technical_view(View::K8s, &world(92_728, lin_holds()), "harbor-zombie", Lang::Zh);
        assert_eq!(texts(&zh), texts(&held), "the tool's output does not depend on the language");
        assert!(zh.notes[1].contains("围栏令牌：8") && zh.notes[1].contains("不属于 Lease 对象"), "{}", zh.notes[1]);

        let free = technical_view(View::K8s, &world(0, never_granted()), "harbor-zombie", Lang::En);
        assert_eq!(
            outputs(&free),
            ["Error from server (NotFound): leases.coordination.k8s.io \"harbor-zombie\" not found"]
        );
        assert!(free.notes[1].contains("fencing token: none"));
        assert!(free.notes.iter().any(|n| n.contains("No Lease object yet")));

        // Expired: holderIdentity stays until someone else takes the Lease.
        let mut gone = lin_holds();
        gone.expired = true;
        let expired = technical_view(View::K8s, &world(101_000, gone), "harbor-zombie", Lang::En);
        assert!(texts(&expired).contains(&"  holderIdentity: lin"));
        assert!(expired.notes.iter().any(|n| n.contains("passed at T+100.070s") && n.contains("keeps holderIdentity")));
        let expired_zh = technical_view(
            View::K8s,
            &world(101_000, {
                let mut l = lin_holds();
                l.expired = true;
                l
            }),
            "harbor-zombie",
            Lang::Zh,
        );
        assert!(expired_zh.notes.iter().any(|n| n.contains("T+100.070s") && n.contains("已过期")));

        // Revoked: no holderIdentity line, the rest of the record stays.
        let mut revoked = lin_holds();
        revoked.holder_identity = None;
        revoked.expires_ms = None;
        let r = technical_view(View::K8s, &world(50_000, revoked), "harbor-zombie", Lang::En);
        assert!(!texts(&r).iter().any(|l| l.contains("holderIdentity")));
        assert!(texts(&r).contains(&"  leaseTransitions: 1"));
        assert!(r.notes.iter().any(|n| n.contains("revoked")));
    }

    #[test]
    fn k8s_counts_whole_seconds_and_quotes_odd_identities() {
        let mut short = lin_holds();
        short.lease_duration_ms = 400;
        short.holder_identity = Some("true".into());
        short.expires_ms = Some(85_470);
        let v = technical_view(View::K8s, &world(85_100, short), "ttl-too-short", Lang::En);
        assert!(texts(&v).contains(&"  leaseDurationSeconds: 1"));
        assert!(texts(&v).contains(&"  holderIdentity: \"true\""));
        assert!(v.notes.iter().any(|n| n.contains("whole seconds") && n.contains("lasts 0.4 s")));
    }

    #[test]
    fn redis_shows_the_key_with_its_ttl_or_nothing() {
        let held = technical_view(View::Redis, &world(92_728, lin_holds()), "harbor-zombie", Lang::En);
        assert_eq!(
            texts(&held),
            [
                "127.0.0.1:6379> GET lock:harbor-zombie",
                "\"lin:8\"",
                "127.0.0.1:6379> PTTL lock:harbor-zombie",
                "(integer) 7342",
            ]
        );
        assert!(held.notes[1].contains("no fencing token") && held.notes[1].contains("PX 15000"));
        let held_zh = technical_view(View::Redis, &world(92_728, lin_holds()), "harbor-zombie", Lang::Zh);
        assert!(held_zh.notes[1].contains("令牌 8"), "{}", held_zh.notes[1]);

        for (snap, what) in [(world(0, never_granted()), "free"), (world(100_070, lin_holds()), "expired")] {
            let v = technical_view(View::Redis, &snap, "harbor-zombie", Lang::En);
            assert_eq!(outputs(&v), ["(nil)", "(integer) -2"], "{what}");
            assert!(v.notes[1].contains("(nil)") && v.notes[1].contains("-2"), "{what}");
            let zh = technical_view(View::Redis, &snap, "harbor-zombie", Lang::Zh);
            assert!(zh.notes[1].contains("没有这个键"), "{what}");
        }
    }

    #[test]
    fn etcd_shows_the_revision_as_the_token_and_the_lease_ttl() {
        let held = technical_view(View::Etcd, &world(92_728, lin_holds()), "harbor-zombie", Lang::En);
        let id = etcd_lease_id(8);
        assert_eq!(
            texts(&held),
            [
                "$ etcdctl get --prefix /locks/harbor-zombie/ -w fields".to_owned(),
                "\"Key\" : \"/locks/harbor-zombie/6c6c000000000008\"".to_owned(),
                "\"CreateRevision\" : 8".to_owned(),
                "\"ModRevision\" : 8".to_owned(),
                "\"Version\" : 1".to_owned(),
                "\"Value\" : \"lin\"".to_owned(),
                format!("\"Lease\" : {id}"),
                "\"More\" : false".to_owned(),
                "\"Count\" : 1".to_owned(),
                "$ etcdctl lease timetolive 6c6c000000000008".to_owned(),
                // 7 342 ms left: etcd says 7 s ("expires in under TTL+1 seconds").
                "lease 6c6c000000000008 granted with TTL(15s), remaining(7s)".to_owned(),
            ]
        );
        assert!(held.notes[1].contains("CreateRevision is the fencing token"));

        let expired = technical_view(View::Etcd, &world(100_070, lin_holds()), "harbor-zombie", Lang::En);
        assert_eq!(outputs(&expired), ["\"More\" : false", "\"Count\" : 0", "lease 6c6c000000000008 already expired"]);
        assert!(expired.notes[1].contains("No key"));
        let expired_zh = technical_view(View::Etcd, &world(100_070, lin_holds()), "harbor-zombie", Lang::Zh);
        assert!(expired_zh.notes[1].contains("没有键"));

        let free = technical_view(View::Etcd, &world(0, never_granted()), "harbor-zombie", Lang::En);
        assert_eq!(outputs(&free), ["\"More\" : false", "\"Count\" : 0"]);
        assert!(free.notes[1].contains("Nobody has been granted"));
        let free_zh = technical_view(View::Etcd, &world(0, never_granted()), "harbor-zombie", Lang::Zh);
        assert!(free_zh.notes[1].contains("还没有人"));
    }

    /// The whole harbor-zombie run (seed `000`): before the first grant nobody holds the lease;
    /// Chen holds 7; while he sleeps his lease runs out; Lin takes 8 and still holds it at the
    /// end. Every view tells the same story from the real engine's snapshots.
    #[test]
    fn every_view_first_names_the_store_the_run_uses() {
        for (id, kind, not) in
            [("harbor-zombie", StoreKind::Redis, "etcd"), ("lock-late-del-etcd", StoreKind::Etcd, "Redis")]
        {
            let s = library::get(id).expect("built-in").expect("valid");
            let mut sim = Sim::new(s.config).expect("valid");
            sim.run_to_end();
            let snap = sim.snapshot();
            assert_eq!(snap.store_kind, kind);
            for view in View::ALL {
                for lang in [Lang::En, Lang::Zh] {
                    let v = technical_view(view, &snap, &snap.lease.lock_name, lang);
                    let first = &v.notes[0];
                    assert!(first.contains(store_name(kind)) && !first.contains(not), "{id} {view:?}: {first}");
                }
            }
        }
    }

    #[test]
    fn the_harbor_zombie_run_in_every_view() {
        let scenario = library::get("harbor-zombie").expect("exists").expect("parses");
        let mut sim = Sim::new(scenario.config.clone()).expect("valid");
        sim.advance_to(0);
        let start = sim.snapshot();
        assert_eq!(lease_state(&start), LeaseState::Free);

        sim.advance_to(10_000);
        assert!(
            matches!(lease_state(&sim.snapshot()), LeaseState::Held { ref holder, token: 7, .. } if holder == "chen")
        );
        let redis = technical_view(View::Redis, &sim.snapshot(), &scenario.id, Lang::En);
        assert_eq!(outputs(&redis)[0], "\"chen:7\"");

        // Step until the coordinator has let Chen's lease run out (he sleeps from 20 s).
        let mut saw_expired = false;
        while !sim.finished() {
            sim.step();
            let snap = sim.snapshot();
            if let LeaseState::Expired { holder, token, .. } = lease_state(&snap) {
                assert_eq!((holder.as_str(), token), ("chen", Some(7)));
                let k8s = technical_view(View::K8s, &snap, &scenario.id, Lang::En);
                assert!(texts(&k8s).contains(&"  holderIdentity: chen"));
                assert_eq!(
                    outputs(&technical_view(View::Redis, &snap, &scenario.id, Lang::En)),
                    ["(nil)", "(integer) -2"]
                );
                let etcd = technical_view(View::Etcd, &snap, &scenario.id, Lang::En);
                assert!(texts(&etcd).contains(&"lease 6c6c000000000007 already expired"));
                saw_expired = true;
                break;
            }
        }
        assert!(saw_expired, "Chen's lease ran out while he slept");

        sim.run_to_end();
        let end = sim.snapshot();
        let k8s = technical_view(View::K8s, &end, &scenario.id, Lang::En);
        assert!(texts(&k8s).contains(&"  holderIdentity: lin"));
        assert!(texts(&k8s).contains(&"  leaseTransitions: 1"));
        assert!(k8s.notes[1].contains("fencing token: 8"));
        let redis = technical_view(View::Redis, &end, &scenario.id, Lang::En);
        assert_eq!(outputs(&redis)[0], "\"lin:8\"");
        let etcd = technical_view(View::Etcd, &end, &scenario.id, Lang::En);
        assert!(texts(&etcd).contains(&"\"CreateRevision\" : 8"));
        assert!(texts(&etcd).contains(&"\"Value\" : \"lin\""));
    }

    #[test]
    fn the_ledger_keeps_the_latest_writes_and_every_violation() {
        let scenario = library::get("harbor-no-fencing").expect("exists").expect("parses");
        let mut sim = Sim::new(scenario.config).expect("valid");
        let mut ledger = Ledger::default();
        // Fold in pieces, as the app does frame by frame.
        let mut t = 0;
        while !sim.finished() {
            t += 1_700;
            sim.advance_to(t);
            ledger.absorb(sim.trace());
        }
        let judged = sim.trace().iter().filter(|e| matches!(e.event, TraceEvent::WriteJudged { .. })).count();
        assert!(judged > WRITES_KEPT);
        assert_eq!(ledger.writes.len(), WRITES_KEPT);
        // The newest kept write is the last one judged.
        let last =
            sim.trace().iter().rev().find(|e| matches!(e.event, TraceEvent::WriteJudged { .. })).expect("a write");
        assert_eq!(ledger.writes.back().map(|w| w.seq), Some(last.seq));
        assert!(ledger.writes.iter().zip(ledger.writes.iter().skip(1)).all(|(a, b)| a.seq < b.seq));
        // Fencing off: Chen's 7 is obeyed after Lin's 8, and the oracle says so twice.
        let kinds: Vec<&str> = ledger.violations.iter().map(|f| f.violation.kind()).collect();
        assert_eq!(kinds, ["stale_write_accepted", "token_regression"]);
        assert_eq!(ledger.violations_total, 2);
        let shown: Vec<usize> = ledger.violations_newest_first().iter().map(|(i, _)| *i).collect();
        assert_eq!(shown, [0, 1], "found at the same moment: the oracle's order");
        assert_eq!(ledger.violations_dropped(), 0);
        assert!(matches!(
            &ledger.violations[0].violation,
            Violation::StaleWriteAccepted { from: Some(f), token: 7, .. } if f == "chen"
        ));
        // The write that caused them is in the table, accepted, with the mark staying at 8.
        let chen7 =
            ledger.writes.iter().find(|w| w.from.as_deref() == Some("chen") && w.token == "7").expect("Chen's 7");
        assert_eq!((chen7.outcome_code(), chen7.mark_change().as_str()), ("accepted", "8 → 8"));

        // A new run starts over, under a new generation.
        let before = ledger.generation;
        assert!(ledger.absorb(&sim.trace()[..1]));
        assert_eq!(ledger.generation, before + 1);
        assert!(ledger.writes.is_empty() && ledger.violations.is_empty());
        assert!(!ledger.absorb(&sim.trace()[..1]), "nothing new, nothing changed");
    }

    /// The Redis fail-over built-in: A-Xiu and Smith Wang both hold wick No. 1 and the keeper
    /// accepts both (its summary, after Kleppmann 2016), with no violation counted; the harbor's
    /// Chen (7) and Lin (8) never share one.
    #[test]
    fn the_ledger_finds_two_writers_sharing_one_token() {
        let run = |id: &str| {
            let scenario = library::get(id).expect("exists").expect("parses");
            let mut sim = Sim::new(scenario.config).expect("valid");
            let mut ledger = Ledger::default();
            while !sim.finished() {
                let t = sim.now_ms() + 900;
                sim.advance_to(t);
                ledger.absorb(sim.trace());
            }
            ledger
        };
        let ledger = run("lock-failover-redis");
        let shared = ledger.shared_token.clone().expect("two holders of No. 1");
        assert_eq!((shared.token, shared.first.as_str(), shared.second.as_str()), (1, "a", "b"));
        // Wang starts at 0.4 s; A-Xiu's renewal finds his key at 3.5 s.
        assert!((400..3_500).contains(&shared.at_ms), "{shared:?}");
        assert_eq!(ledger.violations_total, 0);
        assert_eq!(run("harbor-zombie").shared_token, None);
        assert_eq!(run("harbor-no-fencing").shared_token, None);
    }

    #[test]
    fn the_ledger_caps_violations_but_counts_them_all() {
        let entry = |seq: u64| TraceEntry {
            seq,
            at_ms: seq,
            event: TraceEvent::ViolationFound {
                violation: Violation::DuplicateSideEffect { op_id: format!("w-{seq}"), from: None },
                resource: None,
            },
        };
        let trace: Vec<TraceEntry> = (0..(VIOLATIONS_KEPT as u64 + 5)).map(entry).collect();
        let mut ledger = Ledger::default();
        ledger.absorb(&trace);
        assert_eq!(ledger.violations.len(), VIOLATIONS_KEPT);
        assert_eq!(ledger.violations_total, VIOLATIONS_KEPT as u64 + 5);
        assert_eq!(ledger.violations_dropped(), 5);
        assert_eq!(ledger.violations.front().map(|f| f.seq), Some(5));
        let newest = ledger.violations_newest_first();
        assert_eq!(newest.first().map(|(i, f)| (*i, f.seq)), Some((VIOLATIONS_KEPT - 1, VIOLATIONS_KEPT as u64 + 4)));
        assert!(newest.windows(2).all(|w| w[0].1.at_ms >= w[1].1.at_ms));
    }

    #[test]
    fn violations_newest_first_keep_the_oracles_order_within_a_moment() {
        let at = |seq: u64, at_ms: u64| TraceEntry {
            seq,
            at_ms,
            event: TraceEvent::ViolationFound {
                violation: Violation::DuplicateSideEffect { op_id: format!("w-{seq}"), from: None },
                resource: None,
            },
        };
        let mut ledger = Ledger::default();
        ledger.absorb(&[at(0, 10), at(1, 20), at(2, 20), at(3, 30), at(4, 40), at(5, 40), at(6, 40)]);
        let seqs: Vec<u64> = ledger.violations_newest_first().iter().map(|(_, f)| f.seq).collect();
        assert_eq!(seqs, [4, 5, 6, 3, 1, 2, 0]);
        assert!(Ledger::default().violations_newest_first().is_empty());
    }

    #[test]
    fn outcomes_have_codes_and_labels() {
        let w = |outcome| JudgedWrite {
            generation: 0,
            seq: 0,
            at_ms: 0,
            op_id: "a".into(),
            from: None,
            token: "∅".into(),
            outcome,
            high_water_before: 42,
            high_water_after: 42,
            resource: None,
        };
        for (o, code) in [
            (WriteOutcome::Accepted, "accepted"),
            (WriteOutcome::RejectedStale, "rejected_stale"),
            (WriteOutcome::RejectedInvalid, "rejected_invalid"),
            (WriteOutcome::Duplicate, "duplicate"),
        ] {
            assert_eq!(w(o).outcome_code(), code);
            assert!(w(o).outcome_label().text(Lang::En).starts_with(code));
            assert!(serde_json::to_value(o).expect("serializes").as_str() == Some(code));
        }
    }
}
