#!/usr/bin/env python3
"""Writes docs/benchmarks.md from the evidence files next to this script.

    python3 docs/benchmarks/render.py           # rewrite docs/benchmarks.md
    python3 docs/benchmarks/render.py --check   # exit 1 if docs/benchmarks.md is not what it would write

Inputs (all in docs/benchmarks/):
  figures.jsonl  written by ff-bench/figures.sh (org.fastflowj.bench.figures.ResultLog): one "run" line,
                 then a "point" line per repetition {figure, series, x, rep, value, unit} and a "note" line
                 per remark {figure, text}. A figure "F-something" is drawn in the section of figure "F".
  nexmark.jsonl  written by ff-bench/nexmark.sh (org.fastflowj.bench.nexmark.NexmarkBench): a "run" line,
                 then one line per engine, query and parallelism: metric "throughput" (median of "runs",
                 events/s) or "latency" (p50, p99 in ms at "rate" events/s over "windows" windows).
  extra.md       hand-written results that no evidence file holds (JMH A/B tables, probes); appended as is.
  *.png          the plots figures.sh draws; linked when present.

Every number on the page comes from these files: this script computes medians and ratios, nothing else.
Python 3 standard library only.
"""

import json
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.dirname(HERE)
PAGE = os.path.join(DOCS, "benchmarks.md")

# What each figure of ff-bench's evidence suite measures and against what: text only, never a figure.
# x: how to print a point's x ("bytes", "us", "ms", "count", or None when the series name says it all).
FIGURES = {
    "fig9-group-to-group": {
        "title": "Fig. 9 (top left): group-to-group throughput",
        "what": "Two groups (`GroupToGroup`, Kryo) against plain Netty moving the same payload with the same"
        " batching and flow control (`NettyBaseline`), alternating. Loopback: both ends in one JVM; shaped link"
        " (when the emulated cluster is up): each end a process in its namespace (`LinkPeer`). Baselines: Netty"
        " in the same run, and the iperf3 ceilings of the run line. The framing bound is Netty's wire bytes per"
        " payload byte over FF-J's: on a saturated link FF-J can move at most that fraction of Netty's payload.",
        "x": "bytes",
        "xname": "message size",
    },
    "fig9-serializers": {
        "title": "Fig. 9 (top right): Kryo against a custom serializer",
        "what": "The same two groups on loopback, batch 1, Kryo against `ByteArraySerializer`, back to back.",
        "x": "bytes",
        "xname": "message size",
    },
    "fig9-all-to-all": {
        "title": "Fig. 9 (bottom right): all-to-all bandwidth",
        "what": "`A2aBandwidth`: 1..3 L-Worker groups send 64 KiB chunks of a file to two R-Worker groups and a"
        " sink. Baseline: the iperf3 ceiling of the link (\"attainable\").",
        "x": "count",
        "xname": "sender groups",
    },
    "fig10-master-worker": {
        "title": "Fig. 10: master-worker speed-up and local/remote split",
        "what": "`MasterWorker`: an on-demand all-to-all, master and 2 workers in G0, 2 workers in G1; speed-up ="
        " work / wall time, against the ideal of the run's notes; split = share of the tasks G1 ran.",
        "x": "ms",
        "xname": "grain",
    },
    "fig11-wordcount": {
        "title": "Fig. 11: word count as source groups grow, beside Apache Flink",
        "what": "`WordCount` (K source-splitters, 4 counters, one sink) as one process and as K + 2 groups, against"
        " Flink's MiniCluster in the same run (`FlinkWordCount`), counts checked equal.",
        "x": "count",
        "xname": "K (Flink: parallelism)",
    },
    "farm-2009": {
        "title": "The 2009 farm figure on the JVM",
        "what": "JMH `FarmSpeedup`: emitter, 2 workers and collector against the sequential loop, an"
        " `ExecutorService`, a `ForkJoinPool`, a parallel stream, each farm shape on bare queues (no run-time)"
        " and two threads with nothing handed over; speed-up = sequential time / variant time.",
        "x": "us",
        "xname": "grain",
    },
    "pipeline-2stage": {
        "title": "2-stage pipeline against raw JCTools, `ArrayBlockingQueue` and the LMAX Disruptor",
        "what": "JMH `PipelineThroughput`: an empty source and sink over one channel, per wait strategy, against a"
        " bare JCTools SPSC queue, an `ArrayBlockingQueue` and the Disruptor (1 producer, 1 consumer).",
        "x": None,
        "ratio_to": ["raw JCTools SPSC"],
    },
    "idle-cpu": {
        "title": "Idle CPU per wait strategy",
        "what": "`IdleCost`: a 6-stage pipeline left idle; the process's CPU time over the wait as a share of one"
        " core, per strategy (`BUSY_SPIN` spins by design).",
        "x": None,
    },
    "dfthreads-matmul": {
        "title": "DF-Threads: blocked matrix product",
        "what": "JMH `MatMulSpeedup`: `MacroDataFlow` against one ForkJoin `RecursiveAction` per block and the"
        " sequential loop, equal bit for bit; cluster rows: `matmul --groups K` through the launcher, G0's"
        " sequential product over its data-flow product.",
        "x": None,
        "xcluster": "count",
        "xname_cluster": "groups",
        "ratio_to": ["sequential"],
        "ratio_inverse": True,
    },
}

