/*
   Private layout of the matrix-free stencil (MATPPESTENCIL) and the back-end
   entry points that apply it to the rank's box.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned
     Bi-CGSTAB with alpaka", arXiv:2503.08935, 2025.
*/
#pragma once

#include <petsc/private/matimpl.h>
#include <petscsf.h>
#include <ppekit/private/gridimpl.h>
#include <ppekit/stencil.h>
#include <ppekit/private/backendimpl.h>
#include <kernels/stencil7.h>
#include <kernels/krylov.h>
#include <kernels/chebyci.h>

/* Flops logged per point of an application of the operator on box B: the 7 products and 6
   differences of ppe_s7_apply() (the coefficients, made from the 1D tables, are not
   counted), or with variable coefficients the 6 differences, 6 products and 5 sums of
   ppe_s7_var_apply() (and the shift's product and sum where sigma is not 0); and per point of
   each fused dot product of its output (a product and a sum). */
#define PPE_STENCIL_FLOPS(B)  ((B)->K.x ? ((B)->sigma != 0 ? 19.0 : 17.0) : 13.0)
#define PPE_STENCIL_DOT_FLOPS 2.0

/* What a back end needs to apply the operator on this rank's box. */
typedef struct {
  ppe_s7_dir   X, Y, Z;    /* 1D tables, global index */
  double       sigma;      /* Helmholtz shift */
  PetscInt     N[3];       /* global sizes */
  PetscBool    per[3];     /* periodic directions */
  PetscInt     xs, ys, zs; /* first owned point */
  PetscInt     xm, ym, zm; /* owned extent */
  PetscBool    nb[6];      /* a neighbour value across this face comes from the halo */
  PetscBool    avx2;       /* host: use the AVX2 row loops */
  ppe_s7_faces K;          /* face coefficients of the variable operator (K.x NULL: constant) */
} PPEStencilBox;

/* Halo face buffers (NULL where nb[] is false). Layout: x faces [(k-zs)*ym + (j-ys)],
   y faces [(k-zs)*xm + (i-xs)], z faces [(j-ys)*xm + (i-xs)]. */
typedef struct {
  const double *f[6];
} PPEStencilHalo;

/* Phases of an application: the points that need no halo value, then the others. */
typedef enum {
  PPE_STENCIL_CORE,
  PPE_STENCIL_SURFACE
} PPEStencilPhase;

/* Local dot products of the output computed while a phase is computed (fused apply + dot):
   on the host, rows[q][r] is y . u[q] over row r = k ym + j of the box (ppe_s7_row_dot's order:
   the x ends of a row that has an x neighbour are added in the surface phase), and the end of
   the surface phase sums the rows into s in the device's order (ppe_red_array); a device
   computes the same rows and sums. u[q] may be the output itself. */
typedef struct {
  PetscInt      n;       /* number of dot products, 0 to 2 */
  const double *u[2];    /* the other operands, arrays over the box */
  double       *rows[2]; /* host: the row partials, ym zm each */
  double        s[2];    /* partial sums on this rank */
} PPEStencilDot;

/* The Chebyshev step fused into the sweep (KernelCI2 of Pennati et al. (2025)): instead of
   (A x)_p the sweep writes w_p = ppe_ci_point(rho, rho_old, s2, d2, dinv_p, b_p, (A x)_p, x_p, z_p). */
typedef struct {
  double        rho, rho_old, s2, d2; /* the step's scalars */
  const double *b, *z, *dinv;         /* arrays over the box (dinv NULL: D = I) */
  double       *w;                    /* output over the box */
} PPEStencilCI;

/* Number of faces in the x, y and z face arrays of box B (ppe_s7_faces). */
static inline void PPEStencilFaceCounts(const PPEStencilBox *B, size_t nf[3])
{
  nf[0] = (size_t)(B->xm + 1) * B->ym * B->zm;
  nf[1] = (size_t)B->xm * (B->ym + 1) * B->zm;
  nf[2] = (size_t)B->xm * B->ym * (B->zm + 1);
}

