#!/bin/sh
# PC fftptdma: the description from the grid reproduces the operator; hand-built
# descriptions with identity rows outside the box and a random row scale solve their
# assembled matrix; preonly accuracy <= 1e-10 and ptdma = transpose = auto to 1e-12 over
# every BC pair in x and y, z N/D/P, cell/vertex, uniform/stretched z, 32^3 and 96x64x48,
# process grids with pz > 1. The full 300-case matrix runs on 1 rank, every 5th/10th/25th
# case on 2/4/8 ranks (each on three or four process grids).
. "$srcdir/tests/lib.sh"
stride1=1
[ "$PPE_SANITIZERS" = yes ] && stride1=4
ppe_run_tap 1 t621-pc-fftptdma "$bindir/tests/t621-pc-fftptdma" -stride $stride1 -big 6
ppe_run_tap 2 t621-pc-fftptdma "$bindir/tests/t621-pc-fftptdma" -stride 5 -big 3
ppe_run_tap 4 t621-pc-fftptdma "$bindir/tests/t621-pc-fftptdma" -stride 10 -big 2
ppe_run_tap 8 t621-pc-fftptdma "$bindir/tests/t621-pc-fftptdma" -stride 25 -big 3
tap_done
