/*
   KSPCBCG: Chebyshev-basis communication-avoiding preconditioned conjugate gradients.

   Method: s-step CG (P-CBCG). Each block builds s preconditioned Chebyshev basis vectors
   with products and preconditioner applications only, then does the work of s CG
   iterations with two global reductions instead of 2s (paper 004, Algorithm 2):

       r_0 = b - A x_0;  S_0 = (M^-1 T_0(A M^-1) r_0, ..., M^-1 T_{s-1}(A M^-1) r_0);  Q_0 = S_0
       for k = 0, 1, ...
           [Q_k' A Q_k, Q_k' r, norms of r]           one reduction (convergence test here)
           a = (Q_k' A Q_k)^-1 Q_k' r;   x += Q_k a;   r -= A Q_k a
           S_{k+1}, A S_{k+1} from r                   Chebyshev basis, no reduction
           Q_k' A S_{k+1}                              one reduction
           B = (Q_k' A Q_k)^-1 Q_k' A S_{k+1};  Q_{k+1} = S_{k+1} - Q_k B;  A Q_{k+1} = A S_{k+1} - A Q_k B

   By default for s >= 3 (cbcgsolve1.c) the two reductions are merged into one, as in the s-step CG of
   Chronopoulos and Gear: right after S_{k+1} is built, [Q_k Q_{k-1} S_{k+1}]' [A S_{k+1} r]
   and the norms of r are reduced together, and Q_{k+1}' A Q_{k+1} = S'AS - C'B,
   Q_{k+1}' r = S'r - B' Q_k' r follow without vectors (KSPCBCGSetSingleReduction()).

   The T_j are Chebyshev polynomials scaled to an interval [lmin, lmax] of the spectrum of
   A M^-1: given, exact for the grid operator, or estimated by a short Lanczos process at
   set-up. Numerics (kernels, basis, Gram analysis, estimate) are in src/krylov.

   Robustness: every Gram matrix is equilibrated and analysed; a block whose Gram matrix is
   ill-conditioned is cut to its well-conditioned leading columns, and the next block is made
   A-conjugate to the last two blocks so that it can be full again (the method stays exact);
   negative curvature, asymmetry and NaN end the solve with KSP_DIVERGED_INDEFINITE_MAT,
   KSP_DIVERGED_NONSYMMETRIC, KSP_DIVERGED_NANORINF (or restart it when they may come from
   the drift of the recursively updated A Q).
   Convergence is confirmed on the true residual b - A x; if it fails the iteration restarts
   from the true residual (KSP_DIVERGED_BREAKDOWN when that does not help).

   References:
     Paper 004 (../shared/papers): P-CG and P-CBCG on GPUs for the CFD code JUPITER,
     Algorithms 1-3 and sec. III-IV; the P-CBCG method of Suda et al. (its reference [15]).
     A. T. Chronopoulos, C. W. Gear, s-step iterative methods for symmetric linear systems,
     J. Comput. Appl. Math. 25 (1989).
*/
#include "cbcgimpl.h"

const char *const KSPCBCGBasisTypes[] = {"chebyshev", "newton", "KSPCBCGBasisType", "KSP_CBCG_BASIS_", NULL};
const char *const KSPCBCGEigSources[] = {"given", "grid", "grid-jacobi", "lanczos", "KSPCBCGEigSource", "KSP_CBCG_EIG_", NULL};

