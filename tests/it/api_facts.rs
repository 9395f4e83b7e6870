//! Every id a narration carries resolves: the facts of context segments at
//! `/v1/facts/{id}`, the rules of event and rule segments at
//! `/v1/rules/{id}`, and unknown ids are 404 problems.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::BTreeSet;

use actix_web::test;
use common::{TestDb, get, post_json, send};
use serde_json::{Value, json};
use zohn_ahl::narration::{Audience, RuleId, catalogue, in_games};
use zohn_ahl::rules::Preset;
use zohn_ahl::transcript::narrated_game;

const SEEDS: &[&str] = &["lesson-1", "lesson-4", "api-facts"];

fn key<T: serde::Serialize>(v: T) -> String {
    serde_json::to_value(v)
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned()
}

/// The fact and rule ids that seeded games of `preset` narrate.
fn narrated_ids(preset: Preset) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut facts, mut rules) = (BTreeSet::new(), BTreeSet::new());
    for seed in SEEDS {
        let game = narrated_game(seed, preset, Audience::General).unwrap();
        for m in &game.moves {
            for s in &m.narration.segments {
                facts.extend(s.fact.clone());
                rules.extend(s.rule.clone());
            }
        }
    }
    (facts, rules)
}

#[actix_web::test]
async fn every_fact_and_rule_a_narrated_game_names_resolves() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let listed = send(&app, get("/v1/facts")).await;
    assert_eq!(listed.status.as_u16(), 200);
    let listed: BTreeSet<String> = listed.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap().to_owned())
        .collect();
    for preset in Preset::ALL {
        let p = key(preset);
        let (facts, rules) = narrated_ids(preset);
        assert!(facts.len() >= 5, "{p}: {facts:?}");
        assert!(rules.len() >= 5, "{p}: {rules:?}");
        for id in &facts {
            assert!(listed.contains(id), "{id} listed");
            let r = send(&app, get(&format!("/v1/facts/{id}"))).await;
            assert_eq!(r.status.as_u16(), 200, "{p}: fact {id}");
            let fact = r.json();
            assert_eq!(fact["id"], id.as_str());
            let told_in: Vec<&str> = fact["told_in_presets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            assert!(
                told_in.contains(&p.as_str()),
                "{p}: fact {id} told in {told_in:?}"
            );
        }
        for id in &rules {
            let r = send(&app, get(&format!("/v1/rules/{id}?preset={p}"))).await;
            assert_eq!(r.status.as_u16(), 200, "{p}: rule {id}");
            let rule = r.json();
            assert_eq!(rule["id"], id.as_str());
            assert_eq!(rule["in_play"], true, "{p}: rule {id} stated in its games");
            let r = send(&app, get(&format!("/v1/rules/{id}"))).await;
            assert_eq!(r.status.as_u16(), 200, "rule {id} for the composite");
        }
    }
}

/// The ids a game played over HTTP narrates resolve too.
#[actix_web::test]
async fn the_ids_of_a_game_played_over_http_resolve() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let created = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"sides": {"a": {"name": "Ama"}, "b": {"name": "Bea"}}, "seed": "lesson-4"}),
        ),
    )
    .await;
    assert_eq!(created.status.as_u16(), 201);
    let id = created.json()["id"].as_str().unwrap().to_owned();
    let (mut facts, mut rules) = (BTreeSet::new(), BTreeSet::new());
    for _ in 0..30 {
        let r = send(
            &app,
            test::TestRequest::post().uri(&format!("/v1/games/{id}/throws")),
        )
        .await;
        if r.status.as_u16() != 201 {
            break;
        }
        for s in r.json()["narration"]["segments"].as_array().unwrap() {
            if let Some(f) = s["fact"].as_str() {
                facts.insert(f.to_owned());
            }
            if let Some(rule) = s["rule"].as_str() {
                rules.insert(rule.to_owned());
            }
        }
    }
    assert!(!facts.is_empty() && !rules.is_empty());
    for f in &facts {
        assert_eq!(send(&app, get(&format!("/v1/facts/{f}"))).await.status, 200);
    }
    for r in &rules {
        assert_eq!(send(&app, get(&format!("/v1/rules/{r}"))).await.status, 200);
    }
}

#[actix_web::test]
async fn unknown_ids_are_404_problems() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let p = send(&app, get("/v1/facts/no-such-fact")).await.problem(404);
    assert_eq!(p["type"], "/problems/fact-not-found");
    let p = send(&app, get("/v1/rules/no_such_rule")).await.problem(404);
    assert_eq!(p["type"], "/problems/rule-not-found");
    // A rule id is written as in segments, in snake case.
    send(&app, get("/v1/rules/SticksSahe")).await.problem(404);
    // A malformed fact id and an unknown preset are the request's fault.
    send(&app, get("/v1/facts/Not_An_Id")).await.problem(400);
    let p = send(&app, get("/v1/rules?preset=chess")).await.problem(400);
    assert!(p["detail"].as_str().unwrap().contains("composite"), "{p}");
    send(&app, get("/v1/rules/whip?preset=chess"))
        .await
        .problem(400);
}

