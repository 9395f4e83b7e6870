//! The narration catalogue: every citation resolves, every event kind is
//! narrated, nothing is copied from the seed documents, no stereotyped words.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;

use zohn_ahl::narration::{
    Audience, Cast, Catalogue, Citation, MoveContext, SegmentKind, catalogue, narrate_move,
    narrate_stop,
};
use zohn_ahl::rules::{
    CounterReason, Creek, Event, Face, Preset, Seat, Side, SpinnerSector, Sticks, Throw,
    ThrowTable, WinReason,
};

fn all_texts(cat: &Catalogue) -> Vec<String> {
    let mut out = Vec::new();
    for p in cat.templates.events.values() {
        out.extend(p.all().cloned());
    }
    for r in cat.templates.rules.values() {
        out.extend([r.general.clone(), r.young.clone(), r.scholar.clone()]);
        out.extend(r.short.all().cloned());
    }
    for f in &cat.facts {
        out.extend([f.general.clone(), f.young.clone(), f.scholar.clone()]);
    }
    for t in &cat.glossary {
        out.extend([t.meaning.clone(), t.young.clone()]);
    }
    for words in cat.features.values() {
        out.extend(words.all().cloned());
    }
    out
}

fn all_citations(cat: &Catalogue) -> Vec<&Citation> {
    let mut out: Vec<&Citation> = Vec::new();
    for r in cat.templates.rules.values() {
        out.extend(&r.citations);
        out.extend(&r.cite);
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
fn every_event_kind_is_narrated_in_every_audience_and_preset() {
    for preset in Preset::ALL {
        let options = preset.options();
        let cast = Cast {
            sides: ["Ama".into(), "Bea".into()],
            players: [vec!["Ama".into()], vec!["Bea".into(), "Cy".into()]],
        };
        let throws = if options.throw_table == ThrowTable::Spinner {
            vec![
                Throw::Spinner(SpinnerSector::One),
                Throw::Spinner(SpinnerSector::BlueThree),
            ]
        } else {
            vec![
                Throw::Sticks(Sticks::new([
                    Face::Flat,
                    Face::Round,
                    Face::Round,
                    Face::Round,
                ])),
                Throw::Sticks(Sticks::new([Face::Round; 4])),
            ]
        };
        for throw in throws {
            let score = options.throw_table.score(&throw).unwrap();
            for audience in Audience::ALL {
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
                        previous: None,
                    });
                    let event_segments: Vec<_> = n
                        .segments
                        .iter()
                        .filter(|s| s.kind == SegmentKind::Event)
                        .collect();
                    assert_eq!(
                        event_segments.len(),
                        2,
                        "throw + {event:?} in {audience:?}, {preset:?}"
                    );
                    assert!(n.segments.iter().any(|s| s.kind == SegmentKind::Rule));
                    for s in &n.segments {
                        assert!(!s.text.trim().is_empty(), "{event:?}");
                        assert!(
                            !s.text.contains('{') && !s.text.contains('}'),
                            "placeholder left in {:?}",
                            s.text
                        );
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
                    assert!(n.segments.iter().all(|s| !s.text.contains('{')
                        && !s.text.trim().is_empty()
                        && !s.citations.is_empty()));
                }
            }
        }
    }
}

