//! The translation table.
//!
//! Each table is an enum whose `text` method matches every variant to its English and
//! Simplified Chinese text, so a string missing in either language does not compile. Texts may
//! hold `{name}`-style placeholders, replaced by [`fill`]. The page does not carry the texts:
//! it loads the translation pack of its language (`assets/i18n/*.json`, see [`super::packs`]).

use crate::vocab::Lang;

/// Replaces each `{key}` in `template` with its value. Unknown placeholders stay as they are.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_owned();
    for (key, value) in values {
        out = out.replace(&format!("{{{key}}}"), value);
    }
    out
}

/// A moment of the run in seconds with one decimal, rounded, e.g. `61.5` for 61 537 ms: how
/// every time a learner reads is written (the log, the scene, the panel, the notes, the clock).
/// Integer arithmetic: no float formatting code in the page.
pub fn seconds(ms: u64) -> String {
    let tenths = ms.saturating_add(50) / 100;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// A duration in seconds with as many decimals as it needs, at most three, e.g. `0.26` for
/// 260 ms, `15` for 15 000 ms: exact, without trailing zeros.
pub fn span(ms: u64) -> String {
    let (whole, frac) = (ms / 1000, ms % 1000);
    if frac == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{}", format!("{frac:03}").trim_end_matches('0'))
    }
}

/// Declares [`Ui`], its `[en, zh]` texts, [`Ui::ALL`] and [`Ui::LATER`] from one list, so a
/// variant without both texts, or missing from `ALL`, cannot exist. An entry marked `#[later]` is
/// shown only by the parts of the page that come after the first scene (`ui::later`, the
/// lessons, the files, the technical tab): the page loads its text with them. What a fable calls
/// things is not here but in its own module ([`crate::fables`]).
macro_rules! ui_table {
    (@later later) => { true };
    (@later) => { false };
    ($( $(#[$part:ident])? $name:ident => [$en:expr, $zh:expr], )*) => {
        /// Every piece of text the app's own chrome shows (the scene, the panel, the controls).
        /// Story lines of the log come from [`crate::story::narrate`]; titles of scenarios from
        /// their files.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Ui {
            $( $name, )*
        }

        impl Ui {
            /// Every variant, in declaration order.
            pub const ALL: &'static [Ui] = &[ $( Ui::$name, )* ];

            /// Whether each variant (by declaration order) is shown only by the parts of the page
            /// that come after the first scene (marked `#[later]` in the table): its text is then
            /// in the later part of the translation pack (`super::packs`).
            pub const LATER: &'static [bool] = &[ $( ui_table!(@later $($part)?), )* ];

            /// The text in `lang`. May hold `{name}` placeholders for [`fill`].
            pub fn text(self, lang: Lang) -> &'static str {
                // The page reads its texts from the translation pack it loaded
                // (`super::packs`); native builds carry the table.
                #[cfg(target_arch = "wasm32")]
                {
                    super::packs::ui_text(lang, self)
                }
                #[cfg(not(target_arch = "wasm32"))]
                {
                    // A table indexed by the variant, not a `match`: data instead of code.
                    const TEXTS: &[[&str; 2]] = &[ $( [$en, $zh], )* ];
                    TEXTS.get(self as usize).map_or("", |pair| lang.pick(*pair))
                }
            }
        }
    };
}