static PetscErrorCode KSPCBCGSetS_CBCG(KSP ksp, PetscInt s)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(s >= 1 && s <= PPE_CBCG_SMAX, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCBCG block size s must be in 1..%d, got %" PetscInt_FMT, PPE_CBCG_SMAX, s);
  if (s != cb->s && cb->nalloc) {
    for (int b = 0; b < 3; b++) {
      PetscCall(VecDestroyVecs(cb->nalloc, &cb->V[b]));
      PetscCall(VecDestroyVecs(cb->nalloc, &cb->AV[b]));
    }
    cb->nalloc = 0;
  }
  cb->s = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGGetS_CBCG(KSP ksp, PetscInt *s)
{
  PetscFunctionBegin;
  *s = ((KSP_CBCG *)ksp->data)->s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGSetEigenvalues_CBCG(KSP ksp, PetscReal lmin, PetscReal lmax)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(lmin >= 0 && lmax > lmin && PetscIsNormalReal(lmax), PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE,
             "KSPCBCG eigenvalue interval must satisfy 0 <= lmin < lmax (A M^-1 is positive semi-definite), got lmin %g, lmax %g", (double)lmin, (double)lmax);
  cb->eig_set      = PETSC_TRUE;
  cb->eig_given[0] = lmin;
  cb->eig_given[1] = lmax;
  cb->have_interval = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGGetEigenvalues_CBCG(KSP ksp, PetscReal *lmin, PetscReal *lmax, KSPCBCGEigSource *src)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  if (lmin) *lmin = cb->lmin;
  if (lmax) *lmax = cb->lmax;
  if (src) *src = cb->source;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGSetEigIts_CBCG(KSP ksp, PetscInt its)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(its >= 1 && its <= 1000, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCBCG eigenvalue estimate steps must be in 1..1000, got %" PetscInt_FMT, its);
  if (its != cb->eig_its) cb->have_interval = PETSC_FALSE;
  cb->eig_its = its;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGGetEigIts_CBCG(KSP ksp, PetscInt *its)
{
  PetscFunctionBegin;
  *its = ((KSP_CBCG *)ksp->data)->eig_its;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGSetSafety_CBCG(KSP ksp, PetscReal f)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(f >= 1 && f <= 10, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCBCG safety factor on the estimated lmax must be in [1, 10], got %g", (double)f);
  if (f != cb->safety) cb->have_interval = PETSC_FALSE;
  cb->safety = f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGGetSafety_CBCG(KSP ksp, PetscReal *f)
{
  PetscFunctionBegin;
  *f = ((KSP_CBCG *)ksp->data)->safety;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGSetReplace_CBCG(KSP ksp, PetscInt k)
{
  PetscFunctionBegin;
  PetscCheck(k >= 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCBCG residual replacement interval must be >= 0 blocks (0: never), got %" PetscInt_FMT, k);
  ((KSP_CBCG *)ksp->data)->replace = k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGGetReplace_CBCG(KSP ksp, PetscInt *k)
{
  PetscFunctionBegin;
  *k = ((KSP_CBCG *)ksp->data)->replace;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGSetMaxCondition_CBCG(KSP ksp, PetscReal c)
{
  PetscFunctionBegin;
  PetscCheck(c >= 1, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCBCG largest Gram condition number must be >= 1, got %g", (double)c);
  ((KSP_CBCG *)ksp->data)->cond_max = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGGetMaxCondition_CBCG(KSP ksp, PetscReal *c)
{
  PetscFunctionBegin;
  *c = KSPCBCGCondMax((KSP_CBCG *)ksp->data);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGSetSingleReduction_CBCG(KSP ksp, PetscBool flg)
{
  PetscFunctionBegin;
  ((KSP_CBCG *)ksp->data)->single     = flg;
  ((KSP_CBCG *)ksp->data)->single_set = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGGetSingleReduction_CBCG(KSP ksp, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = KSPCBCGSingle((KSP_CBCG *)ksp->data);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGSetBasis_CBCG(KSP ksp, KSPCBCGBasisType b)
{
  PetscFunctionBegin;
  PetscCheck(b == KSP_CBCG_BASIS_CHEBYSHEV || b == KSP_CBCG_BASIS_NEWTON, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCBCG basis must be chebyshev or newton, got %d", (int)b);
  ((KSP_CBCG *)ksp->data)->basis = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGGetBasis_CBCG(KSP ksp, KSPCBCGBasisType *b)
{
  PetscFunctionBegin;
  *b = ((KSP_CBCG *)ksp->data)->basis;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCBCGGetStats_CBCG(KSP ksp, KSPCBCGStats *st)
{
  PetscFunctionBegin;
  *st = ((KSP_CBCG *)ksp->data)->stats;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The interval of the Chebyshev basis for the current operators: given, from the grid, or
   estimated (the estimate needs the preconditioner set up). Redone when an operator changes. */
PetscErrorCode KSPCBCGSetUpInterval(KSP ksp)
{
  KSP_CBCG        *cb = (KSP_CBCG *)ksp->data;
  Mat              A, P;
  PetscObjectId    aid, pid;
  PetscObjectState ast, pst;
  PetscBool        stencil, none = PETSC_FALSE, jacobi = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(ksp->pc, &A, &P));
  PetscCall(PetscObjectGetId((PetscObject)A, &aid));
  PetscCall(PetscObjectGetId((PetscObject)P, &pid));
  PetscCall(PetscObjectStateGet((PetscObject)A, &ast));
  PetscCall(PetscObjectStateGet((PetscObject)P, &pst));
  if (cb->have_interval && aid == cb->matid && pid == cb->pmatid && ast == cb->matstate && pst == cb->pmatstate) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATPPESTENCIL, &stencil));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCNONE, &none));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCJACOBI, &jacobi));
  if (jacobi) {
    PCJacobiType jt;
    PetscCall(PCJacobiGetType(ksp->pc, &jt));
    jacobi = (PetscBool)(jt == PC_JACOBI_DIAGONAL && P == A);
  }
  cb->exact                = PETSC_FALSE;
  cb->stats.eig_its        = 0;
  cb->stats.eig_reductions = 0;
  if (cb->eig_set) {
    cb->source = KSP_CBCG_EIG_GIVEN;
    cb->lmin   = cb->eig_given[0];
    cb->lmax   = cb->eig_given[1];
  } else if (stencil && none) {
    PPEGrid grid;
    PetscCall(PPEStencilGetGrid(A, &grid));
    PetscCall(PPEGridGetOperatorBounds(grid, &cb->lmin, &cb->lmax, &cb->exact));
    cb->source = KSP_CBCG_EIG_GRID;
  } else if (stencil && jacobi) {
    /* Gershgorin: the rows of the stencil are weakly diagonally dominant, so the spectrum of
       D^-1 A lies in [0, 2] */
    cb->source = KSP_CBCG_EIG_GRID_JACOBI;
    cb->lmin   = 0;
    cb->lmax   = 2;
  } else {
    MatNullSpace nsp;
    Vec          v;
    PetscCall(PCSetUp(ksp->pc));
    PetscCall(MatGetNullSpace(A, &nsp));
    PetscCall(MatCreateVecs(A, &v, NULL));
    PetscCall(PPECBCGEstimateEigenvalues(A, ksp->pc, nsp, v, cb->eig_its, &cb->est));
    PetscCall(VecDestroy(&v));
    cb->stats.eig_its        = cb->est.its;
    cb->stats.eig_reductions = cb->est.reductions;
    cb->source = KSP_CBCG_EIG_LANCZOS;
    cb->lmin   = 0;
    cb->lmax   = cb->safety * cb->est.ritz_max;
    if (!(cb->lmax > 0) || PetscIsInfOrNanReal(cb->lmax)) cb->lmax = 1; /* no usable estimate: the solve will report why */
    PetscCall(PetscInfo(ksp, "KSPCBCG: Lanczos estimate (%" PetscInt_FMT " steps%s): Ritz values [%g, %g], interval used [%g, %g]\n", cb->est.its, cb->est.breakdown ? ", stopped early" : "", (double)cb->est.ritz_min, (double)cb->est.ritz_max, (double)cb->lmin, (double)cb->lmax));
  }
  cb->matid         = aid;
  cb->pmatid        = pid;
  cb->matstate      = ast;
  cb->pmatstate     = pst;
  cb->have_interval = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Work vectors and the three blocks of s vectors (again after s changed). */
PetscErrorCode KSPCBCGAllocate(KSP ksp)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  if (ksp->nwork != 7) PetscCall(KSPSetWorkVecs(ksp, 7)); /* it reallocates on every call */
  if (!cb->nalloc) {
    for (int b = 0; b < 3; b++) {
      PetscCall(VecDuplicateVecs(ksp->work[0], cb->s, &cb->V[b]));
      PetscCall(VecDuplicateVecs(ksp->work[0], cb->s, &cb->AV[b]));
    }
    cb->nalloc = cb->s;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetUp_CBCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscCheck(ksp->pc_side == PC_LEFT, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSPCBCG supports left preconditioning only, not %s", PCSides[ksp->pc_side]);
  PetscCall(KSPCBCGAllocate(ksp));
  PetscCall(KSPCBCGSetUpInterval(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_CBCG(KSP ksp, PPEOptionItems PetscOptionsObject)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;
  PetscInt  s = cb->s, its = cb->eig_its, rep = cb->replace, two = 3; /* one more than allowed: PETSc drops extra values silently */
  PetscReal sf = cb->safety, cm = KSPCBCGCondMax(cb), eig[3] = {0, 0, 0};
  PetscBool        flg;
  KSPCBCGBasisType basis = cb->basis;
  PetscBool        single = KSPCBCGSingle(cb);

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP CBCG options");
  PetscCall(PetscOptionsInt("-ksp_cbcg_s", "Block size: CG iterations per pair of global reductions (1..16)", "KSPCBCGSetS", s, &s, &flg));
  if (flg) PetscCall(KSPCBCGSetS(ksp, s));
  PetscCall(PetscOptionsRealArray("-ksp_cbcg_eigenvalues", "Interval lmin,lmax of the spectrum of A M^-1 for the Chebyshev basis (default: from the grid or estimated)", "KSPCBCGSetEigenvalues", eig, &two, &flg));
  if (flg) {
    PetscCheck(two == 2, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_SIZ, "-ksp_cbcg_eigenvalues needs two values lmin,lmax; got %" PetscInt_FMT, two);
    PetscCall(KSPCBCGSetEigenvalues(ksp, eig[0], eig[1]));
  }
  PetscCall(PetscOptionsInt("-ksp_cbcg_eig_its", "Lanczos steps of the eigenvalue estimate", "KSPCBCGSetEigIts", its, &its, &flg));
  if (flg) PetscCall(KSPCBCGSetEigIts(ksp, its));
  PetscCall(PetscOptionsReal("-ksp_cbcg_safety", "Safety factor on an estimated largest eigenvalue", "KSPCBCGSetSafety", sf, &sf, &flg));
  if (flg) PetscCall(KSPCBCGSetSafety(ksp, sf));
  PetscCall(PetscOptionsInt("-ksp_cbcg_replace", "Replace the recursive residual by b - A x every k blocks (0: never)", "KSPCBCGSetReplace", rep, &rep, &flg));
  if (flg) PetscCall(KSPCBCGSetReplace(ksp, rep));
  PetscCall(PetscOptionsBool("-ksp_cbcg_single_reduction", "One global reduction per block (merged Gram products), else two (paper 004, Algorithm 2); default: one for s >= 3", "KSPCBCGSetSingleReduction", single, &single, &flg));
  if (flg) {
    PetscCall(KSPCBCGSetSingleReduction(ksp, single));
    cm = KSPCBCGCondMax(cb);
  }
  PetscCall(PetscOptionsReal("-ksp_cbcg_cond_max", "Largest condition number of an equilibrated Gram matrix before the block is cut to fewer columns (default 300 with one reduction per block, 1e4 with two)", "KSPCBCGSetMaxCondition", cm, &cm, &flg));
  if (flg) PetscCall(KSPCBCGSetMaxCondition(ksp, cm));
  PetscCall(PetscOptionsEnum("-ksp_cbcg_basis", "Polynomial basis of the blocks: chebyshev, or newton with the previous block's Ritz values as shifts", "KSPCBCGSetBasis", KSPCBCGBasisTypes, (PetscEnum)basis, (PetscEnum *)&basis, &flg));
  if (flg) PetscCall(KSPCBCGSetBasis(ksp, basis));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPView_CBCG(KSP ksp, PetscViewer viewer)
{
  KSP_CBCG          *cb = (KSP_CBCG *)ksp->data;
  const KSPCBCGStats *st = &cb->stats;
  PetscBool          iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  block size s: %" PetscInt_FMT " (CG iterations per block)\n", cb->s));
  if (!cb->have_interval) PetscCall(PetscViewerASCIIPrintf(viewer, "  eigenvalue interval: not set up yet\n"));
  else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  eigenvalue interval of A M^-1 used: [%g, %g]\n", (double)cb->lmin, (double)cb->lmax));
    switch (cb->source) {
    case KSP_CBCG_EIG_GIVEN:
      PetscCall(PetscViewerASCIIPrintf(viewer, "  interval source: given (KSPCBCGSetEigenvalues)\n"));
      break;
    case KSP_CBCG_EIG_GRID:
      PetscCall(PetscViewerASCIIPrintf(viewer, "  interval source: grid operator without preconditioner, %s\n", cb->exact ? "exact extreme eigenvalues" : "bounds"));
      break;
    case KSP_CBCG_EIG_GRID_JACOBI:
      PetscCall(PetscViewerASCIIPrintf(viewer, "  interval source: grid operator with Jacobi, Gershgorin bound of D^-1 A\n"));
      break;
    case KSP_CBCG_EIG_LANCZOS:
      PetscCall(PetscViewerASCIIPrintf(viewer, "  interval source: Lanczos estimate, %" PetscInt_FMT " steps%s, Ritz values [%g, %g], lmax = safety factor %g x largest, lmin = 0\n", cb->est.its, cb->est.breakdown ? " (stopped early)" : "", (double)cb->est.ritz_min, (double)cb->est.ritz_max, (double)cb->safety));
      PetscCall(PetscViewerASCIIPrintf(viewer, "  eigenvalue estimate: %" PetscInt_FMT " global reductions, done at set-up (not counted in the solve)\n", cb->est.reductions));
      break;
    }
  }
  if (cb->source != KSP_CBCG_EIG_LANCZOS) PetscCall(PetscViewerASCIIPrintf(viewer, "  safety factor on an estimated lmax: %g (not used: no estimate)\n", (double)cb->safety));
  if (cb->basis == KSP_CBCG_BASIS_NEWTON) PetscCall(PetscViewerASCIIPrintf(viewer, "  basis: newton, shifts = Leja-ordered Ritz values of the previous block (first block: chebyshev)\n"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  basis: chebyshev\n"));
  if (KSPCBCGSingle(cb)) PetscCall(PetscViewerASCIIPrintf(viewer, "  global reductions per block: 1 ([Q_k Q_k-1 S]' [A S r], next Gram matrix by Schur complement)%s\n", cb->single_set ? "" : " (default for s >= 3)"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  global reductions per block: 2 (Q'AQ and Q'r, then Q'AS: paper 004, Algorithm 2)%s\n", cb->single_set ? "" : " (default for s <= 2)"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  Gram matrices: equilibrated, largest condition number accepted %g%s\n", (double)KSPCBCGCondMax(cb), cb->cond_max > 0 ? "" : " (default of this variant)"));
  if (cb->replace) PetscCall(PetscViewerASCIIPrintf(viewer, "  residual replacement: every %" PetscInt_FMT " blocks\n", cb->replace));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  residual replacement: never\n"));
  if (st->s_first) {
    PetscReal per = ksp->its > 0 ? (PetscReal)st->reductions / ksp->its : 0;
    PetscCall(PetscViewerASCIIPrintf(viewer, "  last solve: %" PetscInt_FMT " blocks, %" PetscInt_FMT " iterations, s %" PetscInt_FMT " at the start and %" PetscInt_FMT " at the end\n", st->blocks, ksp->its, st->s_first, st->s_last));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  fallbacks: %" PetscInt_FMT " blocks cut to fewer columns, %" PetscInt_FMT " restarts from the true residual (%" PetscInt_FMT " after A Q drifted)\n", st->truncations, st->restarts, st->drifts));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  residual replacements: %" PetscInt_FMT "\n", st->replacements));
    if (cb->basis == KSP_CBCG_BASIS_NEWTON) PetscCall(PetscViewerASCIIPrintf(viewer, "  blocks with the newton basis: %" PetscInt_FMT ", last Ritz values [%g, %g]\n", st->newton_blocks, (double)st->ritz_min, (double)st->ritz_max));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  largest Gram condition number used: %.3g\n", (double)st->cond_max));
    if (st->true_rnorm >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  true residual norm checked at convergence: %g\n", (double)st->true_rnorm));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  global reductions of the method in the last solve: %" PetscInt_FMT ", %.4f per iteration (bound 2/s + 0.05 = %.4f)\n", st->reductions, (double)per, 2.0 / st->s_first + 0.05));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  MPI_Allreduce calls counted by PETSc in the last solve: %.0f%s\n", st->reductions_counted, st->reductions_counted > 0 ? "" : " (PETSc counts none on one rank)"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPReset_CBCG(KSP ksp)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  if (cb->nalloc) {
    for (int b = 0; b < 3; b++) {
      PetscCall(VecDestroyVecs(cb->nalloc, &cb->V[b]));
      PetscCall(VecDestroyVecs(cb->nalloc, &cb->AV[b]));
    }
    cb->nalloc = 0;
  }
  cb->have_interval = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPDestroy_CBCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPReset_CBCG(ksp));
  PetscCall(KSPDestroyDefault(ksp));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetS_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetS_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetEigenvalues_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetEigenvalues_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetEigIts_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetEigIts_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetSafety_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetSafety_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetReplace_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetReplace_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetMaxCondition_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetMaxCondition_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetStats_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetBasis_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetSingleReduction_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetSingleReduction_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetBasis_C", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPCBCG - Chebyshev-basis communication-avoiding preconditioned conjugate gradients
   (P-CBCG): s CG iterations per block with one global reduction (two optionally), for symmetric positive
   (semi-)definite operators and preconditioners

   Options Database Keys:
+  -ksp_cbcg_s <8>                 - block size s, 1..16 (KSPCBCGSetS())
.  -ksp_cbcg_eigenvalues lmin,lmax - interval of the spectrum of A M^-1 for the basis (KSPCBCGSetEigenvalues())
.  -ksp_cbcg_eig_its <20>          - Lanczos steps of the eigenvalue estimate (KSPCBCGSetEigIts())
.  -ksp_cbcg_safety <1.1>          - factor on the estimated largest eigenvalue (KSPCBCGSetSafety())
.  -ksp_cbcg_replace <0>           - residual replacement every k blocks, 0 never (KSPCBCGSetReplace())
.  -ksp_cbcg_single_reduction <bool> - one global reduction per block, else two; default one for s >= 3 (KSPCBCGSetSingleReduction())
.  -ksp_cbcg_cond_max <300>        - largest equilibrated Gram condition number used; 1e4 with two reductions (KSPCBCGSetMaxCondition())
-  -ksp_cbcg_basis <chebyshev>     - polynomial basis: chebyshev, or newton with Ritz shifts (KSPCBCGSetBasis())

   Level: intermediate

   Notes:
   Each block builds the preconditioned Chebyshev basis M^-1 T_j(A M^-1) r, j < s, with s
   products and s preconditioner applications (halo exchanges, no reduction), then reduces
   [Q_k Q_k-1 S]' [A S r] and the norms of r in one MPI_Allreduce (by default for s >= 3; with
   -ksp_cbcg_single_reduction false [Q'AQ, Q'r, norms of r] in one and Q'AS in another, as in
   paper 004): about 1/s (2/s) global reductions per iteration instead of CG's 2. The residual norm is known once per block, so
   the iteration count is a sum of block widths (s, or fewer for a cut block). Left preconditioning only;
   the preconditioned (default), unpreconditioned and natural norms are supported.

   The interval comes from KSPCBCGSetEigenvalues(); else, for a MATPPESTENCIL operator, from
   the grid (no preconditioner: exact extremes; point Jacobi on the same matrix: [0, 2]);
   else from a Lanczos estimate at set-up, reported by -ksp_view with its reductions.

   A null space attached to the operator is respected: the preconditioner is applied without
   projection, and the null-space part the iteration adds to x is removed once at the end
   (the initial guess keeps its own).

   References:
   Paper 004 in ../shared/papers (Algorithms 2 and 3); Suda et al. (P-CBCG); Chronopoulos and
   Gear, J. Comput. Appl. Math. 25 (1989) (s-step CG). See docs/types/cbcg.md.

.seealso: KSPCG, KSPPIPECG, KSPCBCGSetS(), KSPCBCGSetEigenvalues(), KSPCBCGGetStats()
M*/
PETSC_EXTERN PetscErrorCode KSPCreate_CBCG(KSP ksp)
{
  KSP_CBCG *cb;

  PetscFunctionBegin;
  PetscCall(PPESysInitializePackage());
  PetscCall(PetscNew(&cb));
  cb->s        = 8;
  cb->eig_its  = 20;
  cb->safety   = 1.1;
  cb->replace  = 0;
  cb->cond_max = 0; /* the default of the variant: CBCG_COND_MAX_SINGLE or CBCG_COND_MAX_TWO */
  cb->single   = PETSC_TRUE; /* used once set; by default one reduction for s >= 3 */
  cb->basis    = KSP_CBCG_BASIS_CHEBYSHEV;
  ksp->data    = (void *)cb;

  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_PRECONDITIONED, PC_LEFT, 3));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NATURAL, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_LEFT, 1));

  ksp->ops->setup          = KSPSetUp_CBCG;
  ksp->ops->solve          = KSPSolve_CBCG;
  ksp->ops->setfromoptions = KSPSetFromOptions_CBCG;
  ksp->ops->view           = KSPView_CBCG;
  ksp->ops->reset          = KSPReset_CBCG;
  ksp->ops->destroy        = KSPDestroy_CBCG;
  ksp->ops->buildsolution  = KSPBuildSolutionDefault;
  ksp->ops->buildresidual  = KSPBuildResidualDefault;

  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetS_C", KSPCBCGSetS_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetS_C", KSPCBCGGetS_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetEigenvalues_C", KSPCBCGSetEigenvalues_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetEigenvalues_C", KSPCBCGGetEigenvalues_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetEigIts_C", KSPCBCGSetEigIts_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetEigIts_C", KSPCBCGGetEigIts_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetSafety_C", KSPCBCGSetSafety_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetSafety_C", KSPCBCGGetSafety_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetReplace_C", KSPCBCGSetReplace_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetReplace_C", KSPCBCGGetReplace_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetMaxCondition_C", KSPCBCGSetMaxCondition_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetMaxCondition_C", KSPCBCGGetMaxCondition_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetStats_C", KSPCBCGGetStats_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetBasis_C", KSPCBCGSetBasis_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGSetSingleReduction_C", KSPCBCGSetSingleReduction_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetSingleReduction_C", KSPCBCGGetSingleReduction_CBCG));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCBCGGetBasis_C", KSPCBCGGetBasis_CBCG));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGSetS - sets the block size s of KSPCBCG: the number of CG iterations done per
   pair of global reductions

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
-  s   - the block size, 1 to 16 (default 8)

   Options Database Key:
.  -ksp_cbcg_s <s> - the block size

   Notes:
   s = 1 is CG with two reductions per iteration. Larger s divides the reductions by s but
   costs about s^2 flops per row and block in the tall-skinny products, and the Gram
   matrices grow more ill-conditioned; a block whose Gram matrix exceeds the condition limit
   is cut to its longest leading part within the limit (that block only: the next one is
   built with s columns again; see KSPCBCGSetMaxCondition()).

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGGetS(), KSPCBCGSetMaxCondition()
@*/
PetscErrorCode KSPCBCGSetS(KSP ksp, PetscInt s)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, s, 2);
  PetscTryMethod(ksp, "KSPCBCGSetS_C", (KSP, PetscInt), (ksp, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGGetS - gets the block size s of KSPCBCG

   Not Collective

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetS()
@*/
PetscErrorCode KSPCBCGGetS(KSP ksp, PetscInt *s)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(s, 2);
  PetscUseMethod(ksp, "KSPCBCGGetS_C", (KSP, PetscInt *), (ksp, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGSetEigenvalues - gives the interval [lmin, lmax] of the spectrum of A M^-1 to
   which the Chebyshev basis of KSPCBCG is scaled, instead of taking it from the grid or
   estimating it

   Logically Collective

   Input Parameters:
+  ksp  - the Krylov solver
.  lmin - lower end, >= 0 (0 is safe)
-  lmax - upper end, > lmin: at or slightly above the largest eigenvalue

   Options Database Key:
.  -ksp_cbcg_eigenvalues lmin,lmax - the interval

   Notes:
   The interval only shapes the basis: a poor one makes the Gram matrices ill-conditioned,
   so that blocks are cut to fewer columns (more reductions, never a wrong answer).

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGGetEigenvalues(), KSPCBCGSetEigIts()
@*/
PetscErrorCode KSPCBCGSetEigenvalues(KSP ksp, PetscReal lmin, PetscReal lmax)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveReal(ksp, lmin, 2);
  PetscValidLogicalCollectiveReal(ksp, lmax, 3);
  PetscTryMethod(ksp, "KSPCBCGSetEigenvalues_C", (KSP, PetscReal, PetscReal), (ksp, lmin, lmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGGetEigenvalues - gets the interval the Chebyshev basis of KSPCBCG uses (after
   set-up) and where it came from

   Not Collective

   Output Parameters:
+  lmin, lmax - the interval
-  src        - its source (KSPCBCGEigSource)

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetEigenvalues()
@*/
PetscErrorCode KSPCBCGGetEigenvalues(KSP ksp, PetscReal *lmin, PetscReal *lmax, KSPCBCGEigSource *src)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscUseMethod(ksp, "KSPCBCGGetEigenvalues_C", (KSP, PetscReal *, PetscReal *, KSPCBCGEigSource *), (ksp, lmin, lmax, src));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGSetEigIts - sets the number of Lanczos steps of the eigenvalue estimate of KSPCBCG

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
-  its - steps, 1 to 1000 (default 20); each costs a product, a preconditioner
         application and two global reductions, at set-up

   Options Database Key:
.  -ksp_cbcg_eig_its <its> - the steps

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetSafety(), KSPCBCGSetEigenvalues()
@*/
PetscErrorCode KSPCBCGSetEigIts(KSP ksp, PetscInt its)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, its, 2);
  PetscTryMethod(ksp, "KSPCBCGSetEigIts_C", (KSP, PetscInt), (ksp, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGGetEigIts - gets the number of Lanczos steps of the eigenvalue estimate

   Not Collective

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetEigIts()
@*/
PetscErrorCode KSPCBCGGetEigIts(KSP ksp, PetscInt *its)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(its, 2);
  PetscUseMethod(ksp, "KSPCBCGGetEigIts_C", (KSP, PetscInt *), (ksp, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGSetSafety - sets the factor applied to the estimated largest eigenvalue (Ritz
   values approach it from below)

   Logically Collective

   Input Parameters:
+  ksp    - the Krylov solver
-  factor - in [1, 10] (default 1.1)

   Options Database Key:
.  -ksp_cbcg_safety <factor> - the factor

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetEigIts()
@*/
PetscErrorCode KSPCBCGSetSafety(KSP ksp, PetscReal factor)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveReal(ksp, factor, 2);
  PetscTryMethod(ksp, "KSPCBCGSetSafety_C", (KSP, PetscReal), (ksp, factor));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGGetSafety - gets the safety factor on the estimated largest eigenvalue

   Not Collective

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetSafety()
@*/
PetscErrorCode KSPCBCGGetSafety(KSP ksp, PetscReal *factor)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(factor, 2);
  PetscUseMethod(ksp, "KSPCBCGGetSafety_C", (KSP, PetscReal *), (ksp, factor));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGSetReplace - replaces the recursively updated residual of KSPCBCG by the true
   residual b - A x every k blocks

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
-  k   - blocks between replacements, 0 for never (default)

   Options Database Key:
.  -ksp_cbcg_replace <k> - the interval

   Notes:
   A replacement costs one product with A and no reduction. Convergence is always confirmed
   on the true residual, whatever k.

   Level: intermediate

.seealso: KSPCBCG
@*/
PetscErrorCode KSPCBCGSetReplace(KSP ksp, PetscInt k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, k, 2);
  PetscTryMethod(ksp, "KSPCBCGSetReplace_C", (KSP, PetscInt), (ksp, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGGetReplace - gets the residual replacement interval of KSPCBCG

   Not Collective

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetReplace()
@*/
PetscErrorCode KSPCBCGGetReplace(KSP ksp, PetscInt *k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(k, 2);
  PetscUseMethod(ksp, "KSPCBCGGetReplace_C", (KSP, PetscInt *), (ksp, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGSetMaxCondition - sets the largest condition number of an equilibrated Gram
   matrix Q' A Q that KSPCBCG uses; beyond it the block is cut to its longest leading part
   within the limit (the next block is full again)

   Logically Collective

   Input Parameters:
+  ksp  - the Krylov solver
-  cond - the limit, >= 1 (default 300 with one reduction per block, 1e4 with two)

   Options Database Key:
.  -ksp_cbcg_cond_max <cond> - the limit

   Notes:
   The small solves lose about log10(cond) digits, which CG's superlinear convergence feels
   as a delay: a low limit keeps the iteration count at CG's, a high one keeps the blocks
   full (fewer reductions). The condition of a block grows with s and with how few
   eigen-directions the residual has left; see docs/types/cbcg.md for measurements.

   Level: advanced

.seealso: KSPCBCG, KSPCBCGSetS(), KSPCBCGGetStats()
@*/
PetscErrorCode KSPCBCGSetMaxCondition(KSP ksp, PetscReal cond)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveReal(ksp, cond, 2);
  PetscTryMethod(ksp, "KSPCBCGSetMaxCondition_C", (KSP, PetscReal), (ksp, cond));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGGetMaxCondition - gets the Gram condition limit of KSPCBCG

   Not Collective

   Level: advanced

.seealso: KSPCBCG, KSPCBCGSetMaxCondition()
@*/
PetscErrorCode KSPCBCGGetMaxCondition(KSP ksp, PetscReal *cond)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(cond, 2);
  PetscUseMethod(ksp, "KSPCBCGGetMaxCondition_C", (KSP, PetscReal *), (ksp, cond));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGGetStats - what the last solve of KSPCBCG did: blocks, fallbacks, reductions,
   the eigenvalue estimate

   Not Collective

   Output Parameter:
.  stats - see KSPCBCGStats

   Level: intermediate

.seealso: KSPCBCG, KSPView()
@*/
PetscErrorCode KSPCBCGGetStats(KSP ksp, KSPCBCGStats *stats)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(stats, 2);
  PetscUseMethod(ksp, "KSPCBCGGetStats_C", (KSP, KSPCBCGStats *), (ksp, stats));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGSetBasis - sets the polynomial basis of the blocks of KSPCBCG

   Logically Collective

   Input Parameters:
+  ksp   - the Krylov solver
-  basis - KSP_CBCG_BASIS_CHEBYSHEV (default) or KSP_CBCG_BASIS_NEWTON

   Options Database Key:
.  -ksp_cbcg_basis <chebyshev,newton> - the basis

   Notes:
   The Newton basis M^-1 prod_{i<j} (A M^-1 - theta_i) r uses as shifts theta_i the Ritz
   values of M^-1 A on the previous block, in Leja order. They come from that block's Gram
   matrices (S'AS = Q'AQ + C'B, the Chebyshev or Newton recurrence gives S'A M^-1 A S), so
   the basis costs no extra reduction, product or preconditioner application. The first
   block of a solve uses the Chebyshev basis. The Newton basis adapts to the part of the
   spectrum the residual lives in; with strong preconditioners (ICC) it keeps blocks of 12
   and 16 columns well conditioned where the Chebyshev basis on the estimated interval
   does not (docs/types/cbcg.md).

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGGetBasis(), KSPCBCGSetMaxCondition(), KSPCBCGGetStats()
@*/
PetscErrorCode KSPCBCGSetBasis(KSP ksp, KSPCBCGBasisType basis)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(ksp, basis, 2);
  PetscTryMethod(ksp, "KSPCBCGSetBasis_C", (KSP, KSPCBCGBasisType), (ksp, basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGGetBasis - gets the polynomial basis of KSPCBCG

   Not Collective

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetBasis()
@*/
PetscErrorCode KSPCBCGGetBasis(KSP ksp, KSPCBCGBasisType *basis)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(basis, 2);
  PetscUseMethod(ksp, "KSPCBCGGetBasis_C", (KSP, KSPCBCGBasisType *), (ksp, basis));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGSetSingleReduction - sets whether KSPCBCG makes one global reduction per block
   (the default) or two (paper 004, Algorithm 2)

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
-  flg - PETSC_TRUE: one reduction per block; PETSC_FALSE: two (default: one for s >= 3, two for s <= 2)

   Options Database Key:
.  -ksp_cbcg_single_reduction <true,false> - the choice

   Notes:
   With two reductions a block reduces [Q'AQ, Q'r, norms of r], updates x and r, builds the
   next basis S and reduces Q'AS to conjugate it. With one, the products [Q_k Q_k-1 S]' [A S r]
   and the norms of r are reduced together right after S is built, and the next Gram matrix
   follows as the Schur complement S'AS - C' G^-1 C, as in the s-step CG of Chronopoulos and
   Gear: half the reductions, the same products with A and the same preconditioner
   applications, a little more arithmetic on s x s matrices. The Schur complement loses the
   digits that cancel in it, so the default Gram condition limit is lower (300 instead of
   1e4); docs/types/cbcg.md has the measurements that made one reduction the default for
   s >= 3. For s <= 2 the default stays two: the bound 2/s + 0.05 of issue 5 allows them, and
   the Gram matrix computed from the vectors is the more accurate (the stretched channel
   problem without preconditioner takes 175 iterations against CG's 106 at s = 2 with one).

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGGetSingleReduction(), KSPCBCGSetMaxCondition()
@*/
PetscErrorCode KSPCBCGSetSingleReduction(KSP ksp, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveBool(ksp, flg, 2);
  PetscTryMethod(ksp, "KSPCBCGSetSingleReduction_C", (KSP, PetscBool), (ksp, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   KSPCBCGGetSingleReduction - gets whether KSPCBCG makes one global reduction per block

   Not Collective

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetSingleReduction()
@*/
PetscErrorCode KSPCBCGGetSingleReduction(KSP ksp, PetscBool *flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  PetscUseMethod(ksp, "KSPCBCGGetSingleReduction_C", (KSP, PetscBool *), (ksp, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}
