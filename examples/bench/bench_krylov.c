/*
   ppe-bench -bench krylov: KSP cbcg against PETSc's cg and pipecg on the grid problems,
   for several preconditioners: iterations, time per iteration, global reductions per
   iteration (counted by PETSc's MPI counter, so on 2 or more ranks; cbcg's own count on any),
   the eigenvalue estimate's reductions apart (it is done in KSPSetUp), and the agreement of
   the solution with CG's. For each problem and preconditioner every solver is set up first,
   then all are solved in turn -bench_reps times (alternating); the best time is reported.

   Options (besides the grid's):
     -bench_krylov_problems mms,channel     problems (ppe-solve's names)
     -bench_krylov_pcs none,jacobi,bjacobi  preconditioners (any PC type name; bjacobi gets ICC(0)
                                            blocks unless -sub_pc_type says otherwise)
     -bench_krylov_aij_pcs bjacobi          the preconditioners built from the assembled operator
                                            (the others get the matrix-free one)
     -bench_krylov_s 4,8,12,16              block sizes of cbcg
     -bench_krylov_rtol 1e-10               relative tolerance
     -bench_krylov_basis                    also compare the conditioning of the first block's
                                            Gram matrix Q'AQ for the Chebyshev basis of cbcg and
                                            the monomial basis of classical s-step CG, s = 1..16
*/
#include "bench.h"
#include <ppekit/private/sstepimpl.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  PetscInt           its;
  KSPConvergedReason reason;
  PetscReal          setup_s, solve_s, rrel;
  PPECounters        c;
  KSPCBCGStats       st;
} Run;

/* A solver of the comparison: its KSP (set up once) and the measurements of its solves. */
typedef struct {
  KSP ksp;
  Vec x;
  Run run;
} Variant;

static PetscErrorCode VariantCreate(Mat A, Mat P, Vec b, const char *ksptype, const char *pctype, PetscBool asmpc, PetscInt s, PetscReal rtol, Variant *v)
{
  PC             pc;
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&v->run, sizeof(v->run)));
  PetscCall(KSPCreate(comm, &v->ksp));
  PetscCall(KSPSetOperators(v->ksp, A, asmpc ? P : A));
  PetscCall(KSPSetType(v->ksp, ksptype));
  PetscCall(KSPGetPC(v->ksp, &pc));
  PetscCall(PCSetType(pc, pctype));
  PetscCall(KSPSetTolerances(v->ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 20000));
  if (s) PetscCall(KSPCBCGSetS(v->ksp, s));
  PetscCall(KSPSetFromOptions(v->ksp));
  PetscCall(VecDuplicate(b, &v->x));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(v->ksp));
  PetscCall(KSPSetUpOnBlocks(v->ksp));
  PetscCall(PetscTime(&t1));
  v->run.setup_s = (PetscReal)(t1 - t0);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &v->run.setup_s, 1, MPIU_REAL, MPIU_MAX, comm));
  v->run.solve_s = PETSC_MAX_REAL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One timed solve from a zero initial guess; keeps the best time and the last counts. */
static PetscErrorCode VariantSolve(Variant *v, Mat A, Vec b, PetscBool cbcg)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);
  PetscLogDouble t0, t1;
  PPECounters    c0, c1;
  PetscReal      dt, rn, bn;
  Vec            r;

  PetscFunctionBegin;
  PetscCall(VecSet(v->x, 0.0));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PPECountersGet(&c0));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(v->ksp, b, v->x));
  PetscCall(PetscTime(&t1));
  PetscCall(PPECountersGet(&c1));
  PetscCall(PPECountersDiff(&c1, &c0, &v->run.c));
  dt = (PetscReal)(t1 - t0);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &dt, 1, MPIU_REAL, MPIU_MAX, comm));
  v->run.solve_s = PetscMin(v->run.solve_s, dt);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &v->run.c.reductions, 1, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &v->run.c.halo_exchanges, 1, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
  PetscCall(KSPGetIterationNumber(v->ksp, &v->run.its));
  PetscCall(KSPGetConvergedReason(v->ksp, &v->run.reason));
  if (cbcg) PetscCall(KSPCBCGGetStats(v->ksp, &v->run.st));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, v->x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &rn));
  PetscCall(VecNorm(b, NORM_2, &bn));
  v->run.rrel = rn / bn;
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||x - y|| / ||y|| (collective; errors abort through CHKERRABORT). */
static PetscReal RelDiff(Vec x, Vec y)
{
  Vec       w;
  PetscReal nw = 0, ny = 1;

  PetscCallAbort(PETSC_COMM_WORLD, VecDuplicate(x, &w));
  PetscCallAbort(PETSC_COMM_WORLD, VecWAXPY(w, -1.0, y, x));
  PetscCallAbort(PETSC_COMM_WORLD, VecNorm(w, NORM_2, &nw));
  PetscCallAbort(PETSC_COMM_WORLD, VecNorm(y, NORM_2, &ny));
  PetscCallAbort(PETSC_COMM_WORLD, VecDestroy(&w));
  return nw / ny;
}

