/*
   Private interface of the geometric multigrid hierarchy (src/mg/): coarse grids whose DMDAs
   are aligned with the fine one (each rank owns the parents of its own fine points), the
   coarse operators' face coefficients coarsened from the fine ones, and the piecewise-constant
   transfers between two levels. PC ppemg (plugins/pc/ppemg) is the PETSc glue around PCMG.
*/
#pragma once

#include <ppekit/private/stencilimpl.h>

/* How the face coefficients of a coarse level come from the fine ones. */
typedef enum {
  PPE_MG_COARSEN_HARMONIC, /* harmonic along the face normal (the three fine faces in series), sum across */
  PPE_MG_COARSEN_AVERAGE   /* the fine faces that coincide with the coarse face, summed (no normal averaging) */
} PPEMGCoarsenRule;
PETSC_EXTERN const char *const PPEMGCoarsenRules[];

/* The smallest spacing of a direction: href times the smallest control-volume weight. */
PETSC_INTERN PetscReal PPEMGMinSpacing(const PPEGrid1d *);
/* The extent of a block of m points coarsened by c (1 or 2): pairs, and a lone last point
   where m is odd. */
PETSC_INTERN PetscInt PPEMGCoarseExtent(PetscInt, int);
/* Whether the lone cell of the block of m cells from global index s of direction g, coarsened
   by c, is its first (1) or its last (0): the wider of the two end cells stays alone, so that
   the narrow lone cell of the level above is paired and the widths of a deep hierarchy stay
   within a small factor of each other; 0 where no cell is alone. */
PETSC_INTERN PetscInt PPEMGLoneFirst(const PPEGrid1d *, PetscInt, PetscInt, int);
/* The coarsening plan of a fine grid, at most maxlev grids (the fine one included): below each
   level the strong directions (spacing within sqrt(2) of the smallest; never the kernels' z
   with keepz, which line smoothers solve exactly) are halved, c[l][d] = 2, the others kept,
   c[l][d] = 1, while every rank owns at least 2 points along a halved direction and the global
   size stays at least min_n; the global sizes of the grids in N (may be NULL), their number in
   nlev and the reason coarsening stops there in why. */
PETSC_INTERN PetscErrorCode PPEMGMaxLevels(PPEGrid, PetscBool, PetscInt, PetscInt, int[][3], PetscInt[][3], PetscInt *, char[], size_t);
/* The grid one level coarser: same box, BCs, location, shift; in every rank's block along a
   direction with c[d] = 2 each pair of fine cells is a coarse cell (a lone last cell where the
   block is odd: the spacing becomes non-uniform there), z lines kept from the fine ones; its
   DMDA owned in aligned blocks. */
PETSC_INTERN PetscErrorCode PPEMGGridCoarsen(PPEGrid, const int[3], PPEGrid *);
/* The factor between a fine operator's scaling and its coarse grid's (per halved direction
   href_fine / href_coarse: 1/2 where the blocks halve evenly); the restriction's weight. */
PETSC_INTERN PetscReal PPEMGCoarseScale(PPEGrid, PPEGrid);
/* The z-line smoother's preconditioner: pc becomes a PCSHELL applying T^-1, T the tridiagonal
   part along the kernels' z of its operator (a MATPPESTENCIL): every z line solved exactly by a
   PPETridiag batch on the ranks that share the line; remade from the operator at each set-up. */
PETSC_INTERN PetscErrorCode PPEMGLinePCCreate(PC);
/* The coefficients of coarse operator Ac (MATPPESTENCIL on the coarser grid) from fine operator
   Af: constant on the coarse grid if Af is constant, else the fine face arrays coarsened by the
   rule; in the coarse grid's own scaling (PPEMGCoarseScale: 1/2^c, c the coarsened directions,
   where every block halves evenly). */
PETSC_INTERN PetscErrorCode PPEMGCoarsenOperator(Mat, Mat, PPEMGCoarsenRule);
/* Shell matrices of the transfers between a fine grid and its coarsening: P (fine x coarse,
   piecewise-constant interpolation) and R (coarse x fine, P^T times PPEMGCoarseScale: the
   average of the children, 1/2^c, where every block halves evenly). */
PETSC_INTERN PetscErrorCode PPEMGTransferCreate(PPEGrid, PPEGrid, Mat *, Mat *);
