/*
   The iteration of KSPCBCG with one global reduction per block (-ksp_cbcg_single_reduction, the
   default for s >= CBCG_SINGLE_MIN_S; see cbcg.c and docs/types/cbcg.md): the same blocks, the
   same Gram analysis and fallbacks as the two-reduction iteration of cbcgsolve2.c, but each
   block makes ONE global reduction, as in the s-step CG of Chronopoulos and Gear: right after
   the basis S of r is built, one pass gives

       C = [Q_k Q_{k-1}]' A S,   S' A S,   [Q_k Q_{k-1}]' r,   S' r,   r'r, r'z, z'z   (z = M^-1 r = S_0)

   from which the next block's Gram matrix and right-hand side follow without vectors:

       B = G_k^-1 C,   Q_{k+1} = S - Q_k B,   G_{k+1} = Q_{k+1}' A Q_{k+1} = S'AS - C'B,
       g_{k+1} = Q_{k+1}' r = S'r - B' Q_k' r.

   S'AS is computed from S and A S directly (no recursively updated vector in it), so it shows
   an asymmetric operator in every block. The Schur complement loses the digits that cancel
   between S'AS and C'B; the condition limit of the Gram analysis applies to G_{k+1} as computed.
   The steps shared with the two-reduction iteration are in cbcgstep.c.

   References:
     A. T. Chronopoulos and C. W. Gear, "s-step iterative methods for symmetric linear
     systems", Journal of Computational and Applied Mathematics 25, 1989.
*/
#include "cbcgimpl.h"

#define NMAX (3 * PPE_CBCG_SMAX + 2)

/* The one reduction of a block: X = [A S, r, z] (nx = kb + 2 columns) against
   Y = [Q_k Q_{k-1}, S, r] (nq + kb + 1 columns), z = M^-1 r = S_0; X_a' Y_b at W[a + nx b]. */
typedef struct {
  const PetscScalar *W;
  PetscInt           kb; /* columns of the basis S */
  PetscInt           nq; /* columns of [Q_k Q_{k-1}] */
  PetscInt           nx; /* leading dimension: kb + 2 */
} Reduction;

/* S_i' A S_j */
static inline PetscScalar RedSAS(const Reduction *w, PetscInt i, PetscInt j)
{
  return w->W[j + w->nx * (w->nq + i)];
}

/* S_i' r */
static inline PetscScalar RedSr(const Reduction *w, PetscInt i)
{
  return w->W[w->kb + w->nx * (w->nq + i)];
}

/* Q_q' A S_j (Q_q the q-th column of [Q_k Q_{k-1}]) */
static inline PetscScalar RedQAS(const Reduction *w, PetscInt q, PetscInt j)
{
  return w->W[j + w->nx * q];
}

/* Q_q' r (zero in exact arithmetic) */
static inline PetscScalar RedQr(const Reduction *w, PetscInt q)
{
  return w->W[w->kb + w->nx * q];
}

/* r'r */
static inline PetscReal RedRR(const Reduction *w)
{
  return PetscRealPart(w->W[w->kb + w->nx * (w->nq + w->kb)]);
}

/* z'r = r' M^-1 r */
static inline PetscReal RedRZ(const Reduction *w)
{
  return PetscRealPart(w->W[(w->kb + 1) + w->nx * (w->nq + w->kb)]);
}

/* z'z (z = S_0) */
static inline PetscReal RedZZ(const Reduction *w)
{
  return PetscRealPart(w->W[(w->kb + 1) + w->nx * w->nq]);
}

