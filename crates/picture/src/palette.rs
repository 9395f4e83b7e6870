//! The picture's colours, chosen for a projector: a light ground, dark
//! strokes, and text at a WCAG AA contrast of at least 4.5:1 against
//! whatever it is written on ([`contrasts`] lists every pairing used).

/// The cloth: the picture's ground.
pub(super) const GROUND: &str = "#f7f1e3";
/// The track under the spaces.
pub(super) const TRACK: &str = "#e6dac0";
/// Main text and strokes.
pub(super) const INK: &str = "#1f1f1f";
/// Secondary text.
pub(super) const MUTED: &str = "#4a4a4a";
/// Inside a space.
pub(super) const SPACE: &str = "#fffdf8";
/// A space's outline.
pub(super) const SPACE_STROKE: &str = "#3d3d3d";
/// Side A: its awl, its numbers, its name.
pub(super) const SIDE_A: &str = "#b3261e";
/// Side B: its awl, its numbers, its name.
pub(super) const SIDE_B: &str = "#5e35b1";
/// Letters on an awl.
pub(super) const ON_AWL: &str = "#ffffff";
/// Water: a creek's lines, its banks' rings and its label.
pub(super) const CREEK: &str = "#0b5394";
/// A creek's bed.
pub(super) const CREEK_BED: &str = "#cfe3f5";
/// A dry branch's lines, its banks' rings and its label.
pub(super) const DRY: &str = "#7a4a12";
/// A dry branch's bed.
pub(super) const DRY_BED: &str = "#eedfc2";
/// The flat stone at the centre, where the status is written.
pub(super) const STONE: &str = "#e2dccd";
/// The stone's outline.
pub(super) const STONE_EDGE: &str = "#a89d84";
/// The panel beside the board.
pub(super) const PANEL: &str = "#ffffff";
/// The panel's outline.
pub(super) const PANEL_STROKE: &str = "#8c8270";

/// The colour of `side`'s awl, numbers and name.
pub(super) const fn side(side: crate::rules::Side) -> &'static str {
    match side {
        crate::rules::Side::A => SIDE_A,
        crate::rules::Side::B => SIDE_B,
    }
}

/// One pairing of a text colour with the colour it is written on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contrast {
    /// What the text is.
    pub what: &'static str,
    /// The text's colour, `#rrggbb`.
    pub text: &'static str,
    /// The colour under it, `#rrggbb`.
    pub ground: &'static str,
    /// The WCAG 2 contrast ratio of the two (1 to 21).
    pub ratio: f64,
}

/// Every text colour the picture uses with the colour it is written on,
/// and their WCAG 2 contrast ratio.
#[must_use]
pub fn contrasts() -> Vec<Contrast> {
    [
        ("A's numbers", SIDE_A, GROUND),
        ("B's numbers", SIDE_B, GROUND),
        ("creek labels", CREEK, GROUND),
        ("dry branch labels", DRY, GROUND),
        ("panel text", INK, PANEL),
        ("panel notes", MUTED, PANEL),
        ("A's name in the panel", SIDE_A, PANEL),
        ("B's name in the panel", SIDE_B, PANEL),
        ("creek legend", CREEK, PANEL),
        ("dry branch legend", DRY, PANEL),
        ("status on the stone", INK, STONE),
        ("A's status on the stone", SIDE_A, STONE),
        ("B's status on the stone", SIDE_B, STONE),
        ("notes on the stone", MUTED, STONE),
        ("letter on A's awl", ON_AWL, SIDE_A),
        ("letter on B's awl", ON_AWL, SIDE_B),
    ]
    .into_iter()
    .map(|(what, text, ground)| Contrast {
        what,
        text,
        ground,
        ratio: ratio(text, ground),
    })
    .collect()
}

/// Relative luminance of `#rrggbb` (WCAG 2).
fn luminance(hex: &str) -> f64 {
    let channel = |i: usize| {
        let v = hex
            .get(1 + 2 * i..3 + 2 * i)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .map_or(0.0, |b| f64::from(b) / 255.0);
        if v <= 0.040_45 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2)
}

/// WCAG 2 contrast ratio of two `#rrggbb` colours.
fn ratio(a: &str, b: &str) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contrast_ratio_matches_known_pairs() {
        assert!((ratio("#000000", "#ffffff") - 21.0).abs() < 1e-9);
        assert!((ratio("#ffffff", "#ffffff") - 1.0).abs() < 1e-9);
        // WebAIM's checker gives #777777 on white 4.48:1.
        assert!((ratio("#777777", "#ffffff") - 4.48).abs() < 0.01);
    }
}
