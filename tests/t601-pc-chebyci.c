static const char help[] = "PC chebyci: the Chebyshev-iteration preconditioner in modes global, block and\n\
nocomm. Fixed (bitwise repeatable) and symmetric; matrix-free and assembled operators agree;\n\
block and nocomm send nothing (counted) and agree bitwise on one rank; the subdomain bounds are\n\
the extreme eigenvalues of the local block (dense LAPACK check); in mode global the error\n\
falls as the Chebyshev bound 1/T_k(sigma) predicts; bad input gets clear errors; a matrix\n\
without grid gets estimated bounds.\n\n";

#include <ppekit.h>
#include <petscblaslapack.h>
#include "tap.h"
#include "vecutil.h"

static PetscErrorCode MakeGrid(MPI_Comm comm, const char bcs[], PPELocation loc, PetscBool stretch, const PetscInt n[3], PPEGrid *g)
{
  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, g));
  PetscCall(PPEGridSetSizes(*g, n[0], n[1], n[2]));
  PetscCall(PPEGridSetLengths(*g, 1.0, 1.3, 0.9));
  PetscCall(PPEGridSetBCString(*g, bcs));
  PetscCall(PPEGridSetLocation(*g, loc));
  if (stretch) PetscCall(PPEGridSetZStretch(*g, PPE_STRETCH_TANH, 1.5));
  PetscCall(PPEGridSetUp(*g));
  PetscFunctionReturn(0);
}

/* A chebyci PC on P; fmin <= 0 keeps the mode's default scale factors. */
static PetscErrorCode MakePC(Mat P, PCChebyCIMode mode, PetscInt its, PetscReal fmin, PetscReal fmax, PC *pc)
{
  PetscFunctionBegin;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)P), pc));
  PetscCall(PCSetType(*pc, PCCHEBYCI));
  PetscCall(PCSetOperators(*pc, P, P));
  PetscCall(PCChebyCISetMode(*pc, mode));
  PetscCall(PCChebyCISetIterations(*pc, its));
  if (fmin > 0) PetscCall(PCChebyCISetEigScale(*pc, fmin, fmax));
  PetscCall(PCSetUp(*pc));
  PetscFunctionReturn(0);
}

