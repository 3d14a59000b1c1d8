//! The oracle's findings in one sentence each, and who and what each one involves.
//!
//! Every [`Violation`] variant is matched without a wildcard, so a variant the engine adds later
//! does not compile until it is explained here (in both languages, through [`Ui`]).

use super::cast::Cast;
use super::i18n::{fill, seconds, Ui};
use crate::engine::{Violation, WireToken};
use crate::vocab::Lang;

/// One violation as the oracle reported it, with where it sits in the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Which run of the page it belongs to (see [`super::technical::Ledger`]), so rows of a new
    /// run never reuse the views of an old run's rows.
    pub generation: u32,
    /// Position of its `ViolationFound` entry in the trace.
    pub seq: u64,
    /// Virtual time, in ms.
    pub at_ms: u64,
    /// What the oracle found.
    pub violation: Violation,
}

/// The elements of the scene a violation involves: the writer (his crew card and his
/// flag-bearer) and the fenced resource (the flag-verifier and the boat).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Highlight {
    /// The node whose write (or release) it was; `None` for a write from outside.
    pub node: Option<String>,
    /// Another node it harmed: the holder whose lock a release deleted.
    pub harmed: Option<String>,
    /// The resource took part (every violation so far is something the resource accepted).
    pub resource: bool,
}

impl Highlight {
    /// Whether node `id` is lit up.
    pub fn lights_node(&self, id: &str) -> bool {
        self.node.as_deref() == Some(id) || self.harmed.as_deref() == Some(id)
    }
}

/// What to light up in the scene for `v`: the writer and the resource; for a deleted lock, the
/// releaser only (the resource accepted nothing).
pub fn highlight(v: &Violation) -> Highlight {
    let resource = !matches!(v, Violation::LockDeletedByNonOwner { .. });
    let harmed = match v {
        Violation::LockDeletedByNonOwner { holder, .. } => Some(holder.clone()),
        _ => None,
    };
    Highlight { node: v.writer().map(str::to_owned), harmed, resource }
}

/// The violation in one sentence in `lang`, with its virtual time, e.g. "At 31.2 s the resource
/// accepted a write from Old Chen with token 7 although token 8 had been granted; it had not
/// seen 8 yet."
pub fn sentence(v: &Violation, at_ms: u64, cast: &Cast, lang: Lang) -> String {
    let who = v.writer().map_or_else(|| Ui::AnOutsideClient.text(lang).to_owned(), |id| cast.name(id, lang));
    let t = seconds(at_ms);
    let (template, values): (Ui, Vec<(&str, String)>) = match v {
        Violation::StaleWriteAccepted {
            token, newest_granted, resource_had_seen_newer, resource_forgot_newer, ..
        } => (
            match (resource_had_seen_newer, resource_forgot_newer) {
                (true, _) => Ui::ViolationStaleSeen,
                (false, true) => Ui::ViolationStaleForgotten,
                (false, false) => Ui::ViolationStaleUnseen,
            },
            vec![("token", token.to_string()), ("newest", newest_granted.to_string())],
        ),
        Violation::TokenRegression { token, highest_before, .. } => {
            (Ui::ViolationRegression, vec![("token", token.to_string()), ("highest", highest_before.to_string())])
        }
        Violation::DuplicateSideEffect { op_id, .. } => (Ui::ViolationDuplicate, vec![("op", cast.op_handle(op_id))]),
        Violation::InvalidTokenAccepted { token, .. } => (Ui::ViolationInvalid, vec![("token", token_text(token))]),
        Violation::LockDeletedByNonOwner { holder, holder_token, .. } => {
            (Ui::ViolationLockDeleted, vec![("holder", cast.name(holder, lang)), ("token", holder_token.to_string())])
        }
        Violation::ForeignTokenAccepted { token, lock, .. } => {
            (Ui::ViolationForeignToken, vec![("token", token.to_string()), ("lock", lock.clone())])
        }
    };
    let mut all: Vec<(&str, &str)> = vec![("t", &t), ("who", &who)];
    all.extend(values.iter().map(|(k, v)| (*k, v.as_str())));
    fill(template.text(lang), &all)
}

