//! The SVG drawing (see the module docs of [`crate::picture`]).

use svg::Document;
use svg::node::element::{
    Circle, Description, Element, Ellipse, Group, Path, Rectangle, Text, Title,
};

use super::Names;
use super::describe::{self, Words, letter};
use super::layout::{
    CELL, CENTRE, CIRCLE_RADIUS, Gap, GapKind, HEIGHT, Layout, SPACE_RADIUS, Spot, WIDTH, Xy,
};
use super::palette as colour;
use crate::rules::{Board, GameState, Outcome, Side, Table};

/// The font stack: DejaVu Sans is what the PNG is rendered with (shipped in
/// `assets/fonts/`); browsers without it fall back to a similar sans-serif.
const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// Left edge of the panel beside the board.
const PANEL_X: f64 = 1045.0;
/// Right edge of the panel.
const PANEL_END: f64 = 1420.0;
/// Left margin of the panel's text.
const PANEL_TEXT: f64 = PANEL_X + 24.0;
/// Right edge of the panel's content.
const PANEL_RIGHT: f64 = PANEL_END - 18.0;
/// Widest line on the stone at the centre.
const STONE_TEXT: f64 = 370.0;

/// Round to a tenth, so the output does not depend on the last bits of the
/// trigonometry (and never prints `-0`).
fn r(v: f64) -> f64 {
    (v * 10.0).round() / 10.0 + 0.0
}

/// Replace what XML 1.0 cannot carry (control characters other than tab,
/// newline and carriage return; U+FFFE; U+FFFF) with U+FFFD.
fn xml_safe(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if c < ' ' => '\u{fffd}',
            '\u{fffe}' | '\u{ffff}' => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// A rough width of `text` in DejaVu Sans at `size`, to shrink names that
/// would not fit: generous, so that a long name is squeezed rather than cut.
fn estimated_width(text: &str, size: f64, bold: bool) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            ' ' => 0.32,
            'i' | 'l' | 'j' | 'I' | '.' | ',' | '\'' | '|' | '!' | ':' | ';' => 0.3,
            'm' | 'w' | 'M' | 'W' => 0.95,
            'a'..='z' => 0.62,
            'A'..='Z' | '0'..='9' => 0.72,
            c if u32::from(c) < 0x250 => 0.68,
            _ => 1.0,
        })
        .sum();
    ems * size * if bold { 1.1 } else { 1.0 }
}

