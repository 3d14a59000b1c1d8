//! The plot of a sweep (issue 30, `engine::sweep`): a knob against its outcomes, as SVG markup
//! the page sets in the Ask tab and a test reads natively. Two panels share the knob's axis: the
//! share of seeded runs with a safety violation, with fencing and without, and the time with no
//! leader at work, mean and worst. Every point of every curve is a button (`data-point` its index,
//! `data-class` the class of run it opens: `violating_fenced`, `violating_unfenced` or `safe`),
//! with its numbers in words for a screen reader. The view box is 360 wide: on a phone, one unit
//! is about a pixel, so the text is never smaller than it is written here.

use crate::engine::sweep::{Knob, Point, SweepSpec};
use crate::scenario::live::shown;
use crate::story::i18n::{fill, Later};
use crate::story::markup::{coord, Markup};
use crate::vocab::Lang;

/// The view box's width.
const W: f64 = 360.0;
/// Where the axes' room starts and ends, across.
const LEFT: f64 = 44.0;
const RIGHT: f64 = 350.0;
/// A panel's height: its title and legend, the plot, the axis's numbers.
const PANEL: f64 = 172.0;
const PLOT_TOP: f64 = 44.0;
const PLOT_BOTTOM: f64 = 140.0;

/// What a point of a curve opens: a run that broke safety with fencing, one without (the first
/// two of [`Point::examples`]), a safe run (the third: fenced where the store issues tokens), or
/// a safe run without fencing (the first seed's, where no unfenced run broke safety).
pub const CLASSES: [&str; 4] = ["violating_fenced", "violating_unfenced", "safe", "safe_unfenced"];

/// A knob's name on the plot, with its unit.
pub fn knob_words(knob: Knob) -> Later {
    match knob {
        Knob::LeaseDurationMs => Later::KnobLease,
        Knob::PauseMs => Later::KnobPause,
        Knob::ClockRatePpm => Later::KnobClockRate,
        Knob::NetworkDelayMs => Later::KnobDelay,
    }
}

/// The sweep `spec`'s points so far (`points`, in the order of `spec.values()`), drawn.
pub fn sweep_plot(spec: &SweepSpec, points: &[Point], lang: Lang) -> String {
    let values = spec.values();
    let x = |v: u64| {
        let span = (spec.to.saturating_sub(spec.from)).max(1) as f64;
        LEFT + (v.saturating_sub(spec.from) as f64 / span) * (RIGHT - LEFT)
    };
    let knob = knob_words(spec.knob).text(lang);
    let mut m = Markup::new();
    m.tag("svg")
        .lit("class", "sweep-plot")
        .lit("xmlns", "http://www.w3.org/2000/svg")
        .attr("viewBox", &format!("0 0 {} {}", coord(W), coord(PANEL * 2.0 + 8.0)))
        .lit("role", "group")
        .attr("aria-label", &fill(Later::SweepPlotLabel.text(lang), &[("knob", knob)]))
        .open();

    // The share of runs with a violation, 0 to 100 %.
    let share = |n: u32, runs: u32| f64::from(n) / f64::from(runs.max(1));
    let runs_of = |p: &Point| p.runs;
    let fenced: Vec<(usize, f64)> = points
        .iter()
        .enumerate()
        .filter(|(_, p)| p.fenced)
        .map(|(k, p)| (k, share(p.violating_fenced, runs_of(p))))
        .collect();
    let unfenced: Vec<(usize, f64)> =
        points.iter().enumerate().map(|(k, p)| (k, share(p.violating_unfenced, runs_of(p)))).collect();
    let panel = Panel { top: 0.0, y_max: 1.0 };
    panel.frame(&mut m, Later::SweepShareTitle.text(lang), &[("0%", 0.0), ("50%", 0.5), ("100%", 1.0)]);
    panel.legend(
        &mut m,
        &[(Later::SweepFenced.text(lang), "s-fenced"), (Later::SweepUnfenced.text(lang), "s-unfenced")],
    );
    let said_share = |k: usize, n: u32, with: Later| {
        let p = &points[k];
        fill(
            if n > 0 { Later::SweepPointShare } else { Later::SweepPointNone }.text(lang),
            &[
                ("knob", knob),
                ("value", &shown(spec.knob, p.value)),
                ("n", &n.to_string()),
                ("runs", &p.runs.to_string()),
                ("series", with.text(lang)),
            ],
        )
    };
    let at = |k: usize| x(values.get(k).copied().unwrap_or(spec.from));
    panel.curve(&mut m, "s-fenced", &fenced, at, |k| {
        let p = &points[k];
        let class = if p.violating_fenced > 0 { 0 } else { 2 };
        (class, said_share(k, p.violating_fenced, Later::SweepFenced))
    });
    panel.curve(&mut m, "s-unfenced", &unfenced, at, |k| {
        let p = &points[k];
        let class = if p.violating_unfenced > 0 { 1 } else { 3 };
        (class, said_share(k, p.violating_unfenced, Later::SweepUnfenced))
    });

    // The time with no leader at work, in seconds, up to a round number above the worst.
    let worst_s = points.iter().map(|p| p.leaderless_worst_ms).max().unwrap_or(0) as f64 / 1000.0;
    let y_max = nice_ceiling(worst_s.max(1.0));
    let panel = Panel { top: PANEL + 8.0, y_max };
    let half = y_max / 2.0;
    let tick = |v: f64| {
        let c = coord(v);
        c.strip_suffix(".0").map_or(c.clone(), str::to_owned)
    };
    panel.frame(
        &mut m,
        Later::SweepGapTitle.text(lang),
        &[("0".to_owned().as_str(), 0.0), (tick(half).as_str(), half), (tick(y_max).as_str(), y_max)],
    );
    panel.legend(&mut m, &[(Later::SweepMean.text(lang), "s-mean"), (Later::SweepWorst.text(lang), "s-worst")]);
    let seconds = |ms: u64| ms as f64 / 1000.0;
    let said_gap = |k: usize, ms: u64, which: Later| {
        fill(
            Later::SweepPointGap.text(lang),
            &[
                ("knob", knob),
                ("value", &shown(spec.knob, points[k].value)),
                ("series", which.text(lang)),
                ("s", &coord(seconds(ms))),
            ],
        )
    };
    let mean: Vec<(usize, f64)> = points.iter().enumerate().map(|(k, p)| (k, seconds(p.leaderless_mean_ms))).collect();
    let worst: Vec<(usize, f64)> =
        points.iter().enumerate().map(|(k, p)| (k, seconds(p.leaderless_worst_ms))).collect();
    panel.curve(&mut m, "s-mean", &mean, at, |k| (2, said_gap(k, points[k].leaderless_mean_ms, Later::SweepMean)));
    panel.curve(&mut m, "s-worst", &worst, at, |k| (2, said_gap(k, points[k].leaderless_worst_ms, Later::SweepWorst)));

    // The knob's axis, under both panels: its first and last settings, and the middle rounded
    // to two figures, where it falls.
    let axis_y = PANEL * 2.0 + 8.0 - 4.0;
    let mid = {
        let raw = spec.from / 2 + spec.to / 2;
        let mut unit = 1;
        while raw / unit >= 100 {
            unit *= 10;
        }
        (raw + unit / 2) / unit * unit
    };
    for (v, anchor) in [(spec.from, "start"), (mid, "middle"), (spec.to, "end")] {
        m.tag("text")
            .lit("class", "axis-tick")
            .num("x", x(v))
            .num("y", axis_y - 14.0)
            .attr("text-anchor", anchor)
            .text(&shown(spec.knob, v));
    }
    m.tag("text")
        .lit("class", "axis-name")
        .num("x", (LEFT + RIGHT) / 2.0)
        .num("y", axis_y)
        .lit("text-anchor", "middle")
        .text(knob);
    m.end("svg");
    m.into_string()
}