RATIO_UNITS = {"ratio", "share", "work / time", "sequential / variant", "speed-up"}


def load(path):
    """The lines of a JSON-lines file after its last "run" line, and that run line."""
    if not os.path.exists(path):
        return {}, []
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    start = max((i for i, d in enumerate(lines) if d.get("type") == "run"), default=-1)
    return (lines[start] if start >= 0 else {}), lines[start + 1 :]


def load_runs(path):
    """Every run of a JSON-lines file, in order: its run line and the lines after it."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    starts = [i for i, d in enumerate(lines) if d.get("type") == "run"]
    return [(lines[a], lines[a + 1 : b]) for a, b in zip(starts, starts[1:] + [len(lines)])]


BOUNDS = {"BOUND", "Q8_BOUND"}
ALL_QUERIES = ["BOUND", "Q1", "Q1_BOUND", "Q2", "Q3", "Q5", "Q5_100MS", "Q7", "Q8", "Q8_BOUND"]


def bound_of(q):
    """The in-run bound a query is compared with: q8 with its own two sources, the others with BOUND."""
    return "Q8_BOUND" if q == "Q8" else "BOUND"


def fmt(v, unit=""):
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "–"
    if unit in RATIO_UNITS:
        if 0.99 <= v < 1:
            return f"{v:.4f}"  # a bound close to 1 keeps its last digit
        return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"
    a = abs(v)
    if a >= 1e4:
        mantissa, exponent = f"{v:.2e}".split("e")
        return f"{float(mantissa):.2f}e{int(exponent)}"
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def fmt_x(x, kind):
    if kind == "bytes":
        for size, name in ((1 << 20, "MiB"), (1 << 10, "KiB")):
            if x >= size and x % size == 0:
                return f"{int(x // size)} {name}"
        return f"{int(x)} B"
    if kind == "us":
        return f"{x:g} µs"
    if kind == "ms":
        return f"{x:g} ms"
    return f"{x:g}"


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "| " + " | ".join(["---"] + ["---:"] * (len(head) - 1)) + " |"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def figure_tables(name, points, kind, meta):
    """One table: a row per series, a column per x (or one median column), each cell a median."""
    series = list(dict.fromkeys(p["series"] for p in points))
    unit = points[0]["unit"]
    values = {}
    for p in points:
        values.setdefault((p["series"], p["x"]), []).append(p["value"])
    reps = sorted({len(v) for v in values.values()})
    median = {k: statistics.median(v) for k, v in values.items()}
    caption = f"`{name}`, {unit}, " + (
        f"median of {reps[0]} repetition{'s' if reps[0] > 1 else ''} per cell"
        if len(reps) == 1
        else f"median of {reps[0]}–{reps[-1]} repetitions per cell"
    )
    if kind is None:
        ratio_to = [s for s in meta.get("ratio_to", []) if any(k[0] == s for k in median)]
        head = ["series", unit] + [
            (f"{s} / series" if meta.get("ratio_inverse") else f"series / {s}") for s in ratio_to
        ]
        rows = []
        for s in series:
            v = next(median[k] for k in median if k[0] == s)
            row = [s, fmt(v, unit)]
            for base in ratio_to:
                b = next(median[k] for k in median if k[0] == base)
                row.append(fmt(b / v if meta.get("ratio_inverse") else v / b, "ratio"))
            rows.append(row)
        return [caption + ":", ""] + table(head, rows)
    xs = sorted({p["x"] for p in points})
    head = [f"series \\ {meta.get('xname', 'x')}"] + [fmt_x(x, kind) for x in xs]
    rows = [[s] + [fmt(median.get((s, x)), unit) for x in xs] for s in series]
    return [caption + ":", ""] + table(head, rows)


def render_figures(lines):
    run, rest = lines
    out = []
    if not run:
        return ["No run in `docs/benchmarks/figures.jsonl` yet: run `ff-bench/figures.sh`.", ""]
    ceilings = ", ".join(
        f"{k[len('iperf3_') : -len('_mbps')]} {v:.0f} Mbit/s" for k, v in run.items() if k.startswith("iperf3_")
    )
    out += [
        "## The papers' figures (the evidence suite)",
        "",
        f"From `docs/benchmarks/figures.jsonl`: the run started {run.get('started', '?')} at commit"
        f" `{run.get('commit', '?')}`, scale `{run.get('scale', '?')}`, on {run.get('machine', '?')},"
        f" {run.get('cores', '?')} cores, {run.get('os', '?')}, {run.get('jdk', '?')}; load average"
        f" {fmt(run.get('loadAverage', float('nan')))} at the start"
        + (f"; iperf3 ceilings: {ceilings}" if ceilings else "")
        + ". Each table's baseline was measured in the same run.",
        "",
    ]
    order = list(dict.fromkeys(d["figure"] for d in rest if "figure" in d))
    parents = []
    for f in order:
        if not any(f.startswith(p + "-") for p in parents):
            parents.append(f)
    scale = run.get("scale", "SHORT")
    for parent in parents:
        meta = FIGURES.get(parent, {"title": parent, "what": "", "x": "count"})
        members = [parent] + sorted(f for f in order if f.startswith(parent + "-"))
        command = f"ff-bench/figures.sh --only {parent}" + ("" if scale == "SHORT" else f" --scale {scale}")
        out += [f"### {meta['title']} (`{parent}`)", ""]
        images = [f for f in members if os.path.exists(os.path.join(HERE, f + ".png"))]
        out += [f"![{f}](benchmarks/{f}.png)" for f in images]
        if images:
            out.append("")
        out += [(meta["what"] + " " if meta["what"] else "") + f"Command: `{command}`.", ""]
        with_points = {d.get("figure") for d in rest if d.get("type") == "point"}
        for f in members:
            if f + "-ratio" in with_points:
                continue  # its plot shows the absolute values; the page keeps the ratios, measured in the same run
            points = [d for d in rest if d.get("type") == "point" and d.get("figure") == f]
            if points:
                if f.endswith("-cluster") and "xcluster" in meta:
                    kind, meta_f = meta["xcluster"], dict(meta, xname=meta["xname_cluster"])
                else:
                    kind, meta_f = meta["x"], meta
                out += figure_tables(f, points, kind, meta_f) + [""]
        notes = [d for d in rest if d.get("type") == "note" and d.get("figure") in members]
        for d in notes:
            out.append(f"- note (`{d['figure']}`): {d['text']}")
        if notes:
            out.append("")
    return out


ENGINES = {"FFJ": "FastFlow-J", "FLINK": "Flink", "JET": "Jet"}
# Engine variants shown beside the engines but never counted as a peer: their cell is a share of FastFlow-J's.
VARIANTS = {"FFJ_CHECKPOINTS": "FastFlow-J, checkpoints every 1 s (share of FastFlow-J)"}

NEXMARK_QUERIES = [
    "| query | what | FastFlow-J | Flink | Jet |",
    "| --- | --- | --- | --- | --- |",
    "| bound | the generator into the counting sink | source → count | source → sink | source → sink |",
    "| q1 | bids, price in euros (`price * 908 / 1000`) | filter, map | filter, map | filter, map |",
    "| q1-bound | q1's work (filter, map) done in the counting sink: q1 with every hand-over free | source → count"
    " | source → sink | source → sink |",
    "| q2 | bids on `auction % 123 == 0`: (auction, price) | filter, map | filter, map | filter, map |",
    "| q3 | persons in OR, ID, CA ⨝ category-10 auctions on seller, incremental | one keyed `process` over"
    " both kinds (a `ValueState` person, a `ListState` of waiting auctions) | `connect`,"
    " `KeyedCoProcessFunction` | `groupingKey`, `flatMapStateful` |",
    "| q5 | bids per auction in 10 s windows sliding by 1 s; per window the top auction (ties: smallest id) |"
    " `sliding` count, then `windowAll` `tumbling(slide)` reduce | `sliding` count, then `keyBy(end)` windows |"
    " `sliding` count,"
    " then a 1 ms window `maxBy` |",
    "| q5-100ms | q5 sliding by 100 ms | | | |",
    "| q7 | the highest bid per tumbling 10 s window | one `windowAll` `tumbling` `maxBy` (pre-aggregated per"
    " instance) | per-auction max, then `keyBy(end)` max | one `tumbling` `maxBy` (Jet combines locally first) |",
    "| q8 | persons ⨝ their auctions in the same tumbling 10 s window: (id, name, start) | windowed `join` |"
    " windowed `join` | `aggregate2` co-group |",
    "| q8-bound | q8's two sources (persons, auctions) into the counting sink | `union` | `union` | `merge` |",
]


def query_name(q):
    return q.lower().replace("_", "-")


def render_nexmark(runs):
    out = ["## NEXMark", ""]
    out += [
        "The NEXMark queries on FastFlow-J's stream API, Apache Flink (DataStream API, local MiniCluster) and"
        " Hazelcast Jet (one embedded member), one child JVM per engine (`org.fastflowj.bench.nexmark`), each"
        " reading the same generator into a counting sink; `NexmarkEqualityTest` checks the outputs equal across"
        " engines and against a plain-Java reference. Throughput: generator events per second, median of the runs"
        " after a warm-up, in brackets the share of the engine's bound in the same run (q8's: q8-bound, its two"
        " sources into the sink). Latency: the generator paced at half FastFlow-J's throughput; per window, the time at the sink"
        " minus the time the pace reached the window's end.",
        "",
    ]
    out += NEXMARK_QUERIES + [""]
    if not runs:
        return out + ["No run in `docs/benchmarks/nexmark.jsonl` yet: run `ff-bench/nexmark.sh`.", ""]
    # The last result of each engine, query, parallelism and metric, whichever run made it.
    out += ["From `docs/benchmarks/nexmark.jsonl`, each cell the last result of these runs (a later one wins):", ""]
    latest = {}
    for index, (run, rest) in enumerate(runs):
        for d in rest:
            if "engine" in d:
                latest[(d["engine"], d["query"], d["parallelism"], d["metric"])] = dict(d, run=index)
        out += run_line(run, rest)
    out += [""]
    return out + nexmark_tables(list(latest.values()))


def run_line(run, rest):
    throughput = [d for d in rest if d.get("metric") == "throughput"]
    latency = [d for d in rest if d.get("metric") == "latency"]
    engines = list(dict.fromkeys(d["engine"] for d in rest if "engine" in d))
    parallelisms = sorted({d["parallelism"] for d in rest if "parallelism" in d})
    command = "ff-bench/nexmark.sh"
    if "events" in run:
        command += f" --events {int(run['events'])}"
    if "windowEvents" in run:
        command += f" --window-events {int(run['windowEvents'])}"
    if "joinEvents" in run:
        command += f" --join-events {int(run['joinEvents'])}"
    if parallelisms and parallelisms != [2]:
        command += " --parallelism " + ",".join(str(p) for p in parallelisms)
    if run.get("eventRate") not in (None, 100000):
        command += f" --event-rate {run['eventRate']:g}"
    if set(engines) != set(ENGINES):
        command += " --engines " + ",".join(engines)
    ran = list(dict.fromkeys(d["query"] for d in rest if "query" in d))
    if ran and set(ran) != set(ALL_QUERIES):
        command += " --queries " + ",".join(ran)
    if not latency:
        command += " --latency-seconds 0"
    return [
        f"- `{command}`: started {run.get('started', '?')} at commit"
        f" `{run.get('commit', '?')}`,"
        f" {run.get('cores', '?')} cores, JDK {run.get('jdk', '?')}, load average"
        f" {fmt(run.get('loadAverage', float('nan')))} at the start."
    ]


def nexmark_tables(rest):
    out = []
    throughput = [d for d in rest if d.get("metric") == "throughput"]
    latency = [d for d in rest if d.get("metric") == "latency"]
    engines = list(dict.fromkeys(d["engine"] for d in rest))
    parallelisms = sorted({d["parallelism"] for d in rest})
    for p in parallelisms:
        rows_t = [d for d in throughput if d["parallelism"] == p]
        queries = list(dict.fromkeys(d["query"] for d in rows_t))
        median = {(d["engine"], d["query"]): d["median"] for d in rows_t}
        run_of = {(d["engine"], d["query"]): d.get("run") for d in rows_t}
        events = {d["query"]: d["events"] for d in rows_t}
        runs = sorted({len(json.loads(d["runs"])) for d in rows_t if "runs" in d})
        out += [
            f"Throughput at parallelism {p}, million events per second, median of"
            f" {'–'.join(str(r) for r in runs) or '?'} runs; in brackets, the share of the same engine's bound (q8's:"
            " q8-bound);"
            " last column, FastFlow-J over the faster of the others:",
            "",
        ]
        head = ["query", "events"] + [ENGINES.get(e, VARIANTS.get(e, e)) for e in engines] + ["FastFlow-J / faster peer"]
        rows = []
        for q in queries:
            row = [query_name(q), f"{events[q] / 1e6:g} M"]
            for e in engines:
                v = median.get((e, q))
                # A share of the bound measured in the same run only: runs on other days drift apart.
                same_run = run_of.get((e, q)) == run_of.get((e, bound_of(q)))
                bound = median.get((e, bound_of(q))) if same_run else None
                ours = median.get(("FFJ", q))
                if v is None:
                    row.append("–")
                elif e in VARIANTS and ours:
                    row.append(f"{v / 1e6:.2f} ({v / ours:.2f})")
                elif q in BOUNDS or not bound:
                    row.append(f"{v / 1e6:.2f}")
                else:
                    row.append(f"{v / 1e6:.2f} ({100 * v / bound:.0f}%)")
            peers = [median[(e, q)] for e in engines if e != "FFJ" and e not in VARIANTS and (e, q) in median]
            ours = median.get(("FFJ", q))
            row.append(f"{ours / max(peers):.2f}" if q not in BOUNDS and ours and peers else "")
            rows.append(row)
        out += table(head, rows) + [""]
        rows_l = [d for d in latency if d["parallelism"] == p]
        if rows_l:
            lq = list(dict.fromkeys(d["query"] for d in rows_l))
            by = {(d["engine"], d["query"]): d for d in rows_l}
            out += [
                f"Event-time latency at parallelism {p}, ms from a window's end to its result at the sink, p50 / p99:",
                "",
            ]
            head = ["query", "events/s", "windows measured (of all)"] + [ENGINES.get(e, VARIANTS.get(e, e)) for e in engines]
            rows = []
            for q in lq:
                first = next(d for d in rows_l if d["query"] == q)
                row = [query_name(q), f"{first['rate'] / 1e6:.2f} M", f"{first['windows']:g} ({first['allWindows']:g})"]
                for e in engines:
                    d = by.get((e, q))
                    row.append(f"{fmt(d['p50'])} / {fmt(d['p99'])}" if d else "–")
                rows.append(row)
            out += table(head, rows) + [""]
    return out


HOW_TO = """\
# Benchmarks

