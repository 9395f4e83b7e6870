//! The chart's marks: the turning point, the rare throws, and the key that
//! explains them and the two lines.

use svg::node::element::{Element, Group, Path, Rectangle};

use super::{BOTTOM, ChanceChart, LEFT, RIGHT, TOP, ink, line, marker, x_of, y_of};
use crate::draw::{Anchor, label, r};
use crate::fonts::wrapped;
use crate::palette as colour;
use crate::rules::Side;

/// The turning point: a band at its move, rings on both points, and a
/// label above the plot.
pub(super) fn turning_mark(chart: &ChanceChart<'_>, k: usize) -> Option<Group> {
    let m = chart.moves.get(k)?;
    let n = chart.moves.len();
    let x = x_of(k + 1, n);
    let x0 = x_of(k, n);
    // From the thrower's side, as the recap and the description tell it.
    let i = m.side.index();
    let mut g = Group::new()
        .set("class", "turning-point")
        .set("data-move", k + 1)
        .add(
            Rectangle::new()
                .set("x", r(x0.min(x - 6.0)))
                .set("y", TOP)
                .set("width", r((x - x0).max(12.0)))
                .set("height", BOTTOM - TOP)
                .set("fill", colour::STONE)
                .set("fill-opacity", 0.7),
        )
        .add(line((x, TOP - 8.0), (x, BOTTOM), colour::INK, 2.5).set("stroke-dasharray", "4 5"));
    for p in m.chances.after {
        g = g.add(
            svg::node::element::Circle::new()
                .set("cx", r(x))
                .set("cy", r(y_of(p)))
                .set("r", 17)
                .set("fill", "none")
                .set("stroke", colour::INK)
                .set("stroke-width", 3),
        );
    }
    let head = format!("Turning point: move {}", k + 1);
    // The thrower's side's chance; its name is not said again, so that
    // long names leave the line readable (a teacher's trial: squeezed to
    // 6 px).
    let body = format!(
        "{} {} {}: {} \u{2192} {}",
        m.player,
        chart.threw(),
        m.value,
        chart.chance_label(m.chances.before[i]),
        chart.chance_label(m.chances.after[i])
    );
    let width = 520.0;
    let cx = x.clamp(LEFT + width / 2.0, RIGHT - width / 2.0);
    Some(
        g.add(label(
            &head,
            crate::layout::Xy {
                x: cx,
                y: TOP - 62.0,
            },
            28.0,
            true,
            colour::INK,
            Anchor::Middle,
            Some(width),
        ))
        .add(label(
            &body,
            crate::layout::Xy {
                x: cx,
                y: TOP - 28.0,
            },
            24.0,
            false,
            colour::INK,
            Anchor::Middle,
            Some(width),
        )),
    )
}

/// A rare throw: a ring-and-triangle on the mover's point, labelled with
/// the value thrown and how rare it is.
pub(super) fn rare_mark(chart: &ChanceChart<'_>, k: usize) -> Option<Element> {
    let m = chart.moves.get(k)?;
    let n = chart.moves.len();
    let x = x_of(k + 1, n);
    let y = y_of(m.chances.after[m.side.index()]);
    // Above the point, or below it near the top.
    let up = y > TOP + 70.0;
    let (tip, base) = if up {
        (y - 14.0, y - 38.0)
    } else {
        (y + 14.0, y + 38.0)
    };
    let triangle = format!(
        "M{} {} L{} {} L{} {} Z",
        r(x),
        r(tip),
        r(x - 12.0),
        r(base),
        r(x + 12.0),
        r(base)
    );
    let text_y = if up { base - 18.0 } else { base + 18.0 };
    let p = m.probability;
    Some(
        Group::new()
            .set("class", "rare-throw")
            .set("data-move", k + 1)
            .set(
                "data-probability",
                format!("{}/{}", p.numerator, p.denominator),
            )
            .add(
                Path::new()
                    .set("d", triangle)
                    .set("fill", colour::PANEL)
                    .set("stroke", colour::INK)
                    .set("stroke-width", 3),
            )
            .add(label(
                &format!("{} ({} in {})", m.value, p.numerator, p.denominator),
                crate::layout::Xy { x, y: text_y },
                20.0,
                true,
                colour::INK,
                Anchor::Middle,
                None,
            ))
            .into(),
    )
}

/// The room for a side's name in the key.
const KEY_NAME_WIDTH: f64 = 230.0;

/// The key under the axis: each line, the turning point, rare throws.
pub(super) fn key(chart: &ChanceChart<'_>) -> Group {
    let y = 762.0;
    let mut g = Group::new().set("class", "key");
    let mut x = LEFT;
    for side in Side::BOTH {
        let mut stroke = line((x, y), (x + 56.0, y), ink(side), 5.0);
        if side == Side::B {
            stroke = stroke.set("stroke-dasharray", "16 9");
        }
        let name = chart.sides[side.index()];
        g = g.add(stroke).add(marker(side, x + 28.0, y, 9.0));
        // A long name takes two lines rather than being squeezed into one
        // (a teacher's trial: a 40-character name was unreadable).
        let lines = wrapped(name, 24.0, 19.0, KEY_NAME_WIDTH);
        let two = lines.len() > 1;
        for (i, (text, size)) in lines.into_iter().enumerate() {
            let dy = if two { (i as f64 - 0.5) * 22.0 } else { 0.0 };
            g = g.add(label(
                &text,
                crate::layout::Xy {
                    x: x + 68.0,
                    y: y + dy,
                },
                size,
                true,
                ink(side),
                Anchor::Start,
                Some(KEY_NAME_WIDTH),
            ));
        }
        x += 330.0;
    }
    x -= 10.0;
    let band = Rectangle::new()
        .set("x", r(x - 10.0))
        .set("y", r(y - 16.0))
        .set("width", 26)
        .set("height", 32)
        .set("fill", colour::STONE)
        .set("stroke", colour::INK)
        .set("stroke-width", 2)
        .set("stroke-dasharray", "4 5");
    let triangle = Path::new()
        .set(
            "d",
            format!(
                "M{} {} L{} {} L{} {} Z",
                r(x + 260.0),
                r(y + 12.0),
                r(x + 248.0),
                r(y - 12.0),
                r(x + 272.0),
                r(y - 12.0)
            ),
        )
        .set("fill", colour::PANEL)
        .set("stroke", colour::INK)
        .set("stroke-width", 3);
    let at = |dx: f64| crate::layout::Xy { x: x + dx, y };
    g = g.add(band).add(label(
        "Turning point",
        at(28.0),
        22.0,
        false,
        colour::INK,
        Anchor::Start,
        Some(200.0),
    ));
    // Explained only when the chart has one (a teacher's trial: the key
    // named a mark the chart did not show).
    if chart.moves.iter().any(super::ChartMove::is_rare) {
        g = g.add(triangle).add(label(
            "Rare throw (under 1 in 16)",
            at(284.0),
            22.0,
            false,
            colour::INK,
            Anchor::Start,
            Some(1440.0 - x - 300.0),
        ));
    }
    g
}
