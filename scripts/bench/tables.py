#!/usr/bin/env python3
"""tables.py NAME RAW OUT.csv OUT.md: the table of scripts/bench/NAME.sh.

RAW is the script's NAME-raw/ directory: info.txt (date, device, versions), commands.txt and
steps.txt (each step's command, then "TAG exit-status seconds"), notes.txt, and the CSVs and logs
of the programs it ran. OUT.csv gets the rows behind the table, OUT.md the table itself with its
header (date, device, copy-bandwidth ceiling, floors) and the commands. Python 3 standard library.

Floors: a row's floor is its minimum traffic (the program's `bytes` or `bytes_per_step`) divided by
the ceiling the program measured in the same run (`ceiling_gbs` or `copy_gbs`: a large
device-to-device cudaMemcpy, bytes read + written; docs/CSV.md); "% of floor" is floor / time x 100.
"""
import csv
import glob
import os
import re
import statistics
import sys


# ---------------------------------------------------------------------------------------- input
def num(v, default=None):
    try:
        return float(v)
    except (TypeError, ValueError):
        return default


def read_csv(path):
    """Rows of a Tessera CSV (docs/CSV.md); [] when the file is missing or empty."""
    try:
        with open(path, newline="") as f:
            return [r for r in csv.DictReader(f)]
    except OSError:
        return []


def read_text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def ceiling_of(row):
    return num(row.get("ceiling_gbs", row.get("copy_gbs")), 0.0)


def floor_us(row):
    """Minimum traffic over the measured ceiling, in microseconds (None when either is 0)."""
    b = num(row.get("bytes", row.get("bytes_per_step")), 0.0)
    c = ceiling_of(row)
    return b / (c * 1e3) if b > 0 and c > 0 else None


def dims(row):
    """The problem size of a row: lib's nx, ny, nz columns (domain_x.. in older stencil CSVs)."""
    return "x".join(row.get(k) or row.get(o) or "?" for k, o in
                    (("nx", "domain_x"), ("ny", "domain_y"), ("nz", "domain_z")))


def label(row):
    """A row's --variant name with its configuration (block, layout...) as the programs print it."""
    c = (row.get("config") or "").strip()
    return "%s (%s)" % (row["variant"], c) if c else row["variant"]


def pct(floor, t):
    return 100.0 * floor / t if floor and t else None


def fmt(v, digits=1, dash="-"):
    if v is None:
        return dash
    if isinstance(v, str):
        return v
    return "%.*f" % (digits, v)


def rate(v):
    """Points per second, human-sized."""
    if not v:
        return "-"
    for div, unit in ((1e9, "G"), (1e6, "M"), (1e3, "K")):
        if v >= div:
            return "%.3g%s" % (v / div, unit)
    return "%.3g" % v


def fmt_us(v):
    return "-" if v is None else "%.1f" % v if v < 10000 else "%.0f" % v


# ------------------------------------------------------------------------------------- output
class Table:
    """One Markdown table and the CSV rows behind it."""

    def __init__(self, title, cols, align=None):
        self.title, self.cols, self.rows, self.text = title, cols, [], []
        self.align = align or ["---"] + ["---:"] * (len(cols) - 1)

    def add(self, *cells):
        self.rows.append([fmt(c) if not isinstance(c, str) else c for c in cells])

    def md(self):
        out = ["### " + self.title, ""] if self.title else []
        out.append("| " + " | ".join(self.cols) + " |")
        out.append("|" + "|".join(self.align) + "|")
        out += ["| " + " | ".join(r) + " |" for r in self.rows]
        if not self.rows:
            out.append("| (no rows: see the notes and the logs) |" + " |" * (len(self.cols) - 1))
        return out + ([""] + self.text if self.text else [])


