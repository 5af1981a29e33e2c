#!/usr/bin/env python3
"""Reads a JMH JSON result file (java -jar benchmarks.jar -rf json -rff FILE) of the ff-bench suite and
prints the figures FastFlow-J reports: each benchmark as a ratio against its baseline from the same run.

  pipeline / rawJctools            per wait strategy          (goal >= 0.9)
  sequential time / farm time      per grain, policy, strategy (goal >= 1.6 at 1 us); the farm per
                                   invocation and kept as an accelerator (FarmSpeedup.accelerator)
  executor time / farm time        same rows
  raw farm time / farm time        same rows: the farm's shape without a run-time, round-robin
                                   (FarmSpeedup.rawFarm) or on-demand (FarmSpeedup.rawOnDemandFarm)
  NONE time / LEVEL1 time          per grain, six fused stages (goal >= 2 with empty stages), beside the
                                   attainable maximum NONE time / (sequential bound / 2) and the measured
                                   two-thread bound NONE time / split bound

Usage: jmh_ratios.py RESULT.json   (standard library only; tables are Markdown, ready for docs/benchmarks.md)

Scores are converted to operations per second whatever JMH mode or time unit was used, so a run with
-bm or -tu overrides still divides like with like. The +- after a ratio combines the two scores' JMH
error bars (99.9% confidence half-widths) by relative error propagation; "n/a" when JMH gave none
(a single measurement iteration, as in quick runs).
"""

import json
import math
import sys

PACKAGE = "org.fastflowj.bench."
PIPELINE_GOAL = 0.9
FARM_GOAL = 1.6
FARM_GOAL_GRAIN = "1"
OPTIMIZER_GOAL = 2.0
OPTIMIZER_GOAL_GRAIN = "0"
# Rows in the order of the Java enums, not alphabetical.
ORDER = {name: i for i, name in enumerate(["BUSY_SPIN", "BACKOFF", "BLOCKING", "ROUND_ROBIN", "ON_DEMAND"])}


def rank(name):
    return ORDER.get(name, len(ORDER)), name

_SECONDS = {"ns": 1e-9, "us": 1e-6, "\u00b5s": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "hr": 3600.0}


def ops_per_second(value, unit):
    """Converts a JMH score in `unit` ("ops/ms", "us/op", ...) to operations per second."""
    top, _, bottom = unit.partition("/")
    if top == "ops" and bottom in _SECONDS:
        return value / _SECONDS[bottom]
    if bottom == "op" and top in _SECONDS:
        return 1.0 / (value * _SECONDS[top]) if value else math.inf
    raise ValueError("unexpected JMH score unit: " + unit)


class Score:
    """One benchmark result as a rate (operations per second) with its relative error (or None)."""

    def __init__(self, entry):
        metric = entry["primaryMetric"]
        value = float(metric["score"])
        self.rate = ops_per_second(value, metric["scoreUnit"])
        error = metric.get("scoreError")
        try:
            error = float(error)
        except (TypeError, ValueError):
            error = math.nan
        self.rel_error = error / value if value and math.isfinite(error) else None

    def ms_per_op(self):
        return 1e3 / self.rate


def ratio(numerator, denominator):
    """numerator.rate / denominator.rate as text with its propagated error, or 'n/a'."""
    if numerator is None or denominator is None:
        return None, "n/a"
    value = numerator.rate / denominator.rate
    if numerator.rel_error is None or denominator.rel_error is None:
        return value, "%.2f" % value
    spread = value * math.hypot(numerator.rel_error, denominator.rel_error)
    return value, "%.2f \u00b1 %.2f" % (value, spread)


def verdict(value, goal):
    if value is None:
        return ""
    return "ok" if value >= goal else "below"


def load(path):
    with open(path, encoding="utf-8") as f:
        entries = json.load(f)
    results = {}
    for entry in entries:
        name = entry["benchmark"]
        if name.startswith(PACKAGE):
            name = name[len(PACKAGE):]
        params = tuple(sorted((entry.get("params") or {}).items()))
        results[(name, params)] = Score(entry)
    return results


def find(results, name, **params):
    return results.get((name, tuple(sorted(params.items()))))


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def pipeline_table(results):
    raw = find(results, "PipelineThroughput.rawJctools")
    ceiling = find(results, "PipelineThroughput.rawWithSvcCalls")
    rows = []
    pipelines = [(dict(params).get("strategy", "?"), score) for (name, params), score in results.items()
                 if name == "PipelineThroughput.pipeline"]
    for strategy, score in sorted(pipelines, key=lambda p: rank(p[0])):
        value, text = ratio(score, raw)
        rows.append([strategy, "%.3g" % score.rate, "%.3g" % raw.rate if raw else "n/a", text,
                     ratio(score, ceiling)[1], verdict(value, PIPELINE_GOAL)])
    if ceiling:
        value, text = ratio(ceiling, raw)
        rows.append(["(no run-time: raw + one svc call per side)", "%.3g" % ceiling.rate,
                     "%.3g" % raw.rate if raw else "n/a", text, "", "ceiling"])
    if not rows:
        return "PipelineThroughput: raw JCTools %.3g items/s (no pipeline result to divide)" % raw.rate if raw else None
    return ("PipelineThroughput: items/s; ratio = pipeline / raw JCTools hand-off (goal >= %.1f); the run-time's"
            " own cost shows in pipeline / ceiling\n\n" % PIPELINE_GOAL
            + table(["strategy", "pipeline items/s", "raw JCTools items/s", "pipeline / raw", "pipeline / ceiling",
                     "goal"], rows))


