/*
   ppe-bench: measurements shared by the benchmark kinds.

   Timing rules (see ../shared/BASELINES.md): compare within one run, alternate the
   variants in every repetition, report the best of -bench_reps repetitions (the least
   disturbed by other tenants of a shared machine), and say how many bytes were assumed.
*/
#include "bench.h"

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
