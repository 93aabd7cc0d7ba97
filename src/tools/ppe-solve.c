static const char help[] = "ppe-solve: builds a pressure-Poisson problem on a PPEGrid and solves it with any\n\
PETSc KSP/PC (-ksp_type, -pc_type, ... work unchanged), then reports iterations, true\n\
residual, error against the exact solution, times and communication, as text and, with\n\
-ppe_json, as one JSON line.\n\n";

/*
   The JSON line (-ppe_json) is the contract read by studies and benchmarks; the keys are
   listed in docs/ppe-solve.md. Times are the maximum over ranks; solve_s is the median over
   -ppe_repeat solves, each started from a zero initial guess.
*/
#include "ppe-solve.h"
#include <ppekit/private/ppeimpl.h>     /* PPEJoinSizes() */
#include <ppekit/private/backendimpl.h> /* PPEVecCreateOn() (-ppe_vectors backend) */
#include <petsc/private/kspimpl.h>      /* the table of the norms a KSP supports (-ppe_stop true) */
#include <stdio.h>
#include <sys/resource.h>

/* The names of the enums of ppe-solve.h (the options' and the JSON line's) */
const char *const OperatorTypes[] = {"matfree", "aij", "OperatorType", "OP_", NULL};
const char *const PmatTypes[]     = {"same", "matfree", "aij", "PmatType", "PMAT_", NULL};
const char *const StopTypes[]     = {"ksp", "true", "StopType", "STOP_", NULL};
const char *const VectorsTypes[]  = {"host", "backend", "VectorsType", "VECTORS_", NULL};

