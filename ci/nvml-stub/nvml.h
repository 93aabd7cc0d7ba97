/* nvml.h: a build-time stand-in for the NVIDIA Management Library's header, for building
   PETSc with CUDA on a machine without a GPU driver (ci/petsc-vendor.sh --cuda).

   PETSc 3.25's CUDA support includes <nvml.h> in petscdevice_cuda.h and links
   libnvidia-ml (device start-up, GPU power and energy logging). Both come with the GPU
   driver's development files, which neither Debian main nor the CUDA toolkit in
   /usr/local/cuda provides on our machines. This header declares only what PETSc uses,
   with NVML's published types, values and versioned entry points, so that an object
   compiled against it calls the real library correctly where one is installed; the
   library built beside it (nvml-stub.c) answers every call with "driver not loaded". */
#ifndef PPE_NVML_STUB_H
#define PPE_NVML_STUB_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nvmlReturn_enum {
  NVML_SUCCESS                  = 0,
  NVML_ERROR_UNINITIALIZED      = 1,
  NVML_ERROR_INVALID_ARGUMENT   = 2,
  NVML_ERROR_NOT_SUPPORTED      = 3,
  NVML_ERROR_DRIVER_NOT_LOADED  = 9,
  NVML_ERROR_LIBRARY_NOT_FOUND  = 12,
  NVML_ERROR_FUNCTION_NOT_FOUND = 13,
  NVML_ERROR_UNKNOWN            = 999
} nvmlReturn_t;

typedef struct nvmlDevice_st *nvmlDevice_t;

typedef enum nvmlValueType_enum {
  NVML_VALUE_TYPE_DOUBLE             = 0,
  NVML_VALUE_TYPE_UNSIGNED_INT       = 1,
  NVML_VALUE_TYPE_UNSIGNED_LONG      = 2,
  NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3,
  NVML_VALUE_TYPE_SIGNED_LONG_LONG   = 4,
  NVML_VALUE_TYPE_SIGNED_INT         = 5
} nvmlValueType_t;

typedef union nvmlValue_st
{
  double             dVal;
  int                siVal;
  unsigned int       uiVal;
  unsigned long      ulVal;
  unsigned long long ullVal;
  signed long long   sllVal;
  unsigned short     usVal;
} nvmlValue_t;

typedef struct nvmlFieldValue_st {
  unsigned int    fieldId;
  unsigned int    scopeId;
  long long       timestamp;
  long long       latencyUsec;
  nvmlValueType_t valueType;
  nvmlReturn_t    nvmlReturn;
  nvmlValue_t     value;
} nvmlFieldValue_t;

/* the field PETSc reads for -log_view_gpu_energy: instantaneous power draw, milliwatts */
#define NVML_FI_DEV_POWER_INSTANT 186

nvmlReturn_t nvmlInit_v2(void);
nvmlReturn_t nvmlShutdown(void);
const char  *nvmlErrorString(nvmlReturn_t result);
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device);
nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int valuesCount, nvmlFieldValue_t *values);
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device, unsigned long long *energy);

/* the unversioned names map to the current entry points, as in NVML's own header */
#define nvmlInit                   nvmlInit_v2
#define nvmlDeviceGetHandleByIndex nvmlDeviceGetHandleByIndex_v2

#ifdef __cplusplus
}
#endif
#endif
