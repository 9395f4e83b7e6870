//! The live feed (`GET /v1/games/{id}/events`) through the real HTTP stack
//! on a bound port: the snapshot first, one event per move with its number,
//! resuming with `Last-Event-ID` while another client throws, the end
//! closing the stream, the subscriber bounds, and NDJSON with `since`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::{Duration, Instant};

use common::live::{PATIENCE, Served};
use serde_json::json;
use zohn_ahl::domain::GameId;
use zohn_ahl::service::FeedLimits;

async fn served() -> Served {
    Served::start(FeedLimits::default()).await
}

fn events(id: &str) -> String {
    format!("/v1/games/{id}/events")
}

#[actix_web::test]
async fn the_feed_opens_with_the_snapshot_then_one_event_per_move_numbered_by_move() {
    let s = served().await;
    let id = s.create(&json!({"seed": "feed-1"})).await;
    let mut feed = s.stream(&events(&id), &[]).await;
    assert_eq!(feed.status, 200);
    assert_eq!(feed.header("content-type"), Some("text/event-stream"));
    assert_eq!(feed.header("cache-control"), Some("no-cache"));
    let first = feed.block().await.unwrap();
    assert_eq!(first.retry.as_deref(), Some("2000"), "{first:?}");
    let snapshot = feed.event().await.unwrap();
    assert_eq!(snapshot.event.as_deref(), Some("snapshot"));
    assert_eq!(snapshot.id(), 0);
    assert_eq!(
        snapshot.json(),
        s.get_json(&format!("/v1/games/{id}")).await
    );
    for n in 1..=4u32 {
        let thrown = s.throw(&id).await;
        assert_eq!(thrown.status, 201);
        let e = feed.event().await.unwrap();
        assert_eq!(e.event.as_deref(), Some("move"));
        assert_eq!(e.id(), n);
        let data = e.json();
        assert_eq!(
            data,
            s.get_json(&format!("/v1/games/{id}/moves/{n}")).await,
            "move {n}"
        );
        let caption = data["caption"].as_str().unwrap();
        assert!(!caption.is_empty() && caption.chars().count() <= 100);
        assert_eq!(thrown.json()["caption"], data["caption"]);
    }
    s.stop().await;
}

/// A live board keeps itself up to date from the feed alone: every `move`
/// event says how the game stands after it (status, version, who throws
/// next, counters, a pending extra throw, the winner), as `GET
/// /v1/games/{id}` said right after that throw, in SSE and NDJSON alike.
#[actix_web::test]
async fn regression_a_move_event_lacked_the_game_state_after_it() {
    let s = served().await;
    let id = s.create(&json!({"seed": "feed-after"})).await;
    let mut sse = s.stream(&events(&id), &[]).await;
    let mut ndjson = s
        .stream(&events(&id), &[("accept", "application/x-ndjson")])
        .await;
    assert_eq!(
        sse.event().await.unwrap().event.as_deref(),
        Some("snapshot")
    );
    assert_eq!(ndjson.line().await.unwrap()["event"], "snapshot");
    let (mut extra, mut n) = (0, 0u32);
    loop {
        let thrown = s.throw(&id).await;
        assert_eq!(thrown.status, 201);
        n += 1;
        let game = s.get_json(&format!("/v1/games/{id}")).await;
        let e = sse.event().await.unwrap();
        assert_eq!((e.event.as_deref(), e.id()), (Some("move"), n));
        let line = ndjson.line().await.unwrap();
        assert_eq!(line["event"], "move");
        let after = &e.json()["after"];
        assert_eq!(after, &common::after_of(&game), "move {n}");
        assert_eq!(&line["data"]["after"], after, "move {n}");
        assert_eq!(after, &common::after_of(&thrown.json()["state"]));
        assert_eq!(after["version"], n);
        extra += usize::from(after["extra_throw_pending"] == true);
        if game["status"] == "finished" {
            assert!(after["to_throw"].is_null() && !after["winner"].is_null());
            break;
        }
        assert!(n < 2_000, "the game does not end");
    }
    assert!(extra > 0, "no move of the game granted an extra throw");
    assert_eq!(sse.event().await.unwrap().event.as_deref(), Some("end"));
    s.stop().await;
}

