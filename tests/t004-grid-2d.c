static const char help[] = "The 2D grid: its options (-ppe_grid_dim 2, two values of -ppe_grid_n, a four-letter\n\
-ppe_bc and its four-entry comma form, two values of -ppe_grid_L, -ppe_grid_origin and\n\
-ppe_grid_procs, -ppe_grid_z_stretch and -ppe_grid_z_lines acting on y), its getters in the\n\
user's directions (sizes nx, ny, 1; four BC letters; a 2D DMDA; coordinates, weights and\n\
eigenvalues of x and y, direction 2 refused), its 1D eigenvalues against those of the\n\
matching 3D grid's x and z directions, fields sampled at (x, y, 0), PPEGridView's text,\n\
the operator bounds against closed forms (and a dense eigen-decomposition where they are\n\
bounds), and clear errors for settings that contradict a 2D grid.\n\n";

#include <ppekit.h>
#include <petscblaslapack.h>
#include <stdio.h>
#include "tap.h"

#define TRY(code, call) \
  do { \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    (code) = (call); \
    PetscCall(PetscPopErrorHandler()); \
  } while (0)

/* A grid made from an options string alone (its own options database), set up. The grid
   and options are returned for the checks (the caller destroys both, grid first); *code is
   the error of set-from-options or set-up. */