class Report:
    def __init__(self, name, raw):
        self.name, self.raw = name, raw
        self.info = {}
        self.versions = []
        for line in read_text(os.path.join(raw, "info.txt")).splitlines():
            k, _, v = line.partition(": ")
            if k == "version":
                self.versions.append(v)
            elif k:
                self.info[k] = v
        self.notes = [n for n in read_text(os.path.join(raw, "notes.txt")).splitlines() if n]
        self.tables = []
        self.csv_cols, self.csv_rows = None, []
        self.ceilings = []
        self.builds = set()  # (version, commit, host) of the rows (docs/CSV.md's common columns)
        self.lines = []

    def rows(self, pattern):
        """Every row of the CSVs in RAW matching the glob pattern, with its file's tag."""
        out = []
        for p in sorted(glob.glob(os.path.join(self.raw, pattern))):
            for r in read_csv(p):
                r["_tag"] = os.path.basename(p)[:-4]
                if r.get("version"):
                    self.builds.add((r["version"], r.get("commit", "?"), r.get("host", "?")))
                c = ceiling_of(r)
                if c > 0:
                    self.ceilings.append(c)
                out.append(r)
        return out

    def note(self, text):
        self.notes.append(text)

    def data(self, cols, rows):
        self.csv_cols = cols
        self.csv_rows += rows

    def write(self, title, csv_path, md_path):
        i = self.info
        dev = i.get("device", "?")
        extra = [i[k] for k in ("driver", "clocks", "memory") if k in i]
        gpus = i.get("gpus", "0")
        head = ["# " + title, ""]
        head.append("- date: %s" % i.get("date", "?"))
        head.append("- device: %s%s%s" % (dev, " (" + ", ".join(extra) + ")" if extra else "",
                                          ", %s GPUs" % gpus if gpus not in ("0", "1") else ""))
        head.append("- host: %s" % i.get("host", "?"))
        if self.ceilings:
            c = statistics.median(self.ceilings)
            head.append("- copy-bandwidth ceiling: %.1f GB/s, measured by the programs in this run "
                        "(a large device-to-device copy, bytes read + written; on the CPU a "
                        "parallel memcpy)" % c)
        else:
            head.append("- copy-bandwidth ceiling: not measured by these programs")
        head.append("- floor: a row's minimum traffic / the ceiling; % of floor = floor / time "
                    "x 100 (100: as fast as copying the minimum traffic)")
        if self.versions:
            head.append("- programs: " + "; ".join(self.versions))
        if self.builds:
            head.append("- rows from: " + "; ".join("Tessera %s (%s) on %s" % b
                                                    for b in sorted(self.builds)))
        if "scripts" in i:
            head.append("- scripts: " + i["scripts"])
        if "mode" in i:
            head.append("- **%s**" % i["mode"])
        body = []
        for t in self.tables:
            body += [""] + t.md()
        body += [""] + self.lines if self.lines else []
        tail = [""]
        if self.notes:
            tail += ["Notes:", ""] + ["- " + n for n in self.notes] + [""]
        cmds = read_text(os.path.join(self.raw, "commands.txt")).splitlines()
        steps = read_text(os.path.join(self.raw, "steps.txt")).splitlines()
        tail += ["Commands run (BINDIR: the tsr-* programs, PEERDIR: the peers; exit status, "
                 "seconds):", ""]
        for k, c in enumerate(cmds):
            s = steps[k].split() if k < len(steps) else ["?", "?", "?"]
            tail.append("    [%s, exit %s, %s s] %s" % (s[0], s[1], s[2], c))
        with open(md_path, "w") as f:
            f.write("\n".join(head + body + tail) + "\n")
        with open(csv_path, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(self.csv_cols or ["note"])
            for r in self.csv_rows:
                w.writerow(r)


def ok(r):
    return r.get("verify") in ("PASS", "not verified")


# --------------------------------------------------------------------------------------- copy
def t_copy(rep):
    rows = rep.rows("copy-*.csv")
    cols = ["size", "variant (configuration)", "median_us", "min_us", "gbs", "floor_us", "pct_floor",
            "pct_memcpy_gbs", "verify"]
    t = Table("Copy through the layout offset functions, median of each variant's runs",
              ["size", "variant (configuration)", "median µs", "GB/s", "floor µs", "% of floor",
               "% of memcpy GB/s", "verify"], ["---", "---"] + ["---:"] * 5 + ["---"])
    memcpy = {}
    for r in rows:
        if r["variant"].endswith("memcpy"):
            memcpy[(r["nx"], r["ny"], r["nz"])] = num(r["gbs"])
    out = []
    for r in rows:
        size = "%sx%sx%s" % (r["nx"], r["ny"], r["nz"])
        med, gbs = num(r["median_us"]), num(r["gbs"])
        fl = floor_us(r)
        m = memcpy.get((r["nx"], r["ny"], r["nz"]))
        pm = 100.0 * gbs / m if m and gbs else None
        out.append([size, label(r), fmt(med, 2), fmt(num(r["min_us"]), 2), fmt(gbs), fmt(fl, 2),
                    fmt(pct(fl, med)), fmt(pm), r["verify"]])
        t.add(size, label(r), fmt_us(med), fmt(gbs), fmt(fl), fmt(pct(fl, med)), fmt(pm),
              r["verify"])
    rep.data(cols, out)
    rep.tables.append(t)
    t.text = ["Every variant copies the inner cells (16 B per cell: one read, one write); "
              "cuda/memcpy copies the whole array, halo and padding included, and is the baseline."]
    return "Copy bandwidth through the layouts (tsr-copybench)"


# --------------------------------------------------------------------------------------- halo
def halo_rows(rep, pattern, t, out, gpus):
    for r in rep.rows(pattern):
        np_ = int(num(r["ranks"], 1))
        where = "%d GPU%s" % (min(np_, gpus), "s" if min(np_, gpus) > 1 else "") if gpus else "CPU"
        if gpus and np_ > gpus:
            where = "%d ranks share %d GPU" % (np_, gpus)
        med = num(r["median_us"])
        fl = floor_us(r)
        sent = r.get("figure", "")
        out.append([np_, where, r["variant"], fmt(med, 2), fmt(num(r["min_us"]), 2), sent,
                    fmt(fl, 2), fmt(pct(fl, med)), r["verify"]])
        t.add(str(np_), where, r["variant"], fmt_us(med), fmt_us(num(r["min_us"])), sent,
              fmt(fl), fmt(pct(fl, med)), r["verify"])


def t_halo(rep):
    gpus = int(rep.info.get("gpus", "0"))
    cols = ["ranks", "where", "variant", "median_us", "min_us", "sent", "floor_us", "pct_floor",
            "verify"]
    t = Table("One exchange (begin + end): median over the timed exchanges, slowest rank",
              ["ranks", "where", "variant", "median µs", "min µs", "bytes sent per rank",
               "floor µs", "% of floor", "verify"], ["---:", "---", "---", "---:", "---:", "---",
                                                     "---:", "---:", "---"])
    out = []
    halo_rows(rep, "halo-np*.csv", t, out, gpus)
    rep.data(cols, out)
    rep.tables.append(t)
    t.text = ["No memory floor: the link between the GPUs (or the host), not device memory, bounds "
              "an exchange. At 1 rank nothing is exchanged (the grid is not periodic): the call's "
              "overhead."]
    return "Halo exchange (tsr-halobench)"


# ------------------------------------------------------------------------------------ stencil
STENCILS = ("laplap", "hdiff", "fastwaves")


def grid_of(name):
    return "unstructured" if "-unstr-" in name else "regular"


def read_orig(path):
    """The original gridbenchmark's rows: name, precision, X, Y, Z, blocks, threads, average,
    median, min, max (us), then ', (Error)' after a failed run or check."""
    rows = []
    for line in read_text(path).splitlines():
        c = [x.strip() for x in line.split(",")]
        if len(c) < 15:
            continue
        try:
            dims = [int(x) for x in c[2:11]]
            med = float(c[12])
        except ValueError:
            continue
        rows.append(dict(name=c[0], stencil=c[0].split("-")[0], precision=c[1],
                         size="%dx%dx%d" % tuple(dims[0:3]), threads="%dx%dx%d" % tuple(dims[6:9]),
                         median=med, error=any("(Error)" in x for x in c[15:])))
    return rows


def prec_of(p):
    return "float" if p in ("float", "single") else "double"


def cells(size):
    try:
        x, y, z = (int(v) for v in size.split("x"))
        return x * y * z
    except ValueError:
        return 0


def t_stencil(rep):
    ours = [r for r in rep.rows("ours-*.csv") if not r["variant"].startswith("cpu/ref")]
    bad = {r["name"] for r in read_orig(os.path.join(rep.raw, "orig-verify.csv")) if r["error"]}
    orig = []
    for p in sorted(glob.glob(os.path.join(rep.raw, "orig-*.csv"))):
        if not p.endswith("orig-verify.csv"):
            orig += read_orig(p)
    if bad:
        rep.note("left out, failed the original's own check at 36x36x16: " + ", ".join(sorted(bad)))
    floors = {}
    for r in ours:
        fl = floor_us(r)
        if fl:
            floors[(r["name"].split("-")[0], prec_of(r["precision"]), dims(r))] = fl
    cols = ["program", "stencil", "precision", "size", "grid", "iterations", "name", "variant",
            "threads", "median_us", "floor_us", "pct_floor", "verify", "best"]
    out = []
    best = {}
    cfg = {}
    for r in ours:
        st = r["name"].split("-")[0]
        it = int(num(r["iterations"], 1))
        med = num(r["median_us"])
        fl = floors.get((st, prec_of(r["precision"]), dims(r)))
        good = r["verify"] in ("PASS", "not verified") and med and med > 0
        th = "%sx%sx%s" % (r["threads_x"], r["threads_y"], r["threads_z"])
        row = ["tessera", st, r["precision"], dims(r),
               grid_of(r["name"]), it, r["name"], r["variant"], th, fmt(med, 2), fmt(fl, 2),
               fmt(pct(fl, med)), r["verify"], ""]
        out.append(row)
        cfg[id(row)] = r.get("config", "")
        k = ("tessera", st, grid_of(r["name"]), it, prec_of(r["precision"]), dims(r))
        if good and (k not in best or med < num(best[k][9])):
            best[k] = row
    for r in orig:
        row = ["original", r["stencil"], r["precision"], r["size"], grid_of(r["name"]), 1, r["name"],
               r["name"], r["threads"], fmt(r["median"], 2), fmt(floors.get((r["stencil"], prec_of(r["precision"]), r["size"])), 2),
               fmt(pct(floors.get((r["stencil"], prec_of(r["precision"]), r["size"])), r["median"])),
               "error" if r["error"] else "left out" if r["name"] in bad else "not verified", ""]
        out.append(row)
        k = ("original", r["stencil"], grid_of(r["name"]), 1, prec_of(r["precision"]), r["size"])
        if not r["error"] and r["name"] not in bad and r["median"] > 0 and \
                (k not in best or r["median"] < num(best[k][9])):
            best[k] = row
    for row in best.values():
        row[13] = "best"
    rep.data(cols, out)

    def cell(row):
        if not row:
            return ["-", "-", "-"]
        if row[0] == "tessera":  # the --variant name and its configuration, as tsr-stencil prints them
            label = "%s (%s)" % (row[7], cfg[id(row)]) if cfg.get(id(row)) else row[7]
        else:
            label = "%s %s" % (row[6], row[8])
        return [label, fmt_us(num(row[9])), row[11]]

    t1 = Table("Beside the original: single launches, best verified row of each program per grid "
               "kind, median µs",
               ["stencil", "grid", "floor µs", "original (benchmark, block)", "µs", "% of floor",
                "Tessera (variant, configuration)", "µs", "% of floor", "Tessera / original"],
               ["---", "---", "---:", "---", "---:", "---:", "---", "---:", "---:", "---:"])
    t2 = Table("Tessera in 10-step runs (launch latency hidden), µs per step",
               ["stencil", "grid", "floor µs", "Tessera (variant, configuration)", "µs", "% of floor",
                "unstructured / regular"], ["---", "---", "---:", "---", "---:", "---:", "---:"])
    sizes = sorted({k[5] for k in best}, key=cells)
    small = sizes[0] if sizes else ""
    large = sizes[-1] if len(sizes) > 1 else None
    t3 = Table("Tessera, more: float in 10-step runs (µs per step), %s double in single launches "
               "(µs)" % (large or "-"),
               ["stencil", "case", "grid", "floor µs", "Tessera (variant, configuration)", "µs", "% of floor",
                "unstructured / regular"], ["---", "---", "---", "---:", "---", "---:", "---:", "---:"])
    for st in STENCILS:
        for g in ("regular", "unstructured"):
            o = best.get(("original", st, g, 1, "double", small))
            u = best.get(("tessera", st, g, 1, "double", small))
            fl = floors.get((st, "double", small))
            if o or u:
                ratio = "%.2f" % (num(u[9]) / num(o[9])) if o and u else "-"
                t1.add(st, g, fmt(fl), *(cell(o) + cell(u) + [ratio]))
            u10 = best.get(("tessera", st, g, 10, "double", small))
            if u10:
                reg = best.get(("tessera", st, "regular", 10, "double", small))
                rr = "%.2f" % (num(u10[9]) / num(reg[9])) if g == "unstructured" and reg else ""
                t2.add(st, g, fmt(fl), *(cell(u10) + [rr]))
        for case, key in (("float, %s, 10 steps" % small, (10, "float", small)),
                          ("double, %s, single launch" % large, (1, "double", large))):
            if key[2] is None:
                continue
            for g in ("regular", "unstructured"):
                u = best.get(("tessera", st, g) + key)
                if u:
                    reg = best.get(("tessera", st, "regular") + key)
                    rr = "%.2f" % (num(u[9]) / num(reg[9])) if g == "unstructured" and reg else ""
                    t3.add(st, case, g, fmt(floors.get((st,) + key[1:])), *(cell(u) + [rr]))
    rep.tables += [t1, t2] + ([t3] if t3.rows else [])
    t1.text = ["Both programs time one launch + a device synchronise on the host clock. The "
               "original's rows ran with --no-verify; its check ran on the same benchmarks at "
               "36x36x16. Every Tessera row is verified against its CPU reference. The full rows "
               "(every variant and block) are in stencil.csv."]
    return "Stencils beside the original gridbenchmark (tsr-stencil)"


# ------------------------------------------------------------------------------------ airfoil
def secs(v, unit):
    return float(v) * {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[unit]


def read_op2(path):
    txt = read_text(path)
    d = {}
    m = re.search(r"^\s*Airfoil \*\d+ total:\s*([0-9.]+)\s*(s|ms|us|ns)\b", txt, re.M)
    if m:
        d["seconds"] = secs(m.group(1), m.group(2))
    for m in re.finditer(r"^\s*(\d+)\s+([0-9.]+e[-+]\d+)\s*$", txt, re.M):
        d["rms%s" % m.group(1)] = m.group(2)
        d["last_iter"] = int(m.group(1))
        d["rms"] = m.group(2)
    m = re.search(r"is within\s+([0-9.eE+-]+)\s*%", txt)
    if m:
        d["rel"] = float(m.group(1)) / 100
    m = re.search(r"This test is considered (PASSED|FAILED)", txt)
    d["check"] = m.group(1) if m else None
    return d


def t_airfoil(rep):
    ours = rep.rows("tsr-airfoil.csv")
    cols = ["code", "variant", "block", "iterations", "s_per_1000_it", "floor_s_per_1000_it",
            "pct_floor", "rms", "check"]
    out = []
    floor_s = None
    it = None
    for r in ours:
        it = int(num(r["nz"], 1000))
        med = num(r["median_us"])
        fl = floor_us(r)
        if fl:
            floor_s = fl * 1e-6 * 1000 / it
        s = med * 1e-6 * 1000 / it if med else None
        blk = re.search(r"block=(\d+)", r.get("config", ""))
        out.append(["Tessera", r["variant"], blk.group(1) if blk else "-", it, fmt(s, 4), fmt(floor_s, 4),
                    fmt(pct(fl, med)), r.get("figure", "").replace("rms=", ""), r["verify"]])
    op2 = []
    for p in sorted(glob.glob(os.path.join(rep.raw, "op2-*-b*.log"))):
        m = re.match(r"op2-(.*)-b(\d+)\.log$", os.path.basename(p))
        d = read_op2(p)
        s = d.get("seconds")
        if s is not None and d.get("last_iter"):
            s = s * 1000 / d["last_iter"]
        chk = d["check"] or "no check printed"
        if d.get("rel") is not None and d["check"] == "PASSED" and d["rel"] >= 1e-7:
            chk = "FAILED (rel %.1e)" % d["rel"]
        if "seconds" not in d:
            chk = "no timing (see %s)" % os.path.basename(p)
        op2.append(["OP2", m.group(1), m.group(2), d.get("last_iter", "-"), fmt(s, 4), fmt(floor_s, 4),
                    fmt(pct(floor_s, s)), d.get("rms", "-"), chk])
    out += op2
    rep.data(cols, out)
    t = Table("Seconds per 1000 iterations, best block per OP2 binary, every Tessera variant",
              ["code", "variant (block)", "s / 1000 it", "floor s", "% of floor", "rms", "check"],
              ["---", "---", "---:", "---:", "---:", "---:", "---"])
    best = {}
    for r in op2:
        if r[8] == "PASSED" and r[4] != "-" and (r[1] not in best or float(r[4]) < float(best[r[1]][4])):
            best[r[1]] = r
    for r in op2:  # binaries with no passing run still get a row
        if r[1] not in best:
            best[r[1]] = r
    for r in sorted(best.values(), key=lambda r: num(r[4], 1e9)):
        t.add("OP2", "%s (%s%s)" % (r[1], r[2], ", part %s" % r[2] if r[1].startswith("hier") else ""),
              r[4], r[5], r[6], r[7], r[8])
    for r in sorted([x for x in out if x[0] == "Tessera"], key=lambda r: num(r[4], 1e9)):
        t.add("Tessera", "%s (%s)" % (r[1], r[2]), r[4], r[5], r[6], r[7], r[8])
    rep.tables.append(t)
    tb = [num(r[4]) for r in out if r[0] == "Tessera" and r[8] == "PASS" and num(r[4])]
    ob = [num(r[4]) for r in best.values() if r[8] == "PASSED" and num(r[4])]
    if tb and ob:
        t.text = ["Best Tessera against best OP2: %.3f s against %.3f s, %.2fx." %
                  (min(tb), min(ob), min(ob) / min(tb))]
    t.text.append("OP2's time is its own main-loop total (op_profile's \"Airfoil\"), which "
                  "includes its per-iteration copy of the rms to the host; Tessera's is "
                  "tsr-airfoil's median. Both pass OP2's check |rms(1000) / 1.060114637578e-4 - 1| "
                  "< 1e-7 on the standard mesh (Tessera's verify column: PASS).")
    return "Airfoil beside OP2 (tsr-airfoil)"


# ------------------------------------------------------------------------------------- fastsg
def pts_per_s(r):
    m = re.search(r"([0-9.eE+-]+) pts/s", r.get("figure", ""))
    if m:
        return float(m.group(1))
    med = num(r["median_us"])
    return num(r["nz"]) / (med * 1e-6) if med else None


def t_fastsg(rep):
    cols = ["tool", "device", "operation", "variant", "D", "n", "points", "seconds", "pts_per_s",
            "floor_s", "pct_floor", "verify"]
    out = []
    rows = rep.rows("tsr-*.csv")
    for r in rows:
        op = "evaluation" if "/eval/" in r["variant"] else "hierarchization"
        dev = "GPU" if r["variant"].startswith("cuda/") else "CPU"
        med = num(r["median_us"])
        fl = floor_us(r) if op == "hierarchization" else None
        out.append(["tessera", dev, op, r["variant"], r["nx"], r["ny"], r["nz"], fmt(med * 1e-6, 6),
                    fmt(pts_per_s(r), 0) if op == "evaluation" else "-",
                    fmt(fl * 1e-6 if fl else None, 6), fmt(pct(fl, med)), r["verify"]])
    tas = []
    for line in read_text(os.path.join(rep.raw, "tas.log")).splitlines():
        c = line.split(",")
        if len(c) == 9 and c[0] == "tasmanian" and c[1] != "mode":
            mode = c[1]
            op = "evaluation" if mode.startswith("eval") else "construction" if mode == "make-grid" \
                else "hierarchization"
            dev = "CPU" if mode.endswith("-cpu") or mode == "make-grid" else "GPU"
            tas.append(["tasmanian", dev, op, mode, c[2], c[3], c[5] if op == "evaluation" else c[4],
                        c[6], c[7] if op == "evaluation" else "-", "-", "-", "max_err=" + c[8]])
    out += tas

    t1 = Table("Tessera: hierarchization against its copy floor, evaluation rate",
               ["device", "operation", "variant", "D, n", "points", "time", "points/s",
                "floor", "% of floor", "verify"],
               ["---", "---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---"])
    order = sorted([r for r in out if r[0] == "tessera"],
                   key=lambda r: (r[1] != "GPU", r[2] != "hierarchization", -int(r[5]), num(r[7])))
    for r in order:
        s = num(r[7])
        t1.add(r[1], r[2], r[3], "%s, %s" % (r[4], r[5]), r[6], "%.3f ms" % (s * 1e3),
               rate(num(r[8])),
               "%.3f ms" % (num(r[9]) * 1e3) if num(r[9]) else "-", r[10], r[11])
    t1.text = ["Hierarchization moves 2·D·N·8 bytes at least (each of the D sweeps reads and writes "
               "the array once); evaluation has no memory floor (docs/FASTSG.md gives its "
               "instruction-issue bounds). Rows at the larger level are not verified (the plain CPU "
               "reference alone takes a minute); the same kernels are verified at the smaller one."]

    def pick(tool, dev, op, low):
        c = [r for r in out if r[0] == tool and r[1] == dev and r[2] == op and r[5] == nb and
             (tool == "tasmanian" or r[11] == "PASS")]
        key = (lambda r: num(r[7], 1e30)) if low else (lambda r: -num(r[8], 0))
        return min(c, key=key) if c else None

    nb = tas[0][5] if tas else None
    if nb is None:
        ns = sorted({r[5] for r in out if r[0] == "tessera"}, key=lambda v: int(v))
        nb = ns[0] if ns else None
    dd = tas[0][4] if tas else next((r[4] for r in out if r[5] == nb), "?")
    t2 = Table("Beside Tasmanian, the same interpolant (D = %s, n = %s)" % (dd, nb),
               ["operation", "Tasmanian (mode)", "value", "Tessera (variant)", "value",
                "Tessera / Tasmanian speed-up"], ["---", "---", "---:", "---", "---:", "---:"])
    for dev in ("GPU", "CPU"):
        for op, low in (("hierarchization", True), ("evaluation", False)):
            a, b = pick("tasmanian", dev, op, low), pick("tessera", dev, op, low)

            def val(r):
                if not r:
                    return "-"
                return "%.4g s" % num(r[7]) if low else rate(num(r[8])) + " pts/s"
            sp = "-"
            if a and b:
                sp = "%.1fx" % ((num(a[7]) / num(b[7])) if low else (num(b[8]) / num(a[8])))
            t2.add("%s, %s" % (op, dev), a[3] if a else "-", val(a), b[3] if b else "-", val(b), sp)
    # the fastsg study's variants, each on its own: hierarchization at the large level, evaluation
    study = rep.rows("study-*.csv")
    t3 = Table("The fastsg study's variants on their own (D = %s)" % dd,
               ["operation", "variant", "n", "points", "time", "points/s", "% of floor", "verify"],
               ["---", "---", "---:", "---:", "---:", "---:", "---:", "---"])
    for r in sorted(study, key=lambda r: ("/eval/" in r["variant"], num(r["median_us"], 1e30))):
        ev = "/eval/" in r["variant"]
        med = num(r["median_us"])
        out.append(["tessera", "GPU" if r["variant"].startswith("cuda/") else "CPU",
                    "evaluation" if ev else "hierarchization", r["variant"], r["nx"], r["ny"],
                    r["nz"], fmt(med * 1e-6, 6), fmt(pts_per_s(r), 0) if ev else "-",
                    fmt(floor_us(r) * 1e-6 if not ev and floor_us(r) else None, 6),
                    fmt(pct(floor_us(r), med)) if not ev else "-", r["verify"]])
        t3.add("evaluation" if ev else "hierarchization", r["variant"], r["ny"], r["nz"],
               "%.3f ms" % (med * 1e-3), rate(pts_per_s(r)) if ev else "-",
               fmt(pct(floor_us(r), med)) if not ev else "-", r["verify"])
    rep.data(cols, out)
    rep.tables += [t1, t2] + ([t3] if t3.rows else [])
    # the interpolant at the fixed points, both programs
    ut = re.findall(r"^# u\(.*?\) = ([0-9.eE+-]+)", read_text(os.path.join(rep.raw, "tas.log")), re.M)
    uo = re.findall(r"^u\(.*?\) = ([0-9.eE+-]+)", read_text(os.path.join(rep.raw, "tsr-gpu.log")), re.M)
    lines = []
    for k, (a, b) in enumerate(zip(ut, uo)):
        d = abs(float(a) - float(b))
        lines.append("- point %d: Tasmanian %s, Tessera %s: %s" %
                     (k + 1, a, b, "agree (|diff| %.1e)" % d if d <= 1e-9 else "DIFFER by %.1e" % d))
    t2.text = lines or ["(the interpolant at fixed points: not compared, Tasmanian did not run)"]
    for tag, pat in (("tsr-d2n3", r"^u\(.*"), ("tas-d2n3", r"^# D=2 n=3.*")):
        m = re.search(pat, read_text(os.path.join(rep.raw, tag + ".log")), re.M)
        if m:
            t2.text.append("- D=2, n=3 check (%s): %s" % (tag.split("-")[0], m.group(0).lstrip("# ")))
    return "Sparse grids beside Tasmanian (tsr-fastsg)"


# ------------------------------------------------------------------------------------- layout
def fig(r, key):
    m = re.search(r"\b%s=([0-9.eE+-]+)" % re.escape(key), r.get("figure", ""))
    return float(m.group(1)) if m else None


def t_layout(rep):
    cols = ["group", "variant", "device", "n", "median_us", "speedup_vs_RxR=R", "gflops",
            "floor_us", "pct_floor", "figure", "verify"]
    out = []
    groups = [("gpu-1008", "H"), ("gpu-10080", "H"), ("cpu-1008", "C"), ("cpu-small", "C")]
    speed, label = {}, {}
    for g, _ in groups:
        rows = rep.rows(g + ".csv")
        base = [num(r["median_us"]) for r in rows if r["variant"].endswith("/RxR=R")]
        for r in rows:
            med = num(r["median_us"])
            sp = base[0] / med if base and med else None
            if "/matmul/" in r["variant"] or r["variant"].endswith("cublas"):
                v = r["variant"].split("/")[-1] if "/matmul/" in r["variant"] else "cuBLAS"
                speed[(g, v)] = (sp, med, r)
                label[g] = "%s N=%s" % ("GPU" if r["variant"].startswith("cuda/") else "CPU", r["nx"])
            out.append([g, r["variant"], r["device"], r["nx"], fmt(med, 2), fmt(sp, 3),
                        fmt(fig(r, "GF/s")), "-", "-", r.get("figure", ""), r["verify"]])
    present = [g for g, _ in groups if any(k[0] == g for k in speed)]
    t1 = Table("Tiled float matmul: speed-up over R x R = R (median time in brackets)",
               ["combination"] + [label[g] for g in present],
               ["---"] + ["---:"] * len(present))
    names = []
    for (g, v) in speed:
        if v not in names:
            names.append(v)
    for v in names:
        cells = []
        for g in present:
            sp, med, r = speed.get((g, v), (None, None, None))
            if sp is None:
                cells.append("-")
                continue
            gf = fig(r, "GF/s")
            cells.append("%.3f (%s µs%s)" % (sp, fmt_us(med), ", %.1f TFLOP/s" % (gf / 1e3) if gf else ""))
        t1.add(v.replace("x", " x ").replace("=", " = ") if v != "cuBLAS" else "cuBLAS SGEMM (R)",
               *cells)
    t2 = Table("Layout transforms of an N x N float matrix",
               ["variant", "N", "median µs", "GB/s", "floor µs", "% of floor", "ps per element"],
               ["---", "---:", "---:", "---:", "---:", "---:", "---:"])
    for r in rep.rows("transform.csv"):
        med, fl = num(r["median_us"]), floor_us(r)
        out.append(["transform", r["variant"], r["device"], r["nx"], fmt(med, 2), "-", "-",
                    fmt(fl, 2), fmt(pct(fl, med)), r.get("figure", ""), r["verify"]])
        t2.add(r["variant"], r["nx"], fmt_us(med), fmt(num(r["gbs"])), fmt(fl), fmt(pct(fl, med)),
               fmt(fig(r, "ps/N2"), 0))
    srows = rep.rows("stencil.csv")
    t3 = Table("7-point stencil, one thread, run-time against constant extents",
               ["build", "gcc: s per sweep", "speed-up", "clang: s per sweep", "speed-up"],
               ["---", "---:", "---:", "---:", "---:"])
    by = {}
    for r in srows:
        cc, build = r["variant"].split("/")[-2:]
        m = re.search(r"s/(\d+)it=", r.get("figure", ""))
        if num(r["median_us"], 0) > 0:
            by[(cc, build)] = num(r["median_us"]) * 1e-6 / (int(m.group(1)) if m else 1)
        out.append(["stencil", r["variant"], r["device"], "%sx%sx%s" % (r["nx"], r["ny"], r["nz"]),
                    fmt(num(r["median_us"]), 1), "-", "-", "-", "-", r.get("figure", ""), r["verify"]])
    for build in ("runtime", "cindex", "cloops"):
        cells = []
        for cc in ("gcc", "clang"):
            s, base = by.get((cc, build)), by.get((cc, "runtime"))
            cells += [fmt(s, 3), "%.2f" % (base / s) if s and base else "-"]
        if any(c != "-" for c in cells):
            t3.add(build, *cells)
    if srows:
        r = srows[0]
        t3.text = ["Grid %sx%sx%s floats (x fastest); the median run's time over its sweeps "
                   "(each reads and writes the grid once)." % (r["nx"], r["ny"], r["nz"])]
    rep.data(cols, out)
    rep.tables += [t for t in (t1, t2, t3) if t.rows]
    return "Layout experiments (tsr-layoutbench)"


# ------------------------------------------------------------------------------------- lulesh
def read_llnl(path):
    """LLNL's LULESH CUDA port: its Run completed block and timing lines."""
    txt = read_text(path)
    d = {}
    for key, pat in (("size", r"Problem size\s*=\s*(\d+)"), ("cycles", r"Iteration count\s*=\s*(\d+)"),
                     ("e0", r"Final Origin Energy\s*=\s*([0-9.eE+-]+)"),
                     ("elapsed", r"Elapsed time\s*=\s*([0-9.eE+-]+)"),
                     ("grind", r"Grind time \(us/z/c\)\s*=\s*([0-9.eE+-]+)"),
                     ("fom", r"FOM\s*=\s*([0-9.eE+-]+)")):
        m = re.search(pat, txt)
        if m:
            d[key] = m.group(1)
    return d


def lfig(row, key):
    m = re.search(r"\b%s=(\S+)" % re.escape(key), row.get("figure", ""))
    return m.group(1) if m else None


def t_lulesh(rep):
    cols = ["code", "variant", "order", "s", "cycles", "grind_us_per_zc", "fom_zc_per_s",
            "pct_floor", "e_origin", "check"]
    ours = []
    for r in rep.rows("tsr-lulesh-s*.csv"):
        m = re.match(r"tsr-lulesh-s(\d+)(?:-(\w+))?$", r["_tag"])
        if not m:
            continue
        cyc = num(lfig(r, "cycles"))
        grind = num(lfig(r, "grind_us"))
        order = m.group(2) or "none"
        fom = 1.0 / grind * 1e6 if grind else None
        ours.append(["Tessera", r["variant"], order, int(m.group(1)), int(cyc) if cyc else "-",
                     fmt(grind, 7), fmt(fom / 1e6 if fom else None, 3) + ("M" if fom else ""),
                     fmt(num(r.get("pct_floor"))), lfig(r, "e0") or "-", r["verify"]])
    peer = []
    for p in sorted(glob.glob(os.path.join(rep.raw, "llnl-s*.log"))):
        s = int(re.search(r"llnl-s(\d+)", p).group(1))
        d = read_llnl(p)
        chk = "no Run completed block" if "e0" not in d else "-"
        mine = [o for o in ours if o[3] == s and o[1] == "cuda/gather" and o[2] == "none"]
        if "e0" in d and mine and mine[0][8] != "-":
            rel = abs(float(d["e0"]) / float(mine[0][8]) - 1)
            chk = ("e(0) agrees with cuda/gather to its 6 digits (rel %.1e)" % rel if rel < 5e-6
                   else "e(0) DIFFERS from cuda/gather (rel %.1e)" % rel)
        fom = num(d.get("fom"))
        peer.append(["LLNL CUDA port", "2.0.2-dev cuda/", "-", s, d.get("cycles", "-"),
                     fmt(num(d.get("grind")), 7), fmt(fom / 1e3 if fom else None, 3) + ("M" if fom else ""),
                     "-", d.get("e0", "-"), chk])
    rep.data(cols, ours + peer)
    t = Table("Grind time on one GPU (LULESH's -s, fixed cycle count), every Tessera assembly "
              "beside LLNL's official CUDA port",
              ["-s", "code", "variant", "order", "cycles", "µs/zone/cycle", "zone-cycles/s",
               "% of floor", "e(0)", "check"],
              ["---:", "---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---"])
    for r in sorted(ours + peer, key=lambda r: (r[3], num(r[5], 1e9))):
        t.add(str(r[3]), r[0], r[1], r[2], str(r[4]), r[5], r[6], r[7], r[8], r[9])
    t.text = ["Grind time = run time / (zones x cycles); zone-cycles/s is its inverse (LULESH prints "
              "its FOM in zone-cycles per millisecond and labels it z/s; the port's FOM is converted "
              "here). The floor is the minimum traffic of a zone-cycle (docs/LULESH.md) over the "
              "measured copy bandwidth. The port's time is its own Elapsed time of one run; ours "
              "the median of tsr-lulesh's runs."]
    best = {}
    for r in ours:
        if r[9] in ("PASS", "not verified") and num(r[5]):
            if r[3] not in best or num(r[5]) < num(best[r[3]][5]):
                best[r[3]] = r
    for r in peer:
        b = best.get(r[3])
        if b and num(r[5]):
            t.text.append("-s %d: best Tessera %s (%s order) %s µs/z/c against the port's %s: %.2fx."
                          % (r[3], b[1], b[2], b[5], r[5], num(r[5]) / num(b[5])))
    rep.tables.append(t)
    return "LULESH beside LLNL's CUDA port (tsr-lulesh)"

TABLES = dict(lulesh=t_lulesh, copy=t_copy, halo=t_halo, stencil=t_stencil, airfoil=t_airfoil, fastsg=t_fastsg,
              layout=t_layout)


def tables():
    """Every table: these and tables_gpu.py's (auto, tblock, scaling)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tables_gpu
    return dict(TABLES, **tables_gpu.TABLES)


def main(argv):
    every = tables()
    if len(argv) != 5 or argv[1] not in every:
        sys.stderr.write("usage: tables.py {%s} RAW OUT.csv OUT.md\n" % ",".join(every))
        return 2
    rep = Report(argv[1], argv[2])
    title = every[argv[1]](rep)
    rep.write(title, argv[3], argv[4])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
