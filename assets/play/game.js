// One game's page: the board, the narrated moves (kept in step through the
// live feed, GET /v1/games/{id}/events), throws, reported throws, stop, the
// audience and detail switches, big-screen mode and the fairness of the
// reported throws.
//
// A seat token is read from the URL fragment (#seat=A.<token>) and sent only
// in the Authorization header of throws and stops; the fragment never
// reaches the server.
"use strict";
(function () {
  const id = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const api = "/v1/games/" + encodeURIComponent(id);
  const $ = (sel) => document.getElementById(sel);

  // ---- the fragment: seat, audience, big screen ---------------------------
  const fragment = new URLSearchParams(location.hash.slice(1));
  let seatSide = null;
  let seatToken = null;
  {
    const seat = fragment.get("seat");
    const dot = seat ? seat.indexOf(".") : -1;
    if (dot > 0) {
      seatSide = seat.slice(0, dot);
      seatToken = seat.slice(dot + 1);
    }
  }
  function saveFragment() {
    const text = fragment.toString();
    history.replaceState(null, "", location.pathname + (text ? "#" + text : ""));
  }

  // ---- state ---------------------------------------------------------------
  let game = null; // the latest game view
  let audience = fragment.get("audience");
  let detail = fragment.get("detail"); // lesson, brief or full
  let feed = null; // the EventSource
  let generation = 0; // bumped on every (re)subscription
  let poller = null; // the fallback when the feed is unavailable
  let lastN = 0; // the newest move shown
  let refreshTimer = null;
  let busy = false; // a throw or report is on its way: one at a time
  let newest = null; // the newest move shown
  let gone = false; // the game was deleted
  let connected = true; // the page hears the game (see "the connection")
  let answered = 0; // the newest move this page's own throws were answered with

  function headers(extra) {
    const h = Object.assign({}, extra || {});
    if (seatToken) h["Authorization"] = "Bearer " + seatToken;
    return h;
  }

  function showError(text) {
    $("error").textContent = text || "";
  }

  // A refusal in words for the person at this screen (refusals.js).
  const refusalText = (res) => window.ZohnRefusal(res, refreshGame);

  // ---- the connection ------------------------------------------------------
  // Whether the page hears the game. A feed that fails, or a request that
  // does not reach the server, says not: the page says so in words, its
  // throw controls wait, the browser's own reconnection is given a few
  // seconds, then the page subscribes afresh (a new snapshot, the moves read
  // again); a device that comes back online does so at once. The feed
  // opening again says it is heard, and the game is read again, since a
  // resumed feed sends only the moves missed, not whose turn it is now.
  let resyncTimer = null;
  function setConnected(on) {
    if (on) {
      clearTimeout(resyncTimer);
      resyncTimer = null;
    }
    if (on === connected) return;
    connected = on;
    $("connection").textContent = on ? "" : "Reconnecting to the game…";
    $("connection").hidden = on;
    document.body.dataset.connection = on ? "live" : "lost";
    updateControls();
  }
  // One subscription afresh per 4 s of silence at most: the feed's own
  // errors come every 2 s while the server is away and must not put it off.
  function connectionLost() {
    setConnected(false);
    if (resyncTimer) return;
    resyncTimer = setTimeout(() => {
      resyncTimer = null;
      if (!connected && !gone) subscribe();
    }, 4000);
  }
  window.addEventListener("online", () => {
    if (!connected && !gone) subscribe();
  });

  // ---- sources, for the citation links (sources.js) ----------------------
  const cite = window.ZohnSources();

  // ---- the game view -------------------------------------------------------
  function sideName(side) {
    if (side === "host") return "the teacher";
    const s = game && game.sides.find((x) => x.side === side);
    return s ? s.name : side;
  }

  function renderGame(view) {
    // A view older than the one shown (a read that crossed a move or the
    // stop on its way) changes nothing: the page never goes back.
    if (gone || (game && view.id === game.id && view.version < game.version)) return;
    game = view;
    if (!audience) {
      audience = view.audience;
    }
    $("audience").value = audience;
    if (!detail) {
      detail = view.detail;
    }
    $("detail").value = detail;
    const [a, b] = view.sides;
    window.ZohnBidi.setNames([a.name, b.name]);
    // Names in <bdi>: a right-to-left name keeps the sentence around it in
    // its order. A name is an object in `parts`, the rest is text.
    const put = (el, parts) => el.replaceChildren(...parts.map((p) =>
      typeof p === "string" ? p : Object.assign(document.createElement("bdi"), { textContent: p.name })));
    put($("title"), [{ name: a.name }, " and ", { name: b.name }]);
    document.title = "Zohn Ahl: " + a.name + " and " + b.name;
    let status = [];
    if (view.status === "finished") {
      status = view.result === "draw" ? ["The game is over: a draw."] : ["The game is over: ", { name: sideName(view.winner) }, " won."];
    } else if (view.to_throw) {
      const side = sideName(view.to_throw.side);
      status = view.to_throw.name && view.to_throw.name !== side
        ? [{ name: view.to_throw.name }, " (", { name: side }, ")"]
        : [{ name: side }];
      status.push(" to throw" + (view.extra_throw_pending ? " again." : "."));
    }
    status.push(" Counters: ", { name: a.name }, " " + a.counters + ", ", { name: b.name }, " " + b.counters + ".");
    put($("status"), status);
    const board = $("board");
    board.alt = (view.status === "finished" ? "The final board: " : "The board: ") + a.name + "'s awl on its space " + a.awl.space + ", " + b.name +
      "'s awl on its space " + b.awl.space + "; counters " + a.counters + " and " + b.counters + ".";
    board.dataset.awls = a.awl.space + "," + b.awl.space;
    drawBoard();
    const spinner = view.ruleset.options.throw_table === "spinner";
    $("report-sticks").hidden = spinner;
    $("report-spinner").hidden = !spinner;
    $("throw").textContent = spinner ? "Spin the spinner" : "Throw the sticks";
    updateControls();
  }

  function updateControls() {
    const over = !game || game.status === "finished" || gone;
    const host = seatSide === "host";
    let canThrow = !over && !busy && connected;
    let canReport = canThrow;
    let canStop = !over;
    let watching = false;
    let note = "";
    if (game && game.seated) {
      if (!seatToken) {
        canThrow = canReport = canStop = false;
        watching = true;
        note = "This page watches the game: each side throws from its own link.";
      } else if (host) {
        note = "Teacher's page: throw for the side to move, report real sticks, or stop the game.";
      } else {
        // A side throws on its own turn; it reports real sticks only if the
        // game allows it, and only the teacher stops the game.
        canStop = false;
        if (!game.sides_report_throws) canReport = false;
        if (!over && game.to_throw && game.to_throw.side !== seatSide) {
          canThrow = canReport = false;
          note = "You play " + sideName(seatSide) + ": wait for your turn.";
        } else {
          note = "You play " + sideName(seatSide) + ".";
        }
      }
    }
    if (over) note = gone ? "The game was deleted." : "The game is over.";
    else if (!connected) note = "Reconnecting to the game: wait a moment before throwing.";
    $("seat-note").textContent = note;
    $("throw").disabled = !canThrow;
    $("throw").hidden = watching || over;
    $("report-send").disabled = !canReport;
    $("report").hidden = watching || over || (game && game.seated && !host && !game.sides_report_throws);
    $("stop").disabled = !canStop;
    $("stop").hidden = watching || over || (game && game.seated && !host);
  }

  // The board's picture, chosen from the latest state known (the newest
  // game view and the newest move shown), never from the event or answer
  // that asks for it, so a late one cannot bring back an older picture. A
  // finished game (won, drawn or stopped) shows the game's own board, which
  // says how it ended: the last move's board of a stopped game still shows
  // whose throw it was. A game in play shows the newest move's board, or
  // the game's when the game view is newer (before the moves are read).
  // The game's board is asked for with its version (`?v=`, a parameter the
  // server ignores), so that each state has its own address: the browser
  // never shows a picture it kept under the same address for an earlier
  // state, and the answer for an address no longer set is dropped.
  function drawBoard() {
    if (gone || !game) return;
    const board = $("board");
    let src;
    let shows;
    // Big screen: the track alone, with numbers for the back of the room;
    // on a phone too, whose screen makes the full picture's numbers tiny.
    const big = document.documentElement.classList.contains("big") || matchMedia("(max-width: 40rem)").matches;
    if (game.status !== "finished" && lastN > 0 && lastN >= game.throws) {
      src = api + "/moves/" + lastN + "/board.svg" + (big ? "?view=projector" : "");
      shows = "move";
    } else {
      src = api + "/board.svg?v=" + game.version + (big ? "&view=projector" : "");
      shows = game.status === "finished" ? "final" : "game";
    }
    if (board.getAttribute("src") !== src) board.setAttribute("src", src);
    board.dataset.shows = shows;
    drawChances();
  }

  // The chart of the chances under the board (chances.js).
  const drawChances = window.ZohnChances(api, $, () => ({ gone, game, lastN, audience }));

  // The line under the board once the game is over: the stop's narrated
  // result where this page stopped it, else the last move's caption when a
  // throw won it, else that the game was stopped (never the last move's
  // "throws again" under a stopped game).
  function endLine() {
    if (stopShown || !game || game.status !== "finished") return;
    const wonByThrow = newest && (newest.events || []).some((e) => e.kind === "won");
    $("latest").textContent = wonByThrow ? caption(newest) : "The game was stopped.";
  }

  // The stop's narrated result, on the page that stopped the game: in the
  // latest move's line and at the top of the moves, with its citations.
  let stopShown = false;
  function showStop(narration) {
    const segments = (narration && narration.segments) || [];
    if (!segments.length) return;
    stopShown = true;
    window.ZohnBidi.put($("latest"), segments[0].text);
    const li = document.createElement("li");
    li.className = "stop";
    for (const s of segments) {
      const p = document.createElement("p");
      p.className = "segment " + s.kind;
      window.ZohnBidi.put(p, s.text);
      p.append(citationLinks(s.citations));
      li.append(p);
    }
    $("moves").prepend(li);
  }

  // ---- the moves -----------------------------------------------------------
  function citationLinks(citations) {
    const span = document.createElement("span");
    span.className = "cites";
    for (const c of citations || []) {
      const a = document.createElement("a");
      // The source itself where it is online, else its record; in a new
      // tab, so that a tap on a citation keeps the game on screen.
      a.href = cite.url(c.source);
      a.target = "_blank";
      a.dataset.source = c.source;
      a.rel = "noopener noreferrer";
      // What nobody here has seen directly says so, in the server's words.
      a.textContent = cite.label(c.source) + (c.locator ? ", " + c.locator : "") +
        (c.caveat ? " (" + c.caveat + ")" : "");
      a.title = (cite.online(c.source) ? "The source, online: " : "The source's record: ") + c.source + " (opens a new tab)";
      span.append(" ", a);
    }
    return span;
  }

  function caption(m) {
    return m.caption || m.player.name + " threw " + m.value + (m.throws_again ? " and throws again." : ".");
  }

  function addMove(m, live) {
    const list = $("moves");
    if (list.querySelector('li[data-n="' + m.n + '"]')) return;
    const li = document.createElement("li");
    li.dataset.n = String(m.n);
    li.value = m.n;
    const head = document.createElement("p");
    head.className = "caption";
    window.ZohnBidi.put(head, caption(m));
    li.append(head);
    for (const s of (m.narration && m.narration.segments) || []) {
      const p = document.createElement("p");
      p.className = "segment " + s.kind;
      window.ZohnBidi.put(p, s.text);
      p.append(citationLinks(s.citations));
      li.append(p);
    }
    // Newest first: before the first item with a smaller number.
    let before = null;
    for (const item of list.children) {
      if (Number(item.dataset.n) < m.n) {
        before = item;
        break;
      }
    }
    list.insertBefore(li, before);
    if (m.n > lastN) {
      lastN = m.n;
      newest = m;
      drawBoard();
      // A refusal said before the game moved on no longer holds.
      if (live) {
        window.ZohnBidi.put($("latest"), caption(m));
        showError("");
      }
    }
    if (live && m.origin === "reported") fair.load();
  }

  async function backfill(upTo, gen, live) {
    let cursor = null;
    do {
      const q = new URLSearchParams({ limit: "100", audience, detail: detail || "lesson" });
      if (cursor) q.set("cursor", cursor);
      let res;
      try {
        res = await fetch(api + "/moves?" + q.toString());
      } catch (_) {
        if (gen === generation) connectionLost();
        return;
      }
      if (!res.ok || gen !== generation) return;
      const page = await res.json();
      for (const m of page.items) addMove(m, Boolean(live));
      cursor = page.next_cursor;
      const last = page.items[page.items.length - 1];
      if (last && last.n >= upTo) break;
    } while (cursor);
    // After a reload the caption line shows the newest move at once, not
    // only from the next move on.
    if (!live && newest && gen === generation) {
      window.ZohnBidi.put($("latest"), caption(newest));
      endLine();
    }
  }

  // Refresh the game view after a move (whose turn, counters), at most once
  // per burst of moves.
  function refreshGame() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(async () => {
      try {
        const res = await fetch(api + "?audience=" + encodeURIComponent(audience));
        if (res.ok) renderGame(await res.json());
      } catch (_) {
        connectionLost();
      }
    }, 150);
  }

  // ---- the live feed -------------------------------------------------------
  function subscribe() {
    generation += 1;
    const gen = generation;
    if (feed) feed.close();
    clearInterval(poller);
    poller = null;
    const q = new URLSearchParams({ audience, detail: detail || "lesson" });
    feed = new EventSource(api + "/events?" + q.toString());
    feed.addEventListener("open", () => {
      if (gen !== generation) return;
      if (!connected) refreshGame();
      setConnected(true);
    });
    // The moves shown are read again from the snapshot on: kept until it
    // comes, so that a page reconnecting does not go blank meanwhile.
    let fresh = true;
    feed.addEventListener("snapshot", (ev) => {
      if (gen !== generation) return;
      setConnected(true);
      if (fresh) {
        fresh = false;
        lastN = 0;
        $("moves").replaceChildren();
      }
      document.body.dataset.feed = "live";
      const view = JSON.parse(ev.data);
      renderGame(view);
      const n = Number(ev.lastEventId || view.throws || 0);
      backfill(n, gen);
    });
    feed.addEventListener("move", (ev) => {
      if (gen !== generation) return;
      addMove(JSON.parse(ev.data), true);
      refreshGame();
    });
    feed.addEventListener("end", (ev) => {
      if (gen !== generation) return;
      // The final view: the board becomes the game's own (drawBoard).
      const view = JSON.parse(ev.data);
      renderGame(view);
      window.ZohnRecap.show(view.recap);
      feed.close();
      // A game ends by a throw (its last move says who won) or by a stop;
      // moves still being read say which when they arrive (backfill).
      if (newest || !view.throws) endLine();
    });
    feed.addEventListener("deleted", () => {
      if (gen !== generation) return;
      feed.close();
      gone = true;
      $("status").textContent = "This game was deleted: its moves are no longer kept.";
      $("latest").textContent = "";
      $("board").removeAttribute("src");
      $("board").alt = "The board of a deleted game";
      updateControls();
    });
    feed.addEventListener("error", () => {
      if (gen !== generation) return;
      // The browser reconnects by itself (with Last-Event-ID) unless the
      // server refused the stream; then keep in step by asking for the moves.
      if (feed.readyState === EventSource.CLOSED && !gone && !(game && game.status === "finished")) {
        poll(gen);
      } else if (feed.readyState === EventSource.CONNECTING) {
        connectionLost();
      }
    });
  }

  // The fallback when the feed is refused (too many subscribers): read the
  // game and the new moves every two seconds, and try the feed again later.
  function poll(gen) {
    if (poller) return;
    document.body.dataset.feed = "polling";
    let tries = 0;
    const tick = async () => {
      if (gen !== generation) return;
      let res;
      try {
        res = await fetch(api + "?audience=" + encodeURIComponent(audience));
      } catch (_) {
        setConnected(false);
        return;
      }
      if (!res.ok) {
        showError(await refusalText(res));
        return;
      }
      setConnected(true);
      const view = await res.json();
      renderGame(view);
      await backfill(Number.MAX_SAFE_INTEGER, gen, tries > 0);
      if (view.status === "finished") {
        clearInterval(poller);
        window.ZohnRecap.load(api, audience);
      }
      tries += 1;
      if (tries % 15 === 0 && view.status !== "finished") subscribe();
    };
    tick();
    poller = setInterval(tick, 2000);
  }

  // ---- actions -------------------------------------------------------------
  // The game's version as this page knows it: the game view's, the newest
  // move shown, or the newest this page's own throws were answered with.
  function knownVersion() {
    return Math.max(game ? game.version : 0, lastN, answered);
  }

  // POST to the game. A throw is sent with `If-Match` (the version this
  // page knows), so that two devices on one seat throw once: the second is
  // refused (412) and told the game moved on. What did not reach the game
  // says so, and the page tries to reconnect.
  async function send(path, body, what) {
    showError("");
    const extra = body ? { "content-type": "application/json" } : {};
    if (path === "/throws") extra["If-Match"] = '"' + knownVersion() + '"';
    const init = { method: "POST", headers: headers(extra) };
    if (body) init.body = JSON.stringify(body);
    let res;
    try {
      res = await fetch(api + path, init);
    } catch (_) {
      showError("Your " + what + " did not reach the game. Check the connection, then try again.");
      connectionLost();
      return null;
    }
    if (!res.ok) {
      showError(await refusalText(res));
      return null;
    }
    const answer = await res.json();
    if (path === "/throws" && answer && answer.n) answered = Math.max(answered, answer.n);
    return answer;
  }

  // The throw button is disabled while a throw is on its way, which takes the
  // keyboard's focus away: give it back to the button when it can throw
  // again, else to the latest move's line, so that the next Tab, Enter or
  // Space goes on from where the player was.
  function keepFocus(from) {
    if (document.activeElement !== document.body && document.activeElement !== from) return;
    if (!from.disabled && !from.hidden) from.focus();
    else $("latest").focus();
  }

  $("throw").addEventListener("click", async () => {
    if (busy) return; // a double tap throws once
    const focused = document.activeElement === $("throw");
    busy = true;
    updateControls();
    try {
      await send("/throws", null, "throw");
    } finally {
      busy = false;
      updateControls();
      if (focused) keepFocus($("throw"));
    }
  });

  $("report").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = game && game.ruleset.options.throw_table === "spinner"
      ? { spinner: $("spinner").value }
      : { sticks: [1, 2, 3, 4].map((i) => $("stick-" + i).value) };
    if (busy) return;
    const focused = document.activeElement === $("report-send");
    busy = true;
    updateControls();
    try {
      await send("/throws", body, "throw");
    } finally {
      busy = false;
      updateControls();
      if (focused) keepFocus($("report-send"));
    }
  });

  $("stop").addEventListener("click", async () => {
    if (!confirm("Stop the game now? The side with more counters wins; equal is a draw.")) return;
    // The answer is the game after the stop and the stop's narrated result.
    const stopped = await send("/stop", null, "stop");
    if (stopped) {
      renderGame(stopped.state);
      showStop(stopped.narration);
    }
  });

  $("audience").addEventListener("change", () => {
    audience = $("audience").value;
    fragment.set("audience", audience);
    saveFragment();
    subscribe();
    fair.render();
  });

  $("detail").addEventListener("change", () => {
    detail = $("detail").value;
    fragment.set("detail", detail);
    saveFragment();
    subscribe();
  });

  function setBig(on) {
    document.documentElement.classList.toggle("big", on);
    $("big").setAttribute("aria-pressed", on ? "true" : "false");
    if (on) fragment.set("big", "1");
    else fragment.delete("big");
    saveFragment();
    drawBoard();
  }
  $("big").addEventListener("click", () => setBig(!document.documentElement.classList.contains("big")));

  // ---- fairness (fairness.js) ---------------------------------------------
  const fair = window.ZohnFairness(() => api + "/fairness", $, () => audience);

  // ---- start ---------------------------------------------------------------
  setBig(fragment.get("big") === "1");
  // The game view first when the audience or detail is not yet known (the
  // feed is asked for in them); a server not reached yet is tried again.
  async function start() {
    try {
      if (!audience || !detail) {
        const res = await fetch(api);
        if (!res.ok) {
          $("status").textContent = await refusalText(res);
          $("throw").disabled = true;
          return;
        }
        renderGame(await res.json());
      }
    } catch (_) {
      $("status").textContent = "The game cannot be reached yet: the page keeps trying.";
      setTimeout(start, 3000);
      return;
    }
    subscribe();
    fair.load();
  }
  cite.load().then(start);
})();
