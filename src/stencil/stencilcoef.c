/*
   Variable coefficients of MATPPESTENCIL: A = W (sigma I - D beta G), the pressure operator of
   multiphase flows (beta = 1/rho, the density jumping by 1000 between liquid and gas).

   The operator keeps, for every face of the rank's box, K = (geometric coupling of the grid's
   1D tables) x beta_face (src/kernels/stencil7.h, ppe_s7_faces): three arrays, the faces below
   each point and one more row or plane above the box. A point's diagonal is the sum of its six
   face values (plus the shift), so the operator is exactly symmetric, and its rows sum to the
   shift: the constant null space of a singular grid stays the null space.

   Face values:
   - from a density rho (PPEStencilSetDensity): beta = 2 / (rho_L + rho_R) (the arithmetic mean
     density, as volume-of-fluid codes take it; the default) or (1/rho_L + 1/rho_R) / 2 (the
     harmonic mean density), with PPEStencilSetFaceMean();
   - from face coefficients (PPEStencilSetFaceCoefficients): the value at point p of the Vec of
     direction d is beta of the face between p - e_d and p;
   - a face on a non-periodic boundary: a Dirichlet face couples the boundary point to the
     boundary value with the boundary point's coefficient (1/rho of that point; with face
     coefficients, the value given for its face below, that is the boundary face itself at a
     lower end and the last interior face at an upper end); a Neumann face carries no flux.

   The values across the box's upper faces come from the neighbouring ranks through the
   operator's own halo star forest, once per change of coefficients. A new set of coefficients
   is checked whole (sizes, layout, every value finite and positive, on every rank) before
   anything changes, then replaces the old one, remakes the applications' state on the back
   end (the face arrays copied to a device there) and increases the Mat's state, so that a
   KSPSolve sets its PCs up again.
*/
#include <ppekit/private/stencilimpl.h>
#include <petscdmda.h>

const char *const PPEFaceMeans[]                = {"arithmetic", "harmonic", "PPEFaceMean", "PPE_FACE_MEAN_", NULL};
const char *const PPEStencilCoefficientsTypes[] = {"constant", "density", "faces", "PPEStencilCoefficients", "PPE_COEFFICIENTS_", NULL};

/* The operator's data, after checking that A is a MATPPESTENCIL with a grid. */
static PetscErrorCode GetStencil(Mat A, Mat_PPEStencil **st)
{
  PetscBool match;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATPPESTENCIL, &match));
  PetscCheck(match, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "Variable coefficients are set on a %s matrix (PPEStencilCreate()), not on a matrix of type %s: assemble the coefficients into it yourself", MATPPESTENCIL,
             ((PetscObject)A)->type_name);
  *st = (Mat_PPEStencil *)A->data;
  PetscCheck((*st)->grid, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "No grid: create the operator with PPEStencilCreate() or call PPEStencilSetGrid()");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* v must be a vector of the grid's DMDA layout: the operator's sizes, and if it has a DM,
   the grid's DMDA or one with the same sizes and ownership. what names it in the errors. */
