/*
   The iteration of KSPCBCG with two global reductions per block (-ksp_cbcg_single_reduction
   false, the default for s < CBCG_SINGLE_MIN_S), as in Algorithm 2 of

     Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of communication
     avoiding Chebyshev basis conjugate gradient solver for multiphase CFD simulations", ScalA
     workshop at SC19 (IEEE/ACM), 2019.

   Each block reduces [Q'AQ, Q'r, r'z, z'z, r'r] at once (convergence test, Gram analysis and
   its fallbacks), updates x and r, builds the next basis S from r and reduces [Q_k Q_{k-1}]' A S
   to make it A-conjugate to the earlier blocks. The steps shared with the one-reduction
   iteration are in cbcgstep.c; see cbcg.c for the method and docs/types/cbcg.md.
*/
#include "cbcgimpl.h"

/* The first reduction of a block of k columns: X = [Q, z, r] against Y = [AQ, r, z] (z = M^-1 r),
   X_a' Y_b at buf[a + (k + 2) b] for b >= a - 1. These read its entries. */
static inline PetscInt GramLD(PetscInt k)
{
  return k + 2;
}

/* Q_i' A Q_j */
static inline PetscScalar GramQAQ(const PetscScalar buf[], PetscInt k, PetscInt i, PetscInt j)
{
  return buf[i + GramLD(k) * j];
}

/* Q_i' r */
static inline PetscScalar GramQr(const PetscScalar buf[], PetscInt k, PetscInt i)
{
  return buf[i + GramLD(k) * k];
}

/* r'r */
static inline PetscReal GramRR(const PetscScalar buf[], PetscInt k)
{
  return PetscRealPart(buf[(k + 1) + GramLD(k) * k]);
}

/* z'r = r' M^-1 r */
static inline PetscReal GramRZ(const PetscScalar buf[], PetscInt k)
{
  return PetscRealPart(buf[k + GramLD(k) * k]);
}

/* z'z */
static inline PetscReal GramZZ(const PetscScalar buf[], PetscInt k)
{
  return PetscRealPart(buf[k + GramLD(k) * (k + 1)]);
}