static PetscErrorCode Print(MPI_Comm comm, const char *problem, const PetscInt N[3], const char *bcs, PetscMPIInt size, const char *pc, const char *ksp, PetscInt s, PetscReal rtol, PetscInt reps, const Run *r, PetscReal diff)
{
  char        line[2048];
  PetscMPIInt rank;
  PetscReal   its = r->its > 0 ? (PetscReal)r->its : 1;

  PetscFunctionBegin;
  snprintf(line, sizeof(line),
           "{\"bench\": \"krylov\", \"problem\": \"%s\", \"n\": [%d, %d, %d], \"bc\": \"%s\", \"ranks\": %d, \"pc\": \"%s\", \"ksp\": \"%s\", \"s\": %d, \"rtol\": %.1e, \"reps\": %d, "
           "\"its\": %d, \"reason\": \"%s\", \"rnorm_rel\": %.3e, \"diff_cg\": %.3e, \"setup_s\": %.4e, \"solve_s\": %.4e, \"ms_per_it\": %.4f, "
           "\"reductions\": %.0f, \"red_per_it\": %.4f, \"own_reductions\": %d, \"own_red_per_it\": %.4f, \"eig_reductions\": %d, \"eig_its\": %d, "
           "\"halo_per_it\": %.3f, \"cuts\": %d, \"restarts\": %d, \"cond_max\": %.3e}",
           problem, (int)N[0], (int)N[1], (int)N[2], bcs, (int)size, pc, ksp, (int)s, (double)rtol, (int)reps, (int)r->its, KSPConvergedReasons[r->reason], (double)r->rrel, (double)diff, (double)r->setup_s, (double)r->solve_s,
           (double)(1e3 * r->solve_s / its), r->c.reductions, r->c.reductions / its, (int)r->st.reductions, r->st.reductions / its, (int)r->st.eig_reductions, (int)r->st.eig_its, r->c.halo_exchanges / its, (int)r->st.truncations, (int)r->st.restarts,
           (double)r->st.cond_max);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (!rank) {
    printf("%s\n", line);
    fflush(stdout);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The basis comparison: from r = b and from the residual r after 30 CG iterations (with the
   same PC; the residual inside an iteration, whose extreme components CG has damped), the 16 columns of cbcg's Chebyshev basis
   S_j = M^-1 T_j(A M^-1) r on the interval cbcg uses, and of the monomial basis
   S_j = M^-1 (A M^-1 / lmax)^j r (the scaling changes no condition number after the
   equilibration); for every s the condition number of the equilibrated s x s Gram matrix
   D S'AS D of the leading s columns (what cbcg's Gram analysis sees in a first block) and
   whether it is still positive definite in floating point. One JSON line per basis.
*/
static PetscErrorCode BasisConditioning(Mat A, Mat P, Vec b, const char *pctype, PetscBool asmpc, const char *problem, PetscMPIInt size)
{
  const PetscInt   m = PPE_CBCG_SMAX;
  KSP              ksp;
  PC               pc;
  Vec             *S, *AS, Z[2];
  PetscScalar      G[PPE_CBCG_SMAX * PPE_CBCG_SMAX];
  PetscReal        lmin, lmax;
  KSPCBCGEigSource src;
  MPI_Comm         comm = PetscObjectComm((PetscObject)A);
  PetscMPIInt      rank;
  Vec              r, x;
  KSP              cg;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOperators(ksp, A, asmpc ? P : A));
  PetscCall(KSPSetType(ksp, KSPCBCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, pctype));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPSetUpOnBlocks(ksp));
  PetscCall(KSPCBCGGetEigenvalues(ksp, &lmin, &lmax, &src));
  PetscCall(VecDuplicateVecs(b, m, &S));
  PetscCall(VecDuplicateVecs(b, m, &AS));
  PetscCall(VecDuplicate(b, &Z[0]));
  PetscCall(VecDuplicate(b, &Z[1]));
  PetscCall(KSPCreate(comm, &cg));
  PetscCall(KSPSetOperators(cg, A, asmpc ? P : A));
  PetscCall(KSPSetType(cg, KSPCG));
  PetscCall(KSPSetPC(cg, pc));
  PetscCall(KSPSetTolerances(cg, 1e-300, 0, PETSC_DEFAULT, 30));
  for (PetscInt run = 0; run < 4; run++) {
    PetscInt      basis = run % 2, cgits = run < 2 ? 0 : 30;
    char          line[2048];
    size_t        len;
    PetscInt      smax   = 0;
    PetscBool     broken = PETSC_FALSE;
    PPEGramStatus first  = PPE_GRAM_OK;

    if (run == 2) { /* r = b - A x after 30 CG iterations from zero */
      PetscCall(VecSet(x, 0.0));
      PetscCall(KSPSolve(cg, b, x));
      PetscCall(MatMult(A, x, r));
      PetscCall(VecAYPX(r, -1.0, b));
    } else if (run == 0) PetscCall(VecCopy(b, r));
    if (basis == 0) PetscCall(PPECBCGBasis(A, pc, lmin, lmax, m, r, Z, S, AS));
    else {
      PetscCall(VecCopy(r, Z[0]));
      for (PetscInt j = 0; j < m; j++) {
        PetscCall(PCApply(pc, Z[0], S[j]));                /* S_j = M^-1 z_j */
        PetscCall(MatMult(A, S[j], AS[j]));                /* A S_j */
        PetscCall(VecAXPBY(Z[0], 1.0 / lmax, 0.0, AS[j])); /* z_{j+1} = A M^-1 z_j / lmax */
      }
    }
    PetscCall(PPETSGram(m, S, m, AS, m, G, 0, NULL)); /* the full S' A S: one reduction */
    snprintf(line, sizeof(line), "{\"bench\": \"krylov-basis\", \"problem\": \"%s\", \"ranks\": %d, \"pc\": \"%s\", \"basis\": \"%s\", \"lmin\": %.6e, \"lmax\": %.6e, \"interval\": \"%s\", \"cg_its_before\": %d, \"cond\": [", problem, (int)size,
             pctype, basis ? "monomial" : "chebyshev", (double)lmin, (double)lmax, KSPCBCGEigSources[src], (int)cgits);
    for (PetscInt s = 1; s <= m; s++) {
      PPEGramFactor f;
      PPEGramStatus st;

      PetscCall(PPEGramAnalyse(s, G, m, PETSC_MAX_REAL, PETSC_TRUE, &f, &st));
      if (st != PPE_GRAM_OK && first == PPE_GRAM_OK) first = st;
      if (st != PPE_GRAM_OK || !(f.cond_full <= 1e4)) broken = PETSC_TRUE;
      if (!broken) smax = s;
      len = strlen(line);
      snprintf(line + len, sizeof(line) - len, "%s%.3e", s > 1 ? ", " : "", (double)f.cond_full);
    }
    len = strlen(line);
    snprintf(line + len, sizeof(line) - len, "], \"smax_cond_1e4\": %d, \"first_failure\": \"%s\"}", (int)smax, PPEGramStatuses[first]);
    if (!rank) {
      printf("%s\n", line);
      fflush(stdout);
    }
  }
  PetscCall(VecDestroyVecs(m, &S));
  PetscCall(VecDestroyVecs(m, &AS));
  PetscCall(VecDestroy(&Z[0]));
  PetscCall(VecDestroy(&Z[1]));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&x));
  PetscCall(KSPDestroy(&cg));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEBenchKrylov(MPI_Comm comm, const PPEBenchOptions *o)
{
  char        pbs[8][64], pcs[8][64], aij[8][64], *list[8];
  PetscInt    npb = 8, npc = 8, naij = 8, svals[16] = {4, 8, 12, 16}, ns = 4;
  PetscReal   rtol = 1e-10;
  PetscMPIInt size;
  PetscBool   set, basis = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscLogDefaultBegin()); /* halo exchanges are counted from log events */
  PetscCallMPI(MPI_Comm_size(comm, &size));
  for (PetscInt i = 0; i < 8; i++) list[i] = pbs[i];
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-bench_krylov_problems", list, &npb, &set));
  if (!set) {
    npb = 2;
    PetscCall(PetscStrcpy(pbs[0], "mms"));
    PetscCall(PetscStrcpy(pbs[1], "channel"));
  } else {
    for (PetscInt i = 0; i < npb; i++) {
      PetscCall(PetscStrncpy(pbs[i], list[i], sizeof(pbs[i])));
      PetscCall(PetscFree(list[i]));
    }
  }
  for (PetscInt i = 0; i < 8; i++) list[i] = pcs[i];
  npc = 8;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-bench_krylov_pcs", list, &npc, &set));
  if (!set) {
    npc = 3;
    PetscCall(PetscStrcpy(pcs[0], PCNONE));
    PetscCall(PetscStrcpy(pcs[1], PCJACOBI));
    PetscCall(PetscStrcpy(pcs[2], PCBJACOBI));
  } else {
    for (PetscInt i = 0; i < npc; i++) {
      PetscCall(PetscStrncpy(pcs[i], list[i], sizeof(pcs[i])));
      PetscCall(PetscFree(list[i]));
    }
  }
  for (PetscInt i = 0; i < 8; i++) list[i] = aij[i];
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-bench_krylov_aij_pcs", list, &naij, &set));
  if (!set) {
    naij = 1;
    PetscCall(PetscStrcpy(aij[0], PCBJACOBI));
  } else {
    for (PetscInt i = 0; i < naij; i++) {
      PetscCall(PetscStrncpy(aij[i], list[i], sizeof(aij[i])));
      PetscCall(PetscFree(list[i]));
    }
  }
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-bench_krylov_s", svals, &ns, &set));
  if (!set) ns = 4;
  for (PetscInt i = 0; i < ns; i++) PetscCheck(svals[i] >= 1 && svals[i] <= 16, comm, PETSC_ERR_ARG_OUTOFRANGE, "-bench_krylov_s: block sizes 1..16, got %" PetscInt_FMT, svals[i]);
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-bench_krylov_rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bench_krylov_basis", &basis, NULL));
  PetscCall(PetscOptionsHasName(NULL, "sub_", "-pc_type", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-sub_pc_type", "icc"));

  for (PetscInt ip = 0; ip < npb; ip++) {
    PPEProblemType type = PPE_PROBLEM_MMS;
    PPEGrid        grid;
    DM             da;
    Mat            A, P;
    Vec            b;
    PetscBool      found = PETSC_FALSE;
    PetscInt       N[3];
    char           bcs[7];

    for (PetscInt t = 0; t < 3; t++) {
      PetscCall(PetscStrcmp(pbs[ip], PPEProblemNames[t], &set));
      if (set) {
        type  = (PPEProblemType)t;
        found = PETSC_TRUE;
      }
    }
    PetscCheck(found, comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "-bench_krylov_problems: unknown problem %s (mms, channel or bicgstab-paper)", pbs[ip]);
    PetscCall(PPEGridCreate(comm, &grid));
    PetscCall(PPEProblemSetGridDefaults(type, grid));
    PetscCall(PPEGridSetSizes(grid, 64, 64, 64));
    PetscCall(PPEGridSetFromOptions(grid));
    PetscCall(PPEGridSetUp(grid));
    PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
    PetscCall(PPEGridGetBCString(grid, bcs));
    PetscCall(PPEGridGetDM(grid, &da));
    PetscCall(PPEStencilCreate(grid, &A));
    PetscCall(PPEStencilCreateAssembled(grid, MATAIJ, &P));
    PetscCall(DMCreateGlobalVector(da, &b));
    PetscCall(PPEBenchRHS(type, grid, b));
    for (PetscInt ic = 0; ic < npc; ic++) {
      /* all variants set up first, then solved in turn in every repetition (alternating, so
         that the load of a shared machine falls on all of them alike); best time kept */
      Variant   v[2 + 16];
      PetscInt  nv    = 2 + ns;
      PetscBool asmpc = PETSC_FALSE;

      for (PetscInt i = 0; i < naij; i++) {
        PetscBool eq;
        PetscCall(PetscStrcmp(pcs[ic], aij[i], &eq));
        asmpc = (PetscBool)(asmpc || eq);
      }
      PetscCall(VariantCreate(A, P, b, KSPCG, pcs[ic], asmpc, 0, rtol, &v[0]));
      PetscCall(VariantCreate(A, P, b, KSPPIPECG, pcs[ic], asmpc, 0, rtol, &v[1]));
      for (PetscInt is = 0; is < ns; is++) PetscCall(VariantCreate(A, P, b, KSPCBCG, pcs[ic], asmpc, svals[is], rtol, &v[2 + is]));
      for (PetscInt rep = 0; rep < o->reps; rep++)
        for (PetscInt i = 0; i < nv; i++) PetscCall(VariantSolve(&v[i], A, b, (PetscBool)(i >= 2)));
      for (PetscInt i = 0; i < nv; i++) PetscCall(Print(comm, pbs[ip], N, bcs, size, pcs[ic], i == 0 ? KSPCG : (i == 1 ? KSPPIPECG : KSPCBCG), i >= 2 ? svals[i - 2] : 0, rtol, o->reps, &v[i].run, i ? RelDiff(v[i].x, v[0].x) : 0));
      for (PetscInt i = 0; i < nv; i++) {
        PetscCall(KSPDestroy(&v[i].ksp));
        PetscCall(VecDestroy(&v[i].x));
      }
      if (basis) PetscCall(BasisConditioning(A, P, b, pcs[ic], asmpc, pbs[ip], size));
    }
    PetscCall(VecDestroy(&b));
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&P));
    PetscCall(PPEGridDestroy(&grid));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
