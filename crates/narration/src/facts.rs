//! Choosing a move's cultural-context fact: the topics a move touches, and
//! the catalogue's facts, each told at most once a game, at a moment it
//! fits.

use super::catalogue::{Catalogue, Fact};
use super::stretch::{CLOSE, awls_apart};
use super::vocabulary::{Audience, MoveContext};
use crate::rules::{Creek, Event, Options, Side, Throw, ThrowTable};

/// Topics relevant to this move, most specific first.
fn topics(ctx: &MoveContext<'_>) -> Vec<&'static str> {
    let mut topics = Vec::new();
    if ctx.events.iter().any(|e| matches!(e, Event::Won { .. })) {
        topics.extend(["women", "history"]);
    }
    // A whip and a fall in one move: both awls went home at once.
    let whipped = ctx
        .events
        .iter()
        .any(|e| matches!(e, Event::Whipped { .. }));
    let fell = ctx
        .events
        .iter()
        .any(|e| matches!(e, Event::FellIntoCreek { .. }));
    if whipped && fell {
        topics.push("whip_and_fall");
    }
    for event in ctx.events {
        match event {
            // The creek's own topic first (a teacher's trial: a south
            // creek fall brought a fact on the north creek's fall).
            Event::FellIntoCreek {
                creek: Creek::South,
                ..
            } => topics.extend(["south_creek", "creek"]),
            Event::FellIntoCreek { .. } | Event::PassedNorthCreek { .. } => {
                topics.extend(["north_creek", "creek"]);
            }
            Event::Whipped { .. } => topics.extend(["whip", "awl"]),
            Event::CompletedCircuit { .. } => topics.extend(["circuit", "counters"]),
            Event::LandedOnDryBranch { .. }
            | Event::LostThrow { .. }
            | Event::CrossedDryBranch { .. } => topics.push("dry_branch"),
            _ => {}
        }
    }
    match ctx.throw {
        Throw::Sticks(s) => {
            if ctx.score.value >= 5 {
                topics.extend(["stone", "sticks"]);
            }
            if s.sahe_flat()
                && ctx.score.throws_again
                && ctx.options.throw_table == ThrowTable::SticksSahe
            {
                topics.push("sahe");
            }
        }
        Throw::Spinner(_) => {
            if ctx.score.value >= 6 {
                topics.extend(["modern", "sticks"]);
            }
        }
    }
    topics
}

/// Whether a game played with `options` may tell the fact: it fits the
/// options and may be told to every audience. A move's plan, and so its
/// fact, is the same whatever the audience (a stored move narrated again for
/// another audience tells the same fact), so a fact that one audience may
/// not hear (one resting on modern retellings alone, which the young and
/// general audiences never hear) is not told in games; it stays readable in
/// the catalogue with its grade.
pub fn in_games(fact: &Fact, options: &Options) -> bool {
    fact.fits(options) && Audience::ALL.iter().all(|&a| fact.told_to(a))
}

/// Topics that belong to moments of play: a fact tagged with one of them
/// waits for such a moment; a fact with a tag outside them may also be told
/// on a quiet move.
const MOMENT_TOPICS: &[&str] = &[
    "whip_and_fall",
    "north_creek",
    "south_creek",
    "creek",
    "whip",
    "circuit",
    "counters",
    "dry_branch",
    "sahe",
    "stone",
    "sticks",
    "awl",
];

/// How many more facts about the Kiowa than others a game tells before the
/// others take their turns: a game's first three facts are about the Kiowa
/// (who played, then those the moments bring: on a quiet move the language
/// taught today and the awl as a woman's tool, on a creek fall the name).
pub const KIOWA_LEAD: usize = 3;

/// A quiet move (no notable event) tells a fact only when its number is a
/// multiple of this.
pub const QUIET_FACT_EVERY: u32 = 7;

/// A game tells at most one fact for every this many moves, counted from
/// its start (one may come before the first such stretch ends): a long game
/// spreads its facts out rather than telling one at every moment that fits.
pub const MOVES_PER_FACT: u32 = 18;

/// Add the fact a narration told to a game's list of facts told
/// (`told`, oldest first, as [`MoveContext::told`] reads it). A game tells
/// each fact at most once, so the list never holds more than the
/// catalogue's facts.
pub fn remember_fact(told: &mut Vec<String>, fact: &str) {
    if !told.iter().any(|t| t == fact) {
        told.push(fact.to_owned());
    }
}

/// A fact this game has not told, chosen for the moment (among the facts
/// about the Kiowa, tagged `kiowa`, until they outnumber the others told
/// by [`KIOWA_LEAD`], while any is left): on a move with a notable event, the first
/// untold fact tagged with the move's most
/// specific topic; on a quiet move whose number is a multiple of
/// [`QUIET_FACT_EVERY`], the first untold fact that does not belong only
/// to moments of play. On the first move, the fact tagged `intro` (who
/// played the game); none on a move after one that told a fact, on a move that states a
/// rule in full (one new thing at a time), on a quiet move while the awls
/// face each other within [`CLOSE`] spaces, once the game has told one fact
/// for every [`MOVES_PER_FACT`] moves so far (and one more), nor one that
/// retells a rule this move states.
pub(super) fn choose_fact<'c>(
    cat: &'c Catalogue,
    ctx: &MoveContext<'_>,
    rules: &[(String, bool)],
) -> Option<&'c Fact> {
    let n = ctx.move_number;
    // The first move, which says what game is played, tells who played
    // it (the fact tagged `intro`), right after the framing.
    if n == 1 {
        return cat
            .facts
            .iter()
            .find(|f| f.tags.iter().any(|t| t == "intro") && in_games(f, ctx.options));
    }
    let budget = usize::try_from(n / MOVES_PER_FACT + 1).unwrap_or(usize::MAX);
    if ctx.told.len() >= budget
        || (!ctx.events.iter().any(notable) && awls_close(ctx))
        || rules.iter().any(|(_, brief)| !brief)
        || ctx.previous.is_some_and(|p| p.fact().is_some())
    {
        return None;
    }
    let topics = topics(ctx);
    let untold = |f: &&Fact| {
        in_games(f, ctx.options)
            && !ctx.told.contains(&f.id)
            && !f
                .rule
                .as_ref()
                .is_some_and(|r| rules.iter().any(|(id, _)| id == r))
    };
    // Facts about the Kiowa and their things come first, and then at
    // least every other one, while any is left: the others wait for one (a
    // teacher's trial: a lesson stopped after ten minutes heard facts about
    // who wrote what, and the awl as a Kiowa woman's tool came past the
    // stop; another's: the Kiowa language taught today came past it).
    let told_kiowa = ctx
        .told
        .iter()
        .filter(|id| cat.facts.iter().any(|f| f.id == **id && is_kiowa(f)))
        .count();
    let told_other = ctx.told.len() - told_kiowa;
    let kiowa_owed =
        told_kiowa < told_other + KIOWA_LEAD && cat.facts.iter().filter(untold).any(is_kiowa);
    let facts = || {
        cat.facts
            .iter()
            .filter(untold)
            .filter(move |f| !kiowa_owed || is_kiowa(f))
    };
    if let Some(f) = topics
        .iter()
        .find_map(|topic| facts().find(|f| f.tags.iter().any(|t| t == topic)))
    {
        return Some(f);
    }
    // A moment with a fact of its own waiting is not taken by a fact for
    // a quiet move: while a Kiowa fact is owed, the moment's fact waits
    // for a moment like it, and the Kiowa fact for a quiet move.
    let fits_moment = topics.iter().any(|topic| {
        cat.facts
            .iter()
            .filter(untold)
            .any(|f| f.tags.iter().any(|t| t == topic))
    });
    if fits_moment {
        return None;
    }
    let quiet = !ctx.events.iter().any(notable);
    (quiet && n.is_multiple_of(QUIET_FACT_EVERY))
        .then(|| facts().find(|f| f.tags.iter().any(|t| !MOMENT_TOPICS.contains(&t.as_str()))))
        .flatten()
}

