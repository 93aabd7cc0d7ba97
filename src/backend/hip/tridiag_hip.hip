/* HIP back end: src/backend/device/tridiag_dev.h compiled by hipcc. */
#define PPE_DEV_HIP 1
#include "../device/tridiag_dev.h"
