//! The learner's action registry (`leaselab::actions`): the keys, the codes a control carries,
//! when an action can be taken and the command it becomes, checked on built-in runs against what
//! the seed fables say happens.

mod common;

use common::builtin;
use leaselab::actions::{Action, Moment, BINDINGS};
use leaselab::engine::{Command, Link, Sim};
use leaselab::fables::Said;
use leaselab::story::tour::Input;

fn at<'a>(snapshot: &'a leaselab::engine::Snapshot) -> Moment<'a> {
    Moment { snapshot, finished: false, holding: false }
}

fn harbor_at(t_ms: u64) -> Sim {
    let mut sim = Sim::new(builtin("harbor-zombie").config).expect("valid");
    sim.advance_to(t_ms);
    sim
}

#[test]
fn every_key_presses_one_action_and_the_list_names_every_key() {
    let mut seen = std::collections::HashSet::new();
    for b in BINDINGS {
        for key in b.keys {
            assert!(seen.insert(*key), "{key:?} is bound twice");
            assert!(Action::from_key(key, false).is_some(), "{key:?} ({}) presses nothing", b.shown);
        }
    }
    assert!(Action::from_key("x", false).is_none());
    assert!(Action::from_key("Enter", false).is_none(), "Enter is a focused control's own key");
    assert!(matches!(Action::from_key("7", false), Some(Action::Scenario(7))));
    assert!(matches!(Action::from_key("-", false), Some(Action::Slower)));
    assert!(matches!(Action::from_key("=", false), Some(Action::Faster)));
    assert!(matches!(Action::from_key("PageDown", false), Some(Action::Lesson(Input::Next))));
}

#[test]
fn while_the_audience_thinks_the_play_keys_reveal_and_the_run_waits() {
    for key in [" ", "k", "K", "Enter"] {
        assert!(matches!(Action::from_key(key, true), Some(Action::Lesson(Input::Reveal))), "{key:?}");
    }
    let sim = harbor_at(1_000);
    let s = sim.snapshot();
    let holding = Moment { snapshot: &s, finished: false, holding: true };
    for a in [Action::Step, Action::StepBack, Action::Sleep("chen".into()), Action::RevokeLease, Action::Fencing] {
        assert!(!a.enabled(holding), "{a:?} while the audience thinks");
        assert!(a.enabled(at(&s)), "{a:?} at 1 s of harbor-zombie");
    }
    assert!(Action::Lesson(Input::Next).enabled(holding));
}

#[test]
fn a_node_action_toggles_with_the_node_state() {
    let mut sim = harbor_at(1_000);
    let s = sim.snapshot();
    let sleep = Action::Sleep("chen".into());
    assert!(matches!(sleep.command(at(&s)), Some(Command::Pause { ref node, for_ms: None }) if node == "chen"));
    assert!(matches!(Action::SleepLeader.command(at(&s)), Some(Command::Pause { ref node, .. }) if node == "chen"));
    assert_eq!(sleep.words(at(&s)), Some(Said::Page(leaselab::story::i18n::Ui::Sleep)));
    sim.apply(sleep.command(at(&s)).expect("a command")).expect("valid");

    let s = sim.snapshot();
    assert!(matches!(sleep.command(at(&s)), Some(Command::Resume { ref node }) if node == "chen"));
    assert_eq!(sleep.words(at(&s)), Some(Said::Page(leaselab::story::i18n::Ui::Wake)));

    let cut = Action::CutOff("lin".into());
    assert!(matches!(cut.command(at(&s)), Some(Command::Partition { ref node, from: Link::All }) if node == "lin"));
    sim.apply(cut.command(at(&s)).expect("a command")).expect("valid");
    let s = sim.snapshot();
    assert!(matches!(cut.command(at(&s)), Some(Command::Heal { ref node }) if node == "lin"));

    let crash = Action::Crash("lin".into());
    sim.apply(crash.command(at(&s)).expect("a command")).expect("valid");
    let s = sim.snapshot();
    assert!(matches!(crash.command(at(&s)), Some(Command::Restart { ref node }) if node == "lin"));
    assert!(!Action::Sleep("lin".into()).enabled(at(&s)), "a crashed node cannot be put to sleep");
    assert!(Action::Sleep("nobody".into()).command(at(&s)).is_none());
}

#[test]
fn p_wakes_the_sleeper_before_it_puts_a_leader_to_sleep() {
    // At 40 s the script's sleeper is Chen, and Lin leads with 8.
    let sim = harbor_at(40_000);
    let s = sim.snapshot();
    assert_eq!(s.lease.holder_identity.as_deref(), Some("lin"));
    assert!(matches!(Action::SleepLeader.command(at(&s)), Some(Command::Resume { ref node }) if node == "chen"));
}

#[test]
fn the_world_levers_become_their_commands() {
    let sim = harbor_at(1_000);
    let s = sim.snapshot();
    assert!(s.resource.fencing, "harbor-zombie fences");
    assert!(matches!(Action::Fencing.command(at(&s)), Some(Command::SetFencing { on: false })));
    assert!(matches!(Action::RevokeLease.command(at(&s)), Some(Command::RevokeLease)));
    assert!(matches!(
        Action::StoreClockJump.command(at(&s)),
        Some(Command::ClockJump { ref target, by_ms: 60_000 }) if target == "store"
    ));
    assert!(matches!(
        Action::DropScript("chen".into()).command(at(&s)),
        Some(Command::DropScript { ref node }) if node == "chen"
    ));
    assert!(Action::Step.command(at(&s)).is_none(), "stepping is not a command to the engine");
}