/// Whether the awls face each other within [`CLOSE`] spaces after the
/// move: a move with nothing notable then tells no fact, as the class
/// waits to hear whether one will whip the other (a teacher's trial: "Now
/// only 2 spaces apart!" was followed by a fact on the game's name).
fn awls_close(ctx: &MoveContext<'_>) -> bool {
    let awls = if ctx.seat.side == Side::A {
        [ctx.to, ctx.other_awl]
    } else {
        [ctx.other_awl, ctx.to]
    };
    awls_apart(ctx.options, awls).is_some_and(|d| d <= CLOSE)
}

/// Whether a fact tells of the Kiowa and their things (tagged `kiowa`):
/// who played, the awl and its case, the names, who wrote the record and
/// who keeps the language today.
fn is_kiowa(fact: &Fact) -> bool {
    fact.tags.iter().any(|t| t == "kiowa")
}

/// Whether an event is more than a throw, a move and a turn.
fn notable(event: &Event) -> bool {
    !matches!(
        event,
        Event::Moved { .. } | Event::ThrowsAgain { .. } | Event::TurnPassed { .. }
    )
}

#[cfg(test)]
mod tests {
    use super::{choose_fact, topics};
    use crate::catalogue::catalogue;
    use crate::rules::{Creek, Event, Preset, Seat, Side, Sticks, ThrowTable};
    use crate::vocabulary::{Audience, Cast, Detail, MoveContext};

