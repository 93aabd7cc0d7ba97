/*
   PCFFTPTDMA: exact solve of the separable 7-point pressure operator by real FFTs in x
   and y and distributed tridiagonal solves in z, on 2D pencils.

   Method:
     The operator is A = diag(rowscale) (sigma + Lx (+) Ly (+) Lz) on a box of the DMDA
     (PPESeparable, include/ppekit/private/separableimpl.h), with Lx and Ly uniform
     second differences whose eigenvectors are those of a real DFT, DCT or DST (by location
     and BC pair) and Lz any tridiagonal matrix (stretched z). Transforming x and y leaves one
     tridiagonal system per (kx,ky) mode along z:
         (Lz + lambda_x + lambda_y + sigma) u = rhs,   (Diez, Peeters and Costa (2025), eq. 12)
     solved in place across the pz ranks of each z group (P-TDMA: local reduction, reduced
     systems of 2 pz unknowns; or DistD2) or after a transpose to z-pencils (full-transpose
     method). Set-up builds the pencils, the grouped transposes, the FFTW plans and the
     factors of the z lines once; a solve moves only the right-hand side. The zero mode of a
     singular (all-Neumann/periodic, sigma = 0) operator is pinned on purpose and the result
     has zero mean.

     The description comes from the grid of a MATPPESTENCIL operator (exact), or is inferred
     from the entries of an assembled matrix on a DMDA (src/fft/separableinfer.c).

   References:
     R. Diez, J. Peeters and P. Costa, "A pencil-distributed finite-difference solver for
     extreme-scale calculations of turbulent wall flows at high Reynolds number",
     arXiv:2502.06296, 2025: sec. 2.2 (FFT + tridiagonal, full-transpose method vs P-TDMA,
     Algorithms 1-2) and Appendix A (real transforms, reordered eigenvalues).
     P. Wapperom, A. N. Beris and M. A. Straka, "A new transpose split method for
     three-dimensional FFTs: performance on an Origin2000 and Alphaserver cluster", Parallel
     Computing 32, 2006 (pencil transposes as all-to-all exchanges in process groups).
     S. Akkurt, S. Lemaire, P. Bartholomew and S. Laizet, "A distributed-memory tridiagonal
     solver based on a specialised data structure optimised for CPU and GPU architectures",
     Computer Physics Communications, 2025 (arXiv:2411.13532) (DistD2).
     The numerics are in src/fft/ and src/transpose/; see docs/types/fftptdma.md.
*/
#include <petsc/private/pcimpl.h>
#include <ppekit/private/fftptdmaimpl.h>
#include <ppekit/private/stencilimpl.h>
#include "../../pluginimpl.h"

const char *const PCFFTPTDMAZSolves[]  = {"ptdma", "transpose", "distd2", "auto", "PCFFTPTDMAZSolve", "PC_FFTPTDMA_ZSOLVE_", NULL};
const char *const PCFFTPTDMADCTs[]     = {"auto", "fftw", "fast", "PCFFTPTDMADCT", "PC_FFTPTDMA_DCT_", NULL};
const char *const PCFFTPTDMAPlanners[] = {"estimate", "measure", "patient", "auto", "PCFFTPTDMAPlanner", "PC_FFTPTDMA_PLANNER_", NULL};

/* How the PC's errors begin, also those of the numerics (PPEFFTPTDMASetName()). */
#define PCFFTPTDMA_ERROR_NAME "PC fftptdma"

/* The options, also named in the errors of the numerics (PPEFFTPTDMASetOptionName()). */
#define PCFFTPTDMA_OPTION_ZSOLVE      "-pc_fftptdma_zsolve"
#define PCFFTPTDMA_OPTION_PGRID       "-pc_fftptdma_pgrid"
#define PCFFTPTDMA_OPTION_APPROXIMATE "-pc_fftptdma_approximate"
#define PCFFTPTDMA_OPTION_PLANNER     "-pc_fftptdma_planner"
#define PCFFTPTDMA_OPTION_WISDOM      "-pc_fftptdma_wisdom"
#define PCFFTPTDMA_OPTION_R2C         "-pc_fftptdma_r2c"
#define PCFFTPTDMA_OPTION_DCT         "-pc_fftptdma_dct"

/* The PC's settings as the numerics' (src/fft) */
static const PPEFFTZSolve ZSolveOf[] =
  {[PC_FFTPTDMA_ZSOLVE_PTDMA] = PPE_FFT_ZSOLVE_PTDMA, [PC_FFTPTDMA_ZSOLVE_TRANSPOSE] = PPE_FFT_ZSOLVE_TRANSPOSE, [PC_FFTPTDMA_ZSOLVE_DISTD2] = PPE_FFT_ZSOLVE_DISTD2, [PC_FFTPTDMA_ZSOLVE_AUTO] = PPE_FFT_ZSOLVE_AUTO};
