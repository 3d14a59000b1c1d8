//! The learner's actions: one typed registry that every way of acting reads (issue 29).
//!
//! A button of the transport bar or the tools menu, a figure's menu, a lesson's panel, a
//! keyboard shortcut, a presenter's remote (Page Down, Page Up) and the embed API each name an
//! [`Action`]; what the action is called ([`Action::words`]), which keys press it
//! ([`BINDINGS`], [`Action::from_key`]), when it can be taken ([`Action::enabled`]) and which
//! engine [`Command`] it becomes ([`Action::command`]) are decided here, once. A control holds
//! its typed action and `ui::act` carries it out (`ui::act::ActButton` draws the button).
//!
//! Plain Rust with no web types, so the rules are tested natively.

use crate::engine::command::STORE;
use crate::engine::{Command, Link, Role, Snapshot};
use crate::fables::{Fable, Said, Word};
use crate::story::i18n::{Later, Ui};
use crate::story::tour::Input;

/// How far the store's clock jumps forward for [`Action::StoreClockJump`], in ms: past any
/// lease of the built-in scenarios (15 s and less), as NTP stepping a server's wall clock does
/// (valkey-io/valkey#2651).
pub const STORE_CLOCK_JUMP_MS: i64 = 60_000;

/// Something the learner can do to the run, the page or the lesson.
#[derive(Clone, Debug)]
pub enum Action {
    /// Play or pause the run (the transport's Play; Space, K).
    PlayPause,
    /// Play (`true`) or pause (`false`), whatever it was doing (the embed API; a lesson's
    /// "play on").
    SetPlaying(bool),
    /// Run the engine to its next trace entry (→ .).
    Step,
    /// Back to the previous trace entry (← ,).
    StepBack,
    /// The run from the start again.
    Reset,
    /// R: in a lesson, the step again from its start; otherwise [`Action::Reset`].
    Again,
    /// Story time (messages held long enough to be seen) or true time (T).
    Pacing,
    /// Twice as fast (+).
    Faster,
    /// Half as fast (−).
    Slower,
    /// Put node `id` to sleep (a GC pause, SIGSTOP), or wake it when it sleeps.
    Sleep(String),
    /// Crash node `id`, or start it again when it is down.
    Crash(String),
    /// Cut node `id` off from everything, or reconnect it when it is cut off.
    CutOff(String),
    /// P: put the node that believes it leads to sleep, or wake the one asleep (Old Chen).
    SleepLeader,
    /// The store strikes the holder's name now (the dockmaster runs the sand out; S).
    RevokeLease,
    /// Turn the resource's token check off or on (F).
    Fencing,
    /// The store's clock jumps [`STORE_CLOCK_JUMP_MS`] forward.
    StoreClockJump,
    /// The scenario's scripted steps still ahead for node `id` set aside: the learner's own
    /// act on it is not overruled later.
    DropScript(String),
    /// A lesson's step: next, back, the answer to its question, the pointer of a metaphor row,
    /// the audience's reveal, leaving the lesson (N, Page Down; B, Page Up; K in a count-down).
    Lesson(Input),
    /// Back to the step the lesson is on, after the learner went off its path.
    BackToPath,
    /// A link to this very run (its scenario, its moment, the learner's interventions) made
    /// and shown in the tools menu; the address bar follows it.
    ShareLink,
    /// The HTML that embeds this run in another page, shown in the tools menu.
    EmbedCode,
    /// Built-in lesson `id` opened at its first step (the landing card's offer).
    OpenLesson(String),
    /// Built-in scenario `id` played from its start, told by `fable` (the landing card's other
    /// offer for that fable).
    PlayStory(Fable, String),
    /// The script's notice answered by keeping the script's steps for the node as they are.
    KeepScript,
    /// The landing card put away, to explore the scene as it is.
    CloseLanding,
    /// The card at the run's end put away, to look at the last picture.
    PutAwayRecap,
    /// The lesson's table of contents opened or closed (its summary's click: the page keeps
    /// whether it is open, so a redrawn panel does not shut it under the learner's pointer).
    Contents,
    /// Built-in scenario `k` of the menu (from 1; the keys 1 to 9).
    Scenario(usize),
    /// Presenter mode on or off (W).
    Presenter,
    /// The controls shown or hidden in presenter mode (C).
    Controls,
    /// The shortcuts list open or closed (?).
    Help,
    /// Escape: the shortcuts list closed, presenter mode left when not in full screen.
    Close,
    /// Ask the engine: search this scenario's runs for the question chosen in the Ask panel
    /// (issue 30; `ui::ask`, the page's search worker).
    Search,
    /// Stop the search under way.
    StopSearch,
    /// Open the run the search found in the player, at the moment it met the goal.
    OpenFound,
    /// The lesson step's witness question asked ("show me a run where …"): the engine searches
    /// the step's scenario for the shortest such run and the player opens it at its moment.
    Witness,
    /// Sweep a knob of this scenario (the Ask tab's knob and range): the worker plays every
    /// setting with many seeds, fencing on and off, and the page plots the outcomes.
    Sweep,
    /// Open the run a sweep's point stands for: the point (from 0) and the class of run
    /// (`draw::plot::CLASSES`: violating with fencing, without, safe, safe without fencing).
    OpenSwept(usize, usize),
}

