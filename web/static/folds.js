/* The page's folding sections (<details id=...>) stay as the player left them: a live update
   or a step redraws the game from the server, which knows nothing of what this screen opened,
   so each fold's state is kept for this tab and game (sessionStorage) and put back after every
   redraw. A fold never toggled keeps the state the server drew it in. */
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
  }, true);
  document.addEventListener("htmx:afterSwap", restore);
  document.addEventListener("DOMContentLoaded", restore);
})();
