static const char help[] = "The variable-coefficient operator W (sigma I - D beta G) of MATPPESTENCIL: from a density\n\
(arithmetic and harmonic face means) and from face coefficients, against a finite-volume formula\n\
written here from the grid's public data, against its assembled twins (AIJ, MATHYPRESTRUCT), for\n\
BC sets x locations x z spacings in 3D and 2D; symmetry, the null space, the diagonal, overlap\n\
on/off and the emulated device back end bitwise, the rank-local block against the twin's; a new\n\
density increases the state; bad coefficients are refused and leave the operator unchanged.\n\
  -n nx,ny,nz   grid size (default 11,9,8)\n\n";

#include <ppekit.h>
#include <petscdmda.h>
#include <petsc/private/petscimpl.h> /* PetscObjectStateGet */
#include "tap.h"
#include "vecutil.h"

/* One direction of the formula, from the grid's public data (as t102 does in 2D). */
typedef struct {
  PetscInt   n;
  PetscReal  href;
  PetscReal *cv, *dlo, *dhi;
  PetscInt  *nlo, *nhi; /* neighbour index; -1 Neumann (no flux), -2 Dirichlet (value 0) */
} Dir1d;

static PetscErrorCode Dir1dMake(PPEGrid g, PetscInt dir, Dir1d *D)
{
  const PetscReal *x, *l;
  PetscInt         nl, n, N[3];
  PPEBCType        lo, hi;
  PPELocation      loc;

  PetscFunctionBegin;
  PetscCall(PPEGridGetSizes(g, &N[0], &N[1], &N[2]));
  n = N[dir];
  PetscCall(PPEGridGetCoordinates(g, dir, &x));
  PetscCall(PPEGridGetLines(g, dir, &nl, &l));
  PetscCall(PPEGridGetReferenceSpacing(g, dir, &D->href));
  PetscCall(PPEGridGetBC(g, (PPEFace)(2 * dir), &lo));
  PetscCall(PPEGridGetBC(g, (PPEFace)(2 * dir + 1), &hi));
  PetscCall(PPEGridGetLocation(g, &loc));
  D->n = n;
  PetscCall(PetscMalloc5(n, &D->cv, n, &D->dlo, n, &D->dhi, n, &D->nlo, n, &D->nhi));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal wrap = (x[0] - l[0]) + (l[nl - 1] - x[n - 1]);
    D->nlo[i]      = i > 0 ? i - 1 : (lo == PPE_BC_PERIODIC ? n - 1 : (lo == PPE_BC_NEUMANN ? -1 : -2));
    D->dlo[i]      = i > 0 ? x[i] - x[i - 1] : (lo == PPE_BC_PERIODIC ? wrap : x[0] - l[0]);
    D->nhi[i]      = i < n - 1 ? i + 1 : (hi == PPE_BC_PERIODIC ? 0 : (hi == PPE_BC_NEUMANN ? -1 : -2));
    D->dhi[i]      = i < n - 1 ? x[i + 1] - x[i] : (hi == PPE_BC_PERIODIC ? wrap : l[nl - 1] - x[n - 1]);
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

/* A density with sharp jumps between 1 and ratio and a smooth variation, from the global
   (natural) index: the same on every rank count. */
static PetscReal Density(PetscInt i, PetscInt j, PetscInt k, PetscReal ratio)
{
  PetscInt h = (i * 7 + j * 13 + k * 29 + (i * j) % 5) % 3;

  return (h == 0 ? ratio : 1.0) * (1.0 + 0.25 * PetscSinReal(0.7 * i + 0.3 * j - 0.4 * k));
}

/* A face coefficient of direction d at point (i,j,k): its face below. */
static PetscReal FaceValue(PetscInt d, PetscInt i, PetscInt j, PetscInt k)
{
  return 0.01 + (PetscReal)((i * 17 + j * 5 + k * 11 + d * 3) % 7);
}

typedef struct {
  PetscBool   density; /* else face coefficients */
  PPEFaceMean mean;
  PetscReal   ratio;
} Coef;

/* beta of the face of direction d between natural points lo and up (indices along d: a, b). */
static PetscReal FormulaBeta(const Coef *C, PetscInt d, const PetscInt p[3], PetscInt nbidx, PetscInt side)
{
  PetscInt q[3] = {p[0], p[1], p[2]};

  if (nbidx >= 0) q[d] = nbidx;
  if (C->density) {
    PetscReal a = Density(p[0], p[1], p[2], C->ratio), b = Density(q[0], q[1], q[2], C->ratio);
    if (nbidx < 0) return 1.0 / a; /* Dirichlet: the boundary point's coefficient */
    return C->mean == PPE_FACE_MEAN_ARITHMETIC ? 2.0 / (a + b) : 0.5 * (1.0 / a + 1.0 / b);
  }
  if (nbidx < 0) return FaceValue(d, p[0], p[1], p[2]); /* the point's own face below */
  /* the face below the upper of the two points */
  return side ? FaceValue(d, q[0], q[1], q[2]) : FaceValue(d, p[0], p[1], p[2]);
}

/* y = (V/Vref) (sigma u - div beta grad u) at the owned points, u in natural ordering on
   every rank (3D grid: natural index i + nx (j + ny k)). */
static PetscErrorCode Formula(PPEGrid g, DM da, Vec xall, const Coef *C, Vec y)
{
  Dir1d              D[3];
  PetscReal          sigma;
  PetscInt           s[3], m[3];
  const PetscScalar *u;
  PetscScalar     ***a;

  PetscFunctionBegin;
  for (int d = 0; d < 3; d++) PetscCall(Dir1dMake(g, d, &D[d]));
  PetscCall(PPEGridGetShift(g, &sigma));
  PetscCall(DMDAGetCorners(da, &s[0], &s[1], &s[2], &m[0], &m[1], &m[2]));
  PetscCall(VecGetArrayRead(xall, &u));
  PetscCall(DMDAVecGetArray(da, y, &a));
  for (PetscInt k = s[2]; k < s[2] + m[2]; k++)
    for (PetscInt j = s[1]; j < s[1] + m[1]; j++)
      for (PetscInt i = s[0]; i < s[0] + m[0]; i++) {
        PetscInt    p[3] = {i, j, k}, nx = D[0].n, ny = D[1].n;
        PetscScalar c = u[i + nx * (j + ny * k)], acc = sigma * c;
        PetscReal   vol = 1.0;
        for (int d = 0; d < 3; d++) {
          PetscScalar f = 0;
          vol *= D[d].cv[p[d]] / D[d].href;
          for (int side = 0; side < 2; side++) {
            PetscInt  nb = side ? D[d].nhi[p[d]] : D[d].nlo[p[d]], q[3] = {i, j, k};
            PetscReal dist = side ? D[d].dhi[p[d]] : D[d].dlo[p[d]];
            if (nb == -1) continue;
            if (nb >= 0) {
              q[d] = nb;
              f += FormulaBeta(C, d, p, nb, side) * (c - u[q[0] + nx * (q[1] + ny * q[2])]) / dist;
            } else f += FormulaBeta(C, d, p, -1, side) * c / dist;
          }
          acc += f / D[d].cv[p[d]];
        }
        a[k][j][i] = vol * acc;
      }
  PetscCall(DMDAVecRestoreArray(da, y, &a));
  PetscCall(VecRestoreArrayRead(xall, &u));
  for (int d = 0; d < 3; d++) PetscCall(Dir1dFree(&D[d]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

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

/* The coefficients C given to A (grid g, DMDA da of dimension dim). */
static PetscErrorCode SetCoef(PPEGrid g, DM da, PetscInt dim, const Coef *C, Mat A)
{
  Vec      v[3];
  PetscInt s[3] = {0, 0, 0}, m[3] = {1, 1, 1};

  PetscFunctionBegin;
  PetscCall(DMDAGetCorners(da, &s[0], &s[1], &s[2], &m[0], &m[1], &m[2]));
  for (PetscInt d = 0; d < (C->density ? 1 : dim); d++) {
    PetscScalar *a;
    PetscInt     l = 0;
    PetscCall(DMCreateGlobalVector(da, &v[d]));
    PetscCall(VecGetArray(v[d], &a));
    for (PetscInt k = s[2]; k < s[2] + m[2]; k++)
      for (PetscInt j = s[1]; j < s[1] + m[1]; j++)
        for (PetscInt i = s[0]; i < s[0] + m[0]; i++) a[l++] = C->density ? Density(i, j, k, C->ratio) : FaceValue(d, i, j, k);
    PetscCall(VecRestoreArray(v[d], &a));
  }
  (void)g;
  if (C->density) {
    PetscCall(PPEStencilSetFaceMean(A, C->mean));
    PetscCall(PPEStencilSetDensity(A, v[0]));
  } else PetscCall(PPEStencilSetFaceCoefficients(A, dim, v));
  for (PetscInt d = 0; d < (C->density ? 1 : dim); d++) PetscCall(VecDestroy(&v[d]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal RelInf(Vec a, Vec b)
{
  return TestRelDiffNorm(a, b, NORM_INFINITY);
}

static PetscErrorCode CheckCase(MPI_Comm comm, PetscInt dim, const char bcs[], PPELocation loc, PetscBool stretch, PetscReal shift, const Coef *C, const PetscInt n[3])
{
  PPEGrid        g;
  DM             da;
  Mat            A, T, Ab, Tb;
  Vec            x, z, y1, y2, xall;
  PetscRandom    rnd;
  PetscReal      rel, bmin, bmax;
  PetscBool      eq, singular;
  PetscScalar    xaz, zax;
  PPEBackend     emu = PPE_BACKEND_EMU;
  char           tag[160];
  PetscErrorCode code;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(tag, sizeof(tag), "%dD %s %s %s%s, %s%s", (int)dim, bcs, PPELocations[loc], stretch ? "tanh" : "uniform", shift > 0 ? " shift" : "", C->density ? "density " : "faces", C->density ? PPEFaceMeans[C->mean] : ""));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetBCString(g, bcs));
  PetscCall(PPEGridSetSizes(g, n[0], n[1], dim == 2 ? 1 : n[2]));
  PetscCall(PPEGridSetLengths(g, 1.0, 1.7, dim == 2 ? 0 : 0.8));
  PetscCall(PPEGridSetLocation(g, loc));
  if (stretch) PetscCall(PPEGridSetZStretch(g, PPE_STRETCH_TANH, 2.0));
  PetscCall(PPEGridSetShift(g, shift));
  PetscCall(PPEGridSetUp(g));
  PetscCall(PPEGridIsSingular(g, &singular));
  PetscCall(PPEGridGetDM(g, &da));
  PetscCall(PPEStencilCreate(g, &A));
  PetscCall(SetCoef(g, da, dim, C, A));
  PetscCall(PPEStencilGetCoefficients(A, NULL, &bmin, &bmax));
  PetscCall(PPEStencilAssemble(A, MATAIJ, MAT_INITIAL_MATRIX, &T));
  PetscCall(MatCreateVecs(A, &x, &y1));
  PetscCall(VecDuplicate(x, &y2));
  PetscCall(VecDuplicate(x, &z));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(z, rnd));

  /* against the formula (3D DMDA only: the formula indexes a 3D natural ordering) */
  PetscCall(MatMult(A, x, y1));
  if (dim == 3) {
    PetscCall(Gather(da, x, &xall));
    PetscCall(Formula(g, da, xall, C, y2));
    PetscCall(VecDestroy(&xall));
    rel = RelInf(y1, y2);
    PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-14), "%s: matrix-free = finite-volume formula, rel diff %.2e (<= 1e-14)", tag, (double)rel));
  }
  PetscCall(MatMult(T, x, y2));
  rel = RelInf(y1, y2);
  PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-14), "%s: matrix-free = AIJ twin, rel diff %.2e (<= 1e-14); beta in [%g, %g]", tag, (double)rel, (double)bmin, (double)bmax));
