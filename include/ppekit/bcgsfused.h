/*
   KSP "bcgsfused": right-preconditioned Bi-CGSTAB with fused local work and merged
   reductions (Pennati et al. (2025), Algorithm 3): three global reductions per iteration
   instead of KSPBCGS's four, and a preconditioner that may change between applications. See
   docs/types/bcgsfused.md.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned Bi-CGSTAB
     with alpaka", arXiv:2503.08935, 2025.
*/
#pragma once

#include <petscksp.h>

#define KSPBCGSFUSED "bcgsfused"

PETSC_EXTERN PetscErrorCode KSPCreate_BCGSFused(KSP);
PETSC_EXTERN PetscErrorCode KSPBCGSFusedSetFuse(KSP, PetscBool);
PETSC_EXTERN PetscErrorCode KSPBCGSFusedGetFuse(KSP, PetscBool *);
PETSC_EXTERN PetscErrorCode KSPBCGSFusedGetReductionCount(KSP, PetscInt *);
