//! The fonts the picture is set in (DejaVu Sans, regular and bold, and
//! Noto Emoji for the emoji DejaVu lacks), compiled in from
//! `assets/fonts/`, and the width a line of text takes in them.

use std::sync::LazyLock;

use skrifa::instance::{LocationRef, Size};
use skrifa::{FontRef, MetadataProvider};

pub(crate) static REGULAR: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
pub(crate) static BOLD: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans-Bold.ttf");
/// Noto Emoji 3.006 (monochrome outlines, SIL Open Font License), the
/// fallback for emoji: 1,512 code points to Unicode 14.
pub(crate) static EMOJI: &[u8] = include_bytes!("../../../assets/fonts/NotoEmoji-Regular.ttf");

/// The family every text falls back to.
pub(crate) const FAMILY: &str = "DejaVu Sans";

/// A character's advance in ems in one font, if the font has it.
struct Advances(FontRef<'static>);

impl Advances {
    fn of(bytes: &'static [u8]) -> Self {
        Self(FontRef::new(bytes).expect("a shipped font parses"))
    }

    fn ems(&self, c: char) -> Option<f64> {
        let glyph = self.0.charmap().map(c)?;
        self.0
            .glyph_metrics(Size::new(1.0), LocationRef::default())
            .advance_width(glyph)
            .map(f64::from)
    }
}

static FONTS: LazyLock<[Advances; 3]> = LazyLock::new(|| {
    [
        Advances::of(REGULAR),
        Advances::of(BOLD),
        Advances::of(EMOJI),
    ]
});

/// The width of `text` set on one line at `size` (its glyphs' advances,
/// without kerning): in the bold or regular face, an emoji in Noto Emoji,
/// and a character neither has (a CJK one, which the PNG cannot show but
/// an SVG client's own fonts may) at one em. A teacher's trial saw a Hebrew
/// name stretched on the board: the width was guessed at an em a letter,
/// so a name that fitted was set to the full width instead.
pub(crate) fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    let [regular, bold_face, emoji] = &*FONTS;
    let face = if bold { bold_face } else { regular };
    let ems: f64 = text
        .chars()
        .map(|c| face.ems(c).or_else(|| emoji.ems(c)).unwrap_or(1.0))
        .sum();
    ems * size
}

/// `text` in one line at `size` when it fits `max`, else in two lines at
/// `smaller`, broken at the space nearest its middle (a text without a
/// space stays one line, squeezed).
pub(crate) fn wrapped(text: &str, size: f64, smaller: f64, max: f64) -> Vec<(String, f64)> {
    if text_width(text, size, true) <= max {
        return vec![(text.to_owned(), size)];
    }
    let middle = text.chars().count() / 2;
    let split = text
        .char_indices()
        .enumerate()
        .filter(|(_, (_, c))| *c == ' ')
        .min_by_key(|(i, _)| i.abs_diff(middle))
        .map(|(_, (at, _))| at);
    match split {
        Some(at) => vec![
            (text[..at].trim_end().to_owned(), smaller),
            (text[at..].trim_start().to_owned(), smaller),
        ],
        None => vec![(text.to_owned(), smaller)],
    }
}

#[cfg(test)]
mod tests {
    use super::text_width;

    #[test]
    fn widths_come_from_the_fonts_advances() {
        // DejaVu Sans: "i" is narrower than "m"; bold is wider.
        assert!(text_width("iiii", 20.0, false) < text_width("mmmm", 20.0, false));
        assert!(text_width("Hawks", 20.0, false) < text_width("Hawks", 20.0, true));
        // Twice the size, twice the width.
        let w = text_width("Foxes", 10.0, false);
        assert!((text_width("Foxes", 20.0, false) - 2.0 * w).abs() < 1e-9);
    }

    /// A Hebrew letter is about as wide as a Latin one in DejaVu Sans, not
    /// an em (the guess that stretched a Hebrew name on the board).
    #[test]
    fn regression_a_hebrew_letter_was_taken_for_an_em() {
        let hebrew = text_width("שועלים", 28.0, true);
        assert!(hebrew < 6.0 * 28.0 * 0.8, "{hebrew}");
        assert!(hebrew > 6.0 * 28.0 * 0.4, "{hebrew}");
    }

    #[test]
    fn an_emoji_is_measured_in_the_emoji_font_and_a_missing_glyph_as_an_em() {
        assert!(text_width("🦊", 20.0, false) > 10.0);
        assert!((text_width("漢", 20.0, false) - 20.0).abs() < 1e-9);
    }
}
