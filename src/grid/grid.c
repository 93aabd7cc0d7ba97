/*
   PPEGrid: creation, destruction, set-up and viewing (the settings and the options that
   describe a grid before its set-up are in gridset.c, the queries after it in gridfield.c).
*/
#include <ppekit/private/gridimpl.h>

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

/* The 3D direction of the user's direction dir (2D: y is the grid's z). */
PetscErrorCode PPEGridDirection(PPEGrid grid, PetscInt dir, PetscInt *d)
{
  PetscFunctionBegin;
  PetscCheck(dir >= 0 && dir < grid->dim, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_OUTOFRANGE, "Direction must be %s on a %dD grid, got %" PetscInt_FMT, grid->dim == 2 ? "0 (x) or 1 (y)" : "0 (x), 1 (y) or 2 (z)", (int)grid->dim, dir);
  *d = (grid->dim == 2 && dir == 1) ? 2 : dir;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A point of the 3D grid in the user's coordinates (2D: (x, y, 0) with y the grid's z). */
PetscErrorCode PPEGridUserPoint(PPEGrid grid, const PetscReal p[3], PetscReal q[3])
{
  PetscFunctionBegin;
  q[0] = p[0];
  q[1] = grid->dim == 2 ? p[2] : p[1];
  q[2] = grid->dim == 2 ? 0.0 : p[2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The 3D DMDA of a DMDA: the DMDA itself when 3D; for a 2D DMDA (nx x ny on px x py ranks)
   the 3D DMDA nx x 1 x ny on px x 1 x py ranks with the same ownership, whose vectors have the
   2D DMDA's layout and ordering (so that the solvers, written for 3D, read them as they are).
   The shadow is made once, with the 2D DMDA's interpolation type, and kept composed on the 2D
   DMDA; *da3 is borrowed (valid while da lives: take a reference to keep it). Anything else
   (a 3D DMDA, another DM, NULL) is returned as it is, for the caller's own checks.
*/
PetscErrorCode PPEDMDAGet3d(DM da, DM *da3)
{
  PetscInt              dim, M, N, m, n, dof, sw;
  DMBoundaryType        bx, by;
  DMDAStencilType       st;
  DMDAInterpolationType it;
  const PetscInt       *lx, *ly;
  PetscInt              one = 1;
  DM                    d3;
  PetscBool             isda;

  PetscFunctionBegin;
  *da3 = da;
  if (!da) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompare((PetscObject)da, DMDA, &isda));
  if (!isda) PetscFunctionReturn(PETSC_SUCCESS); /* the caller's checks name what is wrong */
  PetscCall(DMGetDimension(da, &dim));
  if (dim != 2) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectQuery((PetscObject)da, "PPEDMDA3d", (PetscObject *)da3));
  if (*da3) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, NULL, &m, &n, NULL, &dof, &sw, &bx, &by, NULL, &st));
  PetscCall(DMDAGetOwnershipRanges(da, &lx, &ly, NULL));
  PetscCall(DMDAGetInterpolationType(da, &it));
  PetscCall(DMDACreate3d(PetscObjectComm((PetscObject)da), bx, DM_BOUNDARY_NONE, by, st, M, 1, N, m, 1, n, dof, sw, lx, &one, ly, &d3));
  PetscCall(DMDASetInterpolationType(d3, it)); /* the 2D DMDA's transfers, should anyone coarsen it */
  PetscCall(DMSetUp(d3));
  PetscCall(PetscObjectCompose((PetscObject)da, "PPEDMDA3d", (PetscObject)d3));
  PetscCall(DMDestroy(&d3));
  PetscCall(PetscObjectQuery((PetscObject)da, "PPEDMDA3d", (PetscObject *)da3));
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
static PetscErrorCode PPEGridDetachOne(PPEGrid g, DM da)
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