/* Fixed, symmetric, matfree = AIJ, communication of one application, block = nocomm on 1 rank. */
static PetscErrorCode CheckModes(MPI_Comm comm, const char bcs[], PPELocation loc, PetscBool stretch)
{
  PetscInt    n[3] = {12, 11, 10}, its = 7;
  PPEGrid     g;
  Mat         Amf, Aaij;
  Vec         u, v, y1, y2;
  PetscRandom rnd;
  PetscMPIInt size;
  char        tag[96];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscSNPrintf(tag, sizeof(tag), "%s %s%s", bcs, PPELocations[loc], stretch ? " tanh z" : ""));
  PetscCall(MakeGrid(comm, bcs, loc, stretch, n, &g));
  PetscCall(PPEStencilCreate(g, &Amf));
  PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &Aaij));
  PetscCall(MatCreateVecs(Amf, &u, &v));
  PetscCall(VecDuplicate(u, &y1));
  PetscCall(VecDuplicate(u, &y2));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(u, rnd));
  PetscCall(VecSetRandom(v, rnd));
  for (int m = 0; m < 3; m++) {
    PCChebyCIMode mode = (PCChebyCIMode)m;
    PC            pc, pca;
    PetscBool     eq;
    PetscReal     rel = 1;
    PetscScalar   uMv, vMu;
    PPECounters   c0, c1, dc;

    PetscCall(MakePC(Amf, mode, its, -1, -1, &pc));
    PetscCall(MakePC(Aaij, mode, its, -1, -1, &pca));

    PetscCall(PPECountersGet(&c0));
    PetscCall(PCApply(pc, u, y1));
    PetscCall(PPECountersGet(&c1));
    PetscCall(PPECountersDiff(&c1, &c0, &dc));
    PetscCall(PCApply(pc, u, y2));
    PetscCall(TestBitwiseEqual(y1, y2, &eq));
    PetscCall(TapCheck(comm, eq, "%s %s: two applications to the same vector give identical bits", tag, PCChebyCIModes[m]));

    if (mode == PC_CHEBYCI_GLOBAL) {
      PetscBool ok = (PetscBool)(dc.reductions == 0 && (size == 1 || (dc.halo_exchanges == its && dc.bytes_sent > 0)));
      PetscCall(
        TapCheck(comm, ok, "%s global: one application = %g halo exchanges (want its = %d on 2+ ranks), %g reductions (want 0), %g bytes (want > 0 on 2+ ranks; %d ranks)", tag, dc.halo_exchanges, (int)its, dc.reductions, dc.bytes_sent, (int)size));
    } else {
      PetscBool ok = (PetscBool)(dc.reductions == 0 && dc.halo_exchanges == 0 && dc.bytes_sent == 0);
      PetscCall(TapCheck(comm, ok, "%s %s: one application sends nothing: %g halo exchanges, %g reductions, %g bytes (want 0, 0, 0)", tag, PCChebyCIModes[m], dc.halo_exchanges, dc.reductions, dc.bytes_sent));
    }

    {
      PC pu;
      PetscCall(PCCreate(comm, &pu));
      PetscCall(PCSetType(pu, PCCHEBYCI));
      PetscCall(PCSetOperators(pu, Amf, Amf));
      PetscCall(PCChebyCISetMode(pu, mode));
      PetscCall(PCChebyCISetIterations(pu, its));
      PetscCall(PCChebyCISetFuse(pu, PETSC_FALSE));
      PetscCall(PCApply(pu, u, y2));
      PetscCall(TestBitwiseEqual(y1, y2, &eq));
      PetscCall(TapCheck(comm, eq, "%s %s: operator and update fused in one sweep = MatMult then update, bit for bit", tag, PCChebyCIModes[m]));
      PetscCall(PCDestroy(&pu));
    }
    PetscCall(PCApply(pca, u, y2));
    PetscCall(TestRelDiff(y2, y1, NORM_2, &rel));
    PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-12), "%s %s: matrix-free vs assembled operator, rel diff %.2e", tag, PCChebyCIModes[m], (double)rel));

    PetscCall(PCApply(pc, v, y2));
    PetscCall(VecDot(u, y2, &uMv));
    PetscCall(VecDot(v, y1, &vMu));
    rel = PetscAbsScalar(uMv - vMu) / PetscAbsScalar(uMv);
    PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-12 && PetscRealPart(uMv) != 0), "%s %s: symmetric, u'Mv = v'Mu to %.2e (<= 1e-12), u'Mv = %.6e (want nonzero)", tag, PCChebyCIModes[m], (double)rel, (double)PetscRealPart(uMv)));

    PetscCall(PCDestroy(&pc));
    PetscCall(PCDestroy(&pca));
  }
  /* block with the scale factors of nocomm: on one rank the same bounds, so the same bits */
  if (size == 1) {
    PC        pb, pn;
    PetscBool eq;
    PetscCall(MakePC(Amf, PC_CHEBYCI_BLOCK, its, 100.0, 1 - 1e-4, &pb));
    PetscCall(MakePC(Amf, PC_CHEBYCI_NOCOMM, its, 100.0, 1 - 1e-4, &pn));
    PetscCall(PCApply(pb, u, y1));
    PetscCall(PCApply(pn, u, y2));
    PetscCall(TestBitwiseEqual(y1, y2, &eq));
    PetscCall(TapCheck(comm, eq, "%s: block and nocomm give identical bits on one rank", tag));
    PetscCall(PCDestroy(&pb));
    PetscCall(PCDestroy(&pn));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscCall(MatDestroy(&Amf));
  PetscCall(MatDestroy(&Aaij));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(0);
}

