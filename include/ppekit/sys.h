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
.  bytes_sent     - bytes sent by this rank through point-to-point and all-to-all messages
.  device_bytes   - bytes moved between host and device memory by this rank on a device back
                    end (copies of vectors both ways, and the scalars the device's reductions
                    return)
-  device_halo_bytes - bytes moved between host and device memory for MPI, which runs on host
                    memory: the halo faces of device-resident vectors and the pencil
                    transposes of PC fftptdma on a device

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
  PetscLogDouble device_bytes;
  PetscLogDouble device_halo_bytes;
} PPECounters;

PETSC_EXTERN PetscErrorCode PPECountersGet(PPECounters *);
PETSC_EXTERN PetscErrorCode PPECountersDiff(const PPECounters *, const PPECounters *, PPECounters *);
PETSC_EXTERN PetscErrorCode PPEKitGetVersion(char[], size_t);

/*E
   PPEBackend - where PPEKit's kernels run

$  PPE_BACKEND_HOST - the host back end (default where no device back end has a device)
$  PPE_BACKEND_CUDA - NVIDIA GPUs (configure --with-cuda)
$  PPE_BACKEND_HIP  - AMD GPUs (configure --with-hip)
$  PPE_BACKEND_EMU  - the device launch code with every GPU thread run by a host loop: the
$                     code path of the device back ends, testable without a GPU (always built)

   Level: intermediate

.seealso: PPEBackendGetDefault(), PPEStencilSetBackend()
E*/
typedef enum {
  PPE_BACKEND_HOST,
  PPE_BACKEND_CUDA,
  PPE_BACKEND_HIP,
  PPE_BACKEND_EMU
} PPEBackend;
PETSC_EXTERN const char *const PPEBackends[];

/*MC
   VECPPEEMU - "ppeemu": a vector whose values live on the emulated device back end
   (PPE_BACKEND_EMU); VECPPECUDA - "ppecuda" and VECPPEHIP - "ppehip": on the CUDA and HIP back
   ends, for a PETSc built without CUDA or HIP (a PETSc with them has VECCUDA and VECHIP, which
   PPEKit uses instead)

   Notes:
   PPEKit's device-resident solves keep their vectors on the device through these types:
   MatCreateVecs() of a MATPPESTENCIL on a device back end gives them. They are standard
   vectors with a device copy: VecCopy(), VecSet(), VecAXPY(), VecAYPX(), VecAXPBY(),
   VecScale(), VecShift(), VecDot(), VecTDot() and VecNorm() (2-norm) run on the device when
   the vectors live there; every other PETSc operation works on the host values, which
   VecGetArray() and its family bring up to date first. VecPlaceArray(), VecReplaceArray() and
   VecResetArray() are not supported.

   Level: intermediate

.seealso: PPEBackend, PPEStencilSetBackend()
M*/
#define VECPPEEMU  "ppeemu"
#define VECPPECUDA "ppecuda"
#define VECPPEHIP  "ppehip"
PETSC_EXTERN PetscErrorCode VecCreate_PPEEmu(Vec);
PETSC_EXTERN PetscErrorCode VecCreate_PPECUDA(Vec);
PETSC_EXTERN PetscErrorCode VecCreate_PPEHIP(Vec);

PETSC_EXTERN PetscErrorCode PPEBackendGetDefault(MPI_Comm, PPEBackend *);
PETSC_EXTERN PetscErrorCode PPEBackendFromString(MPI_Comm, const char[], PPEBackend *);
PETSC_EXTERN PetscErrorCode PPEBackendCheck(MPI_Comm, PPEBackend);
PETSC_EXTERN PetscErrorCode PPEBackendGetDeviceName(PPEBackend, char[], size_t);
