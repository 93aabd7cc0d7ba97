/*
   PC "ppemg": geometric multigrid on PPEKit's grid and matrix-free operator (MATPPESTENCIL),
   built on PETSc's PCMG: coarse grids by 2:1 coarsening of the strongly coupled directions,
   aligned with the ranks' blocks, coarse
   MATPPESTENCIL operators whose face coefficients come from the fine ones by a rule that
   respects jumps (harmonic along the face normal, summed across), piecewise-constant
   transfers, Chebyshev smoothing (PC chebyci, or z-line Jacobi on wall-stretched grids) and a
   redundant LU of the assembled coarsest
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
.  PC_PPEMG_SMOOTHER_TILEILU - PC tileilu (block-Jacobi ILU(0) on tiles), degree Richardson steps
.  PC_PPEMG_SMOOTHER_ZLINE   - Chebyshev (KSPCHEBYSHEV, degree steps on [2/ratio, 2]) preconditioned by z-line Jacobi (every z line solved exactly); x and y coarsened, z kept
-  PC_PPEMG_SMOOTHER_AUTO    - zline where some z spacing is smaller than the x and y spacings by more than 1.5 (wall-stretched grids), else chebyci (the default)

   Level: intermediate
E*/
typedef enum {
  PC_PPEMG_SMOOTHER_CHEBYCI,
  PC_PPEMG_SMOOTHER_JACOBI,
  PC_PPEMG_SMOOTHER_TILEILU,
  PC_PPEMG_SMOOTHER_ZLINE,
  PC_PPEMG_SMOOTHER_AUTO
} PCPPEMGSmoother;
PETSC_EXTERN const char *const PCPPEMGSmoothers[];

PETSC_EXTERN PetscErrorCode PCCreate_PPEMG(PC);
PETSC_EXTERN PetscErrorCode PCPPEMGSetLevels(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCPPEMGGetLevels(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCPPEMGSetSmoother(PC, PCPPEMGSmoother);
PETSC_EXTERN PetscErrorCode PCPPEMGGetSmoother(PC, PCPPEMGSmoother *);
PETSC_EXTERN PetscErrorCode PCPPEMGSetDegree(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCPPEMGGetDegree(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCPPEMGGetMG(PC, PC *);
PETSC_EXTERN PetscErrorCode PCPPEMGGetSetUpTimes(PC, PetscLogDouble *, PetscLogDouble *);
