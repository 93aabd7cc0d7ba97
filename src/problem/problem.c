/*
   Named problems: grid defaults, right-hand side and exact solution.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned
     Bi-CGSTAB with alpaka", arXiv:2503.08935, 2025 (the bicgstab-paper problem, eq. 16).
*/
#include <ppekit/private/gridimpl.h>

const char *const PPEProblemNames[] = {"mms", "channel", "bicgstab-paper", "mms-var", "bubbles", NULL};
const char *const PPEProblemTypes[] = {"mms", "channel", "bicgstab-paper", "mms-var", "bubbles", "PPEProblemType", "PPE_PROBLEM_", NULL};

/* the variable-density problems (multiphase.c) */
PETSC_INTERN PetscErrorCode PPEProblemMultiphaseGridDefaults(PPEProblemType, PPEGrid);
PETSC_INTERN PetscErrorCode PPEProblemMultiphaseRHS(PPEProblemType, PPEGrid, Vec, Vec, PetscBool *);

/* Manufactured solution u = prod_d cos(k_d (x_d - o_d) + phi_d). */
typedef struct {
  PetscReal k[3], phi[3], o[3], shift;
} MMSCtx;

static PetscScalar MMSExact(const PetscReal x[3], void *ctx)
{
  MMSCtx     *m = (MMSCtx *)ctx;
  PetscScalar u = 1.0;
  for (int d = 0; d < 3; d++) u *= PetscCosReal(m->k[d] * (x[d] - m->o[d]) + m->phi[d]);
  return u;
}

static PetscScalar MMSSource(const PetscReal x[3], void *ctx)
{
  MMSCtx *m = (MMSCtx *)ctx;
  return (m->shift + m->k[0] * m->k[0] + m->k[1] * m->k[1] + m->k[2] * m->k[2]) * MMSExact(x, ctx);
}

/* Outward normal derivative of the manufactured solution on a face. */
static PetscScalar MMSNormalDerivative(PPEFace face, const PetscReal x[3], const MMSCtx *m)
{
  int         d = face / 2;
  PetscScalar du;

  du = -m->k[d] * PetscSinReal(m->k[d] * (x[d] - m->o[d]) + m->phi[d]);
  for (int e = 0; e < 3; e++)
    if (e != d) du *= PetscCosReal(m->k[e] * (x[e] - m->o[e]) + m->phi[e]);
  return (face % 2 == 0) ? -du : du;
}

typedef struct {
  MMSCtx    mms;
  PPEBCType bc[6];
} MMSData;

static PetscScalar MMSData_Boundary(PPEFace face, const PetscReal x[3], void *ctx)
{
  MMSData *md = (MMSData *)ctx;
  if (md->bc[face] == PPE_BC_DIRICHLET) return MMSExact(x, &md->mms);
  return MMSNormalDerivative(face, x, &md->mms);
}
static PetscScalar MMSData_Source(const PetscReal x[3], void *ctx)
{
  return MMSSource(x, &((MMSData *)ctx)->mms);
}
static PetscScalar MMSData_Exact(const PetscReal x[3], void *ctx)
{
  return MMSExact(x, &((MMSData *)ctx)->mms);
}

/* Channel pressure: two modes with zero normal derivative at both walls, the ends of the last
   direction (z; y in 2D). Mode 0: wavenumbers 2 pi/Lx, 2 pi/Ly (3D), pi/Lw; mode 1 (half the
   amplitude, x phase 0.5): 4 pi/Lx, 0 along y (3D), 2 pi/Lw. */
typedef struct {
  PetscReal L[3], o[3], shift;
  PetscInt  dim;
} ChannelCtx;

