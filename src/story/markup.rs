//! Markup built as text (SVG and HTML set as a part's `innerHTML`), with one escaping rule that
//! the type enforces.
//!
//! The page draws its scenes, the space-time diagram, the tables and the shortcuts list as
//! strings: a typed view per element costs page size and buys no behaviour there. Text reaches a
//! [`Markup`] only through [`Markup::text`] (escaped), element names and attribute names only as
//! `&'static str` (literals), and attribute values only escaped ([`Tag::attr`]) or as numbers
//! ([`Tag::num`], [`Tag::int`]); [`Markup::raw`] takes only a `&'static str`, the markup written in
//! the source. So a name, a translated sentence or a scenario's title can never be read as
//! markup, and forgetting to escape does not compile. Nothing here knows about any fable.

use std::fmt::Write as _;

/// A piece of markup: every character of it came from the source or was escaped on the way in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Markup(String);

impl Markup {
    /// Empty markup.
    pub fn new() -> Self {
        Self(String::new())
    }

    /// Markup written in the source: a literal, trusted as it is.
    pub fn raw(literal: &'static str) -> Self {
        Self(literal.to_owned())
    }

    /// `text` as character data, escaped ([`escape`]).
    pub fn text(text: &str) -> Self {
        let mut m = Self::new();
        m.push_text(text);
        m
    }

    /// Appends a literal of the source.
    pub fn push_raw(&mut self, literal: &'static str) -> &mut Self {
        self.0.push_str(literal);
        self
    }

    /// Appends `text`, escaped.
    pub fn push_text(&mut self, text: &str) -> &mut Self {
        escape_into(&mut self.0, text);
        self
    }

    /// Appends other markup.
    pub fn push(&mut self, other: &Markup) -> &mut Self {
        self.0.push_str(&other.0);
        self
    }

    /// Opens the element `name`: its attributes follow, then [`Tag::close`] (an empty element),
    /// [`Tag::open`] (content follows, then [`Markup::end`]) or [`Tag::text`] (text content).
    pub fn tag(&mut self, name: &'static str) -> Tag<'_> {
        self.0.push('<');
        self.0.push_str(name);
        Tag { out: self, name }
    }

    /// One `<option>` of a `<select>` written as markup: its value, its label, and whether it is
    /// the one chosen (`selected`, which the browser follows when the options are replaced).
    pub fn option(&mut self, value: &str, label: &str, selected: bool) -> &mut Self {
        let tag = self.tag("option").attr("value", value);
        if selected { tag.lit("selected", "") } else { tag }.text(label);
        self
    }

    /// Closes the element `name` opened with [`Tag::open`].
    pub fn end(&mut self, name: &'static str) -> &mut Self {
        self.0.push_str("</");
        self.0.push_str(name);
        self.0.push('>');
        self
    }

    /// Whether nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The markup, to set as an element's `innerHTML`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The markup, to set as an element's `innerHTML`.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl From<Markup> for String {
    fn from(m: Markup) -> String {
        m.0
    }
}

/// An element being opened: its attributes, then how it ends.
#[must_use = "an element must be closed with close, open or text"]
pub struct Tag<'a> {
    out: &'a mut Markup,
    name: &'static str,
}

impl Tag<'_> {
    /// `name="value"`, the value escaped.
    pub fn attr(self, name: &'static str, value: &str) -> Self {
        self.out.0.extend([" ", name, "=\""]);
        escape_into(&mut self.out.0, value);
        self.out.0.push('"');
        self
    }

    /// `name="value"` when `value` is given.
    pub fn attr_opt(self, name: &'static str, value: Option<&str>) -> Self {
        match value {
            Some(v) => self.attr(name, v),
            None => self,
        }
    }

    /// `name="v"` with `v` a view-box coordinate with one decimal ([`coord`]).
    pub fn num(self, name: &'static str, v: f64) -> Self {
        let _ = write!(self.out.0, " {name}=\"{}\"", coord(v));
        self
    }

    /// `name="v"` with `v` a whole number.
    pub fn int(self, name: &'static str, v: u64) -> Self {
        let _ = write!(self.out.0, " {name}=\"{v}\"");
        self
    }

    /// `name="…"` written in the source (a path, a class list), trusted as it is.
    pub fn lit(self, name: &'static str, literal: &'static str) -> Self {
        self.out.0.extend([" ", name, "=\"", literal, "\""]);
        self
    }

    /// `style="--f:Npx"`: a size fitted to its room (in view-box units), over the stylesheet's;
    /// the stylesheet draws the text at it, or at the scene's smallest readable size if that is
    /// larger (`--floor`, set by `ui::draw::keep_readable`).
    pub fn font(self, px: f64) -> Self {
        let _ = write!(self.out.0, " style=\"--f:{}px\"", coord(px));
        self
    }

    /// `transform="translate(x,y)"`.
    pub fn at(self, x: f64, y: f64) -> Self {
        let _ = write!(self.out.0, " transform=\"translate({},{})\"", coord(x), coord(y));
        self
    }

    /// Ends it as an empty element: `<name …/>`.
    pub fn close(self) {
        self.out.0.push_str("/>");
    }

    /// Ends its start tag; its content follows, then [`Markup::end`] with the same name.
    pub fn open(self) {
        self.out.0.push('>');
    }

    /// Ends it with `text` as its content (escaped): `<name …>text</name>`.
    pub fn text(self, text: &str) {
        self.out.0.push('>');
        escape_into(&mut self.out.0, text);
        self.out.end(self.name);
    }
}

