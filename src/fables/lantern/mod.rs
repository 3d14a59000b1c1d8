//! The lantern of Nantang (seed `001`): one lantern lent by a tablet with a brass clasp, a return
//! hour renewed in person, a numbered wick that goes stale, a borrower who twists an ankle.
//!
//! Its telling of the shared [`Picture`], element by element:
//!
//! - The iron lantern on its stone pillar is the shared resource's use: it hangs on the pillar
//!   while nobody is out with it ([`carrier`]); a borrower who believes they hold the lease carries
//!   it, lit while their wick is the tablet's live one, dead otherwise.
//! - The wooden tablet is the record: "free" (空) or a borrower's name (`holderIdentity`) with the
//!   return hour (`renewTime + leaseDurationSeconds`, on the coordinator's clock). Once the hour has
//!   passed the name is still written there (as in Kubernetes), struck through: it counts as free
//!   ([`Face`], from the engine's one judgement, [`Liveness::judge`](crate::engine::Liveness::judge)).
//! - The brass clasp under the tablet is the compare-and-swap: latched only while one is being
//!   decided, from the tablet's decision until its answer is back ([`Picture::cas`]). A borrower
//!   whose acquire was already on its way when someone else's was granted found it held: a step
//!   too late.
//! - The timed wick is the timer: it burns down with the lease's remaining time, flares when lit or
//!   renewed in person, and every new borrower gets a fresh wick with a higher number: the fencing
//!   token.
//! - A crashed borrower has twisted an ankle, a paused one dozes, a cut-off one is lost in the dark
//!   lanes: none can come back to renew.
//! - The granary keeper is the gate with his "only wick No. N" (the high-water mark). With no
//!   keeper, an errand whose wick is older than one already let through is done anyway, and its
//!   borrower falls into the ditch (the collision): that borrower is drawn in the ditch, not in the
//!   lane, until they carry the lantern again ([`in_ditch`]).
//!
//! Its words are below ([`words`], [`Says`], its legend), its story lines in [`lines`], its drawing
//! in [`scene`]. It has a cast of its own ([`CAST`]): any scenario told as the lantern is played by
//! Nantang's townsfolk.

#[cfg(not(target_arch = "wasm32"))]
mod lines;
pub(crate) mod scene;

#[cfg(not(target_arch = "wasm32"))]
use super::Word;
use super::{own_words, Definition, Landing};
use crate::story::picture::{Actor, Cas, Picture, Posture, Record};

/// The lantern.
pub(crate) const FABLE: Definition = Definition {
    code: "lantern",
    landing: Landing { lesson: "lantern-return-hour", story: "lantern-ankle" },
    cast: Some(&CAST),
    legend: LEGEND_KEYS,
    own_words: Says::COUNT,
    #[cfg(not(target_arch = "wasm32"))]
    texts: super::Texts { words, own: Says::TABLE, lines: lines::lines, legend: LEGEND },
};

/// Nantang's borrowers, `[en, zh]`, given to nodes in node order (the scenario format allows at
/// most [`crate::engine::MAX_NODES`] nodes; any beyond this list are shown by their id).
pub(crate) const CAST: [[&str; 2]; 8] = [
    ["A-Xiu", "阿秀"],
    ["Smith Wang", "王铁匠"],
    ["Auntie Zhou", "周婶"],
    ["Xiaoman", "小满"],
    ["Uncle He", "何伯"],
    ["Liu the peddler", "刘货郎"],
    ["Chunni", "春妮"],
    ["Teacher Sun", "孙先生"],
];

