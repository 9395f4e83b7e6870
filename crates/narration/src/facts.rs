//! Choosing a move's cultural-context fact: the topics a move touches, and
//! the walk through the catalogue's facts, each told once a round.

use super::catalogue::{Catalogue, Fact, catalogue};
use super::vocabulary::{Audience, MoveContext};
use crate::rules::{Event, Options, Throw, ThrowTable};

/// Topics relevant to this move, most specific first.
fn topics(ctx: &MoveContext<'_>) -> Vec<&'static str> {
    let mut topics = Vec::new();
    if ctx.move_number == 1 {
        topics.push("intro");
    }
    if ctx.events.iter().any(|e| matches!(e, Event::Won { .. })) {
        topics.extend(["women", "history"]);
    }
    for event in ctx.events {
        match event {
            Event::FellIntoCreek { .. } | Event::PassedNorthCreek { .. } => {
                topics.push("creek");
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
    if ctx.move_number == 1 {
        topics.push("names");
    }
    topics
}

/// The walk through the facts over `told`.
struct Walk {
    /// Where each round starts in `told`: the first start is 0, the last
    /// the current round's.
    starts: Vec<usize>,
    /// By catalogue index: whether the current round has told the fact.
    round: Vec<bool>,
    /// By catalogue index: whether the fact may be told in this game
    /// ([`in_games`]).
    fits: Vec<bool>,
}

/// Walk through the facts over `told`. A round ends when every fact that
/// fits the game's options has been told once (ids of facts that do not
/// fit, or no longer exist, are skipped).
fn walk(cat: &Catalogue, options: &Options, told: &[String]) -> Walk {
    let fits: Vec<bool> = cat.facts.iter().map(|f| in_games(f, options)).collect();
    let fitting = fits.iter().filter(|f| **f).count();
    let mut starts = vec![0];
    let mut round = vec![false; fits.len()];
    let mut in_round = 0;
    for (i, id) in told.iter().enumerate() {
        if let Some(k) = cat.fact_index(id)
            && fits[k]
            && !round[k]
        {
            round[k] = true;
            in_round += 1;
            if in_round == fitting {
                round.fill(false);
                in_round = 0;
                starts.push(i + 1);
            }
        }
    }
    Walk {
        starts,
        round,
        fits,
    }
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

/// Add the fact a narration told to a game's list of facts told
/// (`told`, oldest first, as [`MoveContext::told`] reads it), and drop from
/// its front every round of the walk but the last complete one: the next
/// choices read only the current round and the last fact told, so they
/// are the same as with the whole list, while the list stays within two
/// rounds (twice the catalogue's facts) however long the game. A round
/// ends when every fact that fits `options` (the game's) has been told.
pub fn remember_fact(told: &mut Vec<String>, fact: &str, options: &Options) {
    told.push(fact.to_owned());
    let Walk { starts, .. } = walk(catalogue(), options, told);
    // `starts` ends with the current round's start; keep the round before.
    if let Some(&keep) = starts.iter().rev().nth(1)
        && keep > 0
    {
        told.drain(..keep);
    }
}

/// One fact not told yet in this round, relevant where one fits; never the
/// fact the previous telling told (at the start of a new round), nor one
/// that retells a rule this move states.
pub(super) fn choose_fact<'c>(
    cat: &'c Catalogue,
    ctx: &MoveContext<'_>,
    rules: &[(String, bool)],
) -> Option<&'c Fact> {
    let topics = topics(ctx);
    let n = ctx.move_number;
    if !(n == 1 || !topics.is_empty() || n.is_multiple_of(3)) {
        return None;
    }
    let Walk { round, fits, .. } = walk(cat, ctx.options, ctx.told);
    let last = ctx.told.last().map(String::as_str);
    let untold = |&(k, f): &(usize, &Fact)| {
        fits[k]
            && !round[k]
            && Some(f.id.as_str()) != last
            && !f
                .rule
                .as_ref()
                .is_some_and(|r| rules.iter().any(|(id, _)| id == r))
    };
    let facts = || cat.facts.iter().enumerate().filter(untold);
    topics
        .iter()
        .find_map(|topic| facts().find(|(_, f)| f.tags.iter().any(|t| t == topic)))
        .or_else(|| facts().next())
        .map(|(_, f)| f)
}
