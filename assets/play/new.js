// Start a game: POST /v1/games, then open it (or, with seats, show the links).
"use strict";
(function () {
  const form = document.getElementById("new-game");
  const error = document.getElementById("form-error");

  function side(id) {
    const name = document.getElementById(id).value.trim();
    return name ? { name } : undefined;
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const seats = document.getElementById("seats").checked;
    const sidesReport = document.getElementById("sides-report").checked;
    const body = {
      ruleset: { preset: document.getElementById("preset").value },
      narration: {
        audience: document.getElementById("audience").value,
        detail: document.getElementById("detail").value,
      },
      seats: seats && sidesReport ? { sides_report_throws: true } : seats,
    };
    const a = side("name-a");
    const b = side("name-b");
    if (a || b) {
      body.sides = {};
      if (a) body.sides.a = a;
      if (b) body.sides.b = b;
    }
    const button = document.getElementById("create");
    button.disabled = true;
    try {
      const res = await fetch("/v1/games", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const game = await res.json();
      if (!res.ok) {
        const fields = (game.errors || []).map((e) => e.detail).join("; ");
        error.textContent = game.detail + (fields && fields !== game.detail ? " (" + fields + ")" : "");
        return;
      }
      const page = "/play/" + encodeURIComponent(game.id);
      if (!seats) {
        location.assign(page);
        return;
      }
      // The tokens go in the fragment only: browsers never send it to the server.
      const names = Object.fromEntries(game.sides.map((s) => [s.side, s.name]));
      const links = {
        // The projector's link opens in big-screen mode.
        watch: page + "#big=1",
        host: page + "#seat=host." + game.host_token,
        a: page + "#seat=A." + game.seat_tokens.a,
        b: page + "#seat=B." + game.seat_tokens.b,
      };
      for (const [key, href] of Object.entries(links)) {
        document.getElementById("link-" + key).href = href;
        document.getElementById("url-" + key).textContent = location.origin + href;
      }
      document.getElementById("label-a").textContent = names.A;
      document.getElementById("label-b").textContent = names.B;
      document.getElementById("link-a").textContent = "play as " + names.A;
      document.getElementById("link-b").textContent = "play as " + names.B;
      form.hidden = true;
      document.getElementById("links").hidden = false;
      document.getElementById("links-title").focus();
    } catch (e) {
      error.textContent = "The server could not be reached: " + e.message;
    } finally {
      button.disabled = false;
    }
  });
})();
