//! The chances over a game as a chart: each side's chance of winning at
//! the start (move 0) and after every move, as two lines, with the turning
//! point (the largest swing, [`narration::turning_point`]) and the rare
//! throws (rarer than [`narration::RARE`], 1 in 16) marked and labelled.
//!
//! Pure, like the board: the same chart gives the same bytes, coordinates
//! rounded to a tenth. The lines are told apart without colour as well:
//! A's is solid with diamonds (its awl's shape), B's dashed with squares,
//! and each is named at its end. The root `<svg>` has `role="img"` and
//! `aria-labelledby` naming its `<title>` and `<desc>` (the chart in words,
//! [`words`]). Hooks: `data-chart="chances"` and `data-moves` on the root;
//! one `<g class="point" data-move="n" data-a="p" data-b="q">` per point
//! (`p`, `q` the chances as `f64`, written in full); the turning point
//! `<g class="turning-point" data-move="n">`; each rare throw `<g
//! class="rare-throw" data-move="n" data-probability="k/n">`.

mod marks;
mod words;

use marks::{key, rare_mark, turning_mark};

use svg::Document;
use svg::node::element::{Description, Group, Line, Path, Rectangle, Title};

use crate::draw::{Anchor, FONT, label, r, xml_safe};
use crate::narration::{self, Audience, Chances};
use crate::palette as colour;
use crate::rules::{Odds, Outcome, Side, ThrowTable};

/// The chart's width, in user units (and pixels of its PNG).
pub const CHART_WIDTH: u32 = 1440;
/// The chart's height.
pub const CHART_HEIGHT: u32 = 810;

/// The plot's left edge (the chance axis).
const LEFT: f64 = 170.0;
/// The plot's right edge (room for the lines' names after it).
const RIGHT: f64 = 1190.0;
/// The plot's top edge (room for the turning point's label above it).
const TOP: f64 = 150.0;
/// The plot's bottom edge (the move axis).
const BOTTOM: f64 = 640.0;

/// One move as the chart shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartMove<'a> {
    /// The side that threw.
    pub side: Side,
    /// The player who threw (the side's name for a lone player).
    pub player: &'a str,
    /// Spaces the throw moved.
    pub value: u8,
    /// The probability of the throw's result.
    pub probability: Odds,
    /// Each side's chance of winning before the move and after it.
    pub chances: Chances,
}

impl ChartMove<'_> {
    /// Whether the throw was rarer than [`narration::RARE`].
    #[must_use]
    pub fn is_rare(&self) -> bool {
        odds_value(self.probability) < narration::RARE
    }
}

/// How the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartResult {
    /// Still being played.
    Playing,
    /// Won on the board by this side.
    Won(Side),
    /// Stopped: won on counters by this side, or a draw (`None`).
    Stopped(Option<Side>),
}

impl ChartResult {
    /// How a game with this outcome stands; `stopped` when it was stopped
    /// rather than played to its end.
    #[must_use]
    pub fn of(outcome: Option<Outcome>, stopped: bool) -> Self {
        match outcome {
            None => ChartResult::Playing,
            Some(Outcome::Won { side }) if !stopped => ChartResult::Won(side),
            Some(Outcome::Won { side }) => ChartResult::Stopped(Some(side)),
            Some(Outcome::Draw) => ChartResult::Stopped(None),
        }
    }
}

/// What the chart is drawn from.
#[derive(Clone, Copy, Debug)]
pub struct ChanceChart<'a> {
    /// Side A's name, then side B's.
    pub sides: [&'a str; 2],
    /// Each side's chance of winning at the start.
    pub start: [f64; 2],
    /// The moves, move 1 first.
    pub moves: &'a [ChartMove<'a>],
    /// How the game stands.
    pub result: ChartResult,
    /// Who the description's words are for.
    pub audience: Audience,
    /// What the game is played with: the labels say "threw" or "spun".
    pub throw_table: ThrowTable,
}

