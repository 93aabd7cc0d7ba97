/*
   Private layout of PPEGrid. Solvers read the 1D data below; the arrays are
   indexed by the global index along the direction.
*/
#pragma once

#include <ppekit/private/ppeimpl.h>

/* One direction of the grid: coordinates, control volumes and the symmetric 1D
   operator S (flux form) such that -d2/dx2 ~ W^-1 S. */
typedef struct {
  PetscInt   n;                       /* number of unknowns */
  PetscInt   nint;                    /* number of mesh intervals; nint+1 mesh lines */
  PPEBCType  bc[2];                   /* lower and upper face */
  PetscBool  uniform;                 /* uniform spacing (always in x and y) */
  PetscReal  href;                    /* reference spacing L/nint: the spacing of the uniform grid */
  PetscReal *lines;                   /* nint+1 mesh lines: cell faces (cell) or mesh nodes (vertex) */
  PetscReal *x;                       /* n coordinates of the unknowns */
  PetscReal *w;                       /* n weights: control-volume width / href */
  PetscReal *tlo;                     /* n couplings to the lower neighbour, 1/(href*dist); 0 at a non-periodic lower end */
  PetscReal *thi;                     /* n couplings to the upper neighbour; 0 at a non-periodic upper end */
  PetscReal *tb;                      /* n boundary diagonals: 1/(href*dist to the Dirichlet point); 0 elsewhere */
  PetscReal *d;                       /* n diagonal of S: tlo + thi + tb */
  PetscReal  tbe[2];                  /* the boundary term of the lower and of the upper end alone (Dirichlet; 0 elsewhere): tb of a one-point direction is their sum */
  PetscReal  bpos[2];                 /* coordinates of the lower/upper boundary points (faces) */
  PetscReal *eig;                     /* n generalised eigenvalues of (S, W): eigenvalues of -d2/dx2, by wavenumber */
  PetscReal  eigmin, eigmax, eigmin2; /* smallest, largest and second smallest of eig */
} PPEGrid1d;

/*
   The kernels' 3D box view of a DMDA. The solvers' kernels are written for a 3D box; a grid
   of dimension dim keeps one DMDA, the user's, whose direction u is the kernels' direction
   PPEGridKernelDir(dim, u): the user's last direction is the kernels' last one (z: the one
   that can be stretched, along which PC fftptdma solves its tridiagonal systems), the others
   keep their index, and a kernel direction with no user direction has one point on one rank
   (no coupling, weight 1). A 2D DMDA nx x ny is thus the box nx x 1 x ny: its arrays have
   exactly that box's layout (x fastest, then y; a one-point direction adds no stride), so no
   data moves. PPEDMDAGetBox() is the one place that maps a DMDA onto the box.
*/
typedef struct {
  PetscInt        dim;    /* dimension of the DMDA: 2 or 3 */
  PetscInt        N[3];   /* global sizes */
  PetscInt        P[3];   /* process grid */
  PetscInt        s[3];   /* this rank's first point */
  PetscInt        m[3];   /* this rank's extent */
  const PetscInt *own[3]; /* extents of the P[d] ranks along d (borrowed from the DMDA) */
  DMBoundaryType  bt[3];  /* boundary types (DM_BOUNDARY_NONE in a one-point direction) */
} PPEDMDABox;

/* The kernels' direction of the user's direction u of a dim-D grid or DMDA, and back (-1:
   the kernel direction has no user direction). */
static inline PetscInt PPEGridKernelDir(PetscInt dim, PetscInt u)
{
  return u == dim - 1 ? 2 : u;
}
static inline PetscInt PPEGridUserDir(PetscInt dim, PetscInt d)
{
  return d == 2 ? dim - 1 : d < dim - 1 ? d : -1;
}

/*
   The grid: the description as the user gives it (u*: dim directions, 2 dim faces) and, from
   PPEGridSetUp(), the same in the kernels' 3D order (N, L, origin, bc, procs, dir[], box).
*/
struct _p_PPEGrid {
  PETSCHEADER(int);
  PetscInt       dim;      /* 2 or 3 */
  PetscBool      dim_set;  /* fixed by the user or implied by a setting (else 3) */
  const char    *dim_from; /* what fixed it, for the error when another setting disagrees */
  PetscInt       uN[3];    /* the description in the user's directions (2D: entries 0 and 1; faces xlo..yhi) */
  PetscReal      uL[3], uorigin[3];
  PPEBCType      ubc[6];
  PetscInt       uprocs[3];
  PetscInt       N[3];      /* global sizes (kernel order, as the rest below) */
  PetscBool      sizes_set; /* set by the user (else taken from an attached DMDA) */
  PetscReal      L[3];      /* lengths */
  PetscReal      origin[3]; /* lower corner */
  PPEBCType      bc[6];
  PPELocation    location;
  PPEStretchType stretch;
  PetscReal      stretch_factor;
  PetscInt       nzlines; /* user z lines (PPE_STRETCH_USER) */
  PetscReal     *zlines;
  PetscInt       nxylines[2]; /* mesh lines of the kernels' x and y (PPEGridSetLinesInternal(): multigrid's coarse levels of odd extents); 0: uniform */
  PetscReal     *xylines[2];
  PetscReal      shift;    /* Helmholtz shift sigma >= 0 */
  PetscInt       procs[3]; /* requested process grid (PETSC_DECIDE) */
  DM             da;       /* the user's DMDA, of the grid's dimension (attached or created) */
  PetscBool      da_owned; /* the grid created the DMDA */
  PPEDMDABox     box;      /* the kernels' 3D view of da */
  PetscBool      setupcalled;
  PPEGrid1d      dir[3];
  PetscBool      singular;   /* constant null space: no Dirichlet face and sigma = 0 */
  PetscReal      lmin, lmax; /* bounds on the eigenvalues of A (lmin: smallest nonzero if singular) */
  PetscBool      bounds_exact;
};

PETSC_INTERN PetscErrorCode PPEGrid1dSetUp(PPEGrid1d *, PPELocation, PetscReal, PetscReal, PPEStretchType, PetscReal, PetscInt, const PetscReal[]);
PETSC_INTERN PetscErrorCode PPEGrid1dReset(PPEGrid1d *);
PETSC_INTERN PetscErrorCode PPEGrid1dComputeEigenvalues(PPEGrid1d *, PPELocation);
/* Mesh lines n along the kernels' direction d (0 or 1; z has PPEGridSetZLines()): a non-uniform
   x or y that only the library's own grids use (multigrid's coarse levels); before set-up. The
   stencil's constant-coefficient host row loops take the x and y couplings to be the same
   along a row: an operator on such a grid must be given as face arrays (src/mg/mg.c does). */
PETSC_INTERN PetscErrorCode PPEGridSetLinesInternal(PPEGrid, int, PetscInt, const PetscReal[]);
PETSC_INTERN PetscErrorCode PPEGridNumIntervals(PPELocation, PPEBCType, PPEBCType, PetscInt, PetscInt *);
PETSC_INTERN PetscErrorCode PPEGridComputeOperatorBounds(PPEGrid);
PETSC_INTERN PetscErrorCode PPEGridDirection(PPEGrid, PetscInt, PetscInt *);
PETSC_INTERN PetscErrorCode PPEGridUserPoint(PPEGrid, const PetscReal[3], PetscReal[3]);
PETSC_INTERN PetscErrorCode PPEDMDAGetBox(DM, PPEDMDABox *);
PETSC_INTERN PetscErrorCode PPEGridGetBox(PPEGrid, const PPEDMDABox **);
