"""tables_gpu.py: the tables of scripts/bench/auto.sh, tblock.sh and scaling.sh (loaded by
tables.py, whose Report, Table and helpers they use; see its docstring)."""
import re
import statistics

from tables import Table, dims, floor_us, fmt, fmt_us, label, num, ok, pct


def fmt_t(us):
    """A time in µs, or ms from 10 ms on, with its unit."""
    if us is None:
        return "-"
    return "%.1f ms" % (us / 1e3) if us >= 1e4 else "%.1f µs" % us


# ------------------------------------------------------------------------------- --variant auto
AUTO_APPS = (("stencil-laplap", "tsr-stencil laplap"), ("stencil-hdiff", "tsr-stencil hdiff"),
             ("stencil-fastwaves", "tsr-stencil fastwaves"), ("copybench", "tsr-copybench"),
             ("fastsg", "tsr-fastsg"), ("airfoil", "tsr-airfoil"), ("lulesh", "tsr-lulesh"))


def auto_kind(row):
    """fastsg makes two choices (they compute different things); the others one."""
    v = row["variant"]
    return "hierarchize" if "/hier/" in v else "evaluate" if "/eval/" in v else ""


def auto_problem(row, kind):
    if row["app"] == "fastsg":
        return "D=%s n=%s, %s" % (row["nx"], row["ny"], kind)
    if row["app"] == "airfoil":
        return "%s cells, %s" % (row["nx"], row.get("precision", ""))
    if row["app"] == "lulesh":
        c = re.search(r"cycles=(\d+)", row.get("figure", ""))
        return "-s %s, %s cycles" % (row["nx"], c.group(1) if c else "?")
    it = row.get("iterations")
    return "%s %s%s" % (dims(row), row.get("precision", ""), ", %s steps" % it if it else "")


def t_auto(rep):
    cols = ["program", "problem", "sweep_rows", "best", "best_us", "auto_choice", "auto_candidates",
            "auto_us", "choice_sweep_us", "auto_over_best", "within_5pct", "auto_verify"]
    t = Table("--variant auto --retune against the full sweep of its candidates (the same runs)",
              ["program", "problem", "sweep rows", "sweep's best (variant, configuration)", "time",
               "auto's choice", "of", "auto's time", "choice in the sweep", "auto / best",
               "within 5 %", "verify"],
              ["---", "---", "---:", "---", "---:", "---", "---:", "---:", "---:", "---:", "---",
               "---"])
    out = []
    for tag, prog in AUTO_APPS:
        sweep = rep.rows(tag + "-sweep.csv")
        autos = rep.rows(tag + "-auto.csv")
        if not sweep and not autos:
            continue
        kinds = sorted({auto_kind(r) for r in sweep + autos}, reverse=True)
        for kind in kinds:
            cand = [r for r in sweep if auto_kind(r) == kind and ok(r) and num(r["median_us"])]
            best = min(cand, key=lambda r: num(r["median_us"])) if cand else None
            a = [r for r in autos if auto_kind(r) == kind]
            a = a[0] if a else None
            ref = a or best or ([r for r in sweep if auto_kind(r) == kind] or [None])[0]
            problem = auto_problem(ref, kind) if ref else "-"
            bt = num(best["median_us"]) if best else None
            at = num(a["median_us"]) if a else None
            m = re.search(r"auto: best of (\d+)", a.get("note", "")) if a else None
            ntried = m.group(1) if m else ("cached" if a and "cached" in a.get("note", "") else "-")
            same = [r for r in cand if a and r["variant"] == a["variant"] and
                    (r.get("config") or "") == (a.get("config") or "")]
            ct = num(same[0]["median_us"]) if same else None
            ratio = at / bt if at and bt else None
            verdict = ("PASS" if ratio <= 1.05 else "FAIL") if ratio else "not measured"
            averify = a["verify"] if a else "not run"
            out.append([prog, problem, len(cand), label(best) if best else "-", fmt(bt, 3),
                        label(a) if a else "-", ntried, fmt(at, 3), fmt(ct, 3), fmt(ratio, 3),
                        verdict, averify])
            t.add(prog, problem, str(len(cand)), label(best) if best else "-", fmt_t(bt),
                  label(a) if a else "(auto did not run: see the notes and logs)", ntried,
                  fmt_t(at), fmt_t(ct), fmt(ratio, 3), verdict, averify)
    n_pass = sum(1 for r in out if r[10] == "PASS")
    t.text = ["Sweep: `--variant cuda/*` with the options shown in the commands, every variant and "
              "configuration a row (verified rows only, FAIL and skipped rows left out); auto: the "
              "same command with `--variant auto --retune`: a trial of the same candidates (one "
              "warm-up and at most three timed runs each, unverified), then the winner's own runs "
              "(as many as the sweep's, verified). \"of\": the candidates that ran in auto's trial; "
              "\"choice in the sweep\": the sweep's time of the variant and configuration auto "
              "chose. auto / best = auto's time / the sweep's best time; within 5 %: the goal of "
              "`--variant auto`. Times: stencils µs per step, airfoil and lulesh per run (the whole "
              "solve), copybench per copy, fastsg per hierarchization or evaluation of all points.",
              "%d of %d choices within 5 %% of the sweep's best." % (n_pass, len(out))]
    rep.data(cols, out)
    rep.tables.append(t)
    return "--variant auto against the full sweep"


