//! Where everything goes: the centre of every space, its outward direction,
//! and the four gaps where the creeks and dry branches cross the track.
//!
//! Physical index `p` (`0..L`) counts in A's direction from A's start
//! ([`Board::physical`]); on screen, north is up and A moves
//! counter-clockwise (east, then north), as docs/rules.md (section 2) places it.

use crate::rules::Board;

/// A point or a direction on the canvas (x to the right, y down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Xy {
    pub x: f64,
    pub y: f64,
}

impl Xy {
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// `self + d × dir`.
    pub fn along(self, dir: Xy, d: f64) -> Self {
        Self::new(self.x + dir.x * d, self.y + dir.y * d)
    }

    /// The unit vector in this direction.
    pub fn unit(self) -> Self {
        let len = self.x.hypot(self.y);
        Self::new(self.x / len, self.y / len)
    }
}

/// Width and height of the whole picture, in SVG user units (and in PNG
/// pixels at scale 1).
pub const WIDTH: u32 = 1440;
/// See [`WIDTH`].
pub const HEIGHT: u32 = 900;

/// Centre of the board (the left part of the picture; the right part is
/// the panel).
pub(super) const CENTRE: Xy = Xy::new(505.0, 450.0);

/// Radius of the circle of spaces.
pub(super) const CIRCLE_RADIUS: f64 = 320.0;
/// Radius of one space on the circle.
pub(super) const SPACE_RADIUS: f64 = 15.0;
/// Degrees of arc left open at each compass point for a creek or a dry
/// branch (the spaces of a quarter are evenly spread over the rest).
const GAP_DEGREES: f64 = 16.0;

/// Distance between the centres of neighbouring cells on the square.
const PITCH: f64 = 84.0;
/// Extra room in the middle of each edge of the square, for its feature.
const MIDDLE: f64 = 44.0;
/// Side of one cell on the square.
pub(super) const CELL: f64 = 58.0;

/// What crosses the track at a gap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GapKind {
    /// A creek (a torrent on the square): water.
    Creek,
    /// A dry branch (a dry gully on the square): a dry bed.
    Dry,
}

/// A gap between two neighbouring spaces where a feature crosses the track.
#[derive(Clone, Copy, Debug)]
pub(super) struct Gap {
    /// Creek or dry branch.
    pub kind: GapKind,
    /// `north`, `south`, `east` or `west`.
    pub compass: &'static str,
    /// Midway between the two banks.
    pub at: Xy,
    /// Outward, across the track.
    pub out: Xy,
    /// Along the track, in A's direction.
    pub along: Xy,
    /// The physical indices of the two banks, in A's direction.
    pub banks: [u8; 2],
}

/// One space on the canvas.
#[derive(Clone, Copy, Debug)]
pub(super) struct Spot {
    /// Its centre.
    pub at: Xy,
    /// Outward from the board (A's numbers go this way, B's the other).
    pub out: Xy,
}

/// The whole board's geometry.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    /// The spaces by physical index.
    pub spots: Vec<Spot>,
    /// South, east, north, west: the order A meets them from its start
    /// (the south creek lies behind it).
    pub gaps: [Gap; 4],
}

impl Layout {
    /// The geometry of `board`.
    pub fn of(board: Board) -> Self {
        let spots: Vec<Spot> = (0..board.len())
            .map(|p| match board {
                Board::Circle40 => circle_spot(p),
                Board::Square28 => square_spot(p),
            })
            .collect();
        let len = board.len();
        // Physical indices of the banks: own A-space k is p = k - 1.
        let [east, _] = board.first_dry_branch();
        let north = board.north_near_bank();
        let [west, _] = board.second_dry_branch();
        let gap = |kind, compass, before: u8| {
            let after = (before + 1) % len;
            let (a, b) = (spots[usize::from(before)], spots[usize::from(after)]);
            let at = Xy::new((a.at.x + b.at.x) / 2.0, (a.at.y + b.at.y) / 2.0);
            let out = Xy::new(a.out.x + b.out.x, a.out.y + b.out.y).unit();
            let along = Xy::new(b.at.x - a.at.x, b.at.y - a.at.y).unit();
            Gap {
                kind,
                compass,
                at,
                out,
                along,
                banks: [before, after],
            }
        };
        let gaps = [
            gap(GapKind::Creek, "south", len - 1),
            gap(GapKind::Dry, "east", east - 1),
            gap(GapKind::Creek, "north", north - 1),
            gap(GapKind::Dry, "west", west - 1),
        ];
        Self { spots, gaps }
    }
}

/// Angle of space `p` on the circle, in radians from south, counter-clockwise
/// on screen: ten spaces a quarter, an open gap at each compass point.
fn circle_angle(p: u8) -> f64 {
    let quarter = f64::from(p / 10);
    let k = f64::from(p % 10);
    let step = (90.0 - GAP_DEGREES) / 9.0;
    (quarter * 90.0 + GAP_DEGREES / 2.0 + k * step).to_radians()
}

fn circle_spot(p: u8) -> Spot {
    let phi = circle_angle(p);
    let out = Xy::new(phi.sin(), phi.cos());
    Spot {
        at: CENTRE.along(out, CIRCLE_RADIUS),
        out,
    }
}

/// Column and row (0..8, from the top left) of cell `p` on the square:
/// A's start is the fifth cell of the bottom row; A goes right, up the east
/// edge, left along the top and down the west edge (corners at A's 4, 11, 18
/// and 25, docs/rules.md section 2).
const fn square_cell(p: u8) -> (u8, u8) {
    match p {
        0..=3 => (4 + p, 7),
        4..=10 => (7, 7 - (p - 3)),
        11..=17 => (7 - (p - 10), 0),
        18..=24 => (0, p - 17),
        _ => (p - 24, 7),
    }
}

/// Offset from the centre of column or row `i` of the square: even pitch,
/// with extra room between the fourth and fifth for the edge's feature.
fn square_line(i: u8) -> f64 {
    let span = 7.0 * PITCH + MIDDLE;
    let first = -span / 2.0;
    first + f64::from(i) * PITCH + if i >= 4 { MIDDLE } else { 0.0 }
}

fn square_spot(p: u8) -> Spot {
    let (col, row) = square_cell(p);
    let at = Xy::new(CENTRE.x + square_line(col), CENTRE.y + square_line(row));
    let dx = match col {
        0 => -1.0,
        7 => 1.0,
        _ => 0.0,
    };
    let dy = match row {
        0 => -1.0,
        7 => 1.0,
        _ => 0.0,
    };
    Spot {
        at,
        out: Xy::new(dx, dy).unit(),
    }
}
