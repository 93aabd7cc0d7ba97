/* HIP back end: src/backend/device/stencil_dev.h compiled by hipcc. */
#define PPE_DEV_HIP 1
#include "../device/stencil_dev.h"