    /// A move of side A at move 400, with `events`, narrated for the young,
    /// in a game that has told the facts about the Kiowa (which come first).
    fn with_events(events: &[Event], check: impl FnOnce(&MoveContext<'_>)) {
        with_move(events, 400, [0, 1], check);
    }

    /// [`with_events`] at move `move_number`, the awls then at `awls` (A's,
    /// B's own spaces; A moved).
    fn with_move(
        events: &[Event],
        move_number: u32,
        awls: [u8; 2],
        check: impl FnOnce(&MoveContext<'_>),
    ) {
        let told: Vec<String> = catalogue()
            .facts
            .iter()
            .filter(|f| super::is_kiowa(f))
            .map(|f| f.id.clone())
            .collect();
        let options = Preset::Composite.options();
        let cast = Cast {
            sides: ["Ama".into(), "Bea".into()],
            players: [vec![], vec![]],
        };
        let throw = crate::rules::Throw::Sticks(Sticks::from_bits(0b0111));
        let score = ThrowTable::SticksSahe
            .score(&throw)
            .expect("sticks under a sticks table");
        let ctx = MoveContext {
            options: &options,
            cast: &cast,
            audience: Audience::Young,
            detail: Detail::Lesson,
            move_number,
            seat: Seat {
                side: Side::A,
                player: 0,
            },
            from: 20,
            to: awls[0],
            other_awl: awls[1],
            throw: &throw,
            score: &score,
            events,
            told: &told,
            previous: None,
        };
        check(&ctx);
    }

    const WHIP: Event = Event::Whipped {
        side: Side::A,
        victim: Side::B,
        space: 26,
    };
    const FALL: Event = Event::FellIntoCreek {
        side: Side::A,
        creek: Creek::North,
        space: 26,
    };

    /// Regression (a curator's trial): "Sometimes both awls go back to the
    /// start at once!" came on a move with a whip alone or a fall alone.
    /// It belongs to a move with both, and to no other.
    #[test]
    fn regression_both_awls_going_home_was_told_on_a_move_with_one_event() {
        let fact = |events: &[Event]| {
            let mut id = None;
            with_events(events, |ctx| {
                id = choose_fact(catalogue(), ctx, &[]).map(|f| f.id.clone());
            });
            id
        };
        assert_eq!(fact(&[WHIP, FALL]).as_deref(), Some("whip-and-fall"));
        assert_ne!(fact(&[WHIP]).as_deref(), Some("whip-and-fall"));
        assert_ne!(fact(&[FALL]).as_deref(), Some("whip-and-fall"));
        with_events(&[WHIP], |ctx| {
            assert!(!topics(ctx).contains(&"whip_and_fall"));
        });
    }

    /// A teacher's trial: right after a fall into the south creek, "there,
    /// an awl fell in at the creek across from its start" sounded like
    /// another rule for the creek just fallen into. A creek's own facts
    /// come with a fall into it; the other creek's never do.
    #[test]
    fn regression_a_south_creek_fall_brought_the_north_creeks_fact() {
        let south = Event::FellIntoCreek {
            side: Side::A,
            creek: Creek::South,
            space: 40,
        };
        let north_facts = ["north-creek-fall", "creek-bank-disagreement"];
        with_events(&[south], |ctx| {
            assert_eq!(topics(ctx)[..2], ["south_creek", "creek"]);
            let f = choose_fact(catalogue(), ctx, &[]).map(|f| f.id.clone());
            assert!(
                f.as_deref().is_none_or(|f| !north_facts.contains(&f)),
                "{f:?}"
            );
        });
        with_events(&[FALL], |ctx| {
            assert_eq!(topics(ctx)[..2], ["north_creek", "creek"]);
            let f = choose_fact(catalogue(), ctx, &[]).map(|f| f.id.clone());
            assert!(
                f.as_deref().is_some_and(|f| north_facts.contains(&f)),
                "{f:?}"
            );
        });
    }

    /// A teacher's trial: "Now only 2 spaces apart!" was followed by a fact
    /// on the game's name, breaking in as the class waited for a whip. A
    /// quiet move tells no fact while the awls face each other within
    /// `CLOSE` spaces, and does once they are further apart.
    #[test]
    fn regression_a_fact_broke_in_as_the_awls_came_close() {
        let moved = Event::Moved {
            side: Side::A,
            from: 20,
            to: 23,
            steps: 3,
        };
        // A at own 23 faces B at own 16 (physical 25), 2 spaces apart; at
        // own 23 against B at own 10 (physical 31), 8 apart.
        let fact = |other: u8| {
            let mut id = None;
            with_move(&[moved], 399, [23, other], |ctx| {
                id = choose_fact(catalogue(), ctx, &[]).map(|f| f.id.clone());
            });
            id
        };
        assert_eq!(fact(16), None);
        assert!(fact(10).is_some());
    }
}