/* Seconds blocked in MPI while counting (ppe-mpiwait.c, through MPI's profiling interface) */
void   PPEWaitStart(void);
double PPEWaitStop(void);

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
  o->vectors = VECTORS_HOST;
  o->json    = PETSC_FALSE;
  o->history = PETSC_FALSE;
  o->config  = PETSC_FALSE;
  o->rtol    = 1e-8;
  PetscCall(PetscStrncpy(o->asmtype, MATAIJ, sizeof(o->asmtype)));
  PetscOptionsBegin(comm, NULL, "ppe-solve options", "PPEKit");
  PetscCall(PetscOptionsEList("-ppe_problem", "Problem: mms, channel, bicgstab-paper, mms-var (variable density, manufactured) or bubbles (multiphase)", "PPEProblemSetGridDefaults", PPEProblemNames, PPE_PROBLEM_COUNT, PPEProblemNames[0], &p, &flg));
  {
    /* the short form is always read, so that it is never silently ignored: given with
       -ppe_problem, both must name the same problem */
    PetscInt  ps = p;
    PetscBool sflg;

    PetscCall(PetscOptionsEList("-problem", "Short form of -ppe_problem", "PPEProblemSetGridDefaults", PPEProblemNames, PPE_PROBLEM_COUNT, PPEProblemNames[0], &ps, &sflg));
    PetscCheck(!flg || !sflg || ps == p, comm, PETSC_ERR_ARG_INCOMP, "-ppe_problem %s and -problem %s name different problems: give one of them", PPEProblemNames[p], PPEProblemNames[ps]);
    if (sflg) p = ps;
  }
  o->problem = (PPEProblemType)p;
  o->move    = PETSC_FALSE;
  if (o->problem == PPE_PROBLEM_BUBBLES) /* (read for bubbles only: -options_left names it on another problem) */
    PetscCall(PetscOptionsBool("-ppe_bubbles_move", "Problem bubbles with -ppe_repeat: move the bubbles between the timed solves, as a time loop does (each solve after the first pays the new coefficients and its PC set-up, reported)",
                               "PPEProblemComputeDensity", o->move, &o->move, NULL));
  PetscCall(PetscOptionsEnum("-ppe_operator", "Operator: matrix-free stencil or assembled", "PPEStencilCreate", OperatorTypes, (PetscEnum)o->op, (PetscEnum *)&o->op, NULL));
  PetscCall(PetscOptionsEnum("-ppe_pmat", "Preconditioning matrix: same as the operator, matfree or aij", "KSPSetOperators", PmatTypes, (PetscEnum)o->pmat, (PetscEnum *)&o->pmat, NULL));
  PetscCall(PetscOptionsString("-ppe_assembled_type", "Matrix type of the assembled operator (aij, hyprestruct, ...)", "PPEStencilCreateAssembled", o->asmtype, o->asmtype, sizeof(o->asmtype), NULL));
  PetscCall(PetscOptionsInt("-ppe_repeat", "Number of timed solves, each with another right-hand side but the last (the problem's own); the median time is reported", NULL, o->repeat, &o->repeat, NULL));
  PetscCall(PetscOptionsEnum("-ppe_stop", "Stopping rule: ksp (the KSP's own test and norm) or true (the true relative residual norm(b - A x) / norm(b) <= rtol, for every KSP alike)", "KSPSetConvergenceTest", StopTypes, (PetscEnum)o->stop,
                             (PetscEnum *)&o->stop, NULL));
  PetscCheck(o->repeat >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ppe_repeat must be >= 1, got %" PetscInt_FMT, o->repeat);
  PetscCall(PetscOptionsEnum("-ppe_vectors",
                             "Where the right-hand side, the solution and ppe-solve's other vectors live: host (standard vectors) or backend (the matrix-free operator's back end: "
                             "PETSc's VECCUDA/VECHIP on a device PETSc, else PPEKit's device vector type; standard on the host back end)",
                             "PPEStencilGetBackend", VectorsTypes, (PetscEnum)o->vectors, (PetscEnum *)&o->vectors, NULL));
  PetscCall(PetscOptionsReal("-ppe_rtol", "Default relative tolerance (-ksp_rtol overrides)", "KSPSetTolerances", o->rtol, &o->rtol, NULL));
  PetscCall(PetscOptionsBool("-ppe_json", "Print one JSON line with the results", NULL, o->json, &o->json, NULL));
  PetscCall(PetscOptionsBool("-ppe_history", "Record the residual histories (in the JSON line): the KSP's norm, and the true residual against time, from one more, untimed solve", "KSPSetResidualHistory", o->history, &o->history, NULL));
  PetscCall(PetscOptionsBool("-ppe_config", "Print a JSON line with PPEKit's and PETSc's configuration (versions, index size, PETSc's external packages) before the solve", NULL, o->config, &o->config, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A matrix-free or assembled operator; with a density (run->Av set) the assembled one is the twin
   of the matrix-free operator that carries it, and the matrix-free one gets it too. */
static PetscErrorCode CreateOperator(Run *run, PetscBool matfree, Mat *A)
{
  PetscFunctionBegin;
  if (matfree) {
    PetscCall(PPEStencilCreate(run->grid, A));
    if (run->var) PetscCall(PPEStencilSetDensity(*A, run->rho));
  } else if (run->var) PetscCall(PPEStencilAssemble(run->Av, run->o.asmtype, MAT_INITIAL_MATRIX, A));
  else PetscCall(PPEStencilCreateAssembled(run->grid, run->o.asmtype, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The density of step of a variable-density problem given to the operators (the assembled ones
   assembled again). */
static PetscErrorCode UpdateDensity(Run *run, PetscInt step)
{
  Mat M[2] = {run->A, run->P};

  PetscFunctionBegin;
  PetscCall(PPEProblemComputeDensity(run->o.problem, run->grid, step, run->rho));
  PetscCall(PPEStencilSetDensity(run->Av, run->rho));
  for (int q = 0; q < 2; q++) {
    PetscBool isst;
    if (q == 1 && M[1] == M[0]) break;
    PetscCall(PetscObjectTypeCompare((PetscObject)M[q], MATPPESTENCIL, &isst));
    if (isst) PetscCall(PPEStencilSetDensity(M[q], run->rho));
    else PetscCall(PPEStencilAssemble(run->Av, run->o.asmtype, MAT_REUSE_MATRIX, &M[q]));
  }
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
  c->its              = 0;
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

/* The options (and -ppe_config's line, printed first so that the solve's JSON line stays the
   last), the log stages */
static PetscErrorCode RunCreate(MPI_Comm comm, Run *run)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(run, sizeof(*run)));
  run->comm = comm;
  PetscCallMPI(MPI_Comm_size(comm, &run->size));
  PetscCall(GetOptions(comm, &run->o));
  if (run->o.config) PetscCall(PrintConfig(comm));
  PetscCall(PetscLogStageRegister("PPE Setup", &run->stage_setup));
  PetscCall(PetscLogStageRegister("PPE Solve", &run->stage_solve));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Grid: the problem's defaults, then the options */
static PetscErrorCode CreateGrid(Run *run)
{
  PetscFunctionBegin;
  PetscCall(PPEGridCreate(run->comm, &run->grid));
  PetscCall(PPEGridSetDimensionFromOptions(run->grid)); /* the problem's defaults depend on it */
  PetscCall(PPEProblemSetGridDefaults(run->o.problem, run->grid));
  PetscCall(PPEGridSetFromOptions(run->grid));
  PetscCall(PPEGridSetUp(run->grid));
  PetscCall(PPEGridGetDM(run->grid, &run->da));
  PetscCall(PPEGridIsSingular(run->grid, &run->singular));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operator A and the preconditioning matrix P: A itself unless -ppe_pmat names the other kind */
static PetscErrorCode CreateOperators(Run *run)
{
  const Options *o = &run->o;
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Barrier(run->comm));
  PetscCall(PetscTime(&t0));
  PetscCall(PPEProblemHasDensity(o->problem, &run->var));
  if (run->var) { /* the density of the first step, on a matrix-free operator that the assembled ones copy */
    PetscCall(DMCreateGlobalVector(run->da, &run->rho));
    PetscCall(PPEProblemComputeDensity(o->problem, run->grid, 0, run->rho));
    PetscCall(PPEStencilCreate(run->grid, &run->Av));
    PetscCall(PPEStencilSetDensity(run->Av, run->rho));
  }
  run->bubbles = (PetscBool)(o->problem == PPE_PROBLEM_BUBBLES);
  if (run->bubbles) PetscCall(PPEProblemGetBubbles(run->grid, &run->bub));
  PetscCall(CreateOperator(run, (PetscBool)(o->op == OP_MATFREE), &run->A));
  if (o->pmat == PMAT_SAME || (o->pmat == PMAT_MATFREE) == (o->op == OP_MATFREE)) {
    run->P = run->A;
    PetscCall(PetscObjectReference((PetscObject)run->P));
  } else PetscCall(CreateOperator(run, (PetscBool)(o->pmat == PMAT_MATFREE), &run->P));
  PetscCall(MaxElapsed(run->comm, t0, &run->t.op_s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ppe_vectors backend: x replaced by a vector of the operator's back end (its duplicates,
   b among them, follow); PETSc's device vectors where PETSc has them, so that PETSc's own
   KSPs run their vector operations on the device too */
static PetscErrorCode VecOnBackend(Run *run, Vec *x)
{
  PetscBool  isst;
  PPEBackend be;
  Vec        w;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)run->A, MATPPESTENCIL, &isst));
  PetscCheck(isst, run->comm, PETSC_ERR_ARG_INCOMP, "-ppe_vectors backend needs the matrix-free operator (-ppe_operator matfree): the vectors are those of its back end");
  PetscCall(PPEStencilGetBackend(run->A, &be));
  PetscCall(PPEVecCreateOn(*x, be, &w));
  PetscCall(VecDestroy(x));
  *x = w;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Right-hand side and exact solution; a singular problem gets its RHS projected */
static PetscErrorCode CreateProblem(Run *run)
{
  PetscFunctionBegin;
  PetscCall(DMCreateGlobalVector(run->da, &run->x));
  if (run->o.vectors == VECTORS_BACKEND) PetscCall(VecOnBackend(run, &run->x));
  PetscCall(VecDuplicate(run->x, &run->b));
  PetscCall(VecDuplicate(run->x, &run->r));
  PetscCall(VecDuplicate(run->x, &run->uex));
  PetscCall(PPEProblemComputeRHS(run->o.problem, run->grid, run->b, run->uex, &run->known));
  if (run->singular) {
    PetscScalar sum;
    PetscInt    n;

    PetscCall(VecSum(run->b, &sum));
    PetscCall(VecGetSize(run->b, &n));
    run->rhs_mean = PetscRealPart(sum) / n;
    PetscCall(VecShift(run->b, -sum / n));
    PetscCall(PetscInfo(NULL, "Singular problem: removed the mean %g of the right-hand side (compatibility)\n", (double)run->rhs_mean));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solver: CG + Jacobi unless the options say otherwise; the stop of -ppe_stop true and the
   monitor of -ppe_history */
static PetscErrorCode CreateSolver(Run *run)
{
  PetscFunctionBegin;
  PetscCall(KSPCreate(run->comm, &run->ksp));
  PetscCall(KSPSetOperators(run->ksp, run->A, run->P));
  PetscCall(KSPSetType(run->ksp, KSPCG));
  PetscCall(KSPGetPC(run->ksp, &run->pc));
  /* The DMDA goes to the PC only (geometric multigrid builds its hierarchy from it); the
     KSP keeps the operators given here. */
  PetscCall(PCSetDM(run->pc, run->da));
  PetscCall(PCSetType(run->pc, PCJACOBI));
  PetscCall(KSPSetTolerances(run->ksp, run->o.rtol, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(KSPSetFromOptions(run->ksp));
  if (run->o.stop == STOP_TRUE) PetscCall(TrueStopSetUp(run->ksp, run->b, &run->stop));
  if (run->o.history) {
    PetscCall(KSPSetResidualHistory(run->ksp, NULL, PETSC_DECIDE, PETSC_TRUE));
    PetscCall(VecDuplicate(run->b, &run->hist.t));
    PetscCall(VecDuplicate(run->b, &run->hist.v));
    PetscCall(KSPMonitorSet(run->ksp, HistoryMonitor, &run->hist, NULL));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPSetUp, timed; then the counting of the preconditioner's iterations (its sub-solvers exist
   once it is set up) */
static PetscErrorCode SetUpSolver(Run *run)
{
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Barrier(run->comm));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(run->ksp));
  PetscCall(MaxElapsed(run->comm, t0, &run->t.setup_s));
  PetscCall(InnerItsSetUp(run->pc, &run->inner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Timed solve number rep of -ppe_repeat: its seconds, its seconds blocked in MPI, its
   iterations and (kept for the last) its counters. With moving bubbles, a solve after the first
   gets the density of its step (timed: coef_s) and sets the preconditioner up for it (timed with
   the coefficients: step_s), as a time step does before its solve; what a KSP itself redoes for
   a new operator (KSPCBCG's spectrum estimate) stays in the solve's time. */
static PetscErrorCode TimedSolve(Run *run, PetscInt rep)
{
  PetscLogDouble t0, t1;
  PPECounters    c0, c1;

  PetscFunctionBegin;
  run->t.coef_s[rep] = run->t.step_s[rep] = 0;
  if (run->o.move && rep > 0) {
    PetscCallMPI(MPI_Barrier(run->comm));
    PetscCall(PetscTime(&t0));
    PetscCall(UpdateDensity(run, rep));
    PetscCall(MaxElapsed(run->comm, t0, &run->t.coef_s[rep]));
    PetscCall(PCSetUp(run->pc)); /* what the first application in the solve would do: the PC sees the new operator's state */
    PetscCall(MaxElapsed(run->comm, t0, &run->t.step_s[rep]));
  }
  PetscCall(VecCopy(run->b, run->bk));
  if (rep < run->o.repeat - 1) PetscCall(VecScale(run->bk, (PetscScalar)(1 + 0.1 * (1 + rep % 4))));
  PetscCall(VecNorm(run->bk, NORM_2, &run->stop.bnorm));
  run->stop.checks = 0;
  PetscCall(VecSet(run->x, 0.0));
  PetscCallMPI(MPI_Barrier(run->comm));
  PetscCall(PPECountersGet(&c0));
  PetscCall(InnerItsStart(&run->inner));
  PetscCall(PetscTime(&t0));
  PPEWaitStart();
  PetscCall(KSPSolve(run->ksp, run->bk, run->x));
  run->t.wait_s[rep] = (PetscReal)PPEWaitStop();
  PetscCall(KSPGetIterationNumber(run->ksp, &run->t.its[rep]));
  PetscCall(PetscTime(&t1));
  PetscCall(PPECountersGet(&c1));
  run->t.solve_s[rep] = (PetscReal)(t1 - t0);
  PetscCall(InnerItsStop(&run->inner));
  PetscCall(PPECountersDiff(&c1, &c0, &run->res.local));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Timed solves, as in a time loop: each from x = 0 with another right-hand side, (1 + 0.1 c) b,
   the last with the problem's own b (whose solution is checked). Scaled copies of b are the
   same problem for every KSP and PC (a smooth change of b, such as b modulated along x, can
   bring in the slowest modes and change the iteration count several times over: the
   channel's b has a few modes only); their values differ, so no solver can reuse an earlier
   solution. */
static PetscErrorCode TimedSolves(Run *run)
{
  PetscInt n = run->o.repeat;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(run->b, &run->bk));
  PetscCall(VecNorm(run->b, NORM_2, &run->bnorm));
  PetscCall(PetscMalloc4(n, &run->t.solve_s, n, &run->t.wait_s, n, &run->t.order, n, &run->t.its));
  PetscCall(PetscMalloc2(n, &run->t.coef_s, n, &run->t.step_s));
  PetscCall(PetscLogStagePush(run->stage_solve));
  for (PetscInt rep = 0; rep < n; rep++) PetscCall(TimedSolve(run, rep));
  PetscCall(PetscLogStagePop());
  PetscCall(KSPGetIterationNumber(run->ksp, &run->res.its));
  PetscCall(KSPGetConvergedReason(run->ksp, &run->res.reason));
  run->res.checks = run->stop.checks;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The median solve and the waits of that same solve on the rank that waited least: the one
   whose work set the pace, which waits for the synchronisations themselves only (the others'
   longer waits are the imbalance of the local work, part of T_local) */
static PetscErrorCode SolveStatistics(Run *run)
{
  Timings    *t = &run->t;
  PetscInt    n = run->o.repeat;
  PetscMPIInt nrep;

  PetscFunctionBegin;
  PetscCall(PetscMPIIntCast(n, &nrep));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, t->solve_s, nrep, MPIU_REAL, MPIU_MAX, run->comm));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, t->wait_s, nrep, MPIU_REAL, MPIU_MIN, run->comm));
  for (PetscInt i = 0; i < n; i++) t->order[i] = i;
  for (PetscInt i = 1; i < n; i++)
    for (PetscInt k = i; k > 0 && t->solve_s[t->order[k]] < t->solve_s[t->order[k - 1]]; k--) {
      PetscInt tmp    = t->order[k];
      t->order[k]     = t->order[k - 1];
      t->order[k - 1] = tmp;
    }
  t->coef_med = t->step_med = -1;
  if (run->o.move && n > 1) { /* medians over the solves that moved the bubbles (sorted copies) */
    PetscReal *c, *s;
    PetscCall(PetscMalloc2(n - 1, &c, n - 1, &s));
    PetscCall(PetscArraycpy(c, t->coef_s + 1, n - 1));
    PetscCall(PetscArraycpy(s, t->step_s + 1, n - 1));
    qsort(c, (size_t)(n - 1), sizeof(PetscReal), CompareReal);
    qsort(s, (size_t)(n - 1), sizeof(PetscReal), CompareReal);
    t->coef_med = c[(n - 1) / 2];
    t->step_med = s[(n - 1) / 2];
    PetscCall(PetscFree2(c, s));
  }
  t->sync_s    = t->wait_s[t->order[n / 2]];
  t->solve_min = t->solve_s[t->order[0]];
  t->solve_med = t->solve_s[t->order[n / 2]];
  t->solve_max = t->solve_s[t->order[n - 1]];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ppe_history: one more solve of b, untimed, recording the true residual against time */
static PetscErrorCode HistorySolve(Run *run)
{
  PetscLogStage stage_history;

  PetscFunctionBegin;
  if (!run->o.history) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogStageRegister("PPE History", &stage_history));
  PetscCall(PetscLogStagePush(stage_history));
  run->stop.bnorm = run->bnorm;
  run->hist.bnorm = run->bnorm;
  run->hist.n     = 0;
  run->hist.over  = 0;
  run->hist.on    = PETSC_TRUE;
  PetscCall(VecSet(run->x, 0.0));
  PetscCallMPI(MPI_Barrier(run->comm));
  PetscCall(PetscTime(&run->hist.t0));
  PetscCall(KSPSolve(run->ksp, run->b, run->x));
  run->hist.on = PETSC_FALSE;
  PetscCall(PetscLogStagePop());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The counters of the last timed solve over the ranks: the most synchronisations any rank
   made, the bytes all of them moved */
static PetscErrorCode ReduceCounters(MPI_Comm comm, const PPECounters *cs, PPECounters *c)
{
  PetscLogDouble loc5[5] = {cs->reductions, cs->halo_exchanges, cs->bytes_sent, cs->device_bytes, cs->device_halo_bytes}, max2[2], sum3[3];

  PetscFunctionBegin;
  PetscCall(MPIU_Allreduce(loc5, max2, 2, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
  PetscCall(MPIU_Allreduce(&loc5[2], sum3, 3, MPIU_PETSCLOGDOUBLE, MPI_SUM, comm));
  c->reductions        = max2[0];
  c->halo_exchanges    = max2[1];
  c->bytes_sent        = sum3[0];
  c->device_bytes      = sum3[1];
  c->device_halo_bytes = sum3[2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Results (of the last timed solve): the counters over the ranks, the true residual with the
   operator, the error against the exact solution, the peak memory, the back end */
static PetscErrorCode MeasureResults(Run *run)
{
  Results      *res = &run->res;
  PetscReal     rnorm, bnorm, abstol, dtol;
  PetscInt      maxit;
  struct rusage ru;

  PetscFunctionBegin;
  PetscCall(ReduceCounters(run->comm, &res->local, &res->c));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &run->inner.its, 1, MPIU_INT, MPI_MAX, run->comm));
  PetscCall(KSPGetTolerances(run->ksp, &res->rtol, &abstol, &dtol, &maxit));
  PetscCall(MatMult(run->A, run->x, run->r));
  PetscCall(VecAYPX(run->r, -1.0, run->b));
  PetscCall(VecNorm(run->r, NORM_2, &rnorm));
  PetscCall(VecNorm(run->b, NORM_2, &bnorm));
  res->rrel = bnorm > 0 ? rnorm / bnorm : rnorm;
  if (run->known) PetscCall(PPEGridComputeErrorNorms(run->grid, run->x, run->uex, &res->emax, &res->el2));
  PetscCheck(getrusage(RUSAGE_SELF, &ru) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "getrusage() failed");
  res->mem_mb = (PetscReal)ru.ru_maxrss / 1024.0;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &res->mem_mb, 1, MPIU_REAL, MPIU_MAX, run->comm));
  PetscCall(PPEBackendGetDefault(run->comm, &res->backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The grid as the user gave it, through the grid's API and its DMDA (the user's: a 2D DMDA
   for a 2D grid) */
static PetscErrorCode GetGridInfo(PPEGrid grid, GridInfo *g)
{
  DM da;

  PetscFunctionBegin;
  PetscCall(PPEGridGetDimension(grid, &g->dim));
  PetscCall(PPEGridGetSizes(grid, &g->n[0], &g->n[1], &g->n[2]));
  PetscCall(PPEGridGetDM(grid, &da));
  PetscCall(DMDAGetInfo(da, NULL, NULL, NULL, NULL, &g->procs[0], &g->procs[1], &g->procs[2], NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(PPEGridGetBCString(grid, g->bc));
  PetscCall(PPEGridGetLocation(grid, &g->loc));
  PetscCall(PPEGridGetZStretch(grid, &g->stretch, NULL));
  PetscCall(PPEGridGetShift(grid, &g->shift));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The text summary */
static PetscErrorCode PrintSummary(const Run *run, const GridInfo *g)
{
  MPI_Comm           comm = run->comm;
  const Results     *res  = &run->res;
  const PPECounters *c    = &res->c;
  PetscReal          med = run->t.solve_med, sync_s = run->t.sync_s;
  PetscInt           its = res->its, checks = res->checks;
  char               sizes[64], procs[64];
  KSPType            ksptype;
  PCType             pctype;

  PetscFunctionBegin;
  PetscCall(KSPGetType(run->ksp, &ksptype));
  PetscCall(PCGetType(run->pc, &pctype));
  PetscCall(PPEJoinSizes(g->dim, g->n, "x", sizes, sizeof(sizes)));
  PetscCall(PPEJoinSizes(g->dim, g->procs, "x", procs, sizeof(procs)));
  PetscCall(PetscPrintf(comm, "ppe-solve: problem %s, %sgrid %s %s-centred, bc %s, %c %s, %d ranks (%s)\n", PPEProblemNames[run->o.problem], g->dim == 2 ? "2D " : "", sizes, PPELocations[g->loc], g->bc, "xyz"[g->dim - 1], PPEStretchTypes[g->stretch],
                        (int)run -> size, procs));
  if (res->backend == PPE_BACKEND_HOST) PetscCall(PetscPrintf(comm, "  operator %s, KSP %s, PC %s\n", OperatorTypes[run->o.op], ksptype, pctype));
  else PetscCall(PetscPrintf(comm, "  operator %s, KSP %s, PC %s, back end %s (%.4g bytes between host and device per solve)\n", OperatorTypes[run->o.op], ksptype, pctype, PPEBackends[res->backend], c->device_bytes));
  PetscCall(PetscPrintf(comm, "  %s in %" PetscInt_FMT " iterations, true relative residual %.3e\n", KSPConvergedReasons[res->reason], its, (double)res->rrel));
  if (run->inner.valid) PetscCall(PetscPrintf(comm, "  preconditioner: %" PetscInt_FMT " inner iterations, %.1f per outer iteration\n", run->inner.its, its ? (double)run->inner.its / its : 0.0));
  if (run->known) PetscCall(PetscPrintf(comm, "  error against the exact solution: max %.4e, L2 %.4e\n", (double)res->emax, (double)res->el2));
  PetscCall(PetscPrintf(comm, "  time: operator %.4g s, setup %.4g s, solve %.4g s (median of %" PetscInt_FMT ")\n", (double)run->t.op_s, (double)run->t.setup_s, (double)med, run->o.repeat));
  if (run->var) {
    PetscReal   bmin, bmax;
    PPEFaceMean fm;
    PetscCall(PPEStencilGetCoefficients(run->Av, NULL, &bmin, &bmax));
    PetscCall(PPEStencilGetFaceMean(run->Av, &fm));
    PetscCall(PetscPrintf(comm, "  variable density: face coefficients beta in [%.4g, %.4g] (ratio %.4g), %s mean density on a face\n", (double)bmin, (double)bmax, (double)(bmax / bmin), PPEFaceMeans[fm]));
  }
  if (run->bubbles) {
    const PPEBubbles *B = &run->bub;
    PetscCall(PetscPrintf(comm, "  bubbles: %" PetscInt_FMT " of radius %g (of the smallest length), density ratio %g, seed %" PetscInt_FMT ", first step %" PetscInt_FMT ", %s (velocity %g of Lx per step)\n", B->n, (double)B->radius,
                          (double)B->ratio, B->seed, B->step, B->move ? "moving" : "still", (double)B->velocity));
  }
  if (run->t.step_med >= 0)
    PetscCall(PetscPrintf(comm, "  moving bubbles, per step (median of %" PetscInt_FMT "): new coefficients %.4g s, with the solver's set-up %.4g s; iterations per solve:", run->o.repeat - 1, (double)run->t.coef_med, (double)run->t.step_med));
  if (run->t.step_med >= 0) {
    for (PetscInt r = 0; r < run->o.repeat; r++) PetscCall(PetscPrintf(comm, " %" PetscInt_FMT, run->t.its[r]));
    PetscCall(PetscPrintf(comm, "\n"));
  }
  PetscCall(PetscPrintf(comm, "  per solve: %.0f global reductions, %.0f halo exchanges, %.4g bytes sent; peak memory %.1f MB per rank\n", c->reductions, c->halo_exchanges, c->bytes_sent, (double)res->mem_mb));
  PetscCall(PetscPrintf(comm, "  waits in MPI: %.4g s of the solve (local work %.4g s); one synchronisation costs %.3g us here\n", (double)sync_s, (double)(med - sync_s), 1e6 * (double)run->t.latency_s));
  if (run->o.stop == STOP_TRUE) PetscCall(PetscPrintf(comm, "  stop: true relative residual <= rtol (%s; %" PetscInt_FMT " true residual%s evaluated)\n", run->stop.norm, checks, checks == 1 ? "" : "s"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunDestroy(Run *run)
{
  PetscFunctionBegin;
  PetscCall(PetscFree4(run->t.solve_s, run->t.wait_s, run->t.order, run->t.its));
  PetscCall(PetscFree2(run->t.coef_s, run->t.step_s));
  PetscCall(VecDestroy(&run->rho));
  PetscCall(MatDestroy(&run->Av));
  PetscCall(PetscFree3(run->hist.its, run->hist.tr, run->hist.ts));
  PetscCall(VecDestroy(&run->hist.t));
  PetscCall(VecDestroy(&run->hist.v));
  PetscCall(VecDestroy(&run->stop.t));
  PetscCall(VecDestroy(&run->stop.v));
  PetscCall(VecDestroy(&run->bk));
  PetscCall(KSPDestroy(&run->ksp));
  PetscCall(VecDestroy(&run->x));
  PetscCall(VecDestroy(&run->b));
  PetscCall(VecDestroy(&run->r));
  PetscCall(VecDestroy(&run->uex));
  PetscCall(MatDestroy(&run->A));
  PetscCall(MatDestroy(&run->P));
  PetscCall(PPEGridDestroy(&run->grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Run      run;
  GridInfo g;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscLogDefaultBegin()); /* ghost-update counts come from the log events */
  PetscCall(RunCreate(PETSC_COMM_WORLD, &run));
  PetscCall(PetscLogStagePush(run.stage_setup));
  PetscCall(CreateGrid(&run));
  PetscCall(CreateOperators(&run));
  PetscCall(CreateProblem(&run));
  PetscCall(CreateSolver(&run));
  PetscCall(SetUpSolver(&run));
  PetscCall(PetscLogStagePop());
  PetscCall(MeasureLatency(run.comm, &run.t.latency_s)); /* the cost of one synchronisation (latency_s) */
  PetscCall(TimedSolves(&run));
  PetscCall(SolveStatistics(&run));
  PetscCall(HistorySolve(&run));
  PetscCall(MeasureResults(&run));
  PetscCall(GetGridInfo(run.grid, &g));
  PetscCall(PrintSummary(&run, &g));
  if (run.o.json) PetscCall(PrintJSON(&run, &g));
  PetscCall(RunDestroy(&run));
  PetscCall(PetscFinalize());
  return 0;
}
