//! Every preset through HTTP: its lesson, a full seeded game to a winner,
//! a stopped game; teams and their turn order.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::HashSet;

use common::{get, post_empty, post_json, send, spawn_app};
use serde_json::{Value, json};

const PRESETS: [&str; 5] = ["composite", "culin1898", "ludii", "a4", "boxed"];

fn sources() -> HashSet<String> {
    zohn_ahl::narration::catalogue()
        .sources
        .iter()
        .map(|s| s.id().to_owned())
        .collect()
}

fn assert_cited(v: &Value, sources: &HashSet<String>) {
    let cites = v["citations"].as_array().unwrap();
    assert!(!cites.is_empty(), "uncited: {v}");
    for c in cites {
        assert!(sources.contains(c["source"].as_str().unwrap()), "{c}");
    }
}

#[actix_web::test]
async fn rulesets_lists_every_preset_and_option_with_sources() {
    let (_db, app) = spawn_app().await;
    let body = send(&app, get("/v1/rulesets")).await.json();
    let ids: Vec<_> = body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids, PRESETS);
    let ludii = &body["items"][2];
    assert_eq!(ludii["options"]["counters_per_side"], 10);
    assert_eq!(ludii["options"]["overshoot"], "no_move");
    assert_eq!(ludii["players_per_side"], 2);
    let options: Vec<_> = body["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap().to_owned())
        .collect();
    for name in [
        "board",
        "throw_table",
        "deadly_north_bank",
        "own_last_space",
        "overshoot",
        "dry_branch",
        "counters_per_side",
        "turn_order",
        "circuits_to_win",
    ] {
        assert!(options.contains(&name.to_owned()), "{name}");
    }
    let sources = sources();
    for option in body["options"].as_array().unwrap() {
        for value in option["values"].as_array().unwrap() {
            if value["value"] != option["default"] {
                assert_cited(&value["departure"], &sources);
            } else {
                assert!(value["departure"].is_null());
            }
        }
    }
}

#[actix_web::test]
async fn each_preset_has_a_cited_lesson_that_names_its_departures() {
    let (_db, app) = spawn_app().await;
    let sources = sources();
    for preset in PRESETS {
        for audience in ["young", "general", "scholar"] {
            let r = send(
                &app,
                get(&format!("/v1/rulesets/{preset}?audience={audience}")),
            )
            .await;
            assert_eq!(r.status.as_u16(), 200);
            let l = r.json();
            let ids: Vec<_> = l["sections"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["id"].as_str().unwrap().to_owned())
                .collect();
            assert_eq!(
                ids,
                [
                    "board",
                    "sticks",
                    "turn",
                    "north_creek",
                    "home",
                    "whip",
                    "dry_branches",
                    "winning",
                    "stopping"
                ]
            );
            assert_cited(&l["summary"], &sources);
            let mut departures = 0;
            for s in l["sections"].as_array().unwrap() {
                assert!(!s["text"].as_str().unwrap().is_empty(), "{preset} {s}");
                assert!(
                    !s["text"].as_str().unwrap().contains('{'),
                    "placeholder left in {preset} {audience}: {s}"
                );
                assert_cited(s, &sources);
                for d in s["departures"].as_array().unwrap() {
                    // The young departures say it in their own words
                    // ("In the usual rules, ...", "Here ...").
                    if audience != "young" {
                        assert!(d["text"].as_str().unwrap().starts_with("Unlike the "));
                    }
                    assert!(!d["text"].as_str().unwrap().contains('{'));
                    assert_cited(d, &sources);
                    departures += 1;
                }
            }
            // composite departs from nothing; every other preset departs.
            assert_eq!(departures == 0, preset == "composite", "{preset}");
        }
    }
    send(&app, get("/v1/rulesets/chess")).await.problem(404);
    send(&app, get("/v1/rulesets/ludii?audience=expert"))
        .await
        .problem(400);
}