#[actix_web::test]
async fn the_feed_narrates_moves_for_the_audience_asked() {
    let s = served().await;
    let id = s.create(&json!({"seed": "feed-audience"})).await;
    s.throw(&id).await;
    let mut feed = s
        .stream(&format!("{}?audience=young&since=0", events(&id)), &[])
        .await;
    let e = feed.event().await.unwrap();
    assert_eq!(e.id(), 1);
    assert_eq!(
        e.json(),
        s.get_json(&format!("/v1/games/{id}/moves/1?audience=young"))
            .await
    );
    assert_eq!(e.json()["narration"]["audience"], "young");
    // The move log carries the same caption, in the audience asked.
    let log = s
        .get_json(&format!("/v1/games/{id}/moves?audience=young"))
        .await;
    assert_eq!(log["items"][0]["caption"], e.json()["caption"]);
    let general = s.get_json(&format!("/v1/games/{id}/moves/1")).await;
    assert!(general["caption"].as_str().unwrap().chars().count() <= 100);
    s.stop().await;
}

#[actix_web::test]
async fn resuming_with_last_event_id_misses_nothing_and_repeats_nothing_while_moves_are_made() {
    let s = served().await;
    let id = s
        .create(&json!({"seed": "feed-resume", "ruleset": {"preset": "ludii"}}))
        .await;
    const MOVES: u32 = 40;
    let thrower = {
        let addr = s.addr;
        let id = id.clone();
        actix_web::rt::spawn(async move {
            let mut made = 0;
            for _ in 0..MOVES {
                let mut a = common::live::Stream::open(
                    addr,
                    "POST",
                    &format!("/v1/games/{id}/throws"),
                    &[],
                    b"",
                )
                .await;
                let status = a.status;
                a.body().await;
                if status != 201 {
                    break;
                }
                made += 1;
                actix_web::rt::time::sleep(std::time::Duration::from_millis(3)).await;
            }
            made
        })
    };
    let mut seen: Vec<u32> = Vec::new();
    let mut last: Option<u32> = None;
    let mut ended = false;
    // Read a few events, hang up, resume from the last id; again and again
    // until every throw is told (or the game ends).
    let mut rounds = 0;
    while !ended && last != Some(MOVES) {
        rounds += 1;
        assert!(rounds < 500, "no progress");
        let mut feed = match last {
            None => s.stream(&events(&id), &[]).await,
            Some(n) => {
                s.stream(&events(&id), &[("last-event-id", &n.to_string())])
                    .await
            }
        };
        // A won game's last move already says it is over: resuming from it
        // is 204, nothing more to tell.
        if feed.status == 204 {
            break;
        }
        assert_eq!(feed.status, 200);
        for _ in 0..3 {
            if last == Some(MOVES) {
                break;
            }
            let e = feed.event().await.expect("an event");
            match e.event.as_deref() {
                Some("snapshot") => {
                    assert!(last.is_none(), "a snapshot on resuming (round {rounds})");
                    last = Some(e.id());
                    seen.extend(1..=e.id());
                }
                Some("move") => {
                    seen.push(e.id());
                    last = Some(e.id());
                }
                Some("end") => {
                    ended = true;
                    break;
                }
                other => panic!("unexpected event {other:?}"),
            }
        }
    }
    let made = thrower.await.unwrap();
    assert!(rounds > 3, "the feed was not resumed");
    let total = final_moves(&s, &id).await;
    assert_eq!(total, made);
    let expected: Vec<u32> = (1..=total).collect();
    assert_eq!(seen, expected, "every move once, in order");
    s.stop().await;
}

async fn final_moves(s: &Served, id: &str) -> u32 {
    let game = s.get_json(&format!("/v1/games/{id}")).await;
    u32::try_from(game["throws"].as_u64().unwrap()).unwrap()
}

