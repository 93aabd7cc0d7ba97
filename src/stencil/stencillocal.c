/*
   Two more ways to apply MATPPESTENCIL, for the communication-avoiding solvers:

   - the rank-local operator A_ss (the diagonal block: couplings to points owned by other
     ranks dropped), applied with no halo exchange and no message. Dropped neighbours read
     zeros from face buffers that are never exchanged; a periodic direction owned entirely
     by this rank keeps its wrap-around couplings (they lie inside the block), filled by a
     local copy. The block is also a sequential Mat (MatGetDiagonalBlock), so PCBJACOBI and
     PETSc's sub-solvers run on the matrix-free operator.

   - the full operator fused with the local dot products of its output (y = A x and
     y.u_q, q < 2), computed row by row while the row is in cache: the halo exchange,
     overlap and arithmetic of y are MatMult's, so y is bitwise MatMult's result. The
     partial sums are not reduced: the caller merges them into one global reduction.

   - either operator fused with a Chebyshev step (PPEStencilMultCI, for PC chebyci): the
     sweep writes the next iterate instead of A x (KernelCI2 of Pennati et al. (2025)).

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned
     Bi-CGSTAB with alpaka", arXiv:2503.08935, 2025.
*/
#include <ppekit/private/stencilimpl.h>
#include <ppekit/private/backendimpl.h>

/* The local block: what its MatMult needs. */
typedef struct {
  Mat_PPEStencil *st;      /* the parent's data (the block belongs to the parent) */
  PPEGrid         grid;    /* grid the tables were made for (rebuilt when it changes) */
  PPEStencilBox   box;     /* the parent's box */
  PetscBool       self[6]; /* the neighbour across this face is this rank (periodic, one rank along it) */
  PetscScalar    *buf;     /* face buffers: zeros for dropped neighbours, wrap copies for self faces */
  PetscInt        off[7];  /* offsets of the faces in buf */
  PPEStencilHalo  faces;   /* pointers into buf */
  PetscBool       anyself; /* some face is a self face */
  PPEStencilDev   state;   /* the applications' state on the parent's back end, made at set-up */
} PPEStencilLocal;

/* The shell's context destroy: since PETSc 3.23 it receives the address of the context
   (PPECtxFromDestroyArg), before that the context itself. */
