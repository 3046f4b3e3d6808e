"""Tests of run_notebooks.py with small notebooks of their own (a real kernel, no stack), and of the committed
notebooks' form: stored without outputs, every cell with a stable id."""

import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

NOTEBOOKS = Path(__file__).resolve().parent.parent
RUNNER = NOTEBOOKS / "run_notebooks.py"


def write_notebook(directory: Path, name: str, *sources: str) -> Path:
    document = new_notebook(cells=[new_markdown_cell("# test")] + [new_code_cell(source) for source in sources])
    path = directory / name
    nbformat.write(document, path)
    return path


def run(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(RUNNER), *arguments], capture_output=True, text=True, timeout=300, check=False
    )


class RunNotebooksTest(unittest.TestCase):
    def setUp(self):
        self.directory = Path(tempfile.mkdtemp(prefix="run-notebooks-test-"))
        self.output = self.directory / "executed"

    def test_a_passing_notebook_is_written_with_its_outputs(self):
        notebook = write_notebook(self.directory, "10-passing.ipynb", "import sys\nprint(sys.prefix)", "6 * 7")

        result = run("--output", str(self.output), str(notebook))

        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("OK     10-passing.ipynb", result.stdout)
        self.assertIn("1 passed, 0 failed", result.stdout)
        executed = nbformat.read(self.output / "10-passing.ipynb", as_version=4)
        # The kernel is the runner's own interpreter, so the notebooks see the venv's packages.
        self.assertEqual(executed.cells[1].outputs[0].text.strip(), sys.prefix)
        self.assertEqual(executed.cells[2].outputs[0].data["text/plain"], "42")

    def test_a_failing_cell_is_named_with_its_error_and_the_others_still_run(self):
        failing = write_notebook(
            self.directory, "20-failing.ipynb", "x = 1", "{'speed': 1}['speed_kmh']", "print('never')"
        )
        passing = write_notebook(self.directory, "30-passing.ipynb", "print('ran')")

        result = run("--output", str(self.output), str(failing), str(passing))

        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("FAILED 20-failing.ipynb", result.stdout)
        self.assertIn("cell 3 (id ", result.stdout)
        self.assertIn("`{'speed': 1}['speed_kmh']`) raised KeyError: 'speed_kmh'", result.stdout)
        self.assertIn("OK     30-passing.ipynb", result.stdout)
        self.assertIn("1 passed, 1 failed", result.stdout)
        executed = nbformat.read(self.output / "20-failing.ipynb", as_version=4)
        self.assertEqual(executed.cells[3].outputs, [], "cells after the failing one are not run")

    def test_a_cell_running_too_long_is_named(self):
        slow = write_notebook(self.directory, "40-slow.ipynb", "import time\ntime.sleep(30)")

        result = run("--output", str(self.output), "--timeout", "2", str(slow))

        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("FAILED 40-slow.ipynb", result.stdout)
        self.assertIn("cell 2 (id ", result.stdout)
        self.assertIn("timed out after 2 s", result.stdout)

    def test_a_missing_notebook_is_a_usage_error(self):
        result = run("--output", str(self.output), str(self.directory / "99-absent.ipynb"))

        self.assertEqual(result.returncode, 2)
        self.assertIn("no such notebook", result.stderr)

    def test_the_output_folder_is_required(self):
        result = run()

        self.assertEqual(result.returncode, 2)
        self.assertIn("--output", result.stderr)


class CommittedNotebooksTest(unittest.TestCase):
    def test_there_are_the_four_notebooks(self):
        self.assertEqual(
            [path.name for path in sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))],
            [
                "01-time-travel-audit.ipynb",
                "02-fleet-analytics.ipynb",
                "03-battery-level-evolution.ipynb",
                "04-trips-by-province.ipynb",
            ],
        )

    def test_notebooks_are_stored_without_outputs(self):
        for path in sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb")):
            document = nbformat.read(path, as_version=4)
            nbformat.validate(document)
            with self.subTest(notebook=path.name):
                self.assertEqual(document.metadata.kernelspec.name, "python3")
                for cell in document.cells:
                    if cell.cell_type == "code":
                        self.assertEqual(cell.outputs, [], f"cell {cell.id} has outputs: strip them")
                        self.assertIsNone(cell.execution_count, f"cell {cell.id} has an execution count")
                        self.assertNotIn("execution", cell.metadata, f"cell {cell.id} has execution timings")

    def test_every_notebook_connects_through_fleetlab_first(self):
        for path in sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb")):
            document = nbformat.read(path, as_version=4)
            first_code = next(cell for cell in document.cells if cell.cell_type == "code")
            with self.subTest(notebook=path.name):
                self.assertIn("lab = fleetlab.connect()", first_code.source)


if __name__ == "__main__":
    unittest.main()
