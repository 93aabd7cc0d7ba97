#!/bin/sh
# The device transforms of PC fftptdma (emu here: the pre and post passes around FFTW's
# complex DFT; PPE_TEST_BACKEND=cuda|hip under make check-gpu: around cuFFT, VkFFT) against
# FFTW's real transforms: every kind, along x and y, n = 2 to 97.
. "$srcdir/tests/lib.sh"
ppe_run_tap 1 t195-device-fft "$bindir/tests/t195-device-fft" -ppe_backend "${PPE_TEST_BACKEND:-emu}"
tap_done
