/*
   The steps both iterations of KSPCBCG share (the two-reduction one of cbcgsolve2.c, the
   one-reduction one of cbcgsolve1.c; the method is described in cbcg.c and docs/types/cbcg.md):
   the start of a solve, the convergence test of a block confirmed on the true residual, the
   verdict on a block's Gram analysis, the update of x and r, the end of a solve with the null
   space; and the bookkeeping of the three block buffers: the width of the next basis, the
   rotation that makes it the current block, the Newton shifts from a block's Ritz values.
*/
#include "cbcgimpl.h"

/* r = b - A x */
static PetscErrorCode KSPCBCGResidual(KSP ksp, Mat A, Vec r)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  PetscCall(KSP_MatMult(ksp, A, cb->vecs.x, r));
  PetscCall(VecAYPX(r, -1.0, cb->vecs.rhs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Norm of the true residual w = b - A x, of the kind used by the convergence test, with one
   reduction (u = M^-1 w when the test needs it). With sum != NULL the same reduction also
   gives the sum of the entries of x (to remove a constant null space). */
static PetscErrorCode KSPCBCGTrueResidualNorm(KSP ksp, Mat A, Vec w, Vec u, PetscReal *norm, PetscScalar *sum)
{
  KSP_CBCG   *cb = (KSP_CBCG *)ksp->data;
  PetscScalar d[4], xs = 0;
  Vec         v[2] = {w, u};

  PetscFunctionBegin;
  PetscCall(KSPCBCGResidual(ksp, A, w));
  if (sum) PetscCall(PPEKrylovLocalSum(cb->vecs.x, &xs));
  if (ksp->normtype == KSP_NORM_UNPRECONDITIONED) {
    PetscCall(PPETSGram(1, v, 1, v, 1, d, sum ? 1 : 0, &xs));
    *norm = PetscSqrtReal(PetscAbsScalar(d[0]));
  } else {
    PetscCall(PCApply(ksp->pc, w, u));
    PetscCall(PPETSGram(2, v, 2, v, 2, d, sum ? 1 : 0, &xs)); /* [w'w u'w; w'u u'u] */
    *norm = PetscSqrtReal(PetscAbsScalar(ksp->normtype == KSP_NORM_PRECONDITIONED ? d[3] : d[2]));
  }
  if (sum) *sum = xs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sets ksp->reason for a norm that is not finite: a failed preconditioner or NaN/Inf. */
static PetscErrorCode KSPCBCGReasonNotFinite(KSP ksp)
{
  PCFailedReason pcreason;
  PetscInt       loc, all;

  PetscFunctionBegin;
  PetscCall(PPEPCGetFailedReasonLocal(ksp->pc, &pcreason));
  loc = (PetscInt)pcreason;
  PetscCall(MPIU_Allreduce(&loc, &all, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)ksp)));
  ksp->reason = all ? KSP_DIVERGED_PC_FAILED : KSP_DIVERGED_NANORINF;
  if (all) PetscCall(PCSetFailedReason(ksp->pc, (PCFailedReason)all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The start of a solve, the same for both iterations: checks, storage (the blocks where the
   iteration runs), the interval, the null space, the statistics, the null-space part of a
   nonzero initial guess (kept, in work[5]), and the initial residual r = b - A x in work[0]. */
PetscErrorCode KSPCBCGSolveBegin(KSP ksp, KSPCBCGRun *run)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;
  Mat       P;
  Vec       X = cb->vecs.x, R = cb->vecs.work[0], XN = cb->vecs.work[5];
  PetscBool diagonalscale;

  PetscFunctionBegin;
  PetscCheck(!ksp->transpose_solve, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSPCBCG is for symmetric operators: use KSPSolve(), not KSPSolveTranspose()");
  PetscCall(PCGetDiagonalScale(ksp->pc, &diagonalscale));
  PetscCheck(!diagonalscale, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "Krylov method %s does not support diagonal scaling", ((PetscObject)ksp)->type_name);
  PetscCall(PetscMemzero(run, sizeof(*run)));
  run->ct0         = petsc_allreduce_ct;
  run->N           = 1;
  run->lastrestart = PETSC_MAX_REAL;
  run->fresh       = PETSC_TRUE;
  PetscCall(KSPCBCGAllocate(ksp));      /* again if s changed after set-up, or the iteration runs on another back end */
  PetscCall(KSPCBCGSetUpInterval(ksp)); /* redone only when an operator changed since set-up */
  PetscCall(PCGetOperators(ksp->pc, &run->A, &P));
  PetscCall(MatGetNullSpace(run->A, &run->nsp));
  if (run->nsp) {
    PetscBool hc;
    PetscInt  nv;
    PetscCall(MatNullSpaceGetVecs(run->nsp, &hc, &nv, NULL));
    run->cnst = (PetscBool)(hc && nv == 0);
    PetscCall(VecGetSize(X, &run->N));
  }
  {
    PetscInt eits = cb->stats.eig_its, ered = cb->stats.eig_reductions; /* belong to the set-up */
    PetscCall(PetscMemzero(&cb->stats, sizeof(cb->stats)));
    cb->stats.eig_its        = eits;
    cb->stats.eig_reductions = ered;
  }
  cb->stats.s_first    = cb->s;
  cb->stats.true_rnorm = -1;
  ksp->its             = 0;
  ksp->rnorm           = 0;
  /* the null-space part of a nonzero initial guess is kept; the iteration's is removed at the end */
  if (run->nsp && !ksp->guess_zero) {
    PetscCall(VecCopy(X, XN));
    PetscCall(MatNullSpaceRemove(run->nsp, XN)); /* its sums on the host (a device-resident XN is copied) */
    PetscCall(VecAYPX(XN, -1.0, X));             /* XN = x0 - P x0 */
    run->x0null = PETSC_TRUE;
    run->nred++;
  }
  if (!ksp->guess_zero) PetscCall(KSPCBCGResidual(ksp, run->A, R));
  else PetscCall(VecCopy(cb->vecs.rhs, R)); /* r = b */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   KSPCBCGTest - what a block does with the reduced r'r, r'z, z'z (z = M^-1 r) at iteration its:
   the norm of the kind the test uses, its checks (not finite, r'z < 0), the monitors and the
   convergence test (unless run->skiptest: the residual was tested just before a restart), and
   a convergence confirmed on the true residual (one more reduction). A false convergence
   restarts from the true residual, left in work[0]; after CBCG_MAX_RESTARTS, or when a restart
   did not lower it, KSP_DIVERGED_BREAKDOWN. Also stops at ksp->max_it.
*/
PetscErrorCode KSPCBCGTest(KSP ksp, KSPCBCGRun *run, PetscInt its, PetscReal rr, PetscReal rz, PetscReal zz, KSPCBCGNext *next)
{
  KSP_CBCG *cb       = (KSP_CBCG *)ksp->data;
  PetscBool skiptest = run->skiptest;
  PetscReal dp, tnorm = 0; /* set by KSPCBCGTrueResidualNorm() before use */

  PetscFunctionBegin;
  run->skiptest = PETSC_FALSE;
  *next         = KSPCBCG_STOP;
  switch (ksp->normtype) {
  case KSP_NORM_PRECONDITIONED:
    dp = PetscSqrtReal(PetscAbsReal(zz));
    break;
  case KSP_NORM_UNPRECONDITIONED:
    dp = PetscSqrtReal(PetscAbsReal(rr));
    break;
  case KSP_NORM_NATURAL:
    dp = PetscSqrtReal(PetscAbsReal(rz));
    break;
  default:
    dp = 0;
  }
  if (PetscIsInfOrNanReal(rz) || PetscIsInfOrNanReal(zz) || PetscIsInfOrNanReal(rr)) {
    PetscCall(KSPCBCGReasonNotFinite(ksp));
    ksp->rnorm = dp;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (rz < 0) { /* r' M^-1 r < 0 */
    ksp->reason = KSP_DIVERGED_INDEFINITE_PC;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!skiptest) {
    ksp->rnorm = dp;
    PetscCall(KSPLogResidualHistory(ksp, dp));
    PetscCall(KSPMonitor(ksp, its, dp));
    PetscCall((*ksp->converged)(ksp, its, dp, &ksp->reason, ksp->cnvP));
  }
  if (ksp->reason > 0 && ksp->normtype != KSP_NORM_NONE) { /* confirm on the true residual */
    KSPConvergedReason treason = KSP_CONVERGED_ITERATING;
    PetscScalar        xsum    = 0;

    PetscCall(KSPCBCGTrueResidualNorm(ksp, run->A, cb->vecs.work[3], cb->vecs.work[4], &tnorm, run->cnst ? &xsum : NULL));
    run->nred++;
    cb->stats.true_rnorm = tnorm;
    if (!PetscIsInfOrNanReal(tnorm)) PetscCall((*ksp->converged)(ksp, its, tnorm, &treason, ksp->cnvP));
    if (treason > 0) {
      ksp->rnorm = tnorm;
      if (run->cnst) { /* constant null space: x -= mean(x), with the sum from the same reduction */
        PetscCall(VecShift(cb->vecs.x, -xsum / run->N));
        run->nullremoved = PETSC_TRUE;
      }
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(PetscInfo(ksp, "KSPCBCG: recursive residual %g converged but true residual %g did not at iteration %" PetscInt_FMT ": restart from the true residual\n", (double)dp, (double)tnorm, its));
    cb->stats.restarts++;
    if (++run->tfails > CBCG_MAX_RESTARTS || !(tnorm < run->lastrestart)) {
      PetscCall(PetscInfo(ksp, "KSPCBCG: restarts do not reduce the true residual %g: breakdown\n", (double)tnorm));
      ksp->reason = KSP_DIVERGED_BREAKDOWN;
      ksp->rnorm  = tnorm;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    run->lastrestart = tnorm;
    ksp->reason      = KSP_CONVERGED_ITERATING;
    PetscCall(VecCopy(cb->vecs.work[3], cb->vecs.work[0]));
    run->fresh    = PETSC_TRUE; /* from the true residual, already tested */
    run->skiptest = PETSC_TRUE;
    *next         = KSPCBCG_RESTART;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (ksp->reason) PetscFunctionReturn(PETSC_SUCCESS);
  if (its >= ksp->max_it) {
    ksp->reason = KSP_DIVERGED_ITS;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *next = KSPCBCG_GO;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   KSPCBCGVerdict - what the iteration does with the analysis st, f of a block of k columns:
   stop on non-finite entries, on negative curvature or asymmetry of a fresh block (A S computed
   directly: the operator's) and on a singular first column; restart from the true residual
   (left in work[0]) when a continued block shows them, since its recursively updated A Q may
   have drifted from A times Q (restarts of any cause share CBCG_MAX_RESTARTS); report a cut.
*/
PetscErrorCode KSPCBCGVerdict(KSP ksp, KSPCBCGRun *run, PPEGramStatus st, const PPEGramFactor *f, PetscInt k, PetscInt its, PetscBool continued, KSPCBCGNext *next)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  *next = KSPCBCG_STOP;
  if (st == PPE_GRAM_NANORINF) {
    PetscCall(KSPCBCGReasonNotFinite(ksp));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if ((st == PPE_GRAM_INDEFINITE || st == PPE_GRAM_NONSYMMETRIC) && continued) {
    PetscCall(PetscInfo(ksp, "KSPCBCG: Gram matrix of block %" PetscInt_FMT " %s (asymmetry %g, smallest equilibrated eigenvalue %g): restart from the true residual\n", cb->stats.blocks, PPEGramStatuses[st], (double)f->asym, (double)f->eigmin));
    cb->stats.restarts++;
    cb->stats.drifts++;
    if (++run->tfails > CBCG_MAX_RESTARTS) {
      PetscCall(PetscInfo(ksp, "KSPCBCG: more than %d restarts: breakdown\n", CBCG_MAX_RESTARTS));
      ksp->reason = KSP_DIVERGED_BREAKDOWN;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(KSPCBCGResidual(ksp, run->A, cb->vecs.work[0]));
    run->fresh    = PETSC_TRUE; /* r was tested with this block: the restart does not test it again */
    run->skiptest = PETSC_TRUE;
    *next         = KSPCBCG_RESTART;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (st == PPE_GRAM_INDEFINITE) {
    PetscCall(PetscInfo(ksp, "KSPCBCG: negative curvature in the Gram matrix of block %" PetscInt_FMT " (smallest equilibrated eigenvalue %g): operator not positive definite\n", cb->stats.blocks, (double)f->eigmin));
    ksp->reason = KSP_DIVERGED_INDEFINITE_MAT;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (st == PPE_GRAM_NONSYMMETRIC) {
    PetscCall(PetscInfo(ksp, "KSPCBCG: Gram matrix of block %" PetscInt_FMT " not symmetric (relative asymmetry %g): operator not symmetric\n", cb->stats.blocks, (double)f->asym));
    ksp->reason = KSP_DIVERGED_NONSYMMETRIC;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (st == PPE_GRAM_SINGULAR) {
    ksp->reason = KSP_DIVERGED_BREAKDOWN;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (f->kuse < k && k <= ksp->max_it - its) {
    PetscCall(PetscInfo(ksp, "KSPCBCG: Gram matrix of block %" PetscInt_FMT " has condition %g > %g: %" PetscInt_FMT " of %" PetscInt_FMT " columns used\n", cb->stats.blocks, (double)f->cond_full, (double)KSPCBCGCondMax(cb), f->kuse, k));
    cb->stats.truncations++;
  }
  *next = KSPCBCG_GO;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   KSPCBCGAdvance - k iterations' worth of CG on the analysed block Q (images AQ): a = G^-1 g,
   x += Q a, r -= AQ a (work[0]), *its += k, and the residual replacement when it is due.
   Sets *stop (and the reason) when a is not finite.
*/
PetscErrorCode KSPCBCGAdvance(KSP ksp, KSPCBCGRun *run, PetscInt k, const PPEGramFactor *f, const PetscScalar g[], Vec Q[], Vec AQ[], PetscInt *its, PetscBool *stop)
{
  KSP_CBCG   *cb = (KSP_CBCG *)ksp->data;
  PetscScalar a[PPE_CBCG_SMAX];
  PetscBool   finite = PETSC_TRUE;

  PetscFunctionBegin;
  *stop = PETSC_FALSE;
  PetscCall(PetscArraycpy(a, g, k));
  PetscCall(PPEGramSolve(f, 1, a, k)); /* a = (Q'AQ)^-1 Q'r */
  for (PetscInt j = 0; j < k; j++) finite = (PetscBool)(finite && !PetscIsInfOrNanScalar(a[j]));
  if (!finite) { /* same on every rank: the data came from one reduction */
    PetscCall(KSPCBCGReasonNotFinite(ksp));
    *stop = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(PPE_CBCGUpdate, 0, 0, 0, 0));
  PetscCall(PPETSAxpy(k, Q, AQ, a, cb->vecs.x, cb->vecs.work[0])); /* x += Q a, r -= AQ a */
  PetscCall(PetscLogEventEnd(PPE_CBCGUpdate, 0, 0, 0, 0));
  *its += k;
  ksp->its = *its;
  cb->stats.blocks++;
  if (cb->replace > 0 && cb->stats.blocks % cb->replace == 0) {
    PetscCall(KSPCBCGResidual(ksp, run->A, cb->vecs.work[0]));
    cb->stats.replacements++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The end of a solve: the null-space part the iteration added is removed (the initial guess's
   kept), and the statistics of the last block and of the reductions. */
PetscErrorCode KSPCBCGSolveEnd(KSP ksp, KSPCBCGRun *run, PetscInt klast)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  if (run->nsp) {
    if (!run->nullremoved) {
      PetscCall(MatNullSpaceRemove(run->nsp, cb->vecs.x));
      run->nred++;
    }
    if (run->x0null) PetscCall(VecAXPY(cb->vecs.x, 1.0, cb->vecs.work[5]));
  }
  cb->stats.s_last             = klast;
  cb->stats.reductions         = run->nred;
  cb->stats.reductions_counted = petsc_allreduce_ct - run->ct0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   KSPCBCGBlockWidth - the width kb of the next basis and the columns nq of the blocks
   [Q_k Q_{k-1}] it is made A-conjugate to, after a block Q_k that was not a (re)start's only
   block. Conjugating it to Q_k alone is exact when it is no wider than Q_k (Krylov structure),
   or when Q_k started the iteration; after a cut block it is also conjugated to Q_{k-1}, which
   allows k + k_{k-1} columns (any number when Q_{k-1} started the iteration), so s comes back
   at once.
*/
PetscErrorCode KSPCBCGBlockWidth(const KSPCBCGBlocks *bk, PetscInt s, PetscInt *kb, PetscInt *nq)
{
  PetscFunctionBegin;
  *kb = s;
  *nq = bk->k;
  if (!bk->curfirst && *kb > bk->k) {
    if (bk->haveold) {
      if (!bk->oldfirst) *kb = PetscMin(*kb, bk->k + bk->ko);
      *nq = bk->k + bk->ko;
    } else *kb = bk->k;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   KSPCBCGRotate - the basis just built (kb columns, Gram factor f, or NULL when it is analysed
   later) becomes the current block; the current one becomes the older block when the basis
   was conjugated against it (conj), else no older block is kept; first: the new block starts
   the iteration (a start or a restart).
*/
PetscErrorCode KSPCBCGRotate(KSPCBCGBlocks *bk, PetscBool conj, PetscBool first, PetscInt kb, const PPEGramFactor *f)
{
  PetscInt t = bk->old;

  PetscFunctionBegin;
  if (conj) {
    bk->oldfirst = bk->curfirst;
    bk->haveold  = PETSC_TRUE;
    bk->ko       = bk->k;
    bk->fo       = bk->f;
  } else bk->haveold = PETSC_FALSE;
  bk->old      = bk->cur;
  bk->cur      = bk->bas;
  bk->bas      = t;
  bk->curfirst = first;
  bk->k        = kb;
  if (f) bk->f = *f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   KSPCBCGNewtonShifts - the m Ritz values th (ascending) of M^-1 A on a block's basis as the
   shifts of the next block's Newton basis (recnext, and *newton set), when they are positive
   up to rounding (the smallest above -CBCG_RITZ_NEG_TOL times the largest; clipped at 0).
   Otherwise the next block keeps the last shifts (or the Chebyshev basis).
*/
PetscErrorCode KSPCBCGNewtonShifts(KSP ksp, PetscInt m, PetscReal th[], PPEBasisRecurrence *recnext, PetscBool *newton)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;

  PetscFunctionBegin;
  if (m >= 1 && th[0] > -CBCG_RITZ_NEG_TOL * th[m - 1] && th[m - 1] > 0) {
    for (PetscInt i = 0; i < m; i++) th[i] = PetscMax(th[i], 0);
    PetscCall(PPECBCGRecurrenceNewton(m, th, recnext));
    cb->stats.ritz_min = th[0];
    cb->stats.ritz_max = th[m - 1];
    *newton            = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
