#!/usr/bin/python3
"""Regenerate Table II of the Bi-CGSTAB / Chebyshev-iteration paper with ppe-solve: L. Pennati,
M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and S. Markidis, "A Parallel
and Highly-Portable HPC Poisson Solver: Preconditioned Bi-CGSTAB with alpaka",
arXiv:2503.08935, 2025.

Runs the six solvers of the paper on its test problem (bicgstab-paper: -Lap u = sin x + cos y
+ 3 sin z - 2yz + 2, vertex-centred, DNNDND, rtol 1e-10 on the normalised right-hand side),
all with KSP bcgsfused as the outer Bi-CGSTAB:

  BiCGS              no preconditioner
  FBiCGS-G(BiCGS)    PCKSP, inner bcgs to rtol 1e-2 (max 500)
  FBiCGS-BJ(BiCGS)   PCBJACOBI, one block per rank, inner bcgs to rtol 1e-6 (max 500)
  BiCGS-BJ(CI)       PC chebyci, mode block  (24 iterations, subdomain bounds)
  BiCGS-G(CI)        PC chebyci, mode global (24 iterations, bounds x (100, 1-1e-4))
  BiCGS-GNoComm(CI)  PC chebyci, mode nocomm (24 iterations, bounds x (100, 1-1e-4))

and writes, between markers in docs/types/chebyci.md, the table next to the paper's numbers,
the synchronisations per solve, the per-phase time breakdown (from -log_view) and the latency
model; the residual histories go to docs/chebyci-table2-residuals.png and the raw results to
docs/chebyci-table2.json.

  examples/study/chebyci-table2.py [--bindir build/src/tools] [--n 128] [--np 8] [--runs 1]

The default (128^3 on 8 ranks: 64^3 per rank, the paper's subdomain size) takes several
minutes on two cores; --n 256 --np 64 is the paper's full run (a long run). --quick runs 32^3
on 4 ranks to try the script. Timings are single runs unless --runs is given (then medians):
compare them only within one run of this script.
"""
import argparse, json, math, os, re, shutil, statistics, subprocess, sys, tempfile, time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# Pennati et al. (2025), Table II (256^3, 64 GCDs on LUMI-G): outer its, PC its per outer it, TTS [s]
PAPER = {
    "BiCGS": ("1543 ± 245", "-", "5.0 ± 0.8"),
    "FBiCGS-G(BiCGS)": ("13 ± 3", "950 ± 10", "38 ± 8"),
    "FBiCGS-BJ(BiCGS)": ("125 ± 12", "370 ± 2", "35 ± 3"),
    "BiCGS-BJ(CI)": ("172 ± 20", "48", "1.0 ± 0.1"),
    "BiCGS-G(CI)": ("50 ± 2", "48", "3.3 ± 0.1"),
    "BiCGS-GNoComm(CI)": ("140 ± 12", "48", "0.77 ± 0.06"),
}
CONFIGS = [
    ("BiCGS", ["-pc_type", "none"]),
    ("FBiCGS-G(BiCGS)", ["-pc_type", "ksp", "-ksp_ksp_type", "bcgs", "-ksp_ksp_rtol", "1e-2",
                         "-ksp_ksp_max_it", "500", "-ksp_pc_type", "none"]),
    ("FBiCGS-BJ(BiCGS)", ["-pc_type", "bjacobi", "-sub_ksp_type", "bcgs", "-sub_ksp_rtol", "1e-6",
                          "-sub_ksp_max_it", "500", "-sub_pc_type", "none"]),
    ("BiCGS-BJ(CI)", ["-pc_type", "chebyci", "-pc_chebyci_mode", "block"]),
    ("BiCGS-G(CI)", ["-pc_type", "chebyci", "-pc_chebyci_mode", "global"]),
    ("BiCGS-GNoComm(CI)", ["-pc_type", "chebyci", "-pc_chebyci_mode", "nocomm"]),
]


def parse_log(path):
    """Event -> {count, mean, max} over ranks in the 'PPE Solve' stage of an ascii_csv -log_view."""
    per = {}
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split(",")
            if len(p) < 5 or p[0] != "PPE Solve":
                continue
            try:
                rank, count, t = int(p[2]), int(float(p[3])), float(p[4])
            except ValueError:
                continue
            per.setdefault(p[1].strip(), {})[rank] = (count, t)
    ev = {}
    for name, ranks in per.items():
        if not any(c for (c, _) in ranks.values()):
            continue  # events that did not run in the solve
        times = [t for (_, t) in ranks.values()]
        ev[name] = {"count": ranks.get(0, (0, 0))[0], "mean": sum(times) / len(times), "max": max(times),
                    "ranks": [ranks[r][1] for r in sorted(ranks)]}
    return ev


