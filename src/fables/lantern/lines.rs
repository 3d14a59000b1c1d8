//! Its story line for each line of the log ([`Line`]), `[en, zh]`.

use crate::story::narrate::Line;

/// Its story template for `line`: placeholders are those the technical line of the same
/// [`Line`] receives.
pub(super) fn lines(line: Line) -> [&'static str; 2] {
    use Line::*;
    match line {
        NodeStarted => [
            "{name} comes to the stone pillar at the town entrance, hoping to borrow the lantern.",
            "{name}来到镇口的石柱下，想借那盏灯。",
        ],
        MessageDropped => [
            "A word is lost in the dark lanes.",
            "一句话消失在漆黑的巷子里。",
        ],
        LeaseGranted => [
            "{name} latches the brass clasp, writes the name {name} on the tablet with the return hour {expires} s, and takes the lantern with a fresh wick, No. {token}.",
            "{name}扣上铜锁，在木牌上写下名字和还灯时辰（{expires} 秒），换上 {token} 号新灯芯，提灯而去。",
        ],
        LeaseReacquired => [
            "{name} asks again while the tablet still bears the name {name}: the same wick No. {token}, the return hour moved to {expires} s.",
            "木牌上还是{name}的名字，{name}又来借了一次：仍是 {token} 号灯芯，还灯时辰改到 {expires} 秒。",
        ],
        AcquireRefused => [
            "{name} reaches for the brass clasp, but {holder} has already latched it: the tablet is taken until {expires} s.",
            "{name}伸手去扣铜锁，可{holder}已经扣上了：木牌写着到 {expires} 秒才还灯。",
        ],
        AcquireRefusedLingering => [
            "{name} reaches for the brass clasp; {holder}'s return hour passed at {expires} s, but the clasp has not been opened yet.",
            "{name}伸手去扣铜锁；{holder}的还灯时辰在 {expires} 秒已过，可铜锁还没打开。",
        ],
        LeaseRenewed => [
            "{name} comes back in person and flips the tablet: wick No. {token} burns on, the return hour is now {expires} s.",
            "{name}亲自回来翻了牌：{token} 号灯芯接着烧，还灯时辰改为 {expires} 秒。",
        ],
        RenewRefused => [
            "{name} comes back to renew wick No. {token}, but the tablet no longer bears that name.",
            "{name}回来要续 {token} 号灯芯，可木牌上已经不是这个名字了。",
        ],
        LeaseExpired => [
            "The return hour passes and {name} has not come back: wick No. {token} burns out, and the tablet counts as free.",
            "还灯时辰已过，{name}没有回来：{token} 号灯芯烧到了头，木牌算作“空”。",
        ],
        LeaseRevoked => [
            "The town elder wipes {name}'s name off the tablet at once: wick No. {token} is dead.",
            "镇长当场擦掉了木牌上{name}的名字：{token} 号灯芯作废。",
        ],
        LeaseRevokedEmpty => [
            "The elder wipes the tablet, but it already read free.",
            "镇长擦了擦木牌，可上面本来就写着“空”。",
        ],
        BecameLeader => [
            "{name} lights the lantern with wick No. {token} and sets off on the errand.",
            "{name}点亮了 {token} 号灯芯，提灯出门办事。",
        ],
        SteppedDownDeadline => [
            "{name} could not get back to the tablet in time and puts the lantern down.",
            "{name}没能按时回去翻牌，放下了灯。",
        ],
        SteppedDownRefused => [
            "{name} learns the tablet no longer bears that name and puts down lantern No. {token}.",
            "{name}得知木牌上已不是自己的名字，放下了 {token} 号灯。",
        ],
        WritePrepared => [
            "{name} raises lantern No. {token} to start an errand, and stops dead on the spot.",
            "{name}提起 {token} 号灯正要办事，却僵在了原地。",
        ],
        WriteAccepted => [
            "The granary keeper checks wick No. {token} and lets {name} do the errand.",
            "看仓人核对了 {token} 号灯芯，让{name}把事办了。",
        ],
        WriteObeyedUnchecked => [
            "Nobody checks the wick: {name} does the errand by lantern No. {token}.",
            "没人核对灯芯：{name}提着 {token} 号灯把事办了。",
        ],
        WriteObeyedOlder => [
            "Nobody checks the wick: {name} walks on with dead lantern No. {token}, though No. {before} has already been at work.",
            "没人核对灯芯：{before} 号已经办过事了，{name}还提着 {token} 号的死灯往前走。",
        ],
        WriteRejectedStale => [
            "The granary keeper turns {name} back: wick No. {token} is burnt out, and only No. {hwm} counts now.",
            "看仓人把{name}拦了回去：{token} 号灯芯早已烧尽，眼下只认 {hwm} 号。",
        ],
        WriteRejectedEqual => [
            "The granary keeper turns {name} back: wick No. {token} has already been used, and this granary wants a fresh wick for every errand.",
            "看仓人拦下了{name}：{token} 号灯芯已经用过，这座仓房要求每次办事都换新灯芯。",
        ],
        WriteRejectedNotEqual => [
            "The granary keeper refuses {name}'s newer wick No. {token}: he lets through only exactly No. {hwm}, the first number he wrote down.",
            "看仓人拒绝了{name}更新的 {token} 号灯芯：他只认恰好是 {hwm} 号的，也就是他记下的第一个编号。",
        ],
        WriteRejectedIssuerBehind => [
            "The granary keeper turns {name} back with wick No. {token}, though {name} is the borrower on the tablet now: the wick numbers fell back below No. {hwm}, and no errand of this loan can pass.",
            "看仓人拦下了拿着 {token} 号灯芯的{name}，可木牌上登记的正是{name}：灯芯编号退到了 {hwm} 号以下，这一次借灯的差事一件也办不成。",
        ],
        WriteRejectedForeignMark => [
            "The granary keeper turns {name} back with wick No. {token}: the No. {hwm} he wrote down was cut for the {lock} lantern, so this lantern's rightful borrower is shut out.",
            "看仓人拦下了拿着 {token} 号灯芯的{name}：他记下的 {hwm} 号是给 {lock} 那盏灯剪的，于是这盏灯名正言顺的借灯人反被挡在外面。",
        ],
        WriteRejectedInvalid => [
            "The granary keeper refuses a lantern with no proper wick number ({token}).",
            "看仓人拒收一盏没有正当灯芯编号（{token}）的灯。",
        ],
        WriteDuplicate => [
            "The granary keeper has already done this very errand for {name}; it is not done twice.",
            "看仓人已经替{name}办过这件事，不会再办第二次。",
        ],
        ViolationStaleSeenNewer => [
            "Wick No. {newest} is the lit one, yet {name} walks on with dead lantern No. {token}, and falls into the ditch!",
            "{newest} 号灯芯才是亮着的，{name}却提着 {token} 号的死灯往前走，一脚摔进了水渠！",
        ],
        ViolationStaleBeforeSeen => [
            "{name}'s old wick No. {token} is let through: the granary keeper has not yet seen No. {newest}.",
            "{name}的旧灯芯 {token} 号被放行了：看仓人还没见过 {newest} 号。",
        ],
        ViolationStaleForgotten => [
            "{name}'s old wick No. {token} is let through though No. {newest} is out: the granary keeper had seen a newer wick, but has forgotten it.",
            "{newest} 号灯芯已经发出，{name}的旧灯芯 {token} 号却被放行了：看仓人见过更新的灯芯，却把它忘了。",
        ],
        ViolationInvalidAccepted => [
            "With nobody checking wicks, an errand with no proper wick number ({token}) gets done.",
            "没人核对灯芯，一件没有正当灯芯编号（{token}）的事也办成了。",
        ],
        ViolationTokenRegression => [
            "The wick numbers went backwards: the granary let No. {token} through after No. {highest}.",
            "灯芯编号倒退了：仓房放行过 {highest} 号，又放行了 {token} 号。",
        ],
        ViolationDuplicate => [
            "The same errand was done twice ({op}).",
            "同一件事被办了两次（{op}）。",
        ],
        IssuerRolledBack => [
            "The elder's ledger of wicks is restored from an old copy: the next wick will be No. {next}, not {before}.",
            "镇长的灯芯账本从旧副本恢复：下一根灯芯将是 {next} 号，而不是 {before} 号。",
        ],
        ResourceRestored => [
            "The granary keeper's notebook is restored from an old copy: he now remembers only No. {hwm}, not {before}.",
            "看仓人的本子从旧副本恢复：他现在只记得 {hwm} 号，不再是 {before} 号。",
        ],
        ResourceRestartedKept => [
            "The granary keeper steps away and comes back; his notebook still says No. {hwm}.",
            "看仓人离开又回来，本子上仍写着 {hwm} 号。",
        ],
        ResourceRestartedLost => [
            "The granary keeper steps away and comes back having forgotten No. {before}: he kept it only in his head.",
            "看仓人离开又回来，忘了 {before} 号：他只把它记在脑子里。",
        ],
        Paused => [
            "{name} dozes off against a wall of the dark lane and cannot come back to renew.",
            "{name}靠在暗巷的墙边睡着了，回不去续时辰。",
        ],
        Resumed => [
            "{name} wakes up, with no idea how much of the hour has gone.",
            "{name}醒了过来，全然不知时辰过去了多少。",
        ],
        Crashed => [
            "{name} twists an ankle by the ditch and is carried home, the errand forgotten: no coming back to renew.",
            "{name}在水渠边崴了脚，被人抬回了家，手上的事全忘了：回不去续时辰了。",
        ],
        Restarted => [
            "{name} can walk again and comes to the pillar as a newcomer.",
            "{name}脚伤好了，像个新来的人一样来到石柱下。",
        ],
        Partitioned => [
            "{name} is lost in the maze of dark lanes: no word gets in or out, no coming back to renew.",
            "{name}在漆黑的巷子里迷了路：话传不进来，也传不出去，回不去续时辰。",
        ],
        Healed => [
            "{name} finds the way out of the dark lanes.",
            "{name}找到了走出暗巷的路。",
        ],
        FencingOn => [
            "The granary keeper takes up his post: every errand must show a live wick number.",
            "看仓人回到岗位：每件事都要出示亮着的灯芯编号。",
        ],
        FencingOff => [
            "The granary keeper leaves his post: any lantern, lit or dead, is let through.",
            "看仓人离开了岗位：不管灯亮不亮，一律放行。",
        ],
        WriteDelayArmed => [
            "{name}'s next errand will take {delay} s longer: the long way round.",
            "{name}的下一件事要多走 {delay} 秒：得绕远路。",
        ],
        CommandIgnored => [
            "Nothing happens: that makes no sense right now.",
            "什么也没发生：此刻这样做没有意义。",
        ],
        RunEnded => [
            "Dawn comes to Nantang.",
            "南塘镇天亮了。",
        ],
        Outsider => [
            "a stranger",
            "外乡人",
        ],
        Nobody => [
            "nobody",
            "无人",
        ],
        NoToken => [
            "no wick at all",
            "根本没有灯芯",
        ],
        SteppedDownFinished => [
            "{name} has finished the errand and brings the lantern back to the pillar.",
            "{name}办完了差事，把灯送回石柱。",
        ],
        SteppedDownSessionExpired => [
            "The tablet's yes reaches {name} too late: by {name}'s own reckoning the return hour has already passed, so {name} never lights wick No. {token}.",
            "木牌应允的消息传到{name}时已经太晚：按{name}自己的算法，还灯时辰早就过了，于是 {token} 号灯芯根本没点。",
        ],
        WorkContinues => [
            "{name}'s name is off the tablet, yet {name} keeps walking the lanes by wick No. {token}.",
            "木牌上已经没有{name}的名字，{name}却还提着 {token} 号灯芯在巷子里走。",
        ],
        LockReleased => [
            "{name} hangs the lantern back on the pillar, unlatches the clasp and turns the tablet to \"free\".",
            "{name}把灯挂回石柱，松开铜锁，把木牌翻回“空”。",
        ],
        LockReleaseNotOwner => [
            "{name} comes to turn the tablet back, reads another name on it, and leaves it alone.",
            "{name}来翻木牌，看见上面是别人的名字，便没有动它。",
        ],
        LockReleaseDeletedOthers => [
            "{name} turns the tablet to \"free\" without reading it, and {holder}'s name is wiped off.",
            "{name}看也不看就把木牌翻回“空”，{holder}的名字被抹掉了。",
        ],
        LockReleaseAlreadyFree => [
            "{name} comes to turn the tablet back, but it already reads \"free\".",
            "{name}来翻木牌，木牌却已经写着“空”。",
        ],
        EpochBarrierRaised => [
            "Before wick No. {token} is even lit, word goes to the granary keeper: from now on only No. {token} counts.",
            "{token} 号灯芯还没点着，消息就先送到了看仓人那里：从现在起只认 {token} 号。",
        ],
        RecordObserved => [
            "{name} sees something new on the tablet and starts counting {duration} s from that moment.",
            "{name}看到木牌上有了变化，便自己开始数 {duration} 秒。",
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
            "The granary keeper looks at {name}'s wick: No. {token} was cut for another lantern. Turned away.",
            "看仓人看了看{name}的灯芯：{token} 号是给另一盏灯剪的。不予放行。",
        ],
        ViolationLockDeleted => [
            "{name} has wiped {holder}'s name off the tablet while {holder} is still out with the lantern!",
            "{holder}还提着灯在外面，{name}却把{holder}的名字从木牌上抹掉了！",
        ],
        ViolationForeignToken => [
            "The granary obeyed wick No. {token}, cut for another lantern!",
            "仓房听从了给另一盏灯剪的 {token} 号灯芯！",
        ],
        Store => [
            "the town's water clock",
            "镇上的漏刻",
        ],
        PartitionedFromCoordinator => [
            "{name} cannot get back to the tablet, yet still walks the lanes to the granary with the lantern.",
            "{name}回不到木牌那里去，却仍提着灯在巷子里往仓房走。",
        ],
        TraceLimitReached => [
            "The night's tale has grown too long to tell: it stops here.",
            "这一夜的故事太长，讲不完了：就停在这里。",
        ],
        PartitionedFromResource => [
            "{name} can still reach the tablet, but loses the way to the granary.",
            "{name}还能走到木牌那里，却找不到去仓房的路。",
        ],
        ScriptDropped => [
            "The storyteller crosses out what was still planned for {name} tonight: from here on, what befalls {name} is yours to decide.",
            "说书人把今晚还给{name}安排的情节划掉了：接下来{name}会遇到什么，由你说了算。",
        ],
        ScriptDroppedNothing => [
            "The storyteller had nothing more planned for {name} tonight: what befalls {name} was already yours to decide.",
            "说书人今晚本就没再给{name}安排什么：{name}会遇到什么，早已由你说了算。",
        ],
        LeaseGrantedNoToken => [
            "{name} latches the brass clasp and writes the name {name} on the tablet. The wick's No. {token} is only this story's count of turns: this tablet hands out no numbered wick.",
            "{name}扣上铜锁，在木牌上写下名字。灯芯的 {token} 号只是这个故事给轮次计的数：这块木牌并不发编号的灯芯。",
        ],
        MessageDuplicated => [
            "An echo in the lanes: one word will be carried twice.",
            "巷子里有回声：一句话会被传两遍。",
        ],
        MessageHeldBack => [
            "A word takes the long way through the lanes: {delay} s late.",
            "一句话在巷子里绕了远路：晚到 {delay} 秒。",
        ],
        NextMessageLost => [
            "The lanes will swallow the next word between {name} and the tablet: {thing}.",
            "巷子会吞掉{name}与木牌之间的下一句话：{thing}。",
        ],
        NextMessageHeld => [
            "The next word between {name} and the tablet will take the long way, {delay} s late: {thing}.",
            "{name}与木牌之间的下一句话会绕远路，晚到 {delay} 秒：{thing}。",
        ],
        NextMessageCopied => [
            "An echo in the lanes will carry the next word between {name} and the tablet twice: {thing}.",
            "巷子里的回声会把{name}与木牌之间的下一句话传两遍：{thing}。",
        ],
        ReplyIgnored => [
            "{name} already has an answer and pays the echo no mind.",
            "{name}已经得到答复，不理会这声回音。",
        ],
        PartitionedFromReplies => [
            "{name}'s word reaches the tablet, but no answer finds the way back.",
            "{name}的话传到了木牌那里，回话却找不到回来的路。",
        ],
        PartitionedFromRequests => [
            "{name}'s words are lost on the way to the tablet.",
            "{name}的话在去木牌的路上丢了。",
        ],
        AcquireDelayed => [
            "{name} reaches for the brass clasp. It is open, but the elder lets nobody take the lantern before {until} s, so the last borrower's errand lands first.",
            "{name}伸手去扣铜锁。锁是开的，可镇长在 {until} 秒前不让任何人借灯，好让上一位借灯人的事先办完。",
        ],
        StoreFailedOverExtended => [
            "A new elder takes over the tablet and starts every return hour again: {name}'s is now {expires} s.",
            "新镇长接管木牌，把每个还灯时辰都重新算起：{name}的改到 {expires} 秒。",
        ],
        StoreFailedOverLost => [
            "A deputy takes over the elder's tablet from a copy {lag} late, with no {name} and no wick No. {token} on it: the clasp counts as open, and the next wick will be No. {next}.",
            "副手从晚了 {lag} 的抄本接管镇长的木牌，上面没有{name}，也没有 {token} 号灯芯：铜锁算是开着的，下一根灯芯将是 {next} 号。",
        ],
        StoreFailedOverKept => [
            "A new elder takes over the tablet; nothing on it is lost.",
            "新镇长接管木牌；上面的内容一点没丢。",
        ],
        WorkStopped => [
            "{name} finally blows out wick No. {token}: putting the lantern away took {drain} s.",
            "{name}终于吹灭了 {token} 号灯芯：收灯用了 {drain} 秒。",
        ],
        WriteRetried => [
            "{name} hears no answer and does errand {op} again, by wick No. {token}.",
            "{name}没听到回应，借着 {token} 号灯芯把差事 {op} 又办了一遍。",
        ],
    }
}
