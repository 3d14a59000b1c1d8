//! The translation packs the page loads (`assets/i18n/*.json`) are the translation tables, text
//! for text, in the order the page reads them.

use leaselab::story::i18n::Ui;
use leaselab::story::narrate::Line;
use leaselab::story::packs;
use leaselab::vocab::Lang;

#[test]
fn the_committed_packs_are_the_tables() {
    for lang in [Lang::En, Lang::Zh] {
        let path = format!("{}/assets/i18n/{}", env!("CARGO_MANIFEST_DIR"), packs::file_name(lang));
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == packs::file(lang),
            "{path} is not the translation tables' text: after changing a text, run \
             `cargo run --bin leaselab -- packs` and commit the packs"
        );
        let texts: Vec<String> = serde_json::from_str(&committed).expect("a JSON array of strings");
        assert_eq!(texts.len(), packs::COUNT);
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
    assert_eq!(en[Ui::Play as usize], "Play");
    assert_eq!(zh[Ui::Play as usize], "播放");
    let [story, technical] = Line::LeaseExpired.text(Lang::Zh);
    assert_eq!(
        (zh[packs::line_index(Line::LeaseExpired)], zh[packs::line_index(Line::LeaseExpired) + 1]),
        (story, technical)
    );
    assert_eq!(en[packs::lantern_index(Line::RunEnded)], Line::RunEnded.lantern_story(Lang::En));
    assert_eq!(packs::lantern_index(Line::ALL[Line::ALL.len() - 1]), packs::COUNT - 1);
}
