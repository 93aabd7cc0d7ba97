/*
   The hierarchy of geometric multigrid on PPEKit's grids: coarse grids, coarse operators and
   the transfers between levels (PC ppemg wires them into PCMG).

   Method (vertex-centred grids keep every second node instead, with linear transfers:
   src/mg/mgvertex.c; the plan, the coarse grids' DMDAs and the shells are shared):
     Cell-centred grids are coarsened by 2 in their strongly coupled directions: those whose
     smallest spacing is within sqrt(2) of the smallest of all, so that on a uniform cube every
     direction is halved (a coarse cell is the union of its 2 x 2 x 2, in 2D 2 x 2, children)
     and directions of different spacings are halved until they match (semi-coarsening; z is
     never halved under a z-line smoother, which solves its couplings exactly). Where z is
     halved the coarse z lines are every second fine one, so a stretched grid stays the same
     grid with fewer lines. Each coarse DMDA is owned in the fine one's blocks halved: the
     parent of every fine point lives on the same rank and the transfers move no data between
     ranks. A block of odd extent keeps one cell alone (the wider of its two end cells,
     PPEMGLoneFirst, so that the narrow lone cell of the level above is paired next), and the
     coarse grid takes its own mesh lines there; coarsening stops where a rank would own a
     single point or a direction would have fewer than min_n.

     Transfers: piecewise-constant interpolation P (each fine point takes its parent's value)
     and the average of the children R = P^T / 2^c (c the number of coarsened directions; with
     lone cells the ratio of the fine and coarse reference spacings, PPEMGCoarseScale). A
     face whose normal is not coarsened keeps its fine value summed across the coarsened
     directions (the fine faces that make it up conduct in parallel).

     Coarse operators stay matrix-free MATPPESTENCIL operators. A constant-coefficient
     operator is discretised again on the coarse grid (as face coefficients 1 where lone cells
     make x or y non-uniform: the constant row loops need uniform x). A variable one A = W (sigma I - D beta G)
     keeps, for every face, K = (geometric coupling) x beta (src/stencil/stencilcoef.c), and a
     coarse face gets its K from the fine faces as a conductance of a network of resistors:
     across the face the 2^(c-1) fine columns conduct in parallel (their K add up); along the
     normal the path between the two coarse centres crosses half of the fine face inside the
     lower coarse cell, the fine face that coincides with the coarse one, and half of the one
     inside the upper coarse cell, in series:

       1/K_c = 1/(2 S_lo) + 1/S_mid + 1/(2 S_hi),   S = sum of the fine K across the coarse face,

     and at a Dirichlet boundary 1/K_c = 1/S_bnd + 1/(2 S_in). A jump of the coefficient along
     the normal is thus averaged harmonically (the small beta of a heavy phase limits the flux,
     as it does on the fine grid) and across arithmetically (Alcouffe, Brandt, Dendy and
     Painter, "The multi-grid method for the diffusion equation with strongly discontinuous
     coefficients", SIAM J. Sci. Stat. Comput. 2, 1981, use the same two averages for their
     operator-dependent transfers). On a uniform grid with constant beta it gives the coarse
     operator exactly; a lone cell has no inner face and adds nothing to the path. The rule
     "average" keeps the coinciding fine faces only (S_mid / 2, in general S_mid times the fine
     face's span over the coarse face's, as
     HPGMG-FV restricts face coefficients; Adams, Brown, Knepley and Samtaney, "Segmental
     refinement: a multigrid technique for data locality", SIAM J. Sci. Comput. 38, 2016). The
     result is in the coarse grid's own scaling: divided by 2^c (PPEMGCoarseScale), with R the average, so that
     P A_c^-1 R = P (2^c A_c)^-1 P^T and 2^c A_c is the coarse operator in the fine one's units.
*/
#include <ppekit/private/mgimpl.h>

const char *const PPEMGCoarsenRules[] = {"harmonic", "average", "PPEMGCoarsenRule", "PPE_MG_COARSEN_", NULL};

PetscReal PPEMGMinSpacing(const PPEGrid1d *g)
{
  PetscReal w = PETSC_MAX_REAL;

  for (PetscInt k = 0; k < g->nint; k++) w = PetscMin(w, g->lines[k + 1] - g->lines[k]);
  return w;
}

PetscInt PPEMGCoarseExtent(PetscInt m, int c)
{
  return c == 2 ? (m + 1) / 2 : m;
}

PetscInt PPEMGLoneFirst(const PPEGrid1d *g, PetscInt s, PetscInt m, int c)
{
  if (c != 2 || m % 2 == 0) return 0;
  return g->lines[s + 1] - g->lines[s] > (1 + 1e-8) * (g->lines[s + m] - g->lines[s + m - 1]) ? 1 : 0;
}

/* Whether direction d of level l, whose ranks own ext[0..P-1] points (nc once halved), cannot
   be halved again (too few points, or a rank with a single point), and why. */
