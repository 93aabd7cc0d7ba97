/* HIP back end: src/backend/device/tileilu_dev.h compiled by hipcc. */
#define PPE_DEV_HIP 1
#include "../device/tileilu_dev.h"
