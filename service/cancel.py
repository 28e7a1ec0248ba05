"""Cancel tokens, one per request (a CLI command, a web request), and the one clock their
time limits are (`planner.clock`): see `planner.stopping`."""

from planner.clock import Clock, now
from planner.stopping import CancelToken, cancel_scope, current_token

__all__ = ["CancelToken", "Clock", "cancel_scope", "current_token", "now"]
