/*
   Fast DCT/DST kinds of FFTW's r2r interface (src/fft/fastdct.c): the same numbers as FFTW's
   REDFT10, REDFT01, RODFT10, RODFT01, REDFT11 and RODFT11 (FFTW's unnormalised definitions),
   computed through one real-to-complex (or complex-to-real) FFT of the same length and
   vectorised reorder and twiddle passes (J. Makhoul, "A fast cosine transform in one and two
   dimensions", IEEE Trans. ASSP 28(1), 1980).

   Layout of a batch: 1D transforms of length n along a dimension of stride `is` (in doubles),
   repeated over up to two loops loop[q] = {count, dist} (dist in doubles); the output has the
   layout of the input, and in == out (in place) is allowed. Two layouts are the fast ones:
     contiguous lines  is = 1, loop {L, n}                (x lines of an nx*ny*nz block)
     strided lines     is = nx, loops {nx, 1}, {nz, nx*ny} (y lines of the same block)
*/
#pragma once

#include <fftw3.h>
#include <petscsys.h>
#include <ppekit/private/petsccompat.h> /* PETSC_SUCCESS on PETSc 3.18 */

typedef struct _n_PPEFastR2R *PPEFastR2R;

/* flags: FFTW planner flags of the internal r2c/c2r plans (FFTW_ESTIMATE, FFTW_MEASURE,
   FFTW_PATIENT, optionally | FFTW_WISDOM_ONLY). With FFTW_WISDOM_ONLY and no wisdom for a
   plan, Create returns PETSC_SUCCESS and sets the object to NULL (nothing is allocated). */
PETSC_INTERN PetscErrorCode PPEFastR2RCreate(fftw_r2r_kind, PetscInt, PetscInt, PetscInt, const PetscInt[][2], unsigned, PPEFastR2R *);
PETSC_INTERN PetscErrorCode PPEFastR2RExecute(PPEFastR2R, const double *, double *); /* in may equal out */
PETSC_INTERN PetscErrorCode PPEFastR2RDestroy(PPEFastR2R *);
PETSC_INTERN PetscErrorCode PPEFastR2RSupported(fftw_r2r_kind, PetscBool *);