/// `/v1/facts` serves the catalogue: every fact with its three texts, its
/// grade, its citations, its conditions and where it is told.
#[actix_web::test]
async fn facts_carry_texts_grades_conditions_and_where_they_are_told() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let body = send(&app, get("/v1/facts")).await.json();
    let served = body["items"].as_array().unwrap();
    let cat = catalogue();
    assert_eq!(served.len(), cat.facts.len());
    for (view, fact) in served.iter().zip(&cat.facts) {
        assert_eq!(view["id"], fact.id.as_str());
        assert_eq!(view["text"]["general"], fact.general.as_str());
        assert_eq!(view["text"]["young"], fact.young.as_str());
        assert_eq!(view["text"]["scholar"], fact.scholar.as_str());
        assert_eq!(view["grade"], key(fact.grade));
        assert_eq!(view["tags"], json!(fact.tags));
        assert_eq!(
            view["citations"].as_array().unwrap().len(),
            fact.citations.len()
        );
        // The conditions, each as a list of the values the fact fits.
        let when = serde_json::to_value(&fact.when).unwrap();
        let as_lists: serde_json::Map<String, Value> = when
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| {
                let list = if v.is_array() { v.clone() } else { json!([v]) };
                (k.clone(), list)
            })
            .collect();
        // Every option is named; one the fact does not depend on is `null`.
        let named: serde_json::Map<String, Value> = view["when"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        assert_eq!(
            view["when"].as_object().unwrap().len(),
            zohn_ahl::rules::option_specs().len(),
            "{}",
            fact.id
        );
        assert_eq!(named, as_lists, "{}", fact.id);
        assert_eq!(
            view["in_games"],
            in_games(fact, &zohn_ahl::rules::Options::default())
        );
        let presets: Vec<String> = Preset::ALL
            .into_iter()
            .filter(|p| in_games(fact, &p.options()))
            .map(key)
            .collect();
        assert_eq!(view["told_in_presets"], json!(presets), "{}", fact.id);
        let audiences: Vec<&str> = Audience::ALL
            .into_iter()
            .filter(|&a| fact.told_to(a))
            .map(Audience::key)
            .collect();
        assert_eq!(view["audiences"], json!(audiences), "{}", fact.id);
        assert_eq!(view["retells"], json!(fact.rule), "{}", fact.id);
    }
    // A fact on modern retellings alone is in the catalogue, never in games.
    let modern = served
        .iter()
        .find(|f| f["grade"] == "modern_retelling")
        .unwrap();
    assert_eq!(modern["in_games"], false);
    assert_eq!(modern["audiences"], json!(["scholar"]));
    let one = send(&app, get("/v1/facts/sahe-green")).await.json();
    assert_eq!(one["when"]["throw_table"], json!(["sticks_sahe"]));
    assert_eq!(one["when"]["board"], Value::Null);
    assert_eq!(one["told_in_presets"], json!(["composite", "boxed"]));
}