/// Its word for each concept (see [`Word`]).
#[cfg(not(target_arch = "wasm32"))]
fn words(word: Word) -> [&'static str; 2] {
    use Word::*;
    match word {
        Name => ["Lantern", "夜灯"],
        TitleToldAs => ["{title} (told as the lantern)", "{title}（以夜灯讲述）"],
        Tagline => ["Lease-based locking and fencing tokens, told as the lantern of Nantang", "基于租约的锁与围栏令牌——南塘镇夜灯的故事"],
        SceneLabel => ["The lantern of Nantang: the stone pillar, the tablet and its brass clasp, the wick, the borrowers, the granary keeper and the ditch", "南塘夜灯：石柱、木牌与铜锁、灯芯、借灯人、看仓人与水渠"],
        LandingName => ["The lantern: a tablet, a brass clasp, a timed wick", "夜灯：借灯牌、铜锁、定时灯芯"],
        LandingLesson => ["Start the lantern lesson", "开始夜灯课程"],
        LandingPlay => ["Play the lantern story", "播放夜灯的故事"],
        RecordFree => ["free", "空"],
        TimerLeft => ["{s} s of wick", "灯芯还能烧 {s} 秒"],
        TimerOut => ["burnt out", "已烧尽"],
        TimerUnset => ["not lit", "未点燃"],
        Renewals => ["renewed in person: {n}", "亲自续时辰：{n} 次"],
        Gate => ["Granary keeper", "看仓人"],
        GateOnly => ["only wick No. {n}", "只认 {n} 号灯芯"],
        GateUnseen => ["no wick seen yet", "还没见过灯芯"],
        GateAway => ["no keeper", "看仓人不在"],
        GateLetsAll => ["every lantern let through", "什么灯都放行"],
        Accepted => ["passed", "放行"],
        Refused => ["refused", "拦回"],
        Duplicate => ["already done", "已办过"],
        Outsider => ["stranger", "外乡人"],
        OutcomeIdle => ["no errand done yet", "还没办过事"],
        OutcomeLast => ["last errand: No. {n}", "最近办事：{n} 号"],
        Collision => ["Into the ditch!", "摔进水渠！"],
        CollisionWhy => ["No. {old} let through after No. {new}", "放行过 {new} 号又放行 {old} 号"],
        Asleep => ["z z", "呼…呼…"],
        Crew => ["Borrowers", "借灯人"],
        NoCrew => ["No borrowers in this scenario: the errands come straight from outside.", "这个场景没有借灯人：要办的事直接从外面送来。"],
        Crash => ["Twist an ankle", "崴了脚"],
        Restart => ["Heal the ankle", "脚伤痊愈"],
        CutOff => ["Lose in the lanes", "在巷子里迷路"],
        Reconnect => ["Find the way back", "找到回来的路"],
        ActorGone => ["twisted an ankle: carried home", "崴了脚：被抬回了家"],
        ActorNotYet => ["not out yet", "还没出门"],
        ActorCutOff => ["lost in the dark lanes", "在暗巷里迷了路"],
        ActorHolds => ["carries lantern No. {n}", "提着 {n} 号灯"],
        ActorStale => ["but the tablet says No. {n}: a dead lantern", "可木牌上已是 {n} 号：手里是盏死灯"],
        ActorPrepared => ["stopped mid-errand with lantern No. {n}", "办事办到一半停住了，手里是 {n} 号灯"],
        ActorOnRecord => ["named on the tablet", "木牌上写的是这个名字"],
        MsgAcquire => ["goes to latch the clasp (acquire)", "去扣铜锁（acquire）"],
        MsgAcquireReply => ["the tablet's answer (acquire reply)", "木牌的答复（acquire 回复）"],
        MsgRenew => ["comes back to renew in person (renew)", "亲自回来续时辰（renew）"],
        MsgRenewReply => ["renewal accepted or refused (renew reply)", "续时辰被接受或拒绝（renew 回复）"],
        MsgWrite => ["an errand by lantern, showing its wick number (write)", "提灯办事，出示灯芯编号（write）"],
        MsgRelease => ["a borrower going to turn the tablet back to free (lock release)", "去把木牌翻回“空”的借灯人（释放锁）"],
        FencingOn => ["Keeper on duty · fencing ON", "看仓人在岗 · 围栏开启"],
        FencingOff => ["No keeper · fencing OFF", "看仓人不在 · 围栏关闭"],
        Revoke => ["Burn the wick out now", "立刻烧尽灯芯"],
        RevokeHint => ["RevokeLease: the town elder wipes the holder's name off the tablet now", "RevokeLease：镇长立刻擦掉木牌上借灯人的名字"],
        FigureTimer => ["The tablet", "借灯牌"],
        FigureGate => ["The granary keeper", "粮仓看守"],
        FigureTimerLeft => ["{name}'s name is on the tablet: {s} s to the return hour.", "牌上写着{name}：离还灯时辰还有 {s} 秒。"],
        FigureTimerIdle => ["The tablet reads free: nobody has the lantern now.", "牌上写着“空”：眼下没有人借着灯。"],
        FigureGateOn => ["He lets in only wick No. {n} or newer.", "她只放行 {n} 号及更新的灯芯。"],
        FigureGateOff => ["Nobody checks the wicks at the granary door.", "粮仓门口没有人查灯芯。"],
        FigureFencingOff => ["Send the keeper home (fencing off)", "让看守回家（关闭围栏）"],
        FigureFencingOn => ["Call the keeper back (fencing on)", "请看守回来（开启围栏）"],
        LogTitle => ["Lantern log", "借灯记录"],
        CaptionEmpty => ["Nantang lies dark and quiet. Press Play to begin the story.", "南塘镇夜色沉沉。按“播放”开始讲故事。"],
        ViolationsHint => ["Point at or focus a violation to light up who and what it involves in the lantern scene.", "指向或聚焦一条违规，灯笼场景里与它相关的人和物会亮起来。"],
        DiagramStore => ["tablet", "木牌（存储）"],
        DiagramResource => ["granary", "仓房（资源）"],
        RowHolder => ["Name on the tablet", "木牌上的名字"],
        RowDuration => ["The wick, one full length", "一整根灯芯"],
        RowAcquired => ["When the clasp was latched", "扣上铜锁的时刻"],
        RowRenewed => ["The latest renewal in person", "最近一次亲自续时辰"],
        RowRemaining => ["Wick left", "灯芯还剩"],
        RowToken => ["Wick number", "灯芯编号"],
        RowMark => ["“Only wick No. N”", "“只认 N 号灯芯”"],
        RowLastAccepted => ["The granary's last errand", "仓房最近办的事"],
        RowGateOnDuty => ["The keeper is at the granary", "看仓人在岗"],
        RowEqualToken => ["A second errand on the same wick", "同一灯芯再次办事"],
        RowWritesJudged => ["Errands let through / turned back", "放行 / 拦回的事"],
        RowStoreClock => ["The town's water clock", "镇上的漏刻"],
        RowWhoJudges => ["Who decides the hour has passed", "谁来判定时辰已过"],
    }
}

