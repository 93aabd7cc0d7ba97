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
/* The coarsening plan of a fine grid, at most maxlev grids (the fine one included): below each
   level the strong directions (spacing within sqrt(2) of the smallest; never the kernels' z
   with keepz, which line smoothers solve exactly) are halved, c[l][d] = 2, the others kept,
   c[l][d] = 1, while every rank's extent along a halved direction stays even and the global size
   at least min_n; the number of grids in nlev and the reason coarsening stops there in why. */
PETSC_INTERN PetscErrorCode PPEMGMaxLevels(PPEGrid, PetscBool, PetscInt, PetscInt, int[][3], PetscInt *, char[], size_t);
/* The grid one level coarser: same box, BCs, location, shift; the points of direction d divided
   by c[d] (1 or 2), z lines every c[2]-th fine one; its DMDA owned in aligned blocks. */
PETSC_INTERN PetscErrorCode PPEMGGridCoarsen(PPEGrid, const int[3], PPEGrid *);
/* The z-line smoother's preconditioner: pc becomes a PCSHELL applying T^-1, T the tridiagonal
   part along the kernels' z of its operator (a MATPPESTENCIL): every z line solved exactly by a
   PPETridiag batch on the ranks that share the line; remade from the operator at each set-up. */
PETSC_INTERN PetscErrorCode PPEMGLinePCCreate(PC);
/* The coefficients of coarse operator Ac (MATPPESTENCIL on the coarser grid) from fine operator
   Af: constant on the coarse grid if Af is constant, else the fine face arrays coarsened by the
   rule; in the coarse grid's own scaling (divided by 2^c, c the coarsened directions). */
PETSC_INTERN PetscErrorCode PPEMGCoarsenOperator(Mat, Mat, PPEMGCoarsenRule);
/* Shell matrices of the transfers between a fine grid and its coarsening: P (fine x coarse,
   piecewise-constant interpolation) and R (coarse x fine, the average of the children: P^T/2^c). */
PETSC_INTERN PetscErrorCode PPEMGTransferCreate(PPEGrid, PPEGrid, Mat *, Mat *);
