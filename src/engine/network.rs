//! The network: messages between the nodes, the store and the resource, with a latency drawn
//! from the configured range, and partitions that cut a node's links.
//!
//! Every message has exactly one node at its far end ([`Body::node`]); the other end is the store
//! (acquire, renew, release and their replies) or the fenced resource (writes). A partition cuts
//! the node's link to either or both; a message that would cross a cut link is dropped, at send
//! or at delivery. A reply reaching a paused node waits at its door until it resumes.
//!
//! Faults the network itself adds, drawn from the seed ([`NetworkConfig`]): a message delivered
//! twice (the copy gets its own id and latency, and is not copied or held back again), and a
//! message held back so later ones overtake it. Their draws come from a stream of their own
//! ([`NetFaults::rng`]), so a run without them draws the same latencies as before they existed.
//! The same faults, and a lost message, can be asked for one message at a time
//! ([`super::Command::NextMessage`]: [`NetFaults::arm`]); the draws are made all the same, so
//! the messages after it keep their latencies.
//! A node takes the first reply to each request and ignores any later one (a client matches a
//! response to its pending call; a response to a call that already returned is dropped): every
//! reply handler then sees each request answered at most once, whatever the network copied. The
//! store and the resource, on the other hand, act on every copy of a request that reaches them.
//!
//! Nodes never talk to each other: every message has the store or the resource at its other
//! end. A cut between two candidates therefore changes nothing for these protocols (unlike Raft,
//! whose candidates vote for each other), and there is none to choose.

use super::config::NetworkConfig;
use super::node::Held;
use super::rng::Rng;
use super::writes::WriteArrival;
use super::{Endpoint, Item, Link, MessageFault, MessageKind, MessageView, Sim, TraceEvent, WireToken};

/// A message between the actors.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Message {
    pub(super) id: u64,
    pub(super) sent_ms: u64,
    pub(super) arrive_ms: u64,
    pub(super) body: Body,
    /// For a reply: the request it answers, named by the original's id when the network copied
    /// the request (both copies' replies answer one call).
    answers: Option<u64>,
}

/// The network's own faults: their random stream, and which calls were copied and already
/// answered (kept only for copied messages, so a run without copies keeps none).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct NetFaults {
    /// Derived from the seed, apart from the run's main stream (as `profile::lessor_phase_ms`).
    rng: Rng,
    /// `(copy's id, original's id)`, sorted by the copy's id (ids only grow). Sorted vectors
    /// rather than B-trees: the page's size budget has no room for more B-tree code.
    copies: Vec<(u64, u64)>,
    /// Calls (by the original request's id) that may get more than one reply, sorted.
    copied_calls: Vec<u64>,
    /// Of those, the ones whose first reply has reached the node, sorted.
    answered: Vec<u64>,
    /// Faults asked for the next message of a kind between a node (by index) and the store or
    /// the resource, in the order asked; one per node and kind.
    armed: Vec<(usize, MessageKind, MessageFault)>,
}

impl NetFaults {
    /// The faults' state for a run of `seed`.
    pub(super) fn new(seed: u64) -> Self {
        Self {
            rng: Rng::new(seed ^ 0x6e65_7477_6f72_6b21),
            copies: Vec::new(),
            copied_calls: Vec::new(),
            answered: Vec::new(),
            armed: Vec::new(),
        }
    }

    /// Asks for `fault` on the next message of `kind` between node `node` and the store or the
    /// resource, replacing one asked before for the same node and kind.
    pub(super) fn arm(&mut self, node: usize, kind: MessageKind, fault: MessageFault) {
        self.armed.retain(|a| (a.0, a.1) != (node, kind));
        self.armed.push((node, kind, fault));
    }

    /// The fault asked for this message, if any; it is then used up.
    fn take_armed(&mut self, node: usize, kind: MessageKind) -> Option<MessageFault> {
        let at = self.armed.iter().position(|a| (a.0, a.1) == (node, kind))?;
        Some(self.armed.remove(at).2)
    }

    /// The original of message `id` when it is a copy, else `id`.
    fn original(&self, id: u64) -> u64 {
        self.copies.binary_search_by_key(&id, |c| c.0).map_or(id, |i| self.copies[i].1)
    }

    /// Whether a draw of `percent` (0 ..= 100) comes up; draws nothing at 0.
    fn chance(&mut self, percent: u8) -> bool {
        percent > 0 && self.rng.range_inclusive(0, 99) < u64::from(percent)
    }
}

