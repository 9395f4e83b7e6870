//! A link as a QR code, in SVG: what a pupil's tablet scans to open its
//! side's page. The secret after `#` is in the code, so the picture is made
//! on request and never kept.

use qrcode::render::svg;
use qrcode::{EcLevel, QrCode};

/// The text does not fit in a QR code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the text is too long for a QR code")]
pub struct QrTooLong;

/// `text` as a QR code (error correction M: a projected or printed code
/// still scans with a smudge), black on white with the quiet zone the
/// standard asks for, at least 240 units square, labelled for screen
/// readers with `label`.
///
/// # Errors
/// [`QrTooLong`] when `text` does not fit.
pub fn qr_svg(text: &str, label: &str) -> Result<String, QrTooLong> {
    let code =
        QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M).map_err(|_| QrTooLong)?;
    let svg = code
        .render::<svg::Color<'_>>()
        .min_dimensions(240, 240)
        .dark_color(svg::Color("#000000"))
        .light_color(svg::Color("#ffffff"))
        .build();
    // The renderer writes a bare <svg>: name it for screen readers.
    let label = crate::draw::xml_safe(label)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;");
    Ok(svg.replacen(
        "<svg ",
        &format!("<svg role=\"img\" aria-label=\"{label}\" "),
        1,
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_link_becomes_a_labelled_svg_and_too_much_text_is_refused() {
        let svg = qr_svg(
            "https://example.org/play/x#seat=A.secret",
            "Side \"A\" & co",
        )
        .unwrap();
        assert!(
            svg.contains("<svg role=\"img\" aria-label=\"Side &quot;A&quot; &amp; co\""),
            "{svg}"
        );
        assert!(svg.contains("<path") || svg.contains("<rect"), "{svg}");
        assert_eq!(qr_svg(&"x".repeat(5000), "too long"), Err(QrTooLong));
    }
}