/* Coefficients of point (ii, jj, kk) of box B (box indices) of the variable operator. */
static inline ppe_s7_coef PPEStencilBoxFaceCoef(const PPEStencilBox *B, PetscInt ii, PetscInt jj, PetscInt kk)
{
  const int e[6] = {ii > 0 || B->nb[PPE_XLO], ii < B->xm - 1 || B->nb[PPE_XHI], jj > 0 || B->nb[PPE_YLO], jj < B->ym - 1 || B->nb[PPE_YHI], kk > 0 || B->nb[PPE_ZLO], kk < B->zm - 1 || B->nb[PPE_ZHI]};

  return ppe_s7_box_face_coef(&B->K, B->xm, B->ym, ii, jj, kk, ppe_s7_shift(B->X, B->Y, B->Z, B->sigma, B->xs + ii, B->ys + jj, B->zs + kk), e);
}

PETSC_INTERN void           PPEStencilApply_Host(const PPEStencilBox *, const double *, const PPEStencilHalo *, double *, PPEStencilPhase);
PETSC_INTERN void           PPEStencilApplyDot_Host(const PPEStencilBox *, const double *, const PPEStencilHalo *, double *, PPEStencilPhase, PPEStencilDot *);
PETSC_INTERN void           PPEStencilApplyCI_Host(const PPEStencilBox *, const double *, const PPEStencilHalo *, PPEStencilPhase, const PPEStencilCI *);
PETSC_INTERN PetscErrorCode PPEStencilBoxSetUp(PPEGrid, PPEStencilBox *);
PETSC_INTERN void           PPEStencilBoxDiagonal(const PPEStencilBox *, PetscScalar *);

/* The state of an application on its back end (src/stencil/stencildev.c): the tables and face
   buffers in the back end's memory, the work of the fused dot products; made at set-up. */
typedef struct _n_PPEStencilDev *PPEStencilDev;

/* One application, run in two phases around the halo exchange through the table of the back
   end of d: y = A x, with the partial dot products y . u[q] (q < nd), or with ci the fused
   Chebyshev step into ci->w. Arrays in the back end's memory. */
typedef struct {
  PPEStencilDev     d;
  const double     *x;    /* input */
  const double     *xh;   /* its host values, the source of the halo exchange (NULL: x lives only in a device's memory) */
  double           *y;    /* output (unused with ci) */
  PetscInt          nd;   /* fused dot products, 0 to 2 */
  const double     *u[2]; /* their other operands (may be y or x) */
  double            s[2]; /* their partial sums on this rank */
  const ppe_dev_ci *ci;   /* the fused Chebyshev step (arrays in the back end's memory), or NULL */
} PPEStencilRun;

PETSC_INTERN PetscErrorCode PPEStencilDevCreate(PPEBackend, const PPEStencilBox *, const PPEStencilHalo *, const double *, size_t, PPEStencilDev *);
PETSC_INTERN PetscErrorCode PPEStencilDevDestroy(PPEStencilDev *);
PETSC_INTERN PetscErrorCode PPEStencilRunCore(const PPEStencilRun *);
PETSC_INTERN PetscErrorCode PPEStencilRunSurface(PPEStencilRun *);
PETSC_INTERN PetscErrorCode PPEStencilRunWithHalo(Mat, PPEStencilRun *);
PETSC_INTERN PetscErrorCode PPEStencilDevBoundary(PPEStencilDev, const double *, const PetscBool[6], const double **);
PETSC_INTERN void           PPEStencilDevSetHaloStatic(PPEStencilDev, PetscBool);
PETSC_INTERN PetscBool      PPEStencilDevCanSweep(PPEStencilDev);
PETSC_INTERN PetscErrorCode PPEStencilDevCISweep(PPEStencilDev, ppe_dev_ci_sweep *);
/* the arrays of an application's vectors (x first) on back end b, where d lives, and x's host values */
PETSC_INTERN PetscErrorCode PPEStencilArraysGet(PPEStencilDev, PPEBackend, PetscInt, const Vec[], const PPEAccess[], PPEArrays *, const double **);
PETSC_INTERN PetscErrorCode PPEStencilArraysRestore(PPEStencilDev, PPEArrays *, const double **);
PETSC_INTERN PetscErrorCode PPEStencilApply(PPEStencilDev, PPEBackend, Vec, Vec, PetscErrorCode (*)(void *, PPEStencilRun *), void *, PetscLogDouble);

