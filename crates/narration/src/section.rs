//! Where each rule and each ruleset option is taught: the lesson's
//! sections in order, the rules each states for a ruleset, and the section
//! each option belongs to. The lesson, the narration's plan (which rules it
//! teaches ahead of their first action) and the departure sentences all
//! read this one place.

use strum::IntoEnumIterator;

use super::rule_id::RuleId;
use crate::rules::{Board, Options, ThrowTable, option_specs};

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

    /// The rules the section states for a game played with `o`, in the
    /// order `RuleId` declares them: every rule whose section this is
    /// ([`RuleId::section`]) and which a game of `o` with teams can call
    /// for ([`RuleId::applies`]: a lesson teaches the teams' turns too).
    pub(crate) fn rules(self, o: &Options) -> Vec<RuleId> {
        RuleId::iter()
            .filter(|r| r.section() == Some(self) && r.applies(o, true))
            .collect()
    }

    /// The section a ruleset option is taught in, as the option declares
    /// it (`lesson` in `ruleset_options!`), by the option's API name
    /// (`None` for a name that is no option, or a section id that is no
    /// section). A value of the option other than the composite's carries
    /// its departure sentence there: `option.value` in `lessons.json` for
    /// a choice, `option` for a count.
    pub(crate) fn of_option(name: &str) -> Option<Self> {
        let lesson = option_specs().iter().find(|s| s.name == name)?.lesson;
        Self::ALL.into_iter().find(|s| s.id() == lesson)
    }
}

#[cfg(test)]
mod tests {
    use super::Section;
    use crate::rules::option_specs;

    /// A new ruleset option does not pass until it says where a lesson
    /// teaches it (`lesson` in `ruleset_options!`), by a section's id.
    #[test]
    fn every_option_has_a_section() {
        for spec in option_specs() {
            assert!(Section::of_option(spec.name).is_some(), "{}", spec.name);
        }
    }
}
