/*
   ppe-bench -bench tileilu: PC tileilu for a table of tile shapes (Ali et al. (2019), Table I,
   scaled from 256x128x512 to 128x64x256) against PETSc's bjacobi with ILU(0) and with ICC(0)
   sub-solves on the assembled operator, on one problem (-bench_tileilu_problem, grid
   options as ppe-solve's): set-up time, time of one application per unknown (best of
   -bench_reps) in the xyz layout, the zyx layout fused group by group (the default) and
   the zyx layout in three passes (gather / sweep / scatter split from the log events),
   memory, and the iterations and time to solution of the Krylov methods
   (-bench_tileilu_ksp, default cg) from a zero guess to -bench_tileilu_rtol with the
   default (fused zyx) variant; the xyz variant computes the same numbers (test t611).

   Options: -bench_tileilu_tiles bx,by,bz,bx,by,bz,... (default: the table below),
   -bench_tileilu_cg 0 (apply times only).

   References:
     Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of
     communication avoiding Chebyshev basis conjugate gradient solver for multiphase CFD
     simulations", ScalA workshop at SC19 (IEEE/ACM), 2019.
*/
#define _POSIX_C_SOURCE 200112L /* clock_gettime() under -std=c11 */
#include "bench.h"
#include <time.h>

/* CPU time of this process: on a shared machine it leaves out the time other tenants hold the core. */
static PetscReal CPUTime(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (PetscReal)ts.tv_sec + 1e-9 * (PetscReal)ts.tv_nsec;
}

/* The default table: the whole box (= bjacobi+ILU(0)), z slabs as the CPU version of Ali
   et al., their tile shapes, z lines, and tiles elongated in z. */
static const PetscInt default_tiles[][3] = {
  {1 << 20, 1 << 20, 1 << 20},
  {1 << 20, 1 << 20, 16     },
  {16,      32,      4      },
  {16,      16,      4      },
  {8,       8,       16     },
  {16,      16,      1      },
  {8,       8,       1      },
  {4,       4,       4      },
  {2,       4,       64     },
  {1,       8,       8      },
  {1,       1,       1 << 20},
  {16,      16,      16     },
  {8,       8,       32     },
  {16,      16,      32     }
};

typedef struct {
  PetscReal setup_s, fact_s, perm_s, apply_s, apply_cpu_s, gather_s, sweep_s, scatter_s, mem;
  PetscInt  tile[3], ntiles;
} PCTiming;