typedef struct {
  PPEGrid        grid;    /* reference */
  PetscBool      overlap; /* overlap the halo exchange with the core points */
  PPEStencilBox  box;
  PetscSF        sf;       /* roots: owned values; leaves: the halo buffer */
  PetscBool      has_halo; /* some rank has halo leaves */
  PetscInt       nhalo;    /* halo values on this rank */
  PetscScalar   *halo;
  PPEStencilHalo faces;   /* pointers into halo */
  Vec            work;    /* MatMultAdd with y == z */
  PPEBackend     backend; /* where the applications run */
  PPEStencilDev  state;   /* the applications' state on the back end, made with the grid and back end */
  /* variable coefficients (stencilcoef.c) */
  PPEStencilCoefficients coef;      /* where box.K comes from */
  PPEFaceMean            mean;      /* face value of a density */
  double                *kbuf;      /* box.K's three arrays, one allocation (NULL: constant) */
  Vec                    density;   /* a copy of the density (coef DENSITY), for a change of mean */
  PetscReal              brange[2]; /* smallest and largest beta of a face (1, 1: constant) */
} Mat_PPEStencil;

PETSC_INTERN PetscErrorCode PPEStencilHaloSetUp(Mat);
PETSC_INTERN PetscErrorCode MatGetDiagonalBlock_PPEStencil(Mat, Mat *);
/* the fused Chebyshev step w = ... (ci: its scalars; vectors b, z, dinv (may be NULL), w), on
   the full operator or the rank-local block (local) */
PETSC_INTERN PetscErrorCode PPEStencilMultCI(Mat, PetscBool, Vec, Vec, Vec, Vec, const PPEStencilCI *, Vec);
/* several Chebyshev steps on the rank-local block in one temporally blocked sweep (the
   scalars of S; vectors b, dinv (may be NULL), y, z (the two levels before, may be NULL when
   S->j0 == 1), yout, zout (the last two, zout may be NULL)), where A's back end runs them
   (PPEStencilCanSweep) */
PETSC_INTERN PetscErrorCode PPEStencilCanSweep(Mat, PetscBool *);
PETSC_INTERN PetscErrorCode PPEStencilMultCISweep(Mat, const ppe_dev_ci_sweep *, Vec, Vec, Vec, Vec, Vec, Vec);
/* the state of A's applications made for its grid and back end */
PETSC_INTERN PetscErrorCode PPEStencilStateSetUp(Mat);
PETSC_INTERN PetscErrorCode PPEStencilLocalStateSetUp(Mat);
PETSC_INTERN PetscErrorCode PPEStencilAssembleInto(PPEGrid, const PPEStencilBox *, Mat);
/* the coefficients of A copied into B (same grid), and their state freed */
PETSC_INTERN PetscErrorCode PPEStencilCoefCopy(Mat, Mat);
PETSC_INTERN PetscErrorCode PPEStencilCoefReset(Mat);
/* A's face arrays replaced by a buffer it takes over (coarse levels of multigrid) */
PETSC_INTERN PetscErrorCode PPEStencilSetFaceArrays(Mat, PPEStencilCoefficients, double *, const PetscReal[2]);
/* whether a matrix is the constant-coefficient operator of grid (collective) */
PETSC_INTERN PetscErrorCode PPEStencilIsGridOperator(Mat, PPEGrid, PetscBool *);
