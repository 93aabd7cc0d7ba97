static const char help[] = "ppe-bench: PPEKit benchmarks, one JSON line per measurement.\n\
  -bench stencil   matrix-free MatMult vs AIJ MatMult of the grid operator, with a STREAM-like\n\
                   copy and triad bandwidth measured in the same run\n\
Grid options (-ppe_grid_n, -ppe_bc, ...) choose the operator.\n\n";

/*
   Timing rules (see ../shared/BASELINES.md): compare within one run, alternate the
   variants in every repetition, report the best of -bench_reps repetitions (the least
   disturbed by other tenants of a shared machine), and say how many bytes were assumed.
*/
#include <ppekit.h>

typedef enum {
  BENCH_STENCIL
} BenchType;
static const char *const BenchTypes[] = {"stencil", "BenchType", "BENCH_", NULL};

/* STREAM-like kernels on this rank's arrays; every rank runs them at the same time so the
   bandwidth is the aggregate the ranks share. Returns GB/s (1e9 bytes/s), best of reps,
   counting bytes as STREAM does (copy 16, triad 24 per element) for STREAM's own loops. */
static PetscErrorCode Stream(MPI_Comm comm, PetscInt n, PetscInt reps, PetscReal *copy_gbs, PetscReal *triad_gbs)
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

/* Best-of-reps time of one MatMult, maximum over ranks. */
static PetscErrorCode TimeMult(Mat A, Vec x, Vec y, PetscReal *best)
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

static PetscErrorCode BenchStencil(MPI_Comm comm, PetscInt reps, PetscInt stream_n)
{
  PPEGrid     grid;
  Mat         Amf, Aaij;
  Vec         x, y;
  PetscRandom rnd;
  PetscInt    N[3];
  PetscReal   tmf = PETSC_MAX_REAL, tno = PETSC_MAX_REAL, taij = PETSC_MAX_REAL, copy = 0, triad = 0, npts;
  PetscMPIInt size;
  char        bcs[7];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PPEGridCreate(comm, &grid));
  PetscCall(PPEGridSetSizes(grid, 128, 128, 128));
  PetscCall(PPEGridSetFromOptions(grid));
  PetscCall(PPEGridSetUp(grid));
  PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
  PetscCall(PPEGridGetBCString(grid, bcs));
  PetscCall(PPEStencilCreate(grid, &Amf));
  PetscCall(PPEStencilCreateAssembled(grid, MATAIJ, &Aaij));
  PetscCall(MatCreateVecs(Amf, &x, &y));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  /* warm up: first touch, page faults, AVX2 dispatch */
  PetscCall(MatMult(Amf, x, y));
  PetscCall(MatMult(Aaij, x, y));
  for (PetscInt r = 0; r < reps; r++) {
    PetscCall(PPEStencilSetOverlap(Amf, PETSC_TRUE));
    PetscCall(TimeMult(Amf, x, y, &tmf));
    PetscCall(TimeMult(Aaij, x, y, &taij));
    PetscCall(PPEStencilSetOverlap(Amf, PETSC_FALSE));
    PetscCall(TimeMult(Amf, x, y, &tno));
  }
  PetscCall(Stream(comm, stream_n, PetscMax(reps / 2, 5), &copy, &triad));
  npts = (PetscReal)N[0] * N[1] * N[2];
  PetscCall(PetscPrintf(comm,
                        "{\"bench\": \"stencil\", \"n\": [%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT "], \"bc\": \"%s\", \"ranks\": %d, \"reps\": %" PetscInt_FMT ", "
                        "\"matfree_s\": %.6e, \"matfree_nooverlap_s\": %.6e, \"aij_s\": %.6e, \"speedup\": %.3f, "
                        "\"matfree_ns_per_point\": %.4f, \"aij_ns_per_point\": %.4f, \"bytes_per_point\": 16, "
                        "\"matfree_gbs\": %.3f, \"stream_copy_gbs\": %.3f, \"stream_triad_gbs\": %.3f, \"bw_fraction\": %.3f}\n",
                        N[0], N[1], N[2], bcs, (int)size, reps, (double)tmf, (double)tno, (double)taij, (double)(taij / tmf), (double)(1e9 * tmf / npts), (double)(1e9 * taij / npts), (double)(16.0 * npts / tmf / 1e9), (double)copy, (double)triad, (double)(16.0 * npts / tmf / 1e9 / copy)));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&Amf));
  PetscCall(MatDestroy(&Aaij));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm  comm;
  BenchType type     = BENCH_STENCIL;
  PetscInt  reps     = 20, stream_n = 1 << 25;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscOptionsBegin(comm, NULL, "ppe-bench options", "PPEKit");
  PetscCall(PetscOptionsEnum("-bench", "Benchmark to run", NULL, BenchTypes, (PetscEnum)type, (PetscEnum *)&type, NULL));
  PetscCall(PetscOptionsInt("-bench_reps", "Repetitions (best reported)", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsInt("-bench_stream_n", "Doubles per array and rank of the STREAM-like kernels", NULL, stream_n, &stream_n, NULL));
  PetscOptionsEnd();
  PetscCheck(reps >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-bench_reps must be >= 1");
  switch (type) {
  case BENCH_STENCIL:
    PetscCall(BenchStencil(comm, reps, stream_n));
    break;
  }
  PetscCall(PetscFinalize());
  return 0;
}
