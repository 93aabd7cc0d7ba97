/* CUDA back end: src/backend/device/fft_dev.h compiled by nvcc. */
#define PPE_DEV_CUDA 1
#include "../device/fft_dev.h"