static PetscScalar ChannelMode(const PetscReal x[3], const ChannelCtx *c, PetscReal *ksq, int mode)
{
  PetscScalar u = mode == 0 ? 1.0 : 0.5;

  *ksq = 0;
  for (PetscInt d = 0; d < c->dim; d++) {
    PetscReal k, p = d == 0 && mode == 1 ? 0.5 : 0.0;

    if (d == c->dim - 1) k = (mode + 1) * PETSC_PI / c->L[d]; /* the walls */
    else if (d == 0) k = (mode == 0 ? 2 : 4) * PETSC_PI / c->L[0];
    else k = mode == 0 ? 2 * PETSC_PI / c->L[d] : 0;
    *ksq += k * k;
    u *= PetscCosReal(k * (x[d] - c->o[d]) + p);
  }
  return u;
}

static PetscScalar ChannelExact(const PetscReal x[3], void *ctx)
{
  PetscReal k2;
  return ChannelMode(x, (ChannelCtx *)ctx, &k2, 0) + ChannelMode(x, (ChannelCtx *)ctx, &k2, 1);
}

static PetscScalar ChannelSource(const PetscReal x[3], void *ctx)
{
  ChannelCtx *c = (ChannelCtx *)ctx;
  PetscReal   k0, k1;
  PetscScalar m0 = ChannelMode(x, c, &k0, 0), m1 = ChannelMode(x, c, &k1, 1);
  return (c->shift + k0) * m0 + (c->shift + k1) * m1;
}

/* The right-hand side of Pennati et al. (2025), eq. 16. */
static PetscScalar PaperSource(const PetscReal x[3], void *ctx)
{
  return PetscSinReal(x[0]) + PetscCosReal(x[1]) + 3 * PetscSinReal(x[2]) - 2 * x[1] * x[2] + 2;
}

