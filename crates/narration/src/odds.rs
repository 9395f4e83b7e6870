//! Odds moments: the one sentence a lesson tells about a move's effect on
//! the chances of winning, when the move changes them a lot, changes who is
//! more likely to win, or comes from a rare throw.
//!
//! Pure: the chances are given (each side's exact probability of winning
//! before and after the move, which the service looks up in the ruleset's
//! solved Markov chain); nothing here computes them. The sentence cites
//! [`ODDS_SOURCE`], the bibliography's entry for this service's own
//! computation (`docs/odds.md` says how it is made).

use super::catalogue::catalogue;
use super::template::{BoardVars, choose};
use super::vocabulary::{Audience, Citation, Detail, MoveContext, Narration, Segment, SegmentKind};
use crate::rules::{Options, Side};

/// The source every odds sentence cites: this service's own computation of
/// the exact odds from the ruleset, not a historical source.
pub const ODDS_SOURCE: &str = "zohn-ahl-odds";

/// A move that changes a side's chance of winning by at least this much
/// (10 percentage points) is an odds moment.
pub const SWING: f64 = 0.10;

/// The young hear a lesson's odds only for a change this large (14
/// percentage points): about one a game, the big turns (teachers' trials:
/// about six a game, then five, were heavy for 9-year-olds; a game read
/// aloud by the transcript tells at most two).
pub const YOUNG_LESSON_SWING: f64 = 0.14;

/// A throw whose result is rarer than this (1 in 16) is an odds moment.
pub const RARE: f64 = 1.0 / 16.0;

/// Each side's exact probability of winning (A first) just before a move
/// and just after it (1 and 0 once the move has won the game).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chances {
    /// Before the move, A then B.
    pub before: [f64; 2],
    /// After the move, A then B.
    pub after: [f64; 2],
}

/// Why a move is an odds moment, most telling first: a move may be all
/// three, and only one sentence is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OddsMoment {
    /// The side more likely to win is now `side` (it was the other).
    LeadChanged {
        /// The side now more likely to win.
        side: Side,
    },
    /// The chance of `side` rose by at least [`SWING`] (the other's fell
    /// as much).
    Swing {
        /// The side whose chance rose.
        side: Side,
    },
    /// The throw's result is rarer than [`RARE`].
    RareThrow,
}

/// The side more likely to win at `p`, if one is.
fn ahead(p: [f64; 2]) -> Option<Side> {
    if p[0] > p[1] {
        Some(Side::A)
    } else if p[1] > p[0] {
        Some(Side::B)
    } else {
        None
    }
}

/// What kind of odds moment a move with these chances and a throw of this
/// probability is, if any. A move that wins the game is none: the game's
/// result says it all.
#[must_use]
pub fn odds_moment(chances: &Chances, probability: f64) -> Option<OddsMoment> {
    let finished = chances.after.iter().any(|&p| p >= 1.0);
    if finished {
        return None;
    }
    if let (Some(was), Some(now)) = (ahead(chances.before), ahead(chances.after))
        && was != now
    {
        return Some(OddsMoment::LeadChanged { side: now });
    }
    let rise = chances.after[0] - chances.before[0];
    // Exactly 10 points counts, whatever the last bit of the subtraction.
    if rise.abs() >= SWING - 1e-12 {
        let side = if rise > 0.0 { Side::A } else { Side::B };
        return Some(OddsMoment::Swing { side });
    }
    (probability < RARE).then_some(OddsMoment::RareThrow)
}

/// The turning point of a game whose moves had these chances (move 1
/// first): the index of the move that changed the chances most (the
/// largest change in either side's chance of winning; the earliest of
/// equal ones), or `None` for a game without moves.
#[must_use]
pub fn turning_point(series: &[Chances]) -> Option<usize> {
    let swing = |c: &Chances| (c.after[0] - c.before[0]).abs();
    series
        .iter()
        .enumerate()
        .fold(None, |best: Option<(usize, f64)>, (i, c)| match best {
            Some((_, s)) if s >= swing(c) => best,
            _ => Some((i, swing(c))),
        })
        .map(|(i, _)| i)
}

/// A probability for `audience`: for the young a simple fraction ("about 2
/// in 3"), for everyone a whole percentage ("67%"), for scholars the figure
/// to four decimal places ("0.6667").
#[must_use]
pub fn chance_words(p: f64, audience: Audience) -> String {
    match audience {
        Audience::Young => young_fraction(p),
        Audience::General => {
            let pct = (p * 100.0).round();
            if p > 0.0 && pct < 1.0 {
                "under 1%".to_owned()
            } else if p < 1.0 && pct > 99.0 {
                "over 99%".to_owned()
            } else {
                format!("{pct:.0}%")
            }
        }
        Audience::Scholar => format!("{p:.4}"),
    }
}

