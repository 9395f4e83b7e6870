//! The document's conventions, applied once to everything the handlers
//! declare (see the README's API conventions):
//!
//! - **Presence**: every field of a JSON answer is always sent, `null` when
//!   it has no value; so every property of an answer's object is
//!   `required` (nullable where it may be `null`). CSL-JSON items are the
//!   one exception: as that format does, they leave out what a source does
//!   not have.
//! - **Bodies**: a request body is a plain `$ref` to its schema and may be
//!   left out (`required: false`) where the operation takes an empty body.
//!   There JSON `null` is also "no body" (generated clients send it for a
//!   body left unset), so the schema of such a body admits an object or
//!   `null` and nothing else: `not` an array, boolean, number or string.
//!   Written that way, not as `type: [object, null]` or a `oneOf` with
//!   `null`, because generators make a model of it (a union's unset value
//!   was sent as JSON by one), and still send no body when none is set.
//! - **Security**: an operation that takes no token says so (`security: []`).
//!   Those that take a seated game's token, which a game without seats does
//!   without (throw, stop, delete), say nothing of their own and inherit the
//!   document's `security: [{}, {token: []}]`, the token optional: a
//!   requirement of their own, even that one, makes openapi-python-client
//!   demand an `AuthenticatedClient`, where the document's leaves a plain
//!   client usable for an open game.
//! - **Media types**: every answer's media type has a schema; the pictures
//!   are strings, the PNG of raw bytes (`contentMediaType`, and
//!   `format: binary` for generators that read only that), the SVG of text.
//! - **Refusals below the handlers**: every operation may answer 414 and 431
//!   (see [`super::conventions`]), and every write 403 for a cross-origin
//!   page the server does not let write.
//! - **Deprecations**: the parameters of [`DEPRECATED_PARAMETERS`] are
//!   marked `deprecated` (they still work; see CHANGELOG.md).
//! - **Examples**: each JSON answer and problem carries one full example, a
//!   real answer of the server recorded by `tests/it/api_examples.rs` into
//!   `openapi/examples.json` (by operation id and status; the refusals
//!   made below the handlers, 414 and 431, share one), so that no viewer
//!   assembles a contradictory one from the properties' own. The one
//!   answer the server cannot be made to give on demand (the readiness
//!   503) has none.
//! - **HEAD**: the server answers `HEAD` wherever it answers `GET`
//!   ([`super::conventions::head_as_get`]), so every `get` operation has a
//!   `head` twin: the same parameters and statuses with the headers only,
//!   its id `head_` and the `get` operation's id without its verb
//!   (`get_game`: `head_game`).

use serde_json::Value;
use std::collections::BTreeSet;

/// Schemas whose absent fields are left out, not sent as `null`: the
/// CSL-JSON item and its parts.
const LEAVE_OUT_ABSENT: [&str; 4] = ["CslItem", "CslName", "CslDate", "CslCustom"];

/// Apply the conventions to `api`.
#[must_use]
pub fn apply(api: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    let Ok(mut doc) = serde_json::to_value(&api) else {
        return api;
    };
    let requests = plain_request_bodies(&mut doc);
    every_operation(&mut doc);
    optional_token_at_the_root(&mut doc);
    picture_schemas(&mut doc);
    answer_examples(&mut doc);
    deprecate_parameters(&mut doc);
    head_operations(&mut doc);
    if let Some(Value::Object(schemas)) = doc.pointer_mut("/components/schemas") {
        let names: Vec<String> = schemas.keys().cloned().collect();
        for name in names {
            if requests.contains(&name) || LEAVE_OUT_ABSENT.contains(&name.as_str()) {
                continue;
            }
            if let Some(schema) = schemas.get_mut(&name) {
                require_every_property(schema);
            }
        }
    }
    serde_json::from_value(doc).unwrap_or(api)
}

/// The document as JSON, with what utoipa's types cannot hold: the schema
/// of each optional body admits `null` (see the module's conventions).
#[must_use]
pub fn finish(api: utoipa::openapi::OpenApi) -> Value {
    let mut doc = serde_json::to_value(&api).unwrap_or_default();
    let mut optional_roots = Vec::new();
    if let Some(Value::Object(paths)) = doc.get("paths") {
        for item in paths.values() {
            let Value::Object(item) = item else { continue };
            for operation in item.values() {
                let body = &operation["requestBody"];
                if body["required"] == Value::Bool(false)
                    && let Some(Value::Object(content)) = body.get("content")
                {
                    for media in content.values() {
                        collect_refs(&media["schema"], &mut optional_roots);
                    }
                }
            }
        }
    }
    for name in &optional_roots {
        if let Some(schema) = doc.pointer_mut(&format!("/components/schemas/{name}")) {
            object_or_null(schema);
        }
    }
    doc
}

/// Every operation of `doc`, with its method.
fn operations_mut(
    doc: &mut Value,
) -> impl Iterator<Item = (&String, &mut serde_json::Map<String, Value>)> {
    doc.get_mut("paths")
        .and_then(Value::as_object_mut)
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.iter_mut())
        .filter_map(|(method, operation)| operation.as_object_mut().map(|o| (method, o)))
}

