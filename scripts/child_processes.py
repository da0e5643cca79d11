"""What the GPU scripts that run programs in child processes share
(gpu-difftest.py, gpu-sanitize.py): a child's output lines, each with a
deadline, and a batch of items rerun in new children after one dies.

A CUDA fault loses the process's context, so these scripts run their
programs in children and start a new child for the items after the one
that broke the last."""

import queue
import threading


def lines_with_deadline(proc, timeout):
    """Yields PROC's stdout lines without their newlines. When no line comes
    for TIMEOUT seconds, kills PROC and raises TimeoutError."""
    lines = queue.Queue()

    def read():
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)
    threading.Thread(target=read, daemon=True).start()
    while True:
        try:
            line = lines.get(timeout=timeout)
        except queue.Empty:
            proc.kill()
            proc.wait()
            raise TimeoutError
        if line is None:
            return
        yield line


def run_in_children(items, run_child, reached_none):
    """Runs RUN_CHILD(items), a generator of (item, result) for the items a
    child reached, again on the items after the last reached one until every
    item has a result. When a child reaches none of its items,
    REACHED_NONE(item) is each one's result. Returns (results, children)."""
    results, children = [], 0
    while items:
        children += 1
        done = set()
        for item, result in run_child(items):
            results.append(result)
            done.add(item)
        rest = [item for item in items if item not in done]
        if len(rest) == len(items):
            results += [reached_none(item) for item in rest]
            rest = []
        items = rest
    return results, children
