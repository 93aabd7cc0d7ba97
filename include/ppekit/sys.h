/*
   PPEKit system utilities: version, communication counters.
*/
#pragma once

#include <petscsys.h>

/* PETSc 3.18 (Debian 12) predates PETSC_SUCCESS (3.19); code using PPEKit may write it. */
#if PETSC_VERSION_LT(3, 19, 0) && !defined(PETSC_SUCCESS)
  #define PETSC_SUCCESS 0
#endif

/*S
   PPECounters - cumulative communication counts of this MPI rank

   Fields:
+  reductions     - global collective operations (MPI_Allreduce, MPI_Bcast, all-to-all, ...)
                    on communicators of more than one rank, as counted by PETSc's logging
.  halo_exchanges - ghost updates: VecScatter and PetscSF broadcasts/reductions started
                    (DMGlobalToLocal, MPIAIJ MatMult, the matrix-free stencil's halo exchange)
-  bytes_sent     - bytes sent by this rank through point-to-point and all-to-all messages

   Notes:
   The halo count needs PETSc's default log handler (started by PetscLogDefaultBegin()
   or -log_view); without it halo_exchanges stays 0. Take differences of two snapshots
   to measure a phase.

   Level: intermediate
S*/
typedef struct {
  PetscLogDouble reductions;
  PetscLogDouble halo_exchanges;
  PetscLogDouble bytes_sent;
} PPECounters;

PETSC_EXTERN PetscErrorCode PPECountersGet(PPECounters *);
PETSC_EXTERN PetscErrorCode PPECountersDiff(const PPECounters *, const PPECounters *, PPECounters *);
PETSC_EXTERN PetscErrorCode PPEKitGetVersion(char[], size_t);
