/*
   Separable description of a 7-point pressure operator on a DMDA, read by PC fftptdma.

   The operator, restricted to a box of DMDA indices [lo[d], lo[d] + n[d]) per direction d, is

       A = diag(rowscale) * ( sigma I + Lx (+) Ly (+) Lz )

   where (+) is the Kronecker sum (Lx acts along x on every (j,k) line, and so on), and
     - Lx = c[0] * K(loc[0], bc[0], bc[1], n[0]),  Ly = c[1] * K(loc[1], bc[2], bc[3], n[1]),
       with K the unit-spacing second-difference matrix (non-symmetric form) whose end rows
       follow the boundary condition and location (docs/conventions.md):
         periodic                         wraps around
         cell Neumann      end row  [ 1, -1]
         vertex Neumann    end row  [ 2, -2]      (the boundary node is an unknown)
         cell Dirichlet    end row  [ 3, -1]      (ghost eliminated, wall half a cell away)
         vertex Dirichlet  end row  [ 2, -1]      (boundary node one spacing away, not an unknown)
       so that the eigenvalues of Lx are c[0] * PPEGridEigenvalues1d(loc, lo, hi, n, 1.0);
     - Lz is a general tridiagonal matrix of n[2] rows, given by its rows in non-symmetric form:
         (Lz x)_k = -zlo[k] x_{k-1} + zdi[k] x_k - zhi[k] x_{k+1}
       (zlo[0] and zhi[n-1] couple around the period when bc[4] is periodic, else they are 0);
     - rowscale > 0 is any per-row diagonal scaling (cell volumes, the application's own).

   DMDA points outside the box are Dirichlet nodes assembled as scaled identity rows
   (diagonal idiag > 0, no off-diagonal entry), as in PETSc's DMDA tutorials: their value is
   b/idiag, and the rows of the box that couple to them move that coupling to the right-hand
   side. When the box is the whole DMDA, idiag is NULL.

   Built from a PPEGrid (MATPPESTENCIL operators, exact by construction) or inferred from the
   entries of an assembled matrix (checked entry by entry unless an approximation is asked for).
*/
#pragma once

#include <ppekit/private/ppeimpl.h>

typedef enum {
  PPE_SEPARABLE_GRID,       /* from the PPEGrid of a MATPPESTENCIL operator */
  PPE_SEPARABLE_INFERRED,   /* inferred from an assembled matrix, exact */
  PPE_SEPARABLE_APPROXIMATE /* nearest separable operator of a non-separable assembled matrix */
} PPESeparableSource;

typedef struct {
  PPESeparableSource source;
  PetscInt           M[3];     /* global DMDA sizes */
  PetscInt           lo[3];    /* DMDA index of the first unknown of the box (1 after an identity-row Dirichlet node) */
  PetscInt           n[3];     /* unknowns of the box per direction */
  PPELocation        loc[3];   /* location of the unknowns per direction */
  PPEBCType          bc[6];    /* x-, x+, y-, y+, z-, z+ */
  PetscReal          c[2];     /* coefficients of Lx and Ly (1/h^2 in the grid's units) */
  PetscReal         *zlo;      /* n[2] rows of Lz: coupling to k-1 (negated) */
  PetscReal         *zdi;      /* n[2] rows of Lz: diagonal */
  PetscReal         *zhi;      /* n[2] rows of Lz: coupling to k+1 (negated) */
  PetscReal          sigma;    /* Helmholtz shift */
  Vec                rowscale; /* DMDA global vector of row scalings (1 outside the box); NULL means 1 */
  Vec                idiag;    /* DMDA global vector: diagonal of the identity rows outside the box, 0 inside; NULL if none */
  PetscBool          singular; /* no Dirichlet face and sigma = 0: constant null space of the box operator */
  PetscReal          misfit;   /* approximate: largest relative entry difference to the matrix; 0 when exact */
  char               how[256]; /* one line for -ksp_view: how the description was obtained and what was checked */
} PPESeparable;

