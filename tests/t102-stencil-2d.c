static const char help[] = "The 5-point operator of a 2D grid: matrix-free MATPPESTENCIL against its assembled\n\
twins (AIJ, and MATHYPRESTRUCT when PETSc has hypre) and against a finite-volume formula\n\
written here from the grid's coordinates and mesh lines, for every BC pair in x and y, cell\n\
and vertex unknowns, uniform and tanh-stretched y, with and without a shift; symmetry, the\n\
constant null space exactly when singular, the operator's DM and vectors (the user's 2D\n\
DMDA), overlap on/off bitwise, and the rank-local block against the formula with the other\n\
ranks' values dropped.\n\
  -n nx,ny   grid size (default 13,11)\n\n";

#include <ppekit.h>
#include "tap.h"
#include "vecutil.h"

/* One direction of the formula: control-volume widths, distances to the lower and upper
   neighbour (or Dirichlet point), the neighbours (-1: none) and the reference spacing. */
typedef struct {
  PetscInt   n;
  PetscReal  href;
  PetscReal *cv, *dlo, *dhi;
  PetscInt  *nlo, *nhi; /* neighbour index; -1 Neumann (no flux), -2 Dirichlet (value 0) */
} Dir1d;

/* From the grid's public data only: coordinates x, mesh lines l (cell faces or nodes), BCs.
   Cell: control volume [l_i, l_i+1]. Vertex: the dual cell between the midpoints to the
   neighbours (a Neumann node on the face: the face itself). */
