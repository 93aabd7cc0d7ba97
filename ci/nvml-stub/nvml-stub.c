/* nvml-stub.c: libnvidia-ml.so for machines without a GPU driver (see nvml.h beside it).
   Built by ci/petsc-vendor.sh --cuda with the soname of the driver's library,
   libnvidia-ml.so.1, so that a PETSc linked against it loads and runs on a CPU-only
   machine; every call reports that no driver is loaded, so nothing here can pass for a
   GPU. On a machine with the driver, its own libnvidia-ml.so.1 is found first (the stub
   is only on LD_LIBRARY_PATH when a script puts it there). */
#include "nvml.h"

#include <stddef.h>

nvmlReturn_t nvmlInit_v2(void)
{
  return NVML_ERROR_DRIVER_NOT_LOADED;
}

nvmlReturn_t nvmlShutdown(void)
{
  return NVML_ERROR_UNINITIALIZED;
}

const char *nvmlErrorString(nvmlReturn_t result)
{
  switch (result) {
  case NVML_SUCCESS:
    return "Success";
  case NVML_ERROR_UNINITIALIZED:
    return "Uninitialized";
  case NVML_ERROR_DRIVER_NOT_LOADED:
    return "Driver Not Loaded (PPEKit's NVML stub: no GPU driver on this machine)";
  default:
    return "Unknown Error (PPEKit's NVML stub)";
  }
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
  (void)index;
  if (device) *device = NULL;
  return NVML_ERROR_UNINITIALIZED;
}

nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int valuesCount, nvmlFieldValue_t *values)
{
  (void)device;
  for (int i = 0; values && i < valuesCount; i++) values[i].nvmlReturn = NVML_ERROR_UNINITIALIZED;
  return NVML_ERROR_UNINITIALIZED;
}

nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device, unsigned long long *energy)
{
  (void)device;
  if (energy) *energy = 0;
  return NVML_ERROR_UNINITIALIZED;
}