/* src/fft/separable.c (exported for the tests t4xx/t6xx) */
PETSC_EXTERN PetscErrorCode PPESeparableCreateFromGrid(PPEGrid, PPESeparable **);
PETSC_EXTERN PetscErrorCode PPESeparableView(const PPESeparable *, PetscViewer);
PETSC_EXTERN PetscErrorCode PPESeparableDestroy(PPESeparable **);
PETSC_EXTERN PetscErrorCode PPESeparableSymmetricScaling(const PPESeparable *, DM, Vec *, PetscReal *, PetscReal[2]);
/* src/fft/separableinfer.c: da is the DMDA of the matrix (dof 1, 7-point star, width >= 1);
   approximate = PETSC_FALSE fails with a PETSc error naming the first check that failed, and
   approxopt (how the caller asks for the approximation, e.g. an option name; NULL: generic
   text) in the advice of the errors that an approximation would avoid. */
PETSC_EXTERN PetscErrorCode PPESeparableInferFromMat(Mat, DM, PetscBool, const char[], PPESeparable **);

/*
   Internals of the inference, one file per phase, called in this order by the driver
   (src/fft/separableinfer.c, which has the method):
     separableread.c   the DMDA layout, the owned rows, the collective helpers
     separablecheck.c  positive diagonals; row scalings and the entry check (step 6)
     separableface.c   identity-row faces and the box (step 2), kinds of the x and y faces (4)
     separablecoef.c   y coefficient and z rows per plane (3), shift and z BCs (5)
     separablefinish.c rescaling to the reference row, the description and its summary
*/

/* Entry check: an entry matches the model when it differs from it by at most this times the
   largest entry of its row. The model reproduces an assembled separable operator up to a few
   roundings of the application's products (1e-16 relative each): 1e-12 is a thousand times
   that, and a coefficient that really varies differs by far more. */
#define PPE_INFER_RTOL 1.0e-12
/* Face kinds: largest distance of an end row [d, -o] (relative to its row scaling) to the
   nearest kind [1,-1], [2,-2], [3,-1], [2,-1]. An end row is read relative to a row scaling
   taken from the couplings of the other direction, so the roundings of the application's
   coefficients (1/h^2 computed in two ways, volumes) enter it, some 1e-15 each; 1e-8 accepts
   those many times over, and the kinds are a whole unit apart. */
#define PPE_INFER_FTOL 1.0e-8
/* A z row sum, or the deviation of a row scaling from 1, smaller than this relative to its
   scale is rounding: the per-plane averages carry a few roundings per term (well below 100
   ulps), while a real shift, Dirichlet end or varying row scale is of order 1. */
#define PPE_INFER_ROUND (100 * PETSC_MACHINE_EPSILON)

/* One owned row as read from the matrix. */
typedef struct {
  PetscReal diag;    /* diagonal entry */
  PetscReal nb[6];   /* couplings to x-, x+, y-, y+, z-, z+ (0 when absent) */
  PetscReal other;   /* largest |entry| off the 7-point star */
  PetscInt  ocol[3]; /* (i,j,k) of that entry */
  PetscReal amax;    /* largest |entry| of the row */
} PPEInferRow;

/* Kinds of an end row in x or y, and their rows [d, -o]. */
typedef enum {
  PPE_INFER_END_CELL_NEUMANN,
  PPE_INFER_END_VERTEX_NEUMANN,
  PPE_INFER_END_CELL_DIRICHLET,
  PPE_INFER_END_VERTEX_DIRICHLET
} PPEInferEnd;
static const PetscReal   PPEInferEndD[4]      = {1, 2, 3, 2};
static const PetscReal   PPEInferEndO[4]      = {1, 2, 1, 1};
static const char *const PPEInferEndNames[4]  = {"cell Neumann [1,-1]", "vertex Neumann [2,-2]", "cell Dirichlet [3,-1]", "vertex Dirichlet [2,-1]"};
static const char *const PPEInferFaceNames[6] = {"x-", "x+", "y-", "y+", "z-", "z+"};
static const char *const PPEInferDirNames[3]  = {"x", "y", "z"};

