static const char help[] = "PCs tileilu and chebyci and KSPs cbcg and bcgsfused on 2D operators (5-point, the\n\
kernels' 3D box nx x 1 x ny underneath), for several BC sets, cell and vertex unknowns, uniform and\n\
tanh-stretched y:\n\
  - every solver converges to rtol 1e-8, the true residual ||b - A x|| / ||b|| checked;\n\
  - tileilu: the xy and yx layouts give the same iterations and the same bits; the shape used\n\
    is 2D (PCTileILUGetInfo); on an assembled 5-point matrix of the program's own 2D DMDA,\n\
    one tile per rank equals PETSc's bjacobi + ILU(0), and a 9-point row is refused;\n\
  - chebyci: the bounds of modes global and block are the extreme eigenvalues of W^-1 A and of\n\
    each rank's block (dense LAPACK);\n\
  - the emulated device back end (-ppe_backend emu) gives the host's bits: MatMult, PC\n\
    chebyci (global, block, nocomm: the fused step) and tileilu (xy, yx) applications, CG's\n\
    iterations and solution; cbcg and bcgsfused within one iteration (their fused dot products\n\
    may sum in another order on a device).\n\n";

#include <ppekit.h>
#include <petscblaslapack.h>
#include "tap.h"

typedef struct {
  const char *bcs;
  PPELocation loc;
  PetscBool   stretch;
  PetscInt    n[2];
} Case2d;

static PetscErrorCode MakeGrid(MPI_Comm comm, const Case2d *c, PPEGrid *g)
{
  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, g));
  PetscCall(PPEGridSetDimension(*g, 2));
  PetscCall(PPEGridSetSizes(*g, c->n[0], c->n[1], 1));
  PetscCall(PPEGridSetLengths(*g, 1.0, 1.3, 0.0));
  PetscCall(PPEGridSetBCString(*g, c->bcs));
  PetscCall(PPEGridSetLocation(*g, c->loc));
  if (c->stretch) PetscCall(PPEGridSetZStretch(*g, PPE_STRETCH_TANH, 1.8));
  PetscCall(PPEGridSetUp(*g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One solver: KSP type, PC type and their settings. */
typedef struct {
  const char     *name;
  KSPType         ksp;
  PCType          pc;
  PetscInt        s;       /* cbcg block size */
  PCChebyCIMode   mode;    /* chebyci */
  PCTileILULayout layout;  /* tileilu */
  PetscBool       bitwise; /* emu must give the host's bits */
} Solver;

static PetscErrorCode Configure(KSP ksp, const Solver *sv)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(KSPSetType(ksp, sv->ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, sv->pc));
  PetscCall(KSPSetTolerances(ksp, 1e-8, 1e-50, PETSC_DEFAULT, 2000));
  if (!strcmp(sv->ksp, KSPCBCG)) PetscCall(KSPCBCGSetS(ksp, sv->s));
  if (!strcmp(sv->pc, PCCHEBYCI)) PetscCall(PCChebyCISetMode(pc, sv->mode));
  if (!strcmp(sv->pc, PCTILEILU)) {
    PetscCall(PCTileILUSetTile(pc, 4, 8, 1)); /* 2D: tiles of 4 x 8 */
    PetscCall(PCTileILUSetLayout(pc, sv->layout));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solve A x = b on back end be; its, reason, true relative residual, the solution in x. */
static PetscErrorCode Solve(Mat A, Vec b, const Solver *sv, const char be[], Vec x, PetscInt *its, KSPConvergedReason *reason, PetscReal *rel)
{
  KSP       ksp;
  Vec       r;
  PetscReal nr, nb;

  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-ppe_backend", be)); /* read by the PCs at set-up */
  PetscCall(PPEStencilSetBackend(A, !strcmp(be, "emu") ? PPE_BACKEND_EMU : PPE_BACKEND_HOST));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(Configure(ksp, sv));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, reason));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(PetscOptionsClearValue(NULL, "-ppe_backend"));
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &nr));
  PetscCall(VecNorm(b, NORM_2, &nb));
  *rel = nr / nb;
  PetscCall(VecDestroy(&r));
  PetscCall(PPEStencilSetBackend(A, PPE_BACKEND_HOST));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A PC of the given type applied once on back end be: z = M^-1 r. */