/// Where the run stands, as [`Action::enabled`] and [`Action::command`] read it.
#[derive(Clone, Copy, Debug)]
pub struct Moment<'a> {
    /// The engine's state now.
    pub snapshot: &'a Snapshot,
    /// Whether the run has reached its `until_ms`: nothing more can be done to it.
    pub finished: bool,
    /// Whether the audience is thinking (presenter mode): the run waits for the reveal.
    pub holding: bool,
}

/// A keyboard shortcut as the `?` list shows it: the keys pressed, their names on the list,
/// what they do, and the action.
pub struct Binding {
    /// The `KeyboardEvent.key` values that press it.
    pub keys: &'static [&'static str],
    /// The keys as the list names them.
    pub shown: &'static str,
    /// What it does, in the list's words.
    pub does: Later,
    /// The action for the key pressed.
    pub action: fn(&str) -> Option<Action>,
}

/// Every keyboard shortcut, in the order the `?` list shows them. A presenter's remote sends
/// Page Down and Page Up.
pub const BINDINGS: &[Binding] = &[
    Binding { keys: &[" ", "k", "K"], shown: "Space, K", does: Later::KeyPlay, action: |_| Some(Action::PlayPause) },
    Binding { keys: &["ArrowRight", "."], shown: "→ .", does: Later::KeyStep, action: |_| Some(Action::Step) },
    Binding { keys: &["ArrowLeft", ","], shown: "← ,", does: Later::KeyStepBack, action: |_| Some(Action::StepBack) },
    Binding {
        keys: &["+", "=", "-", "_"],
        shown: "+ −",
        does: Later::KeySpeed,
        action: |k| Some(if matches!(k, "+" | "=") { Action::Faster } else { Action::Slower }),
    },
    Binding { keys: &["p", "P"], shown: "P", does: Later::KeyPauseLeader, action: |_| Some(Action::SleepLeader) },
    Binding { keys: &["s", "S"], shown: "S", does: Later::KeyRunSandOut, action: |_| Some(Action::RevokeLease) },
    Binding { keys: &["f", "F"], shown: "F", does: Later::KeyFencing, action: |_| Some(Action::Fencing) },
    Binding { keys: &["t", "T"], shown: "T", does: Later::KeyPacing, action: |_| Some(Action::Pacing) },
    Binding {
        keys: &["n", "N", "PageDown"],
        shown: "N, Page Down",
        does: Later::KeyNextStep,
        action: |_| Some(Action::Lesson(Input::Next)),
    },
    Binding {
        keys: &["b", "B", "PageUp"],
        shown: "B, Page Up",
        does: Later::KeyPrevStep,
        action: |_| Some(Action::Lesson(Input::Back)),
    },
    Binding { keys: &["r", "R"], shown: "R", does: Later::KeyReset, action: |_| Some(Action::Again) },
    Binding {
        keys: &["1", "2", "3", "4", "5", "6", "7", "8", "9"],
        shown: "1 … 9",
        does: Later::KeyScenario,
        action: |k| k.parse().ok().map(Action::Scenario),
    },
    Binding { keys: &["w", "W"], shown: "W", does: Later::KeyPresenter, action: |_| Some(Action::Presenter) },
    Binding { keys: &["c", "C"], shown: "C", does: Later::KeyControls, action: |_| Some(Action::Controls) },
    Binding { keys: &["?"], shown: "?", does: Later::KeyHelp, action: |_| Some(Action::Help) },
    Binding { keys: &["Escape"], shown: "Esc", does: Later::KeyClose, action: |_| Some(Action::Close) },
];

