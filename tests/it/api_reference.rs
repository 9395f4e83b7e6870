//! Reference resources, the served OpenAPI document and its committed copy.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{get, send, spawn_app};
use serde_json::Value;

const SPEC_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");

/// The committed `openapi/openapi.json` is what the code generates. Run
/// with `UPDATE_OPENAPI=1` to rewrite it after an intended API change: that
/// run rewrites the file and fails, so it never passes unnoticed.
#[actix_web::test]
async fn committed_openapi_matches_the_generated_one() {
    let generated = serde_json::to_string_pretty(&zohn_ahl::http::openapi()).unwrap() + "\n";
    let committed = std::fs::read_to_string(SPEC_PATH).unwrap_or_default();
    if std::env::var_os("UPDATE_OPENAPI").is_some() && committed != generated {
        std::fs::write(SPEC_PATH, &generated).unwrap();
        panic!(
            "rewrote openapi/openapi.json: review the diff, then run the tests again without UPDATE_OPENAPI"
        );
    }
    assert!(
        committed == generated,
        "openapi/openapi.json is stale: run `UPDATE_OPENAPI=1 cargo test --test it api_reference::` and review the diff"
    );
}

#[actix_web::test]
async fn the_served_spec_is_the_generated_one_and_docs_are_served() {
    let (_db, app) = spawn_app().await;
    let r = send(&app, get("/openapi.json")).await;
    assert_eq!(r.status.as_u16(), 200);
    let mut served = r.json();
    let mut generated: Value = zohn_ahl::http::openapi();
    // The same document, but for the server it names.
    served["servers"] = Value::Null;
    generated["servers"] = Value::Null;
    assert_eq!(served, generated);
    assert_eq!(served["info"]["license"]["identifier"], "MIT");
    for path in [
        "/v1/games",
        "/v1/games/{id}",
        "/v1/games/{id}/throws",
        "/v1/games/{id}/moves",
        "/v1/games/{id}/moves/{n}",
        "/v1/games/{id}/events",
        "/v1/games/{id}/odds",
        "/v1/rulesets/{preset}/statistics",
        "/v1/sticks",
        "/v1/sources",
        "/v1/sources/{id}",
        "/healthz",
        "/readyz",
    ] {
        assert!(served["paths"][path].is_object(), "{path} documented");
    }
    // The live feed documents both of its media types and its 503.
    let feed = &served["paths"]["/v1/games/{id}/events"]["get"]["responses"];
    for media in ["text/event-stream", "application/x-ndjson"] {
        assert!(
            feed["200"]["content"][media]["schema"].is_object(),
            "{media}"
        );
    }
    assert!(feed["503"]["headers"]["Retry-After"].is_object());
    let redirect = send(&app, get("/docs")).await;
    assert_eq!(redirect.status.as_u16(), 307);
    assert_eq!(redirect.header("location").unwrap(), "/docs/");
    let page = send(&app, get("/docs/")).await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(String::from_utf8_lossy(&page.body).contains("swagger"));
    let bundle = send(&app, get("/docs/swagger-ui-bundle.js")).await;
    assert_eq!(
        bundle.status.as_u16(),
        200,
        "Swagger UI assets are embedded"
    );
}

