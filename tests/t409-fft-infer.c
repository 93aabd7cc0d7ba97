static const char help[] = "Operator inference for PC fftptdma (PPESeparableInferFromMat): for PPEKit grids of\n\
every BC pair in x, y and z, both locations, uniform and stretched z, with and without a shift,\n\
assembled as AIJ and scaled by a random positive row scaling or a constant, the inferred\n\
description reproduces MatMult to 1e-12 and has the grid's BCs, locations and singularity;\n\
PETSc-tutorial matrices (identity Dirichlet rows, a periodic channel with identity z walls,\n\
reduced-diagonal Neumann, box stencil, SBAIJ)\n\
likewise; non-separable matrices get the error naming the check, and with approximate succeed\n\
with a positive misfit; bad DMDAs get their errors in both modes.\n\
  -all      every BC combination (default on one rank; a subset on more ranks)\n\
  -bench n  instead of the tests: time the inference of an n^3 channel matrix (PPPPNN, cell, tanh z)\n\n";

#include <ppekit.h>
#include <ppekit/private/separableimpl.h>
#include <ppekit/private/gridimpl.h>
#include "tap.h"
#include "dmda-poisson.h"

static PetscErrorCode FreeSeparable(PPESeparable **sep)
{
  PetscFunctionBegin;
  if (!*sep) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*sep)->zlo)); /* as PPESeparableDestroy() (not reachable from here: internal) */
  PetscCall(PetscFree((*sep)->zdi));
  PetscCall(PetscFree((*sep)->zhi));
  PetscCall(VecDestroy(&(*sep)->rowscale));
  PetscCall(VecDestroy(&(*sep)->idiag));
  PetscCall(PetscFree(*sep));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (K x)_i of the unit second difference along one direction of the box, from the description
   alone: xm, x0, xp are the values at i-1, i, i+1 (ignored where there is no box neighbour). */
static PetscReal Kapply(PPELocation loc, PPEBCType blo, PPEBCType bhi, PetscInt ib, PetscInt n, PetscReal xm, PetscReal x0, PetscReal xp)
{
  PetscBool vtx = (PetscBool)(loc == PPE_LOCATION_VERTEX);
  if (blo == PPE_BC_PERIODIC || (ib > 0 && ib < n - 1)) return -xm + 2 * x0 - xp;
  if (ib == 0) {
    if (blo == PPE_BC_NEUMANN) return vtx ? 2 * x0 - 2 * xp : x0 - xp;
    return vtx ? 2 * x0 - xp : 3 * x0 - xp;
  }
  if (bhi == PPE_BC_NEUMANN) return vtx ? 2 * x0 - 2 * xm : x0 - xm;
  return vtx ? 2 * x0 - xm : 3 * x0 - xm;
}

/* y = description applied to x: diag(rowscale) (sigma + Lx + Ly + Lz) on the box (x outside the
   box ignored), idiag * x outside it. */