/// A view-box coordinate with one decimal, e.g. `-12.5`; integer arithmetic (no float formatting
/// code in the page), and `as` saturates, so no input can panic (NaN is 0).
pub fn coord(v: f64) -> String {
    let t = (v * 10.0).round() as i64;
    let sign = if t < 0 { "-" } else { "" };
    let a = t.unsigned_abs();
    format!("{sign}{}.{}", a / 10, a % 10)
}

/// `text` with `& < > " '` replaced by character references: safe as character data and inside
/// a quoted attribute value.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text);
    out
}

fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// Rough width of `text` at `font` px: CJK and other wide characters count 1 em, ASCII 0.64 em
/// (a bold sans, generously), so what is measured to fit does.
pub fn text_width(text: &str, font: f64) -> f64 {
    text.chars().map(|c| if c.is_ascii() { 0.64 } else { 1.0 }).sum::<f64>() * font
}

/// The largest font up to `max` (and at least `min`) at which `text` fits `max_width`.
pub fn fit_font(text: &str, max_width: f64, max: f64, min: f64) -> f64 {
    let at_one = text_width(text, 1.0);
    if at_one <= 0.0 {
        return max;
    }
    within(max_width / at_one, min, max)
}

/// Text set to fit a width: its font and its lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub font: f64,
    pub lines: Vec<String>,
}

impl Fitted {
    /// How far the last line's baseline lies below the middle of the block (and the first
    /// line's above it), in the units of `font`: lines are set 1.1 em apart (`ui::draw`).
    pub fn half_spread(&self) -> f64 {
        0.55 * self.font * (self.lines.len() as f64 - 1.0)
    }
}