/* Extreme eigenvalues of this rank's block W^-1/2 A_ss W^-1/2 (weighted) or A_ss, dense LAPACK. */
static PetscErrorCode DenseBlockEigs(PPEGrid g, Mat Aaij, PetscBool weighted, PetscReal *emin, PetscReal *emax)
{
  Mat              Ab, D;
  PetscScalar     *a;
  PetscReal       *ev, *work, *s;
  const PetscReal *w[3];
  PetscInt         st[3], m[3], nl, l = 0;
  DM               da;
  PetscBLASInt     bn, lwork, info;

  PetscFunctionBegin;
  PetscCall(PPEGridGetDM(g, &da));
  PetscCall(DMDAGetCorners(da, &st[0], &st[1], &st[2], &m[0], &m[1], &m[2]));
  for (int d = 0; d < 3; d++) PetscCall(PPEGridGetWeights(g, d, &w[d]));
  nl = m[0] * m[1] * m[2];
  PetscCall(MatGetDiagonalBlock(Aaij, &Ab));
  PetscCall(MatConvert(Ab, MATSEQDENSE, MAT_INITIAL_MATRIX, &D));
  PetscCall(MatDenseGetArray(D, &a));
  PetscCall(PetscMalloc3(nl, &s, nl, &ev, 3 * nl, &work));
  for (PetscInt k = st[2]; k < st[2] + m[2]; k++)
    for (PetscInt j = st[1]; j < st[1] + m[1]; j++)
      for (PetscInt i = st[0]; i < st[0] + m[0]; i++) s[l++] = weighted ? 1.0 / PetscSqrtReal(w[0][i] * w[1][j] * w[2][k]) : 1.0;
  for (PetscInt c = 0; c < nl; c++)
    for (PetscInt r = 0; r < nl; r++) a[r + c * nl] *= s[r] * s[c];
  PetscCall(PetscBLASIntCast(nl, &bn));
  lwork = 3 * bn;
  PetscCallBLAS("LAPACKsyev", LAPACKsyev_("N", "L", &bn, a, &bn, ev, work, &lwork, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "syev failed: %d", (int)info);
  *emin = ev[0];
  *emax = ev[nl - 1];
  PetscCall(PetscFree3(s, ev, work));
  PetscCall(MatDenseRestoreArray(D, &a));
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(0);
}

/* Subdomain bounds in block mode against the dense spectrum of each rank's block. */
static PetscErrorCode CheckBounds(MPI_Comm comm, const char bcs[], PPELocation loc, PetscBool stretch)
{
  PetscInt n[3] = {9, 8, 7};
  PPEGrid  g;
  Mat      Amf, Aaij;
  char     tag[96];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(tag, sizeof(tag), "%s %s%s", bcs, PPELocations[loc], stretch ? " tanh z" : ""));
  PetscCall(MakeGrid(comm, bcs, loc, stretch, n, &g));
  PetscCall(PPEStencilCreate(g, &Amf));
  PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &Aaij));
  for (int c = 0; c < 3; c++) { /* weighted exact, weighted Gershgorin, unweighted */
    PC        pc;
    PetscReal lmin, lmax, emin = 0, emax = 0;
    PetscBool ok, wgt = (PetscBool)(c < 2);

    PetscCall(PCCreate(comm, &pc));
    PetscCall(PCSetType(pc, PCCHEBYCI));
    PetscCall(PCSetOperators(pc, Amf, Amf));
    PetscCall(PCChebyCISetMode(pc, PC_CHEBYCI_BLOCK));
    PetscCall(PCChebyCISetWeighted(pc, wgt));
    if (c == 1) PetscCall(PCChebyCISetEigSource(pc, PC_CHEBYCI_EIG_GERSHGORIN));
    PetscCall(PCSetUp(pc));
    PetscCall(PCChebyCIGetInterval(pc, &lmin, &lmax, NULL, NULL));
    PetscCall(DenseBlockEigs(g, Aaij, wgt, &emin, &emax));
    if (c == 0) {
      ok = (PetscBool)(PetscAbsReal(lmin - emin) <= 1e-11 * emax && PetscAbsReal(lmax - emax) <= 1e-12 * emax);
      PetscCall(TapCheck(comm, ok, "%s block: subdomain bounds of W^-1 A are its exact extreme eigenvalues (lmin %.6g vs %.6g, lmax %.6g vs %.6g; differences %.1e, %.1e of lmax, want <= 1e-11, 1e-12)", tag, (double)lmin, (double)emin, (double)lmax,
                         (double)emax, (double)(PetscAbsReal(lmin - emin) / emax), (double)(PetscAbsReal(lmax - emax) / emax)));
    } else if (c == 1) {
      ok = (PetscBool)(PetscAbsReal(lmin - emin) <= 1e-11 * emax && lmax >= emax * (1 - 1e-13));
      PetscCall(TapCheck(comm, ok, "%s block gershgorin: lmin %.6g exact (vs %.6g, difference %.1e of lmax, want <= 1e-11), lmax %.6g >= %.6g (to 1e-13)", tag, (double)lmin, (double)emin, (double)(PetscAbsReal(lmin - emin) / emax), (double)lmax,
                         (double)emax));
    } else {
      ok = (PetscBool)(lmin <= emin * (1 + 1e-12) && lmin > 0 && lmax >= emax * (1 - 1e-13));
      PetscCall(TapCheck(comm, ok, "%s block unweighted: bounds of A_ss [%.6g, %.6g] (lower > 0) enclose [%.6g, %.6g] (to 1e-12, 1e-13 relative)", tag, (double)lmin, (double)lmax, (double)emin, (double)emax));
    }
    PetscCall(PCDestroy(&pc));
  }
  PetscCall(MatDestroy(&Amf));
  PetscCall(MatDestroy(&Aaij));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(0);
}

