/*
   PPETridiag: batches of independent tridiagonal systems split along a communicator.

   A batch holds nsys systems ("lines") of global length n. Rank r of the batch's
   communicator (the z group: the ranks that share an (i,j) column of a DMDA, ordered
   along z; one rank allowed) owns the r-th block of m >= 2 consecutive rows of every
   line (m may differ between ranks). Row k of this rank's block of line s reads

       a_k x_{k-1} + (b_k + shift_s w_k) x_k + c_k x_{k+1} = d_k,

   with coefficients set once (shared by all lines, or per line), an optional per-line
   shift times per-row weights (the lambda_x + lambda_y + sigma of an FFT-based Poisson
   solve, Diez, Peeters and Costa (2025), eq. 12), optionally periodic (a_0 of global row 0 couples x_{n-1},
   c_{n-1} of global row n-1 couples x_0). Only d changes from one solve to the next.

   Methods (PPETridiagSetMethod, -ppe_tridiag_method):
     thomas  the whole line on one rank: Thomas, or periodic Thomas (Sherman-Morrison);
     ptdma   local reduction to 2 boundary unknowns per line and rank, one all-to-all
             that gives each rank its share of the reduced systems (2P unknowns each),
             reduced solve, the solutions sent back, local reconstruction (P-TDMA of
             Diez, Peeters and Costa (2025), Algorithms 1-2);
     distd2  the same local reduction, then neighbour-only 2x2 systems across each rank
             boundary, for lines whose dropped couplings are below the unit roundoff
             (Akkurt et al. (2025), Algorithms 5-7); refused with an error for lines where
             they are not;
     auto    thomas on one rank; otherwise distd2 for every line where it is exact and
             ptdma for the others.

   Layouts: natural (element (s,k) at d[s*ls + k*ks]; default ls = 1, ks = nsys: the z
   lines of a DMDA-ordered local array) and SZ-packed (PPE_TRIDIAG_SZ lines interleaved:
   element (s,k) at dp[((s/SZ)*m + k)*SZ + s%SZ]), with PPETridiagPack/Unpack.

   Singular lines (for example the zero mode of an all-Neumann/periodic Poisson problem)
   are solved on purpose by pinning: PPETridiagSetPinnedLines() sets the last global
   unknown of such a line to zero and drops the last row (exact when the right-hand side
   is consistent). Any other zero pivot is an error.

   See docs/tridiag.md.

   References:
     R. Diez, J. Peeters and P. Costa, "A pencil-distributed finite-difference solver for
     extreme-scale calculations of turbulent wall flows at high Reynolds number",
     arXiv:2502.06296, 2025.
     S. Akkurt, S. Lemaire, P. Bartholomew and S. Laizet, "A distributed-memory tridiagonal
     solver based on a specialised data structure optimised for CPU and GPU architectures",
     Computer Physics Communications, 2025 (arXiv:2411.13532).
*/
#pragma once

#include <ppekit/sys.h>

#include <petscsys.h>
#include <petscviewer.h>
#include <ppekit/grid.h>

/* Lines interleaved in the packed layout (doubles): one AVX-512 register, two AVX2 ones. */
#define PPE_TRIDIAG_SZ 8

typedef struct _p_PPETridiag *PPETridiag;

PETSC_EXTERN PetscClassId PPETRIDIAG_CLASSID;

/*E
   PPETridiagMethod - how the lines of a batch are solved

+  PPE_TRIDIAG_THOMAS - Thomas algorithm (periodic: Sherman-Morrison); one-rank batches only
.  PPE_TRIDIAG_PTDMA  - P-TDMA: local reduction, one all-to-all of 2 values per line and rank, reduced solve, reconstruction
.  PPE_TRIDIAG_DISTD2 - DistD2: local reduction, neighbour-only 2x2 systems; diagonally dominant lines only
-  PPE_TRIDIAG_AUTO   - thomas on one rank, else distd2 where exact and ptdma elsewhere

   Level: beginner
E*/
typedef enum {
  PPE_TRIDIAG_THOMAS,
  PPE_TRIDIAG_PTDMA,
  PPE_TRIDIAG_DISTD2,
  PPE_TRIDIAG_AUTO
} PPETridiagMethod;
PETSC_EXTERN const char *const PPETridiagMethods[];

PETSC_EXTERN PetscErrorCode PPETridiagCreate(MPI_Comm, PPETridiag *);
PETSC_EXTERN PetscErrorCode PPETridiagDestroy(PPETridiag *);
PETSC_EXTERN PetscErrorCode PPETridiagSetSizes(PPETridiag, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode PPETridiagGetSizes(PPETridiag, PetscInt *, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode PPETridiagSetNaturalLayout(PPETridiag, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode PPETridiagSetPeriodic(PPETridiag, PetscBool);
PETSC_EXTERN PetscErrorCode PPETridiagSetCoefficients(PPETridiag, const PetscReal[], const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode PPETridiagSetLineCoefficients(PPETridiag, const PetscReal[], const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode PPETridiagSetShift(PPETridiag, const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode PPETridiagSetPinnedLines(PPETridiag, PetscInt, const PetscInt[]);
PETSC_EXTERN PetscErrorCode PPETridiagSetZOperator(PPETridiag, PPEGrid, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode PPETridiagSetMethod(PPETridiag, PPETridiagMethod);
PETSC_EXTERN PetscErrorCode PPETridiagGetMethod(PPETridiag, PPETridiagMethod *);
PETSC_EXTERN PetscErrorCode PPETridiagSetPrecompute(PPETridiag, PetscBool);
PETSC_EXTERN PetscErrorCode PPETridiagGetPrecompute(PPETridiag, PetscBool *);
PETSC_EXTERN PetscErrorCode PPETridiagSetOptionsPrefix(PPETridiag, const char[]);
PETSC_EXTERN PetscErrorCode PPETridiagSetFromOptions(PPETridiag);
PETSC_EXTERN PetscErrorCode PPETridiagSetUp(PPETridiag);
PETSC_EXTERN PetscErrorCode PPETridiagView(PPETridiag, PetscViewer);
PETSC_EXTERN PetscErrorCode PPETridiagViewFromOptions(PPETridiag, PetscObject, const char[]);

PETSC_EXTERN PetscErrorCode PPETridiagSolve(PPETridiag, PetscScalar[]);
PETSC_EXTERN PetscErrorCode PPETridiagSolvePacked(PPETridiag, PetscScalar[]);
PETSC_EXTERN PetscErrorCode PPETridiagGetPackedSize(PPETridiag, PetscInt *);
PETSC_EXTERN PetscErrorCode PPETridiagPack(PPETridiag, const PetscScalar[], PetscScalar[]);
PETSC_EXTERN PetscErrorCode PPETridiagUnpack(PPETridiag, const PetscScalar[], PetscScalar[]);

PETSC_EXTERN PetscErrorCode PPETridiagGetLineMethods(PPETridiag, PetscInt *, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode PPETridiagGetCommCounts(PPETridiag, PetscInt *, PetscLogDouble *, PetscLogDouble *);
PETSC_EXTERN PetscErrorCode PPETridiagResetCommCounts(PPETridiag);
PETSC_EXTERN PetscErrorCode PPETridiagGetCommModel(PPETridiag, PetscLogDouble *, PetscLogDouble *);
PETSC_EXTERN PetscErrorCode PPETridiagSetBackend(PPETridiag, PPEBackend);
