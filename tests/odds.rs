//! Exact odds: the solver against simulations, and the HTTP resources
//! `GET /v1/games/{id}/odds` and `GET /v1/rulesets/{preset}/statistics`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use actix_web::test as web_test;
use common::{TestDb, get, post_empty, post_json, send};
use serde_json::json;
use zohn_ahl::http::app;
use zohn_ahl::odds::{self, OddsError};
use zohn_ahl::rules::{GameState, Options, Preset, Side, Table};
use zohn_ahl::simulate::simulate;

fn table(options: Options, players: usize) -> Table {
    Table::new(options, [players, players], Side::A).unwrap()
}

/// The simulated first-side win share and mean length lie within `z`
/// standard errors of the exact figures. Seeds are fixed, so a pass is
/// repeatable; 4 standard errors leave a chance of about 6 in 100,000 that
/// a correct solver fails a given seed.
fn check_against_simulation(t: &Table, games: u64, seed: &str, z: f64) {
    let sol = odds::solve(t).unwrap();
    let open = sol.opening();
    let sim = simulate(t, games, seed, |_| {}).unwrap();
    let dp = (sim.first_side_win_share - sol.first_side_wins()).abs();
    let de = (sim.throws.mean - open.expected_throws).abs();
    assert!(
        dp < z * sim.first_side_win_share_se,
        "{:?}: exact {} simulated {} ± {}",
        t.options(),
        sol.first_side_wins(),
        sim.first_side_win_share,
        sim.first_side_win_share_se
    );
    assert!(
        de < z * sim.throws_mean_se,
        "{:?}: exact {} simulated {} ± {}",
        t.options(),
        open.expected_throws,
        sim.throws.mean,
        sim.throws_mean_se
    );
    assert!((open.win[0] + open.win[1] - 1.0).abs() < 1e-12);
}

#[test]
fn exact_odds_agree_with_simulations_of_composite_and_culin1898() {
    for preset in [Preset::Composite, Preset::Culin1898] {
        check_against_simulation(&table(preset.options(), 1), 2_000, "odds-check", 4.0);
    }
}

#[test]
fn exact_odds_agree_with_simulations_of_a4_and_ludii_with_4_counters() {
    check_against_simulation(&table(Preset::A4.options(), 1), 2_000, "odds-check", 4.0);
    // Ludii's coding with 4 counters and its two teams of two.
    let ludii4 = Options {
        counters_per_side: 4,
        ..Preset::Ludii.options()
    };
    check_against_simulation(&table(ludii4, 2), 1_500, "odds-check", 4.0);
}

/// The large chains, with long simulations (about 15 s in release:
/// `cargo test --release --test odds -- --ignored`). Figures written down
/// in docs/performance.md.
#[test]
#[ignore = "long: boxed and ludii with 10 counters, 100,000 games each"]
fn exact_odds_agree_with_long_simulations() {
    check_against_simulation(&table(Preset::Boxed.options(), 1), 100_000, "long", 4.0);
    check_against_simulation(&table(Preset::Ludii.options(), 2), 100_000, "long", 4.0);
    for preset in [Preset::Composite, Preset::Culin1898, Preset::A4] {
        check_against_simulation(&table(preset.options(), 1), 200_000, "long", 4.0);
    }
}

#[test]
fn the_odds_after_a_throw_average_to_the_odds_before() {
    // The chain's defining identity, checked through the public engine at
    // a state in the middle of a game.
    let t = table(Options::default(), 1);
    let sol = odds::cached(&t).unwrap();
    let mut s = GameState::new(&t);
    s.awls = [12, 7];
    s.counters = [5, 3];
    s.turn = 1;
    let here = sol.odds(&s).unwrap();
    let tt = t.options().throw_table;
    let mut p = 0.0;
    let mut e = 1.0;
    for throw in tt.outcomes() {
        let played = zohn_ahl::rules::play(&t, &s, &throw).unwrap();
        let q = played.score.probability.as_f64()
            / f64::from(
                u32::try_from(
                    tt.outcomes()
                        .iter()
                        .filter(|o| tt.score(o).unwrap() == played.score)
                        .count(),
                )
                .unwrap(),
            );
        match played.state.outcome {
            Some(zohn_ahl::rules::Outcome::Won { side }) => {
                p += q * f64::from(u8::from(side == Side::A));
            }
            _ => {
                let next = sol.odds(&played.state).unwrap();
                p += q * next.win[0];
                e += q * next.expected_throws;
            }
        }
    }
    assert!((here.win[0] - p).abs() < 1e-10, "{} {p}", here.win[0]);
    assert!((here.expected_throws - e).abs() < 1e-8);
}

