static const char help[] = "ppe-solve: builds a pressure-Poisson problem on a PPEGrid and solves it with any\n\
PETSc KSP/PC (-ksp_type, -pc_type, ... work unchanged), then reports iterations, true\n\
residual, error against the exact solution, times and communication, as text and, with\n\
-ppe_json, as one JSON line.\n\n";

/*
   The JSON line (-ppe_json) is the contract read by studies and benchmarks; the keys are
   listed in docs/ppe-solve.md. Times are the maximum over ranks; solve_s is the median over
   -ppe_repeat solves, each started from a zero initial guess.
*/
#include <ppekit.h>
#include <petsc/private/kspimpl.h> /* the table of the norms a KSP supports (-ppe_stop true) */
#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>

typedef enum {
  OP_MATFREE,
  OP_AIJ
} OperatorType;
static const char *const OperatorTypes[] = {"matfree", "aij", "OperatorType", "OP_", NULL};

typedef enum {
  PMAT_SAME,
  PMAT_MATFREE,
  PMAT_AIJ
} PmatType;
static const char *const PmatTypes[] = {"same", "matfree", "aij", "PmatType", "PMAT_", NULL};

typedef enum {
  STOP_KSP,
  STOP_TRUE
} StopType;
static const char *const StopTypes[] = {"ksp", "true", "StopType", "STOP_", NULL};

/* Seconds blocked in MPI while counting (ppe-mpiwait.c, through MPI's profiling interface) */
void   PPEWaitStart(void);
double PPEWaitStop(void);

typedef struct {
  PPEProblemType problem;
  OperatorType   op;
  PmatType       pmat;
  char           asmtype[64];
  PetscInt       repeat;
  StopType       stop;
  PetscBool      json, history, config;
  PetscReal      rtol;
} Options;

