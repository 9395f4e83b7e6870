//! Planning a move's narration for a lesson: which rules to state, each in
//! full or briefly, and which context fact to tell; decided from the game's
//! history (the setup and moves 1..n alone), the same for every audience
//! and every detail level.

use std::collections::BTreeMap;

use super::catalogue::Catalogue;
use super::facts::choose_fact;
use super::rule_id::RuleId;
use super::section::Section;
use super::stretch::awls_apart;
use super::vocabulary::{MoveContext, Narration, RuleStated, SegmentKind};
use crate::rules::{Creek, Event, Feature, Side, WinReason};

/// A rule that acts again this many moves or more after it was last
/// stated, and at least as many moves as had passed before that statement,
/// is restated briefly: a long game restates a rule ever more rarely, and
/// never on two moves in a row.
pub const REMIND_AFTER: u32 = 50;

/// A rule is restated briefly at most this many times after its full
/// statement, so a reminder never repeats one in the same words.
pub const MAX_REMINDERS: u32 = 1;

/// What a move's narration tells besides its events: decided from the
/// game's history, the same for every audience.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Plan {
    /// Rule ids (as segments keep them), each with whether it is restated
    /// briefly.
    pub(super) rules: Vec<(String, bool)>,
    /// The context fact, if any.
    pub(super) fact: Option<String>,
    /// The memory of rules stated, after this move.
    pub(super) rules_stated: BTreeMap<String, RuleStated>,
}

impl Plan {
    /// The plan a stored narration followed: its rule segments' rules in
    /// their form, its context fact and its memory of rules stated.
    pub(super) fn of_stored(stored: &Narration) -> Self {
        Self {
            rules: stored
                .segments
                .iter()
                .filter(|s| s.kind == SegmentKind::Rule)
                .filter_map(|s| s.rule.clone().map(|r| (r, s.brief)))
                .collect(),
            fact: stored.fact().map(str::to_owned),
            rules_stated: stored.rules_stated.clone(),
        }
    }
}

/// Plan move `ctx` from the game's history (the memory of the rules stated
/// so far, which the previous move's narration carries, and the facts told
/// so far):
///
/// - on the first move, the turn's basics: the throw, the move and whose
///   turn it is;
/// - each rule behind the move's notable events the first time it acts, in
///   full, and again, briefly, when it acts [`REMIND_AFTER`] moves or more
///   after it was last stated, at most [`MAX_REMINDERS`] times (never the
///   rule that a dry branch does nothing, which changes nothing to remind);
/// - on a move with none of these, the next rule of the ruleset not stated
///   yet ([`ahead`]: how to win, then each hazard), so that each is taught
///   before it decides anything where the game allows;
/// - a context fact that fits the moment, each at most once a game;
/// - on the move that ends the game, no reminder and no fact: it ends on
///   its result.
pub(super) fn plan(cat: &Catalogue, ctx: &MoveContext<'_>) -> Plan {
    let n = ctx.move_number;
    let mut memory = ctx
        .previous
        .map(|p| p.rules_stated.clone())
        .unwrap_or_default();
    let known = |id: &RuleId| cat.templates.rules.contains_key(id.key());
    let mut chosen: Vec<(RuleId, bool)> = Vec::new();
    let choose = |id: RuleId, brief: bool, chosen: &mut Vec<(RuleId, bool)>| {
        if !chosen.iter().any(|(c, _)| *c == id) {
            chosen.push((id, brief));
        }
    };
    if n == 1 {
        for id in basics(ctx) {
            choose(id, false, &mut chosen);
        }
    }
    // The move that ends the game ends on its result: no reminder, no fact.
    let over = ctx.events.iter().any(|e| matches!(e, Event::Won { .. }));
    for id in notable_rules(ctx).into_iter().filter(known) {
        match memory.get(id.key()) {
            None => choose(id, false, &mut chosen),
            // A rule that says nothing happens is not worth a reminder.
            Some(stated)
                if !over
                    && id != RuleId::DryBranchNoEffect
                    && stated.briefs < MAX_REMINDERS
                    && n.saturating_sub(stated.last) >= REMIND_AFTER.max(stated.last) =>
            {
                choose(id, true, &mut chosen);
            }
            Some(_) => {}
        }
    }
    // A counter changing hands before the counters' own rule was stated
    // states it (a teacher's trial: "Now: the Otters 3, the Herons 5." came
    // a move before "Each side starts with 4 counting sticks.").
    let counters = RuleId::counters(ctx.options.end_check);
    if ctx
        .events
        .iter()
        .any(|e| matches!(e, Event::CounterPaid { .. }))
        && known(&counters)
        && !memory.contains_key(counters.key())
    {
        choose(counters, false, &mut chosen);
    }
    if chosen.is_empty()
        && !over
        && let Some(id) = ahead(ctx)
            .into_iter()
            .filter(known)
            .filter(|id| near(ctx, *id))
            .find(|id| !memory.contains_key(id.key()))
    {
        choose(id, false, &mut chosen);
    }
    let mut rules = Vec::new();
    for (id, brief) in chosen.into_iter().filter(|(id, _)| known(id)) {
        let stated = memory.entry(id.key().to_owned()).or_default();
        stated.last = n;
        if brief {
            stated.briefs += 1;
        } else {
            stated.full = n;
            stated.briefs = 0;
        }
        rules.push((id.key().to_owned(), brief));
    }
    let fact = if over {
        None
    } else {
        choose_fact(cat, ctx, &rules).map(|f| f.id.clone())
    };
    Plan {
        rules,
        fact,
        rules_stated: memory,
    }
}

