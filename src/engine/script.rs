//! The script: a scenario's own `events` ([`Config::events`](super::Config::events)), the steps it
//! plans ahead of time, and what is left of it as the run goes on.
//!
//! A scripted step is *ahead* while it has not been executed yet, has not been dropped, and falls
//! within the run (`at_ms <= until_ms`; a step after the end never happens). That is the whole
//! rule, and it is decided here alone ([`Sim::script_steps`]): both the query the page reads
//! ([`Sim::script_ahead`]) and [`Command::DropScript`](super::Command::DropScript) use it, so what
//! the page shows as ahead is exactly what a drop sets aside.
//!
//! Equal milliseconds follow the queue's order. Scripted steps sort first at their millisecond
//! and live interventions after everything at theirs, so a drop made live (or recorded in
//! `interventions`) at `t` comes after the steps at `t`: they have already happened and are not
//! undone. A drop that is itself a scripted step sees the steps after it in file order at its
//! millisecond as still ahead. The steps that target a node are those whose
//! [`Command::node`](super::Command::node) is that node, clock steps of that node included (and a
//! later scripted `drop_script` of it, which would have nothing left to drop).
//!
//! A step that has applied is not ahead, nor is what it set going: a scripted `pause` with
//! `for_ms` that has already happened still resumes the node by itself (unless the node was woken
//! and paused again meanwhile), as part of that step.
//!
//! A dropped step is taken out of the queue, so a [`Sim`] clone (a timeline checkpoint) carries
//! the drop, and a replay of the same interventions drops the same steps: the trace stays
//! reproducible bit for bit.

use super::{Item, ScheduledCommand, Sim, TraceEvent};

impl Sim {
    /// The scripted steps still ahead (not executed yet, not dropped, at or before `until_ms`),
    /// in the order they will apply: by time, then file order. Empty once the run has ended.
    /// Live interventions are not part of the script and are not listed.
    pub fn script_ahead(&self) -> Vec<ScheduledCommand> {
        self.script_steps().map(|(_, index)| self.config.events[index].clone()).collect()
    }

    /// [`Sim::script_ahead`] for the steps that target `node` (whose
    /// [`Command::node`](super::Command::node) is `node`): what a
    /// [`Command::DropScript`](super::Command::DropScript) for it would set aside now.
    pub fn script_ahead_for(&self, node: &str) -> Vec<ScheduledCommand> {
        self.script_ahead().into_iter().filter(|s| s.command.node() == Some(node)).collect()
    }

    /// The scripted steps set aside so far by [`Command::DropScript`](super::Command::DropScript),
    /// as `(node, at_ms)` in the order they were dropped, read from the trace
    /// ([`TraceEvent::ScriptDropped`]). A step stays set aside once the run has passed its time,
    /// where [`Sim::script_ahead`] no longer tells it from one that happened.
    pub fn script_dropped(&self) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        for entry in self.trace() {
            if let TraceEvent::ScriptDropped { node, dropped_ms } = &entry.event {
                out.extend(dropped_ms.iter().map(|ms| (node.clone(), *ms)));
            }
        }
        out
    }

    /// The queue keys and `events` indices of the steps still ahead, in queue order.
    fn script_steps(&self) -> impl Iterator<Item = ((u64, u64), usize)> + '_ {
        let until = self.config.until_ms;
        self.queue.iter().filter(move |((at, _), _)| !self.ended && *at <= until).filter_map(|(key, item)| match item {
            Item::Scheduled { index } => Some((*key, *index)),
            _ => None,
        })
    }

    /// Drops the steps still ahead that target node `node` (an index into the nodes) and records
    /// which ([`TraceEvent::ScriptDropped`], also when there were none).
    pub(super) fn drop_script(&mut self, node: usize) {
        let id = self.nodes[node].id.clone();
        let dropped: Vec<(u64, u64)> = self
            .script_steps()
            .filter(|(_, index)| self.config.events[*index].command.node() == Some(id.as_str()))
            .map(|(key, _)| key)
            .collect();
        for key in &dropped {
            self.queue.remove(key);
        }
        let dropped_ms = dropped.into_iter().map(|(at, _)| at).collect();
        self.record(TraceEvent::ScriptDropped { node: id, dropped_ms });
    }
}