static const PPEFFTPlanner PlannerOf[] =
  {[PC_FFTPTDMA_PLANNER_ESTIMATE] = PPE_FFT_PLANNER_ESTIMATE, [PC_FFTPTDMA_PLANNER_MEASURE] = PPE_FFT_PLANNER_MEASURE, [PC_FFTPTDMA_PLANNER_PATIENT] = PPE_FFT_PLANNER_PATIENT, [PC_FFTPTDMA_PLANNER_AUTO] = PPE_FFT_PLANNER_AUTO};
static const PPEFFTDCT DCTOf[] = {[PC_FFTPTDMA_DCT_AUTO] = PPE_FFT_DCT_AUTO, [PC_FFTPTDMA_DCT_FFTW] = PPE_FFT_DCT_FFTW, [PC_FFTPTDMA_DCT_FAST] = PPE_FFT_DCT_FAST};

typedef struct {
  PCFFTPTDMAZSolve  zsolve;                     /* z method asked for */
  PetscInt          pgrid[2];                   /* pencil grid py, pz asked for (0, 0: automatic) */
  PetscBool         approximate;                /* assembled operators: accept the nearest separable operator */
  PCFFTPTDMAPlanner planner;                    /* FFTW planner effort */
  PetscBool         r2c;                        /* periodic directions through r2c/c2r (else halfcomplex r2r) */
  PCFFTPTDMADCT     dct;                        /* DCT/DST kinds: FFTW's, the fast ones, or the faster (auto) */
  char              wisdom[PETSC_MAX_PATH_LEN]; /* FFTW wisdom file ("" for none) */
  PPESeparable     *sep;                        /* the operator's description (from the grid or inferred) */
  PPEFFTPTDMA       f;                          /* pencils, transposes, plans, z lines */
  MatType           mtype;                      /* type of the matrix the description came from */
  PPEGrid           grid;                       /* the matrix-free operator's grid the solver was made for (borrowed), or NULL */
  Vec               dhalf;                      /* variable coefficients: D^-1/2, D = diag(A) / diag(S) (NULL: constant coefficients) */
  Vec               work;                       /* with dhalf: the scaled right-hand side; with sym: the projected one */
  PetscReal         drange[2];                  /* with dhalf or sym: the smallest and largest D */
  PetscBool         sym;                        /* approximate assembled operator: M = c S, S = W U symmetric (PPESeparableSymmetricScaling()) */
  Vec               wsym;                       /* with sym: W, the row scaling the solver was set up with (NULL: 1) */
  PetscReal         cscale;                     /* with sym: c, the mean of D = diag(A) / diag(S) */
} PC_FFTPTDMA;

