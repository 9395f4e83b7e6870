//! How a tool answers: a text block with structured content, or an error
//! result in the product's words (the service's refusals, the same words
//! REST's problem details carry, with the tool's argument named where REST
//! names a field of its body or a header).

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock};
use serde::Serialize;

use crate::service::{Answer, Refusal, RefusalKind, ServiceError};

/// The output schema of `T`, as portable as the input schemas.
pub(super) fn schema_for_output<T: schemars::JsonSchema + 'static>()
-> std::sync::Arc<rmcp::model::JsonObject> {
    let mut schema = (*rmcp::handler::server::tool::schema_for_output::<T>()).clone();
    super::args::portable(&mut schema);
    std::sync::Arc::new(schema)
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
        "/seed" => Some("seed"),
        "/spinner" => Some("spinner"),
        "/sticks" => Some("sticks"),
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
