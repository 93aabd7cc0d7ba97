/*
   Estimate of the extreme eigenvalues of A M^-1 (equivalently M^-1 A) for the Chebyshev
   basis of s-step CG: a short Lanczos process, run as preconditioned CG on a pseudo-random
   right-hand side with a zero initial guess.

   CG's coefficients give the Lanczos tridiagonal matrix
       T(j,j)   = 1/alpha_j + beta_{j-1}/alpha_{j-1},   T(j,j+1) = sqrt(beta_j)/alpha_j,
   whose eigenvalues (Ritz values) approach the extreme eigenvalues from inside: the largest
   converges much faster than a power iteration with the same number of products (Ali et al.
   (2019) use about a hundred power steps). The start vector is a hash of the global index, so
   a run is reproducible; it is projected onto the range of A when a null space is attached.

   References:
     Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of communication
     avoiding Chebyshev basis conjugate gradient solver for multiphase CFD simulations", ScalA
     workshop at SC19 (IEEE/ACM), 2019.
*/
#include <ppekit/private/sstepimpl.h>

/* The process stops when r'z falls below PPE_LANCZOS_RZ_FLOOR times its last value: the
   residual has lost about 14 orders of magnitude in one step, down to rounding in double
   precision, so the Krylov space is invariant (or M is not positive definite there) and
   further steps would only add Ritz values made of rounding errors. */
#define PPE_LANCZOS_RZ_FLOOR 1e-28

/* A deterministic value in [-1, 1) from an index: the splitmix64 finaliser (its golden-ratio
   increment and two multipliers are that generator's constants), whose top 53 bits times 2^-53
   give a double in [0, 1). */
static PetscReal HashUnit(PetscInt64 i)
{
  unsigned long long z = (unsigned long long)i + 0x9e3779b97f4a7c15ULL;
  z                    = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z                    = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z                    = z ^ (z >> 31);
  return (PetscReal)((double)(z >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0);
}

/*
   PPECBCGEstimateEigenvalues - Ritz values of a short preconditioned Lanczos process

   Input Parameters:
+  A    - the operator
.  pc   - the preconditioner (set up)
.  nsp  - the null space of A, or NULL
.  tmpl - a vector of the right layout
-  its  - Lanczos steps (CG iterations)

   Output Parameter:
.  est - extreme Ritz values, steps done, reductions made, breakdown flags
*/
PetscErrorCode PPECBCGEstimateEigenvalues(Mat A, PC pc, MatNullSpace nsp, Vec tmpl, PetscInt its, PPEEigEstimate *est)
{
  Vec          r, z, p, w;
  PetscScalar *ra, rho, rhonew, delta;
  PetscReal   *diag, *off, *work, alpha, alphaold = 0, beta = 0;
  PetscInt     n, lo, m = 0;
  PetscBLASInt bm, one = 1, info;

  PetscFunctionBegin;
  PetscCheck(its >= 1, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "Eigenvalue estimate needs at least one step, got %" PetscInt_FMT, its);
  PetscCall(PetscLogEventBegin(PPE_CBCGEigEst, 0, 0, 0, 0));
  PetscCall(PetscMemzero(est, sizeof(*est)));
  PetscCall(VecDuplicate(tmpl, &r));
  PetscCall(VecDuplicate(tmpl, &z));
  PetscCall(VecDuplicate(tmpl, &p));
  PetscCall(VecDuplicate(tmpl, &w));
  PetscCall(PetscMalloc3(its, &diag, its, &off, 2 * its, &work));
  PetscCall(VecGetOwnershipRange(r, &lo, NULL));
  PetscCall(VecGetLocalSize(r, &n));
  PetscCall(VecGetArray(r, &ra));
  for (PetscInt i = 0; i < n; i++) ra[i] = HashUnit(lo + i);
  PetscCall(VecRestoreArray(r, &ra));
  if (nsp) {
    PetscCall(MatNullSpaceRemove(nsp, r));
    est->reductions++;
  }
  PetscCall(PCApply(pc, r, z));
  PetscCall(VecCopy(z, p));
  PetscCall(VecDot(r, z, &rho));
  est->reductions++;
  if (!(PetscRealPart(rho) > 0)) { /* M is not positive definite on r (or r = 0) */
    est->breakdown  = PETSC_TRUE;
    est->indefinite = (PetscBool)(PetscRealPart(rho) < 0);
  }
  while (!est->breakdown && m < its) {
    PetscCall(MatMult(A, p, w));
    PetscCall(VecDot(p, w, &delta)); /* p' A p */
    est->reductions++;
    if (!(PetscRealPart(delta) > 0)) {
      est->breakdown  = PETSC_TRUE;
      est->indefinite = (PetscBool)(PetscRealPart(delta) <= 0);
      break;
    }
    alpha   = PetscRealPart(rho / delta);
    diag[m] = 1.0 / alpha + (m > 0 ? beta / alphaold : 0.0);
    m++;
    if (m == its) break;
    PetscCall(VecAXPY(r, -alpha, w)); /* r -= alpha A p */
    PetscCall(PCApply(pc, r, z));
    PetscCall(VecDot(r, z, &rhonew));
    est->reductions++;
    if (!(PetscRealPart(rhonew) > PPE_LANCZOS_RZ_FLOOR * PetscRealPart(rho))) { /* invariant subspace found (or M indefinite) */
      est->breakdown  = PETSC_TRUE;
      est->indefinite = (PetscBool)(PetscRealPart(rhonew) < 0);
      break;
    }
    beta       = PetscRealPart(rhonew / rho);
    off[m - 1] = PetscSqrtReal(beta) / alpha;
    alphaold   = alpha;
    rho        = rhonew;
    PetscCall(VecAYPX(p, beta, z)); /* p = z + beta p */
  }
  est->its = m;
  if (m > 0) {
    PetscCall(PetscBLASIntCast(m, &bm));
    PetscCall(PetscFPTrapPush(PETSC_FP_TRAP_OFF));
    PetscCallBLAS("LAPACKsteqr", LAPACKREALsteqr_("N", &bm, diag, off, NULL, &one, work, &info));
    PetscCall(PetscFPTrapPop());
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK steqr of the Lanczos matrix failed: info %d", (int)info);
    est->ritz_min = diag[0];
    est->ritz_max = diag[m - 1];
  }
  PetscCall(PetscFree3(diag, off, work));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&p));
  PetscCall(VecDestroy(&w));
  PetscCall(PetscLogEventEnd(PPE_CBCGEigEst, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
