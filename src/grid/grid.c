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
   PPEGridGetBCString - the six boundary conditions as letters P, N, D in face order
   (xlo xhi ylo yhi zlo zhi), e.g. "PPPPNN"

   Not Collective

   Level: beginner
@*/
PetscErrorCode PPEGridGetBCString(PPEGrid grid, char s[7])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  for (int f = 0; f < 6; f++) s[f] = PPEBCLetters[grid->bc[f]];
  s[6] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Defaults of a new grid, named by the manual page of PPEGridCreate() (-help prints the
   values at creation) */
#define PPE_GRID_DEFAULT_N              32  /* unknowns per direction */
#define PPE_GRID_DEFAULT_STRETCH_FACTOR 1.5 /* tanh clustering factor, once tanh is asked for */

/*@
   PPEGridCreate - creates a grid with default settings: 32^3 (PPE_GRID_DEFAULT_N)
   cell-centred unknowns on the unit cube, Neumann on every face, uniform z (tanh factor
   1.5, PPE_GRID_DEFAULT_STRETCH_FACTOR, once tanh is asked for), no shift

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
  for (int d = 0; d < 3; d++) {
    g->N[d]      = PPE_GRID_DEFAULT_N;
    g->L[d]      = 1.0;
    g->origin[d] = 0.0;
    g->procs[d]  = PETSC_DECIDE;
  }
  for (int f = 0; f < 6; f++) g->bc[f] = PPE_BC_NEUMANN;
  g->location       = PPE_LOCATION_CELL;
  g->stretch        = PPE_STRETCH_NONE;
  g->stretch_factor = PPE_GRID_DEFAULT_STRETCH_FACTOR;
  *grid             = g;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Forget the DMDA's back pointer to this grid (it is not a reference: no cycle). */
