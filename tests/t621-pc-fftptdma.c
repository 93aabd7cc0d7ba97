static const char help[] = "PC fftptdma: (1) the separable description from the grid reproduces the\n\
MATPPESTENCIL operator (assembled from the description vs MatMult, random vectors); (2) a\n\
hand-built description with identity-row Dirichlet nodes outside the box and a random row\n\
scale solves its assembled matrix exactly; (3) preonly accuracy over BC pairs, locations,\n\
z BC, z stretching, sizes and process grids, and ptdma = transpose = auto.\n\
Options: -stride s (every s-th case of the matrix, default 1), -big n (cases at 96x64x48).\n";

#include <ppekit/private/fftptdmaimpl.h>
#include <ppekit/private/gridimpl.h>
#include "tap.h"

/* Entries of row i of the unit K (separableimpl.h): diagonal, lower and upper coupling
   (as positive numbers, the entries are -lo and -up); wrap for periodic. */
static void KRow(PPELocation loc, PPEBCType blo, PPEBCType bhi, PetscInt n, PetscInt i, PetscReal *d, PetscReal *lo, PetscReal *up)
{
  PetscBool cell = (PetscBool)(loc == PPE_LOCATION_CELL);

  *d  = 2;
  *lo = 1;
  *up = 1;
  if (blo == PPE_BC_PERIODIC) return;
  if (i == 0) {
    *lo = 0;
    if (blo == PPE_BC_NEUMANN) {
      *d  = cell ? 1 : 2;
      *up = cell ? 1 : 2;
    } else *d = cell ? 3 : 2;
  }
  if (i == n - 1) {
    *up = 0;
    if (bhi == PPE_BC_NEUMANN) {
      *d  = (n == 1) ? *d : (cell ? 1 : 2);
      *lo = cell ? 1 : 2;
    } else *d = (i == 0) ? *d : (cell ? 3 : 2);
  }
}

/* Assemble the operator a description stands for on its DMDA: box rows diag(rowscale)
   (sigma + Lx + Ly + Lz) plus a coupling -rowscale*cx (-cy, -zlo/zhi-like 1) to identity-row
   neighbours outside the box; identity rows idiag outside. */
static PetscErrorCode AssembleFromSep(const PPESeparable *s, DM da, Mat *A)
{
  PetscInt           xs, ys, zs, xm, ym, zm;
  const PetscScalar *rs = NULL, *id = NULL;
  Vec                rsl = NULL;

  PetscFunctionBegin;
  PetscCall(DMSetMatType(da, MATAIJ));
  PetscCall(DMCreateMatrix(da, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  if (s->rowscale) PetscCall(VecGetArrayRead(s->rowscale, &rs));
  if (s->idiag) PetscCall(VecGetArrayRead(s->idiag, &id));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        PetscInt    p = (i - xs) + xm * ((j - ys) + ym * (k - zs)), g[3] = {i, j, k}, b[3], nc = 0;
        MatStencil  row = {.i = i, .j = j, .k = k}, col[7];
        PetscScalar v[7], r = rs ? rs[p] : 1.0, diag;
        PetscBool   in = PETSC_TRUE;

        for (int d = 0; d < 3; d++) {
          b[d] = g[d] - s->lo[d];
          if (b[d] < 0 || b[d] >= s->n[d]) in = PETSC_FALSE;
        }
        if (!in) {
          PetscCall(MatSetValuesStencil(*A, 1, &row, 1, &row, &id[p], ADD_VALUES));
          continue;
        }
        diag = s->sigma;
        for (int d = 0; d < 3; d++) {
          PetscReal kd, klo, kup;
          PetscInt  n = s->n[d];
          if (d < 2) {
            KRow(s->loc[d], s->bc[2 * d], s->bc[2 * d + 1], n, b[d], &kd, &klo, &kup);
            kd *= s->c[d];
            klo *= s->c[d];
            kup *= s->c[d];
          } else {
            kd  = s->zdi[b[2]];
            klo = s->zlo[b[2]];
            kup = s->zhi[b[2]];
          }
          diag += kd;
          for (int side = 0; side < 2; side++) {
            PetscReal cpl = side ? kup : klo;
            PetscInt  nb  = b[d] + (side ? 1 : -1), gn;
            if (cpl == 0) {
              /* a boundary of the box next to an identity-row node: an arbitrary coupling */
              gn = g[d] + (side ? 1 : -1);
              if (s->idiag && gn >= 0 && gn < s->M[d] && (nb < 0 || nb >= n)) cpl = (d < 2 ? s->c[d] : 1.0);
              else continue;
            } else gn = s->lo[d] + nb; /* -1 or n: the periodic DMDA wraps it */
            col[nc] = row;
            if (d == 0) col[nc].i = gn;
            if (d == 1) col[nc].j = gn;
            if (d == 2) col[nc].k = gn;
            v[nc++] = -r * cpl;
          }
        }
        col[nc] = row;
        v[nc++] = r * diag;
        PetscCall(MatSetValuesStencil(*A, 1, &row, nc, col, v, ADD_VALUES));
      }
  if (s->rowscale) PetscCall(VecRestoreArrayRead(s->rowscale, &rs));
  if (s->idiag) PetscCall(VecRestoreArrayRead(s->idiag, &id));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  (void)rsl;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MakeGrid(MPI_Comm comm, const PetscInt N[3], PPELocation loc, const PPEBCType bc[6], PetscBool stretch, PetscReal shift, const PetscInt procs[3], PPEGrid *grid)
{
  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, grid));
  PetscCall(PPEGridSetSizes(*grid, N[0], N[1], N[2]));
  PetscCall(PPEGridSetLengths(*grid, 1.0, 1.3, 0.9));
  PetscCall(PPEGridSetBCs(*grid, bc));
  PetscCall(PPEGridSetLocation(*grid, loc));
  if (stretch) PetscCall(PPEGridSetZStretch(*grid, PPE_STRETCH_TANH, 1.7));
  PetscCall(PPEGridSetShift(*grid, shift));
  if (procs) PetscCall(PPEGridSetProcesses(*grid, procs[0], procs[1], procs[2]));
  PetscCall(PPEGridSetUp(*grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RelResidual(Mat A, Vec b, Vec x, PetscReal *rel)
{
  Vec       r;
  PetscReal nr, nb;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &r));
  PetscCall(MatMult(A, x, r));
  PetscCall(VecAYPX(r, -1.0, b));
  PetscCall(VecNorm(r, NORM_2, &nr));
  PetscCall(VecNorm(b, NORM_2, &nb));
  *rel = nr / nb;
  PetscCall(VecDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (1) description vs operator on a few grids */
static PetscErrorCode CheckDescription(MPI_Comm comm)
{
  const PPEBCType bcs[3][6] = {
    {PPE_BC_PERIODIC,  PPE_BC_PERIODIC,  PPE_BC_NEUMANN,  PPE_BC_DIRICHLET, PPE_BC_NEUMANN,   PPE_BC_NEUMANN },
    {PPE_BC_DIRICHLET, PPE_BC_NEUMANN,   PPE_BC_NEUMANN,  PPE_BC_NEUMANN,   PPE_BC_DIRICHLET, PPE_BC_NEUMANN },
    {PPE_BC_NEUMANN,   PPE_BC_DIRICHLET, PPE_BC_PERIODIC, PPE_BC_PERIODIC,  PPE_BC_PERIODIC,  PPE_BC_PERIODIC}
  };
  const PetscInt N[3]  = {9, 8, 7};
  PetscReal      worst = 0;

  PetscFunctionBegin;
  for (int c = 0; c < 12; c++) {
    PPEGrid       grid;
    PPESeparable *sep;
    Mat           A, B;
    Vec           x, y1, y2;
    PetscRandom   rnd;
    PetscReal     e, ny;
    DM            da;

    PetscCall(MakeGrid(comm, N, (PPELocation)(c % 2), bcs[(c / 2) % 3], (PetscBool)(c / 6), (c % 3) ? 0.0 : 2.5, NULL, &grid));
    PetscCall(PPESeparableCreateFromGrid(grid, &sep));
    PetscCall(PPEGridGetDM(grid, &da));
    PetscCall(PPEStencilCreate(grid, &A));
    PetscCall(AssembleFromSep(sep, da, &B));
    PetscCall(MatCreateVecs(A, &x, &y1));
    PetscCall(VecDuplicate(y1, &y2));
    PetscCall(PetscRandomCreate(comm, &rnd));
    PetscCall(VecSetRandom(x, rnd));
    PetscCall(MatMult(A, x, y1));
    PetscCall(MatMult(B, x, y2));
    PetscCall(VecAXPY(y2, -1.0, y1));
    PetscCall(VecNorm(y2, NORM_INFINITY, &e));
    PetscCall(VecNorm(y1, NORM_INFINITY, &ny));
    worst = PetscMax(worst, e / ny);
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y1));
    PetscCall(VecDestroy(&y2));
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&B));
    PetscCall(PPESeparableDestroy(&sep));
    PetscCall(PPEGridDestroy(&grid));
  }
  PetscCall(TapCheck(comm, (PetscBool)(worst < 1e-14), "description from the grid = MATPPESTENCIL operator on random vectors (12 grids: both locations, periodic/Neumann/Dirichlet, stretched z, shift): max rel diff %.2e", (double)worst));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (2) hand-built descriptions: random row scale, and a box with identity rows outside */