impl super::Config {
    /// The network faults' own rules (called by [`super::Config::check`]).
    ///
    /// # Errors
    /// A percentage above 100, a hold above 10 minutes, or a reorder chance without a hold.
    pub(super) fn network_faults_check(&self) -> Result<(), super::ConfigError> {
        let err = |path: &str, message: &str| super::ConfigError { path: path.into(), message: message.into() };
        let NetworkConfig { duplicate_percent, reorder_percent, reorder_hold_ms, .. } = self.network;
        if duplicate_percent > 100 {
            return Err(err("network.duplicate_percent", "must be between 0 and 100"));
        }
        if reorder_percent > 100 {
            return Err(err("network.reorder_percent", "must be between 0 and 100"));
        }
        if reorder_hold_ms > 600_000 {
            return Err(err("network.reorder_hold_ms", "must be at most 600000 (10 minutes)"));
        }
        if reorder_percent > 0 && reorder_hold_ms == 0 {
            return Err(err("network.reorder_hold_ms", "must be above 0 when network.reorder_percent is"));
        }
        Ok(())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Body {
    /// `observed_expired`: under observer expiry, the record version the candidate saw and
    /// judged expired on its own clock.
    AcquireRequest {
        node: usize,
        incarnation: u32,
        observed_expired: Option<u64>,
    },
    /// Carries the record as the store has it now (what a client-go `Get` returns).
    AcquireReply {
        node: usize,
        incarnation: u32,
        request_sent_ms: u64,
        token: Option<u64>,
        record: Record,
    },
    RenewRequest {
        node: usize,
        incarnation: u32,
        token: u64,
    },
    RenewReply {
        node: usize,
        incarnation: u32,
        request_sent_ms: u64,
        token: u64,
        ok: bool,
    },
    Write {
        node: usize,
        op_id: String,
        value: String,
        token: u64,
        /// Which resource it goes to (an index into the run's resources).
        resource: usize,
    },
    ReleaseRequest {
        node: usize,
        token: u64,
    },
}

/// The parts of the record a reply shows the candidate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Record {
    pub(super) version: u64,
    pub(super) holder: Option<String>,
    pub(super) duration_ms: u64,
}

impl Body {
    fn kind(&self) -> MessageKind {
        match self {
            Body::AcquireRequest { .. } => MessageKind::AcquireRequest,
            Body::AcquireReply { .. } => MessageKind::AcquireReply,
            Body::RenewRequest { .. } => MessageKind::RenewRequest,
            Body::RenewReply { .. } => MessageKind::RenewReply,
            Body::Write { .. } => MessageKind::Write,
            Body::ReleaseRequest { .. } => MessageKind::ReleaseRequest,
        }
    }

    /// The node at the far end of the message (every message has exactly one).
    fn node(&self) -> usize {
        match self {
            Body::AcquireRequest { node, .. }
            | Body::AcquireReply { node, .. }
            | Body::RenewRequest { node, .. }
            | Body::RenewReply { node, .. }
            | Body::Write { node, .. }
            | Body::ReleaseRequest { node, .. } => *node,
        }
    }

    /// Whether the message travels towards the node (a reply).
    fn to_node(&self) -> bool {
        matches!(self, Body::AcquireReply { .. } | Body::RenewReply { .. })
    }

    fn token(&self) -> Option<WireToken> {
        match self {
            Body::AcquireRequest { .. } => None,
            Body::AcquireReply { token, .. } => token.map(WireToken::Number),
            Body::RenewRequest { token, .. }
            | Body::RenewReply { token, .. }
            | Body::Write { token, .. }
            | Body::ReleaseRequest { token, .. } => Some(WireToken::Number(*token)),
        }
    }
}

impl Sim {
    /// Send a message now: dropped at once over a cut link, otherwise delivered after a latency
    /// drawn from the configured range plus `extra_delay_ms`.
    pub(super) fn send(&mut self, body: Body, extra_delay_ms: u64) {
        self.send_message(body, extra_delay_ms, None);
    }

    /// Send a reply to request `request_id` now (see [`Sim::send`]).
    pub(super) fn send_reply(&mut self, body: Body, request_id: u64) {
        self.send_message(body, 0, Some(request_id));
    }

    fn send_message(&mut self, body: Body, extra_delay_ms: u64, reply_to: Option<u64>) {
        let id = self.next_message_id;
        self.next_message_id += 1;
        let kind = body.kind();
        let node = body.node();
        if !body.to_node() && self.cut(node, &body) {
            self.record(TraceEvent::MessageDropped { id, kind });
            return;
        }
        let net = self.config.network;
        let latency = self.rng.range_inclusive(net.latency_min_ms, net.latency_max_ms);
        let drawn_hold_ms = if self.net.chance(net.reorder_percent) { net.reorder_hold_ms } else { 0 };
        let drawn_copy = self.net.chance(net.duplicate_percent);
        let asked = self.net.take_armed(node, kind);
        if asked == Some(MessageFault::Lose) {
            self.record(TraceEvent::MessageDropped { id, kind });
            return;
        }
        let held_ms = match asked {
            Some(MessageFault::Hold { by_ms }) => drawn_hold_ms.saturating_add(by_ms),
            _ => drawn_hold_ms,
        };
        let arrive_ms = self.now_ms.saturating_add(latency).saturating_add(extra_delay_ms).saturating_add(held_ms);
        let (from, to) = self.endpoints(&body);
        let token = body.token();
        self.record(TraceEvent::MessageSent {
            id,
            kind,
            from,
            to: to.clone(),
            arrive_ms,
            token: token.clone(),
            reply_to,
        });
        if held_ms > 0 {
            self.record(TraceEvent::MessageHeldBack { id, kind, by_ms: held_ms });
        }
        // Both copies of a copied request answer one call: the original's.
        let answers = reply_to.map(|r| self.net.original(r));
        let message = Message { id, sent_ms: self.now_ms, arrive_ms, body, answers };
        if drawn_copy || asked == Some(MessageFault::Copy) {
            let copy = self.next_message_id;
            self.next_message_id += 1;
            let latency = self.net.rng.range_inclusive(net.latency_min_ms, net.latency_max_ms);
            let copy_arrive_ms = self.now_ms.saturating_add(latency).saturating_add(extra_delay_ms);
            let (from, _) = self.endpoints(&message.body);
            self.record(TraceEvent::MessageSent {
                id: copy,
                kind,
                from,
                to,
                arrive_ms: copy_arrive_ms,
                token,
                reply_to,
            });
            self.record(TraceEvent::MessageDuplicated { id: copy, copy_of: id, kind });
            self.net.copies.push((copy, id));
            insert_sorted(&mut self.net.copied_calls, answers.unwrap_or(id));
            let twin = Message { id: copy, arrive_ms: copy_arrive_ms, ..message.clone() };
            self.schedule(arrive_ms, Item::Deliver(message));
            self.schedule(copy_arrive_ms, Item::Deliver(twin));
            return;
        }
        self.schedule(arrive_ms, Item::Deliver(message));
    }

