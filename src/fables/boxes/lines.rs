//! Its story line for each line of the log ([`Line`]), `[en, zh]`: what happened, said plainly
//! in the field's terms (the log's technical line beside it gives the protocol's detail).

use crate::story::narrate::Line;

/// Its story template for `line`: placeholders are those the technical line of the same
/// [`Line`] receives.
pub(super) fn lines(line: Line) -> [&'static str; 2] {
    use Line::*;
    match line {
        NodeStarted => [
            "{name} starts and asks the store for the lease.",
            "{name}启动，向存储申请租约。",
        ],
        MessageDropped => [
            "A message is lost on the way.",
            "一条消息在途中丢失。",
        ],
        LeaseGranted => [
            "The store makes {name} the holder with fencing token {token}; the lease runs until {expires} s.",
            "存储把持有者设为{name}，fencing token 为 {token}；租约 {expires} 秒到期。",
        ],
        LeaseReacquired => [
            "{name} acquires again while still the holder: the token stays {token}, the lease now runs until {expires} s.",
            "{name}仍是持有者时再次获取：令牌仍是 {token}，租约延到 {expires} 秒。",
        ],
        AcquireRefused => [
            "{name} asks for the lease, but {holder} holds it until {expires} s.",
            "{name}申请租约，但{holder}持有租约到 {expires} 秒。",
        ],
        AcquireRefusedLingering => [
            "{name} asks for the lease; {holder}'s lease expired at {expires} s, but the store has not deleted the key yet.",
            "{name}申请租约；{holder}的租约在 {expires} 秒已过期，可存储还没删除那个键。",
        ],
        LeaseRenewed => [
            "{name} renews the lease: valid until {expires} s.",
            "{name}续约成功：租约有效至 {expires} 秒。",
        ],
        RenewRefused => [
            "{name} tries to renew with token {token}, but is no longer the holder.",
            "{name}用令牌 {token} 续约，可已经不是持有者了。",
        ],
        LeaseExpired => [
            "{name}'s lease expires: no renewal arrived within the TTL.",
            "{name}的租约过期了：TTL 内没有收到续约。",
        ],
        LeaseRevoked => [
            "The store revokes {name}'s lease at once.",
            "存储立即撤销了{name}的租约。",
        ],
        LeaseRevokedEmpty => [
            "The store revokes the lease, but nobody held it.",
            "存储撤销租约，可当时本就无人持有。",
        ],
        BecameLeader => [
            "{name} becomes leader with fencing token {token}.",
            "{name}成为 leader，fencing token 为 {token}。",
        ],
        SteppedDownDeadline => [
            "{name} has not renewed within {deadline} s and steps down.",
            "{name}在 {deadline} 秒内没能续约，主动退位。",
        ],
        SteppedDownRefused => [
            "{name} learns the lease is lost and stops using token {token}.",
            "{name}得知租约已经丢失，不再使用令牌 {token}。",
        ],
        WritePrepared => [
            "{name} prepares write {op} with token {token}, then pauses before sending it.",
            "{name}备好了带令牌 {token} 的写入 {op}，却在发送前暂停了。",
        ],
        WriteAccepted => [
            "The resource checks token {token} and accepts the write from {name}.",
            "资源核对令牌 {token}，接受了{name}的写入。",
        ],
        WriteObeyedUnchecked => [
            "Nobody checks the token: the resource simply accepts the write from {name} with token {token}.",
            "没有人校验令牌：资源直接接受了{name}带令牌 {token} 的写入。",
        ],
        WriteObeyedOlder => [
            "Nobody checks the token: the resource accepts the write from {name} with the older token {token}, after already accepting {before}.",
            "没有人校验令牌：资源已经接受过令牌 {before}，又接受了{name}带更旧令牌 {token} 的写入。",
        ],
        WriteRejectedStale => [
            "The resource rejects {name}'s write: token {token} is below the high-water mark {hwm}.",
            "资源拒绝了{name}的写入：令牌 {token} 低于高水位 {hwm}。",
        ],
        WriteRejectedEqual => [
            "The resource rejects {name}'s write: token {token} was already used, and each write here needs a new token.",
            "资源拒绝了{name}的写入：令牌 {token} 已经用过，这里每次写入都要用新令牌。",
        ],
        WriteRejectedNotEqual => [
            "The resource rejects the newer token {token} from {name}: it accepts only exactly {hwm}, the first token it recorded.",
            "资源拒绝了{name}更新的令牌 {token}：它只接受恰好等于 {hwm} 的令牌，也就是它记下的第一个。",
        ],
        WriteRejectedIssuerBehind => [
            "The resource rejects token {token} from {name}, though {name} is the current holder: the store's tokens fell back below {hwm}, so no write of this term can pass.",
            "资源拒绝了{name}的令牌 {token}，可当前持有者正是{name}：存储发出的令牌退到了 {hwm} 以下，这一任期的写入一个也过不去。",
        ],
        WriteRejectedForeignMark => [
            "The resource rejects token {token} from {name}: its mark {hwm} came from the tokens of lock {lock}, so the rightful holder here is locked out.",
            "资源拒绝了{name}的令牌 {token}：它记下的高水位 {hwm} 来自锁 {lock} 的令牌，于是这把锁的合法持有者反被挡在外面。",
        ],
        WriteRejectedInvalid => [
            "The resource rejects a write with no valid token ({token}).",
            "资源拒绝了一次没有有效令牌（{token}）的写入。",
        ],
        WriteDuplicate => [
            "The resource has already applied this write from {name}; it does not apply it twice.",
            "资源已经执行过{name}的这次写入，不会再执行第二次。",
        ],
        ViolationStaleSeenNewer => [
            "Split brain: the resource accepts a stale write from {name}, token {token} after a newer one, while {newest} is current!",
            "脑裂：资源见过更新的令牌后，又接受了{name}的过期写入（令牌 {token}），而当前令牌是 {newest}！",
        ],
        ViolationStaleBeforeSeen => [
            "The resource accepts the old token {token} from {name}: it has not yet seen token {newest}.",
            "资源接受了{name}的旧令牌 {token}：它还没见过令牌 {newest}。",
        ],
        ViolationStaleForgotten => [
            "The resource accepts the old token {token} from {name} though {newest} is current: it had seen a newer token, but lost its high-water mark.",
            "当前令牌是 {newest}，资源却接受了{name}的旧令牌 {token}：它见过更新的令牌，但高水位丢了。",
        ],
        ViolationInvalidAccepted => [
            "Fencing off: the resource accepts a write with no valid token ({token}).",
            "围栏已关闭：资源接受了一次没有有效令牌（{token}）的写入。",
        ],
        ViolationTokenRegression => [
            "Tokens went backwards: the resource accepted {token} after {highest}.",
            "令牌倒退了：资源接受过 {highest}，又接受了 {token}。",
        ],
        ViolationDuplicate => [
            "The same write took effect twice ({op}).",
            "同一次写入生效了两次（{op}）。",
        ],
        IssuerRolledBack => [
            "The store's token counter is restored from a backup: the next token will be {next}, not {before}.",
            "存储的令牌计数器从备份恢复：下一个令牌将是 {next}，而不是 {before}。",
        ],
        ResourceRestored => [
            "The resource is restored from a backup: high-water mark {hwm}, not {before}.",
            "资源从备份恢复：高水位是 {hwm}，不再是 {before}。",
        ],
        ResourceRestartedKept => [
            "The resource restarts and still has its high-water mark {hwm}.",
            "资源重启后，高水位仍是 {hwm}。",
        ],
        ResourceRestartedLost => [
            "The resource restarts and has forgotten its high-water mark {before}: it was kept only in memory.",
            "资源重启，忘掉了高水位 {before}：它只保存在内存里。",
        ],
        Paused => [
            "{name} is paused and does nothing until resumed.",
            "{name}被暂停，恢复之前什么也不做。",
        ],
        Resumed => [
            "{name} resumes, unaware that any time has passed.",
            "{name}恢复运行，并不知道时间已经过去。",
        ],
        Crashed => [
            "{name} crashes and loses everything held in memory.",
            "{name}崩溃，内存中的状态全部丢失。",
        ],
        Restarted => [
            "{name} restarts as a new candidate.",
            "{name}重启，成为新的候选者。",
        ],
        Partitioned => [
            "{name} is partitioned: no message gets in or out.",
            "{name}被网络分区隔开：消息进不来，也出不去。",
        ],
        Healed => [
            "The partition around {name} heals.",
            "{name}的网络分区恢复了。",
        ],
        FencingOn => [
            "Fencing is on: the resource checks the token of every write.",
            "围栏开启：资源会校验每次写入的令牌。",
        ],
        FencingOff => [
            "Fencing is off: the resource accepts any write.",
            "围栏关闭：资源接受任何写入。",
        ],
        WriteDelayArmed => [
            "The next write from {name} will arrive {delay} s late.",
            "{name}的下一次写入将晚到 {delay} 秒。",
        ],
        CommandIgnored => [
            "Nothing happens: that command does not apply now.",
            "什么也没发生：这条命令此刻不适用。",
        ],
        RunEnded => [
            "The run ends.",
            "运行结束。",
        ],
        Outsider => [
            "an external client",
            "外部客户端",
        ],
        Nobody => [
            "nobody",
            "无人",
        ],
        NoToken => [
            "no token",
            "没有令牌",
        ],
        SteppedDownFinished => [
            "{name} has finished the work and comes to release the lock.",
            "{name}完成了工作，前来释放锁。",
        ],
        SteppedDownSessionExpired => [
            "The grant reaches {name} too late: by {name}'s own clock the lease has already expired, so {name} never starts work.",
            "授予结果到达{name}时已经太晚：按{name}自己的时钟，租约早已过期，于是{name}根本没有开始工作。",
        ],
        WorkContinues => [
            "{name} is no longer the holder, yet the work of {name} keeps writing with token {token}.",
            "{name}已经不是持有者，{name}的工作却还在用令牌 {token} 写入。",
        ],
        LockReleased => [
            "{name} releases the lock, and the lock is free at once.",
            "{name}释放了锁，锁立即空闲。",
        ],
        LockReleaseNotOwner => [
            "{name} comes to release the lock, finds it held by someone else, and leaves it alone.",
            "{name}来释放锁，发现持有者是别人，便没有动它。",
        ],
        LockReleaseDeletedOthers => [
            "{name} deletes the lock key without checking the owner, and the lock of {holder} is gone.",
            "{name}不检查持有者就删掉了锁键，{holder}的锁没了。",
        ],
        LockReleaseAlreadyFree => [
            "{name} comes to release the lock, but it is already free.",
            "{name}来释放锁，锁却已经空闲。",
        ],
        EpochBarrierRaised => [
            "Before token {token} is used for any write, the resource's high-water mark is already raised to {hwm}.",
            "令牌 {token} 还没用于任何写入，资源的高水位就已提高到 {hwm}。",
        ],
        RecordObserved => [
            "{name} sees the lease record change and starts a local timer of {duration} s.",
            "{name}看到租约记录有变化，便在本地开始计时 {duration} 秒。",
        ],
        ClockJumped => [
            "The clock of {target} jumps by {by} s.",
            "{target}的时钟跳变了 {by} 秒。",
        ],
        ClockRateSet => [
            "The clock of {target} now runs at {rate}× speed.",
            "{target}的时钟现在以 {rate} 倍速度运行。",
        ],
        WriteRejectedForeign => [
            "The resource rejects {name}'s write: token {token} was issued by lock {lock}, not by this resource's lock.",
            "资源拒绝了{name}的写入：令牌 {token} 由锁 {lock} 签发，不是本资源的锁。",
        ],
        ViolationLockDeleted => [
            "{name} has deleted the lock of {holder} while {holder} still holds it!",
            "{holder}仍持有锁，{name}却把{holder}的锁删掉了！",
        ],
        ViolationForeignToken => [
            "The resource accepted token {token}, issued by another lock ({lock})!",
            "资源接受了另一把锁（{lock}）签发的令牌 {token}！",
        ],
        Store => [
            "the store",
            "存储",
        ],
        PartitionedFromCoordinator => [
            "{name} can reach the resource but not the store: writes from {name} still arrive.",
            "{name}连得上资源，却连不上存储：{name}的写入仍能送达。",
        ],
        TraceLimitReached => [
            "The run has grown too long: it stops here.",
            "运行太长了：就停在这里。",
        ],
        PartitionedFromResource => [
            "{name} can reach the store but not the resource: writes from {name} are lost.",
            "{name}连得上存储，却连不上资源：{name}的写入都丢了。",
        ],
        ScriptDropped => [
            "The rest of the script for {name} is dropped: from here on, what happens to {name} is up to you.",
            "{name}剩下的剧本已撤下：从现在起，{name}会怎样，由你来定。",
        ],
        ScriptDroppedNothing => [
            "The script had nothing left for {name}: what happens to {name} was already up to you.",
            "剧本本就没再给{name}安排什么：{name}接下来会怎样，早已由你来定。",
        ],
        LeaseGrantedNoToken => [
            "The store makes {name} the holder. This store issues no fencing token: {token} is only this run's count of terms, and the resource has no token to check.",
            "存储把持有者设为{name}。这种存储不发 fencing token：{token} 只是本次运行给任期计的数，资源也没有令牌可校验。",
        ],
        MessageDuplicated => [
            "The network copies a message: it will arrive twice.",
            "网络复制了一条消息：它会送达两次。",
        ],
        MessageHeldBack => [
            "A message is held back {delay} s: later ones may overtake it.",
            "一条消息被延迟 {delay} 秒：之后发出的可能先到。",
        ],
        NextMessageLost => [
            "The network will lose the next message between {name} and the store or resource: {thing}.",
            "网络会丢掉{name}与存储或资源之间的下一条消息：{thing}。",
        ],
        NextMessageHeld => [
            "The network will hold back the next message between {name} and the store or resource by {delay} s: {thing}.",
            "网络会把{name}与存储或资源之间的下一条消息延迟 {delay} 秒：{thing}。",
        ],
        NextMessageCopied => [
            "The network will deliver the next message between {name} and the store or resource twice: {thing}.",
            "网络会把{name}与存储或资源之间的下一条消息送达两次：{thing}。",
        ],
        ReplyIgnored => [
            "{name} has stopped waiting and ignores this reply.",
            "{name}早已不再等待，忽略这条回复。",
        ],
        PartitionedFromReplies => [
            "Requests from {name} reach the store and take effect, but no reply comes back.",
            "{name}的请求能到达存储并生效，回复却传不回来。",
        ],
        PartitionedFromRequests => [
            "Requests from {name} to the store are lost.",
            "{name}发往存储的请求全部丢失。",
        ],
        AcquireDelayed => [
            "{name} asks for the free lease, but the store grants none before {until} s, so the last holder's writes land first.",
            "{name}申请租约。租约空着，但存储在 {until} 秒前不授予任何人，好让上一任的写入先落定。",
        ],
        StoreFailedOverExtended => [
            "The store fails over and the new leader restarts every lease's TTL: the lease of {name} now runs until {expires} s.",
            "存储发生故障切换，新 leader 把所有租约的 TTL 重新计起：{name}的租约要到 {expires} 秒才到期。",
        ],
        StoreFailedOverLost => [
            "The store fails over to a replica {lag} s behind: the lock of {name} (token {token}) is gone, and the next token will be {next}.",
            "存储切换到落后 {lag} 秒的副本：{name}的锁（令牌 {token}）丢了，下一个令牌将是 {next}。",
        ],
        StoreFailedOverKept => [
            "The store fails over; the lease record is intact.",
            "存储发生故障切换；租约记录完好无损。",
        ],
        WorkStopped => [
            "{name} finally stops writing with token {token}, {drain} s after stepping down.",
            "{name}卸任 {drain} 秒后，终于停止用令牌 {token} 写入。",
        ],
        WriteRetried => [
            "{name} hears no reply and retries write {op} with token {token}.",
            "{name}没收到回复，用令牌 {token} 重试写入 {op}。",
        ],
    }
}
