/*
   PPESeparable from a PPEGrid: the description of the MATPPESTENCIL operator read by PC
   fftptdma (include/ppekit/private/separableimpl.h).

   The grid's operator (docs/conventions.md) is A = Wy Wz Sx + Wx Wz Sy + Wx Wy Sz +
   sigma Wx Wy Wz = W (sigma + Wx^-1 Sx (+) Wy^-1 Sy (+) Wz^-1 Sz) with W = Wx Wy Wz, so

     rowscale = wx_i wy_j wz_k (NULL when every weight is 1, as on uniform cell grids),
     Lx = Wx^-1 Sx = K / hx^2 with hx = href_x (x and y are uniform: interior couplings
          1/(href dist) = 1/hx^2; a vertex Neumann end has w = 1/2 and the row [2, -2];
          a cell Dirichlet end tb = 2/hx^2 and the row [3, -1]), so c[0] = 1/hx^2,
     Lz = Wz^-1 Sz row by row: zlo = tlo/w, zdi = d/w, zhi = thi/w,
     sigma = the grid's shift, the box = the whole DMDA (vertex Dirichlet nodes are not
     unknowns of the grid), no identity rows.
*/
#include <ppekit/private/gridimpl.h>
#include <ppekit/private/separableimpl.h>
#include <petscdmda.h>