own_words! {
    /// The words only its drawing shows.
    pub(crate) enum Says for FABLE {
        TownGate => ["Town entrance", "镇口"],
        TabletReturnBy => ["return by {s} s", "还灯时辰 {s} 秒"],
        TabletHourPassed => ["the hour has passed", "时辰已过"],
        TabletNotYet => ["no one has borrowed yet", "还没人借过"],
        WickNumber => ["wick No. {n}", "{n} 号灯芯"],
        ClaspLatched => ["{name} holds the clasp", "{name}扣着铜锁"],
        ClaspTried => ["{name} tries the clasp: the tablet is taken", "{name}去扣铜锁：木牌已有人"],
        ClaspOpen => ["clasp open", "铜锁已开"],
        ClaspTooLate => ["{name}: a step too late", "{name}：晚了一步"],
        Granary => ["granary", "仓房"],
        Ditch => ["irrigation ditch", "水渠"],
    }
}

pub(crate) const LEGEND_KEYS: &[&str] =
    &["lantern", "tablet", "clasp", "return-hour", "renew", "expire", "wick", "ankle", "keeper", "ditch"];

/// Its legend's words, in [`LEGEND_KEYS`]' order: what the fable shows, and what it is.
#[cfg(not(target_arch = "wasm32"))]
const LEGEND: &[[[&str; 2]; 2]] = &[
    [
        ["Nantang's one night lantern", "南塘镇唯一的夜灯"],
        ["the shared resource: one holder at a time", "共享资源：同一时刻只有一个持有者"],
    ],
    [
        ["The wooden tablet: “free” or a name", "木牌：“空”或一个名字"],
        ["the lock state: holderIdentity", "锁状态：holderIdentity"],
    ],
    [
        ["The brass clasp: one latches it, the other is a step too late", "铜锁：一人扣上，另一人晚了一步"],
        ["compare-and-swap: acquire succeeds for one only", "compare-and-swap：只有一个 acquire 成功"],
    ],
    [
        ["The return hour", "还灯时辰"],
        [
            "renewTime + leaseDurationSeconds (the TTL), on the coordinator's clock",
            "renewTime + leaseDurationSeconds（TTL），以协调者的时钟为准",
        ],
    ],
    [["Coming back in person to renew", "亲自回来续时辰"], ["lease renewal: renewTime moves", "续约：renewTime 前移"]],
    [["The hour passes: the tablet counts as free", "时辰一到：木牌算作“空”"], ["lease expiration", "租约过期"]],
    [
        ["The numbered wick, new and higher for each borrower", "灯芯编号：每换一个借灯人就更大"],
        ["fencing token", "fencing token（围栏令牌）"],
    ],
    [
        ["A twisted ankle, a doze, lost in the lanes", "崴脚、打盹、在暗巷迷路"],
        ["crash, pause, network partition: no renewal comes", "崩溃、暂停、网络分区：续约不再到来"],
    ],
    [
        ["The granary keeper checking the wick number", "核对灯芯编号的看仓人"],
        ["the fenced resource checking its high-water mark", "按高水位核对令牌的受保护资源"],
    ],
    [
        ["Falling into the ditch with a dead lantern", "提着死灯摔进水渠"],
        ["a stale write accepted after a newer one", "接受了更新的写入之后又接受了过期写入"],
    ],
];