#if defined(PETSC_HAVE_HYPRE)
  {
    Mat H = NULL;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    code = PPEStencilAssemble(A, MATHYPRESTRUCT, MAT_INITIAL_MATRIX, &H);
    PetscCall(PetscPopErrorHandler());
    if (!code) {
      PetscCall(MatMult(H, x, y2));
      rel = RelInf(y1, y2);
    } else rel = PETSC_MAX_REAL;
    PetscCall(TapCheck(comm, (PetscBool)(!code && rel <= 1e-14), "%s: matrix-free = MATHYPRESTRUCT twin, rel diff %.2e (<= 1e-14) (error %d, want 0)", tag, (double)rel, (int)code));
    PetscCall(MatDestroy(&H));
  }
#else
  PetscCall(PetscPrintf(comm, "ok - %s: matrix-free = MATHYPRESTRUCT twin # SKIP PETSc was built without hypre\n", tag));
#endif

  /* overlap off: the same bits */
  PetscCall(PPEStencilSetOverlap(A, PETSC_FALSE));
  PetscCall(MatMult(A, x, y2));
  PetscCall(PPEStencilSetOverlap(A, PETSC_TRUE));
  PetscCall(TestBitwiseEqual(y1, y2, &eq));
  PetscCall(TapCheck(comm, eq, "%s: overlap off = on, bitwise", tag));

  /* the emulated device back end: the host's bits */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  code = PPEStencilSetBackend(A, emu);
  PetscCall(PetscPopErrorHandler());
  if (!code) {
    PetscCall(MatMult(A, x, y2));
    PetscCall(TestBitwiseEqual(y1, y2, &eq));
    PetscCall(TapCheck(comm, eq, "%s: emulated device apply = host apply, bitwise", tag));
    PetscCall(PPEStencilSetBackend(A, PPE_BACKEND_HOST));
  } else PetscCall(PetscPrintf(comm, "ok - %s: emulated device apply # SKIP no emulated back end\n", tag));

  /* symmetry */
  PetscCall(MatMult(A, z, y2));
  PetscCall(VecDot(x, y2, &xaz));
  PetscCall(VecDot(z, y1, &zax));
  rel = PetscAbsScalar(xaz - zax) / PetscMax(PetscAbsScalar(xaz), PetscAbsScalar(zax));
  PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-13), "%s: x'Az = z'Ax, rel diff %.2e (<= 1e-13)", tag, (double)rel));

  /* diagonal */
  PetscCall(MatGetDiagonal(A, y1));
  PetscCall(MatGetDiagonal(T, y2));
  rel = RelInf(y1, y2);
  PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-15), "%s: diagonal = twin's, rel diff %.2e", tag, (double)rel));

  /* null space: A 1 = 0 exactly when singular (rows sum to the shift) */
  {
    PetscReal r, dmax;
    PetscCall(VecSet(x, 1.0));
    PetscCall(MatMult(A, x, y2));
    PetscCall(VecNorm(y2, NORM_INFINITY, &r));
    PetscCall(VecNorm(y1, NORM_INFINITY, &dmax));
    if (singular) PetscCall(TapCheck(comm, (PetscBool)(r <= 1e-13 * dmax), "%s: singular, |A 1|/max diag = %.2e (<= 1e-13)", tag, (double)(r / dmax)));
    else PetscCall(TapCheck(comm, (PetscBool)(r > 1e-8 * dmax), "%s: not singular, |A 1|/max diag = %.2e (> 1e-8)", tag, (double)(r / dmax)));
  }

  /* the rank-local block against the twin's diagonal block */
  PetscCall(MatGetDiagonalBlock(A, &Ab));
  PetscCall(MatGetDiagonalBlock(T, &Tb));
  {
    Vec xl, yl1, yl2;
    PetscCall(MatCreateVecs(Tb, &xl, &yl1));
    PetscCall(VecDuplicate(yl1, &yl2));
    PetscCall(VecSetRandom(xl, rnd));
    PetscCall(MatMult(Ab, xl, yl1));
    PetscCall(MatMult(Tb, xl, yl2));
    rel = RelInf(yl1, yl2);
    PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-14), "%s: rank-local block = twin's diagonal block, rel diff %.2e", tag, (double)rel));
    PetscCall(VecDestroy(&xl));
    PetscCall(VecDestroy(&yl1));
    PetscCall(VecDestroy(&yl2));
  }

  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscCall(MatDestroy(&T));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A call that must fail with text in its message and leave A's action as it was (y0 = A x). */
