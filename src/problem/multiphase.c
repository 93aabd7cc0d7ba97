/*
   The variable-density problems of ppe-solve: the pressure equation -div(beta grad p) = f,
   beta = 1/rho, of multiphase flows.

   mms-var   a smooth density and a manufactured solution (second-order test):
               u   = sin(kz (z - oz)) prod_{d < last} cos(k_d (x_d - o_d)),
               rho = 1 + (1/2) cos(kz (z - oz)) prod_{d < last} sin(k_d (x_d - o_d)),
             k_d = 2 pi / L_d along the periodic directions, kz = pi / Lz along the last one, whose
             ends are Dirichlet walls where u = 0 (so the boundary data carry no coefficient);
               f = -div(beta grad u) + sigma u = beta |k|^2 u + (grad rho . grad u) / rho^2 + sigma u.
   bubbles   N spheres (discs in 2D) of density 1 in a liquid of density ratio, at positions
             drawn from a seed; a cell's density is rho = f 1 + (1 - f) ratio with f the
             fraction of PPE_BUBBLES_SUB^dim sample points of the cell inside a bubble (sharp,
             volume-of-fluid-like jumps). The right-hand side is the discrete divergence, in the
             operator's scaling, of a random face velocity that is zero on non-periodic faces:
               b_p = sum_d w_a w_b (v_d(p - 1/2) - v_d(p + 1/2)) / href_d,
             which sums to zero over the grid (each face appears once with each sign), so the
             singular problem (x, y periodic, Neumann walls) is consistent. Step s of a time loop
             (-ppe_bubbles_move) moves every bubble by s times the displacement of one step.
*/
#include <ppekit/private/gridimpl.h>
#include <ppekit/problem.h>

/* Sample points of a cell per direction for its bubble volume fraction. */
#define PPE_BUBBLES_SUB 4

/* ---- mms-var ---- */

typedef struct {
  PetscInt  dim;
  PetscReal k[3], o[3], shift;
} MMSVarCtx;

/* u, rho and their gradients at x (user directions). */
static void MMSVarEval(const MMSVarCtx *m, const PetscReal x[3], PetscReal *u, PetscReal gu[3], PetscReal *rho, PetscReal gr[3])
{
  PetscInt  last = m->dim - 1;
  PetscReal c[3], s[3];

  for (PetscInt d = 0; d < m->dim; d++) {
    c[d] = PetscCosReal(m->k[d] * (x[d] - m->o[d]));
    s[d] = PetscSinReal(m->k[d] * (x[d] - m->o[d]));
  }
  *u   = s[last];
  *rho = c[last];
  for (PetscInt d = 0; d < last; d++) {
    *u *= c[d];
    *rho *= s[d];
  }
  *rho = 1.0 + 0.5 * *rho;
  for (PetscInt d = 0; d < 3; d++) gu[d] = gr[d] = 0;
  for (PetscInt d = 0; d < m->dim; d++) {
    PetscReal pu = 1.0, pr = 0.5;
    for (PetscInt e = 0; e < m->dim; e++) {
      if (e == d) continue;
      pu *= e == last ? s[e] : c[e];
      pr *= e == last ? c[e] : s[e];
    }
    if (d == last) {
      gu[d] = m->k[d] * c[d] * pu;
      gr[d] = -m->k[d] * s[d] * pr;
    } else {
      gu[d] = -m->k[d] * s[d] * pu;
      gr[d] = m->k[d] * c[d] * pr;
    }
  }
}

static PetscScalar MMSVarExact(const PetscReal x[3], void *ctx)
{
  PetscReal u, gu[3], rho, gr[3];
  MMSVarEval((MMSVarCtx *)ctx, x, &u, gu, &rho, gr);
  return u;
}

static PetscScalar MMSVarDensity(const PetscReal x[3], void *ctx)
{
  PetscReal u, gu[3], rho, gr[3];
  MMSVarEval((MMSVarCtx *)ctx, x, &u, gu, &rho, gr);
  return rho;
}

