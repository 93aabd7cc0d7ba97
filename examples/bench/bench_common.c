/*
   ppe-bench: measurements shared by the benchmark kinds.

   Timing rules (see ../shared/BASELINES.md): compare within one run, alternate the
   variants in every repetition, report the best of -bench_reps repetitions (the least
   disturbed by other tenants of a shared machine), and say how many bytes were assumed.
*/
#include "bench.h"
#include <petscdmda.h>

/* STREAM-like kernels on this rank's arrays; every rank runs them at the same time so the
   bandwidth is the aggregate the ranks share. Returns GB/s (1e9 bytes/s), best of reps,
   counting bytes as STREAM does (copy 16, triad 24 per element) for STREAM's own loops. */
PetscErrorCode PPEBenchStream(MPI_Comm comm, PetscInt n, PetscInt reps, PetscReal *copy_gbs, PetscReal *triad_gbs)
{
  double     *a, *b, *c, s = 3.0;
  PetscReal   tc = PETSC_MAX_REAL, tt = PETSC_MAX_REAL;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  /* three separate allocations: one block would place the arrays at the same cache-set
     offsets and measure conflict misses instead of bandwidth */
  PetscCall(PetscMalloc1(n, &a));
  PetscCall(PetscMalloc1(n, &b));
  PetscCall(PetscMalloc1(n, &c));
  for (PetscInt i = 0; i < n; i++) {
    a[i] = 1.0;
    b[i] = 2.0;
    c[i] = 0.0;
  }
  for (PetscInt r = 0; r < reps; r++) {
    PetscLogDouble t0, t1;
    PetscReal      dt;

    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PetscTime(&t0));
    for (PetscInt i = 0; i < n; i++) c[i] = a[i];
    PetscCall(PetscTime(&t1));
    dt = (PetscReal)(t1 - t0);
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &dt, 1, MPIU_REAL, MPIU_MAX, comm));
    tc = PetscMin(tc, dt);
    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PetscTime(&t0));
    for (PetscInt i = 0; i < n; i++) a[i] = b[i] + s * c[i];
    PetscCall(PetscTime(&t1));
    dt = (PetscReal)(t1 - t0);
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &dt, 1, MPIU_REAL, MPIU_MAX, comm));
    tt = PetscMin(tt, dt);
  }
  /* keep the results alive */
  if (a[n / 2] == -1.0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%g\n", c[n / 3]));
  PetscCall(PetscFree(a));
  PetscCall(PetscFree(b));
  PetscCall(PetscFree(c));
  *copy_gbs  = 16.0 * n * size / tc / 1e9;
  *triad_gbs = 24.0 * n * size / tt / 1e9;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One STREAM copy dst[i] = src[i] of n values on every rank at once (the loop of
   PPEBenchStream: 16 bytes counted per value); *t = time, maximum over ranks. */
PetscErrorCode PPEBenchCopy(MPI_Comm comm, PetscInt n, const PetscScalar *src, PetscScalar *dst, PetscReal *t)
{
  PetscLogDouble t0, t1;
  PetscReal      dt;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  for (PetscInt i = 0; i < n; i++) dst[i] = src[i];
  PetscCall(PetscTime(&t1));
  dt = (PetscReal)(t1 - t0);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &dt, 1, MPIU_REAL, MPIU_MAX, comm));
  *t = dt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Best-of-reps time of one MatMult, maximum over ranks. */
PetscErrorCode PPEBenchTimeMult(Mat A, Vec x, Vec y, PetscReal *best)
{
  PetscLogDouble t0, t1;
  PetscReal      dt;
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);

  PetscFunctionBegin;
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  PetscCall(MatMult(A, x, y));
  PetscCall(PetscTime(&t1));
  dt = (PetscReal)(t1 - t0);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &dt, 1, MPIU_REAL, MPIU_MAX, comm));
  *best = PetscMin(*best, dt);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Spheres of density 1 (radius 0.15 of the box, 8 of them on a fixed lattice with offsets) in
   density ratio: the coefficients of the variable operator. */
PetscErrorCode PPEBenchDensity(PPEGrid grid, PetscReal ratio, Mat A)
{
  DM           da;
  Vec          rho;
  PetscScalar *a;
  PetscInt     s[3], m[3], N[3], l = 0;

  PetscFunctionBegin;
  PetscCall(PPEGridGetDM(grid, &da));
  PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
  PetscCall(DMCreateGlobalVector(da, &rho));
  PetscCall(DMDAGetCorners(da, &s[0], &s[1], &s[2], &m[0], &m[1], &m[2]));
  PetscCall(VecGetArray(rho, &a));
  for (PetscInt k = s[2]; k < s[2] + m[2]; k++)
    for (PetscInt j = s[1]; j < s[1] + m[1]; j++)
      for (PetscInt i = s[0]; i < s[0] + m[0]; i++) {
        PetscReal x[3] = {(i + 0.5) / N[0], (j + 0.5) / N[1], (k + 0.5) / N[2]}, in = 0;
        for (int b = 0; b < 8; b++) {
          PetscReal c[3] = {0.25 + 0.5 * (b & 1) + 0.05 * b / 8.0, 0.25 + 0.5 * ((b >> 1) & 1), 0.25 + 0.5 * ((b >> 2) & 1) - 0.03 * b / 8.0}, d2 = 0;
          for (int d = 0; d < 3; d++) d2 += (x[d] - c[d]) * (x[d] - c[d]);
          if (d2 < 0.15 * 0.15) in = 1;
        }
        a[l++] = in ? 1.0 : ratio;
      }
  PetscCall(VecRestoreArray(rho, &a));
  PetscCall(PPEStencilSetDensity(A, rho));
  PetscCall(VecDestroy(&rho));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* b = the right-hand side of problem type on grid (a vector of its DMDA), with its mean
   removed when the operator is singular (consistent for the Krylov methods). */
PetscErrorCode PPEBenchRHS(PPEProblemType type, PPEGrid grid, Vec b)
{
  Vec       uex;
  PetscBool known, singular;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &uex));
  PetscCall(PPEProblemComputeRHS(type, grid, b, uex, &known));
  PetscCall(VecDestroy(&uex));
  PetscCall(PPEGridIsSingular(grid, &singular));
  if (singular) {
    PetscScalar sum;
    PetscInt    n;
    PetscCall(VecSum(b, &sum));
    PetscCall(VecGetSize(b, &n));
    PetscCall(VecShift(b, -sum / n));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