/* Mode global with the exact interval: ||u - M A u||_A / ||u||_A <= 1/T_k(sigma), near it. */
/*
   Temporally blocked steps (PCChebyCISetBlockSteps) in modes block and nocomm: the bits of one
   step per sweep for every split of the levels into sweeps (the first sweep alone, the last
   one short, one sweep for all), constant and variable coefficients, with and without the
   weights and a shift, periodic directions held whole, z planes fewer than the levels, 2D;
   a box whose z is periodic and whole on the rank is not blocked (and -ksp_view says so).
*/
static PetscErrorCode CheckBlocked(MPI_Comm comm, const char bcs[], PPELocation loc, PetscBool stretch, const PetscInt n[3], PetscInt dim, PetscReal shift, PetscBool var)
{
  const PetscInt its[] = {1, 2, 3, 7, 13}, steps[] = {2, 3, 5, 13, PETSC_DECIDE};
  PPEGrid        g;
  Mat            A;
  Vec            u, y1, y2;
  PetscRandom    rnd;
  PetscMPIInt    size;
  char           tag[128];
  PetscBool      zwhole;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscSNPrintf(tag, sizeof(tag), "%s %s%s %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT "%s%s%s", bcs, PPELocations[loc], stretch ? " tanh z" : "", n[0], n[1], n[2], dim == 2 ? " 2D" : "", shift != 0 ? " shift" : "",
                          var ? " variable density" : ""));
  PetscCall(PPEGridCreate(comm, &g));
  if (dim == 2) PetscCall(PPEGridSetDimension(g, 2));
  PetscCall(PPEGridSetSizes(g, n[0], n[1], dim == 2 ? 1 : n[2]));
  PetscCall(PPEGridSetLengths(g, 1.0, 1.3, 0.9));
  PetscCall(PPEGridSetBCString(g, bcs));
  PetscCall(PPEGridSetLocation(g, loc));
  if (stretch) PetscCall(PPEGridSetZStretch(g, PPE_STRETCH_TANH, 1.5));
  if (shift != 0) PetscCall(PPEGridSetShift(g, shift));
  PetscCall(PPEGridSetUp(g));
  PetscCall(PPEStencilCreate(g, &A));
  PetscCall(MatCreateVecs(A, &u, &y1));
  PetscCall(VecDuplicate(u, &y2));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 11));
  PetscCall(PetscRandomSeed(rnd));
  if (var) { /* density from 1 to 1000, log-uniform */
    Vec          rho;
    PetscScalar *a;
    PetscInt     nl;

    PetscCall(VecDuplicate(u, &rho));
    PetscCall(VecSetRandom(rho, rnd));
    PetscCall(VecGetLocalSize(rho, &nl));
    PetscCall(VecGetArray(rho, &a));
    for (PetscInt i = 0; i < nl; i++) a[i] = PetscExpReal(PetscLogReal(1000.0) * PetscRealPart(a[i]));
    PetscCall(VecRestoreArray(rho, &a));
    PetscCall(PPEStencilSetDensity(A, rho));
    PetscCall(VecDestroy(&rho));
  }
  PetscCall(VecSetRandom(u, rnd));
  {
    DM       dm;
    PetscInt pz = 1;
    PetscCall(PPEGridGetDM(g, &dm));
    PetscCall(DMDAGetInfo(dm, NULL, NULL, NULL, NULL, NULL, NULL, &pz, NULL, NULL, NULL, NULL, NULL, NULL));
    zwhole = (PetscBool)(dim == 3 && bcs[4] == 'P' && pz == 1); /* z periodic and whole on every rank */
  }
  for (int m = PC_CHEBYCI_BLOCK; m <= PC_CHEBYCI_NOCOMM; m++) {
    for (size_t a = 0; a < PETSC_STATIC_ARRAY_LENGTH(its); a++) {
      PC        p1;
      PetscBool okall    = PETSC_TRUE;
      char      bad[256] = "";

      PetscCall(PCCreate(comm, &p1));
      PetscCall(PCSetType(p1, PCCHEBYCI));
      PetscCall(PCSetOperators(p1, A, A));
      PetscCall(PCChebyCISetMode(p1, (PCChebyCIMode)m));
      PetscCall(PCChebyCISetIterations(p1, its[a]));
      if (m == PC_CHEBYCI_NOCOMM && var) PetscCall(PCChebyCISetWeighted(p1, PETSC_FALSE)); /* D = I */
      PetscCall(PCChebyCISetBlockSteps(p1, 1));
      PetscCall(PCSetUp(p1));
      PetscCall(PCApply(p1, u, y1));
      for (size_t b = 0; b < PETSC_STATIC_ARRAY_LENGTH(steps); b++) {
        PC        p2;
        PetscBool eq;
        PetscInt  used, want;

        PetscCall(PCCreate(comm, &p2));
        PetscCall(PCSetType(p2, PCCHEBYCI));
        PetscCall(PCSetOperators(p2, A, A));
        PetscCall(PCChebyCISetMode(p2, (PCChebyCIMode)m));
        PetscCall(PCChebyCISetIterations(p2, its[a]));
        if (m == PC_CHEBYCI_NOCOMM && var) PetscCall(PCChebyCISetWeighted(p2, PETSC_FALSE));
        PetscCall(PCChebyCISetBlockSteps(p2, steps[b]));
        PetscCall(PCSetUp(p2));
        PetscCall(PCApply(p2, u, y2));
        PetscCall(TestBitwiseEqual(y1, y2, &eq));
        PetscCall(PCChebyCIGetBlockSteps(p2, &used));
        want = (zwhole || its[a] < 2) ? 0 : (steps[b] == PETSC_DECIDE ? -1 : PetscMin(steps[b], its[a]));
        if (!eq || (want >= 0 ? used != want : (used < 2 || used > PetscMin(12, its[a])))) {
          okall = PETSC_FALSE;
          PetscCall(PetscSNPrintf(bad, sizeof(bad), "steps %" PetscInt_FMT ": %s, %" PetscInt_FMT " steps per sweep used (want %" PetscInt_FMT ")", steps[b], eq ? "same bits" : "bits differ", used, want));
        }
        PetscCall(PCDestroy(&p2));
      }
      PetscCall(TapCheck(comm, okall, "%s %s its %" PetscInt_FMT ": blocked sweeps of 2, 3, 5, 13 and the default steps give the bits of one step per sweep%s%s", tag, PCChebyCIModes[m], its[a], okall ? "" : "; ", bad));
      PetscCall(PCDestroy(&p1));
    }
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckConvergence(MPI_Comm comm)
{
  PetscInt    n[3] = {12, 11, 10}, ks[] = {2, 4, 8, 16, 32, 64, 128};
  PPEGrid     g;
  Mat         A;
  Vec         u, b, x, e, Ae;
  PetscRandom rnd;
  PetscScalar uAu;

  PetscFunctionBegin;
  PetscCall(MakeGrid(comm, "DNNDND", PPE_LOCATION_VERTEX, PETSC_FALSE, n, &g));
  PetscCall(PPEStencilCreate(g, &A));
  PetscCall(MatCreateVecs(A, &u, &b));
  PetscCall(VecDuplicate(u, &x));
  PetscCall(VecDuplicate(u, &e));
  PetscCall(VecDuplicate(u, &Ae));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 11));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(u, rnd));
  PetscCall(MatMult(A, u, b));
  PetscCall(VecDot(u, b, &uAu));
  for (size_t q = 0; q < sizeof(ks) / sizeof(ks[0]); q++) {
    PC          pc;
    PetscReal   alpha, beta, sigma, bound, ratio;
    PetscScalar eAe;

    PetscCall(MakePC(A, PC_CHEBYCI_GLOBAL, ks[q], 1.0, 1.0, &pc));
    PetscCall(PCChebyCIGetInterval(pc, NULL, NULL, &alpha, &beta));
    sigma = (beta + alpha) / (beta - alpha);
    bound = 1.0 / PetscCoshReal(ks[q] * PetscLogReal(sigma + PetscSqrtReal(sigma * sigma - 1)));
    PetscCall(PCApply(pc, b, x));
    PetscCall(VecWAXPY(e, -1.0, x, u));
    PetscCall(MatMult(A, e, Ae));
    PetscCall(VecDot(e, Ae, &eAe));
    ratio = PetscSqrtReal(PetscRealPart(eAe) / PetscRealPart(uAu));
    PetscCall(TapCheck(comm, (PetscBool)(ratio <= bound * (1 + 1e-8) && ratio >= 0.02 * bound), "global, %3d iterations: A-norm error ratio %.3e within [bound/50, bound (1 + 1e-8)], bound 1/T_k(sigma) = %.3e (ratio / bound %.3f)", (int)ks[q],
                       (double)ratio, (double)bound, (double)(ratio / bound)));
    if (ks[q] == 128) PetscCall(TapCheck(comm, (PetscBool)(ratio < 1e-6), "global, 128 iterations: M approaches A^-1, error ratio %.2e < 1e-6", (double)ratio));
    PetscCall(PCDestroy(&pc));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&e));
  PetscCall(VecDestroy(&Ae));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(0);
}