#[actix_web::test]
async fn the_end_of_the_game_ends_the_stream() {
    let s = served().await;
    let id = s.create(&json!({"seed": "feed-end"})).await;
    let mut feed = s.stream(&events(&id), &[]).await;
    assert_eq!(
        feed.event().await.unwrap().event.as_deref(),
        Some("snapshot")
    );
    let mut thrown = 0;
    while s.throw(&id).await.status == 201 {
        thrown += 1;
        assert!(thrown < 2000, "the game does not end");
    }
    let mut last_move = 0;
    let end = loop {
        let e = feed.event().await.expect("an end before the stream closes");
        match e.event.as_deref() {
            Some("move") => {
                assert_eq!(e.id(), last_move + 1);
                last_move = e.id();
            }
            Some("end") => break e,
            other => panic!("unexpected {other:?}"),
        }
    };
    assert_eq!(last_move, thrown);
    assert_eq!(end.id(), thrown);
    assert_eq!(end.json()["status"], "finished");
    // The final game, with its recap as the recap's own read gives it.
    let mut data = end.json();
    let recap = data.as_object_mut().unwrap().remove("recap").unwrap();
    assert_eq!(data, s.get_json(&format!("/v1/games/{id}")).await);
    assert_eq!(recap, s.get_json(&format!("/v1/games/{id}/recap")).await);
    assert!(feed.ends().await, "the stream closes after the end");

    // A game already over: its snapshot, the end, and the stream closes.
    let mut feed = s.stream(&events(&id), &[]).await;
    assert_eq!(
        feed.event().await.unwrap().event.as_deref(),
        Some("snapshot")
    );
    assert_eq!(feed.event().await.unwrap().event.as_deref(), Some("end"));
    assert!(feed.ends().await);
    s.stop().await;
}

/// A browser's `EventSource` left open after `end` reconnected every 2 s
/// with the end's id and got `end` again, for ever. Now a resume at or
/// after the end of a finished game is 204 (which stops an `EventSource`),
/// in SSE and NDJSON alike; `end`'s id is the final version, so after a
/// stop a resume from the last move still gets `end`.
#[actix_web::test]
async fn regression_an_event_source_resuming_after_the_end_got_the_end_again_for_ever() {
    let s = served().await;
    // Won: the end's id is the last move's.
    let id = s.create(&json!({"seed": "feed-after-end"})).await;
    while s.throw(&id).await.status == 201 {}
    let moves = final_moves(&s, &id).await;
    let mut feed = s.stream(&format!("{}?since=0", events(&id)), &[]).await;
    let end = loop {
        let e = feed.event().await.unwrap();
        if e.event.as_deref() == Some("end") {
            break e;
        }
    };
    assert_eq!(end.id(), moves);
    for (path, headers) in [
        (events(&id), vec![("last-event-id", end.id().to_string())]),
        (format!("{}?since={}", events(&id), end.id()), vec![]),
        (
            format!("{}?since={}", events(&id), end.id() + 5),
            vec![("accept", "application/x-ndjson".to_owned())],
        ),
    ] {
        let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let a = s.request("GET", &path, &headers, b"").await;
        assert_eq!(a.status, 204, "{path} {headers:?}");
        assert!(a.body.is_empty());
    }
    // Stopped: the end's id is one more than the moves.
    let id = s.create(&json!({"seed": "feed-after-stop"})).await;
    s.throw(&id).await;
    let stopped = s
        .request("POST", &format!("/v1/games/{id}/stop"), &[], b"")
        .await;
    assert_eq!(stopped.status, 200);
    let mut feed = s.stream(&events(&id), &[("last-event-id", "1")]).await;
    let end = feed.event().await.unwrap();
    assert_eq!((end.event.as_deref(), end.id()), (Some("end"), 2));
    assert!(feed.ends().await);
    let a = s
        .request("GET", &events(&id), &[("last-event-id", "2")], b"")
        .await;
    assert_eq!(a.status, 204);
    // A game in play is not over: a resume from its last move waits.
    let id = s.create(&json!({"seed": "feed-in-play"})).await;
    s.throw(&id).await;
    let feed = s.stream(&events(&id), &[("last-event-id", "1")]).await;
    assert_eq!(feed.status, 200);
    s.stop().await;
}