static PetscErrorCode ExpectRefused(MPI_Comm comm, Mat A, Vec x, Vec y0, PetscErrorCode code, const char what[], const char text[])
{
  const char *msg = "";
  Vec         y;
  PetscBool   eq = PETSC_FALSE;

  PetscFunctionBegin;
  if (code) PetscCall(PPEErrorMessage(code, &msg));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(MatMult(A, x, y));
  PetscCall(TestBitwiseEqual(y, y0, &eq));
  PetscCall(TapCheck(comm, (PetscBool)(code && strstr(msg, text) && eq), "%s refused: error %d (want nonzero), \"%s\" (want \"%s\"), operator unchanged: %s", what, (int)code, msg, text, eq ? "yes" : "no"));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckErrors(MPI_Comm comm)
{
  PPEGrid          g, g2;
  DM               da, da2;
  Mat              A;
  Vec              rho, bad, x, y0, other, v2[2];
  PetscInt         n;
  PetscObjectState s0, s1;
  PetscErrorCode   code;
  const PetscReal  vals[]  = {0.0, -1.0, (PetscReal)INFINITY, (PetscReal)NAN};
  const char      *names[] = {"zero density", "negative density", "infinite density", "NaN density"};

  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetSizes(g, 8, 7, 6));
  PetscCall(PPEGridSetBCString(g, "PPPPNN"));
  PetscCall(PPEGridSetUp(g));
  PetscCall(PPEGridGetDM(g, &da));
  PetscCall(PPEStencilCreate(g, &A));
  PetscCall(DMCreateGlobalVector(da, &rho));
  PetscCall(VecSet(rho, 2.0));
  PetscCall(VecSetValue(rho, 3, 1000.0, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(rho));
  PetscCall(VecAssemblyEnd(rho));
  PetscCall(PetscObjectStateGet((PetscObject)A, &s0));
  PetscCall(PPEStencilSetDensity(A, rho));
  PetscCall(PetscObjectStateGet((PetscObject)A, &s1));
  PetscCall(TapCheck(comm, (PetscBool)(s1 > s0), "a new density increases the operator's state (%d -> %d)", (int)s0, (int)s1));
  PetscCall(MatCreateVecs(A, &x, &y0));
  PetscCall(VecSet(x, 1.0));
  PetscCall(VecSetValue(x, 5, 3.0, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(x));
  PetscCall(VecAssemblyEnd(x));
  PetscCall(MatMult(A, x, y0));
  PetscCall(VecGetSize(rho, &n));
  for (int c = 0; c < 4; c++) {
    PetscCall(VecDuplicate(rho, &bad));
    PetscCall(VecCopy(rho, bad));
    PetscCall(VecSetValue(bad, n - 2, vals[c], INSERT_VALUES));
    PetscCall(VecAssemblyBegin(bad));
    PetscCall(VecAssemblyEnd(bad));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    code = PPEStencilSetDensity(A, bad);
    PetscCall(PetscPopErrorHandler());
    PetscCall(ExpectRefused(comm, A, x, y0, code, names[c], "must be finite and positive"));
    PetscCall(VecDestroy(&bad));
  }
  /* a Vec of another size, of another DMDA layout, a 2D set on a 3D grid */
  PetscCall(VecCreateMPI(comm, PETSC_DECIDE, n + 1, &other));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  code = PPEStencilSetDensity(A, other);
  PetscCall(PetscPopErrorHandler());
  PetscCall(ExpectRefused(comm, A, x, y0, code, "a Vec of another size", "values, the operator's grid"));
  PetscCall(VecDestroy(&other));
  PetscCall(PPEGridCreate(comm, &g2));
  PetscCall(PPEGridSetSizes(g2, 6, 7, 8));
  PetscCall(PPEGridSetUp(g2));
  PetscCall(PPEGridGetDM(g2, &da2));
  PetscCall(DMCreateGlobalVector(da2, &other));
  PetscCall(VecSet(other, 1.0));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  code = PPEStencilSetDensity(A, other);
  PetscCall(PetscPopErrorHandler());
  PetscCall(ExpectRefused(comm, A, x, y0, code, "a Vec of another DMDA (same size)", "not laid out as the operator's grid"));
  v2[0] = v2[1] = rho;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  code = PPEStencilSetFaceCoefficients(A, 2, v2);
  PetscCall(PetscPopErrorHandler());
  PetscCall(ExpectRefused(comm, A, x, y0, code, "2D face coefficients on a 3D grid", "per direction of the 3D grid"));
  PetscCall(VecDestroy(&other));
  PetscCall(PPEGridDestroy(&g2));
  /* back to constant coefficients, then the density again: the same operator */
  {
    Vec       y1;
    PetscBool eq;
    PetscCall(VecDuplicate(x, &y1));
    PetscCall(PPEStencilSetConstantCoefficients(A));
    PetscCall(MatMult(A, x, y1));
    PetscCall(TestBitwiseEqual(y0, y1, &eq));
    PetscCall(TapCheck(comm, (PetscBool)!eq, "constant coefficients again: a different operator"));
    PetscCall(PPEStencilSetDensity(A, rho));
    PetscCall(MatMult(A, x, y1));
    PetscCall(TestBitwiseEqual(y0, y1, &eq));
    PetscCall(TapCheck(comm, eq, "the density again: the same operator, bitwise"));
    PetscCall(VecDestroy(&y1));
  }
  PetscCall(VecDestroy(&rho));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y0));
  PetscCall(MatDestroy(&A));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MPI_Comm          comm;
  PetscInt          n[3] = {11, 9, 8}, nn = 3;
  const char *const bcs3[] = {"PPPPNN", "PPPPDD", "DNPPND", "NNNNNN", "DDDDDD"};
  const Coef        dens = {PETSC_TRUE, PPE_FACE_MEAN_ARITHMETIC, 1000.0}, harm = {PETSC_TRUE, PPE_FACE_MEAN_HARMONIC, 1000.0}, faces = {PETSC_FALSE, PPE_FACE_MEAN_ARITHMETIC, 1.0};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-n", n, &nn, NULL));
  for (int b = 0; b < 5; b++)
    for (int loc = 0; loc < 2; loc++) {
      PetscCall(CheckCase(comm, 3, bcs3[b], (PPELocation)loc, (PetscBool)(b % 2), 0.0, &dens, n));
      PetscCall(CheckCase(comm, 3, bcs3[b], (PPELocation)loc, (PetscBool)(b % 2 == 0), 0.0, b == 2 ? &faces : &harm, n));
    }
  PetscCall(CheckCase(comm, 3, "PPPPNN", PPE_LOCATION_CELL, PETSC_TRUE, 3.0, &dens, n));
  PetscCall(CheckCase(comm, 2, "PPNN", PPE_LOCATION_CELL, PETSC_FALSE, 0.0, &dens, n));
  PetscCall(CheckCase(comm, 2, "DNPP", PPE_LOCATION_VERTEX, PETSC_TRUE, 0.0, &faces, n));
  PetscCall(CheckErrors(comm));
  PetscCall(PetscFinalize());
  return tap_failures ? 1 : 0;
}
