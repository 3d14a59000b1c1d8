//! A node's part in leader election: it starts and asks for the lease, becomes leader on a
//! grant, renews, confirms each renewal the store accepted, steps down (renew deadline passed,
//! renewal refused, errand done), and under observer expiry watches the record change. Each
//! node's timers run on its own clock ([`Sim::arm`]).
//!
//! What a node may do is decided here from what reached it; the node's own data is
//! [`node`](super::node).

use super::network::{Body, Message, Record};
use super::node::{Leadership, Observation, TimerKind};
use super::{ClientRules, Item, ObserverDuration, Protocol, RenewPolicy, Sim, StepDownReason, TraceEvent};

impl Sim {
    /// The node starts (or restarts after a crash) and asks for the lease at once.
    pub(super) fn start(&mut self, node: usize) {
        self.nodes[node].started = true;
        let id = self.nodes[node].id.clone();
        self.record(TraceEvent::NodeStarted { node: id });
        self.send_acquire(node);
    }

    fn send_acquire(&mut self, node: usize) {
        let client = self.client_rules();
        let n = &self.nodes[node];
        let incarnation = n.incarnation;
        // Observer expiry: ask to take over only the version seen expired on the node's clock, by
        // the client's rule (client-go's, or the DynamoDB lock client's stricter one).
        let local = n.clock.read(self.now_ms);
        let observed_expired = match client.observed_expiry {
            Some(rule) => n.observed.as_ref().filter(|o| rule.expired(o, local)).map(|o| o.version),
            None => None,
        };
        self.send(Body::AcquireRequest { node, incarnation, observed_expired }, 0);
        let retry = client.retry_wait_ms(self.config.lease.retry_every_ms, &mut self.rng);
        self.arm(node, TimerKind::Retry, retry);
    }

    /// The rules of the client library the nodes behave like ([`Config::client`]: one row of
    /// [`ClientKind::rules`](super::ClientKind::rules)).
    ///
    /// [`Config::client`]: super::Config::client
    fn client_rules(&self) -> ClientRules {
        self.config.client().rules()
    }

    /// One of the node's timers fired (and the node is running).
    pub(super) fn on_timer(&mut self, node: usize, kind: TimerKind) {
        // A leader's own timers first check client-go's RenewDeadline: once it has passed, the
        // leader steps down instead of renewing, writing or finishing its errand.
        let leader_timer = matches!(kind, TimerKind::Renew | TimerKind::Work | TimerKind::Deadline | TimerKind::Hold);
        if leader_timer && self.nodes[node].leadership.is_some() && self.step_down_if_deadline_passed(node) {
            return;
        }
        let lease = self.config.lease;
        match (kind, self.nodes[node].leadership) {
            (TimerKind::Retry, None) => self.send_acquire(node),
            (TimerKind::Renew, Some(l)) => {
                let incarnation = self.nodes[node].incarnation;
                self.send(Body::RenewRequest { node, incarnation, token: l.token }, 0);
                self.arm(node, TimerKind::Renew, lease.renew_every_ms);
            }
            (TimerKind::Work, Some(l)) => {
                self.send_write(node, l.token);
                let every = self.config.work.every_ms;
                self.arm(node, TimerKind::Work, every);
            }
            (TimerKind::Work, None) => {
                // Work that outlived its lease goes on with the old token, until a bounded
                // shutdown ends it.
                if let Some(token) = self.nodes[node].zombie_token {
                    let now_local = self.nodes[node].clock.read(self.now_ms);
                    match self.nodes[node].work_stops_local_ms {
                        Some(stop) if now_local >= stop => self.stop_work(node, token, stop),
                        stop => {
                            self.send_write(node, token);
                            let every = i64::try_from(self.config.work.every_ms).unwrap_or(i64::MAX);
                            let next = now_local.saturating_add(every);
                            self.arm_at_local(node, TimerKind::Work, stop.map_or(next, |s| next.min(s)));
                        }
                    }
                }
            }
            (TimerKind::WriteRetry, _) => self.send_retry(node),
            (TimerKind::Hold, Some(_)) => self.step_down(node, StepDownReason::Finished),
            _ => {}
        }
    }

    /// client-go's renew loop gives up once `RenewDeadline` has passed without a confirmed renewal.
    fn step_down_if_deadline_passed(&mut self, node: usize) -> bool {
        if self.nodes[node].deadline_passed(self.now_ms) {
            self.step_down(node, StepDownReason::RenewDeadline);
            true
        } else {
            false
        }
    }