/// One full seeded game per preset, through HTTP, to a winner; every
/// response checked against the preset's board and counters.
#[actix_web::test]
async fn every_preset_plays_to_a_winner_through_http() {
    let (_db, app) = spawn_app().await;
    let sources = sources();
    for preset in PRESETS {
        let g = send(
            &app,
            post_json(
                "/v1/games",
                &json!({"ruleset": {"preset": preset}, "seed": format!("preset-{preset}")}),
            ),
        )
        .await;
        assert_eq!(
            g.status.as_u16(),
            201,
            "{}",
            String::from_utf8_lossy(&g.body)
        );
        let g = g.json();
        let id = g["id"].as_str().unwrap().to_owned();
        let per_side = g["ruleset"]["options"]["counters_per_side"]
            .as_u64()
            .unwrap();
        let len = if g["ruleset"]["options"]["board"] == "square28" {
            28
        } else {
            40
        };
        let mut last = Value::Null;
        for n in 1..=20_000u64 {
            let r = send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
            assert_eq!(r.status.as_u16(), 201, "{preset}");
            let m = r.json();
            assert_eq!(m["n"], n);
            let a = m["counters"]["a"].as_u64().unwrap();
            let b = m["counters"]["b"].as_u64().unwrap();
            assert_eq!(a + b, 2 * per_side, "{preset}: counters conserved");
            for side in m["state"]["sides"].as_array().unwrap() {
                let s = side["awl"]["space"].as_u64().unwrap();
                assert!((1..=len).contains(&s), "{preset}: {side}");
            }
            if preset == "a4" {
                assert!(m["sticks"].is_null() && m["spinner"].is_string());
            } else {
                assert_eq!(m["sticks"].as_array().unwrap().len(), 4);
            }
            for s in m["narration"]["segments"].as_array().unwrap() {
                assert!(!s["text"].as_str().unwrap().contains('{'), "{preset}: {s}");
                assert_cited(s, &sources);
            }
            last = m;
            if last["state"]["status"] == "finished" {
                break;
            }
        }
        assert_eq!(last["state"]["status"], "finished", "{preset} ends");
        assert!(last["state"]["winner"].is_string(), "{preset} has a winner");
    }
}

#[actix_web::test]
async fn every_preset_can_be_stopped() {
    let (_db, app) = spawn_app().await;
    for preset in PRESETS {
        let g = send(
            &app,
            post_json(
                "/v1/games",
                &json!({"ruleset": {"preset": preset}, "seed": "stop"}),
            ),
        )
        .await
        .json();
        let id = g["id"].as_str().unwrap().to_owned();
        for _ in 0..30 {
            let m = send(&app, post_empty(&format!("/v1/games/{id}/throws")))
                .await
                .json();
            if m["state"]["status"] == "finished" {
                break;
            }
        }
        let s = send(&app, post_empty(&format!("/v1/games/{id}/stop"))).await;
        if s.status.as_u16() == 409 {
            continue; // already won within 30 throws
        }
        let s = s.json();
        let state = &s["state"];
        assert_eq!(state["status"], "finished");
        let a = state["sides"][0]["counters"].as_u64().unwrap();
        let b = state["sides"][1]["counters"].as_u64().unwrap();
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => assert_eq!(state["winner"], "A"),
            std::cmp::Ordering::Less => assert_eq!(state["winner"], "B"),
            std::cmp::Ordering::Equal => assert_eq!(state["result"], "draw"),
        }
        let seg = &s["narration"]["segments"][0];
        assert_eq!(seg["rule"], "stop_most_counters");
    }
}

#[actix_web::test]
async fn options_override_the_preset_and_are_shown_in_the_state() {
    let (_db, app) = spawn_app().await;
    let g = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"ruleset": {"preset": "ludii", "options": {
                "counters_per_side": 4, "dry_branch": "cross_over", "circuits_to_win": 3,
                "deadly_north_bank": "far"}}}),
        ),
    )
    .await
    .json();
    let o = &g["ruleset"]["options"];
    assert_eq!(g["ruleset"]["preset"], "ludii");
    assert_eq!(o["counters_per_side"], 4);
    assert_eq!(o["dry_branch"], "cross_over");
    assert_eq!(o["circuits_to_win"], 3);
    assert_eq!(o["deadly_north_bank"], "far");
    assert_eq!(
        o["throw_table"], "sticks_count",
        "the preset's own values stay"
    );
    let g = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"ruleset": {"preset": "boxed", "options": {"circuits_to_win": null}}}),
        ),
    )
    .await
    .json();
    assert_eq!(g["ruleset"]["options"]["circuits_to_win"], Value::Null);
    let bad = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"ruleset": {"options": {"circuits_to_win": 11, "board": "hexagon"}}}),
        ),
    )
    .await;
    let p = bad.problem(400);
    assert!(p["detail"].as_str().unwrap().contains("circle40"), "{p}");
}

