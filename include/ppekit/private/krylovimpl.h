/*
   Private interface of the fused Krylov vector kernels (src/krylov/): Vec-level launchers
   of the single-source bodies in src/kernels/krylov.h, and the merged global reduction.
   Dot products here are local partial sums; PPEKrylovAllreduce() merges one stage's sums
   into a single MPI_Allreduce.
*/
#pragma once

#include <ppekit/private/ppeimpl.h>

PETSC_INTERN PetscErrorCode PPEKrylovLocalDots(Vec, PetscInt, const Vec[], PetscScalar[]);
PETSC_INTERN PetscErrorCode PPEKrylovAllreduce(MPI_Comm, PetscInt, PetscScalar[]);
PETSC_INTERN PetscErrorCode PPEBCGSKernelAxpy(Vec, PetscScalar, Vec);
PETSC_INTERN PetscErrorCode PPEBCGSKernelUpdateX(Vec, PetscScalar, Vec, PetscScalar, Vec);
PETSC_INTERN PetscErrorCode PPEBCGSKernelUpdateR(Vec, PetscScalar, Vec, Vec, PetscScalar[2]);
PETSC_INTERN PetscErrorCode PPEBCGSKernelUpdateP(Vec, PetscScalar, PetscScalar, Vec, Vec);

/* Device-resident iterations (src/krylov/devsolve.c) */
PETSC_INTERN PetscErrorCode PPEKrylovDeviceBegin(KSP, PPEBackend *, const char **);
PETSC_INTERN PetscErrorCode PPEKrylovDeviceAttach(PPEBackend, PetscInt, Vec[]);
PETSC_INTERN PetscErrorCode PPEKrylovDeviceEnd(KSP, PPEBackend);
/* the -ksp_view line of the last solve (solved): device-resident on be, with what crossed per step, or why not */
PETSC_INTERN PetscErrorCode PPEKrylovDeviceView(PetscViewer, PetscBool, PPEBackend, const char *, const char *);
PETSC_INTERN PetscErrorCode PPEKrylovPCApply(PC, Vec, Vec);
