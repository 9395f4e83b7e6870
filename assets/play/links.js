// On the teacher's page of a seated game (#seat=host.…): the sides' links
// again, with their QR codes, when this browser started the game (the start
// page keeps them in localStorage, "zohn-ahl.games"). Never on a side's
// page: a pupil sees only her own link.
"use strict";
(function () {
  const seat = new URLSearchParams(location.hash.slice(1)).get("seat") || "";
  if (!seat.startsWith("host.")) return;
  const id = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  let game = null;
  try {
    const kept = JSON.parse(localStorage.getItem("zohn-ahl.games") || "[]");
    game = Array.isArray(kept) ? kept.find((g) => g && g.id === id) : null;
  } catch (_) {
    return;
  }
  if (!game || !game.links) return;
  const list = document.getElementById("seat-links-list");
  for (const key of ["a", "b", "watch"]) {
    const name = key === "watch" ? "The projector" : game.names[key.toUpperCase()];
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = game.links[key];
    const who = document.createElement("bdi");
    who.textContent = name;
    a.append(who);
    li.append(a);
    if (key !== "watch") {
      const box = document.createElement("div");
      box.className = "qr";
      li.append(box);
      fetch("/play/qr", { method: "POST", headers: { "content-type": "text/plain" }, body: game.links[key] })
        .then((res) => (res.ok ? res.text() : null))
        .then((text) => {
          if (!text) return;
          const svg = document.importNode(new DOMParser().parseFromString(text, "image/svg+xml").documentElement, true);
          svg.setAttribute("aria-label", "QR code of the link for " + name);
          box.replaceChildren(svg);
        })
        .catch(() => {});
    }
    list.append(li);
  }
  document.getElementById("seat-links").hidden = false;
})();
