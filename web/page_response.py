"""A page from its template: the one place a response is rendered (the app factory and every
route module use it; it imports neither)."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from web.security import Access


def page(request: Request, template: str, context: dict[str, object], status: int = 200
         ) -> HTMLResponse:
    templates: Jinja2Templates = request.app.state.templates
    access: Access = request.app.state.access
    return templates.TemplateResponse(request, template, {
        "lan": access.token is not None, "join_url": None, **context},
        status_code=status)
