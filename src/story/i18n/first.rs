//! The first screen's texts: what the page shows before its later parts have come (the header,
//! the run's title, the caption, the landing card, the end's card's first words, the transport
//! bar, the loading and error notes). They are the first part of the translation pack, which the
//! page loads before it draws.

text_table! {
    /// Every text of the first screen, the page's own chrome. Story lines of the log come from
    /// [`crate::story::narrate`]; titles of scenarios from their files; what a fable calls things
    /// from its module ([`crate::fables`]).
    Ui in First {
    // ----- page -----
    AppTitle => ["LeaseLab", "LeaseLab 租约实验室"],
    SwitchLanguage => ["中文", "English（英文）"],
    SwitchLanguageHint => ["Show the page in Simplified Chinese", "将页面切换为英文"],
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
    // ----- flag-bearers -----
    Sleep => ["Put to sleep", "让其睡着"],
    Wake => ["Wake up", "叫醒"],
    // ----- the technical panel -----
    SecondsValue => ["{s} s", "{s} 秒"],
    // ----- the address bar -----
    Dismiss => ["Dismiss", "知道了"],
    NoScenarioAtAll => ["No scenario could be loaded: {error}", "没有任何场景能够载入：{error}"],
    // ----- time travel (issue 4) -----
    StepBack => ["◀ Back", "◀ 后退"],
    StepBackHint => ["Back to the previous engine event", "退回到上一个引擎事件"],
    Scrub => ["Time", "时间"],
    ScrubHint => ["Drag to any moment of the run; acting in the past starts a new future from there",
        "拖到运行中的任意时刻；在过去采取行动，会从那一刻起开出一个新的未来"],
    ViolationLockDeleted => ["At {t} s {who}'s release deleted the lock {holder} held with token {token}: a plain DEL removed a lock it did not own.",
        "{t} 秒时，{who}的释放删掉了{holder}以令牌 {token} 持有的锁：一个不带检查的 DEL 删除了不属于它的锁。"],
    ViolationForeignToken => ["At {t} s the resource accepted a write from {who} with token {token}, issued by another lock ({lock}).",
        "{t} 秒时，资源接受了{who}带令牌 {token} 的写入，而这个令牌出自另一把锁（{lock}）。"],
    // ----- the technical view, the resource table and the violations panel (issue 3, tech-view) -----
    StoreSays => ["{store}: {line}", "{store} 存储：{line}"],
    AtResource => ["At {res}: {line}", "在 {res}：{line}"],
    ResourceSays => ["Resource {res}: {line}", "资源 {res}：{line}"],
    VerdictAt => ["{who}, at {res}", "{who}，在 {res}"],
    ResourceMarks => ["marks: {list}", "高水位：{list}"],
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
    // ----- colour theme (issue 4): the header's button and the URL's `theme=` -----
    ThemeAuto => ["◐ Auto", "◐ 跟随系统"],
    ThemeLight => ["☀ Light", "☀ 浅色"],
    ThemeDark => ["☾ Dark", "☾ 深色"],
    ThemeHint => ["Colour theme: follow the system, light or dark (click to change)",
        "配色：跟随系统、浅色或深色（点击切换）"],
    PackFailed => ["The page's texts in the other language could not be loaded: {error}",
        "无法加载另一种语言的页面文字：{error}"],
    NarratorEarlier => ["{n} earlier events, then:", "此前还有 {n} 个事件，随后："],
    // ----- workshop mode (issue 5): shortcuts, the `?` overlay, presenter mode -----
    KeysHint => ["Keyboard shortcuts (?)", "键盘快捷键（?）"],
    Presenter => ["Present", "演示"],
    PresenterHint => ["Presenter mode: large type and strokes for a room, full screen, controls on C (W)",
        "演示模式：适合教室的大字和粗线条，全屏，按 C 显示控制栏（W）"],
    ShowControls => ["Controls", "控制栏"],
    // ----- guided lessons (issue 5) -----
    Lessons => ["Lesson", "课程"],
    NoLesson => ["— none: free play —", "— 不上课：自由探索 —"],
    LessonProgress => ["Step {k} of {n}", "第 {k} 步，共 {n} 步"],
    LessonNoSuchStep => ["This lesson has no step {step}: it has {n}. Showing the last one.",
        "本课没有第 {step} 步：它一共 {n} 步。现在显示最后一步。"],
    LessonCannotOpen => ["The lesson could not be opened: {error}", "无法打开这一课：{error}"],
    PredictionRight => ["✓ You predicted it.", "✓ 你猜对了。"],
    PredictionWrong => ["✕ Not this time: you said “{choice}”.", "✕ 这次没猜中：你选的是“{choice}”。"],
    PredictionNone => ["You watched without predicting.", "你没有预测，直接看了结果。"],
    WhatHappened => ["What happened: {answer}.", "实际发生的是：{answer}。"],
    // ----- the stage (issue 12): transport bar, tools menu, tabs, figures, script, landing -----
    StageLabel => ["The scene and its controls", "场景与控制"],
    TransportLabel => ["Time controls", "时间控制"],
    ClockOf => ["of {s}", "共 {s}"],
    TrueTime => ["True time", "真实时间"],
    ScriptMark => ["Scripted at {s} s: {what}", "剧本安排在 {s} 秒：{what}"],
    ScriptMarkDropped => ["Dropped from the script (was at {s} s): {what}", "已从剧本取消（原定 {s} 秒）：{what}"],
    ScriptDelay => ["the next write is held up", "下一次写入被耽搁"],
    ScriptRawWrite => ["a write arrives from outside", "外面来了一次写入"],
    ScriptRollback => ["the number counter is restored from an old backup", "编号计数器从旧备份恢复"],
    ScriptRestore => ["the resource is restored from a backup", "资源从备份恢复"],
    ScriptRestartResource => ["the resource restarts", "资源重启"],
    ScriptDropStep => ["the script's later steps are set aside", "剧本后面的步骤被取消"],
    ScriptClock => ["a clock is changed", "时钟被调动"],
    ScriptFailover => ["the lock store fails over", "锁存储故障切换"],
    LandingTitle => ["Watch a lease at work", "看租约如何运作"],
    LandingLead => ["Start with a guided lesson, or just play a story. Click any figure in the scene to act on it.",
        "可以跟着课程一步步学，也可以直接播放故事。点击场景里的任何人物或物件，就能对它操作。"],
    LandingExplore => ["Explore on my own", "自己随便看看"],
    }
}
