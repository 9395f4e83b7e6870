//! The SVG drawing (see the module docs of [`crate::picture`]).

use svg::Document;
use svg::node::element::{Description, Element, Group, Rectangle, Text, Title};

mod panel;
mod track;

use panel::{Line, block_top, course_lines, panel, side_block, stone};
use track::{awls, direction, feature, spaces, track};

use super::Names;
use super::describe::{self, Words, letter};
use super::layout::{HEIGHT, Layout, WIDTH, Xy};
use super::palette as colour;
use crate::rules::{Board, GameState, Outcome, Side, Table};

/// The font stack: DejaVu Sans is what the PNG is rendered with (shipped in
/// `assets/fonts/`); browsers without it fall back to a similar sans-serif.
pub(super) const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// Left edge of the panel beside the board.
pub(super) const PANEL_X: f64 = 1045.0;
/// Right edge of the panel.
pub(super) const PANEL_END: f64 = 1420.0;
/// Left margin of the panel's text.
pub(super) const PANEL_TEXT: f64 = PANEL_X + 24.0;
/// Right edge of the panel's content.
pub(super) const PANEL_RIGHT: f64 = PANEL_END - 18.0;
/// Widest line on the stone at the centre.
pub(super) const STONE_TEXT: f64 = 370.0;

/// Round to a tenth, so the output does not depend on the last bits of the
/// trigonometry (and never prints `-0`).
pub(super) fn r(v: f64) -> f64 {
    (v * 10.0).round() / 10.0 + 0.0
}

/// Replace what XML 1.0 cannot carry (control characters other than tab,
/// newline and carriage return; U+FFFE; U+FFFF) with U+FFFD.
pub(crate) fn xml_safe(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if c < ' ' => '\u{fffd}',
            '\u{fffe}' | '\u{ffff}' => '\u{fffd}',
            c => c,
        })
        .collect()
}

pub(super) use crate::fonts::text_width;

/// Which way a text runs from its anchor.
#[derive(Clone, Copy)]
pub(super) enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    const fn as_str(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// A line of text whose baseline is placed so that the line is centred
/// vertically on `y`; squeezed to `max` wide when it would be wider.
pub(super) fn label(
    content: &str,
    at: Xy,
    size: f64,
    bold: bool,
    fill: &str,
    anchor: Anchor,
    max: Option<f64>,
) -> Element {
    let content = xml_safe(content);
    let mut text = Text::new(content.as_str())
        .set("x", r(at.x))
        .set("y", r(at.y + size * 0.36))
        .set("font-size", r(size))
        .set("fill", fill);
    if bold {
        text = text.set("font-weight", "bold");
    }
    if !matches!(anchor, Anchor::Start) {
        text = text.set("text-anchor", anchor.as_str());
    }
    if let Some(max) = max
        && text_width(&content, size, bold) > max
    {
        text = text
            .set("textLength", r(max))
            .set("lengthAdjust", "spacingAndGlyphs");
    }
    inline(text)
}

/// A `<text>` written with its content inline: the `svg` crate writes a
/// `Text` element's content between newlines, which would become part of
/// the text in the document tree.
pub(super) fn inline(text: Text) -> Element {
    Element::from(text)
}

/// `M x y L x y ...` through `points`, closed when `close`.
pub(super) fn polyline(points: &[Xy], close: bool) -> String {
    let mut d = String::new();
    for (i, p) in points.iter().enumerate() {
        d.push_str(if i == 0 { "M" } else { " L" });
        d.push_str(&format!("{} {}", r(p.x), r(p.y)));
    }
    if close {
        d.push_str(" Z");
    }
    d
}

/// `North` from `north`.
pub(super) fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// How much of the board a picture shows, and how large its numbers are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BoardView {
    /// The whole picture: the track and, beside it, the panel (the sides,
    /// their awls and counters, the key), with numbers for a screen.
    #[default]
    Full,
    /// The track alone, cropped to it, with space numbers 70 % larger: for
    /// a projector (or a phone), where the page beside the board says whose
    /// turn it is and the counters, and the numbers must carry to the back
    /// of a classroom (28 pixels and more at 1920 x 1080).
    Projector,
}

