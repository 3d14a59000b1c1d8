#!/usr/bin/env python3
"""WCAG 2 contrast of the page's main text/background colour pairs, in both themes.

Reads the colour variables of assets/style.css and assets/later.css (`--name: light-dark(#day, #night)`, or one colour
for both) and prints each pair's ratio by day and by night against its target: 4.5:1 for text,
3:1 for large text and graphics (WCAG AA). Exit 1 if a pair falls short.
`tests/style.rs` checks the same pairs in `cargo test`.

    python3 docs/contrast.py
"""
import pathlib
import re
import sys

# (foreground, background, target, what)
PAIRS = [
    ("ink", "paper", 4.5, "body text on panels"),
    ("ink", "page", 4.5, "text on the page"),
    ("ink", "paper-2", 4.5, "text on the controls bar"),
    ("ink-soft", "paper", 4.5, "hints, times, table heads"),
    ("ink-soft", "paper-2", 4.5, "labels on the controls bar"),
    ("wood-dark", "paper", 4.5, "headings"),
    ("sea-deep", "paper", 4.5, "technical lines"),
    ("good", "paper", 4.5, "accepted writes"),
    ("bad", "paper", 4.5, "refused writes, bad captions"),
    ("diverge", "paper", 4.5, "the first difference of two compared runs"),
    ("ink", "bad-bg", 4.5, "violation sentences, bad log rows"),
    ("ink", "lantern-soft", 4.5, "the Play button"),
    ("good-ink", "good-bg", 4.5, "fencing ON"),
    ("bad-ink", "bad-bg-2", 4.5, "fencing OFF"),
    ("warn-ink", "warn-bg", 4.5, "URL warning"),
    ("st-write", "paper", 4.5, "diagram: write tokens"),
    ("st-refused", "paper", 4.5, "diagram: refused tokens"),
    ("st-violation", "paper", 4.5, "diagram: violations"),
    ("st-store-ink", "paper", 4.5, "diagram: grant numbers"),
    ("warn", "paper", 3.0, "warning marks (graphics)"),
    ("wood", "paper", 3.0, "button and field borders (graphics)"),
]

HEX = r"#[0-9a-fA-F]{3,6}"


def variables(css):
    """name -> (day, night); the first declaration of a name wins (:root comes first)."""
    out = {}
    for name, value in re.findall(r"--([\w-]+):\s*([^;]+);", css):
        pair = re.fullmatch(rf"light-dark\(\s*({HEX}),\s*({HEX})\s*\)", value.strip())
        one = re.fullmatch(HEX, value.strip())
        if name not in out and (pair or one):
            out[name] = pair.groups() if pair else (value.strip(), value.strip())
    return out


def luminance(hex_colour):
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    channels = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a, b):
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def main():
    assets = pathlib.Path(__file__).resolve().parent.parent / "assets"
    css = (assets / "style.css").read_text() + (assets / "later.css").read_text()
    v = variables(css)
    failed = False
    print(f"{'pair':<28} {'day':>6} {'night':>6} {'target':>6}  what")
    for fg, bg, target, what in PAIRS:
        day, night = (ratio(v[fg][i], v[bg][i]) for i in (0, 1))
        bad = min(day, night) < target
        failed |= bad
        print(f"{fg + ' / ' + bg:<28} {day:6.2f} {night:6.2f} {target:6.1f}  {what}{'  << too low' if bad else ''}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
