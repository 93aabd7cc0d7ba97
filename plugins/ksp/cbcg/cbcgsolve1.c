/*
   The single-reduction iteration of KSPCBCG (-ksp_cbcg_single_reduction, see cbcg.c and
   docs/types/cbcg.md): the same blocks, the same Gram analysis and fallbacks as the two-reduction
   iteration of cbcgsolve.c, but each block makes ONE global reduction, as in the s-step CG of
   Chronopoulos and Gear: right after the basis S of r is built, one pass gives

       C = [Q_k Q_{k-1}]' A S,   S' A S,   [Q_k Q_{k-1}]' r,   S' r,   r'r, r'z, z'z   (z = M^-1 r = S_0)

   from which the next block's Gram matrix and right-hand side follow without vectors:

       B = G_k^-1 C,   Q_{k+1} = S - Q_k B,   G_{k+1} = Q_{k+1}' A Q_{k+1} = S'AS - C'B,
       g_{k+1} = Q_{k+1}' r = S'r - B' Q_k' r.

   S'AS is computed from S and A S directly (no recursively updated vector in it), so it shows
   an asymmetric operator in every block. The Schur complement loses the digits that cancel
   between S'AS and C'B; the condition limit of the Gram analysis applies to G_{k+1} as computed.
*/
#include "cbcgimpl.h"

#define NMAX (3 * PPE_CBCG_SMAX + 2)

