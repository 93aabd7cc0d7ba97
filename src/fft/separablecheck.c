/*
   Operator inference, the checks of the entries (the method is in separableinfer.c): positive
   diagonals (step 1), and step 6: the row scaling of every row from its model, then every
   entry of every owned row against the model; the first failing row in natural order is
   reported on every rank.
*/
#include <ppekit/private/separableimpl.h>

/* Diagonals: positive everywhere (fatal in every mode). */
PetscErrorCode PPEInferCheckDiagonal(PPEInferCtx *c)
{
  PetscReal   key = -1, buf[4] = {0, 0, 0, 0};
  PetscMPIInt owner;

  PetscFunctionBegin;
  for (PetscInt k = c->s[2]; k < c->s[2] + c->m[2] && key < 0; k++)
    for (PetscInt j = c->s[1]; j < c->s[1] + c->m[1] && key < 0; j++)
      for (PetscInt i = c->s[0]; i < c->s[0] + c->m[0] && key < 0; i++) {
        const PPEInferRow *w = &c->row[PPEInferLocalIndex(c, i, j, k)];
        if (!(w->diag > 0)) {
          key    = PPEInferNaturalKey(c, i, j, k);
          buf[0] = (PetscReal)i, buf[1] = (PetscReal)j, buf[2] = (PetscReal)k, buf[3] = w->diag;
        }
      }
  PetscCall(PPEInferFirst(c, key, buf, 4, &owner));
  PetscCheck(owner < 0, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference: row (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ") has diagonal %g: every diagonal entry must be positive (a Laplacian-type operator, sign convention -Lap)",
             (PetscInt)buf[0], (PetscInt)buf[1], (PetscInt)buf[2], (double)buf[3]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Model of a box row in units of its row scaling: unit[0..5] the couplings (0: none or free),
   free[f] when the neighbour is an identity-row node, unit[6] the diagonal. */
static void RowModel(const PPEInferCtx *c, PetscInt i, PetscInt j, PetscInt k, PetscReal unit[7], PetscBool fr[6])
{
  PetscInt  x[3]  = {i, j, k};
  PetscReal cd[2] = {1, c->c1};

  unit[6] = c->sigma + c->zdi[k];
  for (PetscInt d = 0; d < 2; d++) {
    PetscInt lo = c->lo[d], hi = c->lo[d] + c->n[d] - 1;
    for (PetscInt s = 0; s < 2; s++) {
      PetscInt  f     = 2 * d + s;
      PetscBool atend = (PetscBool)(!c->per[d] && x[d] == (s ? hi : lo));
      fr[f]           = (PetscBool)(atend && c->ident[f]);
      if (atend) unit[f] = 0;
      else {
        /* the inward coupling of a vertex Neumann end row is doubled */
        PetscBool other_end = (PetscBool)(!c->per[d] && x[d] == (s ? lo : hi));
        unit[f]             = -cd[d] * ((other_end && c->end[2 * d + 1 - s] == PPE_INFER_END_VERTEX_NEUMANN) ? 2 : 1);
      }
    }
    if (c->per[d] || (x[d] > lo && x[d] < hi)) unit[6] += 2 * cd[d];
    else unit[6] += cd[d] * PPEInferEndD[c->end[2 * d + (x[d] == hi)]];
  }
  {
    PetscBool atlo = (PetscBool)(!c->per[2] && k == c->lo[2]), athi = (PetscBool)(!c->per[2] && k == c->lo[2] + c->n[2] - 1);
    fr[4]   = (PetscBool)(atlo && c->ident[4]);
    fr[5]   = (PetscBool)(athi && c->ident[5]);
    unit[4] = atlo ? 0 : -c->zl[k];
    unit[5] = athi ? 0 : -c->zh[k];
  }
}

/* median of at most 7 values (insertion sort) */
static inline PetscReal Median(PetscReal *v, PetscInt n)
{
  for (PetscInt a = 1; a < n; a++) {
    PetscReal t = v[a];
    PetscInt  b = a - 1;
    for (; b >= 0 && v[b] > t; b--) v[b + 1] = v[b];
    v[b + 1] = t;
  }
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A failure as reals for PPEInferFirst(), and back (indices are exact in a PetscReal). */
static void FailPack(const PPEInferFail *fl, PetscReal buf[PPE_INFER_FAIL_PACKED])
{
  const PetscInt ints[8] = {(PetscInt)fl->kind, fl->i, fl->j, fl->k, fl->nb, fl->ci, fl->cj, fl->ck};

  for (PetscInt q = 0; q < 8; q++) buf[q] = (PetscReal)ints[q];
  buf[8]  = fl->expected;
  buf[9]  = fl->found;
  buf[10] = fl->amax;
}

static void FailUnpack(const PetscReal buf[PPE_INFER_FAIL_PACKED], PPEInferFail *fl)
{
  fl->kind     = (PPEInferFailKind)(PetscInt)buf[0];
  fl->i        = (PetscInt)buf[1];
  fl->j        = (PetscInt)buf[2];
  fl->k        = (PetscInt)buf[3];
  fl->nb       = (PetscInt)buf[4];
  fl->ci       = (PetscInt)buf[5];
  fl->cj       = (PetscInt)buf[6];
  fl->ck       = (PetscInt)buf[7];
  fl->expected = buf[8];
  fl->found    = buf[9];
  fl->amax     = buf[10];
}

/* The expected (model) and found entries of row (i,j,k): the 6 couplings, the diagonal, the
   largest entry off the star; the row's scaling c->r[l] estimated on the way (the median of
   the estimates of its entries, or its diagonal's when approximating). *bad: the model's
   diagonal is not positive. */
static void RowEntries(PPEInferCtx *c, PetscInt i, PetscInt j, PetscInt k, PetscBool inbox, PetscReal exp[8], PetscReal fnd[8], PetscBool *bad)
{
  PetscInt           l = PPEInferLocalIndex(c, i, j, k);
  const PPEInferRow *w = &c->row[l];
  PetscReal          unit[7], est[7];
  PetscBool          fr[6];
  PetscInt           ne = 0;

  *bad = PETSC_FALSE;
  for (PetscInt f = 0; f < 6; f++) fnd[f] = w->nb[f];
  fnd[6] = w->diag;
  exp[7] = 0;
  fnd[7] = w->other;
  if (!inbox) { /* an identity row: nothing but the diagonal */
    for (PetscInt f = 0; f < 6; f++) exp[f] = 0;
    exp[6]  = w->diag;
    c->r[l] = 1;
    return;
  }
  RowModel(c, i, j, k, unit, fr);
  if (!(unit[6] > 0)) { /* only an approximation of a strange matrix gets here */
    *bad    = PETSC_TRUE;
    unit[6] = 1;
  }
  if (c->approx) c->r[l] = w->diag / unit[6];
  else {
    for (PetscInt f = 0; f < 6; f++)
      if (!fr[f] && unit[f] != 0) est[ne++] = w->nb[f] / unit[f];
    est[ne++] = w->diag / unit[6];
    c->r[l]   = Median(est, ne);
  }
  for (PetscInt f = 0; f < 6; f++) exp[f] = fr[f] ? w->nb[f] : c->r[l] * unit[f];
  exp[6] = c->r[l] * unit[6];
}

/* What failed, from the entry e of a row in or out of the box. */
static PPEInferFailKind FailKind(PetscInt e, PetscBool inbox)
{
  if (e == 7) return PPE_INFER_FAIL_OFFSTAR;
  if (!inbox) return PPE_INFER_FAIL_IDENTITY;
  return e == 6 ? PPE_INFER_FAIL_DIAGONAL : PPE_INFER_FAIL_COUPLING;
}

/* The error of the first failing row fl (on every rank). */
static PetscErrorCode FailError(PPEInferCtx *c, const PPEInferFail *fl)
{
  PetscInt    e = fl->nb, nbx[3] = {fl->i, fl->j, fl->k};
  const char *what, *hint;
  char        where[128];

  PetscFunctionBegin;
  if (e < 6) {
    nbx[e / 2] += (e % 2) ? 1 : -1;
    if (c->per[e / 2]) nbx[e / 2] = (nbx[e / 2] + c->M[e / 2]) % c->M[e / 2];
  }
  switch (fl->kind) {
  case PPE_INFER_FAIL_COUPLING:
    what = "coupling";
    hint = e < 4 ? "the x and y coefficients must be uniform up to the row scaling" : "the z couplings must be the same across each z plane up to the row scaling";
    break;
  case PPE_INFER_FAIL_DIAGONAL:
    what = "diagonal";
    hint = "the diagonal must be the sum of the couplings' model plus one shift per z plane";
    break;
  case PPE_INFER_FAIL_OFFSTAR:
    what = "entry off the 7-point stencil";
    hint = "only the diagonal and the six star neighbours may be nonzero";
    break;
  default:
    what = "off-diagonal entry of an identity row";
    hint = "rows on an identity-row (Dirichlet) face must have no off-diagonal entry";
  }
  if (e < 6) PetscCall(PetscSNPrintf(where, sizeof(where), "to the %s neighbour (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ")", PPEInferFaceNames[e], nbx[0], nbx[1], nbx[2]));
  else if (e == 6) PetscCall(PetscSNPrintf(where, sizeof(where), "(the diagonal)"));
  else PetscCall(PetscSNPrintf(where, sizeof(where), "to (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ")", fl->ci, fl->cj, fl->ck));
  SETERRQ(c->comm, PETSC_ERR_ARG_WRONG,
          "Operator inference: the matrix is not a separable 7-point operator: check of the %s failed at row (%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT
          "), entry %s: expected %.12g, found %.12g (largest entry of the row %g, tolerance %g relative); %s. Use %s for the nearest separable operator (a preconditioner for CG/GMRES)",
          what, fl->i, fl->j, fl->k, where, (double)fl->expected, (double)fl->found, (double)fl->amax, (double)PPE_INFER_RTOL, hint, PPEInferApproxOption(c));
}

/* Step 6: row scalings, then every entry. */
PetscErrorCode PPEInferCheck(PPEInferCtx *c)
{
  PetscReal    key = -1, misfit = 0, buf[PPE_INFER_FAIL_PACKED];
  PPEInferFail fl = {PPE_INFER_FAIL_NONE, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  PetscMPIInt  owner;
  PetscInt     nrows = 0, nbad = 0, nbadall;

  PetscFunctionBegin;
  for (PetscInt k = c->s[2]; k < c->s[2] + c->m[2]; k++)
    for (PetscInt j = c->s[1]; j < c->s[1] + c->m[1]; j++)
      for (PetscInt i = c->s[0]; i < c->s[0] + c->m[0]; i++) {
        const PPEInferRow *w     = &c->row[PPEInferLocalIndex(c, i, j, k)];
        PetscBool          inbox = (PetscBool)(PPEInferInBox(c, 0, i) && PPEInferInBox(c, 1, j) && PPEInferInBox(c, 2, k)), bad;
        PetscReal          tol = PPE_INFER_RTOL * w->amax, exp[8], fnd[8], worst = 0;
        PPEInferFail       cand = fl;

        nrows++;
        RowEntries(c, i, j, k, inbox, exp, fnd, &bad);
        if (bad) nbad++;
        for (PetscInt e = 0; e < 8; e++) {
          PetscReal diff = PetscAbsReal(fnd[e] - exp[e]);
          if (w->amax > 0) misfit = PetscMax(misfit, diff / w->amax);
          if (diff > tol && diff > worst && key < 0) {
            worst = diff;
            cand  = (PPEInferFail){FailKind(e, inbox), i, j, k, e, w->ocol[0], w->ocol[1], w->ocol[2], exp[e], fnd[e], w->amax};
          }
        }
        if (worst > 0 && key < 0) {
          key = PPEInferNaturalKey(c, i, j, k);
          fl  = cand;
        }
      }
  PetscCall(MPIU_Allreduce(&nbad, &nbadall, 1, MPIU_INT, MPI_SUM, c->comm));
  PetscCheck(!nbadall, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference: the separable model has a non-positive diagonal on %" PetscInt_FMT " rows (z planes with a negative remainder): no separable operator near this matrix", nbadall);
  PetscCall(MPIU_Allreduce(&misfit, &c->misfit, 1, MPIU_REAL, MPIU_MAX, c->comm));
  PetscCall(MPIU_Allreduce(&nrows, &c->nchecked, 1, MPIU_INT, MPI_SUM, c->comm));
  if (c->approx) PetscFunctionReturn(PETSC_SUCCESS);
  FailPack(&fl, buf);
  PetscCall(PPEInferFirst(c, key, buf, PPE_INFER_FAIL_PACKED, &owner));
  FailUnpack(buf, &fl);
  if (owner >= 0) PetscCall(FailError(c, &fl));
  PetscFunctionReturn(PETSC_SUCCESS);
}
