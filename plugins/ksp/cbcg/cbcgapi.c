/*
   KSPCBCG: the public setters and getters, each under its manual page; each dispatches to the
   method composed by KSPCreate_CBCG() in cbcg.c. See the manual page KSPCBCG there. The
   defaults the pages name (CBCG_DEFAULT_S, ...) are defined once, in cbcgimpl.h.

   References:
     Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of communication
     avoiding Chebyshev basis conjugate gradient solver for multiphase CFD simulations", ScalA
     workshop at SC19 (IEEE/ACM), 2019.
*/
#include "cbcgimpl.h"
#include "../../pluginimpl.h"

/*@
   KSPCBCGSetS - sets the block size s of KSPCBCG: the number of CG iterations done per
   pair of global reductions

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
-  s   - the block size, 1 to 16 (PPE_CBCG_SMAX); default CBCG_DEFAULT_S = 8

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
PPE_API_SETTER(KSPCBCGSetS, KSP, ksp, PetscInt, s, Int)

/*@
   KSPCBCGGetS - gets the block size s of KSPCBCG

   Not Collective

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetS()
@*/
PPE_API_GETTER(KSPCBCGGetS, KSP, ksp, PetscInt, s)

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
PPE_API_SETTER2(KSPCBCGSetEigenvalues, KSP, ksp, PetscReal, lmin, lmax, Real)

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
PPE_API_GETTER3(KSPCBCGGetEigenvalues, KSP, ksp, PetscReal, lmin, PetscReal, lmax, KSPCBCGEigSource, src)

/*@
   KSPCBCGSetEigIts - sets the number of Lanczos steps of the eigenvalue estimate of KSPCBCG

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
-  its - steps, 1 to CBCG_MAX_EIG_ITS = 1000; default CBCG_DEFAULT_EIG_ITS = 20; each costs a product, a preconditioner
         application and two global reductions, at set-up

   Options Database Key:
.  -ksp_cbcg_eig_its <its> - the steps

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetSafety(), KSPCBCGSetEigenvalues()
@*/
PPE_API_SETTER(KSPCBCGSetEigIts, KSP, ksp, PetscInt, its, Int)

/*@
   KSPCBCGGetEigIts - gets the number of Lanczos steps of the eigenvalue estimate

   Not Collective

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetEigIts()
@*/
PPE_API_GETTER(KSPCBCGGetEigIts, KSP, ksp, PetscInt, its)

/*@
   KSPCBCGSetSafety - sets the factor applied to the estimated largest eigenvalue (Ritz
   values approach it from below)

   Logically Collective

   Input Parameters:
+  ksp    - the Krylov solver
-  factor - in [1, CBCG_MAX_SAFETY = 10]; default CBCG_DEFAULT_SAFETY = 1.1

   Options Database Key:
.  -ksp_cbcg_safety <factor> - the factor

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetEigIts()
@*/
PPE_API_SETTER(KSPCBCGSetSafety, KSP, ksp, PetscReal, factor, Real)

/*@
   KSPCBCGGetSafety - gets the safety factor on the estimated largest eigenvalue

   Not Collective

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetSafety()
@*/
PPE_API_GETTER(KSPCBCGGetSafety, KSP, ksp, PetscReal, factor)

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
PPE_API_SETTER(KSPCBCGSetReplace, KSP, ksp, PetscInt, k, Int)

/*@
   KSPCBCGGetReplace - gets the residual replacement interval of KSPCBCG

   Not Collective

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetReplace()
@*/
PPE_API_GETTER(KSPCBCGGetReplace, KSP, ksp, PetscInt, k)

/*@
   KSPCBCGSetMaxCondition - sets the largest condition number of an equilibrated Gram
   matrix Q' A Q that KSPCBCG uses; beyond it the block is cut to its longest leading part
   within the limit (the next block is full again)

   Logically Collective

   Input Parameters:
+  ksp  - the Krylov solver
-  cond - the limit, >= 1 (default CBCG_COND_MAX_SINGLE = 300 with one reduction per block, CBCG_COND_MAX_TWO = 1e4 with two)

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
PPE_API_SETTER(KSPCBCGSetMaxCondition, KSP, ksp, PetscReal, cond, Real)

/*@
   KSPCBCGGetMaxCondition - gets the Gram condition limit of KSPCBCG

   Not Collective

   Level: advanced

.seealso: KSPCBCG, KSPCBCGSetMaxCondition()
@*/
PPE_API_GETTER(KSPCBCGGetMaxCondition, KSP, ksp, PetscReal, cond)

/*@
   KSPCBCGGetStats - what the last solve of KSPCBCG did: blocks, fallbacks, reductions,
   the eigenvalue estimate

   Not Collective

   Output Parameter:
.  stats - see KSPCBCGStats

   Level: intermediate

.seealso: KSPCBCG, KSPView()
@*/
PPE_API_GETTER(KSPCBCGGetStats, KSP, ksp, KSPCBCGStats, stats)

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
PPE_API_SETTER(KSPCBCGSetBasis, KSP, ksp, KSPCBCGBasisType, basis, Enum)

/*@
   KSPCBCGGetBasis - gets the polynomial basis of KSPCBCG

   Not Collective

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetBasis()
@*/
PPE_API_GETTER(KSPCBCGGetBasis, KSP, ksp, KSPCBCGBasisType, basis)

/*@
   KSPCBCGSetSingleReduction - sets whether KSPCBCG makes one global reduction per block
   (the default) or two (Ali et al. (2019), Algorithm 2)

   Logically Collective

   Input Parameters:
+  ksp - the Krylov solver
-  flg - PETSC_TRUE: one reduction per block; PETSC_FALSE: two (default: one for s >= CBCG_SINGLE_MIN_S = 3, two below)

   Options Database Key:
.  -ksp_cbcg_single_reduction <true,false> - the choice

   Notes:
   With two reductions a block reduces [Q'AQ, Q'r, norms of r], updates x and r, builds the
   next basis S and reduces Q'AS to conjugate it. With one, the products [Q_k Q_k-1 S]' [A S r]
   and the norms of r are reduced together right after S is built, and the next Gram matrix
   follows as the Schur complement S'AS - C' G^-1 C, as in the s-step CG of Chronopoulos and
   Gear: half the reductions, the same products with A and the same preconditioner
   applications, a little more arithmetic on s x s matrices. The Schur complement loses the
   digits that cancel in it, so the default Gram condition limit is lower
   (CBCG_COND_MAX_SINGLE = 300 instead of CBCG_COND_MAX_TWO = 1e4); docs/types/cbcg.md has the
   measurements that made one reduction the default for s >= CBCG_SINGLE_MIN_S = 3. Below it
   the default stays two: the target of at most 2/s + 0.05 global reductions per iteration
   (CBCG_REDUCTION_SLACK = 0.05) allows them, and the Gram matrix computed from the vectors is
   the more accurate (the stretched channel problem without preconditioner takes 175
   iterations against CG's 106 at s = 2 with one).

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGGetSingleReduction(), KSPCBCGSetMaxCondition()
@*/
PPE_API_SETTER(KSPCBCGSetSingleReduction, KSP, ksp, PetscBool, flg, Bool)

/*@
   KSPCBCGGetSingleReduction - gets whether KSPCBCG makes one global reduction per block

   Not Collective

   Level: intermediate

.seealso: KSPCBCG, KSPCBCGSetSingleReduction()
@*/
PPE_API_GETTER(KSPCBCGGetSingleReduction, KSP, ksp, PetscBool, flg)
