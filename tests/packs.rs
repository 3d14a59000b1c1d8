//! The translation packs the page loads (`assets/i18n/*.json`) are the translation tables, text
//! for text, in the order the page reads them.

use leaselab::scenario::library;
use leaselab::story::i18n::{Later, Ui};
use leaselab::story::narrate::Line;
use leaselab::story::packs::{self, Part};
use leaselab::vocab::{Fable, Lang};

#[test]
fn the_committed_packs_are_the_tables() {
    for lang in [Lang::En, Lang::Zh] {
        let mut whole: Vec<String> = Vec::new();
        for part in packs::Part::ALL {
            let path = format!("{}/assets/i18n/{}", env!("CARGO_MANIFEST_DIR"), packs::file_name(lang, part));
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                committed == packs::file(lang, part),
                "{path} is not the translation tables' text: after changing a text, run \
                 `cargo run --bin leaselab -- packs` and commit the packs"
            );
            let texts: Vec<String> = serde_json::from_str(&committed).expect("a JSON array of strings");
            assert_eq!(texts.len(), part.range().len(), "{path}");
            whole.extend(texts);
        }
        assert_eq!(whole.len(), packs::COUNT);
        assert_eq!(whole, packs::texts(lang));
        for fable in Fable::all() {
            let mut own = Vec::new();
            for part in Part::ALL {
                let name = packs::fable_file_name(fable, lang, part);
                let path = format!("{}/assets/i18n/{name}", env!("CARGO_MANIFEST_DIR"));
                let committed = std::fs::read_to_string(&path).unwrap_or_default();
                assert!(
                    committed == packs::fable_file(fable, lang, part),
                    "{path} is not {fable:?}'s texts: after changing a text, run `cargo run --bin leaselab -- packs` \
                     and commit the packs"
                );
                let texts: Vec<String> = serde_json::from_str(&committed).expect("a JSON array of strings");
                assert_eq!(texts.len(), fable.pack_len(part), "{path}");
                own.extend(texts);
            }
            // The two parts are the fable's texts but its introduction, in order; the first holds
            // its words and drawing's own, the later its story lines and legend.
            let all = fable.texts(lang);
            assert_eq!(own, all[leaselab::fables::Word::INTRODUCTION..]);
            // The later part begins with the first line the first part does not hold.
            let later = &own[fable.pack_len(Part::First)..];
            assert_eq!(
                later.first().map(String::as_str),
                Some(fable.line(Line::pack_order()[Line::FIRST_PART.len()], lang))
            );
        }
    }
}

/// A fable's texts are its words in concept order, its drawing's own, its story lines in line
/// order and its legend, as `Fable` reads them; the first of its words, its introduction, are in
/// the page's first part, the rest in its own pack.
#[test]
fn a_fables_pack_is_read_as_it_is_written() {
    use leaselab::fables::Word;
    for fable in Fable::all() {
        for lang in [Lang::En, Lang::Zh] {
            let texts = fable.texts(lang);
            assert_eq!(texts.len(), Word::INTRODUCTION + fable.pack_len(Part::First) + fable.pack_len(Part::Later));
            assert_eq!(texts[Word::Name as usize], fable.word(Word::Name, lang));
            let last = *Line::ALL.last().expect("lines");
            assert!(texts.contains(&fable.line(last, lang)));
            let legend: Vec<_> = fable.legend(lang).collect();
            assert_eq!(legend.len(), fable.def().legend.len());
            let (_, name, is) = legend.last().copied().expect("a legend");
            assert_eq!(&texts[texts.len() - 2..], [name, is]);
            // Its introduction is in the page's first part, where the page reads it.
            let page = packs::texts(lang);
            for (i, word) in Word::ALL[..Word::INTRODUCTION].iter().enumerate() {
                let at = packs::introduction_index(fable, i);
                assert_eq!(packs::Part::of(at), packs::Part::First);
                assert_eq!(page[at], fable.word(*word, lang), "{fable:?} {word:?}");
            }
        }
    }
}

#[test]
fn a_pack_is_read_in_declaration_order() {
    for (i, u) in Ui::ALL.iter().enumerate() {
        assert_eq!(*u as usize, i, "Ui::ALL is in declaration order");
    }
    for (i, l) in Line::ALL.iter().enumerate() {
        assert_eq!(*l as usize, i, "Line::ALL is in declaration order");
    }
    for (i, l) in Later::ALL.iter().enumerate() {
        assert_eq!(*l as usize, i, "Later::ALL is in declaration order");
    }
    let en = packs::texts(Lang::En);
    let zh = packs::texts(Lang::Zh);
    let first = |u: Ui| packs::page_index(packs::Part::First, u as usize);
    let later = |l: Later| packs::page_index(packs::Part::Later, l as usize);
    assert_eq!(en[first(Ui::Play)], "Play");
    assert_eq!(zh[first(Ui::Play)], "播放");
    assert_eq!(en[later(Later::PanelTitle)], "The same state, technically");
    // Every text of the page's own at its place, each place once.
    let mut places: Vec<usize> =
        Ui::ALL.iter().map(|u| first(*u)).chain(Later::ALL.iter().map(|l| later(*l))).collect();
    for u in Ui::ALL {
        assert_eq!(zh[first(*u)], u.text(Lang::Zh), "{u:?}");
    }
    for l in Later::ALL {
        assert_eq!(en[later(*l)], l.text(Lang::En), "Later::{l:?}");
        assert_eq!(zh[later(*l)], l.text(Lang::Zh), "Later::{l:?}");
    }
    places.sort_unstable();
    places.dedup();
    assert_eq!(places.len(), Ui::ALL.len() + Later::ALL.len());
    assert_eq!(zh[packs::technical_index(Line::LeaseExpired)], Line::LeaseExpired.technical(Lang::Zh));
    assert_eq!(en[packs::technical_index(Line::RunEnded)], Line::RunEnded.technical(Lang::En));
    // The built-in scenarios' titles close the pack, in menu order, as their files give them.
    let last = library::MENU.len() - 1;
    assert_eq!(packs::scenario_title_index(last), packs::COUNT - 1);
    let file: serde_json::Value =
        serde_json::from_str(include_str!("../assets/scenarios/harbor-zombie.json")).expect("JSON");
    let i = library::ids().position(|id| id == "harbor-zombie").expect("a built-in");
    assert_eq!(Some(zh[packs::scenario_title_index(i)]), file["title"]["zh"].as_str());
    assert_eq!(Some(en[packs::scenario_title_index(i)]), file["title"]["en"].as_str());
}

