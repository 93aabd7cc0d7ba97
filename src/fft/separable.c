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