#[actix_web::test]
async fn sticks_lists_every_table_with_exact_probabilities() {
    let (_db, app) = spawn_app().await;
    let body = send(&app, get("/v1/sticks")).await.json();
    let tables = body["items"].as_array().unwrap();
    assert_eq!(tables.len(), 3);
    let sahe = &tables[0];
    assert_eq!(sahe["id"], "sticks_sahe");
    assert_eq!(sahe["outcomes"].as_array().unwrap().len(), 16);
    // docs/rules.md#throw-sticks-sahe: E[value] = 44/16 = 11/4, P(throw again) = 3/8.
    assert_eq!(sahe["expected_value"]["numerator"], 11);
    assert_eq!(sahe["expected_value"]["denominator"], 4);
    assert_eq!(sahe["throw_again"]["numerator"], 3);
    assert_eq!(sahe["throw_again"]["denominator"], 8);
    let total: f64 = sahe["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["probability"]["decimal"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-12);
    assert!(!sahe["citations"].as_array().unwrap().is_empty());
    for t in tables {
        assert!(!t["description"].as_str().unwrap().contains('{'), "{t}");
    }
    // docs/rules.md#throw-sticks-count: E = 43/16, P(again) = 1/8.
    assert_eq!(tables[1]["expected_value"]["numerator"], 43);
    assert_eq!(tables[1]["throw_again"]["denominator"], 8);
    assert_eq!(tables[2]["outcomes"].as_array().unwrap().len(), 7);
}

#[actix_web::test]
async fn sources_are_csl_items_and_resolve_one_by_one() {
    let (_db, app) = spawn_app().await;
    let body = send(&app, get("/v1/sources")).await.json();
    let items = body["items"].as_array().unwrap();
    assert!(items.len() >= 20);
    for item in items {
        let id = item["id"].as_str().unwrap();
        assert!(
            item["type"].is_string() && item["title"].is_string(),
            "{item}"
        );
        assert!(item["custom"]["rights"].is_string(), "{item}");
        let one = send(&app, get(&format!("/v1/sources/{id}"))).await;
        assert_eq!(one.status.as_u16(), 200);
        assert_eq!(&one.json(), item);
    }
    send(&app, get("/v1/sources/no-such-source"))
        .await
        .problem(404);
    send(&app, get("/v1/sources/Bad%20Id")).await.problem(400);
}

#[actix_web::test]
async fn glossary_terms_resolve_and_are_cited() {
    let (_db, app) = spawn_app().await;
    let body = send(&app, get("/v1/glossary")).await.json();
    let terms = body["items"].as_array().unwrap();
    for id in ["zohn", "ahl", "sahe", "awl", "creek", "dry-branch", "whip"] {
        assert!(terms.iter().any(|t| t["id"] == id), "{id} in glossary");
        let one = send(&app, get(&format!("/v1/glossary/{id}"))).await.json();
        assert!(!one["citations"].as_array().unwrap().is_empty());
    }
    send(&app, get("/v1/glossary/unknown-term"))
        .await
        .problem(404);
}

#[actix_web::test]
async fn health_and_readiness_answer() {
    let (_db, app) = spawn_app().await;
    assert_eq!(send(&app, get("/healthz")).await.json()["status"], "ok");
    assert_eq!(send(&app, get("/readyz")).await.json()["status"], "ready");
}

#[actix_web::test]
async fn sources_are_served_as_bibtex_on_request() {
    let (_db, app) = spawn_app().await;
    let csl = send(&app, get("/v1/sources/culin1907")).await;
    let csl_again = send(&app, get("/v1/sources/culin1907?format=csl")).await;
    assert_eq!(csl.body, csl_again.body, "csl is the default");
    let bib = send(&app, get("/v1/sources/culin1907?format=bibtex")).await;
    assert_eq!(bib.status.as_u16(), 200);
    assert!(
        bib.header("content-type")
            .unwrap()
            .starts_with("application/x-bibtex"),
        "{:?}",
        bib.headers
    );
    let text = String::from_utf8(bib.body.clone()).unwrap();
    assert!(text.starts_with("@incollection{culin1907,\n"), "{text}");
    assert!(text.contains("title = {{Games of the North American Indians}}"));
    assert!(text.contains("pages = {1--809}"));
    // Accept chooses too: BibTeX when it is preferred to JSON, by either of
    // its names; JSON otherwise (a wildcard counts for JSON).
    for accept in [
        "application/x-bibtex",
        "text/x-bibtex",
        "application/json;q=0.5, application/x-bibtex",
    ] {
        let r = send(
            &app,
            get("/v1/sources/culin1907").insert_header(("accept", accept)),
        )
        .await;
        assert_eq!(r.body, bib.body, "{accept}");
        let vary = r.header("vary").unwrap_or_default();
        assert!(vary.split(", ").any(|v| v == "Accept"), "{accept}: {vary}");
    }
    for accept in ["application/json", "*/*", "application/x-bibtex;q=0.5, */*"] {
        let r = send(
            &app,
            get("/v1/sources/culin1907").insert_header(("accept", accept)),
        )
        .await;
        assert_eq!(r.body, csl.body, "{accept}");
    }
    let by_accept = send(
        &app,
        get("/v1/sources").insert_header(("accept", "application/x-bibtex")),
    )
    .await;
    let all = send(&app, get("/v1/sources?format=bibtex")).await;
    assert_eq!(by_accept.body, all.body);
    assert_eq!(all.status.as_u16(), 200);
    let all = String::from_utf8(all.body).unwrap();
    for s in &zohn_ahl::narration::catalogue().sources {
        assert!(all.contains(&format!("{{{},\n", s.id())), "{}", s.id());
    }
    for uri in [
        "/v1/sources/culin1907?format=xml",
        "/v1/sources?format=BibTeX",
    ] {
        let p = send(&app, get(uri)).await.problem(400);
        assert_eq!(p["errors"][0]["pointer"], "#/query/format");
        let detail = p["errors"][0]["detail"].as_str().unwrap();
        assert!(
            detail.contains("csl") && detail.contains("bibtex"),
            "{detail}"
        );
    }
}

/// Every operation of the served document, with its path and method.
fn operations(doc: &Value) -> Vec<(String, String, &Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if ["get", "post", "put", "patch", "delete", "head"].contains(&method.as_str()) {
                out.push((path.clone(), method.clone(), op));
            }
        }
    }
    out
}

