//! Citations that say how they are known: a page nobody here has seen is
//! cited beside the source that reports it, in every list of the
//! narration's data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use serde_json::Value;
use zohn_ahl::narration::catalogue;

/// The narration's data files that carry citation lists.
const DATA: &[(&str, &str)] = &[
    (
        "templates.json",
        include_str!("../../crates/narration/src/data/templates.json"),
    ),
    (
        "facts.json",
        include_str!("../../crates/narration/src/data/facts.json"),
    ),
    (
        "lessons.json",
        include_str!("../../crates/narration/src/data/lessons.json"),
    ),
    (
        "glossary.json",
        include_str!("../../crates/narration/src/data/glossary.json"),
    ),
    (
        "features.json",
        include_str!("../../crates/narration/src/data/features.json"),
    ),
];

/// Every list of citations (`[{"source": …}, …]`) under `value`, with
/// where it is.
fn citation_lists<'v>(value: &'v Value, at: &str, out: &mut Vec<(String, &'v [Value])>) {
    match value {
        Value::Array(items)
            if !items.is_empty() && items.iter().all(|i| i.get("source").is_some()) =>
        {
            out.push((at.to_owned(), items));
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let name = item["id"]
                    .as_str()
                    .map_or_else(|| i.to_string(), str::to_owned);
                citation_lists(item, &format!("{at}/{name}"), out);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                citation_lists(v, &format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
}

/// Regression (a curator's trial): "culin1898, pp. 687-689" was printed
/// without the source those page numbers come from (Ludii's file, which
/// names them as its source) on 1,041 of 3,937 segments that cited it: a
/// reader could not tell where the pages came from. Every list that cites
/// a page recorded as reported (`locators_reported_by`) cites its reporter
/// too.
#[test]
fn regression_pages_not_seen_were_cited_without_the_source_that_reports_them() {
    let cat = catalogue();
    let mut reported: HashMap<(String, String), String> = HashMap::new();
    for source in &cat.sources {
        if let Some(by) = source.csl["custom"]["locators_reported_by"].as_object() {
            for (locator, reporter) in by {
                reported.insert(
                    (source.id().to_owned(), locator.clone()),
                    reporter.as_str().unwrap().to_owned(),
                );
            }
        }
    }
    assert!(reported.len() >= 5, "{reported:?}");
    let mut checked = 0;
    for (file, text) in DATA {
        let value: Value = serde_json::from_str(text).unwrap();
        let mut lists = Vec::new();
        citation_lists(&value, file, &mut lists);
        for (at, list) in lists {
            for c in list {
                let (Some(source), Some(locator)) = (c["source"].as_str(), c["locator"].as_str())
                else {
                    continue;
                };
                if let Some(reporter) = reported.get(&(source.to_owned(), locator.to_owned())) {
                    assert!(
                        list.iter().any(|o| o["source"] == reporter.as_str()),
                        "{at}: {source}, {locator} without {reporter}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} reported pages cited");
}

/// Regression (a curator's trial): a fact's sentence for children cited
/// every source its scholar's sentence draws on ("Two writers of the
/// 1890s, James Mooney and Stewart Culin, wrote about a Kiowa game" cited
/// Murray, Bell and Parlett, none of them read). A fact whose young text
/// says less cites, for the young, only what that text draws on: some of
/// its citations, never a source it does not have.
#[test]
fn regression_a_childrens_sentence_cited_the_scholars_sources() {
    let cat = catalogue();
    let mut narrowed = 0;
    for fact in &cat.facts {
        let Some(young) = &fact.young_citations else {
            continue;
        };
        assert!(!young.is_empty(), "{}", fact.id);
        for c in young {
            assert!(fact.citations.contains(c), "{}: {c:?}", fact.id);
        }
        assert!(young.len() < fact.citations.len(), "{}", fact.id);
        narrowed += 1;
    }
    let one = cat
        .facts
        .iter()
        .find(|f| f.id == "one-game-or-two")
        .unwrap();
    let cited: Vec<&str> = one
        .citations_for(zohn_ahl::narration::Audience::Young)
        .iter()
        .map(|c| c.source.as_str())
        .collect();
    for unread in ["murray1951", "bell1979", "parlett1999"] {
        assert!(!cited.contains(&unread), "{cited:?}");
    }
    assert!(narrowed >= 5, "{narrowed}");
}

/// Regression (a curator's trial): sentences stating this service's own
/// decisions cited a source that does not make them: the A4 torrent's
/// deadly near bank cited the sheet and Ludii (the sheet does not say
/// which cell, Ludii's board has no space 14), the extra throw kept after a
/// fall cited the sheet, and every lap of the A4 sheet earning a counter,
/// the draw of a stopped game, a dry gully's lost throw and the end of the
/// game on the square board cited the sheet alone. Each now cites what
/// decides it: this service's rules document (`zohn-ahl-rules`, at the
/// section that states the decision).
#[test]
fn regression_the_services_own_decisions_were_cited_to_sources_that_do_not_make_them() {
    use zohn_ahl::rules::Board;
    let cat = catalogue();
    let cites = |rule: &str, board: Board| -> Vec<String> {
        cat.templates.rules[rule]
            .cite_on(board)
            .iter()
            .map(|c| c.source.clone())
            .collect()
    };
    for rule in ["north_creek_near", "north_creek_far"] {
        let on_square = cites(rule, Board::Square28);
        assert!(
            on_square.contains(&"zohn-ahl-rules".to_owned()),
            "{rule}: {on_square:?}"
        );
        for not in ["ludii-zohnahl", "culin1898", "ludii-ev-118"] {
            assert!(
                !on_square.contains(&not.to_owned()),
                "{rule}: {on_square:?}"
            );
        }
    }
    for rule in [
        "extra_throw_from_sticks",
        "circuit_lap_a4",
        "stop_most_counters",
        "dry_branch_lose_throw",
    ] {
        for board in [Board::Circle40, Board::Square28] {
            let said = cites(rule, board);
            assert!(
                said.contains(&"zohn-ahl-rules".to_owned()),
                "{rule} {board:?}: {said:?}"
            );
        }
    }
    assert!(
        cites("counters_one_at_a_time", Board::Square28).contains(&"zohn-ahl-rules".to_owned())
    );
    // An awl safe on its start on the square board, the whip before the
    // fall: decisions (a second trial: the square board's whip rule named
    // Ludii and cited the encyclopedia).
    assert!(cites("whip", Board::Square28).contains(&"zohn-ahl-rules".to_owned()));
    assert!(cites("whip_then_fall", Board::Circle40).contains(&"zohn-ahl-rules".to_owned()));
    // The game ends the moment the last counter changes hands: the
    // service's choice, which Ludii's coding (checked after a move) does
    // not make.
    let counters = cites("counters_one_at_a_time", Board::Circle40);
    assert!(
        counters.contains(&"zohn-ahl-rules".to_owned()),
        "{counters:?}"
    );
    assert!(
        !counters.contains(&"ludii-zohnahl".to_owned()),
        "{counters:?}"
    );
    // The extra throw kept after a fall is Ludii's, not the sheet's.
    assert!(!cites("extra_throw_from_sticks", Board::Square28).contains(&"a4sheet".to_owned()));
    // Each section cited is one the rules document has: see
    // `regression_a_locator_named_a_section_that_says_something_else`.
}

/// A curator's trial: the A4 whips cited `zohn-ahl-rules, §4.8` ("No
/// whipping at a start") for the whip itself (§4.7), and the evidence page
/// listed fewer seen locators than the bibliography. Every locator cited of
/// the rules document names sections that docs/rules.md has, every one of
/// the A4 sheet names rules it has (1 to 10), and the evidence page lists
/// each source's seen locators as the bibliography does.
#[test]
fn regression_a_locator_named_a_section_that_says_something_else() {
    let rules = include_str!("../../docs/rules.md");
    let evidence = include_str!("../../docs/sources-and-evidence.md");
    let cat = catalogue();
    for source in &cat.sources {
        let Some(Value::Array(seen)) = source.csl["custom"].get("locators_seen") else {
            continue;
        };
        let seen: Vec<&str> = seen.iter().filter_map(Value::as_str).collect();
        let id = source.id();
        let row = evidence
            .lines()
            .find(|l| l.starts_with(&format!("| `{id}` |")))
            .unwrap_or_else(|| panic!("{id}: no row on the evidence page"));
        let listed = row
            .split("seen: ")
            .nth(1)
            .unwrap_or_else(|| panic!("{id}: no seen locators listed: {row}"));
        for l in &seen {
            assert!(listed.contains(l), "{id}: {l} not on the evidence page");
        }
        for l in &seen {
            let numbers: Vec<&str> = l
                .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .filter(|n| !n.is_empty())
                .collect();
            match id {
                "zohn-ahl-rules" => {
                    for n in numbers {
                        assert!(
                            rules.lines().any(|h| h.starts_with(&format!("### {n} "))),
                            "{l}: docs/rules.md has no section {n}"
                        );
                    }
                }
                "a4sheet" => {
                    for n in numbers {
                        let n: u8 = n.parse().unwrap();
                        assert!((1..=10).contains(&n), "{l}: the sheet has rules 1 to 10");
                    }
                }
                _ => {}
            }
        }
    }
    // The whip on the square board cites the whip's section and the
    // start's, not the start's alone.
    let whip = zohn_ahl::narration::rule_key_citations(
        &zohn_ahl::rules::Preset::A4.options(),
        zohn_ahl::narration::RuleId::Whip,
    );
    assert!(
        whip.iter()
            .any(|c| c.source == "zohn-ahl-rules" && c.locator.as_deref() == Some("§4.7 and §4.8")),
        "{whip:?}"
    );
}

/// A curator's trial: on the A4 sheet's square board the scholars heard
/// that the composite, Culin and Ludii agree on own 14 (they describe own
/// 20 of the circle), "29 minus a" cited the circle's numbering (§2.3),
/// the capture and the counters cited the sheet for words it does not use
/// ("whip", "awl") or without its rule 1, and the young move's "awl" cited
/// only the sheet, which says "a piece". On the square each of these names
/// what the sheet says and where the other words come from.
#[test]
fn regression_the_square_board_credited_the_sheet_with_the_circles_words() {
    use zohn_ahl::narration::{Audience, RuleId, rule_key_citations, rule_statement};
    use zohn_ahl::rules::Preset;
    let square = Preset::A4.options();
    let cites = |list: &[zohn_ahl::narration::Citation], source: &str, locator: Option<&str>| {
        list.iter()
            .any(|c| c.source == source && c.locator.as_deref() == locator)
    };
    let (north, north_cites) =
        rule_statement(&square, Audience::Scholar, RuleId::NorthCreekNear).unwrap();
    assert!(
        north.contains("own 20 of the circle") && !north.contains("agree"),
        "{north}"
    );
    assert!(north.contains("Own 14") && cites(&north_cites, "a4sheet", Some("rule 6")));
    let (mv, mv_cites) = rule_statement(&square, Audience::Scholar, RuleId::Move).unwrap();
    assert!(mv.contains("29 minus a"), "{mv}");
    assert!(cites(&mv_cites, "zohn-ahl-rules", Some("§2.5")));
    assert!(!cites(&mv_cites, "zohn-ahl-rules", Some("§2.3")));
    // The circle keeps its own.
    let circle = Preset::Composite.options();
    let (_, circle_cites) = rule_statement(&circle, Audience::Scholar, RuleId::Move).unwrap();
    assert!(cites(&circle_cites, "zohn-ahl-rules", Some("§2.3")));
    // The awl, the whip's word and the counters' rules.
    let young_move = rule_key_citations(&square, RuleId::Move);
    assert!(cites(&young_move, "ludii-ev-118", None), "{young_move:?}");
    let whip = rule_key_citations(&square, RuleId::Whip);
    assert!(cites(&whip, "wp-zohnahl", None) && cites(&whip, "a4sheet", Some("rule 8")));
    let (whip_text, _) = rule_statement(&square, Audience::Scholar, RuleId::Whip).unwrap();
    assert!(whip_text.contains("captured"), "{whip_text}");
    let counters = rule_key_citations(&square, RuleId::CountersOneAtATime);
    assert!(
        cites(&counters, "a4sheet", Some("rules 1 and 10")),
        "{counters:?}"
    );
}
