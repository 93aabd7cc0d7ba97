static const char help[] = "The bad-input and fault suite (docs/reliability.md): every case expects one specific outcome, a PETSc\n\
error code with a message, or a KSPConvergedReason (with its iteration count where it matters),\n\
on every rank. Cases: grid and operator input (periodic on one face, BCs the DMDA does not have,\n\
too few points, too few points per rank, no DMDA, dof 2, a non-separable matrix for fftptdma),\n\
settings out of range (inverted and negative eigenvalue intervals of cbcg and chebyci, s and its\n\
out of range, tiles of size 0, a tile larger than the box), NaN and Inf in the right-hand side and\n\
in the initial guess for every KSP/PC combination of PPEKit, a zero right-hand side, an indefinite\n\
operator for cbcg, a singular Neumann problem with an incompatible right-hand side, mismatched\n\
communicators, solve and apply before set-up, set-up again after the operator changed, bad input\n\
of 2D grids and NaN on a 2D operator, and 200\n\
create/set-up/solve/destroy cycles without growth of PETSc's allocated memory.\n\
  -n <12>       grid points per direction of the solver cases\n\
  -cycles <200> create/solve/destroy cycles of the memory case\n\n";

#include <ppekit.h>
#include <math.h>
#include "tap.h"
#include "vecutil.h"
#include "dmda-poisson.h"

/* ------------------------------------------------------------------ error capture */

/* Run a call with errors returned instead of printed and aborting. */
#define TRY(code, call) \
  do { \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    (code) = (call); \
    PetscCall(PetscPopErrorHandler()); \
  } while (0)

