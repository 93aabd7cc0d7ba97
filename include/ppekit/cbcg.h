/*
   KSPCBCG ("cbcg"), registered by PPEKitInitializePackage(): Chebyshev-basis
   communication-avoiding preconditioned CG (P-CBCG), s iterations of CG per block with one
   global reduction (or two), for symmetric positive (semi-)definite operators and
   preconditioners. See docs/types/cbcg.md.

   References:
     Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of communication
     avoiding Chebyshev basis conjugate gradient solver for multiphase CFD simulations", ScalA
     workshop at SC19 (IEEE/ACM), 2019.
*/
#pragma once

#include <petscksp.h>

#define KSPCBCG "cbcg"

/*E
   KSPCBCGEigSource - where the eigenvalue interval of the Chebyshev basis came from

+  KSP_CBCG_EIG_GIVEN       - KSPCBCGSetEigenvalues() or -ksp_cbcg_eigenvalues
.  KSP_CBCG_EIG_GRID        - PPEGridGetOperatorBounds() of a MATPPESTENCIL operator without
                              preconditioner (exact extremes on uniform grids, bounds otherwise)
.  KSP_CBCG_EIG_GRID_JACOBI - MATPPESTENCIL with point Jacobi on the same matrix: the
                              Gershgorin bound 2 of D^-1 A (the stencil is diagonally dominant)
-  KSP_CBCG_EIG_LANCZOS     - estimated by a short Lanczos process (-ksp_cbcg_eig_its), the
                              largest Ritz value times the safety factor, lmin = 0

   Level: intermediate
E*/
typedef enum {
  KSP_CBCG_EIG_GIVEN,
  KSP_CBCG_EIG_GRID,
  KSP_CBCG_EIG_GRID_JACOBI,
  KSP_CBCG_EIG_LANCZOS
} KSPCBCGEigSource;
PETSC_EXTERN const char *const KSPCBCGEigSources[];

/*E
   KSPCBCGBasisType - the polynomial basis of the blocks of KSPCBCG

+  KSP_CBCG_BASIS_CHEBYSHEV - Chebyshev polynomials scaled to the eigenvalue interval (Ali et al. (2019), the default)
-  KSP_CBCG_BASIS_NEWTON    - Newton polynomials prod (A M^-1 - theta_i) with the Leja-ordered Ritz values of the
                              previous block as shifts (computed from its Gram matrices: no extra reduction); the
                              first block of a solve uses the Chebyshev basis

   Level: intermediate
E*/
typedef enum {
  KSP_CBCG_BASIS_CHEBYSHEV,
  KSP_CBCG_BASIS_NEWTON
} KSPCBCGBasisType;
PETSC_EXTERN const char *const KSPCBCGBasisTypes[];

/*S
   KSPCBCGStats - what the last KSPSolve() with KSPCBCG did

   Level: intermediate
S*/
typedef struct {
  PetscInt       s_first;            /* block size at the start of the solve */
  PetscInt       s_last;             /* block size at the end (smaller after fallbacks) */
  PetscInt       blocks;             /* blocks of s iterations done */
  PetscInt       truncations;        /* fallbacks: blocks cut to fewer well-conditioned columns */
  PetscInt       restarts;           /* restarts from the true residual (all causes) */
  PetscInt       drifts;             /* of which after the recursively updated A Q drifted */
  PetscInt       replacements;       /* residual replacements */
  PetscInt       reductions;         /* global reductions made by the method in the solve */
  PetscLogDouble reductions_counted; /* MPI_Allreduce calls PETSc counted during the solve (0 on one rank) */
  PetscInt       eig_its;            /* Lanczos steps of the last eigenvalue estimate (0: none) */
  PetscInt       eig_reductions;     /* global reductions of that estimate */
  PetscReal      cond_max;           /* largest condition number of an equilibrated Gram matrix used */
  PetscReal      true_rnorm;         /* norm of the true residual checked at convergence (-1: not checked) */
  PetscInt       newton_blocks;      /* blocks built with the Newton basis (Ritz shifts) */
  PetscReal      ritz_min, ritz_max; /* extreme Ritz values of the last block that gave some (Newton basis) */
} KSPCBCGStats;

PETSC_EXTERN PetscErrorCode KSPCreate_CBCG(KSP);
PETSC_EXTERN PetscErrorCode KSPCBCGSetS(KSP, PetscInt);
PETSC_EXTERN PetscErrorCode KSPCBCGGetS(KSP, PetscInt *);
PETSC_EXTERN PetscErrorCode KSPCBCGSetEigenvalues(KSP, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode KSPCBCGGetEigenvalues(KSP, PetscReal *, PetscReal *, KSPCBCGEigSource *);
PETSC_EXTERN PetscErrorCode KSPCBCGSetEigIts(KSP, PetscInt);
PETSC_EXTERN PetscErrorCode KSPCBCGGetEigIts(KSP, PetscInt *);
PETSC_EXTERN PetscErrorCode KSPCBCGSetSafety(KSP, PetscReal);
PETSC_EXTERN PetscErrorCode KSPCBCGGetSafety(KSP, PetscReal *);
PETSC_EXTERN PetscErrorCode KSPCBCGSetReplace(KSP, PetscInt);
PETSC_EXTERN PetscErrorCode KSPCBCGGetReplace(KSP, PetscInt *);
PETSC_EXTERN PetscErrorCode KSPCBCGSetMaxCondition(KSP, PetscReal);
PETSC_EXTERN PetscErrorCode KSPCBCGGetMaxCondition(KSP, PetscReal *);
PETSC_EXTERN PetscErrorCode KSPCBCGGetStats(KSP, KSPCBCGStats *);
PETSC_EXTERN PetscErrorCode KSPCBCGSetSingleReduction(KSP, PetscBool);
PETSC_EXTERN PetscErrorCode KSPCBCGGetSingleReduction(KSP, PetscBool *);
PETSC_EXTERN PetscErrorCode KSPCBCGSetBasis(KSP, KSPCBCGBasisType);
PETSC_EXTERN PetscErrorCode KSPCBCGGetBasis(KSP, KSPCBCGBasisType *);