/* What an entry check found wrong. */
typedef enum {
  PPE_INFER_FAIL_NONE,
  PPE_INFER_FAIL_COUPLING, /* a star coupling differs from the model */
  PPE_INFER_FAIL_DIAGONAL, /* the diagonal differs from the model */
  PPE_INFER_FAIL_OFFSTAR,  /* an entry off the 7-point star */
  PPE_INFER_FAIL_IDENTITY  /* a row of an identity-row face has an off-diagonal entry */
} PPEInferFailKind;

/* The first failing row (exchanged between ranks packed into PPE_INFER_FAIL_PACKED reals:
   separablecheck.c, FailPack and FailUnpack). */
typedef struct {
  PPEInferFailKind kind;
  PetscInt         i, j, k;    /* the row */
  PetscInt         nb;         /* the entry: 0-5 a star neighbour (as PPEInferFaceNames), 6 the diagonal, 7 off the star */
  PetscInt         ci, cj, ck; /* column of the largest entry off the star */
  PetscReal        expected, found, amax;
} PPEInferFail;
#define PPE_INFER_FAIL_PACKED 11

typedef struct {
  MPI_Comm     comm;
  PetscMPIInt  rank, size;
  PetscInt     M[3];       /* global sizes */
  PetscBool    per[3];     /* periodic DMDA direction (also the one-point y of a 2D DMDA's shadow: no y neighbour, no y face) */
  PetscBool    flat;       /* a 2D DMDA's nx x 1 x ny shadow: y has one point and no coupling (c1 = 0), the x faces are
                             read relative to the row scaling implied by the z couplings */
  PetscInt     s[3], m[3]; /* owned corner and sizes */
  PetscInt     pm[3];      /* process grid */
  PetscInt    *off[3];     /* prefix sums of the ownership ranges, pm[d]+1 each */
  PetscInt    *start;      /* size+1 first global index of each rank */
  PetscInt     nloc;       /* owned rows */
  PPEInferRow *row;        /* nloc rows */
  PetscBool    approx;     /* build the nearest separable operator */
  const char  *approxopt;  /* how the caller asks for it, named in the errors */
  PetscBool    ident[6];   /* identity-row face */
  PetscInt     lo[3], n[3];
  PetscInt     kref;         /* z index of the reference rows */
  PetscReal    c1;           /* y coefficient (x coefficient 1) */
  PetscReal   *zd, *zl, *zh; /* per DMDA plane: z diagonal + shift, z couplings (negated) */
  PPEInferEnd  end[4];       /* kinds of the x and y faces (unused when periodic) */
  PetscReal    sigma;
  PetscReal   *zdi;       /* per DMDA plane: z diagonal without the shift */
  PetscReal   *r;         /* nloc row scalings (box rows) */
  PetscReal   *acc, *all; /* sums over the planes' rows (freed by the driver, also after an error) */
  PetscInt     nchecked;  /* rows checked, all ranks */
  PetscReal    misfit;    /* largest relative entry difference */
} PPEInferCtx;

static inline PetscInt PPEInferLocalIndex(const PPEInferCtx *c, PetscInt i, PetscInt j, PetscInt k)
{
  return (i - c->s[0]) + c->m[0] * ((j - c->s[1]) + c->m[1] * (k - c->s[2]));
}

static inline PetscBool PPEInferInBox(const PPEInferCtx *c, PetscInt d, PetscInt x)
{
  return (PetscBool)(x >= c->lo[d] && x < c->lo[d] + c->n[d]);
}

/* the y index of the reference rows: lo + 1, or 0 on the one y point of a 2D shadow */
static inline PetscInt PPEInferJRef(const PPEInferCtx *c)
{
  return c->flat ? 0 : c->lo[1] + 1;
}

/* interior in direction d: both neighbours in the box */
static inline PetscBool PPEInferInterior(const PPEInferCtx *c, PetscInt d, PetscInt x)
{
  return (PetscBool)(c->per[d] || (x > c->lo[d] && x < c->lo[d] + c->n[d] - 1));
}

