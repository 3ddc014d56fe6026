//! The palette's two themes (static/palette.css: light in `:root`, dark in its
//! `prefers-color-scheme` block) at WCAG AA: each pair of colours the stylesheets put
//! together, text on its background at 4.5:1 and marks, lines, control edges and the focus
//! ring on theirs at 3:1, in both themes. axe checks the page's HTML text (e2e/a11y.spec.js);
//! this also covers the timeline's and the charts' SVG, which it does not judge.

use std::collections::BTreeMap;

const PALETTE: &str = include_str!("../static/palette.css");

/// Every custom property of the theme: the light one, or the light one with the dark
/// block's properties set over it.
fn theme(dark: bool) -> BTreeMap<String, String> {
    let css = without_comments(PALETTE);
    let at = css
        .find("@media (prefers-color-scheme: dark)")
        .expect("a dark block");
    let mut props = declarations(&css[..at]);
    if dark {
        props.extend(declarations(&css[at..]));
    }
    props
}

fn declarations(css: &str) -> BTreeMap<String, String> {
    css.split(['{', ';', '}'])
        .filter_map(|d| d.trim().strip_prefix("--")?.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect()
}

fn without_comments(css: &str) -> String {
    let mut out = String::new();
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        rest = rest[start..].split_once("*/").map_or("", |(_, a)| a);
    }
    out + rest
}

/// `#rrggbb` or `rgba(r, g, b, a)` as red, green, blue (0-255) and alpha.
fn parse(value: &str) -> ([f64; 3], f64) {
    if let Some(hex) = value.strip_prefix('#') {
        assert_eq!(hex.len(), 6, "{value}: write colours as #rrggbb");
        let c = |i: usize| f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap());
        return ([c(0), c(2), c(4)], 1.0);
    }
    let inner = value
        .strip_prefix("rgba(")
        .and_then(|v| v.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{value}: not #rrggbb or rgba()"));
    let n: Vec<f64> = inner
        .split(',')
        .map(|p| p.trim().parse().unwrap())
        .collect();
    ([n[0], n[1], n[2]], n[3])
}

/// The colour `name` as drawn over `under` (a translucent one blended onto it).
fn colour(t: &BTreeMap<String, String>, name: &str, under: [f64; 3]) -> [f64; 3] {
    let value = t
        .get(name)
        .unwrap_or_else(|| panic!("--{name} is not in the palette"));
    let (rgb, a) = parse(value);
    [0, 1, 2].map(|i| rgb[i] * a + under[i] * (1.0 - a))
}

fn luminance(c: [f64; 3]) -> f64 {
    let lin = |v: f64| {
        let s = v / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

fn ratio(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Text: each colour on each of the backgrounds it is set on (static/style.css,
/// timeline.css, plot.css).
const TEXT: &[(&str, &[&str])] = &[
    (
        "fg",
        &[
            "bg",
            "panel",
            "gray-00",
            "gray-0",
            "gray-1",
            "gray-2",
            "current",
            "verdict-bg",
            "verdict-broken-bg",
            "blue-0",
            "green-00",
            "green-0",
            "red-00",
            "red-0",
            "orange-00",
            "orange-0",
            "yellow-0",
            "diverge-bg",
        ],
    ),
    (
        "muted",
        &[
            "bg",
            "panel",
            "gray-00",
            "gray-0",
            "current",
            "yellow-0",
            "blue-0",
            "green-00",
            "red-00",
            "orange-00",
        ],
    ),
    (
        "on-fill",
        &[
            "accent-fill",
            "accent-fill-hover",
            "ok-fill",
            "reject-fill",
            "violation-fill",
            "violation-hatch",
            "crash",
        ],
    ),
    ("accent-dark", &["panel", "gray-0"]),
    ("green-6", &["panel", "gray-00", "current"]),
    ("ok", &["panel", "green-00"]),
    ("reject", &["panel", "gray-00", "current", "orange-00"]),
    ("violation", &["panel", "red-00", "diverge-bg"]),
    ("red-6", &["panel", "gray-00", "current", "red-00"]),
    ("red-7", &["red-0"]),
    ("blue-9", &["blue-0"]),
    ("brown-6", &["panel", "current"]),
    // The paused band's words, on its hatch: the pale ground and the stripes.
    ("brown-7", &["current", "yellow-3"]),
    ("purple-6", &["panel", "purple-0"]),
    ("pause", &["current"]),
];

/// Marks, lines and edges: the timeline's shapes and arrows, the charts' lines, the form
/// controls' borders and the focus ring, on the surfaces they are drawn on.
const MARKS: &[(&str, &[&str])] = &[
    ("focus", &["bg", "panel", "gray-0"]),
    ("gray-5", &["bg", "panel", "gray-0"]),
    ("muted", &["gray-0"]),
    ("accent", &["panel", "gray-0", "blue-0"]),
    ("accent-dark", &["gray-0"]),
    ("accent-fill", &["panel", "gray-0"]),
    ("ok-fill", &["panel", "gray-0"]),
    ("reject-fill", &["panel", "gray-0"]),
    ("violation-fill", &["panel", "gray-0"]),
    ("crash", &["panel", "gray-0"]),
    ("ok", &["panel"]),
    ("violation", &["panel", "gray-0"]),
    ("pause", &["panel", "gray-0"]),
    ("orange-6", &["panel"]),
    ("purple-5", &["panel", "purple-0"]),
];

fn failures(dark: bool) -> Vec<String> {
    let t = theme(dark);
    let page = colour(&t, "bg", [0.0; 3]);
    let panel = colour(&t, "panel", page);
    let mut out = Vec::new();
    for (pairs, min) in [(TEXT, 4.5), (MARKS, 3.0)] {
        for (fg, backgrounds) in pairs {
            for bg in *backgrounds {
                // A translucent background is drawn on the panel.
                let b = colour(&t, bg, panel);
                let r = ratio(colour(&t, fg, b), b);
                if r < min {
                    out.push(format!("--{fg} on --{bg}: {r:.2}:1, under {min}:1"));
                }
            }
        }
    }
    out
}

#[test]
fn the_light_theme_is_at_wcag_aa() {
    let f = failures(false);
    assert!(f.is_empty(), "light theme:\n{}", f.join("\n"));
}

#[test]
fn the_dark_theme_is_at_wcag_aa() {
    let f = failures(true);
    assert!(f.is_empty(), "dark theme:\n{}", f.join("\n"));
}

#[test]
fn the_dark_theme_sets_every_colour_again_and_nothing_else() {
    let light = theme(false);
    let css = without_comments(PALETTE);
    let at = css.find("@media (prefers-color-scheme: dark)").unwrap();
    let dark = declarations(&css[at..]);
    // The same in both themes, so not set again: fonts, and black for an alpha mask.
    let shared = ["sans", "mono", "black"];
    for name in light.keys() {
        assert_eq!(
            dark.contains_key(name),
            !shared.contains(&name.as_str()),
            "--{name}: every colour but {shared:?} has a dark value"
        );
    }
    for name in dark.keys() {
        assert!(
            light.contains_key(name),
            "--{name} is only in the dark block"
        );
    }
    assert!(css.contains("color-scheme: light dark;"));
    // Only custom properties in the block: the page's rules stay in style.css.
    let block = &css[at..];
    let body = &block[block.find('{').unwrap() + 1..block.rfind('}').unwrap()];
    assert_eq!(body.trim().split('{').next().unwrap().trim(), ":root");
}