/* Time of an event so far in the main stage. */
static PetscErrorCode EventTime(PetscLogEvent e, PetscReal *t)
{
  PetscEventPerfInfo info;

  PetscFunctionBegin;
  PetscCall(PetscLogEventGetPerfInfo(0, e, &info));
  *t = (PetscReal)info.time;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Maximum over ranks of a time. */
static PetscErrorCode MaxTime(MPI_Comm comm, PetscReal *t)
{
  PetscFunctionBegin;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, t, 1, MPIU_REAL, MPIU_MAX, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Set up and time one PC: a tileilu shape/layout (tile != NULL) or PETSc's bjacobi with the
   sub-PC type sub (ilu or icc) on P. Set-up time, then the best of reps applications.
*/
static PetscErrorCode TimePC(Mat A, Mat P, const PetscInt tile[3], PCTileILULayout layout, PetscBool fuse, PCType sub, PetscInt reps, Vec x, Vec y, PC *pcout, PCTiming *t)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);
  PC             pc;
  PetscLogDouble t0, t1;
  PetscReal      e0[5], e1[5];
  PetscLogEvent  ev[5];
  const char    *evname[5] = {"PPETileILUFact", "PPETileILUPerm", " PPETileGather", " PPETileSweep", " PPETileScatter"};

  PetscFunctionBegin;
  for (int i = 0; i < 5; i++) PetscCall(PetscLogEventGetId(evname[i], &ev[i]));
  PetscCall(PetscMemzero(t, sizeof(*t)));
  PetscCall(PCCreate(comm, &pc));
  PetscCall(PCSetOperators(pc, A, P));
  if (tile) {
    PetscCall(PCSetType(pc, PCTILEILU));
    PetscCall(PCTileILUSetTile(pc, tile[0], tile[1], tile[2]));
    PetscCall(PCTileILUSetLayout(pc, layout));
    PetscCall(PCTileILUSetFuse(pc, fuse));
  } else PetscCall(PCSetType(pc, PCBJACOBI));
  for (int i = 0; i < 5; i++) PetscCall(EventTime(ev[i], &e0[i]));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  PetscCall(PCSetUp(pc));
  if (!tile) {
    KSP     *subksp;
    PetscInt nsub, first;
    PC       spc;
    PetscCall(PCBJacobiGetSubKSP(pc, &nsub, &first, &subksp));
    PetscCall(KSPGetPC(subksp[0], &spc));
    PetscCall(PCSetType(spc, sub));
    PetscCall(PCSetUpOnBlocks(pc)); /* the factorisation */
  }
  PetscCall(PetscTime(&t1));
  t->setup_s = (PetscReal)(t1 - t0);
  PetscCall(MaxTime(comm, &t->setup_s));
  PetscCall(PCApply(pc, x, y)); /* warm up */
  t->apply_s     = PETSC_MAX_REAL;
  t->apply_cpu_s = PETSC_MAX_REAL;
  for (int i = 2; i < 5; i++) PetscCall(EventTime(ev[i], &e0[i]));
  for (PetscInt r = 0; r < reps; r++) {
    PetscReal dt, c0, dc;
    PetscCallMPI(MPI_Barrier(comm));
    c0 = CPUTime();
    PetscCall(PetscTime(&t0));
    PetscCall(PCApply(pc, x, y));
    PetscCall(PetscTime(&t1));
    dc = CPUTime() - c0;
    dt = (PetscReal)(t1 - t0);
    PetscCall(MaxTime(comm, &dt));
    PetscCall(MaxTime(comm, &dc));
    t->apply_s     = PetscMin(t->apply_s, dt);
    t->apply_cpu_s = PetscMin(t->apply_cpu_s, dc);
  }
  if (tile) {
    for (int i = 0; i < 5; i++) PetscCall(EventTime(ev[i], &e1[i]));
    t->fact_s    = e1[0] - e0[0];
    t->perm_s    = e1[1] - e0[1];
    t->gather_s  = (e1[2] - e0[2]) / reps; /* mean per application */
    t->sweep_s   = (e1[3] - e0[3]) / reps;
    t->scatter_s = (e1[4] - e0[4]) / reps;
    PetscCall(MaxTime(comm, &t->fact_s));
    PetscCall(MaxTime(comm, &t->perm_s));
    PetscCall(MaxTime(comm, &t->gather_s));
    PetscCall(MaxTime(comm, &t->sweep_s));
    PetscCall(MaxTime(comm, &t->scatter_s));
    {
      PetscLogDouble bytes;
      PetscCall(PCTileILUGetInfo(pc, t->tile, &t->ntiles, &bytes));
      t->mem = (PetscReal)bytes;
      PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &t->mem, 1, MPIU_REAL, MPIU_SUM, comm));
      PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &t->ntiles, 1, MPIU_INT, MPI_SUM, comm));
    }
  }
  *pcout = pc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CG (or any KSP type) with a set-up PC: iterations and time to solution from a zero guess. */