    /// Whether a reply reaching its node answers a call the node already had a reply to (then
    /// the node ignores it); notes the first reply to a copied call.
    fn answered_already(&mut self, message: &Message) -> bool {
        let Some(call) = message.answers else { return false };
        if self.net.answered.binary_search(&call).is_ok() {
            return true;
        }
        if self.net.copied_calls.binary_search(&call).is_ok() {
            insert_sorted(&mut self.net.answered, call);
        }
        false
    }

    /// Whether a partition of `node` cuts the link `body` travels on.
    fn cut(&self, node: usize, body: &Body) -> bool {
        let write = matches!(body, Body::Write { .. });
        match self.nodes[node].cut {
            None => false,
            Some(Link::All) => true,
            Some(Link::Coordinator) => !write,
            Some(Link::Resource) => write,
            Some(Link::CoordinatorReplies) => body.to_node(),
            Some(Link::CoordinatorRequests) => !write && !body.to_node(),
        }
    }

    /// A message arrives: dropped over a cut link or at a crashed node, held at a paused node,
    /// otherwise handed to the node, the store or the resource.
    pub(super) fn deliver(&mut self, message: Message) {
        let node = message.body.node();
        let n = &self.nodes[node];
        // A node-level partition cuts the node's only link: nothing crosses it either way.
        if self.cut(node, &message.body) || (message.body.to_node() && n.crashed) {
            self.record(TraceEvent::MessageDropped { id: message.id, kind: message.body.kind() });
            return;
        }
        if message.body.to_node() {
            if self.answered_already(&message) {
                let id = self.nodes[node].id.clone();
                self.record(TraceEvent::ReplyIgnored { id: message.id, kind: message.body.kind(), node: id });
                return;
            }
            if self.nodes[node].paused {
                self.nodes[node].held.push_back(Held::Message(message));
            } else {
                self.on_message(node, message);
            }
            return;
        }
        match message.body {
            Body::AcquireRequest { incarnation, observed_expired, .. } => {
                self.on_acquire(node, incarnation, (message.id, message.sent_ms), observed_expired)
            }
            Body::ReleaseRequest { token, .. } => self.on_release(node, token),
            Body::RenewRequest { incarnation, token, .. } => {
                self.on_renew(node, incarnation, token, (message.id, message.sent_ms))
            }
            Body::Write { ref op_id, ref value, token, resource, .. } => {
                let arrival = WriteArrival {
                    from: Some(self.nodes[node].id.clone()),
                    token: WireToken::Number(token),
                    value: value.clone(),
                    op_id: op_id.clone(),
                    sent_ms: message.sent_ms,
                    lock: None,
                    message: Some(message.id),
                    resource,
                };
                self.judge_write(arrival);
            }
            _ => {}
        }
    }

    /// A message as the snapshot shows it.
    pub(super) fn message_view(&self, m: &Message) -> MessageView {
        let (from, to) = self.endpoints(&m.body);
        MessageView {
            id: m.id,
            kind: m.body.kind(),
            from,
            to,
            sent_ms: m.sent_ms,
            arrive_ms: m.arrive_ms,
            token: m.body.token(),
        }
    }

    fn endpoints(&self, body: &Body) -> (Endpoint, Endpoint) {
        let node = Endpoint::Node(self.nodes[body.node()].id.clone());
        let other = if matches!(body, Body::Write { .. }) { Endpoint::Resource } else { Endpoint::Coordinator };
        if body.to_node() {
            (other, node)
        } else {
            (node, other)
        }
    }
}

/// Inserts `v` into the sorted `list` unless it is there.
fn insert_sorted(list: &mut Vec<u64>, v: u64) {
    if let Err(at) = list.binary_search(&v) {
        list.insert(at, v);
    }
}