#[actix_web::test]
async fn teams_throw_in_side_blocks_or_alternately_by_name() {
    let (_db, app) = spawn_app().await;
    for (order, expected) in [
        ("side_blocks", ["Ama", "Ann", "Bea", "Bo", "Ama"]),
        ("alternate", ["Ama", "Bea", "Ann", "Bo", "Ama"]),
    ] {
        let g = send(
            &app,
            post_json(
                "/v1/games",
                &json!({
                    "ruleset": {"options": {"turn_order": order}},
                    "sides": {"a": {"name": "Creek", "players": ["Ama", "Ann"]},
                              "b": {"name": "Stone", "players": ["Bea", "Bo"]}}
                }),
            ),
        )
        .await
        .json();
        let id = g["id"].as_str().unwrap().to_owned();
        assert_eq!(g["to_throw"]["name"], "Ama");
        let mut throwers = Vec::new();
        // A plain 2 (two red sticks flat, the sahe round) never throws again.
        while throwers.len() < expected.len() {
            let m = send(
                &app,
                post_json(
                    &format!("/v1/games/{id}/throws"),
                    &json!({"sticks": ["flat", "flat", "round", "round"]}),
                ),
            )
            .await
            .json();
            throwers.push(m["player"]["name"].as_str().unwrap().to_owned());
            let text: String = m["narration"]["segments"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["kind"] == "event")
                .unwrap()["text"]
                .as_str()
                .unwrap()
                .to_owned();
            assert!(text.contains(&throwers[throwers.len() - 1]), "{text}");
        }
        assert_eq!(throwers, expected, "{order}");
    }
}

/// Ludii checks the end only after the mover's whole move: its lesson says
/// so, and does not say a side wins "right away".
#[actix_web::test]
async fn the_ludii_lesson_wins_after_the_move_not_the_moment() {
    let (_db, app) = spawn_app().await;
    for audience in ["young", "general", "scholar"] {
        let l = send(
            &app,
            get(&format!("/v1/rulesets/ludii?audience={audience}")),
        )
        .await
        .json();
        let winning = l["sections"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == "winning")
            .unwrap();
        let text = winning["text"].as_str().unwrap();
        assert!(!text.contains("right away"), "{audience}: {text}");
        assert!(
            text.contains("After") || text.contains("after"),
            "{audience}: {text}"
        );
    }
}

#[actix_web::test]
async fn the_a4_lesson_names_its_torrents_not_creeks_in_every_audience() {
    let (_db, app) = spawn_app().await;
    for audience in ["young", "general", "scholar"] {
        let body = send(&app, get(&format!("/v1/rulesets/a4?audience={audience}")))
            .await
            .json()
            .to_string();
        assert!(!body.contains("north creek"), "{audience}: {body}");
        assert!(body.contains("torrent"), "{audience}: {body}");
    }
}

#[actix_web::test]
async fn young_rules_in_play_on_the_spinner_sheet_speak_of_spins_not_throws() {
    let (_db, app) = spawn_app().await;
    let body = send(&app, get("/v1/rules?preset=a4")).await.json();
    let mut checked = 0;
    for rule in body["items"].as_array().unwrap() {
        if rule["in_play"] != true {
            continue;
        }
        let young = rule["statement"]["young"].as_str().unwrap().to_lowercase();
        assert!(
            !young.contains("throw"),
            "{}: {young}",
            rule["id"].as_str().unwrap()
        );
        checked += 1;
    }
    assert!(checked >= 4, "{checked} rules in play");
}
