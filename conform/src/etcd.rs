//! The etcd replayer: a [`Plan`] sent to a real etcd 3.4 through its JSON gateway (`/v3/...`,
//! grpc-gateway: keys and values in base64, 64-bit numbers as strings), in real time.
//!
//! etcd's clock cannot be driven and its TTLs are whole seconds (at least ceil(1.5 × election
//! timeout) = 150 ms, so 1 s here), so virtual time is scaled: `k = 1000 / ttl_ms` real ms per
//! virtual ms, making the scenario's lease exactly one second. etcd frees an expired lease's keys
//! 0–500 ms after its TTL (the lessor checks every 500 ms: `lease/lessor.go`,
//! `revokeExpiredLeases`), so where the engine says a term expired the replay waits for the
//! observable condition (the key gone, at most [`EXPIRY_WAIT`]) and shifts the rest of the run
//! by the wait; a request that the engine answered within [`GUARD_REAL_MS`] before a term's
//! expiry (or that leaves late enough to come that close, on a loaded machine) is counted
//! `undecidable`, not compared, and is sent only if it changes the store's state. A late request
//! that starts or extends the term, or comes while no term runs, moves the rest of the timeline
//! with it. Should etcd decide an undecidable state-changing request the other way, its state is
//! no longer the engine's and the rest of the scenario is counted undecidable.
//!
//! The store: the lock is a key put in a `Txn` that compares its `create_revision` with 0, on a
//! lease granted for the request (the grant's token is the transaction's revision, etcd's
//! fencing token: global, increasing, not consecutive); a renewal is a lease keepalive; a release
//! is a `Txn` comparing `create_revision` with the holder's (or a plain delete). The resource is
//! one `Txn` comparing the mark key, which holds the token zero-padded to 20 digits (etcd
//! compares values as bytes), and writing the mark and the value in the same transaction; under
//! `dedupe` a nested transaction in the same request also looks up and records the op id's key.
//! Each pair of `resource.token_check` and `resource.equal_token` has its own compares, which
//! follow the engine's `Resource::decide`. Token validity, the fencing switch and the per-lock
//! scope are checked by the resource's front end before the transaction (etcd runs no code of
//! its own).

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use leaselab::engine::{EqualTokenPolicy, TokenCheck, TokenScope, WireToken, WriteOutcome};
use serde_json::{json, Value};

use crate::plan::{Answer, Outcome, Plan, Request, Step};
use crate::servers::Etcd;

/// Requests closer than this (real ms) before a term's expiry are sent but not compared: etcd's
/// lease started a little before the engine's term (the grant precedes the transaction) and
/// requests are not sent at their exact moment.
pub const GUARD_REAL_MS: f64 = 60.0;
/// Longest wait for an expired term's key to disappear: the TTL's own second is already
/// counted; the lessor's 500 ms tick plus ample slack for a loaded machine.
pub const EXPIRY_WAIT: Duration = Duration::from_millis(3_000);

/// The error [`post`] returns for an HTTP 404: what etcd's gateway answers for a lease that is
/// not there (any more).
pub const NOT_FOUND: &str = "etcd: not found";

/// POSTs `body` (JSON) to the gateway at `url` + `path` and returns the reply's JSON.
///
/// # Errors
/// A transport error, an HTTP error status, or a reply that is not JSON.
pub fn post(url: &str, path: &str, body: &str) -> Result<Value, String> {
    let text = ureq::post(&format!("{url}{path}"))
        .header("content-type", "application/json")
        .send(body)
        .map_err(|e| match e {
            // The gateway answers gRPC's NotFound (a lease that already expired) with 404.
            ureq::Error::StatusCode(404) => NOT_FOUND.to_owned(),
            e => format!("etcd {path}: {e}"),
        })?
        .body_mut()
        .read_to_string()
        .map_err(|e| format!("etcd {path}: {e}"))?;
    // The keepalive is a stream: its first object is the answer.
    let first = text.lines().next().unwrap_or("");
    serde_json::from_str(first).map_err(|e| format!("etcd {path}: {e}: {text}"))
}

/// A 64-bit number of the gateway's JSON (written as a string; absent when 0).
fn int(v: &Value) -> i64 {
    match v {
        Value::String(s) => s.parse().unwrap_or(0),
        Value::Number(n) => n.as_i64().unwrap_or(0),
        _ => 0,
    }
}

