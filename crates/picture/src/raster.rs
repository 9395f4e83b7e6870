//! The picture as a PNG: the SVG rendered in-process by resvg.
//!
//! Text is set in DejaVu Sans (regular and bold), with Noto Emoji for the
//! emoji DejaVu lacks (a name such as "🦊 Foxes"), all shipped in
//! `assets/fonts/` and compiled into the binary; no system font is looked
//! up, so the PNG is the same on every machine for the same resvg version.
//! A glyph none of them has (for instance a CJK character in a name)
//! renders as nothing; the SVG keeps it for clients with their own fonts.
//! `<image>` references are never resolved (the drawing has none, and no
//! file is ever read).

use std::sync::{Arc, LazyLock};

use resvg::{tiny_skia, usvg};

use crate::fonts::{BOLD, EMOJI, FAMILY, REGULAR};

/// A picture that could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    /// The SVG did not parse.
    #[error("the SVG did not parse: {0}")]
    Svg(#[from] usvg::Error),
    /// The picture has no area, or is too large to allocate.
    #[error("the picture is {0}×{1} pixels, which cannot be rendered")]
    Size(u32, u32),
    /// The PNG encoder failed.
    #[error("the PNG could not be encoded: {0}")]
    Encode(String),
}

/// Parsing options: the shipped fonts only (DejaVu Sans for every family,
/// Noto Emoji as the fallback), no external resources.
static OPTIONS: LazyLock<usvg::Options<'static>> = LazyLock::new(|| {
    let mut fontdb = usvg::fontdb::Database::new();
    fontdb.load_font_data(REGULAR.to_vec());
    fontdb.load_font_data(BOLD.to_vec());
    // Found by usvg's fallback for a character the family lacks.
    fontdb.load_font_data(EMOJI.to_vec());
    fontdb.set_sans_serif_family(FAMILY);
    fontdb.set_serif_family(FAMILY);
    fontdb.set_monospace_family(FAMILY);
    fontdb.set_cursive_family(FAMILY);
    fontdb.set_fantasy_family(FAMILY);
    usvg::Options {
        font_family: FAMILY.to_owned(),
        fontdb: Arc::new(fontdb),
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    }
});

/// Render `svg` to a PNG at its own size (one pixel per user unit).
///
/// # Errors
/// [`PngError`] when the SVG does not parse, has no area, or the encoder
/// fails.
pub fn png(svg: &str) -> Result<Vec<u8>, PngError> {
    let tree = usvg::Tree::from_str(svg, &OPTIONS)?;
    let size = tree.size().to_int_size();
    let (w, h) = (size.width(), size.height());
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(PngError::Size(w, h))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    encode(&pixmap)
}

/// Render `svg` to a PNG `scale` times its own size, compressed as far
/// as DEFLATE goes: the small picture a chat host is sent (at `0.5`, 720 ×
/// 450 for the board).
///
/// # Errors
/// [`PngError`] when the SVG does not parse, has no area, or the encoder
/// fails.
pub fn png_scaled(svg: &str, scale: f32) -> Result<Vec<u8>, PngError> {
    let tree = usvg::Tree::from_str(svg, &OPTIONS)?;
    let size = tree.size();
    // Rounded to whole pixels, which fit: the picture's own size is.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let (w, h) = (
        (size.width() * scale).round() as u32,
        (size.height() * scale).round() as u32,
    );
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(PngError::Size(w, h))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    // Six levels a channel (each colour to the nearest of the 216): the
    // drawing keeps its look, and the file is a fraction of the size.
    for p in pixmap.pixels_mut() {
        let c = p.demultiply();
        // The nearest of 0, 51, ..., 255 (at most 255, so it fits).
        #[allow(clippy::cast_possible_truncation)]
        let q = |v: u8| ((u16::from(v) + 25) / 51 * 51) as u8;
        *p =
            tiny_skia::ColorU8::from_rgba(q(c.red()), q(c.green()), q(c.blue()), 255).premultiply();
    }
    encode_with(&pixmap, png::DeflateCompression::Level(9))
}

/// The pixels as an 8-bit RGB PNG: the picture is opaque (its ground
/// covers it), so no alpha channel is kept. DEFLATE level 1 with adaptive
/// row filters: about a fifth of the time of the default level for a file
/// a fifth larger (docs/performance.md, "Board picture").
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, PngError> {
    encode_with(pixmap, png::DeflateCompression::Level(1))
}

/// The pixels as an 8-bit RGB PNG, compressed at `level`.
fn encode_with(
    pixmap: &tiny_skia::Pixmap,
    level: png::DeflateCompression,
) -> Result<Vec<u8>, PngError> {
    let rgb: Vec<u8> = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue()]
        })
        .collect();
    let mut out = Vec::with_capacity(rgb.len() / 8);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_deflate_compression(level);
    let mut writer = encoder
        .write_header()
        .map_err(|e| PngError::Encode(e.to_string()))?;
    writer
        .write_image_data(&rgb)
        .map_err(|e| PngError::Encode(e.to_string()))?;
    writer
        .finish()
        .map_err(|e| PngError::Encode(e.to_string()))?;
    Ok(out)
}
