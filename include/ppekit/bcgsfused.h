/*
   KSP "bcgsfused": right-preconditioned Bi-CGSTAB with fused local work and merged
   reductions (paper 002, Algorithm 3): three global reductions per iteration instead of
   KSPBCGS's four, and a preconditioner that may change between applications. See
   docs/types/bcgsfused.md.
*/
#pragma once

#include <petscksp.h>

#define KSPBCGSFUSED "bcgsfused"

PETSC_EXTERN PetscErrorCode KSPCreate_BCGSFused(KSP);
PETSC_EXTERN PetscErrorCode KSPBCGSFusedSetFuse(KSP, PetscBool);
PETSC_EXTERN PetscErrorCode KSPBCGSFusedGetFuse(KSP, PetscBool *);
PETSC_EXTERN PetscErrorCode KSPBCGSFusedGetReductionCount(KSP, PetscInt *);