/// What the tablet's face says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    /// 空: no name on it (nobody has borrowed yet, the elder wiped it, or it was turned back).
    Free,
    /// A borrower's name and a return hour still to come.
    Taken,
    /// A name whose return hour has passed on the coordinator's clock: it counts as free.
    HourPassed,
}

impl Face {
    /// The `data-state` value: `free`, `taken` or `hour-passed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Face::Free => "free",
            Face::Taken => "taken",
            Face::HourPassed => "hour-passed",
        }
    }
}

/// The tablet's face for the record: from its liveness alone.
pub fn face(record: &Record) -> Face {
    use crate::story::picture::Liveness;
    match record.liveness {
        Liveness::Free => Face::Free,
        Liveness::Live { .. } => Face::Taken,
        Liveness::Lapsed { .. } => Face::HourPassed,
    }
}

/// The borrower out with the one lantern, by index: the one whose wick is the tablet's live one,
/// else the first who still believes they hold it (a dead lantern is still the lantern: after the
/// elder wipes the tablet it does not fly back to its pillar). `None`: it hangs on its pillar.
pub fn carrier(p: &Picture) -> Option<usize> {
    p.actors.iter().position(|a| a.live).or_else(|| p.actors.iter().position(|a| a.belief.is_some()))
}

/// The borrower is drawn in the ditch: their errand with an older wick was done after a newer one
/// (the collision), and they have not carried the lantern since.
pub fn in_ditch(a: &Actor) -> bool {
    a.collided
}

/// How much the wick flares (1.0 just lit or renewed, 0.0 settled); a dead wick does not.
pub fn flare(p: &Picture) -> f64 {
    if p.record.liveness.is_live() {
        p.timer.turning
    } else {
        0.0
    }
}

/// The clasp now: latched by whoever's compare-and-swap is being decided, open otherwise.
pub fn clasp(p: &Picture) -> Option<&Cas> {
    p.cas.as_ref()
}

