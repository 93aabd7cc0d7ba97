static const char help[] = "ppe-bench: PPEKit benchmarks, one JSON line per measurement.\n\
  -bench <kind>    the benchmark (see the list under -help); grid options (-ppe_grid_n,\n\
                   -ppe_bc, ...) choose the operator where one is used\n\n";

#include "bench.h"

/* The benchmark kinds: one line each. */
static const struct {
  const char *name;
  PetscErrorCode (*run)(MPI_Comm, const PPEBenchOptions *);
} kinds[] = {
  {"stencil", PPEBenchStencil}, /* matrix-free vs AIJ MatMult, STREAM copy/triad */
  {"tridiag", PPEBenchTridiag}, /* batched tridiagonal solves vs STREAM copy, bytes vs model */
  {"tileilu", PPEBenchTileILU}, /* PC tileilu tile shapes vs bjacobi+ILU(0)/ICC(0): apply time, CG */
  {"krylov",  PPEBenchKrylov }, /* KSP cbcg vs cg and pipecg: iterations, time and reductions per iteration */
  {"fft",     PPEBenchFFT    }, /* PC fftptdma vs bare FFTW transforms and PETSc/hypre solvers, bytes vs model */
  {"fft2d",   PPEBenchFFT2d  }, /* PC fftptdma on 2D problems vs the 2D floor (FFTW 1D + tridiagonal) and PETSc/hypre */
  {"mg",      PPEBenchMG     }, /* PC ppemg: set-up, V-cycle and per-level cost vs the bytes each level moves */
  {"ca",      PPEBenchCA     }, /* cbcg vs CG, GNoComm(CI) vs Bi-CGSTAB per local size: time, synchronisations, crossover L* */
};
static const PetscInt nkinds = (PetscInt)(sizeof(kinds) / sizeof(kinds[0]));

int main(int argc, char **argv)
{
  const char     *names[sizeof(kinds) / sizeof(kinds[0])];
  MPI_Comm        comm;
  PetscInt        k = 0;
  PPEBenchOptions o = {20, 1 << 25};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  for (PetscInt i = 0; i < nkinds; i++) names[i] = kinds[i].name;
  PetscOptionsBegin(comm, NULL, "ppe-bench options", "PPEKit");
  PetscCall(PetscOptionsEList("-bench", "Benchmark to run", NULL, names, nkinds, names[0], &k, NULL));
  PetscCall(PetscOptionsInt("-bench_reps", "Repetitions (best reported)", NULL, o.reps, &o.reps, NULL));
  PetscCall(PetscOptionsInt("-bench_stream_n", "Doubles per array and rank of the STREAM-like kernels", NULL, o.stream_n, &o.stream_n, NULL));
  PetscOptionsEnd();
  PetscCheck(o.reps >= 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "-bench_reps must be >= 1, got %" PetscInt_FMT, o.reps);
  PetscCall(kinds[k].run(comm, &o));
  PetscCall(PetscFinalize());
  return 0;
}