/// The first part holds what the first scene needs: the first screen's table ([`Ui`]); the later
/// parts' table ([`Later`]), the technical lines and the scenarios' titles wait for the later
/// part. What a fable says is in its own pack.
#[test]
fn the_first_part_holds_the_page() {
    use packs::Part;
    for u in Ui::ALL {
        assert_eq!(Part::of(packs::page_index(Part::First, *u as usize)), Part::First, "{u:?}");
    }
    for l in Later::ALL {
        assert_eq!(Part::of(packs::page_index(Part::Later, *l as usize)), Part::Later, "Later::{l:?}");
    }
    for l in Line::ALL {
        assert_eq!(Part::of(packs::technical_index(l)), Part::Later, "{l:?}'s technical text");
    }
    for i in 0..library::MENU.len() {
        assert_eq!(Part::of(packs::scenario_title_index(i)), Part::Later, "the title of {}", library::MENU[i].id);
    }
}

/// Each built-in lesson's bundle (`assets/lesson-bundles/<id>.json`, which the page fetches
/// instead of the lesson's file and its scenarios' files) is the lesson's file with the exact
/// file of every built-in scenario its steps play, and nothing else.
#[test]
fn the_committed_lesson_bundles_are_the_lessons_and_their_scenarios() {
    use library::lessons;
    for menu in lessons::MENU {
        let path = format!("{}/assets/{}/{}.json", env!("CARGO_MANIFEST_DIR"), lessons::BUNDLE_DIR, menu.id);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        let wanted = lessons::bundle(menu.id).expect("a built-in").expect("it parses");
        assert!(
            committed == wanted,
            "{path} is not the lesson with its scenarios: after changing a lesson or a scenario, run \
             `cargo run --bin leaselab -- packs` and commit the bundles"
        );
        let bundle: serde_json::Value = serde_json::from_str(&committed).expect("JSON");
        assert_eq!(bundle["format"], lessons::BUNDLE_FORMAT);
        let file = std::fs::read_to_string(format!("{}/assets/lessons/{}.json", env!("CARGO_MANIFEST_DIR"), menu.id))
            .expect("the lesson's file");
        assert_eq!(bundle["lesson"].as_str(), Some(file.as_str()), "{path}: the lesson's own file");
        let lesson = lessons::get(menu.id).expect("a built-in").expect("it parses");
        let mut played: Vec<&str> = lesson.steps.iter().filter_map(|s| s.scenario.as_deref()).collect();
        played.sort_unstable();
        played.dedup();
        let scenarios = bundle["scenarios"].as_object().expect("an object of scenarios");
        let held: Vec<&str> = scenarios.keys().map(String::as_str).collect();
        assert_eq!(held, played, "{path}: the scenarios its steps play");
        for (id, text) in scenarios {
            let file = std::fs::read_to_string(format!("{}/assets/scenarios/{id}.json", env!("CARGO_MANIFEST_DIR")))
                .expect("the scenario's file");
            assert_eq!(text.as_str(), Some(file.as_str()), "{path}: {id}'s own file");
        }
    }
}

/// Every scene a landing card opens (and the page's opening scene) is told, line by line, from
/// the first part of its telling's pack: the page draws its first scene before the later part
/// has come (`story::packs`), and the caption tells the run as it plays.
#[test]
fn the_opening_scenes_are_told_from_the_first_part() {
    use leaselab::engine::Sim;
    use leaselab::story::{narrate, Cast};
    let mut ids = vec![leaselab::build_facts::DEFAULT_SCENARIO];
    for fable in Fable::all() {
        ids.push(fable.def().landing.story);
    }
    let mut told = 0;
    for id in ids {
        let Some(s) = library::get(id).and_then(Result::ok) else { continue };
        for fable in Fable::all() {
            let mut s = s.clone();
            s.fable = fable;
            let cast = Cast::new(&s);
            let mut sim = Sim::new(s.config.clone()).expect("a built-in plays");
            sim.run_to_end();
            for entry in sim.trace() {
                let Some(n) = narrate::narrate(entry, &cast, Lang::En) else { continue };
                told += 1;
                assert!(n.line.in_first_part(), "{id} told as {fable:?}: {:?} is in the later part", n.line);
            }
        }
    }
    assert!(told > 100, "{told} lines told");
}
