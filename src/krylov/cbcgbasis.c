/*
   Preconditioned Chebyshev basis of s-step CG (Ali et al. (2019), Algorithm 3; reference below).

   With eta = 2/(lmax - lmin) and zeta = (lmax + lmin)/(lmax - lmin), the Chebyshev
   polynomials T_j of the first kind shifted and scaled to [lmin, lmax] give

       z_0 = r,  z_1 = eta A M^-1 z_0 - zeta z_0,  z_j = 2 eta A M^-1 z_{j-1} - 2 zeta z_{j-1} - z_{j-2},

   i.e. z_j = T_j(A M^-1) r. The basis is S = (M^-1 z_0, ..., M^-1 z_{k-1}), and its image
   AS = (A M^-1 z_0, ...) comes for free, since each A M^-1 z_j is needed for z_{j+1}. On
   [lmin, lmax] |T_j| <= 1, so the columns keep comparable norms and stay far more linearly
   independent than the monomial basis (A M^-1)^j r, whose columns all turn towards the
   eigenvector of lmax.

   Cost: k preconditioner applications and k products with A (halo exchanges only), no
   global reduction. The preconditioner is applied without the null-space projection of
   KSP_PCApply(): that projection is a global reduction per application, and it is not
   needed (r and every z_j lie in the range of A; components of S in the null space are
   annihilated by A and removed once from the solution at the end).

   References:
     Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of communication
     avoiding Chebyshev basis conjugate gradient solver for multiphase CFD simulations", ScalA
     workshop at SC19 (IEEE/ACM), 2019.
*/
#include <ppekit/private/sstepimpl.h>
#include <ppekit/private/krylovimpl.h>

