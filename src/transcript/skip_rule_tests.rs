//! A long game read aloud in a lesson's time: the rules its stretches
//! told in short state, heard once and where they act; a long stretch
//! split where a side takes the lead.
#![allow(clippy::unwrap_used)]

use std::cmp::Ordering;

use super::read_aloud::{Paragraph, READ_ALOUD_WORDS_A_MINUTE, SHORT_LESSON_MINUTES, Told};
use super::skip::{LONG_STRETCH, SPLIT_MARGIN_PERCENT};
use super::skip_tests::read_in;
use super::tests::young_lesson;
use super::*;
use crate::narration::{RuleId, SKIP_MIN};
use crate::rules::Event;

/// A teacher's trial: the south creek's rule, stated in a stretch told
/// in short, came again in short a few throws after it (and a fact on
/// the same space beside it): three times in a few minutes. A rule a
/// stretch states is not restated in short within `REMIND_AFTER` moves.
#[test]
fn regression_a_rule_told_in_a_stretch_was_restated_a_few_throws_on() {
    let mut checked = 0;
    for preset in [Preset::Composite, Preset::Culin1898, Preset::Boxed] {
        for seed in 1..=12 {
            let at = format!("{preset:?} seed {seed}");
            let game = narrated_game(&seed.to_string(), preset, Audience::Young).unwrap();
            let (told, paragraphs, skips) = read_in(&game, Audience::Young, SHORT_LESSON_MINUTES);
            for skip in &skips {
                let Some(text) = paragraphs
                    .iter()
                    .filter(|p| p.told == Told::Skip && p.moves.start == skip.start)
                    .map(|p| p.text.clone())
                    .reduce(|a, b| a + " " + &b)
                else {
                    continue;
                };
                let window = skip.end..skip.end + crate::narration::REMIND_AFTER as usize;
                // The short forms the moves in the window were planned with.
                for stated in told[skip.clone()]
                    .iter()
                    .flat_map(|t| &t.segments)
                    .filter(|s| s.kind == SegmentKind::Rule && text.contains(&s.text))
                {
                    for brief in told
                        .iter()
                        .take(window.end)
                        .skip(window.start)
                        .flat_map(|t| &t.segments)
                        .filter(|s| s.kind == SegmentKind::Rule && s.brief && s.rule == stated.rule)
                    {
                        checked += 1;
                        assert!(
                            paragraphs
                                .iter()
                                .filter(|p| window.contains(&p.moves.start))
                                .all(|p| !p.text.contains(&brief.text)),
                            "{at}: {}",
                            brief.text
                        );
                    }
                }
            }
        }
    }
    assert!(checked > 0, "no short restatement came near a stretch");
}

/// A teacher's trial: the extra throw's rule first acted in a stretch
/// told in short and was never told; a fall told in full later ended
/// "Side A again!", heard as "a fall earns a throw". A move told in full
/// that keeps its extra throw after a fall, a whip or a forced pass comes
/// after the rule's first statement, heard there or before.
#[test]
fn regression_a_fall_told_in_full_threw_again_unexplained() {
    let extra = Some(RuleId::ExtraThrowFromSticks.key());
    let mut checked = 0;
    for seed in 1..=12 {
        let game = narrated_game(&seed.to_string(), Preset::Composite, Audience::Young).unwrap();
        let (told, paragraphs, skips) = read_in(&game, Audience::Young, SHORT_LESSON_MINUTES);
        let Some(first) = told
            .iter()
            .flat_map(|t| &t.segments)
            .find(|s| s.kind == SegmentKind::Rule && s.rule.as_deref() == extra)
        else {
            continue;
        };
        for (i, m) in game.moves.iter().enumerate() {
            let kept = m.events.iter().any(|e| {
                matches!(
                    e,
                    Event::FellIntoCreek { .. } | Event::Whipped { .. } | Event::ForcedPass { .. }
                )
            }) && m
                .events
                .iter()
                .any(|e| matches!(e, Event::ThrowsAgain { .. }));
            if !kept || skips.iter().any(|s| s.contains(&i)) {
                continue;
            }
            checked += 1;
            assert!(
                paragraphs
                    .iter()
                    .filter(|p| p.moves.start <= i)
                    .any(|p| p.text.contains(&first.text)),
                "seed {seed}: move {}",
                i + 1
            );
        }
    }
    assert!(
        checked > 5,
        "{checked} moves kept an extra throw after a fall"
    );
}

