/*
   The z-line smoother of PC ppemg: the preconditioner T^-1 inside a Chebyshev smoother, T the
   tridiagonal part of a level's operator A along the kernels' z (the z couplings and the whole
   diagonal), every z line solved exactly.

   Why: on a grid stretched towards walls (a channel) the z couplings of the cells next to a wall
   are many times the x and y ones; a point smoother (Jacobi, Chebyshev in D^-1 A) then damps
   only the error that oscillates in z, and coarsening every direction leaves the smooth-in-z,
   oscillating-in-x,y error to no one. Solving z lines exactly removes the z couplings from the
   smoothing problem whatever their size, and coarsening only x and y (PPEMGMaxLevels with keepz)
   leaves the smoother the x-y oscillations alone: line relaxation with semi-coarsening
   (Trottenberg, Oosterlee and Schuller, Multigrid, Academic Press 2001, sections 5.1-5.2).

   T^-1 A = I + T^-1 O (O the x-y couplings) has its eigenvalues in (0, 2]: 2T - A = T - O is
   symmetric and diagonally dominant, so the Chebyshev interval [2/ratio, 2] needs no estimate.

   A constant-coefficient line is w_x w_y (S_z + s W_z) with s = d_x/w_x + d_y/w_y + sigma (the
   1D tables of the grid), the same z operator for every line and a shift per line: one shared
   factorisation (PPETridiagSetZOperator, PPETridiagSetShift), then the scaling 1/(w_x w_y)
   where it is not 1. A variable one keeps its rows per line (PPETridiagSetLineCoefficients). The
   lines split across ranks in z are solved by the batch's distributed methods.
*/
#include <ppekit/private/mgimpl.h>
#include <ppekit/tridiag.h>

typedef struct {
  PPETridiag td;
  MPI_Comm   zcomm;   /* the ranks that share this rank's (x, y) columns, ordered along z */
  PetscReal *scale;   /* per line 1/(w_x w_y) of a constant level (NULL: all 1, or variable) */
  PetscBool  perline; /* rows per line (a variable level) rather than one shared z operator */
  PetscInt   nsys, m;
} MGLine;

/* Constant coefficients: the grid's z operator, a shift per line and the lines' scaling; where
   every line has the same shift (x and y periodic or Neumann) one shared set of rows, so that
   the lines share their factors too. */
static PetscErrorCode ConstantLines(MGLine *l, const Mat_PPEStencil *st)
{
  const PPEStencilBox *B = &st->box;
  const PPEGrid1d     *z = &st->grid->dir[2];
  PetscReal           *shift;
  PetscBool            ones = PETSC_TRUE, same = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(l->nsys, 3 * l->m), &shift));
  if (!l->scale) PetscCall(PetscMalloc1(l->nsys, &l->scale));
  for (PetscInt jj = 0; jj < B->ym; jj++)
    for (PetscInt ii = 0; ii < B->xm; ii++) {
      PetscInt i = B->xs + ii, j = B->ys + jj, s = jj * B->xm + ii;

      shift[s]    = B->X.d[i] / B->X.w[i] + B->Y.d[j] / B->Y.w[j] + B->sigma;
      l->scale[s] = 1.0 / (B->X.w[i] * B->Y.w[j]);
      if (l->scale[s] != 1.0) ones = PETSC_FALSE;
      if (shift[s] != shift[0]) same = PETSC_FALSE;
    }
  if (same && l->nsys > 0) { /* rows a, b, c of S_z + shift W_z in the buffer */
    PetscReal s0 = shift[0], *a = shift, *b = shift + l->m, *c = shift + 2 * l->m;

    for (PetscInt k = 0; k < l->m; k++) {
      a[k] = -z->tlo[B->zs + k];
      b[k] = z->d[B->zs + k] + s0 * z->w[B->zs + k];
      c[k] = -z->thi[B->zs + k];
    }
    PetscCall(PPETridiagSetCoefficients(l->td, a, b, c));
    PetscCall(PPETridiagSetPeriodic(l->td, (PetscBool)(z->bc[0] == PPE_BC_PERIODIC)));
  } else {
    PetscCall(PPETridiagSetZOperator(l->td, st->grid, B->zs, B->zm));
    PetscCall(PPETridiagSetShift(l->td, shift, NULL));
  }
  PetscCall(PetscFree(shift));
  if (ones) PetscCall(PetscFree(l->scale));
  l->perline = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Variable coefficients: the rows of every line from the face arrays. */
