/*
   Private numerical core of PPEKit's s-step Krylov method (src/krylov/tsblock.c and cbcg*.c,
   used by the KSP type cbcg in plugins/ksp/cbcg/): tall-skinny block kernels with their single global
   reduction, the Chebyshev basis, the small Gram solves with their fallbacks, and the
   eigenvalue estimate. Exported (PETSC_EXTERN) so that the unit tests can call them; not part
   of the public API.
*/
#pragma once

#include <ppekit/private/ppeimpl.h>
#include <petscblaslapack.h>

#define PPE_TS_MAXCOLS 48 /* most columns in one tall-skinny kernel call (s <= 16 uses up to 3 s) */
#define PPE_CBCG_SMAX  16 /* largest block size s */

/* ---------------------------------------------------------------- host kernels (src/backend/host/tsblock_host.c) */
/* out[a + nx*b] = x_a . y_b over the n local rows for b >= a - band (else 0); band >= nx: all */
PETSC_EXTERN void PPETSGram_Host(PetscInt, PetscInt, const double *const *, PetscInt, const double *const *, PetscInt, double *);
/* s_j <- s_j - sum_{i<k} q_i B(i,j), j < m, in place (B is k x m, column-major) */
PETSC_EXTERN void PPETSCombine_Host(PetscInt, PetscInt, const double *const *, PetscInt, double *const *, const double *);
/* x += Q a, r -= AQ a */
PETSC_EXTERN void PPETSAxpy_Host(PetscInt, PetscInt, const double *const *, const double *const *, const double *, double *, double *);
/* out = c1 az - c2 z - zold (zold may be NULL, out may alias zold) */
PETSC_EXTERN void      PPETSCheb_Host(PetscInt, double, const double *, double, const double *, const double *, double *);
PETSC_EXTERN PetscBool PPETSHostSetInstance(PetscBool);

/* ---------------------------------------------------------------- PETSc level (src/krylov/tsblock.c) */
PETSC_EXTERN PetscErrorCode PPETSGram(PetscInt, Vec[], PetscInt, Vec[], PetscInt, PetscScalar[], PetscInt, PetscScalar[]);
PETSC_EXTERN PetscErrorCode PPETSCombine(PetscInt, Vec[], Vec[], PetscInt, Vec[], Vec[], const PetscScalar[]);
PETSC_EXTERN PetscErrorCode PPETSAxpy(PetscInt, Vec[], Vec[], const PetscScalar[], Vec, Vec);
PETSC_EXTERN PetscErrorCode PPETSCheb(PetscReal, Vec, PetscReal, Vec, Vec, Vec);

/* ---------------------------------------------------------------- Chebyshev basis (src/krylov/cbcgbasis.c) */
PETSC_EXTERN PetscErrorCode PPECBCGBasis(Mat, PC, PetscReal, PetscReal, PetscInt, Vec, Vec[2], Vec[], Vec[]);

/* A basis recurrence z_{j+1} = a_j A M^-1 z_j - b_j z_j - c_j z_{j-1} (c_j 0 or 1), z_0 = r,
   S_j = M^-1 z_j: Chebyshev (three terms) or Newton (two terms, shifts b_j / a_j). */
typedef struct {
  PetscReal a[PPE_CBCG_SMAX]; /* factor of A M^-1 z_j */
  PetscReal b[PPE_CBCG_SMAX]; /* factor of z_j */
  PetscReal c[PPE_CBCG_SMAX]; /* factor of z_{j-1}: 0 or 1 */
} PPEBasisRecurrence;
PETSC_EXTERN PetscErrorCode PPECBCGRecurrenceChebyshev(PetscReal, PetscReal, PPEBasisRecurrence *);
PETSC_EXTERN PetscErrorCode PPECBCGRecurrenceNewton(PetscInt, const PetscReal[], PPEBasisRecurrence *);
PETSC_EXTERN PetscErrorCode PPECBCGBasisRecurrence(Mat, PC, const PPEBasisRecurrence *, PetscInt, Vec, Vec[2], Vec[], Vec[]);
PETSC_EXTERN PetscErrorCode PPEGramRitz(PetscInt, const PetscScalar[], PetscInt, const PPEBasisRecurrence *, PetscReal, PetscInt *, PetscReal[]);

/* ---------------------------------------------------------------- small Gram solves (src/krylov/cbcggram.c) */
typedef enum {
  PPE_GRAM_OK,           /* all k columns usable */
  PPE_GRAM_TRUNCATED,    /* only the leading kuse < k columns are well conditioned */
  PPE_GRAM_INDEFINITE,   /* a clearly negative curvature: the operator is not positive (semi)definite */
  PPE_GRAM_NONSYMMETRIC, /* q_i' A q_j and q_j' A q_i differ beyond rounding */
  PPE_GRAM_NANORINF,     /* not a number or infinite entries */
  PPE_GRAM_SINGULAR      /* the first column has zero curvature: nothing usable */
} PPEGramStatus;
PETSC_EXTERN const char *const PPEGramStatuses[];

typedef struct {
  PetscInt    k;                                /* columns analysed */
  PetscInt    kuse;                             /* leading columns usable */
  PetscReal   d[PPE_CBCG_SMAX];                 /* equilibration D = diag(G)^-1/2 */
  PetscScalar L[PPE_CBCG_SMAX * PPE_CBCG_SMAX]; /* Cholesky factor of D G D (leading kuse, ld kuse) */
  PetscReal   cond;                             /* condition number of the leading kuse block of D G D */
  PetscReal   cond_full;                        /* of the whole k block (inf when not positive) */
  PetscReal   asym;                             /* largest relative asymmetry of neighbouring pairs */
  PetscReal   eigmin;                           /* smallest eigenvalue of D G D (k block) */
} PPEGramFactor;

/* Tolerances of the Gram analysis: relative asymmetry and negative curvature beyond rounding. */
#define PPE_GRAM_ASYM_TOL 1e-6
#define PPE_GRAM_NEG_TOL  1e-8

PETSC_EXTERN PetscErrorCode PPEGramAnalyse(PetscInt, const PetscScalar[], PetscInt, PetscReal, PetscBool, PPEGramFactor *, PPEGramStatus *);
PETSC_EXTERN PetscErrorCode PPEGramSolve(const PPEGramFactor *, PetscInt, PetscScalar[], PetscInt);

/* ---------------------------------------------------------------- eigenvalue estimate (src/krylov/cbcgeig.c) */
typedef struct {
  PetscInt  its;        /* Lanczos steps done */
  PetscInt  reductions; /* global reductions made */
  PetscReal ritz_min;   /* extreme Ritz values */
  PetscReal ritz_max;
  PetscBool breakdown;  /* stopped early: invariant subspace or non-positive curvature */
  PetscBool indefinite; /* non-positive curvature seen */
} PPEEigEstimate;

PETSC_EXTERN PetscErrorCode PPECBCGEstimateEigenvalues(Mat, PC, MatNullSpace, Vec, PetscInt, PPEEigEstimate *);