impl Action {
    /// The action a key press asks for (`key`: `KeyboardEvent.key`), or `None` when the key is
    /// not a shortcut. While the audience thinks (`holding`), the play keys and Enter reveal the
    /// answer instead.
    pub fn from_key(key: &str, holding: bool) -> Option<Action> {
        if holding && matches!(key, " " | "Enter" | "k" | "K") {
            return Some(Action::Lesson(Input::Reveal));
        }
        BINDINGS.iter().find(|b| b.keys.contains(&key)).and_then(|b| (b.action)(key))
    }

    /// The first key that presses the action, as `aria-keyshortcuts` names it (`Space`, `T`,
    /// `ArrowRight`), from [`BINDINGS`]; `None` when no key does.
    pub fn shortcut(&self) -> Option<String> {
        use std::mem::discriminant;
        // The same kind of action (a lesson's input of the same kind): no key takes an argument
        // a control would differ by.
        let same = |a: &Action| match (a, self) {
            (Action::Lesson(x), Action::Lesson(y)) => discriminant(x) == discriminant(y),
            (a, b) => discriminant(a) == discriminant(b),
        };
        let key = BINDINGS
            .iter()
            .flat_map(|b| b.keys.iter().map(move |k| (k, b)))
            .find_map(|(k, b)| (b.action)(k).filter(|a| same(a)).map(|_| *k))?;
        Some(match key {
            " " => "Space".to_owned(),
            k if k.chars().count() == 1 => k.to_uppercase(),
            k => k.to_owned(),
        })
    }

    fn changes_the_run(&self) -> bool {
        matches!(
            self,
            Action::Sleep(_)
                | Action::Crash(_)
                | Action::CutOff(_)
                | Action::SleepLeader
                | Action::RevokeLease
                | Action::Fencing
                | Action::StoreClockJump
                | Action::DropScript(_)
        )
    }

    /// Whether the action can be taken now. Every control that offers it is disabled, and a key
    /// that presses it does nothing, when it cannot: nothing changes the run once it has
    /// ended or while the audience thinks; a crashed or not yet started node cannot be put to
    /// sleep; only a held lease can be revoked; only a store that issues fencing tokens has a
    /// token check to turn off (Redis's `SET NX PX` lock has none: Kleppmann, "How to do
    /// distributed locking", 2016).
    pub fn enabled(&self, at: Moment<'_>) -> bool {
        let s = at.snapshot;
        let node = |id: &str| s.nodes.iter().find(|n| n.id == id);
        if at.holding && (self.changes_the_run() || matches!(self, Action::PlayPause | Action::Step | Action::StepBack))
        {
            return false;
        }
        if at.finished && self.changes_the_run() {
            return false;
        }
        match self {
            // Nothing is left to play or step at the end, and nothing to step back to at 0 s.
            Action::PlayPause | Action::Step => !at.finished,
            Action::StepBack => s.now_ms > 0,
            Action::Sleep(id) => node(id).is_some_and(|n| n.role != Role::Crashed && n.started),
            Action::Crash(id) | Action::CutOff(id) | Action::DropScript(id) => node(id).is_some(),
            Action::SleepLeader => self.command(at).is_some(),
            Action::RevokeLease => s.lease.holder_identity.is_some(),
            Action::Fencing => s.store_kind.rules().issues_tokens(),
            Action::SetPlaying(_)
            | Action::Reset
            | Action::Again
            | Action::Pacing
            | Action::Faster
            | Action::Slower
            | Action::StoreClockJump
            | Action::Lesson(_)
            | Action::BackToPath
            | Action::ShareLink
            | Action::EmbedCode
            | Action::Contents
            | Action::OpenLesson(_)
            | Action::PlayStory(..)
            | Action::CloseLanding
            | Action::KeepScript
            | Action::PutAwayRecap
            | Action::Scenario(_)
            | Action::Presenter
            | Action::Controls
            | Action::Help
            | Action::Close
            | Action::Search
            | Action::StopSearch
            | Action::OpenFound
            | Action::Witness
            | Action::Sweep
            | Action::OpenSwept(..) => true,
        }
    }