/// The chance the young hear: the nearest tenth, "about k in 10" (a
/// teacher's trial: "from about 1 in 3 to about 2 in 5" was past 4th-grade
/// fractions; tenths compare at a glance); below 1 in 20 "less than 1 in
/// 10", above 19 in 20 "more than 9 in 10".
fn young_fraction(p: f64) -> String {
    if p < 1.0 / 20.0 {
        return "less than 1 in 10".to_owned();
    }
    if p > 19.0 / 20.0 {
        return "more than 9 in 10".to_owned();
    }
    // Between 1 and 9 tenths: within u8.
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "p is within 0.05..=0.95 here"
    )]
    let tenths = (p * 10.0).round() as u8;
    format!("about {} in 10", tenths.clamp(1, 9))
}

/// The odds moment of a move for `audience`: [`odds_moment`], told only
/// when the audience's words ([`chance_words`]) show it. A change they do
/// not show (a lead that passes from 50.4% to 49.8% reads "about 5 in 10"
/// to the young and "50%" to everyone both times) is none; a new lead they
/// do not show (44% to 50%) is told as the swing it is, if it is one.
#[must_use]
pub fn odds_moment_for(
    chances: &Chances,
    probability: f64,
    audience: Audience,
) -> Option<OddsMoment> {
    let moment = odds_moment(chances, probability)?;
    let words = |p: f64| chance_words(p, audience);
    let shows = |side: Side| {
        let i = side.index();
        words(chances.before[i]) != words(chances.after[i])
    };
    match moment {
        OddsMoment::LeadChanged { side }
            if shows(side) && words(chances.after[side.index()]) != words(0.5) =>
        {
            Some(moment)
        }
        OddsMoment::LeadChanged { .. } => {
            let rise = chances.after[0] - chances.before[0];
            let side = if rise > 0.0 { Side::A } else { Side::B };
            if rise.abs() >= SWING - 1e-12 && shows(side) {
                Some(OddsMoment::Swing { side })
            } else {
                (probability < RARE).then_some(OddsMoment::RareThrow)
            }
        }
        OddsMoment::Swing { side } if shows(side) => Some(moment),
        OddsMoment::Swing { .. } => (probability < RARE).then_some(OddsMoment::RareThrow),
        OddsMoment::RareThrow => Some(moment),
    }
}

/// What a chance to win counts, for `audience`: said once a game read
/// aloud, after its first chance (a teacher's trial: "Side A, a 1 ...
/// Chance for Side B to win: from about 5 in 10 to about 7 in 10", and a
/// class asks why a 1 changed that). Cited to [`ODDS_SOURCE`].
#[must_use]
pub fn chance_meaning(options: &Options, audience: Audience) -> String {
    let cat = catalogue();
    cat.templates
        .recap
        .get("chance_meaning")
        .map_or_else(String::new, |t| {
            BoardVars::new(cat, options, audience).fill(t.get(audience), &[])
        })
}

/// The odds sentence of move `ctx` with these chances, at the `lesson` and
/// `full` detail levels, when the move is an odds moment for its audience
/// ([`odds_moment_for`]); cited to [`ODDS_SOURCE`]. `None` at `brief`, or
/// when the move is none.
#[must_use]
pub fn odds_segment(ctx: &MoveContext<'_>, chances: &Chances) -> Option<Segment> {
    if ctx.detail == Detail::Brief {
        return None;
    }
    let moment = odds_moment_for(chances, ctx.score.probability.as_f64(), ctx.audience)?;
    let cat = catalogue();
    let (key, side) = match moment {
        OddsMoment::LeadChanged { side } => ("odds_lead", side),
        OddsMoment::Swing { side } => ("odds_swing", side),
        OddsMoment::RareThrow => ("odds_rare", ctx.seat.side),
    };
    let phrasings = cat.templates.events.get(key)?;
    let template = choose(
        phrasings.for_audience(ctx.audience),
        ctx.move_number,
        key,
        0,
    );
    let i = side.index();
    let (before, after) = (
        chance_words(chances.before[i], ctx.audience),
        chance_words(chances.after[i], ctx.audience),
    );
    let probability = ctx.score.probability;
    let rarity = match ctx.audience {
        Audience::Scholar => format!("{}/{}", probability.numerator, probability.denominator),
        _ => format!("{} in {}", probability.numerator, probability.denominator),
    };
    let words = BoardVars::new(cat, ctx.options, ctx.audience);
    let text = words.fill(
        template,
        &[
            ("side", ctx.cast.side(side)),
            ("opponent", ctx.cast.side(side.other())),
            ("before", &before),
            ("after", &after),
            ("rarity", &rarity),
        ],
    );
    Some(Segment {
        kind: SegmentKind::Odds,
        text,
        citations: vec![Citation {
            source: ODDS_SOURCE.to_owned(),
            locator: None,
        }],
        rule: None,
        fact: None,
        brief: false,
    })
}