# --------------------------------------------------------------------------- temporal blocking
def tb_cfg(row):
    """(k, xpt, rows, warps) of a tblock row's configuration, None for other variants."""
    c = row.get("config") or ""
    m = re.search(r"tb-steps=(\d+)", c)
    if "tblock" not in row["variant"] or not m:
        return None
    t = re.search(r"-x(\d+)-j(\d+)-w(\d+)$", row.get("_tag", ""))
    if t:  # the sweep's files name the tile (the CPU's rows have no warps in their configuration)
        return (int(m.group(1)),) + tuple(int(v) for v in t.groups())
    g = lambda k, d: int(re.search(k + r"=(\d+)", c).group(1)) if re.search(k + r"=(\d+)", c) else d
    w = re.search(r"threads=32x(\d+)x1", c)
    return int(m.group(1)), g("tb-xpt", 2), g("tb-rows", 32), int(w.group(1)) if w else 4


def tb_order(row):
    """The storage order of an unstructured row's configuration ("" for a regular grid's)."""
    m = re.search(r"order=(\w+)", row.get("config") or "")
    return m.group(1) if m else ""


def t_tblock(rep):
    cols = ["stencil", "size", "variant (configuration)", "k", "tb_xpt", "tb_rows", "tb_warps",
            "us_per_step", "single_step_floor_us", "time_over_floor", "pct_floor", "verify"]
    t1 = Table("Best per steps per pass k, µs per step (the run's steps over its time), beside "
               "the single-step kernels",
               ["stencil", "variant (configuration)", "k", "µs per step", "single-step floor µs",
                "time / floor", "% of floor", "verify"],
               ["---", "---", "---:", "---:", "---:", "---:", "---:", "---"])
    t2 = Table("The tile sweep: µs per step (time / single-step floor) for k = 2, 3, 4",
               ["stencil", "xpt", "rows", "warps", "k = 2", "k = 3", "k = 4"],
               ["---", "---:", "---:", "---:", "---:", "---:", "---:"])
    out = []
    t3 = Table("The X-Y-unstructured grid (the same domain through its neighbour tables): best per k "
               "and storage order, µs per step, beside the regular grid's best of the same run",
               ["stencil", "variant (configuration)", "k", "µs per step", "time / floor",
                "regular grid's best µs", "unstructured / regular", "verify"],
               ["---", "---", "---:", "---:", "---:", "---:", "---:", "---"])
    for st, base_glob, sweep_glob in (
            ("laplap", "laplap-base.csv", "laplap-x*-j*-w*.csv"),
            ("hdiff", "hdiff-base.csv", "hdiff-x*-j*-w*.csv"),
            ("laplap float", "laplap-float-base.csv", "laplap-float-x*.csv"),
            ("hdiff float", "hdiff-float-base.csv", "hdiff-float-x*.csv")):
        base = rep.rows(base_glob)
        sweep = rep.rows(sweep_glob)
        rows = base + sweep
        if not rows:
            continue
        fl = [floor_us(r) for r in rows if floor_us(r)]
        floor = statistics.median(fl) if fl else None
        grid = {}
        for r in rows:
            c = tb_cfg(r)
            tm = num(r["median_us"])
            rat = tm / floor if tm and floor else None
            out.append([st, dims(r), label(r), c[0] if c else 1, c[1] if c else "", c[2] if c else "",
                        c[3] if c else "", fmt(tm, 2), fmt(floor, 2), fmt(rat, 3),
                        fmt(pct(floor, tm)), r["verify"]])
            if c and c[0] > 1:
                cell = "%s (%s)" % (fmt_us(tm), fmt(rat, 2)) if ok(r) else r["verify"]
                grid.setdefault(c[1:], {})[c[0]] = cell
        good = [r for r in rows if ok(r) and num(r["median_us"])]

        def add(r, k):
            tm = num(r["median_us"])
            t1.add(st, label(r), str(k), fmt_us(tm), fmt_us(floor), fmt(tm / floor if floor else None, 3),
                   fmt(pct(floor, tm)), r["verify"])
        single = [r for r in good if not tb_cfg(r)]
        if single:
            add(min(single, key=lambda r: num(r["median_us"])), 1)
        for k in (1, 2, 3, 4):
            rk = [r for r in good if tb_cfg(r) and tb_cfg(r)[0] == k]
            if rk:
                add(min(rk, key=lambda r: num(r["median_us"])), k)
        for (x, j, w) in sorted(grid):
            g = grid[(x, j, w)]
            t2.add(st, str(x), str(j), str(w), *[g.get(k, "-") for k in (2, 3, 4)])
        # the unstructured grid (double only), against the regular grid's best at any k
        urows = rep.rows(st + "-unstr-*.csv") if " " not in st else []
        if not urows:
            continue
        reg_best = min((num(r["median_us"]) for r in good), default=None)
        for r in urows:
            c = tb_cfg(r)
            tm = num(r["median_us"])
            out.append([st + " unstructured", dims(r), label(r), c[0] if c else 1, c[1] if c else "",
                        c[2] if c else "", c[3] if c else "", fmt(tm, 2), fmt(floor, 2),
                        fmt(tm / floor if tm and floor else None, 3), fmt(pct(floor, tm)), r["verify"]])
        ugood = [r for r in urows if ok(r) and num(r["median_us"])]
        keys = sorted({(tb_order(r), tb_cfg(r)[0] if tb_cfg(r) else 0) for r in ugood})
        for o, k in keys:
            rk = [r for r in ugood if tb_order(r) == o and (tb_cfg(r)[0] if tb_cfg(r) else 0) == k]
            r = min(rk, key=lambda r: num(r["median_us"]))
            tm = num(r["median_us"])
            t3.add(st, label(r), str(k or 1), fmt_us(tm), fmt(tm / floor if floor else None, 3),
                   fmt_us(reg_best), fmt(tm / reg_best if reg_best else None, 2), r["verify"])
    t1.text = ["k = 1: single steps (the best of cuda/regular/jwindow and jwindow-shfl over the "
               "blocks and rows per thread run, and tblock at one step per pass); k = 2..4: the "
               "best tile of the sweep (float: of tblock's points per lane, 1 or 2, at the "
               "default strip and warps). The single-step floor is one step's minimum traffic "
               "(input and output once; hdiff also its coefficients) over the measured copy "
               "bandwidth; time / floor < 1 moves less than one step's compulsory traffic per step "
               "(goal for laplap in double: <= 0.5). Every row verified bit for bit against the "
               "single steps."]
    t2.text = ["xpt: points per lane along x (tiles of 32 xpt - 4k columns), rows: a warp's strip "
               "(--tb-rows), warps: warps per block (--tb-warps); FAIL or a skip in place of a time "
               "when the row did not pass."]
    t3.text = ["k = 1 without tb-steps: the unstructured single-step kernel (cuda/unstr/jwindow-proto, "
               "the best block and levels per thread); with: cuda/unstr/tblock at one step per pass. "
               "Row-major storage: the warps inside the updated rectangle read without the slot "
               "map; z-curve: every read through it. Regular grid's best: the fastest verified row "
               "of the regular grid at any k in the same run. Every row verified bit for bit against "
               "the single steps."]
    rep.data(cols, out)
    rep.tables += [t for t in (t1, t2, t3) if t.rows]
    return "Temporal blocking: the tile sweep of cuda/regular/tblock and cuda/unstr/tblock"


