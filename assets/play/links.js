// On the teacher's page of a seated game (#seat=host.…): the sides' links
// again, with their QR codes, when this browser started the game (the start
// page keeps them: seatlinks.js). Never on a side's
// page: a pupil sees only her own link.
"use strict";
(function () {
  const seat = new URLSearchParams(location.hash.slice(1)).get("seat") || "";
  if (!seat.startsWith("host.")) return;
  const id = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const game = window.ZohnLinks.kept().find((g) => g.id === id);
  if (!game) return;
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
      window.ZohnLinks.qrInto(box, game.links[key], "QR code of the link for " + name);
    }
    list.append(li);
  }
  document.getElementById("seat-links").hidden = false;
})();
