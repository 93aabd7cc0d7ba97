/*
   ppe-bench -bench stencil: matrix-free MatMult vs AIJ MatMult of the grid operator, with
   STREAM's copy and triad measured in the same run.
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
                        "{\"bench\": \"stencil\", \"n\": [%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT "], \"bc\": \"%s\", \"ranks\": %d, \"reps\": %" PetscInt_FMT ", "
                        "\"matfree_s\": %.6e, \"matfree_nooverlap_s\": %.6e, \"aij_s\": %.6e, \"speedup\": %.3f, "
                        "\"matfree_ns_per_point\": %.4f, \"aij_ns_per_point\": %.4f, \"bytes_per_point\": 16, "
                        "\"matfree_gbs\": %.3f, \"stream_copy_gbs\": %.3f, \"stream_triad_gbs\": %.3f, \"bw_fraction\": %.3f}\n",
                        N[0], N[1], N[2], bcs, (int)size, o->reps, (double)tmf, (double)tno, (double)taij, (double)(taij / tmf), (double)(1e9 * tmf / npts), (double)(1e9 * taij / npts), (double)(16.0 * npts / tmf / 1e9), (double)copy, (double)triad,
                        (double)(16.0 * npts / tmf / 1e9 / copy)));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&Amf));
  PetscCall(MatDestroy(&Aaij));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}
