/*
   PCPPEMG: geometric multigrid on PPEKit's grid, every level a matrix-free MATPPESTENCIL.

   The hierarchy (coarse grids, coarse operators, transfers) is src/mg/mg.c; this file wires it
   into an inner PCMG (V-cycle by default; its own options under the prefix ppemg_, e.g.
   -ppemg_pc_mg_type, -ppemg_mg_levels_ksp_max_it) and owns the choices that make it work on
   the pressure equation of multiphase flows:

     - smoothers: PC chebyci (a Chebyshev polynomial of degree `degree` in D^-1 A, D the
       diagonal, or W^-1 A on a constant-coefficient level, on [lmax/ratio, lmax]) inside one
       Richardson step; lmax is the exact largest eigenvalue of W^-1 A on a constant level (the
       grid's 1D spectra) and the Gershgorin bound 2 of D^-1 A on a variable one, so no
       eigenvalue estimate is run at set-up (Adams, Brezina, Hu and Tuminaro, "Parallel
       multigrid smoothing: polynomial versus Gauss-Seidel", J. Comput. Phys. 188, 2003, for
       Chebyshev smoothing); damped Jacobi and PC tileilu as options; on grids whose z spacing
       is much finer than x and y somewhere (wall-stretched channels) Chebyshev in T^-1 A, T
       the z-line part, with x and y coarsened only (src/mg/mgline.c);
     - coarsening of the strongly coupled directions only (spacing within sqrt(2) of the
       smallest), so that x and y of different spacings are coarsened until they match;
     - the coarsest level assembled (PPEStencilAssemble) and solved by LU, redundantly on
       every rank (PCREDUNDANT), with a nonzero pivot shift on a singular grid (the right-hand
       side is consistent, so any solution serves; the outer Krylov method removes the
       constant);
     - set-up split: the hierarchy is made once per grid; a new operator state (a new density)
       coarsens the coefficients again, assembles the coarsest level into the same matrix and
       lets PCMG set the smoothers and the factorisation up again (numeric only).

   References:
     W. L. Briggs, V. E. Henson and S. F. McCormick, A Multigrid Tutorial, 2nd ed., SIAM 2000;
     R. E. Alcouffe, A. Brandt, J. E. Dendy and J. W. Painter, "The multi-grid method for the
     diffusion equation with strongly discontinuous coefficients", SIAM J. Sci. Stat. Comput.
     2, 1981; M. F. Adams, J. Brown, M. Knepley and R. Samtaney, "Segmental refinement: a
     multigrid technique for data locality", SIAM J. Sci. Comput. 38, 2016 (HPGMG-FV).
*/
#include <petsc/private/pcimpl.h>
#include <ppekit/private/mgimpl.h>
#include <ppekit/ppemg.h>
#include <ppekit/chebyci.h>
#include <ppekit/tileilu.h>
#include "../../pluginimpl.h"

const char *const PCPPEMGSmoothers[] = {"chebyci", "jacobi", "tileilu", "zline", "auto", "PCPPEMGSmoother", "PC_PPEMG_SMOOTHER_", NULL};

#define PPEMG_MAX_LEVELS 30

typedef struct {
  /* settings */
  PetscInt         levels;     /* asked for (PETSC_DECIDE: by coarse_max) */
  PetscInt         coarse_max; /* default depth: the first grid with at most this many points */
  PCPPEMGSmoother  smoother;
  PetscInt         degree;  /* chebyci: polynomial degree; jacobi, tileilu: Richardson steps */
  PetscReal        ratio;   /* chebyci: interval [lmax/ratio, lmax] */
  PetscReal        jweight; /* jacobi: damping */
  PPEMGCoarsenRule rule;
  /* the hierarchy, fine (0) to coarsest (nlev-1) */
  PetscInt        nlev;
  PetscInt        maxlev; /* what the grid allows */
  char            why[256];
  PCPPEMGSmoother used;                   /* the smoother, auto resolved */
  int             c[PPEMG_MAX_LEVELS][3]; /* coarsening factors below each level (kernel directions) */
  PPEGrid         grid[PPEMG_MAX_LEVELS]; /* [0] the operator's (a reference) */
  Mat             A[PPEMG_MAX_LEVELS];    /* [0] the preconditioning matrix (a reference) */
  Mat             P[PPEMG_MAX_LEVELS], R[PPEMG_MAX_LEVELS];
  Mat             Ac; /* the coarsest level assembled */
  PC              mg;
  PetscLogDouble  t_levels, t_coef; /* seconds of the last set-up: the hierarchy (first only) and the coefficient-dependent part */
  PetscInt        nsetup;           /* set-ups so far (the first makes the hierarchy) */
} PC_PPEMG;

