//! The rules the narration states, by id, and which rule a ruleset option
//! or a move's events call for: the one mapping the move narration, the
//! lessons and the reference resources read.

use crate::rules::{
    CounterReason, Creek, DeadlyNorthBank, DryBranch, EndCheck, Event, Options, Overshoot,
    OwnLastSpace, ThrowTable, TurnOrder,
};
use crate::section::Section;

/// A rule statement of `templates.json` (`rules`). Its name (`key`,
/// `Display`, `FromStr`) is the statement's key there and the `rule` of a
/// narrated segment.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::AsRefStr,
    strum::EnumIter,
    strum::Display,
)]
#[strum(serialize_all = "snake_case")]
pub enum RuleId {
    /// The four sticks, the sahe counting (`throw_table: sticks_sahe`).
    SticksSahe,
    /// The four sticks, flat faces counted only (`throw_table: sticks_count`).
    SticksCount,
    /// The A4 sheet's spinner (`throw_table: spinner`).
    Spinner,
    /// An awl moves by the value thrown along its own path.
    Move,
    /// A throw that earns another keeps it whatever the move did.
    ExtraThrowFromSticks,
    /// The sides take turns (no teams).
    TurnPass,
    /// With teams, each side's players throw in a block.
    TurnSideBlocks,
    /// With teams, the sides' players alternate.
    TurnAlternate,
    /// Landing on the near bank of the north creek falls in.
    NorthCreekNear,
    /// Landing on the far bank of the north creek falls in.
    NorthCreekFar,
    /// Passing own last space completes a circuit and the awl goes on.
    CircuitCarryOn,
    /// Landing on or passing own start wins the lap (the A4 sheet).
    CircuitLapA4,
    /// Landing exactly on own last space comes home (Ludii).
    CircuitExactLudii,
    /// Landing on own last space falls into the south creek.
    SouthCreekFallsIn,
    /// A throw that would pass own last space is not played (Ludii).
    OvershootNoMove,
    /// Landing on the other awl whips it home.
    Whip,
    /// A whip on the north bank, then the mover falls in.
    WhipThenFall,
    /// A dry branch is an ordinary space.
    DryBranchNoEffect,
    /// Landing on a dry branch loses a throw.
    DryBranchLoseThrow,
    /// Landing on a dry branch crosses to the opposite one.
    DryBranchCrossOver,
    /// Counters change hands one at a time; holding them all wins at once.
    CountersOneAtATime,
    /// The mover wins after its whole move when the other side holds none.
    CountersAfterMove,
    /// A set number of circuits also wins.
    CircuitsToWin,
    /// A stopped game goes to the side with more counters.
    StopMostCounters,
}

/// A rule id is written as its key (`sticks_sahe`), the one name strum
/// gives it.
impl serde::Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.key())
    }
}

