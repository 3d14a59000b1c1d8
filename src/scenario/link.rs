//! The interventions of a share link (issue 4): a compact, URL-safe text that lists every live
//! command with its virtual time, so that opening the link replays the run bit for bit.
//!
//! Format (version [`LINK_VERSION`]): items separated by `,`, each `AT.CODE[.ARG[.ARG]]`, with
//! `AT` in ms and node ids as the scenario names them (`A–Z a–z 0–9 - _`, so `.` and `,` never
//! occur in them):
//!
//! | code | command | args |
//! | --- | --- | --- |
//! | `p` | pause | node, optional `for_ms` |
//! | `r` | resume | node |
//! | `x` | crash | node |
//! | `s` | restart | node |
//! | `c` | partition | node, optional `coordinator` or `resource` |
//! | `h` | heal | node |
//! | `v` | revoke the lease | |
//! | `f` | set fencing | `1` or `0` |
//! | `d` | delay the next write | node, `by_ms` |
//! | `j` | clock jump | target (node or `store`), signed `by_ms` |
//! | `k` | clock rate | target, rate in ppm |
//! | `o` | drop the script's steps still ahead for a node ("off script") | node |
//!
//! Writes from outside, issuer and resource faults are scenario events, not page controls, so a
//! link does not carry them. Times must not decrease.
//!
//! `o` came after the first links were shared, and the version stayed 1: a code was added, none
//! changed, so every link written before reads exactly as it did and replays to the same trace.
//! A page that predates `o` refuses a link that uses it as it refuses any unknown code (the item
//! and "not an intervention this version of LeaseLab knows") and plays the scenario without its
//! interventions; the version changes only when an existing code would read differently.

use crate::engine::{Command, Link, MessageFault, MessageKind, ScheduledCommand};

/// The link format's version, written as `v=` in the address.
pub const LINK_VERSION: u32 = 1;
/// Most interventions a link may carry.
pub const MAX_LINK_INTERVENTIONS: usize = 2_000;
/// Longest `do=` value accepted, in bytes.
pub const MAX_LINK_BYTES: usize = 40_000;

/// The page address's parameters that take one value (`origin` is not one of them: an embed may
/// allow several origins, one `origin=` each).
pub const SINGLE_VALUED: &[&str] = &[
    "scenario",
    "s",
    "lesson",
    "step",
    "fable",
    "lang",
    "speed",
    "autoplay",
    "view",
    "theme",
    "pacing",
    "v",
    "do",
    "t",
    "presenter",
    "embed",
    "controls",
    "diagram",
];

/// The one-value parameters ([`SINGLE_VALUED`]) that `keys`, the address's parameter names in
/// order (as the browser decodes them), gives more than once: each named once, in the order of
/// its second appearance. The page reads the first value of each and says so, rather than
/// silently choosing one.
pub fn repeated<'a>(keys: impl IntoIterator<Item = &'a str>) -> Vec<&'static str> {
    let mut seen: Vec<&'static str> = Vec::new();
    let mut twice = Vec::new();
    for key in keys {
        let Some(&name) = SINGLE_VALUED.iter().find(|n| **n == key) else { continue };
        if !seen.contains(&name) {
            seen.push(name);
        } else if !twice.contains(&name) {
            twice.push(name);
        }
    }
    twice
}

/// What is wrong with a link's interventions, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError {
    /// 1-based position of the item, 0 for the whole value.
    pub item: usize,
    pub problem: LinkProblem,
}

/// What is wrong with a link's item (or the whole value), as data: the page says it in the
/// learner's language (`ui::url`), the embed API and the command line in English ([`Display`]).
///
/// [`Display`]: std::fmt::Display
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkProblem {
    /// The value is longer than [`MAX_LINK_BYTES`].
    TooLong { bytes: usize },
    /// More items than [`MAX_LINK_INTERVENTIONS`].
    TooMany { items: usize },
    /// The time is not a whole number of ms.
    Time,
    /// The time is earlier than the item before.
    Backwards,
    /// A node name outside `A–Z a–z 0–9 - _`, or longer than 32.
    NodeName,
    /// An argument that should be a whole number is not.
    Number,
    /// A clock jump that is not a whole number of ms.
    ClockJump,
    /// A message kind that does not exist (`kind` as written, cut to 32 characters).
    MessageKind { kind: String },
    /// A message fault other than `lose`, `hold.MS` or `copy`.
    MessageFault,
    /// A code this version does not know.
    Unknown,
    /// A known code (one of the module's table) with arguments it does not take: missing, extra,
    /// or not one of its words (`f.2`, `c.chen.moon`).
    Arguments { code: String },
    /// An argument outside what the engine accepts ([`Command::check`]): the field, and the
    /// range, in the field's `unit` (`ms` or `ppm`); `nonzero` when 0 is refused inside it (a
    /// clock jump).
    OutOfRange { field: &'static str, low: i64, high: i64, unit: &'static str, nonzero: bool },
    /// The item's time is after the end of the run it was to replay in (`end_ms`, the
    /// scenario's `until_ms`): it would never happen.
    AfterEnd { at_ms: u64, end_ms: u64 },
    /// The engine refused the command when it applied it: a node the scenario does not have.
    UnknownNode { node: String },
    /// The engine refused the command when it applied it, for another reason (its words).
    Refused { reason: String },
}