PetscErrorCode KSPSolve_CBCG_TwoReductions(KSP ksp)
{
  KSP_CBCG          *cb = (KSP_CBCG *)ksp->data;
  KSPCBCGRun         run;
  KSPCBCGNext        next;
  KSPCBCGBlocks      bk = {.cur = 0, .old = 1, .bas = 2, .k = cb->s, .curfirst = PETSC_TRUE};
  Mat                A;
  Vec                R = cb->vecs.work[0], Z[2] = {cb->vecs.work[1], cb->vecs.work[2]}, ZR = cb->vecs.work[6];
  Vec                xv[2 * PPE_CBCG_SMAX + 2], yv[2 * PPE_CBCG_SMAX + 2];
  PetscScalar        buf[(PPE_CBCG_SMAX + 2) * (PPE_CBCG_SMAX + 2)], g[PPE_CBCG_SMAX], C[2 * PPE_CBCG_SMAX * PPE_CBCG_SMAX];
  PetscInt           its = 0;
  PetscBool          stop;
  PPEGramStatus      st;
  PPEBasisRecurrence reccur, recnext;                         /* recurrence of the current block's basis, of the next one's */
  PetscScalar        Craw[2 * PPE_CBCG_SMAX * PPE_CBCG_SMAX]; /* [Q_k Q_{k-1}]' A S before the solve: S'AS from Q'AQ */
  PetscInt           nqC    = 0;
  PetscBool          newton = PETSC_FALSE; /* recnext holds Ritz shifts */

  PetscFunctionBegin;
  PetscCall(KSPCBCGSolveBegin(ksp, &run));
  A = run.A;
  PetscCall(PPECBCGRecurrenceChebyshev(cb->lmin, cb->lmax, &recnext));

  for (;;) {
    PetscInt k, knext, nq;

    if (run.fresh) { /* a (re)start: Q = S, with no older block */
      reccur = recnext;
      if (newton) cb->stats.newton_blocks++;
      PetscCall(PPECBCGBasisRecurrence(A, ksp->pc, &reccur, cb->s, R, Z, cb->V[bk.bas], cb->AV[bk.bas])); /* S = M^-1 T_j(A M^-1) r, AS = A S */
      PetscCall(VecCopy(cb->V[bk.bas][0], ZR));                                                           /* z = M^-1 r */
      PetscCall(KSPCBCGRotate(&bk, PETSC_FALSE, PETSC_TRUE, cb->s, NULL));
      run.fresh = PETSC_FALSE;
    }
    k = bk.k;
    /* one reduction: [Q' A Q (upper, first subdiagonal), Q' r, r'z, z'z, r'r] with z = M^-1 r */
    for (PetscInt j = 0; j < k; j++) {
      xv[j] = cb->V[bk.cur][j];
      yv[j] = cb->AV[bk.cur][j];
    }
    xv[k]     = ZR;
    xv[k + 1] = R;
    yv[k]     = R;
    yv[k + 1] = ZR;
    PetscCall(PPETSGram(GramLD(k), xv, GramLD(k), yv, 1, buf, 0, NULL));
    run.nred++;
    PetscCall(KSPCBCGTest(ksp, &run, its, GramRR(buf, k), GramRZ(buf, k), GramZZ(buf, k), &next));
    if (next == KSPCBCG_STOP) break;
    if (next == KSPCBCG_RESTART) continue; /* from the true residual, a fresh block */

    /* the block's Gram matrix: analyse, cut to well-conditioned columns, restart, or stop */
    PetscCall(PetscLogEventBegin(PPE_CBCGSmall, 0, 0, 0, 0));
    PetscCall(PPEGramAnalyse(PetscMin(k, ksp->max_it - its), buf, GramLD(k), KSPCBCGCondMax(cb), bk.curfirst, &bk.f, &st));
    PetscCall(PetscLogEventEnd(PPE_CBCGSmall, 0, 0, 0, 0));
    PetscCall(KSPCBCGVerdict(ksp, &run, st, &bk.f, k, its, (PetscBool)!bk.curfirst, &next));
    if (next == KSPCBCG_STOP) break;
    if (next == KSPCBCG_RESTART) continue;
    if (cb->basis == KSP_CBCG_BASIS_NEWTON && k >= 2) { /* Ritz values of M^-1 A on this block's basis: the next block's shifts */
      PetscScalar SAS[PPE_CBCG_SMAX * PPE_CBCG_SMAX];
      PetscReal   th[PPE_CBCG_SMAX];
      PetscInt    m;
      for (PetscInt j = 0; j < k; j++)
        for (PetscInt i = 0; i <= j; i++) SAS[i + k * j] = SAS[j + k * i] = GramQAQ(buf, k, i, j);
      if (!bk.curfirst) { /* S'AS = Q'AQ + C' B */
        for (PetscInt j = 0; j < k; j++)
          for (PetscInt i = 0; i < k; i++) SAS[i + k * j] += KSPCBCGCtB(nqC, Craw, C, i, j);
      }
      PetscCall(PPEGramRitz(k, SAS, k, &reccur, CBCG_RITZ_COND, &m, th));
      PetscCall(PetscInfo(ksp, "KSPCBCG: block %" PetscInt_FMT ": %" PetscInt_FMT " Ritz values [%g, %g]\n", cb->stats.blocks, m, m ? (double)th[0] : 0.0, m ? (double)th[m - 1] : 0.0));
      PetscCall(KSPCBCGNewtonShifts(ksp, m, th, &recnext, &newton));
    }
    for (PetscInt j = 0; j < bk.f.kuse; j++) g[j] = GramQr(buf, k, j); /* Q' r of the columns used */
    k                  = bk.f.kuse;
    bk.k               = k;
    cb->stats.cond_max = PetscMax(cb->stats.cond_max, bk.f.cond);
    PetscCall(PetscInfo(ksp, "KSPCBCG: block %" PetscInt_FMT ": %" PetscInt_FMT " columns, equilibrated Gram condition %g\n", cb->stats.blocks, k, (double)bk.f.cond));

    /* s iterations' worth of CG */
    PetscCall(KSPCBCGAdvance(ksp, &run, k, &bk.f, g, cb->V[bk.cur], cb->AV[bk.cur], &its, &stop));
    if (stop) break;

    /* the next block, A-conjugate to all earlier ones (see KSPCBCGBlockWidth()) */
    PetscCall(KSPCBCGBlockWidth(&bk, cb->s, &knext, &nq));
    reccur = recnext;
    if (newton) cb->stats.newton_blocks++;
    PetscCall(PPECBCGBasisRecurrence(A, ksp->pc, &reccur, knext, R, Z, cb->V[bk.bas], cb->AV[bk.bas])); /* S, AS from r */
    PetscCall(VecCopy(cb->V[bk.bas][0], ZR));                                                           /* z = M^-1 r */
    for (PetscInt j = 0; j < nq; j++) {
      xv[j] = j < k ? cb->V[bk.cur][j] : cb->V[bk.old][j - k];
      yv[j] = j < k ? cb->AV[bk.cur][j] : cb->AV[bk.old][j - k];
    }
    PetscCall(PPETSGram(nq, xv, knext, cb->AV[bk.bas], PPE_TS_MAXCOLS, C, 0, NULL)); /* C = [Q_k Q_{k-1}]' A S: one reduction */
    run.nred++;
    nqC = nq;
    PetscCall(PetscArraycpy(Craw, C, nq * knext));
    PetscCall(PetscLogEventBegin(PPE_CBCGSmall, 0, 0, 0, 0));
    PetscCall(PPEGramSolve(&bk.f, knext, C, nq)); /* B = (Q'AQ)^-1 Q' A S */
    if (nq > k) PetscCall(PPEGramSolve(&bk.fo, knext, C + k, nq));
    PetscCall(PetscLogEventEnd(PPE_CBCGSmall, 0, 0, 0, 0));
    PetscCall(PetscLogEventBegin(PPE_CBCGUpdate, 0, 0, 0, 0));
    PetscCall(PPETSCombine(nq, xv, yv, knext, cb->V[bk.bas], cb->AV[bk.bas], C)); /* S -= Q B, AS -= AQ B */
    PetscCall(PetscLogEventEnd(PPE_CBCGUpdate, 0, 0, 0, 0));
    PetscCall(KSPCBCGRotate(&bk, PETSC_TRUE, PETSC_FALSE, knext, NULL)); /* the basis becomes Q_{k+1}, Q_k the older block */
  }

  PetscCall(KSPCBCGSolveEnd(ksp, &run, bk.k));
  PetscFunctionReturn(PETSC_SUCCESS);
}
