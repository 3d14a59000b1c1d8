//! One log line per trace event, told twice: in the fable's words and in the field's terms. The
//! technical texts are a translation table ([`Line::technical`]): each line exists in English and
//! Simplified Chinese or the crate does not compile, and every fable shares it. Each fable tells
//! the same line in its own words, in its own module ([`Fable::line`]); which story is told
//! follows the cast's fable ([`Cast::fable`]).

use serde::Serialize;

use super::cast::Cast;
use super::i18n::{fill, seconds, span, Ui};
use crate::engine::{
    Blocked, IgnoredBecause, MessageFault, ReleaseOutcome, StepDownReason, TraceEntry, TraceEvent, Violation,
    WireToken, WriteOutcome,
};
use crate::vocab::Fable;
use crate::vocab::Lang;

/// How a line should feel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tone {
    Info,
    /// Safety held (a grant, a stale flag voided).
    Good,
    /// Trouble brewing (a pause, an expiry).
    Warn,
    /// Harm done (a violation, a crash).
    Bad,
}

/// A narrated trace event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Narration {
    /// Stable kebab-case kind, used as `data-kind` on log rows (e.g. `write-rejected-stale`).
    pub kind: &'static str,
    /// The fable's words.
    pub story: String,
    /// The same event in technical terms.
    pub technical: String,
    pub tone: Tone,
    /// Routine events (renewals, refused retries, writes in the same term, lost messages) that a
    /// compact log may hide.
    pub minor: bool,
    /// The line of the log it is told with (which part of a telling's pack its story is in:
    /// [`Line::in_first_part`]).
    #[serde(skip)]
    pub line: Line,
}

/// The log's translation table: `(story, technical)` templates in English and Chinese.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    NodeStarted,
    MessageDropped,
    LeaseGranted,
    LeaseReacquired,
    AcquireRefused,
    /// Refused after the holder's lease ended, because the store has not yet deleted its key
    /// (etcd's lessor, every half second).
    AcquireRefusedLingering,
    LeaseRenewed,
    RenewRefused,
    LeaseExpired,
    LeaseRevoked,
    LeaseRevokedEmpty,
    BecameLeader,
    SteppedDownDeadline,
    SteppedDownRefused,
    WritePrepared,
    WriteAccepted,
    WriteObeyedUnchecked,
    WriteObeyedOlder,
    WriteRejectedStale,
    WriteRejectedEqual,
    WriteRejectedNotEqual,
    WriteRejectedIssuerBehind,
    WriteRejectedForeignMark,
    WriteRejectedInvalid,
    WriteDuplicate,
    ViolationStaleSeenNewer,
    ViolationStaleBeforeSeen,
    ViolationStaleForgotten,
    ViolationInvalidAccepted,
    ViolationTokenRegression,
    ViolationDuplicate,
    IssuerRolledBack,
    ResourceRestored,
    ResourceRestartedKept,
    ResourceRestartedLost,
    Paused,
    Resumed,
    Crashed,
    Restarted,
    Partitioned,
    Healed,
    FencingOn,
    FencingOff,
    WriteDelayArmed,
    CommandIgnored,
    RunEnded,
    /// The sender of a write from outside the harbor (a raw write).
    Outsider,
    /// A holder shown when the plaque is empty.
    Nobody,
    /// How a write without a token field is shown.
    NoToken,
    // ----- the real protocols (issue 3): lock release, clocks, observer expiry, barriers -----
    SteppedDownFinished,
    SteppedDownSessionExpired,
    WorkContinues,
    LockReleased,
    LockReleaseNotOwner,
    LockReleaseDeletedOthers,
    LockReleaseAlreadyFree,
    EpochBarrierRaised,
    RecordObserved,
    ClockJumped,
    ClockRateSet,
    WriteRejectedForeign,
    ViolationLockDeleted,
    ViolationForeignToken,
    /// The store, named as a clock target.
    Store,
    PartitionedFromCoordinator,
    PartitionedFromResource,
    TraceLimitReached,
    // ----- the script set aside for a node (`drop_script`) -----
    ScriptDropped,
    /// A drop when the script had nothing left for the node.
    ScriptDroppedNothing,
    /// A grant on a store that issues no fencing token (a Kubernetes Lease).
    LeaseGrantedNoToken,
    // ----- the network's own faults (`network.duplicate_percent`, `reorder_percent`) -----
    MessageDuplicated,
    MessageHeldBack,
    ReplyIgnored,
    // ----- one message's fault asked for (`lose_next`, `hold_next`, `copy_next`) -----
    NextMessageLost,
    NextMessageHeld,
    NextMessageCopied,
    /// A one-way cut: requests arrive, replies are lost.
    PartitionedFromReplies,
    /// A one-way cut: requests are lost.
    PartitionedFromRequests,
    // ----- the store fails over; lock-delay (issue 13) -----
    /// An acquire refused while the lock-delay runs.
    AcquireDelayed,
    /// etcd's new leader extended the holder's lease.
    StoreFailedOverExtended,
    /// Redis' promoted replica lacks the holder's key.
    StoreFailedOverLost,
    /// A fail-over that lost nothing the lock depends on.
    StoreFailedOverKept,
    // ----- the work's own faults: a bounded shutdown, a client's retry (issue 13) -----
    WorkStopped,
    WriteRetried,
}

impl Line {
    /// The lines a telling's pack holds in its first part, in this order (the rest follow in its
    /// later part, in [`Line::ALL`]'s order, then the legend: `story::packs`): what the opening
    /// scenes tell (a lease granted, renewed, lost; a nap, a crash; a write judged; the run's
    /// end). `tests/packs.rs` checks that every scene a landing card opens is told from them.
    pub const FIRST_PART: [Line; 18] = [
        Line::NodeStarted,
        Line::LeaseGranted,
        Line::LeaseReacquired,
        Line::AcquireRefused,
        Line::LeaseRenewed,
        Line::RenewRefused,
        Line::LeaseExpired,
        Line::BecameLeader,
        Line::SteppedDownDeadline,
        Line::WritePrepared,
        Line::WriteAccepted,
        Line::WriteRejectedStale,
        Line::Paused,
        Line::Resumed,
        Line::Crashed,
        Line::Restarted,
        Line::WriteDelayArmed,
        Line::RunEnded,
    ];

    /// Whether the line's story is in the first part of a telling's pack ([`Line::FIRST_PART`]).
    pub fn in_first_part(self) -> bool {
        Line::FIRST_PART.contains(&self)
    }

    /// Where the line's story is among a telling's story lines as its pack holds them: the first
    /// part's in [`Line::FIRST_PART`]'s order, then the others in [`Line::ALL`]'s.
    pub fn pack_place(self) -> usize {
        match Line::FIRST_PART.iter().position(|l| *l == self) {
            Some(k) => k,
            None => {
                let before = Line::FIRST_PART.iter().filter(|l| (**l as usize) < self as usize).count();
                Line::FIRST_PART.len() + self as usize - before
            }
        }
    }

    /// Every line in the order a telling's pack holds their stories ([`Line::pack_place`]).
    pub fn pack_order() -> Vec<Line> {
        let mut order = Line::ALL.to_vec();
        order.sort_by_key(|l| l.pack_place());
        order
    }
}

