/*
   Private interface of the Chebyshev iteration (src/chebyci/): the fixed-degree solve used
   as a preconditioner, and the eigenvalue bounds it needs (from the grid's 1D spectra, by
   Gershgorin, or estimated by Lanczos). PC chebyci (plugins/pc/chebyci) is the PETSc glue.
*/
#pragma once

#include <ppekit/private/gridimpl.h>
#include <ppekit/private/backendimpl.h>
#include <petscksp.h>

/* How bounds are obtained from a grid. */
typedef enum {
  PPE_CI_BOUNDS_EXACT,     /* extreme eigenvalues of the 1D operators (closed form or LAPACK) */
  PPE_CI_BOUNDS_GERSHGORIN /* largest by Gershgorin discs of the 1D operators, smallest exact */
} PPEChebyCIBoundsKind;

/* The operator of the iteration: t = A y, applied by the caller's callback. */
typedef PetscErrorCode (*PPEChebyCIOpFn)(void *ctx, Vec y, Vec t);

/* Optional fused step: w = rho (s2 y + d2 (b - dinv A y) - rho_old z) in one sweep, t never
   stored (dinv may be NULL); must give the bits of op followed by ppe_ci_step(). */
typedef PetscErrorCode (*PPEChebyCIStepFn)(void *ctx, Vec y, Vec b, Vec z, Vec dinv, PetscReal rho, PetscReal rho_old, PetscReal s2, PetscReal d2, Vec w);

/* Optional temporally blocked steps: levels S->j0..S->j1 in one sweep (ppe_dev_ci_sweep, the
   scalars of S; the vectors: scaled rhs b, dinv (may be NULL), the two levels before y, z (NULL
   when S->j0 == 1), the last two yout, zout (zout may be NULL)); must give the bits of the
   steps one by one. */
typedef PetscErrorCode (*PPEChebyCISweepFn)(void *ctx, const ppe_dev_ci_sweep *S, Vec b, Vec dinv, Vec y, Vec z, Vec yout, Vec zout);

typedef struct {
  PetscInt          its;                 /* operator applications per solve (iterMax of Algorithm 2), >= 1 */
  PetscReal         alpha, beta;         /* the interval [alpha, beta] the polynomial is built for */
  PetscReal         theta, delta, sigma; /* eq. 15: centre, half width, centre / half width */
  PPEChebyCIOpFn    op;                  /* t = A y */
  void             *opctx;               /* its context */
  PPEChebyCIStepFn  step;                /* fused later steps, or NULL (op, then the kernel) */
  void             *stepctx;             /* its context */
  PPEChebyCISweepFn sweep;               /* temporally blocked steps on backend, or NULL */
  void             *sweepctx;            /* its context */
  PetscInt          block;               /* levels per sweep with sweep (>= 2) */
  PetscReal        *rho;                 /* the levels' scalars: rho of level j at [j], rho_old at [nrho + j] */
  PetscInt          nrho;                /* levels rho holds (its + 1) */
  PPEBackend        backend;             /* the back end of the operator: inputs that live there iterate there */
  Vec               dinv[4];             /* D^-1 of the iterated operator P = D^-1 A on the host and on backend, by back end; NULL: D = I */
  Vec               work[4][5];          /* by back end, as dinv: scaled rhs, t, and the three rotating iterates */
} PPEChebyCI;

PETSC_INTERN PetscErrorCode PPEChebyCISetInterval(PPEChebyCI *, PetscReal, PetscReal);
PETSC_INTERN PetscErrorCode PPEChebyCISetUpWork(PPEChebyCI *, Vec, PPEBackend);
PETSC_INTERN PetscErrorCode PPEChebyCIReset(PPEChebyCI *);
PETSC_INTERN PetscErrorCode PPEChebyCISolve(PPEChebyCI *, Vec, Vec);

PETSC_INTERN PetscErrorCode PPEChebyCIGridBounds(PPEGrid, const PetscInt[3], const PetscInt[3], PPEChebyCIBoundsKind, PetscBool, PetscReal *, PetscReal *, PetscBool *);
PETSC_INTERN PetscErrorCode PPEChebyCIGridWeights(PPEGrid, Vec);
PETSC_INTERN PetscErrorCode PPEChebyCIEstimateBounds(Mat, Vec, PetscInt, PetscReal *, PetscReal *);