def farm_table(results):
    rows = []
    # The farm built per invocation, and the same farm kept for the trial as an accelerator.
    variants = {"FarmSpeedup.farm": "farm", "FarmSpeedup.accelerator": "accelerator"}
    farms = [(dict(params), score, variants[name]) for (name, params), score in results.items() if name in variants]
    farms.sort(key=lambda p: (float(p[0].get("grainMicros", 0)), rank(p[0].get("policy", "")),
                              rank(p[0].get("strategy", "")), p[2] != "farm"))
    for params, farm, variant in farms:
        grain = params.get("grainMicros", "?")
        sequential = find(results, "FarmSpeedup.sequential", grainMicros=grain)
        executor = find(results, "FarmSpeedup.executor", grainMicros=grain)
        on_demand = params.get("policy", "").startswith("ON_DEMAND")
        raw = find(results, "FarmSpeedup.rawOnDemandFarm" if on_demand else "FarmSpeedup.rawFarm", grainMicros=grain)
        speedup, speedup_text = ratio(farm, sequential)
        _, vs_raw_text = ratio(farm, raw)
        _, vs_executor_text = ratio(farm, executor)
        _, executor_text = ratio(executor, sequential)
        goal = verdict(speedup, FARM_GOAL) if grain == FARM_GOAL_GRAIN else ""
        rows.append([grain, variant, params.get("policy", "?"), params.get("strategy", "?"),
                     "%.2f" % farm.ms_per_op(),
                     "%.2f" % sequential.ms_per_op() if sequential else "n/a",
                     "%.2f" % executor.ms_per_op() if executor else "n/a",
                     speedup_text, vs_executor_text, executor_text, vs_raw_text, goal])
    if not rows:
        baselines = ["%s %s us: %.2f ms" % (name.split(".")[1], dict(params).get("grainMicros", "?"), score.ms_per_op())
                     for (name, params), score in sorted(results.items()) if name.startswith("FarmSpeedup.")]
        return "FarmSpeedup (no farm result to divide): " + ", ".join(baselines) if baselines else None
    return ("FarmSpeedup: ms per batch of M = 100000 us / grain tasks; speed-up = sequential time / farm time"
            " (goal >= %.1f at %s us, 2 workers)\n\n" % (FARM_GOAL, FARM_GOAL_GRAIN)
            + table(["grain us", "variant", "policy", "strategy", "farm ms", "sequential ms", "executor ms",
                     "speed-up (seq / farm)", "farm vs executor (exec / farm)", "executor speed-up (seq / exec)",
                     "of its raw shape (raw / farm)", "goal"],
                    rows))


def halved(score):
    """The score of a program that ran twice as fast: the sequential bound spread over two cores."""
    if score is None:
        return None
    half = Score.__new__(Score)
    half.rate = score.rate * 2
    half.rel_error = score.rel_error
    return half


def optimizer_table(results):
    rows = []
    grains = sorted({dict(params).get("grainNanos") for (name, params) in results
                     if name.startswith("OptimizedPipelineSpeedup.")} - {None}, key=int)
    for grain in grains:
        none = find(results, "OptimizedPipelineSpeedup.sixStages", grainNanos=grain, level="NONE")
        level1 = find(results, "OptimizedPipelineSpeedup.sixStages", grainNanos=grain, level="LEVEL1")
        bound = find(results, "OptimizedPipelineSpeedup.sequentialBound", grainNanos=grain)
        split = find(results, "OptimizedPipelineSpeedup.splitBound", grainNanos=grain)
        gain, gain_text = ratio(level1, none)
        _, attainable_text = ratio(halved(bound), none)
        _, split_text = ratio(split, none)
        rows.append([grain] + ["%.1f" % s.ms_per_op() if s else "n/a" for s in (none, level1, bound, split)]
                    + [gain_text, attainable_text, split_text,
                       verdict(gain, OPTIMIZER_GOAL) if grain == OPTIMIZER_GOAL_GRAIN else ""])
    if not rows:
        return None
    return ("OptimizedPipelineSpeedup: ms per 1 M items through six stages; gain = NONE / LEVEL1 (goal >= %.0f"
            " with empty stages); attainable = NONE / (sequential / 2), what no 2-core program can beat;"
            " two-thread bound = NONE / split, the same work on two plain threads with nothing passed between"
            " them, what no 2-thread program can beat on this machine\n\n"
            % OPTIMIZER_GOAL
            + table(["grain ns", "NONE ms", "LEVEL1 ms", "sequential ms", "split ms", "gain (NONE / LEVEL1)",
                     "attainable (NONE / (seq / 2))", "two-thread bound (NONE / split)", "goal"], rows))


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    results = load(argv[1])
    sections = [s for s in (pipeline_table(results), farm_table(results), optimizer_table(results)) if s]
    if not sections:
        print("no ff-bench results in " + argv[1], file=sys.stderr)
        return 1
    print("\n\n".join(sections))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
