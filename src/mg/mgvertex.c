/*
   Vertex-centred levels of geometric multigrid (PC ppemg): coarse nodes, linear transfers and
   coarse face coefficients.

   Method:
     The unknowns of a vertex-centred direction are mesh nodes (a Dirichlet end node is known and
     not an unknown). A coarse grid keeps every second node of a halved direction, both end nodes
     included, so the coarse grid is the fine grid with half its intervals (a stretched z stays
     stretched). Where the number of intervals is odd one coarse interval is a single fine one: the
     wider of the two end intervals, so that a narrow interval left alone on one level is paired
     on the next (the rule PPEMGLoneFirst applies to cells). A coarse node lives on the rank that
     owns it as a fine node.

     Transfers: P interpolates linearly along every halved direction (trilinear in 3D, with the
     weights of the node coordinates, so lone intervals and stretched lines are exact for linear
     functions); a coarse neighbour that is a Dirichlet node contributes 0 (corrections vanish
     there). R = P^T times the ratio of the fine and coarse reference spacings per halved
     direction (1/2 on an even halving: full weighting), as for cells (PPEMGCoarseScale). The
     corner values a fine node needs live on the neighbouring ranks: they come through a twin of
     the coarse DMDA with a box stencil, and R adds its ghost contributions back through it.

     Coarse operators are discretised again on the coarse grid: constant coefficients directly;
     variable ones A = W (sigma I - D beta G) through their face coefficients beta
     (PPEStencilSetFaceCoefficients), the coarse face between two coarse nodes taking the mean of
     the beta of the fine faces between them weighted by their lengths (arithmetic for the rule
     `average`, the Galerkin product of linear interpolation in 1D; harmonic for `harmonic`, the
     fine faces in series) and, across, the beta of the fine faces through the coarse nodes
     (injection). This is the coarse operator of linear interpolation and full weighting of the
     vertex-centred multigrid codes (Trottenberg, Oosterlee and Schuller, Multigrid, Academic
     Press 2001, section 2.3); on constant coefficients it is the coarse grid's own operator.
*/
#include <ppekit/private/mgimpl.h>
#include <petscdmda.h>

PetscInt PPEMGVertexSelect(PetscInt nint, const PetscReal l[], PetscInt sel[])
{
  PetscInt n = 0, p = 0;

  if (nint % 2 && l[1] - l[0] > (1 + 1e-8) * (l[nint] - l[nint - 1])) p = 1; /* the lower end interval stays alone */
  sel[n++] = 0;
  for (PetscInt v = 1; v < nint; v++)
    if (v % 2 == p) sel[n++] = v;
  sel[n++] = nint;
  return n;
}

PetscInt PPEMGVertexExtents(PetscInt nint, const PetscReal l[], PetscInt first, PetscInt P, const PetscInt own[], PetscInt ext[], PetscInt sel[])
{
  PetscInt ns = PPEMGVertexSelect(nint, l, sel), q = 0, s = first, nc = 0;

  for (PetscInt r = 0; r < P; r++) {
    ext[r] = 0;
    for (; q < ns && sel[q] < s + own[r]; q++)
      if (sel[q] >= s) ext[r]++;
    s += own[r];
    nc += ext[r];
  }
  return nc;
}

/* The linear weights of a vertex-centred pair of levels, shared by its interpolation and its
   restriction (freed with the last of them). */
typedef struct {
  PetscInt   refct;
  PetscInt   fm[3], gm[3]; /* fine box extent; ghost box extent of the coarse twin (kernel order) */
  PetscInt  *i0[3], *i1[3];
  PetscReal *w0[3], *w1[3]; /* per fine index along d: two coarse ghost-box indices and weights */
  DM         dab;           /* the coarse DMDA with a box stencil */
} MGVWeights;

/* One transfer of a vertex-centred pair of levels. */
typedef struct {
  PPEMGTransferOps ops; /* first: the shared shell code reads it */
  MGVWeights      *w;
} MGVTransfer;

/* The two coarse neighbours of the fine unknowns of this rank along kernel direction d and their
   linear weights (ghost-box indices of the coarse twin, start gs). */