/// A borrower's `data-state`: `not-yet`, `hurt`, `dozing`, `in-ditch`, `carrying` (a lit lantern),
/// `dead-lantern` or `waiting`.
pub fn borrower_state(a: &Actor) -> &'static str {
    match (a.posture, a.belief, a.live) {
        (Posture::NotYet, ..) => "not-yet",
        (Posture::Down, ..) => "hurt",
        (Posture::Asleep, ..) => "dozing",
        _ if in_ditch(a) => "in-ditch",
        (Posture::Up, Some(_), true) => "carrying",
        (Posture::Up, Some(_), false) => "dead-lantern",
        (Posture::Up, None, _) => "waiting",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Command, MessageKind, Sim, TraceEvent, WriteOutcome};
    use crate::story::picture::testing::{look, sim};
    use crate::story::picture::{CasKind, Memory, Route, TimerState, Verdict, TURN_MS};

    fn borrower<'a>(p: &'a Picture, id: &str) -> &'a Actor {
        p.actors.iter().find(|b| b.id == id).expect("borrower")
    }

    fn grants(sim: &Sim) -> Vec<(u64, String, u64)> {
        sim.trace()
            .iter()
            .filter_map(|e| match &e.event {
                TraceEvent::LeaseGranted { node, token, .. } => Some((e.at_ms, node.clone(), *token)),
                _ => None,
            })
            .collect()
    }

    /// Two borrowers set out at the same moment; the clasp lets exactly one latch it, and the
    /// other, whose request was already on its way, finds it held: a step too late.
    #[test]
    fn lantern_race_one_latches_the_other_is_a_step_too_late() {
        let mut s = sim("lantern-race");
        let mut m = Memory::default();
        s.advance_to(0);
        let p = look(&s, &mut m);
        assert_eq!(face(&p.record), Face::Free);
        assert!(carrier(&p).is_none() && clasp(&p).is_none() && p.too_late.is_none());
        assert_eq!(p.timer.state, TimerState::Unset);
        // Both asked at 0 ms: two requests on their way to the tablet.
        let asking = p.flights.iter().filter(|e| e.kind == MessageKind::AcquireRequest).count();
        assert_eq!(asking, 2, "{:?}", p.flights);

        s.advance_to(200);
        let g = grants(&s);
        assert_eq!(g.len(), 1, "exactly one latches the clasp: {g:?}");
        let (latched_at, winner, token) = g[0].clone();
        let loser = if winner == "xiu" { "wang" } else { "xiu" };
        let refusal = s
            .trace()
            .iter()
            .find(|e| matches!(&e.event, TraceEvent::AcquireRefused { node, .. } if node == loser))
            .cloned()
            .expect("the other finds the clasp held");
        assert!(refusal.at_ms >= latched_at, "refused only once it was latched");
        assert!(refusal.at_ms - latched_at <= 5, "they arrived at nearly the same time");

        // At the grant the winner latches the clasp.
        let mut at_grant = sim("lantern-race");
        at_grant.advance_to(latched_at);
        let mut mg = Memory::default();
        let pg = look(&at_grant, &mut mg);
        let c = clasp(&pg).expect("latched at the grant");
        assert_eq!((c.node.as_str(), c.won, c.kind), (winner.as_str(), true, CasKind::Acquire));

        let p = look(&s, &mut m);
        assert_eq!(
            (face(&p.record), p.record.holder.as_deref(), p.record.token),
            (Face::Taken, Some(winner.as_str()), Some(token))
        );
        let too_late = p.too_late.clone().expect("a step too late");
        assert_eq!((too_late.node.as_str(), too_late.holder.as_str(), too_late.sent_ms), (loser, winner.as_str(), 0));
        assert!(borrower(&p, loser).too_late && !borrower(&p, &winner).too_late);
        assert_eq!(borrower(&p, loser).belief, None, "no lantern for the one too late");
        let w = borrower(&p, &winner);
        assert_eq!((w.belief, w.live, w.on_record, borrower_state(w)), (Some(token), true, true, "carrying"));
        assert_eq!(carrier(&p).map(|i| p.actors[i].id.clone()), Some(winner.clone()), "the lantern went with them");

        // Later tries find the tablet taken but were not a race: the race stays the one remembered.
        s.run_to_end();
        let p = look(&s, &mut m);
        assert_eq!(grants(&s).len(), 1, "the winner keeps renewing in person");
        assert!(p.record.renewals >= 2);
        assert_eq!(p.too_late.as_ref().map(|t| t.at_ms), Some(refusal.at_ms));
        assert_eq!(borrower_state(borrower(&p, loser)), "waiting");
    }

    /// Lin starts after Chen's grant: her refusal is an ordinary wait, not a lost race.
    #[test]
    fn a_request_sent_after_the_latch_is_not_too_late() {
        let mut s = sim("harbor-zombie");
        let mut m = Memory::default();
        s.advance_to(3_000);
        let p = look(&s, &mut m);
        assert!(s.trace().iter().any(|e| matches!(&e.event, TraceEvent::AcquireRefused { node, .. } if node == "lin")));
        assert!(p.too_late.is_none());
        assert_eq!(borrower_state(borrower(&p, "lin")), "waiting");
    }

    /// The holder twists an ankle mid-errand: the tablet keeps her name until the return hour
    /// has passed; only then does the next borrower latch the clasp, with a newer wick; her slow
    /// errand with the old number is turned back by the keeper.
    #[test]
    fn lantern_ankle_free_only_after_the_hour_then_a_newer_wick() {
        let mut s = sim("lantern-ankle");
        let mut m = Memory::default();
        s.advance_to(9_500);
        let p = look(&s, &mut m);
        assert_eq!((p.record.holder.as_deref(), p.record.token), (Some("xiu"), Some(1)));
        let return_ms = p.record.expires_ms.expect("a return hour");
        let old_errand = p.flights.iter().find(|e| e.route == Route::ToGate { node: Some("xiu".into()) });
        assert_eq!(old_errand.and_then(|e| e.token.as_deref()), Some("1"), "her errand goes the long way round");

        s.advance_to(10_000);
        let p = look(&s, &mut m);
        assert_eq!(borrower(&p, "xiu").posture, Posture::Down);
        assert_eq!(borrower(&p, "xiu").belief, None);
        assert!(return_ms > 10_000, "she was hurt before her hour");
        assert_eq!(p.record.expires_ms, Some(return_ms), "nobody renews for her");
        assert!(carrier(&p).is_none(), "hurt, she is carried home: the lantern is back on its pillar");

        // Up to the return hour the tablet still bears her name, the wick burns, and every try of
        // Wang's is refused; the clasp is latched only while one of his tries is decided.
        s.advance_to(return_ms - 1);
        let p = look(&s, &mut m);
        assert_eq!((face(&p.record), p.record.holder.as_deref()), (Face::Taken, Some("xiu")));
        assert_eq!((p.timer.state, p.timer.remaining_ms), (TimerState::Running, 1));
        assert!(clasp(&p).is_none_or(|c| c.node == "wang" && !c.won), "{:?}", p.cas);
        let wang_tries = s
            .trace()
            .iter()
            .filter(|e| matches!(&e.event, TraceEvent::AcquireRefused { node, holder, .. } if node == "wang" && holder == "xiu"))
            .count();
        assert!(wang_tries >= 4, "Wang tried every 2 s: {wang_tries}");
        assert_eq!(grants(&s).len(), 1);

        // Redis keeps a key through the last millisecond of its TTL (it is gone once
        // `now > when`), and the tablet says what the store does: still hers at the hour itself,
        // the wick at nothing; passed one millisecond later.
        s.advance_to(return_ms);
        let p = look(&s, &mut m);
        assert_eq!((face(&p.record), p.timer.remaining_ms), (Face::Taken, 0));
        s.advance_to(return_ms + 1);
        let p = look(&s, &mut m);
        assert_eq!((face(&p.record), p.record.holder.as_deref()), (Face::HourPassed, Some("xiu")));
        assert_eq!((p.timer.state, p.timer.left, p.record.token), (TimerState::Out, 0.0, Some(1)));
        assert_eq!(p.timer.line().0, Word::TimerOut);

        s.advance_to(25_000);
        let p = look(&s, &mut m);
        let g = grants(&s);
        assert_eq!(g.len(), 2);
        assert!(g[1].0 >= return_ms, "the next borrower latched only after the hour");
        assert_eq!((g[1].1.as_str(), g[1].2), ("wang", 2), "a fresh wick with a higher number");
        assert_eq!((face(&p.record), p.record.holder.as_deref(), p.record.token), (Face::Taken, Some("wang"), Some(2)));
        assert!(borrower(&p, "wang").live);
        assert_eq!(p.gate.sign(), (Word::GateOnly, Some(2)));

        s.run_to_end();
        let p = look(&s, &mut m);
        let turned_back: Vec<&Verdict> = m.verdicts.iter().filter(|v| v.from.as_deref() == Some("xiu")).collect();
        let late =
            turned_back.iter().find(|v| v.outcome == WriteOutcome::RejectedStale).expect("her late errand is judged");
        assert_eq!((late.token.as_str(), late.high_water_after), ("1", 2));
        assert_eq!(late.word(), Word::Refused);
        assert!(p.gate.on_duty && p.outcome.collision.is_none(), "the keeper kept everyone out of the ditch");
        assert_eq!(p.outcome.last_token.as_deref(), Some("2"));
        assert_eq!(borrower_state(borrower(&p, "xiu")), "waiting", "back on her feet, she waits her turn");
    }

    /// With no keeper, a borrower who dozed off walks on with a dead lantern and falls into the
    /// ditch: the oracle's stale write accepted after the newer wick. She is drawn in the ditch,
    /// and only there.
    #[test]
    fn lantern_ditch_without_a_keeper_the_dead_lantern_falls_in() {
        let mut s = sim("lantern-ditch");
        let mut m = Memory::default();
        s.advance_to(25_000);
        let p = look(&s, &mut m);
        let xiu = borrower(&p, "xiu");
        assert_eq!((xiu.posture, xiu.belief, xiu.live, xiu.prepared), (Posture::Asleep, Some(1), false, Some(1)));
        assert_eq!(borrower_state(xiu), "dozing");
        assert!(borrower(&p, "wang").live);
        assert!(!p.gate.on_duty && p.outcome.collision.is_none() && !in_ditch(xiu));

        s.run_to_end();
        let p = look(&s, &mut m);
        let fall = p.outcome.collision.clone().expect("into the ditch");
        assert_eq!((fall.from.as_deref(), fall.token, fall.newer), (Some("xiu"), 1, 2));
        let oracle = s.trace().iter().find_map(|e| match &e.event {
            TraceEvent::ViolationFound {
                violation: crate::engine::Violation::StaleWriteAccepted { from, token, resource_had_seen_newer, .. },
                ..
            } => Some((e.at_ms, from.clone(), *token, *resource_had_seen_newer)),
            _ => None,
        });
        assert_eq!(oracle, Some((fall.at_ms, Some("xiu".to_owned()), 1, true)), "the same moment the oracle names");
        let xiu = borrower(&p, "xiu");
        assert!(in_ditch(xiu) && borrower_state(xiu) == "in-ditch", "{xiu:?}");
        assert!(p.actors.iter().filter(|a| in_ditch(a)).count() == 1, "one borrower in the ditch, drawn once");
        assert!(!in_ditch(borrower(&p, "wang")));
    }

    /// The wick burns down with the lease's remaining time on the coordinator's clock, flares
    /// when renewed in person, and a zombie's lantern is dead.
    #[test]
    fn the_wick_follows_the_lease_and_a_zombie_carries_a_dead_lantern() {
        let mut s = sim("harbor-zombie");
        let mut m = Memory::default();
        s.advance_to(1_000);
        let p = look(&s, &mut m);
        let expires = s.snapshot().lease.expires_ms.expect("held");
        assert_eq!(p.timer.remaining_ms, expires - 1_000);
        assert!((p.timer.left - (expires - 1_000) as f64 / 15_000.0).abs() < 1e-9);
        assert_eq!(p.record.expires_ms, Some(expires));

        // Right after the first renewal in person the wick flares, then settles.
        let mut ahead = s.clone();
        ahead.run_to_end();
        let renewed_at = ahead
            .trace()
            .iter()
            .find(|e| matches!(e.event, TraceEvent::LeaseRenewed { .. }))
            .map(|e| e.at_ms)
            .expect("Chen renews");
        s.advance_to(renewed_at);
        let p = look(&s, &mut m);
        assert_eq!((flare(&p), p.record.renewals), (1.0, 1));
        assert_eq!(p.timer.remaining_ms, 15_000, "renewed: a full wick again");
        assert_eq!(clasp(&p).map(|c| (c.kind, c.won)), Some((CasKind::Renew, true)), "the renewal's swap");
        s.advance_to(renewed_at + TURN_MS / 2);
        assert!((flare(&look(&s, &mut m)) - 0.5).abs() < 1e-9);
        s.advance_to(renewed_at + TURN_MS);
        assert_eq!(flare(&look(&s, &mut m)), 0.0);

        s.advance_to(25_000);
        let p = look(&s, &mut m);
        let chen = borrower(&p, "chen");
        assert_eq!(
            (chen.posture, chen.belief, chen.live),
            (Posture::Asleep, Some(7), true),
            "dozing, his wick still burns"
        );

        s.advance_to(40_000);
        let p = look(&s, &mut m);
        let chen = borrower(&p, "chen");
        assert_eq!((chen.belief, chen.live), (Some(7), false), "a dead lantern: the tablet says 8");
        let lin = borrower(&p, "lin");
        assert_eq!((lin.belief, lin.live, lin.on_record), (Some(8), true, true));
        assert_eq!(carrier(&p).map(|i| p.actors[i].id.as_str()), Some("lin"), "the lit one carries the lantern");
    }

    /// After the elder wipes the tablet the holder is still out with the lantern (now dead): it does
    /// not hang on its pillar until nobody believes they hold it.
    #[test]
    fn the_elder_wipes_the_tablet_and_the_lantern_stays_with_its_borrower() {
        let mut s = sim("lantern-ankle");
        s.advance_to(30_000);
        let mut m = Memory::default();
        let p = look(&s, &mut m);
        assert!(borrower(&p, "wang").live);
        s.apply(Command::RevokeLease).expect("valid");
        let p = look(&s, &mut m);
        assert_eq!((face(&p.record), p.record.holder.as_deref()), (Face::Free, None));
        let wang = borrower(&p, "wang");
        assert_eq!((wang.belief, wang.live, borrower_state(wang)), (Some(2), false, "dead-lantern"));
        assert_eq!(carrier(&p).map(|i| p.actors[i].id.as_str()), Some("wang"), "still out with it");
        assert_eq!((p.timer.state, p.record.token), (TimerState::Out, Some(2)), "the number stays; it only climbs");
        assert!(p.record.ever_granted());
    }

    #[test]
    fn hurt_and_lost_borrowers_show() {
        let mut s = sim("harbor-zombie");
        let mut m = Memory::default();
        s.advance_to(2_000);
        s.apply(Command::Partition { node: "lin".into(), from: crate::engine::Link::All }).expect("valid");
        s.apply(Command::Crash { node: "chen".into() }).expect("valid");
        let p = look(&s, &mut m);
        assert_eq!(borrower_state(borrower(&p, "chen")), "hurt");
        assert!(borrower(&p, "lin").cut_off);
        assert!(carrier(&p).is_none());
    }

    #[test]
    fn errands_from_outside_go_to_the_keeper() {
        let mut s = sim("fencing-checks");
        let mut m = Memory::default();
        s.run_to_end();
        let p = look(&s, &mut m);
        assert!(p.actors.is_empty());
        assert_eq!(p.gate.recent.len(), crate::story::picture::VERDICTS_KEPT);
        assert_eq!(p.gate.mark, 3);
        assert_eq!(face(&p.record), Face::Free);
        assert!(!p.record.ever_granted());
        assert_eq!(crate::story::picture::message_word(MessageKind::Write), Word::MsgWrite);
    }
}
