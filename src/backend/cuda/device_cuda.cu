/* CUDA back end: src/backend/device/device_dev.h compiled by nvcc. */
#define PPE_DEV_CUDA 1
#include "../device/device_dev.h"
