use super::*;

fn mv(side: Side, value: u8, p: Odds, before: f64, after: f64) -> ChartMove<'static> {
    ChartMove {
        side,
        player: if side == Side::A { "Ama" } else { "Owls" },
        value,
        probability: p,
        chances: Chances {
            before: [before, 1.0 - before],
            after: [after, 1.0 - after],
        },
    }
}

fn chart<'a>(moves: &'a [ChartMove<'a>], audience: Audience) -> ChanceChart<'a> {
    ChanceChart {
        sides: ["Hawks", "Owls"],
        start: [0.52, 0.48],
        moves,
        result: ChartResult::Playing,
        audience,
        throw_table: crate::rules::ThrowTable::SticksSahe,
    }
}

#[test]
fn a_chart_marks_the_largest_swing_and_the_rare_throws() {
    let moves = [
        mv(Side::A, 3, Odds::new(6, 16), 0.52, 0.55),
        mv(Side::B, 10, Odds::new(1, 32), 0.55, 0.30),
        mv(Side::A, 2, Odds::new(4, 16), 0.30, 0.36),
    ];
    let svg = chances_svg(&chart(&moves, Audience::General));
    assert_eq!(svg, chances_svg(&chart(&moves, Audience::General)));
    assert_eq!(svg.matches("class=\"point\"").count(), 4);
    assert!(
        svg.contains("class=\"turning-point\" data-move=\"2\""),
        "{svg}"
    );
    assert!(svg.contains("class=\"rare-throw\" data-move=\"2\" data-probability=\"1/32\""));
    assert_eq!(svg.matches("class=\"rare-throw\"").count(), 1);
    assert!(svg.contains("Owls threw 10: 45% \u{2192} 70%"), "{svg}");
    let desc = words::description(&chart(&moves, Audience::General));
    assert!(desc.contains("At the start Hawks had the better chance: 52% against 48%."));
    assert!(desc.contains("move 2: Owls threw 10, and the chance of Owls went from 45% to 70%"));
    assert!(desc.contains("One throw was rarer than 1 in 16: move 2."));
    let young = words::description(&chart(&moves, Audience::Young));
    assert!(
        young.contains("from about 5 in 10 to about 7 in 10"),
        "{young}"
    );
}

#[test]
fn a_game_without_moves_is_one_point_and_names_are_escaped() {
    let mut c = chart(&[], Audience::General);
    c.sides = ["<b>&", "\"Q\""];
    let svg = chances_svg(&c);
    assert_eq!(svg.matches("class=\"point\"").count(), 1);
    assert!(!svg.contains("turning-point"));
    assert!(svg.contains("&lt;b&gt;&amp;"));
    assert!(!svg.contains("<b>&"));
    assert!(crate::png(&svg).is_ok());
}

/// A teacher's trial: the chart of a stopped game did not say it was
/// stopped, its key explained a rare-throw mark it did not show, it said
/// "threw" under the spinner, and the young chart spoke in percentages.
#[test]
fn regression_a_stopped_spinner_chart_for_the_young_said_threw_in_percent() {
    let moves = [
        mv(Side::A, 3, Odds::new(1, 7), 0.52, 0.55),
        mv(Side::B, 6, Odds::new(1, 7), 0.55, 0.30),
    ];
    let mut c = chart(&moves, Audience::Young);
    c.throw_table = crate::rules::ThrowTable::Spinner;
    c.result = ChartResult::of(Some(crate::rules::Outcome::Won { side: Side::B }), true);
    let svg = chances_svg(&c);
    assert!(svg.contains("stopped: Owls won on counters"), "{svg}");
    assert!(!svg.contains("Rare throw"), "{svg}");
    assert!(
        !svg.contains("threw") && svg.contains("Owls spun 6"),
        "{svg}"
    );
    assert!(
        svg.contains(">certain<") && svg.contains(">1 in 2<"),
        "{svg}"
    );
    assert!(!svg.contains(">50%<"), "{svg}");
    // Over, the lines end on who won (a child's "less than 1 in 10" for a
    // side that has lost was a teacher's complaint).
    assert!(
        svg.contains(">won (dashed)<") && svg.contains(">lost (solid)<"),
        "{svg}"
    );
    let desc = chances_description(&c);
    assert!(desc.contains("stopped after 2 moves: Owls won"), "{desc}");
    assert!(!desc.contains("rarer"), "{desc}");
    // The same game played to its end, for everyone: "won", percentages.
    let mut general = chart(&moves, Audience::General);
    general.result = ChartResult::of(Some(crate::rules::Outcome::Won { side: Side::B }), false);
    let svg = chances_svg(&general);
    assert!(svg.contains(">50%<") && svg.contains("Owls won)"), "{svg}");
}

/// A teacher's trial: the key squeezed a 40-character name into the room
/// of a short one, too narrow to read. A long name now takes two lines of
/// the key, each within its room; a short one keeps one line.
#[test]
fn regression_the_key_squeezed_a_long_name_unreadably() {
    let mut c = chart(&[], Audience::General);
    c.sides = ["Mrs Tsoodle's third grade at Anadarko 4", "Owls"];
    let svg = chances_svg(&c);
    let doc = svg.split("class=\"key\"").nth(1).expect("a key");
    assert!(doc.contains(">Mrs Tsoodle's third<"), "{svg}");
    assert!(doc.contains(">grade at Anadarko 4<"), "{svg}");
    assert!(doc.contains(">Owls<"), "{svg}");
}
