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
pub use delete::delete_game;
pub use read::get_game;
pub use seats::create_seat_token;
pub use stop::stop_game;
pub use throw::post_throw;