/// Which way a text runs from its anchor.
#[derive(Clone, Copy)]
enum Anchor {
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
fn label(
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
        && estimated_width(&content, size, bold) > max
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
fn inline(text: Text) -> Element {
    Element::from(text)
}

/// `M x y L x y ...` through `points`, closed when `close`.
fn polyline(points: &[Xy], close: bool) -> String {
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

/// The classes of a space: `space`, and `bank` with the feature's kind for
/// the two spaces beside each feature.
fn space_class(layout: &Layout, p: u8) -> String {
    match layout.gaps.iter().find(|g| g.banks.contains(&p)) {
        Some(g) => match g.kind {
            GapKind::Creek => format!("space bank creek-bank {}-bank", g.compass),
            GapKind::Dry => format!("space bank dry-bank {}-bank", g.compass),
        },
        None => "space".to_owned(),
    }
}

/// The spaces, both numberings on each.
fn spaces(board: Board, layout: &Layout) -> Group {
    let len = board.len();
    let mut shapes = Group::new().set("id", "spaces");
    let mut numbers_a = Group::new()
        .set("id", "numbers-a")
        .set("class", "numbers numbers-a")
        .set("fill", colour::SIDE_A);
    let mut numbers_b = Group::new()
        .set("id", "numbers-b")
        .set("class", "numbers numbers-b")
        .set("fill", colour::SIDE_B);
    let (size, gap) = match board {
        Board::Circle40 => (17.0, SPACE_RADIUS + 19.0),
        Board::Square28 => (18.0, CELL / 2.0 + 17.0),
    };
    for p in 0..len {
        let spot = layout.spots[usize::from(p)];
        let (a, b) = (board.own_space(Side::A, p), board.own_space(Side::B, p));
        let bank = layout.gaps.iter().find(|g| g.banks.contains(&p));
        let (stroke, width) = match bank.map(|g| g.kind) {
            Some(GapKind::Creek) => (colour::CREEK, 4.5),
            Some(GapKind::Dry) => (colour::DRY, 4.5),
            None => (colour::SPACE_STROKE, 2.0),
        };
        let element: Box<dyn svg::Node> = match board {
            Board::Circle40 => Box::new(space_attributes(
                Circle::new()
                    .set("cx", r(spot.at.x))
                    .set("cy", r(spot.at.y))
                    .set("r", SPACE_RADIUS),
                board,
                layout,
                p,
                stroke,
                width,
            )),
            Board::Square28 => Box::new(space_attributes(
                Rectangle::new()
                    .set("x", r(spot.at.x - CELL / 2.0))
                    .set("y", r(spot.at.y - CELL / 2.0))
                    .set("width", CELL)
                    .set("height", CELL)
                    .set("rx", 6),
                board,
                layout,
                p,
                stroke,
                width,
            )),
        };
        shapes = shapes.add(element);
        // A corner cell's numbers sit on its diagonal, clear of its corners.
        let gap = if board.is_corner(a) {
            CELL / 2.0 * std::f64::consts::SQRT_2 + 14.0
        } else {
            gap
        };
        numbers_a = numbers_a.add(number(a, spot.at.along(spot.out, gap), size));
        numbers_b = numbers_b.add(number(b, spot.at.along(spot.out, -gap), size));
    }
    Group::new().add(shapes).add(numbers_a).add(numbers_b)
}

/// A space's hooks and colours: `class`, `data-space` (`a/b`), `data-a`,
/// `data-b`, `data-p`, `data-feature-a`, `data-feature-b`.
fn space_attributes<N: svg::Node>(
    mut node: N,
    board: Board,
    layout: &Layout,
    p: u8,
    stroke: &str,
    width: f64,
) -> N {
    let (a, b) = (board.own_space(Side::A, p), board.own_space(Side::B, p));
    node.assign("class", space_class(layout, p));
    node.assign("data-space", format!("{a}/{b}"));
    node.assign("data-a", a);
    node.assign("data-b", b);
    node.assign("data-p", p);
    node.assign("data-feature-a", board.feature(Side::A, a).key());
    node.assign("data-feature-b", board.feature(Side::B, b).key());
    node.assign("fill", colour::SPACE);
    node.assign("stroke", stroke);
    node.assign("stroke-width", width);
    node
}

/// One space number, centred on `at`.
fn number(n: u8, at: Xy, size: f64) -> Element {
    inline(
        Text::new(n.to_string())
            .set("x", r(at.x))
            .set("y", r(at.y + size * 0.36))
            .set("font-size", size)
            .set("font-weight", "bold")
            .set("text-anchor", "middle"),
    )
}

/// The band under the spaces that joins them into a track.
fn track(board: Board, layout: &Layout) -> Box<dyn svg::Node> {
    match board {
        Board::Circle40 => Box::new(
            Circle::new()
                .set("cx", CENTRE.x)
                .set("cy", CENTRE.y)
                .set("r", CIRCLE_RADIUS)
                .set("fill", "none")
                .set("stroke", colour::TRACK)
                .set("stroke-width", 44)
                .set("id", "track"),
        ),
        Board::Square28 => {
            let first = layout.spots[24].at; // the south-west corner
            let last = layout.spots[10].at; // the north-east corner
            Box::new(
                Rectangle::new()
                    .set("x", r(first.x.min(last.x)))
                    .set("y", r(first.y.min(last.y)))
                    .set("width", r((last.x - first.x).abs()))
                    .set("height", r((last.y - first.y).abs()))
                    .set("fill", "none")
                    .set("stroke", colour::TRACK)
                    .set("stroke-width", 74)
                    .set("id", "track"),
            )
        }
    }
}

/// A feature drawn across the track in its gap, with its label outside.
fn feature(board: Board, gap: &Gap) -> Group {
    let words = Words::of(board);
    let (half_len, half_width) = match board {
        Board::Circle40 => (52.0, 15.0),
        Board::Square28 => (56.0, 19.0),
    };
    let at = |u: f64, v: f64| gap.at.along(gap.out, u).along(gap.along, v);
    let bed = polyline(
        &[
            at(-half_len, -half_width),
            at(half_len, -half_width),
            at(half_len, half_width),
            at(-half_len, half_width),
        ],
        true,
    );
    let (class, name, ink, fill) = match (gap.kind, board) {
        (GapKind::Creek, Board::Circle40) => (
            "feature creek",
            words.creek,
            colour::CREEK,
            colour::CREEK_BED,
        ),
        (GapKind::Creek, Board::Square28) => (
            "feature creek torrent",
            words.creek,
            colour::CREEK,
            colour::CREEK_BED,
        ),
        (GapKind::Dry, Board::Circle40) => (
            "feature dry-branch",
            words.dry,
            colour::DRY,
            colour::DRY_BED,
        ),
        (GapKind::Dry, Board::Square28) => (
            "feature dry-branch dry-gully",
            words.dry,
            colour::DRY,
            colour::DRY_BED,
        ),
    };
    let banks = gap.banks.map(|p| {
        format!(
            "{}/{}",
            board.own_space(Side::A, p),
            board.own_space(Side::B, p)
        )
    });
    let mut group = Group::new()
        .set("class", format!("{class} {}", gap.compass))
        .set(
            "id",
            format!(
                "{}-{}",
                gap.compass,
                class.rsplit(' ').next().unwrap_or("feature")
            ),
        )
        .set("data-banks", banks.join(" "))
        .add(
            Path::new()
                .set("d", bed)
                .set("fill", fill)
                .set("stroke", ink)
                .set("stroke-width", 1.5),
        );
    group = match gap.kind {
        GapKind::Creek => {
            // Water: a wave along the bed, across the track.
            let steps = 8;
            let amplitude = half_width * 0.45;
            let mut d = String::new();
            let start = at(-half_len + 6.0, 0.0);
            d.push_str(&format!("M{} {}", r(start.x), r(start.y)));
            let seg = (2.0 * half_len - 12.0) / f64::from(steps);
            for i in 0..steps {
                let u0 = -half_len + 6.0 + seg * f64::from(i);
                let side = if i % 2 == 0 { amplitude } else { -amplitude };
                let c = at(u0 + seg / 2.0, side * 2.0);
                let e = at(u0 + seg, 0.0);
                d.push_str(&format!(" Q{} {} {} {}", r(c.x), r(c.y), r(e.x), r(e.y)));
            }
            group.add(
                Path::new()
                    .set("d", d)
                    .set("fill", "none")
                    .set("stroke", ink)
                    .set("stroke-width", 3)
                    .set("stroke-linecap", "round"),
            )
        }
        GapKind::Dry => group.add(
            Path::new()
                .set(
                    "d",
                    polyline(&[at(-half_len + 6.0, 0.0), at(half_len - 6.0, 0.0)], false),
                )
                .set("fill", "none")
                .set("stroke", ink)
                .set("stroke-width", 3)
                .set("stroke-dasharray", "7 6"),
        ),
    };
    // The label, outside the track: one line north and south, two east and
    // west (where the board is narrow).
    let compass = capitalised(gap.compass);
    let size = 19.0;
    if gap.out.y.abs() > 0.5 {
        let spot = gap.at.along(gap.out, half_len + 22.0);
        group.add(label(
            &format!("{compass} {name}"),
            spot,
            size,
            true,
            ink,
            Anchor::Middle,
            None,
        ))
    } else {
        let anchor = if gap.out.x > 0.0 {
            Anchor::Start
        } else {
            Anchor::End
        };
        let spot = gap.at.along(gap.out, half_len + 8.0);
        group
            .add(label(
                &compass,
                spot.along(Xy::new(0.0, 1.0), -12.0),
                size,
                true,
                ink,
                anchor,
                None,
            ))
            .add(label(
                name,
                spot.along(Xy::new(0.0, 1.0), 12.0),
                size,
                true,
                ink,
                anchor,
                None,
            ))
    }
}

/// `North` from `north`.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// An arrow outside the track beside a side's start, showing which way it
/// goes, with the side's letter at its head.
fn direction(board: Board, layout: &Layout, side: Side) -> Group {
    let len = usize::from(board.len());
    // From the space after the start, over the next two (the circle) or to
    // the one after and half a cell on (the square, clear of the corner).
    let (from, mid, to) = match side {
        Side::A => (1, 2, 3),
        Side::B => (len - 2, len - 3, len - 4),
    };
    let offset = match board {
        Board::Circle40 => 66.0,
        Board::Square28 => 70.0,
    };
    let point = |i: usize| {
        let s: Spot = layout.spots[i];
        s.at.along(s.out, offset)
    };
    let (p0, pm, p2) = match board {
        Board::Circle40 => (point(from), point(mid), point(to)),
        Board::Square28 => {
            let (a, b) = (point(from), point(mid));
            let end = Xy::new(b.x + (b.x - a.x) * 0.6, b.y + (b.y - a.y) * 0.6);
            (a, Xy::new((a.x + end.x) / 2.0, (a.y + end.y) / 2.0), end)
        }
    };
    // A quadratic curve through the middle point.
    let c = Xy::new(
        2.0 * pm.x - (p0.x + p2.x) / 2.0,
        2.0 * pm.y - (p0.y + p2.y) / 2.0,
    );
    let dir = Xy::new(p2.x - c.x, p2.y - c.y).unit();
    let normal = Xy::new(-dir.y, dir.x);
    let head = [
        p2.along(dir, 14.0),
        p2.along(dir, -4.0).along(normal, 10.0),
        p2.along(dir, -4.0).along(normal, -10.0),
    ];
    let ink = colour::side(side);
    Group::new()
        .set(
            "class",
            format!("direction direction-{}", letter(side).to_lowercase()),
        )
        .add(
            Path::new()
                .set(
                    "d",
                    format!(
                        "M{} {} Q{} {} {} {}",
                        r(p0.x),
                        r(p0.y),
                        r(c.x),
                        r(c.y),
                        r(p2.x),
                        r(p2.y)
                    ),
                )
                .set("fill", "none")
                .set("stroke", ink)
                .set("stroke-width", 4)
                .set("stroke-linecap", "round"),
        )
        .add(
            Path::new()
                .set("d", polyline(&head, true))
                .set("fill", ink)
                .set("stroke", ink)
                .set("stroke-width", 2)
                .set("stroke-linejoin", "round"),
        )
        .add(label(
            letter(side),
            p2.along(dir, 32.0),
            20.0,
            true,
            ink,
            Anchor::Middle,
            None,
        ))
}

/// A side's awl mark centred on the origin (placed by its group's
/// transform): A's a diamond, B's a square, each with its letter.
fn awl_mark(side: Side, scale: f64) -> Group {
    let body: Box<dyn svg::Node> = match side {
        Side::A => {
            let s = 25.0 * scale;
            Box::new(
                Path::new()
                    .set(
                        "d",
                        polyline(
                            &[
                                Xy::new(0.0, -s),
                                Xy::new(s, 0.0),
                                Xy::new(0.0, s),
                                Xy::new(-s, 0.0),
                            ],
                            true,
                        ),
                    )
                    .set("fill", colour::SIDE_A)
                    .set("stroke", colour::INK)
                    .set("stroke-width", r(2.5 * scale))
                    .set("stroke-linejoin", "round"),
            )
        }
        Side::B => {
            let s = 19.0 * scale;
            Box::new(
                Rectangle::new()
                    .set("x", r(-s))
                    .set("y", r(-s))
                    .set("width", r(2.0 * s))
                    .set("height", r(2.0 * s))
                    .set("rx", r(4.0 * scale))
                    .set("fill", colour::SIDE_B)
                    .set("stroke", colour::INK)
                    .set("stroke-width", r(2.5 * scale)),
            )
        }
    };
    let size = 20.0 * scale;
    Group::new().add(body).add(inline(
        Text::new(letter(side))
            .set("x", 0)
            .set("y", r(size * 0.36))
            .set("font-size", r(size))
            .set("font-weight", "bold")
            .set("text-anchor", "middle")
            .set("fill", colour::ON_AWL),
    ))
}

/// Both awls at their spaces (side by side when they share one).
fn awls(board: Board, layout: &Layout, state: &GameState) -> Group {
    let mut group = Group::new().set("id", "awls");
    let p = Side::BOTH.map(|s| board.physical(s, state.awl(s)));
    let shared = p[0] == p[1];
    for side in Side::BOTH {
        let spot = layout.spots[usize::from(p[side.index()])];
        let tangent = Xy::new(-spot.out.y, spot.out.x);
        let at = if shared {
            let shift = if side == Side::A { 15.0 } else { -15.0 };
            spot.at.along(tangent, shift)
        } else {
            spot.at
        };
        let own = state.awl(side);
        let (a, b) = match side {
            Side::A => (own, board.mirror(own)),
            Side::B => (board.mirror(own), own),
        };
        group = group.add(
            awl_mark(side, 1.0)
                .set("class", format!("awl awl-{}", letter(side).to_lowercase()))
                .set("data-side", letter(side).to_lowercase())
                .set("data-a", a)
                .set("data-b", b)
                .set("transform", format!("translate({} {})", r(at.x), r(at.y))),
        );
    }
    group
}

/// One line of text in the panel or on the stone.
struct Line {
    text: String,
    size: f64,
    bold: bool,
    fill: &'static str,
}

impl Line {
    fn new(text: impl Into<String>, size: f64, bold: bool, fill: &'static str) -> Self {
        Self {
            text: text.into(),
            size,
            bold,
            fill,
        }
    }
}

/// `text` in one line at `size` when it fits `max`, else in two lines at
/// `smaller`, broken at the space nearest its middle (a text without a
/// space stays one line, squeezed).
fn wrapped(text: &str, size: f64, smaller: f64, max: f64) -> Vec<(String, f64)> {
    if estimated_width(text, size, true) <= max {
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

/// The flat stone at the centre, with `lines` centred on it.
fn stone(lines: &[Line]) -> Group {
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
fn sticks(side: Side, n: u8, y: f64) -> Group {
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
fn side_block(side: Side, name: &str, top: f64, lines: &[Line], counters: Option<u8>) -> Group {
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
fn swatch(kind: GapKind, y: f64) -> Group {
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
fn panel(board: Board) -> Group {
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
            &format!("the {}", words.shape),
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
                    "Ringed space: a bank",
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
fn ringed<N: svg::Node>(mut node: N) -> N {
    node.assign("fill", colour::SPACE);
    node.assign("stroke", colour::CREEK);
    node.assign("stroke-width", 4.5);
    node
}

/// The lines of a side's block that say which numbers are its own and
/// which way it goes.
fn course_lines(side: Side) -> [Line; 2] {
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
fn block_top(side: Side) -> f64 {
    match side {
        Side::A => 100.0,
        Side::B => 385.0,
    }
}

/// The picture's frame: root element, title, desc, ground, track, features,
/// spaces, direction arrows and the panel.
fn frame(board: Board, title: &str, desc: &str) -> (Document, Layout) {
    let layout = Layout::of(board);
    let mut features = Group::new().set("id", "features");
    for gap in &layout.gaps {
        features = features.add(feature(board, gap));
    }
    let doc = Document::new()
        .set("width", WIDTH)
        .set("height", HEIGHT)
        .set("viewBox", format!("0 0 {WIDTH} {HEIGHT}"))
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
        .add(spaces(board, &layout))
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
    let board = table.options().board;
    let title = describe::game_title(table, state, names);
    let desc = describe::game_desc(table, state, names);
    let (mut doc, layout) = frame(board, &title, &desc);
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
    if estimated_width(&whole, 30.0, true) <= STONE_TEXT {
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
                    format!("{} loses its next throw", names.sides[s.index()]),
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

/// The empty board with both sides' numberings, for a ruleset's lesson.
#[must_use]
pub fn empty_svg(board: Board) -> String {
    let title = describe::empty_title(board);
    let desc = describe::empty_desc(board);
    let (mut doc, _) = frame(board, &title, &desc);
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
