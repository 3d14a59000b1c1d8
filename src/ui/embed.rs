//! The `postMessage` API of an embedded scene (`?embed=1`; the page itself is [`super::App`]
//! without its chrome): the embedding page drives the scene and hears what happens.
//!
//! The protocol's shapes and checks are pure Rust in [`crate::scenario::embed`]; this module only
//! moves messages between the browser and the app. It talks to its parent window only, accepts
//! messages only from the allowed origins and posts only to them (see `docs/embed.md`).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::actions::Action;
use crate::scenario::embed::{self, Allowed, Field, Request, State, Throttle, MAX_BURST};

use super::state::AppState;

/// Starts the API if there is a host to talk to (the page is in a frame and some origin is
/// allowed): obeys its commands and posts `ready`, `state`, `write`, `violation` and `error`
/// events to it. Returns whether it runs.
pub fn listen(app: AppState, allowed: Allowed, parent_origin: Option<String>) -> bool {
    let Some(window) = crate::ui::window() else { return false };
    let Some(parent) = window.parent().ok().flatten().filter(|p| !js_sys::Object::is(p, &window)) else {
        return false;
    };
    // Post only where the message may be read: the allowed origins, narrowed to the parent's own
    // when the browser tells it (a target that does not match is an error in the console).
    let targets: Vec<String> = match &allowed {
        Allowed::Any => vec!["*".into()],
        Allowed::Only(list) => {
            list.iter().filter(|o| parent_origin.as_ref().is_none_or(|p| p == *o)).cloned().collect()
        }
    };
    if targets.is_empty() {
        return false;
    }
    // The API's code is a chunk fetched now, after the first scene; the host waits for `ready`.
    // Not fetched (the network): the API stays off, and the host hears no `ready`.
    leptos::task::spawn_local_scoped(async move {
        let _ = serve(app, allowed, parent, targets).await;
    });
    true
}

chunk_fn! {
    in later_parts;
    /// Obeys the host's commands and posts the scene's events to `targets` (see [`listen`]). Loaded
    /// after the first scene in the split build.
    fn serve(app: AppState, allowed: Allowed, parent: web_sys::Window, targets: Vec<String>) = serve_host;
}

fn serve_host(app: AppState, allowed: Allowed, parent: web_sys::Window, targets: Vec<String>) {
    let host = parent.clone();
    let post: Rc<dyn Fn(&str)> = Rc::new(move |json: &str| {
        if let Ok(message) = js_sys::JSON::parse(json) {
            for target in &targets {
                let _ = host.post_message(&message, target);
            }
        }
    });

    let answer = post.clone();
    let _ = window_event_listener_untyped("message", move |ev| {
        let Ok(ev) = ev.dyn_into::<web_sys::MessageEvent>() else { return };
        // Only the embedding page, and only from an allowed origin; anything else is not heard.
        if !ev.source().is_some_and(|s| js_sys::Object::is(&s, &parent)) || !allowed.accepts(&ev.origin()) {
            return;
        }
        let data = ev.data();
        // Cheap look before reading anything else: is it meant for LeaseLab at all?
        if !data.is_object() || js_sys::Reflect::get(&data, &"leaselab".into()).map_or(true, |v| v.is_undefined()) {
            return;
        }
        let outcome = fields(&data).and_then(embed::read).and_then(|request| match request {
            None => Ok(()),
            Some(request) => {
                let what = request.kind();
                obey(app, request).map_err(|why| embed::Rejected { what: what.into(), why })
            }
        });
        if let Err(e) = outcome {
            answer(&embed::error(&e));
        }
    });

    // Events out: after every change of what the scene shows.
    let throttle = RefCell::new(Throttle::default());
    let cursor = Cell::new(0usize);
    let ready = Cell::new(false);
    super::effect(move || {
        let lang = app.lang.get();
        let fable = app.fable.get();
        let playing = app.playing.get();
        let finished = app.finished.get();
        let scenario = app.scenario.with(|s| s.id.clone());
        let state = app.snapshot.with(|s| State {
            time_ms: s.now_ms,
            until_ms: s.until_ms,
            playing,
            finished,
            holder: s.lease.holder_identity.clone(),
            token: s.lease.token,
            expired: s.lease.expired,
            high_water_mark: s.resource.high_water,
            fencing: s.resource.fencing,
            accepted: s.resource.accepted,
            rejected: s.resource.rejected,
            scenario,
            fable: fable.code(),
            lang: lang.code(),
        });
        if !ready.replace(true) {
            post(&embed::ready(&state.scenario));
        }
        // Judged writes and violations since the last look. After a seek back or a reset the trace
        // is shorter: what is replayed from there is reported again as it happens.
        let cast = app.cast.get_untracked();
        let found: Vec<String> = app.with_trace(|trace, _, _, _| {
            let from = cursor.get().min(trace.len());
            cursor.set(trace.len());
            let mut found: Vec<String> = trace[from..]
                .iter()
                .filter_map(|e| embed::reported(e, |v| crate::story::violations::sentence(v, e.at_ms, &cast, lang)))
                .collect();
            let extra = found.len().saturating_sub(MAX_BURST);
            found.drain(..extra);
            found
        });
        for json in &found {
            post(json);
        }
        let real = crate::ui::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now());
        if throttle.borrow_mut().due(&state, real) {
            post(&embed::state(&state));
        }
    });
}