/// Every event template, rule statement and word list gives each audience
/// at least two phrasings, so consecutive moves can always differ.
#[test]
fn every_phrasing_list_has_at_least_two_entries() {
    let cat = catalogue();
    for (key, p) in &cat.templates.events {
        for a in Audience::ALL {
            assert!(p.for_audience(a).len() >= 2, "event {key} in {a:?}");
        }
    }
    for (key, r) in &cat.templates.rules {
        for a in Audience::ALL {
            assert!(r.short.for_audience(a).len() >= 2, "rule {key} in {a:?}");
        }
        assert!(
            (1..=2).contains(&r.cite.len()),
            "rule {key}: cite one or two sources"
        );
        for c in &r.cite {
            assert!(
                r.citations.contains(c),
                "rule {key}: {c:?} among its citations"
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

/// CSL-JSON 1.0.2 item types.
const CSL_TYPES: &[&str] = &[
    "article",
    "article-journal",
    "article-magazine",
    "article-newspaper",
    "bill",
    "book",
    "broadcast",
    "chapter",
    "classic",
    "collection",
    "dataset",
    "document",
    "entry",
    "entry-dictionary",
    "entry-encyclopedia",
    "event",
    "figure",
    "graphic",
    "hearing",
    "interview",
    "legal_case",
    "legislation",
    "manuscript",
    "map",
    "motion_picture",
    "musical_score",
    "pamphlet",
    "paper-conference",
    "patent",
    "performance",
    "periodical",
    "personal_communication",
    "post",
    "post-weblog",
    "regulation",
    "report",
    "review",
    "review-book",
    "software",
    "song",
    "speech",
    "standard",
    "thesis",
    "treaty",
    "webpage",
];

/// CSL-JSON 1.0.2 name variables.
const CSL_NAMES: &[&str] = &[
    "author",
    "chair",
    "collection-editor",
    "compiler",
    "composer",
    "container-author",
    "contributor",
    "curator",
    "director",
    "editor",
    "editorial-director",
    "executive-producer",
    "guest",
    "host",
    "interviewer",
    "illustrator",
    "narrator",
    "organizer",
    "original-author",
    "performer",
    "producer",
    "recipient",
    "reviewed-author",
    "script-writer",
    "series-creator",
    "translator",
];

/// CSL-JSON 1.0.2 date variables.
const CSL_DATES: &[&str] = &[
    "accessed",
    "available-date",
    "event-date",
    "issued",
    "original-date",
    "submitted",
];

/// CSL-JSON 1.0.2 standard (string or number) variables.
const CSL_STANDARD: &[&str] = &[
    "id",
    "type",
    "citation-key",
    "language",
    "journalAbbreviation",
    "shortTitle",
    "abstract",
    "annote",
    "archive",
    "archive_collection",
    "archive_location",
    "archive-place",
    "authority",
    "call-number",
    "chapter-number",
    "citation-number",
    "citation-label",
    "collection-number",
    "collection-title",
    "container-title",
    "container-title-short",
    "dimensions",
    "division",
    "DOI",
    "edition",
    "event",
    "event-title",
    "event-place",
    "first-reference-note-number",
    "genre",
    "ISBN",
    "ISSN",
    "issue",
    "jurisdiction",
    "keyword",
    "locator",
    "medium",
    "note",
    "number",
    "number-of-pages",
    "number-of-volumes",
    "original-publisher",
    "original-publisher-place",
    "original-title",
    "page",
    "page-first",
    "part",
    "part-title",
    "PMCID",
    "PMID",
    "printing",
    "publisher",
    "publisher-place",
    "references",
    "reviewed-genre",
    "reviewed-title",
    "scale",
    "section",
    "source",
    "status",
    "supplement",
    "title",
    "title-short",
    "URL",
    "version",
    "volume",
    "volume-title",
    "volume-title-short",
    "year-suffix",
];

/// Every source is a valid CSL-JSON 1.0.2 item: a known type, only CSL
/// variables, names as name objects, dates as `date-parts`, and its rights
/// status (and how the research reached it) in `custom`.
#[test]
fn every_source_is_a_valid_csl_item_with_its_rights() {
    use serde_json::Value;
    for source in &catalogue().sources {
        let item = &source.csl;
        let id = source.id();
        assert!(
            !id.is_empty()
                && id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{id}"
        );
        let ty = item["type"].as_str().unwrap_or_default();
        assert!(CSL_TYPES.contains(&ty), "{id}: type {ty:?}");
        assert!(item["title"].is_string(), "{id}: a title");
        for (key, value) in item {
            let key = key.as_str();
            if CSL_NAMES.contains(&key) {
                for name in value.as_array().unwrap() {
                    let obj = name.as_object().unwrap();
                    assert!(
                        obj.contains_key("family") || obj.contains_key("literal"),
                        "{id}: {key} {name}"
                    );
                    for (k, v) in obj {
                        assert!(
                            [
                                "family",
                                "given",
                                "dropping-particle",
                                "non-dropping-particle",
                                "suffix",
                                "literal"
                            ]
                            .contains(&k.as_str())
                                && v.is_string(),
                            "{id}: {key}.{k}"
                        );
                    }
                }
            } else if CSL_DATES.contains(&key) {
                let parts = value["date-parts"].as_array().unwrap();
                assert!(!parts.is_empty() && parts.len() <= 2, "{id}: {key}");
                for part in parts {
                    let part = part.as_array().unwrap();
                    assert!((1..=3).contains(&part.len()), "{id}: {key}");
                    assert!(part.iter().all(Value::is_i64), "{id}: {key}");
                }
            } else if key == "custom" {
                let rights = value["rights"].as_str().unwrap_or_default();
                assert!(
                    ["public-domain", "in-copyright", "cc-by-sa", "unknown"].contains(&rights),
                    "{id}: rights {rights:?}"
                );
                assert!(value["access"].is_string(), "{id}: custom.access");
            } else {
                assert!(CSL_STANDARD.contains(&key), "{id}: {key} is not CSL");
                assert!(value.is_string() || value.is_number(), "{id}: {key}");
            }
        }
        assert!(item.contains_key("custom"), "{id}: no custom");
    }
}

/// A citation of a paged source (a book, chapter, article or report) says
/// where in it: every such citation carries a locator.
#[test]
fn every_citation_of_a_paged_source_has_a_locator() {
    let cat = catalogue();
    for c in all_citations(cat) {
        let ty = cat.source(&c.source).unwrap().csl["type"]
            .as_str()
            .unwrap_or_default();
        if [
            "book",
            "chapter",
            "article-journal",
            "article-magazine",
            "report",
        ]
        .contains(&ty)
        {
            assert!(
                c.locator.as_deref().is_some_and(|l| !l.trim().is_empty()),
                "{} cited without a page",
                c.source
            );
        }
    }
}

#[test]
fn glossary_terms_have_meaning_language_citations_and_no_guessed_pronunciation() {
    let cat = catalogue();
    let ids: HashSet<&str> = cat.glossary.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids.len(), cat.glossary.len(), "term ids are unique");
    for t in &cat.glossary {
        assert!(!t.meaning.trim().is_empty(), "{}", t.id);
        assert!(!t.young.trim().is_empty(), "{}", t.id);
        assert!(
            ["Kiowa", "Arapaho", "English"].contains(&t.language.as_str()),
            "{}",
            t.id
        );
        assert!(!t.citations.is_empty(), "{} uncited", t.id);
        // No source consulted gives a pronunciation, so none is offered.
        assert!(t.pronunciation.is_none(), "{}: pronunciation", t.id);
        for r in &t.related {
            assert!(ids.contains(r.as_str()), "{} relates to unknown {r}", t.id);
        }
    }
    for id in [
        "zohn",
        "ahl",
        "sahe",
        "tsona",
        "awl",
        "creek",
        "dry-branch",
        "torrent",
        "dry-gully",
        "whip",
    ] {
        assert!(ids.contains(id), "{id} in the glossary");
    }
}

/// Texts for the young audience, with their placeholders removed.
fn young_texts(cat: &Catalogue) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in cat.templates.events.values() {
        out.extend(p.young.iter().cloned());
    }
    for r in cat.templates.rules.values() {
        out.push(r.young.clone());
        out.extend(r.short.young.iter().cloned());
    }
    for f in &cat.facts {
        out.push(f.young.clone());
    }
    for t in &cat.glossary {
        out.push(t.young.clone());
    }
    for w in cat.features.values() {
        out.push(w.young.clone());
    }
    let words = &cat.templates.words;
    let s = &words.sahe.young;
    for list in [&s.one_with, &s.one_without, &s.three_with, &s.three_without] {
        out.extend(list.iter().cloned());
    }
    out.into_iter()
        .map(|t| {
            let mut plain = String::new();
            let mut depth = 0;
            for c in t.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    c if depth == 0 => plain.push(c),
                    _ => {}
                }
            }
            plain
        })
        .collect()
}