impl BoardView {
    /// Every view.
    pub const ALL: [BoardView; 2] = [BoardView::Full, BoardView::Projector];

    /// The view's name in the API (`full`, `projector`).
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            BoardView::Full => "full",
            BoardView::Projector => "projector",
        }
    }

    /// The view named `key`.
    #[must_use]
    pub fn parse(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.key() == key)
    }

    /// The picture's width: the projector's ends before the panel.
    #[must_use]
    pub const fn width(self) -> u32 {
        match self {
            BoardView::Full => WIDTH,
            BoardView::Projector => PROJECTOR_WIDTH,
        }
    }
}

/// The projector view's width: the track, its labels and its arrows, the
/// panel left out.
pub const PROJECTOR_WIDTH: u32 = 1010;

/// The picture's frame: root element, title, desc, ground, track, features,
/// spaces, direction arrows and the panel.
pub(super) fn frame(board: Board, title: &str, desc: &str, view: BoardView) -> (Document, Layout) {
    let layout = Layout::of(board);
    let mut features = Group::new().set("id", "features");
    for gap in &layout.gaps {
        features = features.add(feature(board, gap));
    }
    let width = view.width();
    let mut doc = Document::new();
    if view != BoardView::Full {
        doc = doc.set("data-view", view.key());
    }
    let doc = doc
        .set("width", width)
        .set("height", HEIGHT)
        .set("viewBox", format!("0 0 {width} {HEIGHT}"))
        .set("role", "img")
        .set("aria-labelledby", "board-title board-desc")
        .set("font-family", FONT)
        .set(
            "data-board",
            match board {
                Board::Circle40 => "circle40",
                Board::Square28 => "square28",
            },
        )
        .add(Title::new(xml_safe(title)).set("id", "board-title"))
        .add(
            Description::new()
                .set("id", "board-desc")
                .add(svg::node::Text::new(xml_safe(desc))),
        )
        .add(
            Rectangle::new()
                .set("id", "ground")
                .set("width", WIDTH)
                .set("height", HEIGHT)
                .set("fill", colour::GROUND),
        )
        .add(track(board, &layout))
        .add(features)
        .add(spaces(board, &layout, view))
        .add(direction(board, &layout, Side::A))
        .add(direction(board, &layout, Side::B))
        .add(panel(board));
    (doc, layout)
}

/// The picture of a game: the board with both awls, the counters each side
/// holds, whose throw it is or who won, and the side names. A pure
/// function: the same arguments always give the same bytes.
#[must_use]
pub fn game_svg(table: &Table, state: &GameState, names: &Names<'_>) -> String {
    game_svg_in(table, state, names, BoardView::Full)
}

