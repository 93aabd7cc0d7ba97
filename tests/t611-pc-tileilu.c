static const char help[] = "PC tileilu against PETSc, on an odd-sized grid (uneven splits and edge tiles):\n\
  - one tile per rank (a tile shape larger than the box, clamped) equals bjacobi with ILU(0)\n\
    sub-solves (1e-12), with coefficients from the matrix-free operator and from AIJ rows,\n\
    and CG takes the same number of iterations;\n\
  - small tiles equal bjacobi+ILU(0) on the matrix permuted so that every tile is one\n\
    contiguous block (1e-12), also for a nonsymmetric matrix and for M^T;\n\
  - xyz and zyx layouts (fused or not) agree (1e-14), matrix-free and AIJ coefficients\n\
    agree (1e-15), symmetric and general storage of the factors both checked,\n\
    1x1x1 tiles are point Jacobi, y'M^-1 x = x'M^-T y, more iterations for smaller tiles.\n\
  -n nx,ny,nz   grid size (default 13,11,9)\n\n";

#include <ppekit.h>
#include "tap.h"
#include "vecutil.h"

/* y = M^-1 x (or M^-T x) of PC tileilu with operators (A, P); the tile shape used and the
   number of tiles of this rank come back in used[] and *ntiles when asked for. */
static PetscBool unfused = PETSC_FALSE; /* zyx: gather, sweep and scatter as three passes */

static PetscErrorCode ApplyTileILU(Mat A, Mat P, PetscInt bx, PetscInt by, PetscInt bz, PCTileILULayout layout, PetscBool trans, Vec x, Vec y, PetscInt used[3], PetscInt *ntiles)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)A), &pc));
  PetscCall(PCSetType(pc, PCTILEILU));
  PetscCall(PCTileILUSetTile(pc, bx, by, bz));
  PetscCall(PCTileILUSetLayout(pc, layout));
  PetscCall(PCTileILUSetFuse(pc, (PetscBool)!unfused));
  PetscCall(PCSetOperators(pc, A, P));
  PetscCall(PCSetUp(pc));
  if (trans) PetscCall(PCApplyTranspose(pc, x, y));
  else PetscCall(PCApply(pc, x, y));
  PetscCall(PCTileILUGetInfo(pc, used, ntiles, NULL));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = M^-1 x (or M^-T x) of PETSc's bjacobi with ILU(0) sub-solves on P, with nb local
   blocks of lengths lens (one block per rank when lens is NULL). */
static PetscErrorCode ApplyBJacobiILU(Mat A, Mat P, PetscInt nb, const PetscInt lens[], PetscBool trans, Vec x, Vec y)
{
  PC       pc;
  KSP     *sub;
  PetscInt nsub, first;

  PetscFunctionBegin;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)A), &pc));
  PetscCall(PCSetType(pc, PCBJACOBI));
  if (lens) PetscCall(PCBJacobiSetLocalBlocks(pc, nb, lens));
  PetscCall(PCSetOperators(pc, A, P));
  PetscCall(PCSetUp(pc));
  PetscCall(PCBJacobiGetSubKSP(pc, &nsub, &first, &sub));
  for (PetscInt i = 0; i < nsub; i++) {
    PC spc;
    PetscCall(KSPGetPC(sub[i], &spc));
    PetscCall(PCSetType(spc, PCILU));
    PetscCall(PCFactorSetLevels(spc, 0));
  }
  if (trans) PetscCall(PCApplyTranspose(pc, x, y));
  else PetscCall(PCApply(pc, x, y));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The reference for small tiles: the AIJ matrix P (on a DMDA) permuted so that the points of
   every tile of a rank are consecutive, in the tile's lexicographic order, and PETSc's
   bjacobi with one ILU(0) block per tile on it.
