static const char help[] = "Device-resident solves (-ppe_backend emu by default) against the same solves on the host:\n\
  - KSP cbcg (s = 8, one and two reductions, s = 1: CG), KSP bcgsfused with PC chebyci in\n\
    every mode (fused and not, weighted and not), PC tileilu, PC none, and preonly +\n\
    fftptdma, on a nonsingular (NNNNDD) and a singular periodic (PPNNNN) problem;\n\
  - iterations equal; solutions bitwise equal for bcgsfused (the device sums its dot products\n\
    in the host's order), else equal to 1e-12 (relative 2-norm of the difference: cbcg's Gram\n\
    blocks and fftptdma's transforms are summed in another order on the device);\n\
  - host<->device bytes of a solve (the second: the first also moves the operator's tables\n\
    and the PC's factors once) = one copy of b in + x out + the reductions' numbers, which\n\
    stay below 64 doubles per iteration (plus one block of 8), at two tolerances (so the vector part does not\n\
    grow with the iterations); the halo faces are counted apart;\n\
  - the host view of a device-resident vector stays coherent (device write, host read, host\n\
    write, device read, duplicates).\n\
  -ppe_test_backend NAME   device back end (default: emu)\n\
  -n nx,ny,nz              grid (default 12,10,8)\n\n";

#include <ppekit.h>
#include <ppekit/private/backendimpl.h>
#include "tap.h"
#include <math.h>

typedef struct {
  const char *name;
  const char *opts;
  PetscBool   bitwise; /* every kernel and every sum of the solve gives the host's bits */
} Case;

static const Case cases[] = {
  {"cbcg + chebyci global",              "-ksp_type cbcg -pc_type chebyci -pc_chebyci_mode global",                             PETSC_FALSE},
  {"cbcg + chebyci block",               "-ksp_type cbcg -pc_type chebyci -pc_chebyci_mode block",                              PETSC_FALSE},
  {"cbcg + chebyci nocomm",              "-ksp_type cbcg -pc_type chebyci -pc_chebyci_mode nocomm",                             PETSC_FALSE},
  {"cbcg + chebyci nocomm unfused",      "-ksp_type cbcg -pc_type chebyci -pc_chebyci_mode nocomm -pc_chebyci_fuse 0",          PETSC_FALSE},
  {"cbcg + chebyci unweighted",          "-ksp_type cbcg -pc_type chebyci -pc_chebyci_weighted 0",                              PETSC_FALSE},
  {"cbcg two reductions + chebyci",      "-ksp_type cbcg -ksp_cbcg_single_reduction 0 -pc_type chebyci",                        PETSC_FALSE},
  {"cbcg s=1 (CG) + chebyci",            "-ksp_type cbcg -ksp_cbcg_s 1 -pc_type chebyci",                                       PETSC_FALSE},
  {"bcgsfused + chebyci global",         "-ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode global",                        PETSC_TRUE },
  {"bcgsfused + chebyci block",          "-ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode block",                         PETSC_TRUE },
  {"bcgsfused + chebyci nocomm unfused", "-ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode nocomm -pc_chebyci_fuse 0",     PETSC_TRUE },
  {"cbcg + tileilu",                     "-ksp_type cbcg -pc_type tileilu",                                                     PETSC_FALSE},
  {"bcgsfused + chebyci nocomm",         "-ksp_type bcgsfused -pc_type chebyci -pc_chebyci_mode nocomm -pc_chebyci_weighted 0", PETSC_TRUE },
  {"bcgsfused + tileilu xyz",            "-ksp_type bcgsfused -pc_type tileilu -pc_tileilu_layout xyz",                         PETSC_TRUE },
  {"bcgsfused + tileilu zyx",            "-ksp_type bcgsfused -pc_type tileilu -pc_tileilu_layout zyx",                         PETSC_TRUE },
  {"cbcg + none",                        "-ksp_type cbcg -pc_type none",                                                        PETSC_FALSE},
  {"bcgsfused + none",                   "-ksp_type bcgsfused -pc_type none",                                                   PETSC_TRUE },
  {"preonly + fftptdma",                 "-ksp_type preonly -pc_type fftptdma",                                                 PETSC_FALSE},
};

static const char *const bcs[] = {"NNNNDD", "PPNNNN"};