static PetscErrorCode PPEGridDetachDM(PPEGrid g)
{
  PetscFunctionBegin;
  PetscCall(PPEGridDetachOne(g, g->da));
  PetscCall(PPEGridDetachOne(g, g->da2));
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
  PetscCall(PPEGridDetachDM(g));
  PetscCall(DMDestroy(&g->da));
  PetscCall(DMDestroy(&g->da2));
  for (int d = 0; d < 3; d++) PetscCall(PPEGrid1dReset(&g->dir[d]));
  PetscCall(PetscFree(g->zlines));
  PetscCall(PetscHeaderDestroy(grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Checks that need the whole description: sizes, BC pairs, the attached DMDA (in the
   user's directions). */
static PetscErrorCode PPEGridValidate(PPEGrid g)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)g);
  DM       da   = g->dim == 2 ? g->da2 : g->da;

  PetscFunctionBegin;
  for (int d = 0; d < g->dim; d++) {
    PPEBCType lo = g->ubc[2 * d], hi = g->ubc[2 * d + 1];
    PetscCheck((lo == PPE_BC_PERIODIC) == (hi == PPE_BC_PERIODIC), comm, PETSC_ERR_ARG_INCOMP, "Periodic boundary conditions come in pairs: face %s is %s but face %s is %s", PPEFaces[2 * d], PPEBCTypes[lo], PPEFaces[2 * d + 1], PPEBCTypes[hi]);
  }
  if (da) {
    PetscInt        dim, M, N, P, dof, sw;
    DMBoundaryType  bt[3];
    DMDAStencilType st;
    PetscInt        n[3];

    PetscCall(DMDAGetInfo(da, &dim, &M, &N, &P, NULL, NULL, NULL, &dof, &sw, &bt[0], &bt[1], &bt[2], &st));
    PetscCheck(dim == g->dim, comm, PETSC_ERR_ARG_WRONG, "PPEGrid is %dD but its DMDA has dimension %" PetscInt_FMT, (int)g->dim, dim);
    PetscCheck(dof == 1, comm, PETSC_ERR_ARG_WRONG, "PPEGrid needs a DMDA with 1 degree of freedom per point, got %" PetscInt_FMT, dof);
    PetscCheck(sw >= 1, comm, PETSC_ERR_ARG_WRONG, "PPEGrid needs a DMDA with stencil width >= 1, got %" PetscInt_FMT, sw);
    n[0] = M;
    n[1] = N;
    n[2] = P;
    if (!g->sizes_set)
      for (int d = 0; d < g->dim; d++) g->uN[d] = n[d];
    for (int d = 0; d < g->dim; d++) {
      PetscBool per = (PetscBool)(g->ubc[2 * d] == PPE_BC_PERIODIC);
      if (g->dim == 3) PetscCheck(n[d] == g->uN[d], comm, PETSC_ERR_ARG_SIZ, "Grid/DMDA size mismatch: the grid is %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " but the DMDA is %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT, g->uN[0], g->uN[1], g->uN[2], M, N, P);
      else PetscCheck(n[d] == g->uN[d], comm, PETSC_ERR_ARG_SIZ, "Grid/DMDA size mismatch: the grid is %" PetscInt_FMT " x %" PetscInt_FMT " but the DMDA is %" PetscInt_FMT " x %" PetscInt_FMT, g->uN[0], g->uN[1], M, N);
      PetscCheck(per == (PetscBool)(bt[d] == DM_BOUNDARY_PERIODIC), comm, PETSC_ERR_ARG_INCOMP, "Grid/DMDA boundary mismatch in %c: the grid's BCs are %s-%s but the DMDA boundary type is %s", "xyz"[d], PPEBCTypes[g->ubc[2 * d]], PPEBCTypes[g->ubc[2 * d + 1]], DMBoundaryTypes[bt[d]]);
    }
  }
  if (!da)
    for (int d = 0; d < g->dim; d++) PetscCheck(g->uN[d] >= 3, comm, PETSC_ERR_ARG_OUTOFRANGE, "Grid needs at least 3 points in every direction: got %" PetscInt_FMT " in %c", g->uN[d], "xyz"[d]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The 3D description the solvers read, from the user's: 2D (x, y) becomes x, a flat middle
   direction, and z = y (see gridimpl.h). */
static PetscErrorCode PPEGridMapUser(PPEGrid g)
{
  static const int from[3] = {0, -1, 1}; /* 2D: user direction of each 3D one (-1: flat) */

  PetscFunctionBegin;
  for (int d = 0; d < 3; d++) {
    int u = g->dim == 2 ? from[d] : d;

    g->N[d]      = u < 0 ? 1 : g->uN[u];
    g->L[d]      = u < 0 ? 1.0 : g->uL[u];
    g->origin[d] = u < 0 ? 0.0 : g->uorigin[u];
    g->procs[d]  = u < 0 ? 1 : g->uprocs[u];
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
  MPI_Comm       comm;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  if (grid->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  comm = PetscObjectComm((PetscObject)grid);
  PetscCall(PetscLogEventBegin(PPE_GridSetUp, grid, 0, 0, 0));
  PetscCall(PPEGridValidate(grid));
  PetscCall(PPEGridMapUser(grid));
  if (grid->dim == 2) {
    DM da3;
    if (!grid->da2) {
      DMBoundaryType bt[2];
      for (int d = 0; d < 2; d++) bt[d] = grid->ubc[2 * d] == PPE_BC_PERIODIC ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE;
      PetscCall(DMDACreate2d(comm, bt[0], bt[1], DMDA_STENCIL_STAR, grid->uN[0], grid->uN[1], grid->uprocs[0], grid->uprocs[1], 1, 1, NULL, NULL, &grid->da2));
      PetscCall(PPEGridSetDMDATransfers(grid, grid->da2));
      PetscCall(DMSetUp(grid->da2));
      grid->da_owned = PETSC_TRUE;
    }
    PetscCall(PPEDMDAGet3d(grid->da2, &da3));
    PetscCall(PetscObjectReference((PetscObject)da3));
    grid->da = da3;
  } else if (!grid->da) {
    DMBoundaryType bt[3];
    for (int d = 0; d < 3; d++) bt[d] = grid->bc[2 * d] == PPE_BC_PERIODIC ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE;
    PetscCall(DMDACreate3d(comm, bt[0], bt[1], bt[2], DMDA_STENCIL_STAR, grid->N[0], grid->N[1], grid->N[2], grid->procs[0], grid->procs[1], grid->procs[2], 1, 1, NULL, NULL, NULL, &grid->da));
    PetscCall(PPEGridSetDMDATransfers(grid, grid->da));
    PetscCall(DMSetUp(grid->da));
    grid->da_owned = PETSC_TRUE;
  }
  for (int d = 0; d < 3; d++) {
    PPEGrid1d     *g1 = &grid->dir[d];
    PPEStretchType st = d == 2 ? grid->stretch : PPE_STRETCH_NONE;

    if (grid->dim == 2 && d == 1) {
      PetscCall(PPEGrid1dSetUpFlat(g1, grid->origin[1], grid->L[1]));
      continue;
    }
    g1->n     = grid->N[d];
    g1->bc[0] = grid->bc[2 * d];
    g1->bc[1] = grid->bc[2 * d + 1];
    PetscCall(PPEGrid1dSetUp(g1, grid->location, grid->origin[d], grid->L[d], st, grid->stretch_factor, grid->nzlines, grid->zlines));
    if (st == PPE_STRETCH_USER) {
      grid->origin[2]               = g1->lines[0];
      grid->L[2]                    = g1->lines[g1->nint] - g1->lines[0];
      grid->uorigin[grid->dim - 1] = grid->origin[2];
      grid->uL[grid->dim - 1]      = grid->L[2];
    }
  }
  grid->singular = (PetscBool)(grid->shift == 0.0);
  for (int f = 0; f < 6; f++)
    if (grid->bc[f] == PPE_BC_DIRICHLET) grid->singular = PETSC_FALSE;
  PetscCall(PPEGridComputeOperatorBounds(grid));
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
  PetscCall(PetscContainerSetPointer(c, grid));
  PetscCall(PetscObjectCompose((PetscObject)grid->da, "PPEGrid", (PetscObject)c));
  if (grid->da2) PetscCall(PetscObjectCompose((PetscObject)grid->da2, "PPEGrid", (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  grid->setupcalled = PETSC_TRUE;
  PetscCall(PetscLogEventEnd(PPE_GridSetUp, grid, 0, 0, 0));
  PetscCall(PPEGridViewFromOptions(grid, NULL, "-ppe_grid_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridView - prints the grid: sizes, domain, BCs, spacing, process grid, operator bounds

   Collective

   Level: beginner
@*/
PetscErrorCode PPEGridView(PPEGrid grid, PetscViewer viewer)
{
  PetscBool iascii;
  char      bcs[7];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)grid), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PPEGridGetBCString(grid, bcs));
  {
    PetscMPIInt size;
    const char *prefix = ((PetscObject)grid)->prefix;
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)grid), &size));
    PetscCall(PetscViewerASCIIPrintf(viewer, "PPEGrid Object: %s%s%d MPI process%s\n", prefix ? prefix : "", prefix ? " " : "", (int)size, size > 1 ? "es" : ""));
  }
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (grid->dim == 2) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "sizes: %" PetscInt_FMT " x %" PetscInt_FMT " (2D), %s-centred\n", grid->uN[0], grid->uN[1], PPELocations[grid->location]));
    PetscCall(PetscViewerASCIIPrintf(viewer, "domain: [%g, %g] x [%g, %g]\n", (double)grid->uorigin[0], (double)(grid->uorigin[0] + grid->uL[0]), (double)grid->uorigin[1], (double)(grid->uorigin[1] + grid->uL[1])));
    PetscCall(PetscViewerASCIIPrintf(viewer, "boundary conditions: %s (x %s-%s, y %s-%s)\n", bcs, PPEBCTypes[grid->ubc[0]], PPEBCTypes[grid->ubc[1]], PPEBCTypes[grid->ubc[2]], PPEBCTypes[grid->ubc[3]]));
  } else {
    PetscCall(PetscViewerASCIIPrintf(viewer, "sizes: %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", %s-centred\n", grid->uN[0], grid->uN[1], grid->uN[2], PPELocations[grid->location]));
    PetscCall(PetscViewerASCIIPrintf(viewer, "domain: [%g, %g] x [%g, %g] x [%g, %g]\n", (double)grid->uorigin[0], (double)(grid->uorigin[0] + grid->uL[0]), (double)grid->uorigin[1], (double)(grid->uorigin[1] + grid->uL[1]), (double)grid->uorigin[2], (double)(grid->uorigin[2] + grid->uL[2])));
    PetscCall(PetscViewerASCIIPrintf(viewer, "boundary conditions: %s (x %s-%s, y %s-%s, z %s-%s)\n", bcs, PPEBCTypes[grid->ubc[0]], PPEBCTypes[grid->ubc[1]], PPEBCTypes[grid->ubc[2]], PPEBCTypes[grid->ubc[3]], PPEBCTypes[grid->ubc[4]], PPEBCTypes[grid->ubc[5]]));
  }
  if (grid->stretch == PPE_STRETCH_TANH) PetscCall(PetscViewerASCIIPrintf(viewer, "%c spacing: tanh stretching, factor %g\n", "xyz"[grid->dim - 1], (double)grid->stretch_factor));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "%c spacing: %s\n", "xyz"[grid->dim - 1], grid->stretch == PPE_STRETCH_NONE ? "uniform" : "user mesh lines"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "Helmholtz shift: %g\n", (double)grid->shift));
  if (grid->setupcalled) {
    PetscInt          m, n, p;
    PetscViewerFormat fmt;
    PPEGrid1d        *z = &grid->dir[2];

    if (grid->dim == 2) {
      if (z->uniform) PetscCall(PetscViewerASCIIPrintf(viewer, "spacing: hx %g, hy %g\n", (double)grid->dir[0].href, (double)z->href));
      else {
        PetscReal dmin = PETSC_MAX_REAL, dmax = 0;
        for (PetscInt k = 0; k < z->nint; k++) {
          dmin = PetscMin(dmin, z->lines[k + 1] - z->lines[k]);
          dmax = PetscMax(dmax, z->lines[k + 1] - z->lines[k]);
        }
        PetscCall(PetscViewerASCIIPrintf(viewer, "spacing: hx %g, hy %g on average, from %g to %g\n", (double)grid->dir[0].href, (double)z->href, (double)dmin, (double)dmax));
      }
    } else if (z->uniform) PetscCall(PetscViewerASCIIPrintf(viewer, "spacing: hx %g, hy %g, hz %g\n", (double)grid->dir[0].href, (double)grid->dir[1].href, (double)z->href));
    else {
      PetscReal dmin = PETSC_MAX_REAL, dmax = 0;
      for (PetscInt k = 0; k < z->nint; k++) {
        dmin = PetscMin(dmin, z->lines[k + 1] - z->lines[k]);
        dmax = PetscMax(dmax, z->lines[k + 1] - z->lines[k]);
      }
      PetscCall(PetscViewerASCIIPrintf(viewer, "spacing: hx %g, hy %g, hz %g on average, from %g to %g\n", (double)grid->dir[0].href, (double)grid->dir[1].href, (double)z->href, (double)dmin, (double)dmax));
    }
    PetscCall(DMDAGetInfo(grid->da, NULL, NULL, NULL, NULL, &m, &n, &p, NULL, NULL, NULL, NULL, NULL, NULL));
    if (grid->dim == 2) PetscCall(PetscViewerASCIIPrintf(viewer, "process grid: %" PetscInt_FMT " x %" PetscInt_FMT "%s\n", m, p, grid->da_owned ? "" : " (user DMDA)"));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "process grid: %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "%s\n", m, n, p, grid->da_owned ? "" : " (user DMDA)"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "operator eigenvalues: %s [%g, %g]%s\n", grid->bounds_exact ? "exact" : "bounds", (double)grid->lmin, (double)grid->lmax, grid->singular ? " (lower end: smallest nonzero)" : ""));
    PetscCall(PetscViewerASCIIPrintf(viewer, "singular: %s\n", grid->singular ? "yes, constant null space" : "no"));
    PetscCall(PetscViewerGetFormat(viewer, &fmt));
    if (fmt == PETSC_VIEWER_ASCII_INFO_DETAIL) {
      for (int u = 0; u < grid->dim; u++) {
        PetscInt d;
        PetscCall(PPEGridDirection(grid, u, &d));
        PetscCall(PetscViewerASCIIPrintf(viewer, "%c eigenvalues:", "xyz"[u]));
        PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
        for (PetscInt i = 0; i < grid->dir[d].n; i++) PetscCall(PetscViewerASCIIPrintf(viewer, " %g", (double)grid->dir[d].eig[i]));
        PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
        PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
        PetscCall(PetscViewerASCIIPrintf(viewer, "%c weights:", "xyz"[u]));
        PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
        for (PetscInt i = 0; i < grid->dir[d].n; i++) PetscCall(PetscViewerASCIIPrintf(viewer, " %g", (double)grid->dir[d].w[i]));
        PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
        PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
      }
    }
  }
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
