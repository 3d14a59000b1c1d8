//! Its story line for each line of the log ([`Line`]), `[en, zh]`.

use crate::story::narrate::Line;

/// Its story template for `line`: placeholders are those the technical line of the same
/// [`Line`] receives.
pub(super) fn lines(line: Line) -> [&'static str; 2] {
    use Line::*;
    match line {
        NodeStarted => [
            "{name} comes to the breakwater, hoping to take the flag.",
            "{name}来到防波堤，想接过旗子。",
        ],
        MessageDropped => [
            "A message is lost in the fog.",
            "一条消息消失在雾里。",
        ],
        LeaseGranted => [
            "The dockmaster writes {name} on the plaque and the number climbs to {token}. The hourglass is turned.",
            "领班把{name}的名字写上木牌，编号升到 {token}，沙漏翻转。",
        ],
        LeaseReacquired => [
            "{name} asks again while still on the plaque: the number stays {token} and the hourglass is turned again.",
            "{name}还在木牌上时又来申请：编号仍是 {token}，沙漏重新翻转。",
        ],
        AcquireRefused => [
            "{name} asks for the post, but {holder} is still on the plaque.",
            "{name}想接班，可木牌上还是{holder}。",
        ],
        AcquireRefusedLingering => [
            "{name} asks for the post; {holder}'s sand ran out at {expires} s, but the dockmaster has not struck the name from the plaque yet.",
            "{name}想接班；{holder}的沙漏在 {expires} 秒就漏尽了，可领班还没把名字从木牌上划掉。",
        ],
        LeaseRenewed => [
            "{name} carves a fresh mark on the wall and the hourglass flips.",
            "{name}在墙上重重划了一道，沙漏重新翻转。",
        ],
        RenewRefused => [
            "{name} comes to carve a mark, but the plaque no longer bears that name.",
            "{name}回来划道，可木牌上已经不是这个名字了。",
        ],
        LeaseExpired => [
            "The sand runs out for {name}: no mark was carved in time.",
            "{name}的沙漏漏尽了：没人按时来划道。",
        ],
        LeaseRevoked => [
            "The dockmaster strikes {name} from the plaque at once.",
            "领班当场把{name}的名字从木牌上划掉。",
        ],
        LeaseRevokedEmpty => [
            "The dockmaster wipes the plaque, but no name was on it.",
            "领班擦了擦木牌，可上面本来就没有名字。",
        ],
        BecameLeader => [
            "{name} raises the flag, carrying number {token}.",
            "{name}举起了旗，报出编号 {token}。",
        ],
        SteppedDownDeadline => [
            "{name} notices no mark has been carved in time and lowers the flag.",
            "{name}发觉太久没能划道，放下了旗。",
        ],
        SteppedDownRefused => [
            "{name} learns the post is gone and lowers flag {token}.",
            "{name}得知自己已被换下，放下了编号 {token} 的旗。",
        ],
        WritePrepared => [
            "{name} lifts a flag with number {token}, and freezes mid-signal.",
            "{name}举起编号 {token} 的旗，动作停在了半空。",
        ],
        WriteAccepted => [
            "The flag-verifier checks number {token} and the boat obeys {name}.",
            "验旗人核对编号 {token}，渔船听从了{name}的旗语。",
        ],
        WriteObeyedUnchecked => [
            "Nobody checks the number: the boat simply obeys {name}'s flag with {token}.",
            "没人核对编号：渔船直接听从了{name}报 {token} 的旗。",
        ],
        WriteObeyedOlder => [
            "Nobody checks the number: the boat obeys {name}'s flag with {token}, after it had already obeyed {before}.",
            "没人核对编号：渔船已经听过编号 {before}，又听从了{name}报 {token} 的旗。",
        ],
        WriteRejectedStale => [
            "The flag-verifier voids {name}'s flag: it carries {token}, and only {hwm} counts now.",
            "验旗人把{name}的旗当作废旗：它报的是 {token}，眼下只认编号 {hwm}。",
        ],
        WriteRejectedEqual => [
            "The flag-verifier waves off {name}'s flag: number {token} has already been used, and this harbor wants a new number for every signal.",
            "验旗人挥手拒绝了{name}的旗：编号 {token} 已经用过，这个渔港要求每次挥旗都换新编号。",
        ],
        WriteRejectedNotEqual => [
            "The flag-verifier refuses {name}'s newer number {token}: he accepts only exactly {hwm}, the first number he wrote down.",
            "验旗人拒绝了{name}更新的编号 {token}：他只认恰好是 {hwm} 的编号，也就是他记下的第一个。",
        ],
        WriteRejectedIssuerBehind => [
            "The flag-verifier voids {name}'s flag {token}, though {name} holds the post now: the dockmaster's numbers fell back below {hwm}, and no flag of this watch can pass.",
            "验旗人把{name}的 {token} 号旗当作废旗，可眼下当值的正是{name}：领班的编号退到了 {hwm} 以下，这一班的旗一面也过不去。",
        ],
        WriteRejectedForeignMark => [
            "The flag-verifier voids {name}'s flag {token}: his mark {hwm} came from the numbers of the {lock} post, so the rightful flag-bearer here is shut out.",
            "验旗人把{name}的 {token} 号旗当作废旗：他记下的 {hwm} 来自 {lock} 那边的编号，于是这里名正言顺的旗手反被挡在外面。",
        ],
        WriteRejectedInvalid => [
            "The flag-verifier refuses a flag with no proper number ({token}).",
            "验旗人拒收一面没有正当编号（{token}）的旗。",
        ],
        WriteDuplicate => [
            "The verifier has already obeyed this very signal from {name}; it is not obeyed twice.",
            "验旗人已经执行过{name}的这条旗语，不会再执行第二次。",
        ],
        ViolationStaleSeenNewer => [
            "The boat obeys {name}'s old number {token} though {newest} is on duty: two flags obeyed, and the boat is driven onto the rocks!",
            "{newest} 号当值，渔船却听了{name}的旧编号 {token}：两面旗都被听从，渔船撞上了暗礁！",
        ],
        ViolationStaleBeforeSeen => [
            "The boat obeys {name}'s old number {token}: the verifier has not yet seen number {newest}.",
            "渔船听了{name}的旧编号 {token}：验旗人还没见过编号 {newest}。",
        ],
        ViolationStaleForgotten => [
            "The boat obeys {name}'s old number {token} though {newest} is on duty: the flag-verifier had seen a newer number, but has forgotten it.",
            "{newest} 号当值，渔船却听了{name}的旧编号 {token}：验旗人见过更新的编号，却把它忘了。",
        ],
        ViolationInvalidAccepted => [
            "With nobody checking numbers, the boat obeys a flag with no proper number ({token}).",
            "没人核对编号，渔船听从了一面没有正当编号（{token}）的旗。",
        ],
        ViolationTokenRegression => [
            "The numbers went backwards: the boat obeyed {token} after it had already obeyed {highest}.",
            "编号倒退了：渔船已经听过 {highest}，又听从了 {token}。",
        ],
        ViolationDuplicate => [
            "The boat carried out the very same signal twice ({op}).",
            "渔船把同一条旗语执行了两次（{op}）。",
        ],
        IssuerRolledBack => [
            "The dockmaster's ledger is restored from an old copy: the next number on the plaque will be {next}, not {before}.",
            "领班的账本从旧副本恢复：木牌上的下一个编号将是 {next}，而不是 {before}。",
        ],
        ResourceRestored => [
            "The flag-verifier's notebook is restored from an old copy: he now remembers only number {hwm}, not {before}.",
            "验旗人的本子从旧副本恢复：他现在只记得编号 {hwm}，不再是 {before}。",
        ],
        ResourceRestartedKept => [
            "The flag-verifier steps away and comes back; his notebook still says {hwm}.",
            "验旗人离开又回来，本子上仍写着 {hwm}。",
        ],
        ResourceRestartedLost => [
            "The flag-verifier steps away and comes back having forgotten the number {before}: he kept it only in his head.",
            "验旗人离开又回来，忘了编号 {before}：他只把它记在脑子里。",
        ],
        Paused => [
            "{name} falls asleep in a sheltered corner of the breakwater.",
            "{name}在防波堤的背风角里昏睡过去。",
        ],
        Resumed => [
            "{name} wakes up, with no idea anything has changed.",
            "{name}悠悠转醒，浑然不知一切已变。",
        ],
        Crashed => [
            "{name} is carried off the breakwater and forgets everything.",
            "{name}被抬下了防波堤，什么都不记得了。",
        ],
        Restarted => [
            "{name} comes back to the breakwater as a newcomer.",
            "{name}重新回到防波堤，像个新来的人。",
        ],
        Partitioned => [
            "Fog cuts {name} off: no word gets in or out.",
            "大雾隔开了{name}：消息进不来，也出不去。",
        ],
        Healed => [
            "The fog around {name} lifts.",
            "{name}身边的雾散了。",
        ],
        FencingOn => [
            "The flag-verifier takes up the post: every flag must carry the current number.",
            "验旗人回到岗位：每面旗都必须报出当值编号。",
        ],
        FencingOff => [
            "The flag-verifier leaves the post: the boat will obey any flag.",
            "验旗人离开了岗位：渔船会听从任何一面旗。",
        ],
        WriteDelayArmed => [
            "A headwind will slow {name}'s next flag by {delay} s.",
            "一阵逆风会让{name}的下一面旗晚到 {delay} 秒。",
        ],
        CommandIgnored => [
            "Nothing happens: that makes no sense right now.",
            "什么也没发生：此刻这样做没有意义。",
        ],
        RunEnded => [
            "Evening falls on the harbor.",
            "暮色降临渔港。",
        ],
        Outsider => [
            "a messenger",
            "外来的信使",
        ],
        Nobody => [
            "nobody",
            "无人",
        ],
        NoToken => [
            "none at all",
            "根本没有编号",
        ],
        SteppedDownFinished => [
            "{name} has finished the errand and comes to hand the flag back.",
            "{name}办完了差事，回来交还旗子。",
        ],
        SteppedDownSessionExpired => [
            "Word of the post reaches {name} too late: by {name}'s own hourglass the term has already run out, so no flag is raised.",
            "接任的消息传到{name}时已经太晚：按{name}自己的沙漏，这一任期早已结束，于是一面旗也没举。",
        ],
        WorkContinues => [
            "{name} is no longer on the plaque, but goes on waving flags numbered {token}.",
            "{name}已经不在木牌上了，却还在挥动编号 {token} 的旗。",
        ],
        LockReleased => [
            "{name} hands the flag back and the plaque is wiped clean.",
            "{name}交还旗子，木牌被擦干净。",
        ],
        LockReleaseNotOwner => [
            "{name} comes to wipe the plaque, reads another name on it, and leaves it alone.",
            "{name}来擦木牌，看到上面是别人的名字，便没有动它。",
        ],
        LockReleaseDeletedOthers => [
            "{name} wipes the plaque without reading it, and {holder}'s name is gone.",
            "{name}看也不看就擦掉了木牌，{holder}的名字没了。",
        ],
        LockReleaseAlreadyFree => [
            "{name} comes to wipe the plaque, but it is already blank.",
            "{name}来擦木牌，木牌却已经是空的。",
        ],
        EpochBarrierRaised => [
            "Before number {token} raises a single flag, the dockmaster sends word to the verifier: from now on only {token} counts.",
            "编号 {token} 还没举起任何一面旗，领班就先通知了验旗人：从现在起只认 {token}。",
        ],
        RecordObserved => [
            "{name} sees something new on the plaque and starts a private hourglass of {duration} s.",
            "{name}看到木牌上有了变化，便翻转自己的沙漏，计时 {duration} 秒。",
        ],
        ClockJumped => [
            "The clock of {target} jumps by {by} s.",
            "{target}的钟突然跳了 {by} 秒。",
        ],
        ClockRateSet => [
            "The clock of {target} now runs at {rate}× speed.",
            "{target}的钟现在以 {rate} 倍速度走。",
        ],
        WriteRejectedForeign => [
            "The verifier looks at {name}'s flag: its number {token} comes from another post's plaque. Ignored.",
            "验旗人看了看{name}的旗：编号 {token} 来自另一个岗位的木牌。不予理会。",
        ],
        ViolationLockDeleted => [
            "{name} has wiped {holder}'s name off the plaque while {holder} still holds the post!",
            "{holder}还在岗位上，{name}却把{holder}的名字从木牌上擦掉了！",
        ],
        ViolationForeignToken => [
            "The boat obeyed number {token} from another post's plaque!",
            "渔船听从了另一个岗位木牌上的编号 {token}！",
        ],
        Store => [
            "the dockmaster",
            "领班",
        ],
        PartitionedFromCoordinator => [
            "Fog hides the dockmaster's hut from {name}: no word reaches it or comes back, but the boat can still see {name}'s flags.",
            "雾挡住了{name}望向领班小屋的视线：话传不过去，也传不回来，可渔船仍看得见{name}的旗。",
        ],
        TraceLimitReached => [
            "The story has grown too long to tell: it stops here.",
            "故事太长，讲不完了：就停在这里。",
        ],
        PartitionedFromResource => [
            "Fog hides the boat from {name}: the flags of {name} are lost, though the dockmaster still hears every slip.",
            "雾挡住了{name}望向渔船的视线：{name}的旗语都丢了，但领班仍收得到每一张纸条。",
        ],
        ScriptDropped => [
            "The tale had more in store for {name}; those lines are struck out, and from here on what happens to {name} is up to you.",
            "故事原本还给{name}安排了后续，这几笔已被划掉：从现在起，{name}会怎样，由你来定。",
        ],
        ScriptDroppedNothing => [
            "The tale had nothing more in store for {name}: what happens to {name} was already up to you.",
            "故事本就没再给{name}安排什么：{name}接下来会怎样，早已由你来定。",
        ],
        LeaseGrantedNoToken => [
            "The dockmaster writes {name} on the plaque and turns the hourglass. The {token} on it is only this story's count of terms: this harbor's real plaque has no number, and no verifier stands at the gate to read one.",
            "领班把{name}的名字写上木牌，沙漏翻转。牌上的 {token} 只是这个故事给任期计的数：这座港口真正的木牌上没有编号，闸口也没有验旗人去核对。",
        ],
        MessageDuplicated => [
            "An echo in the fog: a message will arrive twice.",
            "雾里有回声：一条消息会送到两次。",
        ],
        MessageHeldBack => [
            "A message drifts in the fog: {delay} s late.",
            "一条消息在雾里漂着：晚到 {delay} 秒。",
        ],
        NextMessageLost => [
            "The fog will swallow the next message between {name} and the harbor: {thing}.",
            "雾会吞掉{name}与港口之间的下一条消息：{thing}。",
        ],
        NextMessageHeld => [
            "The fog will slow the next message between {name} and the harbor by {delay} s: {thing}.",
            "雾会让{name}与港口之间的下一条消息晚到 {delay} 秒：{thing}。",
        ],
        NextMessageCopied => [
            "An echo in the fog will carry the next message between {name} and the harbor twice: {thing}.",
            "雾里的回声会把{name}与港口之间的下一条消息送到两次：{thing}。",
        ],
        ReplyIgnored => [
            "{name} already has the dockmaster's answer and ignores the echo.",
            "{name}已经得到领班的答复，不理会这声回音。",
        ],
        PartitionedFromReplies => [
            "Fog lets {name}'s slips reach the dockmaster, but no answer comes back.",
            "雾让{name}的纸条送到了领班手里，答复却传不回来。",
        ],
        PartitionedFromRequests => [
            "Fog swallows {name}'s slips on the way to the dockmaster.",
            "雾吞没了{name}送往领班的纸条。",
        ],
        AcquireDelayed => [
            "{name} asks for the post. The plaque is empty, but the dockmaster names nobody before {until} s, so the last bearer's flags land first.",
            "{name}想接班。木牌空着，可领班在 {until} 秒前不写任何名字，好让上一任的旗语先落定。",
        ],
        StoreFailedOverExtended => [
            "A new dockmaster takes over the ledger and turns every hourglass again: {name}'s now runs until {expires} s.",
            "新领班接过账本，把每只沙漏都重新翻转：{name}的要到 {expires} 秒才漏完。",
        ],
        StoreFailedOverLost => [
            "A deputy takes over the dockmaster's ledger, copied {lag} late: {name} and number {token} are not in it. The next number will be {next}.",
            "副手接过领班的账本，可抄本晚了 {lag}：上面没有{name}，也没有编号 {token}。下一个编号将是 {next}。",
        ],
        StoreFailedOverKept => [
            "A new dockmaster takes over the ledger; nothing on the plaque is lost.",
            "新领班接过账本；木牌上的内容一点没丢。",
        ],
        WorkStopped => [
            "{name} finally lowers the flags numbered {token}: packing up took {drain} s.",
            "{name}终于放下编号 {token} 的旗：收工用了 {drain} 秒。",
        ],
        WriteRetried => [
            "{name} hears nothing back and signals {op} again, with flag {token}.",
            "{name}没听到回音，又把 {op} 打了一遍，举的仍是 {token} 号旗。",
        ],
    }
}
