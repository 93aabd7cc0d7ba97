/*
   Private layout of PPEGrid. Solvers read the 1D data below; the arrays are
   indexed by the global index along the direction.
*/
#pragma once

#include <ppekit/private/ppeimpl.h>

/* One direction of the grid: coordinates, control volumes and the symmetric 1D
   operator S (flux form) such that -d2/dx2 ~ W^-1 S. */
typedef struct {
  PetscInt    n;       /* number of unknowns */
  PetscInt    nint;    /* number of mesh intervals; nint+1 mesh lines */
  PPEBCType   bc[2];   /* lower and upper face */
  PetscBool   uniform; /* uniform spacing (always in x and y) */
  PetscBool   flat;    /* the missing direction of a 2D grid: one unknown, no coupling, w = 1 */
  PetscReal   href;    /* reference spacing L/nint: the spacing of the uniform grid */
  PetscReal  *lines;   /* nint+1 mesh lines: cell faces (cell) or mesh nodes (vertex) */
  PetscReal  *x;       /* n coordinates of the unknowns */
  PetscReal  *w;       /* n weights: control-volume width / href */
  PetscReal  *tlo;     /* n couplings to the lower neighbour, 1/(href*dist); 0 at a non-periodic lower end */
  PetscReal  *thi;     /* n couplings to the upper neighbour; 0 at a non-periodic upper end */
  PetscReal  *tb;      /* n boundary diagonals: 1/(href*dist to the Dirichlet point); 0 elsewhere */
  PetscReal  *d;       /* n diagonal of S: tlo + thi + tb */
  PetscReal   bpos[2]; /* coordinates of the lower/upper boundary points (faces) */
  PetscReal  *eig;     /* n generalised eigenvalues of (S, W): eigenvalues of -d2/dx2, by wavenumber */
  PetscReal   eigmin, eigmax, eigmin2; /* smallest, largest and second smallest of eig */
} PPEGrid1d;

/*
   A 2D grid (dim 2) is stored as the 3D grid nx x 1 x ny: its y direction is the grid's z
   (the last direction: stretched, and the tridiagonal direction of PC fftptdma) and the
   middle direction is flat (one unknown, no coupling, weight 1). Every solver reads the 3D
   arrays below and the 3D shadow DMDA da, whose vectors have the layout of the user's 2D
   DMDA da2 (same ownership, same ordering). The description as the user gives it (u*) is
   mapped onto the 3D fields by PPEGridSetUp().
*/
struct _p_PPEGrid {
  PETSCHEADER(int);
  PetscInt       dim;       /* 2 or 3 */
  PetscBool      dim_set;   /* fixed by the user or implied by a setting (else 3) */
  const char    *dim_from;  /* what fixed it, for the error when another setting disagrees */
  PetscInt       uN[3];     /* the description in the user's directions (2D: entries 0 and 1; faces xlo..yhi) */
  PetscReal      uL[3], uorigin[3];
  PPEBCType      ubc[6];
  PetscInt       uprocs[3];
  DM             da2;       /* 2D: the user's 2D DMDA (da is its 3D shadow); NULL in 3D */
  PetscInt       N[3];      /* global sizes */
  PetscBool      sizes_set; /* set by the user (else taken from an attached DMDA) */
  PetscReal      L[3];      /* lengths */
  PetscReal      origin[3]; /* lower corner */
  PPEBCType      bc[6];
  PPELocation    location;
  PPEStretchType stretch;
  PetscReal      stretch_factor;
  PetscInt       nzlines;   /* user z lines (PPE_STRETCH_USER) */
  PetscReal     *zlines;
  PetscReal      shift;     /* Helmholtz shift sigma >= 0 */
  PetscInt       procs[3];  /* requested process grid (PETSC_DECIDE) */
  DM             da;
  PetscBool      da_owned;  /* the grid created the DMDA */
  PetscBool      setupcalled;
  PPEGrid1d      dir[3];
  PetscBool      singular;  /* constant null space: no Dirichlet face and sigma = 0 */
  PetscReal      lmin, lmax; /* bounds on the eigenvalues of A (lmin: smallest nonzero if singular) */
  PetscBool      bounds_exact;
};

PETSC_INTERN PetscErrorCode PPEGrid1dSetUp(PPEGrid1d *, PPELocation, PetscReal, PetscReal, PPEStretchType, PetscReal, PetscInt, const PetscReal[]);
PETSC_INTERN PetscErrorCode PPEGrid1dReset(PPEGrid1d *);
PETSC_INTERN PetscErrorCode PPEGrid1dComputeEigenvalues(PPEGrid1d *, PPELocation);
PETSC_INTERN PetscErrorCode PPEGridNumIntervals(PPELocation, PPEBCType, PPEBCType, PetscInt, PetscInt *);
PETSC_INTERN PetscErrorCode PPEGridComputeOperatorBounds(PPEGrid);
PETSC_INTERN PetscErrorCode PPEGrid1dSetUpFlat(PPEGrid1d *, PetscReal, PetscReal);
PETSC_INTERN PetscErrorCode PPEGridDirection(PPEGrid, PetscInt, PetscInt *);
PETSC_INTERN PetscErrorCode PPEGridUserPoint(PPEGrid, const PetscReal[3], PetscReal[3]);