/*@
   PPEProblemSetGridDefaults - sets the grid a problem is defined on; call before
   PPEGridSetFromOptions() so that options can still change sizes (and, for mms, anything),
   and after the grid's dimension is known (PPEGridSetDimension() or
   PPEGridSetDimensionFromOptions()): channel's defaults depend on it

   Logically Collective

   Level: beginner
@*/
PetscErrorCode PPEProblemSetGridDefaults(PPEProblemType type, PPEGrid grid)
{
  PetscFunctionBegin;
  switch (type) {
  case PPE_PROBLEM_MMS:
    break;
  case PPE_PROBLEM_CHANNEL: {
    /* periodic but in the last direction, whose ends are walls (tanh-stretched) */
    PetscInt  n[3] = {64, 64, 1};
    PetscReal L[3] = {2 * PETSC_PI, PETSC_PI, 0.0};
    PPEBCType bc[6];

    for (PetscInt d = 0; d < grid->dim; d++) n[d] = 64;
    L[grid->dim - 1] = 2.0;
    for (int f = 0; f < 6; f++) bc[f] = f / 2 < grid->dim - 1 ? PPE_BC_PERIODIC : PPE_BC_NEUMANN;
    PetscCall(PPEGridSetSizes(grid, n[0], n[1], n[2]));
    PetscCall(PPEGridSetLengths(grid, L[0], L[1], L[2]));
    PetscCall(PPEGridSetOrigin(grid, 0, 0, 0));
    PetscCall(PPEGridSetBCs(grid, bc));
    PetscCall(PPEGridSetLocation(grid, PPE_LOCATION_CELL));
    PetscCall(PPEGridSetZStretch(grid, PPE_STRETCH_TANH, 1.5));
  } break;
  case PPE_PROBLEM_BICGSTAB_PAPER: {
    const PPEBCType bc[6] = {PPE_BC_DIRICHLET, PPE_BC_NEUMANN, PPE_BC_NEUMANN, PPE_BC_DIRICHLET, PPE_BC_NEUMANN, PPE_BC_DIRICHLET};
    PetscCheck(grid->dim == 3, PetscObjectComm((PetscObject)grid), PETSC_ERR_SUP, "Problem bicgstab-paper is 3D (Pennati et al. 2025, eq. 16); use mms or channel on a 2D grid");
    PetscCall(PPEGridSetSizes(grid, 256, 256, 256));
    PetscCall(PPEGridSetOrigin(grid, 3.0, 2.5, 10.0));
    PetscCall(PPEGridSetLengths(grid, 25.5, 25.5, 25.5));
    PetscCall(PPEGridSetBCs(grid, bc));
    PetscCall(PPEGridSetLocation(grid, PPE_LOCATION_VERTEX));
  } break;
  case PPE_PROBLEM_MMS_VAR:
  case PPE_PROBLEM_BUBBLES:
    PetscCall(PPEProblemMultiphaseGridDefaults(type, grid));
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown problem %d", (int)type);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEProblemComputeRHS - right-hand side and, when known, exact solution of a problem

   Collective

   Input Parameters:
+  type - the problem
-  grid - its grid, set up

   Output Parameters:
+  b - right-hand side (global vector of the grid's DMDA)
.  u - exact solution, or NULL
-  known - whether the exact solution is known (u is left untouched when not)

   Level: beginner
@*/
PetscErrorCode PPEProblemComputeRHS(PPEProblemType type, PPEGrid grid, Vec b, Vec u, PetscBool *known)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 2);
  PetscCheck(grid->setupcalled, PetscObjectComm((PetscObject)grid), PETSC_ERR_ORDER, "Call PPEGridSetUp() before PPEProblemComputeRHS()");
  switch (type) {
  case PPE_PROBLEM_MMS: {
    MMSData md;
    /* in the user's directions (2D: x, y; the third factor is cos(0) = 1) */
    for (int d = 0; d < 3; d++) {
      PetscBool per = (PetscBool)(grid->ubc[2 * d] == PPE_BC_PERIODIC);
      md.mms.k[d]   = d >= grid->dim ? 0.0 : per ? 2 * PETSC_PI / grid->uL[d] : 1.3 * PETSC_PI / grid->uL[d];
      md.mms.phi[d] = d >= grid->dim ? 0.0 : per ? 0.3 + 0.2 * d : 0.4 + 0.1 * d;
      md.mms.o[d]   = d >= grid->dim ? 0.0 : grid->uorigin[d];
    }
    md.mms.shift = grid->shift;
    for (int f = 0; f < 6; f++) md.bc[f] = grid->ubc[f];
    PetscCall(PPEGridComputeRHS(grid, MMSData_Source, MMSData_Boundary, &md, b));
    if (u) PetscCall(PPEGridSampleField(grid, MMSData_Exact, &md, u));
    *known = PETSC_TRUE;
  } break;
  case PPE_PROBLEM_CHANNEL: {
    ChannelCtx c;
    PetscInt   w   = 2 * (grid->dim - 1); /* the lower wall: zlo, ylo in 2D */
    PetscBool  per = PETSC_TRUE;          /* every direction but the last periodic */
    for (int d = 0; d < 3; d++) {
      c.L[d] = grid->uL[d];
      c.o[d] = grid->uorigin[d];
    }
    c.shift = grid->shift;
    c.dim   = grid->dim;
    /* Exact for periodic x (and y in 3D) and Neumann walls (the defaults); other BCs get the
       same source with homogeneous data, and no exact solution. */
    for (PetscInt d = 0; d < grid->dim - 1; d++) per = (PetscBool)(per && grid->ubc[2 * d] == PPE_BC_PERIODIC);
    *known = (PetscBool)(per && grid->ubc[w] == PPE_BC_NEUMANN && grid->ubc[w + 1] == PPE_BC_NEUMANN);
    PetscCall(PPEGridComputeRHS(grid, ChannelSource, NULL, &c, b));
    if (u && *known) PetscCall(PPEGridSampleField(grid, ChannelExact, &c, u));
  } break;
  case PPE_PROBLEM_BICGSTAB_PAPER:
    PetscCall(PPEGridComputeRHS(grid, PaperSource, NULL, NULL, b));
    *known = PETSC_FALSE;
    break;
  case PPE_PROBLEM_MMS_VAR:
  case PPE_PROBLEM_BUBBLES:
    PetscCall(PPEProblemMultiphaseRHS(type, grid, b, u, known));
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown problem %d", (int)type);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
