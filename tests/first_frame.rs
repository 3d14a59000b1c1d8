//! The page's first frame at its bare address, rendered natively (`leaselab first-frame`, put
//! into `index.html` by `cargo xtask dist`): the page's own views, with no browser. The browser
//! test `first_scene` checks that the app draws the same frame.

use leaselab::draw::{Layer, Look};
use leaselab::engine::Sim;
use leaselab::scenario::library;
use leaselab::story::markup::without_attributes;
use leaselab::story::picture::{picture, Memory};
use leaselab::story::Cast;
use leaselab::vocab::{Fable, Lang};

#[test]
fn the_first_frame_is_the_opening_of_the_default_story_drawn_by_its_fable() {
    let frame = leaselab::ui::first_frame();
    // The harbor's zombie leader (the first fable's story, 000_…txt) before anything happens:
    // nobody holds the post, the clock at 0.0 s of the run's 90 s, Old Chen on his way.
    for said in ["(nobody)", "Old Chen comes to the breakwater", "0.0", "of 90.0", "LeaseLab"] {
        assert!(frame.contains(said), "the first frame does not say {said:?}");
    }
    // The scene is the harbor's drawing of the engine's opening state, part by part, as the
    // native `draw` module draws it (the page sets the same parts, `ui::scene`).
    let scenario = library::get(library::DEFAULT_ID).expect("the default scenario is built in").expect("it reads");
    let harbor = Fable::from_code("harbor").expect("the harbor is a telling");
    assert_eq!(scenario.fable, harbor);
    // The page's run starts with what happens at 0 ms (the nodes start: `ui::state::fresh_run`).
    let mut sim = Sim::new(scenario.config.clone()).expect("the default scenario is valid");
    sim.advance_to(0);
    // The page's memory of the run starts empty (`ui::state::AppState::new`).
    let p = picture(&sim.snapshot(), &Memory::default());
    let cast = Cast::for_fable(&scenario, harbor);
    let look = Look { fable: harbor, lang: Lang::En, floor: 0.0 };
    let mut drawn = 0;
    for layer in harbor.drawing().layers {
        if let Layer::Drawn(class, draw) = layer {
            let part = draw(&p, &cast, None, look).into_string();
            // As a picture: without what only the app uses (test ids, what a screen reader says).
            let part = without_attributes(&part, leaselab::story::markup::PICTURE_DROPPED);
            assert!(frame.contains(&part), "the first frame lacks the harbor's part {class:?}: {part:.200}");
            drawn += 1;
        }
    }
    assert!(drawn >= 3, "the harbor draws {drawn} parts from the picture");
    assert!(frame.contains("class=\"bearers\""), "no flag-bearers in the first frame");
}

#[test]
fn the_first_frame_is_a_picture_not_a_page_to_use() {
    let frame = leaselab::ui::first_frame();
    // Nothing a test or a screen reader could take for the app (index.html marks it inert), no
    // placeholder comments, and no element of the later parts (they come after the first paint).
    for absent in ["data-testid", "aria-label=", " role=", "<!>", "<!--"] {
        assert!(!frame.contains(absent), "the first frame has {absent:?}");
    }
    // The landing card is up, over the run at 0 s; the controls show where the run stands.
    assert!(frame.contains("class=\"landing"), "no landing card in the first frame");
    assert!(frame.contains("type=\"range\"") && frame.contains("value=\"0\""), "the scrubber is not at 0");
    // Rendered twice, the same frame: nothing in it depends on a clock or on chance.
    assert_eq!(frame, leaselab::ui::first_frame());
}
