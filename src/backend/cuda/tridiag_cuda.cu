/* CUDA back end: src/backend/device/tridiag_dev.h compiled by nvcc. */
#define PPE_DEV_CUDA 1
#include "../device/tridiag_dev.h"
