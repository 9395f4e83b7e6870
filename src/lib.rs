//! Zohn Ahl, the Kiowa stick-dice race game, as a narrated rules service.
//!
//! Four rooms, one direction of dependency (docs/architecture.md): [`http`] calls
//! [`service`], which calls the pure [`rules`] engine and [`narration`], and
//! the [`store`] for SQLite. [`mcp`] is a second surface beside [`http`]:
//! the game as Model Context Protocol tools over the same service.

pub mod cli;
pub mod domain;
pub mod fairness;
pub mod http;
pub mod mcp;
pub mod narration;
pub mod odds;
pub mod picture;
pub mod rules;
pub mod server;
pub mod service;
pub mod simulate;
pub mod store;
pub mod throws;
pub mod transcript;