#[test]
fn every_summary_is_one_plain_line_and_every_operation_id_a_stable_verb() {
    let doc: Value = zohn_ahl::http::openapi();
    let verbs = [
        "create", "get", "list", "delete", "play", "stop", "stream", "check", "compute", "draw",
        "head", "join", "import",
    ];
    let mut ids = std::collections::BTreeSet::new();
    for (path, method, op) in operations(&doc) {
        let summary = op["summary"].as_str().unwrap_or_default();
        assert!(
            !summary.is_empty()
                && summary.chars().count() <= 120
                && !summary.contains('`')
                && !summary.contains('\n'),
            "{method} {path}: {summary:?}"
        );
        let id = op["operationId"].as_str().unwrap();
        let verb = id.split('_').next().unwrap();
        assert!(
            verbs.contains(&verb) && id.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
            "{method} {path}: operationId {id}"
        );
        assert!(ids.insert(id.to_owned()), "{id} twice");
    }
    assert_eq!(doc["servers"][0]["url"], "http://127.0.0.1:8080");
}

#[test]
fn request_bodies_are_plain_refs_and_an_empty_body_is_allowed() {
    let doc: Value = zohn_ahl::http::openapi();
    for (path, method, op) in operations(&doc) {
        let Some(body) = op.get("requestBody") else {
            continue;
        };
        let schema = &body["content"]["application/json"]["schema"];
        assert!(
            schema["$ref"].is_string() && schema.as_object().unwrap().len() == 1,
            "{method} {path}: {schema}"
        );
        // A class's archive is the one body that is the whole request:
        // required, and only an archive fits.
        if op["operationId"] == "import_class" {
            assert_eq!(body["required"], true, "{method} {path}");
            continue;
        }
        assert_eq!(body["required"], false, "{method} {path}");
        // JSON `null` is no body (what generated clients send for a body
        // left unset): the schema admits it, and objects, and nothing else.
        let root = serde_json::json!({
            "$ref": schema["$ref"],
            "components": doc["components"],
        });
        let validator = jsonschema::validator_for(&root).unwrap();
        for ok in [Value::Null, serde_json::json!({})] {
            assert!(validator.is_valid(&ok), "{method} {path}: {ok}");
        }
        for refused in [
            serde_json::json!([]),
            serde_json::json!("x"),
            serde_json::json!(3),
            serde_json::json!(true),
        ] {
            assert!(!validator.is_valid(&refused), "{method} {path}: {refused}");
        }
    }
}

/// The presence rule: every property of every object an answer carries is
/// required (sent, `null` when it has no value); CSL-JSON items, which leave
/// absent fields out as their format does, are the one exception.
#[test]
fn every_field_of_an_answer_is_required() {
    let doc: Value = zohn_ahl::http::openapi();
    fn check(name: &str, schema: &Value) {
        if let Some(props) = schema["properties"].as_object() {
            let required: Vec<&str> = schema["required"]
                .as_array()
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for key in props.keys() {
                assert!(
                    required.contains(&key.as_str()),
                    "{name}.{key} is not required"
                );
            }
            props.values().for_each(|p| check(name, p));
        }
        for key in ["oneOf", "allOf", "anyOf"] {
            for s in schema[key].as_array().into_iter().flatten() {
                check(name, s);
            }
        }
        if schema["items"].is_object() {
            check(name, &schema["items"]);
        }
    }
    let requests = [
        "CreateGameRequest",
        "CreateClassRequest",
        "RulesetRequest",
        "SidesRequest",
        "SideRequest",
        "NarrationRequest",
        "SeatsRequest",
        "OptionsRequest",
        "ThrowRequest",
        "JoinRequest",
    ];
    for (name, schema) in doc["components"]["schemas"].as_object().unwrap() {
        if requests.contains(&name.as_str()) || name.starts_with("Csl") {
            continue;
        }
        check(name, schema);
    }
    // And the server sends every one: an unseated game's creation answer
    // names its (absent) tokens.
    for name in [
        "GameView",
        "MoveView",
        "SegmentView",
        "OutcomeView",
        "Problem",
    ] {
        assert!(
            doc["components"]["schemas"][name]["required"].is_array(),
            "{name}"
        );
    }
}