static PetscErrorCode ApplyPC(Mat A, const Solver *sv, const char be[], Vec r, Vec z)
{
  KSP ksp;
  PC  pc;

  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-ppe_backend", be));
  PetscCall(PPEStencilSetBackend(A, !strcmp(be, "emu") ? PPE_BACKEND_EMU : PPE_BACKEND_HOST));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(Configure(ksp, sv));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetUp(pc));
  PetscCall(PCApply(pc, r, z));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(PetscOptionsClearValue(NULL, "-ppe_backend"));
  PetscCall(PPEStencilSetBackend(A, PPE_BACKEND_HOST));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Extreme eigenvalues of W^-1/2 B W^-1/2, B this rank's diagonal block of the assembled
   operator (the whole operator on one rank): dense LAPACK. The smallest nonzero one when the
   block is singular. */
static PetscErrorCode DenseEigs(PPEGrid g, Mat Aaij, PetscReal *emin, PetscReal *emax)
{
  Mat              Ab, D;
  PetscScalar     *a;
  PetscReal       *ev, *work, *s;
  const PetscReal *w[2];
  PetscInt         st[2], m[2], nl, l = 0;
  DM               da;
  PetscBLASInt     bn, lwork, info;

  PetscFunctionBegin;
  PetscCall(PPEGridGetDM(g, &da)); /* the 2D DMDA */
  PetscCall(DMDAGetCorners(da, &st[0], &st[1], NULL, &m[0], &m[1], NULL));
  for (int d = 0; d < 2; d++) PetscCall(PPEGridGetWeights(g, d, &w[d]));
  nl = m[0] * m[1];
  PetscCall(MatGetDiagonalBlock(Aaij, &Ab));
  PetscCall(MatConvert(Ab, MATSEQDENSE, MAT_INITIAL_MATRIX, &D));
  PetscCall(MatDenseGetArray(D, &a));
  PetscCall(PetscMalloc3(nl, &s, nl, &ev, 3 * nl, &work));
  for (PetscInt j = st[1]; j < st[1] + m[1]; j++)
    for (PetscInt i = st[0]; i < st[0] + m[0]; i++) s[l++] = 1.0 / PetscSqrtReal(w[0][i] * w[1][j]);
  for (PetscInt c = 0; c < nl; c++)
    for (PetscInt r = 0; r < nl; r++) a[r + c * nl] *= s[r] * s[c];
  PetscCall(PetscBLASIntCast(nl, &bn));
  lwork = 3 * bn;
  PetscCallBLAS("LAPACKsyev", LAPACKsyev_("N", "L", &bn, a, &bn, ev, work, &lwork, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "syev failed: %d", (int)info);
  *emax = ev[nl - 1];
  *emin = (ev[0] < 1e-9 * ev[nl - 1]) ? ev[1] : ev[0];
  PetscCall(PetscFree3(s, ev, work));
  PetscCall(MatDenseRestoreArray(D, &a));
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckCase(MPI_Comm comm, const Case2d *c)
{
  static const Solver solvers[] = {
    {"cg + tileilu xy",            KSPCG,        PCTILEILU, 0, PC_CHEBYCI_GLOBAL, PC_TILEILU_LAYOUT_XYZ, PETSC_TRUE },
    {"cg + tileilu yx",            KSPCG,        PCTILEILU, 0, PC_CHEBYCI_GLOBAL, PC_TILEILU_LAYOUT_ZYX, PETSC_TRUE },
    {"cg + chebyci global",        KSPCG,        PCCHEBYCI, 0, PC_CHEBYCI_GLOBAL, PC_TILEILU_LAYOUT_XYZ, PETSC_TRUE },
    {"cg + chebyci block",         KSPCG,        PCCHEBYCI, 0, PC_CHEBYCI_BLOCK,  PC_TILEILU_LAYOUT_XYZ, PETSC_TRUE },
    {"cg + chebyci nocomm",        KSPCG,        PCCHEBYCI, 0, PC_CHEBYCI_NOCOMM, PC_TILEILU_LAYOUT_XYZ, PETSC_TRUE },
    {"cbcg s=1",                   KSPCBCG,      PCNONE,    1, PC_CHEBYCI_GLOBAL, PC_TILEILU_LAYOUT_XYZ, PETSC_FALSE},
    {"cbcg s=4",                   KSPCBCG,      PCNONE,    4, PC_CHEBYCI_GLOBAL, PC_TILEILU_LAYOUT_XYZ, PETSC_FALSE},
    {"cbcg s=8",                   KSPCBCG,      PCNONE,    8, PC_CHEBYCI_GLOBAL, PC_TILEILU_LAYOUT_XYZ, PETSC_FALSE},
    {"cbcg s=1 + chebyci",         KSPCBCG,      PCCHEBYCI, 1, PC_CHEBYCI_GLOBAL, PC_TILEILU_LAYOUT_XYZ, PETSC_FALSE},
    {"cbcg s=4 + chebyci",         KSPCBCG,      PCCHEBYCI, 4, PC_CHEBYCI_GLOBAL, PC_TILEILU_LAYOUT_XYZ, PETSC_FALSE},
    {"cbcg s=8 + chebyci block",   KSPCBCG,      PCCHEBYCI, 8, PC_CHEBYCI_BLOCK,  PC_TILEILU_LAYOUT_XYZ, PETSC_FALSE},
    {"bcgsfused + chebyci global", KSPBCGSFUSED, PCCHEBYCI, 0, PC_CHEBYCI_GLOBAL, PC_TILEILU_LAYOUT_XYZ, PETSC_FALSE},
    {"bcgsfused + chebyci block",  KSPBCGSFUSED, PCCHEBYCI, 0, PC_CHEBYCI_BLOCK,  PC_TILEILU_LAYOUT_XYZ, PETSC_FALSE},
  };
  const PetscInt nsolv = (PetscInt)(sizeof(solvers) / sizeof(solvers[0]));
  PPEGrid        g;
  Mat            A, Aaij;
  Vec            xe, b, xh, xd, xy = NULL;
  PetscRandom    rnd;
  char           tag[96];
  PetscInt       itxy = -1;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(tag, sizeof(tag), "%s %" PetscInt_FMT "x%" PetscInt_FMT " %s%s", c->bcs, c->n[0], c->n[1], PPELocations[c->loc], c->stretch ? " tanh y" : ""));
  PetscCall(MakeGrid(comm, c, &g));
  PetscCall(PPEStencilCreate(g, &A));
  PetscCall(PPEStencilAttachNullSpace(g, A));
  PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &Aaij));
  PetscCall(MatCreateVecs(A, &xe, &b));
  PetscCall(VecDuplicate(xe, &xh));
  PetscCall(VecDuplicate(xe, &xd));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 616));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(xe, rnd));
  PetscCall(MatMult(A, xe, b)); /* consistent also for a singular operator */

  /* the stencil on the device back end: the host's bits */
  {
    PetscBool eq;
    PetscCall(PPEStencilSetBackend(A, PPE_BACKEND_EMU));
    PetscCall(MatMult(A, xe, xd));
    PetscCall(PPEStencilSetBackend(A, PPE_BACKEND_HOST));
    PetscCall(VecEqual(b, xd, &eq));
    PetscCall(TapCheck(comm, eq, "%s: MatMult on emu = host, bitwise", tag));
  }

  for (PetscInt k = 0; k < nsolv; k++) {
    const Solver      *sv = &solvers[k];
    PetscInt           ith, itd;
    KSPConvergedReason rh, rd;
    PetscReal          relh, reld;
    PetscBool          eq, ok;

    PetscCall(Solve(A, b, sv, "host", xh, &ith, &rh, &relh));
    PetscCall(Solve(A, b, sv, "emu", xd, &itd, &rd, &reld));
    PetscCall(VecEqual(xh, xd, &eq));
    ok = (PetscBool)(rh > 0 && relh <= 1e-7);
    PetscCall(TapCheck(comm, ok, "%s: %s converges: %s in %" PetscInt_FMT " iterations, true relative residual %.2e (<= 1e-7)", tag, sv->name, KSPConvergedReasons[rh], ith, (double)relh));
    if (sv->bitwise) ok = (PetscBool)(itd == ith && eq);
    else ok = (PetscBool)(rd > 0 && reld <= 1e-7 && PetscAbsInt(itd - ith) <= 1);
    PetscCall(TapCheck(comm, ok, "%s: %s on emu: %s in %" PetscInt_FMT " iterations (host %" PetscInt_FMT "), %s, true relative residual %.2e (want %s)", tag, sv->name, KSPConvergedReasons[rd], itd, ith,
                       sv->bitwise ? (eq ? "the host's solution bitwise" : "NOT the host's bits") : "within one iteration", (double)reld, sv->bitwise ? "equal iterations and bits" : "converged, <= 1e-7, iterations within 1"));
    if (k == 0) { /* keep the xy solution */
      PetscCall(VecDuplicate(xh, &xy));
      PetscCall(VecCopy(xh, xy));
      itxy = ith;
    } else if (k == 1) {
      PetscCall(VecEqual(xh, xy, &eq));
      PetscCall(TapCheck(comm, (PetscBool)(eq && ith == itxy), "%s: tileilu yx = xy: %" PetscInt_FMT " vs %" PetscInt_FMT " iterations (want equal), %s (want same bits)", tag, ith, itxy, eq ? "same bits" : "solutions differ"));
    }
  }

  /* single applications on the device back end: the host's bits (chebyci's fused step in every
     mode, the tileilu sweeps in both layouts); the shape used by tileilu is 2D */
  for (PetscInt k = 0; k < 5; k++) {
    PetscBool eq;
    PetscCall(ApplyPC(A, &solvers[k], "host", b, xh));
    PetscCall(ApplyPC(A, &solvers[k], "emu", b, xd));
    PetscCall(VecEqual(xh, xd, &eq));
    PetscCall(TapCheck(comm, eq, "%s: PC %s applied on emu = host, bitwise", tag, solvers[k].name + 5));
  }
  {
    KSP      ksp;
    PC       pc;
    PetscInt used[3], nt, m[3], s[3], want;
    DM       da;

    PetscCall(KSPCreate(comm, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(Configure(ksp, &solvers[1]));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetUp(pc));
    PetscCall(PCTileILUGetInfo(pc, used, &nt, NULL));
    PetscCall(PPEGridGetDM(g, &da));
    PetscCall(DMDAGetCorners(da, &s[0], &s[1], &s[2], &m[0], &m[1], &m[2]));
    want = ((m[0] + 3) / 4) * ((m[1] + 7) / 8);
    PetscCall(TapCheck(comm, (PetscBool)(used[0] == PetscMin(4, m[0]) && used[1] == PetscMin(8, m[1]) && used[2] == 1 && nt == want),
                       "%s: tileilu tiles %" PetscInt_FMT " x %" PetscInt_FMT " (z %" PetscInt_FMT "; expected %" PetscInt_FMT " x %" PetscInt_FMT ", z 1), %" PetscInt_FMT " tiles on a %" PetscInt_FMT " x %" PetscInt_FMT
                       " box (expected %" PetscInt_FMT ")",
                       tag, used[0], used[1], used[2], PetscMin(4, m[0]), PetscMin(8, m[1]), nt, m[0], m[1], want));
    PetscCall(KSPDestroy(&ksp));
  }

  /* chebyci's bounds: global (the whole operator) and block (this rank's block) */
  for (int mode = 0; mode < 2; mode++) {
    PC          pc;
    PetscReal   lmin, lmax, emin = 0, emax = 0;
    PetscMPIInt size;
    PetscBool   ok;

    PetscCallMPI(MPI_Comm_size(comm, &size));
    if (mode == 0 && size > 1) continue; /* the dense global spectrum: on one rank only */
    PetscCall(PCCreate(comm, &pc));
    PetscCall(PCSetType(pc, PCCHEBYCI));
    PetscCall(PCSetOperators(pc, A, A));
    PetscCall(PCChebyCISetMode(pc, mode ? PC_CHEBYCI_BLOCK : PC_CHEBYCI_GLOBAL));
    PetscCall(PCSetUp(pc));
    PetscCall(PCChebyCIGetInterval(pc, &lmin, &lmax, NULL, NULL));
    PetscCall(DenseEigs(g, Aaij, &emin, &emax));
    ok = (PetscBool)(PetscAbsReal(lmin - emin) <= 1e-10 * emax && PetscAbsReal(lmax - emax) <= 1e-11 * emax);
    PetscCall(TapCheck(comm, ok, "%s: chebyci %s bounds of W^-1 A are the exact extremes (lmin %.8g vs %.8g, lmax %.8g vs %.8g; differences %.1e, %.1e of lmax, want <= 1e-10, 1e-11)", tag, mode ? "block" : "global", (double)lmin, (double)emin,
                       (double)lmax, (double)emax, (double)(PetscAbsReal(lmin - emin) / emax), (double)(PetscAbsReal(lmax - emax) / emax)));
    PetscCall(PCDestroy(&pc));
  }

  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&xy));
  PetscCall(VecDestroy(&xe));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&xh));
  PetscCall(VecDestroy(&xd));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&Aaij));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The 5-point matrix of an anisotropic Laplacian (Dirichlet values eliminated) on the
   program's own 2D DMDA, assembled with DMCreateMatrix() (a star stencil: the pattern of
   PETSc's ILU(0) is the 5-point one); with extra, one 9-point row (box stencil). */