    /// The engine command the action becomes, as the run stands (`None`: the action is not a
    /// command, or there is nothing to act on). The one place a learner's action turns into a
    /// [`Command`].
    pub fn command(&self, at: Moment<'_>) -> Option<Command> {
        let s = at.snapshot;
        let node = |id: &str| s.nodes.iter().find(|n| n.id == id);
        Some(match self {
            Action::Sleep(id) => match node(id)?.role {
                Role::Paused => Command::Resume { node: id.clone() },
                _ => Command::Pause { node: id.clone(), for_ms: None },
            },
            Action::Crash(id) => match node(id)?.role {
                Role::Crashed => Command::Restart { node: id.clone() },
                _ => Command::Crash { node: id.clone() },
            },
            Action::CutOff(id) => match node(id)?.partitioned {
                true => Command::Heal { node: id.clone() },
                false => Command::Partition { node: id.clone(), from: Link::All },
            },
            Action::SleepLeader => {
                let with = |role: Role| s.nodes.iter().find(|n| n.role == role).map(|n| n.id.clone());
                match (with(Role::Paused), with(Role::Leader)) {
                    (Some(node), _) => Command::Resume { node },
                    (None, Some(node)) => Command::Pause { node, for_ms: None },
                    (None, None) => return None,
                }
            }
            Action::RevokeLease => Command::RevokeLease,
            Action::Fencing => Command::SetFencing { on: !s.resource.fencing },
            Action::StoreClockJump => Command::ClockJump { target: STORE.into(), by_ms: STORE_CLOCK_JUMP_MS },
            Action::DropScript(id) => Command::DropScript { node: id.clone() },
            // Not commands: the page carries them out (`ui::act::perform`).
            Action::PlayPause
            | Action::SetPlaying(_)
            | Action::Step
            | Action::StepBack
            | Action::Reset
            | Action::Again
            | Action::Pacing
            | Action::Faster
            | Action::Slower
            | Action::Lesson(_)
            | Action::BackToPath
            | Action::ShareLink
            | Action::EmbedCode
            | Action::Contents
            | Action::OpenLesson(_)
            | Action::PlayStory(..)
            | Action::CloseLanding
            | Action::KeepScript
            | Action::PutAwayRecap
            | Action::Scenario(_)
            | Action::Presenter
            | Action::Controls
            | Action::Help
            | Action::Close
            | Action::Search
            | Action::StopSearch
            | Action::OpenFound
            | Action::Witness
            | Action::Sweep
            | Action::OpenSwept(..) => return None,
        })
    }

    /// The action's name on a button, as the run stands: "Put to sleep" or "Wake", "Crash" or
    /// "Start again", … (`None`: no button names it so). A figure's lever is named in the words
    /// of the fable shown ([`Said::Fable`]).
    pub fn words(&self, at: Moment<'_>) -> Option<Said> {
        use Said::{Fable as F, Page as P};
        let s = at.snapshot;
        let node = |id: &str| s.nodes.iter().find(|n| n.id == id);
        Some(match self {
            Action::Sleep(id) => match node(id).map(|n| n.role) {
                Some(Role::Paused) => P(Ui::Wake),
                _ => P(Ui::Sleep),
            },
            Action::Crash(id) => match node(id).map(|n| n.role) {
                Some(Role::Crashed) => F(Word::Restart),
                _ => F(Word::Crash),
            },
            Action::CutOff(id) => match node(id).is_some_and(|n| n.partitioned) {
                true => F(Word::Reconnect),
                false => F(Word::CutOff),
            },
            Action::RevokeLease => F(Word::Revoke),
            Action::Fencing if s.resource.fencing => F(Word::FigureFencingOff),
            Action::Fencing => F(Word::FigureFencingOn),
            Action::StoreClockJump => Said::Later(Later::StoreClockJump),
            Action::Step => P(Ui::Step),
            Action::StepBack => P(Ui::StepBack),
            Action::Reset => P(Ui::Reset),
            // Their buttons' words do not change with the run (or no button names them so).
            Action::PlayPause
            | Action::SetPlaying(_)
            | Action::Again
            | Action::Pacing
            | Action::Faster
            | Action::Slower
            | Action::SleepLeader
            | Action::DropScript(_)
            | Action::Lesson(_)
            | Action::BackToPath
            | Action::ShareLink
            | Action::EmbedCode
            | Action::Contents
            | Action::OpenLesson(_)
            | Action::PlayStory(..)
            | Action::CloseLanding
            | Action::KeepScript
            | Action::PutAwayRecap
            | Action::Scenario(_)
            | Action::Presenter
            | Action::Controls
            | Action::Help
            | Action::Close
            | Action::Search
            | Action::StopSearch
            | Action::OpenFound
            | Action::Witness
            | Action::Sweep
            | Action::OpenSwept(..) => return None,
        })
    }
}
