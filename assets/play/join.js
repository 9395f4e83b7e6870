// The pupils' page, /join: a side's join code (from the teacher's page)
// opens that side's game page, the same link the teacher's page shows.
// The code goes to POST /v1/join in a body, never in an address; the
// seat's token comes back and goes into the link's fragment only.
"use strict";
(function () {
  const form = document.getElementById("join");
  const input = document.getElementById("code");
  const button = document.getElementById("join-button");
  const error = document.getElementById("join-error");

  function refused(status, retry) {
    if (status === 404) return "That code does not match an open game. Check it with your teacher.";
    if (status === 400) return "A code has six letters and numbers. Check it with your teacher.";
    if (status === 429) return "Too many tries from here. Wait " + (retry || "a few") + " seconds, then try again.";
    return "Something went wrong. Try again in a moment.";
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const code = input.value.trim();
    if (!code) {
      error.textContent = "Type your side's code first.";
      input.focus();
      return;
    }
    button.disabled = true;
    try {
      const res = await fetch("/v1/join", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code }),
      });
      if (!res.ok) {
        error.textContent = refused(res.status, res.headers.get("retry-after"));
        input.focus();
        return;
      }
      const seat = await res.json();
      location.assign(location.origin + seat.play);
    } catch (_) {
      error.textContent = "The server could not be reached. Check the connection, then try again.";
    } finally {
      button.disabled = false;
    }
  });
})();