impl ChanceChart<'_> {
    /// The index of the turning point's move ([`narration::turning_point`]).
    #[must_use]
    pub fn turning_point(&self) -> Option<usize> {
        let series: Vec<Chances> = self.moves.iter().map(|m| m.chances).collect();
        narration::turning_point(&series)
    }

    /// What a player did with the implement: "threw" the sticks, "spun"
    /// the spinner.
    fn threw(&self) -> &'static str {
        if self.throw_table == ThrowTable::Spinner {
            "spun"
        } else {
            "threw"
        }
    }

    /// A chance as the chart's labels say it: a fraction for the young
    /// ("about 7 in 10", as their narration says it), a percentage for
    /// everyone else.
    fn chance_label(&self, p: f64) -> String {
        match self.audience {
            Audience::Young => narration::chance_words(p, Audience::Young),
            _ => percent(p),
        }
    }

    /// Each side's chance at point `i` (0: the start; `n`: after move `n`).
    fn at(&self, i: usize) -> [f64; 2] {
        match i.checked_sub(1).and_then(|j| self.moves.get(j)) {
            Some(m) => m.chances.after,
            None => self.start,
        }
    }
}

/// A probability as a float.
fn odds_value(p: Odds) -> f64 {
    f64::from(p.numerator) / f64::from(p.denominator)
}

/// A chance as a whole percentage for the chart's labels.
fn percent(p: f64) -> String {
    narration::chance_words(p, Audience::General)
}

/// The x of point `i` of `n` moves.
fn x_of(i: usize, n: usize) -> f64 {
    let span = n.max(1);
    #[allow(clippy::cast_precision_loss)]
    let share = i as f64 / span as f64;
    LEFT + share * (RIGHT - LEFT)
}

/// The y of chance `p`.
fn y_of(p: f64) -> f64 {
    BOTTOM - p.clamp(0.0, 1.0) * (BOTTOM - TOP)
}

/// The step between the move axis's numbered ticks: at most 12 of them.
fn tick_step(n: usize) -> usize {
    [
        1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000,
    ]
    .into_iter()
    .find(|s| n / s <= 12)
    .unwrap_or_else(|| n.div_ceil(12).max(1))
}

/// The colour of `side`.
const fn ink(side: Side) -> &'static str {
    colour::side(side)
}

/// A straight line.
fn line(from: (f64, f64), to: (f64, f64), stroke: &str, width: f64) -> Line {
    Line::new()
        .set("x1", r(from.0))
        .set("y1", r(from.1))
        .set("x2", r(to.0))
        .set("y2", r(to.1))
        .set("stroke", stroke)
        .set("stroke-width", width)
}

/// The marker of `side` at `(x, y)`: A's a diamond, B's a square.
fn marker(side: Side, x: f64, y: f64, size: f64) -> Path {
    let d = match side {
        Side::A => format!(
            "M{} {} L{} {} L{} {} L{} {} Z",
            r(x),
            r(y - size),
            r(x + size),
            r(y),
            r(x),
            r(y + size),
            r(x - size),
            r(y)
        ),
        Side::B => {
            let s = size * 0.8;
            format!(
                "M{} {} H{} V{} H{} Z",
                r(x - s),
                r(y - s),
                r(x + s),
                r(y + s),
                r(x - s)
            )
        }
    };
    Path::new()
        .set("d", d)
        .set("fill", ink(side))
        .set("stroke", colour::PANEL)
        .set("stroke-width", 1.5)
}

/// The chance axis's label at `pct` percent: fractions and the words of a
/// primary probability lesson for the young, percentages for everyone else.
fn axis_label(pct: u32, audience: Audience) -> String {
    match (audience, pct) {
        (Audience::Young, 0) => "no chance".to_owned(),
        (Audience::Young, 25) => "1 in 4".to_owned(),
        (Audience::Young, 50) => "1 in 2".to_owned(),
        (Audience::Young, 75) => "3 in 4".to_owned(),
        (Audience::Young, 100) => "certain".to_owned(),
        _ => format!("{pct}%"),
    }
}