static PetscErrorCode DMDAMatrix(MPI_Comm comm, PetscBool extra, DM *da, Mat *A)
{
  PetscInt s[2], m[2], M, N;

  PetscFunctionBegin;
  PetscCall(DMDACreate2d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, extra ? DMDA_STENCIL_BOX : DMDA_STENCIL_STAR, 23, 19, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, da));
  PetscCall(DMSetUp(*da));
  PetscCall(DMDAGetInfo(*da, NULL, &M, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMCreateMatrix(*da, A));
  PetscCall(DMDAGetCorners(*da, &s[0], &s[1], NULL, &m[0], &m[1], NULL));
  for (PetscInt j = s[1]; j < s[1] + m[1]; j++)
    for (PetscInt i = s[0]; i < s[0] + m[0]; i++) {
      MatStencil  row = {0}, col[6];
      PetscScalar v[6];
      PetscInt    n = 0;

      row.i = i, row.j = j;
      col[n].i = i, col[n].j = j, v[n++] = 2.0 * 1.0 + 2.0 * 3.0;
      if (i > 0) col[n].i = i - 1, col[n].j = j, v[n++] = -1.0;
      if (i < M - 1) col[n].i = i + 1, col[n].j = j, v[n++] = -1.0;
      if (j > 0) col[n].i = i, col[n].j = j - 1, v[n++] = -3.0;
      if (j < N - 1) col[n].i = i, col[n].j = j + 1, v[n++] = -3.0;
      if (extra && i == s[0] + 1 && j == s[1] + 1) col[n].i = i - 1, col[n].j = j - 1, v[n++] = -0.5;
      for (PetscInt l = 0; l < n; l++) col[l].k = 0, col[l].c = 0;
      PetscCall(MatSetValuesStencil(*A, 1, &row, n, col, v, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckDMDAMatrix(MPI_Comm comm)
{
  DM        da;
  Mat       A;
  Vec       b, x[3];
  PetscInt  its[3];
  PetscReal rel[3];

  PetscFunctionBegin;
  PetscCall(DMDAMatrix(comm, PETSC_FALSE, &da, &A));
  PetscCall(MatCreateVecs(A, &x[0], &b));
  PetscCall(VecDuplicate(x[0], &x[1]));
  PetscCall(VecDuplicate(x[0], &x[2]));
  PetscCall(VecSet(b, 1.0));
  for (int c = 0; c < 3; c++) { /* tileilu xy 4x8, tileilu yx 4x8, one tile per rank vs bjacobi */
    for (int v = 0; v < (c == 2 ? 2 : 1); v++) {
      KSP                ksp;
      PC                 pc;
      Vec                r;
      KSPConvergedReason reason;
      PetscReal          nr, nb;
      PetscInt           it;

      PetscCall(KSPCreate(comm, &ksp));
      PetscCall(KSPSetOperators(ksp, A, A));
      PetscCall(KSPSetType(ksp, KSPCG));
      PetscCall(KSPSetTolerances(ksp, 1e-8, 1e-50, PETSC_DEFAULT, 1000));
      PetscCall(KSPGetPC(ksp, &pc));
      if (c == 2 && v == 1) PetscCall(PCSetType(pc, PCBJACOBI)); /* ILU(0) in natural order on each block */
      else {
        PetscCall(PCSetType(pc, PCTILEILU));
        PetscCall(PCTileILUSetTile(pc, c == 2 ? 1000 : 4, c == 2 ? 1000 : 8, 1));
        PetscCall(PCTileILUSetLayout(pc, c == 1 ? PC_TILEILU_LAYOUT_ZYX : PC_TILEILU_LAYOUT_XYZ));
      }
      PetscCall(KSPSolve(ksp, b, x[c == 2 ? 2 - v : c]));
      PetscCall(KSPGetIterationNumber(ksp, &it));
      PetscCall(KSPGetConvergedReason(ksp, &reason));
      PetscCall(VecDuplicate(b, &r));
      PetscCall(MatMult(A, x[c == 2 ? 2 - v : c], r));
      PetscCall(VecAYPX(r, -1.0, b));
      PetscCall(VecNorm(r, NORM_2, &nr));
      PetscCall(VecNorm(b, NORM_2, &nb));
      PetscCall(VecDestroy(&r));
      if (c < 2) {
        its[c] = it;
        rel[c] = nr / nb;
        PetscCall(TapCheck(comm, (PetscBool)(reason > 0 && rel[c] <= 1e-7), "2D DMDA matrix: cg + tileilu %s 4 x 8 converges (%s) in %" PetscInt_FMT " iterations, true relative residual %.2e (<= 1e-7)", c ? "yx" : "xy", KSPConvergedReasons[reason],
                           it, (double)rel[c]));
      } else if (v == 0) {
        its[2] = it;
      } else {
        PetscReal d, nx;
        PetscCall(VecAXPY(x[1], -1.0, x[2])); /* bjacobi - tileilu with one tile per rank */
        PetscCall(VecNorm(x[1], NORM_2, &d));
        PetscCall(VecNorm(x[2], NORM_2, &nx));
        PetscCall(TapCheck(comm, (PetscBool)(reason > 0 && it == its[2] && d <= 1e-8 * nx),
                           "2D DMDA matrix: tileilu one tile per rank = bjacobi + ILU(0) (%s): %" PetscInt_FMT " vs %" PetscInt_FMT " iterations (want equal), solutions rel diff %.2e (<= 1e-8)", KSPConvergedReasons[reason], its[2], it,
                           (double)(d / nx)));
      }
      PetscCall(KSPDestroy(&ksp));
    }
  }
  PetscCall(TapCheck(comm, (PetscBool)(its[0] == its[1]), "2D DMDA matrix: tileilu xy and yx take the same iterations (%" PetscInt_FMT ", %" PetscInt_FMT ")", its[0], its[1]));
  for (int c = 0; c < 3; c++) PetscCall(VecDestroy(&x[c]));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));

  /* a 9-point row is refused, the point named in 2D */
  {
    PC             pc;
    PetscErrorCode code;
    const char    *msg = NULL;

    PetscCall(DMDAMatrix(comm, PETSC_TRUE, &da, &A));
    PetscCall(PCCreate(comm, &pc));
    PetscCall(PCSetType(pc, PCTILEILU));
    PetscCall(PCSetOperators(pc, A, A));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    code = PCSetUp(pc);
    PetscCall(PetscPopErrorHandler());
    if (code) PetscCall(PPEErrorMessage(code, &msg));
    PetscCall(TapCheck(comm, (PetscBool)(code == PETSC_ERR_SUP && msg && strstr(msg, "PC tileilu supports 5-point operators: the row of point (") && strstr(msg, "which is not one of its 4 neighbours")),
                       "2D DMDA matrix with a 9-point row: error %d (want %d) \"%s\" (want \"PC tileilu supports 5-point operators: the row of point (... which is not one of its 4 neighbours\")", (int)code, (int)PETSC_ERR_SUP, msg ? msg : ""));
    PetscCall(PCDestroy(&pc));
    PetscCall(MatDestroy(&A));
    PetscCall(DMDestroy(&da));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm     comm;
  const Case2d cases[] = {
    {"NNDD", PPE_LOCATION_CELL,   PETSC_FALSE, {24, 20}},
    {"PPNN", PPE_LOCATION_CELL,   PETSC_TRUE,  {24, 20}},
    {"DNND", PPE_LOCATION_VERTEX, PETSC_TRUE,  {21, 19}},
    {"NNNN", PPE_LOCATION_CELL,   PETSC_FALSE, {19, 22}},
  };

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  comm = PETSC_COMM_WORLD;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) PetscCall(CheckCase(comm, &cases[i]));
  PetscCall(CheckDMDAMatrix(comm));
  PetscCall(PetscFinalize());
  return 0;
}