static PetscErrorCode VariableLines(MGLine *l, const PPEStencilBox *B)
{
  PetscReal *a, *b, *c;
  PetscInt   n = l->nsys * l->m;

  PetscFunctionBegin;
  PetscCall(PetscFree(l->scale));
  PetscCall(PetscMalloc3(n, &a, n, &b, n, &c));
  for (PetscInt kk = 0; kk < B->zm; kk++)
    for (PetscInt jj = 0; jj < B->ym; jj++)
      for (PetscInt ii = 0; ii < B->xm; ii++) {
        ppe_s7_coef q = PPEStencilBoxFaceCoef(B, ii, jj, kk);
        PetscInt    e = kk * l->nsys + jj * B->xm + ii;

        a[e] = -q.cb;
        b[e] = q.c0;
        c[e] = -q.ct;
      }
  PetscCall(PPETridiagSetLineCoefficients(l->td, a, b, c));
  PetscCall(PPETridiagSetPeriodic(l->td, B->per[2]));
  PetscCall(PetscFree3(a, b, c));
  l->perline = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Set-up (a new operator or a new state of it): the batch once, its rows every time. */
static PetscErrorCode LineSetUp(PC pc)
{
  MGLine         *l;
  Mat             A;
  Mat_PPEStencil *st;
  PetscBool       isst;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &l));
  PetscCall(PCGetOperators(pc, NULL, &A));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATPPESTENCIL, &isst));
  PetscCheck(isst, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "The ppemg z-line smoother reads a %s operator, not %s", MATPPESTENCIL, ((PetscObject)A)->type_name);
  st = (Mat_PPEStencil *)A->data;
  if (!l->td) {
    PetscMPIInt rank, pxy;

    PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
    PetscCall(PetscMPIIntCast(st->grid->box.P[0] * st->grid->box.P[1], &pxy));
    /* DMDA ranks are numbered x fastest, then y, then z (a 2D DMDA: its y is the kernels' z) */
    PetscCallMPI(MPI_Comm_split(PetscObjectComm((PetscObject)A), rank % pxy, rank / pxy, &l->zcomm));
    l->nsys = st->box.xm * st->box.ym;
    l->m    = st->box.zm;
    PetscCall(PPETridiagCreate(l->zcomm, &l->td));
    PetscCall(PPETridiagSetSizes(l->td, l->nsys, l->m));
    PetscCall(PPETridiagSetBackend(l->td, st->backend));
  }
  if (st->box.K.x) PetscCall(VariableLines(l, &st->box));
  else PetscCall(ConstantLines(l, st));
  PetscCall(PPETridiagSetUp(l->td));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = T^-1 x */
static PetscErrorCode LineApply(PC pc, Vec x, Vec y)
{
  MGLine      *l;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &l));
  PetscCall(VecCopy(x, y));
  PetscCall(VecGetArray(y, &a));
  PetscCall(PPETridiagSolve(l->td, a));
  if (l->scale) {
    for (PetscInt k = 0; k < l->m; k++)
      for (PetscInt s = 0; s < l->nsys; s++) a[k * l->nsys + s] *= l->scale[s];
    PetscCall(PetscLogFlops((PetscLogDouble)l->nsys * l->m));
  }
  PetscCall(VecRestoreArray(y, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LineView(PC pc, PetscViewer viewer)
{
  MGLine   *l;
  PetscBool iascii;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &l));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "z-line Jacobi: T^-1, T the z couplings and the diagonal of the level's operator, every z line solved exactly\n"));
  if (l->td) {
    PetscInt nt, np, nd;

    PetscCall(PPETridiagGetLineMethods(l->td, &nt, &np, &nd));
    PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT " lines on this rank (%" PetscInt_FMT " rows each): %" PetscInt_FMT " Thomas, %" PetscInt_FMT " P-TDMA, %" PetscInt_FMT " DistD2; %s\n", l->nsys, l->m, nt, np, nd,
                                     l->perline ? "rows per line (variable coefficients)" : "one z operator and a shift per line (constant coefficients)"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LineDestroy(PC pc)
{
  MGLine *l;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &l));
  PetscCall(PPETridiagDestroy(&l->td));
  if (l->zcomm && l->zcomm != MPI_COMM_NULL) PetscCallMPI(MPI_Comm_free(&l->zcomm));
  PetscCall(PetscFree(l->scale));
  PetscCall(PetscFree(l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEMGLinePCCreate(PC pc)
{
  MGLine *l;

  PetscFunctionBegin;
  PetscCall(PetscNew(&l));
  l->zcomm = MPI_COMM_NULL;
  PetscCall(PCSetType(pc, PCSHELL));
  PetscCall(PCShellSetContext(pc, l));
  PetscCall(PCShellSetName(pc, "ppemg z-line"));
  PetscCall(PCShellSetSetUp(pc, LineSetUp));
  PetscCall(PCShellSetApply(pc, LineApply));
  PetscCall(PCShellSetView(pc, LineView));
  PetscCall(PCShellSetDestroy(pc, LineDestroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}