static PetscErrorCode CheckBoxAndRowScale(MPI_Comm comm)
{
  const PPEBCType bc[6] = {PPE_BC_DIRICHLET, PPE_BC_DIRICHLET, PPE_BC_PERIODIC, PPE_BC_PERIODIC, PPE_BC_NEUMANN, PPE_BC_DIRICHLET};
  const PPEBCType bp[6] = {PPE_BC_DIRICHLET, PPE_BC_DIRICHLET, PPE_BC_NEUMANN, PPE_BC_NEUMANN, PPE_BC_NEUMANN, PPE_BC_DIRICHLET};
  const PetscInt  N[3]  = {10, 9, 12};

  PetscFunctionBegin;
  for (int c = 0; c < 2; c++) {
    PPEGrid       grid;
    PPESeparable *sep, hand;
    Mat           A;
    DM            da, big = NULL;
    Vec           b, x, r;
    PetscRandom   rnd;
    PPEFFTPTDMA   f;
    PetscReal     rel;

    PetscCall(MakeGrid(comm, N, PPE_LOCATION_VERTEX, c ? bp : bc, PETSC_TRUE, 0.0, NULL, &grid));
    PetscCall(PPESeparableCreateFromGrid(grid, &sep));
    PetscCall(PPEGridGetDM(grid, &da));
    PetscCall(PetscRandomCreate(comm, &rnd));
    PetscCall(PetscRandomSetInterval(rnd, 0.5, 2.0));
    hand = *sep;
    if (c == 0) {
      /* row scale: the grid's W times a random diagonal; matrix = diag(r) * assembled operator */
      Mat Ag;
      PetscCall(DMCreateGlobalVector(da, &r));
      PetscCall(VecSetRandom(r, rnd));
      PetscCall(PPEStencilCreateAssembled(grid, MATAIJ, &Ag));
      PetscCall(MatDuplicate(Ag, MAT_COPY_VALUES, &A));
      PetscCall(MatDiagonalScale(A, r, NULL));
      PetscCall(VecDuplicate(r, &hand.rowscale));
      if (sep->rowscale) PetscCall(VecPointwiseMult(hand.rowscale, r, sep->rowscale));
      else PetscCall(VecCopy(r, hand.rowscale));
      PetscCall(MatDestroy(&Ag));
      PetscCall(VecDestroy(&r));
    } else {
      /* box: one identity-row node layer at both x ends and at the lower y end, of a DMDA of
         (nx+2) x (ny+1) x nz; random row scale inside, random identity diagonal outside */
      PetscInt     xs, ys, zs, xm, ym, zm;
      PetscScalar *rs, *id;

      PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, N[0] + 2, N[1] + 1, N[2], PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &big));
      PetscCall(DMSetUp(big));
      hand.M[0]     = N[0] + 2;
      hand.M[1]     = N[1] + 1;
      hand.lo[0]    = 1;
      hand.lo[1]    = 1;
      hand.bc[2]    = PPE_BC_DIRICHLET; /* the box's lower y end is next to identity rows */
      hand.singular = PETSC_FALSE;
      hand.source   = PPE_SEPARABLE_INFERRED;
      PetscCall(DMCreateGlobalVector(big, &hand.rowscale));
      PetscCall(DMCreateGlobalVector(big, &hand.idiag));
      PetscCall(VecSetRandom(hand.rowscale, rnd));
      PetscCall(VecSetRandom(hand.idiag, rnd));
      PetscCall(DMDAGetCorners(big, &xs, &ys, &zs, &xm, &ym, &zm));
      PetscCall(VecGetArray(hand.rowscale, &rs));
      PetscCall(VecGetArray(hand.idiag, &id));
      for (PetscInt k = 0; k < zm; k++)
        for (PetscInt j = 0; j < ym; j++)
          for (PetscInt i = 0; i < xm; i++) {
            PetscInt  p = i + xm * (j + ym * k), gi = xs + i, gj = ys + j;
            PetscBool in = (PetscBool)(gi >= 1 && gi <= N[0] && gj >= 1);
            if (in) id[p] = 0.0;
            else rs[p] = 1.0;
          }
      PetscCall(VecRestoreArray(hand.rowscale, &rs));
      PetscCall(VecRestoreArray(hand.idiag, &id));
      PetscCall(AssembleFromSep(&hand, big, &A));
      da = big;
    }
    PetscCall(MatCreateVecs(A, &x, &b));
    PetscCall(VecSetRandom(b, rnd));
    PetscCall(PetscMemzero(&f, sizeof(f)));
    PetscCall(PPEFFTPTDMASetUp(&f, comm, da, &hand, NULL, PPE_FFT_ZSOLVE_AUTO, PPE_FFT_PLANNER_ESTIMATE, PETSC_TRUE, PPE_FFT_DCT_AUTO, NULL));
    PetscCall(PPEFFTPTDMAApply(&f, &hand, A, b, x));
    PetscCall(RelResidual(A, b, x, &rel));
    PetscCall(TapCheck(comm, (PetscBool)(rel < 1e-12), "%s: relative residual %.2e",
                       c ? "box with identity rows outside (x both ends, y lower end), random row scale and identity diagonal, assembled" : "random row scale (diag(r) * assembled grid operator)", (double)rel));
    PetscCall(PPEFFTPTDMAReset(&f));
    PetscCall(VecDestroy(&hand.rowscale));
    PetscCall(VecDestroy(&hand.idiag));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&x));
    PetscCall(MatDestroy(&A));
    PetscCall(DMDestroy(&big));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(PPESeparableDestroy(&sep));
    PetscCall(PPEGridDestroy(&grid));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (2b) a new set-up with other operator values on the same DMDA keeps the pencils and the
   plans and solves the new operator (shift and z coefficients changed) */
