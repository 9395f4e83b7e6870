//! How a tool answers: a text block with structured content, or an error
//! result in the product's words (the service's refusals, the same words
//! REST's problem details carry, with the tool's argument named where REST
//! names a field of its body or a header).

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock};
use serde::Serialize;

use crate::service::{Answer, Refusal, RefusalKind, ServiceError};

/// The output schema of `T` as the tool list gives it: its answer's
/// fields, each with its type (an array's items' type when they are
/// plain), and which are required; not their prose, nor what nested
/// objects hold (the tool's description and its text say what they mean),
/// so that the list of every tool stays within a model's budget (4,000
/// tokens).
pub(super) fn schema_for_output<T: schemars::JsonSchema + 'static>()
-> std::sync::Arc<rmcp::model::JsonObject> {
    use serde_json::{Map, Value};
    let full = rmcp::handler::server::tool::schema_for_output::<T>();
    let defs = full.get("$defs").and_then(Value::as_object);
    // A `$ref` to one of the schema's own definitions, followed.
    let resolve = |v: &Value| -> Value {
        v.get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.rsplit('/').next())
            .and_then(|name| defs.and_then(|d| d.get(name)))
            .unwrap_or(v)
            .clone()
    };
    let kind = |v: &Value| -> Map<String, Value> {
        let v = resolve(v);
        let mut out = Map::new();
        for key in ["type", "enum"] {
            if let Some(t) = v.get(key) {
                out.insert(key.to_owned(), t.clone());
            }
        }
        if let Some(items) = v.get("items").map(&resolve)
            && items.get("type").and_then(Value::as_str) != Some("object")
            && let Some(t) = items.get("type")
        {
            out.insert("items".to_owned(), serde_json::json!({ "type": t }));
        }
        out
    };
    let mut schema = Map::new();
    schema.insert("type".to_owned(), Value::from("object"));
    if let Some(props) = full.get("properties").and_then(Value::as_object) {
        let props: Map<String, Value> = props
            .iter()
            .map(|(name, v)| (name.clone(), Value::Object(kind(v))))
            .collect();
        schema.insert("properties".to_owned(), Value::Object(props));
    }
    if let Some(required) = full.get("required") {
        schema.insert("required".to_owned(), required.clone());
    }
    std::sync::Arc::new(schema)
}

/// A tool's input schema as listed: without the dialect's address (every
/// schema of the protocol is JSON Schema 2020-12), without `"default":
/// null`, which says nothing an optional argument does not, and with its
/// properties, if none.
pub(super) fn list_input(tool: &mut rmcp::model::Tool) {
    let mut schema = (*tool.input_schema).clone();
    schema.remove("$schema");
    // A tool without arguments still lists its (empty) properties, as
    // clients expect of an object's schema.
    schema
        .entry("properties")
        .or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()));
    if let Some(serde_json::Value::Object(props)) = schema.get_mut("properties") {
        for prop in props.values_mut() {
            if let Some(p) = prop.as_object_mut()
                && p.get("default") == Some(&serde_json::Value::Null)
            {
                p.remove("default");
            }
        }
    }
    tool.input_schema = std::sync::Arc::new(schema);
}

/// A tool's answer: a text block and the structured content.
pub(super) fn ok<T: Serialize>(text: String, structured: &T) -> Result<CallToolResult, ErrorData> {
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(
        serde_json::to_value(structured)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?,
    );
    Ok(result)
}

/// The answer the service kept for a change (a creation, a throw, a
/// stop): the text and the structured content, as JSON.
pub(super) fn kept(answer: &Answer) -> Result<CallToolResult, ErrorData> {
    match serde_json::from_slice::<(String, serde_json::Value)>(&answer.body) {
        Ok((text, output)) => ok(text, &output),
        Err(e) => Err(ErrorData::internal_error(e.to_string(), None)),
    }
}

/// An error the model can read and act on, in the product's words.
pub(super) fn refusal(detail: impl Into<String>) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::error(vec![ContentBlock::text(
        detail.into(),
    )]))
}

/// The tool argument that a field of the creation request is.
fn argument(pointer: &str) -> Option<&'static str> {
    match pointer {
        "/sides/a/name" => Some("side_a"),
        "/sides/b/name" => Some("side_b"),
        p if p.starts_with("/sides/a/players") => Some("players_a"),
        p if p.starts_with("/sides/b/players") => Some("players_b"),
        "/seed" => Some("seed"),
        "/spinner" => Some("spinner"),
        "/sticks" => Some("sticks"),
        "/seats/sides_report_throws" => Some("sides_report_throws"),
        _ => None,
    }
}

/// The service's refusal as a tool says it: its title, then its detail;
/// each value at fault named by its argument where it has one; a missing
/// token asked for in the `token` argument.
pub(super) fn refused(r: Refusal) -> Result<CallToolResult, ErrorData> {
    let named: Option<Vec<String>> = (!r.faults.is_empty())
        .then(|| {
            r.faults
                .iter()
                .map(|f| argument(&f.pointer).map(|a| format!("`{a}`: {}", f.detail)))
                .collect()
        })
        .flatten();
    let detail = match (r.kind, named) {
        (RefusalKind::Unauthorized, _) => format!("{}, in the `token` argument", r.detail),
        (_, Some(named)) => named.join("; "),
        (_, None) => r.detail,
    };
    refusal(format!("{}: {detail}", r.title))
}

/// A service error as a tool says it.
pub(super) fn service_error(e: ServiceError) -> Result<CallToolResult, ErrorData> {
    refused(Refusal::from(e))
}