/// The axes, the grid and their labels.
fn axes(n: usize, audience: Audience) -> Group {
    let mut g = Group::new().set("class", "axes");
    for pct in [0_u32, 25, 50, 75, 100] {
        let y = y_of(f64::from(pct) / 100.0);
        let (stroke, width) = if pct == 50 {
            (colour::MUTED, 2.0)
        } else {
            (colour::TRACK, 2.0)
        };
        g = g.add(line((LEFT, y), (RIGHT, y), stroke, width)).add(label(
            &axis_label(pct, audience),
            crate::layout::Xy { x: LEFT - 14.0, y },
            26.0,
            false,
            colour::INK,
            Anchor::End,
            None,
        ));
    }
    let step = tick_step(n);
    let mut i = 0;
    while i <= n {
        let x = x_of(i, n);
        g = g
            .add(line((x, BOTTOM), (x, BOTTOM + 10.0), colour::INK, 2.0))
            .add(label(
                &i.to_string(),
                crate::layout::Xy {
                    x,
                    y: BOTTOM + 30.0,
                },
                26.0,
                false,
                colour::INK,
                Anchor::Middle,
                None,
            ));
        i += step;
    }
    g = g
        .add(line((LEFT, TOP), (LEFT, BOTTOM), colour::INK, 2.5))
        .add(line((LEFT, BOTTOM), (RIGHT, BOTTOM), colour::INK, 2.5))
        .add(label(
            "Move number",
            crate::layout::Xy {
                x: (LEFT + RIGHT) / 2.0,
                y: BOTTOM + 72.0,
            },
            28.0,
            true,
            colour::INK,
            Anchor::Middle,
            None,
        ));
    let mid = r((TOP + BOTTOM) / 2.0);
    let title = crate::draw::inline(
        svg::node::element::Text::new("Chance of winning")
            .set("x", 0)
            .set("y", 0)
            .set("font-size", 28)
            .set("font-weight", "bold")
            .set("fill", colour::INK)
            .set("text-anchor", "middle")
            .set("transform", format!("translate(60 {mid}) rotate(-90)")),
    );
    g.add(title)
}

/// The path through `side`'s chances.
fn side_line(chart: &ChanceChart<'_>, side: Side) -> Path {
    let n = chart.moves.len();
    let mut d = String::new();
    for i in 0..=n {
        let p = chart.at(i)[side.index()];
        d.push_str(if i == 0 { "M" } else { " L" });
        d.push_str(&format!("{} {}", r(x_of(i, n)), r(y_of(p))));
    }
    let mut path = Path::new()
        .set("class", format!("line line-{}", letter(side)))
        .set("d", d)
        .set("fill", "none")
        .set("stroke", ink(side))
        .set("stroke-width", 5)
        .set("stroke-linejoin", "round");
    if side == Side::B {
        path = path.set("stroke-dasharray", "16 9");
    }
    path
}

/// `a` or `b`.
const fn letter(side: Side) -> &'static str {
    match side {
        Side::A => "a",
        Side::B => "b",
    }
}

/// One group per point, with both chances and both markers.
fn points(chart: &ChanceChart<'_>) -> Group {
    let n = chart.moves.len();
    // Markers shrink as the moves crowd the axis.
    let size = match n {
        0..=40 => 9.0,
        41..=120 => 6.0,
        _ => 4.0,
    };
    let mut g = Group::new().set("class", "points");
    for i in 0..=n {
        let p = chart.at(i);
        let x = x_of(i, n);
        let mut point = Group::new()
            .set("class", "point")
            .set("data-move", i)
            .set("data-a", p[0].to_string())
            .set("data-b", p[1].to_string());
        for side in Side::BOTH {
            point = point.add(marker(side, x, y_of(p[side.index()]), size));
        }
        g = g.add(point);
    }
    g
}

/// What a line's end says of `side`: who won, once the game is over (its
/// chance is then 0 or 1, which the young words would call "less than 1 in
/// 10"), else its chance.
fn end_words(chart: &ChanceChart<'_>, side: Side, p: f64) -> String {
    match chart.result {
        ChartResult::Won(w) | ChartResult::Stopped(Some(w)) if w == side => "won".to_owned(),
        ChartResult::Won(_) | ChartResult::Stopped(Some(_)) => "lost".to_owned(),
        ChartResult::Stopped(None) => "a draw".to_owned(),
        ChartResult::Playing => chart.chance_label(p),
    }
}