impl Line {
    /// Every line, for table checks.
    pub const ALL: [Line; 84] = [
        Line::NodeStarted,
        Line::MessageDropped,
        Line::LeaseGranted,
        Line::LeaseReacquired,
        Line::AcquireRefused,
        Line::AcquireRefusedLingering,
        Line::LeaseRenewed,
        Line::RenewRefused,
        Line::LeaseExpired,
        Line::LeaseRevoked,
        Line::LeaseRevokedEmpty,
        Line::BecameLeader,
        Line::SteppedDownDeadline,
        Line::SteppedDownRefused,
        Line::WritePrepared,
        Line::WriteAccepted,
        Line::WriteObeyedUnchecked,
        Line::WriteObeyedOlder,
        Line::WriteRejectedStale,
        Line::WriteRejectedEqual,
        Line::WriteRejectedNotEqual,
        Line::WriteRejectedIssuerBehind,
        Line::WriteRejectedForeignMark,
        Line::WriteRejectedInvalid,
        Line::WriteDuplicate,
        Line::ViolationStaleSeenNewer,
        Line::ViolationStaleBeforeSeen,
        Line::ViolationStaleForgotten,
        Line::ViolationInvalidAccepted,
        Line::ViolationTokenRegression,
        Line::ViolationDuplicate,
        Line::IssuerRolledBack,
        Line::ResourceRestored,
        Line::ResourceRestartedKept,
        Line::ResourceRestartedLost,
        Line::Paused,
        Line::Resumed,
        Line::Crashed,
        Line::Restarted,
        Line::Partitioned,
        Line::Healed,
        Line::FencingOn,
        Line::FencingOff,
        Line::WriteDelayArmed,
        Line::CommandIgnored,
        Line::RunEnded,
        Line::Outsider,
        Line::Nobody,
        Line::NoToken,
        Line::SteppedDownFinished,
        Line::SteppedDownSessionExpired,
        Line::WorkContinues,
        Line::LockReleased,
        Line::LockReleaseNotOwner,
        Line::LockReleaseDeletedOthers,
        Line::LockReleaseAlreadyFree,
        Line::EpochBarrierRaised,
        Line::RecordObserved,
        Line::ClockJumped,
        Line::ClockRateSet,
        Line::WriteRejectedForeign,
        Line::ViolationLockDeleted,
        Line::ViolationForeignToken,
        Line::Store,
        Line::PartitionedFromCoordinator,
        Line::PartitionedFromResource,
        Line::TraceLimitReached,
        Line::ScriptDropped,
        Line::ScriptDroppedNothing,
        Line::LeaseGrantedNoToken,
        Line::MessageDuplicated,
        Line::MessageHeldBack,
        Line::ReplyIgnored,
        Line::NextMessageLost,
        Line::NextMessageHeld,
        Line::NextMessageCopied,
        Line::PartitionedFromReplies,
        Line::PartitionedFromRequests,
        Line::AcquireDelayed,
        Line::StoreFailedOverExtended,
        Line::StoreFailedOverLost,
        Line::StoreFailedOverKept,
        Line::WorkStopped,
        Line::WriteRetried,
    ];