static PetscErrorCode PCReset_PPEMG(PC);

/* The smallest z extent of a rank (the line solves need 2 rows on every rank). */
static PetscInt MinZExtent(PPEGrid g)
{
  PetscInt m = PETSC_MAX_INT;

  for (PetscInt r = 0; r < g->box.P[2]; r++) m = PetscMin(m, g->box.own[2][r]);
  return m;
}

/* The smoother auto stands for: z-line Jacobi where some z spacing is finer than every x and y
   spacing by more than 1.5 (the z couplings near a wall dominate) and every rank has 2 z rows,
   else chebyci. */
static PCPPEMGSmoother ResolveSmoother(PCPPEMGSmoother s, PPEGrid g)
{
  PetscReal hxy = PETSC_MAX_REAL, hz;

  if (s != PC_PPEMG_SMOOTHER_AUTO) return s;
  if (g->box.N[2] == 1 || MinZExtent(g) < 2) return PC_PPEMG_SMOOTHER_CHEBYCI;
  for (int d = 0; d < 2; d++)
    if (g->box.N[d] > 1) hxy = PetscMin(hxy, PPEMGMinSpacing(&g->dir[d]));
  hz = PPEMGMinSpacing(&g->dir[2]);
  return 1.5 * hz < hxy ? PC_PPEMG_SMOOTHER_ZLINE : PC_PPEMG_SMOOTHER_CHEBYCI;
}

/* The degree (steps) and the interval ratio in use: the user's, else the resolved smoother's
   defaults (measured: chebyci 3 and 10 on the bubbles; zline 4 and 4 on the channel, whose
   x-y smoothing problem is two-dimensional: the high x-y frequencies fill [2/4, 2]). */
static PetscInt Degree(const PC_PPEMG *mg)
{
  return mg->degree != PETSC_DECIDE ? mg->degree : (mg->used == PC_PPEMG_SMOOTHER_ZLINE ? 4 : 3);
}
static PetscReal Ratio(const PC_PPEMG *mg)
{
  return mg->ratio > 0 ? mg->ratio : (mg->used == PC_PPEMG_SMOOTHER_ZLINE ? 4.0 : 10.0);
}

/* The smoother of one level: ksp and its PC as the resolved smoother wants them. */
static PetscErrorCode SetUpSmoother(PC_PPEMG *mg, KSP ksp)
{
  PC spc;

  PetscFunctionBegin;
  PetscCall(KSPSetType(ksp, mg->used == PC_PPEMG_SMOOTHER_ZLINE ? KSPCHEBYSHEV : KSPRICHARDSON));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
  PetscCall(KSPGetPC(ksp, &spc));
  switch (mg->used) {
  case PC_PPEMG_SMOOTHER_CHEBYCI:
    PetscCall(KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 1));
    PetscCall(KSPRichardsonSetScale(ksp, 1.0));
    PetscCall(PCSetType(spc, PCCHEBYCI));
    PetscCall(PCChebyCISetMode(spc, PC_CHEBYCI_GLOBAL));
    PetscCall(PCChebyCISetIterations(spc, Degree(mg)));
    PetscCall(PCChebyCISetWeighted(spc, PETSC_TRUE));
    PetscCall(PCChebyCISetEigScale(spc, 1.0, 1.0));
    break;
  case PC_PPEMG_SMOOTHER_JACOBI:
    PetscCall(KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, Degree(mg)));
    PetscCall(KSPRichardsonSetScale(ksp, mg->jweight));
    PetscCall(PCSetType(spc, PCJACOBI));
    break;
  case PC_PPEMG_SMOOTHER_TILEILU:
    PetscCall(KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, Degree(mg)));
    PetscCall(KSPRichardsonSetScale(ksp, 1.0));
    PetscCall(PCSetType(spc, PCTILEILU));
    break;
  default: /* zline: T^-1 A has its spectrum in (0, 2] (src/mg/mgline.c) */
    PetscCall(KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, Degree(mg)));
    PetscCall(KSPChebyshevSetEigenvalues(ksp, 2.0, 2.0 / Ratio(mg)));
    PetscCall(PPEMGLinePCCreate(spc));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The grids, operators, transfers and the inner PCMG with its smoothers and coarse solver. */
