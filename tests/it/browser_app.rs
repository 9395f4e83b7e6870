//! The board as an MCP App in a real browser: a host page
//! (`clients/mcp-app-host`) built on the official MCP Apps SDK's host side
//! (`AppBridge`, `@modelcontextprotocol/ext-apps`) and the official MCP
//! client, bundled by esbuild, talks to the real server's `/mcp`. It reads
//! the view the throw tool names, renders it in a sandboxed iframe under the
//! content-security policy the resource declares, and relays the view's
//! calls. The view shows the board; a click on its throw button throws
//! through the host; the view shows the new narration and board.
//!
//! The host page's bundle is `clients/mcp-app-host/dist/host.js`; CI builds
//! it (`.ci/run`), and the test builds it with npm when it is missing.
//! Gated like the other browser tests (the cfg `browser_tests`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::browser::{Driver, connect, css, js, save, tools, until};
use crate::common::{self, Target as _};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use actix_web::{HttpResponse, web};
use serde_json::json;

/// Built without a browser, the app's test is ignored saying why; built
/// with one, it runs.
#[test]
fn regression_the_app_test_runs_or_says_why() {
    common::assert_the_other_tests_run_or_say_why(
        cfg!(browser_tests),
        "browser_app::regression_the_app_test_runs_or_says_why",
        "needs chromium and chromedriver",
    );
}

/// The narration the view shows.
async fn narration(client: &fantoccini::Client) -> serde_json::Value {
    js(
        client,
        "return document.getElementById('narration').textContent",
    )
    .await
}

/// The host page: the bundle does the rest.
const HOST_PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP App host</title>
<style>iframe { width: 760px; height: 600px; border: 1px solid #999; }</style>
</head><body><script type="module" src="/host/host.js"></script></body></html>"#;

/// The host's bundle, built with npm if it is not there yet.
fn host_bundle() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("clients/mcp-app-host");
    let bundle = dir.join("dist/host.js");
    if bundle.is_file() {
        return bundle;
    }
    let npm = |args: &[&str]| {
        let status = Command::new("npm")
            .args(args)
            .current_dir(&dir)
            .stdout(Stdio::null())
            .status()
            .unwrap_or_else(|e| {
                panic!(
                    "the host page needs npm ({e}); or run `npm ci && npm run build` in {}",
                    dir.display()
                )
            });
        assert!(status.success(), "npm {args:?} in {} failed", dir.display());
    };
    if !dir.join("node_modules").is_dir() {
        npm(&["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
    }
    npm(&["run", "build"]);
    bundle
}

#[actix_web::test]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs chromium and chromedriver when built (apt-get install chromium chromium-driver, then touch build.rs)"
)]
async fn the_board_app_throws_through_the_sdk_host_and_shows_the_narration() {
    let (driver_bin, chromium) =
        tools().unwrap_or_else(|why| panic!("the browser test cannot run: {why}"));
    let bundle = std::fs::read(host_bundle()).unwrap();
    let db = common::TestDb::new();
    let service = db.service().await;
    let mcp = common::mcp_endpoint(&service);
    let server = common::spawn_server_with(move || {
        let bundle = bundle.clone();
        zohn_ahl::server::app(service.clone(), mcp.clone())
            .route(
                "/host/",
                web::get()
                    .to(|| async { HttpResponse::Ok().content_type("text/html").body(HOST_PAGE) }),
            )
            .route(
                "/host/host.js",
                web::get().to(move || {
                    let bundle = bundle.clone();
                    async move {
                        HttpResponse::Ok()
                            .content_type("text/javascript")
                            .body(bundle)
                    }
                }),
            )
    });
    let port = common::process::free_port();
    let _driver = Driver(
        Command::new(&driver_bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    let profile = tempfile::tempdir().unwrap();
    let client = connect(port, &chromium, profile.path()).await;

    client
        .goto(&format!("{}/host/", server.base))
        .await
        .unwrap();
    until(
        &client,
        "the host connected, created a game and rendered the view",
        "if (window.host && window.host.error) throw new Error(window.host.error); return !!(window.host && window.host.ready)",
    )
    .await;
    let host = js(&client, "return window.host").await;
    assert_eq!(host["uri"], "ui://zohn-ahl/board");
    let csp = host["csp"].as_str().unwrap();
    assert!(csp.contains("connect-src 'none'"), "{csp}");
    let id = host["gameId"].as_str().unwrap().to_owned();

    // Inside the sandboxed frame: the view, connected, shows the new game.
    css(&client, "#app").await.enter_frame().await.unwrap();
    until(
        &client,
        "the view initialized",
        "return document.body.dataset.connected === 'true'",
    )
    .await;
    until(
        &client,
        "the board drawn",
        "return document.body.dataset.drawn === '1' && !!document.querySelector('#board svg')",
    )
    .await;
    let origin = js(&client, "return window.origin").await;
    assert_eq!(
        origin,
        json!("null"),
        "the view runs in a sandbox of its own"
    );
    let title = js(
        &client,
        "return document.getElementById('title').textContent",
    )
    .await;
    assert_eq!(title, json!("Zohn Ahl: Ama and Bea"));
    let before = narration(&client).await;
    assert!(!before.as_str().unwrap().is_empty());

    // A click throws: through the host, to the server, and back.
    until(
        &client,
        "the throw button enabled",
        "return !document.getElementById('throw').disabled",
    )
    .await;
    css(&client, "#throw").await.click().await.unwrap();
    until(
        &client,
        "the first throw shown",
        "return document.body.dataset.throws === '1' && document.body.dataset.drawn === '2'",
    )
    .await;
    let after = narration(&client).await;
    let narration = after.as_str().unwrap();
    assert_ne!(narration, before.as_str().unwrap());
    assert!(
        narration.contains('['),
        "the narration cites its sources: {narration}"
    );
    let error = js(&client, "return document.getElementById('error').hidden").await;
    assert_eq!(error, json!(true));
    save("mcp-app.png", &client.screenshot().await.unwrap());

    // The chances chart, once the ruleset's odds are solved (until then
    // the tool says to ask again, and the view shows it).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        css(&client, "#chances").await.click().await.unwrap();
        until(
            &client,
            "the chart or the tool's answer shown",
            "const c = document.getElementById('chart'); return !document.getElementById('chances').disabled && (!document.getElementById('error').hidden || (!c.hidden && c.complete && c.naturalWidth > 0))",
        )
        .await;
        let shown = js(&client, "return !document.getElementById('chart').hidden").await;
        if shown == json!(true) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no chart: {}",
            js(
                &client,
                "return document.getElementById('error').textContent"
            )
            .await
        );
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    save("mcp-app-chances.png", &client.screenshot().await.unwrap());
    let alt = js(&client, "return document.getElementById('chart').alt").await;
    assert!(!alt.as_str().unwrap().is_empty(), "the chart in words");

    // The server played it: the move log holds the throw the view showed.
    client.enter_parent_frame().await.unwrap();
    let host = js(&client, "return window.host").await;
    assert_eq!(host["calls"][0], "throw");
    assert!(
        host["calls"].as_array().unwrap()[1..]
            .iter()
            .all(|c| c == "get_chances_chart"),
        "{}",
        host["calls"]
    );
    assert!(
        !host["sizes"].as_array().unwrap().is_empty(),
        "the view told its height"
    );
    let board = format!("zohn-ahl://games/{id}/board.svg");
    assert_eq!(host["reads"], json!([board, board]));
    let game = server
        .send(common::get(&format!("/v1/games/{id}")))
        .await
        .json();
    assert_eq!(game["throws"], 1, "{game}");
}
