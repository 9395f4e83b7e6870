//! Classes (issue 28, point 2): a teacher makes several seated games at
//! once under one host token, lists them with where each stands, adds one,
//! and the class's host token is host of each game; through the real HTTP
//! stack on a bound port, on SQLite (and on PostgreSQL with the suite's
//! backend).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use actix_web::test;
use common::{Bound, Reply, get, post_empty, post_json, send, spawn_app};
use serde_json::{Value, json};

fn bearer(req: test::TestRequest, token: &str) -> test::TestRequest {
    req.insert_header(("authorization", format!("Bearer {token}")))
}

/// A class made with `games` games of Hawks and Foxes; its answer.
async fn make_class(app: &Bound, games: u32) -> Value {
    let r = send(
        app,
        post_json(
            "/v1/classes",
            &json!({
                "name": "Room 4",
                "games": games,
                "game": {"sides": {"a": {"name": "Hawks"}, "b": {"name": "Foxes"}}, "seed": "class"}
            }),
        ),
    )
    .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let class = r.json();
    assert_eq!(
        r.header("location").unwrap(),
        format!("/v1/classes/{}", class["id"].as_str().unwrap())
    );
    class
}

fn str_of<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{pointer} in {v}"))
}

async fn list(app: &Bound, class: &Value, token: &str) -> Reply {
    send(
        app,
        bearer(get(&format!("/v1/classes/{}", str_of(class, "/id"))), token),
    )
    .await
}

#[actix_web::test]
async fn a_class_is_made_with_its_seated_games_and_listed_for_its_host() {
    let (_db, app) = spawn_app().await;
    let class = make_class(&app, 3).await;
    assert_eq!(class["name"], "Room 4");
    let host = str_of(&class, "/host_token").to_owned();
    assert_eq!(host.len(), 64);
    let games = class["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    for g in games {
        assert_eq!(g["seated"], true);
        assert_eq!(g["sides"][0]["name"], "Hawks");
        assert_eq!(str_of(g, "/seat_tokens/a").len(), 64);
        assert_eq!(str_of(g, "/host_token").len(), 64);
        assert_ne!(g["host_token"], class["host_token"]);
    }
    let id = str_of(&class, "/id");
    assert_eq!(class["links"]["self"], format!("/v1/classes/{id}"));
    assert_eq!(class["links"]["overview"], format!("/play/class/{id}"));

    // A game played and one stopped: the list says where each stands.
    let first = str_of(&games[0], "/id");
    let second = str_of(&games[1], "/id");
    let thrown = send(
        &app,
        bearer(post_empty(&format!("/v1/games/{first}/throws")), &host),
    )
    .await;
    assert_eq!(
        thrown.status,
        201,
        "{}",
        String::from_utf8_lossy(&thrown.body)
    );
    let stopped = send(
        &app,
        bearer(post_empty(&format!("/v1/games/{second}/stop")), &host),
    )
    .await;
    assert_eq!(
        stopped.status,
        200,
        "{}",
        String::from_utf8_lossy(&stopped.body)
    );

    let r = list(&app, &class, &host).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let listed = r.json();
    assert_eq!(listed["name"], "Room 4");
    let items = listed["games"].as_array().unwrap();
    let ids: Vec<&str> = items.iter().map(|g| str_of(g, "/id")).collect();
    let made: Vec<&str> = games.iter().map(|g| str_of(g, "/id")).collect();
    let mut sorted = made.clone();
    sorted.sort_unstable();
    let mut listed_sorted = ids.clone();
    listed_sorted.sort_unstable();
    assert_eq!(listed_sorted, sorted);
    let by_id = |id: &str| items.iter().find(|g| g["id"] == id).unwrap();
    assert_eq!(by_id(first)["standing"], "in_play");
    assert_eq!(by_id(first)["version"], 1);
    assert!(by_id(first)["to_throw"]["side"].is_string());
    assert!(by_id(first)["sides"][1]["counters"].as_u64().is_some());
    assert!(by_id(first)["recap"].is_null());
    assert_eq!(by_id(second)["standing"], "stopped");
    assert_eq!(by_id(second)["recap"], format!("/v1/games/{second}/recap"));
    assert_eq!(
        by_id(second)["board"],
        format!("/v1/games/{second}/board.svg?view=projector")
    );
    // No token is ever shown again by the list.
    assert!(!String::from_utf8_lossy(&r.body).contains(&host));
    assert!(items.iter().all(|g| g.get("host_token").is_none()));
    // The class's fairness link reads every game's throws together.
    let fairness = str_of(&listed, "/links/fairness");
    for id in &made {
        assert!(fairness.contains(id), "{fairness}");
    }
    let r = send(&app, get(fairness)).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
}

