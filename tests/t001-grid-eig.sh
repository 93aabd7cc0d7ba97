#!/bin/sh
# Grid eigenvalues vs LAPACK (1 rank).
. "$srcdir/tests/lib.sh"
ppe_run_tap 1 t001-grid-eig "$bindir/tests/t001-grid-eig"
tap_done