#[actix_web::test]
async fn stopping_the_game_ends_the_stream_with_the_final_view() {
    let s = served().await;
    let id = s.create(&json!({"seed": "feed-stop"})).await;
    s.throw(&id).await;
    let mut feed = s.stream(&events(&id), &[("last-event-id", "1")]).await;
    let stopped = s
        .request("POST", &format!("/v1/games/{id}/stop"), &[], b"")
        .await;
    assert_eq!(
        stopped.status,
        200,
        "{}",
        String::from_utf8_lossy(&stopped.body)
    );
    let end = feed.event().await.unwrap();
    assert_eq!(end.event.as_deref(), Some("end"), "{end:?}");
    assert_eq!(end.json()["status"], "finished");
    assert_eq!(end.json()["version"], 2);
    assert!(feed.ends().await);
    s.stop().await;
}

#[actix_web::test]
async fn subscribers_beyond_the_bounds_get_503_problem_with_retry_after() {
    let s = Served::start(FeedLimits {
        per_game: 2,
        total: 3,
    })
    .await;
    let a = s.create(&json!({})).await;
    let b = s.create(&json!({})).await;
    let mut open = Vec::new();
    for _ in 0..2 {
        let mut feed = s.stream(&events(&a), &[]).await;
        assert_eq!(feed.status, 200);
        feed.event().await.unwrap();
        open.push(feed);
    }
    let refused = s.request("GET", &events(&a), &[], b"").await;
    assert_eq!(refused.status, 503);
    assert_eq!(
        refused.header("content-type"),
        Some("application/problem+json")
    );
    assert_eq!(refused.header("retry-after"), Some("5"));
    assert_eq!(refused.json()["type"], "/problems/feed-full");
    let mut third = s.stream(&events(&b), &[]).await;
    assert_eq!(third.status, 200);
    third.event().await.unwrap();
    let refused = s.request("GET", &events(&b), &[], b"").await;
    assert_eq!(refused.status, 503, "the server's bound");
    assert!(
        refused.json()["detail"]
            .as_str()
            .unwrap()
            .contains("server")
    );
    // A stream whose client hangs up gives its place back (at once; see
    // below: a move here only makes sure that the game goes on).
    drop(third);
    let mut again = None;
    for _ in 0..100 {
        s.throw(&b).await;
        let a = s
            .request("GET", &format!("{}?follow=false", events(&b)), &[], b"")
            .await;
        if a.status == 200 {
            again = Some(a);
            break;
        }
        actix_web::rt::time::sleep(PATIENCE / 200).await;
    }
    assert!(
        again.is_some(),
        "the closed stream's place was never given back"
    );
    s.stop().await;
}

#[actix_web::test]
async fn ndjson_with_since_resumes_after_that_move() {
    let s = served().await;
    let id = s.create(&json!({"seed": "feed-ndjson"})).await;
    for _ in 0..3 {
        assert_eq!(s.throw(&id).await.status, 201);
    }
    let mut feed = s
        .stream(
            &format!("{}?since=1&follow=false", events(&id)),
            &[("accept", "application/x-ndjson")],
        )
        .await;
    assert_eq!(feed.status, 200);
    assert_eq!(feed.header("content-type"), Some("application/x-ndjson"));
    let mut ids = Vec::new();
    while let Some(line) = feed.line().await {
        assert_eq!(line["event"], "move");
        let n = line["id"].as_u64().unwrap();
        assert_eq!(
            line["data"],
            s.get_json(&format!("/v1/games/{id}/moves/{n}")).await
        );
        ids.push(n);
    }
    assert_eq!(ids, [2, 3], "after move 1, and closed without follow");

    // Following: the snapshot line first, then each new move.
    let mut feed = s
        .stream(&events(&id), &[("accept", "application/x-ndjson")])
        .await;
    let snapshot = feed.line().await.unwrap();
    assert_eq!(snapshot["event"], "snapshot");
    assert_eq!(snapshot["id"], 3);
    s.throw(&id).await;
    let line = feed.line().await.unwrap();
    assert_eq!(
        (line["event"].as_str(), line["id"].as_u64()),
        (Some("move"), Some(4))
    );
    s.stop().await;
}

