/*
   PC "ppemg": geometric multigrid on PPEKit's grid and matrix-free operator (MATPPESTENCIL),
   built on PETSc's PCMG: coarse grids by 2:1 coarsening aligned with the ranks' blocks, coarse
   MATPPESTENCIL operators whose face coefficients come from the fine ones by a rule that
   respects jumps (harmonic along the face normal, summed across), piecewise-constant
   transfers, Chebyshev smoothing (PC chebyci) and a redundant LU of the assembled coarsest
   level. A new density (the time loop) redoes only the coefficient-dependent work.
   See docs/types/ppemg.md.
*/
#pragma once

#include <petscksp.h>

#define PCPPEMG "ppemg"

/*E
   PCPPEMGSmoother - the smoother of every level but the coarsest

+  PC_PPEMG_SMOOTHER_CHEBYCI - PC chebyci (Chebyshev polynomial of the diagonally scaled operator on [lmax/ratio, lmax]), one Richardson step
.  PC_PPEMG_SMOOTHER_JACOBI  - damped Jacobi (weight 2/3), degree Richardson steps
-  PC_PPEMG_SMOOTHER_TILEILU - PC tileilu (block-Jacobi ILU(0) on tiles), degree Richardson steps

   Level: intermediate
E*/
typedef enum {
  PC_PPEMG_SMOOTHER_CHEBYCI,
  PC_PPEMG_SMOOTHER_JACOBI,
  PC_PPEMG_SMOOTHER_TILEILU
} PCPPEMGSmoother;
PETSC_EXTERN const char *const PCPPEMGSmoothers[];

PETSC_EXTERN PetscErrorCode PCCreate_PPEMG(PC);
PETSC_EXTERN PetscErrorCode PCPPEMGSetLevels(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCPPEMGGetLevels(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCPPEMGSetSmoother(PC, PCPPEMGSmoother);
PETSC_EXTERN PetscErrorCode PCPPEMGSetDegree(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCPPEMGGetSetUpTimes(PC, PetscLogDouble *, PetscLogDouble *);