static PetscErrorCode CheckReuse(MPI_Comm comm)
{
  const PPEBCType bc[6] = {PPE_BC_NEUMANN, PPE_BC_DIRICHLET, PPE_BC_PERIODIC, PPE_BC_PERIODIC, PPE_BC_NEUMANN, PPE_BC_NEUMANN};
  const PetscInt  N[3]  = {12, 10, 16};
  PPEGrid         grid;
  PPESeparable   *sep;
  PPEFFTPTDMA     f;
  DM              da;
  fftw_plan       p0;
  PetscReal       rel[2];

  PetscFunctionBegin;
  PetscCall(MakeGrid(comm, N, PPE_LOCATION_CELL, bc, PETSC_TRUE, 0.0, NULL, &grid));
  PetscCall(PPESeparableCreateFromGrid(grid, &sep));
  PetscCall(PPEGridGetDM(grid, &da));
  PetscCall(PetscMemzero(&f, sizeof(f)));
  for (int pass = 0; pass < 2; pass++) {
    Mat         A;
    Vec         b, x;
    PetscRandom rnd;

    if (pass) {
      sep->sigma = 3.0;
      for (PetscInt k = 0; k < N[2]; k++) {
        sep->zlo[k] *= 1.5;
        sep->zhi[k] *= 1.5;
        sep->zdi[k] *= 1.5;
      }
    }
    PetscCall(PPEFFTPTDMASetUp(&f, comm, da, sep, NULL, PPE_FFT_ZSOLVE_PTDMA, PPE_FFT_PLANNER_ESTIMATE, PETSC_TRUE, PPE_FFT_DCT_AUTO, NULL));
    if (!pass) p0 = f.fx[0].p[0];
    PetscCall(AssembleFromSep(sep, da, &A));
    PetscCall(MatCreateVecs(A, &x, &b));
    PetscCall(PetscRandomCreate(comm, &rnd));
    PetscCall(VecSetRandom(b, rnd));
    PetscCall(PPEFFTPTDMAApply(&f, sep, A, b, x));
    PetscCall(RelResidual(A, b, x, &rel[pass]));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&x));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(TapCheck(comm, (PetscBool)(f.relayouts == 1 && f.fx[0].p[0] == p0 && rel[0] < 1e-12 && rel[1] < 1e-12),
                     "new set-up with another shift and z operator keeps pencils and plans (relayouts %" PetscInt_FMT ", want 1; first x plan kept: %s, want yes), residuals %.2e and %.2e (< 1e-12)", f.relayouts, f.fx[0].p[0] == p0 ? "yes" : "no",
                     (double)rel[0], (double)rel[1]));
  PetscCall(PPEFFTPTDMAReset(&f));
  PetscCall(PPESeparableDestroy(&sep));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (2c) the copy-free path (x transforms on the Vec arrays, z-only row scale folded into the z
   systems, mean removed on the (0,0) z line) against the path with the copies, taken when the
   Vec arrays are not aligned like the planned ones: the same solution, on the channel's BCs
   (cell, spectral mean) and vertex Neumann (mean removed in the copy back) */
