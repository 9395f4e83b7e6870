//! Planning a move's narration: which rules to state, each in full or
//! briefly, and which context fact to tell; decided from the game's
//! history, the same for every audience.

use std::collections::BTreeMap;

use super::catalogue::Catalogue;
use super::facts::choose_fact;
use super::rule_id::RuleId;
use super::vocabulary::{MoveContext, Narration, RuleStated, SegmentKind};
use crate::rules::{Creek, DeadlyNorthBank, Event, Overshoot, WinReason};

/// A rule stated in full is stated briefly for this many moves; after
/// that, its next mention is a full statement again.
pub const FULL_STATEMENT_EVERY: u32 = 40;

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

/// Plan move `ctx` from the game's history: the rules behind its notable
/// events (or one routine rule), each in full unless stated in full within
/// the last [`FULL_STATEMENT_EVERY`] moves, and the context fact.
pub(super) fn plan(cat: &Catalogue, ctx: &MoveContext<'_>) -> Plan {
    let n = ctx.move_number;
    let previous: Vec<&str> = ctx
        .previous
        .map(|p| p.rules().collect())
        .unwrap_or_default();
    let mut memory = ctx
        .previous
        .map(|p| p.rules_stated.clone())
        .unwrap_or_default();
    let mut ids = notable_rules(ctx);
    if ids.is_empty() {
        ids.push(routine_rule(ctx, &memory, &previous));
    }
    let mut rules = Vec::new();
    for id in ids {
        if !cat.templates.rules.contains_key(id.key()) {
            continue;
        }
        let stated = memory.entry(id.key().to_owned()).or_default();
        let brief = stated.full > 0 && n.saturating_sub(stated.full) < FULL_STATEMENT_EVERY;
        stated.last = n;
        if !brief {
            stated.full = n;
        }
        rules.push((id.key().to_owned(), brief));
    }
    let fact = choose_fact(cat, ctx, &rules).map(|f| f.id.clone());
    Plan {
        rules,
        fact,
        rules_stated: memory,
    }
}

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
            Event::Won {
                reason: WinReason::Circuits,
                ..
            } => push(RuleId::CircuitsToWin),
            Event::Won { .. } | Event::CounterUnpaid { .. } => {
                push(RuleId::counters(options.end_check))
            }
            _ => {}
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

/// The rule a routine move states: the most specific relevant rule not
/// stated lately, else the relevant rule stated longest ago; never one the
/// previous move stated.
fn routine_rule(
    ctx: &MoveContext<'_>,
    memory: &BTreeMap<String, RuleStated>,
    previous: &[&str],
) -> RuleId {
    let options = ctx.options;
    let n = ctx.move_number;
    let table = RuleId::throw_table(options.throw_table);
    // Specific to what just happened or what lies ahead.
    let mut specific: Vec<RuleId> = Vec::new();
    if n == 1 {
        specific.push(table);
    }
    let mut last_to = None;
    for event in ctx.events {
        match event {
            Event::LandedOnDryBranch { .. } => {
                specific.push(RuleId::landed_on_dry_branch(options.dry_branch))
            }
            Event::PassedNorthCreek { .. } => {
                specific.push(RuleId::north_creek(options.deadly_north_bank))
            }
            Event::Moved { to, .. } => last_to = Some(*to),
            _ => {}
        }
    }
    if ctx.score.throws_again {
        specific.push(table);
    }
    if let Some(to) = last_to {
        let board = options.board;
        let north = board.north_near_bank();
        let deadly = match options.deadly_north_bank {
            DeadlyNorthBank::Near => north,
            DeadlyNorthBank::Far => north + 1,
        };
        if to < deadly && deadly - to <= 6 {
            specific.push(RuleId::north_creek(options.deadly_north_bank));
        }
        let last = board.len();
        if to < last && last - to <= 6 {
            specific.push(RuleId::own_last_space(options.own_last_space));
            if options.overshoot == Overshoot::NoMove {
                specific.push(RuleId::OvershootNoMove);
            }
        }
    }
    let mut general: Vec<RuleId> = vec![
        table,
        RuleId::Move,
        RuleId::turn(options.turn_order, ctx.cast.has_teams()),
    ];
    general.push(RuleId::counters(options.end_check));
    let last_stated = |id: RuleId| memory.get(id.key()).map_or(0, |m| m.last);
    let fresh = |id: &&RuleId| !previous.contains(&id.key());
    if let Some(&id) = specific
        .iter()
        .filter(fresh)
        .find(|&&id| n.saturating_sub(last_stated(id)) >= 5 || last_stated(id) == 0)
    {
        return id;
    }
    general
        .iter()
        .filter(fresh)
        // The oldest statement first; `min_by_key` keeps the first of equals.
        .min_by_key(|&&id| last_stated(id))
        .copied()
        .unwrap_or(RuleId::Move)
}