/// `/v1/rules` states every rule for every audience, worded for the
/// preset asked for, and says which of them its games call for.
#[actix_web::test]
async fn rules_are_stated_for_every_audience_and_worded_for_the_preset() {
    use strum::IntoEnumIterator;
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let composite = send(&app, get("/v1/rules")).await.json();
    assert_eq!(composite["preset"], "composite");
    let rules = composite["items"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let expected: Vec<&str> = RuleId::iter().map(RuleId::key).collect();
    assert_eq!(ids, expected);
    for r in rules {
        for audience in ["general", "young", "scholar"] {
            let full = r["statement"][audience].as_str().unwrap();
            assert!(
                !full.is_empty() && !full.contains('{'),
                "{}: {full}",
                r["id"]
            );
            let short = r["short"][audience].as_array().unwrap();
            assert!(short.len() >= 2, "{} {audience}", r["id"]);
        }
        assert!(
            !r["citations"].as_array().unwrap().is_empty(),
            "{}",
            r["id"]
        );
        assert!(
            !r["key_citations"].as_array().unwrap().is_empty(),
            "{}",
            r["id"]
        );
    }
    let in_play = |body: &Value, id: &str| {
        body["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap()["in_play"]
            .clone()
    };
    assert_eq!(in_play(&composite, "sticks_sahe"), true);
    assert_eq!(in_play(&composite, "spinner"), false);
    assert_eq!(in_play(&composite, "south_creek_falls_in"), true);
    let a4 = send(&app, get("/v1/rules?preset=a4")).await.json();
    assert_eq!(a4["preset"], "a4");
    assert_eq!(in_play(&a4, "spinner"), true);
    assert_eq!(in_play(&a4, "south_creek_falls_in"), false);
    assert_eq!(in_play(&a4, "dry_branch_lose_throw"), true);
    // The preset's board words fill the statements.
    let north = send(&app, get("/v1/rules/north_creek_near?preset=a4"))
        .await
        .json();
    assert!(
        north["statement"]["general"]
            .as_str()
            .unwrap()
            .contains("north torrent"),
        "{north}"
    );
    let north = send(&app, get("/v1/rules/north_creek_near")).await.json();
    assert!(
        north["statement"]["general"]
            .as_str()
            .unwrap()
            .contains("north creek"),
        "{north}"
    );
}

#[actix_web::test]
async fn a_glossary_term_carries_its_grade() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    for term in &catalogue().glossary {
        let one = send(&app, get(&format!("/v1/glossary/{}", term.id)))
            .await
            .json();
        assert_eq!(one["grade"], key(term.grade), "{}", term.id);
    }
    let all = send(&app, get("/v1/glossary")).await.json();
    assert!(
        all["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["grade"].is_string())
    );
}

/// The OpenAPI document describes the new resources with typed answers,
/// closed sets as enums, and examples that name real ids.
#[actix_web::test]
async fn the_facts_and_rules_are_documented() {
    let spec: Value = zohn_ahl::http::openapi();
    for path in ["/v1/facts", "/v1/facts/{id}", "/v1/rules", "/v1/rules/{id}"] {
        assert!(spec["paths"][path]["get"].is_object(), "{path}");
    }
    let schemas = &spec["components"]["schemas"];
    let rule_ids: Vec<&str> = schemas["RuleId"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let expected: Vec<&str> = {
        use strum::IntoEnumIterator;
        RuleId::iter().map(RuleId::key).collect()
    };
    assert_eq!(rule_ids, expected);
    assert!(schemas["EvidenceGrade"]["enum"].is_array());
    assert!(schemas["TermView"]["properties"]["grade"].is_object());
    let example = schemas["FactView"]["properties"]["id"]["example"]
        .as_str()
        .unwrap();
    assert!(
        catalogue().facts.iter().any(|f| f.id == example),
        "{example}"
    );
    let param = &spec["paths"]["/v1/facts/{id}"]["get"]["parameters"][0]["example"];
    assert!(
        catalogue()
            .facts
            .iter()
            .any(|f| f.id == param.as_str().unwrap()),
        "{param}"
    );
}

/// Regression: page ranges nobody here has seen (Mooney 1896 pp.
/// 1002-1004, Culin 1898 pp. 687-689, from Ludii's source lines) were
/// printed exactly like pages that were read. A citation says whether its
/// pages were seen.
#[actix_web::test]
async fn regression_unseen_pages_were_cited_as_read() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let fact = send(&app, get("/v1/facts/womens-game")).await.json();
    let citations = fact["citations"].as_array().unwrap();
    let mooney = citations
        .iter()
        .find(|c| c["source"] == "mooney1896")
        .expect("womens-game cites Mooney");
    assert_eq!(mooney["locator"], "pp. 1002-1004");
    assert_eq!(mooney["locator_seen"], false, "{mooney}");
    for c in citations {
        if c["locator"].is_null() {
            assert!(c["locator_seen"].is_null(), "{c}");
        }
    }
    let fact = send(&app, get("/v1/facts/name-zohn-ahl")).await.json();
    let culin = fact["citations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["locator"] == "entry 3")
        .expect("name-zohn-ahl cites Culin's entry 3");
    // Entry 3's opening is known only through the Digital Ludeme Project's
    // quotation of it.
    assert_eq!(culin["locator_seen"], false, "{culin}");
    assert_eq!(culin["seen"], "quoted", "{culin}");
    assert_eq!(culin["caveat"], "as another source quotes it", "{culin}");
    let seen = fact["citations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["source"] == "wp-zohnahl")
        .expect("name-zohn-ahl cites the encyclopedia, read whole");
    assert_eq!(seen["seen"], "seen", "{seen}");
    assert!(seen["caveat"].is_null(), "{seen}");
}

/// Regression: sources nobody here has read (Murray 1951, Parlett 1999,
/// the New Venture Games box), known only from the Wikipedia article's
/// notes or a summary, were cited with nothing to tell them from sources
/// read, since the mark was for pages only. Every citation now says
/// whether what it cites was seen, with the words a reader is shown.
#[actix_web::test]
async fn regression_sources_not_read_were_cited_as_read() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
    let sources = send(&app, get("/v1/sources")).await.json();
    let reading = |id: &str| {
        sources
            .as_array()
            .or_else(|| sources["items"].as_array())
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .unwrap_or_else(|| panic!("{id} in the sources"))["custom"]["read"]
            .clone()
    };
    for (fact, source) in [
        ("one-game-or-two", "murray1951"),
        ("one-game-or-two", "parlett1999"),
        ("boxed-edition", "nvg"),
    ] {
        assert_eq!(reading(source), "not_read", "{source}");
        let fact = send(&app, get(&format!("/v1/facts/{fact}"))).await.json();
        let c = fact["citations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["source"] == source)
            .unwrap_or_else(|| panic!("{fact} cites {source}"))
            .clone();
        assert!(c["locator"].is_null(), "{c}");
        assert_eq!(c["seen"], "not_seen", "{c}");
        assert_eq!(c["caveat"], "known only from another source", "{c}");
    }
}