/// The turn's basics, stated on the first move: the throw, the move and
/// whose turn it is.
fn basics(ctx: &MoveContext<'_>) -> [RuleId; 3] {
    let options = ctx.options;
    [
        RuleId::throw_table(options.throw_table),
        RuleId::Move,
        RuleId::turn(options.turn_order, ctx.cast.has_teams()),
    ]
}

/// The ruleset's rules a lesson teaches ahead of their first action, in
/// order: those of the sections of [`Section::AHEAD`] (how to win, then
/// each hazard and how an awl comes home), but for a whip ending in a fall,
/// which is told when one happens, and a dry branch with no effect, told
/// when an awl first lands on one (a teacher's trial: "A dry branch has no
/// trap" came before the class had heard of any trap).
fn ahead(ctx: &MoveContext<'_>) -> Vec<RuleId> {
    let o = ctx.options;
    let teams = ctx.cast.has_teams();
    Section::AHEAD
        .iter()
        .flat_map(|section| section.rules(o))
        .filter(|id| {
            !matches!(id, RuleId::WhipThenFall | RuleId::DryBranchNoEffect) && id.applies(o, teams)
        })
        .collect()
}

/// Whether rule `id`, taught ahead of its first action, is near enough to
/// act to be taught now: how to win at once; a dry branch's, the north
/// creek's or the way home's when an awl has one within [`NEAR`] spaces
/// ahead; the whip's when the two awls face each other within [`NEAR`]
/// spaces (a teacher's trial: seven rules filled the first seven moves,
/// told beside throws they had nothing to do with, the creek and the whip
/// long before an awl came near either).
fn near(ctx: &MoveContext<'_>, id: RuleId) -> bool {
    let board = ctx.options.board;
    let side = ctx.seat.side;
    let awls = if side == Side::A {
        [ctx.to, ctx.other_awl]
    } else {
        [ctx.other_awl, ctx.to]
    };
    // Whether an awl has a space of `feature`'s kind within NEAR ahead.
    let ahead_of = |feature: fn(Feature) -> bool| {
        Side::BOTH.iter().any(|&s| {
            let at = awls[s.index()];
            (1..=NEAR)
                .filter_map(|k| at.checked_add(k).filter(|own| *own <= board.len()))
                .any(|own| feature(board.feature(s, own)))
        })
    };
    match id.section() {
        Some(Section::DryBranches) => ahead_of(|f| matches!(f, Feature::DryBranch { .. })),
        Some(Section::NorthCreek) => ahead_of(|f| matches!(f, Feature::NorthCreek { .. })),
        Some(Section::Whip) => awls_apart(ctx.options, awls).is_some_and(|d| d <= NEAR),
        Some(Section::Home) => awls
            .iter()
            .any(|&at| u16::from(at) + u16::from(NEAR) >= u16::from(board.len())),
        _ => true,
    }
}

/// How far ahead of an awl a hazard is near enough for its rule to be
/// taught ([`near`]): the commonest throws reach it.
pub const NEAR: u8 = 6;

/// The rules behind a move's notable events, in order, without repeats.
fn notable_rules(ctx: &MoveContext<'_>) -> Vec<RuleId> {
    let options = ctx.options;
    let mut ids: Vec<RuleId> = Vec::new();
    let mut push = |id: RuleId| {
        if !ids.contains(&id) {
            ids.push(id);
        }
    };
    let mut upset = false;
    for event in ctx.events {
        match event {
            Event::FellIntoCreek {
                creek: Creek::South,
                ..
            } => {
                push(RuleId::SouthCreekFallsIn);
                upset = true;
            }
            Event::FellIntoCreek { .. } => {
                push(RuleId::north_creek(options.deadly_north_bank));
                upset = true;
            }
            Event::Whipped { .. } => {
                push(RuleId::whip(ctx.events));
                upset = true;
            }
            Event::CompletedCircuit { exact: true, .. } => push(RuleId::CircuitExactLudii),
            Event::CompletedCircuit { .. } => push(RuleId::circuit(options.own_last_space)),
            Event::ForcedPass { .. } => {
                push(RuleId::OvershootNoMove);
                upset = true;
            }
            Event::LostThrow { .. } | Event::TurnSkipped { .. } => push(RuleId::DryBranchLoseThrow),
            Event::CrossedDryBranch { .. } => push(RuleId::DryBranchCrossOver),
            // Harmless, but a rule acts: the first time, it is stated.
            Event::PassedNorthCreek { .. } => push(RuleId::north_creek(options.deadly_north_bank)),
            Event::LandedOnDryBranch { .. } => {
                push(RuleId::landed_on_dry_branch(options.dry_branch))
            }
            Event::Won {
                reason: WinReason::Circuits,
                ..
            } => push(RuleId::CircuitsToWin),
            Event::Won { .. } | Event::CounterUnpaid { .. } => {
                push(RuleId::counters(options.end_check))
            }
            // No rule of their own: the move and the turn are the basics,
            // stated on move 1; a counter paid follows from the event that
            // caused it (a fall, a whip, a circuit), whose rule is pushed
            // above; an extra throw's rule is chosen below; a draw ends a
            // game stopped by hand. Listed, not matched by `_`, so that a new
            // event does not compile until its rule is decided here.
            Event::Moved { .. }
            | Event::CounterPaid { .. }
            | Event::ThrowsAgain { .. }
            | Event::TurnPassed { .. }
            | Event::Drawn => {}
        }
    }
    // An extra throw that survives a fall, a whip or a forced pass is worth
    // its rule.
    // (Not when the game is over, nor when a dry branch took the extra
    // throw away.)
    let over = ctx.events.iter().any(|e| {
        matches!(
            e,
            Event::Won { .. }
                | Event::LostThrow {
                    extra_throw_lost: true,
                    ..
                }
        )
    });
    if upset && ctx.score.throws_again && !over {
        push(RuleId::ExtraThrowFromSticks);
    }
    ids
}
