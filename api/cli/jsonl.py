"""`mcr score --jsonl`: answer a stream of JSON requests, one per line, in order, in one process or several.

With several (``--workers N``) the lines are answered in batches by a pool of processes, the answers written in
the order of the lines. A batch is every line already read when the last one was handed out (up to `BATCH`), so a
client that writes one request and waits for its answer gets it at once, as from one process, while a file or a
busy pipe is answered in large batches: the cost of handing lines to another process is paid per batch.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import queue
import signal
import threading
from collections import deque
from collections.abc import Iterable
from typing import TextIO

from scoring.json_text import dumps
from scoring.request import answer_line

STREAM_COLLECT_EVERY = 20_000
"""Objects made and not yet freed between two runs of the cycle collector while a stream is answered (Python's
default: 700). A request makes and frees hundreds of objects, almost none in a cycle, so the default ran the
collector every few requests for nothing (docs/speed.md: about 6 % of a stream's CPU time)."""

BATCH = 256  # lines handed to a worker at once, at most: the pickling and the pipe cost per batch, not per line
IN_FLIGHT = 2  # batches per worker handed out and not yet written: one being answered, one waiting for it
WAIT = 0.002  # seconds between looks for newly read lines while the oldest batch is answered


def stream(lines: TextIO, out: TextIO, workers: int = 1) -> int:
    """Answer each JSON line of ``lines`` on ``out``, in order; blank lines are skipped. ``workers``: processes
    that answer (1: this one)."""
    thresholds = _collect_rarely()
    try:
        if workers == 1:
            for number, line in enumerate(lines, 1):
                answer = answer_line_text(number, line)
                if answer is not None:
                    out.write(answer + "\n")
                    out.flush()
        else:
            _stream_in_pool(lines, out, workers)
    finally:
        gc.set_threshold(*thresholds)
    return 0


def answer_line_text(number: int, line: str) -> str | None:
    """The answer to line ``number`` of a stream, None for a blank line."""
    if not line.strip():
        return None
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return dumps({"ok": False, "error": f"line {number}: not JSON ({exc.msg})"})
    return answer_line(request)


def _collect_rarely() -> tuple[int, ...]:
    """Set the cycle collector's first threshold to `STREAM_COLLECT_EVERY`, the objects made so far left out of its
    passes; the thresholds before, to set back."""
    gc.freeze()
    thresholds = gc.get_threshold()
    gc.set_threshold(STREAM_COLLECT_EVERY, *thresholds[1:])
    return thresholds


def _worker_start() -> None:
    """A worker leaves Ctrl-C to the process that reads the stream (which stops the pool and says so once) and
    collects cycles rarely (`_collect_rarely`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _collect_rarely()


def _answers(first: int, lines: list[str]) -> str:
    """A worker's answers to a batch of lines, the first of them line ``first``, as they are written."""
    answers = (answer_line_text(number, line) for number, line in enumerate(lines, first))
    return "".join(answer + "\n" for answer in answers if answer is not None)


_END = None  # what the reading thread puts after the last line


def _stream_in_pool(lines: TextIO, out: TextIO, workers: int) -> None:
    """`stream` with ``workers`` processes: a thread reads the lines into a bounded queue; this one hands out
    batches of the lines read so far and writes each batch's answers in order, as soon as the batches before it
    are written."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with context.Pool(workers, _worker_start) as pool:  # made before the reading thread starts: no thread forked
        read: queue.Queue[str | None] = queue.Queue(maxsize=BATCH * IN_FLIGHT * workers)
        failed: list[Exception] = []  # what stopped the reading, raised once the lines before it are answered
        threading.Thread(target=_read_into, args=(lines, read, failed), daemon=True).start()
        pending: deque[multiprocessing.pool.AsyncResult[str]] = deque()
        number, ended = 1, False
        while not ended or pending:
            while not ended and len(pending) < IN_FLIGHT * workers:
                batch, ended = _batch(read, block=not pending)
                if not batch:
                    break
                pending.append(pool.apply_async(_answers, (number, batch)))
                number += len(batch)
            if pending:
                oldest = pending[0]
                oldest.wait(None if ended or len(pending) == IN_FLIGHT * workers else WAIT)
                if oldest.ready():
                    pending.popleft()
                    out.write(oldest.get())
                    out.flush()
        if failed:
            raise failed[0]


def _read_into(lines: Iterable[str], read: queue.Queue[str | None], failed: list[Exception]) -> None:
    """Put each line in ``read``, then `_END`; an error reading (a line that is not text in the stream's encoding,
    a read that fails) ends the lines too, and is kept in ``failed``."""
    try:
        for line in lines:
            read.put(line)
    except Exception as exc:  # raised by the writing thread, once the lines before it are answered
        failed.append(exc)
    read.put(_END)


def _batch(read: queue.Queue[str | None], block: bool) -> tuple[list[str], bool]:
    """The lines read so far, up to `BATCH` (waiting for the first where ``block``), and whether the stream ended."""
    batch: list[str] = []
    try:
        line = read.get(block)
        while line is not _END:
            batch.append(line)
            if len(batch) == BATCH:
                return batch, False
            line = read.get_nowait()
        return batch, True
    except queue.Empty:
        return batch, False
