/*
   Separable description of a 7-point pressure operator on a DMDA, read by PC fftptdma.

   The operator, restricted to a box of DMDA indices [lo[d], lo[d] + n[d]) per direction d, is

       A = diag(rowscale) * ( sigma I + Lx (+) Ly (+) Lz )

   where (+) is the Kronecker sum (Lx acts along x on every (j,k) line, and so on), and
     - Lx = c[0] * K(loc[0], bc[0], bc[1], n[0]),  Ly = c[1] * K(loc[1], bc[2], bc[3], n[1]),
       with K the unit-spacing second-difference matrix (non-symmetric form) whose end rows
       follow the boundary condition and location (docs/conventions.md):
         periodic                         wraps around
         cell Neumann      end row  [ 1, -1]
         vertex Neumann    end row  [ 2, -2]      (the boundary node is an unknown)
         cell Dirichlet    end row  [ 3, -1]      (ghost eliminated, wall half a cell away)
         vertex Dirichlet  end row  [ 2, -1]      (boundary node one spacing away, not an unknown)
       so that the eigenvalues of Lx are c[0] * PPEGridEigenvalues1d(loc, lo, hi, n, 1.0);
     - Lz is a general tridiagonal matrix of n[2] rows, given by its rows in non-symmetric form:
         (Lz x)_k = -zlo[k] x_{k-1} + zdi[k] x_k - zhi[k] x_{k+1}
       (zlo[0] and zhi[n-1] couple around the period when bc[4] is periodic, else they are 0);
     - rowscale > 0 is any per-row diagonal scaling (cell volumes, the application's own).

   DMDA points outside the box are Dirichlet nodes assembled as scaled identity rows
   (diagonal idiag > 0, no off-diagonal entry), as in PETSc's DMDA tutorials: their value is
   b/idiag, and the rows of the box that couple to them move that coupling to the right-hand
   side. When the box is the whole DMDA, idiag is NULL.

   Built from a PPEGrid (MATPPESTENCIL operators, exact by construction) or inferred from the
   entries of an assembled matrix (checked entry by entry unless an approximation is asked for).
*/
#pragma once

#include <ppekit/private/ppeimpl.h>

typedef enum {
  PPE_SEPARABLE_GRID,        /* from the PPEGrid of a MATPPESTENCIL operator */
  PPE_SEPARABLE_INFERRED,    /* inferred from an assembled matrix, exact */
  PPE_SEPARABLE_APPROXIMATE  /* nearest separable operator of a non-separable assembled matrix */
} PPESeparableSource;

typedef struct {
  PPESeparableSource source;
  PetscInt           M[3];      /* global DMDA sizes */
  PetscInt           lo[3];     /* DMDA index of the first unknown of the box (1 after an identity-row Dirichlet node) */
  PetscInt           n[3];      /* unknowns of the box per direction */
  PPELocation        loc[3];    /* location of the unknowns per direction */
  PPEBCType          bc[6];     /* x-, x+, y-, y+, z-, z+ */
  PetscReal          c[2];      /* coefficients of Lx and Ly (1/h^2 in the grid's units) */
  PetscReal         *zlo;       /* n[2] rows of Lz: coupling to k-1 (negated) */
  PetscReal         *zdi;       /* n[2] rows of Lz: diagonal */
  PetscReal         *zhi;       /* n[2] rows of Lz: coupling to k+1 (negated) */
  PetscReal          sigma;     /* Helmholtz shift */
  Vec                rowscale;  /* DMDA global vector of row scalings (1 outside the box); NULL means 1 */
  Vec                idiag;     /* DMDA global vector: diagonal of the identity rows outside the box, 0 inside; NULL if none */
  PetscBool          singular;  /* no Dirichlet face and sigma = 0: constant null space of the box operator */
  PetscReal          misfit;    /* approximate: largest relative entry difference to the matrix; 0 when exact */
  char               how[256];  /* one line for -ksp_view: how the description was obtained and what was checked */
} PPESeparable;

/* src/fft/separable.c (exported for the tests t4xx/t6xx) */
PETSC_EXTERN PetscErrorCode PPESeparableCreateFromGrid(PPEGrid, PPESeparable **);
PETSC_EXTERN PetscErrorCode PPESeparableView(const PPESeparable *, PetscViewer);
PETSC_EXTERN PetscErrorCode PPESeparableDestroy(PPESeparable **);
/* src/fft/separableinfer.c: da is the DMDA of the matrix (dof 1, 7-point star, width >= 1);
   approximate = PETSC_FALSE fails with a PETSc error naming the first check that failed. */
PETSC_INTERN PetscErrorCode PPESeparableInferFromMat(Mat, DM, PetscBool, PPESeparable **);