This page is generated: `python3 docs/benchmarks/render.py` writes it from the evidence files in
`docs/benchmarks/` (`figures.jsonl`, `nexmark.jsonl`, the plots) and appends `docs/benchmarks/extra.md`, the
hand-written results no evidence file holds. Edit those, never this page; `python3 docs/benchmarks/render.py --check`
exits 1 when the page is out of date. Every figure is a **ratio against a baseline measured in the same run** or shown
beside one: absolute rates drift from machine to machine and, on a shared machine, from minute to minute.

## How to run

From the repository root (JDK 17, Maven, `python3`), on a quiet machine. Benchmarks run only from
`ff-bench/target/benchmarks.jar`; `mvn verify` only checks their bodies (`BenchmarkBodiesTest`) and runs every
figure at tiny sizes (`FiguresSmokeTest`, no speed asserted).

```sh
ff-bench/figures.sh                      # every figure, SHORT scale -> docs/benchmarks/figures.jsonl and plots
ff-bench/figures.sh --only farm-2009     # one figure (the file then holds only that run)
ff-bench/figures.sh --paper              # the papers' sizes (hours)
ff-bench/nexmark.sh                      # NEXMark on FastFlow-J, Flink and Jet -> docs/benchmarks/nexmark.jsonl
ff-bench/run-benchmarks.sh               # the JMH suite with its ratio tables (results: extra.md, by hand)
python3 docs/benchmarks/render.py        # then regenerate this page
```

