//! A stretch of a long game told in short, for a game read aloud in a
//! lesson's time: how many throws are passed over, the rules that first
//! act in them, what happened in them (falls, whips, trips around) and
//! where the game stands after them.
//!
//! A composite game runs about 170 throws; read throw by throw to a class
//! it takes 8 to 51 minutes (teachers' trials: "too long", 4/10). Told with
//! its opening, its ending and its first fall, whip and trip around whole
//! and the stretches between in a paragraph each, a whole game with its
//! winner fits a short lesson. Pure: the counts are
//! given.

use std::collections::BTreeMap;

use super::catalogue::catalogue;
use super::rule_id::RuleId;
use super::statement::event_segment;
use super::template::{BoardVars, choose, name_mid_sentence, score_words};
use super::vocabulary::{Audience, Cast, Narration, Segment};
use crate::rules::{EndCheck, Event, Options, OwnSpace, Side};

/// The fewest moves worth telling in short: a shorter stretch is told
/// throw by throw.
pub const SKIP_MIN: usize = 10;

/// What a stretch told in short counts: falls into a creek, whips, trips
/// around.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Counted {
    /// An awl fell into a creek (by the side that fell).
    Fall,
    /// An awl whipped the other (by the side that whipped).
    Whip,
    /// An awl came all the way round (by its side).
    Trip,
}

impl Counted {
    /// All three, in the order a stretch tells them.
    pub const ALL: [Self; 3] = [Self::Fall, Self::Whip, Self::Trip];

    /// What `event` counts as, with the side it counts for.
    #[must_use]
    pub fn of(event: &Event) -> Option<(Self, Side)> {
        match *event {
            Event::FellIntoCreek { side, .. } => Some((Self::Fall, side)),
            Event::Whipped { side, .. } => Some((Self::Whip, side)),
            Event::CompletedCircuit { side, .. } => Some((Self::Trip, side)),
            _ => None,
        }
    }

    /// Whether rule `id` is the one behind what this counts under
    /// `options` (a fall into either creek, a whip with or without a fall,
    /// a trip around), so that a stretch where it acts can state it.
    #[must_use]
    pub fn rule_of(options: &Options, id: RuleId) -> Option<Self> {
        if id == RuleId::north_creek(options.deadly_north_bank) || id == RuleId::SouthCreekFallsIn {
            Some(Self::Fall)
        } else if matches!(id, RuleId::Whip | RuleId::WhipThenFall) {
            Some(Self::Whip)
        } else if id == RuleId::circuit(options.own_last_space) || id == RuleId::CircuitExactLudii {
            Some(Self::Trip)
        } else {
            None
        }
    }

    /// The template of its clause in a stretch's counts.
    fn key(self) -> &'static str {
        match self {
            Self::Fall => "skip_falls",
            Self::Whip => "skip_whips",
            Self::Trip => "skip_trips",
        }
    }
}

/// What the moves told in short did, counted from their events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skipped {
    /// How many moves (throws or spins).
    pub throws: usize,
    /// Falls into a creek, whips, trips around ([`Counted`], in its
    /// order), each by side (A first).
    pub counts: [[usize; 2]; 3],
    /// Which of them the class has heard of by the end of the stretch
    /// (its rule told, or one seen): a count of none is said only of those
    /// (a teacher's trial: "Whips: none." in a game the class had heard
    /// no whip of).
    pub heard: [bool; 3],
    /// The counting sticks (A first) at the high point of a lead inside
    /// the stretch, when it is news beside those before and after it
    /// ([`Skipped::peak_of`]).
    pub peak: Option<[u8; 2]>,
    /// The counting sticks (A first) before the stretch, to say after it
    /// who leads ([`Lead`], beside the high point when there is one).
    pub before: [u8; 2],
}

/// Who leads in counting sticks after a stretch told in short, beside who
/// led before it (a teacher's trial: "Counting sticks now: Side A 3, Side
/// B 5" after each stretch, about 14 numbers to a paragraph, and never a
/// plain "Side B is ahead now").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lead {
    /// A side leads after as before (or as at the high point told).
    Kept(Side),
    /// A side leads that trailed before (or at the high point told).
    Changed(Side),
    /// A side leads as before, the other having led at a high point
    /// between.
    Back(Side),
    /// A side leads where the two were even before.
    Taken(Side),
    /// Even after, one side having led before.
    Evened,
    /// Even before and after.
    StillEven,
}