PetscErrorCode KSPSolve_CBCG_OneReduction(KSP ksp)
{
  KSP_CBCG          *cb = (KSP_CBCG *)ksp->data;
  KSPCBCGRun         run;
  KSPCBCGNext        next;
  KSPCBCGBlocks      bk = {.cur = 0, .old = 1, .bas = 2, .curfirst = PETSC_TRUE};
  Mat                A;
  Vec                R = cb->vecs.work[0], Z[2] = {cb->vecs.work[1], cb->vecs.work[2]};
  Vec                xv[NMAX], yv[NMAX], qv[2 * PPE_CBCG_SMAX], aqv[2 * PPE_CBCG_SMAX];
  PetscScalar        Wg[(PPE_CBCG_SMAX + 2) * NMAX], SAS[PPE_CBCG_SMAX * PPE_CBCG_SMAX], G[PPE_CBCG_SMAX * PPE_CBCG_SMAX];
  PetscScalar        C[2 * PPE_CBCG_SMAX * PPE_CBCG_SMAX], Craw[2 * PPE_CBCG_SMAX * PPE_CBCG_SMAX], Qr[2 * PPE_CBCG_SMAX], g[PPE_CBCG_SMAX];
  PetscInt           its    = 0;
  PetscBool          newton = PETSC_FALSE, stop;
  PPEGramFactor      fn;
  PPEGramStatus      st;
  PPEBasisRecurrence reccur, recnext;

  PetscFunctionBegin;
  PetscCall(KSPCBCGSolveBegin(ksp, &run));
  A = run.A;
  PetscCall(PPECBCGRecurrenceChebyshev(cb->lmin, cb->lmax, &recnext));

  for (;;) {
    PetscInt  kb = cb->s, nq = 0, k = bk.k;
    Reduction w;

    /* width of the new basis and the blocks it is conjugated against */
    if (!run.fresh) PetscCall(KSPCBCGBlockWidth(&bk, cb->s, &kb, &nq));
    for (PetscInt j = 0; j < nq; j++) {
      qv[j]  = j < k ? cb->V[bk.cur][j] : cb->V[bk.old][j - k];
      aqv[j] = j < k ? cb->AV[bk.cur][j] : cb->AV[bk.old][j - k];
    }
    reccur = recnext;
    if (newton) cb->stats.newton_blocks++;
    PetscCall(PPECBCGBasisRecurrence(A, ksp->pc, &reccur, kb, R, Z, cb->V[bk.bas], cb->AV[bk.bas])); /* S, A S from r */

    /* the one reduction: X = [A S, r, z], Y = [Q_k Q_{k-1}, S, r] with z = M^-1 r = S_0 */
    w.W  = Wg;
    w.kb = kb;
    w.nq = nq;
    w.nx = kb + 2;
    for (PetscInt j = 0; j < kb; j++) xv[j] = cb->AV[bk.bas][j];
    xv[kb]     = R;
    xv[kb + 1] = cb->V[bk.bas][0];
    for (PetscInt j = 0; j < nq; j++) yv[j] = qv[j];
    for (PetscInt j = 0; j < kb; j++) yv[nq + j] = cb->V[bk.bas][j];
    yv[nq + kb] = R;
    PetscCall(PPETSGram(w.nx, xv, nq + kb + 1, yv, PPE_TS_MAXCOLS, Wg, 0, NULL));
    run.nred++;
    PetscCall(KSPCBCGTest(ksp, &run, its, RedRR(&w), RedRZ(&w), RedZZ(&w), &next));
    if (next == KSPCBCG_STOP) break;
    if (next == KSPCBCG_RESTART) continue; /* from the true residual, a fresh block */

    /* S'AS, and the Gram matrix and right-hand side of Q_{k+1} = S - [Q_k Q_{k-1}] B */
    PetscCall(PetscLogEventBegin(PPE_CBCGSmall, 0, 0, 0, 0));
    for (PetscInt j = 0; j < kb; j++)
      for (PetscInt i = 0; i < kb; i++) SAS[i + kb * j] = RedSAS(&w, i, j);
    for (PetscInt i = 0; i < kb; i++) g[i] = RedSr(&w, i);
    PetscCall(PetscArraycpy(G, SAS, kb * kb));
    if (nq) {
      for (PetscInt q = 0; q < nq; q++) {
        Qr[q] = RedQr(&w, q);
        for (PetscInt j = 0; j < kb; j++) C[q + nq * j] = RedQAS(&w, q, j);
      }
      PetscCall(PetscArraycpy(Craw, C, nq * kb));
      PetscCall(PPEGramSolve(&bk.f, kb, C, nq)); /* B = G_k^-1 C */
      if (nq > k) PetscCall(PPEGramSolve(&bk.fo, kb, C + k, nq));
      for (PetscInt j = 0; j < kb; j++) {
        for (PetscInt i = 0; i < kb; i++) G[i + kb * j] -= KSPCBCGCtB(nq, Craw, C, i, j); /* G = S'AS - C'B */
        for (PetscInt q = 0; q < nq; q++) g[j] -= C[q + nq * j] * Qr[q];                  /* g = S'r - B' Q'r */
      }
    }
    PetscCall(PPEGramAnalyse(PetscMin(kb, ksp->max_it - its), G, kb, KSPCBCGCondMax(cb), run.fresh, &fn, &st));
    PetscCall(PetscLogEventEnd(PPE_CBCGSmall, 0, 0, 0, 0));
    PetscCall(KSPCBCGVerdict(ksp, &run, st, &fn, kb, its, (PetscBool)!run.fresh, &next));
    if (next == KSPCBCG_STOP) break;
    if (next == KSPCBCG_RESTART) continue;
    cb->stats.cond_max = PetscMax(cb->stats.cond_max, fn.cond);
    PetscCall(PetscInfo(ksp, "KSPCBCG: block %" PetscInt_FMT ": %" PetscInt_FMT " columns, equilibrated Gram condition %g\n", cb->stats.blocks, fn.kuse, (double)fn.cond));
    if (cb->basis == KSP_CBCG_BASIS_NEWTON && kb >= 2) { /* Ritz values on this basis: the next block's shifts */
      PetscReal th[PPE_CBCG_SMAX];
      PetscInt  m;
      PetscCall(PPEGramRitz(kb, SAS, kb, &reccur, CBCG_RITZ_COND, &m, th));
      PetscCall(KSPCBCGNewtonShifts(ksp, m, th, &recnext, &newton));
    }

    /* Q_{k+1} = S - Q B, A Q_{k+1} = A S - A Q B (in place), then it becomes the current block */
    if (nq) {
      PetscCall(PetscLogEventBegin(PPE_CBCGUpdate, 0, 0, 0, 0));
      PetscCall(PPETSCombine(nq, qv, aqv, fn.kuse, cb->V[bk.bas], cb->AV[bk.bas], C));
      PetscCall(PetscLogEventEnd(PPE_CBCGUpdate, 0, 0, 0, 0));
    }
    PetscCall(KSPCBCGRotate(&bk, (PetscBool)(nq > 0), run.fresh, fn.kuse, &fn));
    run.fresh = PETSC_FALSE;

    /* k iterations' worth of CG */
    PetscCall(KSPCBCGAdvance(ksp, &run, bk.k, &bk.f, g, cb->V[bk.cur], cb->AV[bk.cur], &its, &stop));
    if (stop) break;
  }
  PetscCall(KSPCBCGSolveEnd(ksp, &run, bk.k));
  PetscFunctionReturn(PETSC_SUCCESS);
}
