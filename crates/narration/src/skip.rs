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
use super::template::{BoardVars, choose, score_words};
use super::vocabulary::{Audience, Cast, Narration, Segment};
use crate::rules::{Event, Options, OwnSpace, Side};

/// The fewest moves worth telling in short: a shorter stretch is told
/// throw by throw.
pub const SKIP_MIN: usize = 10;

/// What the moves told in short did, counted from their events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skipped {
    /// How many moves (throws or spins).
    pub throws: usize,
    /// Awls that fell into a creek.
    pub falls: usize,
    /// Awls whipped back to their start.
    pub whips: usize,
    /// Trips around completed.
    pub trips: usize,
}

impl Skipped {
    /// The counts of the moves whose events are `moves`, in order.
    pub fn of<'e>(moves: impl IntoIterator<Item = &'e [Event]>) -> Self {
        let mut out = Self::default();
        for events in moves {
            out.throws += 1;
            for e in events {
                match e {
                    Event::FellIntoCreek { .. } => out.falls += 1,
                    Event::Whipped { .. } => out.whips += 1,
                    Event::CompletedCircuit { .. } => out.trips += 1,
                    _ => {}
                }
            }
        }
        out
    }
}

/// The phrasing of `key` for `audience` at move `n`.
fn template(key: &str, audience: Audience, n: u32) -> &'static str {
    catalogue()
        .templates
        .events
        .get(key)
        .map_or("", |p| choose(p.for_audience(audience), n, key, 0))
}

/// A count as the skip says it, tally-like: "none" for none (the scholars
/// read "0").
fn count(n: usize, audience: Audience) -> String {
    match (n, audience) {
        (0, Audience::Scholar) => "0".to_owned(),
        (0, _) => "none".to_owned(),
        (n, _) => n.to_string(),
    }
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
    // class had heard of any of them).
    let quiet = skipped.falls + skipped.whips + skipped.trips == 0;
    segments.push(segment(
        words.fill(
            template(
                if quiet { "skip_quiet" } else { "skip_counts" },
                audience,
                n,
            ),
            &[
                ("falls", &count(skipped.falls, audience)),
                ("whips", &count(skipped.whips, audience)),
                ("trips", &count(skipped.trips, audience)),
            ],
        ),
        RuleId::Move,
    ));
    let sides = [cast.side(Side::A), cast.side(Side::B)];
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
    Narration {
        audience,
        segments,
        rules_stated: BTreeMap::new(),
    }
}
