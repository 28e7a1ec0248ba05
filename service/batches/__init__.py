"""Big batches (puzzle books, tournaments) run in chunks on any `concurrent.futures` executor:
this process, a local process pool or a Dask cluster, resumably, with the same files on any."""

from service.batches.engines import Engine, open_engine
from service.batches.folder import Folder
from service.batches.runner import Job, Ran, Reducer, RunCancelled, run

__all__ = ["Engine", "Folder", "Job", "Ran", "Reducer", "RunCancelled", "open_engine", "run"]
