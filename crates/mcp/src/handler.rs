//! The server itself besides its tools: how it is made, what it says of
//! itself, resources, completions and the prompt.

use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, GetPromptRequestParams,
    GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    Reference, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};

use super::{INSTRUCTIONS, ZohnAhl, app, args, library, reply};
use crate::narration::Audience;
use std::sync::Arc;

use crate::odds::Solver;
use crate::rules::Preset;
use crate::service::Service;

impl ZohnAhl {
    /// A server over `service`, with the process's odds service.
    #[must_use]
    pub fn new(service: Service) -> Self {
        Self::with_odds(service, Solver::shared())
    }

    /// A server over `service` with its own odds service.
    #[must_use]
    pub fn with_odds(service: Service, odds: Solver) -> Self {
        let mut tool_router =
            Self::tool_router() + Self::lookback_router() + super::chart::router();
        for route in tool_router.map.values_mut() {
            reply::list_input(&mut route.attr);
        }
        Self {
            service,
            odds,
            made: Arc::default(),
            tool_router,
        }
    }
}

impl std::fmt::Debug for ZohnAhl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ZohnAhl").finish_non_exhaustive()
    }
}

/// The values that start with what was typed (without regard to case),
/// at most the protocol's hundred.
fn complete_from(
    values: impl Iterator<Item = String>,
    typed: &str,
) -> Result<CompletionInfo, ErrorData> {
    let typed = typed.to_lowercase();
    let values: Vec<String> = values
        .filter(|v| v.to_lowercase().starts_with(&typed))
        .take(CompletionInfo::MAX_VALUES)
        .collect();
    CompletionInfo::new(values).map_err(|e| ErrorData::internal_error(e, None))
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for ZohnAhl {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_completions()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_server_info(
            Implementation::new("zohn-ahl", crate::service::API_VERSION)
                .with_title("Zohn Ahl narrated rules service")
                .with_description(env!("CARGO_PKG_DESCRIPTION")),
        )
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut resources = library::resources();
        resources.push(app::resource());
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if let Some(rest) = request.uri.strip_prefix(library::GAMES) {
            return self.read_game(&request.uri, rest).await.map(Into::into);
        }
        if let Some(view) = app::read(&request.uri) {
            return Ok(view.into());
        }
        library::read(&request.uri).map(Into::into)
    }

    /// Completions: the prompt's audience and preset, and a game
    /// resource's id among the games this session made.
    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        use args::Choices as _;
        let names: Vec<String> = match (&request.r#ref, request.argument.name.as_str()) {
            (Reference::Prompt(_), "audience") => Audience::names(),
            (Reference::Prompt(_), "preset") => Preset::names(),
            (Reference::Resource(_), "game_id") => {
                return Ok(CompleteResult::new(complete_from(
                    self.made().iter().map(ToString::to_string),
                    &request.argument.value,
                )?));
            }
            _ => Vec::new(),
        }
        .into_iter()
        .map(str::to_owned)
        .collect();
        Ok(CompleteResult::new(complete_from(
            names.into_iter(),
            &request.argument.value,
        )?))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(
            library::templates(),
        ))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![library::prompt()]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        library::get_prompt(&request).map(Into::into)
    }
}