/* A 1D Laplacian as a plain MPIAIJ (no DMDA, no grid). */
static PetscErrorCode PlainLaplacian(MPI_Comm comm, PetscInt N, Mat *A)
{
  PetscInt lo, hi;

  PetscFunctionBegin;
  PetscCall(MatCreateAIJ(comm, PETSC_DECIDE, PETSC_DECIDE, N, N, 3, NULL, 2, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscCall(MatSetValue(*A, i, i, 2.0, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(*A, i, i - 1, -1.0, INSERT_VALUES));
    if (i < N - 1) PetscCall(MatSetValue(*A, i, i + 1, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscFunctionReturn(0);
}

static PetscErrorCode ShellMult(Mat S, Vec x, Vec y)
{
  Mat A;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(S, &A));
  PetscCall(MatMult(A, x, y));
  PetscFunctionReturn(0);
}

typedef enum {
  E_ITS,
  E_NEG,
  E_INVERTED,
  E_SCALE,
  E_NOGRID,
  E_BLOCKUSER,
  E_WEIGHTED,
  E_SHELL
} ErrCase;

/* Run one piece of bad input with errors returned; check the code and the message. */
static PetscErrorCode ExpectError(MPI_Comm comm, ErrCase c, PetscErrorCode expect, const char text[], const char what[])
{
  PetscInt       n[3] = {8, 7, 6};
  PPEGrid        g;
  Mat            A = NULL, S = NULL, P;
  PC             pc;
  PetscErrorCode ierr = PETSC_SUCCESS; /* set by each case below; no error fails the check */
  const char    *msg  = NULL;
  PetscBool      has  = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(MakeGrid(comm, "DNNDND", PPE_LOCATION_VERTEX, PETSC_FALSE, n, &g));
  if (c == E_NOGRID || c == E_WEIGHTED || c == E_SHELL) PetscCall(PlainLaplacian(comm, 40, &A));
  else PetscCall(PPEStencilCreate(g, &A));
  P = A;
  if (c == E_SHELL) {
    PetscInt nl;
    PetscCall(MatGetLocalSize(A, &nl, NULL));
    PetscCall(MatCreateShell(comm, nl, nl, 40, 40, A, &S));
    PetscCall(MatShellSetOperation(S, MATOP_MULT, (void (*)(void))ShellMult));
    P = S;
  }
  PetscCall(PCCreate(comm, &pc));
  PetscCall(PCSetType(pc, PCCHEBYCI));
  PetscCall(PCSetOperators(pc, P, P));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  switch (c) {
  case E_ITS:
    ierr = PCChebyCISetIterations(pc, 0);
    break;
  case E_NEG:
    ierr = PCChebyCISetEigenvalues(pc, -1.0, 2.0);
    break;
  case E_INVERTED:
    ierr = PCChebyCISetEigenvalues(pc, 3.0, 2.0);
    break;
  case E_SCALE:
    ierr = PCChebyCISetEigScale(pc, 1e6, 1e-3);
    if (!ierr) ierr = PCSetUp(pc);
    break;
  case E_NOGRID:
    ierr = PCChebyCISetEigSource(pc, PC_CHEBYCI_EIG_GRID);
    if (!ierr) ierr = PCSetUp(pc);
    break;
  case E_BLOCKUSER:
    ierr = PCChebyCISetMode(pc, PC_CHEBYCI_BLOCK);
    if (!ierr) ierr = PCChebyCISetEigenvalues(pc, 0.1, 20.0);
    if (!ierr) ierr = PCSetUp(pc);
    break;
  case E_WEIGHTED:
    ierr = PCChebyCISetWeighted(pc, PETSC_TRUE);
    if (!ierr) ierr = PCSetUp(pc);
    break;
  case E_SHELL:
    ierr = PCChebyCISetMode(pc, PC_CHEBYCI_NOCOMM);
    if (!ierr) ierr = PCChebyCISetEigenvalues(pc, 0.1, 4.0);
    if (!ierr) ierr = PCSetUp(pc);
    break;
  }
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    PetscCall(PPEErrorMessage(ierr, &msg));
    has = (PetscBool)(msg && strstr(msg, text));
  }
  PetscCall(TapCheck(comm, (PetscBool)(ierr == expect && has), "bad input, %s: error %d (expected %d), message \"%s\" (expected to contain \"%s\": %s)", what, (int)ierr, (int)expect, msg ? msg : "(none)", text, has ? "yes" : "no"));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&S));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(0);
}

/* A matrix without grid: Lanczos estimates inside the known spectrum of the 1D Laplacian. */
static PetscErrorCode CheckEstimate(MPI_Comm comm)
{
  const PetscInt     N = 40;
  Mat                A;
  PC                 pc;
  PetscReal          lmin, lmax, tmin = 4 * PetscSqr(PetscSinReal(PETSC_PI / (2.0 * (N + 1)))), tmax = 4 * PetscSqr(PetscSinReal(PETSC_PI * N / (2.0 * (N + 1))));
  PCChebyCIEigSource src;
  PetscBool          wgt;

  PetscFunctionBegin;
  PetscCall(PlainLaplacian(comm, N, &A));
  PetscCall(MakePC(A, PC_CHEBYCI_GLOBAL, 10, 1.0, 1.0, &pc));
  PetscCall(PCChebyCIGetEigSource(pc, &src));
  PetscCall(PCChebyCIGetWeighted(pc, &wgt));
  PetscCall(PCChebyCIGetInterval(pc, &lmin, &lmax, NULL, NULL));
  PetscCall(TapCheck(comm, (PetscBool)(src == PC_CHEBYCI_EIG_ESTIMATE && !wgt && lmin >= tmin * (1 - 1e-10) && lmin <= 1.5 * tmin && lmax <= tmax * (1 + 1e-10) && lmax >= 0.999 * tmax),
                     "plain AIJ without grid: source %s (want estimate), weighted %s (want no), estimate [%.5g, %.5g] inside and near the spectrum [%.5g, %.5g] (lmin / tmin %.4f in [1 - 1e-10, 1.5], lmax / tmax %.4f in [0.999, 1 + 1e-10])",
                     PCChebyCIEigSources[src], wgt ? "yes" : "no", (double)lmin, (double)lmax, (double)tmin, (double)tmax, (double)(lmin / tmin), (double)(lmax / tmax)));
  PetscCall(PCDestroy(&pc));
  PetscCall(MakePC(A, PC_CHEBYCI_NOCOMM, 10, -1, -1, &pc));
  PetscCall(PCChebyCIGetInterval(pc, &lmin, &lmax, NULL, NULL));
  PetscCall(TapCheck(comm, (PetscBool)(lmin >= tmin * (1 - 1e-10) && lmax <= tmax * (1 + 1e-10)), "plain AIJ, nocomm on its diagonal block with global estimated bounds [%.5g, %.5g] inside the spectrum [%.5g, %.5g] (to 1e-10 relative)", (double)lmin,
                     (double)lmax, (double)tmin, (double)tmax));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  PetscMPIInt size;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCallMPI(MPI_Comm_size(comm, &size));

  /* bad input first, before logging starts (an error leaves its events open) */
  PetscCall(ExpectError(comm, E_ITS, PETSC_ERR_ARG_OUTOFRANGE, "needs at least 1 iteration", "its = 0"));
  PetscCall(ExpectError(comm, E_NEG, PETSC_ERR_ARG_OUTOFRANGE, "must be positive and finite", "negative lmin"));
  PetscCall(ExpectError(comm, E_INVERTED, PETSC_ERR_ARG_OUTOFRANGE, "inverted or empty: need lmin < lmax", "lmin > lmax"));
  PetscCall(ExpectError(comm, E_SCALE, PETSC_ERR_ARG_OUTOFRANGE, "empty or inverted after scaling", "scale factors inverting the interval"));
  PetscCall(ExpectError(comm, E_NOGRID, PETSC_ERR_ARG_WRONG, "needs the operator's PPEGrid", "source grid on a matrix without grid"));
  PetscCall(ExpectError(comm, E_BLOCKUSER, PETSC_ERR_ARG_INCOMP, "mode block uses each subdomain's own eigenvalue bounds", "mode block with given eigenvalues"));
  PetscCall(ExpectError(comm, E_WEIGHTED, PETSC_ERR_ARG_WRONG, "needs the grid's volume weights", "weighted on a matrix without grid"));
  if (size > 1) PetscCall(ExpectError(comm, E_SHELL, PETSC_ERR_SUP, "does not provide MatGetDiagonalBlock()", "mode nocomm on a MATSHELL"));

  PetscCall(PetscLogDefaultBegin()); /* the halo-exchange counter reads the log events */
  PetscCall(CheckModes(comm, "DNNDND", PPE_LOCATION_VERTEX, PETSC_FALSE));
  PetscCall(CheckModes(comm, "PPPPDD", PPE_LOCATION_CELL, PETSC_TRUE));
  PetscCall(CheckModes(comm, "PPNNNN", PPE_LOCATION_CELL, PETSC_FALSE));
  {
    const PetscInt n3[3] = {12, 11, 10}, thin[3] = {9, 8, 3}, wide[3] = {13, 12, 1};
    PetscCall(CheckBlocked(comm, "NNNNNN", PPE_LOCATION_CELL, PETSC_FALSE, n3, 3, 0.0, PETSC_FALSE));
    PetscCall(CheckBlocked(comm, "PPPPDD", PPE_LOCATION_CELL, PETSC_TRUE, n3, 3, 0.0, PETSC_FALSE));
    PetscCall(CheckBlocked(comm, "DNNDND", PPE_LOCATION_VERTEX, PETSC_FALSE, thin, 3, 0.5, PETSC_FALSE));
    PetscCall(CheckBlocked(comm, "PPPPPP", PPE_LOCATION_CELL, PETSC_FALSE, n3, 3, 0.25, PETSC_FALSE));
    PetscCall(CheckBlocked(comm, "PPPPDD", PPE_LOCATION_CELL, PETSC_TRUE, n3, 3, 0.0, PETSC_TRUE));
    PetscCall(CheckBlocked(comm, "NNPPNN", PPE_LOCATION_CELL, PETSC_FALSE, thin, 3, 0.5, PETSC_TRUE));
    PetscCall(CheckBlocked(comm, "PPNN", PPE_LOCATION_CELL, PETSC_FALSE, wide, 2, 0.0, PETSC_TRUE));
  }
  PetscCall(CheckBounds(comm, "DNNDND", PPE_LOCATION_VERTEX, PETSC_FALSE));
  PetscCall(CheckBounds(comm, "PPNDDN", PPE_LOCATION_CELL, PETSC_TRUE));
  PetscCall(CheckConvergence(comm));
  PetscCall(CheckEstimate(comm));
  PetscCall(PetscFinalize());
  return 0;
}
