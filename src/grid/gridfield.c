/*
   PPEGrid queries after set-up, eigenvalue bounds of the 3D operator, and the
   fields a problem needs: sampled functions, right-hand sides with boundary
   data, error norms.
*/
#include <ppekit/private/gridimpl.h>

#define PPEGridCheckSetUp(g) PetscCheck((g)->setupcalled, PetscObjectComm((PetscObject)(g)), PETSC_ERR_ORDER, "Call PPEGridSetUp() first")

/* A getter of one member of the set-up grid's record of direction dir (0, 1[, 2] as the user
   numbers them; on a 2D grid, y is the kernels' z). The manual page stands above each use. */
#define GRID_DIR_GETTER(Name, T, v, field) \
  PetscErrorCode Name(PPEGrid grid, PetscInt dir, T *v) \
  { \
    PetscFunctionBegin; \
    PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1); \
    PetscAssertPointer(v, 3); \
    PPEGridCheckSetUp(grid); \
    PetscCall(PPEGridDirection(grid, dir, &dir)); \
    *v = grid->dir[dir].field; \
    PetscFunctionReturn(PETSC_SUCCESS); \
  }

/* A vector of the grid: as many local entries as this rank's box. */
static PetscErrorCode PPEGridCheckVec(PPEGrid grid, Vec v)
{
  PetscInt n, m = grid->box.m[0] * grid->box.m[1] * grid->box.m[2];

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCheck(n == m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The vector has %" PetscInt_FMT " local entries but this rank's box of the grid %" PetscInt_FMT ": give a global vector of the grid's DMDA", n, m);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   Bounds on the spectrum of A = sum_d (prod_{e != d} W_e) S_d + sigma W. The generalised
   eigenvalues of (A, W) are sigma + mu_x + mu_y + mu_z (mu_d the 1D eigenvalues). When
   W = I they are the eigenvalues of A (exact bounds). Otherwise
     lambda_min(A) >= Lambda_min(A, W) * min W     (Rayleigh quotient; on the complement of
                                                     the constants when singular)
     lambda_max(A) <= min(Lambda_max(A, W) * max W, Gershgorin).
*/
PetscErrorCode PPEGridComputeOperatorBounds(PPEGrid g)
{
  PetscReal gmin = g->shift, gmax = g->shift, g2 = PETSC_MAX_REAL, wmin[3], wmax[3], rmax[3];
  PetscBool unit = PETSC_TRUE;

  PetscFunctionBegin;
  for (int d = 0; d < 3; d++) {
    PPEGrid1d *o = &g->dir[d];
    gmin += o->eigmin;
    gmax += o->eigmax;
    g2      = PetscMin(g2, o->eigmin2);
    wmin[d] = wmax[d] = o->w[0];
    rmax[d]           = 0;
    for (PetscInt i = 0; i < o->n; i++) {
      wmin[d] = PetscMin(wmin[d], o->w[i]);
      wmax[d] = PetscMax(wmax[d], o->w[i]);
      rmax[d] = PetscMax(rmax[d], o->d[i] + o->tlo[i] + o->thi[i]);
      if (o->w[i] != 1.0) unit = PETSC_FALSE;
    }
  }
  if (g->singular) gmin = g2;
  g->bounds_exact = unit;
  if (unit) {
    g->lmin = gmin;
    g->lmax = gmax;
  } else {
    PetscReal Wmin = wmin[0] * wmin[1] * wmin[2], Wmax = wmax[0] * wmax[1] * wmax[2];
    PetscReal gersh = g->shift * Wmax;
    for (int d = 0; d < 3; d++) gersh += rmax[d] * wmax[(d + 1) % 3] * wmax[(d + 2) % 3];
    g->lmin = gmin * Wmin;
    g->lmax = PetscMin(gmax * Wmax, gersh);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridGetOperatorBounds - bounds on the eigenvalues of the grid's operator A

   Not Collective

   Output Parameters:
+  lmin - smallest eigenvalue (smallest nonzero one when the grid is singular), or a lower bound
.  lmax - largest eigenvalue, or an upper bound
-  exact - PETSC_TRUE when both are the exact extreme eigenvalues (W = I: uniform spacing and
           no vertex-centred Neumann face); otherwise they are safe bounds

   Level: intermediate

.seealso: PPEGridGetEigenvalues()
@*/
PetscErrorCode PPEGridGetOperatorBounds(PPEGrid grid, PetscReal *lmin, PetscReal *lmax, PetscBool *exact)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckSetUp(grid);
  if (lmin) *lmin = grid->lmin;
  if (lmax) *lmax = grid->lmax;
  if (exact) *exact = grid->bounds_exact;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridGetEigenvalues - the n eigenvalues of the 1D operator -d2/dx2 of direction dir
   (generalised eigenvalues of (S, W)), in wavenumber order on uniform directions (see
   PPEGridEigenvalues1d()), ascending on stretched ones

   Not Collective

   Level: intermediate
@*/
GRID_DIR_GETTER(PPEGridGetEigenvalues, const PetscReal *, lam, eig)

/*@
   PPEGridGetLines - the mesh lines of a direction: cell faces (cell-centred) or mesh nodes
   including boundary nodes (vertex-centred)

   Not Collective

   Level: intermediate
@*/
PetscErrorCode PPEGridGetLines(PPEGrid grid, PetscInt dir, PetscInt *n, const PetscReal *lines[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckSetUp(grid);
  PetscCall(PPEGridDirection(grid, dir, &dir)); /* 2D: y is the kernels' z */
  if (n) *n = grid->dir[dir].nint + 1;
  if (lines) *lines = grid->dir[dir].lines;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEGridGetNumLines(PPEGrid grid, PetscInt dir, PetscInt *n)
{
  PetscFunctionBegin;
  PetscCall(PPEGridGetLines(grid, dir, n, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridGetCoordinates - the n global coordinates of the unknowns along a direction

   Not Collective

   Level: intermediate
@*/
GRID_DIR_GETTER(PPEGridGetCoordinates, const PetscReal *, x, x)

/*@
   PPEGridGetWeights - the n weights (control-volume width / reference spacing) along a
   direction; W of the operator convention is their tensor product

   Not Collective

   Level: intermediate
@*/
GRID_DIR_GETTER(PPEGridGetWeights, const PetscReal *, w, w)

/*@
   PPEGridGetReferenceSpacing - L/nint along a direction: the spacing of x and y, the mean
   spacing of a stretched z

   Not Collective

   Level: intermediate
@*/
GRID_DIR_GETTER(PPEGridGetReferenceSpacing, PetscReal, h, href)

GRID_DIR_GETTER(PPEGridIsUniform, PetscBool, uniform, uniform)

/*@
   PPEGridIsSingular - whether the operator has the constant null space (no Dirichlet face
   and no shift)

   Not Collective

   Level: beginner
@*/
PPE_OBJ_GETTER(PPEGridIsSingular, PPEGrid, grid, PPEGRID_CLASSID, PetscBool, singular, PPEGridCheckSetUp(grid), grid->singular)

/*@
   PPEGridSampleField - sets u at every unknown to fn(x)

   Collective

   Input Parameters:
+  grid - the grid (set up)
.  fn - the function
-  ctx - its context

   Output Parameter:
.  u - a global vector of the grid's DMDA

   Level: intermediate
@*/
PetscErrorCode PPEGridSampleField(PPEGrid grid, PPEFieldFn fn, void *ctx, Vec u)
{
  const PPEDMDABox *B = &grid->box;
  PetscScalar      *a;
  PetscInt          l = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckSetUp(grid);
  PetscCall(PPEGridCheckVec(grid, u));
  PetscCall(VecGetArray(u, &a));
  for (PetscInt k = B->s[2]; k < B->s[2] + B->m[2]; k++)
    for (PetscInt j = B->s[1]; j < B->s[1] + B->m[1]; j++)
      for (PetscInt i = B->s[0]; i < B->s[0] + B->m[0]; i++) {
        PetscReal p[3] = {grid->dir[0].x[i], grid->dir[1].x[j], grid->dir[2].x[k]}, q[3];
        PetscCall(PPEGridUserPoint(grid, p, q));
        a[l++] = fn(q, ctx);
      }
  PetscCall(VecRestoreArray(u, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridComputeRHS - the right-hand side b of A u = b for -Lap u + sigma u = f with
   boundary data g, in the operator's scaling: b = W f + (boundary terms)

   Collective

   Input Parameters:
+  grid - the grid (set up)
.  f - the source term
.  g - boundary data: the value on Dirichlet faces, the outward normal derivative on Neumann
       faces (called at the boundary point: the face for cells, the node for vertices); NULL
       for homogeneous data
-  ctx - context of f and g

   Output Parameter:
.  b - a global vector of the grid's DMDA

   Level: intermediate

.seealso: PPEGridSampleField(), PPEStencilCreate()
@*/
PetscErrorCode PPEGridComputeRHS(PPEGrid grid, PPEFieldFn f, PPEBoundaryFn g, void *ctx, Vec b)
{
  const PPEDMDABox *B = &grid->box;
  PetscScalar      *a;
  PPEGrid1d        *D = grid->dir;
  PetscInt          l = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckSetUp(grid);
  PetscCall(PPEGridCheckVec(grid, b));
  PetscCall(VecGetArray(b, &a));
  for (PetscInt k = B->s[2]; k < B->s[2] + B->m[2]; k++)
    for (PetscInt j = B->s[1]; j < B->s[1] + B->m[1]; j++)
      for (PetscInt i = B->s[0]; i < B->s[0] + B->m[0]; i++) {
        PetscInt    idx[3] = {i, j, k};
        PetscReal   p[3]   = {D[0].x[i], D[1].x[j], D[2].x[k]};
        PetscReal   w[3]   = {D[0].w[i], D[1].w[j], D[2].w[k]}, pu[3];
        PetscScalar val;

        PetscCall(PPEGridUserPoint(grid, p, pu));
        val = w[0] * w[1] * w[2] * f(pu, ctx);
        /* the faces of the user's directions, in the kernels' order */
        for (PetscInt u = 0; g && u < grid->dim; u++) {
          PetscInt   d  = PPEGridKernelDir(grid->dim, u);
          PPEGrid1d *o  = &D[d];
          PetscReal  wo = w[(d + 1) % 3] * w[(d + 2) % 3];

          for (int side = 0; side < 2; side++) {
            PetscInt  end  = side ? o->n - 1 : 0;
            PPEBCType bc   = o->bc[side];
            PPEFace   face = (PPEFace)(2 * u + side);
            PetscReal q[3], qu[3];

            if (idx[d] != end || bc == PPE_BC_PERIODIC) continue;
            q[0] = p[0];
            q[1] = p[1];
            q[2] = p[2];
            q[d] = o->bpos[side];
            PetscCall(PPEGridUserPoint(grid, q, qu));
            if (bc == PPE_BC_DIRICHLET) {
              PetscReal dist = side ? o->bpos[1] - o->x[o->n - 1] : o->x[0] - o->bpos[0];
              val += wo / (o->href * dist) * g(face, qu, ctx);
            } else {
              val += wo / o->href * g(face, qu, ctx);
            }
          }
        }
        a[l++] = val;
      }
  PetscCall(VecRestoreArray(b, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridComputeErrorNorms - max and volume-weighted L2 norms of u - uexact; on a singular
   grid the mean of the difference is removed first (the solution is defined up to a constant)

   Collective

   Output Parameters:
+  emax - max |e|
-  el2 - sqrt(sum W e^2 / sum W)

   Level: intermediate
@*/
PetscErrorCode PPEGridComputeErrorNorms(PPEGrid grid, Vec u, Vec uex, PetscReal *emax, PetscReal *el2)
{
  Vec                e;
  PetscScalar        mean = 0;
  PetscInt           N, l = 0;
  const PPEDMDABox  *B = &grid->box;
  const PetscScalar *a;
  PetscReal          loc[3] = {0, 0, 0}, glob[3];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckSetUp(grid);
  PetscCall(PPEGridCheckVec(grid, u));
  PetscCall(VecDuplicate(u, &e));
  PetscCall(VecWAXPY(e, -1.0, uex, u));
  if (grid->singular) {
    PetscCall(VecSum(e, &mean));
    PetscCall(VecGetSize(e, &N));
    PetscCall(VecShift(e, -mean / N));
  }
  PetscCall(VecGetArrayRead(e, &a));
  for (PetscInt k = B->s[2]; k < B->s[2] + B->m[2]; k++)
    for (PetscInt j = B->s[1]; j < B->s[1] + B->m[1]; j++)
      for (PetscInt i = B->s[0]; i < B->s[0] + B->m[0]; i++) {
        PetscReal w = grid->dir[0].w[i] * grid->dir[1].w[j] * grid->dir[2].w[k];
        PetscReal v = PetscAbsScalar(a[l++]);
        loc[0]      = PetscMax(loc[0], v);
        loc[1] += w * v * v;
        loc[2] += w;
      }
  PetscCall(VecRestoreArrayRead(e, &a));
  PetscCall(VecDestroy(&e));
  PetscCall(MPIU_Allreduce(&loc[0], &glob[0], 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)grid)));
  PetscCall(MPIU_Allreduce(&loc[1], &glob[1], 2, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)grid)));
  if (emax) *emax = glob[0];
  if (el2) *el2 = PetscSqrtReal(glob[1] / glob[2]);
  PetscFunctionReturn(PETSC_SUCCESS);
}
