//! Each move's chances of winning, before it and after it (issue 26): found
//! again from the move's record, looked up in the ruleset's solved chain,
//! carried by every move view, and told as an odds moment in the narration.

use crate::common;

use std::sync::Arc;

use common::{get, post_json, send, spawn_app};
use serde_json::{Value, json};
use zohn_ahl::narration::{
    Audience, Chances, Detail, ODDS_SOURCE, OddsMoment, SegmentKind, YOUNG_LESSON_SWING,
    chance_words, odds_moment, odds_moment_for,
};
use zohn_ahl::odds::solve;
use zohn_ahl::rules::{DryBranch, GameState, Options, Preset, Side, Table};
use zohn_ahl::service::{ChanceTable, states_before};
use zohn_ahl::transcript::narrated_game;

fn table_of(preset: Preset) -> Table {
    let players = usize::from(preset.default_players());
    Table::new(preset.options(), [players, players], Side::A).unwrap()
}

/// The fields a state's odds depend on (whether a throw is an extra throw
/// does not change them).
fn odds_fields(s: &GameState) -> impl PartialEq + std::fmt::Debug {
    (s.awls, s.counters, s.circuits, s.turn, s.forfeits, s.throws)
}

/// The state before a move is not stored: it is found again from the
/// move's record. Over seeded games of every preset, what is found is the
/// state the move was played from, and nothing that would give other odds.
#[test]
fn the_state_before_each_move_is_found_again_from_its_record() {
    let mut moves = 0;
    let mut whips = 0;
    for preset in Preset::ALL {
        let table = table_of(preset);
        for seed in ["chances-1", "chances-2", "chances-3"] {
            let game = narrated_game(seed, preset, Audience::General).unwrap();
            let mut before = GameState::new(&table);
            for m in &game.moves {
                let found = states_before(&table, m);
                assert!(
                    found.contains(&before),
                    "{preset:?} {seed} move {}: {before:?} not among {found:?}",
                    m.n
                );
                for s in &found {
                    assert_eq!(
                        odds_fields(s),
                        odds_fields(&before),
                        "{preset:?} {seed} move {}",
                        m.n
                    );
                }
                whips += usize::from(
                    m.events
                        .iter()
                        .any(|e| matches!(e, zohn_ahl::rules::Event::Whipped { .. })),
                );
                moves += 1;
                before = m.state.clone();
            }
        }
    }
    assert!(moves > 1000 && whips > 10, "{moves} moves, {whips} whips");
}

/// A move's chances come from the solved chain: the chance after move n is
/// the chance before move n + 1, the first move starts from the opening's,
/// and the winning move ends on 1 and 0.
#[test]
fn each_moves_chances_continue_the_last_ones_from_the_opening_to_the_result() {
    let table = table_of(Preset::Composite);
    let solution = Arc::new(solve(&table).unwrap());
    let opening = solution.opening().win;
    let chances = ChanceTable::Solved(Arc::clone(&solution));
    let game = narrated_game("chances-1", Preset::Composite, Audience::General).unwrap();
    let mut last = opening;
    for m in &game.moves {
        let c = chances.of_move(&table, m).unwrap();
        assert!((c.before[0] - last[0]).abs() < 1e-12, "move {}", m.n);
        assert!((c.after[0] + c.after[1] - 1.0).abs() < 1e-12);
        last = c.after;
    }
    let won = game.moves.last().unwrap().state.outcome;
    assert!(won.is_some());
    assert!(last == [1.0, 0.0] || last == [0.0, 1.0], "{last:?}");
}

/// A lose-a-throw dry branch owes turns: the state before still is found,
/// forfeits and all.
#[test]
fn forfeited_turns_are_found_again_before_a_move() {
    let options = Options {
        dry_branch: DryBranch::LoseThrow,
        ..Options::default()
    };
    let table = Table::new(options, [1, 1], Side::A).unwrap();
    let solution = Arc::new(solve(&table).unwrap());
    let chances = ChanceTable::Solved(solution);
    let cast = zohn_ahl::narration::Cast {
        sides: ["A".to_owned(), "B".to_owned()],
        players: [vec!["A".to_owned()], vec!["B".to_owned()]],
    };
    let mut throws = zohn_ahl::throws::SeededThrows::new("forfeits");
    let mut state = GameState::new(&table);
    let mut told = Vec::new();
    let mut previous = None;
    let mut forfeits = 0;
    let mut last: Option<[f64; 2]> = None;
    for n in 1..=2000 {
        if state.is_finished() {
            break;
        }
        let turn = zohn_ahl::domain::Turn {
            table: &table,
            cast: &cast,
            audience: Audience::General,
            state: &state,
            previous: previous.as_ref(),
        };
        use zohn_ahl::throws::ThrowSource as _;
        let throw = throws.throw(options.throw_table, n);
        let record = zohn_ahl::domain::play_move(
            &turn,
            n,
            throw,
            zohn_ahl::domain::ThrowOrigin::Server,
            &mut told,
        )
        .unwrap();
        forfeits += usize::from(state.forfeits.iter().any(|&f| f));
        let c = chances.of_move(&table, &record).unwrap();
        if let Some(l) = last {
            assert!((c.before[0] - l[0]).abs() < 1e-12, "move {n}");
        }
        last = Some(c.after);
        state = record.state.clone();
        previous = Some(record.narration);
    }
    assert!(forfeits > 0, "no turn was owed");
}

