"""Cancel tokens, one per request (a CLI command, a web request): see `planner.stopping`."""

from planner.stopping import CancelToken, cancel_scope, current_token

__all__ = ["CancelToken", "cancel_scope", "current_token"]
