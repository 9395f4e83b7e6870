//! The stability promise (CHANGELOG.md): an operation id or a required
//! field of an answer leaves the committed document only with an entry of
//! the changelog naming it under `### Removed`. `openapi/stable.json` lists every operation id
//! and required field the document has had; `UPDATE_STABLE=1 cargo test
//! --test it api_stability::` adds the new ones (it never takes one off).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use serde_json::{Value, json};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{ROOT}/{path}")).unwrap_or_default()
}

/// The operation ids of `doc`.
fn operations(doc: &Value) -> BTreeSet<String> {
    doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().values())
        .filter_map(|op| op["operationId"].as_str().map(str::to_owned))
        .collect()
}

/// The required fields of `doc`'s schemas, as `Schema.field` (a variant
/// of a `oneOf` with a title as `Schema.Title.field`).
fn required_fields(doc: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let names = |schema: &Value| -> Vec<String> {
        schema["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f.as_str().map(str::to_owned))
            .collect()
    };
    for (name, schema) in doc["components"]["schemas"].as_object().unwrap() {
        out.extend(names(schema).into_iter().map(|f| format!("{name}.{f}")));
        for variant in schema["oneOf"].as_array().into_iter().flatten() {
            if let Some(title) = variant["title"].as_str() {
                out.extend(
                    names(variant)
                        .into_iter()
                        .map(|f| format!("{name}.{title}.{f}")),
                );
            }
        }
    }
    out
}

fn listed(stable: &Value, key: &str) -> BTreeSet<String> {
    stable[key]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// Whether the changelog names `what` (in backticks) under a `### Removed`
/// heading of one of its versions.
fn named(changelog: &str, what: &str) -> bool {
    let quoted = format!("`{what}`");
    let mut removed = false;
    for line in changelog.lines() {
        if line.starts_with('#') {
            removed = line.trim() == "### Removed";
        } else if removed && line.contains(&quoted) {
            return true;
        }
    }
    false
}

/// Whether the changelog announces that `what` went: it names it, or, for
/// a field of a schema the document no longer has, names that schema.
fn announced(changelog: &str, doc: &Value, what: &str) -> bool {
    named(changelog, what)
        || what.split_once('.').is_some_and(|(schema, _)| {
            doc["components"]["schemas"][schema].is_null() && named(changelog, schema)
        })
}

#[test]
fn no_operation_id_or_required_field_leaves_the_document_unannounced() {
    let doc: Value = serde_json::from_str(&read("openapi/openapi.json")).unwrap();
    let changelog = read("CHANGELOG.md");
    let stable: Value = serde_json::from_str(&read("openapi/stable.json")).unwrap_or(Value::Null);
    let (ops, fields) = (operations(&doc), required_fields(&doc));
    let (listed_ops, listed_fields) = (listed(&stable, "operations"), listed(&stable, "required"));
    if std::env::var_os("UPDATE_STABLE").is_some() {
        let all_ops: BTreeSet<_> = listed_ops.union(&ops).cloned().collect();
        let all_fields: BTreeSet<_> = listed_fields.union(&fields).cloned().collect();
        if all_ops != listed_ops || all_fields != listed_fields {
            let text = serde_json::to_string_pretty(&json!({
                "operations": all_ops,
                "required": all_fields,
            }))
            .unwrap();
            std::fs::write(format!("{ROOT}/openapi/stable.json"), text + "\n").unwrap();
            panic!("added the new operation ids and required fields to openapi/stable.json");
        }
    }
    let gone: Vec<&String> = listed_ops
        .difference(&ops)
        .chain(listed_fields.difference(&fields))
        .filter(|what| !announced(&changelog, &doc, what))
        .collect();
    assert!(
        gone.is_empty(),
        "gone from openapi/openapi.json with no CHANGELOG.md entry naming them \
         (deprecate first, then list them under Removed): {gone:?}"
    );
    let new: Vec<&String> = ops
        .difference(&listed_ops)
        .chain(fields.difference(&listed_fields))
        .collect();
    assert!(
        new.is_empty(),
        "not yet in openapi/stable.json (run `UPDATE_STABLE=1 cargo test --test it api_stability::`): {new:?}"
    );
}

#[test]
fn the_changelog_has_the_documents_version() {
    let doc: Value = serde_json::from_str(&read("openapi/openapi.json")).unwrap();
    let version = doc["info"]["version"].as_str().unwrap();
    let changelog = read("CHANGELOG.md");
    assert!(
        changelog.contains(&format!("\n## [{version}]")),
        "CHANGELOG.md has no section for the document's version {version}"
    );
    let first = changelog
        .lines()
        .find_map(|l| l.strip_prefix("## ["))
        .and_then(|l| l.split(']').next())
        .unwrap();
    assert!(
        first == version || first == "Unreleased",
        "the newest section of CHANGELOG.md ({first}) is not the document's version {version}"
    );
}

/// The guard itself: a removed operation or field is caught unless named
/// under `### Removed`.
#[test]
fn a_removal_is_caught_unless_the_changelog_names_it() {
    let changelog = "## [9.0.0]\n\n### Added\n\n- `play_throw`.\n\n### Removed\n\n\
                     - `get_sticks`, `MoveView.after` and `OldView`.\n\n### Changed\n\n- `MoveView.n`\n";
    let doc = json!({"components": {"schemas": {"MoveView": {}}}});
    assert!(announced(changelog, &doc, "get_sticks"));
    assert!(announced(changelog, &doc, "MoveView.after"));
    assert!(!announced(changelog, &doc, "MoveView.caption"));
    assert!(!announced(changelog, &doc, "play_throw"));
    assert!(announced(changelog, &doc, "OldView.field"));
    assert!(!announced(changelog, &doc, "MoveView.n"));
    assert!(!announced(
        "### Removed\n- `MoveView` changed.",
        &doc,
        "MoveView.n"
    ));
}
