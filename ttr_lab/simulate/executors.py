"""Where the games run: in process, on a process pool, or on a Dask cluster.

:func:`open_executor` turns what the caller passed into something with
``submit``: ``None`` (in process), any :class:`concurrent.futures.Executor`
(a ``ProcessPoolExecutor``, or ``distributed.Client(...).get_executor()``), a
``distributed.Client``, or a scheduler address (``"tcp://host:8786"``).
:func:`run_tasks` submits the batches and yields each result as it arrives,
taking the batches from an iterator as it goes (at most :data:`IN_FLIGHT`
submitted and not yet done, so a long run is never held in memory); a batch
whose worker died is submitted again (a Dask scheduler also does so itself),
and when a process pool is broken the batches left run in this process, so
no finished game is lost and the results are those of a clean run.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import socket
import warnings
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..errors import TtrError
from ..io.extras import missing_extra

__all__ = ["open_executor", "run_tasks", "WORKER_LOST", "IN_FLIGHT"]

T = TypeVar("T")
R = TypeVar("R")

#: how often one batch is submitted again after its worker died
RETRIES = 3
#: the most batches submitted to an executor and not yet done (enough to keep
#: a few hundred workers busy; the rest of a run waits in its iterator)
IN_FLIGHT = 256


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


def run_tasks(
    executor: Any, fn: Callable[[T], R], tasks: Iterable[T], *, in_flight: int = IN_FLIGHT
) -> Iterator[tuple[int, R]]:
    """Run ``fn`` on every task; yield ``(task index, result)`` as results arrive.

    In process when ``executor`` is None.  The tasks are taken from
    ``tasks`` as they are submitted, at most ``in_flight`` at a time.  A task
    whose worker was lost is submitted again (at most :data:`RETRIES` times);
    when the executor itself is broken (a process pool whose worker was
    killed), the tasks left run here.  Any other error from ``fn`` propagates.
    """
    numbered = enumerate(tasks)
    if executor is None:
        for i, task in numbered:
            yield i, fn(task)
        return
    tries: dict[int, int] = {}
    pending: dict[Any, tuple[int, T]] = {}
    local: list[tuple[int, T]] = []
    broken = False

    def submit(i: int, task: T) -> None:
        nonlocal broken
        if not broken:
            try:
                pending[executor.submit(fn, task)] = (i, task)
                return
            except (RuntimeError, BrokenProcessPool):  # a broken or shut-down executor refuses new work
                broken = True
        local.append((i, task))

    def fill() -> None:
        while not broken and len(pending) < in_flight:
            nxt = next(numbered, None)
            if nxt is None:
                return
            submit(*nxt)

    try:
        fill()
        while pending:
            done, _ = cf.wait(list(pending), return_when=cf.FIRST_COMPLETED)
            for fut in done:
                i, task = pending.pop(fut)
                try:
                    result = fut.result()
                except WORKER_LOST as e:
                    tries[i] = tries.get(i, 0) + 1
                    if tries[i] > RETRIES:
                        raise TtrError(f"batch {i} lost its worker {tries[i]} times ({type(e).__name__})") from None
                    if isinstance(e, BrokenProcessPool):
                        broken = True
                        local.append((i, task))
                    else:
                        submit(i, task)
                    continue
                yield i, result
            fill()
    finally:
        for fut in pending:
            fut.cancel()
    if broken:
        warnings.warn(
            f"the executor broke (a worker died): {len(local)} batch(es) and any not yet submitted run again "
            "in this process",
            RuntimeWarning,
            stacklevel=3,
        )
        for i, task in sorted(local, key=lambda t: t[0]):
            yield i, fn(task)
        for i, task in numbered:  # the rest of the run, here, one at a time
            yield i, fn(task)
