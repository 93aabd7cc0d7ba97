/* CUDA back end: src/backend/device/krylov_dev.h compiled by nvcc. */
#define PPE_DEV_CUDA 1
#include "../device/krylov_dev.h"
