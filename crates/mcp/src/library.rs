//! What the MCP server reads to a client besides the game: the
//! bibliography (one resource per source), each preset's lesson (one
//! resource per preset), the glossary, and the prompt that teaches a class
//! the game by playing it with the tools.

use rmcp::ErrorData;
use rmcp::model::{
    GetPromptRequestParams, GetPromptResult, Prompt, PromptArgument, PromptMessage,
    ReadResourceResult, Resource, ResourceContents, ResourceTemplate, Role,
};
use strum::VariantArray;

use super::answer::cite;
use crate::narration::{Audience, catalogue, lesson};
use crate::rules::Preset;

/// The scheme of every resource URI.
const SCHEME: &str = "zohn-ahl://";

/// Longest echo of a value sent, in characters.
const ECHO: usize = 64;

/// A value sent, cut for echoing in an error.
#[must_use]
pub fn clip(raw: &str) -> String {
    let cut: String = raw.chars().take(ECHO).collect();
    if cut.len() < raw.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// Every resource: each source, then each preset's lesson.
#[must_use]
pub fn resources() -> Vec<Resource> {
    let sources = catalogue().sources.iter().map(source_resource);
    let lessons = Preset::VARIANTS.iter().map(|&p| lesson_resource(p));
    sources.chain(lessons).collect()
}

/// `result` with a link to `resource`, unless it is an error.
pub fn with_link(
    result: Result<rmcp::model::CallToolResult, ErrorData>,
    resource: Resource,
) -> Result<rmcp::model::CallToolResult, ErrorData> {
    result.map(|mut r| {
        if r.is_error != Some(true) {
            r.content
                .push(rmcp::model::ContentBlock::resource_link(resource));
        }
        r
    })
}

/// A source of the bibliography as a resource: `zohn-ahl://sources/{id}`,
/// a CSL-JSON item. The resources list it, and `get_source` links it.
pub fn source_resource(s: &crate::narration::Source) -> Resource {
    let title = s
        .csl
        .get("title")
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default();
    Resource::new(format!("{SCHEME}sources/{}", s.id()), s.id())
        .with_title(title)
        .with_description("A source of the bibliography, as a CSL-JSON item")
        .with_mime_type("application/json")
}

/// A ruleset's lesson as a resource: `zohn-ahl://lessons/{preset}`,
/// Markdown for the general audience. The resources list it, and
/// `get_lesson` links it.
pub fn lesson_resource(p: Preset) -> Resource {
    let name: &str = p.into();
    Resource::new(format!("{SCHEME}lessons/{name}"), format!("lesson-{name}"))
        .with_title(lesson(p, Audience::General).title)
        .with_description("The ruleset's rules as a lesson, cited, for the general audience")
        .with_mime_type("text/markdown")
}

/// Where a game's resources start: `zohn-ahl://games/`.
pub const GAMES: &str = "zohn-ahl://games/";

/// The resource templates: a game, its move log and its board (SVG and
/// text).
#[must_use]
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(format!("{GAMES}{{game_id}}"), "game")
            .with_title("A game")
            .with_description("Where a game stands, as get_game gives it")
            .with_mime_type("application/json"),
        ResourceTemplate::new(format!("{GAMES}{{game_id}}/moves"), "game-moves")
            .with_title("A game's move log")
            .with_description("Every move of a game, one cited sentence a move")
            .with_mime_type("text/plain"),
        ResourceTemplate::new(format!("{GAMES}{{game_id}}/board.svg"), "game-board")
            .with_title("A game's board")
            .with_description("The board now: both awls, the counters, whose throw it is")
            .with_mime_type("image/svg+xml"),
        ResourceTemplate::new(format!("{GAMES}{{game_id}}/board.txt"), "game-board-text")
            .with_title("A game's board as text")
            .with_description("The board now as plain text: the quarters, creeks, awls, counters")
            .with_mime_type("text/plain"),
    ]
}

/// Read the resource at `uri`.
///
/// # Errors
/// Resource not found, naming the URI.
pub fn read(uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let not_found = || {
        ErrorData::resource_not_found(
            format!(
                "no resource has the URI {}; resources/list lists them",
                clip(uri)
            ),
            None,
        )
    };
    let rest = uri.strip_prefix(SCHEME).ok_or_else(not_found)?;
    if let Some(id) = rest.strip_prefix("sources/") {
        let source = catalogue().source(id).ok_or_else(not_found)?;
        let json = serde_json::to_string_pretty(source)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        return Ok(ReadResourceResult::new(vec![
            ResourceContents::text(json, uri).with_mime_type("application/json"),
        ]));
    }
    if let Some(name) = rest.strip_prefix("lessons/") {
        let preset: Preset = name.parse().map_err(|_| not_found())?;
        return Ok(ReadResourceResult::new(vec![
            ResourceContents::text(lesson_text(preset, Audience::General), uri)
                .with_mime_type("text/markdown"),
        ]));
    }
    Err(not_found())
}

