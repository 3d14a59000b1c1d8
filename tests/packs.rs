//! The translation packs the page loads (`assets/i18n/*.json`) are the translation tables, text
//! for text, in the order the page reads them.

use leaselab::scenario::library;
use leaselab::story::i18n::Ui;
use leaselab::story::narrate::Line;
use leaselab::story::packs;
use leaselab::vocab::Lang;

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
    let en = packs::texts(Lang::En);
    let zh = packs::texts(Lang::Zh);
    assert_eq!(en[packs::ui_index(Ui::Play)], "Play");
    assert_eq!(zh[packs::ui_index(Ui::Play)], "播放");
    // Every text of the page's own at its place, each place once.
    let mut places: Vec<usize> = Ui::ALL.iter().map(|u| packs::ui_index(*u)).collect();
    for u in Ui::ALL {
        assert_eq!(zh[packs::ui_index(*u)], u.text(Lang::Zh), "{u:?}");
    }
    places.sort_unstable();
    places.dedup();
    assert_eq!(places.len(), Ui::ALL.len());
    let [story, technical] = Line::LeaseExpired.text(Lang::Zh);
    assert_eq!(
        (zh[packs::story_index(Line::LeaseExpired)], zh[packs::technical_index(Line::LeaseExpired)]),
        (story, technical)
    );
    assert_eq!(en[packs::lantern_index(Line::RunEnded)], Line::RunEnded.lantern_story(Lang::En));
    // The built-in scenarios' titles close the pack, in menu order, as their files give them.
    let last = library::MENU.len() - 1;
    assert_eq!(packs::scenario_title_index(last), packs::COUNT - 1);
    let file: serde_json::Value =
        serde_json::from_str(include_str!("../assets/scenarios/harbor-zombie.json")).expect("JSON");
    let i = library::ids().position(|id| id == "harbor-zombie").expect("a built-in");
    assert_eq!(Some(zh[packs::scenario_title_index(i)]), file["title"]["zh"].as_str());
    assert_eq!(Some(en[packs::scenario_title_index(i)]), file["title"]["en"].as_str());
}

/// The first part holds what the first scene needs: the page's own texts but those marked
/// `#[later]` (which only the later parts show), and the harbor's story lines; the technical
/// lines, the lantern's stories and the scenarios' titles wait for the later part.
#[test]
fn the_first_part_holds_the_page_and_the_harbors_story() {
    use packs::Part;
    for u in Ui::ALL {
        let part = if Ui::LATER[*u as usize] { Part::Later } else { Part::First };
        assert_eq!(Part::of(packs::ui_index(*u)), part, "{u:?}");
    }
    // The transport's words and the scene's are in the first; the side panel's, the tools menu's
    // and the address warnings' (drawn once the later part has come) in the later.
    for u in [Ui::Play, Ui::Pause, Ui::Speed, Ui::AppTitle, Ui::Dockmaster, Ui::CaptionEmpty] {
        assert_eq!(Part::of(packs::ui_index(u)), Part::First, "{u:?}");
    }
    for u in [Ui::PanelTitle, Ui::LogTitle, Ui::FencingOn, Ui::StoreRulesRedis, Ui::UrlWarningTitle, Ui::UrlBadSpeed] {
        assert_eq!(Part::of(packs::ui_index(u)), Part::Later, "{u:?}");
        assert!(!packs::is_lantern(u), "{u:?}");
    }
    // The lantern's own words (the tablet, the wick, its caption before the story starts) come
    // with the later part, and only they may be read before it has come.
    for u in [Ui::LanternCaptionEmpty, Ui::LanternSceneLabel, Ui::TabletFree, Ui::WickLeft] {
        assert_eq!(Part::of(packs::ui_index(u)), Part::Later, "{u:?}");
        assert!(packs::is_lantern(u), "{u:?}");
    }
    for u in Ui::ALL {
        assert_eq!(packs::is_lantern(*u), Ui::LANTERN[*u as usize], "{u:?}");
    }
    assert!(!packs::is_lantern(Ui::Play) && !packs::is_lantern(Ui::Dockmaster));
    for l in Line::ALL {
        assert_eq!(Part::of(packs::story_index(l)), Part::First, "{l:?}'s story");
        assert_eq!(Part::of(packs::technical_index(l)), Part::Later, "{l:?}'s technical text");
        assert_eq!(Part::of(packs::lantern_index(l)), Part::Later, "{l:?}'s lantern story");
    }
    for i in 0..library::MENU.len() {
        assert_eq!(Part::of(packs::scenario_title_index(i)), Part::Later, "the title of {}", library::MENU[i].id);
    }
}