static PetscScalar MMSVarSource(const PetscReal x[3], void *ctx)
{
  MMSVarCtx *m = (MMSVarCtx *)ctx;
  PetscReal  u, gu[3], rho, gr[3], k2 = 0, dot = 0;

  MMSVarEval(m, x, &u, gu, &rho, gr);
  for (PetscInt d = 0; d < m->dim; d++) {
    k2 += m->k[d] * m->k[d];
    dot += gr[d] * gu[d];
  }
  return k2 * u / rho + dot / (rho * rho) + m->shift * u;
}

static PetscScalar MMSVarBoundary(PPEFace face, const PetscReal x[3], void *ctx)
{
  return 0.0; /* u = 0 on the Dirichlet walls; the periodic faces have no data */
}

static PetscErrorCode MMSVarSetUp(PPEGrid grid, MMSVarCtx *m)
{
  PetscInt last = grid->dim - 1;

  PetscFunctionBegin;
  m->dim   = grid->dim;
  m->shift = grid->shift;
  for (PetscInt d = 0; d < 3; d++) m->k[d] = m->o[d] = 0;
  for (PetscInt d = 0; d < grid->dim; d++) {
    PetscBool per = (PetscBool)(grid->ubc[2 * d] == PPE_BC_PERIODIC);
    PetscCheck(d == last ? (grid->ubc[2 * d] == PPE_BC_DIRICHLET && grid->ubc[2 * d + 1] == PPE_BC_DIRICHLET) : per, PetscObjectComm((PetscObject)grid), PETSC_ERR_SUP,
               "Problem mms-var is posed with periodic directions and Dirichlet walls at both ends of the last direction (bc P...DD): "
               "its solution vanishes on the walls, so that the boundary data need no coefficient; got %s-%s along direction %" PetscInt_FMT,
               PPEBCTypes[grid->ubc[2 * d]], PPEBCTypes[grid->ubc[2 * d + 1]], d);
    m->k[d] = (d == last ? 1.0 : 2.0) * PETSC_PI / grid->uL[d];
    m->o[d] = grid->uorigin[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- bubbles ---- */

typedef struct {
  PetscInt  n;      /* number of bubbles */
  PetscReal ratio;  /* liquid density / gas density (gas: 1) */
  PetscReal radius; /* fraction of the smallest length of the box */
  PetscInt  seed;
  PetscReal move[3]; /* displacement of one step, fractions of the box's lengths (kernel directions) */
} BubbleOptions;

/* A deterministic value in [0, 1) from a key: the splitmix64 finaliser, the top 53 bits. */
static PetscReal Hash01(uint64_t key)
{
  uint64_t z = key + 0x9e3779b97f4a7c15ULL;

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z = z ^ (z >> 31);
  return (PetscReal)(z >> 11) * (1.0 / 9007199254740992.0);
}

static PetscErrorCode BubbleGetOptions(PPEGrid grid, BubbleOptions *B)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)grid);
  PetscBool move = PETSC_FALSE;
  PetscReal v    = 0.05;

  PetscFunctionBegin;
  B->n      = 6;
  B->ratio  = 1000;
  B->radius = 0.15;
  B->seed   = 1;
  PetscOptionsBegin(comm, NULL, "Problem bubbles (ppe-solve -problem bubbles)", "PPEProblem");
  PetscCall(PetscOptionsReal("-ppe_density_ratio", "Density of the liquid over that of the bubbles (1)", "PPEProblemComputeDensity", B->ratio, &B->ratio, NULL));
  PetscCall(PetscOptionsInt("-ppe_bubbles", "Number of bubbles (spheres; discs in 2D)", "PPEProblemComputeDensity", B->n, &B->n, NULL));
  PetscCall(PetscOptionsReal("-ppe_bubbles_radius", "Bubble radius, a fraction of the smallest length of the box", "PPEProblemComputeDensity", B->radius, &B->radius, NULL));
  PetscCall(PetscOptionsInt("-ppe_bubbles_seed", "Seed of the bubble positions", "PPEProblemComputeDensity", B->seed, &B->seed, NULL));
  PetscCall(PetscOptionsBool("-ppe_bubbles_move", "Move the bubbles between the solves of -ppe_repeat, as a time loop does", "PPEProblemComputeDensity", move, &move, NULL));
  PetscCall(PetscOptionsReal("-ppe_bubbles_velocity", "With -ppe_bubbles_move: the displacement of one step along x, a fraction of the box's length (y moves half as much)", "PPEProblemComputeDensity", v, &v, NULL));
  PetscOptionsEnd();
  PetscCheck(B->ratio > 0 && !PetscIsInfOrNanReal(B->ratio), comm, PETSC_ERR_ARG_OUTOFRANGE, "-ppe_density_ratio must be finite and positive, got %g", (double)B->ratio);
  PetscCheck(B->n >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ppe_bubbles must be >= 0, got %" PetscInt_FMT, B->n);
  PetscCheck(B->radius > 0 && B->radius < 0.25, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ppe_bubbles_radius must be in (0, 0.25) (a fraction of the smallest length, so that a bubble fits between the walls), got %g", (double)B->radius);
  PetscCheck(!PetscIsInfOrNanReal(v), comm, PETSC_ERR_ARG_OUTOFRANGE, "-ppe_bubbles_velocity must be finite, got %g", (double)v);
  for (int d = 0; d < 3; d++) B->move[d] = 0;
  if (move) { /* along the first two user directions: kernel x, and kernel y in 3D */
    B->move[0] = v;
    if (grid->N[1] > 1) B->move[1] = 0.5 * v; /* (not the one-point direction of a 2D grid) */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bubbles' centres at step (kernel directions, absolute coordinates) and their radius. */
static void BubbleCentres(PPEGrid grid, const BubbleOptions *B, PetscInt step, PetscReal (*c)[3], PetscReal *r)
{
  PetscReal lo[3], L[3], Lmin = PETSC_MAX_REAL;

  for (int d = 0; d < 3; d++) {
    lo[d] = grid->dir[d].bpos[0];
    L[d]  = grid->dir[d].bpos[1] - grid->dir[d].bpos[0];
    if (grid->N[d] > 1) Lmin = PetscMin(Lmin, L[d]);
  }
  *r = B->radius * Lmin;
  for (PetscInt b = 0; b < B->n; b++)
    for (int d = 0; d < 3; d++) {
      PetscReal u = Hash01(((uint64_t)B->seed * 1000003ULL + (uint64_t)b) * 4ULL + (uint64_t)d);
      if (grid->N[d] == 1) c[b][d] = 0; /* the kernels' one-point direction of a 2D grid */
      else if (grid->bc[2 * d] == PPE_BC_PERIODIC) c[b][d] = lo[d] + L[d] * (u + step * B->move[d]);
      else c[b][d] = lo[d] + 1.5 * *r + (L[d] - 3.0 * *r) * u; /* clear of the walls */
    }
}

/* Fraction of cell (i, j, k) (kernel indices) inside a bubble. */
static PetscReal BubbleFraction(PPEGrid grid, PetscInt nb, PetscReal (*c)[3], PetscReal r, const PetscInt p[3])
{
  PetscReal lo[3], h[3], L[3];
  PetscInt  ns[3], in = 0, tot;

  for (int d = 0; d < 3; d++) {
    const PPEGrid1d *g  = &grid->dir[d];
    PetscReal        cv = g->w[p[d]] * g->href;

    ns[d] = grid->N[d] > 1 ? PPE_BUBBLES_SUB : 1;
    lo[d] = g->x[p[d]] - 0.5 * cv;
    h[d]  = cv / ns[d];
    L[d]  = g->bpos[1] - g->bpos[0];
  }
  tot = ns[0] * ns[1] * ns[2];
  for (PetscInt a = 0; a < ns[0]; a++)
    for (PetscInt e = 0; e < ns[1]; e++)
      for (PetscInt f = 0; f < ns[2]; f++) {
        PetscInt  q[3] = {a, e, f};
        PetscReal x[3];
        for (int d = 0; d < 3; d++) x[d] = grid->N[d] > 1 ? lo[d] + (q[d] + 0.5) * h[d] : 0;
        for (PetscInt b = 0; b < nb; b++) {
          PetscReal d2 = 0;
          for (int d = 0; d < 3; d++) {
            PetscReal dx = x[d] - c[b][d];
            if (grid->bc[2 * d] == PPE_BC_PERIODIC) dx -= L[d] * PetscFloorReal(dx / L[d] + 0.5);
            d2 += dx * dx;
          }
          if (d2 < r * r) {
            in++;
            break;
          }
        }
      }
  return (PetscReal)in / tot;
}

static PetscErrorCode BubbleDensity(PPEGrid grid, PetscInt step, Vec rho)
{
  BubbleOptions B;
  PetscReal(*c)[3], r;
  PetscScalar    *a;
  PetscInt        l = 0;
  const PetscInt *s = grid->box.s, *m = grid->box.m;

  PetscFunctionBegin;
  PetscCall(BubbleGetOptions(grid, &B));
  PetscCall(PetscMalloc1(B.n + 1, &c));
  BubbleCentres(grid, &B, step, c, &r);
  PetscCall(VecGetArrayWrite(rho, &a));
  for (PetscInt k = s[2]; k < s[2] + m[2]; k++)
    for (PetscInt j = s[1]; j < s[1] + m[1]; j++)
      for (PetscInt i = s[0]; i < s[0] + m[0]; i++) {
        PetscInt  p[3] = {i, j, k};
        PetscReal f    = BubbleFraction(grid, B.n, c, r, p);
        a[l++]         = f + (1.0 - f) * B.ratio;
      }
  PetscCall(VecRestoreArrayWrite(rho, &a));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The random velocity of the face below point p (kernel indices) along d: 0 on a non-periodic
   boundary face; the face above the last point of a periodic direction is the face below the
   first. */
static PetscReal FaceVelocity(PPEGrid grid, PetscInt seed, int d, const PetscInt p[3])
{
  PetscInt q[3] = {p[0], p[1], p[2]};

  if (q[d] == grid->N[d]) {
    if (grid->bc[2 * d] != PPE_BC_PERIODIC) return 0;
    q[d] = 0;
  }
  if (q[d] == 0 && grid->bc[2 * d] != PPE_BC_PERIODIC) return 0;
  return 2.0 * Hash01(((((uint64_t)seed * 3ULL + (uint64_t)d) * (uint64_t)grid->N[2] + (uint64_t)q[2]) * (uint64_t)grid->N[1] + (uint64_t)q[1]) * (uint64_t)grid->N[0] + (uint64_t)q[0] + 0x5bd1e995ULL) - 1.0;
}

static PetscErrorCode BubbleRHS(PPEGrid grid, Vec b)
{
  PetscScalar    *a;
  PetscInt        l = 0, seed = 1;
  const PetscInt *s = grid->box.s, *m = grid->box.m;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ppe_bubbles_seed", &seed, NULL));
  PetscCall(VecGetArrayWrite(b, &a));
  for (PetscInt k = s[2]; k < s[2] + m[2]; k++)
    for (PetscInt j = s[1]; j < s[1] + m[1]; j++)
      for (PetscInt i = s[0]; i < s[0] + m[0]; i++) {
        PetscInt  p[3] = {i, j, k};
        PetscReal v    = 0;
        for (int d = 0; d < 3; d++) {
          PetscInt         up[3] = {i, j, k};
          const PPEGrid1d *ga = &grid->dir[d == 0 ? 1 : 0], *gb = &grid->dir[d == 2 ? 1 : 2];
          PetscInt         ia = p[d == 0 ? 1 : 0], ib = p[d == 2 ? 1 : 2];

          if (grid->N[d] == 1) continue;
          up[d]++;
          v += ga->w[ia] * gb->w[ib] * (FaceVelocity(grid, seed, d, p) - FaceVelocity(grid, seed, d, up)) / grid->dir[d].href;
        }
        a[l++] = v;
      }
  PetscCall(VecRestoreArrayWrite(b, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the problems' entry points (problem.c dispatches here) ---- */

PetscErrorCode PPEProblemMultiphaseGridDefaults(PPEProblemType type, PPEGrid grid)
{
  PetscInt  n[3] = {1, 1, 1};
  PetscReal L[3] = {0, 0, 0};
  PPEBCType bc[6];

  PetscFunctionBegin;
  for (PetscInt d = 0; d < grid->dim; d++) {
    n[d] = type == PPE_PROBLEM_BUBBLES ? 64 : 32;
    L[d] = 1.0;
  }
  for (int f = 0; f < 6; f++) bc[f] = f / 2 < grid->dim - 1 ? PPE_BC_PERIODIC : (type == PPE_PROBLEM_BUBBLES ? PPE_BC_NEUMANN : PPE_BC_DIRICHLET);
  PetscCall(PPEGridSetSizes(grid, n[0], n[1], n[2]));
  PetscCall(PPEGridSetLengths(grid, L[0], L[1], L[2]));
  PetscCall(PPEGridSetOrigin(grid, 0, 0, 0));
  PetscCall(PPEGridSetBCs(grid, bc));
  PetscCall(PPEGridSetLocation(grid, PPE_LOCATION_CELL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEProblemMultiphaseRHS(PPEProblemType type, PPEGrid grid, Vec b, Vec u, PetscBool *known)
{
  PetscFunctionBegin;
  if (type == PPE_PROBLEM_MMS_VAR) {
    MMSVarCtx m;
    PetscCall(MMSVarSetUp(grid, &m));
    PetscCall(PPEGridComputeRHS(grid, MMSVarSource, MMSVarBoundary, &m, b));
    if (u) PetscCall(PPEGridSampleField(grid, MMSVarExact, &m, u));
    *known = PETSC_TRUE;
  } else {
    PetscCall(BubbleRHS(grid, b));
    *known = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEProblemComputeDensity - the density of a variable-density problem at a step of its time
   loop

   Collective

   Input Parameters:
+  type - PPE_PROBLEM_MMS_VAR or PPE_PROBLEM_BUBBLES
.  grid - its grid, set up
-  step - the step (bubbles move by -ppe_bubbles_velocity per step with -ppe_bubbles_move; 0 otherwise)

   Output Parameter:
.  rho - the density, a global vector of the grid's DMDA (for PPEStencilSetDensity())

   Options Database Keys (bubbles):
+  -ppe_density_ratio <r> - liquid density over bubble density (default 1000)
.  -ppe_bubbles <n> - number of bubbles (default 6)
.  -ppe_bubbles_radius <f> - radius, a fraction of the smallest length of the box (default 0.15)
.  -ppe_bubbles_seed <s> - seed of the positions and of the right-hand side's velocity (default 1)
.  -ppe_bubbles_move <bool> - move the bubbles from step to step (default false)
-  -ppe_bubbles_velocity <v> - displacement of one step along x, a fraction of the length (default 0.05)

   Level: intermediate

.seealso: PPEProblemHasDensity(), PPEStencilSetDensity()
@*/
PetscErrorCode PPEProblemComputeDensity(PPEProblemType type, PPEGrid grid, PetscInt step, Vec rho)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 2);
  PetscCheck(grid->setupcalled, PetscObjectComm((PetscObject)grid), PETSC_ERR_ORDER, "Call PPEGridSetUp() before PPEProblemComputeDensity()");
  if (type == PPE_PROBLEM_MMS_VAR) {
    MMSVarCtx m;
    PetscCall(MMSVarSetUp(grid, &m));
    PetscCall(PPEGridSampleField(grid, MMSVarDensity, &m, rho));
  } else if (type == PPE_PROBLEM_BUBBLES) PetscCall(BubbleDensity(grid, step, rho));
  else SETERRQ(PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_WRONG, "Problem %s has constant coefficients: no density", PPEProblemNames[type]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEProblemHasDensity - whether a problem has variable coefficients (a density)

   Not Collective

   Level: intermediate

.seealso: PPEProblemComputeDensity()
@*/
PetscErrorCode PPEProblemHasDensity(PPEProblemType type, PetscBool *flg)
{
  PetscFunctionBegin;
  *flg = (PetscBool)(type == PPE_PROBLEM_MMS_VAR || type == PPE_PROBLEM_BUBBLES);
  PetscFunctionReturn(PETSC_SUCCESS);
}