/// The smallest of 1, 2, 5 × 10ⁿ at or above `v` (a round top for an axis).
fn nice_ceiling(v: f64) -> f64 {
    let mut base = 1.0;
    while base * 10.0 < v {
        base *= 10.0;
    }
    while base > v * 10.0 {
        base /= 10.0;
    }
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|f| f * base).find(|c| *c >= v).unwrap_or(v)
}

/// One panel: where it starts down the view box, and its axis's top value.
struct Panel {
    top: f64,
    y_max: f64,
}

impl Panel {
    fn y(&self, v: f64) -> f64 {
        let share = if self.y_max > 0.0 { (v / self.y_max).clamp(0.0, 1.0) } else { 0.0 };
        self.top + PLOT_BOTTOM - share * (PLOT_BOTTOM - PLOT_TOP)
    }

    /// Its title, its grid lines and their numbers.
    fn frame(&self, m: &mut Markup, title: &str, ticks: &[(&str, f64)]) {
        m.tag("text").lit("class", "plot-title").num("x", 4.0).num("y", self.top + 14.0).text(title);
        for (label, v) in ticks {
            let y = self.y(*v);
            m.tag("line").lit("class", "grid").num("x1", LEFT).num("x2", RIGHT).num("y1", y).num("y2", y).close();
            m.tag("text")
                .lit("class", "axis-tick")
                .num("x", LEFT - 4.0)
                .num("y", y + 4.0)
                .lit("text-anchor", "end")
                .text(label);
        }
    }

    /// A legend line under the title: each series' sign and name.
    fn legend(&self, m: &mut Markup, series: &[(&str, &'static str)]) {
        let mut x = LEFT;
        let y = self.top + 30.0;
        for (name, class) in series {
            m.tag("line")
                .attr("class", &format!("key {class}"))
                .num("x1", x)
                .num("x2", x + 16.0)
                .num("y1", y - 4.0)
                .num("y2", y - 4.0)
                .close();
            m.tag("text").lit("class", "legend").num("x", x + 20.0).num("y", y).text(name);
            x += 28.0 + crate::story::markup::text_width(name, 11.0);
        }
    }

    /// A series: its line, and a button on each point (`said(k)`: the class of run it opens and
    /// its words).
    fn curve(
        &self,
        m: &mut Markup,
        class: &'static str,
        points: &[(usize, f64)],
        x: impl Fn(usize) -> f64,
        said: impl Fn(usize) -> (usize, String),
    ) {
        if points.len() > 1 {
            let d: Vec<String> =
                points.iter().map(|(k, v)| format!("{},{}", coord(x(*k)), coord(self.y(*v)))).collect();
            m.tag("polyline").attr("class", &format!("line {class}")).attr("points", &d.join(" ")).close();
        }
        for (k, v) in points {
            let (open, words) = said(*k);
            m.tag("g")
                .attr("class", &format!("pt {class}"))
                .lit("tabindex", "0")
                .lit("role", "button")
                .attr("data-point", &k.to_string())
                .attr("data-class", CLASSES[open])
                .attr("aria-label", &words)
                .open();
            m.tag("title").text(&words);
            let (cx, cy) = (x(*k), self.y(*v));
            m.tag("circle").lit("class", "hit").num("cx", cx).num("cy", cy).lit("r", "8").close();
            m.tag("circle").lit("class", "dot").num("cx", cx).num("cy", cy).lit("r", "3.5").close();
            m.end("g");
        }
    }
}