/// A problem answer of `description`, as the handlers' own are written.
fn problem(description: &str) -> Value {
    serde_json::json!({
        "description": description,
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    })
}

/// What every operation shares: its security, and the refusals made before
/// any handler reads the request.
fn every_operation(doc: &mut Value) {
    for (method, operation) in operations_mut(doc) {
        operation
            .entry("security")
            .or_insert_with(|| Value::Array(Vec::new()));
        let Some(Value::Object(responses)) = operation.get_mut("responses") else {
            continue;
        };
        if method == "post" || method == "delete" {
            responses.entry("403").or_insert_with(|| {
                problem("A page of another origin, which the server does not let write")
            });
        }
        responses
            .entry("414")
            .or_insert_with(|| problem("The path and query are too long"));
        responses
            .entry("431")
            .or_insert_with(|| problem("Too many headers, or headers too large"));
    }
}

/// Parameters that still work but are not to be used, by operation id and
/// name: each read of a picture or of BibTeX has its own path, with one
/// media type (`board.png`, `sources.bib`), where `format` chose it before.
pub const DEPRECATED_PARAMETERS: [(&str, &str); 5] = [
    ("get_board", "format"),
    ("get_move_board", "format"),
    ("get_ruleset_board", "format"),
    ("list_sources", "format"),
    ("get_source", "format"),
];

/// Mark the parameters of [`DEPRECATED_PARAMETERS`] `deprecated`.
fn deprecate_parameters(doc: &mut Value) {
    for (_, operation) in operations_mut(doc) {
        let id = operation
            .get("operationId")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let Some(Value::Array(parameters)) = operation.get_mut("parameters") else {
            continue;
        };
        for parameter in parameters {
            let name = parameter.get("name").and_then(Value::as_str);
            if DEPRECATED_PARAMETERS
                .iter()
                .any(|&(op, p)| op == id && Some(p) == name)
                && let Value::Object(parameter) = parameter
            {
                parameter.insert("deprecated".to_owned(), Value::Bool(true));
            }
        }
    }
}

/// The recorded answers, by operation id and status (see the module's
/// conventions).
const EXAMPLES: &str = include_str!("../../../openapi/examples.json");

/// Refusals made before any handler reads the request, the same for every
/// operation: one recorded example serves them all.
const SHARED_REFUSALS: [&str; 2] = ["414", "431"];

/// Give each JSON answer (and each problem) its recorded example.
fn answer_examples(doc: &mut Value) {
    let Ok(Value::Object(examples)) = serde_json::from_str::<Value>(EXAMPLES) else {
        return;
    };
    let shared: serde_json::Map<String, Value> = SHARED_REFUSALS
        .iter()
        .filter_map(|status| {
            examples
                .values()
                .find_map(|by_status| by_status.get(*status))
                .map(|e| ((*status).to_owned(), e.clone()))
        })
        .collect();
    for (_, operation) in operations_mut(doc) {
        let by_status = operation
            .get("operationId")
            .and_then(Value::as_str)
            .and_then(|id| examples.get(id))
            .cloned()
            .unwrap_or_default();
        let Some(Value::Object(responses)) = operation.get_mut("responses") else {
            continue;
        };
        for (status, response) in responses.iter_mut() {
            let Some(example) = by_status.get(status).or_else(|| shared.get(status)) else {
                continue;
            };
            for media in ["application~1json", "application~1problem+json"] {
                if let Some(Value::Object(media)) =
                    response.pointer_mut(&format!("/content/{media}"))
                {
                    media.insert("example".to_owned(), example.clone());
                }
            }
        }
    }
}

/// The `head` twin of every `get` operation (see the module's conventions).
fn head_operations(doc: &mut Value) {
    let Some(Value::Object(paths)) = doc.get_mut("paths") else {
        return;
    };
    for item in paths.values_mut() {
        let Value::Object(item) = item else { continue };
        let Some(Value::Object(get)) = item.get("get") else {
            continue;
        };
        let mut head = get.clone();
        let get_id = get
            .get("operationId")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let noun = get_id.split_once('_').map_or(get_id.as_str(), |(_, n)| n);
        head.insert(
            "operationId".to_owned(),
            Value::String(format!("head_{noun}")),
        );
        let summary = get
            .get("summary")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .trim_end_matches('.');
        head.insert(
            "summary".to_owned(),
            Value::String(format!("{summary} (headers only)")),
        );
        head.insert(
            "description".to_owned(),
            Value::String(format!(
                "The answer `{get_id}` (`GET`) gives, its status and headers without a body."
            )),
        );
        if let Some(Value::Object(responses)) = head.get_mut("responses") {
            for response in responses.values_mut() {
                if let Value::Object(response) = response {
                    response.remove("content");
                }
            }
        }
        item.insert("head".to_owned(), Value::Object(head));
    }
}