static PetscErrorCode TimeSolve(Mat A, PC pc, KSPType type, PetscReal rtol, Vec b, Vec x, PetscInt *its, PetscReal *solve_s, KSPConvergedReason *reason)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)A);
  KSP            ksp;
  Mat            P;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PCGetOperators(pc, NULL, &P));
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPSetPC(ksp, pc));
  PetscCall(KSPSetOperators(ksp, A, P));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, 5000));
  PetscCall(KSPSetOptionsPrefix(ksp, "bench_"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  PetscCall(VecSet(x, 0.0));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(PetscTime(&t1));
  *solve_s = (PetscReal)(t1 - t0);
  PetscCall(MaxTime(comm, solve_s));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEBenchTileILU(MPI_Comm comm, const PPEBenchOptions *o)
{
  PPEGrid        grid;
  Mat            Amf, Aaij;
  Vec            x, y, b, u;
  PetscRandom    rnd;
  PetscInt       N[3], tiles[3 * 64], ntv = 3 * 64, nt;
  PetscReal      rtol = 1e-8, npts, asm_s;
  PetscBool      cg   = PETSC_TRUE, flg, known;
  PetscInt       prob = PPE_PROBLEM_CHANNEL;
  PetscMPIInt    size;
  char           kspnames[256] = "cg", *kspv[8], bcs[7];
  int            nksp          = 0;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscOptionsBegin(comm, NULL, "ppe-bench -bench tileilu options", "PPEKit");
  PetscCall(PetscOptionsIntArray("-bench_tileilu_tiles", "Tile shapes bx,by,bz,bx,by,bz,...", "PCTileILUSetTile", tiles, &ntv, &flg));
  PetscCall(PetscOptionsEList("-bench_tileilu_problem", "Problem: mms, channel or bicgstab-paper", "PPEProblemSetGridDefaults", PPEProblemNames, 3, PPEProblemNames[prob], &prob, NULL));
  PetscCall(PetscOptionsBool("-bench_tileilu_cg", "Also solve with the Krylov methods", NULL, cg, &cg, NULL));
  PetscCall(PetscOptionsString("-bench_tileilu_ksp", "Krylov methods, comma separated", NULL, kspnames, kspnames, sizeof(kspnames), NULL));
  PetscCall(PetscOptionsReal("-bench_tileilu_rtol", "Relative tolerance of the solves", NULL, rtol, &rtol, NULL));
  PetscOptionsEnd();
  if (flg) {
    PetscCheck(ntv % 3 == 0, comm, PETSC_ERR_ARG_SIZ, "-bench_tileilu_tiles needs 3 sizes per shape, got %" PetscInt_FMT " values", ntv);
    nt = ntv / 3;
  } else {
    nt = (PetscInt)(sizeof(default_tiles) / sizeof(default_tiles[0]));
    for (PetscInt i = 0; i < nt; i++)
      for (int d = 0; d < 3; d++) tiles[3 * i + d] = default_tiles[i][d];
  }
  for (char *tok = strtok(kspnames, ","); tok && nksp < 8; tok = strtok(NULL, ",")) kspv[nksp++] = tok;

  PetscCall(PetscLogDefaultBegin()); /* the event times of the gather, sweep and scatter */
  PetscCall(PPEGridCreate(comm, &grid));
  PetscCall(PPEProblemSetGridDefaults((PPEProblemType)prob, grid));
  PetscCall(PPEGridSetSizes(grid, 128, 64, 256));
  PetscCall(PPEGridSetFromOptions(grid));
  PetscCall(PPEGridSetUp(grid));
  PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
  npts = (PetscReal)N[0] * N[1] * N[2];
  PetscCall(PPEGridGetBCString(grid, bcs));
  PetscCall(PPEStencilCreate(grid, &Amf));
  PetscCall(PetscTime(&t0));
  PetscCall(PPEStencilCreateAssembled(grid, MATAIJ, &Aaij));
  PetscCall(PetscTime(&t1));
  asm_s = (PetscReal)(t1 - t0);
  PetscCall(MatCreateVecs(Amf, &x, &y));
  PetscCall(VecDuplicate(x, &b));
  PetscCall(VecDuplicate(x, &u));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PPEProblemComputeRHS((PPEProblemType)prob, grid, b, u, &known));
  {
    PetscBool singular;
    PetscCall(PPEGridIsSingular(grid, &singular));
    if (singular) {
      PetscScalar s;
      PetscCall(VecSum(b, &s));
      PetscCall(VecShift(b, -s / npts));
    }
  }

  /* the baselines, then every shape: xyz, zyx in three passes, zyx fused (and the solves) */
  for (PetscInt c = -2; c < 3 * nt; c++) {
    PCTiming        t;
    PC              pc;
    const PetscInt *tile   = c >= 0 ? &tiles[3 * (c / 3)] : NULL;
    PetscInt        var    = c >= 0 ? c % 3 : -1;
    PCTileILULayout layout = var > 0 ? PC_TILEILU_LAYOUT_ZYX : PC_TILEILU_LAYOUT_XYZ;
    PetscBool       fuse = (PetscBool)(var == 2), solve = (PetscBool)(cg && (c < 0 || var == 2));
    const char     *name = c == -2 ? "bjacobi+ilu(0)" : c == -1 ? "bjacobi+icc(0)" : "tileilu";

    PetscCall(TimePC(Amf, tile ? Amf : Aaij, tile, layout, fuse, c == -2 ? PCILU : PCICC, o->reps, x, y, &pc, &t));
    PetscCall(PetscPrintf(comm, "{\"bench\": \"tileilu\", \"problem\": \"%s\", \"bc\": \"%s\", \"n\": [%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT "], \"ranks\": %d, \"reps\": %" PetscInt_FMT ", \"pc\": \"%s\"", PPEProblemNames[prob], bcs,
                          N[0], N[1], N[2], (int)size, o->reps, name));
    if (tile)
      PetscCall(PetscPrintf(comm,
                            ", \"tile\": [%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT "], \"layout\": \"%s\", \"fused\": %s, \"ntiles\": %" PetscInt_FMT
                            ", \"fact_s\": %.6e, \"perm_s\": %.6e, \"gather_ns\": %.4f, \"sweep_ns\": %.4f, \"scatter_ns\": %.4f, \"bytes_per_unknown\": %.2f",
                            t.tile[0], t.tile[1], t.tile[2], PCTileILULayouts[layout],
                            var == 0   ? "null"
                            : var == 1 ? "false"
                                       : "true",
                            t.ntiles, (double)t.fact_s, (double)t.perm_s, (double)(1e9 * t.gather_s / npts), (double)(1e9 * t.sweep_s / npts), (double)(1e9 * t.scatter_s / npts), (double)(t.mem / npts)));
    else PetscCall(PetscPrintf(comm, ", \"assembly_s\": %.6e", (double)asm_s));
    PetscCall(
      PetscPrintf(comm, ", \"setup_s\": %.6e, \"apply_s\": %.6e, \"apply_ns_per_unknown\": %.4f, \"apply_cpu_ns_per_unknown\": %.4f", (double)t.setup_s, (double)t.apply_s, (double)(1e9 * t.apply_s / npts), (double)(1e9 * t.apply_cpu_s / npts)));
    if (solve)
      for (int k = 0; k < nksp; k++) {
        PetscInt           its;
        PetscReal          s;
        KSPConvergedReason reason;
        PetscCall(TimeSolve(Amf, pc, kspv[k], rtol, b, y, &its, &s, &reason));
        PetscCall(PetscPrintf(comm, ", \"%s_its\": %" PetscInt_FMT ", \"%s_s\": %.6e, \"%s_reason\": \"%s\"", kspv[k], its, kspv[k], (double)s, kspv[k], KSPConvergedReasons[reason]));
      }
    PetscCall(PetscPrintf(comm, "}\n"));
    PetscCall(PCDestroy(&pc));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&u));
  PetscCall(MatDestroy(&Amf));
  PetscCall(MatDestroy(&Aaij));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}
