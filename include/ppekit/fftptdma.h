/*
   PC "fftptdma" and its public setters.

   PCFFTPTDMA: exact solve of the separable 7-point pressure operator (uniform x and y,
   any z spacing) by real FFTs in x and y and one tridiagonal system per (kx,ky) mode in
   z, on 2D pencils: FFT x on x-pencils, grouped all-to-all transpose, FFT y on y-pencils,
   z solved in place across the z group (P-TDMA or DistD2) or after a transpose to
   z-pencils (local Thomas). See docs/types/fftptdma.md.
*/
#pragma once

#include <petscpc.h>

#define PCFFTPTDMA "fftptdma"

/*E
   PCFFTPTDMAZSolve - how PCFFTPTDMA solves the tridiagonal systems along z

+  PC_FFTPTDMA_ZSOLVE_PTDMA     - in place on the y-pencils across the z group: P-TDMA (reduced systems of 2 pz unknowns)
.  PC_FFTPTDMA_ZSOLVE_TRANSPOSE - transpose y-pencils to z-pencils inside each z group, local Thomas, transpose back
.  PC_FFTPTDMA_ZSOLVE_DISTD2    - in place, DistD2 (neighbour-only 2x2 systems; refused for lines where it is not exact)
-  PC_FFTPTDMA_ZSOLVE_AUTO      - in place: Thomas when pz = 1, else DistD2 where exact and P-TDMA for the other lines (the default, PCFFTPTDMA_DEFAULT_ZSOLVE)

   Level: intermediate

.seealso: PCFFTPTDMA, PCFFTPTDMASetZSolve()
E*/
typedef enum {
  PC_FFTPTDMA_ZSOLVE_PTDMA,
  PC_FFTPTDMA_ZSOLVE_TRANSPOSE,
  PC_FFTPTDMA_ZSOLVE_DISTD2,
  PC_FFTPTDMA_ZSOLVE_AUTO
} PCFFTPTDMAZSolve;
PETSC_EXTERN const char *const PCFFTPTDMAZSolves[];

/*E
   PCFFTPTDMAPlanner - FFTW planner effort used at set-up

+  PC_FFTPTDMA_PLANNER_ESTIMATE - FFTW_ESTIMATE: no measurement, fastest set-up
.  PC_FFTPTDMA_PLANNER_MEASURE  - FFTW_MEASURE: times a few algorithms
.  PC_FFTPTDMA_PLANNER_PATIENT  - FFTW_PATIENT: times many more
-  PC_FFTPTDMA_PLANNER_AUTO     - by problem size (the default, PCFFTPTDMA_DEFAULT_PLANNER): see PCFFTPTDMASetPlanner()

   Level: advanced

.seealso: PCFFTPTDMA, PCFFTPTDMASetPlanner()
E*/
typedef enum {
  PC_FFTPTDMA_PLANNER_ESTIMATE,
  PC_FFTPTDMA_PLANNER_MEASURE,
  PC_FFTPTDMA_PLANNER_PATIENT,
  PC_FFTPTDMA_PLANNER_AUTO
} PCFFTPTDMAPlanner;
PETSC_EXTERN const char *const PCFFTPTDMAPlanners[];

/*E
   PCFFTPTDMADCT - how PCFFTPTDMA computes the DCT/DST kinds of Neumann and Dirichlet directions
+  PC_FFTPTDMA_DCT_AUTO - both timed once at set-up on the actual pencils, the faster kept (the default, PCFFTPTDMA_DEFAULT_DCT)
.  PC_FFTPTDMA_DCT_FFTW - FFTW's r2r kinds (REDFT/RODFT)
-  PC_FFTPTDMA_DCT_FAST - reorder + r2c/c2r + twiddle (Makhoul 1980) with vectorised passes, for the
                          DCT-II/III and DST-II/III kinds (the others stay with FFTW)
   Level: advanced
.seealso: PCFFTPTDMA, PCFFTPTDMASetDCT()
E*/
typedef enum {
  PC_FFTPTDMA_DCT_AUTO,
  PC_FFTPTDMA_DCT_FFTW,
  PC_FFTPTDMA_DCT_FAST
} PCFFTPTDMADCT;
PETSC_EXTERN const char *const PCFFTPTDMADCTs[];

/* Defaults of PCFFTPTDMA's settings, written once: PCCreate_FFTPTDMA() sets them (so that
   -help prints them as the values at creation) and the manual pages name them. The pencil
   grid is automatic and there is no wisdom file by default. */
#define PCFFTPTDMA_DEFAULT_ZSOLVE      PC_FFTPTDMA_ZSOLVE_AUTO
#define PCFFTPTDMA_DEFAULT_PLANNER     PC_FFTPTDMA_PLANNER_AUTO
#define PCFFTPTDMA_DEFAULT_DCT         PC_FFTPTDMA_DCT_AUTO
#define PCFFTPTDMA_DEFAULT_R2C         PETSC_TRUE
#define PCFFTPTDMA_DEFAULT_APPROXIMATE PETSC_FALSE

PETSC_EXTERN PetscErrorCode PCFFTPTDMASetZSolve(PC, PCFFTPTDMAZSolve);
PETSC_EXTERN PetscErrorCode PCFFTPTDMAGetZSolve(PC, PCFFTPTDMAZSolve *);
PETSC_EXTERN PetscErrorCode PCFFTPTDMASetPencilGrid(PC, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode PCFFTPTDMAGetPencilGrid(PC, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode PCFFTPTDMASetApproximate(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCFFTPTDMAGetApproximate(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCFFTPTDMASetPlanner(PC, PCFFTPTDMAPlanner);
PETSC_EXTERN PetscErrorCode PCFFTPTDMAGetPlanner(PC, PCFFTPTDMAPlanner *);
PETSC_EXTERN PetscErrorCode PCFFTPTDMASetWisdomFile(PC, const char[]);
PETSC_EXTERN PetscErrorCode PCFFTPTDMAGetWisdomFile(PC, const char *[]);
PETSC_EXTERN PetscErrorCode PCFFTPTDMASetDCT(PC, PCFFTPTDMADCT);
PETSC_EXTERN PetscErrorCode PCFFTPTDMAGetDCT(PC, PCFFTPTDMADCT *);
PETSC_EXTERN PetscErrorCode PCFFTPTDMASetR2C(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCFFTPTDMAGetR2C(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCFFTPTDMAGetCommCounts(PC, PetscInt *, PetscLogDouble[3], PetscLogDouble[3]);
PETSC_EXTERN PetscErrorCode PCCreate_FFTPTDMA(PC);