#[test]
fn closed_sets_are_enums() {
    let doc: Value = zohn_ahl::http::openapi();
    let schemas = &doc["components"]["schemas"];
    let values = |name: &str| -> Vec<String> {
        schemas[name]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("{name} is an enum"))
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(values("GameStatus"), ["in_progress", "finished"]);
    assert_eq!(values("GameResult"), ["won", "draw"]);
    assert_eq!(values("ThrowOrigin"), ["server", "reported"]);
    assert_eq!(values("Direction"), ["counter_clockwise", "clockwise"]);
    assert_eq!(values("Creek"), ["north", "south"]);
    assert_eq!(values("CounterReason"), ["circuit", "whip", "creek_fall"]);
    assert_eq!(values("WinReason"), ["all_counters", "circuits", "stopped"]);
    assert_eq!(values("HealthStatus"), ["ok", "ready"]);
    assert_eq!(values("Feature").len(), 7);
    assert_eq!(
        values("LessonSectionId"),
        [
            "board",
            "sticks",
            "turn",
            "north_creek",
            "home",
            "whip",
            "dry_branches",
            "winning",
            "stopping"
        ]
    );
    let refs = |pointer: &str| {
        doc.pointer(pointer)
            .map(|s| s.to_string())
            .unwrap_or_default()
    };
    assert!(refs("/components/schemas/GameView/properties/status").contains("GameStatus"));
    assert!(refs("/components/schemas/GameView/properties/result").contains("GameResult"));
    assert!(refs("/components/schemas/AwlView/properties/feature").contains("Feature"));
    assert!(refs("/components/schemas/MoveView/properties/origin").contains("ThrowOrigin"));
    assert!(refs("/components/schemas/SideView/properties/direction").contains("Direction"));
}

#[actix_web::test]
async fn every_list_answer_keeps_its_list_in_items() {
    let (_db, app) = spawn_app().await;
    for uri in [
        "/v1/sticks",
        "/v1/sources",
        "/v1/glossary",
        "/v1/facts",
        "/v1/rules",
        "/v1/rulesets",
    ] {
        let body = send(&app, get(uri)).await.json();
        assert!(
            body["items"].as_array().is_some_and(|i| !i.is_empty()),
            "{uri}"
        );
    }
}

