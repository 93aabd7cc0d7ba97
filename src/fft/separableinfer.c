/*
   Operator inference: the separable description (include/ppekit/private/separableimpl.h) of an
   assembled 7-point matrix on a 3D DMDA, read from its entries.

   Method (docs/types/fftptdma-inference.md has the user's version):
     1. Read every owned row once (MatGetRow, global columns mapped to DMDA (i,j,k) through the
        ownership ranges) into its diagonal, its six star couplings and its largest entry off
        the star.
     2. Identity-row faces: a face whose rows (away from its edges) carry only a positive diagonal
        holds Dirichlet nodes assembled as scaled identity rows; the box of unknowns shrinks by
        one there.
     3. Coefficients, in units where the x coefficient is 1 (the row scaling r of a row then is
        minus its x coupling): c[1] from the y/x coupling ratio of a reference row interior in x
        and y; per z plane the z couplings and the diagonal remainder (z diagonal plus shift) of
        the reference row (lo+1, lo+1, k) of that plane.
     4. Each face of x and y from the rows on it that are interior in the other direction: the
        end row relative to its row scaling, [d, -o] with d from the diagonal remainder, is one
        of [1,-1] cell Neumann, [2,-2] vertex Neumann, [3,-1] cell Dirichlet, [2,-1] vertex
        Dirichlet. Both faces of a direction must agree on the location.
     5. z: the shift sigma is the smallest row sum of the z rows interior in z, the end rows with
        a larger row sum are Dirichlet; the singular case is recognised here.
     6. Row scaling of every row: the median of the scalings its entries imply (the diagonal over
        its model); then every entry of every owned row is checked against the model, to
        PPE_INFER_RTOL times the largest entry of the row. The first failing row (in natural
        ordering) is reported on every rank.
   With approximate = PETSC_TRUE, steps 3 and 4 average over all eligible rows instead of one
   reference row, ambiguous faces take the nearest kind, the row scaling comes from the diagonal
   alone, and the largest relative entry difference is kept as the misfit.

   Finally everything is rescaled so that the row scaling of the reference row
   (lo+1, lo+1, lo + n/2) is 1: c[0] is then the magnitude of that row's x coupling.
*/
#include <ppekit/private/separableimpl.h>
#include <petscdmda.h>

/* The context's arrays, freed also after an error. */
static PetscErrorCode InferReset(PPEInferCtx *c)
{
  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) PetscCall(PetscFree(c->off[d]));
  PetscCall(PetscFree(c->start));
  PetscCall(PetscFree(c->row));
  PetscCall(PetscFree2(c->acc, c->all));
  PetscCall(PetscFree5(c->zd, c->zl, c->zh, c->zdi, c->r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InferRun(PPEInferCtx *c, Mat A, DM da, const char *mtype, PPESeparable *sep)
{
  PetscBool zextra;

  PetscFunctionBegin;
  PetscCall(PPEInferSetUpLayout(c, A, da));
  PetscCall(PetscCalloc5(c->M[2], &c->zd, c->M[2], &c->zl, c->M[2], &c->zh, c->M[2], &c->zdi, c->nloc, &c->r));
  PetscCall(PPEInferReadRows(c, A));
  PetscCall(PPEInferCheckDiagonal(c));
  PetscCall(PPEInferBox(c));
  PetscCall(PPEInferPlanes(c));
  PetscCall(PPEInferFaces(c));
  PetscCall(PPEInferZ(c, sep, &zextra));
  PetscCall(PPEInferCheck(c));
  PetscCall(PPEInferFinish(c, da, mtype, zextra, sep));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPESeparableInferFromMat - infers the separable description of an assembled 7-point matrix
   on a 3D DMDA (dof 1, stencil width >= 1), checking every entry unless approximate is set.

   A may be AIJ (any AIJ subtype with MatGetRow), BAIJ or SBAIJ (converted to AIJ first).
   approxopt names how the caller asks for the approximation (PC fftptdma gives its option)
   in the errors that the approximation would avoid; NULL gives "approximate = PETSC_TRUE".
*/
PetscErrorCode PPESeparableInferFromMat(Mat A, DM da, PetscBool approximate, const char approxopt[], PPESeparable **sep)
{
  PPEInferCtx    c;
  Mat            B = NULL;
  MatType        type;
  PetscBool      isaij = PETSC_FALSE, isbaij = PETSC_FALSE, assembled;
  char           mtype[16], *aij             = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidHeaderSpecific(da, DM_CLASSID, 2);
  PetscCheck(sep, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null pointer for the description");
  *sep = NULL;
  PetscCall(MatGetType(A, &type));
  PetscCall(MatAssembled(A, &assembled));
  PetscCheck(assembled, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "Operator inference needs an assembled matrix");
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &isbaij, MATSEQBAIJ, MATMPIBAIJ, MATSEQSBAIJ, MATMPISBAIJ, ""));
  if (!isbaij) PetscCall(PetscStrstr(type, "aij", &aij)); /* AIJ and its subtypes */
  isaij = (PetscBool)(aij != NULL);
  PetscCheck(isaij || isbaij, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "Operator inference reads the entries of AIJ, BAIJ or SBAIJ matrices, not of type %s", type);
  PetscCall(PetscStrncpy(mtype, isbaij ? (strstr(type, "sbaij") ? "SBAIJ" : "BAIJ") : "AIJ", sizeof(mtype)));
  if (isbaij) PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &B));

  PetscCall(PetscLogEventBegin(PPE_SepInfer, A, 0, 0, 0));
  PetscCall(PetscMemzero(&c, sizeof(c)));
  c.comm      = PetscObjectComm((PetscObject)A);
  c.approx    = approximate;
  c.approxopt = approxopt;
  PetscCallMPI(MPI_Comm_rank(c.comm, &c.rank));
  PetscCallMPI(MPI_Comm_size(c.comm, &c.size));
  PetscCall(PetscNew(sep));
  ierr = InferRun(&c, B ? B : A, da, mtype, *sep);
  PetscCall(PetscLogEventEnd(PPE_SepInfer, A, 0, 0, 0));
  PetscCall(InferReset(&c));
  PetscCall(MatDestroy(&B));
  if (ierr) PetscCall(PPESeparableDestroy(sep)); /* not handed out */
  PetscCall(ierr);
  PetscCall(PetscInfo(A, "%s; c = (%g, %g), sigma %g, singular %s\n", (*sep)->how, (double)(*sep)->c[0], (double)(*sep)->c[1], (double)(*sep)->sigma, PetscBools[(*sep)->singular]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
