//! Writes: a leader (or a zombie that kept working) sends its next write with the fencing token
//! it believes in, and the fenced resource judges each arrival against its high-water mark in
//! one atomic step, while the oracle checks the verdict against the tokens the store granted.

use super::network::Body;
use super::node::TimerKind;
use super::{Blocked, PreparedWrite, Sim, TraceEvent, WireToken, WriteOutcome};

impl Sim {
    /// Sends the node's next round of work with `token`: one write to each resource it writes to.
    pub(super) fn send_write(&mut self, node: usize, token: u64) {
        let round = self.nodes[node].next_round(token);
        self.send_round(node, round);
    }

    /// Sends a round of writes, each held up by any delay armed for this node's next write. With
    /// `work.retry_after_ms` its client will send each once more, unchanged, that much later.
    pub(super) fn send_round(&mut self, node: usize, round: Vec<PreparedWrite>) {
        let extra = self.nodes[node].next_write_delay_ms.take().unwrap_or(0);
        self.nodes[node].writes_sent += round.len() as u64;
        if let Some(after) = self.config.work.retry_after_ms {
            // Retries still pending (held up by a pause) go out first, never lost.
            self.send_retry(node);
            self.nodes[node].pending_retry = round.clone();
            self.arm(node, TimerKind::WriteRetry, after);
        }
        for w in round {
            let PreparedWrite { op_id, token, value, resource } = w;
            self.send(Body::Write { node, op_id, value, token, resource }, extra);
        }
    }

    /// The client's retry (`work.retry_after_ms`): the pending writes go out again with the same
    /// op ids, values and token, whether or not the node still leads. Retried once only.
    pub(super) fn send_retry(&mut self, node: usize) {
        let pending = std::mem::take(&mut self.nodes[node].pending_retry);
        for w in pending {
            self.nodes[node].writes_sent += 1;
            let id = self.nodes[node].id.clone();
            let resource = self.config.resource_name(w.resource);
            self.record(TraceEvent::WriteRetried { node: id, op_id: w.op_id.clone(), token: w.token, resource });
            self.send(Body::Write { node, op_id: w.op_id, value: w.value, token: w.token, resource: w.resource }, 0);
        }
    }

    /// Judges a write as it reaches its fenced resource, and records what the oracle finds. One
    /// rule for every resource: each judges against its own mark, and the oracle against what
    /// that resource accepted.
    pub(super) fn judge_write(&mut self, arrival: WriteArrival) {
        let WriteArrival { from, token, value, op_id, sent_ms, lock, message, resource: r } = arrival;
        let lock = lock.filter(|l| *l != self.config.lock.name);
        let Some(res) = self.resources.get_mut(r) else { return };
        let j = res.write_scoped(&token, &value, &op_id, from.as_deref(), lock.as_deref());
        let (fencing, mark_lock, name) = (res.fencing, res.mark_lock.clone(), res.name.clone());
        if j.outcome == WriteOutcome::Accepted {
            // The resource's keys live in the store too: under etcd the write takes a revision.
            self.store.coordinator.store_wrote();
        }
        let newest = self.store.coordinator.newest_granted();
        let violations = match self.oracles.get_mut(r) {
            Some(oracle) => oracle.check_write(&j, &token, newest, &op_id, from.as_deref(), lock.as_deref()),
            None => Vec::new(),
        };
        let blocked = match (j.outcome, token.valid()) {
            (WriteOutcome::RejectedStale, _) if j.foreign_mark => mark_lock.map(|lock| Blocked::ForeignMark { lock }),
            (WriteOutcome::RejectedStale, Some(t))
                if lock.is_none() && Some(t) == newest && t < j.high_water_before =>
            {
                Some(Blocked::IssuerBehind)
            }
            _ => None,
        };
        self.record(TraceEvent::WriteJudged {
            op_id,
            from,
            token,
            value,
            sent_ms,
            outcome: j.outcome,
            high_water_before: j.high_water_before,
            high_water_after: j.high_water_after,
            fencing,
            lock,
            message,
            blocked,
            resource: name.clone(),
        });
        for violation in violations {
            self.record(TraceEvent::ViolationFound { violation, resource: name.clone() });
        }
    }
}

/// A write as it reaches the fenced resource: from a node's message or a raw write command.
pub(super) struct WriteArrival {
    /// The writing node's id; `None` for a raw write (`Command::RawWrite`).
    pub(super) from: Option<String>,
    /// The fencing token as sent (raw writes may carry a missing or malformed one).
    pub(super) token: WireToken,
    pub(super) value: String,
    pub(super) op_id: String,
    /// When the write left its sender, in virtual ms.
    pub(super) sent_ms: u64,
    /// The lock the token belongs to, when it is not this run's own lock.
    pub(super) lock: Option<String>,
    /// The message that carried it (`None` for a raw write).
    pub(super) message: Option<u64>,
    /// Which resource it reaches: an index into the run's resources.
    pub(super) resource: usize,
}
