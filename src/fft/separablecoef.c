/*
   Operator inference, the coefficients (the method is in separableinfer.c): the row scaling a
   row's couplings imply, the y coefficient and the z rows of every plane (step 3), the shift,
   the z rows without it and the z boundary conditions (step 5).
*/
#include <ppekit/private/separableimpl.h>

/* Row scaling (x coefficient 1) implied by the couplings of direction e of a row interior in e. */
PetscErrorCode PPEInferScaleFrom(PPEInferCtx *c, const PPEInferRow *w, PetscInt e, PetscReal ce, PetscInt i, PetscInt j, PetscInt k, PetscReal *r)
{
  PetscFunctionBegin;
  *r = -(w->nb[2 * e] + w->nb[2 * e + 1]) / (2 * ce);
  PetscCheck(*r > 0 || c->approx, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "Operator inference: row (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT
             ") couples to its %s neighbours with %g and %g: a zero or negative row scaling (couplings of a -Lap operator are negative). Use %s for the nearest separable operator",
             i, j, k, PPEInferDirNames[e], (double)w->nb[2 * e], (double)w->nb[2 * e + 1], PPEInferApproxOption(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Step 3 on this rank's rows: sums for c1 and the per-plane z data. */
static PetscErrorCode InferPlanesLocal(PPEInferCtx *c, PetscReal *acc)
{
  PetscInt M2 = c->M[2];

  PetscFunctionBegin;
  for (PetscInt k = c->s[2]; k < c->s[2] + c->m[2]; k++) {
    if (!PPEInferInBox(c, 2, k)) continue;
    for (PetscInt j = c->s[1]; j < c->s[1] + c->m[1]; j++)
      for (PetscInt i = c->s[0]; i < c->s[0] + c->m[0]; i++) {
        const PPEInferRow *w = &c->row[PPEInferLocalIndex(c, i, j, k)];
        PetscReal          rx;
        PetscBool          ref = (PetscBool)(i == c->lo[0] + 1 && j == PPEInferJRef(c));

        if (!PPEInferInterior(c, 0, i) || !PPEInferInterior(c, 1, j) || !PPEInferInBox(c, 0, i) || !PPEInferInBox(c, 1, j)) continue;
        if (!c->approx && !ref) continue;
        PetscCall(PPEInferScaleFrom(c, w, 0, 1.0, i, j, k, &rx));
        if (!(rx > 0)) continue;
        if (c->approx || k == c->kref) {
          acc[0] += (w->nb[2] + w->nb[3]) / (w->nb[0] + w->nb[1]);
          acc[1] += 1;
        }
        acc[2 + k] += w->diag / rx;
        acc[2 + M2 + k] += (k == c->lo[2] && !c->per[2]) ? 0 : -w->nb[4] / rx;
        acc[2 + 2 * M2 + k] += (k == c->lo[2] + c->n[2] - 1 && !c->per[2]) ? 0 : -w->nb[5] / rx;
        acc[2 + 3 * M2 + k] += 1;
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Step 3: c1 and the per-plane z data, summed over the ranks. */
PetscErrorCode PPEInferPlanes(PPEInferCtx *c)
{
  PetscInt    M2 = c->M[2];
  PetscReal  *acc, *all;
  PetscMPIInt nacc;

  PetscFunctionBegin;
  PetscCall(PetscCalloc2(2 + 4 * M2, &c->acc, 2 + 4 * M2, &c->all));
  acc = c->acc;
  all = c->all;
  PPEInferCollective(c, InferPlanesLocal(c, acc));
  PetscCall(PetscMPIIntCast(2 + 4 * M2, &nacc));
  PetscCall(MPIU_Allreduce(acc, all, nacc, MPIU_REAL, MPIU_SUM, c->comm));
  PetscCheck(all[1] > 0, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference: no row interior in x and y has negative x couplings");
  c->c1 = c->flat ? 0 : all[0] / all[1]; /* 2D: no y coupling */
  PetscCheck(c->flat || c->c1 > 0, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference: the y couplings have the wrong sign (ratio to the x couplings %g): not a -Lap type operator", (double)c->c1);
  for (PetscInt k = c->lo[2]; k < c->lo[2] + c->n[2]; k++) {
    PetscReal cnt = all[2 + 3 * M2 + k];
    PetscCheck(cnt > 0, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference: no usable row interior in x and y on z plane %" PetscInt_FMT, k);
    c->zd[k] = all[2 + k] / cnt - 2 - 2 * c->c1;
    c->zl[k] = all[2 + M2 + k] / cnt;
    c->zh[k] = all[2 + 2 * M2 + k] / cnt;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Step 5: sigma, the z rows without it, the z boundary conditions. */
/* Count the rows of each z plane whose entries do not sum to zero (ctx: M[2] counts). */
static PetscErrorCode CountNonzeroSums(PPEInferCtx *c, const PPEInferRow *w, const PetscInt x[3], void *ctx)
{
  PetscInt *cnt = (PetscInt *)ctx;
  PetscReal rs  = w->diag;

  PetscFunctionBegin;
  for (int f = 0; f < 6; f++) rs += w->nb[f];
  if (PetscAbsReal(rs) > 8 * PPE_INFER_ROUND * w->amax) cnt[x[2]]++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEInferZ(PPEInferCtx *c, PPESeparable *sep, PetscBool *zextra)
{
  PetscInt  lo = c->lo[2], hi = c->lo[2] + c->n[2] - 1, *nz = NULL;
  PetscReal scale = 2 + 2 * c->c1, tol, sigma = PETSC_MAX_REAL;
  PetscBool allzero = PETSC_TRUE;

  PetscFunctionBegin;
  if (c->approx) {
    /* The averaged coefficients of a non-separable matrix (variable coefficients) leave
       remainders in the z diagonals that are not shifts: a plane whose every row sums to zero
       (a flux form with no shift and no Dirichlet term: the pressure operator's Neumann walls
       and interior) is taken as such, whatever the averages say. */
    PetscCall(PetscCalloc1(c->M[2], &nz));
    PetscCall(PPEInferForEachRow(c, CountNonzeroSums, nz));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, nz, (PetscMPIInt)c->M[2], MPIU_INT, MPI_SUM, c->comm));
    for (PetscInt k = lo; k <= hi; k++)
      if (PPEInferInterior(c, 2, k) && nz[k]) allzero = PETSC_FALSE;
    /* averages per plane make the coupling of plane k to k+1 differ from that of k+1 to k:
       one value for both, so that the z operator (and the preconditioner made from it) stays
       symmetric */
    for (PetscInt k = lo; k < hi; k++) c->zh[k] = c->zl[k + 1] = 0.5 * (c->zh[k] + c->zl[k + 1]);
    if (c->per[2]) c->zh[hi] = c->zl[lo] = 0.5 * (c->zh[hi] + c->zl[lo]);
  }
  for (PetscInt k = lo; k <= hi; k++) scale = PetscMax(scale, PetscAbsReal(c->zd[k]) + c->zl[k] + c->zh[k]);
  tol = PPE_INFER_ROUND * scale;
  for (PetscInt k = lo; k <= hi; k++)
    if (PPEInferInterior(c, 2, k)) sigma = PetscMin(sigma, c->zd[k] - c->zl[k] - c->zh[k]);
  if (sigma == PETSC_MAX_REAL) sigma = 0; /* two z planes: no interior row tells the shift */
  if (PetscAbsReal(sigma) <= tol || (nz && allzero)) sigma = 0;
  c->sigma = sigma;
  *zextra  = PETSC_FALSE;
  for (PetscInt k = lo; k <= hi; k++) {
    PetscReal rs = c->zd[k] - c->zl[k] - c->zh[k] - sigma;
    /* zero row sums snap exactly, so that a singular operator is exactly singular */
    if (PetscAbsReal(rs) <= tol || (nz && !nz[k] && sigma == 0)) c->zdi[k] = c->zl[k] + c->zh[k];
    else {
      c->zdi[k] = c->zd[k] - sigma;
      if (PPEInferInterior(c, 2, k)) *zextra = PETSC_TRUE;
    }
  }
  if (c->per[2]) sep->bc[4] = sep->bc[5] = PPE_BC_PERIODIC;
  else {
    sep->bc[4] = PetscAbsReal(c->zdi[lo] - c->zl[lo] - c->zh[lo]) > tol ? PPE_BC_DIRICHLET : PPE_BC_NEUMANN;
    sep->bc[5] = PetscAbsReal(c->zdi[hi] - c->zl[hi] - c->zh[hi]) > tol ? PPE_BC_DIRICHLET : PPE_BC_NEUMANN;
  }
  PetscCall(PetscFree(nz));
  PetscFunctionReturn(PETSC_SUCCESS);
}
