#!/usr/bin/env python3
"""Runs a release `rollout trace` on seeded mutations of the conformance scenarios and counts
what became of each run (issue #27: bad input never traps, never runs away).

    python3 scripts/mutate_scenarios.py [--seed 27] [--runs 3000] [--rollout target/release/rollout]

Each run takes one scenario of ../shared/conformance/scenarios (all subfolders) and applies 1
to 3 mutations: a number field set to a hostile value (0, -1, limits and one past them, 2^31 - 1,
2^32, 1e300, fractions), a value of the wrong type, a field removed, an action duplicated up to
2,000 times, an action's type or a strategy's maxSurge replaced, nesting 200 levels deep, a
500,000-character string. It prints one line per outcome (exit 0, refused with exit 2, panic
101 or 134, another exit, over the time limit) with the slowest run and the largest memory, and
exits 1 when any run panicked, crashed, ran over the time limit or used more than 1 GB.
"""

import argparse
import concurrent.futures
import copy
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HOSTILE = [0, -1, 1, 2, 3, 5_000, 5_001, 10_000, 10_001, 20_000, 50_000, 100_000, 100_001,
           86_400, 86_401, 150_000, 150_001, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**53, -2**31,
           1e300, 1.5, -0.5, 0.0]
WRONG = [None, True, "x", "25%", "150%", "-5%", "1.5", "%", [], {}, [1, 2], {"a": 1}]
ACTION_TYPES = ["create", "setImage", "scale", "pause", "resume", "rollback", "undo",
                "setStrategy", "setMinReadySeconds", "setProgressDeadlineSeconds",
                "setRevisionHistoryLimit", "setPodDeletionCost", "restartPod", "setPodQuota",
                "nope", ""]


def paths(node, prefix=()):
    """Every (path, value) in a JSON value."""
    yield prefix, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


def put(root, path, value):
    if not path:
        return value
    parent = root
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = value
    return root


def mutate(rng, s):
    every = [(p, v) for p, v in paths(s) if p]
    kind = rng.randrange(10)
    if kind <= 2:  # a number made hostile
        numbers = [(p, v) for p, v in every if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if numbers:
            p, _ = rng.choice(numbers)
            return put(s, p, rng.choice(HOSTILE))
    if kind == 3:  # a value of the wrong type
        p, _ = rng.choice(every)
        return put(s, p, rng.choice(WRONG + HOSTILE))
    if kind == 4:  # a field removed
        p, _ = rng.choice(every)
        parent = s
        for q in p[:-1]:
            parent = parent[q]
        del parent[p[-1]]
        return s
    if kind == 5 and isinstance(s.get("actions"), list) and s["actions"]:  # an action repeated
        a = rng.choice(s["actions"])
        s["actions"] += [copy.deepcopy(a) for _ in range(rng.choice([10, 100, 2_000]))]
        return s
    if kind == 6 and isinstance(s.get("actions"), list) and s["actions"]:  # type or surge
        a = rng.choice(s["actions"])
        if isinstance(a, dict):
            if rng.random() < 0.5:
                a["type"] = rng.choice(ACTION_TYPES)
            else:
                d = a.get("deployment") if isinstance(a.get("deployment"), dict) else a
                d["strategy"] = {"type": rng.choice(["RollingUpdate", "Recreate", "x"]),
                                 "maxSurge": rng.choice(HOSTILE + WRONG),
                                 "maxUnavailable": rng.choice(HOSTILE + WRONG)}
                if rng.random() < 0.5:
                    d["replicas"] = rng.choice(HOSTILE)
        return s
    if kind == 7:  # deep nesting
        p, _ = rng.choice(every)
        deep = 1
        for _ in range(200):
            deep = [deep]
        return put(s, p, deep)
    if kind == 8:  # a long string
        p, _ = rng.choice(every)
        return put(s, p, "x" * 500_000)
    # Sizes together: the work of a run.
    s["rounds"] = rng.choice([1_000, 10_000, 100_000])
    s.setdefault("model", {})
    if isinstance(s["model"], dict):
        s["model"]["readyJitterRounds"] = rng.choice([100, 10_000, 100_000])
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--runs", type=int, default=3000)
    ap.add_argument("--rollout", default="target/release/rollout")
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", "..", "shared", "conformance", "scenarios"))
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".json"))
    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="rollout-mutate-")
    inputs = []
    for i in range(args.runs):
        with open(rng.choice(files)) as f:
            s = json.load(f)
        for _ in range(rng.randint(1, 3)):
            try:
                s = mutate(rng, s)
            except (KeyError, IndexError, TypeError):
                pass
        path = os.path.join(tmp, f"{i:05}.json")
        with open(path, "w") as f:
            json.dump(s, f)
        inputs.append(path)

    def run(path):
        start = time.monotonic()
        try:
            p = subprocess.run(["/usr/bin/time", "-f", "%M", args.rollout, "trace", path],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return path, "over the time limit", args.timeout, 0
        took = time.monotonic() - start
        lines = p.stderr.decode(errors="replace").strip().splitlines()
        kb = int(lines[-1]) if lines and lines[-1].isdigit() else 0
        # /usr/bin/time reports the child's exit as its own; a signal shows as 128 + n.
        code = p.returncode
        what = {0: "exit 0", 2: "refused (exit 2)", 101: "panic (exit 101)",
                134: "abort (exit 134)"}.get(code, f"exit {code}")
        return path, what, took, kb

    outcomes = {}
    slowest = (0, "")
    largest = (0, "")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for path, what, took, kb in pool.map(run, inputs):
            outcomes.setdefault(what, []).append(path)
            slowest = max(slowest, (took, path))
            largest = max(largest, (kb, path))
    for what, ps in sorted(outcomes.items()):
        print(f"{what}: {len(ps)}" + ("" if what in ("exit 0", "refused (exit 2)") else f"  e.g. {ps[0]}"))
    print(f"slowest: {slowest[0]:.2f} s ({slowest[1]})")
    print(f"largest: {largest[0] / 1024:.0f} MB ({largest[1]})")
    print(f"seed {args.seed}, {args.runs} runs, inputs in {tmp}")
    bad = [w for w in outcomes if w not in ("exit 0", "refused (exit 2)")]
    sys.exit(1 if bad or largest[0] > 1024 * 1024 else 0)


if __name__ == "__main__":
    main()
