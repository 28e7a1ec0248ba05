"""`castell serve`: the table companion in the browser, for both games.

A FastAPI app over the application layer (`service`): every step goes through a game handle
(`service.castell.Game`, `service.combo.ComboGame`) under its file's lock, with the revision
the page showed; pages are Jinja2 templates driven by the vendored htmx and its SSE extension.
"""
