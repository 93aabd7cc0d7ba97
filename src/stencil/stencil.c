/*
   MATPPESTENCIL: the matrix-free 7-point operator of a PPEGrid.

   Method:
     A = W (sigma I - Lap_h) applied point by point from the grid's 1D tables
     (src/kernels/stencil7.h). MatMult overlaps the halo exchange with work:

       1. start the halo exchange (PetscSF broadcast of the owned values next to
          each neighbour into face buffers: 6 faces, no corners, no full copy),
       2. compute the core points (all neighbours owned or absent),
       3. finish the exchange,
       4. compute the surface points.

     -ppe_stencil_overlap 0 finishes the exchange before step 2; the results are
     bitwise identical because every point is computed by the same expression. Every
     application with the exchange (MatMult and the fused ones of stencillocal.c) runs
     this sequence through PPEStencilRunWithHalo() (stencildev.c).

   The operator is symmetric, so MatMultTranspose is MatMult.
*/
#include <ppekit/private/stencilimpl.h>
#include <ppekit/private/backendimpl.h>

/*
   The halo star forest: one leaf per value of the six face buffers, rooted at the owned
   value of the neighbouring rank (possibly this rank, across a periodic boundary).
*/
PetscErrorCode PPEStencilHaloSetUp(Mat A)
{
  Mat_PPEStencil   *st = (Mat_PPEStencil *)A->data;
  PPEStencilBox    *B  = &st->box;
  const PPEDMDABox *G;
  const PetscInt *P, *const *own;
  PetscInt    *start[3], nleaf = 0, off[7], m[3] = {B->xm, B->ym, B->zm}, s[3] = {B->xs, B->ys, B->zs};
  PetscSFNode *remote;
  PetscInt     any;

  PetscFunctionBegin;
  PetscCall(PPEGridGetBox(st->grid, &G)); /* the process grid and ownership in the kernels' 3D order */
  P   = G->P;
  own = G->own;
  for (int d = 0; d < 3; d++) {
    PetscCall(PetscMalloc1(P[d] + 1, &start[d]));
    start[d][0] = 0;
    for (PetscInt p = 0; p < P[d]; p++) start[d][p + 1] = start[d][p] + own[d][p];
  }
  for (int f = 0; f < 6; f++) {
    int d  = f / 2;
    off[f] = nleaf;
    if (B->nb[f]) nleaf += m[(d + 1) % 3] * m[(d + 2) % 3];
  }
  off[6] = nleaf;
  PetscCall(PetscMalloc1(nleaf, &remote));
  for (int f = 0; f < 6; f++) {
    int      d = f / 2, a = d == 0 ? 1 : 0, b = d == 2 ? 1 : 2; /* the two directions of the face, a faster */
    PetscInt g[3], l = off[f];

    if (!B->nb[f]) continue;
    g[d] = (f % 2 == 0) ? (s[d] - 1 + B->N[d]) % B->N[d] : (s[d] + m[d]) % B->N[d];
    for (PetscInt ib = s[b]; ib < s[b] + m[b]; ib++) {
      for (PetscInt ia = s[a]; ia < s[a] + m[a]; ia++, l++) {
        PetscInt p[3], lo[3], ext[3];
        g[a] = ia;
        g[b] = ib;
        for (int e = 0; e < 3; e++) {
          PetscInt q = 0;
          while (g[e] >= start[e][q + 1]) q++;
          p[e]   = q;
          lo[e]  = start[e][q];
          ext[e] = own[e][q];
        }
        remote[l].rank  = p[0] + P[0] * (p[1] + P[1] * p[2]);
        remote[l].index = (g[0] - lo[0]) + ext[0] * ((g[1] - lo[1]) + ext[1] * (g[2] - lo[2]));
      }
    }
  }
  for (int d = 0; d < 3; d++) PetscCall(PetscFree(start[d]));
  PetscCall(PetscSFDestroy(&st->sf));
  PetscCall(PetscSFCreate(PetscObjectComm((PetscObject)A), &st->sf));
  PetscCall(PetscSFSetGraph(st->sf, m[0] * m[1] * m[2], nleaf, NULL, PETSC_OWN_POINTER, remote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(st->sf));
  PetscCall(PetscFree(st->halo));
  PetscCall(PetscMalloc1(nleaf, &st->halo));
  st->nhalo = nleaf;
  for (int f = 0; f < 6; f++) st->faces.f[f] = B->nb[f] ? st->halo + off[f] : NULL;
  PetscCall(MPIU_Allreduce(&nleaf, &any, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)A)));
  st->has_halo = (PetscBool)(any > 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEStencilStateSetUp - the state of A's applications (tables and face buffers in the memory of
   its back end) made for its grid and back end, and that of its rank-local block if it has one:
   at set-up, so that the first application costs what the others do
