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
/// Narration: events to cited text: the `zohn-ahl-narration` crate
/// (`crates/narration`).
pub use zohn_ahl_narration as narration;
pub mod odds;
/// The board as a picture: the `zohn-ahl-picture` crate (`crates/picture`).
pub use zohn_ahl_picture as picture;
/// The rules of Zohn Ahl as a pure engine: the `zohn-ahl-rules` crate
/// (`crates/rules`).
pub use zohn_ahl_rules as rules;
pub mod server;
pub mod service;
pub mod simulate;
pub mod store;
pub mod throws;
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
        ("zohn-ahl-picture", &["zohn-ahl-rules"]),
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