*/
static PetscErrorCode ApplyTiledReference(Mat P, const PetscInt tile[3], PetscBool trans, Vec x, Vec y)
{
  DM                 da;
  PetscInt           s[3], m[3], t[3], nt[3], rstart, *idx, *lens, n = 0, nb = 0;
  IS                 is;
  Mat                B;
  Vec                xb, yb;
  const PetscScalar *xa, *yba;
  PetscScalar       *xba, *ya;

  PetscFunctionBegin;
  PetscCall(MatGetDM(P, &da));
  PetscCall(DMDAGetCorners(da, &s[0], &s[1], &s[2], &m[0], &m[1], &m[2]));
  PetscCall(MatGetOwnershipRange(P, &rstart, NULL));
  for (int d = 0; d < 3; d++) {
    t[d]  = PetscMin(tile[d], m[d]);
    nt[d] = (m[d] + t[d] - 1) / t[d];
  }
  PetscCall(PetscMalloc2(m[0] * m[1] * m[2], &idx, nt[0] * nt[1] * nt[2], &lens));
  for (PetscInt tc = 0; tc < nt[2]; tc++)
    for (PetscInt tb = 0; tb < nt[1]; tb++)
      for (PetscInt ta = 0; ta < nt[0]; ta++) {
        PetscInt o[3] = {ta * t[0], tb * t[1], tc * t[2]}, e[3];
        for (int d = 0; d < 3; d++) e[d] = PetscMin(t[d], m[d] - o[d]);
        lens[nb++] = e[0] * e[1] * e[2];
        for (PetscInt c = 0; c < e[2]; c++)
          for (PetscInt b = 0; b < e[1]; b++)
            for (PetscInt a = 0; a < e[0]; a++) idx[n++] = rstart + (o[0] + a) + m[0] * ((o[1] + b) + m[1] * (o[2] + c));
      }
  PetscCall(ISCreateGeneral(PetscObjectComm((PetscObject)P), n, idx, PETSC_COPY_VALUES, &is));
  PetscCall(MatCreateSubMatrix(P, is, is, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatCreateVecs(B, &xb, &yb));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayWrite(xb, &xba));
  for (PetscInt i = 0; i < n; i++) xba[i] = xa[idx[i] - rstart];
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecRestoreArrayWrite(xb, &xba));
  PetscCall(ApplyBJacobiILU(B, B, nb, lens, trans, xb, yb));
  PetscCall(VecGetArrayRead(yb, &yba));
  PetscCall(VecGetArrayWrite(y, &ya));
  for (PetscInt i = 0; i < n; i++) ya[idx[i] - rstart] = yba[i];
  PetscCall(VecRestoreArrayRead(yb, &yba));
  PetscCall(VecRestoreArrayWrite(y, &ya));
  PetscCall(VecDestroy(&xb));
  PetscCall(VecDestroy(&yb));
  PetscCall(MatDestroy(&B));
  PetscCall(ISDestroy(&is));
  PetscCall(PetscFree2(idx, lens));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CG iterations to rtol 1e-10 from a zero guess with PC tileilu (tile bx,by,bz) or, when
   bx = 0, PETSc's bjacobi + ILU(0) (sub-solves set with options sub_pc_type ilu). */