def run_one(args, name, opts, tmp):
    log = os.path.join(tmp, "log-%s.csv" % re.sub(r"\W", "_", name))
    cmd = ([args.mpiexec, "--oversubscribe", "-n", str(args.np), os.path.join(args.bindir, "ppe-solve"),
            "-problem", "bicgstab-paper", "-ppe_grid_n", str(args.n), "-ksp_type", "bcgsfused",
            "-ksp_rtol", "1e-10", "-ksp_max_it", "5000", "-ppe_json", "-ppe_history",
            "-log_view", ":%s:ascii_csv" % log] + opts)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,vader", OMPI_MCA_btl_vader_single_copy_mechanism="none",
               OMPI_MCA_mpi_yield_when_idle="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    t0 = time.time()
    out = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if out.returncode != 0:
        sys.exit("%s failed (exit %d):\n%s" % (name, out.returncode, out.stdout[-3000:]))
    rec = json.loads([l for l in out.stdout.splitlines() if l.startswith("{")][-1])
    rec["events"] = parse_log(log)
    rec["wall_s"] = time.time() - t0
    rec["command"] = " ".join(["mpiexec", "-n", str(args.np), "ppe-solve"] + cmd[6:])
    return rec


def ev_time(rec, *names, how="mean"):
    """Summed time of events (mean or max over ranks)."""
    return sum(rec["events"].get(n, {}).get(how, 0.0) for n in names)