#[actix_web::test]
async fn malformed_resume_points_and_unknown_games_are_problems() {
    let s = served().await;
    let id = s.create(&json!({})).await;
    let bad = s
        .request("GET", &events(&id), &[("last-event-id", "soon")], b"")
        .await;
    assert_eq!(bad.status, 400);
    assert_eq!(bad.json()["errors"][0]["pointer"], "#/header/Last-Event-ID");
    let bad = s
        .request("GET", &format!("{}?since=x", events(&id)), &[], b"")
        .await;
    assert_eq!(bad.json()["errors"][0]["pointer"], "#/query/since");
    let unknown = s
        .request(
            "GET",
            &events("0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79"),
            &[],
            b"",
        )
        .await;
    assert_eq!(unknown.status, 404);
    assert_eq!(
        unknown.header("content-type"),
        Some("application/problem+json")
    );
    s.stop().await;
}

#[actix_web::test]
async fn a_deleted_games_subscribers_got_only_keep_alives_now_a_deleted_event_ends_each_stream() {
    let s = served().await;
    let id = s.create(&json!({"seed": "feed-deleted"})).await;
    for _ in 0..2 {
        assert_eq!(s.throw(&id).await.status, 201);
    }
    let mut sse = s.stream(&events(&id), &[]).await;
    assert_eq!(
        sse.event().await.unwrap().event.as_deref(),
        Some("snapshot")
    );
    let mut ndjson = s
        .stream(&events(&id), &[("accept", "application/x-ndjson")])
        .await;
    assert_eq!(ndjson.line().await.unwrap()["event"], "snapshot");
    // A resumed stream that has told nothing yet is told too.
    let mut resumed = s.stream(&events(&id), &[("last-event-id", "1")]).await;
    assert_eq!(resumed.event().await.unwrap().id(), 2);

    let deleted = s
        .request("DELETE", &format!("/v1/games/{id}"), &[], b"")
        .await;
    assert_eq!(deleted.status, 204);

    let data = json!({"id": id, "reason": "request"});
    for feed in [&mut sse, &mut resumed] {
        let e = feed.event().await.expect("an event before the stream ends");
        assert_eq!(e.event.as_deref(), Some("deleted"), "{e:?}");
        assert_eq!(e.id(), 2, "the last move told");
        assert_eq!(e.json(), data);
        assert!(feed.ends().await, "the stream closes after `deleted`");
    }
    assert_eq!(
        ndjson.line().await.unwrap(),
        json!({"event": "deleted", "id": 2, "data": data})
    );
    assert!(ndjson.ends().await);
    // The game's feed is gone with it.
    let again = s.request("GET", &events(&id), &[], b"").await;
    assert_eq!(again.status, 404);
    s.stop().await;
}

#[actix_web::test]
async fn a_game_removed_by_retention_tells_its_subscribers_and_ends_their_streams() {
    let s = served().await;
    let id = s.create(&json!({"seed": "feed-retention"})).await;
    let second = s.create(&json!({"seed": "feed-second"})).await;
    let mut feed = s.stream(&events(&id), &[]).await;
    assert_eq!(
        feed.event().await.unwrap().event.as_deref(),
        Some("snapshot")
    );
    let mut other = s.stream(&events(&second), &[]).await;
    other.event().await.unwrap();
    // A month on, with a retention of a day: both games are old enough;
    // the purge removes them both.
    let later = time::OffsetDateTime::now_utc() + time::Duration::days(30);
    let purged = s
        .service
        .purge(later, Some(time::Duration::days(1)))
        .await
        .unwrap();
    assert_eq!(purged.games, 2);
    for (feed, game) in [(&mut feed, &id), (&mut other, &second)] {
        let e = feed.event().await.expect("an event before the stream ends");
        assert_eq!(e.event.as_deref(), Some("deleted"), "{e:?}");
        assert_eq!(e.id(), 0);
        assert_eq!(e.json(), json!({"id": game, "reason": "retention"}));
        assert!(feed.ends().await);
    }
    s.stop().await;
}

