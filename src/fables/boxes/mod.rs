//! Boxes and arrows: the run drawn as a plain diagram, told in the field's own terms. It is the
//! third telling, and the proof that a fable is only its own module: its words, its story lines
//! and its legend are below and in [`lines`], its drawing (with its own style sheet) is in
//! [`scene`], its packs are `assets/i18n/boxes.*.json`, and its line in [`super::ALL`] is all it
//! asks of the rest of the code.
//!
//! The lease store is a box holding the record (`holderIdentity`, the fencing token, the TTL as a
//! bar that empties on the store's clock, the renewals, the compare-and-swap being decided); each
//! node is a box saying what it believes; the fenced resource is a box with its high-water mark
//! and recent verdicts; messages are cards on the lines between them. Its names are the scenario
//! file's.

#[cfg(not(target_arch = "wasm32"))]
mod lines;
pub(crate) mod scene;

#[cfg(not(target_arch = "wasm32"))]
use super::Word;
use super::{own_words, Definition, Landing};

/// Boxes and arrows.
pub(crate) const FABLE: Definition = Definition {
    code: "boxes",
    landing: Landing { lesson: "fencing-in-depth", story: "harbor-zombie" },
    cast: None,
    legend: LEGEND_KEYS,
    own_words: Says::COUNT,
    #[cfg(not(target_arch = "wasm32"))]
    texts: super::Texts { words, own: Says::TABLE, lines: lines::lines, legend: LEGEND },
};

/// Its word for each concept (see [`Word`]).
#[cfg(not(target_arch = "wasm32"))]
fn words(word: Word) -> [&'static str; 2] {
    use Word::*;
    match word {
        Name => ["Boxes and arrows", "方框与箭头"],
        TitleToldAs => ["{title} (as boxes and arrows)", "{title}（以方框与箭头讲述）"],
        Tagline => [
            "Lease-based leader election and fencing tokens, drawn as plain boxes and arrows",
            "基于租约的选主与围栏令牌——用方框和箭头画出来",
        ],
        SceneLabel => [
            "The diagram: the lease store and its record, a box per node, the fenced resource, arrows for messages",
            "示意图：存储及其租约记录、每个节点一个方框、受围栏保护的资源，以及表示消息的箭头",
        ],
        LandingName => ["Boxes and arrows: the mechanism, without a metaphor", "方框与箭头：只讲机制，不打比方"],
        LandingLesson => ["Start the fencing lesson", "开始围栏令牌课程"],
        LandingPlay => ["Play the zombie-leader run", "播放“僵尸 leader”的运行"],
        RecordFree => ["(no holder)", "（无持有者）"],
        TimerLeft => ["TTL {s} s left", "TTL 还剩 {s} 秒"],
        TimerOut => ["expired", "已过期"],
        TimerUnset => ["no lease yet", "尚无租约"],
        Renewals => ["renewals: {n}", "续约次数：{n}"],
        Gate => ["Resource", "资源"],
        GateOnly => ["high-water mark {n}", "高水位 {n}"],
        GateUnseen => ["no token seen yet", "还没见过令牌"],
        GateAway => ["fencing off", "围栏关闭"],
        GateLetsAll => ["every write accepted", "所有写入都接受"],
        Accepted => ["accepted", "接受"],
        Refused => ["rejected", "拒绝"],
        Duplicate => ["duplicate", "重复"],
        Outsider => ["external client", "外部客户端"],
        OutcomeIdle => ["no write accepted yet", "尚未接受写入"],
        OutcomeLast => ["last write: token {n}", "最近写入：令牌 {n}"],
        Collision => ["Stale write accepted!", "接受了过期写入！"],
        CollisionWhy => ["token {old} accepted after {new}", "接受过令牌 {new} 又接受 {old}"],
        Asleep => ["paused", "已暂停"],
        Crew => ["Nodes", "节点"],
        NoCrew => [
            "No nodes in this scenario: the writes come straight from an external client.",
            "这个场景没有节点：写入直接来自外部客户端。",
        ],
        Crash => ["Crash", "崩溃"],
        Restart => ["Restart", "重启"],
        CutOff => ["Partition", "网络分区"],
        Reconnect => ["Heal", "恢复网络"],
        ActorGone => ["crashed", "已崩溃"],
        ActorNotYet => ["not started yet", "尚未启动"],
        ActorCutOff => ["partitioned", "被网络分区隔开"],
        ActorHolds => ["believes it leads: token {n}", "自认为是 leader：令牌 {n}"],
        ActorStale => ["but the store's token is {n}", "可存储里的令牌已是 {n}"],
        ActorPrepared => ["paused with a write ready: token {n}", "暂停中，备好了令牌 {n} 的写入"],
        ActorOnRecord => ["holder in the lease record", "租约记录里的持有者"],
        MsgAcquire => ["asks the store for the lease (acquire)", "向存储申请租约（acquire）"],
        MsgAcquireReply => ["the store's answer (acquire reply)", "存储的答复（acquire 回复）"],
        MsgRenew => ["renews the lease (renew)", "续约（renew）"],
        MsgRenewReply => ["renewal accepted or refused (renew reply)", "续约成功或被拒（renew 回复）"],
        MsgWrite => ["a write carrying its fencing token (write)", "携带围栏令牌的写入（write）"],
        MsgRelease => ["a request to delete the lock key (lock release)", "删除锁键的请求（释放锁）"],
        FencingOn => ["Resource checks tokens · fencing ON", "资源校验令牌 · 围栏开启"],
        FencingOff => ["No token check · fencing OFF", "不校验令牌 · 围栏关闭"],
        Revoke => ["Revoke the lease now", "立即撤销租约"],
        RevokeHint => ["RevokeLease: the store clears the holder at once", "RevokeLease：存储立即清空持有者"],
        FigureTimer => ["The lease TTL", "租约 TTL"],
        FigureGate => ["The resource's token check", "资源的令牌校验"],
        FigureTimerLeft => ["{name} holds the lease: TTL {s} s left.", "{name}持有租约：TTL 还剩 {s} 秒。"],
        FigureTimerIdle => ["No lease is running: nobody holds it now.", "没有生效的租约：眼下无人持有。"],
        FigureGateOn => ["The resource accepts only token {n} or higher.", "资源只接受令牌 {n} 及以上。"],
        FigureGateOff => ["Nobody checks tokens: every write is accepted.", "不校验令牌：所有写入都被接受。"],
        FigureFencingOff => ["Stop checking tokens (fencing off)", "停止校验令牌（关闭围栏）"],
        FigureFencingOn => ["Check tokens again (fencing on)", "重新校验令牌（开启围栏）"],
        LogTitle => ["Event log", "事件日志"],
        CaptionEmpty => {
            ["Nothing has happened yet. Press Play to start the run.", "还什么都没发生。按“播放”开始运行。"]
        }
        ViolationsHint => [
            "Point at or focus a violation to highlight the boxes and arrows it involves.",
            "指向或聚焦一条违规，与它相关的方框和箭头会高亮。",
        ],
        DiagramStore => ["store", "存储"],
        DiagramResource => ["resource", "资源"],
        RowHolder => ["Holder in the store box", "存储框里的持有者"],
        RowDuration => ["TTL in the store box", "存储框里的 TTL"],
        RowAcquired => ["Acquired at, in the store box", "存储框里的获取时间"],
        RowRenewed => ["Last renewal in the store box", "存储框里的最近续约"],
        RowRemaining => ["TTL left", "TTL 剩余时间"],
        RowToken => ["Token in the store box", "存储框里的令牌"],
        RowMark => ["High-water mark in the resource box", "资源框里的高水位"],
        RowLastAccepted => ["Last write in the resource box", "资源框里最近接受的写入"],
        RowGateOnDuty => ["The resource checks tokens", "资源校验令牌"],
        RowEqualToken => ["A second write with the same token", "同一令牌的第二次写入"],
        RowWritesJudged => ["Writes accepted / rejected", "接受 / 拒绝的写入"],
        RowStoreClock => ["The store box's clock", "存储框的时钟"],
        RowWhoJudges => ["Who decides the lease has expired", "谁来判定租约过期"],
    }
}

