/* HIP back end: src/backend/device/fft_dev.h compiled by hipcc. */
#define PPE_DEV_HIP 1
#include "../device/fft_dev.h"
