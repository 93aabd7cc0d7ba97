static const char help[] = "PC tileilu: bad input gets a PETSc error with a message that says what was\n\
wrong, raised on every rank: a zero pivot (naming the tile), an operator without a DMDA,\n\
two dofs per point, a matrix that is not 7-point, an SBAIJ matrix, tile sizes\n\
below 1. A tile larger than the box is clamped, not an error.\n\n";

#include <ppekit.h>
#include "tap.h"

/* Set up PC tileilu on (A, P) with the given tile shape and a DM for the PC (may be NULL);
   return the error code and its message instead of stopping. */
static PetscErrorCode TrySetUp(Mat P, DM dm, const PetscInt tile[3], PetscErrorCode *code, char msg[], size_t len)
{
  PC          pc;
  const char *specific = NULL;

  PetscFunctionBegin;
  msg[0] = 0;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)P), &pc));
  PetscCall(PCSetType(pc, PCTILEILU));
  PetscCall(PCSetOperators(pc, P, P));
  if (dm) PetscCall(PCSetDM(pc, dm));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *code = PCTileILUSetTile(pc, tile[0], tile[1], tile[2]);
  if (!*code) *code = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  if (*code) {
    PetscCall(PPEErrorMessage(*code, &specific));
    if (specific) PetscCall(PetscStrncpy(msg, specific, len));
  }
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Expect(MPI_Comm comm, const char what[], PetscErrorCode code, PetscErrorCode want, const char msg[], const char text[])
{
  PetscBool ok = (PetscBool)(code == want && strstr(msg, text) != NULL);

  PetscFunctionBegin;
  if (!ok) PetscCall(PetscSynchronizedPrintf(comm, "# [%d] got error %d: %s\n", PetscGlobalRank, (int)code, msg));
  PetscCall(PetscSynchronizedFlush(comm, PETSC_STDOUT));
  PetscCall(TapCheck(comm, ok, "%s: error %d on every rank with \"%s\" (rank 0 got %d \"%.200s\")", what, (int)want, text, (int)code, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The 7-point matrix of a 13x11x9 Dirichlet grid on a DMDA, assembled. */
static PetscErrorCode CreateGridMatrix(MPI_Comm comm, PPEGrid *g, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, g));
  PetscCall(PPEGridSetSizes(*g, 13, 11, 9));
  PetscCall(PPEGridSetBCString(*g, "DDDDDD"));
  PetscCall(PPEGridSetUp(*g));
  PetscCall(PPEStencilCreateAssembled(*g, MATAIJ, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A DMDA matrix with a constant stencil (7-point, or one extra diagonal coupling). */
static PetscErrorCode CreateDMDAMatrix(MPI_Comm comm, PetscInt dim, PetscInt dof, PetscBool extra, MatType type, DM *da, Mat *A)
{
  PetscInt s[3], m[3];

  PetscFunctionBegin;
  if (dim == 2) PetscCall(DMDACreate2d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 9, 8, PETSC_DECIDE, PETSC_DECIDE, dof, 1, NULL, NULL, da));
  else PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, extra ? DMDA_STENCIL_BOX : DMDA_STENCIL_STAR, 9, 8, 7, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, dof, 1, NULL, NULL, NULL, da));
  PetscCall(DMSetUp(*da));
  if (type) PetscCall(DMSetMatType(*da, type));
  PetscCall(DMCreateMatrix(*da, A));
  PetscCall(DMDAGetCorners(*da, &s[0], &s[1], &s[2], &m[0], &m[1], &m[2]));
  if (dim == 2) s[2] = 0, m[2] = 1;
  for (PetscInt k = s[2]; k < s[2] + m[2]; k++)
    for (PetscInt j = s[1]; j < s[1] + m[1]; j++)
      for (PetscInt i = s[0]; i < s[0] + m[0]; i++)
        for (PetscInt c = 0; c < dof; c++) {
          MatStencil  row  = {.k = k, .j = j, .i = i, .c = c}, col[2];
          PetscScalar v[2] = {6.0, -0.5};
          PetscInt    nc   = 1;
          col[0]           = row;
          if (extra && i > 0 && j > 0) { /* a coupling to (i-1, j-1): not 7-point */
            col[1]   = row;
            col[1].i = i - 1;
            col[1].j = j - 1;
            nc       = 2;
          }
          if (type && strstr(type, "sbaij") && nc == 2) nc = 1;
          PetscCall(MatSetValuesStencil(*A, 1, &row, nc, col, v, INSERT_VALUES));
        }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm       comm;
  PPEGrid        g;
  Mat            A;
  DM             da;
  PetscErrorCode code;
  char           msg[1024];
  const PetscInt tile[3] = {4, 4, 4}, big[3] = {1000, 2, 1000};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());

  /* zero pivot: the diagonal of point (4,0,0), the first point of the tile (1,0,0) of the
     rank that owns it (every split of 13x11x9 at 1, 2 and 4 ranks starts that rank at x = 0) */
  PetscCall(CreateGridMatrix(comm, &g, &A));
  {
    PetscInt s[3], m[3];
    PetscCall(PPEGridGetDM(g, &da));
    PetscCall(DMDAGetCorners(da, &s[0], &s[1], &s[2], &m[0], &m[1], &m[2]));
    if (s[0] == 0 && s[1] == 0 && s[2] == 0) {
      MatStencil row = {.k = 0, .j = 0, .i = 4};
      PetscCall(MatSetValuesStencil(A, 1, &row, 1, &row, (PetscScalar[]){0.0}, INSERT_VALUES));
    }
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(TrySetUp(A, NULL, tile, &code, msg, sizeof(msg)));
  PetscCall(Expect(comm, "zero pivot", code, PETSC_ERR_MAT_LU_ZRPVT, msg, "zero pivot 0.000e+00 in tile (1,0,0) of rank 0"));
  PetscCall(Expect(comm, "zero pivot, the point", code, PETSC_ERR_MAT_LU_ZRPVT, msg, "at point (4,0,0) whose diagonal entry is 0.000e+00"));
  /* the same matrix with 1x1x1 tiles (point Jacobi) fails at the same point, in tile (4,0,0) */
  PetscCall(TrySetUp(A, NULL, (const PetscInt[]){1, 1, 1}, &code, msg, sizeof(msg)));
  PetscCall(Expect(comm, "zero pivot, 1x1x1 tiles", code, PETSC_ERR_MAT_LU_ZRPVT, msg, "in tile (4,0,0) of rank 0"));
  /* a tile larger than the box in x and z is clamped: no error */
  PetscCall(MatDestroy(&A));
  PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &A));
  PetscCall(TrySetUp(A, NULL, big, &code, msg, sizeof(msg)));
  PetscCall(TapCheck(comm, (PetscBool)(code == 0), "tile 1000x2x1000 larger than the box: clamped, set up without error (%d)", (int)code));
  /* tile sizes below 1 */
  PetscCall(TrySetUp(A, NULL, (const PetscInt[]){0, 4, 4}, &code, msg, sizeof(msg)));
  PetscCall(Expect(comm, "tile 0x4x4", code, PETSC_ERR_ARG_OUTOFRANGE, msg, "tile sizes must be >= 1, got 0 x 4 x 4"));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));

  /* an assembled matrix without a DMDA */
  {
    PetscInt n = 40;
    PetscCall(MatCreateAIJ(comm, n, n, PETSC_DETERMINE, PETSC_DETERMINE, 1, NULL, 0, NULL, &A));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatShift(A, 1.0));
    PetscCall(TrySetUp(A, NULL, tile, &code, msg, sizeof(msg)));
    PetscCall(Expect(comm, "no DMDA", code, PETSC_ERR_SUP, msg, "PC tileilu needs an operator on a 2D or 3D DMDA"));
    PetscCall(Expect(comm, "no DMDA, what was given", code, PETSC_ERR_SUP, msg, "aij matrix with no DM"));
    PetscCall(MatDestroy(&A));
  }
  /* 2D DMDA; two dofs; not 7-point; SBAIJ */
  PetscCall(CreateDMDAMatrix(comm, 2, 1, PETSC_FALSE, NULL, &da, &A));
  PetscCall(TrySetUp(A, NULL, tile, &code, msg, sizeof(msg)));
  PetscCall(Expect(comm, "2D DMDA (supported: 2D tiles, t616)", code, 0, msg, ""));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(CreateDMDAMatrix(comm, 3, 2, PETSC_FALSE, NULL, &da, &A));
  PetscCall(TrySetUp(A, NULL, tile, &code, msg, sizeof(msg)));
  PetscCall(Expect(comm, "two dofs", code, PETSC_ERR_SUP, msg, "one degree of freedom per point, got 2"));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(CreateDMDAMatrix(comm, 3, 1, PETSC_TRUE, NULL, &da, &A));
  PetscCall(TrySetUp(A, NULL, tile, &code, msg, sizeof(msg)));
  PetscCall(Expect(comm, "box stencil", code, PETSC_ERR_SUP, msg, "supports 7-point operators: the row of point"));
  PetscCall(Expect(comm, "box stencil, the coupling", code, PETSC_ERR_SUP, msg, "which is not one of its 6 neighbours"));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(CreateDMDAMatrix(comm, 3, 1, PETSC_FALSE, MATSBAIJ, &da, &A));
  PetscCall(TrySetUp(A, NULL, tile, &code, msg, sizeof(msg)));
  PetscCall(Expect(comm, "SBAIJ", code, PETSC_ERR_SUP, msg, "stores only their upper part"));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  /* the DMDA given to the PC instead of the matrix: accepted */
  {
    Mat B;
    PetscCall(CreateDMDAMatrix(comm, 3, 1, PETSC_FALSE, NULL, &da, &A));
    PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &B)); /* a copy without the DM */
    PetscCall(TrySetUp(B, NULL, tile, &code, msg, sizeof(msg)));
    PetscCall(Expect(comm, "copy without its DMDA", code, PETSC_ERR_SUP, msg, "with no DM"));
    PetscCall(TrySetUp(B, da, tile, &code, msg, sizeof(msg)));
    PetscCall(TapCheck(comm, (PetscBool)(code == 0), "the same copy with the DMDA given by PCSetDM(): set up without error (%d)", (int)code));
    PetscCall(MatDestroy(&B));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
