/* CUDA back end: src/backend/device/transpose_dev.h compiled by nvcc. */
#define PPE_DEV_CUDA 1
#include "../device/transpose_dev.h"