/// For ages 7-10, every Kiowa word is explained where it is used.
#[test]
fn young_texts_explain_every_kiowa_word() {
    let glosses = [
        ("zohn", "creek"),
        ("ahl", "wood"),
        ("sahe", "green"),
        ("tsoñä", "awl"),
        ("tsoñ", "awl"),
    ];
    for text in young_texts(catalogue()) {
        let lower = text.to_lowercase();
        let w = words(&text);
        for (word, gloss) in glosses {
            if w.iter().any(|x| x == word) {
                assert!(lower.contains(gloss), "{word} unexplained in {text:?}");
            }
        }
    }
}

/// For ages 7-10: short sentences and no jargon.
#[test]
fn young_texts_are_short_and_plain() {
    const JARGON: &[&str] = &[
        "circuit",
        "ruleset",
        "composite",
        "configuration",
        "forfeit",
        "forfeits",
        "reconstruction",
        "ethnographer",
        "ethnographers",
        "respectively",
        "modelling",
        "penalty",
        "hazard",
        "counter",
        "counters",
        "glossed",
        "summarised",
    ];
    let cat = catalogue();
    let glossary: Vec<&str> = cat.glossary.iter().map(|t| t.young.as_str()).collect();
    for text in young_texts(cat) {
        for sentence in text.split_inclusive(['.', '!', '?']) {
            let n = sentence.split_whitespace().count();
            assert!(n <= 20, "{n} words for ages 7-10: {sentence:?}");
        }
        // The glossary explains the words themselves.
        if glossary.iter().any(|g| g.contains(text.trim())) {
            continue;
        }
        for w in words(&text) {
            assert!(!JARGON.contains(&w.as_str()), "{w:?} in {text:?}");
        }
    }
}

