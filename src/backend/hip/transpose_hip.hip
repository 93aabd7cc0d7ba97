/* HIP back end: src/backend/device/transpose_dev.h compiled by hipcc. */
#define PPE_DEV_HIP 1
#include "../device/transpose_dev.h"