/// Each line's name and last chance, at its end.
fn end_labels(chart: &ChanceChart<'_>) -> Group {
    let last = chart.at(chart.moves.len());
    let mut ys = [y_of(last[0]), y_of(last[1])];
    // Keep the two names apart when the lines end close together.
    let gap = 64.0;
    if (ys[0] - ys[1]).abs() < gap {
        let mid = f64::midpoint(ys[0], ys[1]).clamp(TOP + gap / 2.0, BOTTOM - gap / 2.0);
        let (hi, lo) = if ys[0] <= ys[1] { (0, 1) } else { (1, 0) };
        ys[hi] = mid - gap / 2.0;
        ys[lo] = mid + gap / 2.0;
    }
    let mut g = Group::new().set("class", "line-names");
    for side in Side::BOTH {
        let i = side.index();
        let at = |dy: f64| crate::layout::Xy {
            x: RIGHT + 22.0,
            y: ys[i] + dy,
        };
        g = g
            .add(label(
                chart.sides[i],
                at(-13.0),
                26.0,
                true,
                ink(side),
                Anchor::Start,
                Some(1440.0 - RIGHT - 34.0),
            ))
            .add(label(
                &format!(
                    "{} ({})",
                    end_words(chart, side, last[i]),
                    if side == Side::A { "solid" } else { "dashed" }
                ),
                at(17.0),
                22.0,
                false,
                colour::INK,
                Anchor::Start,
                // Squeezed, never past the picture's edge (a teacher's
                // trial: "more than 19 in 20 d…").
                Some(1440.0 - RIGHT - 34.0),
            ));
    }
    g
}

/// The chart in words, as its `<desc>` says it: who was more likely to
/// win at the start, the turning point, how many rare throws, the result.
#[must_use]
pub fn chances_description(chart: &ChanceChart<'_>) -> String {
    words::description(chart)
}

/// The chart as SVG. A pure function: the same chart gives the same bytes.
#[must_use]
pub fn chances_svg(chart: &ChanceChart<'_>) -> String {
    let n = chart.moves.len();
    let title = words::title(chart);
    let desc = words::description(chart);
    let mut doc = Document::new()
        .set("width", CHART_WIDTH)
        .set("height", CHART_HEIGHT)
        .set("viewBox", format!("0 0 {CHART_WIDTH} {CHART_HEIGHT}"))
        .set("role", "img")
        .set("aria-labelledby", "chart-title chart-desc")
        .set("font-family", FONT)
        .set("data-chart", "chances")
        .set("data-moves", n)
        .add(Title::new(xml_safe(&title)).set("id", "chart-title"))
        .add(
            Description::new()
                .set("id", "chart-desc")
                .add(svg::node::Text::new(xml_safe(&desc))),
        )
        .add(
            Rectangle::new()
                .set("width", CHART_WIDTH)
                .set("height", CHART_HEIGHT)
                .set("fill", colour::GROUND),
        )
        .add(label(
            &words::heading(chart),
            crate::layout::Xy { x: LEFT, y: 38.0 },
            32.0,
            true,
            colour::INK,
            Anchor::Start,
            Some(RIGHT - LEFT),
        ));
    let turning = chart.turning_point();
    if let Some(mark) = turning.and_then(|k| turning_mark(chart, k)) {
        doc = doc.add(mark);
    }
    doc = doc
        .add(axes(n, chart.audience))
        .add(side_line(chart, Side::B))
        .add(side_line(chart, Side::A))
        .add(points(chart));
    let mut rare = Group::new().set("class", "rare-throws");
    for (k, m) in chart.moves.iter().enumerate() {
        if m.is_rare()
            && let Some(mark) = rare_mark(chart, k)
        {
            rare = rare.add(mark);
        }
    }
    doc.add(rare)
        .add(end_labels(chart))
        .add(key(chart))
        .to_string()
}

#[cfg(test)]
mod tests;