# ------------------------------------------------------------------------------------ scaling
# experiment tag: (label, weak?, the experiment whose 1-rank row is the baseline)
SCALING = {
    "laplap-strong": ("laplap strong (µs per step)", False, "laplap-strong"),
    "laplap-weak": ("laplap weak (µs per step)", True, "laplap-weak"),
    "hdiff-weak": ("hdiff weak (µs per step)", True, "hdiff-weak"),
    "fastwaves-weak": ("fastwaves weak (µs per step)", True, "fastwaves-weak"),
    "airfoil": ("airfoil strong (ms per run)", False, "airfoil"),
    "airfoil-weak": ("airfoil weak (ms per run)", True, "airfoil-weak"),
    "lulesh-strong": ("lulesh strong, METIS (ms per run)", False, "lulesh-strong"),
    "lulesh-strongblock": ("lulesh strong, block grid (ms per run)", False, "lulesh-strong"),
    "lulesh-strongblocknov": ("lulesh strong, block grid, --no-overlap (ms per run)", False,
                              "lulesh-strong"),
    "lulesh-weak": ("lulesh weak, METIS (ms per run)", True, "lulesh-weak"),
    "lulesh-weakblock": ("lulesh weak, block grid (ms per run)", True, "lulesh-weak"),
    "lulesh-weakblocknov": ("lulesh weak, block grid, --no-overlap (ms per run)", True, "lulesh-weak"),
    "lulesh-cube": ("lulesh 8 ranks, LULESH's cube, global -s of one GPU (ms per run)", False,
                    "lulesh-weak"),
    "lulesh-cubeweak": ("lulesh 8 ranks, LULESH's cube, 4 x one GPU's zones (ms per run)", True,
                        "lulesh-weak"),
}