*/
PetscErrorCode PPEStencilStateSetUp(Mat A)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;

  PetscFunctionBegin;
  PetscCall(PPEStencilDevDestroy(&st->state));
  if (!st->grid) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PPEStencilDevCreate(st->backend, &st->box, &st->faces, st->halo, (size_t)st->nhalo, &st->state));
  PetscCall(PPEStencilLocalStateSetUp(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An application R of the full operator A (a Mat), around the halo exchange. */
static PetscErrorCode RunFull(void *A, PPEStencilRun *R)
{
  PetscFunctionBegin;
  PetscCall(PPEStencilRunWithHalo((Mat)A, R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_PPEStencil(Mat A, Vec x, Vec y)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;

  PetscFunctionBegin;
  PetscCheck(st->grid, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "No grid: create the operator with PPEStencilCreate() or call PPEStencilSetGrid()");
  PetscCall(PetscLogEventBegin(PPE_StencilMult, A, x, y, 0));
  PetscCall(PPEStencilApply(st->state, st->backend, x, y, RunFull, A, PPE_STENCIL_FLOPS(&st->box) * st->box.xm * st->box.ym * st->box.zm));
  PetscCall(PetscLogEventEnd(PPE_StencilMult, A, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultAdd_PPEStencil(Mat A, Vec x, Vec z, Vec y)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;

  PetscFunctionBegin;
  if (y == z) {
    if (!st->work) PetscCall(VecDuplicate(y, &st->work));
    PetscCall(MatMult_PPEStencil(A, x, st->work));
    PetscCall(VecAXPY(y, 1.0, st->work));
  } else {
    PetscCall(MatMult_PPEStencil(A, x, y));
    PetscCall(VecAXPY(y, 1.0, z));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetDiagonal_PPEStencil(Mat A, Vec v)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;
  PetscScalar    *a;

  PetscFunctionBegin;
  PetscCall(VecGetArrayWrite(v, &a));
  PPEStencilBoxDiagonal(&st->box, a);
  PetscCall(VecRestoreArrayWrite(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDuplicate_PPEStencil(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;

  PetscFunctionBegin;
  PetscCall(PPEStencilCreate(st->grid, B));
  PetscCall(PPEStencilSetOverlap(*B, st->overlap));
  PetscCall(PPEStencilSetBackend(*B, st->backend));
  PetscCall(PPEStencilCoefCopy(A, *B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_PPEStencil(Mat A, PetscViewer viewer)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;
  PetscBool       iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "PPEKit matrix-free %s operator %s\n", st->grid && st->grid->dim == 2 ? "5-point (2D)" : "7-point", st->coef == PPE_COEFFICIENTS_CONSTANT ? "W (sigma I - Lap_h)" : "W (sigma I - D beta G)"));
  if (st->coef == PPE_COEFFICIENTS_DENSITY)
    PetscCall(PetscViewerASCIIPrintf(viewer, "variable coefficients beta = 1/rho from a density, %s mean on the faces: beta in [%g, %g] (ratio %g)\n", PPEFaceMeans[st->mean], (double)st->brange[0], (double)st->brange[1],
                                     (double)(st->brange[1] / st->brange[0])));
  else if (st->coef == PPE_COEFFICIENTS_FACES)
    PetscCall(PetscViewerASCIIPrintf(viewer, "variable coefficients beta given on the faces: beta in [%g, %g] (ratio %g)\n", (double)st->brange[0], (double)st->brange[1], (double)(st->brange[1] / st->brange[0])));
  PetscCall(PetscViewerASCIIPrintf(viewer, "halo exchange overlapped with the core points: %s\n", st->overlap ? "yes" : "no"));
  PetscCall(PPEBackendView(st->backend, viewer));
  if (st->grid) {
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(PPEGridView(st->grid, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_PPEStencil_AIJ(Mat A, MatType type, MatReuse reuse, Mat *B)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;
  Mat             C;

  PetscFunctionBegin;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(PPEStencilAssembleInto(st->grid, &st->box, *B));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PPEStencilAssemble(A, type, MAT_INITIAL_MATRIX, &C));
  if (reuse == MAT_INPLACE_MATRIX) PetscCall(MatHeaderReplace(A, &C));
  else *B = C;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PPEStencilSetGrid_PPEStencil(Mat A, PPEGrid grid)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;
  PetscInt        nloc, N[3];

  PetscFunctionBegin;
  PetscCheck(grid->setupcalled, PetscObjectComm((PetscObject)A), PETSC_ERR_ORDER, "Call PPEGridSetUp() before attaching the grid to an operator");
  PetscCall(PPEStencilCoefReset(A)); /* coefficients belong to a box of the old grid */
  PetscCall(PetscObjectReference((PetscObject)grid));
  PetscCall(PPEGridDestroy(&st->grid));
  st->grid = grid;
  PetscCall(PPEStencilBoxSetUp(grid, &st->box));
  nloc = st->box.xm * st->box.ym * st->box.zm;
  PetscCall(PPEGridGetSizes(grid, &N[0], &N[1], &N[2]));
  PetscCall(MatSetSizes(A, nloc, nloc, N[0] * N[1] * N[2], N[0] * N[1] * N[2]));
  PetscCall(PetscLayoutSetUp(A->rmap));
  PetscCall(PetscLayoutSetUp(A->cmap));
  PetscCall(MatSetDM(A, grid->da)); /* the user's DMDA: 2D on a 2D grid */
  PetscCall(PPEStencilHaloSetUp(A));
  PetscCall(PPEStencilStateSetUp(A)); /* the state follows the box */
  PetscCall(PPEStencilAttachNullSpace(grid, A));
  /* a new grid is a new operator: PCs and KSPs set up on A must set up again (PCSetUp() and
     KSPSetUp() compare the matrix state) */
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PPEStencilGetGrid_PPEStencil(Mat A, PPEGrid *grid)
{
  PetscFunctionBegin;
  *grid = ((Mat_PPEStencil *)A->data)->grid;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PPEStencilSetOverlap_PPEStencil(Mat A, PetscBool flg)
{
  PetscFunctionBegin;
  ((Mat_PPEStencil *)A->data)->overlap = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PPEStencilGetOverlap_PPEStencil(Mat A, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = ((Mat_PPEStencil *)A->data)->overlap;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *const PPEStencilComposed[] = {"PPEStencilSetGrid_C",    "PPEStencilGetGrid_C",         "PPEStencilSetOverlap_C",         "PPEStencilGetOverlap_C",        "PPEStencilSetBackend_C",
                                                 "PPEStencilGetBackend_C", "MatConvert_ppestencil_aij_C", "MatConvert_ppestencil_seqaij_C", "MatConvert_ppestencil_mpiaij_C"};

static PetscErrorCode PPEStencilSetBackend_PPEStencil(Mat A, PPEBackend b)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;
  VecType         type;
  PetscBool       own;

  PetscFunctionBegin;
  PetscCall(PPEBackendCheck(PetscObjectComm((PetscObject)A), b));
  if (b != st->backend || !st->state) {
    st->backend = b;
    PetscCall(PPEStencilStateSetUp(A));
  }
  /* MatCreateVecs: PETSc's own device vectors where PETSc has them for this back end (the
     applications then use their device arrays in place), else standard vectors (staged at
     each application; a device-resident Krylov solve makes its vectors on the back end) */
  PetscCall(PPEBackendVecType(b, &type));
  PetscCall(PetscStrbeginswith(type, "ppe", &own));
  PetscCall(MatSetVecType(A, own ? VECSTANDARD : type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PPEStencilGetBackend_PPEStencil(Mat A, PPEBackend *b)
{
  PetscFunctionBegin;
  *b = ((Mat_PPEStencil *)A->data)->backend;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_PPEStencil(Mat A)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;

  PetscFunctionBegin;
  PetscCall(PPEStencilDevDestroy(&st->state));
  PetscCall(PPEStencilCoefReset(A));
  PetscCall(PetscSFDestroy(&st->sf));
  PetscCall(PetscFree(st->halo));
  PetscCall(VecDestroy(&st->work));
  PetscCall(PPEGridDestroy(&st->grid));
  PetscCall(PetscFree(A->data));
  for (size_t i = 0; i < sizeof(PPEStencilComposed) / sizeof(PPEStencilComposed[0]); i++) PetscCall(PetscObjectComposeFunction((PetscObject)A, PPEStencilComposed[i], NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   MATPPESTENCIL - "ppestencil" - the matrix-free 7-point operator A = W (sigma I - Lap_h) of
   a PPEGrid

   Options Database Keys:
+  -ppe_stencil_overlap <bool> - overlap the halo exchange with the core points (default: true)
-  -ppe_stencil_face_mean <arithmetic,harmonic> - face coefficient from a density (default: arithmetic)

   Level: beginner

   Notes:
   Create it with PPEStencilCreate(). With PPEStencilSetDensity() or
   PPEStencilSetFaceCoefficients() it applies the variable-coefficient operator
   W (sigma I - D beta G) of multiphase flows instead, with the same halo exchange and back
   ends (the face coefficients stay in the back end's memory). It supports MatMult, MatMultTranspose (the operator is
   symmetric), MatMultAdd, MatGetDiagonal (so PCJACOBI works), MatDuplicate, MatConvert to
   MATAIJ (the assembled twin of PPEStencilCreateAssembled()) and MatGetDiagonalBlock (the
   rank-local block as a sequential matrix-free Mat, so PCBJACOBI works; see
   PPEStencilMultLocal()). On a CUDA or HIP back end, with a PETSc built with CUDA or HIP,
   MatCreateVecs() gives PETSc's device vectors (VECCUDA, VECHIP), used in place by every
   application; on Debian's PETSc it gives standard vectors (staged at each application), and
   the device-resident Krylov solves of KSPCBCG and KSPBCGSFUSED make theirs on the back end
   (VECPPECUDA, VECPPEHIP, VECPPEEMU), used in place (docs/gpu.md). The constant null space is
   attached when the grid is singular. Preconditioners that need the entries (ILU, hypre, GAMG)
   take the assembled twin as the preconditioning matrix.

.seealso: PPEStencilCreate(), PPEStencilCreateAssembled(), PPEGrid
M*/
PETSC_EXTERN PetscErrorCode MatCreate_PPEStencil(Mat A)
{
  Mat_PPEStencil *st;

  PetscFunctionBegin;
  PetscCall(PetscNew(&st));
  A->data                  = (void *)st;
  st->overlap              = PETSC_TRUE;
  st->mean                 = PPE_FACE_MEAN_ARITHMETIC;
  st->brange[0]            = 1.0;
  st->brange[1]            = 1.0;
  A->ops->mult             = MatMult_PPEStencil;
  A->ops->multtranspose    = MatMult_PPEStencil;
  A->ops->multadd          = MatMultAdd_PPEStencil;
  A->ops->getdiagonal      = MatGetDiagonal_PPEStencil;
  A->ops->duplicate        = MatDuplicate_PPEStencil;
  A->ops->getdiagonalblock = MatGetDiagonalBlock_PPEStencil; /* the rank-local block (stencillocal.c) */
  A->ops->view             = MatView_PPEStencil;
  A->ops->destroy          = MatDestroy_PPEStencil;
  A->assembled             = PETSC_TRUE;
  A->preallocated          = PETSC_TRUE;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "PPEStencilSetGrid_C", PPEStencilSetGrid_PPEStencil));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "PPEStencilGetGrid_C", PPEStencilGetGrid_PPEStencil));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "PPEStencilSetOverlap_C", PPEStencilSetOverlap_PPEStencil));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "PPEStencilGetOverlap_C", PPEStencilGetOverlap_PPEStencil));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "PPEStencilSetBackend_C", PPEStencilSetBackend_PPEStencil));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "PPEStencilGetBackend_C", PPEStencilGetBackend_PPEStencil));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_ppestencil_aij_C", MatConvert_PPEStencil_AIJ));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_ppestencil_seqaij_C", MatConvert_PPEStencil_AIJ));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatConvert_ppestencil_mpiaij_C", MatConvert_PPEStencil_AIJ));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, MATPPESTENCIL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEStencilSetGrid - attaches a set-up grid to a MATPPESTENCIL matrix; sets its sizes, DM,
   halo exchange and null space

   Collective

   Level: intermediate
@*/
PetscErrorCode PPEStencilSetGrid(Mat A, PPEGrid grid)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 2);
  PetscUseMethod(A, "PPEStencilSetGrid_C", (Mat, PPEGrid), (A, grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEStencilGetGrid - the grid of a MATPPESTENCIL matrix

   Not Collective

   Level: intermediate
@*/
PPE_API_GETTER(PPEStencilGetGrid, Mat, A, PPEGrid, grid)

/*@
   PPEStencilSetOverlap - overlap the halo exchange with the core points in MatMult, or not
   (for comparison; the results are bitwise identical)

   Logically Collective

   Options Database Key:
.  -ppe_stencil_overlap <bool> - overlap (default: true)

   Level: intermediate
@*/
PetscErrorCode PPEStencilSetOverlap(Mat A, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscTryMethod(A, "PPEStencilSetOverlap_C", (Mat, PetscBool), (A, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PPE_API_GETTER(PPEStencilGetOverlap, Mat, A, PetscBool, flg)

/*@
   PPEStencilSetBackend - where the applications of the operator run: the host, or a device
   back end (the operator's tables stay on the device; vectors are copied in and out)

   Collective

   Input Parameters:
+  A - a MATPPESTENCIL matrix
-  b - PPE_BACKEND_HOST, PPE_BACKEND_CUDA, PPE_BACKEND_HIP or PPE_BACKEND_EMU

   Options Database Key:
.  -ppe_backend <auto,host,cuda,hip,emu> - read by PPEStencilCreate() (default: auto, see
   PPEBackendGetDefault())

   Notes:
   A back end that was not built, or that has no device here, is an error.

   Level: intermediate

.seealso: PPEBackend, PPEBackendGetDefault()
@*/
PPE_API_SETTER(PPEStencilSetBackend, Mat, A, PPEBackend, b, Enum)

PPE_API_GETTER(PPEStencilGetBackend, Mat, A, PPEBackend, b)

/*@
   PPEStencilCreate - creates the matrix-free operator of a grid

   Collective

   Input Parameter:
.  grid - a set-up grid

   Output Parameter:
.  A - a MATPPESTENCIL matrix on the grid's DMDA layout

   Options Database Keys:
+  -ppe_stencil_overlap <bool> - overlap the halo exchange with the core points (default: true)
-  -ppe_backend <auto,host,cuda,hip,emu> - where the applications run (default: auto)

   Level: beginner

.seealso: MATPPESTENCIL, PPEStencilCreateAssembled(), PPEStencilSetBackend()
@*/
PetscErrorCode PPEStencilCreate(PPEGrid grid, Mat *A)
{
  PetscBool   overlap = PETSC_TRUE;
  PPEFaceMean mean    = PPE_FACE_MEAN_ARITHMETIC;
  MPI_Comm    comm;
  PPEBackend  backend;
  char        bname[16] = "auto";

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PetscAssertPointer(A, 2);
  comm = PetscObjectComm((PetscObject)grid);
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetType(*A, MATPPESTENCIL));
  PetscCall(PPEStencilSetGrid(*A, grid));
  PetscOptionsBegin(comm, ((PetscObject)*A)->prefix, "PPEKit stencil operator options", "Mat");
  PetscCall(PetscOptionsBool("-ppe_stencil_overlap", "Overlap the halo exchange with the core points", "PPEStencilSetOverlap", overlap, &overlap, NULL));
  PetscCall(PetscOptionsString("-ppe_backend", "Where the kernels run: auto, host, cuda, hip or emu", "PPEStencilSetBackend", bname, bname, sizeof(bname), NULL));
  PetscCall(PetscOptionsEnum("-ppe_stencil_face_mean", "Face coefficient from the densities of its two points: arithmetic (2/(rho_L+rho_R)) or harmonic ((1/rho_L+1/rho_R)/2) mean density", "PPEStencilSetFaceMean", PPEFaceMeans, (PetscEnum)mean,
                             (PetscEnum *)&mean, NULL));
  PetscOptionsEnd();
  PetscCall(PPEStencilSetOverlap(*A, overlap));
  PetscCall(PPEStencilSetFaceMean(*A, mean));
  PetscCall(PPEBackendGetDefault(comm, &backend));
  PetscCall(PPEStencilSetBackend(*A, backend));
  PetscFunctionReturn(PETSC_SUCCESS);
}
