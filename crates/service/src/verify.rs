//! Checking the stored games against the rules: `zohn-ahl verify`.

use super::{Result, Service};
use crate::rules::{self, Throw};

impl Service {
    /// Check every stored game: its moves are numbered 1, 2, ... without a
    /// gap or a double, and its state equals the replay of its moves (then a
    /// stop, for a game stopped early). Returns the number of games checked
    /// and a description of each fault.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn verify(&self) -> Result<(usize, Vec<String>)> {
        let ids = self.store.game_ids().await?;
        let mut faults = Vec::new();
        for &id in &ids {
            let game = self.game(id).await?;
            let moves = self.store.moves(id, 0, u32::MAX).await?;
            for (i, m) in moves.iter().enumerate() {
                if m.n as usize != i + 1 {
                    faults.push(format!("game {id}: move {} stored at place {}", m.n, i + 1));
                    break;
                }
            }
            let table = game.setup.table()?;
            let throws: Vec<Throw> = moves.iter().map(|m| m.throw).collect();
            let mut replayed = match rules::replay(&table, &throws) {
                Ok(s) => s,
                Err(e) => {
                    faults.push(format!("game {id}: replay fails: {e}"));
                    continue;
                }
            };
            let stopped = game.version.get() as usize == moves.len() + 1;
            if stopped && let Ok((s, _)) = rules::stop(&replayed) {
                replayed = s;
            }
            if replayed != game.state {
                faults.push(format!(
                    "game {id}: stored state differs from the replay of its moves"
                ));
            }
            if game.version.get() as usize != moves.len() + usize::from(stopped) {
                faults.push(format!(
                    "game {id}: version {} for {} moves",
                    game.version,
                    moves.len()
                ));
            }
        }
        Ok((ids.len(), faults))
    }
}