own_words! {
    /// The words only its drawing shows.
    pub(crate) enum Says for FABLE {
        Store => ["Lease store", "租约存储"],
        Holder => ["holder: {name}", "持有者：{name}"],
        Token => ["fencing token: {n}", "fencing token（围栏令牌）：{n}"],
        CasWon => ["compare-and-swap: {name} wins", "compare-and-swap：{name}成功"],
        CasRefused => ["compare-and-swap: {name} refused", "compare-and-swap：{name}被拒"],
        Leader => ["leader", "leader（主）"],
        Candidate => ["candidate", "candidate（候选者）"],
        Paused => ["paused", "已暂停"],
    }
}

pub(crate) const LEGEND_KEYS: &[&str] = &["store", "ttl", "node", "token", "arrow", "resource", "mark", "stale"];

/// Its legend's words, in [`LEGEND_KEYS`]' order: what the diagram shows, and what it is.
#[cfg(not(target_arch = "wasm32"))]
const LEGEND: &[[[&str; 2]; 2]] = &[
    [
        ["The lease store box", "租约存储方框"],
        [
            "the coordinator keeping the lease record: holderIdentity and the fencing token",
            "保存租约记录的协调者：holderIdentity 与 fencing token",
        ],
    ],
    [
        ["The bar that empties", "逐渐变短的横条"],
        [
            "the lease's TTL left on the store's clock; a renewal fills it again",
            "按存储时钟计算的剩余 TTL；续约会把它重新填满",
        ],
    ],
    [
        ["A node's box", "节点方框"],
        [
            "a process: leader, candidate, paused, crashed or partitioned",
            "一个进程：leader、候选者、暂停、崩溃或被分区",
        ],
    ],
    [
        ["“believes it leads: token N”", "“自认为是 leader：令牌 N”"],
        ["what a node believes, which may be stale", "节点自己的认知，可能已经过期"],
    ],
    [
        ["A card on a line", "线上的小卡片"],
        [
            "a message in flight: a request, a reply, or a write with its token",
            "传输中的消息：请求、回复，或带令牌的写入",
        ],
    ],
    [["The resource box", "资源方框"], ["the fenced resource that judges every write", "对每次写入做判定的受保护资源"]],
    [
        ["“high-water mark N”", "“高水位 N”"],
        ["the largest token the resource has seen: older ones are refused", "资源见过的最大令牌：更小的被拒绝"],
    ],
    [
        ["“Stale write accepted!”", "“接受了过期写入！”"],
        [
            "split brain: a write with an older token accepted after a newer one",
            "脑裂：在接受更新的令牌之后又接受了更旧令牌的写入",
        ],
    ],
];