static PetscErrorCode CannotHalve(PPEGrid grid, int d, PetscInt l, const PetscInt ext[], PetscInt nc, PetscInt min_n, char why[], size_t len, PetscBool *cannot)
{
  const PPEDMDABox *b       = &grid->box;
  static const char names[] = "xyz";
  char              dn      = names[PPEGridUserDir(grid->dim, d) < 0 ? d : PPEGridUserDir(grid->dim, d)];
  PetscInt          n       = 0;

  PetscFunctionBegin;
  *cannot = PETSC_TRUE;
  for (PetscInt r = 0; r < b->P[d]; r++) n += ext[r];
  if (nc < min_n) {
    if (why) PetscCall(PetscSNPrintf(why, len, "%" PetscInt_FMT " points along %c on level %" PetscInt_FMT " (a coarser level would have fewer than %" PetscInt_FMT ")", n, dn, l, min_n));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt r = 0; r < b->P[d]; r++) {
    if (ext[r] >= 2) continue;
    if (why) PetscCall(PetscSNPrintf(why, len, "a rank owns %" PetscInt_FMT " point along %c on level %" PetscInt_FMT " (halving needs at least 2 on every rank)", ext[r], dn, l));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *cannot = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The mesh lines of a direction as the plan coarsens it (vertex-centred grids: which nodes stay
   depends on the interval widths) and a buffer for the selection. */
typedef struct {
  PetscReal *l;
  PetscInt   nint, first, *sel;
} PlanLines;

/* The extents cext of direction d's ranks once halved (their sum returned); with adv, a
   vertex-centred direction's lines become the coarse nodes. */
static PetscInt HalvedExtents(PPEGrid grid, int d, const PetscInt ext[], PetscInt cext[], PlanLines *v, PetscBool adv)
{
  PetscInt nc = 0, ns;

  if (grid->location == PPE_LOCATION_CELL) {
    for (PetscInt r = 0; r < grid->box.P[d]; r++) nc += cext[r] = PPEMGCoarseExtent(ext[r], 2);
    return nc;
  }
  nc = PPEMGVertexExtents(v->nint, v->l, v->first, grid->box.P[d], ext, cext, v->sel);
  if (adv) {
    ns = PPEMGVertexSelect(v->nint, v->l, v->sel);
    for (PetscInt q = 0; q < ns; q++) v->l[q] = v->l[v->sel[q]];
    v->nint = ns - 1;
  }
  return nc;
}

PetscErrorCode PPEMGMaxLevels(PPEGrid grid, PetscBool keepz, PetscInt min_n, PetscInt maxlev, int c[][3], PetscInt N[][3], PetscInt *nlev, char why[], size_t len)
{
  const PPEDMDABox *b = &grid->box;
  PetscReal         h[3];
  PetscInt         *ext[3], *cext[3];
  PlanLines         v[3];

  PetscFunctionBegin;
  *nlev = 1;
  if (why) why[0] = 0;
  for (int d = 0; d < 3; d++) {
    const PPEGrid1d *g = &grid->dir[d];

    h[d] = PPEMGMinSpacing(g);
    PetscCall(PetscMalloc2(b->P[d], &ext[d], b->P[d], &cext[d]));
    PetscCall(PetscMalloc2(g->nint + 1, &v[d].l, g->nint + 1, &v[d].sel));
    PetscCall(PetscArraycpy(v[d].l, g->lines, g->nint + 1));
    v[d].nint  = g->nint;
    v[d].first = grid->location == PPE_LOCATION_VERTEX ? PPEMGVertexFirst(g) : 0;
    for (PetscInt r = 0; r < b->P[d]; r++) ext[d][r] = b->own[d][r];
    if (N) N[0][d] = b->N[d];
  }
  while (*nlev < maxlev) {
    PetscReal hmin = PETSC_MAX_REAL;
    int       cc[3];
    PetscBool cannot = PETSC_FALSE;

    for (int d = 0; d < 3; d++)
      if (b->N[d] > 1 && !(keepz && d == 2)) hmin = PetscMin(hmin, h[d]);
    if (hmin == PETSC_MAX_REAL) {
      if (why) PetscCall(PetscSNPrintf(why, len, "level %" PetscInt_FMT ": no direction left to coarsen", *nlev - 1));
      break;
    }
    for (int d = 0; d < 3 && !cannot; d++) {
      /* strong directions only: spacing within sqrt(2) of the smallest (coupling at least half the strongest) */
      cc[d] = b->N[d] > 1 && !(keepz && d == 2) && h[d] <= PETSC_SQRT2 * hmin * (1 + 1e-10) ? 2 : 1;
      if (cc[d] == 2) PetscCall(CannotHalve(grid, d, *nlev - 1, ext[d], HalvedExtents(grid, d, ext[d], cext[d], &v[d], PETSC_FALSE), min_n, why, len, &cannot));
    }
    if (cannot) break;
    for (int d = 0; d < 3; d++) {
      PetscInt n = 0;

      if (cc[d] == 2) {
        n = HalvedExtents(grid, d, ext[d], cext[d], &v[d], PETSC_TRUE);
        PetscCall(PetscArraycpy(ext[d], cext[d], b->P[d]));
        h[d] *= 2; /* nominally (a lone cell or interval is narrower) */
      } else
        for (PetscInt r = 0; r < b->P[d]; r++) n += ext[d][r];
      c[*nlev - 1][d] = cc[d];
      if (N) N[*nlev][d] = n;
    }
    (*nlev)++;
  }
  for (int d = 0; d < 3; d++) {
    PetscCall(PetscFree2(ext[d], cext[d]));
    PetscCall(PetscFree2(v[d].l, v[d].sel));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEMGCreateDMDA(MPI_Comm comm, PetscInt dim, const PetscInt M[3], const PetscInt p[3], const DMBoundaryType bt[3], const PetscInt *l[3], DMDAStencilType st, DM *da)
{
  PetscFunctionBegin;
  PetscCall(DMDACreate(comm, da));
  PetscCall(DMSetDimension(*da, dim));
  PetscCall(DMDASetSizes(*da, M[0], M[1], M[2]));
  PetscCall(DMDASetNumProcs(*da, p[0], p[1], p[2]));
  PetscCall(DMDASetBoundaryType(*da, bt[0], bt[1], bt[2]));
  PetscCall(DMDASetDof(*da, 1));
  PetscCall(DMDASetStencilType(*da, st));
  PetscCall(DMDASetStencilWidth(*da, 1));
  PetscCall(DMDASetOwnershipRanges(*da, l[0], l[1], dim > 2 ? l[2] : NULL));
  PetscCall(DMSetUp(*da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The DMDA of the coarse grid: the fine DMDA's process grid, boundary types and blocks halved
   (user directions). */
static PetscErrorCode CoarseDMDA(PPEGrid fine, const int c[3], DM *dac)
{
  DM              da = fine->da;
  PetscInt        dim, M[3], p[3], *l[3] = {NULL, NULL, NULL};
  const PetscInt *lf[3] = {NULL, NULL, NULL};
  DMBoundaryType  bt[3];

  PetscFunctionBegin;
  /* a 2D DMDA reports one point, one process and no boundary along its third direction */
  PetscCall(DMDAGetInfo(da, &dim, &M[0], &M[1], &M[2], &p[0], &p[1], &p[2], NULL, NULL, &bt[0], &bt[1], &bt[2], NULL));
  PetscCall(DMDAGetOwnershipRanges(da, &lf[0], &lf[1], &lf[2]));
  for (PetscInt u = 0; u < dim; u++) {
    PetscInt         kd = PPEGridKernelDir(dim, u);
    const PPEGrid1d *g  = &fine->dir[kd];

    PetscCall(PetscMalloc1(p[u], &l[u]));
    M[u] = 0;
    if (fine->location == PPE_LOCATION_VERTEX && c[kd] == 2) {
      PetscInt *sel;

      PetscCall(PetscMalloc1(g->nint + 1, &sel));
      M[u] = PPEMGVertexExtents(g->nint, g->lines, PPEMGVertexFirst(g), p[u], lf[u], l[u], sel);
      PetscCall(PetscFree(sel));
    } else
      for (PetscInt r = 0; r < p[u]; r++) M[u] += l[u][r] = PPEMGCoarseExtent(lf[u][r], c[kd]);
  }
  PetscCall(PPEMGCreateDMDA(PetscObjectComm((PetscObject)da), dim, M, p, bt, (const PetscInt **)l, DMDA_STENCIL_STAR, dac));
  for (PetscInt u = 0; u < dim; u++) PetscCall(PetscFree(l[u]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The coarse mesh lines of kernel direction d coarsened by c into lines[] (Nc + 1 of them): in
   every rank's block the first fine line of each coarse cell (pairs of fine cells, one cell
   alone where the block is odd: PPEMGLoneFirst), then the fine grid's last line. */
static void CoarseLines(const PPEGrid1d *g, const PPEDMDABox *b, int d, int c, PetscReal lines[])
{
  PetscInt s = 0, n = 0;

  for (PetscInt r = 0; r < b->P[d]; r++) {
    PetscInt off = PPEMGLoneFirst(g, s, b->own[d][r], c);

    for (PetscInt q = 0; q < PPEMGCoarseExtent(b->own[d][r], c); q++) lines[n++] = g->lines[s + PetscMax(c * q - off, 0)];
    s += b->own[d][r];
  }
  lines[n] = g->lines[g->nint];
}

/* Whether some rank owns an odd number of points along d (halving it leaves a lone cell). */
static PetscBool OddBlock(const PPEDMDABox *b, int d)
{
  for (PetscInt r = 0; r < b->P[d]; r++)
    if (b->own[d][r] % 2) return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscErrorCode PPEMGGridCoarsen(PPEGrid fine, const int c[3], PPEGrid *coarse)
{
  PPEGrid   gc;
  DM        dac;
  PetscInt  dim = fine->dim, n[3] = {1, 1, 1};
  PetscReal L[3] = {1, 1, 1}, o[3] = {0, 0, 0}, *lines;

  PetscFunctionBegin;
  PetscCall(CoarseDMDA(fine, c, &dac));
  PetscCall(DMDAGetInfo(dac, NULL, &n[0], &n[1], &n[2], NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(PPEGridCreate(PetscObjectComm((PetscObject)fine), &gc));
  PetscCall(PPEGridSetDimension(gc, dim));
  for (PetscInt u = 0; u < dim; u++) {
    L[u] = fine->uL[u];
    o[u] = fine->uorigin[u];
  }
  PetscCall(PPEGridSetSizes(gc, n[0], n[1], n[2]));
  PetscCall(PPEGridSetLengths(gc, L[0], L[1], L[2]));
  PetscCall(PPEGridSetOrigin(gc, o[0], o[1], o[2]));
  PetscCall(PPEGridSetBCs(gc, fine->ubc));
  PetscCall(PPEGridSetLocation(gc, fine->location));
  PetscCall(PPEGridSetShift(gc, fine->shift));
  /* a direction keeps uniform spacing where it was uniform and every block halves evenly */
  PetscCall(PetscMalloc1(fine->box.N[0] + fine->box.N[1] + fine->box.N[2] + 1, &lines));
  for (int d = 0; d < 3; d++) {
    const PPEGrid1d *g = &fine->dir[d];
    PetscInt         u = PPEGridUserDir(dim, d), nl = n[u < 0 ? 0 : u] + 1;

    if (u < 0) continue;
    if (fine->location == PPE_LOCATION_VERTEX) { /* every second node (a uniform grid of even nint stays uniform) */
      PetscInt *sel;

      if (g->uniform && (c[d] == 1 || g->nint % 2 == 0)) continue;
      PetscCall(PetscMalloc1(g->nint + 1, &sel));
      nl = c[d] == 1 ? g->nint + 1 : PPEMGVertexSelect(g->nint, g->lines, sel);
      for (PetscInt q = 0; q < nl; q++) lines[q] = g->lines[c[d] == 1 ? q : sel[q]];
      PetscCall(PetscFree(sel));
    } else if (g->uniform && !(c[d] == 2 && OddBlock(&fine->box, d))) continue;
    else CoarseLines(g, &fine->box, d, c[d], lines);
    if (d == 2) PetscCall(PPEGridSetZLines(gc, nl, lines));
    else PetscCall(PPEGridSetLinesInternal(gc, d, nl, lines));
  }
  PetscCall(PetscFree(lines));
  PetscCall(PPEGridSetDM(gc, dac));
  PetscCall(DMDestroy(&dac));
  PetscCall(PPEGridSetUp(gc));
  *coarse = gc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* K of the face of direction d below box point p of the face arrays F of a box xm x ym. */
static inline double FaceK(const ppe_s7_faces *F, PetscInt xm, PetscInt ym, int d, const PetscInt p[3])
{
  if (d == 0) return F->x[ppe_s7_fx(xm, ym, p[0], p[1], p[2])];
  if (d == 1) return F->y[ppe_s7_fy(xm, ym, p[0], p[1], p[2])];
  return F->z[ppe_s7_fz(xm, ym, p[0], p[1], p[2])];
}

/* The fine faces of direction d at fine normal index q (box index, 0..m[d]) under the coarse
   column pc (box indices of the coarse point; its d entry is ignored), summed: S of the header
   (a lone fine cell at the end of an odd block is a coarse cell's only child). */
static double ColumnSum(const PPEStencilBox *Bf, const int c[3], const PetscInt off[3], int d, PetscInt q, const PetscInt pc[3])
{
  int            a = d == 0 ? 1 : 0, b = d == 2 ? 1 : 2;
  const PetscInt fm[3] = {Bf->xm, Bf->ym, Bf->zm};
  double         s     = 0;

  for (PetscInt ib = c[b] * pc[b] - off[b]; ib < c[b] * pc[b] - off[b] + c[b]; ib++)
    for (PetscInt ia = c[a] * pc[a] - off[a]; ia < c[a] * pc[a] - off[a] + c[a]; ia++) {
      PetscInt p[3];

      if (ia < 0 || ia >= fm[a] || ib < 0 || ib >= fm[b]) continue;
      p[d] = q;
      p[a] = ia;
      p[b] = ib;
      s += FaceK(&Bf->K, Bf->xm, Bf->ym, d, p);
    }
  return s;
}

/* Ghosted box of a local vector of the coarse DMDA in kernel order (start and extent). */
PetscErrorCode PPEMGGhostBox(DM da, PetscInt dim, PetscInt gs[3], PetscInt gm[3])
{
  PetscInt s[3], m[3];

  PetscFunctionBegin;
  PetscCall(DMDAGetGhostCorners(da, &s[0], &s[1], &s[2], &m[0], &m[1], &m[2]));
  for (int d = 0; d < 3; d++) {
    PetscInt u = PPEGridUserDir(dim, d);
    gs[d]      = u < 0 ? 0 : s[u];
    gm[d]      = u < 0 ? 1 : m[u];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The resistance inside coarse cell pc along the coarsened normal d, beyond the coarse face
   (harmonic rule): 1/(2 S_in) of the fine face inside the cell; 0 for a lone child, whose centre
   is the coarse centre. */
static double HalfPath(const PPEStencilBox *Bf, const int c[3], const PetscInt off[3], int d, const PetscInt pc[3])
{
  const PetscInt fm[3] = {Bf->xm, Bf->ym, Bf->zm}, f = 2 * pc[d] - off[d]; /* the first child */

  return f < 0 || f + 1 >= fm[d] ? 0.0 : 0.5 / ColumnSum(Bf, c, off, d, f + 1, pc);
}

/* The distance that face i (0..n) of a direction spans: between the centres on its two sides,
   across the wrap where periodic, to the boundary point at a non-periodic end. */
static PetscReal FaceDist(const PPEGrid1d *g, PetscBool per, PetscInt i)
{
  PetscReal wrap = (g->x[0] - g->bpos[0]) + (g->bpos[1] - g->x[g->n - 1]);

  if (i == 0) return per ? wrap : g->x[0] - g->bpos[0];
  if (i == g->n) return per ? wrap : g->bpos[1] - g->x[g->n - 1];
  return g->x[i] - g->x[i - 1];
}

/* The coarse face array of direction d into K. Along a coarsened normal: harmonic rule,
   K = 1/(HalfPath_lo + 1/S_mid + HalfPath_hi), the neighbour's HalfPath exchanged through the
   coarse DMDA where it lives on another rank; average rule, S_mid times the fine face's span over
   the coarse one's (1/2 on a uniform grid halved evenly: the coarse operator of constant
   coefficients exactly, lone cells and stretched lines included). */
static PetscErrorCode CoarsenDirection(const PPEStencilBox *Bf, const PPEStencilBox *Bc, PPEGrid gf, PPEGrid gc, const int c[3], const PetscInt off[3], int d, PPEMGCoarsenRule rule, double scale, double *K)
{
  Vec                g, l;
  PetscScalar       *a;
  const PetscScalar *h    = NULL;
  PetscInt           m[3] = {Bc->xm, Bc->ym, Bc->zm}, s[3] = {Bc->xs, Bc->ys, Bc->zs}, fm[3] = {Bf->xm, Bf->ym, Bf->zm}, fs[3] = {Bf->xs, Bf->ys, Bf->zs}, e[3], gs[3] = {0, 0, 0}, gm[3] = {1, 1, 1};
  PetscBool          exch = (PetscBool)(c[d] == 2 && rule == PPE_MG_COARSEN_HARMONIC), half = (PetscBool)(gf->dir[d].uniform && 2 * Bc->N[d] == Bf->N[d]);
  size_t             n = 0;

  PetscFunctionBegin;
  PetscCall(DMGetGlobalVector(gc->da, &g));
  PetscCall(DMGetLocalVector(gc->da, &l));
  if (exch) {
    PetscCall(VecGetArrayWrite(g, &a));
    for (PetscInt kk = 0; kk < m[2]; kk++)
      for (PetscInt jj = 0; jj < m[1]; jj++)
        for (PetscInt ii = 0; ii < m[0]; ii++) {
          PetscInt pc[3] = {ii, jj, kk};
          a[n++]         = HalfPath(Bf, c, off, d, pc);
        }
    PetscCall(VecRestoreArrayWrite(g, &a));
    PetscCall(DMGlobalToLocal(gc->da, g, INSERT_VALUES, l));
    PetscCall(PPEMGGhostBox(gc->da, gc->dim, gs, gm));
    PetscCall(VecGetArrayRead(l, &h));
  }
  for (int q = 0; q < 3; q++) e[q] = m[q] + (q == d ? 1 : 0);
  n = 0;
  for (PetscInt kk = 0; kk < e[2]; kk++)
    for (PetscInt jj = 0; jj < e[1]; jj++)
      for (PetscInt ii = 0; ii < e[0]; ii++, n++) {
        PetscInt pc[3] = {ii, jj, kk}, q = pc[d], gi = s[d] + q, G = Bc->N[d], qf = PetscMax(PetscMin(c[d] * q - off[d], fm[d]), 0);
        double   smid = ColumnSum(Bf, c, off, d, qf, pc), plo, phi, k;

        if (c[d] == 1) k = smid; /* normal not coarsened: the coinciding fine faces conduct in parallel */
        else if (rule == PPE_MG_COARSEN_AVERAGE) k = half ? 0.5 * smid : smid * (double)(FaceDist(&gf->dir[d], Bf->per[d], fs[d] + qf) / FaceDist(&gc->dir[d], Bc->per[d], gi));
        else if (!Bc->per[d] && gi == 0) k = smid > 0 ? 1.0 / (1.0 / smid + HalfPath(Bf, c, off, d, pc)) : 0.0;
        else if (!Bc->per[d] && gi == G) {
          PetscInt pl[3] = {pc[0], pc[1], pc[2]};

          pl[d] = q - 1;
          k     = smid > 0 ? 1.0 / (HalfPath(Bf, c, off, d, pl) + 1.0 / smid) : 0.0;
        } else {
          PetscInt p[3] = {s[0] + pc[0], s[1] + pc[1], s[2] + pc[2]}, pl[3] = {pc[0], pc[1], pc[2]}, o;

          if (q > 0) {
            pl[d] = q - 1;
            plo   = HalfPath(Bf, c, off, d, pl);
          } else {
            p[d] = s[d] - 1;
            o    = ((p[2] - gs[2]) * gm[1] + (p[1] - gs[1])) * gm[0] + (p[0] - gs[0]);
            plo  = PetscRealPart(h[o]);
          }
          if (q < m[d]) phi = HalfPath(Bf, c, off, d, pc);
          else {
            p[d] = s[d] + m[d];
            o    = ((p[2] - gs[2]) * gm[1] + (p[1] - gs[1])) * gm[0] + (p[0] - gs[0]);
            phi  = PetscRealPart(h[o]);
          }
          k = 1.0 / (plo + 1.0 / smid + phi);
        }
        K[n] = scale * k;
      }
  if (exch) PetscCall(VecRestoreArrayRead(l, &h));
  PetscCall(DMRestoreLocalVector(gc->da, &l));
  PetscCall(DMRestoreGlobalVector(gc->da, &g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The factor that puts a coarse operator into its grid's scaling: the stencil of a grid is the
   volume-weighted operator over the product of its reference spacings (PPEGrid1d href), so
   coarse = fine x (href_fine / href_coarse) per coarsened direction; 1/2 exactly where every
   block halves evenly. */
PetscReal PPEMGCoarseScale(PPEGrid fine, PPEGrid coarse)
{
  PetscReal s = 1;

  for (int d = 0; d < 3; d++) {
    if (coarse->box.N[d] == fine->box.N[d]) continue;
    if (fine->location == PPE_LOCATION_CELL && 2 * coarse->box.N[d] == fine->box.N[d]) s *= 0.5;
    else s *= fine->dir[d].href / coarse->dir[d].href;
  }
  return s;
}

/* The constant operator of a grid whose x or y spacing is non-uniform (a coarse level with lone
   cells) as face coefficients beta = 1: the stencil's constant-coefficient row loops take the
   couplings along x to be the same all along a row, which only uniform spacing gives. */
static PetscErrorCode UnitFaces(Mat A, PPEGrid g)
{
  Vec one[3] = {NULL, NULL, NULL};

  PetscFunctionBegin;
  PetscCall(DMCreateGlobalVector(g->da, &one[0]));
  PetscCall(VecSet(one[0], 1.0));
  for (PetscInt u = 1; u < g->dim; u++) one[u] = one[0];
  PetscCall(PPEStencilSetFaceCoefficients(A, g->dim, one));
  PetscCall(VecDestroy(&one[0]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEMGCoarsenOperator(Mat Af, Mat Ac, PPEMGCoarsenRule rule)
{
  Mat_PPEStencil *sf = (Mat_PPEStencil *)Af->data, *sc = (Mat_PPEStencil *)Ac->data;
  PPEStencilBox  *Bf = &sf->box, *Bc = &sc->box;
  int             c[3];
  PetscInt        off[3];
  size_t          nf[3];
  double         *kbuf;

  PetscFunctionBegin;
  if (!Bf->K.x) {
    if (sc->grid->dir[0].uniform && sc->grid->dir[1].uniform) PetscCall(PPEStencilSetConstantCoefficients(Ac));
    else PetscCall(UnitFaces(Ac, sc->grid));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (sf->grid->location == PPE_LOCATION_VERTEX) {
    PetscCall(PPEMGVertexCoarsenOperator(Af, Ac, rule));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (int d = 0; d < 3; d++) {
    c[d]   = Bc->N[d] < Bf->N[d] ? 2 : 1;
    off[d] = PPEMGLoneFirst(&sf->grid->dir[d], sf->grid->box.s[d], sf->grid->box.m[d], c[d]);
  }
  PetscCheck(Bc->xm == PPEMGCoarseExtent(Bf->xm, c[0]) && Bc->ym == PPEMGCoarseExtent(Bf->ym, c[1]) && Bc->zm == PPEMGCoarseExtent(Bf->zm, c[2]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Coarse grid not aligned with the fine one");
  PPEStencilFaceCounts(Bc, nf);
  PetscCall(PetscMalloc1(nf[0] + nf[1] + nf[2], &kbuf));
  for (int d = 0; d < 3; d++) {
    double *K = kbuf + (d > 0 ? nf[0] : 0) + (d > 1 ? nf[1] : 0);

    if (Bf->N[d] == 1) PetscCall(PetscArrayzero(K, nf[d])); /* a one-point direction: no coupling */
    else PetscCall(CoarsenDirection(Bf, Bc, sf->grid, sc->grid, c, off, d, rule, (double)PPEMGCoarseScale(sf->grid, sc->grid), K));
  }
  PetscCall(PPEStencilSetFaceArrays(Ac, PPE_COEFFICIENTS_FACES, kbuf, sf->brange));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The transfers: box extents of the fine and coarse levels, the coarsening factors, the
   restriction's weight (PPEMGCoarseScale: 1/2^c where every block halves evenly). */
typedef struct {
  PPEMGTransferOps ops; /* first: the shared shell code reads it */
  PetscInt         fm[3], cm[3];
  int              c[3];
  PetscInt         off[3]; /* 1 where this rank's block has its lone cell first (PPEMGLoneFirst) */
  PetscScalar     *sum;    /* the children's sums, one per coarse point */
} MGTransfer;

/* yf (+)= a P xc over the fine box */
static PetscErrorCode Prolong(void *ctx, PetscReal a, Vec xc, Vec yf, PetscBool add)
{
  const MGTransfer  *t = (const MGTransfer *)ctx;
  const PetscScalar *x;
  PetscScalar       *y;
  size_t             n = 0;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(xc, &x));
  if (add) PetscCall(VecGetArray(yf, &y));
  else PetscCall(VecGetArrayWrite(yf, &y));
  for (PetscInt k = 0; k < t->fm[2]; k++)
    for (PetscInt j = 0; j < t->fm[1]; j++) {
      const PetscScalar *xr = x + (((k + t->off[2]) / t->c[2]) * t->cm[1] + (j + t->off[1]) / t->c[1]) * t->cm[0];
      const PetscInt     o  = t->off[0];

      if (add)
        for (PetscInt i = 0; i < t->fm[0]; i++, n++) y[n] += a * xr[(i + o) / t->c[0]];
      else
        for (PetscInt i = 0; i < t->fm[0]; i++, n++) y[n] = a * xr[(i + o) / t->c[0]];
    }
  PetscCall(VecRestoreArrayRead(xc, &x));
  if (add) PetscCall(VecRestoreArray(yf, &y));
  else PetscCall(VecRestoreArrayWrite(yf, &y));
  PetscCall(PetscLogFlops((add ? 2.0 : 1.0) * t->fm[0] * t->fm[1] * t->fm[2]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* yc (+)= a P^T xf: the sum of each coarse point's children times a */
static PetscErrorCode Restrict(void *ctx, PetscReal a, Vec xf, Vec yc, PetscBool add)
{
  MGTransfer        *t = (MGTransfer *)ctx;
  const PetscScalar *x;
  PetscScalar       *y;
  PetscInt           nc = t->cm[0] * t->cm[1] * t->cm[2];

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(xf, &x));
  if (add) PetscCall(VecGetArray(yc, &y));
  else {
    PetscCall(VecGetArrayWrite(yc, &y));
    PetscCall(PetscArrayzero(y, nc));
  }
  PetscCall(PetscArrayzero(t->sum, nc));
  for (PetscInt k = 0; k < t->fm[2]; k++)
    for (PetscInt j = 0; j < t->fm[1]; j++) {
      const PetscScalar *xr = x + (k * t->fm[1] + j) * t->fm[0];
      PetscScalar       *sr = t->sum + (((k + t->off[2]) / t->c[2]) * t->cm[1] + (j + t->off[1]) / t->c[1]) * t->cm[0];
      const PetscInt     o  = t->off[0];

      for (PetscInt i = 0; i < t->fm[0]; i++) sr[(i + o) / t->c[0]] += xr[i];
    }
  for (PetscInt q = 0; q < nc; q++) y[q] += a * t->sum[q];
  PetscCall(VecRestoreArrayRead(xf, &x));
  if (add) PetscCall(VecRestoreArray(yc, &y));
  else PetscCall(VecRestoreArrayWrite(yc, &y));
  PetscCall(PetscLogFlops(1.0 * t->fm[0] * t->fm[1] * t->fm[2] + 2.0 * nc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* z = op(A) x, or with w: z = w + op(A) x (z == w allowed); op the transpose when asked. R is
   P^T times the restriction's weight, so both come from the kind's two loops. */
static PetscErrorCode Apply(Mat A, Vec x, Vec w, Vec z, PetscBool transpose)
{
  PPEMGTransferOps *o;
  void             *ctx;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &ctx));
  o = (PPEMGTransferOps *)ctx;
  if (w && z != w) PetscCall(VecCopy(w, z));
  if (o->restrict_op == transpose) PetscCall(o->prolong(ctx, o->restrict_op ? o->avg : 1.0, x, z, (PetscBool)(w != NULL)));
  else PetscCall(o->restrict_(ctx, o->restrict_op ? o->avg : 1.0, x, z, (PetscBool)(w != NULL)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_MGTransfer(Mat A, Vec x, Vec y)
{
  return Apply(A, x, NULL, y, PETSC_FALSE);
}
static PetscErrorCode MatMultTranspose_MGTransfer(Mat A, Vec x, Vec y)
{
  return Apply(A, x, NULL, y, PETSC_TRUE);
}
static PetscErrorCode MatMultAdd_MGTransfer(Mat A, Vec x, Vec w, Vec z)
{
  return Apply(A, x, w, z, PETSC_FALSE);
}
static PetscErrorCode MatMultTransposeAdd_MGTransfer(Mat A, Vec x, Vec w, Vec z)
{
  return Apply(A, x, w, z, PETSC_TRUE);
}

PetscErrorCode PPEMGTransferShell(PPEGrid fine, PPEGrid coarse, void *ctx, PetscErrorCode (*destroy)(PPECtxDestroyArg), const char *name, Mat *T)
{
  PPEMGTransferOps *o  = (PPEMGTransferOps *)ctx;
  PetscInt          nf = fine->box.m[0] * fine->box.m[1] * fine->box.m[2], nc = coarse->box.m[0] * coarse->box.m[1] * coarse->box.m[2];
  PetscInt          Nf = fine->box.N[0] * fine->box.N[1] * fine->box.N[2], Nc = coarse->box.N[0] * coarse->box.N[1] * coarse->box.N[2];

  PetscFunctionBegin;
  o->avg = PPEMGCoarseScale(fine, coarse);
  if (o->restrict_op) PetscCall(MatCreateShell(PetscObjectComm((PetscObject)fine), nc, nf, Nc, Nf, ctx, T));
  else PetscCall(MatCreateShell(PetscObjectComm((PetscObject)fine), nf, nc, Nf, Nc, ctx, T));
  PetscCall(MatShellSetOperation(*T, MATOP_MULT, (void (*)(void))MatMult_MGTransfer));
  PetscCall(MatShellSetOperation(*T, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMultTranspose_MGTransfer));
  PetscCall(MatShellSetOperation(*T, MATOP_MULT_ADD, (void (*)(void))MatMultAdd_MGTransfer));
  PetscCall(MatShellSetOperation(*T, MATOP_MULT_TRANSPOSE_ADD, (void (*)(void))MatMultTransposeAdd_MGTransfer));
  PetscCall(MatShellSetContextDestroy(*T, destroy));
  PetscCall(PetscObjectSetName((PetscObject)*T, name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MGTransferDestroy(PPECtxDestroyArg arg)
{
  MGTransfer *t = (MGTransfer *)PPECtxFromDestroyArg(arg);

  PetscFunctionBegin;
  PetscCall(PetscFree(t->sum));
  PetscCall(PetscFree(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TransferShell(PPEGrid fine, PPEGrid coarse, PetscBool restrict_op, Mat *T)
{
  MGTransfer *t;

  PetscFunctionBegin;
  PetscCall(PetscNew(&t));
  for (int d = 0; d < 3; d++) {
    t->fm[d]  = fine->box.m[d];
    t->cm[d]  = coarse->box.m[d];
    t->c[d]   = coarse->box.N[d] < fine->box.N[d] ? 2 : 1;
    t->off[d] = PPEMGLoneFirst(&fine->dir[d], fine->box.s[d], fine->box.m[d], t->c[d]);
    PetscCheck(t->cm[d] == PPEMGCoarseExtent(t->fm[d], t->c[d]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Coarse box not aligned with the fine one");
  }
  t->ops = (PPEMGTransferOps){.restrict_op = restrict_op, .prolong = Prolong, .restrict_ = Restrict};
  PetscCall(PetscMalloc1(t->cm[0] * t->cm[1] * t->cm[2], &t->sum));
  PetscCall(PPEMGTransferShell(fine, coarse, t, MGTransferDestroy, restrict_op ? "ppemg restriction (average of the children)" : "ppemg interpolation (piecewise constant)", T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEMGTransferCreate(PPEGrid fine, PPEGrid coarse, Mat *P, Mat *R)
{
  PetscFunctionBegin;
  if (fine->location == PPE_LOCATION_VERTEX) {
    PetscCall(PPEMGVertexTransferCreate(fine, coarse, P, R));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(TransferShell(fine, coarse, PETSC_FALSE, P));
  PetscCall(TransferShell(fine, coarse, PETSC_TRUE, R));
  PetscFunctionReturn(PETSC_SUCCESS);
}
