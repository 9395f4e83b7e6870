//! The recap of a finished or stopped game (issue 26, point 3): every
//! number in it agrees with a recomputation from the move log, and its
//! questions carry those numbers.

use crate::common;

use std::time::{Duration, Instant};

use common::{get, post_empty, post_json, send, spawn_app};
use serde_json::{Value, json};
use zohn_ahl::rules::{self, GameState, Preset, Side, Table};

/// A seeded game of `preset` thrown to its end; its id.
async fn finished_game(app: &common::Bound, seed: &str, preset: &str) -> String {
    let created = send(
        app,
        post_json(
            "/v1/games",
            &json!({"seed": seed, "ruleset": {"preset": preset}}),
        ),
    )
    .await
    .json();
    let id = created["id"].as_str().unwrap().to_owned();
    for _ in 0..2000 {
        let r = send(app, post_empty(&format!("/v1/games/{id}/throws"))).await;
        assert_eq!(r.status.as_u16(), 201, "{:?}", r.json());
        if r.json()["after"]["status"] == "finished" {
            return id;
        }
    }
    panic!("{preset} {seed}: no end in 2000 throws");
}

/// The whole move log.
async fn move_log(app: &common::Bound, id: &str) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cursor = String::new();
    loop {
        let page = send(
            app,
            get(&format!("/v1/games/{id}/moves?limit=100&cursor={cursor}")),
        )
        .await
        .json();
        items.extend(page["items"].as_array().unwrap().iter().cloned());
        match page["next_cursor"].as_str() {
            Some(c) => cursor = c.to_owned(),
            None => return items,
        }
    }
}

/// The recap, asked again while the ruleset's odds are being solved.
async fn recap(app: &common::Bound, path: &str) -> Value {
    let start = Instant::now();
    loop {
        let r = send(app, get(path)).await;
        assert_eq!(r.status.as_u16(), 200, "{:?}", r.json());
        let body = r.json();
        if body["chances_unknown"]["reason"] != "being_solved" {
            return body;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "{path}: unsolved"
        );
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    }
}

fn side_index(v: &Value) -> usize {
    usize::from(v.as_str().unwrap() == "B")
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() < 1e-9
}

/// What move `m` did, from its events: the first kind of the recap's
/// order that it holds.
fn cause_of(m: &Value) -> &'static str {
    let kinds: Vec<(&str, bool)> = m["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap(),
                e["extra_throw_lost"].as_bool().unwrap_or(false),
            )
        })
        .collect();
    let has = |k: &str| kinds.iter().any(|(kind, _)| *kind == k);
    if has("won") {
        "won"
    } else if has("whipped") {
        "whipped"
    } else if has("fell_into_creek") {
        "fell"
    } else if has("completed_circuit") {
        "circuit"
    } else if kinds.iter().any(|(k, lost)| *k == "lost_throw" && *lost) {
        "lost_throw"
    } else if has("lost_throw") {
        "lost_turn"
    } else if has("forced_pass") {
        "forced_pass"
    } else if has("passed_north_creek") {
        "passed_north_creek"
    } else if has("throws_again") {
        "extra_throw"
    } else {
        "moved"
    }
}