    /// The technical template in `lang`: the same event in the field's terms, which every fable
    /// shares (each fable's story line for it is in its own module: [`Fable::line`]).
    /// Placeholders: `{name}` (display name), `{id}` (node id), `{token}`, `{hwm}`, `{newest}`,
    /// `{t}` (seconds), and others named in place.
    pub fn technical(self, lang: Lang) -> &'static str {
        // The page reads its texts from the translation pack it loaded (`super::packs`).
        #[cfg(target_arch = "wasm32")]
        {
            super::packs::get(lang, super::packs::technical_index(self))
        }
        #[cfg(not(target_arch = "wasm32"))]
        self.table(lang)
    }

    /// The table behind [`Line::technical`] (native builds; the page's copy is the translation pack).
    #[cfg(not(target_arch = "wasm32"))]
    fn table(self, lang: Lang) -> &'static str {
        use Line::*;
        let [en, zh]: [&'static str; 2] = match self {
            NodeStarted => [
                "{id} starts as a candidate and asks to acquire the lease.",
                "{id} 以候选者身份启动，请求获取租约。",
            ],
            MessageDropped => [
                "Message #{msg} ({what}) dropped: its node is cut off or gone.",
                "消息 #{msg}（{what}）被丢弃：它的节点已断开或已崩溃。",
            ],
            LeaseGranted => [
                "Acquire (compare-and-swap) succeeded for {id}: holderIdentity = {identity}, fencing token {token}, leaseTransitions = {transitions}, expires at {expires} s.",
                "{id} 获取（compare-and-swap）成功：holderIdentity = {identity}，fencing token {token}，leaseTransitions = {transitions}，{expires} 秒到期。",
            ],
            LeaseReacquired => [
                "{id} re-acquired its own live lease: same term, token {token}; renewTime moved, expires at {expires} s.",
                "{id} 重新获取了自己仍有效的租约：同一任期，令牌 {token}；renewTime 前移，{expires} 秒到期。",
            ],
            AcquireRefused => [
                "Acquire refused for {id}: holderIdentity = {holder_id} holds the lease until {expires} s.",
                "{id} 获取失败：holderIdentity = {holder_id}，租约有效至 {expires} 秒。",
            ],
            AcquireRefusedLingering => [
                "Acquire refused for {id}: the lease of {holder_id} ended at {expires} s, but its key stays until the lessor's next check (every half second).",
                "{id} 获取失败：{holder_id} 的租约已在 {expires} 秒结束，但它的键要等租约管理器下一次巡查（每半秒一次）才会删除。",
            ],
            LeaseRenewed => [
                "Renewal succeeded for {id} (token {token}): renewTime moved, lease valid until {expires} s.",
                "{id} 续约成功（令牌 {token}）：renewTime 前移，租约有效至 {expires} 秒。",
            ],
            RenewRefused => [
                "Renewal refused for {id} with token {token}: holderIdentity is now {holder_id}.",
                "{id} 以令牌 {token} 续约被拒：holderIdentity 现在是 {holder_id}。",
            ],
            LeaseExpired => [
                "Lease expired on the coordinator's clock: renewTime + leaseDurationSeconds passed (holder {id}, token {token}).",
                "租约按协调者的时钟过期：renewTime + leaseDurationSeconds 已过（持有者 {id}，令牌 {token}）。",
            ],
            LeaseRevoked => [
                "Lease revoked: holderIdentity {id} cleared; the next grant gets a token above {token}.",
                "租约被撤销：清空 holderIdentity {id}；下一次授予的令牌将大于 {token}。",
            ],
            LeaseRevokedEmpty => [
                "Lease revoked while no one held it: nothing changed.",
                "无人持有时撤销租约：没有任何变化。",
            ],
            BecameLeader => [
                "{id} now believes it is the leader, with fencing token {token}, and starts its work.",
                "{id} 认为自己是 leader，持有 fencing token {token}，开始干活。",
            ],
            SteppedDownDeadline => [
                "{id} stepped down: no successful renewal within the renew deadline ({deadline} s) on its own clock.",
                "{id} 主动退位：按自己的时钟，在续约截止期（{deadline} 秒）内没有成功续约。",
            ],
            SteppedDownRefused => [
                "{id} stepped down: its renewal with token {token} was refused.",
                "{id} 退位：它用令牌 {token} 的续约被拒绝。",
            ],
            WritePrepared => [
                "{id} checked its belief and prepared write {op} with token {token}, then paused before sending it.",
                "{id} 检查过自己的身份，准备好了带令牌 {token} 的写入 {op}，却在发送前暂停了。",
            ],
            WriteAccepted => [
                "Write {op} with token {token} accepted; high-water mark {before} → {hwm}.",
                "写入 {op}（令牌 {token}）被接受；高水位 {before} → {hwm}。",
            ],
            WriteObeyedUnchecked => [
                "Write {op} with token {token} accepted unchecked (fencing off); high-water mark {before} → {hwm}.",
                "写入 {op}（令牌 {token}）未经检查即被接受（围栏已关闭）；高水位 {before} → {hwm}。",
            ],
            WriteObeyedOlder => [
                "Write {op} with the older token {token} accepted unchecked (fencing off) after the resource had accepted {before}.",
                "写入 {op} 带着更旧的令牌 {token}，在资源已接受过 {before} 之后仍未经检查被接受（围栏已关闭）。",
            ],
            WriteRejectedStale => [
                "Write {op} rejected_stale: token {token} is below the high-water mark {hwm}.",
                "写入 {op} 被拒（rejected_stale）：令牌 {token} 低于高水位 {hwm}。",
            ],
            WriteRejectedEqual => [
                "Write {op} rejected_stale: token {token} equals the high-water mark and equal_token = reject.",
                "写入 {op} 被拒（rejected_stale）：令牌 {token} 等于高水位，且 equal_token = reject。",
            ],
            WriteRejectedNotEqual => [
                "Write {op} rejected: token {token} differs from the recorded {hwm}. An equality check is not an ordered fence: the newer holder is locked out too.",
                "写入 {op} 被拒：令牌 {token} 与记录的 {hwm} 不相等。相等比较不是有序围栏：更新的持有者也被挡在外面。",
            ],
            WriteRejectedIssuerBehind => [
                "Write {op} rejected_stale: token {token} is the newest the coordinator granted, yet below the high-water mark {hwm}. The issuer went back, so the current holder is locked out: safe, but a liveness failure.",
                "写入 {op} 被拒（rejected_stale）：令牌 {token} 是协调者最新授予的，却低于高水位 {hwm}。发号器倒退了，当前持有者被挡在外面：安全，却是活性故障。",
            ],
            WriteRejectedForeignMark => [
                "Write {op} rejected_stale: token {token} would pass this lock's own mark, but {hwm} was set by a token of lock {lock} compared as a bare number (token_scope = global). The rightful holder is locked out; keep the mark per lock.",
                "写入 {op} 被拒（rejected_stale）：按本锁自己的高水位，令牌 {token} 本可通过，但 {hwm} 是锁 {lock} 的令牌当作纯数字比较后留下的（token_scope = global）。合法持有者被挡在外面；应按锁分别记录高水位。",
            ],
            WriteRejectedInvalid => [
                "Write {op} rejected_invalid: token {token} is missing or malformed; nothing changed.",
                "写入 {op} 被拒（rejected_invalid）：令牌 {token} 缺失或格式错误；什么都没改变。",
            ],
            WriteDuplicate => [
                "Write {op} is a duplicate of an applied operation: nothing applied (equal_token = dedupe).",
                "写入 {op} 与已执行的操作重复：不再执行（equal_token = dedupe）。",
            ],
            ViolationStaleSeenNewer => [
                "Safety violation: stale write {op} accepted (token {token} < newest granted {newest}) after the resource had already seen a newer token.",
                "安全违规：旧写入 {op} 被接受（令牌 {token} < 最新授予 {newest}），而资源此前已见过更新的令牌。",
            ],
            ViolationStaleBeforeSeen => [
                "Stale write {op} accepted before the resource saw token {newest}: a fence only stops what arrives after the newer term.",
                "旧写入 {op} 在资源见到令牌 {newest} 之前被接受：围栏只能挡住新任期之后到达的请求。",
            ],
            ViolationStaleForgotten => [
                "Stale write {op} accepted (token {token} < newest granted {newest}): the resource had accepted a newer token before, but its high-water mark was lost (a restart without a durable mark, or a restore).",
                "旧写入 {op} 被接受（令牌 {token} < 最新授予 {newest}）：资源之前接受过更新的令牌，但高水位丢失了（重启时没有持久化，或从备份恢复）。",
            ],
            ViolationInvalidAccepted => [
                "Unchecked write {op} with token {token} accepted (fencing off).",
                "未经检查的写入 {op}（令牌 {token}）被接受（围栏已关闭）。",
            ],
            ViolationTokenRegression => [
                "Token regression: write {op} accepted with token {token} below {highest}, the largest token this resource ever accepted.",
                "令牌倒退：写入 {op} 以令牌 {token} 被接受，低于该资源曾接受过的最大令牌 {highest}。",
            ],
            ViolationDuplicate => [
                "Duplicate side effect: operation {op} took effect a second time (fencing is not idempotency).",
                "重复副作用：操作 {op} 第二次生效（围栏不等于幂等）。",
            ],
            IssuerRolledBack => [
                "Issuer rolled back: the token counter was restored from a backup; the next grant gets {next} instead of {before}.",
                "发号器回退：令牌计数器从备份恢复；下一次授予得到 {next}，而不是 {before}。",
            ],
            ResourceRestored => [
                "Resource restored from a backup: high-water mark {before} → {hwm}.",
                "资源从备份恢复：高水位 {before} → {hwm}。",
            ],
            ResourceRestartedKept => [
                "Resource restarted; its durable high-water mark {hwm} survived.",
                "资源重启；持久化的高水位 {hwm} 得以保留。",
            ],
            ResourceRestartedLost => [
                "Resource restarted; its high-water mark {before} was kept in memory only and is now {hwm}.",
                "资源重启；高水位 {before} 只保存在内存中，现在变成 {hwm}。",
            ],
            Paused => [
                "{id} paused (stop-the-world GC, SIGSTOP): no timers fire, messages wait.",
                "{id} 暂停（全停顿 GC、SIGSTOP）：计时器不触发，消息排队等待。",
            ],
            Resumed => [
                "{id} resumed: it first does what it prepared before the pause.",
                "{id} 恢复运行：先执行暂停前准备好的动作。",
            ],
            Crashed => [
                "{id} crashed: its volatile state is lost.",
                "{id} 崩溃：易失状态全部丢失。",
            ],
            Restarted => [
                "{id} restarted as a fresh candidate.",
                "{id} 重启，成为全新的候选者。",
            ],
            Partitioned => [
                "{id} partitioned: it sends and receives nothing.",
                "{id} 网络分区：收不到也发不出任何消息。",
            ],
            Healed => [
                "{id} healed: messages flow again.",
                "{id} 分区恢复：消息重新流通。",
            ],
            FencingOn => [
                "Fencing on: the resource rejects tokens below its high-water mark.",
                "围栏开启：资源拒绝低于高水位的令牌。",
            ],
            FencingOff => [
                "Fencing off: the resource accepts every write.",
                "围栏关闭：资源接受所有写入。",
            ],
            WriteDelayArmed => [
                "The next write from {id} is delayed by {delay} s.",
                "{id} 的下一次写入将延迟 {delay} 秒。",
            ],
            CommandIgnored => [
                "Command ignored ({why}): {command}",
                "命令被忽略（{why}）：{command}",
            ],
            RunEnded => [
                "The run ended at {t} s of virtual time.",
                "运行在虚拟时间 {t} 秒结束。",
            ],
            Outsider => [
                "outside",
                "外部",
            ],
            Nobody => [
                "none",
                "无",
            ],
            NoToken => [
                "absent",
                "缺失",
            ],
            SteppedDownFinished => [
                "{id} finished its work (lock.hold_ms) and releases the lock it took with token {token}.",
                "{id} 完成了工作（lock.hold_ms），释放它以令牌 {token} 取得的锁。",
            ],
            SteppedDownSessionExpired => [
                "The grant of token {token} reached {id} after its own lease had run out (etcd's ErrSessionExpired); it never starts working.",
                "令牌 {token} 的授予到达 {id} 时，它自己的租约已经过期（etcd 的 ErrSessionExpired）；它不会开始工作。",
            ],
            WorkContinues => [
                "{id} stopped leading, but its work goes on writing with token {token}: losing the lease is not stopping the work.",
                "{id} 已不再是领导者，但它的工作仍在用令牌 {token} 写入：失去租约不等于停止工作。",
            ],
            LockReleased => [
                "{id} released the lock (compare-and-delete on its own token {token}): the lock is free at once.",
                "{id} 释放了锁（按自己的令牌 {token} 做比较并删除）：锁立即空闲。",
            ],
            LockReleaseNotOwner => [
                "{id}'s release for token {token} changed nothing: the key belongs to {holder_id}. The owner check held.",
                "{id} 对令牌 {token} 的释放没有任何效果：这个键属于 {holder_id}。所有者检查生效。",
            ],
            LockReleaseDeletedOthers => [
                "{id} sent a plain DEL and deleted {holder_id}'s lock (token {holder_token}): a lock deleted by a non-owner.",
                "{id} 发出了不带检查的 DEL，删掉了 {holder_id} 的锁（令牌 {holder_token}）：锁被非持有者删除。",
            ],
            LockReleaseAlreadyFree => [
                "{id}'s release for token {token} found no live key.",
                "{id} 对令牌 {token} 的释放没有找到仍然有效的键。",
            ],
            EpochBarrierRaised => [
                "Epoch barrier: granting token {token} raised the resource's high-water mark from {before} to {hwm} in the same transaction.",
                "纪元屏障：授予令牌 {token} 的同一事务把资源的高水位从 {before} 提高到 {hwm}。",
            ],
            RecordObserved => [
                "{id} observed record version {version} (holder {holder_id}); it will judge it expired {duration} s from now on its own clock (observedTime + leaseDuration).",
                "{id} 观察到记录版本 {version}（持有者 {holder_id}）；按自己的时钟，它将在 {duration} 秒后判定过期（observedTime + leaseDuration）。",
            ],
            ClockJumped => [
                "Clock of {target_id} stepped by {by} s; it now reads {reads} s.",
                "{target_id} 的时钟被拨动 {by} 秒；现在读数为 {reads} 秒。",
            ],
            ClockRateSet => [
                "Clock of {target_id} runs at {rate}× true time from now on.",
                "{target_id} 的时钟从现在起以真实时间的 {rate} 倍运行。",
            ],
            WriteRejectedForeign => [
                "Write {op} from {id} rejected: token {token} was issued by lock {lock}, not by the lock that guards this resource.",
                "来自 {id} 的写入 {op} 被拒绝：令牌 {token} 由锁 {lock} 签发，而不是守护此资源的锁。",
            ],
            ViolationLockDeleted => [
                "Violation (lock_deleted_by_non_owner): {id}'s release deleted {holder_id}'s lock (token {holder_token}).",
                "违规（lock_deleted_by_non_owner）：{id} 的释放删除了 {holder_id} 的锁（令牌 {holder_token}）。",
            ],
            ViolationForeignToken => [
                "Violation (foreign_token_accepted): write {op} with token {token} of lock {lock} was accepted.",
                "违规（foreign_token_accepted）：带有锁 {lock} 令牌 {token} 的写入 {op} 被接受。",
            ],
            Store => [
                "store",
                "存储",
            ],
            PartitionedFromCoordinator => [
                "{id} is cut off from the coordinator only: its acquire, renew and release requests time out; its writes still reach the resource.",
                "{id} 只与协调者断开：它的获取、续约和释放请求都会超时；它的写入仍能到达资源。",
            ],
            TraceLimitReached => [
                "The run stopped early after {entries} trace entries (the engine's limit).",
                "运行在 {entries} 条轨迹记录后提前停止（引擎的上限）。",
            ],
            PartitionedFromResource => [
                "{id} is cut off from the resource only: its writes are lost; it still reaches the coordinator.",
                "{id} 只与资源断开：它的写入都会丢失；它仍能联系协调者。",
            ],
            ScriptDropped => [
                "Script dropped for {id}: its scripted events still ahead (at {times} s) will not happen.",
                "已撤下 {id} 的剧本：它尚未发生的剧本事件（{times} 秒）不会再发生。",
            ],
            ScriptDroppedNothing => [
                "Script dropped for {id}: no scripted event was still ahead for it; nothing changed.",
                "已撤下 {id} 的剧本：它已没有尚未发生的剧本事件；没有任何变化。",
            ],
            LeaseGrantedNoToken => [
                "Lease updated for {id} (compare-and-swap on resourceVersion): holderIdentity = {identity}, leaseTransitions = {transitions}. LeaseLab calls this term {token}; a Kubernetes Lease carries no fencing token, and leaseTransitions is not one.",
                "{id} 更新了 Lease（按 resourceVersion 做 compare-and-swap）：holderIdentity = {identity}，leaseTransitions = {transitions}。LeaseLab 把这一任期记作 {token}；Kubernetes 的 Lease 不带围栏令牌，leaseTransitions 也不是令牌。",
            ],
            MessageDuplicated => [
                "Message #{msg} ({what}) is a copy of #{of}: the network delivers it twice.",
                "消息 #{msg}（{what}）是 #{of} 的副本：网络把它送达两次。",
            ],
            MessageHeldBack => [
                "Message #{msg} ({what}) held back {delay} s by the network: later ones may overtake it.",
                "消息 #{msg}（{what}）被网络推迟 {delay} 秒：之后发出的可能先到。",
            ],
            NextMessageLost => [
                "The network will lose the next {what} to or from {id}.",
                "网络将丢掉 {id} 收发的下一条 {what}。",
            ],
            NextMessageHeld => [
                "The network will hold back the next {what} to or from {id} by {delay} s.",
                "网络将把 {id} 收发的下一条 {what} 推迟 {delay} 秒。",
            ],
            NextMessageCopied => [
                "The network will deliver the next {what} to or from {id} twice.",
                "网络将把 {id} 收发的下一条 {what} 送达两次。",
            ],
            ReplyIgnored => [
                "{id} ignores reply #{msg} ({what}): its call already returned.",
                "{id} 忽略回复 #{msg}（{what}）：这次调用早已返回。",
            ],
            PartitionedFromReplies => [
                "{id} is cut one way: its requests reach the coordinator and take effect; the replies are lost.",
                "{id} 单向断开：请求到达协调者并生效；回复全部丢失。",
            ],
            PartitionedFromRequests => [
                "{id} is cut one way: its requests to the coordinator are lost.",
                "{id} 单向断开：发往协调者的请求全部丢失。",
            ],
            AcquireDelayed => [
                "Acquire refused for {id}: lock-delay after the last holder's session ended; no grant before {until} s.",
                "{id} 获取被拒：上一持有者的会话结束后的 lock-delay 期内，{until} 秒前不授予。",
            ],
            StoreFailedOverExtended => [
                "Store fail-over: the new leader's lessor promoted every lease (a full TTL plus the election timeout); the lease of {id} now expires at {expires} s.",
                "存储故障切换：新 leader 的 lessor 提升（Promote）了所有租约（完整 TTL 加选举超时）；{id} 的租约现在 {expires} 秒到期。",
            ],
            StoreFailedOverLost => [
                "Store fail-over: the promoted asynchronous replica lacks the last {lag} of writes; the lock key of {id} (token {token}) is gone; the token counter's next value is {next}.",
                "存储故障切换：被提升的异步副本缺少最后 {lag} 的写入；{id} 的锁键（令牌 {token}）丢失；令牌计数器的下一个值为 {next}。",
            ],
            StoreFailedOverKept => [
                "Store fail-over: the new primary has every write the lock depends on.",
                "存储故障切换：新的主节点拥有锁所依赖的全部写入。",
            ],
            WorkStopped => [
                "{id}'s work stopped {drain} s after it stepped down (work.stops_after_ms): a bounded shutdown, but its writes in between carried token {token}.",
                "{id} 的工作在它卸任 {drain} 秒后才停止（work.stops_after_ms）：关闭有期限，但其间的写入都带着令牌 {token}。",
            ],
            WriteRetried => [
                "{id}'s client retried write {op} with the same op id and token {token} (work.retry_after_ms): the resource sees it twice.",
                "{id} 的客户端以同一操作 ID 和令牌 {token} 重试了写入 {op}（work.retry_after_ms）：资源会收到两次。",
            ],
        };
        lang.pick([en, zh])
    }

    /// The story template of this line as `fable` tells it, in `lang` ([`Fable::line`]).
    pub fn story(self, fable: Fable, lang: Lang) -> &'static str {
        fable.line(self, lang)
    }
}

