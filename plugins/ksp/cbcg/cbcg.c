/*
   KSPCBCG: Chebyshev-basis communication-avoiding preconditioned conjugate gradients.

   Method: s-step CG (P-CBCG). Each block builds s preconditioned Chebyshev basis vectors
   with products and preconditioner applications only, then does the work of s CG
   iterations with two global reductions instead of 2s (Ali et al. (2019), Algorithm 2):

       r_0 = b - A x_0;  S_0 = (M^-1 T_0(A M^-1) r_0, ..., M^-1 T_{s-1}(A M^-1) r_0);  Q_0 = S_0
       for k = 0, 1, ...
           [Q_k' A Q_k, Q_k' r, norms of r]           one reduction (convergence test here)
           a = (Q_k' A Q_k)^-1 Q_k' r;   x += Q_k a;   r -= A Q_k a
           S_{k+1}, A S_{k+1} from r                   Chebyshev basis, no reduction
           Q_k' A S_{k+1}                              one reduction
           B = (Q_k' A Q_k)^-1 Q_k' A S_{k+1};  Q_{k+1} = S_{k+1} - Q_k B;  A Q_{k+1} = A S_{k+1} - A Q_k B

   By default for s >= 3 (cbcgsolve1.c; two reductions: cbcgsolve2.c) the two reductions are merged into one, as in the s-step CG of
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

   Files: cbcgimpl.h lists them; this one holds the type (options, set-up, view, life cycle),
   cbcgapi.c its public functions.

   References:
     Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of communication
     avoiding Chebyshev basis conjugate gradient solver for multiphase CFD simulations", ScalA
     workshop at SC19 (IEEE/ACM), 2019: P-CG and P-CBCG on GPUs for the CFD code JUPITER,
     Algorithms 1-3 and sec. III-IV; the P-CBCG method of Suda et al. (its reference [15]).
     A. T. Chronopoulos and C. W. Gear, "s-step iterative methods for symmetric linear
     systems", Journal of Computational and Applied Mathematics 25, 1989.
*/
#include "cbcgimpl.h"
#include "../../pluginimpl.h"

const char *const KSPCBCGBasisTypes[] = {"chebyshev", "newton", "KSPCBCGBasisType", "KSP_CBCG_BASIS_", NULL};
const char *const KSPCBCGEigSources[] = {"given", "grid", "grid-jacobi", "lanczos", "KSPCBCGEigSource", "KSP_CBCG_EIG_", NULL};

/* The iteration of the variant in use: chosen at set-up, and again when s or the variant is
   set (s may change between set-up and solve; the blocks are reallocated at the solve). */
static void KSPCBCGChooseSolve(KSP_CBCG *cb)
{
  cb->solve = KSPCBCGSingle(cb) ? KSPSolve_CBCG_OneReduction : KSPSolve_CBCG_TwoReductions;
}

