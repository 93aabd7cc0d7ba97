/*
   Coefficient sources of the tile ILU(0): the 7 entries of a row of the operator on the
   rank's box, from the grid of a matrix-free MATPPESTENCIL or from the rows of an
   assembled matrix on a DMDA (its local diagonal block: couplings to other ranks are
   dropped by block Jacobi anyway).
*/
#include <ppekit/private/tileiluimpl.h>
#include <ppekit/private/stencilimpl.h>

/* Box and periodicity from a 2D or 3D DMDA with one dof whose local size is n. A 2D DMDA is
   read as the kernels' 3D box nx x 1 x ny (PPEDMDAGetBox(): same ownership and ordering), so
   the tiles and the rows are those of the 3D code with a flat middle direction. */
static PetscErrorCode SourceSetBox(DM dm, PetscInt n, PPETileILUSource *src)
{
  PetscInt       dim, dof;
  DMBoundaryType bt[3];
  PPEDMDABox     b;

  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCheck(dim == 2 || dim == 3, PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP, "PC tileilu needs a 2D or 3D DMDA, got a %" PetscInt_FMT "D one", dim);
  src->dim = dim;
  PetscCall(DMDAGetInfo(dm, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &dof, NULL, NULL, NULL, NULL, NULL));
  PetscCheck(dof == 1, PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP, "PC tileilu needs a DMDA with one degree of freedom per point, got %" PetscInt_FMT, dof);
  PetscCall(PPEDMDAGetBox(dm, &b));
  for (int d = 0; d < 3; d++) src->N[d] = b.N[d], src->s[d] = b.s[d], src->m[d] = b.m[d], bt[d] = b.bt[d];
  if (src->m[0] * src->m[1] * src->m[2] != n) { /* a 2D box has m[1] = 1 */
    char box[96];

    PetscCall(PPETileILUFormat(dim, NULL, src->m, box, sizeof(box)));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PC tileilu: the operator has %" PetscInt_FMT " local rows but the DMDA box of this rank has %s points (a %" PetscInt_FMT "D DMDA)", n, box, dim);
  }
  for (int d = 0; d < 3; d++) src->per[d] = (PetscBool)(bt[d] == DM_BOUNDARY_PERIODIC);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A point of the box (the kernels' 3D indices) as the user names it: (i,j,k), or (i,j) in 2D. */
PetscErrorCode PPETileILUSourcePoint(const PPETileILUSource *src, PetscInt i, PetscInt j, PetscInt k, char buf[], size_t len)
{
  const PetscInt p[3] = {i, j, k};
  int            dir[3], nd = PPETileILUUserDirs(src->dim, dir);

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(buf, "(", len));
  for (int u = 0; u < nd; u++) {
    char one[32];

    PetscCall(PetscSNPrintf(one, sizeof(one), "%" PetscInt_FMT "%s", p[dir[u]], u + 1 < nd ? "," : ")"));
    PetscCall(PetscStrlcat(buf, one, len));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPETileILUSourceCreate - the coefficient source of an operator: MATPPESTENCIL (from its
   grid), or an assembled matrix whose DMDA is attached (MatGetDM, as DMCreateMatrix() sets
   it) or given as dm (the PC's DM). Anything else is an error naming what was given.
*/
PetscErrorCode PPETileILUSourceCreate(Mat pmat, DM dm, PPETileILUSource *src)
{
  PetscBool isst, isda = PETSC_FALSE, issbaij;
  PetscInt  n;
  MPI_Comm  comm = PetscObjectComm((PetscObject)pmat);
  MatType   type;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(src, sizeof(*src)));
  PetscCall(MatGetLocalSize(pmat, &n, NULL));
  PetscCall(MatGetType(pmat, &type));
  PetscCall(PetscObjectTypeCompare((PetscObject)pmat, MATPPESTENCIL, &isst));
  if (isst) {
    PetscCall(PPEStencilGetGrid(pmat, &src->grid));
    PetscCheck(src->grid, comm, PETSC_ERR_ARG_WRONGSTATE, "PC tileilu: the MATPPESTENCIL operator has no grid (PPEStencilSetGrid())");
    src->K = ((Mat_PPEStencil *)pmat->data)->box.K; /* read during this set-up only */
    PetscCall(SourceSetBox(src->grid->da, n, src));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  {
    DM mdm = NULL;
    PetscCall(MatGetDM(pmat, &mdm));
    if (mdm) {
      PetscCall(PetscObjectTypeCompare((PetscObject)mdm, DMDA, &isda));
      if (isda) dm = mdm;
    }
    if (dm && !isda) PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
    PetscCheck(isda, comm, PETSC_ERR_SUP, "PC tileilu needs an operator on a 2D or 3D DMDA: a MATPPESTENCIL matrix, or an assembled matrix made by DMCreateMatrix() on a DMDA (or a DMDA given with PCSetDM()/KSPSetDM()); got a %s matrix %s", type,
               dm ? "and a DM that is not a DMDA" : "with no DM");
  }
  PetscCall(SourceSetBox(dm, n, src));
  PetscCall(PetscObjectBaseTypeCompareAny((PetscObject)pmat, &issbaij, MATSEQSBAIJ, MATMPISBAIJ, ""));
  PetscCheck(!issbaij, comm, PETSC_ERR_SUP, "PC tileilu reads whole rows of the operator: a %s matrix stores only their upper part; use an AIJ matrix or MATPPESTENCIL", type);
  PetscCall(MatGetDiagonalBlock(pmat, &src->mat));
  PetscCheck(src->mat->ops->getrow, comm, PETSC_ERR_SUP, "PC tileilu reads the coefficients with MatGetRow(), which a %s matrix does not support; use an AIJ matrix or MATPPESTENCIL", type);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPETileILUSourceGetRow - the entries of the row of local point (ii,jj,kk):
   a = {a_pp, a_pw, a_pe, a_ps, a_pn, a_pb, a_pt}, matrix entries (the negatives of the
   stencil coefficients), zero where the neighbour is not in the box. For an assembled
   matrix, bad[] receives a message (and the row is unusable) when the row has a nonzero
   entry at a point of the box that is not one of its 6 neighbours; bad[0] = 0 otherwise.
*/
PetscErrorCode PPETileILUSourceGetRow(const PPETileILUSource *src, PetscInt ii, PetscInt jj, PetscInt kk, double a[7], char bad[], size_t len)
{
  const PetscInt *m = src->m;

  PetscFunctionBegin;
  bad[0] = 0;
  for (int e = 0; e < 7; e++) a[e] = 0.0;
  if (src->grid) {
    PPEGrid     g = src->grid;
    ppe_s7_dir  X = {g->dir[0].w, g->dir[0].tlo, g->dir[0].thi, g->dir[0].d};
    ppe_s7_dir  Y = {g->dir[1].w, g->dir[1].tlo, g->dir[1].thi, g->dir[1].d};
    ppe_s7_dir  Z = {g->dir[2].w, g->dir[2].tlo, g->dir[2].thi, g->dir[2].d};
    ppe_s7_coef c;

    if (src->K.x) { /* variable coefficients: every face of the point (the diagonal sums them all), couplings in the box */
      const int e[6] = {1, 1, 1, 1, 1, 1};
      c              = ppe_s7_box_face_coef(&src->K, m[0], m[1], ii, jj, kk, ppe_s7_shift(X, Y, Z, g->shift, src->s[0] + ii, src->s[1] + jj, src->s[2] + kk), e);
    } else c = ppe_s7_point_coef(X, Y, Z, g->shift, src->s[0] + ii, src->s[1] + jj, src->s[2] + kk);

    a[0] = c.c0;
    if (ii > 0) a[1] = -c.cw;
    if (ii < m[0] - 1) a[2] = -c.ce;
    if (jj > 0) a[3] = -c.cs;
    if (jj < m[1] - 1) a[4] = -c.cn;
    if (kk > 0) a[5] = -c.cb;
    if (kk < m[2] - 1) a[6] = -c.ct;
  } else {
    PetscInt           p = ii + m[0] * (jj + m[1] * kk), nc, idx[3] = {ii, jj, kk};
    const PetscInt    *cols;
    const PetscScalar *vals;

    PetscCall(MatGetRow(src->mat, p, &nc, &cols, &vals));
    for (PetscInt l = 0; l < nc; l++) {
      PetscInt q = cols[l], qi[3], dd[3], dir = -1, side = 0, nz = 0;

      qi[0] = q % m[0];
      qi[1] = (q / m[0]) % m[1];
      qi[2] = q / (m[0] * m[1]);
      for (int d = 0; d < 3; d++) {
        dd[d] = qi[d] - idx[d];
        if (dd[d]) {
          nz++;
          dir  = d;
          side = dd[d];
        }
      }
      if (nz == 0) {
        a[0] += PetscRealPart(vals[l]);
        continue;
      }
      if (nz == 1 && (side == 1 || side == -1)) {
        a[1 + 2 * dir + (side > 0)] += PetscRealPart(vals[l]);
        continue;
      }
      /* a periodic wrap inside the box: a neighbour, but outside every tile */
      if (nz == 1 && src->per[dir] && m[dir] == src->N[dir] && (side == m[dir] - 1 || side == 1 - m[dir])) continue;
      if (vals[l] != 0.0) {
        char at[64], to[64];
        PetscCall(PPETileILUSourcePoint(src, src->s[0] + ii, src->s[1] + jj, src->s[2] + kk, at, sizeof(at)));
        PetscCall(PPETileILUSourcePoint(src, src->s[0] + qi[0], src->s[1] + qi[1], src->s[2] + qi[2], to, sizeof(to)));
        PetscCall(PetscSNPrintf(bad, len, "PC tileilu supports %d-point operators: the row of point %s has the nonzero %.3e at point %s, which is not one of its %d neighbours", 2 * (int)src->dim + 1, at, (double)PetscRealPart(vals[l]), to,
                                2 * (int)src->dim));
        break;
      }
    }
    PetscCall(MatRestoreRow(src->mat, p, &nc, &cols, &vals));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
