/*
   The assembled twin of the stencil operator: same coefficients (from the same
   single-source function), stored in any matrix DMCreateMatrix() makes for the
   grid's DMDA (AIJ, hyprestruct, ...), for preconditioners that need entries; and the
   properties both forms share (symmetry, the constant null space of a singular grid).
*/
#include <ppekit/private/stencilimpl.h>

/* The MatStencil of the kernels' point idx on the grid's DMDA: the indices of its own
   directions (0 past its dimension). */
static MatStencil UserStencil(PetscInt dim, const PetscInt idx[3])
{
  PetscInt c[3] = {0, 0, 0};

  for (PetscInt u = 0; u < dim; u++) c[u] = idx[PPEGridKernelDir(dim, u)];
  return (MatStencil){.k = c[2], .j = c[1], .i = c[0]};
}

/* The entries of the operator of box Bx (the grid's own when NULL: constant coefficients) into
   B, a matrix of the grid's DMDA. */
PetscErrorCode PPEStencilAssembleInto(PPEGrid grid, const PPEStencilBox *Bx, Mat B)
{
  PPEStencilBox B0;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_StencilAsm, B, 0, 0, 0));
  if (Bx) B0 = *Bx;
  else PetscCall(PPEStencilBoxSetUp(grid, &B0));
  {
    /* PETSc 3.18's MatZeroEntries() for MATHYPRESTRUCT writes outside hypre's data box
       (AddressSanitizer: heap-buffer-overflow in hypre_StructMatrixClearBoxValues; an
       intermittent SEGV at 4^3 on 4 ranks, found by the option fuzzer). It is not needed
       there: every stencil entry inside the domain is inserted below, and the entries
       past a non-periodic boundary are never set, so they keep hypre's initial zeros. */
    PetscBool isstruct;
    PetscCall(PetscObjectTypeCompare((PetscObject)B, MATHYPRESTRUCT, &isstruct));
    if (!isstruct) PetscCall(MatZeroEntries(B));
  }
  for (PetscInt k = B0.zs; k < B0.zs + B0.zm; k++)
    for (PetscInt j = B0.ys; j < B0.ys + B0.ym; j++)
      for (PetscInt i = B0.xs; i < B0.xs + B0.xm; i++) {
        ppe_s7_coef c      = B0.K.x ? PPEStencilBoxFaceCoef(&B0, i - B0.xs, j - B0.ys, k - B0.zs) : ppe_s7_point_coef(B0.X, B0.Y, B0.Z, B0.sigma, i, j, k);
        PetscInt    idx[3] = {i, j, k};
        MatStencil  row    = UserStencil(grid->dim, idx), col[7];
        PetscScalar v[7];
        PetscReal   off[6] = {c.cw, c.ce, c.cs, c.cn, c.cb, c.ct};
        PetscInt    n      = 0;

        col[n] = row;
        v[n++] = c.c0;
        for (int f = 0; f < 6; f++) {
          int      d     = f / 2;
          PetscInt nb[3] = {i, j, k};
          nb[d]          = idx[d] + (f % 2 ? 1 : -1);
          if (!B0.per[d] && (nb[d] < 0 || nb[d] >= B0.N[d])) continue; /* no neighbour: boundary term is in the diagonal */
          col[n] = UserStencil(grid->dim, nb);
          v[n++] = -off[f];
        }
        PetscCall(MatSetValuesStencil(B, 1, &row, n, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscLogEventEnd(PPE_StencilAsm, B, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEStencilAttachNullSpace - marks an operator of the grid as symmetric (and positive
   definite when the grid is not singular) and attaches the constant null space (also as
   transpose null space, so that KSP projects the right-hand side) when it is singular

   Collective

   Level: intermediate
@*/
PetscErrorCode PPEStencilAttachNullSpace(PPEGrid grid, Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  if (grid->singular) {
    MatNullSpace nsp;
    PetscCall(MatNullSpaceCreate(PetscObjectComm((PetscObject)A), PETSC_TRUE, 0, NULL, &nsp));
    PetscCall(MatSetNullSpace(A, nsp));
    PetscCall(MatSetTransposeNullSpace(A, nsp));
    PetscCall(MatNullSpaceDestroy(&nsp));
  } else {
    PetscCall(MatSetOption(A, MAT_SPD, PETSC_TRUE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The assembled operator of the grid, with the coefficients of box Bx (NULL: constant). */
static PetscErrorCode CreateAssembled(PPEGrid grid, const PPEStencilBox *Bx, MatType type, Mat *A)
{
  DM      da, dstruct = NULL;
  MatType old;
  char   *saved = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PetscCall(PPEGridGetDM(grid, &da));
  if (type && grid->dim < 3) {
    /* PETSc's MATHYPRESTRUCT takes 3D DMDAs only ("Only support for 3d DMDA currently", its
       mhyp.c), and tells a stencil entry by its offset in the ghosted local array. On a grid
       of lower dimension it is made on a temporary 3D DMDA, the grid's DMDA with one-point
       directions appended (nx x ny x 1, the same ownership): the same layout, so that it
       multiplies the grid's vectors, and the stencil indices of UserStencil() (k = 0). */
    PetscBool isstruct;
    PetscCall(PetscStrcmp(type, MATHYPRESTRUCT, &isstruct));
    if (isstruct) {
      PetscInt        n[3] = {1, 1, 1}, p[3] = {1, 1, 1}, sw, one = 1;
      DMBoundaryType  bt[3] = {DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE};
      DMDAStencilType st;
      const PetscInt *own[3] = {&one, &one, &one};

      PetscCall(DMDAGetInfo(da, NULL, &n[0], &n[1], &n[2], &p[0], &p[1], &p[2], NULL, &sw, &bt[0], &bt[1], &bt[2], &st));
      PetscCall(DMDAGetOwnershipRanges(da, &own[0], &own[1], NULL));
      PetscCall(DMDACreate3d(PetscObjectComm((PetscObject)da), bt[0], bt[1], bt[2], st, n[0], n[1], n[2], p[0], p[1], p[2], 1, sw, own[0], own[1], own[2], &dstruct));
      PetscCall(DMSetUp(dstruct));
      da = dstruct;
    }
  }
  /* DMCreateMatrix() reads the DM's matrix type: set ours, put the caller's back. */
  PetscCall(DMGetMatType(da, &old));
  if (old) PetscCall(PetscStrallocpy(old, &saved));
  PetscCall(DMSetMatType(da, type ? type : MATAIJ));
  PetscCall(DMCreateMatrix(da, A));
  PetscCall(DMSetMatType(da, saved ? saved : MATAIJ));
  PetscCall(PetscFree(saved));
  PetscCall(DMDestroy(&dstruct)); /* (the matrix keeps its DM) */
  {
    PetscBool isaij;
    PetscCall(PetscObjectTypeCompareAny((PetscObject)*A, &isaij, MATSEQAIJ, MATMPIAIJ, ""));
    if (isaij) PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  }
  PetscCall(PPEStencilAssembleInto(grid, Bx, *A));
  PetscCall(PPEStencilAttachNullSpace(grid, *A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEStencilCreateAssembled - creates the assembled operator of a grid, identical in action
   to the matrix-free MATPPESTENCIL

   Collective

   Input Parameters:
+  grid - a set-up grid
-  type - matrix type DMCreateMatrix() supports on a DMDA (MATAIJ, MATHYPRESTRUCT, ...), or
          NULL for MATAIJ

   Output Parameter:
.  A - the assembled matrix, symmetric, with the constant null space when the grid is singular

   Level: beginner

.seealso: PPEStencilCreate(), MATPPESTENCIL
@*/
PetscErrorCode PPEStencilCreateAssembled(PPEGrid grid, MatType type, Mat *A)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PetscAssertPointer(A, 3);
  PetscCall(CreateAssembled(grid, NULL, type, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEStencilAssemble - creates the assembled twin of a MATPPESTENCIL operator, its variable
   coefficients included: the same action in a matrix that stores its entries

   Collective

   Input Parameters:
+  A     - a MATPPESTENCIL matrix
.  type  - matrix type DMCreateMatrix() supports on a DMDA (MATAIJ, MATHYPRESTRUCT, ...), or
           NULL for MATAIJ
-  reuse - MAT_INITIAL_MATRIX (create B) or MAT_REUSE_MATRIX (fill the B made by an earlier
           call with A's current coefficients)

   Output Parameter:
.  B - the assembled matrix, symmetric, with the constant null space when the grid is singular

   Notes:
   The twin does not follow later changes of A's coefficients: assemble again with
   MAT_REUSE_MATRIX after PPEStencilSetDensity() (its state increases, so PCs set up again).

   Level: beginner

.seealso: PPEStencilCreateAssembled(), PPEStencilSetDensity(), MATPPESTENCIL
@*/
PetscErrorCode PPEStencilAssemble(Mat A, MatType type, MatReuse reuse, Mat *B)
{
  Mat_PPEStencil *st;
  PetscBool       match;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(B, 3);
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATPPESTENCIL, &match));
  PetscCheck(match, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "PPEStencilAssemble() takes a %s matrix, not %s", MATPPESTENCIL, ((PetscObject)A)->type_name);
  st = (Mat_PPEStencil *)A->data;
  PetscCheck(st->grid, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "No grid: create the operator with PPEStencilCreate() or call PPEStencilSetGrid()");
  PetscCheck(reuse == MAT_INITIAL_MATRIX || reuse == MAT_REUSE_MATRIX, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "PPEStencilAssemble() takes MAT_INITIAL_MATRIX or MAT_REUSE_MATRIX");
  if (reuse == MAT_REUSE_MATRIX) {
    PetscInt m, n, M, N;
    PetscValidHeaderSpecific(*B, MAT_CLASSID, 4);
    PetscCall(MatGetLocalSize(*B, &m, &n));
    PetscCall(MatGetSize(*B, &M, &N));
    PetscCheck(m == A->rmap->n && n == A->cmap->n && M == A->rmap->N && N == A->cmap->N, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ,
               "PPEStencilAssemble() with MAT_REUSE_MATRIX needs a matrix of the operator's layout (made by an earlier MAT_INITIAL_MATRIX call)");
    PetscCall(PPEStencilAssembleInto(st->grid, &st->box, *B));
  } else PetscCall(CreateAssembled(st->grid, &st->box, type, B));
  PetscFunctionReturn(PETSC_SUCCESS);
}
