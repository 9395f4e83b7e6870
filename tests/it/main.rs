//! The integration tests, one binary: each module tests one concern from
//! outside, through the library's public API, a real server bound to a
//! port, the binary, a real browser or a real PostgreSQL. `common` is the one
//! harness they share. `cargo test --test it MODULE::` runs one module.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

mod api_board;
mod api_chances_chart;
mod api_classes;
mod api_conventions;
mod api_detail;
mod api_errors;
mod api_examples;
mod api_examples_busy;
mod api_facts;
mod api_fairness;
mod api_feed;
mod api_feed_schema;
mod api_games;
mod api_limits;
mod api_names;
mod api_play;
mod api_play_rules;
mod api_recap;
mod api_reference;
mod api_roles;
mod api_rulesets;
mod api_seats;
mod api_stability;
mod api_trust;
mod archive;
mod backup;
mod bench_baseline;
mod board_picture;
mod browser;
mod browser_app;
mod browser_classes;
mod browser_devices;
mod browser_print;
mod captions;
mod mcp;
mod move_chances;
mod move_log;
mod narration_citations;
mod narration_data;
mod narration_fidelity;
mod narration_figures;
mod narration_games;
mod odds;
mod retention;
mod rules_board;
mod rules_engine;
mod rules_props;
mod rules_sticks;
mod secret_key;
mod startup;
mod store_keys;
mod store_postgres;
mod store_writer;
mod transcript;