/// The Kiowa are a living nation: the people are spoken of in the present
/// tense (the historical record in the past), and the game is named as a
/// Kiowa women's and girls' game, first, in every audience.
#[test]
fn the_kiowa_are_spoken_of_in_the_present() {
    const PAST: &[&str] = &[
        "kiowa were",
        "kiowa was",
        "kiowa had",
        "kiowa used to",
        "kiowa lived",
        "kiowa believed",
        "kiowa once",
        "kiowa people were",
        "kiowa people had",
    ];
    let cat = catalogue();
    for text in all_texts(cat) {
        let lower = text.to_lowercase();
        for p in PAST {
            assert!(!lower.contains(p), "{p:?} in {text:?}");
        }
    }
    assert!(
        cat.facts
            .iter()
            .any(|f| f.general.contains("The Kiowa are a living nation")),
        "a fact says the Kiowa are a living nation"
    );
    let first = &cat.facts[0];
    for text in [&first.general, &first.young, &first.scholar] {
        assert!(
            text.contains("Kiowa") && text.contains("women") && text.contains("girls"),
            "{text}"
        );
    }
}

/// A fact that presupposes an option (the 40-space cloth, the near bank,
/// the sahe's extra throws) is only told in games played with it.
#[test]
fn facts_that_presuppose_an_option_fit_only_games_with_it() {
    use zohn_ahl::rules::{Board, DeadlyNorthBank, Options, Preset};
    let cat = catalogue();
    let fact = |id: &str| cat.facts.iter().find(|f| f.id == id).expect(id);
    let composite = Preset::Composite.options();
    let a4 = Preset::A4.options();
    assert!(fact("forty-points").fits(&composite));
    assert_eq!(a4.board, Board::Square28);
    assert!(!fact("forty-points").fits(&a4));
    let far = Options {
        deadly_north_bank: DeadlyNorthBank::Far,
        ..Options::default()
    };
    assert!(!fact("north-creek-fall").fits(&far));
    assert!(fact("north-creek-fall").fits(&composite));
    // Every option a fact names is one of the ruleset's, by the name the
    // API gives it (the catalogue would not load otherwise).
    let names = serde_json::to_value(composite).unwrap();
    for f in &cat.facts {
        for key in serde_json::to_value(f.when)
            .unwrap()
            .as_object()
            .unwrap()
            .keys()
        {
            assert!(names.get(key).is_some(), "fact {}: {key}", f.id);
        }
    }
    let conditional = cat.facts.iter().filter(|f| !f.when.is_empty()).count();
    assert_eq!(conditional, 5, "facts told only under some options");
}