/* position of row (i,j,k) in the natural ordering, the key of "the first failing row" */
static inline PetscReal PPEInferNaturalKey(const PPEInferCtx *c, PetscInt i, PetscInt j, PetscInt k)
{
  return (PetscReal)i + (PetscReal)c->M[0] * ((PetscReal)j + (PetscReal)c->M[1] * (PetscReal)k);
}

static inline PPELocation PPEInferEndLocation(PPEInferEnd t)
{
  return (t == PPE_INFER_END_VERTEX_NEUMANN || t == PPE_INFER_END_VERTEX_DIRICHLET) ? PPE_LOCATION_VERTEX : PPE_LOCATION_CELL;
}

/* the advice of the errors an approximation avoids */
static inline const char *PPEInferApproxOption(const PPEInferCtx *c)
{
  return c->approxopt ? c->approxopt : "approximate = PETSC_TRUE";
}

/* What a visit of the owned rows does with one row (i,j,k) = x. */
typedef PetscErrorCode (*PPEInferRowFn)(PPEInferCtx *, const PPEInferRow *, const PetscInt[3], void *);

/* separableread.c */
PETSC_INTERN PetscErrorCode PPEInferSetUpLayout(PPEInferCtx *, Mat, DM);
PETSC_INTERN PetscErrorCode PPEInferReadRows(PPEInferCtx *, Mat);
PETSC_INTERN PetscErrorCode PPEInferForEachRow(PPEInferCtx *, PPEInferRowFn, void *);
PETSC_INTERN PetscErrorCode PPEInferFirst(PPEInferCtx *, PetscReal, PetscReal *, PetscInt, PetscMPIInt *);
/* separablecheck.c */
PETSC_INTERN PetscErrorCode PPEInferCheckDiagonal(PPEInferCtx *);
PETSC_INTERN PetscErrorCode PPEInferCheck(PPEInferCtx *);
/* separableface.c */
PETSC_INTERN PetscErrorCode PPEInferBox(PPEInferCtx *);
PETSC_INTERN PetscErrorCode PPEInferFaces(PPEInferCtx *);
/* separablecoef.c */
PETSC_INTERN PetscErrorCode PPEInferScaleFrom(PPEInferCtx *, const PPEInferRow *, PetscInt, PetscReal, PetscInt, PetscInt, PetscInt, PetscReal *);
PETSC_INTERN PetscErrorCode PPEInferPlanes(PPEInferCtx *);
PETSC_INTERN PetscErrorCode PPEInferZ(PPEInferCtx *, PPESeparable *, PetscBool *);
/* separablefinish.c */
PETSC_INTERN PetscErrorCode PPEInferFinish(PPEInferCtx *, DM, const char *, PetscBool, PPESeparable *);

/* Run a local check that may fail on some ranks only, and raise the error on every rank. */
#define PPEInferCollective(c, call) \
  do { \
    PetscErrorCode _ierr, _max; \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    _ierr = (call); \
    PetscCall(PetscPopErrorHandler()); \
    PetscCall(MPIU_Allreduce(&_ierr, &_max, 1, MPI_INT, MPI_MAX, (c)->comm)); \
    if (_max) { \
      char        _msg[512] = ""; \
      PetscMPIInt _owner; \
      PetscReal   _key = -1, _buf[1] = {0}; \
      if (_ierr) { \
        const char *_s = NULL; \
        PetscCall(PPEErrorMessage(_ierr, &_s)); \
        if (_s) PetscCall(PetscStrncpy(_msg, _s, sizeof(_msg))); \
        _key = (PetscReal)(c)->rank; \
      } \
      PetscCall(PPEInferFirst((c), _key, _buf, 0, &_owner)); \
      PetscCallMPI(MPI_Bcast(_msg, (PetscMPIInt)sizeof(_msg), MPI_CHAR, _owner, (c)->comm)); \
      SETERRQ((c)->comm, PETSC_ERR_ARG_WRONG, "%s", _msg); \
    } \
  } while (0)
