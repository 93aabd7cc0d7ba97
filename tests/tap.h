/*
   TAP helpers for the C tests: every check is collective and prints one line
   on rank 0, "ok - ..." or "not ok - ..."; tests/lib.sh numbers the lines and
   adds the plan.
*/
#pragma once

#include <petscsys.h>
#include <ppekit/private/petsccompat.h> /* PETSc releases: PPE_MPI_BOOL, PPEErrorMessage */
#include <stdarg.h>

static PetscInt tap_failures = 0;

/* printf-checked: a message prints the values a check tests, and the compiler checks their formats */
static PetscErrorCode TapCheck(MPI_Comm comm, PetscBool ok, const char fmt[], ...) PETSC_ATTRIBUTE_FORMAT(3, 4);
static PetscErrorCode TapCheck(MPI_Comm comm, PetscBool ok, const char fmt[], ...)
{
  char      msg[1024];
  size_t    len;
  va_list   ap;
  PetscBool all;

  PetscFunctionBegin;
  va_start(ap, fmt);
  PetscCall(PetscVSNPrintf(msg, sizeof(msg), fmt, &len, ap));
  va_end(ap);
  PetscCall(MPIU_Allreduce(&ok, &all, 1, PPE_MPI_BOOL, MPI_LAND, comm));
  PetscCall(PetscPrintf(comm, "%s - %s\n", all ? "ok" : "not ok", msg));
  if (!all) tap_failures++;
  PetscFunctionReturn(0);
}
