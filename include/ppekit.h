/*
   PPEKit: pressure-Poisson solvers for PETSc.

   Include this header, call PPEKitInitializePackage() once after
   PetscInitialize() (or start an unmodified PETSc program with
   -dll_append <libdir>/libppekit.so), then pick the package's types with the
   usual options (-ksp_type, -pc_type, -mat_type).
*/
#pragma once

#include <petscksp.h>
#include <petscdmda.h>
#include <ppekit/ppekitconf.h>
#include <ppekit/grid.h>
#include <ppekit/stencil.h>
#include <ppekit/tridiag.h>
#include <ppekit/problem.h>
#include <ppekit/tileilu.h>
#include <ppekit/fftptdma.h>
#include <ppekit/sys.h>
#include <ppekit/chebyci.h>
#include <ppekit/bcgsfused.h>

/* Registers every PPEKit type, class and log event. Idempotent; also called
   by the -dll_append entry point PetscDLLibraryRegister_ppekit(). */
PETSC_EXTERN PetscErrorCode PPEKitInitializePackage(void);
PETSC_EXTERN PetscErrorCode PPEKitFinalizePackage(void);
PETSC_EXTERN PetscErrorCode PPEKitRegisterAll(void);
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_ppekit(void);
