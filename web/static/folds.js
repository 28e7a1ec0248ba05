/* The page's folding sections (<details id=...>) stay as the player left them: a live update
   or a step redraws the game from the server, which knows nothing of what this screen opened,
   so each fold's state is kept for this tab and game (sessionStorage) and put back after every
   redraw. A fold never toggled keeps the state the server drew it in.
   Each request of the page says which folds are open here (the X-Folds header): the server
   draws a closed fold as its title alone (data-unfilled), and when one is opened the game is
   fetched again, that fold drawn whole. */
(function () {
  "use strict";
  var key = "folds:" + location.pathname;

  function kept() {
    try { return JSON.parse(sessionStorage.getItem(key) || "{}"); } catch (e) { return {}; }
  }

  function restore() {
    var folds = kept();
    Object.keys(folds).forEach(function (id) {
      var fold = document.getElementById(id);
      if (fold && fold.tagName === "DETAILS" && fold.open !== folds[id]) { fold.open = folds[id]; }
    });
  }

  document.addEventListener("toggle", function (event) {
    var fold = event.target;
    if (!fold.id || fold.tagName !== "DETAILS") { return; }
    var folds = kept();
    folds[fold.id] = fold.open;
    try { sessionStorage.setItem(key, JSON.stringify(folds)); } catch (e) { /* private mode */ }
    // an unfilled fold opened (by a tap, or put back open after a redraw): the game again,
    // this fold now among the open ones the request names
    if (fold.open && fold.hasAttribute("data-unfilled")) {
      fold.removeAttribute("data-unfilled");
      var refresh = document.getElementById("live-refresh");
      if (refresh) { htmx.trigger(refresh, "resync"); }
    }
  }, true);
  document.addEventListener("htmx:configRequest", function (event) {
    var open = [];
    document.querySelectorAll("details.fold[open]").forEach(function (fold) {
      if (fold.id) { open.push(fold.id); }
    });
    event.detail.headers["X-Folds"] = open.join(" ");
  });
  document.addEventListener("htmx:afterSwap", restore);
  document.addEventListener("DOMContentLoaded", restore);
})();
