/*
   Private interface of the fused Krylov vector kernels (src/krylov/): Vec-level launchers
   of the single-source bodies in src/kernels/krylov.h through the table of the back end where
   the vectors live, the merged global reduction, and the vectors of a Krylov iteration on the
   back end where it runs (src/krylov/devsolve.c). Dot products here are local partial sums;
   PPEKrylovAllreduce() merges one stage's sums into a single MPI_Allreduce.
*/
#pragma once

#include <ppekit/private/ppeimpl.h>
#include <ppekit/private/backendimpl.h>

/* The arrays of a kernel call's vectors on the back end they share (src/krylov/bcgskernels.c) */
PETSC_INTERN PetscErrorCode PPEKrylovArraysGet(PetscInt, const Vec[], const PPEAccess[], PPEAccess, PPEArrays *, PetscInt *);
PETSC_INTERN PetscErrorCode PPEKrylovArraysRestore(PPEArrays *, PetscLogDouble);

PETSC_INTERN PetscErrorCode PPEKrylovLocalDots(Vec, PetscInt, const Vec[], PetscScalar[]);
PETSC_INTERN PetscErrorCode PPEKrylovLocalSum(Vec, PetscScalar *);
PETSC_INTERN PetscErrorCode PPEKrylovAllreduce(MPI_Comm, PetscInt, PetscScalar[]);
PETSC_INTERN PetscErrorCode PPEBCGSKernelAxpy(Vec, PetscScalar, Vec);
PETSC_INTERN PetscErrorCode PPEBCGSKernelUpdateR(Vec, PetscScalar, Vec, Vec, PetscScalar[2]);
typedef enum {
  PPE_BCGS_UPDATE_X, /* KernelBiCGS4: x <- x + alpha ph + omega rh */
  PPE_BCGS_UPDATE_P  /* KernelBiCGS6: p <- r + beta (p - omega w) */
} PPEBCGSUpdate;
PETSC_INTERN PetscErrorCode PPEBCGSKernelUpdate(PPEBCGSUpdate, Vec, PetscScalar, PetscScalar, Vec, Vec);

/*S
   PPEKrylovVecs - the vectors a Krylov iteration of KSP cbcg or bcgsfused runs on, on the back
   end where it runs (src/krylov/devsolve.c): the operator's back end when the operator is a
   MATPPESTENCIL there and the preconditioner runs there too, else the host. The user's b and
   x and the KSP's work vectors are used where they live on that back end (on the host
   standard vectors do); otherwise internal vectors made there once take their place: b is
   copied in at the start of a solve, x in too (or zeroed there for a zero initial guess) and
   out at the end. Only the numbers of the reductions come back in between.
S*/
typedef struct {
  PPEBackend  b;      /* back end of the last solve's iteration */
  const char *why;    /* why it was not a device back end (NULL: it was) */
  PetscBool   solved; /* a solve was made */
  Vec         x;      /* during a solve: the iterate (the user's x or xi); NULL outside */
  Vec         rhs;    /* during a solve: the right-hand side (the user's b or bi) */
  Vec        *work;   /* during a solve: the work vectors (the KSP's or wi) */
  Vec         xi, bi; /* internal x and b on the iteration's back end (made at the first use) */
  Vec        *wi;     /* internal work vectors there ... */
  PetscInt    nwi;    /* ... and their number */
} PPEKrylovVecs;

PETSC_INTERN PetscErrorCode PPEKrylovVecsBegin(KSP, PPEKrylovVecs *);
PETSC_INTERN PetscErrorCode PPEKrylovVecsEnd(KSP, PPEKrylovVecs *);
PETSC_INTERN PetscErrorCode PPEKrylovVecsReset(PPEKrylovVecs *);
/* the solution as it stands: the iterate during a solve (KSPBuildSolution of the types) */
PETSC_INTERN PetscErrorCode PPEKrylovVecsBuildSolution(KSP, const PPEKrylovVecs *, Vec, Vec *);
/* the -ksp_view line of the last solve: where it iterated, with what crossed per step (text), or why not a device */
PETSC_INTERN PetscErrorCode PPEKrylovVecsView(PetscViewer, const PPEKrylovVecs *, const char *);