/* options of a case under the prefix pre (each "-name" becomes "-<pre>name") */
static PetscErrorCode InsertPrefixed(const char *pre, const char *opts, PetscReal rtol)
{
  char buf[1024], *p = buf;

  PetscFunctionBegin;
  for (const char *s = opts; *s; s++) {
    if (*s == '-' && (s == opts || s[-1] == ' ')) {
      *p++ = '-';
      for (const char *q = pre; *q; q++) *p++ = *q;
    } else *p++ = *s;
  }
  *p = 0;
  PetscCall(PetscOptionsInsertString(NULL, buf));
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "-%sksp_rtol %g -%sksp_max_it 2000", pre, (double)rtol, pre));
  PetscCall(PetscOptionsInsertString(NULL, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Most monitor calls recorded */
#define MAXMON 256

typedef struct {
  PetscReal      rres; /* ||b - A x|| / ||b|| */
  PetscInt       its;
  PetscLogDouble bytes, halo; /* of the second solve, summed over the ranks */
  PetscInt       nglobal;
  PetscInt       nmon;          /* monitor calls of the first solve ... */
  PetscReal      xnorm[MAXMON]; /* ... and the norm of the solution each built (KSPBuildSolution) */
  PetscReal      xfinal;        /* the norm of the solution of the first solve */
} Result;

/* A monitor that builds the solution as it stands and records its norm. */
static PetscErrorCode MonitorSolution(KSP ksp, PetscInt its, PetscReal rnorm, void *ctx)
{
  Result *res = (Result *)ctx;
  Vec     x;

  PetscFunctionBegin;
  (void)its;
  (void)rnorm;
  PetscCall(KSPBuildSolution(ksp, NULL, &x));
  if (res->nmon < MAXMON) PetscCall(VecNorm(x, NORM_2, &res->xnorm[res->nmon]));
  res->nmon++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solve the case on back end be (twice, the second measured); x receives the solution. */
static PetscErrorCode Run(MPI_Comm comm, const PetscInt n[3], const char *bc, const char *be, const Case *c, PetscInt tag, PetscReal rtol, Vec *xout, Result *res)
{
  PPEGrid        grid;
  DM             da;
  Mat            A;
  Vec            b, x;
  KSP            ksp;
  PetscBool      singular;
  PPECounters    c0, c1, d;
  char           pre[32];
  PetscInt       lo, hi;
  PetscLogDouble loc[2], sum[2];

  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-ppe_backend", be));
  PetscCall(PPEGridCreate(comm, &grid));
  PetscCall(PPEGridSetSizes(grid, n[0], n[1], n[2]));
  PetscCall(PPEGridSetBCString(grid, bc));
  PetscCall(PPEGridSetUp(grid));
  PetscCall(PPEGridGetDM(grid, &da));
  PetscCall(PPEGridIsSingular(grid, &singular));
  PetscCall(PPEStencilCreate(grid, &A));
  if (singular) {
    MatNullSpace nsp;
    PetscCall(MatNullSpaceCreate(comm, PETSC_TRUE, 0, NULL, &nsp));
    PetscCall(MatSetNullSpace(A, nsp));
    PetscCall(MatNullSpaceDestroy(&nsp));
  }
  PetscCall(DMCreateGlobalVector(da, &b));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecGetOwnershipRange(b, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) PetscCall(VecSetValue(b, i, sin(0.37 * i) + 0.5 * cos(0.011 * i * i), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(b));
  PetscCall(VecAssemblyEnd(b));
  if (singular) {
    PetscScalar s;
    PetscCall(VecSum(b, &s));
    PetscCall(VecShift(b, -s / (PetscReal)(n[0] * n[1] * n[2])));
  }
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(PetscSNPrintf(pre, sizeof(pre), "c%" PetscInt_FMT "_", tag));
  PetscCall(InsertPrefixed(pre, c->opts, rtol));
  PetscCall(KSPSetOptionsPrefix(ksp, pre));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetDM(ksp, da));
  PetscCall(PPEKSPSetDMActiveAll(ksp, PETSC_FALSE));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  res->nmon = 0;
  PetscCall(KSPMonitorSet(ksp, MonitorSolution, res, NULL)); /* the first solve only: its norms cross */
  PetscCall(KSPSolve(ksp, b, x));                            /* the first solve also moves the operator's and PC's tables */
  PetscCall(KSPMonitorCancel(ksp));
  PetscCall(VecNorm(x, NORM_2, &res->xfinal));
  PetscCall(PPECountersGet(&c0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(PPECountersGet(&c1));
  PetscCall(PPECountersDiff(&c1, &c0, &d));
  loc[0] = d.device_bytes;
  loc[1] = d.device_halo_bytes;
  PetscCall(MPIU_Allreduce(loc, sum, 2, MPIU_PETSCLOGDOUBLE, MPI_SUM, comm));
  res->bytes = sum[0];
  res->halo  = sum[1];
  PetscCall(KSPGetIterationNumber(ksp, &res->its));
  {
    Vec       r;
    PetscReal rn, bn;
    PetscCall(VecDuplicate(b, &r));
    PetscCall(MatMult(A, x, r));
    PetscCall(VecAYPX(r, -1.0, b));
    PetscCall(VecNorm(r, NORM_2, &rn));
    PetscCall(VecNorm(b, NORM_2, &bn));
    res->rres = rn / bn;
    PetscCall(VecDestroy(&r));
  }
  PetscCall(VecGetSize(x, &res->nglobal));
  PetscCall(VecDuplicate(x, xout));
  PetscCall(VecCopy(x, *xout));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEDeviceBytes() since *b0, the largest over the ranks; *b0 moves on */
static PetscErrorCode Moved(MPI_Comm comm, PetscLogDouble *b0, PetscLogDouble *moved)
{
  PetscLogDouble now = PPEDeviceBytes();

  PetscFunctionBegin;
  *moved = now - *b0;
  *b0    = now;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, moved, 1, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host view of PPEKit's device vector type of back end be (VECPPEEMU for emu) kept
   coherent through PETSc's own operations, with exactly the copies needed: a device write
   then a host read (one copy out), a host write then a device read (one copy in), a
   duplicate that stays a device vector of be and computes there. 100 entries per rank. */
static PetscErrorCode CheckCoherence(MPI_Comm comm, PPEBackend be)
{
  const PetscInt nloc   = 100;
  const double   vbytes = 8.0 * nloc; /* one copy of a rank's entries */
  Vec            t, v, w;
  PetscReal      nrm;
  PetscScalar    s, *a;
  PetscInt       N;
  PPEBackend     bv, bw;
  VecType        want;
  PetscBool      isv, isw;
  PetscLogDouble b0 = PPEDeviceBytes(), moved, total = 0;

  PetscFunctionBegin;
  PetscCall(VecCreateMPI(comm, nloc, PETSC_DETERMINE, &t));
  PetscCall(VecGetSize(t, &N));
  PetscCall(PPEBackendVecType(be, &want));
  PetscCall(PPEVecCreateOn(t, be, &v));
  PetscCall(PPEVecGetBackend(v, &bv));
  PetscCall(PetscObjectTypeCompare((PetscObject)v, want, &isv));
  PetscCall(TapCheck(comm, (PetscBool)(isv && bv == be), "coherence: PPEVecCreateOn gives a vector of type %s (expected %s) living on %s (expected %s)", ((PetscObject)v)->type_name, want, PPEBackends[bv], PPEBackends[be]));

  PetscCall(VecSet(v, 2.0)); /* device writes: 3 on the device, the host values stale */
  PetscCall(VecShift(v, 1.0));
  PetscCall(Moved(comm, &b0, &moved));
  total += moved;
  PetscCall(TapCheck(comm, (PetscBool)(moved == 0), "coherence: VecSet and VecShift of a device vector run on the device (%g bytes moved, expected 0)", moved));

  PetscCall(VecNorm(v, NORM_1, &nrm)); /* a host read (the 1-norm has no device path) */
  PetscCall(Moved(comm, &b0, &moved));
  total += moved;
  PetscCall(TapCheck(comm, (PetscBool)(nrm == 3.0 * N), "coherence: a host read after a device write sees it (VecNorm 1: %g, expected %g)", (double)nrm, 3.0 * N));
  PetscCall(TapCheck(comm, (PetscBool)(moved == vbytes), "coherence: that read copied the values out once (%g bytes, expected %g)", moved, vbytes));

  PetscCall(VecGetArray(v, &a)); /* a host write: 5, the device values stale */
  for (PetscInt i = 0; i < nloc; i++) a[i] = 5.0;
  PetscCall(VecRestoreArray(v, &a));
  PetscCall(Moved(comm, &b0, &moved));
  total += moved;
  PetscCall(TapCheck(comm, (PetscBool)(moved == 0), "coherence: a host write after a host read copies nothing (%g bytes, expected 0)", moved));
  PetscCall(VecDot(v, v, &s)); /* a device read: the values copied in, one number back */
  PetscCall(Moved(comm, &b0, &moved));
  total += moved;
  PetscCall(TapCheck(comm, (PetscBool)(s == 25.0 * N), "coherence: a device read after a host write sees it (VecDot %g, expected %g)", (double)PetscRealPart(s), 25.0 * N));
  PetscCall(TapCheck(comm, (PetscBool)(moved == vbytes + 8), "coherence: that read copied the values in once and the dot product back (%g bytes, expected %g)", moved, vbytes + 8));

  PetscCall(VecDuplicate(v, &w)); /* a duplicate: a device vector of the same back end */
  PetscCall(PPEVecGetBackend(w, &bw));
  PetscCall(PetscObjectTypeCompare((PetscObject)w, want, &isw));
  PetscCall(TapCheck(comm, (PetscBool)(isw && bw == be), "coherence: a duplicate is a vector of type %s (expected %s) living on %s (expected %s)", ((PetscObject)w)->type_name, want, PPEBackends[bw], PPEBackends[be]));
  PetscCall(VecSet(w, 1.0));
  PetscCall(VecAXPY(w, 1.0, v)); /* 6, on the device: v's device values are current */
  PetscCall(Moved(comm, &b0, &moved));
  total += moved;
  PetscCall(TapCheck(comm, (PetscBool)(moved == 0), "coherence: VecSet and VecAXPY of the duplicate run on the device (%g bytes moved, expected 0)", moved));
  PetscCall(VecNorm(w, NORM_INFINITY, &nrm));
  PetscCall(Moved(comm, &b0, &moved));
  total += moved;
  PetscCall(TapCheck(comm, (PetscBool)(nrm == 6.0), "coherence: the duplicate's host values after its device writes (VecNorm infinity %g, expected 6)", (double)nrm));
  PetscCall(TapCheck(comm, (PetscBool)(moved == vbytes), "coherence: that read copied the duplicate out once (%g bytes, expected %g)", moved, vbytes));
  PetscCall(TapCheck(comm, (PetscBool)(total == 3 * vbytes + 8), "coherence: exactly the needed copies were made (%g bytes in all, expected 3 x %g + 8)", total, vbytes));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A monitor that builds the solution during a solve sees the iterate: the norms it saw equal the
   host run's (to 1e-12 relative: the device's 2-norm sums in its order), and the last one
   (after the last update) is the returned solution's (a singular problem's solution is
   shifted after it: mean zero). */
static PetscErrorCode CheckMonitor(MPI_Comm comm, const Case *c, const char *bc, const char *bname, const Result *rh, const Result *rd)
{
  PetscReal diff = 0.0, last, lastdiff;

  PetscFunctionBegin;
  if (strstr(c->opts, "preonly")) PetscFunctionReturn(PETSC_SUCCESS); /* no monitor calls */
  for (PetscInt i = 0; i < PetscMin(rd->nmon, MAXMON) && rh->nmon == rd->nmon; i++) diff = PetscMax(diff, PetscAbsReal(rd->xnorm[i] - rh->xnorm[i]) / PetscMax(rh->xfinal, PETSC_SMALL));
  last     = rd->nmon > 0 && rd->nmon <= MAXMON ? rd->xnorm[rd->nmon - 1] : -1.0;
  lastdiff = PetscAbsReal(last - rd->xfinal) / PetscMax(rd->xfinal, PETSC_SMALL);
  PetscCall(TapCheck(comm, (PetscBool)(rh->nmon == rd->nmon && rd->nmon > 1 && rd->nmon <= MAXMON && diff <= 1e-12),
                     "%s %s: a monitor's KSPBuildSolution sees the iterate: %s %" PetscInt_FMT " calls = host %" PetscInt_FMT " (want 2 .. %d), solution norms within %.3g relative of the host's (<= 1e-12)", c->name, bc, bname, rd->nmon, rh->nmon,
                     (int)MAXMON, (double)diff));
  if (!strcmp(bc, "NNNNDD"))
    PetscCall(
      TapCheck(comm, (PetscBool)(lastdiff <= 1e-12 && last > 0), "%s %s: the last monitored solution norm %.17g (> 0) is the returned one's %.17g (relative difference %.3g <= 1e-12)", c->name, bc, (double)last, (double)rd->xfinal, (double)lastdiff));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  PetscInt    n[3] = {12, 10, 8}, nn = 3, tag = 0;
  char        bname[16] = "emu";
  PPEBackend  be;
  PetscMPIInt size;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ppe_test_backend", bname, sizeof(bname), NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-n", n, &nn, NULL));
  PetscCall(PPEBackendFromString(comm, bname, &be));
  PetscCall(PPEBackendCheck(comm, be));
  PetscCall(CheckCoherence(comm, be));

  for (size_t ib = 0; ib < sizeof(bcs) / sizeof(bcs[0]); ib++) {
    for (size_t ic = 0; ic < sizeof(cases) / sizeof(cases[0]); ic++) {
      const Case *c = &cases[ic];
      Vec         xh, xd, xd2;
      Result      rh, rd, rd2;
      PetscReal   nh, nd;
      PetscBool   preonly;
      double      vec, extra, extra2, cap;

      if (strstr(c->opts, "chebyci_mode block") && ib == 1 && size > 1) continue; /* block bounds of a singular box: covered on the other problem */
      PetscCall(Run(comm, n, bcs[ib], "host", c, tag++, 1e-10, &xh, &rh));
      PetscCall(Run(comm, n, bcs[ib], bname, c, tag++, 1e-10, &xd, &rd));
      PetscCall(Run(comm, n, bcs[ib], bname, c, tag++, 1e-4, &xd2, &rd2));
      PetscCall(VecNorm(xh, NORM_2, &nh));
      PetscCall(VecAXPY(xd, -1.0, xh));
      PetscCall(VecNorm(xd, NORM_2, &nd));
      if (c->bitwise)
        PetscCall(TapCheck(comm, (PetscBool)(rh.its == rd.its && nd == 0.0), "%s %s, %d ranks: %s iterations %" PetscInt_FMT " = host %" PetscInt_FMT ", solution bitwise equal (difference %.3g, want 0)", c->name, bcs[ib], (int)size, bname, rd.its,
                           rh.its, (double)nd));
      else
        PetscCall(TapCheck(comm, (PetscBool)(rh.its == rd.its && nd <= 1e-12 * nh), "%s %s, %d ranks: %s iterations %" PetscInt_FMT " = host %" PetscInt_FMT ", solution difference %.3g relative (<= 1e-12)", c->name, bcs[ib], (int)size, bname, rd.its,
                           rh.its, (double)(nh > 0 ? nd / nh : nd)));
      /* bytes: b in and x out, plus at most 64 doubles per iteration of reduction numbers
         (cbcg: the Gram block of s = 8 is 10 x 25 per 8 iterations; bcgsfused: 5) */
      preonly = (PetscBool)(strstr(c->opts, "preonly") != NULL);
      vec     = 8.0 * (double)rd.nglobal; /* b (or x) over all ranks */
      extra   = rd.bytes - 2 * vec;
      extra2  = rd2.bytes - 2 * vec;
      cap     = size * (preonly ? 16.0 * n[2] : 8.0 * 64 * (rd.its + 8)); /* per rank; fftptdma: the (0,0) z line summed on the host */
      PetscCall(TapCheck(comm, (PetscBool)(rh.bytes == 0 && extra >= 0 && extra <= cap && fmod(extra, 8.0) == 0),
                         "%s %s: %s solve moves b and x once (%g bytes = 2 x %g + %g of reduction numbers, want 0 <= %g <= %g and a multiple of 8), host %g bytes (want 0)", c->name, bcs[ib], bname, rd.bytes, vec, extra, extra, cap, rh.bytes));
      PetscCall(TapCheck(comm, (PetscBool)(extra2 >= 0 && extra2 <= size * (8.0 * 64 * (rd2.its + 8) + (preonly ? 16.0 * n[2] : 0)) && (preonly || rd2.its < rd.its)),
                         "%s %s: at rtol 1e-4 (%" PetscInt_FMT " iterations vs %" PetscInt_FMT ", want fewer unless preonly: %s) the vector part is the same 2 x %g bytes (%g + %g, want 0 <= %g <= %g)", c->name, bcs[ib], rd2.its, rd.its,
                         preonly ? "preonly" : "not preonly", vec, 2 * vec, extra2, extra2, size * (8.0 * 64 * (rd2.its + 8) + (preonly ? 16.0 * n[2] : 0))));
      if (size > 1 || ib == 1)
        PetscCall(
          TapCheck(comm, (PetscBool)((preonly && size == 1) || rd.halo > 0), "%s %s: halo faces counted apart (%g bytes, want > 0 unless preonly on 1 rank: %s, %d ranks)", c->name, bcs[ib], rd.halo, preonly ? "preonly" : "not preonly", (int)size));
      PetscCall(CheckMonitor(comm, c, bcs[ib], bname, &rh, &rd));
      PetscCall(VecDestroy(&xh));
      PetscCall(VecDestroy(&xd));
      PetscCall(VecDestroy(&xd2));
    }
  }
  PetscCall(PetscFinalize());
  return tap_failures ? 1 : 0;
}
