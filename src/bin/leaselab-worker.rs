//! The page's search worker (issue 30): the engine in a dedicated Web Worker, its own wasm
//! instance, loaded the first time the learner asks the engine a question, so the page stays
//! smooth while it searches or sweeps.
//!
//! Trunk builds it (`index.html`: `data-type="worker"`, wasm-bindgen's `no-modules` glue); the
//! page starts it as a classic worker from `assets/leaselab-worker_loader.js`, which imports the
//! glue and starts the wasm. The messages are JSON texts, both ways; their shapes and the
//! jobs are `scenario::search` ([`Request`](leaselab::scenario::search::Request),
//! [`JobStep`](leaselab::scenario::search::JobStep)), tested natively, so an answer here is the
//! one `leaselab search` or `leaselab sweep` prints. This file only keeps time: it runs a job in
//! slices of about [`SLICE_MS`], reads messages between them (a stop takes effect within a
//! slice), and reports progress at most every [`PROGRESS_EVERY_MS`]. Natively it only explains
//! itself.

#[cfg(target_arch = "wasm32")]
fn main() {
    worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "leaselab-worker is the page's search worker: `leaselab search` and `leaselab sweep` run the same natively."
    );
    std::process::exit(2);
}

/// A slice's length, in ms of real time: short enough that a stop is heard at once (the issue
/// asks for 100 ms), long enough that yielding costs little.
#[cfg(target_arch = "wasm32")]
const SLICE_MS: f64 = 30.0;

/// Least real time between two progress messages, in ms.
#[cfg(target_arch = "wasm32")]
const PROGRESS_EVERY_MS: f64 = 200.0;

#[cfg(target_arch = "wasm32")]
mod worker {
    use std::cell::RefCell;

    use leaselab::scenario::search::{parse_request, Job, JobStep};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    use super::{PROGRESS_EVERY_MS, SLICE_MS};

    /// The job under way, and a number that changes with every new job or stop, so that a
    /// slice loop left from an earlier job ends.
    #[derive(Default)]
    struct Current {
        job: Option<Job>,
        generation: u64,
    }

    thread_local! {
        // The worker's one job: the glue's state, not the engine's (which has none).
        static CURRENT: RefCell<Current> = RefCell::new(Current::default());
    }

    fn scope() -> DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }

    fn now_ms() -> f64 {
        scope().performance().map_or(0.0, |p| p.now())
    }

    fn post(value: &serde_json::Value) {
        let _ = scope().post_message(&JsValue::from_str(&value.to_string()));
    }

    fn post_text(text: &str) {
        let _ = scope().post_message(&JsValue::from_str(text));
    }

    pub fn start() {
        console_error_panic_hook::set_once();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
            let data = event.data();
            let text = data
                .as_string()
                .or_else(|| js_sys::JSON::stringify(&data).ok().and_then(|s| s.as_string()))
                .unwrap_or_default();
            receive(&text);
        });
        scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        post(&serde_json::json!({ "leaselab": 1, "type": "ready" }));
    }

    fn receive(text: &str) {
        let request = match parse_request(text) {
            Ok(request) => request,
            Err(message) => return post(&serde_json::json!({ "leaselab": 1, "type": "error", "message": message })),
        };
        let job = match Job::start(request) {
            Ok(job) => job,
            Err(message) => return post(&serde_json::json!({ "leaselab": 1, "type": "error", "message": message })),
        };
        let generation = CURRENT.with(|c| {
            let mut c = c.borrow_mut();
            c.generation += 1;
            c.job = job;
            (c.job.is_some()).then_some(c.generation)
        });
        match generation {
            Some(generation) => wasm_bindgen_futures::spawn_local(run(generation)),
            None => post(&serde_json::json!({ "leaselab": 1, "type": "stopped" })),
        }
    }

    /// Runs the job of `generation` slice by slice until it ends or another takes its place.
    async fn run(generation: u64) {
        let started = now_ms();
        let mut posted = started - PROGRESS_EVERY_MS;
        // States per slice, adjusted to take about SLICE_MS.
        let mut budget: u64 = 2_000;
        loop {
            let slice = CURRENT.with(|c| {
                let mut c = c.borrow_mut();
                if c.generation != generation {
                    return None;
                }
                let t0 = now_ms();
                let step = c.job.as_mut().map(|job| job.step(budget))?;
                Some((step, now_ms() - t0))
            });
            let Some((step, took_ms)) = slice else { return };
            if took_ms > 0.0 {
                let scaled = (budget as f64 * SLICE_MS / took_ms).clamp(200.0, 500_000.0);
                budget = scaled as u64;
            }
            let now = now_ms();
            let done = matches!(step, JobStep::Answer { .. } | JobStep::Swept { .. } | JobStep::Failed { .. });
            match &step {
                JobStep::Progress { progress } if now - posted >= PROGRESS_EVERY_MS => {
                    posted = now;
                    let elapsed_ms = (now - started).max(1.0);
                    post(&serde_json::json!({
                        "leaselab": 1,
                        "type": "progress",
                        "progress": progress,
                        "elapsed_ms": elapsed_ms.round(),
                        "states_per_s": (progress.states as f64 * 1000.0 / elapsed_ms).round(),
                    }));
                }
                JobStep::Progress { .. } => {}
                _ => {
                    // The step's own shape, with the answer exactly as the command line prints it.
                    if let Ok(text) = serde_json::to_string(&step) {
                        post_text(&text);
                    }
                }
            }
            if done {
                CURRENT.with(|c| {
                    let mut c = c.borrow_mut();
                    if c.generation == generation {
                        c.job = None;
                    }
                });
                return;
            }
            // Lets the messages that came meanwhile (a stop) in before the next slice.
            gloo_timers::future::TimeoutFuture::new(0).await;
        }
    }
}