/// Asked again until the odds service has the game's chain solved.
async fn solved(app: &common::Bound, path: &str) -> Value {
    common::until_solved(app, path).await.json()
}

fn pair(v: &Value) -> [f64; 2] {
    [v["a"].as_f64().unwrap(), v["b"].as_f64().unwrap()]
}

/// Every move view (a throw's answer, the move log, one move) carries both
/// sides' chances before and after it, the same in each, agreeing with the
/// game's odds: the first move's before is the opening's, and after the last
/// move of a game still going they are `GET /v1/games/{id}/odds`.
#[actix_web::test]
async fn every_move_view_carries_both_sides_chances_before_and_after_it() {
    let (_db, app) = spawn_app().await;
    let created = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"seed": "chances-http", "narration": {"audience": "young"}}),
        ),
    )
    .await
    .json();
    let id = created["id"].as_str().unwrap().to_owned();
    let game = format!("/v1/games/{id}");
    let opening = solved(&app, &format!("{game}/odds")).await;
    let mut last = [
        opening["sides"][0]["win_probability"].as_f64().unwrap(),
        opening["sides"][1]["win_probability"].as_f64().unwrap(),
    ];
    let mut answers = Vec::new();
    for _ in 0..30 {
        let thrown = send(&app, common::post_empty(&format!("{game}/throws"))).await;
        assert_eq!(thrown.status.as_u16(), 201);
        let body = thrown.json();
        let chances = &body["chances"];
        assert_eq!(chances["unknown"], Value::Null, "{chances}");
        let (before, after) = (pair(&chances["before"]), pair(&chances["after"]));
        assert!((before[0] - last[0]).abs() < 1e-12 && (before[1] - last[1]).abs() < 1e-12);
        assert!((after[0] + after[1] - 1.0).abs() < 1e-12);
        last = after;
        answers.push(body);
        if answers.last().unwrap()["after"]["status"] == "finished" {
            break;
        }
    }
    if answers.last().unwrap()["after"]["status"] == "in_progress" {
        let odds = send(&app, get(&format!("{game}/odds"))).await.json();
        assert_eq!(
            odds["sides"][0]["win_probability"].as_f64().unwrap(),
            last[0]
        );
    }
    let log = send(&app, get(&format!("{game}/moves?limit=100")))
        .await
        .json();
    let items = log["items"].as_array().unwrap();
    assert_eq!(items.len(), answers.len());
    for (item, answer) in items.iter().zip(&answers) {
        assert_eq!(item["chances"], answer["chances"], "move {}", item["n"]);
        assert_eq!(item["narration"], answer["narration"], "move {}", item["n"]);
    }
    let one = send(&app, get(&format!("{game}/moves/2"))).await.json();
    assert_eq!(one["chances"], answers[1]["chances"]);
}

/// A ruleset whose chain is past what the service solves has no chances:
/// `null`, with the reason.
#[actix_web::test]
async fn a_ruleset_too_large_to_solve_has_null_chances_with_the_reason() {
    let (_db, app) = spawn_app().await;
    let created = send(
        &app,
        post_json(
            "/v1/games",
            &json!({"ruleset": {"options": {"counters_per_side": 15, "circuits_to_win": 10}}}),
        ),
    )
    .await;
    assert_eq!(created.status.as_u16(), 201, "{:?}", created.json());
    let id = created.json()["id"].as_str().unwrap().to_owned();
    let thrown = send(&app, common::post_empty(&format!("/v1/games/{id}/throws"))).await;
    let chances = &thrown.json()["chances"];
    assert_eq!(chances["before"], Value::Null);
    assert_eq!(chances["after"], Value::Null);
    assert_eq!(chances["unknown"]["reason"], "ruleset_too_large");
    let log = send(&app, get(&format!("/v1/games/{id}/moves")))
        .await
        .json();
    assert_eq!(
        log["items"][0]["chances"]["unknown"]["reason"],
        "ruleset_too_large"
    );
    // And its narration tells no odds.
    for s in log["items"][0]["narration"]["segments"].as_array().unwrap() {
        assert_ne!(s["kind"], "odds");
    }
}

