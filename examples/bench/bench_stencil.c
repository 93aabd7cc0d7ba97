/*
   ppe-bench -bench stencil: matrix-free MatMult vs AIJ MatMult of the grid operator, with
   STREAM's copy and triad measured in the same run. With -bench_stencil_density_ratio r the
   operator has the variable coefficients of a density (spheres of density 1 in density r,
   PPEStencilSetDensity) and the AIJ matrix is its twin (PPEStencilAssemble).

   Byte model per point (what must cross the memory bus at least, write-allocate not counted,
   as STREAM's copy does not count it): constant coefficients read x and write y, 16 bytes;
   variable coefficients also read the three face arrays (one face below each point per
   direction, plus one row or plane per box), 40 bytes.
*/
#include "bench.h"

PetscErrorCode PPEBenchStencil(MPI_Comm comm, const PPEBenchOptions *o)
{
  PPEGrid     grid;
  Mat         Amf, Aaij;
  Vec         x, y;
  PetscRandom rnd;
  PetscInt    N[3];
  PetscReal   tmf = PETSC_MAX_REAL, tno = PETSC_MAX_REAL, taij = PETSC_MAX_REAL, copy = 0, triad = 0, npts;
  PetscMPIInt size;
  char        bcs[7];
  PetscReal   ratio = 0, bpp;

  PetscFunctionBegin;
  PetscOptionsBegin(comm, NULL, "ppe-bench -bench stencil options", "PPEKit");
  PetscCall(PetscOptionsReal("-bench_stencil_density_ratio", "Variable coefficients: spheres of density 1 in this density (0: the constant-coefficient operator)", NULL, ratio, &ratio, NULL));
  PetscOptionsEnd();
  PetscCheck(ratio >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-bench_stencil_density_ratio must be positive (or 0 for constant coefficients), got %g", (double)ratio);
  bpp = ratio > 0 ? 40.0 : 16.0;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PPEGridCreate(comm, &grid));
  PetscCall(PPEGridSetSizes(grid, 128, 128, 128));
  PetscCall(PPEGridSetFromOptions(grid));
  PetscCall(PPEGridSetUp(grid));
  PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
  PetscCall(PPEGridGetBCString(grid, bcs));
  PetscCall(PPEStencilCreate(grid, &Amf));
  if (ratio > 0) PetscCall(PPEBenchDensity(grid, ratio, Amf));
  PetscCall(PPEStencilAssemble(Amf, MATAIJ, MAT_INITIAL_MATRIX, &Aaij));
  PetscCall(MatCreateVecs(Amf, &x, &y));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  /* warm up: first touch, page faults, AVX2 dispatch */
  PetscCall(MatMult(Amf, x, y));
  PetscCall(MatMult(Aaij, x, y));
  for (PetscInt r = 0; r < o->reps; r++) {
    PetscCall(PPEStencilSetOverlap(Amf, PETSC_TRUE));
    PetscCall(PPEBenchTimeMult(Amf, x, y, &tmf));
    PetscCall(PPEBenchTimeMult(Aaij, x, y, &taij));
    PetscCall(PPEStencilSetOverlap(Amf, PETSC_FALSE));
    PetscCall(PPEBenchTimeMult(Amf, x, y, &tno));
  }
  PetscCall(PPEBenchStream(comm, o->stream_n, PetscMax(o->reps / 2, 5), &copy, &triad));
  npts = (PetscReal)N[0] * N[1] * N[2];
  PetscCall(PetscPrintf(comm,
                        "{\"bench\": \"stencil\", \"n\": [%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT "], \"bc\": \"%s\", \"ranks\": %d, \"reps\": %" PetscInt_FMT ", \"density_ratio\": %.6e, "
                        "\"matfree_s\": %.6e, \"matfree_nooverlap_s\": %.6e, \"aij_s\": %.6e, \"speedup\": %.3f, "
                        "\"matfree_ns_per_point\": %.4f, \"aij_ns_per_point\": %.4f, \"bytes_per_point\": %d, "
                        "\"matfree_gbs\": %.3f, \"stream_copy_gbs\": %.3f, \"stream_triad_gbs\": %.3f, \"bw_fraction\": %.3f}\n",
                        N[0], N[1], N[2], bcs, (int)size, o->reps, (double)ratio, (double)tmf, (double)tno, (double)taij, (double)(taij / tmf), (double)(1e9 * tmf / npts), (double)(1e9 * taij / npts), (int)bpp, (double)(bpp * npts / tmf / 1e9),
                        (double)copy, (double)triad, (double)(bpp * npts / tmf / 1e9 / copy)));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&Amf));
  PetscCall(MatDestroy(&Aaij));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}