impl Lead {
    /// Who leads after the stretch, from the counters `before` it, at
    /// its high point (`peak`, when told) and `after` it (A first): beside
    /// the high point when the listeners heard one (a teacher's trial:
    /// "Side A 6, Side B 2" inside, "Side A 3, Side B 5" after is not
    /// "Still ahead: Side B"), and the lead that comes back to a side
    /// said so (the next: "The lead has changed!" to the side that led
    /// before the stretch was heard as false).
    #[must_use]
    pub fn of(before: [u8; 2], peak: Option<[u8; 2]>, after: [u8; 2]) -> Self {
        let leader = |c: [u8; 2]| match c[0].cmp(&c[1]) {
            std::cmp::Ordering::Greater => Some(Side::A),
            std::cmp::Ordering::Less => Some(Side::B),
            std::cmp::Ordering::Equal => None,
        };
        let was = leader(before);
        match (peak.and_then(leader), leader(after)) {
            (_, None) if was.is_none() && peak.is_none() => Self::StillEven,
            (_, None) => Self::Evened,
            (Some(p), Some(a)) if p == a => Self::Kept(a),
            (Some(_), Some(a)) if was == Some(a) => Self::Back(a),
            (Some(_), Some(a)) => Self::Changed(a),
            (None, Some(a)) => match was {
                Some(b) if b == a => Self::Kept(a),
                Some(_) => Self::Changed(a),
                None => Self::Taken(a),
            },
        }
    }

    /// Its template and the side it names.
    fn template(self) -> (&'static str, Option<Side>) {
        match self {
            Self::Kept(side) => ("skip_lead_kept", Some(side)),
            Self::Changed(side) => ("skip_lead_changed", Some(side)),
            Self::Back(side) => ("skip_lead_back", Some(side)),
            Self::Taken(side) => ("skip_lead_taken", Some(side)),
            Self::Evened => ("skip_lead_evened", None),
            Self::StillEven => ("skip_lead_still_even", None),
        }
    }
}

/// How much bigger than before and after a stretch a side's lead in
/// counters (its counters less the other side's) must be inside it for
/// the stretch to tell that high point: two counters passed over
/// (a lead one counter from winning, one).
pub const PEAK_SWING: i16 = 4;

impl Skipped {
    /// The counts of the moves whose events are `moves`, in order (none
    /// heard of yet).
    pub fn of<'e>(moves: impl IntoIterator<Item = &'e [Event]>) -> Self {
        let mut out = Self::default();
        for events in moves {
            out.throws += 1;
            for (what, side) in events.iter().filter_map(Counted::of) {
                out.counts[what as usize][side.index()] += 1;
            }
        }
        out
    }

    /// The counters at the high point of a side's lead inside a stretch,
    /// from those before it (`before`) and after each of its moves
    /// (`after`, in order), when the lead there is bigger by at least
    /// [`PEAK_SWING`] than at either end, or by half that and one counter
    /// from `total` (one from winning); the bigger swing of the two sides,
    /// the first such moment of it (a teacher's trial: a stretch ended
    /// "Side A 6, Side B 2", and inside it Side B had reached 7 to 1, the
    /// game's best moment, unheard).
    #[must_use]
    pub fn peak_of(before: [u8; 2], after: &[[u8; 2]], total: u8) -> Option<[u8; 2]> {
        let end = *after.last()?;
        let lead = |c: [u8; 2], i: usize| i16::from(c[i]) - i16::from(c[1 - i]);
        Side::BOTH
            .iter()
            .filter_map(|side| {
                let i = side.index();
                // The first of the highest.
                let top = after.iter().copied().fold(after[0], |top, c| {
                    if lead(c, i) > lead(top, i) { c } else { top }
                });
                let swing = lead(top, i) - lead(before, i).max(lead(end, i));
                let near = top[i] + 1 == total;
                (lead(top, i) > 0 && (swing >= PEAK_SWING || (near && swing >= PEAK_SWING / 2)))
                    .then_some((swing, top))
            })
            .max_by_key(|&(swing, _)| swing)
            .map(|(_, top)| top)
    }

    /// How many of `what` in all.
    #[must_use]
    pub fn total(&self, what: Counted) -> usize {
        self.counts[what as usize].iter().sum()
    }
}