static PetscErrorCode SetUpLevels(PC pc, PPEGrid fine)
{
  PC_PPEMG   *mg   = (PC_PPEMG *)pc->data;
  MPI_Comm    comm = PetscObjectComm((PetscObject)pc);
  PPEBackend  backend;
  PetscBool   overlap;
  const char *prefix;
  PetscInt    n = mg->levels, N[PPEMG_MAX_LEVELS][3];

  PetscFunctionBegin;

  mg->used = ResolveSmoother(mg->smoother, fine);
  PetscCheck(mg->used != PC_PPEMG_SMOOTHER_ZLINE || MinZExtent(fine) >= 2, comm, PETSC_ERR_SUP,
             "PC ppemg: the zline smoother solves z lines split across ranks with at least 2 rows on each, but a rank owns %" PetscInt_FMT " z point(s): use fewer ranks along z (-ppe_grid_procs) or another smoother", MinZExtent(fine));
  PetscCall(PPEMGMaxLevels(fine, (PetscBool)(mg->used == PC_PPEMG_SMOOTHER_ZLINE), 3, PPEMG_MAX_LEVELS, mg->c, N, &mg->maxlev, mg->why, sizeof(mg->why)));
  PetscCheck(n == PETSC_DECIDE || n <= mg->maxlev, comm, PETSC_ERR_ARG_OUTOFRANGE, "PC ppemg: %" PetscInt_FMT " levels asked for (-pc_ppemg_levels), but this grid and process layout allow at most %" PetscInt_FMT ": coarsening stops at %s", n,
             mg->maxlev, mg->why);
  if (n == PETSC_DECIDE)
    for (n = 1; n < mg->maxlev && N[n - 1][0] * N[n - 1][1] * N[n - 1][2] > mg->coarse_max; n++) { }
  mg->nlev    = n;
  mg->grid[0] = fine;
  mg->A[0]    = pc->pmat;
  PetscCall(PPEStencilGetBackend(pc->pmat, &backend));
  PetscCall(PPEStencilGetOverlap(pc->pmat, &overlap));
  for (PetscInt l = 1; l < n; l++) {
    PetscCall(PPEMGGridCoarsen(mg->grid[l - 1], mg->c[l - 1], &mg->grid[l]));
    PetscCall(PPEStencilCreate(mg->grid[l], &mg->A[l]));
    PetscCall(PPEStencilSetOverlap(mg->A[l], overlap));
    PetscCall(PPEStencilSetBackend(mg->A[l], backend));
    PetscCall(PPEMGTransferCreate(mg->grid[l - 1], mg->grid[l], &mg->P[l - 1], &mg->R[l - 1]));
  }
  PetscCall(PCCreate(comm, &mg->mg));
  PetscCall(PetscObjectIncrementTabLevel((PetscObject)mg->mg, (PetscObject)pc, 1));
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  PetscCall(PCSetOptionsPrefix(mg->mg, prefix));
  PetscCall(PCAppendOptionsPrefix(mg->mg, "ppemg_"));
  PetscCall(PCSetType(mg->mg, PCMG));
  PetscCall(PCMGSetLevels(mg->mg, n, NULL));
  PetscCall(PCMGSetGalerkin(mg->mg, PC_MG_GALERKIN_NONE));
  for (PetscInt l = 0; l < n - 1; l++) {
    PetscInt i = n - 1 - l; /* PCMG's numbering: 0 the coarsest */
    KSP      ksp;

    PetscCall(PCMGSetInterpolation(mg->mg, i, mg->P[l]));
    PetscCall(PCMGSetRestriction(mg->mg, i, mg->R[l]));
    PetscCall(PCMGGetSmoother(mg->mg, i, &ksp));
    PetscCall(SetUpSmoother(mg, ksp));
  }
  {
    KSP kc, inner;
    PC  cpc, ipc;

    PetscCall(PCMGGetCoarseSolve(mg->mg, &kc));
    PetscCall(KSPSetType(kc, KSPPREONLY));
    PetscCall(KSPGetPC(kc, &cpc));
    PetscCall(PCSetType(cpc, PCREDUNDANT));
    PetscCall(PCRedundantGetKSP(cpc, &inner));
    PetscCall(KSPGetPC(inner, &ipc));
    PetscCall(PCSetType(ipc, PCLU));
    PetscCall(PCFactorSetMatOrderingType(ipc, MATORDERINGND));
    if (mg->grid[n - 1]->singular) PetscCall(PCFactorSetShiftType(ipc, MAT_SHIFT_NONZERO));
  }
  PetscCall(PCSetFromOptions(mg->mg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What depends on the coefficients: coarse faces, the coarsest level assembled, the smoothers'
   intervals and the operators of the inner PCMG (whose set-up then redoes the numeric part). */
static PetscErrorCode SetUpCoefficients(PC pc)
{
  PC_PPEMG *mg = (PC_PPEMG *)pc->data;
  PetscInt  n  = mg->nlev;

  PetscFunctionBegin;
  mg->A[0] = pc->pmat;
  for (PetscInt l = 1; l < n; l++) PetscCall(PPEMGCoarsenOperator(mg->A[l - 1], mg->A[l], mg->rule));
  PetscCall(PPEStencilAssemble(mg->A[n - 1], MATAIJ, mg->Ac ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX, &mg->Ac));
  PetscCall(PCSetOperators(mg->mg, pc->mat, pc->pmat));
  for (PetscInt l = 0; l < n; l++) {
    PetscInt i = n - 1 - l;
    KSP      ksp;

    if (l == n - 1) {
      PetscCall(PCMGGetCoarseSolve(mg->mg, &ksp));
      PetscCall(KSPSetOperators(ksp, mg->Ac, mg->Ac));
      continue;
    }
    PetscCall(PCMGGetSmoother(mg->mg, i, &ksp));
    PetscCall(KSPSetOperators(ksp, l == 0 ? pc->mat : mg->A[l], mg->A[l]));
    if (mg->used == PC_PPEMG_SMOOTHER_CHEBYCI) {
      PPEStencilCoefficients kind;
      PC                     spc;
      PetscBool              ischeb;
      PetscReal              lmax = 2.0; /* Gershgorin: D^-1 A of a row-diagonally-dominant operator */

      PetscCall(KSPGetPC(ksp, &spc));
      PetscCall(PetscObjectTypeCompare((PetscObject)spc, PCCHEBYCI, &ischeb));
      if (!ischeb) continue; /* changed by the user's options */
      PetscCall(PPEStencilGetCoefficients(mg->A[l], &kind, NULL, NULL));
      if (kind == PPE_COEFFICIENTS_CONSTANT) { /* W^-1 A: the exact largest eigenvalue from the 1D spectra */
        lmax = mg->grid[l]->shift;
        for (int d = 0; d < 3; d++) lmax += mg->grid[l]->dir[d].eigmax;
      }
      PetscCall(PCChebyCISetEigenvalues(spc, lmax / Ratio(mg), lmax));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_PPEMG(PC pc)
{
  PC_PPEMG      *mg   = (PC_PPEMG *)pc->data;
  MPI_Comm       comm = PetscObjectComm((PetscObject)pc);
  PPEGrid        grid = NULL;
  PetscBool      isst, built;
  PetscLogDouble t0, t1, t2;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc->pmat, MATPPESTENCIL, &isst));
  PetscCheck(isst, comm, PETSC_ERR_ARG_WRONG,
             "PC ppemg builds its levels from a matrix-free %s operator and its grid, not from a matrix of type %s: use -ppe_operator stencil (ppe-solve) or PPEStencilCreate(); for an assembled matrix use PCMG or PCGAMG", MATPPESTENCIL,
             ((PetscObject)pc->pmat)->type_name);
  PetscCall(PPEStencilGetGrid(pc->pmat, &grid));
  PetscCall(PetscTime(&t0));
  if (mg->mg && mg->grid[0] != grid) PetscCall(PCReset_PPEMG(pc)); /* another grid: a new hierarchy */
  built = (PetscBool)!mg->mg;
  if (built) {
    PetscCall(PetscLogEventBegin(PPE_MGLevels, pc, 0, 0, 0));
    PetscCall(SetUpLevels(pc, grid));
    PetscCall(PetscLogEventEnd(PPE_MGLevels, pc, 0, 0, 0));
  }
  PetscCall(PetscTime(&t1));
  PetscCall(PetscLogEventBegin(PPE_MGCoef, pc, 0, 0, 0));
  PetscCall(SetUpCoefficients(pc));
  PetscCall(PCSetUp(mg->mg));
  PetscCall(PetscLogEventEnd(PPE_MGCoef, pc, 0, 0, 0));
  PetscCall(PetscTime(&t2));
  if (built) mg->t_levels = t1 - t0;
  mg->t_coef = t2 - t1;
  mg->nsetup++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_PPEMG(PC pc, Vec x, Vec y)
{
  return PCApply(((PC_PPEMG *)pc->data)->mg, x, y);
}
static PetscErrorCode PCApplyTranspose_PPEMG(PC pc, Vec x, Vec y)
{
  return PCApplyTranspose(((PC_PPEMG *)pc->data)->mg, x, y);
}

static PetscErrorCode PCSetFromOptions_PPEMG(PC pc, PPEOptionItems PetscOptionsObject)
{
  PC_PPEMG *mg = (PC_PPEMG *)pc->data;
  PetscBool flg;
  PetscInt  n;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "PPEKit geometric multigrid (ppemg)");
  PetscCall(PetscOptionsInt("-pc_ppemg_levels", "Number of levels, the fine one included (default: coarsen until the grid has at most -pc_ppemg_coarse_max points)", "PCPPEMGSetLevels", mg->levels, &n, &flg));
  if (flg) PetscCall(PCPPEMGSetLevels(pc, n));
  PetscCall(PetscOptionsInt("-pc_ppemg_coarse_max", "Default depth: coarsen until the grid has at most this many points (or can be coarsened no further)", NULL, mg->coarse_max, &mg->coarse_max, NULL));
  PetscCheck(mg->coarse_max >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_ppemg_coarse_max must be at least 1, got %" PetscInt_FMT, mg->coarse_max);
  PetscCall(PetscOptionsEnum("-pc_ppemg_smoother", "Smoother of every level but the coarsest (auto: zline on wall-stretched grids, else chebyci)", "PCPPEMGSetSmoother", PCPPEMGSmoothers, (PetscEnum)mg->smoother, (PetscEnum *)&mg->smoother, NULL));
  PetscCall(PetscOptionsInt("-pc_ppemg_degree", "chebyci, zline: degree of the Chebyshev polynomial (operator applications); jacobi, tileilu: Richardson steps (-1: 3, zline 4)", "PCPPEMGSetDegree", mg->degree, &n, &flg));
  if (flg) PetscCall(PCPPEMGSetDegree(pc, n));
  PetscCall(PetscOptionsReal("-pc_ppemg_smooth_ratio", "chebyci, zline: the polynomial damps [lmax/ratio, lmax] of the diagonally (zline: z-line) scaled operator (0: 10, zline 4)", NULL, mg->ratio, &mg->ratio, NULL));
  PetscCheck(mg->ratio == 0 || mg->ratio > 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_ppemg_smooth_ratio must be greater than 1 (or 0: the smoother's default), got %g", (double)mg->ratio);
  PetscCall(PetscOptionsReal("-pc_ppemg_jacobi_weight", "jacobi: damping weight of each step", NULL, mg->jweight, &mg->jweight, NULL));
  PetscCheck(mg->jweight > 0 && mg->jweight < 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_ppemg_jacobi_weight must lie in (0, 2), got %g", (double)mg->jweight);
  PetscCall(PetscOptionsEnum("-pc_ppemg_coarsen", "Face coefficients of a coarse level: harmonic (along the normal, summed across) or average (the coinciding fine faces)", NULL, PPEMGCoarsenRules, (PetscEnum)mg->rule, (PetscEnum *)&mg->rule, NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ksp_view of a set-up PC: the levels, the rule, the smoother, the coarsest solve, the set-up
   times, then the inner PCMG */
static PetscErrorCode ViewLevels(PC_PPEMG *mg, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " levels (%s; the grid allows %" PetscInt_FMT ": %s)\n", mg->nlev, mg->levels == PETSC_DECIDE ? "default: coarsest with at most -pc_ppemg_coarse_max points" : "-pc_ppemg_levels",
                                   mg->maxlev, mg->why));
  for (PetscInt l = 0; l < mg->nlev; l++) {
    char                   sz[64];
    PPEStencilCoefficients kind;
    PetscInt               un[3];

    for (PetscInt u = 0; u < mg->grid[l]->dim; u++) un[u] = mg->grid[l]->N[PPEGridKernelDir(mg->grid[l]->dim, u)];
    PetscCall(PPEJoinSizes(mg->grid[l]->dim, un, " x ", sz, sizeof(sz)));
    PetscCall(PPEStencilGetCoefficients(mg->A[l], &kind, NULL, NULL));
    PetscCall(PetscViewerASCIIPrintf(viewer, "    level %" PetscInt_FMT " (PCMG level %" PetscInt_FMT "): %s, %s %s coefficients%s\n", l, mg->nlev - 1 - l, sz, l == mg->nlev - 1 ? "assembled (LU), from the" : "matrix-free,",
                                     PPEStencilCoefficientsTypes[kind], l == 0 ? " (the operator)" : (kind == PPE_COEFFICIENTS_CONSTANT ? " (discretised again)" : "")));
  }
  if (mg->grid[0]->location == PPE_LOCATION_VERTEX)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  vertex-centred: coarse nodes every second fine node; coarse face coefficients: the %s mean along the normal of the fine faces between two coarse nodes, injected across; %s\n",
                                     mg->rule == PPE_MG_COARSEN_HARMONIC ? "harmonic" : "arithmetic", "transfers: linear interpolation, restriction its transpose (full weighting)"));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "  coarse face coefficients: %s; transfers: piecewise-constant interpolation, restriction the average of the children\n",
                                     mg->rule == PPE_MG_COARSEN_HARMONIC ? "harmonic along the normal, summed across" : "the coinciding fine faces"));
  if (mg->used == PC_PPEMG_SMOOTHER_ZLINE)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  smoother%s: zline, Chebyshev degree %" PetscInt_FMT " on [2/%g, 2] in T^-1 A, T the z lines (each solved exactly); z not coarsened\n",
                                     mg->smoother == PC_PPEMG_SMOOTHER_AUTO ? " (auto: z spacing finer than x, y by > 1.5)" : "", Degree(mg), (double)Ratio(mg)));
  else if (mg->used == PC_PPEMG_SMOOTHER_CHEBYCI)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  smoother: chebyci, degree %" PetscInt_FMT " on [lmax/%g, lmax] (lmax: exact on constant levels, 2 for D^-1 A on variable ones)\n", Degree(mg), (double)Ratio(mg)));
  else if (mg->used == PC_PPEMG_SMOOTHER_JACOBI) PetscCall(PetscViewerASCIIPrintf(viewer, "  smoother: %" PetscInt_FMT " Jacobi steps, weight %g\n", Degree(mg), (double)mg->jweight));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  smoother: %" PetscInt_FMT " tileilu steps\n", Degree(mg)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  coarsest solve: redundant LU (nested dissection)%s\n", mg->grid[mg->nlev - 1]->singular ? ", nonzero pivot shift (singular grid)" : ""));
  PetscCall(
    PetscViewerASCIIPrintf(viewer, "  set-ups: %" PetscInt_FMT "; the hierarchy %.3g s (first set-up), the coefficient-dependent part %.3g s (last set-up: coarse faces, coarsest assembly and LU, smoothers)\n", mg->nsetup, mg->t_levels, mg->t_coef));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  inner PCMG:\n"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PCView(mg->mg, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_PPEMG(PC pc, PetscViewer viewer)
{
  PetscBool iascii = PETSC_FALSE;
  PC_PPEMG *mg     = (PC_PPEMG *)pc->data;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (iascii && mg->mg) PetscCall(ViewLevels(mg, viewer));
  else if (iascii)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  levels: %s, smoother %s degree %" PetscInt_FMT "%s, coarsening %s (not set up)\n", mg->levels == PETSC_DECIDE ? "by size" : "given", PCPPEMGSmoothers[mg->smoother], mg->degree,
                                     mg->degree == PETSC_DECIDE ? " (the smoother's default)" : "", PPEMGCoarsenRules[mg->rule]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A change of levels, smoother or degree makes a new hierarchy at the next set-up. */
PPE_IMPL_SETTER(PCPPEMGSetLevels_PPEMG, PC, pc, PC_PPEMG, PetscInt, n, levels,
                PetscCheck(n == PETSC_DECIDE || (n >= 1 && n <= PPEMG_MAX_LEVELS), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC ppemg: the number of levels must be PETSC_DECIDE or 1 to %d, got %" PetscInt_FMT, PPEMG_MAX_LEVELS, n),
                PetscCall(PCReset_PPEMG(pc)))
PPE_IMPL_SETTER(PCPPEMGSetSmoother_PPEMG, PC, pc, PC_PPEMG, PCPPEMGSmoother, s, smoother,
                PetscCheck(s >= PC_PPEMG_SMOOTHER_CHEBYCI && s <= PC_PPEMG_SMOOTHER_AUTO, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC ppemg: unknown smoother %d", (int)s), PetscCall(PCReset_PPEMG(pc)))
PPE_IMPL_SETTER(PCPPEMGSetDegree_PPEMG, PC, pc, PC_PPEMG, PetscInt, k, degree,
                PetscCheck(k == PETSC_DECIDE || (k >= 1 && k <= 64), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC ppemg: the smoother degree must be 1 to 64 (or PETSC_DECIDE), got %" PetscInt_FMT, k), PetscCall(PCReset_PPEMG(pc)))

static PetscErrorCode PCPPEMGGetSetUpTimes_PPEMG(PC pc, PetscLogDouble *levels, PetscLogDouble *coef)
{
  PC_PPEMG *mg = (PC_PPEMG *)pc->data;

  PetscFunctionBegin;
  if (levels) *levels = mg->t_levels;
  if (coef) *coef = mg->t_coef;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PPE_IMPL_GETTER(PCPPEMGGetLevels_PPEMG, PC, pc, PC_PPEMG, PetscInt, n, impl->mg ? impl->nlev : impl->levels)
PPE_IMPL_GETTER(PCPPEMGGetSmoother_PPEMG, PC, pc, PC_PPEMG, PCPPEMGSmoother, s, impl->mg ? impl->used : impl->smoother)
PPE_IMPL_GETTER(PCPPEMGGetMG_PPEMG, PC, pc, PC_PPEMG, PC, inner, impl->mg)
PPE_IMPL_GETTER(PCPPEMGGetDegree_PPEMG, PC, pc, PC_PPEMG, PetscInt, k, impl->mg ? Degree(impl) : impl->degree)

static const PPEMethod PCPPEMGMethods[] = {
  PPE_METHOD(PCPPEMGSetLevels, PCPPEMGSetLevels_PPEMG), PPE_METHOD(PCPPEMGGetLevels, PCPPEMGGetLevels_PPEMG), PPE_METHOD(PCPPEMGSetSmoother, PCPPEMGSetSmoother_PPEMG), PPE_METHOD(PCPPEMGGetSmoother, PCPPEMGGetSmoother_PPEMG),
  PPE_METHOD(PCPPEMGGetDegree, PCPPEMGGetDegree_PPEMG), PPE_METHOD(PCPPEMGGetMG, PCPPEMGGetMG_PPEMG),         PPE_METHOD(PCPPEMGSetDegree, PCPPEMGSetDegree_PPEMG),     PPE_METHOD(PCPPEMGGetSetUpTimes, PCPPEMGGetSetUpTimes_PPEMG),
};

/* Frees the hierarchy (reset), and with destroy the type's methods and data too. */
static PetscErrorCode Release(PC pc, PetscBool destroy)
{
  PC_PPEMG *mg = (PC_PPEMG *)pc->data;

  PetscFunctionBegin;
  for (PetscInt l = 1; l < mg->nlev; l++) {
    PetscCall(MatDestroy(&mg->A[l]));
    PetscCall(PPEGridDestroy(&mg->grid[l]));
  }
  for (PetscInt l = 0; l < mg->nlev; l++) {
    PetscCall(MatDestroy(&mg->P[l]));
    PetscCall(MatDestroy(&mg->R[l]));
  }
  mg->A[0]    = NULL;
  mg->grid[0] = NULL;
  mg->nlev    = 0;
  PetscCall(MatDestroy(&mg->Ac));
  PetscCall(PCDestroy(&mg->mg));
  if (destroy) {
    PetscCall(PPEComposeMethods(pc, PCPPEMGMethods, PETSC_FALSE));
    PetscCall(PetscFree(pc->data));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_PPEMG(PC pc)
{
  return Release(pc, PETSC_FALSE);
}

static PetscErrorCode PCDestroy_PPEMG(PC pc)
{
  return Release(pc, PETSC_TRUE);
}

static const struct _PCOps PCPPEMGOps = {.setup = PCSetUp_PPEMG, .apply = PCApply_PPEMG, .applytranspose = PCApplyTranspose_PPEMG, .setfromoptions = PCSetFromOptions_PPEMG, .view = PCView_PPEMG, .reset = PCReset_PPEMG, .destroy = PCDestroy_PPEMG};

/*MC
   PCPPEMG - "ppemg" - geometric multigrid on the grid of a matrix-free MATPPESTENCIL operator:
   matrix-free coarse levels whose face coefficients respect jumps, Chebyshev smoothing, a
   redundant LU on the coarsest level; built on PCMG

   Options Database Keys:
+  -pc_ppemg_levels <n> - levels, the fine one included (default: coarsen until at most -pc_ppemg_coarse_max points); more than the grid allows is an error naming where coarsening stops
.  -pc_ppemg_coarse_max <n> - the default depth (4096)
.  -pc_ppemg_smoother <chebyci|jacobi|tileilu|zline|auto> - smoother (default auto: zline on wall-stretched grids, else chebyci)
.  -pc_ppemg_degree <k> - chebyci, zline: polynomial degree; jacobi, tileilu: steps (default 3; zline 4)
.  -pc_ppemg_smooth_ratio <r> - chebyci, zline: interval [lmax/r, lmax] (default 10; zline 4)
.  -pc_ppemg_jacobi_weight <w> - jacobi: damping (default 2/3)
-  -pc_ppemg_coarsen <harmonic|average> - coarse face coefficients (default average)

   The inner PCMG takes its own options under the prefix ppemg_ (-ppemg_pc_mg_type,
   -ppemg_pc_mg_cycle_type, -ppemg_mg_levels_ksp_max_it, -ppemg_mg_coarse_...).

   Level: intermediate

   Notes:
   The preconditioning matrix must be a MATPPESTENCIL, on a grid of any size. On a cell-centred
   grid each rank's block is halved in pairs of cells, one cell alone where the block is odd (the
   coarse DMDAs keep the fine blocks, so the transfers move no data); on a vertex-centred one
   the coarse nodes are every second fine node (one interval alone where their number is odd),
   with linear interpolation and its transpose. The preconditioner is
   symmetric (the same smoother before and after the coarse correction, R proportional to P^T):
   it serves CG. After PPEStencilSetDensity() the next KSPSolve() sets it up again, redoing only
   the coefficient-dependent part (PCPPEMGGetSetUpTimes()).

.seealso: PCMG, PCCHEBYCI, MATPPESTENCIL, PCPPEMGSetLevels(), docs/types/ppemg.md
M*/
PETSC_EXTERN PetscErrorCode PCCreate_PPEMG(PC pc)
{
  static const PC_PPEMG defaults = {.levels = PETSC_DECIDE, .coarse_max = 4096, .smoother = PC_PPEMG_SMOOTHER_AUTO, .degree = PETSC_DECIDE, .ratio = 0.0, .jweight = 2.0 / 3.0, .rule = PPE_MG_COARSEN_AVERAGE};
  PC_PPEMG             *mg;

  PetscFunctionBegin;
  PetscCall(PetscNew(&mg));
  *mg      = defaults;
  pc->data = (void *)mg;
  *pc->ops = PCPPEMGOps;
  PetscCall(PPEComposeMethods(pc, PCPPEMGMethods, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