/// A token as received, for a sentence: the number, `∅` when absent, or its raw JSON.
fn token_text(token: &WireToken) -> String {
    token.label()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Sim;
    use crate::scenario::library;

    fn harbor_cast() -> Cast {
        Cast::new(&library::get("harbor-zombie").expect("exists").expect("parses"))
    }

    fn stale(seen: bool) -> Violation {
        Violation::StaleWriteAccepted {
            op_id: "chen-4".into(),
            from: Some("chen".into()),
            token: 7,
            newest_granted: 8,
            resource_had_seen_newer: seen,
            resource_forgot_newer: false,
        }
    }

    /// One of each variant (and both flavours of a stale write).
    fn every_variant() -> Vec<Violation> {
        vec![
            stale(false),
            stale(true),
            Violation::TokenRegression {
                op_id: "chen-5".into(),
                from: Some("chen".into()),
                token: 4,
                highest_before: 5,
            },
            Violation::DuplicateSideEffect { op_id: "w-1".into(), from: None },
            Violation::InvalidTokenAccepted { op_id: "x".into(), from: None, token: WireToken::Missing },
            Violation::LockDeletedByNonOwner { node: "chen".into(), holder: "lin".into(), holder_token: 8 },
            Violation::ForeignTokenAccepted { op_id: "y-51".into(), from: None, token: 51, lock: "invoices".into() },
        ]
    }

    #[test]
    fn kinds_are_the_reports_snake_case_tags() {
        for v in every_variant() {
            let json = serde_json::to_value(&v).expect("serializes");
            assert_eq!(json["kind"].as_str(), Some(v.kind()), "{v:?}");
        }
    }

    #[test]
    fn the_briefs_example_in_english() {
        let s = sentence(&stale(false), 31_200, &harbor_cast(), Lang::En);
        assert_eq!(
            s,
            "At 31.2 s the resource accepted a write from Old Chen with token 7 although token 8 had been granted; \
             it had not seen 8 yet."
        );
    }

    #[test]
    fn every_variant_is_one_filled_sentence_in_both_languages() {
        let cast = harbor_cast();
        for v in every_variant() {
            for lang in [Lang::En, Lang::Zh] {
                let s = sentence(&v, 60_071, &cast, lang);
                assert!(!s.contains('{') && !s.contains('}'), "unfilled: {s}");
                assert!(s.contains("60.1"), "the time is in it: {s}");
                if lang == Lang::Zh {
                    assert!(s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{s}");
                } else {
                    assert!(s.starts_with("At 60.1 s "), "{s}");
                    let sentences = s.matches(". ").count();
                    assert_eq!(sentences, 0, "one sentence: {s}");
                    assert!(s.ends_with('.'), "{s}");
                }
            }
        }
    }

    #[test]
    fn each_variant_says_what_its_fields_say() {
        let cast = harbor_cast();
        let [unseen, seen, regression, duplicate, invalid, deleted, foreign]: [String; 7] = every_variant()
            .iter()
            .map(|v| sentence(v, 1_000, &cast, Lang::En))
            .collect::<Vec<_>>()
            .try_into()
            .expect("seven");
        assert!(deleted.contains("Old Chen") && deleted.contains("Lin") && deleted.contains("token 8"), "{deleted}");
        assert!(foreign.contains("51") && foreign.contains("invoices"), "{foreign}");
        assert!(unseen.contains("had not seen 8 yet"), "{unseen}");
        assert!(seen.contains("already accepted a newer token") && seen.contains("token 7"), "{seen}");
        assert!(regression.contains("token 4, below 5"), "{regression}");
        assert!(
            duplicate.contains("operation w-1 from an outside client") && duplicate.contains("second time"),
            "{duplicate}"
        );
        assert!(invalid.contains("no valid token (∅)"), "{invalid}");

        let zh: Vec<String> = every_variant().iter().map(|v| sentence(v, 1_000, &cast, Lang::Zh)).collect();
        assert!(zh[0].contains("老陈") && zh[0].contains("还没见过 8"), "{}", zh[0]);
        assert!(zh[1].contains("两个 leader 的写入都生效了"), "{}", zh[1]);
        assert!(zh[2].contains("令牌 4") && zh[2].contains("最大令牌 5"), "{}", zh[2]);
        assert!(zh[3].contains("外部客户端的操作 w-1"), "{}", zh[3]);
        assert!(zh[4].contains("（∅）"), "{}", zh[4]);
    }

    #[test]
    fn highlights_name_the_writer_and_the_resource() {
        let h = highlight(&stale(true));
        assert!(h.lights_node("chen") && !h.lights_node("lin") && h.resource);
        let outside = highlight(&Violation::DuplicateSideEffect { op_id: "w".into(), from: None });
        assert_eq!(outside, Highlight { node: None, harmed: None, resource: true });
        let deleted =
            highlight(&Violation::LockDeletedByNonOwner { node: "a".into(), holder: "b".into(), holder_token: 2 });
        assert!(deleted.lights_node("a") && deleted.lights_node("b") && !deleted.lights_node("c") && !deleted.resource);
    }

    #[test]
    fn seconds_round_like_the_log() {
        assert_eq!(seconds(0), "0.0");
        assert_eq!(seconds(31_249), "31.2");
        assert_eq!(seconds(31_250), "31.3");
        assert_eq!(seconds(u64::MAX), format!("{}.{}", (u64::MAX / 100) / 10, (u64::MAX / 100) % 10));
    }

    /// Seed `000` without the verifier: Chen wakes and his 7 is obeyed after Lin's 8. The oracle
    /// calls it a stale write accepted after the resource had seen the newer token (and a token
    /// regression), and the sentence says so in Chen's name.
    #[test]
    fn harbor_without_fencing_is_explained() {
        let scenario = library::get("harbor-no-fencing").expect("exists").expect("parses");
        let cast = Cast::new(&scenario);
        let mut sim = Sim::new(scenario.config).expect("valid");
        sim.run_to_end();
        let found: Vec<(u64, &Violation)> = sim
            .trace()
            .iter()
            .filter_map(|e| match &e.event {
                crate::engine::TraceEvent::ViolationFound { violation, .. } => Some((e.at_ms, violation)),
                _ => None,
            })
            .collect();
        let (at, first) = found.first().copied().expect("the oracle found the collision");
        assert_eq!(first.kind(), "stale_write_accepted");
        assert!(matches!(
            first,
            Violation::StaleWriteAccepted { token: 7, newest_granted: 8, resource_had_seen_newer: true, .. }
        ));
        let s = sentence(first, at, &cast, Lang::En);
        assert!(s.contains("Old Chen with token 7") && s.contains("token 8 had been granted"), "{s}");
        assert!(highlight(first).lights_node("chen"));
    }
}
