//! A whole game through the Rust client openapi-generator made from the
//! served document, without an edit to the generated code: a game created
//! with no body and thrown to its end with empty throws, a seated game
//! thrown by each side with its own seat token, every page of both move
//! logs, the rulesets (each option's default: a choice, a count or none).
//!
//! `cargo run --locked -- http://127.0.0.1:8080` (default: the document's
//! own server).

use zohn_ahl_client::apis::configuration::Configuration;
use zohn_ahl_client::apis::{games_api, rulesets_api};
use zohn_ahl_client::models::{self, GameStatus};

/// Throw (the server throws: no body) until the game is over; the throws
/// and the winner.
async fn play_to_end(config: &Configuration, id: &str) -> (usize, Option<models::Side>) {
    let mut throws = 0;
    loop {
        let moved = games_api::play_throw(config, id, None, None, None)
            .await
            .expect("an empty throw");
        throws += 1;
        if moved.state.status == GameStatus::Finished {
            return (throws, moved.state.winner);
        }
    }
}

/// Every page of the move log; the moves and the pages.
async fn read_log(config: &Configuration, id: &str) -> (usize, usize) {
    let (mut moves, mut pages, mut cursor) = (0, 0, None::<String>);
    loop {
        let page = games_api::list_moves(
            config,
            id,
            cursor.as_deref(),
            Some(7),
            Some(models::Audience::Young),
            Some(models::Detail::Brief),
        )
        .await
        .expect("a page of the move log");
        pages += 1;
        for (i, m) in page.items.iter().enumerate() {
            assert_eq!(
                usize::try_from(m.n).ok(),
                Some(moves + i + 1),
                "moves in order"
            );
            assert!(!m.caption.is_empty());
        }
        moves += page.items.len();
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return (moves, pages),
        }
    }
}

#[tokio::main]
async fn main() {
    let mut open = Configuration::new();
    if let Some(base) = std::env::args().nth(1) {
        open.base_path = base;
    }

    // An open game, created with no body.
    let game = games_api::create_game(&open, None, None)
        .await
        .expect("a game created with no body");
    assert!(game.host_token.is_none() && game.seat_tokens.is_none());
    let (throws, winner) = play_to_end(&open, &game.id).await;
    let (moves, pages) = read_log(&open, &game.id).await;
    assert_eq!(moves, throws);
    assert!(winner.is_some());
    println!(
        "{}: {throws} throws, {winner:?} won; move log {moves} moves in {pages} pages",
        game.id
    );

    // A seated, seeded game: each side throws with its own token.
    let mut request = models::CreateGameRequest::new();
    request.seats = Some(Some(Box::new(models::SeatsRequest::Boolean(true))));
    request.seed = Some(Some("lesson-4".to_owned()));
    let seated = games_api::create_game(&open, None, Some(request))
        .await
        .expect("a seated game");
    let tokens = seated.seat_tokens.clone().expect("seat tokens");
    let mut to_throw = seated.to_throw.clone();
    let mut throws = 0;
    let winner = loop {
        let side = to_throw.expect("a side to throw").side;
        let mut as_side = open.clone();
        as_side.bearer_access_token = Some(match side {
            models::Side::A => tokens.a.clone(),
            models::Side::B => tokens.b.clone(),
        });
        let moved = games_api::play_throw(&as_side, &seated.id, None, None, None)
            .await
            .expect("the mover's throw");
        throws += 1;
        if moved.state.status == GameStatus::Finished {
            break moved.state.winner;
        }
        to_throw = moved.state.to_throw;
    };
    // Without a token, a seated game's throw is refused.
    assert!(
        games_api::play_throw(&open, &seated.id, None, None, None)
            .await
            .is_err()
    );
    let (moves, pages) = read_log(&open, &seated.id).await;
    assert_eq!(moves, throws);
    println!(
        "{} (seated): {throws} throws, {winner:?} won; move log {moves} moves in {pages} pages",
        seated.id
    );

    // The rulesets, each option's default read into its type.
    let rulesets = rulesets_api::list_rulesets(&open)
        .await
        .expect("the rulesets");
    assert!(!rulesets.items.is_empty());
    for option in &rulesets.options {
        match option.default.as_deref() {
            Some(models::OptionValue::Choice(name)) => assert!(!name.is_empty()),
            Some(models::OptionValue::Count(n)) => assert!(*n >= 0),
            None => assert!(option.nullable, "{}", option.name),
        }
    }
    println!(
        "{} presets, {} options",
        rulesets.items.len(),
        rulesets.options.len()
    );

    games_api::delete_game(&open, &game.id)
        .await
        .expect("delete");
    games_api::delete_game(&open, &seated.id).await.ok();
    println!("ok");
}