fn b64(s: &str) -> String {
    B64.encode(s.as_bytes())
}

fn unb64(v: &Value) -> String {
    v.as_str().and_then(|s| B64.decode(s).ok()).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default()
}

/// A token as the mark key holds it: 20 digits, zero-padded, so that etcd's byte comparison is
/// the numbers' order (u64::MAX has 20 digits).
pub fn padded(token: u64) -> String {
    format!("{token:020}")
}

/// The fencing token a write carries, if it is valid (an integer ≥ 1); the resource's front end
/// refuses anything else before the transaction.
pub fn valid_token(token: &WireToken) -> Option<u64> {
    token.valid()
}

/// The value of the last range read in a transaction's executed branch (nested transactions
/// included); `None` when the key was not there (the gateway leaves out an empty `kvs`).
fn last_range_value(txn: &Value) -> Option<String> {
    let responses = txn.get("responses")?.as_array()?;
    let last = responses.last()?;
    if let Some(inner) = last.get("response_txn") {
        return last_range_value(inner);
    }
    let kvs = last.get("response_range")?.get("kvs")?.as_array()?;
    kvs.first().map(|kv| unb64(&kv["value"]))
}

/// Whether a transaction (the outer, or its first nested one) took its success branch.
fn succeeded(txn: &Value) -> bool {
    txn.get("succeeded").and_then(Value::as_bool).unwrap_or(false)
}

fn nested(txn: &Value) -> Option<&Value> {
    txn.get("responses")?.as_array()?.first()?.get("response_txn")
}

/// The replay of one plan on etcd.
struct Replay<'a> {
    url: &'a str,
    plan: &'a Plan,
    /// Real ms per virtual ms.
    k: f64,
    start: Instant,
    /// How far the run was shifted by waits for expired keys.
    lag: Duration,
    prefix: String,
    /// Each node's lease (its session for the term it asked for).
    leases: HashMap<String, i64>,
    /// Engine token → etcd revision of each grant.
    grants: BTreeMap<u64, i64>,
    last_revision: i64,
    /// The current term's expiry by the engine's clock and the moment the engine's store
    /// noticed it (frees the key), in virtual ms.
    expiry: Option<(u64, u64)>,
    fencing: bool,
    /// The latest a request was sent after its moment.
    latest: Duration,
    /// Set, with its moment, once etcd decided an undecidable request that changes its state
    /// the other way: its state is no longer the engine's.
    desynced: Option<u64>,
    outcome: Outcome,
}

