//! The narration catalogue: every citation resolves, every event kind is
//! narrated, nothing is copied from the seed documents, no stereotyped words.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;

use zohn_ahl::narration::{
    Audience, Cast, Catalogue, Citation, MoveContext, SegmentKind, catalogue, narrate_move,
    narrate_stop,
};
use zohn_ahl::rules::{
    CounterReason, Creek, Event, Face, Options, Seat, Side, Sticks, Throw, ThrowTable, WinReason,
};

fn all_texts(cat: &Catalogue) -> Vec<String> {
    let mut out = Vec::new();
    for p in cat.templates.events.values() {
        out.extend(p.general.iter().cloned());
        out.extend(p.young.iter().cloned());
        out.extend(p.scholar.iter().cloned());
    }
    for r in cat.templates.rules.values() {
        out.push(r.general.clone());
        out.extend(r.young.clone());
        out.extend(r.scholar.clone());
    }
    for f in &cat.facts {
        out.extend([f.general.clone(), f.young.clone(), f.scholar.clone()]);
    }
    for t in &cat.glossary {
        out.extend([t.meaning.clone(), t.young.clone()]);
    }
    for words in cat.features.values() {
        out.extend(words.values().cloned());
    }
    out
}

fn all_citations(cat: &Catalogue) -> Vec<&Citation> {
    let mut out: Vec<&Citation> = Vec::new();
    for r in cat.templates.rules.values() {
        out.extend(&r.citations);
    }
    for f in &cat.facts {
        out.extend(&f.citations);
    }
    for t in &cat.glossary {
        out.extend(&t.citations);
    }
    out
}

#[test]
fn the_catalogue_parses() {
    zohn_ahl::narration::Catalogue::load().expect("embedded data parses");
}

#[test]
fn every_citation_resolves_to_a_source() {
    let cat = catalogue();
    let ids: HashSet<&str> = cat.sources.iter().map(|s| s.id()).collect();
    assert_eq!(ids.len(), cat.sources.len(), "source ids are unique");
    for c in all_citations(cat) {
        assert!(
            ids.contains(c.source.as_str()),
            "unknown source {}",
            c.source
        );
    }
    for r in cat.templates.rules.values() {
        assert!(!r.citations.is_empty(), "a rule without citation");
    }
    for f in &cat.facts {
        assert!(!f.citations.is_empty(), "fact {} uncited", f.id);
    }
}

#[test]
fn facts_are_many_distinct_and_cover_the_event_topics() {
    let cat = catalogue();
    assert!(cat.facts.len() >= 25);
    let ids: HashSet<&str> = cat.facts.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids.len(), cat.facts.len());
    for topic in [
        "creek", "sticks", "stone", "awl", "counters", "circuit", "whip", "women",
    ] {
        assert!(
            cat.facts
                .iter()
                .filter(|f| f.tags.iter().any(|t| t == topic))
                .count()
                >= 2,
            "topic {topic}"
        );
    }
}

/// One of each event the engine can emit, with a throw to narrate it by.
fn every_event() -> Vec<Event> {
    let seat = Seat {
        side: Side::B,
        player: 0,
    };
    vec![
        Event::Moved {
            side: Side::A,
            from: 3,
            to: 9,
            steps: 6,
        },
        Event::PassedNorthCreek { side: Side::A },
        Event::CompletedCircuit {
            side: Side::A,
            circuits: 1,
            exact: false,
        },
        Event::CompletedCircuit {
            side: Side::A,
            circuits: 2,
            exact: true,
        },
        Event::FellIntoCreek {
            side: Side::A,
            creek: Creek::North,
            space: 20,
        },
        Event::FellIntoCreek {
            side: Side::A,
            creek: Creek::South,
            space: 40,
        },
        Event::Whipped {
            side: Side::A,
            victim: Side::B,
            space: 12,
        },
        Event::CounterPaid {
            payer: Side::B,
            payee: Side::A,
            reason: CounterReason::Whip,
            counters: [5, 3],
        },
        Event::CounterUnpaid {
            payer: Side::B,
            payee: Side::A,
            reason: CounterReason::CreekFall,
        },
        Event::ForcedPass {
            side: Side::A,
            value: 10,
        },
        Event::LandedOnDryBranch {
            side: Side::A,
            space: 10,
        },
        Event::LostThrow {
            side: Side::A,
            space: 11,
            extra_throw_lost: false,
        },
        Event::CrossedDryBranch {
            side: Side::A,
            from: 10,
            to: 31,
        },
        Event::TurnSkipped { seat },
        Event::ThrowsAgain { seat },
        Event::TurnPassed { seat },
        Event::Won {
            side: Side::A,
            reason: WinReason::AllCounters,
        },
        Event::Won {
            side: Side::A,
            reason: WinReason::Circuits,
        },
        Event::Drawn,
    ]
}