static PetscErrorCode PPEStencilLocalDestroy(PPECtxDestroyArg arg)
{
  PPEStencilLocal *L = (PPEStencilLocal *)PPECtxFromDestroyArg(arg);

  PetscFunctionBegin;
  PetscCall(PPEStencilDevDestroy(&L->state));
  PetscCall(PetscFree(L->buf));
  PetscCall(PetscFree(L));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copy the opposite face of x into the buffer of each self face (periodic wrap on this rank). */
static void FillSelfFaces(PPEStencilLocal *L, const PetscScalar *x)
{
  const PPEStencilBox *B  = &L->box;
  PetscInt             xm = B->xm, ym = B->ym, zm = B->zm;

  for (int f = 0; f < 6; f++) {
    PetscScalar *b = L->buf + L->off[f];
    if (!L->self[f]) continue;
    if (f / 2 == 0) {
      PetscInt i = (f == PPE_XLO) ? xm - 1 : 0;
      for (PetscInt k = 0; k < zm; k++)
        for (PetscInt j = 0; j < ym; j++) b[k * ym + j] = x[((size_t)k * ym + j) * xm + i];
    } else if (f / 2 == 1) {
      PetscInt j = (f == PPE_YLO) ? ym - 1 : 0;
      for (PetscInt k = 0; k < zm; k++)
        for (PetscInt i = 0; i < xm; i++) b[k * xm + i] = x[((size_t)k * ym + j) * xm + i];
    } else {
      PetscInt k = (f == PPE_ZLO) ? zm - 1 : 0;
      for (PetscInt j = 0; j < ym; j++)
        for (PetscInt i = 0; i < xm; i++) b[j * xm + i] = x[((size_t)k * ym + j) * xm + i];
    }
  }
}

/* An application R of the local block (arrays on the parent's back end): the self faces filled
   from the host values of the input, or from its boundary planes when it lives only on a
   device, then both phases (no exchange). */
static PetscErrorCode LocalRun(void *ctx, PPEStencilRun *R)
{
  PPEStencilLocal *L = (PPEStencilLocal *)ctx;

  PetscFunctionBegin;
  R->d = L->state;
  if (L->anyself) {
    const double *xh = R->xh;

    if (!xh) { /* the planes the self faces copy: the opposite ones */
      PetscBool mask[6];
      for (int f = 0; f < 6; f++) mask[f] = (PetscBool)(L->self[f] || L->self[f ^ 1]);
      PetscCall(PPEStencilDevBoundary(L->state, R->x, mask, &xh));
    }
    FillSelfFaces(L, xh);
  }
  PetscCall(PPEStencilRunCore(R));
  PetscCall(PPEStencilRunSurface(R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_PPEStencilLocal(Mat Ab, Vec x, Vec y)
{
  PPEStencilLocal *L;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(Ab, &L));
  PetscCall(PetscLogEventBegin(PPE_StencilLocal, Ab, x, y, 0));
  PetscCall(PPEStencilApply(L->state, L->st->backend, x, y, LocalRun, L, PPE_STENCIL_FLOPS(&L->box) * L->box.xm * L->box.ym * L->box.zm));
  PetscCall(PetscLogEventEnd(PPE_StencilLocal, Ab, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PPEStencilLocalSetUp(Mat, Mat *);

/* The state of the block's applications on the parent's back end (zeros in the face buffers
   of dropped neighbours: copied once). */
static PetscErrorCode LocalState(PPEStencilLocal *L)
{
  PetscFunctionBegin;
  PetscCall(PPEStencilDevDestroy(&L->state));
  PetscCall(PPEStencilDevCreate(L->st->backend, &L->box, &L->faces, L->buf, (size_t)L->off[6], &L->state));
  PPEStencilDevSetHaloStatic(L->state, (PetscBool)!L->anyself);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The local block's state made again for the parent's back end, if the parent has a block. */
PetscErrorCode PPEStencilLocalStateSetUp(Mat A)
{
  Mat              Ab = NULL;
  PPEStencilLocal *L;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)A, "PPEStencilLocalBlock", (PetscObject *)&Ab));
  if (!Ab) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatShellGetContext(Ab, &L));
  if (L->grid == ((Mat_PPEStencil *)A->data)->grid) {
    L->box.K = ((Mat_PPEStencil *)A->data)->box.K; /* the parent's coefficients, perhaps new */
    PetscCall(LocalState(L));
    PetscCall(PetscObjectStateIncrease((PetscObject)Ab));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetDiagonal_PPEStencilLocal(Mat Ab, Vec v)
{
  PPEStencilLocal *L;
  PetscScalar     *a;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(Ab, &L));
  PetscCall(VecGetArrayWrite(v, &a));
  PPEStencilBoxDiagonal(&L->box, a);
  PetscCall(VecRestoreArrayWrite(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Build (or rebuild after a change of grid) the sequential shell of the local block. */
static PetscErrorCode PPEStencilLocalSetUp(Mat A, Mat *Ab)
{
  Mat_PPEStencil  *st = (Mat_PPEStencil *)A->data;
  PPEStencilLocal *L;
  PetscInt         P[3], m[3], n = 0, nloc;

  PetscFunctionBegin;
  PetscCheck(st->grid, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "No grid: create the operator with PPEStencilCreate() or call PPEStencilSetGrid()");
  PetscCall(PetscObjectQuery((PetscObject)A, "PPEStencilLocalBlock", (PetscObject *)Ab));
  if (*Ab) {
    PetscCall(MatShellGetContext(*Ab, &L));
    if (L->grid == st->grid) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscNew(&L));
  L->st   = st;
  L->grid = st->grid;
  L->box  = st->box;
  m[0]    = L->box.xm;
  m[1]    = L->box.ym;
  m[2]    = L->box.zm;
  PetscCall(PetscArraycpy(P, st->grid->box.P, 3));
  for (int f = 0; f < 6; f++) {
    int d      = f / 2;
    L->self[f] = (PetscBool)(L->box.nb[f] && L->box.per[d] && P[d] == 1);
    L->anyself = (PetscBool)(L->anyself || L->self[f]);
    L->off[f]  = n;
    if (L->box.nb[f]) n += m[(d + 1) % 3] * m[(d + 2) % 3];
  }
  L->off[6] = n;
  PetscCall(PetscCalloc1(n + 1, &L->buf));
  for (int f = 0; f < 6; f++) L->faces.f[f] = L->box.nb[f] ? L->buf + L->off[f] : NULL;
  PetscCall(LocalState(L));
  nloc = m[0] * m[1] * m[2];
  PetscCall(MatCreateShell(PETSC_COMM_SELF, nloc, nloc, nloc, nloc, L, Ab));
  PetscCall(MatShellSetContextDestroy(*Ab, PPEStencilLocalDestroy));
  PetscCall(MatShellSetOperation(*Ab, MATOP_MULT, (void (*)(void))MatMult_PPEStencilLocal));
  PetscCall(MatShellSetOperation(*Ab, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMult_PPEStencilLocal));
  PetscCall(MatShellSetOperation(*Ab, MATOP_GET_DIAGONAL, (void (*)(void))MatGetDiagonal_PPEStencilLocal));
  PetscCall(MatSetOption(*Ab, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*Ab, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*Ab, "PPEStencil local block"));
  PetscCall(PetscObjectCompose((PetscObject)A, "PPEStencilLocalBlock", (PetscObject)*Ab));
  PetscCall(MatDestroy(Ab)); /* the parent holds it */
  PetscCall(PetscObjectQuery((PetscObject)A, "PPEStencilLocalBlock", (PetscObject *)Ab));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatGetDiagonalBlock() of MATPPESTENCIL: the local block, owned by A (no new reference). */
PetscErrorCode MatGetDiagonalBlock_PPEStencil(Mat A, Mat *Ab)
{
  PetscFunctionBegin;
  PetscCall(PPEStencilLocalSetUp(A, Ab));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEStencilMultLocal - y = A_ss x: the rank-local block of a MATPPESTENCIL operator (the
   couplings to points of other ranks dropped), with no halo exchange and no message

   Not Collective

   Input Parameters:
+  A - a MATPPESTENCIL matrix
-  x - input: a vector of A's layout or a sequential vector of the local size

   Output Parameter:
.  y - output, same kind as x

   Notes:
   A periodic direction owned by a single rank keeps its wrap-around couplings. The same block
   is returned by MatGetDiagonalBlock() as a sequential matrix. Logged as PPEStencilLocal.

   Level: developer

.seealso: PPEStencilMultDot(), MatGetDiagonalBlock()
@*/
PetscErrorCode PPEStencilMultLocal(Mat A, Vec x, Vec y)
{
  Mat       Ab;
  PetscBool is;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATPPESTENCIL, &is));
  PetscCheck(is, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PPEStencilMultLocal() needs a %s matrix, got %s", MATPPESTENCIL, ((PetscObject)A)->type_name);
  PetscCall(PPEStencilLocalSetUp(A, &Ab));
  PetscCall(MatMult_PPEStencilLocal(Ab, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEStencilMultDot - y = A x fused with the local dot products y.u[q]: the operator apply of
   MatMult() (same halo exchange and overlap, bitwise the same y) and the partial sums of this
   rank, computed row by row while the row is in cache and then summed over the rows in a
   fixed order that a device back end follows too (the same bits on the host and a device)

   Collective (the halo exchange)

   Input Parameters:
+  A - a MATPPESTENCIL matrix
.  x - input vector
.  n - number of dot products, 0 to 2
-  u - the n other operands (u[q] may be x or y)

   Output Parameters:
+  y - A x
-  ldot - the n partial sums on this rank, NOT reduced: merge them into one global reduction

   Level: developer

.seealso: PPEStencilMultLocal(), KSPBCGSFUSED
@*/
PetscErrorCode PPEStencilMultDot(Mat A, Vec x, Vec y, PetscInt n, const Vec u[], PetscScalar ldot[])
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;
  Vec             v[4];
  PPEAccess       acc[4] = {PPE_ACCESS_READ, PPE_ACCESS_WRITE, PPE_ACCESS_READ, PPE_ACCESS_READ};
  PetscBool       is;
  PPEStencilRun   R;
  PPEArrays       K;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATPPESTENCIL, &is));
  PetscCheck(is, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "PPEStencilMultDot() needs a %s matrix, got %s", MATPPESTENCIL, ((PetscObject)A)->type_name);
  PetscCheck(n >= 0 && n <= 2, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "PPEStencilMultDot() computes 0 to 2 dot products, asked for %" PetscInt_FMT, n);
  PetscCheck(st->grid, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "No grid: create the operator with PPEStencilCreate() or call PPEStencilSetGrid()");
  PetscCall(PetscLogEventBegin(PPE_StencilMult, A, x, y, 0));
  v[0] = x;
  v[1] = y;
  for (PetscInt q = 0; q < 2; q++) v[2 + q] = (q < n && u[q] != x && u[q] != y) ? u[q] : NULL; /* x and y: their own arrays (y is not read in) */
  PetscCall(PetscMemzero(&R, sizeof(R)));
  PetscCall(PPEStencilArraysGet(st->state, st->backend, 4, v, acc, &K, &R.xh));
  R.x  = K.a[0];
  R.y  = K.a[1];
  R.nd = n;
  for (PetscInt q = 0; q < n; q++) R.u[q] = u[q] == y ? K.a[1] : (u[q] == x ? K.a[0] : K.a[2 + q]);
  PetscCall(PPEStencilRunWithHalo(A, &R));
  PetscCall(PPEStencilArraysRestore(st->state, &K, &R.xh));
  for (PetscInt q = 0; q < n; q++) ldot[q] = R.s[q];
  PetscCall(PetscLogFlops((PPE_STENCIL_FLOPS(&st->box) + PPE_STENCIL_DOT_FLOPS * n) * st->box.xm * st->box.ym * st->box.zm));
  PetscCall(PetscLogEventEnd(PPE_StencilMult, A, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEStencilMultCI - one fused Chebyshev step (KernelCI2 of Pennati et al. (2025)) on x,
   written to w: w = rho (s2 x + d2 (b - dinv A x) - rho_old z) (the scalars from ci; dinv may
   be NULL: D = I), with A the full operator (halo exchange, overlapped as in MatMult) or, when
   local, the rank-local block (no exchange). A x is never stored; the bits are those of
   MatMult (or PPEStencilMultLocal) followed by ppe_ci_step(). The vectors' arrays are taken on
   the operator's back end.
*/
PetscErrorCode PPEStencilMultCI(Mat A, PetscBool local, Vec x, Vec b, Vec z, Vec dinv, const PPEStencilCI *ci, Vec w)
{
  Mat_PPEStencil  *st     = (Mat_PPEStencil *)A->data;
  Vec              v[5]   = {x, b, z, dinv, w};
  PPEAccess        acc[5] = {PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_WRITE};
  PetscInt         np     = st->box.xm * st->box.ym * st->box.zm;
  PPEStencilRun    R;
  PPEArrays        K;
  ppe_dev_ci       c;
  Mat              Ab = NULL;
  PPEStencilLocal *L  = NULL;

  PetscFunctionBegin;
  if (local) {
    PetscCall(PPEStencilLocalSetUp(A, &Ab));
    PetscCall(MatShellGetContext(Ab, &L));
  }
  PetscCall(PetscMemzero(&R, sizeof(R)));
  PetscCall(PPEStencilArraysGet(st->state, st->backend, 5, v, acc, &K, &R.xh));
  c    = (ppe_dev_ci){.rho = ci->rho, .rho_old = ci->rho_old, .s2 = ci->s2, .d2 = ci->d2, .b = K.a[1], .z = K.a[2], .dinv = K.a[3], .w = K.a[4]};
  R.x  = K.a[0];
  R.ci = &c;
  if (local) {
    PetscCall(PetscLogEventBegin(PPE_StencilLocal, Ab, x, 0, 0));
    PetscCall(LocalRun(L, &R));
    PetscCall(PetscLogFlops(PPE_STENCIL_FLOPS(&st->box) * np));
    PetscCall(PetscLogEventEnd(PPE_StencilLocal, Ab, x, 0, 0));
  } else {
    PetscCall(PetscLogEventBegin(PPE_StencilMult, A, x, 0, 0));
    PetscCall(PPEStencilRunWithHalo(A, &R));
    PetscCall(PetscLogFlops(PPE_STENCIL_FLOPS(&st->box) * np));
    PetscCall(PetscLogEventEnd(PPE_StencilMult, A, x, 0, 0));
  }
  PetscCall(PPEStencilArraysRestore(st->state, &K, &R.xh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEStencilCanSweep - whether A's back end runs several Chebyshev steps of the rank-local block
   in one temporally blocked sweep (PPEStencilMultCISweep()) on this rank's box */
PetscErrorCode PPEStencilCanSweep(Mat A, PetscBool *can)
{
  Mat              Ab;
  PPEStencilLocal *L;

  PetscFunctionBegin;
  PetscCall(PPEStencilLocalSetUp(A, &Ab));
  PetscCall(MatShellGetContext(Ab, &L));
  *can = PPEStencilDevCanSweep(L->state);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEStencilMultCISweep - levels S->j0..S->j1 of the Chebyshev iteration on the rank-local block
   in one temporally blocked sweep (ppe_dev_ci_sweep: the scalars of S are used, its arrays are
   those of the vectors b, dinv (may be NULL), y and z (levels j0 - 1 and j0 - 2; NULL when
   j0 == 1), yout and zout (levels j1 and j1 - 1; zout may be NULL)), on A's back end; the bits
   of the steps one by one (PPEStencilMultCI() with local). Timed as one application of the
   local block per level.
*/
PetscErrorCode PPEStencilMultCISweep(Mat A, const ppe_dev_ci_sweep *S, Vec b, Vec dinv, Vec y, Vec z, Vec yout, Vec zout)
{
  Mat_PPEStencil  *st     = (Mat_PPEStencil *)A->data;
  Vec              v[6]   = {b, dinv, y, z, yout, zout};
  PPEAccess        acc[6] = {PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_READ, PPE_ACCESS_WRITE, PPE_ACCESS_WRITE};
  PetscInt         np     = st->box.xm * st->box.ym * st->box.zm;
  Mat              Ab;
  PPEStencilLocal *L;
  PPEArrays        K;
  ppe_dev_ci_sweep c = *S;

  PetscFunctionBegin;
  PetscCall(PPEStencilLocalSetUp(A, &Ab));
  PetscCall(MatShellGetContext(Ab, &L));
  PetscCall(PetscLogEventBegin(PPE_StencilLocal, Ab, b, 0, 0));
  PetscCall(PPEArraysGet(st->backend, 6, v, acc, PPE_ACCESS_READ, &K));
  c.b    = K.a[0];
  c.dinv = K.a[1];
  c.y    = K.a[2];
  c.z    = K.a[3];
  c.yout = K.a[4];
  c.zout = K.a[5];
  PetscCall(PPEStencilDevCISweep(L->state, &c));
  PetscCall(PPEArraysRestore(&K));
  PetscCall(PetscLogFlops((PetscLogDouble)PPE_STENCIL_FLOPS(&st->box) * np * (S->j1 - S->j0 + 1)));
  PetscCall(PetscLogEventEnd(PPE_StencilLocal, Ab, b, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
