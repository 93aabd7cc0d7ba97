"""For t511: recompute from results.jsonl (ppe-solve's own numbers in "ppe_solve") what
ppe-study derived: the above-rtol mark, steps_to_amortise, total_100_steps_s, the model
T(L) = T_local + S L and the crossovers. Prints one line per check, "ok - ..." or
"not ok - ..."; argv: OUTDIR [expected crossovers X:Y:E ...], E: L* (recomputed),
=VALUE, any (the case the numbers give) or the words ("wins at any L", "never")."""
import json
import math
import sys

out, expect = sys.argv[1], sys.argv[2:]
rows = [json.loads(l) for l in open(out + "/results.jsonl")]
table = open(out + "/table.md").read()
csvhead = open(out + "/results.csv").readline().strip().split(",")


def check(ok, what):
    print(("ok - " if ok else "not ok - ") + what)


def close(a, b):
    return a is not None and b is not None and abs(a - b) <= 1e-12 + 1e-9 * abs(b)


lat = [2e-6, 2e-5, 1e-4]
bad = [r["solver"] for r in rows if r["status"] == "ok" and not r["rnorm_rel"] <= r["rtol"] * 1.001]
check(not bad, "every ok row has rnorm_rel <= rtol (%d ok rows; not: %s)" % (
    sum(r["status"] == "ok" for r in rows), bad))
above = [r["solver"] for r in rows if r["ppe_solve"] and r["ppe_solve"]["reason"].startswith("CONVERGED")
         and r["ppe_solve"]["rnorm_rel"] > r["ppe_solve"]["rtol"] * 1.001 and
         (r["status"] != "above-rtol" or "above rtol" not in r["note"])]
check(not above, "a converged row above rtol is marked above-rtol with a note (unmarked: %s)" % above)
check("| stop |" in table and all(r["stop"] == r["ppe_solve"]["stop_norm"] and r["stop"] for r in rows),
      "the table has a stop column, and each row the JSON's stop_norm")
bad = [r["solver"] for r in rows if r["steps_to_amortise"] != math.ceil(r["ppe_solve"]["setup_s"] / r["ppe_solve"]["solve_s"])
       or not close(r["total_100_steps_s"], r["ppe_solve"]["setup_s"] + 100 * r["ppe_solve"]["solve_s"])]
check(not bad, "steps_to_amortise = ceil(setup_s / solve_s), total_100_steps_s = setup_s + 100 solve_s (wrong: %s)" % bad)
bad = []
for r in rows:
    j = r["ppe_solve"]
    own = j["local_s"] + j["syncs"] * j["latency_s"]
    if not (close(r["t_model_own_s"], own) and close(r["t_model_rel"], (own - j["solve_s"]) / j["solve_s"])
            and all(close(t, j["local_s"] + j["syncs"] * L) for t, L in zip(r["t_model_s"], lat))
            and ("| %s | %s | %.3g | %.3g | %.3g | %.3g |" % (r["solver"], j["syncs"], j["local_s"], j["solve_s"],
                                                              j["latency_s"], own)) in table):
        bad.append(r["solver"])
check(not bad, "model: T at the own L = local_s + syncs latency_s, T(L) at 2e-6,2e-5,1e-4, in the table (wrong: %s)" % bad)
check(all("T(L=%g)" % L in csvhead for L in lat) and "steps_to_amortise" in csvhead and "stop" in csvhead,
      "results.csv has stop, steps_to_amortise and a T(L) column per L")
for e in expect:
    x, y, want = e.split(":")
    rx = next(r for r in rows if r["solver"] == x)
    ry = next(r for r in rows if r["solver"] == y and r["grid"] == rx["grid"] and r["ranks"] == rx["ranks"])
    jx, jy = rx["ppe_solve"], ry["ppe_solve"]
    if want == "any":  # whichever case the measured numbers give
        dt, ds = jx["local_s"] - jy["local_s"], jy["syncs"] - jx["syncs"]
        want = "L*" if dt * ds > 0 else "wins at any L" if dt < 0 or (dt == 0 and ds > 0) else "never"
    if want == "L*":
        ls = (jx["local_s"] - jy["local_s"]) / (jy["syncs"] - jx["syncs"])
        ok = rx["crossover_vs"] == y and close(rx["crossover_L_s"], ls) and ("L* = %.3g s" % ls) in table
        check(ok, "crossover %s against %s: L* = %.4g s, recomputed %.4g s" % (x, y, rx.get("crossover_L_s") or 0, ls))
    elif want.startswith("="):
        check(rx["crossover_vs"] == y and close(rx.get("crossover_L_s"), float(want[1:])),
              "crossover %s against %s: L* = %s s, expected %s" % (x, y, rx.get("crossover_L_s"), want[1:]))
    else:
        check(rx["crossover_vs"] == y and rx["crossover"] == want and rx.get("crossover_L_s") is None,
              "crossover %s against %s: %r, expected %r" % (x, y, rx.get("crossover"), want))