static PetscErrorCode GridFromString(MPI_Comm comm, const char opts[], PPEGrid *g, PetscOptions *o, PetscErrorCode *code)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsCreate(o));
  PetscCall(PetscOptionsInsertString(*o, opts));
  PetscCall(PPEGridCreate(comm, g));
  PetscCall(PetscObjectSetOptions((PetscObject)*g, *o));
  TRY(*code, PPEGridSetFromOptions(*g));
  if (!*code) TRY(*code, PPEGridSetUp(*g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GridDone(PPEGrid *g, PetscOptions *o)
{
  PetscFunctionBegin;
  PetscCall(PPEGridDestroy(g));
  PetscCall(PetscOptionsDestroy(o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An error `want` whose message contains `text`. */
static PetscErrorCode CheckError(MPI_Comm comm, PetscErrorCode code, PetscErrorCode want, const char text[], const char what[])
{
  const char *msg = NULL;
  PetscBool   has = PETSC_FALSE;

  PetscFunctionBegin;
  if (code) {
    PetscCall(PPEErrorMessage(code, &msg));
    has = (PetscBool)(msg && strstr(msg, text));
  }
  PetscCall(TapCheck(comm, (PetscBool)(code == want && has), "%s: error %d (want %d), message contains \"%s\": %s%s%s", what, (int)code, (int)want, text, has ? "yes" : "no", has ? "" : ", got ", has ? "" : (msg ? msg : "(none)")));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ExpectOptionsError(MPI_Comm comm, const char opts[], PetscErrorCode want, const char text[])
{
  PPEGrid        g;
  PetscOptions   o;
  PetscErrorCode code;

  PetscFunctionBegin;
  PetscCall(GridFromString(comm, opts, &g, &o, &code));
  PetscCall(CheckError(comm, code, want, text, opts));
  PetscCall(GridDone(&g, &o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A grid set up from options: dimension, sizes, BC letters and its DMDA's shape. */
static PetscErrorCode CheckShape(MPI_Comm comm, const char opts[], PetscInt nx, PetscInt ny, const char bcs[])
{
  PPEGrid        g;
  PetscOptions   o;
  PetscErrorCode code;
  PetscInt       dim = 0, n[3] = {0, 0, 0}, ddim = 0, M = 0, N = 0;
  char           s[7] = "";
  DM             da   = NULL;
  DMBoundaryType bx = DM_BOUNDARY_NONE, by = DM_BOUNDARY_NONE;
  PetscBool      ok;

  PetscFunctionBegin;
  PetscCall(GridFromString(comm, opts, &g, &o, &code));
  if (!code) {
    PetscCall(PPEGridGetDimension(g, &dim));
    PetscCall(PPEGridGetSizes(g, &n[0], &n[1], &n[2]));
    PetscCall(PPEGridGetBCString(g, s));
    PetscCall(PPEGridGetDM(g, &da));
    PetscCall(DMDAGetInfo(da, &ddim, &M, &N, NULL, NULL, NULL, NULL, NULL, NULL, &bx, &by, NULL, NULL));
  }
  ok = (PetscBool)(!code && dim == 2 && n[0] == nx && n[1] == ny && n[2] == 1 && !strcmp(s, bcs) && ddim == 2 && M == nx && N == ny && (bx == DM_BOUNDARY_PERIODIC) == (bcs[0] == 'P') && (by == DM_BOUNDARY_PERIODIC) == (bcs[2] == 'P'));
  PetscCall(TapCheck(comm, ok,
                     "%s: %" PetscInt_FMT "D grid %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", bc %s, DMDA %" PetscInt_FMT "D %" PetscInt_FMT " x %" PetscInt_FMT " periodic %d,%d (want 2D %" PetscInt_FMT " x %" PetscInt_FMT
                     " x 1, %s; error %d)",
                     opts, dim, n[0], n[1], n[2], s, ddim, M, N, bx == DM_BOUNDARY_PERIODIC, by == DM_BOUNDARY_PERIODIC, nx, ny, bcs, (int)code));
  PetscCall(GridDone(&g, &o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal MaxDiff(PetscInt n, const PetscReal *a, const PetscReal *b)
{
  PetscReal m = 0;
  for (PetscInt i = 0; i < n; i++) m = PetscMax(m, PetscAbsReal(a[i] - b[i]));
  return m;
}

/* Lengths, origin, coordinates, weights and process grid from the two-value options. */
static PetscErrorCode Geometry(MPI_Comm comm, PetscMPIInt size)
{
  PPEGrid          g;
  PetscOptions     o;
  PetscErrorCode   code;
  char             opts[256];
  PetscReal        L[3], org[3], ex[10], ey[8], d;
  const PetscReal *x, *y, *wx, *wy;
  PetscInt         m = 0, p = 0;
  DM               da;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-ppe_grid_n 10,8 -ppe_grid_L 2,3 -ppe_grid_origin -1,0.5 -ppe_grid_procs 1,%d", (int)size));
  PetscCall(GridFromString(comm, opts, &g, &o, &code));
  PetscCheck(!code, comm, PETSC_ERR_PLIB, "%s failed", opts);
  PetscCall(PPEGridGetLengths(g, &L[0], &L[1], &L[2]));
  PetscCall(PPEGridGetOrigin(g, &org[0], &org[1], &org[2]));
  PetscCall(PPEGridGetCoordinates(g, 0, &x));
  PetscCall(PPEGridGetCoordinates(g, 1, &y));
  PetscCall(PPEGridGetWeights(g, 0, &wx));
  PetscCall(PPEGridGetWeights(g, 1, &wy));
  for (PetscInt i = 0; i < 10; i++) ex[i] = -1 + (i + 0.5) * 0.2;
  for (PetscInt j = 0; j < 8; j++) ey[j] = 0.5 + (j + 0.5) * 3.0 / 8;
  d = PetscMax(MaxDiff(10, x, ex), MaxDiff(8, y, ey));
  for (PetscInt i = 0; i < 10; i++) d = PetscMax(d, PetscAbsReal(wx[i] - 1));
  for (PetscInt j = 0; j < 8; j++) d = PetscMax(d, PetscAbsReal(wy[j] - 1));
  PetscCall(PPEGridGetDM(g, &da));
  PetscCall(DMDAGetInfo(da, NULL, NULL, NULL, NULL, &m, &p, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(TapCheck(comm, (PetscBool)(L[0] == 2 && L[1] == 3 && L[2] == 0 && org[0] == -1 && org[1] == 0.5 && org[2] == 0 && d <= 1e-14 && m == 1 && p == size),
                     "%s: L (%g, %g, %g) (want (2, 3, 0)), origin (%g, %g, %g) (want (-1, 0.5, 0)), cell centres and unit weights to %.1e (<= 1e-14), process grid %" PetscInt_FMT " x %" PetscInt_FMT " (want 1 x %d)", opts, (double)L[0], (double)L[1],
                     (double)L[2], (double)org[0], (double)org[1], (double)org[2], (double)d, m, p, (int)size));
  PetscCall(GridDone(&g, &o));

  PetscCall(GridFromString(comm, "-ppe_grid_n 6,5 -ppe_grid_L 4", &g, &o, &code));
  PetscCheck(!code, comm, PETSC_ERR_PLIB, "one-value -ppe_grid_L failed");
  PetscCall(PPEGridGetLengths(g, &L[0], &L[1], &L[2]));
  PetscCall(TapCheck(comm, (PetscBool)(L[0] == 4 && L[1] == 4 && L[2] == 0), "-ppe_grid_n 6,5 -ppe_grid_L 4: lengths (%g, %g, %g), want (4, 4, 0)", (double)L[0], (double)L[1], (double)L[2]));
  PetscCall(GridDone(&g, &o));

  /* vertex-centred, Neumann x (nodes at both walls, half weights), Dirichlet y (nodes 1..ny) */
  PetscCall(GridFromString(comm, "-ppe_grid_n 6,5 -ppe_bc NNDD -ppe_grid_location vertex", &g, &o, &code));
  PetscCheck(!code, comm, PETSC_ERR_PLIB, "vertex grid failed");
  PetscCall(PPEGridGetCoordinates(g, 0, &x));
  PetscCall(PPEGridGetCoordinates(g, 1, &y));
  PetscCall(PPEGridGetWeights(g, 0, &wx));
  PetscCall(PPEGridGetWeights(g, 1, &wy));
  for (PetscInt i = 0; i < 6; i++) ex[i] = i / 5.0;
  for (PetscInt j = 0; j < 5; j++) ey[j] = (j + 1) / 6.0;
  d = PetscMax(MaxDiff(6, x, ex), MaxDiff(5, y, ey));
  d = PetscMax(d, PetscMax(PetscAbsReal(wx[0] - 0.5), PetscAbsReal(wx[5] - 0.5)));
  d = PetscMax(d, PetscMax(PetscAbsReal(wx[2] - 1), PetscMax(PetscAbsReal(wy[0] - 1), PetscAbsReal(wy[4] - 1))));
  PetscCall(TapCheck(comm, (PetscBool)(d <= 1e-14), "vertex NNDD 6 x 5: x nodes i/5 with half weights at the Neumann walls, y nodes (j+1)/6 with unit weights, to %.1e", (double)d));
  PetscCall(GridDone(&g, &o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ppe_grid_z_stretch and -ppe_grid_z_lines act on y; x stays uniform */
static PetscErrorCode Stretch(MPI_Comm comm)
{
  PPEGrid          g;
  PetscOptions     o;
  PetscErrorCode   code;
  const PetscReal *x, *y, *lines;
  PetscReal        d = 0, Ly, y0, beta = 0;
  PetscInt         nl = 0;
  PetscBool        ux, uy;
  PPEStretchType   st;

  PetscFunctionBegin;
  PetscCall(GridFromString(comm, "-ppe_grid_n 10,12 -ppe_grid_L 1,2 -ppe_grid_z_stretch tanh -ppe_grid_z_stretch_factor 2", &g, &o, &code));
  PetscCheck(!code, comm, PETSC_ERR_PLIB, "tanh grid failed");
  PetscCall(PPEGridGetLines(g, 1, &nl, &lines));
  PetscCall(PPEGridGetCoordinates(g, 1, &y));
  PetscCall(PPEGridGetCoordinates(g, 0, &x));
  PetscCall(PPEGridIsUniform(g, 0, &ux));
  PetscCall(PPEGridIsUniform(g, 1, &uy));
  PetscCall(PPEGridGetZStretch(g, &st, &beta));
  for (PetscInt m = 0; m < 13; m++) {
    PetscReal s = m / 12.0, l = 1.0 + PetscTanhReal(2.0 * (2 * s - 1)) / PetscTanhReal(2.0);
    d = PetscMax(d, PetscAbsReal(lines[m] - l));
  }
  for (PetscInt j = 0; j < 12; j++) d = PetscMax(d, PetscAbsReal(y[j] - 0.5 * (lines[j] + lines[j + 1])));
  for (PetscInt i = 0; i < 10; i++) d = PetscMax(d, PetscAbsReal(x[i] - (i + 0.5) / 10));
  PetscCall(TapCheck(comm, (PetscBool)(nl == 13 && d <= 1e-14 && ux && !uy && st == PPE_STRETCH_TANH && beta == 2),
                     "tanh stretching on y: %" PetscInt_FMT " lines (want 13) 1 + tanh(2(2s-1))/tanh(2), y at their midpoints, x uniform, to %.1e (<= 1e-14) (uniform x %d, y %d: want 1, 0), stretching %s (want tanh), beta %g (want 2)", nl, (double)d,
                     (int)ux, (int)uy, st == PPE_STRETCH_TANH ? "tanh" : "other", (double)beta));
  PetscCall(GridDone(&g, &o));

  PetscCall(GridFromString(comm, "-ppe_grid_n 5,3 -ppe_grid_z_lines 0.5,0.6,1,1.7", &g, &o, &code));
  PetscCheck(!code, comm, PETSC_ERR_PLIB, "z lines grid failed");
  PetscCall(PPEGridGetCoordinates(g, 1, &y));
  PetscCall(PPEGridGetCoordinates(g, 0, &x));
  PetscCall(PPEGridGetLengths(g, NULL, &Ly, NULL));
  PetscCall(PPEGridGetOrigin(g, NULL, &y0, NULL));
  d = PetscMax(PetscAbsReal(y[0] - 0.55), PetscMax(PetscAbsReal(y[1] - 0.8), PetscAbsReal(y[2] - 1.35)));
  d = PetscMax(d, PetscAbsReal(x[4] - 0.9));
  PetscCall(TapCheck(comm, (PetscBool)(d <= 1e-14 && PetscAbsReal(Ly - 1.2) <= 1e-14 && y0 == 0.5), "-ppe_grid_z_lines 0.5,0.6,1,1.7 on a 5 x 3 grid: y centres 0.55, 0.8, 1.35 (to %.1e <= 1e-14), Ly %.17g (want 1.2 to 1e-14), y0 %g (want 0.5)",
                     (double)d, (double)Ly, (double)y0));
  PetscCall(GridDone(&g, &o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Direction 2 does not exist on a 2D grid; face zlo neither. */
static PetscErrorCode Directions(MPI_Comm comm)
{
  PPEGrid          g;
  PetscOptions     o;
  PetscErrorCode   code;
  const PetscReal *v;
  PetscReal        h;
  PetscBool        u;
  PPEBCType        bc;

  PetscFunctionBegin;
  PetscCall(GridFromString(comm, "-ppe_grid_n 7,6", &g, &o, &code));
  TRY(code, PPEGridGetCoordinates(g, 2, &v));
  PetscCall(CheckError(comm, code, PETSC_ERR_ARG_OUTOFRANGE, "Direction must be 0 (x) or 1 (y) on a 2D grid, got 2", "PPEGridGetCoordinates(dir 2)"));
  TRY(code, PPEGridGetWeights(g, 2, &v));
  PetscCall(CheckError(comm, code, PETSC_ERR_ARG_OUTOFRANGE, "Direction must be 0 (x) or 1 (y) on a 2D grid, got 2", "PPEGridGetWeights(dir 2)"));
  TRY(code, PPEGridGetEigenvalues(g, 2, &v));
  PetscCall(CheckError(comm, code, PETSC_ERR_ARG_OUTOFRANGE, "Direction must be 0 (x) or 1 (y) on a 2D grid, got 2", "PPEGridGetEigenvalues(dir 2)"));
  TRY(code, PPEGridGetReferenceSpacing(g, 2, &h));
  PetscCall(CheckError(comm, code, PETSC_ERR_ARG_OUTOFRANGE, "on a 2D grid, got 2", "PPEGridGetReferenceSpacing(dir 2)"));
  TRY(code, PPEGridIsUniform(g, -1, &u));
  PetscCall(CheckError(comm, code, PETSC_ERR_ARG_OUTOFRANGE, "on a 2D grid, got -1", "PPEGridIsUniform(dir -1)"));
  TRY(code, PPEGridGetBC(g, PPE_FACE_ZLO, &bc));
  PetscCall(CheckError(comm, code, PETSC_ERR_ARG_OUTOFRANGE, "Face 4 is not one of the 4 faces 0..3 of a 2D grid", "PPEGridGetBC(zlo)"));
  PetscCall(GridDone(&g, &o));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetDimension(g, 2));
  TRY(code, PPEGridSetBC(g, PPE_FACE_ZHI, PPE_BC_DIRICHLET));
  PetscCall(CheckError(comm, code, PETSC_ERR_ARG_OUTOFRANGE, "Face 5 is not one of the 4 faces 0..3 of a 2D grid", "PPEGridSetBC(zhi) on a 2D grid"));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The 1D data of a 2D grid are those of the 3D grid nx x 5 x ny with z = y: bit for bit. */
static PetscErrorCode SameAs3d(void)
{
  const char *pairs[] = {"PP", "NN", "DD", "ND", "DN"};
  PetscInt    ncases = 0, nbad = 0;

  PetscFunctionBegin;
  for (int a = 0; a < 5; a++)
    for (int b = 0; b < 5; b++)
      for (int loc = 0; loc < 2; loc++)
        for (int st = 0; st < 2; st++) {
          PPEGrid          g2, g3;
          char             s2[8], s3[8];
          const PetscReal *e2[2], *e3[2], *x2[2], *x3[2], *w2[2], *w3[2];
          PetscInt         n[2] = {11, 9};
          PetscBool        same = PETSC_TRUE;

          PetscCall(PetscSNPrintf(s2, sizeof(s2), "%s%s", pairs[a], pairs[b]));
          PetscCall(PetscSNPrintf(s3, sizeof(s3), "%sNN%s", pairs[a], pairs[b]));
          PetscCall(PPEGridCreate(PETSC_COMM_SELF, &g2));
          PetscCall(PPEGridSetBCString(g2, s2));
          PetscCall(PPEGridSetSizes(g2, n[0], n[1], 1));
          PetscCall(PPEGridSetLengths(g2, 1.3, 2.1, 0));
          PetscCall(PPEGridSetOrigin(g2, 0.2, -0.4, 0));
          PetscCall(PPEGridSetLocation(g2, (PPELocation)loc));
          if (st) PetscCall(PPEGridSetZStretch(g2, PPE_STRETCH_TANH, 1.8));
          PetscCall(PPEGridSetUp(g2));
          PetscCall(PPEGridCreate(PETSC_COMM_SELF, &g3));
          PetscCall(PPEGridSetBCString(g3, s3));
          PetscCall(PPEGridSetSizes(g3, n[0], 5, n[1]));
          PetscCall(PPEGridSetLengths(g3, 1.3, 0.7, 2.1));
          PetscCall(PPEGridSetOrigin(g3, 0.2, 3.0, -0.4));
          PetscCall(PPEGridSetLocation(g3, (PPELocation)loc));
          if (st) PetscCall(PPEGridSetZStretch(g3, PPE_STRETCH_TANH, 1.8));
          PetscCall(PPEGridSetUp(g3));
          for (int d = 0; d < 2; d++) {
            PetscCall(PPEGridGetEigenvalues(g2, d, &e2[d]));
            PetscCall(PPEGridGetEigenvalues(g3, 2 * d, &e3[d]));
            PetscCall(PPEGridGetCoordinates(g2, d, &x2[d]));
            PetscCall(PPEGridGetCoordinates(g3, 2 * d, &x3[d]));
            PetscCall(PPEGridGetWeights(g2, d, &w2[d]));
            PetscCall(PPEGridGetWeights(g3, 2 * d, &w3[d]));
            if (memcmp(e2[d], e3[d], (size_t)n[d] * sizeof(PetscReal)) || memcmp(x2[d], x3[d], (size_t)n[d] * sizeof(PetscReal)) || memcmp(w2[d], w3[d], (size_t)n[d] * sizeof(PetscReal))) same = PETSC_FALSE;
          }
          if (!same) {
            nbad++;
            PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# 2D %s %s %s differs from 3D %s\n", s2, PPELocations[loc], st ? "tanh" : "uniform", s3));
          }
          ncases++;
          PetscCall(PPEGridDestroy(&g2));
          PetscCall(PPEGridDestroy(&g3));
        }
  PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(nbad == 0),
                     "eigenvalues, coordinates and weights of x and y of a 2D grid are bitwise those of x and z of the 3D grid with z = y: %" PetscInt_FMT " of %" PetscInt_FMT " BC pairs x locations x spacings differ", nbad, ncases));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* f(x) = x + 10 y + 1000 z sampled on a 2D grid: the callback sees (x, y, 0), and the vector
   has the layout of the user's 2D DMDA. */
static PetscScalar Affine(const PetscReal x[3], void *ctx)
{
  (void)ctx;
  return x[0] + 10 * x[1] + 1000 * x[2];
}

static PetscErrorCode Sample(MPI_Comm comm)
{
  PPEGrid          g;
  PetscOptions     o;
  PetscErrorCode   code;
  DM               da;
  Vec              u;
  PetscScalar    **a;
  PetscInt         xs, ys, xm, ym;
  const PetscReal *x, *y;
  PetscReal        d = 0;

  PetscFunctionBegin;
  PetscCall(GridFromString(comm, "-ppe_grid_n 9,7 -ppe_bc PPND -ppe_grid_z_stretch tanh", &g, &o, &code));
  PetscCall(PPEGridGetDM(g, &da));
  PetscCall(PPEGridGetCoordinates(g, 0, &x));
  PetscCall(PPEGridGetCoordinates(g, 1, &y));
  PetscCall(DMCreateGlobalVector(da, &u));
  PetscCall(PPEGridSampleField(g, Affine, NULL, u));
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(DMDAVecGetArray(da, u, &a));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) d = PetscMax(d, PetscAbsScalar(a[j][i] - (x[i] + 10 * y[j])));
  PetscCall(DMDAVecRestoreArray(da, u, &a));
  PetscCall(VecDestroy(&u));
  PetscCall(TapCheck(comm, (PetscBool)(d <= 1e-13), "a field sampled on the 2D grid is f(x_i, y_j, 0) at [j][i] of the 2D DMDA's array, to %.1e", (double)d));
  PetscCall(GridDone(&g, &o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEGridView of a 2D grid, written to a file and read back on rank 0. */
static PetscErrorCode View(MPI_Comm comm, PetscMPIInt size)
{
  PPEGrid        g;
  PetscOptions   o;
  PetscErrorCode code;
  PetscViewer    v;
  char           opts[256], file[64], text[4096] = "", want[64];
  const char    *lines[6];
  PetscMPIInt    rank;
  PetscBool      ok = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-ppe_grid_n 12,9 -ppe_grid_L 1,2 -ppe_bc PPND -ppe_grid_z_stretch tanh -ppe_grid_z_stretch_factor 2 -ppe_grid_procs 1,%d", (int)size));
  PetscCall(GridFromString(comm, opts, &g, &o, &code));
  PetscCall(PetscSNPrintf(file, sizeof(file), "t004-view-np%d.txt", (int)size));
  PetscCall(PetscViewerASCIIOpen(comm, file, &v));
  PetscCall(PPEGridView(g, v));
  PetscCall(PetscViewerDestroy(&v));
  PetscCall(PetscSNPrintf(want, sizeof(want), "process grid: 1 x %d\n", (int)size));
  lines[0] = "sizes: 12 x 9 (2D), cell-centred\n";
  lines[1] = "domain: [0"; /* PETSc prints 0 as "0." in some releases: the rest is checked below */
  lines[2] = "boundary conditions: PPND (x periodic-periodic, y neumann-dirichlet)\n";
  lines[3] = "y spacing: tanh stretching, factor 2";
  lines[4] = want;
  lines[5] = "singular: no\n";
  if (rank == 0) {
    FILE  *f = fopen(file, "r");
    size_t nr;
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot read back %s", file);
    nr       = fread(text, 1, sizeof(text) - 1, f);
    text[nr] = 0;
    fclose(f);
    remove(file);
    for (int l = 0; l < 6; l++)
      if (!strstr(text, lines[l])) {
        ok = PETSC_FALSE;
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "# missing line: %s", lines[l]));
      }
    if (strstr(text, " x 1 x") || strstr(text, "z spacing") || strstr(text, "hz")) ok = PETSC_FALSE;
    {
      /* the domain line: two intervals, [0, 1] x [0, 2] */
      char *dl = strstr(text, "domain: ["), *end, *cross;
      if (dl) {
        end   = strchr(dl, '\n');
        cross = strstr(dl, "] x [");
        if (!end || !cross || cross > end || (strstr(cross + 1, "] x [") && strstr(cross + 1, "] x [") < end) || !strstr(dl, "[0") || strstr(dl, "1") > cross || strstr(cross, "2") > end) ok = PETSC_FALSE;
      }
    }
    if (!ok) {
      for (char *s = strtok(text, "\n"); s; s = strtok(NULL, "\n")) PetscCall(PetscPrintf(PETSC_COMM_SELF, "# | %s\n", s));
    }
  }
  PetscCallMPI(MPI_Bcast(&ok, 1, PPE_MPI_BOOL, 0, comm));
  PetscCall(TapCheck(comm, ok, "PPEGridView of a 2D grid: sizes '12 x 9 (2D)', domain of 2 intervals, 4-letter BCs, y spacing, a 1 x %d process grid, nothing of a third direction", (int)size));
  PetscCall(GridDone(&g, &o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The 1D eigenvalues of a uniform cell-centred direction, from the transform of its BC pair. */
static void ClosedForm(const char pair[2], PetscInt n, PetscReal L, PetscReal *lam)
{
  PetscReal h = L / n;
  for (PetscInt k = 0; k < n; k++) {
    PetscReal t;
    if (pair[0] == 'P') t = PETSC_PI * k / n;                                      /* DFT */
    else if (pair[0] == 'N' && pair[1] == 'N') t = PETSC_PI * k / (2.0 * n);       /* DCT-II */
    else if (pair[0] == 'D' && pair[1] == 'D') t = PETSC_PI * (k + 1) / (2.0 * n); /* DST-II */
    else t = PETSC_PI * (2 * k + 1) / (4.0 * n);                                   /* DCT-IV / DST-IV */
    lam[k] = 4.0 / (h * h) * PetscSqr(PetscSinReal(t));
  }
}

/* Operator bounds: exact ones against the closed forms (the spectrum of the 5-point operator
   is every sum lam_x + lam_y + shift), and safe ones against a dense eigen-decomposition. */
static PetscErrorCode Bounds(void)
{
  const char *sets[]  = {"PPNN", "PPND", "DDDD", "NDDN", "NNNN", "PPPP", "DNPP"};
  PetscReal   shift[] = {0, 0, 0, 0, 0.5, 0, 0};
  PetscInt    nx = 10, ny = 7;

  PetscFunctionBegin;
  for (size_t c = 0; c < sizeof(sets) / sizeof(sets[0]); c++) {
    PPEGrid   g;
    PetscReal lx[10], ly[7], lmin = PETSC_MAX_REAL, lmax = 0, bmin, bmax, rel;
    PetscBool exact, singular = (PetscBool)(!strchr(sets[c], 'D') && shift[c] == 0);

    PetscCall(PPEGridCreate(PETSC_COMM_SELF, &g));
    PetscCall(PPEGridSetBCString(g, sets[c]));
    PetscCall(PPEGridSetSizes(g, nx, ny, 1));
    PetscCall(PPEGridSetLengths(g, 1.5, 0.8, 0));
    PetscCall(PPEGridSetShift(g, shift[c]));
    PetscCall(PPEGridSetUp(g));
    PetscCall(PPEGridGetOperatorBounds(g, &bmin, &bmax, &exact));
    ClosedForm(sets[c], nx, 1.5, lx);
    ClosedForm(sets[c] + 2, ny, 0.8, ly);
    for (PetscInt i = 0; i < nx; i++)
      for (PetscInt j = 0; j < ny; j++) {
        PetscReal l = lx[i] + ly[j] + shift[c];
        lmax        = PetscMax(lmax, l);
        if (!singular || l > 1e-8) lmin = PetscMin(lmin, l);
      }
    rel = PetscMax(PetscAbsReal(bmin - lmin) / lmin, PetscAbsReal(bmax - lmax) / lmax);
    PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(exact && rel <= 1e-12), "bounds of the uniform cell-centred 10 x 7 %s%s operator: [%g, %g], exact: %s (want yes), equal the closed forms [%g, %g] to %.1e (<= 1e-12)", sets[c],
                       shift[c] > 0 ? " shift 0.5" : "", (double)bmin, (double)bmax, exact ? "yes" : "no", (double)lmin, (double)lmax, (double)rel));
    PetscCall(PPEGridDestroy(&g));
  }

  /* vertex-centred Neumann (W != I) and stretched y: bounds only, checked against the dense spectrum */
  for (int c = 0; c < 2; c++) {
    PPEGrid      g;
    Mat          A, D;
    PetscReal    bmin, bmax, *lam, *work, tmin = PETSC_MAX_REAL, tmax = 0;
    PetscScalar *a;
    PetscBool    exact;
    PetscInt     N;
    PetscBLASInt bn, lwork, info;
    const char   jobz = 'N', uplo = 'L';

    PetscCall(PPEGridCreate(PETSC_COMM_SELF, &g));
    PetscCall(PPEGridSetBCString(g, c ? "PPNN" : "NNND"));
    PetscCall(PPEGridSetSizes(g, 8, 7, 1));
    PetscCall(PPEGridSetLengths(g, 1.5, 0.8, 0));
    if (c) PetscCall(PPEGridSetZStretch(g, PPE_STRETCH_TANH, 2.0));
    else PetscCall(PPEGridSetLocation(g, PPE_LOCATION_VERTEX));
    PetscCall(PPEGridSetUp(g));
    PetscCall(PPEGridGetOperatorBounds(g, &bmin, &bmax, &exact));
    PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &A));
    PetscCall(MatConvert(A, MATSEQDENSE, MAT_INITIAL_MATRIX, &D));
    PetscCall(MatGetSize(D, &N, NULL));
    PetscCall(PetscBLASIntCast(N, &bn));
    lwork = 4 * bn;
    PetscCall(PetscMalloc2(N, &lam, lwork, &work));
    PetscCall(MatDenseGetArray(D, &a));
    PetscCallBLAS("LAPACKsyev", LAPACKsyev_(&jobz, &uplo, &bn, a, &bn, lam, work, &lwork, &info));
    PetscCall(MatDenseRestoreArray(D, &a));
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "syev info %d", (int)info);
    for (PetscInt i = 0; i < N; i++) {
      if (lam[i] > 1e-8) tmin = PetscMin(tmin, lam[i]);
      tmax = PetscMax(tmax, lam[i]);
    }
    PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(!exact && bmin <= tmin * (1 + 1e-12) && bmin >= tmin / 4.01 && bmax >= tmax * (1 - 1e-12) && bmax <= 4.01 * tmax),
                       "bounds of the %s operator: [%g, %g] (exact: %s, want no) contain the dense spectrum's [%g, %g] (to 1e-12 relative) and are within a factor 4.01 of it (min ratio %g, max ratio %g)",
                       c ? "PPNN 8 x 7, tanh y" : "NNND 8 x 7 vertex-centred", (double)bmin, (double)bmax, exact ? "yes" : "no", (double)tmin, (double)tmax, (double)(tmin / bmin), (double)(bmax / tmax)));
    PetscCall(PetscFree2(lam, work));
    PetscCall(MatDestroy(&D));
    PetscCall(MatDestroy(&A));
    PetscCall(PPEGridDestroy(&g));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Settings that contradict a 2D grid, and dimensions that contradict a DMDA. */
static PetscErrorCode Errors(MPI_Comm comm)
{
  DM             da3, da2;
  PPEGrid        g;
  PetscOptions   o;
  PetscErrorCode code;

  PetscFunctionBegin;
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_n 8,8,8 -ppe_bc PPNN", PETSC_ERR_ARG_SIZ, "-ppe_grid_n takes 1 or 2 values on a 2D grid, got 3"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_n 8,8,8 -ppe_bc P,P,N,N", PETSC_ERR_ARG_SIZ, "-ppe_grid_n takes 1 or 2 values on a 2D grid, got 3"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_dim 2 -ppe_bc PPNNNN", PETSC_ERR_ARG_SIZ, "-ppe_bc needs 4 boundary conditions (xlo,xhi,ylo,yhi) or one 4-letter word on a 2D grid, got 1 entries (a word of the other dimension)"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_dim 2 -ppe_bc P,P,N,N,N,N", PETSC_ERR_ARG_SIZ, "-ppe_bc needs 4 boundary conditions (xlo,xhi,ylo,yhi) or one 4-letter word on a 2D grid, got 6 entries"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_n 8,8 -ppe_bc PPNNNN", PETSC_ERR_ARG_SIZ, "-ppe_bc needs 4 boundary conditions"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_dim 4", PETSC_ERR_ARG_OUTOFRANGE, "A PPEGrid is 2D or 3D, got dimension 4"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_dim 1", PETSC_ERR_ARG_OUTOFRANGE, "A PPEGrid is 2D or 3D, got dimension 1"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_dim 3 -ppe_grid_n 8,8", PETSC_ERR_ARG_INCOMP, "The grid cannot be 2D (-ppe_grid_n with two sizes) and 3D (PPEGridSetDimension() or -ppe_grid_dim)"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_dim 3 -ppe_bc NNDD", PETSC_ERR_ARG_INCOMP, "The grid cannot be 2D (-ppe_bc with four boundary conditions) and 3D"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_n 8,2", PETSC_ERR_ARG_OUTOFRANGE, "at least 3 points in every direction: got 2 in y"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_n 1,8", PETSC_ERR_ARG_OUTOFRANGE, "at least 3 points in every direction: got 1 in x"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_dim 2 -ppe_grid_n 2", PETSC_ERR_ARG_OUTOFRANGE, "at least 3 points in every direction: got 2 in x"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_n 8,8 -ppe_grid_L 1,2,3", PETSC_ERR_ARG_SIZ, "-ppe_grid_L takes 1 or 2 values on a 2D grid, got 3"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_n 8,8 -ppe_grid_L 1,0", PETSC_ERR_ARG_OUTOFRANGE, "Grid lengths must be positive and finite: got Ly = 0"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_n 8,8 -ppe_grid_origin 0,0,0", PETSC_ERR_ARG_SIZ, "-ppe_grid_origin takes 2 values on a 2D grid, got 3"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_n 8,8 -ppe_grid_procs 1,1,1", PETSC_ERR_ARG_SIZ, "-ppe_grid_procs takes 2 values on a 2D grid, got 3"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_n 8,8 -ppe_bc PPNX", PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown boundary condition 'X' at position 4 of \"PPNX\""));
  PetscCall(ExpectOptionsError(comm, "-ppe_bc PNNN", PETSC_ERR_ARG_INCOMP, "Periodic boundary conditions come in pairs: face xlo is periodic but face xhi is neumann"));
  PetscCall(ExpectOptionsError(comm, "-ppe_bc n,n,p,dirichlet", PETSC_ERR_ARG_INCOMP, "Periodic boundary conditions come in pairs: face ylo is periodic but face yhi is dirichlet"));
  PetscCall(ExpectOptionsError(comm, "-ppe_grid_n 8,8 -ppe_grid_z_lines 0,0.5,1", PETSC_ERR_ARG_SIZ, "Expected 9 mesh lines for 8 cell-centred unknowns"));

  /* two sizes against a 3D DMDA (either order), a 2D DMDA against dimension 3 */
  PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 8, 8, 8, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da3));
  PetscCall(DMSetUp(da3));
  PetscCall(PetscOptionsCreate(&o));
  PetscCall(PetscOptionsInsertString(o, "-ppe_grid_n 8,8"));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PetscObjectSetOptions((PetscObject)g, o));
  PetscCall(PPEGridSetDM(g, da3));
  TRY(code, PPEGridSetFromOptions(g));
  PetscCall(CheckError(comm, code, PETSC_ERR_ARG_INCOMP, "The grid cannot be 2D (-ppe_grid_n with two sizes) and 3D (a 3D DMDA)", "3D DMDA, then -ppe_grid_n 8,8"));
  PetscCall(PPEGridDestroy(&g));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PetscObjectSetOptions((PetscObject)g, o));
  PetscCall(PPEGridSetFromOptions(g));
  TRY(code, PPEGridSetDM(g, da3));
  PetscCall(CheckError(comm, code, PETSC_ERR_ARG_INCOMP, "The grid cannot be 3D (a 3D DMDA) and 2D (-ppe_grid_n with two sizes)", "-ppe_grid_n 8,8, then a 3D DMDA"));
  PetscCall(GridDone(&g, &o));
  PetscCall(DMDestroy(&da3));
  PetscCall(DMDACreate2d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 8, 6, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da2));
  PetscCall(DMSetUp(da2));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetDM(g, da2));
  TRY(code, PPEGridSetDimension(g, 3));
  PetscCall(CheckError(comm, code, PETSC_ERR_ARG_INCOMP, "The grid cannot be 3D (PPEGridSetDimension() or -ppe_grid_dim) and 2D (a 2D DMDA)", "2D DMDA, then PPEGridSetDimension(3)"));
  PetscCall(PPEGridDestroy(&g));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetSizes(g, 8, 7, 3)); /* sizes set first (still 3D): the 8 x 6 DMDA must match 8 x 7 */
  PetscCall(PPEGridSetDM(g, da2));
  TRY(code, PPEGridSetUp(g));
  PetscCall(CheckError(comm, code, PETSC_ERR_ARG_SIZ, "Grid/DMDA size mismatch: the grid is 8 x 7 but the DMDA is 8 x 6", "sizes 8 x 7 on an 8 x 6 2D DMDA"));
  PetscCall(PPEGridDestroy(&g));
  PetscCall(DMDestroy(&da2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm    comm;
  PetscMPIInt size;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCallMPI(MPI_Comm_size(comm, &size));

  PetscCall(CheckShape(comm, "-ppe_grid_dim 2 -ppe_grid_n 12,9", 12, 9, "NNNN"));
  PetscCall(CheckShape(comm, "-ppe_grid_n 12,9", 12, 9, "NNNN"));
  PetscCall(CheckShape(comm, "-ppe_grid_dim 2 -ppe_grid_n 9", 9, 9, "NNNN"));
  PetscCall(CheckShape(comm, "-ppe_grid_dim 2", 32, 32, "NNNN"));
  PetscCall(CheckShape(comm, "-ppe_bc PPND -ppe_grid_n 10,7", 10, 7, "PPND"));
  PetscCall(CheckShape(comm, "-ppe_bc DDPP -ppe_grid_n 10,7", 10, 7, "DDPP"));
  PetscCall(CheckShape(comm, "-ppe_bc periodic,periodic,dirichlet,N -ppe_grid_n 10,7", 10, 7, "PPDN"));
  PetscCall(CheckShape(comm, "-ppe_bc ddnn", 32, 32, "DDNN"));
  PetscCall(CheckShape(comm, "-ppe_grid_dim 2 -ppe_bc PPNN -ppe_grid_n 5,6", 5, 6, "PPNN"));
  PetscCall(Geometry(comm, size));
  PetscCall(Stretch(comm));
  PetscCall(Directions(comm));
  PetscCall(SameAs3d());
  PetscCall(Sample(comm));
  PetscCall(View(comm, size));
  PetscCall(Bounds());
  PetscCall(Errors(comm));
  PetscCall(PetscFinalize());
  return 0;
}
