/*
   The variable-density problems of ppe-solve: the pressure equation -div(beta grad p) = f,
   beta = 1/rho, of multiphase flows.

   mms-var   a smooth density and a manufactured solution (second-order test), any BCs:
               u   = prod_d cos(k_d (x_d - o_d) + phi_d)            (as problem mms),
               rho = 1 + (1/2) prod_d sin(q_d (x_d - o_d) + psi_d)  (between 1/2 and 3/2),
             k_d = q_d = 2 pi / L_d along a periodic direction, k_d = 1.3 pi / L_d and
             q_d = pi / L_d along the others;
               f = -div(beta grad u) + sigma u = beta |k|^2 u + (grad rho . grad u) / rho^2 + sigma u.
             The boundary data carry the coefficient as the operator does: a Dirichlet value
             enters with 1/rho of the unknown next to the face (the operator's coupling to it), a
             Neumann face gets the exact flux beta du/dn.
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
  PetscReal k[3], phi[3], q[3], psi[3], o[3], shift;
  PPEBCType bc[6];   /* the user's faces */
  PetscReal dist[6]; /* distance from each face to the nearest unknowns (Dirichlet faces) */
} MMSVarCtx;

/* u, rho and their gradients at x (user directions). */
static void MMSVarEval(const MMSVarCtx *m, const PetscReal x[3], PetscReal *u, PetscReal gu[3], PetscReal *rho, PetscReal gr[3])
{
  PetscReal cu[3], su[3], sr[3], cr[3], pr = 0.5;

  *u = 1.0;
  for (int d = 0; d < 3; d++) {
    cu[d] = PetscCosReal(m->k[d] * (x[d] - m->o[d]) + m->phi[d]);
    su[d] = PetscSinReal(m->k[d] * (x[d] - m->o[d]) + m->phi[d]);
    sr[d] = PetscSinReal(m->q[d] * (x[d] - m->o[d]) + m->psi[d]);
    cr[d] = PetscCosReal(m->q[d] * (x[d] - m->o[d]) + m->psi[d]);
    *u *= cu[d];
    pr *= sr[d];
  }
  *rho = 1.0 + pr;
  for (int d = 0; d < 3; d++) {
    PetscReal a = -m->k[d] * su[d], b = 0.5 * m->q[d] * cr[d];
    for (int e = 0; e < 3; e++) {
      if (e == d) continue;
      a *= cu[e];
      b *= sr[e];
    }
    gu[d] = a;
    gr[d] = b;
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

/* f = -div(beta grad u) + sigma u = beta |k|^2 u + (grad rho . grad u) / rho^2 + sigma u */
static PetscScalar MMSVarSource(const PetscReal x[3], void *ctx)
{
  MMSVarCtx *m = (MMSVarCtx *)ctx;
  PetscReal  u, gu[3], rho, gr[3], k2 = 0, dot = 0;

  MMSVarEval(m, x, &u, gu, &rho, gr);
  for (int d = 0; d < 3; d++) {
    k2 += m->k[d] * m->k[d];
    dot += gr[d] * gu[d];
  }
  return k2 * u / rho + dot / (rho * rho) + m->shift * u;
}

/* The boundary data of PPEGridComputeRHS, which adds (geometry) x g for the face:
   - Dirichlet: g = beta_P u(x_b), with beta_P = 1/rho at the unknown nearest the face (x_P, dist
     inside), the coefficient the operator gives a Dirichlet face (src/stencil/stencilcoef.c),
     so that the boundary term is exactly the operator's coupling to the boundary value;
   - Neumann: g = the outward flux beta du/dn at x_b, with beta = 1/rho(x_b) there (the operator
     has no flux through the face: the data supply it). */
static PetscScalar MMSVarBoundary(PPEFace face, const PetscReal x[3], void *ctx)
{
  MMSVarCtx *m = (MMSVarCtx *)ctx;
  int        d = face / 2;
  PetscReal  u, gu[3], rho, gr[3], xp[3] = {x[0], x[1], x[2]};

  if (m->bc[face] == PPE_BC_DIRICHLET) {
    PetscReal up, gup[3], rhop, grp[3];
    xp[d] += face % 2 ? -m->dist[face] : m->dist[face];
    MMSVarEval(m, x, &u, gu, &rho, gr);
    MMSVarEval(m, xp, &up, gup, &rhop, grp);
    return u / rhop;
  }
  MMSVarEval(m, x, &u, gu, &rho, gr);
  return (face % 2 ? gu[d] : -gu[d]) / rho;
}

static PetscErrorCode MMSVarSetUp(PPEGrid grid, MMSVarCtx *m)
{
  PetscFunctionBegin;
  m->dim   = grid->dim;
  m->shift = grid->shift;
  /* u as problem mms takes it; rho = 1 + (1/2) prod sin(q_d (x_d - o_d) + psi_d), one period
     along a periodic direction, half of one elsewhere (the third factor of a 2D grid is 1) */
  for (int d = 0; d < 3; d++) {
    PetscBool per = (PetscBool)(grid->ubc[2 * d] == PPE_BC_PERIODIC), in = (PetscBool)(d < grid->dim);
    m->k[d]   = !in ? 0.0 : per ? 2 * PETSC_PI / grid->uL[d] : 1.3 * PETSC_PI / grid->uL[d];
    m->phi[d] = !in ? 0.0 : per ? 0.3 + 0.2 * d : 0.4 + 0.1 * d;
    m->q[d]   = !in ? 0.0 : per ? 2 * PETSC_PI / grid->uL[d] : PETSC_PI / grid->uL[d];
    m->psi[d] = !in ? 0.5 * PETSC_PI : per ? 0.1 * d : 0.25 + 0.2 * d;
    m->o[d]   = !in ? 0.0 : grid->uorigin[d];
  }
  for (int f = 0; f < 6; f++) {
    m->bc[f]   = grid->ubc[f];
    m->dist[f] = 0;
  }
  for (PetscInt u = 0; u < grid->dim; u++) {
    const PPEGrid1d *g = &grid->dir[PPEGridKernelDir(grid->dim, u)];
    m->dist[2 * u]     = g->x[0] - g->bpos[0];
    m->dist[2 * u + 1] = g->bpos[1] - g->x[g->n - 1];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- bubbles ---- */

/* A deterministic value in [0, 1) from a key: the splitmix64 finaliser, the top 53 bits. */
static PetscReal Hash01(uint64_t key)
{
  uint64_t z = key + 0x9e3779b97f4a7c15ULL;

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z = z ^ (z >> 31);
  return (PetscReal)(z >> 11) * (1.0 / 9007199254740992.0);
}

/* The bubbles' options, checked (PPEProblemGetBubbles() documents them). */
static PetscErrorCode BubbleGetOptions(PPEGrid grid, PPEBubbles *B)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)grid);

  PetscFunctionBegin;
  B->n        = 6;
  B->ratio    = 1000;
  B->radius   = 0.15;
  B->seed     = 1;
  B->move     = PETSC_FALSE;
  B->velocity = 0.05;
  B->step     = 0;
  PetscOptionsBegin(comm, NULL, "Problem bubbles (ppe-solve -problem bubbles)", "PPEProblem");
  PetscCall(PetscOptionsReal("-ppe_density_ratio", "Density of the liquid over that of the bubbles (1)", "PPEProblemComputeDensity", B->ratio, &B->ratio, NULL));
  PetscCall(PetscOptionsInt("-ppe_bubbles", "Number of bubbles (spheres; discs in 2D)", "PPEProblemComputeDensity", B->n, &B->n, NULL));
  PetscCall(PetscOptionsReal("-ppe_bubbles_radius", "Bubble radius, a fraction of the smallest length of the box", "PPEProblemComputeDensity", B->radius, &B->radius, NULL));
  PetscCall(PetscOptionsInt("-ppe_bubbles_seed", "Seed of the bubble positions and of the right-hand side's random velocity", "PPEProblemComputeDensity", B->seed, &B->seed, NULL));
  PetscCall(PetscOptionsBool("-ppe_bubbles_move", "Move the bubbles between the solves of -ppe_repeat, as a time loop does", "PPEProblemComputeDensity", B->move, &B->move, NULL));
  PetscCall(PetscOptionsReal("-ppe_bubbles_velocity", "The displacement of one step along x, a fraction of the box's length (y moves half as much)", "PPEProblemComputeDensity", B->velocity, &B->velocity, NULL));
  PetscCall(PetscOptionsInt("-ppe_bubbles_step", "The step of the first solve: the bubbles start displaced by that many steps (a one-shot solve of a later step of a -ppe_bubbles_move loop)", "PPEProblemComputeDensity", B->step, &B->step, NULL));
  PetscOptionsEnd();
  PetscCheck(B->ratio > 0 && !PetscIsInfOrNanReal(B->ratio), comm, PETSC_ERR_ARG_OUTOFRANGE, "-ppe_density_ratio must be finite and positive, got %g", (double)B->ratio);
  PetscCheck(B->n >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ppe_bubbles must be >= 0, got %" PetscInt_FMT, B->n);
  PetscCheck(B->radius > 0 && B->radius < 0.25, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ppe_bubbles_radius must be in (0, 0.25) (a fraction of the smallest length, so that a bubble fits between the walls), got %g", (double)B->radius);
  PetscCheck(!PetscIsInfOrNanReal(B->velocity), comm, PETSC_ERR_ARG_OUTOFRANGE, "-ppe_bubbles_velocity must be finite, got %g", (double)B->velocity);
  PetscCheck(B->step >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ppe_bubbles_step must be >= 0, got %" PetscInt_FMT, B->step);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bubbles' centres at step (kernel directions, absolute coordinates) and their radius. */
static void BubbleCentres(PPEGrid grid, const PPEBubbles *B, PetscInt step, PetscReal (*c)[3], PetscReal *r)
{
  PetscReal lo[3], L[3], Lmin = PETSC_MAX_REAL, t = (PetscReal)(B->step + (B->move ? step : 0)), disp[3];

  /* displacement (fractions of the lengths) along the first two user directions: kernel x, and
     kernel y in 3D (not the one-point direction of a 2D grid) */
  disp[0] = t * B->velocity;
  disp[1] = grid->N[1] > 1 ? t * 0.5 * B->velocity : 0;
  disp[2] = 0;

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
      else if (grid->bc[2 * d] == PPE_BC_PERIODIC) c[b][d] = lo[d] + L[d] * (u + disp[d]);
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
  PPEBubbles B;
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
  PetscInt        l = 0, seed;
  const PetscInt *s = grid->box.s, *m = grid->box.m;
  PPEBubbles      B;

  PetscFunctionBegin;
  PetscCall(BubbleGetOptions(grid, &B));
  seed = B.seed;
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
-  step - the step of a time loop (with -ppe_bubbles_move the bubbles move by -ppe_bubbles_velocity
          per step; without it step is ignored)

   Output Parameter:
.  rho - the density, a global vector of the grid's DMDA (for PPEStencilSetDensity())

   Options Database Keys (bubbles):
+  -ppe_density_ratio <r> - liquid density over bubble density (default 1000)
.  -ppe_bubbles <n> - number of bubbles (default 6)
.  -ppe_bubbles_radius <f> - radius, a fraction of the smallest length of the box (default 0.15)
.  -ppe_bubbles_seed <s> - seed of the positions and of the right-hand side's velocity (default 1)
.  -ppe_bubbles_move <bool> - move the bubbles from step to step (default false)
.  -ppe_bubbles_velocity <v> - displacement of one step along x, a fraction of the length, half of
                               it along y in 3D (default 0.05)
-  -ppe_bubbles_step <s> - the first step: the bubbles start displaced by s steps (default 0)

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
   PPEProblemGetBubbles - the settings of the bubbles problem, from the options database, checked

   Collective

   Input Parameter:
.  grid - the grid of the problem

   Output Parameter:
.  B - the number of bubbles, density ratio, radius, seed, whether they move, their velocity and
       first step (see PPEProblemComputeDensity() for the options)

   Level: intermediate

.seealso: PPEProblemComputeDensity()
@*/
PetscErrorCode PPEProblemGetBubbles(PPEGrid grid, PPEBubbles *B)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PetscCall(BubbleGetOptions(grid, B));
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
