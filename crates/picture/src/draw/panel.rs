//! The panel beside the board and the stone at its centre: each side's name,
//! awl, counters and circuits, whose throw it is, and the key.

use svg::node::element::{Circle, Ellipse, Group, Path, Rectangle};

use super::track::awl_mark;
use super::{
    Anchor, PANEL_END, PANEL_RIGHT, PANEL_TEXT, PANEL_X, STONE_TEXT, capitalised, label, r,
};
use crate::describe::{Words, letter};
use crate::fonts::wrapped;
use crate::layout::{CENTRE, GapKind, Xy};
use crate::palette as colour;
use crate::rules::{Board, Side};

/// One line of text in the panel or on the stone.
pub(super) struct Line {
    pub(super) text: String,
    pub(super) size: f64,
    pub(super) bold: bool,
    pub(super) fill: &'static str,
}

impl Line {
    pub(super) fn new(text: impl Into<String>, size: f64, bold: bool, fill: &'static str) -> Self {
        Self {
            text: text.into(),
            size,
            bold,
            fill,
        }
    }
}

/// The flat stone at the centre, with `lines` centred on it.
pub(super) fn stone(lines: &[Line]) -> Group {
    let mut group = Group::new().set("id", "status").add(
        Ellipse::new()
            .set("cx", CENTRE.x)
            .set("cy", CENTRE.y)
            .set("rx", 210)
            .set("ry", 105)
            .set("fill", colour::STONE)
            .set("stroke", colour::STONE_EDGE)
            .set("stroke-width", 2),
    );
    let total: f64 = lines.iter().map(|l| l.size * 1.4).sum();
    let mut y = CENTRE.y - total / 2.0;
    for line in lines {
        let h = line.size * 1.4;
        group = group.add(label(
            &line.text,
            Xy::new(CENTRE.x, y + h / 2.0),
            line.size,
            line.bold,
            line.fill,
            Anchor::Middle,
            Some(STONE_TEXT),
        ));
        y += h;
    }
    group
}

/// `n` counting sticks from the panel's margin, their tops at `y`.
pub(super) fn sticks(side: Side, n: u8, y: f64) -> Group {
    let mut group = Group::new()
        .set(
            "class",
            format!("counters counters-{}", letter(side).to_lowercase()),
        )
        .set("data-count", n)
        .set("fill", colour::side(side))
        .set("stroke", colour::INK)
        .set("stroke-width", 1);
    for i in 0..n {
        group = group.add(
            Rectangle::new()
                .set("class", "counter")
                .set("x", r(PANEL_TEXT + f64::from(i) * 12.0))
                .set("y", r(y))
                .set("width", 7)
                .set("height", 30)
                .set("rx", 2),
        );
    }
    group
}

/// A side's block in the panel from `top`: its awl's mark and its name
/// (in two lines when long), then `lines`, then the counters' sticks when
/// `counters` is given.
pub(super) fn side_block(
    side: Side,
    name: &str,
    top: f64,
    lines: &[Line],
    counters: Option<u8>,
) -> Group {
    let name_x = PANEL_TEXT + 46.0;
    let mut group = Group::new()
        .set(
            "class",
            format!("side side-{}", letter(side).to_lowercase()),
        )
        .add(awl_mark(side, 0.8).set(
            "transform",
            format!("translate({} {})", r(PANEL_TEXT + 18.0), r(top + 20.0)),
        ));
    let mut y = top + 20.0;
    for (i, (text, size)) in wrapped(name, 26.0, 22.0, PANEL_RIGHT - name_x)
        .iter()
        .enumerate()
    {
        if i > 0 {
            y += 28.0;
        }
        group = group.add(label(
            text,
            Xy::new(name_x, y),
            *size,
            true,
            colour::side(side),
            Anchor::Start,
            Some(PANEL_RIGHT - name_x),
        ));
    }
    y += 38.0;
    for line in lines {
        group = group.add(label(
            &line.text,
            Xy::new(PANEL_TEXT, y),
            line.size,
            line.bold,
            line.fill,
            Anchor::Start,
            Some(PANEL_RIGHT - PANEL_TEXT),
        ));
        y += line.size * 1.5;
    }
    if let Some(n) = counters {
        group = group.add(sticks(side, n, y - 8.0));
    }
    group
}