impl std::fmt::Display for LinkProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkProblem::TooLong { bytes } => {
                write!(f, "the interventions are {bytes} bytes long; at most {MAX_LINK_BYTES} are read")
            }
            LinkProblem::TooMany { items } => {
                write!(f, "{items} interventions; at most {MAX_LINK_INTERVENTIONS} are read")
            }
            LinkProblem::Time => f.write_str("the time is not a whole number of ms"),
            LinkProblem::Backwards => f.write_str("times must not go backwards"),
            LinkProblem::NodeName => f.write_str("a node name must be 1 to 32 of A–Z a–z 0–9 - _"),
            LinkProblem::Number => f.write_str("not a whole number"),
            LinkProblem::ClockJump => f.write_str("a clock jump is a whole number of ms, possibly negative"),
            LinkProblem::MessageKind { kind } => {
                write!(f, "\"{kind}\" is not a kind of message; one of {}", message_kinds())
            }
            LinkProblem::MessageFault => f.write_str("a message's fault is lose, hold.MS or copy"),
            LinkProblem::Unknown => f.write_str("not an intervention this version of LeaseLab knows"),
            LinkProblem::Arguments { code } => {
                write!(f, "\"{code}\" is an intervention, but not with these arguments (see the link format)")
            }
            LinkProblem::OutOfRange { field, low, high, unit, nonzero } => {
                write!(
                    f,
                    "{field} must be between {low} and {high} {unit}{}",
                    if *nonzero { ", and not 0" } else { "" }
                )
            }
            LinkProblem::AfterEnd { at_ms, end_ms } => {
                write!(f, "at {at_ms} ms, after the end of the run ({end_ms} ms)")
            }
            LinkProblem::UnknownNode { node } => write!(f, "unknown node \"{node}\""),
            LinkProblem::Refused { reason } => f.write_str(reason),
        }
    }
}

/// The codes of the module's table.
const CODES: [&str; 13] = ["p", "r", "x", "s", "c", "h", "v", "f", "d", "j", "k", "o", "m"];

/// The message kinds' names, comma-separated, as a link writes them.
pub fn message_kinds() -> String {
    MessageKind::ALL.iter().map(|k| k.code()).collect::<Vec<_>>().join(", ")
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.item == 0 {
            write!(f, "{}", self.problem)
        } else {
            write!(f, "item {}: {}", self.item, self.problem)
        }
    }
}

/// The range [`Command::check`] holds `command`'s argument to, when it refused it: the bounds
/// are the engine's (`MAX_COMMAND_MS`, `engine::clock`'s rates), said as a link writes them.
fn range_of(command: &Command, field: &'static str) -> LinkProblem {
    use crate::engine::clock::{RATE_MAX_PPM, RATE_MIN_PPM};
    let max = i64::try_from(crate::engine::command::MAX_COMMAND_MS).unwrap_or(i64::MAX);
    let (low, high, unit, nonzero) = match command {
        Command::ClockJump { .. } => (-max, max, "ms", true),
        Command::ClockRate { .. } => (RATE_MIN_PPM as i64, RATE_MAX_PPM as i64, "ppm", false),
        _ => (1, max, "ms", false),
    };
    LinkProblem::OutOfRange { field, low, high, unit, nonzero }
}