/// At `lesson` (on a move that teaches nothing else) and `full`, a move
/// that changes who is more likely to win or swings a side's chance by 10
/// points gets one sentence saying so, in the audience's words (when they
/// show the change), cited to this service's own computation; at `brief`
/// none, and a quiet move none.
#[actix_web::test]
async fn an_odds_moment_is_told_once_in_the_audiences_words_and_cited_to_the_computation() {
    let (_db, app) = spawn_app().await;
    let created = send(
        &app,
        post_json("/v1/games", &json!({"seed": "chances-moments"})),
    )
    .await
    .json();
    let id = created["id"].as_str().unwrap().to_owned();
    let game = format!("/v1/games/{id}");
    solved(&app, &format!("{game}/odds")).await;
    for _ in 0..400 {
        let r = send(&app, common::post_empty(&format!("{game}/throws"))).await;
        if r.status.as_u16() != 201 {
            break;
        }
    }
    let mut moments = 0;
    let mut quiet = 0;
    let mut after = 0;
    loop {
        let page = send(&app, get(&format!("{game}/moves?limit=100&cursor={after}")))
            .await
            .json();
        let items = page["items"].as_array().unwrap();
        for item in items {
            let c = &item["chances"];
            let chances = Chances {
                before: pair(&c["before"]),
                after: pair(&c["after"]),
            };
            let probability = item["probability"]["decimal"].as_f64().unwrap();
            let segments = |item: &Value| -> Vec<Value> {
                item["narration"]["segments"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|s| s["kind"] == "odds")
                    .cloned()
                    .collect()
            };
            // At `lesson`, only on a move that teaches nothing else.
            let teaches = |item: &Value| {
                item["narration"]["segments"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|s| s["kind"] != "event" && s["kind"] != "odds")
            };
            // The moment's side, for an audience whose words show it.
            let side_for = |a: Audience| {
                odds_moment_for(&chances, probability, a).map(|m| match m {
                    OddsMoment::LeadChanged { side } | OddsMoment::Swing { side } => side,
                    OddsMoment::RareThrow => {
                        unreachable!("no composite throw is rarer than 1 in 16")
                    }
                })
            };
            if odds_moment(&chances, probability).is_none() {
                quiet += 1;
            }
            let odds = segments(item);
            let general = side_for(Audience::General).filter(|_| !teaches(item));
            assert_eq!(
                odds.len(),
                usize::from(general.is_some()),
                "move {}",
                item["n"]
            );
            if let (Some(seg), Some(side)) = (odds.first(), general) {
                let i = side.index();
                let cites = seg["citations"].as_array().unwrap();
                assert_eq!(cites.len(), 1);
                assert_eq!(cites[0]["source"], ODDS_SOURCE);
                let text = seg["text"].as_str().unwrap();
                let pct = |p: f64| chance_words(p, Audience::General);
                assert!(
                    text.contains(&pct(chances.before[i])) && text.contains(&pct(chances.after[i])),
                    "move {}: {text}",
                    item["n"]
                );
                moments += 1;
            }
            if odds_moment(&chances, probability).is_none() {
                continue;
            }
            let n = item["n"].as_u64().unwrap();
            for (audience, a, detail) in [
                ("young", Audience::Young, "lesson"),
                ("scholar", Audience::Scholar, "full"),
                ("general", Audience::General, "brief"),
            ] {
                let again = send(
                    &app,
                    get(&format!(
                        "{game}/moves/{n}?audience={audience}&detail={detail}"
                    )),
                )
                .await
                .json();
                let segs = segments(&again);
                let side = match detail {
                    "brief" => None,
                    // The young hear a lesson's odds only for a turn of
                    // the game (a teacher's trial: too many chances).
                    "lesson" => side_for(a).filter(|_| {
                        !teaches(&again)
                            && (chances.after[0] - chances.before[0]).abs()
                                >= YOUNG_LESSON_SWING - 1e-12
                    }),
                    _ => side_for(a),
                };
                assert_eq!(
                    segs.len(),
                    usize::from(side.is_some()),
                    "move {n}: {audience} {detail}"
                );
                if let Some(side) = side {
                    let text = segs[0]["text"].as_str().unwrap();
                    let after = chance_words(chances.after[side.index()], a);
                    assert!(text.contains(&after), "{audience}: {text}");
                    if a == Audience::Young {
                        assert!(text.contains("about ") || text.contains(" than "), "{text}");
                    }
                }
            }
        }
        match page["next_cursor"].as_str() {
            Some(c) => after = c.parse().unwrap(),
            None => break,
        }
    }
    assert!(moments > 0, "no odds moment in the game");
    assert!(quiet > moments, "{moments} moments, {quiet} quiet moves");
}

/// The detail levels that tell odds moments, and the audiences, as the
/// narration crate words them: a pure check with chances handed in.
#[test]
fn the_odds_sentence_is_told_at_lesson_and_full_only() {
    let game = narrated_game("chances-1", Preset::Composite, Audience::General).unwrap();
    let m = &game.moves[1];
    let swing = Chances {
        before: [0.5, 0.5],
        after: [0.65, 0.35],
    };
    for audience in Audience::ALL {
        for detail in Detail::ALL {
            let ctx = zohn_ahl::narration::MoveContext {
                detail,
                ..game.context(m, audience)
            };
            let seg = zohn_ahl::narration::odds_segment(&ctx, &swing);
            assert_eq!(
                seg.is_some(),
                detail != Detail::Brief,
                "{audience:?} {detail:?}"
            );
            if let Some(seg) = seg {
                assert_eq!(seg.kind, SegmentKind::Odds);
                let words = match audience {
                    Audience::Young => "about 7 in 10",
                    Audience::General => "65%",
                    Audience::Scholar => "0.6500",
                };
                assert!(seg.text.contains(words), "{audience:?}: {}", seg.text);
            }
        }
    }
}