ui_table! {
    // ----- page -----
    AppTitle => ["LeaseLab", "LeaseLab 租约实验室"],
    SwitchLanguage => ["中文", "English（英文）"],
    SwitchLanguageHint => ["Show the page in Simplified Chinese", "将页面切换为英文"],
    #[later] Scenario => ["Scenario", "场景"],
    // ----- embedding (issue 4) -----
    #[later] Embed => ["Embed this", "嵌入本页"],
    #[later] EmbedHint => ["An <iframe> that shows this run in your own page (see docs/embed.md)",
                  "一段 <iframe> 代码，可把这一轮嵌入你自己的网页（见 docs/embed.md）"],
    #[later] EmbedCodeLabel => ["Embed code", "嵌入代码"],
    #[later] UrlBadFlag => ["“{name}={value}” is not 1 or 0.", "“{name}={value}”不是 1 或 0。"],
    #[later] UrlBadControls => ["“controls={value}” is not none, play or full; showing play.",
                       "“controls={value}”不是 none、play 或 full；按 play 显示。"],
    #[later] UrlBadOrigin => ["“origin={value}” is not an exact origin such as https://docs.example.org; it is ignored.",
                     "“origin={value}”不是 https://docs.example.org 这样的确切来源，已忽略。"],
    // ----- controls -----
    Play => ["Play", "播放"],
    Pause => ["Pause", "暂停"],
    PlayHint => ["Let virtual time run", "让虚拟时间流动"],
    Step => ["Step", "单步"],
    StepHint => ["Run the engine to its next event", "让引擎走到下一个事件"],
    Reset => ["Reset", "重来"],
    ResetHint => ["Start this scenario again from 0 s", "从 0 秒重新开始本场景"],
    Speed => ["Speed", "速度"],
    SpeedHint => ["Virtual seconds per real second", "每一真实秒推进的虚拟秒数"],
    VirtualTime => ["Virtual time", "虚拟时间"],
    SecondsUnit => ["s", "秒"],
    FencingNoToken => ["This store issues no fencing token, so there is nothing to check", "这种存储不发放围栏令牌，没有什么可核对"],
    #[later] FencingHint => ["SetFencing: turn the resource's token check on or off",
                    "SetFencing：打开或关闭资源端的令牌核对"],
    // ----- flag-bearers -----
    Sleep => ["Put to sleep", "让其睡着"],
    Wake => ["Wake up", "叫醒"],
    #[later] StoryAwake => ["awake", "醒着"],
    #[later] StoryAsleep => ["asleep", "睡着了"],
    #[later] TechLeader => ["leader", "leader（主）"],
    #[later] TechCandidate => ["candidate", "candidate（候选者）"],
    #[later] TechPaused => ["paused (process frozen)", "paused（进程被冻结）"],
    #[later] TechCrashed => ["crashed", "crashed（已崩溃）"],
    #[later] TechNotStarted => ["not started", "未启动"],
    #[later] TechPartitioned => ["partitioned", "partitioned（网络分区）"],
    #[later] TechToken => ["token {n}", "令牌 {n}"],
    #[later] TechWritesSent => ["writes sent: {n}", "已发写入：{n}"],
    // ----- the scene -----
    // ----- the technical panel -----
    #[later] PanelTitle => ["The same state, technically", "同一状态的技术视角"],
    #[later] ColStory => ["In the story", "故事里"],
    #[later] ColConcept => ["Concept", "概念"],
    #[later] ColNow => ["Now", "当前值"],
    #[later] RowNameChanges => ["Times the name changed", "换人的次数"],
    #[later] ConceptHolder => ["holderIdentity", "holderIdentity（持有者）"],
    #[later] ConceptDuration => ["leaseDurationSeconds (TTL)", "leaseDurationSeconds（租约时长 TTL）"],
    #[later] ConceptAcquire => ["acquireTime", "acquireTime（获取时间）"],
    #[later] ConceptRenew => ["renewTime (heartbeat)", "renewTime（续约心跳）"],
    #[later] ConceptRemaining => ["renewTime + duration − now", "renewTime + 时长 − 当前时间"],
    #[later] ConceptTransitions => ["leaseTransitions", "leaseTransitions（换主次数）"],
    #[later] ConceptToken => ["fencing token (term)", "fencing token（围栏令牌 / 任期）"],
    #[later] ConceptHighWater => ["resource high-water mark", "资源端高水位（见过的最大令牌）"],
    #[later] ConceptValue => ["resource value (last accepted write)", "资源的值（最后接受的写入）"],
    #[later] ConceptFencing => ["fencing check", "围栏校验（fencing）"],
    #[later] ConceptEqualPolicy => ["equal-token policy", "同令牌策略"],
    #[later] ConceptAcceptedRejected => ["writes accepted / rejected", "写入接受 / 拒绝数"],
    #[later] On => ["on", "开"],
    #[later] Off => ["off", "关"],
    #[later] Nothing => ["none", "无"],
    #[later] Expired => ["expired", "已过期"],
    #[later] PolicyAccept => ["accept: a term may write again", "accept：同一任期可多次写入"],
    #[later] PolicyReject => ["reject: needs a newer number", "reject：必须是更大的编号"],
    #[later] PolicyDedupe => ["dedupe: the same op applies once", "dedupe：同一操作只生效一次"],
    #[later] ValueFrom => ["{value} (from {who}, No. {n})", "{value}（来自{who}，{n} 号）"],
    SecondsValue => ["{s} s", "{s} 秒"],
    // ----- who stands for what -----
    #[later] LegendTitle => ["Who stands for what", "谁代表什么"],
    // ----- the log -----
    #[later] HideMinor => ["Hide routine rows", "隐藏例行记录"],
    #[later] LogEmpty => ["Nothing has happened yet. Press Play or Step.", "还什么都没发生。按“播放”或“单步”。"],
    #[later] LogTrimmed => ["Older rows are not shown.", "更早的记录未显示。"],
    #[later] NewestFirst => ["newest first", "最新的在上面"],
    // ----- the address bar -----
    #[later] UrlWarningTitle => ["Some settings in the address could not be used as given:",
                        "地址栏里有些参数无法按原样使用："],
    Dismiss => ["Dismiss", "知道了"],
    #[later] UrlBadScenario => ["there is no scenario “{value}”; showing “{default}”",
                       "没有名为“{value}”的场景，改为显示“{default}”"],
    #[later] UrlBrokenScenario => ["the scenario “{value}” could not be loaded ({error}); showing “{default}”",
                          "场景“{value}”无法载入（{error}），改为显示“{default}”"],
    #[later] UrlBadLang => ["unknown language “{value}”; using English", "未知语言“{value}”，改用英文"],
    #[later] UrlBadSpeed => ["speed “{value}” is not a number from 0.25 to 64; using 1×",
                    "速度“{value}”不是 0.25 到 64 之间的数，改用 1×"],
    #[later] UrlSpeedRounded => ["speed “{value}” lies between the slider's steps (0.25, 0.5, 1, 2 … 64); using {used}",
                        "速度“{value}”不在滑块的档位上（0.25、0.5、1、2……64），改用 {used}"],
    #[later] UrlBadAutoplay => ["autoplay “{value}” should be 1 or 0; starting paused",
                       "autoplay“{value}”应为 1 或 0，改为暂停状态开始"],
    NoScenarioAtAll => ["No scenario could be loaded: {error}", "没有任何场景能够载入：{error}"],
    // ----- the real protocols (issue 3, engine side) -----
    #[later] TechOwnClock => ["own clock {reads} s", "自己的时钟 {reads} 秒"],
    #[later] TechClockRate => ["runs at {rate}×", "走速 {rate}×"],
    #[later] TechIdentity => ["holderIdentity {identity}", "持有者身份 holderIdentity {identity}"],
    #[later] TechObservedWait => ["judges the lease expired in {s} s (observedTime + leaseDuration, own clock)",
                         "{s} 秒后按自己的时钟判定租约过期（observedTime + leaseDuration）"],
    #[later] TechZombie => ["work still writing with token {n}", "工作仍在用令牌 {n} 写入"],
    #[later] ConceptStoreClock => ["store clock (judges expiry)", "存储的时钟（判定过期）"],
    #[later] ConceptExpiry => ["expiry judged by", "过期由谁判定"],
    #[later] ExpiryStore => ["the store, on its own clock", "存储，按它自己的时钟"],
    #[later] ExpiryObserver => ["each candidate, observedTime + leaseDuration on its own clock (client-go)",
                       "每个候选者，按自己的时钟 observedTime + leaseDuration（client-go）"],
    #[later] StoreClockJump => ["Jump the store's clock +1 min", "把存储的时钟拨快 1 分钟"],
    #[later] StoreClockJumpHint => ["NTP steps the store's clock forward a minute: every lease whose expiry falls in that minute ends at once",
                           "NTP 把存储的时钟向前拨 1 分钟：到期时间落在这一分钟内的租约立即结束"],
    // ----- the space-time diagram (issue 4) -----
    #[later] DiagramTitle => ["Who believed what, and when", "谁在何时相信了什么"],
    #[later] DiagramSpan => ["Window", "时间窗"],
    #[later] DiagramHint => ["One lane per process; arrows are messages from send to arrival. Point at an element for its details (or focus the diagram and use ← → and Enter); click to move the run there.",
                    "每个进程一条泳道；箭头是消息，从发出到到达。指向某个元素可看详情（或聚焦图后用 ← → 和回车）；点击即可把运行移到那一刻。"],
    #[later] DiagramWholeRun => ["whole run", "整个运行"],
    #[later] DiagramBelieves => ["believes it leads, token {token}", "自认为是领导者，令牌 {token}"],
    #[later] DiagramZombie => ["no longer leads, but its work writes with token {token}", "已不是领导者，但工作仍用令牌 {token} 写入"],
    #[later] DiagramPaused => ["frozen (paused)", "冻结（暂停）"],
    #[later] DiagramCrashed => ["crashed", "已崩溃"],
    #[later] DiagramCut => ["cut off", "断开"],
    #[later] DiagramHolds => ["{name} holds the lease with token {token}, by the store's own clock", "按存储自己的时钟，{name}持有租约，令牌 {token}"],
    #[later] DiagramGrant => ["granted: token {token}", "授予：令牌 {token}"],
    #[later] DiagramExpired => ["expired on the store's clock", "按存储的时钟已过期"],
    #[later] DiagramRevoked => ["revoked", "被撤销"],
    #[later] DiagramReleased => ["released by its holder", "持有者释放"],
    #[later] DiagramDeleted => ["deleted by someone else's plain DEL", "被别人不带检查的 DEL 删除"],
    #[later] DiagramLost => ["lost", "丢失"],
    #[later] DiagramAccepted => ["accepted", "已接受"],
    #[later] DiagramRefused => ["refused", "被拒绝"],
    #[later] DiagramBlocked => ["refused, though it was the rightful term: the lock is shut out", "被拒绝，可它才是合法的任期：这把锁被堵死了"],
    #[later] DiagramDuplicate => ["duplicate: applied once", "重复：只执行一次"],
    #[later] DiagramViolation => ["accepted: a violation", "被接受：违规"],
    // ----- share links (issue 4) -----
    #[later] UrlBadLink => ["The link's interventions could not be replayed ({error}); the scenario plays without them",
                   "链接中的干预无法重放（{error}）；场景将不带这些干预播放"],
    #[later] UrlNewerLink => ["This link was made by a newer LeaseLab (version “{value}”); the scenario plays without its interventions",
                     "这个链接来自更新版本的 LeaseLab（版本“{value}”）；场景将不带其中的干预播放"],
    #[later] UrlBadTime => ["t “{value}” is not a moment of the run (a whole number of milliseconds); starting at 0 s", "t“{value}”不是本次运行中的时刻（应为整数毫秒）；从 0 秒开始"],
    #[later] UrlTimeAfterEnd => ["The moment in the address, {at} s, is after the end of this run ({end} s); the playhead is at the end", "地址里的时刻 {at} 秒已超过本次运行的结尾（{end} 秒）；播放头停在结尾"],
    #[later] Share => ["Share link", "分享链接"],
    #[later] ShareHint => ["A link that replays exactly this run: the scenario, your interventions, this moment, the fable, view, speed and language",
                  "一个能精确重放此次运行的链接：场景、你的干预、此刻、寓言、视图、速度和语言"],
    #[later] ShareLinkLabel => ["Copy this link", "复制此链接"],
    // ----- compare, import, export (issue 4) -----
    #[later] UrlBadScenarioLink => ["The scenario in the link could not be read ({error}); showing “{default}”",
                           "链接里的场景无法读取（{error}）；改为显示“{default}”"],
    #[later] CompareLabel => ["Compare with", "对照"],
    #[later] CompareOff => ["no other run", "不对照"],
    #[later] CompareFencing => ["fencing flipped", "翻转围栏检查"],
    #[later] CompareBarrier => ["epoch barrier flipped", "翻转纪元屏障"],
    #[later] CompareRelease => ["release check flipped", "翻转释放检查"],
    #[later] CompareExpiry => ["expiry judge flipped", "翻转过期判定方"],
    #[later] CompareStore => ["the other store (Redis ↔ etcd)", "换一种存储（Redis ↔ etcd）"],
    #[later] CompareRenew => ["the other renewal (client-go's retries ↔ give up at the first refusal)", "换一种续约方式（client-go 重试到期限 ↔ 第一次被拒就放弃）"],
    #[later] CompareHint => ["Play the same scenario, seed and interventions with one setting flipped, and see where the two runs first part",
                    "用同一场景、同一种子和同样的干预，只翻转一个设置再跑一遍，看两次运行从哪里开始分岔"],
    #[later] SettingFencingOn => ["fencing on", "围栏检查开"],
    #[later] SettingFencingOff => ["fencing off", "围栏检查关"],
    #[later] SettingBarrierOn => ["epoch barrier on", "纪元屏障开"],
    #[later] SettingBarrierOff => ["epoch barrier off", "纪元屏障关"],
    #[later] SettingReleaseOwner => ["owner-checked release", "带持有者检查的释放"],
    #[later] SettingReleasePlain => ["plain DEL release", "不带检查的 DEL 释放"],
    #[later] SettingExpiryObserver => ["observer expiry (client-go)", "观察者判定过期（client-go）"],
    #[later] SettingExpiryStore => ["the store judges expiry", "由存储判定过期"],
    #[later] SettingStoreRedis => ["on Redis", "在 Redis 上"],
    #[later] SettingStoreEtcd => ["on etcd", "在 etcd 上"],
    #[later] SettingRenewRetry => ["retrying refused renewals until RenewDeadline", "续约被拒后一直重试到 RenewDeadline"],
    #[later] SettingRenewGiveUp => ["giving up at the first refused renewal", "续约第一次被拒就放弃"],
    #[later] CompareRuns => ["As the scenario starts: this run {this} · the other run {other}", "场景开始时：本次运行{this} · 对照运行{other}"],
    #[later] CompareFirstDiff => ["First difference at t = {t} s", "首个差异：t = {t} 秒"],
    #[later] CompareParted => [" · ≠ the runs part at {t} s", " · ≠ 两次运行在 {t} 秒分开"],
    #[later] CompareThis => ["this run: {what}", "本次运行：{what}"],
    #[later] CompareOther => ["the other run: {what}", "对照运行：{what}"],
    #[later] CompareEnded => ["the run has ended", "运行已结束"],
    #[later] CompareSent => ["{from} sends {what}, to arrive at {arrive} s", "{from}发出{what}，将在 {arrive} 秒到达"],
    #[later] CompareUnnarrated => ["an event the log does not tell ({kind})", "日志不讲述的事件（{kind}）"],
    #[later] CompareSeek => ["Go there", "跳到那里"],
    #[later] CompareSeekHint => ["Move both runs to the first difference", "把两次运行都移到首个差异处"],
    #[later] CompareSame => ["The two runs never part: in this run the setting does not matter",
                    "两次运行从未分岔：在这次运行里，这个设置不起作用"],
    #[later] CompareSummary => ["At {t} s: this run: accepted {a}, refused {r}, violations {v} · the other run: accepted {a2}, refused {r2}, violations {v2}",
                       "{t} 秒时：本次运行 接受 {a}、拒绝 {r}、违规 {v} · 对照运行 接受 {a2}、拒绝 {r2}、违规 {v2}"],
    #[later] CompareDiagram => ["The other run", "对照运行"],
    #[later] DiagramDiverge => ["first difference from the other run", "与对照运行的首个差异"],
    #[later] ImportScenario => ["Import scenario…", "导入场景…"],
    #[later] ImportHint => ["Load a scenario file (leaselab.scenario/1); it is checked exactly as the command-line runner checks it",
                   "载入场景文件（leaselab.scenario/1）；检查方式与命令行运行器完全相同"],
    #[later] ImportError => ["“{file}” was not loaded: {error}. The run goes on unchanged.",
                    "“{file}”未能载入：{error}。当前运行保持不变。"],
    #[later] Imported => ["{title} (imported)", "{title}（导入）"],
    #[later] ExportScenario => ["Export scenario", "导出场景"],
    #[later] ExportScenarioHint => ["Download this run as a scenario file: the scenario with your interventions at their times; `leaselab run FILE` replays it to the same trace hash",
                           "把这次运行下载为场景文件：场景加上你在各时刻的干预；`leaselab run FILE` 会重放出相同的 trace hash"],
    #[later] ExportReport => ["Export report", "导出报告"],
    #[later] ExportReportHint => ["Download the report of this run played to its end (leaselab.report/1), as the command-line runner prints it",
                         "下载这次运行跑到结束时的报告（leaselab.report/1），与命令行运行器输出的相同"],
    #[later] ExportShiviz => ["Export ShiViz log", "导出 ShiViz 日志"],
    #[later] ExportShivizHint => ["Download this run played to its end as a ShiViz log (a vector clock on every event), to open in ShiViz",
                         "把这次运行跑到结束后下载为 ShiViz 日志（每个事件带向量时钟），可在 ShiViz 中打开"],
    #[later] ExportHistory => ["Export history", "导出历史"],
    #[later] ExportHistoryHint => ["Download this run played to its end as a Jepsen-style history (invoke, ok, fail, info per operation, one EDN map per line)",
                          "把这次运行跑到结束后下载为 Jepsen 风格的历史（每个操作的 invoke、ok、fail、info，每行一个 EDN 映射）"],
    // ----- time travel (issue 4) -----
    StepBack => ["◀ Back", "◀ 后退"],
    StepBackHint => ["Back to the previous engine event", "退回到上一个引擎事件"],
    Scrub => ["Time", "时间"],
    ScrubHint => ["Drag to any moment of the run; acting in the past starts a new future from there",
                  "拖到运行中的任意时刻；在过去采取行动，会从那一刻起开出一个新的未来"],
    #[later] OutcomeRejectedForeign => ["refused: another lock's token", "拒绝：别的锁的令牌"],
    ViolationLockDeleted => ["At {t} s {who}'s release deleted the lock {holder} held with token {token}: a plain DEL removed a lock it did not own.",
                             "{t} 秒时，{who}的释放删掉了{holder}以令牌 {token} 持有的锁：一个不带检查的 DEL 删除了不属于它的锁。"],
    ViolationForeignToken => ["At {t} s the resource accepted a write from {who} with token {token}, issued by another lock ({lock}).",
                              "{t} 秒时，资源接受了{who}带令牌 {token} 的写入，而这个令牌出自另一把锁（{lock}）。"],

    // ----- the technical view, the resource table and the violations panel (issue 3, tech-view) -----
    #[later] TechViewTitle => ["The lease as real systems show it", "真实系统眼中的这份租约"],
    #[later] TechViewPicker => ["Show as", "显示为"],
    #[later] TechViewPickerHint => ["The coordinator's record, printed the way each system's own tool would print it",
                           "协调者的记录，按各系统自带工具的输出格式显示"],
    #[later] TechViewK8s => ["Kubernetes Lease", "Kubernetes Lease 对象"],
    #[later] TechViewRedis => ["Redis lock key", "Redis 锁键"],
    #[later] TechViewEtcd => ["etcd lock key and lease", "etcd 锁键与租约"],
    #[later] TechNoteStore => ["This run's store behaves like {store}: {rules}.",
                      "本次运行的存储按 {store} 的规则工作：{rules}。"],
    #[later] StoreRulesRedis => ["a key is still live at its expiry millisecond and gone the next; a renewal is a compare-and-PEXPIRE that checks the key's value; tokens come from INCR on the lock's counter; expiry follows the store's wall clock, so stepping it expires keys",
                        "键在到期的那一毫秒仍然有效，下一毫秒才消失；续约是先比较键值再 PEXPIRE；令牌来自对锁计数器的 INCR；过期跟随存储的墙上时钟，时钟一跳，键就过期"],
    #[later] StoreRulesEtcd => ["a lease has ended at its expiry millisecond, but the lessor deletes its key only at its next check, made every half second, and until then nobody else can take it; TTLs are whole seconds, at least 2 s; a keepalive renews the lease, not the key; tokens are revisions, which every write to the store moves on; expiry follows a monotonic clock that a step of the wall clock does not move",
                       "租约在到期的那一毫秒就结束了，但租约管理器每半秒巡查一次，要到下一次巡查才删掉它的键，在那之前谁也拿不到；TTL 以整秒计，至少 2 秒；保活（keepalive）续的是租约而不是键；令牌是修订号，存储里的每一次写入都会让它前进；过期跟随单调时钟，墙上时钟跳变不会影响它"],
    #[later] StoreRulesK8s => ["the API server only stores the Lease and compare-and-swaps on its resourceVersion; each candidate judges expiry on its own monotonic clock, a full leaseDurationSeconds (the record's) after it saw the record change; the leader renews every RetryPeriod and retries a refused renewal until RenewDeadline, believing it leads all the while; there is no fencing token, and leaseTransitions only counts changes of holder",
                      "API 服务器只保存 Lease，按 resourceVersion 做 compare-and-swap；每个候选者用自己的单调时钟判断过期：看到记录变化后，等满（记录里的）leaseDurationSeconds；领导者每个 RetryPeriod 续约一次，续约被拒就一直重试到 RenewDeadline，这期间它始终相信自己是领导者；没有围栏令牌，leaseTransitions 只数换主的次数"],
    StoreSays => ["{store}: {line}", "{store} 存储：{line}"],
    AtResource => ["At {res}: {line}", "在 {res}：{line}"],
    ResourceSays => ["Resource {res}: {line}", "资源 {res}：{line}"],
    VerdictAt => ["{who}, at {res}", "{who}，在 {res}"],
    ResourceMarks => ["marks: {list}", "高水位：{list}"],
    #[later] TechNoteTimes => ["Times are virtual: T+12.345s means 12.345 s after the run began.",
                      "时间是虚拟的：T+12.345s 表示本轮开始后 12.345 秒。"],
    #[later] TechNoteK8sToken => ["LeaseLab's fencing token: {token}. It is not part of the Lease object: Kubernetes issues no fencing token, and leaseTransitions is not one.",
                         "LeaseLab 的围栏令牌：{token}。它不属于 Lease 对象：Kubernetes 不发放围栏令牌，leaseTransitions 也不能充当令牌。"],
    #[later] TechNoteK8sMissing => ["No Lease object yet: client-go creates it with the first successful acquire.",
                           "还没有 Lease 对象：client-go 在第一次成功获取时才创建它。"],
    #[later] TechNoteK8sNoHolder => ["No holderIdentity: the lease was revoked, and the next acquire will start a new term.",
                            "没有 holderIdentity：租约已被撤销，下一次获取将开始新的任期。"],
    #[later] TechNoteK8sExpired => ["renewTime + leaseDurationSeconds passed at {at}: the lease has expired, yet Kubernetes keeps holderIdentity until another candidate takes the Lease.",
                           "renewTime + leaseDurationSeconds 已在 {at} 过去：租约已过期，但在另一个候选者接手之前，Kubernetes 仍保留 holderIdentity。"],
    #[later] TechNoteWholeSeconds => ["{system} counts this duration in whole seconds (rounded up here); this scenario's lease lasts {s} s.",
                             "{system} 以整秒计这个时长（此处向上取整）；本场景的租约时长为 {s} 秒。"],
    #[later] TechNoteRedisValue => ["Redis has no fencing token of its own: the token {token} comes from INCR on the lock's counter key, and the value carries the holder and that token. The key was set with SET … NX PX {ttl}, and each renewal resets its TTL.",
                           "Redis 本身没有围栏令牌：令牌 {token} 来自对这把锁计数器键的 INCR，键值里带着持有者和这个令牌。该键由 SET … NX PX {ttl} 写入，每次续约都会重置它的 TTL。"],
    #[later] TechNoteRedisGone => ["No key: nobody holds the lock, or its TTL ran out and Redis deleted it, so GET answers (nil) and PTTL answers -2.",
                          "没有这个键：无人持锁，或者 TTL 耗尽后 Redis 已删除它，所以 GET 返回 (nil)，PTTL 返回 -2。"],
    #[later] TechNoteEtcdRevision => ["CreateRevision is the fencing token: the store revision that created the key. Keep-alives renew the lease without modifying the key, so ModRevision stays the same.",
                             "CreateRevision 就是围栏令牌：创建该键时的存储修订号。续租（keep-alive）只续租约、不修改键，所以 ModRevision 不变。"],
    #[later] TechNoteEtcdGone => ["No key: when a lease expires or is revoked, etcd deletes the keys attached to it.",
                         "没有键：租约过期或被撤销时，etcd 会删除挂在它上面的键。"],
    #[later] TechNoteNoGrant => ["Nobody has been granted the lease yet.", "还没有人获得过租约。"],
    #[later] ResourceTitle => ["The fenced resource", "受围栏保护的资源"],
    #[later] ResHighWater => ["high-water mark", "高水位"],
    #[later] ResAccepted => ["writes accepted", "接受的写入"],
    #[later] ResRefused => ["writes refused", "拒绝的写入"],
    #[later] ResLastWrites => ["Last writes judged, newest first", "最近判定的写入（最新的在上面）"],
    #[later] ResColOp => ["op id", "操作 id"],
    #[later] ResColFrom => ["from", "来自"],
    #[later] ResColToken => ["token", "令牌"],
    #[later] ResColOutcome => ["outcome", "结果"],
    #[later] ResColMark => ["mark before → after", "高水位 前 → 后"],
    #[later] ResNoWrites => ["No write has reached the resource yet.", "还没有写入到达资源。"],
    #[later] OutcomeAccepted => ["accepted", "accepted（接受）"],
    #[later] OutcomeRejectedStale => ["rejected_stale", "rejected_stale（令牌过旧）"],
    #[later] OutcomeRejectedInvalid => ["rejected_invalid", "rejected_invalid（令牌无效）"],
    #[later] OutcomeDuplicate => ["duplicate", "duplicate（重复操作）"],
    #[later] ViolationsTitle => ["Safety violations found by the oracle", "检查器发现的安全违规"],
    #[later] NoViolations => ["No violations so far.", "到目前为止没有违规。"],
    #[later] AskWaits => ["A question below: the run waits for your answer", "下面有个问题：运行在等你回答"],
    #[later] NoViolationsInRun => ["No violations in this run.", "这次运行中没有违规。"],
    #[later] SharedTokenNote => ["{a} and {b} both wrote with token {token} (the second from {s} s), and both writes were accepted. The oracle counts none of it: no write was older than the newest token, none went backwards, none was applied twice. A fence cannot tell two holders of one token apart; refusing equal tokens would stop the second.",
                        "{a}和{b}都用令牌 {token} 写入（后者从 {s} 秒起），两边都被接受。检查器不把这算作违规：没有哪次写入的令牌比最新的旧，没有倒退，也没有重复执行。围栏分不清持有同一令牌的两个持有者；拒收相等的令牌才能挡住后一个。"],
    #[later] ViolationsEarlier => ["{n} earlier violations are not shown.", "另有 {n} 条更早的违规未显示。"],
    AnOutsideClient => ["an outside client", "外部客户端"],
    ViolationStaleUnseen => ["At {t} s the resource accepted a write from {who} with token {token} although token {newest} had been granted; it had not seen {newest} yet.",
                             "{t} 秒时，资源接受了{who}带令牌 {token} 的写入，尽管令牌 {newest} 已经授予；它当时还没见过 {newest}。"],
    ViolationStaleForgotten => ["At {t} s the resource accepted a write from {who} with token {token} although token {newest} had been granted: it had accepted a newer token before, but its high-water mark was lost since.",
                                "{t} 秒时，资源接受了{who}带令牌 {token} 的写入，尽管令牌 {newest} 已经授予：它之前接受过更新的令牌，但高水位后来丢失了。"],
    ViolationStaleSeen => ["At {t} s the resource accepted a write from {who} with token {token} although token {newest} had been granted and it had already accepted a newer token: with no fencing check, two leaders' writes both took effect.",
                           "{t} 秒时，资源接受了{who}带令牌 {token} 的写入，尽管令牌 {newest} 已经授予，而且它之前已接受过更新的令牌：没有围栏校验，两个 leader 的写入都生效了。"],
    ViolationRegression => ["At {t} s the resource accepted a write from {who} with token {token}, below {highest}, the largest token it had ever accepted: its tokens went backwards.",
                            "{t} 秒时，资源接受了{who}带令牌 {token} 的写入，低于它曾接受过的最大令牌 {highest}：令牌倒退了。"],
    ViolationDuplicate => ["At {t} s operation {op} from {who} took effect a second time: a retried write was applied twice (fencing is not idempotency).",
                           "{t} 秒时，{who}的操作 {op} 第二次生效：一次重试的写入被执行了两次（围栏不等于幂等）。"],
    ViolationInvalid => ["At {t} s the resource accepted a write from {who} with no valid token ({token}): with fencing off, nothing checked it.",
                         "{t} 秒时，资源接受了{who}不带有效令牌（{token}）的写入：围栏已关闭，没有任何检查。"],
    #[later] UrlBadView => ["unknown technical view “{value}” (use k8s, redis or etcd); showing the Kubernetes Lease",
                   "未知的技术视图“{value}”（可用 k8s、redis 或 etcd），改为显示 Kubernetes Lease"],
    // ----- the lantern scene (issue 3): the fable picker, the lantern's words for the shared
    // chrome (see `story::fables`), and the lantern scene itself -----
    #[later] FablePicker => ["Fable", "寓言"],
    #[later] FablePickerHint => ["Tell the same run as the harbor or as the lantern; the run goes on unchanged",
                        "用渔港或夜灯讲述同一次运行；运行本身不受影响"],
    #[later] UrlBadFable => ["unknown fable “{value}”; telling the scenario's own, “{default}”",
                    "未知寓言“{value}”，改用场景自带的“{default}”"],
    // ----- colour theme (issue 4): the header's button and the URL's `theme=` -----
    ThemeAuto => ["◐ Auto", "◐ 跟随系统"],
    ThemeLight => ["☀ Light", "☀ 浅色"],
    ThemeDark => ["☾ Dark", "☾ 深色"],
    ThemeHint => ["Colour theme: follow the system, light or dark (click to change)",
                  "配色：跟随系统、浅色或深色（点击切换）"],
    #[later] UrlBadTheme => ["unknown theme “{value}” (use auto, light or dark); following the system",
                    "未知配色“{value}”（可用 auto、light 或 dark），改为跟随系统"],
    #[later] UrlBadPacing => ["unknown pacing “{value}” (use story or true); playing in story time",
                     "未知节奏“{value}”（可用 story 或 true），按故事时间播放"],
    #[later] ShareTooLarge => ["No link can carry this run: its imported scenario is too large for an address. Use Export scenario instead.",
                      "没有链接装得下这一轮：导入的场景太大，放不进网址。请改用“导出场景”。"],
    PackFailed => ["The page's texts in the other language could not be loaded: {error}",
                   "无法加载另一种语言的页面文字：{error}"],
    NarratorEarlier => ["{n} earlier events, then:", "此前还有 {n} 个事件，随后："],
    // ----- workshop mode (issue 5): shortcuts, the `?` overlay, presenter mode -----
    #[later] KeysTitle => ["Keyboard shortcuts", "键盘快捷键"],
    KeysHint => ["Keyboard shortcuts (?)", "键盘快捷键（?）"],
    #[later] KeyPlay => ["Play or pause (reveal, while the audience thinks)", "播放或暂停（观众思考时：揭晓）"],
    #[later] KeyStep => ["One engine event forward", "前进一个引擎事件"],
    #[later] KeyStepBack => ["One engine event back", "后退一个引擎事件"],
    #[later] KeySpeed => ["Faster, slower", "加速、减速"],
    #[later] KeyPauseLeader => ["Put the leader to sleep, or wake the one asleep", "让 leader 睡着，或叫醒睡着的那位"],
    #[later] KeyRunSandOut => ["Run the sand out (revoke the lease)", "让沙漏漏尽（撤销租约）"],
    #[later] KeyFencing => ["Fencing on or off", "开启或关闭围栏"],
    KeyPacing => ["Story time (messages slowed so they are seen travelling) or true time",
                  "故事时间（放慢消息，让人看清它们在路上）或真实时间"],
    #[later] KeyNextStep => ["Next lesson step (a presenter remote's next)", "课程的下一步（翻页笔的下一页）"],
    #[later] KeyPrevStep => ["Previous lesson step", "课程的上一步"],
    #[later] KeyReset => ["Start the step again (outside a lesson: the scenario)", "重新开始这一步（不在课程中：重来本场景）"],
    #[later] KeyScenario => ["Play built-in scenario 1 to 9", "播放第 1 到 9 个内置场景"],
    #[later] KeyPresenter => ["Presenter mode: large, full screen", "演示模式：大字、全屏"],
    #[later] KeyControls => ["Show or hide the controls (presenter mode)", "显示或隐藏控制栏（演示模式）"],
    #[later] KeyHelp => ["This list", "这份列表"],
    #[later] KeyClose => ["Close this list; leave presenter mode", "关闭列表；退出演示模式"],
    Presenter => ["Present", "演示"],
    PresenterHint => ["Presenter mode: large type and strokes for a room, full screen, controls on C (W)",
                      "演示模式：适合教室的大字和粗线条，全屏，按 C 显示控制栏（W）"],
    ShowControls => ["Controls", "控制栏"],
    #[later] UrlBadVersion => ["“v={value}” is not a link version (links are version 1); the scenario plays without the link's interventions",
                      "“v={value}”不是链接版本（链接的版本是 1）；场景照常播放，但不带链接里的干预"],
    #[later] CompareDiffers => ["they differ in {field}: {this} here, {other} in the other run",
                       "两者的 {field} 不同：本次为 {this}，另一轮为 {other}"],
    // ----- guided lessons (issue 5) -----
    Lessons => ["Lesson", "课程"],
    NoLesson => ["— none: free play —", "— 不上课：自由探索 —"],
    #[later] LessonLeave => ["Leave the lesson", "离开课程"],
    #[later] LessonNav => ["Lesson steps", "课程步骤"],
    #[later] LessonBack => ["← Back", "← 上一步"],
    #[later] LessonNext => ["Next →", "下一步 →"],
    LessonProgress => ["Step {k} of {n}", "第 {k} 步，共 {n} 步"],
    #[later] LessonContents => ["Contents", "目录"],
    #[later] LessonWatching => ["▶ Watch the scene: the lesson goes on by itself at the moment that matters.",
                       "▶ 请看画面：到了关键的时刻，课程会自己继续。"],
    #[later] LessonPaused => ["⏸ The run is paused before the moment that matters; play it to go on.",
                     "⏸ 运行在关键时刻之前暂停了；继续播放，课程就会往下走。"],
    #[later] LessonOffPath => ["You changed the run, so the lesson waits here.",
                      "你改动了这一轮运行，所以课程停在这里等你。"],
    #[later] LessonBackToPath => ["Back to the lesson", "回到课程"],
    #[later] LessonMovingOn => ["✓ That is the moment. The lesson goes on in a few seconds; Next goes on now.",
                       "✓ 就是这一刻。几秒后课程会自己继续；按“下一步”立即继续。"],
    #[later] LessonReachedNext => ["✓ That is the moment. Press Next to go on.", "✓ 就是这一刻。按“下一步”继续。"],
    #[later] LessonDone => ["✓ This is the end of the lesson. Choose another lesson above, or leave it and play freely.",
                   "✓ 本课到此结束。可以在上方选择另一课，或离开课程自由探索。"],
    LessonNoSuchStep => ["This lesson has no step {step}: it has {n}. Showing the last one.",
                         "本课没有第 {step} 步：它一共 {n} 步。现在显示最后一步。"],
    LessonCannotOpen => ["The lesson could not be opened: {error}", "无法打开这一课：{error}"],
    PredictionRight => ["✓ You predicted it.", "✓ 你猜对了。"],
    PredictionWrong => ["✕ Not this time: you said “{choice}”.", "✕ 这次没猜中：你选的是“{choice}”。"],
    PredictionNone => ["You watched without predicting.", "你没有预测，直接看了结果。"],
    WhatHappened => ["What happened: {answer}.", "实际发生的是：{answer}。"],
    #[later] ChoiceRight => ["right answer", "正确答案"],
    #[later] ChoiceMine => ["your answer", "你的答案"],
    #[later] MetaphorStory => ["In the fable", "寓言里"],
    #[later] MetaphorConcept => ["Stands for", "代表"],
    #[later] AudienceCount => ["{s} s to think", "还有 {s} 秒思考"],
    #[later] AudienceTimeUp => ["Time is up", "时间到"],
    #[later] AudienceReveal => ["Reveal: play on", "揭晓：继续播放"],
    #[later] UrlBadLesson => ["unknown lesson “{value}”; no lesson is shown", "未知课程“{value}”，不显示课程"],
    #[later] UrlBadStep => ["“step={value}” is not a step number (1, 2, …); the lesson opens where you left it",
                   "“step={value}”不是步骤编号（1、2……），课程从你上次离开的地方打开"],
    #[later] UrlRepeated => ["“{name}” is given more than once; only the first is used: “{name}={value}”",
                    "“{name}”出现了不止一次，只用第一个：“{name}={value}”"],
    // What a lesson points at, written beside it in the scene: the field's term.
    #[later] PointHolder => ["holderIdentity", "holderIdentity（持有者）"],
    #[later] PointToken => ["fencing token", "围栏令牌"],
    #[later] PointTtl => ["lease duration (TTL)", "租约时长（TTL）"],
    #[later] PointRenewals => ["renewals (renewTime)", "续约（renewTime）"],
    #[later] PointStore => ["the lease record", "租约记录"],
    #[later] PointClasp => ["compare-and-swap", "比较并交换（CAS）"],
    #[later] PointResource => ["fenced resource", "受围栏保护的资源"],
    #[later] PointOutcome => ["the resource's writes", "资源上的写入"],
    #[later] PointShared => ["the shared resource", "共享资源"],
    // ----- the stage (issue 12): transport bar, tools menu, tabs, figures, script, landing -----
    #[later] DiagramEnlarge => ["Enlarge", "放大"],
    #[later] DiagramShrink => ["Make smaller", "缩小"],
    #[later] FiguresLabel => ["The figures in the scene: choose one to act on it", "场景中的人物和物件：选一个来操作"],
    StageLabel => ["The scene and its controls", "场景与控制"],
    TransportLabel => ["Time controls", "时间控制"],
    ClockOf => ["of {s}", "共 {s}"],
    TrueTime => ["True time", "真实时间"],
    ScriptMark => ["Scripted at {s} s: {what}", "剧本安排在 {s} 秒：{what}"],
    ScriptMarkDropped => ["Dropped from the script (was at {s} s): {what}", "已从剧本取消（原定 {s} 秒）：{what}"],
    #[later] Tools => ["☰ Scenario & tools", "☰ 场景与工具"],
    #[later] ToolsScenario => ["What plays, and how it is told", "演什么、怎么讲"],
    #[later] ToolsHint => ["Share, embed, import and export, and the world's levers", "分享、嵌入、导入导出，以及改变世界的操作"],
    #[later] ToolsShare => ["Share this run", "分享这一轮"],
    #[later] ToolsWorld => ["Change the world", "改变世界"],
    #[later] ToolsFiles => ["Scenario files", "场景文件"],
    #[later] SideLabel => ["Details of the run", "本轮详情"],
    #[later] TabLog => ["Log", "日志"],
    #[later] TabLease => ["The lease", "租约"],
    #[later] TabTechnical => ["Technical", "技术视图"],
    #[later] TabProblems => ["Violations", "违规"],
    #[later] TabProblemsCount => ["Violations ({n})", "违规（{n}）"],
    #[later] FigureActions => ["{name}: act on it", "{name}：对其操作"],
    ScriptDelay => ["the next write is held up", "下一次写入被耽搁"],
    ScriptRawWrite => ["a write arrives from outside", "外面来了一次写入"],
    ScriptRollback => ["the number counter is restored from an old backup", "编号计数器从旧备份恢复"],
    ScriptRestore => ["the resource is restored from a backup", "资源从备份恢复"],
    ScriptRestartResource => ["the resource restarts", "资源重启"],
    ScriptDropStep => ["the script's later steps are set aside", "剧本后面的步骤被取消"],
    ScriptClock => ["a clock is changed", "时钟被调动"],
    ScriptFailover => ["the lock store fails over", "锁存储故障切换"],
    #[later] ScriptAhead => ["The script is not done with {name}: {n} steps still ahead, the next at {s} s ({what}).",
                    "剧本对{name}还没演完：后面还有 {n} 步，下一步在 {s} 秒（{what}）。"],
    #[later] ScriptAheadOne => ["The script is not done with {name}: one more step, at {s} s ({what}).",
                       "剧本对{name}还没演完：还有一步，在 {s} 秒（{what}）。"],
    #[later] ScriptDrop => ["Drop the script's steps for {name}", "取消剧本里{name}的后续步骤"],
    #[later] ScriptKeep => ["Keep the script", "保留剧本"],
    LandingTitle => ["Watch a lease at work", "看租约如何运作"],
    LandingLead => ["Start with a guided lesson, or just play a story. Click any figure in the scene to act on it.",
                    "可以跟着课程一步步学，也可以直接播放故事。点击场景里的任何人物或物件，就能对它操作。"],
    LandingExplore => ["Explore on my own", "自己随便看看"],
    #[later] RecapTitle => ["What happened", "发生了什么"],
    #[later] RecapChanged => ["You changed this run, so it need not end the way the scenario tells it. The log and the violations say what happened here; Reset plays the scenario as written.", "你改动了这一轮，所以它不一定按场景原本讲的那样结束。日志和“违规”标签会说明这里实际发生了什么；点“重来”可按原剧本重放。"],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_codes() {
        assert_eq!(Lang::from_code("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::from_code("ZH_hans"), Some(Lang::Zh));
        assert_eq!(Lang::from_code("en"), Some(Lang::En));
        assert_eq!(Lang::from_code("fr"), None);
        assert_eq!(Lang::from_code(""), None);
    }

    #[test]
    fn fill_replaces_placeholders() {
        assert_eq!(fill("{a} gives {b} to {a}", &[("a", "x"), ("b", "7")]), "x gives 7 to x");
        assert_eq!(fill("{missing}", &[]), "{missing}");
    }

    fn has_cjk(s: &str) -> bool {
        s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    }

    #[test]
    fn every_ui_text_exists_in_both_languages() {
        assert!(Ui::ALL.len() > 100);
        for ui in Ui::ALL {
            let en = ui.text(Lang::En);
            let zh = ui.text(Lang::Zh);
            assert!(!en.trim().is_empty(), "{ui:?} has no English");
            assert!(has_cjk(zh), "{ui:?} has no Chinese: {zh:?}");
        }
    }

    #[test]
    fn placeholders_match_between_languages() {
        fn keys(s: &str) -> Vec<&str> {
            let mut out: Vec<&str> =
                s.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(k, _)| k)).collect();
            out.sort_unstable();
            out
        }
        for ui in Ui::ALL {
            assert_eq!(keys(ui.text(Lang::En)), keys(ui.text(Lang::Zh)), "{ui:?}");
        }
    }

    #[test]
    fn all_lists_each_variant_once() {
        let mut seen = std::collections::HashSet::new();
        for ui in Ui::ALL {
            assert!(seen.insert(*ui), "{ui:?} twice");
        }
    }
}