/// A teacher's trial: in a long game read aloud in ten minutes one
/// paragraph told 176 of 255 throws (composite seed 1), and the lead in
/// counting sticks changed hands inside it unheard. A stretch longer than
/// [`LONG_STRETCH`] moves is told as two, a turn where a side takes the
/// lead told in full between them, while the game reads within
/// [`SPLIT_MARGIN_PERCENT`] more than its minutes; the note says so. A
/// stretch tells the high point of a lead inside it, when news.
#[test]
fn regression_one_paragraph_told_176_of_255_throws_the_lead_changing_inside() {
    let limit =
        SHORT_LESSON_MINUTES * READ_ALOUD_WORDS_A_MINUTE * (100 + SPLIT_MARGIN_PERCENT) / 100;
    let (mut splits, mut peaks) = (0, 0);
    for seed in 1..=30 {
        let at = format!("seed {seed}");
        let game = narrated_game(&seed.to_string(), Preset::Composite, Audience::Young).unwrap();
        let (_, paragraphs, skips) = read_in(&game, Audience::Young, SHORT_LESSON_MINUTES);
        let moves = &game.moves;
        let firsts: Vec<usize> = [
            (|e: &Event| matches!(e, Event::FellIntoCreek { .. })) as fn(&Event) -> bool,
            |e| matches!(e, Event::Whipped { .. }),
            |e| matches!(e, Event::CompletedCircuit { .. }),
        ]
        .into_iter()
        .filter_map(|kind| moves.iter().position(|m| m.events.iter().any(kind)))
        .collect();
        // Who leads in counting sticks after move `k` (1-based).
        let leader = |k: usize| {
            let [a, b] = moves[k - 1].state.counters;
            a.cmp(&b)
        };
        let mut here = 0;
        for pair in skips.windows(2) {
            let told = pair[0].end..pair[1].start;
            if firsts.iter().any(|f| told.contains(f)) {
                continue;
            }
            // Told in full between two stretches without a first fall,
            // whip or trip around: a turn where a side takes the lead.
            here += 1;
            let (before, after) = (leader(told.start), leader(told.end));
            assert!(
                after != Ordering::Equal && after != before,
                "{at}: {told:?}"
            );
            assert!(
                pair[0].len() >= SKIP_MIN && pair[1].len() >= SKIP_MIN,
                "{at}"
            );
            assert!(
                pair[0].len() + told.len() + pair[1].len() > LONG_STRETCH,
                "{at}"
            );
        }
        // The high point of a lead inside a stretch, when news, said
        // with the counting sticks there (a teacher's trial: Side B one
        // from winning inside a stretch, unheard).
        for skip in &skips {
            let text: String = paragraphs
                .iter()
                .filter(|p| p.told == Told::Skip && p.moves.start == skip.start)
                .map(|p| p.text.as_str())
                .collect();
            let after: Vec<[u8; 2]> = moves[skip.clone()]
                .iter()
                .map(|m| m.state.counters)
                .collect();
            let before = moves[skip.start - 1].state.counters;
            let total = game.options.total_counters();
            match crate::narration::Skipped::peak_of(before, &after, total) {
                Some([a, b]) => {
                    peaks += 1;
                    assert!(after.contains(&[a, b]), "{at}: {skip:?}");
                    let said = format!("Side A {a}, Side B {b}.");
                    let (_, peak) = text.split_once("counting sticks were").unwrap();
                    assert!(peak.contains(&said), "{at}: {said}: {text}");
                    let near = ["would have gone to", "would have meant a win"];
                    assert_eq!(
                        near.iter().any(|n| text.contains(n)),
                        (a + 1 == total || b + 1 == total)
                            && game.options.end_check == crate::rules::EndCheck::Immediate,
                        "{at}: {text}"
                    );
                }
                None => assert!(!text.contains("counting sticks were"), "{at}: {text}"),
            }
        }
        let words: usize = paragraphs.iter().map(Paragraph::words).sum();
        if here > 0 {
            assert!(words <= limit, "{at}: {words} words");
        }
        splits += here;
        // The longest paragraph of seed 1 is now less than half its game.
        if seed == 1 {
            assert!(here > 0, "{at}: {skips:?}");
            assert!(
                skips.iter().all(|s| s.len() * 2 < moves.len()),
                "{at}: {skips:?}"
            );
        }
        // The note says so, in the board's words for the counting sticks.
        let request = TranscriptRequest {
            minutes: Some(SHORT_LESSON_MINUTES),
            ..young_lesson(&seed.to_string(), None, true)
        };
        let note = transcript_of(&request).unwrap();
        let note = note.split_once("\n\n").unwrap().0;
        assert_eq!(
            note.contains("takes the lead in counting sticks"),
            here > 0,
            "{at}: {note}"
        );
    }
    assert!(splits >= 5, "{splits} long stretches told as two");
    assert!(peaks >= 5, "{peaks} high points told");
}

/// A game that reads long but whose middle, left after its opening and
/// ending, was shorter than `SKIP_MIN` moves was read whole: an a4 game
/// (seed `figures-36`) in 13 minutes at the default 10. The opening and
/// the ending now take less, and a stretch is told in short.
#[test]
fn regression_an_a4_game_was_read_whole_in_13_minutes() {
    let game = narrated_game("figures-36", Preset::A4, Audience::Young).unwrap();
    let (_, paragraphs, skips) = read_in(&game, Audience::Young, SHORT_LESSON_MINUTES);
    let words: usize = paragraphs.iter().map(Paragraph::words).sum();
    assert!(!skips.is_empty());
    assert!(
        words <= SHORT_LESSON_MINUTES * READ_ALOUD_WORDS_A_MINUTE * 6 / 5,
        "{words} words"
    );
}
