/*
   ppe-solve's JSON lines: -ppe_config (this PPEKit, the PETSc it runs on, its packages and
   back ends) and -ppe_json (the problem, the solver, the results, the counters and, with
   -ppe_history, the residual history). Keys and types: docs/ppe-solve.md.
*/
#include "ppe-solve.h"
#include <petsc/private/kspimpl.h>
#include <stdarg.h>
#include <stdio.h>

/* The JSON line is formatted with the C library: PETSc's printf family rewrites %g. */
typedef struct {
  char  *buf;
  size_t len, cap;
} JSON;

static PetscErrorCode JSONAppend(JSON *j, const char fmt[], ...)
{
  va_list ap;
  int     n;

  PetscFunctionBegin;
  va_start(ap, fmt);
  n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (j->len + (size_t)n + 1 > j->cap) {
    size_t cap = PetscMax(2 * j->cap, j->len + (size_t)n + 1024);
    PetscCall(PetscRealloc(cap, &j->buf));
    j->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(j->buf + j->len, j->cap - j->len, fmt, ap);
  va_end(ap);
  j->len += (size_t)n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void JSONNumber(char *buf, size_t len, PetscBool valid, PetscReal v)
{
  if (valid && !PetscIsInfOrNanReal(v)) snprintf(buf, len, "%.6e", (double)v);
  else snprintf(buf, len, "null");
}

/* External packages of PETSc that solver configurations name (ppe-study drops the rows whose
   package the PETSc in use lacks); PetscHasExternalPackage() answers for the PETSc loaded. */
static const char *const ConfigPackages[] = {"hypre", "mumps", "superlu_dist", "superlu", "suitesparse", "strumpack", "ml", "scalapack", "fftw3", "hdf5", "cuda", "hip", "kokkos"};

/* -ppe_config: one JSON line describing this PPEKit and the PETSc it runs on, printed before
   the solve (the solve's JSON line, -ppe_json, stays the last line that starts with '{') */
PetscErrorCode PrintConfig(MPI_Comm comm)
{
  JSON     j = {NULL, 0, 0};
  PetscInt v[3]; /* the PETSc library's version (PetscInt: 64-bit with 64-bit indices) */

  PetscFunctionBegin;
  PetscCall(PetscGetVersionNumber(&v[0], &v[1], &v[2], NULL));
  PetscCall(JSONAppend(&j, "{\"ppekit\": \"%s\", \"petsc\": \"%d.%d.%d\", \"petsc_built_with\": \"%d.%d.%d\", \"index_bits\": %d, ", PPEKIT_VERSION_STRING, (int)v[0], (int)v[1], (int)v[2], PPEKIT_PETSC_VERSION_MAJOR, PPEKIT_PETSC_VERSION_MINOR,
                       PPEKIT_PETSC_VERSION_SUBMINOR, (int)(8 * sizeof(PetscInt))));
  PetscCall(JSONAppend(&j, "\"packages\": {"));
  for (size_t i = 0; i < sizeof(ConfigPackages) / sizeof(ConfigPackages[0]); i++) {
    PetscBool has;

    PetscCall(PetscHasExternalPackage(ConfigPackages[i], &has));
    PetscCall(JSONAppend(&j, "%s\"%s\": %s", i ? ", " : "", ConfigPackages[i], has ? "true" : "false"));
  }
  PetscCall(JSONAppend(&j, "}, \"backends\": {\"cuda\": %s, \"hip\": %s, \"emu\": true}}", PPEKIT_HAVE_CUDA ? "true" : "false", PPEKIT_HAVE_HIP ? "true" : "false"));
  PetscCall(PetscPrintf(comm, "%s\n", j.buf));
  PetscCall(PetscFree(j.buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "[a, b, c]": n integers as a JSON list */
static PetscErrorCode JSONInts(JSON *j, PetscInt n, const PetscInt v[])
{
  PetscFunctionBegin;
  PetscCall(JSONAppend(j, "["));
  for (PetscInt i = 0; i < n; i++) PetscCall(JSONAppend(j, "%s%d", i ? ", " : "", (int)v[i]));
  PetscCall(JSONAppend(j, "]"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "[a, b, c]": n reals as a JSON list (null where not finite) */
static PetscErrorCode JSONReals(JSON *j, PetscInt n, const PetscReal v[])
{
  PetscFunctionBegin;
  PetscCall(JSONAppend(j, "["));
  for (PetscInt i = 0; i < n; i++) {
    char s[32];

    JSONNumber(s, sizeof(s), PETSC_TRUE, v[i]);
    PetscCall(JSONAppend(j, "%s%s", i ? ", " : "", s));
  }
  PetscCall(JSONAppend(j, "]"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The problem and its grid as the user gave it, one entry per direction: sizes, process
   counts, and two BC letters (xlo xhi ylo yhi [zlo zhi]); a 2D grid gives [nx, ny], four
   letters and [px, py] */
static PetscErrorCode JSONProblem(JSON *j, const Run *run, const GridInfo *g)
{
  PetscFunctionBegin;
  PetscCall(JSONAppend(j, "{\"problem\": \"%s\", \"dim\": %d, \"n\": ", PPEProblemNames[run->o.problem], (int)g->dim));
  PetscCall(JSONInts(j, g->dim, g->n));
  PetscCall(JSONAppend(j, ", \"location\": \"%s\", \"bc\": \"%s\", \"stretch\": \"%s\", \"shift\": %.17g, ", PPELocations[g->loc], g->bc, PPEStretchTypes[g->stretch], (double)g->shift));
  PetscCall(JSONAppend(j, "\"ranks\": %d, \"procs\": ", (int)run->size));
  PetscCall(JSONInts(j, g->dim, g->procs));
  PetscCall(JSONAppend(j, ", "));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The norm the KSP compared with rtol, in lower case ("preconditioned", ...) */
static PetscErrorCode NormName(KSP ksp, char name[], size_t len)
{
  KSPNormType nt;

  PetscFunctionBegin;
  PetscCall(KSPGetNormType(ksp, &nt));
  PetscCall(PetscStrncpy(name, KSPNormTypes[nt], len));
  for (char *c = name; *c; c++)
    if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The solver and the solve: what solved it, iterations, residual and errors, times, waits,
   the stopping rule */
static PetscErrorCode JSONSolve(JSON *j, const Run *run)
{
  const Results *res = &run->res;
  const Timings *t   = &run->t;
  PetscReal      med = t->solve_med;
  char           emaxs[32], el2s[32], rrels[32], rtols[32], means[32], nl[32];
  KSPType        ksptype;
  PCType         pctype;
  VecType        vtype;

  PetscFunctionBegin;
  PetscCall(KSPGetType(run->ksp, &ksptype));
  PetscCall(PCGetType(run->pc, &pctype));
  JSONNumber(emaxs, sizeof(emaxs), run->known, res->emax);
  JSONNumber(el2s, sizeof(el2s), run->known, res->el2);
  /* a diverged solve (or -ksp_rtol nan) gives Inf or NaN, which JSON cannot hold: null */
  JSONNumber(rrels, sizeof(rrels), PETSC_TRUE, res->rrel);
  JSONNumber(rtols, sizeof(rtols), PETSC_TRUE, res->rtol);
  JSONNumber(means, sizeof(means), PETSC_TRUE, run->rhs_mean);
  PetscCall(VecGetType(run->b, &vtype));
  PetscCall(JSONAppend(j, "\"operator\": \"%s\", \"pmat\": \"%s\", \"ksp\": \"%s\", \"pc\": \"%s\", \"backend\": \"%s\", \"vec_type\": \"%s\", \"rtol\": %s, ", OperatorTypes[run->o.op], PmatTypes[run->o.pmat], ksptype, pctype,
                       PPEBackends[res->backend], vtype, rtols));
  PetscCall(JSONAppend(j, "\"its\": %d, \"reason\": \"%s\", \"rnorm_rel\": %s, \"err_max\": %s, \"err_l2\": %s, \"rhs_mean_removed\": %s, ", (int)res->its, KSPConvergedReasons[res->reason], rrels, emaxs, el2s, means));
  if (run->inner.valid) PetscCall(JSONAppend(j, "\"pc_its\": %d, ", (int)run->inner.its));
  else PetscCall(JSONAppend(j, "\"pc_its\": null, "));
  PetscCall(JSONAppend(j, "\"op_s\": %.6e, \"setup_s\": %.6e, \"solve_s\": %.6e, \"solve_s_min\": %.6e, \"solve_s_max\": %.6e, \"repeat\": %d, ", (double)t->op_s, (double)t->setup_s, (double)med, (double)t->solve_min, (double)t->solve_max,
                       (int)run->o.repeat));
  PetscCall(JSONAppend(j, "\"device_bytes\": %.0f, \"device_halo_bytes\": %.0f, \"repeat_its\": ", res->c.device_bytes, res->c.device_halo_bytes));
  PetscCall(JSONInts(j, run->o.repeat, t->its));
  {
    char      coefs[32], steps[32], bmins[32], bmaxs[32];
    PetscReal bmin = 1, bmax = 1;
    if (run->var) PetscCall(PPEStencilGetCoefficients(run->Av, NULL, &bmin, &bmax));
    JSONNumber(coefs, sizeof(coefs), (PetscBool)(t->coef_med >= 0), t->coef_med);
    JSONNumber(steps, sizeof(steps), (PetscBool)(t->step_med >= 0), t->step_med);
    JSONNumber(bmins, sizeof(bmins), run->var, bmin);
    JSONNumber(bmaxs, sizeof(bmaxs), run->var, bmax);
    PetscCall(JSONAppend(j, ", \"variable\": %s, \"beta_min\": %s, \"beta_max\": %s, \"bubbles_move\": %s, \"step_coef_s\": %s, \"step_setup_s\": %s", run->var ? "true" : "false", bmins, bmaxs, run->o.move ? "true" : "false", coefs, steps));
    if (run->var) {
      PPEFaceMean fm;
      PetscCall(PPEStencilGetFaceMean(run->Av, &fm));
      PetscCall(JSONAppend(j, ", \"face_mean\": \"%s\"", PPEFaceMeans[fm]));
    } else PetscCall(JSONAppend(j, ", \"face_mean\": null"));
  }
  if (run->bubbles) {
    const PPEBubbles *B = &run->bub;
    char              ratio[32], radius[32], vel[32];
    JSONNumber(ratio, sizeof(ratio), PETSC_TRUE, B->ratio);
    JSONNumber(radius, sizeof(radius), PETSC_TRUE, B->radius);
    JSONNumber(vel, sizeof(vel), PETSC_TRUE, B->velocity);
    PetscCall(
      JSONAppend(j, ", \"density_ratio\": %s, \"bubbles\": %" PetscInt_FMT ", \"bubbles_radius\": %s, \"bubbles_seed\": %" PetscInt_FMT ", \"bubbles_velocity\": %s, \"bubbles_step\": %" PetscInt_FMT, ratio, B->n, radius, B->seed, vel, B->step));
  } else PetscCall(JSONAppend(j, ", \"density_ratio\": null, \"bubbles\": null, \"bubbles_radius\": null, \"bubbles_seed\": null, \"bubbles_velocity\": null, \"bubbles_step\": null"));
  PetscCall(JSONAppend(j, ", \"sync_s\": %.6e, \"local_s\": %.6e, \"latency_s\": %.6e, \"syncs\": %.0f, ", (double)t->sync_s, (double)(med - t->sync_s), (double)t->latency_s, res->c.reductions + res->c.halo_exchanges));
  PetscCall(NormName(run->ksp, nl, sizeof(nl)));
  PetscCall(JSONAppend(j, "\"stop\": \"%s\", \"stop_norm\": \"%s\", \"true_checks\": %d, ", StopTypes[run->o.stop], run->o.stop == STOP_TRUE ? run->stop.norm : nl, (int)res->checks));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The communication counters, the memory and the versions */
static PetscErrorCode JSONCounters(JSON *j, const Run *run)
{
  const PPECounters *c = &run->res.c;
  PetscInt           v[3]; /* PETSc library version */

  PetscFunctionBegin;
  PetscCall(PetscGetVersionNumber(&v[0], &v[1], &v[2], NULL));
  PetscCall(JSONAppend(j, "\"reductions\": %.0f, \"halo_exchanges\": %.0f, \"bytes_sent\": %.0f, \"mem_mb\": %.1f, \"ppekit\": \"%s\", \"petsc\": \"%d.%d.%d\", \"index_bits\": %d", c->reductions, c->halo_exchanges, c->bytes_sent,
                       (double)run->res.mem_mb, PPEKIT_VERSION_STRING, (int)v[0], (int)v[1], (int)v[2], (int)(8 * sizeof(PetscInt))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ppe_history: the KSP's residual norms, the iteration of each, the true residual against time */
static PetscErrorCode JSONHistory(JSON *j, const Run *run)
{
  const History   *hist = &run->hist;
  const PetscReal *h;
  PetscInt         nh;
  KSPNormType      nt;

  PetscFunctionBegin;
  PetscCall(KSPGetResidualHistory(run->ksp, &h, &nh));
  PetscCall(KSPGetNormType(run->ksp, &nt));
  PetscCall(JSONAppend(j, ", \"norm_type\": \"%s\", \"history\": ", KSPNormTypes[nt]));
  PetscCall(JSONReals(j, nh, h));
  if (hist->n == nh) { /* the iteration of each value (else a monitor was skipped: left out) */
    PetscCall(JSONAppend(j, ", \"history_its\": "));
    PetscCall(JSONInts(j, nh, hist->its));
  }
  PetscCall(JSONAppend(j, ", \"history_true\": "));
  PetscCall(JSONReals(j, hist->n, hist->tr));
  PetscCall(JSONAppend(j, ", \"history_s\": ["));
  for (PetscInt i = 0; i < hist->n; i++) PetscCall(JSONAppend(j, "%s%.6e", i ? ", " : "", (double)hist->ts[i]));
  PetscCall(JSONAppend(j, "]"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The JSON line (-ppe_json), printed by rank 0 */
PetscErrorCode PrintJSON(const Run *run, const GridInfo *g)
{
  JSON        j = {NULL, 0, 0};
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCall(JSONProblem(&j, run, g));
  PetscCall(JSONSolve(&j, run));
  PetscCall(JSONCounters(&j, run));
  if (run->o.history) PetscCall(JSONHistory(&j, run));
  PetscCall(JSONAppend(&j, "}"));
  PetscCallMPI(MPI_Comm_rank(run->comm, &rank));
  if (rank == 0) {
    fprintf(stdout, "%s\n", j.buf);
    fflush(stdout);
  }
  PetscCall(PetscFree(j.buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}
