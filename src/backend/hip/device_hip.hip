/* HIP back end: src/backend/device/device_dev.h compiled by hipcc. */
#define PPE_DEV_HIP 1
#include "../device/device_dev.h"
