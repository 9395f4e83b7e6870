// The chart of the chances on a game's page (GET /v1/games/{id}/chances.svg),
// under the board; game.js asks for it whenever the board is drawn, with
// `now()` telling it the page's state (the game view, the newest move shown,
// the audience, whether the game was deleted).
"use strict";
window.ZohnChances = function (api, $, now) {
  // The chart of the chances under the board: asked for with the game's
  // version (`?v=`, which the server ignores) so that each state has its own
  // address, read as text so that its description (the SVG's <desc>)
  // becomes the image's alt text, then shown from the same address (the
  // browser revalidates it with the ETag: a 304). One request at a
  // time: a move arriving meanwhile asks again when it is answered. A
  // ruleset without exact odds (422) hides it; one being solved (503) is
  // asked again after Retry-After.
  let chancesShown = "";
  let chancesBusy = false;
  async function drawChances() {
    const { gone, game, lastN, audience } = now();
    if (gone || !game || chancesBusy) return;
    const v = Math.max(game.version, lastN);
    const src = api + "/chances.svg?v=" + v + "&audience=" + encodeURIComponent(audience || game.audience);
    if (src === chancesShown) return;
    chancesBusy = true;
    try {
      const res = await fetch(src);
      if (res.status === 503) {
        const wait = Number(res.headers.get("Retry-After")) || 2;
        setTimeout(drawChances, wait * 1000);
        return;
      }
      if (!res.ok) {
        $("chances-figure").hidden = true;
        chancesShown = src;
        return;
      }
      const text = await res.text();
      const desc = new DOMParser().parseFromString(text, "image/svg+xml").querySelector("desc");
      const img = $("chances");
      img.src = src;
      img.alt = desc ? desc.textContent : "A chart of each side's chance of winning";
      img.dataset.v = String(v);
      $("chances-figure").hidden = false;
      chancesShown = src;
    } catch (e) {
      // Asked again with the next move.
    } finally {
      chancesBusy = false;
    }
    const later = now();
    if (src === chancesShown && later.game && Math.max(later.game.version, later.lastN) !== v) drawChances();
  }
  return drawChances;

};
