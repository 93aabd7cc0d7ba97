/* Host emulation of the device back end: src/backend/device/fft_dev.h with every GPU thread
   of a launch run by a host loop (-ppe_backend emu). */
#define PPE_DEV_EMU 1
#include "../device/fft_dev.h"
