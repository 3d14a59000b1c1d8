//! The harbor (seed `000`): one flag-bearer at a time, a plaque with the holder's name and a
//! number that only climbs, an hourglass refreshed by a mark on the wall, and a flag-verifier who
//! ignores a flag with an older number.
//!
//! Its telling of the shared [`Picture`]: the dockmaster's plaque is the record
//! (`holderIdentity` and the fencing token), the hourglass the timer, the marks carved on the wall
//! the renewals of this term, the flag-bearers the actors (a raised flag is a belief, its number
//! the token), slips to and from the dockmaster the requests and replies, a flag on its way a
//! write, the flag-verifier the gate with its "only N counts" (the high-water mark), and the boat
//! the resource: it runs onto the rocks at the collision. Its names come from the scenario file.
//!
//! Its words are below ([`words`], [`Says`], its legend), its story lines in [`lines`], its drawing
//! in [`scene`].

#[cfg(not(target_arch = "wasm32"))]
mod lines;
pub(crate) mod scene;

#[cfg(not(target_arch = "wasm32"))]
use super::Word;
use super::{own_words, Definition, Landing};
use crate::story::picture::{Actor, Outcome, Picture, Posture};

/// The harbor.
pub(crate) const FABLE: Definition = Definition {
    code: "harbor",
    landing: Landing { lesson: "harbor-replaced", story: "harbor-zombie" },
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
        Name => ["Harbor", "渔港"],
        TitleToldAs => ["{title} (told as the harbor)", "{title}（以渔港讲述）"],
        Tagline => [
            "Lease-based leader election and fencing tokens, told as a harbor fable",
            "基于租约的选主与围栏令牌——一个渔港的故事",
        ],
        SceneLabel => {
            ["The harbor: dockmaster, flag-bearers, flag-verifier and boat", "渔港：领班、掌旗人、验旗人与渔船"]
        }
        LandingName => {
            ["The harbor: a flag-bearer, an hourglass, a number that only climbs", "渔港：掌旗人、沙漏、只升不降的编号"]
        }
        LandingLesson => ["Start the harbor lesson", "开始渔港课程"],
        LandingPlay => ["Play the harbor story", "播放渔港的故事"],
        RecordFree => ["(nobody)", "（无人）"],
        TimerLeft => ["{s} s left", "还剩 {s} 秒"],
        TimerOut => ["sand ran out", "沙漏已漏尽"],
        TimerUnset => ["not turned", "尚未翻转"],
        Renewals => ["marks on the wall: {n}", "墙上的划痕：{n}"],
        Gate => ["Flag-verifier", "验旗人"],
        GateOnly => ["only {n} counts", "只认编号 {n}"],
        GateUnseen => ["no number seen yet", "还没见过编号"],
        GateAway => ["no verifier", "验旗人不在"],
        GateLetsAll => ["every flag is obeyed", "什么旗都照听"],
        Accepted => ["obeyed", "照办"],
        Refused => ["VOID", "作废"],
        Duplicate => ["already done", "已办过"],
        Outsider => ["outside", "外来"],
        OutcomeIdle => ["waiting for a flag", "等着看旗"],
        OutcomeLast => ["obeys No. {n}", "听从 {n} 号"],
        Collision => ["On the rocks!", "撞上暗礁！"],
        CollisionWhy => ["obeyed {old} after {new}", "听过 {new} 号又听 {old} 号"],
        Asleep => ["z z", "呼…呼…"],
        Crew => ["Flag-bearers", "掌旗人"],
        NoCrew => [
            "No flag-bearers in this scenario: the flags come straight from outside.",
            "这个场景没有掌旗人：旗号直接从外面送来。",
        ],
        Crash => ["Send home", "让其离岗"],
        Restart => ["Bring back", "重新上岗"],
        CutOff => ["Cut off", "隔断"],
        Reconnect => ["Reconnect", "恢复联络"],
        ActorGone => ["gone: an empty post", "不在了：岗位空着"],
        ActorNotYet => ["not on duty yet", "还没上岗"],
        ActorCutOff => ["cut off in the fog", "被大雾隔断"],
        ActorHolds => ["flag raised: No. {n}", "举着 {n} 号旗"],
        ActorStale => ["but the plaque says {n}", "可木牌上已是 {n}"],
        ActorPrepared => ["holds a prepared flag No. {n}", "手里攥着备好的 {n} 号旗"],
        ActorOnRecord => ["named on the plaque", "木牌上写的是这个名字"],
        MsgAcquire => ["asks for the post (acquire)", "请求上岗（acquire）"],
        MsgAcquireReply => ["the dockmaster's answer (acquire reply)", "领班的答复（acquire 回复）"],
        MsgRenew => ["comes to carve a mark (renew)", "前来划道（renew）"],
        MsgRenewReply => ["the mark accepted or refused (renew reply)", "划道被接受或拒绝（renew 回复）"],
        MsgWrite => ["a flag signal carrying its number (write)", "带着编号的旗语（write）"],
        MsgRelease => ["a request to wipe the plaque (lock release)", "擦掉木牌的请求（释放锁）"],
        FencingOn => ["Verifier on duty · fencing ON", "验旗人在岗 · 围栏开启"],
        FencingOff => ["No verifier · fencing OFF", "验旗人不在 · 围栏关闭"],
        Revoke => ["Run the sand out now", "立刻让沙漏漏尽"],
        RevokeHint => {
            ["RevokeLease: the dockmaster strikes the holder's name now", "RevokeLease：领班立刻划掉当值者的名字"]
        }
        FigureTimer => ["The hourglass", "沙漏"],
        FigureGate => ["The flag-verifier", "验旗人"],
        FigureTimerLeft => ["{name} holds the post: {s} s of sand left.", "{name}当值：沙漏还剩 {s} 秒。"],
        FigureTimerIdle => ["No sand is running: nobody holds the post now.", "沙漏没有在漏：眼下没有人当值。"],
        FigureGateOn => ["He lets through only number {n} or higher.", "他只认编号 {n} 及以上。"],
        FigureGateOff => ["Nobody checks the numbers: every flag is obeyed.", "没有人核对编号：每面旗都有人听。"],
        FigureFencingOff => ["Send the verifier away (fencing off)", "让验旗人离开（关闭围栏）"],
        FigureFencingOn => ["Bring the verifier back (fencing on)", "请验旗人回来（开启围栏）"],
        LogTitle => ["Harbor log", "渔港日志"],
        CaptionEmpty => ["The harbor is quiet. Press Play to begin the story.", "渔港一片安静。按“播放”开始讲故事。"],
        ViolationsHint => [
            "Point at or focus a violation to light up who and what it involves in the harbor.",
            "指向或聚焦一条违规，渔港里与它相关的人和物会亮起来。",
        ],
        DiagramStore => ["dockmaster", "领班（存储）"],
        DiagramResource => ["verifier", "验旗人（资源）"],
        RowHolder => ["Name on the plaque", "木牌上的名字"],
        RowDuration => ["The hourglass, one full turn", "沙漏漏完一整轮"],
        RowAcquired => ["When the post was taken", "上任的时刻"],
        RowRenewed => ["The latest mark on the wall", "墙上最近的一道划痕"],
        RowRemaining => ["Sand left", "沙漏里剩的沙"],
        RowToken => ["Number on the plaque", "木牌上的编号"],
        RowMark => ["“Only N counts”", "“只认编号 N”"],
        RowLastAccepted => ["What the boat last obeyed", "渔船最后听从的旗语"],
        RowGateOnDuty => ["The verifier is on duty", "验旗人在岗"],
        RowEqualToken => ["A second flag with the same number", "同一编号再次挥旗"],
        RowWritesJudged => ["Flags obeyed / voided", "照办 / 作废的旗"],
        RowStoreClock => ["The dockmaster's clock", "领班的钟"],
        RowWhoJudges => ["Who decides the sand has run out", "谁来判定沙漏漏完"],
    }
}

