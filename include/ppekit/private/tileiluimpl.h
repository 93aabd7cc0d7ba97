/*
   Private layout of the tile ILU(0) preconditioner (PC tileilu): the tiling of the rank's
   box, the factors in the xyz or zyx layout, and the back-end entry points. The numerics
   (src/tileilu/, the launchers of the back ends' tables) can be used without a PC.
*/
#pragma once

#include <ppekit/private/gridimpl.h>
#include <ppekit/private/backendimpl.h>
#include <kernels/tileilu.h>

/* Where the coefficients of the operator come from: the grid of a matrix-free operator, or
   the rows of an assembled matrix on a DMDA. */
typedef struct {
  PPEGrid      grid;   /* matrix-free operator: the grid's 1D tables (NULL otherwise) */
  ppe_s7_faces K;      /* and its face coefficients over the box (K.x NULL: constant coefficients) */
  Mat          mat;    /* assembled operator: its local diagonal block, read by rows (NULL otherwise) */
  PetscInt     s[3];   /* global index of the first owned point */
  PetscInt     m[3];   /* extent of the local box */
  PetscInt     N[3];   /* global sizes */
  PetscBool    per[3]; /* periodic directions (a wrap coupling is a 7-point neighbour too) */
  PetscInt     dim;    /* 2: a 2D operator on its 3D box nx x 1 x ny (user's y = direction 2), else 3 */
} PPETileILUSource;

/* The factorised preconditioner on one rank. */
typedef struct {
  PCTileILULayout layout;
  PetscInt        dim;     /* 2: the tiles are tx x 1 x ty on the 3D box of a 2D operator, else 3 */
  PetscInt        box[3];  /* extent of the local box (xm, ym, zm) */
  PetscInt        tile[3]; /* tile shape used: the requested one clamped to the box */
  PetscInt        nt[3];   /* tiles per direction; the last ones may be smaller */
  PetscInt        ntiles;  /* nt[0] nt[1] nt[2] */
  PetscInt        nedge;   /* tiles smaller than the tile shape */
  PetscInt        npos;    /* points of a full tile */
  PetscInt        nloc;    /* points of the box */
  PetscInt        lanes;   /* zyx: tiles per group (PPE_TILEILU_SZ, fewer if the box has fewer tiles) */
  PetscInt        ngroups; /* zyx: groups of lanes tiles; the last one may have empty lanes */
  PetscBool       fused;   /* zyx: gather, sweep and scatter chunk by chunk (else three passes) */
  PetscInt        chunk;   /* zyx: groups gathered together (consecutive groups of one tile row, or 1) */
  PetscBool       sym;     /* the operator restricted to every tile is symmetric: 4 kinds stored */
  PetscInt        nc;      /* kinds of factor values stored per point (7, or 4 when sym) */
  double         *f;       /* factors: xyz [kind][nloc], zyx [group][q][kind][lane] */
  double         *ft;      /* factors of M^T in the same layout (not sym), built at the first transposed apply */
  double         *v;       /* zyx: packed values, [group][q][lane] (one chunk when fused); NULL for xyz */
  size_t          nf;      /* doubles in f (and in ft) */
  size_t          nv;      /* doubles in v */
  PPEBackend      backend; /* where the applications run */
  /* the applications' arrays in the memory of the back end (set-up): on the host its own
     arrays, on a device copies of the factors and the packed values' work */
  const PPEBackendOps *ops;      /* the back end's table */
  void                *stream;   /* its stream of vector operations */
  ppe_dev_tiles        tiles;    /* the tiling as the launchers take it */
  PetscBool            fusedrun; /* zyx: the fused apply runs (fused, and the back end has it) */
  double              *fb, *ftb; /* f and ft in the back end's memory */
  double              *vb;       /* zyx: v in the back end's memory (one chunk when fusedrun, else every group) */
} PPETileILU;

/* The directions a user names on the box of an operator of dimension dim, and how many: x, y,
   z of a 3D box; x and y of a 2D one, whose box is nx x 1 x ny (its y is the box's direction
   2); dir[nd] is then the box's direction of extent 1. dim 0 (not set up yet) counts as 3. */
static inline int PPETileILUUserDirs(PetscInt dim, int dir[3])
{
  static const int dirs[4][3] = {
    {0, 1, 2},
    {0, 1, 2},
    {0, 2, 1},
    {0, 1, 2}
  };

  for (int i = 0; i < 3; i++) dir[i] = dirs[dim][i];
  return dim ? (int)dim : 3;
}

/* "v x v (x v)", the entries of v in the user's directions; with lo, the ranges "lo..v". */
PETSC_INTERN PetscErrorCode PPETileILUFormat(PetscInt, const PetscInt[], const PetscInt[3], char[], size_t);

PETSC_INTERN PetscErrorCode PPETileILUSourceCreate(Mat, DM, PPETileILUSource *);
PETSC_INTERN PetscErrorCode PPETileILUSourceGetRow(const PPETileILUSource *, PetscInt, PetscInt, PetscInt, double[7], char[], size_t);
PETSC_INTERN PetscErrorCode PPETileILUSourcePoint(const PPETileILUSource *, PetscInt, PetscInt, PetscInt, char[], size_t);
PETSC_INTERN PetscErrorCode PPETileILUSetUp(PPETileILU *, const PPETileILUSource *, const PetscInt[3], PCTileILULayout, PetscBool, PPEBackend, MPI_Comm);
PETSC_INTERN PetscErrorCode PPETileILUApply(PPETileILU *, PetscBool, const double *, double *);
PETSC_INTERN PetscErrorCode PPETileILUReset(PPETileILU *);
PETSC_INTERN size_t         PPETileILUMemory(const PPETileILU *);
