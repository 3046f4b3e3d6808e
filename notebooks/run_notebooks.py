#!/usr/bin/env python3
"""Executes the analyst notebooks top to bottom against the stack the FLEET_* variables point at.

    python run_notebooks.py --output DIR [--timeout SECONDS] [NOTEBOOK ...]

Runs every ``NN-*.ipynb`` beside this script (or the notebooks given), each in a fresh kernel of the Python running
this script (the notebooks' venv), with the notebooks folder as working directory. Writes each executed copy, outputs
included, to ``DIR``; a failed notebook's copy holds the outputs up to the failing cell. Exits 0 when every notebook
ran, 1 when one failed (naming the notebook, the cell and its error), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

NOTEBOOKS_DIRECTORY = Path(__file__).resolve().parent
NOTEBOOK_PATTERN = "[0-9][0-9]-*.ipynb"
DEFAULT_CELL_TIMEOUT_SECONDS = 300
KERNEL_NAME = "fleetlab-python3"
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def main(arguments: list[str] | None = None) -> int:
    options = parse_arguments(arguments)
    notebooks = [locate(name) for name in options.notebooks] or sorted(NOTEBOOKS_DIRECTORY.glob(NOTEBOOK_PATTERN))
    missing = [str(notebook) for notebook in notebooks if not notebook.is_file()]
    if missing:
        print(f"run_notebooks: no such notebook: {', '.join(missing)}", file=sys.stderr)
        return 2
    if not notebooks:
        print(f"run_notebooks: no notebook matches {NOTEBOOK_PATTERN} in {NOTEBOOKS_DIRECTORY}", file=sys.stderr)
        return 2
    output = Path(options.output).resolve()
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"run_notebooks: cannot create the output folder {output}: {error}", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="fleetlab-kernels-") as scratch:
        kernel_specs = venv_kernel_specs(Path(scratch) / "kernels")
        failures = [execute(notebook, output, options.timeout, kernel_specs, Path(scratch)) for notebook in notebooks]

    failed = sum(failure is not None for failure in failures)
    print(f"{len(failures) - failed} passed, {failed} failed")
    return 1 if failed else 0


def parse_arguments(arguments: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Execute the fleet notebooks against a running stack (FLEET_* variables) with nbclient."
    )
    parser.add_argument("--output", required=True, help="folder for the executed copies (created if missing)")
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        default=DEFAULT_CELL_TIMEOUT_SECONDS,
        help=f"seconds one cell may run (default {DEFAULT_CELL_TIMEOUT_SECONDS})",
    )
    parser.add_argument(
        "notebooks",
        nargs="*",
        help=f"notebooks to run, as paths or file names of this folder (default: every {NOTEBOOK_PATTERN} here)",
    )
    return parser.parse_args(arguments)


def locate(name: str) -> Path:
    """A notebook named as a path, or by its file name in this folder (run_notebooks.py 02-fleet-analytics.ipynb)."""
    path = Path(name)
    if not path.exists() and (NOTEBOOKS_DIRECTORY / name).exists():
        path = NOTEBOOKS_DIRECTORY / name
    return path.resolve()


def positive_seconds(value: str) -> int:
    try:
        seconds = int(value)
    except ValueError:
        seconds = 0
    if seconds < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds of at least 1")
    return seconds


def venv_kernel_specs(directory: Path) -> KernelSpecManager:
    """A kernel spec that runs ipykernel with this very interpreter. Jupyter's own lookup of "python3" prefers a user
    or system kernel spec when one exists, which may point at a Python without the notebooks' requirements."""
    spec_directory = directory / KERNEL_NAME
    spec_directory.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": f"Python 3 ({sys.executable})",
        "language": "python",
    }
    (spec_directory / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
    return KernelSpecManager(kernel_dirs=[str(directory)])


def execute(notebook: Path, output: Path, timeout: int, kernel_specs: KernelSpecManager, scratch: Path) -> str | None:
    """Runs one notebook in a fresh kernel, writes its executed copy and prints the outcome. Returns the failure, or
    None when every cell ran."""
    executed_copy = output / notebook.name
    document = nbformat.read(notebook, as_version=4)
    # The asynchronous manager, as nbclient creates by default: with the blocking one, nbclient never times a cell out.
    kernel = AsyncKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=kernel_specs)
    if os.name == "posix":
        # Unix sockets in the scratch folder, removed at the end: the kernel then listens on no TCP port.
        kernel.transport = "ipc"
        kernel.ip = str(scratch / f"kernel-{notebook.stem}")
    client = NotebookClient(
        document,
        km=kernel,
        timeout=timeout,
        resources={"metadata": {"path": str(notebook.parent)}},
    )
    started = time.monotonic()
    failure = None
    try:
        client.execute()
    except CellTimeoutError as error:
        failure = describe_failure(document, f"timed out after {timeout} s", error)
    except DeadKernelError as error:
        failure = f"the kernel died: {error}"
    except CellExecutionError as error:
        failure = describe_failure(document, None, error)
    seconds = time.monotonic() - started
    nbformat.write(document, executed_copy)
    if failure is None:
        print(f"OK     {notebook.name} ({seconds:.1f} s) -> {executed_copy}")
    else:
        print(f"FAILED {notebook.name} ({seconds:.1f} s): {failure}")
        print(f"       executed copy, outputs up to the failure: {executed_copy}")
    return failure


def describe_failure(document: nbformat.NotebookNode, reason: str | None, error: Exception) -> str:
    """Names the failing cell (its number among all cells, counting from 1, its id and first line) and what it raised,
    or the reason (a timeout) when it raised nothing."""
    for number, cell in enumerate(document.cells, start=1):
        if cell.cell_type != "code":
            continue
        errors = [output for output in cell.get("outputs", []) if output.get("output_type") == "error"]
        timing = cell.get("metadata", {}).get("execution", {})
        unfinished = "iopub.execute_input" in timing and "shell.execute_reply" not in timing
        if errors or unfinished:
            first_line = next((line for line in cell.source.splitlines() if line.strip()), "")
            where = f"cell {number} (id {cell.get('id', '?')}, `{first_line.strip()}`)"
            if errors:
                return f"{where} raised {errors[0]['ename']}: {strip_ansi(errors[0]['evalue'])}"
            return f"{where} {reason or 'did not finish'}"
    lines = strip_ansi(str(error)).strip().splitlines()
    return reason or (lines[-1] if lines else type(error).__name__)


def strip_ansi(text: str) -> str:
    return ANSI_ESCAPE.sub("", text)


if __name__ == "__main__":
    sys.exit(main())
