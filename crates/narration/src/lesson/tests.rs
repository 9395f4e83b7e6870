//! The lesson texts: framing, departures and counters.

use super::DATA;
use crate::rules::{OptionKind, option_specs};

/// Every value of an option other than the composite's says, in a
/// lesson, how it departs from the composite: `option.value` for a
/// choice, `option` for a count. A new value does not pass until it
/// has its sentence.
#[test]
fn every_value_other_than_the_composites_has_its_departure() {
    for spec in option_specs() {
        match spec.kind {
            OptionKind::Choice {
                values, default, ..
            } => {
                for value in values.iter().filter(|v| *v != &default) {
                    let key = format!("{}.{value}", spec.name);
                    assert!(DATA.departures.contains_key(&key), "{key}");
                }
            }
            OptionKind::Count { .. } => {
                assert!(DATA.departures.contains_key(spec.name), "{}", spec.name);
            }
        }
    }
}

/// A teacher's trial: a whole game read aloud ran 8 to 27 minutes; a
/// teacher may play one with fewer counting sticks. Such a game is
/// still framed as its preset's (not as a mix of rules), says how many
/// counting sticks it starts with instead, and gives no average length
/// (the preset's would be wrong).
/// A game created over HTTP with one counter a side read "1 counting
/// sticks" in its framing and its counters' rule.
#[test]
fn regression_one_counter_a_side_read_1_counting_sticks() {
    use super::framing;
    use crate::rules::Preset;
    use crate::vocabulary::Audience;
    for preset in Preset::ALL {
        let options = crate::rules::Options {
            counters_per_side: 1,
            ..preset.options()
        };
        for audience in Audience::ALL {
            let mut said = framing(&options, audience).text;
            for rule in <crate::rule_id::RuleId as strum::IntoEnumIterator>::iter() {
                if let Some((text, _)) = crate::statement::rule_statement(&options, audience, rule)
                {
                    said.push(' ');
                    said.push_str(&text);
                }
            }
            assert!(
                !said.contains(" 1 counting sticks") && !said.contains(" 1 counters"),
                "{preset:?} {audience:?}: {said}"
            );
        }
    }
}

#[test]
fn regression_a_game_with_fewer_counting_sticks_was_framed_as_a_mix_of_rules() {
    use super::{framing, game_length};
    use crate::rules::Preset;
    use crate::vocabulary::Audience;
    let usual = Preset::Composite.options();
    let shorter = crate::rules::Options {
        counters_per_side: 2,
        ..usual
    };
    let young = framing(&shorter, Audience::Young);
    assert!(
        young
            .text
            .contains("fewer counting sticks than the usual 4")
            && !young.text.contains(" 2 counting sticks")
            && young.text.contains("Wikipedia")
            && !young.text.contains("mixes rules"),
        "{}",
        young.text
    );
    let general = framing(&shorter, Audience::General);
    assert!(
        general
            .text
            .contains("One change here: each side starts with 2 counters,")
            && general.text.contains("not the 4 of these rules")
            && general.text.contains("composite reconstruction")
            && !general.text.contains("170 throws"),
        "{}",
        general.text
    );
    assert!(
        general
            .citations
            .iter()
            .any(|c| c.source == "ludii-zohnahl")
    );
    assert!(game_length(&shorter, Audience::General).is_none());
    let longer = crate::rules::Options {
        counters_per_side: 6,
        ..usual
    };
    let young = framing(&longer, Audience::Young).text;
    assert!(
        young.contains("more counting sticks than the usual 4"),
        "{young}"
    );
    // The preset's own number says nothing of it.
    for audience in Audience::ALL {
        let own = framing(&usual, audience).text;
        assert!(
            !own.contains("than the usual") && !own.contains("of these rules"),
            "{own}"
        );
    }
    assert!(game_length(&usual, Audience::General).is_some());
}