static PetscErrorCode CGIterations(Mat A, Mat P, PetscInt bx, PetscInt by, PetscInt bz, PCTileILULayout layout, Vec b, Vec x, PetscInt *its)
{
  KSP                ksp;
  PC                 pc;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetOperators(ksp, A, P));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 2000));
  PetscCall(KSPGetPC(ksp, &pc));
  if (bx) {
    PetscCall(PCSetType(pc, PCTILEILU));
    PetscCall(PCTileILUSetTile(pc, bx, by, bz));
    PetscCall(PCTileILUSetLayout(pc, layout));
  } else PetscCall(PCSetType(pc, PCBJACOBI));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  if (reason <= 0) *its = -1;
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every check on one grid. */
static PetscErrorCode CheckGrid(MPI_Comm comm, const char bcs[], PPELocation loc, PetscBool stretch, PetscReal shift, const PetscInt n[3], PetscBool cg)
{
  PPEGrid      g;
  Mat          Amf, Aaij;
  Vec          x, y1, y2, y3, b;
  PetscRandom  rnd;
  PetscInt     used[3], ntiles, m[3];
  PetscReal    rel, rel2;
  DM           da;
  MatNullSpace nsp;
  PetscMPIInt  size;
  char         tag[96];
  /* small tiles: uneven on the 13x11x9 grid at every rank count; a z-plane per tile; lines */
  const PetscInt shapes[][3] = {
    {4,  3,  2},
    {13, 11, 1},
    {1,  2,  9},
    {8,  8,  1}
  };

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(tag, sizeof(tag), "%s %s %s%s", bcs, PPELocations[loc], stretch ? "tanh" : "uniform", shift > 0 ? " shift" : ""));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetSizes(g, n[0], n[1], n[2]));
  PetscCall(PPEGridSetLengths(g, 1.0, 1.7, 0.8));
  PetscCall(PPEGridSetBCString(g, bcs));
  PetscCall(PPEGridSetLocation(g, loc));
  if (stretch) PetscCall(PPEGridSetZStretch(g, PPE_STRETCH_TANH, 2.0));
  PetscCall(PPEGridSetShift(g, shift));
  PetscCall(PPEGridSetUp(g));
  PetscCall(PPEGridGetDM(g, &da));
  PetscCall(DMDAGetCorners(da, NULL, NULL, NULL, &m[0], &m[1], &m[2]));
  PetscCall(PPEStencilCreate(g, &Amf));
  PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &Aaij));
  PetscCall(MatCreateVecs(Amf, &x, &y1));
  PetscCall(VecDuplicate(x, &y2));
  PetscCall(VecDuplicate(x, &y3));
  PetscCall(VecDuplicate(x, &b));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(x, rnd));
  /* On one rank PETSc's bjacobi solves its block, the whole matrix, with a KSP, which removes
     the matrix's null space from the right-hand side and the solution: compare the
     outputs of a singular operator on one rank with the constants removed. */
  PetscCall(MatGetNullSpace(Amf, &nsp));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size > 1) nsp = NULL;
  if (nsp) PetscCall(MatNullSpaceRemove(nsp, x));

  /* one tile per rank: a shape larger than the box is clamped to it */
  if (!strchr(bcs, 'P')) {
    PetscCall(ApplyBJacobiILU(Amf, Aaij, 0, NULL, PETSC_FALSE, x, y1));
    PetscCall(ApplyTileILU(Amf, Amf, 1000, 1000, 1000, PC_TILEILU_LAYOUT_XYZ, PETSC_FALSE, x, y2, used, &ntiles));
    if (nsp) PetscCall(MatNullSpaceRemove(nsp, y2));
    rel = TestRelDiffNorm(y2, y1, NORM_INFINITY);
    PetscCall(TapCheck(comm, (PetscBool)(ntiles == 1 && used[0] == m[0] && used[1] == m[1] && used[2] == m[2]),
                       "%s: one tile per rank (clamped): %" PetscInt_FMT " tile(s) of %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " (want 1 of the box %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT ", rank 0)", tag, ntiles, used[0],
                       used[1], used[2], m[0], m[1], m[2]));
    PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-12), "%s: one tile per rank, matrix-free coefficients, xyz = bjacobi+ilu(0), rel diff %.2e (<= 1e-12)", tag, (double)rel));
    PetscCall(ApplyTileILU(Amf, Aaij, 1000, 1000, 1000, PC_TILEILU_LAYOUT_ZYX, PETSC_FALSE, x, y2, NULL, NULL));
    if (nsp) PetscCall(MatNullSpaceRemove(nsp, y2));
    rel = TestRelDiffNorm(y2, y1, NORM_INFINITY);
    PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-12), "%s: one tile per rank, AIJ coefficients, zyx = bjacobi+ilu(0), rel diff %.2e", tag, (double)rel));
    if (cg) {
      PetscInt itb, itt, itz;
      PetscCall(MatMult(Amf, x, b)); /* a consistent right-hand side, also when singular */
      PetscCall(CGIterations(Amf, Aaij, 0, 0, 0, PC_TILEILU_LAYOUT_XYZ, b, y1, &itb));
      PetscCall(CGIterations(Amf, Amf, 1000, 1000, 1000, PC_TILEILU_LAYOUT_XYZ, b, y2, &itt));
      PetscCall(CGIterations(Amf, Aaij, 1000, 1000, 1000, PC_TILEILU_LAYOUT_ZYX, b, y3, &itz));
      rel = TestRelDiffNorm(y2, y1, NORM_INFINITY);
      PetscCall(TapCheck(comm, (PetscBool)(itb > 0 && itt == itb && itz == itb && rel <= 1e-8),
                         "%s: CG iterations, bjacobi+ilu(0) %" PetscInt_FMT " (> 0), tileilu one tile per rank %" PetscInt_FMT " (matrix-free) and %" PetscInt_FMT " (AIJ, zyx) (want equal); solutions rel diff %.2e (<= 1e-8)", tag, itb, itt, itz,
                         (double)rel));
    }
  }

  /* small tiles against the tiled reference, both layouts, both coefficient sources */
  for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
    const PetscInt *t    = shapes[s];
    PetscBool       wrap = PETSC_FALSE, any;
    /* a tile spanning a whole periodic direction: PETSc's block would keep the wrap couplings */
    for (int d = 0; d < 3; d++)
      if (bcs[2 * d] == 'P' && PetscMin(t[d], m[d]) == n[d]) wrap = PETSC_TRUE;
    PetscCall(MPIU_Allreduce(&wrap, &any, 1, PPE_MPI_BOOL, MPI_LOR, comm));
    if (any) continue;
    PetscCall(ApplyTiledReference(Aaij, t, PETSC_FALSE, x, y1));
    PetscCall(ApplyTileILU(Amf, Amf, t[0], t[1], t[2], PC_TILEILU_LAYOUT_XYZ, PETSC_FALSE, x, y2, NULL, NULL));
    PetscCall(ApplyTileILU(Amf, Aaij, t[0], t[1], t[2], PC_TILEILU_LAYOUT_ZYX, PETSC_FALSE, x, y3, NULL, NULL));
    rel     = TestRelDiffNorm(y2, y1, NORM_INFINITY);
    rel2    = TestRelDiffNorm(y3, y2, NORM_INFINITY);
    unfused = PETSC_TRUE;
    PetscCall(ApplyTileILU(Amf, Amf, t[0], t[1], t[2], PC_TILEILU_LAYOUT_ZYX, PETSC_FALSE, x, y3, NULL, NULL));
    unfused = PETSC_FALSE;
    rel2    = PetscMax(rel2, TestRelDiffNorm(y3, y2, NORM_INFINITY));
    PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-12 && rel2 <= 1e-14),
                       "%s: tiles %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT ": xyz (matrix-free) = tiled bjacobi+ilu(0) rel diff %.2e (<= 1e-12); zyx (AIJ; fused and not) = xyz rel diff %.2e (<= 1e-14)", tag, t[0], t[1], t[2], (double)rel,
                       (double)rel2));
  }
  PetscCall(ApplyTileILU(Amf, Amf, 4, 3, 2, PC_TILEILU_LAYOUT_ZYX, PETSC_FALSE, x, y1, NULL, NULL));
  PetscCall(ApplyTileILU(Amf, Aaij, 4, 3, 2, PC_TILEILU_LAYOUT_ZYX, PETSC_FALSE, x, y2, NULL, NULL));
  rel = TestRelDiffNorm(y2, y1, NORM_INFINITY);
  PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-15), "%s: tiles 4x3x2, matrix-free and AIJ coefficients agree, rel diff %.2e", tag, (double)rel));

  /* 1x1x1 tiles: point Jacobi */
  {
    PC pc;
    PetscCall(PCCreate(comm, &pc));
    PetscCall(PCSetType(pc, PCJACOBI));
    PetscCall(PCSetOperators(pc, Amf, Amf));
    PetscCall(PCApply(pc, x, y1));
    PetscCall(PCDestroy(&pc));
    PetscCall(ApplyTileILU(Amf, Amf, 1, 1, 1, PC_TILEILU_LAYOUT_ZYX, PETSC_FALSE, x, y2, NULL, NULL));
    rel = TestRelDiffNorm(y2, y1, NORM_INFINITY);
    PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-15), "%s: tiles 1x1x1 = PCJACOBI, rel diff %.2e", tag, (double)rel));
  }

  /* iterations grow as the tiles shrink */
  if (cg) {
    PetscInt its[3];
    PetscCall(MatMult(Amf, x, b));
    PetscCall(CGIterations(Amf, Amf, 1000, 1000, 1000, PC_TILEILU_LAYOUT_ZYX, b, y1, &its[0]));
    PetscCall(CGIterations(Amf, Amf, 4, 4, 3, PC_TILEILU_LAYOUT_ZYX, b, y1, &its[1]));
    PetscCall(CGIterations(Amf, Amf, 1, 1, 1, PC_TILEILU_LAYOUT_ZYX, b, y1, &its[2]));
    PetscCall(TapCheck(comm, (PetscBool)(its[0] > 0 && its[0] < its[1] && its[1] < its[2]), "%s: CG iterations grow as tiles shrink: box %" PetscInt_FMT " (> 0), 4x4x3 %" PetscInt_FMT ", 1x1x1 %" PetscInt_FMT " (want strictly increasing)", tag,
                       its[0], its[1], its[2]));
  }

  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscCall(VecDestroy(&y3));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&Amf));
  PetscCall(MatDestroy(&Aaij));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   A nonsymmetric 7-point matrix on a DMDA (convection-diffusion: the x couplings 1.3 and 0.7
   of the diffusion ones), so that L and U, and M and M^T, differ. On the 16x8x6 grid of one
   rank 2x2x3 and 1x2x3 tiles divide the box: the zyx groups are whole tile rows, and with
   1x2x3 two groups per row are gathered as one chunk (the contiguous gathers).
