//! Where each rule and each ruleset option is taught: the lesson's
//! sections in order, the rules each states for a ruleset, and the section
//! each option belongs to. The lesson, the narration's plan (which rules it
//! teaches ahead of their first action) and the departure sentences all
//! read this one place.

use super::rule_id::RuleId;
use crate::rules::{Board, Options, Overshoot, ThrowTable};

/// A section of a lesson, in the order a lesson gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Section {
    /// The board and its places.
    Board,
    /// The sticks (or the spinner) and what a throw is worth.
    Sticks,
    /// A turn: moving, throwing again, whose turn is next.
    Turn,
    /// The north creek (torrent) and its deadly bank.
    NorthCreek,
    /// Coming home: the south creek, a circuit, an exact landing.
    Home,
    /// Whipping the other awl.
    Whip,
    /// The dry branches (gullies).
    DryBranches,
    /// How a game is won.
    Winning,
    /// Stopping a game by hand.
    Stopping,
}

impl Section {
    /// Every section, in a lesson's order.
    pub(crate) const ALL: [Self; 9] = [
        Self::Board,
        Self::Sticks,
        Self::Turn,
        Self::NorthCreek,
        Self::Home,
        Self::Whip,
        Self::DryBranches,
        Self::Winning,
        Self::Stopping,
    ];

    /// The sections whose rules a game teaches ahead of their first action
    /// (on a move with nothing else to teach), in that order: how to win,
    /// then each hazard and how an awl comes home.
    pub(crate) const AHEAD: [Self; 5] = [
        Self::Winning,
        Self::DryBranches,
        Self::NorthCreek,
        Self::Whip,
        Self::Home,
    ];

    /// The section's stable id, as the API writes it.
    pub(crate) const fn id(self) -> &'static str {
        match self {
            Self::Board => "board",
            Self::Sticks => "sticks",
            Self::Turn => "turn",
            Self::NorthCreek => "north_creek",
            Self::Home => "home",
            Self::Whip => "whip",
            Self::DryBranches => "dry_branches",
            Self::Winning => "winning",
            Self::Stopping => "stopping",
        }
    }

    /// The section's heading for a game played with `o` (`None` for the
    /// board, whose heading is the board's own).
    pub(crate) fn title(self, o: &Options) -> Option<&'static str> {
        let square = o.board == Board::Square28;
        Some(match self {
            Self::Board => return None,
            Self::Sticks if o.throw_table == ThrowTable::Spinner => "The spinner",
            Self::Sticks => "The sticks",
            Self::Turn => "A turn",
            Self::NorthCreek if square => "The north torrent",
            Self::NorthCreek => "The north creek",
            Self::Home => "Coming home",
            Self::Whip => "Whipping",
            Self::DryBranches if square => "The dry gullies",
            Self::DryBranches => "The dry branches",
            Self::Winning => "Winning",
            Self::Stopping => "Stopping a game",
        })
    }

    /// The rules the section states for a game played with `o`, in order.
    pub(crate) fn rules(self, o: &Options) -> Vec<RuleId> {
        match self {
            Self::Board => Vec::new(),
            Self::Sticks => vec![RuleId::throw_table(o.throw_table)],
            Self::Turn => vec![
                RuleId::Move,
                RuleId::ExtraThrowFromSticks,
                RuleId::team_turns(o.turn_order),
            ],
            Self::NorthCreek => vec![RuleId::north_creek(o.deadly_north_bank)],
            Self::Home => {
                let mut home = RuleId::coming_home(o.own_last_space).to_vec();
                if o.overshoot == Overshoot::NoMove {
                    home.push(RuleId::OvershootNoMove);
                }
                home
            }
            Self::Whip => vec![RuleId::Whip, RuleId::WhipThenFall],
            Self::DryBranches => vec![RuleId::dry_branch(o.dry_branch)],
            Self::Winning => {
                let mut winning = vec![RuleId::counters(o.end_check)];
                if o.circuits_to_win.is_some() {
                    winning.push(RuleId::CircuitsToWin);
                }
                winning
            }
            Self::Stopping => vec![RuleId::StopMostCounters],
        }
    }

    /// The section a ruleset option is taught in, by the option's API name
    /// (`None` for a name that is no option). A value of the option other
    /// than the composite's carries its departure sentence there:
    /// `option.value` in `lessons.json` for a choice, `option` for a count.
    pub(crate) fn of_option(name: &str) -> Option<Self> {
        Some(match name {
            "board" => Self::Board,
            "throw_table" => Self::Sticks,
            "turn_order" => Self::Turn,
            "deadly_north_bank" => Self::NorthCreek,
            "own_last_space" | "overshoot" => Self::Home,
            "dry_branch" => Self::DryBranches,
            "counters_per_side" | "circuits_to_win" | "end_check" => Self::Winning,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Section;
    use crate::rules::option_specs;

    /// A new ruleset option does not pass until it says where a lesson
    /// teaches it.
    #[test]
    fn every_option_has_a_section() {
        for spec in option_specs() {
            assert!(Section::of_option(spec.name).is_some(), "{}", spec.name);
        }
    }
}
