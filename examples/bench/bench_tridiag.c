/*
   ppe-bench -bench tridiag: batched tridiagonal solves (src/tridiag) on about 256 MiB of data,
   for several line lengths n:

     thomas   natural layout (the z lines of a DMDA array, stride nsys) and SZ-packed layout,
              whole lines on each rank (on several ranks each rank solves its share of the
              lines, as after the full transpose);
     ptdma    lines split over the ranks (n/P rows each), natural layout;
     distd2   the same, neighbour-only;

   on a dominant system with shared coefficients (-1, 4, -1), plus the Poisson case of an
   FFT solve (shared z operator of a Neumann line, a shift per line from 1e-3 to 8/h^2, the
   zero mode pinned) for ptdma with factors pre-computed or recomputed. One JSON line per
   measurement: best of -bench_reps solves; gbs counts the bytes of Table 3 of Akkurt et al.
   (16 per point for Thomas: read and write the data once; 32 for the reduction methods:
   twice); stream_copy_gbs is STREAM's copy loop over the same data, run before each solve
   to restore the right-hand side (the copy bandwidth of the same moment; the STREAM run at
   the start is stream_copy_gbs_start); err_rel against refined dense LAPACK solves of
   sampled lines; bytes_sent counted by the batch (all ranks) next to its model, and PETSc's
   own count.

   References:
     S. Akkurt, S. Lemaire, P. Bartholomew and S. Laizet, "A distributed-memory tridiagonal
     solver based on a specialised data structure optimised for CPU and GPU architectures",
     Computer Physics Communications, 2025 (arXiv:2411.13532).
*/
#include "bench.h"
#include <petscblaslapack.h>

typedef enum {
  SYS_DOMINANT, /* shared (-1, 4, -1) */
  SYS_POISSON   /* shared Neumann Laplacian, per-line shift, line 0 pinned */
} BenchSys;

/* Coefficients of global row k of an n-row system; the diagonal of line s is b + shift_s. */
static void Row(BenchSys sys, PetscInt n, PetscInt k, PetscReal *a, PetscReal *b, PetscReal *c)
{
  if (sys == SYS_DOMINANT) {
    *a = -1.0;
    *b = 4.0;
    *c = -1.0;
  } else {
    *a = k > 0 ? -1.0 : 0.0;
    *c = k < n - 1 ? -1.0 : 0.0;
    *b = -(*a + *c);
  }
}

static PetscReal Shift(BenchSys sys, PetscInt n, PetscInt s, PetscInt nsys)
{
  if (sys == SYS_DOMINANT || s == 0) return 0.0;
  return 1e-3 * PetscPowReal(8.0 * n * n / 1e-3, (PetscReal)s / nsys); /* 1e-3 .. 8/h^2, h = 1/n */
}

static PetscReal RHS(PetscInt s, PetscInt k)
{
  unsigned long long z = 0x9E3779B97F4A7C15ULL * (unsigned long long)(s + 1) + 0xBF58476D1CE4E5B9ULL * (unsigned long long)(k + 3);
  z                    = (z ^ (z >> 31)) * 0x94D049BB133111EBULL;
  return (PetscReal)((z >> 11) & 0xFFFFF) / 1048576.0 - 0.5;
}

typedef struct {
  const char      *label;  /* thomas, ptdma, distd2 */
  const char      *layout; /* natural, packed */
  PPETridiagMethod method;
  PetscBool        packed, whole, pre;
  BenchSys         sys;
} BenchCase;