impl RuleId {
    /// The rule's id as written in `templates.json` and in segments.
    #[must_use]
    pub fn key(self) -> &'static str {
        self.into()
    }

    /// How a throw is scored under `table`.
    #[must_use]
    pub const fn throw_table(table: ThrowTable) -> Self {
        match table {
            ThrowTable::SticksSahe => Self::SticksSahe,
            ThrowTable::SticksCount => Self::SticksCount,
            ThrowTable::Spinner => Self::Spinner,
        }
    }

    /// Whether this is how a throw is scored (a [`Self::throw_table`]).
    #[must_use]
    pub const fn is_throw_table(self) -> bool {
        matches!(self, Self::SticksSahe | Self::SticksCount | Self::Spinner)
    }

    /// Where the north creek is deadly.
    #[must_use]
    pub const fn north_creek(bank: DeadlyNorthBank) -> Self {
        match bank {
            DeadlyNorthBank::Near => Self::NorthCreekNear,
            DeadlyNorthBank::Far => Self::NorthCreekFar,
        }
    }

    /// How an awl completes a circuit other than by landing exactly on its
    /// own last space.
    #[must_use]
    pub const fn circuit(own: OwnLastSpace) -> Self {
        match own {
            OwnLastSpace::Ordinary => Self::CircuitLapA4,
            OwnLastSpace::FallsIn | OwnLastSpace::CompletesCircuit => Self::CircuitCarryOn,
        }
    }

    /// What landing on own last space does.
    #[must_use]
    pub const fn own_last_space(own: OwnLastSpace) -> Self {
        match own {
            OwnLastSpace::FallsIn => Self::SouthCreekFallsIn,
            OwnLastSpace::CompletesCircuit => Self::CircuitExactLudii,
            OwnLastSpace::Ordinary => Self::CircuitLapA4,
        }
    }

    /// How turns pass between the players of teams.
    #[must_use]
    pub const fn team_turns(order: TurnOrder) -> Self {
        match order {
            TurnOrder::SideBlocks => Self::TurnSideBlocks,
            TurnOrder::Alternate => Self::TurnAlternate,
        }
    }

    /// How turns pass in a game, with or without `teams`.
    #[must_use]
    pub const fn turn(order: TurnOrder, teams: bool) -> Self {
        if teams {
            Self::team_turns(order)
        } else {
            Self::TurnPass
        }
    }

    /// What the ruleset's dry branches do.
    #[must_use]
    pub const fn dry_branch(dry: DryBranch) -> Self {
        match dry {
            DryBranch::NoEffect => Self::DryBranchNoEffect,
            DryBranch::LoseThrow => Self::DryBranchLoseThrow,
            DryBranch::CrossOver => Self::DryBranchCrossOver,
        }
    }

    /// The rule behind an awl resting on a dry branch: the ruleset's rule
    /// for dry branches. Under `cross_over` the awl rests on the second
    /// branch (or where a crossing ended), which the cross-over rule says
    /// does nothing; the no-effect rule would say that the first one does
    /// nothing either.
    #[must_use]
    pub const fn landed_on_dry_branch(dry: DryBranch) -> Self {
        Self::dry_branch(dry)
    }

    /// The lesson's section that states the rule (`None`: none does), the
    /// one place a rule is placed in a lesson; [`Section::rules`] reads it.
    #[must_use]
    pub(crate) const fn section(self) -> Option<Section> {
        Some(match self {
            Self::SticksSahe | Self::SticksCount | Self::Spinner => Section::Sticks,
            Self::Move
            | Self::ExtraThrowFromSticks
            | Self::TurnSideBlocks
            | Self::TurnAlternate => Section::Turn,
            // A lesson teaches the teams' turns; a game of two players
            // states this one.
            Self::TurnPass => return None,
            Self::NorthCreekNear | Self::NorthCreekFar => Section::NorthCreek,
            Self::CircuitCarryOn
            | Self::CircuitLapA4
            | Self::CircuitExactLudii
            | Self::SouthCreekFallsIn
            | Self::OvershootNoMove => Section::Home,
            Self::Whip | Self::WhipThenFall => Section::Whip,
            Self::DryBranchNoEffect | Self::DryBranchLoseThrow | Self::DryBranchCrossOver => {
                Section::DryBranches
            }
            Self::CountersOneAtATime | Self::CountersAfterMove | Self::CircuitsToWin => {
                Section::Winning
            }
            Self::StopMostCounters => Section::Stopping,
        })
    }

    /// Whether a game played with `options` (with `teams`: a side of more
    /// than one player) can call for this rule: a narration of such a game
    /// states no other rule, and a lesson of its preset teaches no other.
    #[must_use]
    pub fn applies(self, options: &Options, teams: bool) -> bool {
        match self {
            Self::SticksSahe | Self::SticksCount | Self::Spinner => {
                self == Self::throw_table(options.throw_table)
            }
            Self::Move
            | Self::ExtraThrowFromSticks
            | Self::Whip
            | Self::WhipThenFall
            | Self::StopMostCounters => true,
            Self::TurnPass => !teams,
            Self::TurnSideBlocks | Self::TurnAlternate => {
                teams && self == Self::team_turns(options.turn_order)
            }
            Self::NorthCreekNear | Self::NorthCreekFar => {
                self == Self::north_creek(options.deadly_north_bank)
            }
            // Passing own last space: impossible where an exact throw is
            // needed to reach own last space itself (Ludii).
            Self::CircuitCarryOn => {
                options.own_last_space != OwnLastSpace::Ordinary
                    && !(options.own_last_space == OwnLastSpace::CompletesCircuit
                        && options.overshoot == Overshoot::NoMove)
            }
            Self::CircuitLapA4 => options.own_last_space == OwnLastSpace::Ordinary,
            Self::CircuitExactLudii => options.own_last_space == OwnLastSpace::CompletesCircuit,
            Self::SouthCreekFallsIn => options.own_last_space == OwnLastSpace::FallsIn,
            Self::OvershootNoMove => options.overshoot == Overshoot::NoMove,
            Self::DryBranchNoEffect | Self::DryBranchLoseThrow | Self::DryBranchCrossOver => {
                self == Self::dry_branch(options.dry_branch)
            }
            Self::CountersOneAtATime | Self::CountersAfterMove => {
                self == Self::counters(options.end_check)
            }
            Self::CircuitsToWin => options.circuits_to_win.is_some(),
        }
    }

    /// The rule that ends a game on counters: the moment a side holds them
    /// all, or (`end_check: after_move`, Ludii) after the mover's whole
    /// move.
    #[must_use]
    pub const fn counters(end: EndCheck) -> Self {
        match end {
            EndCheck::Immediate => Self::CountersOneAtATime,
            EndCheck::AfterMove => Self::CountersAfterMove,
        }
    }

    /// The rule of a whip among a move's `events`: a whip followed by a
    /// fall into the north creek is one rule of its own.
    #[must_use]
    pub fn whip(events: &[Event]) -> Self {
        let then_falls = events.iter().any(|e| {
            matches!(
                e,
                Event::FellIntoCreek {
                    creek: Creek::North,
                    ..
                }
            )
        });
        if then_falls {
            Self::WhipThenFall
        } else {
            Self::Whip
        }
    }

    /// The rule a counter changes hands by, for `reason`, among a move's
    /// `events`.
    #[must_use]
    pub fn counter(reason: CounterReason, options: &Options, events: &[Event]) -> Self {
        match reason {
            CounterReason::Whip => Self::whip(events),
            CounterReason::Circuit => {
                if events
                    .iter()
                    .any(|e| matches!(e, Event::CompletedCircuit { exact: true, .. }))
                {
                    Self::CircuitExactLudii
                } else {
                    Self::circuit(options.own_last_space)
                }
            }
            CounterReason::CreekFall => {
                let south = events.iter().any(|e| {
                    matches!(
                        e,
                        Event::FellIntoCreek {
                            creek: Creek::South,
                            ..
                        }
                    )
                });
                if south {
                    Self::SouthCreekFallsIn
                } else {
                    Self::north_creek(options.deadly_north_bank)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use strum::IntoEnumIterator;

    use super::RuleId;
    use crate::catalogue;

    /// A rule id the narration can name has a statement in
    /// `templates.json`, and every statement there has a rule id.
    #[test]
    fn rule_ids_are_the_rule_keys_of_templates_json() {
        let ids: BTreeSet<&str> = RuleId::iter().map(RuleId::key).collect();
        let keys: BTreeSet<&str> = catalogue()
            .templates
            .rules
            .keys()
            .map(String::as_str)
            .collect();
        let missing: Vec<_> = ids.difference(&keys).collect();
        let unnamed: Vec<_> = keys.difference(&ids).collect();
        assert!(
            missing.is_empty() && unnamed.is_empty(),
            "rule ids without a statement: {missing:?}; statements without a rule id: {unnamed:?}"
        );
    }

    #[test]
    fn a_rule_id_reads_back_from_its_key() {
        for id in RuleId::iter() {
            assert_eq!(id.key().parse::<RuleId>(), Ok(id));
            assert_eq!(id.to_string(), id.key());
            assert_eq!(id.as_ref(), id.key());
        }
        assert!("Whip".parse::<RuleId>().is_err());
    }

    /// A fact that retells a rule names it by a rule id, or it would be
    /// told on the very move that states the rule.
    #[test]
    fn every_fact_retells_a_known_rule() {
        for fact in &catalogue().facts {
            if let Some(rule) = &fact.rule {
                assert!(
                    rule.parse::<RuleId>().is_ok(),
                    "fact {} retells unknown rule {rule}",
                    fact.id
                );
            }
        }
    }
}
