/*
   The assembled twin of the stencil operator: same coefficients (from the same
   single-source function), stored in any matrix DMCreateMatrix() makes for the
   grid's DMDA (AIJ, hyprestruct, ...), for preconditioners that need entries; and the
   properties both forms share (symmetry, the constant null space of a singular grid).
*/
#include <ppekit/private/stencilimpl.h>

PetscErrorCode PPEStencilAssembleInto(PPEGrid grid, Mat B)
{
  PPEStencilBox B0;
  PetscBool     two = (PetscBool)(grid->dim == 2); /* B lives on the 2D DMDA: its j is the grid's z */

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_StencilAsm, B, 0, 0, 0));
  PetscCall(PPEStencilBoxSetUp(grid, &B0));
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
        ppe_s7_coef c    = ppe_s7_point_coef(B0.X, B0.Y, B0.Z, B0.sigma, i, j, k);
        PetscInt    idx[3] = {i, j, k};
        MatStencil  row = two ? (MatStencil){.k = 0, .j = k, .i = i} : (MatStencil){.k = k, .j = j, .i = i}, col[7];
        PetscScalar v[7];
        PetscReal   off[6] = {c.cw, c.ce, c.cs, c.cn, c.cb, c.ct};
        PetscInt    n      = 0;

        col[n] = row;
        v[n++] = c.c0;
        for (int f = 0; f < 6; f++) {
          int      d   = f / 2;
          PetscInt nbi = idx[d] + (f % 2 ? 1 : -1);
          if (!B0.per[d] && (nbi < 0 || nbi >= B0.N[d])) continue; /* no neighbour: boundary term is in the diagonal */
          col[n] = row;
          if (d == 0) col[n].i = nbi;
          else if (d == 1) col[n].j = nbi;
          else if (two) col[n].j = nbi;
          else col[n].k = nbi;
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
  DM      da, dstruct = NULL;
  MatType old;
  char   *saved = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PetscCall(PPEGridGetDM(grid, &da));
  if (type && grid->dim == 2) {
    /* PETSc's MATHYPRESTRUCT takes 3D DMDAs only, and tells a stencil entry by its offset in
       the ghosted local array, so that on the shadow nx x 1 x ny the y and z offsets coincide
       (the z couplings went into the y entries). On a 2D grid it is made on the 3D DMDA
       nx x ny x 1 with the 2D DMDA's ownership: the same layout (it multiplies the 2D vectors),
       and the 2D stencil indices (k = 0) of PPEStencilAssembleInto() */
    PetscBool isstruct;
    PetscCall(PetscStrcmp(type, MATHYPRESTRUCT, &isstruct));
    if (isstruct) {
      PetscInt         M, N, m, n, sw, one = 1;
      DMBoundaryType   bx, by;
      DMDAStencilType  st;
      const PetscInt  *lx, *ly;

      PetscCall(DMDAGetInfo(da, NULL, &M, &N, NULL, &m, &n, NULL, NULL, &sw, &bx, &by, NULL, &st));
      PetscCall(DMDAGetOwnershipRanges(da, &lx, &ly, NULL));
      PetscCall(DMDACreate3d(PetscObjectComm((PetscObject)da), bx, by, DM_BOUNDARY_NONE, st, M, N, 1, m, n, 1, 1, sw, lx, ly, &one, &dstruct));
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
  PetscCall(PPEStencilAssembleInto(grid, *A));
  PetscCall(PPEStencilAttachNullSpace(grid, *A));
  PetscFunctionReturn(PETSC_SUCCESS);
}