/// A preset's lesson as Markdown, each part with its short citations.
#[must_use]
pub fn lesson_text(preset: Preset, audience: Audience) -> String {
    let l = lesson(preset, audience);
    let mut out = format!(
        "# {}\n\n{}{}\n",
        l.title,
        l.summary.text,
        cite(&l.summary.citations)
    );
    for s in &l.sections {
        out.push_str(&format!(
            "\n## {}\n\n{}{}\n",
            s.title,
            s.text,
            cite(&s.citations)
        ));
        for d in &s.departures {
            out.push_str(&format!("\n- {}{}\n", d.text, cite(&d.citations)));
        }
    }
    out
}

/// The prompt's name.
pub const PROMPT: &str = "teach_by_playing";

/// The prompt that teaches a class the game by playing it.
#[must_use]
pub fn prompt() -> Prompt {
    Prompt::new(
        PROMPT,
        Some(
            "Teach a class Zohn Ahl by playing a whole game with the tools, explaining each throw.",
        ),
        Some(vec![
            PromptArgument::new("audience")
                .with_description("young (ages 7-10), general or scholar (default general)")
                .with_required(false),
            PromptArgument::new("preset")
                .with_description("the ruleset, e.g. composite (the default) or culin1898")
                .with_required(false),
        ]),
    )
}

/// The prompt's messages for the arguments given.
///
/// # Errors
/// An unknown prompt, or an argument out of its set.
pub fn get_prompt(request: &GetPromptRequestParams) -> Result<GetPromptResult, ErrorData> {
    if request.name != PROMPT {
        return Err(ErrorData::invalid_params(
            format!(
                "no prompt is called {}; the prompt is {PROMPT}",
                clip(&request.name)
            ),
            None,
        ));
    }
    let arg = |name: &str| {
        request
            .arguments
            .as_ref()
            .and_then(|a| a.get(name))
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
            .filter(|s| !s.is_empty())
    };
    let audience: Audience = match arg("audience") {
        None => Audience::default(),
        Some(a) => a.parse().map_err(|_| {
            ErrorData::invalid_params("`audience`: must be one of: young, general, scholar", None)
        })?,
    };
    let preset: Preset = match arg("preset") {
        None => Preset::default(),
        Some(p) => p.parse().map_err(|_| {
            ErrorData::invalid_params(
                format!(
                    "`preset`: must be one of: {}",
                    <Preset as strum::VariantNames>::VARIANTS.join(", ")
                ),
                None,
            )
        })?,
    };
    let audience_name: &str = audience.into();
    let preset_name: &str = preset.into();
    let class = match audience {
        Audience::Young => {
            "a class of children aged 7 to 10 (in short sentences, every Kiowa word explained)"
        }
        Audience::General => "a general class",
        Audience::Scholar => {
            "a seminar (saying where the sources disagree and which reading the ruleset follows)"
        }
    };
    let text = format!(
        "Teach the Kiowa game Zohn Ahl to {class} by playing one whole game with the tools.\n\
         1. Read the lesson resource zohn-ahl://lessons/{preset_name} (or call get_lesson) and explain the board, the four sticks and the sahe in three or four sentences.\n\
         2. Call create_game with preset {preset_name} and audience {audience_name}; let the class name the two sides.\n\
         3. Call throw for the side to move, again and again until the game is finished. Never choose or invent a throw: the service throws the sticks. After each throw, read its narration to the class in your own words, keep its citations, and ask the class one short question now and then (where will the awl land? what happens in the creek?).\n\
         4. When a narration names a rule or a fact you want to say more about, call explain_rule or get_fact; for a source, get_source. Call get_board to show the board when something happens.\n\
         5. At the end say who won and why, and name the sources the game's narration cited.\n\
         Speak of the Kiowa in the present tense and of the historical record in the past; tell nothing the tools do not give you."
    );
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description("A lesson that plays a whole game of Zohn Ahl"),
    )
}