/// Move the optional token's requirement (`[{}, {token: []}]`) from the
/// operations to the document's root (see the module's conventions).
fn optional_token_at_the_root(doc: &mut Value) {
    let optional = serde_json::json!([{}, {"token": []}]);
    let mut moved = false;
    for (_, operation) in operations_mut(doc) {
        if operation.get("security") == Some(&optional) {
            operation.remove("security");
            moved = true;
        }
    }
    if moved && let Value::Object(root) = doc {
        root.insert("security".to_owned(), optional);
    }
}

/// The schema of a picture's media type: a string, of bytes for PNG, of
/// text for SVG.
fn picture_schema(media: &str) -> Option<Value> {
    match media {
        "image/png" => Some(serde_json::json!({
            "type": "string",
            "format": "binary",
            "contentMediaType": "image/png",
            "description": "A PNG picture (raw bytes)."
        })),
        "image/svg+xml" => Some(serde_json::json!({
            "type": "string",
            "contentMediaType": "image/svg+xml",
            "description": "An SVG picture (UTF-8 text)."
        })),
        _ => None,
    }
}

/// Give every answer's picture media type its schema where the handler
/// declared none.
fn picture_schemas(doc: &mut Value) {
    for (_, operation) in operations_mut(doc) {
        let Some(Value::Object(responses)) = operation.get_mut("responses") else {
            continue;
        };
        for response in responses.values_mut() {
            let Some(Value::Object(content)) = response.get_mut("content") else {
                continue;
            };
            for (media, body) in content.iter_mut() {
                if let (Some(schema), Value::Object(body)) = (picture_schema(media), body) {
                    body.entry("schema").or_insert(schema);
                }
            }
        }
    }
}

/// Turn every request body's `oneOf [$ref, null]` into the plain `$ref`
/// (the body stays optional: `required: false`); return the names of the
/// schemas request bodies reach.
fn plain_request_bodies(doc: &mut Value) -> BTreeSet<String> {
    let mut roots = Vec::new();
    if let Some(Value::Object(paths)) = doc.get_mut("paths") {
        for item in paths.values_mut() {
            let Value::Object(item) = item else { continue };
            for operation in item.values_mut() {
                let Some(body) = operation.get_mut("requestBody") else {
                    continue;
                };
                let Some(Value::Object(content)) = body.get_mut("content") else {
                    continue;
                };
                let mut optional = false;
                for media in content.values_mut() {
                    let Some(schema) = media.get_mut("schema") else {
                        continue;
                    };
                    if let Some(plain) = without_null(schema) {
                        *schema = plain;
                        optional = true;
                    }
                    collect_refs(schema, &mut roots);
                }
                if optional && let Value::Object(body) = body {
                    body.insert("required".to_owned(), Value::Bool(false));
                }
            }
        }
    }
    let schemas = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut reached = BTreeSet::new();
    while let Some(name) = roots.pop() {
        if reached.insert(name.clone())
            && let Some(schema) = schemas.get(&name)
        {
            collect_refs(schema, &mut roots);
        }
    }
    reached
}

/// Make an object schema admit `null` too (an optional body's: `null` is no
/// body), and still nothing else.
fn object_or_null(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    if map.get("type").and_then(Value::as_str) != Some("object") {
        return;
    }
    map.remove("type");
    map.insert(
        "not".to_owned(),
        // (`items` says nothing here; linters ask for it beside `array`.)
        serde_json::json!({"type": ["array", "boolean", "number", "string"], "items": {}}),
    );
    let description = map
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .trim_end()
        .to_owned();
    let sep = if description.is_empty() { "" } else { " " };
    map.insert(
        "description".to_owned(),
        Value::String(format!(
            "{description}{sep}A JSON object; `null` is the same as no body."
        )),
    );
}

/// The one non-null alternative of a `oneOf [X, {"type": "null"}]`.
fn without_null(schema: &Value) -> Option<Value> {
    let alternatives = schema.get("oneOf")?.as_array()?;
    let is_null = |s: &Value| s.get("type").and_then(Value::as_str) == Some("null");
    match alternatives.as_slice() {
        [a, b] if is_null(b) => Some(a.clone()),
        [a, b] if is_null(a) => Some(b.clone()),
        _ => None,
    }
}

/// The component names `schema` refers to.
fn collect_refs(schema: &Value, into: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref")
                && let Some(name) = r.strip_prefix("#/components/schemas/")
            {
                into.push(name.to_owned());
            }
            map.values().for_each(|v| collect_refs(v, into));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, into)),
        _ => {}
    }
}

/// Mark every property of `schema`'s objects (its own, and those of the
/// objects inside it) required.
fn require_every_property(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    if let Some(Value::Object(properties)) = map.get("properties") {
        let all: Vec<Value> = properties.keys().cloned().map(Value::String).collect();
        map.insert("required".to_owned(), Value::Array(all));
    }
    for key in ["properties"] {
        if let Some(Value::Object(properties)) = map.get_mut(key) {
            properties.values_mut().for_each(require_every_property);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = map.get_mut(key) {
            require_every_property(inner);
        }
    }
    for key in ["oneOf", "allOf", "anyOf"] {
        if let Some(Value::Array(items)) = map.get_mut(key) {
            items.iter_mut().for_each(require_every_property);
        }
    }
}