def work_of(exp, r):
    """The work of a run, for the work rate: cells (x iterations for airfoil); lulesh: None
    (its grind time is already per zone-cycle)."""
    if exp.startswith("lulesh"):
        return None
    if exp.startswith("airfoil"):
        return num(r["nx"], 0) * num(r["nz"], 1)
    return num(r["nx"], 0) * num(r["ny"], 0) * num(r["nz"], 0)


def t_scaling(rep):
    from tables import halo_rows
    gpus = int(rep.info.get("gpus", "0"))
    cols = ["experiment", "halo", "ranks", "variant", "size", "median_us", "floor_us", "pct_floor",
            "speedup_vs_1_rank", "verify", "gpus", "efficiency"]
    out = []
    t1 = Table("Halo exchange, one rank per GPU",
               ["ranks", "where", "variant", "median µs", "min µs", "bytes sent per rank",
                "floor µs", "% of floor", "verify"], ["---:", "---", "---", "---:", "---:", "---",
                                                      "---:", "---:", "---"])
    hout = []
    halo_rows(rep, "halo-np*.csv", t1, hout, gpus)
    for h in hout:
        out.append(["halo", h[2], h[0], h[2], "", h[3], h[6], h[7], "", h[8], min(h[0], gpus) or h[0], ""])
    t2 = Table("Time steps and solves at 1, 2 and 4 GPUs",
               ["experiment", "halo", "variant", "ranks", "GPUs", "size", "time", "floor",
                "% of floor", "over 1 GPU", "efficiency", "verify"],
               ["---", "---", "---", "---:", "---:", "---", "---:", "---:", "---:", "---:", "---:",
                "---"])
    rows = []
    for r in rep.rows("*-np*.csv"):
        m = re.match(r"(.+)-(staged|ipc|aware)-np(\d+)$", r["_tag"])
        if not m or m.group(1) not in SCALING:
            continue
        exp, halo, np_ = m.group(1), m.group(2), int(m.group(3))
        ng = min(np_, gpus) if gpus else np_
        if exp.startswith("lulesh"):
            g = num(re.search(r"grind_us=(\S+)", r.get("figure", "")).group(1)
                    if re.search(r"grind_us=(\S+)", r.get("figure", "")) else None)
            c = re.search(r"cycles=(\d+)", r.get("figure", ""))
            size = "%s^3%s, %s cycles" % (r["nx"], " per rank" if exp.startswith("lulesh-cube") else "",
                                          c.group(1) if c else "?")
        else:
            g = None
            size = ("%s cells, %s it" % (r["nx"], r["nz"]) if exp.startswith("airfoil") else dims(r))
        rows.append(dict(exp=exp, halo=halo, v=r["variant"], np=np_, ng=ng, size=size,
                         t=num(r["median_us"]), f=floor_us(r), verify=r["verify"], grind=g,
                         work=work_of(exp, r)))
    base = {(x["exp"], x["halo"], x["v"]): x for x in rows if x["np"] == 1}
    base_any = {(x["exp"], x["v"]): x for x in rows if x["np"] == 1}
    order = list(SCALING)
    rows.sort(key=lambda x: (order.index(x["exp"]), x["halo"], x["v"], x["np"]))
    for x in rows:
        bexp = SCALING[x["exp"]][2]
        b = base.get((bexp, x["halo"], x["v"])) or base_any.get((bexp, x["v"]))
        sp = None
        if b and b is not x:
            if x["grind"] and b["grind"]:
                sp = b["grind"] / x["grind"]  # zone-cycles per second over one GPU's
            elif x["t"] and b["t"] and x["work"] and b["work"]:
                sp = (x["work"] / b["work"]) * b["t"] / x["t"]  # work rate over one GPU's
        eff = sp / x["ng"] if sp and x["ng"] else None
        ms = x["exp"].startswith(("airfoil", "lulesh"))
        tt = fmt(x["t"] / 1e3, 1) if ms and x["t"] else fmt_us(x["t"])
        ff = fmt(x["f"] / 1e3, 1) if ms and x["f"] else fmt_us(x["f"])
        out.append([x["exp"], x["halo"], x["np"], x["v"], x["size"], fmt(x["t"], 2), fmt(x["f"], 2),
                    fmt(pct(x["f"], x["t"])), fmt(sp, 3), x["verify"], x["ng"], fmt(eff, 3)])
        t2.add(SCALING[x["exp"]][0], x["halo"], x["v"], str(x["np"]), str(x["ng"]), x["size"], tt, ff,
               fmt(pct(x["f"], x["t"])), fmt(sp, 2) if b is not x else "",
               fmt(100 * eff, 0) + " %" if eff else "", x["verify"])
    t2.text = ["Strong: the same problem on 1, 2, 4 GPUs (laplap 1024x1024x64, airfoil's standard "
               "mesh, lulesh -s 200); weak: the problem grown with the GPUs (512x512x64 per GPU, "
               "airfoil's mesh 400x600, 566x849, 800x1200, lulesh -s 150, 189, 238 = 1, 2, 4 x "
               "150^3 zones; its block grid -s 190, 240, boxes of 190x190x95 and 240x120x120). \"over 1 GPU\" is the work rate over the 1-GPU row's (strong: its time "
               "over this time; weak: x the work ratio; lulesh: the ratio of the grind times, "
               "zone-cycles per second, against the -s 150 row for the 8-rank cube runs), "
               "efficiency = over 1 GPU / GPUs (weak-scaling goal >= 85 % at 4 GPUs, >= 90 % at 2; "
               "strong goal >= 3x at 4). The floor is the whole problem's minimum traffic over one "
               "GPU's ceiling, so n GPUs can pass 100 %. lulesh at 100 cycles has no LULESH "
               "reference: LULESH's symmetry test of plane 0 decides (docs/LULESH.md; "
               "tests/apps/lulesh_mpi.sh checks the references at several rank counts)."]
    t3 = Table("Summary: weak-scaling efficiency and strong-scaling speed-up over one GPU",
               ["experiment", "halo", "variant", "2 GPUs", "4 GPUs", "goal", "verify"],
               ["---", "---", "---", "---:", "---:", "---", "---"])
    summ = {}
    for o in out:
        if o[0] == "halo" or not o[8] or o[8] == "-":
            continue
        summ.setdefault((o[0], o[1], o[3]), {})[int(o[10])] = (o[8], o[11], o[9])
    for (exp, halo, v), by in sorted(summ.items(), key=lambda kv: order.index(kv[0][0])):
        weak = SCALING[exp][1]
        cells = []
        for ng in (2, 4):
            if ng not in by:
                cells.append("")
            elif weak:
                cells.append("%.0f %%" % (100 * num(by[ng][1], 0)))
            else:
                cells.append("%.2fx" % num(by[ng][0], 0))
        goal = ">= 90 % (2), >= 85 % (4)" if weak else ">= 1.8x (2), >= 3x (4)"
        verdicts = sorted({by[k][2] for k in by})
        t3.add(SCALING[exp][0].split(" (")[0], halo, v, cells[0], cells[1], goal, ", ".join(verdicts))
    t3.text = ["Weak: efficiency = work rate over one GPU's / GPUs; strong: the speed-up (the "
               "8-rank cube runs are on 4 GPUs, two ranks each)."]
    rep.data(cols, out)
    rep.tables += [t3, t1, t2]
    return "Multi-GPU: halo exchange, stencils, airfoil and lulesh at 1, 2 and 4 GPUs"


TABLES = dict(auto=t_auto, tblock=t_tblock, scaling=t_scaling)
