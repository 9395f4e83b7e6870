//! The track: its spaces with both numberings, the creeks and dry branches
//! with their banks, the direction arrows and the awls.

use svg::node::element::{Circle, Element, Group, Path, Rectangle, Text};

use super::{Anchor, capitalised, inline, label, polyline, r};
use crate::describe::{Words, letter};
use crate::layout::{CELL, CENTRE, CIRCLE_RADIUS, Gap, GapKind, Layout, SPACE_RADIUS, Spot, Xy};
use crate::palette as colour;
use crate::rules::{Board, GameState, Side};

/// The classes of a space: `space`, and `bank` with the feature's kind for
/// the two spaces beside each feature.
pub(super) fn space_class(layout: &Layout, p: u8) -> String {
    match layout.gaps.iter().find(|g| g.banks.contains(&p)) {
        Some(g) => match g.kind {
            GapKind::Creek => format!("space bank creek-bank {}-bank", g.compass),
            GapKind::Dry => format!("space bank dry-bank {}-bank", g.compass),
        },
        None => "space".to_owned(),
    }
}

/// The spaces, both numberings on each.
pub(super) fn spaces(board: Board, layout: &Layout, view: super::BoardView) -> Group {
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
    let (size, gap) = match (board, view) {
        (Board::Circle40, super::BoardView::Full) => (17.0, SPACE_RADIUS + 19.0),
        (Board::Square28, super::BoardView::Full) => (18.0, CELL / 2.0 + 17.0),
        (Board::Circle40, super::BoardView::Projector) => (29.0, SPACE_RADIUS + 26.0),
        (Board::Square28, super::BoardView::Projector) => (29.0, CELL / 2.0 + 23.0),
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
pub(super) fn space_attributes<N: svg::Node>(
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
pub(super) fn number(n: u8, at: Xy, size: f64) -> Element {
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
pub(super) fn track(board: Board, layout: &Layout) -> Box<dyn svg::Node> {
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
pub(super) fn feature(board: Board, gap: &Gap) -> Group {
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

/// An arrow outside the track beside a side's start, showing which way it
/// goes, with the side's letter at its head.
pub(super) fn direction(board: Board, layout: &Layout, side: Side) -> Group {
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
pub(super) fn awl_mark(side: Side, scale: f64) -> Group {
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
pub(super) fn awls(board: Board, layout: &Layout, state: &GameState) -> Group {
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
