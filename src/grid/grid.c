/*
   PPEGrid: creation, destruction, set-up and viewing (the settings and the options that
   describe a grid before its set-up are in gridset.c, the queries after it in gridfield.c).
*/
#include <ppekit/private/gridimpl.h>
#include <stdarg.h>

PetscClassId PPEGRID_CLASSID;

const char *const PPEBCTypes[]      = {"periodic", "neumann", "dirichlet", "PPEBCType", "PPE_BC_", NULL};
const char *const PPEFaces[]        = {"xlo", "xhi", "ylo", "yhi", "zlo", "zhi", "PPEFace", "PPE_FACE_", NULL};
const char *const PPELocations[]    = {"cell", "vertex", "PPELocation", "PPE_LOCATION_", NULL};
const char *const PPEStretchTypes[] = {"none", "tanh", "user", "PPEStretchType", "PPE_STRETCH_", NULL};

static const char PPEBCLetters[] = {'P', 'N', 'D'};

PetscErrorCode PPEParseBC(const char name[], PPEBCType *bc, PetscBool *found)
{
  static const char *const full[] = {"periodic", "neumann", "dirichlet"};
  PetscBool                match;

  PetscFunctionBegin;
  *found = PETSC_FALSE;
  for (int t = 0; t < 3 && !*found; t++) {
    char letter[2] = {PPEBCLetters[t], 0};
    PetscCall(PetscStrcasecmp(name, full[t], &match));
    if (!match) PetscCall(PetscStrcasecmp(name, letter, &match));
    if (match) {
      *bc    = (PPEBCType)t;
      *found = PETSC_TRUE;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridGetBCString - the boundary conditions as letters P, N, D in face order: six for a 3D
   grid (xlo xhi ylo yhi zlo zhi, e.g. "PPPPNN"), four for a 2D one (e.g. "PPNN")

   Not Collective

   Level: beginner
@*/
PetscErrorCode PPEGridGetBCString(PPEGrid grid, char s[7])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  for (int f = 0; f < 2 * grid->dim; f++) s[f] = PPEBCLetters[grid->ubc[f]];
  s[2 * grid->dim] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The kernels' direction of the user's direction dir (2D: y is the kernels' z). */
PetscErrorCode PPEGridDirection(PPEGrid grid, PetscInt dir, PetscInt *d)
{
  static const char *const dirs[] = {"", "0 (x)", "0 (x) or 1 (y)", "0 (x), 1 (y) or 2 (z)"}; /* by dimension */

  PetscFunctionBegin;
  PetscCheck(dir >= 0 && dir < grid->dim, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_OUTOFRANGE, "Direction must be %s on a %dD grid, got %" PetscInt_FMT, dirs[grid->dim], (int)grid->dim, dir);
  *d = PPEGridKernelDir(grid->dim, dir);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A point of the kernels' box in the user's coordinates (0 past the grid's dimension). */
PetscErrorCode PPEGridUserPoint(PPEGrid grid, const PetscReal p[3], PetscReal q[3])
{
  PetscFunctionBegin;
  for (PetscInt u = 0; u < 3; u++) q[u] = u < grid->dim ? p[PPEGridKernelDir(grid->dim, u)] : 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEDMDAGetBox - the kernels' 3D box view of a 2D or 3D DMDA (see gridimpl.h): its
   direction u is the kernels' direction PPEGridKernelDir(dim, u); the others have one point
   on one rank. The ownership ranges are borrowed (valid while the DMDA lives). For the code
   that gets a DMDA without a grid; a grid keeps the view of its own (PPEGridGetBox()).
*/
PetscErrorCode PPEDMDAGetBox(DM da, PPEDMDABox *box)
{
  static const PetscInt one[1] = {1}; /* the ownership of a one-point direction */
  PetscInt              dim, n[3], p[3], s[3], m[3];
  DMBoundaryType        bt[3];
  const PetscInt       *own[3];

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, &dim, &n[0], &n[1], &n[2], &p[0], &p[1], &p[2], NULL, NULL, &bt[0], &bt[1], &bt[2], NULL));
  PetscCheck(dim >= 2, PetscObjectComm((PetscObject)da), PETSC_ERR_ARG_WRONG, "The kernels' box is the view of a 2D or 3D DMDA, got a %" PetscInt_FMT "D one", dim);
  PetscCall(DMDAGetCorners(da, &s[0], &s[1], &s[2], &m[0], &m[1], &m[2]));
  PetscCall(DMDAGetOwnershipRanges(da, &own[0], &own[1], &own[2]));
  box->dim = dim;
  for (PetscInt d = 0; d < 3; d++) {
    PetscInt u = PPEGridUserDir(dim, d);

    box->N[d]   = u < 0 ? 1 : n[u];
    box->P[d]   = u < 0 ? 1 : p[u];
    box->s[d]   = u < 0 ? 0 : s[u];
    box->m[d]   = u < 0 ? 1 : m[u];
    box->own[d] = u < 0 ? one : own[u];
    box->bt[d]  = u < 0 ? DM_BOUNDARY_NONE : bt[u];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEGridGetBox - the kernels' 3D view of the grid's DMDA, made by PPEGridSetUp() */
PetscErrorCode PPEGridGetBox(PPEGrid grid, const PPEDMDABox **box)
{
  PetscFunctionBegin;
  PetscCheck(grid->setupcalled, PetscObjectComm((PetscObject)grid), PETSC_ERR_ORDER, "Call PPEGridSetUp() before using the grid's box");
  *box = &grid->box;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first dim entries of n joined by sep: "32 x 32 x 16" (sep " x "), "32x16" (sep "x"). */
PetscErrorCode PPEJoinSizes(PetscInt dim, const PetscInt n[], const char sep[], char s[], size_t len)
{
  size_t used = 0;

  PetscFunctionBegin;
  s[0] = 0;
  for (PetscInt d = 0; d < dim; d++) {
    PetscCall(PetscSNPrintf(s + used, len - used, "%s%" PetscInt_FMT, d ? sep : "", n[d]));
    PetscCall(PetscStrlen(s, &used));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Defaults of a new grid, named by the manual page of PPEGridCreate() (-help prints the
   values at creation) */
#define PPE_GRID_DEFAULT_N              32  /* unknowns per direction */
#define PPE_GRID_DEFAULT_STRETCH_FACTOR 1.5 /* tanh clustering factor, once tanh is asked for */

/*@
   PPEGridCreate - creates a grid with default settings: 3D, 32^3 (PPE_GRID_DEFAULT_N)
   cell-centred unknowns on the unit cube (32^2 on the unit square in 2D), Neumann on every
   face, uniform z (tanh factor 1.5, PPE_GRID_DEFAULT_STRETCH_FACTOR, once tanh is asked
   for), no shift

   Collective

   Input Parameter:
.  comm - the communicator the grid's DMDA will live on

   Output Parameter:
.  grid - the new grid

   Level: beginner

.seealso: PPEGridSetFromOptions(), PPEGridSetUp(), PPEGridSetDM()
@*/
PetscErrorCode PPEGridCreate(MPI_Comm comm, PPEGrid *grid)
{
  PPEGrid g;

  PetscFunctionBegin;
  PetscAssertPointer(grid, 2);
  PetscCall(PPESysInitializePackage());
  PetscCall(PetscHeaderCreate(g, PPEGRID_CLASSID, "PPEGrid", "Pressure-Poisson grid", "PPEGrid", comm, PPEGridDestroy, PPEGridView));
  g->dim = 3;
  for (int d = 0; d < 3; d++) {
    g->uN[d]      = PPE_GRID_DEFAULT_N;
    g->uL[d]      = 1.0;
    g->uorigin[d] = 0.0;
    g->uprocs[d]  = PETSC_DECIDE;
  }
  for (int f = 0; f < 6; f++) g->ubc[f] = PPE_BC_NEUMANN;
  g->location       = PPE_LOCATION_CELL;
  g->stretch        = PPE_STRETCH_NONE;
  g->stretch_factor = PPE_GRID_DEFAULT_STRETCH_FACTOR;
  *grid             = g;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Forget a DMDA's back pointer to this grid (it is not a reference: no cycle). */
static PetscErrorCode PPEGridDetachDM(PPEGrid g, DM da)
{
  PetscContainer c;
  void          *ptr;

  PetscFunctionBegin;
  if (!da) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectQuery((PetscObject)da, "PPEGrid", (PetscObject *)&c));
  if (c) {
    PetscCall(PetscContainerGetPointer(c, &ptr));
    if (ptr == (void *)g) PetscCall(PetscObjectCompose((PetscObject)da, "PPEGrid", NULL));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridDestroy - destroys a grid

   Collective

   Input Parameter:
.  grid - the grid (set to NULL)

   Level: beginner
@*/
PetscErrorCode PPEGridDestroy(PPEGrid *grid)
{
  PPEGrid g;

  PetscFunctionBegin;
  if (!grid || !*grid) PetscFunctionReturn(PETSC_SUCCESS);
  g = *grid;
  PetscValidHeaderSpecific(g, PPEGRID_CLASSID, 1);
  if (--((PetscObject)g)->refct > 0) {
    *grid = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PPEGridDetachDM(g, g->da));
  PetscCall(DMDestroy(&g->da));
  for (int d = 0; d < 3; d++) PetscCall(PPEGrid1dReset(&g->dir[d]));
  PetscCall(PetscFree(g->zlines));
  PetscCall(PetscFree(g->xylines[0]));
  PetscCall(PetscFree(g->xylines[1]));
  PetscCall(PetscHeaderDestroy(grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Checks that need the whole description: sizes, BC pairs, the attached DMDA (in the
   user's directions). */
static PetscErrorCode PPEGridValidate(PPEGrid g)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)g);
  DM       da   = g->da;

  PetscFunctionBegin;
  for (int d = 0; d < g->dim; d++) {
    PPEBCType lo = g->ubc[2 * d], hi = g->ubc[2 * d + 1];
    PetscCheck((lo == PPE_BC_PERIODIC) == (hi == PPE_BC_PERIODIC), comm, PETSC_ERR_ARG_INCOMP, "Periodic boundary conditions come in pairs: face %s is %s but face %s is %s", PPEFaces[2 * d], PPEBCTypes[lo], PPEFaces[2 * d + 1], PPEBCTypes[hi]);
  }
  if (da) {
    PetscInt        dim, dof, sw, n[3];
    DMBoundaryType  bt[3];
    DMDAStencilType st;
    char            gs[64], ds[64];

    PetscCall(DMDAGetInfo(da, &dim, &n[0], &n[1], &n[2], NULL, NULL, NULL, &dof, &sw, &bt[0], &bt[1], &bt[2], &st));
    PetscCheck(dim == g->dim, comm, PETSC_ERR_ARG_WRONG, "PPEGrid is %dD but its DMDA has dimension %" PetscInt_FMT, (int)g->dim, dim);
    PetscCheck(dof == 1, comm, PETSC_ERR_ARG_WRONG, "PPEGrid needs a DMDA with 1 degree of freedom per point, got %" PetscInt_FMT, dof);
    PetscCheck(sw >= 1, comm, PETSC_ERR_ARG_WRONG, "PPEGrid needs a DMDA with stencil width >= 1, got %" PetscInt_FMT, sw);
    if (!g->sizes_set)
      for (int d = 0; d < g->dim; d++) g->uN[d] = n[d];
    PetscCall(PPEJoinSizes(g->dim, g->uN, " x ", gs, sizeof(gs)));
    PetscCall(PPEJoinSizes(g->dim, n, " x ", ds, sizeof(ds)));
    for (int d = 0; d < g->dim; d++) {
      PetscBool per = (PetscBool)(g->ubc[2 * d] == PPE_BC_PERIODIC);
      PetscCheck(n[d] == g->uN[d], comm, PETSC_ERR_ARG_SIZ, "Grid/DMDA size mismatch: the grid is %s but the DMDA is %s", gs, ds);
      PetscCheck(per == (PetscBool)(bt[d] == DM_BOUNDARY_PERIODIC), comm, PETSC_ERR_ARG_INCOMP, "Grid/DMDA boundary mismatch in %c: the grid's BCs are %s-%s but the DMDA boundary type is %s", "xyz"[d], PPEBCTypes[g->ubc[2 * d]],
                 PPEBCTypes[g->ubc[2 * d + 1]], DMBoundaryTypes[bt[d]]);
    }
  }
  if (!da)
    for (int d = 0; d < g->dim; d++) PetscCheck(g->uN[d] >= 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "Grid needs at least 3 points in every direction: got %" PetscInt_FMT " in %c", g->uN[d], "xyz"[d]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The kernels' 3D description from the user's (see gridimpl.h): a kernel direction with no
   user direction has one unknown on one rank, unit length and Neumann ends. */
static PetscErrorCode PPEGridMapUser(PPEGrid g)
{
  PetscFunctionBegin;
  for (PetscInt d = 0; d < 3; d++) {
    PetscInt u = PPEGridUserDir(g->dim, d);

    g->N[d]          = u < 0 ? 1 : g->uN[u];
    g->L[d]          = u < 0 ? 1.0 : g->uL[u];
    g->origin[d]     = u < 0 ? 0.0 : g->uorigin[u];
    g->procs[d]      = u < 0 ? 1 : g->uprocs[u];
    g->bc[2 * d]     = u < 0 ? PPE_BC_NEUMANN : g->ubc[2 * u];
    g->bc[2 * d + 1] = u < 0 ? PPE_BC_NEUMANN : g->ubc[2 * u + 1];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The grid-transfer rule of a DMDA the grid creates, which is what geometric multigrid
   (PCMG given the DMDA) coarsens and interpolates with. Cell-centred: DMDA_Q0, a coarse cell
   is the union of 2 (2D: 2x2, 3D: 2x2x2) fine cells, so every direction halves, periodic or
   not (n divisible by 2^(levels-1)), and the interpolation is piecewise constant.
   Vertex-centred: PETSc's default DMDA_Q1, coarse nodes are every other fine node
   (non-periodic n = 2^(levels-1) k + 1). A DMDA the caller attached keeps its own. */
static PetscErrorCode PPEGridSetDMDATransfers(PPEGrid grid, DM da)
{
  PetscFunctionBegin;
  PetscCall(DMDASetInterpolationType(da, grid->location == PPE_LOCATION_CELL ? DMDA_Q0 : DMDA_Q1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The grid's DMDA when none was attached: of the grid's dimension, with the user's sizes,
   process grid and periodic directions (what DMDACreate2d() and DMDACreate3d() do). */
static PetscErrorCode PPEGridCreateDMDA(PPEGrid grid)
{
  PetscInt       n[3], p[3];
  DMBoundaryType bt[3];
  DM             da;

  PetscFunctionBegin;
  if (grid->da) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt u = 0; u < 3; u++) {
    n[u]  = u < grid->dim ? grid->uN[u] : 1;
    p[u]  = u < grid->dim ? grid->uprocs[u] : PETSC_DECIDE;
    bt[u] = u < grid->dim && grid->ubc[2 * u] == PPE_BC_PERIODIC ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE;
  }
  PetscCall(DMDACreate(PetscObjectComm((PetscObject)grid), &da));
  PetscCall(DMSetDimension(da, grid->dim));
  PetscCall(DMDASetSizes(da, n[0], n[1], n[2]));
  PetscCall(DMDASetNumProcs(da, p[0], p[1], p[2]));
  PetscCall(DMDASetBoundaryType(da, bt[0], bt[1], bt[2]));
  PetscCall(DMDASetDof(da, 1));
  PetscCall(DMDASetStencilType(da, DMDA_STENCIL_STAR));
  PetscCall(DMDASetStencilWidth(da, 1));
  PetscCall(PPEGridSetDMDATransfers(grid, da));
  PetscCall(DMSetUp(da));
  grid->da       = da;
  grid->da_owned = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridSetUp - validates the description, creates the DMDA (unless one was attached) and
   computes coordinates, weights, 1D operators, eigenvalues and operator bounds

   Collective

   Notes:
   A DMDA the grid creates carries the grid transfers of its location, which geometric
   multigrid on it (PCMG given the DMDA) uses: cell-centred, DMDA_Q0 (every direction halves
   per level, piecewise-constant interpolation; n divisible by 2^(levels-1)); vertex-centred,
   DMDA_Q1 (non-periodic n = 2^(levels-1) k + 1). A DMDA attached with PPEGridSetDM() keeps
   the interpolation type its caller gave it (DMDASetInterpolationType()).

   Level: beginner
@*/
PetscErrorCode PPEGridSetUp(PPEGrid grid)
{
  PetscContainer c;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  if (grid->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(PPE_GridSetUp, grid, 0, 0, 0));
  PetscCall(PPEGridValidate(grid));
  PetscCall(PPEGridMapUser(grid));
  PetscCall(PPEGridCreateDMDA(grid));
  PetscCall(PPEDMDAGetBox(grid->da, &grid->box));
  for (int d = 0; d < 3; d++) {
    PPEGrid1d     *g1 = &grid->dir[d];
    PetscInt       u  = PPEGridUserDir(grid->dim, d);
    PPEStretchType st = d == 2 ? grid->stretch : (grid->nxylines[d] ? PPE_STRETCH_USER : PPE_STRETCH_NONE);
    /* a one-point direction is one cell with Neumann ends: no coupling, w = 1, eigenvalue 0 */
    PPELocation loc = u < 0 ? PPE_LOCATION_CELL : grid->location;

    g1->n     = grid->N[d];
    g1->bc[0] = grid->bc[2 * d];
    g1->bc[1] = grid->bc[2 * d + 1];
    PetscCall(PPEGrid1dSetUp(g1, loc, grid->origin[d], grid->L[d], st, grid->stretch_factor, d == 2 ? grid->nzlines : grid->nxylines[d], d == 2 ? grid->zlines : grid->xylines[d]));
    if (st == PPE_STRETCH_USER && u >= 0) {
      grid->origin[d]  = g1->lines[0];
      grid->L[d]       = g1->lines[g1->nint] - g1->lines[0];
      grid->uorigin[u] = grid->origin[d];
      grid->uL[u]      = grid->L[d];
    }
  }
  grid->singular = (PetscBool)(grid->shift == 0.0);
  for (int f = 0; f < 6; f++)
    if (grid->bc[f] == PPE_BC_DIRICHLET) grid->singular = PETSC_FALSE;
  PetscCall(PPEGridComputeOperatorBounds(grid));
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
  PetscCall(PetscContainerSetPointer(c, grid));
  PetscCall(PetscObjectCompose((PetscObject)grid->da, "PPEGrid", (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  grid->setupcalled = PETSC_TRUE;
  PetscCall(PetscLogEventEnd(PPE_GridSetUp, grid, 0, 0, 0));
  PetscCall(PPEGridViewFromOptions(grid, NULL, "-ppe_grid_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Append to the string s of size len. */
static PetscErrorCode PPEGridAppend(char s[], size_t len, const char fmt[], ...)
{
  size_t  used, full;
  va_list ap;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(s, &used));
  va_start(ap, fmt);
  PetscCall(PetscVSNPrintf(s + used, len - used, fmt, &full, ap));
  va_end(ap);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The lines of PPEGridView() that speak of each of the grid's directions. */
static PetscErrorCode PPEGridViewDirections(PPEGrid grid, PetscViewer viewer)
{
  char bcs[7], dom[256] = "", bcl[128] = "", sizes[64];

  PetscFunctionBegin;
  PetscCall(PPEGridGetBCString(grid, bcs));
  for (PetscInt u = 0; u < grid->dim; u++) {
    PetscCall(PPEGridAppend(dom, sizeof(dom), "%s[%g, %g]", u ? " x " : "", (double)grid->uorigin[u], (double)(grid->uorigin[u] + grid->uL[u])));
    PetscCall(PPEGridAppend(bcl, sizeof(bcl), "%s%c %s-%s", u ? ", " : "", "xyz"[u], PPEBCTypes[grid->ubc[2 * u]], PPEBCTypes[grid->ubc[2 * u + 1]]));
  }
  PetscCall(PPEJoinSizes(grid->dim, grid->uN, " x ", sizes, sizeof(sizes)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "sizes: %s%s, %s-centred\n", sizes, grid->dim == 2 ? " (2D)" : "", PPELocations[grid->location]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "domain: %s\n", dom));
  PetscCall(PetscViewerASCIIPrintf(viewer, "boundary conditions: %s (%s)\n", bcs, bcl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The lines of PPEGridView() after set-up: spacing, process grid, operator bounds and, at the
   detailed format, the 1D eigenvalues and weights. */
static PetscErrorCode PPEGridViewSetUp(PPEGrid grid, PetscViewer viewer)
{
  char              sp[256] = "", procs[64];
  PetscInt          P[3];
  PetscViewerFormat fmt;

  PetscFunctionBegin;
  for (PetscInt u = 0; u < grid->dim; u++) {
    PetscInt         d    = PPEGridKernelDir(grid->dim, u);
    const PPEGrid1d *o    = &grid->dir[d];
    PetscReal        dmin = PETSC_MAX_REAL, dmax = 0;

    PetscCall(PPEGridAppend(sp, sizeof(sp), "%sh%c %g", u ? ", " : "", "xyz"[u], (double)o -> href));
    P[u] = grid->box.P[d];
    if (o->uniform) continue;
    for (PetscInt k = 0; k < o->nint; k++) {
      dmin = PetscMin(dmin, o->lines[k + 1] - o->lines[k]);
      dmax = PetscMax(dmax, o->lines[k + 1] - o->lines[k]);
    }
    PetscCall(PPEGridAppend(sp, sizeof(sp), " on average, from %g to %g", (double)dmin, (double)dmax));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "spacing: %s\n", sp));
  PetscCall(PPEJoinSizes(grid->dim, P, " x ", procs, sizeof(procs)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "process grid: %s%s\n", procs, grid->da_owned ? "" : " (user DMDA)"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "operator eigenvalues: %s [%g, %g]%s\n", grid->bounds_exact ? "exact" : "bounds", (double)grid->lmin, (double)grid->lmax, grid->singular ? " (lower end: smallest nonzero)" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "singular: %s\n", grid->singular ? "yes, constant null space" : "no"));
  PetscCall(PetscViewerGetFormat(viewer, &fmt));
  if (fmt != PETSC_VIEWER_ASCII_INFO_DETAIL) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt u = 0; u < grid->dim; u++) {
    const PPEGrid1d *o = &grid->dir[PPEGridKernelDir(grid->dim, u)];

    PetscCall(PetscViewerASCIIPrintf(viewer, "%c eigenvalues:", "xyz"[u]));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
    for (PetscInt i = 0; i < o->n; i++) PetscCall(PetscViewerASCIIPrintf(viewer, " %g", (double)o->eig[i]));
    PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
    PetscCall(PetscViewerASCIIPrintf(viewer, "%c weights:", "xyz"[u]));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
    for (PetscInt i = 0; i < o->n; i++) PetscCall(PetscViewerASCIIPrintf(viewer, " %g", (double)o->w[i]));
    PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridView - prints the grid: sizes, domain, BCs, spacing, process grid, operator bounds

   Collective

   Level: beginner
@*/
PetscErrorCode PPEGridView(PPEGrid grid, PetscViewer viewer)
{
  PetscBool   iascii;
  PetscMPIInt size;
  const char *prefix;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)grid), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  prefix = ((PetscObject)grid)->prefix;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)grid), &size));
  PetscCall(PetscViewerASCIIPrintf(viewer, "PPEGrid Object: %s%s%d MPI process%s\n", prefix ? prefix : "", prefix ? " " : "", (int)size, size > 1 ? "es" : ""));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PPEGridViewDirections(grid, viewer));
  if (grid->stretch == PPE_STRETCH_TANH) PetscCall(PetscViewerASCIIPrintf(viewer, "%c spacing: tanh stretching, factor %g\n", "xyz"[grid->dim - 1], (double)grid -> stretch_factor));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "%c spacing: %s\n", "xyz"[grid->dim - 1], grid -> stretch == PPE_STRETCH_NONE ? "uniform" : "user mesh lines"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "Helmholtz shift: %g\n", (double)grid->shift));
  if (grid->setupcalled) PetscCall(PPEGridViewSetUp(grid, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEGridViewFromOptions(PPEGrid grid, PetscObject obj, const char name[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PetscCall(PetscObjectViewFromOptions((PetscObject)grid, obj, name));
  PetscFunctionReturn(PETSC_SUCCESS);
}