/* A case that must fail with error `want` and a message containing `text`, on every rank. */
static PetscErrorCode ExpectError(MPI_Comm comm, const char what[], PetscErrorCode code, PetscErrorCode want, const char text[])
{
  const char *specific = NULL;
  PetscBool   ok;

  PetscFunctionBegin;
  if (code) PetscCall(PPEErrorMessage(code, &specific));
  ok = (PetscBool)(code == want && specific && strstr(specific, text) != NULL);
  if (!ok) PetscCall(PetscSynchronizedPrintf(comm, "# [%d] %s: got error %d: %s\n", PetscGlobalRank, what, (int)code, code && specific ? specific : "(none)"));
  PetscCall(PetscSynchronizedFlush(comm, PETSC_STDOUT));
  PetscCall(TapCheck(comm, ok, "%s: error %d \"%s\" (rank 0 got %d \"%.200s\")", what, (int)want, text, (int)code, code && specific ? specific : "(none)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ problems */

static PetscInt n = 12;

/* A grid n^3 with the given BCs (cell-centred), its matrix-free operator and the MMS right-hand
   side (made consistent when the operator is singular). */
static PetscErrorCode Problem(MPI_Comm comm, const char bc[], PetscReal shift, PPEGrid *g, Mat *A, Vec *b)
{
  Vec       uex;
  PetscBool known, singular;
  DM        da;

  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, g));
  PetscCall(PPEGridSetSizes(*g, n, n, n));
  PetscCall(PPEGridSetBCString(*g, bc));
  if (shift > 0) PetscCall(PPEGridSetShift(*g, shift));
  PetscCall(PPEGridSetUp(*g));
  if (A) PetscCall(PPEStencilCreate(*g, A));
  if (!b) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PPEGridGetDM(*g, &da));
  PetscCall(DMCreateGlobalVector(da, b));
  PetscCall(VecDuplicate(*b, &uex));
  PetscCall(PPEProblemComputeRHS(PPE_PROBLEM_MMS, *g, *b, uex, &known));
  PetscCall(PPEGridIsSingular(*g, &singular));
  if (singular) {
    PetscScalar sum;
    PetscInt    N;
    PetscCall(VecSum(*b, &sum));
    PetscCall(VecGetSize(*b, &N));
    PetscCall(VecShift(*b, -sum / N));
  }
  PetscCall(VecDestroy(&uex));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||b - A x|| / ||b|| */
static PetscErrorCode TrueResidual(Mat A, Vec b, Vec x, PetscReal *rel)
{
  Vec       r;
  PetscReal rn, bn;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  *rel = bn > 0 ? rn / bn : rn;
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ KSP/PC combinations */

typedef struct {
  KSPType ksp;
  PCType  pc;
} Combo;

/* Every KSP and PC of PPEKit: cbcg and bcgsfused with each PC, PETSc's CG around each PC, and
   fftptdma as a direct solver (preonly). */
static const Combo combos[] = {
  {KSPCBCG,      PCNONE    },
  {KSPCBCG,      PCFFTPTDMA},
  {KSPCBCG,      PCCHEBYCI },
  {KSPCBCG,      PCTILEILU },
  {KSPBCGSFUSED, PCNONE    },
  {KSPBCGSFUSED, PCFFTPTDMA},
  {KSPBCGSFUSED, PCCHEBYCI },
  {KSPBCGSFUSED, PCTILEILU },
  {KSPCG,        PCFFTPTDMA},
  {KSPCG,        PCCHEBYCI },
  {KSPCG,        PCTILEILU },
  {KSPPREONLY,   PCFFTPTDMA}
};
#define NCOMBO ((PetscInt)(sizeof(combos) / sizeof(combos[0])))

static PetscErrorCode ComboKSP(Mat A, const Combo *c, KSP *ksp)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), ksp));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPSetType(*ksp, c->ksp));
  if (!strcmp(c->ksp, KSPBCGSFUSED)) PetscCall(KSPSetPCSide(*ksp, PC_RIGHT));
  PetscCall(KSPSetTolerances(*ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPGetPC(*ksp, &pc));
  PetscCall(PCSetType(pc, c->pc));
  if (!strcmp(c->pc, PCFFTPTDMA)) PetscCall(PCFFTPTDMASetPlanner(pc, PC_FFTPTDMA_PLANNER_ESTIMATE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscErrorCode     code;
  KSPConvergedReason reason;
  PetscInt           its;
} Outcome;

/* Solve with the combination; x holds the initial guess when nonzero. */
static PetscErrorCode ComboSolve(Mat A, const Combo *c, Vec b, Vec x, PetscBool nonzero, Outcome *o)
{
  KSP ksp;

  PetscFunctionBegin;
  PetscCall(ComboKSP(A, c, &ksp));
  PetscCall(KSPSetInitialGuessNonzero(ksp, nonzero));
  TRY(o->code, KSPSolve(ksp, b, x));
  o->reason = KSP_CONVERGED_ITERATING;
  o->its    = -1;
  if (!o->code) {
    PetscCall(KSPGetConvergedReason(ksp, &o->reason));
    PetscCall(KSPGetIterationNumber(ksp, &o->its));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *OutcomeName(const Outcome *o, char buf[], size_t len)
{
  if (o->code) PetscSNPrintf(buf, len, "PETSc error %d", (int)o->code);
  else PetscSNPrintf(buf, len, "%s after %d iterations", KSPConvergedReasons[o->reason], (int)o->its);
  return buf;
}

/* NaN and Inf in the right-hand side and in the initial guess, every combination. */
static PetscErrorCode NonFinite(MPI_Comm comm)
{
  PPEGrid     g;
  Mat         A;
  Vec         b, bad, x;
  const char *what[4] = {"NaN in b", "Inf in b", "NaN in x0", "Inf in x0"};

  PetscFunctionBegin;
  PetscCall(Problem(comm, "DDDDDD", 0, &g, &A, &b));
  PetscCall(VecDuplicate(b, &bad));
  PetscCall(VecDuplicate(b, &x));
  for (PetscInt i = 0; i < NCOMBO; i++) {
    for (PetscInt f = 0; f < 4; f++) {
      Outcome            o;
      PetscInt           N;
      PetscBool          ok;
      char               buf[128];
      KSPConvergedReason want;

      if (f >= 2 && !strcmp(combos[i].ksp, KSPPREONLY)) continue; /* preonly takes no initial guess */
      PetscCall(VecGetSize(b, &N));
      PetscCall(VecCopy(b, bad));
      PetscCall(VecSet(x, 0.0));
      /* one bad entry in the middle of the global vector: on the last rank at 2 ranks */
      PetscCall(VecSetValue(f < 2 ? bad : x, N / 2 + 3, f % 2 ? (PetscScalar)INFINITY : (PetscScalar)NAN, INSERT_VALUES));
      PetscCall(VecAssemblyBegin(f < 2 ? bad : x));
      PetscCall(VecAssemblyEnd(f < 2 ? bad : x));
      PetscCall(ComboSolve(A, &combos[i], f < 2 ? bad : b, x, (PetscBool)(f >= 2), &o));
      /* PC fftptdma reports a non-finite result as a PC failure (so that preonly does not say
         converged); bcgsfused takes the norm of r before it applies the PC */
      want = (!strcmp(combos[i].pc, PCFFTPTDMA) && strcmp(combos[i].ksp, KSPBCGSFUSED)) ? KSP_DIVERGED_PC_FAILED : KSP_DIVERGED_NANORINF;
      ok   = (PetscBool)(!o.code && o.reason == want && o.its == 0);
      PetscCall(TapCheck(comm, ok, "%s + %s, %s: %s at iteration 0 (got %s)", combos[i].ksp, combos[i].pc, what[f], KSPConvergedReasons[want], OutcomeName(&o, buf, sizeof(buf))));
    }
  }
  PetscCall(VecDestroy(&bad));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A zero right-hand side: the zero solution, no iteration (preonly: one application). */
static PetscErrorCode ZeroRHS(MPI_Comm comm)
{
  PPEGrid g;
  Mat     A;
  Vec     b, x;

  PetscFunctionBegin;
  PetscCall(Problem(comm, "DDDDDD", 0, &g, &A, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecSet(b, 0.0));
  for (PetscInt i = 0; i < NCOMBO; i++) {
    Outcome   o;
    PetscReal xn;
    PetscBool pre = (PetscBool)!strcmp(combos[i].ksp, KSPPREONLY), ok;
    char      buf[128];

    PetscCall(VecSet(x, 1.0)); /* overwritten: the guess is zero */
    PetscCall(ComboSolve(A, &combos[i], b, x, PETSC_FALSE, &o));
    PetscCall(VecNorm(x, NORM_INFINITY, &xn));
    ok = (PetscBool)(!o.code && xn == 0.0 && (pre ? (o.reason == KSP_CONVERGED_ITS && o.its == 1) : (o.reason == KSP_CONVERGED_ATOL && o.its == 0)));
    PetscCall(TapCheck(comm, ok, "%s + %s, zero b: x = 0 exactly, %s (got %s, |x| = %g)", combos[i].ksp, combos[i].pc, pre ? "CONVERGED_ITS after 1 application" : "CONVERGED_ATOL after 0 iterations", OutcomeName(&o, buf, sizeof(buf)), (double)xn));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A singular Neumann problem with an incompatible right-hand side b + 1. The operator carries
   the constant null space (also as transpose null space), so KSPSolve projects b: every
   combination converges to the least-squares solution, A x = b - mean(b). */
static PetscErrorCode Incompatible(MPI_Comm comm)
{
  PPEGrid g;
  Mat     A;
  Vec     b, bp, x;

  PetscFunctionBegin;
  PetscCall(Problem(comm, "NNNNNN", 0, &g, &A, &b));
  PetscCall(VecDuplicate(b, &bp));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecCopy(b, bp));   /* the consistent part */
  PetscCall(VecShift(b, 1.0)); /* + a constant: incompatible */
  for (PetscInt i = 0; i < NCOMBO; i++) {
    Outcome   o;
    PetscReal rel;
    PetscBool ok;
    char      buf[128];

    PetscCall(ComboSolve(A, &combos[i], b, x, PETSC_FALSE, &o));
    PetscCall(TrueResidual(A, bp, x, &rel));
    ok = (PetscBool)(!o.code && o.reason > 0 && rel <= 1e-8);
    PetscCall(
      TapCheck(comm, ok, "%s + %s, singular Neumann, b + 1 incompatible: b projected, converged with ||(b - mean b) - A x|| / ||b - mean b|| <= 1e-8 (got %s, %.1e)", combos[i].ksp, combos[i].pc, OutcomeName(&o, buf, sizeof(buf)), (double)rel));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&bp));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ bad input: errors */

/* Set up a PC of the given type on P (an optional DM given with PCSetDM); the error code. */
static PetscErrorCode TryPC(Mat P, DM dm, PCType type, PetscErrorCode *code)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)P), &pc));
  PetscCall(PCSetType(pc, type));
  PetscCall(PCSetOperators(pc, P, P));
  if (dm) PetscCall(PCSetDM(pc, dm));
  if (!strcmp(type, PCFFTPTDMA)) PetscCall(PCFFTPTDMASetPlanner(pc, PC_FFTPTDMA_PLANNER_ESTIMATE));
  TRY(*code, PCSetUp(pc));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An assembled 7-point matrix with 6 on the diagonal and -0.5 to the x neighbours, on a 3D
   DMDA with dof unknowns per point (or on no DM when dof = 0). */
static PetscErrorCode DMDAMatrix(MPI_Comm comm, PetscInt dof, DM *da, Mat *A)
{
  PetscFunctionBegin;
  *da = NULL;
  if (!dof) {
    PetscCall(MatCreateAIJ(comm, 64, 64, PETSC_DETERMINE, PETSC_DETERMINE, 1, NULL, 0, NULL, A));
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatShift(*A, 6.0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 8, 8, 8, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, dof, 1, NULL, NULL, NULL, da));
  PetscCall(DMSetUp(*da));
  PetscCall(DMSetMatType(*da, MATAIJ));
  PetscCall(DMCreateMatrix(*da, A));
  PetscCall(MatShift(*A, 6.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InputErrors(MPI_Comm comm, PetscMPIInt size)
{
  PetscErrorCode code;
  PPEGrid        g;
  DM             da;
  Mat            A;

  PetscFunctionBegin;
  /* grid: periodic on one face, a BC the DMDA does not have, too few points */
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetSizes(g, 8, 8, 8));
  TRY(code, PPEGridSetBCString(g, "PNNNNN"));
  if (!code) TRY(code, PPEGridSetUp(g));
  PetscCall(ExpectError(comm, "grid PNNNNN, periodic on one face", code, PETSC_ERR_ARG_INCOMP, "Periodic boundary conditions come in pairs: face xlo is periodic but face xhi is neumann"));
  PetscCall(PPEGridDestroy(&g));

  PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 8, 8, 8, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetBCString(g, "PPNNDD"));
  PetscCall(PPEGridSetDM(g, da));
  TRY(code, PPEGridSetUp(g));
  PetscCall(ExpectError(comm, "grid PPNNDD on a DMDA not periodic in x (unsupported BC combination)", code, PETSC_ERR_ARG_INCOMP, "Grid/DMDA boundary mismatch in x"));
  PetscCall(PPEGridDestroy(&g));
  PetscCall(DMDestroy(&da));

  PetscCall(PPEGridCreate(comm, &g));
  TRY(code, PPEGridSetSizes(g, 8, 2, 8));
  if (!code) TRY(code, PPEGridSetUp(g));
  PetscCall(ExpectError(comm, "grid 8x2x8, too few points", code, PETSC_ERR_ARG_OUTOFRANGE, "at least 3 points in every direction: got 2 in y"));
  PetscCall(PPEGridDestroy(&g));

  /* too few points per rank: fftptdma's z group (2 ranks), the tridiagonal batch (any) */
  if (size > 1) {
    PC pc;
    PetscCall(PPEGridCreate(comm, &g));
    PetscCall(PPEGridSetSizes(g, 8, 6, 3));
    PetscCall(PPEGridSetBCString(g, "PPNNDD"));
    PetscCall(PPEGridSetUp(g));
    PetscCall(PPEStencilCreate(g, &A));
    PetscCall(PCCreate(comm, &pc));
    PetscCall(PCSetType(pc, PCFFTPTDMA));
    PetscCall(PCSetOperators(pc, A, A));
    PetscCall(PCFFTPTDMASetPlanner(pc, PC_FFTPTDMA_PLANNER_ESTIMATE));
    PetscCall(PCFFTPTDMASetPencilGrid(pc, 1, size));
    TRY(code, PCSetUp(pc));
    PetscCall(ExpectError(comm, "fftptdma, 3 z points over a z group of all ranks", code, PETSC_ERR_ARG_SIZ, "fewer than 2 z points per rank in the z group"));
    PetscCall(PCDestroy(&pc));
    PetscCall(MatDestroy(&A));
    PetscCall(PPEGridDestroy(&g));
  } else PetscCall(PetscPrintf(comm, "ok - fftptdma, 3 z points over a z group of all ranks: needs 2 ranks # SKIP\n"));
  {
    PPETridiag  t;
    PetscMPIInt rank;
    PetscInt    m;
    PetscReal   a[4] = {0, -1, -1, -1}, b[4] = {2, 2, 2, 2}, c[4] = {-1, -1, -1, -1};

    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    m = rank == size - 1 ? 1 : 4;
    if (rank == size - 1) c[m - 1] = 0;
    PetscCall(PPETridiagCreate(comm, &t));
    PetscCall(PPETridiagSetSizes(t, 3, m));
    PetscCall(PPETridiagSetCoefficients(t, a, b, c));
    TRY(code, PPETridiagSetUp(t));
    PetscCall(ExpectError(comm, "tridiagonal batch, 1 row on the last rank", code, PETSC_ERR_ARG_SIZ, "needs at least 2 rows of each line"));
    PetscCall(PPETridiagDestroy(&t));
  }

  /* operators without a DMDA, with 2 dofs, and a non-separable one */
  PetscCall(DMDAMatrix(comm, 0, &da, &A));
  PetscCall(TryPC(A, NULL, PCFFTPTDMA, &code));
  PetscCall(ExpectError(comm, "fftptdma on an AIJ matrix without a DM", code, PETSC_ERR_ARG_WRONG, "has no DM; the operator must live on a 3D DMDA"));
  PetscCall(TryPC(A, NULL, PCTILEILU, &code));
  PetscCall(ExpectError(comm, "tileilu on an AIJ matrix without a DM", code, PETSC_ERR_SUP, "PC tileilu needs an operator on a "));
  PetscCall(TryPC(A, NULL, PCCHEBYCI, &code)); /* default source with no grid: estimate */
  PetscCall(ExpectError(comm, "chebyci on 6 I without a DM (Lanczos bounds are one point)", code, PETSC_ERR_CONV_FAILED, "the operator acts as a multiple of the identity"));
  {
    PC pc;
    PetscCall(PCCreate(comm, &pc));
    PetscCall(PCSetType(pc, PCCHEBYCI));
    PetscCall(PCSetOperators(pc, A, A));
    PetscCall(PCChebyCISetEigSource(pc, PC_CHEBYCI_EIG_GRID));
    TRY(code, PCSetUp(pc));
    PetscCall(ExpectError(comm, "chebyci eig source grid on an AIJ matrix without a DM", code, PETSC_ERR_ARG_WRONG, "eigenvalue source 'grid' needs the operator's PPEGrid"));
    PetscCall(PCDestroy(&pc));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(DMDAMatrix(comm, 2, &da, &A));
  PetscCall(TryPC(A, NULL, PCFFTPTDMA, &code));
  PetscCall(ExpectError(comm, "fftptdma on a DMDA with dof 2", code, PETSC_ERR_ARG_WRONG, "dof = 2; only scalar fields (dof 1) are supported"));
  PetscCall(TryPC(A, NULL, PCTILEILU, &code));
  PetscCall(ExpectError(comm, "tileilu on a DMDA with dof 2", code, PETSC_ERR_SUP, "one degree of freedom per point, got 2"));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetDM(g, da));
  TRY(code, PPEGridSetUp(g));
  PetscCall(ExpectError(comm, "grid on a DMDA with dof 2", code, PETSC_ERR_ARG_WRONG, "PPEGrid needs a DMDA with 1 degree of freedom per point, got 2"));
  PetscCall(PPEGridDestroy(&g));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  {
    DPProblem pb = {DP_CELL_VARCOEF, PETSC_FALSE, 0.5};
    PetscCall(DPCreateDMDA(comm, &pb, 8, 8, 8, DMDA_STENCIL_STAR, &da));
    PetscCall(DMSetMatType(da, MATAIJ));
    PetscCall(DMCreateMatrix(da, &A));
    PetscCall(DPAssemble(da, &pb, A));
    PetscCall(TryPC(A, NULL, PCFFTPTDMA, &code));
    PetscCall(ExpectError(comm, "fftptdma on a variable-coefficient (non-separable) matrix", code, PETSC_ERR_ARG_WRONG, "-pc_fftptdma_approximate"));
    PetscCall(MatDestroy(&A));
    PetscCall(DMDestroy(&da));
  }

  /* settings out of range */
  {
    KSP ksp;
    PC  pc;
    PetscCall(KSPCreate(comm, &ksp));
    PetscCall(KSPSetType(ksp, KSPCBCG));
    TRY(code, KSPCBCGSetEigenvalues(ksp, 5.0, 1.0));
    PetscCall(ExpectError(comm, "cbcg interval [5, 1] (inverted)", code, PETSC_ERR_ARG_OUTOFRANGE, "eigenvalue interval must satisfy 0 <= lmin < lmax"));
    TRY(code, KSPCBCGSetEigenvalues(ksp, -1.0, 4.0));
    PetscCall(ExpectError(comm, "cbcg interval [-1, 4] (negative)", code, PETSC_ERR_ARG_OUTOFRANGE, "eigenvalue interval must satisfy 0 <= lmin < lmax"));
    TRY(code, KSPCBCGSetS(ksp, 0));
    PetscCall(ExpectError(comm, "cbcg s = 0", code, PETSC_ERR_ARG_OUTOFRANGE, "block size s must be in 1..16, got 0"));
    TRY(code, KSPCBCGSetS(ksp, 17));
    PetscCall(ExpectError(comm, "cbcg s = 17", code, PETSC_ERR_ARG_OUTOFRANGE, "block size s must be in 1..16, got 17"));
    PetscCall(KSPDestroy(&ksp));
    PetscCall(PCCreate(comm, &pc));
    PetscCall(PCSetType(pc, PCCHEBYCI));
    TRY(code, PCChebyCISetEigenvalues(pc, 5.0, 1.0));
    PetscCall(ExpectError(comm, "chebyci interval [5, 1] (inverted)", code, PETSC_ERR_ARG_OUTOFRANGE, "eigenvalue interval is inverted or empty: need lmin < lmax"));
    TRY(code, PCChebyCISetEigenvalues(pc, -1.0, 4.0));
    PetscCall(ExpectError(comm, "chebyci interval [-1, 4] (negative)", code, PETSC_ERR_ARG_OUTOFRANGE, "eigenvalue bounds must be positive and finite"));
    TRY(code, PCChebyCISetIterations(pc, 0));
    PetscCall(ExpectError(comm, "chebyci its = 0", code, PETSC_ERR_ARG_OUTOFRANGE, "needs at least 1 iteration"));
    PetscCall(PCDestroy(&pc));
    PetscCall(PCCreate(comm, &pc));
    PetscCall(PCSetType(pc, PCTILEILU));
    TRY(code, PCTileILUSetTile(pc, 0, 4, 4));
    PetscCall(ExpectError(comm, "tileilu tile 0x4x4", code, PETSC_ERR_ARG_OUTOFRANGE, "tile sizes must be >= 1, got 0 x 4 x 4"));
    PetscCall(PCDestroy(&pc));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ 2D grids */

/* Bad input of a 2D grid: each a clear error at the call that takes it or at set-up; and NaN
   in the right-hand side of a 2D operator for every combination. */
static PetscErrorCode Grid2d(MPI_Comm comm)
{
  PetscErrorCode code;
  PPEGrid        g;
  DM             da;

  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, &g));
  TRY(code, PPEGridSetBCString(g, "PPN"));
  PetscCall(ExpectError(comm, "2D: BC string PPN (3 letters)", code, PETSC_ERR_ARG_SIZ, "6 letters (xlo xhi ylo yhi zlo zhi) or, for a 2D grid, 4 (xlo xhi ylo yhi), got \"PPN\""));
  TRY(code, PPEGridSetDimension(g, 4));
  PetscCall(ExpectError(comm, "2D: dimension 4", code, PETSC_ERR_ARG_OUTOFRANGE, "A PPEGrid is 2D or 3D, got dimension 4"));
  PetscCall(PPEGridSetDimension(g, 2));
  TRY(code, PPEGridSetBCString(g, "PPNNDD"));
  PetscCall(ExpectError(comm, "2D: six BC letters on a 2D grid", code, PETSC_ERR_ARG_INCOMP, "The grid cannot be 3D (a boundary-condition string of 6 letters) and 2D (PPEGridSetDimension() or -ppe_grid_dim)"));
  TRY(code, PPEGridSetSizes(g, 8, 2, 1));
  PetscCall(ExpectError(comm, "2D: 8 x 2 grid", code, PETSC_ERR_ARG_OUTOFRANGE, "at least 3 points in every direction: got 2 in y"));
  TRY(code, PPEGridSetBC(g, PPE_FACE_ZLO, PPE_BC_NEUMANN));
  PetscCall(ExpectError(comm, "2D: face zlo", code, PETSC_ERR_ARG_OUTOFRANGE, "Face 4 is not one of the 4 faces 0..3 of a 2D grid"));
  PetscCall(PPEGridSetBCString(g, "NNPD"));
  TRY(code, PPEGridSetUp(g));
  PetscCall(ExpectError(comm, "2D: NNPD, periodic on one y face", code, PETSC_ERR_ARG_INCOMP, "Periodic boundary conditions come in pairs: face ylo is periodic but face yhi is dirichlet"));
  PetscCall(PPEGridDestroy(&g));

  /* user 2D DMDAs: dof 2, stencil width 0, a periodicity the BCs lack; a 1D DMDA */
  for (int c = 0; c < 3; c++) {
    const char *text[3] = {"PPEGrid needs a DMDA with 1 degree of freedom per point, got 2", "PPEGrid needs a DMDA with stencil width >= 1, got 0", "Grid/DMDA boundary mismatch in y"};
    const char *what[3] = {"2D: a 2D DMDA with dof 2", "2D: a 2D DMDA with stencil width 0", "2D: NNDD on a DMDA periodic in y"};
    PetscCall(DMDACreate2d(comm, DM_BOUNDARY_NONE, c == 2 ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 8, 6, PETSC_DECIDE, PETSC_DECIDE, c == 0 ? 2 : 1, c == 1 ? 0 : 1, NULL, NULL, &da));
    PetscCall(DMSetUp(da));
    PetscCall(PPEGridCreate(comm, &g));
    PetscCall(PPEGridSetBCString(g, "NNDD"));
    PetscCall(PPEGridSetDM(g, da));
    TRY(code, PPEGridSetUp(g));
    PetscCall(ExpectError(comm, what[c], code, c == 2 ? PETSC_ERR_ARG_INCOMP : PETSC_ERR_ARG_WRONG, text[c]));
    PetscCall(PPEGridDestroy(&g));
    PetscCall(DMDestroy(&da));
  }
  PetscCall(DMDACreate1d(comm, DM_BOUNDARY_NONE, 8, 1, 1, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(PPEGridCreate(comm, &g));
  TRY(code, PPEGridSetDM(g, da));
  PetscCall(ExpectError(comm, "a 1D DMDA", code, PETSC_ERR_ARG_WRONG, "PPEGrid needs a 2D or 3D DMDA, got dimension 1"));
  PetscCall(PPEGridDestroy(&g));
  PetscCall(DMDestroy(&da));

  /* NaN in b on a 2D operator */
  {
    Mat A;
    Vec b, x;
    PetscCall(Problem(comm, "DDNN", 0, &g, &A, &b));
    PetscCall(VecDuplicate(b, &x));
    for (PetscInt i = 0; i < NCOMBO; i++) {
      Outcome            o;
      PetscInt           N;
      char               buf[128];
      KSPConvergedReason want;

      PetscCall(VecGetSize(b, &N));
      PetscCall(VecSetValue(b, N / 2 + 3, (PetscScalar)NAN, INSERT_VALUES));
      PetscCall(VecAssemblyBegin(b));
      PetscCall(VecAssemblyEnd(b));
      PetscCall(VecSet(x, 0.0));
      PetscCall(ComboSolve(A, &combos[i], b, x, PETSC_FALSE, &o));
      /* as in 3D: PC fftptdma reports its non-finite output as a PC failure (bcgsfused sees its own NaN first) */
      want = (!strcmp(combos[i].pc, PCFFTPTDMA) && strcmp(combos[i].ksp, KSPBCGSFUSED)) ? KSP_DIVERGED_PC_FAILED : KSP_DIVERGED_NANORINF;
      PetscCall(TapCheck(comm, (PetscBool)(!o.code && o.reason == want && o.its == 0), "2D %" PetscInt_FMT " x %" PetscInt_FMT " DDNN, %s + %s, NaN in b: %s at iteration 0 (got %s)", n, n, combos[i].ksp, combos[i].pc, KSPConvergedReasons[want],
                         OutcomeName(&o, buf, sizeof(buf))));
    }
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&A));
    PetscCall(PPEGridDestroy(&g));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A tile larger than the box is clamped to the box (documented): one tile per rank, and the
   same preconditioner bit for bit as the tile the size of the box. */
static PetscErrorCode TileClamp(MPI_Comm comm)
{
  PPEGrid   g;
  Mat       A;
  Vec       b, y1, y2;
  PC        pc1, pc2;
  PetscInt  tile[3], ntiles, m[3];
  DM        da;
  PetscBool eq;

  PetscFunctionBegin;
  PetscCall(Problem(comm, "DDDDDD", 0, &g, &A, &b));
  PetscCall(PPEGridGetDM(g, &da));
  PetscCall(DMDAGetCorners(da, NULL, NULL, NULL, &m[0], &m[1], &m[2]));
  PetscCall(VecDuplicate(b, &y1));
  PetscCall(VecDuplicate(b, &y2));
  PetscCall(PCCreate(comm, &pc1));
  PetscCall(PCSetType(pc1, PCTILEILU));
  PetscCall(PCSetOperators(pc1, A, A));
  PetscCall(PCTileILUSetTile(pc1, 1000, 1000, 1000));
  PetscCall(PCSetUp(pc1));
  PetscCall(PCTileILUGetInfo(pc1, tile, &ntiles, NULL));
  PetscCall(PCApply(pc1, b, y1));
  PetscCall(PCCreate(comm, &pc2));
  PetscCall(PCSetType(pc2, PCTILEILU));
  PetscCall(PCSetOperators(pc2, A, A));
  PetscCall(PCTileILUSetTile(pc2, m[0], m[1], m[2]));
  PetscCall(PCApply(pc2, b, y2));
  PetscCall(TestBitwiseEqual(y1, y2, &eq));
  PetscCall(TapCheck(comm, (PetscBool)(eq && ntiles == 1 && tile[0] == m[0] && tile[1] == m[1] && tile[2] == m[2]),
                     "tileilu tile 1000x1000x1000 larger than the box: clamped to the local box %dx%dx%d, 1 tile, same bits as that tile (got %dx%dx%d, %d tiles, same bits: %s)", (int)m[0], (int)m[1], (int)m[2], (int)tile[0], (int)tile[1],
                     (int)tile[2], (int)ntiles, eq ? "yes" : "no"));
  PetscCall(PCDestroy(&pc1));
  PetscCall(PCDestroy(&pc2));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An indefinite operator for cbcg: the grid operator minus 0.3 lmax I. */
static PetscErrorCode Indefinite(MPI_Comm comm)
{
  PPEGrid   g;
  Mat       A, P;
  Vec       b, x;
  PetscReal lmin, lmax;
  Outcome   o;
  char      buf[128];
  Combo     c = {KSPCBCG, PCNONE};

  PetscFunctionBegin;
  PetscCall(Problem(comm, "DDDDDD", 0, &g, &A, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(PPEGridGetOperatorBounds(g, &lmin, &lmax, NULL));
  PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &P));
  PetscCall(MatShift(P, -0.3 * lmax));
  PetscCall(ComboSolve(P, &c, b, x, PETSC_FALSE, &o));
  PetscCall(TapCheck(comm, (PetscBool)(!o.code && o.reason == KSP_DIVERGED_INDEFINITE_MAT), "cbcg on A - 0.3 lmax I (indefinite): DIVERGED_INDEFINITE_MAT (got %s)", OutcomeName(&o, buf, sizeof(buf))));
  {
    KSP            ksp;
    PetscErrorCode code;
    PetscCall(ComboKSP(A, &c, &ksp));
    PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
    TRY(code, KSPSolve(ksp, b, x));
    PetscCall(ExpectError(comm, "cbcg with right preconditioning", code, PETSC_ERR_SUP, "KSP cbcg does not support preconditioner side RIGHT"));
    PetscCall(KSPDestroy(&ksp));
  }
  PetscCall(MatDestroy(&P));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ order of calls */

/* KSPSolve without KSPSetUp sets up (same bits as with it); a KSP that met a NaN right-hand
   side solves the next, good one; PCApply without PCSetUp sets up; PCApply with no operator
   and the getters that need a set-up PC are errors. */
static PetscErrorCode Order(MPI_Comm comm)
{
  PPEGrid g;
  Mat     A;
  Vec     b, bad, x1, x2;

  PetscFunctionBegin;
  PetscCall(Problem(comm, "DDDDDD", 0, &g, &A, &b));
  PetscCall(VecDuplicate(b, &x1));
  PetscCall(VecDuplicate(b, &x2));
  PetscCall(VecDuplicate(b, &bad));
  PetscCall(VecCopy(b, bad));
  PetscCall(VecSetValue(bad, 0, (PetscScalar)NAN, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(bad));
  PetscCall(VecAssemblyEnd(bad));
  for (PetscInt i = 0; i < NCOMBO; i++) {
    KSP                ksp1, ksp2;
    KSPConvergedReason r1, r2, r0;
    PetscBool          eq;
    PetscReal          rel = PETSC_MAX_REAL; /* set below; a value that fails */

    PetscCall(ComboKSP(A, &combos[i], &ksp1));
    PetscCall(KSPSolve(ksp1, b, x1)); /* no KSPSetUp */
    PetscCall(KSPGetConvergedReason(ksp1, &r1));
    PetscCall(ComboKSP(A, &combos[i], &ksp2));
    PetscCall(KSPSetUp(ksp2));
    PetscCall(KSPSolve(ksp2, b, x2));
    PetscCall(KSPGetConvergedReason(ksp2, &r2));
    PetscCall(TestBitwiseEqual(x1, x2, &eq));
    PetscCall(
      TapCheck(comm, (PetscBool)(r1 > 0 && eq), "%s + %s, KSPSolve before KSPSetUp: sets up, converged, same bits as with KSPSetUp (%s, same bits: %s; want converged, yes)", combos[i].ksp, combos[i].pc, KSPConvergedReasons[r1], eq ? "yes" : "no"));
    PetscCall(KSPSolve(ksp2, bad, x2));
    PetscCall(KSPGetConvergedReason(ksp2, &r0));
    PetscCall(KSPSolve(ksp2, b, x2));
    PetscCall(KSPGetConvergedReason(ksp2, &r2));
    PetscCall(TestRelDiff(x2, x1, NORM_2, &rel));
    PetscCall(TapCheck(comm, (PetscBool)(r0 < 0 && r2 > 0 && rel <= 1e-12), "%s + %s, a good b after a NaN b on the same KSP: diverged then converged to the same solution (%s, %s, difference %.1e; want diverged, converged, <= 1e-12)", combos[i].ksp,
                       combos[i].pc, KSPConvergedReasons[r0], KSPConvergedReasons[r2], (double)rel));
    PetscCall(KSPDestroy(&ksp1));
    PetscCall(KSPDestroy(&ksp2));
  }
  {
    const PCType types[3] = {PCFFTPTDMA, PCCHEBYCI, PCTILEILU};
    for (int t = 0; t < 3; t++) {
      PC             pc1, pc2;
      PetscBool      eq;
      PetscErrorCode code;

      PetscCall(PCCreate(comm, &pc1));
      PetscCall(PCSetType(pc1, types[t]));
      PetscCall(PCSetOperators(pc1, A, A));
      /* same bits need the same FFTW plans: the estimate planner (the default measures, and
         plans chosen by timing may differ between two set-ups) */
      if (t == 0) PetscCall(PCFFTPTDMASetPlanner(pc1, PC_FFTPTDMA_PLANNER_ESTIMATE));
      PetscCall(PCApply(pc1, b, x1)); /* no PCSetUp */
      PetscCall(PCCreate(comm, &pc2));
      PetscCall(PCSetType(pc2, types[t]));
      PetscCall(PCSetOperators(pc2, A, A));
      if (t == 0) PetscCall(PCFFTPTDMASetPlanner(pc2, PC_FFTPTDMA_PLANNER_ESTIMATE));
      PetscCall(PCSetUp(pc2));
      PetscCall(PCApply(pc2, b, x2));
      PetscCall(TestBitwiseEqual(x1, x2, &eq));
      PetscCall(TapCheck(comm, eq, "%s, PCApply before PCSetUp: sets up, same bits as with PCSetUp", types[t]));
      PetscCall(PCDestroy(&pc1));
      PetscCall(PCDestroy(&pc2));
      PetscCall(PCCreate(comm, &pc1));
      PetscCall(PCSetType(pc1, types[t]));
      TRY(code, PCSetUp(pc1));
      PetscCall(ExpectError(comm, t == 0 ? "fftptdma, PCSetUp with no operator" : (t == 1 ? "chebyci, PCSetUp with no operator" : "tileilu, PCSetUp with no operator"), code, PETSC_ERR_ARG_WRONGSTATE, "Matrix must be set first"));
      if (t == 0) TRY(code, PCFFTPTDMAGetCommCounts(pc1, NULL, NULL, NULL));
      else if (t == 1) TRY(code, PCChebyCIGetInterval(pc1, NULL, NULL, NULL, NULL));
      else TRY(code, PCTileILUGetInfo(pc1, NULL, NULL, NULL));
      PetscCall(ExpectError(comm, t == 0 ? "PCFFTPTDMAGetCommCounts before set-up" : (t == 1 ? "PCChebyCIGetInterval before set-up" : "PCTileILUGetInfo before set-up"), code, PETSC_ERR_ORDER, "Call PCSetUp() before"));
      PetscCall(PCDestroy(&pc1));
    }
  }
  PetscCall(VecDestroy(&bad));
  PetscCall(VecDestroy(&x1));
  PetscCall(VecDestroy(&x2));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ changed operators */

/* A second set-up after the operator changed uses the new operator: each PC and each KSP is
   compared with a fresh object made on the new operator. Two ways to change it: new values of
   an assembled matrix (MatScale: the state increases), and a new grid for a matrix-free operator
   (PPEStencilSetGrid with a shifted grid of the same size). */
static PetscErrorCode Changed(MPI_Comm comm)
{
  PPEGrid g, g2;
  Mat     A, P = NULL;
  Vec     b, y1, y2, y0;

  PetscFunctionBegin;
  PetscCall(Problem(comm, "DDDDDD", 0, &g, &A, &b));
  PetscCall(Problem(comm, "DDDDDD", 50.0, &g2, NULL, NULL)); /* only the grid */
  PetscCall(VecDuplicate(b, &y0));
  PetscCall(VecDuplicate(b, &y1));
  PetscCall(VecDuplicate(b, &y2));
  for (int way = 0; way < 2; way++) {
    const PCType types[3] = {PCFFTPTDMA, PCCHEBYCI, PCTILEILU};
    for (int t = 0; t < 3; t++) {
      PC        pc1, pc2;
      PetscReal d = PETSC_MAX_REAL, d0 = 0; /* set below; the values that fail the check */

      if (way == 0) PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &P));
      else PetscCall(PPEStencilCreate(g, &P));
      PetscCall(PCCreate(comm, &pc1));
      PetscCall(PCSetType(pc1, types[t]));
      PetscCall(PCSetOperators(pc1, P, P));
      if (t == 0) PetscCall(PCFFTPTDMASetPlanner(pc1, PC_FFTPTDMA_PLANNER_ESTIMATE));
      if (t == 1 && way == 0) PetscCall(PCChebyCISetEigSource(pc1, PC_CHEBYCI_EIG_ESTIMATE));
      PetscCall(PCSetUp(pc1));
      PetscCall(PCApply(pc1, b, y0));
      if (way == 0) PetscCall(MatScale(P, 2.0));
      else PetscCall(PPEStencilSetGrid(P, g2));
      PetscCall(PCApply(pc1, b, y1)); /* set up again by PCApply: the state changed */
      PetscCall(PCCreate(comm, &pc2));
      PetscCall(PCSetType(pc2, types[t]));
      PetscCall(PCSetOperators(pc2, P, P));
      if (t == 0) PetscCall(PCFFTPTDMASetPlanner(pc2, PC_FFTPTDMA_PLANNER_ESTIMATE));
      if (t == 1 && way == 0) PetscCall(PCChebyCISetEigSource(pc2, PC_CHEBYCI_EIG_ESTIMATE));
      PetscCall(PCApply(pc2, b, y2));
      PetscCall(TestRelDiff(y1, y2, NORM_2, &d));
      PetscCall(TestRelDiff(y0, y2, NORM_2, &d0));
      PetscCall(TapCheck(comm, (PetscBool)(d <= 1e-12 && d0 > 1e-3), "%s, %s between two applications: the second uses the new operator, equal to a fresh PC to %.1e (<= 1e-12) (the old result differs by %.2f, want > 1e-3)", types[t],
                         way == 0 ? "MatScale(P, 2) of the assembled matrix" : "PPEStencilSetGrid() with a shift-50 grid", (double)d, (double)d0));
      PetscCall(PCDestroy(&pc1));
      PetscCall(PCDestroy(&pc2));
      PetscCall(MatDestroy(&P));
    }
    for (PetscInt i = 0; i < NCOMBO; i++) {
      KSP                ksp1, ksp2;
      KSPConvergedReason r1, r2;
      PetscReal          d = PETSC_MAX_REAL, res = PETSC_MAX_REAL; /* set below; values that fail */

      if (way == 0) PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &P));
      else PetscCall(PPEStencilCreate(g, &P));
      PetscCall(ComboKSP(P, &combos[i], &ksp1));
      if (way == 0 && !strcmp(combos[i].pc, PCCHEBYCI)) { /* bounds from the matrix, not from the grid of its DMDA */
        PC pc;
        PetscCall(KSPGetPC(ksp1, &pc));
        PetscCall(PCChebyCISetEigSource(pc, PC_CHEBYCI_EIG_ESTIMATE));
      }
      PetscCall(KSPSolve(ksp1, b, y0));
      if (way == 0) PetscCall(MatScale(P, 2.0));
      else PetscCall(PPEStencilSetGrid(P, g2));
      PetscCall(KSPSolve(ksp1, b, y1));
      PetscCall(KSPGetConvergedReason(ksp1, &r1));
      PetscCall(ComboKSP(P, &combos[i], &ksp2));
      if (way == 0 && !strcmp(combos[i].pc, PCCHEBYCI)) {
        PC pc;
        PetscCall(KSPGetPC(ksp2, &pc));
        PetscCall(PCChebyCISetEigSource(pc, PC_CHEBYCI_EIG_ESTIMATE));
      }
      PetscCall(KSPSolve(ksp2, b, y2));
      PetscCall(KSPGetConvergedReason(ksp2, &r2));
      PetscCall(TestRelDiff(y1, y2, NORM_2, &d));
      PetscCall(TrueResidual(P, b, y1, &res));
      PetscCall(TapCheck(comm, (PetscBool)(r1 > 0 && r2 > 0 && d <= 1e-8 && res <= 1e-9),
                         "%s + %s, %s between two solves: the second solves the new system (residual %.1e, <= 1e-9), as a fresh KSP does (difference %.1e, <= 1e-8; %s, %s, want both converged)", combos[i].ksp, combos[i].pc,
                         way == 0 ? "MatScale(A, 2)" : "PPEStencilSetGrid(shift 50)", (double)res, (double)d, KSPConvergedReasons[r1], KSPConvergedReasons[r2]));
      PetscCall(KSPDestroy(&ksp1));
      PetscCall(KSPDestroy(&ksp2));
      PetscCall(MatDestroy(&P));
    }
  }
  PetscCall(VecDestroy(&y0));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscCall(PPEGridDestroy(&g2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ communicators */

/* Objects on different communicators: PETSc refuses them on 2 ranks; on 1 rank PETSC_COMM_SELF
   and PETSC_COMM_WORLD are congruent and PETSc accepts them (the solve is the same). */
static PetscErrorCode Communicators(MPI_Comm comm, PetscMPIInt size)
{
  PPEGrid        g, gs;
  Mat            A, As;
  Vec            b, bs, x, xs;
  KSP            ksp;
  PetscErrorCode code;
  PetscInt       nloc;

  PetscFunctionBegin;
  PetscCall(Problem(comm, "DDDDDD", 0, &g, &A, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecGetLocalSize(b, &nloc));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, nloc, &bs));
  PetscCall(VecDuplicate(bs, &xs));
  {
    const PetscScalar *a;
    PetscCall(VecGetArrayRead(b, &a));
    PetscCall(VecPlaceArray(bs, a)); /* the same values */
    PetscCall(VecCopy(bs, xs));
    PetscCall(VecResetArray(bs));
    PetscCall(VecRestoreArrayRead(b, &a));
    PetscCall(VecCopy(xs, bs));
  }
  PetscCall(ComboKSP(A, &combos[0], &ksp));
  TRY(code, KSPSolve(ksp, bs, xs));
  if (size > 1) PetscCall(ExpectError(comm, "KSPSolve on PETSC_COMM_WORLD with b and x on PETSC_COMM_SELF", code, PETSC_ERR_ARG_SIZ, "Mat mat,Vec x: global dim"));
  else {
    KSPConvergedReason r = KSP_CONVERGED_ITERATING;
    if (!code) PetscCall(KSPGetConvergedReason(ksp, &r));
    PetscCall(TapCheck(comm, (PetscBool)(!code && r > 0), "KSPSolve on PETSC_COMM_WORLD with b and x on PETSC_COMM_SELF, 1 rank: congruent, accepted and converged (error %d, %s; want 0, converged)", (int)code, KSPConvergedReasons[r]));
  }
  PetscCall(KSPDestroy(&ksp));

  /* an operator on PETSC_COMM_SELF (every rank its own copy) for a KSP on PETSC_COMM_WORLD:
     PETSc does not check; the global reductions act on the block-diagonal system of the copies,
     which the Krylov methods and the local PCs solve. PC fftptdma builds pencils on the PC's
     communicator and refuses. */
  PetscCall(PPEGridCreate(PETSC_COMM_SELF, &gs));
  PetscCall(PPEGridSetSizes(gs, n, n, n));
  PetscCall(PPEGridSetBCString(gs, "DDDDDD"));
  PetscCall(PPEGridSetUp(gs));
  PetscCall(PPEStencilCreate(gs, &As));
  PetscCall(VecDestroy(&bs));
  PetscCall(VecDestroy(&xs));
  PetscCall(MatCreateVecs(As, &xs, &bs));
  PetscCall(VecSet(bs, 1.0));
  for (PetscInt i = 0; i < NCOMBO; i++) {
    KSPConvergedReason r   = KSP_CONVERGED_ITERATING;
    PetscReal          res = -1;
    PetscBool          fft = (PetscBool)!strcmp(combos[i].pc, PCFFTPTDMA);
    char               what[128];

    PetscCall(KSPCreate(comm, &ksp));
    PetscCall(KSPSetOperators(ksp, As, As));
    PetscCall(KSPSetType(ksp, combos[i].ksp));
    if (!strcmp(combos[i].ksp, KSPBCGSFUSED)) PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
    PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
    {
      PC pc;
      PetscCall(KSPGetPC(ksp, &pc));
      PetscCall(PCSetType(pc, combos[i].pc));
    }
    TRY(code, KSPSolve(ksp, bs, xs));
    if (!code) {
      PetscCall(KSPGetConvergedReason(ksp, &r));
      PetscCall(TrueResidual(As, bs, xs, &res));
    }
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s + %s on PETSC_COMM_WORLD, MATPPESTENCIL on PETSC_COMM_SELF", combos[i].ksp, combos[i].pc));
    if (size > 1 && fft) PetscCall(ExpectError(comm, what, code, PETSC_ERR_ARG_NOTSAMECOMM, "the operator's DMDA is on a communicator of 1 ranks that is not the PC's"));
    else {
      PetscReal tol = strcmp(combos[i].ksp, KSPPREONLY) ? 1e-9 : 1e-12;
      PetscCall(TapCheck(comm, (PetscBool)(!code && r > 0 && res >= 0 && res <= tol), "%s: %s, converged, each rank's copy solved (error %d, %s, residual %.1e; want 0, converged, 0 <= residual <= %.0e)", what,
                         size > 1 ? "not checked by PETSc" : "congruent on 1 rank", (int)code, KSPConvergedReasons[r], (double)res, (double)tol));
    }
    PetscCall(KSPDestroy(&ksp));
  }

  /* PC tileilu on a matrix without a DM and a whole-grid DMDA on PETSC_COMM_SELF given by PCSetDM */
  {
    Mat P;
    DM  das;
    PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &P));
    PetscCall(MatSetDM(P, NULL));
    PetscCall(PPEGridGetDM(gs, &das));
    PetscCall(TryPC(P, das, PCTILEILU, &code));
    if (size > 1) PetscCall(ExpectError(comm, "tileilu, operator on PETSC_COMM_WORLD, DMDA on PETSC_COMM_SELF by PCSetDM", code, PETSC_ERR_ARG_SIZ, "local rows but the DMDA box of this rank has"));
    else PetscCall(TapCheck(comm, (PetscBool)(code == 0), "tileilu, operator on PETSC_COMM_WORLD, DMDA on PETSC_COMM_SELF by PCSetDM, 1 rank: the same box, accepted (error %d)", (int)code));
    PetscCall(MatDestroy(&P));
  }
  PetscCall(MatDestroy(&As));
  PetscCall(PPEGridDestroy(&gs));
  PetscCall(VecDestroy(&bs));
  PetscCall(VecDestroy(&xs));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ tridiagonal batches */

/* 3 Dirichlet-Laplacian lines (shifts 0, 1, 2) of 4 rows per rank; d holds 3 x 4 values. */
static PetscErrorCode Batch(MPI_Comm comm, PetscReal diag, PPETridiag *t)
{
  PetscMPIInt rank, size;
  PetscReal   a[4], b[4], c[4], shift[3] = {0, 1, 2};

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  for (int k = 0; k < 4; k++) {
    a[k] = (rank == 0 && k == 0) ? 0.0 : -1.0;
    c[k] = (rank == size - 1 && k == 3) ? 0.0 : -1.0;
    b[k] = diag;
  }
  PetscCall(PPETridiagCreate(comm, t));
  PetscCall(PPETridiagSetSizes(*t, 3, 4));
  PetscCall(PPETridiagSetCoefficients(*t, a, b, c));
  PetscCall(PPETridiagSetShift(*t, shift, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Tridiag(MPI_Comm comm)
{
  PPETridiag  t1, t2;
  PetscScalar d1[12], d2[12], d0[12];
  PetscBool   same, mine;

  PetscFunctionBegin;
  for (int i = 0; i < 12; i++) d0[i] = 1.0 + 0.1 * i;
  /* solve without set-up: sets up; same bits as with PPETridiagSetUp */
  PetscCall(Batch(comm, 2.0, &t1));
  PetscCall(PetscArraycpy(d1, d0, 12));
  PetscCall(PPETridiagSolve(t1, d1));
  PetscCall(Batch(comm, 2.0, &t2));
  PetscCall(PPETridiagSetUp(t2));
  PetscCall(PetscArraycpy(d2, d0, 12));
  PetscCall(PPETridiagSolve(t2, d2));
  mine = (PetscBool)(memcmp(d1, d2, sizeof(d1)) == 0);
  PetscCall(MPIU_Allreduce(&mine, &same, 1, PPE_MPI_BOOL, MPI_LAND, comm));
  PetscCall(TapCheck(comm, same, "tridiagonal batch, PPETridiagSolve before PPETridiagSetUp: sets up, same bits as with it"));
  PetscCall(PPETridiagDestroy(&t2));
  /* new coefficients between two solves: the next solve uses them */
  {
    PetscMPIInt rank, size;
    PetscReal   a[4], b[4], c[4];
    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    PetscCallMPI(MPI_Comm_size(comm, &size));
    for (int k = 0; k < 4; k++) {
      a[k] = (rank == 0 && k == 0) ? 0.0 : -1.0;
      c[k] = (rank == size - 1 && k == 3) ? 0.0 : -1.0;
      b[k] = 3.0;
    }
    PetscCall(PPETridiagSetCoefficients(t1, a, b, c));
    PetscCall(PPETridiagSetShift(t1, (PetscReal[]){0, 1, 2}, NULL));
  }
  PetscCall(PetscArraycpy(d1, d0, 12));
  PetscCall(PPETridiagSolve(t1, d1));
  PetscCall(Batch(comm, 3.0, &t2));
  PetscCall(PetscArraycpy(d2, d0, 12));
  PetscCall(PPETridiagSolve(t2, d2));
  mine = (PetscBool)(memcmp(d1, d2, sizeof(d1)) == 0);
  PetscCall(MPIU_Allreduce(&mine, &same, 1, PPE_MPI_BOOL, MPI_LAND, comm));
  PetscCall(TapCheck(comm, same, "tridiagonal batch, new coefficients after a solve: the next solve uses them, same bits as a new batch"));
  /* NaN in the right-hand side of line 1: lines 0 and 2 are untouched by it */
  PetscCall(PetscArraycpy(d1, d0, 12));
  d1[1 + 3 * 2] = NAN; /* line 1, row 2 of every rank */
  PetscCall(PPETridiagSolve(t1, d1));
  mine = PETSC_TRUE;
  for (int k = 0; k < 4; k++) {
    mine = (PetscBool)(mine && d1[0 + 3 * k] == d2[0 + 3 * k] && d1[2 + 3 * k] == d2[2 + 3 * k]);
    mine = (PetscBool)(mine && PetscIsNanScalar(d1[1 + 3 * k]));
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &mine, 1, PPE_MPI_BOOL, MPI_LAND, comm));
  PetscCall(TapCheck(comm, mine, "tridiagonal batch, NaN in line 1's right-hand side: line 1 is NaN on every rank, lines 0 and 2 keep their bits (no error: the caller checks)"));
  PetscCall(PPETridiagDestroy(&t1));
  PetscCall(PPETridiagDestroy(&t2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ create/destroy cycles */

/* One create/set-up/solve/destroy cycle of every object kind: grid, operator, KSP and PC of one
   combination, a tridiagonal batch. */
static PetscErrorCode Cycle(MPI_Comm comm, PetscInt i)
{
  PPEGrid     g;
  Mat         A;
  Vec         b, x;
  KSP         ksp;
  PPETridiag  t;
  PetscScalar d[12];

  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetSizes(g, 8, 8, 8));
  PetscCall(PPEGridSetBCString(g, i % 2 ? "PPNNDD" : "NNNNNN"));
  PetscCall(PPEGridSetUp(g));
  PetscCall(PPEStencilCreate(g, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSetValue(b, 0, 1.0, INSERT_VALUES));
  PetscCall(VecSetValue(b, 511, -1.0, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(b));
  PetscCall(VecAssemblyEnd(b));
  PetscCall(ComboKSP(A, &combos[i % NCOMBO], &ksp));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscCall(Batch(comm, 2.0, &t));
  for (int k = 0; k < 12; k++) d[k] = 1.0;
  PetscCall(PPETridiagSolve(t, d));
  PetscCall(PPETridiagDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Cycles(MPI_Comm comm, PetscInt ncycles)
{
  PetscLogDouble m0, m1, lo, hi;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < NCOMBO; i++) PetscCall(Cycle(comm, i)); /* first use of every type (registries, FFTW) */
  PetscCall(PetscMallocGetCurrentUsage(&m0));
  for (PetscInt i = 0; i < ncycles; i++) PetscCall(Cycle(comm, i));
  PetscCall(PetscMallocGetCurrentUsage(&m1));
  PetscCall(MPIU_Allreduce(&m1, &hi, 1, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
  m1 -= m0;
  PetscCall(MPIU_Allreduce(&m1, &hi, 1, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
  PetscCall(MPIU_Allreduce(&m1, &lo, 1, MPIU_PETSCLOGDOUBLE, MPI_MIN, comm));
  PetscCall(
    TapCheck(comm, (PetscBool)(m0 > 0 && hi == 0 && lo == 0),
             "%" PetscInt_FMT
             " create/set-up/solve/destroy cycles of grid, operator, every KSP/PC combination and a tridiagonal batch: PETSc's allocated memory %.0f bytes before (want > 0), growth %.0f to %.0f bytes (want 0; needs -malloc_dump for the count)",
             ncycles, m0, lo, hi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  PetscMPIInt size;
  PetscInt    cycles = 200;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cycles", &cycles, NULL));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(InputErrors(comm, size));
  PetscCall(Grid2d(comm));
  PetscCall(TileClamp(comm));
  PetscCall(Indefinite(comm));
  PetscCall(NonFinite(comm));
  PetscCall(ZeroRHS(comm));
  PetscCall(Incompatible(comm));
  PetscCall(Order(comm));
  PetscCall(Changed(comm));
  PetscCall(Communicators(comm, size));
  PetscCall(Tridiag(comm));
  PetscCall(Cycles(comm, cycles));
  PetscCall(PetscFinalize());
  return 0;
}
