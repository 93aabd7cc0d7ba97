/* CUDA back end: src/backend/device/stencil_dev.h compiled by nvcc. */
#define PPE_DEV_CUDA 1
#include "../device/stencil_dev.h"