/// Everything the recap says of a finished game, recomputed from the move
/// log (and, for the expected counts, by playing every outcome of the
/// sticks on each position the log's game passed through).
#[actix_web::test]
async fn every_number_of_a_recap_agrees_with_a_recomputation_from_the_move_log() {
    let (_db, app) = spawn_app().await;
    for (preset, seed) in [("composite", "recap-1"), ("a4", "recap-2")] {
        let id = finished_game(&app, seed, preset).await;
        let r = recap(&app, &format!("/v1/games/{id}/recap")).await;
        // Read once the ruleset's chain is solved (the recap waited for it).
        let log = move_log(&app, &id).await;
        let game = send(&app, get(&format!("/v1/games/{id}"))).await.json();
        assert_eq!(r["moves"], log.len());
        assert_eq!(r["winner"], game["winner"]);
        assert_eq!(r["stopped"], false);

        // The chances: the opening is move 1's before; the turning point
        // is the largest swing, the earliest of equals; the luckiest and
        // unluckiest are the largest rise and fall of the thrower's own
        // chance.
        let chances = &r["chances"];
        assert_eq!(chances["opening"], log[0]["chances"]["before"]);
        let a = |m: &Value, when: &str| m["chances"][when]["a"].as_f64().unwrap();
        let gain = |m: &Value| {
            let s = if side_index(&m["side"]) == 0 {
                "a"
            } else {
                "b"
            };
            m["chances"]["after"][s].as_f64().unwrap() - m["chances"]["before"][s].as_f64().unwrap()
        };
        let mut turning = &log[0];
        let (mut lucky, mut unlucky) = (&log[0], &log[0]);
        for m in &log {
            if (a(m, "after") - a(m, "before")).abs()
                > (a(turning, "after") - a(turning, "before")).abs()
            {
                turning = m;
            }
            if gain(m) > gain(lucky) {
                lucky = m;
            }
            if gain(m) < gain(unlucky) {
                unlucky = m;
            }
        }
        for (name, m) in [
            ("turning_point", turning),
            ("luckiest", lucky),
            ("unluckiest", unlucky),
        ] {
            let v = &chances[name];
            assert_eq!(v["n"], m["n"], "{preset}: {name}");
            assert_eq!(v["side"], m["side"]);
            assert_eq!(v["value"], m["value"]);
            assert_eq!(v["before"], m["chances"]["before"]);
            assert_eq!(v["after"], m["chances"]["after"]);
            assert_eq!(v["cause"], cause_of(m), "{preset}: {name}");
        }
        // The winner's lowest chance, from the opening on.
        let w = game["winner"]
            .as_str()
            .map(|s| usize::from(s == "B"))
            .unwrap();
        let key = ["a", "b"][w];
        let mut low = (log[0]["chances"]["before"][key].as_f64().unwrap(), 0_u64);
        for m in &log {
            let p = m["chances"]["after"][key].as_f64().unwrap();
            if p < low.0 {
                low = (p, m["n"].as_u64().unwrap());
            }
        }
        assert!(close(&chances["winners_lowest"]["chance"], low.0));
        assert_eq!(chances["winners_lowest"]["after_move"], low.1);

        // The rare throws: exactly the moves rarer than 1 in 16.
        let rare: Vec<&Value> = log
            .iter()
            .filter(|m| m["probability"]["decimal"].as_f64().unwrap() < 1.0 / 16.0)
            .map(|m| &m["n"])
            .collect();
        let told: Vec<&Value> = r["rare_throws"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| &t["n"])
            .collect();
        assert_eq!(told, rare, "{preset}");

        // The counts, event by event.
        let count = |kind: &str| {
            log.iter()
                .flat_map(|m| m["events"].as_array().unwrap())
                .filter(|e| e["kind"] == kind)
                .count()
        };
        let tallies = r["tallies"].as_array().unwrap();
        for (tally, kind) in tallies.iter().zip([
            "fell_into_creek",
            "whipped",
            "completed_circuit",
            "throws_again",
        ]) {
            assert_eq!(tally["observed"], count(kind), "{preset}: {kind}");
        }

        // The expected counts: each outcome played on each position.
        let p: Preset = preset.parse().unwrap();
        let players = usize::from(p.default_players());
        let table = Table::new(p.options(), [players, players], Side::A).unwrap();
        let replay =
            zohn_ahl::transcript::narrated_game(seed, p, zohn_ahl::narration::Audience::General)
                .unwrap();
        assert_eq!(
            replay.moves.len(),
            log.len(),
            "{preset}: the server's game is the transcript's"
        );
        let outcomes = table.options().throw_table.outcomes();
        let mut expected = [0.0; 4];
        let mut before = GameState::new(&table);
        for m in &replay.moves {
            for o in &outcomes {
                let played = rules::play(&table, &before, o).unwrap();
                for e in &played.events {
                    let slot = match e {
                        rules::Event::FellIntoCreek { .. } => 0,
                        rules::Event::Whipped { .. } => 1,
                        rules::Event::CompletedCircuit { .. } => 2,
                        rules::Event::ThrowsAgain { .. } => 3,
                        _ => continue,
                    };
                    expected[slot] += 1.0 / outcomes.len() as f64;
                }
            }
            before = m.state.clone();
        }
        for (tally, e) in tallies.iter().zip(expected) {
            assert!(
                close(&tally["expected"], e),
                "{preset}: {tally} against {e}"
            );
        }

        // The rarest result, and the longest run.
        let rarest = &r["rarest_result"];
        let rd = rarest["probability"]["decimal"].as_f64().unwrap();
        let came = log
            .iter()
            .filter(|m| {
                m["value"] == rarest["value"] && m["probability"]["decimal"].as_f64().unwrap() == rd
            })
            .count();
        assert_eq!(rarest["observed"], came);
        assert!(close(&rarest["expected"], log.len() as f64 * rd));
        let mut best = (0, 0);
        let mut i = 0;
        while i < log.len() {
            let mut j = i;
            while j + 1 < log.len() && log[j + 1]["side"] == log[i]["side"] {
                j += 1;
            }
            if j - i + 1 > best.1 {
                best = (i, j - i + 1);
            }
            i = j + 1;
        }
        assert_eq!(r["longest_run"]["first"], log[best.0]["n"]);
        assert_eq!(r["longest_run"]["turns"], best.1);

        // Three to five questions, the first about the turning point, each
        // answer carrying its numbers, each cited to the computation.
        let questions = r["questions"].as_array().unwrap();
        assert!(
            (3..=5).contains(&questions.len()),
            "{preset}: {questions:?}"
        );
        assert_eq!(questions[0]["about_move"], turning["n"]);
        assert!(
            questions[0]["answer"]
                .as_str()
                .unwrap()
                .contains(&turning["n"].to_string())
        );
        assert!(
            questions[1]["answer"]
                .as_str()
                .unwrap()
                .contains(&came.to_string())
        );
        for q in questions {
            assert_eq!(q["citations"][0]["source"], "zohn-ahl-odds");
            assert!(!q["question"].as_str().unwrap().contains('{'));
        }
    }
}