#[test]
fn too_large_chains_are_refused() {
    let big = Table::new(
        Options {
            counters_per_side: 15,
            ..Preset::Boxed.options()
        },
        [8, 7],
        Side::A,
    )
    .unwrap();
    assert!(matches!(odds::solve(&big), Err(OddsError::TooLarge { .. })));
}

#[actix_web::test]
async fn game_odds_over_http() {
    let db = TestDb::new();
    let app = web_test::init_service(app(db.service().await)).await;
    let g = send(&app, post_json("/v1/games", &json!({"seed": "odds"})))
        .await
        .json();
    let id = g["id"].as_str().unwrap().to_owned();
    let r = send(&app, get(&format!("/v1/games/{id}/odds"))).await;
    assert_eq!(
        r.status.as_u16(),
        200,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    let o = r.json();
    let a = o["sides"][0]["win_probability"].as_f64().unwrap();
    let b = o["sides"][1]["win_probability"].as_f64().unwrap();
    assert!((a + b - 1.0).abs() < 1e-12 && (a - 0.5).abs() < 0.02, "{o}");
    assert_eq!(o["sides"][0]["side"], "A");
    assert_eq!(o["version"], 0);
    let e0 = o["expected_remaining_throws"].as_f64().unwrap();
    assert!((150.0..190.0).contains(&e0), "{o}");
    assert_eq!(o["solver"]["tolerance"], 1e-12);
    assert!(o["solver"]["states"].as_u64().unwrap() > 10_000);

    // After a throw the odds are those of the new state.
    send(&app, post_empty(&format!("/v1/games/{id}/throws"))).await;
    let o = send(&app, get(&format!("/v1/games/{id}/odds")))
        .await
        .json();
    assert_eq!(o["version"], 1);

    // Finished: 409. Unknown: 404. Malformed: 400.
    send(&app, post_empty(&format!("/v1/games/{id}/stop"))).await;
    let p = send(&app, get(&format!("/v1/games/{id}/odds")))
        .await
        .problem(409);
    assert_eq!(p["type"], "/problems/game-over");
    send(
        &app,
        get("/v1/games/0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79/odds"),
    )
    .await
    .problem(404);
    send(&app, get("/v1/games/nope/odds")).await.problem(400);
    let p = send(&app, post_empty(&format!("/v1/games/{id}/odds")))
        .await
        .problem(405);
    assert_eq!(p["allowed"], json!(["GET"]));
}

#[actix_web::test]
async fn a_ruleset_too_large_to_solve_is_422() {
    let db = TestDb::new();
    let app = web_test::init_service(app(db.service().await)).await;
    let g = send(
        &app,
        post_json(
            "/v1/games",
            &json!({
                "ruleset": {"preset": "boxed", "options": {"counters_per_side": 15}},
                "sides": {"a": {"players": ["1", "2", "3", "4", "5", "6", "7", "8"]},
                          "b": {"players": ["1", "2", "3", "4", "5", "6", "7"]}}
            }),
        ),
    )
    .await
    .json();
    let id = g["id"].as_str().unwrap();
    let p = send(&app, get(&format!("/v1/games/{id}/odds")))
        .await
        .problem(422);
    assert_eq!(p["type"], "/problems/ruleset-too-large");
}

#[actix_web::test]
async fn preset_statistics_over_http() {
    let db = TestDb::new();
    let app = web_test::init_service(app(db.service().await)).await;
    let r = send(&app, get("/v1/rulesets/composite/statistics")).await;
    assert_eq!(
        r.status.as_u16(),
        200,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    let s = r.json();
    let exact = odds::cached(&table(Options::default(), 1)).unwrap();
    assert_eq!(
        s["first_side_win_probability"].as_f64().unwrap(),
        exact.first_side_wins()
    );
    assert_eq!(
        s["mean_throws"].as_f64().unwrap(),
        exact.opening().expected_throws
    );
    assert_eq!(s["players_per_side"], 1);
    assert_eq!(s["first"], "A");
    assert_eq!(s["ruleset"]["preset"], "composite");
    assert_eq!(s["ruleset"]["options"]["counters_per_side"], 4);
    let p = send(&app, get("/v1/rulesets/monopoly/statistics"))
        .await
        .problem(404);
    assert_eq!(p["type"], "/problems/preset-not-found");
}