    fn become_leader(&mut self, node: usize, token: u64, request_sent_ms: u64, request_sent_local_ms: i64) {
        let (sent_ms, sent_local_ms) = if self.config.protocol == Protocol::Lock && !self.config.lock.session_check {
            // The old client trusts the grant as fresh and counts its lease from the reply.
            (self.now_ms, self.nodes[node].clock.read(self.now_ms))
        } else {
            (request_sent_ms, request_sent_local_ms)
        };
        let retry = self.config.lease.renew_policy == RenewPolicy::Retry;
        let deadline = i64::try_from(self.config.node_lease(node).1).unwrap_or(i64::MAX);
        let now_local = self.nodes[node].clock.read(self.now_ms);
        // Giving up on the first refusal, the deadline counts from the last confirmed send.
        // client-go's renew() starts its first round at once, and the round's RenewDeadline
        // counts from its start.
        let deadline_local_ms = if retry { now_local } else { sent_local_ms }.saturating_add(deadline);
        let n = &mut self.nodes[node];
        n.leadership = Some(Leadership {
            token,
            last_ok_sent_ms: sent_ms,
            last_ok_sent_local_ms: sent_local_ms,
            deadline_local_ms,
        });
        n.zombie_token = None;
        n.work_stops_local_ms = None;
        n.cancel(TimerKind::Retry);
        n.cancel(TimerKind::Work);
        let id = n.id.clone();
        if self.nodes[node].deadline_passed(self.now_ms) {
            // The grant came back after the requester's own lease had run out: it never believes
            // it leads, never starts (etcd's ErrSessionExpired), and lets go of the grant.
            self.step_down(node, StepDownReason::SessionExpired);
            return;
        }
        self.record(TraceEvent::BecameLeader { node: id, token });
        let lease = self.config.lease;
        // client-go's first renewal round tries at once (wait.Until runs its function first).
        self.arm(node, TimerKind::Renew, if retry { 0 } else { lease.renew_every_ms });
        if let (Protocol::Lock, Some(hold)) = (self.config.protocol, self.config.lock.hold_ms) {
            self.arm(node, TimerKind::Hold, hold);
        }
        self.arm_deadline(node);
        if !self.step_down_if_deadline_passed(node) {
            // The work starts as soon as it learns it leads (client-go's OnStartedLeading).
            self.send_write(node, token);
            let every = self.config.work.every_ms;
            self.arm(node, TimerKind::Work, every);
        }
    }

    /// A bounded shutdown ends (`work.stops_after_ms`): the work, and any retry its client had
    /// pending, stop. `stop_local_ms` is when it was due on the node's clock.
    fn stop_work(&mut self, node: usize, token: u64, stop_local_ms: i64) {
        let drained = self.config.work.stops_after_ms;
        let n = &mut self.nodes[node];
        n.zombie_token = None;
        n.work_stops_local_ms = None;
        n.cancel(TimerKind::Work);
        if !n.pending_retry.is_empty() {
            n.pending_retry.clear();
            n.cancel(TimerKind::WriteRetry);
        }
        // Late only if the node was paused (or its clock moved) past the due moment.
        let late = u64::try_from(n.clock.read(self.now_ms).saturating_sub(stop_local_ms)).unwrap_or(0);
        let id = n.id.clone();
        self.record(TraceEvent::WorkStopped { node: id, token, after_ms: drained.saturating_add(late) });
    }

    fn arm_deadline(&mut self, node: usize) {
        if let Some(l) = self.nodes[node].leadership {
            self.arm_at_local(node, TimerKind::Deadline, l.deadline_local_ms);
        }
    }

    /// The node stops believing it leads. Under the lock protocol it then releases the lock, as a
    /// client's `finally: unlock()` does, whatever the reason. Its work stops too, unless
    /// `work.stops_with_lease` is false (it never stops) or `work.stops_after_ms` bounds its
    /// shutdown (it stops that long after, on the node's clock).
    fn step_down(&mut self, node: usize, reason: StepDownReason) {
        let work = self.config.work;
        let keep_working =
            (!work.stops_with_lease || work.stops_after_ms > 0) && reason != StepDownReason::SessionExpired;
        let now_local = self.nodes[node].clock.read(self.now_ms);
        let n = &mut self.nodes[node];
        let Some(l) = n.leadership.take() else { return };
        for kind in [TimerKind::Renew, TimerKind::Deadline, TimerKind::Hold] {
            n.cancel(kind);
        }
        if !keep_working {
            // A retry its client has pending goes out all the same (`work.retry_after_ms`): the
            // client library retrying a request knows nothing of the lease.
            n.cancel(TimerKind::Work);
        }
        let id = n.id.clone();
        self.record(TraceEvent::SteppedDown { node: id.clone(), token: l.token, reason });
        if keep_working {
            self.nodes[node].zombie_token = Some(l.token);
            if work.stops_with_lease {
                // A bounded shutdown: the next tick comes no later than the moment it stops.
                let stop = now_local.saturating_add(i64::try_from(work.stops_after_ms).unwrap_or(i64::MAX));
                let due = self.nodes[node].timer_due_local[TimerKind::Work.index()].unwrap_or(stop);
                self.nodes[node].work_stops_local_ms = Some(stop);
                self.arm_at_local(node, TimerKind::Work, due.min(stop));
            }
            self.record(TraceEvent::WorkContinues { node: id, token: l.token });
        }
        if self.config.protocol == Protocol::Lock {
            self.send(Body::ReleaseRequest { node, token: l.token }, 0);
        }
        let retry = self.config.lease.retry_every_ms;
        self.arm(node, TimerKind::Retry, retry);
    }