static PetscErrorCode CheckCopyFree(MPI_Comm comm)
{
  /* cases: cell PNN (singular, spectral mean), cell PPD (not singular), vertex NNN (singular;
     the row scale varies in x and y, the mean is removed in the copy back) */
  const PPEBCType bcs[3][6] = {
    {PPE_BC_PERIODIC, PPE_BC_PERIODIC, PPE_BC_NEUMANN,  PPE_BC_NEUMANN,  PPE_BC_NEUMANN,   PPE_BC_NEUMANN  },
    {PPE_BC_PERIODIC, PPE_BC_PERIODIC, PPE_BC_PERIODIC, PPE_BC_PERIODIC, PPE_BC_DIRICHLET, PPE_BC_DIRICHLET},
    {PPE_BC_NEUMANN,  PPE_BC_NEUMANN,  PPE_BC_NEUMANN,  PPE_BC_NEUMANN,  PPE_BC_NEUMANN,   PPE_BC_NEUMANN  }
  };
  const PPELocation locs[3] = {PPE_LOCATION_CELL, PPE_LOCATION_CELL, PPE_LOCATION_VERTEX};
  const PetscInt    want[3] = {2, 2, 0}; /* direct x transforms per solve with aligned arrays */
  const PetscInt    N[3] = {16, 12, 16}, procs[3] = {1, 1, PETSC_DECIDE};
  PetscReal         worst = 0, rel = 0, pinv = 1;
  PetscInt          ndirect[3][2];
  PetscBool         ok = PETSC_TRUE;

  PetscFunctionBegin;
  for (int c = 0; c < 3; c++) {
    PPEGrid       grid;
    PPESeparable *sep;
    PPEFFTPTDMA   f;
    DM            da;
    Mat           A;
    Vec           b, x, bs, xs, nul;
    PetscScalar  *store, *ba;
    PetscInt      n;
    PetscRandom   rnd;
    PetscReal     nx, d, r;
    PetscScalar   mean;

    PetscCall(MakeGrid(comm, N, locs[c], bcs[c], PETSC_TRUE, 0.0, procs, &grid));
    PetscCall(PPESeparableCreateFromGrid(grid, &sep));
    PetscCall(PPEGridGetDM(grid, &da));
    PetscCall(PetscMemzero(&f, sizeof(f)));
    PetscCall(PPEFFTPTDMASetUp(&f, comm, da, sep, NULL, PPE_FFT_ZSOLVE_PTDMA, PPE_FFT_PLANNER_ESTIMATE, PETSC_TRUE, PPE_FFT_DCT_AUTO, NULL));
    ok = (PetscBool)(ok && (c < 2 ? f.wz && !f.rinv : !f.wz && f.rinv)); /* folded where it depends on z only */
    PetscCall(AssembleFromSep(sep, da, &A));
    PetscCall(MatCreateVecs(A, &x, &b));
    PetscCall(PetscRandomCreate(comm, &rnd));
    PetscCall(VecSetRandom(b, rnd));
    PetscCall(VecDuplicate(b, &nul)); /* consistent right-hand side: orthogonal to the constant */
    PetscCall(VecSet(nul, 1.0));
    PetscCall(VecDot(b, nul, &mean));
    PetscCall(VecGetSize(b, &n));
    if (c != 1) PetscCall(VecAXPY(b, -mean / n, nul));
    PetscCall(VecGetLocalSize(b, &n));
    PetscCall(PPEFFTPTDMAApply(&f, sep, A, b, x)); /* aligned Vec arrays: the direct path where it applies */
    ndirect[c][0] = f.direct[0] + f.direct[1];
    ok            = (PetscBool)(ok && f.specproj == (c == 0)); /* b's mean removed spectrally where the operator is symmetric and singular */
    if (c == 0) {                                              /* an inconsistent b = b + 3: the same zero-mean result (A^+ b) */
      Vec y;
      PetscCall(VecDuplicate(b, &y));
      PetscCall(VecAXPY(b, 3.0, nul));
      PetscCall(PPEFFTPTDMAApply(&f, sep, A, b, y));
      PetscCall(VecAXPY(b, -3.0, nul));
      PetscCall(VecDot(y, nul, &mean));
      PetscCall(VecAXPY(y, -1.0, x));
      PetscCall(VecNorm(y, NORM_2, &d));
      PetscCall(VecNorm(x, NORM_2, &nx));
      pinv = PetscMax(d / nx, PetscAbsScalar(mean) / nx);
      PetscCall(VecDestroy(&y));
    }
    /* the same vectors on arrays one scalar off the alignment: the path with the copies */
    PetscCall(PetscMalloc1(2 * n + 3, &store));
    PetscCall(VecCreateMPIWithArray(comm, 1, n, PETSC_DECIDE, NULL, &bs));
    PetscCall(VecCreateMPIWithArray(comm, 1, n, PETSC_DECIDE, NULL, &xs));
    PetscCall(VecPlaceArray(bs, store + 1));
    PetscCall(VecPlaceArray(xs, store + n + 1 + (n % 2))); /* odd offsets: 8 bytes off a 16-byte alignment */
    PetscCall(VecGetArray(b, &ba));
    PetscCall(PetscArraycpy(store + 1, ba, n));
    PetscCall(VecRestoreArray(b, &ba));
    ndirect[c][1] = f.direct[0] + f.direct[1];
    PetscCall(PPEFFTPTDMAApply(&f, sep, A, bs, xs));
    ndirect[c][1] = f.direct[0] + f.direct[1] - ndirect[c][1];
    PetscCall(VecAXPY(xs, -1.0, x));
    PetscCall(VecNorm(xs, NORM_2, &d));
    PetscCall(VecNorm(x, NORM_2, &nx));
    worst = PetscMax(worst, d / nx);
    PetscCall(RelResidual(A, b, x, &r));
    rel = PetscMax(rel, r);
    ok  = (PetscBool)(ok && ndirect[c][0] == want[c] && ndirect[c][1] == 0);
    PetscCall(VecResetArray(bs));
    PetscCall(VecResetArray(xs));
    PetscCall(VecDestroy(&bs));
    PetscCall(VecDestroy(&xs));
    PetscCall(PetscFree(store));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(VecDestroy(&nul));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&x));
    PetscCall(MatDestroy(&A));
    PetscCall(PPEFFTPTDMAReset(&f));
    PetscCall(PPESeparableDestroy(&sep));
    PetscCall(PPEGridDestroy(&grid));
  }
  PetscCall(TapCheck(comm, (PetscBool)(pinv < 1e-12), "singular channel BCs: b + 3 gives the same zero-mean solution as b (the PC applies A^+): difference %.2e (<= 1e-12)", (double)pinv));
  PetscCall(TapCheck(comm, (PetscBool)(ok && worst < 1e-13 && rel < 1e-12),
                     "copy-free path (x transforms on the Vec arrays: %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT " per solve for cell PNN, cell PPD, vertex NNN, want %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT
                     "; z-only row scale folded in the cell cases) = path with copies (misaligned arrays, %" PetscInt_FMT " direct, want 0) to %.2e (< 1e-13); worst residual %.2e (< 1e-12)",
                     ndirect[0][0], ndirect[1][0], ndirect[2][0], want[0], want[1], want[2], ndirect[0][1] + ndirect[1][1] + ndirect[2][1], (double)worst, (double)rel));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (2d) explicit DistD2 where it is exact: a strongly shifted Helmholtz operator (as in an
   implicit viscous step with a small time step), 8 z points per rank, pencil grid 1 x ranks:
   DistD2 (which refuses any line where it would not be exact) = P-TDMA = transpose */
