//! `POST /bench/baseline` (cargo feature `bench-baseline` only): one tiny
//! durable insert through the same HTTP stack, store and settings as a
//! throw, for `scripts/load.sh`.

use actix_web::{HttpResponse, post, web};

use super::problem::ApiError;
use crate::service::Service;

/// Insert one row and answer 201 with its id.
#[post("/bench/baseline")]
pub async fn post_baseline(service: web::Data<Service>) -> Result<HttpResponse, ApiError> {
    let id = service.baseline_write().await?;
    Ok(HttpResponse::Created().json(serde_json::json!({ "id": id })))
}