static PetscErrorCode CheckLayout(Mat A, Mat_PPEStencil *st, Vec v, const char *what)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)A);
  PetscInt n, N, bad = 0, any;
  DM       dm;

  PetscFunctionBegin;
  PetscCheckSameComm(A, 1, v, 2);
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetSize(v, &N));
  PetscCheck(N == A->rmap->N, comm, PETSC_ERR_ARG_SIZ, "The %s has %" PetscInt_FMT " values, the operator's grid %" PetscInt_FMT ": give a Vec of the grid's DMDA (DMCreateGlobalVector() of PPEGridGetDM())", what, N, A->rmap->N);
  if (n != A->rmap->n) bad = 1;
  PetscCall(VecGetDM(v, &dm));
  if (!bad && dm && dm != st->grid->da) {
    PetscBool isda;
    PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMDA, &isda));
    if (!isda) bad = 1;
    else {
      PetscInt dim, M[3], dof, s[3], m[3], gs[3], gm[3];
      PetscCall(DMDAGetInfo(dm, &dim, &M[0], &M[1], &M[2], NULL, NULL, NULL, &dof, NULL, NULL, NULL, NULL, NULL));
      PetscCall(DMDAGetCorners(dm, &s[0], &s[1], &s[2], &m[0], &m[1], &m[2]));
      PetscCall(DMDAGetCorners(st->grid->da, &gs[0], &gs[1], &gs[2], &gm[0], &gm[1], &gm[2]));
      if (dim != st->grid->dim || dof != 1) bad = 1;
      for (PetscInt d = 0; d < dim; d++)
        if (s[d] != gs[d] || m[d] != gm[d]) bad = 1;
    }
  }
  PetscCall(MPIU_Allreduce(&bad, &any, 1, MPIU_INT, MPI_MAX, comm));
  PetscCheck(!any, comm, PETSC_ERR_ARG_INCOMP, "The %s is not laid out as the operator's grid (another DMDA, dimension, dof or ownership): give a Vec of the grid's DMDA (DMCreateGlobalVector() of PPEGridGetDM())", what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every value of v finite and positive, on every rank; the first bad one (lowest rank, lowest
   global index) reported on all. */
static PetscErrorCode CheckPositive(Mat A, Vec v, const char *what)
{
  MPI_Comm           comm = PetscObjectComm((PetscObject)A);
  const PetscScalar *a;
  PetscInt           n, rstart, first = PETSC_MAX_INT, gfirst;
  PetscReal          val = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetOwnershipRange(v, &rstart, NULL));
  PetscCall(VecGetArrayRead(v, &a));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal x = PetscRealPart(a[i]);
    if (!(x > 0) || PetscIsInfOrNanReal(x)) {
      first = rstart + i;
      val   = x;
      break;
    }
  }
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscCall(MPIU_Allreduce(&first, &gfirst, 1, MPIU_INT, MPI_MIN, comm));
  if (gfirst != PETSC_MAX_INT) {
    PetscMPIInt rank, owner, mine;
    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    mine = first == gfirst ? rank : PETSC_MPI_INT_MAX;
    PetscCall(MPIU_Allreduce(&mine, &owner, 1, MPI_INT, MPI_MIN, comm));
    PetscCallMPI(MPI_Bcast(&val, 1, MPIU_REAL, owner, comm));
    SETERRQ(comm, PETSC_ERR_ARG_OUTOFRANGE, "The %s must be finite and positive everywhere: entry %" PetscInt_FMT " (global numbering of the vector) is %g; the operator keeps its coefficients", what, gfirst, (double)val);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The values of the points next to the box (the halo face buffers' layout) of array a. */
static PetscErrorCode HaloOf(Mat_PPEStencil *st, const PetscScalar *a, PetscScalar *h)
{
  PetscFunctionBegin;
  if (!st->has_halo) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSFBcastBegin(st->sf, MPIU_SCALAR, a, h, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(st->sf, MPIU_SCALAR, a, h, MPI_REPLACE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The data of one direction's faces: cell values (v, its halo h with face offsets hoff) and
   how a face value comes from them. */
typedef struct {
  const PetscScalar *v, *h;
  size_t             hoff[2]; /* offsets of the lower and upper face buffers of the direction in h */
  PetscBool          density; /* v is a density (else the coefficients of the faces below) */
  PPEFaceMean        mean;
} FaceSource;

/* beta of an interior face between points of values lo and up. */
static inline PetscReal FaceBeta(const FaceSource *S, PetscReal lo, PetscReal up)
{
  if (!S->density) return up;
  return S->mean == PPE_FACE_MEAN_ARITHMETIC ? 2.0 / (lo + up) : 0.5 * (1.0 / lo + 1.0 / up);
}

/* The face array of direction d of box B into K from source S; the range of its beta into
   br[0..1]. */
static void DirectionFaces(const PPEStencilBox *B, const PPEGrid1d *g, int d, const FaceSource *S, double *K, PetscReal br[2])
{
  PetscInt          m[3] = {B->xm, B->ym, B->zm}, s[3] = {B->xs, B->ys, B->zs}, e[3], a, b;
  const ppe_s7_dir *dir[3] = {&B->X, &B->Y, &B->Z};
  size_t            l      = 0;

  a = d == 0 ? 1 : 0; /* the other two directions, a before b (the face buffers' order) */
  b = d == 2 ? 1 : 2;
  for (int q = 0; q < 3; q++) e[q] = m[q] + (q == d ? 1 : 0);
  for (PetscInt kk = 0; kk < e[2]; kk++)
    for (PetscInt jj = 0; jj < e[1]; jj++)
      for (PetscInt ii = 0; ii < e[0]; ii++, l++) {
        PetscInt  p[3] = {ii, jj, kk}, q = p[d], G = B->N[d], gi = s[d] + q;
        PetscInt  hf = p[b] * m[a] + p[a];                                                      /* index in a face buffer of direction d */
        PetscReal w = dir[a]->w[s[a] + p[a]] * dir[b]->w[s[b] + p[b]], t, beta, lo = 0, up = 0; /* wy wz, wx wz, wx wy: the constant operator's products */
        size_t    self = (size_t)((p[2] * m[1] + p[1]) * m[0] + p[0]), stride = d == 0 ? 1 : (d == 1 ? (size_t)m[0] : (size_t)m[0] * m[1]);

        if (q > 0) lo = PetscRealPart(S->v[self - stride]);
        else if (B->nb[2 * d]) lo = PetscRealPart(S->h[S->hoff[0] + hf]);
        if (q < m[d]) up = PetscRealPart(S->v[self]);
        else if (B->nb[2 * d + 1]) up = PetscRealPart(S->h[S->hoff[1] + hf]);
        if (!B->per[d] && gi == 0) { /* lower boundary face: the boundary point's coefficient */
          t    = g->tbe[0];
          beta = S->density ? 1.0 / up : up;
        } else if (!B->per[d] && gi == G) { /* upper boundary face */
          t    = g->tbe[1];
          beta = S->density ? 1.0 / lo : PetscRealPart(S->v[self - stride]);
        } else {
          t    = gi < G ? g->tlo[gi] : g->thi[G - 1];
          beta = FaceBeta(S, lo, up);
        }
        K[l]  = (w * t) * beta;
        br[0] = PetscMin(br[0], beta);
        br[1] = PetscMax(br[1], beta);
      }
}

/* Replace A's coefficients by those of the n cell arrays of v (one density: n = 1; or one
   Vec of face coefficients per kernel direction, NULL for a direction the grid lacks),
   already checked. */
static PetscErrorCode SetFaces(Mat A, PPEStencilCoefficients kind, Vec v[3])
{
  Mat_PPEStencil    *st = (Mat_PPEStencil *)A->data;
  PPEStencilBox     *B  = &st->box;
  size_t             nf[3];
  double            *kbuf;
  PetscScalar       *h     = NULL;
  const PetscScalar *a[3]  = {NULL, NULL, NULL};
  PetscReal          br[2] = {PETSC_MAX_REAL, -PETSC_MAX_REAL}, gbr[2];

  PetscFunctionBegin;
  PPEStencilFaceCounts(B, nf);
  PetscCall(PetscMalloc1(nf[0] + nf[1] + nf[2], &kbuf));
  PetscCall(PetscMalloc1(3 * (st->nhalo + 1), &h));
  for (int d = 0; d < 3; d++) {
    double    *K = kbuf + (d > 0 ? nf[0] : 0) + (d > 1 ? nf[1] : 0);
    FaceSource S;

    if (!v[d]) { /* a direction the grid lacks: one point, no coupling and no boundary term */
      PetscCall(PetscArrayzero(K, nf[d]));
      continue;
    }
    PetscCall(VecGetArrayRead(v[d], &a[d]));
    PetscCall(HaloOf(st, a[d], h + d * (st->nhalo + 1)));
    S.v       = a[d];
    S.h       = h + d * (st->nhalo + 1);
    S.hoff[0] = st->faces.f[2 * d] ? (size_t)(st->faces.f[2 * d] - st->halo) : 0;
    S.hoff[1] = st->faces.f[2 * d + 1] ? (size_t)(st->faces.f[2 * d + 1] - st->halo) : 0;
    S.density = (PetscBool)(kind == PPE_COEFFICIENTS_DENSITY);
    S.mean    = st->mean;
    DirectionFaces(B, &st->grid->dir[d], d, &S, K, br);
    PetscCall(VecRestoreArrayRead(v[d], &a[d]));
  }
  PetscCall(PetscFree(h));
  br[1] = -br[1];
  PetscCall(MPIU_Allreduce(br, gbr, 2, MPIU_REAL, MPI_MIN, PetscObjectComm((PetscObject)A)));
  gbr[1] = -gbr[1];
  PetscCall(PPEStencilSetFaceArrays(A, kind, kbuf, gbr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A's face arrays replaced by kbuf (box.K's layout, PPEStencilFaceCounts(); A takes it over),
   standing for coefficients of kind with beta in br[0..1] on every rank: the applications'
   state remade on the back end and A's state increased. Also the way a coarse level of
   multigrid (src/mg) gets the faces coarsened from the fine ones. */
PetscErrorCode PPEStencilSetFaceArrays(Mat A, PPEStencilCoefficients kind, double *kbuf, const PetscReal br[2])
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;
  PPEStencilBox  *B  = &st->box;
  size_t          nf[3];

  PetscFunctionBegin;
  PPEStencilFaceCounts(B, nf);
  st->brange[0] = br[0];
  st->brange[1] = br[1];
  PetscCall(PetscFree(st->kbuf));
  st->kbuf = kbuf;
  B->K     = (ppe_s7_faces){kbuf, kbuf + nf[0], kbuf + nf[0] + nf[1]};
  st->coef = kind;
  PetscCall(PPEStencilStateSetUp(A)); /* the face arrays to the back end, the local block's too */
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEStencilSetDensity - gives a MATPPESTENCIL operator the variable coefficients of a density:
   A = W (sigma I - D beta G) with beta = 1/rho on the faces

   Collective

   Input Parameters:
+  A   - a MATPPESTENCIL matrix
-  rho - the density at every point, a Vec of the grid's DMDA (DMCreateGlobalVector() of
         PPEGridGetDM()); finite and positive

   Notes:
   The coefficient of a face comes from the densities of its two points by the face mean
   (PPEStencilSetFaceMean(), -ppe_stencil_face_mean; arithmetic by default: beta = 2/(rho_L + rho_R)).
   A Dirichlet boundary face takes 1/rho of its boundary point; a Neumann face carries no flux.
   The operator stays symmetric (positive definite, or semidefinite with the constant null
   space when the grid is singular).

   Call it again whenever the density changes (a time loop): the operator copies what it
   needs (rho may be changed or destroyed afterwards), increases its state, and the next
   KSPSolve() sets its preconditioners up again. A density with a value that is not finite
   and positive, or a Vec of another layout, is an error that leaves the operator unchanged.

   Level: beginner

.seealso: MATPPESTENCIL, PPEStencilSetFaceCoefficients(), PPEStencilSetFaceMean(), PPEStencilGetCoefficients(), PPEStencilSetConstantCoefficients()
@*/
PetscErrorCode PPEStencilSetDensity(Mat A, Vec rho)
{
  Mat_PPEStencil *st = NULL;
  Vec             v[3];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidHeaderSpecific(rho, VEC_CLASSID, 2);
  PetscCall(GetStencil(A, &st));
  PetscCall(CheckLayout(A, st, rho, "density"));
  PetscCall(CheckPositive(A, rho, "density"));
  PetscCall(PetscLogEventBegin(PPE_StencilCoef, A, rho, 0, 0)); /* (after the checks, which may return an error) */
  if (!st->density) PetscCall(VecDuplicate(rho, &st->density));
  PetscCall(VecCopy(rho, st->density));
  for (int d = 0; d < 3; d++) v[d] = st->density; /* (a one-point direction of a 2D grid has no coupling and no boundary term: its faces get 0) */
  PetscCall(SetFaces(A, PPE_COEFFICIENTS_DENSITY, v));
  PetscCall(PetscLogEventEnd(PPE_StencilCoef, A, rho, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEStencilSetFaceCoefficients - gives a MATPPESTENCIL operator the coefficients beta of its
   faces: A = W (sigma I - D beta G), for codes that hold face values

   Collective

   Input Parameters:
+  A    - a MATPPESTENCIL matrix
.  n    - the number of Vecs: the grid's dimension
-  beta - beta[u], u < n, a Vec of the grid's DMDA (DMCreateGlobalVector() of PPEGridGetDM())
          whose value at a point is the coefficient of the face between that point and its
          lower neighbour along the grid's direction u (the DMDA's own direction u); finite and
          positive

   Notes:
   On a periodic direction the value at the first point is the coefficient of the face across
   the periodic boundary. On a non-periodic direction the value at the first point is that of
   the lower boundary face (used by a Dirichlet condition), and the upper boundary face takes
   the value of the last point (its own lower face). The operator copies the values; see
   PPEStencilSetDensity() for what a change does.

   Level: intermediate

.seealso: MATPPESTENCIL, PPEStencilSetDensity(), PPEStencilGetCoefficients()
@*/
PetscErrorCode PPEStencilSetFaceCoefficients(Mat A, PetscInt n, const Vec beta[])
{
  Mat_PPEStencil *st   = NULL;
  Vec             v[3] = {NULL, NULL, NULL};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(GetStencil(A, &st));
  PetscCheck(n == st->grid->dim, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_SIZ, "Give one Vec of face coefficients per direction of the %" PetscInt_FMT "D grid, not %" PetscInt_FMT, st->grid->dim, n);
  PetscAssertPointer(beta, 3);
  for (PetscInt u = 0; u < n; u++) {
    char what[64];
    PetscValidHeaderSpecific(beta[u], VEC_CLASSID, 3);
    PetscCall(PetscSNPrintf(what, sizeof(what), "face coefficient Vec of direction %" PetscInt_FMT, u));
    PetscCall(CheckLayout(A, st, beta[u], what));
    PetscCall(CheckPositive(A, beta[u], what));
    v[PPEGridKernelDir(st->grid->dim, u)] = beta[u];
  }
  PetscCall(PetscLogEventBegin(PPE_StencilCoef, A, 0, 0, 0));
  PetscCall(VecDestroy(&st->density));
  PetscCall(SetFaces(A, PPE_COEFFICIENTS_FACES, v));
  PetscCall(PetscLogEventEnd(PPE_StencilCoef, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEStencilSetConstantCoefficients - returns a MATPPESTENCIL operator to the constant
   coefficient operator W (sigma I - Lap_h)

   Collective

   Level: intermediate

.seealso: PPEStencilSetDensity(), PPEStencilSetFaceCoefficients()
@*/
PetscErrorCode PPEStencilSetConstantCoefficients(Mat A)
{
  Mat_PPEStencil *st = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(GetStencil(A, &st));
  if (st->coef == PPE_COEFFICIENTS_CONSTANT) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PPEStencilCoefReset(A));
  PetscCall(PPEStencilStateSetUp(A));
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEStencilSetFaceMean - how a face's coefficient comes from the densities of its two points

   Collective

   Input Parameters:
+  A    - a MATPPESTENCIL matrix
-  mean - PPE_FACE_MEAN_ARITHMETIC (beta = 2/(rho_L + rho_R), the default) or
          PPE_FACE_MEAN_HARMONIC (beta = (1/rho_L + 1/rho_R)/2)

   Options Database Key:
.  -ppe_stencil_face_mean <arithmetic,harmonic> - read by PPEStencilCreate()

   Notes:
   An operator whose coefficients come from a density recomputes them with the new mean.

   Level: intermediate

.seealso: PPEStencilSetDensity(), PPEFaceMean
@*/
PetscErrorCode PPEStencilSetFaceMean(Mat A, PPEFaceMean mean)
{
  Mat_PPEStencil *st = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(A, mean, 2);
  PetscCall(GetStencil(A, &st));
  PetscCheck(mean == PPE_FACE_MEAN_ARITHMETIC || mean == PPE_FACE_MEAN_HARMONIC, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "Unknown face mean %d", (int)mean);
  if (mean == st->mean) PetscFunctionReturn(PETSC_SUCCESS);
  st->mean = mean;
  if (st->coef == PPE_COEFFICIENTS_DENSITY) {
    Vec v[3];
    for (int d = 0; d < 3; d++) v[d] = st->density; /* (a one-point direction of a 2D grid has no coupling and no boundary term: its faces get 0) */
    PetscCall(SetFaces(A, PPE_COEFFICIENTS_DENSITY, v));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEStencilGetFaceMean - how a face's coefficient comes from the densities

   Not Collective

   Level: intermediate

.seealso: PPEStencilSetFaceMean()
@*/
PetscErrorCode PPEStencilGetFaceMean(Mat A, PPEFaceMean *mean)
{
  Mat_PPEStencil *st = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(mean, 2);
  PetscCall(GetStencil(A, &st));
  *mean = st->mean;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEStencilGetCoefficients - where the coefficients of a MATPPESTENCIL operator come from and
   the range of its face coefficients beta

   Not Collective

   Input Parameter:
.  A - a MATPPESTENCIL matrix

   Output Parameters:
+  kind - PPE_COEFFICIENTS_CONSTANT, PPE_COEFFICIENTS_DENSITY or PPE_COEFFICIENTS_FACES (or NULL)
.  bmin - the smallest beta of a face over all ranks (1 for constant coefficients; or NULL)
-  bmax - the largest (or NULL)

   Level: intermediate

.seealso: PPEStencilSetDensity(), PPEStencilSetFaceCoefficients()
@*/
PetscErrorCode PPEStencilGetCoefficients(Mat A, PPEStencilCoefficients *kind, PetscReal *bmin, PetscReal *bmax)
{
  Mat_PPEStencil *st = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(GetStencil(A, &st));
  if (kind) *kind = st->coef;
  if (bmin) *bmin = st->coef == PPE_COEFFICIENTS_CONSTANT ? 1.0 : st->brange[0];
  if (bmax) *bmax = st->coef == PPE_COEFFICIENTS_CONSTANT ? 1.0 : st->brange[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Back to constant coefficients (the state on the back end is the caller's to remake). */
PetscErrorCode PPEStencilCoefReset(Mat A)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;

  PetscFunctionBegin;
  PetscCall(PetscFree(st->kbuf));
  PetscCall(VecDestroy(&st->density));
  st->box.K     = (ppe_s7_faces){NULL, NULL, NULL};
  st->coef      = PPE_COEFFICIENTS_CONSTANT;
  st->brange[0] = st->brange[1] = 1.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The coefficients of A copied into B, an operator on the same grid (MatDuplicate). */
PetscErrorCode PPEStencilCoefCopy(Mat A, Mat B)
{
  Mat_PPEStencil *a = (Mat_PPEStencil *)A->data, *b = (Mat_PPEStencil *)B->data;
  size_t          nf[3], n;

  PetscFunctionBegin;
  b->mean = a->mean;
  if (a->coef == PPE_COEFFICIENTS_CONSTANT) PetscFunctionReturn(PETSC_SUCCESS);
  PPEStencilFaceCounts(&a->box, nf);
  n = nf[0] + nf[1] + nf[2];
  PetscCall(PetscFree(b->kbuf));
  PetscCall(PetscMalloc1(n, &b->kbuf));
  PetscCall(PetscArraycpy(b->kbuf, a->kbuf, n));
  b->box.K = (ppe_s7_faces){b->kbuf, b->kbuf + nf[0], b->kbuf + nf[0] + nf[1]};
  b->coef  = a->coef;
  PetscCall(PetscArraycpy(b->brange, a->brange, 2));
  if (a->density) {
    PetscCall(VecDestroy(&b->density));
    PetscCall(VecDuplicate(a->density, &b->density));
    PetscCall(VecCopy(a->density, b->density));
  }
  PetscCall(PPEStencilStateSetUp(B));
  PetscCall(PetscObjectStateIncrease((PetscObject)B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEStencilIsGridOperator - whether P is the constant-coefficient operator of grid, whose
   spectrum the grid knows: a MATPPESTENCIL of that grid without coefficients of its own, or
   another matrix (an assembled twin, a user's matrix on the grid's DMDA) whose diagonal is the
   grid operator's to 1e-12 relative (a variable coefficient changes the diagonal wherever it
   varies). Collective.
*/
PetscErrorCode PPEStencilIsGridOperator(Mat P, PPEGrid grid, PetscBool *flg)
{
  PetscBool     isst;
  PPEStencilBox B;
  Vec           d;
  PetscScalar  *ref;
  PetscInt      n;
  PetscReal     err = 0, big = 0, all[2], loc[2];

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)P, MATPPESTENCIL, &isst));
  if (isst) {
    Mat_PPEStencil *st = (Mat_PPEStencil *)P->data;
    *flg               = (PetscBool)(st->grid == grid && st->coef == PPE_COEFFICIENTS_CONSTANT);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *flg = PETSC_FALSE;
  if (!P->ops->getdiagonal) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PPEStencilBoxSetUp(grid, &B));
  PetscCall(MatCreateVecs(P, &d, NULL));
  PetscCall(VecGetLocalSize(d, &n));
  PetscCall(PetscMalloc1(n + 1, &ref));
  if (n == B.xm * B.ym * B.zm) PPEStencilBoxDiagonal(&B, ref);
  else err = PETSC_MAX_REAL;
  PetscCall(MatGetDiagonal(P, d));
  if (err == 0) {
    const PetscScalar *a;
    PetscCall(VecGetArrayRead(d, &a));
    for (PetscInt i = 0; i < n; i++) {
      err = PetscMax(err, PetscAbsScalar(a[i] - ref[i]));
      big = PetscMax(big, PetscAbsScalar(ref[i]));
    }
    PetscCall(VecRestoreArrayRead(d, &a));
  }
  loc[0] = err;
  loc[1] = big;
  PetscCall(MPIU_Allreduce(loc, all, 2, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)P)));
  *flg = (PetscBool)(all[0] <= 1e-12 * all[1]);
  PetscCall(PetscFree(ref));
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}
