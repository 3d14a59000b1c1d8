//! What a learner reads: every text of the translation tables (the chrome, both fables' log lines,
//! the technical lines), every built-in scenario's title and summary, and every lesson's text, in
//! English and Chinese. No seed-document or issue numbers, times in seconds, one pronoun per
//! person.

use leaselab::scenario::library;
use leaselab::story::i18n::Ui;
use leaselab::story::narrate::Line;
use leaselab::vocab::Fable;
use leaselab::vocab::Lang;

/// Every learner-facing text with where it comes from.
fn learner_texts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for lang in [Lang::En, Lang::Zh] {
        for ui in Ui::ALL {
            out.push((format!("{ui:?}"), ui.text(lang).to_owned()));
        }
        for line in Line::ALL {
            out.push((format!("{line:?} (technical)"), line.technical(lang).to_owned()));
            for fable in Fable::all() {
                out.push((format!("{line:?} ({fable:?})"), line.story(fable, lang).to_owned()));
            }
        }
        for fable in Fable::all() {
            for word in leaselab::fables::Word::ALL {
                out.push((format!("{word:?} ({fable:?})"), fable.word(*word, lang).to_owned()));
            }
            for (key, name, is) in fable.legend(lang) {
                out.push((format!("legend {key} ({fable:?})"), name.to_owned()));
                out.push((format!("legend {key} ({fable:?})"), is.to_owned()));
            }
        }
    }
    for id in library::ids() {
        let s = library::get(id).expect("listed").expect("parses");
        for (what, l) in [("title", &s.title), ("summary", &s.summary)] {
            let l = l.as_ref().unwrap_or_else(|| panic!("{id} has a {what}"));
            out.push((format!("{id} {what}"), l.en.clone()));
            out.push((format!("{id} {what}"), l.zh.clone()));
        }
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/lessons");
    for entry in std::fs::read_dir(&dir).expect("lessons") {
        let path = entry.expect("entry").path();
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        collect(&json, &path.display().to_string(), &mut out);
    }
    out
}

/// The `en` and `zh` strings of a lesson file (its words; ids and settings are not read).
fn collect(v: &serde_json::Value, at: &str, out: &mut Vec<(String, String)>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("en" | "zh", serde_json::Value::String(s)) => out.push((at.to_owned(), s.clone())),
                    _ => collect(v, &format!("{at}.{k}"), out),
                }
            }
        }
        serde_json::Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                collect(v, &format!("{at}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// `owner/repo#123`, `#9921`, `KAFKA-6082`, "(seed 001)", "Seed 004", "种子 001", "reference case C23".
fn reference_in(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        let next_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if *c == '#' && next_digit {
            return Some("#N".into());
        }
        // An upper-case project key and a number: KAFKA-6082, ZOOKEEPER-2307.
        if *c == '-' && next_digit && i >= 3 && chars[i - 3..i].iter().all(char::is_ascii_uppercase) {
            return Some("KEY-N".into());
        }
    }
    let lower = text.to_lowercase();
    for word in ["seed 0", "seed 1", "seed 2", "seed 3", "seed 4", "种子 0", "种子文档", "case c2"] {
        if lower.contains(word) {
            return Some(word.into());
        }
    }
    None
}

#[test]
fn no_seed_documents_or_issue_numbers() {
    let found: Vec<String> = learner_texts()
        .into_iter()
        .filter_map(|(at, t)| reference_in(&t).map(|r| format!("{at}: {r} in {t}")))
        .collect();
    assert!(found.is_empty(), "{} texts cite sources a learner cannot use:\n{}", found.len(), found.join("\n"));
}

/// Times are read in seconds: no count of milliseconds beside them (`61500 ms`, `{ms} ms`).
#[test]
fn times_are_in_seconds() {
    let mut found = Vec::new();
    for (at, t) in learner_texts() {
        let words: Vec<&str> = t.split([' ', '(', '（', '\u{a0}']).collect();
        for w in words.windows(2) {
            let number = w[0].chars().next().is_some_and(|c| c.is_ascii_digit() || c == '{')
                && w[0].ends_with(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '}']);
            if number
                && (w[1] == "ms"
                    || w[1].starts_with("ms.")
                    || w[1].starts_with("ms,")
                    || w[1].starts_with("ms;")
                    || w[1].starts_with("毫秒"))
            {
                found.push(format!("{at}: {t}"));
            }
        }
        if t.contains("} ms") || t.contains("}ms") || t.contains("} 毫秒") || t.contains("{ms}") {
            found.push(format!("{at}: {t}"));
        }
    }
    found.dedup();
    assert!(found.is_empty(), "{} texts count milliseconds:\n{}", found.len(), found.join("\n"));
}

