//! Carrying out commands: the scenario's scripted steps, recorded interventions and live ones
//! ([`Command`]) all land here. Faults (pause, crash, partition, clock steps, issuer rollback,
//! lost high-water mark) and the operator's levers (revoke, fencing on or off, raw writes).

use super::node::Held;
use super::writes::WriteArrival;
use super::{Command, IgnoredBecause, Item, Link, Sim, TraceEvent};

impl Sim {
    /// Records that `command` changed nothing, and why.
    fn ignored(&mut self, command: &Command, why: IgnoredBecause) {
        // Cannot fail (plain data with string keys); were it ever to, the entry would carry no
        // command rather than bring serde_json's error texts into the page's first module (issue
        // 14: they stay with `TraceHasher`, in a chunk).
        let command = serde_json::to_string(command).unwrap_or_default();
        self.record(TraceEvent::CommandIgnored { command, why });
    }

    /// Carries out a command (scripted, recorded or live) now; one that cannot apply to the
    /// world as it is is recorded as ignored.
    pub(super) fn execute(&mut self, command: Command) {
        let target = command.node().and_then(|id| self.node_index(id));
        match (&command, target) {
            (Command::Pause { for_ms, .. }, Some(node)) => {
                let n = &self.nodes[node];
                if n.crashed || n.paused || !n.started {
                    return self.ignored(&command, IgnoredBecause::NotRunning);
                }
                self.pause(node, *for_ms);
            }
            (Command::Resume { .. }, Some(node)) => {
                if !self.nodes[node].paused {
                    return self.ignored(&command, IgnoredBecause::NotPaused);
                }
                self.resume(node);
            }
            (Command::Crash { .. }, Some(node)) => {
                if self.nodes[node].crashed {
                    return self.ignored(&command, IgnoredBecause::AlreadyCrashed);
                }
                let n = &mut self.nodes[node];
                n.lose_volatile_state();
                n.crashed = true;
                n.started = true;
                let id = n.id.clone();
                self.record(TraceEvent::Crashed { node: id });
            }
            (Command::Restart { .. }, Some(node)) => {
                if !self.nodes[node].crashed {
                    return self.ignored(&command, IgnoredBecause::NotCrashed);
                }
                let n = &mut self.nodes[node];
                n.crashed = false;
                n.incarnation += 1;
                let id = n.id.clone();
                self.record(TraceEvent::Restarted { node: id });
                self.start(node);
            }
            (Command::Partition { from, .. }, Some(node)) => {
                if self.nodes[node].cut.is_some() {
                    return self.ignored(&command, IgnoredBecause::AlreadyPartitioned);
                }
                self.nodes[node].cut = Some(*from);
                let id = self.nodes[node].id.clone();
                self.record(match from {
                    Link::All => TraceEvent::Partitioned { node: id },
                    link => TraceEvent::PartitionedFrom { node: id, from: *link },
                });
            }
            (Command::Heal { .. }, Some(node)) => {
                if self.nodes[node].cut.is_none() {
                    return self.ignored(&command, IgnoredBecause::NotPartitioned);
                }
                self.nodes[node].cut = None;
                let id = self.nodes[node].id.clone();
                self.record(TraceEvent::Healed { node: id });
            }
            (Command::DelayNextWrite { by_ms, .. }, Some(node)) => {
                self.nodes[node].next_write_delay_ms = Some(*by_ms);
                let id = self.nodes[node].id.clone();
                self.record(TraceEvent::WriteDelayArmed { node: id, by_ms: *by_ms });
            }
            (Command::NextMessage { kind, fault, .. }, Some(node)) => {
                self.net.arm(node, *kind, *fault);
                let id = self.nodes[node].id.clone();
                self.record(TraceEvent::MessageFaultArmed { node: id, kind: *kind, fault: *fault });
            }
            (Command::RevokeLease, _) => {
                let token = self.store.coordinator.token.unwrap_or(0);
                let holder = self.store.revoke(self.now_ms);
                self.record(TraceEvent::LeaseRevoked { holder, token });
            }
            (Command::SetFencing { on }, _) => {
                // The operator's switch: every resource checks tokens, or none does.
                for r in &mut self.resources {
                    r.fencing = *on;
                }
                self.record(TraceEvent::FencingSet { on: *on });
            }
            (Command::RollbackIssuer { next_token }, _) => {
                let next_token_before = self.store.coordinator.next_token;
                self.store.coordinator.next_token = *next_token;
                self.record(TraceEvent::IssuerRolledBack { next_token_before, next_token: *next_token });
            }
            (Command::RestoreResource { high_water, resource }, _) => {
                let Some(r) = self.config.resource_index(resource.as_deref()) else {
                    return self.ignored(&command, IgnoredBecause::UnknownResource);
                };
                let res = &mut self.resources[r];
                let high_water_before = res.restore(*high_water);
                let (high_water_after, resource) = (res.high_water, res.name.clone());
                self.record(TraceEvent::ResourceRestored { high_water_before, high_water_after, resource });
            }
            (Command::RestartResource { resource }, _) => {
                let Some(r) = self.config.resource_index(resource.as_deref()) else {
                    return self.ignored(&command, IgnoredBecause::UnknownResource);
                };
                let res = &mut self.resources[r];
                let high_water_before = res.restart();
                let (high_water_after, resource) = (res.high_water, res.name.clone());
                self.record(TraceEvent::ResourceRestarted { high_water_before, high_water_after, resource });
            }
            (Command::RawWrite { token, value, op_id, lock, resource }, _) => {
                let Some(r) = self.config.resource_index(resource.as_deref()) else {
                    return self.ignored(&command, IgnoredBecause::UnknownResource);
                };
                self.raw_writes += 1;
                let op_id = op_id.clone().unwrap_or_else(|| format!("raw-{}", self.raw_writes));
                let now = self.now_ms;
                let arrival = WriteArrival {
                    from: None,
                    token: token.clone(),
                    value: value.clone(),
                    op_id,
                    sent_ms: now,
                    lock: lock.clone(),
                    message: None,
                    resource: r,
                };
                self.judge_write(arrival);
            }
            (Command::ClockJump { target, by_ms }, node) => {
                let now = self.now_ms;
                let reads_ms = match node {
                    Some(node) if self.nodes[node].monotonic_timers => {
                        // Its wall clock steps; the monotonic clock its timers run on does not.
                        let n = &mut self.nodes[node];
                        n.wall_shift_ms = n.wall_shift_ms.saturating_add(*by_ms);
                        n.clock.read(now).saturating_add(n.wall_shift_ms)
                    }
                    Some(node) => {
                        self.nodes[node].clock.jump(*by_ms, now);
                        self.rearm_timers(node);
                        self.nodes[node].clock.read(now)
                    }
                    // The store's wall clock steps; its expiry follows only where the profile's
                    // expiry runs on the wall clock (Redis), not on a monotonic one (etcd).
                    None => self.store.jump_clock(*by_ms, now),
                };
                self.record(TraceEvent::ClockJumped { target: target.clone(), by_ms: *by_ms, reads_ms });
                if node.is_none() {
                    self.store_clock_changed();
                }
            }
            (Command::ClockRate { target, rate_ppm }, node) => {
                let now = self.now_ms;
                match node {
                    Some(node) => {
                        self.nodes[node].clock.set_rate(*rate_ppm, now);
                        self.rearm_timers(node);
                    }
                    None => self.store.set_clock_rate(*rate_ppm, now),
                }
                self.record(TraceEvent::ClockRateSet { target: target.clone(), rate_ppm: *rate_ppm });
                if node.is_none() {
                    self.store_clock_changed();
                }
            }
            (Command::DropScript { .. }, Some(node)) => self.drop_script(node),
            (Command::StoreFailover { lag_ms }, _) => self.fail_over_store(*lag_ms),
            (_, None) => self.ignored(&command, IgnoredBecause::UnknownNode),
        }
    }

