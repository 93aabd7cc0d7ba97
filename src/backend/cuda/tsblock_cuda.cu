/* CUDA back end: src/backend/device/tsblock_dev.h compiled by nvcc. */
#define PPE_DEV_CUDA 1
#include "../device/tsblock_dev.h"