/// The sentence saying that the lead in counting sticks changed with a
/// move told in full (`n`, the counters `before` and `after` it, A
/// first): a side takes it, or the sides come even; `None` when the lead
/// stays as it was (a teacher's trial: the turn where Side B took the
/// lead, told in full between two stretches, never said so).
#[must_use]
pub fn lead_change_segment(
    options: &Options,
    cast: &Cast,
    audience: Audience,
    n: u32,
    before: [u8; 2],
    after: [u8; 2],
) -> Option<Segment> {
    let lead = Lead::of(before, None, after);
    if matches!(lead, Lead::Kept(_) | Lead::StillEven) {
        return None;
    }
    let (key, side) = lead.template();
    Some(counters_segment(options, cast, audience, n, key, side))
}

/// The segment of template `key` naming `side` (if any) for `audience` at
/// move `n`, under the counting sticks' rule.
fn counters_segment(
    options: &Options,
    cast: &Cast,
    audience: Audience,
    n: u32,
    key: &str,
    side: Option<Side>,
) -> Segment {
    let cat = catalogue();
    let words = BoardVars::new(cat, options, audience);
    let text = words.fill(
        template(key, audience, n),
        &[("side", side.map_or("", |s| cast.side(s)))],
    );
    event_segment(
        cat,
        RuleId::counters(options.end_check),
        options.board,
        text,
    )
}

/// The phrasing of `key` for `audience` at move `n`.
fn template(key: &str, audience: Audience, n: u32) -> &'static str {
    catalogue()
        .templates
        .events
        .get(key)
        .map_or("", |p| choose(p.for_audience(audience), n, key, 0))
}

/// A count as the skip says it, tally-like, by side: "Side A 1, Side B 3"
/// (the sides with none left out), "none" for none (the scholars read
/// "0").
fn count(by_side: [usize; 2], sides: [&str; 2], audience: Audience) -> String {
    let said: Vec<String> = Side::BOTH
        .iter()
        .filter(|s| by_side[s.index()] > 0)
        .enumerate()
        .map(|(k, s)| {
            let name = sides[s.index()];
            let name = if k == 0 {
                name.into()
            } else {
                name_mid_sentence(name)
            };
            format!("{name} {}", by_side[s.index()])
        })
        .collect();
    match (said.is_empty(), audience) {
        (true, Audience::Scholar) => "0".to_owned(),
        (true, _) => "none".to_owned(),
        (false, _) => said.join(", "),
    }
}

/// How many times, as said to the young: "once", "twice", "3 times".
fn times(n: usize) -> String {
    match n {
        1 => "once".to_owned(),
        2 => "twice".to_owned(),
        _ => format!("{n} times"),
    }
}