#[actix_web::test]
async fn a_subscriber_that_hung_up_kept_its_place_until_the_next_event_now_it_is_given_back_at_once()
 {
    let s = Served::start(FeedLimits {
        per_game: 1,
        total: 1,
    })
    .await;
    let id = s.create(&json!({})).await;
    let game = GameId::parse(&id).unwrap();
    let mut feed = s.stream(&events(&id), &[]).await;
    assert_eq!(
        feed.event().await.unwrap().event.as_deref(),
        Some("snapshot")
    );
    assert_eq!(s.service.hub().subscribers(game), (1, 1));
    drop(feed);
    // No move is made and the first keep-alive is 15 s away: only the
    // hang-up itself can end the stream within this wait.
    let deadline = Instant::now() + Duration::from_secs(5);
    while s.service.hub().subscribers(game) != (0, 0) {
        assert!(
            Instant::now() < deadline,
            "the closed stream still holds its place"
        );
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    let again = s.stream(&events(&id), &[]).await;
    assert_eq!(again.status, 200, "its place is free for another");
    s.stop().await;
}

#[actix_web::test]
async fn the_server_sets_tcp_nodelay_so_that_nagle_holds_back_no_event() {
    use actix_web::{App, HttpRequest, HttpServer, web};

    #[derive(Clone)]
    struct NoDelay(bool);
    async fn nodelay(req: HttpRequest) -> String {
        match req.conn_data::<NoDelay>() {
            Some(NoDelay(true)) => "on".to_owned(),
            Some(NoDelay(false)) => "off".to_owned(),
            None => "unknown".to_owned(),
        }
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = zohn_ahl::server::tuned(HttpServer::new(|| {
        App::new().route("/", web::get().to(nodelay))
    }))
    .on_connect(|conn, data| {
        if let Some(tcp) = conn.downcast_ref::<actix_web::rt::net::TcpStream>() {
            data.insert(NoDelay(tcp.nodelay().unwrap_or(false)));
        }
    })
    .workers(1)
    .disable_signals()
    .listen(listener)
    .unwrap()
    .run();
    let handle = server.handle();
    actix_web::rt::spawn(server);
    let mut answer = common::live::Stream::open(addr, "GET", "/", &[], b"").await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body().await, b"on");
    handle.stop(false).await;
}

#[actix_web::test]
async fn a_subscriber_that_falls_behind_the_channel_reads_the_missed_moves_from_the_store() {
    use zohn_ahl::service::{CHANNEL_BUFFER, WatchEvent};

    let s = served().await;
    let id = s.create(&json!({"seed": "feed-behind"})).await;
    let game = GameId::parse(&id).unwrap();
    let mut watch = s
        .service
        .watch(game, None, true, Duration::from_secs(15))
        .await
        .unwrap();
    assert!(matches!(
        watch.next().await.unwrap(),
        Some(WatchEvent::Snapshot(_))
    ));
    // More moves than the channel holds, while the watcher reads nothing.
    let moves = u32::try_from(CHANNEL_BUFFER).unwrap() + 8;
    let mut made = 0;
    while made < moves && s.throw(&id).await.status == 201 {
        made += 1;
    }
    assert!(
        made > u32::try_from(CHANNEL_BUFFER).unwrap(),
        "{made} moves"
    );
    for n in 1..=made {
        match watch.next().await.unwrap() {
            Some(WatchEvent::Move(m)) => assert_eq!(m.record.n, n),
            Some(WatchEvent::End(g)) => panic!("the end before move {n}: {}", g.state.throws),
            other => panic!("move {n}: {other:?}"),
        }
    }
    s.stop().await;
}