static PetscErrorCode CheckDistD2(MPI_Comm comm)
{
  const PPEBCType  bc[6] = {PPE_BC_PERIODIC, PPE_BC_PERIODIC, PPE_BC_NEUMANN, PPE_BC_NEUMANN, PPE_BC_DIRICHLET, PPE_BC_DIRICHLET};
  PCFFTPTDMAZSolve zs[3] = {PC_FFTPTDMA_ZSOLVE_DISTD2, PC_FFTPTDMA_ZSOLVE_PTDMA, PC_FFTPTDMA_ZSOLVE_TRANSPOSE};
  PetscMPIInt      size;
  PetscInt         N[3], procs[3];
  PPEGrid          grid;
  Mat              A;
  Vec              b, x[3];
  PetscRandom      rnd;
  PetscReal        res = 0, diff = 0, sigma;
  PetscErrorCode   code[3];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  N[0]     = 16;
  N[1]     = 12;
  N[2]     = 8 * size;
  procs[0] = procs[1] = 1;
  procs[2]            = size;
  sigma               = 1e7 * size * size; /* about 2e4 / hz^2: every z line dominant enough for DistD2 */
  PetscCall(MakeGrid(comm, N, PPE_LOCATION_CELL, bc, PETSC_FALSE, sigma, procs, &grid));
  PetscCall(PPEStencilCreate(grid, &A));
  PetscCall(MatCreateVecs(A, &x[0], &b));
  PetscCall(VecDuplicate(x[0], &x[1]));
  PetscCall(VecDuplicate(x[0], &x[2]));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(VecSetRandom(b, rnd));
  for (int m = 0; m < 3; m++) {
    KSP       ksp;
    PC        pc;
    PetscReal r, d, nx;

    PetscCall(KSPCreate(comm, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCFFTPTDMA));
    PetscCall(PCFFTPTDMASetZSolve(pc, zs[m]));
    PetscCall(PCFFTPTDMASetPencilGrid(pc, 1, size));
    PetscCall(PCFFTPTDMASetPlanner(pc, PC_FFTPTDMA_PLANNER_ESTIMATE));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    code[m] = KSPSolve(ksp, b, x[m]);
    PetscCall(PetscPopErrorHandler());
    if (!code[m]) {
      PetscCall(RelResidual(A, b, x[m], &r));
      res = PetscMax(res, r);
      if (m) {
        PetscCall(VecAXPY(x[m], -1.0, x[0]));
        PetscCall(VecNorm(x[m], NORM_2, &d));
        PetscCall(VecNorm(x[0], NORM_2, &nx));
        diff = PetscMax(diff, d / nx);
      }
    }
    PetscCall(KSPDestroy(&ksp));
  }
  PetscCall(TapCheck(comm, (PetscBool)(!code[0] && !code[1] && !code[2] && res < 1e-12 && diff < 1e-12),
                     "zsolve distd2 on a shifted operator (sigma %.0e, 8 z points per rank, pencil grid 1 x %d): accepted (codes %d %d %d, want 0 0 0), residual %.2e (< 1e-12), = ptdma and transpose to %.2e (<= 1e-12)", (double)sigma, (int)size,
                     (int)code[0], (int)code[1], (int)code[2], (double)res, (double)diff));
  for (int m = 0; m < 3; m++) PetscCall(VecDestroy(&x[m]));
  PetscCall(VecDestroy(&b));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether a direction's transform pair is one the fast DCT/DST kinds replace (II/III) */
static PetscBool FastPair(PPELocation loc, PPEBCType lo, PPEBCType hi, PetscInt n)
{
  PPEFFT1dKind k;
  PetscBool    f = PETSC_FALSE, b = PETSC_FALSE;

  if (PPEFFT1dGetKind(loc, lo, hi, n, &k)) return PETSC_FALSE;
  for (int i = 0; i < 4; i++) {
    fftw_r2r_kind ok = (fftw_r2r_kind[]){FFTW_REDFT10, FFTW_REDFT01, FFTW_RODFT10, FFTW_RODFT01}[i];
    f                = (PetscBool)(f || k.fwd == ok);
    b                = (PetscBool)(b || k.bwd == ok);
  }
  return (PetscBool)(f && b);
}

/* (3) one accuracy case: preonly with ptdma, transpose and auto; with a periodic x or y also
   ptdma with the halfcomplex R2HC/HC2R kinds instead of r2c/c2r (*r2cdiff: relative
   difference to r2c, -1 when no direction is periodic) */
static PetscErrorCode SolveCase(MPI_Comm comm, const PetscInt N[3], PPELocation loc, const PPEBCType bc[6], PetscBool stretch, const PetscInt procs[3], PetscReal *res, PetscReal *diff, PetscReal *r2cdiff, PetscReal *dctdiff, PetscInt pg[2])
{
  PPEGrid          grid;
  Mat              A;
  Vec              b, x[5] = {NULL, NULL, NULL, NULL, NULL};
  PetscRandom      rnd;
  PetscBool        sing, per = (PetscBool)(bc[0] == PPE_BC_PERIODIC || bc[2] == PPE_BC_PERIODIC);
  PetscBool        dct   = (PetscBool)(FastPair(loc, bc[0], bc[1], N[0]) || FastPair(loc, bc[2], bc[3], N[1]));
  PCFFTPTDMAZSolve zs[5] = {PC_FFTPTDMA_ZSOLVE_PTDMA, PC_FFTPTDMA_ZSOLVE_TRANSPOSE, PC_FFTPTDMA_ZSOLVE_AUTO, PC_FFTPTDMA_ZSOLVE_PTDMA, PC_FFTPTDMA_ZSOLVE_PTDMA};

  PetscFunctionBegin;
  PetscCall(MakeGrid(comm, N, loc, bc, stretch, 0.0, procs, &grid));
  PetscCall(PPEStencilCreate(grid, &A));
  PetscCall(MatCreateVecs(A, &x[0], &b));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(PPEGridIsSingular(grid, &sing));
  if (sing) { /* consistent right-hand side */
    PetscScalar s;
    PetscCall(VecSum(b, &s));
    PetscCall(VecShift(b, -s / (N[0] * N[1] * N[2])));
  }
  *res     = 0;
  *diff    = 0;
  *r2cdiff = -1;
  *dctdiff = dct ? 0 : -1;
  for (int m = 0; m < 5; m++) {
    KSP       ksp;
    PC        pc;
    PetscReal r, d, nx;

    if ((m == 3 && !per) || (m == 4 && !dct)) continue;
    if (m) PetscCall(VecDuplicate(x[0], &x[m]));
    PetscCall(KSPCreate(comm, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCFFTPTDMA));
    PetscCall(PCFFTPTDMASetZSolve(pc, zs[m]));
    PetscCall(PCFFTPTDMASetPlanner(pc, PC_FFTPTDMA_PLANNER_ESTIMATE));
    if (m == 3) PetscCall(PCFFTPTDMASetR2C(pc, PETSC_FALSE));
    if (m == 4) PetscCall(PCFFTPTDMASetDCT(pc, PC_FFTPTDMA_DCT_FFTW)); /* the others: auto, with estimate = the fast kinds */
    PetscCall(KSPSolve(ksp, b, x[m]));
    PetscCall(PCFFTPTDMAGetPencilGrid(pc, &pg[0], &pg[1]));
    PetscCall(RelResidual(A, b, x[m], &r));
    *res = PetscMax(*res, r);
    if (m) {
      PetscCall(VecAXPY(x[m], -1.0, x[0]));
      PetscCall(VecNorm(x[m], NORM_2, &d));
      PetscCall(VecNorm(x[0], NORM_2, &nx));
      if (m < 3) *diff = PetscMax(*diff, d / nx);
      else if (m == 3) *r2cdiff = d / nx;
      else *dctdiff = d / nx;
    }
    PetscCall(KSPDestroy(&ksp));
  }
  for (int m = 0; m < 5; m++) PetscCall(VecDestroy(&x[m]));
  PetscCall(VecDestroy(&b));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Face coefficient of the perturbation: k = 1 + eps sin(2 pi x/Lx) cos(pi z/Lz) sin(2 pi y/Ly) at the
   unknowns (by index), averaged over the two ends of a coupling. */
static PetscReal KCoef(const PetscInt N[3], PetscReal eps, PetscInt i, PetscInt j, PetscInt k)
{
  return 1.0 + eps * PetscSinReal(2 * PETSC_PI * (i + 0.5) / N[0]) * PetscSinReal(2 * PETSC_PI * (j + 0.5) / N[1]) * PetscCosReal(PETSC_PI * (k + 0.5) / N[2]);
}

/* (4) CG on the channel with a variable-coefficient perturbation of the operator
   (-div k grad, assembled from the grid's 1D data with face coefficients (k_p + k_q)/2),
   preconditioned by fftptdma built from the unperturbed grid operator. */
static PetscErrorCode CheckChannelCG(MPI_Comm comm, PetscReal eps, PetscInt bound, PetscInt *its)
{
  PPEGrid            grid;
  Mat                A, P;
  DM                 da;
  Vec                b, x;
  KSP                ksp;
  PC                 pc;
  MatNullSpace       ns;
  PetscInt           xs, ys, zs, xm, ym, zm, N[3];
  KSPConvergedReason reason;
  PetscBool          known;
  PetscReal          rel;

  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, &grid));
  PetscCall(PPEProblemSetGridDefaults(PPE_PROBLEM_CHANNEL, grid));
  PetscCall(PPEGridSetSizes(grid, 32, 24, 32));
  PetscCall(PPEGridSetUp(grid));
  PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
  PetscCall(PPEGridGetDM(grid, &da));
  PetscCall(PPEStencilCreate(grid, &P));
  PetscCall(DMSetMatType(da, MATAIJ));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        const PPEGrid1d *X = &grid->dir[0], *Y = &grid->dir[1], *Z = &grid->dir[2];
        PetscReal        wyz = Y->w[j] * Z->w[k], wxz = X->w[i] * Z->w[k], wxy = X->w[i] * Y->w[j], kp = KCoef(N, eps, i, j, k);
        PetscReal        cf[6]     = {wyz * X->tlo[i], wyz * X->thi[i], wxz * Y->tlo[j], wxz * Y->thi[j], wxy * Z->tlo[k], wxy * Z->thi[k]};
        PetscInt         off[6][3] = {
                  {-1, 0,  0 },
                  {1,  0,  0 },
                  {0,  -1, 0 },
                  {0,  1,  0 },
                  {0,  0,  -1},
                  {0,  0,  1 }
        };
        MatStencil  row = {.i = i, .j = j, .k = k}, col[7];
        PetscScalar v[7];
        PetscInt    nc   = 0;
        PetscReal   diag = kp * (wyz * X->tb[i] + wxz * Y->tb[j] + wxy * Z->tb[k]);

        for (int q = 0; q < 6; q++) {
          PetscInt  ni = i + off[q][0], nj = j + off[q][1], nk = k + off[q][2];
          PetscReal kf;
          if (cf[q] == 0) continue;
          kf        = 0.5 * (kp + KCoef(N, eps, (ni + N[0]) % N[0], (nj + N[1]) % N[1], (nk + N[2]) % N[2]));
          col[nc].i = ni;
          col[nc].j = nj;
          col[nc].k = nk;
          col[nc].c = 0;
          v[nc++]   = -kf * cf[q];
          diag += kf * cf[q];
        }
        col[nc] = row;
        v[nc++] = diag;
        PetscCall(MatSetValuesStencil(A, 1, &row, nc, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatNullSpaceCreate(comm, PETSC_TRUE, 0, NULL, &ns));
  PetscCall(MatSetNullSpace(A, ns));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(PPEProblemComputeRHS(PPE_PROBLEM_CHANNEL, grid, b, NULL, &known));
  PetscCall(MatNullSpaceRemove(ns, b));
  PetscCall(KSPCreate(comm, &ksp));
  PetscCall(KSPSetOperators(ksp, A, P));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 100));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCFFTPTDMA));
  PetscCall(PCFFTPTDMASetPlanner(pc, PC_FFTPTDMA_PLANNER_ESTIMATE));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(RelResidual(A, b, x, &rel));
  PetscCall(TapCheck(comm, (PetscBool)(reason > 0 && rel < 1e-7 && *its <= bound),
                     "CG on the channel 32x24x32 (stretched z) with a variable coefficient 1 + %.2g sin sin cos, fftptdma of the unperturbed operator: %s in %" PetscInt_FMT " iterations (<= %" PetscInt_FMT
                     ") to rtol 1e-8, true residual %.2e (< 1e-7)",
                     (double)eps, KSPConvergedReasons[reason], *its, bound, (double)rel));
  PetscCall(MatNullSpaceDestroy(&ns));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (5) bytes per solve: counted = model for every part, PETSc's counters see them, and the
   z exchange of ptdma is 2 pz/nz of the transpose method's (pencil grid 1 x ranks). */