/// Sets `text` to fit `max_width`, never cutting it: one line at the largest font up to `max`;
/// if it needs less than `min`, two lines broken at the space or hyphen that balances them best
/// (or between characters of a Chinese text), at the largest font that fits; a single word that
/// still does not fit is set at `min` and may overflow a little, whole.
pub fn fit_lines(text: &str, max_width: f64, max: f64, min: f64) -> Fitted {
    let one = text_width(text, 1.0);
    if one <= 0.0 || one * min <= max_width {
        return Fitted { font: fit_font(text, max_width, max, min), lines: vec![text.to_owned()] };
    }
    let chars: Vec<char> = text.chars().collect();
    // Every place to break: at a space (dropped) or after a hyphen that ends two letters or
    // more ("Flag-" / "verifier", never "A-" / "Xiu"); in a text with neither, between two
    // characters if it is Chinese, nowhere if it is one word of a Latin script.
    let soft =
        |i: usize| chars[i] == ' ' || (chars[i - 1] == '-' && i >= 3 && chars[i - 3] != ' ' && chars[i - 2] != ' ');
    let has_soft = (1..chars.len()).any(soft);
    let latin_word = !has_soft && text.is_ascii();
    let best = (1..chars.len())
        .filter(|i| if has_soft { soft(*i) } else { !latin_word })
        .map(|i| {
            let first: String = chars[..i].iter().collect();
            let rest: String = chars[i..].iter().collect::<String>().trim_start().to_owned();
            let wide = text_width(&first, 1.0).max(text_width(&rest, 1.0));
            (wide, first.trim_end().to_owned(), rest)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    match best {
        Some((wide, first, rest)) if !first.is_empty() && !rest.is_empty() => {
            Fitted { font: within(max_width / wide, min, max), lines: vec![first, rest] }
        }
        _ => Fitted { font: min, lines: vec![text.to_owned()] },
    }
}

/// `v` kept within `lo ..= hi` (a NaN becomes `lo`). `f64::clamp` would do, but its check of
/// its bounds formats them with `Debug`, which links the whole float formatter into the page
/// (about 13 KB of wasm).
pub fn within(v: f64, lo: f64, hi: f64) -> f64 {
    v.max(lo).min(hi)
}

/// What a picture of the page never uses (`ui::first_frame`, the first frame `index.html` shows,
/// with [`without_attributes`]): test ids (a test must never find the picture instead of the app),
/// ids outside the SVG (the app's own come with it), what a screen reader or a tooltip would say
/// (the picture is `inert`), what the tests read from the app.
pub const PICTURE_DROPPED: &[&str] = &[
    "data-testid",
    "id",
    "title",
    "role",
    "aria-label",
    "aria-labelledby",
    "aria-keyshortcuts",
    "aria-live",
    "aria-atomic",
    "aria-hidden",
    "data-scenario",
    "data-ms",
    "data-hash",
];

/// `html` (markup as Leptos renders it, or as [`Markup`] builds it: every attribute value in
/// double quotes, `"`, `<` and `>` escaped inside them and in text) without the attributes named
/// in `dropped` and without Leptos's empty placeholder comments (`<!>`). An `id` is dropped only
/// outside `<svg>`: a drawing's ids are its gradients'. For a picture of the page
/// (`ui::first_frame`); a tag it cannot read is copied as it is.
pub fn without_attributes(html: &str, dropped: &[&str]) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    let mut svg_depth = 0usize;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if let Some(after) = rest.strip_prefix("<!>") {
            rest = after;
            continue;
        }
        let Some(end) = rest.find('>') else { break };
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            if name.trim() == "svg" {
                svg_depth = svg_depth.saturating_sub(1);
            }
            out.push('<');
            out.push_str(tag);
            out.push('>');
            continue;
        }
        let name_end = tag.find(|c: char| c.is_whitespace() || c == '/').unwrap_or(tag.len());
        let name = &tag[..name_end];
        if name == "svg" && !tag.ends_with('/') {
            svg_depth += 1;
        }
        out.push('<');
        out.push_str(name);
        let mut attrs = &tag[name_end..];
        loop {
            attrs = attrs.trim_start();
            if attrs.is_empty() || attrs == "/" {
                out.push_str(attrs);
                break;
            }
            let key_end = attrs.find(|c: char| c == '=' || c.is_whitespace() || c == '/').unwrap_or(attrs.len());
            let key = &attrs[..key_end];
            let mut len = key_end;
            if let Some(value) = attrs[key_end..].strip_prefix("=\"") {
                match value.find('"') {
                    Some(close) => len = key_end + 2 + close + 1,
                    None => len = attrs.len(),
                }
            }
            let keep = !dropped.contains(&key) || (key == "id" && svg_depth > 0);
            if keep {
                out.push(' ');
                out.push_str(&attrs[..len]);
            }
            attrs = &attrs[len..];
            if len == 0 {
                // Not an attribute (a stray `/`): copied as it is.
                out.push_str(attrs);
                break;
            }
        }
        out.push('>');
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_keeps_what_draws_and_drops_what_a_page_uses() {
        let html = r#"<div id="boot" class="a" data-testid="x"><!><svg viewBox="0 0 2 2" role="img"><defs><linearGradient id="sky"/></defs><rect id="r" width="2"/></svg><p title="say &quot;hi&quot; &lt;b&gt;" data-x="1">a &lt; b</p><input type="range" value="0" disabled></div>"#;
        let out = without_attributes(html, &["id", "data-testid", "role", "title"]);
        assert_eq!(
            out,
            r#"<div class="a"><svg viewBox="0 0 2 2"><defs><linearGradient id="sky"/></defs><rect id="r" width="2"/></svg><p data-x="1">a &lt; b</p><input type="range" value="0" disabled></div>"#
        );
    }

    #[test]
    fn an_option_is_selected_only_when_chosen_and_escaped() {
        let mut m = Markup::new();
        m.option("a\"b", "<one>", false).option("", "two & three", true);
        assert_eq!(
            m.into_string(),
            r#"<option value="a&quot;b">&lt;one&gt;</option><option value="" selected="">two &amp; three</option>"#
        );
    }

    #[test]
    fn text_is_escaped_everywhere_it_can_enter() {
        let hostile = "<script>alert('x')</script> & \"老陈\"";
        let mut m = Markup::new();
        m.tag("g").attr("data-node", hostile).open();
        m.tag("text").num("x", 1.25).int("y", 7).text(hostile);
        m.push_text(hostile);
        m.push(&Markup::text(hostile));
        m.end("g");
        let s = m.into_string();
        assert!(!s.contains("<script>") && !s.contains("'x'"), "{s}");
        assert_eq!(s.matches('<').count(), 4, "only the four tags of the source: {s}");
        assert!(
            s.starts_with(r#"<g data-node="&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;老陈&quot;">"#)
        );
        assert!(s.contains(r#"<text x="1.3" y="7">&lt;script&gt;"#), "{s}");
        assert!(s.ends_with("</g>"));
    }

    #[test]
    fn literals_and_empty_elements() {
        let mut m = Markup::raw("<defs/>");
        m.tag("rect").lit("class", "a b").at(-3.0, 4.04).font(12.25).close();
        m.push_raw("<g>").push_raw("</g>");
        assert_eq!(
            m.as_str(),
            r#"<defs/><rect class="a b" transform="translate(-3.0,4.0)" style="--f:12.3px"/><g></g>"#
        );
        let mut t = Markup::new();
        t.tag("title").attr_opt("id", None).attr_opt("lang", Some("zh")).text("a<b");
        assert_eq!(String::from(t), r#"<title lang="zh">a&lt;b</title>"#);
        assert!(Markup::new().is_empty());
    }

    #[test]
    fn coordinates_have_one_decimal_and_never_panic() {
        assert_eq!(coord(12.34), "12.3");
        assert_eq!(coord(-0.04), "0.0");
        assert_eq!(coord(-12.36), "-12.4");
        assert_eq!(coord(f64::NAN), "0.0");
        assert!(coord(f64::INFINITY).starts_with("922337203685477580"));
        assert_eq!(escape("a&b"), "a&amp;b");
    }

    /// A name is shrunk, then set on two lines, never cut: every character is still there.
    #[test]
    fn names_shrink_or_wrap_but_are_never_cut() {
        let short = fit_lines("Lin", 120.0, 20.0, 11.0);
        assert_eq!((short.font, short.lines.clone()), (20.0, vec!["Lin".to_owned()]));
        let shrunk = fit_lines("Smith Wang", 70.0, 20.0, 10.0);
        assert_eq!(shrunk.lines, ["Smith Wang"]);
        assert!(shrunk.font < 20.0 && text_width("Smith Wang", shrunk.font) <= 70.0 + 1e-9);
        let wrapped = fit_lines("Liu the peddler", 60.0, 14.0, 10.0);
        assert_eq!(wrapped.lines, ["Liu the", "peddler"]);
        assert!(wrapped.lines.iter().all(|l| text_width(l, wrapped.font) <= 60.0 + 1e-9), "{wrapped:?}");
        let zh = fit_lines("一个很长很长的中文名字", 60.0, 14.0, 10.0);
        assert_eq!(zh.lines.concat(), "一个很长很长的中文名字");
        assert_eq!(zh.lines.len(), 2);
        let word = fit_lines("Supercalifragilistic", 30.0, 14.0, 10.0);
        assert_eq!((word.font, word.lines.concat()), (10.0, "Supercalifragilistic".to_owned()));
        assert_eq!(word.lines.len(), 1, "one Latin word is never broken between its letters");
        // A name of one letter and a hyphen stays whole (A-Xiu, the lantern's borrower).
        assert_eq!(fit_lines("A-Xiu", 20.0, 18.0, 14.0).lines, ["A-Xiu"]);
        assert_eq!(fit_lines("passed A-Xiu", 60.0, 18.0, 14.0).lines, ["passed", "A-Xiu"]);
        let hyphen = fit_lines("Flag-verifier", 60.0, 18.0, 14.0);
        assert_eq!(hyphen.lines, ["Flag-", "verifier"], "a hyphenated word breaks after its hyphen");
        assert!(fit_lines("", 10.0, 14.0, 10.0).lines.len() == 1);
    }
}