/// The interventions as a link's `do=` value, or `None` for a command a link cannot carry.
pub fn encode(interventions: &[ScheduledCommand]) -> Option<String> {
    let mut items = Vec::with_capacity(interventions.len());
    for i in interventions {
        let body = match &i.command {
            Command::Pause { node, for_ms: None } => format!("p.{node}"),
            Command::Pause { node, for_ms: Some(ms) } => format!("p.{node}.{ms}"),
            Command::Resume { node } => format!("r.{node}"),
            Command::Crash { node } => format!("x.{node}"),
            Command::Restart { node } => format!("s.{node}"),
            Command::Partition { node, from: Link::All } => format!("c.{node}"),
            Command::Partition { node, from: Link::Coordinator } => format!("c.{node}.coordinator"),
            Command::Partition { node, from: Link::Resource } => format!("c.{node}.resource"),
            Command::Partition { node, from: Link::CoordinatorReplies } => format!("c.{node}.replies"),
            Command::Partition { node, from: Link::CoordinatorRequests } => format!("c.{node}.requests"),
            Command::Heal { node } => format!("h.{node}"),
            Command::RevokeLease => "v".to_owned(),
            Command::SetFencing { on } => format!("f.{}", u8::from(*on)),
            Command::DelayNextWrite { node, by_ms } => format!("d.{node}.{by_ms}"),
            Command::ClockJump { target, by_ms } => format!("j.{target}.{by_ms}"),
            Command::ClockRate { target, rate_ppm } => format!("k.{target}.{rate_ppm}"),
            Command::DropScript { node } => format!("o.{node}"),
            Command::NextMessage { node, kind, fault } => match fault {
                MessageFault::Lose => format!("m.{node}.{}.lose", kind.code()),
                MessageFault::Hold { by_ms } => format!("m.{node}.{}.hold.{by_ms}", kind.code()),
                MessageFault::Copy => format!("m.{node}.{}.copy", kind.code()),
            },
            Command::RawWrite { .. }
            | Command::RollbackIssuer { .. }
            | Command::RestoreResource { .. }
            | Command::RestartResource { .. }
            | Command::StoreFailover { .. } => return None,
        };
        items.push(format!("{}.{body}", i.at_ms));
    }
    Some(items.join(","))
}