/// A small picture of a feature's bed for the legend, centred on `y`.
pub(super) fn swatch(kind: GapKind, y: f64) -> Group {
    let (ink, fill) = match kind {
        GapKind::Creek => (colour::CREEK, colour::CREEK_BED),
        GapKind::Dry => (colour::DRY, colour::DRY_BED),
    };
    let x = PANEL_TEXT;
    let bed = Rectangle::new()
        .set("x", x)
        .set("y", r(y - 10.0))
        .set("width", 40)
        .set("height", 20)
        .set("fill", fill)
        .set("stroke", ink)
        .set("stroke-width", 1.5);
    let line = match kind {
        GapKind::Creek => Path::new()
            .set(
                "d",
                format!(
                    "M{} {y} Q{} {} {} {y} T{} {y} T{} {y} T{} {y}",
                    x + 4.0,
                    x + 8.5,
                    y - 6.0,
                    x + 13.0,
                    x + 22.0,
                    x + 31.0,
                    x + 36.0
                ),
            )
            .set("stroke-width", 2.5),
        GapKind::Dry => Path::new()
            .set("d", format!("M{} {y} L{} {y}", x + 4.0, x + 36.0))
            .set("stroke-width", 2.5)
            .set("stroke-dasharray", "6 5"),
    };
    Group::new()
        .add(bed)
        .add(line.set("fill", "none").set("stroke", ink))
}

/// The panel's frame, heading and legend.
pub(super) fn panel(board: Board) -> Group {
    let words = Words::of(board);
    let top = 672.0;
    let text_x = PANEL_TEXT + 54.0;
    let note = |text: &str, at: Xy, fill: &str| {
        label(
            text,
            at,
            17.0,
            false,
            fill,
            Anchor::Start,
            Some(PANEL_RIGHT - at.x),
        )
    };
    let bank: Box<dyn svg::Node> = match board {
        Board::Circle40 => Box::new(ringed(
            Circle::new()
                .set("cx", PANEL_TEXT + 20.0)
                .set("cy", top + 76.0)
                .set("r", 12),
        )),
        Board::Square28 => Box::new(ringed(
            Rectangle::new()
                .set("x", PANEL_TEXT + 8.0)
                .set("y", top + 64.0)
                .set("width", 24)
                .set("height", 24)
                .set("rx", 4),
        )),
    };
    let sum = u16::from(board.len()) + 1;
    Group::new()
        .set("id", "panel")
        .add(
            Rectangle::new()
                .set("x", PANEL_X)
                .set("y", 25)
                .set("width", PANEL_END - PANEL_X)
                .set("height", 850)
                .set("rx", 14)
                .set("fill", colour::PANEL)
                .set("stroke", colour::PANEL_STROKE)
                .set("stroke-width", 2),
        )
        .add(label(
            "Zohn Ahl",
            Xy::new(PANEL_TEXT, 62.0),
            32.0,
            true,
            colour::INK,
            Anchor::Start,
            None,
        ))
        .add(label(
            &format!("the {}", words.shape()),
            Xy::new(PANEL_TEXT + 170.0, 64.0),
            18.0,
            false,
            colour::MUTED,
            Anchor::Start,
            Some(PANEL_RIGHT - PANEL_TEXT - 170.0),
        ))
        .add(
            Group::new()
                .set("id", "legend")
                .add(swatch(GapKind::Creek, top))
                .add(note(
                    &format!("{}: water", capitalised(words.creek)),
                    Xy::new(text_x, top),
                    colour::CREEK,
                ))
                .add(swatch(GapKind::Dry, top + 38.0))
                .add(note(
                    &format!("{}: a dry bed", capitalised(words.dry)),
                    Xy::new(text_x, top + 38.0),
                    colour::DRY,
                ))
                .add(bank)
                .add(note(
                    "Ringed space: a bank, its ring coloured as above",
                    Xy::new(text_x, top + 76.0),
                    colour::INK,
                ))
                .add(note(
                    "Numbers: A's outside the track,",
                    Xy::new(PANEL_TEXT, top + 116.0),
                    colour::INK,
                ))
                .add(note(
                    "B's inside; on every space",
                    Xy::new(PANEL_TEXT, top + 140.0),
                    colour::INK,
                ))
                .add(note(
                    &format!("the two add up to {sum}."),
                    Xy::new(PANEL_TEXT, top + 164.0),
                    colour::INK,
                )),
        )
}

/// The legend's sample bank: a space's fill with a creek's ring.
pub(super) fn ringed<N: svg::Node>(mut node: N) -> N {
    node.assign("fill", colour::SPACE);
    node.assign("stroke", colour::CREEK);
    node.assign("stroke-width", 4.5);
    node
}

/// The lines of a side's block that say which numbers are its own and
/// which way it goes.
pub(super) fn course_lines(side: Side) -> [Line; 2] {
    let (numbers, turning) = match side {
        Side::A => ("outer", "counter-clockwise"),
        Side::B => ("inner", "clockwise"),
    };
    [
        Line::new(
            format!("Side {} · the {numbers} numbers", letter(side)),
            17.0,
            false,
            colour::MUTED,
        ),
        Line::new(format!("moves {turning}"), 17.0, false, colour::MUTED),
    ]
}

/// The top of a side's block in the panel.
pub(super) fn block_top(side: Side) -> f64 {
    match side {
        Side::A => 100.0,
        Side::B => 385.0,
    }
}
