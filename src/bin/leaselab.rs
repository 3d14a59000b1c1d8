//! The command-line runner.
//!
//! `leaselab run FILE` plays a scenario file to its end and prints the report
//! (`leaselab.report/1`) as JSON on stdout, exit 0. An unreadable or invalid file prints what is
//! wrong and where (the field path) on stderr, exit 2. `leaselab run --builtin ID` plays a
//! built-in scenario; `leaselab trace FILE` prints every trace entry, one JSON object per line;
//! `leaselab list` lists the built-ins. `leaselab lesson FILE` (or `--builtin ID`) checks a lesson
//! file (`leaselab.lesson/1`): it must be valid, and every step's awaited event must really happen
//! when the lesson is played on the engine; it prints each step's start and awaited event.
//! `leaselab scene FILE --at-ms MS --fable F` draws the scene at a moment as the page draws it, as
//! SVG.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use std::io::Write;
    use std::path::PathBuf;
    use std::process::ExitCode;

    use clap::{Parser, Subcommand};
    use leaselab::scenario::{self, library, Report, Scenario};

    /// Play LeaseLab scenarios on the deterministic lease / fencing engine.
    #[derive(Parser)]
    #[command(name = "leaselab", version)]
    struct Cli {
        #[command(subcommand)]
        command: Cmd,
    }

    #[derive(Subcommand)]
    enum Cmd {
        /// Play a scenario to its end and print the report (JSON) on stdout.
        Run {
            /// A scenario file (`leaselab.scenario/1`); `-` reads stdin.
            #[arg(required_unless_present = "builtin")]
            file: Option<PathBuf>,
            /// Play a built-in scenario instead of a file.
            #[arg(long, conflicts_with = "file")]
            builtin: Option<String>,
            /// Print the report on one line.
            #[arg(long)]
            compact: bool,
            /// Set a knob first, as a sweep or a lesson's live number does: `lease_duration_ms`,
            /// `pause_ms`, `clock_rate_ppm` or `network_delay_ms`, `=` a whole number in its
            /// unit (`--set lease_duration_ms=20000`). May be given more than once.
            #[arg(long = "set", value_name = "KNOB=VALUE")]
            set: Vec<String>,
        },
        /// Play a scenario to its end and print its trace, one JSON entry per line.
        Trace {
            /// A scenario file (`leaselab.scenario/1`); `-` reads stdin.
            #[arg(required_unless_present = "builtin")]
            file: Option<PathBuf>,
            /// Play a built-in scenario instead of a file.
            #[arg(long, conflicts_with = "file")]
            builtin: Option<String>,
        },
        /// Play a scenario to its end and print it for another tool: a ShiViz log (vector
        /// clocks per event) or a Jepsen-style history (invoke / ok / fail / info per operation)
        Export {
            /// A scenario file (`leaselab.scenario/1`); `-` reads stdin.
            #[arg(required_unless_present = "builtin")]
            file: Option<PathBuf>,
            /// Play a built-in scenario instead of a file.
            #[arg(long, conflicts_with = "file")]
            builtin: Option<String>,
            /// `shiviz` or `history`.
            #[arg(long, value_parser = ["shiviz", "history"])]
            format: String,
        },
        /// Draw a scenario's scene at a moment, as one of its tellings draws it on the page, and
        /// print it as SVG (the drawing is the page's own code; a fable whose style sheet is the
        /// page's draws with classes that sheet colours).
        Scene {
            /// A scenario file (`leaselab.scenario/1`); `-` reads stdin.
            #[arg(required_unless_present = "builtin")]
            file: Option<PathBuf>,
            /// Draw a built-in scenario instead of a file.
            #[arg(long, conflicts_with = "file")]
            builtin: Option<String>,
            /// The moment, in virtual ms (default 0; past the end draws the end).
            #[arg(long, default_value_t = 0)]
            at_ms: u64,
            /// The telling: `harbor`, `lantern`, `boxes` (default: the scenario's own).
            #[arg(long)]
            fable: Option<String>,
            /// `en` or `zh`.
            #[arg(long, default_value = "en")]
            lang: String,
        },
        /// List the built-in scenarios and lessons.
        List,
        /// Write the translation packs the page loads (`assets/i18n/en.json`, `zh.json`, their
        /// later parts `en.later.json`, `zh.later.json`, and each fable's, `harbor.en.json`, …)
        /// from the translation tables, and each built-in lesson's bundle (the lesson with its
        /// scenarios, `assets/lesson-bundles/<id>.json`); run it after changing a text, a lesson
        /// or a scenario.
        Packs {
            /// The folder to write the packs to.
            #[arg(long, default_value = "assets/i18n")]
            dir: PathBuf,
            /// The folder to write the lessons' bundles to.
            #[arg(long, default_value = "assets/lesson-bundles")]
            bundles: PathBuf,
        },
        /// Print the page's first frame at its bare address as HTML (English, the opening scenario
        /// at 0.0 s, the landing card): the page's own views, rendered without a browser, for
        /// `index.html` to show while the app loads (`cargo xtask dist` runs it). Needs the
        /// `first-frame` feature (`cargo run --features first-frame --bin leaselab -- first-frame`).
        FirstFrame,
        /// Search a scenario's runs for the shortest one that breaks a safety property or shows
        /// something worth seeing (breadth first by the number of interventions, each engine
        /// state once), and print the answer (`leaselab.search/1`, JSON). Goals: stale_write_accepted,
        /// invalid_token_accepted, token_regression, duplicate_side_effect,
        /// lock_deleted_by_non_owner, foreign_token_accepted, two_holders,
        /// write_refused_while_holding (counterexamples); zombie_write_fenced, dual_belief,
        /// expiry_without_pause, renewal_refused_after_stray_delete (witnesses).
        Search {
            /// A scenario file (`leaselab.scenario/1`); `-` reads stdin.
            #[arg(required_unless_present = "builtin")]
            file: Option<PathBuf>,
            /// Search a built-in scenario instead of a file.
            #[arg(long, conflicts_with = "file")]
            builtin: Option<String>,
            /// What to look for; several (comma-separated or repeated) find any of them.
            #[arg(long = "property", alias = "goal", alias = "witness", value_delimiter = ',', required = true)]
            goals: Vec<String>,
            /// The most interventions in one run (0 ..= 6).
            #[arg(long)]
            max_interventions: Option<usize>,
            /// Interventions happen at multiples of this many virtual ms.
            #[arg(long)]
            grid_ms: Option<u64>,
            /// Pause lengths to try, in ms, comma-separated (empty: no pauses).
            #[arg(long, value_delimiter = ',', num_args = 0..)]
            pause_ms: Option<Vec<u64>>,
            /// How long a node may be cut off from the store, in ms, comma-separated.
            #[arg(long, value_delimiter = ',', num_args = 0..)]
            cut_ms: Option<Vec<u64>>,
            /// How long a node's next write may be held up, in ms, comma-separated.
            #[arg(long, value_delimiter = ',', num_args = 0..)]
            delay_write_ms: Option<Vec<u64>>,
            /// Clock steps to try on each node and the store, in ms (negative: back).
            #[arg(long, value_delimiter = ',', num_args = 0.., allow_negative_numbers = true)]
            clock_jump_ms: Option<Vec<i64>>,
            /// Clock rates to try on each node and the store, in ppm (500000: half speed).
            #[arg(long, value_delimiter = ',', num_args = 0..)]
            clock_rate_ppm: Option<Vec<u64>>,
            /// Do not crash nodes.
            #[arg(long)]
            no_crash: bool,
            /// The network may lose a node's next message of a kind (each node, each kind).
            #[arg(long)]
            lose_message: bool,
            /// How long the network may hold back a node's next message of a kind, in ms,
            /// comma-separated.
            #[arg(long, value_delimiter = ',', num_args = 0..)]
            hold_message_ms: Option<Vec<u64>>,
            /// The network may deliver a node's next message of a kind twice.
            #[arg(long)]
            copy_message: bool,
            /// The operator may revoke the lease.
            #[arg(long)]
            revoke: bool,
            /// The resource's token check may be switched off.
            #[arg(long)]
            fencing_off: bool,
            /// Give up after this many distinct states.
            #[arg(long)]
            max_states: Option<usize>,
            /// Set the scenario's scripted steps for its nodes aside: does anything within the
            /// bounds break it?
            #[arg(long)]
            no_script: bool,
            /// Print the answer on one line.
            #[arg(long)]
            compact: bool,
        },
        /// Turn one knob of a scenario through a range, play each setting with many seeds, fencing
        /// on and off, and print the counts (`leaselab.sweep/1`, JSON): the runs that broke
        /// safety and the time nobody led, per setting. Knobs: lease_duration_ms, pause_ms,
        /// clock_rate_ppm, network_delay_ms.
        Sweep {
            /// A scenario file (`leaselab.scenario/1`); `-` reads stdin.
            #[arg(required_unless_present = "builtin")]
            file: Option<PathBuf>,
            /// Sweep a built-in scenario instead of a file.
            #[arg(long, conflicts_with = "file")]
            builtin: Option<String>,
            /// `NAME=FROM..TO/POINTS`, e.g. `lease_duration_ms=5000..60000/20`.
            #[arg(long)]
            knob: String,
            /// Seeds per setting: the scenario's own and the ones after it.
            #[arg(long, default_value_t = 50)]
            seeds: u32,
            /// Print the answer on one line.
            #[arg(long)]
            compact: bool,
        },
        /// Check a lesson: valid, every step's awaited event happens, and every witness question finds
        /// a run. Prints each step and each witness found.
        Lesson {
            /// A lesson file (`leaselab.lesson/1`); `-` reads stdin.
            #[arg(required_unless_present = "builtin")]
            file: Option<PathBuf>,
            /// Check a built-in lesson instead of a file.
            #[arg(long, conflicts_with = "file")]
            builtin: Option<String>,
        },
    }

    pub fn main() -> ExitCode {
        let cli = Cli::parse();
        match cli.command {
            Cmd::List => {
                let mut text = String::new();
                for id in library::ids() {
                    let title = library::get(id).and_then(Result::ok).and_then(|s| s.title).map(|t| t.en);
                    text.push_str(&format!("{id}\t{}\n", title.unwrap_or_default()));
                }
                for lesson in library::lessons::MENU {
                    text.push_str(&format!("lesson {}\t{}\n", lesson.id, lesson.title_en));
                }
                print(&text)
            }
            #[cfg(feature = "first-frame")]
            Cmd::FirstFrame => print(&leaselab::ui::first_frame()),
            #[cfg(not(feature = "first-frame"))]
            Cmd::FirstFrame => {
                fail("this leaselab was built without the page's views: build it with `--features first-frame`")
            }
            Cmd::Packs { dir, bundles } => {
                use leaselab::story::packs;
                use leaselab::vocab::Lang;
                let mut out = std::io::stdout().lock();
                let mut files = Vec::new();
                for lang in [Lang::En, Lang::Zh] {
                    for part in packs::Part::ALL {
                        files.push((packs::file_name(lang, part), packs::file(lang, part), part.range().len()));
                    }
                    for fable in leaselab::vocab::Fable::all() {
                        for part in packs::Part::ALL {
                            files.push((
                                packs::fable_file_name(fable, lang, part),
                                packs::fable_file(fable, lang, part),
                                fable.pack_len(part),
                            ));
                        }
                    }
                }
                let mut files: Vec<(PathBuf, String, String)> = files
                    .into_iter()
                    .map(|(name, text, count)| (dir.join(name), text, format!("{count} texts")))
                    .collect();
                for lesson in library::lessons::MENU {
                    match library::lessons::bundle(lesson.id) {
                        Some(Ok(text)) => {
                            files.push((bundles.join(format!("{}.json", lesson.id)), text, "a lesson's bundle".into()))
                        }
                        Some(Err(e)) => return fail(&format!("lesson {}: {e}", lesson.id)),
                        None => return fail(&format!("lesson {} has no file", lesson.id)),
                    }
                }
                if let Err(e) = std::fs::create_dir_all(&bundles) {
                    return fail(&format!("cannot make {}: {e}", bundles.display()));
                }
                for (path, text, count) in files {
                    // A pack already as it should be is left alone: its time stays, and nothing
                    // that watches the folder (the page's build script) builds again for it.
                    if std::fs::read_to_string(&path).is_ok_and(|old| old == text) {
                        let _ = writeln!(out, "up to date: {} ({count})", path.display());
                        continue;
                    }
                    if let Err(e) = std::fs::write(&path, text) {
                        return fail(&format!("cannot write {}: {e}", path.display()));
                    }
                    let _ = writeln!(out, "wrote {} ({count})", path.display());
                }
                ExitCode::SUCCESS
            }
            Cmd::Scene { file, builtin, at_ms, fable, lang } => match draw_scene(file, builtin, at_ms, fable, &lang) {
                Ok(svg) => print(&svg),
                Err(message) => fail(&message),
            },
            Cmd::Search {
                file,
                builtin,
                goals,
                max_interventions,
                grid_ms,
                pause_ms,
                cut_ms,
                delay_write_ms,
                clock_jump_ms,
                clock_rate_ppm,
                no_crash,
                lose_message,
                hold_message_ms,
                copy_message,
                revoke,
                fencing_off,
                max_states,
                no_script,
                compact,
            } => {
                use leaselab::engine::search::{Goal, Searcher, Space};
                let mut space = Space::default();
                if let Some(n) = max_interventions {
                    space.max_interventions = n;
                }
                if let Some(ms) = grid_ms {
                    space.grid_ms = ms;
                }
                space.pause_ms = pause_ms.unwrap_or(space.pause_ms);
                space.cut_ms = cut_ms.unwrap_or(space.cut_ms);
                space.delay_write_ms = delay_write_ms.unwrap_or(space.delay_write_ms);
                space.clock_jump_ms = clock_jump_ms.unwrap_or(space.clock_jump_ms);
                space.clock_rate_ppm = clock_rate_ppm.unwrap_or(space.clock_rate_ppm);
                space.crash = !no_crash;
                space.lose_message = lose_message;
                space.hold_message_ms = hold_message_ms.unwrap_or_default();
                space.copy_message = copy_message;
                space.revoke = revoke;
                space.fencing_off = fencing_off;
                space.scripted = !no_script;
                if let Some(n) = max_states {
                    space.max_states = n;
                }
                let mut parsed = Vec::new();
                for code in &goals {
                    match Goal::from_code(code) {
                        Some(goal) => parsed.push(goal),
                        None => {
                            let all: Vec<&str> = Goal::ALL.iter().map(|g| g.code()).collect();
                            return fail(&format!("--property {code}: not a goal; there are {}", all.join(", ")));
                        }
                    }
                }
                let s = match load(file, builtin) {
                    Ok(s) => s,
                    Err(message) => return fail(&message),
                };
                let outcome = match Searcher::new(s.config, &parsed, &space) {
                    Ok(mut searcher) => searcher.finish(),
                    Err(e) => return fail(&format!("cannot search: {e}")),
                };
                let answer = scenario::search::Answer::new(&s.id, &parsed, &space, outcome);
                let json = if compact { serde_json::to_string(&answer) } else { serde_json::to_string_pretty(&answer) };
                match json {
                    Ok(text) => print(&format!("{text}\n")),
                    Err(e) => fail(&format!("could not write the answer: {e}")),
                }
            }
            Cmd::Sweep { file, builtin, knob, seeds, compact } => {
                use leaselab::engine::sweep::{sweep, SweepSpec};
                let spec = match SweepSpec::parse(&knob, seeds) {
                    Ok(spec) => spec,
                    Err(e) => return fail(&format!("--{e}")),
                };
                let s = match load(file, builtin) {
                    Ok(s) => s,
                    Err(message) => return fail(&message),
                };
                let points = match sweep(&s.config, &spec, |_| {}) {
                    Ok(points) => points,
                    Err(e) => return fail(&format!("cannot sweep: {e}")),
                };
                let answer = scenario::search::SweepAnswer::new(&s.id, s.config.seed, spec, points);
                let json = if compact { serde_json::to_string(&answer) } else { serde_json::to_string_pretty(&answer) };
                match json {
                    Ok(text) => print(&format!("{text}\n")),
                    Err(e) => fail(&format!("could not write the answer: {e}")),
                }
            }
            Cmd::Lesson { file, builtin } => match check_lesson(file, builtin) {
                Ok(text) => print(&text),
                Err(message) => fail(&message),
            },
            Cmd::Export { file, builtin, format } => match load(file, builtin) {
                Ok(s) => {
                    let nodes: Vec<String> = s.config.nodes.iter().map(|n| n.id.clone()).collect();
                    match leaselab::engine::Sim::new(s.config) {
                        Ok(mut sim) => {
                            sim.run_to_end();
                            print(&if format == "shiviz" {
                                leaselab::scenario::interop::shiviz(sim.trace())
                            } else {
                                leaselab::scenario::interop::history(sim.trace(), &nodes)
                            })
                        }
                        Err(e) => fail(&format!("invalid scenario: {e}")),
                    }
                }
                Err(message) => fail(&message),
            },
            Cmd::Trace { file, builtin } => match load(file, builtin) {
                Ok(s) => match leaselab::engine::Sim::new(s.config) {
                    Ok(mut sim) => {
                        sim.run_to_end();
                        let mut text = String::new();
                        for entry in sim.trace() {
                            match serde_json::to_string(entry) {
                                Ok(line) => {
                                    text.push_str(&line);
                                    text.push('\n');
                                }
                                Err(e) => return fail(&format!("could not write the trace: {e}")),
                            }
                        }
                        print(&text)
                    }
                    Err(e) => fail(&format!("invalid scenario: {e}")),
                },
                Err(message) => fail(&message),
            },
            Cmd::Run { file, builtin, compact, set } => match load(file, builtin).and_then(|s| set_knobs(s, &set)) {
                Ok(s) => match Report::run(&s) {
                    Ok(report) => {
                        let json = if compact {
                            serde_json::to_string(&report)
                        } else {
                            serde_json::to_string_pretty(&report)
                        };
                        match json {
                            Ok(text) => print(&format!("{text}\n")),
                            Err(e) => fail(&format!("could not write the report: {e}")),
                        }
                    }
                    Err(e) => fail(&format!("invalid scenario: {e}")),
                },
                Err(message) => fail(&message),
            },
        }
    }

    /// Writes to stdout. A reader that went away (`| head`) is not an error worth a panic: the
    /// output is simply not wanted any more.
    fn print(text: &str) -> ExitCode {
        let mut out = std::io::stdout().lock();
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => fail(&format!("could not write to stdout: {e}")),
        }
    }

    fn fail(message: &str) -> ExitCode {
        eprintln!("leaselab: {message}");
        ExitCode::from(2)
    }

    /// Reads a file's text, or stdin for `-`.
    fn read(path: &std::path::Path) -> Result<String, String> {
        if path.as_os_str() == "-" {
            std::io::read_to_string(std::io::stdin()).map_err(|e| format!("cannot read stdin: {e}"))
        } else {
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
        }
    }

    /// Parses and plays a lesson: one line per step (its number, scenario, start and what it
    /// waits for, with when that happens), or what is wrong and where.
    /// `scenario` with every `KNOB=VALUE` of `--set` applied, in order.
    fn set_knobs(mut scenario: scenario::Scenario, set: &[String]) -> Result<scenario::Scenario, String> {
        use leaselab::engine::sweep::Knob;
        for item in set {
            let (name, value) = item.split_once('=').ok_or_else(|| format!("--set {item}: write KNOB=VALUE"))?;
            let knob = Knob::from_code(name).ok_or_else(|| {
                let all: Vec<&str> = Knob::ALL.iter().map(|k| k.code()).collect();
                format!("--set {item}: \"{name}\" is not a knob; there are {}", all.join(", "))
            })?;
            let value: u64 = value.parse().map_err(|_| format!("--set {item}: \"{value}\" is not a whole number"))?;
            scenario.config = knob.apply(&scenario.config, value).map_err(|e| format!("--set {item}: {e}"))?;
        }
        Ok(scenario)
    }

    fn check_lesson(file: Option<PathBuf>, builtin: Option<String>) -> Result<String, String> {
        let (name, parsed) = match (builtin, file) {
            (Some(id), _) => match library::lessons::get(&id) {
                Some(r) => (format!("built-in lesson {id}"), r),
                None => return Err(format!("no built-in lesson \"{id}\"; `leaselab list` shows them")),
            },
            (None, Some(path)) => (path.display().to_string(), scenario::lesson::parse(&read(&path)?)),
            (None, None) => return Err("no lesson file given".into()),
        };
        let lesson = parsed.map_err(|e| format!("{name}: invalid lesson at {e}"))?;
        let plan = scenario::lesson::plan(&lesson, library::get).map_err(|e| format!("{name}: {e}"))?;
        let mut text = format!("lesson {}: {} steps; every awaited event happens\n", lesson.id, plan.len());
        for (i, (step, planned)) in lesson.steps.iter().zip(&plan).enumerate() {
            let waits = match (&step.until, planned.until) {
                (Some(u), Some((t, seq))) => {
                    format!("until {} at {t} ms (trace entry {seq})", serde_json::Value::Object(u.pattern().clone()))
                }
                _ => "until Next".to_owned(),
            };
            let ask = if step.ask.is_some() { ", asks first" } else { "" };
            text.push_str(&format!(
                "{:>3}. {} at {} ms{ask}: {waits}  [{}]\n",
                i + 1,
                planned.start.scenario,
                planned.start.at_ms,
                step.title.en
            ));
        }
        let witnesses =
            scenario::lesson::find_witnesses(&lesson, &plan, library::get).map_err(|e| format!("{name}: {e}"))?;
        for w in witnesses {
            let chosen = match w.found.depth {
                1 => "1 intervention".to_owned(),
                n => format!("{n} interventions"),
            };
            text.push_str(&format!(
                "witness at step {}: {} found with {chosen}, met at {} ms ({} states explored)\n",
                w.step + 1,
                w.goal.code(),
                w.found.at_ms,
                w.states
            ));
        }
        for live in scenario::lesson::check_live(&lesson, &plan, library::get).map_err(|e| format!("{name}: {e}"))? {
            let bounds: Vec<String> =
                lesson.steps[live.step].live.iter().map(|b| format!("{}={}", b.knob.code(), b.value)).collect();
            let figures: Vec<String> = live.figures.iter().map(|(f, v)| format!("{} {v}", f.code())).collect();
            text.push_str(&format!(
                "live numbers at step {}: {} gives {}\n",
                live.step + 1,
                bounds.join(", "),
                figures.join(", ")
            ));
        }
        Ok(text)
    }

    /// The scene of `file` (or `builtin`) at `at_ms` drawn by `fable` (or its own) in `lang`: an
    /// `<svg>` element with the drawing's view box.
    fn draw_scene(
        file: Option<PathBuf>,
        builtin: Option<String>,
        at_ms: u64,
        fable: Option<String>,
        lang: &str,
    ) -> Result<String, String> {
        use leaselab::draw::{whole, Look};
        use leaselab::story::picture::{picture, Memory};
        use leaselab::story::Cast;
        use leaselab::vocab::{Fable, Lang};
        let scenario = load(file, builtin)?;
        let fable = match fable {
            None => scenario.fable,
            Some(code) => Fable::from_code(&code).ok_or_else(|| {
                let codes: Vec<&str> = Fable::all().map(Fable::code).collect();
                format!("--fable {code}: not a telling; there are {}", codes.join(", "))
            })?,
        };
        let lang = Lang::from_code(lang).ok_or_else(|| format!("--lang {lang}: not en or zh"))?;
        let mut sim = leaselab::engine::Sim::new(scenario.config.clone()).map_err(|e| e.to_string())?;
        sim.advance_to(at_ms.min(scenario.config.until_ms));
        let mut memory = Memory::default();
        memory.absorb(sim.trace());
        let p = picture(&sim.snapshot(), &memory);
        let cast = Cast::for_fable(&scenario, fable);
        let drawing = fable.drawing();
        let markup = whole(drawing, &p, &cast, None, Look { fable, lang, floor: 0.0 });
        let class = if drawing.class.is_empty() { "scene".to_owned() } else { format!("scene {}", drawing.class) };
        Ok(format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1200 640\" class=\"{class}\" data-sky=\"{}\">{}</svg>\n",
            (drawing.sky)(&p),
            markup.into_string()
        ))
    }

    fn load(file: Option<PathBuf>, builtin: Option<String>) -> Result<Scenario, String> {
        if let Some(id) = builtin {
            return match library::get(&id) {
                Some(r) => r.map_err(|e| format!("built-in scenario {id}: {e}")),
                None => Err(format!("no built-in scenario \"{id}\"; `leaselab list` shows them")),
            };
        }
        let path = file.ok_or("no scenario file given")?;
        let text = read(&path)?;
        scenario::parse(&text).map_err(|e| format!("{}: invalid scenario at {e}", path.display()))
    }
}