static PetscErrorCode CheckBytes(MPI_Comm comm)
{
  const PPEBCType  bc[6] = {PPE_BC_PERIODIC, PPE_BC_PERIODIC, PPE_BC_NEUMANN, PPE_BC_NEUMANN, PPE_BC_NEUMANN, PPE_BC_DIRICHLET};
  PetscInt         N[3]  = {16, 12, 32};
  PCFFTPTDMAZSolve zs[2] = {PC_FFTPTDMA_ZSOLVE_PTDMA, PC_FFTPTDMA_ZSOLVE_TRANSPOSE};
  PetscLogDouble   z[2]  = {0, 0};
  PetscMPIInt      size;
  PPEGrid          grid;
  Mat              A;
  Vec              b, x;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(MakeGrid(comm, N, PPE_LOCATION_CELL, bc, PETSC_TRUE, 0.0, NULL, &grid));
  PetscCall(PPEStencilCreate(grid, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  for (int m = 0; m < 2; m++) {
    KSP            ksp;
    PC             pc;
    PetscInt       solves;
    PetscLogDouble cnt[3], mod[3], sum[2], loc[2];
    PPECounters    c0, c1, d;

    PetscCall(KSPCreate(comm, &ksp));
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCFFTPTDMA));
    PetscCall(PCFFTPTDMASetZSolve(pc, zs[m]));
    PetscCall(PCFFTPTDMASetPencilGrid(pc, 1, size));
    PetscCall(PCFFTPTDMASetPlanner(pc, PC_FFTPTDMA_PLANNER_ESTIMATE));
    PetscCall(KSPSetUp(ksp));
    PetscCall(PPECountersGet(&c0));
    PetscCall(PCApply(pc, b, x));
    PetscCall(PCApply(pc, b, x));
    PetscCall(PPECountersGet(&c1));
    PetscCall(PPECountersDiff(&c1, &c0, &d));
    PetscCall(PCFFTPTDMAGetCommCounts(pc, &solves, cnt, mod));
    loc[0] = PetscAbsReal(cnt[0] - 2 * mod[0]) + PetscAbsReal(cnt[1] - 2 * mod[1]) + PetscAbsReal(cnt[2] - 2 * mod[2]);
    loc[1] = mod[2];
    PetscCall(MPIU_Allreduce(loc, sum, 2, MPIU_PETSCLOGDOUBLE, MPI_SUM, comm));
    z[m] = sum[1];
    /* PETSc counts every byte handed to MPI; for ptdma it also counts the block a rank keeps */
    PetscCall(TapCheck(comm, (PetscBool)(solves == 2 && sum[0] == 0 && d.bytes_sent >= cnt[0] + cnt[1] + cnt[2] && (m == 1 ? d.bytes_sent == cnt[0] + cnt[1] + cnt[2] : PETSC_TRUE)),
                       "%s, pencil grid 1 x %d: %" PetscInt_FMT
                       " solves (want 2), counted bytes = model (rank 0: redistribution %g, x-y %g, z %g per solve; all ranks' |counted - model| %g, want 0), PETSc's count %g for 2 solves (want >= counted %g%s)",
                       PCFFTPTDMAZSolves[zs[m]], (int)size, solves, mod[0], mod[1], mod[2], sum[0], d.bytes_sent, cnt[0] + cnt[1] + cnt[2], m == 1 ? ", and equal" : ""));
    PetscCall(KSPDestroy(&ksp));
  }
  PetscCall(TapCheck(comm, (PetscBool)(z[0] > 0 && z[0] <= (2.0 * size / N[2]) * z[1] * (1 + 1e-12)), "z exchange per solve, all ranks: ptdma %g bytes (> 0) <= 2 pz/nz = %g x transpose %g bytes = %g (to 1e-12)", z[0], 2.0 * size / N[2], z[1],
                     (2.0 * size / N[2]) * z[1]));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const PPEBCType pairs[5][2] = {
    {PPE_BC_PERIODIC,  PPE_BC_PERIODIC },
    {PPE_BC_NEUMANN,   PPE_BC_NEUMANN  },
    {PPE_BC_DIRICHLET, PPE_BC_DIRICHLET},
    {PPE_BC_NEUMANN,   PPE_BC_DIRICHLET},
    {PPE_BC_DIRICHLET, PPE_BC_NEUMANN  }
  };
  const PPEBCType zbc[3][2] = {
    {PPE_BC_NEUMANN,   PPE_BC_NEUMANN  },
    {PPE_BC_DIRICHLET, PPE_BC_DIRICHLET},
    {PPE_BC_PERIODIC,  PPE_BC_PERIODIC }
  };
  /* process grids px,py,pz per rank count (at least three, one with pz > 1) */
  const PetscInt grids[8][4][3] = {
    [0] = {{1, 1, 1} },
      [1] = {          {1, 1, 2}, {2, 1, 1}, {1, 2, 1}},
      [3] = {          {1, 2, 2}, {2, 2, 1}, {1, 1, 4}, {2, 1, 2}},
      [7] = { {2, 2, 2},          {1, 2, 4}, {2, 4, 1}}
  };
  const PetscInt ngrids[8] = {1, 3, 0, 4, 0, 0, 0, 3};
  PetscMPIInt    size;
  PetscInt       stride = 1, big = 6, ncase = 0, nrun = 0, c = 0, nbad = 0, nper = 0, nr2c = 0, ndct = 0, ndctrun = 0;
  PetscReal      wres = 0, wdiff = 0, wr2c = 0, wdct = 0;
  PetscInt       seen[4] = {0};
  PetscBool      pzgt1   = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-stride", &stride, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-big", &big, NULL));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size <= 8 && ngrids[size - 1] > 0, PETSC_COMM_WORLD, PETSC_ERR_SUP, "Run on 1, 2, 4 or 8 ranks");
  PetscCall(CheckDescription(PETSC_COMM_WORLD));
  PetscCall(CheckBoxAndRowScale(PETSC_COMM_WORLD));
  PetscCall(CheckReuse(PETSC_COMM_WORLD));
  PetscCall(CheckCopyFree(PETSC_COMM_WORLD));
  if (size > 1) PetscCall(CheckDistD2(PETSC_COMM_WORLD));
  {
    PetscInt its[2];
    PetscCall(CheckChannelCG(PETSC_COMM_WORLD, 0.1, 8, &its[0]));
    PetscCall(CheckChannelCG(PETSC_COMM_WORLD, 0.3, 12, &its[1]));
  }
  if (size > 1) PetscCall(CheckBytes(PETSC_COMM_WORLD));

  /* every BC pair in x and y, N/D/P in z, both locations, uniform and stretched z */
  for (int loc = 0; loc < 2; loc++)
    for (int px = 0; px < 5; px++)
      for (int py = 0; py < 5; py++)
        for (int pz = 0; pz < 3; pz++)
          for (int st = 0; st < 2; st++, ncase++) {
            PetscInt  N[3] = {32, 32, 32}, g = c % ngrids[size - 1], pg[2];
            PPEBCType bc[6] = {pairs[px][0], pairs[px][1], pairs[py][0], pairs[py][1], zbc[pz][0], zbc[pz][1]};
            PetscReal res, diff, r2c, dct;

            if (ncase % stride) continue;
            c++;
            PetscCall(SolveCase(PETSC_COMM_WORLD, N, (PPELocation)loc, bc, (PetscBool)st, grids[size - 1][g], &res, &diff, &r2c, &dct, pg));
            if (dct >= 0) ndctrun++;
            wdct = PetscMax(wdct, dct);
            if (dct > 1e-13) ndct++;
            if (r2c >= 0) {
              nper++;
              wr2c = PetscMax(wr2c, r2c);
              if (r2c > 1e-13) {
                nr2c++;
                PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# r2c vs R2HC: %s %s%s%s%s%s%s %s z: relative difference %.2e\n", PPELocations[loc], PPEBCTypes[bc[0]], PPEBCTypes[bc[1]], PPEBCTypes[bc[2]], PPEBCTypes[bc[3]], PPEBCTypes[bc[4]],
                                      PPEBCTypes[bc[5]], st ? "stretched" : "uniform", (double)r2c));
              }
            }
            seen[g]++;
            if (pg[1] > 1) pzgt1 = PETSC_TRUE;
            nrun++;
            wres  = PetscMax(wres, res);
            wdiff = PetscMax(wdiff, diff);
            if (res > 1e-10 || diff > 1e-12) {
              nbad++;
              PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# failed: %s %s%s%s%s%s%s %s z, grid %" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ": residual %.2e, methods differ by %.2e\n", PPELocations[loc], PPEBCTypes[bc[0]], PPEBCTypes[bc[1]],
                                    PPEBCTypes[bc[2]], PPEBCTypes[bc[3]], PPEBCTypes[bc[4]], PPEBCTypes[bc[5]], st ? "stretched" : "uniform", grids[size - 1][g][0], grids[size - 1][g][1], grids[size - 1][g][2], (double)res, (double)diff));
            }
          }
  PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(ndct == 0 && ndctrun > 0),
                     "32^3, %" PetscInt_FMT " cases with a DCT-II/III or DST-II/III direction (want > 0): the fast kinds and FFTW's give the same solution, worst relative difference %.2e (<= 1e-13; %" PetscInt_FMT " cases above, want 0)", ndctrun,
                     (double)wdct, ndct));
  PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(nr2c == 0 && nper > 0),
                     "32^3, %" PetscInt_FMT " cases with a periodic x or y (want > 0): r2c/c2r and R2HC/HC2R solutions agree, worst relative difference %.2e (<= 1e-13; %" PetscInt_FMT " cases above, want 0)", nper, (double)wr2c, nr2c));
  PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(nbad == 0 && nrun > 0),
                     "32^3, %" PetscInt_FMT " cases (want > 0; BC pairs x and y, z N/D/P, cell/vertex, uniform/stretched z), %" PetscInt_FMT
                     " process grids: worst relative residual %.2e (<= 1e-10), ptdma/transpose/auto differ by %.2e (<= 1e-12); %" PetscInt_FMT " failed cases (want 0)",
                     nrun, ngrids[size - 1], (double)wres, (double)wdiff, nbad));
  wres = wdiff = 0;
  nbad         = 0;
  for (PetscInt i = 0; i < big; i++) {
    /* 96 x 64 x 48: pairs and z BC rotated so that every x pair, y pair and z BC appears */
    PetscInt  N[3] = {96, 64, 48}, g = i % ngrids[size - 1], pg[2];
    int       px = (int)(i % 5), py = (int)((i * 2 + 1) % 5), pz = (int)(i % 3);
    PPEBCType bc[6] = {pairs[px][0], pairs[px][1], pairs[py][0], pairs[py][1], zbc[pz][0], zbc[pz][1]};
    PetscReal res, diff, r2c, dct;

    PetscCall(SolveCase(PETSC_COMM_WORLD, N, (PPELocation)(i % 2), bc, (PetscBool)((i / 2) % 2), grids[size - 1][g], &res, &diff, &r2c, &dct, pg));
    if (r2c > 1e-13 || dct > 1e-13) nbad++;
    if (pg[1] > 1) pzgt1 = PETSC_TRUE;
    wres  = PetscMax(wres, res);
    wdiff = PetscMax(wdiff, diff);
    if (res > 1e-10 || diff > 1e-12) nbad++;
  }
  if (big) PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(nbad == 0), "96x64x48, %" PetscInt_FMT " cases: worst relative residual %.2e, methods differ by %.2e, r2c = R2HC and fast DCT = FFTW's to 1e-13", big, (double)wres, (double)wdiff));
  if (size > 1) PetscCall(TapCheck(PETSC_COMM_WORLD, pzgt1, "a pencil grid with pz > 1 was used"));
  (void)seen;
  PetscCall(PetscFinalize());
  return tap_failures ? 1 : 0;
}
