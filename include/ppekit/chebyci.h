/*
   PC "chebyci": a fixed number of Chebyshev iterations as a linear preconditioner
   (Pennati et al. (2025), Algorithms 2 and 4), in three modes:

     global  G(CI):       the full operator, with halo exchanges
     block   BJ(CI):      the rank-local block, each subdomain with its own eigenvalue bounds,
                          no exchange (block Jacobi whose blocks are solved by CI)
     nocomm  GNoComm(CI): the rank-local block with the global eigenvalue bounds, no exchange

   See docs/types/chebyci.md.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned
     Bi-CGSTAB with alpaka", arXiv:2503.08935, 2025.
*/
#pragma once

#include <petscksp.h>

#define PCCHEBYCI "chebyci"

/*E
   PCChebyCIMode - which operator the Chebyshev iteration applies

+  PC_CHEBYCI_GLOBAL - the full operator (halo exchange every iteration): G(CI)
.  PC_CHEBYCI_BLOCK  - the rank-local block with its own eigenvalue bounds, no exchange: BJ(CI)
-  PC_CHEBYCI_NOCOMM - the rank-local block with the global eigenvalue bounds, no exchange: GNoComm(CI)

   Level: intermediate
E*/
typedef enum {
  PC_CHEBYCI_GLOBAL,
  PC_CHEBYCI_BLOCK,
  PC_CHEBYCI_NOCOMM
} PCChebyCIMode;
PETSC_EXTERN const char *const PCChebyCIModes[];

/*E
   PCChebyCIEigSource - where the eigenvalue bounds come from

+  PC_CHEBYCI_EIG_GRID       - the operator's PPEGrid: exact extremes from the 1D spectra (Pennati et al., eqs. 8-11)
.  PC_CHEBYCI_EIG_GERSHGORIN - the PPEGrid, largest eigenvalue by Gershgorin discs of the 1D operators
.  PC_CHEBYCI_EIG_USER       - given with PCChebyCISetEigenvalues()
-  PC_CHEBYCI_EIG_ESTIMATE   - Lanczos estimates (CG on a random vector), for any matrix

   Level: intermediate
E*/
typedef enum {
  PC_CHEBYCI_EIG_GRID,
  PC_CHEBYCI_EIG_GERSHGORIN,
  PC_CHEBYCI_EIG_USER,
  PC_CHEBYCI_EIG_ESTIMATE
} PCChebyCIEigSource;
PETSC_EXTERN const char *const PCChebyCIEigSources[];

PETSC_EXTERN PetscErrorCode PCCreate_ChebyCI(PC);
PETSC_EXTERN PetscErrorCode PCChebyCISetMode(PC, PCChebyCIMode);
PETSC_EXTERN PetscErrorCode PCChebyCIGetMode(PC, PCChebyCIMode *);
PETSC_EXTERN PetscErrorCode PCChebyCISetIterations(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCChebyCIGetIterations(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCChebyCISetEigSource(PC, PCChebyCIEigSource);
PETSC_EXTERN PetscErrorCode PCChebyCIGetEigSource(PC, PCChebyCIEigSource *);
PETSC_EXTERN PetscErrorCode PCChebyCISetEigenvalues(PC, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode PCChebyCISetEigScale(PC, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode PCChebyCIGetEigScale(PC, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode PCChebyCISetWeighted(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCChebyCIGetWeighted(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCChebyCISetEstimateIterations(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCChebyCISetFuse(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCChebyCISetBlockSteps(PC, PetscInt);
PETSC_EXTERN PetscErrorCode PCChebyCIGetBlockSteps(PC, PetscInt *);
PETSC_EXTERN PetscErrorCode PCChebyCIGetInterval(PC, PetscReal *, PetscReal *, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode PCChebyCIGetApplications(PC, PetscInt *);