*/
static PetscErrorCode CheckNonsymmetric(MPI_Comm comm, const PetscInt n[3])
{
  DM             da;
  Mat            A;
  Vec            x, y, y1, y2, y3;
  PetscRandom    rnd;
  PetscInt       s[3], m[3];
  PetscReal      rel, rel2;
  PetscScalar    d1, d2;
  const PetscInt shapes[][3] = {
    {4,    3,    2   },
    {2,    2,    3   },
    {1,    2,    3   },
    {1000, 1000, 1000}
  };

  PetscFunctionBegin;
  PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n[0], n[1], n[2], PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(DMDAGetCorners(da, &s[0], &s[1], &s[2], &m[0], &m[1], &m[2]));
  for (PetscInt k = s[2]; k < s[2] + m[2]; k++)
    for (PetscInt j = s[1]; j < s[1] + m[1]; j++)
      for (PetscInt i = s[0]; i < s[0] + m[0]; i++) {
        MatStencil  row = {.k = k, .j = j, .i = i}, col[7];
        PetscScalar v[7];
        PetscInt    nc = 0;
        col[nc]        = row;
        v[nc++]        = 6.0 + 0.01 * (i + j + k);
        if (i > 0) {
          col[nc]   = row;
          col[nc].i = i - 1;
          v[nc++]   = -0.7;
        }
        if (i < n[0] - 1) {
          col[nc]   = row;
          col[nc].i = i + 1;
          v[nc++]   = -1.3;
        }
        if (j > 0) {
          col[nc]   = row;
          col[nc].j = j - 1;
          v[nc++]   = -1.1;
        }
        if (j < n[1] - 1) {
          col[nc]   = row;
          col[nc].j = j + 1;
          v[nc++]   = -0.9;
        }
        if (k > 0) {
          col[nc]   = row;
          col[nc].k = k - 1;
          v[nc++]   = -1.0;
        }
        if (k < n[2] - 1) {
          col[nc]   = row;
          col[nc].k = k + 1;
          v[nc++]   = -1.0;
        }
        PetscCall(MatSetValuesStencil(A, 1, &row, nc, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecDuplicate(x, &y1));
  PetscCall(VecDuplicate(x, &y2));
  PetscCall(VecDuplicate(x, &y3));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 11));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(y, rnd));
  for (size_t sh = 0; sh < sizeof(shapes) / sizeof(shapes[0]); sh++) {
    const PetscInt *t = shapes[sh];
    for (int trans = 0; trans < 2; trans++) {
      PetscCall(ApplyTiledReference(A, t, (PetscBool)trans, x, y1));
      PetscCall(ApplyTileILU(A, A, t[0], t[1], t[2], PC_TILEILU_LAYOUT_XYZ, (PetscBool)trans, x, y2, NULL, NULL));
      PetscCall(ApplyTileILU(A, A, t[0], t[1], t[2], PC_TILEILU_LAYOUT_ZYX, (PetscBool)trans, x, y3, NULL, NULL));
      rel     = TestRelDiffNorm(y2, y1, NORM_INFINITY);
      rel2    = TestRelDiffNorm(y3, y2, NORM_INFINITY);
      unfused = PETSC_TRUE;
      PetscCall(ApplyTileILU(A, A, t[0], t[1], t[2], PC_TILEILU_LAYOUT_ZYX, (PetscBool)trans, x, y3, NULL, NULL));
      unfused = PETSC_FALSE;
      rel2    = PetscMax(rel2, TestRelDiffNorm(y3, y2, NORM_INFINITY));
      PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-12 && rel2 <= 1e-14),
                         "nonsymmetric, tiles %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT ", M^%s: xyz = tiled bjacobi+ilu(0) rel diff %.2e (<= 1e-12), zyx (fused and not) = xyz rel diff %.2e (<= 1e-14)", t[0], t[1], t[2],
                         trans ? "-T" : "-1", (double)rel, (double)rel2));
    }
    /* y' M^-1 x = (M^-T y)' x */
    PetscCall(ApplyTileILU(A, A, t[0], t[1], t[2], PC_TILEILU_LAYOUT_ZYX, PETSC_FALSE, x, y1, NULL, NULL));
    PetscCall(ApplyTileILU(A, A, t[0], t[1], t[2], PC_TILEILU_LAYOUT_ZYX, PETSC_TRUE, y, y2, NULL, NULL));
    PetscCall(VecDot(y1, y, &d1));
    PetscCall(VecDot(y2, x, &d2));
    rel = PetscAbsScalar(d1 - d2) / PetscAbsScalar(d1);
    PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-13), "nonsymmetric, tiles %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT ": y'M^-1 x = (M^-T y)'x, rel diff %.2e", t[0], t[1], t[2], (double)rel));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscCall(VecDestroy(&y3));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt n[3] = {13, 11, 9}, nn = 3;
  MPI_Comm comm;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-n", n, &nn, NULL));
  /* all-Neumann (singular), all-Dirichlet on a stretched z, mixed, vertex-centred with a
     shift, and a periodic channel (tiles only: PETSc keeps wrap couplings in its blocks) */
  PetscCall(CheckGrid(comm, "NNNNNN", PPE_LOCATION_CELL, PETSC_FALSE, 0.0, n, PETSC_TRUE));
  PetscCall(CheckGrid(comm, "DDDDDD", PPE_LOCATION_CELL, PETSC_TRUE, 0.0, n, PETSC_TRUE));
  PetscCall(CheckGrid(comm, "DNNDND", PPE_LOCATION_VERTEX, PETSC_FALSE, 0.5, n, PETSC_FALSE));
  PetscCall(CheckGrid(comm, "PPPPNN", PPE_LOCATION_CELL, PETSC_TRUE, 0.0, n, PETSC_FALSE));
  PetscCall(CheckNonsymmetric(comm, (const PetscInt[]){16, 8, 6})); /* 2x2x3 tiles divide the box on 1 rank */
  PetscCall(PetscFinalize());
  return 0;
}