impl Replay<'_> {
    fn key(&self, what: &str) -> String {
        format!("{}{what}", self.prefix)
    }

    fn lock_key(&self) -> String {
        self.key(&format!("lock/{}", self.plan.model.lock))
    }

    fn post(&self, path: &str, body: &Value) -> Result<Value, String> {
        post(self.url, path, &body.to_string())
    }

    /// Sleeps until virtual time `at_ms` on the (shifted) real-time line; returns (and notes) how
    /// late it is when the moment has already passed.
    fn wait_until(&mut self, at_ms: u64) -> Duration {
        let due = self.start + self.lag + Duration::from_secs_f64(at_ms as f64 * self.k / 1000.0);
        let now = Instant::now();
        if due > now {
            std::thread::sleep(due - now);
            Duration::ZERO
        } else {
            self.latest = self.latest.max(now - due);
            now - due
        }
    }

    /// Waits until the lock key is gone (at most [`EXPIRY_WAIT`]); shifts the run by the wait.
    fn wait_key_gone(&mut self) -> Result<bool, String> {
        let started = Instant::now();
        let key = self.lock_key();
        loop {
            let r = self.post("/v3/kv/range", &json!({"key": b64(&key)}))?;
            let gone = int(&r["count"]) == 0;
            if gone || started.elapsed() > EXPIRY_WAIT {
                self.lag += started.elapsed();
                self.expiry = None;
                return Ok(gone);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The engine token of revision `rev` (the revision itself when no grant had it).
    fn token_of(&self, rev: i64) -> u64 {
        self.grants.iter().find(|(_, r)| **r == rev).map_or(rev.max(0) as u64, |(t, _)| *t)
    }

    /// The etcd number an engine token travels as: the revision of its grant, or itself.
    fn wire(&self, token: u64) -> u64 {
        self.grants.get(&token).map_or(token, |r| *r as u64)
    }

    fn revoke(&mut self, node: &str) -> Result<(), String> {
        match self.leases.remove(node) {
            Some(id) => self.revoke_lease(id),
            None => Ok(()),
        }
    }

    /// Revokes lease `id`; one that already expired is fine.
    fn revoke_lease(&self, id: i64) -> Result<(), String> {
        match self.post("/v3/lease/revoke", &json!({"ID": id.to_string()})) {
            Err(e) if e != NOT_FOUND => Err(e),
            _ => Ok(()),
        }
    }

    fn acquire(&mut self, step: &Step, node: &str, identity: &str) -> Result<Answer, String> {
        let ttl_s = 1;
        let lease = int(&self.post("/v3/lease/grant", &json!({"TTL": ttl_s}))?["ID"]);
        let key = b64(&self.lock_key());
        let txn = self.post(
            "/v3/kv/txn",
            &json!({
                "compare": [{"key": key, "target": "CREATE", "result": "EQUAL", "create_revision": "0"}],
                "success": [{"request_put": {"key": key, "value": b64(identity), "lease": lease.to_string()}}],
                "failure": [{"request_range": {"key": key}}],
            }),
        )?;
        if succeeded(&txn) {
            self.revoke(node)?;
            self.leases.insert(node.to_owned(), lease);
            let revision = int(&txn["header"]["revision"]);
            let in_order = revision > self.last_revision;
            self.last_revision = self.last_revision.max(revision);
            return Ok(match step.expected {
                // Revisions cannot be chosen: the grant answers right when it is newer than every
                // earlier grant, as the engine's token is; where the engine's tokens are
                // revisions, also as far from the first grant as the engine's.
                Answer::Granted { token }
                    if in_order
                        && self.grants.keys().all(|t| *t < token)
                        && (!self.plan.model.revision_tokens
                            || self
                                .grants
                                .iter()
                                .next()
                                .is_none_or(|(t0, r0)| revision - r0 == token as i64 - *t0 as i64)) =>
                {
                    self.grants.insert(token, revision);
                    Answer::Granted { token }
                }
                _ => Answer::Granted { token: revision as u64 },
            });
        }
        self.revoke_lease(lease)?;
        let kv = &txn["responses"][0]["response_range"]["kvs"][0];
        let holder = unb64(&kv["value"]);
        if self.plan.model.reentrant && holder == identity {
            let id = int(&kv["lease"]);
            self.post("/v3/lease/keepalive", &json!({"ID": id.to_string()}))?;
            return Ok(Answer::Reacquired { token: self.token_of(int(&kv["create_revision"])) });
        }
        Ok(Answer::Refused { holder })
    }

    fn renew(&mut self, node: &str) -> Result<Answer, String> {
        let Some(id) = self.leases.get(node).copied() else { return Ok(Answer::RenewRefused) };
        let r = self.post("/v3/lease/keepalive", &json!({"ID": id.to_string()}))?;
        Ok(if int(&r["result"]["TTL"]) > 0 { Answer::Renewed } else { Answer::RenewRefused })
    }

    fn release(&mut self, node: &str, identity: &str, token: u64, owner_check: bool) -> Result<Answer, String> {
        let key = b64(&self.lock_key());
        let own_revision = self.grants.get(&token).copied().unwrap_or(-1);
        let answer = if owner_check {
            let txn = self.post(
                "/v3/kv/txn",
                &json!({
                    "compare": [{"key": key, "target": "CREATE", "result": "EQUAL",
                                 "create_revision": own_revision.to_string()}],
                    "success": [{"request_delete_range": {"key": key}}],
                    "failure": [{"request_range": {"key": key}}],
                }),
            )?;
            if succeeded(&txn) {
                Answer::Released
            } else {
                match txn["responses"][0]["response_range"]["kvs"].as_array().and_then(|a| a.first()) {
                    Some(kv) => Answer::NotOwner { holder: Some(unb64(&kv["value"])) },
                    None => Answer::AlreadyFree,
                }
            }
        } else {
            let r = self.post("/v3/kv/deleterange", &json!({"key": key, "prev_kv": true}))?;
            match r["prev_kvs"].as_array().and_then(|a| a.first()) {
                None => Answer::AlreadyFree,
                Some(kv) => {
                    let holder = unb64(&kv["value"]);
                    let rev = int(&kv["create_revision"]);
                    if holder == identity && rev == own_revision {
                        Answer::Released
                    } else {
                        Answer::DeletedOthers { holder, token: self.token_of(rev) }
                    }
                }
            }
        };
        // The client's session for this term ends with it.
        self.revoke(node)?;
        Ok(answer)
    }

    fn read(&self, what: &str) -> Result<Option<String>, String> {
        let r = self.post("/v3/kv/range", &json!({"key": b64(&self.key(what))}))?;
        Ok(r["kvs"].as_array().and_then(|a| a.first()).map(|kv| unb64(&kv["value"])))
    }

    fn mark_answer(&self, text: Option<String>) -> Answer {
        match text.as_deref().map(str::parse::<u64>) {
            Some(Ok(rev)) => Answer::Mark { mark: self.token_of(rev as i64) },
            None => Answer::Mark { mark: 0 },
            Some(Err(_)) => Answer::Unreadable(text.unwrap_or_default()),
        }
    }

    fn write(&self, op_id: &str, token: &WireToken, value: &str, foreign: bool) -> Result<Answer, String> {
        let m = &self.plan.model;
        let mark_key = b64(&self.key("res/mark"));
        let value_key = b64(&self.key("res/value"));
        let op_key = b64(&self.key(&format!("res/ops/{op_id}")));
        let read_mark = json!({"request_range": {"key": mark_key}});
        let put_value = json!({"request_put": {"key": value_key, "value": b64(value)}});
        let judged = |outcome, mark: Option<String>, me: &Self| match me.mark_answer(mark) {
            Answer::Mark { mark } => Answer::Judged { outcome, mark },
            other => other,
        };
        let valid = valid_token(token).map(|t| self.wire(t));
        let Some(t) = valid.filter(|_| self.fencing && !(foreign && m.token_scope == TokenScope::PerLock)) else {
            // Refused before the transaction, or fencing off (every write obeyed; the mark still
            // records the largest valid token seen).
            if self.fencing {
                let outcome = if foreign && m.token_scope == TokenScope::PerLock {
                    WriteOutcome::RejectedForeignLock
                } else {
                    WriteOutcome::RejectedInvalid
                };
                return Ok(judged(outcome, self.read("res/mark")?, self));
            }
            // Under dedupe the engine records the op id of every write it applies, with fencing off
            // too (`Resource::write_scoped`), so that a retry once fencing is back is a duplicate.
            let applied = |mut ops: Vec<Value>| {
                if m.equal_token == EqualTokenPolicy::Dedupe {
                    ops.insert(0, json!({"request_put": {"key": op_key, "value": b64("1")}}));
                }
                Value::Array(ops)
            };
            let ops = match valid {
                Some(t) => json!({
                    "compare": [{"key": mark_key, "target": "VALUE", "result": "LESS", "value": b64(&padded(t))}],
                    "success": applied(vec![
                        json!({"request_put": {"key": mark_key, "value": b64(&padded(t))}}),
                        put_value.clone(),
                        read_mark.clone()
                    ]),
                    "failure": applied(vec![put_value, read_mark]),
                }),
                None => json!({"success": applied(vec![put_value, read_mark])}),
            };
            let txn = self.post("/v3/kv/txn", &ops)?;
            return Ok(judged(WriteOutcome::Accepted, last_range_value(&txn), self));
        };
        let p = b64(&padded(t));
        let put_mark = json!({"request_put": {"key": mark_key, "value": p}});
        let cmp = |result: &str, v: &str| json!({"key": mark_key, "target": "VALUE", "result": result, "value": v});
        let zero = b64(&padded(0));
        let (body, outcome_of): (Value, fn(&Value) -> WriteOutcome) = match (m.token_check, m.equal_token) {
            (TokenCheck::Ordered, EqualTokenPolicy::Accept) => (
                json!({"compare": [cmp("GREATER", &p)], "success": [read_mark],
                       "failure": [put_mark, put_value, read_mark]}),
                |txn| if succeeded(txn) { WriteOutcome::RejectedStale } else { WriteOutcome::Accepted },
            ),
            (TokenCheck::Ordered, EqualTokenPolicy::Reject) => (
                json!({"compare": [cmp("LESS", &p)], "success": [put_mark, put_value, read_mark],
                       "failure": [read_mark]}),
                |txn| if succeeded(txn) { WriteOutcome::Accepted } else { WriteOutcome::RejectedStale },
            ),
            (TokenCheck::Ordered, EqualTokenPolicy::Dedupe) => (
                json!({"compare": [cmp("GREATER", &p)], "success": [read_mark],
                       "failure": [{"request_txn": {
                           "compare": [{"key": op_key, "target": "VERSION", "result": "GREATER", "version": "0"}],
                           "success": [read_mark],
                           "failure": [{"request_put": {"key": op_key, "value": b64("1")}}, put_mark, put_value,
                                       read_mark]}}]}),
                |txn| match (succeeded(txn), nested(txn).map(succeeded)) {
                    (true, _) => WriteOutcome::RejectedStale,
                    (false, Some(true)) => WriteOutcome::Duplicate,
                    _ => WriteOutcome::Accepted,
                },
            ),
            (TokenCheck::Equality, EqualTokenPolicy::Accept) => (
                json!({"compare": [cmp("EQUAL", &zero)], "success": [put_mark, put_value, read_mark],
                       "failure": [{"request_txn": {"compare": [cmp("EQUAL", &p)],
                           "success": [put_value, read_mark], "failure": [read_mark]}}]}),
                |txn| match (succeeded(txn), nested(txn).map(succeeded)) {
                    (true, _) | (false, Some(true)) => WriteOutcome::Accepted,
                    _ => WriteOutcome::RejectedStale,
                },
            ),
            // The engine's equality check (`Resource::decide`) under `reject`: below the mark is
            // stale, equal to it is refused by the policy, above it is refused by the equality
            // check once there is a mark. Only a write that finds the mark at 0 passes, so the
            // transaction refuses whenever the mark is above 0 (a missing mark counts as 0: a
            // compare on an absent key fails).
            (TokenCheck::Equality, EqualTokenPolicy::Reject) => (
                json!({"compare": [cmp("GREATER", &zero)], "success": [read_mark],
                       "failure": [put_mark, put_value, read_mark]}),
                |txn| if succeeded(txn) { WriteOutcome::RejectedStale } else { WriteOutcome::Accepted },
            ),
            // Under `dedupe` the engine first refuses any token but the mark's once there is one
            // (stale, whatever the op id), and only then looks the op id up: the outer compare is
            // that refusal (the mark above 0 and not this token), the nested transaction the
            // Ordered dedupe arm's look-up (op id seen: duplicate; else record it and apply).
            (TokenCheck::Equality, EqualTokenPolicy::Dedupe) => (
                json!({"compare": [cmp("GREATER", &zero), cmp("NOT_EQUAL", &p)], "success": [read_mark],
                       "failure": [{"request_txn": {
                           "compare": [{"key": op_key, "target": "VERSION", "result": "GREATER", "version": "0"}],
                           "success": [read_mark],
                           "failure": [{"request_put": {"key": op_key, "value": b64("1")}}, put_mark, put_value,
                                       read_mark]}}]}),
                |txn| match (succeeded(txn), nested(txn).map(succeeded)) {
                    (true, _) => WriteOutcome::RejectedStale,
                    (false, Some(true)) => WriteOutcome::Duplicate,
                    _ => WriteOutcome::Accepted,
                },
            ),
        };
        let txn = self.post("/v3/kv/txn", &body)?;
        Ok(judged(outcome_of(&txn), last_range_value(&txn), self))
    }

    fn reset_mark(&self, mark: u64, forget_ops: bool) -> Result<(), String> {
        let mark_key = b64(&self.key("res/mark"));
        self.post("/v3/kv/put", &json!({"key": mark_key, "value": b64(&padded(mark))}))?;
        if forget_ops {
            let prefix = self.key("res/ops/");
            let end = format!("{}0", &prefix[..prefix.len() - 1]);
            self.post("/v3/kv/deleterange", &json!({"key": b64(&prefix), "range_end": b64(&end)}))?;
        }
        Ok(())
    }

    fn run(&mut self) -> Result<(), String> {
        self.reset_mark(0, true)?;
        self.start = Instant::now();
        let guard_virtual = GUARD_REAL_MS / self.k;
        let timed = self.plan.uses_store();
        for (index, step) in self.plan.steps.iter().enumerate() {
            // How much later than its moment the request leaves, in virtual ms.
            let mut late_virtual = 0.0;
            if timed {
                let late = self.wait_until(step.at_ms);
                late_virtual = late.as_secs_f64() * 1000.0 / self.k;
                let extends =
                    matches!(step.expected, Answer::Granted { .. } | Answer::Reacquired { .. } | Answer::Renewed);
                if self.expiry.is_none() || extends {
                    // No term runs on etcd, or this request starts or extends the one that does:
                    // the timeline follows the late request (the term's new expiry counts from
                    // when it really left).
                    self.lag += late;
                }
            }
            let store_request = matches!(
                step.request,
                Request::Acquire { .. } | Request::Renew { .. } | Request::Release { .. } | Request::Revoke
            );
            if store_request && self.expiry.is_some_and(|(_, freed)| step.at_ms >= freed) {
                // The engine's term is over: wait until etcd has freed it too.
                self.wait_key_gone()?;
            }
            // Near the term's expiry (just before it by the engine's clock, also when the request
            // leaves late, or while the engine says the store has not yet noticed it) etcd may
            // answer either way.
            let undecidable = store_request
                && self.expiry.is_some_and(|(e, freed)| {
                    (step.at_ms as f64 + late_virtual) >= e as f64 - guard_virtual && step.at_ms < freed.max(e)
                });
            // There, only a request that changes the store's state is sent (so that the server
            // keeps the engine's state); one the engine refused is left out, lest the server grant
            // what the engine did not.
            if undecidable && !changes_state(&step.expected) {
                self.outcome.undecidable += 1;
                continue;
            }
            let got = match &step.request {
                Request::Acquire { node, identity } => self.acquire(step, node, identity)?,
                Request::Renew { node, .. } => self.renew(node)?,
                Request::Release { node, identity, token, owner_check } => {
                    self.release(node, identity, *token, *owner_check)?
                }
                Request::CheckExpired { .. } => {
                    if self.wait_key_gone()? {
                        Answer::Expired
                    } else {
                        Answer::Live
                    }
                }
                Request::Revoke => {
                    let holders: Vec<String> = self.leases.keys().cloned().collect();
                    for node in holders {
                        self.revoke(&node)?;
                    }
                    Answer::Done
                }
                Request::CheckMark => self.mark_answer(self.read("res/mark")?),
                Request::Write { op_id, token, value, lock } => self.write(op_id, token, value, lock.is_some())?,
                Request::SetFencing { on } => {
                    self.fencing = *on;
                    Answer::Done
                }
                Request::RollbackIssuer { .. } => Answer::Unreadable("revisions cannot be rolled back".into()),
                Request::RestoreResource { high_water } => {
                    let before = self.mark_answer(self.read("res/mark")?);
                    let lower = matches!(before, Answer::Mark { mark } if *high_water < mark);
                    self.reset_mark(self.wire(*high_water), lower)?;
                    self.mark_answer(self.read("res/mark")?)
                }
                Request::RestartResource => {
                    if !self.plan.model.persist_high_water {
                        self.reset_mark(0, true)?;
                    }
                    self.mark_answer(self.read("res/mark")?)
                }
            };
            match (&step.expected, &got) {
                (Answer::Granted { .. } | Answer::Reacquired { .. } | Answer::Renewed, _) => {
                    self.expiry = step.expires_ms.map(|e| (e, freed_at(self.plan, index, e)));
                }
                (Answer::Released | Answer::DeletedOthers { .. } | Answer::Expired, _) => self.expiry = None,
                _ => {}
            }
            if undecidable && changes_state(&step.expected) && got != step.expected && self.desynced.is_none() {
                // etcd decided the other way on a request that changes its state: from here on
                // the server's state is not the engine's.
                self.desynced = Some(step.at_ms);
            }
            if (undecidable || self.desynced.is_some()) && step.expected != Answer::Done {
                self.outcome.undecidable += 1;
            } else {
                self.outcome.compare(self.plan, "etcd", step, &got);
            }
        }
        let mark = match self.mark_answer(self.read("res/mark")?) {
            Answer::Mark { mark } => mark,
            _ => u64::MAX,
        };
        let value = self.read("res/value")?;
        if self.desynced.is_some() {
            self.outcome.undecidable += 2;
        } else {
            self.outcome.compare_final(self.plan, "etcd", mark, value);
        }
        Ok(())
    }
}

/// Whether an answer changes the store's state (a new or extended term, a deleted key).
fn changes_state(answer: &Answer) -> bool {
    matches!(
        answer,
        Answer::Granted { .. }
            | Answer::Reacquired { .. }
            | Answer::Renewed
            | Answer::Released
            | Answer::DeletedOthers { .. }
            | Answer::Done
    )
}

/// When the engine's store frees the term that step `index` started or extended, expiring at
/// `expires_ms`: the moment of its expiry check (`lease_expired`) when the term runs out, which
/// may come after `expires_ms` (etcd's lessor notices an expired lease only at its next tick);
/// `expires_ms` when the term is renewed or ended otherwise first.
fn freed_at(plan: &Plan, index: usize, expires_ms: u64) -> u64 {
    let token = match (&plan.steps[index].expected, &plan.steps[index].request) {
        (Answer::Granted { token } | Answer::Reacquired { token }, _) => *token,
        (_, Request::Renew { token, .. }) => *token,
        _ => return expires_ms,
    };
    for step in &plan.steps[index + 1..] {
        match (&step.request, &step.expected) {
            (Request::CheckExpired { token: t, .. }, _) if *t == token => return step.at_ms.max(expires_ms),
            (Request::Renew { token: t, .. }, Answer::Renewed) if *t == token => return expires_ms,
            (
                _,
                Answer::Granted { .. } | Answer::Reacquired { .. } | Answer::Released | Answer::DeletedOthers { .. },
            ) => return expires_ms,
            _ => {}
        }
    }
    expires_ms
}

/// Why `plan` cannot be replayed on etcd, if it cannot: the store's clock stepped or sped (etcd
/// runs in real time), the issuer rolled back (revisions never go back), an epoch barrier (the
/// grant's transaction cannot write its own revision), a lease protocol (its re-grants by identity
/// are not etcd's lock on a key), or a plain `DEL` release (etcd renews by lease keepalive, not by
/// ownership, so the engine's answers follow other rules there).
pub fn unsupported(plan: &Plan) -> Option<&'static str> {
    let steps = &plan.steps;
    if steps.iter().any(|s| s.store_ms != s.at_ms as i64) {
        return Some("the store's clock is stepped or sped, and etcd's cannot be");
    }
    if steps.iter().any(|s| matches!(s.request, Request::RollbackIssuer { .. })) {
        return Some("the issuer is rolled back, and etcd's revisions never go back");
    }
    if plan.uses_store() && plan.model.epoch_barrier {
        return Some(
            "an epoch barrier: the grant's transaction would have to write its own revision, which it cannot name",
        );
    }
    if plan.uses_store() && plan.model.reentrant {
        return Some("a lease protocol (re-grants by identity), not etcd's lock on a key");
    }
    if !plan.model.keepalive_renewal
        && steps.iter().any(|s| matches!(s.request, Request::Release { owner_check: false, .. }))
    {
        return Some("a plain DEL release: on etcd a renewal is a lease keepalive, not an ownership check");
    }
    None
}

/// Replays `plan` on `server` and compares every answer it can decide.
///
/// # Errors
/// A failure to talk to the server.
pub fn replay(server: &Etcd, plan: &Plan) -> Result<Outcome, String> {
    let mut replay = Replay {
        url: &server.url,
        plan,
        k: 1000.0 / plan.model.ttl_ms.max(1) as f64,
        start: Instant::now(),
        lag: Duration::ZERO,
        prefix: format!("/leaselab/{}/", plan.scenario),
        leases: HashMap::new(),
        grants: BTreeMap::new(),
        last_revision: 0,
        expiry: None,
        fencing: plan.model.fencing,
        latest: Duration::ZERO,
        desynced: None,
        outcome: Outcome::default(),
    };
    replay.run()?;
    // Revoke the leases still live, so their keys' deletions (each a revision) happen now and
    // not in the middle of the next scenario, whose revisions are compared with the engine's.
    let live: Vec<i64> = replay.leases.drain().map(|(_, id)| id).collect();
    for id in live {
        replay.revoke_lease(id)?;
    }
    if let Some(at) = replay.desynced {
        println!(
            "note   {:<24} on etcd: at {at} ms etcd decided a request near the expiry the other way (latest \
             request {:.0} ms late); the answers from there on are counted undecidable",
            plan.scenario,
            replay.latest.as_secs_f64() * 1000.0,
        );
    }
    Ok(replay.outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padded_tokens_order_as_bytes_as_numbers_do() {
        let tokens = [1, 9, 10, 99, 100, 905, 1000, u64::MAX / 2, u64::MAX];
        for a in tokens {
            for b in tokens {
                assert_eq!(padded(a).cmp(&padded(b)), a.cmp(&b), "{a} {b}");
            }
        }
        assert_eq!(padded(u64::MAX).len(), 20);
        // Unpadded, bytes disagree with numbers: why the mark is padded.
        assert!("9".as_bytes() > "10".as_bytes());
    }

    #[test]
    fn only_integers_from_one_are_valid_tokens() {
        assert_eq!(valid_token(&WireToken::Number(7)), Some(7));
        assert_eq!(valid_token(&WireToken::Number(0)), None);
        assert_eq!(valid_token(&WireToken::Missing), None);
        assert_eq!(valid_token(&WireToken::Malformed("\"2\"".into())), None);
    }

    #[test]
    fn the_gateway_reads_of_a_transaction() {
        let txn = json!({"header": {"revision": "12"}, "succeeded": true, "responses": [
            {"response_put": {}},
            {"response_range": {"kvs": [{"key": b64("k"), "value": b64("00000000000000000042")}], "count": "1"}}
        ]});
        assert!(succeeded(&txn));
        assert_eq!(int(&txn["header"]["revision"]), 12);
        assert_eq!(last_range_value(&txn).as_deref(), Some("00000000000000000042"));
        let nested_txn = json!({"responses": [{"response_txn": {"succeeded": true, "responses": [
            {"response_range": {"count": "0"}}]}}]});
        assert!(!succeeded(&nested_txn), "false is omitted by the gateway");
        assert_eq!(nested(&nested_txn).map(succeeded), Some(true));
        assert_eq!(last_range_value(&nested_txn), None, "the key is not there");
    }

    #[test]
    fn a_term_is_freed_when_the_engine_notices_its_expiry() {
        use leaselab::scenario::library;
        let s = library::get("lock-owner-release").expect("built-in").expect("parses");
        let mut plan = crate::plan::plan("lock-owner-release", &s.config).expect("runs");
        let grant = plan.steps.iter().position(|s| s.expected == Answer::Granted { token: 1 }).expect("a's grant");
        let e = plan.steps[grant].expires_ms.expect("a grant expires");
        assert_eq!(freed_at(&plan, grant, e), e + 1, "a Redis key goes the ms after its expiry");
        // A store that notices late (etcd's lessor tick): the key is freed at the check.
        let check = plan.steps.iter().position(|s| s.expected == Answer::Expired).expect("a's term expires");
        plan.steps[check].at_ms = e + 400;
        assert_eq!(freed_at(&plan, grant, e), e + 400);
        // A renewed term is not freed at its old expiry's check.
        let renewal = plan.steps.iter().position(|s| s.expected == Answer::Renewed).expect("b renews");
        let e = plan.steps[renewal].expires_ms.expect("a renewal expires");
        assert_eq!(freed_at(&plan, renewal, e), e);
        assert!(changes_state(&Answer::Renewed) && !changes_state(&Answer::Refused { holder: "a".into() }));
    }

    #[test]
    fn scenarios_etcd_cannot_express_are_named() {
        use leaselab::scenario::library;
        let plan_of = |id: &str| {
            let s = library::get(id).expect("built-in").expect("parses");
            crate::plan::plan(id, &s.config).expect("runs")
        };
        assert!(unsupported(&plan_of("store-clock-jump")).is_some_and(|r| r.contains("clock")));
        assert!(unsupported(&plan_of("issuer-rollback")).is_some());
        assert!(unsupported(&plan_of("lock-late-del")).is_some_and(|r| r.contains("keepalive")));
        assert_eq!(unsupported(&plan_of("lantern-race")), None);
        assert_eq!(unsupported(&plan_of("fencing-checks")), None);
    }
}