PetscErrorCode KSPSolve_CBCG_Single(KSP ksp)
{
  KSP_CBCG          *cb = (KSP_CBCG *)ksp->data;
  KSPCBCGRun         run;
  KSPCBCGNext        next;
  Mat                A;
  Vec                R = ksp->work[0], Z[2] = {ksp->work[1], ksp->work[2]};
  Vec                xv[NMAX], yv[NMAX], qv[2 * PPE_CBCG_SMAX], aqv[2 * PPE_CBCG_SMAX];
  PetscScalar        Wg[(PPE_CBCG_SMAX + 2) * NMAX], SAS[PPE_CBCG_SMAX * PPE_CBCG_SMAX], G[PPE_CBCG_SMAX * PPE_CBCG_SMAX];
  PetscScalar        C[2 * PPE_CBCG_SMAX * PPE_CBCG_SMAX], Craw[2 * PPE_CBCG_SMAX * PPE_CBCG_SMAX], Qr[2 * PPE_CBCG_SMAX], g[PPE_CBCG_SMAX];
  PetscInt           cur = 0, old = 1, bas = 2; /* buffers of Q_k, Q_{k-1}, the basis */
  PetscInt           k = 0, ko = 0, its = 0;
  PetscBool          fresh = PETSC_TRUE, curfirst = PETSC_TRUE, oldfirst = PETSC_FALSE, haveold = PETSC_FALSE, newton = PETSC_FALSE;
  PetscBool          skiptest = PETSC_FALSE, stop;
  PPEGramFactor      f, fo, fn;
  PPEGramStatus      st;
  PPEBasisRecurrence reccur, recnext;

  PetscFunctionBegin;
  PetscCall(KSPCBCGSolveBegin(ksp, &run));
  A = run.A;
  PetscCall(PPECBCGRecurrenceChebyshev(cb->lmin, cb->lmax, &recnext));

  for (;;) {
    PetscInt kb = cb->s, nq = 0, nx, ny;

    /* width of the new basis and the blocks it is conjugated against (see cbcgsolve.c) */
    if (!fresh) {
      nq = k;
      if (!curfirst && kb > k) {
        if (haveold) {
          if (!oldfirst) kb = PetscMin(kb, k + ko);
          nq = k + ko;
        } else kb = k;
      }
    }
    for (PetscInt j = 0; j < nq; j++) {
      qv[j]  = j < k ? cb->V[cur][j] : cb->V[old][j - k];
      aqv[j] = j < k ? cb->AV[cur][j] : cb->AV[old][j - k];
    }
    reccur = recnext;
    if (newton) cb->stats.newton_blocks++;
    PetscCall(PPECBCGBasisRecurrence(A, ksp->pc, &reccur, kb, R, Z, cb->V[bas], cb->AV[bas])); /* S, A S from r */

    /* the one reduction: X = [A S, r, z], Y = [Q_k Q_{k-1}, S, r] with z = M^-1 r = S_0 */
    nx = kb + 2;
    ny = nq + kb + 1;
    for (PetscInt j = 0; j < kb; j++) xv[j] = cb->AV[bas][j];
    xv[kb]     = R;
    xv[kb + 1] = cb->V[bas][0];
    for (PetscInt j = 0; j < nq; j++) yv[j] = qv[j];
    for (PetscInt j = 0; j < kb; j++) yv[nq + j] = cb->V[bas][j];
    yv[nq + kb] = R;
    PetscCall(PPETSGram(nx, xv, ny, yv, PPE_TS_MAXCOLS, Wg, 0, NULL));
    run.nred++;
    PetscCall(KSPCBCGTest(ksp, &run, its, PetscRealPart(Wg[kb + nx * (nq + kb)]), PetscRealPart(Wg[(kb + 1) + nx * (nq + kb)]), PetscRealPart(Wg[(kb + 1) + nx * nq]), skiptest, &next));
    skiptest = PETSC_FALSE;
    if (next == KSPCBCG_STOP) break;
    if (next == KSPCBCG_RESTART) { /* from the true residual, already tested */
      fresh    = PETSC_TRUE;
      skiptest = PETSC_TRUE;
      continue;
    }

    /* S'AS, and the Gram matrix and right-hand side of Q_{k+1} = S - [Q_k Q_{k-1}] B */
    PetscCall(PetscLogEventBegin(PPE_CBCGSmall, 0, 0, 0, 0));
    for (PetscInt j = 0; j < kb; j++)
      for (PetscInt i = 0; i < kb; i++) SAS[i + kb * j] = Wg[j + nx * (nq + i)]; /* S_i' A S_j */
    for (PetscInt i = 0; i < kb; i++) g[i] = Wg[kb + nx * (nq + i)];            /* S_i' r */
    PetscCall(PetscArraycpy(G, SAS, kb * kb));
    if (nq) {
      for (PetscInt q = 0; q < nq; q++) {
        Qr[q] = Wg[kb + nx * q]; /* Q_q' r (zero in exact arithmetic) */
        for (PetscInt j = 0; j < kb; j++) C[q + nq * j] = Wg[j + nx * q];
      }
      PetscCall(PetscArraycpy(Craw, C, nq * kb));
      PetscCall(PPEGramSolve(&f, kb, C, nq)); /* B = G_k^-1 C */
      if (nq > k) PetscCall(PPEGramSolve(&fo, kb, C + k, nq));
      for (PetscInt j = 0; j < kb; j++) {
        for (PetscInt i = 0; i < kb; i++) {
          PetscScalar v = 0;
          for (PetscInt q = 0; q < nq; q++) v += Craw[q + nq * i] * C[q + nq * j];
          G[i + kb * j] -= v;
        }
        for (PetscInt q = 0; q < nq; q++) g[j] -= C[q + nq * j] * Qr[q];
      }
    }
    PetscCall(PPEGramAnalyse(PetscMin(kb, ksp->max_it - its), G, kb, KSPCBCGCondMax(cb), fresh, &fn, &st));
    PetscCall(PetscLogEventEnd(PPE_CBCGSmall, 0, 0, 0, 0));
    PetscCall(KSPCBCGVerdict(ksp, &run, st, &fn, kb, its, (PetscBool)!fresh, &next));
    if (next == KSPCBCG_STOP) break;
    if (next == KSPCBCG_RESTART) {
      fresh    = PETSC_TRUE;
      skiptest = PETSC_TRUE;
      continue;
    }
    cb->stats.cond_max = PetscMax(cb->stats.cond_max, fn.cond);
    PetscCall(PetscInfo(ksp, "KSPCBCG: block %" PetscInt_FMT ": %" PetscInt_FMT " columns, equilibrated Gram condition %g\n", cb->stats.blocks, fn.kuse, (double)fn.cond));
    if (cb->basis == KSP_CBCG_BASIS_NEWTON && kb >= 2) { /* Ritz values on this basis: the next block's shifts */
      PetscReal th[PPE_CBCG_SMAX];
      PetscInt  m;
      PetscCall(PPEGramRitz(kb, SAS, kb, &reccur, CBCG_RITZ_COND, &m, th));
      if (m >= 1 && th[0] > -1e-8 * th[m - 1] && th[m - 1] > 0) {
        for (PetscInt i = 0; i < m; i++) th[i] = PetscMax(th[i], 0);
        PetscCall(PPECBCGRecurrenceNewton(m, th, &recnext));
        cb->stats.ritz_min = th[0];
        cb->stats.ritz_max = th[m - 1];
        newton             = PETSC_TRUE;
      }
    }

    /* Q_{k+1} = S - Q B, A Q_{k+1} = A S - A Q B (in place), then rotate */
    if (nq) {
      PetscCall(PetscLogEventBegin(PPE_CBCGUpdate, 0, 0, 0, 0));
      PetscCall(PPETSCombine(nq, qv, aqv, fn.kuse, cb->V[bas], cb->AV[bas], C));
      PetscCall(PetscLogEventEnd(PPE_CBCGUpdate, 0, 0, 0, 0));
      oldfirst = curfirst;
      haveold  = PETSC_TRUE;
      ko       = k;
      fo       = f;
    } else haveold = PETSC_FALSE;
    {
      PetscInt t = old;
      old        = cur;
      cur        = bas;
      bas        = t;
    }
    curfirst = fresh;
    fresh    = PETSC_FALSE;
    f        = fn;
    k        = fn.kuse;

    /* k iterations' worth of CG */
    PetscCall(KSPCBCGAdvance(ksp, &run, k, &f, g, cb->V[cur], cb->AV[cur], &its, &stop));
    if (stop) break;
  }
  PetscCall(KSPCBCGSolveEnd(ksp, &run, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}