`figures.sh` builds the jar, brings up a four-host emulated cluster (`ff-bench/cluster.sh up 4`: network
namespaces on a private bridge, links shaped to 1 Gbit/s) when run as root, measures the iperf3 ceilings, runs
`org.fastflowj.bench.figures.Figures` (`--help`) and takes the cluster down; without root the shaped-link rows
are left out and everything runs on loopback. Options: `--paper`, `--scale SMOKE|SHORT|PAPER`, `--only LIST`,
`--out DIR`, `--no-build`, `--no-cluster`. `nexmark.sh` passes its options to
`org.fastflowj.bench.nexmark.NexmarkBench` (`--help`: `--events`, `--window-events`, `--join-events`, `--parallelism`,
`--engines`, `--queries`, `--runs`, `--latency-seconds`, `--heap`, `--out`).
"""


def render():
    out = HOW_TO.splitlines() + [""]
    out += render_figures(load(os.path.join(HERE, "figures.jsonl")))
    out += render_nexmark(load_runs(os.path.join(HERE, "nexmark.jsonl")))
    extra = os.path.join(HERE, "extra.md")
    text = "\n".join(out).rstrip("\n") + "\n"
    if os.path.exists(extra):
        with open(extra, encoding="utf-8") as f:
            text += "\n" + f.read().rstrip("\n") + "\n"
    return text


def main(argv):
    text = render()
    if argv[1:] == ["--check"]:
        current = open(PAGE, encoding="utf-8").read() if os.path.exists(PAGE) else ""
        if current != text:
            print("docs/benchmarks.md is out of date; run: python3 docs/benchmarks/render.py", file=sys.stderr)
            return 1
        return 0
    if argv[1:]:
        print(__doc__, file=sys.stderr)
        return 2
    with open(PAGE, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
