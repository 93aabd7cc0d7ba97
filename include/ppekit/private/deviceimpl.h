/*
   The device back ends as the library sees them: the table of launchers of a back end
   (src/backend/device/device.h) and the calls that check their errors.
*/
#pragma once

#include <ppekit/private/ppeimpl.h>
#include <backend/device/device.h>

/* The table of a device back end (NULL for PPE_BACKEND_HOST), after PPEBackendCheck(). */
PETSC_EXTERN PetscErrorCode PPEBackendGetOps(PPEBackend, const PPEDeviceOps **);
/* The table of a back end by name ("cuda", "hip", "emu"), checked (for tests). */
PETSC_EXTERN PetscErrorCode PPEDeviceOpen(const char[], const PPEDeviceOps **);
/* Bytes moved between host and device memory by this process so far (PPECounters) */
PETSC_INTERN PetscLogDouble PPEDeviceBytes(void);
/* "cuda (device 0: NVIDIA H100 ...)" on a viewer, for the views of the types */
PETSC_EXTERN PetscErrorCode PPEBackendView(PPEBackend, PetscViewer);

/* Check the int returned by a device back end's function. */
#define PPEDeviceCall(ops, expr) \
  do { \
    int ppe_dev_rc_ = (expr); \
    PetscCheck(ppe_dev_rc_ == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "PPEKit %s back end: %s (error %d)", (ops)->name, (ops)->errstr(ppe_dev_rc_), ppe_dev_rc_); \
  } while (0)
