/*
   PETSc version compatibility: every difference between the PETSc releases PPEKit supports
   (3.18.x through 3.25.x) that PPEKit's code meets, in one place. The code is written against
   the newest interface; each shim below gives that interface on the older releases, guarded
   by the first release that changed it (PETSc's include/ and doc/changes/ of that release).
   No other file of PPEKit chooses an interface by PETSC_VERSION_* (the public headers keep
   two checks of their own: sys.h's PETSC_SUCCESS for users' code, and ppekit.h's stop when
   a program's PETSc is not the one PPEKit was built with).

   This header includes PETSc headers only, so that the test programs that are not linked
   with libppekit (they play a PETSc application that never heard of PPEKit) can use it too.
*/
#pragma once

#include <petscksp.h>
#include <limits.h>

/* 3.19: PETSC_SUCCESS (3.18 returns a plain 0). The public include/ppekit/sys.h defines it as
   well, for users' code; both definitions are the same. */
#if PETSC_VERSION_LT(3, 19, 0) && !defined(PETSC_SUCCESS)
  #define PETSC_SUCCESS 0
#endif

/* 3.20: PetscAssertPointer() replaces PetscValidPointer() and its typed variants
   (PetscValidIntPointer, PetscValidBoolPointer, PetscValidRealPointer, ...), which are
   deprecated from 3.20 on. The typed variants only added an alignment check. */
#if PETSC_VERSION_LT(3, 20, 0) && !defined(PetscAssertPointer)
  #define PetscAssertPointer(h, arg) PetscValidPointer(h, arg)
#endif

/* 3.22: PCGetFailedReasonRank() is removed; PCGetFailedReason() returns this rank's reason
   (it returned the reason reduced over the communicator before). PPEKit reduces it itself. */
static inline PetscErrorCode PPEPCGetFailedReasonLocal(PC pc, PCFailedReason *reason)
{
#if PETSC_VERSION_LT(3, 22, 0)
  return PCGetFailedReasonRank(pc, reason);
#else
  return PCGetFailedReason(pc, reason);
#endif
}

/* 3.23: PetscOptionItems, the first argument of every XXXSetFromOptions_Type(), changes from
   a struct (passed by address) to a pointer type (passed by value). Declare the argument as
   `PPEOptionItems PetscOptionsObject` and both work with PetscOptionsHeadBegin(). */
#if PETSC_VERSION_LT(3, 23, 0)
typedef PetscOptionItems *PPEOptionItems;
#else
typedef PetscOptionItems PPEOptionItems;
#endif

/* 3.23: context destroy callbacks (PetscCtxDestroyFn: MatShellSetContextDestroy(), ...)
   receive the address of the context, not the context; the argument is declared `void **` in
   3.23 and 3.24, and PetscCtxRt (a `void *` that holds the address) from 3.25 on. Write such
   a callback as
     static PetscErrorCode XDestroy(PPECtxDestroyArg arg) { T *ctx = (T *)PPECtxFromDestroyArg(arg); ... }
   Freeing `arg` itself on 3.23 and later frees the wrong pointer (heap corruption), and from
   3.25 on the compiler cannot tell, since both are `void *`. */
#if PETSC_VERSION_LT(3, 23, 0)
typedef void *PPECtxDestroyArg;
  #define PPECtxFromDestroyArg(arg) (arg)
#elif PETSC_VERSION_LT(3, 25, 0)
typedef void **PPECtxDestroyArg;
  #define PPECtxFromDestroyArg(arg) (*(arg))
#else
typedef PetscCtxRt PPECtxDestroyArg;
  #define PPECtxFromDestroyArg(arg) (*(void **)(arg))
#endif

/* 3.23: a container's destroy callback is set by PetscContainerSetCtxDestroy() (a
   PetscCtxDestroyFn, see PPECtxDestroyArg); PetscContainerSetUserDestroy() before. */
#if PETSC_VERSION_LT(3, 23, 0)
  #define PPEContainerSetDestroy(c, f) PetscContainerSetUserDestroy((c), (f))
#else
  #define PPEContainerSetDestroy(c, f) PetscContainerSetCtxDestroy((c), (f))
#endif

/* 3.23: PetscCIntCast() converts to a C int (sizes and counts handed to FFTW, the device
   launchers, printf) with an error, not a wrap-around, when the value does not fit. */
#if PETSC_VERSION_LT(3, 23, 0)
static inline PetscErrorCode PetscCIntCast(PetscInt64 a, int *b)
{
  PetscFunctionBegin;
  *b = 0;
  PetscCheck(a >= INT_MIN && a <= INT_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt64_FMT " does not fit in a C int", a);
  *b = (int)a;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* 3.24: PetscBool becomes a 1-byte C bool and MPIU_BOOL (the MPI type of a PetscBool) is
   deprecated for MPI_C_BOOL; before 3.24 PetscBool is an enum, reduced as MPIU_BOOL. */
#if PETSC_VERSION_LT(3, 24, 0)
  #define PPE_MPI_BOOL MPIU_BOOL
#else
  #define PPE_MPI_BOOL MPI_C_BOOL
#endif

/* 3.25: PetscErrorMessage() returns the specific message as `const char *` (it was a
   `char *` into PETSc's own storage before). Only the specific message is asked for. */
static inline PetscErrorCode PPEErrorMessage(PetscErrorCode code, const char **specific)
{
#if PETSC_VERSION_LT(3, 25, 0)
  char          *s    = NULL;
  PetscErrorCode ierr = PetscErrorMessage(code, NULL, &s);

  *specific = s;
  return ierr;
#else
  return PetscErrorMessage(code, NULL, specific);
#endif
}

/* 3.25: KSPSetDMActive() takes which uses of the DM to switch (operator, right-hand side,
   initial guess); before, one flag switched all of them. */
static inline PetscErrorCode PPEKSPSetDMActiveAll(KSP ksp, PetscBool flg)
{
#if PETSC_VERSION_LT(3, 25, 0)
  return KSPSetDMActive(ksp, flg);
#else
  return KSPSetDMActive(ksp, KSP_DMACTIVE_ALL, flg);
#endif
}
