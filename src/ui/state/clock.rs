//! The page's clock: one tick per animation frame, and a watchdog for a browser that does not
//! paint.

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;

use super::AppState;

impl AppState {
    /// Runs the animation loop for the lifetime of the page: one tick per animation frame. A
    /// slow watchdog timer takes over only while no frame has come for a while (a browser that
    /// does not paint, e.g. a headless one), so the story still moves on.
    pub fn start_clock(self) {
        let last = Rc::new(Cell::new(None::<f64>));
        frame(self, last.clone());
        set_interval(
            move || {
                let now = now_ms();
                let stalled = match (now, last.get()) {
                    (Some(n), Some(l)) => n - l > WATCHDOG_MS,
                    _ => true,
                };
                if stalled {
                    advance(self, &last, now);
                }
            },
            std::time::Duration::from_millis(WATCHDOG_MS as u64),
        );
    }
}

/// How long without an animation frame before the watchdog ticks instead, in ms.
const WATCHDOG_MS: f64 = 200.0;

pub(super) fn now_ms() -> Option<f64> {
    crate::ui::window().and_then(|w| w.performance()).map(|p| p.now())
}

/// Moves the clock by the real time since the last tick.
fn advance(state: AppState, last: &Cell<Option<f64>>, now: Option<f64>) {
    let previous = last.replace(now);
    if state.playing.get_untracked() {
        let dt = match (now, previous) {
            (Some(n), Some(p)) if n.is_finite() && p.is_finite() => n - p,
            _ => 0.0,
        };
        state.tick(dt);
    } else if state.log_behind() {
        // Paused with rows not yet in the log (see `FAST_FROM_SPEED`): it catches up.
        state.publish();
    }
}

fn frame(state: AppState, last: Rc<Cell<Option<f64>>>) {
    request_animation_frame(move || {
        advance(state, &last, now_ms());
        frame(state, last);
    });
}