static PetscErrorCode KSPCBCGSetS_CBCG(KSP ksp, PetscInt s)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(s >= 1 && s <= PPE_CBCG_SMAX, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCBCG block size s must be in 1..%d, got %" PetscInt_FMT, PPE_CBCG_SMAX, s);
  if (s != cb->s) PetscCall(KSPCBCGFreeBlocks(cb));
  cb->s = s;
  KSPCBCGChooseSolve(cb);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PPE_IMPL_GETTER(KSPCBCGGetS_CBCG, KSP, ksp, KSP_CBCG, PetscInt, s, impl->s)

static PetscErrorCode KSPCBCGSetEigenvalues_CBCG(KSP ksp, PetscReal lmin, PetscReal lmax)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(lmin >= 0 && lmax > lmin && PetscIsNormalReal(lmax), PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCBCG eigenvalue interval must satisfy 0 <= lmin < lmax (A M^-1 is positive semi-definite), got lmin %g, lmax %g",
             (double)lmin, (double)lmax);
  cb->eig_set       = PETSC_TRUE;
  cb->eig_given[0]  = lmin;
  cb->eig_given[1]  = lmax;
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

PPE_IMPL_SETTER(KSPCBCGSetEigIts_CBCG, KSP, ksp, KSP_CBCG, PetscInt, its, eig_its,
                PetscCheck(its >= 1 && its <= CBCG_MAX_EIG_ITS, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCBCG eigenvalue estimate steps must be in 1..%d, got %" PetscInt_FMT, CBCG_MAX_EIG_ITS, its),
                impl->have_interval = PETSC_FALSE)
PPE_IMPL_GETTER(KSPCBCGGetEigIts_CBCG, KSP, ksp, KSP_CBCG, PetscInt, its, impl->eig_its)

PPE_IMPL_SETTER(KSPCBCGSetSafety_CBCG, KSP, ksp, KSP_CBCG, PetscReal, f, safety,
                PetscCheck(f >= 1 && f <= CBCG_MAX_SAFETY, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCBCG safety factor on the estimated lmax must be in [1, %d], got %g", CBCG_MAX_SAFETY, (double)f),
                impl->have_interval = PETSC_FALSE)
PPE_IMPL_GETTER(KSPCBCGGetSafety_CBCG, KSP, ksp, KSP_CBCG, PetscReal, f, impl->safety)

PPE_IMPL_SETTER(KSPCBCGSetReplace_CBCG, KSP, ksp, KSP_CBCG, PetscInt, k, replace,
                PetscCheck(k >= 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCBCG residual replacement interval must be >= 0 blocks (0: never), got %" PetscInt_FMT, k), )
PPE_IMPL_GETTER(KSPCBCGGetReplace_CBCG, KSP, ksp, KSP_CBCG, PetscInt, k, impl->replace)

PPE_IMPL_SETTER(KSPCBCGSetMaxCondition_CBCG, KSP, ksp, KSP_CBCG, PetscReal, c, cond_max, PetscCheck(c >= 1, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCBCG largest Gram condition number must be >= 1, got %g", (double)c), )
PPE_IMPL_GETTER(KSPCBCGGetMaxCondition_CBCG, KSP, ksp, KSP_CBCG, PetscReal, c, KSPCBCGCondMax(impl))

static PetscErrorCode KSPCBCGSetSingleReduction_CBCG(KSP ksp, PetscBool flg)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  cb->single     = flg;
  cb->single_set = PETSC_TRUE;
  KSPCBCGChooseSolve(cb);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PPE_IMPL_GETTER(KSPCBCGGetSingleReduction_CBCG, KSP, ksp, KSP_CBCG, PetscBool, flg, KSPCBCGSingle(impl))

PPE_IMPL_SETTER(KSPCBCGSetBasis_CBCG, KSP, ksp, KSP_CBCG, KSPCBCGBasisType, b, basis,
                PetscCheck(b == KSP_CBCG_BASIS_CHEBYSHEV || b == KSP_CBCG_BASIS_NEWTON, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "KSPCBCG basis must be chebyshev or newton, got %d", (int)b), )
PPE_IMPL_GETTER(KSPCBCGGetBasis_CBCG, KSP, ksp, KSP_CBCG, KSPCBCGBasisType, b, impl->basis)

PPE_IMPL_GETTER(KSPCBCGGetStats_CBCG, KSP, ksp, KSP_CBCG, KSPCBCGStats, st, impl->stats)

static PetscErrorCode KSPSetUp_CBCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscCheck(ksp->pc_side == PC_LEFT, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSPCBCG supports left preconditioning only, not %s", PCSides[ksp->pc_side]);
  PetscCall(KSPCBCGAllocate(ksp));
  PetscCall(KSPCBCGSetUpInterval(ksp));
  KSPCBCGChooseSolve((KSP_CBCG *)ksp->data);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the iteration chosen at set-up: cbcgsolve1.c (one global reduction per block) or cbcgsolve2.c (two) */
static PetscErrorCode KSPSolve_CBCG(KSP ksp)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  PetscCall(PPEKrylovVecsBegin(ksp, &cb->vecs)); /* device-resident when operator and PC run on a device */
  PetscCall((*cb->solve)(ksp));
  PetscCall(PPEKrylovVecsEnd(ksp, &cb->vecs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_CBCG(KSP ksp, PPEOptionItems PetscOptionsObject)
{
  KSP_CBCG        *cb = (KSP_CBCG *)ksp->data;
  PetscInt         s = cb->s, its = cb->eig_its, rep = cb->replace, two = 3; /* one more than allowed: PETSc drops extra values silently */
  PetscReal        sf = cb->safety, cm = KSPCBCGCondMax(cb), eig[3] = {0, 0, 0};
  PetscBool        flg;
  KSPCBCGBasisType basis  = cb->basis;
  PetscBool        single = KSPCBCGSingle(cb);

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP CBCG options");
  PetscCall(PetscOptionsInt("-ksp_cbcg_s", "Block size: CG iterations per pair of global reductions (1.." PetscStringize(PPE_CBCG_SMAX) ")", "KSPCBCGSetS", s, &s, &flg));
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
  PetscCall(PetscOptionsBool("-ksp_cbcg_single_reduction", "One global reduction per block (merged Gram products), else two (Ali et al. 2019, Algorithm 2); default: one for s >= " PetscStringize(CBCG_SINGLE_MIN_S), "KSPCBCGSetSingleReduction",
                             single, &single, &flg));
  if (flg) {
    PetscCall(KSPCBCGSetSingleReduction(ksp, single));
    cm = KSPCBCGCondMax(cb);
  }
  PetscCall(
    PetscOptionsReal("-ksp_cbcg_cond_max",
                     "Largest condition number of an equilibrated Gram matrix before the block is cut to fewer columns (default " PetscStringize(CBCG_COND_MAX_SINGLE) " with one reduction per block, " PetscStringize(CBCG_COND_MAX_TWO) " with two)",
                     "KSPCBCGSetMaxCondition", cm, &cm, &flg));
  if (flg) PetscCall(KSPCBCGSetMaxCondition(ksp, cm));
  PetscCall(PetscOptionsEnum("-ksp_cbcg_basis", "Polynomial basis of the blocks: chebyshev, or newton with the previous block's Ritz values as shifts", "KSPCBCGSetBasis", KSPCBCGBasisTypes, (PetscEnum)basis, (PetscEnum *)&basis, &flg));
  if (flg) PetscCall(KSPCBCGSetBasis(ksp, basis));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPView_CBCG(KSP ksp, PetscViewer viewer)
{
  KSP_CBCG           *cb = (KSP_CBCG *)ksp->data;
  const KSPCBCGStats *st = &cb->stats;
  PetscBool           iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  block size s: %" PetscInt_FMT " (CG iterations per block)\n", cb->s));
  PetscCall(PPEKrylovVecsView(viewer, &cb->vecs, "the Gram numbers per block"));
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
      PetscCall(PetscViewerASCIIPrintf(viewer, "  interval source: Lanczos estimate, %" PetscInt_FMT " steps%s, Ritz values [%g, %g], lmax = safety factor %g x largest, lmin = 0\n", cb->est.its, cb->est.breakdown ? " (stopped early)" : "",
                                       (double)cb->est.ritz_min, (double)cb->est.ritz_max, (double)cb->safety));
      PetscCall(PetscViewerASCIIPrintf(viewer, "  eigenvalue estimate: %" PetscInt_FMT " global reductions, done at set-up (not counted in the solve)\n", cb->est.reductions));
      break;
    }
  }
  if (cb->source != KSP_CBCG_EIG_LANCZOS) PetscCall(PetscViewerASCIIPrintf(viewer, "  safety factor on an estimated lmax: %g (not used: no estimate)\n", (double)cb->safety));
  if (cb->basis == KSP_CBCG_BASIS_NEWTON) PetscCall(PetscViewerASCIIPrintf(viewer, "  basis: newton, shifts = Leja-ordered Ritz values of the previous block (first block: chebyshev)\n"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  basis: chebyshev\n"));
  if (KSPCBCGSingle(cb))
    PetscCall(PetscViewerASCIIPrintf(viewer, "  global reductions per block: 1 ([Q_k Q_k-1 S]' [A S r], next Gram matrix by Schur complement)%s\n", cb->single_set ? "" : " (default for s >= " PetscStringize(CBCG_SINGLE_MIN_S) ")"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  global reductions per block: 2 (Q'AQ and Q'r, then Q'AS: Ali et al. (2019), Algorithm 2)%s\n", cb->single_set ? "" : " (default for s < " PetscStringize(CBCG_SINGLE_MIN_S) ")"));
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
    PetscCall(PetscViewerASCIIPrintf(viewer, "  global reductions of the method in the last solve: %" PetscInt_FMT ", %.4f per iteration (bound 2/s + %g = %.4f)\n", st->reductions, (double)per, (double)CBCG_REDUCTION_SLACK,
                                     (double)KSPCBCGReductionBound(st->s_first)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  MPI_Allreduce calls counted by PETSc in the last solve: %.0f%s\n", st->reductions_counted, st->reductions_counted > 0 ? "" : " (PETSc counts none on one rank)"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPReset_CBCG(KSP ksp)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  PetscCall(KSPCBCGFreeBlocks(cb));
  PetscCall(PPEKrylovVecsReset(&cb->vecs));
  cb->have_interval = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The methods KSPCreate_CBCG() composes and KSPDestroy_CBCG() removes */
static const PPEMethod KSPCBCGMethods[] = {
  PPE_METHOD(KSPCBCGSetS, KSPCBCGSetS_CBCG),
  PPE_METHOD(KSPCBCGGetS, KSPCBCGGetS_CBCG),
  PPE_METHOD(KSPCBCGSetEigenvalues, KSPCBCGSetEigenvalues_CBCG),
  PPE_METHOD(KSPCBCGGetEigenvalues, KSPCBCGGetEigenvalues_CBCG),
  PPE_METHOD(KSPCBCGSetEigIts, KSPCBCGSetEigIts_CBCG),
  PPE_METHOD(KSPCBCGGetEigIts, KSPCBCGGetEigIts_CBCG),
  PPE_METHOD(KSPCBCGSetSafety, KSPCBCGSetSafety_CBCG),
  PPE_METHOD(KSPCBCGGetSafety, KSPCBCGGetSafety_CBCG),
  PPE_METHOD(KSPCBCGSetReplace, KSPCBCGSetReplace_CBCG),
  PPE_METHOD(KSPCBCGGetReplace, KSPCBCGGetReplace_CBCG),
  PPE_METHOD(KSPCBCGSetMaxCondition, KSPCBCGSetMaxCondition_CBCG),
  PPE_METHOD(KSPCBCGGetMaxCondition, KSPCBCGGetMaxCondition_CBCG),
  PPE_METHOD(KSPCBCGGetStats, KSPCBCGGetStats_CBCG),
  PPE_METHOD(KSPCBCGSetBasis, KSPCBCGSetBasis_CBCG),
  PPE_METHOD(KSPCBCGSetSingleReduction, KSPCBCGSetSingleReduction_CBCG),
  PPE_METHOD(KSPCBCGGetSingleReduction, KSPCBCGGetSingleReduction_CBCG),
  PPE_METHOD(KSPCBCGGetBasis, KSPCBCGGetBasis_CBCG),
};

static PetscErrorCode KSPDestroy_CBCG(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPReset_CBCG(ksp));
  PetscCall(KSPDestroyDefault(ksp));
  PetscCall(PPEComposeMethods(ksp, KSPCBCGMethods, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The solution as it stands: during a solve the iterate on the back end where it runs (left
   preconditioning: x itself, as KSPBuildSolutionDefault() gives it). */
static PetscErrorCode KSPBuildSolution_CBCG(KSP ksp, Vec v, Vec *V)
{
  PetscFunctionBegin;
  PetscCall(PPEKrylovVecsBuildSolution(ksp, &((KSP_CBCG *)ksp->data)->vecs, v, V));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   KSPCBCG - Chebyshev-basis communication-avoiding preconditioned conjugate gradients
   (P-CBCG): s CG iterations per block with one global reduction (two optionally), for symmetric positive
   (semi-)definite operators and preconditioners

   Options Database Keys:
+  -ksp_cbcg_s <8>                 - block size s, 1..16 (PPE_CBCG_SMAX); default CBCG_DEFAULT_S = 8 (KSPCBCGSetS())
.  -ksp_cbcg_eigenvalues lmin,lmax - interval of the spectrum of A M^-1 for the basis (KSPCBCGSetEigenvalues())
.  -ksp_cbcg_eig_its <20>          - Lanczos steps of the eigenvalue estimate; default CBCG_DEFAULT_EIG_ITS = 20 (KSPCBCGSetEigIts())
.  -ksp_cbcg_safety <1.1>          - factor on the estimated largest eigenvalue; default CBCG_DEFAULT_SAFETY = 1.1 (KSPCBCGSetSafety())
.  -ksp_cbcg_replace <0>           - residual replacement every k blocks, 0 never (the default) (KSPCBCGSetReplace())
.  -ksp_cbcg_single_reduction <bool> - one global reduction per block, else two; default one for s >= CBCG_SINGLE_MIN_S = 3 (KSPCBCGSetSingleReduction())
.  -ksp_cbcg_cond_max <300>        - largest equilibrated Gram condition number used; default CBCG_COND_MAX_SINGLE = 300, CBCG_COND_MAX_TWO = 1e4 with two reductions (KSPCBCGSetMaxCondition())
-  -ksp_cbcg_basis <chebyshev>     - polynomial basis: chebyshev (the default), or newton with Ritz shifts (KSPCBCGSetBasis())

   Level: intermediate

   Notes:
   Each block builds the preconditioned Chebyshev basis M^-1 T_j(A M^-1) r, j < s, with s
   products and s preconditioner applications (halo exchanges, no reduction), then reduces
   [Q_k Q_k-1 S]' [A S r] and the norms of r in one MPI_Allreduce (by default for s >= 3; with
   -ksp_cbcg_single_reduction false [Q'AQ, Q'r, norms of r] in one and Q'AS in another, as in
   Ali et al. (2019), Algorithm 2): about 1/s (2/s) global reductions per iteration instead of CG's 2. The residual norm is known once per block, so
   the iteration count is a sum of block widths (s, or fewer for a cut block). Left preconditioning only;
   the preconditioned (default), unpreconditioned and natural norms are supported.

   The interval comes from KSPCBCGSetEigenvalues(); else, for a MATPPESTENCIL operator, from
   the grid (no preconditioner: exact extremes; point Jacobi on the same matrix: [0, 2]);
   else from a Lanczos estimate at set-up, reported by -ksp_view with its reductions.

   A null space attached to the operator is respected: the preconditioner is applied without
   projection, and the null-space part the iteration adds to x is removed once at the end
   (the initial guess keeps its own).

   References:
   Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of communication
   avoiding Chebyshev basis conjugate gradient solver for multiphase CFD simulations", ScalA
   workshop at SC19 (IEEE/ACM), 2019 (Algorithms 2 and 3); Suda et al. (P-CBCG, reference [15]
   there); A. T. Chronopoulos and C. W. Gear, "s-step iterative methods for symmetric linear
   systems", Journal of Computational and Applied Mathematics 25, 1989 (s-step CG). See
   docs/types/cbcg.md.

.seealso: KSPCG, KSPPIPECG, KSPCBCGSetS(), KSPCBCGSetEigenvalues(), KSPCBCGGetStats()
M*/
PETSC_EXTERN PetscErrorCode KSPCreate_CBCG(KSP ksp)
{
  KSP_CBCG *cb;

  PetscFunctionBegin;
  PetscCall(PPESysInitializePackage());
  PetscCall(PetscNew(&cb));
  cb->s        = CBCG_DEFAULT_S;
  cb->eig_its  = CBCG_DEFAULT_EIG_ITS;
  cb->safety   = CBCG_DEFAULT_SAFETY;
  cb->replace  = 0;          /* never */
  cb->cond_max = 0;          /* the default of the variant: CBCG_COND_MAX_SINGLE or CBCG_COND_MAX_TWO */
  cb->single   = PETSC_TRUE; /* used once set; by default one reduction for s >= CBCG_SINGLE_MIN_S */
  cb->basis    = KSP_CBCG_BASIS_CHEBYSHEV;
  ksp->data    = (void *)cb;
  KSPCBCGChooseSolve(cb); /* again at set-up */

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
  ksp->ops->buildsolution  = KSPBuildSolution_CBCG;
  ksp->ops->buildresidual  = KSPBuildResidualDefault;

  PetscCall(PPEComposeMethods(ksp, KSPCBCGMethods, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
