//! The board as an MCP App (the `io.modelcontextprotocol/ui` extension,
//! SEP-1865): one `ui://` resource, an HTML view with everything inline
//! (`app.html`), that the throw, board and creation tools name in their
//! `_meta.ui.resourceUri`. A host renders it in a sandboxed frame, tells it
//! the tool's result, and relays its `tools/call` (a throw, the chances
//! chart) and `resources/read` (the board's SVG) to this server.

use rmcp::model::{MetaObject, ReadResourceResult, Resource, ResourceContents};
use serde_json::json;

/// The view's URI.
pub const URI: &str = "ui://zohn-ahl/board";

/// The MIME type of an MCP App's HTML view.
pub const MIME: &str = "text/html;profile=mcp-app";

/// The view: HTML, its style and script inline.
const HTML: &str = include_str!("app.html");

/// A `_meta` object from a JSON object literal.
fn meta(value: serde_json::Value) -> MetaObject {
    match value {
        serde_json::Value::Object(map) => MetaObject(map),
        _ => MetaObject::new(),
    }
}

/// What a tool that shows the board says of it in the tool list.
#[must_use]
pub fn tool_meta() -> MetaObject {
    meta(json!({ "ui": { "resourceUri": URI } }))
}

/// What the view asks of its host: no origin to connect to or load from
/// (everything is inline; the board comes through the host), a border.
fn resource_meta() -> MetaObject {
    meta(json!({
        "ui": {
            "csp": { "connectDomains": [], "resourceDomains": [] },
            "prefersBorder": true
        }
    }))
}

/// The view as resources/list lists it.
#[must_use]
pub fn resource() -> Resource {
    Resource::new(URI, "board-app")
        .with_title("The board, interactive")
        .with_description("An MCP App: a game's board to watch and throw from, the narration and the chances chart")
        .with_mime_type(MIME)
        .with_meta(resource_meta())
}

/// The view, if `uri` is its URI.
#[must_use]
pub fn read(uri: &str) -> Option<ReadResourceResult> {
    (uri == URI).then(|| {
        ReadResourceResult::new(vec![
            ResourceContents::text(HTML, URI)
                .with_mime_type(MIME)
                .with_meta(resource_meta()),
        ])
    })
}