/// Add the odds sentence of move `ctx` ([`odds_segment`]) to its
/// `narration`, last; at the `lesson` detail only on a move whose lesson
/// teaches nothing else (no rule stated, no context fact, not the framing),
/// so that a lesson move carries one teaching point and the odds stay rare,
/// and for the young only when the side more likely to win changes (a
/// teacher's trial: about 6 chances a game, most of them a lead growing,
/// were too many for a class). Whether it was added.
pub fn add_odds(narration: &mut Narration, ctx: &MoveContext<'_>, chances: &Chances) -> bool {
    if ctx.detail == Detail::Lesson
        && narration
            .segments
            .iter()
            .any(|s| s.kind != SegmentKind::Event)
    {
        return false;
    }
    if ctx.detail == Detail::Lesson
        && ctx.audience == Audience::Young
        && !matches!(
            odds_moment_for(chances, ctx.score.probability.as_f64(), ctx.audience),
            Some(OddsMoment::LeadChanged { .. } | OddsMoment::Swing { .. })
                if (chances.after[0] - chances.before[0]).abs() >= YOUNG_LESSON_SWING - 1e-12
        )
    {
        return false;
    }
    match odds_segment(ctx, chances) {
        Some(segment) => {
            narration.segments.push(segment);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn chances(before: f64, after: f64) -> Chances {
        Chances {
            before: [before, 1.0 - before],
            after: [after, 1.0 - after],
        }
    }

    #[test]
    fn a_move_is_an_odds_moment_for_a_lead_change_a_swing_or_a_rare_throw() {
        let common = 3.0 / 16.0;
        assert_eq!(odds_moment(&chances(0.50, 0.55), common), None);
        assert_eq!(
            odds_moment(&chances(0.52, 0.47), common),
            Some(OddsMoment::LeadChanged { side: Side::B })
        );
        assert_eq!(
            odds_moment(&chances(0.60, 0.71), common),
            Some(OddsMoment::Swing { side: Side::A })
        );
        assert_eq!(
            odds_moment(&chances(0.30, 0.20), common),
            Some(OddsMoment::Swing { side: Side::B })
        );
        // 1 in 16 is not rarer than 1 in 16; 1 in 32 is.
        assert_eq!(odds_moment(&chances(0.5, 0.52), 1.0 / 16.0), None);
        assert_eq!(
            odds_moment(&chances(0.5, 0.52), 1.0 / 32.0),
            Some(OddsMoment::RareThrow)
        );
        // The winning move is told by its result.
        let won = Chances {
            before: [0.4, 0.6],
            after: [1.0, 0.0],
        };
        assert_eq!(odds_moment(&won, 1.0 / 32.0), None);
    }

    #[test]
    fn a_change_the_audiences_words_do_not_show_is_not_told_to_it() {
        let common = 3.0 / 16.0;
        // 50.4% to 49.8%: "about 5 in 10" and "50%" both times.
        let flat = chances(0.504, 0.498);
        assert_eq!(odds_moment_for(&flat, common, Audience::Young), None);
        assert_eq!(odds_moment_for(&flat, common, Audience::General), None);
        assert_eq!(
            odds_moment_for(&flat, common, Audience::Scholar),
            Some(OddsMoment::LeadChanged { side: Side::B })
        );
        // B from 44% to 50.4%: a new lead that shows as 50% is no lead for
        // everyone; B's 6 points are no swing either.
        let even = chances(0.56, 0.496);
        assert_eq!(odds_moment_for(&even, common, Audience::General), None);
        // B from 40% to 50.4%: told as the swing it is.
        let swing = chances(0.60, 0.496);
        assert_eq!(
            odds_moment_for(&swing, common, Audience::General),
            Some(OddsMoment::Swing { side: Side::B })
        );
    }

    #[test]
    fn the_turning_point_is_the_largest_swing_and_the_earliest_of_equals() {
        assert_eq!(turning_point(&[]), None);
        let series = [
            chances(0.50, 0.55),
            chances(0.55, 0.30),
            chances(0.30, 0.50),
            chances(0.50, 0.25),
        ];
        // -0.25 at index 1 and -0.25 at index 3: the earlier.
        assert_eq!(turning_point(&series), Some(1));
        assert_eq!(turning_point(&series[2..]), Some(1));
    }

    #[test]
    fn chances_are_worded_for_each_audience() {
        assert_eq!(chance_words(0.4976, Audience::Young), "about 5 in 10");
        assert_eq!(chance_words(0.68, Audience::Young), "about 7 in 10");
        assert_eq!(chance_words(0.33, Audience::Young), "about 3 in 10");
        assert_eq!(chance_words(0.06, Audience::Young), "about 1 in 10");
        assert_eq!(chance_words(0.01, Audience::Young), "less than 1 in 10");
        assert_eq!(chance_words(0.99, Audience::Young), "more than 9 in 10");
        assert_eq!(chance_words(0.4976, Audience::General), "50%");
        assert_eq!(chance_words(0.004, Audience::General), "under 1%");
        assert_eq!(chance_words(0.996, Audience::General), "over 99%");
        assert_eq!(chance_words(0.49761, Audience::Scholar), "0.4976");
    }
}
