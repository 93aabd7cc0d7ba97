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

/* The PETSc of this program must be the PETSc PPEKit was built with (ppekitconf.h). */
#if PETSC_VERSION_MAJOR != PPEKIT_PETSC_VERSION_MAJOR || PETSC_VERSION_MINOR != PPEKIT_PETSC_VERSION_MINOR || PETSC_VERSION_SUBMINOR != PPEKIT_PETSC_VERSION_SUBMINOR
  #error "PPEKit was built with another PETSc than the headers of this program: compile and link with `pkg-config --cflags --libs ppekit` alone (its PETSc: PPEKIT_PETSC_PKGCONFIG_DIR in ppekit/ppekitconf.h) or rebuild PPEKit against this PETSc"
#endif
#if defined(PETSC_USE_64BIT_INDICES) != PPEKIT_PETSC_64BIT_INDICES
  #error "PPEKit was built with a PETSc of another index size (PETSC_USE_64BIT_INDICES) than the headers this program is compiled with: use the PETSc in PPEKIT_PETSC_PKGCONFIG_DIR of ppekit/ppekitconf.h"
#endif
#include <ppekit/grid.h>
#include <ppekit/stencil.h>
#include <ppekit/tridiag.h>
#include <ppekit/problem.h>
#include <ppekit/tileilu.h>
#include <ppekit/cbcg.h>
#include <ppekit/fftptdma.h>
#include <ppekit/sys.h>
#include <ppekit/chebyci.h>
#include <ppekit/ppemg.h>
#include <ppekit/bcgsfused.h>

/* Registers every PPEKit type, class and log event. Idempotent; also called
   by the -dll_append entry point PetscDLLibraryRegister_ppekit(). */
PETSC_EXTERN PetscErrorCode PPEKitInitializePackage(void);
PETSC_EXTERN PetscErrorCode PPEKitFinalizePackage(void);
PETSC_EXTERN PetscErrorCode PPEKitRegisterAll(void);
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_ppekit(void);