/// The recap is worded for the audience and detail asked: the young hear
/// fractions, everyone percentages; `brief` is shorter than `full`.
#[actix_web::test]
async fn a_recap_is_worded_for_its_audience_and_detail() {
    let (_db, app) = spawn_app().await;
    let id = finished_game(&app, "recap-words", "composite").await;
    let path = format!("/v1/games/{id}/recap");
    let general = recap(&app, &path).await;
    let young = recap(&app, &format!("{path}?audience=young")).await;
    assert_eq!(young["audience"], "young");
    let text = |v: &Value| {
        v["summary"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(text(&general).contains('%'), "{}", text(&general));
    assert!(
        !text(&young).contains('%') && text(&young).contains(" in "),
        "{}",
        text(&young)
    );
    let brief = recap(&app, &format!("{path}?detail=brief")).await;
    let full = recap(&app, &format!("{path}?detail=full")).await;
    assert!(
        brief["summary"].as_array().unwrap().len() < general["summary"].as_array().unwrap().len()
    );
    assert!(
        full["summary"].as_array().unwrap().len() > general["summary"].as_array().unwrap().len()
    );
    assert_eq!(brief["questions"], general["questions"]);
    // The numbers do not depend on the words.
    assert_eq!(young["chances"], general["chances"]);
    assert_eq!(young["tallies"], general["tallies"]);
}

/// A stopped game has a recap too; a game in play has none yet (409), and
/// the parameters are checked as everywhere.
#[actix_web::test]
async fn a_stopped_game_has_a_recap_and_a_game_in_play_has_none_yet() {
    let (_db, app) = spawn_app().await;
    let created = send(&app, post_json("/v1/games", &json!({"seed": "recap-stop"})))
        .await
        .json();
    let id = created["id"].as_str().unwrap().to_owned();
    for _ in 0..12 {
        assert_eq!(
            send(&app, post_empty(&format!("/v1/games/{id}/throws")))
                .await
                .status
                .as_u16(),
            201
        );
    }
    let early = send(&app, get(&format!("/v1/games/{id}/recap"))).await;
    let problem = early.problem(409);
    assert!(
        problem["type"].as_str().unwrap().ends_with("/game-in-play"),
        "{problem}"
    );
    let bad = send(&app, get(&format!("/v1/games/{id}/recap?audience=toddler"))).await;
    assert_eq!(bad.problem(400)["errors"][0]["pointer"], "#/query/audience");
    let none = send(
        &app,
        get("/v1/games/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79/recap"),
    )
    .await;
    none.problem(404);

    assert_eq!(
        send(&app, post_empty(&format!("/v1/games/{id}/stop")))
            .await
            .status
            .as_u16(),
        200
    );
    let r = recap(&app, &format!("/v1/games/{id}/recap")).await;
    let game = send(&app, get(&format!("/v1/games/{id}"))).await.json();
    assert_eq!(r["stopped"], true);
    assert_eq!(r["moves"], 12);
    assert_eq!(r["winner"], game["winner"]);
    let first = r["summary"][0].as_str().unwrap();
    assert!(first.contains("stopped after 12"), "{first}");
}