static PetscErrorCode PPEGridDetachDM(PPEGrid g)
{
  PetscContainer c;
  void          *ptr;

  PetscFunctionBegin;
  if (!g->da) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectQuery((PetscObject)g->da, "PPEGrid", (PetscObject *)&c));
  if (c) {
    PetscCall(PetscContainerGetPointer(c, &ptr));
    if (ptr == (void *)g) PetscCall(PetscObjectCompose((PetscObject)g->da, "PPEGrid", NULL));
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
  PetscCall(PPEGridDetachDM(g));
  PetscCall(DMDestroy(&g->da));
  for (int d = 0; d < 3; d++) PetscCall(PPEGrid1dReset(&g->dir[d]));
  PetscCall(PetscFree(g->zlines));
  PetscCall(PetscHeaderDestroy(grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Checks that need the whole description: BC pairs, the attached DMDA. */
static PetscErrorCode PPEGridValidate(PPEGrid g)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)g);

  PetscFunctionBegin;
  for (int d = 0; d < 3; d++) {
    PPEBCType lo = g->bc[2 * d], hi = g->bc[2 * d + 1];
    PetscCheck((lo == PPE_BC_PERIODIC) == (hi == PPE_BC_PERIODIC), comm, PETSC_ERR_ARG_INCOMP, "Periodic boundary conditions come in pairs: face %s is %s but face %s is %s", PPEFaces[2 * d], PPEBCTypes[lo], PPEFaces[2 * d + 1], PPEBCTypes[hi]);
  }
  if (g->da) {
    PetscInt         dim, M, N, P, dof, sw;
    DMBoundaryType   bt[3];
    DMDAStencilType  st;
    PetscInt         n[3];

    PetscCall(DMDAGetInfo(g->da, &dim, &M, &N, &P, NULL, NULL, NULL, &dof, &sw, &bt[0], &bt[1], &bt[2], &st));
    PetscCheck(dim == 3, comm, PETSC_ERR_ARG_WRONG, "PPEGrid needs a 3D DMDA, got dimension %" PetscInt_FMT, dim);
    PetscCheck(dof == 1, comm, PETSC_ERR_ARG_WRONG, "PPEGrid needs a DMDA with 1 degree of freedom per point, got %" PetscInt_FMT, dof);
    PetscCheck(sw >= 1, comm, PETSC_ERR_ARG_WRONG, "PPEGrid needs a DMDA with stencil width >= 1, got %" PetscInt_FMT, sw);
    n[0] = M;
    n[1] = N;
    n[2] = P;
    if (!g->sizes_set)
      for (int d = 0; d < 3; d++) g->N[d] = n[d];
    for (int d = 0; d < 3; d++) {
      PetscBool per = (PetscBool)(g->bc[2 * d] == PPE_BC_PERIODIC);
      PetscCheck(n[d] == g->N[d], comm, PETSC_ERR_ARG_SIZ, "Grid/DMDA size mismatch: the grid is %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " but the DMDA is %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT, g->N[0], g->N[1], g->N[2], M, N, P);
      PetscCheck(per == (PetscBool)(bt[d] == DM_BOUNDARY_PERIODIC), comm, PETSC_ERR_ARG_INCOMP, "Grid/DMDA boundary mismatch in %c: the grid's BCs are %s-%s but the DMDA boundary type is %s", "xyz"[d], PPEBCTypes[g->bc[2 * d]], PPEBCTypes[g->bc[2 * d + 1]], DMBoundaryTypes[bt[d]]);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridSetUp - validates the description, creates the DMDA (unless one was attached) and
   computes coordinates, weights, 1D operators, eigenvalues and operator bounds

   Collective

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
  if (!grid->da) {
    DMBoundaryType bt[3];
    for (int d = 0; d < 3; d++) bt[d] = grid->bc[2 * d] == PPE_BC_PERIODIC ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE;
    PetscCall(DMDACreate3d(comm, bt[0], bt[1], bt[2], DMDA_STENCIL_STAR, grid->N[0], grid->N[1], grid->N[2], grid->procs[0], grid->procs[1], grid->procs[2], 1, 1, NULL, NULL, NULL, &grid->da));
    PetscCall(DMSetUp(grid->da));
    grid->da_owned = PETSC_TRUE;
  }
  for (int d = 0; d < 3; d++) {
    PPEGrid1d     *g1 = &grid->dir[d];
    PPEStretchType st = d == 2 ? grid->stretch : PPE_STRETCH_NONE;

    g1->n     = grid->N[d];
    g1->bc[0] = grid->bc[2 * d];
    g1->bc[1] = grid->bc[2 * d + 1];
    PetscCall(PPEGrid1dSetUp(g1, grid->location, grid->origin[d], grid->L[d], st, grid->stretch_factor, grid->nzlines, grid->zlines));
    if (st == PPE_STRETCH_USER) {
      grid->origin[2] = g1->lines[0];
      grid->L[2]      = g1->lines[g1->nint] - g1->lines[0];
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
  PetscCall(PetscViewerASCIIPrintf(viewer, "sizes: %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT ", %s-centred\n", grid->N[0], grid->N[1], grid->N[2], PPELocations[grid->location]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "domain: [%g, %g] x [%g, %g] x [%g, %g]\n", (double)grid->origin[0], (double)(grid->origin[0] + grid->L[0]), (double)grid->origin[1], (double)(grid->origin[1] + grid->L[1]), (double)grid->origin[2], (double)(grid->origin[2] + grid->L[2])));
  PetscCall(PetscViewerASCIIPrintf(viewer, "boundary conditions: %s (x %s-%s, y %s-%s, z %s-%s)\n", bcs, PPEBCTypes[grid->bc[0]], PPEBCTypes[grid->bc[1]], PPEBCTypes[grid->bc[2]], PPEBCTypes[grid->bc[3]], PPEBCTypes[grid->bc[4]], PPEBCTypes[grid->bc[5]]));
  if (grid->stretch == PPE_STRETCH_TANH) PetscCall(PetscViewerASCIIPrintf(viewer, "z spacing: tanh stretching, factor %g\n", (double)grid->stretch_factor));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "z spacing: %s\n", grid->stretch == PPE_STRETCH_NONE ? "uniform" : "user mesh lines"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "Helmholtz shift: %g\n", (double)grid->shift));
  if (grid->setupcalled) {
    PetscInt          m, n, p;
    PetscViewerFormat fmt;
    PPEGrid1d        *z = &grid->dir[2];

    if (z->uniform) PetscCall(PetscViewerASCIIPrintf(viewer, "spacing: hx %g, hy %g, hz %g\n", (double)grid->dir[0].href, (double)grid->dir[1].href, (double)z->href));
    else {
      PetscReal dmin = PETSC_MAX_REAL, dmax = 0;
      for (PetscInt k = 0; k < z->nint; k++) {
        dmin = PetscMin(dmin, z->lines[k + 1] - z->lines[k]);
        dmax = PetscMax(dmax, z->lines[k + 1] - z->lines[k]);
      }
      PetscCall(PetscViewerASCIIPrintf(viewer, "spacing: hx %g, hy %g, hz %g on average, from %g to %g\n", (double)grid->dir[0].href, (double)grid->dir[1].href, (double)z->href, (double)dmin, (double)dmax));
    }
    PetscCall(DMDAGetInfo(grid->da, NULL, NULL, NULL, NULL, &m, &n, &p, NULL, NULL, NULL, NULL, NULL, NULL));
    PetscCall(PetscViewerASCIIPrintf(viewer, "process grid: %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT "%s\n", m, n, p, grid->da_owned ? "" : " (user DMDA)"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "operator eigenvalues: %s [%g, %g]%s\n", grid->bounds_exact ? "exact" : "bounds", (double)grid->lmin, (double)grid->lmax, grid->singular ? " (lower end: smallest nonzero)" : ""));
    PetscCall(PetscViewerASCIIPrintf(viewer, "singular: %s\n", grid->singular ? "yes, constant null space" : "no"));
    PetscCall(PetscViewerGetFormat(viewer, &fmt));
    if (fmt == PETSC_VIEWER_ASCII_INFO_DETAIL) {
      for (int d = 0; d < 3; d++) {
        PetscCall(PetscViewerASCIIPrintf(viewer, "%c eigenvalues:", "xyz"[d]));
        PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
        for (PetscInt i = 0; i < grid->dir[d].n; i++) PetscCall(PetscViewerASCIIPrintf(viewer, " %g", (double)grid->dir[d].eig[i]));
        PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
        PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
        PetscCall(PetscViewerASCIIPrintf(viewer, "%c weights:", "xyz"[d]));
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