static PetscErrorCode GetOptions(MPI_Comm comm, Options *o)
{
  PetscInt  p = 0;
  PetscBool flg;

  PetscFunctionBegin;
  o->problem = PPE_PROBLEM_MMS;
  o->op      = OP_MATFREE;
  o->pmat    = PMAT_SAME;
  o->repeat  = 1;
  o->stop    = STOP_KSP;
  o->json    = PETSC_FALSE;
  o->history = PETSC_FALSE;
  o->config  = PETSC_FALSE;
  o->rtol    = 1e-8;
  PetscCall(PetscStrncpy(o->asmtype, MATAIJ, sizeof(o->asmtype)));
  PetscOptionsBegin(comm, NULL, "ppe-solve options", "PPEKit");
  PetscCall(PetscOptionsEList("-ppe_problem", "Problem: mms, channel or bicgstab-paper", "PPEProblemSetGridDefaults", PPEProblemNames, 3, PPEProblemNames[0], &p, &flg));
  {
    /* the short form is always read, so that it is never silently ignored: given with
       -ppe_problem, both must name the same problem */
    PetscInt  ps = p;
    PetscBool sflg;

    PetscCall(PetscOptionsEList("-problem", "Short form of -ppe_problem", "PPEProblemSetGridDefaults", PPEProblemNames, 3, PPEProblemNames[0], &ps, &sflg));
    PetscCheck(!flg || !sflg || ps == p, comm, PETSC_ERR_ARG_INCOMP, "-ppe_problem %s and -problem %s name different problems: give one of them", PPEProblemNames[p], PPEProblemNames[ps]);
    if (sflg) p = ps;
  }
  o->problem = (PPEProblemType)p;
  PetscCall(PetscOptionsEnum("-ppe_operator", "Operator: matrix-free stencil or assembled", "PPEStencilCreate", OperatorTypes, (PetscEnum)o->op, (PetscEnum *)&o->op, NULL));
  PetscCall(PetscOptionsEnum("-ppe_pmat", "Preconditioning matrix: same as the operator, matfree or aij", "KSPSetOperators", PmatTypes, (PetscEnum)o->pmat, (PetscEnum *)&o->pmat, NULL));
  PetscCall(PetscOptionsString("-ppe_assembled_type", "Matrix type of the assembled operator (aij, hyprestruct, ...)", "PPEStencilCreateAssembled", o->asmtype, o->asmtype, sizeof(o->asmtype), NULL));
  PetscCall(PetscOptionsInt("-ppe_repeat", "Number of timed solves, each with another right-hand side but the last (the problem's own); the median time is reported", NULL, o->repeat, &o->repeat, NULL));
  PetscCall(PetscOptionsEnum("-ppe_stop", "Stopping rule: ksp (the KSP's own test and norm) or true (the true relative residual norm(b - A x) / norm(b) <= rtol, for every KSP alike)", "KSPSetConvergenceTest", StopTypes, (PetscEnum)o->stop, (PetscEnum *)&o->stop, NULL));
  PetscCheck(o->repeat >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ppe_repeat must be >= 1, got %" PetscInt_FMT, o->repeat);
  PetscCall(PetscOptionsReal("-ppe_rtol", "Default relative tolerance (-ksp_rtol overrides)", "KSPSetTolerances", o->rtol, &o->rtol, NULL));
  PetscCall(PetscOptionsBool("-ppe_json", "Print one JSON line with the results", NULL, o->json, &o->json, NULL));
  PetscCall(PetscOptionsBool("-ppe_history", "Record the residual histories (in the JSON line): the KSP's norm, and the true residual against time, from one more, untimed solve", "KSPSetResidualHistory", o->history, &o->history, NULL));
  PetscCall(PetscOptionsBool("-ppe_config", "Print a JSON line with PPEKit's and PETSc's configuration (versions, index size, PETSc's external packages) before the solve", NULL, o->config, &o->config, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateOperator(PPEGrid grid, PetscBool matfree, const char asmtype[], Mat *A)
{
  PetscFunctionBegin;
  if (matfree) PetscCall(PPEStencilCreate(grid, A));
  else PetscCall(PPEStencilCreateAssembled(grid, asmtype, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CompareReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return (x > y) - (x < y);
}

/* Seconds since t0, maximum over ranks. */
static PetscErrorCode MaxElapsed(MPI_Comm comm, PetscLogDouble t0, PetscReal *s)
{
  PetscLogDouble t1;
  PetscReal      loc;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t1));
  loc = (PetscReal)(t1 - t0);
  PetscCall(MPIU_Allreduce(&loc, s, 1, MPIU_REAL, MPIU_MAX, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Iterations inside the preconditioner: the KSPs of PCKSP and PCBJACOBI (counted by a monitor,
   the maximum over ranks for the sub-solves of block Jacobi), or PCCHEBYCI's fixed iterations
   times its applications. valid is false for other preconditioners.
*/
typedef struct {
  PC        pc;
  PetscBool valid, cheby;
  PetscInt  its, applied0, cheby_its;
} InnerIts;

static PetscErrorCode InnerMonitor(KSP k, PetscInt it, PetscReal rn, void *ctx)
{
  PetscFunctionBegin;
  if (it > 0) ((InnerIts *)ctx)->its++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InnerItsSetUp(PC pc, InnerIts *c)
{
  PetscBool is;

  PetscFunctionBegin;
  c->pc    = pc;
  c->valid = c->cheby = PETSC_FALSE;
  c->its   = 0;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCKSP, &is));
  if (is) {
    KSP inner;
    PetscCall(PCKSPGetKSP(pc, &inner));
    PetscCall(KSPMonitorSet(inner, InnerMonitor, c, NULL));
    c->valid = PETSC_TRUE;
  }
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCBJACOBI, &is));
  if (is) {
    KSP     *sub;
    PetscInt nl;
    PetscCall(PCBJacobiGetSubKSP(pc, &nl, NULL, &sub));
    for (PetscInt i = 0; i < nl; i++) PetscCall(KSPMonitorSet(sub[i], InnerMonitor, c, NULL));
    c->valid = PETSC_TRUE;
  }
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCHEBYCI, &is));
  if (is) {
    PetscCall(PCChebyCIGetIterations(pc, &c->cheby_its));
    c->valid = c->cheby = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InnerItsStart(InnerIts *c)
{
  PetscFunctionBegin;
  c->its = 0;
  if (c->cheby) PetscCall(PCChebyCIGetApplications(c->pc, &c->applied0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InnerItsStop(InnerIts *c)
{
  PetscFunctionBegin;
  if (c->cheby) {
    PetscInt n;
    PetscCall(PCChebyCIGetApplications(c->pc, &n));
    c->its = c->cheby_its * (n - c->applied0);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||b - A x|| of the KSP's current iterate (t, v: work vectors) */
static PetscErrorCode TrueResidualNorm(KSP ksp, Vec t, Vec v, PetscReal *nrm)
{
  Vec r;

  PetscFunctionBegin;
  PetscCall(KSPBuildResidual(ksp, t, v, &r));
  PetscCall(VecNorm(r, NORM_2, nrm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The history of the untimed solve of -ppe_history: at each monitor call the iteration (s-step
   methods such as cbcg monitor once per block), the true relative residual, and the seconds
   since the solve started less the monitor's own time (its true residual costs an operator
   application).
*/
typedef struct {
  PetscBool      on;
  PetscInt       n, cap, *its;
  PetscReal     *tr, *ts;
  PetscReal      bnorm;
  PetscLogDouble t0, over;
  Vec            t, v;
} History;

static PetscErrorCode HistoryMonitor(KSP ksp, PetscInt it, PetscReal rnorm, void *ctx)
{
  History       *h = (History *)ctx;
  PetscLogDouble t1, t2;
  PetscReal      tr;

  PetscFunctionBegin;
  (void)rnorm;
  if (!h->on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscTime(&t1));
  if (h->n == h->cap) {
    PetscInt  *its;
    PetscReal *a, *b;
    h->cap = h->cap ? 2 * h->cap : 64;
    PetscCall(PetscMalloc3(h->cap, &its, h->cap, &a, h->cap, &b));
    if (h->n) {
      PetscCall(PetscArraycpy(its, h->its, h->n));
      PetscCall(PetscArraycpy(a, h->tr, h->n));
      PetscCall(PetscArraycpy(b, h->ts, h->n));
    }
    PetscCall(PetscFree3(h->its, h->tr, h->ts));
    h->its = its;
    h->tr  = a;
    h->ts  = b;
  }
  PetscCall(TrueResidualNorm(ksp, h->t, h->v, &tr));
  h->its[h->n] = it;
  h->tr[h->n]  = h->bnorm > 0 ? tr / h->bnorm : tr;
  h->ts[h->n]  = (PetscReal)(t1 - h->t0 - h->over);
  h->n++;
  PetscCall(PetscTime(&t2));
  h->over += t2 - t1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   -ppe_stop true: stop when the true relative residual ||b - A x|| / ||b|| is at most rtol (or
   ||b - A x|| at most abstol), whatever norm the KSP iterates with, so that "iterations" means
   the same for every KSP and PC. A KSP that supports the unpreconditioned norm (native) uses it,
   and its test is confirmed by one true residual; for the others the true residual is evaluated
   when the KSP's norm, times the last observed ratio of the true residual to it, reaches the
   tolerance (a few evaluations per solve; at every test with -ksp_norm_type none). x0 = 0 (as
   ppe-solve solves), so the initial true residual is ||b|| without an evaluation.
*/
typedef struct {
  Vec         t, v;   /* work of KSPBuildResidual */
  PetscReal   bnorm;  /* ||b|| of the solve */
  PetscBool   native; /* the KSP's norm is the unpreconditioned residual */
  PetscReal   ratio;  /* last true residual over the KSP's norm */
  PetscInt    checks; /* true residuals evaluated in this solve */
  const char *norm;   /* the norm compared with rtol, as reported */
} TrueStop;

static PetscErrorCode TrueStopTest(KSP ksp, PetscInt it, PetscReal rn, KSPConvergedReason *reason, void *ctx)
{
  TrueStop *s = (TrueStop *)ctx;
  PetscReal rtol, abstol, dtol, tol, tr;
  PetscInt  maxit;
  PetscBool nonzero;

  PetscFunctionBegin;
  *reason = KSP_CONVERGED_ITERATING;
  PetscCall(KSPGetTolerances(ksp, &rtol, &abstol, &dtol, &maxit));
  PetscCall(KSPGetInitialGuessNonzero(ksp, &nonzero));
  tol = PetscMax(rtol * s->bnorm, abstol);
  if (PetscIsInfOrNanReal(rn)) {
    *reason = KSP_DIVERGED_NANORINF;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (it == 0 && !nonzero) {
    s->ratio = rn > 0 ? s->bnorm / rn : 1.0;
    if (s->bnorm <= abstol) *reason = KSP_CONVERGED_ATOL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (rn > 0 && (s->native ? rn : rn * s->ratio) > tol) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(TrueResidualNorm(ksp, s->t, s->v, &tr));
  s->checks++;
  if (rn > 0) s->ratio = tr / rn;
  if (PetscIsInfOrNanReal(tr)) *reason = KSP_DIVERGED_NANORINF;
  else if (tr <= tol) *reason = tr <= abstol ? KSP_CONVERGED_ATOL : KSP_CONVERGED_RTOL;
  else if (dtol > 0 && tr > dtol * s->bnorm) *reason = KSP_DIVERGED_DTOL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Install the stop of -ppe_stop true on ksp (after KSPSetFromOptions). */
static PetscErrorCode TrueStopSetUp(KSP ksp, Vec b, TrueStop *s)
{
  PetscBool preonly;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPPREONLY, &preonly));
  if (preonly) { /* one application, no test: judged by its true residual afterwards */
    s->norm = "none";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the unpreconditioned norm where the KSP supports it on its side of the PC (either side
     when not chosen), unless the user asked for another norm */
  s->native = PETSC_FALSE;
  if (ksp->normtype == KSP_NORM_DEFAULT || ksp->normtype == KSP_NORM_UNPRECONDITIONED) {
    for (PetscInt side = 0; side < PC_SIDE_MAX; side++)
      if ((ksp->pc_side == PC_SIDE_DEFAULT || ksp->pc_side == (PCSide)side) && ksp->normsupporttable[KSP_NORM_UNPRECONDITIONED][side] > 0) s->native = PETSC_TRUE;
  }
  if (s->native) PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  s->norm = s->native ? "unpreconditioned" : "true residual";
  PetscCall(VecDuplicate(b, &s->t));
  PetscCall(VecDuplicate(b, &s->v));
  PetscCall(KSPSetConvergenceTest(ksp, TrueStopTest, s, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The median time of one MPI_Allreduce of a double on comm (the cost of a synchronisation
   here), maximum over ranks. */
static PetscErrorCode MeasureLatency(MPI_Comm comm, PetscReal *lat)
{
  double    v = 1.0, sum, t0;
  PetscReal t[64];

  PetscFunctionBegin;
  for (int i = 0; i < 16; i++) PetscCallMPI(MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, comm));
  for (int k = 0; k < 64; k++) {
    t0 = MPI_Wtime();
    for (int i = 0; i < 8; i++) PetscCallMPI(MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, comm));
    t[k] = (PetscReal)((MPI_Wtime() - t0) / 8);
  }
  qsort(t, 64, sizeof(PetscReal), CompareReal);
  PetscCall(MPIU_Allreduce(&t[32], lat, 1, MPIU_REAL, MPIU_MAX, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

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
static PetscErrorCode PrintConfig(MPI_Comm comm)
{
  JSON     j = {NULL, 0, 0};
  PetscInt v[3]; /* the PETSc library's version (PetscInt: 64-bit with 64-bit indices) */

  PetscFunctionBegin;
  PetscCall(PetscGetVersionNumber(&v[0], &v[1], &v[2], NULL));
  PetscCall(JSONAppend(&j, "{\"ppekit\": \"%s\", \"petsc\": \"%d.%d.%d\", \"petsc_built_with\": \"%d.%d.%d\", \"index_bits\": %d, ", PPEKIT_VERSION_STRING, (int)v[0], (int)v[1], (int)v[2],
                       PPEKIT_PETSC_VERSION_MAJOR, PPEKIT_PETSC_VERSION_MINOR, PPEKIT_PETSC_VERSION_SUBMINOR, (int)(8 * sizeof(PetscInt))));
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

int main(int argc, char **argv)
{
  MPI_Comm           comm;
  Options            o;
  PPEGrid            grid;
  DM                 da;
  Mat                A, P;
  Vec                x, b, r, uex;
  KSP                ksp;
  History            hist;
  TrueStop           stop;
  PetscReal         *wait_s, latency_s, sync_s = 0, solve_min, solve_med, solve_max;
  PetscInt          *order, *rep_its;
  Vec                bk;
  PetscLogStage      stage_history;
  KSPConvergedReason reason_timed;
  PetscInt           its_timed, checks_timed;
  PC                 pc;
  KSPConvergedReason reason;
  KSPType            ksptype;
  PCType             pctype;
  PetscLogStage      stage_setup, stage_solve;
  PetscLogDouble     t0;
  PetscReal          op_s, setup_s, *solve_s, rnorm, bnorm, emax = 0, el2 = 0, rhs_mean = 0, mem_mb, rtol, abstol, dtol;
  PetscInt           its, maxit, N[3], procs[3], dim;
  PetscMPIInt        size, nrep;
  PetscBool          known = PETSC_FALSE, singular;
  PPECounters        c0, c1, cs = {0, 0, 0, 0, 0}, cmax;
  char               bcs[7], version[64];
  PPELocation        loc;
  PPEStretchType     stretch;
  PetscReal          shift;
  struct rusage      ru;
  InnerIts           inner;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscLogDefaultBegin()); /* ghost-update counts come from the log events */
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(GetOptions(comm, &o));
  if (o.config) PetscCall(PrintConfig(comm)); /* first: the solve's JSON line stays the last */
  PetscCall(PetscLogStageRegister("PPE Setup", &stage_setup));
  PetscCall(PetscLogStageRegister("PPE Solve", &stage_solve));
  PetscCall(PetscLogStagePush(stage_setup));

  /* Grid: the problem's defaults, then the options */
  PetscCall(PPEGridCreate(comm, &grid));
  PetscCall(PPEGridSetDimensionFromOptions(grid)); /* the problem's defaults depend on it */
  PetscCall(PPEProblemSetGridDefaults(o.problem, grid));
  PetscCall(PPEGridSetFromOptions(grid));
  PetscCall(PPEGridSetUp(grid));
  PetscCall(PPEGridGetDM(grid, &da));
  PetscCall(PPEGridIsSingular(grid, &singular));

  /* Operators */
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  PetscCall(CreateOperator(grid, (PetscBool)(o.op == OP_MATFREE), o.asmtype, &A));
  if (o.pmat == PMAT_SAME || (o.pmat == PMAT_MATFREE) == (o.op == OP_MATFREE)) {
    P = A;
    PetscCall(PetscObjectReference((PetscObject)P));
  } else PetscCall(CreateOperator(grid, (PetscBool)(o.pmat == PMAT_MATFREE), o.asmtype, &P));
  PetscCall(MaxElapsed(comm, t0, &op_s));

  /* Right-hand side and exact solution; a singular problem gets its RHS projected */
  PetscCall(DMCreateGlobalVector(da, &x));
  PetscCall(VecDuplicate(x, &b));
  PetscCall(VecDuplicate(x, &r));
  PetscCall(VecDuplicate(x, &uex));
  PetscCall(PPEProblemComputeRHS(o.problem, grid, b, uex, &known));
  if (singular) {
    PetscScalar sum;
    PetscInt    n;
    PetscCall(VecSum(b, &sum));
    PetscCall(VecGetSize(b, &n));
    rhs_mean = PetscRealPart(sum) / n;
    PetscCall(VecShift(b, -sum / n));
    PetscCall(PetscInfo(NULL, "Singular problem: removed the mean %g of the right-hand side (compatibility)\n", (double)rhs_mean));
  }

  /* Solver: CG + Jacobi unless the options say otherwise */
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOperators(ksp, A, P));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  /* The DMDA goes to the PC only (geometric multigrid builds its hierarchy from it); the
     KSP keeps the operators given here. */
  PetscCall(PCSetDM(pc, da));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, o.rtol, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(PetscMemzero(&stop, sizeof(stop)));
  stop.norm = NULL;
  if (o.stop == STOP_TRUE) PetscCall(TrueStopSetUp(ksp, b, &stop));
  PetscCall(PetscMemzero(&hist, sizeof(hist)));
  if (o.history) {
    PetscCall(KSPSetResidualHistory(ksp, NULL, PETSC_DECIDE, PETSC_TRUE));
    PetscCall(VecDuplicate(b, &hist.t));
    PetscCall(VecDuplicate(b, &hist.v));
    PetscCall(KSPMonitorSet(ksp, HistoryMonitor, &hist, NULL));
  }
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(ksp));
  PetscCall(MaxElapsed(comm, t0, &setup_s));
  PetscCall(InnerItsSetUp(pc, &inner));
  PetscCall(PetscLogStagePop());

  /* The cost of one synchronisation on these ranks (latency_s of the JSON line) */
  PetscCall(MeasureLatency(comm, &latency_s));

  /* Timed solves, as in a time loop: each from x = 0 with another right-hand side, (1 + 0.1 c) b,
     the last with the problem's own b (whose solution is checked). Scaled copies of b are the
     same problem for every KSP and PC (a smooth change of b, such as b modulated along x, can
     bring in the slowest modes and change the iteration count several times over: the
     channel's b has a few modes only); their values differ, so no solver can reuse an earlier
     solution. */
  PetscCall(VecDuplicate(b, &bk));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  PetscCall(PetscMalloc4(o.repeat, &solve_s, o.repeat, &wait_s, o.repeat, &order, o.repeat, &rep_its));
  PetscCall(PetscLogStagePush(stage_solve));
  for (PetscInt rep = 0; rep < o.repeat; rep++) {
    PetscCall(VecCopy(b, bk));
    if (rep < o.repeat - 1) PetscCall(VecScale(bk, (PetscScalar)(1 + 0.1 * (1 + rep % 4))));
    PetscCall(VecNorm(bk, NORM_2, &stop.bnorm));
    stop.checks = 0;
    PetscCall(VecSet(x, 0.0));
    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PPECountersGet(&c0));
    PetscCall(InnerItsStart(&inner));
    PetscCall(PetscTime(&t0));
    PPEWaitStart();
    PetscCall(KSPSolve(ksp, bk, x));
    wait_s[rep] = (PetscReal)PPEWaitStop();
    PetscCall(KSPGetIterationNumber(ksp, &rep_its[rep]));
    {
      PetscLogDouble t1;
      PetscCall(PetscTime(&t1));
      PetscCall(PPECountersGet(&c1));
      solve_s[rep] = (PetscReal)(t1 - t0);
    }
    PetscCall(InnerItsStop(&inner));
    PetscCall(PPECountersDiff(&c1, &c0, &cs));
  }
  PetscCall(PetscLogStagePop());
  PetscCall(KSPGetIterationNumber(ksp, &its_timed));
  PetscCall(KSPGetConvergedReason(ksp, &reason_timed));
  checks_timed = stop.checks;
  PetscCall(PetscMPIIntCast(o.repeat, &nrep));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, solve_s, nrep, MPIU_REAL, MPIU_MAX, comm));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, wait_s, nrep, MPIU_REAL, MPIU_MIN, comm));
  /* the median solve and the waits of that same solve on the rank that waited least: the
     one whose work set the pace, which waits for the synchronisations themselves only (the
     others' longer waits are the imbalance of the local work, part of T_local) */
  for (PetscInt i = 0; i < o.repeat; i++) order[i] = i;
  for (PetscInt i = 1; i < o.repeat; i++)
    for (PetscInt k = i; k > 0 && solve_s[order[k]] < solve_s[order[k - 1]]; k--) {
      PetscInt tmp = order[k];
      order[k]     = order[k - 1];
      order[k - 1] = tmp;
    }
  sync_s    = wait_s[order[o.repeat / 2]];
  solve_min = solve_s[order[0]];
  solve_med = solve_s[order[o.repeat / 2]];
  solve_max = solve_s[order[o.repeat - 1]];

  /* -ppe_history: one more solve of b, untimed, recording the true residual against time */
  if (o.history) {
    PetscCall(PetscLogStageRegister("PPE History", &stage_history));
    PetscCall(PetscLogStagePush(stage_history));
    stop.bnorm = bnorm;
    hist.bnorm = bnorm;
    hist.n     = 0;
    hist.over  = 0;
    hist.on    = PETSC_TRUE;
    PetscCall(VecSet(x, 0.0));
    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PetscTime(&hist.t0));
    PetscCall(KSPSolve(ksp, b, x));
    hist.on = PETSC_FALSE;
    PetscCall(PetscLogStagePop());
  }
  {
    PetscLogDouble loc5[5] = {cs.reductions, cs.halo_exchanges, cs.bytes_sent, cs.device_bytes, cs.device_halo_bytes}, max2[2], sum3[3];
    PetscCall(MPIU_Allreduce(loc5, max2, 2, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
    PetscCall(MPIU_Allreduce(&loc5[2], sum3, 3, MPIU_PETSCLOGDOUBLE, MPI_SUM, comm));
    cmax.reductions        = max2[0];
    cmax.halo_exchanges    = max2[1];
    cmax.bytes_sent        = sum3[0];
    cmax.device_bytes      = sum3[1];
    cmax.device_halo_bytes = sum3[2];
  }

  /* Results (of the last timed solve): the true residual with the operator, the error against
     the exact solution */
  its    = its_timed;
  reason = reason_timed;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &inner.its, 1, MPIU_INT, MPI_MAX, comm));
  PetscCall(KSPGetType(ksp, &ksptype));
  PetscCall(PCGetType(pc, &pctype));
  PetscCall(KSPGetTolerances(ksp, &rtol, &abstol, &dtol, &maxit));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  if (known) PetscCall(PPEGridComputeErrorNorms(grid, x, uex, &emax, &el2));
  PetscCheck(getrusage(RUSAGE_SELF, &ru) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "getrusage() failed");
  mem_mb = (PetscReal)ru.ru_maxrss / 1024.0;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &mem_mb, 1, MPIU_REAL, MPIU_MAX, comm));
  PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
  PetscCall(PPEGridGetDimension(grid, &dim));
  PetscCall(DMDAGetInfo(da, NULL, NULL, NULL, NULL, &procs[0], &procs[1], &procs[2], NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(PPEGridGetBCString(grid, bcs));
  PetscCall(PPEGridGetLocation(grid, &loc));
  PetscCall(PPEGridGetZStretch(grid, &stretch, NULL));
  PetscCall(PPEGridGetShift(grid, &shift));
  PetscCall(PPEKitGetVersion(version, sizeof(version)));

  {
    PetscReal rrel = bnorm > 0 ? rnorm / bnorm : rnorm;
    PetscReal  med = solve_med;
    PPEBackend backend;

    if (dim == 2) PetscCall(PetscPrintf(comm, "ppe-solve: problem %s, 2D grid %" PetscInt_FMT "x%" PetscInt_FMT " %s-centred, bc %s, y %s, %d ranks (%" PetscInt_FMT "x%" PetscInt_FMT ")\n", PPEProblemNames[o.problem], N[0], N[1], PPELocations[loc], bcs, PPEStretchTypes[stretch], (int)size, procs[0], procs[1]));
    else PetscCall(PetscPrintf(comm, "ppe-solve: problem %s, grid %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " %s-centred, bc %s, z %s, %d ranks (%" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT ")\n", PPEProblemNames[o.problem], N[0], N[1], N[2], PPELocations[loc], bcs, PPEStretchTypes[stretch], (int)size, procs[0], procs[1], procs[2]));
    PetscCall(PPEBackendGetDefault(comm, &backend));
    if (backend == PPE_BACKEND_HOST) PetscCall(PetscPrintf(comm, "  operator %s, KSP %s, PC %s\n", OperatorTypes[o.op], ksptype, pctype));
    else PetscCall(PetscPrintf(comm, "  operator %s, KSP %s, PC %s, back end %s (%.4g bytes between host and device per solve)\n", OperatorTypes[o.op], ksptype, pctype, PPEBackends[backend], cmax.device_bytes));
    PetscCall(PetscPrintf(comm, "  %s in %" PetscInt_FMT " iterations, true relative residual %.3e\n", KSPConvergedReasons[reason], its, (double)rrel));
    if (inner.valid) PetscCall(PetscPrintf(comm, "  preconditioner: %" PetscInt_FMT " inner iterations, %.1f per outer iteration\n", inner.its, its ? (double)inner.its / its : 0.0));
    if (known) PetscCall(PetscPrintf(comm, "  error against the exact solution: max %.4e, L2 %.4e\n", (double)emax, (double)el2));
    PetscCall(PetscPrintf(comm, "  time: operator %.4g s, setup %.4g s, solve %.4g s (median of %" PetscInt_FMT ")\n", (double)op_s, (double)setup_s, (double)med, o.repeat));
    PetscCall(PetscPrintf(comm, "  per solve: %.0f global reductions, %.0f halo exchanges, %.4g bytes sent; peak memory %.1f MB per rank\n", cmax.reductions, cmax.halo_exchanges, cmax.bytes_sent, (double)mem_mb));
    PetscCall(PetscPrintf(comm, "  waits in MPI: %.4g s of the solve (local work %.4g s); one synchronisation costs %.3g us here\n", (double)sync_s, (double)(med - sync_s), 1e6 * (double)latency_s));
    if (o.stop == STOP_TRUE) PetscCall(PetscPrintf(comm, "  stop: true relative residual <= rtol (%s; %" PetscInt_FMT " true residual%s evaluated)\n", stop.norm, checks_timed, checks_timed == 1 ? "" : "s"));
    if (o.json) {
      JSON       j = {NULL, 0, 0};
      char       emaxs[32], el2s[32], rrels[32], rtols[32], means[32];
      PetscInt   v[3]; /* PETSc library version */
      PetscMPIInt rank;

      JSONNumber(emaxs, sizeof(emaxs), known, emax);
      JSONNumber(el2s, sizeof(el2s), known, el2);
      /* a diverged solve (or -ksp_rtol nan) gives Inf or NaN, which JSON cannot hold: null */
      JSONNumber(rrels, sizeof(rrels), PETSC_TRUE, rrel);
      JSONNumber(rtols, sizeof(rtols), PETSC_TRUE, rtol);
      JSONNumber(means, sizeof(means), PETSC_TRUE, rhs_mean);
      PetscCall(PetscGetVersionNumber(&v[0], &v[1], &v[2], NULL));
      /* the contract keeps three sizes and six BC letters: a 2D grid is the z-invariant problem of one
         periodic layer, [nx, ny, 1] and "xxyyPP"; "dim" says which sizes are the user's */
      if (dim == 2) PetscCall(JSONAppend(&j, "{\"problem\": \"%s\", \"dim\": 2, \"n\": [%d, %d, 1], \"location\": \"%s\", \"bc\": \"%sPP\", \"stretch\": \"%s\", \"shift\": %.17g, ", PPEProblemNames[o.problem], (int)N[0], (int)N[1], PPELocations[loc], bcs, PPEStretchTypes[stretch], (double)shift));
      else PetscCall(JSONAppend(&j, "{\"problem\": \"%s\", \"dim\": 3, \"n\": [%d, %d, %d], \"location\": \"%s\", \"bc\": \"%s\", \"stretch\": \"%s\", \"shift\": %.17g, ", PPEProblemNames[o.problem], (int)N[0], (int)N[1], (int)N[2], PPELocations[loc], bcs, PPEStretchTypes[stretch], (double)shift));
      if (dim == 2) PetscCall(JSONAppend(&j, "\"ranks\": %d, \"procs\": [%d, %d, 1], ", (int)size, (int)procs[0], (int)procs[1]));
      else PetscCall(JSONAppend(&j, "\"ranks\": %d, \"procs\": [%d, %d, %d], ", (int)size, (int)procs[0], (int)procs[1], (int)procs[2]));
      PetscCall(JSONAppend(&j, "\"operator\": \"%s\", \"pmat\": \"%s\", \"ksp\": \"%s\", \"pc\": \"%s\", \"backend\": \"%s\", \"rtol\": %s, ", OperatorTypes[o.op], PmatTypes[o.pmat], ksptype, pctype, PPEBackends[backend], rtols));
      PetscCall(JSONAppend(&j, "\"its\": %d, \"reason\": \"%s\", \"rnorm_rel\": %s, \"err_max\": %s, \"err_l2\": %s, \"rhs_mean_removed\": %s, ", (int)its, KSPConvergedReasons[reason], rrels, emaxs, el2s, means));
      if (inner.valid) PetscCall(JSONAppend(&j, "\"pc_its\": %d, ", (int)inner.its));
      else PetscCall(JSONAppend(&j, "\"pc_its\": null, "));
      PetscCall(JSONAppend(&j, "\"op_s\": %.6e, \"setup_s\": %.6e, \"solve_s\": %.6e, \"solve_s_min\": %.6e, \"solve_s_max\": %.6e, \"repeat\": %d, ", (double)op_s, (double)setup_s, (double)med, (double)solve_min, (double)solve_max, (int)o.repeat));
      PetscCall(JSONAppend(&j, "\"device_bytes\": %.0f, \"device_halo_bytes\": %.0f, \"repeat_its\": [", cmax.device_bytes, cmax.device_halo_bytes));
      for (PetscInt i = 0; i < o.repeat; i++) PetscCall(JSONAppend(&j, "%s%d", i ? ", " : "", (int)rep_its[i]));
      PetscCall(JSONAppend(&j, "], "));
      PetscCall(JSONAppend(&j, "\"sync_s\": %.6e, \"local_s\": %.6e, \"latency_s\": %.6e, \"syncs\": %.0f, ", (double)sync_s, (double)(med - sync_s), (double)latency_s, cmax.reductions + cmax.halo_exchanges));
      {
        KSPNormType nt;
        char        nl[32];
        PetscCall(KSPGetNormType(ksp, &nt));
        PetscCall(PetscStrncpy(nl, KSPNormTypes[nt], sizeof(nl)));
        for (char *c = nl; *c; c++)
          if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
        PetscCall(JSONAppend(&j, "\"stop\": \"%s\", \"stop_norm\": \"%s\", \"true_checks\": %d, ", StopTypes[o.stop], o.stop == STOP_TRUE ? stop.norm : nl, (int)checks_timed));
      }
      PetscCall(JSONAppend(&j, "\"reductions\": %.0f, \"halo_exchanges\": %.0f, \"bytes_sent\": %.0f, \"mem_mb\": %.1f, \"ppekit\": \"%s\", \"petsc\": \"%d.%d.%d\", \"index_bits\": %d", cmax.reductions, cmax.halo_exchanges, cmax.bytes_sent, (double)mem_mb, PPEKIT_VERSION_STRING, (int)v[0], (int)v[1], (int)v[2], (int)(8 * sizeof(PetscInt))));
      if (o.history) {
        const PetscReal *h;
        PetscInt         nh;
        KSPNormType      nt;
        PetscCall(KSPGetResidualHistory(ksp, &h, &nh));
        PetscCall(KSPGetNormType(ksp, &nt));
        PetscCall(JSONAppend(&j, ", \"norm_type\": \"%s\", \"history\": [", KSPNormTypes[nt]));
        for (PetscInt i = 0; i < nh; i++) {
          char hs[32];
          JSONNumber(hs, sizeof(hs), PETSC_TRUE, h[i]);
          PetscCall(JSONAppend(&j, "%s%s", i ? ", " : "", hs));
        }
        PetscCall(JSONAppend(&j, "]"));
        if (hist.n == nh) { /* the iteration of each value (else a monitor was skipped: left out) */
          PetscCall(JSONAppend(&j, ", \"history_its\": ["));
          for (PetscInt i = 0; i < nh; i++) PetscCall(JSONAppend(&j, "%s%d", i ? ", " : "", (int)hist.its[i]));
          PetscCall(JSONAppend(&j, "]"));
        }
        PetscCall(JSONAppend(&j, ", \"history_true\": ["));
        for (PetscInt i = 0; i < hist.n; i++) {
          char hs[32];
          JSONNumber(hs, sizeof(hs), PETSC_TRUE, hist.tr[i]);
          PetscCall(JSONAppend(&j, "%s%s", i ? ", " : "", hs));
        }
        PetscCall(JSONAppend(&j, "], \"history_s\": ["));
        for (PetscInt i = 0; i < hist.n; i++) PetscCall(JSONAppend(&j, "%s%.6e", i ? ", " : "", (double)hist.ts[i]));
        PetscCall(JSONAppend(&j, "]"));
      }
      PetscCall(JSONAppend(&j, "}"));
      PetscCallMPI(MPI_Comm_rank(comm, &rank));
      if (rank == 0) {
        fprintf(stdout, "%s\n", j.buf);
        fflush(stdout);
      }
      PetscCall(PetscFree(j.buf));
    }
  }

  PetscCall(PetscFree4(solve_s, wait_s, order, rep_its));
  PetscCall(PetscFree3(hist.its, hist.tr, hist.ts));
  PetscCall(VecDestroy(&hist.t));
  PetscCall(VecDestroy(&hist.v));
  PetscCall(VecDestroy(&stop.t));
  PetscCall(VecDestroy(&stop.v));
  PetscCall(VecDestroy(&bk));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&uex));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscCall(PPEGridDestroy(&grid));
  PetscCall(PetscFinalize());
  return 0;
}
