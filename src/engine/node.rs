//! A candidate / leader process (a flag-bearer).
//!
//! A candidate asks to acquire every `retry_every_ms`. A leader renews every `renew_every_ms` and
//! steps down when it has had no successful renewal for `renew_deadline_ms` on its own clock
//! (client-go `RenewDeadline`) or when a renewal is refused. While it believes it leads it sends
//! one write every `work.every_ms`. Believing is not holding: nothing here reads the
//! coordinator's record; a node learns only from the replies that reach it.

use std::collections::VecDeque;

use serde::Serialize;

use super::snapshot::PreparedWrite;

/// The node's periodic timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum TimerKind {
    /// Candidate: send another acquire request.
    Retry,
    /// Leader: send a renewal.
    Renew,
    /// Leader: check the belief and send a write.
    Work,
    /// Leader: the renew deadline may have passed.
    Deadline,
}

impl TimerKind {
    pub(crate) const ALL: [TimerKind; 4] = [TimerKind::Retry, TimerKind::Renew, TimerKind::Work, TimerKind::Deadline];

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// What a leader believes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Leadership {
    /// The fencing token of its term.
    pub token: u64,
    /// Send time of the last request the coordinator confirmed (acquire or renew), in ms. The
    /// deadline counts from the send, not the reply: the coordinator moved `renewTime` no earlier
    /// than that, so the leader gives up no later than the lease could be given away.
    pub last_ok_sent_ms: u64,
}

/// Something that reached a frozen node and waits for it to wake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Held<M> {
    Timer { kind: TimerKind, generation: u64 },
    Message(M),
}

/// One node's state. Volatile parts are lost on a crash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Node<M> {
    pub id: String,
    pub started: bool,
    pub crashed: bool,
    pub paused: bool,
    pub partitioned: bool,
    /// Grows on every crash and restart, so timers and replies meant for an earlier life of the
    /// process are ignored.
    pub incarnation: u32,
    pub leadership: Option<Leadership>,
    /// Generation of each timer kind; a fired timer with an older generation was cancelled.
    pub timer_generation: [u64; 4],
    pub held: VecDeque<Held<M>>,
    pub prepared: Option<PreparedWrite>,
    pub next_write_delay_ms: Option<u64>,
    /// Number of the next write (kept across crashes so op ids stay unique).
    pub next_write_number: u64,
    pub writes_sent: u64,
    /// Grows with each pause, so a `for_ms` auto-resume cannot end a later pause.
    pub pause_count: u64,
}

impl<M> Node<M> {
    pub fn new(id: String) -> Self {
        Self {
            id,
            started: false,
            crashed: false,
            paused: false,
            partitioned: false,
            incarnation: 0,
            leadership: None,
            timer_generation: [0; 4],
            held: VecDeque::new(),
            prepared: None,
            next_write_delay_ms: None,
            next_write_number: 1,
            writes_sent: 0,
            pause_count: 0,
        }
    }

    /// Whether the renew deadline has passed at `now_ms` on the node's own clock.
    pub fn deadline_passed(&self, now_ms: u64, renew_deadline_ms: u64) -> bool {
        self.leadership.is_some_and(|l| now_ms >= l.last_ok_sent_ms.saturating_add(renew_deadline_ms))
    }

    /// Cancel a timer kind (any armed instance will be ignored when it fires).
    pub fn cancel(&mut self, kind: TimerKind) {
        self.timer_generation[kind.index()] += 1;
    }

    /// Take the next write's op id and value, e.g. `chen-3` and `chen#3`.
    pub fn next_write(&mut self) -> (String, String) {
        let n = self.next_write_number;
        self.next_write_number += 1;
        (format!("{}-{n}", self.id), format!("{}#{n}", self.id))
    }

    /// Forget all volatile state (a crash).
    pub fn lose_volatile_state(&mut self) {
        self.leadership = None;
        self.paused = false;
        self.held.clear();
        self.prepared = None;
        self.next_write_delay_ms = None;
        for kind in TimerKind::ALL {
            self.cancel(kind);
        }
        self.incarnation += 1;
    }
}
