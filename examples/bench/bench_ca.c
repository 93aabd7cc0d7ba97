/*
   ppe-bench -bench ca: the communication-avoiding solvers against their synchronous twins, per
   local size, for the crossover cost of a synchronisation:

     cbcg (s, PC jacobi)                      against CG + jacobi
     GNoComm(CI): bcgsfused + chebyci nocomm  against Bi-CGSTAB (bcgsfused, no PC)

   For each local size n (an n x n x n box per rank: the grid is n x n x n P on P ranks) the
   four solvers are set up, then solved in turn -bench_reps times (alternating), best time
   kept. Per solver: iterations, time per iteration, the synchronisations of a solve S =
   global reductions + halo exchanges (reductions: PETSc's MPI count on 2 or more ranks; on one
   rank, where nothing is sent, the calls that would reduce: the vector dot products and norms of
   the log, and the methods' own counts), the Chebyshev steps per iteration, and the model of
   the bytes a solver moves per point and iteration (the streams counted in docs/types/cbcg.md
   and docs/types/chebyci.md) at the measured STREAM triad bandwidth. Per pair the crossover

     L* = (T_X - T_Y) / (S_Y - S_X)

   (ppe-study's formula, T the solve time, all local on one rank): the cost of a synchronisation
   above which the method X that synchronises less is faster. One JSON line per solver and one
   per pair.

   Options (besides the grid's BCs and problem; -ppe_grid_n is set here):
     -bench_ca_n 32,64,128          local sizes
     -bench_ca_problem channel      problem (ppe-solve's names)
     -bench_ca_s 8                  cbcg's block size
     -bench_ca_rtol 1e-8            relative tolerance
*/
#include "bench.h"
#include <stdio.h>

typedef struct {
  const char *name, *ksp, *pc;
  KSP         ksp_;
  Vec         x;
  PetscInt    its;
  PetscReal   solve_s, syncs, red, halo, steps, rrel;
} Solver;

/* The vector reductions of the log so far (the current stage): dot products and norms, one
   global reduction each on 2 or more ranks (VecDotNorm2 is one). */
static PetscErrorCode VecReductions(PetscLogDouble *n)
{
  const char *const names[] = {"VecDot", "VecTDot", "VecNorm", "VecMDot", "VecMTDot", "VecDotNorm2"};

  PetscFunctionBegin;
  *n = 0;
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    PetscLogEvent      ev;
    PetscEventPerfInfo info;

    PetscCall(PetscLogEventGetId(names[i], &ev));
    if (ev < 0) continue;
    PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, ev, &info));
    *n += info.count;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SolverSetUp(Mat A, Vec b, PetscInt s, PetscReal rtol, Solver *v)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &v->ksp_));
  PetscCall(KSPSetOperators(v->ksp_, A, A));
  PetscCall(KSPSetType(v->ksp_, v->ksp));
  PetscCall(KSPGetPC(v->ksp_, &pc));
  PetscCall(PCSetType(pc, v->pc));
  PetscCall(KSPSetTolerances(v->ksp_, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 20000));
  if (!strcmp(v->ksp, KSPCBCG)) PetscCall(KSPCBCGSetS(v->ksp_, s));
  if (!strcmp(v->pc, PCCHEBYCI)) PetscCall(PCChebyCISetMode(pc, PC_CHEBYCI_NOCOMM));
  PetscCall(KSPSetFromOptions(v->ksp_));
  PetscCall(KSPSetUp(v->ksp_));
  PetscCall(KSPSetUpOnBlocks(v->ksp_));
  PetscCall(VecDuplicate(b, &v->x));
  v->solve_s = PETSC_MAX_REAL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One timed solve from zero; the best time, the last counts. */