PPE_IMPL_SETTER(PCFFTPTDMASetZSolve_FFTPTDMA, PC, pc, PC_FFTPTDMA, PCFFTPTDMAZSolve, zs, zsolve,
                PetscCheck(zs >= PC_FFTPTDMA_ZSOLVE_PTDMA && zs <= PC_FFTPTDMA_ZSOLVE_AUTO, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC fftptdma: unknown z method %d; use ptdma, transpose, distd2 or auto", (int)zs),
                pc->setupcalled = 0)
PPE_IMPL_GETTER(PCFFTPTDMAGetZSolve_FFTPTDMA, PC, pc, PC_FFTPTDMA, PCFFTPTDMAZSolve, zs, impl->zsolve)

static PetscErrorCode PCFFTPTDMASetPencilGrid_FFTPTDMA(PC pc, PetscInt py, PetscInt pz)
{
  PC_FFTPTDMA *ff = (PC_FFTPTDMA *)pc->data;

  PetscFunctionBegin;
  PetscCheck((py >= 1 && pz >= 1) || (py == PETSC_DECIDE && pz == PETSC_DECIDE), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC fftptdma: pencil grid py, pz must be >= 1 (or both PETSC_DECIDE), got %" PetscInt_FMT ", %" PetscInt_FMT,
             py, pz);
  if (py == PETSC_DECIDE) py = pz = 0;
  if (py != ff->pgrid[0] || pz != ff->pgrid[1]) pc->setupcalled = 0;
  ff->pgrid[0] = py;
  ff->pgrid[1] = pz;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCFFTPTDMAGetPencilGrid_FFTPTDMA(PC pc, PetscInt *py, PetscInt *pz)
{
  PC_FFTPTDMA *ff = (PC_FFTPTDMA *)pc->data;

  PetscFunctionBegin;
  if (pc->setupcalled && ff->sep) { /* the grid used */
    if (py) *py = ff->f.P[0];
    if (pz) *pz = ff->f.P[1];
  } else {
    if (py) *py = ff->pgrid[0] ? ff->pgrid[0] : PETSC_DECIDE;
    if (pz) *pz = ff->pgrid[1] ? ff->pgrid[1] : PETSC_DECIDE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PPE_IMPL_SETTER(PCFFTPTDMASetApproximate_FFTPTDMA, PC, pc, PC_FFTPTDMA, PetscBool, flg, approximate, , pc->setupcalled = 0)
PPE_IMPL_GETTER(PCFFTPTDMAGetApproximate_FFTPTDMA, PC, pc, PC_FFTPTDMA, PetscBool, flg, impl->approximate)

PPE_IMPL_SETTER(PCFFTPTDMASetPlanner_FFTPTDMA, PC, pc, PC_FFTPTDMA, PCFFTPTDMAPlanner, p, planner,
                PetscCheck(p >= PC_FFTPTDMA_PLANNER_ESTIMATE && p <= PC_FFTPTDMA_PLANNER_AUTO, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC fftptdma: unknown FFTW planner %d; use estimate, measure, patient or auto", (int)p),
                pc->setupcalled = 0)
PPE_IMPL_GETTER(PCFFTPTDMAGetPlanner_FFTPTDMA, PC, pc, PC_FFTPTDMA, PCFFTPTDMAPlanner, p, impl->planner)

static PetscErrorCode PCFFTPTDMASetWisdomFile_FFTPTDMA(PC pc, const char file[])
{
  PC_FFTPTDMA *ff = (PC_FFTPTDMA *)pc->data;
  PetscBool    same;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(file ? file : "", ff->wisdom, &same));
  if (!same) pc->setupcalled = 0;
  PetscCall(PetscStrncpy(ff->wisdom, file ? file : "", sizeof(ff->wisdom)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PPE_IMPL_GETTER(PCFFTPTDMAGetWisdomFile_FFTPTDMA, PC, pc, PC_FFTPTDMA, const char *, file, impl->wisdom[0] ? impl->wisdom : NULL)

PPE_IMPL_SETTER(PCFFTPTDMASetDCT_FFTPTDMA, PC, pc, PC_FFTPTDMA, PCFFTPTDMADCT, d, dct,
                PetscCheck(d >= PC_FFTPTDMA_DCT_AUTO && d <= PC_FFTPTDMA_DCT_FAST, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC fftptdma: unknown DCT choice %d; use auto, fftw or fast", (int)d), pc->setupcalled = 0)
PPE_IMPL_GETTER(PCFFTPTDMAGetDCT_FFTPTDMA, PC, pc, PC_FFTPTDMA, PCFFTPTDMADCT, d, impl->dct)

PPE_IMPL_SETTER(PCFFTPTDMASetR2C_FFTPTDMA, PC, pc, PC_FFTPTDMA, PetscBool, flg, r2c, , pc->setupcalled = 0)
PPE_IMPL_GETTER(PCFFTPTDMAGetR2C_FFTPTDMA, PC, pc, PC_FFTPTDMA, PetscBool, flg, impl->r2c)

static PetscErrorCode PCFFTPTDMAGetCommCounts_FFTPTDMA(PC pc, PetscInt *solves, PetscLogDouble counted[3], PetscLogDouble model[3])
{
  PC_FFTPTDMA *ff = (PC_FFTPTDMA *)pc->data;

  PetscFunctionBegin;
  PetscCheck(pc->setupcalled && ff->sep, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "Call PCSetUp() before PCFFTPTDMAGetCommCounts()");
  if (solves) *solves = ff->f.solves;
  PetscCall(PPEFFTPTDMAGetCommCounts(&ff->f, counted, model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The matrix-free operator with variable coefficients, A = W (sigma I - D beta G): the solver
   is made for the grid's constant operator S, and the PC applies the symmetric positive
   (semi)definite approximation M = D^1/2 S D^1/2, M^-1 = D^-1/2 S^-1 D^-1/2, with D the ratio of
   the diagonals, diag(A) / diag(S) (pointwise: where beta is locally constant, A is D S there).
   A new density (the Mat's state) redoes only this scaling: the plans and the tridiagonal
   factors depend on the grid.
*/
static PetscErrorCode SetUpScaling(PC pc, PPEGrid grid, PetscBool *variable)
{
  PC_FFTPTDMA  *ff = (PC_FFTPTDMA *)pc->data;
  PetscBool     gridop;
  PPEStencilBox B;
  PetscScalar  *a;
  PetscInt      n;
  PetscReal     loc[2] = {PETSC_MAX_REAL, PETSC_MAX_REAL};

  PetscFunctionBegin;
  PetscCall(PPEStencilIsGridOperator(pc->pmat, grid, &gridop));
  *variable = (PetscBool)!gridop;
  if (gridop) {
    PetscCall(VecDestroy(&ff->dhalf));
    PetscCall(VecDestroy(&ff->work));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!ff->dhalf) {
    PetscCall(MatCreateVecs(pc->pmat, &ff->dhalf, &ff->work));
  }
  PetscCall(MatGetDiagonal(pc->pmat, ff->dhalf));
  PetscCall(PPEStencilBoxSetUp(grid, &B));
  PetscCall(VecGetLocalSize(ff->dhalf, &n));
  PetscCall(VecGetArray(ff->dhalf, &a));
  {
    PetscScalar *s;
    PetscCall(PetscMalloc1(n + 1, &s));
    PPEStencilBoxDiagonal(&B, s);
    for (PetscInt i = 0; i < n; i++) {
      PetscReal d = PetscRealPart(a[i]) / PetscRealPart(s[i]);
      loc[0]      = PetscMin(loc[0], d);
      loc[1]      = PetscMin(loc[1], -d);
      a[i]        = 1.0 / PetscSqrtReal(d);
    }
    PetscCall(PetscFree(s));
  }
  PetscCall(VecRestoreArray(ff->dhalf, &a));
  PetscCall(MPIU_Allreduce(loc, ff->drange, 2, MPIU_REAL, MPI_MIN, PetscObjectComm((PetscObject)pc)));
  ff->drange[1] = -ff->drange[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_FFTPTDMA(PC pc)
{
  PC_FFTPTDMA *ff = (PC_FFTPTDMA *)pc->data;
  PetscBool    isst, variable = PETSC_FALSE;
  DM           dm = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc->pmat, MATPPESTENCIL, &isst));
  if (isst && pc->setupcalled && ff->sep && ff->grid) { /* the same solver when the grid is the same: a new density changes the scaling only */
    PPEGrid grid;
    PetscCall(PPEStencilGetGrid(pc->pmat, &grid));
    if (grid == ff->grid) {
      PetscCall(SetUpScaling(pc, grid, &variable));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  ff->grid = NULL;
  ff->sym  = PETSC_FALSE;
  PetscCall(VecDestroy(&ff->wsym));
  PetscCall(PPESeparableDestroy(&ff->sep));
  PetscCall(MatGetType(pc->pmat, &ff->mtype));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc->pmat, MATPPESTENCIL, &isst));
  if (pc->dm) PetscCall(PPEFFTPTDMACheckDM(PCFFTPTDMA_ERROR_NAME, pc->dm, "the PC"));
  if (isst) {
    PPEGrid grid;

    PetscCall(PPEStencilGetGrid(pc->pmat, &grid));
    PetscCall(PPEGridGetDM(grid, &dm));
    PetscCall(PPEFFTPTDMACheckDM(PCFFTPTDMA_ERROR_NAME, dm, "the matrix-free operator"));
    PetscCall(PPESeparableCreateFromGrid(grid, &ff->sep));
    PetscCall(SetUpScaling(pc, grid, &variable));
    ff->grid = grid;
  } else {
    PetscCall(MatGetDM(pc->pmat, &dm));
    if (!dm) dm = pc->dm;
    PetscCall(PPEFFTPTDMACheckDM(PCFFTPTDMA_ERROR_NAME, dm, "the assembled operator"));
    PetscCall(PPESeparableInferFromMat(pc->pmat, dm, ff->approximate, PCFFTPTDMA_OPTION_APPROXIMATE, &ff->sep));
    PetscCall(VecDestroy(&ff->dhalf));
    PetscCall(VecDestroy(&ff->work));
    if (ff->sep->source == PPE_SEPARABLE_APPROXIMATE) {
      /* The approximation A ~ R U (U the nearest separable operator with unit row scaling, R
         the rows' scalings diag(A) / diag(U)) solved as U^-1 R^-1 is not symmetric where R
         varies (a variable coefficient: CG stopped with an indefinite PC at density ratios 10
         and 1000), and neither is the singular solve of a right-hand side that U does not see
         as consistent. The PC applies M^-1 = c^-1 S^-1 (S^+ when singular) with S = W U
         symmetric and c a constant (PPESeparableSymmetricScaling(),
         PPEFFTPTDMAApplyScaled()): symmetric positive (semi)definite for every symmetric
         matrix with negative couplings.
         It was measured against the symmetric diagonal scaling M = D^1/2 S D^1/2 (D =
         diag(A) / diag(S)) on the bubble matrices of test t410, CG iterations to 1e-8 at
         density ratios 1.5, 10, 1000: 8, 27, 86 with c S against 8, 34, 102 at 24^3, and 8,
         24, 57 against 11, 76, 284 at 96^3 (the diagonal scaling's interface modes grow with
         the grid; the full tables are at PPESeparableSymmetricScaling() and in
         docs/types/fftptdma-inference.md). */
      PetscCall(PPESeparableSymmetricScaling(ff->sep, dm, &ff->wsym, &ff->cscale, ff->drange));
      PetscCall(DMCreateGlobalVector(dm, &ff->work));
      ff->sym = PETSC_TRUE;
    }
  }
  {
    /* the pencils and transposes are built on the PC's communicator from the DMDA's boxes: a
       DMDA on another communicator (an operator on PETSC_COMM_SELF in a KSP on
       PETSC_COMM_WORLD) would only fail deep inside the transposes */
    PetscMPIInt cmp, np, nd;
    PetscCallMPI(MPI_Comm_compare(PetscObjectComm((PetscObject)pc), PetscObjectComm((PetscObject)dm), &cmp));
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &np));
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)dm), &nd));
    PetscCheck(cmp == MPI_IDENT || cmp == MPI_CONGRUENT, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_NOTSAMECOMM,
               "PC fftptdma: the operator's DMDA is on a communicator of %d ranks that is not the PC's (%d ranks); create the KSP or PC on the operator's communicator", (int)nd, (int)np);
  }
  {
    PPESeparable sw = *ff->sep; /* the solver of an approximation solves S = W U: row scaling W */

    if (ff->sym) sw.rowscale = ff->wsym;
    PetscCall(PPEFFTPTDMASetUp(&ff->f, PetscObjectComm((PetscObject)pc), dm, &sw, ff->pgrid, ZSolveOf[ff->zsolve], PlannerOf[ff->planner], ff->r2c, DCTOf[ff->dct], ff->wisdom));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a local array holds a NaN or an Inf: one vectorisable pass, no reduction (a - a is 0
   for every finite a and NaN otherwise; PetscIsInfOrNanScalar() is a function call per entry,
   which cost 30% of a 96^3 solve) */
static PetscBool HasNonFinite(PetscInt n, const PetscScalar a[])
{
  int bad = 0;

  for (PetscInt i = 0; i < n; i++) bad |= (PetscRealPart(a[i] - a[i]) != 0.0);
  return (PetscBool)(bad != 0);
}

static PetscErrorCode PCApply_FFTPTDMA(PC pc, Vec x, Vec y)
{
  PC_FFTPTDMA       *ff = (PC_FFTPTDMA *)pc->data;
  const PetscScalar *ya;
  PetscInt           n;

  PetscFunctionBegin;
  if (ff->sym) { /* approximate assembled operator: y = c^-1 S^-1 x (S^+ when singular) */
    PetscCall(PPEFFTPTDMAApplyScaled(&ff->f, ff->sep, pc->pmat, 1.0 / ff->cscale, ff->work, x, y));
  } else if (ff->dhalf) { /* variable coefficients: y = D^-1/2 S^-1 D^-1/2 x */
    PetscCall(VecPointwiseMult(ff->work, ff->dhalf, x));
    PetscCall(PPEFFTPTDMAApply(&ff->f, ff->sep, pc->pmat, ff->work, y));
    PetscCall(VecPointwiseMult(y, ff->dhalf, y));
  } else PetscCall(PPEFFTPTDMAApply(&ff->f, ff->sep, pc->pmat, x, y)); /* y = A^-1 x (zero mean when A is singular) */
  /* A NaN or Inf in x (or an overflow) makes y non-finite. The PC reports it as a failure of
     this application, so that KSPPREONLY, which tests nothing, says KSP_DIVERGED_PC_FAILED
     instead of converged; Krylov methods see the failure at their next norm or dot product.
     The next application starts clean (a later solve with a good right-hand side converges).
     Local: the KSP reduces the reason over the ranks. */
  PetscCall(VecGetLocalSize(y, &n));
  PetscCall(VecGetArrayRead(y, &ya));
  PetscCall(PCSetFailedReason(pc, HasNonFinite(n, ya) ? PC_SUBPC_ERROR : PC_NOERROR));
  PetscCall(VecRestoreArrayRead(y, &ya));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Called by KSPSetUpOnBlocks() at the start of every KSPSolve(), just before the KSP reads the
   PC's failed reason: a failure of an application in an earlier solve (a NaN right-hand side,
   recorded again by KSPCheckNorm()) must not fail this one. Set-up errors are errors, never
   failed reasons, so nothing else is cleared. */
static PetscErrorCode PCSetUpOnBlocks_FFTPTDMA(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCSetFailedReason(pc, PC_NOERROR));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_FFTPTDMA(PC pc, PPEOptionItems PetscOptionsObject)
{
  PC_FFTPTDMA      *ff    = (PC_FFTPTDMA *)pc->data;
  PCFFTPTDMAZSolve  zs    = ff->zsolve;
  PCFFTPTDMAPlanner pl    = ff->planner;
  PCFFTPTDMADCT     dc    = ff->dct;
  PetscInt          pg[3] = {ff->pgrid[0], ff->pgrid[1], 0}, n = 3; /* a 3rd slot: PETSc drops extra values silently */
  PetscBool         flg, ap = ff->approximate, r2c = ff->r2c;
  char              wis[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "PC FFTPTDMA options");
  PetscCall(PetscOptionsEnum(PCFFTPTDMA_OPTION_ZSOLVE, "How the z lines are solved", "PCFFTPTDMASetZSolve", PCFFTPTDMAZSolves, (PetscEnum)zs, (PetscEnum *)&zs, &flg));
  if (flg) PetscCall(PCFFTPTDMASetZSolve(pc, zs));
  PetscCall(PetscOptionsIntArray(PCFFTPTDMA_OPTION_PGRID, "Pencil grid py,pz with py*pz = ranks (default: automatic)", "PCFFTPTDMASetPencilGrid", pg, &n, &flg));
  if (flg) {
    PetscCheck(n == 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_SIZ, PCFFTPTDMA_OPTION_PGRID " needs 2 values py,pz, got %" PetscInt_FMT, n);
    PetscCall(PCFFTPTDMASetPencilGrid(pc, pg[0], pg[1]));
  }
  PetscCall(PetscOptionsBool(PCFFTPTDMA_OPTION_APPROXIMATE, "Assembled operators: use the nearest separable operator when the matrix is not separable", "PCFFTPTDMASetApproximate", ap, &ap, &flg));
  if (flg) PetscCall(PCFFTPTDMASetApproximate(pc, ap));
  PetscCall(PetscOptionsEnum(PCFFTPTDMA_OPTION_PLANNER, "FFTW planner effort at set-up", "PCFFTPTDMASetPlanner", PCFFTPTDMAPlanners, (PetscEnum)pl, (PetscEnum *)&pl, &flg));
  if (flg) PetscCall(PCFFTPTDMASetPlanner(pc, pl));
  PetscCall(PetscOptionsString(PCFFTPTDMA_OPTION_WISDOM, "FFTW wisdom file: imported before planning when it exists, written after (a later run plans in milliseconds)", "PCFFTPTDMASetWisdomFile", ff->wisdom, wis, sizeof(wis), &flg));
  if (flg) PetscCall(PCFFTPTDMASetWisdomFile(pc, wis));
  PetscCall(PetscOptionsBool(PCFFTPTDMA_OPTION_R2C, "Periodic directions through FFTW's r2c/c2r transforms (complex spectra); false: the halfcomplex R2HC/HC2R kinds", "PCFFTPTDMASetR2C", r2c, &r2c, &flg));
  if (flg) PetscCall(PCFFTPTDMASetR2C(pc, r2c));
  PetscCall(
    PetscOptionsEnum(PCFFTPTDMA_OPTION_DCT, "DCT/DST kinds of Neumann/Dirichlet directions: FFTW's, the fast ones (reorder + r2c + twiddle), or the faster timed at set-up", "PCFFTPTDMASetDCT", PCFFTPTDMADCTs, (PetscEnum)dc, (PetscEnum *)&dc, &flg));
  if (flg) PetscCall(PCFFTPTDMASetDCT(pc, dc));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_FFTPTDMA(PC pc, PetscViewer viewer)
{
  PC_FFTPTDMA *ff = (PC_FFTPTDMA *)pc->data;
  PetscBool    iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  z method asked for: %s, FFTW planner asked for: %s, r2c for periodic directions: %s, DCT/DST: %s, pencil grid asked for: ", PCFFTPTDMAZSolves[ff->zsolve], PCFFTPTDMAPlanners[ff->planner],
                                   ff->r2c ? "yes" : "no", PCFFTPTDMADCTs[ff->dct]));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
  if (ff->pgrid[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT " x %" PetscInt_FMT "\n", ff->pgrid[0], ff->pgrid[1]));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "automatic\n"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  if (!pc->setupcalled || !ff->sep) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  not set up\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PPEFFTPTDMAView(&ff->f, viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "operator: %s matrix\n", ff->mtype));
  if (ff->sym) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "approximation: constant scaling, M = c S (symmetric), S = W U the nearest separable operator with unit row scaling%s, c = %g the mean of diag(A)/diag(S) (in [%g, %g])\n",
                                     ff->wsym ? " symmetrised by the weights W" : "", (double)ff->cscale, (double)ff->drange[0], (double)ff->drange[1]));
    PetscCall(PetscViewerASCIIPrintf(viewer, "approximation applied: %s\n", ff->f.singular ? "c^-1 S^+ (pseudo-inverse: symmetric, positive definite off the constants, result with zero mean)" : "c^-1 S^-1 (symmetric positive definite)"));
  } else if (ff->dhalf)
    PetscCall(PetscViewerASCIIPrintf(viewer, "variable coefficients: applies D^-1/2 S^-1 D^-1/2 (symmetric), S the grid's constant-coefficient operator, D = diag(A)/diag(S) in [%g, %g]\n", (double)ff->drange[0], (double)ff->drange[1]));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PPESeparableView(ff->sep, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_FFTPTDMA(PC pc)
{
  PC_FFTPTDMA *ff = (PC_FFTPTDMA *)pc->data;

  PetscFunctionBegin;
  PetscCall(PPEFFTPTDMAReset(&ff->f));
  PetscCall(PPESeparableDestroy(&ff->sep));
  PetscCall(VecDestroy(&ff->dhalf));
  PetscCall(VecDestroy(&ff->work));
  PetscCall(VecDestroy(&ff->wsym));
  ff->sym  = PETSC_FALSE;
  ff->grid = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The back end of the applications; host for an operator on a box of a larger matrix (its
   right-hand side is made on the host). */
PPE_IMPL_GETTER(PCGetDeviceBackend_FFTPTDMA, PC, pc, PC_FFTPTDMA, PPEBackend, b, impl->f.box ? PPE_BACKEND_HOST : impl->f.backend)

/* The methods PCCreate_FFTPTDMA() composes and PCDestroy_FFTPTDMA() removes */
static const PPEMethod PCFFTPTDMAMethods[] = {
  PPE_METHOD(PPEPCGetDeviceBackend, PCGetDeviceBackend_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMASetZSolve, PCFFTPTDMASetZSolve_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMAGetZSolve, PCFFTPTDMAGetZSolve_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMASetPencilGrid, PCFFTPTDMASetPencilGrid_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMAGetPencilGrid, PCFFTPTDMAGetPencilGrid_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMASetApproximate, PCFFTPTDMASetApproximate_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMAGetApproximate, PCFFTPTDMAGetApproximate_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMASetPlanner, PCFFTPTDMASetPlanner_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMAGetPlanner, PCFFTPTDMAGetPlanner_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMASetWisdomFile, PCFFTPTDMASetWisdomFile_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMAGetWisdomFile, PCFFTPTDMAGetWisdomFile_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMASetDCT, PCFFTPTDMASetDCT_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMAGetDCT, PCFFTPTDMAGetDCT_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMASetR2C, PCFFTPTDMASetR2C_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMAGetR2C, PCFFTPTDMAGetR2C_FFTPTDMA),
  PPE_METHOD(PCFFTPTDMAGetCommCounts, PCFFTPTDMAGetCommCounts_FFTPTDMA),
};

static PetscErrorCode PCDestroy_FFTPTDMA(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_FFTPTDMA(pc));
  PetscCall(PPEComposeMethods(pc, PCFFTPTDMAMethods, PETSC_FALSE));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCFFTPTDMA - "fftptdma" - exact solve of the separable 7-point pressure operator: real FFTs
   in x and y, one tridiagonal system per mode along z (P-TDMA, DistD2 or full transpose),
   on 2D pencils

   Options Database Keys:
+  -pc_fftptdma_zsolve <ptdma|transpose|distd2|auto> - z method (default auto: PCFFTPTDMA_DEFAULT_ZSOLVE)
.  -pc_fftptdma_pgrid <py,pz> - pencil grid, py*pz = ranks (default: the DMDA's pz where every z block has >= 2 points)
.  -pc_fftptdma_approximate <bool> - assembled operators: the nearest separable operator when the matrix is not separable (default false: PCFFTPTDMA_DEFAULT_APPROXIMATE)
.  -pc_fftptdma_planner <estimate|measure|patient|auto> - FFTW planner effort (default auto: PCFFTPTDMA_DEFAULT_PLANNER, measure the plans the solves run under a time limit of about two solves)
.  -pc_fftptdma_wisdom <file> - FFTW wisdom file, imported before planning and written after (default: none)
.  -pc_fftptdma_r2c <bool> - periodic directions through r2c/c2r (default true: PCFFTPTDMA_DEFAULT_R2C; false: R2HC/HC2R)
-  -pc_fftptdma_dct <auto|fftw|fast> - DCT/DST kinds: the faster of FFTW's and the fast ones, timed at set-up (default auto: PCFFTPTDMA_DEFAULT_DCT)

   Level: intermediate

   Notes:
   The operator must live on a 3D DMDA with dof 1 and stencil width >= 1 (any process grid):
   a MATPPESTENCIL (its grid gives the description exactly) or an assembled 7-point matrix
   (the description is inferred from its entries; identity-row Dirichlet nodes and row
   scalings are handled). With -pc_fftptdma_approximate a matrix that is not separable gets
   M^-1 = c^-1 S^-1, S the nearest separable operator made symmetric and c the mean of
   diag(A)/diag(S) (c^-1 S^+ when singular): symmetric positive (semi)definite, for CG.
   x and y must be uniform, z may be stretched; periodic, Neumann and Dirichlet faces in any
   combination (periodic in pairs), cell or vertex unknowns, Helmholtz shift. With -ksp_type
   preonly it is a direct solver (relative residual about 1e-13).
   A singular operator (no Dirichlet face, no shift): the zero mode is pinned on purpose and
   the result has zero mean, consistent with the constant null space in CG and GMRES.
   The defaults are the PCFFTPTDMA_DEFAULT_* macros of ppekit/fftptdma.h, named above.
   A NaN or Inf in the result (from the right-hand side) is reported as the PCFailedReason
   PC_SUBPC_ERROR of that application: -ksp_type preonly then gives KSP_DIVERGED_PC_FAILED,
   never converged; the next solve starts clean.

   References:
   Diez, Peeters and Costa (2025), sec. 2.2 and Appendix A; Wapperom, Beris and Straka (2006);
   Akkurt et al. (2025) (full forms at the top of this file); docs/types/fftptdma.md

.seealso: PCFFTPTDMASetZSolve(), PCFFTPTDMASetPencilGrid(), PCFFTPTDMASetApproximate(), PCFFTPTDMASetPlanner(), PCFFTPTDMASetWisdomFile(), PCFFTPTDMASetR2C(), PCFFTPTDMASetDCT(), PCFFTPTDMAGetCommCounts()
M*/
PETSC_EXTERN PetscErrorCode PCCreate_FFTPTDMA(PC pc)
{
  PC_FFTPTDMA *ff;

  PetscFunctionBegin;
  PetscCall(PetscNew(&ff));
  pc->data        = (void *)ff;
  ff->zsolve      = PCFFTPTDMA_DEFAULT_ZSOLVE;
  ff->planner     = PCFFTPTDMA_DEFAULT_PLANNER;
  ff->r2c         = PCFFTPTDMA_DEFAULT_R2C;
  ff->dct         = PCFFTPTDMA_DEFAULT_DCT;
  ff->approximate = PCFFTPTDMA_DEFAULT_APPROXIMATE;
  /* the numerics name the PC and these options in their errors and view */
  PetscCall(PPEFFTPTDMASetName(&ff->f, PCFFTPTDMA_ERROR_NAME));
  PetscCall(PPEFFTPTDMASetOptionName(&ff->f, PPE_FFT_OPTION_ZSOLVE, PCFFTPTDMA_OPTION_ZSOLVE));
  PetscCall(PPEFFTPTDMASetOptionName(&ff->f, PPE_FFT_OPTION_PGRID, PCFFTPTDMA_OPTION_PGRID));
  PetscCall(PPEFFTPTDMASetOptionName(&ff->f, PPE_FFT_OPTION_WISDOM, PCFFTPTDMA_OPTION_WISDOM));
  PetscCall(PPEFFTPTDMASetOptionName(&ff->f, PPE_FFT_OPTION_DCT, PCFFTPTDMA_OPTION_DCT));

  pc->ops->setup          = PCSetUp_FFTPTDMA;
  pc->ops->apply          = PCApply_FFTPTDMA;
  pc->ops->setuponblocks  = PCSetUpOnBlocks_FFTPTDMA;
  pc->ops->setfromoptions = PCSetFromOptions_FFTPTDMA;
  pc->ops->view           = PCView_FFTPTDMA;
  pc->ops->reset          = PCReset_FFTPTDMA;
  pc->ops->destroy        = PCDestroy_FFTPTDMA;

  PetscCall(PPEComposeMethods(pc, PCFFTPTDMAMethods, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
