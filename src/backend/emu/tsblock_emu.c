/* Host emulation of the device back end: src/backend/device/tsblock_dev.h with every GPU thread
   of a launch run by a host loop (-ppe_backend emu). */
#define PPE_DEV_EMU 1
#include "../device/tsblock_dev.h"