/*
   Relative error of sampled lines against dense LAPACK (gathered to rank 0 of comm); the LU
   solution is refined with residuals in long double, since for the weakly dominant poisson
   lines LU alone is only accurate to cond*eps.
*/
static PetscErrorCode SampleError(MPI_Comm comm, const BenchCase *bc, PetscInt n, PetscInt nsys, PetscInt m, PetscInt s0, PetscInt nloc, const PetscScalar *x, PetscReal *err)
{
  PetscMPIInt  rank, size, *cnt, *dsp;
  PetscInt     lines[4] = {1, nsys / 3, (2 * nsys) / 3, nsys - 1};
  PetscReal    e        = 0;
  PetscReal   *M, *ref, *xfull, *mine, *dx, *a, *b, *c;
  PetscBLASInt bn, one = 1, info, *piv;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscMalloc2(size, &cnt, size, &dsp));
  PetscCall(PetscMalloc7((size_t)n * n, &M, n, &ref, n, &xfull, n, &piv, m + 1, &mine, n, &dx, 3 * n, &a));
  b = a + n;
  c = b + n;
  for (PetscInt k = 0; k < n; k++) Row(bc->sys, n, k, &a[k], &b[k], &c[k]);
  for (int i = 0; i < 4; i++) {
    PetscInt    s = lines[i], ls = s - s0;
    PetscReal   sh = Shift(bc->sys, n, s, nsys), num = 0, den = 0;
    PetscMPIInt mm;

    if (bc->whole && (ls < 0 || ls >= nloc)) continue; /* whole lines: the owner checks alone */
    for (PetscInt k = 0; k < m; k++) mine[k] = bc->whole ? x[ls + (size_t)k * nloc] : x[s + (size_t)k * nsys];
    if (!bc->whole) {
      PetscCall(PetscMPIIntCast(m, &mm));
      PetscCallMPI(MPI_Gather(&mm, 1, MPI_INT, cnt, 1, MPI_INT, 0, comm));
      if (rank == 0) {
        dsp[0] = 0;
        for (PetscMPIInt r = 1; r < size; r++) dsp[r] = dsp[r - 1] + cnt[r - 1];
      }
      PetscCallMPI(MPI_Gatherv(mine, mm, MPIU_REAL, xfull, cnt, dsp, MPIU_REAL, 0, comm));
      if (rank != 0) continue;
    } else PetscCall(PetscArraycpy(xfull, mine, n));
    PetscCall(PetscArrayzero(M, (size_t)n * n));
    for (PetscInt k = 0; k < n; k++) {
      M[k + k * n] = b[k] + sh;
      if (k > 0) M[k + (k - 1) * n] = a[k];
      if (k < n - 1) M[k + (k + 1) * n] = c[k];
      ref[k] = RHS(s, k);
    }
    PetscCall(PetscBLASIntCast(n, &bn));
    PetscCallBLAS("LAPACKgetrf", LAPACKgetrf_(&bn, &bn, M, &bn, piv, &info));
    PetscCallBLAS("LAPACKgetrs", LAPACKgetrs_("N", &bn, &one, M, &bn, piv, ref, &bn, &info));
    for (int it = 0; it < 3; it++) {
      for (PetscInt k = 0; k < n; k++) {
        long double r = (long double)RHS(s, k) - ((long double)b[k] + (long double)sh) * (long double)ref[k];

        if (k > 0) r -= (long double)a[k] * (long double)ref[k - 1];
        if (k < n - 1) r -= (long double)c[k] * (long double)ref[k + 1];
        dx[k] = (PetscReal)r;
      }
      PetscCallBLAS("LAPACKgetrs", LAPACKgetrs_("N", &bn, &one, M, &bn, piv, dx, &bn, &info));
      for (PetscInt k = 0; k < n; k++) ref[k] += dx[k];
    }
    for (PetscInt k = 0; k < n; k++) {
      num = PetscMax(num, PetscAbsReal(xfull[k] - ref[k]));
      den = PetscMax(den, PetscAbsReal(ref[k]));
    }
    e = PetscMax(e, num / den);
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &e, 1, MPIU_REAL, MPIU_MAX, comm));
  *err = e;
  PetscCall(PetscFree7(M, ref, xfull, piv, mine, dx, a));
  PetscCall(PetscFree2(cnt, dsp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunCase(MPI_Comm comm, const PPEBenchOptions *o, const BenchCase *bc, PetscInt n, PetscInt nsys, PetscReal stream)
{
  PetscMPIInt    rank, size;
  PPETridiag     t;
  PetscInt       m, rstart = 0, s0 = 0, nloc = nsys, len, nsolves, nt, np, nd;
  PetscScalar   *d, *rhs, *dp = NULL;
  PetscReal     *a, *b, *c, *shift, err = 0, best = PETSC_MAX_REAL, tcopy = PETSC_MAX_REAL, pts, copy;
  PetscLogDouble bytes, msgs, mbytes, mmsgs, v[4];
  PPECounters    c0, c1, dc;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (bc->whole) { /* each rank: its share of whole lines */
    s0   = (PetscInt)(((PetscInt64)rank * nsys) / size);
    nloc = (PetscInt)(((PetscInt64)(rank + 1) * nsys) / size) - s0;
    m    = n;
  } else {
    m      = n / size + (rank < n % size ? 1 : 0);
    rstart = rank * (n / size) + PetscMin(rank, n % size);
  }
  PetscCall(PPETridiagCreate(bc->whole ? PETSC_COMM_SELF : comm, &t));
  PetscCall(PPETridiagSetSizes(t, nloc, m));
  PetscCall(PPETridiagSetMethod(t, bc->method));
  PetscCall(PPETridiagSetPrecompute(t, bc->pre));
  PetscCall(PetscMalloc4(m, &a, m, &b, m, &c, nloc, &shift));
  for (PetscInt k = 0; k < m; k++) Row(bc->sys, n, rstart + k, &a[k], &b[k], &c[k]);
  PetscCall(PPETridiagSetCoefficients(t, a, b, c));
  if (bc->sys == SYS_POISSON) {
    PetscInt zero = 0;

    for (PetscInt s = 0; s < nloc; s++) shift[s] = Shift(bc->sys, n, s0 + s, nsys);
    PetscCall(PPETridiagSetShift(t, shift, NULL));
    if (s0 == 0) PetscCall(PPETridiagSetPinnedLines(t, 1, &zero));
  }
  PetscCall(PPETridiagSetFromOptions(t));
  {
    /* distd2 refuses lines it cannot solve exactly (too few rows per rank): say so and go on */
    PetscErrorCode ierr;

    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = PPETridiagSetUp(t);
    PetscCall(PetscPopErrorHandler());
    if (ierr) {
      PetscCheck(bc->method == PPE_TRIDIAG_DISTD2, comm, ierr, "Set-up of the %s case failed", bc->label);
      PetscCall(PetscPrintf(comm, "{\"bench\": \"tridiag\", \"method\": \"%s\", \"layout\": \"%s\", \"system\": \"%s\", \"n\": %" PetscInt_FMT ", \"nsys\": %" PetscInt_FMT ", \"ranks\": %d, \"refused\": 1}\n", bc->label, bc->layout,
                            bc->sys == SYS_DOMINANT ? "dominant" : "poisson", n, nsys, (int)size));
      PetscCall(PetscFree4(a, b, c, shift));
      PetscCall(PPETridiagDestroy(&t));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  /* separate allocations (as PPEBenchStream's arrays): in one block the two arrays would sit at
     the same cache-set offsets and the copy would measure conflict misses */
  PetscCall(PetscMalloc1((size_t)nloc * m, &d));
  PetscCall(PetscMalloc1((size_t)nloc * m, &rhs));
  for (PetscInt k = 0; k < m; k++)
    for (PetscInt s = 0; s < nloc; s++) rhs[s + (size_t)k * nloc] = RHS(s0 + s, rstart + k);
  if (bc->sys == SYS_POISSON && s0 == 0 && !bc->whole) { /* the pinned line: a consistent right-hand side */
    PetscReal sum = 0;
    for (PetscInt k = 0; k < m; k++) sum += rhs[(size_t)k * nloc];
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &sum, 1, MPIU_REAL, MPIU_SUM, comm));
    for (PetscInt k = 0; k < m; k++) rhs[(size_t)k * nloc] -= sum / n;
  } else if (bc->sys == SYS_POISSON && s0 == 0) {
    PetscReal sum = 0;
    for (PetscInt k = 0; k < m; k++) sum += rhs[(size_t)k * nloc];
    for (PetscInt k = 0; k < m; k++) rhs[(size_t)k * nloc] -= sum / n;
  }
  if (bc->packed) {
    PetscCall(PPETridiagGetPackedSize(t, &len));
    PetscCall(PetscMalloc1(len, &dp));
  }
  /* warm up (first touch), then best of reps. The right-hand side is restored before each
     solve by STREAM's copy loop over the same data, timed: the copy bandwidth of the same
     moment, alternating with the solves (the machines are shared and noisy). */
  for (PetscInt r = -1; r < o->reps; r++) {
    PetscLogDouble t0, t1;
    PetscReal      dt;

    PetscCall(PPEBenchCopy(comm, nloc * m, rhs, d, &dt));
    if (r >= 0) tcopy = PetscMin(tcopy, dt);
    if (bc->packed) PetscCall(PPETridiagPack(t, d, dp));
    if (r == 0) {
      PetscCall(PPETridiagResetCommCounts(t));
      PetscCall(PPECountersGet(&c0));
    }
    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PetscTime(&t0));
    if (bc->packed) PetscCall(PPETridiagSolvePacked(t, dp));
    else PetscCall(PPETridiagSolve(t, d));
    PetscCall(PetscTime(&t1));
    dt = (PetscReal)(t1 - t0);
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &dt, 1, MPIU_REAL, MPIU_MAX, comm));
    if (r >= 0) best = PetscMin(best, dt);
    if (r == o->reps - 1) PetscCall(PPECountersGet(&c1));
  }
  if (bc->packed) PetscCall(PPETridiagUnpack(t, dp, d));
  PetscCall(PPECountersDiff(&c1, &c0, &dc));
  PetscCall(SampleError(comm, bc, n, nsys, m, s0, nloc, d, &err));
  PetscCall(PPETridiagGetCommCounts(t, &nsolves, &bytes, &msgs));
  PetscCall(PPETridiagGetCommModel(t, &mbytes, &mmsgs));
  PetscCall(PPETridiagGetLineMethods(t, &nt, &np, &nd));
  v[0] = nsolves ? bytes / nsolves : 0;
  v[1] = mbytes;
  v[2] = nsolves ? msgs / nsolves : 0;
  v[3] = dc.bytes_sent / o->reps;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, v, 4, MPIU_PETSCLOGDOUBLE, MPI_SUM, comm));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &nt, 1, MPIU_INT, MPI_SUM, comm));
  if (bc->whole) {
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &np, 1, MPIU_INT, MPI_SUM, comm));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &nd, 1, MPIU_INT, MPI_SUM, comm));
  }
  pts  = (PetscReal)n * nsys;
  copy = 16.0 * pts / tcopy / 1e9; /* all ranks at once, as STREAM counts */
  {
    PetscReal tb = bc->method == PPE_TRIDIAG_THOMAS ? 16.0 : 32.0;

    PetscCall(PetscPrintf(comm,
                          "{\"bench\": \"tridiag\", \"method\": \"%s\", \"layout\": \"%s\", \"system\": \"%s\", \"precompute\": %d, \"n\": %" PetscInt_FMT ", \"nsys\": %" PetscInt_FMT ", \"ranks\": %d, \"reps\": %" PetscInt_FMT ", "
                          "\"lines_thomas\": %" PetscInt_FMT ", \"lines_ptdma\": %" PetscInt_FMT ", \"lines_distd2\": %" PetscInt_FMT ", \"err_rel\": %.3e, \"solve_s\": %.6e, \"ns_per_point\": %.4f, "
                          "\"table3_bytes_per_point\": %.0f, \"gbs\": %.3f, \"stream_copy_gbs\": %.3f, \"copy_fraction\": %.3f, \"stream_copy_gbs_start\": %.3f, "
                          "\"bytes_sent\": %.0f, \"bytes_model\": %.0f, \"messages\": %.0f, \"petsc_bytes_sent\": %.0f}\n",
                          bc->label, bc->layout, bc->sys == SYS_DOMINANT ? "dominant" : "poisson", (int)bc->pre, n, nsys, (int)size, o->reps, nt, np, nd, (double)err, (double)best, (double)(1e9 * best / pts), (double)tb,
                          (double)(tb * pts / best / 1e9), (double)copy, (double)(tb * pts / best / 1e9 / copy), (double)stream, (double)v[0], (double)v[1], (double)v[2], (double)v[3]));
  }
  PetscCall(PetscFree(d));
  PetscCall(PetscFree(rhs));
  PetscCall(PetscFree(dp));
  PetscCall(PetscFree4(a, b, c, shift));
  PetscCall(PPETridiagDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEBenchTridiag(MPI_Comm comm, const PPEBenchOptions *o)
{
  PetscInt  ns[8] = {64, 256, 1024}, nn = 3, mib = 256;
  PetscReal copy = 0, triad = 0;
  PetscBool poisson = PETSC_TRUE, thomas = PETSC_TRUE;
  BenchCase cases[] = {
    {"thomas", "natural", PPE_TRIDIAG_THOMAS, PETSC_FALSE, PETSC_TRUE,  PETSC_TRUE,  SYS_DOMINANT},
    {"thomas", "packed",  PPE_TRIDIAG_THOMAS, PETSC_TRUE,  PETSC_TRUE,  PETSC_TRUE,  SYS_DOMINANT},
    {"ptdma",  "natural", PPE_TRIDIAG_PTDMA,  PETSC_FALSE, PETSC_FALSE, PETSC_TRUE,  SYS_DOMINANT},
    {"distd2", "natural", PPE_TRIDIAG_DISTD2, PETSC_FALSE, PETSC_FALSE, PETSC_TRUE,  SYS_DOMINANT},
    {"ptdma",  "natural", PPE_TRIDIAG_PTDMA,  PETSC_FALSE, PETSC_FALSE, PETSC_TRUE,  SYS_POISSON },
    {"ptdma",  "natural", PPE_TRIDIAG_PTDMA,  PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, SYS_POISSON },
    {"ptdma",  "packed",  PPE_TRIDIAG_PTDMA,  PETSC_TRUE,  PETSC_FALSE, PETSC_TRUE,  SYS_POISSON },
  };

  PetscFunctionBegin;
  PetscOptionsBegin(comm, NULL, "ppe-bench -bench tridiag options", "PPETridiag");
  {
    PetscInt  nmax = 8;
    PetscBool set;

    PetscCall(PetscOptionsIntArray("-bench_tridiag_n", "Line lengths (default 64,256,1024)", NULL, ns, &nmax, &set));
    if (set) nn = nmax;
  }
  PetscCall(PetscOptionsInt("-bench_tridiag_mib", "MiB of data per measurement (all ranks)", NULL, mib, &mib, NULL));
  PetscCall(PetscOptionsBool("-bench_tridiag_poisson", "Also the Poisson case (per-line shift, pinned zero mode)", NULL, poisson, &poisson, NULL));
  PetscCall(PetscOptionsBool("-bench_tridiag_thomas", "Also thomas on whole lines (each rank its share of the lines)", NULL, thomas, &thomas, NULL));
  PetscOptionsEnd();
  PetscCheck(mib >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-bench_tridiag_mib must be >= 1");
  PetscCall(PPEBenchStream(comm, o->stream_n, PetscMax(o->reps / 2, 5), &copy, &triad));
  for (PetscInt i = 0; i < nn; i++) {
    PetscInt n = ns[i], nsys = (PetscInt)(((PetscInt64)mib << 20) / 8 / n);

    PetscCheck(n >= 4, comm, PETSC_ERR_ARG_OUTOFRANGE, "-bench_tridiag_n values must be >= 4");
    nsys = PetscMax(nsys, 8);
    for (size_t j = 0; j < sizeof(cases) / sizeof(cases[0]); j++) {
      if (cases[j].sys == SYS_POISSON && !poisson) continue;
      if (cases[j].whole && !thomas) continue;
      PetscCall(RunCase(comm, o, &cases[j], n, nsys, copy));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
