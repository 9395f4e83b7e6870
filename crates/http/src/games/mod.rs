//! The games resource: create, read, throw, stop, delete and a seat's new
//! token, each handler
//! with its bodies in its own module; the move log is [`super::moves`].

mod create;
mod delete;
mod read;
mod seats;
mod stop;
mod throw;

pub use create::{CreateGameRequest, PlayerName, SeatsRequest, create_game};
pub(crate) use create::{created_answer, created_view};
pub use delete::delete_game;
pub use read::{
    CreatedGameView, GameStatus, GameView, game_status, game_view, get_game, next_to_throw, winner,
};
pub use seats::create_seat_token;
pub use stop::stop_game;
pub use throw::post_throw;