#[actix_web::test]
async fn a_class_is_read_only_with_its_host_token() {
    let (_db, app) = spawn_app().await;
    let class = make_class(&app, 1).await;
    let other = make_class(&app, 1).await;
    let id = str_of(&class, "/id");
    // No token, an unknown one: 401.
    let r = send(&app, get(&format!("/v1/classes/{id}"))).await;
    assert_eq!(r.problem(401)["type"], "/problems/class-token-required");
    let r = list(&app, &class, &"0".repeat(64)).await;
    r.problem(401);
    // Another class's token, a game's own host token: 403.
    let r = list(&app, &class, str_of(&other, "/host_token")).await;
    assert_eq!(r.problem(403)["type"], "/problems/not-this-class");
    let r = list(&app, &class, str_of(&class, "/games/0/host_token")).await;
    r.problem(403);
    // No such class: 404; a malformed id: 400 at the path.
    let r = send(
        &app,
        bearer(
            get("/v1/classes/00000000-0000-4000-8000-000000000000"),
            str_of(&class, "/host_token"),
        ),
    )
    .await;
    assert_eq!(r.problem(404)["type"], "/problems/class-not-found");
    let r = send(&app, get("/v1/classes/nope")).await;
    assert_eq!(r.problem(400)["errors"][0]["pointer"], "#/path/id");
}

