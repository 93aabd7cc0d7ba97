/*
   Operator inference, the last phase (the method is in separableinfer.c): everything rescaled
   so that the row scaling of the reference row (lo+1, lo+1, lo + n/2) is 1, the description
   filled, the row-scale and identity-row vectors made, and its one-line summary.
*/
#include <ppekit/private/separableimpl.h>
#include <petscdmda.h>

/* The row scaling of the reference row, summed over the ranks (one holds it). */
static PetscErrorCode ReferenceScale(PPEInferCtx *c, PetscReal *s)
{
  PetscReal sloc = 0;
  PetscInt  i0 = c->lo[0] + 1, j0 = PPEInferJRef(c);

  PetscFunctionBegin;
  if (i0 >= c->s[0] && i0 < c->s[0] + c->m[0] && j0 >= c->s[1] && j0 < c->s[1] + c->m[1] && c->kref >= c->s[2] && c->kref < c->s[2] + c->m[2]) sloc = c->r[PPEInferLocalIndex(c, i0, j0, c->kref)];
  PetscCall(MPIU_Allreduce(&sloc, s, 1, MPIU_REAL, MPIU_SUM, c->comm));
  PetscCheck(*s > 0, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference: zero or negative row scaling %g at the reference row (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ")", (double)*s, i0, j0, c->kref);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The box, the coefficients and the z rows, rescaled by 1/s (three separate z arrays, as
   PPESeparableCreateFromGrid() makes them and PPESeparableDestroy() frees them). */
static PetscErrorCode FillCoefficients(PPEInferCtx *c, PetscReal s, PPESeparable *sep)
{
  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) {
    sep->M[d]  = c->M[d];
    sep->lo[d] = c->lo[d];
    sep->n[d]  = c->n[d];
  }
  sep->c[0]  = s;
  sep->c[1]  = s * c->c1;
  sep->sigma = s * c->sigma;
  PetscCall(PetscMalloc1(c->n[2], &sep->zlo));
  PetscCall(PetscMalloc1(c->n[2], &sep->zdi));
  PetscCall(PetscMalloc1(c->n[2], &sep->zhi));
  for (PetscInt k = 0; k < c->n[2]; k++) {
    PetscInt kk = k + c->lo[2];
    sep->zlo[k] = (k == 0 && !c->per[2]) ? 0 : s * c->zl[kk];
    sep->zhi[k] = (k == c->n[2] - 1 && !c->per[2]) ? 0 : s * c->zh[kk];
    sep->zdi[k] = s * c->zdi[kk];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The x and y BCs from the kinds of their end rows (periodic without ends; the one y point of
   a 2D DMDA has no coupling: Neumann, as a 2D PPEGrid stores it), the locations
   and whether the operator is singular. A periodic direction has no end to read its location
   from: it takes that of the first direction with ends among x and y, else z's (vertex when a
   z face has identity rows). */
static void FillBoundaries(PPEInferCtx *c, PetscBool zextra, PPESeparable *sep)
{
  PetscBool   xyD = PETSC_FALSE;
  PPELocation def = (c->ident[4] || c->ident[5]) ? PPE_LOCATION_VERTEX : PPE_LOCATION_CELL, zloc = def;

  for (PetscInt d = 0; d < 2; d++) {
    if (c->per[d]) sep->bc[2 * d] = sep->bc[2 * d + 1] = PPE_BC_PERIODIC;
    else
      for (PetscInt t = 0; t < 2; t++) {
        PPEInferEnd e      = c->end[2 * d + t];
        sep->bc[2 * d + t] = (e == PPE_INFER_END_CELL_DIRICHLET || e == PPE_INFER_END_VERTEX_DIRICHLET) ? PPE_BC_DIRICHLET : PPE_BC_NEUMANN;
        if (sep->bc[2 * d + t] == PPE_BC_DIRICHLET) xyD = PETSC_TRUE;
      }
  }
  for (PetscInt d = 1; d >= 0; d--)
    if (!c->per[d]) def = PPEInferEndLocation(c->end[2 * d]);
  for (PetscInt d = 0; d < 2; d++) sep->loc[d] = c->per[d] ? def : PPEInferEndLocation(c->end[2 * d]);
  sep->loc[2] = zloc == PPE_LOCATION_VERTEX ? zloc : def;
  if (c->flat) sep->bc[2] = sep->bc[3] = PPE_BC_NEUMANN; /* the one y point of a 2D DMDA's box view */
  sep->singular = (PetscBool)(!xyD && sep->bc[4] != PPE_BC_DIRICHLET && sep->bc[5] != PPE_BC_DIRICHLET && c->sigma == 0 && !zextra);
}

/* The row-scale vector (1/s times the rows' scalings, 1 outside the box; destroyed when it is
   1 everywhere: *uniform) and the identity-row vector (when a face has identity rows), and
   whether the row scaling depends on z only (*zonly). */
static PetscErrorCode FillVectors(PPEInferCtx *c, DM da, PetscReal s, PPESeparable *sep, PetscBool *uniform, PetscBool *zonly)
{
  PetscReal   *pmin, *pmax, *gmin, *gmax, devloc = 0, devmax;
  PetscScalar *rs, *id = NULL;
  PetscInt     nid = 0;
  PetscMPIInt  nz;

  PetscFunctionBegin;
  PetscCall(PetscCalloc4(c->M[2], &pmin, c->M[2], &pmax, c->M[2], &gmin, c->M[2], &gmax));
  for (PetscInt k = 0; k < c->M[2]; k++) pmin[k] = PETSC_MAX_REAL;
  for (PetscInt f = 0; f < 6; f++) nid += c->ident[f];
  PetscCall(DMCreateGlobalVector(da, &sep->rowscale));
  PetscCall(VecGetArray(sep->rowscale, &rs));
  if (nid) {
    PetscCall(DMCreateGlobalVector(da, &sep->idiag));
    PetscCall(VecGetArray(sep->idiag, &id));
  }
  for (PetscInt k = c->s[2]; k < c->s[2] + c->m[2]; k++)
    for (PetscInt j = c->s[1]; j < c->s[1] + c->m[1]; j++)
      for (PetscInt i = c->s[0]; i < c->s[0] + c->m[0]; i++) {
        PetscInt  l     = PPEInferLocalIndex(c, i, j, k);
        PetscBool inbox = (PetscBool)(PPEInferInBox(c, 0, i) && PPEInferInBox(c, 1, j) && PPEInferInBox(c, 2, k));
        if (inbox) {
          PetscReal r = c->r[l] / s;
          rs[l]       = r;
          pmin[k]     = PetscMin(pmin[k], r);
          pmax[k]     = PetscMax(pmax[k], r);
          devloc      = PetscMax(devloc, PetscAbsReal(r - 1));
          if (id) id[l] = 0;
        } else {
          rs[l] = 1;
          if (id) id[l] = c->row[l].diag;
        }
      }
  PetscCall(VecRestoreArray(sep->rowscale, &rs));
  if (id) PetscCall(VecRestoreArray(sep->idiag, &id));
  PetscCall(PetscMPIIntCast(c->M[2], &nz));
  PetscCall(MPIU_Allreduce(pmin, gmin, nz, MPIU_REAL, MPIU_MIN, c->comm));
  PetscCall(MPIU_Allreduce(pmax, gmax, nz, MPIU_REAL, MPIU_MAX, c->comm));
  PetscCall(MPIU_Allreduce(&devloc, &devmax, 1, MPIU_REAL, MPIU_MAX, c->comm));
  *uniform = (PetscBool)(devmax <= PPE_INFER_ROUND);
  *zonly   = PETSC_TRUE;
  for (PetscInt k = c->lo[2]; k < c->lo[2] + c->n[2]; k++)
    if (gmax[k] - gmin[k] > PPE_INFER_ROUND * gmax[k]) *zonly = PETSC_FALSE;
  PetscCall(PetscFree4(pmin, pmax, gmin, gmax));
  if (*uniform) PetscCall(VecDestroy(&sep->rowscale)); /* NULL means 1 */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The one-line summary of the description (sep->how) and how exact it is. */
static PetscErrorCode FillSummary(PPEInferCtx *c, const char *mtype, PetscBool uniform, PetscBool zonly, PPESeparable *sep)
{
  char        bcs[7], locs[64], idf[64] = "";
  const char *rsv = uniform ? "uniform" : (zonly ? "varies in z" : "varies");
  PetscInt    nid = 0;

  PetscFunctionBegin;
  for (PetscInt f = 0; f < 6; f++) nid += c->ident[f];
  for (PetscInt f = 0; f < 6; f++) bcs[f] = "PND"[sep->bc[f] == PPE_BC_PERIODIC ? 0 : (sep->bc[f] == PPE_BC_NEUMANN ? 1 : 2)];
  bcs[6] = 0;
  if (c->flat && sep->loc[0] == sep->loc[2]) PetscCall(PetscSNPrintf(locs, sizeof(locs), "2D (the nx x 1 x ny box), %s-centred", sep->loc[0] == PPE_LOCATION_CELL ? "cell" : "vertex"));
  else if (sep->loc[0] == sep->loc[1] && sep->loc[1] == sep->loc[2]) PetscCall(PetscSNPrintf(locs, sizeof(locs), "%s-centred", sep->loc[0] == PPE_LOCATION_CELL ? "cell" : "vertex"));
  else PetscCall(PetscSNPrintf(locs, sizeof(locs), "x %s, y %s, z %s", PPELocations[sep->loc[0]], PPELocations[sep->loc[1]], PPELocations[sep->loc[2]]));
  if (nid) {
    PetscCall(PetscStrlcat(idf, " (identity rows on", sizeof(idf)));
    for (PetscInt f = 0; f < 6; f++)
      if (c->ident[f]) {
        PetscCall(PetscStrlcat(idf, " ", sizeof(idf)));
        PetscCall(PetscStrlcat(idf, PPEInferFaceNames[f], sizeof(idf)));
      }
    PetscCall(PetscStrlcat(idf, ")", sizeof(idf)));
  }
  sep->source = (c->approx && c->misfit > PPE_INFER_RTOL) ? PPE_SEPARABLE_APPROXIMATE : PPE_SEPARABLE_INFERRED;
  sep->misfit = sep->source == PPE_SEPARABLE_APPROXIMATE ? c->misfit : 0;
  if (sep->source == PPE_SEPARABLE_APPROXIMATE)
    PetscCall(PetscSNPrintf(sep->how, sizeof(sep->how), "nearest separable operator to %s entries (misfit %.3g): %s, BCs %s%s, rowscale %s, %" PetscInt_FMT " rows", mtype, (double)c->misfit, locs, bcs, idf, rsv, c->nchecked));
  else PetscCall(PetscSNPrintf(sep->how, sizeof(sep->how), "inferred from %s entries: %s, BCs %s%s, rowscale %s, checked %" PetscInt_FMT " rows exactly (max rel. dev. %.1e)", mtype, locs, bcs, idf, rsv, c->nchecked, (double)c->misfit));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rescale to rowscale 1 at the reference row; fill the description. */
PetscErrorCode PPEInferFinish(PPEInferCtx *c, DM da, const char *mtype, PetscBool zextra, PPESeparable *sep)
{
  PetscReal s;
  PetscBool uniform = PETSC_FALSE, zonly = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(ReferenceScale(c, &s));
  PetscCall(FillCoefficients(c, s, sep));
  FillBoundaries(c, zextra, sep);
  PetscCall(FillVectors(c, da, s, sep, &uniform, &zonly));
  PetscCall(FillSummary(c, mtype, uniform, zonly, sep));
  PetscFunctionReturn(PETSC_SUCCESS);
}