static PetscErrorCode SolverSolve(Solver *v, Mat A, Vec b)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);
  PetscLogDouble t0, t1, r0, r1;
  PPECounters    c0, c1, dc;
  PetscMPIInt    size;
  PetscReal      dt, rn, bn;
  PetscInt       a0 = 0, a1 = 0, its = 0, own = 0;
  PC             pc;
  PetscBool      isci, iscb, isbf;
  Vec            r;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(KSPGetPC(v->ksp_, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCHEBYCI, &isci));
  PetscCall(PetscObjectTypeCompare((PetscObject)v->ksp_, KSPCBCG, &iscb));
  PetscCall(PetscObjectTypeCompare((PetscObject)v->ksp_, KSPBCGSFUSED, &isbf));
  if (isci) PetscCall(PCChebyCIGetApplications(pc, &a0));
  PetscCall(VecSet(v->x, 0.0));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PPECountersGet(&c0));
  PetscCall(VecReductions(&r0));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(v->ksp_, b, v->x));
  PetscCall(PetscTime(&t1));
  PetscCall(VecReductions(&r1));
  PetscCall(PPECountersGet(&c1));
  PetscCall(PPECountersDiff(&c1, &c0, &dc));
  dt = (PetscReal)(t1 - t0);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &dt, 1, MPIU_REAL, MPIU_MAX, comm));
  v->solve_s = PetscMin(v->solve_s, dt);
  PetscCall(KSPGetIterationNumber(v->ksp_, &its));
  v->its = its;
  if (iscb) {
    KSPCBCGStats st;
    PetscCall(KSPCBCGGetStats(v->ksp_, &st));
    own = st.reductions;
  } else if (isbf) PetscCall(KSPBCGSFusedGetReductionCount(v->ksp_, &own));
  /* reductions: counted by MPI on 2+ ranks; on one rank the vector reductions of the log and
     the methods' own (which make no PETSc vector reduction) */
  v->red  = size > 1 ? (PetscReal)dc.reductions : (PetscReal)(r1 - r0) + own;
  v->halo = (PetscReal)dc.halo_exchanges;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &v->red, 1, MPIU_REAL, MPIU_MAX, comm));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &v->halo, 1, MPIU_REAL, MPIU_MAX, comm));
  v->syncs = v->red + v->halo;
  if (isci) {
    PetscInt cits;
    PetscCall(PCChebyCIGetApplications(pc, &a1));
    PetscCall(PCChebyCIGetIterations(pc, &cits));
    v->steps = its ? (PetscReal)(a1 - a0) * cits / its : 0;
  }
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, v->x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  v->rrel = rn / bn;
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Bytes per point and iteration of each solver's vector streams (8 bytes per access, a written
   array read once more for ownership), as docs/types/cbcg.md and docs/types/chebyci.md count
   them:
     CG + jacobi           19 accesses (152 B)
     cbcg s + jacobi       full blocks: 165 B at s = 8 (the page's model; other s: not modelled)
     Bi-CGSTAB, no PC      two fused operator applications with their dot products (3 accesses
                           each), the updates of p (4), s/r (3), x (4) and r (4): 17 accesses
     GNoComm(CI)           Bi-CGSTAB's 17 and per Chebyshev step 6 accesses streamed (y, b, z,
                           D^-1 read, w written), or per sweep of m steps 8 (y, z, b, D^-1 read,
                           two levels written), and per application the scaling (4 accesses)
*/
static PetscReal ModelBytes(const Solver *v, PetscInt s, PetscInt m, PetscInt cits)
{
  if (!strcmp(v->ksp, KSPCG)) return 152.0;
  if (!strcmp(v->ksp, KSPCBCG)) return s == 8 ? 165.0 : 0.0;
  if (!strcmp(v->pc, PCNONE)) return 17.0 * 8;
  {
    PetscReal per = m >= 2 ? 8.0 * 8 * PetscCeilReal((PetscReal)cits / m) : 6.0 * 8 * cits;
    return 17.0 * 8 + 2 * (per + 4.0 * 8);
  }
}

