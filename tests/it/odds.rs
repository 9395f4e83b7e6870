//! Exact odds: the solver against the previous solver's values and against
//! simulations, the odds service (budget, queue, cache, presets solved at
//! start), and the HTTP resources `GET /v1/games/{id}/odds` and
//! `GET /v1/rulesets/{preset}/statistics`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Reply, TestDb, get, post_empty, post_json, send};
use serde_json::json;
use zohn_ahl::odds::{self, Lookup, OddsError, Settings, Solver};
use zohn_ahl::rules::{GameState, Options, Preset, Side, Table};
use zohn_ahl::simulate::simulate;

/// Longest a test waits for the background solver (debug builds solve
/// the large presets in seconds, a loaded machine slower).
const PATIENCE: Duration = Duration::from_secs(600);

/// GET `path` until it is not 503, following `Retry-After` (each 503 must
/// carry one), for at most [`PATIENCE`].
async fn get_solved<T: common::Target>(app: &T, path: &str) -> Reply {
    let start = Instant::now();
    loop {
        let r = send(app, get(path)).await;
        if r.status.as_u16() != 503 {
            return r;
        }
        let secs: u64 = r
            .header("retry-after")
            .expect("503 without Retry-After")
            .parse()
            .unwrap();
        assert!(secs >= 1);
        assert!(
            start.elapsed() < PATIENCE,
            "{path} still 503 after {PATIENCE:?}"
        );
        // Poll faster than told: the test only needs the answer soon.
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `a` read back from JSON equals `b` (JSON parsing may be one unit in
/// the last place off).
fn same(a: &serde_json::Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() <= 1e-15 * b.abs().max(1.0)
}

/// Wait until the solver has nothing queued or being solved.
async fn until_idle(solver: &Solver) {
    let start = Instant::now();
    while solver.pending() > 0 {
        assert!(start.elapsed() < PATIENCE, "the solver is still busy");
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A preset's table as played: its own team sizes, side A first.
fn as_played(preset: Preset) -> Table {
    let p = usize::from(preset.default_players());
    Table::new(preset.options(), [p, p], Side::A).unwrap()
}

/// Values the previous solver (plain Gauss-Seidel value iteration over the
/// whole chain, swept backwards from the finish, stopped when a sweep moved
/// no value by more than 1e-12) gave for each preset as played, computed on
/// its code before the solver was replaced: states of the chain, then
/// P(A wins) and expected throws at the opening, then at three states
/// (awls, A's counters, turn index).
#[allow(clippy::type_complexity)]
const PREVIOUS_SOLVER: [(Preset, usize, (f64, f64), [([u8; 2], u8, u16, f64, f64); 3]); 5] = [
    (
        Preset::Composite,
        19_712,
        (0.497_648_699_581_328_46, 168.697_755_088_710_12),
        [
            (
                [12, 7],
                5,
                1,
                0.624_497_773_806_292_9,
                152.452_546_381_090_85,
            ),
            (
                [37, 2],
                3,
                0,
                0.413_085_809_210_347_4,
                150.613_360_824_869_15,
            ),
            (
                [5, 23],
                1,
                1,
                0.092_787_363_524_927_25,
                54.882_014_470_380_33,
            ),
        ],
    ),
    (
        Preset::Culin1898,
        19_712,
        (0.498_156_174_724_382_23, 172.229_366_196_728_96),
        [
            (
                [12, 7],
                5,
                1,
                0.623_127_261_162_311_2,
                155.755_571_406_326_06,
            ),
            (
                [37, 2],
                3,
                0,
                0.410_972_923_194_830_5,
                153.819_051_962_279_16,
            ),
            (
                [5, 23],
                1,
                1,
                0.096_987_401_008_408_84,
                58.257_085_695_792_185,
            ),
        ],
    ),
    (
        Preset::Ludii,
        112_634,
        (0.500_209_115_303_724, 1_148.792_013_261_602_7),
        [
            (
                [12, 7],
                11,
                1,
                0.549_160_533_498_164_8,
                1_131.522_954_375_548,
            ),
            (
                [37, 2],
                9,
                0,
                0.512_884_638_037_415_2,
                1_145.494_301_552_134_2,
            ),
            (
                [5, 23],
                1,
                1,
                0.019_661_628_771_349_398,
                93.244_481_875_075_3,
            ),
        ],
    ),
    (
        Preset::A4,
        11_326,
        (0.504_464_769_848_670_6, 89.405_813_374_399_86),
        [
            (
                [12, 7],
                5,
                1,
                0.609_408_791_490_304_8,
                80.577_178_949_190_91,
            ),
            (
                [25, 2],
                3,
                0,
                0.501_653_243_252_740_6,
                88.296_020_023_469_91,
            ),
            (
                [5, 17],
                1,
                1,
                0.043_034_018_794_215_34,
                16.194_370_761_712_92,
            ),
        ],
    ),
    (
        Preset::Boxed,
        315_392,
        (0.499_418_055_640_019_5, 141.221_323_679_351_6),
        [
            (
                [12, 7],
                5,
                1,
                0.605_939_347_246_727_6,
                126.824_614_971_195_34,
            ),
            (
                [37, 2],
                3,
                0,
                0.453_995_049_601_903_07,
                121.951_181_865_513_32,
            ),
            (
                [5, 23],
                1,
                1,
                0.108_223_969_344_152_33,
                46.545_096_089_434_84,
            ),
        ],
    ),
];

/// The same odds as the previous solver to 1e-9: probabilities absolutely,
/// expected throws relative to their value (the previous solver stopped on
/// a relative change of 1e-12 per sweep, so its own error there reached
/// 1e-7 on ludii's 1,149 throws).
fn assert_previous(what: &str, got: odds::Odds, p: f64, e: f64) {
    assert!(
        (got.win[0] - p).abs() < 1e-9,
        "{what}: P(A) {} against {p}",
        got.win[0]
    );
    assert!((got.win[0] + got.win[1] - 1.0).abs() < 1e-15);
    assert!(
        (got.expected_throws - e).abs() < 1e-9 * e,
        "{what}: expected throws {} against {e}",
        got.expected_throws
    );
}

fn check_previous(sol: &odds::Solution, preset: Preset) {
    let (_, states, (p, e), at) = PREVIOUS_SOLVER.iter().find(|row| row.0 == preset).unwrap();
    let t = as_played(preset);
    assert_eq!(sol.states(), *states, "{preset:?}");
    assert!(sol.last_change < odds::TOLERANCE);
    assert_previous(&format!("{preset:?} opening"), sol.opening(), *p, *e);
    let total = t.options().total_counters();
    for (awls, ca, turn, p, e) in at {
        let mut s = GameState::new(&t);
        s.awls = *awls;
        s.counters = [*ca, total - ca];
        s.turn = *turn;
        let got = sol.odds(&s).unwrap();
        assert_previous(&format!("{preset:?} at {s:?}"), got, *p, *e);
    }
}

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
/// `cargo test --release --test it odds:: -- --ignored`). Figures written down
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
    let sol = odds::solve(&t).unwrap();
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
    let app = common::spawn_server(db.service().await);
    let g = send(&app, post_json("/v1/games", &json!({"seed": "odds"})))
        .await
        .json();
    let id = g["id"].as_str().unwrap().to_owned();
    let r = get_solved(&app, &format!("/v1/games/{id}/odds")).await;
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
    assert_eq!(p["allowed"], json!(["GET", "HEAD"]));
}

#[actix_web::test]
async fn a_ruleset_too_large_to_solve_is_422() {
    let db = TestDb::new();
    let app = common::spawn_server(db.service().await);
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
    let app = common::spawn_server(db.service().await);
    let r = get_solved(&app, "/v1/rulesets/composite/statistics").await;
    assert_eq!(
        r.status.as_u16(),
        200,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    let s = r.json();
    let exact = odds::solve(&table(Options::default(), 1)).unwrap();
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

#[actix_web::test]
async fn presets_are_solved_in_the_background_at_start_and_agree_with_the_previous_solver() {
    // A service that never waits: only what is already solved is answered.
    let solver = Solver::new(Settings {
        budget: Duration::ZERO,
        ..Settings::default()
    });
    solver.solve_presets();
    assert_eq!(solver.pending(), Preset::ALL.len());
    until_idle(&solver).await;
    let (_db, app) = common::spawn_app_with_solver(&solver).await;
    for preset in Preset::ALL {
        let sol = solver.cached(&as_played(preset)).expect("solved at start");
        check_previous(&sol, preset);
        let name = serde_json::to_value(preset).unwrap();
        let name = name.as_str().unwrap();
        let r = send(&app, get(&format!("/v1/rulesets/{name}/statistics"))).await;
        assert_eq!(
            r.status.as_u16(),
            200,
            "{name}: {}",
            String::from_utf8_lossy(&r.body)
        );
        let s = r.json();
        assert!(
            same(&s["first_side_win_probability"], sol.first_side_wins()),
            "{s}"
        );
        assert!(
            same(&s["mean_throws"], sol.opening().expected_throws),
            "{s}"
        );
        assert_eq!(s["solver"]["states"].as_u64().unwrap(), sol.states() as u64);
        assert_eq!(s["solver"]["method"], "components_gauss_seidel_gmres");
    }
    // Queued again: nothing to do.
    solver.solve_presets();
    assert_eq!(solver.pending(), 0);
}

#[actix_web::test]
async fn a_ruleset_unsolved_within_the_budget_is_503_with_retry_after_then_200_once_solved() {
    let solver = Solver::new(Settings {
        budget: Duration::from_millis(1),
        ..Settings::default()
    });
    let (_db, app) = common::spawn_app_with_solver(&solver).await;
    // Ludii's coding with 4 counters and its two teams of two: 45,050
    // states, far more than a millisecond's solve.
    let g = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"ruleset": {"preset": "ludii", "options": {"counters_per_side": 4}}}),
        ),
    )
    .await
    .json();
    let id = g["id"].as_str().unwrap().to_owned();
    let path = format!("/v1/games/{id}/odds");
    let r = send(&app, get(&path)).await;
    let p = r.problem(503);
    assert_eq!(p["type"], "/problems/odds-pending");
    let retry: u32 = r.header("retry-after").unwrap().parse().unwrap();
    assert!(retry >= 1);
    // Asked again while it is solved: still one chain in the work.
    let r = send(&app, get(&path)).await;
    if r.status.as_u16() == 503 {
        assert_eq!(r.problem(503)["type"], "/problems/odds-pending");
        assert!(solver.pending() <= 1);
    }
    // Once solved: 200 with the odds of the solver itself.
    let r = get_solved(&app, &path).await;
    assert_eq!(
        r.status.as_u16(),
        200,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    let o = r.json();
    let t = Table::new(
        Options {
            counters_per_side: 4,
            ..Preset::Ludii.options()
        },
        [2, 2],
        Side::A,
    )
    .unwrap();
    let exact = odds::solve(&t).unwrap().opening();
    assert!(same(&o["sides"][0]["win_probability"], exact.win[0]), "{o}");
    assert!(
        same(&o["expected_remaining_throws"], exact.expected_throws),
        "{o}"
    );
    assert_eq!(o["solver"]["states"], 45_050);
    // And now at once, from the cache.
    assert_eq!(send(&app, get(&path)).await.status.as_u16(), 200);
}

#[actix_web::test]
async fn a_full_queue_is_503_with_retry_after_and_queues_nothing() {
    let solver = Solver::new(Settings {
        budget: Duration::from_millis(1),
        max_pending: 1,
        ..Settings::default()
    });
    let (_db, app) = common::spawn_app_with_solver(&solver).await;
    let create = |ruleset: serde_json::Value| post_json("/v1/games", &json!({"ruleset": ruleset}));
    // The ludii preset (112,634 states) takes the one place.
    let big = send(&app, create(json!({"preset": "ludii"}))).await.json();
    let other = send(
        &app,
        create(json!({"preset": "composite", "options": {"counters_per_side": 9}})),
    )
    .await
    .json();
    let r = send(
        &app,
        get(&format!("/v1/games/{}/odds", big["id"].as_str().unwrap())),
    )
    .await;
    assert_eq!(r.problem(503)["type"], "/problems/odds-pending");
    assert_eq!(solver.pending(), 1);
    let r = send(
        &app,
        get(&format!("/v1/games/{}/odds", other["id"].as_str().unwrap())),
    )
    .await;
    let p = r.problem(503);
    assert_eq!(p["type"], "/problems/odds-queue-full");
    assert!(r.header("retry-after").unwrap().parse::<u32>().unwrap() >= 1);
    // Nothing was queued for it.
    assert_eq!(solver.pending(), 1);
    // The statistics follow the same rules.
    let r = send(&app, get("/v1/rulesets/boxed/statistics")).await;
    assert_eq!(r.problem(503)["type"], "/problems/odds-queue-full");
}

fn small(first: Side, counters: u8) -> Table {
    Table::new(
        Options {
            counters_per_side: counters,
            ..Options::default()
        },
        [1, 1],
        first,
    )
    .unwrap()
}

#[actix_web::test]
async fn solved_chains_are_cached_within_the_bounds_and_the_presets_kept_outside_them() {
    let solver = Solver::new(Settings {
        budget: PATIENCE,
        max_cached: 2,
        ..Settings::default()
    });
    let solved = |l: Lookup| match l {
        Lookup::Solved(sol) => sol,
        other => panic!("not solved: {other:?}"),
    };
    let [t1, t2, t3] = [small(Side::A, 1), small(Side::B, 1), small(Side::A, 2)];
    let s1 = solved(solver.lookup(&t1).await.unwrap());
    // Asked again: the same solution, not solved again.
    assert!(Arc::ptr_eq(&s1, &solved(solver.lookup(&t1).await.unwrap())));
    assert!(Arc::ptr_eq(&s1, &solver.cached(&t1).unwrap()));
    let s2 = solved(solver.lookup(&t2).await.unwrap());
    // t1 was used last before t2: t3 makes a third and pushes t1 out.
    let s3 = solved(solver.lookup(&t3).await.unwrap());
    assert!(solver.cached(&t1).is_none());
    assert!(Arc::ptr_eq(&s2, &solver.cached(&t2).unwrap()));
    assert!(Arc::ptr_eq(&s3, &solver.cached(&t3).unwrap()));
    // Solved again when asked again, to the same values.
    let again = solved(solver.lookup(&t1).await.unwrap());
    assert!(!Arc::ptr_eq(&s1, &again));
    assert_eq!(again.opening(), s1.opening());
    assert!(solver.cached(&t2).is_none(), "least recently used out");

    // A bound in bytes: only the newest solution stays.
    let tight = Solver::new(Settings {
        budget: PATIENCE,
        max_cache_bytes: 1,
        ..Settings::default()
    });
    solved(tight.lookup(&t1).await.unwrap());
    solved(tight.lookup(&t2).await.unwrap());
    assert!(tight.cached(&t1).is_none());
    assert!(tight.cached(&t2).is_some());

    // The presets' solutions stay whatever else is cached.
    let keeps = Solver::new(Settings {
        budget: PATIENCE,
        max_cached: 1,
        ..Settings::default()
    });
    keeps.solve_presets();
    until_idle(&keeps).await;
    for t in [&t1, &t2, &t3] {
        solved(keeps.lookup(t).await.unwrap());
    }
    for preset in Preset::ALL {
        assert!(keeps.cached(&as_played(preset)).is_some(), "{preset:?}");
    }
    assert!(keeps.cached(&t3).is_some() && keeps.cached(&t2).is_none());
}

#[actix_web::test]
async fn a_ruleset_too_large_is_refused_at_once_and_never_queued() {
    let solver = Solver::new(Settings::default());
    let big = Table::new(
        Options {
            counters_per_side: 15,
            ..Preset::Boxed.options()
        },
        [8, 7],
        Side::A,
    )
    .unwrap();
    assert!(matches!(
        solver.lookup(&big).await,
        Err(OddsError::TooLarge { .. })
    ));
    assert_eq!(solver.pending(), 0);
}

/// A teacher found no warning of a game's length (a `ludii` game can run to
/// about 2,000 throws): a game's first move says how long a game of its
/// preset runs on average (for the young, the teacher's note says it), the exact mean from the opening of the preset's
/// solved chain as played (checked against the solver by
/// `presets_are_solved_in_the_background_at_start_and_agree_with_the_previous_solver`),
/// rounded to ten.
#[test]
fn the_first_move_tells_the_mean_length_of_a_game_of_its_preset() {
    use zohn_ahl::narration::{Audience, framing, game_length};
    for (preset, _, (_, mean), _) in PREVIOUS_SOLVER {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let about = ((mean / 10.0).round() * 10.0) as u64;
        let about = if about >= 1000 {
            format!("{},{:03}", about / 1000, about % 1000)
        } else {
            about.to_string()
        };
        for audience in Audience::ALL {
            // The young framing leaves it to the teacher's note
            // (`zohn-ahl transcript --read-aloud`), from `game_length`.
            let f = if audience == Audience::Young {
                let framing = framing(&preset.options(), audience);
                assert!(!framing.text.contains("lasts about"), "{}", framing.text);
                game_length(&preset.options(), audience).unwrap()
            } else {
                framing(&preset.options(), audience)
            };
            assert!(
                f.text.contains(&format!("lasts about {about} ")),
                "{preset:?} {audience:?}: {mean} is not in {:?}",
                f.text
            );
            assert!(
                f.citations.iter().any(|c| c.source == "zohn-ahl-odds"),
                "{preset:?} {audience:?}"
            );
        }
    }
}