#[test]
fn nothing_changes_a_finished_run_and_a_store_without_tokens_has_no_check_to_turn_off() {
    let mut sim = harbor_at(0);
    sim.run_to_end();
    let s = sim.snapshot();
    let done = Moment { snapshot: &s, finished: true, holding: false };
    for a in [Action::Sleep("chen".into()), Action::RevokeLease, Action::Fencing, Action::StoreClockJump] {
        assert!(!a.enabled(done), "{a:?} at the end");
    }
    assert!(Action::StepBack.enabled(done) && Action::Reset.enabled(done));

    // client-go's leader election has no fencing token ("does not guarantee ... fencing").
    let mut k8s = Sim::new(builtin("k8s-split-brain").config).expect("valid");
    k8s.advance_to(5_000);
    let s = k8s.snapshot();
    assert!(!Action::Fencing.enabled(at(&s)));
    // Before the first grant there is no lease to revoke.
    let s = harbor_at(0).snapshot();
    assert!(s.lease.holder_identity.is_none());
    assert!(!Action::RevokeLease.enabled(at(&s)));
}

/// Every engine command the page builds for a learner comes from the registry
/// (`Action::command`): no file of `src/ui/` constructs one itself (matching on one, to name
/// it, is fine), and no control carries its action as a word (`data-act`) for a handler to match
/// again: each calls the registry with its typed action.
#[test]
fn the_page_builds_no_command_of_its_own() {
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a folder of src/ui") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui"), &mut paths);
    assert!(paths.len() > 20, "src/ui has {} Rust files", paths.len());
    let mut built = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable");
        for (n, line) in text.lines().enumerate() {
            if line.contains("data-act") {
                built.push(format!("{}:{}: an action carried as a word: {}", path.display(), n + 1, line.trim()));
            }
            let code = line.split("//").next().unwrap_or("");
            let mut rest = code;
            while let Some(at) = rest.find("Command::") {
                let before = rest[..at].chars().last();
                let after = &rest[at + "Command::".len()..];
                rest = after;
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue; // ScheduledCommand::…
                }
                let name_len = after.find(|c: char| !c.is_alphanumeric()).unwrap_or(after.len());
                let mut tail = after[name_len..].trim_start();
                if tail.starts_with('{') {
                    // The brace that closes this one (a pattern may hold another's braces).
                    let mut depth = 0usize;
                    let close = tail.char_indices().find_map(|(i, c)| {
                        match c {
                            '{' => depth += 1,
                            '}' => depth -= 1,
                            _ => {}
                        }
                        (depth == 0).then_some(i)
                    });
                    match close {
                        Some(end) if tail[1..end].trim() == ".." => continue,
                        Some(end) => tail = tail[end + 1..].trim_start(),
                        None => tail = "",
                    }
                }
                if !(tail.starts_with("=>") || tail.starts_with('|')) {
                    built.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(built.is_empty(), "commands built outside `actions::Action::command`:\n{}", built.join("\n"));
}

#[test]
fn the_transport_offers_only_what_the_run_can_still_do() {
    // At 0 s there is nothing to step back to; at the end nothing to play or step.
    let start = harbor_at(0);
    let s = start.snapshot();
    assert!(!Action::StepBack.enabled(at(&s)), "back at 0 s");
    assert!(Action::Step.enabled(at(&s)) && Action::PlayPause.enabled(at(&s)));
    let later = harbor_at(1_000);
    let s = later.snapshot();
    assert!(Action::StepBack.enabled(at(&s)), "back at 1 s");
    let end = Moment { snapshot: &s, finished: true, holding: false };
    assert!(!Action::PlayPause.enabled(end) && !Action::Step.enabled(end), "play or step at the end");
    assert!(Action::StepBack.enabled(end) && Action::Reset.enabled(end), "back and reset at the end");
}

#[test]
fn a_button_names_the_key_that_presses_its_action() {
    assert_eq!(Action::PlayPause.shortcut().as_deref(), Some("Space"));
    assert_eq!(Action::Step.shortcut().as_deref(), Some("ArrowRight"));
    assert_eq!(Action::Pacing.shortcut().as_deref(), Some("T"));
    assert_eq!(Action::Help.shortcut().as_deref(), Some("?"));
    // Next and back of a lesson are one action with two inputs: each names its own key.
    assert_eq!(Action::Lesson(Input::Next).shortcut().as_deref(), Some("N"));
    assert_eq!(Action::Lesson(Input::Back).shortcut().as_deref(), Some("B"));
    assert_eq!(Action::ShareLink.shortcut(), None, "no key shares");
}

/// Asking the engine (issue 30) acts on the page, not on the run: no engine command, no key,
/// and it can be asked at any moment, the run's end included (a search starts from 0 s).
#[test]
fn asking_the_engine_is_no_command_and_can_be_asked_at_any_moment() {
    let sim = harbor_at(90_000);
    let s = sim.snapshot();
    let end = Moment { snapshot: &s, finished: true, holding: false };
    for action in
        [Action::Search, Action::StopSearch, Action::OpenFound, Action::Witness, Action::Sweep, Action::OpenSwept(0, 1)]
    {
        assert!(action.enabled(at(&s)) && action.enabled(end), "{action:?}");
        assert!(action.command(at(&s)).is_none(), "{action:?} is the page's, not the engine's");
        assert!(action.shortcut().is_none(), "{action:?} has no key");
    }
}