own_words! {
    /// The words only its drawing shows.
    pub(crate) enum Says for FABLE {
        Dockmaster => ["Dockmaster", "领班"],
        Channel => ["narrow channel", "窄水道"],
    }
}

pub(crate) const LEGEND_KEYS: &[&str] = &[
    "harbor",
    "bearer",
    "dockmaster",
    "number",
    "hourglass",
    "mark",
    "sleep",
    "gone",
    "fog",
    "slip",
    "flag",
    "verifier",
    "rocks",
];

/// Its legend's words, in [`LEGEND_KEYS`]' order: what the fable shows, and what it is.
#[cfg(not(target_arch = "wasm32"))]
const LEGEND: &[[[&str; 2]; 2]] = &[
    [
        ["The harbor, the narrow channel", "渔港、窄水道"],
        ["the resource only one instance may act on at a time", "同一时刻只能由一个实例操作的资源（临界区）"],
    ],
    [
        ["A flag-bearer with a raised flag", "举着旗的掌旗人"],
        ["a node that believes it is the leader", "自认为是 leader 的节点"],
    ],
    [["The dockmaster", "领班"], ["the coordinator keeping the Lease object", "保存 Lease 对象的协调者"]],
    [
        ["The number on the plaque, only ever climbing", "木牌上只升不降的编号"],
        ["fencing token / term", "fencing token / 任期"],
    ],
    [["The hourglass", "沙漏"], ["leaseDurationSeconds: the lease TTL", "leaseDurationSeconds：租约有效期 TTL"]],
    [["A mark carved on the wall", "墙上划下的一道"], ["renewTime: a successful renewal", "renewTime：一次成功的续约"]],
    [["Asleep, z z", "睡着了，呼…呼…"], ["a paused process: GC pause, SIGSTOP", "被暂停的进程：GC 停顿、SIGSTOP"]],
    [["An empty post", "空着的岗位"], ["a crashed node", "崩溃的节点"]],
    [["Fog and a broken rope", "大雾与断绳"], ["a network partition", "网络分区"]],
    [
        ["A slip to or from the dockmaster", "与领班往来的纸条"],
        ["acquire / renew request or reply", "acquire / renew 请求或回复"],
    ],
    [["A flag with its number", "带编号的旗"], ["a write carrying its fencing token", "携带围栏令牌的写入"]],
    [
        ["The flag-verifier", "验旗人"],
        ["the fenced resource checking the high-water mark", "按高水位核对令牌的受保护资源"],
    ],
    [
        ["The boat on the rocks", "渔船撞上暗礁"],
        ["split brain: a stale write accepted after a newer one", "脑裂：接受了更新的写入之后又接受了过期写入"],
    ],
];

