// A refusal from the API (RFC 9457 problem+json) in words for the person at
// a game's screen, a pupil often: what to do now, not what the server
// checked. The problem's own detail is for developers and shows only for
// refusals a player cannot meet.
"use strict";
// `res`: the refused answer; `stale`: called when the page's game may be
// behind the server's.
window.ZohnRefusal = async function (res, stale) {
  let problem = {};
  try {
    problem = await res.json();
  } catch (_) {
    // No problem document: the status says enough.
  }
  const type = String(problem.type || "").replace(/^.*\/problems\//, "");
  switch (type) {
    case "not-your-seat":
      // The page's idea of whose turn it is may be behind the game's (a
      // teacher's trial: "Reds throw now" told to the Reds): read the game
      // again rather than name a side.
      stale();
      return "Wait: it is not your turn now. Look at the board to see whose turn it is.";
    case "version-mismatch":
      stale();
      return "The game moved on before your throw arrived (someone else may have thrown first). Look at the board: throw again if it is still your turn.";
    case "game-over":
      return "The game is already over.";
    case "seat-token-required":
      // A seat's link whose token is no seat's any more: the teacher gave
      // the side a new link.
      if (new URLSearchParams(location.hash.slice(1)).has("seat")) {
        return "This link no longer works. Ask your teacher for your side's new link or code.";
      }
      return "This screen watches the game: throw from your side's own link.";
    case "host-token-required":
      return "Only the teacher's page can do that.";
    case "busy":
    case "rate-limited":
      return "The game is busy for a moment: try again in a few seconds.";
    case "game-not-found":
      return "This game is no longer kept.";
    default:
      return problem.detail || problem.title || res.status + " " + res.statusText;
  }
};