static PetscErrorCode ApplyDescription(const PPESeparable *sep, DM da, Vec x, Vec y)
{
  Vec                  xl;
  const PetscScalar ***xa, ***ra = NULL, ***ia = NULL;
  PetscScalar       ***ya;
  PetscInt             xs, ys, zs, xm, ym, zm;

  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(da, &xl));
  PetscCall(DMGlobalToLocal(da, x, INSERT_VALUES, xl));
  PetscCall(DMDAVecGetArrayRead(da, xl, &xa));
  PetscCall(DMDAVecGetArray(da, y, &ya));
  if (sep->rowscale) PetscCall(DMDAVecGetArrayRead(da, sep->rowscale, &ra));
  if (sep->idiag) PetscCall(DMDAVecGetArrayRead(da, sep->idiag, &ia));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        PetscInt  ib = i - sep->lo[0], jb = j - sep->lo[1], kb = k - sep->lo[2];
        PetscReal v, r = ra ? PetscRealPart(ra[k][j][i]) : 1;
        if (ib < 0 || ib >= sep->n[0] || jb < 0 || jb >= sep->n[1] || kb < 0 || kb >= sep->n[2]) {
          ya[k][j][i] = (ia ? ia[k][j][i] : 0) * xa[k][j][i];
          continue;
        }
        {
          PetscBool perx = (PetscBool)(sep->bc[0] == PPE_BC_PERIODIC), pery = (PetscBool)(sep->bc[2] == PPE_BC_PERIODIC), perz = (PetscBool)(sep->bc[4] == PPE_BC_PERIODIC);
          PetscReal x0 = PetscRealPart(xa[k][j][i]);
          PetscReal xw = (perx || ib > 0) ? PetscRealPart(xa[k][j][i - 1]) : 0, xe = (perx || ib < sep->n[0] - 1) ? PetscRealPart(xa[k][j][i + 1]) : 0;
          PetscReal xsn = (pery || jb > 0) ? PetscRealPart(xa[k][j - 1][i]) : 0, xn = (pery || jb < sep->n[1] - 1) ? PetscRealPart(xa[k][j + 1][i]) : 0;
          PetscReal xb = (perz || kb > 0) ? PetscRealPart(xa[k - 1][j][i]) : 0, xt = (perz || kb < sep->n[2] - 1) ? PetscRealPart(xa[k + 1][j][i]) : 0;
          v = sep->sigma * x0;
          v += sep->c[0] * Kapply(sep->loc[0], sep->bc[0], sep->bc[1], ib, sep->n[0], xw, x0, xe);
          v += sep->c[1] * Kapply(sep->loc[1], sep->bc[2], sep->bc[3], jb, sep->n[1], xsn, x0, xn);
          v += -sep->zlo[kb] * xb + sep->zdi[kb] * x0 - sep->zhi[kb] * xt;
        }
        ya[k][j][i] = r * v;
      }
  if (ia) PetscCall(DMDAVecRestoreArrayRead(da, sep->idiag, &ia));
  if (ra) PetscCall(DMDAVecRestoreArrayRead(da, sep->rowscale, &ra));
  PetscCall(DMDAVecRestoreArray(da, y, &ya));
  PetscCall(DMDAVecRestoreArrayRead(da, xl, &xa));
  PetscCall(DMRestoreLocalVector(da, &xl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Relative difference (inf norm) between A x and the description applied to x, with x random
   and zero on the identity-row nodes (whose couplings the description leaves to the PC); and
   on the identity rows alone with x random everywhere. */
static PetscErrorCode CompareMult(Mat A, DM da, const PPESeparable *sep, PetscRandom rnd, PetscReal *rel)
{
  Vec       x, y1, y2, mask;
  PetscReal d, nrm, worst = 0;

  PetscFunctionBegin;
  PetscCall(DMCreateGlobalVector(da, &x));
  PetscCall(VecDuplicate(x, &y1));
  PetscCall(VecDuplicate(x, &y2));
  PetscCall(VecDuplicate(x, &mask));
  for (PetscInt t = 0; t < 2; t++) {
    PetscCall(VecSetRandom(x, rnd));
    PetscCall(VecShift(x, -0.5));
    if (t == 0 && sep->idiag) { /* zero on identity nodes: the box rows see no boundary coupling */
      const PetscScalar *id;
      PetscScalar       *xa;
      PetscInt           n;
      PetscCall(VecGetLocalSize(x, &n));
      PetscCall(VecGetArrayRead(sep->idiag, &id));
      PetscCall(VecGetArray(x, &xa));
      for (PetscInt l = 0; l < n; l++)
        if (PetscRealPart(id[l]) != 0) xa[l] = 0;
      PetscCall(VecRestoreArray(x, &xa));
      PetscCall(VecRestoreArrayRead(sep->idiag, &id));
    }
    PetscCall(MatMult(A, x, y1));
    PetscCall(ApplyDescription(sep, da, x, y2));
    if (t == 1) { /* identity rows only */
      if (!sep->idiag) break;
      PetscCall(VecCopy(sep->idiag, mask));
      PetscCall(VecPointwiseMult(y1, y1, mask)); /* identity rows carry idiag != 0: scale both alike */
      PetscCall(VecPointwiseMult(y2, y2, mask));
    }
    PetscCall(VecNorm(y1, NORM_INFINITY, &nrm));
    PetscCall(VecAXPY(y2, -1.0, y1));
    PetscCall(VecNorm(y2, NORM_INFINITY, &d));
    worst = PetscMax(worst, nrm > 0 ? d / nrm : d);
  }
  *rel = worst;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscCall(VecDestroy(&mask));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Infer with the error handler returning; code and message come back. */
static PetscErrorCode TryInfer(Mat A, DM da, PetscBool approx, PPESeparable **sep, PetscErrorCode *code, char msg[], size_t len)
{
  const char *specific = NULL;

  PetscFunctionBegin;
  msg[0] = 0;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *code = PPESeparableInferFromMat(A, da, approx, "-pc_fftptdma_approximate", sep);
  PetscCall(PetscPopErrorHandler());
  if (*code) {
    PetscCall(PPEErrorMessage(*code, &specific));
    if (specific) PetscCall(PetscStrncpy(msg, specific, len));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *const pairs[5] = {"PP", "NN", "DD", "ND", "DN"};

/* One PPEKit grid: assemble, scale, infer, compare. */
static PetscErrorCode GridCase(MPI_Comm comm, PetscInt cx, PetscInt cy, PetscInt cz, PPELocation loc, PetscBool stretch, PetscReal shift, PetscInt scaling, PetscRandom rnd, PetscInt *nfail)
{
  PPEGrid        g;
  DM             da;
  Mat            A;
  PPESeparable  *sep = NULL;
  char           bcs[7], tag[96], msg[1024];
  PetscBool      singular, ok;
  PetscReal      rel = PETSC_MAX_REAL;
  PetscErrorCode code;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(bcs, sizeof(bcs), "%s%s%s", pairs[cx], pairs[cy], pairs[cz]));
  PetscCall(PetscSNPrintf(tag, sizeof(tag), "%s %s %s%s %s", bcs, PPELocations[loc], stretch ? "tanh" : "uniform", shift > 0 ? " shift" : "", scaling == 0 ? "unscaled" : scaling == 1 ? "random rowscale" : "x 3.5"));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetSizes(g, 5, 4, 6));
  PetscCall(PPEGridSetLengths(g, 1.0, 1.7, 0.8));
  PetscCall(PPEGridSetBCString(g, bcs));
  PetscCall(PPEGridSetLocation(g, loc));
  if (stretch) PetscCall(PPEGridSetZStretch(g, PPE_STRETCH_TANH, 2.0));
  PetscCall(PPEGridSetShift(g, shift));
  PetscCall(PPEGridSetUp(g));
  PetscCall(PPEGridIsSingular(g, &singular));
  PetscCall(PPEGridGetDM(g, &da));
  PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &A));
  if (scaling == 1) {
    Vec l;
    PetscCall(DMCreateGlobalVector(da, &l));
    PetscCall(VecSetRandom(l, rnd));
    PetscCall(VecShift(l, 0.5));
    PetscCall(MatDiagonalScale(A, l, NULL));
    PetscCall(VecDestroy(&l));
  } else if (scaling == 2) PetscCall(MatScale(A, 3.5));
  PetscCall(TryInfer(A, da, PETSC_FALSE, &sep, &code, msg, sizeof(msg)));
  ok = (PetscBool)(code == 0);
  if (ok) {
    PetscCall(CompareMult(A, da, sep, rnd, &rel));
    ok = (PetscBool)(rel <= 1e-12 && sep->singular == singular && sep->source == PPE_SEPARABLE_INFERRED && !sep->idiag);
    for (PetscInt f = 0; f < 6; f++) ok = (PetscBool)(ok && sep->bc[f] == g->bc[f]);
    for (PetscInt d = 0; d < 2; d++)
      if (g->bc[2 * d] != PPE_BC_PERIODIC) ok = (PetscBool)(ok && sep->loc[d] == loc);
    for (PetscInt d = 0; d < 3; d++) ok = (PetscBool)(ok && sep->lo[d] == 0 && sep->n[d] == g->N[d]);
    if (!ok) PetscCall(PetscPrintf(comm, "# %s: rel %.2e singular %d/%d how: %s\n", tag, (double)rel, sep->singular, singular, sep->how));
  } else PetscCall(PetscPrintf(comm, "# %s: error %d %s\n", tag, (int)code, msg));
  if (!ok) (*nfail)++;
  PetscCall(FreeSeparable(&sep));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GridCases(MPI_Comm comm, PetscBool all, PetscRandom rnd)
{
  PetscInt ncase = 0, nfail = 0;

  PetscFunctionBegin;
  for (PetscInt cz = 0; cz < 5; cz++)
    for (PetscInt cy = 0; cy < 5; cy++)
      for (PetscInt cx = 0; cx < 5; cx++)
        for (PetscInt l = 0; l < 2; l++) {
          PetscInt  id      = cx + 5 * (cy + 5 * (cz + 5 * l));
          PetscBool stretch = (PetscBool)(cz > 0 && id % 3 != 0); /* tanh stretching is not periodic */
          PetscReal shift   = id % 4 == 1 ? 2.5 : 0;
          if (!all && id % 7 != 0 && !(cx == cy && cy == cz)) continue;
          PetscCall(GridCase(comm, cx, cy, cz, (PPELocation)l, stretch, shift, id % 3, rnd, &nfail));
          ncase++;
        }
  PetscCall(TapCheck(comm, (PetscBool)(nfail == 0), "PPEKit grids: %" PetscInt_FMT " BC/location/spacing/shift/scaling cases inferred exactly, MatMult to 1e-12, BCs, locations and singularity right (%" PetscInt_FMT " failed)", ncase, nfail));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Tutorial-style matrices: exact inference. */
static PetscErrorCode TutorialCase(MPI_Comm comm, DPKind kind, PetscBool stretch, DMDAStencilType st, MatType conv, PetscRandom rnd)
{
  DM             da;
  Mat            A, B = NULL;
  DPProblem      pb  = {kind, stretch, 0};
  PPESeparable  *sep = NULL;
  char           msg[1024];
  PetscErrorCode code;
  PetscReal      rel = -1;
  PetscBool      ok;

  PetscFunctionBegin;
  PetscCall(DPCreateDMDA(comm, &pb, 9, 8, 7, st, &da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(DPAssemble(da, &pb, A));
  if (conv) {
    PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatConvert(A, conv, MAT_INITIAL_MATRIX, &B));
  }
  PetscCall(TryInfer(B ? B : A, da, PETSC_FALSE, &sep, &code, msg, sizeof(msg)));
  ok = (PetscBool)(code == 0);
  if (ok) {
    PetscCall(CompareMult(A, da, sep, rnd, &rel));
    ok = (PetscBool)(rel <= 1e-12);
    if (kind == DP_VERTEX_DIRICHLET) {
      ok = (PetscBool)(ok && sep->idiag && !sep->singular && sep->lo[0] == 1 && sep->n[0] == 7 && sep->lo[1] == 1 && sep->n[1] == 6 && sep->lo[2] == 1 && sep->n[2] == 5);
      for (PetscInt f = 0; f < 6; f++) ok = (PetscBool)(ok && sep->bc[f] == PPE_BC_DIRICHLET);
      for (PetscInt d = 0; d < 2; d++) ok = (PetscBool)(ok && sep->loc[d] == PPE_LOCATION_VERTEX);
    } else if (kind == DP_VERTEX_CHANNEL) {
      ok = (PetscBool)(ok && sep->idiag && !sep->singular && sep->lo[0] == 0 && sep->n[0] == 9 && sep->lo[1] == 0 && sep->n[1] == 8 && sep->lo[2] == 1 && sep->n[2] == 5);
      for (PetscInt f = 0; f < 4; f++) ok = (PetscBool)(ok && sep->bc[f] == PPE_BC_PERIODIC);
      ok = (PetscBool)(ok && sep->bc[4] == PPE_BC_DIRICHLET && sep->bc[5] == PPE_BC_DIRICHLET && sep->loc[2] == PPE_LOCATION_VERTEX);
    } else {
      ok = (PetscBool)(ok && !sep->idiag && sep->singular && sep->n[0] == 9 && sep->n[2] == 7);
      for (PetscInt f = 0; f < 6; f++) ok = (PetscBool)(ok && sep->bc[f] == PPE_BC_NEUMANN);
      for (PetscInt d = 0; d < 2; d++) ok = (PetscBool)(ok && sep->loc[d] == PPE_LOCATION_CELL);
    }
    ok = (PetscBool)(ok && (stretch ? sep->rowscale != NULL : sep->rowscale == NULL));
    PetscCall(PetscPrintf(comm, "# how: %s\n", sep->how));
  } else PetscCall(PetscPrintf(comm, "# error %d: %s\n", (int)code, msg));
  if (code == 0)
    PetscCall(PetscSNPrintf(msg, sizeof(msg),
                            "box lo %" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT " n %" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ", BCs %s %s %s %s %s %s, locations %s %s %s, identity rows %s, singular %s, row scale %s", sep->lo[0],
                            sep->lo[1], sep->lo[2], sep->n[0], sep->n[1], sep->n[2], PPEBCTypes[sep->bc[0]], PPEBCTypes[sep->bc[1]], PPEBCTypes[sep->bc[2]], PPEBCTypes[sep->bc[3]], PPEBCTypes[sep->bc[4]], PPEBCTypes[sep->bc[5]],
                            PPELocations[sep->loc[0]], PPELocations[sep->loc[1]], PPELocations[sep->loc[2]], sep->idiag ? "yes" : "no", sep->singular ? "yes" : "no", sep->rowscale ? "yes" : "no"));
  PetscCall(TapCheck(comm, ok, "tutorial %s%s%s%s: inferred exactly (error %d, want 0), MatMult rel diff %.1e (<= 1e-12), box/BCs/location/singular right (%.400s)", DPKinds[kind], stretch ? " stretched" : "",
                     st == DMDA_STENCIL_BOX ? " box-stencil DMDA" : "", conv ? (strstr(conv, "sbaij") ? " as SBAIJ" : " as BAIJ") : "", (int)code, (double)rel, msg));
  PetscCall(FreeSeparable(&sep));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef enum {
  BAD_VARCOEF,
  BAD_ZPLANE,
  BAD_MISSING,
  BAD_OFFSTAR,
  BAD_MIXEDFACE,
  BAD_NEGDIAG,
  BAD_ZEROROW,
  BAD_POSITIVE
} BadKind;

/* A non-separable matrix: the exact mode fails with the expected text, approximate succeeds
   with a positive misfit (except for a negative diagonal, an error in both modes). */
static PetscErrorCode BadCase(MPI_Comm comm, BadKind bad, const char name[], const char text[], PetscRandom rnd)
{
  DM             da;
  Mat            A;
  DPProblem      pb  = {bad == BAD_VARCOEF ? DP_CELL_VARCOEF : bad == BAD_MIXEDFACE ? DP_VERTEX_DIRICHLET : DP_CELL_NEUMANN, PETSC_TRUE, 0.3};
  PPESeparable  *sep = NULL;
  char           msg[1024];
  PetscErrorCode code;
  PetscBool      ok;
  PetscReal      rel = 0;

  PetscFunctionBegin;
  PetscCall(DPCreateDMDA(comm, &pb, 9, 8, 7, bad == BAD_OFFSTAR ? DMDA_STENCIL_BOX : DMDA_STENCIL_STAR, &da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(DPAssemble(da, &pb, A));
  {
    /* one perturbed entry at (3,2,4) (or the face row (0,3,3)), set on the rank that owns it */
    PetscInt    xs, ys, zs, xm, ym, zm;
    MatStencil  row = {.k = 4, .j = 2, .i = 3}, col = row;
    PetscBool   mine;
    PetscScalar v = 0;
    if (bad == BAD_MIXEDFACE) row.i = 0, row.j = 3, row.k = 3, col = row;
    if (bad == BAD_POSITIVE) row.i = 1, row.j = 1, row.k = 3, col = row; /* the reference row */
    PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
    mine = (PetscBool)(row.i >= xs && row.i < xs + xm && row.j >= ys && row.j < ys + ym && row.k >= zs && row.k < zs + zm);
    switch (bad) {
    case BAD_ZPLANE:
      col.k = 5, v = -0.02;
      break; /* one z coupling of plane 4 differs */
    case BAD_MISSING:
      col.j = 3, v = 0;
      break; /* the y+ coupling is missing */
    case BAD_OFFSTAR:
      col.i = 4, col.j = 3, v = -0.01;
      break;
    case BAD_MIXEDFACE:
      col.i = 1, v = -0.5;
      break; /* a face row of an identity face couples */
    case BAD_NEGDIAG:
      v = -1;
      break;
    case BAD_ZEROROW:
      v = 0;
      break; /* then zeroed */
    case BAD_POSITIVE:
      col.i = 0, v = 0.05;
      break; /* and (2,1,3) below: positive x couplings */
    default:
      mine = PETSC_FALSE;
    }
    if (mine) PetscCall(MatSetValuesStencil(A, 1, &row, 1, &col, &v, INSERT_VALUES));
    if (mine && bad == BAD_POSITIVE) {
      col.i = 2;
      PetscCall(MatSetValuesStencil(A, 1, &row, 1, &col, &v, INSERT_VALUES));
    }
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    if (bad == BAD_ZEROROW) PetscCall(MatZeroRowsStencil(A, mine ? 1 : 0, &row, 0.0, NULL, NULL)); /* a zero row scaling */
  }
  PetscCall(TryInfer(A, da, PETSC_FALSE, &sep, &code, msg, sizeof(msg)));
  ok = (PetscBool)(code != 0 && strstr(msg, text) && (bad == BAD_NEGDIAG || bad == BAD_ZEROROW || strstr(msg, "-pc_fftptdma_approximate")));
  if (!ok) PetscCall(PetscPrintf(comm, "# got %d: %s\n", (int)code, msg));
  else PetscCall(PetscPrintf(comm, "# %s\n", msg));
  PetscCall(TapCheck(comm, ok, "%s: exact inference fails with \"%s\"%s", name, text, (bad == BAD_NEGDIAG || bad == BAD_ZEROROW) ? "" : " and names -pc_fftptdma_approximate"));
  PetscCall(FreeSeparable(&sep));
  PetscCall(TryInfer(A, da, PETSC_TRUE, &sep, &code, msg, sizeof(msg)));
  if (bad == BAD_NEGDIAG || bad == BAD_ZEROROW) {
    PetscCall(TapCheck(comm, (PetscBool)(code != 0 && strstr(msg, text)), "%s: approximate inference fails too: error %d (want nonzero), \"%.200s\" (want \"%s\")", name, (int)code, msg, text));
  } else {
    ok = (PetscBool)(code == 0 && sep->source == PPE_SEPARABLE_APPROXIMATE && sep->misfit > 1e-6 && strstr(sep->how, "nearest separable"));
    if (ok) PetscCall(CompareMult(A, da, sep, rnd, &rel));
    if (code) PetscCall(PetscPrintf(comm, "# got %d: %s\n", (int)code, msg));
    else PetscCall(PetscPrintf(comm, "# how: %s\n", sep->how));
    PetscCall(TapCheck(comm, (PetscBool)(ok && rel < 1), "%s: approximate inference succeeds (error %d, want 0; source approximate: %s; how \"%s\", want \"nearest separable\"), misfit %.3g (> 1e-6), MatMult rel diff %.2g (< 1)", name, (int)code,
                       code                                       ? "-"
                       : sep->source == PPE_SEPARABLE_APPROXIMATE ? "yes"
                                                                  : "no",
                       code ? "-" : sep->how, code ? -1.0 : (double)sep->misfit, (double)rel));
  }
  PetscCall(FreeSeparable(&sep));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* DMDAs the inference refuses, in both modes. */
static PetscErrorCode BadDMDA(MPI_Comm comm, PetscInt dim, PetscInt dof, PetscInt sw, const char text[])
{
  DM             da;
  Mat            A;
  PPESeparable  *sep = NULL;
  char           msg[1024];
  PetscErrorCode code[2];

  PetscFunctionBegin;
  if (dim == 3) PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 6, 5, 4, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, dof, sw, NULL, NULL, NULL, &da));
  else PetscCall(DMDACreate1d(comm, DM_BOUNDARY_NONE, 24, dof, sw, NULL, &da)); /* at least one point per rank */
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(MatShift(A, 1.0));
  PetscCall(TryInfer(A, da, PETSC_FALSE, &sep, &code[0], msg, sizeof(msg)));
  PetscCall(FreeSeparable(&sep));
  if (!strstr(msg, text)) PetscCall(PetscPrintf(comm, "# got %d: %s\n", (int)code[0], msg));
  PetscCall(TryInfer(A, da, PETSC_TRUE, &sep, &code[1], msg + 512, 512));
  PetscCall(FreeSeparable(&sep));
  PetscCall(TapCheck(comm, (PetscBool)(code[0] && code[1] && strstr(msg, text) && strstr(msg + 512, text)),
                     "%" PetscInt_FMT "D DMDA, dof %" PetscInt_FMT ", stencil width %" PetscInt_FMT ": error \"%s\" in both modes: exact %d \"%.200s\", approximate %d \"%.200s\" (want nonzero errors)", dim, dof, sw, text, (int)code[0], msg,
                     (int)code[1], msg + 512));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Timing for docs/types/fftptdma-inference.md: exact and approximate inference of the AIJ
   matrix of an n^3 channel grid (PPPPNN: periodic x and y, Neumann z, cell-centred, tanh z),
   next to its assembly and one MatMult. Not a test. */
static PetscErrorCode Bench(MPI_Comm comm, PetscInt n)
{
  PPEGrid        g;
  DM             da;
  Mat            A;
  Vec            x, y;
  PPESeparable  *sep = NULL;
  PetscLogDouble t[5];

  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetSizes(g, n, n, n));
  PetscCall(PPEGridSetBCString(g, "PPPPNN"));
  PetscCall(PPEGridSetZStretch(g, PPE_STRETCH_TANH, 2.0));
  PetscCall(PPEGridSetUp(g));
  PetscCall(PPEGridGetDM(g, &da));
  PetscCall(MPI_Barrier(comm));
  PetscCall(PetscTime(&t[0]));
  PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &A));
  PetscCall(MPI_Barrier(comm));
  PetscCall(PetscTime(&t[1]));
  PetscCall(PPESeparableInferFromMat(A, da, PETSC_FALSE, "-pc_fftptdma_approximate", &sep));
  PetscCall(PetscTime(&t[2]));
  PetscCall(PetscPrintf(comm, "how: %s\n", sep->how));
  PetscCall(FreeSeparable(&sep));
  PetscCall(PetscTime(&t[3]));
  PetscCall(PPESeparableInferFromMat(A, da, PETSC_TRUE, "-pc_fftptdma_approximate", &sep));
  PetscCall(PetscTime(&t[4]));
  PetscCall(FreeSeparable(&sep));
  {
    PetscLogDouble tinf0, tinf1, tm0, tm1;
    PetscCall(MatCreateVecs(A, &x, &y));
    PetscCall(VecSet(x, 1.0));
    PetscCall(MatMult(A, x, y));
    PetscCall(MPI_Barrier(comm));
    PetscCall(PetscTime(&tm0));
    for (int r = 0; r < 10; r++) PetscCall(MatMult(A, x, y));
    PetscCall(MPI_Barrier(comm));
    PetscCall(PetscTime(&tm1));
    PetscCall(MPI_Barrier(comm));
    PetscCall(PetscTime(&tinf0));
    PetscCall(PPESeparableInferFromMat(A, da, PETSC_FALSE, "-pc_fftptdma_approximate", &sep));
    PetscCall(PetscTime(&tinf1));
    PetscCall(FreeSeparable(&sep));
    PetscCall(PetscPrintf(comm, "n=%" PetscInt_FMT "^3: assembly %.3f s, exact inference %.3f s, approximate inference %.3f s, MatMult %.4f s\n", n, t[1] - t[0], tinf1 - tinf0, t[4] - t[3], (tm1 - tm0) / 10));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  PetscMPIInt size;
  PetscBool   all;
  PetscRandom rnd;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  all = (PetscBool)(size == 1);
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-all", &all, NULL));
  {
    PetscInt nb = 0;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench", &nb, NULL));
    if (nb > 0) {
      PetscCall(Bench(comm, nb));
      PetscCall(PetscFinalize());
      return 0;
    }
  }
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7));
  PetscCall(PetscRandomSeed(rnd));

  PetscCall(GridCases(comm, all, rnd));
  PetscCall(TutorialCase(comm, DP_VERTEX_DIRICHLET, PETSC_FALSE, DMDA_STENCIL_STAR, NULL, rnd));
  PetscCall(TutorialCase(comm, DP_VERTEX_DIRICHLET, PETSC_TRUE, DMDA_STENCIL_BOX, NULL, rnd));
  PetscCall(TutorialCase(comm, DP_VERTEX_CHANNEL, PETSC_TRUE, DMDA_STENCIL_STAR, NULL, rnd));
  PetscCall(TutorialCase(comm, DP_CELL_NEUMANN, PETSC_FALSE, DMDA_STENCIL_STAR, MATBAIJ, rnd));
  PetscCall(TutorialCase(comm, DP_CELL_NEUMANN, PETSC_TRUE, DMDA_STENCIL_STAR, MATSBAIJ, rnd));

  PetscCall(BadCase(comm, BAD_VARCOEF, "coefficient varying in x", "the end rows of face x- read", rnd));
  PetscCall(BadCase(comm, BAD_ZPLANE, "z coupling varying within a plane", "entry to the z+ neighbour (3,2,5)", rnd));
  PetscCall(BadCase(comm, BAD_MISSING, "missing y+ entry", "failed at row (3,2,4)", rnd));
  PetscCall(BadCase(comm, BAD_OFFSTAR, "entry off the star (box-stencil DMDA)", "entry off the 7-point stencil failed at row (3,2,4), entry to (4,3,4)", rnd));
  PetscCall(BadCase(comm, BAD_MIXEDFACE, "identity face with one coupled row", "on face x-", rnd));
  PetscCall(BadCase(comm, BAD_NEGDIAG, "negative diagonal", "row (3,2,4) has diagonal -1", rnd));
  PetscCall(BadCase(comm, BAD_ZEROROW, "zero row", "row (3,2,4) has diagonal 0", rnd));
  PetscCall(BadCase(comm, BAD_POSITIVE, "positive x couplings of the reference row (error raised on one rank)", "row (1,1,3) couples to its x neighbours with 0.05 and 0.05", rnd));

  PetscCall(BadDMDA(comm, 3, 2, 1, "one dof per point"));
  PetscCall(BadDMDA(comm, 3, 1, 0, "stencil width at least 1"));
  PetscCall(BadDMDA(comm, 1, 1, 1, "needs a 2D or 3D DMDA"));

  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}