static PetscErrorCode Dir1dMake(PPEGrid g, PetscInt dir, Dir1d *D)
{
  const PetscReal *x, *l;
  PetscInt         nl, n, nx, ny, nz;
  PPEBCType        lo, hi;
  PPELocation      loc;

  PetscFunctionBegin;
  PetscCall(PPEGridGetSizes(g, &nx, &ny, &nz));
  n = dir ? ny : nx;
  PetscCall(PPEGridGetCoordinates(g, dir, &x));
  PetscCall(PPEGridGetLines(g, dir, &nl, &l));
  PetscCall(PPEGridGetReferenceSpacing(g, dir, &D->href));
  PetscCall(PPEGridGetBC(g, (PPEFace)(2 * dir), &lo));
  PetscCall(PPEGridGetBC(g, (PPEFace)(2 * dir + 1), &hi));
  PetscCall(PPEGridGetLocation(g, &loc));
  D->n = n;
  PetscCall(PetscMalloc5(n, &D->cv, n, &D->dlo, n, &D->dhi, n, &D->nlo, n, &D->nhi));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal wrap = (x[0] - l[0]) + (l[nl - 1] - x[n - 1]); /* across a periodic boundary */
    if (i > 0) {
      D->nlo[i] = i - 1;
      D->dlo[i] = x[i] - x[i - 1];
    } else if (lo == PPE_BC_PERIODIC) {
      D->nlo[i] = n - 1;
      D->dlo[i] = wrap;
    } else {
      D->nlo[i] = lo == PPE_BC_NEUMANN ? -1 : -2;
      D->dlo[i] = x[0] - l[0];
    }
    if (i < n - 1) {
      D->nhi[i] = i + 1;
      D->dhi[i] = x[i + 1] - x[i];
    } else if (hi == PPE_BC_PERIODIC) {
      D->nhi[i] = 0;
      D->dhi[i] = wrap;
    } else {
      D->nhi[i] = hi == PPE_BC_NEUMANN ? -1 : -2;
      D->dhi[i] = l[nl - 1] - x[n - 1];
    }
  }
  for (PetscInt i = 0; i < n; i++) {
    if (loc == PPE_LOCATION_CELL) D->cv[i] = l[i + 1] - l[i];
    else D->cv[i] = (D->nhi[i] == -1 ? 0 : 0.5 * D->dhi[i]) + (D->nlo[i] == -1 ? 0 : 0.5 * D->dlo[i]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Dir1dFree(Dir1d *D)
{
  PetscFunctionBegin;
  PetscCall(PetscFree5(D->cv, D->dlo, D->dhi, D->nlo, D->nhi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = (V / Vref) (sigma - Lap_h) x at the points this rank owns, from x in natural ordering
   on every rank; with box != NULL the values at points outside box[] (xs, xm, ys, ym) are
   taken as zero (the rank-local block). */
static PetscErrorCode Formula(PPEGrid g, DM da, Vec xall, const PetscInt *box, Vec y)
{
  Dir1d              X, Y;
  PetscReal          sigma;
  PetscInt           xs, ys, xm, ym;
  const PetscScalar *u;
  PetscScalar      **a;

  PetscFunctionBegin;
  PetscCall(Dir1dMake(g, 0, &X));
  PetscCall(Dir1dMake(g, 1, &Y));
  PetscCall(PPEGridGetShift(g, &sigma));
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(VecGetArrayRead(xall, &u));
  PetscCall(DMDAVecGetArray(da, y, &a));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) {
      PetscScalar c = u[i + X.n * j], fx = 0, fy = 0;
      /* flux differences: (u_p - u_nb) / dist per face; the neighbour's value when it exists
         (and, for the local block, is owned here), 0 at a Dirichlet point, no flux at Neumann */
      for (int s = 0; s < 2; s++) {
        PetscInt  nb = s ? X.nhi[i] : X.nlo[i];
        PetscReal d  = s ? X.dhi[i] : X.dlo[i];
        if (nb == -1) continue;
        if (nb >= 0 && (!box || (nb >= box[0] && nb < box[0] + box[1]))) fx += (c - u[nb + X.n * j]) / d;
        else fx += c / d;
      }
      for (int s = 0; s < 2; s++) {
        PetscInt  nb = s ? Y.nhi[j] : Y.nlo[j];
        PetscReal d  = s ? Y.dhi[j] : Y.dlo[j];
        if (nb == -1) continue;
        if (nb >= 0 && (!box || (nb >= box[2] && nb < box[2] + box[3]))) fy += (c - u[i + X.n * nb]) / d;
        else fy += c / d;
      }
      a[j][i] = X.cv[i] * Y.cv[j] / (X.href * Y.href) * (fx / X.cv[i] + fy / Y.cv[j] + sigma * c);
    }
  PetscCall(DMDAVecRestoreArray(da, y, &a));
  PetscCall(VecRestoreArrayRead(xall, &u));
  PetscCall(Dir1dFree(&X));
  PetscCall(Dir1dFree(&Y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x (a vector of the 2D DMDA) in natural ordering on every rank */
static PetscErrorCode Gather(DM da, Vec x, Vec *xall)
{
  Vec        xn;
  VecScatter sc;

  PetscFunctionBegin;
  PetscCall(DMDACreateNaturalVector(da, &xn));
  PetscCall(DMDAGlobalToNaturalBegin(da, x, INSERT_VALUES, xn));
  PetscCall(DMDAGlobalToNaturalEnd(da, x, INSERT_VALUES, xn));
  PetscCall(VecScatterCreateToAll(xn, &sc, xall));
  PetscCall(VecScatterBegin(sc, xn, *xall, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, xn, *xall, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&xn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckCase(MPI_Comm comm, const char bcs[], PPELocation loc, PetscBool stretch, PetscReal shift, const PetscInt n[2], const char procs[])
{
  PPEGrid      g;
  Mat          Amf, Aaij;
  DM           da, dm;
  Vec          x, z, y1, y2, yr, xall;
  PetscRandom  rnd;
  PetscReal    rel, rel2;
  PetscBool    eq, singular;
  PetscScalar  xaz, zax;
  char         tag[128];
  PetscInt     dim = 0, box[4];
  MatNullSpace nsp, nsp2;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(tag, sizeof(tag), "2D %" PetscInt_FMT "x%" PetscInt_FMT " %s %s %s%s%s", n[0], n[1], bcs, PPELocations[loc], stretch ? "tanh" : "uniform", shift > 0 ? " shift" : "", procs));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetBCString(g, bcs));
  PetscCall(PPEGridSetSizes(g, n[0], n[1], 1));
  PetscCall(PPEGridSetLengths(g, 1.0, 1.7, 0));
  PetscCall(PPEGridSetOrigin(g, -0.3, 0.4, 0));
  PetscCall(PPEGridSetLocation(g, loc));
  if (stretch) PetscCall(PPEGridSetZStretch(g, PPE_STRETCH_TANH, 2.0));
  PetscCall(PPEGridSetShift(g, shift));
  if (procs[0]) {
    PetscInt p[2] = {PETSC_DECIDE, PETSC_DECIDE};
    sscanf(procs, " procs %" PetscInt_FMT ",%" PetscInt_FMT, &p[0], &p[1]);
    PetscCall(PPEGridSetProcesses(g, p[0], p[1], 1));
  }
  PetscCall(PPEGridSetUp(g));
  PetscCall(PPEGridIsSingular(g, &singular));
  PetscCall(PPEGridGetDM(g, &da));
  PetscCall(PPEStencilCreate(g, &Amf));
  PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &Aaij));

  /* the operator's DM and vectors are the user's 2D DMDA */
  PetscCall(MatGetDM(Amf, &dm));
  PetscCall(MatCreateVecs(Amf, &x, &y1));
  {
    DM       vdm;
    PetscInt nl, nd;
    PetscCall(VecGetDM(x, &vdm));
    PetscCall(DMGetDimension(da, &dim));
    PetscCall(VecGetLocalSize(x, &nl));
    {
      PetscInt xm, ym;
      PetscCall(DMDAGetCorners(da, NULL, NULL, NULL, &xm, &ym, NULL));
      nd = xm * ym;
    }
    /* (MatCreateVecs attaches no DM to the vectors it makes, or the operator's) */
    PetscCall(TapCheck(comm, (PetscBool)(dm == da && (!vdm || vdm == da) && dim == 2 && nl == nd),
                       "%s: MatGetDM is the grid's 2D DMDA (%s, want same; dimension %" PetscInt_FMT ", want 2), MatCreateVecs' vectors have its layout (local size %" PetscInt_FMT " = its box %" PetscInt_FMT
                       ", their DM: %s, want none or the 2D DMDA)",
                       tag, dm == da ? "same" : "other", dim, nl, nd,
                       vdm == da ? "the 2D DMDA"
                       : vdm     ? "another DM"
                                 : "none"));
  }
  PetscCall(VecDuplicate(x, &z));
  PetscCall(VecDuplicate(x, &y2));
  PetscCall(VecDuplicate(x, &yr));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(z, rnd));

  /* matrix-free against the formula and against AIJ */
  PetscCall(MatMult(Amf, x, y1));
  PetscCall(Gather(da, x, &xall));
  PetscCall(Formula(g, da, xall, NULL, yr));
  rel = TestRelDiffNorm(y1, yr, NORM_INFINITY);
  PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-12), "%s: matrix-free = the 5-point finite-volume formula, rel diff %.2e", tag, (double)rel));
  PetscCall(MatMult(Aaij, x, y2));
  rel = TestRelDiffNorm(y2, y1, NORM_INFINITY);
  PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-13), "%s: matrix-free = AIJ, rel diff %.2e", tag, (double)rel));