/// How a clock target is named: the store, or a node's display name.
fn clock_target(target: &str, cast: &Cast, lang: Lang) -> String {
    if target == crate::engine::command::STORE {
        Line::Store.story(cast.fable(), lang).to_owned()
    } else {
        cast.name(target, lang)
    }
}

/// A rate in ppm as a multiple of true speed, e.g. `1.5` or `0.25`.
pub(crate) fn rate(ppm: u64) -> String {
    let thousandths = (ppm + 500) / 1000;
    let whole = thousandths / 1000;
    let frac = thousandths % 1000;
    if frac == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{}", format!("{frac:03}").trim_end_matches('0'))
    }
}

struct Out {
    kind: &'static str,
    line: Line,
    tone: Tone,
    minor: bool,
    values: Vec<(&'static str, String)>,
}

/// The kinds of line that tell what the store answered or did (see [`narrate`]).
const STORE_KINDS: [&str; 12] = [
    "lease-granted",
    "lease-reacquired",
    "acquire-refused",
    "lease-renewed",
    "renew-refused",
    "lease-expired",
    "lock-released",
    "lock-release-not-owner",
    "lock-release-deleted-others",
    "lock-release-already-free",
    "acquire-delayed",
    "store-failed-over",
];

/// Narrate one trace entry; `None` for events the scene shows by itself (a message being sent).
/// A technical line about what the store did names the store ([`Cast::store`]).
pub fn narrate(entry: &TraceEntry, cast: &Cast, lang: Lang) -> Option<Narration> {
    let fable = cast.fable();
    let name = |id: &str| cast.name(id, lang);
    let token_label = |token: &WireToken| match token {
        WireToken::Missing => Line::NoToken.technical(lang).to_owned(),
        other => other.label(),
    };
    let out = |kind, line, tone, minor, values: Vec<(&'static str, String)>| Out { kind, line, tone, minor, values };
    // The technical line names a process as the fable's systems print it (`Cast::handle`).
    let node = |id: &str| vec![("name", name(id)), ("id", cast.handle(id))];
    let with = |mut v: Vec<(&'static str, String)>, more: &[(&'static str, String)]| {
        v.extend_from_slice(more);
        v
    };
    let o = match &entry.event {
        TraceEvent::MessageSent { .. } => return None,
        TraceEvent::NodeStarted { node: id } => out("node-started", Line::NodeStarted, Tone::Info, false, node(id)),
        TraceEvent::MessageDuplicated { id, copy_of, kind } => out(
            "message-duplicated",
            Line::MessageDuplicated,
            Tone::Warn,
            true,
            vec![("msg", id.to_string()), ("of", copy_of.to_string()), ("what", kind.code().to_owned())],
        ),
        TraceEvent::MessageHeldBack { id, kind, by_ms } => out(
            "message-held-back",
            Line::MessageHeldBack,
            Tone::Warn,
            true,
            vec![("msg", id.to_string()), ("what", kind.code().to_owned()), ("delay", span(*by_ms))],
        ),
        TraceEvent::ReplyIgnored { id, kind, node: n } => out(
            "reply-ignored",
            Line::ReplyIgnored,
            Tone::Info,
            true,
            with(node(n), &[("msg", id.to_string()), ("what", kind.code().to_owned())]),
        ),
        TraceEvent::MessageDropped { id, kind } => {
            let what = kind.code().to_owned();
            out(
                "message-dropped",
                Line::MessageDropped,
                Tone::Warn,
                true,
                vec![("msg", id.to_string()), ("what", what)],
            )
        }
        TraceEvent::LeaseGranted { node: id, token, lease_transitions, expires_ms } => out(
            "lease-granted",
            if cast.store().rules().issues_tokens() { Line::LeaseGranted } else { Line::LeaseGrantedNoToken },
            Tone::Good,
            false,
            with(
                node(id),
                &[
                    ("identity", cast.handle(&cast.identity(id))),
                    ("token", token.to_string()),
                    ("transitions", lease_transitions.to_string()),
                    ("expires", seconds(*expires_ms)),
                ],
            ),
        ),
        TraceEvent::LeaseReacquired { node: id, token, expires_ms } => out(
            "lease-reacquired",
            Line::LeaseReacquired,
            Tone::Info,
            true,
            with(node(id), &[("token", token.to_string()), ("expires", seconds(*expires_ms))]),
        ),
        TraceEvent::AcquireRefused { node: id, holder, expires_ms } => out(
            "acquire-refused",
            // A refusal after the lease's end where the store deletes expired keys late (etcd's
            // lessor): the key is still there. (Under observer expiry the store judges nothing.)
            if *expires_ms < entry.at_ms && cast.store().rules().expiry_check_every_ms.is_some() {
                Line::AcquireRefusedLingering
            } else {
                Line::AcquireRefused
            },
            Tone::Info,
            true,
            with(
                node(id),
                &[("holder", name(holder)), ("holder_id", cast.handle(holder)), ("expires", seconds(*expires_ms))],
            ),
        ),
        TraceEvent::LeaseRenewed { node: id, token, expires_ms } => out(
            "lease-renewed",
            Line::LeaseRenewed,
            Tone::Info,
            true,
            with(node(id), &[("token", token.to_string()), ("expires", seconds(*expires_ms))]),
        ),
        TraceEvent::RenewRefused { node: id, token, holder } => {
            let holder_id =
                holder.as_deref().map_or_else(|| Line::Nobody.technical(lang).to_owned(), |h| cast.handle(h));
            out(
                "renew-refused",
                Line::RenewRefused,
                Tone::Warn,
                false,
                with(node(id), &[("token", token.to_string()), ("holder_id", holder_id)]),
            )
        }
        TraceEvent::LeaseExpired { holder, token } => out(
            "lease-expired",
            Line::LeaseExpired,
            Tone::Warn,
            false,
            with(node(holder), &[("token", token.to_string())]),
        ),
        TraceEvent::LeaseRevoked { holder: Some(h), token } => {
            out("lease-revoked", Line::LeaseRevoked, Tone::Warn, false, with(node(h), &[("token", token.to_string())]))
        }
        TraceEvent::LeaseRevoked { holder: None, .. } => {
            out("lease-revoked", Line::LeaseRevokedEmpty, Tone::Info, false, vec![])
        }
        TraceEvent::BecameLeader { node: id, token } => {
            out("became-leader", Line::BecameLeader, Tone::Good, false, with(node(id), &[("token", token.to_string())]))
        }
        TraceEvent::SteppedDown { node: id, token, reason } => {
            let line = match reason {
                StepDownReason::RenewDeadline => Line::SteppedDownDeadline,
                StepDownReason::RenewRefused => Line::SteppedDownRefused,
                StepDownReason::Finished => Line::SteppedDownFinished,
                StepDownReason::SessionExpired => Line::SteppedDownSessionExpired,
            };
            let deadline = span(cast.renew_deadline_ms());
            out(
                "stepped-down",
                line,
                Tone::Warn,
                false,
                with(node(id), &[("token", token.to_string()), ("deadline", deadline)]),
            )
        }
        TraceEvent::WritePrepared { node: id, op_id, token, .. } => out(
            "write-prepared",
            Line::WritePrepared,
            Tone::Warn,
            false,
            with(node(id), &[("token", token.to_string()), ("op", cast.op_handle(op_id))]),
        ),
        TraceEvent::WriteJudged {
            op_id,
            from,
            token,
            outcome,
            high_water_before,
            high_water_after,
            fencing,
            lock,
            blocked,
            ..
        } => {
            let sender = match from {
                Some(id) => node(id),
                None => vec![
                    ("name", Line::Outsider.story(fable, lang).to_owned()),
                    ("id", Line::Outsider.technical(lang).to_owned()),
                ],
            };
            let values = with(
                sender,
                &[
                    ("token", token_label(token)),
                    ("op", cast.op_handle(op_id)),
                    ("before", high_water_before.to_string()),
                    ("hwm", high_water_after.to_string()),
                ],
            );
            match outcome {
                WriteOutcome::Accepted => {
                    // A write in the same term, seen many times, is routine; a new mark is news.
                    let minor = high_water_after == high_water_before && from.is_some();
                    let older = token.valid().is_some_and(|t| t < *high_water_before);
                    match (*fencing, older) {
                        (true, _) => out("write-accepted", Line::WriteAccepted, Tone::Info, minor, values),
                        (false, false) => out("write-accepted", Line::WriteObeyedUnchecked, Tone::Info, minor, values),
                        (false, true) => out("write-accepted", Line::WriteObeyedOlder, Tone::Bad, false, values),
                    }
                }
                WriteOutcome::RejectedStale => {
                    // A refusal that shuts out the rightful term is harm, not safety at work.
                    let (line, tone) = match (blocked, token.valid()) {
                        (Some(Blocked::IssuerBehind), _) => (Line::WriteRejectedIssuerBehind, Tone::Bad),
                        (Some(Blocked::ForeignMark { .. }), _) => (Line::WriteRejectedForeignMark, Tone::Bad),
                        (None, Some(t)) if t == *high_water_before => (Line::WriteRejectedEqual, Tone::Good),
                        // Above the mark yet refused: only an equality check does that, and it
                        // locks the newer holder out.
                        (None, Some(t)) if t > *high_water_before => (Line::WriteRejectedNotEqual, Tone::Bad),
                        _ => (Line::WriteRejectedStale, Tone::Good),
                    };
                    let values = match blocked {
                        Some(Blocked::ForeignMark { lock }) => with(values, &[("lock", lock.clone())]),
                        _ => values,
                    };
                    out("write-rejected-stale", line, tone, false, values)
                }
                WriteOutcome::RejectedInvalid => {
                    out("write-rejected-invalid", Line::WriteRejectedInvalid, Tone::Good, false, values)
                }
                WriteOutcome::Duplicate => out("write-duplicate", Line::WriteDuplicate, Tone::Info, false, values),
                WriteOutcome::RejectedForeignLock => out(
                    "write-rejected-foreign",
                    Line::WriteRejectedForeign,
                    Tone::Good,
                    false,
                    with(values, &[("lock", lock.clone().unwrap_or_default())]),
                ),
            }
        }
        TraceEvent::ViolationFound { violation, .. } => match violation {
            Violation::StaleWriteAccepted {
                op_id,
                from,
                token,
                newest_granted,
                resource_had_seen_newer,
                resource_forgot_newer,
            } => {
                let who = from.as_deref().map(name).unwrap_or_else(|| Line::Outsider.story(fable, lang).to_owned());
                let line = match (resource_had_seen_newer, resource_forgot_newer) {
                    (true, _) => Line::ViolationStaleSeenNewer,
                    (false, true) => Line::ViolationStaleForgotten,
                    (false, false) => Line::ViolationStaleBeforeSeen,
                };
                out(
                    "violation",
                    line,
                    Tone::Bad,
                    false,
                    vec![
                        ("name", who),
                        ("token", token.to_string()),
                        ("newest", newest_granted.to_string()),
                        ("op", cast.op_handle(op_id)),
                    ],
                )
            }
            Violation::TokenRegression { op_id, token, highest_before, .. } => out(
                "violation",
                Line::ViolationTokenRegression,
                Tone::Bad,
                false,
                vec![
                    ("token", token.to_string()),
                    ("highest", highest_before.to_string()),
                    ("op", cast.op_handle(op_id)),
                ],
            ),
            Violation::DuplicateSideEffect { op_id, .. } => {
                out("violation", Line::ViolationDuplicate, Tone::Bad, false, vec![("op", cast.op_handle(op_id))])
            }
            Violation::InvalidTokenAccepted { op_id, token, .. } => out(
                "violation",
                Line::ViolationInvalidAccepted,
                Tone::Bad,
                false,
                vec![("token", token_label(token)), ("op", cast.op_handle(op_id))],
            ),
            Violation::LockDeletedByNonOwner { node: id, holder, holder_token } => out(
                "violation",
                Line::ViolationLockDeleted,
                Tone::Bad,
                false,
                with(
                    node(id),
                    &[
                        ("holder", name(holder)),
                        ("holder_id", cast.handle(holder)),
                        ("holder_token", holder_token.to_string()),
                    ],
                ),
            ),
            Violation::ForeignTokenAccepted { op_id, token, lock, .. } => out(
                "violation",
                Line::ViolationForeignToken,
                Tone::Bad,
                false,
                vec![("token", token.to_string()), ("lock", lock.clone()), ("op", cast.op_handle(op_id))],
            ),
        },
        TraceEvent::WorkContinues { node: id, token } => out(
            "work-continues",
            Line::WorkContinues,
            Tone::Bad,
            false,
            with(node(id), &[("token", token.to_string())]),
        ),
        TraceEvent::WorkStopped { node: id, token, after_ms } => out(
            "work-stopped",
            Line::WorkStopped,
            Tone::Info,
            false,
            with(node(id), &[("token", token.to_string()), ("drain", span(*after_ms))]),
        ),
        TraceEvent::WriteRetried { node: id, op_id, token, .. } => out(
            "write-retried",
            Line::WriteRetried,
            Tone::Info,
            false,
            with(node(id), &[("token", token.to_string()), ("op", cast.op_handle(op_id))]),
        ),
        TraceEvent::LockReleased { node: id, token, outcome } => {
            let values = with(node(id), &[("token", token.to_string())]);
            match outcome {
                ReleaseOutcome::Released => out("lock-released", Line::LockReleased, Tone::Good, false, values),
                ReleaseOutcome::NotOwner { holder } => {
                    let holder_id =
                        holder.as_deref().map_or_else(|| Line::Nobody.technical(lang).to_owned(), |h| cast.handle(h));
                    out(
                        "lock-release-not-owner",
                        Line::LockReleaseNotOwner,
                        Tone::Good,
                        false,
                        with(values, &[("holder_id", holder_id)]),
                    )
                }
                ReleaseOutcome::DeletedOthers { holder, token: holder_token } => out(
                    "lock-release-deleted-others",
                    Line::LockReleaseDeletedOthers,
                    Tone::Bad,
                    false,
                    with(
                        values,
                        &[
                            ("holder", name(holder)),
                            ("holder_id", cast.handle(holder)),
                            ("holder_token", holder_token.to_string()),
                        ],
                    ),
                ),
                ReleaseOutcome::AlreadyFree => {
                    out("lock-release-already-free", Line::LockReleaseAlreadyFree, Tone::Info, true, values)
                }
            }
        }
        TraceEvent::EpochBarrierRaised { token, high_water_before, high_water_after, .. } => out(
            "epoch-barrier",
            Line::EpochBarrierRaised,
            Tone::Good,
            false,
            vec![
                ("token", token.to_string()),
                ("before", high_water_before.to_string()),
                ("hwm", high_water_after.to_string()),
            ],
        ),
        TraceEvent::RecordObserved { node: id, holder, version, lease_duration_ms } => {
            let holder_id =
                holder.as_deref().map_or_else(|| Line::Nobody.technical(lang).to_owned(), |h| cast.handle(h));
            out(
                "record-observed",
                Line::RecordObserved,
                Tone::Info,
                true,
                with(
                    node(id),
                    &[
                        ("holder_id", holder_id),
                        ("version", version.to_string()),
                        ("duration", span(*lease_duration_ms)),
                    ],
                ),
            )
        }
        TraceEvent::ClockJumped { target, by_ms, reads_ms } => {
            let target_id = cast.handle(target);
            let target = clock_target(target, cast, lang);
            let sign = if *by_ms < 0 { "-" } else { "+" };
            let by = format!("{sign}{}", span(by_ms.unsigned_abs()));
            let reads = if *reads_ms < 0 {
                format!("-{}", seconds(reads_ms.unsigned_abs()))
            } else {
                seconds(reads_ms.unsigned_abs())
            };
            out(
                "clock-jumped",
                Line::ClockJumped,
                Tone::Warn,
                false,
                vec![("target", target), ("target_id", target_id), ("by", by), ("reads", reads)],
            )
        }
        TraceEvent::ClockRateSet { target, rate_ppm } => {
            let target_id = cast.handle(target);
            let target = clock_target(target, cast, lang);
            let values = vec![("target", target), ("target_id", target_id), ("rate", rate(*rate_ppm))];
            out("clock-rate", Line::ClockRateSet, Tone::Warn, false, values)
        }
        TraceEvent::AcquireDelayed { node: id, until_ms } => out(
            "acquire-delayed",
            Line::AcquireDelayed,
            Tone::Good,
            false,
            with(node(id), &[("until", seconds(*until_ms))]),
        ),
        TraceEvent::StoreFailedOver { holder, expires_ms, lost_holder, lost_token, lag_ms, next_token, .. } => {
            match (lost_holder, lost_token, holder, expires_ms) {
                (Some(h), Some(t), _, _) => out(
                    "store-failed-over",
                    Line::StoreFailedOverLost,
                    Tone::Bad,
                    false,
                    with(
                        node(h),
                        &[("token", t.to_string()), ("lag", span(*lag_ms)), ("next", next_token.to_string())],
                    ),
                ),
                (_, _, Some(h), Some(e))
                    if cast.store().failover() != crate::engine::profile::FailoverRule::AsyncReplica =>
                {
                    out(
                        "store-failed-over",
                        Line::StoreFailedOverExtended,
                        Tone::Warn,
                        false,
                        with(node(h), &[("expires", seconds(*e))]),
                    )
                }
                _ => out("store-failed-over", Line::StoreFailedOverKept, Tone::Info, false, vec![]),
            }
        }
        TraceEvent::IssuerRolledBack { next_token_before, next_token } => out(
            "issuer-rolled-back",
            Line::IssuerRolledBack,
            Tone::Bad,
            false,
            vec![("before", next_token_before.to_string()), ("next", next_token.to_string())],
        ),
        TraceEvent::ResourceRestored { high_water_before, high_water_after, .. } => out(
            "resource-restored",
            Line::ResourceRestored,
            if high_water_after < high_water_before { Tone::Bad } else { Tone::Info },
            false,
            vec![("before", high_water_before.to_string()), ("hwm", high_water_after.to_string())],
        ),
        TraceEvent::ResourceRestarted { high_water_before, high_water_after, .. } => {
            let lost = high_water_after < high_water_before;
            out(
                "resource-restarted",
                if lost { Line::ResourceRestartedLost } else { Line::ResourceRestartedKept },
                if lost { Tone::Bad } else { Tone::Info },
                false,
                vec![("before", high_water_before.to_string()), ("hwm", high_water_after.to_string())],
            )
        }
        TraceEvent::Paused { node: id } => out("paused", Line::Paused, Tone::Warn, false, node(id)),
        TraceEvent::Resumed { node: id } => out("resumed", Line::Resumed, Tone::Info, false, node(id)),
        TraceEvent::Crashed { node: id } => out("crashed", Line::Crashed, Tone::Bad, false, node(id)),
        TraceEvent::Restarted { node: id } => out("restarted", Line::Restarted, Tone::Info, false, node(id)),
        TraceEvent::Partitioned { node: id } => out("partitioned", Line::Partitioned, Tone::Warn, false, node(id)),
        TraceEvent::PartitionedFrom { node: id, from } => {
            let line = match from {
                crate::engine::Link::Resource => Line::PartitionedFromResource,
                crate::engine::Link::CoordinatorReplies => Line::PartitionedFromReplies,
                crate::engine::Link::CoordinatorRequests => Line::PartitionedFromRequests,
                _ => Line::PartitionedFromCoordinator,
            };
            out("partitioned", line, Tone::Warn, false, node(id))
        }
        TraceEvent::Healed { node: id } => out("healed", Line::Healed, Tone::Info, false, node(id)),
        TraceEvent::FencingSet { on: true } => out("fencing-on", Line::FencingOn, Tone::Good, false, vec![]),
        TraceEvent::FencingSet { on: false } => out("fencing-off", Line::FencingOff, Tone::Bad, false, vec![]),
        TraceEvent::WriteDelayArmed { node: id, by_ms } => {
            out("write-delayed", Line::WriteDelayArmed, Tone::Info, false, with(node(id), &[("delay", span(*by_ms))]))
        }
        TraceEvent::MessageFaultArmed { node: id, kind, fault } => {
            let (line, delay) = match fault {
                MessageFault::Lose => (Line::NextMessageLost, None),
                MessageFault::Hold { by_ms } => (Line::NextMessageHeld, Some(span(*by_ms))),
                MessageFault::Copy => (Line::NextMessageCopied, None),
            };
            let mut values = node(id);
            values.push(("what", kind.code().to_owned()));
            values.push(("thing", fable.word(crate::story::picture::message_word(*kind), lang).to_owned()));
            values.extend(delay.map(|d| ("delay", d)));
            out("message-fault", line, Tone::Warn, false, values)
        }
        TraceEvent::ScriptDropped { node: id, dropped_ms } => {
            let line = if dropped_ms.is_empty() { Line::ScriptDroppedNothing } else { Line::ScriptDropped };
            // Enumeration punctuation of the language: "20.0, 60.0" or "20.0、60.0".
            let times: Vec<String> = dropped_ms.iter().map(|ms| seconds(*ms)).collect();
            let times = times.join(lang.pick([", ", "、"]));
            out("script-dropped", line, Tone::Info, false, with(node(id), &[("times", times)]))
        }
        TraceEvent::CommandIgnored { command, why } => {
            let why = match why {
                IgnoredBecause::NotRunning => "not_running",
                IgnoredBecause::NotPaused => "not_paused",
                IgnoredBecause::AlreadyCrashed => "already_crashed",
                IgnoredBecause::NotCrashed => "not_crashed",
                IgnoredBecause::AlreadyPartitioned => "already_partitioned",
                IgnoredBecause::NotPartitioned => "not_partitioned",
                IgnoredBecause::UnknownNode => "unknown_node",
                IgnoredBecause::UnknownResource => "unknown_resource",
            };
            out(
                "command-ignored",
                Line::CommandIgnored,
                Tone::Info,
                true,
                vec![("why", why.to_owned()), ("command", command.clone())],
            )
        }
        TraceEvent::TraceLimitReached { entries } => {
            out("trace-limit", Line::TraceLimitReached, Tone::Warn, false, vec![("entries", entries.to_string())])
        }
        TraceEvent::RunEnded => out("run-ended", Line::RunEnded, Tone::Info, false, vec![("t", seconds(entry.at_ms))]),
    };
    let values: Vec<(&str, &str)> = o.values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut technical = fill(o.line.technical(lang), &values);
    if STORE_KINDS.contains(&o.kind) {
        // What the store answered is what that store does: its line names it.
        let store = super::technical::store_name(cast.store());
        technical = fill(Ui::StoreSays.text(lang), &[("store", store), ("line", &technical)]);
    }
    let mut story = fill(o.line.story(fable, lang), &values);
    if let Some(res) = resource_of(&entry.event) {
        // A run with named resources: each judges by its own mark, so the line says which.
        story = fill(Ui::AtResource.text(lang), &[("res", res), ("line", &story)]);
        technical = fill(Ui::ResourceSays.text(lang), &[("res", res), ("line", &technical)]);
    }
    Some(Narration { kind: o.kind, story, technical, tone: o.tone, minor: o.minor, line: o.line })
}

/// The resource an event names (a run with named resources, `resources`), if any.
pub fn resource_of(event: &TraceEvent) -> Option<&str> {
    match event {
        TraceEvent::WriteJudged { resource, .. }
        | TraceEvent::ViolationFound { resource, .. }
        | TraceEvent::WritePrepared { resource, .. }
        | TraceEvent::WriteRetried { resource, .. }
        | TraceEvent::EpochBarrierRaised { resource, .. }
        | TraceEvent::ResourceRestored { resource, .. }
        | TraceEvent::ResourceRestarted { resource, .. } => resource.as_deref(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Sim;
    use crate::scenario::library;

    fn is_cjk(c: char) -> bool {
        ('\u{4e00}'..='\u{9fff}').contains(&c)
    }

    fn holes(s: &str) -> Vec<String> {
        let mut v: Vec<String> = s.split('{').skip(1).filter_map(|p| p.split('}').next()).map(str::to_owned).collect();
        v.sort();
        v.dedup();
        v
    }

    /// Every technical line and every fable's story of it exist in both languages, with the same
    /// placeholders in each.
    #[test]
    fn every_line_exists_in_both_languages_with_the_same_placeholders() {
        for line in Line::ALL {
            let mut told = vec![("technical", [line.technical(Lang::En), line.technical(Lang::Zh)])];
            told.extend(Fable::all().map(|f| (f.code(), [line.story(f, Lang::En), line.story(f, Lang::Zh)])));
            for (who, [e, z]) in told {
                assert!(!e.is_empty() && !z.is_empty(), "{line:?} ({who})");
                assert!(z.chars().any(is_cjk), "{line:?} ({who}) has no Chinese: {z}");
                assert_eq!(holes(e), holes(z), "{line:?} ({who}): placeholders differ");
            }
        }
    }

    /// A story line fills only what its line is given: every placeholder of a fable's story is
    /// one that the first fable's story or the technical line of the same line also uses, so
    /// `narrate` fills it (a placeholder it does not know would be shown as `{it}`).
    #[test]
    fn every_story_uses_only_placeholders_its_line_is_given() {
        for line in Line::ALL {
            let mut given = holes(line.technical(Lang::En));
            given.extend(holes(line.story(Fable::DEFAULT, Lang::En)));
            for fable in Fable::all() {
                for hole in holes(line.story(fable, Lang::En)) {
                    assert!(given.contains(&hole), "{line:?}: {fable:?}'s story uses {{{hole}}}");
                }
            }
        }
    }

    /// The harbor story, as the fable tells it, comes out of the real engine's trace.
    #[test]
    fn harbor_zombie_is_told_as_the_fable_tells_it() {
        let scenario = library::get("harbor-zombie").expect("exists").expect("parses");
        let cast = Cast::new(&scenario);
        let mut sim = Sim::new(scenario.config.clone()).expect("valid");
        sim.run_to_end();
        let lines: Vec<Narration> = sim.trace().iter().filter_map(|e| narrate(e, &cast, Lang::En)).collect();
        let voided = lines.iter().find(|n| n.kind == "write-rejected-stale").expect("Chen's stale flag is voided");
        assert!(
            voided.story.contains("Old Chen")
                && voided.story.contains("carries 7")
                && voided.story.contains("only 8 counts"),
            "{}",
            voided.story
        );
        let zh: Vec<Narration> = sim.trace().iter().filter_map(|e| narrate(e, &cast, Lang::Zh)).collect();
        let voided_zh = zh.iter().find(|n| n.kind == "write-rejected-stale").expect("voided in Chinese too");
        assert!(voided_zh.story.contains("老陈") && voided_zh.story.contains("只认编号 8"), "{}", voided_zh.story);
        assert!(lines.iter().any(|n| n.kind == "lease-granted" && n.story.contains("Lin") && n.story.contains("8")));
        for n in lines.iter().chain(&zh) {
            assert!(!n.story.contains('{') && !n.technical.contains('{'), "unfilled placeholder: {n:?}");
        }
    }

    /// A drop of the script is told in both fables and both languages, naming the node and, in
    /// the technical line, the times of the steps set aside; a drop with nothing left says so.
    #[test]
    fn a_dropped_script_is_told() {
        let scenario = library::get("harbor-zombie").expect("exists").expect("parses");
        let mut sim = Sim::new(scenario.config.clone()).expect("valid");
        sim.advance_to(19_000);
        sim.apply(crate::engine::Command::DropScript { node: "chen".into() }).expect("chen exists");
        sim.apply(crate::engine::Command::DropScript { node: "lin".into() }).expect("lin exists");
        let [chen, lin] = [&sim.trace()[sim.trace().len() - 2], &sim.trace()[sim.trace().len() - 1]];
        for fable in Fable::all() {
            let cast = Cast::for_fable(&scenario, fable);
            for lang in [Lang::En, Lang::Zh] {
                let told = narrate(chen, &cast, lang).expect("told");
                let nothing = narrate(lin, &cast, lang).expect("told");
                assert_eq!((told.kind, nothing.kind), ("script-dropped", "script-dropped"));
                assert!(told.story.contains(&cast.name("chen", lang)), "{}", told.story);
                assert!(nothing.story.contains(&cast.name("lin", lang)), "{}", nothing.story);
                let times = lang.pick(["20.0, 60.0 s", "20.0、60.0 秒"]);
                assert!(
                    told.technical.contains(&cast.handle("chen")) && told.technical.contains(times),
                    "{}",
                    told.technical
                );
                assert_ne!(told.story, nothing.story, "having steps to drop and having none read differently");
                for n in [&told, &nothing] {
                    assert!(!n.story.contains('{') && !n.technical.contains('{'), "unfilled placeholder: {n:?}");
                }
            }
        }
    }

    /// A fable with a cast of its own (the lantern's townsfolk) prints its people's handles in
    /// the log's technical lines: a write's operation id too (`a-xiu-8`, not the file's `chen-8`),
    /// in every built-in.
    #[test]
    fn a_fable_with_its_own_cast_never_prints_the_files_ids() {
        let own_casts: Vec<Fable> = Fable::all().filter(|f| f.def().cast.is_some()).collect();
        assert!(!own_casts.is_empty(), "some fable has a cast of its own");
        for (id, fable) in library::ids().flat_map(|id| own_casts.iter().map(move |f| (id, *f))) {
            let scenario = library::get(id).expect("exists").expect("parses");
            let cast = Cast::for_fable(&scenario, fable);
            let mut sim = Sim::new(scenario.config.clone()).expect("valid");
            sim.run_to_end();
            for n in sim.trace().iter().filter_map(|e| narrate(e, &cast, Lang::En)) {
                for node in &scenario.config.nodes {
                    let handle = cast.handle(&node.id);
                    if handle == node.id {
                        continue;
                    }
                    let harbor = format!("{}-", node.id);
                    // `<id>-<n>` standing alone: a harbor operation id.
                    let stray = n.technical.match_indices(&harbor).any(|(at, _)| {
                        n.technical[..at].chars().next_back().is_none_or(|c| !c.is_ascii_alphanumeric() && c != '-')
                            && n.technical[at + harbor.len()..].starts_with(|c: char| c.is_ascii_digit())
                    });
                    assert!(!stray, "{id}: {} prints {}'s harbor id", n.technical, node.id);
                }
            }
        }
    }

    /// With fencing off nobody checks numbers, and the log must not say that someone did.
    #[test]
    fn without_fencing_the_log_says_nobody_checks() {
        let scenario = library::get("harbor-no-fencing").expect("exists").expect("parses");
        let cast = Cast::new(&scenario);
        let mut sim = Sim::new(scenario.config.clone()).expect("valid");
        sim.run_to_end();
        let lines: Vec<Narration> = sim.trace().iter().filter_map(|e| narrate(e, &cast, Lang::En)).collect();
        let writes: Vec<&Narration> = lines.iter().filter(|n| n.kind == "write-accepted").collect();
        assert!(!writes.is_empty());
        assert!(writes.iter().all(|n| n.story.starts_with("Nobody checks") && !n.story.contains("verifier")));
        let crash = lines.iter().find(|n| n.kind == "violation").expect("the oracle's finding is told");
        assert!(crash.story.contains("rocks") && crash.story.contains('7') && crash.story.contains('8'));
    }

    /// "Below" and "equal" are different refusals, and an older number obeyed unchecked is harm.
    #[test]
    fn refusals_and_unchecked_regressions_say_what_happened() {
        let json = r#"{"format":"leaselab.scenario/1","until_ms":5000,"nodes":[],"resource":{"equal_token":"reject"},
          "events":[{"at_ms":1,"do":"raw_write","token":5,"value":"a"},{"at_ms":2,"do":"raw_write","token":5,"value":"b"},
                    {"at_ms":3,"do":"raw_write","token":4,"value":"c"},{"at_ms":4,"do":"set_fencing","on":false},
                    {"at_ms":5,"do":"raw_write","token":3,"value":"d"}]}"#;
        let scenario = crate::scenario::parse(json).expect("valid");
        let cast = Cast::new(&scenario);
        let mut sim = Sim::new(scenario.config.clone()).expect("valid");
        sim.run_to_end();
        let lines: Vec<Narration> = sim.trace().iter().filter_map(|e| narrate(e, &cast, Lang::En)).collect();
        let writes: Vec<&Narration> = lines.iter().filter(|n| n.kind.starts_with("write-")).collect();
        assert_eq!(writes.len(), 4);
        assert!(writes[1].technical.contains("equals the high-water mark"), "{}", writes[1].technical);
        assert!(writes[2].technical.contains("below the high-water mark 5"), "{}", writes[2].technical);
        assert_eq!(writes[3].tone, Tone::Bad);
        assert!(writes[3].story.contains("already obeyed 5"), "{}", writes[3].story);
    }

    /// A refusal is safety at work only when it stops a stale term. When it shuts out the term
    /// the coordinator handed out last (the issuer went back: etcd-io/etcd#16028), the newer
    /// holder under an equality check (etcd-io/etcd#11788), or this lock's holder under another
    /// lock's number (reference C23), it is told as harm: a liveness failure.
    #[test]
    fn refusals_that_shut_out_the_rightful_term_are_told_as_harm() {
        let told = |id: &str| {
            let scenario = library::get(id).expect("exists").expect("parses");
            let cast = Cast::new(&scenario);
            let mut sim = Sim::new(scenario.config.clone()).expect("valid");
            sim.run_to_end();
            let lines: Vec<Narration> = sim.trace().iter().filter_map(|e| narrate(e, &cast, Lang::En)).collect();
            lines.into_iter().filter(|n| n.kind == "write-rejected-stale").collect::<Vec<_>>()
        };
        // Client B holds the lease with 905 (the restored counter), below the mark 1000.
        let rollback = told("issuer-rollback");
        assert!(!rollback.is_empty());
        assert!(rollback.iter().all(|n| n.tone == Tone::Bad && n.technical.contains("newest the coordinator granted")));
        assert!(rollback[0].story.contains("905") && rollback[0].story.contains("1000"), "{}", rollback[0].story);
        // Client 1's revoked lease is refused as intended; client 3's newer one is not.
        let equality = told("equality-fence");
        let tones: Vec<(Tone, bool)> = equality.iter().map(|n| (n.tone, n.technical.contains("token 3 "))).collect();
        assert_eq!(tones, [(Tone::Good, false), (Tone::Bad, true)]);
        // The orders holder's 50 is refused because the invoices lock's 51 set the mark.
        let foreign = told("foreign-token-global");
        assert_eq!(foreign.len(), 1);
        assert_eq!(foreign[0].tone, Tone::Bad);
        assert!(foreign[0].technical.contains("lock invoices"), "{}", foreign[0].technical);
        // Old Chen's 7 after Lin's 8 is fencing doing its job.
        let zombie = told("harbor-zombie");
        assert!(!zombie.is_empty() && zombie.iter().all(|n| n.tone == Tone::Good));
    }
}
