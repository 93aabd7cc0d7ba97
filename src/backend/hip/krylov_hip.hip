/* HIP back end: src/backend/device/krylov_dev.h compiled by hipcc. */
#define PPE_DEV_HIP 1
#include "../device/krylov_dev.h"
