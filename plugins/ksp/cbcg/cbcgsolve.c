/*
   The iteration of KSPCBCG (see cbcg.c for the method and docs/types/cbcg.md): blocks of s CG
   iterations with two global reductions each, the Gram analysis and its fallbacks, the
   convergence test confirmed on the true residual, the null space. The start of a solve, the
   test of each block, the update of x and r and the end are shared with the one-reduction
   iteration of cbcgsolve1.c (KSPCBCGSolveBegin, KSPCBCGTest, KSPCBCGVerdict, KSPCBCGAdvance,
   KSPCBCGSolveEnd).
*/
#include "cbcgimpl.h"

/* Norm of the true residual w = b - A x, of the kind used by the convergence test, with one
   reduction (u = M^-1 w when the test needs it). With sum != NULL the same reduction also
   gives the sum of the entries of x (to remove a constant null space). */
/* r = b - A x */
PetscErrorCode KSPCBCGResidual(KSP ksp, Mat A, Vec r)
{
  PetscFunctionBegin;
  PetscCall(KSP_MatMult(ksp, A, ksp->vec_sol, r));
  PetscCall(VecAYPX(r, -1.0, ksp->vec_rhs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPCBCGTrueResidualNorm(KSP ksp, Mat A, Vec w, Vec u, PetscReal *norm, PetscScalar *sum)
{
  PetscScalar d[4], xs = 0;
  Vec         v[2] = {w, u};

  PetscFunctionBegin;
  PetscCall(KSPCBCGResidual(ksp, A, w));
  if (sum) {
    const PetscScalar *xa;
    PetscInt           n;
    PetscCall(VecGetLocalSize(ksp->vec_sol, &n));
    PetscCall(VecGetArrayRead(ksp->vec_sol, &xa));
    for (PetscInt i = 0; i < n; i++) xs += xa[i];
    PetscCall(VecRestoreArrayRead(ksp->vec_sol, &xa));
  }
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
PetscErrorCode KSPCBCGReasonNotFinite(KSP ksp)
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

/* The start of a solve, the same for both iterations: checks, storage, the interval, the null
   space, the statistics, the null-space part of a nonzero initial guess (kept, in work[5]), and
   the initial residual r = b - A x in work[0]. */
PetscErrorCode KSPCBCGSolveBegin(KSP ksp, KSPCBCGRun *run)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;
  Mat       P;
  Vec       X = ksp->vec_sol, R = ksp->work[0], XN = ksp->work[5];
  PetscBool diagonalscale;

  PetscFunctionBegin;
  PetscCheck(!ksp->transpose_solve, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSPCBCG is for symmetric operators: use KSPSolve(), not KSPSolveTranspose()");
  PetscCall(PCGetDiagonalScale(ksp->pc, &diagonalscale));
  PetscCheck(!diagonalscale, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "Krylov method %s does not support diagonal scaling", ((PetscObject)ksp)->type_name);
  PetscCall(PetscMemzero(run, sizeof(*run)));
  run->ct0         = petsc_allreduce_ct;
  run->N           = 1;
  run->lastrestart = PETSC_MAX_REAL;
  PetscCall(KSPCBCGAllocate(ksp));      /* again if s changed after set-up */
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
    PetscCall(MatNullSpaceRemove(run->nsp, XN));
    PetscCall(VecAYPX(XN, -1.0, X)); /* XN = x0 - P x0 */
    run->x0null = PETSC_TRUE;
    run->nred++;
  }
  if (!ksp->guess_zero) PetscCall(KSPCBCGResidual(ksp, run->A, R));
  else PetscCall(VecCopy(ksp->vec_rhs, R)); /* r = b */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   KSPCBCGTest - what a block does with the reduced r'r, r'z, z'z (z = M^-1 r) at iteration its:
   the norm of the kind the test uses, its checks (not finite, r'z < 0), the monitors and the
   convergence test (unless skiptest: the residual was tested just before a restart), and a
   convergence confirmed on the true residual (one more reduction). A false convergence
   restarts from the true residual, left in work[0]; after CBCG_MAX_RESTARTS, or when a restart
   did not lower it, KSP_DIVERGED_BREAKDOWN. Also stops at ksp->max_it.
*/
PetscErrorCode KSPCBCGTest(KSP ksp, KSPCBCGRun *run, PetscInt its, PetscReal rr, PetscReal rz, PetscReal zz, PetscBool skiptest, KSPCBCGNext *next)
{
  KSP_CBCG *cb = (KSP_CBCG *)ksp->data;
  PetscReal dp, tnorm;

  PetscFunctionBegin;
  *next = KSPCBCG_STOP;
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

    PetscCall(KSPCBCGTrueResidualNorm(ksp, run->A, ksp->work[3], ksp->work[4], &tnorm, run->cnst ? &xsum : NULL));
    run->nred++;
    cb->stats.true_rnorm = tnorm;
    if (!PetscIsInfOrNanReal(tnorm)) PetscCall((*ksp->converged)(ksp, its, tnorm, &treason, ksp->cnvP));
    if (treason > 0) {
      ksp->rnorm = tnorm;
      if (run->cnst) { /* constant null space: x -= mean(x), with the sum from the same reduction */
        PetscCall(VecShift(ksp->vec_sol, -xsum / run->N));
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
    PetscCall(VecCopy(ksp->work[3], ksp->work[0]));
    *next = KSPCBCG_RESTART;
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
    PetscCall(KSPCBCGResidual(ksp, run->A, ksp->work[0]));
    *next = KSPCBCG_RESTART;
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
  PetscCall(PPETSAxpy(k, Q, AQ, a, ksp->vec_sol, ksp->work[0])); /* x += Q a, r -= AQ a */
  PetscCall(PetscLogEventEnd(PPE_CBCGUpdate, 0, 0, 0, 0));
  *its += k;
  ksp->its = *its;
  cb->stats.blocks++;
  if (cb->replace > 0 && cb->stats.blocks % cb->replace == 0) {
    PetscCall(KSPCBCGResidual(ksp, run->A, ksp->work[0]));
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
      PetscCall(MatNullSpaceRemove(run->nsp, ksp->vec_sol));
      run->nred++;
    }
    if (run->x0null) PetscCall(VecAXPY(ksp->vec_sol, 1.0, ksp->work[5]));
  }
  cb->stats.s_last             = klast;
  cb->stats.reductions         = run->nred;
  cb->stats.reductions_counted = petsc_allreduce_ct - run->ct0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPSolve_CBCG(KSP ksp)
{
  KSP_CBCG          *cb = (KSP_CBCG *)ksp->data;
  KSPCBCGRun         run;
  KSPCBCGNext        next;
  Mat                A;
  Vec                R = ksp->work[0], Z[2] = {ksp->work[1], ksp->work[2]}, ZR = ksp->work[6];
  Vec                xv[2 * PPE_CBCG_SMAX + 2], yv[2 * PPE_CBCG_SMAX + 2];
  PetscScalar        buf[(PPE_CBCG_SMAX + 2) * (PPE_CBCG_SMAX + 2)], g[PPE_CBCG_SMAX], C[2 * PPE_CBCG_SMAX * PPE_CBCG_SMAX];
  PetscInt           cur = 0, old = 1, bas = 2; /* which of the three buffers holds Q_k, Q_{k-1}, the basis */
  PetscInt           k = cb->s, ko = 0, its = 0;
  PetscBool          fresh = PETSC_TRUE, curfirst = PETSC_TRUE, oldfirst = PETSC_FALSE, haveold = PETSC_FALSE, skiptest = PETSC_FALSE, stop;
  PPEGramFactor      f, fo;
  PPEGramStatus      st;
  PPEBasisRecurrence reccur, recnext;                       /* recurrence of the current block's basis, of the next one's */
  PetscScalar        Craw[2 * PPE_CBCG_SMAX * PPE_CBCG_SMAX]; /* [Q_k Q_{k-1}]' A S before the solve: S'AS from Q'AQ */
  PetscInt           nqC = 0;
  PetscBool          newton = PETSC_FALSE; /* recnext holds Ritz shifts */

  PetscFunctionBegin;
  if (KSPCBCGSingle(cb)) { /* one reduction per block (the default for s >= 3): cbcgsolve1.c */
    PetscCall(KSPSolve_CBCG_Single(ksp));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(KSPCBCGSolveBegin(ksp, &run));
  A = run.A;
  PetscCall(PPECBCGRecurrenceChebyshev(cb->lmin, cb->lmax, &recnext));

  for (;;) {
    PetscInt ny, knext, nq;

    if (fresh) { /* a (re)start: Q = S, with no older block */
      k = cb->s;
      reccur = recnext;
      if (newton) cb->stats.newton_blocks++;
      PetscCall(PPECBCGBasisRecurrence(A, ksp->pc, &reccur, k, R, Z, cb->V[bas], cb->AV[bas])); /* S = M^-1 T_j(A M^-1) r, AS = A S */
      PetscCall(VecCopy(cb->V[bas][0], ZR));                                                       /* z = M^-1 r */
      {
        PetscInt t = cur;
        cur        = bas;
        bas        = t;
      }
      curfirst = PETSC_TRUE;
      haveold  = PETSC_FALSE;
      fresh    = PETSC_FALSE;
    }
    ny = k + 2;
    /* one reduction: [Q' A Q (upper, first subdiagonal), Q' r, r'z, z'z, r'r] with z = M^-1 r */
    for (PetscInt j = 0; j < k; j++) {
      xv[j] = cb->V[cur][j];
      yv[j] = cb->AV[cur][j];
    }
    xv[k]     = ZR;
    xv[k + 1] = R;
    yv[k]     = R;
    yv[k + 1] = ZR;
    PetscCall(PPETSGram(ny, xv, ny, yv, 1, buf, 0, NULL));
    run.nred++;
    PetscCall(KSPCBCGTest(ksp, &run, its, PetscRealPart(buf[(k + 1) + ny * k]), PetscRealPart(buf[k + ny * k]), PetscRealPart(buf[k + ny * (k + 1)]), skiptest, &next));
    skiptest = PETSC_FALSE;
    if (next == KSPCBCG_STOP) break;
    if (next == KSPCBCG_RESTART) { /* from the true residual, already tested */
      fresh    = PETSC_TRUE;
      skiptest = PETSC_TRUE;
      continue;
    }

    /* the block's Gram matrix: analyse, cut to well-conditioned columns, restart, or stop */
    PetscCall(PetscLogEventBegin(PPE_CBCGSmall, 0, 0, 0, 0));
    PetscCall(PPEGramAnalyse(PetscMin(k, ksp->max_it - its), buf, ny, KSPCBCGCondMax(cb), curfirst, &f, &st));
    PetscCall(PetscLogEventEnd(PPE_CBCGSmall, 0, 0, 0, 0));
    PetscCall(KSPCBCGVerdict(ksp, &run, st, &f, k, its, (PetscBool)!curfirst, &next));
    if (next == KSPCBCG_STOP) break;
    if (next == KSPCBCG_RESTART) {
      fresh    = PETSC_TRUE;
      skiptest = PETSC_TRUE;
      continue;
    }
    if (cb->basis == KSP_CBCG_BASIS_NEWTON && k >= 2) { /* Ritz values of M^-1 A on this block's basis: the next block's shifts */
      PetscScalar SAS[PPE_CBCG_SMAX * PPE_CBCG_SMAX];
      PetscReal   th[PPE_CBCG_SMAX];
      PetscInt    m;
      for (PetscInt j = 0; j < k; j++)
        for (PetscInt i = 0; i <= j; i++) SAS[i + k * j] = SAS[j + k * i] = buf[i + ny * j];
      if (!curfirst) { /* S'AS = Q'AQ + C' B */
        for (PetscInt j = 0; j < k; j++)
          for (PetscInt i = 0; i < k; i++) {
            PetscScalar v = 0;
            for (PetscInt q = 0; q < nqC; q++) v += Craw[q + nqC * i] * C[q + nqC * j];
            SAS[i + k * j] += v;
          }
      }
      PetscCall(PPEGramRitz(k, SAS, k, &reccur, CBCG_RITZ_COND, &m, th));
      PetscCall(PetscInfo(ksp, "KSPCBCG: block %" PetscInt_FMT ": %" PetscInt_FMT " Ritz values [%g, %g]\n", cb->stats.blocks, m, m ? (double)th[0] : 0.0, m ? (double)th[m - 1] : 0.0));
      if (m >= 1 && th[0] > -1e-8 * th[m - 1] && th[m - 1] > 0) {
        for (PetscInt i = 0; i < m; i++) th[i] = PetscMax(th[i], 0);
        PetscCall(PPECBCGRecurrenceNewton(m, th, &recnext));
        cb->stats.ritz_min = th[0];
        cb->stats.ritz_max = th[m - 1];
        newton             = PETSC_TRUE;
      } /* else the next block keeps the last shifts (or the Chebyshev basis) */
    }
    k                  = f.kuse;
    cb->stats.cond_max = PetscMax(cb->stats.cond_max, f.cond);
    PetscCall(PetscInfo(ksp, "KSPCBCG: block %" PetscInt_FMT ": %" PetscInt_FMT " columns, equilibrated Gram condition %g\n", cb->stats.blocks, k, (double)f.cond));

    /* s iterations' worth of CG */
    for (PetscInt j = 0; j < k; j++) g[j] = buf[j + ny * (ny - 2)]; /* Q' r: the column of r */
    PetscCall(KSPCBCGAdvance(ksp, &run, k, &f, g, cb->V[cur], cb->AV[cur], &its, &stop));
    if (stop) break;

    /* The next block, A-conjugate to all earlier ones. Conjugating it to Q_k alone is exact
       when it is no wider than Q_k (Krylov structure), or when Q_k started the iteration; after a cut
       block it is also conjugated to Q_{k-1}, which allows k + k_{k-1} columns (any number
       when Q_{k-1} started the iteration), so s comes back at once. */
    knext = cb->s;
    nq    = k;
    if (!curfirst && knext > k) {
      if (haveold) {
        if (!oldfirst) knext = PetscMin(knext, k + ko);
        nq = k + ko;
      } else knext = k;
    }
    reccur = recnext;
    if (newton) cb->stats.newton_blocks++;
    PetscCall(PPECBCGBasisRecurrence(A, ksp->pc, &reccur, knext, R, Z, cb->V[bas], cb->AV[bas])); /* S, AS from r */
    PetscCall(VecCopy(cb->V[bas][0], ZR));                                                           /* z = M^-1 r */
    for (PetscInt j = 0; j < nq; j++) {
      xv[j] = j < k ? cb->V[cur][j] : cb->V[old][j - k];
      yv[j] = j < k ? cb->AV[cur][j] : cb->AV[old][j - k];
    }
    PetscCall(PPETSGram(nq, xv, knext, cb->AV[bas], PPE_TS_MAXCOLS, C, 0, NULL)); /* C = [Q_k Q_{k-1}]' A S: one reduction */
    run.nred++;
    nqC = nq;
    PetscCall(PetscArraycpy(Craw, C, nq * knext));
    PetscCall(PetscLogEventBegin(PPE_CBCGSmall, 0, 0, 0, 0));
    PetscCall(PPEGramSolve(&f, knext, C, nq)); /* B = (Q'AQ)^-1 Q' A S */
    if (nq > k) PetscCall(PPEGramSolve(&fo, knext, C + k, nq));
    PetscCall(PetscLogEventEnd(PPE_CBCGSmall, 0, 0, 0, 0));
    PetscCall(PetscLogEventBegin(PPE_CBCGUpdate, 0, 0, 0, 0));
    PetscCall(PPETSCombine(nq, xv, yv, knext, cb->V[bas], cb->AV[bas], C)); /* S -= Q B, AS -= AQ B */
    PetscCall(PetscLogEventEnd(PPE_CBCGUpdate, 0, 0, 0, 0));
    { /* rotate: the basis becomes Q_{k+1}, Q_k becomes the older block */
      PetscInt t = old;
      old        = cur;
      cur        = bas;
      bas        = t;
    }
    ko       = k;
    fo       = f;
    oldfirst = curfirst;
    haveold  = PETSC_TRUE;
    curfirst = PETSC_FALSE;
    k        = knext;
  }

  PetscCall(KSPCBCGSolveEnd(ksp, &run, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

