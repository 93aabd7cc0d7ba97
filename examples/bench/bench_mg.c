/*
   ppe-bench -bench mg: PC ppemg on the variable-coefficient operator of -bench stencil (8
   spheres of density 1 in density -bench_mg_density_ratio, 1000 by default; 0: constant
   coefficients): the first set-up, the set-up after a new density (the time loop's cost), one
   V-cycle (PCApply), and per level the time of its smoothing, residual and transfers (PCMG's
   per-level events, -ppemg_pc_mg_log) against the bytes the level must move, with STREAM copy
   measured in the same run. One JSON line per level, then one for the cycle.

   Byte model of a level of n points per V-cycle (the least that must cross the memory bus;
   write-allocate not counted, as STREAM copy does not): an operator application reads x and
   the three face arrays and writes y, B = 40 bytes a point (16 with constant coefficients);
   each of the two smoothings is a residual (B + 8: b too), `degree` Chebyshev steps (an
   application with the step's update fused: B + 24, reading b, z and the diagonal) and the
   Richardson update (24); the residual for the restriction (B + 8) and the interpolation
   (reading and writing the fine vector, 16) once. With the zline smoother (auto on a
   wall-stretched grid, e.g. -ppe_grid_z_stretch tanh) each of the `degree` Chebyshev steps of a
   smoothing is a residual (B + 8), the line solve (reading the residual and writing the
   correction, 16, and the lines' factors, 16 a point: pivot and multiplier) and the Chebyshev
   update (reading the correction, the direction and x, writing the direction and x: 40). Level
   sizes are the PC's own (semi-coarsening keeps z with zline). The coarsest level: its LU
   solve, no model.
*/
#include "bench.h"