static PetscErrorCode Weights1d(MGVWeights *t, PPEGrid fine, PPEGrid coarse, int d, PetscInt gs)
{
  const PPEGrid1d *g = &fine->dir[d];
  PetscInt         s = fine->box.s[d], m = fine->box.m[d], Nc = coarse->box.N[d], first = PPEMGVertexFirst(g), *sel, ns, q = 0;
  PetscBool        per = (PetscBool)(g->bc[0] == PPE_BC_PERIODIC);

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(m, &t->i0[d], m, &t->i1[d], m, &t->w0[d], m, &t->w1[d]));
  if (Nc == fine->box.N[d]) { /* not halved: the same index */
    for (PetscInt i = 0; i < m; i++) {
      t->i0[d][i] = t->i1[d][i] = s + i - gs;
      t->w0[d][i]               = 1;
      t->w1[d][i]               = 0;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc1(g->nint + 1, &sel));
  ns = PPEMGVertexSelect(g->nint, g->lines, sel);
  for (PetscInt i = 0; i < m; i++) {
    PetscInt  v = s + i + first, J;
    PetscReal a;

    while (q + 1 < ns && sel[q + 1] <= v) q++;
    J           = q - first;
    a           = sel[q] == v ? 0.0 : (g->lines[v] - g->lines[sel[q]]) / (g->lines[sel[q + 1]] - g->lines[sel[q]]);
    t->w0[d][i] = 1 - a;
    t->w1[d][i] = a;
    if (!per && J < 0) t->w0[d][i] = 0; /* a Dirichlet end node */
    if (!per && J + 1 >= Nc) t->w1[d][i] = 0;
    t->i0[d][i] = t->w0[d][i] != 0 ? J - gs : J + 1 - gs;
    t->i1[d][i] = t->w1[d][i] != 0 ? J + 1 - gs : t->i0[d][i];
    PetscCheck(t->i0[d][i] >= 0 && t->i0[d][i] < t->gm[d] && t->i1[d][i] >= 0 && t->i1[d][i] < t->gm[d], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Coarse node outside the ghost box");
  }
  PetscCall(PetscFree(sel));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The index in the coarse ghost box of fine point (i, j, k)'s corner (a, b, c) and its weight. */
static inline PetscInt Corner(const MGVWeights *t, PetscInt i, PetscInt j, PetscInt k, int a, int b, int c, PetscReal *w)
{
  *w = (a ? t->w1[0][i] : t->w0[0][i]) * (b ? t->w1[1][j] : t->w0[1][j]) * (c ? t->w1[2][k] : t->w0[2][k]);
  return ((c ? t->i1[2][k] : t->i0[2][k]) * t->gm[1] + (b ? t->i1[1][j] : t->i0[1][j])) * t->gm[0] + (a ? t->i1[0][i] : t->i0[0][i]);
}

/* yf (+)= a P xc */
static PetscErrorCode VProlong(void *ctx, PetscReal a, Vec xc, Vec yf, PetscBool add)
{
  const MGVWeights  *t = ((const MGVTransfer *)ctx)->w;
  Vec                l;
  const PetscScalar *x;
  PetscScalar       *y;
  size_t             n = 0;

  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(t->dab, &l));
  PetscCall(DMGlobalToLocal(t->dab, xc, INSERT_VALUES, l));
  PetscCall(VecGetArrayRead(l, &x));
  PetscCall(VecGetArray(yf, &y));
  for (PetscInt k = 0; k < t->fm[2]; k++)
    for (PetscInt j = 0; j < t->fm[1]; j++)
      for (PetscInt i = 0; i < t->fm[0]; i++, n++) {
        PetscScalar s = 0;
        PetscReal   w;

        for (int q = 0; q < 8; q++) {
          PetscInt o = Corner(t, i, j, k, q & 1, (q >> 1) & 1, q >> 2, &w);
          if (w != 0) s += w * x[o];
        }
        y[n] = add ? y[n] + a * s : a * s;
      }
  PetscCall(VecRestoreArray(yf, &y));
  PetscCall(VecRestoreArrayRead(l, &x));
  PetscCall(DMRestoreLocalVector(t->dab, &l));
  PetscCall(PetscLogFlops(16.0 * t->fm[0] * t->fm[1] * t->fm[2]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* yc (+)= a P^T xf: every fine value spread to its coarse corners, those of other ranks added
   there */
static PetscErrorCode VRestrict(void *ctx, PetscReal a, Vec xf, Vec yc, PetscBool add)
{
  const MGVWeights  *t = ((const MGVTransfer *)ctx)->w;
  Vec                l, g;
  const PetscScalar *x;
  PetscScalar       *y;
  size_t             n = 0;

  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(t->dab, &l));
  PetscCall(DMGetGlobalVector(t->dab, &g));
  PetscCall(VecZeroEntries(l));
  PetscCall(VecZeroEntries(g));
  PetscCall(VecGetArrayRead(xf, &x));
  PetscCall(VecGetArray(l, &y));
  for (PetscInt k = 0; k < t->fm[2]; k++)
    for (PetscInt j = 0; j < t->fm[1]; j++)
      for (PetscInt i = 0; i < t->fm[0]; i++, n++)
        for (int q = 0; q < 8; q++) {
          PetscReal w;
          PetscInt  o = Corner(t, i, j, k, q & 1, (q >> 1) & 1, q >> 2, &w);
          if (w != 0) y[o] += a * w * x[n];
        }
  PetscCall(VecRestoreArray(l, &y));
  PetscCall(VecRestoreArrayRead(xf, &x));
  PetscCall(DMLocalToGlobal(t->dab, l, ADD_VALUES, g));
  if (add) PetscCall(VecAXPY(yc, 1.0, g));
  else PetscCall(VecCopy(g, yc));
  PetscCall(DMRestoreGlobalVector(t->dab, &g));
  PetscCall(DMRestoreLocalVector(t->dab, &l));
  PetscCall(PetscLogFlops(16.0 * t->fm[0] * t->fm[1] * t->fm[2]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MGVTransferDestroy(PPECtxDestroyArg arg)
{
  MGVTransfer *tr = (MGVTransfer *)PPECtxFromDestroyArg(arg);
  MGVWeights  *t  = tr->w;

  PetscFunctionBegin;
  if (--t->refct == 0) {
    for (int d = 0; d < 3; d++) PetscCall(PetscFree4(t->i0[d], t->i1[d], t->w0[d], t->w1[d]));
    PetscCall(DMDestroy(&t->dab));
    PetscCall(PetscFree(t));
  }
  PetscCall(PetscFree(tr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The coarse DMDA's twin with a box stencil of width 1 (the same layout and ownership). */
static PetscErrorCode BoxTwin(DM da, DM *dab)
{
  PetscInt        dim, M[3], p[3];
  const PetscInt *l[3] = {NULL, NULL, NULL};
  DMBoundaryType  bt[3];

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, &dim, &M[0], &M[1], &M[2], &p[0], &p[1], &p[2], NULL, NULL, &bt[0], &bt[1], &bt[2], NULL));
  PetscCall(DMDAGetOwnershipRanges(da, &l[0], &l[1], &l[2]));
  PetscCall(PPEMGCreateDMDA(PetscObjectComm((PetscObject)da), dim, M, p, bt, l, DMDA_STENCIL_BOX, dab));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode VTransferShell(PPEGrid fine, PPEGrid coarse, MGVWeights *w, PetscBool restrict_op, Mat *T)
{
  MGVTransfer *t;

  PetscFunctionBegin;
  PetscCall(PetscNew(&t));
  t->w = w;
  w->refct++;
  t->ops = (PPEMGTransferOps){.restrict_op = restrict_op, .prolong = VProlong, .restrict_ = VRestrict};
  PetscCall(PPEMGTransferShell(fine, coarse, t, MGVTransferDestroy, restrict_op ? "ppemg restriction (full weighting)" : "ppemg interpolation (linear)", T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEMGVertexTransferCreate(PPEGrid fine, PPEGrid coarse, Mat *P, Mat *R)
{
  MGVWeights *w;
  PetscInt    gs[3];

  PetscFunctionBegin;
  PetscCall(PetscNew(&w));
  PetscCall(BoxTwin(coarse->da, &w->dab));
  PetscCall(PPEMGGhostBox(w->dab, coarse->dim, gs, w->gm));
  for (int d = 0; d < 3; d++) {
    w->fm[d] = fine->box.m[d];
    PetscCall(Weights1d(w, fine, coarse, d, gs[d]));
  }
  PetscCall(VTransferShell(fine, coarse, w, PETSC_FALSE, P));
  PetscCall(VTransferShell(fine, coarse, w, PETSC_TRUE, R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* beta of the faces below this rank's points along kernel direction d of fine operator st (K over
   the grid's geometric coupling; 1 on a face without coupling: a Neumann end) into global vector v. */
static PetscErrorCode FineBeta(const Mat_PPEStencil *st, int d, Vec v)
{
  const PPEStencilBox *B = &st->box;
  const PPEGrid1d     *g = &st->grid->dir[d];
  PetscInt             a = d == 0 ? 1 : 0, b = d == 2 ? 1 : 2, s[3] = {B->xs, B->ys, B->zs};
  PetscScalar         *y;
  size_t               n = 0;

  PetscFunctionBegin;
  PetscCall(VecGetArrayWrite(v, &y));
  for (PetscInt kk = 0; kk < B->zm; kk++)
    for (PetscInt jj = 0; jj < B->ym; jj++)
      for (PetscInt ii = 0; ii < B->xm; ii++, n++) {
        PetscInt  p[3] = {ii, jj, kk}, gi = s[d] + p[d];
        PetscReal w = st->grid->dir[a].w[s[a] + p[a]] * st->grid->dir[b].w[s[b] + p[b]], t = (!B->per[d] && gi == 0) ? g->tbe[0] : g->tlo[gi];
        double    K = d == 0 ? B->K.x[ppe_s7_fx(B->xm, B->ym, ii, jj, kk)] : d == 1 ? B->K.y[ppe_s7_fy(B->xm, B->ym, ii, jj, kk)] : B->K.z[ppe_s7_fz(B->xm, B->ym, ii, jj, kk)];

        y[n] = w * t > 0 ? K / (w * t) : 1.0;
      }
  PetscCall(VecRestoreArrayWrite(v, &y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The fine node of every coarse node of direction d (identity where d is not halved) into map
   (coarse global unknown index -> fine global unknown index). */
static PetscErrorCode CoarseToFine(const PPEGrid1d *gf, const PPEGrid1d *gc, PetscInt **map)
{
  PetscInt first = PPEMGVertexFirst(gf), *sel;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(gf->nint + 1, gc->n), map));
  if (gc->n == gf->n) {
    for (PetscInt J = 0; J < gc->n; J++) (*map)[J] = J;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc1(gf->nint + 1, &sel));
  (void)PPEMGVertexSelect(gf->nint, gf->lines, sel);
  for (PetscInt J = 0; J < gc->n; J++) (*map)[J] = sel[J + first] - first;
  PetscCall(PetscFree(sel));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The coordinate of node v of direction g, continued periodically beyond its ends. */
static PetscReal NodeX(const PPEGrid1d *g, PetscInt v)
{
  PetscReal L = g->lines[g->nint] - g->lines[0];

  return v < 0 ? g->lines[v + g->nint] - L : v > g->nint ? g->lines[v - g->nint] + L : g->lines[v];
}

/* beta of the coarse face below coarse point pc (global kernel indices) along d: the mean of the
   beta of the fine faces between its node and the coarse node below, weighted by their lengths,
   arithmetic (average) or harmonic, in the fine column through the coarse node (injection across;
   averaging over the neighbouring columns with the hat weights of the Galerkin product, measured,
   gives 12, 15, 15 CG iterations on the bubbles at 33^3, 64^3, 96^3 against 12, 13, 12 for this).
   map: coarse to fine unknowns per direction (nc coarse unknowns along d); lb: local ghosted fine
   beta of the faces along d with ghost box gs, gm. */
static PetscReal CoarseFaceBeta(const PPEGrid1d *gf, PetscInt nc, const PetscInt *map[3], int d, const PetscInt pc[3], const PetscScalar *lb, const PetscInt gs[3], const PetscInt gm[3], PPEMGCoarsenRule rule)
{
  PetscInt  first = PPEMGVertexFirst(gf), f[3], fb = map[d][pc[d]], fa, nint = gf->nint;
  PetscReal sw = 0, sb = 0;

  for (int q = 0; q < 3; q++) f[q] = map[q][pc[q]];
  if (pc[d] > 0) fa = map[d][pc[d] - 1];
  else if (gf->bc[0] == PPE_BC_PERIODIC) fa = map[d][nc - 1] - nint;                                 /* the last coarse node, across the wrap */
  else if (first) fa = -1;                                                                           /* from the Dirichlet end node */
  else return PetscRealPart(lb[((f[2] - gs[2]) * gm[1] + (f[1] - gs[1])) * gm[0] + (f[0] - gs[0])]); /* a Neumann end: no flux, any beta */
  for (PetscInt v = fa + 1; v <= fb; v++) {
    PetscReal len = NodeX(gf, v + first) - NodeX(gf, v + first - 1), beta;

    f[d] = v;
    beta = PetscRealPart(lb[((f[2] - gs[2]) * gm[1] + (f[1] - gs[1])) * gm[0] + (f[0] - gs[0])]);
    sw += len;
    sb += rule == PPE_MG_COARSEN_AVERAGE ? len * beta : len / beta;
  }
  return rule == PPE_MG_COARSEN_AVERAGE ? sb / sw : sw / sb;
}

PetscErrorCode PPEMGVertexCoarsenOperator(Mat Af, Mat Ac, PPEMGCoarsenRule rule)
{
  Mat_PPEStencil *sf = (Mat_PPEStencil *)Af->data, *sc = (Mat_PPEStencil *)Ac->data;
  PPEGrid         gf = sf->grid, gc = sc->grid;
  PetscInt       *map[3], gs[3], gm[3], dim = gf->dim;
  Vec             vf, lf, vc[3] = {NULL, NULL, NULL};

  PetscFunctionBegin;
  for (int d = 0; d < 3; d++) PetscCall(CoarseToFine(&gf->dir[d], &gc->dir[d], &map[d]));
  PetscCall(DMGetGlobalVector(gf->da, &vf));
  PetscCall(DMGetLocalVector(gf->da, &lf));
  PetscCall(PPEMGGhostBox(gf->da, dim, gs, gm));
  for (PetscInt u = 0; u < dim; u++) {
    int                d = (int)PPEGridKernelDir(dim, u);
    const PetscScalar *lb;
    PetscScalar       *y;
    size_t             n = 0;

    PetscCall(FineBeta(sf, d, vf));
    PetscCall(DMGlobalToLocal(gf->da, vf, INSERT_VALUES, lf));
    PetscCall(DMGetGlobalVector(gc->da, &vc[u]));
    PetscCall(VecGetArrayRead(lf, &lb));
    PetscCall(VecGetArrayWrite(vc[u], &y));
    for (PetscInt kk = 0; kk < gc->box.m[2]; kk++)
      for (PetscInt jj = 0; jj < gc->box.m[1]; jj++)
        for (PetscInt ii = 0; ii < gc->box.m[0]; ii++, n++) {
          PetscInt pc[3] = {gc->box.s[0] + ii, gc->box.s[1] + jj, gc->box.s[2] + kk};

          y[n] = CoarseFaceBeta(&gf->dir[d], gc->dir[d].n, (const PetscInt **)map, d, pc, lb, gs, gm, rule);
        }
    PetscCall(VecRestoreArrayWrite(vc[u], &y));
    PetscCall(VecRestoreArrayRead(lf, &lb));
  }
  PetscCall(DMRestoreLocalVector(gf->da, &lf));
  PetscCall(DMRestoreGlobalVector(gf->da, &vf));
  PetscCall(PPEStencilSetFaceCoefficients(Ac, dim, vc));
  for (PetscInt u = 0; u < dim; u++) PetscCall(DMRestoreGlobalVector(gc->da, &vc[u]));
  for (int d = 0; d < 3; d++) PetscCall(PetscFree(map[d]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
