//! `zohn-ahl backup`: a copy of a live SQLite database, taken by the binary
//! while a server plays throws on it, holds every throw answered before the
//! copy began and passes `zohn-ahl verify`; restoring is serving the copy.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use zohn_ahl::domain::GameId;
use zohn_ahl::store::Store;

use crate::common::{self, post_json, send};

/// Throws answered 201: the game, the move's number and when the answer
/// came.
type Acknowledged = Arc<Mutex<Vec<(String, u32, Instant)>>>;

#[actix_web::test]
async fn a_backup_taken_under_load_holds_every_throw_answered_before_it_and_verifies() {
    let (db, app) = common::spawn_sqlite_app().await;
    let mut ids = Vec::new();
    for i in 0..4 {
        let created = send(
            &app,
            post_json("/v1/games", &json!({ "seed": format!("backup-{i}") })),
        )
        .await;
        assert_eq!(
            created.status,
            201,
            "{}",
            String::from_utf8_lossy(&created.body)
        );
        ids.push(created.json()["id"].as_str().unwrap().to_owned());
    }
    let acknowledged: Acknowledged = Arc::default();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let load = {
        let (ids, acknowledged, stop) = (ids.clone(), acknowledged.clone(), stop.clone());
        let base = app.base.clone();
        tokio::spawn(async move {
            let client = reqwest::Client::new();
            let mut open = ids;
            while !open.is_empty() && !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let mut still = Vec::new();
                for id in open {
                    let res = client
                        .post(format!("{base}/v1/games/{id}/throws"))
                        .send()
                        .await
                        .unwrap();
                    if res.status() == 201 {
                        let body: serde_json::Value =
                            serde_json::from_slice(&res.bytes().await.unwrap()).unwrap();
                        let n = u32::try_from(body["n"].as_u64().unwrap()).unwrap();
                        acknowledged
                            .lock()
                            .unwrap()
                            .push((id.clone(), n, Instant::now()));
                        still.push(id);
                    }
                }
                open = still;
            }
        })
    };
    tokio::time::sleep(Duration::from_millis(400)).await;

    let copy = db.dir.path().join("copy.db");
    let began = Instant::now();
    let out = {
        let (url, copy) = (db.url.clone(), copy.clone());
        tokio::task::spawn_blocking(move || {
            Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
                .args(["backup", "--database-url", &url, "--to"])
                .arg(&copy)
                .output()
                .unwrap()
        })
        .await
        .unwrap()
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    load.await.unwrap();

    let before: Vec<(String, u32)> = acknowledged
        .lock()
        .unwrap()
        .iter()
        .filter(|(_, _, at)| *at < began)
        .map(|(id, n, _)| (id.clone(), *n))
        .collect();
    assert!(
        before.len() >= 8,
        "the load played before the backup: {before:?}"
    );

    let copy_url = format!("sqlite://{}", copy.display());
    let verified = Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
        .args(["verify", "--database-url", &copy_url])
        .output()
        .unwrap();
    assert!(
        verified.status.success(),
        "{}{}",
        String::from_utf8_lossy(&verified.stdout),
        String::from_utf8_lossy(&verified.stderr)
    );
    assert!(String::from_utf8_lossy(&verified.stdout).contains("4 games checked, no fault"));

    let restored = Store::connect(&copy_url).await.unwrap();
    for (id, n) in &before {
        let moves = restored
            .moves(GameId::parse(id).unwrap(), n - 1, 1)
            .await
            .unwrap();
        assert_eq!(
            moves.first().map(|m| m.n),
            Some(*n),
            "game {id}: move {n}, answered before the backup began, is not in it"
        );
    }
    restored.close().await;

    // A second backup to the same file is refused: a backup never
    // overwrites.
    let again = Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
        .args(["backup", "--database-url", &db.url, "--to"])
        .arg(&copy)
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("cannot back up: ")
            && String::from_utf8_lossy(&again.stderr)
                .contains("exists: a backup is written to a new file"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
}

/// An operator's mistyped path: `verify`, `backup` and `export` said "no
/// fault", "backed up" and "exported 0 games" on a database that was not
/// there, having made an empty one. They refuse it now, and make nothing.
#[test]
fn regression_commands_that_read_a_database_made_an_empty_one_at_a_mistyped_path() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("mistyped.db");
    let url = format!("sqlite://{}", missing.display());
    let copy = dir.path().join("copy.db");
    for args in [
        vec!["verify", "--database-url", &url],
        vec!["export", "--database-url", &url],
        vec![
            "backup",
            "--database-url",
            &url,
            "--to",
            copy.to_str().unwrap(),
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_zohn-ahl"))
            .args(&args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains(&format!("no database at {}", missing.display())),
            "{args:?}: {said}"
        );
    }
    assert!(!missing.exists() && !copy.exists());
}