/// [`game_svg`] in `view`.
#[must_use]
pub fn game_svg_in(table: &Table, state: &GameState, names: &Names<'_>, view: BoardView) -> String {
    let board = table.options().board;
    let title = describe::game_title(table, state, names);
    let desc = describe::game_desc(table, state, names);
    let (mut doc, layout) = frame(board, &title, &desc, view);
    doc = doc.set("data-throws", state.throws);
    doc = match state.outcome {
        Some(Outcome::Won { side }) => doc.set("data-winner", letter(side).to_lowercase()),
        Some(Outcome::Draw) => doc.set("data-winner", "draw"),
        None => doc.set(
            "data-to-throw",
            letter(state.to_throw(table).side).to_lowercase(),
        ),
    };
    // The centre: whose throw, or the result; then how far the game is.
    let (who, verb, side) = describe::headline(table, state, names);
    let fill = if matches!(state.outcome, Some(Outcome::Draw)) {
        colour::INK
    } else {
        colour::side(side)
    };
    let whole = if verb.is_empty() {
        who.clone()
    } else {
        format!("{who} {verb}")
    };
    let mut lines = Vec::new();
    if text_width(&whole, 30.0, true) <= STONE_TEXT {
        lines.push(Line::new(whole, 30.0, true, fill));
    } else {
        lines.push(Line::new(who, 28.0, true, fill));
        lines.push(Line::new(verb, 24.0, true, colour::INK));
    }
    lines.push(Line::new(
        describe::progress(state),
        20.0,
        false,
        colour::MUTED,
    ));
    if state.outcome.is_none() {
        let seat = state.to_throw(table);
        if names.players[seat.side.index()].len() > 1 {
            lines.push(Line::new(
                format!("for {}", names.sides[seat.side.index()]),
                20.0,
                false,
                colour::INK,
            ));
        }
        for s in Side::BOTH {
            if state.forfeits[s.index()] {
                lines.push(Line::new(
                    format!("next throw lost: {}", names.sides[s.index()]),
                    18.0,
                    false,
                    colour::INK,
                ));
            }
        }
    }
    doc = doc.add(stone(&lines));
    // The panel: each side's awl, counters and circuits.
    for side in Side::BOTH {
        let own = state.awl(side);
        let [course_1, course_2] = course_lines(side);
        let place = if own == 1 {
            "Awl at its start, space 1".to_owned()
        } else {
            format!("Awl on space {own}")
        };
        let mut held = describe::counters(state.counters(side));
        let c = state.circuits[side.index()];
        if c > 0 {
            held = format!("{held} · {}", describe::circuits(c));
        }
        if state.outcome == Some(Outcome::Won { side }) {
            held = format!("{held} · winner");
        }
        let block = [
            course_1,
            course_2,
            Line::new(place, 20.0, true, colour::INK),
            Line::new(
                format!("= {}'s space {}", letter(side.other()), board.mirror(own)),
                16.0,
                false,
                colour::MUTED,
            ),
            Line::new(held, 20.0, true, colour::INK),
        ];
        doc = doc.add(side_block(
            side,
            names.sides[side.index()],
            block_top(side),
            &block,
            Some(state.counters(side)),
        ));
    }
    doc.add(awls(board, &layout, state)).to_string()
}

/// The empty board's picture in words: the `<title>` and the `<desc>`
/// that [`empty_svg`] holds, for a page that shows the picture with its
/// description as the text alternative.
#[must_use]
pub fn empty_words(board: Board) -> (String, String) {
    (describe::empty_title(board), describe::empty_desc(board))
}

/// The empty board with both sides' numberings, for a ruleset's lesson.
#[must_use]
pub fn empty_svg(board: Board) -> String {
    empty_svg_in(board, BoardView::Full)
}

/// [`empty_svg`] in `view`.
#[must_use]
pub fn empty_svg_in(board: Board, view: BoardView) -> String {
    let title = describe::empty_title(board);
    let desc = describe::empty_desc(board);
    let (mut doc, _) = frame(board, &title, &desc, view);
    let words = Words::of(board);
    doc = doc.add(stone(&[
        Line::new("Both counts", 30.0, true, colour::INK),
        Line::new("A's numbers outside, B's inside", 20.0, false, colour::INK),
        Line::new(
            format!(
                "on every space they add up to {}",
                u16::from(board.len()) + 1
            ),
            20.0,
            false,
            colour::MUTED,
        ),
    ]));
    for side in Side::BOTH {
        let [course_1, course_2] = course_lines(side);
        let bank = match side {
            Side::A => "east",
            Side::B => "west",
        };
        // The block's name is already "Side A": no need to say it again.
        let course_1 = Line {
            text: course_1
                .text
                .replace(&format!("Side {} · ", letter(side)), ""),
            ..course_1
        };
        let block = [
            course_1,
            course_2,
            Line::new(
                format!("starts on 1, the {bank} bank"),
                20.0,
                true,
                colour::INK,
            ),
            Line::new(
                format!("of the south {}", words.creek),
                20.0,
                true,
                colour::INK,
            ),
        ];
        doc = doc.add(side_block(
            side,
            &format!("Side {}", letter(side)),
            block_top(side),
            &block,
            None,
        ));
    }
    doc.to_string()
}
