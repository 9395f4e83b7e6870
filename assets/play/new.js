// Start a game: POST /v1/games, then open it (or, with seats, show the links,
// each with a button that copies it and a QR code a tablet scans). A seated
// game's links are kept in this browser (seatlinks.js) and listed under
// "Games started here", so that a reload does not lose them.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const form = $("new-game");
  const error = $("form-error");

  function side(id) {
    const name = $(id).value.trim();
    return name ? { name } : undefined;
  }

  // Copy the text of the element a button is for: the clipboard where the
  // page may use it (https, localhost), else the browser's copy command.
  async function copy(button) {
    const code = $(button.dataset.for);
    let done = false;
    try {
      await navigator.clipboard.writeText(code.textContent);
      done = true;
    } catch (_) {
      const range = document.createRange();
      range.selectNodeContents(code);
      const selection = getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      done = document.execCommand("copy");
    }
    const label = button.textContent;
    button.textContent = done ? "Copied" : "Select and copy it";
    setTimeout(() => { button.textContent = label; }, 2000);
  }
  for (const button of document.querySelectorAll("button.copy")) {
    button.addEventListener("click", () => copy(button));
  }

  // ---- the games kept in this browser (seatlinks.js) ----------------------
  const { kept, keep, qrInto } = window.ZohnLinks;
  function forget(id) {
    window.ZohnLinks.forget(id);
    showKept();
  }

  const ROLES = [["watch", "Projector"], ["host", "Teacher"], ["a", null], ["b", null]];
  function showKept() {
    const list = $("kept-list");
    list.replaceChildren();
    const games = kept();
    for (const g of games) {
      const li = document.createElement("li");
      li.dataset.game = g.id;
      const head = document.createElement("p");
      const names = document.createElement("bdi");
      names.textContent = g.names.A + " and " + g.names.B;
      head.append(names, " (" + new Date(g.created).toLocaleString() + ")");
      const links = document.createElement("ul");
      for (const [key, role] of ROLES) {
        const item = document.createElement("li");
        const a = document.createElement("a");
        a.href = g.links[key];
        const who = document.createElement("bdi");
        who.textContent = role || g.names[key.toUpperCase()];
        a.append(who);
        item.append(a);
        links.append(item);
      }
      if (g.overview) {
        const item = document.createElement("li");
        const a = document.createElement("a");
        a.href = g.overview;
        a.textContent = "The class's overview";
        item.append(a);
        links.prepend(item);
      }
      const drop = document.createElement("button");
      drop.type = "button";
      drop.className = "quiet";
      drop.textContent = "Forget these links";
      drop.addEventListener("click", () => forget(g.id));
      li.append(head, links, drop);
      list.append(li);
    }
    $("kept").hidden = games.length === 0;
  }
  showKept();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const seats = $("seats").checked;
    const sidesReport = $("sides-report").checked;
    const body = {
      ruleset: { preset: $("preset").value },
      narration: { audience: $("audience").value, detail: $("detail").value },
      seats: seats && sidesReport ? { sides_report_throws: true } : seats,
    };
    const a = side("name-a");
    const b = side("name-b");
    if (a || b) {
      body.sides = {};
      if (a) body.sides.a = a;
      if (b) body.sides.b = b;
    }
    const button = $("create");
    button.disabled = true;
    const count = Number($("games").value || 1);
    if (count > 1) {
      try {
        if (!Number.isInteger(count) || count > 40) throw new Error("a class has 1 to 40 games");
        await window.ZohnNewClass.create(body, count, $("class-name").value.trim(), $("name-a").value.trim(), $("name-b").value.trim());
        showKept();
      } catch (e) {
        error.textContent = e.message;
      } finally {
        button.disabled = false;
      }
      return;
    }
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
      const page = location.origin + "/play/" + encodeURIComponent(game.id);
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
        $("link-" + key).href = href;
        $("url-" + key).textContent = href;
      }
      const codes = game.join_codes || {};
      for (const key of ["a", "b"]) $("code-" + key).textContent = window.ZohnLinks.spaced(codes[key]);
      $("join-address").textContent = location.origin + "/join";
      $("label-a").textContent = names.A;
      $("label-b").textContent = names.B;
      $("link-a").textContent = "play as " + names.A;
      $("link-b").textContent = "play as " + names.B;
      qrInto($("qr-host"), links.host, "QR code of the teacher's link");
      qrInto($("qr-a"), links.a, "QR code of the link for " + names.A);
      qrInto($("qr-b"), links.b, "QR code of the link for " + names.B);
      keep({ id: game.id, created: new Date().toISOString(), names, links, codes });
      showKept();
      form.hidden = true;
      $("links").hidden = false;
      $("links-title").focus();
    } catch (e) {
      error.textContent = "The server could not be reached: " + e.message;
    } finally {
      button.disabled = false;
    }
  });
})();