def ev_ranks(rec, *names):
    """Per-rank summed time of events."""
    out = None
    for n in names:
        r = rec["events"].get(n, {}).get("ranks")
        if r:
            out = list(r) if out is None else [a + b for a, b in zip(out, r)]
    return out or [0.0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bindir", default=os.path.join(TOP, "build", "src", "tools"))
    ap.add_argument("--n", type=int, default=128)
    ap.add_argument("--np", type=int, default=8)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--mpiexec", default=os.environ.get("MPIEXEC", "mpiexec"))
    ap.add_argument("--docs", default=os.path.join(TOP, "docs"))
    ap.add_argument("--only", help="comma-separated solver names (others are not run or written)")
    ap.add_argument("--quick", action="store_true", help="32^3 on 4 ranks, results not written to docs")
    args = ap.parse_args()
    if args.quick:
        args.n, args.np = 32, 4
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, opts in CONFIGS:
            if args.only and name not in args.only.split(","):
                continue
            recs = [run_one(args, name, opts, tmp) for _ in range(args.runs)]
            rec = recs[0]
            rec["solve_runs"] = [r["solve_s"] for r in recs]
            rec["solve_s"] = statistics.median(rec["solve_runs"])
            results[name] = rec
            print("%-18s %5d its  %8s pc its/it  %8.3f s  %7d reductions  %7d halo exchanges  (%s, %.0f s wall)" % (
                name, rec["its"], "%.1f" % (rec["pc_its"] / rec["its"]) if rec.get("pc_its") is not None else "-",
                rec["solve_s"], rec["reductions"], rec["halo_exchanges"], rec["reason"], rec["wall_s"]), flush=True)
    report = write_report(args, results)
    print(report["checks"])
    if args.quick or args.only:
        return
    with open(os.path.join(args.docs, "chebyci-table2.json"), "w") as f:
        json.dump({"n": args.n, "np": args.np, "runs": args.runs, "results": results}, f, indent=1)
    plot(args, results, os.path.join(args.docs, "chebyci-table2-residuals.png"))
    md = os.path.join(args.docs, "types", "chebyci.md")
    text = open(md).read()
    for key in ("table2", "breakdown", "latency", "checks"):
        begin, end = "<!-- BEGIN %s -->" % key, "<!-- END %s -->" % key
        i, j = text.index(begin) + len(begin), text.index(end)
        text = text[:i] + "\n" + report[key] + "\n" + text[j:]
    open(md, "w").write(text)
    print("wrote %s, docs/chebyci-table2.json, docs/chebyci-table2-residuals.png" % md)


def write_report(args, R):
    host = "%d ranks on %d cores" % (args.np, os.cpu_count() or 0)
    rep = {}
    rows = ["| solver | outer it. (paper) | outer it. | PC it. / outer it. (paper) | PC it. / outer it. | TTS [s] (paper, 64 GCDs) | TTS [s] here | reductions | halo exchanges | synchronisations |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for name, _ in CONFIGS:
        if name not in R:
            continue
        r = R[name]
        p = PAPER[name]
        pci = "%.1f" % (r["pc_its"] / r["its"]) if r.get("pc_its") is not None else "-"
        rows.append("| %s | %s | %d | %s | %s | %s | %.3g | %d | %d | %d |" % (
            name, p[0], r["its"], p[1], pci, p[2], r["solve_s"], r["reductions"], r["halo_exchanges"],
            r["reductions"] + r["halo_exchanges"]))
    rep["table2"] = ("Measured: %d^3 vertices on %s (%s), rtol 1e-10, %s; reductions and halo exchanges "
                     "counted per solve (maximum over ranks). Paper: 256^3 on 64 GCDs of LUMI-G, mean ± "
                     "std of 5 runs.\n\n" % (args.n, host, "64^3 per rank" if args.n // round(args.np ** (1 / 3)) == 64 else "%d ranks" % args.np,
                                              "one run" if args.runs == 1 else "median of %d runs" % args.runs)
                     + "\n".join(rows))
    # Per-phase breakdown: mean over ranks of each event (events nest; see docs)
    rows = ["| solver | KSPSolve | PCApply | stencil sweeps | of which halo wait | bcgsfused reductions | bcgsfused kernels | sync wait (halo + reductions) | local work = KSPSolve - sync wait |",
            "|---|---|---|---|---|---|---|---|---|"]
    for name, _ in CONFIGS:
        if name not in R:
            continue
        r = R[name]
        solve = ev_ranks(r, "KSPSolve")
        wait = [a + b for a, b in zip(ev_ranks(r, "PPEStencilHalo"), ev_ranks(r, "PPEBCGSFReduce"))] if len(solve) > 1 else [0.0]
        if len(wait) != len(solve):
            wait = [0.0] * len(solve)
        r["sync_wait_s"] = sum(wait) / len(wait)
        r["local_s"] = sum(s_ - w_ for s_, w_ in zip(solve, wait)) / len(solve)
        rows.append("| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |" % (
            name, ev_time(r, "KSPSolve"), ev_time(r, "PCApply"), ev_time(r, "PPEStencilMult", "PPEStencilLocal"),
            ev_time(r, "PPEStencilHalo"), ev_time(r, "PPEBCGSFReduce"), ev_time(r, "PPEBCGSFKernel"),
            r["sync_wait_s"], r["local_s"]))
    rep["breakdown"] = "\n".join(rows)
    # Latency model: T(L) = T_local + S L
    lines = []
    if "BiCGS" in R:
        b = R["BiCGS"]
        Sb = b["reductions"] + b["halo_exchanges"]
        Tb = b["local_s"]
        lines.append("| solver | S (synchronisations) | T_local [s] | measured wait per synchronisation here [us] | L* against BiCGS [us] |")
        lines.append("|---|---|---|---|---|")
        for name, _ in CONFIGS:
            if name not in R or name.startswith("FBiCGS"):
                continue
            r = R[name]
            S = r["reductions"] + r["halo_exchanges"]
            T = r["local_s"]
            w = 1e6 * r["sync_wait_s"] / S if S else float("nan")
            if name == "BiCGS":
                ls = "-"
            elif S >= Sb:
                ls = "never (not fewer synchronisations)"
            elif T <= Tb:
                ls = "0 (wins at any latency)"
            else:
                ls = "%.0f" % (1e6 * (T - Tb) / (Sb - S))
            r["L_star_us"] = ls
            lines.append("| %s | %d | %.3f | %.0f | %s |" % (name, S, T, w, ls))
    rep["latency"] = "\n".join(lines)
    # Acceptance checks
    it = {k: v["its"] for k, v in R.items()}
    chk = []
    if all(k in it for k in ("FBiCGS-G(BiCGS)", "BiCGS-G(CI)", "FBiCGS-BJ(BiCGS)", "BiCGS-BJ(CI)")):
        ok = it["FBiCGS-G(BiCGS)"] < it["BiCGS-G(CI)"] < min(it["FBiCGS-BJ(BiCGS)"], it["BiCGS-BJ(CI)"])
        chk.append("- ordering of outer iterations G(BiCGS) %d < G(CI) %d < BJ(BiCGS) %d and BJ(CI) %d: **%s**" % (
            it["FBiCGS-G(BiCGS)"], it["BiCGS-G(CI)"], it["FBiCGS-BJ(BiCGS)"], it["BiCGS-BJ(CI)"], "holds" if ok else "does not hold"))
    if all(k in it for k in ("BiCGS", "BiCGS-BJ(CI)", "BiCGS-GNoComm(CI)")):
        chk.append("- BJ(CI) and GNoComm(CI) against no preconditioner: %.1fx and %.1fx fewer outer iterations" % (
            it["BiCGS"] / it["BiCGS-BJ(CI)"], it["BiCGS"] / it["BiCGS-GNoComm(CI)"]))
    if "BiCGS" in R and "BiCGS-GNoComm(CI)" in R:
        sb = R["BiCGS"]["reductions"] + R["BiCGS"]["halo_exchanges"]
        sg = R["BiCGS-GNoComm(CI)"]["reductions"] + R["BiCGS-GNoComm(CI)"]["halo_exchanges"]
        chk.append("- synchronisations per solve, BiCGS %d / GNoComm(CI) %d = %.1fx (needs >= 8x): **%s**" % (
            sb, sg, sb / sg, "holds" if sb >= 8 * sg else "does not hold"))
    rep["checks"] = "\n".join(chk)
    return rep


def plot(args, R, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    for name, _ in CONFIGS:
        h = R[name].get("history") or []
        if h:
            ax.semilogy(range(len(h)), [v / h[0] for v in h], label="%s (%d)" % (name, len(h) - 1))
    ax.set_xscale("symlog", linthresh=10)
    ax.set_xlabel("outer iteration")
    ax.set_ylabel("||r|| / ||b||")
    ax.axhline(1e-10, color="0.6", lw=0.8, ls="--")
    ax.set_title("bicgstab-paper, %d^3, %d ranks, bcgsfused outer solver" % (args.n, args.np))
    ax.grid(True, which="major", lw=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
