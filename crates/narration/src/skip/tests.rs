//! The stretch told in short: its high point, who leads after it, one
//! from winning.

use super::*;

/// A teacher's trial (composite seed 7): a stretch began at Side A 4,
/// Side B 4 and ended at 6 to 2, and inside it Side B reached 7 to 1,
/// one from winning; the paragraph said only the end. The high point
/// is told; a lead no bigger than at the ends, or only one counter
/// bigger, is not.
#[test]
fn regression_a_stretch_hid_a_side_one_from_winning() {
    let path = [[4, 4], [3, 5], [2, 6], [1, 7], [2, 6], [4, 4], [6, 2]];
    assert_eq!(Skipped::peak_of([4, 4], &path, 8), Some([1, 7]));
    // The first moment of the highest lead.
    let twice = [[3, 5], [1, 7], [2, 6], [1, 7], [5, 3]];
    assert_eq!(Skipped::peak_of([4, 4], &twice, 8), Some([1, 7]));
    // Side A's lead of 6 to 2 inside, 3 to 5 at both ends.
    let hidden = [[4, 4], [5, 3], [6, 2], [4, 4], [3, 5]];
    assert_eq!(Skipped::peak_of([3, 5], &hidden, 8), Some([6, 2]));
    // One counter more than an end: not news, unless one from winning.
    let small = [[5, 3], [6, 2], [5, 3]];
    assert_eq!(Skipped::peak_of([4, 4], &small, 8), None);
    let near = [[6, 2], [7, 1], [6, 2]];
    assert_eq!(Skipped::peak_of([5, 3], &near, 8), Some([7, 1]));
    // The lead the stretch ends with is said after it anyway.
    let rising = [[5, 3], [6, 2], [7, 1]];
    assert_eq!(Skipped::peak_of([4, 4], &rising, 8), None);
    assert_eq!(Skipped::peak_of([4, 4], &[], 8), None);
}

/// A curator's trial: under Ludii's end check (a side wins after its
/// own move) a side held every counter and played on, so "one more,
/// and the game goes to" it is not said there; under the others it is.
#[test]
fn regression_one_more_counter_was_said_where_a_side_played_on_holding_all() {
    let cast = Cast {
        sides: ["Side A".into(), "Side B".into()],
        players: [vec!["Side A".into()], vec!["Side B".into()]],
    };
    for preset in crate::rules::Preset::ALL {
        let options = preset.options();
        let total = options.total_counters();
        let said = near_win_segment(&options, &cast, Audience::Young, 9, [total - 1, 1]);
        assert_eq!(
            said.is_some(),
            options.end_check == EndCheck::Immediate,
            "{preset:?}"
        );
        assert!(near_win_segment(&options, &cast, Audience::Young, 9, [total - 2, 2]).is_none());
    }
}

/// A teacher's trial: "Counting sticks now: Side A 3, Side B 5." after
/// each stretch, never a plain word on who is ahead. Each of the five
/// cases, and the paragraph's last sentence naming the leader.
#[test]
fn regression_a_stretch_never_said_who_is_ahead() {
    assert_eq!(Lead::of([4, 4], None, [5, 3]), Lead::Taken(Side::A));
    assert_eq!(Lead::of([5, 3], None, [6, 2]), Lead::Kept(Side::A));
    assert_eq!(Lead::of([5, 3], None, [2, 6]), Lead::Changed(Side::B));
    assert_eq!(Lead::of([5, 3], None, [4, 4]), Lead::Evened);
    assert_eq!(Lead::of([4, 4], None, [4, 4]), Lead::StillEven);
    // Beside a high point told inside the stretch.
    assert_eq!(
        Lead::of([4, 4], Some([1, 7]), [6, 2]),
        Lead::Changed(Side::A)
    );
    assert_eq!(Lead::of([5, 3], Some([7, 1]), [6, 2]), Lead::Kept(Side::A));
    assert_eq!(Lead::of([4, 4], Some([7, 1]), [4, 4]), Lead::Evened);
    assert_eq!(Lead::of([3, 5], Some([6, 2]), [3, 5]), Lead::Back(Side::B));
    let options = crate::rules::Preset::Composite.options();
    let cast = Cast {
        sides: ["Side A".into(), "Side B".into()],
        players: [vec!["Side A".into()], vec!["Side B".into()]],
    };
    for audience in Audience::ALL {
        for (before, after, said) in [
            ([5, 3], [2, 6], Some("Side B")),
            ([4, 4], [4, 4], None),
            ([3, 5], [4, 4], None),
        ] {
            let skipped = Skipped {
                throws: 20,
                before,
                ..Skipped::default()
            };
            // Side B led before and after, Side A at the high point.
            let turned = Skipped {
                peak: Some([6, 2]),
                before: [3, 5],
                ..skipped
            };
            let told = narrate_skip(
                &options,
                &cast,
                audience,
                30,
                turned,
                Vec::new(),
                [3, 5],
                [5, 7],
            );
            let key = Lead::of([3, 5], Some([6, 2]), [3, 5]).template().0;
            let changed = catalogue().templates.events[key].for_audience(audience);
            let last = &told.segments.last().expect("a segment").text;
            assert!(
                changed
                    .iter()
                    .any(|t| last.starts_with(t.split('{').next().unwrap_or(t))),
                "{audience:?}: {last}"
            );
            let told = narrate_skip(
                &options,
                &cast,
                audience,
                30,
                skipped,
                Vec::new(),
                after,
                [5, 7],
            );
            let last = &told.segments.last().expect("a segment").text;
            match said {
                Some(name) => assert!(last.contains(name), "{audience:?}: {last}"),
                None => assert!(!last.contains("Side"), "{audience:?}: {last}"),
            }
        }
    }
}
