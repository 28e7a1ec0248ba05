/* Live updates that survive a dropped connection (docs/web.md, "A real evening").
   The page's event stream says the game's revision when it opens (again after every drop,
   when the browser opens it anew) and at every change; whenever the page shows another
   revision, it fetches its game again. A fetch that fails (offline, a server restarting) is
   tried again, waiting a little longer each time (0.5 s, doubling, at most 4 s), until one
   succeeds; so is one when the stream drops, and at once when the browser is back online. */
(function () {
  "use strict";
  var said = null;   // the revision the stream said last
  var wait = 0;      // before the next try of a failed fetch (ms)
  var timer = null;

  function shown() {
    var game = document.getElementById("game");
    return game ? Number(game.getAttribute("data-revision")) : null;
  }

  function fetchGame() {
    clearTimeout(timer);
    timer = null;
    var refresh = document.getElementById("live-refresh");
    if (refresh) { htmx.trigger(refresh, "resync"); }
  }

  function resync() {
    if (said !== null && said !== shown()) { fetchGame(); }
  }

  function later() {
    wait = Math.min(wait ? wait * 2 : 500, 4000);
    clearTimeout(timer);
    timer = setTimeout(fetchGame, wait);
  }

  function fromRefresh(event) {
    return event.target && event.target.id === "live-refresh";
  }

  document.addEventListener("htmx:sseMessage", function (event) {
    var revision = Number(event.detail && event.detail.data);
    if (!isNaN(revision)) {
      said = revision;
      resync();
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!fromRefresh(event)) { return; }
    if (event.detail.successful) {
      wait = 0;
      said = shown();  // the game as the server has it now: nothing to fetch until it moves
    } else {
      later();
    }
  });
  // the stream dropped: the page may miss a change until it comes back (the browser and the
  // extension open it again, sometimes after a long wait), so it fetches its game meanwhile
  document.addEventListener("htmx:sseError", function () {
    if (timer === null) { later(); }
  });
  window.addEventListener("online", fetchGame);
})();
