// On the teacher's page (#seat=host.…): "New link" for a side's seat. It
// asks first, then gives the seat a new token (POST
// /v1/games/{id}/seats/{side}/token with the host's token): the old link
// and code stop working, and the new link and code are shown (links.js).
"use strict";
window.ZohnNewLink = (function () {
  // A "New link" button in `li` for side `side` ("A" or "B"), named `name`;
  // `done(link, code)` gets the new link and code.
  function offer(li, { id, host, side, name, status, done }) {
    const ask = document.createElement("button");
    ask.type = "button";
    ask.className = "quiet new-link";
    ask.textContent = "New link for " + name;
    const confirm = document.createElement("p");
    confirm.className = "confirm";
    confirm.hidden = true;
    const warning = document.createElement("span");
    warning.textContent = "The old link and code will stop working. ";
    const yes = document.createElement("button");
    yes.type = "button";
    yes.className = "make-new-link";
    yes.textContent = "Make a new link";
    const no = document.createElement("button");
    no.type = "button";
    no.textContent = "Keep the old one";
    confirm.append(warning, yes, " ", no);
    ask.addEventListener("click", () => {
      ask.hidden = true;
      confirm.hidden = false;
      yes.focus();
    });
    no.addEventListener("click", () => {
      confirm.hidden = true;
      ask.hidden = false;
      ask.focus();
    });
    yes.addEventListener("click", async () => {
      yes.disabled = true;
      try {
        const res = await fetch(
          "/v1/games/" + encodeURIComponent(id) + "/seats/" + side.toLowerCase() + "/token",
          { method: "POST", headers: { authorization: "Bearer " + host } },
        );
        const body = await res.json();
        if (!res.ok) {
          status.textContent = "No new link was made: " + (body.detail || res.status);
          return;
        }
        const link = location.origin + "/play/" + encodeURIComponent(id) + "#seat=" + side + "." + body.token;
        done(link, body.join_code);
        status.textContent = "New link made for " + name + ". The old link and code no longer work.";
      } catch (e) {
        status.textContent = "The server could not be reached: " + e.message;
      } finally {
        yes.disabled = false;
      }
    });
    li.append(ask, confirm);
  }

  return { offer };
})();
