//! The board as a picture: an SVG drawing of a game's state (or of the empty
//! board), and the same picture as a PNG for clients that cannot show SVG.
//!
//! The drawing is a pure function of rules types and plain names: no I/O, no
//! clock, no hash-map order, coordinates rounded to a tenth, so the same
//! state always gives the same bytes ([`game_svg`], [`empty_svg`]). The PNG
//! ([`png`]) is the SVG rendered in-process by resvg with the DejaVu Sans
//! fonts shipped in the repository's `assets/fonts/` (no system fonts are read).
//!
//! What the picture shows (docs/rules.md, sections 1 and 2):
//! - the 40-space circle, or the 28-cell square of the A4 preset, with both
//!   numberings on every space: A's number outside the track, B's inside
//!   (`a + b = L + 1`);
//! - the north and south creeks (torrents on the square) and the east and
//!   west dry branches (dry gullies), each drawn across the track between its
//!   two banks, which are ringed in the feature's colour, and labelled;
//! - each side's awl at its space: A's a red diamond marked "A", B's a purple
//!   square marked "B" (shape and letter as well as colour);
//! - a panel with each side's name, awl, counters (drawn as counting sticks
//!   and written as a number) and circuits; the centre tells whose throw it
//!   is, or who won.
//!
//! Hooks for tests and other surfaces: the root `<svg>` has `role="img"`,
//! `aria-labelledby` naming its `<title>` and `<desc>` (the state in words),
//! and `data-board`; every space is one element with `data-space="a/b"`
//! (both numberings), `data-a`, `data-b`, `data-p` (physical index) and
//! `data-feature-a` / `data-feature-b` ([`crate::rules::Feature::key`]); the
//! features are `<g class="feature creek ...">` / `<g class="feature
//! dry-branch ...">` (with `torrent` / `dry-gully` added on the square) with
//! `data-banks`; awls are `<g class="awl awl-a">` translated to their
//! space's centre, with `data-a` and `data-b`; counters are `<g
//! class="counters counters-a" data-count="n">`.
//!
//! Names are user input. They only ever appear in text nodes, which the
//! `svg` crate escapes (`&`, `<`, `>`); its attribute values escape the same
//! three characters but not `"`, so no name is ever put in an attribute.
//! Characters XML cannot carry (control characters, U+FFFE, U+FFFF) are
//! replaced by U+FFFD.

/// The narration crate, for the chart's chances in words.
use zohn_ahl_narration as narration;
/// The rules crate under the name the picture's modules use.
use zohn_ahl_rules as rules;

mod chart;
mod describe;
mod draw;
mod fonts;
mod layout;
mod palette;
mod qr;
mod raster;

pub use chart::{
    CHART_HEIGHT, CHART_WIDTH, ChanceChart, ChartMove, ChartResult, chances_description,
    chances_svg,
};
pub use draw::{
    BoardView, PROJECTOR_WIDTH, empty_svg, empty_svg_in, empty_words, game_svg, game_svg_in,
};
pub use layout::{HEIGHT, WIDTH};
pub use palette::{Contrast, contrasts};
pub use qr::{QrTooLong, qr_svg};
pub use raster::{PngError, png, png_scaled};

/// The names a picture shows: each side's name and its players' names in
/// throwing order (a side of one player may list none; its name is used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Names<'a> {
    /// Side A's name, then side B's.
    pub sides: [&'a str; 2],
    /// Side A's players, then side B's.
    pub players: [&'a [String]; 2],
}

impl<'a> Names<'a> {
    /// Two sides with these names and no separate player names.
    #[must_use]
    pub const fn sides(a: &'a str, b: &'a str) -> Self {
        Self {
            sides: [a, b],
            players: [&[], &[]],
        }
    }
}
