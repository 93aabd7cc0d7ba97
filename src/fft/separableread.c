/*
   Operator inference, reading the matrix (the method is in separableinfer.c): the DMDA layout
   of the rows, every owned row read once, and the helpers that make a check collective.
*/
#include <ppekit/private/separableimpl.h>
#include <ppekit/private/gridimpl.h> /* PPEDMDAGetBox */
#include <petscdmda.h>

/* The DMDA layout of the rows: sizes, ownership, and the matrix distributed as the DMDA. */
PetscErrorCode PPEInferSetUpLayout(PPEInferCtx *c, Mat A, DM da)
{
  PetscInt        dim, dof, sw, Mm, Nm, rstart, rend;
  DMBoundaryType  bt[3];
  DMDAStencilType st;
  const PetscInt *lr[3];
  PetscBool       isda;
  PPEDMDABox      box; /* the kernels' 3D view: a 2D DMDA nx x ny is nx x 1 x ny */

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)da, DMDA, &isda));
  PetscCheck(isda, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference needs the matrix's DM to be a DMDA, not %s", ((PetscObject)da)->type_name);
  PetscCall(DMDAGetInfo(da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, &dof, &sw, NULL, NULL, NULL, &st));
  PetscCheck(dim >= 2, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference needs a 2D or 3D DMDA, not %" PetscInt_FMT "D", dim);
  PetscCall(PPEDMDAGetBox(da, &box));
  for (PetscInt d = 0; d < 3; d++) {
    c->M[d]  = box.N[d];
    c->pm[d] = box.P[d];
    c->s[d]  = box.s[d];
    c->m[d]  = box.m[d];
    bt[d]    = box.bt[d];
    lr[d]    = box.own[d];
  }
  PetscCheck(dof == 1, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference needs a DMDA with one dof per point, not %" PetscInt_FMT, dof);
  PetscCheck(sw >= 1, c->comm, PETSC_ERR_ARG_WRONG, "Operator inference needs a DMDA of stencil width at least 1, not %" PetscInt_FMT, sw);
  c->flat = (PetscBool)(c->M[1] == 1); /* a 2D DMDA seen as the box nx x 1 x ny (PPEDMDAGetBox) */
  for (PetscInt d = 0; d < 3; d++) {
    c->per[d] = (PetscBool)(bt[d] == DM_BOUNDARY_PERIODIC || (d == 1 && c->flat)); /* no y neighbour, no y face */
    if (d == 1 && c->flat) continue;
    PetscCheck(c->M[d] >= 3, c->comm, PETSC_ERR_ARG_SIZ, "Operator inference needs at least 3 DMDA points in %s, not %" PetscInt_FMT, PPEInferDirNames[d], c->M[d]);
  }
  PetscCall(MatGetSize(A, &Mm, &Nm));
  PetscCheck(Mm == Nm && Mm == c->M[0] * c->M[1] * c->M[2], c->comm, PETSC_ERR_ARG_SIZ, "Operator inference: the matrix is %" PetscInt_FMT " x %" PetscInt_FMT " but the DMDA has %" PetscInt_FMT " points", Mm, Nm, c->M[0] * c->M[1] * c->M[2]);
  c->nloc = c->m[0] * c->m[1] * c->m[2];
  for (PetscInt d = 0; d < 3; d++) {
    PetscCall(PetscMalloc1(c->pm[d] + 1, &c->off[d]));
    c->off[d][0] = 0;
    for (PetscInt p = 0; p < c->pm[d]; p++) c->off[d][p + 1] = c->off[d][p] + lr[d][p];
  }
  PetscCall(PetscMalloc1(c->size + 1, &c->start));
  c->start[0] = 0;
  for (PetscMPIInt r = 0; r < c->size; r++) {
    PetscInt rx = r % c->pm[0], ry = (r / c->pm[0]) % c->pm[1], rz = r / (c->pm[0] * c->pm[1]);
    c->start[r + 1] = c->start[r] + lr[0][rx] * lr[1][ry] * lr[2][rz];
  }
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  {
    PetscBool ok = (PetscBool)(rstart == c->start[c->rank] && rend == c->start[c->rank + 1]), all;
    PetscCall(MPIU_Allreduce(&ok, &all, 1, PPE_MPI_BOOL, MPI_LAND, c->comm));
    PetscCheck(all, c->comm, PETSC_ERR_ARG_SIZ, "Operator inference: the matrix's row distribution is not the DMDA's (create the matrix with DMCreateMatrix)");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (i,j,k) of a global (PETSc-ordered) index of the DMDA */
static void ColumnToIJK(const PPEInferCtx *c, PetscInt g, PetscInt ijk[3])
{
  PetscInt a = 0, b = c->size, r, rx, ry, rz, xm, ym, loc;

  if (g >= c->start[c->rank] && g < c->start[c->rank + 1]) a = c->rank;
  else {
    while (b - a > 1) {
      PetscInt mid = (a + b) / 2;
      if (c->start[mid] <= g) a = mid;
      else b = mid;
    }
  }
  r      = a;
  rx     = r % c->pm[0];
  ry     = (r / c->pm[0]) % c->pm[1];
  rz     = r / (c->pm[0] * c->pm[1]);
  xm     = c->off[0][rx + 1] - c->off[0][rx];
  ym     = c->off[1][ry + 1] - c->off[1][ry];
  loc    = g - c->start[r];
  ijk[0] = c->off[0][rx] + loc % xm;
  loc /= xm;
  ijk[1] = c->off[1][ry] + loc % ym;
  ijk[2] = c->off[2][rz] + loc / ym;
}

/* offset of a column index from the row index along d: -1, 0, 1, or 2 for anything else */
static inline PetscInt Offset(const PPEInferCtx *c, PetscInt d, PetscInt col, PetscInt x)
{
  PetscInt dl = col - x;
  if (c->per[d] && c->M[d] > 1) { /* not the one y point of a 2D box: every column is at offset 0 there */
    if (dl == c->M[d] - 1) dl = -1;
    else if (dl == 1 - c->M[d]) dl = 1;
  }
  return (dl >= -1 && dl <= 1) ? dl : 2;
}

/* Step 1: the owned rows. */
PetscErrorCode PPEInferReadRows(PPEInferCtx *c, Mat A)
{
  PetscInt  rstart, rend;
  PetscBool bad = PETSC_FALSE, anybad;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(PetscCalloc1(c->nloc, &c->row));
  for (PetscInt k = c->s[2]; k < c->s[2] + c->m[2]; k++)
    for (PetscInt j = c->s[1]; j < c->s[1] + c->m[1]; j++)
      for (PetscInt i = c->s[0]; i < c->s[0] + c->m[0]; i++) {
        PetscInt           l = PPEInferLocalIndex(c, i, j, k), ncols, x[3] = {i, j, k};
        const PetscInt    *cols;
        const PetscScalar *vals;
        PPEInferRow       *w = &c->row[l];

        PetscCall(MatGetRow(A, rstart + l, &ncols, &cols, &vals));
        for (PetscInt e = 0; e < ncols; e++) {
          PetscReal v = PetscRealPart(vals[e]);
          PetscInt  ijk[3], o[3], nz = 0, dir = -1;

          if (PetscIsInfOrNanReal(v)) bad = PETSC_TRUE;
          w->amax = PetscMax(w->amax, PetscAbsReal(v));
          if (cols[e] == rstart + l) {
            w->diag = v;
            continue;
          }
          ColumnToIJK(c, cols[e], ijk);
          for (PetscInt d = 0; d < 3; d++) {
            o[d] = Offset(c, d, ijk[d], x[d]);
            if (o[d]) {
              nz++;
              dir = d;
            }
          }
          if (nz == 1 && o[dir] != 2) w->nb[2 * dir + (o[dir] > 0)] = v;
          else if (PetscAbsReal(v) > w->other) {
            w->other = PetscAbsReal(v);
            for (PetscInt d = 0; d < 3; d++) w->ocol[d] = ijk[d];
          }
        }
        PetscCall(MatRestoreRow(A, rstart + l, &ncols, &cols, &vals));
      }
  PetscCall(MPIU_Allreduce(&bad, &anybad, 1, PPE_MPI_BOOL, MPI_LOR, c->comm));
  PetscCheck(!anybad, c->comm, PETSC_ERR_FP, "The matrix has Inf or NaN entries");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first row (natural order) over all ranks for which the predicate failed: key < 0 means
   none on this rank; returns the owner of the smallest key, or -1. */
PetscErrorCode PPEInferFirst(PPEInferCtx *c, PetscReal key, PetscReal *buf, PetscInt nbuf, PetscMPIInt *owner)
{
  struct {
    double v;
    int    r;
  } in, out;

  PetscFunctionBegin;
  in.v = key < 0 ? PETSC_MAX_REAL : (double)key;
  in.r = (int)c->rank;
  PetscCallMPI(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MINLOC, c->comm));
  *owner = out.v == PETSC_MAX_REAL ? -1 : (PetscMPIInt)out.r;
  if (*owner >= 0) {
    PetscMPIInt n;

    PetscCall(PetscMPIIntCast(nbuf, &n));
    PetscCallMPI(MPI_Bcast(buf, n, MPIU_REAL, *owner, c->comm));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Calls fn on every owned row, in the local order (i fastest), with its (i,j,k). */
PetscErrorCode PPEInferForEachRow(PPEInferCtx *c, PPEInferRowFn fn, void *ctx)
{
  PetscFunctionBegin;
  for (PetscInt k = c->s[2]; k < c->s[2] + c->m[2]; k++)
    for (PetscInt j = c->s[1]; j < c->s[1] + c->m[1]; j++)
      for (PetscInt i = c->s[0]; i < c->s[0] + c->m[0]; i++) {
        const PetscInt x[3] = {i, j, k};

        PetscCall(fn(c, &c->row[PPEInferLocalIndex(c, i, j, k)], x, ctx));
      }
  PetscFunctionReturn(PETSC_SUCCESS);
}