/// Inline `audience` and `format` enums on some parameters made generators
/// build one type per operation: every parameter of a closed set is a `$ref`
/// to the one component of its concept.
#[test]
fn every_closed_set_parameter_is_a_ref_to_its_component() {
    let doc: Value = zohn_ahl::http::openapi();
    let mut seen = std::collections::BTreeMap::<String, std::collections::BTreeSet<String>>::new();
    for (path, method, op) in operations(&doc) {
        for param in op["parameters"].as_array().into_iter().flatten() {
            let name = param["name"].as_str().unwrap();
            let schema = &param["schema"];
            let inner = if schema["items"].is_object() {
                &schema["items"]
            } else {
                schema
            };
            assert!(
                !inner.to_string().contains("\"enum\""),
                "{method} {path}: `{name}` has an inline enum: {schema}"
            );
            if let Some(target) = inner["$ref"].as_str() {
                seen.entry(name.to_owned())
                    .or_default()
                    .insert(target.to_owned());
            }
        }
    }
    let one = |name: &str, component: &str| {
        assert_eq!(
            seen.get(name)
                .map(|s| s.iter().cloned().collect::<Vec<_>>()),
            Some(vec![format!("#/components/schemas/{component}")]),
            "{name}"
        );
    };
    // Every reference of the document resolves to a component.
    fn refs<'a>(schema: &'a Value, into: &mut Vec<&'a str>) {
        match schema {
            Value::Object(map) => {
                if let Some(Value::String(r)) = map.get("$ref") {
                    into.push(r);
                }
                map.values().for_each(|v| refs(v, into));
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, into)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    refs(&doc, &mut all);
    for r in all {
        let pointer = r.strip_prefix('#').unwrap_or(r);
        assert!(doc.pointer(pointer).is_some(), "{r} does not resolve");
    }
    one("audience", "Audience");
    one("detail", "Detail");
    one("preset", "Preset");
    // `format` is two concepts: a picture's and a source's.
    let formats = &seen["format"];
    assert!(
        formats.contains("#/components/schemas/BoardFormat")
            && formats.contains("#/components/schemas/SourceFormat")
            && formats.len() == 2,
        "{formats:?}"
    );
}

/// The pictures' media types had no schema, so generators gave no bytes
/// or text type: every media type of every answer has one.
#[test]
fn every_media_type_of_an_answer_has_a_schema() {
    let doc: Value = zohn_ahl::http::openapi();
    let mut pictures = 0;
    for (path, method, op) in operations(&doc) {
        for (status, response) in op["responses"].as_object().unwrap() {
            for (media, body) in response["content"].as_object().into_iter().flatten() {
                let schema = &body["schema"];
                assert!(
                    schema.is_object(),
                    "{method} {path} {status} {media}: no schema"
                );
                if media.starts_with("image/") || media == "application/x-bibtex" {
                    assert_eq!(schema["type"], "string", "{method} {path} {media}");
                }
                if media == "image/png" {
                    pictures += 1;
                    assert_eq!(schema["contentMediaType"], "image/png");
                    assert_eq!(schema["format"], "binary");
                }
                if media == "image/svg+xml" {
                    assert_eq!(schema["contentMediaType"], "image/svg+xml");
                }
            }
        }
    }
    assert_eq!(
        pictures, 4,
        "the three board operations and the chart of the chances answer PNG"
    );
}

/// `OptionValue` was one schema of three types (`[string, integer,
/// null]`), which a generator turned into an empty struct that read
/// nothing: it is a `oneOf` of typed alternatives, and no schema of the
/// document has more than one type besides `null`.
#[test]
fn option_values_are_a_union_of_typed_alternatives() {
    let doc: Value = zohn_ahl::http::openapi();
    let value = &doc["components"]["schemas"]["OptionValue"];
    let types: Vec<&str> = value["oneOf"]
        .as_array()
        .unwrap_or_else(|| panic!("a oneOf: {value}"))
        .iter()
        .map(|s| s["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["string", "integer"]);
    // A count switched off is null: the field adds it.
    let default = &doc["components"]["schemas"]["OptionView"]["properties"]["default"];
    assert!(
        default.to_string().contains("OptionValue") && default.to_string().contains("null"),
        "{default}"
    );
    fn check(at: &str, schema: &Value) {
        match schema {
            Value::Object(map) => {
                if let Some(Value::Array(types)) = map.get("type") {
                    let others = types.iter().filter(|t| *t != "null").count();
                    assert!(others <= 1, "{at}: {schema}");
                }
                // (What a schema refuses, under `not`, may list several.)
                for (key, inner) in map.iter().filter(|(key, _)| *key != "not") {
                    check(&format!("{at}/{key}"), inner);
                }
            }
            Value::Array(items) => items
                .iter()
                .enumerate()
                .for_each(|(i, inner)| check(&format!("{at}/{i}"), inner)),
            _ => {}
        }
    }
    check("#", &doc);
}

/// A relative `servers` URL (`/`) gave generated clients no usable base
/// URL: the served document names the URL the request reached, or the
/// public URL configured, always absolute.
#[actix_web::test]
async fn the_served_document_names_an_absolute_server() {
    let (_db, app) = spawn_app().await;
    let r = send(&app, get("/openapi.json")).await;
    let servers = r.json()["servers"].clone();
    assert_eq!(servers.as_array().map(Vec::len), Some(1), "{servers}");
    assert_eq!(servers[0]["url"], app.base, "{servers}");
    assert!(
        r.header("vary")
            .is_some_and(|v| v.split(',').any(|h| h.trim() == "Host")),
        "{:?}",
        r.header("vary")
    );
    let other = send(
        &app,
        get("/openapi.json").insert_header(("host", "Zohn.Example:8443")),
    )
    .await;
    assert_eq!(
        other.json()["servers"][0]["url"],
        "http://zohn.example:8443"
    );
    // A Host that is not a plain host[:port] is not echoed: the default stays.
    let odd = send(&app, get("/openapi.json").insert_header(("host", "a\"b"))).await;
    assert_eq!(odd.json()["servers"][0]["url"], "http://127.0.0.1:8080");

    // With a public URL (behind a proxy or TLS), that is the server.
    let db = common::TestDb::new();
    let service = db.service().await;
    let public = zohn_ahl::http::PublicUrl::parse("https://zohn.example/games/").unwrap();
    let proxied = common::spawn_server_with(move || {
        zohn_ahl::http::app(service.clone()).app_data(actix_web::web::Data::new(public.clone()))
    });
    let r = send(&proxied, get("/openapi.json")).await;
    assert_eq!(r.json()["servers"][0]["url"], "https://zohn.example/games");
}

/// The server answered `HEAD` wherever it answered `GET`, but the document
/// declared no `head` operation, so generated clients had none. Now every
/// `get` has a `head` twin: its parameters and statuses, no bodies.
#[test]
fn regression_head_was_answered_but_not_declared_in_the_document() {
    let doc: Value = zohn_ahl::http::openapi();
    let mut heads = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        let Some(get) = item.get("get") else { continue };
        let head = &item["head"];
        assert!(head.is_object(), "no head for GET {path}");
        let get_id = get["operationId"].as_str().unwrap();
        let noun = get_id.split_once('_').unwrap().1;
        assert_eq!(head["operationId"], format!("head_{noun}"), "{path}");
        assert_eq!(head["parameters"], get["parameters"], "{path}");
        assert_eq!(head["security"], get["security"], "{path}");
        let statuses = |op: &Value| {
            op["responses"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(statuses(head), statuses(get), "{path}");
        for (status, response) in head["responses"].as_object().unwrap() {
            assert!(response.get("content").is_none(), "HEAD {path} {status}");
            assert_eq!(response["headers"], get["responses"][status]["headers"]);
        }
        heads += 1;
    }
    assert!(heads >= 20, "{heads}");
}

/// `CslCustom.kind` had its three values only in prose, so generators
/// typed it as any string. Now it is an enum, and every source served has
/// one of its values.
#[actix_web::test]
async fn regression_a_sources_kind_was_a_free_string_in_the_document() {
    let doc: Value = zohn_ahl::http::openapi();
    let kind = &doc["components"]["schemas"]["CslCustom"]["properties"]["kind"];
    let kinds = doc
        .pointer("/components/schemas/SourceKind/enum")
        .unwrap_or_else(|| panic!("SourceKind is an enum: {kind}"))
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(
        kinds,
        [
            "primary",
            "secondary",
            "modern_retelling",
            "own_computation"
        ]
    );
    assert!(kind.to_string().contains("SourceKind"), "{kind}");
    let (_db, app) = spawn_app().await;
    let body = send(&app, get("/v1/sources")).await.json();
    for item in body["items"].as_array().unwrap() {
        assert!(kinds.contains(&item["custom"]["kind"]), "{item}");
    }
}

/// Throw, stop and delete listed `security: [{}, {token: []}]` of their
/// own, and openapi-python-client makes any operation with a requirement of
/// its own demand an `AuthenticatedClient`, so `mypy --strict` refused a
/// plain client for a game without seats. Now the optional token is the
/// document's requirement, which they inherit; every other operation says
/// it takes none (`security: []`).
#[test]
fn regression_an_open_game_needed_an_authenticated_python_client() {
    let doc: Value = zohn_ahl::http::openapi();
    assert_eq!(doc["security"], serde_json::json!([{}, {"token": []}]));
    let takes_a_token = [
        "play_throw",
        "stop_game",
        "delete_game",
        "create_seat_token",
    ];
    // A class's operations need its host's token: theirs is no open game.
    let needs_a_token = [
        "get_class",
        "head_class",
        "create_class_game",
        "get_class_archive",
        "head_class_archive",
    ];
    let mut seen = Vec::new();
    for (path, method, op) in operations(&doc) {
        let id = op["operationId"].as_str().unwrap();
        if needs_a_token.contains(&id) {
            assert_eq!(
                op["security"],
                serde_json::json!([{"token": []}]),
                "{method} {path}"
            );
        } else if takes_a_token.contains(&id) {
            assert!(op.get("security").is_none(), "{method} {path}");
            seen.push(id);
        } else {
            assert_eq!(op["security"], serde_json::json!([]), "{method} {path}");
        }
    }
    seen.sort_unstable();
    assert_eq!(
        seen,
        [
            "create_seat_token",
            "delete_game",
            "play_throw",
            "stop_game"
        ]
    );
}

/// BibTeX and the board's PNG shared an operation with CSL-JSON and SVG, so
/// generators typed them wrongly (BibTeX parsed as JSON, the PNG as text).
/// Now each has its own path with one media type, and the old forms
/// (`format=`, `Accept`) answer as before, their parameter deprecated.
#[actix_web::test]
async fn regression_bibtex_and_png_shared_an_operation_with_json_and_svg() {
    let doc: Value = zohn_ahl::http::openapi();
    for (path, method, op) in operations(&doc) {
        if method == "head" {
            continue;
        }
        let id = op["operationId"].as_str().unwrap();
        for (status, response) in op["responses"].as_object().unwrap() {
            let media = response["content"].as_object().map_or(0, |c| c.len());
            // The live feed is one stream in two framings.
            if id != "stream_events" {
                assert!(media <= 1, "{method} {path} {status}: {media} media types");
            }
        }
        let deprecated: Vec<&str> = op["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| p["deprecated"] == true)
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        let expected: &[&str] = if [
            "get_board",
            "get_move_board",
            "get_ruleset_board",
            "list_sources",
            "get_source",
        ]
        .contains(&id)
        {
            &["format"]
        } else {
            &[]
        };
        assert_eq!(deprecated, expected, "{id}");
    }
    let media = |path: &str| {
        doc["paths"][path]["get"]["responses"]["200"]["content"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(media("/v1/sources.bib"), ["application/x-bibtex"]);
    assert_eq!(media("/v1/sources/{id}.bib"), ["application/x-bibtex"]);
    assert_eq!(media("/v1/games/{id}/board.png"), ["image/png"]);
    assert_eq!(media("/v1/games/{id}/moves/{n}/board.png"), ["image/png"]);
    assert_eq!(media("/v1/rulesets/{preset}/board.png"), ["image/png"]);
    assert_eq!(media("/v1/games/{id}/board.svg"), ["image/svg+xml"]);
    assert_eq!(media("/v1/sources"), ["application/json"]);

    // Over HTTP: the new paths answer what the old forms still answer.
    let (_db, app) = spawn_app().await;
    let same = async |new: &str, old: &str, media: &str| {
        let (new_r, old_r) = (send(&app, get(new)).await, send(&app, get(old)).await);
        assert_eq!(new_r.status.as_u16(), 200, "{new}");
        assert_eq!(old_r.status.as_u16(), 200, "{old}");
        assert!(
            new_r.header("content-type").unwrap().starts_with(media),
            "{new}"
        );
        assert!(
            old_r.header("content-type").unwrap().starts_with(media),
            "{old}"
        );
        assert_eq!(new_r.body, old_r.body, "{new} and {old}");
    };
    same(
        "/v1/sources.bib",
        "/v1/sources?format=bibtex",
        "application/x-bibtex",
    )
    .await;
    same(
        "/v1/sources/culin1907.bib",
        "/v1/sources/culin1907?format=bibtex",
        "application/x-bibtex",
    )
    .await;
    let created = send(&app, common::post_empty("/v1/games")).await.json();
    let id = created["id"].as_str().unwrap();
    send(&app, common::post_empty(&format!("/v1/games/{id}/throws"))).await;
    for base in [
        format!("/v1/games/{id}/board"),
        format!("/v1/games/{id}/moves/1/board"),
        "/v1/rulesets/a4/board".to_owned(),
    ] {
        same(
            &format!("{base}.png"),
            &format!("{base}.svg?format=png"),
            "image/png",
        )
        .await;
    }
    send(&app, get("/v1/sources/no-such-source.bib"))
        .await
        .problem(404);
    send(&app, get("/v1/sources/Bad%20Id.bib"))
        .await
        .problem(400);
    send(&app, get("/v1/games/not-a-game/board.png"))
        .await
        .problem(400);
}
