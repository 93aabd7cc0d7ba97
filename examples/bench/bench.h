/*
   ppe-bench: shared declarations. Each benchmark kind lives in its own file
   (bench_<kind>.c) and is listed in the table of ppe-bench.c.
*/
#pragma once

#include <ppekit.h>

typedef struct {
  PetscInt reps;     /* repetitions, best reported */
  PetscInt stream_n; /* doubles per array and rank of the STREAM-like kernels */
} PPEBenchOptions;

PetscErrorCode PPEBenchStream(MPI_Comm, PetscInt, PetscInt, PetscReal *, PetscReal *);
PetscErrorCode PPEBenchTimeMult(Mat, Vec, Vec, PetscReal *);
PetscErrorCode PPEBenchCopy(MPI_Comm, PetscInt, const PetscScalar *, PetscScalar *, PetscReal *);
PetscErrorCode PPEBenchDensity(PPEGrid, PetscReal, Mat);
PetscErrorCode PPEBenchRHS(PPEProblemType, PPEGrid, Vec);

/* the benchmark kinds */
PetscErrorCode PPEBenchStencil(MPI_Comm, const PPEBenchOptions *);
PetscErrorCode PPEBenchTridiag(MPI_Comm, const PPEBenchOptions *);
PetscErrorCode PPEBenchTileILU(MPI_Comm, const PPEBenchOptions *);
PetscErrorCode PPEBenchKrylov(MPI_Comm, const PPEBenchOptions *);
PetscErrorCode PPEBenchFFT(MPI_Comm, const PPEBenchOptions *);
PetscErrorCode PPEBenchFFT2d(MPI_Comm, const PPEBenchOptions *);
PetscErrorCode PPEBenchMG(MPI_Comm, const PPEBenchOptions *);
PetscErrorCode PPEBenchCA(MPI_Comm, const PPEBenchOptions *);