PetscErrorCode PPESeparableCreateFromGrid(PPEGrid grid, PPESeparable **sepout)
{
  PPESeparable *sep;
  PetscBool     ones = PETSC_TRUE;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PetscCall(PPEGridSetUp(grid));
  for (int d = 0; d < 2; d++) PetscCheck(grid->dir[d].uniform, PetscObjectComm((PetscObject)grid), PETSC_ERR_SUP, "The grid's %c spacing is not uniform; FFTs need uniform x and y spacing (only z may be stretched)", "xy"[d]);
  PetscCall(PetscNew(&sep));
  sep->source = PPE_SEPARABLE_GRID;
  for (int d = 0; d < 3; d++) {
    sep->M[d]   = grid->N[d];
    sep->lo[d]  = 0;
    sep->n[d]   = grid->N[d];
    sep->loc[d] = grid->location;
  }
  for (int f = 0; f < 6; f++) sep->bc[f] = grid->bc[f];
  for (int d = 0; d < 2; d++) sep->c[d] = 1.0 / (grid->dir[d].href * grid->dir[d].href);
  PetscCall(PetscMalloc1(grid->N[2], &sep->zlo));
  PetscCall(PetscMalloc1(grid->N[2], &sep->zdi));
  PetscCall(PetscMalloc1(grid->N[2], &sep->zhi));
  {
    const PPEGrid1d *z = &grid->dir[2];
    for (PetscInt k = 0; k < z->n; k++) {
      sep->zlo[k] = z->tlo[k] / z->w[k];
      sep->zdi[k] = z->d[k] / z->w[k];
      sep->zhi[k] = z->thi[k] / z->w[k];
    }
  }
  sep->sigma    = grid->shift;
  sep->singular = grid->singular;
  sep->misfit   = 0.0;
  for (int d = 0; d < 3; d++)
    for (PetscInt i = 0; i < grid->N[d]; i++)
      if (grid->dir[d].w[i] != 1.0) ones = PETSC_FALSE;
  if (!ones) {
    PetscScalar     *r;
    const PetscInt  *s = grid->box.s, *m = grid->box.m; /* the kernels' 3D view of the grid's DMDA */
    PetscInt         l  = 0;
    const PetscReal *wx = grid->dir[0].w, *wy = grid->dir[1].w, *wz = grid->dir[2].w;

    PetscCall(DMCreateGlobalVector(grid->da, &sep->rowscale));
    PetscCall(VecGetArray(sep->rowscale, &r));
    for (PetscInt k = s[2]; k < s[2] + m[2]; k++)
      for (PetscInt j = s[1]; j < s[1] + m[1]; j++)
        for (PetscInt i = s[0]; i < s[0] + m[0]; i++) r[l++] = wx[i] * wy[j] * wz[k];
    PetscCall(VecRestoreArray(sep->rowscale, &r));
  }
  PetscCall(
    PetscSNPrintf(sep->how, sizeof(sep->how), "from the grid of the matrix-free operator (exact): Lx = K/hx^2, Ly = K/hy^2, Lz = Wz^-1 Sz (%s z), row scale %s", grid->dir[2].uniform ? "uniform" : "stretched", ones ? "1" : "the control volumes W"));
  *sepout = sep;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPESeparableSymmetricScaling - the symmetric preconditioner made from a description whose
   model is A ~ R U (R = rowscale, U = sigma + Lx (+) Ly (+) Lz): an approximate description of a
   symmetric (variable-coefficient) matrix, for PC fftptdma -pc_fftptdma_approximate.

   U itself is symmetric only up to a diagonal: a vertex Neumann end of x or y has the row
   [2, -2] against [-1, 2, -1] next to it, and an Lz may couple k to k+1 otherwise than k+1 to
   k (a stretched z whose rows carry their cell volumes; the approximate inference gives both
   one value, so that w_k = 1 there). W (w_i w_j w_k: 1/2 on a vertex Neumann end node, 1
   elsewhere; w_{k+1} zlo[k+1] = w_k zhi[k] along z) makes S = W U symmetric, and

       A ~ R U = D S,   D = R / W = diag(A) / diag(S)   (R is the ratio of the diagonals)

   D carries the variable coefficient (beta = 1/rho of a multiphase pressure matrix). Two
   symmetric positive (semi)definite forms were compared: the diagonal scaling
   M = D^1/2 S D^1/2, which keeps A's diagonal and is exact where the coefficient is locally
   constant, and one constant scaling M = c S. CG iterations to a true relative residual of
   1e-8 on the bubble matrices of test t410 (6 spheres of density 1 in density ratio 1.5, 10,
   1000, sharp cell-centred jumps, x and y periodic, zero-flux z walls), c S / D^1/2 S D^1/2:

     24^3:  8 / 8,  27 / 34,  86 / 102        64^3:  8 / 10,  25 / 57,  64 / 198
     48^3:  8 / 9,  25 / 47,  69 / 154        96^3:  8 / 11,  24 / 76,  57 / 284

   and on the VOF-like bubbles of ppe-solve -problem bubbles at ratio 1000 (intermediate
   densities at the interfaces): 264 / 96 (24^3), 263 / 183 (48^3), 259 / 237 (64^3),
   255 / 341 (96^3). Across a jump the diagonal scaling couples with sqrt(D_i D_j), the
   geometric mean, where A has the harmonic mean (some 15 times weaker at ratio 1000): each
   bubble's indicator becomes a small eigenvalue, and the interface modes grow in number with
   the grid. The constant scaling has beta_min S <= A <= beta_max S face by face (up to the
   averaging of U), a condition number bounded by the ratio whatever the grid. The constant
   scaling is used (the diagonal one wins on smooth coefficients, 5 against 14 iterations for
   ppe-solve's mms-var density 1 +- 0.5 cos, and on smoothed interfaces on small grids):

       M = c S,   c = the mean of D over the box rows

   (any constant gives CG and GMRES the same iterates; the mean makes M's diagonal A's on
   average, for methods that see the scale).

   *w:     W as a DMDA global vector (1 outside the box), the row scaling to set the solver up
           with: it then applies U^-1 W^-1 = S^-1; NULL when W = 1 everywhere
   *c:     the constant (all ranks)
   drange: the smallest and largest D over the box (all ranks)
   A periodic z needs a symmetric Lz (weights around the period need not close); a coupling
   that is not positive leaves its weight unchanged.
*/
PetscErrorCode PPESeparableSymmetricScaling(const PPESeparable *sep, DM da, Vec *w, PetscReal *c, PetscReal drange[2])
{
  PetscReal         *wz, loc[4] = {PETSC_MAX_REAL, PETSC_MAX_REAL, 0, 0}, all[4]; /* min D, -max D, -max |W - 1|, sum of D */
  PetscScalar       *wa;
  const PetscScalar *ra = NULL;
  PetscInt           xs, ys, zs, xm, ym, zm, l = 0;
  PetscBool          vn[4];

  PetscFunctionBegin;
  for (PetscInt f = 0; f < 4; f++) vn[f] = (PetscBool)(sep->loc[f / 2] == PPE_LOCATION_VERTEX && sep->bc[f] == PPE_BC_NEUMANN && sep->n[f / 2] > 1); /* (not the one y point of a 2D box) */
  PetscCall(PetscMalloc1(sep->n[2], &wz));
  wz[0] = 1;
  for (PetscInt k = 0; k + 1 < sep->n[2]; k++) wz[k + 1] = (sep->zhi[k] > 0 && sep->zlo[k + 1] > 0) ? wz[k] * sep->zhi[k] / sep->zlo[k + 1] : wz[k];
  PetscCall(DMCreateGlobalVector(da, w));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscCall(VecGetArray(*w, &wa));
  if (sep->rowscale) PetscCall(VecGetArrayRead(sep->rowscale, &ra));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++, l++) {
        PetscInt  x[3] = {i - sep->lo[0], j - sep->lo[1], k - sep->lo[2]};
        PetscReal wv, d;
        PetscBool inbox = PETSC_TRUE;

        for (int e = 0; e < 3; e++) inbox = (PetscBool)(inbox && x[e] >= 0 && x[e] < sep->n[e]);
        if (!inbox) {
          wa[l] = 1;
          continue;
        }
        wv = wz[x[2]];
        for (int e = 0; e < 2; e++)
          if ((vn[2 * e] && x[e] == 0) || (vn[2 * e + 1] && x[e] == sep->n[e] - 1)) wv *= 0.5;
        d      = (ra ? PetscRealPart(ra[l]) : 1.0) / wv;
        wa[l]  = wv;
        loc[0] = PetscMin(loc[0], d);
        loc[1] = PetscMin(loc[1], -d);
        loc[2] = PetscMin(loc[2], -PetscAbsReal(wv - 1));
        loc[3] += d;
      }
  if (ra) PetscCall(VecRestoreArrayRead(sep->rowscale, &ra));
  PetscCall(VecRestoreArray(*w, &wa));
  PetscCall(PetscFree(wz));
  PetscCall(MPIU_Allreduce(loc, all, 3, MPIU_REAL, MPIU_MIN, PetscObjectComm((PetscObject)da)));
  PetscCall(MPIU_Allreduce(&loc[3], &all[3], 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)da)));
  drange[0] = all[0];
  drange[1] = -all[1];
  *c        = all[3] / ((PetscReal)sep->n[0] * sep->n[1] * sep->n[2]);
  if (all[2] == 0) PetscCall(VecDestroy(w)); /* W = 1: the solver needs no row scaling */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPESeparableView(const PPESeparable *sep, PetscViewer viewer)
{
  const char *src[] = {"grid", "inferred", "approximate"};
  PetscReal   zmin = PETSC_MAX_REAL, zmax = 0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < sep->n[2]; k++) {
    zmin = PetscMin(zmin, sep->zdi[k]);
    zmax = PetscMax(zmax, sep->zdi[k]);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "separable operator (%s): %s\n", src[sep->source], sep->how));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  DMDA %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", box of unknowns %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " from (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ")%s\n",
                                   sep->M[0], sep->M[1], sep->M[2], sep->n[0], sep->n[1], sep->n[2], sep->lo[0], sep->lo[1], sep->lo[2], sep->idiag ? ", identity rows outside" : ""));
  if (sep->M[1] == 1) /* a 2D problem's nx x 1 x ny box: the user's y is z */
    PetscCall(PetscViewerASCIIPrintf(viewer, "  2D (one y point, no coupling): locations %s/%s, BCs x %s-%s, z (the user's y) %s-%s\n", PPELocations[sep->loc[0]], PPELocations[sep->loc[2]], PPEBCTypes[sep->bc[0]], PPEBCTypes[sep->bc[1]],
                                     PPEBCTypes[sep->bc[4]], PPEBCTypes[sep->bc[5]]));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "  locations %s/%s/%s, BCs x %s-%s, y %s-%s, z %s-%s\n", PPELocations[sep->loc[0]], PPELocations[sep->loc[1]], PPELocations[sep->loc[2]], PPEBCTypes[sep->bc[0]], PPEBCTypes[sep->bc[1]],
                                     PPEBCTypes[sep->bc[2]], PPEBCTypes[sep->bc[3]], PPEBCTypes[sep->bc[4]], PPEBCTypes[sep->bc[5]]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  cx = %g, cy = %g, Lz diagonal in [%g, %g], sigma = %g, row scale %s%s\n", (double)sep->c[0], (double)sep->c[1], (double)zmin, (double)zmax, (double)sep->sigma, sep->rowscale ? "per row" : "1",
                                   sep->singular ? ", singular (constant null space)" : ""));
  if (sep->source == PPE_SEPARABLE_APPROXIMATE) PetscCall(PetscViewerASCIIPrintf(viewer, "  largest relative entry difference to the matrix: %g\n", (double)sep->misfit));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPESeparableDestroy(PPESeparable **sep)
{
  PetscFunctionBegin;
  if (!*sep) PetscFunctionReturn(PETSC_SUCCESS);
  /* three separate PetscMalloc1() arrays (also in src/fft/separablefinish.c) */
  PetscCall(PetscFree((*sep)->zlo));
  PetscCall(PetscFree((*sep)->zdi));
  PetscCall(PetscFree((*sep)->zhi));
  PetscCall(VecDestroy(&(*sep)->rowscale));
  PetscCall(VecDestroy(&(*sep)->idiag));
  PetscCall(PetscFree(*sep));
  PetscFunctionReturn(PETSC_SUCCESS);
}