/// Each person of the fables is one person: a text that names exactly one of them (and no other
/// figure who could take a pronoun) uses only that person's pronouns, never "its" or "they". A
/// lantern line told of any borrower uses no pronoun for `{name}` at all.
#[test]
fn one_pronoun_per_person() {
    let people: [(&str, &[&str]); 5] = [
        ("Chen", &["he", "him", "his"]),
        ("Lin", &["she", "her", "hers"]),
        ("A-Xiu", &["she", "her", "hers"]),
        ("Wang", &["he", "him", "his"]),
        ("Auntie Zhou", &["she", "her", "hers"]),
    ];
    let personal = ["he", "him", "his", "she", "her", "hers", "they", "them", "their", "its"];
    // Other figures who may share a text and take a pronoun of their own.
    let others = [
        "verifier",
        "keeper",
        "dockmaster",
        "elder",
        "client",
        "Client",
        "resource",
        "store",
        "lock",
        "boat",
        "master",
        "process",
        "node",
        "leader",
        "candidate",
        "holder",
        "borrower",
        "bearer",
        "they",
        "They",
    ];
    // A lesson step is read as one text: its question's choices lean on the question's names.
    let mut texts: Vec<(String, String)> = Vec::new();
    for (at, text) in learner_texts() {
        let key = match at.find("].") {
            Some(i) if at.contains(".steps[") => at[..=i].to_owned(),
            _ => at,
        };
        match texts.last_mut() {
            Some((k, t)) if *k == key => {
                t.push('\n');
                t.push_str(&text);
            }
            _ => texts.push((key, text)),
        }
    }
    let mut found = Vec::new();
    for (at, text) in texts {
        let named: Vec<&(&str, &[&str])> = people.iter().filter(|(p, _)| text.contains(p)).collect();
        if named.len() != 1 || others.iter().any(|o| text.contains(o)) {
            continue;
        }
        let (who, theirs) = named[0];
        for word in text.split(|c: char| !c.is_alphanumeric() && c != '-') {
            let w = word.to_lowercase();
            if personal.contains(&w.as_str()) && !theirs.contains(&w.as_str()) {
                found.push(format!("{at}: “{w}” for {who} in: {text}"));
            }
        }
    }
    // A fable with a cast of its own (the lantern's townsfolk) gives any node any of its people:
    // its story lines say nothing of who {name} is.
    let own_casts = Fable::all().filter(|f| f.def().cast.is_some());
    for (line, fable) in own_casts.flat_map(|f| Line::ALL.into_iter().map(move |l| (l, f))) {
        let story = line.story(fable, Lang::En);
        if story.contains("{name}") {
            for word in story.split(|c: char| !c.is_alphanumeric()) {
                if ["they", "them", "their", "themselves", "she", "her", "he", "him", "his"].contains(&word) {
                    let keeper = story.contains("keeper") || story.contains("elder");
                    if !(keeper && ["he", "him", "his"].contains(&word)) {
                        found.push(format!("{line:?} ({fable:?}): “{word}” for anyone of its cast in: {story}"));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "{} pronouns that do not fit their person:\n{}", found.len(), found.join("\n"));
}