/// The number on the flag a flag-bearer holds: raised while he believes he leads; asleep, the
/// flag he prepared before dozing off (or the one he still believes in); none when gone.
pub fn shown_flag(a: &Actor) -> Option<u64> {
    match a.posture {
        Posture::Down => None,
        Posture::Asleep => a.prepared.or(a.belief),
        Posture::Up | Posture::NotYet => a.belief,
    }
}

/// The flag at the boat's mast: the number it obeyed last, except on the rocks, where it is the
/// older number that put it there (a newer flag obeyed afterwards does not refloat it).
pub fn mast_flag(o: &Outcome) -> Option<String> {
    match &o.collision {
        Some(c) => Some(c.token.to_string()),
        None => o.last_token.clone(),
    }
}

/// The name on the plaque is struck through once the sand has run out: it stays there until the
/// dockmaster writes another, as `holderIdentity` stays on an expired Lease.
pub fn plaque_name_struck(p: &Picture) -> bool {
    p.record.holder.is_some() && !p.record.liveness.is_live()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Command, MessageKind, TraceEvent, WriteOutcome};
    use crate::story::picture::testing::{look, sim};
    use crate::story::picture::{message_word, Memory, Route, TimerState, VERDICTS_KEPT};
    use crate::story::picture::{Actor, Picture, Posture};

    fn bearer<'a>(p: &'a Picture, id: &str) -> &'a Actor {
        p.actors.iter().find(|b| b.id == id).expect("bearer")
    }

    /// Chen takes the post with 7, the hourglass drains on the coordinator's clock and each
    /// renewal carves a mark; he falls asleep at 20 s, the sand runs out, Lin gets 8; when Chen
    /// wakes his flag with 7 is voided and the verifier says "only 8 counts".
    #[test]
    fn the_harbor_zombie_story_as_pictures() {
        let mut s = sim("harbor-zombie");
        let mut m = Memory::default();

        let p = look(&s, &mut m);
        assert_eq!(p.record.holder, None);
        assert_eq!((p.timer.left, p.timer.line().0), (0.0, Word::TimerUnset));
        assert!(p.actors.iter().all(|b| shown_flag(b).is_none()));

        s.advance_to(1_000);
        let p = look(&s, &mut m);
        assert_eq!((p.record.holder.as_deref(), p.record.token), (Some("chen"), Some(7)));
        let b = bearer(&p, "chen");
        assert_eq!((b.posture, shown_flag(b), b.on_record, b.stale), (Posture::Up, Some(7), true, false));
        // The sand left is the lease's remaining time on the coordinator's clock.
        let expected = (s.snapshot().lease.expires_ms.expect("held") - 1_000) as f64 / 15_000.0;
        assert!((p.timer.left - expected).abs() < 1e-9, "sand {} vs {expected}", p.timer.left);
        assert!(p.timer.left > 0.9);
        assert_eq!(p.timer.line(), (Word::TimerLeft, Some(p.timer.remaining_ms)));

        s.advance_to(19_000);
        let p = look(&s, &mut m);
        assert!(p.record.renewals >= 3, "renewals every 5 s carve marks, got {}", p.record.renewals);
        assert_eq!(p.timer.turns, p.record.renewals + 1);

        s.advance_to(25_000);
        let p = look(&s, &mut m);
        let b = bearer(&p, "chen");
        assert_eq!(b.posture, Posture::Asleep);
        assert_eq!(b.prepared, Some(7), "he fell asleep holding a prepared flag");
        assert_eq!((b.belief, shown_flag(b)), (Some(7), Some(7)), "asleep, he still believes he leads");

        s.advance_to(31_000);
        let p = look(&s, &mut m);
        assert_eq!((p.record.holder.as_deref(), p.record.token), (Some("lin"), Some(8)));
        assert_eq!(p.record.renewals, 0, "a new term starts with a clean wall");
        assert!(bearer(&p, "chen").stale, "Chen's 7 is older than the plaque's 8");
        assert!(!plaque_name_struck(&p));

        s.advance_to(61_000);
        let p = look(&s, &mut m);
        assert!(p.gate.on_duty);
        assert_eq!(p.gate.sign(), (Word::GateOnly, Some(8)));
        let in_trace = s.trace().iter().any(|e| {
            matches!(&e.event, TraceEvent::WriteJudged { from: Some(f), outcome: WriteOutcome::RejectedStale, .. } if f == "chen")
        });
        assert!(in_trace, "Chen's 7 was voided");
        assert!(p.outcome.collision.is_none(), "with fencing on the boat stays off the rocks");
        assert_eq!(mast_flag(&p.outcome).as_deref(), Some("8"));

        s.run_to_end();
        assert!(look(&s, &mut m).outcome.collision.is_none());
    }

    /// At 62 s of harbor-no-fencing Lin's 8 has been obeyed again after Chen's 7 put the boat on
    /// the rocks: the boat still flies 7, the number that wrecked it.
    #[test]
    fn the_boat_on_the_rocks_flies_the_older_number_that_put_it_there() {
        let mut s = sim("harbor-no-fencing");
        let mut m = Memory::default();
        s.advance_to(59_999);
        let p = look(&s, &mut m);
        assert!(!p.gate.on_duty && p.outcome.collision.is_none(), "before Chen wakes the boat is fine");
        assert_eq!(p.gate.sign(), (Word::GateAway, None));
        s.advance_to(62_000);
        let p = look(&s, &mut m);
        let c = p.outcome.collision.clone().expect("the oracle saw the boat obey 7 after 8");
        assert_eq!((c.from.as_deref(), c.token, c.newer), (Some("chen"), 7, 8));
        let obeyed_after: Vec<&str> = s
            .trace()
            .iter()
            .filter_map(|e| match &e.event {
                TraceEvent::WriteJudged { from: Some(f), outcome: WriteOutcome::Accepted, .. } if e.at_ms > c.at_ms => {
                    Some(f.as_str())
                }
                _ => None,
            })
            .collect();
        assert!(obeyed_after.contains(&"lin"), "Lin signalled again before 62 s: {obeyed_after:?}");
        assert_eq!(p.outcome.last_token.as_deref(), Some("8"), "the resource's last value is Lin's");
        assert_eq!(mast_flag(&p.outcome).as_deref(), Some("7"), "the wreck flies the flag that caused it");
    }

    #[test]
    fn aground_only_from_the_oracle_not_from_fencing_off_alone() {
        // Fencing off, nobody sleeps: one leader, no collision, no rocks.
        let mut s = sim("harbor-zombie");
        let mut m = Memory::default();
        s.apply(Command::SetFencing { on: false }).expect("valid");
        s.advance_to(15_000);
        let p = look(&s, &mut m);
        assert!(!p.gate.on_duty);
        assert!(p.outcome.collision.is_none());
    }

    #[test]
    fn messages_in_flight_have_routes_and_progress() {
        let mut s = sim("harbor-zombie");
        let mut m = Memory::default();
        // Chen's first acquire request leaves at 0 and arrives within 20..80 ms.
        s.advance_to(0);
        let p = look(&s, &mut m);
        let slip = p.flights.first().expect("a slip in flight");
        assert_eq!(slip.route, Route::ToRecord { node: "chen".into() });
        assert_eq!((slip.progress, slip.from()), (0.0, "chen"));
        s.advance_to(15);
        let p = look(&s, &mut m);
        let slip = p.flights.first().expect("still in flight");
        assert!(slip.progress > 0.0 && slip.progress < 1.0);
        // Find a write in flight and check it goes to the verifier with its number.
        let mut seen_flag = false;
        for t in (100..4_000).step_by(5) {
            s.advance_to(t);
            let p = look(&s, &mut m);
            if let Some(f) = p.flights.iter().find(|f| f.kind == MessageKind::Write) {
                assert_eq!(f.route, Route::ToGate { node: Some("chen".into()) });
                assert_eq!(f.token.as_deref(), Some("7"));
                assert_eq!(message_word(f.kind), Word::MsgWrite);
                seen_flag = true;
                break;
            }
        }
        assert!(seen_flag);
    }

    #[test]
    fn crash_partition_and_revoke_show() {
        let mut s = sim("harbor-zombie");
        let mut m = Memory::default();
        s.advance_to(2_000);
        s.apply(Command::Partition { node: "lin".into(), from: crate::engine::Link::All }).expect("valid");
        s.apply(Command::Crash { node: "chen".into() }).expect("valid");
        let p = look(&s, &mut m);
        assert_eq!(bearer(&p, "chen").posture, Posture::Down);
        assert_eq!(shown_flag(bearer(&p, "chen")), None);
        assert!(bearer(&p, "lin").cut_off);
        s.apply(Command::RevokeLease).expect("valid");
        let p = look(&s, &mut m);
        assert_eq!(p.record.holder, None);
        assert_eq!((p.timer.left, p.timer.state), (0.0, TimerState::Out));
        assert_eq!(p.timer.line().0, Word::TimerOut, "the sand was run out");
        assert_eq!(p.record.token, Some(7), "the number stays; it only climbs");
        assert!(!plaque_name_struck(&p), "no name left to strike");
    }

    #[test]
    fn outside_flags_are_judged_and_hostile_labels_are_short() {
        let mut s = sim("fencing-checks");
        let mut m = Memory::default();
        s.advance_to(3_500);
        let p = look(&s, &mut m);
        assert!(p.actors.is_empty());
        let last = p.gate.recent.last().expect("a verdict");
        assert_eq!((last.from.as_deref(), last.token.as_str(), last.outcome), (None, "1", WriteOutcome::RejectedStale));
        assert_eq!(last.word(), Word::Refused);
        assert_eq!(p.gate.mark, 2);
        s.run_to_end();
        let p = look(&s, &mut m);
        assert_eq!(p.gate.recent.len(), VERDICTS_KEPT);
        assert!(p.gate.recent.iter().all(|v| v.token.chars().count() <= crate::story::picture::MAX_LABEL_CHARS));
        assert_eq!(p.gate.mark, 3);
    }

    #[test]
    fn the_voided_flag_stays_in_view_after_later_flags() {
        let mut s = sim("harbor-zombie");
        s.run_to_end();
        let mut m = Memory::default();
        let p = look(&s, &mut m);
        assert_eq!(p.gate.recent.len(), VERDICTS_KEPT);
        let void = p.gate.recent.iter().find(|v| v.outcome == WriteOutcome::RejectedStale);
        let void = void.expect("Chen's voided 7 is still on the line at the end of the run");
        assert_eq!((void.from.as_deref(), void.token.as_str()), (Some("chen"), "7"));
        let last = p.gate.recent.last().expect("verdicts");
        assert_eq!(last.from.as_deref(), Some("lin"), "newer flags still come in behind it");
    }

    /// The boat also runs aground when nobody granted the newer number it had obeyed: here two
    /// messengers from outside, with fencing off, in the field notes' order (2, then 1).
    #[test]
    fn an_older_number_obeyed_after_a_newer_one_wrecks_the_boat_even_without_grants() {
        let mut s = sim("fencing-checks");
        s.apply(Command::SetFencing { on: false }).expect("valid");
        s.advance_to(2_500);
        let mut m = Memory::default();
        assert!(look(&s, &mut m).outcome.collision.is_none(), "1 then 2 is in order");
        s.advance_to(3_000);
        let c = look(&s, &mut m).outcome.collision.expect("1 obeyed after 2");
        assert_eq!((c.at_ms, c.from, c.token, c.newer), (3_000, None, 1, 2));
    }
}