    /// A pause lands between the leader's check and its send: the write is already prepared
    /// with the token it believes in, and goes out first thing on resume.
    fn pause(&mut self, node: usize, for_ms: Option<u64>) {
        let n = &mut self.nodes[node];
        n.paused = true;
        n.pause_count += 1;
        let pause = n.pause_count;
        let id = n.id.clone();
        let prepared = n.leadership.map(|l| l.token).or(n.zombie_token).map(|token| n.next_round(token));
        n.prepared = prepared.clone().unwrap_or_default();
        self.record(TraceEvent::Paused { node: id.clone() });
        for p in prepared.unwrap_or_default() {
            let resource = self.config.resource_name(p.resource);
            self.record(TraceEvent::WritePrepared { node: id.clone(), op_id: p.op_id, token: p.token, resource });
        }
        if let Some(ms) = for_ms {
            let at = self.now_ms.saturating_add(ms);
            self.schedule(at, Item::AutoResume { node, pause });
        }
    }

    /// On resume the node first sends the write it prepared, with its old token, before it
    /// learns anything new; then it handles what waited for it, in arrival order.
    pub(super) fn resume(&mut self, node: usize) {
        self.nodes[node].paused = false;
        let id = self.nodes[node].id.clone();
        self.record(TraceEvent::Resumed { node: id });
        let prepared = std::mem::take(&mut self.nodes[node].prepared);
        if !prepared.is_empty() {
            self.send_round(node, prepared);
        }
        while let Some(held) = self.nodes[node].held.pop_front() {
            if self.nodes[node].paused || self.nodes[node].crashed {
                self.nodes[node].held.push_front(held);
                break;
            }
            match held {
                Held::Timer { kind, generation } => {
                    if self.nodes[node].timer_generation[kind.index()] == generation {
                        self.on_timer(node, kind);
                    }
                }
                Held::Message(m) => self.on_message(node, m),
            }
        }
    }
}