#[test]
fn every_event_kind_is_narrated_in_every_audience() {
    let options = Options::default();
    let cast = Cast {
        sides: ["Ama".into(), "Bea".into()],
        players: [vec!["Ama".into()], vec!["Bea".into()]],
    };
    let throw = Throw::Sticks(Sticks::new([
        Face::Flat,
        Face::Round,
        Face::Round,
        Face::Round,
    ]));
    let score = ThrowTable::SticksSahe.score(&throw).unwrap();
    for audience in [Audience::Young, Audience::General, Audience::Scholar] {
        for event in every_event() {
            let events = [event];
            let n = narrate_move(&MoveContext {
                options: &options,
                cast: &cast,
                audience,
                move_number: 5,
                seat: Seat {
                    side: Side::A,
                    player: 0,
                },
                throw: &throw,
                score: &score,
                events: &events,
                told: &[],
            });
            let event_segments: Vec<_> = n
                .segments
                .iter()
                .filter(|s| s.kind == SegmentKind::Event)
                .collect();
            assert_eq!(event_segments.len(), 2, "throw + {event:?} in {audience:?}");
            assert!(n.segments.iter().any(|s| s.kind == SegmentKind::Rule));
            for s in &n.segments {
                assert!(!s.text.trim().is_empty(), "{event:?}");
                assert!(!s.text.contains('{'), "placeholder left in {:?}", s.text);
                assert!(!s.citations.is_empty(), "{event:?} uncited");
            }
        }
        for (counters, event) in [
            (
                [5, 3],
                Event::Won {
                    side: Side::A,
                    reason: WinReason::Stopped,
                },
            ),
            ([4, 4], Event::Drawn),
        ] {
            let n = narrate_stop(&options, &cast, audience, counters, &event);
            assert!(
                n.segments
                    .iter()
                    .all(|s| !s.text.contains('{') && !s.citations.is_empty())
            );
        }
    }
}

/// Lower-cased words of a text, split on anything but letters.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// No run of 8 words of any seed document appears in the narration data:
/// facts come from the seeds, their sentences never do. Book titles are
/// exempt (a citation must name its book).
#[test]
fn no_eight_word_run_of_a_seed_is_copied() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/seeds");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("seed documents not found at {}; skipping", dir.display());
        return;
    };
    let mut runs = HashSet::new();
    for entry in entries {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
        let w = words(&text);
        for run in w.windows(8) {
            runs.insert(run.join(" "));
        }
    }
    assert!(!runs.is_empty(), "seed documents are empty");
    let titles: Vec<String> = catalogue()
        .sources
        .iter()
        .filter_map(|s| s.csl.get("title").and_then(|t| t.as_str()))
        .map(|t| words(t).join(" "))
        .collect();
    for text in all_texts(catalogue()) {
        for run in words(&text).windows(8) {
            let run = run.join(" ");
            if titles.iter().any(|t| t.contains(&run)) {
                continue;
            }
            assert!(
                !runs.contains(&run),
                "copied from a seed: {run:?} in {text:?}"
            );
        }
    }
}

#[test]
fn no_stereotyped_words() {
    const DENY: &[&str] = &[
        "squaw",
        "brave",
        "braves",
        "redskin",
        "redskins",
        "savage",
        "savages",
        "primitive",
        "princess",
        "papoose",
        "injun",
        "warpath",
        "powwow",
        "tribesmen",
        "extinct",
        "vanished",
    ];
    for text in all_texts(catalogue()) {
        for w in words(&text) {
            assert!(!DENY.contains(&w.as_str()), "{w:?} in {text:?}");
        }
    }
}
