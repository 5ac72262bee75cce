#!/usr/bin/env python3
"""`rollout plan --json` must agree with ../shared/plan/plan_metrics.py on every conformance
trace that has a setImage action: the reference script reads the real Kubernetes trace, the CLI
simulates the matching scenario. Prints one line per disagreement and closes with
"plan: N agreed, M disagreed".

Usage: plan_check.py ROLLOUT_BINARY PLAN_METRICS.py CONFORMANCE_DIR SUBDIR..."""
import json, os, subprocess, sys

FIGURES = ["startRound", "completeRound", "durationSeconds", "peakPods", "minAvailable",
           "deadlineExceededRound"]

def main():
    binary, script, conformance, *subdirs = sys.argv[1:]
    agreed = disagreed = 0
    for sub in subdirs:
        traces_dir = os.path.join(conformance, "traces", sub)
        traces = sorted(os.path.join(traces_dir, f) for f in os.listdir(traces_dir)
                        if f.endswith(".json"))
        ref = subprocess.run(["python3", script] + traces, capture_output=True, text=True,
                             check=True).stdout
        for line in ref.splitlines():
            name, figures = line.split(" ", 1)
            want = json.loads(figures)
            scenario = os.path.join(conformance, "scenarios", sub, name)
            run = subprocess.run([binary, "plan", "--json", scenario], capture_output=True,
                                 text=True)
            label = os.path.join(sub, name)
            if run.returncode != 0:
                print(f"{label}: rollout plan exited {run.returncode}: {run.stderr.strip()}")
                disagreed += 1
                continue
            got = json.loads(run.stdout)
            wrong = [f"{k} {got.get(k)!r} (reference {want[k]!r})" for k in FIGURES
                     if got.get(k, "missing") != want[k]]
            if wrong:
                print(f"{label}: " + ", ".join(wrong))
                disagreed += 1
            else:
                agreed += 1
    print(f"plan: {agreed} agreed, {disagreed} disagreed")
    return 0 if disagreed == 0 and agreed > 0 else 1

if __name__ == "__main__":
    sys.exit(main())
