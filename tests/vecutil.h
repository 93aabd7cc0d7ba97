/*
   Vector comparisons shared by the test programs. Collective on the vectors' communicator:
   every rank gets the same answer.
*/
#pragma once

#include <petscvec.h>
#include <ppekit/private/petsccompat.h> /* PETSc releases: PPE_MPI_BOOL */
#include <string.h>

/* *rel = ||a - b|| / ||b|| in the given norm (||a - b|| when b = 0) */
static inline PetscErrorCode TestRelDiff(Vec a, Vec b, NormType type, PetscReal *rel)
{
  Vec       w;
  PetscReal d, n;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(a, &w));
  PetscCall(VecWAXPY(w, -1.0, b, a));
  PetscCall(VecNorm(w, type, &d));
  PetscCall(VecNorm(b, type, &n));
  *rel = n > 0 ? d / n : d;
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The same as a value, for use inside expressions (aborts on error) */
static inline PetscReal TestRelDiffNorm(Vec a, Vec b, NormType type)
{
  PetscReal rel = 0;

  PetscCallAbort(PetscObjectComm((PetscObject)a), TestRelDiff(a, b, type, &rel));
  return rel;
}

/* *eq = a and b are equal bit for bit on every rank */
static inline PetscErrorCode TestBitwiseEqual(Vec a, Vec b, PetscBool *eq)
{
  const PetscScalar *x, *y;
  PetscInt           n;
  PetscBool          mine;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(a, &n));
  PetscCall(VecGetArrayRead(a, &x));
  PetscCall(VecGetArrayRead(b, &y));
  mine = (PetscBool)(memcmp(x, y, (size_t)n * sizeof(PetscScalar)) == 0);
  PetscCall(VecRestoreArrayRead(a, &x));
  PetscCall(VecRestoreArrayRead(b, &y));
  PetscCall(MPIU_Allreduce(&mine, eq, 1, PPE_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)a)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
