static const char help[] = "Grid attached to a user's DMDA: sizes taken from the DMDA, the grid found from\n\
the DMDA, a 2D DMDA making a 2D grid, and clear errors for a size mismatch, a periodicity\n\
mismatch, dof > 1, six boundary conditions on a 2D DMDA and a DM that is not a DMDA.\n\n";

#include <ppekit.h>
#include <petscdmshell.h>
#include "tap.h"

/* Attaches da to a grid and sets it up, and checks the error code and message. */
static PetscErrorCode ExpectSetUpError(MPI_Comm comm, DM da, const char bcs[], PetscInt n, PetscErrorCode expect, const char text[], const char what[])
{
  PPEGrid        g;
  PetscErrorCode ierr;
  const char    *msg = NULL;
  PetscBool      has = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetBCString(g, bcs));
  if (n > 0) PetscCall(PPEGridSetSizes(g, n, n, n));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PPEGridSetDM(g, da);
  if (!ierr) ierr = PPEGridSetUp(g);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    PetscCall(PPEErrorMessage(ierr, &msg));
    has = (PetscBool)(msg && strstr(msg, text));
  }
  PetscCall(TapCheck(comm, (PetscBool)(ierr == expect && has), "%s: error %d (expected %d), message \"%s\" (expected to contain \"%s\": %s)", what, (int)ierr, (int)expect, msg ? msg : "(none)", text, has ? "yes" : "no"));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  MPI_Comm comm;
  DM       da, da2;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());

  /* attach: sizes from the DMDA, grid found from the DMDA, detached when destroyed */
  PetscCall(DMDACreate3d(comm, DM_BOUNDARY_PERIODIC, DM_BOUNDARY_PERIODIC, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 10, 9, 11, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  {
    PPEGrid  g, found;
    PetscInt nx, ny, nz;

    PetscCall(PPEGridCreate(comm, &g));
    PetscCall(PPEGridSetBCString(g, "PPPPND"));
    PetscCall(PPEGridSetSizes(g, 10, 9, 11));
    PetscCall(PPEGridSetDM(g, da));
    PetscCall(PPEGridSetUp(g));
    PetscCall(PPEGridGetSizes(g, &nx, &ny, &nz));
    PetscCall(PPEGridGetFromDM(da, &found));
    PetscCall(TapCheck(comm, (PetscBool)(found == g && nx == 10 && ny == 9 && nz == 11), "attached DMDA: grid %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT " (expected 10x9x11), found from the DMDA: %s (expected yes)", nx, ny, nz,
                       found == g ? "yes" : "no"));
    PetscCall(PPEGridDestroy(&g));
    PetscCall(PPEGridGetFromDM(da, &found));
    PetscCall(TapCheck(comm, (PetscBool)(found == NULL), "destroyed grid is detached from the DMDA"));
  }
  PetscCall(ExpectSetUpError(comm, da, "PPPPND", 12, PETSC_ERR_ARG_SIZ, "size mismatch", "grid 12^3 on a 10x9x11 DMDA"));
  PetscCall(ExpectSetUpError(comm, da, "NNPPND", 0, PETSC_ERR_ARG_INCOMP, "boundary mismatch", "Neumann x on a periodic-x DMDA"));
  PetscCall(ExpectSetUpError(comm, da, "PPPPPP", 0, PETSC_ERR_ARG_INCOMP, "boundary mismatch", "periodic z on a non-periodic-z DMDA"));
  PetscCall(DMDestroy(&da));

  PetscCall(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 8, 8, 8, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 2, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(ExpectSetUpError(comm, da, "NNNNNN", 8, PETSC_ERR_ARG_WRONG, "1 degree of freedom", "DMDA with 2 dof"));
  PetscCall(DMDestroy(&da));

  /* a 2D DMDA makes a 2D grid (nx x ny, faces xlo..yhi); with six BCs it is refused */
  PetscCall(DMDACreate2d(comm, DM_BOUNDARY_PERIODIC, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 8, 6, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da2));
  PetscCall(DMSetUp(da2));
  {
    PPEGrid  g, found;
    PetscInt nx, ny, nz, dim;
    DM       dm;
    char     bcs[7];

    PetscCall(PPEGridCreate(comm, &g));
    PetscCall(PPEGridSetBCString(g, "PPND"));
    PetscCall(PPEGridSetDM(g, da2));
    PetscCall(PPEGridSetUp(g));
    PetscCall(PPEGridGetSizes(g, &nx, &ny, &nz));
    PetscCall(PPEGridGetDimension(g, &dim));
    PetscCall(PPEGridGetDM(g, &dm));
    PetscCall(PPEGridGetBCString(g, bcs));
    PetscCall(PPEGridGetFromDM(da2, &found));
    PetscCall(TapCheck(comm, (PetscBool)(dim == 2 && found == g && dm == da2 && nx == 8 && ny == 6 && nz == 1 && !strcmp(bcs, "PPND")),
                       "2D DMDA: a %" PetscInt_FMT "D grid %" PetscInt_FMT "x%" PetscInt_FMT " (nz %" PetscInt_FMT "; expected a 2D grid 8x6, nz 1), bc %s (expected PPND), its DM is the user's: %s, found from the DMDA: %s (expected yes, yes)", dim,
                       nx, ny, nz, bcs, dm == da2 ? "yes" : "no", found == g ? "yes" : "no"));
    PetscCall(PPEGridDestroy(&g));
  }
  PetscCall(ExpectSetUpError(comm, da2, "PPNNNN", 0, PETSC_ERR_ARG_INCOMP, "cannot be 2D (a 2D DMDA) and 3D (a boundary-condition string of 6 letters)", "2D DMDA with six boundary conditions"));
  PetscCall(ExpectSetUpError(comm, da2, "NNND", 0, PETSC_ERR_ARG_INCOMP, "boundary mismatch", "Neumann x on a periodic-x 2D DMDA"));
  PetscCall(DMDestroy(&da2));

  {
    DM             shell;
    PPEGrid        g;
    PetscErrorCode ierr;

    PetscCall(DMShellCreate(comm, &shell));
    PetscCall(PPEGridCreate(comm, &g));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = PPEGridSetDM(g, shell);
    PetscCall(PetscPopErrorHandler());
    PetscCall(TapCheck(comm, (PetscBool)(ierr == PETSC_ERR_ARG_WRONG), "a DMSHELL is refused (error %d)", (int)ierr));
    PetscCall(PPEGridDestroy(&g));
    PetscCall(DMDestroy(&shell));
  }
  PetscCall(PetscFinalize());
  return 0;
}