/// The fields of a posted object, read one by one: short strings, numbers, and for `scenario`
/// an object as JSON text; anything else only by its kind. Long strings are not copied.
///
/// # Errors
/// A message with more fields than any command has.
fn fields(data: &wasm_bindgen::JsValue) -> Result<Vec<(String, Field)>, embed::Rejected> {
    use js_sys::JsString;
    let keys = js_sys::Object::keys(data.unchecked_ref::<js_sys::Object>());
    if keys.length() as usize > embed::MAX_FIELDS + 2 {
        return Err(embed::Rejected { what: "message".into(), why: "too many fields; at most 10".into() });
    }
    let mut out = Vec::new();
    for key in keys.iter() {
        let Some(name) = key.dyn_ref::<JsString>().filter(|k| k.length() <= 64).map(String::from) else {
            out.push(("…".to_owned(), Field::Other("a field with a long name")));
            continue;
        };
        let value = js_sys::Reflect::get(data, &key).unwrap_or_default();
        let field = if let Some(text) = value.dyn_ref::<JsString>() {
            if text.length() > embed::MAX_TEXT {
                Field::Other("a string of more than 200 characters")
            } else {
                Field::Text(String::from(text))
            }
        } else if let Some(n) = value.as_f64() {
            Field::Number(n)
        } else if value.is_null() {
            Field::Other("null")
        } else if js_sys::Array::is_array(&value) {
            Field::Other("an array")
        } else if value.is_object() && name == "scenario" {
            match js_sys::JSON::stringify(&value) {
                Ok(text) if text.length() > embed::MAX_SCENARIO_CHARS => {
                    Field::Other("an object of more than 1 MiB of JSON")
                }
                Ok(text) => Field::Object(String::from(text)),
                Err(_) => Field::Other("an object that cannot be read as JSON"),
            }
        } else if value.is_object() {
            Field::Other("an object")
        } else {
            Field::Other("a value of another kind")
        };
        out.push((name, field));
    }
    Ok(out)
}

/// Carries out a command from the host.
///
/// # Errors
/// Why it could not be done (in English): the run has ended (play), the engine refused the
/// scenario or the intervention.
fn obey(app: AppState, request: Request) -> Result<(), String> {
    match request {
        Request::Play if app.finished.get_untracked() => {
            return Err("the run has ended: seek back, or load a scenario".into());
        }
        Request::Play => super::act::perform(app, Action::SetPlaying(true)),
        Request::Pause => super::act::perform(app, Action::SetPlaying(false)),
        Request::Seek { t_ms } => app.seek(t_ms),
        Request::Load { scenario, fable } => {
            app.load(*scenario);
            if let Some(fable) = fable {
                app.choose_fable(fable);
            }
        }
        Request::LoadBuiltin { id, fable } => {
            // Fetched first (see `catalog`); the host hears `state` once it runs.
            app.choose_scenario(id);
            if let Some(fable) = fable {
                app.choose_fable(fable);
            }
        }
        Request::Intervene { command } => app.try_apply(command)?,
        Request::Lang { lang } => super::set_lang(app, lang),
    }
    Ok(())
}