/// Reads a link's `do=` value. Node names are not checked here (the engine refuses unknown ones
/// when the commands are applied); everything else is.
///
/// # Errors
/// The first item that is malformed: an unknown code, a missing or extra argument, a number that
/// is not a whole number in range, a time earlier than the item before; or a value that is too
/// long or carries too many items.
pub fn decode(value: &str) -> Result<Vec<ScheduledCommand>, LinkError> {
    let whole = |problem: LinkProblem| LinkError { item: 0, problem };
    if value.len() > MAX_LINK_BYTES {
        return Err(whole(LinkProblem::TooLong { bytes: value.len() }));
    }
    if value.trim().is_empty() {
        return Ok(Vec::new());
    }
    let items: Vec<&str> = value.split(',').collect();
    if items.len() > MAX_LINK_INTERVENTIONS {
        return Err(whole(LinkProblem::TooMany { items: items.len() }));
    }
    let mut out = Vec::with_capacity(items.len());
    let mut last = 0u64;
    for (n, item) in items.iter().enumerate() {
        let err = |problem: LinkProblem| LinkError { item: n + 1, problem };
        let parts: Vec<&str> = item.split('.').collect();
        let at: u64 = parts[0].parse().map_err(|_| err(LinkProblem::Time))?;
        if at < last {
            return Err(err(LinkProblem::Backwards));
        }
        last = at;
        let args = &parts[1..];
        let name = |s: &str| -> Result<String, LinkError> {
            if s.is_empty() || s.len() > 32 || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
                Err(err(LinkProblem::NodeName))
            } else {
                Ok(s.to_owned())
            }
        };
        let number = |s: &str| -> Result<u64, LinkError> { s.parse().map_err(|_| err(LinkProblem::Number)) };
        let command = match args {
            ["p", node] => Command::Pause { node: name(node)?, for_ms: None },
            ["p", node, ms] => Command::Pause { node: name(node)?, for_ms: Some(number(ms)?) },
            ["r", node] => Command::Resume { node: name(node)? },
            ["x", node] => Command::Crash { node: name(node)? },
            ["s", node] => Command::Restart { node: name(node)? },
            ["c", node] => Command::Partition { node: name(node)?, from: Link::All },
            ["c", node, "coordinator"] => Command::Partition { node: name(node)?, from: Link::Coordinator },
            ["c", node, "resource"] => Command::Partition { node: name(node)?, from: Link::Resource },
            ["c", node, "replies"] => Command::Partition { node: name(node)?, from: Link::CoordinatorReplies },
            ["c", node, "requests"] => Command::Partition { node: name(node)?, from: Link::CoordinatorRequests },
            ["h", node] => Command::Heal { node: name(node)? },
            ["v"] => Command::RevokeLease,
            ["f", "1"] => Command::SetFencing { on: true },
            ["f", "0"] => Command::SetFencing { on: false },
            ["d", node, ms] => Command::DelayNextWrite { node: name(node)?, by_ms: number(ms)? },
            ["j", target, by] => Command::ClockJump {
                target: name(target)?,
                by_ms: by.parse().map_err(|_| err(LinkProblem::ClockJump))?,
            },
            ["k", target, ppm] => Command::ClockRate { target: name(target)?, rate_ppm: number(ppm)? },
            ["o", node] => Command::DropScript { node: name(node)? },
            ["m", node, kind, fault @ ..] => {
                let kind = MessageKind::from_code(kind)
                    .ok_or_else(|| err(LinkProblem::MessageKind { kind: kind.chars().take(32).collect() }))?;
                let fault = match fault {
                    ["lose"] => MessageFault::Lose,
                    ["hold", ms] => MessageFault::Hold { by_ms: number(ms)? },
                    ["copy"] => MessageFault::Copy,
                    _ => return Err(err(LinkProblem::MessageFault)),
                };
                Command::NextMessage { node: name(node)?, kind, fault }
            }
            [code, ..] if CODES.contains(code) => {
                return Err(err(LinkProblem::Arguments { code: (*code).to_owned() }));
            }
            _ => return Err(err(LinkProblem::Unknown)),
        };
        // Argument ranges (durations, rates) are the engine's own rules.
        command.check().map_err(|(field, _)| err(range_of(&command, field)))?;
        out.push(ScheduledCommand { at_ms: at, command });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_command_round_trips() {
        let all = vec![
            ScheduledCommand { at_ms: 0, command: Command::Pause { node: "chen".into(), for_ms: None } },
            ScheduledCommand { at_ms: 10, command: Command::Pause { node: "a-1".into(), for_ms: Some(30_000) } },
            ScheduledCommand { at_ms: 10, command: Command::Resume { node: "chen".into() } },
            ScheduledCommand { at_ms: 20, command: Command::Crash { node: "lin".into() } },
            ScheduledCommand { at_ms: 30, command: Command::Restart { node: "lin".into() } },
            ScheduledCommand { at_ms: 40, command: Command::Partition { node: "b_2".into(), from: Link::All } },
            ScheduledCommand { at_ms: 41, command: Command::Partition { node: "b".into(), from: Link::Coordinator } },
            ScheduledCommand { at_ms: 42, command: Command::Partition { node: "c".into(), from: Link::Resource } },
            ScheduledCommand { at_ms: 50, command: Command::Heal { node: "b".into() } },
            ScheduledCommand { at_ms: 60, command: Command::RevokeLease },
            ScheduledCommand { at_ms: 70, command: Command::SetFencing { on: false } },
            ScheduledCommand { at_ms: 71, command: Command::SetFencing { on: true } },
            ScheduledCommand { at_ms: 80, command: Command::DelayNextWrite { node: "lin".into(), by_ms: 5_000 } },
            ScheduledCommand { at_ms: 90, command: Command::ClockJump { target: "store".into(), by_ms: -60_000 } },
            ScheduledCommand { at_ms: 99, command: Command::ClockRate { target: "lin".into(), rate_ppm: 3_000_000 } },
            ScheduledCommand { at_ms: 99, command: Command::DropScript { node: "chen".into() } },
            ScheduledCommand {
                at_ms: 99,
                command: Command::NextMessage {
                    node: "lin".into(),
                    kind: MessageKind::RenewReply,
                    fault: MessageFault::Hold { by_ms: 700 },
                },
            },
        ];
        let text = encode(&all).expect("page commands encode");
        assert!(text.chars().all(|c| c.is_ascii_alphanumeric() || "-_.,".contains(c)), "URL-safe: {text}");
        assert_eq!(decode(&text), Ok(all));
        assert_eq!(decode(""), Ok(Vec::new()));
    }

    /// `o` reads as written in the module's table, beside the codes that were there before it.
    #[test]
    fn a_dropped_script_reads_from_its_code() {
        let read = decode("19000.r.chen,19000.o.chen,30000.o.lin").expect("valid");
        assert_eq!(
            read,
            vec![
                ScheduledCommand { at_ms: 19_000, command: Command::Resume { node: "chen".into() } },
                ScheduledCommand { at_ms: 19_000, command: Command::DropScript { node: "chen".into() } },
                ScheduledCommand { at_ms: 30_000, command: Command::DropScript { node: "lin".into() } },
            ]
        );
        assert_eq!(encode(&read).as_deref(), Some("19000.r.chen,19000.o.chen,30000.o.lin"));
    }

    #[test]
    fn broken_values_say_which_item_and_why() {
        let cases = [
            ("5.p", 1),
            ("5.q.chen", 1),
            ("x.p.chen", 1),
            ("5.p.chen,4.r.chen", 2),
            ("5.p.<script>", 1),
            ("5.p.chen.0", 1),
            ("5.d.chen.-3", 1),
            ("5.k.store.1", 1),
            ("5.j.store.0", 1),
            ("99999999999999999999.v", 1),
            ("5.f.2", 1),
            ("5.v.extra", 1),
            ("5.c.chen.moon", 1),
            ("5.o", 1),
            ("5.o.chen.60000", 1),
            ("5.o.<chen>", 1),
            ("5.r.chen,6.o.", 2),
        ];
        for (value, item) in cases {
            let e = decode(value).expect_err(value);
            assert_eq!(e.item, item, "{value}: {e}");
            assert!(!e.to_string().is_empty());
        }
        // What is wrong, as data the page says in its language.
        let problem = |value: &str| decode(value).expect_err(value).problem;
        assert_eq!(problem("5.f.2"), LinkProblem::Arguments { code: "f".into() });
        assert_eq!(problem("5.c.chen.moon"), LinkProblem::Arguments { code: "c".into() });
        assert_eq!(problem("5.q.chen"), LinkProblem::Unknown);
        assert_eq!(problem("5.m.chen.bogus.lose"), LinkProblem::MessageKind { kind: "bogus".into() });
        // The engine's ranges (`MAX_COMMAND_MS`, 24 h; clock rates 0.1 to 10 times true speed).
        let day = 86_400_000;
        let range = |field, low, high, unit, nonzero| LinkProblem::OutOfRange { field, low, high, unit, nonzero };
        assert_eq!(problem("5.d.chen.0"), range("by_ms", 1, day, "ms", false));
        assert_eq!(problem("5.j.store.0"), range("by_ms", -day, day, "ms", true));
        assert_eq!(problem("5.k.store.1"), range("rate", 100_000, 10_000_000, "ppm", false));
        let many = vec!["1.v"; MAX_LINK_INTERVENTIONS + 1].join(",");
        assert_eq!(decode(&many).map_err(|e| e.item), Err(0));
        assert_eq!(decode(&"1".repeat(MAX_LINK_BYTES + 1)).map_err(|e| e.item), Err(0));
    }

    /// The parameter names of a query string, as a browser would list them (no escapes here).
    fn keys(query: &str) -> Vec<&str> {
        query.split('&').filter(|kv| !kv.is_empty()).map(|kv| kv.split('=').next().unwrap_or(kv)).collect()
    }

    #[test]
    fn a_parameter_given_twice_is_named_once() {
        assert_eq!(repeated(keys("scenario=a&scenario=b")), ["scenario"]);
        assert_eq!(repeated(keys("scenario=harbor-zombie&t=5000&lang=zh&t=9000")), ["t"]);
        assert_eq!(repeated(keys("t=1&fencing=1&t=2&t=3&lang=en&lang=zh&scenario=x")), ["t", "lang"]);
        assert_eq!(repeated(keys("do=5.v&s=abc&do=6.v&s=def")), ["do", "s"]);
        // Once each: nothing to say; `origin` may be given once per allowed origin; a name the
        // page does not read is not its business.
        assert!(repeated(keys("scenario=a&t=5000&lang=zh&speed=4")).is_empty());
        assert!(repeated(keys("embed=1&origin=https://a.example&origin=https://b.example")).is_empty());
        assert!(repeated(keys("utm=1&utm=2&fbclid=x&fbclid=y")).is_empty());
        assert!(repeated(keys("")).is_empty());
        // Every parameter the page reads one value of is covered.
        for name in SINGLE_VALUED {
            let query = format!("{name}=1&{name}=2");
            assert_eq!(repeated(keys(&query)), [*name], "{query}");
        }
    }

    #[test]
    fn scenario_faults_are_not_link_commands() {
        let raw = ScheduledCommand { at_ms: 1, command: Command::RestartResource { resource: None } };
        assert_eq!(encode(&[raw]), None);
    }
}