/// The first letter of `text` upper case.
fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// Tell the moves from move `n` on, `skipped`, in short for `audience`:
/// that they are passed over, the rules that first act in them and explain
/// what is counted (`rules`, their own segments, in order), what happened in them, and the counting
/// sticks (`counters`) and awls (`awls`, A first) after them.
#[must_use]
#[expect(
    clippy::too_many_arguments,
    reason = "a stretch is told from the game's setup, its place, its counts and where it ends"
)]
pub fn narrate_skip(
    options: &Options,
    cast: &Cast,
    audience: Audience,
    n: u32,
    skipped: Skipped,
    rules: Vec<Segment>,
    counters: [u8; 2],
    awls: [OwnSpace; 2],
) -> Narration {
    let cat = catalogue();
    let words = BoardVars::new(cat, options, audience);
    let segment = |text: String, rule: RuleId| event_segment(cat, rule, options.board, text);
    let mut segments = vec![segment(
        words.fill(
            template("skip_ahead", audience, n),
            &[("count", &skipped.throws.to_string())],
        ),
        RuleId::Move,
    )];
    if !rules.is_empty() {
        let one = rules.len() == 1;
        let these = if one { "this rule" } else { "these rules" };
        let upper = if one { "This rule" } else { "These rules" };
        segments.push(segment(
            words.fill(
                template("skip_rules", audience, n),
                &[
                    ("these", these),
                    ("These", upper),
                    ("s", if one { "s" } else { "" }),
                ],
            ),
            RuleId::Move,
        ));
        segments.extend(rules);
    }
    // Nothing to count: the awls only moved (a teacher's trial: "Falls
    // into a creek: none. Whips: none. Trips around: none." before the
    // class had heard of any of them). Else each that happened, by side,
    // and none said only of what the class has heard of.
    // The young hear what each side's awl did, in a sentence a side and
    // kind, of what happened only (teachers' trials: "falls into a creek:
    // Side A 2" is bad for Side A where "whips made: Side A 2" is good;
    // then, told in all, "an awl fell into a creek 4 times" hid why Side
    // A's lead of 7 to 1 was gone); who leads is said after.
    let young = audience == Audience::Young;
    let sides = [cast.side(Side::A), cast.side(Side::B)];
    let clauses: Vec<String> = Counted::ALL
        .iter()
        .filter(|&&what| skipped.total(what) > 0 || (!young && skipped.heard[what as usize]))
        .flat_map(|&what| {
            let by_side = skipped.counts[what as usize];
            let said: Vec<(Option<Side>, String)> = if young {
                Side::BOTH
                    .into_iter()
                    .filter(|s| by_side[s.index()] > 0)
                    .map(|s| (Some(s), times(by_side[s.index()])))
                    .collect()
            } else {
                vec![(None, count(by_side, sides, audience))]
            };
            said.into_iter()
                .map(|(side, n_said)| {
                    words.fill(
                        template(what.key(), audience, n),
                        &[("n", &n_said), ("side", side.map_or("", |s| cast.side(s)))],
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let quiet = Counted::ALL.iter().all(|&what| skipped.total(what) == 0);
    let counts = if audience == Audience::Young {
        // Short sentences, one a kind.
        clauses
            .iter()
            .enumerate()
            .map(|(k, c)| if k == 0 { c.clone() } else { upper_first(c) })
            .collect::<Vec<_>>()
            .join(". ")
    } else {
        clauses.join("; ")
    };
    segments.push(segment(
        words.fill(
            template(
                if quiet { "skip_quiet" } else { "skip_counts" },
                audience,
                n,
            ),
            &[("counts", &counts)],
        ),
        RuleId::Move,
    ));
    // The high point of a lead inside it, when news.
    if let Some(peak) = skipped.peak {
        let side = if peak[0] > peak[1] { Side::A } else { Side::B };
        let near = peak[side.index()] + 1 == options.total_counters()
            && options.end_check == EndCheck::Immediate;
        segments.push(segment(
            words.fill(
                template(
                    if near { "skip_peak_near" } else { "skip_peak" },
                    audience,
                    n,
                ),
                &[
                    ("score", &score_words(sides, peak, audience)),
                    ("side", cast.side(side)),
                ],
            ),
            RuleId::counters(options.end_check),
        ));
    }
    segments.push(segment(
        words.fill(
            template("skip_after", audience, n),
            &[
                ("score", &score_words(sides, counters, audience)),
                ("side_a", sides[0]),
                ("space_a", &awls[0].to_string()),
                ("side_b", sides[1]),
                ("space_b", &awls[1].to_string()),
            ],
        ),
        RuleId::counters(options.end_check),
    ));
    // Who leads now, in plain words, beside the high point just told
    // when there is one.
    let (key, side) = Lead::of(skipped.before, skipped.peak, counters).template();
    segments.push(counters_segment(options, cast, audience, n, key, side));
    segments.extend(near_win_segment(options, cast, audience, n, counters));
    Narration {
        audience,
        segments,
        rules_stated: BTreeMap::new(),
    }
}

/// The sentence saying that a side is one counting stick from winning,
/// with the counters `after` a move or a stretch (A first); `None` when
/// neither is (a teacher's trial: no game said "one more counting stick"
/// at the moment a side needed only one, only of the past).
#[must_use]
pub fn near_win_segment(
    options: &Options,
    cast: &Cast,
    audience: Audience,
    n: u32,
    after: [u8; 2],
) -> Option<Segment> {
    // Not where a side wins only after its own move (a curator's trial:
    // under Ludii's end check a side held every counter and played on).
    if options.end_check != EndCheck::Immediate {
        return None;
    }
    let side = Side::BOTH
        .into_iter()
        .find(|s| after[s.index()] + 1 == options.total_counters())?;
    Some(counters_segment(
        options,
        cast,
        audience,
        n,
        "near_win",
        Some(side),
    ))
}

#[cfg(test)]
mod tests;