#if defined(PETSC_HAVE_HYPRE)
  {
    Mat            H = NULL;
    PetscErrorCode code;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    code = PPEStencilCreateAssembled(g, MATHYPRESTRUCT, &H);
    PetscCall(PetscPopErrorHandler());
    if (!code) {
      PetscCall(MatMult(H, x, y2));
      rel = TestRelDiffNorm(y2, y1, NORM_INFINITY);
    } else rel = PETSC_MAX_REAL;
    PetscCall(TapCheck(comm, (PetscBool)(!code && rel <= 1e-13), "%s: matrix-free = MATHYPRESTRUCT, rel diff %.2e (<= 1e-13) (error %d, want 0)", tag, (double)rel, (int)code));
    PetscCall(MatDestroy(&H));
  }
#else
  PetscCall(PetscPrintf(comm, "ok - %s: matrix-free = MATHYPRESTRUCT # SKIP PETSc was built without hypre\n", tag));
#endif

  /* overlap off: the same bits */
  PetscCall(PPEStencilSetOverlap(Amf, PETSC_FALSE));
  PetscCall(MatMult(Amf, x, y2));
  PetscCall(TestBitwiseEqual(y2, y1, &eq));
  PetscCall(PPEStencilSetOverlap(Amf, PETSC_TRUE));
  PetscCall(TapCheck(comm, eq, "%s: overlap off = on, bitwise", tag));

  /* symmetry x'Az = z'Ax, and the diagonal */
  PetscCall(MatMult(Amf, z, y2));
  PetscCall(VecDot(x, y2, &xaz));
  PetscCall(VecDot(z, y1, &zax));
  rel = PetscAbsScalar(xaz - zax) / PetscMax(PetscAbsScalar(xaz), PetscAbsScalar(zax));
  PetscCall(MatGetDiagonal(Amf, y2));
  PetscCall(MatGetDiagonal(Aaij, yr));
  rel2 = TestRelDiffNorm(y2, yr, NORM_INFINITY);
  PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-12 && rel2 <= 1e-15), "%s: x'Az = z'Ax to %.1e (<= 1e-12), diagonal = AIJ's to %.1e (<= 1e-15)", tag, (double)rel, (double)rel2));

  /* the constant null space, attached to both operators exactly when singular */
  PetscCall(MatGetNullSpace(Amf, &nsp));
  PetscCall(MatGetNullSpace(Aaij, &nsp2));
  {
    PetscReal r1, anorm;
    PetscCall(VecSet(y2, 1.0));
    PetscCall(MatMult(Amf, y2, yr));
    PetscCall(VecNorm(yr, NORM_INFINITY, &r1));
    PetscCall(MatNorm(Aaij, NORM_INFINITY, &anorm));
    if (singular)
      PetscCall(TapCheck(comm, (PetscBool)(nsp && nsp2 && r1 <= 1e-13 * anorm), "%s: singular, constant null space on the matrix-free and AIJ operators: %s, %s (want yes, yes), ||A 1|| / ||A|| = %.1e (<= 1e-13)", tag, nsp ? "yes" : "no",
                         nsp2 ? "yes" : "no", (double)(r1 / anorm)));
    else
      PetscCall(TapCheck(comm, (PetscBool)(!nsp && !nsp2 && r1 > 1e-8 * anorm), "%s: nonsingular, null space on the matrix-free and AIJ operators: %s, %s (want no, no), ||A 1|| / ||A|| = %.1e (> 1e-8)", tag, nsp ? "yes" : "no", nsp2 ? "yes" : "no",
                         (double)(r1 / anorm)));
  }

  /* the rank-local block: the formula with the values owned by other ranks dropped */
  PetscCall(DMDAGetCorners(da, &box[0], &box[2], NULL, &box[1], &box[3], NULL));
  PetscCall(Formula(g, da, xall, box, yr));
  PetscCall(PPEStencilMultLocal(Amf, x, y2));
  rel = TestRelDiffNorm(y2, yr, NORM_INFINITY);
  {
    Mat Ab;
    Vec xl, yl, y3;
    PetscCall(MatGetDiagonalBlock(Amf, &Ab));
    PetscCall(MatCreateVecs(Ab, &xl, &yl));
    PetscCall(VecDuplicate(y2, &y3));
    PetscCall(VecGetLocalVector(x, xl));
    PetscCall(MatMult(Ab, xl, yl));
    PetscCall(VecRestoreLocalVector(x, xl));
    PetscCall(VecGetLocalVector(y3, xl));
    PetscCall(VecCopy(yl, xl));
    PetscCall(VecRestoreLocalVector(y3, xl));
    PetscCall(TestBitwiseEqual(y3, y2, &eq));
    PetscCall(VecDestroy(&xl));
    PetscCall(VecDestroy(&yl));
    PetscCall(VecDestroy(&y3));
  }
  PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-12 && eq), "%s: rank-local block = the formula without other ranks' values (rel diff %.1e, <= 1e-12), MatGetDiagonalBlock's MatMult the same bits: %s (want yes)", tag, (double)rel, eq ? "yes" : "no"));

  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&xall));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscCall(VecDestroy(&yr));
  PetscCall(MatDestroy(&Amf));
  PetscCall(MatDestroy(&Aaij));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  /* every BC pair in x and in y at least once, each location, uniform and stretched y */
  const char *bcs[] = {"PPNN", "PPPP", "NNNN", "DDDD", "NDDN", "DNND", "PPDN", "NDPP", "DDPP"};
  PetscInt    n[2] = {13, 11}, nn = 2;
  char        procs[64] = "";
  MPI_Comm    comm;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-n", n, &nn, NULL));
  {
    PetscInt  p[2] = {0, 0}, np = 2;
    PetscBool flg;
    PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-procs", p, &np, &flg));
    if (flg) PetscCall(PetscSNPrintf(procs, sizeof(procs), " procs %" PetscInt_FMT ",%" PetscInt_FMT, p[0], p[1]));
  }
  for (size_t c = 0; c < sizeof(bcs) / sizeof(bcs[0]); c++)
    for (int loc = 0; loc < 2; loc++)
      for (int st = 0; st < 2; st++) PetscCall(CheckCase(comm, bcs[c], (PPELocation)loc, (PetscBool)st, 0.0, n, procs));
  PetscCall(CheckCase(comm, "NNNN", PPE_LOCATION_CELL, PETSC_TRUE, 0.7, n, procs));
  PetscCall(CheckCase(comm, "PPNN", PPE_LOCATION_VERTEX, PETSC_FALSE, 2.5, n, procs));
  PetscCall(PetscFinalize());
  return 0;
}