    /// A reply from the store reached the node (and the node is running).
    pub(super) fn on_message(&mut self, node: usize, message: Message) {
        match message.body {
            Body::AcquireReply { incarnation, request_sent_ms, token, record, .. } => {
                if incarnation != self.nodes[node].incarnation {
                    return;
                }
                if self.client_rules().observed_expiry.is_some() {
                    self.observe(node, record);
                }
                let sent_local = self.nodes[node].clock.read(request_sent_ms);
                match (token, self.nodes[node].leadership) {
                    (Some(t), None) => self.become_leader(node, t, request_sent_ms, sent_local),
                    (Some(t), Some(l)) if l.token == t => self.confirm(node, request_sent_ms),
                    _ => {}
                }
            }
            Body::RenewReply { incarnation, request_sent_ms, token, ok, .. } => {
                if incarnation != self.nodes[node].incarnation {
                    return;
                }
                let give_up = self.config.lease.renew_policy == RenewPolicy::GiveUp;
                match self.nodes[node].leadership {
                    Some(l) if l.token == token && ok => self.confirm(node, request_sent_ms),
                    // client-go counts a refusal as one failed try of the round, and tries
                    // again every RetryPeriod until the round's RenewDeadline.
                    Some(l) if l.token == token && give_up => self.step_down(node, StepDownReason::RenewRefused),
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn confirm(&mut self, node: usize, request_sent_ms: u64) {
        let retry = self.config.lease.renew_policy == RenewPolicy::Retry;
        let every = self.config.lease.renew_every_ms;
        let deadline = i64::try_from(self.config.node_lease(node).1).unwrap_or(i64::MAX);
        let now_local = self.nodes[node].clock.read(self.now_ms);
        let n = &mut self.nodes[node];
        // The send time on the node's clock, as the node noted it then (a later jump or rate
        // change does not rewrite what it noted).
        let sent_local = n.clock.read(request_sent_ms);
        if let Some(l) = n.leadership.as_mut() {
            if request_sent_ms > l.last_ok_sent_ms {
                l.last_ok_sent_ms = request_sent_ms;
                l.last_ok_sent_local_ms = sent_local;
                if !retry {
                    l.deadline_local_ms = sent_local.saturating_add(deadline);
                }
            }
            if retry {
                // The round ended well; the next starts one RetryPeriod from now, and its
                // RenewDeadline counts from there.
                let next_round = now_local.saturating_add(i64::try_from(every).unwrap_or(i64::MAX));
                l.deadline_local_ms = next_round.saturating_add(deadline);
            }
        }
        if retry {
            self.arm(node, TimerKind::Renew, every);
        }
        self.arm_deadline(node);
    }

    /// Observer expiry (client-go): a record that differs from the last one seen restarts the
    /// node's own wait, `observedTime = now` on its clock.
    fn observe(&mut self, node: usize, record: Record) {
        let now = self.now_ms;
        // Before kubernetes/kubernetes PR #114872 a candidate waited out its own LeaseDuration,
        // whatever the holder had written into the record (kubernetes/kubernetes#47671).
        let lease_duration_ms = match self.config.lease.observer_duration {
            ObserverDuration::Record => record.duration_ms,
            ObserverDuration::Own => self.config.node_lease(node).0,
        };
        let n = &mut self.nodes[node];
        if n.observed.as_ref().is_some_and(|o| o.version == record.version) {
            return;
        }
        let local = n.clock.read(now);
        n.observed = Some(Observation {
            version: record.version,
            holder: record.holder.clone(),
            lease_duration_ms,
            observed_local_ms: local,
        });
        let id = n.id.clone();
        if record.holder.as_deref() != Some(n.identity.as_str()) {
            self.record(TraceEvent::RecordObserved {
                node: id,
                holder: record.holder,
                version: record.version,
                lease_duration_ms,
            });
        }
    }

    /// Arm a node timer `after_ms` from now on the node's own clock.
    pub(super) fn arm(&mut self, node: usize, kind: TimerKind, after_ms: u64) {
        let now = self.now_ms;
        let due = self.nodes[node].clock.read(now).saturating_add(i64::try_from(after_ms).unwrap_or(i64::MAX));
        self.arm_at_local(node, kind, due);
    }

    /// Arm a node timer for when the node's clock reads `due_local_ms`.
    fn arm_at_local(&mut self, node: usize, kind: TimerKind, due_local_ms: i64) {
        let now = self.now_ms;
        let n = &mut self.nodes[node];
        n.cancel(kind);
        n.timer_due_local[kind.index()] = Some(due_local_ms);
        let item = Item::Timer { node, incarnation: n.incarnation, kind, generation: n.timer_generation[kind.index()] };
        let at = n.clock.when_reads(due_local_ms, now);
        self.schedule(at, item);
    }

    /// After a node's clock changed, its armed timers fire when the clock reads their due time.
    pub(super) fn rearm_timers(&mut self, node: usize) {
        for kind in TimerKind::ALL {
            if let Some(due) = self.nodes[node].timer_due_local[kind.index()] {
                self.arm_at_local(node, kind, due);
            }
        }
    }
}