#[actix_web::test]
async fn a_class_is_refused_naming_each_field_and_its_bound() {
    let (_db, app) = spawn_app().await;
    let r = send(
        &app,
        post_json(
            "/v1/classes",
            &json!({"name": " ", "games": 41, "game": {"sides": {"a": {"name": ""}}}}),
        ),
    )
    .await;
    let p = r.problem(400);
    let pointers: Vec<&str> = p["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(pointers, ["/name", "/games", "/game/sides/a/name"], "{p}");
    let detail = p["detail"].as_str().unwrap();
    assert!(detail.contains("from 1 to 40 games, got 41"), "{detail}");
    assert!(detail.contains("/game/sides/a/name: "), "{detail}");
    let r = send(
        &app,
        post_json("/v1/classes", &json!({"name": "A", "games": 0})),
    )
    .await;
    assert_eq!(r.problem(400)["errors"][0]["pointer"], "/games");
    let r = send(
        &app,
        post_json(
            "/v1/classes",
            &json!({"name": "A", "games": 2, "game": {"seats": false}}),
        ),
    )
    .await;
    // The game's schema allows `false`: a class refuses it as 422 (it was
    // a 400, which schemathesis found for a schema-valid body).
    let p = r.problem(422);
    assert_eq!(p["type"], "/problems/class-games-seated");
    assert_eq!(p["errors"][0]["pointer"], "/game/seats");
    let r = send(
        &app,
        post_json(
            "/v1/classes",
            &json!({"name": "A", "games": 2, "game": {"sides": {"a": {"name": "Hawks"}, "b": {"name": "hawks"}}}}),
        ),
    )
    .await;
    assert_eq!(r.problem(422)["errors"][0]["pointer"], "/game/sides/b/name");
    let r = send(&app, post_json("/v1/classes", &json!({"games": "2"}))).await;
    assert_eq!(r.problem(400)["errors"][0]["pointer"], "/games");
    let r = send(
        &app,
        post_json("/v1/classes", &json!({"name": "A", "games": 2, "x": 1})),
    )
    .await;
    r.problem(400);
}

/// Every field is optional, as a new game's: `{}` or no body makes a
/// class named "Class" of one game with a new game's defaults.
#[actix_web::test]
async fn an_empty_body_makes_a_class_of_one_game() {
    let (_db, app) = spawn_app().await;
    for req in [
        post_json("/v1/classes", &json!({})),
        post_empty("/v1/classes"),
    ] {
        let r = send(&app, req).await;
        assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
        let class = r.json();
        assert_eq!(class["name"], "Class");
        assert_eq!(class["games"].as_array().unwrap().len(), 1);
        assert_eq!(class["games"][0]["sides"][0]["name"], "Side A");
    }
}

#[actix_web::test]
async fn the_class_host_adds_games_up_to_the_bound() {
    let (_db, app) = spawn_app().await;
    let class = make_class(&app, 39).await;
    let id = str_of(&class, "/id");
    let host = str_of(&class, "/host_token");
    let add = || post_json(&format!("/v1/classes/{id}/games"), &json!({"seed": "more"}));
    send(&app, add()).await.problem(401);
    send(
        &app,
        bearer(add(), str_of(&class, "/games/0/seat_tokens/a")),
    )
    .await
    .problem(403);
    let r = send(&app, bearer(add(), host)).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let added = r.json();
    assert_eq!(added["seated"], true);
    assert_eq!(
        r.header("location").unwrap(),
        format!("/v1/games/{}", str_of(&added, "/id"))
    );
    let r = send(&app, bearer(add(), host)).await;
    assert_eq!(r.problem(409)["type"], "/problems/class-full");
    let listed = list(&app, &class, host).await.json();
    let games = listed["games"].as_array().unwrap();
    assert_eq!(games.len(), 40);
    assert!(games.iter().any(|g| g["id"] == added["id"]));
}

/// The class's host token is host of each of its games: it throws for
/// either side, stops and deletes, and a game deleted leaves the class;
/// another class's host token is refused (403).
#[actix_web::test]
async fn the_class_host_token_is_host_of_each_of_its_games() {
    let (_db, app) = spawn_app().await;
    let class = make_class(&app, 2).await;
    let other = make_class(&app, 1).await;
    let host = str_of(&class, "/host_token");
    let game = str_of(&class, "/games/0/id");
    let another = str_of(&class, "/games/1/id");
    let stranger = str_of(&other, "/host_token");
    // Another class's host: not this game's.
    for req in [
        post_empty(&format!("/v1/games/{game}/throws")),
        post_empty(&format!("/v1/games/{game}/stop")),
        test::TestRequest::delete().uri(&format!("/v1/games/{game}")),
    ] {
        send(&app, bearer(req, stranger)).await.problem(403);
    }
    // Throws for whichever side is to move, twice.
    for _ in 0..2 {
        let r = send(
            &app,
            bearer(post_empty(&format!("/v1/games/{game}/throws")), host),
        )
        .await;
        assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    }
    // Reports a physical throw.
    let r = send(
        &app,
        bearer(
            test::TestRequest::post()
                .uri(&format!("/v1/games/{game}/throws"))
                .insert_header(("content-type", "application/json"))
                .set_payload(r#"{"sticks": ["flat", "round", "flat", "flat"]}"#),
            host,
        ),
    )
    .await;
    assert!(
        r.status == 201 || r.status == 409,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    let r = send(
        &app,
        bearer(post_empty(&format!("/v1/games/{game}/stop")), host),
    )
    .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let r = send(
        &app,
        bearer(
            test::TestRequest::delete().uri(&format!("/v1/games/{another}")),
            host,
        ),
    )
    .await;
    assert_eq!(r.status, 204, "{}", String::from_utf8_lossy(&r.body));
    let listed = list(&app, &class, host).await.json();
    let ids: Vec<&str> = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| str_of(g, "/id"))
        .collect();
    assert_eq!(ids, [game]);
    // The game's own host token still works as before.
    let own = str_of(&other, "/games/0/host_token");
    let mine = str_of(&other, "/games/0/id");
    let r = send(
        &app,
        bearer(post_empty(&format!("/v1/games/{mine}/stop")), own),
    )
    .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
}

/// Each game a class makes counts against the address's limit on games
/// created: a class of more games than are left this minute is refused
/// whole, and makes none.
#[actix_web::test]
async fn a_class_counts_each_of_its_games_against_the_creation_limit() {
    let settings = zohn_ahl::http::RateSettings {
        games_per_minute: 5,
        ..zohn_ahl::http::RateSettings::off()
    };
    let (_db, app) = crate::api_limits::limited(settings).await;
    let class = |n: u32| post_json("/v1/classes", &json!({"name": "Room 4", "games": n}));
    let r = send(&app, class(4)).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let made = r.json();
    let r = send(&app, class(2)).await;
    let p = r.problem(429);
    assert_eq!(p["type"], "/problems/rate-limited");
    assert!(r.header("retry-after").is_some());
    // One left: one more game in the class, then none.
    let id = str_of(&made, "/id");
    let host = str_of(&made, "/host_token");
    let add = || bearer(post_empty(&format!("/v1/classes/{id}/games")), host);
    assert_eq!(send(&app, add()).await.status, 201);
    send(&app, add()).await.problem(429);
    // More at once than the limit ever allows.
    let r = send(&app, class(6)).await;
    let p = r.problem(429);
    assert!(p["detail"].as_str().unwrap().contains('6'), "{p}");
}

/// The projector's overview of a class: served for a class that exists
/// (it reads the class with the host's token from its fragment), the "no
/// such class" page otherwise; its script sends the token only in the
/// Authorization header, never in an address it requests.
#[actix_web::test]
async fn the_overview_page_is_served_for_a_class_and_not_found_otherwise() {
    let (_db, app) = spawn_app().await;
    let class = make_class(&app, 2).await;
    let r = send(&app, get(str_of(&class, "/links/overview"))).await;
    assert_eq!(r.status, 200);
    assert!(
        r.header("content-security-policy")
            .unwrap()
            .starts_with("default-src 'none'")
    );
    let page = String::from_utf8(r.body).unwrap();
    assert!(page.contains("id=\"boards\""));
    assert!(page.contains("/play/assets/class.js"));
    assert!(
        !page.contains("Room 4"),
        "the page tells nothing of the class"
    );
    for path in [
        "/play/class/00000000-0000-4000-8000-000000000000",
        "/play/class/nope",
    ] {
        let r = send(&app, get(path)).await;
        assert_eq!(r.status, 404, "{path}");
        assert!(String::from_utf8(r.body).unwrap().contains("No such class"));
    }
    let js = String::from_utf8(send(&app, get("/play/assets/class.js")).await.body).unwrap();
    assert!(js.contains("Authorization: \"Bearer \" + token"));
    for line in js.lines().filter(|l| l.contains("token")) {
        assert!(
            !line.contains("fetch(") && !line.contains("src"),
            "the token near a request URL: {line}"
        );
    }
}

/// A class's name is kept no longer than its games: once a retention
/// purge has taken the last of them, the class goes too; before, it stays.
#[actix_web::test]
async fn a_class_goes_with_the_last_of_its_games_past_the_retention() {
    use time::{Duration, OffsetDateTime};
    let (_db, service, app) = common::spawn_app_with_service().await;
    let class = make_class(&app, 2).await;
    let host = str_of(&class, "/host_token");
    let now = OffsetDateTime::now_utc();
    let retention = Some(Duration::days(30));
    let purged = service.purge(now, retention).await.unwrap();
    assert_eq!(purged.games, 0);
    assert_eq!(list(&app, &class, host).await.status, 200);
    let purged = service
        .purge(now + Duration::days(31), retention)
        .await
        .unwrap();
    assert_eq!(purged.games, 2);
    let r = list(&app, &class, host).await;
    assert_eq!(r.problem(404)["type"], "/problems/class-not-found");
}

/// A class's creation retried with its Idempotency-Key (a teacher's
/// network dropped the answer) gets the first answer again, byte for byte,
/// every token included, and makes no second class; the same key with
/// another body is 422, and a game's creation with the same key and body
/// is another request.
#[actix_web::test]
async fn a_class_retried_with_its_idempotency_key_is_made_once() {
    let (_db, app) = spawn_app().await;
    let body = json!({"name": "Room 4", "games": 2});
    let create = |body: &Value| {
        post_json("/v1/classes", body).insert_header(("idempotency-key", "room-4-monday"))
    };
    let first = send(&app, create(&body)).await;
    assert_eq!(
        first.status,
        201,
        "{}",
        String::from_utf8_lossy(&first.body)
    );
    assert!(first.header("idempotent-replayed").is_none());
    let again = send(&app, create(&body)).await;
    assert_eq!(again.status, 201);
    assert_eq!(again.header("idempotent-replayed").as_deref(), Some("true"));
    assert_eq!(again.body, first.body);
    assert_eq!(again.header("location"), first.header("location"));
    let class = first.json();
    let listed = list(&app, &class, str_of(&class, "/host_token"))
        .await
        .json();
    assert_eq!(listed["games"].as_array().unwrap().len(), 2);
    let other = send(&app, create(&json!({"name": "Room 5", "games": 2}))).await;
    assert_eq!(
        other.problem(422)["type"],
        "/problems/idempotency-key-reused"
    );
    // The same key and the same bytes, `{}`, to make a class and a game.
    let key = ("idempotency-key", "the-same-bytes");
    let class = send(
        &app,
        post_json("/v1/classes", &json!({})).insert_header(key),
    )
    .await;
    assert_eq!(class.status, 201);
    let game = send(&app, post_json("/v1/games", &json!({})).insert_header(key)).await;
    assert_eq!(
        game.problem(422)["type"],
        "/problems/idempotency-key-reused"
    );
}

/// A class's games had no join codes (they were made apart from a single
/// game's creation, which alone gave codes), so its pupils could not join
/// by code. Every game of a class, made with it or added, now has a code
/// for each side, and each code opens its own seat.
#[actix_web::test]
async fn regression_a_class_s_games_had_no_join_codes() {
    let (_db, app) = spawn_app().await;
    let class = make_class(&app, 2).await;
    let host = str_of(&class, "/host_token").to_owned();
    let added = send(
        &app,
        bearer(
            post_json(
                &format!("/v1/classes/{}/games", str_of(&class, "/id")),
                &json!({}),
            ),
            &host,
        ),
    )
    .await;
    assert_eq!(
        added.status,
        201,
        "{}",
        String::from_utf8_lossy(&added.body)
    );
    let mut games: Vec<Value> = class["games"].as_array().unwrap().clone();
    games.push(added.json());
    let mut seen = std::collections::HashSet::new();
    for game in &games {
        for side in ["a", "b"] {
            let code = str_of(game, &format!("/join_codes/{side}"));
            assert!(seen.insert(code.to_owned()), "{code} twice");
            let joined = send(&app, post_json("/v1/join", &json!({ "code": code }))).await;
            assert_eq!(
                joined.status,
                200,
                "{}",
                String::from_utf8_lossy(&joined.body)
            );
            let joined = joined.json();
            assert_eq!(joined["game_id"], game["id"]);
            assert_eq!(joined["side"], side.to_uppercase());
            assert_eq!(joined["token"], game["seat_tokens"][side]);
        }
    }
}
