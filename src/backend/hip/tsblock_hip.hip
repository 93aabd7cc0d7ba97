/* HIP back end: src/backend/device/tsblock_dev.h compiled by hipcc. */
#define PPE_DEV_HIP 1
#include "../device/tsblock_dev.h"
