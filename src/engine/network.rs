//! The network: messages between the nodes, the store and the resource, with a latency drawn
//! from the configured range, and partitions that cut a node's links.
//!
//! Every message has exactly one node at its far end ([`Body::node`]); the other end is the store
//! (acquire, renew, release and their replies) or the fenced resource (writes). A partition cuts
//! the node's link to either or both; a message that would cross a cut link is dropped, at send
//! or at delivery. A reply reaching a paused node waits at its door until it resumes.

use super::node::Held;
use super::writes::WriteArrival;
use super::{Endpoint, Item, Link, MessageKind, MessageView, Sim, TraceEvent, WireToken};

/// A message between the actors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Message {
    pub(super) id: u64,
    pub(super) sent_ms: u64,
    pub(super) arrive_ms: u64,
    pub(super) body: Body,
}

#[derive(Clone, Debug, PartialEq, Eq)]
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
    },
    ReleaseRequest {
        node: usize,
        token: u64,
    },
}

/// The parts of the record a reply shows the candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
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
        let arrive_ms = self.now_ms.saturating_add(latency).saturating_add(extra_delay_ms);
        let (from, to) = self.endpoints(&body);
        let token = body.token();
        self.record(TraceEvent::MessageSent { id, kind, from, to, arrive_ms, token, reply_to });
        let message = Message { id, sent_ms: self.now_ms, arrive_ms, body };
        self.schedule(arrive_ms, Item::Deliver(message));
    }

    /// Whether a partition of `node` cuts the link `body` travels on.
    fn cut(&self, node: usize, body: &Body) -> bool {
        match self.nodes[node].cut {
            None => false,
            Some(Link::All) => true,
            Some(Link::Coordinator) => !matches!(body, Body::Write { .. }),
            Some(Link::Resource) => matches!(body, Body::Write { .. }),
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
            if n.paused {
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
            Body::Write { ref op_id, ref value, token, .. } => {
                let arrival = WriteArrival {
                    from: Some(self.nodes[node].id.clone()),
                    token: WireToken::Number(token),
                    value: value.clone(),
                    op_id: op_id.clone(),
                    sent_ms: message.sent_ms,
                    lock: None,
                    message: Some(message.id),
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
