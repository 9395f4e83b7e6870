//! Zohn Ahl, the Kiowa stick-dice race game, as a narrated rules service.
//!
//! The layers are the crates of `crates/`, each using only those below it
//! (docs/architecture.md): the surfaces [`http`] and [`mcp`] side by side
//! over [`service`], which uses [`store`], [`domain`], [`odds`],
//! [`narration`] and the pure [`rules`] engine. This package is the binary
//! and what assembles it: the command line ([`cli`]), the server
//! ([`server`]), the commands on a database beside it ([`offline`]:
//! verify, backup, export, import), and the commands that play whole games
//! offline ([`simulate`], [`transcript`]). It re-exports each crate under its layer's
//! name.

pub mod cli;
pub mod metrics;
pub mod offline;
/// The domain records: the `zohn-ahl-domain` crate (`crates/domain`).
pub use zohn_ahl_domain as domain;
/// The HTTP API: the `zohn-ahl-http` crate (`crates/http`).
pub use zohn_ahl_http as http;
/// The chatbot tools: the `zohn-ahl-mcp` crate (`crates/mcp`).
pub use zohn_ahl_mcp as mcp;
/// Narration: events to cited text: the `zohn-ahl-narration` crate
/// (`crates/narration`).
pub use zohn_ahl_narration as narration;
/// Exact odds: the `zohn-ahl-odds` crate (`crates/odds`).
pub use zohn_ahl_odds as odds;
/// The board as a picture: the `zohn-ahl-picture` crate (`crates/picture`).
pub use zohn_ahl_picture as picture;
/// The rules of Zohn Ahl as a pure engine: the `zohn-ahl-rules` crate
/// (`crates/rules`).
pub use zohn_ahl_rules as rules;
/// The fairness report: a module of the service crate.
pub use zohn_ahl_service::fairness;
pub mod server;
/// The use cases: the `zohn-ahl-service` crate (`crates/service`).
pub use zohn_ahl_service as service;
pub mod simulate;
/// Where throws come from: a module of the service crate.
pub use zohn_ahl_service::throws;
/// Storage: the `zohn-ahl-store` crate (`crates/store`).
pub use zohn_ahl_store as store;
pub mod transcript;

/// The crates are the layers: each crate of `crates/` may depend only on the
/// crates below it, and the compiler holds what its `Cargo.toml` lists. This
/// test holds the lists to the layers, so an upward dependency fails here
/// even before code uses it.
#[cfg(test)]
mod layers {
    /// Each crate of the project, lowest first, with the project's crates it
    /// may use.
    const LAYERS: &[(&str, &[&str])] = &[
        ("zohn-ahl-rules", &[]),
        ("zohn-ahl-narration", &["zohn-ahl-rules"]),
        (
            "zohn-ahl-picture",
            &["zohn-ahl-rules", "zohn-ahl-narration"],
        ),
        ("zohn-ahl-odds", &["zohn-ahl-rules"]),
        ("zohn-ahl-domain", &["zohn-ahl-rules", "zohn-ahl-narration"]),
        ("zohn-ahl-store", &["zohn-ahl-domain"]),
        (
            "zohn-ahl-service",
            &[
                "zohn-ahl-rules",
                "zohn-ahl-narration",
                "zohn-ahl-picture",
                "zohn-ahl-odds",
                "zohn-ahl-domain",
                "zohn-ahl-store",
            ],
        ),
        // The two surfaces, side by side: neither uses the other.
        (
            "zohn-ahl-http",
            &[
                "zohn-ahl-rules",
                "zohn-ahl-narration",
                "zohn-ahl-picture",
                "zohn-ahl-odds",
                "zohn-ahl-domain",
                "zohn-ahl-service",
            ],
        ),
        (
            "zohn-ahl-mcp",
            &[
                "zohn-ahl-rules",
                "zohn-ahl-narration",
                "zohn-ahl-picture",
                "zohn-ahl-odds",
                "zohn-ahl-domain",
                "zohn-ahl-service",
            ],
        ),
    ];

    /// The project's crates a manifest depends on, in any dependency table.
    fn project_dependencies(manifest: &str) -> Vec<String> {
        manifest
            .lines()
            .map(str::trim)
            .filter_map(|l| l.split(['=', '.', ' ']).next())
            .filter(|name| name.starts_with("zohn-ahl-"))
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn no_crate_depends_on_a_crate_above_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut seen = Vec::new();
        for entry in std::fs::read_dir(root.join("crates")).expect("crates/") {
            let dir = entry.expect("an entry of crates/").path();
            let manifest =
                std::fs::read_to_string(dir.join("Cargo.toml")).expect("a crate's Cargo.toml");
            let name = manifest
                .lines()
                .find_map(|l| l.strip_prefix("name = \""))
                .and_then(|l| l.strip_suffix('"'))
                .expect("the crate's name");
            let (_, allowed) = LAYERS
                .iter()
                .find(|(crate_name, _)| *crate_name == name)
                .unwrap_or_else(|| panic!("{name} is not in LAYERS: give it its place"));
            for dependency in project_dependencies(&manifest) {
                assert!(
                    allowed.contains(&dependency.as_str()),
                    "{name} depends on {dependency}, which is not below it: {allowed:?}"
                );
            }
            seen.push(name.to_owned());
        }
        assert_eq!(seen.len(), LAYERS.len(), "every layer is a crate: {seen:?}");
        // The service (this package) sits above every crate of `crates/`.
        let own = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
        for (name, _) in LAYERS {
            assert!(
                project_dependencies(&own).iter().any(|d| d == name),
                "the service uses {name}"
            );
        }
    }

    #[test]
    fn an_upward_dependency_is_seen() {
        let manifest = "[package]\nname = \"zohn-ahl-rules\"\n[dependencies]\nserde.workspace = true\nzohn-ahl-narration = { path = \"../narration\" }\n";
        assert_eq!(project_dependencies(manifest), ["zohn-ahl-narration"]);
    }
}
