/*
   Operator inference, the faces (the method is in separableinfer.c): the identity-row faces
   and the box of unknowns (step 2), the kinds of the x and y faces from their end rows
   (step 4).
*/
#include <ppekit/private/separableimpl.h>

/* Fewest unknowns of the box: in x and y the reference rows (lo + 1) must be interior, in z a
   line of two rows is still a tridiagonal system. */
#define PPE_INFER_MIN_XY 3
#define PPE_INFER_MIN_Z  2

/* Step 2, one row: counted as an identity row or not, per face it lies on (away from the
   face's edges). cnt: per face (identity rows, other rows). */
static PetscErrorCode BoxRow(PPEInferCtx *c, const PPEInferRow *w, const PetscInt x[3], void *ctx)
{
  PetscInt *cnt    = (PetscInt *)ctx;
  PetscReal offmax = w->other;
  PetscBool id;

  PetscFunctionBegin;
  for (PetscInt f = 0; f < 6; f++) offmax = PetscMax(offmax, PetscAbsReal(w->nb[f]));
  id = (PetscBool)(offmax <= PPE_INFER_RTOL * w->diag);
  for (PetscInt f = 0; f < 6; f++) {
    PetscInt  d = f / 2, e1 = (d + 1) % 3, e2 = (d + 2) % 3;
    PetscBool onface = (PetscBool)(!c->per[d] && x[d] == (f % 2 ? c->M[d] - 1 : 0));
    /* face rows away from the face's edges */
    if (!onface) continue;
    if (!c->per[e1] && (x[e1] == 0 || x[e1] == c->M[e1] - 1)) continue;
    if (!c->per[e2] && (x[e2] == 0 || x[e2] == c->M[e2] - 1)) continue;
    cnt[2 * f + (id ? 0 : 1)]++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Step 2: identity-row faces and the box. */
PetscErrorCode PPEInferBox(PPEInferCtx *c)
{
  PetscInt cnt[12] = {0}, all[12];

  PetscFunctionBegin;
  PetscCall(PPEInferForEachRow(c, BoxRow, cnt));
  PetscCall(MPIU_Allreduce(cnt, all, 12, MPIU_INT, MPI_SUM, c->comm));
  for (PetscInt f = 0; f < 6; f++) {
    PetscInt nid = all[2 * f], nop = all[2 * f + 1];
    PetscCheck(c->approx || nid == 0 || nop == 0, c->comm, PETSC_ERR_ARG_INCOMP,
               "Operator inference: on face %s, %" PetscInt_FMT " rows are identity rows (a diagonal only: Dirichlet nodes) but %" PetscInt_FMT
               " rows couple to their neighbours; Dirichlet nodes must be identity rows on the whole face. Use %s for the nearest separable operator",
               PPEInferFaceNames[f], nid, nop, PPEInferApproxOption(c));
    c->ident[f] = (PetscBool)(nid > nop);
  }
  for (PetscInt d = 0; d < 3; d++) {
    c->lo[d] = c->ident[2 * d] ? 1 : 0;
    c->n[d]  = c->M[d] - c->ident[2 * d] - c->ident[2 * d + 1];
    if (d == 1 && c->flat) continue; /* the one y point of a 2D box */
    PetscCheck(c->n[d] >= (d < 2 ? PPE_INFER_MIN_XY : PPE_INFER_MIN_Z), c->comm, PETSC_ERR_ARG_SIZ, "Operator inference: %" PetscInt_FMT " unknowns in %s between the identity-row faces; at least %d are needed", c->n[d], PPEInferDirNames[d],
               d < 2 ? PPE_INFER_MIN_XY : PPE_INFER_MIN_Z);
  }
  c->kref = c->lo[2] + c->n[2] / 2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Step 4, one row: its end rows of the x and y faces it lies on, relative to its row scaling.
   acc: per face (o, d, count). */
static PetscErrorCode FaceRow(PPEInferCtx *c, const PPEInferRow *w, const PetscInt x[3], void *ctx)
{
  PetscReal *acc = (PetscReal *)ctx;

  PetscFunctionBegin;
  if (!PPEInferInBox(c, 0, x[0]) || !PPEInferInBox(c, 1, x[1]) || !PPEInferInBox(c, 2, x[2])) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt f = 0; f < 4; f++) {
    PetscInt  d = f / 2, e = 1 - d, end = (f % 2) ? c->lo[d] + c->n[d] - 1 : c->lo[d];
    PetscReal cd = d ? c->c1 : 1, ce = e ? c->c1 : 1, re;

    if (c->per[d] || x[d] != end || !PPEInferInterior(c, e, x[e])) continue;
    if (c->flat) { /* 2D: an x end row, scaled by its z couplings (rows interior in z; no y term in the diagonal) */
      PetscInt k = x[2];
      if (!c->approx && k != c->kref) continue;
      if (!PPEInferInterior(c, 2, k) || !(c->zl[k] + c->zh[k] > 0)) continue;
      PetscCall(PPEInferScaleFrom(c, w, 2, 0.5 * (c->zl[k] + c->zh[k]), x[0], x[1], x[2], &re));
      ce = 0;
    } else {
      if (!c->approx && (x[2] != c->kref || x[e] != c->lo[e] + 1)) continue;
      PetscCall(PPEInferScaleFrom(c, w, e, ce, x[0], x[1], x[2], &re));
    }
    if (!(re > 0)) continue;
    acc[3 * f] += -w->nb[2 * d + (f % 2 ? 0 : 1)] / (re * cd);
    acc[3 * f + 1] += (w->diag / re - 2 * ce - c->zd[x[2]]) / cd;
    acc[3 * f + 2] += 1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PPEInferEnd NearestEnd(PetscReal o, PetscReal d, PetscInt only_loc, PetscReal *dist)
{
  PPEInferEnd best = PPE_INFER_END_CELL_NEUMANN;
  *dist            = PETSC_MAX_REAL;
  for (PetscInt t = 0; t < 4; t++) {
    PetscReal dt = PetscAbsReal(o - PPEInferEndO[t]) + PetscAbsReal(d - PPEInferEndD[t]);
    if (only_loc >= 0 && (t == PPE_INFER_END_VERTEX_NEUMANN || t == PPE_INFER_END_VERTEX_DIRICHLET) != (only_loc == PPE_LOCATION_VERTEX)) continue;
    if (dt < *dist) {
      *dist = dt;
      best  = (PPEInferEnd)t;
    }
  }
  return best;
}

/* Step 4: kinds of the x and y faces. */
PetscErrorCode PPEInferFaces(PPEInferCtx *c)
{
  PetscReal acc[12] = {0}, all[12];

  PetscFunctionBegin;
  PPEInferCollective(c, PPEInferForEachRow(c, FaceRow, acc));
  PetscCall(MPIU_Allreduce(acc, all, 12, MPIU_REAL, MPIU_SUM, c->comm));
  for (PetscInt f = 0; f < 4; f++) {
    PetscReal o, d, dist;
    if (c->per[f / 2]) continue;
    PetscCheck(all[3 * f + 2] > 0, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference: no usable row on face %s", PPEInferFaceNames[f]);
    o         = all[3 * f] / all[3 * f + 2];
    d         = all[3 * f + 1] / all[3 * f + 2];
    c->end[f] = NearestEnd(o, d, -1, &dist);
    PetscCheck(c->approx || dist <= PPE_INFER_FTOL, c->comm, PETSC_ERR_ARG_WRONG,
               "Operator inference: the end rows of face %s read [%g, %g] relative to their row scaling, which is none of [1,-1] (cell "
               "Neumann), [2,-2] (vertex Neumann), [3,-1] (cell Dirichlet), [2,-1] (vertex Dirichlet). Use %s for the nearest separable operator",
               PPEInferFaceNames[f], (double)d, (double)-o, PPEInferApproxOption(c));
  }
  for (PetscInt d = 0; d < 2; d++) {
    if (c->per[d]) continue;
    if (PPEInferEndLocation(c->end[2 * d]) != PPEInferEndLocation(c->end[2 * d + 1])) {
      PetscReal o = all[6 * d + 3] / all[6 * d + 5], dd = all[6 * d + 4] / all[6 * d + 5], dist;
      PetscCheck(c->approx, c->comm, PETSC_ERR_ARG_INCOMP, "Operator inference: face %s has %s end rows but face %s has %s end rows: both faces of a direction must have the same location (cell or vertex). Use %s for the nearest separable operator",
                 PPEInferFaceNames[2 * d], PPEInferEndNames[c->end[2 * d]], PPEInferFaceNames[2 * d + 1], PPEInferEndNames[c->end[2 * d + 1]], PPEInferApproxOption(c));
      c->end[2 * d + 1] = NearestEnd(o, dd, PPEInferEndLocation(c->end[2 * d]), &dist);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