PetscErrorCode PPEBenchCA(MPI_Comm comm, const PPEBenchOptions *o)
{
  PetscInt       nvals[8] = {32, 64, 128}, nn = 3, s = 8;
  char           prob[64] = "channel";
  PetscReal      rtol = 1e-8, copy = 0, triad = 0;
  PetscMPIInt    size, rank;
  PPEProblemType type  = PPE_PROBLEM_CHANNEL;
  PetscBool      found = PETSC_FALSE, set;

  PetscFunctionBegin;
  PetscCall(PetscLogDefaultBegin()); /* halo exchanges and vector reductions are counted from the log */
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-bench_ca_n", nvals, &nn, &set));
  if (!set) nn = 3;
  for (PetscInt i = 0; i < nn; i++) PetscCheck(nvals[i] >= 4, comm, PETSC_ERR_ARG_OUTOFRANGE, "-bench_ca_n: local sizes >= 4, got %" PetscInt_FMT, nvals[i]);
  PetscCall(PetscOptionsGetString(NULL, NULL, "-bench_ca_problem", prob, sizeof(prob), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_ca_s", &s, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-bench_ca_rtol", &rtol, NULL));
  for (PetscInt t = 0; t < 3; t++) {
    PetscCall(PetscStrcmp(prob, PPEProblemNames[t], &set));
    if (set) {
      type  = (PPEProblemType)t;
      found = PETSC_TRUE;
    }
  }
  PetscCheck(found, comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "-bench_ca_problem: unknown problem %s (mms, channel or bicgstab-paper)", prob);
  PetscCall(PPEBenchStream(comm, o->stream_n, o->reps, &copy, &triad));

  for (PetscInt in = 0; in < nn; in++) {
    PetscInt n = nvals[in], N[3], cits = 0, m = 0;
    PPEGrid  grid;
    DM       da;
    Mat      A;
    Vec      b;
    char     bcs[7];
    Solver   v[4] = {
        {"cg-jacobi",   KSPCG,        PCJACOBI,  NULL, NULL, 0, 0, 0, 0, 0, 0, 0},
        {"cbcg-jacobi", KSPCBCG,      PCJACOBI,  NULL, NULL, 0, 0, 0, 0, 0, 0, 0},
        {"bicgstab",    KSPBCGSFUSED, PCNONE,    NULL, NULL, 0, 0, 0, 0, 0, 0, 0},
        {"gnocomm-ci",  KSPBCGSFUSED, PCCHEBYCI, NULL, NULL, 0, 0, 0, 0, 0, 0, 0},
    };

    PetscCall(PPEGridCreate(comm, &grid));
    PetscCall(PPEProblemSetGridDefaults(type, grid));
    PetscCall(PPEGridSetFromOptions(grid));
    PetscCall(PPEGridSetSizes(grid, n, n, n * size)); /* n^3 per rank */
    PetscCall(PPEGridSetUp(grid));
    PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
    PetscCall(PPEGridGetBCString(grid, bcs));
    PetscCall(PPEGridGetDM(grid, &da));
    PetscCall(PPEStencilCreate(grid, &A));
    PetscCall(DMCreateGlobalVector(da, &b));
    PetscCall(PPEBenchRHS(type, grid, b));
    for (int i = 0; i < 4; i++) PetscCall(SolverSetUp(A, b, s, rtol, &v[i]));
    {
      PC pc;
      PetscCall(KSPGetPC(v[3].ksp_, &pc));
      PetscCall(PCChebyCIGetIterations(pc, &cits));
      PetscCall(PCChebyCIGetBlockSteps(pc, &m));
    }
    for (PetscInt rep = 0; rep < o->reps; rep++)
      for (int i = 0; i < 4; i++) PetscCall(SolverSolve(&v[i], A, b));
    for (int i = 0; i < 4; i++) {
      PetscReal its = v[i].its ? v[i].its : 1, bytes = ModelBytes(&v[i], s, m, cits);
      PetscReal npts = (PetscReal)n * n * n;

      if (!rank)
        printf("{\"bench\": \"ca\", \"problem\": \"%s\", \"n_local\": %d, \"n\": [%d, %d, %d], \"bc\": \"%s\", \"ranks\": %d, \"solver\": \"%s\", \"ksp\": \"%s\", \"pc\": \"%s\", \"s\": %d, \"rtol\": %.1e, \"reps\": %d, "
               "\"its\": %d, \"rnorm_rel\": %.3e, \"solve_s\": %.4e, \"ms_per_it\": %.4f, \"reductions\": %.0f, \"halo_exchanges\": %.0f, \"syncs\": %.0f, \"syncs_per_it\": %.3f, \"cheb_steps_per_it\": %.1f, \"cheb_block_steps\": %d, "
               "\"model_bytes_per_pt_it\": %.0f, \"model_ms_per_it\": %.4f, \"triad_gbs\": %.2f}\n",
               prob, (int)n, (int)N[0], (int)N[1], (int)N[2], bcs, (int)size, v[i].name, v[i].ksp, v[i].pc, i == 1 ? (int)s : 0, (double)rtol, (int)o->reps, (int)v[i].its, (double)v[i].rrel, (double)v[i].solve_s, (double)(1e3 * v[i].solve_s / its),
               (double)v[i].red, (double)v[i].halo, (double)v[i].syncs, (double)(v[i].syncs / its), (double)v[i].steps, i == 3 ? (int)m : 0, (double)bytes, bytes > 0 ? (double)(1e3 * bytes * npts / (triad * 1e9)) : 0.0, (double)triad);
    }
    for (int p = 0; p < 2; p++) { /* X = v[2p+1] (communication-avoiding), Y = v[2p] */
      const Solver *X = &v[2 * p + 1], *Y = &v[2 * p];
      PetscReal     dT = X->solve_s - Y->solve_s, dS = Y->syncs - X->syncs;
      const char   *how;
      PetscReal     L = 0;

      if (dS > 0 && dT > 0) {
        how = "faster above L*";
        L   = dT / dS;
      } else if (dS > 0) how = "faster at any L";
      else if (dT < 0) {
        how = "faster below L* only";
        L   = dS < 0 ? dT / dS : 0;
      } else how = "never faster";
      if (!rank)
        printf("{\"bench\": \"ca-pair\", \"problem\": \"%s\", \"n_local\": %d, \"ranks\": %d, \"x\": \"%s\", \"y\": \"%s\", \"t_x_s\": %.4e, \"t_y_s\": %.4e, "
               "\"s_x\": %.0f, \"s_y\": %.0f, \"its_x\": %d, \"its_y\": %d, \"local_ratio_per_it\": %.3f, \"crossover\": \"%s\", \"lstar_s\": %.4e}\n",
               prob, (int)n, (int)size, X->name, Y->name, (double)X->solve_s, (double)Y->solve_s, (double)X->syncs, (double)Y->syncs, (int)X->its, (int)Y->its, (double)((X->solve_s / PetscMax(X->its, 1)) / (Y->solve_s / PetscMax(Y->its, 1))), how,
               (double)L);
    }
    if (!rank) fflush(stdout);
    for (int i = 0; i < 4; i++) {
      PetscCall(KSPDestroy(&v[i].ksp_));
      PetscCall(VecDestroy(&v[i].x));
    }
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&A));
    PetscCall(PPEGridDestroy(&grid));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