/*
   PPECBCGBasis - S[j] = M^-1 T_j(A M^-1) r and AS[j] = A S[j], j < k

   Input Parameters:
+  A          - the operator
.  pc         - the preconditioner M (set up)
.  lmin, lmax - the interval of the spectrum of A M^-1 the polynomials are scaled to
.  k          - number of columns
.  r          - the residual (not changed)
-  Z          - two work vectors

   Output Parameters:
+  S  - the basis
-  AS - its image
*/
PetscErrorCode PPECBCGBasis(Mat A, PC pc, PetscReal lmin, PetscReal lmax, PetscInt k, Vec r, Vec Z[2], Vec S[], Vec AS[])
{
  PetscReal eta, zeta;
  Vec       zprev = NULL, zcur = r;

  PetscFunctionBegin;
  PetscCheck(lmax > lmin && lmin >= 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "Chebyshev basis needs 0 <= lmin < lmax, got [%g, %g]", (double)lmin, (double)lmax);
  PetscCall(PetscLogEventBegin(PPE_CBCGBasis, 0, 0, 0, 0));
  eta  = 2.0 / (lmax - lmin);
  zeta = (lmax + lmin) / (lmax - lmin);
  for (PetscInt j = 0; j < k; j++) {
    Vec znext;

    PetscCall(PCApply(pc, zcur, S[j])); /* S_j = M^-1 z_j */
    PetscCall(MatMult(A, S[j], AS[j])); /* AS_j = A M^-1 z_j */
    if (j == k - 1) break;
    if (j == 0) {
      znext = Z[0];
      PetscCall(PPETSCheb(eta, AS[0], zeta, r, NULL, znext)); /* z_1 = eta A M^-1 r - zeta r */
    } else {
      znext = zprev == r ? Z[1] : zprev;                                  /* overwrite z_{j-1}, never r */
      PetscCall(PPETSCheb(2 * eta, AS[j], 2 * zeta, zcur, zprev, znext)); /* z_{j+1} = 2 eta A M^-1 z_j - 2 zeta z_j - z_{j-1} */
    }
    zprev = zcur;
    zcur  = znext;
  }
  PetscCall(PetscLogEventEnd(PPE_CBCGBasis, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPECBCGRecurrenceChebyshev - the recurrence of the Chebyshev basis on [lmin, lmax] above,
   as a PPEBasisRecurrence (for PPECBCGBasisRecurrence() and PPEGramRitz())
*/
PetscErrorCode PPECBCGRecurrenceChebyshev(PetscReal lmin, PetscReal lmax, PPEBasisRecurrence *rec)
{
  PetscReal eta, zeta;

  PetscFunctionBegin;
  PetscCheck(lmax > lmin && lmin >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Chebyshev basis needs 0 <= lmin < lmax, got [%g, %g]", (double)lmin, (double)lmax);
  eta  = 2.0 / (lmax - lmin);
  zeta = (lmax + lmin) / (lmax - lmin);
  for (PetscInt j = 0; j < PPE_CBCG_SMAX; j++) {
    rec->a[j] = j ? 2 * eta : eta;
    rec->b[j] = j ? 2 * zeta : zeta;
    rec->c[j] = j ? 1 : 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPECBCGRecurrenceNewton - Newton basis z_{j+1} = sigma (A M^-1 - theta_j) z_j with the m
   shifts theta (>= 0) in Leja order (each maximises the product of its distances to the
   earlier ones, the largest first), repeated cyclically when m < s - 1; sigma = 4 / (spread
   of the shifts), the inverse capacity of their interval, keeps the columns' norms comparable
*/
PetscErrorCode PPECBCGRecurrenceNewton(PetscInt m, const PetscReal theta[], PPEBasisRecurrence *rec)
{
  PetscReal t[PPE_CBCG_SMAX], lo = PETSC_MAX_REAL, hi = 0, sigma;
  PetscBool used[PPE_CBCG_SMAX] = {PETSC_FALSE};

  PetscFunctionBegin;
  PetscCheck(m >= 1 && m <= PPE_CBCG_SMAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Newton basis needs 1 to %d shifts, got %" PetscInt_FMT, PPE_CBCG_SMAX, m);
  for (PetscInt i = 0; i < m; i++) {
    lo = PetscMin(lo, theta[i]);
    hi = PetscMax(hi, theta[i]);
  }
  for (PetscInt n = 0; n < m; n++) { /* Leja order */
    PetscInt  best = -1;
    PetscReal bv   = -1;
    for (PetscInt i = 0; i < m; i++) {
      PetscReal v = n ? 1 : PetscAbsReal(theta[i]);
      if (used[i]) continue;
      for (PetscInt q = 0; q < n; q++) v *= PetscAbsReal(theta[i] - t[q]) / (hi - lo > 0 ? hi - lo : 1);
      if (v > bv) {
        bv   = v;
        best = i;
      }
    }
    used[best] = PETSC_TRUE;
    t[n]       = theta[best];
  }
  sigma = hi > lo ? 4.0 / (hi - lo) : 1.0 / PetscMax(hi, PETSC_SMALL);
  for (PetscInt j = 0; j < PPE_CBCG_SMAX; j++) {
    rec->a[j] = sigma;
    rec->b[j] = sigma * t[j % m];
    rec->c[j] = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPECBCGBasisRecurrence - S[j] = M^-1 z_j, AS[j] = A S[j], j < k, with the z_j of the
   recurrence rec (z_0 = r, not changed); Z: two work vectors
*/
PetscErrorCode PPECBCGBasisRecurrence(Mat A, PC pc, const PPEBasisRecurrence *rec, PetscInt k, Vec r, Vec Z[2], Vec S[], Vec AS[])
{
  Vec zprev = NULL, zcur = r;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_CBCGBasis, 0, 0, 0, 0));
  for (PetscInt j = 0; j < k; j++) {
    Vec znext;

    PetscCall(PCApply(pc, zcur, S[j])); /* S_j = M^-1 z_j */
    PetscCall(MatMult(A, S[j], AS[j])); /* AS_j = A M^-1 z_j */
    if (j == k - 1) break;
    if (rec->c[j] != 0 && zprev) {
      znext = zprev == r ? (zcur == Z[0] ? Z[1] : Z[0]) : zprev; /* overwrite z_{j-1}, never r */
      PetscCall(PPETSCheb(rec->a[j], AS[j], rec->b[j], zcur, zprev, znext));
    } else {
      znext = zcur == Z[0] ? Z[1] : Z[0];
      PetscCall(PPETSCheb(rec->a[j], AS[j], rec->b[j], zcur, NULL, znext));
    }
    zprev = zcur;
    zcur  = znext;
  }
  PetscCall(PetscLogEventEnd(PPE_CBCGBasis, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
