"""Use-case results, one module per command family (see `base`)."""

from typing import Final

# The version of every JSON object a command prints (`castell schema COMMAND` describes each):
# raised when a field is renamed, removed or changes meaning; new fields keep it.
SCHEMA_VERSION: Final = 1
