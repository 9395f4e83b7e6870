//! The load benchmark's baseline route exists only with the
//! `bench-baseline` feature: the product API is unchanged without it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{TestDb, post_empty, send};

#[actix_web::test]
async fn the_baseline_route_is_only_in_the_bench_build() {
    let db = TestDb::new();
    let service = db.service().await;
    #[cfg(feature = "bench-baseline")]
    service.store().baseline_setup().await.unwrap();
    let app = common::spawn_server(service);
    let r = send(&app, post_empty("/bench/baseline")).await;
    if cfg!(feature = "bench-baseline") {
        assert_eq!(r.status.as_u16(), 201);
        let again = send(&app, post_empty("/bench/baseline")).await.json();
        assert_eq!(
            again["id"].as_i64().unwrap(),
            r.json()["id"].as_i64().unwrap() + 1
        );
    } else {
        r.problem(404);
    }
}
