/*
   Preconditioned Chebyshev basis of s-step CG (paper 004, Algorithm 3).

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
*/
#include <ppekit/private/sstepimpl.h>

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

    PetscCall(PCApply(pc, zcur, S[j]));   /* S_j = M^-1 z_j */
    PetscCall(MatMult(A, S[j], AS[j]));   /* AS_j = A M^-1 z_j */
    if (j == k - 1) break;
    if (j == 0) {
      znext = Z[0];
      PetscCall(PPETSCheb(eta, AS[0], zeta, r, NULL, znext)); /* z_1 = eta A M^-1 r - zeta r */
    } else {
      znext = zprev == r ? Z[1] : zprev; /* overwrite z_{j-1}, never r */
      PetscCall(PPETSCheb(2 * eta, AS[j], 2 * zeta, zcur, zprev, znext)); /* z_{j+1} = 2 eta A M^-1 z_j - 2 zeta z_j - z_{j-1} */
    }
    zprev = zcur;
    zcur  = znext;
  }
  PetscCall(PetscLogEventEnd(PPE_CBCGBasis, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