/* The seconds and count of a logged event over the main stage and PCMG's "MG Apply" stage. */
static PetscErrorCode EventTime(const char *name, PetscLogDouble *t, int *count)
{
  PetscLogEvent      ev;
  PetscLogStage      st[2] = {0, -1};
  PetscEventPerfInfo info;

  PetscFunctionBegin;
  *t     = 0;
  *count = 0;
  PetscCall(PetscLogEventGetId(name, &ev));
  PetscCall(PetscLogStageGetId("MG Apply", &st[1]));
  for (int s = 0; s < 2; s++) {
    if (st[s] < 0) continue;
    PetscCall(PetscLogEventGetPerfInfo(st[s], ev, &info));
    *t += info.time;
    *count += info.count;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEBenchMG(MPI_Comm comm, const PPEBenchOptions *o)
{
  PPEGrid         grid;
  Mat             A;
  Vec             b, x;
  PC              pc;
  PetscRandom     rnd;
  PetscInt        N[3], nlev, degree;
  PCPPEMGSmoother used;
  PC              inner;
  PetscReal       ratio = 1000, copy = 0, triad = 0, B;
  PetscLogDouble  t0, t1, tfirst, tnew, tcycle = PETSC_MAX_REAL, tl, tsum = 0;
  PetscMPIInt     size;
  char            newbuf[32];

  PetscFunctionBegin;
  PetscOptionsBegin(comm, NULL, "ppe-bench -bench mg options", "PPEKit");
  PetscCall(PetscOptionsReal("-bench_mg_density_ratio", "Variable coefficients: spheres of density 1 in this density (0: the constant-coefficient operator)", NULL, ratio, &ratio, NULL));
  PetscOptionsEnd();
  PetscCheck(ratio >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-bench_mg_density_ratio must be positive (or 0 for constant coefficients), got %g", (double)ratio);
  B = ratio > 0 ? 40.0 : 16.0;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscLogDefaultBegin());
  PetscCall(PetscOptionsSetValue(NULL, "-ppemg_pc_mg_log", NULL));
  PetscCall(PPEGridCreate(comm, &grid));
  PetscCall(PPEGridSetSizes(grid, 128, 128, 128));
  PetscCall(PPEGridSetFromOptions(grid));
  PetscCall(PPEGridSetUp(grid));
  PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
  PetscCall(PPEStencilCreate(grid, &A));
  if (ratio > 0) PetscCall(PPEBenchDensity(grid, ratio, A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PCCreate(comm, &pc));
  PetscCall(PCSetType(pc, PCPPEMG));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PetscTime(&t0));
  PetscCall(PCSetUp(pc));
  PetscCall(PetscTime(&t1));
  tfirst = t1 - t0;
  tnew   = -1; /* constant coefficients: no new density to give */
  if (ratio > 0) {
    PetscCall(PPEBenchDensity(grid, ratio, A)); /* a new density (the same values): what a time step pays */
    PetscCall(PetscTime(&t0));
    PetscCall(PCSetUp(pc));
    PetscCall(PetscTime(&t1));
    tnew = t1 - t0;
  }
  PetscCall(PCApply(pc, b, x)); /* warm up */
  for (PetscInt r = 0; r < o->reps; r++) {
    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PetscTime(&t0));
    PetscCall(PCApply(pc, b, x));
    PetscCall(PetscTime(&t1));
    tcycle = PetscMin(tcycle, t1 - t0);
  }
  PetscCall(PPEBenchStream(comm, o->stream_n, PetscMax(o->reps / 2, 5), &copy, &triad));
  PetscCall(PCPPEMGGetLevels(pc, &nlev));
  PetscCall(PCPPEMGGetSmoother(pc, &used));
  PetscCall(PCPPEMGGetDegree(pc, &degree));
  PetscCall(PCPPEMGGetMG(pc, &inner));
  if (tnew >= 0) PetscCall(PetscSNPrintf(newbuf, sizeof(newbuf), "%.6e", tnew));
  else PetscCall(PetscStrncpy(newbuf, "null", sizeof(newbuf)));
  for (PetscInt i = nlev - 1; i >= 0; i--) { /* PCMG's numbering: nlev - 1 the finest */
    const char    *what[3] = {"MGSmooth Level %d", "MGResid Level %d", "MGInterp Level %d"};
    PetscLogDouble te[3]   = {0, 0, 0};
    int            cnt[3]  = {0, 0, 0};
    PetscInt       napply  = o->reps + 1;
    PetscReal      bpp;
    PetscInt       l = nlev - 1 - i, npts;
    KSP            ksp;
    Mat            Al;

    for (int e = 0; e < (i ? 3 : 1); e++) {
      char name[64];
      PetscCall(PetscSNPrintf(name, sizeof(name), what[e], (int)i));
      PetscCall(EventTime(name, &te[e], &cnt[e]));
    }
    if (i) PetscCall(PCMGGetSmoother(inner, i, &ksp));
    else PetscCall(PCMGGetCoarseSolve(inner, &ksp));
    PetscCall(KSPGetOperators(ksp, NULL, &Al));
    PetscCall(MatGetSize(Al, &npts, NULL));
    /* the events also ran in the two set-ups' applications (none) and in the warm-up: per cycle */
    tl = (te[0] + te[1] + te[2]) / napply;
    if (!i) bpp = 0;
    else if (used == PC_PPEMG_SMOOTHER_ZLINE) bpp = 2.0 * degree * ((B + 8) + 32 + 40) + (B + 8) + 16;
    else bpp = 2.0 * ((B + 8) + degree * (B + 24) + 24) + (B + 8) + 16;
    tsum += tl;
    PetscCall(PetscPrintf(comm,
                          "{\"bench\": \"mg\", \"level\": %" PetscInt_FMT ", \"points\": %" PetscInt_FMT
                          ", \"ranks\": %d, \"smoother\": \"%s\", \"density_ratio\": %.6e, \"smooth_s\": %.6e, \"resid_s\": %.6e, \"interp_s\": %.6e, \"level_s\": %.6e, \"ns_per_point\": %.4f, "
                          "\"model_bytes_per_point\": %.0f, \"gbs\": %.3f, \"stream_copy_gbs\": %.3f, \"bw_fraction\": %.3f}\n",
                          l, npts, (int)size, PCPPEMGSmoothers[used], (double)ratio, te[0] / napply, te[1] / napply, te[2] / napply, tl, 1e9 * tl / (PetscReal)npts, (double)bpp, bpp > 0 ? bpp * (PetscReal)npts / tl / 1e9 : 0.0, (double)copy,
                          bpp > 0 ? bpp * (PetscReal)npts / tl / 1e9 / copy : 0.0));
  }
  PetscCall(PetscPrintf(comm,
                        "{\"bench\": \"mg\", \"n\": [%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT "], \"ranks\": %d, \"reps\": %" PetscInt_FMT ", \"density_ratio\": %.6e, \"levels\": %" PetscInt_FMT ", \"setup_first_s\": %.6e, "
                        "\"setup_new_density_s\": %s, \"cycle_s\": %.6e, \"levels_sum_s\": %.6e, \"cycle_ns_per_point\": %.4f, \"stream_copy_gbs\": %.3f}\n",
                        N[0], N[1], N[2], (int)size, o->reps, (double)ratio, nlev, tfirst, newbuf, tcycle, tsum, 1e9 * tcycle / ((PetscReal)N[0] * N[1] * N[2]), (double)copy));
  PetscCall(PCDestroy(&pc));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}
