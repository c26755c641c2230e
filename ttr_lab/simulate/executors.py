"""Where the games run: in process, on a process pool, or on a Dask cluster.

:func:`open_executor` turns what the caller passed into something with
``submit``: ``None`` (in process), any :class:`concurrent.futures.Executor`
(a ``ProcessPoolExecutor``, or ``distributed.Client(...).get_executor()``), a
``distributed.Client``, or a scheduler address (``"tcp://host:8786"``).
:func:`run_tasks` submits the batches and yields each result as it arrives;
a batch whose worker died is submitted again (a Dask scheduler also does so
itself), and when a process pool is broken the batches left run in this
process, so no finished game is lost and the results are those of a clean run.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import socket
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..errors import TtrError
from ..extras import missing_extra

__all__ = ["open_executor", "run_tasks", "WORKER_LOST"]

T = TypeVar("T")
R = TypeVar("R")

#: how often one batch is submitted again after its worker died
RETRIES = 3


def _lost_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [BrokenProcessPool, cf.CancelledError, EOFError, ConnectionError]
    with contextlib.suppress(ImportError):
        from distributed import KilledWorker

        errors.append(KilledWorker)
    with contextlib.suppress(ImportError):
        from distributed.comm.core import CommClosedError

        errors.append(CommClosedError)
    return tuple(errors)


#: the errors that mean "the worker went away", not "the game failed"
WORKER_LOST: tuple[type[BaseException], ...] = _lost_errors()


def _probe(address: str, timeout: float) -> None:
    """Fail fast (before importing distributed) when nothing listens at a tcp:// address."""
    scheme, _, rest = address.partition("://")
    if scheme != "tcp":
        return
    host, _, port = rest.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit():
        raise TtrError(f"a scheduler address names a port: 'tcp://host:8786', not {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as e:
        raise TtrError(f"no Dask scheduler answers at {address} ({e.strerror or type(e).__name__})") from None


@contextlib.contextmanager
def open_executor(executor: Any, *, timeout: float = 5) -> Iterator[Any]:
    """An object with ``submit`` for ``executor`` (``None``: in process), closed afterwards if opened here.

    Raises :class:`~ttr_lab.errors.TtrError` for an address no scheduler
    answers within ``timeout`` seconds, or for an object that cannot run tasks.
    """
    if executor is None or isinstance(executor, cf.Executor):
        yield executor
        return
    if isinstance(executor, str):
        if "://" not in executor:
            raise TtrError(f"a scheduler address looks like 'tcp://host:8786', not {executor!r}")
        _probe(executor, timeout)
        try:
            from distributed import Client
        except ImportError:  # pragma: no cover - the [sim] extra is missing
            raise missing_extra("sim", "a scheduler address", "distributed") from None
        try:
            client = Client(executor, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as e:
            raise TtrError(f"no Dask scheduler answers at {executor} ({type(e).__name__}: {e})") from None
        try:
            yield client.get_executor()
        finally:
            client.close()
        return
    get = getattr(executor, "get_executor", None)
    if callable(get):  # a distributed.Client
        yield get()
        return
    raise TtrError(
        f"executor must be None, a concurrent.futures.Executor, a distributed.Client or a scheduler address, "
        f"not {type(executor).__name__}"
    )


def run_tasks(executor: Any, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[tuple[int, R]]:
    """Run ``fn`` on every task; yield ``(task index, result)`` as results arrive.

    In process when ``executor`` is None.  A task whose worker was lost is
    submitted again (at most :data:`RETRIES` times); when the executor itself
    is broken (a process pool whose worker was killed), the tasks left run
    here.  Any other error from ``fn`` propagates.
    """
    if executor is None:
        for i, task in enumerate(tasks):
            yield i, fn(task)
        return
    tries = [0] * len(tasks)
    pending: dict[Any, int] = {}
    local: list[int] = []

    def submit(i: int) -> None:
        try:
            pending[executor.submit(fn, tasks[i])] = i
        except (RuntimeError, BrokenProcessPool):  # a broken or shut-down executor refuses new work
            local.append(i)

    for i in range(len(tasks)):
        submit(i)
    try:
        while pending:
            done, _ = cf.wait(list(pending), return_when=cf.FIRST_COMPLETED)
            for fut in done:
                i = pending.pop(fut)
                try:
                    result = fut.result()
                except WORKER_LOST as e:
                    tries[i] += 1
                    if tries[i] > RETRIES:
                        raise TtrError(f"batch {i} lost its worker {tries[i]} times ({type(e).__name__})") from None
                    if isinstance(e, BrokenProcessPool):
                        local.append(i)
                    else:
                        submit(i)
                    continue
                yield i, result
    finally:
        for fut in pending:
            fut.cancel()
    if local:
        warnings.warn(
            f"the executor broke (a worker died): {len(local)} batch(es) run again in this process",
            RuntimeWarning,
            stacklevel=3,
        )
        for i in sorted(local):
            yield i, fn(tasks[i])
