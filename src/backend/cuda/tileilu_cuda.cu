/* CUDA back end: src/backend/device/tileilu_dev.h compiled by nvcc. */
#define PPE_DEV_CUDA 1
#include "../device/tileilu_dev.h"
