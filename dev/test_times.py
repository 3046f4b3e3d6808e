#!/usr/bin/env python3
"""Where the suite's time goes: a per-module and per-class time table of the last test run.

Reads the Surefire and Failsafe XML reports (target/surefire-reports, target/failsafe-reports) of every module and,
when given, the Maven log of the run for each module's wall time (the reactor summary). Prints the modules by wall
time and the slowest test classes; `./fleet test` prints it at the end of every run.

    python3 dev/test_times.py [--log MAVEN_LOG] [--classes N] [--root DIR]
"""

import argparse
import pathlib
import re
import sys
import xml.etree.ElementTree as ElementTree

REACTOR_LINE = re.compile(
    r"^\[INFO\] (?P<name>\S.*?) \.*\s*(?P<result>SUCCESS|FAILURE|SKIPPED)\s*(?:\[\s*(?P<time>[^\]]+)\])?\s*$")


def seconds_of(maven_time):
    """Maven's reactor durations: '25.3 s', '01:05 min', '1:02:03 h'."""
    value, _, unit = maven_time.strip().partition(" ")
    parts = [float(part) for part in value.split(":")]
    if unit == "s":
        return parts[0]
    if unit == "min":
        return parts[0] * 60 + parts[1]
    if unit == "h":
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    raise ValueError("unknown Maven duration: " + maven_time)


def module_wall_times(log):
    """(module name, result, seconds) from the reactor summary of a Maven log, in build order."""
    rows = []
    in_summary = False
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        if "Reactor Summary" in line:
            in_summary, rows = True, []
            continue
        if in_summary:
            match = REACTOR_LINE.match(line)
            if match:
                time = match.group("time")
                rows.append((match.group("name"), match.group("result"), seconds_of(time) if time else 0.0))
            elif line.startswith("[INFO] BUILD") or line.startswith("[INFO] ---"):
                if rows:
                    in_summary = False
    return rows


def build_total(log):
    """Maven's 'Total time' of the run: the wall time, shorter than the modules' sum when modules overlap (-T)."""
    total = None
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        match = re.match(r"^\[INFO\] Total time:\s+(.+?)(?: \(Wall Clock\))?\s*$", line)
        if match:
            total = seconds_of(match.group(1))
    return total


def test_classes(root):
    """(module folder, kind, class, seconds, tests, failures, skipped) of every report under root."""
    rows = []
    for kind in ("surefire", "failsafe"):
        for report in root.glob("**/target/" + kind + "-reports/TEST-*.xml"):
            module = report.parent.parent.parent.relative_to(root).as_posix()
            try:
                suite = ElementTree.parse(report).getroot()
            except ElementTree.ParseError as error:
                print(f"test_times: cannot read {report}: {error}", file=sys.stderr)
                continue
            failures = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
            rows.append((module, "IT" if kind == "failsafe" else "unit", suite.get("name", report.stem),
                         float(suite.get("time", 0) or 0), int(suite.get("tests", 0)), failures,
                         int(suite.get("skipped", 0))))
    return rows


def module_folders(root):
    """Each module's display name (its pom's <name>, as the reactor summary prints it) to its folder."""
    folders = {}
    for pom in root.glob("**/pom.xml"):
        if "target" in pom.parts or pom.parent == root:
            continue
        text = pom.read_text(encoding="utf-8")
        match = re.search(r"<name>([^<]+)</name>", text[text.find("</parent>"):])
        if match:
            folders[match.group(1).strip()] = pom.parent.relative_to(root).as_posix()
    return folders


def minutes(seconds):
    return f"{int(seconds // 60)}:{seconds % 60:04.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", type=pathlib.Path, help="the Maven log of the run (for module wall times)")
    parser.add_argument("--classes", type=int, default=15, help="how many of the slowest classes to list")
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent)
    arguments = parser.parse_args()

    classes = test_classes(arguments.root)
    by_module = {}
    for module, kind, _, seconds, tests, failures, skipped in classes:
        totals = by_module.setdefault(module, {"unit": 0.0, "IT": 0.0, "tests": 0, "failures": 0, "skipped": 0})
        totals[kind] += seconds
        totals["tests"] += tests
        totals["failures"] += failures
        totals["skipped"] += skipped

    print("Where the time went (module wall time from Maven; test time from the Surefire/Failsafe reports):")
    print(f"{'module':<28} {'wall':>9} {'unit tests':>11} {'ITs':>9} {'tests':>6} {'failed':>6} {'skipped':>7}")
    folders = module_folders(arguments.root)
    walls = module_wall_times(arguments.log) if arguments.log and arguments.log.exists() else []
    listed = set()
    total_wall = 0.0
    for name, result, seconds in walls:
        folder = folders.get(name)
        totals = by_module.get(folder, {"unit": 0.0, "IT": 0.0, "tests": 0, "failures": 0, "skipped": 0})
        listed.add(folder)
        total_wall += seconds
        print(f"{(folder or name)[:28]:<28} {minutes(seconds):>9} {minutes(totals['unit']):>11} {minutes(totals['IT']):>9}"
              f" {totals['tests']:>6} {totals['failures']:>6} {totals['skipped']:>7}{'' if result == 'SUCCESS' else '  ' + result}")
    for module, totals in sorted(by_module.items(), key=lambda item: -(item[1]["unit"] + item[1]["IT"])):
        if module not in listed:
            print(f"{module[:28]:<28} {'':>9} {minutes(totals['unit']):>11} {minutes(totals['IT']):>9}"
                  f" {totals['tests']:>6} {totals['failures']:>6} {totals['skipped']:>7}")
    if walls:
        print(f"{'sum of the modules':<28} {minutes(total_wall):>9}")
        total = build_total(arguments.log)
        if total is not None:
            print(f"{'build (Maven total time)':<28} {minutes(total):>9}")

    print()
    print(f"Slowest {arguments.classes} test classes:")
    for module, kind, name, seconds, tests, failures, _ in sorted(classes, key=lambda row: -row[3])[:arguments.classes]:
        print(f"  {minutes(seconds):>8}  {kind:<4} {name.rsplit('.', 1)[-1]:<48} {module}"
              f"{'  FAILED ' + str(failures) if failures else ''}")


if __name__ == "__main__":
    main()
